//! The spanning-tree engine: a pure algorithm over an abstract bridge graph
//! that computes the trees 802.1D-2004 (STP/RSTP), 802.1Q (MSTP) and Cisco
//! PVST+ / rapid-PVST+ converge to in steady state, and from them which links
//! forward each VLAN.
//!
//! The caller (the topology layer) collapses stacks and MLAG domains into one
//! [`BridgeInput`] each and turns every STP port pair into one [`LinkInput`]
//! (a LAG is one link with its aggregate speed). [`StpEngine::new`] prepares
//! what does not change between failure scenarios (bridge-id tie-break ranks,
//! port numbers, MSTP configurations); [`StpEngine::compute`] then solves one
//! [`Scenario`] (bridges and links removed, LAGs degraded) into an
//! [`StpResult`]. `docs/spanning-tree.md` explains the model, the cost
//! tables, the tie-break rules and the simplifications.

mod cost;
mod explain;
mod incremental;
mod pvst;
mod solve;
#[cfg(test)]
mod tests;

use crate::union_find::UnionFind;
use netlint_model::{StpMode, VlanSet};
use solve::{solve, Key, Problem, Seg, SegPort, Solution, NO_SEG};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::Arc;

pub use cost::{default_cost, long_cost, short_cost, CostMethod, MAX_LONG_COST, MAX_SHORT_COST};
pub use explain::{CostScope, Decision, PortExplanation};
pub use incremental::{Update, Updates};

/// The default bridge priority of every STP flavour.
pub const DEFAULT_BRIDGE_PRIORITY: u32 = 32768;
/// The port priority every port is given (the standard default).
pub const DEFAULT_PORT_PRIORITY: u8 = 128;
/// Index of the CIST / CST in [`StpResult::trees`].
pub const CIST: TreeId = 0;

/// Index of a tree in [`StpResult::trees`].
pub type TreeId = usize;

// ---------------------------------------------------------------- input

/// An MSTP configuration identifier. Two MSTP bridges are in one region iff
/// their configurations are equal *and* they are connected through segments
/// on which every STP bridge shares that configuration.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MstConfig {
    pub name: String,
    pub revision: u32,
    /// VLAN -> MSTI. VLANs absent from the map are in instance 0 (the IST).
    pub vlan_instance: BTreeMap<u16, u16>,
}

impl MstConfig {
    /// The MSTI of `vlan` (0 = IST / CIST).
    pub fn instance_of(&self, vlan: u16) -> u16 {
        self.vlan_instance.get(&vlan).copied().unwrap_or(0)
    }
}

/// One logical bridge: a switch, or a whole stack / MLAG domain that the
/// caller collapsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BridgeInput {
    /// Used in messages, and to break ties between bridges without a MAC.
    pub name: String,
    pub mode: StpMode,
    /// STP / RSTP / CIST bridge priority; for PVST the default of every VLAN.
    pub priority: u32,
    /// MSTP: per-MSTI priority (missing = `priority`).
    pub instance_priority: BTreeMap<u16, u32>,
    /// PVST: per-VLAN priority (missing = `priority`). VLAN 1's also applies
    /// to the bridge's part in the common spanning tree.
    pub vlan_priority: BTreeMap<u16, u32>,
    pub mac: Option<[u8; 6]>,
    /// MSTP: the region configuration (`None` = the default: empty name,
    /// revision 0, every VLAN in the IST). Ignored for other modes.
    pub mst: Option<MstConfig>,
    /// The default port cost table of the bridge's own ports (`None` = the
    /// mode's: short for `stp`, long for the others).
    pub cost_method: Option<CostMethod>,
    /// PVST: VLANs with spanning tree off on this bridge (`no spanning-tree
    /// vlan N`): in those VLANs' trees the bridge takes no part and
    /// forwards on every port, like a `mode = none` bridge. VLAN 1 (the
    /// common tree) is never off. Ignored for other modes.
    pub stp_off_vlans: Option<VlanSet>,
}

impl BridgeInput {
    /// A bridge with the default priority, no MAC and no MSTP configuration.
    pub fn new(name: impl Into<String>, mode: StpMode) -> Self {
        BridgeInput {
            name: name.into(),
            mode,
            priority: DEFAULT_BRIDGE_PRIORITY,
            instance_priority: BTreeMap::new(),
            vlan_priority: BTreeMap::new(),
            mac: None,
            mst: None,
            cost_method: None,
            stp_off_vlans: None,
        }
    }
    /// Priority of MSTI `instance` (0 = CIST).
    pub fn priority_for_instance(&self, instance: u16) -> u32 {
        if instance == 0 {
            return self.priority;
        }
        self.instance_priority
            .get(&instance)
            .copied()
            .unwrap_or(self.priority)
    }
    /// PVST priority of `vlan`.
    pub fn priority_for_vlan(&self, vlan: u16) -> u32 {
        self.vlan_priority
            .get(&vlan)
            .copied()
            .unwrap_or(self.priority)
    }
    /// Which default cost table this bridge uses for its own ports.
    pub fn cost_method(&self) -> CostMethod {
        self.cost_method.unwrap_or(match self.mode {
            StpMode::Stp => CostMethod::Short,
            _ => CostMethod::Long,
        })
    }
    /// Whether spanning tree is off for `vlan` on this PVST bridge.
    pub fn stp_off(&self, vlan: u16) -> bool {
        vlan != 1
            && self.is_pvst()
            && self
                .stp_off_vlans
                .as_ref()
                .is_some_and(|s| s.contains(vlan))
    }
    fn is_pvst(&self) -> bool {
        matches!(self.mode, StpMode::Pvst | StpMode::RapidPvst)
    }
}

