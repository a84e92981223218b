//! GitHub Actions workflow commands: one `::error`/`::warning`/`::notice`
//! line per diagnostic, which the runner turns into annotations on the
//! pull request's diff.
//!
//! Workflow commands are parsed line by line, so a raw newline or `%` in a
//! message would cut it short or be misread as an escape, and a `:` or `,`
//! in a property value would end the value early. The escaping below is the
//! one the runner (actions/toolkit `command.ts`) undoes.

use std::fmt::Write as _;

use netlint_model::{Diagnostic, LineCol, Severity};

use crate::run::normalize_path;
use crate::run::Report;

/// Renders every diagnostic as a workflow command, one per line.
///
/// `repo_path` maps the path the user gave to one relative to the repository
/// root: annotations only attach to files named that way.
/// Control characters from the design (file names, free text) are
/// escaped: the text is printed to a terminal.
pub fn render(report: &Report, repo_path: &dyn Fn(&str) -> String) -> String {
    super::printable(render_raw(report, repo_path))
}

fn render_raw(report: &Report, repo_path: &dyn Fn(&str) -> String) -> String {
    let mut out = String::new();
    for file_report in &report.files {
        for diag in &file_report.diagnostics {
            let (path, range) = super::primary_place(report, &file_report.file, diag);
            let path = normalize_path(&repo_path(path));
            command(&mut out, &path, range, diag);
        }
    }
    out
}

/// Annotations GitHub shows of each severity (error, warning, notice) in
/// one step; it drops the rest without a word.
pub const SHOWN_PER_SEVERITY: usize = 10;

/// What to tell the log when GitHub will not show every annotation: how
/// many of each severity it drops (None when all are shown). A plain line,
/// not a `::notice::`, which would itself be an annotation under the same
/// limit.
pub fn hidden_note(report: &Report) -> Option<String> {
    let parts: Vec<String> = [
        (Severity::Error, "errors"),
        (Severity::Warning, "warnings"),
        (Severity::Info, "notices"),
    ]
    .into_iter()
    .filter_map(|(s, name)| {
        let n = report.count(s);
        (n > SHOWN_PER_SEVERITY).then(|| format!("{} of {n} {name}", n - SHOWN_PER_SEVERITY))
    })
    .collect();
    if parts.is_empty() {
        return None;
    }
    Some(format!(
        "netlint: GitHub shows at most {SHOWN_PER_SEVERITY} annotations of each severity per step: {} will not be shown on the pull request (every finding is in this log)\n",
        parts.join(", ")
    ))
}

fn command(out: &mut String, path: &str, range: Option<(LineCol, LineCol)>, diag: &Diagnostic) {
    let kind = match diag.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    };
    let mut properties = vec![("file", path.to_owned())];
    if let Some((start, end)) = range {
        properties.extend([
            ("line", start.line.to_string()),
            ("endLine", end.line.to_string()),
            ("col", start.column.to_string()),
            ("endColumn", end.column.to_string()),
        ]);
    }
    properties.push(("title", format!("netlint {}", diag.rule)));

    let mut message = diag.message.clone();
    if let Some(help) = &diag.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }

    let properties: Vec<String> = properties
        .iter()
        .map(|(k, v)| format!("{k}={}", escape_property(v)))
        .collect();
    let _ = writeln!(
        out,
        "::{kind} {}::{}",
        properties.join(","),
        escape_data(&message)
    );
}

/// The message part: `%` first, so the escapes added after it stay intact.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Property values also end at `,` (next property) and `:` (`::` ends the
/// property list).
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::super::sarif::test_support::{repo_path, report};
    use super::*;

    #[test]
    fn snapshot() {
        insta::assert_snapshot!(render(&report(), &repo_path));
    }

    #[test]
    fn one_line_per_diagnostic() {
        let out = render(&report(), &repo_path);
        assert_eq!(out.lines().count(), 3);
        assert!(out.lines().all(|l| l.starts_with("::")));
    }

    #[test]
    fn says_how_many_annotations_github_drops() {
        let mut r = report();
        assert_eq!(hidden_note(&r), None);
        let f = &mut r.files[0];
        let warning = f
            .diagnostics
            .iter()
            .find(|d| d.severity == Severity::Warning)
            .unwrap()
            .clone();
        f.diagnostics.extend(std::iter::repeat_n(warning, 12));
        // 13 warnings: 3 dropped; 1 error and 1 notice: none.
        assert_eq!(
            hidden_note(&r).unwrap(),
            "netlint: GitHub shows at most 10 annotations of each severity per step: 3 of 13 warnings will not be shown on the pull request (every finding is in this log)\n"
        );
    }

    #[test]
    fn escapes_what_the_runner_would_misread() {
        assert_eq!(escape_data("100%\r\nnext"), "100%25%0D%0Anext");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
        // Nothing is escaped twice.
        assert_eq!(escape_data("%0A"), "%250A");
    }

    #[test]
    fn levels_and_locations() {
        let out = render(&report(), &repo_path);
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].starts_with(
            "::error file=designs/site a.toml,line=8,endLine=8,col=1,endColumn=11,title=netlint mtu-mismatch::"
        ));
        assert!(lines[1].starts_with("::warning "));
        // No primary span: the annotation attaches to the file only.
        assert!(lines[2]
            .starts_with("::notice file=designs/site a.toml,title=netlint unused-profile::"));
    }
}
