//! What several commands share: the list format argument, the terminal,
//! and loading one design.

use crate::render;
use crate::run::config::shown as config_shown;
use crate::run::files::not_utf8;
use crate::run::files::{parse_size, read_file};
use crate::run::{
    config_for, load_config, CheckRun, ConfigChoice, ConfigFile, FileReport, RepoPaths, Report,
    DEFAULT_MAX_FILE_SIZE,
};
use clap::ValueEnum;
use netlint_model::{load, Design, Diagnostic, FailOn, SourceFile};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

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

/// Whether to colour standard output. With `auto`: not when `NO_COLOR` is
/// set (not empty), which wins; else when `FORCE_COLOR` or
/// `CLICOLOR_FORCE` is set (not empty, not `0`, and for `FORCE_COLOR` not
/// `false`), even into a pipe (CI logs colour ANSI codes); else when
/// standard output is a terminal.
pub fn use_color(choice: ColorChoice) -> bool {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            if var("NO_COLOR").is_some() {
                return false;
            }
            let forced = var("FORCE_COLOR").is_some_and(|v| v != "0" && v != "false")
                || var("CLICOLOR_FORCE").is_some_and(|v| v != "0");
            forced || std::io::stdout().is_terminal()
        }
    }
}

/// The width to wrap human output at: COLUMNS when set, else the width of
/// the terminal standard output or standard error is (bash does not export
/// COLUMNS), else 100; never below 40.
pub fn terminal_width() -> usize {
    let terminal = || {
        terminal_size::terminal_size_of(std::io::stdout())
            .or_else(|| terminal_size::terminal_size_of(std::io::stderr()))
            .map(|(w, _)| usize::from(w.0))
    };
    width_from(std::env::var("COLUMNS").ok().as_deref(), terminal)
}

fn width_from(columns: Option<&str>, terminal: impl FnOnce() -> Option<usize>) -> usize {
    columns
        .and_then(|c| c.trim().parse().ok())
        .or_else(terminal)
        .filter(|w: &usize| *w >= 40)
        .unwrap_or(100)
}

#[cfg(test)]
mod width_tests {
    use super::width_from;

    #[test]
    fn columns_then_the_terminal_then_100() {
        assert_eq!(width_from(Some("120"), || Some(180)), 120);
        assert_eq!(width_from(None, || Some(180)), 180);
        assert_eq!(width_from(Some("wide"), || Some(180)), 180);
        assert_eq!(width_from(None, || None), 100);
        // Too narrow to draw in: the default.
        assert_eq!(width_from(None, || Some(20)), 100);
    }
}

/// `--config` / `--isolated`: which `netlint.toml` a command uses.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ConfigArgs {
    /// Use this netlint.toml instead of searching for one (the search looks
    /// beside the design and above it, up to the repository root).
    #[arg(long, value_name = "FILE", conflicts_with = "isolated")]
    pub config: Option<PathBuf>,
    /// Use no netlint.toml at all.
    #[arg(long)]
    pub isolated: bool,
}

impl ConfigArgs {
    pub fn choice(&self) -> ConfigChoice {
        match (&self.config, self.isolated) {
            (Some(p), _) => ConfigChoice::File(p.clone()),
            (None, true) => ConfigChoice::Isolated,
            (None, false) => ConfigChoice::Discover,
        }
    }
}

/// How `check` and `baseline` find and read their files.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ReadArgs {
    /// Read at most this much of one file (bytes, or with K, M, G); a
    /// larger file is an `unreadable` input error. Default 16M.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub max_file_size: Option<u64>,
    /// Finding no design is not an error (exit 0 instead of 2), for hooks
    /// that pass whatever changed.
    #[arg(long)]
    pub allow_empty: bool,
    /// The name standard input (`-`) is reported as; it also decides which
    /// netlint.toml applies.
    #[arg(long, value_name = "NAME")]
    pub stdin_filename: Option<String>,
}

