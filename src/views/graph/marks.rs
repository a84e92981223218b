//! Findings on the elements they are about.

use super::scene::*;
use netlint_model::{Design, Diagnostic, HostId, SCHEMA, SYNTAX};
use std::collections::BTreeMap;

/// Findings by element path.
pub(super) struct Marks(BTreeMap<String, Vec<Mark>>);

impl Marks {
    pub(super) fn new(design: &Design, diagnostics: &[Diagnostic]) -> Marks {
        let mut m: BTreeMap<String, Vec<Mark>> = BTreeMap::new();
        for d in diagnostics {
            if d.rule == SYNTAX || d.rule == SCHEMA {
                continue;
            }
            let mark = Mark {
                rule: d.rule.clone(),
                severity: d.severity,
            };
            for element in finding_elements(design, d) {
                let v = m.entry(element).or_default();
                merge(v, std::slice::from_ref(&mark));
            }
        }
        Marks(m)
    }

    /// Marks on exactly this element.
    pub(super) fn on(&self, element: &str) -> Vec<Mark> {
        sorted(self.0.get(element).cloned().unwrap_or_default())
    }
    /// Marks on this element or anything inside it, minus the paths `except` selects.
    pub(super) fn under(&self, element: &str, except: impl Fn(&str) -> bool) -> Vec<Mark> {
        let prefix = format!("{element}.");
        let mut out: Vec<Mark> = Vec::new();
        for (k, v) in &self.0 {
            if (k == element || k.starts_with(&prefix)) && !except(k) {
                merge(&mut out, v);
            }
        }
        sorted(out)
    }
}

/// The elements a finding is about. A finding caused by a profile's line is
/// reported once, on its first host, naming every host it holds for
/// ("hosts `hv1`, `hv2`, `hv3`: ...", "any of hosts `hv1` to `hv3`"): the
/// same element of each named host is about it too, so hosts built alike
/// are still drawn alike.
pub fn finding_elements(design: &Design, d: &Diagnostic) -> Vec<String> {
    let mut out = vec![d.element.clone()];
    let Some(rest) = d.element.strip_prefix("hosts.") else {
        return out;
    };
    let (me, inner) = rest.split_once('.').unwrap_or((rest, ""));
    let mut text = d.message.as_str();
    while let Some(at) = text.find("hosts `") {
        text = &text[at + "hosts ".len()..];
        let names = host_list(design, text);
        if names.iter().any(|n| n == me) {
            for name in names {
                if name != me {
                    out.push(if inner.is_empty() {
                        format!("hosts.{name}")
                    } else {
                        format!("hosts.{name}.{inner}")
                    });
                }
            }
            break;
        }
    }
    out
}

/// Host names at the start of `text`: `` `a`, `b` and `c` `` or a run `` `a` to `c` ``
/// (in the design's order).
pub(super) fn host_list(design: &Design, mut text: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut run_from: Option<String> = None;
    while let Some(body) = text.strip_prefix('`') {
        let Some(end) = body.find('`') else {
            break;
        };
        let name = &body[..end];
        if design.host_by_name(name).is_none() {
            break;
        }
        match run_from.take() {
            Some(from) => {
                let (a, b) = (design.host_by_name(&from), design.host_by_name(name));
                if let (Some(a), Some(b)) = (a, b) {
                    for h in a.0 + 1..=b.0 {
                        names.push(design.host(HostId(h)).name.clone());
                    }
                }
            }
            None => names.push(name.to_string()),
        }
        text = &body[end + 1..];
        if let Some(t) = text
            .strip_prefix(", ")
            .or_else(|| text.strip_prefix(" and "))
        {
            text = t;
        } else if let Some(t) = text.strip_prefix(" to ") {
            run_from = names.last().cloned();
            text = t;
        } else {
            break;
        }
    }
    names
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
