//! One module per rule, grouped by the catalogue's sections. Each category
//! module lists its rules in `RULES`; the registry is their concatenation in
//! catalogue order.

use crate::Rule;
use std::sync::OnceLock;

pub(crate) mod located;
pub mod mtu;
pub mod redundancy;
pub mod stp;
pub mod teaming;
pub mod traffic;
pub mod vsphere;

/// Host lists longer than this name the first few and count the rest.
const LISTED_HOSTS: usize = 8;

/// "host `hv1`", "hosts `hv1`, `hv2`", or "hosts `hv1`, `hv2`, `hv3` and 97 more".
pub(crate) fn host_list<S: AsRef<str>>(names: &[S]) -> String {
    let quoted: Vec<String> = names
        .iter()
        .take(if names.len() > LISTED_HOSTS {
            3
        } else {
            LISTED_HOSTS
        })
        .map(|n| format!("`{}`", n.as_ref()))
        .collect();
    match names.len() {
        1 => format!("host {}", quoted[0]),
        n if n > LISTED_HOSTS => format!("hosts {} and {} more", quoted.join(", "), n - 3),
        _ => format!("hosts {}", quoted.join(", ")),
    }
}

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
