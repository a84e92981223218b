//! Fixes as data: the edits of the design that remove a finding, each a
//! TOML path with the value there now and the value it gets. A rule whose
//! fix is a definite edit carries one ([`Diagnostic::fix`]); `netlint check
//! --fix` applies it (after checking it on a copy of the design), SARIF and
//! JSON carry it, an editor can offer it as a code action.
//!
//! [`Diagnostic::fix`]: crate::Diagnostic::fix

use crate::span::Span;
use std::fmt;

/// Whether a fix may be applied without asking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FixSafety {
    /// The edit is definite: the one change that removes the finding
    /// (`netlint check --fix`).
    Safe,
    /// The edit removes the finding, but another edit would too and the
    /// choice is the user's (which switch should be root, which mode the
    /// fabric runs): applied only with `--unsafe-fixes`.
    Unsafe,
}

impl FixSafety {
    pub fn as_str(self) -> &'static str {
        match self {
            FixSafety::Safe => "safe",
            FixSafety::Unsafe => "unsafe",
        }
    }
}

impl fmt::Display for FixSafety {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One step of a TOML path: a key of a table, or an index into an array
/// (`[[links]]` is an array of tables).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PathSegment {
    Key(String),
    Index(usize),
}

impl From<&str> for PathSegment {
    fn from(k: &str) -> Self {
        PathSegment::Key(k.to_string())
    }
}

impl From<String> for PathSegment {
    fn from(k: String) -> Self {
        PathSegment::Key(k)
    }
}

impl From<usize> for PathSegment {
    fn from(i: usize) -> Self {
        PathSegment::Index(i)
    }
}

/// A TOML path (`hosts.hv1.dcb.willing`, `links[3].stp_cost`).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TomlPath(pub Vec<PathSegment>);

impl TomlPath {
    pub fn new() -> Self {
        TomlPath(Vec::new())
    }

    /// The path with one more segment.
    pub fn then(mut self, seg: impl Into<PathSegment>) -> Self {
        self.0.push(seg.into());
        self
    }

    /// The path with `more`'s segments after its own.
    pub fn then_all(mut self, more: TomlPath) -> Self {
        self.0.extend(more.0);
        self
    }

    pub fn segments(&self) -> &[PathSegment] {
        &self.0
    }
}

/// `hosts.hv1.nics."P4-1".mtu`, `links[0].stp_cost`: keys that are not
/// bare TOML keys are quoted.
impl fmt::Display for TomlPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                PathSegment::Key(k) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    write_key(f, k)?;
                }
                PathSegment::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

fn bare_key(k: &str) -> bool {
    !k.is_empty()
        && k.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn write_key(f: &mut fmt::Formatter<'_>, k: &str) -> fmt::Result {
    if bare_key(k) {
        f.write_str(k)
    } else {
        write_string(f, k)
    }
}

fn write_string(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    f.write_str("\"")?;
    for c in s.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\t' => f.write_str("\\t")?,
            '\r' => f.write_str("\\r")?,
            c if c.is_control() => write!(f, "\\u{:04X}", c as u32)?,
            c => write!(f, "{c}")?,
        }
    }
    f.write_str("\"")
}

/// A TOML value as a fix writes it. The design format has no floats and no
/// dates, so this is all a fix needs (and it compares exactly).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FixValue {
    Bool(bool),
    Integer(i64),
    String(String),
    Array(Vec<FixValue>),
    /// An inline table, keys in the order written.
    Table(Vec<(String, FixValue)>),
}

impl From<bool> for FixValue {
    fn from(b: bool) -> Self {
        FixValue::Bool(b)
    }
}

impl From<i64> for FixValue {
    fn from(i: i64) -> Self {
        FixValue::Integer(i)
    }
}

impl From<u32> for FixValue {
    fn from(i: u32) -> Self {
        FixValue::Integer(i64::from(i))
    }
}

impl From<u16> for FixValue {
    fn from(i: u16) -> Self {
        FixValue::Integer(i64::from(i))
    }
}

impl From<&str> for FixValue {
    fn from(s: &str) -> Self {
        FixValue::String(s.to_string())
    }
}

impl From<String> for FixValue {
    fn from(s: String) -> Self {
        FixValue::String(s)
    }
}

