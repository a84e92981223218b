//! Failure analysis: what each failure unit (a switch, a stack, one cable of
//! an inter-switch link, a NIC card, a NIC port or its cable) takes away,
//! measured against what the format's role table says must survive.
//!
//! The evaluation is built for scale (docs/failure-analysis.md):
//!
//! - the healthy forwarding is computed once; a host-local failure (NIC,
//!   card, host cable) changes only that host's attachments, so it is
//!   evaluated against the healthy VLAN components without touching the
//!   spanning tree;
//! - a switch or link failure changes the bridge graph: its spanning tree
//!   is solved again (or, where every bridge runs one spanning-tree
//!   configuration and every port carries every VLAN, the VLAN components
//!   are those of the surviving graph, which any spanning tree of it gives);
//!   only hosts cabled to the failed switch or attached to a part of the
//!   fabric that split are evaluated again;
//! - reachability is decided on "tokens": each way a network leaves a host
//!   (a NIC, a team, a vSwitch or vNIC) either reaches one VLAN component
//!   of the fabric or a direct cable, and two hosts reach each other when
//!   they share a token: the same rule as [`Forwarding::reach`], without
//!   walking paths. The healthy tokens of every host are computed once.

use crate::l2::{all_pairs, components, Fabric, Failures, Forwarding, Reach, ScenarioComponents};
use crate::topology::{BridgeId, BridgeKind, NicEnd, Topology, Via};
use netlint_model::{
    Design, HostId, LinkId, NetworkId, NicIdx, Protocol, Role, Severity, Span, Speed, SwitchId,
    Uplink,
};
pub use pairs::PairPaths;
use std::collections::{BTreeMap, BTreeSet, HashMap};

