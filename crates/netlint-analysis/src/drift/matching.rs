//! Which element of the as-built design is which element of the design:
//! by name first, and where names differ, by what the element connects (a
//! switch by its hostname and its neighbours, a link by its two ends, a NIC
//! by its switch port, a host by its NICs' ports).

use netlint_model::ifname::{port_key, same_port};
use netlint_model::{
    Attachment, Design, Host, HostId, LinkId, NetworkId, NicIdx, SwitchId, TeamIdx, Uplink,
    VSwitchIdx, VlanSet,
};
use std::collections::{BTreeMap, BTreeSet};

/// How an element was matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MatchedBy {
    /// The same name on both sides.
    Name,
    /// Another name, the same connections (ends, ports, neighbours).
    Connections,
}

/// One-to-one pairs of ids, design side to as-built side.
#[derive(Clone, Debug)]
pub struct Pairs<T: Ord + Copy> {
    pub to_built: BTreeMap<T, (T, MatchedBy)>,
    pub to_design: BTreeMap<T, T>,
}

impl<T: Ord + Copy> Default for Pairs<T> {
    fn default() -> Self {
        Pairs {
            to_built: BTreeMap::new(),
            to_design: BTreeMap::new(),
        }
    }
}

impl<T: Ord + Copy> Pairs<T> {
    fn add(&mut self, d: T, b: T, by: MatchedBy) {
        self.to_built.insert(d, (b, by));
        self.to_design.insert(b, d);
    }
    pub fn built(&self, d: T) -> Option<T> {
        self.to_built.get(&d).map(|x| x.0)
    }
    pub fn design(&self, b: T) -> Option<T> {
        self.to_design.get(&b).copied()
    }
    pub fn by(&self, d: T) -> Option<MatchedBy> {
        self.to_built.get(&d).map(|x| x.1)
    }
    fn has_design(&self, d: T) -> bool {
        self.to_built.contains_key(&d)
    }
    fn has_built(&self, b: T) -> bool {
        self.to_design.contains_key(&b)
    }
}

/// The parts of one matched host.
#[derive(Clone, Debug, Default)]
pub struct HostParts {
    pub nics: Pairs<NicIdx>,
    pub teams: Pairs<TeamIdx>,
    pub vswitches: Pairs<VSwitchIdx>,
    /// Per matched virtual switch (design side): its vNICs by index.
    pub vnics: BTreeMap<VSwitchIdx, Pairs<usize>>,
}

/// Every pairing of the two designs.
#[derive(Clone, Debug, Default)]
pub struct Matching {
    pub networks: Pairs<NetworkId>,
    pub switches: Pairs<SwitchId>,
    pub links: Pairs<LinkId>,
    pub hosts: Pairs<HostId>,
    /// Per matched host (design side).
    pub parts: BTreeMap<HostId, HostParts>,
    /// Per matched switch (design side): its configured ports by index.
    pub ports: BTreeMap<SwitchId, Pairs<usize>>,
}

/// Pairs the elements of `d` (the design) with those of `b` (as built).
pub fn match_designs(d: &Design, b: &Design) -> Matching {
    let mut m = Matching::default();
    match_networks(d, b, &mut m);
    match_switches(d, b, &mut m);
    match_stack_members(d, b, &mut m);
    match_hosts(d, b, &mut m);
    // Hosts matched by their ports let switches that differ only in name
    // be matched by the hosts they serve, and those switches then let more
    // hosts and links match.
    match_switches_by_neighbours(d, b, &mut m);
    match_hosts(d, b, &mut m);
    match_links(d, b, &mut m);
    for (&dh, &(bh, _)) in &m.hosts.to_built.clone() {
        let parts = match_host_parts(&m, d.host(dh), b.host(bh));
        m.parts.insert(dh, parts);
    }
    for (&ds, &(bs, _)) in &m.switches.to_built.clone() {
        let mut p = Pairs::default();
        let bports = &b.switch(bs).ports;
        for (i, port) in d.switch(ds).ports.iter().enumerate() {
            if let Some(j) = bports.iter().position(|x| same_port(&x.name, &port.name)) {
                p.add(i, j, MatchedBy::Name);
            }
        }
        m.ports.insert(ds, p);
    }
    m
}

