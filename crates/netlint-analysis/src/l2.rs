//! Layer-2 forwarding: the spanning tree of the design's bridges (built from
//! the [`Topology`]), which ports forward each VLAN, and reachability of
//! each network between the hosts of one cluster, in the healthy state or
//! with a set of [`Failures`].
//!
//! A [`Fabric`] is prepared once per design (the spanning-tree engine with
//! its bridges and ports); [`Fabric::forwarding`] solves one scenario into a
//! [`Forwarding`], which answers per-VLAN and per-host-pair questions.

use crate::fast_hash::Map as HashMap;
use crate::stp::{BridgeInput, LinkInput, MstConfig, Scenario, StpEngine, StpResult, TreeId};
use crate::topology::{BridgeId, Carrier, NicEnd, Topology};
use netlint_model::{Design, HostId, LinkId, Mtu, NetworkId, NicIdx, Speed, SwitchId};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// What is broken in a scenario (empty = healthy).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Failures {
    /// Switches that are down (a stack or MLAG member, or a whole switch).
    pub switches: BTreeSet<SwitchId>,
    /// Inter-switch cables that are down: (link, cable index 0-based).
    pub cables: BTreeSet<(LinkId, u32)>,
    /// Host NICs that are down (a NIC port, its cable, or its card).
    pub nics: BTreeSet<(HostId, NicIdx)>,
    /// Switches of a split MLAG domain or stack that suspended their
    /// multi-chassis LAG member ports (the vPC secondary once its
    /// peer-link is down with the keepalive up; the parts of a split stack
    /// that do not keep the cross-stack LAGs): their cables in a LAG that
    /// spans several switches of their domain are down, their other ports
    /// (orphan ports) stay up. The host NICs in such LAGs are listed in
    /// `nics` as well. See [`crate::failure::Unit::Split`].
    pub suspended: BTreeSet<SwitchId>,
}

impl Failures {
    pub fn is_healthy(&self) -> bool {
        self.switches.is_empty()
            && self.cables.is_empty()
            && self.nics.is_empty()
            && self.suspended.is_empty()
    }
    /// Only host NICs fail: the switches and their spanning tree are as healthy.
    pub fn is_host_local(&self) -> bool {
        self.switches.is_empty() && self.cables.is_empty() && self.suspended.is_empty()
    }
    /// Whether switch `s`, at a LAG end of switches `end`, still has its
    /// cables in the LAG: not down, and not a switch that suspended its
    /// multi-chassis LAG ports while another switch of the end that did
    /// not is up (a LAG whose switches are all in one split-off part runs
    /// on in that part).
    pub fn lag_end_up(&self, s: SwitchId, end: &[SwitchId]) -> bool {
        !self.switches.contains(&s)
            && (!self.suspended.contains(&s)
                || !end
                    .iter()
                    .any(|x| !self.suspended.contains(x) && !self.switches.contains(x)))
    }
    /// Whether the failures reach inside a stack or MLAG domain: a cable of
    /// a link between its members (a stacking cable, a peer-link) or a
    /// switch that suspended its multi-chassis LAG ports. Such a scenario
    /// may split the domain and is solved in full.
    pub fn inside_domains(&self, topo: &Topology) -> bool {
        !self.suspended.is_empty()
            || self
                .cables
                .iter()
                .any(|(l, _)| topo.internal_links.contains(l))
    }
}

/// The design's bridged network, prepared once.
pub struct Fabric {
    engine: StpEngine,
}

/// How a port fares in a scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortState {
    pub up: bool,
    /// Cables still working in the port.
    pub members: u32,
}

impl Fabric {
    pub fn new(design: &Design, topo: &Topology) -> Fabric {
        let bridges = topo
            .bridges
            .iter()
            .map(|b| {
                let members: Vec<_> = b.members.iter().map(|s| design.switch(*s)).collect();
                bridge_input(b.name.clone(), &members)
            })
            .collect();
        let links = topo
            .ports
            .iter()
            .map(|p| {
                let link = design.link(p.link);
                let name = match p.cable {
                    Some(c) => format!("{}#{}", link.name, c + 1),
                    None => link.name.clone(),
                };
                let mut input =
                    LinkInput::new(name, p.a.0, p.b.0, crate::speeds::stp_mbps(p.speed()));
                if let Some(cost) = &link.stp_cost {
                    match &cost.value {
                        netlint_model::StpCost::All(c) => input.cost = Some(*c),
                        netlint_model::StpCost::PerInstance(m) => input.instance_cost = m.clone(),
                    }
                }
                input.vlans = link.vlans.as_ref().map(|v| v.value);
                input
            })
            .collect();
        let engine = StpEngine::new(bridges, links).with_vlans(ports::stp_vlans(design));
        Fabric { engine }
    }

    pub fn engine(&self) -> &StpEngine {
        &self.engine
    }

    /// The state of every port under `failures`.
    pub fn port_states(
        &self,
        design: &Design,
        topo: &Topology,
        failures: &Failures,
    ) -> Vec<PortState> {
        (0..topo.ports.len())
            .map(|i| self.port_state(design, topo, i, failures))
            .collect()
    }

    /// The state of one port (index into `Topology::ports`) under
    /// `failures`: the failure analysis asks only about the ports a failure
    /// touches.
    pub fn port_state(
        &self,
        design: &Design,
        topo: &Topology,
        port: usize,
        failures: &Failures,
    ) -> PortState {
        let _ = design;
        let p = &topo.ports[port];
        // Cables of a multi-chassis LAG are spread evenly over its switches
        // (over every pair of an `a` and a `b` switch when both ends are
        // several): the cables left are those between live switches.
        let up =
            |ss: &[SwitchId]| ss.iter().filter(|s| failures.lag_end_up(**s, ss)).count() as u32;
        let (a_up, b_up) = (up(&p.a_switches), up(&p.b_switches));
        let ends = p.a_switches.len() as u32 * p.b_switches.len() as u32;
        let mut members = p.members * a_up * b_up / ends;
        match p.cable {
            Some(c) => {
                if failures.cables.contains(&(p.link, c)) {
                    members = 0;
                }
            }
            None => {
                let lost = failures
                    .cables
                    .range((p.link, 0)..=(p.link, u32::MAX))
                    .count() as u32;
                members = members.saturating_sub(lost);
            }
        }
        PortState {
            up: members > 0,
            members,
        }
    }

    /// The spanning-tree scenario of `failures`: the bridges whose every
    /// member failed (looked for among `bridges`), and the ports of
    /// `states` that are down or lost cables.
    fn scenario(
        topo: &Topology,
        failures: &Failures,
        bridges: impl IntoIterator<Item = usize>,
        states: impl IntoIterator<Item = (usize, PortState)>,
    ) -> Scenario {
        let mut scenario = Scenario::healthy();
        for i in bridges {
            if topo.bridges[i]
                .members
                .iter()
                .all(|s| failures.switches.contains(s))
            {
                scenario.removed_bridges.push(i);
            }
        }
        for (i, st) in states {
            let p = &topo.ports[i];
            if !st.up {
                scenario.removed_links.push(i);
            } else if st.members != p.members {
                scenario.link_speed_mbps.push((
                    i,
                    crate::speeds::stp_mbps(p.member_speed) * st.members as u64,
                ));
            }
        }
        scenario
    }

    /// Solves the spanning tree and forwarding for one scenario.
    pub fn forwarding(&self, design: &Design, topo: &Topology, failures: &Failures) -> Forwarding {
        let ports = self.port_states(design, topo, failures);
        let scenario = Self::scenario(
            topo,
            failures,
            0..topo.bridges.len(),
            ports.iter().copied().enumerate(),
        );
        let stp = self.engine.compute(&scenario);
        let vlans = ports::view_vlans(design);
        let mut adj: Vec<Vec<(usize, usize)>> = vec![Vec::new(); topo.bridges.len()];
        for (i, p) in topo.ports.iter().enumerate() {
            adj[p.a.0].push((p.b.0, i));
            adj[p.b.0].push((p.a.0, i));
        }
        let adj = std::sync::Arc::new(adj);
        let mut per_vlan = BTreeMap::new();
        for v in vlans {
            let view = VlanView::new(design, topo, &stp, &ports, failures, v, adj.clone());
            per_vlan.insert(v, std::sync::Arc::new(view));
        }
        Forwarding {
            stp: std::sync::Arc::new(stp),
            ports: std::sync::Arc::new(ports),
            failures: failures.clone(),
            per_vlan,
            up_tree: UpTree::default(),
        }
    }
}

/// The spanning-tree identity a bridge of these member switches presents
/// (design order; one for a plain switch): a stack or MLAG domain runs
/// one bridge identity, its members are configured alike, and the best
/// priority (and MAC) of any member is the one it presents.
pub fn bridge_input(name: String, members: &[&netlint_model::Switch]) -> BridgeInput {
    let first = members[0];
    let stp = &first.stp;
    let mut input = BridgeInput::new(name, stp.mode.value);
    input.priority = members
        .iter()
        .map(|m| m.stp.bridge_priority())
        .min()
        .unwrap_or(stp.bridge_priority());
    // Per instance too: the best of any member (as per VLAN).
    input.instance_priority = members
        .iter()
        .flat_map(|m| m.stp.instance_priority.keys())
        .map(|k| {
            let best = members.iter().map(|m| m.stp.instance_priority(*k)).min();
            (*k, best.unwrap_or(input.priority))
        })
        .collect();
    input.mac = members
        .iter()
        .filter_map(|m| m.stp.mac.as_ref().map(|x| x.value))
        .min();
    if stp.mode.value == netlint_model::StpMode::Mstp {
        let mut map = BTreeMap::new();
        if let Some(inst) = &stp.instances {
            for (i, set) in &inst.value {
                for v in set.iter() {
                    map.insert(v, *i);
                }
            }
        }
        input.mst = Some(MstConfig {
            name: stp
                .region
                .as_ref()
                .map(|r| r.value.clone())
                .unwrap_or_default(),
            revision: stp.revision.as_ref().map(|r| r.value).unwrap_or(0),
            vlan_instance: map,
        });
    }
    stp_input::apply(&mut input, members);
    input
}

