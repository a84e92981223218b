//! `netlint check` on switch running-configs, LLDP tables and cabling CSVs
//! and Hyper-V host collections (`netlint collect hyperv` JSON)
//! (`netlint check tor1.cfg tor2.cfg cabling.csv hv1.json`): the files that are not
//! designs are imported together into one design in memory (as `netlint
//! import` would write it), that design is checked like any other, and
//! every label of every finding is moved from the generated design to the
//! config line its value came from, by the import's source map. A value
//! that came from a vendor default stays on the generated design, whose
//! line names the default and its source, and the label says so.

use super::files::{is_design, Input};
use netlint_import::design::{to_design_with_hosts, Imported, SourceMap, Src};
use netlint_import::host::{json, read_hyperv};
use netlint_import::{parse, Document, InputError};
use netlint_model::{Diagnostic, Element, Label, Severity, SourceFile, Span, SYNTAX};

/// The name the design generated from configs is shown as.
pub const IMPORTED: &str = "<imported>";

/// Whether a file named for `check` is an import input (a running-config,
/// an LLDP table, a cabling CSV) rather than a design: not `*.toml` and no
/// `[design]` table.
pub fn is_import_input(shown: &str, bytes: &[u8]) -> bool {
    !shown.ends_with(".toml") && !is_design(bytes)
}

/// The import inputs of a run, read.
pub struct ConfigSet {
    /// Each input as read (invalid UTF-8 replaced, as the importer reads
    /// it): the text findings are shown in.
    pub sources: Vec<SourceFile>,
    /// Per file: the summary line and the lines not understood, then the
    /// import's notes; for standard error.
    pub summary: Vec<String>,
    /// Files that could not be read as any input kind, with the error at
    /// its line.
    pub errors: Vec<(SourceFile, Diagnostic)>,
    /// The design, when every file was read.
    pub imported: Option<Imported>,
}

/// What `netlint import` and `netlint check` print per input file: its
/// kind and line counts, then each line not understood.
pub fn summary_lines(name: &str, doc: &Document) -> Vec<String> {
    let s = doc.summary();
    let mut out = vec![format!(
        "{name}: {} ({} lines): {} understood, {} ignored as irrelevant, {} not understood",
        doc.kind().key(),
        s.lines(),
        s.understood(),
        s.ignored(),
        s.not_understood_count()
    )];
    for n in &s.not_understood {
        out.push(format!(
            "  {name}:{}: {} ({})",
            n.line,
            netlint_model::text::escape_keep_lines(&n.text),
            n.reason
        ));
    }
    for n in &s.notes {
        out.push(format!(
            "  {name}:{}: note: {}",
            n.line,
            netlint_model::text::escape_keep_lines(&n.text)
        ));
    }
    out
}

/// An input error of the importer as a diagnostic at its line.
pub fn input_error(file: &SourceFile, e: &InputError) -> Diagnostic {
    let span = netlint_import::source::line_span(&file.text, e.line)
        .map(Span::from)
        .unwrap_or_default();
    Diagnostic::new(SYNTAX, Severity::Error, Element::Design, e.kind.describe())
        .at(span, "")
        .with_help(
            "`netlint check` tells a file's kind from its content; to force one, import it \
             with `netlint import --from KIND FILE... -o design.toml` and check that design",
        )
}

/// Reads every import input and, when all could be read, imports them
/// into one design.
pub fn import_inputs(inputs: Vec<Input>) -> ConfigSet {
    let mut set = ConfigSet {
        sources: Vec::new(),
        summary: Vec::new(),
        errors: Vec::new(),
        imported: None,
    };
    let mut docs = Vec::new();
    let mut hosts = Vec::new();
    for input in inputs {
        let text = String::from_utf8_lossy(&input.bytes).into_owned();
        let file = SourceFile::new(input.shown.clone(), text);
        // A Hyper-V host collection (`netlint collect hyperv` JSON).
        if json::looks_like_collection(&json::decode(&input.bytes)) {
            match read_hyperv(&input.shown, &input.bytes) {
                Ok(h) => {
                    set.summary.push(format!(
                        "{}: hyperv collection of host {}: {} physical NICs",
                        input.shown,
                        h.name,
                        h.nics.len()
                    ));
                    hosts.push(h);
                }
                Err(e) => {
                    let d = input_error(&file, &e);
                    set.errors.push((file.clone(), d));
                }
            }
            set.sources.push(file);
            continue;
        }
        match parse(&input.shown, &file.text, None) {
            Ok(doc) => {
                set.summary.extend(summary_lines(&input.shown, &doc));
                docs.push(doc);
            }
            Err(e) => {
                let d = input_error(&file, &e);
                set.errors.push((file.clone(), d));
            }
        }
        set.sources.push(file);
    }
    if set.errors.is_empty() {
        let imported = to_design_with_hosts(&docs, &hosts, "imported");
        for n in &imported.notes {
            set.summary.push(format!(
                "note: {}",
                netlint_model::text::escape_keep_lines(&n.to_string())
            ));
        }
        for n in &imported.host_notes {
            set.summary.push(format!(
                "note: {}",
                netlint_model::text::escape_keep_lines(&n.to_string())
            ));
        }
        set.imported = Some(imported);
    }
    set
}

/// Where a label on the generated design goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A line of an input file: its name, the span of the line's content,
    /// then the other lines the value came from (the other end of a link).
    Config {
        file: String,
        span: Span,
        also: Vec<(String, Span)>,
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
    let line_of = |s: &Src| match s {
        Src::Line(at) => {
            let f = sources.iter().find(|f| f.path == at.file)?;
            let r = netlint_import::source::line_span(&f.text, at.line)?;
            Some((at.file.clone(), Span::from(r)))
        }
        Src::Default { .. } => None,
    };
    let lines: Vec<(String, Span)> = m.from.iter().filter_map(line_of).collect();
    match lines.split_first() {
        Some(((file, span), also)) => Place::Config {
            file: file.clone(),
            span: *span,
            also: also.to_vec(),
        },
        None => match m.from.first() {
            Some(Src::Default { file, .. }) => Place::Default { file: file.clone() },
            _ => Place::Design,
        },
    }
}

/// A label moved to where its value came from: on a config line, or left
/// on the generated design with a note when a vendor default set it. The
/// other lines a value came from are returned as related labels.
fn move_label(label: &mut Label, map: &SourceMap, sources: &[SourceFile]) -> Vec<Label> {
    match place(map, sources, label.span) {
        Place::Config { file, span, also } => {
            label.span = span;
            label.file = Some(file);
            also.into_iter()
                .map(|(f, s)| Label::in_file(f, s, "the value also comes from this line"))
                .collect()
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
        extra.extend(move_label(p, map, sources));
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
