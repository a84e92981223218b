//! Reachability by classes of hosts: what keeps a network that thousands
//! of hosts of one cluster share from costing a walk and a record per host
//! pair.
//!
//! [`Forwarding::reach`] between two hosts looks at nothing of a host but
//! the NICs of its carriers of the network (active and standby, in order),
//! whether each is up and where each is cabled. Hosts alike in all of that
//! (a class) reach every other host alike: the answer for one pair of
//! classes is the answer for every pair of their hosts, with the hosts
//! named in it swapped. A host with a NIC cabled straight to another host
//! is a class of its own (whether the cable leads to the other host of the
//! pair depends on which host that is).
//!
//! So [`Reachability`] stores, per network and cluster, the hosts, their
//! classes and one [`Reach`] per pair of classes: memory and walks grow
//! with the hosts and the classes, not with the pairs. Its iterator yields
//! every pair's [`Reach`] in the order `all_pairs` always had, built on the
//! fly.

use super::{Break, Forwarding, Reach};
use crate::topology::{NicEnd, Topology};
use netlint_model::{Design, HostId, NetworkId, Speed};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// What decides a host's side of [`Forwarding::reach`] on one network:
/// per carrier, its active then its standby NICs, each with where it is
/// cabled and whether it failed or lost link; `Err(host)` for a host with
/// a direct cable to another host. Each NIC's speed is in it too: reach
/// does not look at it, but the rules that compare a path with the hosts'
/// adapters do, and with it in the class they can decide per class pair.
type Signature = Result<Vec<(usize, u8, usize, bool, bool, Option<Speed>)>, HostId>;

fn signature(
    design: &Design,
    topo: &Topology,
    fwd: &Forwarding,
    host: HostId,
    network: NetworkId,
) -> Signature {
    let mut out = Vec::new();
    for c in topo.carriers_of(host, network) {
        // A separator between carriers, and between active and standby.
        for (mark, nics) in [(2u8, &c.active), (3u8, &c.standby)] {
            out.push((usize::MAX, mark, 0, false, false, None));
            for &n in nics {
                let (kind, at) = match topo.nic_ends[host.0][n.0] {
                    None => (0, 0),
                    Some(NicEnd::Switch(s)) => (1, s.0),
                    Some(NicEnd::Peer(..)) => return Err(host),
                };
                let failed = fwd.failures.nics.contains(&(host, n));
                let speed = design.host(host).nic(n).speed.as_ref().map(|s| s.value);
                out.push((n.0, kind, at, failed, fwd.nic_up(topo, host, n), speed));
                // Its configured switch port, if any (see `l2::ports`).
                match super::ports::port_key(design, host, n) {
                    0 => {}
                    p => out.push((usize::MAX - 1, 4, p, false, false, None)),
                }
            }
        }
    }
    Ok(out)
}

/// The hosts of one cluster on one network, by class, with the
/// reachability of each pair of classes that has a pair of hosts.
struct Group {
    network: NetworkId,
    /// The hosts, in the order of the cluster.
    members: Vec<HostId>,
    /// Per member: its class.
    class: Vec<u32>,
    /// How many classes there are.
    classes: usize,
    /// Per class: the positions of its members in `members`, ascending.
    at: Vec<Vec<usize>>,
    /// Per ordered pair of classes `(x, y)` at `x * classes + y` (the class
    /// of the earlier host first): where in `walked` the reachability
    /// between two of their hosts is, when the cluster has such a pair
    /// (`NONE` else: half the pairs of classes have none, and an index
    /// costs less than an empty record).
    pair: Vec<u32>,
    /// The walks, one per pair of classes with a pair of hosts.
    walked: Vec<Reach>,
}

/// No walk for this pair of classes.
const NONE: u32 = u32::MAX;

impl Group {
    /// The walk of the pair of classes at `at`, if it has a pair of hosts.
    fn walk(&self, at: usize) -> Option<&Reach> {
        let i = self.pair[at];
        (i != NONE).then(|| &self.walked[i as usize])
    }
}

