//! Paths relative to the repository root.

use super::files::display;
use std::path::{Path, PathBuf};

/// Names files relative to the repository root, as CI systems and baselines
/// want them: the root is the nearest folder at or above the working
/// directory that holds `.git`. A path outside the repository (or with no
/// repository at all) stays as the user gave it.
#[derive(Clone, Debug)]
pub struct RepoPaths {
    cwd: PathBuf,
    root: Option<PathBuf>,
}

impl RepoPaths {
    pub fn discover() -> RepoPaths {
        let cwd = std::env::current_dir().unwrap_or_default();
        let root = cwd
            .ancestors()
            .find(|d| d.join(".git").exists())
            .map(Path::to_path_buf);
        RepoPaths { cwd, root }
    }

    /// For tests: a fixed working directory and root.
    pub fn new(cwd: PathBuf, root: Option<PathBuf>) -> RepoPaths {
        RepoPaths { cwd, root }
    }

    /// `shown` (relative to the working directory, or absolute) relative
    /// to the repository root, with forward slashes.
    pub fn relative(&self, shown: &str) -> String {
        let Some(root) = &self.root else {
            return shown.to_string();
        };
        let abs = lexical_normalize(&self.cwd.join(shown));
        match abs.strip_prefix(lexical_normalize(root)) {
            Ok(rel) => display(rel),
            Err(_) => shown.to_string(),
        }
    }
}

/// Resolves `.` and `..` without touching the file system.
fn lexical_normalize(p: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push(c);
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// A path relative to the repository root, as every CI system wants it:
/// forward slashes, no `./` segments, no leading `./`.
pub fn normalize_path(path: &str) -> String {
    let path = path.replace('\\', "/");
    let absolute = path.starts_with('/');
    let parts: Vec<&str> = path
        .split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .collect();
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_repository_relative() {
        let repo = RepoPaths::new("/r/designs".into(), Some("/r".into()));
        assert_eq!(repo.relative("a.toml"), "designs/a.toml");
        assert_eq!(repo.relative("./sub/../b.toml"), "designs/b.toml");
        assert_eq!(repo.relative("../c.toml"), "c.toml");
        assert_eq!(repo.relative("/r/x/d.toml"), "x/d.toml");
        // Outside the repository: as given.
        assert_eq!(repo.relative("../../e.toml"), "../../e.toml");
        assert_eq!(repo.relative("/elsewhere/f.toml"), "/elsewhere/f.toml");
        let none = RepoPaths::new("/r".into(), None);
        assert_eq!(none.relative("a.toml"), "a.toml");
    }
}
