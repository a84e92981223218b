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
