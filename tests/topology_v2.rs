//! The views of a double-sided MLAG LAG, routed links and unmanaged
//! devices (issue 13, items 6 and 8): `netlint topology`, `graph` (scene,
//! DOT, Mermaid) and `simulate` show each as what it is.

use netlint::render::{dot, mermaid};
use netlint::views::graph::{build, parse_failure, Block, EdgeKind, GraphOptions, Scene};
use netlint_analysis::Failures;
use netlint_model::{load, Design, SourceFile};
use std::path::Path;

const DOUBLE: &str = "fixtures/mlag-double-sided.toml";
const ROUTED: &str = "fixtures/routed-unmanaged.toml";

fn design(path: &str) -> Design {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join(path)).unwrap();
    let l = load(&SourceFile::new(path, text));
    assert!(l.diagnostics.is_empty(), "{path}: {:#?}", l.diagnostics);
    l.design.unwrap()
}

fn scene(path: &str, opts: &GraphOptions) -> Scene {
    build(&design(path), &[], opts).unwrap()
}

fn run(args: &[&str]) -> String {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut argv = vec!["netlint"];
    argv.extend_from_slice(args);
    let code = netlint::cli::run(argv, &mut out, &mut err);
    let err = String::from_utf8(err).unwrap();
    assert_eq!(code, 0, "{err}");
    String::from_utf8(out).unwrap()
}

#[test]
fn the_double_sided_lag_is_drawn_from_both_peers_to_both_peers_and_forwards() {
    let s = scene(DOUBLE, &GraphOptions::default());
    let id = |name: &str| {
        s.switches
            .iter()
            .find(|x| x.name == name)
            .unwrap()
            .id
            .clone()
    };
    let lag: Vec<_> = s
        .edges
        .iter()
        .filter(|e| e.kind == EdgeKind::Trunk && e.label[0].starts_with("dist-tor"))
        .collect();
    // One edge per (dist, tor) switch pair, the first labelled with the
    // link, the others as the same LAG; none blocks.
    assert_eq!(lag.len(), 4);
    assert_eq!(lag[0].label[0], "dist-tor");
    assert!(lag[1..].iter().all(|e| e.label[0] == "dist-tor (same LAG)"));
    let mut pairs: Vec<(String, String)> =
        lag.iter().map(|e| (e.from.clone(), e.to.clone())).collect();
    pairs.sort();
    let mut want = Vec::new();
    for a in ["dist-1", "dist-2"] {
        for b in ["tor-1", "tor-2"] {
            want.push((id(a), id(b)));
        }
    }
    want.sort();
    assert_eq!(pairs, want);
    assert!(lag.iter().all(|e| e.block == Block::None));
    // The core's uplink to the tor pair is the one blocked port.
    let blocked: Vec<&str> = s
        .edges
        .iter()
        .filter(|e| e.kind == EdgeKind::Trunk && e.block == Block::Full)
        .map(|e| e.label[0].as_str())
        .collect();
    assert_eq!(blocked, ["core-tor", "core-tor (same LAG)"]);
}

#[test]
fn the_topology_view_shows_one_port_between_the_two_domains() {
    let out = run(&["topology", DOUBLE]);
    assert!(
        out.contains(
            "dist (MLAG domain of dist-1 + dist-2, rstp), tor (MLAG domain of tor-1 + tor-2, rstp)"
        ),
        "{out}"
    );
    assert!(
        out.contains("dist-tor   4 x 25G  dist designated cost 200"),
        "{out}"
    );
    assert!(
        out.contains("core-tor   2 x 10G  core ALTERNATE (blocks)"),
        "{out}"
    );
}

#[test]
fn unmanaged_devices_and_routed_links_are_drawn_as_cabling() {
    let s = scene(ROUTED, &GraphOptions::default());
    let fw = s.switches.iter().find(|x| x.name == "fw").unwrap();
    assert!(
        fw.lines
            .contains(&"unmanaged: no STP, bridges no VLAN".to_string()),
        "{:?}",
        fw.lines
    );
    assert!(fw.roots.is_empty());
    let cabling: Vec<&[String]> = s
        .edges
        .iter()
        .filter(|e| e.kind == EdgeKind::Cabling)
        .map(|e| e.label.as_slice())
        .collect();
    assert_eq!(cabling.len(), 7);
    assert!(cabling.contains(&&["core-1--tor-1".to_string(), "routed · 10G".to_string()][..]));
    assert!(cabling.contains(&&["fw--tor-2".to_string(), "to unmanaged fw · 10G".to_string()][..]));
    assert!(!s.edges.iter().any(|e| e.kind == EdgeKind::Trunk));
    let dot = dot::render(&s);
    assert!(dot.contains("fw--tor-1<br/>to unmanaged fw · 10G"), "{dot}");
    assert!(
        dot.contains("color=\"#607d8b\", penwidth=1.5, style=dashed"),
        "{dot}"
    );
    let mmd = mermaid::render(&s);
    assert!(
        mmd.contains(" -.-|\"core-1--tor-1<br/>routed · 10G\"| "),
        "{mmd}"
    );
}

#[test]
fn a_failed_routed_cable_is_drawn_down() {
    let d = design(ROUTED);
    let mut failures = Failures::default();
    parse_failure(&d, "core-1--tor-1", &mut failures).unwrap();
    let opts = GraphOptions {
        failures,
        failure_names: vec!["core-1--tor-1".to_string()],
        ..GraphOptions::default()
    };
    let s = build(&d, &[], &opts).unwrap();
    let e = s
        .edges
        .iter()
        .find(|e| e.label[0] == "core-1--tor-1")
        .unwrap();
    assert!(e.down && e.label.contains(&"✕ DOWN".to_string()));
}

#[test]
fn the_topology_view_lists_unmanaged_devices_and_cabling_outside_the_domains() {
    let out = run(&["topology", ROUTED]);
    // The routers and unmanaged devices are no bridged domain of their own.
    assert!(
        out.contains("\nBridged domain 1: tor (MLAG domain of tor-1 + tor-2, rstp)\n"),
        "{out}"
    );
    assert!(!out.contains("Bridged domain 2"), "{out}");
    assert!(out.contains("Unmanaged devices (opaque: netlint assumes they bridge none of the design's VLANs and send no BPDU)\n  fw (Palo Alto PA-3410): links fw--tor-1, fw--tor-2\n  bmc (Netgear GS748T): links bmc--tor-1\n"), "{out}");
    assert!(
        out.contains("  core-2--tor-2  core-2 -- tor-2  10G  routed\n"),
        "{out}"
    );
    assert!(
        out.contains("  bmc--tor-1     bmc -- tor-1     1G   to an unmanaged device\n"),
        "{out}"
    );
    assert!(
        out.contains("mgmt (VLAN 10, management), decided by the RSTP tree rooted at tor\n"),
        "{out}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&run(&["topology", ROUTED, "--format", "json"])).unwrap();
    assert_eq!(json["unmanaged"][0]["name"], "fw");
    assert_eq!(json["cabling"][0]["kind"], "routed");
    assert_eq!(json["cabling"][4]["kind"], "unmanaged");
}

#[test]
fn simulate_names_an_unmanaged_device_as_such() {
    let out = run(&["simulate", ROUTED, "--fail", "fw"]);
    assert!(out.contains("with unmanaged device `fw` down"), "{out}");
    assert!(
        out.contains("nothing: every host pair that reached each other still does"),
        "{out}"
    );
}
