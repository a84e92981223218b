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
//!   components leaves each through a port that was not forwarding),
//!   or the VLAN splits an MLAG domain before or after (the groups of
//!   peers move with the failure);
//! - the VLAN's forwarding ports close a loop, before or after, so paths
//!   are not unique: then every pair of the VLAN is walked again.
//!
//! All of it per pair of host classes ([`Reachability::class_pairs`]):
//! the hosts of a class reach alike, so the indexes, the walks and the
//! memory grow with the classes and the hosts, not with the host pairs;
//! only the pairs a scenario makes slower or joins are listed.

use super::simulate::{slowest_slower_pair, SlowKey};
use crate::l2::{Failures, Forwarding, Reachability, VlanView};
use crate::topology::{NicEnd, Topology};
use netlint_model::{Design, HostId, NetworkId};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Every host pair's healthy reachability, by pairs of host classes, with
/// indexes of the class pairs by port crossed and by VLAN.
pub struct PairPaths {
    /// The healthy reachability.
    pub reach: Reachability,
    /// Per port: the class pairs (positions in `reach.class_pairs()`) with
    /// an adapter path over it.
    by_port: Vec<Vec<usize>>,
    /// Per VLAN: the class pairs with an adapter pair that has no path.
    unjoined: BTreeMap<Option<u16>, Vec<usize>>,
    /// Per VLAN: the same class pairs by the healthy components of the two
    /// bridges of each adapter pair without a path (the lesser first): a
    /// pair is joined only if ports that start forwarding end in both.
    unjoined_at: UnjoinedAt,
    /// Per VLAN: every class pair on a network of that VLAN.
    by_vlan: BTreeMap<Option<u16>, Vec<usize>>,
    /// Per class pair: its network's VLAN.
    vlan_of: Vec<Option<u16>>,
    /// Per switch: the hosts with a NIC cabled to it.
    hosts_on_switch: Vec<BTreeSet<HostId>>,
    /// Per VLAN of `by_vlan`: whether its healthy forwarding ports form a
    /// forest ([`is_forest`]), worked out once.
    healthy_forest: BTreeMap<Option<u16>, bool>,
}

/// Per VLAN: class pairs by the (lesser, greater) healthy components of an
/// adapter pair of theirs without a path.
type UnjoinedAt = BTreeMap<Option<u16>, HashMap<(usize, usize), Vec<usize>>>;

/// What a scenario changes for the host pairs: per slowdown (network,
/// bottleneck before and after) and per network of pairs it joins, the
/// pairs, each list in the order of [`Reachability::iter`].
pub(super) struct PairChanges {
    pub slow: BTreeMap<SlowKey, Vec<(HostId, HostId)>>,
    pub restored: BTreeMap<NetworkId, Vec<(HostId, HostId)>>,
}

impl PairPaths {
    pub fn new(design: &Design, topo: &Topology, healthy: &Forwarding) -> PairPaths {
        let reach = Reachability::new(design, topo, healthy);
        let mut by_port = vec![Vec::new(); topo.ports.len()];
        let mut unjoined: BTreeMap<Option<u16>, Vec<usize>> = BTreeMap::new();
        let mut unjoined_at: UnjoinedAt = BTreeMap::new();
        let mut by_vlan: BTreeMap<Option<u16>, Vec<usize>> = BTreeMap::new();
        let mut vlan_of = Vec::new();
        for (i, cp) in reach.class_pairs().iter().enumerate() {
            let r = cp.walked();
            let vlan = design.network(r.network).vlan_id();
            vlan_of.push(vlan);
            by_vlan.entry(vlan).or_default().push(i);
            let mut crossed: BTreeSet<usize> = BTreeSet::new();
            for ap in healthy.adapter_paths(design, topo, r.network, r.a, r.b) {
                match ap.path {
                    Some(path) => crossed.extend(path),
                    None => {
                        unjoined.entry(vlan).or_default().push(i);
                        if let Some(view) = healthy.vlan(vlan) {
                            let at = unjoined_at.entry(vlan).or_default();
                            let (x, y) = (view.component[ap.from.0], view.component[ap.to.0]);
                            at.entry((x.min(y), x.max(y))).or_default().push(i);
                        }
                    }
                }
            }
            for p in crossed {
                by_port[p].push(i);
            }
        }
        for v in unjoined.values_mut() {
            v.dedup();
        }
        for v in unjoined_at.values_mut().flat_map(|m| m.values_mut()) {
            v.dedup();
        }
        let mut hosts_on_switch = vec![BTreeSet::new(); design.switches.len()];
        for h in design.host_ids() {
            for end in topo.nic_ends[h.0].iter().flatten() {
                if let NicEnd::Switch(s) = end {
                    hosts_on_switch[s.0].insert(h);
                }
            }
        }
        let healthy_forest = by_vlan
            .keys()
            .filter_map(|v| Some((*v, is_forest(healthy.vlan(*v)?))))
            .collect();
        PairPaths {
            reach,
            by_port,
            unjoined,
            unjoined_at,
            by_vlan,
            vlan_of,
            hosts_on_switch,
            healthy_forest,
        }
    }

