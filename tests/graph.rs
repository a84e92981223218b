//! `netlint graph` and the Markdown report: what the pictures of the
//! reference designs with spanning-tree content show (which link blocks,
//! which networks it cuts), snapshots of both formats, `--fail`, host
//! collapsing, findings on elements, and a real Mermaid parser (npm, in
//! tests/mermaid) and Graphviz over everything drawn, when installed.
//!
//! Snapshots are drawn without findings, so rules added later do not change
//! them; findings are tested with diagnostics made here.

use netlint::render::{dot, markdown, mermaid};
use netlint::run::{FileReport, Report};
use netlint::views::graph::{
    build, finding_elements, parse_failure, scope_of, Block, EdgeKind, GraphOptions, NetStatus,
    Scene, Side, View,
};
use netlint_analysis::Failures;
use netlint_model::{load, Design, Diagnostic, Severity, SourceFile};
use std::path::{Path, PathBuf};

const RSTP: &str = "fixtures/graph-rstp-blocks-isl.toml";
const MSTP: &str = "fixtures/graph-mstp-fixed.toml";
const TEN_G: &str = "fixtures/graph-dedicated-10g.toml";
const BROKEN: &str = "fixtures/graph-broken-basics.toml";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn source(path: &str) -> SourceFile {
    let text = std::fs::read_to_string(root().join(path)).unwrap();
    SourceFile::new(path, text)
}

fn design(path: &str) -> Design {
    let l = load(&source(path));
    assert!(l.diagnostics.is_empty(), "{path}: {:#?}", l.diagnostics);
    l.design.unwrap()
}

fn scene(path: &str, opts: &GraphOptions) -> Scene {
    build(&design(path), &[], opts).unwrap()
}

fn view(v: View) -> GraphOptions {
    GraphOptions {
        view: v,
        ..GraphOptions::default()
    }
}

fn failing(d: &Design, names: &[&str]) -> GraphOptions {
    let mut failures = Failures::default();
    for n in names {
        parse_failure(d, n, &mut failures).unwrap();
    }
    GraphOptions {
        failures,
        failure_names: names.iter().map(|s| s.to_string()).collect(),
        ..GraphOptions::default()
    }
}

/// The trunk edge whose label starts with `name`.
fn trunk<'s>(s: &'s Scene, name: &str) -> &'s netlint::views::graph::Edge {
    s.edges
        .iter()
        .find(|e| e.kind == EdgeKind::Trunk && e.label.first().is_some_and(|l| l == name))
        .unwrap_or_else(|| panic!("no link {name}"))
}

fn switch_id(s: &Scene, name: &str) -> String {
    s.switches
        .iter()
        .find(|x| x.name == name)
        .unwrap()
        .id
        .clone()
}

fn network<'s>(s: &'s Scene, name: &str) -> &'s netlint::views::graph::NetworkRow {
    s.networks.iter().find(|n| n.name == name).unwrap()
}

// ---------------------------------------------------------------- what the pictures show

#[test]
fn rstp_blocks_the_isl_at_tor_b_and_it_cuts_csv_and_lm() {
    let s = scene(RSTP, &GraphOptions::default());
    let isl = trunk(&s, "isl");
    assert_eq!(isl.block, Block::Full);
    assert_eq!(isl.cuts, ["csv (VLAN 20)", "lm (VLAN 30)"]);
    // The blocking end is tor-b, in its alternate role.
    let blocked = match isl.blocked_at {
        Some(Side::From) => &isl.from,
        Some(Side::To) => &isl.to,
        None => panic!("no blocking end"),
    };
    assert_eq!(*blocked, switch_id(&s, "tor-b"));
    assert!(isl.label.contains(&"BLOCKED at tor-b (Altn)".to_string()));
    assert!(isl.label.contains(&"all VLANs".to_string()));
    // The uplinks forward, allowing only VLANs 10 and 100.
    for up in ["uplink-a", "uplink-b"] {
        let e = trunk(&s, up);
        assert_eq!(e.block, Block::None, "{up}");
        assert!(e.label.contains(&"VLANs 10, 100".to_string()));
        assert!(e.cuts.is_empty());
        // Core above: the uplink runs down from it.
        assert_eq!(e.from, switch_id(&s, "core-1"));
    }
    let core = s.switches.iter().find(|x| x.name == "core-1").unwrap();
    assert_eq!(core.roots, ["★ root"]);
    assert!(
        matches!(&network(&s, "csv").status, NetStatus::Cut(why) if why.contains("isl at tor-b"))
    );
    assert_eq!(network(&s, "mgmt").status, NetStatus::Ok);
    assert_eq!(s.notes[0], "spanning tree: the RSTP tree rooted at core-1");
    // Three identical nodes of one profile: one host node.
    assert_eq!(s.hosts.len(), 1);
    assert_eq!(s.hosts[0].title, "node1, node2, node3");
}

