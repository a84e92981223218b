//! The `netlint check` step of action.yml (scripts/github-action.sh), run
//! with bash as the action runs it, without GitHub: quoted paths and
//! arguments survive splitting and are never evaluated, the `fail-on` and
//! `working-directory` inputs apply, and the exit code reaches the
//! `exit-code` output.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

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
fn action(dir: &Path, inputs: &[(&str, &str)]) -> Option<(i32, String, String, String)> {
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
    let Ok(out) = cmd.output() else {
        common::tool_missing("bash is not installed");
        return None;
    };
    Some((
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        std::fs::read_to_string(&output).unwrap_or_default(),
    ))
}

#[test]
fn quoted_paths_and_arguments_keep_their_spaces() {
    let dir = scratch("action-quoted");
    let Some((code, out, err, output)) = action(
        &dir,
        &[
            ("PATHS", "\"my designs/site a.toml\""),
            ("ARGS", "--format json -o 'json report.json'"),
            ("FORMAT", "concise"),
            ("SARIF_FILE", "report dir.sarif"),
        ],
    ) else {
        return;
    };
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
    let Some((code, _, err, output)) = action(
        &dir,
        &[
            ("PATHS", "'my designs'"),
            (
                "ARGS",
                "--baseline '$HOME/b.json' --select \"$(touch pwned)\"",
            ),
        ],
    ) else {
        return;
    };
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
    let Some((code, out, err, output)) = action(&dir, &inputs("never")) else {
        return;
    };
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(output, "exit-code=0\n");
    assert!(out.starts_with("site a.toml:"), "{out}");
    let (code, _, err, output) = action(&dir, &inputs("error")).unwrap();
    assert_eq!(code, 1, "{err}");
    assert_eq!(output, "exit-code=1\n");
}

#[test]
fn an_unmatched_quote_is_a_usage_error() {
    let dir = scratch("action-unmatched");
    let Some((code, _, err, output)) = action(&dir, &[("ARGS", "--select \"mtu-mismatch")]) else {
        return;
    };
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