fn match_networks(d: &Design, b: &Design, m: &mut Matching) {
    for (i, n) in d.networks.iter().enumerate() {
        if let Some(j) = b.network_by_name(&n.name) {
            m.networks.add(NetworkId(i), j, MatchedBy::Name);
        }
    }
    // By VLAN, when the VLAN names one network on each side.
    let by_vlan = |x: &Design, v: u16| -> Vec<usize> {
        x.networks
            .iter()
            .enumerate()
            .filter(|(_, n)| n.vlan_id() == Some(v))
            .map(|(i, _)| i)
            .collect()
    };
    for (i, n) in d.networks.iter().enumerate() {
        let Some(v) = n.vlan_id() else { continue };
        if m.networks.has_design(NetworkId(i)) {
            continue;
        }
        if let ([_], [j]) = (by_vlan(d, v).as_slice(), by_vlan(b, v).as_slice()) {
            if !m.networks.has_built(NetworkId(*j)) {
                m.networks
                    .add(NetworkId(i), NetworkId(*j), MatchedBy::Connections);
            }
        }
    }
}

fn match_switches(d: &Design, b: &Design, m: &mut Matching) {
    for (i, s) in d.switches.iter().enumerate() {
        if let Some(j) = b.switch_by_name(&s.name) {
            m.switches.add(SwitchId(i), j, MatchedBy::Name);
        }
    }
    let dn: Vec<&str> = d.switches.iter().map(|s| s.name.as_str()).collect();
    let bn: Vec<&str> = b.switches.iter().map(|s| s.name.as_str()).collect();
    for (i, j) in same_but_case(
        &dn,
        &bn,
        |i| m.switches.has_design(SwitchId(i)),
        |j| m.switches.has_built(SwitchId(j)),
    ) {
        m.switches.add(SwitchId(i), SwitchId(j), MatchedBy::Name);
    }
}

/// The members of a stack whose name is the same on both sides (a Catalyst
/// stack's config is read back as `HOSTNAME-N` members sharing `stack =
/// "HOSTNAME"`), none of them matched by name: paired in order, the
/// design's N-th member with the as-built's N-th (member N of the stack's
/// one config, as `netlint generate --vendor ios` numbers them), when both
/// sides have the same number of members. A design's stack told by its
/// stacking cables alone is named as its first member (the hostname
/// `generate` gives its config).
fn match_stack_members(d: &Design, b: &Design, m: &mut Matching) {
    let built = |name: &str| -> Vec<SwitchId> {
        b.switches
            .iter()
            .enumerate()
            .filter(|(_, s)| s.stack.as_ref().is_some_and(|st| st.value == name))
            .map(|(i, _)| SwitchId(i))
            .collect()
    };
    for (name, ds) in design_stacks(d) {
        let bs = built(&name);
        if ds.len() != bs.len()
            || ds.len() < 2
            || ds.iter().any(|x| m.switches.has_design(*x))
            || bs.iter().any(|x| m.switches.has_built(*x))
        {
            continue;
        }
        for (x, y) in ds.into_iter().zip(bs) {
            m.switches.add(x, y, MatchedBy::Connections);
        }
    }
}

/// The design's stacks, each named (its `stack`, else its first member's
/// name) with its members in design order: switches sharing a `stack`,
/// and switches joined by `kind = "stack"` cables.
fn design_stacks(d: &Design) -> Vec<(String, Vec<SwitchId>)> {
    d.stacks()
        .into_iter()
        .map(|members| {
            let name = members
                .iter()
                .find_map(|s| d.switch(*s).stack.as_ref().map(|x| x.value.clone()))
                .unwrap_or_else(|| d.switch(members[0]).name.clone());
            (name, members)
        })
        .collect()
}