/// One STP port pair between two bridges. A LAG is one link (aggregate
/// speed); parallel cables that are not a LAG are separate links.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkInput {
    /// Used in messages, and to number ports (see [`StpEngine::port_id`]).
    pub name: String,
    /// Bridge indices. An index out of range makes the link ignored; `a == b`
    /// (a cable looped back into one bridge) is allowed.
    pub a: usize,
    pub b: usize,
    /// Speed in Mb/s, the aggregate for a LAG; 0 = unknown (maximum cost).
    pub speed_mbps: u64,
    /// Port cost of both ends for every tree (overrides the default).
    pub cost: Option<u32>,
    /// Per-tree cost of both ends: key = MSTI for MSTP trees (0 = CIST, also
    /// used by STP/RSTP bridges), key = VLAN for PVST trees (VLAN 1 also for
    /// a PVST bridge's part in the common tree). Wins over `cost`.
    pub instance_cost: BTreeMap<u16, u32>,
    /// VLANs allowed on the link (`None` = all). Only PVST trees look at it:
    /// PVST runs a VLAN's tree only on trunks that carry the VLAN, while
    /// STP/RSTP/MSTP BPDUs are untagged and ignore allowed lists.
    pub vlans: Option<VlanSet>,
}

impl LinkInput {
    pub fn new(name: impl Into<String>, a: usize, b: usize, speed_mbps: u64) -> Self {
        LinkInput {
            name: name.into(),
            a,
            b,
            speed_mbps,
            cost: None,
            instance_cost: BTreeMap::new(),
            vlans: None,
        }
    }
    fn allows(&self, vlan: u16) -> bool {
        match &self.vlans {
            None => true,
            Some(s) => s.contains(vlan),
        }
    }
}

/// What is broken in a failure scenario. Indices out of range are ignored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scenario {
    /// Bridges that are down (their links go down with them).
    pub removed_bridges: Vec<usize>,
    /// Links that are down.
    pub removed_links: Vec<usize>,
    /// Links running at another aggregate speed (a LAG that lost members):
    /// their default costs follow the new speed; explicit costs stay.
    pub link_speed_mbps: Vec<(usize, u64)>,
}

impl Scenario {
    pub fn healthy() -> Self {
        Self::default()
    }
    pub fn without_bridge(bridge: usize) -> Self {
        Scenario {
            removed_bridges: vec![bridge],
            ..Self::default()
        }
    }
    pub fn without_link(link: usize) -> Self {
        Scenario {
            removed_links: vec![link],
            ..Self::default()
        }
    }
    pub fn with_link_speed(link: usize, speed_mbps: u64) -> Self {
        Scenario {
            link_speed_mbps: vec![(link, speed_mbps)],
            ..Self::default()
        }
    }
}

// ---------------------------------------------------------------- output types

/// One end of a link.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum End {
    #[default]
    A,
    B,
}

impl End {
    pub fn index(self) -> usize {
        match self {
            End::A => 0,
            End::B => 1,
        }
    }
    pub fn other(self) -> End {
        match self {
            End::A => End::B,
            End::B => End::A,
        }
    }
}

/// A port: one end of one link.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PortRef {
    pub link: usize,
    pub end: End,
}

impl PortRef {
    pub fn new(link: usize, end: End) -> Self {
        PortRef { link, end }
    }
}

/// Port identifier: (port priority, port number), compared in that order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PortId {
    pub priority: u8,
    pub number: u32,
}

impl fmt::Display for PortId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.priority, self.number)
    }
}

/// Port role in one tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PortRole {
    /// The bridge's best path to the root.
    Root,
    /// The best port on its segment: forwards towards the leaves.
    Designated,
    /// Receives a better vector from another bridge and is not the root port: blocks.
    Alternate,
    /// Another port of the same bridge is designated on this segment: blocks.
    Backup,
    /// MSTI only: a boundary port that is the region's CIST root port.
    Master,
    /// The port is down, or (PVST) its link does not carry the tree's VLAN.
    Disabled,
}

impl PortRole {
    /// Whether a port in this role forwards frames.
    pub fn forwards(self) -> bool {
        matches!(
            self,
            PortRole::Root | PortRole::Designated | PortRole::Master
        )
    }
    pub fn as_str(self) -> &'static str {
        match self {
            PortRole::Root => "root",
            PortRole::Designated => "designated",
            PortRole::Alternate => "alternate",
            PortRole::Backup => "backup",
            PortRole::Master => "master",
            PortRole::Disabled => "disabled",
        }
    }
}

impl fmt::Display for PortRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TreeKind {
    /// The common (and internal) spanning tree: the only tree of STP/RSTP,
    /// instance 0 of MSTP, the tree PVST+ VLAN 1 joins.
    Cist,
    /// An MSTP instance inside one region ([`StpResult::regions`] index).
    Msti { region: usize, instance: u16 },
    /// A PVST+ / rapid-PVST+ VLAN tree (VLAN 1 is the CIST instead).
    PvstVlan(u16),
}

/// A bridge's place in one tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BridgeState {
    /// Index into [`Tree::roots`].
    pub component: usize,
    /// Root bridge of the bridge's component (for an MSTI: its regional root).
    pub root: usize,
    /// The bridge's priority in this tree.
    pub priority: u32,
    /// External + internal root path cost.
    pub root_path_cost: u64,
    /// CIST: external root path cost (cost between regions); STP/RSTP/PVST
    /// trees: the root path cost; MSTI: 0.
    pub external_cost: u64,
    /// CIST: internal root path cost to the CIST regional root; MSTI: the
    /// root path cost; other trees: 0.
    pub internal_cost: u64,
    /// MSTP bridges: the CIST regional root (CIST) or the MSTI regional root.
    pub regional_root: Option<usize>,
    pub root_port: Option<PortRef>,
}

/// A port's state in one tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortState {
    pub role: PortRole,
    /// The port's path cost in this tree.
    pub cost: u32,
    pub port_id: PortId,
    /// MSTI only: a region boundary port, whose role is its CIST role.
    pub boundary: bool,
}

/// How a root won its election.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootDecision {
    /// It alone has the lowest priority (or is alone in its component).
    Priority,
    /// Two or more bridges share the lowest priority (`tied`, best first) and
    /// the root won on its MAC.
    MacTieBreak { tied: Vec<usize> },
    /// Two or more bridges share the lowest priority and at least one of them
    /// has no MAC in the design (or two share a MAC): the winner is the
    /// engine's deterministic guess (MAC-less bridges after those with a MAC,
    /// then by name).
    SyntheticTieBreak { tied: Vec<usize> },
}

impl RootDecision {
    pub fn is_tie_break(&self) -> bool {
        !matches!(self, RootDecision::Priority)
    }
}

