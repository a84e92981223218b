//! `netlint baseline`, and the baseline file `check --baseline` reads.
//!
//! A baseline lets a team adopt netlint on designs that already have
//! findings: it records them, and `check --baseline` then reports (and fails
//! on) only findings it does not list. An entry is keyed by the file
//! (relative to the repository root), the rule and the element path, never
//! by a line number, so editing the design elsewhere does not bring its
//! findings back; the message is kept to tell two findings of one rule on
//! one element apart, and for the reader. Entries are sorted by that key, so
//! a regenerated baseline diffs cleanly in review.
//!
//! Input errors (`syntax`, `schema`) are never baselined: a design that does
//! not load is not checked at all.

use super::findings::Report;
use netlint_model::{Diagnostic, SCHEMA, SYNTAX};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::Path;

pub const VERSION: u32 = 1;

/// One accepted finding.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct BaselineEntry {
    /// The design, relative to the repository root.
    pub file: String,
    pub rule: String,
    /// The element path (`hosts.hv1.nics.A`); empty for a finding about the
    /// whole design.
    pub element: String,
    /// The message when the baseline was made: tells two findings of one
    /// rule on one element apart; a reworded message still matches by key.
    pub message: String,
}

#[derive(Serialize, Deserialize)]
struct BaselineFile {
    version: u32,
    #[serde(default)]
    comment: String,
    findings: Vec<BaselineEntry>,
}

const COMMENT: &str =
    "Findings accepted when netlint was adopted: `netlint check --baseline FILE` \
                       does not report them. Regenerate with `netlint baseline PATH...`.";

/// A set of accepted findings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Baseline {
    pub entries: Vec<BaselineEntry>,
}

pub(crate) fn is_input(d: &Diagnostic) -> bool {
    d.rule == SYNTAX || d.rule == SCHEMA || d.rule == netlint_rules::UNREADABLE
}

impl Baseline {
    /// Every finding of the report (input errors excepted), keyed by the
    /// repository-relative path `repo_path` gives.
    pub fn from_report(report: &Report, repo_path: &dyn Fn(&str) -> String) -> Baseline {
        let mut entries: Vec<BaselineEntry> = report
            .files
            .iter()
            .flat_map(|f| {
                let file = super::repo::normalize_path(&repo_path(&f.file.path));
                f.diagnostics
                    .iter()
                    .filter(|d| !is_input(d))
                    .map(move |d| BaselineEntry {
                        file: file.clone(),
                        rule: d.rule.clone(),
                        element: d.element.clone(),
                        message: d.message.clone(),
                    })
            })
            .collect();
        entries.sort();
        Baseline { entries }
    }

    pub fn to_json(&self) -> String {
        let doc = BaselineFile {
            version: VERSION,
            comment: COMMENT.to_string(),
            findings: self.entries.clone(),
        };
        let mut s = serde_json::to_string_pretty(&doc).expect("a baseline always serialises");
        s.push('\n');
        s
    }

    pub fn parse(text: &str) -> Result<Baseline, String> {
        let doc: BaselineFile = serde_json::from_str(text)
            .map_err(|e| format!("not a netlint baseline: {}", super::plain::json_error(&e)))?;
        if doc.version != VERSION {
            return Err(format!(
                "baseline version {} is not supported (this netlint reads version {VERSION}): regenerate it with `netlint baseline`",
                doc.version
            ));
        }
        Ok(Baseline {
            entries: doc.findings,
        })
    }

    /// Reads a baseline file: a regular file of at most `max_file_size`
    /// bytes (`--baseline /dev/zero` is refused, not read forever).
    pub fn read(path: &Path, max_file_size: u64) -> Result<Baseline, String> {
        let bytes = super::files::read_file(path, max_file_size)
            .map_err(|reason| format!("cannot read baseline {}: {reason}", path.display()))?;
        let text = String::from_utf8(bytes)
            .map_err(|_| format!("baseline {}: not UTF-8 text", path.display()))?;
        Baseline::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn matcher(&self) -> Matcher<'_> {
        Matcher {
            baseline: self,
            used: vec![false; self.entries.len()],
            files: BTreeSet::new(),
            hidden: 0,
        }
    }
}

/// Hides the findings a baseline lists, file by file, each entry at most
/// once.
pub struct Matcher<'a> {
    baseline: &'a Baseline,
    used: Vec<bool>,
    files: BTreeSet<String>,
    hidden: usize,
}

