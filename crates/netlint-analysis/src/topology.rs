//! The topology graph: logical bridges (a switch, a stack, an MLAG domain),
//! the ports between them (a LAG is one port; `lag = "none"` with several
//! members gives parallel ports), host NIC attachments, and per host the
//! adapters that can carry each network.
//!
//! Built once per design (and once per failure scenario by the failure
//! analysis, which removes switches, cables or NICs); every later analysis
//! (spanning tree, forwarding, reachability, bandwidth) reads it.

use crate::union_find::UnionFind;
use netlint_model::{
    Attachment, Design, HostId, LinkId, LinkKind, NetworkId, NicIdx, Speed, SwitchId, TeamIdx,
    Uplink, VSwitchIdx,
};
use petgraph::graph::{EdgeIndex, NodeIndex, UnGraph};
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BridgeId(pub usize);

/// Why several switches form one bridge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BridgeKind {
    Switch,
    /// Switches sharing a `stack` name (or joined by `kind = "stack"` cables).
    Stack,
    /// An MLAG / vPC / VLT domain (`mlag`, or joined by a `peer-link`).
    Mlag,
}

#[derive(Clone, Debug)]
pub struct Bridge {
    /// The switch name, or the stack / MLAG domain name.
    pub name: String,
    pub kind: BridgeKind,
    /// Member switches in file order (one for a plain switch).
    pub members: Vec<SwitchId>,
}

/// One spanning-tree port between two bridges: a LAG (all its members, one
/// port), a single cable, or one cable of a `lag = "none"` bundle.
#[derive(Clone, Debug)]
pub struct Port {
    pub link: LinkId,
    /// For a `lag = "none"` bundle: which cable (0-based); `None` for a LAG
    /// or a single cable.
    pub cable: Option<u32>,
    pub a: BridgeId,
    pub b: BridgeId,
    /// Member switches at each end (a multi-chassis LAG has several at `b`,
    /// a double-sided one at both ends).
    pub a_switches: Vec<SwitchId>,
    pub b_switches: Vec<SwitchId>,
    /// Speed of one cable; None: not stated.
    pub member_speed: Option<Speed>,
    /// Cables in this port.
    pub members: u32,
}

impl Port {
    /// Every switch the port touches: its `a` end, then its `b` end.
    pub fn switches(&self) -> impl Iterator<Item = SwitchId> + '_ {
        self.a_switches.iter().chain(&self.b_switches).copied()
    }
    /// Aggregate speed (what STP costs are computed from); None: unknown.
    pub fn speed(&self) -> Option<Speed> {
        self.member_speed.map(|s| s.times(self.members as u64))
    }
}

/// What a host NIC is cabled to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NicEnd {
    Switch(SwitchId),
    Peer(HostId, NicIdx),
}

/// How a network's host interface sits on the host (the model's, which
/// also names it: [`netlint_model::Host::via_element`]).
pub use netlint_model::Via;

/// A network's way onto the wire at one host.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Carrier {
    pub network: NetworkId,
    pub via: Via,
    /// Physical NICs that carry it in the healthy state.
    pub active: Vec<NicIdx>,
    /// NICs that take over when every active one has failed.
    pub standby: Vec<NicIdx>,
}

#[derive(Clone, Debug)]
pub enum Node {
    Bridge(BridgeId),
    Nic(HostId, NicIdx),
}

#[derive(Clone, Debug)]
pub enum Edge {
    /// Index into `Topology::ports`.
    Port(usize),
    /// A host NIC's cable to a switch (member switch recorded).
    HostCable {
        host: HostId,
        nic: NicIdx,
        switch: SwitchId,
    },
    /// A direct cable between two host NICs.
    PeerCable,
}