/// The names left unmatched on both sides that are one name but for case
/// (`TOR1` in the design, `tor1` as the switch's hostname; Windows host
/// names are not case-sensitive either): pairs of indices, only where the
/// name is unique on each side in that sense.
fn same_but_case(
    d: &[&str],
    b: &[&str],
    d_taken: impl Fn(usize) -> bool,
    b_taken: impl Fn(usize) -> bool,
) -> Vec<(usize, usize)> {
    let lower = |names: &[&str], taken: &dyn Fn(usize) -> bool| {
        let mut by: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (i, n) in names.iter().enumerate() {
            if !taken(i) {
                by.entry(n.to_lowercase()).or_default().push(i);
            }
        }
        by
    };
    let (x, y) = (lower(d, &d_taken), lower(b, &b_taken));
    x.iter()
        .filter_map(
            |(name, is)| match (is.as_slice(), y.get(name).map(Vec::as_slice)) {
                ([i], Some([j])) => Some((*i, *j)),
                _ => None,
            },
        )
        .collect()
}

/// What a switch connects, in design-side names: the host NICs cabled to
/// it (matched hosts only) and its neighbour switches (matched only).
fn switch_signature(
    x: &Design,
    s: SwitchId,
    host_to_design: &dyn Fn(HostId) -> Option<HostId>,
    switch_to_design: &dyn Fn(SwitchId) -> Option<SwitchId>,
) -> BTreeSet<(usize, usize, String)> {
    let mut sig = BTreeSet::new();
    for (hi, h) in x.hosts.iter().enumerate() {
        let Some(dh) = host_to_design(HostId(hi)) else {
            continue;
        };
        for n in &h.nics {
            if let Some(Attachment::Switch(sw)) = &n.attach {
                if sw.value == s {
                    sig.insert((
                        0,
                        dh.0,
                        n.port.as_ref().map(|p| p.value.clone()).unwrap_or_default(),
                    ));
                }
            }
        }
    }
    for l in &x.links {
        let ends: Vec<SwitchId> = l.ends().collect();
        if !ends.contains(&s) {
            continue;
        }
        for e in ends.into_iter().filter(|e| *e != s) {
            if let Some(de) = switch_to_design(e) {
                sig.insert((1, de.0, String::new()));
            }
        }
    }
    sig
}

fn match_switches_by_neighbours(d: &Design, b: &Design, m: &mut Matching) {
    let dsig: Vec<(SwitchId, BTreeSet<_>)> = (0..d.switches.len())
        .map(SwitchId)
        .filter(|s| !m.switches.has_design(*s))
        .map(|s| {
            let sig = switch_signature(d, s, &|h| m.hosts.has_design(h).then_some(h), &|x| {
                m.switches.has_design(x).then_some(x)
            });
            (s, sig)
        })
        .collect();
    let bsig: Vec<(SwitchId, BTreeSet<_>)> = (0..b.switches.len())
        .map(SwitchId)
        .filter(|s| !m.switches.has_built(*s))
        .map(|s| {
            let sig = switch_signature(b, s, &|h| m.hosts.design(h), &|x| m.switches.design(x));
            (s, sig)
        })
        .collect();
    for (ds, sig) in &dsig {
        if sig.is_empty() {
            continue;
        }
        let same_d = dsig.iter().filter(|(_, s)| s == sig).count();
        let cands: Vec<SwitchId> = bsig
            .iter()
            .filter(|(_, s)| s == sig)
            .map(|(x, _)| *x)
            .collect();
        if let ([one], 1) = (cands.as_slice(), same_d) {
            m.switches.add(*ds, *one, MatchedBy::Connections);
        }
    }
}

/// The (switch, port) pairs of a host's NICs, switches as design ids.
fn host_ports(
    h: &Host,
    switch_to_design: &dyn Fn(SwitchId) -> Option<SwitchId>,
) -> BTreeSet<(SwitchId, String)> {
    h.nics
        .iter()
        .filter_map(|n| match (&n.attach, &n.port) {
            (Some(Attachment::Switch(s)), Some(p)) => {
                Some((switch_to_design(s.value)?, port_key(&p.value)))
            }
            _ => None,
        })
        .collect()
}

