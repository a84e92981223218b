//! JUnit XML, the format the test tabs of GitLab, Azure DevOps and Jenkins
//! read: one `<testsuite>` per design file, one `<testcase>` per
//! diagnostic, and one passing case for a clean file so that it still shows
//! up as checked.
//!
//! A case fails only when its finding fails the check (at or above the
//! file's fail level, `--fail-on`, or an input error), so the test tab and
//! the exit code agree; a finding below the level is a passing case whose
//! `<system-out>` carries it. A case is named by its rule and element, never
//! by its line, so test history survives edits that move lines; two
//! findings of one rule on one element are told apart by `#2`, `#3` in
//! order of position.
//!
//! Written by hand: the document is small and flat, and an XML library would
//! be a dependency for a dozen `write!`s. What needs care is escaping, done
//! by [`escape`] for every piece of user text.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use netlint_model::{Diagnostic, LineCol};

use crate::run::{FileReport, Report};

/// Renders the report as a JUnit XML document.
///
/// Paths appear as the user gave them: test tabs show them as text, they do
/// not link to the repository.
pub fn render(report: &Report) -> String {
    let tests: usize = report
        .files
        .iter()
        .map(|f| f.diagnostics.len().max(1))
        .sum();
    let failures: usize = report.files.iter().map(failures).sum();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"netlint\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\">"
    );
    for file_report in &report.files {
        suite(&mut out, report, file_report);
    }
    out.push_str("</testsuites>\n");
    out
}

fn failures(file_report: &FileReport) -> usize {
    file_report
        .diagnostics
        .iter()
        .filter(|d| file_report.fails(d))
        .count()
}

fn suite(out: &mut String, report: &Report, file_report: &FileReport) {
    let file = &file_report.file;
    let diagnostics = &file_report.diagnostics;
    let _ = writeln!(
        out,
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\">",
        escape(&file.path, Context::Attribute),
        diagnostics.len().max(1),
        failures(file_report),
    );
    if diagnostics.is_empty() {
        out.push_str("    <testcase name=\"netlint check\" classname=\"netlint\"/>\n");
    }
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for diag in diagnostics {
        let mut name = case_name(diag);
        let n = seen.entry(name.clone()).or_default();
        *n += 1;
        if *n > 1 {
            let _ = write!(name, " #{n}");
        }
        let place = super::primary_place(report, file, diag);
        case(out, place, diag, &name, file_report.fails(diag));
    }
    out.push_str("  </testsuite>\n");
}

/// The rule and the element (`mtu-mismatch (hosts.hv2.nics.P4-1)`), or the
/// rule alone for a finding on the whole design.
fn case_name(diag: &Diagnostic) -> String {
    let element = diag.element();
    if element.is_empty() {
        diag.rule.to_string()
    } else {
        format!("{} ({element})", diag.rule)
    }
}

fn case(
    out: &mut String,
    (path, range): (&str, Option<(LineCol, LineCol)>),
    diag: &Diagnostic,
    name: &str,
    fails: bool,
) {
    let location = match range {
        Some((start, _)) => format!("{path}:{}:{}", start.line, start.column),
        None => path.to_owned(),
    };
    let mut body = diag.message.clone();
    if let Some(help) = &diag.help {
        let _ = write!(body, "\nhelp: {help}");
    }
    let _ = write!(body, "\nat {location}");

    let _ = writeln!(
        out,
        "    <testcase classname=\"{}\" name=\"{}\">",
        escape(&format!("netlint.{}", diag.rule), Context::Attribute),
        escape(name, Context::Attribute),
    );
    if fails {
        let _ = writeln!(
            out,
            "      <failure type=\"{}\" message=\"{}\">{}</failure>",
            diag.severity,
            escape(&diag.message, Context::Attribute),
            escape(&body, Context::Text),
        );
    } else {
        let _ = writeln!(
            out,
            "      <system-out>{} below the fail level: {}</system-out>",
            diag.severity,
            escape(&body, Context::Text),
        );
    }
    out.push_str("    </testcase>\n");
}

#[derive(Clone, Copy, PartialEq)]
enum Context {
    Text,
    Attribute,
}

