//! MTU and jumbo frame rules.

use crate::Rule;

mod crossed;
pub mod jumbo_recommended;
pub mod mlag_member_mtu_mismatch;
pub mod mtu_mismatch;
pub mod mtu_path_too_small;
mod targets;

pub static RULES: &[&Rule] = &[
    &mtu_mismatch::RULE,
    &mtu_path_too_small::RULE,
    &jumbo_recommended::RULE,
    &mlag_member_mtu_mismatch::RULE,
];
