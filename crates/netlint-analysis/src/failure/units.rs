//! Failure units: what can fail, how each is named on the command line and
//! where it is written in the design.

use super::*;

/// One thing that can fail.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Unit {
    /// A switch: a plain switch, one member of a stack, one MLAG peer.
    Switch(SwitchId),
    /// Every member of a stack or MLAG domain at once (`--stack-as-unit`,
    /// a stack reload, a bad firmware upgrade).
    Bridge(BridgeId),
    /// One cable (0-based) of an inter-switch link.
    Cable(LinkId, u32),
    /// Every cable of an inter-switch link.
    Link(LinkId),
    /// A NIC card of a host: all its ports.
    Card(HostId, String),
    /// One NIC port of a host, or the cable plugged into it.
    Nic(HostId, NicIdx),
    /// Cables of a link between the members of one stack or MLAG domain (a
    /// peer-link, a stacking cable; `cable`: one of them, `None`: all)
    /// whose loss splits the domain in parts. The part of `keep` keeps
    /// the multi-chassis LAGs; every other part suspends its members of
    /// them and keeps its other (orphan) ports up, without a way to the
    /// part of `keep`:
    ///
    /// - an MLAG / vPC peer-link failing with the peer keepalive up: the
    ///   vPC secondary suspends its vPC member ports (and its vPC VLAN
    ///   SVIs), orphan ports stay up, and traffic between the orphan ports
    ///   of the two peers has no way across (Cisco Nexus 5000 NX-OS
    ///   Interfaces Operations Guide 5.0(3)N2(1), "vPC Response to a Peer
    ///   Link Failure"; Cisco NX-OS vPC Design Guide C07-572835; NX-OS's
    ///   `%VPC-2-VPC_SUSP_ALL_VPC: Peer-link going down, suspending all
    ///   vPCs on secondary`): `keep` is the primary;
    /// - a stacking cable of a chain stack: the stack is severed in two and
    ///   each fragment runs on with its own master (Extreme EXOS "Stacking
    ///   Link Failure": a daisy chain is severed and the severed portion may
    ///   elect a master; HPE Aruba 16.x "Restoring operation after
    ///   disconnecting a stacking cable": a ring becomes a chain, a chain
    ///   splits in fragments); a LAG across the fragments bundles with one
    ///   partner only (LACP), the fragment of `keep`.
    ///
    /// The design does not say which peer is the vPC primary, nor which
    /// fragment keeps the LAGs: [`units`] lists one unit per choice, so
    /// each host that some choice cuts is named (the worst case).
    Split {
        link: LinkId,
        cable: Option<u32>,
        keep: SwitchId,
    },
}

/// Which units to enumerate.
#[derive(Clone, Copy, Debug, Default)]
pub struct UnitOptions {
    /// A stack fails as a whole instead of member by member.
    pub stack_as_unit: bool,
    /// Also every port of a multi-port card (a port's failure is a subset
    /// of its card's, so the rules need only the cards).
    pub nic_ports: bool,
}

impl Analysis<'_> {
    /// Whether units `a` and `b` fail the same: the same unit, or two
    /// cables of one LAG. A LAG's port counts the cables it lost, never
    /// which ([`Fabric::port_state`](crate::l2::Fabric::port_state)), and
    /// nothing else reads a cable's index; the cables of a `lag = "none"`
    /// bundle are ports of their own and differ.
    pub fn same_failure(&self, a: &Unit, b: &Unit) -> bool {
        match (a, b) {
            (Unit::Cable(la, _), Unit::Cable(lb, _)) if la == lb => self.ports_by_link[la.0]
                .iter()
                .all(|&p| self.topo.ports[p].cable.is_none()),
            _ => a == b,
        }
    }
}

impl Unit {
    /// What is down when this unit fails.
    pub fn failures(&self, design: &Design, topo: &Topology) -> Failures {
        let mut f = Failures::default();
        self.add_to(design, topo, &mut f);
        f
    }

    pub fn add_to(&self, design: &Design, topo: &Topology, f: &mut Failures) {
        match self {
            Unit::Switch(s) => {
                f.switches.insert(*s);
            }
            Unit::Bridge(b) => f.switches.extend(topo.bridge(*b).members.iter().copied()),
            Unit::Cable(l, c) => {
                f.cables.insert((*l, *c));
            }
            Unit::Link(l) => {
                for c in 0..design.link(*l).members.value {
                    f.cables.insert((*l, c));
                }
            }
            Unit::Card(h, card) => {
                for (i, n) in design.host(*h).nics.iter().enumerate() {
                    if n.card.value == *card {
                        f.nics.insert((*h, NicIdx(i)));
                    }
                }
            }
            Unit::Nic(h, n) => {
                f.nics.insert((*h, *n));
            }
            Unit::Split { link, cable, keep } => {
                match cable {
                    Some(c) => {
                        f.cables.insert((*link, *c));
                    }
                    None => {
                        for c in 0..design.link(*link).members.value {
                            f.cables.insert((*link, c));
                        }
                    }
                }
                suspend_all_but(design, topo, f, *keep);
            }
        }
    }

