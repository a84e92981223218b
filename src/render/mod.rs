//! Renderers: one module per output format, each a pure function of a Report.
