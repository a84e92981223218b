//! What one `netlint check` run found, per file: the input every renderer
//! (human, json, sarif, github, junit, gitlab, markdown) turns into text.

use netlint_model::{Diagnostic, RuleMeta, Severity, SourceFile, SCHEMA, SYNTAX};
use netlint_rules::UNREADABLE;

/// The diagnostics of one file, sorted by position then rule.
#[derive(Clone, Debug)]
pub struct FileReport {
    pub file: SourceFile,
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Clone, Debug, Default)]
pub struct Report {
    pub files: Vec<FileReport>,
    /// Every rule netlint knows (schema and syntax included), for renderers
    /// that describe rules (SARIF `tool.driver.rules`).
    pub rules: Vec<RuleMeta>,
}

/// An input error: the file was not read, or does not load (`syntax`,
/// `schema`, `unreadable`); the run exits 2.
pub(crate) fn is_input_error(d: &Diagnostic) -> bool {
    d.severity == Severity::Error && (d.rule == SYNTAX || d.rule == SCHEMA || d.rule == UNREADABLE)
}