#[test]
fn rstp_network_view_shows_where_csv_is_not_carried() {
    let d = design(RSTP);
    let csv = d.network_by_name("csv").unwrap();
    let s = build(&d, &[], &view(View::Network(csv))).unwrap();
    assert!(network(&s, "csv").selected);
    let up = trunk(&s, "uplink-a");
    assert!(up.idle);
    assert!(up.label.contains(&"carries no VLAN 20".to_string()));
    assert_eq!(up.from_role.as_deref(), Some("Desg"));
    assert_eq!(up.to_role.as_deref(), Some("Root"));
    let isl = trunk(&s, "isl");
    assert_eq!(isl.block, Block::Full);
    assert!(!isl.idle);
}

#[test]
fn mstp_blocks_the_isl_for_instance_0_only() {
    let s = scene(MSTP, &GraphOptions::default());
    let isl = trunk(&s, "isl");
    assert_eq!(isl.block, Block::Partial);
    assert!(isl.cuts.is_empty());
    assert!(isl.label.contains(&"forwards VLANs 20, 30".to_string()));
    assert!(isl
        .label
        .contains(&"blocks VLANs 10, 100 at tor-b (Altn, instance 0)".to_string()));
    let root = |name: &str| {
        s.switches
            .iter()
            .find(|x| x.name == name)
            .unwrap()
            .roots
            .clone()
    };
    assert_eq!(root("core-1"), ["★ root of instance 0"]);
    assert_eq!(root("tor-a"), ["★ root of instance 1"]);
    assert!(s.networks.iter().all(|n| n.status == NetStatus::Ok));

    // Instance 1 alone: the ISL forwards, tor-a is root, core-1 blocks uplink-b.
    let s = scene(MSTP, &view(View::Instance(1)));
    let isl = trunk(&s, "isl");
    assert_eq!(isl.block, Block::None);
    assert_eq!(
        (isl.from_role.as_deref(), isl.to_role.as_deref()),
        (Some("Desg"), Some("Root"))
    );
    assert_eq!(trunk(&s, "uplink-b").block, Block::Full);
    assert!(trunk(&s, "uplink-b").idle);
    assert!(s.notes[0].contains("instance 1 of region dc1 rooted at tor-a"));
    assert!(network(&s, "csv").selected && network(&s, "lm").selected);
    assert!(!network(&s, "mgmt").selected);

    // Instance 0: the ISL blocks.
    let s = scene(MSTP, &view(View::Instance(0)));
    assert_eq!(trunk(&s, "isl").block, Block::Full);
    assert!(network(&s, "mgmt").selected);
}

#[test]
fn an_instance_the_design_lacks_is_an_error() {
    let e = build(&design(MSTP), &[], &view(View::Instance(7))).unwrap_err();
    assert_eq!(e, "the design has no MSTP instance 7 (instances: 0, 1)");
    let e = build(&design(RSTP), &[], &view(View::Instance(1))).unwrap_err();
    assert!(e.contains("instances: 0"), "{e}");
}

#[test]
fn dedicated_10g_blocks_the_1g_isl_without_cutting_anything() {
    let s = scene(TEN_G, &GraphOptions::default());
    let isl = trunk(&s, "sw1g-a--sw1g-b");
    assert_eq!(isl.block, Block::Full);
    assert!(isl.cuts.is_empty());
    assert_eq!(trunk(&s, "isl-10g").block, Block::None);
    assert!(s.networks.iter().all(|n| n.status == NetStatus::Ok));
    // Two separate trees, each with its root.
    assert_eq!(
        s.notes[0],
        "spanning trees: the RSTP tree rooted at core; the RSTP tree rooted at sw10g-a"
    );
    // Four hosts of one profile: one node, with its NICs per switch.
    assert_eq!(s.hosts.len(), 1);
    assert_eq!(s.hosts[0].count, 4);
    let to_sw1g_a: Vec<&Vec<String>> = s
        .edges
        .iter()
        .filter(|e| e.kind == EdgeKind::Host && e.from == switch_id(&s, "sw1g-a"))
        .map(|e| &e.label)
        .collect();
    assert_eq!(
        to_sw1g_a,
        [&vec!["LOM1 1G".to_string(), "LOM2 1G".to_string()]]
    );
}

