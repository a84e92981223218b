//! `netlint check`: find the designs, load each with its configuration, run
//! the rules, and decide the exit code.

use super::baseline_file::{Baseline, BaselineEntry};
use super::config::{config_for, load_config, shown as config_shown, ConfigChoice, ConfigFile};
use super::configs::{self, is_import_input, IMPORTED};
use super::files::{collect_designs, display, not_utf8, Input, ReadOptions, DEFAULT_MAX_FILE_SIZE};
use super::findings::{threshold, FileReport, Report};
use super::repo::RepoPaths;
use netlint_model::{load, Design, Diagnostic, Element, FailOn, Severity, SourceFile};
use netlint_rules::{
    check_with_context, input_rules, registry, RuleConfig, Suppressed, UNREADABLE,
};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

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
    /// `--allow-empty`: finding no design is not an input error.
    pub allow_empty: bool,
    /// `--max-file-size` (default [`DEFAULT_MAX_FILE_SIZE`]).
    pub max_file_size: Option<u64>,
    /// `--stdin-filename`: the name standard input (`-`) is shown as.
    pub stdin_name: Option<String>,
    /// `--from`: the kind every input that is not a design is read as.
    pub from: Option<netlint_import::Kind>,
    /// `--config` / `--isolated`.
    pub config: ConfigChoice,
    /// `--baseline`: findings to hide.
    pub baseline: Option<Baseline>,
    /// Keep each loaded design in its [`FileReport`] (for renderers that
    /// draw the design: Markdown).
    pub keep_designs: bool,
    /// `--stack-as-unit`: every stack fails as a whole (over the files'
    /// `[netlint] stack_as_unit`).
    pub stack_as_unit: bool,
    /// The process exits after this run: when it checks a single design,
    /// the design and its analyses are left to the operating system
    /// (`std::mem::forget`) instead of freed allocation by allocation,
    /// about a twentieth of a 10,000-host check (docs/performance.md).
    /// Several designs are freed one by one, so memory stays that of the
    /// largest.
    pub leave_to_exit: bool,
}

/// The result of checking a set of paths.
pub struct CheckRun {
    pub report: Report,
    pub suppressed: Vec<(String, Suppressed)>,
    /// 0 clean, 1 findings at or above the fail level, 2 input errors.
    pub exit: i32,
    /// With a baseline: what it hid and which of its entries are fixed.
    pub baselined: Option<BaselineOutcome>,
    /// Every file read from disk (designs and configs): what `-o` must not
    /// overwrite.
    pub read: Vec<PathBuf>,
    /// What the directory search passed over on purpose, and why.
    pub skipped: Vec<String>,
    /// Running-configs, LLDP tables and cabling checked as one imported
    /// design: per file what was understood, and the import's notes (for
    /// standard error).
    pub import_summary: Vec<String>,
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

/// Checks one design text (no file system): what tests, fuzzing and the
/// benchmarks call.
pub fn check_source(
    file: &SourceFile,
    config: Option<&ConfigFile>,
    settings: &CheckSettings,
) -> (Vec<Diagnostic>, Vec<Suppressed>, FailOn) {
    let (diagnostics, suppressed, fail_on, _) = check_file(file, config, settings);
    (diagnostics, suppressed, fail_on)
}

/// The run's exit code after one more file: 2 once a file has an input
/// error, else 1 once a finding reaches the file's fail level.
fn exit_with(exit: i32, diagnostics: &[Diagnostic], fail_on: FailOn) -> i32 {
    if diagnostics.iter().any(Diagnostic::is_input_error) {
        2
    } else if exit == 0
        && threshold(fail_on).is_some_and(|t| diagnostics.iter().any(|d| d.severity >= t))
    {
        1
    } else {
        exit
    }
}

/// What [`check_file_with`] does with the analyses once the findings are
/// out, and the caller with the design.
#[derive(Clone, Copy, PartialEq, Eq)]
enum AfterCheck {
    Free,
    /// Left to the operating system: the process exits next.
    Leave,
}

/// The design a file report keeps (`keep`), or none; with
/// [`AfterCheck::Leave`] a design not kept is not freed.
fn keep_design(design: Option<Design>, keep: bool, after: AfterCheck) -> Option<Arc<Design>> {
    match design {
        Some(d) if keep => Some(Arc::new(d)),
        Some(d) if after == AfterCheck::Leave => {
            std::mem::forget(d);
            None
        }
        _ => None,
    }
}

/// [`check_source`], and the design it loaded (the language server keeps
/// it for navigation and hover).
pub fn check_file(
    file: &SourceFile,
    config: Option<&ConfigFile>,
    settings: &CheckSettings,
) -> (Vec<Diagnostic>, Vec<Suppressed>, FailOn, Option<Design>) {
    check_file_with(file, config, settings, AfterCheck::Free)
}

fn check_file_with(
    file: &SourceFile,
    config: Option<&ConfigFile>,
    settings: &CheckSettings,
    after: AfterCheck,
) -> (Vec<Diagnostic>, Vec<Suppressed>, FailOn, Option<Design>) {
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
        if let Some(s) = &c.settings.stack_as_unit {
            rule_config.stack_as_unit = Some(s.value);
        }
    }
    if let Some(design) = &loaded.design {
        diagnostics.extend(rule_config.apply(&design.lint.rules));
        if let Some(f) = &design.lint.fail_on {
            fail_on = f.value;
        }
        if let Some(s) = &design.lint.stack_as_unit {
            rule_config.stack_as_unit = Some(s.value);
        }
        if settings.stack_as_unit {
            rule_config.stack_as_unit = Some(true);
        }
        // The command line has the last word; `run_check` has already
        // rejected unknown names.
        let _ = rule_config.select(&settings.select, &settings.ignore);
        if !diagnostics.iter().any(Diagnostic::is_input_error) {
            let (outcome, cx) = check_with_context(design, &rule_config);
            diagnostics.extend(outcome.diagnostics);
            suppressed = outcome.suppressed;
            if after == AfterCheck::Leave {
                std::mem::forget(cx);
            }
        }
    }
    if let Some(f) = settings.fail_on {
        fail_on = f;
    }
    diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    (diagnostics, suppressed, fail_on, loaded.design)
}

