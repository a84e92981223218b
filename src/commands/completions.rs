//! `netlint completions SHELL`: a completion script generated from the
//! same clap definitions the parser uses, so it cannot fall behind.

use crate::cli::Cli;
use clap::CommandFactory;
use std::io::Write;

#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

pub fn run(args: CompletionsArgs, out: &mut dyn Write) -> Result<i32, String> {
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "netlint", &mut buf);
    out.write_all(&buf).map_err(|e| e.to_string())?;
    Ok(0)
}