// ------------------------------------------------------------------ units

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
            Unit::Card(h, card) => format!("{}:card:{card}", design.host(*h).name),
            Unit::Nic(h, n) => format!("{}:{}", design.host(*h).name, design.host(*h).nic(*n).name),
        }
    }

    /// The unit in a sentence: "switch tor-a", "stack s1 (stack-1,
    /// stack-2)", "cable 2 of 2 of link isl", "card slot4 of hv1 (P4-1,
    /// P4-2)", "NIC P4-1 of hv1".
    pub fn describe(&self, design: &Design, topo: &Topology) -> String {
        match self {
            Unit::Switch(s) => format!("switch `{}`", design.switch(*s).name),
            Unit::Bridge(b) => {
                let br = topo.bridge(*b);
                let what = match br.kind {
                    BridgeKind::Stack => "stack",
                    BridgeKind::Mlag => "MLAG domain",
                    BridgeKind::Switch => "switch",
                };
                if br.members.len() > 1 {
                    format!(
                        "{what} `{}` ({})",
                        br.name,
                        switch_names(design, &br.members)
                    )
                } else {
                    format!("{what} `{}`", br.name)
                }
            }
            Unit::Cable(l, c) => {
                let link = design.link(*l);
                if link.members.value == 1 {
                    format!("the cable of link `{}`", link.name)
                } else {
                    format!(
                        "cable {} of {} of link `{}`",
                        c + 1,
                        link.members.value,
                        link.name
                    )
                }
            }
            Unit::Link(l) => {
                let link = design.link(*l);
                if link.members.value == 1 {
                    format!("link `{}`", link.name)
                } else {
                    format!("link `{}` (all {} cables)", link.name, link.members.value)
                }
            }
            Unit::Card(h, card) => {
                let host = design.host(*h);
                let ports: Vec<&str> = host
                    .nics
                    .iter()
                    .filter(|n| n.card.value == *card)
                    .map(|n| n.name.as_str())
                    .collect();
                let quoted: Vec<String> = ports.iter().map(|p| format!("`{p}`")).collect();
                if ports.len() == 1 && ports[0] == card {
                    format!("NIC `{card}` of `{}`", host.name)
                } else {
                    format!("card `{card}` of `{}` ({})", host.name, quoted.join(", "))
                }
            }
            Unit::Nic(h, n) => {
                let host = design.host(*h);
                format!("NIC `{}` of `{}`", host.nic(*n).name, host.name)
            }
        }
    }

    /// The element a finding about the unit itself is filed under.
    pub fn element(&self, design: &Design, topo: &Topology) -> String {
        match self {
            Unit::Switch(s) => design.switch(*s).element(),
            Unit::Bridge(b) => design.switch(topo.bridge(*b).members[0]).element(),
            Unit::Cable(l, _) | Unit::Link(l) => design.link(*l).element(),
            Unit::Card(h, card) => {
                let host = design.host(*h);
                match host.nics.iter().find(|n| n.card.value == *card) {
                    Some(n) => format!("{}.nics.{}", host.element(), n.name),
                    None => host.element(),
                }
            }
            Unit::Nic(h, n) => format!(
                "{}.nics.{}",
                design.host(*h).element(),
                design.host(*h).nic(*n).name
            ),
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
            Unit::Cable(l, _) | Unit::Link(l) => design.link(*l).members.span,
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

fn switch_names(design: &Design, ids: &[SwitchId]) -> String {
    ids.iter()
        .map(|s| format!("`{}`", design.switch(*s).name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Inter-switch links that are spanning-tree ports (not stacking cables,
/// peer-links or links inside one stack / MLAG domain).
fn fabric_links(topo: &Topology) -> Vec<LinkId> {
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

/// Stacks with two or more members: the bridges `spof-stack` fails whole.
pub fn stacks(topo: &Topology) -> Vec<BridgeId> {
    topo.bridges
        .iter()
        .enumerate()
        .filter(|(_, b)| b.kind == BridgeKind::Stack && b.members.len() > 1)
        .map(|(i, _)| BridgeId(i))
        .collect()
}

/// Resolves a name given to `--fail`: a switch, a stack or MLAG domain, a
/// link (`name` = every cable, `name#2` = its second cable), `host:NIC`, or
/// `host:card:NAME`.
pub fn parse_unit(design: &Design, topo: &Topology, name: &str) -> Result<Unit, String> {
    let name = name.trim();
    if let Some((host, rest)) = name.split_once(':') {
        let Some(h) = design.host_by_name(host) else {
            return Err(unknown(
                "host",
                host,
                design.hosts.iter().map(|h| h.name.as_str()),
            ));
        };
        let hd = design.host(h);
        if let Some(card) = rest.strip_prefix("card:") {
            if hd.nics.iter().any(|n| n.card.value == card) {
                return Ok(Unit::Card(h, card.to_string()));
            }
            let mut cards: Vec<&str> = hd.nics.iter().map(|n| n.card.value.as_str()).collect();
            cards.dedup();
            return Err(unknown(&format!("card of {host}"), card, cards.into_iter()));
        }
        return match hd.nic_by_name(rest) {
            Some(n) => Ok(Unit::Nic(h, n)),
            None => Err(unknown(
                &format!("NIC of {host}"),
                rest,
                hd.nics.iter().map(|n| n.name.as_str()),
            )),
        };
    }
    if let Some((link, cable)) = name.rsplit_once('#') {
        if let Some(l) = design.link_by_name(link) {
            let members = design.link(l).members.value;
            return match cable.parse::<u32>() {
                Ok(c) if c >= 1 && c <= members => Ok(Unit::Cable(l, c - 1)),
                _ => Err(format!(
                    "link `{link}` has {members} cable{}: name one as `{link}#1`{}",
                    if members == 1 { "" } else { "s" },
                    if members > 1 {
                        format!(" to `{link}#{members}`")
                    } else {
                        String::new()
                    }
                )),
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
    Err(format!(
        "{} (name a switch, a stack or MLAG domain, a link, `link#N`, `host:NIC` or `host:card:NAME`)",
        unknown("switch, stack or link", name, names)
    ))
}

fn unknown<'a>(what: &str, name: &str, candidates: impl Iterator<Item = &'a str>) -> String {
    let hint = netlint_model::did_you_mean(name, candidates);
    format!("no {what} named `{name}`{hint}")
}

// ----------------------------------------------------------- requirements

/// Something the role table says must survive a single failure (or, in
/// `simulate`, any network of the design).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Requirement {
    /// One network on its own (`vm`: error, `management`: warning; other
    /// roles only in `simulate`, at info).
    Network(NetworkId),
    /// The storage networks of one protocol: any of them is enough.
    Storage(Option<Protocol>),
    /// Every network whose `cluster_use` is not `none`.
    Cluster,
    /// The networks of each host's `live_migration.networks` (both hosts'
    /// lists): `lm-no-fallback`.
    LiveMigration,
}

impl Requirement {
    pub fn severity(&self, design: &Design) -> Severity {
        match self {
            Requirement::Network(n) => match design.network(*n).role.value {
                Role::Vm => Severity::Error,
                Role::Management => Severity::Warning,
                _ => Severity::Info,
            },
            Requirement::Storage(_) => Severity::Error,
            Requirement::Cluster | Requirement::LiveMigration => Severity::Warning,
        }
    }

    /// Whether the role table asks for this to survive any single failure.
    pub fn required(&self, design: &Design) -> bool {
        match self {
            Requirement::Network(n) => {
                matches!(design.network(*n).role.value, Role::Vm | Role::Management)
            }
            _ => true,
        }
    }

    /// The design's networks this requirement is about (for live
    /// migration: every network some host lists).
    pub fn networks(&self, design: &Design) -> Vec<NetworkId> {
        let ids = (0..design.networks.len()).map(NetworkId);
        match self {
            Requirement::Network(n) => vec![*n],
            Requirement::Storage(p) => ids
                .filter(|n| {
                    let net = design.network(*n);
                    net.role.value == Role::Storage && net.protocol.as_ref().map(|x| x.value) == *p
                })
                .collect(),
            Requirement::Cluster => ids
                .filter(|n| design.network(*n).in_cluster_group())
                .collect(),
            Requirement::LiveMigration => {
                let mut out: Vec<NetworkId> = Vec::new();
                for h in &design.hosts {
                    for n in h.live_migration.iter().flat_map(|lm| &lm.networks) {
                        if !out.contains(&n.value) {
                            out.push(n.value);
                        }
                    }
                }
                out
            }
        }
    }

    /// "network vm-prod", "every smb storage network (smb1, smb2)", "every
    /// cluster network (management, csv, lm)", "every live-migration network
    /// (lm, csv)".
    pub fn describe(&self, design: &Design) -> String {
        let names = || {
            self.networks(design)
                .iter()
                .map(|n| format!("`{}`", design.network(*n).name))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            Requirement::Network(n) => format!("network `{}`", design.network(*n).name),
            Requirement::Storage(p) => {
                let nets = self.networks(design);
                let proto = p.map(|p| format!("{p} ")).unwrap_or_default();
                if nets.len() == 1 {
                    format!("{proto}storage network {}", names())
                } else {
                    format!("every {proto}storage network ({})", names())
                }
            }
            Requirement::Cluster => format!("every cluster network ({})", names()),
            Requirement::LiveMigration => {
                format!("every live-migration network ({})", names())
            }
        }
    }

    /// Short label for tables: "vm-prod", "storage (smb)", "cluster group",
    /// "live migration".
    pub fn label(&self, design: &Design) -> String {
        match self {
            Requirement::Network(n) => design.network(*n).name.clone(),
            Requirement::Storage(Some(p)) => format!("storage ({p})"),
            Requirement::Storage(None) => "storage".to_string(),
            Requirement::Cluster => "cluster group".to_string(),
            Requirement::LiveMigration => "live migration".to_string(),
        }
    }
}

/// The requirements of a design: the role table's (`everything = false`),
/// or also every other network on its own (for `simulate`).
pub fn requirements(design: &Design, everything: bool) -> Vec<Requirement> {
    let mut out = Vec::new();
    for (i, n) in design.networks.iter().enumerate() {
        if everything || matches!(n.role.value, Role::Vm | Role::Management) {
            out.push(Requirement::Network(NetworkId(i)));
        }
    }
    let mut protos: Vec<Option<Protocol>> = Vec::new();
    for n in design
        .networks
        .iter()
        .filter(|n| n.role.value == Role::Storage)
    {
        let p = n.protocol.as_ref().map(|p| p.value);
        if !protos.contains(&p) {
            protos.push(p);
        }
    }
    out.extend(protos.into_iter().map(Requirement::Storage));
    if design.networks.iter().any(|n| n.in_cluster_group()) {
        out.push(Requirement::Cluster);
    }
    if design.hosts.iter().any(|h| h.live_migration.is_some()) {
        out.push(Requirement::LiveMigration);
    }
    out
}

// --------------------------------------------------------------- outcome

/// Why one NIC is down in a scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NicCause {
    /// The NIC (or its card) failed.
    Failed,
    /// The switch its cable plugs into failed.
    SwitchDown(SwitchId),
    /// The host NIC at the other end of its direct cable failed.
    PeerDown(HostId, NicIdx),
}

/// What happened to one way a network leaves a host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CarrierLoss {
    /// No member is left: every NIC under it is down.
    Dead { nics: Vec<(NicIdx, NicCause)> },
    /// Its NICs still have link, but the fabric no longer joins their
    /// switches to the other hosts' (`to`: switches of a host it lost).
    Cut {
        from: Vec<BridgeId>,
        to: Vec<BridgeId>,
    },
    /// Its working NICs now end in parts of the fabric that no longer meet.
    Scattered { bridges: Vec<BridgeId> },
}

/// One carrier of a host that the failure changed, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CarrierChange {
    pub network: NetworkId,
    pub via: Via,
    pub loss: CarrierLoss,
}

/// A host named by a loss, with its carriers the failure broke.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostLoss {
    pub host: HostId,
    pub carriers: Vec<CarrierChange>,
    /// Hosts it could reach on the requirement before and can no longer.
    pub lost_partners: Vec<HostId>,
    /// Whether it lost every partner it had.
    pub cut_off: bool,
}

/// One consequence of a scenario: a requirement that some host pairs lose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loss {
    pub requirement: Requirement,
    /// The hosts whose own attachments the failure broke, each cut off or
    /// on one side of a split.
    pub hosts: Vec<HostLoss>,
    /// When the requirement is split rather than some hosts cut off: the
    /// groups of hosts that still reach each other.
    pub split: Vec<Vec<HostId>>,
    /// Host pairs that reached each other and no longer do.
    pub pairs: Vec<(HostId, HostId)>,
}

impl Loss {
    /// Hosts that lose, in design order.
    pub fn host_ids(&self) -> Vec<HostId> {
        self.hosts.iter().map(|h| h.host).collect()
    }
}

/// What a scenario takes away.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub losses: Vec<Loss>,
}

// ------------------------------------------------------------- evaluator

/// Where one carrier of a host lands in a scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Token {
    /// Every working NIC ends in this VLAN component (its lowest bridge).
    Comp(usize),
    /// A single NIC on a direct cable: (this end, the other end).
    Peer((HostId, NicIdx), (HostId, NicIdx)),
}

fn meets(a: &Token, b: &Token) -> bool {
    match (a, b) {
        (Token::Comp(x), Token::Comp(y)) => x == y,
        (Token::Peer(f1, t1), Token::Peer(f2, t2)) => f1 == t2 && t1 == f2,
        _ => false,
    }
}

/// One carrier of one host in one scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
struct CarrierState {
    working: Vec<NicIdx>,
    token: Option<Token>,
}

type HostState = Vec<CarrierState>;

/// The fabric in one scenario, as the host evaluation needs it.
struct FabricState<'f> {
    /// VLAN components per VLAN slot (None = the healthy ones, for every
    /// slot or for one).
    comps: Option<Vec<Option<Vec<usize>>>>,
    /// Bridges whose healthy component split (or that are down).
    affected_bridges: BTreeSet<usize>,
    /// Where a VLAN splits an MLAG domain: per VLAN slot, per switch, its
    /// component in this scenario, from a full solve; every host is then
    /// evaluated again (see [`Analysis::peer_split`]).
    switch_comps: Option<Vec<Vec<usize>>>,
    failures: &'f Failures,
}

