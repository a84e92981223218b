//! `netlint check`: find the designs, load each with its configuration, run
//! the rules, and decide the exit code.

use super::baseline_file::{Baseline, BaselineEntry};
use super::config::{find_config, load_config, ConfigFile};
use super::files::{collect_designs, display};
use super::findings::{FileReport, Report};
use super::repo::{relative, RepoPaths};
use netlint_model::{load, Diagnostic, FailOn, Severity, SourceFile, SCHEMA, SYNTAX};
use netlint_rules::{check, input_rules, registry, RuleConfig, Suppressed};
use std::collections::BTreeMap;
use std::path::PathBuf;

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
            Err(e) => return Err(format!("{shown}: {}", super::plain::io_error(&e))),
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
