//! `netlint server` driven by a real LSP client: runs tests/lsp (pytest-lsp,
//! a pygls client, over standard input and output) against this build's
//! binary. When pytest-lsp is not installed, the test installs it with pip
//! into the build's temporary directory; a missing python3, or a pip that
//! cannot install it, fails the test, with how to install it, instead of
//! skipping it (`.ci/run` installs pytest-lsp beforehand).

use std::process::Command;

/// The pytest-lsp release the client test is written against.
const PYTEST_LSP: &str = "pytest-lsp==1.0.1";

/// A `PYTHONPATH` under which `import pytest_lsp` works: none when the
/// machine has it, else a folder in the build's temporary directory that
/// pip fills once (so `cargo test --workspace` is all a newcomer runs).
/// No python3, or no pip and no way to install, fails the test, saying
/// why: it never skips.
fn pytest_lsp_path() -> Option<String> {
    let importable = |path: Option<&str>| {
        let mut c = Command::new("python3");
        c.args(["-c", "import pytest_lsp"]);
        if let Some(p) = path {
            c.env("PYTHONPATH", p);
        }
        match c.output() {
            Err(e) => panic!("python3 is needed for the real-client test of `netlint server`: {e}"),
            Ok(o) => o.status.success(),
        }
    };
    if importable(None) {
        return None;
    }
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("pytest-lsp");
    let dir = dir.to_str().expect("a UTF-8 target directory").to_owned();
    if !importable(Some(&dir)) {
        let out = Command::new("python3")
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "--target",
                &dir,
                PYTEST_LSP,
            ])
            .output()
            .expect("python3 runs");
        assert!(
            out.status.success() && importable(Some(&dir)),
            "the real-client test of `netlint server` needs {PYTEST_LSP}, and pip could not \
             install it into {dir}: install it with `python3 -m pip install {PYTEST_LSP}`\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Some(dir)
}

#[test]
fn a_real_lsp_client_sees_the_trunk_break_where_check_puts_it() {
    let root = env!("CARGO_MANIFEST_DIR");
    let python_path = pytest_lsp_path();
    let out = Command::new("python3")
        .args([
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-c",
            "tests/lsp/pytest.ini",
            "--rootdir",
            "tests/lsp",
            "tests/lsp",
        ])
        .env("NETLINT_BIN", env!("CARGO_BIN_EXE_netlint"))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .envs(python_path.map(|p| ("PYTHONPATH", p)))
        .current_dir(root)
        .output()
        .expect("python3 runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    // pytest ran the test (exit 0 with nothing collected is code 5, but
    // say it plainly): one passed, none skipped.
    assert!(text.contains("1 passed"), "{text}");
    assert!(!text.contains("skipped"), "{text}");
}
