//! Writing TOML by hand: keys quoted when they must be, strings escaped,
//! VLAN lists as ranges, and a provenance comment beside each value.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::{self, Write};

use super::map::{Mapped, SourceMap, Src};
use super::At;
use crate::model::{Origin, Sourced};
use crate::vlans::VlanSet;
use crate::Document;

#[derive(Default)]
pub(crate) struct Writer {
    out: String,
    map: Vec<Mapped>,
    /// The tables of the whole design, this text's and those written
    /// before it.
    pub tables: Tables,
}

/// The table registry of one design: every `[table]` header written (the
/// switch writer's, the host writers', the VLAN networks') and every name
/// taken under `switches`, `networks`, `profiles` and `hosts` (and the
/// vSphere `clusters`, which are values, not tables). The parts
/// of a design are written one after another into one text, and TOML
/// allows a table to be defined once: a part takes a name through
/// [`Tables::claim`], which gives a free one (the wanted name, else
/// `NAME-2`, `NAME-3`, ...), and writes every header through
/// [`Tables::header`].
#[derive(Clone, Debug, Default)]
pub struct Tables {
    headers: BTreeSet<String>,
    /// Per top-level table, the names taken (as TOML and the loader
    /// compare them: `ESX01` is not `esx01`).
    names: BTreeMap<&'static str, BTreeSet<String>>,
}

impl Tables {
    /// Whether `name` is taken under `kind` (`"hosts"`, ...).
    pub fn taken(&self, kind: &'static str, name: &str) -> bool {
        self.names.get(kind).is_some_and(|n| n.contains(name))
    }

    /// `wanted` under `kind` when it is free, else the first free of
    /// `wanted-2`, `wanted-3`, ...: taken, and returned. Deterministic:
    /// the same parts in the same order get the same names.
    pub fn claim(&mut self, kind: &'static str, wanted: &str) -> String {
        let mut name = wanted.to_string();
        let mut n = 1;
        while self.taken(kind, &name) {
            n += 1;
            name = format!("{wanted}-{n}");
        }
        self.names.entry(kind).or_default().insert(name.clone());
        name
    }

    /// `[header]`, recorded (`header` as written: keys quoted where they
    /// must be, [`key`]). A header written twice is a defect of the
    /// writer: the names under the top-level tables are claimed, and the
    /// tables below them are gathered before they are written.
    pub fn header(&mut self, header: &str) -> String {
        let fresh = self.headers.insert(header.to_string());
        debug_assert!(fresh, "[{header}] written twice");
        format!("[{header}]")
    }

    /// The names taken under `kind`.
    pub fn names(&self, kind: &'static str) -> BTreeSet<String> {
        self.names.get(kind).cloned().unwrap_or_default()
    }
}

/// Where a written value came from: the comment written beside it, and
/// the lines (or defaults) it names, for the source map. The comment is
/// for people; the sources are what `netlint check` on configs points at.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Prov {
    pub text: String,
    pub srcs: Vec<Src>,
}

impl Prov {
    /// A comment that names no line.
    pub fn note(text: impl Into<String>) -> Prov {
        Prov {
            text: text.into(),
            srcs: Vec::new(),
        }
    }

    /// `file:line`.
    pub fn line(file: &str, line: u32) -> Prov {
        Prov {
            text: format!("{file}:{line}"),
            srcs: vec![Src::Line(At {
                file: file.to_string(),
                line,
            })],
        }
    }

    /// The same sources, the comment `f` makes of the text.
    pub fn map_text(self, f: impl FnOnce(&str) -> String) -> Prov {
        Prov {
            text: f(&self.text),
            srcs: self.srcs,
        }
    }

    /// The same sources, the comment with `text` after it.
    pub fn then(mut self, text: &str) -> Prov {
        self.text.push_str(text);
        self
    }

    /// The same comment, naming `file:line` as a source too.
    pub fn with_line(mut self, file: &str, line: u32) -> Prov {
        let src = Src::Line(At {
            file: file.to_string(),
            line,
        });
        if !self.srcs.contains(&src) {
            self.srcs.push(src);
        }
        self
    }