/// Reachability of every network between every pair of hosts of each
/// cluster that attach to it, for one scenario, stored per pair of host
/// classes (see the module documentation).
pub struct Reachability {
    groups: Vec<Group>,
    /// Per group: the position of its first pair of classes in
    /// [`Reachability::class_pairs`] (a group's are consecutive, one per
    /// walk), and the total last.
    starts: Vec<usize>,
    /// Per host: the groups it is a member of, ascending.
    of_host: Vec<Vec<u32>>,
}

impl Reachability {
    pub fn new(design: &Design, topo: &Topology, fwd: &Forwarding) -> Reachability {
        use rayon::prelude::*;
        let clusters = design.clusters();
        let mut groups: Vec<(NetworkId, Vec<HostId>)> = Vec::new();
        for (ni, _) in design.networks.iter().enumerate() {
            let net = NetworkId(ni);
            let on: BTreeSet<HostId> = topo.hosts_on(net).into_iter().collect();
            for hosts in clusters.values() {
                let members: Vec<HostId> =
                    hosts.iter().copied().filter(|h| on.contains(h)).collect();
                if members.len() > 1 {
                    groups.push((net, members));
                }
            }
        }
        // Groups are independent: large designs class and walk them on
        // every core; the result keeps this order whatever the threads do.
        let groups = groups
            .into_par_iter()
            .map(|(network, members)| group(design, topo, fwd, network, members))
            .collect::<Vec<Group>>();
        let mut starts = Vec::with_capacity(groups.len() + 1);
        let mut at = 0;
        for g in &groups {
            starts.push(at);
            at += g.walked.len();
        }
        starts.push(at);
        let mut of_host = vec![Vec::new(); design.hosts.len()];
        for (gi, g) in groups.iter().enumerate() {
            for h in &g.members {
                of_host[h.0].push(gi as u32);
            }
        }
        Reachability {
            groups,
            starts,
            of_host,
        }
    }

