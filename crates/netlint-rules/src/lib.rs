//! netlint rules: the [`Rule`] type, the registry of every rule, the
//! [`Context`] through which rules reach the shared analyses, and the engine
//! that applies configured levels and `allow` suppressions.

mod context;
pub mod drift;
mod engine;
pub mod phrases;
pub mod rules;

pub use context::Context;
pub use engine::{
    all_ids, check, check_with_context, input_rules, registry, rule_by_id, rule_id, Outcome,
    RuleConfig, Suppressed, UNREADABLE, UNUSED_ALLOW,
};
pub use netlint_model::RuleMeta;

use netlint_model::Diagnostic;

/// One rule: its metadata next to a pure check over the analyses.
pub struct Rule {
    pub meta: RuleMeta,
    pub check: fn(&Context<'_>, &mut Vec<Diagnostic>),
}

/// Declares a rule in the module that implements it: id, category, default
/// severity, a one-line summary, and the page `rules/<id>.md` of this crate
/// (crates/netlint-rules/rules/, inside the package) as its docs,
/// so a rule without a page does not compile.
#[macro_export]
macro_rules! declare_rule {
    ($name:ident, id: $id:literal, category: $cat:literal, severity: $sev:ident, summary: $summary:literal, check: $check:path $(,)?) => {
        pub static $name: $crate::Rule = $crate::Rule {
            meta: $crate::RuleMeta {
                id: netlint_model::RuleId::declared($id),
                category: const { netlint_model::Category::named($cat) },
                default_severity: netlint_model::Severity::$sev,
                summary: $summary,
                doc: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/rules/", $id, ".md")),
            },
            check: $check,
        };
    };
}

/// Helpers for rule unit tests.
#[cfg(test)]
pub(crate) mod testing {
    use netlint_model::{load, Diagnostic, RuleId, SourceFile, Span};

    /// The 1-based line of `src` a span starts on.
    pub fn line_of(src: &str, span: Span) -> usize {
        src[..span.start].lines().count().max(1)
    }

    /// The 1-based number of the first line of `src` that `pred` accepts.
    pub fn line_where(src: &str, pred: impl Fn(&str) -> bool) -> usize {
        src.lines().position(pred).expect("a line matches") + 1
    }

    /// The rule a test asks about: its `RULE` (`&super::RULE`, so that a
    /// misspelt name does not compile) or, where a test must, its id as a
    /// string, which panics when it names no rule.
    pub trait TestRule {
        fn rule_id(&self) -> RuleId;
    }

    impl TestRule for &crate::Rule {
        fn rule_id(&self) -> RuleId {
            self.meta.id
        }
    }

    impl TestRule for &str {
        fn rule_id(&self) -> RuleId {
            match crate::rule_id(self) {
                Some(id) => id,
                None => panic!("`{self}` is not the id of a rule"),
            }
        }
    }

    /// Loads `src` (which must be valid) and returns the findings of `rule`
    /// ([`TestRule`]: a misspelt id does not compile or panics, instead of
    /// finding nothing).
    pub fn findings(src: &str, rule: impl TestRule) -> Vec<Diagnostic> {
        let id = rule.rule_id();
        let loaded = load(&SourceFile::new("test.toml", src));
        assert!(
            loaded.diagnostics.is_empty(),
            "test design has input errors: {:#?}",
            loaded.diagnostics
        );
        let design = loaded.design.expect("design");
        crate::check(&design, &crate::RuleConfig::default())
            .diagnostics
            .into_iter()
            .filter(|d| id == d.rule)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    #[should_panic(expected = "`mtu-mismach` is not the id of a rule")]
    fn a_misspelt_rule_id_in_a_test_panics_instead_of_finding_nothing() {
        crate::testing::findings("[design]\nname = \"t\"\n", "mtu-mismach");
    }

    #[test]
    fn the_registry_hands_out_ids_of_rules_only() {
        let id = crate::rule_id("mtu-mismatch").expect("a rule");
        assert_eq!(id, crate::rules::mtu::mtu_mismatch::RULE.meta.id);
        assert_eq!(id.as_str(), "mtu-mismatch");
        assert!(crate::rule_id("schema").is_some());
        assert!(crate::rule_id("mtu-mismach").is_none());
    }

    #[test]
    fn categories_are_named_as_before() {
        use netlint_model::Category;
        for c in Category::ALL {
            assert_eq!(Category::parse(c.as_str()), Some(c));
            assert_eq!(Category::named(c.as_str()), c);
        }
        assert_eq!(
            crate::RuleConfig::categories(),
            [
                "drift",
                "input",
                "mtu",
                "redundancy",
                "stp",
                "teaming",
                "traffic",
                "vsphere"
            ]
        );
    }
}
