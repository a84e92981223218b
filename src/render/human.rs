//! Human output through miette: the source snippet, the primary label, the
//! related labels, the help text and the rule id.

use crate::run::Report;
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteDiagnostic, NamedSource};
use netlint_model::text::{escape, escape_keep_lines, is_unsafe};
use netlint_model::{Diagnostic, Severity};
use std::fmt::Write;

pub struct HumanOptions {
    pub color: bool,
    pub width: usize,
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
    let (mut errors, mut warnings, mut infos) = (0, 0, 0);
    for file in &report.files {
        // The snippets show the file with its control characters escaped.
        let shown = Shown::new(&file.file.text);
        for d in &file.diagnostics {
            match d.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
                Severity::Info => infos += 1,
            }
            let src = NamedSource::new(escape(&file.file.path), shown.text.clone());
            let diag = to_miette(d, &shown);
            let report = miette::Report::new(diag).with_source_code(src);
            let mut s = String::new();
            if handler.render_report(&mut s, report.as_ref()).is_err() {
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
    }
    let files = report.files.len();
    let _ = writeln!(
        out,
        "{} file{} checked: {} error{}, {} warning{}, {} info",
        files,
        plural(files),
        errors,
        plural(errors),
        warnings,
        plural(warnings),
        infos
    );
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// A file's text as the snippets show it: every control character other
/// than a line break or tab (and the CR of a CRLF) written as `\u{1b}`,
/// with the offsets of the original text mapped onto it.
struct Shown {
    text: String,
    /// (offset in the original text, bytes added before what follows it).
    shifts: Vec<(usize, usize)>,
}

impl Shown {
    fn new(original: &str) -> Shown {
        let keep = |i: usize, c: char| {
            matches!(c, '\n' | '\t') || c == '\r' && original[i + 1..].starts_with('\n')
        };
        if !original
            .char_indices()
            .any(|(i, c)| is_unsafe(c) && !keep(i, c))
        {
            return Shown {
                text: original.to_string(),
                shifts: Vec::new(),
            };
        }
        let mut text = String::with_capacity(original.len() + 16);
        let mut shifts = Vec::new();
        for (i, c) in original.char_indices() {
            if is_unsafe(c) && !keep(i, c) {
                let e = escape(c.encode_utf8(&mut [0; 4])).into_owned();
                text.push_str(&e);
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

fn to_miette(d: &Diagnostic, shown: &Shown) -> MietteDiagnostic {
    let severity = match d.severity {
        Severity::Error => miette::Severity::Error,
        Severity::Warning => miette::Severity::Warning,
        Severity::Info => miette::Severity::Advice,
    };
    let clamp = |s: netlint_model::Span| {
        let start = shown.offset(s.start);
        let end = shown.offset(s.end.max(s.start));
        (start, end - start)
    };
    let text = |m: &str| (!m.is_empty()).then(|| escape_keep_lines(m).into_owned());
    let mut labels = Vec::new();
    if let Some(p) = &d.primary {
        labels.push(LabeledSpan::new_primary_with_span(
            text(&p.message),
            clamp(p.span),
        ));
    }
    for r in &d.related {
        labels.push(LabeledSpan::new_with_span(text(&r.message), clamp(r.span)));
    }
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
