//! `netlint check` run directly on switch configs and host collections
//! (Hyper-V and vSphere): the hosts are imported into the design in
//! memory with the switches, and a finding on a host value is reported at
//! the line of the collection the value came from, not at the generated
//! design (`<imported>`). The converged fixture
//! (crates/netlint-import/tests/host-fixtures/converged/) runs jumbo
//! frames on HV01 to HV03 and MTU 1500 on HV04: mtu-mismatch. The vSphere
//! fixture (crates/netlint-import/tests/vsphere/) runs esx03's vMotion
//! vmk1 at MTU 1500 (esx01, esx02: 9000) and esx03 on the Balanced power
//! policy: mtu-mismatch and power-profile.

mod support;
use support::run;

const FIX: &str = "crates/netlint-import/tests";
const HOSTS: &str = "crates/netlint-import/tests/host-fixtures/converged";

fn check() -> serde_json::Value {
    let mut files: Vec<String> = vec![
        format!("{FIX}/fixtures/nxos-tor1.cfg"),
        format!("{FIX}/fixtures/nxos-tor2.cfg"),
    ];
    for f in [
        "hv01.json",
        "hv02.json",
        "hv03.json",
        "hv04.json",
        "cabling.csv",
        "tor2.lldp.txt",
    ] {
        files.push(format!("{HOSTS}/{f}"));
    }
    let mut args: Vec<&str> = vec!["check", "--isolated", "--color", "never"];
    args.extend(files.iter().map(String::as_str));
    args.extend(["--format", "json"]);
    let (code, out, err) = run(&args);
    assert_eq!(code, 1, "{out}{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"))
}

/// Line `n` of a collection, and the lines just above it.
fn lines(file: &str, n: usize) -> (String, String) {
    let text = std::fs::read_to_string(file).unwrap();
    let all: Vec<&str> = text.lines().collect();
    (
        all[n - 1].trim().to_string(),
        all[n.saturating_sub(8)..n - 1].join("\n"),
    )
}

#[test]
fn a_host_mtu_mismatch_is_reported_at_the_collection_line() {
    let v = check();
    let diags = v["diagnostics"].as_array().unwrap();
    let d = diags
        .iter()
        .find(|d| {
            d["rule"] == "mtu-mismatch"
                && d["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("HV04") && m.contains("`Management`"))
        })
        .unwrap_or_else(|| panic!("no mtu-mismatch of HV04 on Management: {v}"));
    // At HV04's *JumboPacket of vEthernet (Management), 1514 (MTU 1500).
    let hv04 = format!("{HOSTS}/hv04.json");
    assert_eq!(d["location"]["file"], hv04.as_str(), "{d}");
    let n = d["location"]["line"].as_u64().unwrap() as usize;
    let (line, above) = lines(&hv04, n);
    assert_eq!(line, "\"1514\"", "{d}");
    assert!(above.contains("vEthernet (Management)"), "{above}");
    assert!(above.contains("*JumboPacket"), "{above}");
    // The hosts that run 9000: the value folded into their profile, at
    // the line of one member (HV01), never at the generated design.
    let related = d["related"].as_array().unwrap();
    assert!(!related.is_empty(), "{d}");
    let hv01 = format!("{HOSTS}/hv01.json");
    let r = &related[0]["location"];
    assert_eq!(r["file"], hv01.as_str(), "{d}");
    let (line, above) = lines(&hv01, r["line"].as_u64().unwrap() as usize);
    assert_eq!(line, "\"9014\"", "{d}");
    assert!(above.contains("vEthernet (Management)"), "{above}");
}

#[test]
fn no_host_finding_points_at_the_generated_design() {
    let v = check();
    for d in v["diagnostics"].as_array().unwrap() {
        if ["mtu-mismatch", "host-asymmetry", "spof-nic-card"]
            .contains(&d["rule"].as_str().unwrap())
        {
            assert_ne!(d["location"]["file"], "<imported>", "{d}");
        }
    }
}

const VSPHERE: &str = "crates/netlint-import/tests/vsphere";

fn check_vsphere() -> serde_json::Value {
    let files: Vec<String> = [
        "tor-a.cfg",
        "tor-b.cfg",
        "cabling.csv",
        "prod-cl01.vsphere.json",
    ]
    .iter()
    .map(|f| format!("{VSPHERE}/{f}"))
    .collect();
    let mut args: Vec<&str> = vec!["check", "--isolated", "--color", "never"];
    args.extend(files.iter().map(String::as_str));
    args.extend(["--format", "json"]);
    let (code, out, err) = run(&args);
    assert_eq!(code, 1, "{out}{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"))
}

