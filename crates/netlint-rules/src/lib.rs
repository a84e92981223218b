//! netlint rules: the [`Rule`] type, the registry of every rule, the
//! [`Context`] through which rules reach the shared analyses, and the engine
//! that applies configured levels and `allow` suppressions.

mod context;
mod engine;
pub mod rules;

pub use context::Context;
pub use engine::{
    all_ids, check, input_rules, registry, rule_by_id, Outcome, RuleConfig, Suppressed, UNREADABLE,
    UNUSED_ALLOW,
};
pub use netlint_model::RuleMeta;

use netlint_model::Diagnostic;

/// One rule: its metadata next to a pure check over the analyses.
pub struct Rule {
    pub meta: RuleMeta,
    pub check: fn(&Context<'_>, &mut Vec<Diagnostic>),
}

/// Declares a rule in the module that implements it: id, category, default
/// severity, a one-line summary, and the page `rules/<id>.md` as its docs,
/// so a rule without a page does not compile.
#[macro_export]
macro_rules! declare_rule {
    ($name:ident, id: $id:literal, category: $cat:literal, severity: $sev:ident, summary: $summary:literal, check: $check:path $(,)?) => {
        pub static $name: $crate::Rule = $crate::Rule {
            meta: $crate::RuleMeta {
                id: $id,
                category: $cat,
                default_severity: netlint_model::Severity::$sev,
                summary: $summary,
                doc: include_str!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/../../rules/",
                    $id,
                    ".md"
                )),
            },
            check: $check,
        };
    };
}

/// Helpers for rule unit tests.
#[cfg(test)]
pub(crate) mod testing {
    use netlint_model::{load, Diagnostic, SourceFile};

    /// Loads `src` (which must be valid) and returns the findings of `rule`.
    pub fn findings(src: &str, rule: &str) -> Vec<Diagnostic> {
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
            .filter(|d| d.rule == rule)
            .collect()
    }
}