/// The failure analysis of one design, prepared once: the healthy state of
/// every host, indexes from switches and bridges to hosts, and the fabric
/// shortcut's applicability.
pub struct Analysis<'a> {
    design: &'a Design,
    topo: &'a Topology,
    fabric: &'a Fabric,
    pub requirements: Vec<Requirement>,
    /// Distinct VLANs (None = untagged) of the networks.
    vlans: Vec<Option<u16>>,
    net_slot: Vec<usize>,
    healthy_comp: Vec<Vec<usize>>,
    /// Per VLAN slot that splits an MLAG domain in the healthy state (its
    /// peer-links do not carry it): per switch, its healthy component.
    healthy_switch_comp: Vec<Option<Vec<usize>>>,
    /// Some VLAN splits an MLAG domain: adapters on one bridge may not
    /// reach each other, so component labels per bridge do not decide
    /// reachability, and fabric failures are solved in full with labels
    /// per switch. Only designs whose peer-links leave VLANs out (already
    /// reported in the healthy state) pay for it.
    peer_split: bool,
    /// Every bridge runs one spanning-tree configuration and every port
    /// carries every VLAN of the design: VLAN components are those of the
    /// up graph in any scenario.
    shortcut: bool,
    /// Without the shortcut: VLAN components of fabric failures from the
    /// healthy spanning trees (`None` with the shortcut).
    scenarios: Option<ScenarioComponents>,
    healthy: Vec<HostState>,
    cluster_of: Vec<usize>,
    clusters: Vec<Vec<HostId>>,
    hosts_by_switch: Vec<Vec<HostId>>,
    hosts_by_bridge: Vec<Vec<HostId>>,
    ports_by_switch: Vec<Vec<usize>>,
    ports_by_link: Vec<Vec<usize>>,
    /// Per host: its live-migration networks.
    lm: Vec<Vec<NetworkId>>,
    /// Per requirement: its networks as a mask over network ids.
    req_nets: Vec<Vec<bool>>,
}

impl<'a> Analysis<'a> {
    /// Prepares the analysis; `healthy` is the healthy forwarding (computed
    /// once and shared with the other rules).
    pub fn new(
        design: &'a Design,
        topo: &'a Topology,
        fabric: &'a Fabric,
        healthy: &Forwarding,
        requirements: Vec<Requirement>,
    ) -> Analysis<'a> {
        let mut vlans: Vec<Option<u16>> = design.networks.iter().map(|n| n.vlan_id()).collect();
        vlans.sort();
        vlans.dedup();
        let net_slot = design
            .networks
            .iter()
            .map(|n| vlans.binary_search(&n.vlan_id()).unwrap_or(0))
            .collect();
        let nb = topo.bridges.len();
        let healthy_comp: Vec<Vec<usize>> = vlans
            .iter()
            .map(|v| {
                healthy
                    .vlan(*v)
                    .map(|view| view.component.clone())
                    .unwrap_or_else(|| (0..nb).collect())
            })
            .collect();

        let healthy_switch_comp: Vec<Option<Vec<usize>>> = vlans
            .iter()
            .map(|v| {
                let view = healthy.vlan(*v)?;
                view.peers.as_ref()?;
                Some(view.switch_components(topo))
            })
            .collect();
        let peer_split = healthy_switch_comp.iter().any(Option::is_some);

