//! Diagnostics: input errors and rule findings share one shape so that every
//! renderer (human, JSON, SARIF, ...) treats them alike.

use crate::design::HostId;
use crate::element::Element;
use crate::fast_hash::Set as HashSet;
use crate::fix::Fix;
use crate::span::Span;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    pub fn parse(s: &str) -> Option<Severity> {
        match s {
            "info" => Some(Severity::Info),
            "warning" => Some(Severity::Warning),
            "error" => Some(Severity::Error),
            _ => None,
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A span in the file with a short text saying what is there.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Label {
    pub span: Span,
    pub message: String,
    /// The file the span is in, when it is not the file the diagnostic is
    /// reported in: the as-built side of a drift finding, the switch config
    /// an imported value came from. `None`: the report's own file. Every
    /// file a label names is in the run's `Report::sources` (or is one of
    /// its reported files), so renderers can show its lines.
    pub file: Option<String>,
}

impl Label {
    pub fn new(span: Span, message: impl Into<String>) -> Self {
        Label {
            span,
            message: message.into(),
            file: None,
        }
    }

    /// A label in another file than the one the diagnostic is reported in.
    pub fn in_file(file: impl Into<String>, span: Span, message: impl Into<String>) -> Self {
        Label {
            span,
            message: message.into(),
            file: Some(file.into()),
        }
    }

    /// Whether two labels mark the same place (same file, same span).
    pub fn same_place(&self, other: &Label) -> bool {
        self.span == other.span && self.file == other.file
    }
}

/// Rule id of TOML syntax errors.
pub const SYNTAX: &str = "syntax";
/// Rule id of every other input error (unknown keys, bad values, references).
pub const SCHEMA: &str = "schema";
/// Rule id of a path that could not be read: missing, permission denied,
/// not a regular file, a loop of links, or over the size limit.
pub const UNREADABLE: &str = "unreadable";

/// One diagnostic about one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The rule id (`syntax`, `schema`, or a rule of the catalogue).
    pub rule: String,
    pub severity: Severity,
    /// What is wrong, with the numbers and the names the user wrote.
    pub message: String,
    /// How to fix it.
    pub help: Option<String>,
    /// Where it is; `None` only when the file has no better place (rare).
    pub primary: Option<Label>,
    /// Other places involved: the other end of a mismatch, the profile line.
    pub related: Vec<Label>,
    /// The design elements this is about, never empty ([`Element::Design`]
    /// for the file as a whole). A finding shared by hosts built alike is
    /// one diagnostic with a subject per host. `allow`, baselines and
    /// fingerprints match subjects, never line numbers or words.
    pub subjects: Vec<Element>,
    /// Set when the message names the hosts among its subjects: the words
    /// around that list, so that the message can be written again from the
    /// subjects that remain once `allow` or a baseline has taken some away
    /// (`netlint_rules::phrases::words::name_hosts`).
    pub host_words: Option<HostWords>,
    /// The edit of the design that removes this finding, when it is a
    /// definite one (see [`Fix`]).
    pub fix: Option<Fix>,
}

/// A message that names the hosts among a diagnostic's subjects, kept in
/// parts: the text on either side of the list, for one host and for
/// several (verbs agree with the list: "host `hv1` loses", "hosts `hv1`,
/// `hv2` lose"). Nothing parses a message: the list is written again from
/// the typed subjects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostWords {
    /// Before and after the list when one host remains.
    pub one: (String, String),
    /// Before and after the list when several hosts remain.
    pub many: (String, String),
    /// The message when no subject is a host.
    pub none: String,
    /// How the list is written.
    pub list: HostListStyle,
}

impl HostWords {
    /// A message that opens with its hosts: "hosts `hv1`, `hv2`: {rest}".
    pub fn leading(rest: &str) -> HostWords {
        HostWords {
            one: (String::new(), format!(": {rest}")),
            many: (String::new(), format!(": {rest}")),
            none: rest.to_string(),
            list: HostListStyle::Names,
        }
    }
}

/// How a list of hosts is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostListStyle {
    /// Each name in subject order: "hosts `hv1`, `hv2`, `hv3`".
    Names,
    /// In design order, three or more hosts in a row as a run ("hosts
    /// `hv01` to `hv04`"): the place in the design of each host named.
    Runs(Vec<(String, HostId)>),
}

