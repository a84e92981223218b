//! vSphere-specific rules.

use crate::Rule;

pub static RULES: &[&Rule] = &[];
