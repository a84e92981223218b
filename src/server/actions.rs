//! Code actions: the fix a rule carries ([`fix_action`]), checked on a copy
//! of the text exactly as `netlint check --fix` checks it, and taking a
//! finding out with an `allow` entry on one of its subjects, with a reason
//! to fill in ([`allow_actions`]).

use super::analysis::Analysis;
use crate::run::fix::line_replacements;
use netlint_model::{Design, Diagnostic, Element, FixSafety, Part, Span};

/// The reason an inserted `allow` entry carries until the user writes one.
pub const REASON_PLACEHOLDER: &str = "TODO: why this finding is accepted";

/// At most this many `allow` actions per finding (one per subject).
const MAX_SUBJECTS: usize = 8;

/// One action: a title and the edits (byte span replaced by text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    pub title: String,
    pub edits: Vec<(Span, String)>,
    /// Whether it is the action an editor may apply on its own.
    pub preferred: bool,
    /// Why it cannot be applied (shown greyed out with the reason).
    pub disabled: Option<String>,
}

/// Every action for the findings whose span meets `range`.
pub fn actions_for(a: &Analysis, range: Span) -> Vec<(usize, Action)> {
    let mut out = Vec::new();
    for (i, d) in a.diagnostics.iter().enumerate() {
        let at = d.primary.as_ref().map_or(Span::new(0, 0), |l| l.span);
        let meets = at.start <= range.end && range.start <= at.end;
        if !meets {
            continue;
        }
        out.extend(fix_action(a, i).map(|x| (i, x)));
        out.extend(allow_actions(a, d).into_iter().map(|x| (i, x)));
    }
    out
}

