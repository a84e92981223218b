//! Shared by the integration tests that drive the CLI in-process.

use std::path::{Path, PathBuf};

/// `netlint ARGS...` run in-process: its exit code, standard output and
/// standard error.
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