/// Why a port does not carry a VLAN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotCarried {
    /// The port is down in this scenario.
    Down,
    /// The link's `vlans` does not allow it.
    NotAllowed,
    /// A switch at an end does not define it.
    NotDefined(SwitchId),
    /// A multi-chassis LAG whose member switches `from` and `to` are MLAG
    /// peers that no peer-link carrying the VLAN joins: NX-OS suspends the
    /// VLAN on such a vPC, other vendors black-hole the frames that arrive
    /// on the wrong peer. `link`: the peer-link between them, if any.
    PeerLink {
        from: SwitchId,
        to: SwitchId,
        link: Option<LinkId>,
    },
}

/// One VLAN (or untagged) across the fabric.
#[derive(Clone, Debug)]
pub struct VlanView {
    pub vlan: Option<u16>,
    /// Per port: why it does not carry the VLAN, or None when it does.
    pub not_carried: Vec<Option<NotCarried>>,
    /// Per port: carried and forwarding in the VLAN's spanning tree.
    pub forwarding: Vec<bool>,
    /// Per bridge: component id over forwarding ports.
    pub component: Vec<usize>,
    /// Per bridge: component id over carried ports, spanning tree ignored.
    pub carried_component: Vec<usize>,
    /// Where the VLAN splits an MLAG domain (its peer-links do not carry
    /// it): per switch, its group of peers ([`peer_groups`]) and the
    /// component of that group over forwarding ports. `None` when no
    /// domain is split: then a switch's component is its bridge's.
    pub peers: Option<Vec<usize>>,
    segment: Option<Vec<usize>>,
    /// Per bridge: (neighbour bridge, port) over every port, shared by the
    /// views of one scenario, so that a path search does not rebuild it.
    adj: std::sync::Arc<Vec<Vec<(usize, usize)>>>,
    /// The forwarding ports as a rooted forest (parent port and depth per
    /// bridge), built on first use; `None` when they close a loop (bridges
    /// without STP). Paths over the forwarding ports then climb the tree
    /// instead of searching the graph: reachability of every host pair of
    /// a large fabric asks for hundreds of thousands of them.
    forest: std::sync::OnceLock<Option<Forest>>,
    /// Why two bridges are cut apart on this VLAN, per (from, to) asked:
    /// explaining a cut searches the fabric, and every host pair across the
    /// same cut asks the same question.
    cuts: CutCache,
    /// For a view patched from another ([`VlanView::patched`]): the ports
    /// whose forwarding differs from that view's, sorted; `None` for a
    /// view computed in full.
    patched: Option<Vec<usize>>,
}

/// A memo of [`Forwarding::explain_cut`] answers for one view. Cloning a
/// view starts it afresh.
#[derive(Debug, Default)]
struct CutCache(std::sync::Mutex<HashMap<(BridgeId, BridgeId), Break>>);

impl Clone for CutCache {
    fn clone(&self) -> Self {
        CutCache::default()
    }
}

/// Why `port` (in state `st` under `failures`) does not carry `vlan`, or
/// `None` when it does.
fn not_carried(
    design: &Design,
    topo: &Topology,
    port: &crate::topology::Port,
    st: PortState,
    failures: &Failures,
    vlan: Option<u16>,
    peers: Option<&[usize]>,
) -> Option<NotCarried> {
    if !st.up {
        return Some(NotCarried::Down);
    }
    if !design.link(port.link).allows_vlan(vlan) {
        return Some(NotCarried::NotAllowed);
    }
    for s in port.switches() {
        if !failures.switches.contains(&s) && !design.switch(s).defines_vlan(vlan) {
            return Some(NotCarried::NotDefined(s));
        }
    }
    // A multi-chassis LAG over peers the VLAN does not join, at either end.
    let peers = peers?;
    [&port.a_switches, &port.b_switches]
        .into_iter()
        .find_map(|end| {
            let mut alive = end.iter().copied().filter(|s| failures.lag_end_up(*s, end));
            let first = alive.next()?;
            let other = alive.find(|s| peers[s.0] != peers[first.0])?;
            Some(NotCarried::PeerLink {
                from: first,
                to: other,
                link: peer_link_between(design, topo, first, other),
            })
        })
}

/// The peers of the MLAG domains that reach each other for `vlan` under
/// `failures`, over peer-links (and other links inside the domain) that
/// allow the VLAN and have a cable left: per switch, the least switch index
/// of its group. `None` when no domain is split, which is the case whenever
/// the peer-links carry every VLAN and none has lost all its cables. A
/// switch outside a split domain is in its bridge's group (labelled by the
/// bridge's first switch); a failed peer, or one that does not define the
/// VLAN, is alone. A domain that declares no link between its peers is
/// taken to have a peer-link carrying everything (the design does not
/// describe it). A stack or MLAG domain whose internal links lost every
/// cable of one ([`broken_domains`]) is split here too: the vPC secondary
/// on one side of a failed peer-link, the parts of a split chain stack
/// ([`crate::failure::Unit::Split`]).
pub fn peer_groups(
    design: &Design,
    topo: &Topology,
    failures: &Failures,
    vlan: Option<u16>,
) -> Option<Vec<usize>> {
    let broken = broken_domains(design, topo, failures);
    let least = peers_split_from(design, topo, vlan);
    if least.is_none() && broken.is_empty() {
        return None;
    }
    let splittable = topo
        .splittable_domains
        .iter()
        .filter(|_| least.is_some())
        .map(|(b, links)| (*b, links.as_slice(), least.unwrap_or(2)));
    let broken_ones = broken.iter().map(|(b, links)| (*b, links.as_slice(), 2));
    let mut groups: Option<Vec<usize>> = None;
    for (bi, links, least) in splittable.chain(broken_ones) {
        let b = topo.bridge(bi);
        if b.members.len() < least {
            continue;
        }
        let alive: Vec<SwitchId> = b
            .members
            .iter()
            .copied()
            .filter(|s| !failures.switches.contains(s) && design.switch(*s).defines_vlan(vlan))
            .collect();
        if alive.len() < 2 {
            continue;
        }
        let index = |s: SwitchId| alive.iter().position(|x| *x == s);
        let edges = links
            .iter()
            .filter(|l| {
                design.link(**l).allows_vlan(vlan) && !all_cables_down(design, failures, **l)
            })
            .flat_map(|l| {
                let link = design.link(*l);
                link.b.iter().map(move |b| (link.a.value, b.value))
            })
            .filter_map(|(x, y)| Some((index(x)?, index(y)?)));
        let label = components(alive.len(), edges);
        if label.iter().all(|l| *l == 0) {
            continue;
        }
        let g = groups.get_or_insert_with(|| {
            topo.bridge_of
                .iter()
                .map(|b| topo.bridges[b.0].members[0].0)
                .collect()
        });
        for s in &b.members {
            g[s.0] = s.0;
        }
        for (i, s) in alive.iter().enumerate() {
            g[s.0] = alive[label[i]].0;
        }
    }
    groups
}

/// Whether every cable of link `l` is down under `failures`.
fn all_cables_down(design: &Design, failures: &Failures, l: LinkId) -> bool {
    let members = design.link(l).members.value;
    failures.cables.range((l, 0)..=(l, u32::MAX)).count() as u32 >= members
}

/// The links between the members of each stack or MLAG domain (stacking
/// cables, peer-links), for the domains whose members those links join in
/// the healthy state: a domain whose links the design lists only in part
/// is taken to be joined everywhere, as one without any.
pub fn domain_links(design: &Design, topo: &Topology) -> Vec<(BridgeId, Vec<LinkId>)> {
    let mut inside: BTreeMap<usize, Vec<LinkId>> = BTreeMap::new();
    for l in &topo.internal_links {
        inside
            .entry(topo.bridge_of[design.link(*l).a.value.0].0)
            .or_default()
            .push(*l);
    }
    inside
        .into_iter()
        .filter(|(b, links)| {
            let members = &topo.bridges[*b].members;
            let index = |s: SwitchId| members.iter().position(|x| *x == s);
            let edges = links
                .iter()
                .flat_map(|l| {
                    let link = design.link(*l);
                    link.b.iter().map(move |b| (link.a.value, b.value))
                })
                .filter_map(|(x, y)| Some((index(x)?, index(y)?)));
            members.len() > 1 && components(members.len(), edges).iter().all(|c| *c == 0)
        })
        .map(|(b, links)| (BridgeId(b), links))
        .collect()
}

/// The stacks and MLAG domains ([`domain_links`]) one of whose internal
/// links lost every cable under `failures`, with their internal links.
pub fn broken_domains(
    design: &Design,
    topo: &Topology,
    failures: &Failures,
) -> Vec<(BridgeId, Vec<LinkId>)> {
    if failures.cables.is_empty() {
        return Vec::new();
    }
    let cut: Vec<LinkId> = topo
        .internal_links
        .iter()
        .copied()
        .filter(|l| all_cables_down(design, failures, *l))
        .collect();
    if cut.is_empty() {
        return Vec::new();
    }
    domain_links(design, topo)
        .into_iter()
        .filter(|(_, links)| links.iter().any(|l| cut.contains(l)))
        .collect()
}

