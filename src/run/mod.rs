//! The check run: which files, their `netlint.toml`, the rules, the
//! baseline, and the [`Report`] every check renderer takes. Knows no
//! command, no renderer and no terminal.

pub mod baseline_file;
pub mod config;
pub mod files;
pub mod findings;
pub mod lint;
pub mod plain;
pub mod repo;

pub(crate) use baseline_file::is_input;
pub use baseline_file::{Baseline, BaselineEntry, Matcher};
pub use config::{find_config, load_config, ConfigFile, CONFIG_FILE};
pub use files::{collect, collect_designs};
pub use findings::{FileReport, Report};
pub use lint::{check_source, run_check, BaselineOutcome, CheckRun, CheckSettings};
pub use repo::{normalize_path, RepoPaths};
