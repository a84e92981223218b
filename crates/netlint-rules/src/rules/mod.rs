//! One module per rule, grouped by the catalogue's sections. Each category
//! module lists its rules in `RULES`; the registry is their concatenation in
//! catalogue order.

use crate::Rule;
use netlint_model::{Diagnostic, Element, Span};
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

pub mod drift;
pub(crate) mod fix_at;
pub(crate) mod located;
pub mod mtu;
pub mod redundancy;
pub mod stp;
pub mod teaming;
pub mod traffic;
pub mod vsphere;

/// One finding per cause (primary span and message) with the subjects of
/// every finding of that cause, in the order met, each once: the findings
/// of hosts built alike become one. Related lines and help are those of the
/// finding whose element comes first in path order.
pub(crate) fn merge_alike(items: Vec<Diagnostic>) -> Vec<Diagnostic> {
    type Cause = (Option<Span>, String);
    struct Group {
        d: Diagnostic,
        first: String,
        seen: HashSet<Element>,
    }
    let mut index: HashMap<Cause, usize> = HashMap::new();
    let mut groups: Vec<Group> = Vec::new();
    for mut d in items {
        let key = (d.primary.as_ref().map(|l| l.span), d.message.clone());
        let path = d.element();
        match index.get(&key) {
            Some(&g) => {
                let g = &mut groups[g];
                let subjects = std::mem::take(&mut d.subjects);
                if path < g.first {
                    g.first = path;
                    let before = std::mem::replace(&mut g.d, d);
                    g.d.subjects = before.subjects;
                }
                for s in subjects {
                    if g.seen.insert(s.clone()) {
                        g.d.subjects.push(s);
                    }
                }
            }
            None => {
                index.insert(key, groups.len());
                let seen = d.subjects.iter().cloned().collect();
                groups.push(Group {
                    d,
                    first: path,
                    seen,
                });
            }
        }
    }
    groups.into_iter().map(|g| g.d).collect()
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
