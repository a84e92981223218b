//! Simulation of chosen failures: degraded links, tree changes, slowdowns,
//! standing losses.

use super::*;

/// A LAG or link that lost cables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Degraded {
    pub port: usize,
    pub members_left: u32,
    pub members: u32,
    /// None: not stated.
    pub member_speed: Option<Speed>,
}

/// The changes of one spanning tree in a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeChange {
    /// The tree, as the healthy spanning-tree result numbers it.
    pub tree: crate::stp::TreeId,
    /// The healthy root of the component of the tree the changes are in
    /// (a tree spans every bridge, bridged domain or not: one change per
    /// component, so each is named by its own root). None when the
    /// changed bridges took no part in the healthy tree.
    pub root: Option<usize>,
    /// Root changes, then links that start or stop forwarding.
    pub changes: Vec<TreeEvent>,
}

/// One change of a spanning tree (bridges and links as the spanning-tree
/// result numbers them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeEvent {
    BecomesRoot(usize),
    NoLongerRoot(usize),
    RootDown(usize),
    /// The link forwards now; before, the end at `at` had role `was`.
    StartsForwarding {
        link: usize,
        was: crate::stp::PortRole,
        at: Option<usize>,
    },
    /// The link no longer forwards: the end at `at` has role `now`.
    StopsForwarding {
        link: usize,
        now: crate::stp::PortRole,
        at: Option<usize>,
    },
}

/// Host pairs whose path got slower.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slowdown {
    pub network: NetworkId,
    pub pairs: Vec<(HostId, HostId)>,
    /// Bottleneck before and after (aggregate speed of the slowest port on
    /// the path), with the port.
    pub before: (Speed, Option<usize>),
    pub after: (Speed, Option<usize>),
    /// What one stream gets on that path before and after: its slowest
    /// cable (a LAG carries each flow on one cable); `None` where a speed
    /// is unknown.
    pub per_stream: Option<(Speed, Speed)>,
}

/// How a requirement fares in a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    pub requirement: Requirement,
    /// Lost for some host pairs.
    pub lost: bool,
    /// Networks of the requirement that lost host pairs / kept all of them.
    pub networks_lost: Vec<NetworkId>,
    pub networks_kept: Vec<NetworkId>,
}

/// A stack or MLAG domain the scenario splits ([`Unit::Split`]), and the
/// part that keeps its multi-chassis LAGs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DomainSplit {
    pub bridge: BridgeId,
    /// The parts, each in file order, by first member.
    pub parts: Vec<Vec<SwitchId>>,
    /// A switch of the part that keeps the LAGs (the vPC primary); the
    /// others suspend their LAG member ports.
    pub keep: SwitchId,
    /// The units named the part (`link@switch`); otherwise every part
    /// was tried and `keep`'s is the one that loses the most host pairs.
    pub stated: bool,
    /// Per part (by its first member), the host pairs lost when it keeps
    /// the LAGs; empty when `stated`.
    pub lost_pairs: Vec<(SwitchId, usize)>,
}

/// Everything `netlint simulate` says about one scenario.
#[derive(Clone, Debug)]
pub struct Simulation {
    pub units: Vec<Unit>,
    pub failures: Failures,
    /// Domains the failures split, and which part keeps the LAGs.
    pub splits: Vec<DomainSplit>,
    /// Losses of every network and of every group.
    pub outcome: Outcome,
    pub standings: Vec<Standing>,
    pub trees: Vec<TreeChange>,
    pub degraded: Vec<Degraded>,
    /// Ports down (both ends up would be degraded instead).
    pub down: Vec<usize>,
    pub slower: Vec<Slowdown>,
    /// Host pairs cut in the healthy state that the failure reconnects
    /// (a blocked link that takes over), per network.
    pub restored: Vec<(NetworkId, Vec<(HostId, HostId)>)>,
}

