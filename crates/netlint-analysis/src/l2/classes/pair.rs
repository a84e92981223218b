//! A pair of host classes ([`ClassPair`]): the host pairs it stands for,
//! in order, and its walk on demand, renamed for any of its pairs.

use super::{Group, Reachability};
use crate::fast_hash::Map as HashMap;
use crate::l2::{Break, Forwarding, Reach};
use crate::topology::Topology;
use netlint_model::{Design, HostId, NetworkId};

/// One pair of host classes of a network in one cluster: every pair of
/// their hosts (a host of the first class before a host of the second in
/// the cluster's order) reaches the other the same way, with the hosts
/// named in a break swapped. [`ClassPair::by_named_host`] splits it into
/// parts with one host on a side.
#[derive(Clone, Copy)]
pub struct ClassPair<'a> {
    pub(super) group: &'a Group,
    /// The group's index: the cluster's place among the network's.
    pub(super) index: usize,
    /// The two classes.
    pub(super) x: u32,
    pub(super) y: u32,
    /// Positions in the group's members of the hosts of each side (of
    /// classes `x` and `y`), ascending.
    pub(super) xs: &'a [usize],
    pub(super) ys: &'a [usize],
}

impl<'a> ClassPair<'a> {
    pub fn network(&self) -> NetworkId {
        self.group.network
    }

    /// The group and the two classes.
    pub fn key(&self) -> (usize, u32, u32) {
        (self.index, self.x, self.y)
    }

    /// Whether its hosts reach each other.
    pub fn reaches(&self) -> bool {
        self.group.reaches(self.x, self.y)
    }

    /// The pair of hosts walked for the whole class pair: the first host
    /// of each class (the first two of one class), whatever their order.
    pub fn walked_pair(&self) -> (HostId, HostId) {
        let g = self.group;
        let (xs, ys) = (&g.at[self.x as usize], &g.at[self.y as usize]);
        if self.x == self.y {
            (g.members[xs[0]], g.members[xs[1]])
        } else {
            (g.members[xs[0]], g.members[ys[0]])
        }
    }

    /// The reachability of the class pair, walked for
    /// [`ClassPair::walked_pair`]: a rule may read anything of it but which
    /// hosts it names (`a`, `b` and the host of a break are that pair's;
    /// any pair's adapters are alike). `fwd` must be the scenario the
    /// reachability was made for.
    pub fn walk(&self, design: &Design, topo: &Topology, fwd: &Forwarding) -> Reach {
        let (a, b) = self.walked_pair();
        fwd.reach(design, topo, self.group.network, a, b)
    }

    /// `walked` (this class pair's [`ClassPair::walk`]) for the first host
    /// pair, hosts named as for it.
    pub fn reach(&self, walked: &Reach) -> Reach {
        let (a, b) = self.first();
        rename(walked, a, b)
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

    /// Where the first pair comes among the pairs of the same network
    /// (cluster, then the two hosts' positions): class pairs sort by it.
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

    /// The host pairs of the classes, in order.
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

    /// The class pair as parts that each name one host in their break
    /// (`walked`: its [`ClassPair::walk`]): one part per first host when
    /// the break names the first host of a pair, one per second host when
    /// it names the second, else itself. Parts in the order of their first
    /// pairs, none empty.
    pub fn by_named_host(&self, walked: &Reach) -> Vec<ClassPair<'a>> {
        let named = walked.broken.as_ref().and_then(named_host);
        let one = |k: usize, side: &'a [usize]| &side[k..k + 1];
        let parts: Vec<ClassPair<'a>> = match named {
            Some(h) if h == walked.a => (0..self.xs.len())
                .map(|k| ClassPair {
                    xs: one(k, self.xs),
                    ..*self
                })
                .collect(),
            Some(h) if h == walked.b => (0..self.ys.len())
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

/// A class pair's reachability for two other hosts of the same classes:
/// the hosts named in it swapped for them.
pub(crate) fn rename(r: &Reach, a: HostId, b: HostId) -> Reach {
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
            a: crate::l2::ports::PortEnd {
                host: swap(x.host),
                ..*x
            },
            b: crate::l2::ports::PortEnd {
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

/// Every pair's reachability, in order: per network, per cluster, each
/// host with every later host of the cluster; walked once per pair of
/// classes. Quadratic in the hosts of a cluster by what it returns.
pub(crate) fn every_pair(design: &Design, topo: &Topology, fwd: &Forwarding) -> Vec<Reach> {
    let reach = Reachability::new(design, topo, fwd);
    let mut out = Vec::with_capacity(reach.len());
    for g in reach.groups() {
        let mut walked: HashMap<(u32, u32), Reach> = HashMap::default();
        let m = g.members();
        for i in 0..m.len() {
            for j in i + 1..m.len() {
                let (x, y) = (g.class_of(i), g.class_of(j));
                let w = walked
                    .entry((x, y))
                    .or_insert_with(|| g.class_pair(x, y).walk(design, topo, fwd));
                out.push(rename(w, m[i], m[j]));
            }
        }
    }
    out
}
