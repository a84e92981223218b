//! The healthy reachability of every host pair, indexed so that a scenario
//! re-walks only the pairs it can change: what keeps `netlint simulate`'s
//! table of every single failure from walking every pair once per unit.
//!
//! A pair's reachability depends on its hosts' working adapters and on the
//! ports of the paths between their bridges. Where a VLAN's forwarding
//! ports form a forest (every bridge runs spanning tree), the path between
//! two bridges is unique: if no port on it changed (up or down, cables
//! left, forwarding or not), it is still the path. So a scenario changes a
//! pair only when
//! - one of its hosts lost an adapter (a failed NIC, or a failed switch or
//!   peer at the other end of a cable);
//! - a port on one of its adapter paths changed for the pair's VLAN;
//! - one of its adapter pairs had no path and ports that start forwarding
//!   the VLAN touch the healthy components of both of that adapter pair's
//!   bridges (a blocked link takes over and may join them; ports that go
//!   down or lose cables join nothing, and a new path between two
//!   components leaves each through a port that was not forwarding), or
//!   the VLAN splits an MLAG domain before or after (the groups of peers
//!   move with the failure);
//! - the VLAN's forwarding ports close a loop, before or after, so paths
//!   are not unique: then every pair of the VLAN is walked again.
//!
//! All of it per host class ([`Reachability`]): the hosts of a class
//! reach alike and have the same adapters, so the indexes hold each
//! class's adapters (bridge and forwarding component) and each VLAN's
//! forest once, and the class pairs a scenario changes are found from
//! them when it is evaluated: memory grows with the hosts and the classes,
//! not with their pairs; only the pairs a scenario makes slower or joins
//! are listed.

use super::simulate::{slowest_slower_pair, SlowKey};
use crate::l2::{Failures, Forwarding, Reachability, VlanView, Which};
use crate::topology::{NicEnd, Topology};
use netlint_model::{Design, HostId, NetworkId};
use std::collections::{BTreeMap, BTreeSet};

/// A class pair: its group and its two classes, in the order of a pair.
type Key = (usize, u32, u32);

/// A VLAN's forwarding forest, rooted: which side of a forwarding port a
/// bridge is on.
struct Tour {
    /// Per bridge: when the depth-first walk enters and leaves it.
    enter: Vec<u32>,
    leave: Vec<u32>,
    /// Per port: the bridge at its far end from the root, if it forwards.
    child: Vec<Option<usize>>,
    /// The groups of the VLAN with an adapter on a bridge, by when the
    /// walk enters that bridge: the groups with an adapter below a port
    /// are a range of it.
    groups_at: Vec<(u32, usize)>,
}

impl Tour {
    fn new(topo: &Topology, view: &VlanView) -> Tour {
        let n = topo.bridges.len();
        let mut adj: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
        for (i, p) in topo.ports.iter().enumerate() {
            if view.forwarding[i] {
                adj[p.a.0].push((p.b.0, i));
                adj[p.b.0].push((p.a.0, i));
            }
        }
        let (mut enter, mut leave) = (vec![0u32; n], vec![0u32; n]);
        let mut child = vec![None; topo.ports.len()];
        let mut seen = vec![false; n];
        let mut clock = 0u32;
        for root in 0..n {
            if seen[root] {
                continue;
            }
            seen[root] = true;
            enter[root] = clock;
            clock += 1;
            // (bridge, next neighbour to look at)
            let mut stack = vec![(root, 0usize)];
            while let Some(top) = stack.last_mut() {
                let (x, k) = *top;
                if k < adj[x].len() {
                    top.1 += 1;
                    let (y, port) = adj[x][k];
                    if !seen[y] {
                        seen[y] = true;
                        child[port] = Some(y);
                        enter[y] = clock;
                        clock += 1;
                        stack.push((y, 0));
                    }
                } else {
                    leave[x] = clock;
                    stack.pop();
                }
            }
        }
        Tour {
            enter,
            leave,
            child,
            groups_at: Vec::new(),
        }
    }