/// A path's bottleneck in a scenario: its slowest port by what the port
/// carries now (cables left x per-cable speed), with the port; None for a
/// path without a link (one bridge, or a direct cable) and for a path
/// through a link of unknown speed (no slowdown can be told).
pub fn path_bottleneck(
    topo: &Topology,
    fwd: &Forwarding,
    path: &[usize],
) -> Option<(Speed, usize)> {
    let mut out: Option<(Speed, usize)> = None;
    for p in path {
        let members = fwd.ports[*p].members;
        let s = (topo.ports[*p].member_speed?.times(members as u64), *p);
        out = Some(out.map_or(s, |o| o.min(s)));
    }
    out
}

/// How much slower traffic between two hosts gets on a network: the
/// definition `simulate` shares with `stp-suboptimal-path`. Traffic takes
/// every pair of working adapters ([`Forwarding::adapter_paths`]: a
/// switch-independent team or SET may send a flow from any active member),
/// so the path is slower when the path of any adapter pair present before
/// and after got a smaller bottleneck, as the two hosts feel it (a
/// bottleneck above what their working adapters add up to is none); of
/// those pairs, the slowest now is the one shown. Returns the bottleneck before and after of that pair.
pub fn slowest_slower_pair(
    design: &Design,
    topo: &Topology,
    fwds: (&Forwarding, &Forwarding),
    network: NetworkId,
    hosts: (HostId, HostId),
) -> Option<((Speed, usize), (Speed, usize))> {
    slowest_slower_paths(design, topo, fwds, network, hosts).map(|(_, _, b0, b1)| (b0, b1))
}

/// An adapter pair's path before and after, and their bottlenecks.
type PathsBeforeAfter = (Vec<usize>, Vec<usize>, (Speed, usize), (Speed, usize));

/// [`slowest_slower_pair`] with the chosen adapter pair's paths, before
/// and after.
fn slowest_slower_paths(
    design: &Design,
    topo: &Topology,
    (before, after): (&Forwarding, &Forwarding),
    network: NetworkId,
    (a, b): (HostId, HostId),
) -> Option<PathsBeforeAfter> {
    let now = after.adapter_paths(design, topo, network, a, b);
    if now.is_empty() {
        return None;
    }
    let then = before.adapter_paths(design, topo, network, a, b);
    // What the two hosts can send each other at most: the smaller of their
    // working adapters' speeds added up. A path that drops from 400G to
    // 300G is no slower for hosts with two 25G adapters (issue 34, minor);
    // an adapter of unknown speed leaves the figure uncapped.
    let total = |h: HostId, nics: &mut dyn Iterator<Item = netlint_model::NicIdx>| {
        let mut seen: Vec<netlint_model::NicIdx> = Vec::new();
        let mut sum = Some(0u64);
        for n in nics {
            if seen.contains(&n) {
                continue;
            }
            seen.push(n);
            sum = match (sum, design.host(h).nic(n).speed.as_ref()) {
                (Some(t), Some(s)) => Some(t + s.value.bps()),
                _ => None,
            };
        }
        sum.filter(|t| *t > 0).map(Speed::from_bps)
    };
    let cap = match (
        total(a, &mut now.iter().map(|p| p.a_nic)),
        total(b, &mut now.iter().map(|p| p.b_nic)),
    ) {
        (Some(x), Some(y)) => Some(x.min(y)),
        _ => None,
    };
    let mut worst: Option<PathsBeforeAfter> = None;
    for p1 in &now {
        let Some(path1) = &p1.path else { continue };
        let Some(p0) = then
            .iter()
            .find(|p0| (p0.a_nic, p0.b_nic) == (p1.a_nic, p1.b_nic))
        else {
            continue;
        };
        let Some(path0) = &p0.path else { continue };
        let (Some(b0), Some(b1)) = (
            path_bottleneck(topo, before, path0),
            path_bottleneck(topo, after, path1),
        ) else {
            continue;
        };
        let felt = |s: Speed| cap.map_or(s, |c| s.min(c));
        // The slowest now; of equally slow ones, the biggest drop.
        let key = |(s0, s1): ((Speed, usize), (Speed, usize))| (s1.0, std::cmp::Reverse(s0.0));
        if felt(b1.0) < felt(b0.0)
            && worst
                .as_ref()
                .is_none_or(|w| key((b0, b1)) < key((w.2, w.3)))
        {
            worst = Some((path0.clone(), path1.clone(), b0, b1));
        }
    }
    worst
}

