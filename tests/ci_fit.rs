//! What a CI user of netlint relies on, through the real binary: JUnit
//! failures that agree with the exit code and names that survive moved
//! lines, GitHub's annotation limits and step summary, the size limit of a
//! Markdown pull-request comment, and the conventions of other linters
//! (`--format concise`, `--quiet`, `--statistics`, rule links, forced
//! colour).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs the netlint binary with a clean CI environment plus `env`.
fn netlint(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_netlint"));
    cmd.args(args);
    for var in [
        "GITHUB_ACTIONS",
        "GITHUB_STEP_SUMMARY",
        "NO_COLOR",
        "FORCE_COLOR",
        "CLICOLOR_FORCE",
        "CLICOLOR",
    ] {
        cmd.env_remove(var);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("ci_fit-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Each finding's severity, `input` for input errors (which always fail).
fn severities(json: &str) -> Vec<String> {
    let v: Value = serde_json::from_str(json).unwrap();
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| match d["rule"].as_str().unwrap() {
            "syntax" | "schema" | "unreadable" => "input".to_owned(),
            _ => d["severity"].as_str().unwrap().to_owned(),
        })
        .collect()
}

/// The shape the JUnit schema Jenkins and GitLab read allows: `testsuites`
/// of `testsuite`s of `testcase`s, each case with at most one `failure` and
/// otherwise only `system-out`, the counts adding up.
fn check_junit_shape(xml: &str) -> roxmltree::Document<'_> {
    let doc = roxmltree::Document::parse(xml).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let (mut tests, mut failures) = (0, 0);
    for suite in root.children().filter(|n| n.is_element()) {
        assert_eq!(suite.tag_name().name(), "testsuite");
        assert!(suite.attribute("name").is_some());
        let (mut t, mut f) = (0, 0);
        for case in suite.children().filter(|n| n.is_element()) {
            assert_eq!(case.tag_name().name(), "testcase");
            assert!(case.attribute("name").is_some() && case.attribute("classname").is_some());
            t += 1;
            let kids: Vec<_> = case.children().filter(|n| n.is_element()).collect();
            assert!(kids.len() <= 1, "{kids:?}");
            for k in kids {
                match k.tag_name().name() {
                    "failure" => f += 1,
                    "system-out" => {}
                    other => panic!("unexpected <{other}> in a testcase"),
                }
            }
        }
        assert_eq!(suite.attribute("tests"), Some(t.to_string().as_str()));
        assert_eq!(suite.attribute("failures"), Some(f.to_string().as_str()));
        tests += t;
        failures += f;
    }
    assert_eq!(root.attribute("tests"), Some(tests.to_string().as_str()));
    assert_eq!(
        root.attribute("failures"),
        Some(failures.to_string().as_str())
    );
    doc
}

fn failures(doc: &roxmltree::Document) -> usize {
    doc.descendants()
        .filter(|n| n.has_tag_name("failure"))
        .count()
}

#[test]
fn junit_failures_follow_the_fail_level_and_agree_with_the_exit_code() {
    let (_, json, _) = netlint(&["check", "fixtures/", "--format", "json"], &[]);
    let sev = severities(&json);
    let count = |s: &[&str]| sev.iter().filter(|x| s.contains(&x.as_str())).count();
    assert!(count(&["error"]) > 0 && count(&["warning"]) > 0 && count(&["info"]) > 0);

    let input = count(&["input"]);
    for (fail_on, failing) in [
        ("error", input + count(&["error"])),
        ("warning", input + count(&["error", "warning"])),
        ("info", sev.len()),
        ("never", input),
    ] {
        let (code, xml, err) = netlint(
            &[
                "check",
                "fixtures/",
                "--format",
                "junit",
                "--fail-on",
                fail_on,
            ],
            &[],
        );
        let doc = check_junit_shape(&xml);
        assert_eq!(failures(&doc), failing, "--fail-on {fail_on}");
        let code_wanted = if input > 0 { 2 } else { i32::from(failing > 0) };
        assert_eq!(code, code_wanted, "{err}");
        // Every finding is still a case.
        let cases = doc
            .descendants()
            .filter(|n| n.has_tag_name("testcase") && n.attribute("name") != Some("netlint check"))
            .count();
        assert_eq!(cases, sev.len());
    }
    // A design without input errors: `never` fails nothing, exit 0;
    // `error` fails its errors, exit 1.
    for (fail_on, fails, code_wanted) in [("never", false, 0), ("error", true, 1)] {
        let (code, xml, _) = netlint(
            &[
                "check",
                "fixtures/mtu-mismatch.toml",
                "--format",
                "junit",
                "--fail-on",
                fail_on,
            ],
            &[],
        );
        assert_eq!(failures(&check_junit_shape(&xml)) > 0, fails, "{fail_on}");
        assert_eq!(code, code_wanted, "{fail_on}");
    }
}

#[test]
fn junit_test_names_survive_moved_lines() {
    let dir = scratch("junit-names");
    let text = std::fs::read_to_string("fixtures/mtu-mismatch.toml").unwrap();
    let names = |text: &str| -> Vec<String> {
        let p = dir.join("d.toml");
        std::fs::write(&p, text).unwrap();
        let (_, xml, _) = netlint(&["check", p.to_str().unwrap(), "--format", "junit"], &[]);
        let doc = roxmltree::Document::parse(&xml).unwrap();
        doc.descendants()
            .filter(|n| n.has_tag_name("testcase"))
            .map(|n| n.attribute("name").unwrap().to_owned())
            .collect()
    };
    let before = names(&text);
    assert!(before.len() >= 2, "{before:?}");
    let after = names(&format!("# a comment\n\n# moves every line down\n{text}"));
    assert_eq!(before, after);
    // No position in a name, and each name once per file.
    for n in &before {
        assert!(!n.contains(".toml:"), "{n}");
    }
    let mut unique = before.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), before.len(), "{before:?}");
}