// ---------------------------------------------------------------- failures

#[test]
fn failure_names_parse_into_failures() {
    let d = design(TEN_G);
    let mut f = Failures::default();
    parse_failure(&d, "sw10g-a", &mut f).unwrap();
    parse_failure(&d, "isl-10g#2", &mut f).unwrap();
    parse_failure(&d, "sw1g-a--core", &mut f).unwrap();
    parse_failure(&d, "hv02:LOM1", &mut f).unwrap();
    parse_failure(&d, "hv03:card:slot6", &mut f).unwrap();
    assert_eq!(f.switches.len(), 1);
    let isl = d.link_by_name("isl-10g").unwrap();
    let up = d.link_by_name("sw1g-a--core").unwrap();
    assert_eq!(
        f.cables.iter().copied().collect::<Vec<_>>(),
        [(up, 0), (up, 1), (isl, 1)]
    );
    let hv03 = d.host_by_name("hv03").unwrap();
    let card: Vec<_> = f.nics.iter().filter(|(h, _)| *h == hv03).collect();
    assert_eq!(card.len(), 2, "PCI6-1 and PCI6-2 are on slot6");
    assert_eq!(f.nics.len(), 3);

    let err = |name: &str| {
        let mut f = Failures::default();
        parse_failure(&d, name, &mut f).unwrap_err()
    };
    assert!(
        err("sw10g-c").contains("did you mean `sw10g-a`"),
        "{}",
        err("sw10g-c")
    );
    assert!(err("isl-10g#3").starts_with("--fail isl-10g#3: link `isl-10g` has 2 cables"));
    assert!(err("hv09:LOM1").contains("did you mean `hv01`?"));
    assert!(err("hv01:LOM9").contains("`LOM9`"));
    assert!(err("hv01:card:slot9").contains("`slot9`"));
}

#[test]
fn stacks_and_mlag_domains_fail_whole() {
    let d = load(&SourceFile::new(
        "t.toml",
        "[design]\nname = \"t\"\n[switches.m1]\nmlag = \"vlt\"\n[switches.m2]\nmlag = \"vlt\"\n",
    ))
    .design
    .unwrap();
    let mut f = Failures::default();
    parse_failure(&d, "vlt", &mut f).unwrap();
    assert_eq!(f.switches.len(), 2);
}

#[test]
fn failing_the_csv_switch_cuts_csv_in_red() {
    let d = design(TEN_G);
    let s = build(&d, &[], &failing(&d, &["sw10g-a"])).unwrap();
    assert!(s.notes[1].starts_with("after the failure of sw10g-a"));
    let sw = s.switches.iter().find(|x| x.name == "sw10g-a").unwrap();
    assert!(sw.down);
    assert!(trunk(&s, "isl-10g").down);
    match &network(&s, "csv").status {
        NetStatus::CutByFailure(why) => {
            assert!(why.contains("has no working adapter"), "{why}")
        }
        other => panic!("{other:?}"),
    }
    // LM rides the other 10G switch; management has its standby NIC.
    assert_eq!(network(&s, "lm").status, NetStatus::Ok);
    assert_eq!(network(&s, "management").status, NetStatus::Ok);
    let text = dot::render(&s);
    assert!(text.contains("✕ FAILED"));
    assert!(text.contains("cut by the failure"));
}

#[test]
fn losing_the_uplinks_reconverges_onto_the_isl() {
    // With both uplinks down, RSTP unblocks the ISL: nothing is cut any more.
    let d = design(RSTP);
    let s = build(&d, &[], &failing(&d, &["uplink-a", "uplink-b"])).unwrap();
    assert!(trunk(&s, "uplink-a").down);
    assert_eq!(trunk(&s, "isl").block, Block::None);
    assert!(trunk(&s, "isl").cuts.is_empty());
    assert_eq!(network(&s, "csv").status, NetStatus::Ok);
    // ... but management is cut from the core's side: nothing reaches core-1
    // any more, and no host hangs off it, so every host pair still talks.
    assert_eq!(network(&s, "mgmt").status, NetStatus::Ok);
}

