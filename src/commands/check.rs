//! `netlint check`.

use crate::commands::common::{note_skipped, use_color, ColorChoice, ConfigArgs, ReadArgs};
pub use crate::commands::common::{render_run, FailOnArg, Format};
use crate::render;
use crate::run::files::io_reason;
use crate::run::fix::{run_fix, unified_diff, FixMode};
use crate::run::{
    append_whole, refuse_inputs, run_check, same_file, write_atomic, Baseline, BaselineOutcome,
    CheckRun, CheckSettings, RepoPaths, DEFAULT_MAX_FILE_SIZE,
};
use clap::ArgMatches;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Design files or directories; or the inputs `netlint import` reads
    /// (running-configs, `show lldp neighbors detail` outputs, cabling
    /// CSVs, Hyper-V and vSphere collections: any file that is not
    /// `*.toml` and has no `[design]` table; `Get-SDDCDiagnosticInfo`
    /// folders and ZIPs; folders of `Format-List` text named by cmdlet),
    /// checked together as one imported design, each finding at the input
    /// line that causes it.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Output format (default: human, or github when GITHUB_ACTIONS is
    /// set). Give it several times for several reports in one run, each
    /// followed by its own `-o FILE`.
    #[arg(long, value_enum)]
    pub format: Vec<Format>,
    /// Write the report of the `--format` just before this option to FILE
    /// instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Vec<PathBuf>,
    /// Lowest severity that makes the exit code 1 (default: the design's
    /// `[netlint] fail_on`, then netlint.toml's, then `warning`).
    #[arg(long, value_enum)]
    pub fail_on: Option<FailOnArg>,
    /// Colour in human output (`auto`: NO_COLOR turns it off, FORCE_COLOR or
    /// CLICOLOR_FORCE on even into a pipe, else colour on a terminal).
    #[arg(long, value_enum, default_value = "auto")]
    pub color: ColorChoice,
    /// Exit 0 even when there are findings (input errors still exit 2).
    #[arg(long)]
    pub exit_zero: bool,
    /// Only the findings: no count line at the end of the human and concise
    /// output, no note on what a baseline hid.
    #[arg(short, long)]
    pub quiet: bool,
    /// After the report, the number of findings per rule (on standard error
    /// when standard output holds a machine format).
    #[arg(long)]
    pub statistics: bool,
    /// Run only these rules: ids or categories, comma-separated or repeated.
    /// A rule named by its id runs even where a file turns it off.
    #[arg(long, value_delimiter = ',', value_name = "RULE|CATEGORY",
          value_parser = crate::commands::common::RuleNames::SELECTORS, hide_possible_values = true)]
    pub select: Vec<String>,
    /// Do not run these rules: ids or categories, comma-separated or repeated.
    #[arg(long, value_delimiter = ',', value_name = "RULE|CATEGORY",
          value_parser = crate::commands::common::RuleNames::SELECTORS, hide_possible_values = true)]
    pub ignore: Vec<String>,
    /// Hide the findings recorded in this baseline (see `netlint baseline`);
    /// fail only on new ones, and say how many baselined ones are fixed.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// List the findings that `allow` entries suppress, with their reasons
    /// (SARIF output: as results with an `inSource` suppression).
    #[arg(long)]
    pub show_allowed: bool,
    /// Skip files named on the command line that have no [design] table, as
    /// directories are searched (for hooks that pass every changed *.toml).
    #[arg(long)]
    pub designs_only: bool,
    /// Read every file that is not a design as this kind instead of
    /// detecting it (see `netlint import --from`).
    #[arg(long, value_name = "KIND", value_parser = crate::commands::common::kind_parser())]
    pub from: Option<String>,
    #[command(flatten)]
    pub read: ReadArgs,
    #[command(flatten)]
    pub config: ConfigArgs,
    /// A stack fails as a whole (a reload, a bad upgrade), not member by
    /// member: `spof-switch` judges each stack as one switch (default: the
    /// design's `[netlint] stack_as_unit`, then netlint.toml's, then off).
    #[arg(long)]
    pub stack_as_unit: bool,
    /// Apply the safe fixes of the findings to the design files (each
    /// checked first on a copy: its finding gone, no new one), then report
    /// what remains.
    #[arg(long)]
    pub fix: bool,
    /// With `--fix` or `--diff`: the fixes that need judgement too (which
    /// switch should be root, which spanning-tree mode the fabric runs).
    /// Alone it changes nothing.
    #[arg(long)]
    pub unsafe_fixes: bool,
    /// Print the fixes `--fix` would make as a unified diff, and write
    /// nothing (exit 1 when there is one).
    #[arg(long)]
    pub diff: bool,
    /// Where each `--format` and `-o` stood on the command line, to pair
    /// them (filled in from the parsed matches).
    #[arg(skip)]
    pub format_index: Vec<usize>,
    #[arg(skip)]
    pub output_index: Vec<usize>,
}

