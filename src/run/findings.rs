//! What one `netlint check` run found, per file: the input every renderer
//! (human, json, sarif, github, junit, gitlab, markdown) turns into text.

use netlint_model::{Diagnostic, RuleMeta, SourceFile};

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
