//! `netlint baseline`: record the current findings (the file format is
//! `run::baseline_file`).

use crate::commands::common::{note_skipped, terminal_width, ConfigArgs, ReadArgs};
use crate::render;
use crate::run::files::io_reason;
use crate::run::{
    refuse_inputs, run_check, write_atomic, Baseline, CheckSettings, RepoPaths, Report,
};
use netlint_model::Diagnostic;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct BaselineArgs {
    /// Design files or directories.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Write the baseline to FILE instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub read: ReadArgs,
    #[command(flatten)]
    pub config: ConfigArgs,
}

pub fn run(args: BaselineArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, String> {
    let settings = CheckSettings {
        allow_empty: args.read.allow_empty,
        max_file_size: args.read.max_file_size,
        stdin_name: args.read.stdin_filename.clone(),
        config: args.config.choice(),
        ..CheckSettings::default()
    };
    let run = run_check(&args.paths, &settings)?;
    if let Some(o) = &args.output {
        refuse_inputs(o, &run.read)?;
    }
    note_skipped(&run.skipped, err);
    let input_errors: Vec<_> = run
        .report
        .files
        .iter()
        .filter(|f| f.diagnostics.iter().any(Diagnostic::is_input_error))
        .cloned()
        .collect();
    if !input_errors.is_empty() {
        // A baseline of a design that does not load would hide nothing and
        // hold nothing: show what to fix and write no baseline.
        let shown = Report {
            sources: Vec::new(),
            files: input_errors
                .into_iter()
                .map(|mut f| {
                    f.diagnostics.retain(Diagnostic::is_input_error);
                    f
                })
                .collect(),
            rules: run.report.rules.clone(),
        };
        let text = render::human::render(
            &shown,
            &render::human::HumanOptions {
                color: false,
                width: terminal_width(),
                rule_links: false,
                summary: true,
            },
        );
        err.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
        return Err(
            "no baseline written: fix the input errors above first (they are never baselined)"
                .to_string(),
        );
    }
    let repo = RepoPaths::discover();
    let baseline = Baseline::from_report(&run.report, &|p| repo.relative(p));
    let json = baseline.to_json();
    match &args.output {
        Some(path) => write_atomic(path, json.as_bytes())
            .map_err(|e| format!("cannot write {}: {}", path.display(), io_reason(&e)))?,
        None => out.write_all(json.as_bytes()).map_err(|e| e.to_string())?,
    }
    let files = run.report.files.len();
    let _ = writeln!(
        err,
        "netlint: baseline of {} finding{} in {files} file{}",
        baseline.entries.len(),
        if baseline.entries.len() == 1 { "" } else { "s" },
        if files == 1 { "" } else { "s" },
    );
    Ok(0)
}
