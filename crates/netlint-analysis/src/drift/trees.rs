//! Whether the design and the network as built make the same spanning
//! trees: for every VLAN both sides compute, the same links forwarding and
//! the same root, in the healthy state and after each single switch failure or failure of
//! a link between bridges (every cable of it). A spanning-tree setting that differs (a mode
//! the vendor does not have, written as its equivalent; a priority that
//! no election turns on) while every tree stays the design's changes
//! nothing the design was reviewed for.

use super::Matching;
use crate::l2::{ports::view_vlans, Fabric, Failures, Forwarding};
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
    let side = |x: &Design| {
        let topo = Topology::build(x);
        let fabric = Fabric::new(x, &topo);
        (topo, fabric)
    };
    let (dt, df) = side(design);
    let (bt, bf) = side(built);
    let mut states = vec![TreeState::Healthy];
    states.extend((0..design.switches.len()).map(|i| TreeState::SwitchDown(SwitchId(i))));
    states.extend(
        dt.ports
            .iter()
            .map(|p| TreeState::LinkDown(p.link))
            .collect::<BTreeSet<_>>(),
    );
    let every_failure = states.len() <= MAX_STATES;
    states.truncate(MAX_STATES);
    let to_design_link = |l: LinkId| matching.links.design(l);
    let to_design_switch = |s: SwitchId| matching.switches.design(s);
    for (n, state) in states.iter().enumerate() {
        let (fd, fb) = failures(design, built, matching, *state);
        // A stack or MLAG member down: the bridge goes on with the
        // priorities of the members left (the engine keeps the best of
        // all members, as the healthy bridge presents).
        let survivors = |x: &Design, topo: &Topology, s: Option<SwitchId>| {
            let s = s?;
            let members = &topo.bridges[topo.bridge_of[s.0].0].members;
            let other = *members.iter().find(|m| **m != s)?;
            let mut y = x.clone();
            y.switches[s.0].stp = x.switches[other.0].stp.clone();
            let t = Topology::build(&y);
            let f = Fabric::new(&y, &t);
            Some((y, t, f))
        };
        let down = match *state {
            TreeState::SwitchDown(s) => Some(s),
            _ => None,
        };
        let sd = survivors(design, &dt, down);
        let sb = survivors(built, &bt, down.and_then(|s| matching.switches.built(s)));
        let a = match &sd {
            Some((y, t, f)) => trees(y, t, &f.forwarding(y, t, &fd), &Some, &Some),
            None => trees(design, &dt, &df.forwarding(design, &dt, &fd), &Some, &Some),
        };
        let b = match &sb {
            Some((y, t, f)) => trees(
                y,
                t,
                &f.forwarding(y, t, &fb),
                &to_design_link,
                &to_design_switch,
            ),
            None => trees(
                built,
                &bt,
                &bf.forwarding(built, &bt, &fb),
                &to_design_link,
                &to_design_switch,
            ),
        };
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
        let mut roots = vec![BTreeSet::new(); x.switches.len()];
        for (s, slot) in roots.iter_mut().enumerate() {
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
        let mut by_design = vec![BTreeSet::new(); roots.len()];
        for (s, r) in roots.into_iter().enumerate() {
            let d = switch(SwitchId(s))?;
            if let Some(slot) = by_design.get_mut(d.0) {
                *slot = r;
            }
        }
        out.insert(vlan, (forwarding, by_design));
    }
    Some(out)
}
