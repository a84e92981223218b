//! Fixes for a port the spanning tree blocks. Each candidate is tried on a
//! copy of the fabric (the spanning tree recomputed with the change) and
//! kept only when it makes the port forward what it must, without cutting
//! any host pair that reaches today; then it is made to a copy of the design
//! and suggested only if no spanning-tree finding appears there that the
//! design does not have (see [`super::verify`]).

use super::verify::{self, Change};
use super::{and_list, members_phrase, priority_of, tree_instance};
use crate::Context;
use netlint_analysis::l2::Blocking;
use netlint_analysis::stp::{BridgeInput, LinkInput, MstConfig, PortRef, TreeKind};
use netlint_analysis::{BridgeId, Failures, Forwarding};
use netlint_model::{HostId, NetworkId, StpMode};
use std::collections::BTreeMap;

/// A port that blocks traffic it should carry.
pub(crate) struct Problem {
    pub port: usize,
    pub blocking: Blocking,
    /// The VLANs that need the port (`None` = untagged).
    pub vlans: Vec<Option<u16>>,
    /// The bridges the affected hosts hang off, the preferred root first.
    pub host_bridges: Vec<BridgeId>,
    /// Host pairs that must reach each other after the fix.
    pub pairs: Vec<(NetworkId, HostId, HostId)>,
}

/// A change to the spanning-tree inputs.
enum Edit {
    /// Every STP bridge runs MSTP with `config`; `priorities` per bridge for
    /// `instance`.
    Mstp {
        instance: u16,
        config: MstConfig,
        priorities: Vec<(usize, u32)>,
    },
    /// A port cost: for every tree (`key = None`) or one key (MSTI, or VLAN
    /// for a PVST tree).
    Cost {
        port: usize,
        key: Option<u16>,
        cost: u32,
    },
    /// A bridge priority: the bridge's (`instance = None`) or one MSTI's.
    Priority {
        bridge: usize,
        instance: Option<u16>,
        priority: u32,
    },
}

impl Edit {
    /// The same change, as the help tells the user to make it in the design.
    fn change(&self, cx: &Context<'_>) -> Change {
        let topo = cx.topology();
        let members = |b: usize| topo.bridge(BridgeId(b)).members.clone();
        match self {
            Edit::Mstp {
                instance,
                config,
                priorities,
            } => {
                let mut instances: BTreeMap<u16, netlint_model::VlanSet> = BTreeMap::new();
                for (v, k) in &config.vlan_instance {
                    instances.entry(*k).or_default().insert(*v);
                }
                Change::Mstp {
                    name: config.name.clone(),
                    revision: config.revision,
                    instances,
                    priorities: priorities
                        .iter()
                        .flat_map(|&(b, p)| members(b).into_iter().map(move |s| (s, *instance, p)))
                        .collect(),
                }
            }
            Edit::Cost { port, key, cost } => Change::Cost {
                link: topo.ports[*port].link,
                key: *key,
                cost: *cost,
            },
            Edit::Priority {
                bridge,
                instance,
                priority,
            } => Change::Priority {
                switches: members(*bridge),
                instance: *instance,
                priority: *priority,
            },
        }
    }

    fn apply(&self, bridges: &mut [BridgeInput], links: &mut [LinkInput]) {
        match self {
            Edit::Mstp {
                instance,
                config,
                priorities,
            } => {
                for b in bridges.iter_mut().filter(|b| b.mode != StpMode::None) {
                    b.mode = StpMode::Mstp;
                    b.mst = Some(config.clone());
                }
                for &(b, p) in priorities {
                    bridges[b].instance_priority.insert(*instance, p);
                }
            }
            Edit::Cost { port, key, cost } => {
                let l = &mut links[*port];
                match key {
                    None => {
                        l.instance_cost.clear();
                        l.cost = Some(*cost);
                    }
                    Some(k) => {
                        l.instance_cost.insert(*k, *cost);
                    }
                }
            }
            Edit::Priority {
                bridge,
                instance,
                priority,
            } => match instance {
                // `priority` sets the VLANs without a `vlan_priority` entry.
                None => bridges[*bridge].priority = *priority,
                Some(k) => {
                    bridges[*bridge].instance_priority.insert(*k, *priority);
                }
            },
        }
    }
}

/// The smallest number of at most two significant digits that is at least `x`.
pub(crate) fn round_up(x: u64) -> u64 {
    let mag = magnitude(x);
    x.div_ceil(mag) * mag
}

/// The largest number of at most two significant digits that is at most `x`.
pub(crate) fn round_down(x: u64) -> u64 {
    let mag = magnitude(x);
    (x / mag * mag).max(1)
}

fn magnitude(x: u64) -> u64 {
    let digits = x.max(1).ilog10() + 1;
    10u64.pow(digits.saturating_sub(2))
}

