//! `netlint collect PLATFORM`: prints the collection script netlint ships
//! for a platform, which an administrator runs on the hosts to write the
//! files `netlint import` reads. The scripts are read-only and documented
//! line by line in docs/import.md. One table, [`SCRIPTS`], lists them, so
//! a platform is added with one row and its script.

use crate::run::files::io_reason;
use crate::run::write_atomic;
use std::io::Write;
use std::path::PathBuf;

/// A shipped collection script.
pub struct Script {
    /// The `netlint collect` argument.
    pub platform: &'static str,
    /// What it collects, for `--help`.
    pub about: &'static str,
    /// The script's file name, as `netlint collect` suggests saving it.
    pub file: &'static str,
    pub text: &'static str,
}

/// Every collection script.
pub const SCRIPTS: &[Script] = &[Script {
    platform: "hyperv",
    about: "Hyper-V and Azure Local hosts: PowerShell 5.1 or 7, local node, -ComputerName or -Cluster (WinRM); one JSON file per host",
    file: "collect-hyperv.ps1",
    text: include_str!("../../scripts/collect-hyperv.ps1"),
}, Script {
    platform: "vsphere",
    about: "vSphere clusters: VMware PowerCLI on PowerShell 5.1 or 7, connected to vCenter; one JSON file per cluster",
    file: "collect-vsphere.ps1",
    text: include_str!("../../scripts/collect-vsphere.ps1"),
}];

#[derive(clap::Args, Debug)]
pub struct CollectArgs {
    /// The platform whose script to print: hyperv, vsphere.
    #[arg(value_name = "PLATFORM", value_parser = platform_parser())]
    pub platform: String,
    /// Write the script to FILE (whole or not at all) instead of standard
    /// output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

fn platform_parser() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        SCRIPTS
            .iter()
            .map(|s| clap::builder::PossibleValue::new(s.platform).help(s.about)),
    )
}

pub fn run(args: CollectArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, String> {
    let Some(script) = SCRIPTS.iter().find(|s| s.platform == args.platform) else {
        return Err(format!("no collection script for `{}`", args.platform));
    };
    match &args.output {
        Some(path) => {
            write_atomic(path, script.text.as_bytes())
                .map_err(|e| format!("cannot write {}: {}", path.display(), io_reason(&e)))?;
            let _ = writeln!(
                err,
                "netlint: wrote {}; run it on a host (see docs/import.md), then `netlint import` the JSON files it writes",
                path.display()
            );
        }
        None => out
            .write_all(script.text.as_bytes())
            .map_err(|e| e.to_string())?,
    }
    Ok(0)
}
