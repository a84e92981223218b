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

/// A command's page lists only options the command accepts: `-V` /
/// `--version` belong to `netlint` alone (`netlint check -V` is a usage
/// error), so no command's page shows them, while each still names the
/// release in its header.
#[test]
fn command_man_pages_list_no_version_flag_the_command_rejects() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_tools-man-version");
    let _ = std::fs::remove_dir_all(&dir);
    let (code, _, err) = run(&["man", "--dir", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&["check", "-V"]);
    assert_eq!(code, 2, "`check -V` is accepted now: {err}");
    let mut pages = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let roff = std::fs::read_to_string(&path).unwrap();
        if name == "netlint.1" {
            assert!(roff.contains("\\-\\-version"), "netlint.1 lacks --version");
            continue;
        }
        pages += 1;
        assert!(!roff.contains("\\-V"), "{name} lists -V");
        assert!(!roff.contains("\\-\\-version"), "{name} lists --version");
        assert!(
            roff.contains(env!("CARGO_PKG_VERSION")),
            "{name} lost the version in its header"
        );
    }
    assert!(pages >= 10, "{pages} command pages");
}

/// README's options table of `netlint check` lists every long option the
/// command has (clap's definition is the truth), so options added later do
/// not go missing from it.
#[test]
fn the_readme_options_table_lists_every_check_option() {
    use clap::CommandFactory;
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let table: String = readme
        .lines()
        .skip_while(|l| !l.starts_with("Options of `netlint check`"))
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| l.starts_with("| `"))
        .collect::<Vec<_>>()
        .join("\n");
    let cli = netlint::cli::Cli::command();
    let check = cli.find_subcommand("check").unwrap();
    let mut missing = Vec::new();
    for arg in check.get_arguments() {
        let Some(long) = arg.get_long() else { continue };
        if long == "help" {
            continue;
        }
        if !table.contains(&format!("`--{long}")) {
            missing.push(long.to_string());
        }
    }
    assert!(
        missing.is_empty(),
        "README's options table lacks --{missing:?}"
    );
    for value in ["markdown", "concise"] {
        assert!(table.contains(value), "README's --format lacks {value}");
    }
}