/// The root of one connected component of one tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootInfo {
    pub root: usize,
    /// The root's priority in this tree.
    pub priority: u32,
    /// Whether that priority is the default 32768.
    pub default_priority: bool,
    pub decided_by: RootDecision,
    /// Every bridge of the component, in input order.
    pub bridges: Vec<usize>,
}

/// One computed tree.
#[derive(Clone, Debug)]
pub struct Tree {
    pub kind: TreeKind,
    /// Per bridge: `None` when it takes no part in this tree.
    pub bridges: Vec<Option<BridgeState>>,
    /// Per link, end A then end B: `None` when that end's bridge takes no part.
    pub ports: Vec<[Option<PortState>; 2]>,
    /// One per connected component of the tree.
    pub roots: Vec<RootInfo>,
    key: Vec<Key>,
    bid: Vec<u64>,
    seg_of: Vec<[u32; 2]>,
    designated: Vec<SegPort>,
    seg_internal: Vec<bool>,
}

impl Tree {
    pub fn port(&self, p: PortRef) -> Option<&PortState> {
        self.ports
            .get(p.link)
            .and_then(|x| x[p.end.index()].as_ref())
    }
    /// The root of the component `bridge` is in.
    pub fn root_of(&self, bridge: usize) -> Option<usize> {
        self.bridges.get(bridge)?.as_ref().map(|s| s.root)
    }
    /// The root information of the component `bridge` is in.
    pub fn root_info_of(&self, bridge: usize) -> Option<&RootInfo> {
        let c = self.bridges.get(bridge)?.as_ref()?.component;
        self.roots.get(c)
    }
}

/// An MSTP region as found in one scenario.
#[derive(Clone, Debug)]
pub struct Region {
    pub config: Arc<MstConfig>,
    /// Member bridges, in input order.
    pub bridges: Vec<usize>,
    /// The region's MSTIs (instance ids > 0 that some VLAN maps to).
    pub instances: Vec<u16>,
    /// The CIST regional root (the region's bridge closest to the CIST root).
    pub cist_regional_root: Option<usize>,
}

impl Region {
    pub fn name(&self) -> &str {
        &self.config.name
    }
    pub fn revision(&self) -> u32 {
        self.config.revision
    }
    pub fn instance_of(&self, vlan: u16) -> u16 {
        self.config.instance_of(vlan)
    }
}

/// A connected group of bridges that do not run STP. They flood BPDUs, so
/// every STP port attached to the group shares one segment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NonStpSegment {
    /// The `mode = none` bridges.
    pub bridges: Vec<usize>,
    /// Links among them and links attaching STP bridges to them.
    pub links: Vec<usize>,
    /// STP bridges' ports on the group.
    pub stp_ports: Vec<PortRef>,
}

// ---------------------------------------------------------------- engine

pub(crate) struct Shared {
    bridge_names: Vec<String>,
    modes: Vec<StpMode>,
    macs: Vec<Option<[u8; 6]>>,
    link_names: Vec<String>,
    ends: Vec<Option<(usize, usize)>>,
    port_ids: Vec<[PortId; 2]>,
    /// PVST bridges' VLANs with spanning tree off (`BridgeInput::stp_off_vlans`).
    stp_off: Vec<Option<VlanSet>>,
}

impl Shared {
    fn stp_off(&self, bridge: usize, vlan: u16) -> bool {
        vlan != 1
            && self
                .stp_off
                .get(bridge)
                .is_some_and(|s| s.as_ref().is_some_and(|s| s.contains(vlan)))
    }
    fn bridge_of(&self, p: PortRef) -> Option<usize> {
        let (a, b) = (*self.ends.get(p.link)?)?;
        Some(match p.end {
            End::A => a,
            End::B => b,
        })
    }
}

/// A prepared bridge graph. Build it once per design; call
/// [`compute`](Self::compute) once per failure scenario.
pub struct StpEngine {
    shared: Arc<Shared>,
    bridges: Vec<BridgeInput>,
    links: Vec<LinkInput>,
    /// Position of each bridge in the MAC tie-break order.
    mac_rank: Vec<u32>,
    /// MSTP bridges: index into `configs`.
    config_id: Vec<Option<usize>>,
    configs: Vec<Arc<MstConfig>>,
    config_instances: Vec<Vec<u16>>,
    /// Per bridge: its ports on valid links.
    adj: Vec<Vec<PortRef>>,
    /// VLANs to compute PVST trees for.
    vlans: Vec<u16>,
}

