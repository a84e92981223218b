//! The README's Usage section runs as written: every command line of it
//! that names a file of `fixtures/` (the example design and the as-built
//! example in `fixtures/as-built/`) is run with this build's binary and
//! exits 0 (nothing to report) or 1 (findings), never 2 (an input or usage
//! error). A design written by `-o` loads.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The command lines (`netlint ...`, trailing comment removed) of the
/// `sh` blocks of the README's `## Usage` section.
fn usage_lines(readme: &str) -> Vec<String> {
    let start = readme.find("\n## Usage\n").expect("README has ## Usage");
    let section = &readme[start + 1..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
    let mut lines = Vec::new();
    let mut in_sh = false;
    for line in section.lines() {
        let t = line.trim();
        if t.starts_with("```") {
            in_sh = !in_sh && t == "```sh";
            continue;
        }
        if in_sh && t.starts_with("netlint ") {
            let command = t.split(" #").next().unwrap().trim_end();
            lines.push(command.to_string());
        }
    }
    lines
}

/// `fixtures/...` made absolute (the commands run in a scratch folder, so
/// that `-o` writes there).
fn argument(word: &str) -> String {
    if word.starts_with("fixtures/") {
        let p = root().join(word);
        assert!(
            p.exists(),
            "the README names {word}, which is not in the repository"
        );
        p.to_string_lossy().into_owned()
    } else {
        word.to_string()
    }
}

#[test]
fn every_usage_line_naming_a_fixture_runs() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines: Vec<String> = usage_lines(&readme)
        .into_iter()
        .filter(|l| l.contains("fixtures/"))
        .collect();
    for command in ["netlint import ", "netlint check ", "netlint diff "] {
        assert!(
            lines.iter().any(|l| l.starts_with(command)),
            "no `{command}...` line on a fixture in the README's Usage: {lines:#?}"
        );
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("readme-usage");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut written: Vec<PathBuf> = Vec::new();
    for line in &lines {
        assert!(
            !line.contains(['"', '\'', '$', '|', '>', '<', '*']),
            "{line}: this test splits at spaces only"
        );
        let words: Vec<&str> = line.split_whitespace().collect();
        let args: Vec<String> = words[1..].iter().map(|w| argument(w)).collect();
        let out = Command::new(env!("CARGO_BIN_EXE_netlint"))
            .args(&args)
            .current_dir(&dir)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let code = out.status.code();
        assert!(
            matches!(code, Some(0 | 1)),
            "`{line}` exited {code:?}:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        if let Some(i) = words.iter().position(|w| *w == "-o") {
            written.push(dir.join(words[i + 1]));
        }
    }
    assert!(
        !written.is_empty(),
        "the import line writes a design with -o"
    );
    for design in written {
        let out = Command::new(env!("CARGO_BIN_EXE_netlint"))
            .arg("check")
            .arg(&design)
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{} does not check cleanly:\n{}{}",
            design.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// The parser takes the `sh` blocks of the Usage section only, and a
/// command without its trailing comment.
#[test]
fn the_usage_parser_reads_commands_and_drops_comments() {
    let readme = "intro\n## Usage\n\n```sh\nnetlint check a.toml   # a comment\n```\n\ntext\n\n```toml\nnetlint = 1\n```\n```sh\n# only a comment\nnetlint diff fixtures/x.toml b.cfg\n```\n## Exit codes\n```sh\nnetlint rules\n```\n";
    assert_eq!(
        usage_lines(readme),
        ["netlint check a.toml", "netlint diff fixtures/x.toml b.cfg"]
    );
}