/// What the directory search passed over on purpose, one note each on
/// standard error.
pub(crate) fn note_skipped(skipped: &[String], err: &mut dyn Write) {
    for s in skipped {
        let _ = writeln!(err, "netlint: skipped {s}");
    }
}

/// Writes input errors to `err` with their source lines, as `check` shows them.
pub(crate) fn show_input_errors(files: Vec<FileReport>, err: &mut dyn Write) {
    let report = Report {
        sources: Vec::new(),
        files,
        rules: Vec::new(),
    };
    let options = render::human::HumanOptions {
        color: false,
        width: 100,
        rule_links: false,
        summary: true,
    };
    let _ = err.write_all(render::human::render(&report, &options).as_bytes());
}

/// The `netlint.toml` for the design at `design`, as `check` would use it.
/// `Err(())`: it has input errors, already written to `err` (exit 2).
pub(crate) fn config_for_design(
    design: &Path,
    args: &ConfigArgs,
    err: &mut dyn Write,
) -> Result<Option<ConfigFile>, ()> {
    let Some(path) = config_for(&args.choice(), design) else {
        return Ok(None);
    };
    let c = load_config(&path, config_shown(&path), DEFAULT_MAX_FILE_SIZE);
    if c.has_input_errors() {
        show_input_errors(
            vec![FileReport {
                file: c.file.clone(),
                diagnostics: c.diagnostics.clone(),
                design: None,
                fail_on: netlint_model::FailOn::Warning,
            }],
            err,
        );
        return Err(());
    }
    Ok(Some(c))
}

/// A design read and loaded whole, for the commands that analyse one.
pub(crate) struct LoadedDesign {
    /// The path as given, with forward slashes.
    pub shown: String,
    pub file: SourceFile,
    pub design: Design,
    /// Its `netlint.toml`, if any.
    pub config: Option<ConfigFile>,
}

/// Reads and loads the design at `path` and its `netlint.toml`. Input
/// errors (syntax, schema, encoding, a malformed netlint.toml) are written
/// to `err` with their source lines, as `check` shows them, and give
/// `Ok(None)`: the command exits 2 without analysing anything. A file that
/// cannot be read is `Err`.
pub(crate) fn load_design(
    path: &Path,
    config: &ConfigArgs,
    err: &mut dyn Write,
) -> Result<Option<LoadedDesign>, String> {
    let shown = path.to_string_lossy().replace('\\', "/");
    let bytes = read_file(path, DEFAULT_MAX_FILE_SIZE)
        .map_err(|reason| format!("cannot read {shown}: {reason}"))?;
    let Ok(config) = config_for_design(path, config, err) else {
        return Ok(None);
    };
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let (file, d) = not_utf8(shown, e);
            show_input_errors(
                vec![FileReport {
                    file,
                    diagnostics: vec![d],
                    design: None,
                    fail_on: netlint_model::FailOn::Warning,
                }],
                err,
            );
            return Ok(None);
        }
    };
    let file = SourceFile::new(shown.clone(), text);
    let loaded = load(&file);
    let input_errors: Vec<Diagnostic> = loaded
        .diagnostics
        .into_iter()
        .filter(|d| d.is_input_error())
        .collect();
    match loaded.design {
        Some(design) if input_errors.is_empty() => Ok(Some(LoadedDesign {
            shown,
            file,
            design,
            config,
        })),
        _ => {
            show_input_errors(
                vec![FileReport {
                    file,
                    diagnostics: input_errors,
                    design: None,
                    fail_on: netlint_model::FailOn::Warning,
                }],
                err,
            );
            Ok(None)
        }
    }
}

/// The values of `--select`, `--ignore` and `explain`: any string, checked
/// where it is used (`RuleConfig::select` and `explain` name the nearest
/// rule or category), so clap accepts everything it accepted before; but
/// the rule ids (and for selectors the categories) are this argument's
/// possible values, which the completion scripts offer. Hide them from
/// `--help` and the man page with `hide_possible_values`.
#[derive(Clone, Copy, Debug)]
pub struct RuleNames {
    /// Offer the category names too (`--select`, `--ignore`).
    pub categories: bool,
}

