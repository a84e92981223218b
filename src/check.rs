//! `netlint check`: find the designs, load each with its configuration, run
//! the rules, and decide the exit code.

use crate::commands::baseline::{Baseline, BaselineEntry};
use crate::config::{find_config, load_config, ConfigFile};
use crate::report::{FileReport, Report};
use netlint_model::{load, Diagnostic, FailOn, Severity, SourceFile, SCHEMA, SYNTAX};
use netlint_rules::{check, input_rules, registry, RuleConfig, Suppressed};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What the command line adds on top of the files' own settings.
#[derive(Clone, Debug, Default)]
pub struct CheckSettings {
    pub fail_on: Option<FailOn>,
    /// `--select`: rule ids or categories; empty = every rule.
    pub select: Vec<String>,
    /// `--ignore`: rule ids or categories.
    pub ignore: Vec<String>,
    /// `--designs-only`: skip named files without a `[design]` table.
    pub designs_only: bool,
    /// `--baseline`: findings to hide.
    pub baseline: Option<Baseline>,
}

/// The result of checking a set of paths.
pub struct CheckRun {
    pub report: Report,
    pub suppressed: Vec<(String, Suppressed)>,
    /// 0 clean, 1 findings at or above the fail level, 2 input errors.
    pub exit: i32,
    /// With a baseline: what it hid and which of its entries are fixed.
    pub baselined: Option<BaselineOutcome>,
}

/// What a baseline did to a run.
#[derive(Clone, Debug, Default)]
pub struct BaselineOutcome {
    /// Findings hidden because the baseline lists them.
    pub hidden: usize,
    /// Entries of the baseline, for files of this run, that no finding
    /// matched any more: fixed, and can be dropped from the baseline.
    pub fixed: Vec<BaselineEntry>,
}

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

fn is_design(p: &Path) -> bool {
    std::fs::read_to_string(p)
        .map(|t| t.lines().any(|l| l.trim_start().starts_with("[design]")))
        .unwrap_or(false)
}

fn display(p: &Path) -> String {
    let s = p.to_string_lossy().replace('\\', "/");
    s.strip_prefix("./").map(str::to_string).unwrap_or(s)
}

fn is_input_error(d: &Diagnostic) -> bool {
    d.severity == Severity::Error && (d.rule == SYNTAX || d.rule == SCHEMA)
}

fn threshold(f: FailOn) -> Option<Severity> {
    match f {
        FailOn::Error => Some(Severity::Error),
        FailOn::Warning => Some(Severity::Warning),
        FailOn::Info => Some(Severity::Info),
        FailOn::Never => None,
    }
}

/// Checks one design text (no file system): what tests, fuzzing and the
/// benchmarks call.
pub fn check_source(
    file: &SourceFile,
    config: Option<&ConfigFile>,
    settings: &CheckSettings,
) -> (Vec<Diagnostic>, Vec<Suppressed>, FailOn) {
    let loaded = load(file);
    let mut diagnostics = loaded.diagnostics;
    let mut suppressed = Vec::new();
    let mut rule_config = RuleConfig::default();
    let mut fail_on = FailOn::Warning;
    if let Some(c) = config {
        // Unknown ids in netlint.toml are reported against netlint.toml.
        let _ = rule_config.apply(&c.settings.rules);
        if let Some(f) = &c.settings.fail_on {
            fail_on = f.value;
        }
    }
    if let Some(design) = &loaded.design {
        diagnostics.extend(rule_config.apply(&design.lint.rules));
        if let Some(f) = &design.lint.fail_on {
            fail_on = f.value;
        }
        // The command line has the last word; `run_check` has already
        // rejected unknown names.
        let _ = rule_config.select(&settings.select, &settings.ignore);
        if !diagnostics.iter().any(is_input_error) {
            let outcome = check(design, &rule_config);
            diagnostics.extend(outcome.diagnostics);
            suppressed = outcome.suppressed;
        }
    }
    if let Some(f) = settings.fail_on {
        fail_on = f;
    }
    diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    (diagnostics, suppressed, fail_on)
}

