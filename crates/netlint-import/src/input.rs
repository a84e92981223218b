//! The one reader of inputs: which kind a file is and reading it, for
//! `import`, `check` and `diff` alike.
//!
//! [`read_input`] takes a file's bytes (the caller reads them, with its
//! limits), decodes them once ([`crate::decode`]) and reads them as the
//! kind `--from` names or, without it, the kind detected:
//!
//! 1. a ZIP archive: a `Get-SDDCDiagnosticInfo` collection;
//! 2. JSON of `netlint collect vsphere`: a vSphere collection;
//! 3. JSON with a `Cmdlets` member: a Hyper-V collection
//!    (`netlint collect hyperv`);
//! 4. PowerShell `Format-List` text of the host cmdlets, its sections
//!    introduced by their command lines or the file named by its cmdlet
//!    ([`crate::host::fltext`]): a Hyper-V host;
//! 5. else a running-config, an LLDP table or a cabling CSV, by their
//!    markers ([`crate::detect`]).
//!
//! A `Get-SDDCDiagnosticInfo` folder, or a folder of `Format-List` text
//! files named by their cmdlets, is read by [`read_host_dir`], with the
//! caller's file reader. [`design`] writes the design of every input read.

use std::path::Path;

use crate::decode::decode;
use crate::design::{to_design_with_host_ports, Imported};
use crate::detect::{self, Kind};
use crate::error::{ErrorKind, InputError};
use crate::host::facts::HostFacts;
use crate::host::sddc::{self, Sddc};
use crate::host::vsphere::{self, VsphereCollection};
use crate::host::{fltext, json, read_hyperv, read_hyperv_text, zip};
use crate::{parse, source, Document};

/// One input, read.
#[derive(Clone, Debug)]
pub enum Input {
    /// A running-config, an LLDP table or a cabling CSV.
    Switch(Document),
    /// A Hyper-V / Azure Local host collection.
    Hyperv(Box<HostFacts>),
    /// A vSphere cluster collection.
    Vsphere(Box<VsphereCollection>),
    /// A `Get-SDDCDiagnosticInfo` collection (folder or ZIP archive), and
    /// its nodes mapped to host facts (once, in node order).
    Sddc(Sddc, Vec<HostFacts>),
}

impl Input {
    /// The kind read, as `--from` names it.
    pub fn kind(&self) -> Kind {
        match self {
            Input::Switch(d) => d.kind(),
            Input::Hyperv(_) => Kind::Hyperv,
            Input::Vsphere(_) => Kind::Vsphere,
            Input::Sddc(..) => Kind::Sddc,
        }
    }

    /// Lines not understood (switch-side inputs), or cmdlets netlint does
    /// not read (a Hyper-V collection); host collections list what they
    /// miss as notes of the design.
    pub fn not_understood(&self) -> usize {
        match self {
            Input::Switch(d) => d.summary().not_understood_count(),
            Input::Hyperv(h) => h.not_understood.len(),
            _ => 0,
        }
    }
}

/// An input read, with the text it was read from.
#[derive(Clone, Debug)]
pub struct Read {
    pub input: Input,
    /// The decoded text (empty for a ZIP archive or a folder): where
    /// findings about its lines are shown.
    pub text: String,
    /// What the user should know about how the file was read (it is not
    /// UTF-8; it does not look like the kind `--from` named), without the
    /// file's name.
    pub notes: Vec<String>,
}

/// Reads one file (see the module docs). `name` names it in errors and
/// provenance; `forced` is `--from`.
pub fn read_input(name: &str, bytes: &[u8], forced: Option<Kind>) -> Result<Read, Vec<InputError>> {
    let one = |e: InputError| vec![e];
    if forced == Some(Kind::Sddc) || (forced.is_none() && zip::is_zip(bytes)) {
        if !zip::is_zip(bytes) {
            return Err(one(wrong(
                name,
                "not a ZIP archive: a Get-SDDCDiagnosticInfo collection is read from its ZIP archive or its folder",
            )));
        }
        let s = sddc::read_zip(name, bytes)?;
        return Ok(Read {
            input: sddc_input(s),
            text: String::new(),
            notes: Vec::new(),
        });
    }
    let (text, note) = decode(bytes);
    let mut notes: Vec<String> = note.into_iter().collect();
    let kind = match forced {
        Some(k) => Some(k),
        None if vsphere::looks_like(&text) => Some(Kind::Vsphere),
        None if json::looks_like_collection(&text) => Some(Kind::Hyperv),
        None if fltext::looks_like(name, &text) => Some(Kind::HypervText),
        None => None,
    };
    // The decoded text, as UTF-8 bytes, for the host readers (which take
    // bytes): the encoding is decided once, here.
    let input = match kind {
        Some(Kind::Vsphere) => {
            Input::Vsphere(Box::new(vsphere::read(name, text.as_bytes()).map_err(one)?))
        }
        Some(Kind::Hyperv) => {
            Input::Hyperv(Box::new(read_hyperv(name, text.as_bytes()).map_err(one)?))
        }
        Some(Kind::HypervText) => {
            Input::Hyperv(Box::new(read_hyperv_text(name, &text).map_err(one)?))
        }
        Some(Kind::Sddc) => unreachable!("read above"),
        Some(k) => {
            if let Some(n) = contradicts(&text, k) {
                notes.push(n);
            }
            Input::Switch(parse(name, &text, Some(k)).map_err(one)?)
        }
        None => Input::Switch(parse(name, &text, None).map_err(one)?),
    };
    Ok(Read { input, text, notes })
}

