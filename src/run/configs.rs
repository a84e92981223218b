//! `netlint check` on switch running-configs, LLDP tables and cabling CSVs
//! and Hyper-V host collections (`netlint collect hyperv` JSON)
//! (`netlint check tor1.cfg tor2.cfg cabling.csv hv1.json`): the files that are not
//! designs are imported together into one design in memory (as `netlint
//! import` would write it), that design is checked like any other, and
//! every label of every finding is moved from the generated design to the
//! config line its value came from, by the import's source map. A value
//! that came from a vendor default stays on the generated design, whose
//! line names the default and its source, and the label says so.

use super::files::{is_design, read_file, Input};
use netlint_import::design::{Imported, SourceMap, Src};
use netlint_import::input::{self, Read, Written};
use netlint_import::{InputError, Kind};
use netlint_model::{Diagnostic, Element, Label, Severity, SourceFile, Span, SYNTAX};
use std::path::{Path, PathBuf};

/// The name the design generated from configs is shown as.
pub const IMPORTED: &str = "<imported>";

/// Whether a file named for `check` is an import input (a running-config,
/// an LLDP table, a cabling CSV, a host collection) rather than a design:
/// not `*.toml` and no `[design]` table.
pub fn is_import_input(shown: &str, bytes: &[u8]) -> bool {
    !shown.ends_with(".toml") && !is_design(bytes)
}

/// The paths that are host folders read whole (`Get-SDDCDiagnosticInfo`
/// folders, one host per node; folders of `Format-List` text named by
/// their cmdlets, one host), and the others.
pub fn split_host_dirs(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<PathBuf>) {
    paths
        .iter()
        .cloned()
        .partition(|p| p.is_dir() && input::is_host_dir(p))
}

/// The import inputs of a run, read.
pub struct ConfigSet {
    /// Each input as read (decoded once, as the importer reads it): the
    /// text findings are shown in.
    pub sources: Vec<SourceFile>,
    /// Per file: the notes on how it was read, the summary line and the
    /// lines not understood, then the import's notes; for standard error,
    /// control characters escaped.
    pub summary: Vec<String>,
    /// Files that could not be read as any input kind, with the text of
    /// the file the error is in (empty when it is inside a folder or an
    /// archive).
    pub errors: Vec<(SourceFile, InputError)>,
    /// Lines not understood, over every input.
    pub not_understood: usize,
    /// Every input's lines ignored (blank lines left out), as
    /// `file:line: text (ignored: why)`, control characters escaped: what
    /// `import --list-ignored` prints.
    pub ignored: Vec<String>,
    /// The design, when every file was read.
    pub written: Option<Written>,
}

impl ConfigSet {
    pub fn imported(&self) -> Option<&Imported> {
        self.written.as_ref().map(|w| &w.imported)
    }
}

/// An input error of the importer as a diagnostic at its line.
pub fn input_error(file: &SourceFile, e: &InputError) -> Diagnostic {
    let span = netlint_import::source::line_span(&file.text, e.line)
        .map(Span::from)
        .unwrap_or_default();
    Diagnostic::new(SYNTAX, Severity::Error, Element::Design, e.kind.describe())
        .at(span, "")
        .with_help("netlint tells a file's kind from its content; to force one, give `--from KIND`")
}