impl CheckArgs {
    /// Records where each `--format` and `-o` was given.
    pub fn locate(&mut self, matches: Option<&ArgMatches>) {
        let at = |id: &str| -> Vec<usize> {
            matches
                .and_then(|m| m.indices_of(id))
                .map(|i| i.collect())
                .unwrap_or_default()
        };
        self.format_index = at("format");
        self.output_index = at("output");
    }
}

/// Whether netlint runs in a GitHub Actions job.
fn in_github_actions() -> bool {
    std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true")
}

/// GitHub's step summary file (`GITHUB_STEP_SUMMARY`), when the run writes
/// annotations (`--format github`): the Markdown report goes there too.
fn step_summary(outs: &[Output]) -> Option<PathBuf> {
    if !outs.iter().any(|o| o.format == Format::Github) {
        return None;
    }
    std::env::var_os("GITHUB_STEP_SUMMARY")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// One report of the run: a format and where it goes (None = stdout).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    pub format: Format,
    pub file: Option<PathBuf>,
}

/// Pairs each `-o FILE` with the `--format` given just before it. With no
/// `--format`, the default is human, or github in a GitHub Actions job.
/// One `-o` and at most one `--format` pair whatever their order. At most
/// one report may go to standard output.
pub fn outputs(args: &CheckArgs, github_actions: bool) -> Result<Vec<Output>, String> {
    let default = if github_actions {
        Format::Github
    } else {
        Format::Human
    };
    let mut outs: Vec<Output> = if args.format.is_empty() {
        vec![Output {
            format: default,
            file: None,
        }]
    } else {
        args.format
            .iter()
            .map(|&format| Output { format, file: None })
            .collect()
    };
    // Positions on the command line; without them (arguments built in
    // code) the n-th `-o` goes with the n-th `--format`.
    let positioned = args.format_index.len() == args.format.len()
        && args.output_index.len() == args.output.len();
    for (n, file) in args.output.iter().enumerate() {
        let target = if args.output.len() == 1 && outs.len() == 1 {
            Some(0)
        } else if positioned {
            let at = args.output_index[n];
            args.format_index.iter().rposition(|&f| f < at)
        } else {
            (n < outs.len()).then_some(n)
        };
        let Some(i) = target else {
            return Err(format!(
                "`-o {}` must follow the `--format` it is for",
                file.display()
            ));
        };
        if let Some(first) = &outs[i].file {
            return Err(format!(
                "`--format {}` has two output files, {} and {}: give the format again for the second",
                format_name(outs[i].format),
                first.display(),
                file.display()
            ));
        }
        if let Some(other) = outs
            .iter()
            .find(|o| o.file.as_deref().is_some_and(|f| same_file(f, file)))
        {
            return Err(format!(
                "`--format {}` and `--format {}` would both be written to {}: give each its own file",
                format_name(other.format),
                format_name(outs[i].format),
                file.display()
            ));
        }
        outs[i].file = Some(file.clone());
    }
    let to_stdout: Vec<&str> = outs
        .iter()
        .filter(|o| o.file.is_none())
        .map(|o| format_name(o.format))
        .collect();
    if to_stdout.len() > 1 {
        return Err(format!(
            "{} would all go to standard output: give all but one of them `-o FILE`",
            to_stdout
                .iter()
                .map(|f| format!("`--format {f}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(outs)
}

fn format_name(f: Format) -> &'static str {
    match f {
        Format::Human => "human",
        Format::Concise => "concise",
        Format::Json => "json",
        Format::Sarif => "sarif",
        Format::Github => "github",
        Format::Junit => "junit",
        Format::Gitlab => "gitlab",
        Format::Markdown => "markdown",
    }
}

/// `exits`: the process exits when this returns (`netlint` itself, not a
/// caller in the same process), so a single design need not be freed.
pub fn run(
    args: CheckArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
    exits: bool,
) -> Result<i32, String> {
    let outs = outputs(&args, in_github_actions())?;
    let summary = step_summary(&outs);
    let max_file_size = args.read.max_file_size.unwrap_or(DEFAULT_MAX_FILE_SIZE);
    let baseline = args
        .baseline
        .as_deref()
        .map(|p| Baseline::read(p, max_file_size))
        .transpose()?;
    let settings = CheckSettings {
        fail_on: args.fail_on.map(Into::into),
        select: args.select.clone(),
        ignore: args.ignore.clone(),
        designs_only: args.designs_only,
        allow_empty: args.read.allow_empty,
        max_file_size: args.read.max_file_size,
        stdin_name: args.read.stdin_filename.clone(),
        from: args
            .from
            .as_deref()
            .and_then(netlint_import::Kind::from_key),
        config: args.config.choice(),
        baseline,
        keep_designs: outs.iter().any(|o| o.format == Format::Markdown) || summary.is_some(),
        stack_as_unit: args.stack_as_unit,
        leave_to_exit: exits,
    };
    // As ruff: `--unsafe-fixes` widens `--fix` and `--diff`; alone it
    // writes nothing, and says so.
    if args.fix || args.diff {
        let changed = fix_files(&args, &settings, out, err)?;
        if args.diff {
            return Ok(i32::from(changed));
        }
    } else if args.unsafe_fixes && !args.quiet {
        let _ = writeln!(
            err,
            "netlint: --unsafe-fixes only widens --fix and --diff: nothing was changed (give --diff --unsafe-fixes to see every fix, --fix --unsafe-fixes to apply them)"
        );
    }
    let run = run_check(&args.paths, &settings)?;
    let mut read = run.read.clone();
    read.extend(args.baseline.iter().cloned());
    for o in &outs {
        if let Some(file) = &o.file {
            refuse_inputs(file, &read)?;
        }
    }
    note_skipped(&run.skipped, err);
    for line in &run.import_summary {
        let _ = writeln!(err, "{line}");
    }
    let repo = RepoPaths::discover();
    for o in &outs {
        let color = match &o.file {
            None => use_color(args.color),
            Some(_) => args.color == ColorChoice::Always,
        };
        let text = render_run(&run, o.format, color, args.show_allowed, !args.quiet, &repo);
        match &o.file {
            Some(path) => write_atomic(path, text.as_bytes())
                .map_err(|e| format!("cannot write {}: {}", path.display(), io_reason(&e)))?,
            None => out.write_all(text.as_bytes()).map_err(|e| e.to_string())?,
        }
    }
    // Annotations are made from the workflow commands on stdout: the note
    // goes beside them, into the same step's log.
    if outs
        .iter()
        .any(|o| o.format == Format::Github && o.file.is_none())
    {
        if let Some(note) = render::github::hidden_note(&run.report) {
            let _ = err.write_all(note.as_bytes());
        }
    }
    if let Some(path) = &summary {
        // The summary is a by-product: a failure to write it is said, and
        // does not change the verdict.
        let text = render_run(&run, Format::Markdown, false, false, true, &repo);
        let written = refuse_inputs(path, &read).and_then(|()| {
            append_whole(path, text.as_bytes()).map_err(|e| {
                format!(
                    "cannot write the step summary {}: {}",
                    path.display(),
                    io_reason(&e)
                )
            })
        });
        if let Err(e) = written {
            let _ = writeln!(err, "netlint: warning: {e}");
        }
    }
    // Beside the human or concise report when that is on stdout; otherwise
    // stdout holds a machine format, and these go to stderr.
    let human_on_stdout = outs
        .iter()
        .any(|o| matches!(o.format, Format::Human | Format::Concise) && o.file.is_none());
    if args.statistics {
        let text = statistics(&run);
        let w: &mut dyn Write = if human_on_stdout { out } else { err };
        w.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    }
    if args.show_allowed {
        let text = allowed_list(&run);
        let w: &mut dyn Write = if human_on_stdout { out } else { err };
        w.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    }
    if let (Some(b), Some(path), false) = (&run.baselined, &args.baseline, args.quiet) {
        let _ = err.write_all(baseline_note(b, &path.display().to_string()).as_bytes());
    }
    let code = if args.exit_zero && run.exit == 1 {
        0
    } else {
        run.exit
    };
    if exits {
        // As the design (`CheckSettings::leave_to_exit`): the report's
        // findings go with the process, not one by one.
        std::mem::forget(run);
    }
    Ok(code)
}

/// `--fix`, `--unsafe-fixes`, `--diff`: applies (or shows) the fixes of
/// every design, and says on standard error what was fixed and what was
/// not, and why. Returns whether any file changed (or would).
fn fix_files(
    args: &CheckArgs,
    settings: &CheckSettings,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<bool, String> {
    let mode = if args.unsafe_fixes {
        FixMode::Unsafe
    } else {
        FixMode::Safe
    };
    if !args.diff && args.paths.iter().any(|p| p.as_os_str() == "-") {
        return Err(
            "--fix rewrites the design files and cannot rewrite standard input: give --diff to see its fixes"
                .to_string(),
        );
    }
    let files = run_fix(&args.paths, settings, mode)?;
    let mut changed = false;
    for f in &files {
        let verb = if args.diff { "would fix" } else { "fixed" };
        if f.fix.changed() {
            if args.diff {
                out.write_all(unified_diff(&f.shown, &f.original, &f.fix.text).as_bytes())
                    .map_err(|e| e.to_string())?;
            } else if let Some(path) = &f.path {
                write_atomic(path, f.fix.text.as_bytes())
                    .map_err(|e| format!("cannot write {}: {}", f.shown, io_reason(&e)))?;
            } else {
                // Refused above: standard input has no file to rewrite.
                continue;
            }
            changed = true;
        }
        if args.quiet {
            continue;
        }
        for a in &f.fix.applied {
            let _ = writeln!(
                err,
                "{}: {verb} {}{}: {}",
                f.shown,
                a.rule,
                on(&a.element),
                a.fix.description
            );
        }
        for (a, why) in &f.fix.not_applied {
            let _ = writeln!(
                err,
                "{}: not fixed {}{}: {} ({why})",
                f.shown,
                a.rule,
                on(&a.element),
                a.fix.description
            );
        }
    }
    if !args.quiet {
        let applied: usize = files.iter().map(|f| f.fix.applied.len()).sum();
        let not: usize = files.iter().map(|f| f.fix.not_applied.len()).sum();
        let head = if args.diff { "would fix" } else { "fixed" };
        let _ = writeln!(
            err,
            "{head} {}, {} not fixed",
            plural(applied, "finding", "findings"),
            not
        );
    }
    Ok(changed)
}

/// " on `hosts.hv1`", or nothing for the design as a whole.
fn on(element: &str) -> String {
    if element.is_empty() {
        String::new()
    } else {
        format!(" on `{element}`")
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// What `--statistics` prints: the findings per rule, most first, with the
/// severities they have (a rule's level can differ between files).
pub fn statistics(run: &CheckRun) -> String {
    use netlint_model::Severity;
    use std::collections::BTreeMap;
    use std::fmt::Write as _;
    let mut per_rule: BTreeMap<&str, (usize, Vec<Severity>)> = BTreeMap::new();
    for d in run.report.files.iter().flat_map(|f| &f.diagnostics) {
        let e = per_rule.entry(d.rule.as_str()).or_default();
        e.0 += 1;
        if !e.1.contains(&d.severity) {
            e.1.push(d.severity);
        }
    }
    let mut rows: Vec<_> = per_rule.into_iter().collect();
    rows.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(b.0)));
    let total: usize = rows.iter().map(|r| r.1 .0).sum();
    let mut s = format!("{} by rule:\n", plural(total, "finding", "findings"));
    let width = rows.first().map_or(1, |r| r.1 .0.to_string().len());
    for (rule, (n, mut severities)) in rows {
        severities.sort_by(|a, b| b.cmp(a));
        let severities: Vec<&str> = severities.iter().map(|s| s.as_str()).collect();
        let _ = writeln!(s, "  {n:>width$}  {rule} ({})", severities.join(", "));
    }
    s
}

/// What `--show-allowed` prints: each suppressed finding, where the
/// `allow` entry is, and the reason it gives.
pub fn allowed_list(run: &CheckRun) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    if run.suppressed.is_empty() {
        s.push_str("no finding is suppressed by `allow`\n");
        return s;
    }
    let _ = writeln!(
        s,
        "{} suppressed by `allow`:",
        plural(run.suppressed.len(), "finding", "findings")
    );
    for (path, sup) in &run.suppressed {
        let file = run
            .report
            .files
            .iter()
            .find(|f| &f.file.path == path)
            .map(|f| &f.file);
        let at = |span: netlint_model::Span| match file {
            Some(f) => {
                let lc = f.line_col(span.start);
                format!("{path}:{}:{}", lc.line, lc.column)
            }
            None => path.clone(),
        };
        let d = &sup.diagnostic;
        let location = match &d.primary {
            Some(p) => at(p.span),
            None => path.clone(),
        };
        let element = match d.element() {
            e if e.is_empty() => String::new(),
            e => format!(" {e}:"),
        };
        let _ = writeln!(
            s,
            "  {location}: {}[{}]{element} {}",
            d.severity.as_str(),
            d.rule,
            d.message
        );
        let _ = writeln!(s, "    allowed at {}: {:?}", at(sup.allow_span), sup.reason);
    }
    s
}

/// What `check --baseline` says on stderr: how much it hid, and which
/// entries no longer occur.
pub fn baseline_note(b: &BaselineOutcome, path: &str) -> String {
    use std::fmt::Write as _;
    let mut s = format!(
        "netlint: {} hidden by the baseline {path}\n",
        plural(b.hidden, "finding", "findings")
    );
    if !b.fixed.is_empty() {
        let _ = writeln!(
            s,
            "netlint: {} no longer {}, so can be dropped from it (regenerate it with `netlint baseline`):",
            plural(b.fixed.len(), "baselined finding", "baselined findings"),
            if b.fixed.len() == 1 { "occurs" } else { "occur" }
        );
        for e in &b.fixed {
            let element = if e.element.is_empty() {
                String::new()
            } else {
                format!(" on {}", e.element)
            };
            let _ = writeln!(s, "  {}: {}{element}: {}", e.file, e.rule, e.message);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn outs(argv: &[&str], gha: bool) -> Result<Vec<(Format, Option<String>)>, String> {
        let mut full = vec!["netlint", "check", "x.toml"];
        full.extend_from_slice(argv);
        let cmd = <crate::cli::Cli as clap::CommandFactory>::command();
        let m = cmd.try_get_matches_from(&full).unwrap();
        let cli = <crate::cli::Cli as clap::FromArgMatches>::from_arg_matches(&m).unwrap();
        let crate::cli::Command::Check(mut args) = cli.command else {
            unreachable!()
        };
        args.locate(m.subcommand_matches("check"));
        outputs(&args, gha).map(|v| {
            v.into_iter()
                .map(|o| (o.format, o.file.map(|f| f.display().to_string())))
                .collect()
        })
    }

    #[test]
    fn default_is_human_or_github_in_actions() {
        assert_eq!(outs(&[], false).unwrap(), [(Format::Human, None)]);
        assert_eq!(outs(&[], true).unwrap(), [(Format::Github, None)]);
        // An explicit format wins over the environment.
        assert_eq!(
            outs(&["--format", "json"], true).unwrap(),
            [(Format::Json, None)]
        );
        assert_eq!(
            outs(&["-o", "r.txt"], false).unwrap(),
            [(Format::Human, Some("r.txt".into()))]
        );
    }

    #[test]
    fn each_output_pairs_with_the_format_before_it() {
        assert_eq!(
            outs(
                &["--format", "sarif", "-o", "a.sarif", "--format", "human"],
                false
            )
            .unwrap(),
            [
                (Format::Sarif, Some("a.sarif".into())),
                (Format::Human, None)
            ]
        );
        assert_eq!(
            outs(
                &["--format=human", "--format", "junit", "-o", "j.xml"],
                false
            )
            .unwrap(),
            [(Format::Human, None), (Format::Junit, Some("j.xml".into()))]
        );
        // One format, one file: the order does not matter.
        assert_eq!(
            outs(&["-o", "x.json", "--format", "json"], false).unwrap(),
            [(Format::Json, Some("x.json".into()))]
        );
    }

    #[test]
    fn ambiguous_pairings_are_usage_errors() {
        let e = outs(&["--format", "sarif", "--format", "json"], false).unwrap_err();
        assert!(e.contains("would all go to standard output"), "{e}");
        let e = outs(&["-o", "a", "--format", "sarif", "--format", "json"], false).unwrap_err();
        assert!(
            e.contains("`-o a` must follow the `--format` it is for"),
            "{e}"
        );
        let e = outs(&["--format", "sarif", "-o", "a", "-o", "b"], false).unwrap_err();
        assert!(e.contains("has two output files"), "{e}");
    }

    #[test]
    fn select_and_ignore_take_lists() {
        let cli = crate::cli::Cli::try_parse_from([
            "netlint",
            "check",
            "x.toml",
            "--select",
            "mtu,teaming",
            "--select",
            "stp",
            "--ignore=mtu-mismatch",
        ])
        .unwrap();
        let crate::cli::Command::Check(args) = cli.command else {
            unreachable!()
        };
        assert_eq!(args.select, ["mtu", "teaming", "stp"]);
        assert_eq!(args.ignore, ["mtu-mismatch"]);
    }
}
