//! Renderers: each a pure function from a check [`crate::run::Report`] or a
//! view (`crate::views`) to text. A renderer knows no command.

pub mod concise;
pub mod dot;
pub mod github;
pub mod gitlab;
pub mod human;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod mermaid;
pub mod report;
pub mod sarif;
pub mod simulate;
pub mod topology;

/// Text for a terminal or a file read in one: every control character
/// other than a line break or tab written as `\u{1b}` (user text is the
/// only source of them; the renderers' own structure uses neither).
pub fn printable(s: String) -> String {
    match netlint_model::text::escape_keep_lines(&s) {
        std::borrow::Cow::Borrowed(_) => s,
        std::borrow::Cow::Owned(e) => e,
    }
}

/// The page of a rule netlint knows (`crates/netlint-rules/rules/<id>.md`
/// in the repository, on `main`: what SARIF's `helpUri` and the Markdown
/// report link to), for the human output and the JSON report's `url`.
pub fn rule_url(rule: &str) -> Option<String> {
    netlint_rules::all_ids()
        .contains(&rule)
        .then(|| format!("{}{rule}.md", markdown::RULE_PAGES))
}

/// Where a diagnostic's primary label is: the path of its file (the
/// reported file, or the other file the label names) and its start and
/// end, `None` when the diagnostic has no place or the run kept no text of
/// that file.
pub fn primary_place<'a>(
    report: &'a crate::run::Report,
    own: &'a netlint_model::SourceFile,
    d: &'a netlint_model::Diagnostic,
) -> (
    &'a str,
    Option<(netlint_model::LineCol, netlint_model::LineCol)>,
) {
    match &d.primary {
        None => (&own.path, None),
        Some(p) => (
            crate::run::Report::label_path(own, p),
            report.label_file(own, p).map(|f| f.range(p.span)),
        ),
    }
}

/// Labels in another file than the reported one (`Label::file`): every
/// renderer places them in that file, at that file's lines.
#[cfg(test)]
mod labels_in_other_files {
    use crate::run::{FileReport, Report};
    use netlint_model::{Diagnostic, Element, FailOn, Severity, SourceFile, Span};

    const DESIGN: &str = "[design]\nname = \"x\"\n\n[switches.tor-b]\nvlans = \"711-712\"\n";
    const CONFIG: &str =
        "hostname tor-b\n!\ninterface Ethernet1/49\n  switchport trunk allowed vlan 712\n";

    fn span_of(text: &str, needle: &str) -> Span {
        let start = text.find(needle).expect("needle in text");
        Span::new(start, start + needle.len())
    }

    fn report(primary_elsewhere: bool) -> Report {
        let trunk = span_of(CONFIG, "switchport trunk allowed vlan 712");
        let vlans = span_of(DESIGN, "vlans = \"711-712\"");
        let d = Diagnostic::new(
            "drift-vlan",
            Severity::Error,
            Element::Switch("tor-b".into()),
            "tor-b's trunk lacks VLAN 711",
        );
        let d = if primary_elsewhere {
            d.at_in("tor-b.cfg", trunk, "built without 711")
                .with_related(vlans, "the design carries 711")
        } else {
            d.at(vlans, "the design carries 711").with_related_in(
                "tor-b.cfg",
                trunk,
                "built without 711",
            )
        };
        Report {
            files: vec![FileReport {
                file: SourceFile::new("design.toml", DESIGN),
                diagnostics: vec![d],
                design: None,
                fail_on: FailOn::Warning,
            }],
            rules: Vec::new(),
            sources: vec![SourceFile::new("tor-b.cfg", CONFIG)],
        }
    }

    #[test]
    fn human_output_shows_a_snippet_of_each_file() {
        let opts = super::human::HumanOptions {
            color: false,
            width: 100,
            rule_links: false,
            summary: false,
        };
        for primary_elsewhere in [false, true] {
            let out = super::human::render(&report(primary_elsewhere), &opts);
            assert!(out.contains("[design.toml:5:1]"), "{out}");
            assert!(out.contains("[tor-b.cfg:4:3]"), "{out}");
            assert!(out.contains("switchport trunk allowed vlan 712"), "{out}");
            assert!(out.contains("vlans = \"711-712\""), "{out}");
            assert!(out.contains("built without 711"), "{out}");
            // The primary's file is drawn first.
            let (design, config) = (
                out.find("[design.toml:5:1]").unwrap(),
                out.find("[tor-b.cfg:4:3]").unwrap(),
            );
            assert_eq!(config < design, primary_elsewhere, "{out}");
        }
    }

    #[test]
    fn json_places_each_label_in_its_file() {
        let out = super::json::render(&report(false), 0);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let d = &v["diagnostics"][0];
        assert_eq!(d["location"]["file"], "design.toml");
        assert_eq!(d["location"]["line"], 5);
        assert_eq!(d["related"][0]["location"]["file"], "tor-b.cfg");
        assert_eq!(d["related"][0]["location"]["line"], 4);
        assert_eq!(d["related"][0]["location"]["column"], 3);
        let out = super::json::render(&report(true), 0);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["diagnostics"][0]["location"]["file"], "tor-b.cfg");
        assert_eq!(v["diagnostics"][0]["location"]["line"], 4);
    }

    #[test]
    fn sarif_gives_each_location_its_artifact() {
        let out = super::sarif::render(&report(false), &[], &|p| p.to_owned());
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let r = &v["runs"][0]["results"][0];
        let at = &r["locations"][0]["physicalLocation"];
        assert_eq!(at["artifactLocation"]["uri"], "design.toml");
        assert_eq!(at["region"]["startLine"], 5);
        let rel = &r["relatedLocations"][0]["physicalLocation"];
        assert_eq!(rel["artifactLocation"]["uri"], "tor-b.cfg");
        assert_eq!(rel["region"]["startLine"], 4);
    }

    #[test]
    fn one_line_formats_point_at_the_primary_file() {
        let r = report(true);
        let concise = super::concise::render(&r, false);
        assert!(
            concise.starts_with("tor-b.cfg:4:3: error[drift-vlan]"),
            "{concise}"
        );
        let github = super::github::render(&r, &|p| p.to_owned());
        assert!(github.contains("file=tor-b.cfg,line=4"), "{github}");
        let gitlab = super::gitlab::render(&r, &|p| p.to_owned());
        assert!(gitlab.contains("\"path\": \"tor-b.cfg\""), "{gitlab}");
        let junit = super::junit::render(&r);
        assert!(junit.contains("at tor-b.cfg:4:3"), "{junit}");
    }

    #[test]
    fn a_file_the_run_did_not_keep_is_named_not_guessed() {
        let mut r = report(false);
        r.sources.clear();
        let opts = super::human::HumanOptions {
            color: false,
            width: 100,
            rule_links: false,
            summary: false,
        };
        let out = super::human::render(&r, &opts);
        assert!(out.contains("tor-b.cfg (built without 711)"), "{out}");
        let v: serde_json::Value = serde_json::from_str(&super::json::render(&r, 0)).unwrap();
        assert_eq!(
            v["diagnostics"][0]["related"][0]["location"]["file"],
            "tor-b.cfg"
        );
        assert_eq!(v["diagnostics"][0]["related"][0]["location"]["line"], 1);
    }
}
