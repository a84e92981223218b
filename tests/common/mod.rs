//! Shared by the integration tests that need an external tool (Graphviz,
//! the Mermaid parser, bash).

/// The external tool `what` describes is missing. In CI (`CI` set, as
/// GitHub Actions, GitLab CI and .ci/run set it) that fails the test: CI
/// installs the tool, so its absence would let the test pass without
/// running. Elsewhere the skip is said on standard error (shown by `cargo
/// test -- --nocapture`, and with the test's output when it fails) and the
/// caller returns.
pub fn tool_missing(what: &str) {
    skip_or_fail(std::env::var_os("CI").is_some(), what);
}

/// [`tool_missing`] with the CI question answered by the caller.
pub fn skip_or_fail(ci: bool, what: &str) {
    assert!(!ci, "{what}: the tool is required when CI is set");
    eprintln!("SKIPPED (not a pass): {what}");
}