        let mut hosts_by_switch = vec![Vec::new(); design.switches.len()];
        let mut hosts_by_bridge = vec![Vec::new(); nb];
        for (h, ends) in topo.nic_ends.iter().enumerate() {
            for end in ends.iter().flatten() {
                if let NicEnd::Switch(s) = end {
                    let b = topo.bridge_of[s.0].0;
                    if hosts_by_switch[s.0].last() != Some(&HostId(h)) {
                        hosts_by_switch[s.0].push(HostId(h));
                    }
                    if hosts_by_bridge[b].last() != Some(&HostId(h)) {
                        hosts_by_bridge[b].push(HostId(h));
                    }
                }
            }
        }
        let (ports_by_switch, ports_by_link) = topo.ports_by_switch_and_link(design);
        let mut clusters = Vec::new();
        let mut cluster_of = vec![0; design.hosts.len()];
        for hosts in design.clusters().into_values() {
            for h in &hosts {
                cluster_of[h.0] = clusters.len();
            }
            clusters.push(hosts);
        }
        let lm = design
            .hosts
            .iter()
            .map(|h| {
                h.live_migration
                    .iter()
                    .flat_map(|lm| lm.networks.iter().map(|n| n.value))
                    .collect()
            })
            .collect();
        let req_nets = requirements
            .iter()
            .map(|r| {
                let mut mask = vec![false; design.networks.len()];
                for n in r.networks(design) {
                    mask[n.0] = true;
                }
                mask
            })
            .collect();
        let mut a = Analysis {
            design,
            topo,
            fabric,
            requirements,
            vlans,
            net_slot,
            healthy_comp,
            healthy_switch_comp,
            peer_split,
            shortcut: false,
            scenarios: None,
            healthy: Vec::new(),
            cluster_of,
            clusters,
            hosts_by_switch,
            hosts_by_bridge,
            ports_by_switch,
            ports_by_link,
            lm,
            req_nets,
        };
        a.shortcut = a.shortcut_applies();
        if !a.shortcut {
            a.scenarios = Some(ScenarioComponents::new(
                design, topo, fabric, healthy, &a.vlans,
            ));
        }
        let none = Failures::default();
        let st = FabricState {
            comps: None,
            affected_bridges: BTreeSet::new(),
            switch_comps: None,
            failures: &none,
        };
        a.healthy = (0..design.hosts.len())
            .map(|h| a.host_state(HostId(h), &st))
            .collect();
        a
    }

    /// One spanning-tree configuration everywhere (one mode; for MSTP one
    /// region) and every port carrying every VLAN: then every tree of any
    /// scenario spans the surviving graph and a VLAN's components are the
    /// graph's. Checked against the healthy spanning tree too.
    fn shortcut_applies(&self) -> bool {
        let d = self.design;
        let first = |b: &crate::topology::Bridge| d.switch(b.members[0]);
        let Some(b0) = self.topo.bridges.first() else {
            return true;
        };
        let s0 = first(b0);
        let same_stp = self.topo.bridges.iter().all(|b| {
            let s = first(b);
            s.stp.mode.value == s0.stp.mode.value
                && (s.stp.mode.value != netlint_model::StpMode::Mstp
                    || (s.stp.region.as_ref().map(|r| &r.value)
                        == s0.stp.region.as_ref().map(|r| &r.value)
                        && s.stp.revision.as_ref().map(|r| r.value)
                            == s0.stp.revision.as_ref().map(|r| r.value)
                        && s.stp.instances.as_ref().map(|i| &i.value)
                            == s0.stp.instances.as_ref().map(|i| &i.value)))
        });
        if !same_stp {
            return false;
        }
        let uniform = self.vlans.iter().all(|v| {
            self.topo.ports.iter().all(|p| {
                d.link(p.link).allows_vlan(*v)
                    && std::iter::once(p.a_switch)
                        .chain(p.b_switches.iter().copied())
                        .all(|s| d.switch(s).defines_vlan(*v))
            })
        });
        if !uniform {
            return false;
        }
        let up = components(
            self.topo.bridges.len(),
            self.topo.ports.iter().map(|p| (p.a.0, p.b.0)),
        );
        self.healthy_comp.iter().all(|c| *c == up)
    }

    /// The same analysis solving every fabric failure in full, without the
    /// shortcut or the spanning-tree updates: what they are checked against.
    #[cfg(test)]
    pub(crate) fn full_recompute(mut self) -> Self {
        self.shortcut = false;
        self.scenarios = self.scenarios.map(ScenarioComponents::full_recompute);
        if self.scenarios.is_none() {
            let healthy = self
                .fabric
                .forwarding(self.design, self.topo, &Failures::default());
            self.scenarios = Some(
                ScenarioComponents::new(self.design, self.topo, self.fabric, &healthy, &self.vlans)
                    .full_recompute(),
            );
        }
        self
    }

    pub fn design(&self) -> &'a Design {
        self.design
    }
    pub fn topology(&self) -> &'a Topology {
        self.topo
    }

    fn nic_cause(&self, host: HostId, nic: NicIdx, f: &Failures) -> Option<NicCause> {
        if f.nics.contains(&(host, nic)) {
            return Some(NicCause::Failed);
        }
        match self.topo.nic_ends[host.0][nic.0] {
            Some(NicEnd::Switch(s)) if f.switches.contains(&s) => Some(NicCause::SwitchDown(s)),
            Some(NicEnd::Peer(h, n)) if f.nics.contains(&(h, n)) => Some(NicCause::PeerDown(h, n)),
            _ => None,
        }
    }

    fn host_state(&self, h: HostId, st: &FabricState) -> HostState {
        self.topo.carriers[h.0]
            .iter()
            .map(|c| {
                let up = |n: &NicIdx| self.nic_cause(h, *n, st.failures).is_none();
                let mut working: Vec<NicIdx> = c.active.iter().copied().filter(up).collect();
                let lost = c.active.len() - working.len();
                working.extend(c.standby.iter().copied().filter(up).take(lost));
                let token = self.token(h, c.network, &working, st);
                CarrierState { working, token }
            })
            .collect()
    }

    /// The rule of `Forwarding::reach`: every working NIC of a carrier must
    /// reach every working NIC of the other's, so all end in one VLAN
    /// component (on switches defining the VLAN), or one NIC on a direct
    /// cable meets its peer.
    fn token(
        &self,
        h: HostId,
        net: NetworkId,
        working: &[NicIdx],
        st: &FabricState,
    ) -> Option<Token> {
        let slot = self.net_slot[net.0];
        let vlan = self.vlans[slot];
        let mut token: Option<Token> = None;
        for &x in working {
            match self.topo.nic_ends[h.0][x.0] {
                None => return None,
                Some(NicEnd::Peer(ph, pn)) => {
                    if working.len() != 1 {
                        return None;
                    }
                    token = Some(Token::Peer((h, x), (ph, pn)));
                }
                Some(NicEnd::Switch(s)) => {
                    if !self.design.switch(s).defines_vlan(vlan) {
                        return None;
                    }
                    let b = self.topo.bridge_of[s.0].0;
                    let c = match (&st.switch_comps, &self.healthy_switch_comp[slot]) {
                        (Some(comps), _) => comps[slot][s.0],
                        (None, Some(healthy)) => healthy[s.0],
                        (None, None) => match st.comps.as_ref().and_then(|c| c[slot].as_ref()) {
                            Some(c) => c[b],
                            None => self.healthy_comp[slot][b],
                        },
                    };
                    match token {
                        None => token = Some(Token::Comp(c)),
                        Some(Token::Comp(c0)) if c0 == c => {}
                        _ => return None,
                    }
                }
            }
        }
        token
    }

    /// Whether two hosts in these states reach each other on a requirement.
    fn connected(&self, r: usize, a: HostId, sa: &HostState, b: HostId, sb: &HostState) -> bool {
        let ca = &self.topo.carriers[a.0];
        let cb = &self.topo.carriers[b.0];
        let lm_both: Vec<NetworkId>;
        let allowed: &dyn Fn(NetworkId) -> bool =
            if self.requirements[r] == Requirement::LiveMigration {
                lm_both = self.lm[a.0]
                    .iter()
                    .copied()
                    .filter(|n| self.lm[b.0].contains(n))
                    .collect();
                &|n| lm_both.contains(&n)
            } else {
                &|n: NetworkId| self.req_nets[r][n.0]
            };
        for (i, c1) in ca.iter().enumerate() {
            if !allowed(c1.network) {
                continue;
            }
            let Some(t1) = &sa[i].token else { continue };
            for (j, c2) in cb.iter().enumerate() {
                if c2.network != c1.network {
                    continue;
                }
                if let Some(t2) = &sb[j].token {
                    if meets(t1, t2) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The fabric after `failures`: VLAN components (with the shortcut,
    /// those of the surviving graph; otherwise from the healthy spanning
    /// trees updated by the failure, see [`ScenarioComponents`]) and the
    /// bridges whose healthy component split.
    fn fabric_state<'f>(&self, failures: &'f Failures) -> FabricState<'f> {
        let mut st = FabricState {
            comps: None,
            affected_bridges: BTreeSet::new(),
            switch_comps: None,
            failures,
        };
        if failures.is_host_local() {
            return st;
        }
        if self.peer_split {
            // Labels per switch from a full solve, for every host.
            let fwd = self.fabric.forwarding(self.design, self.topo, failures);
            let nb = self.topo.bridges.len();
            st.switch_comps = Some(
                self.vlans
                    .iter()
                    .map(|v| match fwd.vlan(*v) {
                        Some(view) => view.switch_components(self.topo),
                        None => self.topo.bridge_of.iter().map(|b| b.0).collect(),
                    })
                    .collect(),
            );
            st.affected_bridges = (0..nb).collect();
            return st;
        }
        let mut removed: Vec<usize> = failures
            .switches
            .iter()
            .map(|s| self.topo.bridge_of[s.0].0)
            .filter(|b| {
                self.topo.bridges[*b]
                    .members
                    .iter()
                    .all(|s| failures.switches.contains(s))
            })
            .collect();
        removed.sort();
        removed.dedup();
        let comps: Vec<Option<Vec<usize>>> = match &self.scenarios {
            Some(scenarios) => scenarios.components(self.design, self.topo, self.fabric, failures),
            // The shortcut: every tree spans the surviving graph.
            None => {
                let mut touched: BTreeSet<usize> = BTreeSet::new();
                for s in &failures.switches {
                    touched.extend(self.ports_by_switch[s.0].iter().copied());
                }
                for (l, _) in &failures.cables {
                    touched.extend(self.ports_by_link[l.0].iter().copied());
                }
                let down: BTreeSet<usize> = touched
                    .into_iter()
                    .filter(|&p| {
                        !self
                            .fabric
                            .port_state(self.design, self.topo, p, failures)
                            .up
                    })
                    .collect();
                if down.is_empty() && removed.is_empty() {
                    // Only capacities changed: the same graph, the same
                    // components whatever the trees now look like.
                    return st;
                }
                let up = components(
                    self.topo.bridges.len(),
                    self.topo
                        .ports
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| !down.contains(i))
                        .map(|(_, p)| (p.a.0, p.b.0)),
                );
                vec![Some(up); self.vlans.len()]
            }
        };
        // Components that neither split nor merged keep their healthy
        // number, so the tokens of hosts the failure does not touch stay
        // what they were; every other bridge gets a number of its own
        // (offset past the bridge indices) and counts as affected. A slot
        // without new components is the healthy one: nothing to compare.
        let nb = self.topo.bridges.len();
        let mut is_removed = vec![false; nb];
        for b in &removed {
            is_removed[*b] = true;
            st.affected_bridges.insert(*b);
        }
        let canonical: Vec<Option<Vec<usize>>> = comps
            .iter()
            .enumerate()
            .map(|(slot, new)| {
                let new = new.as_ref()?;
                Some(Self::relabel(
                    &self.healthy_comp[slot],
                    new,
                    &is_removed,
                    &mut st.affected_bridges,
                ))
            })
            .collect();
        if st.affected_bridges.is_empty() {
            return st;
        }
        st.comps = Some(canonical);
        st
    }

    /// Labels of the components `new` of one slot: a bridge whose healthy
    /// component `old` maps one to one onto its new one keeps its healthy
    /// label; every other bridge gets `nb + new` and is marked affected.
    /// Labels are bridge indices (a component's least), so the two maps are
    /// plain vectors.
    fn relabel(
        old: &[usize],
        new: &[usize],
        is_removed: &[bool],
        affected: &mut BTreeSet<usize>,
    ) -> Vec<usize> {
        const UNSET: usize = usize::MAX;
        const MANY: usize = usize::MAX - 1;
        let nb = new.len();
        let mut old_to_new = vec![UNSET; nb];
        let mut new_to_old = vec![UNSET; nb];
        let link = |map: &mut [usize], from: usize, to: usize| {
            let e = &mut map[from];
            if *e == UNSET {
                *e = to;
            } else if *e != to {
                *e = MANY;
            }
        };
        for b in (0..nb).filter(|b| !is_removed[*b]) {
            link(&mut old_to_new, old[b], new[b]);
            link(&mut new_to_old, new[b], old[b]);
        }
        (0..nb)
            .map(|b| {
                let stable =
                    !is_removed[b] && old_to_new[old[b]] != MANY && new_to_old[new[b]] != MANY;
                if stable {
                    old[b]
                } else {
                    affected.insert(b);
                    nb + new[b]
                }
            })
            .collect()
    }

    /// Hosts whose carriers may differ from the healthy state.
    fn affected_hosts(&self, st: &FabricState) -> BTreeSet<HostId> {
        let f = st.failures;
        let mut set = BTreeSet::new();
        for (h, n) in &f.nics {
            set.insert(*h);
            if let Some(NicEnd::Peer(ph, _)) = self.topo.nic_ends[h.0][n.0] {
                set.insert(ph);
            }
        }
        for s in &f.switches {
            set.extend(self.hosts_by_switch[s.0].iter().copied());
        }
        for b in &st.affected_bridges {
            set.extend(self.hosts_by_bridge[*b].iter().copied());
        }
        set
    }

    /// What a set of failures takes away: for every requirement, the host
    /// pairs of one cluster that reached each other and no longer do,
    /// attributed to the hosts whose own attachments broke.
    pub fn evaluate(&self, failures: &Failures) -> Outcome {
        let st = self.fabric_state(failures);
        let affected = self.affected_hosts(&st);
        if affected.is_empty() {
            return Outcome::default();
        }
        let mut states: HashMap<HostId, HostState> = HashMap::new();
        // A host whose carriers land where they did is unchanged: component
        // numbers of untouched parts of the fabric are the healthy ones.
        let mut changed: Vec<HostId> = Vec::new();
        for &h in &affected {
            let s = self.host_state(h, &st);
            let same_tokens = s
                .iter()
                .zip(&self.healthy[h.0])
                .all(|(a, b)| a.token == b.token || b.token.is_none());
            if !same_tokens {
                changed.push(h);
            }
            states.insert(h, s);
        }
        if changed.is_empty() {
            return Outcome::default();
        }
        let state_of = |h: HostId| -> &HostState { states.get(&h).unwrap_or(&self.healthy[h.0]) };
        let changed_set: BTreeSet<HostId> = changed.iter().copied().collect();
        let mut outcome = Outcome::default();
        for r in 0..self.requirements.len() {
            let mut lost: BTreeSet<(HostId, HostId)> = BTreeSet::new();
            for &h in &changed {
                let sh = state_of(h);
                for &x in &self.clusters[self.cluster_of[h.0]] {
                    if x == h || (changed_set.contains(&x) && x < h) {
                        continue;
                    }
                    if !self.connected(r, h, &self.healthy[h.0], x, &self.healthy[x.0]) {
                        continue;
                    }
                    if !self.connected(r, h, sh, x, state_of(x)) {
                        lost.insert((h.min(x), h.max(x)));
                    }
                }
            }
            if lost.is_empty() {
                continue;
            }
            outcome
                .losses
                .push(self.attribute(r, &lost, &st, &changed_set, &state_of));
        }
        outcome
    }

    /// Names the hosts of a loss and says what broke on each.
    fn attribute<'s>(
        &self,
        r: usize,
        lost: &BTreeSet<(HostId, HostId)>,
        st: &FabricState,
        changed: &BTreeSet<HostId>,
        state_of: &dyn Fn(HostId) -> &'s HostState,
    ) -> Loss {
        let mut partners: BTreeMap<HostId, Vec<HostId>> = BTreeMap::new();
        for &(a, b) in lost {
            partners.entry(a).or_default().push(b);
            partners.entry(b).or_default().push(a);
        }
        let mut hosts = Vec::new();
        for (&h, lost_partners) in &partners {
            if !changed.contains(&h) {
                continue;
            }
            let carriers = self.carrier_changes(r, h, state_of(h), st);
            if carriers.is_empty() {
                continue;
            }
            let healthy_partners = self.clusters[self.cluster_of[h.0]]
                .iter()
                .filter(|&&x| {
                    x != h && self.connected(r, h, &self.healthy[h.0], x, &self.healthy[x.0])
                })
                .count();
            hosts.push(HostLoss {
                host: h,
                carriers,
                lost_partners: lost_partners.clone(),
                cut_off: lost_partners.len() == healthy_partners,
            });
        }
        // A host that lost its links only because the host at the other end
        // of its direct cables failed is not named when the failed host
        // already accounts for every lost pair.
        let own = |hl: &HostLoss| {
            hl.carriers.iter().any(|c| match &c.loss {
                CarrierLoss::Dead { nics } => nics
                    .iter()
                    .any(|(_, cause)| !matches!(cause, NicCause::PeerDown(..))),
                _ => true,
            })
        };
        let primary: BTreeSet<HostId> = hosts.iter().filter(|h| own(h)).map(|h| h.host).collect();
        if primary.len() < hosts.len()
            && lost
                .iter()
                .all(|(a, b)| primary.contains(a) || primary.contains(b))
        {
            hosts.retain(|h| primary.contains(&h.host));
        }
        if hosts.is_empty() {
            // Nothing of theirs broke on either side (should not happen):
            // name every host involved.
            for (&h, lost_partners) in &partners {
                hosts.push(HostLoss {
                    host: h,
                    carriers: Vec::new(),
                    lost_partners: lost_partners.clone(),
                    cut_off: false,
                });
            }
        }
        // Hosts cut off from everyone they reached explain the loss when
        // every lost pair has one of them: name only those.
        let cut: BTreeSet<HostId> = hosts.iter().filter(|h| h.cut_off).map(|h| h.host).collect();
        if !cut.is_empty()
            && cut.len() < hosts.len()
            && lost.iter().all(|(a, b)| cut.contains(a) || cut.contains(b))
        {
            hosts.retain(|h| h.cut_off);
        }
        let mut split = Vec::new();
        if !hosts.iter().all(|h| h.cut_off) {
            // Groups that still reach each other, per cluster.
            let involved: Vec<HostId> = partners.keys().copied().collect();
            let idx: HashMap<HostId, usize> =
                involved.iter().enumerate().map(|(i, h)| (*h, i)).collect();
            let states: Vec<&HostState> = involved.iter().map(|h| state_of(*h)).collect();
            let mut edges = Vec::new();
            for (i, &a) in involved.iter().enumerate() {
                for &b in &involved[i + 1..] {
                    if self.cluster_of[a.0] == self.cluster_of[b.0]
                        && self.connected(r, a, states[idx[&a]], b, states[idx[&b]])
                    {
                        edges.push((idx[&a], idx[&b]));
                    }
                }
            }
            let comp = components(involved.len(), edges.into_iter());
            let mut groups: BTreeMap<usize, Vec<HostId>> = BTreeMap::new();
            for (i, c) in comp.iter().enumerate() {
                groups.entry(*c).or_default().push(involved[i]);
            }
            split = groups.into_values().collect();
        }
        Loss {
            requirement: self.requirements[r].clone(),
            hosts,
            split,
            pairs: lost.iter().copied().collect(),
        }
    }

    /// The carriers of `h` on the requirement's networks that the failure
    /// changed, and how.
    fn carrier_changes(
        &self,
        r: usize,
        h: HostId,
        now: &HostState,
        st: &FabricState,
    ) -> Vec<CarrierChange> {
        let mut out = Vec::new();
        let is_lm = self.requirements[r] == Requirement::LiveMigration;
        for (i, c) in self.topo.carriers[h.0].iter().enumerate() {
            let relevant = if is_lm {
                self.lm[h.0].contains(&c.network)
            } else {
                self.req_nets[r][c.network.0]
            };
            let before = &self.healthy[h.0][i];
            if !relevant || before.token.is_none() {
                continue;
            }
            let after = &now[i];
            let bridges = |nics: &[NicIdx]| -> Vec<BridgeId> {
                let mut v: Vec<BridgeId> = nics
                    .iter()
                    .filter_map(|n| match self.topo.nic_ends[h.0][n.0] {
                        Some(NicEnd::Switch(s)) => Some(self.topo.bridge_of[s.0]),
                        _ => None,
                    })
                    .collect();
                v.sort();
                v.dedup();
                v
            };
            let loss = if after.working.is_empty() {
                let mut nics: Vec<(NicIdx, NicCause)> = c
                    .active
                    .iter()
                    .chain(&c.standby)
                    .filter_map(|n| self.nic_cause(h, *n, st.failures).map(|cause| (*n, cause)))
                    .collect();
                // In the host's order, so that carriers over the same NICs
                // (vNICs pinned to different members) read alike.
                nics.sort_by_key(|(n, _)| *n);
                nics.dedup_by_key(|(n, _)| *n);
                CarrierLoss::Dead { nics }
            } else if after.token.is_none() {
                CarrierLoss::Scattered {
                    bridges: bridges(&after.working),
                }
            } else {
                if after.token == before.token {
                    continue;
                }
                CarrierLoss::Cut {
                    from: bridges(&after.working),
                    to: Vec::new(),
                }
            };
            out.push(CarrierChange {
                network: c.network,
                via: c.via,
                loss,
            });
        }
        // Where a cut carrier no longer reaches: the switches of the
        // first host it lost.
        out
    }

    /// Fills in where cut carriers no longer reach (the switches of a lost
    /// partner), for messages.
    pub fn cut_targets(&self, loss: &mut Loss) {
        for hl in &mut loss.hosts {
            for cc in &mut hl.carriers {
                if let CarrierLoss::Cut { from, to } = &mut cc.loss {
                    // The switches of the first lost host that are not this
                    // carrier's own.
                    for &partner in &hl.lost_partners {
                        let mut v: Vec<BridgeId> = self
                            .topo
                            .carriers_of(partner, cc.network)
                            .flat_map(|c| c.active.iter())
                            .filter_map(|n| match self.topo.nic_ends[partner.0][n.0] {
                                Some(NicEnd::Switch(s)) => Some(self.topo.bridge_of[s.0]),
                                _ => None,
                            })
                            .filter(|b| !from.contains(b))
                            .collect();
                        v.sort();
                        v.dedup();
                        if !v.is_empty() {
                            *to = v;
                            break;
                        }
                    }
                }
            }
        }
    }

    /// Evaluates a unit and fills in the messages' details.
    pub fn evaluate_unit(&self, unit: &Unit) -> Outcome {
        let f = unit.failures(self.design, self.topo);
        let mut o = self.evaluate(&f);
        for l in &mut o.losses {
            self.cut_targets(l);
        }
        o
    }
}

