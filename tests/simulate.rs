//! `netlint simulate`: snapshots of the state after chosen failures and of
//! the table of every single failure, on the reference designs and the
//! fixtures; the fast failure evaluation checked against the exact walk on
//! a synthetic fabric.

use netlint_analysis::failure::{requirements, units, Analysis, Requirement, UnitOptions};
use netlint_analysis::{all_pairs, Fabric, Failures, Topology};
use netlint_model::{load, SourceFile};
use std::collections::BTreeSet;
use std::path::Path;

fn run(args: &[&str]) -> (i32, String, String) {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut argv = vec!["netlint", "simulate"];
    argv.extend_from_slice(args);
    let code = netlint::cli::run(argv, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

/// A reference design (tests/data/reference), by the path the report
/// shows.
fn reference(name: &str) -> String {
    let rel = format!("tests/data/reference/{name}");
    assert!(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(&rel).is_file(),
        "{rel} is missing"
    );
    rel
}

fn snapshot(name: &str, text: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!(name, text));
}

#[test]
fn dedicated_10g_loses_csv_alone_when_sw10g_a_fails() {
    let d = reference("dedicated-10g.toml");
    let (code, out, err) = run(&[&d, "--fail", "sw10g-a"]);
    assert_eq!(code, 0, "{err}");
    // CSV is lost; live migration and the cluster keep going, and why.
    assert!(out.contains("hosts `hv01` to `hv04` lose network `csv`: its only adapter `X520-4` is cabled to `sw10g-a`"), "{out}");
    assert!(out.contains("ok    cluster group (`management`, `csv`, `lm`): every host pair still connects through `management` or `lm`; `csv` is lost"), "{out}");
    assert!(out.contains("ok    live migration (`lm`, `csv`): every host pair still connects through `lm`; `csv` is lost"), "{out}");
    snapshot("simulate__dedicated-10g__sw10g-a.human", &out);
    let (code, json, _) = run(&[&d, "--fail", "sw10g-a", "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let sc = &v["scenario"];
    assert_eq!(sc["lost"][0]["label"], "csv");
    assert_eq!(sc["lost"][0]["required"], false);
    let cluster = sc["standing"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["label"] == "cluster group")
        .unwrap();
    assert_eq!(cluster["kept"], true);
    assert_eq!(cluster["through"], serde_json::json!(["management", "lm"]));
    snapshot("simulate__dedicated-10g__sw10g-a.json", &json);
}

#[test]
fn the_table_lists_every_single_failure() {
    let d = reference("dedicated-10g.toml");
    let (code, out, err) = run(&[&d]);
    assert_eq!(code, 0, "{err}");
    snapshot("simulate__dedicated-10g__table.human", &out);
    let (_, json, _) = run(&[&d, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let rows = v["units"].as_array().unwrap();
    // 5 switches, 8 inter-switch cables, per host 4 cards and the 4 ports
    // of its two dual-port cards.
    assert_eq!(rows.len(), 5 + 8 + 4 * 8);
    assert!(rows
        .iter()
        .all(|r| r["severity"].is_null() || r["severity"] == "info"));
}

#[test]
fn broken_basics_table_and_a_double_failure() {
    let d = reference("broken-basics.toml");
    let (_, out, _) = run(&[&d]);
    snapshot("simulate__broken-basics__table.human", &out);
    let (code, out, err) = run(&[&d, "--fail", "edge-a", "--fail", "hv1:card:pci1"]);
    assert_eq!(code, 0, "{err}");
    snapshot("simulate__broken-basics__edge-a+pci1.human", &out);
}

#[test]
fn a_blocked_isl_takes_over_when_the_core_fails() {
    let d = reference("rstp-blocks-isl.toml");
    let (code, out, err) = run(&[&d, "--fail", "core-1"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("link `isl` starts forwarding (was alternate at `tor-b`)"),
        "{out}"
    );
    assert!(
        out.contains("Reconnected (cut before the failure)"),
        "{out}"
    );
    snapshot("simulate__rstp-blocks-isl__core-1.human", &out);
}

#[test]
fn a_tree_is_named_by_its_root_not_by_a_router_outside_the_domain() {
    // core-1 has routed links only: a tree component of its own, first in
    // the file. The tree that changes is tor-a's, as `topology` says.
    let d = "fixtures/simulate-tree-named-by-root.toml";
    let (code, out, err) = run(&[d, "--fail", "tor-a"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("the RSTP tree rooted at tor-a: `tor-b` becomes root; root `tor-a` is down"),
        "{out}"
    );
    assert!(!out.contains("core-1:"), "{out}");
    let (code, out, err) = run(&[d, "--fail", "agg--tor-a"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("the RSTP tree rooted at tor-a: link `agg--tor-b` starts forwarding"),
        "{out}"
    );
    snapshot("simulate__tree-named-by-root__agg--tor-a.human", &out);
}

#[test]
fn one_cable_of_a_lag_only_degrades() {
    let d = reference("mstp-fixed.toml");
    let (code, out, err) = run(&[&d, "--fail", "isl#1"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("`isl`: 1 of 2 cables left, 10G of 20G"),
        "{out}"
    );
    snapshot("simulate__mstp-fixed__isl-1.human", &out);
}

/// A 4 x 100G ISL losing one cable (400G -> 300G) between two hosts with
/// 25G adapters: no pair is slower for them (issue 34, minor: "16 host
/// pairs slower" for 400G -> 200G). Two 100G adapters on the same ISL with
/// a 10G one left would be.
#[test]
fn a_path_that_stays_above_the_adapters_is_not_slower() {
    let design = |nic: &str| {
        format!(
            "[design]\nname = \"s400\"\nplatform = \"windows-server-2022\"\n[networks.mgmt]\nrole = \"management\"\nvlan = 10\n[switches.tor-a]\nstp = {{ mode = \"rstp\", priority = 4096 }}\n[switches.tor-b]\nstp = {{ mode = \"rstp\", priority = 8192 }}\n[[links]]\nname = \"isl\"\na = \"tor-a\"\nb = \"tor-b\"\nspeed = \"100G\"\nmembers = 4\n[hosts.h1.nics.A]\nspeed = \"{nic}\"\nswitch = \"tor-a\"\nnetworks = [\"mgmt\"]\n[hosts.h2.nics.A]\nspeed = \"{nic}\"\nswitch = \"tor-b\"\nnetworks = [\"mgmt\"]\n"
        )
    };
    let dir = std::env::temp_dir().join(format!("netlint-sim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (nic, slower) in [("25G", false), ("400G", true)] {
        let p = dir.join(format!("s400-{nic}.toml"));
        std::fs::write(&p, design(nic)).unwrap();
        let (code, out, err) = run(&[p.to_str().unwrap(), "--fail", "isl#1"]);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains("`isl`: 3 of 4 cables left, 300G of 400G"),
            "{out}"
        );
        let tail = &out[out.find("Slower paths").unwrap()..];
        assert_eq!(tail.contains("400G -> 300G"), slower, "{nic}: {out}");
        assert_eq!(tail.contains("none"), !slower, "{nic}: {out}");
    }
}

#[test]
fn fixtures_single_cable_and_stack() {
    let (code, out, err) = run(&["fixtures/spof-link.toml", "--fail", "isl"]);
    assert_eq!(code, 0, "{err}");
    snapshot("simulate__spof-link__isl.human", &out);
    let (code, out, err) = run(&["fixtures/spof-stack.toml", "--stack-as-unit"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("stack-a "), "{out}");
    snapshot("simulate__spof-stack__table-stack-as-unit.human", &out);
    // A member named with --stack-as-unit fails the whole stack.
    let (_, out, _) = run(&[
        "fixtures/spof-stack.toml",
        "--fail",
        "st-1",
        "--stack-as-unit",
    ]);
    assert!(
        out.contains("with stack `stack-a` (`st-1`, `st-2`) down"),
        "{out}"
    );
}

#[test]
fn a_core_switch_row_names_a_few_links_and_counts_the_rest() {
    let text = netlint_synth::generate(&netlint_synth::Params::hosts(64));
    let path = std::env::temp_dir().join(format!("netlint-sim-table-{}.toml", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let (code, out, err) = run(&[path.to_str().unwrap()]);
    std::fs::remove_file(&path).ok();
    assert_eq!(code, 0, "{err}");
    let row = out
        .lines()
        .find(|l| l.starts_with("core-1 "))
        .expect("a row for core-1");
    // core-1 carries the core ISL and one uplink per access pair (16 pairs).
    assert!(
        row.contains("core-isl down; pair0-core-1 down;")
            && row.contains("pair4-core-1 down; 11 more links down"),
        "{row}"
    );
    assert!(!row.contains("pair5-core-1"), "{row}");
}

#[test]
fn unknown_names_and_bad_designs_exit_2() {
    let (code, _, err) = run(&["fixtures/spof-link.toml", "--fail", "sw-3"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--fail sw-3: no switch, stack or link named `sw-3`, did you mean `sw-1`?"),
        "{err}"
    );
    let (code, _, err) = run(&["fixtures/spof-link.toml", "--fail", "isl#2"]);
    assert_eq!(code, 2);
    assert!(err.contains("link `isl` has 1 cable"), "{err}");
    let (code, _, err) = run(&["fixtures/spof-link.toml", "--fail", "node9:NIC1"]);
    assert_eq!(code, 2);
    assert!(err.contains("no host named `node9`"), "{err}");
    let (code, _, err) = run(&["fixtures/invalid/cabling.toml"]);
    assert_eq!(code, 2);
    assert!(!err.is_empty());
}

/// The fast evaluation (tokens, shortcut components, healthy forwarding
/// reused for host-local failures) loses exactly the host pairs the exact
/// walk with the spanning tree solved again loses, on a synthetic two-tier
/// MSTP fabric with MLAG pairs.
#[test]
fn fast_failure_evaluation_matches_the_exact_walk_on_a_synthetic_fabric() {
    let text = netlint_synth::generate(&netlint_synth::Params::hosts(16));
    let loaded = load(&SourceFile::new("synthetic.toml", text));
    let d = loaded.design.expect("loads");
    let t = Topology::build(&d);
    let fab = Fabric::new(&d, &t);
    let healthy = fab.forwarding(&d, &t, &Failures::default());
    let a = Analysis::new(&d, &t, &fab, &healthy, requirements(&d, true));
    let pairs = all_pairs(&d, &t, &healthy);
    let all = units(
        &d,
        &t,
        UnitOptions {
            stack_as_unit: false,
            nic_ports: true,
        },
    );
    let mut scenarios: Vec<Failures> = all.iter().map(|u| u.failures(&d, &t)).collect();
    // Both peers of the first access pair, and both cores: real cuts.
    let sw = |n: &str| d.switch_by_name(n).unwrap();
    let mut f = Failures::default();
    f.switches.extend([sw("acc0-a"), sw("acc0-b")]);
    scenarios.push(f);
    let mut f = Failures::default();
    f.switches.extend([sw("core-1"), sw("core-2")]);
    scenarios.push(f);
    let mut cut = 0;
    for f in scenarios {
        let failed = fab.forwarding(&d, &t, &f);
        let exact: BTreeSet<_> = pairs
            .iter()
            .filter(|r| r.broken.is_none())
            .filter(|r| failed.reach(&d, &t, r.network, r.a, r.b).broken.is_some())
            .map(|r| (r.network, r.a, r.b))
            .collect();
        let mut fast = BTreeSet::new();
        for l in a.evaluate(&f).losses {
            if let Requirement::Network(n) = l.requirement {
                fast.extend(l.pairs.iter().map(|(x, y)| (n, *x, *y)));
            }
        }
        cut += usize::from(!exact.is_empty());
        assert_eq!(fast, exact, "{f:?}");
    }
    assert!(cut >= 2, "the double failures cut something");
}

/// Issue 12 item 8: when a standby adapter takes over on a switch that does
/// not define the network's VLAN, the explanation names that switch and
/// VLAN (the first real cause), not adapters that "no longer reach each
/// other" on one VLT domain.
#[test]
fn a_failover_onto_a_switch_without_the_vlan_names_the_vlan() {
    let design = "fixtures/simulate-vlan-not-defined.toml";
    for (unit, who) in [
        ("TOR1", "hosts `hv1`, `hv2` lose"),
        ("hv1:P1", "host `hv1` loses"),
    ] {
        let (code, out, err) = run(&[design, "--fail", unit]);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains(&format!(
                "{who} network `smb1`: its working adapter `P2` is cabled to `TOR2`, which does not define VLAN 711"
            )),
            "{out}"
        );
        assert!(!out.contains("no longer reach each other"), "{out}");
    }
}

/// Issue 21 item 4: hosts whose SET switch spans both top-of-rack switches
/// send some flows across the DAC; when it fails those flows go through
/// the core at 1G. A path is slower when any adapter pair's path is (the
/// pairs `stp-suboptimal-path` judges), and the slowest such pair is shown.
#[test]
fn a_failed_dac_shows_the_slowest_adapter_pair() {
    let (code, out, err) = run(&["fixtures/simulate-slower-pair.toml", "--fail", "dac"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("network `lm`: `node1`-`node2`: 10G -> 1G (now through `tor-1-core`)"),
        "{out}"
    );
    assert!(!out.contains("Slower paths\n  none"), "{out}");
    let (_, json, _) = run(&[
        "fixtures/simulate-slower-pair.toml",
        "--fail",
        "dac",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let slower = v["scenario"]["slower"].as_array().unwrap();
    assert_eq!(slower.len(), 2, "{json}");
    assert_eq!(slower[1]["network"], "lm");
    assert_eq!(slower[1]["before"], "10G");
    assert_eq!(slower[1]["after"], "1G");
}

#[test]
fn a_failed_peer_link_splits_the_vpc_pair_and_says_which_peer_is_secondary() {
    // Issue 34 item 8: the peer-link used to lose nothing.
    let d = "fixtures/spof-peer-link.toml";
    let (code, out, err) = run(&[d, "--fail", "vpc-peer"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        !out.contains("every inter-switch link keeps all its cables"),
        "{out}"
    );
    assert!(
        out.contains("MLAG domain `vpc1` splits into `nx-a` | `nx-b`: `nx-b`, the MLAG / vPC secondary, suspends"),
        "{out}"
    );
    assert!(
        out.contains("the design does not say which peer is the vPC primary: the worst of 2 choices is shown"),
        "{out}"
    );
    assert!(out.contains("host `hv4` loses network `vm`"), "{out}");
    snapshot("simulate__spof-peer-link__vpc-peer.human", &out);
    // Named: nx-b primary, so nx-a suspends and hv4 keeps everything.
    let (code, out, err) = run(&[d, "--fail", "vpc-peer@nx-b"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("`nx-a`, the MLAG / vPC secondary"), "{out}");
    assert!(!out.contains("the design does not say"), "{out}");
    assert!(!out.contains("`hv4` loses"), "{out}");
    // The table lists both choices.
    let (code, out, err) = run(&[d]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("vpc-peer@nx-a "), "{out}");
    assert!(out.contains("vpc-peer@nx-b "), "{out}");
    // A name that splits nothing.
    let (code, _, err) = run(&[d, "--fail", "vpc-peer@nx-c"]);
    assert_eq!(code, 2);
    assert!(err.contains("no switch"), "{err}");
}

#[test]
fn a_stacking_cable_severs_a_chain_stack() {
    let d = "fixtures/spof-stack-chain.toml";
    let (code, out, err) = run(&[d, "--fail", "stack-23"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("stack `stack-a` splits into `st-1`, `st-2` | `st-3`"),
        "{out}"
    );
    assert!(
        out.contains("hosts `hv1`, `hv2` lose network `vm`"),
        "{out}"
    );
}

#[test]
fn a_fabric_failure_shows_each_streams_speed() {
    // Issue 34 item 1: one ISL cable moves the tree onto 8 x 1G cables.
    let (code, out, err) = run(&["fixtures/lm-drain-fabric.toml", "--fail", "isl#1"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("20G -> 8G, per stream 10G -> 1G (now through `backup`)"),
        "{out}"
    );
}
