//! The `netlint check` step of action.yml (scripts/github-action.sh), run
//! with bash as the action runs it, without GitHub: quoted paths and
//! arguments survive splitting and are never evaluated, the `fail-on` and
//! `working-directory` inputs apply, and the exit code reaches the
//! `exit-code` output.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("my designs")).unwrap();
    std::fs::copy(
        root().join("fixtures/example.toml"),
        dir.join("my designs/site a.toml"),
    )
    .unwrap();
    dir
}

/// Runs the script with these inputs (name, value); returns the exit code,
/// stdout, stderr and what it wrote to `$GITHUB_OUTPUT`.
fn action(dir: &Path, inputs: &[(&str, &str)]) -> (i32, String, String, String) {
    let output = dir.join("github-output");
    let _ = std::fs::remove_file(&output);
    let mut cmd = Command::new("bash");
    cmd.arg(root().join("scripts/github-action.sh"))
        .current_dir(dir)
        .env("NETLINT_BIN", env!("CARGO_BIN_EXE_netlint"))
        .env("GITHUB_OUTPUT", &output)
        .env("HOME", "/nonexistent-home");
    for var in ["GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY", "NO_COLOR"] {
        cmd.env_remove(var);
    }
    for (k, v) in inputs {
        cmd.env(format!("INPUT_{k}"), v);
    }
    let out = cmd
        .output()
        .expect("bash runs (the action's step is a bash script)");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        std::fs::read_to_string(&output).unwrap_or_default(),
    )
}

#[test]
fn quoted_paths_and_arguments_keep_their_spaces() {
    let dir = scratch("action-quoted");
    let (code, out, err, output) = action(
        &dir,
        &[
            ("PATHS", "\"my designs/site a.toml\""),
            ("ARGS", "--format json -o 'json report.json'"),
            ("FORMAT", "concise"),
            ("SARIF_FILE", "report dir.sarif"),
        ],
    );
    // The example has warnings: the default fail level fails the run.
    assert_eq!(code, 1, "{err}");
    assert_eq!(output, "exit-code=1\n");
    assert!(out.contains("my designs/site a.toml:"), "{out}");
    let json = std::fs::read_to_string(dir.join("json report.json")).unwrap();
    assert!(json.contains("site a.toml"), "{json}");
    assert!(dir.join("report dir.sarif").is_file());
}

#[test]
fn inputs_are_split_but_never_evaluated() {
    let dir = scratch("action-literal");
    let (code, _, err, output) = action(
        &dir,
        &[
            ("PATHS", "'my designs'"),
            (
                "ARGS",
                "--baseline '$HOME/b.json' --select \"$(touch pwned)\"",
            ),
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert_eq!(output, "exit-code=2\n");
    assert!(err.contains("$HOME/b.json"), "{err}");
    assert!(!dir.join("pwned").exists(), "a command substitution ran");
}

#[test]
fn fail_on_and_working_directory_apply() {
    let dir = scratch("action-fail-on");
    let sub = dir.join("my designs");
    let inputs = |fail_on: &'static str| {
        [
            ("PATHS", "site\\ a.toml"),
            ("FAIL_ON", fail_on),
            ("WORKING_DIRECTORY", sub.to_str().unwrap()),
            ("FORMAT", "concise"),
        ]
    };
    // The example has errors and warnings, no finding above `error`: with
    // `never` it passes, with `error` it fails.
    let (code, out, err, output) = action(&dir, &inputs("never"));
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(output, "exit-code=0\n");
    assert!(out.starts_with("site a.toml:"), "{out}");
    let (code, _, err, output) = action(&dir, &inputs("error"));
    assert_eq!(code, 1, "{err}");
    assert_eq!(output, "exit-code=1\n");
}

#[test]
fn an_unmatched_quote_is_a_usage_error() {
    let dir = scratch("action-unmatched");
    let (code, _, err, output) = action(&dir, &[("ARGS", "--select \"mtu-mismatch")]);
    assert_eq!(code, 2);
    assert_eq!(output, "exit-code=2\n");
    assert!(err.contains("cannot split the input `args`"), "{err}");
}

/// action.yml runs the script and passes it every input.
#[test]
fn action_yml_passes_every_input_to_the_script() {
    let yml = std::fs::read_to_string(root().join("action.yml")).unwrap();
    assert!(yml.contains("scripts/github-action.sh"));
    for input in [
        "paths",
        "args",
        "format",
        "sarif-file",
        "fail-on",
        "working-directory",
    ] {
        assert!(yml.contains(&format!("\n  {input}:\n")), "no input {input}");
        let var = format!("INPUT_{}", input.to_uppercase().replace('-', "_"));
        assert!(
            yml.contains(&format!("{var}: ${{{{ inputs.{input} }}}}")),
            "{var} not passed"
        );
    }
    assert!(yml.contains("\n  version:\n"), "no input version");
}

/// Every `run:` script of action.yml, as GitHub passes it to the step's
/// shell: (step name, script).
fn action_scripts() -> Vec<(String, String)> {
    use yaml_rust2::{Yaml, YamlLoader};
    let text = std::fs::read_to_string(root().join("action.yml")).unwrap();
    let docs = YamlLoader::load_from_str(&text).expect("action.yml is YAML");
    let steps = docs[0]["runs"]["steps"]
        .as_vec()
        .expect("action.yml has runs.steps");
    let mut scripts = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        if let Yaml::String(run) = &step["run"] {
            assert_eq!(
                step["shell"].as_str(),
                Some("bash"),
                "step {i} runs a script: a composite step names its shell, and this test reads it as bash"
            );
            let name = step["name"].as_str().unwrap_or("(unnamed)").to_string();
            scripts.push((name, run.clone()));
        }
    }
    scripts
}

