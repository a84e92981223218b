//! Human output through miette: the source snippet, the primary label, the
//! related labels, the help text and the rule id.

use crate::run::Report;
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteDiagnostic};
use netlint_model::text::{escape, escape_keep_lines, is_unsafe};
use netlint_model::{Diagnostic, Label, Severity, SourceFile};
use std::collections::HashMap;
use std::fmt::Write;

pub struct HumanOptions {
    pub color: bool,
    pub width: usize,
    /// Each finding's header names its rule page (`mtu-mismatch
    /// (https://.../crates/netlint-rules/rules/mtu-mismatch.md)`).
    pub rule_links: bool,
    /// End with the count line (`--quiet` turns it off).
    pub summary: bool,
}

pub fn render(report: &Report, opts: &HumanOptions) -> String {
    let theme = if opts.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(opts.width)
        .with_links(false);
    let mut out = String::new();
    // Line indexes of the other files labels point into, built once each.
    let mut other_lines: HashMap<&str, LineStarts> = HashMap::new();
    for file in &report.files {
        let lines = LineStarts::new(&file.file.text);
        let mut input_errors = 0usize;
        let mut capped = 0usize;
        for d in &file.diagnostics {
            if d.is_input_error() {
                input_errors += 1;
                if input_errors > MAX_INPUT_ERRORS_SHOWN {
                    capped += 1;
                    continue;
                }
            }
            let mut shown = snippets(report, &file.file, &lines, &mut other_lines, d);
            if opts.rule_links {
                if let Some(url) = super::rule_url(&d.rule) {
                    shown.diag = shown.diag.with_url(url);
                }
            }
            let mut s = String::new();
            if handler.render_report(&mut s, &shown).is_err() {
                let _ = writeln!(
                    s,
                    "{}: {}: {}",
                    escape(&file.file.path),
                    d.rule,
                    escape_keep_lines(&d.message)
                );
            }
            out.push_str(&s);
            out.push('\n');
        }
        if capped > 0 {
            let _ = writeln!(
                out,
                "{}: {capped} more input error{} not shown (the first {MAX_INPUT_ERRORS_SHOWN} are; \
                 every one is in `--format json`)\n",
                escape(&file.file.path),
                plural(capped),
            );
        }
    }
    if opts.summary {
        out.push_str(&summary_line(report));
    }
    out
}

/// `2 files checked: 1 error, 1 warning, 1 info`, the last line of the
/// human and concise output.
pub fn summary_line(report: &Report) -> String {
    let errors = report.count(Severity::Error);
    let warnings = report.count(Severity::Warning);
    let infos = report.count(Severity::Info);
    let files = report.files.len();
    format!(
        "{} file{} checked: {} error{}, {} warning{}, {} info\n",
        files,
        plural(files),
        errors,
        plural(errors),
        warnings,
        plural(warnings),
        infos
    )
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Input errors of one file shown in full; the rest are counted. A design
/// with thousands of errors is one mistake repeated (a wrong key in a
/// profile, a bad import), and the first ones say what it is.
pub const MAX_INPUT_ERRORS_SHOWN: usize = 200;

/// Where each line starts, counted as miette counts them (`\n`, `\r\n`
/// and a lone `\r` each end a line).
struct LineStarts(Vec<usize>);

impl LineStarts {
    fn new(text: &str) -> LineStarts {
        let b = text.as_bytes();
        let mut starts = vec![0];
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'\r' if b.get(i + 1) == Some(&b'\n') => {
                    starts.push(i + 2);
                    i += 2;
                    continue;
                }
                b'\r' | b'\n' => starts.push(i + 1),
                _ => {}
            }
            i += 1;
        }
        LineStarts(starts)
    }

    /// The line (from 0) holding `offset`.
    fn line_of(&self, offset: usize) -> usize {
        match self.0.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }
}

/// The part of a file one diagnostic shows: its labels' lines and a few
/// lines around them. miette reads a source from its start to find a
/// span's line, so handing it the whole file made rendering quadratic in
/// the number of diagnostics; a window keeps each one proportional to
/// its own snippet.
struct Window {
    name: String,
    text: String,
    /// The line (from 0) the window starts at.
    first_line: usize,
}

