//! `netlint import`: switch running-configs, LLDP tables, cabling CSVs and
//! host collections (Hyper-V, vSphere, `Get-SDDCDiagnosticInfo`) into a
//! design (format v2) with a provenance comment beside each value.
//! The reading is `netlint-import`'s one reader
//! (`netlint_import::read_input`), called as `check` and `diff` call it;
//! the files are found and read as `check` reads them (`run::files`: the
//! same walk, regular files only, `--max-file-size`). This command reports
//! per file what was understood, loads the design it is about to write
//! (a design its own loader refuses is never written), and writes it whole
//! or not at all.

use crate::commands::common::{kind_parser, note_skipped};
use crate::run::configs::{import_inputs, refuse_inside_inputs, split_host_dirs};
use crate::run::files::{display, io_reason, parse_size};
use crate::run::{
    collect_designs, refuse_inputs, write_atomic, FileReport, ReadOptions, DEFAULT_MAX_FILE_SIZE,
};
use netlint_import::host::fold::NoteKind;
use netlint_import::Kind;
use netlint_model::{Diagnostic, FailOn, SourceFile};
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// The inputs, or folders of them (every file that is not hidden);
    /// each file's kind is detected from its content: running-configs
    /// (NX-OS, EOS, IOS / IOS-XE, OS10); `show lldp neighbors` and `show
    /// lldp neighbors detail` outputs (text, or NX-OS / EOS JSON); cabling CSVs
    /// (`device,port,peer_device,peer_port`); Hyper-V / Azure Local host
    /// collections (the JSON of `netlint collect hyperv`, or PowerShell
    /// `Format-List` text of the host cmdlets: a transcript with the
    /// command lines, or a folder of files named by cmdlet,
    /// `Get-NetAdapter.txt`); vSphere cluster collections (the JSON of
    /// `netlint collect vsphere`); `Get-SDDCDiagnosticInfo` collections
    /// (its folder, or its ZIP archive). `-` reads standard input.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Write the design to FILE (whole or not at all) instead of standard
    /// output. FILE may be neither an input nor inside an input folder.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Read every file as this kind instead of detecting it: nxos, eos,
    /// ios, os10, lldp-nxos, lldp-eos, lldp-ios, lldp-os10,
    /// lldp-nxos-json, lldp-eos-json, cabling, hyperv, vsphere, sddc (a
    /// ZIP archive), hyperv-text (Format-List text). A file that looks
    /// like another kind is said.
    #[arg(long, value_name = "KIND", value_parser = kind_parser())]
    pub from: Option<String>,
    /// Fail (exit 2, nothing written) when a relevant line was not
    /// understood.
    #[arg(long)]
    pub strict: bool,
    /// List every line ignored (blank lines left out) on standard error,
    /// as `file:line: text (ignored: why)`, after the summary: the
    /// commands known irrelevant with their reason (`aaa`, `qos`,
    /// `routing`, ...), comments, banner text and capture noise.
    #[arg(long)]
    pub list_ignored: bool,
    /// The design's name (`[design] name`).
    #[arg(long, value_name = "NAME", default_value = "imported")]
    pub name: String,
    /// Read at most this much of one file (bytes, or with K, M, G); a
    /// larger file is an error. Default 16M, as `check`.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub max_file_size: Option<u64>,
}

/// The design's input errors when `netlint_model::load` (as `check`
/// loads a design) refuses it; `None` when it loads.
pub fn does_not_load(file: &SourceFile) -> Option<Vec<Diagnostic>> {
    let loaded = netlint_model::load(file);
    let refused: Vec<Diagnostic> = loaded
        .diagnostics
        .into_iter()
        .filter(Diagnostic::is_input_error)
        .collect();
    (!refused.is_empty() || loaded.design.is_none()).then_some(refused)
}

