//! Human output: per finding its rule, its message, the lines of the files
//! its labels point at, and its help.
//!
//! Drawn here rather than by a diagnostics crate (miette drew it before):
//! each label's line is shown with the line above it for context, and the
//! lines between labels far apart are left out (`...`, as rustc does), so
//! a finding that joins line 10 and line 106 shows a dozen lines, not a
//! hundred; and each box names the finding's own place first, whatever
//! order its labels are in.
//!
//! ```text
//! lm-drain-time
//!
//!   ⚠ hosts `hv01`, `hv02`, `hv03`: draining 512 GiB ... takes at least 2m56s
//!     ╭─[fixtures/example.toml:56:13]
//!   9 │ platform = "windows-server-2022"
//!  10 │ drain_budget = "2m"
//!     ·                ──┬─
//!     ·                  ╰── drain_budget 2m
//!  11 │
//! ...
//!  55 │ [profiles.node]
//!  56 │ memory_gb = 512
//!     ·             ───
//!  57 │ power = "balanced"
//!     ╰────
//!   help: widen the live-migration path ...
//! ```

use crate::run::Report;
use netlint_model::text::{escape, escape_keep_lines, is_unsafe};
use netlint_model::{Diagnostic, Label, Severity, SourceFile};
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
    let paint = Paint { color: opts.color };
    let mut out = String::new();
    for file in &report.files {
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
            finding(&mut out, report, &file.file, d, opts, paint);
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
    let (safe, needs_judgement) = fixable(report);
    let fixes = match (safe, needs_judgement) {
        (0, 0) => String::new(),
        (n, 0) => format!("; {n} fixable with --fix"),
        (0, m) => format!("; {m} fixable with --fix --unsafe-fixes"),
        (n, m) => format!("; {n} fixable with --fix, {m} more with --unsafe-fixes"),
    };
    format!(
        "{} file{} checked: {} error{}, {} warning{}, {} info{fixes}\n",
        files,
        plural(files),
        errors,
        plural(errors),
        warnings,
        plural(warnings),
        infos
    )
}

/// How many findings carry a safe fix, and how many one that needs
/// judgement (`--unsafe-fixes`).
fn fixable(report: &Report) -> (usize, usize) {
    let mut counts = (0, 0);
    for d in report.files.iter().flat_map(|f| &f.diagnostics) {
        match d.fix.as_ref().map(|f| f.safety) {
            Some(netlint_model::FixSafety::Safe) => counts.0 += 1,
            Some(netlint_model::FixSafety::Unsafe) => counts.1 += 1,
            None => {}
        }
    }
    counts
}

/// ` [*]` after the rule of a finding whose fix `--fix` applies (as
/// ruff marks them); nothing otherwise.
pub fn fix_mark(d: &Diagnostic) -> &'static str {
    match d.fix.as_ref().map(|f| f.safety) {
        Some(netlint_model::FixSafety::Safe) => " [*]",
        _ => "",
    }
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

/// Lines of context shown above each label's line (the key or table
/// header it belongs to, most often); below it, none.
const CONTEXT: usize = 1;

/// Colour, when asked for: ANSI SGR codes, reset after each piece.
#[derive(Clone, Copy)]
struct Paint {
    color: bool,
}

const RED: &str = "31";
const YELLOW: &str = "33";
const CYAN: &str = "36";
const DIM: &str = "2";
const LINK: &str = "1;4;36";
/// The related labels' colours, in turn.
const HIGHLIGHTS: [&str; 3] = ["1;35", "1;32", "1;34"];

impl Paint {
    fn paint(self, sgr: &str, text: &str) -> String {
        if self.color && !text.is_empty() {
            format!("\u{1b}[{sgr}m{text}\u{1b}[0m")
        } else {
            text.to_string()
        }
    }
}

fn severity_look(s: Severity) -> (&'static str, &'static str) {
    match s {
        Severity::Error => (RED, "×"),
        Severity::Warning => (YELLOW, "⚠"),
        Severity::Info => (CYAN, "☞"),
    }
}

/// Text wrapped to the width, the first line after `first`, the others
/// after `rest`.
fn wrap(text: &str, width: usize, first: &str, rest: &str) -> String {
    let opts = textwrap::Options::new(width.saturating_sub(2))
        .initial_indent(first)
        .subsequent_indent(rest);
    textwrap::fill(text, opts)
}

