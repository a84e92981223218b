//! Interface names, matched across vendors' abbreviations and spacing: the
//! model's [`netlint_model::ifname`], where `diff` uses them too.

pub use netlint_model::ifname::{IfKind, IfName};