    /// The groups with an adapter below forwarding port `port`.
    fn groups_below(&self, port: usize) -> BTreeSet<usize> {
        let Some(c) = self.child[port] else {
            return BTreeSet::new();
        };
        let (from, to) = (self.enter[c], self.leave[c]);
        let start = self.groups_at.partition_point(|&(e, _)| e < from);
        self.groups_at[start..]
            .iter()
            .take_while(|&&(e, _)| e < to)
            .map(|&(_, gi)| gi)
            .collect()
    }

    /// Whether `bridge` is on the far side of forwarding port `port`.
    fn below(&self, port: usize, bridge: usize) -> Option<bool> {
        let c = self.child[port]?;
        Some(self.enter[c] <= self.enter[bridge] && self.enter[bridge] < self.leave[c])
    }
}

/// Every host pair's healthy reachability, by host classes, with each
/// class's adapters and each VLAN's forest.
pub struct PairPaths {
    /// The healthy reachability.
    pub reach: Reachability,
    /// Per group, per class: its working adapters cabled to a switch, each
    /// as its bridge and its switch's forwarding component in the healthy
    /// view of the network's VLAN (none without a view).
    adapters: Vec<Vec<Vec<(usize, usize)>>>,
    /// Per group: its network's VLAN.
    vlan_of: Vec<Option<u16>>,
    /// Per switch: the hosts with a NIC cabled to it.
    hosts_on_switch: Vec<BTreeSet<HostId>>,
    /// Per VLAN of a group: its healthy forest, `None` where its
    /// forwarding ports close a loop ([`is_forest`]).
    healthy_forest: BTreeMap<Option<u16>, Option<Tour>>,
    /// Per VLAN: its groups, in order.
    groups_of: BTreeMap<Option<u16>, Vec<usize>>,
    /// Per VLAN: the groups whose classes' adapters lie in more than one
    /// healthy component, by each pair of those components.
    split: BTreeMap<Option<u16>, Split>,
    /// Per switch and per link: its ports, the only ones whose state its
    /// failure changes.
    ports_by_switch: Vec<Vec<usize>>,
    ports_by_link: Vec<Vec<usize>>,
}

/// The groups of one VLAN with adapters in several healthy components:
/// a failure can join a pair of them only through ports that start
/// forwarding at the edges of both components, so only the groups with
/// such a pair of components are walked again.
#[derive(Default)]
struct Split {
    /// (lesser, greater) component -> groups.
    by_pair: BTreeMap<(usize, usize), Vec<usize>>,
    /// Groups with adapters in too many components to index by pair
    /// (walked whenever a port starts forwarding).
    always: Vec<usize>,
}

/// Beyond this many components in one group, the group is not indexed by
/// every pair of them.
const SPLIT_INDEXED: usize = 16;

/// What a scenario changes for the host pairs: per slowdown (network,
/// bottleneck before and after) and per network of pairs it joins, the
/// pairs, each list in the order of the pairs (per network, per cluster,
/// each host with every later host).
pub(super) struct PairChanges {
    pub slow: BTreeMap<SlowKey, Vec<(HostId, HostId)>>,
    pub restored: BTreeMap<NetworkId, Vec<(HostId, HostId)>>,
}