    /// How a user names the unit on the command line (`netlint simulate
    /// --fail`): `tor-a`, `s1`, `isl#2`, `isl`, `hv1:card:slot4`, `hv1:NIC1`.
    pub fn cli_name(&self, design: &Design, topo: &Topology) -> String {
        match self {
            Unit::Switch(s) => design.switch(*s).name.clone(),
            Unit::Bridge(b) => topo.bridge(*b).name.clone(),
            Unit::Cable(l, c) => {
                let link = design.link(*l);
                if link.members.value == 1 {
                    link.name.clone()
                } else {
                    format!("{}#{}", link.name, c + 1)
                }
            }
            Unit::Link(l) => design.link(*l).name.clone(),
            Unit::Split { link, cable, keep } => {
                let l = design.link(*link);
                let name = match cable {
                    Some(c) if l.members.value > 1 => format!("{}#{}", l.name, c + 1),
                    _ => l.name.clone(),
                };
                format!("{name}@{}", design.switch(*keep).name)
            }
            Unit::Card(h, card) => format!("{}:card:{card}", design.host(*h).name),
            Unit::Nic(h, n) => format!("{}:{}", design.host(*h).name, design.host(*h).nic(*n).name),
        }
    }

    /// The element a finding about the unit itself is filed under.
    pub fn element(&self, design: &Design, topo: &Topology) -> Element {
        match self {
            Unit::Switch(s) => design.switch(*s).element(),
            Unit::Bridge(b) => design.switch(topo.bridge(*b).members[0]).element(),
            Unit::Cable(l, _) | Unit::Link(l) | Unit::Split { link: l, .. } => {
                design.link(*l).element()
            }
            Unit::Card(h, card) => {
                let host = design.host(*h);
                match host
                    .nics
                    .iter()
                    .position(|n| n.card.value == *card)
                    .map(NicIdx)
                {
                    Some(n) => host.nic_element(n),
                    None => host.element(),
                }
            }
            Unit::Nic(h, n) => design.host(*h).nic_element(*n),
        }
    }

    /// The line that makes the unit what it is (the switch, the link's
    /// `members`, the card).
    pub fn span(&self, design: &Design, topo: &Topology) -> Span {
        match self {
            Unit::Switch(s) => design.switch(*s).span,
            Unit::Bridge(b) => {
                let sw = design.switch(topo.bridge(*b).members[0]);
                sw.stack
                    .as_ref()
                    .or(sw.mlag.as_ref())
                    .map(|x| x.span)
                    .unwrap_or(sw.span)
            }
            Unit::Cable(l, _) | Unit::Link(l) | Unit::Split { link: l, .. } => {
                design.link(*l).members.span
            }
            Unit::Card(h, card) => {
                let host = design.host(*h);
                host.nics
                    .iter()
                    .find(|n| n.card.value == *card)
                    .map(|n| n.card.span)
                    .unwrap_or(host.span)
            }
            Unit::Nic(h, n) => design.host(*h).nic(*n).span,
        }
    }

    pub fn is_host_local(&self) -> bool {
        matches!(self, Unit::Card(..) | Unit::Nic(..))
    }
}

/// Inter-switch links that are spanning-tree ports (not stacking cables,
/// peer-links or links inside one stack / MLAG domain).
pub(super) fn fabric_links(topo: &Topology) -> Vec<LinkId> {
    let mut links: Vec<LinkId> = topo.ports.iter().map(|p| p.link).collect();
    links.dedup();
    links
}

