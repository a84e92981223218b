//! Renderers: one module per output format, each a pure function of a Report.

pub mod dot;
pub mod github;
pub mod gitlab;
pub mod human;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod mermaid;
pub mod sarif;