pub fn run_check(paths: &[PathBuf], settings: &CheckSettings) -> Result<CheckRun, String> {
    RuleConfig::default().select(&settings.select, &settings.ignore)?;
    let files = collect_designs(paths, settings.designs_only)?;
    let repo = RepoPaths::discover();
    let mut matcher = settings.baseline.as_ref().map(|b| b.matcher());
    let mut report = Report {
        files: Vec::new(),
        rules: input_rules()
            .into_iter()
            .chain(registry().iter().map(|r| r.meta))
            .collect(),
    };
    let mut configs: BTreeMap<PathBuf, Option<ConfigFile>> = BTreeMap::new();
    let mut config_reports: Vec<FileReport> = Vec::new();
    let mut all_suppressed = Vec::new();
    let mut exit = 0;
    for path in files {
        let shown = display(&path);
        let text = match std::fs::read(&path) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(t) => t,
                Err(_) => {
                    let file = SourceFile::new(shown, String::new());
                    let d =
                        Diagnostic::new(SYNTAX, Severity::Error, "", "the file is not UTF-8 text")
                            .at(Default::default(), "")
                            .with_help("save the design as UTF-8");
                    report.files.push(FileReport {
                        file,
                        diagnostics: vec![d],
                    });
                    exit = 2;
                    continue;
                }
            },
            Err(e) => return Err(format!("{shown}: {e}")),
        };
        let config_path = find_config(&path);
        let config = match &config_path {
            Some(cp) => {
                if !configs.contains_key(cp) {
                    let loaded = load_config(cp, display(&relative(cp))).ok();
                    if let Some(c) = &loaded {
                        if !c.diagnostics.is_empty() {
                            config_reports.push(FileReport {
                                file: c.file.clone(),
                                diagnostics: c.diagnostics.clone(),
                            });
                        }
                        let mut rc = RuleConfig::default();
                        let unknown = rc.apply(&c.settings.rules);
                        if !unknown.is_empty() {
                            match config_reports
                                .iter_mut()
                                .find(|r| r.file.path == c.file.path)
                            {
                                Some(r) => r.diagnostics.extend(unknown),
                                None => config_reports.push(FileReport {
                                    file: c.file.clone(),
                                    diagnostics: unknown,
                                }),
                            }
                        }
                    }
                    configs.insert(cp.clone(), loaded);
                }
                configs.get(cp).and_then(|c| c.as_ref())
            }
            None => None,
        };
        let file = SourceFile::new(shown.clone(), text);
        let (mut diagnostics, suppressed, fail_on) = check_source(&file, config, settings);
        if let Some(m) = &mut matcher {
            m.filter(&repo.relative(&shown), &mut diagnostics);
        }
        if diagnostics.iter().any(is_input_error) {
            exit = 2;
        } else if let Some(t) = threshold(fail_on) {
            if diagnostics.iter().any(|d| d.severity >= t) && exit == 0 {
                exit = 1;
            }
        }
        all_suppressed.extend(suppressed.into_iter().map(|s| (shown.clone(), s)));
        report.files.push(FileReport { file, diagnostics });
    }
    for r in &config_reports {
        if r.diagnostics.iter().any(is_input_error) {
            exit = 2;
        }
    }
    report.files.extend(config_reports);
    Ok(CheckRun {
        report,
        suppressed: all_suppressed,
        exit,
        baselined: matcher.map(|m| BaselineOutcome {
            hidden: m.hidden(),
            fixed: m.fixed(),
        }),
    })
}

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

/// A path relative to the current directory when it lies below it.
fn relative(p: &Path) -> PathBuf {
    match std::env::current_dir() {
        Ok(cwd) => p
            .strip_prefix(&cwd)
            .map(Path::to_path_buf)
            .unwrap_or_else(|_| p.to_path_buf()),
        Err(_) => p.to_path_buf(),
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
