//! What several commands share: the list format argument, the terminal,
//! and loading one design.

use crate::render;
use crate::run::{FileReport, Report};
use clap::ValueEnum;
use netlint_model::{load, Design, Diagnostic, Severity, SourceFile, SCHEMA, SYNTAX};
use std::io::{IsTerminal, Write};
use std::path::Path;

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListFormat {
    Human,
    Json,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// Whether to colour standard output.
pub fn use_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    }
}

/// The terminal's width (COLUMNS, at least 40), else 100.
pub fn terminal_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .filter(|w: &usize| *w >= 40)
        .unwrap_or(100)
}

/// A design read and loaded whole, for the commands that analyse one.
pub(crate) struct LoadedDesign {
    /// The path as given, with forward slashes.
    pub shown: String,
    pub file: SourceFile,
    pub design: Design,
}

/// Reads and loads the design at `path`. Input errors (syntax, schema) are
/// written to `err` with their source lines, as `check` shows them, and
/// give `Ok(None)`: the command exits 2 without analysing anything. A file
/// that cannot be read is `Err`.
pub(crate) fn load_design(
    path: &Path,
    err: &mut dyn Write,
) -> Result<Option<LoadedDesign>, String> {
    let shown = path.to_string_lossy().replace('\\', "/");
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {shown}: {}", crate::run::plain::io_error(&e)))?;
    let file = SourceFile::new(shown.clone(), text);
    let loaded = load(&file);
    let input_errors: Vec<Diagnostic> = loaded
        .diagnostics
        .into_iter()
        .filter(|d| d.severity == Severity::Error && (d.rule == SYNTAX || d.rule == SCHEMA))
        .collect();
    match loaded.design {
        Some(design) if input_errors.is_empty() => Ok(Some(LoadedDesign {
            shown,
            file,
            design,
        })),
        _ => {
            let report = Report {
                files: vec![FileReport {
                    file,
                    diagnostics: input_errors,
                }],
                rules: Vec::new(),
            };
            let options = render::human::HumanOptions {
                color: false,
                width: 100,
            };
            let _ = err.write_all(render::human::render(&report, &options).as_bytes());
            Ok(None)
        }
    }
}