/// TOML syntax: `true`, `9000`, `"mstp"`, `[10, 20]`, `{ 1 = [20, 30] }`.
impl fmt::Display for FixValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FixValue::Bool(b) => write!(f, "{b}"),
            FixValue::Integer(i) => write!(f, "{i}"),
            FixValue::String(s) => write_string(f, s),
            FixValue::Array(items) => {
                f.write_str("[")?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
            FixValue::Table(entries) if entries.is_empty() => f.write_str("{}"),
            FixValue::Table(entries) => {
                f.write_str("{ ")?;
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write_key(f, k)?;
                    write!(f, " = {v}")?;
                }
                f.write_str(" }")
            }
        }
    }
}

/// One edit of the design: the value at `path` becomes `new`, or, when
/// `new` is `None`, the key at `path` is removed with its value (an entry
/// of a table: its line goes, the comments around it stay).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FixEdit {
    /// Where, from the top of the file.
    pub path: TomlPath,
    /// The value there now; `None` when the key is absent and the edit
    /// adds it (to the table at `span`, made when missing).
    pub old: Option<FixValue>,
    /// The value it gets; `None`: the key is removed.
    pub new: Option<FixValue>,
    /// The old value's text; for an added key, the table it goes into (its
    /// header or key, or the element's line when the table is missing).
    pub span: Span,
}

/// `path = new`, or `remove path`.
impl fmt::Display for FixEdit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.new {
            Some(v) => write!(f, "{} = {v}", self.path),
            None => write!(f, "remove {}", self.path),
        }
    }
}

impl FixEdit {
    /// The value at `path` (now `old`, written at `span`) becomes `new`.
    pub fn replace(
        path: TomlPath,
        old: impl Into<FixValue>,
        new: impl Into<FixValue>,
        span: Span,
    ) -> Self {
        FixEdit {
            path,
            old: Some(old.into()),
            new: Some(new.into()),
            span,
        }
    }

    /// The key at `path` (its value now `old`, written at `span`) is
    /// removed with its value.
    pub fn remove(path: TomlPath, old: impl Into<FixValue>, span: Span) -> Self {
        FixEdit {
            path,
            old: Some(old.into()),
            new: None,
            span,
        }
    }

    /// `path`, absent now, is added with `new`; `table` is where its table
    /// is written (or its element, when the table is missing too).
    pub fn insert(path: TomlPath, new: impl Into<FixValue>, table: Span) -> Self {
        FixEdit {
            path,
            old: None,
            new: Some(new.into()),
            span: table,
        }
    }
}

/// The edits that remove one finding, applied together.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fix {
    pub safety: FixSafety,
    /// What the fix does, in words ("set `willing = false` in the `dcb`
    /// table of profile `p`").
    pub description: String,
    /// Never empty.
    pub edits: Vec<FixEdit>,
    /// The fix moves a spanning-tree root where the design intends it: the
    /// tree then runs through the new root, so a host pair's path may be
    /// one hop longer at the same speed, and the fix check accepts that
    /// (never a slower or cut path). Set by the rule that moves the root.
    pub moves_root: bool,
}

impl Fix {
    pub fn safe(description: impl Into<String>, edits: Vec<FixEdit>) -> Self {
        Fix {
            safety: FixSafety::Safe,
            description: description.into(),
            edits,
            moves_root: false,
        }
    }

    /// This fix moves a spanning-tree root ([`Fix::moves_root`]).
    pub fn moving_root(mut self) -> Self {
        self.moves_root = true;
        self
    }

    pub fn unsafe_(description: impl Into<String>, edits: Vec<FixEdit>) -> Self {
        Fix {
            safety: FixSafety::Unsafe,
            description: description.into(),
            edits,
            moves_root: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_values_are_written_as_toml() {
        let p = TomlPath::new()
            .then("hosts")
            .then("hv1")
            .then("nics")
            .then("P4 1")
            .then("mtu");
        assert_eq!(p.to_string(), "hosts.hv1.nics.\"P4 1\".mtu");
        let l = TomlPath::new().then("links").then(3).then("stp_cost");
        assert_eq!(l.to_string(), "links[3].stp_cost");
        let v = FixValue::Table(vec![(
            "1".into(),
            FixValue::Array(vec![20u16.into(), 30u16.into()]),
        )]);
        assert_eq!(v.to_string(), "{ 1 = [20, 30] }");
        assert_eq!(FixValue::from("a\"b").to_string(), "\"a\\\"b\"");
        assert_eq!(FixValue::Table(vec![]).to_string(), "{}");
    }
}
