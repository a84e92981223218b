//! Each end's bundling (issue 31 item 7): acc1 bundles its two uplinks
//! with LACP (`channel-group 10 mode active`), agg1 its end of the same
//! cables statically (`channel-group 10 mode on`). No bundle forms; the
//! import writes each end's mode (`lag_a` / `lag_b`) at its lines, for
//! `lag-mode-mismatch` to judge, where before it wrote `lag = "none"`.

include!("support/loads.rs");

const FILES: [&str; 3] = [
    "nxos-lagmode-acc1.cfg",
    "nxos-lagmode-agg1.cfg",
    "lagmode.cabling.csv",
];

#[test]
fn ends_that_cannot_bundle_are_written_each_with_its_mode() {
    let imported = import_fixtures(&FILES);
    let toml = &imported.toml;
    let line = |key: &str| {
        toml.lines()
            .find(|l| l.starts_with(&format!("{key} = ")))
            .unwrap_or_else(|| panic!("no {key}: {toml}"))
    };
    let a = line("lag_a");
    assert!(a.starts_with("lag_a = \"lacp\" "), "{a}");
    assert!(
        a.contains("nxos-lagmode-acc1.cfg:29") && a.contains("nxos-lagmode-acc1.cfg:36"),
        "{a}"
    );
    let b = line("lag_b");
    assert!(b.starts_with("lag_b = \"static\" "), "{b}");
    assert!(
        b.contains("nxos-lagmode-agg1.cfg:26") && b.contains("nxos-lagmode-agg1.cfg:33"),
        "{b}"
    );
    assert!(!toml.lines().any(|l| l.starts_with("lag = ")), "{toml}");
    assert!(!toml.contains("no bundle forms"), "no remark: {toml}");
    // The model takes the cables as separate ports.
    let design = netlint_model::load(&netlint_model::SourceFile::new(
        "imported.toml",
        toml.clone(),
    ))
    .design
    .unwrap();
    assert_eq!(design.links[0].lag.value, netlint_model::LagMode::None);
    assert!(design.links[0].lag_written);
}
