//! Conventions a ruff user expects: `--output-format` for `--format`, and
//! shell completion of a rule id after a comma (`--select a,<TAB>`).

use std::path::Path;
use std::process::Command;

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

fn example() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/example.toml")
        .to_str()
        .unwrap()
        .to_string()
}

#[test]
fn every_format_option_answers_to_output_format() {
    use clap::CommandFactory;
    let cli = netlint::cli::Cli::command();
    let mut with_format = Vec::new();
    for sub in cli.get_subcommands() {
        let Some(format) = sub.get_arguments().find(|a| a.get_long() == Some("format")) else {
            continue;
        };
        with_format.push(sub.get_name().to_string());
        let aliases = format.get_visible_aliases().unwrap_or_default();
        assert!(
            aliases.contains(&"output-format"),
            "`{} --format` lacks the alias: {aliases:?}",
            sub.get_name()
        );
        // The parser takes it (a missing design is the only complaint).
        let value = format.get_possible_values()[0].get_name().to_string();
        let parsed = netlint::cli::Cli::command().try_get_matches_from([
            "netlint",
            sub.get_name(),
            "--output-format",
            &value,
        ]);
        if let Err(e) = parsed {
            assert_eq!(
                e.kind(),
                clap::error::ErrorKind::MissingRequiredArgument,
                "{}: {e}",
                sub.get_name()
            );
        }
    }
    for name in [
        "check", "diff", "report", "rules", "simulate", "topology", "graph",
    ] {
        assert!(with_format.iter().any(|n| n == name), "{with_format:?}");
    }
}