fn match_hosts(d: &Design, b: &Design, m: &mut Matching) {
    for (i, h) in d.hosts.iter().enumerate() {
        if m.hosts.has_design(HostId(i)) {
            continue;
        }
        if let Some(j) = b.host_by_name(&h.name) {
            if !m.hosts.has_built(j) {
                m.hosts.add(HostId(i), j, MatchedBy::Name);
            }
        }
    }
    let dn: Vec<&str> = d.hosts.iter().map(|h| h.name.as_str()).collect();
    let bn: Vec<&str> = b.hosts.iter().map(|h| h.name.as_str()).collect();
    for (i, j) in same_but_case(
        &dn,
        &bn,
        |i| m.hosts.has_design(HostId(i)),
        |j| m.hosts.has_built(HostId(j)),
    ) {
        m.hosts.add(HostId(i), HostId(j), MatchedBy::Name);
    }
    let bports: Vec<(HostId, BTreeSet<_>)> = b
        .hosts
        .iter()
        .enumerate()
        .filter(|(i, _)| !m.hosts.has_built(HostId(*i)))
        .map(|(i, h)| (HostId(i), host_ports(h, &|s| m.switches.design(s))))
        .collect();
    let mut found = Vec::new();
    for (i, h) in d.hosts.iter().enumerate() {
        if m.hosts.has_design(HostId(i)) {
            continue;
        }
        let mine = host_ports(h, &|s| Some(s));
        if mine.is_empty() {
            continue;
        }
        // The as-built host that shares the most ports, when it is one and
        // shares at least half of the design host's ports.
        let mut best: Vec<(usize, HostId)> = bports
            .iter()
            .map(|(j, p)| (p.intersection(&mine).count(), *j))
            .filter(|(n, _)| *n * 2 >= mine.len() && *n > 0)
            .collect();
        best.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        match best.as_slice() {
            [one] => found.push((HostId(i), one.1)),
            [first, second, ..] if first.0 > second.0 => found.push((HostId(i), first.1)),
            _ => {}
        }
    }
    for (dh, bh) in found {
        if !m.hosts.has_built(bh) && !m.hosts.has_design(dh) {
            m.hosts.add(dh, bh, MatchedBy::Connections);
        }
    }
}

/// A link's two ends as sets of design switch ids (unordered).
fn link_ends(
    x: &Design,
    l: LinkId,
    to_design: &dyn Fn(SwitchId) -> Option<SwitchId>,
) -> Option<BTreeSet<BTreeSet<SwitchId>>> {
    let link = x.link(l);
    let a: Option<BTreeSet<SwitchId>> = link.a_ends().map(|s| to_design(s.value)).collect();
    let bb: Option<BTreeSet<SwitchId>> = link.b.iter().map(|s| to_design(s.value)).collect();
    Some([a?, bb?].into_iter().collect())
}

fn match_links(d: &Design, b: &Design, m: &mut Matching) {
    for (i, l) in d.links.iter().enumerate() {
        if let Some(j) = b.link_by_name(&l.name) {
            // The same name between other switches is not the same link.
            let same =
                link_ends(d, LinkId(i), &|s| Some(s)) == link_ends(b, j, &|s| m.switches.design(s));
            if same {
                m.links.add(LinkId(i), j, MatchedBy::Name);
            }
        }
    }
    for i in 0..d.links.len() {
        let dl = LinkId(i);
        if m.links.has_design(dl) {
            continue;
        }
        let ends = link_ends(d, dl, &|s| Some(s));
        let same_d: Vec<LinkId> = (0..d.links.len())
            .map(LinkId)
            .filter(|x| !m.links.has_design(*x) && link_ends(d, *x, &|s| Some(s)) == ends)
            .collect();
        let cands: Vec<LinkId> = (0..b.links.len())
            .map(LinkId)
            .filter(|x| {
                !m.links.has_built(*x) && link_ends(b, *x, &|s| m.switches.design(s)) == ends
            })
            .collect();
        let pick = match (same_d.as_slice(), cands.as_slice()) {
            ([_], [one]) => Some(*one),
            // Several links between the same switches: by their ports.
            _ => {
                let dlink = d.link(dl);
                let ports = (
                    dlink.ends.port_a.as_ref().map(|p| port_key(&p.value)),
                    dlink.ends.port_b.as_ref().map(|p| port_key(&p.value)),
                );
                let by_port: Vec<LinkId> = cands
                    .iter()
                    .copied()
                    .filter(|c| {
                        let bl = b.link(*c);
                        ports.0.is_some()
                            && (
                                bl.ends.port_a.as_ref().map(|p| port_key(&p.value)),
                                bl.ends.port_b.as_ref().map(|p| port_key(&p.value)),
                            ) == ports
                    })
                    .collect();
                match by_port.as_slice() {
                    [one] => Some(*one),
                    _ if ports.0.is_some() || ports.1.is_some() => None,
                    // No ports stated: by what the links are.
                    _ => by_likeness(d, b, dl, &same_d, &cands),
                }
            }
        };
        if let Some(bl) = pick {
            m.links.add(dl, bl, MatchedBy::Connections);
        }
    }
}

