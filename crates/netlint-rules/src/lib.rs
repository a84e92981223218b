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

    /// A rule's shortcut (`check_with(cx, out, true)`) finds what its
    /// exhaustive walk (`false`) finds, word for word, on the designs of
    /// [`random_design`] with seeds 0 to 399; enough of them load and
    /// produce findings for the comparison to mean something.
    pub fn shortcut_matches_exhaustive(
        check_with: fn(&crate::Context<'_>, &mut Vec<Diagnostic>, bool),
    ) {
        let (mut loaded, mut found) = (0, 0);
        for seed in 0..400 {
            let src = random_design(seed);
            let Some(design) = load(&SourceFile::new("t.toml", &src)).design else {
                continue;
            };
            loaded += 1;
            let cx = crate::Context::new(&design);
            let (mut fast, mut every) = (Vec::new(), Vec::new());
            check_with(&cx, &mut fast, true);
            check_with(&cx, &mut every, false);
            assert_eq!(
                format!("{fast:#?}"),
                format!("{every:#?}"),
                "seed {seed}:\n{src}"
            );
            found += fast.len();
        }
        assert!(loaded > 200, "{loaded} designs loaded");
        assert!(found > 20, "{found} findings");
    }

    /// A random design (deterministic from `seed`) for comparing two ways
    /// of computing one rule: a few switches (some MLAG pairs, some
    /// without spanning tree, some with a small MTU or a short VLAN list),
    /// links between them (a tree and a few more, of mixed speeds, MTUs and
    /// VLAN lists), configured ports with their own MTU, and hosts in one
    /// or two clusters with NICs of mixed speeds and MTUs, a virtual switch
    /// carrying three networks, sometimes an uncabled NIC or a direct
    /// cable. Not every design loads.
    pub fn random_design(seed: u64) -> String {
        use std::fmt::Write;
        let mut state = seed.wrapping_mul(6364136223846793005) ^ 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: u64| -> u64 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % n.max(1)
        };
        let mut s = String::from("[design]\nname = \"r\"\n");
        s.push_str("[networks.n10]\nrole = \"management\"\nvlan = 10\n");
        let _ = writeln!(
            s,
            "[networks.n20]\nrole = \"csv\"\nvlan = 20\nmtu = {}",
            [9000, 1500, 4000][next(3) as usize]
        );
        let _ = writeln!(
            s,
            "[networks.n30]\nrole = \"live-migration\"\nvlan = 30\nmtu = {}",
            [9000, 1500][next(2) as usize]
        );
        let n = 2 + next(6) as usize;
        let mstp = next(3) == 0;
        let speeds = ["1G", "10G", "25G", "100G"];
        // MLAG pairs: s0 and s1, s2 and s3, ... now and then.
        let mlag: Vec<bool> = (0..n / 2).map(|_| next(4) == 0).collect();
        for i in 0..n {
            let mode = if next(8) == 0 {
                "none"
            } else if mstp {
                "mstp"
            } else {
                "rstp"
            };
            let mut stp = format!("mode = \"{mode}\", priority = {}", 4096 * (1 + next(8)));
            if mode == "mstp" {
                stp.push_str(", region = \"r\", revision = 1, instances = { 1 = [20], 2 = [30] }");
            }
            let _ = writeln!(s, "[switches.s{i}]\nstp = {{ {stp} }}");
            if next(3) == 0 {
                let _ = writeln!(s, "mtu = {}", [1500, 9216, 9000][next(3) as usize]);
            } else {
                s.push_str("mtu = 9216\n");
            }
            if next(6) == 0 {
                let _ = writeln!(
                    s,
                    "vlans = {}",
                    ["[10, 20]", "[10, 30]", "[10, 20, 30]"][next(3) as usize]
                );
            }
            if mlag.get(i / 2).copied().unwrap_or(false) {
                let _ = writeln!(s, "mlag = \"m{}\"", i / 2);
            }
        }
        for (k, _) in mlag.iter().enumerate().filter(|(_, m)| **m) {
            let _ = writeln!(
                s,
                "[[links]]\nname = \"peer{k}\"\na = \"s{}\"\nb = \"s{}\"\nkind = \"peer-link\"\nspeed = \"100G\"{}",
                2 * k,
                2 * k + 1,
                if next(3) == 0 { "\nvlans = [10, 30]" } else { "" }
            );
        }
        // Configured ports, one per NIC that has one, written at the end.
        let mut ports = String::new();
        let mut port_count = 0;
        let link = |s: &mut String,
                    name: String,
                    a: usize,
                    b: usize,
                    next: &mut dyn FnMut(u64) -> u64| {
            let _ = writeln!(
                s,
                "[[links]]\nname = \"{name}\"\na = \"s{a}\"\nb = \"s{b}\"\nspeed = \"{}\"\nmembers = {}",
                speeds[next(4) as usize],
                1 + next(2)
            );
            match next(6) {
                0 => s.push_str("mtu = 1500\n"),
                1 => s.push_str("mtu = 9216\n"),
                _ => {}
            }
            if next(6) == 0 {
                let _ = writeln!(
                    s,
                    "vlans = {}",
                    ["[10, 20]", "[10, 30]", "[20, 30]"][next(3) as usize]
                );
            }
        };
        // Two peers of one MLAG domain are joined by their peer-link only.
        let peers =
            |a: usize, b: usize| a / 2 == b / 2 && mlag.get(a / 2).copied().unwrap_or(false);
        for i in 1..n {
            let p = next(i as u64) as usize;
            if !peers(p, i) {
                link(&mut s, format!("t{i}"), p, i, &mut next);
            }
        }
        for k in 0..next(n as u64 + 1) {
            let (a, b) = (next(n as u64) as usize, next(n as u64) as usize);
            if a != b && !peers(a, b) {
                link(&mut s, format!("x{k}"), a, b, &mut next);
            }
        }
        let hosts = 3 + next(14) as usize;
        let mut peered = vec![false; hosts];
        // Each host's NICs: switch (none: uncabled), speed, MTU. Half the
        // hosts are built like the one before them (classes of several).
        let mut plan: Vec<(Option<usize>, Option<usize>, u32)> = Vec::new();
        for h in 0..hosts {
            let _ = writeln!(s, "[hosts.h{h}]\ncluster = \"c{}\"", next(4).min(1));
            let again = h > 0 && next(2) == 0;
            if !again {
                plan = (0..1 + next(3))
                    .map(|_| {
                        let sw = (next(12) != 0).then(|| next(n as u64) as usize);
                        let speed = (next(8) != 0).then(|| next(3) as usize);
                        (sw, speed, [9000, 1500, 9014][next(3) as usize])
                    })
                    .collect();
            }
            let mut uplinks = Vec::new();
            for (k, (sw, speed, mtu)) in plan.iter().enumerate() {
                let _ = write!(s, "nics.N{k} = {{ ");
                if let Some(sw) = sw {
                    let _ = write!(s, "switch = \"s{sw}\", ");
                    if !again && next(3) == 0 {
                        port_count += 1;
                        let _ = write!(s, "switch_port = \"Eth{port_count}\", ");
                        let _ = writeln!(
                            ports,
                            "[switches.s{sw}.ports.\"Eth{port_count}\"]\nmtu = {}",
                            [1500, 9216, 4000][next(3) as usize]
                        );
                    }
                }
                if let Some(sp) = speed {
                    let _ = write!(s, "speed = \"{}\", ", speeds[*sp]);
                }
                let _ = writeln!(s, "mtu = {mtu} }}");
                uplinks.push(format!("\"N{k}\""));
            }
            if h + 1 < hosts && !peered[h] && next(6) == 0 {
                peered[h] = true;
                peered[h + 1] = true;
                let _ = writeln!(
                    s,
                    "nics.P = {{ peer = \"h{}:P\", speed = \"25G\", networks = [\"n30\"] }}",
                    h + 1
                );
            } else if h > 0 && peered[h] {
                let _ = writeln!(
                    s,
                    "nics.P = {{ peer = \"h{}:P\", speed = \"25G\", networks = [\"n30\"] }}",
                    h - 1
                );
            }
            let _ = writeln!(
                s,
                "[hosts.h{h}.vswitches.V]\nuplinks = [{}]\n[hosts.h{h}.vswitches.V.vnics.C]\nnetwork = \"n20\"\nmtu = {}\n[hosts.h{h}.vswitches.V.vnics.M]\nnetwork = \"n10\"",
                uplinks.join(", "),
                [9000, 1500][next(2) as usize]
            );
            if !peered[h] {
                let _ = writeln!(s, "[hosts.h{h}.vswitches.V.vnics.L]\nnetwork = \"n30\"");
            }
        }
        s.push_str(&ports);
        s
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