/// What one stream gets between two hosts before and after on the adapter
/// pair [`slowest_slower_pair`] shows: the slowest cable of its path (a
/// LAG carries each flow on one cable).
pub fn stream_speeds(
    design: &Design,
    topo: &Topology,
    (before, after): (&Forwarding, &Forwarding),
    network: NetworkId,
    hosts: (HostId, HostId),
) -> Option<(Speed, Speed)> {
    let (path0, path1, _, _) = slowest_slower_paths(design, topo, (before, after), network, hosts)?;
    Some((
        super::path_rate(topo, before, &path0)?.per_stream,
        super::path_rate(topo, after, &path1)?.per_stream,
    ))
}

/// (network, bottleneck before and its port, after and its port).
pub(super) type SlowKey = (NetworkId, Speed, Option<usize>, Speed, Option<usize>);

/// Host pairs by how a scenario slowed them, and per network the pairs it
/// joins.
type Walked = (
    BTreeMap<SlowKey, Vec<(HostId, HostId)>>,
    BTreeMap<NetworkId, Vec<(HostId, HostId)>>,
);

/// The slower and the joined pairs among `before` (healthy reachability),
/// each walked again in the failed scenario.
fn walk(
    design: &Design,
    topo: &Topology,
    (healthy, failed): (&Forwarding, &Forwarding),
    before: &[Reach],
) -> Walked {
    let mut slow: BTreeMap<SlowKey, Vec<(HostId, HostId)>> = BTreeMap::new();
    let mut restored: BTreeMap<NetworkId, Vec<(HostId, HostId)>> = BTreeMap::new();
    for r in before {
        let after = failed.reach(design, topo, r.network, r.a, r.b);
        if r.broken.is_some() {
            if after.broken.is_none() {
                restored.entry(r.network).or_default().push((r.a, r.b));
            }
            continue;
        }
        if after.broken.is_some() {
            continue;
        }
        if let Some(((s0, p0), (s1, p1))) =
            slowest_slower_pair(design, topo, (healthy, failed), r.network, (r.a, r.b))
        {
            slow.entry((r.network, s0, Some(p0), s1, Some(p1)))
                .or_default()
                .push((r.a, r.b));
        }
    }
    (slow, restored)
}

impl<'a> Analysis<'a> {
    /// The full picture of one scenario: losses of every requirement,
    /// spanning-tree changes, degraded links and slower paths. Requires an
    /// analysis built with `requirements(design, true)` to report every
    /// network.
    pub fn simulate(&self, healthy: &Forwarding, units: &[Unit]) -> Simulation {
        self.simulate_with(healthy, units, None)
    }

