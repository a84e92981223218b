//! Reachability by forwarding component: what keeps a network that
//! thousands of hosts of one cluster share from costing a walk and a
//! record per host pair, or per pair of host classes.
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
//! Whether two classes reach each other is a question about components,
//! not pairs: a carrier reaches another when every working NIC of both is
//! cabled to a switch, lands in one VLAN through its port, on a switch
//! that defines it, and every one of those switches is in one forwarding
//! component of that VLAN. So each carrier has a key (the VLAN and the
//! component) or none, each class the set of its carriers' keys, and two
//! classes reach each other exactly when their sets meet. Classes with the
//! same set form a bucket; whether two buckets reach is one set
//! intersection, and a class with a direct cable is walked against every
//! class once, when the classes are made.
//!
//! So [`Reachability`] stores, per network and cluster, the hosts, their
//! classes, each class's keys and the buckets: time and memory grow with
//! the hosts, not with the pairs of hosts or of classes. How a pair
//! reaches (its path) or why it does not (its first break) is walked only
//! when a rule asks for it, for the pair of classes it asks about
//! ([`ClassPair::walk`]).

use super::Forwarding;
use crate::fast_hash::Map as HashMap;
use crate::topology::{NicEnd, Topology};
use netlint_model::{Design, HostId, NetworkId, Speed};
use std::collections::{BTreeMap, BTreeSet};

mod pair;
pub(crate) use pair::every_pair;
#[cfg(test)]
use pair::rename;
pub use pair::ClassPair;

/// What decides a host's side of [`Forwarding::reach`] on one network:
/// per carrier, its active then its standby NICs, each with where it is
/// cabled and whether it failed or lost link; `Err(host)` for a host with
/// a direct cable to another host. Each NIC's speed is in it too: reach
/// does not look at it, but the rules that compare a path with the hosts'
/// adapters do, and with it in the class they can decide per class.
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

/// Where a carrier's frames meet another's: the VLAN they land in on the
/// switches and the forwarding component (of that VLAN) of the switches
/// its working NICs are cabled to.
pub type ReachKey = (Option<u16>, usize);

/// The key of every host when the forwarding has no view of the
/// network's VLAN: [`Forwarding::reach`] then finds no break at all.
const EVERYWHERE: ReachKey = (None, usize::MAX);

/// A class's side of reachability.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Side {
    /// Reaches the classes whose keys meet these (sorted, without
    /// repeats; none: it reaches nobody).
    Keys(Vec<ReachKey>),
    /// A host with a NIC cabled straight to another host: decided by
    /// walking it against every class (the index into `Group::walks`).
    Walk(u32),
}

/// A class's keys, and the VLANs its NICs' frames land in (where a break
/// of one of its pairs may be explained).
fn side_of(
    design: &Design,
    topo: &Topology,
    fwd: &Forwarding,
    host: HostId,
    network: NetworkId,
) -> (Option<Vec<ReachKey>>, Vec<Option<u16>>) {
    let vlan = design.network(network).vlan_id();
    let Some(view) = fwd.vlan(vlan) else {
        return (Some(vec![EVERYWHERE]), Vec::new());
    };
    let carriers: Vec<_> = topo.carriers_of(host, network).collect();
    let mut landed = vec![vlan];
    let direct = carriers.iter().any(|c| {
        c.active
            .iter()
            .chain(&c.standby)
            .any(|n| matches!(topo.nic_ends[host.0][n.0], Some(NicEnd::Peer(..))))
    });
    let mut keys = Vec::new();
    for c in &carriers {
        let mut key: Option<ReachKey> = None;
        let mut whole = true;
        for x in fwd.working_nics(topo, host, c) {
            let Some(NicEnd::Switch(sx)) = topo.nic_ends[host.0][x.0] else {
                whole = false;
                continue;
            };
            let Ok(lx) = super::ports::landing(design, host, x, vlan) else {
                whole = false;
                continue;
            };
            // As `Forwarding::carrier_pair` picks the view.
            let (e, v) = match fwd.vlan(lx) {
                Some(v) if lx != vlan => (lx, v),
                _ => (vlan, view),
            };
            landed.push(e);
            if !design.switch(sx).defines_vlan(e) {
                whole = false;
                continue;
            }
            let k = (e, v.switch_component(topo, sx));
            if key.is_some_and(|q| q != k) {
                whole = false;
            }
            key = Some(k);
        }
        if whole {
            keys.extend(key);
        }
    }
    keys.sort_unstable();
    keys.dedup();
    landed.sort_unstable();
    landed.dedup();
    (if direct { None } else { Some(keys) }, landed)
}