// ---------------------------------------------------------- the report

/// The outcome of one unit.
#[derive(Clone, Debug)]
pub struct UnitResult {
    pub unit: Unit,
    pub outcome: Outcome,
}

/// What a whole stack failing takes away beyond what any one member does.
#[derive(Clone, Debug)]
pub struct StackResult {
    pub bridge: BridgeId,
    /// Losses of the whole stack, keeping only hosts that no member failure
    /// alone cuts from that requirement.
    pub extra: Vec<Loss>,
}

/// Every single failure of a design, as `netlint check` sees it: the units
/// whose failure loses something the role table requires (or live
/// migration), and the stacks whose redundancy is only inside the stack.
#[derive(Clone, Debug, Default)]
pub struct FailureReport {
    pub results: Vec<UnitResult>,
    pub stacks: Vec<StackResult>,
}

impl FailureReport {
    /// Runs every single failure unit (member switches, inter-switch cables,
    /// cards) and every stack as a whole.
    pub fn build(
        design: &Design,
        topo: &Topology,
        fabric: &Fabric,
        healthy: &Forwarding,
    ) -> FailureReport {
        let analysis = Analysis::new(design, topo, fabric, healthy, requirements(design, false));
        let mut report = FailureReport::default();
        for unit in units(design, topo, UnitOptions::default()) {
            let mut outcome = analysis.evaluate_unit(&unit);
            prune_covered(&mut outcome);
            if !outcome.losses.is_empty() {
                report.results.push(UnitResult { unit, outcome });
            }
        }
        for b in stacks(topo) {
            let whole = analysis.evaluate_unit(&Unit::Bridge(b));
            let members = &topo.bridge(b).members;
            let member_lost: BTreeSet<(Requirement, HostId)> = report
                .results
                .iter()
                .filter(|r| matches!(r.unit, Unit::Switch(s) if members.contains(&s)))
                .flat_map(|r| {
                    r.outcome
                        .losses
                        .iter()
                        .flat_map(|l| l.hosts.iter().map(|h| (l.requirement.clone(), h.host)))
                })
                .collect();
            let mut extra = Vec::new();
            for mut loss in whole.losses {
                if loss.requirement == Requirement::LiveMigration {
                    continue;
                }
                loss.hosts
                    .retain(|h| !member_lost.contains(&(loss.requirement.clone(), h.host)));
                if !loss.hosts.is_empty() {
                    extra.push(loss);
                }
            }
            if !extra.is_empty() {
                report.stacks.push(StackResult { bridge: b, extra });
            }
        }
        report
    }