impl miette::SourceCode for Window {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let inner = self.text.read_span(span, before, after)?;
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line() + self.first_line,
            inner.column(),
            // miette counts every line break from the start of the source
            // up to the end of the context (and merges snippets by it), so
            // the breaks before the window count too.
            inner.line_count() + self.first_line,
        )))
    }
}

/// Lines of context kept beyond the labels (miette shows one).
const WINDOW_MARGIN: usize = 3;

/// One diagnostic as miette draws it: the snippet of the file its primary
/// label is in, then one snippet per other file its labels point into
/// (miette's related diagnostics, each with its own source).
struct Snippets {
    diag: MietteDiagnostic,
    source: Window,
    others: Vec<Snippets>,
}

impl std::fmt::Display for Snippets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.diag, f)
    }
}

impl std::fmt::Debug for Snippets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.diag, f)
    }
}

impl std::error::Error for Snippets {}

impl miette::Diagnostic for Snippets {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.diag.code()
    }
    fn severity(&self) -> Option<miette::Severity> {
        self.diag.severity()
    }
    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.diag.help()
    }
    fn url<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.diag.url()
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.diag.labels()
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        if self.others.is_empty() {
            return None;
        }
        Some(Box::new(
            self.others.iter().map(|o| o as &dyn miette::Diagnostic),
        ))
    }
}

/// `d` drawn from `own` (its reported file) and the other files its labels
/// name. A label whose file the run did not keep is named in words.
fn snippets<'r>(
    report: &'r Report,
    own: &'r SourceFile,
    own_lines: &LineStarts,
    other_lines: &mut HashMap<&'r str, LineStarts>,
    d: &'r Diagnostic,
) -> Snippets {
    // The labels grouped by file, the primary's file first.
    let mut groups: Vec<(&str, Vec<(bool, &Label)>)> = Vec::new();
    let main_path = d
        .primary
        .as_ref()
        .map_or(own.path.as_str(), |p| Report::label_path(own, p));
    groups.push((main_path, Vec::new()));
    let labels = d
        .primary
        .iter()
        .map(|l| (true, l))
        .chain(d.related.iter().map(|l| (false, l)));
    for (primary, l) in labels {
        let path = Report::label_path(own, l);
        match groups.iter_mut().find(|(p, _)| *p == path) {
            Some((_, g)) => g.push((primary, l)),
            None => groups.push((path, vec![(primary, l)])),
        }
    }
    let mut drawn = groups.into_iter().map(|(path, labels)| {
        let file = labels
            .first()
            .map_or(Some(own), |(_, l)| report.label_file(own, l));
        match file {
            Some(file) if std::ptr::eq(file, own) => windowed(&labels, file, own_lines),
            Some(file) => {
                let lines = other_lines
                    .entry(file.path.as_str())
                    .or_insert_with(|| LineStarts::new(&file.text));
                windowed(&labels, file, lines)
            }
            None => unplaced(path, &labels),
        }
    });
    let (source, labels) = drawn.next().expect("the primary's group");
    let others: Vec<Snippets> = drawn
        .map(|(source, labels)| Snippets {
            diag: MietteDiagnostic::new(format!("see {}", source.name))
                .with_severity(miette::Severity::Advice)
                .with_labels(labels),
            source,
            others: Vec::new(),
        })
        .collect();
    Snippets {
        diag: to_miette(d, labels),
        source,
        others,
    }
}

/// Labels in a file whose text the run did not keep: no snippet, their
/// words in the heading.
fn unplaced(path: &str, labels: &[(bool, &Label)]) -> (Window, Vec<LabeledSpan>) {
    let words: Vec<String> = labels
        .iter()
        .filter(|(_, l)| !l.message.is_empty())
        .map(|(_, l)| escape_keep_lines(&l.message).into_owned())
        .collect();
    let name = if words.is_empty() {
        escape(path).into_owned()
    } else {
        format!("{} ({})", escape(path), words.join("; "))
    };
    let window = Window {
        name,
        text: String::new(),
        first_line: 0,
    };
    (window, Vec::new())
}