    /// Every pair's reachability, in order: per network, per cluster, each
    /// host with every later host of the cluster.
    pub fn iter(&self) -> impl Iterator<Item = Reach> + '_ {
        self.iter_where(|_| true)
    }

    /// The pairs whose reachability passes `keep`, in the order of
    /// [`Reachability::iter`]. `keep` sees one pair of each pair of classes
    /// and decides for all of them, so it must not look at which hosts the
    /// pair has (`broken.is_some()`, `network == n`): the pairs it drops
    /// are never built.
    pub fn iter_where<'a>(
        &'a self,
        keep: impl Fn(&Reach) -> bool + Copy + 'a,
    ) -> impl Iterator<Item = Reach> + 'a {
        self.groups
            .iter()
            .filter(move |g| g.walked.iter().any(keep))
            .flat_map(move |g| {
                (0..g.members.len()).flat_map(move |i| {
                    (i + 1..g.members.len()).filter_map(move |j| {
                        let at = g.class[i] as usize * g.classes + g.class[j] as usize;
                        let r = g.walk(at)?;
                        keep(r).then(|| rename(r, g.members[i], g.members[j]))
                    })
                })
            })
    }

    /// How many host pairs there are (what [`Reachability::iter`] yields).
    pub fn len(&self) -> usize {
        self.groups
            .iter()
            .map(|g| g.members.len() * (g.members.len() - 1) / 2)
            .sum()
    }

    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// How many distinct walks the pairs took (one per pair of classes met).
    pub fn walks(&self) -> usize {
        self.groups.iter().map(|g| g.walked.len()).sum()
    }

    /// The networks with a pair of hosts, each once, in order.
    pub fn networks(&self) -> impl Iterator<Item = NetworkId> + '_ {
        let mut seen = BTreeSet::new();
        self.groups
            .iter()
            .map(|g| g.network)
            .filter(move |n| seen.insert(*n))
    }

    /// Every pair of classes that has a pair of hosts, in the order of
    /// each one's first host pair in [`Reachability::iter`]: what a rule
    /// decides once for all the host pairs it stands for. A rule that
    /// keeps what the first host pair of each key brought meets the keys
    /// in the same order as over the host pairs.
    pub fn class_pairs(&self) -> Vec<ClassPair<'_>> {
        self.class_pairs_where(|_| true)
    }

    /// The class pairs whose reachability passes `keep` (which, as for
    /// [`Reachability::iter_where`], must not look at the hosts).
    pub fn class_pairs_where(&self, keep: impl Fn(&Reach) -> bool) -> Vec<ClassPair<'_>> {
        let mut out = Vec::new();
        for index in 0..self.groups.len() {
            out.extend(self.group_class_pairs(index, &keep));
        }
        out
    }

    /// The class pairs of one group that pass `keep`, in the order of
    /// [`Reachability::class_pairs`].
    fn group_class_pairs(&self, index: usize, keep: impl Fn(&Reach) -> bool) -> Vec<ClassPair<'_>> {
        let g = &self.groups[index];
        let mut here: Vec<ClassPair<'_>> = Vec::new();
        for x in 0..g.classes {
            for y in 0..g.classes {
                let Some(r) = g.walk(x * g.classes + y) else {
                    continue;
                };
                if !keep(r) {
                    continue;
                }
                here.push(ClassPair {
                    group: g,
                    index,
                    x: x as u32,
                    y: y as u32,
                    xs: &g.at[x],
                    ys: &g.at[y],
                    reach: r,
                });
            }
        }
        here.sort_by_key(|cp| cp.order());
        here
    }

    /// The host pairs whose reachability may differ in another scenario
    /// (`other`, with the same topology), as parts of class pairs whose
    /// hosts are alike in both scenarios, in no particular order: every
    /// pair of the class pairs numbered in `whole` (positions in
    /// [`Reachability::class_pairs`]), and every pair with a host of
    /// `changed`, the hosts whose side of a pair `other` may change (their
    /// class there is worked out again); pairs of other hosts are as in
    /// this scenario. `f` gets each part; its walk is this scenario's.
    pub fn changed_parts(
        &self,
        design: &Design,
        topo: &Topology,
        other: &Forwarding,
        whole: &BTreeSet<usize>,
        changed: &BTreeSet<HostId>,
        mut f: impl FnMut(&ClassPair<'_>),
    ) {
        // Per group: the changed members' positions and their class in
        // `other` (numbered per group).
        // Hosts in ascending order, so that each group numbers its changed
        // members' classes in that order; only their groups are looked at.
        let mut moved: HashMap<usize, BTreeMap<usize, u32>> = HashMap::new();
        let mut ids: HashMap<usize, HashMap<Signature, u32>> = HashMap::new();
        for &h in changed {
            for &gi in self.of_host.get(h.0).into_iter().flatten() {
                let gi = gi as usize;
                let g = &self.groups[gi];
                let Ok(i) = g.members.binary_search(&h) else {
                    continue;
                };
                let ids = ids.entry(gi).or_default();
                let next = ids.len() as u32;
                let sig = signature(design, topo, other, h, g.network);
                let id = *ids.entry(sig).or_insert(next);
                moved.entry(gi).or_default().insert(i, id);
            }
        }
        // Only the groups with a class pair in `whole` or a changed host:
        // a scenario costs what it touches, not every class pair.
        let mut groups: BTreeSet<usize> = moved.keys().copied().collect();
        for &k in whole {
            if k < self.starts[self.groups.len()] {
                groups.insert(self.starts.partition_point(|&s| s <= k) - 1);
            }
        }
        let none = BTreeMap::new();
        let pairs = groups.into_iter().flat_map(|gi| {
            let start = self.starts[gi];
            self.group_class_pairs(gi, |_| true)
                .into_iter()
                .enumerate()
                .map(move |(j, cp)| (start + j, cp))
        });
        for (k, cp) in pairs {
            let whole = whole.contains(&k);
            let m = moved.get(&cp.index).unwrap_or(&none);
            let class = &cp.group.class;
            let touches = m.keys().any(|&i| class[i] == cp.x || class[i] == cp.y);
            if !whole && !touches {
                continue;
            }
            // Each side by class in `other`: None for the unchanged hosts.
            let split = |side: &[usize]| -> Vec<(Option<u32>, Vec<usize>)> {
                let mut out: Vec<(Option<u32>, Vec<usize>)> = Vec::new();
                for &i in side {
                    let key = m.get(&i).copied();
                    match out.iter_mut().find(|(k, _)| *k == key) {
                        Some((_, v)) => v.push(i),
                        None => out.push((key, vec![i])),
                    }
                }
                out
            };
            let (xs, ys) = (split(cp.xs), split(cp.ys));
            for (kx, px) in &xs {
                for (ky, py) in &ys {
                    if !whole && kx.is_none() && ky.is_none() {
                        continue;
                    }
                    let part = ClassPair {
                        xs: px,
                        ys: py,
                        ..cp
                    };
                    if !part.is_empty() {
                        f(&part);
                    }
                }
            }
        }
    }
}