impl StpEngine {
    /// Prepares the graph. Never fails: links naming a bridge index out of
    /// range are ignored (their ports are in no tree).
    pub fn new(bridges: Vec<BridgeInput>, links: Vec<LinkInput>) -> Self {
        let nb = bridges.len();
        let ends: Vec<Option<(usize, usize)>> = links
            .iter()
            .map(|l| (l.a < nb && l.b < nb).then_some((l.a, l.b)))
            .collect();

        // Bridge-id tie-break: real MACs first, by MAC; then MAC-less bridges
        // (and duplicate MACs) by name; the input index only for duplicate names.
        let mut order: Vec<usize> = (0..nb).collect();
        order.sort_by(|&x, &y| {
            let (bx, by) = (&bridges[x], &bridges[y]);
            (bx.mac.is_none(), bx.mac, &bx.name, x).cmp(&(by.mac.is_none(), by.mac, &by.name, y))
        });
        let mut mac_rank = vec![0u32; nb];
        for (rank, &b) in order.iter().enumerate() {
            mac_rank[b] = rank as u32;
        }

        // Port numbers: per bridge, 1.. over its links ordered by link name
        // (then input index, then end A before B for a looped-back cable).
        let mut adj: Vec<Vec<PortRef>> = vec![Vec::new(); nb];
        for (l, e) in ends.iter().enumerate() {
            if let Some((a, b)) = *e {
                adj[a].push(PortRef::new(l, End::A));
                adj[b].push(PortRef::new(l, End::B));
            }
        }
        let mut port_ids = vec![[PortId::default(); 2]; links.len()];
        for ports in &mut adj {
            ports.sort_by(|p, q| {
                (&links[p.link].name, p.link, p.end).cmp(&(&links[q.link].name, q.link, q.end))
            });
            for (i, p) in ports.iter().enumerate() {
                port_ids[p.link][p.end.index()] = PortId {
                    priority: DEFAULT_PORT_PRIORITY,
                    number: i as u32 + 1,
                };
            }
        }

        // MSTP configurations, interned.
        let mut index: BTreeMap<MstConfig, usize> = BTreeMap::new();
        let mut configs: Vec<Arc<MstConfig>> = Vec::new();
        let mut config_instances = Vec::new();
        let config_id = bridges
            .iter()
            .map(|b| {
                if b.mode != StpMode::Mstp {
                    return None;
                }
                let cfg = b.mst.clone().unwrap_or_default();
                let next = configs.len();
                let id = *index.entry(cfg.clone()).or_insert(next);
                if id == next {
                    let set: BTreeSet<u16> = cfg
                        .vlan_instance
                        .values()
                        .copied()
                        .filter(|&k| k != 0)
                        .collect();
                    config_instances.push(set.into_iter().collect());
                    configs.push(Arc::new(cfg));
                }
                Some(id)
            })
            .collect();

        let shared = Arc::new(Shared {
            bridge_names: bridges.iter().map(|b| b.name.clone()).collect(),
            modes: bridges.iter().map(|b| b.mode).collect(),
            macs: bridges.iter().map(|b| b.mac).collect(),
            link_names: links.iter().map(|l| l.name.clone()).collect(),
            ends,
            port_ids,
            stp_off: bridges
                .iter()
                .map(|b| b.stp_off_vlans.filter(|_| b.is_pvst()))
                .collect(),
        });
        StpEngine {
            shared,
            bridges,
            links,
            mac_rank,
            config_id,
            configs,
            config_instances,
            adj,
            vlans: Vec::new(),
        }
    }

    /// Sets the VLANs the caller will ask about: PVST+ trees are computed for
    /// these only (VLAN 1 is always the common tree). Without PVST bridges
    /// every VLAN can be asked about whatever this says.
    pub fn with_vlans(mut self, vlans: impl IntoIterator<Item = u16>) -> Self {
        let set: BTreeSet<u16> = vlans
            .into_iter()
            .filter(|v| (1..=4094).contains(v))
            .collect();
        self.vlans = set.into_iter().collect();
        self
    }

    pub fn bridges(&self) -> &[BridgeInput] {
        &self.bridges
    }

    pub fn links(&self) -> &[LinkInput] {
        &self.links
    }

    /// The port id of one end of a link: priority 128, and a number from 1
    /// over the bridge's links sorted by link name (then input order).
    pub fn port_id(&self, port: PortRef) -> Option<PortId> {
        self.shared.ends.get(port.link).copied().flatten()?;
        Some(self.shared.port_ids[port.link][port.end.index()])
    }

    /// The healthy network.
    pub fn compute_healthy(&self) -> StpResult {
        self.compute(&Scenario::default())
    }

    fn bids(&self, prio: &[u32]) -> Vec<u64> {
        prio.iter()
            .zip(&self.mac_rank)
            .map(|(&p, &m)| (u64::from(p) << 32) | u64::from(m))
            .collect()
    }

    fn port_cost(&self, link: usize, bridge: usize, speed: u64, key: u16) -> u32 {
        let l = &self.links[link];
        match l.instance_cost.get(&key).copied().or(l.cost) {
            Some(c) => c.max(1),
            None => default_cost(self.bridges[bridge].cost_method(), speed),
        }
    }

    /// Every port's cost in one tree; `key` gives the override key per bridge.
    fn costs(&self, speed: &[u64], key: impl Fn(usize) -> u16) -> Vec<[u32; 2]> {
        self.shared
            .ends
            .iter()
            .enumerate()
            .map(|(l, e)| match *e {
                Some((a, b)) => [
                    self.port_cost(l, a, speed[l], key(a)),
                    self.port_cost(l, b, speed[l], key(b)),
                ],
                None => [MAX_LONG_COST; 2],
            })
            .collect()
    }

