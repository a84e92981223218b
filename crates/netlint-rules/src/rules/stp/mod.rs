//! Spanning tree and layer-2 loop rules.

use crate::Rule;

pub static RULES: &[&Rule] = &[];