    /// [`Analysis::simulate`] with every pair's healthy reachability
    /// prepared once: only the pairs the scenario can change are walked
    /// again (see [`PairPaths`]), which the table of every single failure
    /// needs to stay near linear.
    pub fn simulate_with(
        &self,
        healthy: &Forwarding,
        units: &[Unit],
        pairs: Option<&PairPaths>,
    ) -> Simulation {
        let (design, topo) = (self.design, self.topo);
        let mut failures = Failures::default();
        for u in units {
            u.add_to(design, topo, &mut failures);
        }
        let splits = self.resolve_splits(units, &mut failures);
        let mut outcome = self.evaluate(&failures);
        for l in &mut outcome.losses {
            self.cut_targets(l);
        }
        let failed = if failures.is_host_local() {
            healthy.with_nic_failures(failures.nics.iter().copied())
        } else {
            self.fabric.forwarding(design, topo, &failures)
        };
        // Standing of each requirement and its networks.
        let lost_nets: BTreeSet<NetworkId> = outcome
            .losses
            .iter()
            .filter_map(|l| match l.requirement {
                Requirement::Network(n) => Some(n),
                _ => None,
            })
            .collect();
        let standings = self
            .requirements
            .iter()
            .filter(|r| !matches!(r, Requirement::Network(n) if !r.required(design) && !lost_nets.contains(n)))
            .map(|r| {
                let nets = r.networks(design);
                let on_some = |n: &NetworkId| !topo.hosts_on(*n).is_empty();
                Standing {
                    requirement: r.clone(),
                    lost: outcome.losses.iter().any(|l| l.requirement == *r),
                    networks_lost: nets.iter().copied().filter(|n| lost_nets.contains(n)).collect(),
                    networks_kept: nets
                        .iter()
                        .copied()
                        .filter(|n| !lost_nets.contains(n) && on_some(n))
                        .collect(),
                }
            })
            .collect();
        let (down, degraded) = self.port_changes(&failed);
        // Spanning trees.
        let trees = tree_changes(healthy, &failed);
        // Paths: per class pair with the prepared pairs; else every pair
        // for a fabric failure, the failed hosts' pairs for a host-local one.
        let (slow, restored) = match pairs {
            Some(p) => {
                let c = p.changes(design, topo, healthy, &failed);
                (c.slow, c.restored)
            }
            None => {
                let walked = if failures.is_host_local() {
                    // The failed NICs' hosts, and the hosts at the other end
                    // of their direct cables.
                    let mut hosts: BTreeSet<HostId> = BTreeSet::new();
                    for (h, n) in &failures.nics {
                        hosts.insert(*h);
                        if let Some(NicEnd::Peer(ph, _)) = topo.nic_ends[h.0][n.0] {
                            hosts.insert(ph);
                        }
                    }
                    pairs_of(design, topo, healthy, Some(&hosts))
                } else {
                    all_pairs(design, topo, healthy)
                };
                walk(design, topo, (healthy, &failed), &walked)
            }
        };
        let slower = slow
            .into_iter()
            .map(|((network, s0, p0, s1, p1), pairs)| {
                let per_stream = pairs.first().and_then(|&(a, b)| {
                    stream_speeds(design, topo, (healthy, &failed), network, (a, b))
                });
                Slowdown {
                    network,
                    pairs,
                    before: (s0, p0),
                    after: (s1, p1),
                    per_stream,
                }
            })
            .collect();
        prune_covered(&mut outcome);
        Simulation {
            restored: restored.into_iter().collect(),
            units: units.to_vec(),
            failures,
            splits,
            outcome,
            standings,
            trees,
            degraded,
            down,
            slower,
        }
    }
}

/// One row of `netlint simulate`'s table of every single failure: what
/// the unit takes away, the links it takes down or degrades, and how many
/// host pairs get slower.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub units: Vec<Unit>,
    /// As [`Simulation::outcome`].
    pub outcome: Outcome,
    pub down: Vec<usize>,
    pub degraded: Vec<Degraded>,
    /// The host pairs of [`Simulation::slower`], counted.
    pub slower_pairs: usize,
}

impl<'a> Analysis<'a> {
    /// The row of one failure unit in the table of every single failure:
    /// what [`Analysis::simulate_with`] says of its losses, links and
    /// slower pairs, with the failed forwarding updated from the healthy
    /// one (`scenarios`, see [`ScenarioForwarding`]) instead of solved in
    /// full, so that a row costs what the unit changes. `scenarios` and
    /// `pairs` must be built from `healthy`.
    pub fn simulate_row(
        &self,
        healthy: &Forwarding,
        scenarios: &ScenarioForwarding,
        pairs: &PairPaths,
        unit: &Unit,
    ) -> Row {
        let (design, topo) = (self.design, self.topo);
        let mut failures = Failures::default();
        unit.add_to(design, topo, &mut failures);
        self.resolve_splits(std::slice::from_ref(unit), &mut failures);
        let mut outcome = self.evaluate(&failures);
        for l in &mut outcome.losses {
            self.cut_targets(l);
        }
        let failed = scenarios.forwarding(design, topo, self.fabric, healthy, &failures);
        let (down, degraded) = self.port_changes(&failed);
        let slower_pairs = pairs
            .changes(design, topo, healthy, &failed)
            .slow
            .values()
            .map(Vec::len)
            .sum();
        prune_covered(&mut outcome);
        Row {
            units: vec![unit.clone()],
            outcome,
            down,
            degraded,
            slower_pairs,
        }
    }
}