#[derive(Clone, Debug)]
pub struct Topology {
    pub bridges: Vec<Bridge>,
    /// The bridge of each switch, by `SwitchId`.
    pub bridge_of: Vec<BridgeId>,
    pub ports: Vec<Port>,
    /// Stacking cables and MLAG peer-links, and ethernet links between
    /// members of one bridge: inside a bridge, never a spanning-tree port.
    pub internal_links: Vec<LinkId>,
    /// Routed links and links to a device with `managed = false`: cabling
    /// the topology view and failure scenarios show, but no bridge port
    /// (see [`Design::bridges_link`]).
    pub cabling_links: Vec<LinkId>,
    /// The MLAG domains whose peers a VLAN could split (see
    /// [`crate::l2::peer_groups`]), each with its links between peers: a
    /// domain of three or more peers, or one with a link between peers
    /// that lists its `vlans`. Empty in most designs, which lets the
    /// forwarding of every failure scenario skip the question.
    pub splittable_domains: Vec<(BridgeId, Vec<LinkId>)>,
    /// Per host (by `HostId`), per NIC: what it is cabled to.
    pub nic_ends: Vec<Vec<Option<NicEnd>>>,
    /// Per host: every carrier of every network on it, in file order.
    pub carriers: Vec<Vec<Carrier>>,
    /// Bridges, NICs, ports and cables as one undirected graph.
    pub graph: UnGraph<Node, Edge>,
    pub bridge_nodes: Vec<NodeIndex>,
    /// Per host, per NIC: its graph node.
    pub nic_nodes: Vec<Vec<NodeIndex>>,
    /// Graph edge of each port.
    pub port_edges: Vec<EdgeIndex>,
}

