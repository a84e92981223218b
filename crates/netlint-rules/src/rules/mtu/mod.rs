//! MTU and jumbo frame rules.

use crate::Rule;

pub static RULES: &[&Rule] = &[];
