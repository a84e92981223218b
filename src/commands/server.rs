//! `netlint server`.

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
}

pub fn run(args: ServerArgs) -> Result<i32, String> {
    run_stdio(Options {
        debounce: Duration::from_millis(args.debounce),
    })?;
    Ok(0)
}