impl PairPaths {
    pub fn new(design: &Design, topo: &Topology, healthy: &Forwarding) -> PairPaths {
        let reach = Reachability::new(design, topo, healthy);
        let mut adapters: Vec<Vec<Vec<(usize, usize)>>> = Vec::new();
        let mut vlan_of = Vec::new();
        for g in reach.groups() {
            let vlan = design.network(g.network()).vlan_id();
            vlan_of.push(vlan);
            let view = healthy.vlan(vlan);
            adapters.push(
                (0..g.classes() as u32)
                    .map(|c| {
                        let Some(view) = view else {
                            return Vec::new();
                        };
                        let h = g.members()[g.hosts_of(c)[0]];
                        healthy
                            .cabled_adapters(topo, h, g.network())
                            .into_iter()
                            .map(|(_, s)| (topo.bridge_of[s.0].0, view.switch_component(topo, s)))
                            .collect()
                    })
                    .collect(),
            );
        }
        let mut hosts_on_switch = vec![BTreeSet::new(); design.switches.len()];
        for h in design.host_ids() {
            for end in topo.nic_ends[h.0].iter().flatten() {
                if let NicEnd::Switch(s) = end {
                    hosts_on_switch[s.0].insert(h);
                }
            }
        }
        let mut split: BTreeMap<Option<u16>, Split> = BTreeMap::new();
        for (gi, ads) in adapters.iter().enumerate() {
            let comps: BTreeSet<usize> = ads.iter().flatten().map(|&(_, c)| c).collect();
            if comps.len() < 2 {
                continue;
            }
            let at = split.entry(vlan_of[gi]).or_default();
            if comps.len() > SPLIT_INDEXED {
                at.always.push(gi);
                continue;
            }
            for &c1 in &comps {
                for &c2 in comps.range(c1 + 1..) {
                    at.by_pair.entry((c1, c2)).or_default().push(gi);
                }
            }
        }
        let vlans: BTreeSet<Option<u16>> = vlan_of.iter().copied().collect();
        let mut healthy_forest: BTreeMap<Option<u16>, Option<Tour>> = vlans
            .into_iter()
            .filter_map(|v| {
                let view = healthy.vlan(v)?;
                Some((v, is_forest(view).then(|| Tour::new(topo, view))))
            })
            .collect();
        let mut groups_of: BTreeMap<Option<u16>, Vec<usize>> = BTreeMap::new();
        for (gi, v) in vlan_of.iter().enumerate() {
            groups_of.entry(*v).or_default().push(gi);
        }
        for (v, tour) in healthy_forest.iter_mut() {
            let Some(tour) = tour else { continue };
            for &gi in groups_of.get(v).into_iter().flatten() {
                let bridges = adapters[gi].iter().flatten().map(|&(b, _)| b);
                tour.groups_at.extend(bridges.map(|b| (tour.enter[b], gi)));
            }
            tour.groups_at.sort_unstable();
            tour.groups_at.dedup();
        }
        let (ports_by_switch, ports_by_link) = topo.ports_by_switch_and_link(design);
        PairPaths {
            reach,
            adapters,
            vlan_of,
            hosts_on_switch,
            healthy_forest,
            groups_of,
            split,
            ports_by_switch,
            ports_by_link,
        }
    }

    /// How many entries the indexes hold (per class its adapters, per
    /// VLAN its forest): a measure of scaling.
    #[cfg(test)]
    fn entries(&self) -> usize {
        self.adapters
            .iter()
            .flatten()
            .map(|a| 1 + a.len())
            .sum::<usize>()
            + self
                .healthy_forest
                .values()
                .flatten()
                .map(|t| t.enter.len() * 2 + t.child.len())
                .sum::<usize>()
    }

    /// Every class pair of the groups of `vlan`.
    fn all_of(&self, vlan: Option<u16>, out: &mut BTreeSet<Key>) {
        for g in self.reach.groups() {
            if self.vlan_of[g.index()] == vlan {
                out.extend(g.class_pairs(Which::All).iter().map(|cp| cp.key()));
            }
        }
    }

    /// Adds the ordered class pairs of group `gi` between class `x` and
    /// every class `keep` accepts, both ways.
    fn add_with(&self, gi: usize, x: u32, keep: impl Fn(u32) -> bool, out: &mut BTreeSet<Key>) {
        let g = self.reach.group(gi);
        for y in 0..g.classes() as u32 {
            if !keep(y) {
                continue;
            }
            for (p, q) in [(x, y), (y, x)] {
                if g.has_pair(p, q) {
                    out.insert((gi, p, q));
                }
            }
        }
    }