/// Whether `dir` is a `Get-SDDCDiagnosticInfo` folder (it holds a
/// `Node_<name>` folder).
pub fn is_sddc_dir(dir: &Path) -> bool {
    sddc::is_sddc_dir(dir)
}

/// Reads a `Get-SDDCDiagnosticInfo` folder, its files read by `read` (the
/// caller's limits: regular files only, at most so many bytes).
pub fn read_sddc_dir(
    dir: &Path,
    read: &dyn Fn(&Path) -> Result<Vec<u8>, String>,
) -> Result<Read, Vec<InputError>> {
    let s = sddc::read_dir_with(dir, read)?;
    Ok(Read {
        input: sddc_input(s),
        text: String::new(),
        notes: Vec::new(),
    })
}

/// Whether `dir` is a folder of `Format-List` text named by cmdlets: it
/// holds a file named by a cmdlet netlint reads (`Get-NetAdapter.txt`).
pub fn is_fltext_dir(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|rd| {
        rd.flatten().any(|e| {
            !e.path().is_dir() && fltext::file_cmdlet(&e.file_name().to_string_lossy()).is_some()
        })
    })
}

/// Whether `dir` is a host folder read whole: a `Get-SDDCDiagnosticInfo`
/// folder or a folder of `Format-List` text.
pub fn is_host_dir(dir: &Path) -> bool {
    is_sddc_dir(dir) || is_fltext_dir(dir)
}

