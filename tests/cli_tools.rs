//! `netlint completions SHELL` and `netlint man`.

use std::path::Path;

mod support;
use support::bash_completes;

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
fn completions_offer_rule_ids_and_categories() {
    let ids = netlint_rules::all_ids();
    assert!(ids.contains(&"spof-switch"), "{ids:?}");
    for shell in ["bash", "zsh", "fish"] {
        let (code, out, err) = run(&["completions", shell]);
        assert_eq!(code, 0, "{shell}: {err}");
        for id in &ids {
            assert!(out.contains(id), "{shell} completion lacks rule `{id}`");
        }
        for category in netlint_model::Category::ALL {
            let name = category.as_str();
            assert!(
                out.contains(name),
                "{shell} completion lacks category `{name}`"
            );
        }
    }
    // zsh and fish show each rule's summary beside its id.
    let summary = netlint_rules::rule_by_id("spof-switch")
        .unwrap()
        .meta
        .summary;
    let (_, zsh, _) = run(&["completions", "zsh"]);
    assert!(zsh.contains("spof-switch\\:\""), "zsh: no description");
    let (_, fish, _) = run(&["completions", "fish"]);
    assert!(fish.contains(&format!("spof-switch\\t'{summary}'")), "fish");
}

#[test]
fn bash_completes_rule_ids_for_select_ignore_and_explain() {
    let (_, script, _) = run(&["completions", "bash"]);
    let select = bash_completes(&script, &["netlint", "check", "--select", "spof-s"]);
    assert_eq!(select, ["spof-stack", "spof-switch"]);
    let ignore = bash_completes(&script, &["netlint", "check", "--ignore", "tea"]);
    assert!(ignore.contains(&"teaming".to_string()), "{ignore:?}");
    assert!(ignore.contains(&"team-rdma".to_string()), "{ignore:?}");
    let explain = bash_completes(&script, &["netlint", "explain", "mtu-m"]);
    assert_eq!(explain, ["mtu-mismatch"]);
}

#[test]
fn selectors_outside_the_completion_list_still_reach_netlint() {
    // The completion values are not a closed list for clap: netlint itself
    // checks a selector and names the nearest one.
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/example.toml");
    let fixture = fixture.to_str().unwrap();
    let (code, _, err) = run(&["check", "--select", "mtu,spof-swich", fixture]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `spof-switch`?"), "{err}");
    assert!(!err.contains("invalid value"), "{err}");
    let (code, _, err) = run(&[
        "check",
        "--select",
        "mtu,teaming",
        "--ignore=mtu-mismatch",
        fixture,
    ]);
    assert!(code < 2, "{err}");
    let (code, _, err) = run(&["explain", "spof-swich"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `spof-switch`?"), "{err}");
    // `--help` stays readable: the ids are not listed there.
    let (_, help, _) = run(&["check", "--help"]);
    assert!(help.contains("--select <RULE|CATEGORY>"), "{help}");
    assert!(
        !help.contains("vsphere-multi-nic-vmotion-flooding"),
        "{help}"
    );
}

#[test]
fn completions_for_bash_are_a_valid_script() {
    let (_, out, _) = run(&["completions", "bash"]);
    let status = std::process::Command::new("bash")
        .args(["-n", "-c", &out])
        .status()
        .expect("bash runs");
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
        // The option as clap_mangen writes it (`\fB\-V\fR`), not any
        // `\-V` (a page may name Hyper\-V).
        assert!(!roff.contains("\\fB\\-V\\fR"), "{name} lists -V");
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
