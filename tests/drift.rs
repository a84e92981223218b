//! `netlint diff`: fixtures/drift/design.toml against an as-built twin per
//! kind of difference, each with one seeded difference that must be
//! reported once, at the design's line and at the as-built line, with the
//! consequence it has; the design against itself, and against a twin whose
//! elements are only renamed, gives nothing.

use serde_json::Value;

const DESIGN: &str = "fixtures/drift/design.toml";

fn run(args: &[&str]) -> (i32, String, String) {
    let mut argv = vec!["netlint", "diff"];
    argv.extend_from_slice(args);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = netlint::cli::run(argv, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

fn json(design: &str, built: &str) -> (i32, Value) {
    let (code, out, err) = run(&[design, built, "--format", "json"]);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    (code, v)
}

/// The text of 1-based line `n` of `path`.
fn line(path: &str, n: u64) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .nth(n as usize - 1)
        .unwrap_or_default()
        .to_string()
}

struct Case {
    twin: &'static str,
    rule: &'static str,
    severity: &'static str,
    /// The rule whose as-built finding the difference causes, if any.
    fails: Option<&'static str>,
    /// Text of the design line the finding points at.
    design_line: &'static str,
    /// Text of the as-built line (None: the element is not built).
    built_line: Option<&'static str>,
}

const CASES: &[Case] = &[
    Case {
        twin: "vlan",
        rule: "drift-vlan",
        severity: "error",
        fails: Some("network-partitioned"),
        design_line: "vlans = [10, 100, 711, 712]",
        built_line: Some("vlans = [10, 100, 712]"),
    },
    Case {
        twin: "mtu",
        rule: "drift-mtu",
        severity: "error",
        fails: Some("mtu-path-too-small"),
        design_line: "mtu = 9216",
        built_line: Some("mtu = 1500"),
    },
    Case {
        twin: "stp-mode",
        rule: "drift-stp",
        severity: "error",
        fails: Some("stp-mode-mismatch"),
        design_line: "mode = \"mstp\"",
        built_line: Some("mode = \"rstp\""),
    },
    Case {
        twin: "stp-priority",
        rule: "drift-stp",
        severity: "warning",
        fails: None,
        design_line: "priority = 4096",
        built_line: Some("priority = 32768"),
    },
    Case {
        twin: "stp-region",
        rule: "drift-stp",
        severity: "warning",
        fails: None,
        design_line: "region = \"dc1\"",
        built_line: Some("region = \"dc2\""),
    },
    Case {
        twin: "stp-revision",
        rule: "drift-stp",
        severity: "error",
        fails: Some("mstp-region-mismatch"),
        design_line: "revision = 1",
        built_line: Some("revision = 2"),
    },
    Case {
        twin: "stp-instances",
        rule: "drift-stp",
        severity: "error",
        fails: Some("mstp-region-mismatch"),
        design_line: "instances = { 1 = [10, 100], 2 = [711, 712] }",
        built_line: Some("instances = { 1 = [10], 2 = [100, 711, 712] }"),
    },
    Case {
        twin: "cabling",
        rule: "drift-cabling",
        severity: "error",
        fails: Some("lm-no-fallback"),
        design_line: "switch = \"tor-b\"",
        built_line: Some("nics.SLOT2-1.switch = \"tor-a\""),
    },
    Case {
        twin: "lag-members",
        rule: "drift-lag",
        severity: "error",
        fails: Some("lm-no-fallback"),
        design_line: "members = 2",
        built_line: Some("members = 1"),
    },
    Case {
        twin: "lag-mode",
        rule: "drift-lag",
        severity: "warning",
        fails: None,
        design_line: "lag = \"lacp\"",
        built_line: Some("lag = \"static\""),
    },
    Case {
        twin: "team-members",
        rule: "drift-team",
        severity: "error",
        fails: Some("host-asymmetry"),
        design_line: "members = [\"SLOT1-2\", \"SLOT2-2\"]",
        built_line: Some("teams.VMTeam.members = [\"SLOT1-2\"]"),
    },
    Case {
        twin: "team-load-balancing",
        rule: "drift-team",
        severity: "error",
        fails: Some("team-rx-single-member"),
        design_line: "load_balancing = \"dynamic\"",
        built_line: Some("load_balancing = \"address-hash\""),
    },
    Case {
        twin: "vnic-vlan",
        rule: "drift-vnic",
        severity: "warning",
        fails: None,
        design_line: "network = \"smb1\"",
        built_line: Some("network = \"smb2\""),
    },
    Case {
        twin: "role",
        rule: "drift-role",
        severity: "warning",
        fails: None,
        design_line: "role = \"management\"",
        built_line: Some("role = \"cluster\""),
    },
    Case {
        twin: "vnic-weight",
        rule: "drift-vnic",
        severity: "warning",
        fails: None,
        design_line: "min_bandwidth_weight = 25",
        built_line: Some("min_bandwidth_weight = 5"),
    },
    Case {
        twin: "smb-limit",
        rule: "drift-smb-limit",
        severity: "error",
        fails: Some("smb-bandwidth-cap-missing"),
        design_line: "smb_bandwidth_limit = \"1500MB\"",
        built_line: Some("[profiles.node.live_migration]"),
    },
    Case {
        twin: "rdma",
        rule: "drift-rdma",
        severity: "error",
        fails: Some("rdma-mismatch"),
        design_line: "rdma = \"roce-v2\"",
        built_line: Some("nics.SLOT1-1.rdma = \"none\""),
    },
    Case {
        twin: "dcb",
        rule: "drift-dcb",
        severity: "error",
        fails: Some("dcb-priority-mismatch"),
        design_line: "pfc = [3]",
        built_line: Some("pfc = [4]"),
    },
    Case {
        twin: "live-migration",
        rule: "drift-live-migration",
        severity: "error",
        fails: Some("team-hyperv-port-cap"),
        design_line: "transport = \"smb\"",
        built_line: Some("transport = \"compression\""),
    },
    Case {
        twin: "edge",
        rule: "drift-stp",
        severity: "error",
        fails: Some("host-port-not-edge"),
        design_line: "host_ports = { edge = true, bpdu_guard = true }",
        built_line: Some("host_ports = { edge = false, bpdu_guard = true }"),
    },
    // A port with a table as built only: compared with the design's
    // switch, whose VLANs apply to a port without one.
    Case {
        twin: "host-port-vlan",
        rule: "drift-vlan",
        severity: "error",
        fails: Some("network-partitioned"),
        design_line: "vlans = [10, 100, 711, 712]",
        built_line: Some("vlans = [100, 711, 712]"),
    },
    Case {
        twin: "missing-link",
        rule: "drift-missing",
        severity: "error",
        fails: Some("network-partitioned"),
        design_line: "[[links]]",
        built_line: None,
    },
    Case {
        twin: "missing-host",
        rule: "drift-missing",
        severity: "warning",
        fails: None,
        design_line: "[hosts.hv2]",
        built_line: None,
    },
    // The as-built fails `speed-unknown` (its link states no speed), but
    // not because of the MTU difference: undone, the finding stays.
    Case {
        twin: "mtu-no-speed",
        rule: "drift-mtu",
        severity: "warning",
        fails: None,
        design_line: "mtu = 9216",
        built_line: Some("mtu = 9100"),
    },
    Case {
        twin: "extra-switch",
        rule: "drift-extra",
        severity: "info",
        fails: None,
        design_line: "[design]",
        built_line: Some("[switches.tor-c]"),
    },
];

#[test]
fn each_seeded_difference_is_reported_once_at_both_places_with_its_consequence() {
    let mut twins: Vec<String> = std::fs::read_dir("fixtures/drift")
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let n = e.file_name().to_string_lossy().to_string();
            n.strip_suffix(".as-built.toml").map(str::to_string)
        })
        .filter(|n| n != "renamed")
        .collect();
    twins.sort();
    let mut listed: Vec<String> = CASES.iter().map(|c| c.twin.to_string()).collect();
    listed.sort();
    assert_eq!(
        twins, listed,
        "every twin in fixtures/drift has a case, and only those"
    );
    for c in CASES {
        let built = format!("fixtures/drift/{}.as-built.toml", c.twin);
        let (code, v) = json(DESIGN, &built);
        let diags = v["diagnostics"].as_array().unwrap();
        assert_eq!(diags.len(), 1, "{}: {diags:#?}", c.twin);
        let d = &diags[0];
        assert_eq!(d["rule"], c.rule, "{}", c.twin);
        assert_eq!(d["severity"], c.severity, "{}: {}", c.twin, d["message"]);
        let message = d["message"].as_str().unwrap();
        match c.fails {
            Some(rule) => assert!(
                message.contains(&format!(
                    "as built this fails `{rule}`, which the design passes"
                )),
                "{}: {message}",
                c.twin
            ),
            None => assert!(
                !message.contains("as built this fails"),
                "{}: {message}",
                c.twin
            ),
        }
        assert_eq!(d["location"]["file"], DESIGN, "{}", c.twin);
        let at = line(DESIGN, d["location"]["line"].as_u64().unwrap());
        assert!(at.contains(c.design_line), "{}: design line `{at}`", c.twin);
        let in_built: Vec<&Value> = d["related"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["location"]["file"] == built.as_str())
            .collect();
        match c.built_line {
            Some(want) => {
                assert_eq!(in_built.len(), 1, "{}: {d:#?}", c.twin);
                let got = line(&built, in_built[0]["location"]["line"].as_u64().unwrap());
                assert!(got.contains(want), "{}: as-built line `{got}`", c.twin);
            }
            None => assert!(in_built.is_empty(), "{}: {d:#?}", c.twin),
        }
        let expected_exit = if c.severity == "info" { 0 } else { 1 };
        assert_eq!(code, expected_exit, "{}", c.twin);
    }
}