    /// Solves one scenario.
    pub fn compute(&self, sc: &Scenario) -> StpResult {
        let nb = self.bridges.len();
        let nl = self.links.len();
        let sh = &self.shared;

        let mut bridge_up = vec![true; nb];
        for &b in &sc.removed_bridges {
            if let Some(x) = bridge_up.get_mut(b) {
                *x = false;
            }
        }
        let mut link_ok = vec![true; nl];
        for &l in &sc.removed_links {
            if let Some(x) = link_ok.get_mut(l) {
                *x = false;
            }
        }
        let mut speed: Vec<u64> = self.links.iter().map(|l| l.speed_mbps).collect();
        for &(l, s) in &sc.link_speed_mbps {
            if let Some(x) = speed.get_mut(l) {
                *x = s;
            }
        }
        let link_up: Vec<bool> = (0..nl)
            .map(|l| link_ok[l] && sh.ends[l].is_some_and(|(a, b)| bridge_up[a] && bridge_up[b]))
            .collect();
        let up_links: Vec<(usize, usize, usize)> = (0..nl)
            .filter(|&l| link_up[l])
            .filter_map(|l| sh.ends[l].map(|(a, b)| (l, a, b)))
            .collect();
        let mode = |b: usize| self.bridges[b].mode;
        let runs_stp: Vec<bool> = (0..nb)
            .map(|b| bridge_up[b] && mode(b) != StpMode::None)
            .collect();
        let non_stp = |b: usize| bridge_up[b] && mode(b) == StpMode::None;
        let is_pvst = |b: usize| self.bridges[b].is_pvst();

        // Segments: point-to-point links between STP bridges, and one shared
        // segment per connected group of non-STP bridges.
        let mut cuf = UnionFind::new(nb);
        for &(_, a, b) in &up_links {
            if non_stp(a) && non_stp(b) {
                cuf.union(a, b);
            }
        }
        let mut segs: Vec<Seg> = Vec::new();
        let mut cluster_seg = vec![u32::MAX; nb];
        for &(l, a, b) in &up_links {
            let pa = SegPort {
                port: PortRef::new(l, End::A),
                bridge: a,
            };
            let pb = SegPort {
                port: PortRef::new(l, End::B),
                bridge: b,
            };
            match (runs_stp[a], runs_stp[b]) {
                (true, true) => segs.push(Seg {
                    ports: vec![pa, pb],
                    internal: false,
                }),
                (true, false) => attach(&mut segs, &mut cluster_seg, cuf.find(b), pa),
                (false, true) => attach(&mut segs, &mut cluster_seg, cuf.find(a), pb),
                (false, false) => {}
            }
        }
        let non_stp_segments = {
            let mut idx = vec![usize::MAX; nb];
            let mut out: Vec<NonStpSegment> = Vec::new();
            for b in 0..nb {
                if non_stp(b) {
                    let r = cuf.find(b);
                    if idx[r] == usize::MAX {
                        idx[r] = out.len();
                        out.push(NonStpSegment {
                            bridges: Vec::new(),
                            links: Vec::new(),
                            stp_ports: Vec::new(),
                        });
                    }
                    out[idx[r]].bridges.push(b);
                }
            }
            for &(l, a, b) in &up_links {
                let r = if non_stp(a) {
                    cuf.find(a)
                } else if non_stp(b) {
                    cuf.find(b)
                } else {
                    continue;
                };
                let s = &mut out[idx[r]];
                s.links.push(l);
                if runs_stp[a] {
                    s.stp_ports.push(PortRef::new(l, End::A));
                }
                if runs_stp[b] {
                    s.stp_ports.push(PortRef::new(l, End::B));
                }
            }
            out
        };

        // MSTP regions: connected through segments whose STP bridges all
        // share one configuration; such segments are region-internal.
        let mst = |b: usize| runs_stp[b] && mode(b) == StpMode::Mstp;
        let mut ruf = UnionFind::new(nb);
        for s in &mut segs {
            let b0 = s.ports[0].bridge;
            let same = mst(b0)
                && s.ports
                    .iter()
                    .all(|q| mst(q.bridge) && self.config_id[q.bridge] == self.config_id[b0]);
            if same {
                for q in &s.ports {
                    ruf.union(b0, q.bridge);
                }
                s.internal = true;
            }
        }
        let mut region_of: Vec<Option<usize>> = vec![None; nb];
        let mut regions: Vec<Region> = Vec::new();
        let mut region_of_set = vec![usize::MAX; nb];
        for b in (0..nb).filter(|&b| mst(b)) {
            let r = ruf.find(b);
            if region_of_set[r] == usize::MAX {
                let cid = self.config_id[b].unwrap_or(0);
                region_of_set[r] = regions.len();
                regions.push(Region {
                    config: self.configs[cid].clone(),
                    bridges: Vec::new(),
                    instances: self.config_instances[cid].clone(),
                    cist_regional_root: None,
                });
            }
            region_of[b] = Some(region_of_set[r]);
            regions[region_of_set[r]].bridges.push(b);
        }

        // The CIST. PVST+ bridges take part with their VLAN 1 parameters.
        let cist_prio: Vec<u32> = self
            .bridges
            .iter()
            .map(|br| {
                if br.is_pvst() {
                    br.priority_for_vlan(1)
                } else {
                    br.priority
                }
            })
            .collect();
        let cist_cost = self.costs(&speed, |b| u16::from(is_pvst(b)));
        let mut cist = self.tree(
            TreeKind::Cist,
            &runs_stp,
            segs.clone(),
            cist_prio,
            cist_cost,
        );
        {
            let by_bid: BTreeMap<u64, usize> = (0..nb)
                .filter(|&b| runs_stp[b])
                .map(|b| (cist.bid[b], b))
                .collect();
            for (b, st) in cist.bridges.iter_mut().enumerate() {
                if let (Some(r), Some(st)) = (region_of[b], st.as_mut()) {
                    let rr = by_bid.get(&cist.key[b].rr).copied();
                    st.regional_root = rr;
                    if regions[r].cist_regional_root.is_none() {
                        regions[r].cist_regional_root = rr;
                    }
                }
            }
        }

        // MSTIs: region-internal segments only; boundary ports follow the CIST.
        let mut trees = vec![cist];
        let mut msti_tree = BTreeMap::new();
        for (ri, region) in regions.iter().enumerate() {
            if region.instances.is_empty() {
                continue;
            }
            let in_region: Vec<bool> = region_of.iter().map(|&r| r == Some(ri)).collect();
            let rsegs: Vec<Seg> = segs
                .iter()
                .filter(|s| s.internal && in_region[s.ports[0].bridge])
                .cloned()
                .collect();
            for &k in &region.instances {
                let prio: Vec<u32> = self
                    .bridges
                    .iter()
                    .map(|b| b.priority_for_instance(k))
                    .collect();
                // Only the region's own ports matter to its MSTIs.
                let mut cost = vec![[MAX_LONG_COST; 2]; nl];
                for &b in &region.bridges {
                    for &p in &self.adj[b] {
                        cost[p.link][p.end.index()] = self.port_cost(p.link, b, speed[p.link], k);
                    }
                }
                let mut t = self.tree(
                    TreeKind::Msti {
                        region: ri,
                        instance: k,
                    },
                    &in_region,
                    rsegs.clone(),
                    prio,
                    cost,
                );
                for &b in &region.bridges {
                    let root = t.bridges[b].as_ref().map(|s| s.root);
                    if let Some(st) = t.bridges[b].as_mut() {
                        st.regional_root = root;
                    }
                    for &p in &self.adj[b] {
                        let e = p.end.index();
                        if !link_up[p.link] || t.seg_of[p.link][e] != NO_SEG {
                            continue;
                        }
                        if let Some(cp) = trees[CIST].ports[p.link][e] {
                            t.ports[p.link][e] = Some(PortState {
                                role: if cp.role == PortRole::Root {
                                    PortRole::Master
                                } else {
                                    cp.role
                                },
                                boundary: true,
                                ..cp
                            });
                        }
                    }
                }
                msti_tree.insert((ri, k), trees.len());
                trees.push(t);
            }
        }

        let has_pvst = (0..nb).any(|b| runs_stp[b] && is_pvst(b));
        let mut res = StpResult {
            shared: self.shared.clone(),
            bridge_up,
            link_up,
            trees,
            regions,
            region_of,
            msti_tree,
            pvst_tree: BTreeMap::new(),
            has_pvst,
            classes: Vec::new(),
            vlan_class: BTreeMap::new(),
            non_stp_segments,
        };

        // PVST+ VLAN trees. Non-PVST bridges pass PVST BPDUs on like data
        // along the ports that forward the VLAN in their own tree, so each
        // group of them joined by such ports is one segment of the VLAN tree.
        // VLANs whose trees depend on the same inputs share one solve (see
        // `pvst::TreeInputs`); `canon` maps each to the first of them.
        let mut canon: BTreeMap<u16, u16> = BTreeMap::new();
        if has_pvst {
            let inputs = pvst::TreeInputs::new(self);
            let mut solved: std::collections::HashMap<pvst::TreeKey, (u16, TreeId)> =
                std::collections::HashMap::new();
            for &v in &self.vlans {
                if v == 1 {
                    continue;
                }
                let key = inputs.key(self, &res, v);
                let t = match solved.get(&key) {
                    Some(&(first, id)) => {
                        canon.insert(v, first);
                        let mut t = res.trees[id].clone();
                        t.kind = TreeKind::PvstVlan(v);
                        t
                    }
                    None => {
                        canon.insert(v, v);
                        solved.insert(key, (v, res.trees.len()));
                        self.pvst_tree(&res, &up_links, &runs_stp, &speed, v)
                    }
                };
                res.pvst_tree.insert(v, res.trees.len());
                res.trees.push(t);
            }
        }

        // Forwarding per VLAN class: VLANs that map to the same tree on every
        // bridge share one vector.
        let nr = res.regions.len();
        let mut special: BTreeSet<u16> = self.vlans.iter().copied().collect();
        special.insert(1);
        for r in &res.regions {
            special.extend(
                r.config
                    .vlan_instance
                    .keys()
                    .copied()
                    .filter(|v| (1..=4094).contains(v)),
            );
        }
        let mut class_index: BTreeMap<(Vec<u16>, u16), usize> = BTreeMap::new();
        class_index.insert((vec![0; nr], 0), 0);
        res.classes.push(res.forwarding_for(None));
        for v in special {
            let pv = if res.has_pvst && v != 1 {
                if !res.pvst_tree.contains_key(&v) {
                    continue;
                }
                canon.get(&v).copied().unwrap_or(v)
            } else {
                0
            };
            let key = (
                res.regions
                    .iter()
                    .map(|r| r.instance_of(v))
                    .collect::<Vec<u16>>(),
                pv,
            );
            let idx = match class_index.get(&key) {
                Some(&i) => i,
                None => {
                    let i = res.classes.len();
                    let f = res.forwarding_for(Some(v));
                    res.classes.push(f);
                    class_index.insert(key, i);
                    i
                }
            };
            res.vlan_class.insert(v, idx);
        }
        res
    }

