//! Rules say nothing about what an unmanaged device (`managed = false`)
//! leaves unstated: its STP priority, VLANs or MTU. The same device written
//! as a managed switch with factory defaults is reported.

use netlint_model::{load, Design, Element, SourceFile};
use netlint_rules::{check, RuleConfig};

const ROUTED: &str = include_str!("../../../fixtures/routed-unmanaged.toml");

fn design(src: &str) -> Design {
    let l = load(&SourceFile::new("t.toml", src));
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    l.design.unwrap()
}

/// (rule, subjects) of every finding.
fn findings(d: &Design) -> Vec<(String, Vec<Element>)> {
    check(d, &RuleConfig::default())
        .diagnostics
        .into_iter()
        .map(|d| (d.rule, d.subjects))
        .collect()
}

#[test]
fn an_unmanaged_device_with_default_settings_is_not_reported() {
    // The vPC pair keeps the default priority too: with five bridges of
    // 32768 the root is a guess, and netlint says so when the firewall,
    // the BMC switch and the routers run spanning tree.
    let defaults = ROUTED.replace(
        "stp = { mode = \"rstp\", priority = 4096 }",
        "stp = { mode = \"rstp\" }",
    );
    assert_ne!(defaults, ROUTED);
    let unmanaged = findings(&design(&defaults));
    assert!(unmanaged.is_empty(), "{unmanaged:#?}");

    let managed = defaults
        .replace("managed = false\n", "")
        .replace("kind = \"routed\"\n", "");
    let found = findings(&design(&managed));
    assert!(
        found.iter().any(|(rule, _)| rule == "stp-root-placement"),
        "{found:#?}"
    );
}