/// The parts a stack or MLAG domain falls into under `failures` (its live
/// members joined by the internal links with a cable left), each in file
/// order, parts by their first member; `None` when it does not fall apart
/// (see [`broken_domains`]).
pub fn domain_parts(
    design: &Design,
    topo: &Topology,
    failures: &Failures,
    bridge: BridgeId,
    links: &[LinkId],
) -> Option<Vec<Vec<SwitchId>>> {
    let alive: Vec<SwitchId> = topo
        .bridge(bridge)
        .members
        .iter()
        .copied()
        .filter(|s| !failures.switches.contains(s))
        .collect();
    let index = |s: SwitchId| alive.iter().position(|x| *x == s);
    let edges = links
        .iter()
        .filter(|l| !all_cables_down(design, failures, **l))
        .flat_map(|l| {
            let link = design.link(*l);
            link.b.iter().map(move |b| (link.a.value, b.value))
        })
        .filter_map(|(x, y)| Some((index(x)?, index(y)?)));
    let label = components(alive.len(), edges);
    let mut parts: BTreeMap<usize, Vec<SwitchId>> = BTreeMap::new();
    for (i, s) in alive.iter().enumerate() {
        parts.entry(label[i]).or_default().push(*s);
    }
    (parts.len() > 1).then(|| parts.into_values().collect())
}

/// How many live peers a domain needs for [`peer_groups`] to split it on
/// `vlan` under some failure (`None`: none can be split). Two peers are
/// split only by a link that does not allow the VLAN; three or more also
/// by a middle one that does not define it.
fn peers_split_from(design: &Design, topo: &Topology, vlan: Option<u16>) -> Option<usize> {
    vlan?;
    if topo.splittable_domains.is_empty() {
        return None;
    }
    let restricted = topo
        .splittable_domains
        .iter()
        .flat_map(|(_, links)| links)
        .any(|l| !design.link(*l).allows_vlan(vlan));
    Some(if restricted { 2 } else { 3 })
}

/// Whether [`peer_groups`] can be `Some` for `vlan` under any failures:
/// some domain has enough peers. It depends on the design only, so a
/// caller asking for every failure asks this once.
pub(crate) fn peers_may_split(design: &Design, topo: &Topology, vlan: Option<u16>) -> bool {
    peers_split_from(design, topo, vlan).is_some_and(|least| {
        topo.splittable_domains
            .iter()
            .any(|(b, _)| topo.bridge(*b).members.len() >= least)
    })
}

/// The link inside an MLAG domain that joins peers `a` and `b` (a
/// `peer-link` first), else any peer-link of theirs.
pub fn peer_link_between(
    design: &Design,
    topo: &Topology,
    a: SwitchId,
    b: SwitchId,
) -> Option<LinkId> {
    let links = || topo.internal_links.iter().copied();
    let joins = |l: &LinkId, x: SwitchId, y: SwitchId| {
        let link = design.link(*l);
        (link.a.value == x && link.b.iter().any(|s| s.value == y))
            || (link.a.value == y && link.b.iter().any(|s| s.value == x))
    };
    let touches = |l: &LinkId| {
        let link = design.link(*l);
        [a, b]
            .iter()
            .any(|s| link.a.value == *s || link.b.iter().any(|x| x.value == *s))
    };
    let peer = |l: &LinkId| design.link(*l).kind.value == netlint_model::LinkKind::PeerLink;
    links()
        .filter(|l| joins(l, a, b))
        .min_by_key(|l| !peer(l))
        .or_else(|| links().filter(|l| peer(l) && touches(l)).min())
}

pub use crate::union_find::components;

/// The nodes components are computed over: a bridge, or, in an MLAG
/// domain the VLAN splits, one node per group of peers (the group of the
/// domain's least switch keeps the bridge's node, the others get nodes
/// after the bridges). Without a split these are the bridges.
struct Segments {
    /// Per switch: its node; empty when no domain is split.
    node_of: Vec<usize>,
    nodes: usize,
    /// Per port: the nodes at its two ends.
    ends: Vec<(usize, usize)>,
}

impl Segments {
    fn new(topo: &Topology, failures: &Failures, peers: Option<&[usize]>) -> Segments {
        let n = topo.bridges.len();
        let Some(peers) = peers else {
            return Segments {
                node_of: Vec::new(),
                nodes: n,
                ends: topo.ports.iter().map(|p| (p.a.0, p.b.0)).collect(),
            };
        };
        let mut node_of: Vec<usize> = topo.bridge_of.iter().map(|b| b.0).collect();
        let mut extra: BTreeMap<usize, usize> = BTreeMap::new();
        for b in &topo.bridges {
            let first = b.members[0];
            for s in &b.members {
                if peers[s.0] != peers[first.0] {
                    let next = n + extra.len();
                    node_of[s.0] = *extra.entry(peers[s.0]).or_insert(next);
                }
            }
        }
        let end = |ss: &[SwitchId]| {
            let s = ss
                .iter()
                .find(|s| failures.lag_end_up(**s, ss))
                .unwrap_or(&ss[0]);
            node_of[s.0]
        };
        let ends = topo
            .ports
            .iter()
            .map(|p| (end(&p.a_switches), end(&p.b_switches)))
            .collect();
        Segments {
            node_of,
            nodes: n + extra.len(),
            ends,
        }
    }

    /// Per bridge, the component of its node over the ports `mask`
    /// selects; and per switch, its node's, when a domain is split.
    fn components(&self, topo: &Topology, mask: &[bool]) -> (Vec<usize>, Option<Vec<usize>>) {
        let edges = self
            .ends
            .iter()
            .zip(mask)
            .filter(|(_, m)| **m)
            .map(|(e, _)| *e);
        let mut label = components(self.nodes, edges);
        let segment = (!self.node_of.is_empty())
            .then(|| self.node_of.iter().map(|node| label[*node]).collect());
        label.truncate(topo.bridges.len());
        (label, segment)
    }
}

impl VlanView {
    fn new(
        design: &Design,
        topo: &Topology,
        stp: &StpResult,
        ports: &[PortState],
        failures: &Failures,
        vlan: Option<u16>,
        adj: std::sync::Arc<Vec<Vec<(usize, usize)>>>,
    ) -> VlanView {
        let fwd = stp.forwarding_links(vlan);
        let peers = peer_groups(design, topo, failures, vlan);
        let not_carried: Vec<Option<NotCarried>> = topo
            .ports
            .iter()
            .zip(ports)
            .map(|(p, st)| not_carried(design, topo, p, *st, failures, vlan, peers.as_deref()))
            .collect();
        let forwarding: Vec<bool> = not_carried
            .iter()
            .enumerate()
            .map(|(i, nc)| {
                nc.is_none()
                    && fwd
                        .map(|f| f.get(i).copied().unwrap_or(false))
                        .unwrap_or(true)
            })
            .collect();
        let carried: Vec<bool> = not_carried.iter().map(|c| c.is_none()).collect();
        let segments = Segments::new(topo, failures, peers.as_deref());
        let (component, segment) = segments.components(topo, &forwarding);
        let (carried_component, _) = segments.components(topo, &carried);
        VlanView {
            vlan,
            component,
            carried_component,
            peers,
            segment,
            not_carried,
            forwarding,
            adj,
            forest: std::sync::OnceLock::new(),
            cuts: CutCache::default(),
            patched: None,
        }
    }

    /// This view with some ports' reasons and forwarding changed (a
    /// scenario updated from it, where no VLAN splits an MLAG domain), the
    /// components over the changed kind of port worked out again.
    pub(super) fn patched(
        &self,
        topo: &Topology,
        failures: &Failures,
        reasons: Vec<(usize, Option<NotCarried>)>,
        forwards: Vec<(usize, bool)>,
    ) -> VlanView {
        let mut not_carried = self.not_carried.clone();
        let mut carried_changed = false;
        for (p, why) in reasons {
            carried_changed |= why.is_none() != not_carried[p].is_none();
            not_carried[p] = why;
        }
        let mut forwarding = self.forwarding.clone();
        let forwarding_changed = !forwards.is_empty();
        let mut flipped: Vec<usize> = forwards
            .iter()
            .filter(|&&(p, f)| self.forwarding[p] != f)
            .map(|&(p, _)| p)
            .collect();
        flipped.sort_unstable();
        flipped.dedup();
        for (p, f) in forwards {
            forwarding[p] = f;
        }
        let segments = Segments::new(topo, failures, None);
        let component = if forwarding_changed {
            segments.components(topo, &forwarding).0
        } else {
            self.component.clone()
        };
        let carried_component = if carried_changed {
            let carried: Vec<bool> = not_carried.iter().map(|c| c.is_none()).collect();
            segments.components(topo, &carried).0
        } else {
            self.carried_component.clone()
        };
        VlanView {
            vlan: self.vlan,
            not_carried,
            forwarding,
            component,
            carried_component,
            peers: None,
            segment: None,
            adj: self.adj.clone(),
            forest: std::sync::OnceLock::new(),
            cuts: CutCache::default(),
            patched: Some(flipped),
        }
    }

    /// The ports whose forwarding may differ from `base`'s: those this view
    /// was patched at when it was patched from `base` (the caller knows),
    /// or `None` (every port may).
    pub(crate) fn patched_ports(&self) -> Option<&[usize]> {
        self.patched.as_deref()
    }

    /// Whether the spanning tree may cut a pair of hosts on this VLAN
    /// ([`Break::Blocked`]): its carried ports join bridges its forwarding
    /// ports leave apart, or it splits an MLAG domain. Where it does not,
    /// every break is of another kind.
    pub fn may_block(&self) -> bool {
        let count = |labels: &[usize]| labels.iter().collect::<BTreeSet<_>>().len();
        self.peers.is_some() || count(&self.component) != count(&self.carried_component)
    }

    /// The component of a switch over forwarding ports: its bridge's,
    /// or, where the VLAN splits the switch's MLAG domain, its group of
    /// peers'. Two host adapters reach each other when theirs are equal.
    pub fn switch_component(&self, topo: &Topology, switch: SwitchId) -> usize {
        match &self.segment {
            Some(seg) => seg[switch.0],
            None => self.component[topo.bridge_of[switch.0].0],
        }
    }

    /// Per switch, [`switch_component`](Self::switch_component).
    pub fn switch_components(&self, topo: &Topology) -> Vec<usize> {
        match &self.segment {
            Some(seg) => seg.clone(),
            None => topo.bridge_of.iter().map(|b| self.component[b.0]).collect(),
        }
    }

