//! `netlint check`: find the designs, load each with its configuration, run
//! the rules, and decide the exit code.

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
}

/// The result of checking a set of paths.
pub struct CheckRun {
    pub report: Report,
    pub suppressed: Vec<(String, Suppressed)>,
    /// 0 clean, 1 findings at or above the fail level, 2 input errors.
    pub exit: i32,
}

/// Expands the paths: files as given, directories searched (sorted,
/// skipping hidden folders and `target`) for `*.toml` files holding a
/// `[design]` table.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let before = out.len();
            walk(p, &mut out);
            out[before..].sort();
        } else if p.is_file() {
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
    let files = collect(paths)?;
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
        let (diagnostics, suppressed, fail_on) = check_source(&file, config, settings);
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
    })
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
