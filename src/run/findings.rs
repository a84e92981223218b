//! What one `netlint check` run found, per file: the input every renderer
//! (human, json, sarif, github, junit, gitlab, markdown) turns into text.

use netlint_model::{Design, Diagnostic, FailOn, RuleMeta, Severity, SourceFile};
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
    /// The fail level this file was checked with (`--fail-on`, then the
    /// design's and netlint.toml's `fail_on`, then `warning`).
    pub fail_on: FailOn,
}

impl FileReport {
    /// Whether `diag` fails the check: an input error always does, any other
    /// finding when its severity is at or above the file's fail level.
    pub fn fails(&self, diag: &Diagnostic) -> bool {
        diag.is_input_error() || threshold(self.fail_on).is_some_and(|t| diag.severity >= t)
    }
}

impl Report {
    /// How many findings of every file have severity `s`.
    pub fn count(&self, s: Severity) -> usize {
        self.files
            .iter()
            .flat_map(|f| &f.diagnostics)
            .filter(|d| d.severity == s)
            .count()
    }
}

/// The lowest severity that fails under `fail_on` (None: nothing does).
pub fn threshold(fail_on: FailOn) -> Option<Severity> {
    match fail_on {
        FailOn::Error => Some(Severity::Error),
        FailOn::Warning => Some(Severity::Warning),
        FailOn::Info => Some(Severity::Info),
        FailOn::Never => None,
    }
}

#[derive(Clone, Debug, Default)]
pub struct Report {
    pub files: Vec<FileReport>,
    /// Every rule netlint knows (schema and syntax included), for renderers
    /// that describe rules (SARIF `tool.driver.rules`).
    pub rules: Vec<RuleMeta>,
}
