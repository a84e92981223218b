//! TOML syntax errors as a person can act on them: each real error once,
//! without the cascade a recovering parser reports after it.
//!
//! After a syntax error the parser recovers as best it can, and often
//! badly: one unclosed array swallows the rest of the file and yields an
//! error on every following line. So only the first error up to the next
//! table header is reported; the text from that header on is parsed again
//! on its own (its positions moved back to the file's), and its
//! first error is reported the same way, and so on. A table defined twice
//! is reported once, at its second header, with the first as a related
//! label, and the keys under the second header (each a "duplicate key" of
//! its own) are not reported again.
//!
//! The cost is linear in the text for any number of errors: lines, headers
//! and each table's keys are indexed once, and at most
//! [`MAX_PER_KIND`] errors of each kind (a key set twice, a table defined
//! twice, any other syntax error) are reported one by one; the rest of a
//! kind are counted in one diagnostic at the first of them. Only the other
//! syntax errors parse the text again, so that bounds the parses too.

use crate::diag::{Diagnostic, Severity, SYNTAX};
use crate::element::Element;
use crate::span::{SourceFile, Span};
use std::collections::{HashMap, HashSet};
use toml::de::DeTable;

/// The most syntax errors of one kind reported one by one.
pub const MAX_PER_KIND: usize = 20;

/// The kinds of syntax error counted against [`MAX_PER_KIND`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    DuplicateKey,
    DuplicateTable,
    Other,
}

/// One kind's errors past the cap: how many, and where the first was.
#[derive(Default)]
struct Overflow {
    first: Option<Span>,
    count: usize,
}

/// The diagnostics for a file whose parse reported `errors`.
pub(crate) fn diagnostics(file: &SourceFile, errors: &[toml::de::Error]) -> Vec<Diagnostic> {
    let text = &file.text;
    let index = Index::new(text);
    let mut out: Vec<Diagnostic> = Vec::new();
    // The line of each reported error: one error per line.
    let mut reported: HashSet<usize> = HashSet::new();
    let mut shown = [0usize; 3];
    let mut over: [Overflow; 3] = Default::default();
    let slot = |k: Kind| match k {
        Kind::DuplicateKey => 0,
        Kind::DuplicateTable => 1,
        Kind::Other => 2,
    };
    let mut errors: Vec<(Span, String)> = sorted(text, errors);
    // Each round handles the errors of one parse of text[from..].
    let mut from = 0;
    loop {
        let mut skip_until = from;
        let mut resync = None;
        for (i, (span, message)) in errors.iter().enumerate() {
            if span.start < skip_until {
                continue;
            }
            let line = index.line_start(span.start);
            if reported.contains(&line) {
                continue;
            }
            if message == "duplicate key" {
                if let Some((d, kind)) = duplicate(text, &index, *span) {
                    if kind == Kind::DuplicateTable {
                        // The second table's own keys are duplicates too.
                        skip_until = index.next_header(line).unwrap_or(text.len());
                    }
                    reported.insert(line);
                    let k = slot(kind);
                    if shown[k] < MAX_PER_KIND {
                        shown[k] += 1;
                        out.push(d);
                    } else {
                        over[k].count += 1;
                        over[k].first.get_or_insert(*span);
                    }
                    continue;
                }
            }
            let k = slot(Kind::Other);
            if shown[k] == MAX_PER_KIND {
                // No more parses: the rest are counted, a line each, from
                // this parse (cascades of the errors shown may be among them).
                let mut lines: HashSet<usize> = HashSet::new();
                for (s, _) in &errors[i..] {
                    let l = index.line_start(s.start);
                    if !reported.contains(&l) {
                        lines.insert(l);
                    }
                }
                over[k].count = lines.len();
                over[k].first = Some(*span);
                break;
            }
            shown[k] += 1;
            let d = match unclosed_array_above(text, *span) {
                Some(open) => Diagnostic::new(
                    SYNTAX,
                    Severity::Error,
                    Element::Design,
                    "TOML syntax error: this array is never closed (a `]` is missing)",
                )
                .at(open, "opened here")
                .with_related(*span, format!("so the parser fails here: {message}"))
                .with_help(
                    "close the array with `]`; the design is not checked further until it parses",
                ),
                None => plain(*span, message),
            };
            // One error per line: the line the diagnostic is shown at.
            let at = d
                .primary
                .as_ref()
                .map_or(line, |p| index.line_start(p.span.start));
            reported.insert(at);
            out.push(d);
            resync = index.next_header(line);
            break;
        }
        match resync {
            Some(at) => {
                // The text from the header on, parsed on its own; its
                // positions are moved back to the file's.
                from = at;
                let (_, errs) = DeTable::parse_recoverable(&text[at..]);
                errors = sorted(&text[at..], &errs);
                for (span, _) in &mut errors {
                    *span = Span::new(span.start + at, span.end + at);
                }
            }
            None => break,
        }
    }
    let what = [
        "keys set twice in the same table",
        "tables defined twice",
        "lines with TOML syntax errors",
    ];
    for (k, o) in over.iter().enumerate() {
        let Some(first) = o.first else { continue };
        if o.count == 0 {
            continue;
        }
        out.push(
            Diagnostic::new(
                SYNTAX,
                Severity::Error,
                Element::Design,
                format!(
                    "{} more {} from here on are not reported one by one (the first {MAX_PER_KIND} are)",
                    o.count, what[k]
                ),
            )
            .at(first, "the first of them")
            .with_help("fix the ones reported and check again"),
        );
    }
    out.sort_by_key(|d| d.primary.as_ref().map(|p| (p.span.start, p.span.end)));
    out
}

