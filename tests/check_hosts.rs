//! `netlint check` run directly on switch configs and Hyper-V host
//! collections: the hosts are imported into the design in memory with the
//! switches, and a finding on a host value is reported at the line of the
//! collection the value came from, not at the generated design
//! (`<imported>`). The converged fixture
//! (crates/netlint-import/tests/host-fixtures/converged/) runs jumbo
//! frames on HV01 to HV03 and MTU 1500 on HV04: mtu-mismatch.

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