    /// Results of units of one kind.
    pub fn of<'r>(
        &'r self,
        pred: impl Fn(&Unit) -> bool + 'r,
    ) -> impl Iterator<Item = &'r UnitResult> {
        self.results.iter().filter(move |r| pred(&r.unit))
    }
}

/// Drops the loss of a single network when a group loss of the same
/// failure names the same hosts and, on each of them, only that network
/// (management as a host's only cluster network): one finding says both.
pub fn prune_covered(outcome: &mut Outcome) {
    let covered = |l: &Loss| -> bool {
        let Requirement::Network(n) = l.requirement else {
            return false;
        };
        outcome.losses.iter().any(|g| {
            matches!(
                g.requirement,
                Requirement::Cluster | Requirement::Storage(_)
            ) && g.host_ids() == l.host_ids()
                && g.split == l.split
                && g.hosts
                    .iter()
                    .all(|h| h.carriers.iter().all(|c| c.network == n))
        })
    };
    let keep: Vec<bool> = outcome.losses.iter().map(|l| !covered(l)).collect();
    let mut i = 0;
    outcome.losses.retain(|_| {
        i += 1;
        keep[i - 1]
    });
}

// -------------------------------------------------------------- wording

/// Host names in design order, runs of three or more consecutive hosts
/// written as "`hv01` to `hv04`", at most eight items then "and N more".
pub fn host_list(design: &Design, hosts: &[HostId]) -> String {
    let mut ids: Vec<usize> = hosts.iter().map(|h| h.0).collect();
    ids.sort();
    ids.dedup();
    let mut items: Vec<String> = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        let mut j = i;
        while j + 1 < ids.len() && ids[j + 1] == ids[j] + 1 {
            j += 1;
        }
        let (a, b) = (&design.hosts[ids[i]].name, &design.hosts[ids[j]].name);
        if j - i >= 2 {
            items.push(format!("`{a}` to `{b}`"));
        } else {
            for id in &ids[i..=j] {
                items.push(format!("`{}`", design.hosts[*id].name));
            }
        }
        i = j + 1;
    }
    const LIMIT: usize = 8;
    if items.len() > LIMIT {
        let rest = items.len() - LIMIT;
        items.truncate(LIMIT);
        format!("{} and {rest} more", items.join(", "))
    } else {
        items.join(", ")
    }
}

/// "hosts `hv01` to `hv04`" / "host `hv01`".
pub fn hosts_phrase(design: &Design, hosts: &[HostId]) -> String {
    let mut ids = hosts.to_vec();
    ids.sort();
    ids.dedup();
    if ids.len() == 1 {
        format!("host `{}`", design.host(ids[0]).name)
    } else {
        format!("hosts {}", host_list(design, &ids))
    }
}

fn and_list(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        _ => format!(
            "{} and {}",
            items[..items.len() - 1].join(", "),
            items[items.len() - 1]
        ),
    }
}

/// What a carrier is, for sentences about its members: "team VMTeam",
/// "SET switch S", "vDS dvs1", or None for a single NIC.
fn owner(design: &Design, host: HostId, via: Via) -> Option<String> {
    let h = design.host(host);
    match via {
        Via::Nic(_) => None,
        Via::Team(t) => Some(format!("team `{}`", h.teams[t.0].name)),
        Via::Guest(vs) | Via::VNic(vs, _) => {
            let v = &h.vswitches[vs.0];
            match v.uplinks.as_slice() {
                [one] => match one.value {
                    Uplink::Team(t) => Some(format!("team `{}`", h.teams[t.0].name)),
                    Uplink::Nic(_) => None,
                },
                _ => Some(format!("{} `{}`", v.kind_words(h.os.value), v.name)),
            }
        }
    }
}

/// The element of a carrier.
pub fn via_element(design: &Design, host: HostId, via: Via) -> String {
    let h = design.host(host);
    match via {
        Via::Nic(n) => format!("{}.nics.{}", h.element(), h.nic(n).name),
        Via::Team(t) => format!("{}.teams.{}", h.element(), h.teams[t.0].name),
        Via::Guest(vs) => format!("{}.vswitches.{}", h.element(), h.vswitches[vs.0].name),
        Via::VNic(vs, k) => format!(
            "{}.vswitches.{}.vnics.{}",
            h.element(),
            h.vswitches[vs.0].name,
            h.vswitches[vs.0].vnics[k].name
        ),
    }
}

