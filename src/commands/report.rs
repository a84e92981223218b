//! `netlint report DESIGN`: what each traffic class of each host (or group
//! of hosts built alike) can reach, healthy and after losing one adapter,
//! how long draining a host takes, and where every figure comes from.
//! Formats: human, json, markdown (a table fit for a pull-request comment).

use crate::commands::common::{config_for_design, ConfigArgs};
use crate::render;
use crate::run::files::read_file;
use crate::run::DEFAULT_MAX_FILE_SIZE;
use crate::views::report::build;
use netlint_analysis::bandwidth::BandwidthModel;
use netlint_analysis::Topology;
use netlint_model::{load, SourceFile};
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// The design file.
    pub path: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: ReportFormat,
    #[command(flatten)]
    pub config: ConfigArgs,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportFormat {
    Human,
    Json,
    /// A Markdown table fit for a pull-request comment.
    Markdown,
}

pub fn run(args: ReportArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, String> {
    let shown = args.path.to_string_lossy().replace('\\', "/");
    let bytes = read_file(&args.path, DEFAULT_MAX_FILE_SIZE)
        .map_err(|reason| format!("cannot read {shown}: {reason}"))?;
    if config_for_design(&args.path, &args.config, err).is_err() {
        return Ok(2);
    }
    let text = String::from_utf8(bytes).map_err(|_| {
        format!("cannot report on {shown}: the file is not UTF-8 text (`netlint check {shown}` shows where)")
    })?;
    let file = SourceFile::new(shown.clone(), text);
    let loaded = load(&file);
    let errors: Vec<String> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.is_input_error())
        .map(|d| match &d.primary {
            Some(l) => {
                let at = file.line_col(l.span.start);
                format!("{shown}:{}:{}: {}", at.line, at.column, d.message)
            }
            None => format!("{shown}: {}", d.message),
        })
        .collect();
    let design = match &loaded.design {
        Some(d) if errors.is_empty() => d,
        _ => return Err(input_errors(&shown, &errors)),
    };
    let topology = Topology::build(design);
    let model = BandwidthModel::build(design, &topology);
    let fabric = netlint_analysis::Fabric::new(design, &topology);
    let healthy = fabric.forwarding(design, &topology, &netlint_analysis::Failures::default());
    let paths = netlint_analysis::failure::lm_paths(design, &topology, &fabric, &healthy);
    let report = build(design, &model, &shown, Some((&topology, &paths)));
    let text = match args.format {
        ReportFormat::Human => render::report::human(&report),
        ReportFormat::Json => {
            let mut s = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
            s.push('\n');
            s
        }
        ReportFormat::Markdown => render::report::markdown(&report),
    };
    out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    Ok(0)
}

fn input_errors(shown: &str, errors: &[String]) -> String {
    format!(
        "cannot report on a design with input errors (`netlint check {shown}` shows them):\n{}",
        errors.join("\n")
    )
}