/// Several links between the same switches, none stating its ports (the
/// as-built's name them by port-channel, a design by its own words): the
/// candidate that is like `dl` (kind, cable speed, cables, bundling, then
/// the VLANs it allows), decided at the first level where `dl` is told
/// apart. Links alike at every level, or alike in everything among
/// themselves on each side, are interchangeable, and are paired in file
/// order. `None` when the level that tells them apart still leaves
/// two candidates, or none.
fn by_likeness(
    d: &Design,
    b: &Design,
    dl: LinkId,
    same_d: &[LinkId],
    cands: &[LinkId],
) -> Option<LinkId> {
    type Alike = fn(&netlint_model::Link, &netlint_model::Link) -> bool;
    fn shape(x: &netlint_model::Link, y: &netlint_model::Link) -> bool {
        x.kind.value == y.kind.value
            && x.speed.as_ref().map(|s| s.value) == y.speed.as_ref().map(|s| s.value)
            && x.members.value == y.members.value
            && x.lag.value == y.lag.value
    }
    let whole: Alike = |x, y| {
        // No `vlans` is every VLAN: a trunk read back as allowing 1-4094.
        let of = |l: &netlint_model::Link| l.vlans.as_ref().map_or_else(VlanSet::all, |v| v.value);
        shape(x, y) && of(x) == of(y)
    };
    let speed: Alike = |x, y| {
        x.kind.value == y.kind.value
            && x.speed.as_ref().map(|s| s.value) == y.speed.as_ref().map(|s| s.value)
    };
    let this = d.link(dl);
    for (level, alike) in [whole, shape as Alike, speed].into_iter().enumerate() {
        let ds: Vec<LinkId> = same_d
            .iter()
            .copied()
            .filter(|x| alike(d.link(*x), this))
            .collect();
        let bs: Vec<LinkId> = cands
            .iter()
            .copied()
            .filter(|x| alike(b.link(*x), this))
            .collect();
        match (ds.len(), bs.len()) {
            (_, 0) => continue,
            (1, 1) => return Some(bs[0]),
            // Interchangeable (alike in everything among themselves, on
            // each side: two trunks a design leaves at every VLAN, read
            // back listing the switch's VLANs): in file order.
            (n, m)
                if n == m
                    && (level == 0
                        || ds.iter().all(|x| whole(d.link(*x), this))
                            && bs.iter().all(|x| whole(b.link(*x), b.link(bs[0])))) =>
            {
                let at = ds.iter().position(|x| *x == dl)?;
                return Some(bs[at]);
            }
            _ => return None,
        }
    }
    None
}