impl Analysis<'_> {
    /// The domains `failures` split. Where no unit says which part keeps
    /// the multi-chassis LAGs (the vPC primary: the design does not state
    /// the role), each part is tried and the one that loses the most host
    /// pairs is kept in `failures`: the worst case.
    fn resolve_splits(&self, units: &[Unit], failures: &mut Failures) -> Vec<DomainSplit> {
        let (design, topo) = (self.design, self.topo);
        let mut out = Vec::new();
        for (bridge, links) in crate::l2::broken_domains(design, topo, failures) {
            let Some(parts) = crate::l2::domain_parts(design, topo, failures, bridge, &links)
            else {
                continue;
            };
            let stated = units.iter().find_map(|u| match u {
                Unit::Split { keep, .. } if topo.bridge_of[keep.0] == bridge => Some(*keep),
                _ => None,
            });
            if let Some(keep) = stated {
                out.push(DomainSplit {
                    bridge,
                    parts,
                    keep,
                    stated: true,
                    lost_pairs: Vec::new(),
                });
                continue;
            }
            let mut lost_pairs = Vec::new();
            let mut best: Option<(usize, Failures, SwitchId)> = None;
            for part in &parts {
                let mut f = failures.clone();
                super::suspend_all_but(design, topo, &mut f, part[0]);
                let lost: usize = self.evaluate(&f).losses.iter().map(|l| l.pairs.len()).sum();
                lost_pairs.push((part[0], lost));
                if best.as_ref().is_none_or(|(b, _, _)| lost > *b) {
                    best = Some((lost, f, part[0]));
                }
            }
            if let Some((_, f, keep)) = best {
                *failures = f;
                out.push(DomainSplit {
                    bridge,
                    parts,
                    keep,
                    stated: false,
                    lost_pairs,
                });
            }
        }
        out
    }

    /// The ports down and the ports that lost cables in a scenario: of the
    /// ports down or short in the healthy state and the ports of the
    /// failed switches and cables (no other port changes state).
    fn port_changes(&self, failed: &Forwarding) -> (Vec<usize>, Vec<Degraded>) {
        let mut ports: BTreeSet<usize> = self.healthy_ports.iter().copied().collect();
        for s in failed
            .failures
            .switches
            .iter()
            .chain(&failed.failures.suspended)
        {
            ports.extend(self.ports_by_switch[s.0].iter().copied());
        }
        for (l, _) in &failed.failures.cables {
            ports.extend(self.ports_by_link[l.0].iter().copied());
        }
        port_changes(self.topo, failed, ports)
    }
}

/// The ports down and the ports that lost cables in a scenario, of `ports`.
fn port_changes(
    topo: &Topology,
    failed: &Forwarding,
    ports: impl IntoIterator<Item = usize>,
) -> (Vec<usize>, Vec<Degraded>) {
    let mut degraded = Vec::new();
    let mut down = Vec::new();
    for i in ports {
        let p = &topo.ports[i];
        let st = failed.ports[i];
        if !st.up {
            down.push(i);
        } else if st.members < p.members {
            degraded.push(Degraded {
                port: i,
                members_left: st.members,
                members: p.members,
                member_speed: p.member_speed,
            });
        }
    }
    (down, degraded)
}

