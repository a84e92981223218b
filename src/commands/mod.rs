//! One module per subcommand; `cli.rs` holds only the argument definitions.

pub mod check;
pub mod explain;
pub mod rules;