/// Whether the change works: `must` holds on the new forwarding, and no
/// host pair that reaches today is cut. Host attachments do not change, so
/// the second holds when every two bridges that one VLAN joins today it
/// still joins: each VLAN's new components merge old ones, never split one.
fn works(
    cx: &Context<'_>,
    edit: &Edit,
    must: &dyn Fn(&Forwarding) -> bool,
    budget: &Budget,
) -> bool {
    let fabric = cx.fabric().what_if(cx.design, |b, l| {
        edit.apply(b.as_mut_slice(), l.as_mut_slice())
    });
    let f = fabric.forwarding(cx.design, cx.topology(), &Failures::default());
    if !must(&f) {
        return false;
    }
    if !components_only_merge(cx, &f) {
        return false;
    }
    // The design with the change: no new spanning-tree finding.
    budget.take_design() && verify::check(cx, &[edit.change(cx)], &|_| true)
}

/// Every two bridges one VLAN joins today it still joins in `f`.
fn components_only_merge(cx: &Context<'_>, f: &Forwarding) -> bool {
    let old = cx.forwarding();
    let mut vlans: Vec<Option<u16>> = cx.design.networks.iter().map(|n| n.vlan_id()).collect();
    vlans.sort();
    vlans.dedup();
    vlans.into_iter().all(|v| {
        let (Some(a), Some(b)) = (old.vlan(v), f.vlan(v)) else {
            return true;
        };
        let mut image: BTreeMap<usize, usize> = BTreeMap::new();
        a.component
            .iter()
            .zip(&b.component)
            .all(|(x, y)| *image.entry(*x).or_insert(*y) == *y)
    })
}

/// The port forwards every VLAN of the problem, and its host pairs reach.
fn solved(cx: &Context<'_>, pb: &Problem, f: &Forwarding) -> bool {
    pb.vlans.iter().all(|v| {
        f.vlan(*v)
            .is_some_and(|view| view.forwarding.get(pb.port).copied().unwrap_or(false))
    }) && pb
        .pairs
        .iter()
        .all(|&(n, a, b)| f.reach(cx.design, cx.topology(), n, a, b).broken.is_none())
}

/// `stp_cost = 12000` or `stp_cost = { 1 = 12000 }`.
fn cost_setting(key: Option<u16>, cost: u32) -> String {
    match key {
        None => format!("`stp_cost = {cost}`"),
        Some(k) => format!("`stp_cost = {{ {k} = {cost} }}`"),
    }
}

/// The key a port cost override for `tree` is written under: none for a
/// single-tree network, the instance for MSTP, the VLAN for a PVST tree.
fn cost_key(cx: &Context<'_>, tree: usize) -> Option<u16> {
    let fwd = cx.forwarding();
    match fwd.stp.tree(tree).map(|t| t.kind) {
        Some(TreeKind::Msti { instance, .. }) => Some(instance),
        Some(TreeKind::PvstVlan(v)) => Some(v),
        _ => {
            let mstp = cx
                .fabric()
                .engine()
                .bridges()
                .iter()
                .any(|b| b.mode == StpMode::Mstp);
            mstp.then_some(0)
        }
    }
}

/// How many spanning-tree recomputations one rule may spend on checking
/// fixes in one design: a design with dozens of blocked links gets checked
/// fixes for its first findings, and the rest say so, instead of a check
/// that takes minutes. Findings come in a fixed order, so the output stays
/// deterministic.
pub(crate) struct Budget {
    engine: std::cell::Cell<usize>,
    /// Checks on a copy of the design (every spanning-tree rule run again),
    /// dearer than a recomputation of the tree alone.
    design: std::cell::Cell<usize>,
    /// The design checks were cut for the design's size.
    large: bool,
}

/// Host-checks one rule may spend on design checks: 24 checks of a
/// 64-host design, one of a 1,536-host design.
const DESIGN_CHECK_HOSTS: usize = 24 * 64;

impl Budget {
    /// Enough for the first 16 findings with three candidates each, and a
    /// design check for the first 24 candidates that pass. A design check
    /// costs time in proportion to the hosts (every spanning-tree rule runs
    /// again on the copy, host pairs included), so a design of more than
    /// [`DESIGN_CHECK_HOSTS`] / 24 hosts gets fewer, and one of more than
    /// [`DESIGN_CHECK_HOSTS`] hosts none: its help says the fixes were not
    /// checked, and why, instead of a check that doubles its run time.
    pub fn new(cx: &Context<'_>) -> Self {
        let hosts = cx.design.hosts.len().max(1);
        let design = (DESIGN_CHECK_HOSTS / hosts).min(24);
        Budget {
            engine: std::cell::Cell::new(48),
            design: std::cell::Cell::new(design),
            large: design < 24,
        }
    }
    /// The help's sentence when fixes were not checked.
    pub(crate) fn unchecked(&self) -> &'static str {
        if self.large {
            UNCHECKED_LARGE
        } else {
            UNCHECKED
        }
    }
    fn take(&self) -> bool {
        take(&self.engine)
    }
    pub(crate) fn take_design(&self) -> bool {
        take(&self.design)
    }
    /// Whether a design check is left (a fix found when none is left could
    /// not be checked).
    pub(crate) fn design_left(&self) -> bool {
        self.design.get() > 0
    }
}

