//! Live migration across the fabric: the forwarding path between a host and
//! the peers it drains to bounds each migration stream by its slowest
//! cable (a LAG hashes each flow onto one member) and all the streams
//! together by its slowest port, healthy and after every single fabric
//! failure (a switch, an inter-switch cable, a peer-link or stacking cable
//! that splits its domain). The bandwidth model stops at the host
//! adapters (`bandwidth/`); `lm-drain-time`, `smb-bandwidth-cap-degraded`
//! and `netlint report` take the smaller of the two.

use super::*;
use crate::l2::ScenarioForwarding;

/// What the forwarding path between two hosts gives live migration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathRate {
    /// The slowest cable on the path: what one TCP connection or SMB
    /// channel can reach (a LAG puts each flow on one member).
    pub per_stream: Speed,
    /// The slowest port by what it carries now (cables left x speed).
    pub aggregate: Speed,
    /// The port of the slowest cable (an index into `Topology::ports`).
    pub port: usize,
}

impl PathRate {
    /// What `flows` streams at once reach over the path: each at most
    /// `per_stream`, all at most `aggregate`.
    pub fn rate(&self, flows: u64) -> Speed {
        self.per_stream.times(flows.max(1)).min(self.aggregate)
    }
}

/// A host's live migration across the fabric.
#[derive(Clone, Debug, PartialEq)]
pub struct LmPath {
    /// The live-migration streams the host sends at once (TCP and
    /// compression: `simultaneous`; SMB: four channels per network,
    /// `smb-multichannel`; vMotion: one per network).
    pub flows: u64,
    /// Healthy: the peer whose path is slowest, and that path (`None`:
    /// every peer is reached without crossing a link of known speed).
    pub healthy: Option<(HostId, PathRate)>,
    /// The single fabric failure that leaves the slowest path to a peer,
    /// when it is slower than the healthy one.
    pub degraded: Option<(Unit, HostId, PathRate)>,
}

impl LmPath {
    /// The healthy path's rate for the host's streams.
    pub fn healthy_rate(&self) -> Option<Speed> {
        self.healthy.map(|(_, p)| p.rate(self.flows))
    }
    /// The rate after the worst single fabric failure.
    pub fn degraded_rate(&self) -> Option<Speed> {
        self.degraded.as_ref().map(|(_, _, p)| p.rate(self.flows))
    }
}

/// The streams a host's live migration sends at once (see [`LmPath::flows`]).
pub fn lm_flows(design: &Design, h: HostId) -> u64 {
    let host = design.host(h);
    let Some(lm) = &host.live_migration else {
        return 1;
    };
    let nets = lm.networks.len().max(1) as u64;
    match lm.transport.value {
        netlint_model::Transport::Smb => 4 * nets,
        _ if host.os.value.is_vsphere() => nets,
        _ => lm
            .simultaneous
            .as_ref()
            .map_or(2, |s| s.value.max(1) as u64),
    }
}

/// The path rate between hosts `a` and `b` on their live-migration
/// networks in one scenario: of the networks in preference order, the
/// first that connects them (TCP and compression use one network at a
/// time) or, over SMB, the best; of the adapter pairs a network offers,
/// the fastest (a line-rate best case, as the drain time is). `None`: no
/// path, or one that crosses no link of known speed.
fn pair_rate(
    design: &Design,
    topo: &Topology,
    fwd: &Forwarding,
    a: HostId,
    b: HostId,
) -> Option<Option<PathRate>> {
    let lm_a = design.host(a).live_migration.as_ref()?;
    let lm_b = design.host(b).live_migration.as_ref()?;
    let first_only = lm_a.transport.value != netlint_model::Transport::Smb;
    let mut best: Option<Option<PathRate>> = None;
    for n in &lm_a.networks {
        if !lm_b.networks.iter().any(|m| m.value == n.value) {
            continue;
        }
        let mut net_best: Option<Option<PathRate>> = None;
        for ap in fwd.adapter_paths(design, topo, n.value, a, b) {
            let Some(path) = ap.path else { continue };
            let rate = path_rate(topo, fwd, &path);
            net_best = Some(faster(net_best, rate));
        }
        let Some(r) = net_best else { continue };
        if first_only {
            return Some(r);
        }
        best = Some(faster(best, r));
    }
    best
}

/// The faster of the best so far (`None`: none yet; `Some(None)`: a path
/// that sets no figure, which nothing beats) and `r`, by what many streams
/// reach on it.
fn faster(best: Option<Option<PathRate>>, r: Option<PathRate>) -> Option<PathRate> {
    match (best, r) {
        (None, r) => r,
        (Some(None), _) | (_, None) => None,
        (Some(Some(x)), Some(y)) => Some(if y.rate(64) > x.rate(64) { y } else { x }),
    }
}

