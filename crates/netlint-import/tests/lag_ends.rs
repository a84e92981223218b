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

/// agg1's two ports without `channel-group` (plain trunks) against acc1's
/// LACP port-channel: a port-channel against plain ports forms no bundle
/// (IEEE 802.1AX: the LACP end finds no partner). The import writes
/// `lag_a = "lacp"` at acc1's channel-group lines and `lag_b = "none"` at
/// agg1's interface lines, where before it wrote `lag = "lacp"` (only
/// acc1 states a mode) and no rule could see it.
#[test]
fn a_port_channel_against_plain_ports_is_written_each_with_its_mode() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let docs: Vec<netlint_import::Document> = FILES
        .iter()
        .map(|f| {
            let mut text = std::fs::read_to_string(dir.join(f)).unwrap();
            if *f == "nxos-lagmode-agg1.cfg" {
                text = text.replace("  channel-group 10 mode on\n", "");
            }
            netlint_import::parse(f, &text, None).unwrap()
        })
        .collect();
    let imported = netlint_import::design::to_design(&docs, "imported");
    assert_loads_cleanly(&imported.toml);
    let toml = &imported.toml;
    let line = |key: &str| {
        toml.lines()
            .find(|l| l.starts_with(&format!("{key} = ")))
            .unwrap_or_else(|| panic!("no {key}: {toml}"))
    };
    assert!(line("lag_a").starts_with("lag_a = \"lacp\" "), "{toml}");
    let b = line("lag_b");
    assert!(b.starts_with("lag_b = \"none\" "), "{b}");
    assert!(b.contains("no channel-group"), "{b}");
    assert!(!toml.lines().any(|l| l.starts_with("lag = ")), "{toml}");
}
