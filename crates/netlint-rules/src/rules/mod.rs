//! One module per rule, grouped by the catalogue's sections. Each category
//! module lists its rules in `RULES`; the registry is their concatenation in
//! catalogue order.

use crate::Rule;
use std::sync::OnceLock;

pub mod mtu;
pub mod redundancy;
pub mod stp;
pub mod teaming;
pub mod traffic;
pub mod vsphere;

/// Every rule, in catalogue order.
pub fn all() -> &'static [&'static Rule] {
    static ALL: OnceLock<Vec<&'static Rule>> = OnceLock::new();
    ALL.get_or_init(|| {
        [
            redundancy::RULES,
            mtu::RULES,
            stp::RULES,
            teaming::RULES,
            traffic::RULES,
            vsphere::RULES,
        ]
        .concat()
    })
}