#[test]
fn github_says_how_many_annotations_it_drops_and_fills_the_step_summary() {
    let dir = scratch("github");
    let summary = dir.join("step_summary.md");
    std::fs::write(&summary, "## an earlier step\n").unwrap();
    let s = summary.to_str().unwrap();
    let (code, out, err) = netlint(
        &["check", "fixtures/"],
        &[("GITHUB_ACTIONS", "true"), ("GITHUB_STEP_SUMMARY", s)],
    );
    assert_eq!(code, 2, "{err}");
    let n = |kind: &str| out.lines().filter(|l| l.starts_with(kind)).count();
    let (errors, warnings, notices) = (n("::error "), n("::warning "), n("::notice "));
    assert!(errors > 10 && warnings > 10 && notices > 10);
    let note = format!(
        "netlint: GitHub shows at most 10 annotations of each severity per step: {} of {errors} errors, {} of {warnings} warnings, {} of {notices} notices will not be shown on the pull request",
        errors - 10,
        warnings - 10,
        notices - 10
    );
    assert!(err.contains(&note), "{err}");
    // Annotations only on stdout; the note is not one.
    assert!(out.lines().all(|l| l.starts_with("::")));

    // Appended after what earlier steps wrote: the Markdown report.
    let text = std::fs::read_to_string(&summary).unwrap();
    let (_, markdown, _) = netlint(&["check", "fixtures/", "--format", "markdown"], &[]);
    assert_eq!(text, format!("## an earlier step\n{markdown}"));

    // A second run appends again.
    netlint(
        &["check", "fixtures/mtu-mismatch.toml", "--format", "github"],
        &[("GITHUB_STEP_SUMMARY", s)],
    );
    let again = std::fs::read_to_string(&summary).unwrap();
    assert!(again.starts_with(&text) && again.len() > text.len());

    // Other formats leave the summary alone; few findings need no note.
    let (_, _, err) = netlint(
        &["check", "fixtures/mtu-mismatch.toml", "--format", "json"],
        &[("GITHUB_STEP_SUMMARY", s)],
    );
    assert_eq!(std::fs::read_to_string(&summary).unwrap(), again);
    assert!(!err.contains("annotations"), "{err}");
    let (_, _, err) = netlint(
        &["check", "fixtures/mtu-mismatch.toml", "--format", "github"],
        &[],
    );
    assert!(!err.contains("annotations"), "{err}");
}

