//! What one `netlint check` run found, per file: the input every renderer
//! (human, json, sarif, github, junit, gitlab, markdown) turns into text.

use netlint_model::{Design, Diagnostic, RuleMeta, SourceFile};
use std::sync::Arc;

/// The diagnostics of one file, sorted by position then rule.
#[derive(Clone, Debug)]
pub struct FileReport {
    pub file: SourceFile,
    pub diagnostics: Vec<Diagnostic>,
    /// The design as the run loaded it, when the run was asked to keep it
    /// ([`CheckSettings::keep_designs`](super::CheckSettings::keep_designs):
    /// the Markdown diagram draws it), so no renderer loads a file again.
    pub design: Option<Arc<Design>>,
}

#[derive(Clone, Debug, Default)]
pub struct Report {
    pub files: Vec<FileReport>,
    /// Every rule netlint knows (schema and syntax included), for renderers
    /// that describe rules (SARIF `tool.driver.rules`).
    pub rules: Vec<RuleMeta>,
}