/// One reason, its primary span, related spans and the element to file it
/// under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Why {
    pub text: String,
    pub span: Span,
    pub related: Vec<(Span, String)>,
    pub element: String,
}

impl CarrierChange {
    /// Why this carrier is gone, in one clause: "VMTeam's members LOM2 and
    /// PCI6-2 are both cabled to tor-a", "its only adapter X520-4 is
    /// cabled to sw10g-a", "no path is left from tor-a to tor-b".
    pub fn why(&self, design: &Design, topo: &Topology, host: HostId, units: &[Unit]) -> Why {
        let h = design.host(host);
        let element = via_element(design, host, self.via);
        // The failed unit that explains a NIC or a cut.
        let bridge_unit = |s: SwitchId| {
            units.iter().find_map(|u| match u {
                Unit::Bridge(b) if topo.bridge_of[s.0] == *b => Some(*b),
                _ => None,
            })
        };
        let card_unit = |n: NicIdx| {
            units
                .iter()
                .any(|u| matches!(u, Unit::Card(uh, c) if *uh == host && h.nic(n).card.value == *c))
        };
        let fabric_unit = units.iter().find(|u| !u.is_host_local()).or(units.first());
        match &self.loss {
            CarrierLoss::Dead { nics } => {
                let names: Vec<String> = nics
                    .iter()
                    .map(|(n, _)| format!("`{}`", h.nic(*n).name))
                    .collect();
                let cause_text = |c: &NicCause, n: NicIdx| -> String {
                    match c {
                        NicCause::SwitchDown(s) => match bridge_unit(*s) {
                            Some(b) => {
                                let br = topo.bridge(b);
                                let what = if br.kind == BridgeKind::Mlag {
                                    "MLAG domain"
                                } else {
                                    "stack"
                                };
                                format!("cabled to {what} `{}`", br.name)
                            }
                            _ => format!("cabled to `{}`", design.switch(*s).name),
                        },
                        NicCause::PeerDown(ph, pn) => format!(
                            "cabled directly to `{}:{}`",
                            design.host(*ph).name,
                            design.host(*ph).nic(*pn).name
                        ),
                        NicCause::Failed => {
                            // A NIC without `card` is a card of its own.
                            let own = h.nic(n).card.value == h.nic(n).name;
                            if card_unit(n) && !own {
                                format!("on card `{}`", h.nic(n).card.value)
                            } else {
                                "down".to_string()
                            }
                        }
                    }
                };
                let span_of = |c: &NicCause, n: NicIdx| -> Span {
                    let nic = h.nic(n);
                    match c {
                        NicCause::SwitchDown(_) | NicCause::PeerDown(..) => {
                            nic.attach.as_ref().map(|a| a.span()).unwrap_or(nic.span)
                        }
                        NicCause::Failed => {
                            if card_unit(n) {
                                nic.card.span
                            } else {
                                nic.span
                            }
                        }
                    }
                };
                let texts: Vec<String> = nics.iter().map(|(n, c)| cause_text(c, *n)).collect();
                let all_same = texts.windows(2).all(|w| w[0] == w[1]);
                let own = owner(design, host, self.via);
                let text = match (nics.len(), all_same, &own) {
                    (0, _, _) => "it has no working adapter".to_string(),
                    (1, _, None) => format!("its only adapter {} is {}", names[0], texts[0]),
                    (1, _, Some(o)) => {
                        format!("{o}'s only working member {} is {}", names[0], texts[0])
                    }
                    (2, true, Some(o)) => format!(
                        "{o}'s members {} and {} are both {}",
                        names[0], names[1], texts[0]
                    ),
                    (_, true, Some(o)) => format!(
                        "all {} members of {o} ({}) are {}",
                        nics.len(),
                        names.join(", "),
                        texts[0]
                    ),
                    (2, true, None) => format!(
                        "its adapters {} and {} are both {}",
                        names[0], names[1], texts[0]
                    ),
                    (_, true, None) => {
                        format!("its adapters {} are all {}", and_list(&names), texts[0])
                    }
                    (_, false, _) => {
                        let parts: Vec<String> = names
                            .iter()
                            .zip(&texts)
                            .map(|(n, t)| format!("{n} is {t}"))
                            .collect();
                        match &own {
                            Some(o) => format!("{o} has no member left: {}", and_list(&parts)),
                            None => and_list(&parts),
                        }
                    }
                };
                let mut spans = nics.iter().map(|(n, c)| (span_of(c, *n), *n));
                let (span, _) = spans.next().unwrap_or((h.span, NicIdx(0)));
                let related = spans
                    .map(|(s, n)| {
                        let c = nics.iter().find(|(m, _)| *m == n).map(|x| x.1);
                        (
                            s,
                            format!(
                                "`{}` is {}",
                                h.nic(n).name,
                                c.map(|c| cause_text(&c, n)).unwrap_or_default()
                            ),
                        )
                    })
                    .collect();
                Why {
                    text,
                    span,
                    related,
                    element,
                }
            }
            CarrierLoss::Cut { from, to } => {
                let names = |b: &[BridgeId]| {
                    b.iter()
                        .map(|x| format!("`{}`", topo.bridge(*x).name))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let text = if to.is_empty() || to == from {
                    format!("no path is left from {} to the other hosts", names(from))
                } else {
                    // In bridge order, so both sides of a split read alike.
                    let (x, y) = if from <= to { (from, to) } else { (to, from) };
                    format!("no path is left between {} and {}", names(x), names(y))
                };
                let (span, element) = match fabric_unit {
                    Some(u) => (u.span(design, topo), u.element(design, topo)),
                    None => (h.span, element),
                };
                Why {
                    text,
                    span,
                    related: Vec::new(),
                    element,
                }
            }
            CarrierLoss::Scattered { bridges } => {
                let names: Vec<String> = bridges
                    .iter()
                    .map(|b| format!("`{}`", topo.bridge(*b).name))
                    .collect();
                let (span, element) = match fabric_unit {
                    Some(u) => (u.span(design, topo), u.element(design, topo)),
                    None => (h.span, element),
                };
                Why {
                    text: format!(
                        "its working adapters end on {}, which no longer reach each other",
                        and_list(&names)
                    ),
                    span,
                    related: Vec::new(),
                    element,
                }
            }
        }
    }
}

impl HostLoss {
    /// Every reason of this host, deduplicated, with the first one's span
    /// and element; networks named when the requirement has several.
    pub fn why(&self, design: &Design, topo: &Topology, req: &Requirement, units: &[Unit]) -> Why {
        let _ = req;
        let mut texts: Vec<(String, Vec<String>)> = Vec::new();
        let mut first: Option<Why> = None;
        let mut related = Vec::new();
        // A network on several plain NICs (each its own carrier) that all
        // went down reads as one clause about those NICs.
        let mut carriers: Vec<CarrierChange> = Vec::new();
        for cc in &self.carriers {
            if let (Via::Nic(_), CarrierLoss::Dead { nics }) = (cc.via, &cc.loss) {
                if let Some(prev) = carriers.iter_mut().find(|p| {
                    p.network == cc.network
                        && matches!(p.via, Via::Nic(_))
                        && matches!(p.loss, CarrierLoss::Dead { .. })
                }) {
                    if let CarrierLoss::Dead { nics: pn } = &mut prev.loss {
                        pn.extend(nics.iter().copied());
                    }
                    continue;
                }
            }
            carriers.push(cc.clone());
        }
        let mut nets: Vec<NetworkId> = carriers.iter().map(|c| c.network).collect();
        nets.sort();
        nets.dedup();
        let several = nets.len() > 1;
        for cc in &carriers {
            let w = cc.why(design, topo, self.host, units);
            // Reasons in order, each with the networks it explains.
            let net = design.network(cc.network).name.clone();
            match texts.iter_mut().find(|(t, _)| *t == w.text) {
                Some((_, nets)) => {
                    if !nets.contains(&net) {
                        nets.push(net)
                    }
                }
                None => texts.push((w.text.clone(), vec![net])),
            }
            match &first {
                None => {
                    related.extend(w.related.clone());
                    first = Some(w);
                }
                Some(f) => {
                    if w.span != f.span && !related.iter().any(|(s, _)| *s == w.span) {
                        related.push((w.span, w.text.clone()));
                    }
                    for r in w.related {
                        if r.0 != f.span && !related.iter().any(|(s, _)| *s == r.0) {
                            related.push(r);
                        }
                    }
                }
            }
        }
        let h = design.host(self.host);
        let mut w = first.unwrap_or(Why {
            text: String::new(),
            span: h.span,
            related: Vec::new(),
            element: h.element(),
        });
        w.text = if texts.is_empty() {
            "it cannot reach them any more".to_string()
        } else if !several || texts.len() == 1 {
            texts
                .iter()
                .map(|(t, _)| t.clone())
                .collect::<Vec<_>>()
                .join("; ")
        } else {
            texts
                .iter()
                .map(|(t, nets)| {
                    let nets: Vec<String> = nets.iter().map(|n| format!("`{n}`")).collect();
                    format!("{}: {t}", nets.join(", "))
                })
                .collect::<Vec<_>>()
                .join("; ")
        };
        w.related = related;
        w
    }
}

/// One finding's worth of a loss: the hosts sharing one reason and span.
#[derive(Clone, Debug)]
pub struct LossGroup {
    pub hosts: Vec<HostId>,
    pub why: Why,
    /// The element of each host's copy of the finding.
    pub elements: Vec<String>,
}

impl Loss {
    /// The named hosts grouped by (span, reason): one finding each.
    pub fn groups(&self, design: &Design, topo: &Topology, units: &[Unit]) -> Vec<LossGroup> {
        let mut groups: Vec<LossGroup> = Vec::new();
        for hl in &self.hosts {
            let w = hl.why(design, topo, &self.requirement, units);
            match groups
                .iter_mut()
                .find(|g| g.why.span == w.span && g.why.text == w.text)
            {
                Some(g) => {
                    g.hosts.push(hl.host);
                    g.elements.push(w.element.clone());
                }
                None => groups.push(LossGroup {
                    hosts: vec![hl.host],
                    elements: vec![w.element.clone()],
                    why: w,
                }),
            }
        }
        groups
    }

