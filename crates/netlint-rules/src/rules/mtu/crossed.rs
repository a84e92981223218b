//! Which hosts' largest packets cross an element (a switch, a link, a
//! configured port) on the way to a host they reach: what
//! `mtu-path-too-small` asks of every pair of hosts that reach each other,
//! answered per class and forwarding component instead of per pair.
//!
//! A pair's packets cross every switch and link on the forwarding paths
//! between their adapters, and the configured ports of both hosts. Where
//! the network's VLAN forwards on a forest, the path between two bridges
//! is the only one, and it crosses an element exactly when the forwarding
//! ports through it (the link's, or those at the switch) leave the two
//! bridges apart once removed: so each adapter gets a label (its bridge's
//! component without the element's ports), and two hosts that reach each
//! other cross the element when two of their adapters in one forwarding
//! component have different labels. Per element that is a pass over the
//! classes and one over the hosts; the element's first sender, the host of
//! the first pair (in the order of the pairs) whose packets of the largest
//! size cross it, comes from each host's first partner across it.

use super::mtu_path_too_small::Elem;
use crate::Context;
use netlint_analysis::{GroupRef, ReachKey};
use netlint_model::{HostId, NetworkId};
use std::collections::{BTreeMap, BTreeSet};

/// Per element, the hosts whose packets cross it, each with its payload:
/// the first is the element's first sender of the largest payload (the
/// host the pairs, in order, name first), the others in no order. `None`
/// when the network's VLAN does not forward on a forest: then the caller
/// walks the pairs.
pub(super) type Crossings = Vec<(Elem, Vec<HostId>)>;

/// A host whose packets cross an element: its payload, the first pair
/// that crosses it (group, earlier position, later position, and 0 when
/// the host is the earlier one, 1 when the later), and the host.
type Call = (u32, (usize, usize, usize, usize), HostId);

/// An adapter's forwarding component and its label (its bridge's
/// component once the element's ports are removed).
type Adapter = (usize, usize);

/// The smallest positions of the hosts that cross an adapter `(c, label)`
/// through one key: classes whose adapters in component `c` have two
/// labels or more cross every label; a class with one label crosses the
/// others. Kept: the two smallest positions of the first, and of the
/// second the two smallest per label for the three labels met first, which
/// answers "the first host across `label`, other than `p`" exactly.
#[derive(Default)]
struct Index {
    multi: Vec<usize>,
    single: BTreeMap<usize, Vec<usize>>,
}

impl Index {
    fn add(&mut self, labels: &[usize], positions: &[usize]) {
        let two = &positions[..positions.len().min(2)];
        let into = match labels {
            [one] => self.single.entry(*one).or_default(),
            _ => &mut self.multi,
        };
        into.extend(two);
        into.sort_unstable();
        into.truncate(2);
    }

    /// Keeps the three labels whose first position is smallest.
    fn trim(&mut self) {
        if self.single.len() > 3 {
            let mut firsts: Vec<(usize, usize)> =
                self.single.iter().map(|(l, p)| (p[0], *l)).collect();
            firsts.sort_unstable();
            let keep: BTreeSet<usize> = firsts.iter().take(3).map(|(_, l)| *l).collect();
            self.single.retain(|l, _| keep.contains(l));
        }
    }

    /// The first position, other than `p`, of a host with an adapter in
    /// this component labelled other than `label`.
    fn first_across(&self, label: usize, p: usize) -> Option<usize> {
        let multi = self.multi.iter();
        let single = self
            .single
            .iter()
            .filter(|(l, _)| **l != label)
            .flat_map(|(_, v)| v.iter());
        multi.chain(single).copied().filter(|&j| j != p).min()
    }
}

/// Whether two adapter lists have a pair in one component with different
/// labels.
fn across(a: &[Adapter], b: &[Adapter]) -> bool {
    a.iter()
        .any(|&(c, l)| b.iter().any(|&(d, m)| c == d && l != m))
}

