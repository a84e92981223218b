//! One module per rule, grouped by the catalogue's sections.

use crate::Rule;

pub mod teaming;

/// Every rule, in catalogue order.
pub static ALL: &[&Rule] = &[
    // NIC teaming
    &teaming::team_speed_mismatch::RULE,
];
