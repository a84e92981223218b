//! `netlint server` driven by a real LSP client: runs tests/lsp (pytest-lsp,
//! a pygls client, over standard input and output) against this build's
//! binary. It needs python3 with pytest-lsp, which a plain `cargo test`
//! does not assume: the test is `#[ignore]`d there, and `.ci/run` installs
//! pytest-lsp and runs it with the other ignored tests
//! (`cargo test --workspace -- --ignored`). Without pytest-lsp it fails,
//! saying how to install it; it never skips.

use std::process::Command;

/// The pytest-lsp release the client test is written against.
const PYTEST_LSP: &str = "pytest-lsp==1.0.1";

#[test]
#[ignore = "needs python3 and pytest-lsp; .ci/run installs them"]
fn a_real_lsp_client_sees_the_trunk_break_where_check_puts_it() {
    let root = env!("CARGO_MANIFEST_DIR");
    let importable = Command::new("python3")
        .args(["-c", "import pytest_lsp"])
        .output()
        .unwrap_or_else(|e| panic!("python3 runs: {e}"));
    assert!(
        importable.status.success(),
        "the real-client test of `netlint server` needs {PYTEST_LSP}: \
         `python3 -m pip install {PYTEST_LSP}` (.ci/run installs it)\n{}",
        String::from_utf8_lossy(&importable.stderr)
    );
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
