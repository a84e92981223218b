//! The check run: which files, their `netlint.toml`, the rules, the
//! baseline, and the [`Report`] every check renderer takes. Knows no
//! command, no renderer and no terminal.

pub mod baseline_file;
pub mod config;
pub mod configs;
pub mod diff;
pub mod files;
pub mod findings;
pub mod fix;
pub mod graft;
pub mod lint;
pub mod output;
pub mod plain;
pub mod repo;

pub use baseline_file::{Baseline, BaselineEntry, Matcher};
pub use config::{config_for, find_config, load_config, ConfigChoice, ConfigFile, CONFIG_FILE};
pub use files::{collect_designs, ReadOptions, DEFAULT_MAX_FILE_SIZE};
pub use findings::{FileReport, Report};
pub use lint::{check_file, check_source, run_check, BaselineOutcome, CheckRun, CheckSettings};
pub use output::{append_whole, refuse_inputs, same_file, write_atomic};
pub use repo::{normalize_path, RepoPaths};
