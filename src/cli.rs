//! Command-line interface.

use crate::commands;
use clap::{Parser, Subcommand, ValueEnum};
use netlint_model::FailOn;
use std::ffi::OsString;
use std::io::Write;
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
        Command::Check(args) => commands::check::run(args, out),
        Command::Rules { format } => commands::rules::run(format, out),
        Command::Explain { id } => commands::explain::run(&id, out),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            let _ = writeln!(err, "netlint: {message}");
            2
        }
    }
}