#[test]
fn the_design_against_itself_gives_nothing() {
    let (code, v) = json(DESIGN, DESIGN);
    assert_eq!(code, 0);
    assert_eq!(v["diagnostics"].as_array().unwrap().len(), 0, "{v:#}");
}

#[test]
fn renamed_elements_are_matched_by_what_they_connect() {
    // hv1 is `HV-01`, tor-b is `TOR-B-01` and the link is `po1` as built.
    let built = "fixtures/drift/renamed.as-built.toml";
    let text = std::fs::read_to_string(built).unwrap();
    assert!(
        text.contains("[hosts.HV-01]") && text.contains("TOR-B-01") && !text.contains("\"tor-b\"")
    );
    let (code, v) = json(DESIGN, built);
    assert_eq!(v["diagnostics"].as_array().unwrap().len(), 0, "{v:#}");
    assert_eq!(code, 0);
}

#[test]
fn the_as_built_side_can_be_switch_configs_lldp_and_cabling() {
    let f = "crates/netlint-import/tests/fixtures";
    let files = [
        format!("{f}/nxos-tor1.cfg"),
        format!("{f}/nxos-tor2.cfg"),
        format!("{f}/nxos-tor1.lldp.txt"),
        format!("{f}/cabling.csv"),
    ];
    let mut args = vec!["fixtures/drift/imported/design.toml"];
    args.extend(files.iter().map(String::as_str));
    args.extend(["--format", "json"]);
    let (code, out, _) = run(&args);
    let v: Value = serde_json::from_str(&out).unwrap();
    let diags = v["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0]["rule"], "drift-stp");
    // The vPC pair is the fabric's one bridge and presents tor2's 4096:
    // the priority changes no tree, so it is said at info and fails
    // nothing.
    assert_eq!(diags[0]["severity"], "info");
    assert!(
        diags[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("switch `tor1`: bridge priority 8192 as built, 4096 in the design"),
        "{}",
        diags[0]["message"]
    );
    // The as-built label is on the running-config's line, not on the
    // imported design's.
    let related = &diags[0]["related"];
    assert_eq!(related.as_array().unwrap().len(), 1, "{related:#}");
    let at = &related[0]["location"];
    assert_eq!(at["file"], files[0].as_str(), "{related:#}");
    let text = line(&files[0], at["line"].as_u64().unwrap());
    assert!(text.contains("priority 8192"), "{text}");
    assert_eq!(code, 0);
}

#[test]
fn fail_on_exit_zero_and_select_gate_like_check() {
    let warn = "fixtures/drift/lag-mode.as-built.toml";
    assert_eq!(run(&[DESIGN, warn]).0, 1);
    assert_eq!(run(&[DESIGN, warn, "--fail-on", "error"]).0, 0);
    assert_eq!(run(&[DESIGN, warn, "--exit-zero"]).0, 0);
    assert_eq!(run(&[DESIGN, warn, "--ignore", "drift-lag"]).0, 0);
    assert_eq!(run(&[DESIGN, warn, "--select", "drift-vlan"]).0, 0);
    // Selecting one drift rule still judges by every ordinary rule.
    let (code, out, _) = run(&[
        DESIGN,
        "fixtures/drift/vlan.as-built.toml",
        "--select",
        "drift-vlan",
        "--format",
        "concise",
    ]);
    assert_eq!(code, 1);
    assert!(
        out.contains("error[drift-vlan]") && out.contains("fails `network-partitioned`"),
        "{out}"
    );
    let (code, _, err) = run(&[DESIGN, warn, "--select", "drift-nope"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("unknown rule or category `drift-nope`"),
        "{err}"
    );
}

#[test]
fn a_baseline_hides_known_differences_and_only_new_ones_fail() {
    let dir = std::env::temp_dir().join(format!("netlint-drift-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let baseline = dir.join("drift-baseline.json");
    let b = baseline.to_str().unwrap();
    let (code, _, err) = run(&[
        DESIGN,
        "fixtures/drift/lag-mode.as-built.toml",
        "--write-baseline",
        b,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("baseline of 1 difference"), "{err}");
    let (code, _, err) = run(&[
        DESIGN,
        "fixtures/drift/lag-mode.as-built.toml",
        "--baseline",
        b,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("1 difference hidden"), "{err}");
    // Another difference is new: it fails.
    let (code, _, _) = run(&[DESIGN, "fixtures/drift/vlan.as-built.toml", "--baseline", b]);
    assert_eq!(code, 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_as_built_that_does_not_load_is_an_input_error_at_its_line() {
    let dir = std::env::temp_dir().join(format!("netlint-drift-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(
        &bad,
        "[design]\nname = \"x\"\n[switches.a]\nmtu = \"big\"\n",
    )
    .unwrap();
    let (code, out, _) = run(&[DESIGN, bad.to_str().unwrap(), "--format", "concise"]);
    assert_eq!(code, 2);
    assert!(
        out.contains("bad.toml:4:") && out.contains("error[schema]"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_difference_in_every_format_snapshot() {
    let mut all = String::new();
    for c in CASES {
        let built = format!("fixtures/drift/{}.as-built.toml", c.twin);
        let (_, out, _) = run(&[DESIGN, &built, "--format", "concise", "--quiet"]);
        all.push_str(&format!("## {}\n{out}", c.twin));
    }
    insta::assert_snapshot!("drift_concise", all);
    let (_, human, _) = run(&[
        DESIGN,
        "fixtures/drift/vlan.as-built.toml",
        "--color",
        "never",
    ]);
    insta::assert_snapshot!("drift_human_vlan", human);
    let (_, sarif, _) = run(&[
        DESIGN,
        "fixtures/drift/cabling.as-built.toml",
        "--format",
        "sarif",
    ]);
    let v: Value = serde_json::from_str(&sarif).unwrap();
    let locations = &v["runs"][0]["results"][0];
    assert!(
        locations.to_string().contains("cabling.as-built.toml"),
        "SARIF names the as-built file: {locations:#}"
    );
}

fn validate(schema: &Value, doc: &Value) -> Vec<String> {
    let v = jsonschema::validator_for(schema).unwrap();
    v.iter_errors(doc)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

/// SARIF (2.1.0, with both places as locations), GitLab code quality and
/// netlint's JSON of every difference validate against their schemas.
#[test]
fn every_difference_validates_in_sarif_gitlab_and_json() {
    let read =
        |p: &str| -> Value { serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap() };
    let sarif_schema = read("tests/data/sarif-schema-2.1.0.json");
    let gitlab_schema = read("tests/data/gitlab-codeclimate.json");
    let output_schema: Value =
        serde_json::from_str(&netlint::commands::output_schema::current()).unwrap();
    for c in CASES {
        let built = format!("fixtures/drift/{}.as-built.toml", c.twin);
        let (_, sarif, _) = run(&[DESIGN, &built, "--format", "sarif"]);
        let doc: Value = serde_json::from_str(&sarif).unwrap();
        let errors = validate(&sarif_schema, &doc);
        assert!(errors.is_empty(), "{}: {errors:#?}", c.twin);
        let result = &doc["runs"][0]["results"][0];
        assert_eq!(result["ruleId"], c.rule, "{}", c.twin);
        if c.built_line.is_some() {
            assert!(
                result.to_string().contains(&built),
                "{}: SARIF names the as-built file: {result:#}",
                c.twin
            );
        }
        let (_, gitlab, _) = run(&[DESIGN, &built, "--format", "gitlab"]);
        let issues: Value = serde_json::from_str(&gitlab).unwrap();
        for issue in issues.as_array().unwrap() {
            let errors = validate(&gitlab_schema, issue);
            assert!(errors.is_empty(), "{}: {errors:#?}", c.twin);
        }
        let (_, report) = json(DESIGN, &built);
        let errors = validate(&output_schema, &report);
        assert!(errors.is_empty(), "{}: {errors:#?}", c.twin);
    }
}

const AS_BUILT: [&str; 4] = [
    "fixtures/as-built/tor-a.cfg",
    "fixtures/as-built/tor-b.cfg",
    "fixtures/as-built/tor-a.lldp.txt",
    "fixtures/as-built/cabling.csv",
];

/// The example cluster as built (EOS configs with per-port pruned host
/// trunks and `l2 mtu`, LLDP, the cabling sheet) is a faithful build of
/// fixtures/example.toml: `diff` reports nothing and exits 0, although
/// every host trunk is pruned to the VLANs its NIC needs and the design
/// has no port tables (issue 33 items 1 and 6).
#[test]
fn the_example_as_built_is_a_faithful_build() {
    let mut args = vec!["fixtures/example.toml"];
    args.extend(AS_BUILT);
    args.extend(["--format", "json"]);
    let (code, out, err) = run(&args);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    assert_eq!(v["diagnostics"].as_array().unwrap().len(), 0, "{out}");
    assert_eq!(code, 0, "{err}");
}

/// The management VLAN taken off one host trunk of the example's as-built
/// tor-a (a port the design has no table for, and whose host NIC the
/// design places by switch only): the cabling sheet puts hv01's P1-1 on
/// that port, P1-1 carries `mgmt`, so the loss is found, at the config
/// line (issue 33 item 6).
#[test]
fn a_host_trunk_pruned_of_a_vlan_its_nic_needs_is_found_through_the_cabling() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("drift-pruned-trunk");
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = std::fs::read_to_string(AS_BUILT[0]).unwrap();
    let pruned = cfg.replacen(
        "description hv01 P1-1 (ConnectX-5, SET Converged)\n   switchport trunk allowed vlan 10,30,100",
        "description hv01 P1-1 (ConnectX-5, SET Converged)\n   switchport trunk allowed vlan 30,100",
        1,
    );
    assert_ne!(pruned, cfg);
    let tor_a = dir.join("tor-a.cfg");
    std::fs::write(&tor_a, pruned).unwrap();
    let mut args = vec!["fixtures/example.toml", tor_a.to_str().unwrap()];
    args.extend(&AS_BUILT[1..]);
    args.extend(["--format", "json"]);
    let (code, out, err) = run(&args);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    let diags = v["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "{out}");
    assert_eq!(diags[0]["rule"], "drift-vlan", "{out}");
    let message = diags[0]["message"].as_str().unwrap();
    assert!(
        message.contains("`Ethernet1`") && message.contains("VLAN 10"),
        "{message}"
    );
    let at_config = diags[0]["related"].as_array().unwrap().iter().any(|r| {
        r["location"]["file"]
            .as_str()
            .unwrap()
            .ends_with("tor-a.cfg")
            && line(
                &tor_a.to_string_lossy(),
                r["location"]["line"].as_u64().unwrap(),
            )
            .contains("allowed vlan 30,100")
    });
    assert!(at_config, "{out}");
    assert_eq!(code, 1, "{err}");
}

/// A host NIC moved to the other ToR in the cabling sheet (the as-built
/// side has no hosts: switch configs, LLDP and the sheet only) is a
/// `drift-cabling` finding about that NIC, at the design line that places
/// it and at the sheet's row (issue 33 item 3).
#[test]
fn a_host_nic_moved_to_the_other_tor_in_the_cabling_sheet_is_drift_cabling() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("drift-moved-nic");
    std::fs::create_dir_all(&dir).unwrap();
    let csv = std::fs::read_to_string(AS_BUILT[3]).unwrap();
    let moved = csv.replacen(
        "tor-a,Ethernet10,hv02,P2-1",
        "tor-b,Ethernet10,hv02,P2-1",
        1,
    );
    assert_ne!(moved, csv);
    let sheet = dir.join("cabling.csv");
    std::fs::write(&sheet, &moved).unwrap();
    let mut args = AS_BUILT[..3].to_vec();
    args.insert(0, "fixtures/example.toml");
    args.push(sheet.to_str().unwrap());
    args.extend(["--format", "json"]);
    let (code, out, err) = run(&args);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    let diags = v["diagnostics"].as_array().unwrap();
    let cabling: Vec<&Value> = diags
        .iter()
        .filter(|d| d["rule"] == "drift-cabling")
        .collect();
    assert_eq!(cabling.len(), 1, "{out}");
    let message = cabling[0]["message"].as_str().unwrap();
    assert!(
        message.contains("hv02")
            && message.contains("`P2-1`")
            && message.contains("`tor-b` port `Ethernet10` as built")
            && message.contains("`tor-a` in the design"),
        "{message}"
    );
    let at_row = cabling[0]["related"].as_array().unwrap().iter().any(|r| {
        r["location"]["file"]
            .as_str()
            .unwrap()
            .ends_with("cabling.csv")
            && line(
                &sheet.to_string_lossy(),
                r["location"]["line"].as_u64().unwrap(),
            ) == "tor-b,Ethernet10,hv02,P2-1"
    });
    assert!(at_row, "{out}");
    assert_eq!(code, 1, "{err}");

    // The faithful sheet gives no cabling finding.
    let (code, out, _) = run(&[
        "fixtures/example.toml",
        AS_BUILT[0],
        AS_BUILT[1],
        AS_BUILT[2],
        AS_BUILT[3],
        "--format",
        "json",
    ]);
    assert!(!out.contains("drift-cabling"), "{out}");
    assert_eq!(code, 0);
}

/// LACP on one end of the peer link against `mode on` on the other: no
/// bundle forms, whichever end is read first. The import writes each
/// end's mode (`lag_a` / `lag_b`, issue 31 item 7: the link is taken as
/// `none`), and `diff` reports it as a `drift-lag` finding at both ends'
/// lines (issue 33 item 3).
#[test]
fn lacp_against_mode_on_on_the_peer_link_is_found_whichever_end_has_it() {
    for (i, end) in ["tor-a", "tor-b"].into_iter().enumerate() {
        let dir =
            std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("drift-lag-ends-{end}"));
        std::fs::create_dir_all(&dir).unwrap();
        let cfg = std::fs::read_to_string(AS_BUILT[i]).unwrap();
        let on = cfg.replace("channel-group 49 mode active", "channel-group 49 mode on");
        assert_ne!(on, cfg);
        let changed = dir.join(format!("{end}.cfg"));
        std::fs::write(&changed, &on).unwrap();
        let mut args: Vec<&str> = vec!["fixtures/example.toml"];
        for (j, f) in AS_BUILT.iter().enumerate() {
            args.push(if j == i { changed.to_str().unwrap() } else { f });
        }
        args.extend(["--format", "json"]);
        let (code, out, err) = run(&args);
        let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
        let diags = v["diagnostics"].as_array().unwrap();
        let lag: Vec<&Value> = diags.iter().filter(|d| d["rule"] == "drift-lag").collect();
        assert_eq!(lag.len(), 1, "{end}: {out}");
        let message = lag[0]["message"].as_str().unwrap();
        assert!(message.contains("`none` as built"), "{end}: {message}");
        let files: Vec<String> = lag[0]["related"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| {
                let f = r["location"]["file"].as_str().unwrap();
                f.ends_with(".cfg")
                    && line(f, r["location"]["line"].as_u64().unwrap()).contains("channel-group 49")
            })
            .map(|r| r["location"]["file"].as_str().unwrap().to_string())
            .collect();
        assert!(
            files.iter().any(|f| f.ends_with("tor-a.cfg"))
                && files.iter().any(|f| f.ends_with("tor-b.cfg")),
            "{end}: both ends' channel-group lines: {out}"
        );
        assert_eq!(code, 1, "{end}: {err}");
    }
}

/// LACP `passive` on both ends of the peer link: neither starts LACP, no
/// bundle forms; `passive` on one end only is a bundle (issue 33 item 3).
#[test]
fn lacp_passive_on_both_ends_is_no_bundle_and_on_one_end_a_bundle() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("drift-lag-passive");
    std::fs::create_dir_all(&dir).unwrap();
    let mut passive = Vec::new();
    for (i, end) in ["tor-a", "tor-b"].into_iter().enumerate() {
        let cfg = std::fs::read_to_string(AS_BUILT[i]).unwrap();
        let p = dir.join(format!("{end}.cfg"));
        std::fs::write(
            &p,
            cfg.replace(
                "channel-group 49 mode active",
                "channel-group 49 mode passive",
            ),
        )
        .unwrap();
        passive.push(p.to_str().unwrap().to_string());
    }
    let both = [
        "fixtures/example.toml",
        &passive[0],
        &passive[1],
        AS_BUILT[2],
        AS_BUILT[3],
        "--format",
        "json",
    ];
    let (code, out, _) = run(&both);
    assert!(out.contains("\"drift-lag\""), "{out}");
    assert_eq!(code, 1, "{out}");
    let one = [
        "fixtures/example.toml",
        &passive[0],
        AS_BUILT[1],
        AS_BUILT[2],
        AS_BUILT[3],
        "--format",
        "json",
    ];
    let (code, out, _) = run(&one);
    assert!(!out.contains("\"drift-lag\""), "{out}");
    assert_eq!(code, 0, "{out}");
}

/// Issue 33's situations on the example's EOS configs, each one edit of
/// a faithful build. The as-built side has no hosts (configs, LLDP, the
/// cabling sheet): `diff` puts the design's hosts on it, cabled as the
/// sheet says, so a difference that cuts a host off a network is the
/// error of what it does (item 2), and a cosmetic edit is nothing.
#[test]
fn the_example_as_built_with_one_fault_each_gets_the_severity_of_what_it_does() {
    struct Edit {
        name: &'static str,
        file: usize,
        from: &'static str,
        to: &'static str,
        /// The findings expected: rule, severity, a phrase of the message.
        expect: &'static [(&'static str, &'static str, &'static str)],
    }
    let cases = [
        Edit {
            name: "cosmetic: a port description",
            file: 0,
            from: "description hv01 P1-1 (ConnectX-5, SET Converged)\n",
            to: "description HV01 slot1 port1 -- moved 2026-11\n",
            expect: &[],
        },
        Edit {
            name: "the live-migration VLAN pruned from hv03's converged port",
            file: 0,
            from: "description hv03 P1-1 (ConnectX-5, SET Converged)\n   switchport trunk allowed vlan 10,30,100",
            to: "description hv03 P1-1 (ConnectX-5, SET Converged)\n   switchport trunk allowed vlan 10,100",
            expect: &[("drift-vlan", "error", "fails `network-partitioned`")],
        },
        Edit {
            name: "the CSV VLAN pruned from hv02's only CSV port",
            file: 0,
            from: "description hv02 P2-1 (CSV)\n   speed forced 10000full\n   switchport trunk allowed vlan 20",
            to: "description hv02 P2-1 (CSV)\n   speed forced 10000full\n   switchport trunk allowed vlan 1",
            expect: &[("drift-vlan", "error", "`hv02`")],
        },
        Edit {
            name: "l2 mtu 1500 on hv04's converged port",
            file: 0,
            from: "description hv04 P1-1 (ConnectX-5, SET Converged)\n   switchport trunk allowed vlan 10,30,100\n   switchport mode trunk\n   l2 mtu 9232",
            to: "description hv04 P1-1 (ConnectX-5, SET Converged)\n   switchport trunk allowed vlan 10,30,100\n   switchport mode trunk\n   l2 mtu 1500",
            expect: &[("drift-mtu", "error", "fails `mtu-path-too-small`")],
        },
        Edit {
            name: "tor-a's bridge priority",
            file: 0,
            from: "spanning-tree priority 4096",
            to: "spanning-tree priority 32768",
            // tor-a and tor-b are one MLAG bridge, the only one: the pair
            // presents tor-b's 4096, and no tree changes, healthy or
            // after either fails (said, at info).
            expect: &[(
                "drift-stp",
                "info",
                "bridge priority 32768 as built, 4096 in the design: every VLAN's spanning tree is the design's",
            )],
        },
    ];
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("drift-eos-faults");
    for (n, case) in cases.iter().enumerate() {
        let dir = dir.join(n.to_string());
        std::fs::create_dir_all(&dir).unwrap();
        let text = std::fs::read_to_string(AS_BUILT[case.file]).unwrap();
        assert!(text.contains(case.from), "{}", case.name);
        let edited = dir.join(
            std::path::Path::new(AS_BUILT[case.file])
                .file_name()
                .unwrap(),
        );
        std::fs::write(&edited, text.replacen(case.from, case.to, 1)).unwrap();
        let mut args: Vec<&str> = vec!["fixtures/example.toml"];
        for (j, f) in AS_BUILT.iter().enumerate() {
            args.push(if j == case.file {
                edited.to_str().unwrap()
            } else {
                f
            });
        }
        args.extend(["--format", "json"]);
        let (code, out, err) = run(&args);
        let v: Value = serde_json::from_str(&out)
            .unwrap_or_else(|e| panic!("{}: {e}: {out}\n{err}", case.name));
        let got: Vec<(String, String, String)> = v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                (
                    d["rule"].as_str().unwrap().to_string(),
                    d["severity"].as_str().unwrap().to_string(),
                    d["message"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        assert_eq!(got.len(), case.expect.len(), "{}: {got:#?}", case.name);
        for ((rule, severity, phrase), (g_rule, g_sev, g_msg)) in case.expect.iter().zip(&got) {
            assert_eq!(
                (rule, severity),
                (&g_rule.as_str(), &g_sev.as_str()),
                "{}: {g_msg}",
                case.name
            );
            assert!(g_msg.contains(phrase), "{}: {g_msg}", case.name);
        }
        // Info findings fail nothing.
        let want = if case.expect.iter().all(|(_, sev, _)| *sev == "info") {
            0
        } else {
            1
        };
        assert_eq!(code, want, "{}: {err}", case.name);
    }
}
