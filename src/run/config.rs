//! `netlint.toml`: which one applies to a design, and loading it.
//!
//! Discovery looks in the design's directory, then each directory above it,
//! and stops at the repository root (the first directory holding `.git`);
//! outside a repository it looks only in the design's directory. So a
//! `netlint.toml` in a shared parent (`/tmp`, a home directory) never
//! changes a run. `--config FILE` names the file instead; `--isolated`
//! uses none.

use super::files::{display, not_utf8, read_file};
use netlint_model::{parse_lint_settings, Diagnostic, LintSettings, Severity, SourceFile};
use netlint_rules::UNREADABLE;
use std::path::{Path, PathBuf};

pub const CONFIG_FILE: &str = "netlint.toml";

/// Which `netlint.toml` a run uses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ConfigChoice {
    /// The nearest one, up to the repository root.
    #[default]
    Discover,
    /// `--config FILE`.
    File(PathBuf),
    /// `--isolated`: none.
    Isolated,
}

/// The repository root above `dir`: the first directory holding `.git`.
fn repository_root(dir: &Path) -> Option<&Path> {
    dir.ancestors().find(|d| d.join(".git").exists())
}

/// The nearest `netlint.toml` in the design's directory or above it, up to
/// the repository root (outside a repository: the design's directory only).
pub fn find_config(design: &Path) -> Option<PathBuf> {
    let abs = std::path::absolute(design).ok()?;
    let dir = abs.parent()?;
    let root = repository_root(dir);
    for d in dir.ancestors() {
        let candidate = d.join(CONFIG_FILE);
        // Anything by that name but a directory is the config: a FIFO or a
        // dangling link is then reported as unreadable, not passed over.
        if std::fs::symlink_metadata(&candidate).is_ok_and(|m| !m.is_dir()) {
            return Some(candidate);
        }
        if root.is_none_or(|r| r == d) {
            break;
        }
    }
    None
}

/// The config `choice` gives for the design at `design`.
pub fn config_for(choice: &ConfigChoice, design: &Path) -> Option<PathBuf> {
    match choice {
        ConfigChoice::Discover => find_config(design),
        ConfigChoice::File(p) => Some(p.clone()),
        ConfigChoice::Isolated => None,
    }
}

/// A loaded `netlint.toml` with its text (diagnostics point into it).
#[derive(Clone, Debug)]
pub struct ConfigFile {
    pub file: SourceFile,
    pub settings: LintSettings,
    /// Its problems: syntax, schema, encoding, or an `unreadable` error.
    pub diagnostics: Vec<Diagnostic>,
}

impl ConfigFile {
    /// Whether a problem of the file makes the run an input error (exit 2).
    pub fn has_input_errors(&self) -> bool {
        self.diagnostics.iter().any(super::findings::is_input_error)
    }
}

/// Reads and parses the config at `path`, shown as `shown_as`. A file that
/// cannot be read or is not UTF-8 is a config with that one input error and
/// no settings. A file reached through a symbolic link to outside the
/// repository (outside the design's directory when there is none) keeps
/// its problems but not its text: no snippet of it is shown.
pub fn load_config(path: &Path, shown_as: String, max_file_size: u64) -> ConfigFile {
    let bytes = match read_file(path, max_file_size) {
        Ok(b) => b,
        Err(reason) => {
            let d = Diagnostic::new(
                UNREADABLE,
                Severity::Error,
                "",
                format!("cannot read {shown_as}: {reason}"),
            )
            .with_help("fix the file, or run without it (`--isolated`, or `--config FILE`)");
            return ConfigFile {
                file: SourceFile::new(shown_as, String::new()),
                settings: LintSettings::default(),
                diagnostics: vec![d],
            };
        }
    };
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let (file, d) = not_utf8(shown_as, e);
            return ConfigFile {
                file,
                settings: LintSettings::default(),
                diagnostics: vec![d],
            };
        }
    };
    let file = SourceFile::new(shown_as, text);
    let (settings, mut diagnostics) = parse_lint_settings(&file);
    if links_out_of_repository(path) {
        for d in &mut diagnostics {
            d.primary = None;
            d.related.clear();
        }
        let hidden = SourceFile::new(file.path.clone(), String::new());
        return ConfigFile {
            file: hidden,
            settings,
            diagnostics,
        };
    }
    ConfigFile {
        file,
        settings,
        diagnostics,
    }
}

/// Whether `path` is a symbolic link (or lies under one) whose target is
/// outside the repository holding the link (outside the link's directory
/// when there is no repository).
fn links_out_of_repository(path: &Path) -> bool {
    let Ok(abs) = std::path::absolute(path) else {
        return false;
    };
    let Ok(real) = std::fs::canonicalize(&abs) else {
        return false;
    };
    if real == abs {
        return false;
    }
    let Some(dir) = abs.parent() else {
        return false;
    };
    let boundary = repository_root(dir).unwrap_or(dir);
    let boundary = std::fs::canonicalize(boundary).unwrap_or_else(|_| boundary.to_path_buf());
    !real.starts_with(boundary)
}

/// The config path as reports show it: relative to the working directory
/// when below it.
pub fn shown(p: &Path) -> String {
    let rel = match std::env::current_dir() {
        Ok(cwd) => p
            .strip_prefix(&cwd)
            .map(Path::to_path_buf)
            .unwrap_or_else(|_| p.to_path_buf()),
        Err(_) => p.to_path_buf(),
    };
    display(&rel)
}
