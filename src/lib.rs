//! The `netlint` command: argument parsing, config discovery, and the
//! renderers. The binary (`src/main.rs`) only calls [`cli::run`].

pub mod check;
pub mod cli;
pub mod commands;
pub mod config;
pub mod render;
pub mod report;