#[test]
fn a_step_summary_that_cannot_be_written_is_a_warning_not_a_verdict() {
    let dir = scratch("github-bad-summary");
    let (code, out, err) = netlint(
        &["check", "fixtures/mtu-mismatch.toml", "--format", "github"],
        &[("GITHUB_STEP_SUMMARY", dir.to_str().unwrap())],
    );
    assert_eq!(code, 1, "{err}");
    assert!(out.lines().any(|l| l.starts_with("::error ")), "{out}");
    assert!(
        err.contains("netlint: warning: cannot write the step summary"),
        "{err}"
    );
}

#[test]
fn the_markdown_report_of_every_fixture_fits_a_pull_request_comment() {
    let (_, text, err) = netlint(&["check", "fixtures/", "--format", "markdown"], &[]);
    let n = netlint::render::markdown::chars(&text);
    assert!(n <= 65_536, "{n} characters; {err}");
    assert!(text.contains(" left out to keep this report within a pull-request comment (100 rows, 65536 characters): the full report is the output of `netlint check`"), "{text}");
    // Trimmed at a line: the footer is whole.
    assert!(text.ends_with("on the element.</sub>\n"));
    // GitHub counts UTF-16 code units, at least as many as characters.
    assert!(text.chars().count() <= n);
}

#[test]
fn a_single_huge_file_is_trimmed_to_the_limit_with_a_note() {
    use netlint::run::{FileReport, Report};
    use netlint_model::{Diagnostic, Element, FailOn, Severity, SourceFile, Span};
    let long = "a message with the numbers the user wrote 🔴 ".repeat(40);
    let file = SourceFile::new("big.toml", "x = 1\n".repeat(90));
    let diagnostics: Vec<Diagnostic> = (0..90)
        .map(|i| {
            Diagnostic::new(
                "mtu-mismatch",
                Severity::Error,
                Element::host(format!("hv{i}")),
                format!("{i}: {long}"),
            )
            .at(Span::new(i * 6, i * 6 + 1), "here")
        })
        .collect();
    let report = Report {
        sources: Vec::new(),
        files: vec![FileReport {
            file,
            diagnostics,
            design: None,
            fail_on: FailOn::Warning,
        }],
        rules: vec![],
    };
    let text = netlint::render::markdown::render(&report, &|p| p.to_string());
    let n = netlint::render::markdown::chars(&text);
    assert!(n <= 65_536, "{n}");
    assert!(n > 60_000, "the table is filled up to the limit: {n}");
    let rows = text.lines().filter(|l| l.starts_with("| 🔴")).count();
    assert!(rows > 10 && rows < 90, "{rows}");
    assert!(
        text.contains(&format!("… and {} more findings left out", 90 - rows)),
        "{text}"
    );
    // The rows kept are the first ones.
    assert!(text.contains("| 0: a message"));
}

fn diagnostics(json: &str) -> Vec<Value> {
    let v: Value = serde_json::from_str(json).unwrap();
    v["diagnostics"].as_array().unwrap().clone()
}

#[test]
fn concise_is_one_line_per_finding_in_the_json_order() {
    let (code, out, _) = netlint(&["check", "fixtures/", "--format", "concise"], &[]);
    let (json_code, json, _) = netlint(&["check", "fixtures/", "--format", "json"], &[]);
    assert_eq!(code, json_code);
    let diags = diagnostics(&json);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), diags.len() + 1, "{out}");
    for (line, d) in lines.iter().zip(&diags) {
        let l = &d["location"];
        let want = format!(
            "{}:{}:{}: {}[{}]{} {}",
            l["file"].as_str().unwrap(),
            l["line"],
            l["column"],
            d["severity"].as_str().unwrap(),
            d["rule"].as_str().unwrap(),
            // `[*]` marks a finding `--fix` mends.
            if d["fix"]["safety"] == "safe" {
                " [*]"
            } else {
                ""
            },
            d["message"].as_str().unwrap().replace(['\n', '\r'], " ")
        );
        assert_eq!(*line, want);
    }
    assert!(lines.last().unwrap().contains(" files checked: "), "{out}");
    // --quiet: the findings only.
    let (_, quiet, _) = netlint(&["check", "fixtures/", "--format", "concise", "-q"], &[]);
    assert_eq!(quiet, lines[..diags.len()].join("\n") + "\n");
}

