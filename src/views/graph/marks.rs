//! Findings on the elements they are about.

use super::scene::*;
use netlint_model::{Diagnostic, Element};
use std::collections::BTreeMap;

/// Findings by the element they are about.
pub(super) struct Marks(BTreeMap<Element, Vec<Mark>>);

impl Marks {
    pub(super) fn new(diagnostics: &[Diagnostic]) -> Marks {
        let mut m: BTreeMap<Element, Vec<Mark>> = BTreeMap::new();
        for d in diagnostics {
            if d.is_input_error() {
                continue;
            }
            let mark = Mark {
                rule: d.rule.clone(),
                severity: d.severity,
            };
            // A finding caused by a profile's line is about the same element
            // of every host built from it: hosts built alike are drawn alike.
            for element in &d.subjects {
                let v = m.entry(element.clone()).or_default();
                merge(v, std::slice::from_ref(&mark));
            }
        }
        Marks(m)
    }

    /// Marks on exactly this element.
    pub(super) fn on(&self, element: &Element) -> Vec<Mark> {
        sorted(self.0.get(element).cloned().unwrap_or_default())
    }
    /// Marks on this element or anything inside it, minus the elements
    /// `except` selects.
    pub(super) fn under(&self, element: &Element, except: impl Fn(&Element) -> bool) -> Vec<Mark> {
        let mut out: Vec<Mark> = Vec::new();
        for (k, v) in &self.0 {
            if element.covers(k) && !except(k) {
                merge(&mut out, v);
            }
        }
        sorted(out)
    }
}

/// The element paths a finding is about, one per subject: read from its
/// typed subjects, never from its message.
pub fn finding_elements(d: &Diagnostic) -> Vec<String> {
    d.subjects.iter().map(Element::path).collect()
}

pub(super) fn merge(into: &mut Vec<Mark>, from: &[Mark]) {
    for m in from {
        match into.iter_mut().find(|x| x.rule == m.rule) {
            Some(x) => x.severity = x.severity.max(m.severity),
            None => into.push(m.clone()),
        }
    }
}

/// Worst first, then by rule id.
pub(super) fn sorted(mut v: Vec<Mark>) -> Vec<Mark> {
    v.sort_by(|a, b| b.severity.cmp(&a.severity).then(a.rule.cmp(&b.rule)));
    v
}