/// Every single failure unit of the design, in file order: switches (or
/// whole stacks), cables of inter-switch links, then per host its cards
/// (and, with `nic_ports`, the ports of multi-port cards).
///
/// A host cable fails like the NIC port it plugs into (and a direct cable
/// between two hosts like either of its ports), so it is not a unit of its
/// own; a card with one port is the same unit as that port.
pub fn units(design: &Design, topo: &Topology, opts: UnitOptions) -> Vec<Unit> {
    let mut out = Vec::new();
    let mut stacks_done = BTreeSet::new();
    for (i, _) in design.switches.iter().enumerate() {
        let b = topo.bridge_of[i];
        let br = topo.bridge(b);
        if opts.stack_as_unit && br.kind == BridgeKind::Stack && br.members.len() > 1 {
            if stacks_done.insert(b) {
                out.push(Unit::Bridge(b));
            }
        } else {
            out.push(Unit::Switch(SwitchId(i)));
        }
    }
    for l in fabric_links(topo) {
        for c in 0..design.link(l).members.value {
            out.push(Unit::Cable(l, c));
        }
    }
    // Cables inside a stack or MLAG domain whose loss splits it: one unit
    // per part that may keep the multi-chassis LAGs.
    for (b, links) in crate::l2::domain_links(design, topo) {
        for &l in &links {
            for c in 0..design.link(l).members.value {
                let mut f = Failures::default();
                f.cables.insert((l, c));
                if let Some(parts) = crate::l2::domain_parts(design, topo, &f, b, &links) {
                    out.extend(parts.iter().map(|p| Unit::Split {
                        link: l,
                        cable: Some(c),
                        keep: p[0],
                    }));
                }
            }
        }
    }
    for (hi, host) in design.hosts.iter().enumerate() {
        let mut cards: Vec<&str> = Vec::new();
        for n in &host.nics {
            if !cards.contains(&n.card.value.as_str()) {
                cards.push(&n.card.value);
            }
        }
        for card in cards {
            out.push(Unit::Card(HostId(hi), card.to_string()));
            let ports: Vec<usize> = (0..host.nics.len())
                .filter(|&i| host.nics[i].card.value == card)
                .collect();
            if opts.nic_ports && ports.len() > 1 {
                out.extend(ports.into_iter().map(|i| Unit::Nic(HostId(hi), NicIdx(i))));
            }
        }
    }
    out
}

/// The parts of the domain of `keep` that the cables in `f` split off from
/// it suspend their multi-chassis LAG ports: their switches go into
/// `f.suspended`, and their host NICs in such LAGs into `f.nics`.
pub fn suspend_all_but(design: &Design, topo: &Topology, f: &mut Failures, keep: SwitchId) {
    let b = topo.bridge_of[keep.0];
    let Some((_, links)) = crate::l2::broken_domains(design, topo, f)
        .into_iter()
        .find(|(x, _)| *x == b)
    else {
        return;
    };
    let Some(parts) = crate::l2::domain_parts(design, topo, f, b, &links) else {
        return;
    };
    for part in parts.iter().filter(|p| !p.contains(&keep)) {
        f.suspended.extend(part.iter().copied());
    }
    for (hi, ends) in topo.nic_ends.iter().enumerate() {
        for (ni, end) in ends.iter().enumerate() {
            if let Some(NicEnd::Switch(s)) = end {
                if f.suspended.contains(s)
                    && lag_across(design, topo, HostId(hi), NicIdx(ni), &f.suspended)
                {
                    f.nics.insert((HostId(hi), NicIdx(ni)));
                }
            }
        }
    }
}

/// Whether a host NIC is a member of a LAG (an LACP or static team, a
/// vSphere uplink set with `ip-hash` or `lacp`) with a member cabled to a
/// switch of the same stack or MLAG domain outside `suspended`: a vPC /
/// MLAG port, or a LAG across the parts of a split stack, which its
/// switch suspends.
fn lag_across(
    design: &Design,
    topo: &Topology,
    host: HostId,
    nic: NicIdx,
    suspended: &BTreeSet<SwitchId>,
) -> bool {
    let h = design.host(host);
    let switch_of = |n: NicIdx| match topo.nic_ends[host.0][n.0] {
        Some(NicEnd::Switch(s)) => Some(s),
        _ => None,
    };
    let Some(own) = switch_of(nic) else {
        return false;
    };
    let spans = |members: &mut dyn Iterator<Item = NicIdx>| {
        let members: Vec<NicIdx> = members.collect();
        members.contains(&nic)
            && members
                .iter()
                .filter_map(|m| switch_of(*m))
                .any(|s| !suspended.contains(&s) && topo.bridge_of[s.0] == topo.bridge_of[own.0])
    };
    let team_lag = h
        .teams
        .iter()
        .any(|t| t.mode.value.switch_dependent() && spans(&mut t.members.iter().map(|m| m.value)));
    let vswitch_lag = h.vswitches.iter().any(|v| {
        matches!(
            v.load_balancing.as_ref().map(|l| l.value),
            Some(netlint_model::LoadBalancing::IpHash | netlint_model::LoadBalancing::Lacp)
        ) && spans(&mut v.uplinks.iter().filter_map(|u| match u.value {
            netlint_model::Uplink::Nic(n) => Some(n),
            netlint_model::Uplink::Team(_) => None,
        }))
    });
    team_lag || vswitch_lag
}

/// Stacks with two or more members: the bridges `spof-stack` fails whole.
pub fn stacks(topo: &Topology) -> Vec<BridgeId> {
    topo.bridges
        .iter()
        .enumerate()
        .filter(|(_, b)| b.kind == BridgeKind::Stack && b.members.len() > 1)
        .map(|(i, _)| BridgeId(i))
        .collect()
}

