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
use netlint_model::Diagnostic;
use netlint_rules::phrases::words::{message_about, name_hosts};
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

impl Baseline {
    /// Every finding of the report (input errors excepted), keyed by the
    /// repository-relative path `repo_path` gives: an entry per subject, so
    /// that a finding shared by hosts built alike is accepted host by host
    /// (a host added later is new), each with the message as it reads
    /// about that subject alone.
    pub fn from_report(report: &Report, repo_path: &dyn Fn(&str) -> String) -> Baseline {
        let mut entries: Vec<BaselineEntry> = report
            .files
            .iter()
            .flat_map(|f| {
                let file = super::repo::normalize_path(&repo_path(&f.file.path));
                f.diagnostics
                    .iter()
                    .filter(|d| !d.is_input_error())
                    .flat_map(move |d| {
                        let file = file.clone();
                        d.subjects.iter().map(move |s| BaselineEntry {
                            file: file.clone(),
                            rule: d.rule.clone(),
                            element: s.path(),
                            message: message_about(d, s),
                        })
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
        if diagnostics.iter().any(Diagnostic::is_input_error) {
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
        // Per subject: hidden by an entry on its element.
        let mut hide: Vec<Vec<bool>> = diagnostics
            .iter()
            .map(|d| vec![false; d.subjects.len()])
            .collect();
        for exact in [true, false] {
            for (di, d) in diagnostics.iter().enumerate() {
                for (si, s) in d.subjects.iter().enumerate() {
                    if hide[di][si] {
                        continue;
                    }
                    let path = s.path();
                    let alone = message_about(d, s);
                    let found = candidates.iter().copied().find(|&i| {
                        let e = &self.baseline.entries[i];
                        !self.used[i]
                            && e.rule == d.rule
                            && e.element == path
                            && (!exact || e.message == alone || e.message == d.message)
                    });
                    let Some(i) = found else { continue };
                    self.used[i] = true;
                    self.hidden += 1;
                    hide[di][si] = true;
                    // A baseline written before findings had subjects holds
                    // one entry per finding, under its first element, with
                    // the whole message: it accepts every host it named.
                    if exact
                        && d.subjects.len() > 1
                        && self.baseline.entries[i].message == d.message
                    {
                        hide[di].iter_mut().for_each(|h| *h = true);
                    }
                }
            }
        }
        let mut kept = Vec::with_capacity(diagnostics.len());
        for (mut d, hidden) in std::mem::take(diagnostics).into_iter().zip(hide) {
            if hidden.iter().all(|h| !*h) {
                kept.push(d);
                continue;
            }
            let mut flags = hidden.into_iter();
            d.subjects.retain(|_| !flags.next().unwrap_or(false));
            if !d.subjects.is_empty() {
                name_hosts(&mut d);
                kept.push(d);
            }
        }
        *diagnostics = kept;
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
    use crate::run::FileReport;
    use netlint_model::{Element, Severity, SCHEMA};

    fn d(rule: &str, element: &str, message: &str) -> Diagnostic {
        let subject = Element::from_path(element).expect("an element path");
        Diagnostic::new(rule, Severity::Warning, subject, message)
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

    /// The finding hosts hv1 and hv2 share, as the engine words it.
    fn shared(hosts: &[&str]) -> Diagnostic {
        let mut d = Diagnostic::new("r", Severity::Warning, Element::host(hosts[0]), "")
            .with_subjects(hosts.iter().map(|h| Element::host(*h)));
        d.host_words = Some(netlint_model::HostWords::leading("power plan `balanced`"));
        name_hosts(&mut d);
        d
    }

    #[test]
    fn a_shared_finding_is_recorded_and_hidden_host_by_host() {
        let d2 = shared(&["hv1", "hv2"]);
        assert_eq!(d2.message, "hosts `hv1`, `hv2`: power plan `balanced`");
        let report = Report {
            sources: Vec::new(),
            files: vec![FileReport {
                file: netlint_model::SourceFile::new("a.toml", ""),
                diagnostics: vec![d2],
                design: None,
                fail_on: netlint_model::FailOn::Warning,
            }],
            rules: Vec::new(),
        };
        let b = Baseline::from_report(&report, &|p| p.to_string());
        assert_eq!(
            b.entries,
            [
                entry(
                    "a.toml",
                    "r",
                    "hosts.hv1",
                    "host `hv1`: power plan `balanced`"
                ),
                entry(
                    "a.toml",
                    "r",
                    "hosts.hv2",
                    "host `hv2`: power plan `balanced`"
                ),
            ]
        );
        // A third host built alike later is new, and reported alone.
        let mut m = b.matcher();
        let mut diags = vec![shared(&["hv1", "hv2", "hv3"])];
        m.filter("a.toml", &mut diags);
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].subjects, [Element::host("hv3")]);
        assert_eq!(diags[0].message, "host `hv3`: power plan `balanced`");
        assert_eq!(m.hidden(), 2);
        assert!(m.fixed().is_empty());
    }

    #[test]
    fn a_baseline_written_before_subjects_still_hides_every_host_it_named() {
        // One entry per finding, under its first element, whole message.
        let b = Baseline {
            entries: vec![entry(
                "a.toml",
                "r",
                "hosts.hv1",
                "hosts `hv1`, `hv2`: power plan `balanced`",
            )],
        };
        let mut m = b.matcher();
        let mut diags = vec![shared(&["hv1", "hv2"])];
        m.filter("a.toml", &mut diags);
        assert!(diags.is_empty(), "{diags:#?}");
        assert_eq!(m.hidden(), 1);
        assert!(m.fixed().is_empty());
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
