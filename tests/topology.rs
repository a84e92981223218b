//! `netlint topology`: snapshots of both reference triangles (the RSTP one
//! that cuts the cluster VLANs, the MSTP one that fixes it) in human and
//! JSON form, and the facts a network engineer reads them for.

fn run(args: &[&str]) -> (i32, String, String) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut argv = vec!["netlint", "topology"];
    argv.extend_from_slice(args);
    let code = netlint::cli::run(argv, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

fn topology(path: &str, format: &str) -> String {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    let (code, out, err) = run(&[path, "--format", format]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    out
}

#[test]
fn rstp_triangle_human() {
    let out = topology("fixtures/rstp-triangle.toml", "human");
    // One tree for every VLAN, rooted at the core on its priority.
    assert!(out.contains("The RSTP tree rooted at core-1: decides mgmt (VLAN 10), vms (VLAN 100), csv (VLAN 20), lm (VLAN 30)"));
    assert!(out.contains("Root: core-1 is root on its priority 4096."));
    // The ISL blocks at tor-b, and why.
    assert!(out.contains("tor-b ALTERNATE (blocks) cost 1000"));
    assert!(out.contains("why tor-b: alternate: receives root path cost 10000 from tor-a on isl; a root path through this port would cost 11000, more than the 10000 through its root port on uplink-b"));
    // The cluster VLANs are cut between the switches; management goes round.
    assert!(out.contains("tor-a <-> tor-b: no path: spanning tree blocks isl (blocked at tor-b by the RSTP tree rooted at core-1), and no other path carries VLAN 20"));
    assert!(out.contains("tor-a <-> tor-b: tor-a -> core-1 -> tor-b over uplink-a, uplink-b; slowest 1G per cable on uplink-a; packets up to 1500 bytes"));
    insta::assert_snapshot!("rstp-triangle.human", out);
}

#[test]
fn mstp_triangle_human() {
    let out = topology("fixtures/mstp-triangle.toml", "human");
    assert!(
        out.contains("Instance 0 (CIST) rooted at core-1: decides mgmt (VLAN 10), vms (VLAN 100)")
    );
    assert!(out
        .contains("Instance 1 of region dc1 rooted at tor-a: decides csv (VLAN 20), lm (VLAN 30)"));
    // Instance 1 forwards the ISL and blocks at the core instead.
    assert!(out.contains("isl       2 x 10G  tor-a designated cost 1000   tor-b root cost 1000"));
    assert!(out.contains("core-1 ALTERNATE (blocks) cost 10000"));
    assert!(out.contains("tor-a <-> tor-b: tor-a -> tor-b over isl; slowest 10G per cable on isl; packets up to 9216 bytes"));
    insta::assert_snapshot!("mstp-triangle.human", out);
}

#[test]
fn both_triangles_as_json() {
    for name in ["rstp-triangle", "mstp-triangle"] {
        let out = topology(&format!("fixtures/{name}.toml"), "json");
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(doc["domains"].as_array().unwrap().len(), 1);
        let csv = doc["networks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["network"] == "csv")
            .unwrap();
        let reachable = csv["groups"][0]["reachable"].as_bool().unwrap();
        assert_eq!(reachable, name == "mstp-triangle", "{name}");
        insta::assert_snapshot!(format!("{name}.json"), out);
    }
}

#[test]
fn a_design_that_does_not_load_exits_2_with_its_errors() {
    let dir = std::env::temp_dir().join(format!("netlint-topology-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(
        &bad,
        "[design]\nname = \"x\"\n[switches.a]\nstp = { mode = \"rstpp\" }\n",
    )
    .unwrap();
    let (code, out, err) = run(&[bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("rstp"), "{err}");
    let (code, _, err) = run(&[dir.join("missing.toml").to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read"), "{err}");
}

#[test]
fn orphan_ports_of_different_mlag_peers_cross_the_peer_link() {
    let out = topology("fixtures/mlag-peer-link-vlan.toml", "human");
    // The peer-link leaves VLANs 20 and 30 out: vNICs behind different
    // peers are cut, and the domain is not shown as one switch.
    assert!(!out.contains("vpc10 <-> vpc10: same switch"), "{out}");
    assert!(out.contains("csv (VLAN 20, csv), decided by the RSTP tree rooted at core\n    hosts hv1, hv2, hv3: CUT, traffic between n9k-a and n9k-b crosses peer-link vpc-peer, which does not carry VLAN 20"), "{out}");
    assert!(out.contains("vpc10 <-> vpc10: no path: traffic between n9k-a and n9k-b crosses peer-link vpc-peer, which does not carry VLAN 30"));
    // VLAN 10 is on the peer-link: reachable across it.
    assert!(out.contains(
        "vpc10 <-> vpc10: n9k-a -> n9k-b over peer-link vpc-peer; packets up to 9216 bytes"
    ));
    assert!(out.contains("vpc10 <-> vpc10: both on peer n9k-a"));
    let doc: serde_json::Value =
        serde_json::from_str(&topology("fixtures/mlag-peer-link-vlan.toml", "json")).unwrap();
    let csv = &doc["networks"][2];
    assert_eq!(csv["network"], "csv");
    assert_eq!(csv["groups"][0]["reachable"], false);
    let cut = csv["groups"][0]["paths"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| !p["cut"].is_null())
        .unwrap();
    assert_eq!(cut["peers"], serde_json::json!(["n9k-a", "n9k-b"]));
}

#[test]
fn parallel_blocked_links_are_all_named_in_the_cut() {
    let out = topology("fixtures/stp-vlan-partition-parallel.toml", "human");
    // Both fibres carry VLAN 20 and both are blocked: neither is "the only
    // path".
    assert!(out.contains("room-a <-> room-b: no path: spanning tree blocks fibre-1 (blocked at room-b by instance 1 of region campus rooted at core), fibre-2 (blocked at room-b by instance 1 of region campus rooted at core), and no other path carries VLAN 20"), "{out}");
}

/// A PVST+ design over many VLANs: the VLAN trees that come out alike are
/// one entry, listing its VLANs, instead of one copy per VLAN.
#[test]
fn pvst_vlans_sharing_a_tree_are_written_once() {
    let vlans = 120;
    let mut d = String::from("[design]\nname = \"pvst\"\n");
    for v in 1..=vlans {
        d += &format!("[networks.v{v}]\nrole = \"vm\"\nvlan = {v}\n");
    }
    for i in 0..6 {
        let prio = if i == 0 { 4096 } else { 32768 };
        d += &format!("[switches.s{i}]\nvlans = [\"1-{vlans}\"]\nstp = {{ mode = \"rapid-pvst\", priority = {prio} }}\n");
    }
    for i in 1..6 {
        d += &format!(
            "[[links]]\na = \"s{}\"\nb = \"s{i}\"\nspeed = \"10G\"\n",
            (i - 1) / 2
        );
    }
    // A loop, costed differently for VLAN 7 only: VLAN 7 has its own tree.
    d += "[[links]]\na = \"s1\"\nb = \"s2\"\nspeed = \"10G\"\nstp_cost = { 7 = 20 }\n";
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("pvst-many-vlans.toml");
    std::fs::write(&path, d).unwrap();
    let json = topology(path.to_str().unwrap(), "json");
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let trees = doc["domains"][0]["trees"].as_array().unwrap();
    let summary: Vec<(String, usize, usize)> = trees
        .iter()
        .map(|t| {
            (
                t["tree"].as_str().unwrap().to_string(),
                t["vlans"].as_array().map_or(0, |v| v.len()),
                t["networks"].as_array().unwrap().len(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            ("VLAN 1 (PVST+)".to_string(), 0, 1),
            ("VLANs 2-6, 8-120 (PVST+)".to_string(), 118, 118),
            ("VLAN 7 (PVST+)".to_string(), 1, 1),
        ]
    );
    assert_eq!(trees[1]["vlan"], 2);
    assert_eq!(trees[1]["vlans"][117], 120);
    // One entry per distinct tree: the size no longer grows per VLAN.
    assert!(json.len() < 120_000, "{} bytes", json.len());
    let human = topology(path.to_str().unwrap(), "human");
    assert!(
        human.contains("VLANs 2-6, 8-120 (PVST+), each rooted at s0"),
        "{human}"
    );
}
