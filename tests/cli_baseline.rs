//! `netlint baseline` and `netlint check --baseline`: keyed by file, rule
//! and element, so moving lines keeps findings hidden; new findings are
//! reported and fail; fixed ones are counted.

use serde_json::Value;
use std::path::{Path, PathBuf};

fn run(args: &[&str]) -> (i32, String, String) {
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

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli_baseline-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const POWER: &str = "fixtures/power-profile.toml";

fn findings(json: &str) -> Vec<(String, String)> {
    let doc: Value = serde_json::from_str(json).unwrap();
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap().to_string(),
                d["element"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn baseline_records_findings_without_line_numbers() {
    let (code, out, err) = run(&["baseline", POWER]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["version"], 1);
    let entries = doc["findings"].as_array().unwrap();
    // An entry per subject: every finding is there under its element, and
    // a finding shared by hosts has an entry for each.
    let (_, json, _) = run(&["check", POWER, "--format", "json"]);
    let shown = findings(&json);
    assert!(entries.len() >= shown.len());
    for (rule, element) in &shown {
        assert!(
            entries
                .iter()
                .any(|e| e["rule"] == rule.as_str() && e["element"] == element.as_str()),
            "{rule} {element}"
        );
    }
    for e in entries {
        let mut keys: Vec<&String> = e.as_object().unwrap().keys().collect();
        keys.sort();
        assert_eq!(keys, ["element", "file", "message", "rule"], "{e}");
        assert_eq!(e["file"], POWER);
    }
    assert!(entries
        .iter()
        .any(|e| e["rule"] == "power-profile" && e["element"] == "hosts.hv3"));
    assert!(!out.contains("\"line\""));
    // Written in key order: file, rule, element, then the message.
    let at = |k: &str| out.find(&format!("\"{k}\":")).unwrap();
    assert!(at("file") < at("rule") && at("rule") < at("element") && at("element") < at("message"));
    // Sorted by key, so a regenerated baseline diffs cleanly.
    let keys: Vec<String> = entries
        .iter()
        .map(|e| {
            format!(
                "{}\0{}\0{}\0{}",
                e["file"], e["rule"], e["element"], e["message"]
            )
        })
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    assert!(err.contains("netlint: baseline of"), "{err}");
}

#[test]
fn a_baselined_design_passes_even_when_its_lines_move() {
    let dir = scratch("moved");
    let design = dir.join("d.toml");
    let baseline = dir.join("netlint-baseline.json");
    let original = std::fs::read_to_string(POWER).unwrap();
    std::fs::write(&design, &original).unwrap();
    let d = design.to_str().unwrap();
    let b = baseline.to_str().unwrap();
    let (code, _, err) = run(&["baseline", d, "-o", b]);
    assert_eq!(code, 0, "{err}");
    let recorded: Value =
        serde_json::from_str(&std::fs::read_to_string(&baseline).unwrap()).unwrap();
    let n = recorded["findings"].as_array().unwrap().len();
    assert!(n >= 2);
    // Keyed relative to the repository root (the nearest folder above the
    // working directory that holds `.git`) when the design lies in it, and
    // as given otherwise (a source tree without git, a design elsewhere).
    let file = recorded["findings"][0]["file"].as_str().unwrap();
    let cwd = std::env::current_dir().unwrap();
    let root = cwd.ancestors().find(|a| a.join(".git").exists());
    match root.filter(|r| design.starts_with(r)) {
        Some(root) => {
            let rel = design.strip_prefix(root).unwrap().to_str().unwrap();
            assert_eq!(file, rel.replace('\\', "/"));
            assert!(!file.starts_with('/'), "{file}");
        }
        None => assert_eq!(file, d.replace('\\', "/")),
    }
    assert!(file.ends_with("cli_baseline-moved/d.toml"), "{file}");

    let (code, out, err) = run(&["check", d, "--baseline", b, "--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(findings(&out).is_empty());
    assert_eq!(
        err,
        format!("netlint: {n} findings hidden by the baseline {b}\n")
    );

    // Lines move: comments above everything, a blank line in the middle.
    let moved = format!(
        "# reviewed 2024-05-01\n# owner: network team\n\n{}",
        original.replace("[hosts.hv3]", "\n\n[hosts.hv3]")
    );
    std::fs::write(&design, moved).unwrap();
    let (code, out, err) = run(&["check", d, "--baseline", b, "--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(findings(&out).is_empty());
}

#[test]
fn new_findings_fail_and_fixed_ones_are_counted() {
    let dir = scratch("changed");
    let design = dir.join("d.toml");
    let baseline = dir.join("b.json");
    let original = std::fs::read_to_string(POWER).unwrap();
    std::fs::write(&design, &original).unwrap();
    let d = design.to_str().unwrap();
    let b = baseline.to_str().unwrap();
    assert_eq!(run(&["baseline", d, "-o", b]).0, 0);

    // hv3 gets its power plan (fixed); a new host hv4 has none (new).
    let hv3 = &original[original.find("[hosts.hv3]").unwrap()..];
    let changed = original.replace(
        "[hosts.hv3]\n",
        "[hosts.hv3]\npower = \"max-performance\"\n",
    ) + "\n"
        + &hv3.replace("hv3", "hv4");
    std::fs::write(&design, changed).unwrap();
    let (code, out, err) = run(&["check", d, "--baseline", b, "--format", "json"]);
    assert_eq!(
        code, 0,
        "power-profile is info, below the fail level: {err}"
    );
    let left = findings(&out);
    assert!(
        left.contains(&("power-profile".into(), "hosts.hv4".into())),
        "{left:?}"
    );
    assert!(
        !left
            .iter()
            .any(|(_, e)| e == "hosts.hv1" || e == "hosts.hv3"),
        "{left:?}"
    );
    assert!(
        err.contains("netlint: 1 baselined finding no longer occurs, so can be dropped from it"),
        "{err}"
    );
    assert!(
        err.contains(": power-profile on hosts.hv3: host `hv3`"),
        "{err}"
    );

    // The same with the info finding counted: the new one fails the run.
    let (code, _, _) = run(&["check", d, "--baseline", b, "--fail-on", "info"]);
    assert_eq!(code, 1);
    let (code, _, _) = run(&[
        "check",
        d,
        "--baseline",
        b,
        "--fail-on",
        "info",
        "--exit-zero",
    ]);
    assert_eq!(code, 0);
}

#[test]
fn files_outside_the_run_are_not_counted_as_fixed() {
    let dir = scratch("other-files");
    let b = dir.join("b.json");
    let b = b.to_str().unwrap();
    assert_eq!(
        run(&["baseline", POWER, "fixtures/mtu-mismatch.toml", "-o", b]).0,
        0
    );
    let (code, _, err) = run(&["check", POWER, "--baseline", b, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("no longer"), "{err}");
}

#[test]
fn input_errors_are_never_baselined() {
    let (code, out, err) = run(&["baseline", "fixtures/invalid/unknown-keys.toml"]);
    assert_eq!(code, 2);
    assert!(out.is_empty(), "no baseline on stdout: {out}");
    assert!(err.contains("schema"), "{err}");
    assert!(err.contains("no baseline written"), "{err}");
}

#[test]
fn a_missing_or_broken_baseline_is_an_error() {
    let (code, _, err) = run(&["check", POWER, "--baseline", "/nonexistent/b.json"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("netlint: cannot read baseline /nonexistent/b.json"),
        "{err}"
    );
    let dir = scratch("broken");
    let b = dir.join("b.json");
    std::fs::write(&b, "{\"version\": 7, \"findings\": []}").unwrap();
    let (code, _, err) = run(&["check", POWER, "--baseline", b.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("baseline version 7 is not supported"), "{err}");
}