/// Where the lines and table headers of a text are, found once.
struct Index<'a> {
    text: &'a str,
    /// The byte offset where each line starts.
    lines: Vec<usize>,
    /// Every table header line: (line start, (dotted path, array of tables)).
    headers: Vec<(usize, (Vec<String>, bool))>,
    /// The first line of each (non-array) table header path.
    first_header: HashMap<Vec<String>, usize>,
    /// Each table's keys and the line each is first set on, by the
    /// table's header line (0 for the keys before any header); filled
    /// when a duplicate in that table is first asked about.
    keys: std::cell::RefCell<HashMap<usize, HashMap<String, usize>>>,
}

impl<'a> Index<'a> {
    fn new(text: &'a str) -> Index<'a> {
        let mut lines = vec![0];
        lines.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        if lines.last() == Some(&text.len()) && !text.is_empty() {
            lines.pop();
        }
        let mut headers = Vec::new();
        let mut first_header = HashMap::new();
        for &l in &lines {
            if let Some(h) = header(line_text(text, l)) {
                if !h.1 {
                    first_header.entry(h.0.clone()).or_insert(l);
                }
                headers.push((l, h));
            }
        }
        Index {
            text,
            lines,
            headers,
            first_header,
            keys: Default::default(),
        }
    }

    /// The start of the line holding byte `offset`.
    fn line_start(&self, offset: usize) -> usize {
        let i = self.lines.partition_point(|&s| s <= offset);
        self.lines[i.saturating_sub(1)]
    }

    /// The first header line after the line starting at `line`.
    fn next_header(&self, line: usize) -> Option<usize> {
        let i = self.headers.partition_point(|(at, _)| *at <= line);
        self.headers.get(i).map(|(at, _)| *at)
    }

    /// The header line of the table holding the line at `line` (0 before
    /// any header).
    fn table_of(&self, line: usize) -> usize {
        let i = self.headers.partition_point(|(at, _)| *at < line);
        if i == 0 {
            0
        } else {
            self.headers[i - 1].0
        }
    }

    /// The line where `key` is first set in the table starting at `table`.
    fn first_key(&self, table: usize, key: &str) -> Option<usize> {
        let mut keys = self.keys.borrow_mut();
        let map = keys.entry(table).or_insert_with(|| {
            let end = self.next_header(table).unwrap_or(self.text.len());
            let mut m = HashMap::new();
            let i = self.lines.partition_point(|&s| s < table);
            for &l in self.lines[i..].iter().take_while(|&&l| l < end) {
                if let Some(k) = key_of(line_text(self.text, l)) {
                    m.entry(k).or_insert(l);
                }
            }
            m
        });
        map.get(key).copied()
    }
}

/// The parser's errors by position. The parser gives its nesting limit no
/// position: it is placed at the most deeply nested key and worded.
fn sorted(text: &str, errors: &[toml::de::Error]) -> Vec<(Span, String)> {
    let mut v: Vec<(Span, String)> = errors
        .iter()
        .map(|e| {
            let s = e
                .span()
                .or_else(|| crate::load::deepest_key(text))
                .unwrap_or(0..0);
            let message = match e.message().trim() {
                "recursion limit" => format!(
                    "a key or table header nests more than {} levels deep",
                    crate::load::KEY_DEPTH_LIMIT
                ),
                m => m.to_string(),
            };
            (Span::new(s.start, s.end.max(s.start)), message)
        })
        .collect();
    v.sort_by_key(|(s, _)| (s.start, s.end));
    v
}

fn plain(span: Span, message: &str) -> Diagnostic {
    Diagnostic::new(
        SYNTAX,
        Severity::Error,
        Element::Design,
        format!("TOML syntax error: {message}"),
    )
    .at(span, "here")
    .with_help("fix the TOML syntax; the design is not checked further until it parses")
}

/// A table header defined twice, or a key set twice in one table, with the
/// first definition as a related label; `None` when the first cannot be
/// found (the parser's own message is reported then).
fn duplicate(text: &str, index: &Index, span: Span) -> Option<(Diagnostic, Kind)> {
    let line = index.line_start(span.start);
    let here = line_text(text, line);
    if let Some((path, array)) = header(here) {
        if array {
            return None;
        }
        let first = *index.first_header.get(&path).filter(|&&at| at < line)?;
        let name = format!("[{}]", path.join("."));
        let at = header_span(text, line);
        return Some((
            Diagnostic::new(
                SYNTAX,
                Severity::Error,
                Element::Design,
                format!("table `{name}` is defined twice; TOML allows one definition of a table"),
            )
            .at(at, "defined again here")
            .with_related(header_span(text, first), "first defined here")
            .with_help(format!(
                "merge the two `{name}` tables into one, or rename the second"
            )),
            Kind::DuplicateTable,
        ));
    }
    // A key set twice: its first setting in the same table, above.
    let key = key_of(here)?;
    let first = index
        .first_key(index.table_of(line), &key)
        .filter(|&at| at < line)?;
    let key_span = |l: usize| {
        let t = line_text(text, l);
        let indent = t.len() - t.trim_start().len();
        Span::new(l + indent, l + indent + key.len())
    };
    Some((
        Diagnostic::new(
            SYNTAX,
            Severity::Error,
            Element::Design,
            format!("`{key}` is set twice in the same table"),
        )
        .at(key_span(line), "set again here")
        .with_related(key_span(first), "first set here")
        .with_help(format!("keep one `{key}` line")),
        Kind::DuplicateKey,
    ))
}

/// For an error about array elements: the `[` of a `key = [` line above it
/// (in the same table) that is never closed, when the error is on a later
/// line than that `[`.
fn unclosed_array_above(text: &str, span: Span) -> Option<Span> {
    let line = line_start(text, span.start);
    let mut at = line;
    while at > 0 {
        at = line_start(text, at - 1);
        let t = line_text(text, at);
        if header(t).is_some() {
            return None;
        }
        if key_of(t).is_none() {
            continue;
        }
        let eq = t.find('=')?;
        let value = &t[eq + 1..];
        if !value.trim_start().starts_with('[') {
            return None;
        }
        if balance(value) > 0 {
            let open = at + eq + 1 + (value.len() - value.trim_start().len());
            return Some(Span::new(open, open + 1));
        }
        return None;
    }
    None
}

/// Opening minus closing brackets outside strings and comments.
fn balance(s: &str) -> i32 {
    let mut depth = 0;
    let mut quote: Option<char> = None;
    for c in s.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '#') => break,
            (None, '[') => depth += 1,
            (None, ']') => depth -= 1,
            _ => {}
        }
    }
    depth
}