    /// The class pairs whose every pair's reachability `failed` may
    /// change (a port on their paths changed, ...; see the module
    /// documentation), as positions in `reach.class_pairs()`.
    fn touched(
        &self,
        topo: &Topology,
        healthy: &Forwarding,
        failed: &Forwarding,
    ) -> BTreeSet<usize> {
        let mut out: BTreeSet<usize> = BTreeSet::new();
        if failed.failures.is_host_local() {
            return out;
        }
        let state_changed: Vec<usize> = (0..healthy.ports.len())
            .filter(|&p| healthy.ports[p] != failed.ports[p])
            .collect();
        for (vlan, pairs) in &self.by_vlan {
            let (Some(v0), Some(v1)) = (healthy.vlan(*vlan), failed.vlan(*vlan)) else {
                out.extend(pairs.iter().copied());
                continue;
            };
            // A view the scenario shares with the healthy state forwards
            // alike on every port: only the port states can differ.
            let shared = failed.shares_vlan(healthy, *vlan);
            let forest0 = match self.healthy_forest.get(vlan) {
                Some(f) => *f,
                None => is_forest(v0),
            };
            if !forest0 || !(shared || is_forest(v1)) {
                out.extend(pairs.iter().copied());
                continue;
            }
            let changed: Vec<usize> = if shared {
                state_changed.clone()
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
            let on_vlan = |i: &usize| self.vlan_of[*i] == *vlan;
            for &p in &changed {
                out.extend(self.by_port[p].iter().copied().filter(on_vlan));
            }
            // Pairs without a path are joined only by a port that starts
            // forwarding: a port that goes down or loses cables joins
            // nothing. Where the VLAN splits an MLAG domain the groups of
            // peers depend on the failure too, so every such pair is
            // walked again.
            if v0.peers.is_some() || v1.peers.is_some() {
                out.extend(self.unjoined.get(vlan).into_iter().flatten().copied());
            } else if !shared {
                // A new path between two healthy components leaves each
                // through a port that starts forwarding: only the pairs
                // whose two bridges' components are at the ends of such
                // ports can be joined.
                let at = self.unjoined_at.get(vlan);
                let ends: BTreeSet<usize> = changed
                    .iter()
                    .filter(|&&p| v1.forwarding[p] && !v0.forwarding[p])
                    .flat_map(|&p| {
                        let port = &topo.ports[p];
                        [v0.component[port.a.0], v0.component[port.b.0]]
                    })
                    .collect();
                let joinable = at
                    .into_iter()
                    .flatten()
                    .filter(|((x, y), _)| ends.contains(x) && ends.contains(y));
                out.extend(joinable.flat_map(|(_, v)| v.iter().copied()));
            }
        }
        out
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
                if part.walked().broken.is_some() {
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

    /// The indexes hold class pairs: a cluster of 60 hosts built alike
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
            let listed =
                |m: &BTreeMap<Option<u16>, Vec<usize>>| -> usize { m.values().map(Vec::len).sum() };
            p.by_port.iter().map(Vec::len).sum::<usize>()
                + listed(&p.by_vlan)
                + listed(&p.unjoined)
                + p.vlan_of.len()
        };
        let small = entries(4);
        assert!(small > 0);
        assert_eq!(entries(60), small);
    }
}
