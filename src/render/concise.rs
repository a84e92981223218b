//! `--format concise`: one line per finding, `file:line:col:
//! severity[rule] message`, the form compilers, ruff and shellcheck's gcc
//! format use, which editors and `grep` read. A finding without a place is
//! at `1:1`, as in the JSON report; line breaks in a message become spaces,
//! so a finding is always one line.

use crate::run::Report;
use std::fmt::Write as _;

/// The findings, one per line, then (unless `summary` is false, `--quiet`)
/// the count line the human output ends with.
/// Control characters from the design are escaped, as in every text output.
pub fn render(report: &Report, summary: bool) -> String {
    super::printable(render_raw(report, summary))
}

fn render_raw(report: &Report, summary: bool) -> String {
    let mut out = String::new();
    for f in &report.files {
        for d in &f.diagnostics {
            let (path, range) = super::primary_place(report, &f.file, d);
            let at = range.map_or(netlint_model::LineCol { line: 1, column: 1 }, |r| r.0);
            let message: String = d
                .message
                .chars()
                .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
                .collect();
            let _ = writeln!(
                out,
                "{}:{}:{}: {}[{}]{} {message}",
                path,
                at.line,
                at.column,
                d.severity.as_str(),
                d.rule,
                super::human::fix_mark(d)
            );
        }
    }
    if summary {
        out.push_str(&super::human::summary_line(report));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::sarif::test_support::report;
    use super::*;

    /// A finding whose fix `--fix` applies is marked `[*]` after its rule
    /// (the sample's first, safe fix); one that needs judgement is not,
    /// and the count line says how many of each there are.
    #[test]
    fn one_line_per_finding() {
        let out = render(&report(), false);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{out}");
        assert_eq!(
            lines[0],
            "./designs/site a.toml:8:1: error[mtu-mismatch] [*] MTU 9014 on P4-1 ≠ 1500 on \"sw1:Eth1/1\" (100% of frames > 1500 B dropped, <jumbo> & more)"
        );
        assert!(!lines[1].contains("[*]"), "{}", lines[1]);
        assert!(lines[2].starts_with("./designs/site a.toml:1:1: info[unused-profile] "));
        let with_summary = render(&report(), true);
        assert!(with_summary.starts_with(&out));
        assert_eq!(
            &with_summary[out.len()..],
            "2 files checked: 1 error, 1 warning, 1 info; 1 fixable with --fix, 1 more with --unsafe-fixes\n"
        );
    }
}