    fn tree(
        &self,
        kind: TreeKind,
        participant: &[bool],
        segs: Vec<Seg>,
        prio: Vec<u32>,
        cost: Vec<[u32; 2]>,
    ) -> Tree {
        let bid = self.bids(&prio);
        let sol: Solution = solve(&Problem {
            participant,
            bid: &bid,
            segments: &segs,
            cost: &cost,
            port_id: &self.shared.port_ids,
        });
        let nb = participant.len();
        let bridges: Vec<Option<BridgeState>> = (0..nb)
            .map(|b| {
                if !participant[b] {
                    return None;
                }
                let c = sol.comp[b] as usize;
                let k = sol.key[b];
                let (ext, int) = match kind {
                    TreeKind::Msti { .. } => (0, k.int),
                    _ => (k.ext, k.int),
                };
                Some(BridgeState {
                    component: c,
                    root: sol.comp_root[c],
                    priority: prio[b],
                    root_path_cost: k.total(),
                    external_cost: ext,
                    internal_cost: int,
                    regional_root: None,
                    root_port: sol.root_port[b],
                })
            })
            .collect();
        let ports = self
            .shared
            .ends
            .iter()
            .enumerate()
            .map(|(l, e)| {
                let mut out = [None; 2];
                if let Some((a, b)) = *e {
                    for (i, x) in [a, b].into_iter().enumerate() {
                        if participant[x] {
                            out[i] = Some(PortState {
                                role: sol.role[l][i].unwrap_or(PortRole::Disabled),
                                cost: cost[l][i],
                                port_id: self.shared.port_ids[l][i],
                                boundary: false,
                            });
                        }
                    }
                }
                out
            })
            .collect();
        let roots = sol
            .comp_root
            .iter()
            .zip(&sol.comp_members)
            .map(|(&root, members)| {
                let p = prio[root];
                let mut tied: Vec<usize> =
                    members.iter().copied().filter(|&m| prio[m] == p).collect();
                tied.sort_by_key(|&m| bid[m]);
                let macs = &self.shared.macs;
                let decided_by = if tied.len() <= 1 {
                    RootDecision::Priority
                } else if tied.iter().any(|&m| macs[m].is_none()) || macs[tied[0]] == macs[tied[1]]
                {
                    RootDecision::SyntheticTieBreak { tied }
                } else {
                    RootDecision::MacTieBreak { tied }
                };
                RootInfo {
                    root,
                    priority: p,
                    default_priority: p == DEFAULT_BRIDGE_PRIORITY,
                    decided_by,
                    bridges: members.clone(),
                }
            })
            .collect();
        Tree {
            kind,
            bridges,
            ports,
            roots,
            key: sol.key,
            bid,
            seg_of: sol.seg_of,
            designated: sol.designated,
            seg_internal: segs.iter().map(|s| s.internal).collect(),
        }
    }

