//! `netlint server` driven by a real LSP client: runs tests/lsp (pytest-lsp,
//! a pygls client, over standard input and output) against this build's
//! binary. A missing python3 or pytest-lsp fails the test, with how to
//! install it, instead of skipping it (`.ci/run` installs pytest-lsp).

use std::process::Command;

#[test]
fn a_real_lsp_client_sees_the_trunk_break_where_check_puts_it() {
    let root = env!("CARGO_MANIFEST_DIR");
    let probe = Command::new("python3")
        .args(["-c", "import pytest_lsp"])
        .output();
    match probe {
        Err(e) => panic!("python3 is needed for the real-client test of `netlint server`: {e}"),
        Ok(o) if !o.status.success() => panic!(
            "pytest-lsp is needed for the real-client test of `netlint server`: \
             `python3 -m pip install pytest-lsp` (.ci/run does)\n{}",
            String::from_utf8_lossy(&o.stderr)
        ),
        Ok(_) => {}
    }
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
