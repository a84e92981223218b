//! `netlint import`: switch running-configs, LLDP tables and cabling CSVs
//! into a design (format v2) with a provenance comment beside each value.
//! The reading is `netlint-import`'s; this command reads the files, reports
//! per file what was understood, and writes the design whole or not at all.

use crate::run::files::io_reason;
use crate::run::{refuse_inputs, write_atomic};
use netlint_import::design::to_design;
use netlint_import::{parse_bytes, Document, Kind};
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// Running-configs (NX-OS, EOS, IOS / IOS-XE, OS10), `show lldp
    /// neighbors detail` outputs (text, or NX-OS / EOS JSON) and cabling
    /// CSVs (`device,port,peer_device,peer_port`); each file's kind is
    /// detected from its content.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Write the design to FILE (whole or not at all) instead of standard
    /// output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Read every file as this kind instead of detecting it: nxos, eos,
    /// ios, os10, lldp-nxos, lldp-eos, lldp-ios, lldp-os10,
    /// lldp-nxos-json, lldp-eos-json, cabling.
    #[arg(long, value_name = "KIND", value_parser = kind_parser())]
    pub from: Option<String>,
    /// Fail (exit 2, nothing written) when a relevant line was not
    /// understood.
    #[arg(long)]
    pub strict: bool,
    /// The design's name (`[design] name`).
    #[arg(long, value_name = "NAME", default_value = "imported")]
    pub name: String,
}

fn kind_parser() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(Kind::KEYS.iter().map(|(k, _)| *k))
}

pub fn run(args: ImportArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, String> {
    if let Some(o) = &args.output {
        refuse_inputs(o, &args.files)?;
    }
    let forced = args.from.as_deref().and_then(Kind::from_key);
    let mut docs: Vec<Document> = Vec::new();
    let mut failed = false;
    let mut not_understood = 0;
    for path in &args.files {
        let name = path.display().to_string();
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                let _ = writeln!(err, "netlint: cannot read {name}: {}", io_reason(&e));
                failed = true;
                continue;
            }
        };
        match parse_bytes(&name, &bytes, forced) {
            Ok(doc) => {
                let s = doc.summary();
                for line in crate::run::configs::summary_lines(&name, &doc) {
                    let _ = writeln!(err, "{line}");
                }
                not_understood += s.not_understood_count();
                docs.push(doc);
            }
            Err(e) => {
                let _ = writeln!(
                    err,
                    "netlint: {}",
                    netlint_model::text::escape_keep_lines(&e.to_string())
                );
                failed = true;
            }
        }
    }
    if failed {
        return Ok(2);
    }
    if args.strict && not_understood > 0 {
        let _ = writeln!(
            err,
            "netlint: --strict: {not_understood} line(s) not understood; nothing written"
        );
        return Ok(2);
    }
    let imported = to_design(&docs, &args.name);
    for n in &imported.notes {
        let _ = writeln!(
            err,
            "note: {}",
            netlint_model::text::escape_keep_lines(&n.to_string())
        );
    }
    match &args.output {
        Some(path) => write_atomic(path, imported.toml.as_bytes())
            .map_err(|e| format!("cannot write {}: {}", path.display(), io_reason(&e)))?,
        None => out
            .write_all(imported.toml.as_bytes())
            .map_err(|e| e.to_string())?,
    }
    Ok(0)
}