impl Matcher<'_> {
    /// Removes from `diagnostics` (of the design at repository path `file`)
    /// those the baseline lists. An entry matches its exact finding first
    /// (rule, element and message), then any finding with the same rule and
    /// element, so a reworded message still matches while a second finding
    /// on the same element is new.
    pub fn filter(&mut self, file: &str, diagnostics: &mut Vec<Diagnostic>) {
        let file = super::repo::normalize_path(file);
        if diagnostics.iter().any(is_input) {
            // Not checked: its baselined findings are not fixed, only unseen.
            return;
        }
        self.files.insert(file.clone());
        let candidates: Vec<usize> = (0..self.baseline.entries.len())
            .filter(|&i| !self.used[i] && self.baseline.entries[i].file == file)
            .collect();
        if candidates.is_empty() {
            return;
        }
        let mut hide = vec![false; diagnostics.len()];
        for exact in [true, false] {
            for (di, d) in diagnostics.iter().enumerate() {
                if hide[di] || is_input(d) {
                    continue;
                }
                let found = candidates.iter().copied().find(|&i| {
                    let e = &self.baseline.entries[i];
                    !self.used[i]
                        && e.rule == d.rule
                        && e.element == d.element
                        && (!exact || e.message == d.message)
                });
                if let Some(i) = found {
                    self.used[i] = true;
                    hide[di] = true;
                }
            }
        }
        let mut i = 0;
        diagnostics.retain(|_| {
            let keep = !hide[i];
            i += 1;
            keep
        });
        self.hidden += hide.iter().filter(|h| **h).count();
    }

    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Entries for files this run checked that matched nothing: fixed.
    /// Entries for files not checked in this run are not counted.
    pub fn fixed(&self) -> Vec<BaselineEntry> {
        self.baseline
            .entries
            .iter()
            .zip(&self.used)
            .filter(|(e, used)| !**used && self.files.contains(&e.file))
            .map(|(e, _)| e.clone())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use netlint_model::Severity;

    fn d(rule: &str, element: &str, message: &str) -> Diagnostic {
        Diagnostic::new(rule, Severity::Warning, element, message)
    }

    fn entry(file: &str, rule: &str, element: &str, message: &str) -> BaselineEntry {
        BaselineEntry {
            file: file.into(),
            rule: rule.into(),
            element: element.into(),
            message: message.into(),
        }
    }

    #[test]
    fn round_trips_through_json() {
        let b = Baseline {
            entries: vec![entry("a.toml", "r", "hosts.h", "m \"quoted\"")],
        };
        assert_eq!(Baseline::parse(&b.to_json()).unwrap(), b);
    }

    #[test]
    fn rejects_other_versions_and_other_json() {
        let e = Baseline::parse(r#"{"version": 2, "findings": []}"#).unwrap_err();
        assert!(e.contains("version 2 is not supported"), "{e}");
        assert!(Baseline::parse("[]")
            .unwrap_err()
            .starts_with("not a netlint baseline"));
    }

    #[test]
    fn matches_by_key_and_prefers_the_exact_message() {
        let b = Baseline {
            entries: vec![
                entry("a.toml", "r", "hosts.h", "second"),
                entry("a.toml", "r", "hosts.h", "first"),
                entry("a.toml", "gone", "hosts.h", "fixed since"),
                entry("b.toml", "r", "hosts.h", "other file, not checked"),
            ],
        };
        let mut m = b.matcher();
        let mut diags = vec![
            d("r", "hosts.h", "first"),
            d("r", "hosts.h", "second, reworded"),
            d("r", "hosts.h", "third: new"),
            d("r", "hosts.g", "other element: new"),
        ];
        m.filter("./a.toml", &mut diags);
        let left: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(left, ["third: new", "other element: new"]);
        assert_eq!(m.hidden(), 2);
        assert_eq!(
            m.fixed(),
            [entry("a.toml", "gone", "hosts.h", "fixed since")]
        );
    }

    #[test]
    fn input_errors_are_never_hidden_or_recorded() {
        let b = Baseline {
            entries: vec![entry("a.toml", SCHEMA, "", "bad")],
        };
        let mut m = b.matcher();
        let mut diags = vec![d(SCHEMA, "", "bad")];
        m.filter("a.toml", &mut diags);
        assert_eq!(diags.len(), 1);
        // A design that no longer loads has nothing fixed, only unchecked.
        let b = Baseline {
            entries: vec![entry("a.toml", "r", "hosts.h", "m")],
        };
        let mut m = b.matcher();
        m.filter("a.toml", &mut vec![d(SCHEMA, "", "bad")]);
        assert!(m.fixed().is_empty());
    }
}
