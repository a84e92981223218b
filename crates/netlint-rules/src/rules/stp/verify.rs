//! Checking a spanning-tree fix the way the user would apply it: the change
//! a help suggests (a priority, a port cost, a trunk's allowed VLANs, an
//! MSTP instance) is made to a copy of the design, the spanning tree and
//! every spanning-tree rule run again on the copy, and the fix is offered
//! only if the caller's finding is gone and no finding appeared that the
//! design did not have. Under PVST+ one `priority` applies to every VLAN,
//! so a root moved for one VLAN can tie with the core on another; only a
//! recomputation of every tree sees that.

use super::RULES;
use crate::rules::fix_at::{link_table, switch_table};
use crate::Context;
use netlint_model::{
    Design, Diagnostic, Fix, FixEdit, FixValue, LinkId, Sp, Span, StpCost, StpMode, SwitchId,
    VlanSet,
};
use std::collections::{BTreeMap, BTreeSet};

/// One change to the design, as the help words it.
#[derive(Clone, Debug)]
pub(crate) enum Change {
    /// `priority = p` (no instance) or `instance_priority = { k = p }` on
    /// each of `switches`.
    Priority {
        switches: Vec<SwitchId>,
        instance: Option<u16>,
        priority: u32,
    },
    /// `stp_cost = c` (no key) or `stp_cost = { k = c }` on a link.
    Cost {
        link: LinkId,
        key: Option<u16>,
        cost: u32,
    },
    /// `vlans = [...]` on a link (boxed: a set is 512 bytes).
    Vlans { link: LinkId, vlans: Box<VlanSet> },
    /// Every spanning-tree switch runs MSTP in region `name` / `revision`
    /// with `instances`, and these instance priorities.
    Mstp {
        name: String,
        revision: u32,
        instances: BTreeMap<u16, VlanSet>,
        priorities: Vec<(SwitchId, u16, u32)>,
    },
}

/// The design with `changes` made. Spans of new values are the line of the
/// element they are added to.
pub(crate) fn apply(design: &Design, changes: &[Change]) -> Design {
    let mut d = design.clone();
    for c in changes {
        match c {
            Change::Priority {
                switches,
                instance,
                priority,
            } => {
                for s in switches {
                    let sw = &mut d.switches[s.0];
                    let at = sw.stp.span.unwrap_or(sw.span);
                    match instance {
                        None => sw.stp.priority = Some(Sp::new(*priority, at)),
                        Some(k) => {
                            sw.stp.instance_priority.insert(*k, Sp::new(*priority, at));
                        }
                    }
                }
            }
            Change::Cost { link, key, cost } => {
                let l = &mut d.links[link.0];
                let at = l.stp_cost.as_ref().map_or(l.span, |c| c.span);
                let value = match (key, l.stp_cost.as_ref().map(|c| &c.value)) {
                    (None, _) => StpCost::All(*cost),
                    (Some(k), Some(StpCost::PerInstance(m))) => {
                        let mut m = m.clone();
                        m.insert(*k, *cost);
                        StpCost::PerInstance(m)
                    }
                    (Some(k), _) => StpCost::PerInstance([(*k, *cost)].into_iter().collect()),
                };
                l.stp_cost = Some(Sp::new(value, at));
            }
            Change::Vlans { link, vlans } => {
                let l = &mut d.links[link.0];
                let at = l.vlans.as_ref().map_or(l.span, |v| v.span);
                l.vlans = Some(Sp::new(**vlans, at));
            }
            Change::Mstp {
                name,
                revision,
                instances,
                priorities,
            } => {
                for sw in d
                    .switches
                    .iter_mut()
                    .filter(|s| s.stp.mode.value != StpMode::None)
                {
                    let at = sw.stp.span.unwrap_or(sw.span);
                    sw.stp.mode = Sp::new(StpMode::Mstp, sw.stp.mode.span);
                    sw.stp.region = Some(Sp::new(name.clone(), at));
                    sw.stp.revision = Some(Sp::new(*revision, at));
                    sw.stp.instances = Some(Sp::new(instances.clone(), at));
                }
                for (s, k, p) in priorities {
                    let sw = &mut d.switches[s.0];
                    let at = sw.stp.span.unwrap_or(sw.span);
                    sw.stp.instance_priority.insert(*k, Sp::new(*p, at));
                }
            }
        }
    }
    d
}

