//! `netlint.toml` discovery: the nearest one beside or above a design.

use netlint_model::{parse_lint_settings, Diagnostic, LintSettings, SourceFile};
use std::path::{Path, PathBuf};

pub const CONFIG_FILE: &str = "netlint.toml";

/// The nearest `netlint.toml` in the design's folder or any folder above it.
pub fn find_config(design: &Path) -> Option<PathBuf> {
    let abs = std::path::absolute(design).ok()?;
    let mut dir = abs.parent();
    while let Some(d) = dir {
        let candidate = d.join(CONFIG_FILE);
        if candidate.is_file() {
            return Some(candidate);
        }
        dir = d.parent();
    }
    None
}

/// A loaded `netlint.toml` with its text (diagnostics point into it).
pub struct ConfigFile {
    pub file: SourceFile,
    pub settings: LintSettings,
    pub diagnostics: Vec<Diagnostic>,
}

pub fn load_config(path: &Path, shown_as: String) -> std::io::Result<ConfigFile> {
    let text = std::fs::read_to_string(path)?;
    let file = SourceFile::new(shown_as, text);
    let (settings, diagnostics) = parse_lint_settings(&file);
    Ok(ConfigFile {
        file,
        settings,
        diagnostics,
    })
}