fn take(cell: &std::cell::Cell<usize>) -> bool {
    let left = cell.get();
    if left == 0 {
        return false;
    }
    cell.set(left - 1);
    true
}

/// Every fix that works, in words and as the change to the design, best
/// first; `None` when the budget ran out before they could all be checked.
pub(crate) fn suggestions(
    cx: &Context<'_>,
    pb: &Problem,
    budget: &Budget,
) -> Option<Vec<(String, Change)>> {
    let mut out = Vec::new();
    if cx.is_fix_check() {
        // A copy of a design with a fix applied: only its findings count.
        return Some(out);
    }
    let must = |f: &Forwarding| solved(cx, pb, f);
    for (text, edit) in candidates(cx, pb) {
        if !budget.take() {
            return None;
        }
        if works(cx, &edit, &must, budget) {
            out.push((text, edit.change(cx)));
        } else if !budget.design_left() {
            return None;
        }
    }
    Some(out)
}

/// The first of the checked `suggestions` that is a definite edit of the
/// design, as a fix that needs judgement (the others would do too).
pub(crate) fn first_fix(
    cx: &Context<'_>,
    checked: &[(String, Change)],
) -> Option<netlint_model::Fix> {
    checked
        .iter()
        .find_map(|(text, change)| verify::as_fix(cx.design, text, std::slice::from_ref(change)))
}

/// The help's sentence when fixes were not checked for their number.
const UNCHECKED: &str = "this design has too many such findings to check a fix for each: fix the first ones reported (their fixes are checked) and run netlint again";

/// The help's sentence when fixes were not checked for the design's size.
const UNCHECKED_LARGE: &str = "this design has too many hosts to check each fix on a copy of it within a lint run's time (every spanning-tree rule, host pairs included, run again per fix): apply one fix and run netlint again to see that it removes this finding and adds none";

fn candidates(cx: &Context<'_>, pb: &Problem) -> Vec<(String, Edit)> {
    let design = cx.design;
    let topo = cx.topology();
    let fwd = cx.forwarding();
    let stp = &fwd.stp;
    let tree = pb.blocking.tree;
    let mut out = Vec::new();

    // An MSTP instance of their own, rooted at the hosts' switches.
    let kind = stp.tree(tree).map(|t| t.kind);
    let tagged: Vec<u16> = pb.vlans.iter().flatten().copied().collect();
    if kind == Some(TreeKind::Cist) && tagged.len() == pb.vlans.len() && !tagged.is_empty() {
        if let Some(c) = mstp_candidate(cx, pb, &tagged) {
            out.push(c);
        }
    }

    // Port costs, from the blocked end's comparison.
    let port_ref = PortRef::new(pb.port, pb.blocking.end);
    if let Some(ex) = stp.explain_port(tree, port_ref) {
        let key = cost_key(cx, tree);
        let here = super::port_name(design, topo, pb.port);
        let owner = super::bridge_name(design, topo, pb.blocking.bridge);
        if ex.role == netlint_analysis::stp::PortRole::Alternate {
            // Cheaper here: a root path through this port beats the current one.
            if ex.root_path_cost > ex.offered_cost + 1 {
                let cost = round_down(ex.root_path_cost - ex.offered_cost - 1) as u32;
                out.push((
                    format!(
                        "lower the cost of {here}: {} (below {}), so that it becomes the root port of {owner}",
                        cost_setting(key, cost),
                        ex.root_path_cost - ex.offered_cost
                    ),
                    Edit::Cost {
                        port: pb.port,
                        key,
                        cost,
                    },
                ));
            }
            // Dearer there: the current root port loses to this one.
            if let Some(rp) = ex.root_port {
                let rp_cost = stp
                    .tree(tree)
                    .and_then(|t| t.port(rp))
                    .map(|s| u64::from(s.cost));
                if let Some(rp_cost) = rp_cost.filter(|_| rp.link != pb.port) {
                    let offered = ex.root_path_cost.saturating_sub(rp_cost);
                    let need = ex.cost_through_port.saturating_sub(offered) + 1;
                    let cost = round_up(need);
                    if cost <= u64::from(netlint_analysis::stp::MAX_LONG_COST) {
                        out.push((
                            format!(
                                "raise the cost of {}: {} (more than {}), so that {owner} reaches the root through {here} instead",
                                super::port_name(design, topo, rp.link),
                                cost_setting(key, cost as u32),
                                need - 1
                            ),
                            Edit::Cost {
                                port: rp.link,
                                key,
                                cost: cost as u32,
                            },
                        ));
                    }
                }
            }
        }
    }

    // A root at the hosts' first switch.
    if let (Some(&hb), Some(t)) = (pb.host_bridges.first(), stp.tree(tree)) {
        let instance = tree_instance(fwd, tree);
        if let Some(info) = t.root_info_of(pb.blocking.bridge.0) {
            if info.root != hb.0 && info.priority >= 4096 {
                let priority = info.priority - 4096;
                let setting = match instance {
                    Some(k) => format!("`instance_priority = {{ {k} = {priority} }}`"),
                    None => format!("`priority = {priority}`"),
                };
                out.push((
                    format!(
                        "make {} the root of this tree: {setting} on {} (the root {} has {})",
                        super::bridge_name(design, topo, hb),
                        members_phrase(design, topo, hb),
                        stp.bridge_name(info.root),
                        info.priority
                    ),
                    Edit::Priority {
                        bridge: hb.0,
                        instance,
                        priority,
                    },
                ));
            }
        }
    }
    out
}