#[test]
fn every_run_block_of_the_action_parses_with_bash() {
    let scripts = action_scripts();
    // Which netlint, Install netlint, netlint check.
    assert!(scripts.len() >= 3, "{scripts:?}");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("action-run-blocks");
    std::fs::create_dir_all(&dir).unwrap();
    for (i, (name, script)) in scripts.iter().enumerate() {
        // GitHub replaces `${{ ... }}` before bash sees the script; a
        // placeholder word keeps the shape of the line.
        let script = replace_expressions(script);
        let file = dir.join(format!("step-{i}.sh"));
        std::fs::write(&file, &script).unwrap();
        let out = Command::new("bash")
            .arg("-n")
            .arg(&file)
            .output()
            .expect("bash runs");
        assert!(
            out.status.success(),
            "step {name:?} of action.yml does not parse with bash -n:\n{}\n{script}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// The bash -n check above would have caught the apostrophe inside
/// `${VAR:-...}` that stopped every run of the action with bash 5.2.
#[test]
fn bash_n_rejects_an_apostrophe_inside_a_parameter_default() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("action-run-blocks");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("apostrophe.sh");
    std::fs::write(&file, "echo \"netlint ${V:-from the action's source}\"\n").unwrap();
    let out = Command::new("bash").arg("-n").arg(&file).output().unwrap();
    assert!(!out.status.success());
}

/// `${{ expr }}` as GitHub would leave it: one word.
fn replace_expressions(script: &str) -> String {
    let mut out = String::new();
    let mut rest = script;
    while let Some(start) = rest.find("${{") {
        out.push_str(&rest[..start]);
        let end = rest[start..]
            .find("}}")
            .map(|e| start + e + 2)
            .expect("an expression is closed");
        out.push_str("EXPR");
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// shellcheck on every `run:` script, as a reviewer of the action would
/// run it. Needs shellcheck, which .ci/run installs (Debian's package).
#[test]
#[ignore = "needs shellcheck; .ci/run installs it and runs the ignored tests"]
fn every_run_block_of_the_action_passes_shellcheck() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("action-shellcheck");
    std::fs::create_dir_all(&dir).unwrap();
    for (i, (name, script)) in action_scripts().iter().enumerate() {
        let file = dir.join(format!("step-{i}.sh"));
        std::fs::write(&file, replace_expressions(script)).unwrap();
        let out = Command::new("shellcheck")
            .args(["--shell=bash", "--severity=warning"])
            .arg(&file)
            .output()
            .expect("shellcheck is installed (apt-get install shellcheck)");
        assert!(
            out.status.success(),
            "shellcheck on step {name:?} of action.yml:\n{}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    let script = root().join("scripts/github-action.sh");
    let out = Command::new("shellcheck")
        .args(["--shell=bash", "--severity=warning"])
        .arg(&script)
        .output()
        .expect("shellcheck is installed");
    assert!(
        out.status.success(),
        "shellcheck on scripts/github-action.sh:\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
