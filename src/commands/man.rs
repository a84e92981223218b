//! `netlint man`: man pages (roff) generated from the clap definitions.
//!
//! Printed, it is `netlint.1`, which lists the commands; with `--dir` every
//! command also gets its own page (`netlint-check.1`, ...) holding its
//! options, as git and cargo ship theirs.

use crate::cli::Cli;
use crate::run::files::io_reason;
use crate::run::write_atomic;
use clap::CommandFactory;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct ManArgs {
    /// Write netlint.1 and netlint-<command>.1 into DIR instead of
    /// printing netlint.1.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

fn page(cmd: clap::Command) -> Result<Vec<u8>, String> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd)
        .render(&mut buf)
        .map_err(|e| e.to_string())?;
    Ok(buf)
}

/// Every page: (file name, roff).
pub fn pages() -> Result<Vec<(String, Vec<u8>)>, String> {
    let cmd = Cli::command();
    let mut out = vec![("netlint.1".to_string(), page(cmd.clone())?)];
    for sub in cmd.get_subcommands() {
        if sub.get_name() == "help" {
            continue;
        }
        let name = format!("netlint-{}", sub.get_name());
        // Page names live as long as the program: leaking a few bytes once
        // beats enabling clap's `string` feature for this.
        let static_name: &'static str = Box::leak(name.clone().into_boxed_str());
        // The version names the release in the page's header; clap would
        // also give a command with a version a `-V, --version` flag, which
        // the page would then list although `netlint check -V` is rejected
        // (only `netlint -V` exists), so the flag is switched off.
        let sub = sub
            .clone()
            .name(static_name)
            .version(env!("CARGO_PKG_VERSION"))
            .disable_version_flag(true);
        out.push((format!("{name}.1"), page(sub)?));
    }
    Ok(out)
}

pub fn run(args: ManArgs, out: &mut dyn Write) -> Result<i32, String> {
    match args.dir.as_deref() {
        None => {
            let top = page(Cli::command())?;
            out.write_all(&top).map_err(|e| e.to_string())?;
        }
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            for (name, roff) in pages()? {
                let path = dir.join(&name);
                write_atomic(&path, &roff)
                    .map_err(|e| format!("cannot write {}: {}", path.display(), io_reason(&e)))?;
                writeln!(out, "{}", path.display()).map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(0)
}
