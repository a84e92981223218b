//! `netlint check` through the command line: output formats (snapshots of
//! each, validation of SARIF and GitLab output against their schemas),
//! several `--format`/`-o` pairs in one run, the GITHUB_ACTIONS default,
//! `--select`/`--ignore`, `--exit-zero`, `--show-allowed`, `--designs-only`.
//!
//! Snapshots select one rule so that rules added later do not change them.

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

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli_check-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const MTU: &str = "fixtures/mtu-mismatch.toml";
const POWER: &str = "fixtures/power-profile.toml";

fn one_rule(format: &str) -> String {
    let (code, out, err) = run(&[
        "check",
        MTU,
        POWER,
        "--select",
        "mtu-mismatch,power-profile",
        "--format",
        format,
    ]);
    assert_eq!(code, 1, "{err}");
    out
}

#[test]
fn github_snapshot() {
    insta::assert_snapshot!(one_rule("github"));
}

#[test]
fn junit_snapshot() {
    insta::assert_snapshot!(one_rule("junit"));
}

#[test]
fn gitlab_snapshot() {
    insta::assert_snapshot!(one_rule("gitlab"));
}

#[test]
fn sarif_results_snapshot() {
    // The rule descriptors hold every rule's page: they are checked by the
    // renderer's own snapshot, not here.
    let mut log: Value = serde_json::from_str(&one_rule("sarif")).unwrap();
    let driver = &mut log["runs"][0]["tool"]["driver"];
    let rules = driver["rules"].as_array().unwrap().len();
    assert!(rules > 10, "{rules} rule descriptors");
    driver["rules"] = "[descriptors]".into();
    driver["version"] = "[version]".into();
    // Indices into the descriptors shift as rules are added.
    for r in log["runs"][0]["results"].as_array_mut().unwrap() {
        let id = r["ruleId"].as_str().unwrap().to_string();
        assert_eq!(
            rules_at(&one_rule("sarif"), r["ruleIndex"].as_u64().unwrap()),
            id
        );
        r["ruleIndex"] = "[index]".into();
    }
    insta::assert_json_snapshot!(log);
}

/// The id of the descriptor at `index` in a SARIF log.
fn rules_at(sarif: &str, index: u64) -> String {
    let log: Value = serde_json::from_str(sarif).unwrap();
    log["runs"][0]["tool"]["driver"]["rules"][index as usize]["id"]
        .as_str()
        .unwrap()
        .to_string()
}

fn validate(schema_file: &str, doc: &Value) -> Vec<String> {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new("tests/data").join(schema_file)).unwrap(),
    )
    .unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    v.iter_errors(doc)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

#[test]
fn sarif_and_gitlab_of_every_fixture_validate_against_their_schemas() {
    for (format, schema) in [
        ("sarif", "sarif-schema-2.1.0.json"),
        ("gitlab", "gitlab-codeclimate.json"),
    ] {
        let (code, out, err) = run(&["check", "fixtures", "--format", format]);
        assert_eq!(code, 2, "fixtures/invalid has input errors: {err}");
        let doc: Value = serde_json::from_str(&out).unwrap();
        // GitLab's schema describes one issue; the report is an array.
        let docs = match doc.as_array() {
            Some(issues) => issues.clone(),
            None => vec![doc],
        };
        assert!(!docs.is_empty());
        for doc in &docs {
            let errors = validate(schema, doc);
            assert!(errors.is_empty(), "{format}: {errors:#?}");
        }
    }
    // Every result is there, with a repository-relative path.
    let (_, out, _) = run(&["check", "fixtures", "--format", "sarif"]);
    let log: Value = serde_json::from_str(&out).unwrap();
    let (_, json, _) = run(&["check", "fixtures", "--format", "json"]);
    let json: Value = serde_json::from_str(&json).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), json["diagnostics"].as_array().unwrap().len());
    for r in results {
        let uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap();
        assert!(uri.starts_with("fixtures/"), "{uri}");
    }
}

