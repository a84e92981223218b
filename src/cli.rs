//! Command-line interface.

use crate::commands;
use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
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
    /// Explain what the switches forward: per bridged domain and
    /// spanning-tree instance the root and why it won, each link's role and
    /// port cost at both ends, and each network's path between its hosts.
    Topology {
        /// The design file.
        design: PathBuf,
        #[arg(long, value_enum, default_value = "human")]
        format: ListFormat,
    },
    /// What each traffic class of each host can reach, and how long draining a host takes.
    Report(commands::report::ReportArgs),
    /// Print a rule's documentation page.
    Explain {
        /// Rule id, as in `netlint rules`.
        id: String,
    },
    /// Record the current findings as a baseline (JSON), which `check
    /// --baseline` then hides: adopt netlint without fixing everything first.
    Baseline(BaselineArgs),
    /// Draw the design as it behaves (spanning-tree roles, findings, the
    /// state after `--fail`) as Graphviz DOT or a Mermaid flowchart.
    Graph(commands::graph::GraphArgs),
    /// What a failure takes away: `--fail` a switch, link, cable, NIC or
    /// card (several for N-2) for the state after it, or nothing for a
    /// table of every single failure and its consequences.
    Simulate(commands::simulate::SimulateArgs),
    /// Print the JSON Schema (draft-07) of the design format, for editors
    /// (Taplo, Even Better TOML).
    Schema,
    /// Print a shell completion script.
    Completions {
        /// The shell to complete for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), or write one page per command into a directory.
    Man {
        /// Write netlint.1 and netlint-<command>.1 into DIR instead of
        /// printing netlint.1.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Design files or directories.
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
    /// Colour in human output (NO_COLOR is honoured with `auto`).
    #[arg(long, value_enum, default_value = "auto")]
    pub color: ColorChoice,
    /// Exit 0 even when there are findings (input errors still exit 2).
    #[arg(long)]
    pub exit_zero: bool,
    /// Run only these rules: ids or categories, comma-separated or repeated.
    /// A rule named by its id runs even where a file turns it off.
    #[arg(long, value_delimiter = ',', value_name = "RULE|CATEGORY")]
    pub select: Vec<String>,
    /// Do not run these rules: ids or categories, comma-separated or repeated.
    #[arg(long, value_delimiter = ',', value_name = "RULE|CATEGORY")]
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

#[derive(clap::Args, Debug)]
pub struct BaselineArgs {
    /// Design files or directories.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Write the baseline to FILE instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Source snippets with labels (the default).
    Human,
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
    let parsed = Cli::command()
        .try_get_matches_from(args)
        .and_then(|m| Cli::from_arg_matches(&m).map(|c| (c, m)));
    let (cli, matches) = match parsed {
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
        Command::Check(mut args) => {
            args.locate(matches.subcommand_matches("check"));
            commands::check::run(args, out, err)
        }
        Command::Baseline(args) => commands::baseline::run(args, out, err),
        Command::Schema => commands::schema::run(out),
        Command::Completions { shell } => commands::completions::run(shell, out),
        Command::Man { dir } => commands::man::run(dir.as_deref(), out),
        Command::Rules { format } => commands::rules::run(format, out),
        Command::Explain { id } => commands::explain::run(&id, out),
        Command::Report(args) => commands::report::run(args, out),
        Command::Topology { design, format } => commands::topology::run(&design, format, out, err),
        Command::Graph(args) => commands::graph::run(args, out, err),
        Command::Simulate(args) => commands::simulate::run(args, out, err),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            let _ = writeln!(err, "netlint: {message}");
            2
        }
    }
}