impl RuleNames {
    /// Rule ids and category names.
    pub const SELECTORS: RuleNames = RuleNames { categories: true };
    /// Rule ids only.
    pub const IDS: RuleNames = RuleNames { categories: false };
}

impl clap::builder::TypedValueParser for RuleNames {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        use clap::builder::PossibleValue;
        let mut metas: Vec<netlint_model::RuleMeta> = netlint_rules::registry()
            .iter()
            .map(|r| r.meta)
            .chain(
                netlint_rules::drift::drift_registry()
                    .iter()
                    .map(|r| r.rule.meta),
            )
            .chain(netlint_rules::input_rules())
            .collect();
        metas.sort_by_key(|m| m.id);
        let mut values: Vec<PossibleValue> = metas
            .iter()
            .map(|m| PossibleValue::new(m.id.as_str()).help(m.summary))
            .collect();
        if self.categories {
            values.extend(netlint_model::Category::ALL.into_iter().map(|c| {
                PossibleValue::new(c.as_str()).help(format!("every rule of category `{c}`"))
            }));
        }
        Some(Box::new(values.into_iter()))
    }
}

// The output formats of a check run, shared by `netlint check` and
// `netlint diff` (both render a `CheckRun`).

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Source snippets with labels (the default).
    Human,
    /// One line per finding: `file:line:col: severity[rule] message`.
    Concise,
    /// netlint's JSON report (docs/json.md).
    Json,
    /// SARIF 2.1.0, for GitHub code scanning.
    Sarif,
    /// GitHub Actions workflow commands: annotations on the pull request.
    Github,
    /// JUnit XML, for the test tabs of GitLab, Azure DevOps and Jenkins.
    Junit,
    /// GitLab code-quality JSON.
    Gitlab,
    /// Markdown for a pull-request comment: a table of the findings and a
    /// Mermaid diagram of what spanning-tree and redundancy findings are about.
    Markdown,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailOnArg {
    Error,
    Warning,
    Info,
    Never,
}

impl From<FailOnArg> for FailOn {
    fn from(f: FailOnArg) -> FailOn {
        match f {
            FailOnArg::Error => FailOn::Error,
            FailOnArg::Warning => FailOn::Warning,
            FailOnArg::Info => FailOn::Info,
            FailOnArg::Never => FailOn::Never,
        }
    }
}

/// Renders one report of the run.
/// `show_allowed` (`--show-allowed`) adds the suppressed findings to SARIF
/// as suppressed results.
/// `summary` is false with `--quiet`.
pub fn render_run(
    run: &CheckRun,
    format: Format,
    color: bool,
    show_allowed: bool,
    summary: bool,
    repo: &RepoPaths,
) -> String {
    let repo_path = |p: &str| repo.relative(p);
    match format {
        Format::Human => render::human::render(
            &run.report,
            &render::human::HumanOptions {
                color,
                width: terminal_width(),
                rule_links: true,
                summary,
            },
        ),
        Format::Concise => render::concise::render(&run.report, summary),
        Format::Json => render::json::render(&run.report, run.suppressed.len()),
        Format::Sarif => render::sarif::render(
            &run.report,
            if show_allowed { &run.suppressed } else { &[] },
            &repo_path,
        ),
        Format::Github => render::github::render(&run.report, &repo_path),
        Format::Junit => render::junit::render(&run.report),
        Format::Gitlab => render::gitlab::render(&run.report, &repo_path),
        Format::Markdown => render::markdown::render(&run.report, &repo_path),
    }
}

/// The values of `--from` (`import`, `check`, `diff`).
pub fn kind_parser() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(netlint_import::Kind::KEYS.iter().map(|(k, _)| *k))
}
