//! Which files a run checks: files as given, directories searched for
//! designs.

use std::path::{Path, PathBuf};

/// Expands the paths: files as given, directories searched (sorted,
/// skipping hidden folders and `target`) for `*.toml` files holding a
/// `[design]` table.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    collect_designs(paths, false)
}

/// [`collect`], and with `designs_only` named files without a `[design]`
/// table are skipped too (`--designs-only`).
pub fn collect_designs(paths: &[PathBuf], designs_only: bool) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let before = out.len();
            walk(p, &mut out);
            out[before..].sort();
        } else if p.is_file() {
            if designs_only && !is_design(p) {
                continue;
            }
            out.push(p.clone());
        } else {
            return Err(format!("{}: no such file or directory", p.display()));
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        if p.is_dir() {
            if !name.starts_with('.') && name != "target" && name != "node_modules" {
                walk(&p, out);
            }
        } else if name.ends_with(".toml") && is_design(&p) {
            out.push(p);
        }
    }
}

pub(crate) fn is_design(p: &Path) -> bool {
    std::fs::read_to_string(p)
        .map(|t| t.lines().any(|l| l.trim_start().starts_with("[design]")))
        .unwrap_or(false)
}

pub(crate) fn display(p: &Path) -> String {
    let s = p.to_string_lossy().replace('\\', "/");
    s.strip_prefix("./").map(str::to_string).unwrap_or(s)
}
