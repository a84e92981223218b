//! GitLab code-quality report (`artifacts:reports:codequality`): a JSON
//! array of issues in the subset of the Code Climate format GitLab reads.
//!
//! GitLab matches issues between the source and target branch of a merge
//! request by `fingerprint` alone, so it must be stable when lines move and
//! unique within the report; it is the same fingerprint SARIF carries.
//!
//! Severity mapping (GitLab's scale is info, minor, major, critical,
//! blocker): error -> critical, warning -> major, info -> info. Errors are
//! designs that will not fail over; `blocker` is left for nothing so that a
//! team's own tooling can still rank above netlint's findings.

use netlint_model::Severity;
use serde::Serialize;

use super::sarif::Fingerprints;
use crate::run::normalize_path;
use crate::run::Report;

/// Renders the report as a pretty-printed code-quality JSON array.
///
/// `repo_path` maps the path the user gave to one relative to the
/// repository root, which is what GitLab links in the merge request.
pub fn render(report: &Report, repo_path: &dyn Fn(&str) -> String) -> String {
    let mut fingerprints = Fingerprints::default();
    let mut issues = Vec::new();
    for file_report in &report.files {
        let file = &file_report.file;
        let path = normalize_path(&repo_path(&file.path));
        for diag in &file_report.diagnostics {
            // GitLab requires a line; a diagnostic about the whole file
            // points at its first.
            let (at, range) = super::primary_place(report, file, diag);
            let (begin, end) = range.map_or((1, 1), |(start, end)| (start.line, end.line));
            issues.push(Issue {
                description: &diag.message,
                check_name: &diag.rule,
                fingerprint: fingerprints.next(diag, file, &path),
                severity: severity(diag.severity),
                location: Location {
                    path: if at == file.path {
                        path.clone()
                    } else {
                        normalize_path(&repo_path(at))
                    },
                    lines: Lines { begin, end },
                },
            });
        }
    }
    let mut out = serde_json::to_string_pretty(&issues).expect("issues always serialise");
    out.push('\n');
    out
}

fn severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "critical",
        Severity::Warning => "major",
        Severity::Info => "info",
    }
}

#[derive(Serialize)]
struct Issue<'a> {
    description: &'a str,
    check_name: &'a str,
    fingerprint: String,
    severity: &'static str,
    location: Location,
}

#[derive(Serialize)]
struct Location {
    path: String,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: usize,
    end: usize,
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use netlint_model::{Diagnostic, Element, SourceFile};

    use super::super::sarif::test_support::{repo_path, report};
    use super::*;
    use crate::run::FileReport;

    #[test]
    fn snapshot() {
        insta::assert_snapshot!(render(&report(), &repo_path));
    }

    /// GitLab's own schema (`app/validators/json_schemas/codeclimate.json`,
    /// vendored) checks each issue; it is lax, so the documented rules it
    /// leaves out are checked by hand below.
    #[test]
    fn every_issue_satisfies_gitlab() {
        let schema: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/data/gitlab-codeclimate.json"))
                .expect("vendored schema is JSON");
        let validator = jsonschema::validator_for(&schema).expect("schema compiles");
        let issues: serde_json::Value =
            serde_json::from_str(&render(&report(), &repo_path)).expect("output is JSON");
        let issues = issues.as_array().expect("a JSON array");
        assert_eq!(issues.len(), 3);
        let mut fingerprints = HashSet::new();
        for issue in issues {
            let errors: Vec<String> = validator
                .iter_errors(issue)
                .map(|e| e.to_string())
                .collect();
            assert!(errors.is_empty(), "{errors:#?}");
            assert!(issue["check_name"].as_str().is_some_and(|s| !s.is_empty()));
            assert!(issue["description"].as_str().is_some_and(|s| !s.is_empty()));
            assert!(["info", "minor", "major", "critical", "blocker"]
                .contains(&issue["severity"].as_str().unwrap()));
            let path = issue["location"]["path"].as_str().unwrap();
            assert!(!path.starts_with("./") && !path.starts_with('/') && !path.contains('\\'));
            let begin = issue["location"]["lines"]["begin"].as_u64().unwrap();
            assert!(begin >= 1);
            assert!(issue["location"]["lines"]["end"].as_u64().unwrap() >= begin);
            assert!(fingerprints.insert(issue["fingerprint"].as_str().unwrap().to_owned()));
        }
        assert_eq!(issues[0]["location"]["path"], "designs/site a.toml");
        assert_eq!(issues[0]["severity"], "critical");
        assert_eq!(issues[2]["location"]["lines"]["begin"], 1);
    }

    #[test]
    fn colliding_findings_stay_distinct() {
        let file = SourceFile::new("a.toml", "a = 1\nb = 2\n");
        let diag = Diagnostic::new("r", Severity::Warning, Element::host("a"), "same");
        let report = Report {
            sources: Vec::new(),
            files: vec![FileReport {
                file,
                diagnostics: vec![diag.clone(), diag],
                design: None,
                fail_on: netlint_model::FailOn::Warning,
            }],
            rules: vec![],
        };
        let issues: serde_json::Value = serde_json::from_str(&render(&report, &repo_path)).unwrap();
        let first = issues[0]["fingerprint"].as_str().unwrap();
        assert_eq!(issues[1]["fingerprint"], format!("{first}-2"));
    }

    #[test]
    fn an_empty_report_is_an_empty_array() {
        assert_eq!(render(&Report::default(), &repo_path), "[]\n");
    }
}