/// The crossings of `elems` (each with the largest payload it forwards)
/// by the pairs of hosts of `net` that reach each other; `payload` is each
/// host's largest packet on the network, `host_ports` each host's
/// configured ports.
pub(super) fn crossings(
    cx: &Context<'_>,
    net: NetworkId,
    payload: &BTreeMap<HostId, u32>,
    host_ports: &BTreeMap<HostId, Vec<Elem>>,
    elems: &[(Elem, u32)],
) -> Option<Crossings> {
    let (design, topo, fwd) = (cx.design, cx.topology(), cx.forwarding());
    let view = fwd.vlan(design.network(net).vlan_id());
    if view.is_some_and(|v| !v.forwards_on_forest(topo)) {
        return None;
    }
    let groups: Vec<GroupRef<'_>> = cx
        .reachability()
        .groups()
        .filter(|g| g.network() == net)
        .collect();
    // Per group, per class: the switches of its adapters (the first host's
    // working adapters cabled to a switch; a class's hosts have the same).
    let switches: Vec<Vec<Vec<netlint_model::SwitchId>>> = groups
        .iter()
        .map(|g| {
            (0..g.classes() as u32)
                .map(|c| {
                    let h = g.members()[g.hosts_of(c)[0]];
                    let mut s: Vec<_> = fwd
                        .cabled_adapters(topo, h, net)
                        .into_iter()
                        .map(|(_, s)| s)
                        .collect();
                    s.dedup();
                    s
                })
                .collect()
        })
        .collect();
    let mut out = Vec::new();
    for &(elem, limit) in elems {
        let mut calls: Vec<Call> = Vec::new();
        let over = |h: HostId| payload.get(&h).copied().filter(|&p| p > limit);
        match (elem, view) {
            (Elem::Port(..), _) => {
                for g in &groups {
                    let m = g.members();
                    for (pb, b) in m.iter().enumerate() {
                        if !host_ports.get(b).is_some_and(|ps| ps.contains(&elem)) {
                            continue;
                        }
                        // Every host that reaches `b` sends it its packets
                        // through the port: in the pair (earlier, later),
                        // the earlier one's first.
                        for (j, a) in m.iter().enumerate() {
                            let Some(p) = over(*a) else { continue };
                            if g.members_reach(pb, j) {
                                let key = (g.index(), j.min(pb), j.max(pb), usize::from(j > pb));
                                calls.push((p, key, *a));
                            }
                        }
                    }
                }
            }
            (_, None) => {}
            (_, Some(view)) => {
                let through = |p: usize| {
                    let port = &topo.ports[p];
                    match elem {
                        Elem::Link(l) => port.link == l,
                        Elem::Switch(s) => port.switches().any(|x| x == s),
                        Elem::Port(..) => false,
                    }
                };
                let ports: Vec<usize> = (0..topo.ports.len())
                    .filter(|&p| view.forwarding[p] && through(p))
                    .collect();
                if ports.is_empty() {
                    out.push((elem, Vec::new()));
                    continue;
                }
                let edges = topo.ports.iter().enumerate().filter_map(|(i, p)| {
                    (view.forwarding[i] && !ports.contains(&i)).then_some((p.a.0, p.b.0))
                });
                let label = netlint_analysis::l2::components(topo.bridges.len(), edges);
                for (g, switches) in groups.iter().zip(&switches) {
                    let adapters: Vec<Vec<Adapter>> = switches
                        .iter()
                        .map(|ss| {
                            let mut a: Vec<Adapter> = ss
                                .iter()
                                .map(|s| {
                                    (
                                        view.switch_component(topo, *s),
                                        label[topo.bridge_of[s.0].0],
                                    )
                                })
                                .collect();
                            a.sort_unstable();
                            a.dedup();
                            a
                        })
                        .collect();
                    group_calls(g, &adapters, &over, &mut calls);
                }
            }
        }
        // The first call of the largest payload, then the others.
        let Some(largest) = calls.iter().map(|c| c.0).max() else {
            out.push((elem, Vec::new()));
            continue;
        };
        let first = calls
            .iter()
            .filter(|c| c.0 == largest)
            .min_by_key(|c| c.1)
            .map(|c| c.2);
        let hosts: Vec<HostId> = first.into_iter().chain(calls.iter().map(|c| c.2)).collect();
        out.push((elem, hosts));
    }
    Some(out)
}