fn match_host_parts(m: &Matching, dh: &Host, bh: &Host) -> HostParts {
    let mut p = HostParts::default();
    for (i, n) in dh.nics.iter().enumerate() {
        if let Some(j) = bh.nic_by_name(&n.name) {
            p.nics.add(NicIdx(i), j, MatchedBy::Name);
        }
    }
    // By switch port: the NIC cabled to the same port of the same switch.
    let port_of = |n: &netlint_model::Nic, to_design: &dyn Fn(SwitchId) -> Option<SwitchId>| match (
        &n.attach, &n.port,
    ) {
        (Some(Attachment::Switch(s)), Some(port)) => {
            Some((to_design(s.value)?, port_key(&port.value)))
        }
        _ => None,
    };
    for (i, n) in dh.nics.iter().enumerate() {
        if p.nics.has_design(NicIdx(i)) {
            continue;
        }
        let Some(at) = port_of(n, &|s| Some(s)) else {
            continue;
        };
        let cands: Vec<usize> = bh
            .nics
            .iter()
            .enumerate()
            .filter(|(j, x)| {
                !p.nics.has_built(NicIdx(*j))
                    && port_of(x, &|s| m.switches.design(s)).as_ref() == Some(&at)
            })
            .map(|(j, _)| j)
            .collect();
        if let [one] = cands.as_slice() {
            p.nics.add(NicIdx(i), NicIdx(*one), MatchedBy::Connections);
        }
    }
    let members = |h: &Host, t: usize, to: &dyn Fn(NicIdx) -> Option<NicIdx>| {
        h.teams[t]
            .members
            .iter()
            .map(|x| to(x.value))
            .collect::<Option<BTreeSet<NicIdx>>>()
    };
    for (i, t) in dh.teams.iter().enumerate() {
        if let Some(j) = bh.teams.iter().position(|x| x.name == t.name) {
            p.teams.add(TeamIdx(i), TeamIdx(j), MatchedBy::Name);
        }
    }
    for i in 0..dh.teams.len() {
        if p.teams.has_design(TeamIdx(i)) {
            continue;
        }
        let mine = members(dh, i, &|x| Some(x));
        let cands: Vec<usize> = (0..bh.teams.len())
            .filter(|j| {
                !p.teams.has_built(TeamIdx(*j)) && members(bh, *j, &|x| p.nics.design(x)) == mine
            })
            .collect();
        if let [one] = cands.as_slice() {
            p.teams
                .add(TeamIdx(i), TeamIdx(*one), MatchedBy::Connections);
        }
    }
    let uplink_key = |u: Uplink, h: &Host, nic: &dyn Fn(NicIdx) -> Option<NicIdx>| match u {
        Uplink::Nic(n) => nic(n).map(|x| (0, x.0)),
        Uplink::Team(t) => {
            let _ = h;
            Some((1, t.0))
        }
    };
    for (i, v) in dh.vswitches.iter().enumerate() {
        if let Some(j) = bh.vswitches.iter().position(|x| x.name == v.name) {
            p.vswitches
                .add(VSwitchIdx(i), VSwitchIdx(j), MatchedBy::Name);
        }
    }
    for (i, v) in dh.vswitches.iter().enumerate() {
        if p.vswitches.has_design(VSwitchIdx(i)) {
            continue;
        }
        let mine: Option<BTreeSet<_>> = v
            .uplinks
            .iter()
            .map(|u| uplink_key(u.value, dh, &|x| Some(x)))
            .collect();
        let cands: Vec<usize> = (0..bh.vswitches.len())
            .filter(|j| {
                if p.vswitches.has_built(VSwitchIdx(*j)) {
                    return false;
                }
                let theirs: Option<BTreeSet<_>> = bh.vswitches[*j]
                    .uplinks
                    .iter()
                    .map(|u| match u.value {
                        Uplink::Team(t) => p.teams.design(t).map(|x| (1, x.0)),
                        other => uplink_key(other, bh, &|x| p.nics.design(x)),
                    })
                    .collect();
                theirs.is_some() && theirs == mine
            })
            .collect();
        if let [one] = cands.as_slice() {
            p.vswitches
                .add(VSwitchIdx(i), VSwitchIdx(*one), MatchedBy::Connections);
        }
    }
    for (&dv, &(bv, _)) in &p.vswitches.to_built {
        let mut vp = Pairs::default();
        let (dvs, bvs) = (&dh.vswitches[dv.0], &bh.vswitches[bv.0]);
        for (i, vn) in dvs.vnics.iter().enumerate() {
            if let Some(j) = bvs.vnics.iter().position(|x| x.name == vn.name) {
                vp.add(i, j, MatchedBy::Name);
            }
        }
        for (i, vn) in dvs.vnics.iter().enumerate() {
            if vp.has_design(i) {
                continue;
            }
            let cands: Vec<usize> = bvs
                .vnics
                .iter()
                .enumerate()
                .filter(|(j, x)| {
                    !vp.has_built(*j)
                        && m.networks.design(x.network.value) == Some(vn.network.value)
                })
                .map(|(j, _)| j)
                .collect();
            if let [one] = cands.as_slice() {
                vp.add(i, *one, MatchedBy::Connections);
            }
        }
        p.vnics.insert(dv, vp);
    }
    p
}