/// Why a name given to `--fail` names no unit (the words are the
/// caller's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnitNameError {
    /// No host of that name before the `:`.
    Host {
        name: String,
        nearest: Option<String>,
    },
    /// The host has no card of that name.
    Card {
        host: String,
        name: String,
        nearest: Option<String>,
    },
    /// The host has no NIC of that name.
    Nic {
        host: String,
        name: String,
        nearest: Option<String>,
    },
    /// `link#N` with N outside 1 to the link's cable count.
    Cable { link: String, members: u32 },
    /// `link@switch` where the link does not split a domain that switch is
    /// in when its cables fail.
    Keep { link: String, switch: String },
    /// No switch, stack, MLAG domain or link of that name.
    Unknown {
        name: String,
        nearest: Option<String>,
    },
}

/// The nearest candidate, owned.
fn nearest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    netlint_model::nearest(name, candidates).map(str::to_string)
}

/// Resolves a name given to `--fail`: a switch, a stack or MLAG domain, a
/// link (`name` = every cable, `name#2` = its second cable), `host:NIC`, or
/// `host:card:NAME`.
pub fn parse_unit(design: &Design, topo: &Topology, name: &str) -> Result<Unit, UnitNameError> {
    let name = name.trim();
    // `peer-link@tor-a`: the link's cables fail and `tor-a`'s part keeps
    // the multi-chassis LAGs (the vPC primary).
    if let Some((left, keep)) = name.rsplit_once('@') {
        if let (Some(k), Ok(u)) = (design.switch_by_name(keep), parse_unit(design, topo, left)) {
            let (link, cable) = match u {
                Unit::Cable(l, c) => (l, Some(c)),
                Unit::Link(l) => (l, None),
                _ => (LinkId(usize::MAX), None),
            };
            if link.0 != usize::MAX {
                let unit = Unit::Split {
                    link,
                    cable,
                    keep: k,
                };
                let f = unit.failures(design, topo);
                if f.suspended
                    .iter()
                    .any(|s| topo.bridge_of[s.0] == topo.bridge_of[k.0])
                {
                    return Ok(unit);
                }
                return Err(UnitNameError::Keep {
                    link: design.link(link).name.clone(),
                    switch: keep.to_string(),
                });
            }
        }
    }
    if let Some((host, rest)) = name.split_once(':') {
        let Some(h) = design.host_by_name(host) else {
            return Err(UnitNameError::Host {
                name: host.to_string(),
                nearest: nearest(host, design.hosts.iter().map(|h| h.name.as_str())),
            });
        };
        let hd = design.host(h);
        if let Some(card) = rest.strip_prefix("card:") {
            if hd.nics.iter().any(|n| n.card.value == card) {
                return Ok(Unit::Card(h, card.to_string()));
            }
            let mut cards: Vec<&str> = hd.nics.iter().map(|n| n.card.value.as_str()).collect();
            cards.dedup();
            return Err(UnitNameError::Card {
                host: host.to_string(),
                name: card.to_string(),
                nearest: nearest(card, cards),
            });
        }
        return match hd.nic_by_name(rest) {
            Some(n) => Ok(Unit::Nic(h, n)),
            None => Err(UnitNameError::Nic {
                host: host.to_string(),
                name: rest.to_string(),
                nearest: nearest(rest, hd.nics.iter().map(|n| n.name.as_str())),
            }),
        };
    }
    if let Some((link, cable)) = name.rsplit_once('#') {
        if let Some(l) = design.link_by_name(link) {
            let members = design.link(l).members.value;
            return match cable.parse::<u32>() {
                Ok(c) if c >= 1 && c <= members => Ok(Unit::Cable(l, c - 1)),
                _ => Err(UnitNameError::Cable {
                    link: link.to_string(),
                    members,
                }),
            };
        }
    }
    if let Some(s) = design.switch_by_name(name) {
        return Ok(Unit::Switch(s));
    }
    if let Some(b) = topo
        .bridges
        .iter()
        .position(|b| b.name == name && b.members.len() > 1)
    {
        return Ok(Unit::Bridge(BridgeId(b)));
    }
    if let Some(l) = design.link_by_name(name) {
        let link = design.link(l);
        return Ok(if link.members.value == 1 {
            Unit::Cable(l, 0)
        } else {
            Unit::Link(l)
        });
    }
    let names = design
        .switches
        .iter()
        .map(|s| s.name.as_str())
        .chain(
            topo.bridges
                .iter()
                .filter(|b| b.members.len() > 1)
                .map(|b| b.name.as_str()),
        )
        .chain(design.links.iter().map(|l| l.name.as_str()));
    Err(UnitNameError::Unknown {
        name: name.to_string(),
        nearest: nearest(name, names),
    })
}