    /// Whether the forwarding ports form a forest (every bridge runs
    /// spanning tree): then the path between two bridges is the only one,
    /// and it crosses a set of ports exactly when removing them leaves the
    /// two bridges apart.
    pub fn forwards_on_forest(&self, topo: &Topology) -> bool {
        self.forest(topo).is_some()
    }

    fn forest(&self, topo: &Topology) -> Option<&Forest> {
        self.forest
            .get_or_init(|| Forest::new(topo.bridges.len(), &self.adj, &self.forwarding))
            .as_ref()
    }

    /// Shortest path (fewest hops) between two bridges over ports selected by `mask`.
    pub fn path(
        &self,
        topo: &Topology,
        from: BridgeId,
        to: BridgeId,
        mask: &[bool],
    ) -> Option<Vec<usize>> {
        if from == to {
            return Some(Vec::new());
        }
        if std::ptr::eq(mask, self.forwarding.as_slice()) {
            if let Some(forest) = self.forest(topo) {
                return forest.path(from.0, to.0);
            }
        }
        let n = topo.bridges.len();
        let adj = &self.adj;
        let mut prev: Vec<Option<(usize, usize)>> = vec![None; n];
        let mut seen = vec![false; n];
        let mut q = VecDeque::from([from.0]);
        seen[from.0] = true;
        while let Some(x) = q.pop_front() {
            if x == to.0 {
                break;
            }
            for &(y, port) in &adj[x] {
                if mask[port] && !seen[y] {
                    seen[y] = true;
                    prev[y] = Some((x, port));
                    q.push_back(y);
                }
            }
        }
        if !seen[to.0] {
            return None;
        }
        let mut path = Vec::new();
        let mut cur = to.0;
        while let Some((p, port)) = prev[cur] {
            path.push(port);
            cur = p;
        }
        path.reverse();
        Some(path)
    }
}

/// A forest over the bridges: per bridge its parent (bridge, port) and its
/// depth. In a forest the only path between two bridges is the shortest.
#[derive(Clone, Debug)]
struct Forest {
    parent: Vec<Option<(usize, usize)>>,
    depth: Vec<u32>,
}

impl Forest {
    /// The forest of the ports `mask` selects, or `None` if they close a
    /// cycle (parallel ports included).
    fn new(n: usize, adj: &[Vec<(usize, usize)>], mask: &[bool]) -> Option<Forest> {
        let mut parent: Vec<Option<(usize, usize)>> = vec![None; n];
        let mut depth = vec![0u32; n];
        let mut seen = vec![false; n];
        for root in 0..n {
            if seen[root] {
                continue;
            }
            seen[root] = true;
            let mut q = VecDeque::from([root]);
            while let Some(x) = q.pop_front() {
                for &(y, port) in &adj[x] {
                    if !mask[port] || parent[x].is_some_and(|(_, p)| p == port) {
                        continue;
                    }
                    if seen[y] {
                        return None;
                    }
                    seen[y] = true;
                    parent[y] = Some((x, port));
                    depth[y] = depth[x] + 1;
                    q.push_back(y);
                }
            }
        }
        Some(Forest { parent, depth })
    }

    fn path(&self, from: usize, to: usize) -> Option<Vec<usize>> {
        let (mut a, mut b) = (from, to);
        let (mut up, mut down) = (Vec::new(), Vec::new());
        while self.depth[a] > self.depth[b] {
            let (p, port) = self.parent[a]?;
            up.push(port);
            a = p;
        }
        while self.depth[b] > self.depth[a] {
            let (p, port) = self.parent[b]?;
            down.push(port);
            b = p;
        }
        while a != b {
            let (pa, porta) = self.parent[a]?;
            let (pb, portb) = self.parent[b]?;
            up.push(porta);
            down.push(portb);
            a = pa;
            b = pb;
        }
        down.reverse();
        up.extend(down);
        Some(up)
    }
}

/// The forwarding state of one scenario.
///
/// The spanning-tree result and the VLAN views are shared (reference
/// counted) between scenarios that have them alike: a NIC failure keeps
/// every one of the healthy state's, a fabric failure updated from the
/// healthy state ([`ScenarioForwarding`]) those of the VLANs it does not
/// change, so a clone costs a copy of the port states, not of the fabric.
#[derive(Clone)]
pub struct Forwarding {
    pub stp: std::sync::Arc<StpResult>,
    /// Per port of the topology; shared with the scenario it was built
    /// from when no port changes (a NIC failure), which then costs no copy
    /// of the fabric's ports.
    pub ports: std::sync::Arc<Vec<PortState>>,
    pub failures: Failures,
    per_vlan: BTreeMap<Option<u16>, std::sync::Arc<VlanView>>,
    /// The last search over the ports that are up, from one bridge.
    up_tree: UpTree,
}

/// The shortest paths over the ports that are up from one bridge (the one
/// asked last): explaining why a VLAN cuts two bridges looks for the first
/// port on such a path that does not carry it, and the cuts a rule
/// explains come many from one bridge in a row. Cloning starts afresh.
#[derive(Debug, Default)]
struct UpTree(std::sync::Mutex<Option<UpSearch>>);

/// Per bridge: the bridge and port a search reached it from.
type Parents = Vec<Option<(usize, usize)>>;

/// A breadth-first search over the ports that are up from one bridge,
/// taken only as far as the bridges asked for so far: it stops when it
/// meets the bridge asked for and goes on from there for the next, so the
/// parents it gives every bridge are those of a whole search (the same
/// bridges in the same order), at the cost of the part it walked.
#[derive(Debug)]
struct UpSearch {
    from: usize,
    prev: Parents,
    seen: Vec<bool>,
    queue: VecDeque<usize>,
    /// The bridge being expanded and the next of its ports to look at.
    at: Option<(usize, usize)>,
}

impl UpSearch {
    fn new(n: usize, from: usize) -> UpSearch {
        let mut seen = vec![false; n];
        seen[from] = true;
        UpSearch {
            from,
            prev: vec![None; n],
            seen,
            queue: VecDeque::from([from]),
            at: None,
        }
    }

    /// Walks on until `to` is met or every bridge the ports that are up
    /// reach is.
    fn reach(&mut self, adj: &[Vec<(usize, usize)>], up: &[PortState], to: usize) {
        while !self.seen[to] {
            let (x, start) = match self.at.take() {
                Some(at) => at,
                None => match self.queue.pop_front() {
                    Some(x) => (x, 0),
                    None => return,
                },
            };
            for (i, &(y, port)) in adj[x].iter().enumerate().skip(start) {
                if up[port].up && !self.seen[y] {
                    self.seen[y] = true;
                    self.prev[y] = Some((x, port));
                    self.queue.push_back(y);
                    if y == to {
                        self.at = Some((x, i + 1));
                        return;
                    }
                }
            }
        }
    }
}

impl Clone for UpTree {
    fn clone(&self) -> Self {
        UpTree::default()
    }
}

/// An attachment of a host to the fabric for one network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attach {
    pub nic: NicIdx,
    pub end: Option<NicEnd>,
}

/// Where reachability between two hosts breaks first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Break {
    /// A host has no working adapter for the network.
    NoAdapter { host: HostId },
    /// An active NIC is not cabled.
    NotCabled { host: HostId, nic: NicIdx },
    /// A NIC is cabled to a switch that does not define the VLAN.
    HostSwitchLacksVlan {
        host: HostId,
        nic: NicIdx,
        switch: SwitchId,
    },
    /// A direct cable leads to a host that is not the other one.
    PeerElsewhere { host: HostId, nic: NicIdx },
    /// A NIC's configured switch port (or its switch's `host_ports`) does
    /// not pass the network's frames.
    PortDrops {
        host: HostId,
        nic: NicIdx,
        switch: SwitchId,
        why: netlint_model::PortDrop,
    },
    /// The two hosts' frames land in different VLANs on their switches:
    /// untagged frames in the native or access VLANs of their ports.
    VlansApart {
        a: ports::PortEnd,
        b: ports::PortEnd,
    },
    /// No cabled path at all between the two switches.
    NoPath { from: BridgeId, to: BridgeId },
    /// Every cabled path has a port that does not carry the VLAN; this is
    /// the first such port on the shortest cabled path.
    NotCarried { port: usize, why: NotCarried },
    /// The VLAN is carried end to end, but the spanning tree blocks it:
    /// the blocked ports on the shortest carried path, each followed by the
    /// other blocked ports that carry the VLAN between the same two parts
    /// (parallel links, any of which could join them).
    Blocked {
        ports: Vec<usize>,
        from: BridgeId,
        to: BridgeId,
    },
    /// Inside MLAG domain `bridge`, traffic enters at peer `from` and
    /// leaves at peer `to` (orphan ports, or a single link to one peer), so
    /// it crosses the peer-link, and no link between the peers carries
    /// the VLAN. `link`: the peer-link between them.
    PeerLink {
        bridge: BridgeId,
        from: SwitchId,
        to: SwitchId,
        link: Option<LinkId>,
    },
}

/// Reachability of one network between two hosts.
#[derive(Clone, Debug)]
pub struct Reach {
    pub network: NetworkId,
    pub a: HostId,
    pub b: HostId,
    /// None = reachable.
    pub broken: Option<Break>,
    /// Forwarding ports on the path between the first attachments (empty:
    /// same bridge, or a direct cable).
    pub path: Vec<usize>,
    /// The slowest port on the path, with its per-cable speed (a port of
    /// unknown speed, None, counts as the slowest: nothing is known of it).
    pub slowest: Option<(usize, Option<Speed>)>,
    /// The smallest payload the switches and links on the path carry.
    pub min_mtu: Option<(u32, MtuAt)>,
}

/// Which element sets a path's smallest MTU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MtuAt {
    Switch(SwitchId),
    Link(LinkId),
}