/// One finding: its rule, message, snippets and help.
fn finding(
    out: &mut String,
    report: &Report,
    own: &SourceFile,
    d: &Diagnostic,
    opts: &HumanOptions,
    paint: Paint,
) {
    let (sgr, icon) = severity_look(d.severity);
    out.push_str(&paint.paint(sgr, &escape(&d.rule)));
    out.push_str(fix_mark(d));
    if opts.rule_links {
        if let Some(url) = super::rule_url(&d.rule) {
            let _ = write!(out, " ({})", paint.paint(LINK, &url));
        }
    }
    out.push('\n');
    let first = format!("  {} ", paint.paint(sgr, icon));
    let rest = format!("  {} ", paint.paint(sgr, "│"));
    out.push_str(&wrap(
        &escape_keep_lines(&d.message),
        opts.width,
        &first,
        &rest,
    ));
    out.push('\n');
    snippets(out, report, own, d, paint);
    if let Some(help) = &d.help {
        let first = format!("  {} ", paint.paint(CYAN, "help:"));
        out.push_str(&wrap(
            &escape_keep_lines(help),
            opts.width,
            &first,
            "        ",
        ));
        out.push('\n');
    }
}

/// A label to draw, with its colour.
struct Mark<'a> {
    label: &'a Label,
    sgr: &'static str,
}

/// The boxes of `d`'s labels: one per file, the primary's file first.
fn snippets(out: &mut String, report: &Report, own: &SourceFile, d: &Diagnostic, paint: Paint) {
    let (primary_sgr, _) = severity_look(d.severity);
    let mut groups: Vec<(&str, Vec<Mark>)> = Vec::new();
    let marks = d
        .primary
        .iter()
        .map(|l| Mark {
            label: l,
            sgr: primary_sgr,
        })
        .chain(d.related.iter().enumerate().map(|(i, l)| Mark {
            label: l,
            sgr: HIGHLIGHTS[i % HIGHLIGHTS.len()],
        }));
    for mark in marks {
        let path = Report::label_path(own, mark.label);
        match groups.iter_mut().find(|(p, _)| *p == path) {
            Some((_, g)) => g.push(mark),
            None => groups.push((path, vec![mark])),
        }
    }
    for (path, marks) in &groups {
        match report.label_file(own, marks[0].label) {
            Some(file) => draw_box(out, file, marks, paint),
            None => {
                // A file whose text the run did not keep: named, with its
                // labels' words, not drawn.
                let words: Vec<String> = marks
                    .iter()
                    .filter(|m| !m.label.message.is_empty())
                    .map(|m| escape_keep_lines(&m.label.message).into_owned())
                    .collect();
                let name = if words.is_empty() {
                    escape(path).into_owned()
                } else {
                    format!("{} ({})", escape(path), words.join("; "))
                };
                let _ = writeln!(out, "    {} {}", paint.paint(CYAN, "see"), name);
            }
        }
    }
}

/// A label placed on the lines of its file.
struct Placed<'a> {
    mark: &'a Mark<'a>,
    /// The line (from 1) it starts on.
    line: usize,
    /// Its start and end within that line, in bytes; a label running onto
    /// later lines ends with its first line.
    start: usize,
    end: usize,
}

