//! One module per subcommand, each with its own arguments; `common` holds
//! what several of them share. `cli.rs` lists the commands and dispatches.

pub mod baseline;
pub mod check;
pub mod collect;
pub mod common;
pub mod completions;
pub mod diff;
pub mod explain;
pub mod generate;
pub mod graph;
pub mod import;
pub mod man;
pub mod output_schema;
pub mod report;
pub mod rules;
pub mod schema;
pub mod server;
pub mod simulate;
pub mod topology;
