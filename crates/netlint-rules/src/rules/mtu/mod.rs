//! MTU and jumbo frame rules.

use crate::Rule;

pub mod mtu_mismatch;

pub static RULES: &[&Rule] = &[&mtu_mismatch::RULE];