pub fn run(args: ImportArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, String> {
    if let Some(o) = &args.output {
        refuse_inputs(o, &args.files)?;
        refuse_inside_inputs(o, &args.files)?;
    }
    let forced = args.from.as_deref().and_then(Kind::from_key);
    let max = args.max_file_size.unwrap_or(DEFAULT_MAX_FILE_SIZE);
    // Get-SDDCDiagnosticInfo folders are read whole, one host per node,
    // and folders of Format-List text named by cmdlet, one host; other
    // folders give every file in them, found as `check` finds files.
    let (host_dirs, paths) = split_host_dirs(&args.files);
    let opts = ReadOptions {
        max_file_size: max,
        any_file: true,
        ..ReadOptions::default()
    };
    let collected = collect_designs(&paths, &opts);
    if let Some(o) = &args.output {
        let read: Vec<PathBuf> = collected
            .inputs
            .iter()
            .filter_map(|i| i.path.clone())
            .collect();
        refuse_inputs(o, &read)?;
    }
    note_skipped(&collected.skipped, err);
    let mut failed = false;
    for u in &collected.unreadable {
        let _ = writeln!(
            err,
            "netlint: cannot read {}: {}",
            netlint_model::text::escape_keep_lines(&u.shown),
            u.reason
        );
        failed = true;
    }
    let set = import_inputs(collected.inputs, &host_dirs, forced, max, &args.name);
    for line in &set.summary {
        let _ = writeln!(err, "{line}");
    }
    if args.list_ignored {
        for line in &set.ignored {
            let _ = writeln!(err, "{line}");
        }
    }
    for (_, e) in &set.errors {
        let _ = writeln!(
            err,
            "netlint: {}",
            netlint_model::text::escape_keep_lines(&e.to_string())
        );
        failed = true;
    }
    let written = match set.written {
        Some(w) if !failed => w,
        _ => return Ok(2),
    };
    if args.strict && set.not_understood > 0 {
        let _ = writeln!(
            err,
            "netlint: --strict: {} line(s) not understood; nothing written",
            set.not_understood
        );
        return Ok(2);
    }
    let imported = &written.imported;
    if written.hosts > 0 {
        let count = |k: NoteKind| imported.host_notes.iter().filter(|n| n.kind == k).count();
        let _ = writeln!(
            err,
            "hosts: {} imported; {} fact(s) unknown or not mapped, {} inferred (said beside the value), {} NIC(s) tied to no switch port, {} difference(s) from Network ATC intents",
            written.hosts,
            count(NoteKind::Unknown),
            count(NoteKind::Inferred),
            count(NoteKind::UnmatchedNic),
            count(NoteKind::IntentDiffers)
        );
    }
    // The backstop: the design is loaded as `check` loads it before it is
    // written; one its loader refuses is never written.
    let shown = args
        .output
        .as_deref()
        .map_or_else(|| "<imported>".to_string(), display);
    let file = SourceFile::new(shown, imported.toml.clone());
    if let Some(refused) = does_not_load(&file) {
        crate::commands::common::show_input_errors(
            vec![FileReport {
                file,
                diagnostics: refused,
                design: None,
                fail_on: FailOn::Warning,
            }],
            err,
        );
        let _ = writeln!(
            err,
            "netlint: the imported design does not load (a defect of the importer, please report it with the inputs): nothing written"
        );
        return Ok(2);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backstop_refuses_what_the_loader_refuses() {
        let ok = SourceFile::new("a.toml", "[design]\nname = \"a\"\n".to_string());
        assert!(does_not_load(&ok).is_none());
        // The two shapes issue 30 names: a table written twice, and a
        // control character in a comment.
        for bad in [
            "[design]\nname = \"a\"\n[profiles.esx-c]\n[profiles.esx-c]\n",
            "[design]\nname = \"a\"\n# VLAN 10 is named a\u{7}b\n",
        ] {
            let f = SourceFile::new("b.toml", bad.to_string());
            let d = does_not_load(&f).expect(bad);
            assert!(!d.is_empty(), "{bad}");
        }
    }
}
