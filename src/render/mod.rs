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

/// The page of a rule netlint knows (`rules/<id>.md` in the repository, on
/// `main`: what SARIF's `helpUri` and the Markdown report link to), for
/// the human output and the JSON report's `url`.
pub fn rule_url(rule: &str) -> Option<String> {
    netlint_rules::all_ids()
        .contains(&rule)
        .then(|| format!("{}{rule}.md", markdown::RULE_PAGES))
}