    /// The class pairs whose every pair's reachability `failed` may
    /// change (a port on their paths changed, ...; see the module
    /// documentation).
    ///
    /// The ports looked at are those of the failed switches and cables
    /// (no other port changes state) and, in a view of `failed` patched
    /// from `healthy`'s ([`ScenarioForwarding`](crate::l2::ScenarioForwarding)),
    /// the ports it was patched at: what a failure costs here grows with
    /// what it changes, not with the fabric. A view solved in full is
    /// compared port by port.
    fn touched(&self, topo: &Topology, healthy: &Forwarding, failed: &Forwarding) -> BTreeSet<Key> {
        let mut out: BTreeSet<Key> = BTreeSet::new();
        if failed.failures.is_host_local() {
            return out;
        }
        let mut failed_ports: BTreeSet<usize> = BTreeSet::new();
        for s in &failed.failures.switches {
            failed_ports.extend(self.ports_by_switch[s.0].iter().copied());
        }
        for (l, _) in &failed.failures.cables {
            failed_ports.extend(self.ports_by_link[l.0].iter().copied());
        }
        let state_changed: Vec<usize> = failed_ports
            .into_iter()
            .filter(|&p| healthy.ports[p] != failed.ports[p])
            .collect();
        let vlans: BTreeSet<Option<u16>> = self.vlan_of.iter().copied().collect();
        for vlan in vlans {
            let groups = self.groups_of.get(&vlan).map_or(&[][..], Vec::as_slice);
            let (Some(v0), Some(v1)) = (healthy.vlan(vlan), failed.vlan(vlan)) else {
                self.all_of(vlan, &mut out);
                continue;
            };
            // A view the scenario shares with the healthy state forwards
            // alike on every port: only the port states can differ.
            let shared = failed.shares_vlan(healthy, vlan);
            let tour = self.healthy_forest.get(&vlan).and_then(|t| t.as_ref());
            let Some(tour) = tour.filter(|_| shared || is_forest(v1)) else {
                self.all_of(vlan, &mut out);
                continue;
            };
            let changed: Vec<usize> = if shared {
                state_changed.clone()
            } else if let (None, Some(patched)) = (v0.patched_ports(), v1.patched_ports()) {
                let mut ports: Vec<usize> = state_changed
                    .iter()
                    .chain(patched)
                    .copied()
                    .filter(|&p| {
                        v0.forwarding[p] != v1.forwarding[p]
                            || state_changed.binary_search(&p).is_ok()
                    })
                    .collect();
                ports.sort_unstable();
                ports.dedup();
                ports
            } else {
                (0..healthy.ports.len())
                    .filter(|&p| {
                        healthy.ports[p] != failed.ports[p] || v0.forwarding[p] != v1.forwarding[p]
                    })
                    .collect()
            };
            if changed.is_empty() {
                continue;
            }
            // The class pairs with an adapter path over a changed port: on
            // a forest, the pairs with adapters in one forwarding component
            // on the two sides of the port. Found from the smaller side.
            for &p in &changed {
                let Some(c) = tour.child[p] else { continue };
                let tree = v0.component[c];
                // Only a group with an adapter below the port has a pair
                // across it.
                for gi in tour.groups_below(p) {
                    let ads = &self.adapters[gi];
                    let side = |x: usize, below: bool| {
                        ads[x].iter().any(|&(b, _)| {
                            v0.component[b] == tree && tour.below(p, b) == Some(below)
                        })
                    };
                    let inside: Vec<u32> = (0..ads.len())
                        .filter(|&x| side(x, true))
                        .map(|x| x as u32)
                        .collect();
                    if inside.is_empty() {
                        continue;
                    }
                    let outside: Vec<u32> = (0..ads.len())
                        .filter(|&x| side(x, false))
                        .map(|x| x as u32)
                        .collect();
                    let from = if inside.len() <= outside.len() {
                        inside
                    } else {
                        outside
                    };
                    let crosses = |x: u32, y: u32| {
                        ads[x as usize].iter().any(|&(bx, cx)| {
                            ads[y as usize]
                                .iter()
                                .any(|&(by, cy)| cx == cy && tour.below(p, bx) != tour.below(p, by))
                        })
                    };
                    for x in from {
                        self.add_with(gi, x, |y| crosses(x, y), &mut out);
                    }
                }
            }
            // Pairs without a path are joined only by ports that start
            // forwarding at the edges of both their components: a port
            // that goes down or loses cables joins nothing. Where the VLAN
            // splits an MLAG domain the groups of peers depend on the
            // failure too, so every such pair is walked again.
            if v0.peers.is_some() || v1.peers.is_some() {
                for &gi in groups {
                    self.unjoined(gi, &mut out);
                }
            } else if !shared {
                let ends: BTreeSet<usize> = changed
                    .iter()
                    .filter(|&&p| v1.forwarding[p] && !v0.forwarding[p])
                    .flat_map(|&p| {
                        let port = &topo.ports[p];
                        [v0.component[port.a.0], v0.component[port.b.0]]
                    })
                    .collect();
                for gi in self.joinable(vlan, &ends) {
                    self.unjoined(gi, &mut out);
                }
            }
        }
        out
    }