    /// The same lines as the sources a value was inferred from (`why`),
    /// the comment `inferred from <text>: <detail>`: a value the design
    /// writes that no line states, though these lines lead to it.
    pub fn inferred(self, why: &'static str, detail: &str) -> Prov {
        Prov {
            text: format!("inferred from {}: {detail}", self.text),
            srcs: self
                .srcs
                .into_iter()
                .map(|s| match s {
                    Src::Line(at) | Src::Inferred { at, .. } => Src::Inferred { at, why },
                    d => d,
                })
                .collect(),
        }
    }

    /// The comments joined by `sep`, the sources of each in order.
    pub fn join(items: impl IntoIterator<Item = Prov>, sep: &str) -> Prov {
        let mut out = Prov::default();
        for (i, p) in items.into_iter().enumerate() {
            if i > 0 {
                out.text.push_str(sep);
            }
            out.text.push_str(&p.text);
            for s in p.srcs {
                if !out.srcs.contains(&s) {
                    out.srcs.push(s);
                }
            }
        }
        out
    }
}

impl From<String> for Prov {
    /// A comment that names no line.
    fn from(text: String) -> Prov {
        Prov::note(text)
    }
}

impl fmt::Display for Prov {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Where a value came from, as its comment: `tor1.cfg:38`,
/// `default: <source>`, or `inferred from tor1.cfg:12,40: <why>` (the
/// first lines it follows from, and how many more).
pub(crate) fn origin(file: &str, o: &Origin) -> Prov {
    match o {
        Origin::Line(l) => Prov::line(file, *l),
        Origin::VendorDefault { source } => Prov {
            text: format!("default: {source}"),
            srcs: vec![Src::Default {
                file: file.to_string(),
                source,
            }],
        },
        Origin::Inferred { why, from } => inferred(file, why, from.kept(), from.len()),
    }
}

/// `inferred from tor1.cfg:12,40 and 3 more lines: <why>`: a value no
/// line states, deduced from `lines` (the first of `total`) of `file`.
pub(crate) fn inferred(file: &str, why: &'static str, lines: &[u32], total: usize) -> Prov {
    let shown: Vec<String> = lines.iter().map(u32::to_string).collect();
    let more = match total.saturating_sub(lines.len()) {
        0 => String::new(),
        1 => " and 1 more line".to_string(),
        n => format!(" and {n} more lines"),
    };
    let text = if lines.is_empty() {
        format!("inferred: {why}")
    } else {
        format!("inferred from {file}:{}{more}: {why}", shown.join(","))
    };
    Prov {
        text,
        srcs: lines
            .iter()
            .map(|l| Src::Inferred {
                at: At {
                    file: file.to_string(),
                    line: *l,
                },
                why,
            })
            .collect(),
    }
}

pub(crate) fn sourced<T>(file: &str, s: &Sourced<T>) -> Prov {
    origin(file, &s.origin)
}

/// A TOML key: bare when it can be, quoted otherwise.
pub(crate) fn key(k: &str) -> String {
    if !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        k.to_string()
    } else {
        string(k)
    }
}