#[test]
fn quiet_leaves_only_the_findings() {
    let (code, out, err) = netlint(&["check", "tests/data/clean.toml", "--quiet"], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "");
    let (_, loud, _) = netlint(&["check", "fixtures/mtu-mismatch.toml"], &[]);
    let (_, quiet, _) = netlint(&["check", "fixtures/mtu-mismatch.toml", "-q"], &[]);
    assert!(
        loud.ends_with(
            "1 file checked: 2 errors, 1 warning, 0 info; 1 fixable with --fix --unsafe-fixes\n"
        ),
        "{loud}"
    );
    assert_eq!(
        quiet,
        loud.trim_end_matches(
            "1 file checked: 2 errors, 1 warning, 0 info; 1 fixable with --fix --unsafe-fixes\n"
        )
    );
}

#[test]
fn statistics_count_the_findings_of_each_rule() {
    let (_, json, _) = netlint(&["check", "fixtures/", "--format", "json"], &[]);
    let mut want = std::collections::BTreeMap::<String, usize>::new();
    for d in diagnostics(&json) {
        *want
            .entry(d["rule"].as_str().unwrap().to_owned())
            .or_default() += 1;
    }
    // With a machine format on stdout, the table goes to stderr.
    let (_, out, err) = netlint(
        &["check", "fixtures/", "--format", "json", "--statistics"],
        &[],
    );
    assert_eq!(out, json);
    let total: usize = want.values().sum();
    let mut lines = err.lines();
    assert_eq!(
        lines.next(),
        Some(format!("{total} findings by rule:").as_str())
    );
    let mut got = std::collections::BTreeMap::new();
    let mut last = usize::MAX;
    for l in lines {
        let mut words = l.split_whitespace();
        let n: usize = words.next().unwrap().parse().unwrap();
        assert!(n <= last, "most first: {err}");
        last = n;
        got.insert(words.next().unwrap().to_owned(), n);
    }
    assert_eq!(got, want);
    // With human output, after the report on stdout.
    let (_, out, _) = netlint(
        &["check", "fixtures/mtu-mismatch.toml", "--statistics", "-q"],
        &[],
    );
    assert!(
        out.ends_with(
            "3 findings by rule:\n  2  mtu-mismatch (error)\n  1  team-hyperv-port-cap (warning)\n"
        ),
        "{out}"
    );
}

#[test]
fn findings_link_to_their_rule_page() {
    let base = "https://github.com/netlint/netlint/blob/main/";
    let (_, json, _) = netlint(&["check", "fixtures/", "--format", "json"], &[]);
    for d in diagnostics(&json) {
        let url = d["url"].as_str().unwrap();
        let page = url.strip_prefix(base).unwrap();
        assert_eq!(
            page,
            format!(
                "crates/netlint-rules/rules/{}.md",
                d["rule"].as_str().unwrap()
            )
        );
        // The page is in the repository.
        assert!(Path::new(page).is_file(), "{page}");
    }
    let (_, human, _) = netlint(&["check", "fixtures/mtu-mismatch.toml"], &[]);
    assert!(
        human.contains(&format!(
            "mtu-mismatch ({base}crates/netlint-rules/rules/mtu-mismatch.md)\n"
        )),
        "{human}"
    );
}