#[test]
fn a_vsphere_host_finding_is_reported_at_the_collection_line() {
    let v = check_vsphere();
    let diags = v["diagnostics"].as_array().unwrap();
    let coll = format!("{VSPHERE}/prod-cl01.vsphere.json");
    let d = diags
        .iter()
        .find(|d| {
            d["rule"] == "mtu-mismatch"
                && d["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("esx03") && m.contains("`dvpg-vmotion`"))
        })
        .unwrap_or_else(|| panic!("no mtu-mismatch of esx03 on dvpg-vmotion: {v}"));
    // At esx03's vmk1 `"Mtu": 1500`, line 644 of the collection.
    assert_eq!(d["location"]["file"], coll.as_str(), "{d}");
    assert_eq!(d["location"]["line"], 644, "{d}");
    let (line, above) = lines(&coll, 644);
    assert_eq!(line, "\"Mtu\": 1500,", "{d}");
    assert!(above.contains("\"Name\": \"vmk1\""), "{above}");
    // The hosts at 9000: the value folded into the cluster's profile, at
    // the line of its first host (esx01's vmk1 `"Mtu": 9000`, line 206).
    let related = d["related"].as_array().unwrap();
    assert!(!related.is_empty(), "{d}");
    for r in related {
        assert_eq!(r["location"]["file"], coll.as_str(), "{d}");
        assert_eq!(r["location"]["line"], 206, "{d}");
    }
    assert_eq!(lines(&coll, 206).0, "\"Mtu\": 9000,", "{d}");
    // esx03's Balanced power policy: its `PowerPolicy`, line 458.
    let p = diags
        .iter()
        .find(|d| d["rule"] == "power-profile")
        .unwrap_or_else(|| panic!("no power-profile: {v}"));
    assert_eq!(p["location"]["file"], coll.as_str(), "{p}");
    assert_eq!(p["location"]["line"], 458, "{p}");
    assert_eq!(lines(&coll, 458).0, "\"PowerPolicy\": \"Balanced\",", "{p}");
}

#[test]
fn no_vsphere_host_finding_points_at_the_generated_design() {
    let v = check_vsphere();
    let diags = v["diagnostics"].as_array().unwrap();
    assert!(!diags.is_empty(), "{v}");
    for d in diags {
        assert_ne!(d["location"]["file"], "<imported>", "{d}");
    }
}

/// No finding of `check` on a host collection stays on `<imported>` once
/// table headers are mapped (issue 30 item 1): the converged Hyper-V
/// collections and the vSphere one, whose NIC findings sit at their NIC
/// table headers.
#[test]
fn no_host_finding_is_left_on_the_imported_text() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/netlint-import/tests");
    let hv = |h: &str| {
        root.join(format!("host-fixtures/converged/{h}.json"))
            .display()
            .to_string()
    };
    let vs = root
        .join("vsphere/prod-cl01.vsphere.json")
        .display()
        .to_string();
    for files in [vec![hv("hv01"), hv("hv02")], vec![vs]] {
        let mut args = vec!["check".to_string()];
        args.extend(files.iter().cloned());
        args.extend(["--format".into(), "concise".into()]);
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = run(&argv);
        assert_ne!(code, 2, "{err}");
        let findings: Vec<&str> = out.lines().filter(|l| l.contains("]")).collect();
        assert!(!findings.is_empty(), "{out}");
        assert!(
            findings.iter().all(|l| !l.starts_with("<imported>")),
            "{out}"
        );
    }
}