pub(super) fn pairs_of(
    design: &Design,
    topo: &Topology,
    fwd: &Forwarding,
    only: Option<&BTreeSet<HostId>>,
) -> Vec<Reach> {
    let mut out = Vec::new();
    let clusters = design.clusters();
    for (ni, _) in design.networks.iter().enumerate() {
        let net = NetworkId(ni);
        let on: BTreeSet<HostId> = topo.hosts_on(net).into_iter().collect();
        for hosts in clusters.values() {
            let members: Vec<HostId> = hosts.iter().copied().filter(|h| on.contains(h)).collect();
            for (i, &a) in members.iter().enumerate() {
                for &b in &members[i + 1..] {
                    if only.is_some_and(|o| !o.contains(&a) && !o.contains(&b)) {
                        continue;
                    }
                    out.push(fwd.reach(design, topo, net, a, b));
                }
            }
        }
    }
    out
}

/// Root moves and links that start or stop forwarding, per tree.
pub(super) fn tree_changes(before: &Forwarding, after: &Forwarding) -> Vec<TreeChange> {
    use crate::stp::{End, PortRef, PortRole};
    let (s0, s1) = (&before.stp, &after.stp);
    let mut out = Vec::new();
    for tree1 in s1.trees() {
        let Some((t0, tree0)) = s0
            .trees()
            .iter()
            .enumerate()
            .find(|(_, t)| t.kind == tree1.kind)
        else {
            continue;
        };
        let mut changes = Vec::new();
        let roots =
            |t: &crate::stp::Tree| -> Vec<usize> { t.roots.iter().map(|r| r.root).collect() };
        let (r0, r1) = (roots(tree0), roots(tree1));
        for r in &r1 {
            if !r0.contains(r) {
                changes.push(TreeEvent::BecomesRoot(*r));
            }
        }
        for r in &r0 {
            if !r1.contains(r) {
                if s1.is_bridge_up(*r) {
                    changes.push(TreeEvent::NoLongerRoot(*r));
                } else {
                    changes.push(TreeEvent::RootDown(*r));
                }
            }
        }
        // Per link: Ok = forwarding, Err = the blocking end's role and
        // bridge; None = down or not an STP port at both ends.
        type State = Option<Result<(), (PortRole, Option<usize>)>>;
        let state = |s: &crate::stp::StpResult, t: &crate::stp::Tree, l: usize| -> State {
            let a = t.port(PortRef::new(l, End::A))?;
            let b = t.port(PortRef::new(l, End::B))?;
            if a.role == PortRole::Disabled || b.role == PortRole::Disabled {
                return None;
            }
            for (end, p) in [(End::A, a), (End::B, b)] {
                if !p.role.forwards() {
                    return Some(Err((p.role, s.port_bridge(PortRef::new(l, end)))));
                }
            }
            Some(Ok(()))
        };
        for l in 0..tree1.ports.len().min(tree0.ports.len()) {
            if !s1.is_link_up(l) || !s0.is_link_up(l) {
                continue;
            }
            match (state(s0, tree0, l), state(s1, tree1, l)) {
                (Some(Err((was, at))), Some(Ok(()))) => {
                    changes.push(TreeEvent::StartsForwarding { link: l, was, at })
                }
                (Some(Ok(())), Some(Err((now, at)))) => {
                    changes.push(TreeEvent::StopsForwarding { link: l, now, at })
                }
                _ => {}
            }
        }
        // One change per healthy component, named by its root, in the
        // order of its first event.
        let mut by_root: Vec<TreeChange> = Vec::new();
        for e in changes {
            let bridge = match e {
                TreeEvent::BecomesRoot(r) | TreeEvent::NoLongerRoot(r) | TreeEvent::RootDown(r) => {
                    Some(r)
                }
                TreeEvent::StartsForwarding { link, at, .. }
                | TreeEvent::StopsForwarding { link, at, .. } => at
                    .or_else(|| s0.port_bridge(PortRef::new(link, End::A)))
                    .or_else(|| s0.port_bridge(PortRef::new(link, End::B))),
            };
            let root = bridge.and_then(|b| tree0.root_of(b));
            match by_root.iter_mut().find(|c| c.root == root) {
                Some(c) => c.changes.push(e),
                None => by_root.push(TreeChange {
                    tree: t0,
                    root,
                    changes: vec![e],
                }),
            }
        }
        out.extend(by_root);
    }
    out
}
