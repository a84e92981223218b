//! The forwarding path of every host pair on every network, summed up as
//! figures a fix must not make worse: whether the pair reaches, the speed
//! of one cable of the slowest link on the way (what one stream gets), and
//! the hops. `check --fix` compares them before and after an edit.
//!
//! Two hosts' traffic on a network crosses the fabric between the switches
//! their adapters are cabled to, so the path depends on the pair of
//! switches only: one record per network and pair of switches some host
//! pair uses, with the first such host pair as its example (so a design of
//! many hosts alike costs one path per switch pair, not one per host pair).

use super::Forwarding;
use crate::topology::Topology;
use netlint_model::{Design, HostId, NetworkId, Speed, SwitchId};
use std::collections::BTreeMap;

/// The figures of one forwarding path between two switches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathFigures {
    /// Inter-switch ports crossed (0: one bridge, a switch or its stack or
    /// MLAG domain).
    pub hops: usize,
    /// The speed of one cable of the slowest port crossed whose speed is
    /// stated; `None` when no port is crossed or none states one.
    pub slowest: Option<Speed>,
    /// Whether a port crossed states no speed.
    pub unknown_speed: bool,
}

/// How a path after a change compares with the one before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Worse {
    /// The pair reached before and does not now.
    Cut,
    /// The slowest cable on the way is slower.
    Slower,
    /// Same speed, more hops.
    Longer,
}

impl PathFigures {
    /// How `after` is worse than `self` (`None`: not worse). A speed is
    /// compared only where both paths state every speed on the way.
    pub fn worse(before: Option<&PathFigures>, after: Option<&PathFigures>) -> Option<Worse> {
        let before = before?;
        let Some(after) = after else {
            return Some(Worse::Cut);
        };
        let known = !before.unknown_speed && !after.unknown_speed;
        // No port crossed is as fast as the fabric goes.
        let rank = |p: &PathFigures| p.slowest.map_or(u64::MAX, Speed::bps);
        if known && rank(after) < rank(before) {
            return Some(Worse::Slower);
        }
        if known && rank(after) > rank(before) {
            return None;
        }
        (after.hops > before.hops).then_some(Worse::Longer)
    }
}

/// One network's path between two switches that a host pair's adapters are
/// cabled to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairPath {
    pub network: NetworkId,
    pub a_switch: SwitchId,
    pub b_switch: SwitchId,
    /// A host pair with an adapter on each switch (the first found).
    pub a: HostId,
    pub b: HostId,
    /// `None`: the network does not connect the two switches.
    pub path: Option<PathFigures>,
}

/// Per network, per pair of switches (`a_switch <= b_switch`, equal for two
/// hosts on one switch) that two hosts on it are cabled to, the healthy
/// forwarding path between them: in order of network, then switches.
pub fn pair_paths(design: &Design, topo: &Topology, fwd: &Forwarding) -> Vec<PairPath> {
    let mut out = Vec::new();
    for (ni, network) in design.networks.iter().enumerate() {
        let network_id = NetworkId(ni);
        let Some(view) = fwd.vlan(network.vlan_id()) else {
            continue;
        };
        // Hosts by the switches their adapters on the network are cabled
        // to (many hosts are alike): the first two hosts of each set.
        let mut alike: BTreeMap<Vec<SwitchId>, (HostId, Option<HostId>)> = BTreeMap::new();
        let mut order: Vec<Vec<SwitchId>> = Vec::new();
        for h in 0..design.hosts.len() {
            let host = HostId(h);
            let mut switches: Vec<SwitchId> = fwd
                .cabled_adapters(topo, host, network_id)
                .into_iter()
                .map(|(_, s)| s)
                .collect();
            switches.sort();
            switches.dedup();
            if switches.is_empty() {
                continue;
            }
            match alike.get_mut(&switches) {
                Some((_, second @ None)) => *second = Some(host),
                Some(_) => {}
                None => {
                    alike.insert(switches.clone(), (host, None));
                    order.push(switches);
                }
            }
        }
        // The first host pair (by the order the sets were first seen) on
        // each pair of switches.
        let mut pairs: BTreeMap<(SwitchId, SwitchId), (HostId, HostId)> = BTreeMap::new();
        for (i, sa) in order.iter().enumerate() {
            for sb in &order[i..] {
                let (ha, hb) = if sa == sb {
                    match alike[sa] {
                        (first, Some(second)) => (first, second),
                        (_, None) => continue,
                    }
                } else {
                    (alike[sa].0, alike[sb].0)
                };
                for &x in sa {
                    for &y in sb {
                        let (k, v) = if x <= y {
                            ((x, y), (ha, hb))
                        } else {
                            ((y, x), (hb, ha))
                        };
                        pairs.entry(k).or_insert(v);
                    }
                }
            }
        }
        for ((x, y), (a, b)) in pairs {
            let path = if view.switch_component(topo, x) == view.switch_component(topo, y) {
                let (from, to) = (topo.bridge_of[x.0], topo.bridge_of[y.0]);
                view.path(topo, from, to, &view.forwarding)
                    .map(|ports| figures(topo, &ports))
            } else {
                None
            };
            out.push(PairPath {
                network: network_id,
                a_switch: x,
                b_switch: y,
                a,
                b,
                path,
            });
        }
    }
    out
}

fn figures(topo: &Topology, ports: &[usize]) -> PathFigures {
    let speeds = ports.iter().map(|&p| topo.ports[p].member_speed);
    PathFigures {
        hops: ports.len(),
        slowest: speeds.clone().flatten().min(),
        unknown_speed: speeds.clone().any(|s| s.is_none()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(hops: usize, g: u64) -> PathFigures {
        PathFigures {
            hops,
            slowest: Some(Speed::from_gbps(g)),
            unknown_speed: false,
        }
    }

    #[test]
    fn worse_is_cut_slower_or_longer_at_the_same_speed() {
        assert_eq!(PathFigures::worse(Some(&p(1, 10)), None), Some(Worse::Cut));
        assert_eq!(PathFigures::worse(None, None), None);
        assert_eq!(PathFigures::worse(None, Some(&p(3, 1))), None);
        assert_eq!(
            PathFigures::worse(Some(&p(1, 10)), Some(&p(1, 1))),
            Some(Worse::Slower)
        );
        assert_eq!(
            PathFigures::worse(Some(&p(1, 10)), Some(&p(2, 10))),
            Some(Worse::Longer)
        );
        // Faster but longer is better.
        assert_eq!(PathFigures::worse(Some(&p(3, 1)), Some(&p(4, 10))), None);
        let local = PathFigures {
            hops: 0,
            slowest: None,
            unknown_speed: false,
        };
        assert_eq!(
            PathFigures::worse(Some(&local), Some(&p(1, 100))),
            Some(Worse::Slower)
        );
        // An unknown speed on the way: only hops compare.
        let unknown = PathFigures {
            unknown_speed: true,
            ..p(1, 10)
        };
        assert_eq!(PathFigures::worse(Some(&unknown), Some(&p(1, 1))), None);
        assert_eq!(
            PathFigures::worse(Some(&unknown), Some(&p(2, 1))),
            Some(Worse::Longer)
        );
    }
}