/// Reads a host folder ([`is_host_dir`]): a `Get-SDDCDiagnosticInfo`
/// folder, else a folder of `Format-List` text (each file named
/// `Get-...` read by `read`, the others listed as not read).
pub fn read_host_dir(
    dir: &Path,
    read: &dyn Fn(&Path) -> Result<Vec<u8>, String>,
) -> Result<Read, Vec<InputError>> {
    if is_sddc_dir(dir) {
        return read_sddc_dir(dir, read);
    }
    let root = dir.display().to_string();
    let cannot = |p: &Path, why: String| InputError {
        file: p.display().to_string(),
        line: 1,
        column: 0,
        kind: ErrorKind::WrongKind(format!("cannot read: {why}")),
    };
    let mut entries: Vec<_> = match std::fs::read_dir(dir) {
        Ok(rd) => rd.flatten().map(|e| e.path()).collect(),
        Err(e) => return Err(vec![cannot(dir, e.to_string())]),
    };
    entries.sort();
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for p in entries.into_iter().filter(|p| !p.is_dir()) {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let named = fltext::named_get(&name);
        if !named {
            files.push((name, Vec::new()));
            continue;
        }
        match read(&p) {
            Ok(b) => files.push((name, b)),
            Err(e) => errors.push(cannot(&p, e)),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let r = fltext::from_files(&root, files)?;
    let mut notes = Vec::new();
    if !r.not_read.is_empty() {
        notes.push(format!(
            "{} file(s) named by no cmdlet, not read: {}",
            r.not_read.len(),
            r.not_read.join(", ")
        ));
    }
    Ok(Read {
        input: Input::Hyperv(Box::new(crate::host::fltext_facts(r))),
        text: String::new(),
        notes,
    })
}

fn sddc_input(s: Sddc) -> Input {
    let hosts = s
        .nodes
        .iter()
        .map(|n| crate::host::hyperv::facts(&n.collection))
        .collect();
    Input::Sddc(s, hosts)
}

fn wrong(name: &str, why: &str) -> InputError {
    InputError {
        file: name.to_string(),
        line: 1,
        column: 0,
        kind: ErrorKind::WrongKind(why.to_string()),
    }
}

/// A note when `--from` names a switch-side kind and the content looks
/// like another: read as EOS, a NX-OS config has most of its lines
/// "understood" or "ignored" by the EOS reader, which says nothing wrong.
fn contradicts(text: &str, forced: Kind) -> Option<String> {
    let seen = if vsphere::looks_like(text) {
        Kind::Vsphere
    } else if json::looks_like_collection(text) {
        Kind::Hyperv
    } else if fltext::looks_like("", text) {
        Kind::HypervText
    } else {
        let lines = source::lines(text.strip_prefix('\u{feff}').unwrap_or(text));
        detect::detect(&lines)?
    };
    if seen == forced {
        return None;
    }
    let what = |k: Kind| match k {
        Kind::Config(_) => format!("a {} running-config", k.key()),
        Kind::Lldp(_) => format!("a {} LLDP table", k.key()),
        Kind::Cabling => "a cabling CSV".to_string(),
        _ => format!("a {} collection", k.key()),
    };
    Some(format!(
        "read as {} (--from {}), but its content looks like {} (--from {}): what the wrong reader takes for understood or irrelevant may not be",
        forced.key(),
        forced.key(),
        what(seen),
        seen.key()
    ))
}

/// What `import`, `check` and `diff` print about one input read: its kind
/// and counts, then each line not understood; first the notes on how it
/// was read. Names and texts are the inputs' own: escape control
/// characters before they reach a terminal.
pub fn summary_lines(name: &str, read: &Read) -> Vec<String> {
    let esc = |s: &str| s.to_string();
    let mut out: Vec<String> = read
        .notes
        .iter()
        .map(|n| format!("note: {name}: {}", esc(n)))
        .collect();
    match &read.input {
        Input::Switch(doc) => {
            let s = doc.summary();
            out.push(format!(
                "{name}: {} ({} lines): {} understood, {} ignored as irrelevant, {} not understood",
                doc.kind().key(),
                s.lines(),
                s.understood(),
                s.ignored(),
                s.not_understood_count()
            ));
            for n in &s.not_understood {
                out.push(format!(
                    "  {name}:{}: {} ({})",
                    n.line,
                    esc(&n.text),
                    n.reason
                ));
            }
            for n in &s.notes {
                out.push(format!("  {name}:{}: note: {}", n.line, esc(&n.text)));
            }
        }
        Input::Hyperv(h) => {
            out.push(format!(
                "{name}: hyperv collection of host {}: {} physical NICs, {} cmdlet(s) missing{}, {} not understood",
                esc(&h.name),
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
                },
                h.not_understood.len()
            ));
            for (cmd, line) in &h.not_understood {
                out.push(format!(
                    "  {name}:{line}: {} (a cmdlet netlint does not read)",
                    esc(cmd)
                ));
            }
        }
        Input::Vsphere(c) => out.push(match &c.cluster {
            Some(cl) => format!(
                "{name}: vsphere collection of cluster {}: {} host(s)",
                esc(&cl.value),
                c.hosts.len()
            ),
            // `netlint collect vsphere` writes `Cluster: null` for a host
            // in no cluster (connected to the host itself, or -VMHost).
            None => format!(
                "{name}: vsphere collection of {} standalone host(s) (in no cluster)",
                c.hosts.len()
            ),
        }),
        Input::Sddc(s, hosts) => {
            for (node, h) in s.nodes.iter().zip(hosts) {
                out.push(format!(
                    "{}: sddc node {}: {} physical NICs, {} network file(s) read, {} other file(s) not read; not gathered by Get-SDDCDiagnosticInfo: {}",
                    esc(&node.collection.file),
                    esc(&h.name),
                    h.nics.len(),
                    node.files.len(),
                    node.not_read,
                    h.missing
                        .iter()
                        .map(|m| m.0.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
    }
    out
}

/// The lines of one input read that were ignored (blank lines left out),
/// each as `name:line: text (ignored: why)`, for `import --list-ignored`;
/// none for host collections. Names and texts are the inputs' own: escape
/// control characters before they reach a terminal.
pub fn ignored_lines(name: &str, read: &Read) -> Vec<String> {
    match &read.input {
        Input::Switch(doc) => doc
            .summary()
            .ignored_lines
            .iter()
            .map(|l| format!("{name}:{}: {} (ignored: {})", l.line, l.text, l.why))
            .collect(),
        _ => Vec::new(),
    }
}

/// A design written from inputs, and the notes of its vSphere part.
#[derive(Clone, Debug)]
pub struct Written {
    pub imported: Imported,
    /// Notes of the vSphere writer (the others are in `imported`).
    pub vsphere_notes: Vec<String>,
    /// How many hosts of Hyper-V and SDDC collections were written.
    pub hosts: usize,
}

/// The design of every input read: switches and links from the configs,
/// LLDP tables and cabling; hosts from the Hyper-V and SDDC collections;
/// then the vSphere clusters.
pub fn design(inputs: Vec<Input>, design_name: &str) -> Written {
    let mut docs = Vec::new();
    let mut hosts: Vec<HostFacts> = Vec::new();
    let mut vsphere_colls = Vec::new();
    for i in inputs {
        match i {
            Input::Switch(d) => docs.push(d),
            Input::Hyperv(h) => hosts.push(*h),
            Input::Vsphere(c) => vsphere_colls.push(*c),
            Input::Sddc(_, h) => hosts.extend(h),
        }
    }
    // The switch ports the vmnics' CDP / LLDP hints name face hosts: the
    // switches write them as host ports.
    let hinted = crate::host::vsphere_write::hint_ports(&vsphere_colls, &docs);
    let mut imported = to_design_with_host_ports(&docs, &hosts, &hinted, design_name);
    let mut vsphere_notes = Vec::new();
    if !vsphere_colls.is_empty() {
        let written = crate::host::vsphere_write::write_with_docs_in(
            &vsphere_colls,
            &docs,
            &mut imported.tables,
        );
        let offset = imported.toml.len();
        imported.toml.push_str(&written.toml);
        imported.map.append(written.map, offset);
        vsphere_notes = written.notes;
    }
    crate::design::add_vlan_networks(&mut imported, &docs);
    Written {
        imported,
        vsphere_notes,
        hosts: hosts.len(),
    }
}