#[test]
fn one_cable_of_a_lag_down_is_said_on_the_link() {
    let d = design(RSTP);
    let s = build(&d, &[], &failing(&d, &["isl#1"])).unwrap();
    let isl = trunk(&s, "isl");
    assert!(!isl.down);
    assert!(isl.label.contains(&"✕ 1 of 2 cables down".to_string()));
}

#[test]
fn a_failed_nic_splits_its_host_from_the_others() {
    let d = design(RSTP);
    let s = build(&d, &[], &failing(&d, &["node2:NIC1"])).unwrap();
    let titles: Vec<&str> = s.hosts.iter().map(|h| h.title.as_str()).collect();
    assert_eq!(titles, ["node1, node3", "node2"]);
    assert!(s.hosts[1].lines.contains(&"✕ NIC1 failed".to_string()));
    let down: Vec<_> = s
        .edges
        .iter()
        .filter(|e| e.kind == EdgeKind::Host && e.down)
        .collect();
    assert_eq!(down.len(), 1);
    assert_eq!(down[0].to, s.hosts[1].id);
}

// ---------------------------------------------------------------- hosts and findings

#[test]
fn hosts_all_draws_every_host() {
    let s = scene(
        TEN_G,
        &GraphOptions {
            hosts_all: true,
            ..GraphOptions::default()
        },
    );
    let titles: Vec<&str> = s.hosts.iter().map(|h| h.title.as_str()).collect();
    assert_eq!(titles, ["hv01", "hv02", "hv03", "hv04"]);
}

#[test]
fn detail_host_draws_cards_nics_teams_and_vswitches() {
    let s = scene(
        TEN_G,
        &GraphOptions {
            detail_host: true,
            ..GraphOptions::default()
        },
    );
    let h = &s.hosts[0];
    let cards: Vec<&str> = h.cards.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(
        cards,
        ["card lom", "card slot6", "card slot4", "card slot5"]
    );
    let titles: Vec<&str> = h.parts.iter().map(|p| p.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "LOM1",
            "LOM2",
            "PCI6-1",
            "PCI6-2",
            "X520-4",
            "X520-5",
            "team MgmtTeam",
            "team VMTeam",
            "vSwitch VMSwitch"
        ]
    );
    // Members under their team, the team under its vSwitch.
    let inner: Vec<(&str, &str)> = s
        .edges
        .iter()
        .filter(|e| e.kind == EdgeKind::Inner)
        .map(|e| {
            let t = |id: &str| h.parts.iter().find(|p| p.id == id).unwrap().title.as_str();
            (t(&e.from), t(&e.to))
        })
        .collect::<Vec<_>>()
        .into_iter()
        .collect();
    assert_eq!(
        inner,
        [
            ("LOM1", "team MgmtTeam"),
            ("PCI6-1", "team MgmtTeam"),
            ("LOM2", "team VMTeam"),
            ("PCI6-2", "team VMTeam"),
            ("team VMTeam", "vSwitch VMSwitch")
        ]
    );
    // Each NIC cabled to its switch.
    let cables = s.edges.iter().filter(|e| e.kind == EdgeKind::Host).count();
    assert_eq!(cables, 6);
}

fn finding(rule: &str, sev: Severity, element: &str, message: &str) -> Diagnostic {
    let subject = netlint_model::Element::from_path(element).expect("an element path");
    Diagnostic::new(rule, sev, subject, message)
}

