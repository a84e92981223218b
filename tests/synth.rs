//! Synthetic designs are valid designs at every size the benchmarks use.

use netlint_model::{load, SourceFile};
use netlint_synth::{generate, Params};

#[test]
fn synthetic_designs_load_without_diagnostics() {
    for hosts in [1, 16, 64, 300] {
        let text = generate(&Params::hosts(hosts));
        let loaded = load(&SourceFile::new("synthetic.toml", text));
        assert!(
            loaded.diagnostics.is_empty(),
            "{hosts}: {:#?}",
            &loaded.diagnostics[..loaded.diagnostics.len().min(5)]
        );
        let d = loaded.design.unwrap();
        assert_eq!(d.hosts.len(), hosts);
    }
}

#[test]
fn flawed_designs_load_and_fire_the_rules_their_mistakes_call_for() {
    use netlint::run::{check_source, CheckSettings};
    let text = generate(&Params {
        flawed: true,
        ..Params::hosts(80)
    });
    let file = SourceFile::new("flawed.toml", text);
    let (diags, suppressed, _) = check_source(&file, None, &CheckSettings::default());
    assert!(!diags
        .iter()
        .any(|d| d.rule == "schema" || d.rule == "syntax"));
    let fired = |rule: &str| diags.iter().filter(|d| d.rule == rule).count();
    // No host_ports on the 20 pairs' 40 access switches.
    assert_eq!(fired("host-port-not-edge"), 40);
    // Both storage NICs on card slot1, one finding per profile line.
    assert!(fired("spof-nic-card") >= 1);
    // Pairs 9 and 19 prune the CSV VLAN from their uplinks.
    assert!(fired("network-partitioned") >= 1);
    assert!(fired("smb-bandwidth-cap-missing") >= 1);
    // Every fifth host runs standard frames on S2: allowed by the profile.
    assert!(suppressed
        .iter()
        .any(|s| s.diagnostic.rule == "mtu-mismatch"));
}
