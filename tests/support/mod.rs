//! Shared by the integration tests that drive the CLI in-process.

use std::path::{Path, PathBuf};

/// `netlint ARGS...` run in-process: its exit code, standard output and
/// standard error.
#[allow(dead_code)] // not every test file runs the CLI
pub fn run(args: &[&str]) -> (i32, String, String) {
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

/// A path `name` in the test's own folder `dir` of the build's temporary
/// directory (made if missing).
#[allow(dead_code)] // not every test file writes files
pub fn tmp(dir: &str, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Every `*.toml` under `fixtures/` (invalid designs included) with its
/// text, by path.
#[allow(dead_code)] // not every test file reads the fixtures
pub fn fixture_files() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "toml") {
                let text = std::fs::read_to_string(&p).unwrap();
                out.push((p.display().to_string(), text));
            }
        }
    }
    out.sort();
    out
}