/// The rate of one forwarding path; `None` for a path without a link or
/// through a link of unknown speed.
pub fn path_rate(topo: &Topology, fwd: &Forwarding, path: &[usize]) -> Option<PathRate> {
    let (aggregate, _) = path_bottleneck(topo, fwd, path)?;
    let mut slowest: Option<(Speed, usize)> = None;
    for &p in path {
        let s = (topo.ports[p].member_speed?, p);
        slowest = Some(slowest.map_or(s, |o| o.min(s)));
    }
    let (per_stream, port) = slowest?;
    Some(PathRate {
        per_stream,
        aggregate,
        port,
    })
}

/// Per host with live migration and cluster peers: the slowest peer path,
/// healthy and after the worst single fabric failure.
pub fn lm_paths(
    design: &Design,
    topo: &Topology,
    fabric: &Fabric,
    healthy: &Forwarding,
) -> Vec<Option<LmPath>> {
    let n = design.hosts.len();
    let mut out: Vec<Option<LmPath>> = vec![None; n];
    let with_lm: Vec<bool> = design
        .hosts
        .iter()
        .map(|h| h.live_migration.is_some())
        .collect();
    if !with_lm.iter().any(|x| *x) {
        return out;
    }
    let clusters: Vec<Vec<HostId>> = design
        .clusters()
        .into_values()
        .map(|hs| hs.into_iter().filter(|h| with_lm[h.0]).collect::<Vec<_>>())
        .filter(|hs: &Vec<HostId>| hs.len() > 1)
        .collect();
    // The slowest peer of each host in one scenario, and the ports the
    // paths cross.
    // Hosts whose live-migration networks leave them through adapters on
    // the same switches reach a peer alike: a pair of such attachments is
    // walked once per scenario (the hosts of a cluster usually share one).
    let attachment: Vec<Vec<(usize, Vec<usize>)>> = design
        .hosts
        .iter()
        .enumerate()
        .map(|(h, host)| {
            let Some(lm) = &host.live_migration else {
                return Vec::new();
            };
            let mut sig: Vec<(usize, Vec<usize>)> = lm
                .networks
                .iter()
                .map(|n| {
                    let mut sw: Vec<usize> = topo
                        .carriers_of(HostId(h), n.value)
                        .flat_map(|c| c.active.iter().chain(&c.standby))
                        .filter_map(|x| match topo.nic_ends[h][x.0] {
                            Some(NicEnd::Switch(s)) => Some(s.0),
                            _ => None,
                        })
                        .collect();
                    sw.sort_unstable();
                    sw.dedup();
                    (n.value.0, sw)
                })
                .collect();
            sig.push((usize::MAX, vec![lm.transport.value as usize]));
            sig
        })
        .collect();
    type PairKey<'k> = (&'k [(usize, Vec<usize>)], &'k [(usize, Vec<usize>)]);
    let worst_peers =
        |fwd: &Forwarding, cluster: &[HostId], ports: &mut BTreeSet<usize>, alike: bool| {
            let mut worst: BTreeMap<HostId, Option<(HostId, PathRate)>> = BTreeMap::new();
            let mut seen: crate::fast_hash::Map<PairKey, Option<Option<PathRate>>> =
                Default::default();
            for (i, &a) in cluster.iter().enumerate() {
                for &b in &cluster[i + 1..] {
                    let key = (attachment[a.0].as_slice(), attachment[b.0].as_slice());
                    let known = if alike { seen.get(&key).copied() } else { None };
                    let rate = match known {
                        Some(r) => r,
                        None => {
                            let r = pair_rate(design, topo, fwd, a, b);
                            if r.is_some_and(|x| x.is_some()) {
                                ports.extend(fwd_ports(design, topo, fwd, a, b));
                            }
                            if alike {
                                seen.insert(key, r);
                            }
                            r
                        }
                    };
                    let Some(rate) = rate else {
                        continue;
                    };
                    if let Some(r) = rate {
                        for (x, y) in [(a, b), (b, a)] {
                            let e = worst.entry(x).or_insert(None);
                            let flows = lm_flows(design, x);
                            if e.is_none_or(|(_, w)| r.rate(flows) < w.rate(flows)) {
                                *e = Some((y, r));
                            }
                        }
                    } else {
                        worst.entry(a).or_insert(None);
                        worst.entry(b).or_insert(None);
                    }
                }
            }
            worst
        };
    // Per cluster: the ports its paths cross.
    let mut used: Vec<BTreeSet<usize>> = Vec::with_capacity(clusters.len());
    for c in &clusters {
        let mut ports = BTreeSet::new();
        let w = worst_peers(healthy, c, &mut ports, true);
        for (&h, r) in &w {
            out[h.0] = Some(LmPath {
                flows: lm_flows(design, h),
                healthy: *r,
                degraded: None,
            });
        }
        used.push(ports);
    }
    // A fabric failure changes only the paths that cross a port it touches
    // (the forwarding ports form a forest: a path none of whose ports
    // changed is still the path); a split domain moves the hosts cabled
    // to it apart without a port.
    let (ports_by_switch, ports_by_link) = topo.ports_by_switch_and_link(design);
    let on_bridge = |c: &[HostId], b: BridgeId| {
        c.iter().any(|h| {
            topo.nic_ends[h.0]
                .iter()
                .any(|e| matches!(e, Some(NicEnd::Switch(s)) if topo.bridge_of[s.0] == b))
        })
    };
    let affected = |u: &Unit, ci: usize| -> bool {
        let crosses = |ports: &[usize]| ports.iter().any(|p| used[ci].contains(p));
        match u {
            Unit::Switch(s) => crosses(&ports_by_switch[s.0]),
            Unit::Cable(l, _) | Unit::Link(l) => crosses(&ports_by_link[l.0]),
            Unit::Split { keep, .. } => {
                let b = topo.bridge_of[keep.0];
                on_bridge(&clusters[ci], b)
                    || topo
                        .bridge(b)
                        .members
                        .iter()
                        .any(|s| crosses(&ports_by_switch[s.0]))
            }
            _ => false,
        }
    };
    let mut scenarios: Option<ScenarioForwarding> = None;
    let mut previous: Option<Unit> = None;
    for unit in units(design, topo, UnitOptions::default()) {
        if unit.is_host_local() {
            continue;
        }
        // The cables of one LAG fail alike.
        if let (Some(Unit::Cable(pl, _)), Unit::Cable(l, _)) = (&previous, &unit) {
            if pl == l
                && ports_by_link[l.0]
                    .iter()
                    .all(|p| topo.ports[*p].cable.is_none())
            {
                continue;
            }
        }
        previous = Some(unit.clone());
        let hit: Vec<usize> = (0..clusters.len())
            .filter(|ci| affected(&unit, *ci))
            .collect();
        if hit.is_empty() {
            continue;
        }
        let failures = unit.failures(design, topo);
        let sf =
            scenarios.get_or_insert_with(|| ScenarioForwarding::new(design, topo, fabric, healthy));
        let fwd = sf.forwarding(design, topo, fabric, healthy, &failures);
        let mut ignored = BTreeSet::new();
        for ci in hit {
            // A host that loses an adapter to the unit is the bandwidth
            // model's adapter loss, not a fabric one.
            let alike = !matches!(unit, Unit::Split { .. });
            let w = worst_peers(&fwd, &clusters[ci], &mut ignored, alike);
            for (&h, r) in &w {
                let Some((peer, r)) = r else { continue };
                let own_down = topo.nic_ends[h.0].iter().enumerate().any(|(ni, e)| {
                    failures.nics.contains(&(h, NicIdx(ni)))
                        || matches!(e, Some(NicEnd::Switch(s)) if failures.switches.contains(s))
                });
                if own_down {
                    continue;
                }
                let Some(entry) = out[h.0].as_mut() else {
                    continue;
                };
                let flows = entry.flows;
                let now = r.rate(flows);
                let before = entry.healthy.map(|(_, p)| p.rate(flows));
                let worse_than_healthy = before.is_none_or(|b| now < b);
                let worse_than_known = entry
                    .degraded
                    .as_ref()
                    .is_none_or(|(_, _, d)| now < d.rate(flows));
                if worse_than_healthy && worse_than_known {
                    entry.degraded = Some((unit.clone(), *peer, *r));
                }
            }
        }
    }
    out
}

/// The ports every adapter pair's path between two hosts crosses on their
/// live-migration networks.
fn fwd_ports(
    design: &Design,
    topo: &Topology,
    fwd: &Forwarding,
    a: HostId,
    b: HostId,
) -> Vec<usize> {
    let Some(lm) = design.host(a).live_migration.as_ref() else {
        return Vec::new();
    };
    lm.networks
        .iter()
        .flat_map(|n| fwd.adapter_paths(design, topo, n.value, a, b))
        .filter_map(|p| p.path)
        .flatten()
        .collect()
}