    /// "hosts hv01-hv04 lose network vm-prod" or "network csv splits into
    /// hv01, hv02 | hv03, hv04", for the hosts of one group.
    pub fn consequence(&self, design: &Design, hosts: &[HostId]) -> String {
        let what = self.requirement.describe(design);
        if self.split.is_empty() {
            if self.requirement == Requirement::LiveMigration {
                let verb = if hosts.len() == 1 { "loses" } else { "lose" };
                return format!(
                    "{} {verb} {what}, so live migration has nowhere to go",
                    hosts_phrase(design, hosts)
                );
            }
            let verb = if hosts.len() == 1 { "loses" } else { "lose" };
            format!("{} {verb} {what}", hosts_phrase(design, hosts))
        } else {
            let parts: Vec<String> = self.split.iter().map(|g| host_list(design, g)).collect();
            format!("{what} splits between {}", parts.join(" | "))
        }
    }
}

// ------------------------------------------------------------ simulation

/// A LAG or link that lost cables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Degraded {
    pub port: usize,
    pub members_left: u32,
    pub members: u32,
    pub member_speed: Speed,
}

/// A change of one link's forwarding in one spanning tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeChange {
    /// The tree, named: "the RSTP tree rooted at core-1".
    pub tree: String,
    /// Root changes and links that start or stop forwarding, in words.
    pub changes: Vec<String>,
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

/// Everything `netlint simulate` says about one scenario.
#[derive(Clone, Debug)]
pub struct Simulation {
    pub units: Vec<Unit>,
    pub failures: Failures,
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

fn path_bottleneck(topo: &Topology, fwd: &Forwarding, r: &Reach) -> Option<(Speed, usize)> {
    r.path
        .iter()
        .map(|p| {
            let members = fwd.ports[*p].members;
            (topo.ports[*p].member_speed.times(members as u64), *p)
        })
        .min()
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
        // Links.
        let mut degraded = Vec::new();
        let mut down = Vec::new();
        for (i, p) in topo.ports.iter().enumerate() {
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
        // Spanning trees.
        let trees = tree_changes(healthy, &failed);
        // Paths: every pair for a fabric failure, the failed hosts' pairs
        // for a host-local one.
        let walked: Vec<Reach>;
        let before: Vec<&Reach> = if let Some(p) = pairs {
            p.touched(design, topo, healthy, &failed)
                .into_iter()
                .map(|i| &p.reach[i])
                .collect()
        } else if failures.is_host_local() {
            // The failed NICs' hosts, and the hosts at the other end of
            // their direct cables.
            let mut hosts: BTreeSet<HostId> = BTreeSet::new();
            for (h, n) in &failures.nics {
                hosts.insert(*h);
                if let Some(NicEnd::Peer(ph, _)) = topo.nic_ends[h.0][n.0] {
                    hosts.insert(ph);
                }
            }
            walked = pairs_of(design, topo, healthy, Some(&hosts));
            walked.iter().collect()
        } else {
            walked = all_pairs(design, topo, healthy);
            walked.iter().collect()
        };
        // (network, bottleneck before and its port, after and its port).
        type SlowKey = (NetworkId, Speed, Option<usize>, Speed, Option<usize>);
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
            let (b0, b1) = (
                path_bottleneck(topo, healthy, r),
                path_bottleneck(topo, &failed, &after),
            );
            let s0 = b0.map(|x| x.0);
            let s1 = b1.map(|x| x.0);
            if let (Some(s0), Some(s1)) = (s0, s1) {
                if s1 < s0 {
                    slow.entry((r.network, s0, b0.map(|x| x.1), s1, b1.map(|x| x.1)))
                        .or_default()
                        .push((r.a, r.b));
                }
            }
        }
        let slower = slow
            .into_iter()
            .map(|((network, s0, p0, s1, p1), pairs)| Slowdown {
                network,
                pairs,
                before: (s0, p0),
                after: (s1, p1),
            })
            .collect();
        prune_covered(&mut outcome);
        Simulation {
            restored: restored.into_iter().collect(),
            units: units.to_vec(),
            failures,
            outcome,
            standings,
            trees,
            degraded,
            down,
            slower,
        }
    }
}

fn pairs_of(
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
fn tree_changes(before: &Forwarding, after: &Forwarding) -> Vec<TreeChange> {
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
                changes.push(format!("`{}` becomes root", s1.bridge_name(*r)));
            }
        }
        for r in &r0 {
            if !r1.contains(r) {
                if s1.is_bridge_up(*r) {
                    changes.push(format!("`{}` is no longer root", s0.bridge_name(*r)));
                } else {
                    changes.push(format!("root `{}` is down", s0.bridge_name(*r)));
                }
            }
        }
        // Per link: Ok = forwarding, Err = the blocking end's role and
        // bridge; None = down or not an STP port at both ends.
        let state = |s: &crate::stp::StpResult,
                     t: &crate::stp::Tree,
                     l: usize|
         -> Option<Result<(), String>> {
            let a = t.port(PortRef::new(l, End::A))?;
            let b = t.port(PortRef::new(l, End::B))?;
            if a.role == PortRole::Disabled || b.role == PortRole::Disabled {
                return None;
            }
            for (end, p) in [(End::A, a), (End::B, b)] {
                if !p.role.forwards() {
                    let at = s
                        .port_bridge(PortRef::new(l, end))
                        .map(|x| s.bridge_name(x).to_string())
                        .unwrap_or_default();
                    return Some(Err(format!("{} at `{at}`", p.role)));
                }
            }
            Some(Ok(()))
        };
        for l in 0..tree1.ports.len().min(tree0.ports.len()) {
            if !s1.is_link_up(l) || !s0.is_link_up(l) {
                continue;
            }
            match (state(s0, tree0, l), state(s1, tree1, l)) {
                (Some(Err(was)), Some(Ok(()))) => changes.push(format!(
                    "link `{}` starts forwarding (was {was})",
                    s1.link_name(l)
                )),
                (Some(Ok(())), Some(Err(now))) => changes.push(format!(
                    "link `{}` stops forwarding ({now})",
                    s1.link_name(l)
                )),
                _ => {}
            }
        }
        if !changes.is_empty() {
            out.push(TreeChange {
                tree: s0.tree_label(t0, None),
                changes,
            });
        }
    }
    out
}

mod pairs;
#[cfg(test)]
mod tests;