#[test]
fn force_color_and_clicolor_force_colour_a_pipe_and_no_color_wins() {
    let design = "fixtures/mtu-mismatch.toml";
    let coloured = |env: &[(&str, &str)], extra: &[&str]| {
        let mut args = vec!["check", design];
        args.extend_from_slice(extra);
        netlint(&args, env).1.contains("\u{1b}[")
    };
    assert!(!coloured(&[], &[]));
    assert!(coloured(&[("FORCE_COLOR", "1")], &[]));
    assert!(coloured(&[("FORCE_COLOR", "3")], &[]));
    assert!(coloured(&[("CLICOLOR_FORCE", "1")], &[]));
    assert!(!coloured(&[("FORCE_COLOR", "0")], &[]));
    assert!(!coloured(&[("FORCE_COLOR", "")], &[]));
    assert!(!coloured(&[("CLICOLOR_FORCE", "0")], &[]));
    assert!(!coloured(&[("FORCE_COLOR", "1"), ("NO_COLOR", "1")], &[]));
    assert!(!coloured(&[("FORCE_COLOR", "1")], &["--color", "never"]));
    assert!(coloured(&[("NO_COLOR", "1")], &["--color", "always"]));
}

fn output_validator() -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(&netlint::commands::output_schema::current()).unwrap();
    assert!(jsonschema::draft7::meta::is_valid(&schema));
    jsonschema::draft7::new(&schema).expect("the schema compiles")
}

fn output_errors(v: &jsonschema::Validator, doc: &Value) -> Vec<String> {
    v.iter_errors(doc)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

#[test]
fn the_committed_output_schema_is_the_generated_one_and_the_cli_prints_it() {
    use netlint::commands::output_schema::{current, COMMITTED_FILE};
    let committed = std::fs::read_to_string(COMMITTED_FILE).unwrap();
    assert!(
        committed == current(),
        "{COMMITTED_FILE} is out of date: regenerate it with `cargo run -- schema --output > {COMMITTED_FILE}` and commit it"
    );
    let (code, out, err) = netlint(&["schema", "--output"], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, committed);
    // Without --output: still the design schema.
    let (_, design, _) = netlint(&["schema"], &[]);
    assert_eq!(
        design,
        std::fs::read_to_string("netlint.schema.json").unwrap()
    );
}

#[test]
fn json_reports_validate_against_the_output_schema() {
    let v = output_validator();
    let dir = scratch("output-schema");
    let missing = dir.join("missing.toml");
    let (_, out, _) = netlint(
        &[
            "check",
            "fixtures/",
            "tests/data/",
            missing.to_str().unwrap(),
            "--format",
            "json",
        ],
        &[],
    );
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(output_errors(&v, &doc), Vec::<String>::new());
    // Every severity, input errors and related places are in it.
    let diags = doc["diagnostics"].as_array().unwrap();
    for sev in ["error", "warning", "info"] {
        assert!(diags.iter().any(|d| d["severity"] == sev));
    }
    assert!(diags.iter().any(|d| d["rule"] == "unreadable"));
    assert!(diags
        .iter()
        .any(|d| !d["related"].as_array().unwrap().is_empty()));
    let (_, clean, _) = netlint(&["check", "tests/data/clean.toml", "--format", "json"], &[]);
    let clean: Value = serde_json::from_str(&clean).unwrap();
    assert_eq!(output_errors(&v, &clean), Vec::<String>::new());

    // The schema is not vacuous: a drifted report fails.
    let mut bad = doc.clone();
    bad["diagnostics"][0]["extra"] = Value::from(1);
    assert!(!output_errors(&v, &bad).is_empty());
    let mut bad = doc.clone();
    bad["diagnostics"][0]["severity"] = Value::from("fatal");
    assert!(!output_errors(&v, &bad).is_empty());
    let mut bad = doc.clone();
    bad["diagnostics"][0]["rule"] = Value::from("no-such-rule");
    assert!(!output_errors(&v, &bad).is_empty());
    let mut bad = doc;
    bad["summary"].as_object_mut().unwrap().remove("files");
    assert!(!output_errors(&v, &bad).is_empty());
}