/// One pair of host classes of a network in one cluster: every pair of
/// their hosts (a host of the first class before a host of the second in
/// the cluster's order) reaches the other the same way, with the hosts
/// named in a break swapped. [`ClassPair::by_named_host`] splits it into
/// parts with one host on a side.
#[derive(Clone, Copy)]
pub struct ClassPair<'a> {
    group: &'a Group,
    /// The group's index: the cluster's place among the network's.
    index: usize,
    /// The two classes.
    x: u32,
    y: u32,
    /// Positions in the group's members of the hosts of each side (of
    /// classes `x` and `y`), ascending.
    xs: &'a [usize],
    ys: &'a [usize],
    /// The walk of one pair of the classes.
    reach: &'a Reach,
}

impl<'a> ClassPair<'a> {
    pub fn network(&self) -> NetworkId {
        self.group.network
    }

    /// The reachability of one pair of the classes, as walked: a rule may
    /// read anything of it but which hosts it names (`a`, `b` and the host
    /// of a break are one pair's; any pair's adapters are alike).
    pub fn walked(&self) -> &'a Reach {
        self.reach
    }

    /// The reachability of the first host pair, hosts named as for it.
    pub fn reach(&self) -> Reach {
        let (a, b) = self.first();
        rename(self.reach, a, b)
    }

    /// The first host pair.
    pub fn first(&self) -> (HostId, HostId) {
        let (i, j) = self.first_positions();
        (self.group.members[i], self.group.members[j])
    }

    /// Positions of the first pair (a class pair and each of its parts has
    /// one by construction).
    fn first_positions(&self) -> (usize, usize) {
        self.positions().next().unwrap_or_default()
    }

    /// Where the first pair comes in [`Reachability::iter`] among the
    /// pairs of the same network: class pairs sort by it.
    pub fn order(&self) -> (usize, usize, usize) {
        let (i, j) = self.first_positions();
        (self.index, i, j)
    }

    /// Positions in the cluster's members of each pair, in order.
    fn positions(&self) -> impl Iterator<Item = (usize, usize)> + 'a {
        let ys = self.ys;
        self.xs.iter().flat_map(move |&i| {
            let from = ys.partition_point(|&j| j <= i);
            ys[from..].iter().map(move |&j| (i, j))
        })
    }

    /// The host pairs of the classes, in the order of [`Reachability::iter`].
    pub fn pairs(&self) -> impl Iterator<Item = (HostId, HostId)> + 'a {
        let m = &self.group.members;
        self.positions().map(move |(i, j)| (m[i], m[j]))
    }

    /// How many host pairs the classes have.
    pub fn len(&self) -> usize {
        let ys = self.ys;
        self.xs
            .iter()
            .map(|&i| ys.len() - ys.partition_point(|&j| j <= i))
            .sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The hosts that are the first host of some pair (hosts of the first
    /// class before the last host of the second), in order.
    pub fn firsts(&self) -> impl Iterator<Item = HostId> + 'a {
        let last = self.ys.last().copied().unwrap_or(0);
        let m = &self.group.members;
        self.xs
            .iter()
            .take_while(move |&&i| i < last)
            .map(move |&i| m[i])
    }

    /// The hosts that are the second host of some pair (hosts of the second
    /// class after the first host of the first), in order.
    pub fn seconds(&self) -> impl Iterator<Item = HostId> + 'a {
        let first = self.xs.first().copied().unwrap_or(usize::MAX);
        let m = &self.group.members;
        self.ys
            .iter()
            .filter(move |&&j| j > first)
            .map(move |&j| m[j])
    }

    /// The class pair as parts that each name one host in their break:
    /// one part per first host when the break names the first host of a
    /// pair, one per second host when it names the second, else itself.
    /// Parts in the order of their first pairs, none empty.
    pub fn by_named_host(&self) -> Vec<ClassPair<'a>> {
        let named = self.reach.broken.as_ref().and_then(named_host);
        let one = |k: usize, side: &'a [usize]| &side[k..k + 1];
        let parts: Vec<ClassPair<'a>> = match named {
            Some(h) if h == self.reach.a => (0..self.xs.len())
                .map(|k| ClassPair {
                    xs: one(k, self.xs),
                    ..*self
                })
                .collect(),
            Some(h) if h == self.reach.b => (0..self.ys.len())
                .map(|k| ClassPair {
                    ys: one(k, self.ys),
                    ..*self
                })
                .collect(),
            _ => return vec![*self],
        };
        let mut parts: Vec<ClassPair<'a>> = parts.into_iter().filter(|p| !p.is_empty()).collect();
        parts.sort_by_key(|p| p.order());
        parts
    }
}

