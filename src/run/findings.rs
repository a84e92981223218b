//! What one `netlint check` run found, per file: the input every renderer
//! (human, json, sarif, github, junit, gitlab, markdown) turns into text.

use netlint_model::{Design, Diagnostic, FailOn, Label, RuleMeta, Severity, SourceFile};
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
    /// Files that labels point into without being reported themselves (the
    /// as-built side of `netlint diff`, the switch configs a design was
    /// imported from), so every renderer can place and show those lines.
    pub sources: Vec<SourceFile>,
}

impl Report {
    /// The file a label of a diagnostic reported in `own` is in: `own`, or
    /// the file the label names ([`Label::file`]), looked up among the
    /// reported files and [`Report::sources`]. `None` when the run did not
    /// keep that file's text.
    pub fn label_file<'a>(&'a self, own: &'a SourceFile, label: &Label) -> Option<&'a SourceFile> {
        match &label.file {
            None => Some(own),
            Some(path) if *path == own.path => Some(own),
            Some(path) => self
                .sources
                .iter()
                .chain(self.files.iter().map(|f| &f.file))
                .find(|f| f.path == *path),
        }
    }

    /// The path a label is in (its own file's when it names none).
    pub fn label_path<'a>(own: &'a SourceFile, label: &'a Label) -> &'a str {
        label.file.as_deref().unwrap_or(&own.path)
    }
}