impl Diagnostic {
    pub fn new(
        rule: impl Into<String>,
        severity: Severity,
        subject: Element,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            rule: rule.into(),
            severity,
            message: message.into(),
            help: None,
            primary: None,
            related: Vec::new(),
            subjects: vec![subject],
            host_words: None,
            fix: None,
        }
    }

    /// An input error (`schema`).
    pub fn schema(span: Span, message: impl Into<String>) -> Self {
        Diagnostic::new(SCHEMA, Severity::Error, Element::Design, message).at(span, "")
    }

    /// An input error (`syntax` or `schema`): the design was not checked.
    pub fn is_input_error(&self) -> bool {
        self.rule == SYNTAX || self.rule == SCHEMA || self.rule == UNREADABLE
    }

    /// The element path output shows (JSON `element`, SARIF fingerprints,
    /// JUnit names): the first subject's in path order, empty for the
    /// design as a whole.
    pub fn element(&self) -> String {
        match self.subjects.as_slice() {
            [one] => one.path(),
            many => many.iter().map(Element::path).min().unwrap_or_default(),
        }
    }

    /// The dotted paths of the subjects, in the order the rule gave them
    /// (the design's order): JSON `subjects`, SARIF logical locations.
    /// Empty for a diagnostic about the file as a whole.
    pub fn subject_paths(&self) -> Vec<String> {
        self.subjects
            .iter()
            .filter(|s| **s != Element::Design)
            .map(Element::path)
            .collect()
    }

    /// The hosts among the subjects, in subject order, each once.
    pub fn hosts(&self) -> Vec<&str> {
        let mut seen = HashSet::default();
        self.subjects
            .iter()
            .filter_map(Element::host_name)
            .filter(|h| seen.insert(*h))
            .collect()
    }

    pub fn at(mut self, span: Span, label: impl Into<String>) -> Self {
        self.primary = Some(Label::new(span, label));
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn with_fix(mut self, fix: Option<Fix>) -> Self {
        self.fix = fix;
        self
    }

    /// The same finding about each of `subjects` (each once, in the order
    /// given) instead of its one subject; nothing changes if there are none.
    pub fn with_subjects(mut self, subjects: impl IntoIterator<Item = Element>) -> Self {
        let mut seen = HashSet::default();
        let all: Vec<Element> = subjects
            .into_iter()
            .filter(|s| seen.insert(s.clone()))
            .collect();
        if !all.is_empty() {
            self.subjects = all;
        }
        self
    }

    pub fn with_related(self, span: Span, label: impl Into<String>) -> Self {
        self.with_related_label(Label::new(span, label))
    }

    /// A related place in another file (see [`Label::file`]).
    pub fn with_related_in(
        self,
        file: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> Self {
        self.with_related_label(Label::in_file(file, span, label))
    }

    /// A related label, unless the primary or another related label
    /// already marks its place.
    pub fn with_related_label(mut self, label: Label) -> Self {
        let duplicate = self.primary.as_ref().is_some_and(|p| p.same_place(&label))
            || self.related.iter().any(|r| r.same_place(&label));
        if !duplicate {
            self.related.push(label);
        }
        self
    }

    /// The primary place in another file than the reported one.
    pub fn at_in(mut self, file: impl Into<String>, span: Span, label: impl Into<String>) -> Self {
        self.primary = Some(Label::in_file(file, span, label));
        self
    }

    /// Sort key: position, then rule, then message, then subjects
    /// (deterministic output).
    pub fn sort_key(&self) -> (usize, usize, &str, &str, &[Element]) {
        let (s, e) = self
            .primary
            .as_ref()
            .map(|l| (l.span.start, l.span.end))
            .unwrap_or((0, 0));
        (s, e, &self.rule, &self.message, &self.subjects)
    }
}

/// The section of the catalogue a rule belongs to; `--select` and
/// `--ignore` take its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    /// The loader's own checks and the check of `allow` tables.
    Input,
    Redundancy,
    Mtu,
    Stp,
    Teaming,
    Traffic,
    Vsphere,
    /// The design against the network as built (`netlint diff` only).
    Drift,
}

impl Category {
    pub const ALL: [Category; 8] = [
        Category::Input,
        Category::Redundancy,
        Category::Mtu,
        Category::Stp,
        Category::Teaming,
        Category::Traffic,
        Category::Vsphere,
        Category::Drift,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            Category::Input => "input",
            Category::Redundancy => "redundancy",
            Category::Mtu => "mtu",
            Category::Stp => "stp",
            Category::Teaming => "teaming",
            Category::Traffic => "traffic",
            Category::Vsphere => "vsphere",
            Category::Drift => "drift",
        }
    }

    /// The category of that name; in a `const` (as `declare_rule!` uses
    /// it) an unknown name does not compile.
    pub const fn named(name: &str) -> Category {
        let mut i = 0;
        while i < Category::ALL.len() {
            if const_eq(Category::ALL[i].as_str(), name) {
                return Category::ALL[i];
            }
            i += 1;
        }
        panic!("unknown rule category")
    }

    pub fn parse(name: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.as_str() == name)
    }
}

const fn const_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// The id of a rule (`mtu-mismatch`, or the loader's `syntax` and
/// `schema`): the public name users write in `allow`, `--select` and
/// configuration, which never changes. Made only where a rule is declared
/// (`declare_rule!`, the input rules); everything else gets one from the
/// registry (`netlint_rules::rule_id`), so a RuleId names a rule that
/// exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RuleId(&'static str);

impl RuleId {
    /// For the places that declare rules; not for looking one up.
    #[doc(hidden)]
    pub const fn declared(id: &'static str) -> RuleId {
        RuleId(id)
    }

    pub const fn as_str(self) -> &'static str {
        self.0
    }
}

impl std::ops::Deref for RuleId {
    type Target = str;
    fn deref(&self) -> &str {
        self.0
    }
}

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.0)
    }
}

impl PartialEq<str> for RuleId {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for RuleId {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<String> for RuleId {
    fn eq(&self, other: &String) -> bool {
        self.0 == other
    }
}

impl From<RuleId> for String {
    fn from(id: RuleId) -> String {
        id.0.to_string()
    }
}

/// What every rule declares about itself (input checks too).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleMeta {
    pub id: RuleId,
    pub category: Category,
    pub default_severity: Severity,
    pub summary: &'static str,
    /// The rule's page (`crates/netlint-rules/rules/<id>.md`), the single
    /// source of its docs.
    pub doc: &'static str,
}
