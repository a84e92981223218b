//! The `netlint` command. Layers, each importing only those below it:
//! `cli` and `commands` (arguments, files, exit codes) on top; `render`
//! (text); `views` (what graph, topology, simulate and report show);
//! `run` (the check run and its report). The binary (`src/main.rs`) only
//! calls [`cli::run`]. docs/architecture.md is the map.

pub mod cli;
pub mod commands;
pub mod render;
pub mod run;
pub mod server;
pub mod views;