/// The host a break names, if any ([`rename`] swaps it).
fn named_host(b: &Break) -> Option<HostId> {
    match b {
        Break::NoAdapter { host }
        | Break::NotCabled { host, .. }
        | Break::HostSwitchLacksVlan { host, .. }
        | Break::PeerElsewhere { host, .. } => Some(*host),
        _ => None,
    }
}

fn group(
    design: &Design,
    topo: &Topology,
    fwd: &Forwarding,
    network: NetworkId,
    members: Vec<HostId>,
) -> Group {
    // Classes in order of first member; each class's first two members.
    let mut ids: HashMap<Signature, u32> = HashMap::new();
    let mut reps: Vec<Vec<HostId>> = Vec::new();
    let mut class = Vec::with_capacity(members.len());
    for &h in &members {
        let next = ids.len() as u32;
        let c = *ids
            .entry(signature(design, topo, fwd, h, network))
            .or_insert(next);
        if c == next {
            reps.push(Vec::new());
        }
        if reps[c as usize].len() < 2 {
            reps[c as usize].push(h);
        }
        class.push(c);
    }
    // The ordered pairs of classes that have a pair of hosts: (x, y) with
    // a host of x before a host of y. Hosts of one class keep their order,
    // so x != y needs a host of x before the last host of y, and x == y
    // two hosts of x.
    let mut first = vec![usize::MAX; reps.len()];
    let mut last = vec![0usize; reps.len()];
    for (i, &c) in class.iter().enumerate() {
        first[c as usize] = first[c as usize].min(i);
        last[c as usize] = i;
    }
    let classes = reps.len();
    // The pairs of classes to walk and a pair of hosts for each, numbered
    // first so that the walks take no more room than they need.
    let mut pair = vec![NONE; classes * classes];
    let mut hosts: Vec<(HostId, HostId)> = Vec::new();
    for x in 0..classes {
        for y in 0..classes {
            let (a, b) = if x == y {
                match reps[x].as_slice() {
                    [a, b] => (*a, *b),
                    _ => continue,
                }
            } else if first[x] < last[y] {
                (reps[x][0], reps[y][0])
            } else {
                continue;
            };
            pair[x * classes + y] = hosts.len() as u32;
            hosts.push((a, b));
        }
    }
    let walked: Vec<Reach> = hosts
        .into_iter()
        .map(|(a, b)| fwd.reach(design, topo, network, a, b))
        .collect();
    let mut at = vec![Vec::new(); classes];
    for (i, &c) in class.iter().enumerate() {
        at[c as usize].push(i);
    }
    Group {
        network,
        members,
        class,
        classes,
        at,
        pair,
        walked,
    }
}