impl Forwarding {
    /// This scenario with host NICs failing as well. Host NICs do not take
    /// part in the spanning tree, so the trees and VLAN views are reused:
    /// the failure analysis evaluates NIC, card and host-cable failures
    /// without solving the spanning tree again.
    pub fn with_nic_failures(
        &self,
        nics: impl IntoIterator<Item = (HostId, NicIdx)>,
    ) -> Forwarding {
        let mut f = self.clone();
        f.failures.nics.extend(nics);
        f
    }

    pub fn vlan(&self, vlan: Option<u16>) -> Option<&VlanView> {
        self.per_vlan.get(&vlan).map(|v| &**v)
    }

    /// Whether this scenario and `other` share their view of `vlan` (the
    /// same forwarding, components and reasons on every port): a scenario
    /// built from another keeps the views it does not change.
    pub fn shares_vlan(&self, other: &Forwarding, vlan: Option<u16>) -> bool {
        match (self.per_vlan.get(&vlan), other.per_vlan.get(&vlan)) {
            (Some(a), Some(b)) => std::sync::Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// The tree that governs a VLAN on a bridge.
    pub fn tree_of(&self, bridge: BridgeId, vlan: Option<u16>) -> Option<TreeId> {
        self.stp.governing_tree(bridge.0, vlan)
    }

    /// Working NICs of one carrier under the failures: the active ones that
    /// are up, plus standby ones taking over for failed active ones.
    pub fn effective_nics(&self, host: HostId, carrier: &Carrier) -> Vec<NicIdx> {
        let up = |n: &NicIdx| !self.failures.nics.contains(&(host, *n));
        let mut out: Vec<NicIdx> = carrier.active.iter().copied().filter(up).collect();
        let lost = carrier.active.len() - out.len();
        out.extend(carrier.standby.iter().copied().filter(up).take(lost));
        out
    }

    /// Working NICs of one carrier under the failures, as the team or
    /// virtual switch sees them: a member is lost when the NIC failed or its
    /// link went down (the switch or the peer NIC at the other end of its
    /// cable failed), and standby members take over for lost active ones.
    pub fn working_nics(&self, topo: &Topology, host: HostId, carrier: &Carrier) -> Vec<NicIdx> {
        let up = |n: &NicIdx| self.nic_up(topo, host, *n);
        let mut out: Vec<NicIdx> = carrier.active.iter().copied().filter(up).collect();
        let lost = carrier.active.len() - out.len();
        out.extend(carrier.standby.iter().copied().filter(up).take(lost));
        out
    }

    /// Whether a NIC has link: it has not failed and neither has what its
    /// cable plugs into.
    pub fn nic_up(&self, topo: &Topology, host: HostId, nic: NicIdx) -> bool {
        if self.failures.nics.contains(&(host, nic)) {
            return false;
        }
        match topo.nic_ends[host.0][nic.0] {
            Some(NicEnd::Switch(s)) => !self.failures.switches.contains(&s),
            Some(NicEnd::Peer(h, n)) => !self.failures.nics.contains(&(h, n)),
            None => true,
        }
    }

    /// Reachability of `network` between hosts `a` and `b`.
    pub fn reach(
        &self,
        design: &Design,
        topo: &Topology,
        network: NetworkId,
        a: HostId,
        b: HostId,
    ) -> Reach {
        let vlan = design.network(network).vlan_id();
        let mut r = Reach {
            network,
            a,
            b,
            broken: None,
            path: Vec::new(),
            slowest: None,
            min_mtu: None,
        };
        let Some(view) = self.vlan(vlan) else {
            return r;
        };
        // Each host's carriers; reachable if some carrier of a fully reaches
        // some carrier of b. The first failure explains the pair otherwise.
        let mut first_break: Option<Break> = None;
        let carriers = |h: HostId| topo.carriers_of(h, network).collect::<Vec<_>>();
        let (ca, cb) = (carriers(a), carriers(b));
        for c1 in &ca {
            for c2 in &cb {
                match self.carrier_pair(design, topo, view, (a, c1), (b, c2), true) {
                    Ok((path, from)) => {
                        r.slowest = path
                            .iter()
                            .map(|p| (*p, topo.ports[*p].member_speed))
                            .min_by_key(|(_, s)| *s);
                        r.min_mtu = self.path_mtu(design, topo, &path, from, vlan.is_some());
                        r.path = path;
                        return r;
                    }
                    Err(br) => {
                        if first_break.is_none() {
                            first_break = Some(br);
                        }
                    }
                }
            }
        }
        r.broken = Some(first_break.unwrap_or(Break::NoAdapter {
            host: if ca.is_empty() { a } else { b },
        }));
        r
    }

    /// Whether `network` reaches between hosts `a` and `b`: what
    /// [`Forwarding::reach`] says (`broken.is_none()`), without the path
    /// and without explaining a break, which searches the fabric: what
    /// `netlint simulate` asks of every pair a failure may change.
    pub fn reaches(
        &self,
        design: &Design,
        topo: &Topology,
        network: NetworkId,
        a: HostId,
        b: HostId,
    ) -> bool {
        let Some(view) = self.vlan(design.network(network).vlan_id()) else {
            return true;
        };
        let carriers = |h: HostId| topo.carriers_of(h, network).collect::<Vec<_>>();
        let (ca, cb) = (carriers(a), carriers(b));
        ca.iter().any(|c1| {
            cb.iter().any(|c2| {
                self.carrier_pair(design, topo, view, (a, c1), (b, c2), false)
                    .is_ok()
            })
        })
    }

    /// Whether every working NIC of one carrier reaches every working NIC of
    /// the other (switch-independent teams and SET may send from any).
    /// Without `detail`, the path is left empty and a cut between switches
    /// is not explained (the error is then a placeholder).
    fn carrier_pair(
        &self,
        design: &Design,
        topo: &Topology,
        view: &VlanView,
        (ha, ca): (HostId, &Carrier),
        (hb, cb): (HostId, &Carrier),
        detail: bool,
    ) -> Result<(Vec<usize>, Vec<SwitchId>), Break> {
        let na = self.working_nics(topo, ha, ca);
        let nb = self.working_nics(topo, hb, cb);
        if na.is_empty() {
            return Err(Break::NoAdapter { host: ha });
        }
        if nb.is_empty() {
            return Err(Break::NoAdapter { host: hb });
        }
        let vlan = view.vlan;
        let mut first_path: Option<(Vec<usize>, Vec<SwitchId>)> = None;
        for &x in &na {
            for &y in &nb {
                let (ex, ey) = (topo.nic_ends[ha.0][x.0], topo.nic_ends[hb.0][y.0]);
                let (sx, sy) = match (ex, ey) {
                    (None, _) => return Err(Break::NotCabled { host: ha, nic: x }),
                    (_, None) => return Err(Break::NotCabled { host: hb, nic: y }),
                    (Some(NicEnd::Peer(ph, pn)), _) => {
                        if (ph, pn) == (hb, y) {
                            first_path.get_or_insert((Vec::new(), Vec::new()));
                            continue;
                        }
                        return Err(Break::PeerElsewhere { host: ha, nic: x });
                    }
                    (_, Some(NicEnd::Peer(_, _))) => {
                        return Err(Break::PeerElsewhere { host: hb, nic: y })
                    }
                    (Some(NicEnd::Switch(sx)), Some(NicEnd::Switch(sy))) => (sx, sy),
                };
                // The VLAN both NICs' frames land in through their ports.
                let lx = ports::land_pair(design, (ha, x, sx), (hb, y, sy), vlan)?;
                let (vlan, view) = match self.vlan(lx) {
                    Some(v) if lx != vlan => (lx, v),
                    _ => (vlan, view),
                };
                for (h, n, s) in [(ha, x, sx), (hb, y, sy)] {
                    if !design.switch(s).defines_vlan(vlan) {
                        return Err(Break::HostSwitchLacksVlan {
                            host: h,
                            nic: n,
                            switch: s,
                        });
                    }
                }
                let (bx, by) = (topo.bridge_of[sx.0], topo.bridge_of[sy.0]);
                if view.switch_component(topo, sx) == view.switch_component(topo, sy) {
                    if first_path.is_none() {
                        let path = if detail {
                            view.path(topo, bx, by, &view.forwarding)
                                .unwrap_or_default()
                        } else {
                            Vec::new()
                        };
                        first_path = Some((path, vec![sx, sy]));
                    }
                    continue;
                }
                if !detail {
                    return Err(Break::NoPath { from: bx, to: by });
                }
                return Err(self.explain_switch_cut(design, topo, view, sx, sy));
            }
        }
        Ok(first_path.unwrap_or_default())
    }

    /// Why two switches' components differ: the first MLAG domain on the
    /// bridges' path (forwarding, else carrying the VLAN) where the traffic
    /// would cross between peers the VLAN does not join, or else the
    /// bridges' cut.
    fn explain_switch_cut(
        &self,
        design: &Design,
        topo: &Topology,
        view: &VlanView,
        from: SwitchId,
        to: SwitchId,
    ) -> Break {
        let (bx, by) = (topo.bridge_of[from.0], topo.bridge_of[to.0]);
        let Some(peers) = &view.peers else {
            return self.explain_cut(topo, view, bx, by);
        };
        let split = |bridge: BridgeId, x: SwitchId, y: SwitchId| {
            (peers[x.0] != peers[y.0]).then(|| Break::PeerLink {
                bridge,
                from: x,
                to: y,
                link: peer_link_between(design, topo, x, y),
            })
        };
        let alive = |ss: &[SwitchId]| {
            ss.iter()
                .copied()
                .find(|s| self.failures.lag_end_up(*s, ss))
                .unwrap_or(ss[0])
        };
        let carried: Vec<bool> = view.not_carried.iter().map(|c| c.is_none()).collect();
        let Some(path) = view
            .path(topo, bx, by, &view.forwarding)
            .or_else(|| view.path(topo, bx, by, &carried))
        else {
            return self.explain_cut(topo, view, bx, by);
        };
        let (mut at, mut switch) = (bx, from);
        for p in path {
            let port = &topo.ports[p];
            let (here, next, there) = if port.a == at {
                (alive(&port.a_switches), port.b, alive(&port.b_switches))
            } else {
                (alive(&port.b_switches), port.a, alive(&port.a_switches))
            };
            if let Some(b) = split(at, switch, here) {
                return b;
            }
            (at, switch) = (next, there);
        }
        split(at, switch, to).unwrap_or_else(|| self.explain_cut(topo, view, bx, by))
    }

    fn explain_cut(&self, topo: &Topology, view: &VlanView, from: BridgeId, to: BridgeId) -> Break {
        let cached = |cache: &CutCache| cache.0.lock().ok()?.get(&(from, to)).cloned();
        if let Some(b) = cached(&view.cuts) {
            return b;
        }
        let b = self.explain_cut_uncached(topo, view, from, to);
        if let Ok(mut cache) = view.cuts.0.lock() {
            cache.insert((from, to), b.clone());
        }
        b
    }

    fn explain_cut_uncached(
        &self,
        topo: &Topology,
        view: &VlanView,
        from: BridgeId,
        to: BridgeId,
    ) -> Break {
        if view.carried_component[from.0] == view.carried_component[to.0] {
            let carried: Vec<bool> = view.not_carried.iter().map(|c| c.is_none()).collect();
            let path = view.path(topo, from, to, &carried).unwrap_or_default();
            // Each blocked port on the path, followed by the other blocked
            // ports that carry the VLAN between the same two forwarding
            // components (parallel links): any of them could join the sides.
            let sides = |q: usize| {
                let p = &topo.ports[q];
                let (x, y) = (view.component[p.a.0], view.component[p.b.0]);
                (x.min(y), x.max(y))
            };
            let mut ports: Vec<usize> = Vec::new();
            for q in path.into_iter().filter(|p| !view.forwarding[*p]) {
                if ports.contains(&q) {
                    continue;
                }
                ports.push(q);
                let here = sides(q);
                ports.extend(
                    (0..topo.ports.len()).filter(|&r| {
                        r != q && carried[r] && !view.forwarding[r] && sides(r) == here
                    }),
                );
            }
            return Break::Blocked { ports, from, to };
        }
        match self.up_path(&view.adj, from, to) {
            None => Break::NoPath { from, to },
            Some(path) => {
                let port = path
                    .into_iter()
                    .find(|p| view.not_carried[*p].is_some())
                    .unwrap_or(0);
                Break::NotCarried {
                    port,
                    why: view.not_carried[port].clone().unwrap_or(NotCarried::Down),
                }
            }
        }
    }

    /// The shortest path (fewest hops) over the ports that are up between
    /// two bridges: [`VlanView::path`] with those ports, from a search of
    /// every bridge from `from` kept for the next question from it.
    fn up_path(
        &self,
        adj: &[Vec<(usize, usize)>],
        from: BridgeId,
        to: BridgeId,
    ) -> Option<Vec<usize>> {
        if from == to {
            return Some(Vec::new());
        }
        let mut cache = self.up_tree.0.lock().unwrap_or_else(|e| e.into_inner());
        // Breadth first, as `VlanView::path` searches: the parents it
        // gives the bridges it meets before `to` are the same.
        if cache.as_ref().is_none_or(|c| c.from != from.0) {
            *cache = Some(UpSearch::new(adj.len(), from.0));
        }
        let search = cache.as_mut()?;
        search.reach(adj, &self.ports, to.0);
        let prev = &search.prev;
        prev[to.0]?;
        let mut path = Vec::new();
        let mut cur = to.0;
        while let Some((p, port)) = prev[cur] {
            path.push(port);
            cur = p;
        }
        path.reverse();
        Some(path)
    }

    fn path_mtu(
        &self,
        design: &Design,
        topo: &Topology,
        path: &[usize],
        host_switches: Vec<SwitchId>,
        tagged: bool,
    ) -> Option<(u32, MtuAt)> {
        let mut switches: BTreeSet<SwitchId> = host_switches.into_iter().collect();
        let mut best: Option<(u32, MtuAt)> = None;
        let mut consider = |mtu: &Mtu, at: MtuAt| {
            let limit = mtu.payload_limit(tagged);
            if best.is_none_or(|(b, _)| limit < b) {
                best = Some((limit, at));
            }
        };
        for p in path {
            let port = &topo.ports[*p];
            switches.extend(port.switches());
            if let Some(m) = &design.link(port.link).mtu {
                consider(&m.value, MtuAt::Link(port.link));
            }
        }
        for s in switches {
            if !self.failures.switches.contains(&s) {
                consider(&design.switch(s).mtu.value, MtuAt::Switch(s));
            }
        }
        best
    }
}

/// Reachability of every network between every pair of hosts of each
/// cluster that attach to it, for one scenario, one record per pair (walked
/// once per pair of host classes), in order: per network, per cluster, each
/// host with every later host. Quadratic in the hosts of a cluster: what
/// has many hosts asks a [`Reachability`] instead.
pub fn all_pairs(design: &Design, topo: &Topology, fwd: &Forwarding) -> Vec<Reach> {
    classes::every_pair(design, topo, fwd)
}

// ---------------------------------------------------------------- queries for rules and `netlint topology`

/// One pair of working adapters of two hosts on one network, both cabled to
/// switches, and the forwarding path between their bridges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdapterPath {
    pub a_nic: NicIdx,
    pub b_nic: NicIdx,
    pub a_switch: SwitchId,
    pub b_switch: SwitchId,
    pub from: BridgeId,
    pub to: BridgeId,
    /// Forwarding ports from `from` to `to` (empty: one bridge); `None`:
    /// the VLAN does not connect the two bridges.
    pub path: Option<Vec<usize>>,
}

/// One end of a port that blocks a VLAN, and the tree that makes it block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blocking {
    pub end: crate::stp::End,
    pub bridge: BridgeId,
    pub tree: TreeId,
}