/// The calls of one group for one element: each host over the element's
/// limit whose packets cross it towards some host it reaches, keyed by the
/// first pair that crosses it (group, earlier position, later position,
/// and 0 when the host is the earlier one).
fn group_calls(
    g: &GroupRef<'_>,
    adapters: &[Vec<Adapter>],
    over: &dyn Fn(HostId) -> Option<u32>,
    calls: &mut Vec<Call>,
) {
    let classes = g.classes() as u32;
    // Per key and component: who crosses which label first.
    let mut index: BTreeMap<(ReachKey, usize), Index> = BTreeMap::new();
    let mut walked: Vec<u32> = Vec::new();
    for c in 0..classes {
        let Some(keys) = g.keys(c) else {
            walked.push(c);
            continue;
        };
        let mut by_comp: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for &(comp, label) in &adapters[c as usize] {
            by_comp.entry(comp).or_default().push(label);
        }
        for (comp, labels) in by_comp {
            for k in keys {
                index
                    .entry((*k, comp))
                    .or_default()
                    .add(&labels, g.hosts_of(c));
            }
        }
    }
    for ix in index.values_mut() {
        ix.trim();
    }
    let m = g.members();
    for c in 0..classes {
        let ads = &adapters[c as usize];
        for &p in g.hosts_of(c) {
            let Some(pay) = over(m[p]) else { continue };
            let mut best: Option<usize> = None;
            let mut take = |j: Option<usize>| {
                if let Some(j) = j {
                    best = Some(best.map_or(j, |b| b.min(j)));
                }
            };
            match g.keys(c) {
                Some(keys) => {
                    for k in keys {
                        for &(comp, label) in ads {
                            if let Some(ix) = index.get(&(*k, comp)) {
                                take(ix.first_across(label, p));
                            }
                        }
                    }
                    for &w in &walked {
                        let j = g.hosts_of(w)[0];
                        if g.members_reach(p, j) && across(ads, &adapters[w as usize]) {
                            take(Some(j));
                        }
                    }
                }
                // A class with a direct cable: against every class.
                None => {
                    for y in 0..classes {
                        if !across(ads, &adapters[y as usize]) {
                            continue;
                        }
                        let j = g
                            .hosts_of(y)
                            .iter()
                            .copied()
                            .find(|&j| j != p && g.members_reach(p, j));
                        take(j);
                    }
                }
            }
            if let Some(f) = best {
                calls.push((
                    pay,
                    (g.index(), p.min(f), p.max(f), usize::from(p > f)),
                    m[p],
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Index;

    /// The index's first host across a label, other than the one asking,
    /// is what scanning every class finds: random classes of one to three
    /// labels and one to four hosts, every host asking about every label.
    #[test]
    fn the_index_finds_the_first_host_across_as_a_scan_does() {
        let mut state = 7u64;
        let mut next = |n: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
        for _ in 0..2000 {
            let mut classes: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
            let mut free: Vec<usize> = (0..40).collect();
            for _ in 0..1 + next(8) {
                let mut labels: Vec<usize> = (0..1 + next(3)).map(|_| next(6) as usize).collect();
                labels.sort_unstable();
                labels.dedup();
                let mut hosts: Vec<usize> = (0..1 + next(4))
                    .map(|_| free.remove(next(free.len() as u64) as usize))
                    .collect();
                hosts.sort_unstable();
                classes.push((labels, hosts));
            }
            let mut index = Index::default();
            for (labels, hosts) in &classes {
                index.add(labels, hosts);
            }
            index.trim();
            for (_, hosts) in &classes {
                for &p in hosts {
                    for label in 0..6 {
                        let scan = classes
                            .iter()
                            .filter(|(ls, _)| ls.iter().any(|l| *l != label))
                            .flat_map(|(_, hs)| hs.iter().copied())
                            .filter(|&j| j != p)
                            .min();
                        assert_eq!(
                            index.first_across(label, p),
                            scan,
                            "{classes:?} {p} {label}"
                        );
                    }
                }
            }
        }
    }
}
