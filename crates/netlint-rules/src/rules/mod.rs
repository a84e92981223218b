//! One module per rule, grouped by the catalogue's sections. Each category
//! module lists its rules in `RULES`; the registry is their concatenation in
//! catalogue order.

use crate::Rule;
use netlint_model::fast_hash::{Map as HashMap, Set as HashSet};
use netlint_model::{Diagnostic, Element, Span};
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
    let mut index: HashMap<Cause, usize> = HashMap::default();
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

/// [`merge_alike`] of findings worded once per distinct finding, without
/// building each: `words` holds the distinct findings (their subjects are
/// not read), `items` every finding in order as its words (an index into
/// `words`) and its one subject. The result is `merge_alike` of the list
/// of `words[w]` with subject `e` for every `(w, e)` of `items`.
pub(crate) fn merge_worded(
    words: Vec<Diagnostic>,
    items: Vec<(usize, Element)>,
) -> Vec<Diagnostic> {
    // The cause (primary span and message) of each words, and whether a
    // cause has several words (then the words of the subject first in
    // path order are kept, which needs the paths).
    let mut causes: HashMap<(Option<Span>, &str), usize> = HashMap::default();
    let mut several: Vec<bool> = Vec::new();
    let cause_of: Vec<usize> = words
        .iter()
        .map(|d| {
            let key = (d.primary.as_ref().map(|l| l.span), d.message.as_str());
            match causes.get(&key) {
                Some(&c) => {
                    several[c] = true;
                    c
                }
                None => {
                    causes.insert(key, several.len());
                    several.push(false);
                    several.len() - 1
                }
            }
        })
        .collect();
    struct Group {
        words: usize,
        /// The first path in path order (only for a cause of several words).
        first: String,
        subjects: Vec<Element>,
        seen: HashSet<Element>,
    }
    let mut group_of: Vec<Option<usize>> = vec![None; several.len()];
    let mut groups: Vec<Group> = Vec::new();
    for (w, e) in items {
        let c = cause_of[w];
        let path = if several[c] { e.path() } else { String::new() };
        match group_of[c] {
            Some(g) => {
                let g = &mut groups[g];
                if path < g.first {
                    g.first = path;
                    g.words = w;
                }
                if g.seen.insert(e.clone()) {
                    g.subjects.push(e);
                }
            }
            None => {
                group_of[c] = Some(groups.len());
                groups.push(Group {
                    words: w,
                    first: path,
                    seen: HashSet::from_iter([e.clone()]),
                    subjects: vec![e],
                });
            }
        }
    }
    groups
        .into_iter()
        .map(|g| {
            let mut d = words[g.words].clone();
            d.subjects = g.subjects;
            d
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;
    use netlint_model::{Label, Severity};

    /// `merge_worded` gives what `merge_alike` gives for every finding
    /// built: causes shared by several words (kept: the words of the
    /// subject first in path order), subjects met twice, in any order.
    #[test]
    fn merge_worded_is_merge_alike_of_the_findings_it_does_not_build() {
        let words: Vec<Diagnostic> = (0..6)
            .map(|i| {
                // Words 0-2 share one cause, 3-4 another; 5 is alone.
                let (span, message) = match i {
                    0..=2 => (Span::new(10, 20), "one"),
                    3 | 4 => (Span::new(30, 40), "two"),
                    _ => (Span::new(10, 20), "three"),
                };
                let mut d = Diagnostic::new("r", Severity::Warning, Element::Design, message);
                d.primary = Some(Label::new(span, ""));
                d.with_help(format!("help {i}"))
            })
            .collect();
        let names = ["hv3", "hv10", "hv1", "hv2", "hv20", "a"];
        let mut seed = 7u64;
        for round in 0..200 {
            let mut items = Vec::new();
            for _ in 0..(round % 17 + 1) {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let w = (seed >> 33) as usize % words.len();
                let e = Element::team(names[(seed >> 40) as usize % names.len()], "T");
                items.push((w, e));
            }
            let built: Vec<Diagnostic> = items
                .iter()
                .map(|(w, e)| {
                    let mut d = words[*w].clone();
                    d.subjects = vec![e.clone()];
                    d
                })
                .collect();
            assert_eq!(
                merge_worded(words.clone(), items.clone()),
                merge_alike(built),
                "{items:?}"
            );
        }
    }
}
