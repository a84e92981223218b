//! netlint rules.