/// Reads every import input (files read by the caller, and
/// `Get-SDDCDiagnosticInfo` folders whose files are read here, each under
/// `max_file_size`) with the one reader of `netlint-import`
/// ([`input::read_input`]) and, when all could be read, imports them into
/// one design named `name`. `forced` is `--from`.
pub fn import_inputs(
    inputs: Vec<Input>,
    host_dirs: &[PathBuf],
    forced: Option<Kind>,
    max_file_size: u64,
    name: &str,
) -> ConfigSet {
    let esc = |s: &str| netlint_model::text::escape_keep_lines(s).to_string();
    let mut set = ConfigSet {
        sources: Vec::new(),
        summary: Vec::new(),
        errors: Vec::new(),
        not_understood: 0,
        ignored: Vec::new(),
        written: None,
    };
    let mut read: Vec<Read> = Vec::new();
    let reader = |p: &Path| read_file(p, max_file_size);
    let mut shown_for = Vec::new();
    for dir in host_dirs {
        match input::read_host_dir(dir, &reader) {
            Ok(r) => {
                shown_for.push(super::files::display(dir));
                read.push(r);
            }
            Err(errors) => set.errors.extend(
                errors
                    .into_iter()
                    .map(|e| (SourceFile::new(e.file.clone(), String::new()), e)),
            ),
        }
    }
    for i in inputs {
        match input::read_input(&i.shown, &i.bytes, forced) {
            Ok(r) => {
                set.sources
                    .push(SourceFile::new(i.shown.clone(), r.text.clone()));
                shown_for.push(i.shown);
                read.push(r);
            }
            Err(errors) => {
                let text = netlint_import::decode::decode(&i.bytes).0;
                let file = SourceFile::new(i.shown.clone(), text);
                set.sources.push(file.clone());
                for e in errors {
                    let f = if e.file == i.shown {
                        file.clone()
                    } else {
                        SourceFile::new(e.file.clone(), String::new())
                    };
                    set.errors.push((f, e));
                }
            }
        }
    }
    for (shown, r) in shown_for.iter().zip(&read) {
        set.not_understood += r.input.not_understood();
        set.summary
            .extend(input::summary_lines(shown, r).iter().map(|l| esc(l)));
        set.ignored
            .extend(input::ignored_lines(shown, r).iter().map(|l| esc(l)));
    }
    if set.errors.is_empty() {
        let written = input::design(read.into_iter().map(|r| r.input).collect(), name);
        for n in &written.vsphere_notes {
            set.summary.push(format!("note: {}", esc(n)));
        }
        for n in &written.imported.notes {
            set.summary.push(format!("note: {}", esc(&n.to_string())));
        }
        for n in &written.imported.host_notes {
            set.summary.push(format!("note: {}", esc(&n.to_string())));
        }
        set.written = Some(written);
    }
    set
}

/// Refuses an output inside one of the input folders: it would be read
/// as an input on the next run, or overwrite one on this one.
pub fn refuse_inside_inputs(output: &Path, inputs: &[PathBuf]) -> Result<(), String> {
    // The output's place resolved through its nearest existing folder
    // (folders to make under it keep their names).
    let mut rest = Vec::new();
    let mut base = output.parent();
    let at = loop {
        let dir = match base {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        if let Ok(real) = std::fs::canonicalize(dir) {
            break rest.iter().rev().fold(real, |p: PathBuf, c| p.join(c));
        }
        match dir.file_name() {
            Some(c) => rest.push(c.to_os_string()),
            None => return Ok(()),
        }
        base = dir.parent();
    };
    for dir in inputs.iter().filter(|p| p.is_dir()) {
        if let Ok(d) = std::fs::canonicalize(dir) {
            if at.starts_with(&d) {
                return Err(format!(
                    "`-o {}` is inside {}, a folder this run reads: write the output outside it",
                    output.display(),
                    dir.display()
                ));
            }
        }
    }
    Ok(())
}

/// Where a label on the generated design goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A line of an input file: its name, the span of the line's content,
    /// then the other lines the value came from (the other end of a link).
    /// `inferred`: no line states the value; it was inferred from these
    /// lines, for this reason.
    Config {
        file: String,
        span: Span,
        also: Vec<(String, Span)>,
        inferred: Option<&'static str>,
    },
    /// A vendor default the config of `file` leaves in force: the label
    /// stays on the generated design.
    Default { file: String },
    /// The generated design's own text (no input sets it).
    Design,
}

/// Where the generated design's text at `span` came from.
pub fn place(map: &SourceMap, sources: &[SourceFile], span: Span) -> Place {
    let Some(m) = map.lookup(span.start..span.end) else {
        return Place::Design;
    };
    let line_of = |s: &Src| {
        let at = s.at()?;
        let f = sources.iter().find(|f| f.path == at.file)?;
        let r = netlint_import::source::line_span(&f.text, at.line)?;
        Some((at.file.clone(), Span::from(r)))
    };
    let mut lines: Vec<(String, Span)> = Vec::new();
    for l in m.from.iter().filter_map(line_of) {
        // A line stated and inferred from (an access VLAN's) is one place.
        if !lines.contains(&l) {
            lines.push(l);
        }
    }
    let inferred = m.from.iter().find_map(|s| match s {
        Src::Inferred { why, .. } => Some(*why),
        _ => None,
    });
    match lines.split_first() {
        Some(((file, span), also)) => Place::Config {
            file: file.clone(),
            span: *span,
            also: also.to_vec(),
            inferred,
        },
        None => match m.from.first() {
            Some(Src::Default { file, .. }) => Place::Default { file: file.clone() },
            _ => Place::Design,
        },
    }
}

/// A label's message, saying that its value was inferred (no line states
/// it) from the line it now points at.
pub fn with_inferred(message: &str, why: &str) -> String {
    let note = format!("inferred, not configured: {why}");
    if message.is_empty() {
        note
    } else {
        format!("{message} ({note})")
    }
}