    fn pvst_tree(
        &self,
        res: &StpResult,
        up_links: &[(usize, usize, usize)],
        runs_stp: &[bool],
        speed: &[u64],
        v: u16,
    ) -> Tree {
        let nb = self.bridges.len();
        let pvst: Vec<bool> = (0..nb)
            .map(|b| runs_stp[b] && self.bridges[b].is_pvst() && !self.bridges[b].stp_off(v))
            .collect();
        let carried: Vec<(usize, usize, usize)> = up_links
            .iter()
            .copied()
            .filter(|&(l, _, _)| self.links[l].allows(v))
            .collect();
        let opens = |b: usize, p: PortRef| res.end_forwards(b, p, Some(v));
        let mut uf = UnionFind::new(nb);
        for &(l, a, b) in &carried {
            if !pvst[a]
                && !pvst[b]
                && opens(a, PortRef::new(l, End::A))
                && opens(b, PortRef::new(l, End::B))
            {
                uf.union(a, b);
            }
        }
        let mut segs: Vec<Seg> = Vec::new();
        let mut cluster_seg = vec![u32::MAX; nb];
        for &(l, a, b) in &carried {
            let pa = SegPort {
                port: PortRef::new(l, End::A),
                bridge: a,
            };
            let pb = SegPort {
                port: PortRef::new(l, End::B),
                bridge: b,
            };
            match (pvst[a], pvst[b]) {
                (true, true) => segs.push(Seg {
                    ports: vec![pa, pb],
                    internal: false,
                }),
                (true, false) => {
                    if opens(b, pb.port) {
                        attach(&mut segs, &mut cluster_seg, uf.find(b), pa);
                    } else {
                        segs.push(Seg {
                            ports: vec![pa],
                            internal: false,
                        });
                    }
                }
                (false, true) => {
                    if opens(a, pa.port) {
                        attach(&mut segs, &mut cluster_seg, uf.find(a), pb);
                    } else {
                        segs.push(Seg {
                            ports: vec![pb],
                            internal: false,
                        });
                    }
                }
                (false, false) => {}
            }
        }
        let prio: Vec<u32> = self
            .bridges
            .iter()
            .map(|b| b.priority_for_vlan(v))
            .collect();
        let cost = self.costs(speed, |_| v);
        self.tree(TreeKind::PvstVlan(v), &pvst, segs, prio, cost)
    }
}

fn attach(segs: &mut Vec<Seg>, cluster_seg: &mut [u32], root: usize, port: SegPort) {
    match cluster_seg[root] {
        u32::MAX => {
            cluster_seg[root] = segs.len() as u32;
            segs.push(Seg {
                ports: vec![port],
                internal: false,
            });
        }
        s => segs[s as usize].ports.push(port),
    }
}

// ---------------------------------------------------------------- result

/// The trees of one scenario and the forwarding state per VLAN.
#[derive(Clone, Debug)]
pub struct StpResult {
    shared: Arc<Shared>,
    bridge_up: Vec<bool>,
    link_up: Vec<bool>,
    trees: Vec<Tree>,
    regions: Vec<Region>,
    region_of: Vec<Option<usize>>,
    msti_tree: BTreeMap<(usize, u16), TreeId>,
    pvst_tree: BTreeMap<u16, TreeId>,
    has_pvst: bool,
    classes: Vec<Vec<bool>>,
    vlan_class: BTreeMap<u16, usize>,
    non_stp_segments: Vec<NonStpSegment>,
}

impl fmt::Debug for Shared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Shared")
            .field("bridges", &self.bridge_names.len())
            .field("links", &self.link_names.len())
            .finish()
    }
}

impl StpResult {
    /// Every tree: [`CIST`] first, then the MSTIs (by region, instance), then
    /// the PVST+ VLAN trees (by VLAN).
    pub fn trees(&self) -> &[Tree] {
        &self.trees
    }
    pub fn tree(&self, id: TreeId) -> Option<&Tree> {
        self.trees.get(id)
    }
    pub fn cist(&self) -> &Tree {
        &self.trees[CIST]
    }
    /// The tree of MSTI `instance` of region `region`.
    pub fn msti(&self, region: usize, instance: u16) -> Option<TreeId> {
        self.msti_tree.get(&(region, instance)).copied()
    }
    /// The PVST+ tree of `vlan` (VLAN 1: the CIST; `None` when not computed).
    pub fn pvst_vlan(&self, vlan: u16) -> Option<TreeId> {
        if vlan == 1 {
            return Some(CIST);
        }
        self.pvst_tree.get(&vlan).copied()
    }
    pub fn regions(&self) -> &[Region] {
        &self.regions
    }
    /// The region an MSTP bridge is in.
    pub fn region_of(&self, bridge: usize) -> Option<usize> {
        self.region_of.get(bridge).copied().flatten()
    }
    /// The spanning-tree mode a bridge runs.
    pub fn bridge_mode(&self, bridge: usize) -> StpMode {
        self.shared.modes[bridge]
    }
    pub fn bridge_name(&self, bridge: usize) -> &str {
        self.shared
            .bridge_names
            .get(bridge)
            .map_or("?", |s| s.as_str())
    }
    pub fn link_name(&self, link: usize) -> &str {
        self.shared.link_names.get(link).map_or("?", |s| s.as_str())
    }
    /// The bridge owning a port.
    pub fn port_bridge(&self, port: PortRef) -> Option<usize> {
        self.shared.bridge_of(port)
    }
    pub fn is_bridge_up(&self, bridge: usize) -> bool {
        self.bridge_up.get(bridge).copied().unwrap_or(false)
    }
    pub fn is_link_up(&self, link: usize) -> bool {
        self.link_up.get(link).copied().unwrap_or(false)
    }
    /// Connected groups of `mode = none` bridges (each one STP segment).
    pub fn non_stp_segments(&self) -> &[NonStpSegment] {
        &self.non_stp_segments
    }

    /// Which links forward `vlan` (indexed by link): `None` = the common tree
    /// (all VLANs for STP/RSTP). `Some(0)` is read as VLAN 1. A link forwards
    /// iff it is up and neither end blocks; an end on a `mode = none` bridge
    /// never blocks. Allowed-VLAN lists are the caller's business (except
    /// that PVST trees are built over the links carrying their VLAN).
    ///
    /// Returns `None` for a VLAN outside 1..=4094, or, when the scenario has
    /// PVST+ bridges, for a VLAN not passed to [`StpEngine::with_vlans`].
    pub fn forwarding_links(&self, vlan: Option<u16>) -> Option<&[bool]> {
        let Some(v) = vlan else {
            return Some(&self.classes[0]);
        };
        let v = v.max(1);
        if v > 4094 {
            return None;
        }
        match self.vlan_class.get(&v) {
            Some(&c) => Some(&self.classes[c]),
            None if self.has_pvst => None,
            None => Some(&self.classes[0]),
        }
    }