impl Forwarding {
    /// A host's working adapters that carry `network` and are cabled to a
    /// switch, each once, with the switch: what [`Forwarding::adapter_paths`]
    /// pairs up, so two hosts with the same list have the same paths.
    pub fn cabled_adapters(
        &self,
        topo: &Topology,
        host: HostId,
        network: NetworkId,
    ) -> Vec<(NicIdx, SwitchId)> {
        let mut out: Vec<(NicIdx, SwitchId)> = Vec::new();
        for c in topo.carriers_of(host, network) {
            for n in self.effective_nics(host, c) {
                if !self.nic_up(topo, host, n) || out.iter().any(|(m, _)| *m == n) {
                    continue;
                }
                if let Some(NicEnd::Switch(s)) = topo.nic_ends[host.0][n.0] {
                    out.push((n, s));
                }
            }
        }
        out
    }

    /// Every pair of working adapters (one of `a`, one of `b`) that carry
    /// `network` and are cabled to a switch, over all their carriers, with
    /// the forwarding path between their bridges. Switch-independent teams
    /// and SET may send a flow from any active member, so each pair is a
    /// path some traffic takes. Pairs in first-seen order, without repeats.
    pub fn adapter_paths(
        &self,
        design: &Design,
        topo: &Topology,
        network: NetworkId,
        a: HostId,
        b: HostId,
    ) -> Vec<AdapterPath> {
        let Some(view) = self.vlan(design.network(network).vlan_id()) else {
            return Vec::new();
        };
        let (na, nb) = (
            self.cabled_adapters(topo, a, network),
            self.cabled_adapters(topo, b, network),
        );
        let mut out = Vec::new();
        for &(x, sx) in &na {
            for &(y, sy) in &nb {
                let (from, to) = (topo.bridge_of[sx.0], topo.bridge_of[sy.0]);
                let path = if view.switch_component(topo, sx) == view.switch_component(topo, sy) {
                    view.path(topo, from, to, &view.forwarding)
                } else {
                    None
                };
                out.push(AdapterPath {
                    a_nic: x,
                    b_nic: y,
                    a_switch: sx,
                    b_switch: sy,
                    from,
                    to,
                    path,
                });
            }
        }
        out
    }

    /// Why `vlan` does not connect two bridges (`None` when it does): the
    /// first break on the way, as [`Forwarding::reach`] reports it.
    pub fn explain_bridges(
        &self,
        topo: &Topology,
        vlan: Option<u16>,
        from: BridgeId,
        to: BridgeId,
    ) -> Option<Break> {
        let view = self.vlan(vlan)?;
        if view.component[from.0] == view.component[to.0] {
            return None;
        }
        Some(self.explain_cut(topo, view, from, to))
    }

    /// Why `vlan` does not connect two switches (`None` when it does):
    /// [`explain_bridges`](Self::explain_bridges), or the peers of an MLAG
    /// domain the VLAN does not join.
    pub fn explain_switches(
        &self,
        design: &Design,
        topo: &Topology,
        vlan: Option<u16>,
        from: SwitchId,
        to: SwitchId,
    ) -> Option<Break> {
        let view = self.vlan(vlan)?;
        if view.switch_component(topo, from) == view.switch_component(topo, to) {
            return None;
        }
        Some(self.explain_switch_cut(design, topo, view, from, to))
    }

    /// The path the spanning tree governing `vlan` forwards between two
    /// bridges, over ports that are up, whether or not they carry the VLAN
    /// (allowed lists and VLAN definitions ignored): where the tree sends the
    /// VLAN's frames.
    pub fn tree_path(
        &self,
        topo: &Topology,
        vlan: Option<u16>,
        from: BridgeId,
        to: BridgeId,
    ) -> Option<Vec<usize>> {
        let view = self.vlan(vlan)?;
        let stp = self.stp.forwarding_links(vlan)?;
        let mask: Vec<bool> = self
            .ports
            .iter()
            .enumerate()
            .map(|(i, p)| p.up && stp.get(i).copied().unwrap_or(false))
            .collect();
        view.path(topo, from, to, &mask)
    }

