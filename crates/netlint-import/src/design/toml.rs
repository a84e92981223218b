//! Writing TOML by hand: keys quoted when they must be, strings escaped,
//! VLAN lists as ranges, and a provenance comment beside each value.

use std::fmt::Write;

use crate::model::{Origin, Sourced};
use crate::vlans::VlanSet;
use crate::Document;

#[derive(Default)]
pub(crate) struct Writer {
    out: String,
}

/// Where a value came from, as its comment: `tor1.cfg:38`, or
/// `default: <source>`.
pub(crate) fn origin(file: &str, o: &Origin) -> String {
    match o {
        Origin::Line(l) => format!("{file}:{l}"),
        Origin::VendorDefault { source } => format!("default: {source}"),
    }
}

pub(crate) fn sourced<T>(file: &str, s: &Sourced<T>) -> String {
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

/// A TOML basic string.
pub(crate) fn string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A VLAN list in the design's syntax: `[7, "711-718"]`.
pub(crate) fn vlan_list(set: &VlanSet) -> String {
    let parts: Vec<String> = set
        .to_string()
        .split(',')
        .filter(|p| *p != "none")
        .map(|p| {
            if p.contains('-') {
                format!("\"{p}\"")
            } else {
                p.to_string()
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
        self.table("design");
        self.value("name", &string(name), "");
    }

    pub fn blank(&mut self) {
        self.out.push('\n');
    }

    pub fn comment(&mut self, text: &str) {
        for line in text.lines() {
            let _ = writeln!(self.out, "# {}", line.replace(['\r', '\n'], " "));
        }
    }

    pub fn table(&mut self, header: &str) {
        let _ = writeln!(self.out, "[{header}]");
    }

    pub fn array_table(&mut self, header: &str) {
        let _ = writeln!(self.out, "[[{header}]]");
    }

    /// `key = value   # comment`.
    pub fn value(&mut self, k: &str, v: &str, comment: &str) {
        let line = format!("{} = {v}", key(k));
        if comment.is_empty() {
            let _ = writeln!(self.out, "{line}");
        } else {
            let _ = writeln!(
                self.out,
                "{line:<40} # {}",
                comment.replace(['\r', '\n'], " ")
            );
        }
    }

    pub fn finish(self) -> String {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_strings_and_lists() {
        assert_eq!(key("tor-1_a"), "tor-1_a");
        assert_eq!(key("tor1.example.net"), "\"tor1.example.net\"");
        assert_eq!(string("a\"b\\c\u{7}"), "\"a\\\"b\\\\c\\u0007\"");
        assert_eq!(
            vlan_list(&VlanSet::parse("7,711-718,20").unwrap()),
            "[7, 20, \"711-718\"]"
        );
        assert_eq!(vlan_list(&VlanSet::EMPTY), "[]");
    }
}