impl Topology {
    pub fn build(design: &Design) -> Topology {
        let n = design.switches.len();
        // The earlier switch in the file names the group.
        let mut groups = UnionFind::new(n);
        let mut kind = vec![BridgeKind::Switch; n];
        let mut by_stack: BTreeMap<&str, usize> = BTreeMap::new();
        let mut by_mlag: BTreeMap<&str, usize> = BTreeMap::new();
        for (i, sw) in design.switches.iter().enumerate() {
            if let Some(s) = &sw.stack {
                let first = *by_stack.entry(s.value.as_str()).or_insert(i);
                groups.union(first, i);
                kind[i] = BridgeKind::Stack;
            }
            if let Some(m) = &sw.mlag {
                let first = *by_mlag.entry(m.value.as_str()).or_insert(i);
                groups.union(first, i);
                if kind[i] == BridgeKind::Switch {
                    kind[i] = BridgeKind::Mlag;
                }
            }
        }
        for link in &design.links {
            let k = match link.kind.value {
                LinkKind::Stack => BridgeKind::Stack,
                LinkKind::PeerLink => BridgeKind::Mlag,
                LinkKind::Ethernet | LinkKind::Routed => continue,
            };
            for b in &link.b {
                groups.union(link.a.value.0, b.value.0);
                for s in [link.a.value.0, b.value.0] {
                    if kind[s] == BridgeKind::Switch {
                        kind[s] = k;
                    }
                }
            }
        }

        let mut bridges: Vec<Bridge> = Vec::new();
        let mut bridge_of = vec![BridgeId(0); n];
        let mut root_to_bridge: BTreeMap<usize, BridgeId> = BTreeMap::new();
        for (i, slot) in bridge_of.iter_mut().enumerate() {
            let root = groups.find(i);
            let id = *root_to_bridge.entry(root).or_insert_with(|| {
                bridges.push(Bridge {
                    name: String::new(),
                    kind: BridgeKind::Switch,
                    members: Vec::new(),
                });
                BridgeId(bridges.len() - 1)
            });
            bridges[id.0].members.push(SwitchId(i));
            *slot = id;
        }
        for b in &mut bridges {
            let first = b.members[0].0;
            let sw = &design.switches[first];
            if b.members.len() == 1 {
                b.name = sw.name.clone();
                b.kind = BridgeKind::Switch;
            } else {
                b.kind = if b.members.iter().any(|m| kind[m.0] == BridgeKind::Stack) {
                    BridgeKind::Stack
                } else {
                    BridgeKind::Mlag
                };
                let group_name = match b.kind {
                    BridgeKind::Stack => sw.stack.as_ref().map(|s| s.value.clone()),
                    _ => sw.mlag.as_ref().map(|s| s.value.clone()),
                };
                b.name = group_name.unwrap_or_else(|| {
                    b.members
                        .iter()
                        .map(|m| design.switches[m.0].name.as_str())
                        .collect::<Vec<_>>()
                        .join("+")
                });
            }
        }

        let mut graph: UnGraph<Node, Edge> = UnGraph::default();
        let bridge_nodes: Vec<NodeIndex> = (0..bridges.len())
            .map(|i| graph.add_node(Node::Bridge(BridgeId(i))))
            .collect();

        let mut ports = Vec::new();
        let mut internal_links = Vec::new();
        let mut cabling_links = Vec::new();
        let mut port_edges = Vec::new();
        for (li, link) in design.links.iter().enumerate() {
            if !design.bridges_link(link) {
                cabling_links.push(LinkId(li));
                continue;
            }
            let a = bridge_of[link.a.value.0];
            let bs: Vec<BridgeId> = link.b.iter().map(|s| bridge_of[s.value.0]).collect();
            let b = bs[0];
            if link.kind.value != LinkKind::Ethernet || bs.iter().all(|x| *x == a) {
                internal_links.push(LinkId(li));
                continue;
            }
            let parallel = !link.is_lag() && link.members.value > 1;
            let cables: Vec<Option<u32>> = if parallel {
                (0..link.members.value).map(Some).collect()
            } else {
                vec![None]
            };
            for cable in cables {
                let port = Port {
                    link: LinkId(li),
                    cable,
                    a,
                    b,
                    a_switches: link.a_ends().map(|s| s.value).collect(),
                    b_switches: link.b.iter().map(|s| s.value).collect(),
                    member_speed: link.speed.as_ref().map(|s| s.value),
                    members: if parallel { 1 } else { link.members.value },
                };
                let e = graph.add_edge(
                    bridge_nodes[a.0],
                    bridge_nodes[b.0],
                    Edge::Port(ports.len()),
                );
                port_edges.push(e);
                ports.push(port);
            }
        }

        let mut nic_ends = Vec::with_capacity(design.hosts.len());
        let mut nic_nodes = Vec::with_capacity(design.hosts.len());
        for (hi, host) in design.hosts.iter().enumerate() {
            let mut ends = Vec::with_capacity(host.nics.len());
            let mut nodes = Vec::with_capacity(host.nics.len());
            for (ni, nic) in host.nics.iter().enumerate() {
                let node = graph.add_node(Node::Nic(HostId(hi), NicIdx(ni)));
                nodes.push(node);
                ends.push(nic.attach.as_ref().map(|a| match a {
                    Attachment::Switch(s) => NicEnd::Switch(s.value),
                    Attachment::Peer { host, nic, .. } => NicEnd::Peer(*host, *nic),
                }));
            }
            nic_ends.push(ends);
            nic_nodes.push(nodes);
        }
        for (hi, ends) in nic_ends.iter().enumerate() {
            for (ni, end) in ends.iter().enumerate() {
                match end {
                    Some(NicEnd::Switch(s)) => {
                        graph.add_edge(
                            nic_nodes[hi][ni],
                            bridge_nodes[bridge_of[s.0].0],
                            Edge::HostCable {
                                host: HostId(hi),
                                nic: NicIdx(ni),
                                switch: *s,
                            },
                        );
                    }
                    // Each direct cable once: from the lower (host, nic) end.
                    Some(NicEnd::Peer(oh, on)) if (hi, ni) < (oh.0, on.0) => {
                        graph.add_edge(nic_nodes[hi][ni], nic_nodes[oh.0][on.0], Edge::PeerCable);
                    }
                    _ => {}
                }
            }
        }

        let carriers = design.hosts.iter().map(host_carriers).collect();
        let mut inside: Vec<Vec<LinkId>> = vec![Vec::new(); bridges.len()];
        for l in &internal_links {
            inside[bridge_of[design.link(*l).a.value.0].0].push(*l);
        }
        let splittable_domains = inside
            .into_iter()
            .enumerate()
            .filter(|(b, links)| {
                bridges[*b].kind == BridgeKind::Mlag
                    && !links.is_empty()
                    && (bridges[*b].members.len() > 2
                        || links.iter().any(|l| design.link(*l).vlans.is_some()))
            })
            .map(|(b, links)| (BridgeId(b), links))
            .collect();
        Topology {
            bridges,
            bridge_of,
            ports,
            internal_links,
            cabling_links,
            splittable_domains,
            nic_ends,
            carriers,
            graph,
            bridge_nodes,
            nic_nodes,
            port_edges,
        }
    }