pub fn run_check(paths: &[PathBuf], settings: &CheckSettings) -> Result<CheckRun, String> {
    RuleConfig::default().select(&settings.select, &settings.ignore)?;
    let read = ReadOptions {
        designs_only: settings.designs_only,
        max_file_size: settings.max_file_size.unwrap_or(DEFAULT_MAX_FILE_SIZE),
        stdin_name: settings.stdin_name.clone(),
        any_file: false,
    };
    // Get-SDDCDiagnosticInfo folders and folders of Format-List text are
    // import inputs, read whole.
    let (host_dirs, paths) = configs::split_host_dirs(paths);
    let collected = collect_designs(&paths, &read);
    if collected.inputs.is_empty()
        && collected.unreadable.is_empty()
        && host_dirs.is_empty()
        && !settings.allow_empty
    {
        let named: Vec<String> = paths.iter().map(|p| display(p)).collect();
        return Err(format!(
            "no design file found in {} (a design is a *.toml file with a [design] table; \
             give --allow-empty to accept a run with none)",
            named.join(", ")
        ));
    }
    let (config_inputs, design_inputs): (Vec<Input>, Vec<Input>) = collected
        .inputs
        .into_iter()
        .partition(|i| is_import_input(&i.shown, &i.bytes));
    // One design checked (a file, or the configs imported as one): its
    // analyses need not be freed before the process exits.
    let designs =
        design_inputs.len() + usize::from(!config_inputs.is_empty() || !host_dirs.is_empty());
    let after = if settings.leave_to_exit && designs == 1 {
        AfterCheck::Leave
    } else {
        AfterCheck::Free
    };
    let repo = RepoPaths::discover();
    let mut matcher = settings.baseline.as_ref().map(|b| b.matcher());
    let mut report = Report {
        sources: Vec::new(),
        files: Vec::new(),
        rules: input_rules()
            .into_iter()
            .chain(registry().iter().map(|r| r.meta))
            .collect(),
    };
    let mut configs: BTreeMap<PathBuf, ConfigFile> = BTreeMap::new();
    let mut config_reports: Vec<FileReport> = Vec::new();
    let mut all_suppressed = Vec::new();
    let mut read_paths: Vec<PathBuf> = Vec::new();
    let mut exit = 0;
    for u in collected.unreadable {
        let d = Diagnostic::new(
            UNREADABLE,
            Severity::Error,
            Element::Design,
            format!("cannot read {}: {}", u.shown, u.reason),
        );
        report.files.push(FileReport {
            file: SourceFile::new(u.shown, String::new()),
            diagnostics: vec![d],
            design: None,
            fail_on: settings.fail_on.unwrap_or(FailOn::Warning),
        });
        exit = 2;
    }
    for input in design_inputs {
        let shown = input.shown;
        if let Some(p) = &input.path {
            read_paths.push(p.clone());
        }
        let text = match String::from_utf8(input.bytes) {
            Ok(t) => t,
            Err(e) => {
                let (file, d) = not_utf8(shown, e);
                report.files.push(FileReport {
                    file,
                    diagnostics: vec![d],
                    design: None,
                    fail_on: settings.fail_on.unwrap_or(FailOn::Warning),
                });
                exit = 2;
                continue;
            }
        };
        // Standard input finds its netlint.toml from the name it is given,
        // else from the working directory.
        let at = match &input.path {
            Some(p) => p.clone(),
            None => PathBuf::from(settings.stdin_name.as_deref().unwrap_or("<stdin>")),
        };
        let config = config_of(
            settings,
            &at,
            &read,
            &mut configs,
            &mut config_reports,
            &mut read_paths,
        )
        .and_then(|cp| configs.get(&cp));
        let file = SourceFile::new(shown.clone(), text);
        let (mut diagnostics, suppressed, fail_on, design) =
            check_file_with(&file, config, settings, after);
        let design = keep_design(design, settings.keep_designs, after);
        if let Some(m) = &mut matcher {
            m.filter(&repo.relative(&shown), &mut diagnostics);
        }
        exit = exit_with(exit, &diagnostics, fail_on);
        all_suppressed.extend(suppressed.into_iter().map(|s| (shown.clone(), s)));
        report.files.push(FileReport {
            file,
            diagnostics,
            design,
            fail_on,
        });
    }
    let mut import_summary = Vec::new();
    if !config_inputs.is_empty() || !host_dirs.is_empty() {
        read_paths.extend(config_inputs.iter().filter_map(|i| i.path.clone()));
        read_paths.extend(host_dirs.iter().cloned());
        // netlint.toml is looked up from the first config's place.
        let at = config_inputs
            .iter()
            .find_map(|i| i.path.clone())
            .or_else(|| host_dirs.first().cloned())
            .unwrap_or_else(|| PathBuf::from(settings.stdin_name.as_deref().unwrap_or("<stdin>")));
        let set = configs::import_inputs(
            config_inputs,
            &host_dirs,
            settings.from,
            read.max_file_size,
            "imported",
        );
        import_summary = set.summary;
        for (file, e) in set.errors {
            let d = configs::input_error(&file, &e);
            report.files.push(FileReport {
                file,
                diagnostics: vec![d],
                design: None,
                fail_on: settings.fail_on.unwrap_or(FailOn::Warning),
            });
            exit = 2;
        }
        if let Some(imported) = set.written.map(|w| w.imported) {
            let config = config_of(
                settings,
                &at,
                &read,
                &mut configs,
                &mut config_reports,
                &mut read_paths,
            )
            .and_then(|cp| configs.get(&cp));
            let file = SourceFile::new(IMPORTED, imported.toml);
            let (mut diagnostics, suppressed, fail_on, design) =
                check_file_with(&file, config, settings, after);
            for d in &mut diagnostics {
                configs::remap(d, &imported.map, &set.sources);
            }
            configs::sort(&mut diagnostics);
            let design = keep_design(design, settings.keep_designs, after);
            if let Some(m) = &mut matcher {
                m.filter(IMPORTED, &mut diagnostics);
            }
            exit = exit_with(exit, &diagnostics, fail_on);
            all_suppressed.extend(suppressed.into_iter().map(|s| (IMPORTED.to_string(), s)));
            report.files.push(FileReport {
                file,
                diagnostics,
                design,
                fail_on,
            });
        }
        report.sources.extend(set.sources);
    }
    for r in &config_reports {
        if r.diagnostics.iter().any(Diagnostic::is_input_error) {
            exit = 2;
        }
    }
    report.files.extend(config_reports);
    // docs/json.md: sorted by file, then position and rule (within a file
    // they already are).
    report.files.sort_by(|a, b| a.file.path.cmp(&b.file.path));
    all_suppressed.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(CheckRun {
        report,
        suppressed: all_suppressed,
        exit,
        baselined: matcher.map(|m| BaselineOutcome {
            hidden: m.hidden(),
            fixed: m.fixed(),
        }),
        read: read_paths,
        skipped: collected.skipped,
        import_summary,
    })
}

/// The `netlint.toml` that applies at `at`, loaded once per run (its own
/// input errors reported once): its path, the key into `configs`.
fn config_of(
    settings: &CheckSettings,
    at: &std::path::Path,
    read: &ReadOptions,
    configs: &mut BTreeMap<PathBuf, ConfigFile>,
    config_reports: &mut Vec<FileReport>,
    read_paths: &mut Vec<PathBuf>,
) -> Option<PathBuf> {
    let cp = config_for(&settings.config, at)?;
    if !configs.contains_key(&cp) {
        let c = load_config(&cp, config_shown(&cp), read.max_file_size);
        read_paths.push(cp.clone());
        let mut diagnostics = c.diagnostics.clone();
        let mut rc = RuleConfig::default();
        diagnostics.extend(rc.apply(&c.settings.rules));
        if !diagnostics.is_empty() {
            config_reports.push(FileReport {
                file: c.file.clone(),
                diagnostics,
                design: None,
                fail_on: settings.fail_on.unwrap_or(FailOn::Warning),
            });
        }
        configs.insert(cp.clone(), c);
    }
    Some(cp)
}