    /// The ends of `port` that block `vlan`, each with the tree that
    /// governs the VLAN there (empty when the port forwards it or is down).
    pub fn blocking_ends(&self, topo: &Topology, port: usize, vlan: Option<u16>) -> Vec<Blocking> {
        use crate::stp::{End, PortRef};
        let Some(p) = topo.ports.get(port) else {
            return Vec::new();
        };
        if !self.ports.get(port).is_some_and(|s| s.up) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (end, bridge) in [(End::A, p.a), (End::B, p.b)] {
            let Some(tree) = self.stp.governing_tree(bridge.0, vlan) else {
                continue;
            };
            let blocks = self
                .stp
                .tree(tree)
                .and_then(|t| t.port(PortRef::new(port, end)))
                .is_some_and(|s| !s.role.forwards());
            if blocks {
                out.push(Blocking { end, bridge, tree });
            }
        }
        out
    }

    /// Among the paths that carry `vlan` between two bridges (spanning tree
    /// ignored), one whose slowest cable is fastest, then with the fewest
    /// hops: what the network could give the VLAN if no port blocked it.
    pub fn widest_carried_path(
        &self,
        topo: &Topology,
        vlan: Option<u16>,
        from: BridgeId,
        to: BridgeId,
    ) -> Option<Vec<usize>> {
        let view = self.vlan(vlan)?;
        if from == to {
            return Some(Vec::new());
        }
        // Unknown speeds (None) sort below every known one: the widest
        // path avoids them where it can.
        let mut speeds: Vec<Option<Speed>> = topo
            .ports
            .iter()
            .enumerate()
            .filter(|(i, _)| view.not_carried[*i].is_none())
            .map(|(_, p)| p.member_speed)
            .collect();
        speeds.sort_unstable_by(|x, y| y.cmp(x));
        speeds.dedup();
        for s in speeds {
            let mask: Vec<bool> = topo
                .ports
                .iter()
                .enumerate()
                .map(|(i, p)| view.not_carried[i].is_none() && p.member_speed >= s)
                .collect();
            if let Some(path) = view.path(topo, from, to, &mask) {
                return Some(path);
            }
        }
        None
    }
}

impl Fabric {
    /// The same fabric with changed spanning-tree inputs (a cost, a
    /// priority, an MSTP instance): rules try a fix on it before they
    /// suggest it.
    pub fn what_if(
        &self,
        design: &Design,
        edit: impl FnOnce(&mut Vec<BridgeInput>, &mut Vec<LinkInput>),
    ) -> Fabric {
        let mut bridges = self.engine.bridges().to_vec();
        let mut links = self.engine.links().to_vec();
        edit(&mut bridges, &mut links);
        Fabric {
            engine: StpEngine::new(bridges, links).with_vlans(ports::stp_vlans(design)),
        }
    }
}

mod classes;
pub mod pair_paths;
pub mod ports;
#[cfg(test)]
mod proofs;
mod scenarios;
pub mod split;
mod stp_input;
mod targets;

pub use classes::{ClassPair, GroupRef, ReachKey, Reachability, Which};

pub use scenarios::{Relabeled, ScenarioComponents, ScenarioForwarding};
pub use targets::{TargetBreak, TargetReach};

#[cfg(test)]
mod tests {
    use super::*;
    use netlint_model::{load, SourceFile};

    proptest::proptest! {
        /// The search that stops at each bridge asked for gives every
        /// bridge it met the parent a whole breadth-first search gives,
        /// whatever bridges are asked for in whatever order.
        #[test]
        fn a_search_taken_in_steps_finds_the_parents_of_a_whole_one(
            n in 2usize..12,
            edges in proptest::collection::vec((0usize..12, 0usize..12, proptest::bool::weighted(0.8)), 0..30),
            from in 0usize..12,
            asks in proptest::collection::vec(0usize..12, 1..6),
        ) {
            let from = from % n;
            let mut adj: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
            let mut up = Vec::new();
            for (p, &(a, b, on)) in edges.iter().enumerate() {
                let (a, b) = (a % n, b % n);
                adj[a].push((b, p));
                adj[b].push((a, p));
                up.push(PortState { up: on, members: 1 });
            }
            // The whole search, as `up_path` made it before it stopped early.
            let whole = {
                let mut prev: Parents = vec![None; n];
                let mut seen = vec![false; n];
                let mut q = VecDeque::from([from]);
                seen[from] = true;
                while let Some(x) = q.pop_front() {
                    for &(y, port) in &adj[x] {
                        if up[port].up && !seen[y] {
                            seen[y] = true;
                            prev[y] = Some((x, port));
                            q.push_back(y);
                        }
                    }
                }
                prev
            };
            let mut s = UpSearch::new(n, from);
            for to in asks {
                let to = to % n;
                s.reach(&adj, &up, to);
                proptest::prop_assert_eq!(s.prev[to], whole[to]);
                proptest::prop_assert_eq!(s.seen[to], to == from || whole[to].is_some());
            }
            for (b, want) in whole.iter().enumerate() {
                if s.seen[b] && b != from {
                    proptest::prop_assert_eq!(s.prev[b], *want);
                }
            }
        }
    }

    fn design(src: &str) -> Design {
        let l = load(&SourceFile::new("t.toml", src));
        assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
        l.design.unwrap()
    }

    fn reference(name: &str) -> Design {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/data/reference")
            .join(name);
        let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        design(&text)
    }

    const TRIANGLE: &str = r#"
[design]
name = "triangle"
[networks.mgmt]
role = "management"
vlan = 10
[networks.csv]
role = "csv"
vlan = 20
[switches.core]
vlans = [10]
stp = { mode = "MODE", priority = 4096 REGION }
[switches.tor-a]
stp = { mode = "MODE", mac = "00:00:00:00:00:0a" REGION INSTA }
[switches.tor-b]
stp = { mode = "MODE", mac = "00:00:00:00:00:0b" REGION INSTB }
[[links]]
name = "isl"
a = "tor-a"
b = "tor-b"
speed = "10G"
members = 2
[[links]]
name = "up-a"
a = "tor-a"
b = "core"
speed = "1G"
members = 2
vlans = [10]
[[links]]
name = "up-b"
a = "tor-b"
b = "core"
speed = "1G"
members = 2
vlans = [10]
[profiles.n.nics.A]
speed = "10G"
switch = "tor-a"
networks = ["csv", "mgmt"]
[profiles.n.nics.B]
speed = "10G"
switch = "tor-b"
networks = ["csv", "mgmt"]
[hosts.h1.nics.A]
speed = "10G"
switch = "tor-a"
networks = ["csv", "mgmt"]
[hosts.h2.nics.B]
speed = "10G"
switch = "tor-b"
networks = ["csv", "mgmt"]
"#;

    /// An MLAG domain presents its peers' best priority: for the bridge,
    /// per PVST+ VLAN, and per MSTP instance (which took the first peer's).
    #[test]
    fn an_mlag_domain_takes_its_peers_best_instance_priority() {
        let mst = "mode = \"mstp\", region = \"r\", revision = 1, instances = { 1 = [10] }";
        let d = design(&format!(
            r#"
[design]
name = "t"
[switches.p1]
mlag = "m"
stp = {{ {mst}, priority = 4096, instance_priority = {{ 1 = 8192 }} }}
[switches.p2]
mlag = "m"
stp = {{ {mst}, priority = 4096, instance_priority = {{ 1 = 4096 }} }}
[switches.acc]
stp = {{ {mst} }}
[[links]]
a = "p1"
b = "p2"
kind = "peer-link"
[[links]]
a = "acc"
b = ["p1", "p2"]
members = 2
"#
        ));
        let t = Topology::build(&d);
        let f = Fabric::new(&d, &t).forwarding(&d, &t, &Failures::default());
        let msti = (0..f.stp.trees().len())
            .find(|i| {
                matches!(
                    f.stp.trees()[*i].kind,
                    crate::stp::TreeKind::Msti { instance: 1, .. }
                )
            })
            .unwrap();
        let info = &f.stp.trees()[msti].roots[0];
        assert_eq!(f.stp.bridge_name(info.root), "m");
        assert_eq!(info.priority, 4096);
    }

    fn triangle(mode: &str, mstp: bool) -> Design {
        let (region, a, b) = if mstp {
            (
                ", region = \"r\", revision = 1, instances = { 1 = [20] }",
                ", instance_priority = { 1 = 4096 }",
                ", instance_priority = { 1 = 8192 }",
            )
        } else {
            ("", "", "")
        };
        design(
            &TRIANGLE
                .replace("MODE", mode)
                .replace(" REGION", region)
                .replace(" INSTA", a)
                .replace(" INSTB", b),
        )
    }

    #[test]
    fn rstp_blocks_the_isl_and_cuts_csv() {
        let d = triangle("rstp", false);
        let t = Topology::build(&d);
        let f = Fabric::new(&d, &t).forwarding(&d, &t, &Failures::default());
        let csv = d.network_by_name("csv").unwrap();
        let r = f.reach(&d, &t, csv, HostId(0), HostId(1));
        match r.broken {
            Some(Break::Blocked { ports, .. }) => assert_eq!(ports, vec![0]),
            other => panic!("{other:?}"),
        }
        // Management goes round through the core, over the 1G uplinks.
        let mgmt = d.network_by_name("mgmt").unwrap();
        let r = f.reach(&d, &t, mgmt, HostId(0), HostId(1));
        assert!(r.broken.is_none());
        assert_eq!(r.path, vec![1, 2]);
        assert_eq!(r.slowest.unwrap().1, Some(Speed::from_gbps(1)));
    }