    pub fn bridge(&self, id: BridgeId) -> &Bridge {
        &self.bridges[id.0]
    }

    /// The ports at each switch (a port of a multi-chassis LAG is at each of
    /// its switches) and the ports of each link: what a failed switch or
    /// cable touches.
    pub fn ports_by_switch_and_link(&self, design: &Design) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
        let mut by_switch = vec![Vec::new(); design.switches.len()];
        let mut by_link = vec![Vec::new(); design.links.len()];
        for (i, p) in self.ports.iter().enumerate() {
            by_link[p.link.0].push(i);
            for s in p.switches() {
                if by_switch[s.0].last() != Some(&i) {
                    by_switch[s.0].push(i);
                }
            }
        }
        (by_switch, by_link)
    }

    /// The carriers of one network on one host.
    pub fn carriers_of(&self, host: HostId, network: NetworkId) -> impl Iterator<Item = &Carrier> {
        self.carriers[host.0]
            .iter()
            .filter(move |c| c.network == network)
    }

    /// Hosts that have at least one carrier of the network.
    pub fn hosts_on(&self, network: NetworkId) -> Vec<HostId> {
        (0..self.carriers.len())
            .filter(|h| self.carriers[*h].iter().any(|c| c.network == network))
            .map(HostId)
            .collect()
    }
}