/// A TOML basic string. A control character or bidirectional control of
/// a vendor's text (a hostname with a terminal escape sequence, a VLAN name
/// with a NUL) is written as the visible text `\u{1b}`, the way netlint's
/// renderers show one: the design loader refuses the character itself in
/// a name or value, and a TOML escape (`\u001B`) would load as it.
pub(crate) fn string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if netlint_model::text::is_unsafe(c) => {
                let _ = write!(out, "\\\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Text for a `#` comment: one line, control characters and bidirectional
/// controls shown escaped (`\u{1b}`). A raw one is no TOML (the loader
/// stops at it) and would reach the terminal of whoever reads the design.
pub(crate) fn comment_text(s: &str) -> String {
    netlint_model::text::escape(&s.replace(['\r', '\n'], " ")).into_owned()
}

/// A VLAN list in the design's syntax: `[7, "711-718"]`.
pub(crate) fn vlan_list(set: &VlanSet) -> String {
    let parts: Vec<String> = set
        .ranges()
        .map(|(lo, hi)| {
            if lo == hi {
                lo.to_string()
            } else {
                format!("\"{lo}-{hi}\"")
            }
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

impl Writer {
    pub fn header(&mut self, docs: &[Document], name: &str) {
        let files: Vec<&str> = docs
            .iter()
            .map(|d| match d {
                Document::Config(c) => c.file.as_str(),
                Document::Lldp(t) => t.file.as_str(),
                Document::Cabling(c) => c.file.as_str(),
            })
            .collect();
        self.comment("Written by `netlint import`; review before committing.");
        self.comment(&format!("Read from: {}.", files.join(", ")));
        self.comment("Each value's comment names the line it came from, or the vendor default.");
        self.blank();
        self.table("design", &Prov::default());
        self.value("name", &string(name), &Prov::default());
    }

    pub fn blank(&mut self) {
        self.out.push('\n');
    }

    pub fn comment(&mut self, text: &str) {
        for line in text.lines() {
            let _ = writeln!(self.out, "# {}", comment_text(line));
        }
    }

    /// Records that `start..` up to the end of the text so far came from
    /// `from` (nothing when it names no source).
    fn mapped(&mut self, start: usize, from: &Prov) {
        if !from.srcs.is_empty() {
            self.map.push(Mapped {
                span: start..self.out.len(),
                from: from.srcs.clone(),
            });
        }
    }

    /// `[header]`, which came from `from` (a switch: its hostname line).
    pub fn table(&mut self, header: &str, from: &Prov) {
        let start = self.out.len();
        let h = self.tables.header(header);
        self.out.push_str(&h);
        self.mapped(start, from);
        self.out.push('\n');
    }

    pub fn array_table(&mut self, header: &str, from: &Prov) {
        let start = self.out.len();
        let _ = write!(self.out, "[[{header}]]");
        self.mapped(start, from);
        self.out.push('\n');
    }

    /// `key = value   # comment`, the comment being `from`'s text; the
    /// span of `key = value` is mapped to `from`'s sources.
    pub fn value(&mut self, k: &str, v: &str, from: &Prov) {
        self.value_at(&[k], v, from);
    }

    /// `a.b = value   # comment`: a dotted key (`mtu_b.tor-b = 1500`), so
    /// that each entry of a table has its own line and source.
    pub fn value_at(&mut self, keys: &[&str], v: &str, from: &Prov) {
        let start = self.out.len();
        let dotted: Vec<String> = keys.iter().map(|k| key(k)).collect();
        let _ = write!(self.out, "{} = {v}", dotted.join("."));
        self.mapped(start, from);
        let len = self.out[start..].chars().count();
        if !from.text.is_empty() {
            let pad = 40usize.saturating_sub(len);
            let _ = write!(self.out, "{:pad$} # {}", "", comment_text(&from.text));
        }
        self.out.push('\n');
    }

    pub fn finish(self) -> (String, SourceMap) {
        (self.out, SourceMap::new(self.map))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_taken_is_numbered_and_every_header_is_recorded() {
        let mut t = Tables::default();
        assert_eq!(t.claim("profiles", "esx-c"), "esx-c");
        assert_eq!(t.claim("profiles", "esx-c"), "esx-c-2");
        assert_eq!(t.claim("profiles", "esx-c"), "esx-c-3");
        assert_eq!(t.claim("hosts", "esx-c"), "esx-c", "per top-level table");
        assert_eq!(t.claim("hosts", "ESX-C"), "ESX-C", "as TOML compares keys");
        assert!(t.taken("profiles", "esx-c-2"));
        assert_eq!(t.header("profiles.esx-c"), "[profiles.esx-c]");
        assert_eq!(t.names("hosts").len(), 2);
    }

    #[test]
    fn keys_strings_and_lists() {
        assert_eq!(key("tor-1_a"), "tor-1_a");
        assert_eq!(key("tor1.example.net"), "\"tor1.example.net\"");
        assert_eq!(string("a\"b\\c\u{7}"), "\"a\\\"b\\\\c\\\\u{7}\"");
        assert_eq!(
            string("tor\u{1b}[31m\u{202e}"),
            "\"tor\\\\u{1b}[31m\\\\u{202e}\""
        );
        assert_eq!(key("v\u{0}"), "\"v\\\\u{0}\"");
        assert_eq!(comment_text("a\u{9b}2J\nb\u{7f}"), "a\\u{9b}2J b\\u{7f}");
        assert_eq!(
            vlan_list(&crate::vlans::parse("7,711-718,20").unwrap()),
            "[7, 20, \"711-718\"]"
        );
        assert_eq!(vlan_list(&VlanSet::EMPTY), "[]");
    }
}
