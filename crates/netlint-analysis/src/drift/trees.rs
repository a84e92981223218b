//! Whether the design and the network as built make the same spanning
//! trees: for every VLAN both sides compute, the same root and the same
//! links forwarding in the healthy state, and the same links forwarding
//! after each single switch failure or failure of a link between bridges
//! (every cable of it), the roots of either side's healthy trees first. A
//! spanning-tree setting that differs (a mode the vendor does not have,
//! written as its equivalent; a priority that no election turns on) while
//! every tree stays the design's changes nothing the design was reviewed
//! for. Failures are updated from the healthy solution
//! ([`ScenarioForwarding`]), as the failure analysis does.

use super::Matching;
use crate::l2::{
    bridge_input, ports::view_vlans, Fabric, Failures, Forwarding, ScenarioForwarding,
};
use crate::topology::Topology;
use netlint_model::{Design, LinkId, SwitchId};
use std::collections::{BTreeMap, BTreeSet};

/// A state both sides are compared in (design ids).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TreeState {
    Healthy,
    SwitchDown(SwitchId),
    LinkDown(LinkId),
}

/// Where the trees first differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreesDiffer {
    pub state: TreeState,
    /// `None`: untagged frames; also a VLAN one side computes and the
    /// other does not, or an element one side has that the other lacks
    /// (then `vlan` is `None` and the state is the first compared).
    pub vlan: Option<u16>,
}

/// The comparison's outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreesCompared {
    /// The states compared: the healthy one, then each failure, up to
    /// [`MAX_STATES`].
    pub states: usize,
    /// Every single switch and inter-switch link failure was compared
    /// (false: the fabric has more than [`MAX_STATES`] of them, and only
    /// the first were).
    pub every_failure: bool,
    pub differs: Option<TreesDiffer>,
}

/// The most states compared (each a spanning-tree solution per side).
pub const MAX_STATES: usize = 256;

/// Per VLAN: the links forwarding (design link, cable) and, per switch,
/// the switches of its tree's root bridge (design ids).
type Trees = BTreeMap<Option<u16>, (BTreeSet<(LinkId, Option<u32>)>, Vec<BTreeSet<SwitchId>>)>;

/// Compares the trees of `design` and `built` (paired by `matching`).
pub fn compare_trees(design: &Design, built: &Design, matching: &Matching) -> TreesCompared {
    let incomparable = TreesCompared {
        states: 1,
        every_failure: false,
        differs: Some(TreesDiffer {
            state: TreeState::Healthy,
            vlan: None,
        }),
    };
    // Every switch and every inter-switch link paired: otherwise a
    // missing or extra element is its own difference, and the trees are
    // not the same.
    let all_switches = (0..design.switches.len())
        .all(|i| matching.switches.built(SwitchId(i)).is_some())
        && (0..built.switches.len()).all(|i| matching.switches.design(SwitchId(i)).is_some());
    // A stacking cable the as-built configs cannot show (a Catalyst
    // stack's) is no spanning-tree port on either side: the stack is one
    // bridge both ways.
    let all_links = (0..design.links.len()).all(|i| {
        matching.links.built(LinkId(i)).is_some()
            || super::fabric::stacking_cable_not_in_configs(built, matching, design.link(LinkId(i)))
    }) && (0..built.links.len())
        .all(|i| matching.links.design(LinkId(i)).is_some());
    if !all_switches || !all_links {
        return incomparable;
    }
    let d = Side::new(design);
    let b = Side::new(built);
    // The healthy state, then each switch down, then each link between
    // bridges: the roots of either side's healthy trees and their links
    // first, as the failures most likely to show a difference when the
    // comparison stops at [`MAX_STATES`].
    let roots: BTreeSet<SwitchId> = d
        .root_switches()
        .into_iter()
        .chain(
            b.root_switches()
                .into_iter()
                .filter_map(|s| matching.switches.design(s)),
        )
        .collect();
    let mut switches: Vec<SwitchId> = (0..design.switches.len()).map(SwitchId).collect();
    switches.sort_by_key(|s| !roots.contains(s));
    let mut links: Vec<LinkId> = d
        .topo
        .ports
        .iter()
        .map(|p| p.link)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    links.sort_by_key(|l| !design.link(*l).ends().any(|s| roots.contains(&s)));
    let mut states = vec![TreeState::Healthy];
    states.extend(switches.into_iter().map(TreeState::SwitchDown));
    states.extend(links.into_iter().map(TreeState::LinkDown));
    let every_failure = states.len() <= MAX_STATES;
    states.truncate(MAX_STATES);
    let to_design_link = |l: LinkId| matching.links.design(l);
    let to_design_switch = |s: SwitchId| matching.switches.design(s);
    for (n, state) in states.iter().enumerate() {
        let (fd, fb) = failures(design, built, matching, *state);
        let down = match *state {
            TreeState::SwitchDown(s) => Some(s),
            _ => None,
        };
        let healthy = *state == TreeState::Healthy;
        let a = d.trees(&fd, down, healthy, &Some, &Some);
        let b = b.trees(
            &fb,
            down.and_then(|s| matching.switches.built(s)),
            healthy,
            &to_design_link,
            &to_design_switch,
        );
        let (Some(a), Some(b)) = (a, b) else {
            return incomparable;
        };
        if let Some(vlan) = first_difference(&a, &b) {
            return TreesCompared {
                states: n + 1,
                every_failure,
                differs: Some(TreesDiffer {
                    state: *state,
                    vlan,
                }),
            };
        }
    }
    TreesCompared {
        states: states.len(),
        every_failure,
        differs: None,
    }
}

