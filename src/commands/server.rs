//! `netlint server`.

use crate::run::files::{parse_size, DEFAULT_MAX_FILE_SIZE};
use crate::server::{run_stdio, Options, DEFAULT_DEBOUNCE_MS};
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct ServerArgs {
    /// Talk over standard input and output (the only transport; accepted
    /// because editors pass it).
    #[arg(long)]
    pub stdio: bool,
    /// How long edits must pause, in milliseconds, before the design is
    /// checked again.
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_DEBOUNCE_MS)]
    pub debounce: u64,
    /// The largest message the server reads (its `Content-Length`), in
    /// bytes or with a unit (`K`, `M`, `G`); 16 MiB by default. A larger
    /// one ends the server with exit code 2, before its body is read.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub max_message_size: Option<u64>,
    /// The largest document the server checks, as `check --max-file-size`;
    /// 16 MiB by default. A larger one is not checked: it gets one
    /// diagnostic and a message saying so.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub max_file_size: Option<u64>,
}

pub fn run(args: ServerArgs) -> Result<i32, String> {
    run_stdio(Options {
        debounce: Duration::from_millis(args.debounce),
        max_message_size: args.max_message_size.unwrap_or(DEFAULT_MAX_FILE_SIZE),
        max_file_size: args.max_file_size.unwrap_or(DEFAULT_MAX_FILE_SIZE),
    })?;
    Ok(0)
}