/// Whether two sorted key lists share a key.
fn meet(a: &[ReachKey], b: &[ReachKey]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}

/// A class with a direct cable, walked against every class.
struct Walked {
    /// Per class: whether a pair reaches with this class's host first,
    /// and with it second (false where there is no such pair).
    first: Vec<bool>,
    second: Vec<bool>,
}

/// The hosts of one cluster on one network, by class and bucket.
struct Group {
    network: NetworkId,
    /// The hosts, in the order of the cluster.
    members: Vec<HostId>,
    /// Per member: its class.
    class: Vec<u32>,
    /// Per class: the positions of its members in `members`, ascending.
    at: Vec<Vec<usize>>,
    /// Per class: its side.
    side: Vec<Side>,
    /// Per class: its bucket (the classes with the same side).
    bucket: Vec<u32>,
    /// Per bucket: its classes, ascending.
    buckets: Vec<Vec<u32>>,
    /// The classes with a direct cable.
    walks: Vec<Walked>,
    /// The VLANs the members' frames land in (the network's among them), sorted: the
    /// views a break between two of them may be explained in.
    vlans: Vec<Option<u16>>,
}

impl Group {
    /// Whether a host of class `x` reaches a host of class `y` that comes
    /// after it in the cluster.
    fn reaches(&self, x: u32, y: u32) -> bool {
        match (&self.side[x as usize], &self.side[y as usize]) {
            (Side::Keys(a), Side::Keys(b)) => meet(a, b),
            (Side::Walk(w), _) => self.walks[*w as usize].first[y as usize],
            (_, Side::Walk(w)) => self.walks[*w as usize].second[x as usize],
        }
    }

    /// Whether two buckets' classes reach each other (for buckets without
    /// a class that is walked).
    fn buckets_meet(&self, p: usize, q: usize) -> Option<bool> {
        let side = |b: usize| &self.side[self.buckets[b][0] as usize];
        match (side(p), side(q)) {
            (Side::Keys(a), Side::Keys(b)) => Some(meet(a, b)),
            _ => None,
        }
    }

    /// Whether the ordered pair of classes `(x, y)` has a pair of hosts: a
    /// host of `x` before a host of `y`.
    fn has_pair(&self, x: u32, y: u32) -> bool {
        let (xs, ys) = (&self.at[x as usize], &self.at[y as usize]);
        if x == y {
            xs.len() > 1
        } else {
            xs[0] < *ys.last().unwrap_or(&0)
        }
    }

    fn class_count(&self) -> usize {
        self.at.len()
    }

    /// How many hosts a bucket has.
    fn bucket_hosts(&self, b: usize) -> usize {
        self.buckets[b]
            .iter()
            .map(|c| self.at[*c as usize].len())
            .sum()
    }
}

/// Which class pairs [`Reachability::class_pairs`] lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// Every class pair with a pair of hosts.
    All,
    /// Those whose hosts reach each other.
    Reaching,
    /// Those whose hosts do not.
    Broken,
}