#[test]
fn findings_are_drawn_on_their_elements() {
    let d = design(RSTP);
    let diags = vec![
        finding(
            "stp-vlan-partition",
            Severity::Error,
            "links.isl",
            "RSTP blocks isl",
        ),
        finding(
            "host-port-not-edge",
            Severity::Warning,
            "switches.tor-a",
            "x",
        ),
        finding("jumbo-recommended", Severity::Info, "networks.mgmt", "x"),
        finding("power-profile", Severity::Info, "", "design-wide"),
        // A profile's problem: one finding about each host's element.
        finding(
            "team-cross-switch-lag",
            Severity::Error,
            "hosts.node1.vswitches.SETswitch",
            "hosts `node1`, `node2`, `node3`: something about the profile",
        )
        .with_subjects(
            ["node1", "node2", "node3"].map(|h| netlint_model::Element::vswitch(h, "SETswitch")),
        ),
    ];
    let s = build(&d, &diags, &GraphOptions::default()).unwrap();
    assert_eq!(trunk(&s, "isl").marks[0].text(), "✖ stp-vlan-partition");
    let tor_a = s.switches.iter().find(|x| x.name == "tor-a").unwrap();
    assert_eq!(tor_a.marks[0].text(), "⚠ host-port-not-edge");
    assert_eq!(network(&s, "mgmt").marks[0].text(), "ℹ jumbo-recommended");
    assert_eq!(s.marks[0].rule, "power-profile");
    // Every host named: still one node.
    assert_eq!(s.hosts.len(), 1);
    assert_eq!(s.hosts[0].marks[0].rule, "team-cross-switch-lag");
    // A finding on one host only sets it apart.
    let mut diags = diags;
    diags.push(finding(
        "mtu-mismatch",
        Severity::Error,
        "hosts.node2.vswitches.SETswitch.vnics.CSV",
        "host `node2` uses MTU 1500",
    ));
    let s = build(&d, &diags, &GraphOptions::default()).unwrap();
    let titles: Vec<&str> = s.hosts.iter().map(|h| h.title.as_str()).collect();
    assert_eq!(titles, ["node1, node3", "node2"]);
    // A finding shared by hosts built alike is about each host's element:
    // its subjects, whatever the message says.
    let run = finding(
        "spof-nic-card",
        Severity::Error,
        "hosts.node1.nics.NIC1",
        "if card `slot1` fails on any of hosts `node1` to `node3`, ...",
    )
    .with_subjects(["node1", "node2", "node3"].map(|h| netlint_model::Element::nic(h, "NIC1")));
    let elements = finding_elements(&run);
    assert_eq!(
        elements,
        [
            "hosts.node1.nics.NIC1",
            "hosts.node2.nics.NIC1",
            "hosts.node3.nics.NIC1"
        ]
    );
    // Hosts named after "while" are the other side, not the finding's.
    let other = finding(
        "mtu-mismatch",
        Severity::Error,
        "hosts.node2.nics.NIC1",
        "host `node2` uses MTU 1500 while `node1`, `node3` use MTU 9000",
    );
    assert_eq!(finding_elements(&other), ["hosts.node2.nics.NIC1"]);
    let text = mermaid::render(&s);
    assert!(text.contains("✖ stp-vlan-partition"));
    assert!(text.contains(":::err"));
    let text = dot::render(&s);
    assert!(text.contains("⚠ host-port-not-edge"));
}

#[test]
fn findings_in_host_detail_sit_on_the_part() {
    let d = design(RSTP);
    let diags = vec![finding(
        "team-speed-mismatch",
        Severity::Error,
        "hosts.node1.vswitches.SETswitch",
        "x",
    )];
    let s = build(
        &d,
        &diags,
        &GraphOptions {
            detail_host: true,
            hosts_all: true,
            ..GraphOptions::default()
        },
    )
    .unwrap();
    let vs = s.hosts[0]
        .parts
        .iter()
        .find(|p| p.title == "SET SETswitch")
        .unwrap();
    assert_eq!(vs.marks[0].rule, "team-speed-mismatch");
    assert!(s.hosts[0].marks.is_empty());
}

// ---------------------------------------------------------------- output

#[test]
fn output_is_deterministic() {
    for path in [RSTP, MSTP, TEN_G, BROKEN] {
        let a = scene(path, &GraphOptions::default());
        let b = scene(path, &GraphOptions::default());
        assert_eq!(dot::render(&a), dot::render(&b));
        assert_eq!(mermaid::render(&a), mermaid::render(&b));
    }
}

#[test]
fn mermaid_puts_the_cross_on_the_blocking_end() {
    let s = scene(RSTP, &GraphOptions::default());
    let text = mermaid::render(&s);
    let (a, b) = (switch_id(&s, "tor-a"), switch_id(&s, "tor-b"));
    assert!(
        text.contains(&format!("  {a} -.-x|")) && text.contains(&format!("| {b}\n")),
        "{text}"
    );
    let text = dot::render(&s);
    assert!(text.contains("style=dashed, dir=both, arrowtail=none, arrowhead=tee"));
}

fn snapshot(name: &str, text: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots");
    settings.bind(|| insta::assert_snapshot!(name, text));
}