fn mstp_candidate(cx: &Context<'_>, pb: &Problem, vlans: &[u16]) -> Option<(String, Edit)> {
    let design = cx.design;
    let topo = cx.topology();
    let bridges = cx.fabric().engine().bridges();
    let stp_bridges: Vec<usize> = (0..bridges.len())
        .filter(|&b| bridges[b].mode != StpMode::None)
        .collect();
    let first_mstp = stp_bridges
        .iter()
        .find(|&&b| bridges[b].mode == StpMode::Mstp)
        .map(|&b| bridges[b].mst.clone().unwrap_or_default());
    let all_one_region = stp_bridges
        .iter()
        .all(|&b| bridges[b].mode == StpMode::Mstp && bridges[b].mst == first_mstp);
    let mut config = first_mstp.clone().unwrap_or_else(|| MstConfig {
        name: design.name.value.clone(),
        revision: 1,
        vlan_instance: Default::default(),
    });
    let instance = config
        .vlan_instance
        .values()
        .copied()
        .max()
        .unwrap_or(0)
        .saturating_add(1);
    for &v in vlans {
        config.vlan_instance.insert(v, instance);
    }
    let roots: Vec<BridgeId> = pb.host_bridges.iter().copied().take(2).collect();
    let mut priorities: Vec<(usize, u32)> = Vec::new();
    let mut parts: Vec<String> = Vec::new();
    for (i, b) in roots.iter().enumerate() {
        let p = 4096 * (i as u32 + 1);
        priorities.push((b.0, p));
        parts.push(format!(
            "`instance_priority = {{ {instance} = {p} }}` on {}",
            members_phrase(design, topo, *b)
        ));
    }
    // Bridges whose own priority would compete for the new instance's root.
    let mut others = Vec::new();
    for &b in &stp_bridges {
        if roots.iter().any(|r| r.0 == b) {
            continue;
        }
        if priority_of(design, topo, BridgeId(b), None) <= 4096 * roots.len() as u32 {
            priorities.push((b, 61440));
            others.push(members_phrase(design, topo, BridgeId(b)));
        }
    }
    if !others.is_empty() {
        parts.push(format!(
            "`instance_priority = {{ {instance} = 61440 }}` on {}",
            and_list(&others)
        ));
    }
    let vlan_list: Vec<String> = vlans.iter().map(|v| v.to_string()).collect();
    let head = if all_one_region {
        format!(
            "give {} an MSTP instance of their own rooted at the switches the hosts hang off: add `{instance} = [{}]` to `instances` on every switch of region `{}`",
            super::vlans_text(&vlans.iter().map(|v| Some(*v)).collect::<Vec<_>>()),
            vlan_list.join(", "),
            config.name
        )
    } else {
        format!(
            "run MSTP with {} in an instance of their own rooted at the switches the hosts hang off: `mode = \"mstp\"`, `region = \"{}\"`, `revision = {}` and `instances = {{ {instance} = [{}] }}` (the same on every switch)",
            super::vlans_text(&vlans.iter().map(|v| Some(*v)).collect::<Vec<_>>()),
            config.name,
            config.revision,
            vlan_list.join(", ")
        )
    };
    let text = format!("{head}, with {}", and_list(&parts));
    Some((
        text,
        Edit::Mstp {
            instance,
            config,
            priorities,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_keeps_two_significant_digits() {
        assert_eq!(round_up(11001), 12000);
        assert_eq!(round_up(11000), 11000);
        assert_eq!(round_up(7), 7);
        assert_eq!(round_up(101), 110);
        assert_eq!(round_down(8999), 8900);
        assert_eq!(round_down(0), 1);
        assert_eq!(round_down(45), 45);
    }
}
