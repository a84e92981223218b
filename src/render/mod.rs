//! Renderers: one module per output format, each a pure function of a Report.

pub mod human;
pub mod json;