    /// The tree that decides `vlan` on `bridge` (`None` = the common tree):
    /// `None` for a bridge that is down or does not run STP. On an MSTP
    /// region's boundary ports the VLAN follows the CIST whatever this says.
    pub fn governing_tree(&self, bridge: usize, vlan: Option<u16>) -> Option<TreeId> {
        if !self.is_bridge_up(bridge) {
            return None;
        }
        let vlan = vlan.map(|v| v.max(1));
        match self.shared.modes[bridge] {
            StpMode::None => None,
            StpMode::Stp | StpMode::Rstp => Some(CIST),
            StpMode::Mstp => Some(vlan.map_or(CIST, |v| self.msti_for(bridge, v))),
            StpMode::Pvst | StpMode::RapidPvst => match vlan {
                None | Some(1) => Some(CIST),
                Some(v) if self.shared.stp_off(bridge, v) => None,
                Some(v) => self.pvst_tree.get(&v).copied(),
            },
        }
    }

    fn msti_for(&self, bridge: usize, vlan: u16) -> TreeId {
        let Some(r) = self.region_of(bridge) else {
            return CIST;
        };
        match self.regions[r].instance_of(vlan) {
            0 => CIST,
            k => self.msti_tree.get(&(r, k)).copied().unwrap_or(CIST),
        }
    }

    /// Whether `bridge`'s end `port` forwards `vlan`.
    fn end_forwards(&self, bridge: usize, port: PortRef, vlan: Option<u16>) -> bool {
        self.end_forwards_by(bridge, port, vlan, |t, p| self.port_forwards(t, p))
    }

    /// Whether `port` forwards in tree `t` (a port outside the tree does not).
    fn port_forwards(&self, t: TreeId, port: PortRef) -> bool {
        self.trees[t].ports[port.link][port.end.index()].is_some_and(|p| p.role.forwards())
    }

    /// [`end_forwards`](Self::end_forwards) with the ports' states read
    /// through `forwards(tree, port)`: the VLAN-to-tree mapping of this
    /// result, applied to trees updated elsewhere (see [`incremental`]).
    fn end_forwards_by(
        &self,
        bridge: usize,
        port: PortRef,
        vlan: Option<u16>,
        forwards: impl Fn(TreeId, PortRef) -> bool,
    ) -> bool {
        let fwd = |t: TreeId| forwards(t, port);
        match self.shared.modes[bridge] {
            StpMode::None => true,
            StpMode::Stp | StpMode::Rstp => fwd(CIST),
            StpMode::Mstp => fwd(vlan.map_or(CIST, |v| self.msti_for(bridge, v))),
            StpMode::Pvst | StpMode::RapidPvst => match vlan {
                None | Some(1) => fwd(CIST),
                Some(v) if self.shared.stp_off(bridge, v) => true,
                Some(v) => self.pvst_tree.get(&v).is_some_and(|&t| fwd(t)),
            },
        }
    }

    fn forwarding_for(&self, vlan: Option<u16>) -> Vec<bool> {
        (0..self.link_up.len())
            .map(|l| {
                self.link_up[l]
                    && self.shared.ends[l].is_some_and(|(a, b)| {
                        self.end_forwards(a, PortRef::new(l, End::A), vlan)
                            && self.end_forwards(b, PortRef::new(l, End::B), vlan)
                    })
            })
            .collect()
    }

    /// The links that lie on a cycle of the graph made of the links marked in
    /// `forwarding` (e.g. from [`forwarding_links`](Self::forwarding_links)),
    /// sorted. STP leaves such cycles only inside groups of non-STP bridges.
    pub fn links_on_loops(&self, forwarding: &[bool]) -> Vec<usize> {
        links_on_cycles(&self.shared.ends, self.bridge_up.len(), |l| {
            forwarding.get(l).copied().unwrap_or(false)
        })
    }
}

/// Links on some cycle of the multigraph of the selected links (Tarjan's
/// bridge-finding, iterative): every selected link that is not a bridge.
fn links_on_cycles(
    ends: &[Option<(usize, usize)>],
    nb: usize,
    selected: impl Fn(usize) -> bool,
) -> Vec<usize> {
    let mut adj: Vec<Vec<(usize, usize)>> = vec![Vec::new(); nb];
    let mut out = Vec::new();
    for (l, e) in ends.iter().enumerate() {
        if let Some((a, b)) = *e {
            if !selected(l) {
                continue;
            }
            if a == b {
                out.push(l);
            } else {
                adj[a].push((b, l));
                adj[b].push((a, l));
            }
        }
    }
    let mut disc = vec![u32::MAX; nb];
    let mut low = vec![0u32; nb];
    let mut is_bridge = vec![false; ends.len()];
    let mut time = 0u32;
    for s in 0..nb {
        if disc[s] != u32::MAX {
            continue;
        }
        // (node, link used to enter it, next neighbour index)
        let mut stack: Vec<(usize, usize, usize)> = vec![(s, usize::MAX, 0)];
        disc[s] = time;
        low[s] = time;
        time += 1;
        while let Some(top) = stack.last_mut() {
            let (u, via, i) = *top;
            if i < adj[u].len() {
                top.2 += 1;
                let (w, l) = adj[u][i];
                if l == via {
                    continue;
                }
                if disc[w] == u32::MAX {
                    disc[w] = time;
                    low[w] = time;
                    time += 1;
                    stack.push((w, l, 0));
                } else {
                    low[u] = low[u].min(disc[w]);
                }
            } else {
                stack.pop();
                if let Some(&(p, _, _)) = stack.last() {
                    low[p] = low[p].min(low[u]);
                    if low[u] > disc[p] {
                        is_bridge[via] = true;
                    }
                }
            }
        }
    }
    for adj_u in &adj {
        for &(_, l) in adj_u {
            if !is_bridge[l] {
                out.push(l);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}
