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
use netlint_model::{Design, HostId, NetworkId};
use std::collections::{BTreeSet, HashMap};

/// What decides a host's side of [`Forwarding::reach`] on one network:
/// per carrier, its active then its standby NICs, each with where it is
/// cabled and whether it failed or lost link; `Err(host)` for a host with
/// a direct cable to another host.
type Signature = Result<Vec<(usize, u8, usize, bool, bool)>, HostId>;

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
            out.push((usize::MAX, mark, 0, false, false));
            for &n in nics {
                let (kind, at) = match topo.nic_ends[host.0][n.0] {
                    None => (0, 0),
                    Some(NicEnd::Switch(s)) => (1, s.0),
                    Some(NicEnd::Peer(..)) => return Err(host),
                };
                let failed = fwd.failures.nics.contains(&(host, n));
                out.push((n.0, kind, at, failed, fwd.nic_up(topo, host, n)));
                // Its configured switch port, if any (see `l2::ports`).
                match super::ports::port_key(design, host, n) {
                    0 => {}
                    p => out.push((usize::MAX - 1, 4, p, false, false)),
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
    /// Per ordered pair of classes `(x, y)` at `x * classes + y` (the class
    /// of the earlier host first): the reachability between two of their
    /// hosts, when the cluster has such a pair.
    reach: Vec<Option<Reach>>,
}

/// Reachability of every network between every pair of hosts of each
/// cluster that attach to it, for one scenario, stored per pair of host
/// classes (see the module documentation).
pub struct Reachability {
    groups: Vec<Group>,
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
            .collect();
        Reachability { groups }
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
            .filter(move |g| g.reach.iter().flatten().any(keep))
            .flat_map(move |g| {
                (0..g.members.len()).flat_map(move |i| {
                    (i + 1..g.members.len()).filter_map(move |j| {
                        let at = g.class[i] as usize * g.classes + g.class[j] as usize;
                        let r = g.reach[at].as_ref()?;
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
        self.groups
            .iter()
            .map(|g| g.reach.iter().flatten().count())
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
    let mut reach = vec![None; classes * classes];
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
            let r = fwd.reach(design, topo, network, a, b);
            reach[x * classes + y] = Some(r);
        }
    }
    Group {
        network,
        members,
        class,
        classes,
        reach,
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
        assert!(r.iter().all(|p| p.broken.is_none()));
        assert_eq!(r.iter_where(|p| p.broken.is_some()).count(), 0);
        agree(&d, &t, &f, "alike");
    }
}
