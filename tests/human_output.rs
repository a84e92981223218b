//! The human output of `fixtures/example.toml` as a user sees it at 120
//! columns: short (each label's line with the line above it, the lines
//! between distant labels left out), yet every finding whole.

use std::path::Path;
use std::process::Command;

fn netlint(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_netlint"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("COLUMNS", "120")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .output()
        .expect("netlint runs");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// Words only: the message's and help's wrapping, indents and bars gone.
fn words(text: &str) -> String {
    text.split_whitespace()
        .filter(|w| !matches!(*w, "│" | "⚠" | "×" | "☞" | "help:"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_example_fits_in_200_lines_at_120_columns() {
    let human = netlint(&["check", "--color", "never", "fixtures/example.toml"]);
    let lines = human.lines().count();
    // 392 lines when a snippet ran from its first label to its last.
    assert!(lines <= 200, "{lines} lines:\n{human}");
    insta::assert_snapshot!("example_line_count", lines.to_string());
    insta::assert_snapshot!("example_human_120", human);
    assert!(human.lines().all(|l| l.chars().count() <= 120), "{human}");
}

#[test]
fn every_finding_keeps_its_place_message_help_and_labels() {
    let human = netlint(&["check", "--color", "never", "fixtures/example.toml"]);
    let json = netlint(&["check", "--format", "json", "fixtures/example.toml"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let diagnostics = json["diagnostics"].as_array().unwrap();
    let blocks: Vec<&str> = human.trim_end().split("\n\n").collect();
    // One block per finding, then the count line.
    assert_eq!(blocks.len(), diagnostics.len() + 1, "{human}");
    assert!(blocks[blocks.len() - 1].starts_with("1 file checked"));
    let file = Path::new("fixtures/example.toml");
    for (d, block) in diagnostics.iter().zip(&blocks) {
        let rule = d["rule"].as_str().unwrap();
        assert!(block.starts_with(rule), "{block}");
        assert!(
            words(block).contains(&words(d["message"].as_str().unwrap())),
            "message of {rule} lost:\n{block}"
        );
        assert!(
            words(block).contains(&words(d["help"].as_str().unwrap())),
            "help of {rule} lost:\n{block}"
        );
        // The box is headed by the finding's own place, not a related one.
        let at = &d["location"];
        let header = format!("╭─[{}:{}:{}]", file.display(), at["line"], at["column"]);
        let first_box = block.lines().find(|l| l.contains("╭─[")).unwrap();
        assert_eq!(first_box.trim(), header, "{block}");
        let shown = |line: &serde_json::Value| format!(" {line} │ ");
        assert!(block.contains(&shown(&at["line"])), "{block}");
        for r in d["related"].as_array().unwrap() {
            assert!(
                block.contains(&shown(&r["location"]["line"])),
                "{rule}: line {} not shown:\n{block}",
                r["location"]["line"]
            );
            let message = r["message"].as_str().unwrap();
            assert!(
                block.contains(message),
                "{rule}: `{message}` lost:\n{block}"
            );
        }
    }
}

/// Labels far apart are not joined by the lines between them: the gap is
/// `...`, and no line between the labels' is shown.
#[test]
fn the_lines_between_distant_labels_are_left_out() {
    let human = netlint(&["check", "--color", "never", "fixtures/example.toml"]);
    let block = human
        .split("\n\n")
        .find(|b| b.starts_with("team-speed-mismatch"))
        .unwrap();
    let numbers: Vec<usize> = block
        .lines()
        .filter_map(|l| l.split_once(" │ "))
        .filter_map(|(n, _)| n.trim().parse().ok())
        .collect();
    // `P1-1` is 25G at line 62, `P1-2` 10G at line 106; each with the
    // line above it.
    assert_eq!(numbers, [61, 62, 105, 106], "{block}");
    assert!(block.contains("\n...\n"), "{block}");
}
