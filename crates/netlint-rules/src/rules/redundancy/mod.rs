//! Redundancy rules: single points of failure, partitions, fallbacks.

use crate::Rule;

pub static RULES: &[&Rule] = &[];