    /// The groups of `vlan` with adapters in two healthy components that
    /// are both at the end of a port that starts forwarding (`ends`).
    fn joinable(&self, vlan: Option<u16>, ends: &BTreeSet<usize>) -> BTreeSet<usize> {
        let mut out = BTreeSet::new();
        let Some(split) = self.split.get(&vlan).filter(|_| !ends.is_empty()) else {
            return out;
        };
        out.extend(split.always.iter().copied());
        if ends.len() <= SPLIT_INDEXED {
            for &c1 in ends {
                for &c2 in ends.range(c1 + 1..) {
                    out.extend(split.by_pair.get(&(c1, c2)).into_iter().flatten().copied());
                }
            }
        } else {
            let both = split
                .by_pair
                .iter()
                .filter(|((c1, c2), _)| ends.contains(c1) && ends.contains(c2));
            out.extend(both.flat_map(|(_, g)| g.iter().copied()));
        }
        out
    }

    /// The class pairs of group `gi` with a pair of adapters in different
    /// forwarding components (no path): per pair of the classes' sets of
    /// components, so a group whose adapters are all in one component
    /// costs one look per class.
    fn unjoined(&self, gi: usize, out: &mut BTreeSet<Key>) {
        let ads = &self.adapters[gi];
        let mut by_set: BTreeMap<Vec<usize>, Vec<u32>> = BTreeMap::new();
        for (x, a) in ads.iter().enumerate() {
            let mut set: Vec<usize> = a.iter().map(|(_, c)| *c).collect();
            set.sort_unstable();
            set.dedup();
            if !set.is_empty() {
                by_set.entry(set).or_default().push(x as u32);
            }
        }
        if by_set.len() == 1 && by_set.keys().all(|s| s.len() == 1) {
            return;
        }
        let g = self.reach.group(gi);
        for (s1, xs) in &by_set {
            for (s2, ys) in &by_set {
                if s1 == s2 && s1.len() == 1 {
                    continue;
                }
                for &x in xs {
                    for &y in ys {
                        if g.has_pair(x, y) {
                            out.insert((gi, x, y));
                        }
                    }
                }
            }
        }
    }

    /// The pairs `failed` makes slower and the pairs it joins: the pairs it
    /// may change (the class pairs [`PairPaths::touched`] names and the
    /// pairs of hosts that lose an adapter), walked once per part of a
    /// class pair whose hosts are alike in both scenarios.
    pub(super) fn changes(
        &self,
        design: &Design,
        topo: &Topology,
        healthy: &Forwarding,
        failed: &Forwarding,
    ) -> PairChanges {
        let whole = self.touched(topo, healthy, failed);
        let losing = self.hosts_losing_adapters(topo, &failed.failures);
        // Listed with the cluster's place, to sort into the order of the
        // pairs (per network: cluster, then host order).
        type Listed = Vec<(usize, HostId, HostId)>;
        let mut slow: BTreeMap<SlowKey, Listed> = BTreeMap::new();
        let mut restored: BTreeMap<NetworkId, Listed> = BTreeMap::new();
        self.reach
            .changed_parts(design, topo, failed, &whole, &losing, |part| {
                let (a, b) = part.first();
                let network = part.network();
                let cluster = part.order().0;
                let listed = || part.pairs().map(move |(a, b)| (cluster, a, b));
                let reaches = failed.reaches(design, topo, network, a, b);
                if !part.reaches() {
                    if reaches {
                        restored.entry(network).or_default().extend(listed());
                    }
                    return;
                }
                if !reaches {
                    return;
                }
                if let Some(((s0, p0), (s1, p1))) =
                    slowest_slower_pair(design, topo, (healthy, failed), network, (a, b))
                {
                    slow.entry((network, s0, Some(p0), s1, Some(p1)))
                        .or_default()
                        .extend(listed());
                }
            });
        let sorted = |mut v: Listed| -> Vec<(HostId, HostId)> {
            v.sort();
            v.into_iter().map(|(_, a, b)| (a, b)).collect()
        };
        PairChanges {
            slow: slow.into_iter().map(|(k, v)| (k, sorted(v))).collect(),
            restored: restored.into_iter().map(|(k, v)| (k, sorted(v))).collect(),
        }
    }

