//! `netlint check` end to end, in process: exit codes, directory search,
//! netlint.toml discovery and precedence, `allow`, `explain` and `rules`.

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

/// A fresh folder under the system temp dir, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("netlint-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
    fn write(&self, rel: &str, text: &str) -> String {
        let p = self.0.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p.to_string_lossy().to_string()
    }
    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A design whose team mixes 10G and 1G (team-speed-mismatch, an error).
const MIXED_TEAM: &str = r#"
[design]
name = "mixed"

[switches.sw]
host_ports = { edge = true, bpdu_guard = true }

[hosts.hv1.nics.A]
speed = "10G"
switch = "sw"

[hosts.hv1.nics.B]
speed = "1G"
switch = "sw"

[hosts.hv1.teams.T]
members = ["A", "B"]
"#;

const CLEAN: &str = r#"
[design]
name = "clean"

[switches.sw]
host_ports = { edge = true, bpdu_guard = true }
"#;

fn rules_of(json: &str) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn exit_codes_follow_the_fail_level() {
    let t = TempDir::new("exit");
    let bad = t.write("bad.toml", MIXED_TEAM);
    let clean = t.write("clean.toml", CLEAN);
    assert_eq!(run(&["check", &clean]).0, 0);
    assert_eq!(run(&["check", &bad]).0, 1);
    assert_eq!(run(&["check", &bad, "--fail-on", "never"]).0, 0);
    assert_eq!(
        run(&["check", &bad, "--fail-on", "error", "--format", "json"]).0,
        1
    );
    let invalid = t.write("invalid.toml", "[design]\nname = 3\n");
    assert_eq!(run(&["check", &invalid]).0, 2);
    assert_eq!(run(&["check", &invalid, "--format", "json"]).0, 2);
    // Input errors win over findings in another file.
    assert_eq!(run(&["check", &bad, &invalid]).0, 2);
    // Usage errors.
    assert_eq!(run(&["check"]).0, 2);
    assert_eq!(
        run(&["check", &t.path().join("missing.toml").to_string_lossy()]).0,
        2
    );
    assert_eq!(run(&["check", &clean, "--format", "yaml"]).0, 2);
}

#[test]
fn a_rule_set_to_warning_fails_only_at_warning_level() {
    let t = TempDir::new("levels");
    let bad = t.write(
        "bad.toml",
        &format!("{MIXED_TEAM}\n[netlint]\nrules = {{ team-speed-mismatch = \"warning\" }}\n"),
    );
    let (code, out, _) = run(&["check", &bad, "--format", "json", "--fail-on", "error"]);
    assert_eq!(code, 0);
    assert!(out.contains("\"severity\": \"warning\""));
    assert_eq!(run(&["check", &bad]).0, 1);
}

#[test]
fn directories_are_searched_for_designs() {
    let t = TempDir::new("dirs");
    t.write("a/one.toml", MIXED_TEAM);
    t.write("b/two.toml", CLEAN);
    t.write("b/not-a-design.toml", "[tool]\nx = 1\n");
    t.write(".hidden/three.toml", MIXED_TEAM);
    let (code, out, _) = run(&["check", &t.path().to_string_lossy(), "--format", "json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["summary"]["files"], 2);
    let files: Vec<&str> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["location"]["file"].as_str().unwrap())
        .collect();
    assert!(files.iter().all(|f| f.ends_with("a/one.toml")), "{files:?}");
}

#[test]
fn netlint_toml_above_the_design_applies_and_the_design_overrides_it() {
    let t = TempDir::new("config");
    // A repository: the search climbs from the design up to its root.
    t.write(".git/HEAD", "ref: refs/heads/main\n");
    t.write(
        "netlint.toml",
        "[netlint]\nrules = { team-speed-mismatch = \"off\" }\n",
    );
    let bad = t.write("sub/dir/bad.toml", MIXED_TEAM);
    let (code, out, _) = run(&["check", &bad, "--format", "json"]);
    assert_eq!(code, 0, "{out}");
    assert!(!rules_of(&out).contains(&"team-speed-mismatch".to_string()));

    let overriding = t.write(
        "sub/dir/override.toml",
        &format!("{MIXED_TEAM}\n[netlint]\nrules = {{ team-speed-mismatch = \"info\" }}\nfail_on = \"info\"\n"),
    );
    let (code, out, _) = run(&["check", &overriding, "--format", "json"]);
    assert_eq!(code, 1);
    assert!(out.contains("\"severity\": \"info\""));
    // The command line beats both.
    assert_eq!(run(&["check", &overriding, "--fail-on", "warning"]).0, 0);
}

#[test]
fn unknown_rule_ids_in_settings_are_input_errors_with_a_suggestion() {
    let t = TempDir::new("unknown-ids");
    let d = t.write(
        "d.toml",
        &format!("{CLEAN}\n[netlint]\nrules = {{ team-speed-mismatc = \"off\" }}\n"),
    );
    let (code, out, _) = run(&["check", &d, "--format", "json"]);
    assert_eq!(code, 2);
    assert!(out.contains("did you mean `team-speed-mismatch`?"), "{out}");

    t.write(
        "cfg/netlint.toml",
        "[netlint]\nrules = { tem-speed-mismatch = \"off\" }\n",
    );
    let d2 = t.write("cfg/d.toml", CLEAN);
    let (code, out, _) = run(&["check", &d2, "--format", "json"]);
    assert_eq!(code, 2);
    assert!(out.contains("netlint.toml"), "{out}");
    assert!(out.contains("did you mean `team-speed-mismatch`?"), "{out}");
}

#[test]
fn allow_suppresses_on_the_element_and_inside_it() {
    let t = TempDir::new("allow");
    let on_team = MIXED_TEAM.replace(
        "members = [\"A\", \"B\"]",
        "members = [\"A\", \"B\"]\nallow = { team-speed-mismatch = \"lab host\" }",
    );
    let d = t.write("team.toml", &on_team);
    let (code, out, _) = run(&["check", &d, "--format", "json"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("\"suppressed\": 1"), "{out}");

    let on_host = MIXED_TEAM.replace(
        "[hosts.hv1.nics.A]",
        "[hosts.hv1]\nallow = { team-speed-mismatch = \"lab host\" }\n\n[hosts.hv1.nics.A]",
    );
    let d = t.write("host.toml", &on_host);
    assert_eq!(run(&["check", &d]).0, 0);

    // An allow that silences nothing is reported, as is an unknown id.
    let unused = CLEAN.replace(
        "[switches.sw]\n",
        "[switches.sw]\nallow = { team-speed-mismatch = \"no team here\", unused-alow = \"typo\" }\n",
    );
    let d = t.write("unused.toml", &unused);
    let (code, out, _) = run(&["check", &d, "--format", "json"]);
    assert_eq!(code, 1);
    assert_eq!(rules_of(&out), vec!["unused-allow", "unused-allow"]);
    assert!(out.contains("did you mean `unused-allow`?"), "{out}");
}

#[test]
fn explain_prints_the_rule_page() {
    let (code, out, _) = run(&["explain", "team-speed-mismatch"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("# team-speed-mismatch\n"));
    let (code, _, err) = run(&["explain", "team-speed-mismatc"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `team-speed-mismatch`?"), "{err}");
}

#[test]
fn rules_lists_every_rule_in_both_formats() {
    let (code, out, _) = run(&["rules", "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let ids: Vec<&str> = v["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"team-speed-mismatch") && ids.contains(&"schema"));
    let (code, out, _) = run(&["rules"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), ids.len());
}
