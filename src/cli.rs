//! Command-line interface: the commands netlint has, and dispatch. Each
//! command's arguments live in its module under `commands/`.

use crate::commands;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::ffi::OsString;
use std::io::Write;

#[derive(Parser, Debug)]
#[command(
    name = "netlint",
    version,
    about = "Lints failover-cluster network designs before they are built",
    long_about = "netlint reads a cluster network design (TOML), simulates what the network will do \
                  (spanning tree, VLANs, failures, bandwidth) and reports what will hurt.\n\n\
                  Exit codes: 0 nothing at or above the fail level, 1 findings, 2 input or usage error.",
    mut_subcommands = output_format_alias
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check design files (or directories searched for *.toml files with a [design] table).
    Check(commands::check::CheckArgs),
    /// List every rule.
    Rules(commands::rules::RulesArgs),
    /// Explain what the switches forward: per bridged domain and
    /// spanning-tree instance the root and why it won, each link's role and
    /// port cost at both ends, and each network's path between its hosts.
    Topology(commands::topology::TopologyArgs),
    /// What each traffic class of each host can reach, and how long draining a host takes.
    Report(commands::report::ReportArgs),
    /// Print a rule's documentation page.
    Explain(commands::explain::ExplainArgs),
    /// Compare the design with the network as built (a design file, or
    /// the switch configs, LLDP tables, cabling and host collections
    /// `import` reads, read as it reads them): every difference that
    /// changes behaviour, judged by its consequence, with the exit codes of
    /// `check`.
    Diff(commands::diff::DiffArgs),
    /// Record the current findings as a baseline (JSON), which `check
    /// --baseline` then hides: adopt netlint without fixing everything first.
    Baseline(commands::baseline::BaselineArgs),
    /// Draw the design as it behaves (spanning-tree roles, findings, the
    /// state after `--fail`) as Graphviz DOT or a Mermaid flowchart.
    Graph(commands::graph::GraphArgs),
    /// What a failure takes away: `--fail` a switch, link, cable, NIC or
    /// card (several for N-2) for the state after it, or nothing for a
    /// table of every single failure and its consequences.
    Simulate(commands::simulate::SimulateArgs),
    /// Write a design from switch running-configs, LLDP tables, cabling
    /// CSVs and host collections (Hyper-V, vSphere, SDDC folders and ZIPs),
    /// each value with a comment naming the line it came from.
    Import(commands::import::ImportArgs),
    /// Write a running-config per switch of the design (NX-OS, EOS, OS10 or
    /// IOS-XE) and its cabling CSV, which `import` reads back as the design
    /// states it; what the vendor cannot build (a stack on NX-OS, an MLAG
    /// domain on Catalyst) is refused at its design line: exit 2, nothing
    /// written.
    Generate(commands::generate::GenerateArgs),
    /// Print a read-only collection script to run on the hosts (hyperv:
    /// PowerShell for Hyper-V and Azure Local), whose output `netlint
    /// import` reads.
    Collect(commands::collect::CollectArgs),
    /// Print the JSON Schema (draft-07) of the design format, for editors
    /// (Taplo, Even Better TOML), or with `--output` of netlint's JSON report.
    Schema(commands::schema::SchemaArgs),
    /// Run the language server (LSP over standard input and output) for
    /// editors: findings as you type, hover, go to definition, completion.
    Server(commands::server::ServerArgs),
    /// Print a shell completion script.
    Completions(commands::completions::CompletionsArgs),
    /// Print the man page (roff), or write one page per command into a directory.
    Man(commands::man::ManArgs),
}

/// `--output-format`, ruff's name, accepted for `--format` on every
/// command that has one (without it clap suggested `--output`, which
/// names a file).
fn output_format_alias(command: clap::Command) -> clap::Command {
    command.mut_args(|arg| {
        if arg.get_id() == "format" && arg.get_long() == Some("format") {
            arg.visible_alias("output-format")
        } else {
            arg
        }
    })
}

/// Runs netlint with these arguments; returns the exit code.
pub fn run<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    run_with(args, out, err, false)
}

/// [`run`] in a process that exits when it returns (`main`): `check` then
/// leaves a single design and its analyses to the operating system
/// instead of freeing them one allocation at a time.
pub fn run_to_exit<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    run_with(args, out, err, true)
}

fn run_with<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write, exits: bool) -> i32
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
            commands::check::run(args, out, err, exits)
        }
        Command::Diff(args) => commands::diff::run(args, out, err),
        Command::Baseline(args) => commands::baseline::run(args, out, err),
        Command::Import(args) => commands::import::run(args, out, err),
        Command::Generate(args) => commands::generate::run(args, out, err),
        Command::Collect(args) => commands::collect::run(args, out, err),
        Command::Schema(args) => commands::schema::run(args, out),
        Command::Completions(args) => commands::completions::run(args, out),
        Command::Server(args) => commands::server::run(args),
        Command::Man(args) => commands::man::run(args, out),
        Command::Rules(args) => commands::rules::run(args, out),
        Command::Explain(args) => commands::explain::run(args, out),
        Command::Report(args) => commands::report::run(args, out, err),
        Command::Topology(args) => commands::topology::run(args, out, err),
        Command::Graph(args) => commands::graph::run(args, out, err),
        Command::Simulate(args) => commands::simulate::run(args, out, err),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            let _ = writeln!(
                err,
                "netlint: {}",
                netlint_model::text::escape_keep_lines(&message)
            );
            2
        }
    }
}