/// A label moved to where its value came from: on a config line (saying
/// so when the value was inferred from it), or left on the generated
/// design with a note when a vendor default set it. The other lines a
/// value came from (the other end of a link) are returned.
pub fn move_label(
    label: &mut Label,
    map: &SourceMap,
    sources: &[SourceFile],
) -> Vec<(String, Span)> {
    match place(map, sources, label.span) {
        Place::Config {
            file,
            span,
            also,
            inferred,
        } => {
            label.span = span;
            label.file = Some(file);
            if let Some(why) = inferred {
                label.message = with_inferred(&label.message, why);
            }
            also
        }
        Place::Default { file } => {
            let note = format!("vendor default: {file} does not set it");
            label.message = if label.message.is_empty() {
                note
            } else {
                format!("{} ({note})", label.message)
            };
            Vec::new()
        }
        Place::Design => Vec::new(),
    }
}

/// Moves every label of `d` from the generated design to the input lines
/// its values came from (see the module docs).
pub fn remap(d: &mut Diagnostic, map: &SourceMap, sources: &[SourceFile]) {
    let mut extra = Vec::new();
    if let Some(p) = &mut d.primary {
        extra.extend(
            move_label(p, map, sources)
                .into_iter()
                .map(|(f, s)| Label::in_file(f, s, "the value also comes from this line")),
        );
    }
    for r in &mut d.related {
        // A related label keeps its first line only: the finding's own
        // place gets the others.
        move_label(r, map, sources);
    }
    for l in extra {
        let same = |o: &Label| o.file == l.file && o.span == l.span;
        if !d.primary.as_ref().is_some_and(same) && !d.related.iter().any(same) {
            d.related.push(l);
        }
    }
}

/// Diagnostics in order of their primary location: file (the generated
/// design's own first), position, rule, message.
pub fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| {
        let key = |d: &Diagnostic| {
            let (file, start) = d
                .primary
                .as_ref()
                .map(|p| (p.file.clone(), p.span.start))
                .unwrap_or((None, 0));
            (file, start)
        };
        key(a)
            .cmp(&key(b))
            .then_with(|| a.sort_key().cmp(&b.sort_key()))
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use netlint_import::{parse, Document, Vendor};

    /// A label on a value inferred from a line (an EOS port whose mode
    /// only its `switchport access vlan` line implies) moves to that line
    /// once, and says the value was inferred; a configured one does not.
    #[test]
    fn a_label_on_an_inferred_value_says_so_at_the_line_it_follows_from() {
        let text = "hostname leaf1\nvlan 10\ninterface Ethernet1\n   switchport access vlan 10\ninterface Ethernet2\n   switchport mode access\n   switchport access vlan 10\n";
        let cabling = "leaf1,Ethernet1,hv1,NIC1\nleaf1,Ethernet2,hv2,NIC1\n";
        let docs: Vec<Document> = vec![
            parse("leaf1.cfg", text, Some(Kind::Config(Vendor::Eos))).unwrap(),
            parse("cabling.csv", cabling, None).unwrap(),
        ];
        let imported = netlint_import::design::to_design(&docs, "imported");
        let sources = [
            SourceFile::new("leaf1.cfg", text.to_string()),
            SourceFile::new("cabling.csv", cabling.to_string()),
        ];
        let span_of = |table: &str| {
            let t = imported.toml.find(table).expect(table);
            let at = t + imported.toml[t..].find("access_vlan").unwrap();
            Span::from(at..at + "access_vlan = 10".len())
        };
        match place(&imported.map, &sources, span_of("\"Ethernet1\"]")) {
            Place::Config {
                file,
                span,
                also,
                inferred,
            } => {
                assert_eq!(file, "leaf1.cfg");
                assert_eq!(&text[span.start..span.end], "switchport access vlan 10");
                assert!(also.is_empty(), "one line, not twice: {also:?}");
                assert_eq!(inferred, Some(netlint_import::defaults::ACCESS_INFERRED));
            }
            other => panic!("{other:?}\n{}", imported.toml),
        }
        let mut label = Label::new(span_of("\"Ethernet1\"]"), "VLAN 10 is not carried");
        move_label(&mut label, &imported.map, &sources);
        assert_eq!(
            label.message,
            format!(
                "VLAN 10 is not carried (inferred, not configured: {})",
                netlint_import::defaults::ACCESS_INFERRED
            )
        );
        // Ethernet2 states its mode: nothing is inferred there.
        let mut label = Label::new(span_of("\"Ethernet2\"]"), "VLAN 10 is not carried");
        move_label(&mut label, &imported.map, &sources);
        assert_eq!(label.message, "VLAN 10 is not carried");
        assert_eq!(label.file.as_deref(), Some("leaf1.cfg"));
    }
}
