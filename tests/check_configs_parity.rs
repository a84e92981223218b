//! `check` on configs finds what `check` on the same design finds (issue
//! 31 item 8): for every set of switch configs the repository has, the
//! configs are checked directly, then imported and the written design is
//! checked, and the two give the same findings (rule and message). Two
//! faults that were silent on configs are seeded into the as-built example
//! (fixtures/as-built): an MST revision split between the two MLAG peers.

mod support;
use support::{run, tmp};

const IMPORT: &str = "crates/netlint-import/tests/fixtures";

/// The config sets: each is what a user would pass to `check` at once.
fn sets() -> Vec<(&'static str, Vec<String>)> {
    let under = |dir: &str, files: &[&str]| -> Vec<String> {
        files.iter().map(|f| format!("{dir}/{f}")).collect()
    };
    vec![
        (
            "as-built",
            under(
                "fixtures/as-built",
                &["tor-a.cfg", "tor-b.cfg", "tor-a.lldp.txt", "cabling.csv"],
            ),
        ),
        (
            "check-configs",
            under(
                "tests/data/check_configs",
                &["tor1.cfg", "tor2.cfg", "acc1.cfg", "cabling.csv"],
            ),
        ),
        (
            "nxos",
            under(IMPORT, &["nxos-tor1.cfg", "nxos-tor2.cfg", "cabling.csv"]),
        ),
        ("eos", under(IMPORT, &["eos-leaf1.cfg", "eos-leaf2.cfg"])),
        ("os10", under(IMPORT, &["os10-vlt1.cfg", "os10-vlt2.cfg"])),
        ("ios", under(IMPORT, &["ios-access1.cfg"])),
        (
            "dsvpc",
            under(
                IMPORT,
                &[
                    "nxos-dsvpc-leaf1a.cfg",
                    "nxos-dsvpc-leaf1b.cfg",
                    "nxos-dsvpc-spine1.cfg",
                    "nxos-dsvpc-spine2.cfg",
                    "dsvpc.cabling.csv",
                ],
            ),
        ),
        (
            "ports",
            under(
                IMPORT,
                &[
                    "nxos-ports-leaf1.cfg",
                    "nxos-ports-leaf2.cfg",
                    "os10-ports-leaf3.cfg",
                    "ports.cabling.csv",
                ],
            ),
        ),
        (
            "lagmode",
            under(
                IMPORT,
                &[
                    "nxos-lagmode-acc1.cfg",
                    "nxos-lagmode-agg1.cfg",
                    "lagmode.cabling.csv",
                ],
            ),
        ),
    ]
}

