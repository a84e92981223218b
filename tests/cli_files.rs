//! What netlint reads and writes (issue 17 items 3 to 7, 9 and 12): directory
//! walks over links, loops and FIFOs, the size cap, `-o` never over an
//! input and written whole, `netlint.toml` discovery stopping at the
//! repository root, silent skips made loud, one unreadable path among
//! several, standard input, the order of diagnostics, and the human cap on
//! repeated input errors. Each run is the real binary with a deadline, so a
//! hang fails the test instead of stalling the suite.

#![cfg(unix)]

use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};
mod support;
use support::{netlint_in, TempDir};

fn mkfifo(p: &Path) {
    let ok = Command::new("mkfifo").arg(p).status().unwrap().success();
    assert!(ok, "mkfifo {}", p.display());
}

/// A design with one team mixing 10G and 1G: team-speed-mismatch (error).
const MIXED: &str = include_str!("data/mixed-team.toml");

const CLEAN: &str = include_str!("data/clean.toml");

fn json(out: &str) -> serde_json::Value {
    serde_json::from_str(out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// (file, rule) of every diagnostic, in output order.
fn diags(out: &str) -> Vec<(String, String)> {
    json(out)["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["location"]["file"].as_str().unwrap_or("").to_string(),
                d["rule"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn files_checked(out: &str) -> u64 {
    json(out)["summary"]["files"].as_u64().unwrap()
}

// ------------------------------------------------------------ 3: walks

#[test]
fn link_loops_are_walked_once() {
    let t = TempDir::new("files", "loops");
    t.write("d/a.toml", MIXED);
    symlink(".", t.path().join("d/self")).unwrap();
    symlink("..", t.path().join("d/up")).unwrap();
    std::fs::create_dir_all(t.path().join("d/x")).unwrap();
    symlink("../y", t.path().join("d/x/to-y")).unwrap();
    std::fs::create_dir_all(t.path().join("d/y")).unwrap();
    symlink("../x", t.path().join("d/y/to-x")).unwrap();
    let (code, out, _) = t.run(&["check", "d", "--format", "json"]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(files_checked(&out), 1, "{out}");
    assert_eq!(
        diags(&out),
        [("d/a.toml".into(), "team-speed-mismatch".into())]
    );
}

#[test]
fn fifos_devices_and_links_out_of_the_tree_are_skipped_with_a_note() {
    let t = TempDir::new("files", "special");
    t.write("d/a.toml", CLEAN);
    mkfifo(&t.path().join("d/pipe.toml"));
    symlink("/dev/zero", t.path().join("d/zero.toml")).unwrap();
    t.write("outside/b.toml", MIXED);
    symlink("../outside/b.toml", t.path().join("d/out.toml")).unwrap();
    symlink("../outside", t.path().join("d/out-dir")).unwrap();
    let (code, out, err) = t.run(&["check", "d", "--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(files_checked(&out), 1);
    assert!(err.contains("d/pipe.toml: a FIFO"), "{err}");
    assert!(
        err.contains("d/zero.toml: a link out of the searched directory"),
        "{err}"
    );
    assert!(
        err.contains("d/out.toml: a link out of the searched directory"),
        "{err}"
    );
    assert!(
        err.contains("d/out-dir: a link out of the searched directory"),
        "{err}"
    );
}

#[test]
fn a_link_inside_the_tree_is_followed_and_its_file_checked_once() {
    let t = TempDir::new("files", "inner-link");
    t.write("d/real/a.toml", MIXED);
    symlink("real", t.path().join("d/alias")).unwrap();
    symlink("real/a.toml", t.path().join("d/b.toml")).unwrap();
    let (code, out, _) = t.run(&["check", "d", "--format", "json"]);
    assert_eq!(code, 1);
    assert_eq!(files_checked(&out), 1, "{out}");
}

#[test]
fn files_over_the_size_limit_are_unreadable_and_the_limit_can_be_raised() {
    let t = TempDir::new("files", "size");
    let big = format!("{CLEAN}\n# {}\n", "x".repeat(2000));
    t.write("big.toml", &big);
    let (code, out, _) = t.run(&[
        "check",
        "big.toml",
        "--max-file-size",
        "1K",
        "--format",
        "json",
    ]);
    assert_eq!(code, 2);
    let v = json(&out);
    assert_eq!(v["diagnostics"][0]["rule"], "unreadable");
    let msg = v["diagnostics"][0]["message"].as_str().unwrap();
    assert!(msg.contains("larger than 1 KiB"), "{msg}");
    let (code, _, _) = t.run(&["check", "big.toml", "--max-file-size", "1M"]);
    assert_eq!(code, 0);
    let (code, _, err) = t.run(&["check", "big.toml", "--max-file-size", "lots"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a size"), "{err}");
}

#[test]
fn dev_zero_is_refused_as_a_design_and_as_a_baseline() {
    let t = TempDir::new("files", "zero");
    t.write("a.toml", CLEAN);
    let start = Instant::now();
    let (code, out, _) = t.run(&["check", "/dev/zero", "a.toml", "--format", "json"]);
    assert_eq!(code, 2);
    let d = diags(&out);
    assert!(
        d.contains(&("/dev/zero".into(), "unreadable".into())),
        "{d:?}"
    );
    let (code, _, err) = t.run(&["check", "a.toml", "--baseline", "/dev/zero"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("a character device, not a regular file"),
        "{err}"
    );
    assert!(start.elapsed() < Duration::from_secs(20));
}

// ------------------------------------------------- issue 29 item 4: ignore files

/// The files of the JSON report, in order.
fn files_of(out: &str) -> Vec<String> {
    let mut files: Vec<String> = diags(out).into_iter().map(|(f, _)| f).collect();
    files.dedup();
    files
}

/// A repository (a `.git` directory, no git binary needed) with designs
/// ignored by `.gitignore`, `.git/info/exclude` and `.ignore`: a directory
/// search passes over them, from the root and from a folder below it; a
/// file named on the command line is checked all the same.
#[test]
fn ignored_designs_are_not_searched_and_a_named_one_is_checked() {
    let t = TempDir::new("files", "gitignore");
    t.write("repo/.git/HEAD", "ref: refs/heads/main\n");
    t.write("repo/.git/info/exclude", "scratch/\n");
    t.write("repo/.gitignore", "build/\n/designs/old.toml\n");
    t.write("repo/build/generated.toml", MIXED);
    t.write("repo/scratch/try.toml", MIXED);
    t.write("repo/designs/.ignore", "draft-*.toml\n");
    t.write("repo/designs/draft-1.toml", MIXED);
    t.write("repo/designs/old.toml", MIXED);
    t.write("repo/designs/site.toml", CLEAN);
    t.write("repo/cluster.toml", CLEAN);
    let repo = t.path().join("repo");
    for (cwd, path, files) in [
        (&repo, ".", 2),
        (&repo, "designs", 1),
        (&t.path().join("repo/designs"), ".", 1),
        (&t.path().to_path_buf(), "repo", 2),
    ] {
        let (code, out, err) = netlint_in(cwd, &["check", path, "--format", "json"], b"");
        assert_eq!(code, 0, "{cwd:?} {path}: {out}{err}");
        assert_eq!(files_checked(&out), files, "{cwd:?} {path}: {out}");
        assert_eq!(err, "", "an ignored file is passed over without a note");
    }
    let (code, out, _) = netlint_in(
        &repo,
        &[
            "check",
            ".",
            "build/generated.toml",
            "scratch/try.toml",
            "designs/draft-1.toml",
            "designs/old.toml",
            "--format",
            "json",
        ],
        b"",
    );
    assert_eq!(code, 1, "{out}");
    assert_eq!(files_checked(&out), 6, "{out}");
    assert_eq!(
        files_of(&out),
        [
            "build/generated.toml",
            "designs/draft-1.toml",
            "designs/old.toml",
            "scratch/try.toml"
        ]
    );
}

/// As ripgrep does, `.gitignore` applies inside a git repository only;
/// `.ignore` applies everywhere.
#[test]
fn a_gitignore_outside_a_repository_is_not_applied() {
    let t = TempDir::new("files", "no-git");
    t.write("d/.gitignore", "build/\n");
    t.write("d/.ignore", "wip.toml\n");
    t.write("d/build/generated.toml", MIXED);
    t.write("d/wip.toml", MIXED);
    t.write("d/a.toml", CLEAN);
    let (code, out, _) = t.run(&["check", "d", "--format", "json"]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(files_checked(&out), 2, "{out}");
    assert_eq!(files_of(&out), ["d/build/generated.toml"]);
}

/// The ignore files are read as safely as designs: a FIFO `.gitignore`
/// (which would block the read for ever) is an input error and its folder
/// is not searched; a rule that is not a valid glob is a note at its line.
#[test]
fn hostile_or_broken_ignore_files_are_reported() {
    let t = TempDir::new("files", "bad-ignore");
    t.write("d/.git/HEAD", "ref: refs/heads/main\n");
    t.write("d/a.toml", CLEAN);
    t.write("d/fifo/b.toml", MIXED);
    mkfifo(&t.path().join("d/fifo/.gitignore"));
    t.write("d/glob/.gitignore", "# generated\nbuild-[z-a]/\nold.toml\n");
    t.write("d/glob/old.toml", MIXED);
    t.write("d/glob/c.toml", CLEAN);
    let (code, out, err) = t.run(&["check", "d", "--format", "json"]);
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(files_checked(&out), 3, "{out}");
    let v = json(&out);
    let unreadable: Vec<&str> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "unreadable")
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        unreadable,
        [
            "cannot read d/fifo/.gitignore: a FIFO (named pipe), not a regular file; \
          netlint reads this file for the ignore rules, so d/fifo is not searched"
        ],
        "{out}"
    );
    assert!(
        err.contains("netlint: skipped d/glob/.gitignore:2: "),
        "{err}"
    );
    assert!(err.contains("invalid range"), "{err}");
    assert!(
        !files_of(&out).contains(&"d/glob/old.toml".to_string()),
        "{out}"
    );
}

// ------------------------------------------------------------ 4: -o

#[test]
fn output_onto_an_input_is_a_usage_error_and_leaves_the_input() {
    let t = TempDir::new("files", "o-input");
    t.write("d/a.toml", MIXED);
    let cases: [&[&str]; 5] = [
        &["check", "d/a.toml", "-o", "d/a.toml"],
        &["check", "d", "--format", "json", "-o", "d/./a.toml"],
        &["baseline", "d/a.toml", "-o", "d/a.toml"],
        &["graph", "d/a.toml", "-o", "d/a.toml"],
        &["check", "d/a.toml", "--baseline", "b.json", "-o", "b.json"],
    ];
    t.write("b.json", r#"{"version": 1, "findings": []}"#);
    for args in cases {
        let (code, _, err) = t.run(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("a file this run reads"), "{args:?}: {err}");
        assert_eq!(
            std::fs::read_to_string(t.path().join("d/a.toml")).unwrap(),
            MIXED
        );
    }
    assert_eq!(
        std::fs::read_to_string(t.path().join("b.json")).unwrap(),
        r#"{"version": 1, "findings": []}"#
    );
}

#[test]
fn two_reports_to_one_file_are_a_usage_error() {
    let t = TempDir::new("files", "o-twice");
    t.write("a.toml", MIXED);
    let (code, _, err) = t.run(&[
        "check", "a.toml", "--format", "json", "-o", "r.txt", "--format", "sarif", "-o", "./r.txt",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("would both be written to"), "{err}");
    assert!(!t.path().join("r.txt").exists());
}

#[test]
fn reports_are_written_whole_through_a_rename() {
    let t = TempDir::new("files", "o-atomic");
    t.write("a.toml", MIXED);
    t.write("out/report.json", "old");
    let (code, _, _) = t.run(&[
        "check",
        "a.toml",
        "--format",
        "json",
        "-o",
        "out/report.json",
    ]);
    assert_eq!(code, 1);
    let text = std::fs::read_to_string(t.path().join("out/report.json")).unwrap();
    assert_eq!(json(&text)["summary"]["files"], 1);
    let names: Vec<_> = std::fs::read_dir(t.path().join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["report.json"], "no temporary file is left");
}

// ------------------------------------------------------------ 5: netlint.toml

const OFF: &str = "[netlint]\nrules = { team-speed-mismatch = \"off\" }\n";

#[test]
fn config_discovery_stops_at_the_repository_root() {
    let t = TempDir::new("files", "cfg-root");
    // A netlint.toml above the repository must not turn the run green.
    t.write("netlint.toml", OFF);
    t.write("repo/.git/HEAD", "ref: refs/heads/main\n");
    t.write("repo/designs/a.toml", MIXED);
    let (code, _, _) = t.run(&["check", "repo/designs/a.toml"]);
    assert_eq!(code, 1, "the config above the repository root is not used");
    // Inside the repository, the search climbs to the root.
    t.write("repo/netlint.toml", OFF);
    let (code, _, _) = t.run(&["check", "repo/designs/a.toml"]);
    assert_eq!(code, 0);
    // Outside a repository, only the design's directory counts.
    t.write("loose/sub/b.toml", MIXED);
    t.write("loose/netlint.toml", OFF);
    let (code, _, _) = t.run(&["check", "loose/sub/b.toml"]);
    assert_eq!(code, 1);
    t.write("loose/sub/netlint.toml", OFF);
    let (code, _, _) = t.run(&["check", "loose/sub/b.toml"]);
    assert_eq!(code, 0);
}

#[test]
fn config_and_isolated_choose_the_config() {
    let t = TempDir::new("files", "cfg-flags");
    t.write("a.toml", MIXED);
    t.write("netlint.toml", OFF);
    t.write("other/strict.toml", "[netlint]\nfail_on = \"error\"\n");
    assert_eq!(t.run(&["check", "a.toml"]).0, 0);
    assert_eq!(t.run(&["check", "a.toml", "--isolated"]).0, 1);
    assert_eq!(
        t.run(&["check", "a.toml", "--config", "other/strict.toml"])
            .0,
        1
    );
    assert_eq!(t.run(&["check", "a.toml", "--config", "netlint.toml"]).0, 0);
    let (code, _, err) = t.run(&["check", "a.toml", "--config", "x.toml", "--isolated"]);
    assert_eq!(code, 2, "{err}");
    let (code, out, _) = t.run(&[
        "check",
        "a.toml",
        "--config",
        "missing.toml",
        "--format",
        "json",
    ]);
    assert_eq!(code, 2);
    assert!(diags(&out).contains(&("missing.toml".into(), "unreadable".into())));
}

#[test]
fn a_config_linked_from_outside_the_repository_is_not_echoed() {
    let t = TempDir::new("files", "cfg-link");
    t.write(
        "secret/netlint.toml",
        "[netlint]\npassword = \"hunter2-SECRET\" = 1\n",
    );
    t.write("repo/.git/HEAD", "ref: refs/heads/main\n");
    t.write("repo/a.toml", CLEAN);
    symlink("../secret/netlint.toml", t.path().join("repo/netlint.toml")).unwrap();
    let (code, out, err) = t.run(&["check", "repo/a.toml"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.contains("syntax"), "{out}");
    assert!(
        !out.contains("SECRET") && !err.contains("SECRET"),
        "{out}{err}"
    );
    // The same file inside the repository is shown, snippet and all.
    t.write(
        "repo/netlint.toml.real",
        "[netlint]\npassword = \"hunter2-SECRET\" = 1\n",
    );
    std::fs::remove_file(t.path().join("repo/netlint.toml")).unwrap();
    symlink("netlint.toml.real", t.path().join("repo/netlint.toml")).unwrap();
    let (_, out, _) = t.run(&["check", "repo/a.toml"]);
    assert!(out.contains("SECRET"), "{out}");
}

#[test]
fn undecodable_and_unreadable_configs_are_input_errors() {
    let t = TempDir::new("files", "cfg-bad");
    t.write("a/d.toml", CLEAN);
    t.write("a/netlint.toml", b"[netlint]\n# caf\xe9\n");
    let (code, out, _) = t.run(&["check", "a/d.toml", "--format", "json"]);
    assert_eq!(code, 2);
    assert!(
        diags(&out).contains(&("a/netlint.toml".into(), "syntax".into())),
        "{out}"
    );
    t.write("b/d.toml", CLEAN);
    mkfifo(&t.path().join("b/netlint.toml"));
    let (code, out, _) = t.run(&["check", "b/d.toml", "--format", "json"]);
    assert_eq!(code, 2);
    assert!(
        diags(&out).contains(&("b/netlint.toml".into(), "unreadable".into())),
        "{out}"
    );
}

#[test]
fn every_command_honours_a_malformed_config_as_check_does() {
    let t = TempDir::new("files", "cfg-commands");
    t.write("d.toml", CLEAN);
    t.write("netlint.toml", "[netlint]\nfail_on = \n");
    assert_eq!(t.run(&["check", "d.toml"]).0, 2);
    for cmd in ["topology", "simulate", "report", "graph"] {
        let (code, out, err) = t.run(&[cmd, "d.toml"]);
        assert_eq!(code, 2, "{cmd}: {out}{err}");
        assert!(err.contains("netlint.toml"), "{cmd}: {err}");
        assert!(out.is_empty(), "{cmd}: {out}");
        assert_eq!(t.run(&[cmd, "d.toml", "--isolated"]).0, 0, "{cmd}");
    }
}

// ------------------------------------------------------------ 6: silent skips

#[test]
fn directory_mode_finds_spaced_headers_and_reports_latin1() {
    let t = TempDir::new("files", "skips");
    t.write("d/spaced.toml", MIXED.replace("[design]", "[ design ]"));
    t.write("d/latin1.toml", b"[design]\nname = \"caf\xe9\"\n");
    t.write("d/other.toml", "[tool]\nx = 1\n");
    let (code, out, _) = t.run(&["check", "d", "--format", "json"]);
    assert_eq!(code, 2, "{out}");
    assert_eq!(
        diags(&out),
        [
            ("d/latin1.toml".to_string(), "syntax".to_string()),
            (
                "d/spaced.toml".to_string(),
                "team-speed-mismatch".to_string()
            ),
        ]
    );
    let v = json(&out);
    assert_eq!(
        v["diagnostics"][0]["location"]["line"], 2,
        "at the bad byte"
    );
}

#[test]
fn finding_no_design_is_an_input_error_unless_allowed() {
    let t = TempDir::new("files", "empty");
    t.write("d/Cargo.toml", "[package]\nname = \"x\"\n");
    let (code, out, err) = t.run(&["check", "d", "--format", "json"]);
    assert_eq!(code, 2);
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("no design file found in d"), "{err}");
    let (code, out, _) = t.run(&["check", "d", "--format", "json", "--allow-empty"]);
    assert_eq!(code, 0);
    assert_eq!(files_checked(&out), 0);
    let (code, _, _) = t.run(&["check", "d/Cargo.toml", "--designs-only"]);
    assert_eq!(code, 2);
    let (code, _, _) = t.run(&["check", "d/Cargo.toml", "--designs-only", "--allow-empty"]);
    assert_eq!(code, 0);
}

// ------------------------------------------------------------ 7: one bad path

#[test]
fn one_unreadable_path_among_several_is_reported_and_the_rest_checked() {
    let t = TempDir::new("files", "several");
    t.write("a.toml", MIXED);
    t.write("c.toml", MIXED);
    mkfifo(&t.path().join("fifo.toml"));
    symlink("loop2.toml", t.path().join("loop1.toml")).unwrap();
    symlink("loop1.toml", t.path().join("loop2.toml")).unwrap();
    let (code, out, _) = t.run(&[
        "check",
        "a.toml",
        "missing.toml",
        "fifo.toml",
        "loop1.toml",
        "c.toml",
        "--format",
        "json",
    ]);
    assert_eq!(code, 2);
    let v = json(&out);
    let messages: Vec<String> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "unreadable")
        .map(|d| d["message"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        messages,
        [
            "cannot read fifo.toml: a FIFO (named pipe), not a regular file",
            "cannot read loop1.toml: a loop of symbolic links",
            "cannot read missing.toml: no such file or directory",
        ]
    );
    let rules: Vec<(String, String)> = diags(&out)
        .into_iter()
        .filter(|(_, r)| r != "unreadable")
        .collect();
    assert_eq!(
        rules,
        [
            ("a.toml".into(), "team-speed-mismatch".into()),
            ("c.toml".into(), "team-speed-mismatch".into()),
        ]
    );
    assert!(!out.contains("os error"), "{out}");
}

#[test]
fn standard_input_is_a_design_with_the_name_given() {
    let t = TempDir::new("files", "stdin");
    t.write("sub/netlint.toml", OFF);
    let (code, out, _) = netlint_in(
        t.path(),
        &[
            "check",
            "-",
            "--stdin-filename",
            "sub/piped.toml",
            "--format",
            "json",
        ],
        MIXED.as_bytes(),
    );
    assert_eq!(
        code, 0,
        "the netlint.toml beside the given name applies: {out}"
    );
    assert_eq!(files_checked(&out), 1);
    let (code, out, _) = netlint_in(
        t.path(),
        &["check", "-", "--format", "json"],
        MIXED.as_bytes(),
    );
    assert_eq!(code, 1);
    assert_eq!(
        diags(&out),
        [("<stdin>".into(), "team-speed-mismatch".into())]
    );
}

// ------------------------------------------------------------ 9: order

#[test]
fn diagnostics_are_sorted_by_file_and_a_file_named_twice_is_checked_once() {
    let t = TempDir::new("files", "order");
    t.write("b.toml", MIXED);
    t.write("a.toml", MIXED);
    let (_, out, _) = t.run(&[
        "check", "b.toml", "a.toml", "./a.toml", "b.toml", "--format", "json",
    ]);
    assert_eq!(files_checked(&out), 2);
    assert_eq!(
        diags(&out),
        [
            ("a.toml".into(), "team-speed-mismatch".into()),
            ("b.toml".into(), "team-speed-mismatch".into()),
        ]
    );
}

// ------------------------------------------------------------ 12: many errors

#[test]
fn human_output_caps_repeated_input_errors_and_json_keeps_them() {
    let t = TempDir::new("files", "many");
    let mut text = String::from("[design]\nname = \"x\"\n");
    for i in 0..300 {
        text.push_str(&format!("bogus_{i} = 1\n"));
    }
    t.write("many.toml", &text);
    let (code, out, _) = t.run(&["check", "many.toml", "--color", "never"]);
    assert_eq!(code, 2);
    assert_eq!(out.matches("unknown field").count(), 200);
    assert!(
        out.contains("many.toml: 100 more input errors not shown"),
        "{out}"
    );
    assert!(out.contains("300 errors"), "{out}");
    // The last ones shown still point at their own lines.
    assert!(out.contains("[many.toml:202:1]"), "{out}");
    let (_, out, _) = t.run(&["check", "many.toml", "--format", "json"]);
    assert_eq!(json(&out)["diagnostics"].as_array().unwrap().len(), 300);
}
