//! One module per subcommand; `cli.rs` holds only the argument definitions.

pub mod baseline;
pub mod check;
pub mod completions;
pub mod explain;
pub mod man;
pub mod rules;
pub mod schema;