/// The start of the line holding byte `offset` (a scan back: for the one
/// error of a round, not per error).
fn line_start(text: &str, offset: usize) -> usize {
    let mut o = offset.min(text.len());
    while !text.is_char_boundary(o) {
        o -= 1;
    }
    text[..o].rfind('\n').map_or(0, |i| i + 1)
}

fn line_text(text: &str, line: usize) -> &str {
    let end = text[line..].find('\n').map_or(text.len(), |i| line + i);
    text[line..end].trim_end_matches('\r')
}

/// The span of a header line's `[...]`.
fn header_span(text: &str, line: usize) -> Span {
    let t = line_text(text, line);
    let start = line + (t.len() - t.trim_start().len());
    let end = line + t.rfind(']').map_or(t.len(), |i| i + 1);
    Span::new(start, end.max(start))
}

/// `[a.b."c d"]` -> (["a", "b", "c d"], false); `[[links]]` -> (["links"],
/// true). `None` for anything that is not a complete header line.
fn header(line: &str) -> Option<(Vec<String>, bool)> {
    let t = line.trim();
    let t = match t.find('#') {
        // A '#' inside a quoted key is not a comment; keep it simple and
        // only strip comments after the closing bracket.
        Some(i) if t[..i].trim_end().ends_with(']') => t[..i].trim_end(),
        _ => t,
    };
    let (inner, array) = if let Some(r) = t.strip_prefix("[[") {
        (r.strip_suffix("]]")?, true)
    } else {
        (t.strip_prefix('[')?.strip_suffix(']')?, false)
    };
    let path = dotted(inner)?;
    Some((path, array))
}