#[test]
fn snapshots_of_the_reference_designs() {
    let cases: Vec<(&str, &str, GraphOptions)> = vec![
        ("rstp", RSTP, GraphOptions::default()),
        ("mstp", MSTP, GraphOptions::default()),
        ("mstp-instance-1", MSTP, view(View::Instance(1))),
        ("dedicated-10g", TEN_G, GraphOptions::default()),
    ];
    for (name, path, opts) in cases {
        let s = scene(path, &opts);
        snapshot(&format!("{name}.dot"), &dot::render(&s));
        snapshot(&format!("{name}.mermaid"), &mermaid::render(&s));
    }
    let d = design(TEN_G);
    let mut opts = failing(&d, &["sw10g-a", "hv01:card:lom"]);
    opts.detail_host = true;
    let s = build(&d, &[], &opts).unwrap();
    snapshot("dedicated-10g-fail-detail.dot", &dot::render(&s));
    snapshot("dedicated-10g-fail-detail.mermaid", &mermaid::render(&s));
}

// ---------------------------------------------------------------- command line

fn run(args: &[&str]) -> (i32, String, String) {
    std::env::set_current_dir(root()).unwrap();
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut argv = vec!["netlint"];
    argv.extend_from_slice(args);
    let code = netlint::cli::run(argv, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

#[test]
fn graph_command() {
    let (code, out, err) = run(&["graph", RSTP, "--format", "mermaid"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("---\ntitle: \"converged-rstp · spanning tree"));
    assert!(out.contains("-.-x"));
    let (code, out, _) = run(&["graph", RSTP]);
    assert_eq!(code, 0);
    assert!(out.starts_with("graph \"netlint converged-rstp\" {"));

    let (code, out, err) = run(&[
        "graph",
        TEN_G,
        "--detail",
        "host",
        "--hosts",
        "all",
        "--fail",
        "sw1g-a",
        "--network",
        "management",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("cluster_hs3"));
    assert!(out.contains("after the failure of sw1g-a"));

    let (code, _, err) = run(&["graph", RSTP, "--fail", "tor-c"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `tor-a`?"), "{err}");
    let (code, _, err) = run(&["graph", RSTP, "--network", "cvs"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no network `cvs`, did you mean `csv`?"),
        "{err}"
    );
    let (code, _, err) = run(&["graph", RSTP, "--instance", "1", "--network", "csv"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(&["graph", "fixtures/invalid/syntax.toml"]);
    assert_eq!(code, 2);
    assert!(err.contains("syntax"), "{err}");

    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("graph-o");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("rstp.dot");
    let (code, out, _) = run(&["graph", RSTP, "-o", file.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .contains("BLOCKED at tor-b"));
}

// ---------------------------------------------------------------- markdown

fn report_of(path: &str, diagnostics: Vec<Diagnostic>) -> Report {
    Report {
        sources: Vec::new(),
        files: vec![FileReport {
            file: source(path),
            diagnostics,
            design: Some(std::sync::Arc::new(design(path))),
            fail_on: netlint_model::FailOn::Warning,
        }],
        rules: Vec::new(),
    }
}

#[test]
fn markdown_report_of_broken_basics() {
    // The rules that exist for good; others would change the snapshot as they land.
    let settings = netlint::run::CheckSettings {
        select: ["team-cross-switch-lag", "team-rdma", "mtu-mismatch"]
            .map(String::from)
            .to_vec(),
        keep_designs: true,
        ..Default::default()
    };
    std::env::set_current_dir(root()).unwrap();
    let run = netlint::run::run_check(&[PathBuf::from(BROKEN)], &settings).unwrap();
    let text = markdown::render(&run.report, &|p| p.to_string());
    assert!(text.starts_with(
        "### netlint: 3 errors in `fixtures/graph-broken-basics.toml`\n\n| Severity | Rule |"
    ));
    assert!(text.contains(
        "[`team-rdma`](https://github.com/netlint/netlint/blob/main/crates/netlint-rules/rules/team-rdma.md)"
    ));
    assert!(
        !text.contains("```mermaid"),
        "no spanning-tree or redundancy finding"
    );
    snapshot("broken-basics.markdown", &text);
}

#[test]
fn markdown_draws_the_part_a_spanning_tree_finding_is_about() {
    let d = design(RSTP);
    let span = d.link(d.link_by_name("isl").unwrap()).span;
    let diags = vec![
        finding(
            "stp-vlan-partition",
            Severity::Error,
            "links.isl",
            "RSTP blocks link `isl` | cutting VLANs 20, 30 <between> tor-a and tor-b",
        )
        .at(span, "")
        .with_help("run MSTP"),
        finding("power-profile", Severity::Info, "hosts.node1", "x"),
    ];
    let report = report_of(RSTP, diags);
    let text = markdown::render(&report, &|p| format!("repo/{p}"));
    assert!(text.contains("in `repo/fixtures/graph-rstp-blocks-isl.toml`"));
    // Cells stay one cell.
    assert!(text.contains(
        "RSTP blocks link `isl` \\| cutting VLANs 20, 30 &lt;between&gt; tor-a and tor-b |"
    ));
    assert!(text.contains("<details><summary>How to fix (1)</summary>"));
    assert!(text.contains(
        "**The affected part of the network** (`stp-vlan-partition`). Spanning tree: the RSTP tree rooted at core-1. Dashed"
    ));
    let block = text
        .split("```mermaid\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .unwrap();
    // The triangle (the neighbours of the link's switches), the blocked
    // ISL crossed at tor-b, red; no hosts, none is named.
    assert!(block.contains("core-1") && block.contains("tor-a") && block.contains("tor-b"));
    assert!(block.contains("-.-x"));
    assert!(block.contains("cuts csv (VLAN 20), lm (VLAN 30)"));
    assert!(!block.contains("hs0"));
    // Errors before infos.
    let err = text.find("🔴 error").unwrap();
    let info = text.find("🔵 info").unwrap();
    assert!(err < info);
}

#[test]
fn markdown_without_findings_says_so() {
    let report = report_of(RSTP, Vec::new());
    let text = markdown::render(&report, &|p| p.to_string());
    assert_eq!(text, "### ✅ netlint: no findings in 1 file\n");
}

#[test]
fn scopes_take_whole_bridges_and_neighbours() {
    let d = design(RSTP);
    let sc = scope_of(&d, &["switches.tor-a"], false);
    assert_eq!(sc.switches.len(), 1);
    let sc = scope_of(&d, &["switches.tor-a"], true);
    assert_eq!(sc.switches.len(), 3);
    let sc = scope_of(&d, &["networks.csv"], false);
    assert_eq!(sc.hosts.len(), 3);
    assert_eq!(sc.switches.len(), 2);
}

// ---------------------------------------------------------------- real renderers

/// Everything drawn here, in both formats, plus Markdown reports.
fn all_outputs(dir: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
    std::fs::create_dir_all(dir).unwrap();
    let (mut dots, mut mermaids) = (Vec::new(), Vec::new());
    let mut n = 0;
    let mut emit = |s: &Scene| {
        n += 1;
        let d = dir.join(format!("{n}.dot"));
        std::fs::write(&d, dot::render(s)).unwrap();
        dots.push(d);
        let m = dir.join(format!("{n}.mmd"));
        std::fs::write(&m, mermaid::render(s)).unwrap();
        mermaids.push(m);
    };
    for path in [RSTP, MSTP, TEN_G, BROKEN] {
        let d = design(path);
        let diags = netlint::run::check_source(
            &source(path),
            None,
            &netlint::run::CheckSettings::default(),
        )
        .0;
        for detail_host in [false, true] {
            let opts = GraphOptions {
                detail_host,
                ..GraphOptions::default()
            };
            emit(&build(&d, &diags, &opts).unwrap());
        }
        let first_switch = d.switches[0].name.clone();
        let first_host_nic = format!("{}:{}", d.hosts[0].name, d.hosts[0].nics[0].name);
        let mut opts = failing(&d, &[&first_switch, &first_host_nic]);
        opts.detail_host = true;
        opts.hosts_all = true;
        emit(&build(&d, &diags, &opts).unwrap());
        let net = netlint_model::NetworkId(0);
        emit(&build(&d, &diags, &view(View::Network(net))).unwrap());
    }
    let d = design(RSTP);
    let span = d.link(d.link_by_name("isl").unwrap()).span;
    let report = report_of(
        RSTP,
        vec![finding("stp-vlan-partition", Severity::Error, "links.isl", "x").at(span, "")],
    );
    let md = dir.join("report.md");
    std::fs::write(&md, markdown::render(&report, &|p| p.to_string())).unwrap();
    mermaids.push(md);
    (dots, mermaids)
}

/// Every Mermaid picture netlint draws parses with Mermaid's own parser
/// (tests/mermaid, installed by `npm ci` there).
#[test]
#[ignore = "needs Node.js and the Mermaid parser (npm ci in tests/mermaid); .ci/run installs them"]
fn mermaid_output_parses_with_mermaid() {
    let harness = root().join("tests/mermaid");
    assert!(
        harness.join("node_modules/mermaid").is_dir(),
        "the Mermaid parser is not installed: run `npm ci` in tests/mermaid (.ci/run does)"
    );
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("graph-mermaid");
    let _ = std::fs::remove_dir_all(&dir);
    let (_, files) = all_outputs(&dir);
    let out = std::process::Command::new("node")
        .arg(harness.join("check.mjs"))
        .args(&files)
        .output()
        .expect("Node.js `node` runs (apt-get install nodejs)");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains(&format!("{} diagrams parse, 0 do not", files.len())),
        "{text}"
    );
}

/// Every DOT picture netlint draws renders with Graphviz.
#[test]
#[ignore = "needs Graphviz `dot`; .ci/run installs it"]
fn dot_output_renders_with_graphviz() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("graph-dot");
    let _ = std::fs::remove_dir_all(&dir);
    let (files, _) = all_outputs(&dir);
    for f in files {
        let out = std::process::Command::new("dot")
            .arg("-Tsvg")
            .arg(&f)
            .output()
            .expect("Graphviz `dot` runs (apt-get install graphviz)");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{}: {stderr}", f.display());
        assert!(!stderr.contains("Error"), "{}: {stderr}", f.display());
        assert!(String::from_utf8_lossy(&out.stdout).contains("<svg"));
    }
}

// ------------------------------------------------- no view reads a message

/// Every fixture, checked for real, drawn twice: with the findings as they
/// are and with every message (and help and label) replaced by text that
/// names no element. The pictures (graph scene in Mermaid and DOT, the
/// elements and scope of the Markdown diagram) must not change: views
/// read a finding's typed subjects, never its words.
#[test]
fn no_view_reads_elements_out_of_a_message() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("fixtures"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let mut with_findings = 0;
    let mut shared = 0;
    let mut drawn_diagrams = 0;
    for path in files {
        let rel = format!("fixtures/{}", path.file_name().unwrap().to_str().unwrap());
        let file = source(&rel);
        let Some(d) = load(&file).design else {
            continue;
        };
        let settings = netlint::run::CheckSettings::default();
        let (diags, _, _) = netlint::run::check_source(&file, None, &settings);
        if diags.iter().any(Diagnostic::is_input_error) || diags.is_empty() {
            continue;
        }
        with_findings += 1;
        shared += diags.iter().filter(|d| d.subjects.len() > 1).count();
        let garbled: Vec<Diagnostic> = diags
            .iter()
            .cloned()
            .map(|mut g| {
                g.message = "hosts `zz`, `yy`: garbage rooted at nowhere".into();
                g.help = g.help.map(|_| "garbage".into());
                if let Some(p) = &mut g.primary {
                    p.message = "garbage".into();
                }
                for r in &mut g.related {
                    r.message = "garbage".into();
                }
                g
            })
            .collect();
        for opts in [
            GraphOptions::default(),
            GraphOptions {
                detail_host: true,
                hosts_all: true,
                ..GraphOptions::default()
            },
        ] {
            let (Ok(a), Ok(b)) = (build(&d, &diags, &opts), build(&d, &garbled, &opts)) else {
                continue;
            };
            assert_eq!(mermaid::render(&a), mermaid::render(&b), "{rel}");
            assert_eq!(dot::render(&a), dot::render(&b), "{rel}");
        }
        let elements =
            |ds: &[Diagnostic]| -> Vec<String> { ds.iter().flat_map(finding_elements).collect() };
        assert_eq!(elements(&diags), elements(&garbled), "{rel}");
        let paths = elements(&diags);
        let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
        let scope = format!("{:?}", scope_of(&d, &paths, true));
        let paths_g = elements(&garbled);
        let paths_g: Vec<&str> = paths_g.iter().map(String::as_str).collect();
        assert_eq!(
            scope,
            format!("{:?}", scope_of(&d, &paths_g, true)),
            "{rel}"
        );
        let diagram = |ds: Vec<Diagnostic>| -> Option<String> {
            let text = markdown::render(&report_of(&rel, ds), &|p| p.to_string());
            let at = text.find("```mermaid")?;
            let end = text[at + 3..].find("```")? + at + 3;
            Some(text[at..end].to_string())
        };
        let drawn = diagram(diags.clone());
        drawn_diagrams += usize::from(drawn.is_some());
        assert_eq!(drawn, diagram(garbled), "{rel}");
    }
    // The test means something: many fixtures have findings, and some are
    // shared by hosts built alike.
    assert!(with_findings > 20, "{with_findings}");
    assert!(shared > 0);
    assert!(drawn_diagrams > 5, "{drawn_diagrams}");
}