/// Reachability of every network between every pair of hosts of each
/// cluster that attach to it, for one scenario, stored per host class and
/// forwarding component (see the module documentation).
pub struct Reachability {
    groups: Vec<Group>,
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
        // Groups are independent: large designs class them on every core;
        // the result keeps this order whatever the threads do.
        let groups = groups
            .into_par_iter()
            .map(|(network, members)| group(design, topo, fwd, network, members))
            .collect::<Vec<Group>>();
        let mut of_host = vec![Vec::new(); design.hosts.len()];
        for (gi, g) in groups.iter().enumerate() {
            for h in &g.members {
                of_host[h.0].push(gi as u32);
            }
        }
        Reachability { groups, of_host }
    }

    /// How many host pairs there are.
    pub fn len(&self) -> usize {
        self.groups
            .iter()
            .map(|g| g.members.len() * (g.members.len() - 1) / 2)
            .sum()
    }

    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// How many entries the classes hold (members, classes and their
    /// keys, buckets, walked classes against every class): what grows
    /// with the hosts and the classes, never with their pairs.
    pub fn entries(&self) -> usize {
        self.groups
            .iter()
            .map(|g| {
                g.members.len() * 2
                    + g.at.iter().map(Vec::len).sum::<usize>()
                    + g.side
                        .iter()
                        .map(|s| match s {
                            Side::Keys(k) => 1 + k.len(),
                            Side::Walk(_) => 1,
                        })
                        .sum::<usize>()
                    + g.buckets.iter().map(Vec::len).sum::<usize>()
                    + g.walks.len() * g.class_count() * 2
            })
            .sum()
    }

    /// The networks with a pair of hosts, each once, in order.
    pub fn networks(&self) -> impl Iterator<Item = NetworkId> + '_ {
        let mut seen = BTreeSet::new();
        self.groups
            .iter()
            .map(|g| g.network)
            .filter(move |n| seen.insert(*n))
    }

    /// The groups (one network, one cluster), in order.
    pub fn groups(&self) -> impl Iterator<Item = GroupRef<'_>> {
        self.groups
            .iter()
            .enumerate()
            .map(|(index, group)| GroupRef { index, group })
    }

    /// The group at `index` (of [`GroupRef::index`]).
    pub fn group(&self, index: usize) -> GroupRef<'_> {
        GroupRef {
            index,
            group: &self.groups[index],
        }
    }

    /// The group of `host` on `network`, and the host's position in it.
    pub fn group_of(&self, host: HostId, network: NetworkId) -> Option<(GroupRef<'_>, usize)> {
        self.of_host.get(host.0)?.iter().find_map(|&gi| {
            let g = &self.groups[gi as usize];
            if g.network != network {
                return None;
            }
            let i = g.members.binary_search(&host).ok()?;
            Some((
                GroupRef {
                    index: gi as usize,
                    group: g,
                },
                i,
            ))
        })
    }

    /// The class pairs of `network` (of every network: `None`) that `which`
    /// asks for, in the order of each one's first host pair (per network,
    /// per cluster, each host with every later host): what a rule decides
    /// once for all the host pairs it stands for. Listing the broken or the
    /// reaching ones costs what is listed, bucket by bucket, not every
    /// class pair.
    pub fn class_pairs(&self, which: Which, network: Option<NetworkId>) -> Vec<ClassPair<'_>> {
        let mut out = Vec::new();
        for g in self.groups() {
            if network.is_some_and(|n| n != g.group.network) {
                continue;
            }
            out.extend(g.class_pairs(which));
        }
        out
    }

    /// Groups of hosts that reach each other among `hosts` on `network`
    /// (two hosts are joined when they reach each other, and so are the
    /// hosts they reach), each in host order, ordered by their first host.
    pub fn reach_groups(&self, network: NetworkId, hosts: &BTreeSet<HostId>) -> Vec<Vec<HostId>> {
        let list: Vec<HostId> = hosts.iter().copied().collect();
        let mut uf = crate::UnionFind::new(list.len());
        // The first host of `hosts` met with each key, per group.
        let mut first: HashMap<(usize, ReachKey), usize> = HashMap::default();
        // The walked hosts, with the hosts of their group among `hosts`.
        let mut in_group: BTreeMap<usize, Vec<(usize, usize)>> = BTreeMap::new();
        for (k, &h) in list.iter().enumerate() {
            let Some((g, i)) = self.group_of(h, network) else {
                continue;
            };
            in_group.entry(g.index).or_default().push((k, i));
            if let Side::Keys(keys) = &g.group.side[g.group.class[i] as usize] {
                for key in keys {
                    let at = *first.entry((g.index, *key)).or_insert(k);
                    uf.union(at, k);
                }
            }
        }
        for (gi, hs) in &in_group {
            let g = &self.groups[*gi];
            for &(k, i) in hs {
                if !matches!(g.side[g.class[i] as usize], Side::Walk(_)) {
                    continue;
                }
                for &(l, j) in hs {
                    let (p, q) = if i < j { (i, j) } else { (j, i) };
                    if p != q && g.reaches(g.class[p], g.class[q]) {
                        uf.union(k, l);
                    }
                }
            }
        }
        // Labelled by the smallest index: the group's first host.
        let label = uf.labels();
        let mut out: BTreeMap<usize, Vec<HostId>> = BTreeMap::new();
        for (i, h) in list.iter().enumerate() {
            out.entry(label[i]).or_default().push(*h);
        }
        out.into_values().collect()
    }

    /// The host pairs of `network` that do not reach each other, and all
    /// of its host pairs: counted bucket by bucket.
    pub fn broken_count(&self, network: NetworkId) -> (usize, usize) {
        let (mut broken, mut total) = (0, 0);
        for g in self.groups().filter(|g| g.network() == network) {
            let n = g.group.members.len();
            total += n * (n - 1) / 2;
            broken += g.broken_count();
        }
        (broken, total)
    }

    /// The class pair of the first host pair of `network` that does not
    /// reach, in the order of the pairs.
    pub fn first_broken(&self, network: NetworkId) -> Option<ClassPair<'_>> {
        self.groups()
            .filter(|g| g.network() == network)
            .find_map(|g| g.first_broken())
    }

    /// The host pairs whose reachability may differ in another scenario
    /// (`other`, with the same topology), as parts of class pairs whose
    /// hosts are alike in both scenarios, in no particular order: every
    /// pair of the class pairs in `whole` (group, and classes in the order
    /// of a pair), and every pair with a host of `changed`, the hosts whose
    /// side of a pair `other` may change (their class there is worked out
    /// again); pairs of other hosts are as in this scenario. `f` gets each
    /// part.
    pub fn changed_parts(
        &self,
        design: &Design,
        topo: &Topology,
        other: &Forwarding,
        whole: &BTreeSet<(usize, u32, u32)>,
        changed: &BTreeSet<HostId>,
        mut f: impl FnMut(&ClassPair<'_>),
    ) {
        // Per group: the changed members' positions and their class in
        // `other` (numbered per group). Hosts in ascending order, so that
        // each group numbers its changed members' classes in that order.
        let mut moved: HashMap<usize, BTreeMap<usize, u32>> = HashMap::default();
        let mut ids: HashMap<usize, HashMap<Signature, u32>> = HashMap::default();
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
        // The class pairs to look at: those of `whole`, and every class
        // pair of a class with a changed host (a scenario costs what it
        // touches, not every class pair).
        let mut pairs: BTreeSet<(usize, u32, u32)> = whole.clone();
        for (gi, m) in &moved {
            let g = &self.groups[*gi];
            let classes: BTreeSet<u32> = m.keys().map(|&i| g.class[i]).collect();
            for &x in &classes {
                for y in 0..g.class_count() as u32 {
                    for (p, q) in [(x, y), (y, x)] {
                        if g.has_pair(p, q) {
                            pairs.insert((*gi, p, q));
                        }
                    }
                }
            }
        }
        let none = BTreeMap::new();
        for (gi, x, y) in pairs {
            let g = &self.groups[gi];
            if !g.has_pair(x, y) {
                continue;
            }
            let cp = GroupRef {
                index: gi,
                group: g,
            }
            .class_pair(x, y);
            let whole = whole.contains(&(gi, x, y));
            let m = moved.get(&gi).unwrap_or(&none);
            let class = &g.class;
            let touches = m.keys().any(|&i| class[i] == x || class[i] == y);
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

/// One group of a [`Reachability`]: the hosts of one cluster on one
/// network, by class.
#[derive(Clone, Copy)]
pub struct GroupRef<'a> {
    index: usize,
    group: &'a Group,
}

impl<'a> GroupRef<'a> {
    /// Its place among the groups (per network, per cluster).
    pub fn index(&self) -> usize {
        self.index
    }

    pub fn network(&self) -> NetworkId {
        self.group.network
    }

    /// The hosts, in the order of the cluster.
    pub fn members(&self) -> &'a [HostId] {
        &self.group.members
    }

    /// How many classes there are.
    pub fn classes(&self) -> usize {
        self.group.class_count()
    }

    /// The class of the member at position `i`.
    pub fn class_of(&self, i: usize) -> u32 {
        self.group.class[i]
    }

    /// The positions of a class's members, ascending.
    pub fn hosts_of(&self, class: u32) -> &'a [usize] {
        &self.group.at[class as usize]
    }

    /// A class's keys: the classes whose keys meet them reach it; `None`
    /// for a class with a direct cable, decided by [`GroupRef::reaches`]
    /// only.
    pub fn keys(&self, class: u32) -> Option<&'a [ReachKey]> {
        match &self.group.side[class as usize] {
            Side::Keys(k) => Some(k),
            Side::Walk(_) => None,
        }
    }

    /// Whether a host of class `x` reaches a host of class `y` after it.
    pub fn reaches(&self, x: u32, y: u32) -> bool {
        self.group.reaches(x, y)
    }

    /// Whether the members at positions `i` and `j` reach each other.
    pub fn members_reach(&self, i: usize, j: usize) -> bool {
        let (p, q) = if i < j { (i, j) } else { (j, i) };
        p != q && self.group.reaches(self.group.class[p], self.group.class[q])
    }

    /// The VLANs the members' frames land in and the network's own, sorted: where
    /// a break between two of them may be explained.
    pub fn vlans(&self) -> &'a [Option<u16>] {
        &self.group.vlans
    }

    /// The class pair `(x, y)`, which must have a pair of hosts.
    pub fn class_pair(&self, x: u32, y: u32) -> ClassPair<'a> {
        let g = self.group;
        ClassPair {
            group: g,
            index: self.index,
            x,
            y,
            xs: &g.at[x as usize],
            ys: &g.at[y as usize],
        }
    }

    /// Whether the ordered pair of classes has a pair of hosts.
    pub fn has_pair(&self, x: u32, y: u32) -> bool {
        self.group.has_pair(x, y)
    }

    /// The group's class pairs that `which` asks for, in the order of
    /// their first host pairs.
    pub fn class_pairs(&self, which: Which) -> Vec<ClassPair<'a>> {
        let g = self.group;
        let mut here: Vec<ClassPair<'a>> = Vec::new();
        let mut push = |x: u32, y: u32| {
            if g.has_pair(x, y) {
                let keep = match which {
                    Which::All => true,
                    Which::Reaching => g.reaches(x, y),
                    Which::Broken => !g.reaches(x, y),
                };
                if keep {
                    here.push(self.class_pair(x, y));
                }
            }
        };
        let nb = g.buckets.len();
        for p in 0..nb {
            for q in 0..nb {
                // Decided per pair of buckets where no class is walked.
                let skip = matches!(
                    (which, g.buckets_meet(p, q)),
                    (Which::Reaching, Some(false)) | (Which::Broken, Some(true))
                );
                if skip {
                    continue;
                }
                for &x in &g.buckets[p] {
                    for &y in &g.buckets[q] {
                        push(x, y);
                    }
                }
            }
        }
        here.sort_by_key(|cp| cp.order());
        here
    }

    /// How many host pairs do not reach each other.
    fn broken_count(&self) -> usize {
        let g = self.group;
        let nb = g.buckets.len();
        let mut broken = 0;
        for p in 0..nb {
            for q in 0..nb {
                match g.buckets_meet(p, q) {
                    Some(true) => {}
                    Some(false) if p < q => broken += g.bucket_hosts(p) * g.bucket_hosts(q),
                    Some(false) if p == q => {
                        let a = g.bucket_hosts(p);
                        broken += a * (a - 1) / 2;
                    }
                    Some(false) => {}
                    // A walked class: pair by pair of classes (every
                    // ordered pair of classes once).
                    None => {
                        for &s in &g.buckets[p] {
                            for &t in &g.buckets[q] {
                                if g.has_pair(s, t) && !g.reaches(s, t) {
                                    broken += self.class_pair(s, t).len();
                                }
                            }
                        }
                    }
                }
            }
        }
        broken
    }

    /// The class pair of the first host pair that does not reach.
    fn first_broken(&self) -> Option<ClassPair<'a>> {
        let g = self.group;
        let nb = g.buckets.len();
        // Per bucket: the buckets it does not reach (walked ones: maybe).
        let apart: Vec<Vec<usize>> = (0..nb)
            .map(|p| {
                (0..nb)
                    .filter(|&q| g.buckets_meet(p, q) != Some(true))
                    .collect()
            })
            .collect();
        if apart.iter().all(Vec::is_empty) {
            return None;
        }
        // Per bucket: its members' positions, ascending.
        let mut positions: Vec<Vec<usize>> = vec![Vec::new(); nb];
        for (i, &c) in g.class.iter().enumerate() {
            positions[g.bucket[c as usize] as usize].push(i);
        }
        for (i, &c) in g.class.iter().enumerate() {
            let p = g.bucket[c as usize] as usize;
            let mut best: Option<usize> = None;
            for &q in &apart[p] {
                let list = &positions[q];
                let from = list.partition_point(|&j| j <= i);
                for &j in &list[from..] {
                    if best.is_some_and(|b| j >= b) {
                        break;
                    }
                    if !g.reaches(c, g.class[j]) {
                        best = Some(j);
                        break;
                    }
                }
            }
            if let Some(j) = best {
                return Some(self.class_pair(c, g.class[j]));
            }
        }
        None
    }
}

