//! NIC teaming rules (LBFO, vendor teams, SET).

use crate::Rule;

pub mod team_speed_mismatch;

pub static RULES: &[&Rule] = &[&team_speed_mismatch::RULE];