/// One file's box: its header at the first label (the finding's own place
/// when the primary is in this file), every label's line with one line of
/// context, `...` where lines are left out.
fn draw_box(out: &mut String, file: &SourceFile, marks: &[Mark], paint: Paint) {
    let placed: Vec<Placed> = marks.iter().map(|m| place(file, m)).collect();
    let at = file.line_col(marks[0].label.span.start);
    // The shown line ranges, merged where they touch or one line apart
    // (a `...` would take that line's place).
    let mut ranges: Vec<(usize, usize)> = placed
        .iter()
        .map(|p| (p.line.saturating_sub(CONTEXT).max(1), p.line))
        .collect();
    ranges.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(ranges.len());
    for (a, b) in ranges {
        match merged.last_mut() {
            Some(last) if a <= last.1 + 2 => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    let gutter = merged.last().map_or(1, |r| r.1).to_string().len();
    let pad = " ".repeat(gutter + 2);
    let _ = writeln!(
        out,
        "{pad}╭─[{}]",
        paint.paint(
            LINK,
            &format!("{}:{}:{}", escape(&file.path), at.line, at.column)
        )
    );
    for (i, &(a, b)) in merged.iter().enumerate() {
        if i > 0 {
            out.push_str("...\n");
        }
        for n in a..=b {
            let text = file.line_text(n);
            let labelled = placed.iter().any(|p| p.line == n);
            // A blank line is no context: left out at a range's edge.
            if !labelled && text.trim().is_empty() && (n == a || n == b) {
                continue;
            }
            let line = Line::new(text);
            let _ = writeln!(
                out,
                " {} │ {}",
                paint.paint(DIM, &format!("{n:>gutter$}")),
                line.shown
            );
            if !labelled {
                continue;
            }
            let mut here: Vec<&Placed> = placed.iter().filter(|p| p.line == n).collect();
            here.sort_by_key(|p| (p.start, p.end));
            underline(out, &line, &here, gutter, paint);
        }
    }
    let _ = writeln!(out, "{pad}╰────");
}

/// Where a label is on its first line.
fn place<'a>(file: &SourceFile, mark: &'a Mark<'a>) -> Placed<'a> {
    let span = mark.label.span;
    let (from, to) = file.range(span);
    let text = file.line_text(from.line);
    // Byte offsets within the line from the character columns.
    let byte_at = |column: usize| {
        text.char_indices()
            .nth(column - 1)
            .map_or(text.len(), |(i, _)| i)
    };
    let start = byte_at(from.column);
    // A span running onto the next line (its line break, or further) is
    // drawn to one column past the end of its first line.
    let end = if to.line == from.line {
        byte_at(to.column)
    } else {
        text.len() + 1
    };
    Placed {
        mark,
        line: from.line,
        start,
        end,
    }
}

/// A line as shown: tabs expanded to stops of four, control characters
/// escaped (`\u{1b}`), with the column each byte of the original starts at.
struct Line {
    shown: String,
    /// Per byte of the original line (and one past its end), the column.
    columns: Vec<usize>,
}

const TAB: usize = 4;

impl Line {
    fn new(text: &str) -> Line {
        let mut shown = String::with_capacity(text.len());
        let mut columns = vec![0; text.len() + 1];
        let mut column = 0;
        for (i, c) in text.char_indices() {
            for slot in &mut columns[i..i + c.len_utf8()] {
                *slot = column;
            }
            if c == '\t' {
                let w = TAB - column % TAB;
                shown.extend(std::iter::repeat_n(' ', w));
                column += w;
            } else if is_unsafe(c) {
                let e = escape(c.encode_utf8(&mut [0; 4])).into_owned();
                column += e.len();
                shown.push_str(&e);
            } else {
                let mut buf = [0; 4];
                column += textwrap::core::display_width(c.encode_utf8(&mut buf));
                shown.push(c);
            }
        }
        columns[text.len()] = column;
        Line { shown, columns }
    }

    /// The column of a byte offset (one past the end: one column further).
    fn column(&self, at: usize) -> usize {
        match self.columns.get(at) {
            Some(&c) => c,
            None => self.columns[self.columns.len() - 1] + 1,
        }
    }
}

/// The underlines of the labels on one line and their words: the
/// rightmost label's after its underline, as rustc writes it, each other
/// one's below, hung from its underline by `╰──`.
fn underline(out: &mut String, line: &Line, here: &[&Placed], gutter: usize, paint: Paint) {
    let pad = format!(" {:gutter$} · ", "");
    // Each label's columns, left to right, overlaps pushed right.
    let mut reached = 0;
    let spans: Vec<(usize, usize)> = here
        .iter()
        .map(|p| {
            let start = line.column(p.start).max(reached);
            let end = if p.end <= p.start {
                start + 1
            } else {
                line.column(p.end).max(start + 1)
            };
            reached = end;
            (start, end)
        })
        .collect();
    let labelled = |p: &Placed| !p.mark.label.message.is_empty();
    // The last label with words, when it ends the line's underlines, keeps
    // them on its underline.
    let inline = here.len() - 1;
    let inline = labelled(here[inline]).then_some(inline);
    let hook = |(start, end): (usize, usize)| (start + end) / 2;
    let mut marks = String::new();
    let mut column = 0;
    for (i, (p, &(start, end))) in here.iter().zip(&spans).enumerate() {
        let empty = p.end <= p.start;
        let hung = labelled(p) && Some(i) != inline;
        let h = hook((start, end));
        let drawn = if empty {
            "▲".to_string()
        } else if hung {
            format!("{}┬{}", "─".repeat(h - start), "─".repeat(end - h - 1))
        } else {
            "─".repeat(end - start)
        };
        marks.push_str(&" ".repeat(start - column));
        marks.push_str(&paint.paint(p.mark.sgr, &drawn));
        column = end;
    }
    // The words of a label, their later lines under their first.
    let words = |p: &Placed, indent: usize| -> String {
        let words = escape_keep_lines(&p.mark.label.message);
        let mut lines = words.split('\n');
        let mut text = paint.paint(p.mark.sgr, lines.next().unwrap_or(""));
        for more in lines {
            let _ = write!(
                text,
                "\n{pad}{}{}",
                " ".repeat(indent),
                paint.paint(p.mark.sgr, more)
            );
        }
        text
    };
    match inline {
        Some(i) => {
            let _ = writeln!(out, "{pad}{marks} {}", words(here[i], column + 1));
        }
        None => {
            let _ = writeln!(out, "{pad}{marks}");
        }
    }
    // The others, the rightmost first, each below the ones to its left.
    let hung: Vec<usize> = (0..here.len())
        .filter(|&i| labelled(here[i]) && Some(i) != inline)
        .collect();
    for k in (0..hung.len()).rev() {
        let i = hung[k];
        let mut row = String::new();
        let mut column = 0;
        for &j in &hung[..k] {
            let left = hook(spans[j]);
            row.push_str(&" ".repeat(left - column));
            row.push_str(&paint.paint(here[j].mark.sgr, "│"));
            column = left + 1;
        }
        let h = hook(spans[i]);
        row.push_str(&" ".repeat(h - column));
        let _ = writeln!(
            out,
            "{pad}{row}{} {}",
            paint.paint(here[i].mark.sgr, "╰──"),
            words(here[i], h + 4)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_escape_controls_expand_tabs_and_map_columns() {
        let l = Line::new("a\u{1b}b\tc");
        assert_eq!(l.shown, "a\\u{1b}b    c");
        assert_eq!(l.column(0), 0);
        assert_eq!(l.column(1), 1);
        // `b` moved by the 5 columns `\u{1b}` adds over the 1-byte ESC.
        assert_eq!(l.column(2), 7);
        // The tab, at column 8, runs to the next stop of four.
        assert_eq!(l.column(3), 8);
        assert_eq!(l.column(4), 12);
        // The end, and past it one column further.
        assert_eq!(l.column(5), 13);
        assert_eq!(l.column(6), 14);
    }

    /// Spans the example does not have: over several lines (drawn on the
    /// first), empty at the end of the file, two with words on one line,
    /// after a tab; a CRLF line end not shown.
    #[test]
    fn odd_spans_are_drawn_in_place() {
        use crate::run::FileReport;
        use netlint_model::{Element, FailOn, Span};
        let text = "a = 1\r\nb = [\n  2,\n]\nc\t= \"x\"\n";
        let at = |needle: &str| {
            let start = text.find(needle).unwrap();
            Span::new(start, start + needle.len())
        };
        let d = Diagnostic::new("syntax", Severity::Error, Element::Design, "odd")
            .at(at("[\n  2,\n]"), "the array")
            .with_related(at("a"), "key a")
            .with_related(at("1"), "value 1")
            .with_related(at("\"x\""), "after a tab")
            .with_related(Span::new(text.len(), text.len()), "the end");
        let report = Report {
            files: vec![FileReport {
                file: SourceFile::new("odd.toml", text),
                diagnostics: vec![d],
                design: None,
                fail_on: FailOn::Warning,
            }],
            rules: Vec::new(),
            sources: Vec::new(),
        };
        let opts = HumanOptions {
            color: false,
            width: 80,
            rule_links: false,
            summary: false,
        };
        let out = render(&report, &opts);
        let expected = "\
syntax
  × odd
   ╭─[odd.toml:2:5]
 1 │ a = 1
   · ┬   ─ value 1
   · ╰── key a
 2 │ b = [
   ·     ── the array
 3 │   2,
 4 │ ]
 5 │ c   = \"x\"
   ·       ─── after a tab
 6 │ 
   · ▲ the end
   ╰────

";
        assert_eq!(out, expected, "{out}");
    }
}