/// Escapes the five markup characters, writes control characters other than
/// tab and newline as `\u{1b}` (XML 1.0 cannot carry most of them, and a
/// terminal showing the report should not run them), and drops U+FFFE and
/// U+FFFF, which a parser would reject outright. In attributes,
/// whitespace controls become character references, because a parser
/// normalises a literal newline in an attribute to a space.
fn escape(s: &str, context: Context) -> String {
    // Control characters are shown, as `\u{1b}`, rather than dropped.
    let s = netlint_model::text::escape_keep_lines(s);
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' if context == Context::Attribute => {
                let _ = write!(out, "&#{};", u32::from(c));
            }
            '\t' | '\n' | '\r' => out.push(c),
            c if c.is_control() && c < ' ' => {}
            '\u{FFFE}' | '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::sarif::test_support::report;
    use super::*;

    #[test]
    fn snapshot() {
        insta::assert_snapshot!(render(&report()));
    }

    #[test]
    fn parses_and_counts_add_up() {
        let xml = render(&report());
        let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "testsuites");
        assert_eq!(root.attribute("tests"), Some("4"));
        // The notice is below the default fail level (warning).
        assert_eq!(root.attribute("failures"), Some("2"));

        let suites: Vec<_> = root
            .children()
            .filter(|n| n.has_tag_name("testsuite"))
            .collect();
        assert_eq!(suites.len(), 2);
        assert_eq!(suites[0].attribute("name"), Some("./designs/site a.toml"));

        let first = suites[0]
            .children()
            .find(|n| n.has_tag_name("testcase"))
            .unwrap();
        assert_eq!(first.attribute("classname"), Some("netlint.mtu-mismatch"));
        assert_eq!(
            first.attribute("name"),
            Some("mtu-mismatch (hosts.hv2.nics.P4-1)")
        );
        let failure = first
            .children()
            .find(|n| n.has_tag_name("failure"))
            .unwrap();
        assert_eq!(failure.attribute("type"), Some("error"));
        // Markup characters and quotes survive the round trip.
        assert_eq!(
            failure.attribute("message"),
            Some("MTU 9014 on P4-1 ≠ 1500 on \"sw1:Eth1/1\" (100% of frames > 1500 B dropped, <jumbo> & more)")
        );
        assert!(failure
            .text()
            .unwrap()
            .contains("\nhelp: set mtu = 9014 on both ends,\nor 1500 on both\n"));

        let clean = suites[1]
            .children()
            .find(|n| n.has_tag_name("testcase"))
            .unwrap();
        assert_eq!(clean.attribute("name"), Some("netlint check"));
        assert!(clean.children().all(|n| !n.has_tag_name("failure")));
    }

    #[test]
    fn only_findings_at_the_fail_level_fail() {
        let mut r = report();
        for f in &mut r.files {
            f.fail_on = netlint_model::FailOn::Error;
        }
        let xml = render(&r);
        let doc = roxmltree::Document::parse(&xml).unwrap();
        assert_eq!(doc.root_element().attribute("failures"), Some("1"));
        assert_eq!(doc.root_element().attribute("tests"), Some("4"));
        let cases: Vec<_> = doc
            .descendants()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        let failing = |c: &roxmltree::Node| c.children().any(|n| n.has_tag_name("failure"));
        assert!(failing(&cases[0]));
        // The warning passes and says what it is.
        assert!(!failing(&cases[1]));
        let out = cases[1]
            .children()
            .find(|n| n.has_tag_name("system-out"))
            .and_then(|n| n.text())
            .unwrap();
        assert!(out.starts_with("warning below the fail level: "), "{out}");
        for f in &mut r.files {
            f.fail_on = netlint_model::FailOn::Never;
        }
        assert!(render(&r).contains("failures=\"0\" errors=\"0\">\n  <testsuite"));
    }

    #[test]
    fn names_carry_no_position_and_repeats_are_numbered() {
        let file = netlint_model::SourceFile::new("a.toml", "a = 1\nb = 2\n");
        let d = |start| {
            netlint_model::Diagnostic::new(
                "r",
                netlint_model::Severity::Warning,
                netlint_model::Element::host("h"),
                "m",
            )
            .at(netlint_model::Span::new(start, start + 1), "here")
        };
        let r = Report {
            sources: Vec::new(),
            files: vec![FileReport {
                file,
                diagnostics: vec![d(0), d(6)],
                design: None,
                fail_on: netlint_model::FailOn::Warning,
            }],
            rules: vec![],
        };
        let xml = render(&r);
        assert!(xml.contains("name=\"r (hosts.h)\">"), "{xml}");
        assert!(xml.contains("name=\"r (hosts.h) #2\">"), "{xml}");
        assert!(xml.contains("at a.toml:2:1</failure>"), "{xml}");
    }

    #[test]
    fn escaping() {
        assert_eq!(
            escape("a<b>&\"'", Context::Text),
            "a&lt;b&gt;&amp;&quot;&apos;"
        );
        // Control characters are shown escaped; U+FFFF, which XML cannot
        // carry, is dropped.
        assert_eq!(
            escape("bell\u{7}\u{0}\u{FFFF}!", Context::Text),
            "bell\\u{7}\\u{0}!"
        );
        assert_eq!(escape("two\nlines\t", Context::Text), "two\nlines\t");
        assert_eq!(
            escape("two\nlines\t", Context::Attribute),
            "two&#10;lines&#9;"
        );
        // A newline in an attribute survives a parser's normalisation.
        let xml = format!("<a m=\"{}\"/>", escape("x\ny", Context::Attribute));
        let doc = roxmltree::Document::parse(&xml).unwrap();
        assert_eq!(doc.root_element().attribute("m"), Some("x\ny"));
    }

    #[test]
    fn an_empty_report_is_still_a_document() {
        let xml = render(&Report::default());
        roxmltree::Document::parse(&xml).expect("well-formed XML");
    }
}