fn group(
    design: &Design,
    topo: &Topology,
    fwd: &Forwarding,
    network: NetworkId,
    members: Vec<HostId>,
) -> Group {
    // Classes in order of first member.
    let mut ids: HashMap<Signature, u32> = HashMap::default();
    let mut class = Vec::with_capacity(members.len());
    let mut at: Vec<Vec<usize>> = Vec::new();
    for (i, &h) in members.iter().enumerate() {
        let next = ids.len() as u32;
        let c = *ids
            .entry(signature(design, topo, fwd, h, network))
            .or_insert(next);
        if c == next {
            at.push(Vec::new());
        }
        at[c as usize].push(i);
        class.push(c);
    }
    drop(ids);
    // Each class's side, from its first host; buckets by side.
    let mut side: Vec<Side> = Vec::with_capacity(at.len());
    let mut vlans: BTreeSet<Option<u16>> = BTreeSet::new();
    vlans.insert(design.network(network).vlan_id());
    let mut walked_classes: Vec<u32> = Vec::new();
    for (c, hosts) in at.iter().enumerate() {
        let (keys, landed) = side_of(design, topo, fwd, members[hosts[0]], network);
        vlans.extend(landed);
        side.push(match keys {
            Some(k) => Side::Keys(k),
            None => {
                walked_classes.push(c as u32);
                Side::Walk(walked_classes.len() as u32 - 1)
            }
        });
    }
    let mut bucket_of: HashMap<&Side, u32> = HashMap::default();
    let mut bucket = Vec::with_capacity(at.len());
    let mut buckets: Vec<Vec<u32>> = Vec::new();
    for (c, s) in side.iter().enumerate() {
        let next = buckets.len() as u32;
        let b = *bucket_of.entry(s).or_insert(next);
        if b == next {
            buckets.push(Vec::new());
        }
        buckets[b as usize].push(c as u32);
        bucket.push(b);
    }
    drop(bucket_of);
    // A class with a direct cable against every class, both ways.
    let walks = walked_classes
        .iter()
        .map(|&w| {
            let h = at[w as usize][0];
            let mut first = vec![false; at.len()];
            let mut second = vec![false; at.len()];
            for (y, hosts) in at.iter().enumerate() {
                if y == w as usize {
                    continue;
                }
                let (lo, hi) = (hosts[0], *hosts.last().unwrap_or(&0));
                let (a, b) = (members[h], members[hosts[0]]);
                if h < hi {
                    // This class's host first: the later host of `y`.
                    let later = hosts[hosts.partition_point(|&j| j <= h)];
                    first[y] = fwd.reaches(design, topo, network, a, members[later]);
                }
                if lo < h {
                    second[y] = fwd.reaches(design, topo, network, b, a);
                }
            }
            Walked { first, second }
        })
        .collect();
    Group {
        network,
        members,
        class,
        at,
        side,
        bucket,
        buckets,
        walks,
        vlans: vlans.into_iter().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::l2::{Fabric, Failures, Reach};
    use netlint_model::{load, NicIdx, SourceFile, SwitchId};

    /// Every pair walked on its own, in the order of the clusters.
    fn walk_every_pair(design: &Design, topo: &Topology, fwd: &Forwarding) -> Vec<Reach> {
        let clusters = design.clusters();
        let mut out = Vec::new();
        for (ni, _) in design.networks.iter().enumerate() {
            let net = NetworkId(ni);
            let on = topo.hosts_on(net);
            for hosts in clusters.values() {
                let m: Vec<HostId> = hosts.iter().copied().filter(|h| on.contains(h)).collect();
                for (i, &a) in m.iter().enumerate() {
                    for &b in &m[i + 1..] {
                        out.push(fwd.reach(design, topo, net, a, b));
                    }
                }
            }
        }
        out
    }

    fn agree(design: &Design, topo: &Topology, fwd: &Forwarding, what: &str) {
        let classes = Reachability::new(design, topo, fwd);
        let walked = walk_every_pair(design, topo, fwd);
        let want: Vec<String> = walked.iter().map(|r| format!("{r:?}")).collect();
        let got: Vec<String> = every_pair(design, topo, fwd)
            .iter()
            .map(|r| format!("{r:?}"))
            .collect();
        assert_eq!(classes.len(), got.len(), "{what}");
        assert_eq!(got, want, "{what}");
        // Whether a pair reaches, by components, is what the walk says.
        let position: HashMap<(NetworkId, HostId, HostId), usize> = walked
            .iter()
            .enumerate()
            .map(|(i, r)| ((r.network, r.a, r.b), i))
            .collect();
        for g in classes.groups() {
            let m = g.members();
            for i in 0..m.len() {
                for j in i + 1..m.len() {
                    let r = &walked[position[&(g.network(), m[i], m[j])]];
                    assert_eq!(g.members_reach(i, j), r.broken.is_none(), "{what}: {r:?}");
                }
            }
        }
        // The class pairs hold every host pair once, each with the walk of
        // its own pair; in the order of their first pairs; the broken and
        // the reaching ones split them.
        let all = classes.class_pairs(Which::All, None);
        let mut from_classes: Vec<(usize, String)> = Vec::new();
        let mut firsts_seen = Vec::new();
        for cp in &all {
            let w = cp.walk(design, topo, fwd);
            assert_eq!(cp.reaches(), w.broken.is_none(), "{what}");
            let pairs: Vec<(HostId, HostId)> = cp.pairs().collect();
            assert_eq!(pairs.len(), cp.len(), "{what}");
            assert!(!cp.is_empty(), "{what}");
            assert_eq!(
                format!("{:?}", cp.reach(&w)),
                format!("{:?}", rename(&w, pairs[0].0, pairs[0].1)),
                "{what}"
            );
            let firsts: BTreeSet<HostId> = pairs.iter().map(|p| p.0).collect();
            let seconds: BTreeSet<HostId> = pairs.iter().map(|p| p.1).collect();
            assert_eq!(cp.firsts().collect::<BTreeSet<_>>(), firsts, "{what}");
            assert_eq!(cp.seconds().collect::<BTreeSet<_>>(), seconds, "{what}");
            for (a, b) in pairs {
                let r = format!("{:?}", rename(&w, a, b));
                let at = position[&(cp.network(), a, b)];
                assert_eq!(r, want[at], "{what}");
                from_classes.push((at, r));
            }
            firsts_seen.push(from_classes[from_classes.len() - cp.len()].0);
            // Split by the host a break names: each part's pairs break
            // alike, host named included, and the parts hold every pair.
            let parts = cp.by_named_host(&w);
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
                let want = format!("{:?}", part.reach(&w).broken);
                for (a, b) in part.pairs() {
                    let got = format!("{:?}", rename(&w, a, b).broken);
                    assert_eq!(got, want, "{what}");
                }
            }
        }
        assert!(firsts_seen.windows(2).all(|w| w[0] < w[1]), "{what}");
        from_classes.sort();
        let from_classes: Vec<String> = from_classes.into_iter().map(|(_, r)| r).collect();
        assert_eq!(from_classes, got, "{what}");
        let keys = |v: Vec<ClassPair<'_>>| -> Vec<(usize, u32, u32)> {
            v.iter().map(|cp| cp.key()).collect()
        };
        let broken = keys(classes.class_pairs(Which::Broken, None));
        let reaching = keys(classes.class_pairs(Which::Reaching, None));
        let want_broken: Vec<_> = all
            .iter()
            .filter(|cp| !cp.reaches())
            .map(|cp| cp.key())
            .collect();
        let want_reaching: Vec<_> = all
            .iter()
            .filter(|cp| cp.reaches())
            .map(|cp| cp.key())
            .collect();
        assert_eq!(broken, want_broken, "{what}");
        assert_eq!(reaching, want_reaching, "{what}");
        // Counted and first broken pair, per network, as the pairs say.
        for (ni, _) in design.networks.iter().enumerate() {
            let net = NetworkId(ni);
            let mine: Vec<&Reach> = walked.iter().filter(|r| r.network == net).collect();
            let cut = mine.iter().filter(|r| r.broken.is_some()).count();
            assert_eq!(classes.broken_count(net), (cut, mine.len()), "{what}");
            let first = mine.iter().find(|r| r.broken.is_some()).map(|r| (r.a, r.b));
            assert_eq!(
                classes.first_broken(net).map(|cp| cp.first()),
                first,
                "{what}"
            );
            // Who reaches whom, grouped, among every host of the network.
            let hosts: BTreeSet<HostId> = mine.iter().flat_map(|r| [r.a, r.b]).collect();
            let mut uf = crate::UnionFind::new(design.hosts.len());
            for r in mine.iter().filter(|r| r.broken.is_none()) {
                uf.union(r.a.0, r.b.0);
            }
            let mut want: BTreeMap<usize, Vec<HostId>> = BTreeMap::new();
            for h in &hosts {
                want.entry(uf.find(h.0)).or_default().push(*h);
            }
            let want: Vec<Vec<HostId>> = want.into_values().collect();
            assert_eq!(classes.reach_groups(net, &hosts), want, "{what}");
        }
    }

    fn fixtures() -> Vec<(String, Design)> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .expect("the fixtures directory")
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
        files.sort();
        files
            .into_iter()
            .filter_map(|p| {
                let text = std::fs::read_to_string(&p).unwrap();
                let d = load(&SourceFile::new("t.toml", &text)).design?;
                Some((p.display().to_string(), d))
            })
            .collect()
    }

    /// The pairs built from the classes are the pairs walked one by one,
    /// and whether a pair reaches is what its components say, on every
    /// fixture, healthy, with each switch failed and with each NIC failed
    /// (a failed NIC puts its host in a class of its own).
    #[test]
    fn classes_give_every_pair_its_own_walk() {
        let mut checked = 0;
        for (p, d) in fixtures() {
            let t = Topology::build(&d);
            let fab = Fabric::new(&d, &t);
            let healthy = fab.forwarding(&d, &t, &Failures::default());
            agree(&d, &t, &healthy, &p);
            for s in 0..d.switches.len() {
                let mut f = Failures::default();
                f.switches.insert(SwitchId(s));
                let fwd = fab.forwarding(&d, &t, &f);
                agree(&d, &t, &fwd, &format!("{p} switch {s}"));
            }
            for h in d.host_ids() {
                for n in 0..d.host(h).nics.len() {
                    let fwd = healthy.with_nic_failures([(h, NicIdx(n))]);
                    agree(&d, &t, &fwd, &format!("{p} host {h:?} nic {n}"));
                }
            }
            checked += 1;
        }
        assert!(checked > 20, "only {checked} fixtures loaded");
    }

    fn team_rdma(hosts: usize) -> Design {
        let fixture =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/team-rdma.toml");
        let mut src = std::fs::read_to_string(fixture).unwrap();
        for i in 4..=hosts {
            src.push_str(&format!("\n[hosts.hv{i}]\nprofile = \"node\"\n"));
        }
        let l = load(&SourceFile::new("t.toml", &src));
        l.design.unwrap_or_else(|| panic!("{:#?}", l.diagnostics))
    }

    /// Hosts built alike share their class: a cluster of 60 hosts of one
    /// profile cabled to one switch pair has 1,770 pairs per network but
    /// one class pair per network, and holds no more than 4 hosts would
    /// beyond a few entries per host.
    #[test]
    fn alike_hosts_share_one_class() {
        let d = team_rdma(60);
        let t = Topology::build(&d);
        let f = Fabric::new(&d, &t).forwarding(&d, &t, &Failures::default());
        let r = Reachability::new(&d, &t, &f);
        let networks = r.networks().count();
        assert_eq!(networks, d.networks.len());
        assert_eq!(r.len(), networks * 60 * 59 / 2);
        assert_eq!(r.class_pairs(Which::All, None).len(), networks);
        assert!(r
            .class_pairs(Which::All, None)
            .iter()
            .all(|cp| cp.len() == 60 * 59 / 2));
        assert!(r.class_pairs(Which::Broken, None).is_empty());
        agree(&d, &t, &f, "alike");
    }

    /// A cluster whose hosts hang off distinct access switches (so every
    /// host is a class of its own): what the classes hold grows with the
    /// hosts, not with their pairs, and so does listing the broken pairs of
    /// a network that is not cut. Four times the hosts is four times the
    /// entries (give or take the fixed part), where pairs grow sixteenfold.
    #[test]
    fn entries_grow_linearly_with_hosts_on_distinct_switches() {
        let build = |access: usize| {
            let mut s = String::from(
                "[design]\nname = \"t\"\n[networks.mgmt]\nrole = \"management\"\nvlan = 10\n\
                 [networks.csv]\nrole = \"csv\"\nvlan = 20\n\
                 [switches.core]\nstp = { mode = \"rstp\", priority = 4096 }\n",
            );
            for k in 0..access {
                s.push_str(&format!(
                    "[switches.acc{k}]\n[[links]]\nname = \"up{k}\"\na = \"core\"\nb = \"acc{k}\"\nspeed = \"100G\"\n\
                     [hosts.h{k}]\ncluster = \"c\"\nnics.A = {{ speed = \"25G\", switch = \"acc{k}\", networks = [\"mgmt\", \"csv\"] }}\n"
                ));
            }
            let l = load(&SourceFile::new("t.toml", &s));
            let d = l.design.unwrap_or_else(|| panic!("{:#?}", l.diagnostics));
            let t = Topology::build(&d);
            let f = Fabric::new(&d, &t).forwarding(&d, &t, &Failures::default());
            let r = Reachability::new(&d, &t, &f);
            assert_eq!(r.len(), 2 * access * (access - 1) / 2);
            assert!(r.class_pairs(Which::Broken, None).is_empty());
            assert_eq!(r.broken_count(NetworkId(0)), (0, access * (access - 1) / 2));
            assert!(r.first_broken(NetworkId(1)).is_none());
            r.entries()
        };
        let (small, large) = (build(50), build(200));
        assert!(small > 0);
        assert!(large <= 4 * small + 16, "{small} -> {large}");
        assert!(large >= 4 * small - 16, "{small} -> {large}");
    }
}
