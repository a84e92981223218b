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
//! - one of its adapter pairs had no path and the VLAN changed anywhere (a
//!   blocked link may take over and join them);
//! - the VLAN's forwarding ports close a loop, before or after, so paths
//!   are not unique: then every pair of the VLAN is walked again.

use crate::l2::{all_pairs, Failures, Forwarding, Reach, VlanView};
use crate::topology::{NicEnd, Topology};
use netlint_model::{Design, HostId};
use std::collections::{BTreeMap, BTreeSet};

/// Every host pair's healthy reachability, with indexes by host and by
/// port crossed.
pub struct PairPaths {
    /// `all_pairs` of the healthy state, in its order.
    pub reach: Vec<Reach>,
    /// Per host: the pairs it is part of.
    by_host: Vec<Vec<usize>>,
    /// Per port: the pairs with an adapter path over it.
    by_port: Vec<Vec<usize>>,
    /// Per VLAN: the pairs with an adapter pair that has no path.
    unjoined: BTreeMap<Option<u16>, Vec<usize>>,
    /// Per VLAN: every pair on a network of that VLAN.
    by_vlan: BTreeMap<Option<u16>, Vec<usize>>,
    /// Per switch: the hosts with a NIC cabled to it.
    hosts_on_switch: Vec<BTreeSet<HostId>>,
}

impl PairPaths {
    pub fn new(design: &Design, topo: &Topology, healthy: &Forwarding) -> PairPaths {
        let reach = all_pairs(design, topo, healthy);
        let mut by_host = vec![Vec::new(); design.hosts.len()];
        let mut by_port = vec![Vec::new(); topo.ports.len()];
        let mut unjoined: BTreeMap<Option<u16>, Vec<usize>> = BTreeMap::new();
        let mut by_vlan: BTreeMap<Option<u16>, Vec<usize>> = BTreeMap::new();
        for (i, r) in reach.iter().enumerate() {
            by_host[r.a.0].push(i);
            by_host[r.b.0].push(i);
            let vlan = design.network(r.network).vlan_id();
            by_vlan.entry(vlan).or_default().push(i);
            let mut crossed: BTreeSet<usize> = BTreeSet::new();
            for ap in healthy.adapter_paths(design, topo, r.network, r.a, r.b) {
                match ap.path {
                    Some(path) => crossed.extend(path),
                    None => unjoined.entry(vlan).or_default().push(i),
                }
            }
            for p in crossed {
                by_port[p].push(i);
            }
        }
        for v in unjoined.values_mut() {
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
        PairPaths {
            reach,
            by_host,
            by_port,
            unjoined,
            by_vlan,
            hosts_on_switch,
        }
    }

    /// The indices (ascending) of the pairs whose reachability `failed`
    /// may differ from the healthy one's; every other pair is as healthy.
    pub fn touched(
        &self,
        design: &Design,
        topo: &Topology,
        healthy: &Forwarding,
        failed: &Forwarding,
    ) -> Vec<usize> {
        let failures = &failed.failures;
        let mut out: BTreeSet<usize> = BTreeSet::new();
        for h in self.hosts_losing_adapters(topo, failures) {
            out.extend(self.by_host[h.0].iter().copied());
        }
        if !failures.is_host_local() {
            let state_changed: Vec<bool> = healthy
                .ports
                .iter()
                .zip(&failed.ports)
                .map(|(a, b)| a != b)
                .collect();
            for (vlan, pairs) in &self.by_vlan {
                let (Some(v0), Some(v1)) = (healthy.vlan(*vlan), failed.vlan(*vlan)) else {
                    out.extend(pairs.iter().copied());
                    continue;
                };
                if !is_forest(v0) || !is_forest(v1) {
                    out.extend(pairs.iter().copied());
                    continue;
                }
                let changed: Vec<usize> = (0..state_changed.len())
                    .filter(|&p| state_changed[p] || v0.forwarding[p] != v1.forwarding[p])
                    .collect();
                if changed.is_empty() {
                    continue;
                }
                let on_vlan = |i: &usize| design.network(self.reach[*i].network).vlan_id() == *vlan;
                for p in changed {
                    out.extend(self.by_port[p].iter().copied().filter(on_vlan));
                }
                out.extend(self.unjoined.get(vlan).into_iter().flatten().copied());
            }
        }
        out.into_iter().collect()
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