    #[test]
    fn a_block_names_every_parallel_link_that_could_carry_the_vlan() {
        let d = design(
            &TRIANGLE
                .replace("MODE", "rstp")
                .replace(" REGION", "")
                .replace(" INSTA", "")
                .replace(" INSTB", "")
                .replace("name = \"isl\"", "name = \"isl\"\nlag = \"none\""),
        );
        let t = Topology::build(&d);
        let f = Fabric::new(&d, &t).forwarding(&d, &t, &Failures::default());
        let csv = d.network_by_name("csv").unwrap();
        // Both cables of the bundle carry VLAN 20 between tor-a and tor-b,
        // and the tree blocks both.
        match f.reach(&d, &t, csv, HostId(0), HostId(1)).broken {
            Some(Break::Blocked { ports, .. }) => assert_eq!(ports, vec![0, 1]),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn mstp_forwards_the_cluster_instance_on_the_isl() {
        let d = triangle("mstp", true);
        let t = Topology::build(&d);
        let f = Fabric::new(&d, &t).forwarding(&d, &t, &Failures::default());
        let csv = d.network_by_name("csv").unwrap();
        let r = f.reach(&d, &t, csv, HostId(0), HostId(1));
        assert!(r.broken.is_none(), "{:?}", r.broken);
        assert_eq!(r.path, vec![0]);
        let mgmt = d.network_by_name("mgmt").unwrap();
        assert_eq!(f.reach(&d, &t, mgmt, HostId(0), HostId(1)).path, vec![1, 2]);
    }

    #[test]
    fn a_vlan_allowed_nowhere_is_not_carried() {
        let d = design(
            &TRIANGLE
                .replace("MODE", "rstp")
                .replace(" REGION", "")
                .replace(" INSTA", "")
                .replace(" INSTB", "")
                .replace("name = \"isl\"", "name = \"isl\"\nvlans = [10]"),
        );
        let t = Topology::build(&d);
        let f = Fabric::new(&d, &t).forwarding(&d, &t, &Failures::default());
        let csv = d.network_by_name("csv").unwrap();
        match f.reach(&d, &t, csv, HostId(0), HostId(1)).broken {
            Some(Break::NotCarried {
                port: 0,
                why: NotCarried::NotAllowed,
            }) => {}
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn failures_remove_switches_and_cables() {
        let d = triangle("rstp", false);
        let t = Topology::build(&d);
        let fab = Fabric::new(&d, &t);
        let mgmt = d.network_by_name("mgmt").unwrap();
        // Losing one cable of the uplink LAG leaves it up at 1G.
        let mut f = Failures::default();
        f.cables.insert((LinkId(1), 0));
        let fw = fab.forwarding(&d, &t, &f);
        assert_eq!(
            fw.ports[1],
            PortState {
                up: true,
                members: 1
            }
        );
        assert!(fw
            .reach(&d, &t, mgmt, HostId(0), HostId(1))
            .broken
            .is_none());
        // Losing the core: the ISL takes over for management.
        let mut f = Failures::default();
        f.switches.insert(d.switch_by_name("core").unwrap());
        let fw = fab.forwarding(&d, &t, &f);
        let r = fw.reach(&d, &t, mgmt, HostId(0), HostId(1));
        assert!(r.broken.is_none(), "{:?}", r.broken);
        assert_eq!(r.path, vec![0]);
        // Losing h1's only NIC: nothing left.
        let mut f = Failures::default();
        f.nics.insert((HostId(0), NicIdx(0)));
        let fw = fab.forwarding(&d, &t, &f);
        assert_eq!(
            fw.reach(&d, &t, mgmt, HostId(0), HostId(1)).broken,
            Some(Break::NoAdapter { host: HostId(0) })
        );
    }

    /// An MLAG pair under a core (a multi-chassis LAG), hosts with one NIC
    /// on a peer each (orphan ports), the peer-link's list PEER.
    const VPC: &str = r#"
[design]
name = "vpc"
[networks.mgmt]
role = "management"
vlan = 10
[networks.csv]
role = "csv"
vlan = 20
[switches.core]
stp = { mode = "rstp", priority = 4096 }
[switches.a]
mlag = "m"
[switches.b]
mlag = "m"
[[links]]
name = "peer"
a = "a"
b = "b"
kind = "peer-link"
speed = "100G"
members = 2
PEER
[[links]]
name = "up"
a = "core"
b = ["a", "b"]
speed = "10G"
members = 2
[hosts.h1.nics.A]
speed = "10G"
switch = "a"
networks = ["csv", "mgmt"]
[hosts.h2.nics.A]
speed = "10G"
switch = "b"
networks = ["csv", "mgmt"]
[hosts.h3.nics.A]
speed = "10G"
switch = "a"
networks = ["csv", "mgmt"]
[hosts.h4.nics.A]
speed = "10G"
switch = "core"
networks = ["csv", "mgmt"]
"#;

    #[test]
    fn a_peer_link_without_the_vlan_cuts_orphans_of_different_peers() {
        let d = design(&VPC.replace("PEER", "vlans = [10]"));
        let t = Topology::build(&d);
        let fab = Fabric::new(&d, &t);
        let f = fab.forwarding(&d, &t, &Failures::default());
        let (csv, mgmt) = (
            d.network_by_name("csv").unwrap(),
            d.network_by_name("mgmt").unwrap(),
        );
        let (a, b) = (
            d.switch_by_name("a").unwrap(),
            d.switch_by_name("b").unwrap(),
        );
        // Behind different peers: the traffic would cross the peer-link.
        assert_eq!(
            f.reach(&d, &t, csv, HostId(0), HostId(1)).broken,
            Some(Break::PeerLink {
                bridge: t.bridge_of[a.0],
                from: a,
                to: b,
                link: Some(LinkId(0)),
            })
        );
        // Behind one peer: forwarded locally.
        assert!(f.reach(&d, &t, csv, HostId(0), HostId(2)).broken.is_none());
        // The vPC to the core carries VLAN 20 on both peers, which the
        // peer-link does not join: suspended (NX-OS) or black-holed.
        assert_eq!(
            f.reach(&d, &t, csv, HostId(0), HostId(3)).broken,
            Some(Break::NotCarried {
                port: 0,
                why: NotCarried::PeerLink {
                    from: a,
                    to: b,
                    link: Some(LinkId(0)),
                },
            })
        );
        // The peer-link carries VLAN 10: nothing changes for it.
        for (x, y) in [(0, 1), (0, 3), (1, 3)] {
            let r = f.reach(&d, &t, mgmt, HostId(x), HostId(y));
            assert!(r.broken.is_none(), "{x}-{y}: {:?}", r.broken);
        }
        // The topology view's adapter pair is cut too, and explained.
        let ap = f.adapter_paths(&d, &t, csv, HostId(0), HostId(1));
        assert_eq!(ap[0].path, None);
        assert!(matches!(
            f.explain_switches(&d, &t, Some(20), a, b),
            Some(Break::PeerLink { .. })
        ));
        // With peer `b` down, what is left is one switch: the hosts on `a`
        // and the core reach each other again over the LAG's `a` side.
        let mut down = Failures::default();
        down.switches.insert(b);
        let f = fab.forwarding(&d, &t, &down);
        assert!(f.reach(&d, &t, csv, HostId(0), HostId(3)).broken.is_none());
        assert!(f.reach(&d, &t, csv, HostId(0), HostId(2)).broken.is_none());
    }

    #[test]
    fn a_single_link_to_one_peer_reaches_only_that_peers_orphans() {
        // The core hangs off `b` alone; `a` is the domain's first switch.
        let d = design(
            &VPC.replace("PEER", "vlans = [10]")
                .replace("b = [\"a\", \"b\"]", "b = \"b\""),
        );
        let t = Topology::build(&d);
        let f = Fabric::new(&d, &t).forwarding(&d, &t, &Failures::default());
        let csv = d.network_by_name("csv").unwrap();
        let (a, b) = (
            d.switch_by_name("a").unwrap(),
            d.switch_by_name("b").unwrap(),
        );
        // h2 on `b` reaches the core's h4; h1 on `a` would cross the peer-link.
        assert!(f.reach(&d, &t, csv, HostId(1), HostId(3)).broken.is_none());
        assert_eq!(
            f.reach(&d, &t, csv, HostId(0), HostId(3)).broken,
            Some(Break::PeerLink {
                bridge: t.bridge_of[a.0],
                from: a,
                to: b,
                link: Some(LinkId(0)),
            })
        );
    }

    #[test]
    fn a_peer_link_with_every_vlan_keeps_the_domain_one_switch() {
        for peer in ["", "vlans = [10, 20]"] {
            let d = design(&VPC.replace("PEER", peer));
            let t = Topology::build(&d);
            let fab = Fabric::new(&d, &t);
            let f = fab.forwarding(&d, &t, &Failures::default());
            assert!(f.vlan(Some(20)).unwrap().peers.is_none());
            assert!(all_pairs(&d, &t, &f).iter().all(|r| r.broken.is_none()));
            // A peer failing: its orphan host is gone, the rest still reach
            // each other, as before the peers' data plane was modelled.
            let mut down = Failures::default();
            down.switches.insert(d.switch_by_name("a").unwrap());
            let f = fab.forwarding(&d, &t, &down);
            let csv = d.network_by_name("csv").unwrap();
            assert!(f.reach(&d, &t, csv, HostId(1), HostId(3)).broken.is_none());
            assert_eq!(
                f.reach(&d, &t, csv, HostId(0), HostId(1)).broken,
                Some(Break::NoAdapter { host: HostId(0) })
            );
        }
    }

    #[test]
    fn reference_triangles() {
        for (name, csv_cut) in [("rstp-blocks-isl.toml", true), ("mstp-fixed.toml", false)] {
            let d = reference(name);
            let t = Topology::build(&d);
            let f = Fabric::new(&d, &t).forwarding(&d, &t, &Failures::default());
            let pairs = all_pairs(&d, &t, &f);
            let csv = d.network_by_name("csv").unwrap();
            let cut = pairs.iter().any(|r| r.network == csv && r.broken.is_some());
            assert_eq!(cut, csv_cut, "{name}");
            let vms = d.network_by_name("vms").unwrap();
            assert!(
                pairs
                    .iter()
                    .filter(|r| r.network == vms)
                    .all(|r| r.broken.is_none()),
                "{name}"
            );
        }
    }
}