/// The window of `file` around `labels` and those labels within it.
fn windowed(
    labels: &[(bool, &Label)],
    file: &SourceFile,
    lines: &LineStarts,
) -> (Window, Vec<LabeledSpan>) {
    let text = &file.text;
    let len = text.len();
    let lo_off = labels
        .iter()
        .map(|(_, l)| l.span.start.min(len))
        .min()
        .unwrap_or(0);
    let hi_off = labels
        .iter()
        .map(|(_, l)| l.span.end.min(len))
        .max()
        .unwrap_or(0);
    let first = lines.line_of(lo_off).saturating_sub(WINDOW_MARGIN);
    let last = lines.line_of(hi_off) + WINDOW_MARGIN;
    let start = lines.0[first];
    let end = lines.0.get(last + 1).copied().unwrap_or(len);
    // The snippet shows the file with its control characters escaped.
    let shown = Shown::new(&text[start..end]);
    let spans = labeled(labels, start, end, &shown);
    let window = Window {
        name: escape(&file.path).into_owned(),
        text: shown.text,
        first_line: first,
    };
    (window, spans)
}

/// A window of a file as the snippet shows it: every control character
/// other than a line break or tab written as `\u{1b}`, with the offsets
/// of the original text mapped onto it.
struct Shown {
    text: String,
    /// (offset in the original text, bytes added before what follows it).
    shifts: Vec<(usize, usize)>,
}

impl Shown {
    fn new(original: &str) -> Shown {
        let escaped = |c: char| is_unsafe(c) && !matches!(c, '\n' | '\t' | '\r');
        if !original.chars().any(escaped) {
            return Shown {
                text: original.to_string(),
                shifts: Vec::new(),
            };
        }
        let mut text = String::with_capacity(original.len() + 16);
        let mut shifts = Vec::new();
        for (i, c) in original.char_indices() {
            if escaped(c) {
                text.push_str(&escape(c.encode_utf8(&mut [0; 4])));
                shifts.push((i + c.len_utf8(), text.len() - (i + c.len_utf8())));
            } else {
                text.push(c);
            }
        }
        Shown { text, shifts }
    }

    /// Where an offset of the original text is in the shown text (an
    /// offset inside an escaped character moves to its start).
    fn offset(&self, at: usize) -> usize {
        let i = self.shifts.partition_point(|(o, _)| *o <= at);
        let added = if i == 0 { 0 } else { self.shifts[i - 1].1 };
        (at + added).min(self.text.len())
    }
}

/// `labels` relative to the window `start..end` of the text, as shown;
/// their words with control characters escaped.
fn labeled(labels: &[(bool, &Label)], start: usize, end: usize, shown: &Shown) -> Vec<LabeledSpan> {
    let clamp = |s: netlint_model::Span| {
        let a = s.start.clamp(start, end);
        let b = s.end.clamp(start, end).max(a);
        let (x, y) = (shown.offset(a - start), shown.offset(b - start));
        (x, y - x)
    };
    let text = |m: &str| (!m.is_empty()).then(|| escape_keep_lines(m).into_owned());
    labels
        .iter()
        .map(|(primary, l)| {
            if *primary {
                LabeledSpan::new_primary_with_span(text(&l.message), clamp(l.span))
            } else {
                LabeledSpan::new_with_span(text(&l.message), clamp(l.span))
            }
        })
        .collect()
}

/// `d` as miette's diagnostic, with `labels` placed in its window; its
/// words with control characters escaped.
fn to_miette(d: &Diagnostic, labels: Vec<LabeledSpan>) -> MietteDiagnostic {
    let severity = match d.severity {
        Severity::Error => miette::Severity::Error,
        Severity::Warning => miette::Severity::Warning,
        Severity::Info => miette::Severity::Advice,
    };
    let mut m = MietteDiagnostic::new(escape_keep_lines(&d.message).into_owned())
        .with_code(escape(&d.rule).into_owned())
        .with_severity(severity)
        .with_labels(labels);
    if let Some(h) = &d.help {
        m = m.with_help(escape_keep_lines(h).into_owned());
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_text_escapes_controls_and_maps_offsets() {
        let s = Shown::new("a\u{1b}b\r\nc\u{0}");
        assert_eq!(s.text, "a\\u{1b}b\r\nc\\u{0}");
        assert_eq!(s.offset(0), 0);
        assert_eq!(s.offset(1), 1);
        // `b` moved by the 5 bytes `\u{1b}` adds over the 1-byte ESC.
        assert_eq!(s.offset(2), 7);
        assert_eq!(&s.text[s.offset(5)..s.offset(6)], "c");
        assert_eq!(s.offset(7), s.text.len());
    }
}
