//! `netlint completions SHELL` and `netlint man`.

use std::path::Path;

mod common;

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

#[test]
fn completions_for_every_shell_know_the_commands_and_options() {
    for (shell, marker) in [
        ("bash", "_netlint()"),
        ("zsh", "#compdef netlint"),
        ("fish", "complete -c netlint"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "edit:completion:arg-completer[netlint]"),
    ] {
        let (code, out, err) = run(&["completions", shell]);
        assert_eq!(code, 0, "{shell}: {err}");
        assert!(out.contains(marker), "{shell}");
        for word in ["baseline", "select", "exit-zero"] {
            assert!(out.contains(word), "{shell} completion lacks {word}");
        }
        // Format names, where the shell's completion lists values.
        if ["bash", "zsh", "fish"].contains(&shell) {
            assert!(
                out.contains("sarif"),
                "{shell} completion lacks format names"
            );
        }
    }
    let (code, _, err) = run(&["completions", "tcsh"]);
    assert_eq!(code, 2);
    assert!(err.contains("invalid value 'tcsh'"), "{err}");
}

#[test]
fn completions_for_bash_are_a_valid_script() {
    let (_, out, _) = run(&["completions", "bash"]);
    let Ok(status) = std::process::Command::new("bash")
        .args(["-n", "-c", &out])
        .status()
    else {
        common::tool_missing("bash is not installed");
        return;
    };
    assert!(status.success());
}

#[test]
fn the_man_page_lists_the_commands() {
    let (code, out, err) = run(&["man"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(".TH netlint 1"),
        "{}",
        &out[..200.min(out.len())]
    );
    for cmd in ["check", "baseline", "schema", "completions", "man"] {
        assert!(out.contains(&format!("netlint\\-{cmd}(1)")), "{cmd}");
    }
}

#[test]
fn man_dir_writes_one_page_per_command() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_tools-man");
    let _ = std::fs::remove_dir_all(&dir);
    let (code, out, err) = run(&["man", "--dir", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.lines().count(),
        std::fs::read_dir(&dir).unwrap().count()
    );
    let check = std::fs::read_to_string(dir.join("netlint-check.1")).unwrap();
    assert!(check.contains(".TH netlint-check 1"));
    for option in [
        "\\-\\-format",
        "\\-\\-baseline",
        "\\-\\-select",
        "\\-\\-show\\-allowed",
    ] {
        assert!(check.contains(option), "netlint-check.1 lacks {option}");
    }
    assert!(dir.join("netlint-baseline.1").is_file());
    assert!(!dir.join("netlint-help.1").exists());
}