/// The key a `key = value` line sets (its first dotted part as written,
/// e.g. `nics.P1` for `nics.P1 = {..}`), when the line is one.
fn key_of(line: &str) -> Option<String> {
    let t = line.trim_start();
    if t.starts_with('[') || t.starts_with('#') {
        return None;
    }
    let eq = t.find('=')?;
    let key = t[..eq].trim_end();
    dotted(key)?;
    Some(key.to_string())
}

/// A dotted key of bare or quoted parts.
fn dotted(s: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = s.trim();
    loop {
        let (part, after) = if let Some(r) = rest.strip_prefix('"') {
            let end = r.find('"')?;
            (r[..end].to_string(), &r[end + 1..])
        } else if let Some(r) = rest.strip_prefix('\'') {
            let end = r.find('\'')?;
            (r[..end].to_string(), &r[end + 1..])
        } else {
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
                .unwrap_or(rest.len());
            if end == 0 {
                return None;
            }
            (rest[..end].to_string(), &rest[end..])
        };
        out.push(part);
        let after = after.trim_start();
        if after.is_empty() {
            return Some(out);
        }
        rest = after.strip_prefix('.')?.trim_start();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diags(text: &str) -> Vec<Diagnostic> {
        let file = SourceFile::new("t.toml", text);
        let (_, errors) = DeTable::parse_recoverable(text);
        assert!(!errors.is_empty(), "the text must not parse");
        diagnostics(&file, &errors)
    }

    fn line_of(text: &str, d: &Diagnostic) -> usize {
        let file = SourceFile::new("t.toml", text);
        file.line_col(d.primary.as_ref().unwrap().span.start).line
    }

    #[test]
    fn headers_and_keys_are_recognised() {
        assert_eq!(
            header("[hosts.hv02]"),
            Some((vec!["hosts".into(), "hv02".into()], false))
        );
        assert_eq!(
            header(" [[links]]  # the ISL"),
            Some((vec!["links".into()], true))
        );
        assert_eq!(
            header("[profiles.\"r 720\".nics.A]"),
            Some((
                vec!["profiles".into(), "r 720".into(), "nics".into(), "A".into()],
                false
            ))
        );
        assert_eq!(header("[networks.vm"), None);
        assert_eq!(header("[10, 20]"), None);
        assert_eq!(
            key_of("nics.P1 = { mtu = 1500 }").as_deref(),
            Some("nics.P1")
        );
        assert_eq!(key_of("# x = 1"), None);
    }

    #[test]
    fn an_unclosed_array_is_one_error_not_one_per_line() {
        let mut text =
            String::from("[design]\nname = \"t\"\n[networks.vm]\nrole = \"vm\"\nvlan = [1, 2\n");
        for i in 0..40 {
            text.push_str(&format!("[switches.s{i}]\nmtu = 9216\n"));
        }
        let d = diags(&text);
        assert_eq!(d.len(), 1, "{d:#?}");
        // At the `[` that is never closed, with where the parser gave up.
        assert_eq!(line_of(&text, &d[0]), 5);
        let open = d[0].primary.as_ref().unwrap().span;
        assert_eq!(&text[open.start..open.end], "[");
        assert_eq!(d[0].related.len(), 1);
    }

    #[test]
    fn independent_errors_in_later_tables_are_still_reported() {
        let text = "[design]\nname = t\n\n[networks.csv]\nrole = \"csv\"\n\n[switches.a]\nvlans = [10, 20\n";
        let d = diags(text);
        let lines: Vec<usize> = d.iter().map(|x| line_of(text, x)).collect();
        assert_eq!(lines, vec![2, 8], "{d:#?}");
    }

    #[test]
    fn a_table_defined_twice_points_at_the_first_and_nothing_else() {
        let text = "[design]\nname = \"t\"\n\n[hosts.hv02]\nprofile = \"p\"\n\n[hosts.hv03]\nprofile = \"p\"\n\n[hosts.hv02]\nprofile = \"p\"\nos = \"azure-local\"\n";
        let d = diags(text);
        assert_eq!(d.len(), 1, "{d:#?}");
        assert_eq!(
            d[0].message,
            "table `[hosts.hv02]` is defined twice; TOML allows one definition of a table"
        );
        assert_eq!(line_of(text, &d[0]), 10);
        assert_eq!(d[0].related.len(), 1);
        let first = d[0].related[0].span;
        assert_eq!(&text[first.start..first.end], "[hosts.hv02]");
        assert_eq!(first.start, text.find("[hosts.hv02]").unwrap());
    }

    #[test]
    fn a_key_set_twice_points_at_the_first() {
        let text = "[design]\nname = \"t\"\n\n[networks.vm]\nrole = \"vm\"\nvlan = 10\nvlan = 20\n";
        let d = diags(text);
        assert_eq!(d.len(), 1, "{d:#?}");
        assert_eq!(d[0].message, "`vlan` is set twice in the same table");
        assert_eq!(line_of(text, &d[0]), 7);
        let first = d[0].related[0].span;
        assert_eq!(first.start, text.find("vlan = 10").unwrap());
    }

    #[test]
    fn a_key_set_many_times_costs_linear_time_and_few_diagnostics() {
        // Was quadratic: every diagnostic scanned the ones before it and
        // the table from its header (10.6 s at 20,000 lines, 40,000 lines
        // over 20 s).
        let n = 40_000;
        let mut text = String::from("[design]\n");
        for _ in 0..n {
            text.push_str("x = 1\n");
        }
        let started = std::time::Instant::now();
        let d = diags(&text);
        let took = started.elapsed();
        assert!(took.as_secs_f64() < 3.0, "{n} duplicate keys took {took:?}");
        // The first MAX_PER_KIND one by one, the rest counted at the first
        // of them.
        assert_eq!(d.len(), MAX_PER_KIND + 1, "{:#?}", &d[..3]);
        assert!(d[..MAX_PER_KIND]
            .iter()
            .all(|x| x.message == "`x` is set twice in the same table"));
        let rest = &d[MAX_PER_KIND];
        assert_eq!(
            rest.message,
            format!(
                "{} more keys set twice in the same table from here on are not reported one by one (the first {MAX_PER_KIND} are)",
                n - 1 - MAX_PER_KIND
            )
        );
        assert_eq!(line_of(&text, rest), MAX_PER_KIND + 3);
    }

    #[test]
    fn tables_defined_many_times_are_capped_and_counted() {
        let mut text = String::from("[design]\nname = \"t\"\n");
        for _ in 0..50 {
            text.push_str("[networks.vm]\nrole = \"vm\"\n");
        }
        let d = diags(&text);
        assert_eq!(d.len(), MAX_PER_KIND + 1, "{d:#?}");
        assert!(d[MAX_PER_KIND]
            .message
            .starts_with(&format!("{} more tables defined twice", 49 - MAX_PER_KIND)));
    }

    #[test]
    fn independent_errors_are_capped_with_a_count_of_the_lines_left() {
        // Each a parse of the rest of the file: capped, so a file with an
        // error in every table costs a bounded number of parses.
        let mut text = String::from("[design]\nname = \"t\"\n");
        for i in 0..60 {
            text.push_str(&format!("[switches.s{i}]\nmtu = \n"));
        }
        let d = diags(&text);
        assert_eq!(d.len(), MAX_PER_KIND + 1, "{d:#?}");
        assert!(d[..MAX_PER_KIND]
            .iter()
            .all(|x| x.message.starts_with("TOML syntax error")));
        assert_eq!(
            d[MAX_PER_KIND].message,
            format!(
                "{} more lines with TOML syntax errors from here on are not reported one by one (the first {MAX_PER_KIND} are)",
                60 - MAX_PER_KIND
            )
        );
    }
}