#[test]
fn output_format_gives_the_report_format_gives() {
    let example = example();
    let (code, by_format, err) = run(&["check", "--format", "concise", &example]);
    assert_eq!(code, 1, "{err}");
    let (code, by_alias, err) = run(&["check", "--output-format", "concise", &example]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(by_alias, by_format);
    let (_, by_alias, err) = run(&["check", "--output-format=json", &example]);
    assert!(by_alias.starts_with('{'), "{err}");
    // Paired with `-o` as `--format` is.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_conventions-alias");
    std::fs::create_dir_all(&dir).unwrap();
    let sarif = dir.join("out.sarif");
    let (code, out, err) = run(&[
        "check",
        "--output-format",
        "concise",
        "--output-format",
        "sarif",
        "-o",
        sarif.to_str().unwrap(),
        &example,
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("warning[lm-drain-time]"), "{out}");
    assert!(std::fs::read_to_string(&sarif)
        .unwrap()
        .contains("\"version\": \"2.1.0\""));
    let (code, rules, err) = run(&["rules", "--output-format", "json"]);
    assert_eq!(code, 0, "{err}");
    assert!(rules.trim_start().starts_with('{'), "{rules}");
}

#[test]
fn the_list_options_come_from_the_definitions() {
    use clap::CommandFactory;
    let lists = netlint::commands::completions::lists(&netlint::cli::Cli::command()).unwrap();
    let names: Vec<String> = lists
        .iter()
        .map(|l| format!("{} --{}", l.command, l.long))
        .collect();
    for name in [
        "check --select",
        "check --ignore",
        "diff --select",
        "diff --ignore",
    ] {
        assert!(names.iter().any(|n| n == name), "{names:?}");
    }
    let select = &lists[0];
    for id in netlint_rules::all_ids() {
        assert!(
            select.values.iter().any(|(v, _)| v == id),
            "`{} --{}` lacks {id}",
            select.command,
            select.long
        );
    }
}

#[test]
fn bash_completes_a_rule_id_after_a_comma() {
    let (_, script, _) = run(&["completions", "bash"]);
    let after_comma = bash_completes(
        &script,
        &["netlint", "check", "--select", "mtu-mismatch,spof-s"],
    );
    assert_eq!(
        after_comma,
        ["mtu-mismatch,spof-stack", "mtu-mismatch,spof-switch"]
    );
    // A value already in the list is not offered again.
    let again = bash_completes(
        &script,
        &["netlint", "check", "--ignore", "spof-switch,mtu,spof-s"],
    );
    assert_eq!(again, ["spof-switch,mtu,spof-stack"]);
    // `--select=a,b`: bash splits the word at `=`.
    let joined = bash_completes(
        &script,
        &["netlint", "check", "--select", "=", "mtu-mismatch,spof-sw"],
    );
    assert_eq!(joined, ["mtu-mismatch,spof-switch"]);
    let drift = bash_completes(
        &script,
        &["netlint", "diff", "--select", "drift-mtu,drift-v"],
    );
    assert_eq!(drift, ["drift-mtu,drift-vlan", "drift-mtu,drift-vnic"]);
    // Words without a comma are clap's, as before.
    let first = bash_completes(&script, &["netlint", "check", "--select", "spof-s"]);
    assert_eq!(first, ["spof-stack", "spof-switch"]);
    let format = bash_completes(&script, &["netlint", "check", "--format", "sa"]);
    assert_eq!(format, ["sarif"]);
}

#[test]
#[ignore = "needs fish; .ci/run installs it"]
fn fish_completes_a_rule_id_after_a_comma() {
    let (_, script, _) = run(&["completions", "fish"]);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_conventions-fish");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("netlint.fish");
    std::fs::write(&file, script).unwrap();
    let complete = |line: &str| -> Vec<String> {
        let out = Command::new("fish")
            .args(["--no-config", "-c"])
            .arg(format!("source {}; complete -C '{line}'", file.display()))
            .output()
            .expect("fish runs");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| l.split('\t').next().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        complete("netlint check --select mtu-mismatch,spof-s"),
        ["mtu-mismatch,spof-stack", "mtu-mismatch,spof-switch"]
    );
    assert_eq!(
        complete("netlint check --ignore spof-switch,mtu,spof-s"),
        ["spof-switch,mtu,spof-stack"]
    );
    assert_eq!(
        complete("netlint check --select=mtu-mismatch,spof-sw"),
        ["--select=mtu-mismatch,spof-switch"]
    );
    assert_eq!(
        complete("netlint check --select spof-s"),
        ["spof-stack", "spof-switch"]
    );
}

#[test]
#[ignore = "needs zsh; .ci/run installs it"]
fn zsh_completes_a_rule_id_after_a_comma() {
    let (_, script, _) = run(&["completions", "zsh"]);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_conventions-zsh");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("_netlint"), script).unwrap();
    // An interactive zsh on a pseudo-terminal (zpty) with the script in
    // its fpath: type the words and TAB, and read what the line became.
    let typed = |words: &str| -> String {
        let harness = r#"
zmodload zsh/zpty
zpty z 'zsh -f -i'
zpty -w z "PS1='> '; fpath=($DIR \$fpath); autoload -U compinit; compinit -u -D; print ready"
out=""
for i in {1..100}; do zpty -r -t z chunk && out+=$chunk; [[ $out == *ready* ]] && break; sleep 0.1; done
zpty -w -n z "$WORDS"$'\t'
out=""
for i in {1..50}; do zpty -r -t z chunk && out+=$chunk; sleep 0.1; done
zpty -d z
print -r -- "$out"
"#;
        let out = Command::new("zsh")
            .args(["-f", "-c", harness])
            .env("DIR", &dir)
            .env("WORDS", words)
            .output()
            .expect("zsh runs");
        assert!(out.status.success(), "{out:?}");
        strip_ansi(&String::from_utf8_lossy(&out.stdout))
    };
    let screen = typed("netlint check --select mtu-mismatch,spof-sw");
    assert!(
        screen.contains("netlint check --select mtu-mismatch,spof-switch,"),
        "{screen}"
    );
    let screen = typed("netlint diff --ignore drift-mtu,drift-vl");
    assert!(
        screen.contains("netlint diff --ignore drift-mtu,drift-vlan,"),
        "{screen}"
    );
    // Before a comma the value list is offered as before.
    let screen = typed("netlint check --select spof-sw");
    assert!(
        screen.contains("netlint check --select spof-switch"),
        "{screen}"
    );
}

/// The text of a terminal's output without its escape sequences
/// (`ESC [ ... letter`), as a reader sees it.
fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            chars.next();
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}