/// The edits of the design that `changes` make, as a fix that needs
/// judgement (it was checked, and other checked fixes would do too: which
/// one is the user's choice). `None` when one of the changes is a list of
/// VLANs (allowed VLANs, an MSTP region's instance map): a design may write
/// those as ranges, and an edit states the old value exactly, so these stay
/// suggestions.
pub(crate) fn as_fix(design: &Design, description: &str, changes: &[Change]) -> Option<Fix> {
    let mut edits = Vec::new();
    for c in changes {
        match c {
            Change::Priority {
                switches,
                instance,
                priority,
            } => {
                for s in switches {
                    let sw = &design.switches[s.0];
                    let stp = switch_table(sw).then("stp");
                    let table = sw.stp.span.unwrap_or(sw.span);
                    let (path, old) = match instance {
                        None => (stp.then("priority"), sw.stp.priority.as_ref()),
                        Some(k) => (
                            stp.then("instance_priority").then(k.to_string()),
                            sw.stp.instance_priority.get(k),
                        ),
                    };
                    edits.push(match old {
                        Some(o) if o.value == *priority => continue,
                        Some(o) => FixEdit::replace(path, o.value, *priority, o.span),
                        None => FixEdit::insert(path, *priority, table),
                    });
                }
            }
            Change::Cost { link, key, cost } => {
                let l = &design.links[link.0];
                let path = link_table(l).then("stp_cost");
                edits.push(match (key, &l.stp_cost) {
                    (None, None) => FixEdit::insert(path, *cost, l.span),
                    (
                        None,
                        Some(Sp {
                            value: StpCost::All(old),
                            span,
                        }),
                    ) => FixEdit::replace(path, *old, *cost, *span),
                    // A table of per-instance costs as written: its keys'
                    // order is the user's, so the whole is not restated.
                    (None, Some(_)) => return None,
                    (Some(k), None) => FixEdit::insert(
                        path,
                        FixValue::Table(vec![(k.to_string(), (*cost).into())]),
                        l.span,
                    ),
                    (
                        Some(k),
                        Some(Sp {
                            value: StpCost::All(old),
                            span,
                        }),
                    ) => FixEdit::replace(
                        path,
                        *old,
                        FixValue::Table(vec![(k.to_string(), (*cost).into())]),
                        *span,
                    ),
                    (
                        Some(k),
                        Some(Sp {
                            value: StpCost::PerInstance(m),
                            span,
                        }),
                    ) => {
                        let path = path.then(k.to_string());
                        match m.get(k) {
                            // The design keeps no span of one entry of the
                            // table: the edit could not be located.
                            Some(_) => return None,
                            None => FixEdit::insert(path, *cost, *span),
                        }
                    }
                });
            }
            Change::Vlans { .. } | Change::Mstp { .. } => return None,
        }
    }
    (!edits.is_empty()).then(|| Fix::unsafe_(description, edits))
}

/// What makes two findings the same one: rule, element and line.
pub(crate) type FindingKey = (String, String, Option<Span>);

fn keys(found: &[Diagnostic]) -> BTreeSet<FindingKey> {
    found
        .iter()
        .map(|d| {
            (
                d.rule.to_string(),
                d.element(),
                d.primary.as_ref().map(|p| p.span),
            )
        })
        .collect()
}

/// Every spanning-tree rule's findings on the design of `cx` (a context in
/// fix-check mode: the rules do not look for fixes of their own).
pub(crate) fn stp_findings(cx: &Context<'_>) -> BTreeSet<FindingKey> {
    let mut out = Vec::new();
    for rule in RULES {
        (rule.check)(cx, &mut out);
    }
    keys(&out)
}

/// Whether `changes` work on a copy of the design: `fixed` holds there (the
/// caller's finding is gone) and no spanning-tree finding appears that the
/// design did not have.
pub(crate) fn check(
    cx: &Context<'_>,
    changes: &[Change],
    fixed: &dyn Fn(&Context<'_>) -> bool,
) -> bool {
    let copy = apply(cx.design, changes);
    let after = Context::for_fix_check(&copy);
    if !fixed(&after) {
        return false;
    }
    let before = cx.stp_baseline();
    stp_findings(&after).iter().all(|k| before.contains(k))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Context;
    use netlint_model::{load, SourceFile};

    const SRC: &str = r#"
[design]
name = "t"
[switches.a]
stp = { mode = "rapid-pvst", priority = 4096 }
[switches.b]
[[links]]
a = "a"
b = "b"
speed = "10G"
"#;

    #[test]
    fn changes_land_where_the_help_says() {
        let d = load(&SourceFile::new("t.toml", SRC)).design.unwrap();
        let vlans: VlanSet = [10u16, 20].into_iter().collect();
        let copy = apply(
            &d,
            &[
                Change::Priority {
                    switches: vec![SwitchId(1)],
                    instance: None,
                    priority: 8192,
                },
                Change::Cost {
                    link: LinkId(0),
                    key: Some(10),
                    cost: 2500,
                },
                Change::Vlans {
                    link: LinkId(0),
                    vlans: Box::new(vlans),
                },
            ],
        );
        assert_eq!(copy.switches[1].stp.bridge_priority(), 8192);
        assert_eq!(copy.switches[0].stp.bridge_priority(), 4096);
        assert_eq!(
            copy.links[0].stp_cost.as_ref().unwrap().value,
            StpCost::PerInstance([(10, 2500)].into_iter().collect())
        );
        assert_eq!(copy.links[0].vlans.as_ref().unwrap().value, vlans);
        // The original is untouched.
        assert!(d.switches[1].stp.priority.is_none());
    }

    /// PVST+: the core is root of every VLAN at 4096 and a second switch is
    /// given a priority. 4096 ties it with the core on every VLAN (a new
    /// finding); 8192 does not.
    #[test]
    fn a_change_that_adds_a_finding_fails_the_check() {
        let src = r#"
[design]
name = "t"
[switches.core]
tier = "core"
stp = { mode = "rapid-pvst", priority = 4096, mac = "00:00:00:00:00:10" }
[switches.tor-a]
stp = { mode = "rapid-pvst", mac = "00:00:00:00:00:0a" }
[switches.tor-b]
stp = { mode = "rapid-pvst", mac = "00:00:00:00:00:0b" }
[[links]]
a = "core"
b = "tor-a"
speed = "10G"
[[links]]
a = "core"
b = "tor-b"
speed = "10G"
"#;
        let d = load(&SourceFile::new("t.toml", src)).design.unwrap();
        let cx = Context::new(&d);
        assert!(cx.stp_baseline().is_empty(), "{:?}", cx.stp_baseline());
        let on_tor_a = |priority| {
            [Change::Priority {
                switches: vec![SwitchId(1)],
                instance: None,
                priority,
            }]
        };
        assert!(!check(&cx, &on_tor_a(4096), &|_| true));
        assert!(check(&cx, &on_tor_a(8192), &|_| true));
        // The caller's own condition is part of the check.
        assert!(!check(&cx, &on_tor_a(8192), &|_| false));
    }
}