/// One side, prepared once: its topology, fabric, healthy forwarding and
/// the updates of a failure from it.
struct Side<'a> {
    x: &'a Design,
    topo: Topology,
    fabric: Fabric,
    healthy: Forwarding,
    scenarios: ScenarioForwarding,
}

impl<'a> Side<'a> {
    fn new(x: &'a Design) -> Side<'a> {
        let topo = Topology::build(x);
        let fabric = Fabric::new(x, &topo);
        let healthy = fabric.forwarding(x, &topo, &Failures::default());
        let scenarios = ScenarioForwarding::new(x, &topo, &fabric, &healthy);
        Side {
            x,
            topo,
            fabric,
            healthy,
            scenarios,
        }
    }

    /// The member switches of the roots of the healthy trees.
    fn root_switches(&self) -> Vec<SwitchId> {
        let mut out = Vec::new();
        for t in self.healthy.stp.trees() {
            for r in &t.roots {
                out.extend(self.topo.bridges[r.root].members.iter().copied());
            }
        }
        out
    }

    /// The trees under `failures` (`down`: the switch they take down, whose
    /// bridge then presents the priorities of the members left).
    fn trees(
        &self,
        failures: &Failures,
        down: Option<SwitchId>,
        roots: bool,
        link: &dyn Fn(LinkId) -> Option<LinkId>,
        switch: &dyn Fn(SwitchId) -> Option<SwitchId>,
    ) -> Option<Trees> {
        if let Some(y) = down.and_then(|s| survivors(self.x, &self.topo, s)) {
            let topo = Topology::build(&y);
            let fabric = Fabric::new(&y, &topo);
            let fwd = fabric.forwarding(&y, &topo, failures);
            return trees(&y, &topo, &fwd, roots, link, switch);
        }
        let fwd = if failures.is_healthy() {
            self.healthy.clone()
        } else {
            self.scenarios
                .forwarding(self.x, &self.topo, &self.fabric, &self.healthy, failures)
        };
        trees(self.x, &self.topo, &fwd, roots, link, switch)
    }
}

/// `x` with stack or MLAG member `s` configured as another member of its
/// bridge, where the bridge then presents other spanning-tree settings
/// (the engine keeps the best of all members, as the healthy bridge
/// presents: [`bridge_input`]): `None` when `s` is alone, or its going
/// changes nothing the bridge presents.
fn survivors(x: &Design, topo: &Topology, s: SwitchId) -> Option<Design> {
    let members = &topo.bridges[topo.bridge_of[s.0].0].members;
    let other = *members.iter().find(|m| **m != s)?;
    let all: Vec<&netlint_model::Switch> = members.iter().map(|m| x.switch(*m)).collect();
    let left: Vec<&netlint_model::Switch> = members
        .iter()
        .filter(|m| **m != s)
        .map(|m| x.switch(*m))
        .collect();
    // The same identity either way (priorities per tree, MAC, mode).
    if bridge_input(String::new(), &all) == bridge_input(String::new(), &left) {
        return None;
    }
    let mut y = x.clone();
    y.switches[s.0].stp = x.switches[other.0].stp.clone();
    Some(y)
}

/// The failures of one state on each side.
fn failures(
    design: &Design,
    built: &Design,
    matching: &Matching,
    state: TreeState,
) -> (Failures, Failures) {
    let mut fd = Failures::default();
    let mut fb = Failures::default();
    match state {
        TreeState::Healthy => {}
        TreeState::SwitchDown(s) => {
            fd.switches.insert(s);
            if let Some(b) = matching.switches.built(s) {
                fb.switches.insert(b);
            }
        }
        TreeState::LinkDown(l) => {
            fd.cables
                .extend((0..design.link(l).members.value.max(1)).map(|c| (l, c)));
            if let Some(b) = matching.links.built(l) {
                fb.cables
                    .extend((0..built.link(b).members.value.max(1)).map(|c| (b, c)));
            }
        }
    }
    (fd, fb)
}

/// The first VLAN whose trees differ (`Some(None)`: untagged, or the two
/// compute different VLANs); `None` when every tree is the same.
fn first_difference(a: &Trees, b: &Trees) -> Option<Option<u16>> {
    for (vlan, x) in a {
        match b.get(vlan) {
            Some(y) if y == x => {}
            Some(_) => return Some(*vlan),
            // A VLAN the as-built does not compute is another
            // difference's (a VLAN not defined), not the trees'.
            None => {}
        }
    }
    None
}

/// One side's trees in design ids; `None` when an element has no design
/// counterpart.
fn trees(
    x: &Design,
    topo: &Topology,
    fwd: &Forwarding,
    roots: bool,
    link: &dyn Fn(LinkId) -> Option<LinkId>,
    switch: &dyn Fn(SwitchId) -> Option<SwitchId>,
) -> Option<Trees> {
    let mut out = Trees::new();
    for vlan in view_vlans(x) {
        let Some(view) = fwd.vlan(vlan) else {
            continue;
        };
        let mut forwarding = BTreeSet::new();
        for (i, p) in topo.ports.iter().enumerate() {
            if view.forwarding.get(i).copied().unwrap_or(false) {
                forwarding.insert((link(p.link)?, p.cable));
            }
        }
        // The roots in the healthy state, which is solved in full; a
        // failure's trees are compared by their forwarding links (an
        // updated scenario keeps the healthy solution's roots).
        let mut by_switch = vec![BTreeSet::new(); if roots { x.switches.len() } else { 0 }];
        for (s, slot) in by_switch.iter_mut().enumerate() {
            let bridge = topo.bridge_of[s].0;
            let root = fwd
                .tree_of(crate::BridgeId(bridge), vlan)
                .and_then(|t| fwd.stp.tree(t))
                .and_then(|t| t.root_of(bridge));
            if let Some(r) = root {
                for m in &topo.bridges[r].members {
                    slot.insert(switch(*m)?);
                }
            }
        }
        // Indexed by design switch.
        let mut by_design = vec![BTreeSet::new(); by_switch.len()];
        for (s, r) in by_switch.into_iter().enumerate() {
            let d = switch(SwitchId(s))?;
            if let Some(slot) = by_design.get_mut(d.0) {
                *slot = r;
            }
        }
        out.insert(vlan, (forwarding, by_design));
    }
    Some(out)
}
