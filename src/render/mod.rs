//! Renderers: one module per output format, each a pure function of a Report.

pub mod github;
pub mod gitlab;
pub mod human;
pub mod json;
pub mod junit;
pub mod sarif;
