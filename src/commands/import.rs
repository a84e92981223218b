//! `netlint import`: switch running-configs, LLDP tables, cabling CSVs and
//! host collections (`netlint collect hyperv` JSON) into a design (format
//! v2) with a provenance comment beside each value.
//! The reading is `netlint-import`'s; this command reads the files, reports
//! per file what was understood, and writes the design whole or not at all.

use crate::run::files::io_reason;
use crate::run::{refuse_inputs, write_atomic};
use netlint_import::design::to_design_with_host_ports;
use netlint_import::host::fold::NoteKind;
use netlint_import::host::{json, read_hyperv, sddc, vsphere, zip};
use netlint_import::{parse_bytes, Document, Kind};
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// Running-configs (NX-OS, EOS, IOS / IOS-XE, OS10), `show lldp
    /// neighbors detail` outputs (text, or NX-OS / EOS JSON), cabling
    /// CSVs (`device,port,peer_device,peer_port`) and host collections
    /// (the JSON files of `netlint collect hyperv`), or folders of them;
    /// each file's kind is detected from its content.
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
    let mut hosts = Vec::new();
    let mut failed = false;
    let mut not_understood = 0;
    // Get-SDDCDiagnosticInfo folders are read whole, one host per node.
    let (sddc_dirs, files): (Vec<PathBuf>, Vec<PathBuf>) = args
        .files
        .iter()
        .cloned()
        .partition(|p| p.is_dir() && sddc::is_sddc_dir(p));
    for dir in &sddc_dirs {
        add_sddc(sddc::read_dir(dir), &mut hosts, err, &mut failed);
    }
    let mut vsphere_colls = Vec::new();
    for path in expand(&files, err, &mut failed) {
        let name = path.display().to_string();
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                let _ = writeln!(err, "netlint: cannot read {name}: {}", io_reason(&e));
                failed = true;
                continue;
            }
        };
        if forced.is_none() && zip::is_zip(&bytes) {
            add_sddc(sddc::read_zip(&name, &bytes), &mut hosts, err, &mut failed);
            continue;
        }
        if forced.is_none() && vsphere::looks_like(&json::decode(&bytes)) {
            match vsphere::read(&name, &bytes) {
                Ok(c) => {
                    let _ = writeln!(
                        err,
                        "{name}: vsphere collection of cluster {}: {} host(s)",
                        netlint_model::text::escape(
                            c.cluster.as_ref().map_or("(unnamed)", |c| c.value.as_str())
                        ),
                        c.hosts.len()
                    );
                    vsphere_colls.push(c);
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
            continue;
        }
        if forced.is_none() && json::looks_like_collection(&json::decode(&bytes)) {
            match read_hyperv(&name, &bytes) {
                Ok(h) => {
                    let _ = writeln!(
                        err,
                        "{name}: hyperv collection of host {}: {} physical NICs, {} cmdlet(s) missing{}",
                        netlint_model::text::escape(&h.name),
                        h.nics.len(),
                        h.missing.len(),
                        if h.missing.is_empty() {
                            String::new()
                        } else {
                            format!(
                                " ({})",
                                h.missing
                                    .iter()
                                    .map(|m| m.0.as_str())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            )
                        }
                    );
                    hosts.push(h);
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
            continue;
        }
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
    // The switch ports the vmnics' CDP / LLDP hints name face hosts: the
    // switches write them as host ports.
    let hinted = netlint_import::host::vsphere_write::hint_ports(&vsphere_colls, &docs);
    let mut imported = to_design_with_host_ports(&docs, &hosts, &hinted, &args.name);
    if !vsphere_colls.is_empty() {
        let written = netlint_import::host::vsphere_write::write_with_docs(&vsphere_colls, &docs);
        imported.toml.push_str(&written.toml);
        for n in &written.notes {
            let _ = writeln!(err, "note: {}", netlint_model::text::escape_keep_lines(n));
        }
    }
    for n in &imported.notes {
        let _ = writeln!(
            err,
            "note: {}",
            netlint_model::text::escape_keep_lines(&n.to_string())
        );
    }
    for n in &imported.host_notes {
        let _ = writeln!(
            err,
            "note: {}",
            netlint_model::text::escape_keep_lines(&n.to_string())
        );
    }
    if !hosts.is_empty() {
        let count = |k: NoteKind| imported.host_notes.iter().filter(|n| n.kind == k).count();
        let _ = writeln!(
            err,
            "hosts: {} imported; {} fact(s) unknown or not mapped, {} inferred (said beside the value), {} NIC(s) tied to no switch port, {} difference(s) from Network ATC intents",
            hosts.len(),
            count(NoteKind::Unknown),
            count(NoteKind::Inferred),
            count(NoteKind::UnmatchedNic),
            count(NoteKind::IntentDiffers)
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

/// The files named, with each folder replaced by the files in it (and its
/// subfolders), sorted by name; hidden entries are left out.
fn expand(paths: &[PathBuf], err: &mut dyn Write, failed: &mut bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut stack = vec![p.clone()];
            let mut found = Vec::new();
            while let Some(dir) = stack.pop() {
                let entries = match std::fs::read_dir(&dir) {
                    Ok(e) => e,
                    Err(e) => {
                        let _ = writeln!(
                            err,
                            "netlint: cannot read {}: {}",
                            dir.display(),
                            io_reason(&e)
                        );
                        *failed = true;
                        continue;
                    }
                };
                for e in entries.flatten() {
                    let path = e.path();
                    if e.file_name().to_string_lossy().starts_with('.') {
                        continue;
                    }
                    if path.is_dir() {
                        stack.push(path);
                    } else {
                        found.push(path);
                    }
                }
            }
            found.sort();
            out.extend(found);
        } else {
            out.push(p.clone());
        }
    }
    out
}

/// One `Get-SDDCDiagnosticInfo` collection (folder or ZIP): every node's
/// collection to host facts (the Hyper-V mapping), every file's errors
/// reported.
fn add_sddc(
    read: Result<sddc::Sddc, Vec<netlint_import::InputError>>,
    hosts: &mut Vec<netlint_import::host::facts::HostFacts>,
    err: &mut dyn Write,
    failed: &mut bool,
) {
    match read {
        Ok(s) => {
            for node in &s.nodes {
                let h = netlint_import::host::hyperv::facts(&node.collection);
                let _ = writeln!(
                    err,
                    "{}: sddc node {}: {} physical NICs, {} network file(s) read, {} other file(s) not read; not gathered by Get-SDDCDiagnosticInfo: {}",
                    node.collection.file,
                    netlint_model::text::escape(&h.name),
                    h.nics.len(),
                    node.files.len(),
                    node.not_read,
                    h.missing
                        .iter()
                        .map(|m| m.0.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                hosts.push(h);
            }
        }
        Err(errors) => {
            for e in errors {
                let _ = writeln!(
                    err,
                    "netlint: {}",
                    netlint_model::text::escape_keep_lines(&e.to_string())
                );
            }
            *failed = true;
        }
    }
}