/// The findings of `netlint check ARGS --format json`, as (rule, message),
/// sorted.
fn findings(args: &[&str]) -> Vec<(String, String)> {
    let mut argv = vec!["check", "--isolated", "--format", "json"];
    argv.extend_from_slice(args);
    let (code, out, err) = run(&argv);
    assert!(code == 0 || code == 1, "{argv:?}: exit {code}\n{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect(&err);
    let mut f: Vec<(String, String)> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap().to_string(),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    f.sort();
    f
}

/// Checking the configs and checking the design `import` writes from them
/// fire the same rules with the same messages, on every set.
#[test]
fn check_on_configs_and_on_their_imported_design_agree() {
    for (name, files) in sets() {
        let args: Vec<&str> = files.iter().map(String::as_str).collect();
        let direct = findings(&args);
        let out = tmp("check_configs_parity", &format!("{name}.toml"));
        let mut import = vec!["import"];
        import.extend_from_slice(&args);
        let out_s = out.to_str().unwrap();
        import.extend_from_slice(&["-o", out_s]);
        let (code, _, err) = run(&import);
        assert_eq!(code, 0, "{name}: {err}");
        let design = findings(&[out_s]);
        assert_eq!(
            direct, design,
            "{name}: configs against their imported design"
        );
    }
}

/// `revision 2` on one of two MLAG peers that otherwise share region
/// `AZL`: `check` on the two configs reports `mstp-region-mismatch` at the
/// odd peer's `revision` line (silent before: the peers run as one bridge,
/// so no spanning-tree port joined them).
#[test]
fn an_mst_revision_split_between_mlag_peers_is_found_on_the_configs() {
    let mut paths = Vec::new();
    for (file, rev) in [("tor-a.cfg", 1), ("tor-b.cfg", 2)] {
        let text = std::fs::read_to_string(format!("fixtures/as-built/{file}")).unwrap();
        let text = text.replacen(
            "spanning-tree mode rstp",
            &format!(
                "spanning-tree mode mstp\nspanning-tree mst configuration\n   name AZL\n   revision {rev}\n   instance 1 vlan 10,20,30,100"
            ),
            1,
        );
        assert!(
            text.contains("revision"),
            "{file} has `spanning-tree mode rstp`"
        );
        let p = tmp("check_configs_parity", &format!("mst-{file}"));
        std::fs::write(&p, &text).unwrap();
        paths.push(p.to_str().unwrap().to_string());
    }
    let (code, out, err) = run(&[
        "check",
        "--isolated",
        "--format",
        "json",
        &paths[0],
        &paths[1],
        "fixtures/as-built/cabling.csv",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let d = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["rule"] == "mstp-region-mismatch")
        .unwrap_or_else(|| panic!("no mstp-region-mismatch: {out}"));
    let loc = &d["location"];
    assert!(
        loc["file"].as_str().unwrap().ends_with("mst-tor-b.cfg"),
        "{d}"
    );
    let line = loc["line"].as_u64().unwrap() as usize;
    let text = std::fs::read_to_string(&paths[1]).unwrap();
    assert_eq!(
        text.lines().nth(line - 1).unwrap().trim(),
        "revision 2",
        "{d}"
    );
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("like its MLAG peer `tor-a`"),
        "{d}"
    );
}

/// `spanning-tree portfast` removed from tor-a's host port Ethernet1 (BPDU
/// guard kept): `check` on the configs and the cabling, without the hosts'
/// collections, reports `host-port-not-edge` at that port's `interface`
/// line (silent before: the rule looked only at ports a NIC of the design
/// is cabled to).
#[test]
fn edge_removed_from_a_host_port_is_found_on_the_configs() {
    let text = std::fs::read_to_string("fixtures/as-built/tor-a.cfg").unwrap();
    let at = text.find("interface Ethernet1\n").unwrap();
    let portfast = at + text[at..].find("   spanning-tree portfast\n").unwrap();
    let edited = format!(
        "{}{}",
        &text[..portfast],
        &text[portfast + "   spanning-tree portfast\n".len()..]
    );
    let p = tmp("check_configs_parity", "edge-tor-a.cfg");
    std::fs::write(&p, &edited).unwrap();
    let (code, out, err) = run(&[
        "check",
        "--isolated",
        "--format",
        "json",
        p.to_str().unwrap(),
        "fixtures/as-built/tor-b.cfg",
        "fixtures/as-built/cabling.csv",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("ignored as irrelevant, 0 not understood"),
        "{err}"
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let found: Vec<&serde_json::Value> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "host-port-not-edge")
        .collect();
    assert_eq!(found.len(), 1, "{out}");
    let d = found[0];
    let line = d["location"]["line"].as_u64().unwrap() as usize;
    assert_eq!(
        edited.lines().nth(line - 1).unwrap(),
        "interface Ethernet1",
        "{d}"
    );
    let m = d["message"].as_str().unwrap();
    assert!(
        m.starts_with(
            "port `Ethernet1` of switch `tor-a` faces a host the design does not describe"
        ) && m.contains("`edge = true`")
            && !m.contains("`bpdu_guard = true`"),
        "{m}"
    );
}

/// acc1 bundles its two uplinks with LACP, agg1 its end statically
/// (issue 31 item 7): `check` on the two configs and the cabling reports
/// `lag-mode-mismatch` at agg1's `channel-group 10 mode on` line, with
/// acc1's `channel-group 10 mode active` line related (before, the import
/// wrote `lag = "none"` with a comment, and no rule fired).
#[test]
fn ends_that_cannot_bundle_are_found_at_both_config_lines() {
    let file = |f: &str| format!("{IMPORT}/{f}");
    let (acc1, agg1, cabling) = (
        file("nxos-lagmode-acc1.cfg"),
        file("nxos-lagmode-agg1.cfg"),
        file("lagmode.cabling.csv"),
    );
    let (code, out, err) = run(&[
        "check",
        "--isolated",
        "--format",
        "json",
        &acc1,
        &agg1,
        &cabling,
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let found: Vec<&serde_json::Value> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "lag-mode-mismatch")
        .collect();
    assert_eq!(found.len(), 1, "{out}");
    let d = found[0];
    let text = |f: &str, n: u64| {
        std::fs::read_to_string(f)
            .unwrap()
            .lines()
            .nth(n as usize - 1)
            .unwrap()
            .trim()
            .to_string()
    };
    let l = &d["location"];
    assert_eq!(l["file"], agg1.as_str(), "{d}");
    assert_eq!(
        text(&agg1, l["line"].as_u64().unwrap()),
        "channel-group 10 mode on"
    );
    let related = d["related"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["location"]["file"] == acc1.as_str())
        .unwrap_or_else(|| panic!("no related line on acc1: {d}"));
    assert_eq!(
        text(&acc1, related["location"]["line"].as_u64().unwrap()),
        "channel-group 10 mode active"
    );
    let m = d["message"].as_str().unwrap();
    assert!(
        m.contains("`acc1` runs LACP and `agg1` a static port-channel (`mode on`)")
            && m.contains("never brings its 2 members into the bundle"),
        "{m}"
    );
}

/// The double-sided vPC of the dsvpc set with its two leaf members set
/// apart (issue 31 item 7): `mtu 9000` on leaf-1a's port-channel11,
/// `mtu 9216` on leaf-1b's port-channel12. `check` on the configs reports
/// `mlag-member-mtu-mismatch` at leaf-1a's `mtu 9000` line with leaf-1b's
/// `mtu 9216` line related (before, the import kept the smaller MTU only
/// and no rule fired); the imported design writes each leaf's MTU.
#[test]
fn vpc_members_at_different_mtus_are_found_at_both_config_lines() {
    let mut args = Vec::new();
    for (f, pc, mtu) in [
        ("nxos-dsvpc-leaf1a.cfg", "port-channel11", Some(9000)),
        ("nxos-dsvpc-leaf1b.cfg", "port-channel12", Some(9216)),
        ("nxos-dsvpc-spine1.cfg", "", None),
        ("nxos-dsvpc-spine2.cfg", "", None),
    ] {
        let text = std::fs::read_to_string(format!("{IMPORT}/{f}")).unwrap();
        let text = match mtu {
            Some(m) => {
                let at = text.find(&format!("interface {pc}\n")).unwrap();
                let vpc = at + text[at..].find("  vpc 11\n").unwrap();
                format!("{}  mtu {m}\n{}", &text[..vpc], &text[vpc..])
            }
            None => text,
        };
        let p = tmp("check_configs_parity", &format!("mtu-{f}"));
        std::fs::write(&p, &text).unwrap();
        args.push(p.to_str().unwrap().to_string());
    }
    args.push(format!("{IMPORT}/dsvpc.cabling.csv"));
    let mut argv = vec!["check", "--isolated", "--format", "json"];
    argv.extend(args.iter().map(String::as_str));
    let (code, out, err) = run(&argv);
    assert_eq!(code, 1, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let found: Vec<&serde_json::Value> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "mlag-member-mtu-mismatch")
        .collect();
    assert_eq!(found.len(), 1, "{out}");
    let d = found[0];
    let line_of = |loc: &serde_json::Value, path: &str| {
        assert!(
            loc["file"].as_str().unwrap().ends_with(path),
            "{loc} in {path}"
        );
        let text =
            std::fs::read_to_string(args.iter().find(|a| a.ends_with(path)).unwrap()).unwrap();
        let line = loc["line"].as_u64().unwrap() as usize;
        text.lines().nth(line - 1).unwrap().trim().to_string()
    };
    assert_eq!(
        line_of(&d["location"], "mtu-nxos-dsvpc-leaf1a.cfg"),
        "mtu 9000"
    );
    let related = &d["related"][0]["location"];
    assert_eq!(line_of(related, "mtu-nxos-dsvpc-leaf1b.cfg"), "mtu 9216");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("(`leaf-1a` 9000, `leaf-1b` 9216)"),
        "{d}"
    );
}
