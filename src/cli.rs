//! Command-line interface.

use crate::check::{run_check, CheckSettings};
use crate::render;
use clap::{Parser, Subcommand, ValueEnum};
use netlint_model::FailOn;
use netlint_rules::{input_rules, registry, rule_by_id};
use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "netlint",
    version,
    about = "Lints failover-cluster network designs before they are built",
    long_about = "netlint reads a cluster network design (TOML), simulates what the network will do \
                  (spanning tree, VLANs, failures, bandwidth) and reports what will hurt.\n\n\
                  Exit codes: 0 nothing at or above the fail level, 1 findings, 2 input or usage error."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check design files (or directories searched for *.toml files with a [design] table).
    Check(CheckArgs),
    /// List every rule.
    Rules {
        #[arg(long, value_enum, default_value = "human")]
        format: ListFormat,
    },
    /// Print a rule's documentation page.
    Explain {
        /// Rule id, as in `netlint rules`.
        id: String,
    },
}

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Design files or directories.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,
    /// Lowest severity that makes the exit code 1 (default: the design's
    /// `[netlint] fail_on`, then netlint.toml's, then `warning`).
    #[arg(long, value_enum)]
    pub fail_on: Option<FailOnArg>,
    /// Colour in human output (NO_COLOR is honoured with `auto`).
    #[arg(long, value_enum, default_value = "auto")]
    pub color: ColorChoice,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Human,
    Json,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListFormat {
    Human,
    Json,
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

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// Runs netlint with these arguments; returns the exit code.
pub fn run<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let text = e.render().to_string();
            if e.use_stderr() {
                let _ = write!(err, "{text}");
            } else {
                let _ = write!(out, "{text}");
            }
            return code;
        }
    };
    let result = match cli.command {
        Command::Check(args) => cmd_check(args, out),
        Command::Rules { format } => cmd_rules(format, out),
        Command::Explain { id } => cmd_explain(&id, out),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            let _ = writeln!(err, "netlint: {message}");
            2
        }
    }
}

fn use_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    }
}

fn cmd_check(args: CheckArgs, out: &mut dyn Write) -> Result<i32, String> {
    let settings = CheckSettings {
        fail_on: args.fail_on.map(Into::into),
    };
    let run = run_check(&args.paths, &settings)?;
    let text = match args.format {
        Format::Human => render::human::render(
            &run.report,
            &render::human::HumanOptions {
                color: use_color(args.color),
                width: terminal_width(),
            },
        ),
        Format::Json => render::json::render(&run.report, run.suppressed.len()),
    };
    out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    Ok(run.exit)
}

fn terminal_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .filter(|w: &usize| *w >= 40)
        .unwrap_or(100)
}

fn cmd_rules(format: ListFormat, out: &mut dyn Write) -> Result<i32, String> {
    let metas: Vec<_> = registry()
        .iter()
        .map(|r| r.meta)
        .chain(input_rules())
        .collect();
    let text = match format {
        ListFormat::Json => {
            let list: Vec<_> = metas
                .iter()
                .map(|m| {
                    serde_json::json!({
                        "id": m.id,
                        "category": m.category,
                        "default_severity": m.default_severity.as_str(),
                        "summary": m.summary,
                    })
                })
                .collect();
            let mut s =
                serde_json::to_string_pretty(&serde_json::json!({ "version": 1, "rules": list }))
                    .map_err(|e| e.to_string())?;
            s.push('\n');
            s
        }
        ListFormat::Human => {
            let width = metas.iter().map(|m| m.id.len()).max().unwrap_or(0);
            let mut s = String::new();
            for m in &metas {
                s.push_str(&format!(
                    "{:width$}  {:13}  {:7}  {}\n",
                    m.id,
                    m.category,
                    m.default_severity.as_str(),
                    m.summary
                ));
            }
            s
        }
    };
    out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    Ok(0)
}

fn cmd_explain(id: &str, out: &mut dyn Write) -> Result<i32, String> {
    let doc = rule_by_id(id).map(|r| r.meta.doc).or_else(|| {
        input_rules()
            .into_iter()
            .find(|m| m.id == id)
            .map(|m| m.doc)
    });
    match doc {
        Some(doc) => {
            out.write_all(doc.as_bytes()).map_err(|e| e.to_string())?;
            Ok(0)
        }
        None => {
            let ids = netlint_rules::all_ids();
            let hint = netlint_model::did_you_mean(id, ids.iter().copied());
            Err(format!(
                "unknown rule `{id}`{hint} (`netlint rules` lists them)"
            ))
        }
    }
}