/// The fix of finding `i`, when it has one: its edits as whole-line
/// replacements of the text, made only after the edited copy was checked
/// (the finding gone, nothing new). A safe fix is the preferred action; one
/// that needs judgement says so and is not. A fix whose check failed is
/// offered disabled, with the reason.
pub fn fix_action(a: &Analysis, i: usize) -> Option<Action> {
    let fix = a.diagnostics.get(i)?.fix.as_ref()?;
    let outcome = a.fix(i)?;
    let mut title = capitalised(&fix.description);
    if fix.safety == FixSafety::Unsafe {
        title.push_str(" (needs judgement: another edit would also remove the finding)");
    }
    Some(match outcome {
        Ok(text) => Action {
            title,
            edits: line_replacements(&a.file.text, text)
                .into_iter()
                .map(|r| (r.deleted, r.inserted))
                .collect(),
            preferred: fix.safety == FixSafety::Safe,
            disabled: None,
        },
        Err(why) => Action {
            title,
            edits: Vec::new(),
            preferred: false,
            disabled: Some(format!("not applied: {why}")),
        },
    })
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// `allow = { "rule" = "…" }` on each subject of a finding (the input
/// errors and `unused-allow` have none: an allow cannot take them out).
pub fn allow_actions(a: &Analysis, d: &Diagnostic) -> Vec<Action> {
    let Some(design) = a.design.as_deref() else {
        return Vec::new();
    };
    if d.is_input_error() || d.rule == netlint_rules::UNUSED_ALLOW {
        return Vec::new();
    }
    let text = &a.file.text;
    let mut out: Vec<Action> = Vec::new();
    for subject in d.subjects.iter().take(MAX_SUBJECTS) {
        let Some((el, span)) = own_table(design, text, subject) else {
            continue;
        };
        let Some(edit) = insert_allow(design, text, &el, span, &d.rule) else {
            continue;
        };
        let title = format!(
            "Allow `{}` on {} (with a reason to write)",
            d.rule,
            el.path()
        );
        if out.iter().any(|x| x.title == title) {
            continue;
        }
        out.push(Action {
            title,
            edits: vec![edit],
            preferred: false,
            disabled: None,
        });
    }
    out
}

/// Whether `span` lies in the table that starts at `table`: after it, with
/// no table header in between.
fn within(text: &str, table: Span, span: Span) -> bool {
    span.start >= table.start && !text[table.end.min(span.start)..span.start].contains("\n[")
}

/// The element whose table holds the subject's lines, and that table's
/// header or key: the part itself when the host writes it, else the host
/// (a part a profile defines is the profile's line, shared by its hosts).
fn own_table(design: &Design, text: &str, el: &Element) -> Option<(Element, Span)> {
    match el {
        Element::Design | Element::Profile(..) => None,
        Element::Network(n) => Some((
            el.clone(),
            design.networks.iter().find(|x| &x.name == n)?.span,
        )),
        Element::Switch(n) => Some((
            el.clone(),
            design.switches.iter().find(|x| &x.name == n)?.span,
        )),
        Element::Link(n) => Some((el.clone(), design.links.iter().find(|x| &x.name == n)?.span)),
        Element::Storage(n, port) => {
            let st = design.storage.iter().find(|x| &x.name == n)?;
            match port {
                None => Some((el.clone(), st.span)),
                Some(p) => Some((el.clone(), st.ports.iter().find(|x| &x.name == p)?.span)),
            }
        }
        Element::Host(h, part) => {
            let host = design.hosts.iter().find(|x| &x.name == h)?;
            let whole = || Some((Element::host(h.clone()), host.span));
            let span = match part {
                Part::Whole => return whole(),
                Part::Nic(x) => host.nics.iter().find(|n| &n.name == x)?.span,
                Part::Team(x) => host.teams.iter().find(|n| &n.name == x)?.span,
                Part::VSwitch(x) => host.vswitches.iter().find(|n| &n.name == x)?.span,
                Part::VNic { vswitch, vnic } => {
                    let vs = host.vswitches.iter().find(|n| &n.name == vswitch)?;
                    vs.vnics.iter().find(|n| &n.name == vnic)?.span
                }
            };
            let header = text.get(span.start..span.end).unwrap_or("");
            let own = if header.starts_with('[') {
                header
                    .trim_start_matches('[')
                    .trim_start()
                    .starts_with(&format!("hosts.{h}."))
            } else {
                within(text, host.span, span)
            };
            if own {
                Some((el.clone(), span))
            } else {
                whole()
            }
        }
    }
}

/// The edit that adds `rule` to the element's `allow`.
fn insert_allow(
    design: &Design,
    text: &str,
    el: &Element,
    table: Span,
    rule: &str,
) -> Option<(Span, String)> {
    let entry = format!("\"{rule}\" = \"{REASON_PLACEHOLDER}\"");
    let existing: Vec<Span> = design
        .allows
        .iter()
        .filter(|(e, _)| e == el)
        .map(|(_, x)| x.rule.span)
        .collect();
    let mut own = existing.iter().filter(|s| within(text, table, **s));
    if let Some(first) = own.next() {
        // An inline `allow = { ... }` of this table: the entry goes first.
        let before = text[..first.start].trim_end();
        return (before.ends_with('{') || before.ends_with(','))
            .then(|| (Span::new(first.start, first.start), format!("{entry}, ")));
    }
    if !existing.is_empty() {
        // Entries written elsewhere (an `[...allow]` table, or a profile's):
        // a second `allow` key here would not parse.
        return None;
    }
    let header = text.get(table.start..table.end)?;
    if header.starts_with('[') {
        let line_end = text[table.end..].find('\n').map(|i| table.end + i + 1)?;
        return Some((
            Span::new(line_end, line_end),
            format!("allow = {{ {entry} }}\n"),
        ));
    }
    // An inline table (`Mgmt = { network = "mgmt" }`, its span the braces).
    if header.starts_with('{') {
        let at = table.start + 1;
        return Some((Span::new(at, at), format!(" allow = {{ {entry} }},")));
    }
    // A key whose value is an inline table.
    let rest = &text[table.end..];
    let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
    let brace = line.find('{')?;
    line[..brace]
        .trim()
        .strip_prefix('=')?
        .trim()
        .is_empty()
        .then(|| {
            let at = table.end + brace + 1;
            (Span::new(at, at), format!(" allow = {{ {entry} }},"))
        })
}
