//! `netlint report`: snapshots of the three formats, run in-process through
//! `netlint::cli::run`, and the figures the issue asks for on the reference
//! design `eight-by-1g` (tests/data/reference).

fn report(path: &str, format: &str) -> (i32, String, String) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code = netlint::cli::run(
        ["netlint", "report", path, "--format", format],
        &mut out,
        &mut err,
    );
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

fn snapshot(name: &str, text: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!(name, text));
}

const FIXTURE: &str = "fixtures/team-hyperv-port-cap.toml";
const EIGHT: &str = "tests/data/reference/eight-by-1g.toml";
const ROCE: &str = "tests/data/reference/converged-roce.toml";

#[test]
fn fixture_report_in_every_format() {
    for format in ["human", "json", "markdown"] {
        let (code, out, err) = report(FIXTURE, format);
        assert_eq!((code, err.as_str()), (0, ""), "{format}");
        snapshot(&format!("report__team-hyperv-port-cap.{format}"), &out);
    }
}

#[test]
fn json_is_valid_and_carries_sources() {
    let (_, out, _) = report(FIXTURE, "json");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["version"], 1);
    let group = &v["groups"][0];
    assert_eq!(group["hosts"], serde_json::json!(["hv1", "hv2", "hv3"]));
    let lm = &group["classes"][0];
    assert_eq!(lm["class"], "live-migration");
    assert_eq!(
        lm["healthy"]["aggregate"]["bits_per_second"],
        1_000_000_000u64
    );
    assert_eq!(lm["limited_by"]["kind"], "send");
    // Every assumption a class names is explained at the top level.
    let listed: Vec<&str> = v["assumptions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap())
        .collect();
    for a in lm["assumptions"].as_array().unwrap() {
        assert!(listed.contains(&a.as_str().unwrap()), "{a}");
    }
    assert!(v.get("spanning_tree").is_none());
}

#[test]
fn eight_by_1g_says_live_migration_is_limited_to_1_gbps_and_why() {
    let (code, out, _) = report(EIGHT, "human");
    assert_eq!(code, 0);
    assert!(
        out.contains("live migration is limited to 1 Gb/s of the 8 Gb/s its adapters have, by: vNIC `LM1` on `Converged` is pinned to one member of team `BigTeam` 8 x 1G (hyperv-port)"),
        "{out}"
    );
    assert!(out.contains("tcp uses one network at a time: vNIC `LM1` on `Converged`"));
    // 128 GiB x 1,073,741,824 x 8 / 1e9 b/s = 1099.5 s
    assert!(
        out.contains("healthy: 18m20s at 1 Gb/s (line rate, a lower bound)"),
        "{out}"
    );
    assert!(out.contains("= 128 GiB x 1073741824 bytes x 8 bits / 1 Gb/s = 1099.5 s"));
    snapshot("report__eight-by-1g.human", &out);
    let (_, md, _) = report(EIGHT, "markdown");
    snapshot("report__eight-by-1g.markdown", &md);
}

#[test]
fn converged_roce_report() {
    let (code, out, _) = report(ROCE, "human");
    assert_eq!(code, 0);
    assert!(
        out.contains("note: SMB Direct (roce-v2) on vNIC `SMB1` on `ConvergedSwitch`"),
        "{out}"
    );
    snapshot("report__converged-roce.human", &out);
}

#[test]
fn input_errors_exit_2_without_a_report() {
    let dir = std::env::temp_dir().join(format!("netlint-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(
        &bad,
        "[design]\nname = \"x\"\n[networks.a]\nrole = \"nope\"\n",
    )
    .unwrap();
    let (code, out, err) = report(bad.to_str().unwrap(), "human");
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(
        err.contains("cannot report on a design with input errors"),
        "{err}"
    );
    assert!(err.contains("bad.toml:4:"), "{err}");
    let (code, _, err) = report("no/such/file.toml", "json");
    assert_eq!(code, 2);
    assert!(err.contains("no/such/file.toml"), "{err}");
}

/// A design that states no NIC speeds: every figure that counts them is
/// marked, none is made up.
#[test]
fn unknown_speeds_are_marked_in_every_format() {
    let path = "fixtures/speed-unknown.toml";
    for format in ["human", "json", "markdown"] {
        let (code, out, err) = report(path, format);
        assert_eq!((code, err.as_str()), (0, ""), "{format}");
        assert!(out.contains("speed unknown"), "{format}: {out}");
        snapshot(&format!("report__speed-unknown.{format}"), &out);
    }
    let (_, json, _) = report(path, "json");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let lm = &v["groups"][0]["classes"][0];
    assert_eq!(lm["class"], "live-migration");
    assert_eq!(lm["healthy"]["aggregate"]["known"], "unknown");
    assert_eq!(lm["healthy"]["aggregate"]["text"], "unknown");
    assert_eq!(v["groups"][0]["drain"]["healthy"]["known"], "unknown");
}

#[test]
fn the_drain_says_what_a_fabric_failure_leaves() {
    // Issue 34 item 1: "after losing any one adapter" was the whole story.
    let (code, out, err) = report("fixtures/lm-drain-fabric.toml", "human");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("over the fabric, after cable 1 of 2 of link `isl` fails: 18m20s at 2 Gb/s (2 streams to `hv2`, each at most 1 Gb/s on link `backup`)"),
        "{out}"
    );
    let (_, json, _) = report("fixtures/lm-drain-fabric.toml", "json");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let fabric = &v["groups"][0]["drain"]["fabric"][0];
    assert_eq!(fabric["bits_per_second"], 2_000_000_000u64);
    assert_eq!(fabric["per_stream_bits_per_second"], 1_000_000_000u64);
    let (_, md, _) = report("fixtures/lm-drain-fabric.toml", "markdown");
    assert!(
        md.contains("Over the fabric, after cable 1 of 2 of link `isl` fails: 18m20s"),
        "{md}"
    );
}