#[test]
fn every_format_reports_the_same_findings() {
    let count = |format: &str| -> usize {
        let out = one_rule(format);
        match format {
            "json" => serde_json::from_str::<Value>(&out).unwrap()["diagnostics"]
                .as_array()
                .unwrap()
                .len(),
            "sarif" => serde_json::from_str::<Value>(&out).unwrap()["runs"][0]["results"]
                .as_array()
                .unwrap()
                .len(),
            "gitlab" => serde_json::from_str::<Value>(&out)
                .unwrap()
                .as_array()
                .unwrap()
                .len(),
            "github" => out.lines().count(),
            // A case per finding; only those at the fail level fail.
            "junit" => out.matches("<testcase ").count(),
            _ => unreachable!(),
        }
    };
    let n = count("json");
    assert!(n >= 3);
    for f in ["sarif", "gitlab", "github", "junit"] {
        assert_eq!(count(f), n, "{f}");
    }
}

#[test]
fn several_formats_in_one_run() {
    let dir = scratch("several");
    let sarif = dir.join("out.sarif");
    let junit = dir.join("out.xml");
    let (code, out, err) = run(&[
        "check",
        MTU,
        "--select",
        "mtu-mismatch",
        "--format",
        "sarif",
        "-o",
        sarif.to_str().unwrap(),
        "--format",
        "github",
        "--format=junit",
        "--output",
        junit.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(out.starts_with("::error "), "{out}");
    assert!(out.lines().all(|l| l.starts_with("::")));
    let log: Value = serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
    assert_eq!(log["version"], "2.1.0");
    let xml = std::fs::read_to_string(&junit).unwrap();
    roxmltree::Document::parse(&xml).unwrap();
    // Files get the same findings as stdout.
    assert_eq!(
        log["runs"][0]["results"].as_array().unwrap().len(),
        out.lines().count()
    );
}

#[test]
fn ambiguous_outputs_are_usage_errors() {
    let (code, out, err) = run(&["check", MTU, "--format", "sarif", "--format", "json"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("would all go to standard output"), "{err}");
    let (code, _, err) = run(&["check", MTU, "--format", "yaml"]);
    assert_eq!(code, 2);
    assert!(err.contains("invalid value 'yaml'"), "{err}");
}

#[test]
fn an_unwritable_output_file_is_an_error() {
    let (code, _, err) = run(&[
        "check",
        MTU,
        "--format",
        "json",
        "-o",
        "/nonexistent-dir/x.json",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("cannot write /nonexistent-dir/x.json"),
        "{err}"
    );
}

#[test]
fn a_reader_that_goes_away_ends_the_output_quietly() {
    // Far more output than a pipe buffers (the flawed synthetic design has
    // a finding per access switch), to a reader that closes at once.
    let dir = scratch("broken-pipe");
    let design = dir.join("flawed.toml");
    let text = netlint_synth::generate(&netlint_synth::Params {
        flawed: true,
        ..netlint_synth::Params::hosts(160)
    });
    std::fs::write(&design, text).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_netlint"))
        .args(["check", design.to_str().unwrap(), "--color", "never"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!stderr.contains("Broken pipe"), "{stderr}");
    // Still the verdict: the design has errors.
    assert_eq!(out.status.code(), Some(1), "{stderr}");
}

#[test]
fn github_is_the_default_in_github_actions() {
    let bin = env!("CARGO_BIN_EXE_netlint");
    let out = std::process::Command::new(bin)
        .args(["check", MTU, "--select", "mtu-mismatch"])
        .env("GITHUB_ACTIONS", "true")
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout.starts_with("::error file=fixtures/mtu-mismatch.toml,"),
        "{stdout}"
    );
    let out = std::process::Command::new(bin)
        .args(["check", MTU, "--select", "mtu-mismatch"])
        .env_remove("GITHUB_ACTIONS")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("1 file checked: 2 errors"), "{stdout}");
    // An explicit format wins.
    let out = std::process::Command::new(bin)
        .args(["check", MTU, "--format", "json"])
        .env("GITHUB_ACTIONS", "true")
        .output()
        .unwrap();
    serde_json::from_slice::<Value>(&out.stdout).unwrap();
}

fn rules_in(json: &str) -> Vec<String> {
    let doc: Value = serde_json::from_str(json).unwrap();
    let mut r: Vec<String> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap().to_string())
        .collect();
    r.sort();
    r.dedup();
    r
}

#[test]
fn select_and_ignore_by_id_and_category() {
    let (_, all, _) = run(&["check", "fixtures/example.toml", "--format", "json"]);
    let all = rules_in(&all);
    assert!(all.len() > 2, "{all:?}");
    let (_, only, _) = run(&[
        "check",
        "fixtures/example.toml",
        "--format",
        "json",
        "--select",
        "power-profile",
    ]);
    assert_eq!(rules_in(&only), ["power-profile"]);
    let (_, ignored, _) = run(&[
        "check",
        "fixtures/example.toml",
        "--format",
        "json",
        "--ignore",
        "power-profile,teaming",
    ]);
    let ignored = rules_in(&ignored);
    assert!(!ignored.contains(&"power-profile".to_string()));
    assert!(ignored.iter().all(|r| {
        netlint_rules::rule_by_id(r)
            .is_none_or(|rule| rule.meta.category != netlint_model::Category::Teaming)
    }));
    assert!(ignored.len() < all.len());
    let (_, teaming, _) = run(&[
        "check",
        "fixtures/example.toml",
        "--format",
        "json",
        "--select",
        "teaming",
    ]);
    for r in rules_in(&teaming) {
        assert_eq!(
            netlint_rules::rule_by_id(&r).unwrap().meta.category,
            netlint_model::Category::Teaming
        );
    }
}

#[test]
fn unknown_rules_and_categories_are_usage_errors_with_a_suggestion() {
    for flag in ["--select", "--ignore"] {
        let (code, out, err) = run(&["check", MTU, flag, "mtu-mismach"]);
        assert_eq!(code, 2, "{flag}");
        assert!(out.is_empty());
        assert_eq!(
            err,
            "netlint: unknown rule or category `mtu-mismach`, did you mean `mtu-mismatch`? (`netlint rules` lists both)\n"
        );
    }
    let (code, _, err) = run(&["check", MTU, "--select", "teamin"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `teaming`?"), "{err}");
    let (code, _, err) = run(&["check", MTU, "--ignore", "schema"]);
    assert_eq!(code, 2);
    assert!(err.contains("`schema` cannot be ignored"), "{err}");
}

#[test]
fn a_rule_selected_by_id_runs_even_where_the_design_turns_it_off() {
    let dir = scratch("select-off");
    let text = std::fs::read_to_string(POWER).unwrap()
        + "\n[netlint]\nrules = { power-profile = \"off\" }\n";
    let design = dir.join("d.toml");
    std::fs::write(&design, text).unwrap();
    let d = design.to_str().unwrap();
    let (_, out, _) = run(&["check", d, "--format", "json"]);
    assert!(!rules_in(&out).contains(&"power-profile".to_string()));
    let (code, out, _) = run(&["check", d, "--format", "json", "--select", "power-profile"]);
    assert_eq!(rules_in(&out), ["power-profile"]);
    assert_eq!(code, 0, "power-profile is info: below the fail level");
}

#[test]
fn exit_zero_keeps_findings_but_not_input_errors() {
    let (code, out, _) = run(&["check", MTU, "--exit-zero", "--format", "json"]);
    assert_eq!(code, 0);
    assert!(!rules_in(&out).is_empty());
    let (code, _, _) = run(&["check", "fixtures/invalid/syntax.toml", "--exit-zero"]);
    assert_eq!(code, 2);
}

fn design_with_allow(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(POWER).unwrap().replace(
        "[hosts.hv3]\n",
        "[hosts.hv3]\nallow = { power-profile = \"BIOS set by the vendor image\", jumbo-nonexistent = \"typo\" }\n",
    );
    let design = dir.join("allowed.toml");
    std::fs::write(&design, text).unwrap();
    design
}

#[test]
fn show_allowed_lists_what_is_suppressed_and_why() {
    let dir = scratch("allowed");
    let design = design_with_allow(&dir);
    let d = design.to_str().unwrap();
    let (_, out, err) = run(&[
        "check",
        d,
        "--select",
        "power-profile,unused-allow",
        "--show-allowed",
        "--format",
        "human",
        "--color",
        "never",
    ]);
    let list = out
        .split_once("suppressed by `allow`:")
        .map(|x| x.1)
        .unwrap_or_else(|| panic!("no list in {out}\n{err}"));
    assert!(out.contains("1 finding suppressed by `allow`:"), "{out}");
    assert!(
        list.contains("info[power-profile] hosts.hv3: host `hv3`"),
        "{list}"
    );
    assert!(
        list.contains("    allowed at ") && list.contains(": \"BIOS set by the vendor image\""),
        "{list}"
    );
    // The allow for a rule that does not exist is reported, with a hint.
    assert!(out.contains("unused-allow"), "{out}");
    assert!(
        out.contains("`allow` names unknown rule `jumbo-nonexistent`"),
        "{out}"
    );

    // With a machine format on stdout, the list goes to stderr.
    let (_, out, err) = run(&[
        "check",
        d,
        "--select",
        "power-profile",
        "--show-allowed",
        "--format",
        "json",
    ]);
    serde_json::from_str::<Value>(&out).unwrap();
    assert!(err.contains("1 finding suppressed by `allow`:"), "{err}");

    let (_, out, _) = run(&["check", MTU, "--show-allowed", "--format", "human"]);
    assert!(
        out.ends_with("no finding is suppressed by `allow`\n"),
        "{out}"
    );
}

#[test]
fn show_allowed_adds_suppressed_results_to_sarif() {
    let dir = scratch("allowed-sarif");
    let design = design_with_allow(&dir);
    let d = design.to_str().unwrap();
    let sarif = |extra: &[&str]| -> Value {
        let mut args = vec!["check", d, "--select", "power-profile", "--format", "sarif"];
        args.extend_from_slice(extra);
        let (_, out, _) = run(&args);
        serde_json::from_str(&out).unwrap()
    };
    let suppressed = |log: &Value| -> Vec<Value> {
        log["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r.get("suppressions").is_some())
            .cloned()
            .collect()
    };
    // Not by default: not every consumer honours `suppressions`.
    assert!(suppressed(&sarif(&[])).is_empty());
    let log = sarif(&["--show-allowed"]);
    let errors = validate("sarif-schema-2.1.0.json", &log);
    assert!(errors.is_empty(), "{errors:#?}");
    let found = suppressed(&log);
    assert_eq!(found.len(), 1, "{log:#}");
    let r = &found[0];
    assert_eq!(r["ruleId"], "power-profile");
    let s = &r["suppressions"][0];
    assert_eq!(s["kind"], "inSource");
    assert_eq!(s["justification"], "BIOS set by the vendor image");
    // The entry's own line, not the finding's.
    let text = std::fs::read_to_string(&design).unwrap();
    let line = text
        .lines()
        .position(|l| l.starts_with("allow = { power-profile"))
        .unwrap()
        + 1;
    assert_eq!(
        s["location"]["physicalLocation"]["region"]["startLine"],
        line as u64
    );
}

#[test]
fn designs_only_skips_other_toml_files() {
    let (code, _, err) = run(&["check", "Cargo.toml", MTU, "--format", "json"]);
    assert_eq!(code, 2, "Cargo.toml is not a design: {err}");
    let (code, out, _) = run(&[
        "check",
        "Cargo.toml",
        MTU,
        "--designs-only",
        "--format",
        "json",
        "--select",
        "mtu-mismatch",
    ]);
    assert_eq!(code, 1);
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["summary"]["files"], 1);
}
