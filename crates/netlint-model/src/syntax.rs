//! TOML syntax errors as a person can act on them: each real error once,
//! without the cascade a recovering parser reports after it.
//!
//! After a syntax error the parser recovers as best it can, and often
//! badly: one unclosed array swallows the rest of the file and yields an
//! error on every following line. So only the first error up to the next
//! table header is reported; the text from that header on is parsed again
//! on its own (everything before it blanked, so positions stay), and its
//! first error is reported the same way, and so on. A table defined twice
//! is reported once, at its second header, with the first as a related
//! label, and the keys under the second header (each a "duplicate key" of
//! its own) are not reported again.

use crate::diag::{Diagnostic, Severity, SYNTAX};
use crate::element::Element;
use crate::span::{SourceFile, Span};
use toml::de::DeTable;

/// The diagnostics for a file whose parse reported `errors`.
pub(crate) fn diagnostics(file: &SourceFile, errors: &[toml::de::Error]) -> Vec<Diagnostic> {
    let text = &file.text;
    let mut out: Vec<Diagnostic> = Vec::new();
    let mut errors: Vec<(Span, String)> = sorted(text, errors);
    // Each round handles the errors of one parse of text[from..].
    let mut from = 0;
    loop {
        let mut skip_until = from;
        let mut resync = None;
        for (span, message) in &errors {
            if span.start < skip_until {
                continue;
            }
            let line = line_start(text, span.start);
            if out.iter().any(|d| {
                d.primary
                    .as_ref()
                    .is_some_and(|p| line_start(text, p.span.start) == line)
            }) {
                continue;
            }
            if message == "duplicate key" {
                if let Some(d) = duplicate(text, *span) {
                    if header(line_text(text, line)).is_some() {
                        // The second table's own keys are duplicates too.
                        skip_until = next_header(text, line).unwrap_or(text.len());
                    }
                    out.push(d);
                    continue;
                }
            }
            match unclosed_array_above(text, *span) {
                Some(open) => out.push(
                    Diagnostic::new(
                        SYNTAX,
                        Severity::Error,
                        Element::Design,
                        "TOML syntax error: this array is never closed (a `]` is missing)",
                    )
                    .at(open, "opened here")
                    .with_related(*span, format!("so the parser fails here: {message}"))
                    .with_help("close the array with `]`; the design is not checked further until it parses"),
                ),
                None => out.push(plain(*span, message)),
            }
            resync = next_header(text, line);
            break;
        }
        match resync {
            Some(at) => {
                from = at;
                let blanked = blank_before(text, at);
                let (_, errs) = DeTable::parse_recoverable(&blanked);
                errors = sorted(&blanked, &errs);
            }
            None => break,
        }
    }
    out.sort_by_key(|d| d.primary.as_ref().map(|p| (p.span.start, p.span.end)));
    out
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
fn duplicate(text: &str, span: Span) -> Option<Diagnostic> {
    let line = line_start(text, span.start);
    let here = line_text(text, line);
    if let Some((path, array)) = header(here) {
        if array {
            return None;
        }
        let first = headers(text)
            .take_while(|(at, _)| *at < line)
            .find(|(_, h)| h.0 == path && !h.1)?;
        let name = format!("[{}]", path.join("."));
        let at = header_span(text, line);
        return Some(
            Diagnostic::new(
                SYNTAX,
                Severity::Error,
                Element::Design,
                format!("table `{name}` is defined twice; TOML allows one definition of a table"),
            )
            .at(at, "defined again here")
            .with_related(header_span(text, first.0), "first defined here")
            .with_help(format!(
                "merge the two `{name}` tables into one, or rename the second"
            )),
        );
    }
    // A key set twice: its first setting in the same table, above.
    let key = key_of(here)?;
    let table_start = headers(text)
        .take_while(|(at, _)| *at < line)
        .last()
        .map_or(0, |(at, _)| at);
    let mut at = table_start;
    let mut first = None;
    while at < line {
        if key_of(line_text(text, at)).as_deref() == Some(key.as_str()) {
            first = Some(at);
            break;
        }
        at = next_line(text, at);
    }
    let first = first?;
    let key_span = |l: usize| {
        let t = line_text(text, l);
        let indent = t.len() - t.trim_start().len();
        Span::new(l + indent, l + indent + key.len())
    };
    Some(
        Diagnostic::new(
            SYNTAX,
            Severity::Error,
            Element::Design,
            format!("`{key}` is set twice in the same table"),
        )
        .at(key_span(line), "set again here")
        .with_related(key_span(first), "first set here")
        .with_help(format!("keep one `{key}` line")),
    )
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

/// The text with everything before byte `at` turned into spaces (newlines
/// kept), so that positions in a parse of the rest are positions in the file.
fn blank_before(text: &str, at: usize) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text[..at].chars() {
        if c == '\n' {
            s.push('\n');
        } else {
            s.extend(std::iter::repeat_n(' ', c.len_utf8()));
        }
    }
    s.push_str(&text[at..]);
    s
}

fn line_start(text: &str, offset: usize) -> usize {
    let mut o = offset.min(text.len());
    while !text.is_char_boundary(o) {
        o -= 1;
    }
    text[..o].rfind('\n').map_or(0, |i| i + 1)
}

fn next_line(text: &str, line: usize) -> usize {
    text[line..].find('\n').map_or(text.len(), |i| line + i + 1)
}

fn line_text(text: &str, line: usize) -> &str {
    let end = text[line..].find('\n').map_or(text.len(), |i| line + i);
    text[line..end].trim_end_matches('\r')
}

/// Every table header line: (line start, (dotted path, array of tables)).
fn headers(text: &str) -> impl Iterator<Item = (usize, (Vec<String>, bool))> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < text.len() {
            let line = at;
            at = next_line(text, at);
            if let Some(h) = header(line_text(text, line)) {
                return Some((line, h));
            }
        }
        None
    })
}

/// The first header line after the line starting at `line`.
fn next_header(text: &str, line: usize) -> Option<usize> {
    let from = next_line(text, line);
    headers(&text[from..]).next().map(|(at, _)| from + at)
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
}