/// A class pair's reachability for two other hosts of the same classes:
/// the hosts named in it swapped for them.
fn rename(r: &Reach, a: HostId, b: HostId) -> Reach {
    let (ra, rb) = (r.a, r.b);
    let swap = |h: HostId| {
        if h == ra {
            a
        } else if h == rb {
            b
        } else {
            h
        }
    };
    let broken = r.broken.as_ref().map(|br| match br {
        Break::NoAdapter { host } => Break::NoAdapter { host: swap(*host) },
        Break::NotCabled { host, nic } => Break::NotCabled {
            host: swap(*host),
            nic: *nic,
        },
        Break::HostSwitchLacksVlan { host, nic, switch } => Break::HostSwitchLacksVlan {
            host: swap(*host),
            nic: *nic,
            switch: *switch,
        },
        Break::PeerElsewhere { host, nic } => Break::PeerElsewhere {
            host: swap(*host),
            nic: *nic,
        },
        Break::PortDrops {
            host,
            nic,
            switch,
            why,
        } => Break::PortDrops {
            host: swap(*host),
            nic: *nic,
            switch: *switch,
            why: *why,
        },
        Break::VlansApart { a: x, b: y } => Break::VlansApart {
            a: super::ports::PortEnd {
                host: swap(x.host),
                ..*x
            },
            b: super::ports::PortEnd {
                host: swap(y.host),
                ..*y
            },
        },
        other => other.clone(),
    });
    Reach {
        network: r.network,
        a,
        b,
        broken,
        path: r.path.clone(),
        slowest: r.slowest,
        min_mtu: r.min_mtu,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::l2::{Fabric, Failures};
    use netlint_model::{load, NicIdx, SourceFile, SwitchId};

    /// Every pair walked on its own, in the order of the clusters.
    fn every_pair(design: &Design, topo: &Topology, fwd: &Forwarding) -> Vec<String> {
        let clusters = design.clusters();
        let mut out = Vec::new();
        for (ni, _) in design.networks.iter().enumerate() {
            let net = NetworkId(ni);
            let on = topo.hosts_on(net);
            for hosts in clusters.values() {
                let m: Vec<HostId> = hosts.iter().copied().filter(|h| on.contains(h)).collect();
                for (i, &a) in m.iter().enumerate() {
                    for &b in &m[i + 1..] {
                        out.push(format!("{:?}", fwd.reach(design, topo, net, a, b)));
                    }
                }
            }
        }
        out
    }

    fn agree(design: &Design, topo: &Topology, fwd: &Forwarding, what: &str) {
        let classes = Reachability::new(design, topo, fwd);
        let got: Vec<String> = classes.iter().map(|r| format!("{r:?}")).collect();
        assert_eq!(classes.len(), got.len(), "{what}");
        let want = every_pair(design, topo, fwd);
        assert_eq!(got, want, "{what}");
        // Only the broken pairs, as filtering every pair gives them.
        let broken: Vec<String> = classes
            .iter_where(|r| r.broken.is_some())
            .map(|r| format!("{r:?}"))
            .collect();
        let want: Vec<&String> = want
            .iter()
            .filter(|r| !r.contains("broken: None"))
            .collect();
        assert_eq!(broken.iter().collect::<Vec<_>>(), want, "{what}");
        // The class pairs hold every host pair once, each with the walk of
        // its own pair; in the order of their first pairs.
        let mut from_classes: Vec<(usize, String)> = Vec::new();
        let position: HashMap<String, usize> = got
            .iter()
            .enumerate()
            .map(|(i, r)| (r.clone(), i))
            .collect();
        let mut firsts_seen = Vec::new();
        for cp in classes.class_pairs() {
            let pairs: Vec<(HostId, HostId)> = cp.pairs().collect();
            assert_eq!(pairs.len(), cp.len(), "{what}");
            assert!(!cp.is_empty(), "{what}");
            assert_eq!(
                format!("{:?}", cp.reach()),
                format!("{:?}", rename(cp.walked(), pairs[0].0, pairs[0].1)),
                "{what}"
            );
            let firsts: BTreeSet<HostId> = pairs.iter().map(|p| p.0).collect();
            let seconds: BTreeSet<HostId> = pairs.iter().map(|p| p.1).collect();
            assert_eq!(cp.firsts().collect::<BTreeSet<_>>(), firsts, "{what}");
            assert_eq!(cp.seconds().collect::<BTreeSet<_>>(), seconds, "{what}");
            for (a, b) in pairs {
                let r = format!("{:?}", rename(cp.walked(), a, b));
                let at = *position.get(&r).unwrap_or_else(|| panic!("{what}: {r}"));
                from_classes.push((at, r));
            }
            firsts_seen.push(from_classes[from_classes.len() - cp.len()].0);
            // Split by the host a break names: each part's pairs break
            // alike, host named included, and the parts hold every pair.
            let parts = cp.by_named_host();
            assert_eq!(
                parts.iter().map(|p| p.len()).sum::<usize>(),
                cp.len(),
                "{what}"
            );
            assert!(
                parts.windows(2).all(|w| w[0].order() < w[1].order()),
                "{what}"
            );
            for part in parts {
                let want = format!("{:?}", part.reach().broken);
                for (a, b) in part.pairs() {
                    let got = format!("{:?}", rename(cp.walked(), a, b).broken);
                    assert_eq!(got, want, "{what}");
                }
            }
        }
        assert!(firsts_seen.windows(2).all(|w| w[0] < w[1]), "{what}");
        from_classes.sort();
        let from_classes: Vec<String> = from_classes.into_iter().map(|(_, r)| r).collect();
        assert_eq!(from_classes, got, "{what}");
        // Only the broken ones.
        let broken_pairs: usize = classes
            .class_pairs_where(|r| r.broken.is_some())
            .iter()
            .map(|cp| cp.len())
            .sum();
        assert_eq!(broken_pairs, broken.len(), "{what}");
    }

    /// The pairs built from the classes are the pairs walked one by one,
    /// on every fixture, healthy, with each switch failed and with each
    /// NIC failed (a failed NIC puts its host in a class of its own).
    #[test]
    fn classes_give_every_pair_its_own_walk() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .expect("the fixtures directory")
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
        files.sort();
        let mut checked = 0;
        for p in files {
            let text = std::fs::read_to_string(&p).unwrap();
            let Some(d) = load(&SourceFile::new("t.toml", &text)).design else {
                continue;
            };
            let t = Topology::build(&d);
            let fab = Fabric::new(&d, &t);
            let healthy = fab.forwarding(&d, &t, &Failures::default());
            agree(&d, &t, &healthy, &format!("{}", p.display()));
            for s in 0..d.switches.len() {
                let mut f = Failures::default();
                f.switches.insert(SwitchId(s));
                let fwd = fab.forwarding(&d, &t, &f);
                agree(&d, &t, &fwd, &format!("{} switch {s}", p.display()));
            }
            for h in d.host_ids() {
                for n in 0..d.host(h).nics.len() {
                    let fwd = healthy.with_nic_failures([(h, NicIdx(n))]);
                    agree(&d, &t, &fwd, &format!("{} host {h:?} nic {n}", p.display()));
                }
            }
            checked += 1;
        }
        assert!(checked > 20, "only {checked} fixtures loaded");
    }

    /// Hosts built alike share their walks: a cluster of 60 hosts of one
    /// profile cabled to one switch pair has 1,770 pairs per network but
    /// walks one pair of classes per network.
    #[test]
    fn alike_hosts_share_one_walk() {
        let fixture =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/team-rdma.toml");
        let mut src = std::fs::read_to_string(fixture).unwrap();
        for i in 4..=60 {
            src.push_str(&format!("\n[hosts.hv{i}]\nprofile = \"node\"\n"));
        }
        let l = load(&SourceFile::new("t.toml", &src));
        let d = l.design.unwrap_or_else(|| panic!("{:#?}", l.diagnostics));
        let t = Topology::build(&d);
        let f = Fabric::new(&d, &t).forwarding(&d, &t, &Failures::default());
        let r = Reachability::new(&d, &t, &f);
        let networks = r.networks().count();
        assert_eq!(networks, d.networks.len());
        assert_eq!(r.len(), networks * 60 * 59 / 2);
        assert_eq!(r.walks(), networks);
        assert_eq!(r.class_pairs().len(), networks);
        assert!(r.class_pairs().iter().all(|cp| cp.len() == 60 * 59 / 2));
        assert!(r.iter().all(|p| p.broken.is_none()));
        assert_eq!(r.iter_where(|p| p.broken.is_some()).count(), 0);
        agree(&d, &t, &f, "alike");
    }
}