/// Every way each network gets onto the wire at this host.
pub fn host_carriers(host: &netlint_model::Host) -> Vec<Carrier> {
    let mut out = Vec::new();
    let team_split = |t: TeamIdx| -> (Vec<NicIdx>, Vec<NicIdx>) {
        let team = &host.teams[t.0];
        let standby = team.standby.as_ref().map(|s| s.value);
        let active = team
            .members
            .iter()
            .map(|m| m.value)
            .filter(|m| Some(*m) != standby)
            .collect();
        (active, standby.into_iter().collect())
    };
    let uplink_split = |u: Uplink| -> (Vec<NicIdx>, Vec<NicIdx>) {
        match u {
            Uplink::Nic(n) => (vec![n], vec![]),
            Uplink::Team(t) => team_split(t),
        }
    };
    for (ni, nic) in host.nics.iter().enumerate() {
        for net in &nic.networks {
            out.push(Carrier {
                network: net.value,
                via: Via::Nic(NicIdx(ni)),
                active: vec![NicIdx(ni)],
                standby: vec![],
            });
        }
    }
    for (ti, team) in host.teams.iter().enumerate() {
        let (active, standby) = team_split(TeamIdx(ti));
        for net in &team.networks {
            out.push(Carrier {
                network: net.value,
                via: Via::Team(TeamIdx(ti)),
                active: active.clone(),
                standby: standby.clone(),
            });
        }
    }
    for (vi, vs) in host.vswitches.iter().enumerate() {
        let (mut active, mut standby) = (Vec::new(), Vec::new());
        for u in &vs.uplinks {
            let (a, s) = uplink_split(u.value);
            active.extend(a);
            standby.extend(s);
        }
        for net in &vs.networks {
            out.push(Carrier {
                network: net.value,
                via: Via::Guest(VSwitchIdx(vi)),
                active: active.clone(),
                standby: standby.clone(),
            });
        }
        for (k, vnic) in vs.vnics.iter().enumerate() {
            let (a, s) = if vnic.active_uplinks.is_empty() {
                let pinned_standby: Vec<NicIdx> =
                    vnic.standby_uplinks.iter().map(|x| x.value).collect();
                let a: Vec<NicIdx> = active
                    .iter()
                    .copied()
                    .filter(|n| !pinned_standby.contains(n))
                    .collect();
                let mut s = standby.clone();
                s.extend(pinned_standby);
                (a, s)
            } else {
                // Pinned (SET affinity, vSphere active list): the other
                // uplinks take over only when listed as standby (vSphere) or,
                // on Hyper-V, implicitly (SET fails a pinned vNIC over).
                // A pin to a NIC outside this switch's uplinks pins nothing.
                let ours = |n: &NicIdx| active.contains(n) || standby.contains(n);
                let a: Vec<NicIdx> = vnic
                    .active_uplinks
                    .iter()
                    .map(|x| x.value)
                    .filter(ours)
                    .collect();
                let a = if a.is_empty() { active.clone() } else { a };
                let s: Vec<NicIdx> =
                    if vnic.standby_uplinks.is_empty() && !host.os.value.is_vsphere() {
                        active
                            .iter()
                            .chain(&standby)
                            .copied()
                            .filter(|n| !a.contains(n))
                            .collect()
                    } else {
                        vnic.standby_uplinks.iter().map(|x| x.value).collect()
                    };
                (a, s)
            };
            out.push(Carrier {
                network: vnic.network.value,
                via: Via::VNic(VSwitchIdx(vi), k),
                active: a,
                standby: s,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use netlint_model::{load, SourceFile};

    fn design(src: &str) -> Design {
        let l = load(&SourceFile::new("t.toml", src));
        assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
        l.design.unwrap()
    }

    #[test]
    fn stacks_and_mlag_domains_are_one_bridge() {
        let d = design(
            r#"
[design]
name = "t"
[switches.s1]
stack = "st"
[switches.s2]
stack = "st"
[switches.m1]
mlag = "vlt"
[switches.m2]
mlag = "vlt"
[switches.core]
[[links]]
a = "m1"
b = "m2"
kind = "peer-link"
speed = "100G"
[[links]]
a = "core"
b = ["m1", "m2"]
speed = "10G"
members = 2
[[links]]
name = "par"
a = "core"
b = "s1"
speed = "1G"
members = 2
lag = "none"
[[links]]
a = "s1"
b = "s2"
kind = "stack"
speed = "40G"
"#,
        );
        let t = Topology::build(&d);
        assert_eq!(t.bridges.len(), 3);
        assert_eq!(t.bridges[0].name, "st");
        assert_eq!(t.bridges[0].kind, BridgeKind::Stack);
        assert_eq!(t.bridges[1].name, "vlt");
        assert_eq!(t.bridges[1].kind, BridgeKind::Mlag);
        assert_eq!(t.bridges[1].members.len(), 2);
        // The multi-chassis LAG is one port of 20G; the lag = "none" bundle
        // two parallel 1G ports; the stack and peer links are internal.
        assert_eq!(t.ports.len(), 3);
        assert_eq!(t.ports[0].speed(), Some(Speed::from_gbps(20)));
        assert_eq!((t.ports[1].cable, t.ports[2].cable), (Some(0), Some(1)));
        assert_eq!(t.internal_links.len(), 2);
    }

    #[test]
    fn carriers_follow_teams_vswitches_and_pinning() {
        let d = design(
            r#"
[design]
name = "t"
[networks.mgmt]
role = "management"
[networks.smb1]
role = "storage"
protocol = "smb"
vlan = 711
[networks.vm]
role = "vm"
vlan = 100
[switches.sw]
[hosts.h.nics.A]
speed = "25G"
switch = "sw"
[hosts.h.nics.B]
speed = "25G"
switch = "sw"
[hosts.h.nics.C]
speed = "1G"
[hosts.h.nics.D]
speed = "1G"
[hosts.h.teams.T]
members = ["C", "D"]
standby = "D"
networks = ["mgmt"]
[hosts.h.vswitches.S]
uplinks = ["A", "B"]
networks = ["vm"]
[hosts.h.vswitches.S.vnics.SMB1]
network = "smb1"
active_uplinks = ["A"]
"#,
        );
        let t = Topology::build(&d);
        let c = &t.carriers[0];
        assert_eq!(c.len(), 3);
        assert_eq!(
            (c[0].active.clone(), c[0].standby.clone()),
            (vec![NicIdx(2)], vec![NicIdx(3)])
        );
        assert_eq!(c[1].via, Via::Guest(VSwitchIdx(0)));
        assert_eq!(c[1].active, vec![NicIdx(0), NicIdx(1)]);
        assert_eq!(
            (c[2].active.clone(), c[2].standby.clone()),
            (vec![NicIdx(0)], vec![NicIdx(1)])
        );
        assert_eq!(t.nic_ends[0][2], None);
        assert_eq!(t.graph.edge_count(), 2);
    }
}