    /// Hosts with an adapter that lost its link: a failed NIC, or a failed
    /// switch or peer NIC at the other end of its cable; and the peers of
    /// failed NICs.
    fn hosts_losing_adapters(&self, topo: &Topology, failures: &Failures) -> BTreeSet<HostId> {
        let mut out = BTreeSet::new();
        for (h, n) in &failures.nics {
            out.insert(*h);
            if let Some(NicEnd::Peer(ph, _)) = topo.nic_ends[h.0][n.0] {
                out.insert(ph);
            }
        }
        for s in &failures.switches {
            out.extend(self.hosts_on_switch[s.0].iter().copied());
        }
        out
    }
}

/// Whether a VLAN's forwarding ports form a forest: as many ports as
/// bridges minus components, so no two paths join the same bridges.
fn is_forest(view: &VlanView) -> bool {
    let bridges = view.component.len();
    let components: BTreeSet<usize> = view.component.iter().copied().collect();
    let forwarding = view.forwarding.iter().filter(|f| **f).count();
    forwarding + components.len() == bridges
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::l2::Fabric;
    use netlint_model::{load, SourceFile};

    /// The indexes hold classes: a cluster of 60 hosts built alike
    /// indexes as many entries as one of 4, where a record per host pair
    /// would hold 1,770 per network instead of 6.
    #[test]
    fn indexes_do_not_grow_with_the_hosts_of_a_class() {
        let entries = |hosts: usize| {
            let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../fixtures/team-rdma.toml");
            let mut src = std::fs::read_to_string(fixture).unwrap();
            for i in 4..=hosts {
                src.push_str(&format!("\n[hosts.hv{i}]\nprofile = \"node\"\n"));
            }
            let l = load(&SourceFile::new("t.toml", &src));
            let d = l.design.unwrap_or_else(|| panic!("{:#?}", l.diagnostics));
            let t = Topology::build(&d);
            let f = Fabric::new(&d, &t).forwarding(&d, &t, &Failures::default());
            let p = PairPaths::new(&d, &t, &f);
            assert_eq!(p.reach.len(), d.networks.len() * hosts * (hosts - 1) / 2);
            p.entries()
        };
        let small = entries(4);
        assert!(small > 0);
        assert_eq!(entries(60), small);
    }

    /// Hosts on distinct access switches are classes of their own: the
    /// indexes grow with them, not with their pairs (four times the hosts,
    /// four times the entries give or take the fabric's own).
    #[test]
    fn indexes_grow_linearly_with_hosts_on_distinct_switches() {
        let entries = |access: usize| {
            let mut s = String::from(
                "[design]\nname = \"t\"\n[networks.mgmt]\nrole = \"management\"\nvlan = 10\n\
                 [switches.core]\nstp = { mode = \"rstp\", priority = 4096 }\n",
            );
            for k in 0..access {
                s.push_str(&format!(
                    "[switches.acc{k}]\n[[links]]\nname = \"up{k}\"\na = \"core\"\nb = \"acc{k}\"\nspeed = \"100G\"\n\
                     [hosts.h{k}]\ncluster = \"c\"\nnics.A = {{ speed = \"25G\", switch = \"acc{k}\", networks = [\"mgmt\"] }}\n"
                ));
            }
            let l = load(&SourceFile::new("t.toml", &s));
            let d = l.design.unwrap_or_else(|| panic!("{:#?}", l.diagnostics));
            let t = Topology::build(&d);
            let f = Fabric::new(&d, &t).forwarding(&d, &t, &Failures::default());
            PairPaths::new(&d, &t, &f).entries()
        };
        let (small, large) = (entries(50), entries(200));
        assert!(large <= 4 * small + 16, "{small} -> {large}");
    }
}
