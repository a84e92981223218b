//! Control characters never reach a terminal or a diagram raw: a name that
//! holds one is refused at load and every text renderer shows what it
//! prints escaped (`\u{1b}`); free text that may hold line breaks keeps
//! diagrams valid.

use std::path::PathBuf;

fn run(args: &[&str]) -> (i32, String, String) {
    let mut argv = vec!["netlint"];
    argv.extend_from_slice(args);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = netlint::cli::run(argv, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

fn write(name: &str, text: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("control-chars");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn raw_control(s: &str) -> Option<char> {
    s.chars()
        .find(|c| c.is_control() && !matches!(c, '\n' | '\t'))
}

/// A design with an escape sequence in a switch name and a BEL in a
/// reference.
const HOSTILE: &str = "[design]\nname = \"d\"\n[switches.\"tor\\u001b[31m\"]\n[hosts.h.nics.A]\nspeed = \"10G\"\nswitch = \"x\\u0007\"\n";

#[test]
fn every_check_format_shows_control_characters_escaped() {
    let p = write("hostile.toml", HOSTILE);
    let path = p.to_str().unwrap();
    for format in ["human", "concise", "github", "markdown", "junit"] {
        let (code, out, err) = run(&["check", path, "--format", format, "--color", "never"]);
        assert_eq!(code, 2, "{format}: {err}");
        assert_eq!(raw_control(&out), None, "{format}: {out}");
        assert!(out.contains("tor\\u{1b}[31m"), "{format}: {out}");
    }
    let (_, human, _) = run(&["check", path, "--color", "always"]);
    // Colour is the renderer's own escape sequences; the design's are shown.
    assert!(human.contains("unknown switch `x\\u{7}`"), "{human}");
    assert!(!human.contains("\u{1b}[31m`") && !human.contains('\u{7}'));
}

#[test]
fn a_raw_control_byte_is_a_syntax_error_shown_escaped_in_the_snippet() {
    let p = write(
        "raw-byte.toml",
        "[design]\nname = \"d\"\n# clear the screen: \u{1b}[2J\n",
    );
    let (code, out, _) = run(&["check", p.to_str().unwrap(), "--color", "never"]);
    assert_eq!(code, 2);
    assert_eq!(raw_control(&out), None, "{out}");
    assert!(out.contains("# clear the screen: \\u{1b}[2J"), "{out}");
}

#[test]
fn commands_that_refuse_the_design_print_its_errors_escaped() {
    let p = write("hostile-2.toml", HOSTILE);
    for cmd in ["topology", "simulate", "report", "graph", "baseline"] {
        let (code, out, err) = run(&[cmd, p.to_str().unwrap()]);
        assert_eq!(code, 2, "{cmd}");
        assert_eq!(raw_control(&out), None, "{cmd}: {out}");
        assert_eq!(raw_control(&err), None, "{cmd}: {err}");
    }
}

#[test]
fn a_file_name_with_a_control_character_is_shown_escaped() {
    let design = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/rstp-triangle.toml"),
    )
    .unwrap();
    let p = write("tri\u{1b}]0;x\u{7}.toml", &design);
    for args in [
        vec!["topology", p.to_str().unwrap()],
        vec!["simulate", p.to_str().unwrap()],
        vec!["report", p.to_str().unwrap()],
        vec!["check", p.to_str().unwrap(), "--format", "github"],
        vec!["check", p.to_str().unwrap(), "--format", "markdown"],
        vec!["graph", p.to_str().unwrap()],
    ] {
        let (code, out, err) = run(&args);
        assert!(code <= 1, "{args:?}: {err}");
        assert_eq!(raw_control(&out), None, "{args:?}: {out}");
    }
    let (_, out, _) = run(&["topology", p.to_str().unwrap()]);
    assert!(out.contains("tri\\u{1b}]0;x\\u{7}.toml"), "{out}");
}

#[test]
fn free_text_with_line_breaks_keeps_diagrams_valid() {
    let d = "[design]\nname = \"d\"\n[switches.a]\nmodel = \"\"\"Dell\nS5248\tF\"\"\"\n[switches.b]\n[[links]]\na = \"a\"\nb = \"b\"\nspeed = \"10G\"\n";
    let p = write("model.toml", d);
    let (code, mermaid, err) = run(&["graph", p.to_str().unwrap(), "--format", "mermaid"]);
    assert_eq!(code, 0, "{err}");
    // The model stays on its node's line.
    let line = mermaid.lines().find(|l| l.contains("Dell")).unwrap();
    assert!(line.contains("S5248"), "{mermaid}");
    let (code, dot, _) = run(&["graph", p.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(raw_control(&dot), None);
}
