//! Renderers: each a pure function from a check [`crate::run::Report`] or a
//! view (`crate::views`) to text. A renderer knows no command.

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
