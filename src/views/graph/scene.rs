//! The scene: everything that is drawn, in drawing order.

use netlint_model::{Severity, Tier};

/// A finding shown on an element: its rule id and severity.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Mark {
    pub rule: String,
    pub severity: Severity,
}

impl Mark {
    /// `✖ rule`, `⚠ rule`, `ℹ rule`.
    pub fn text(&self) -> String {
        let sym = match self.severity {
            Severity::Error => "✖",
            Severity::Warning => "⚠",
            Severity::Info => "ℹ",
        };
        format!("{sym} {}", self.rule)
    }
}

/// The worst severity among marks.
pub fn worst(marks: &[Mark]) -> Option<Severity> {
    marks.iter().map(|m| m.severity).max()
}

/// Everything that is drawn, in drawing order.
#[derive(Clone, Debug, Default)]
pub struct Scene {
    pub title: String,
    /// Lines under the title: which tree, which failures, design findings.
    pub notes: Vec<String>,
    /// Stacks and MLAG domains.
    pub groups: Vec<Group>,
    pub switches: Vec<SwitchNode>,
    pub hosts: Vec<HostNode>,
    pub edges: Vec<Edge>,
    pub networks: Vec<NetworkRow>,
    /// Findings about the design as a whole.
    pub marks: Vec<Mark>,
}

#[derive(Clone, Debug)]
pub struct Group {
    pub id: String,
    /// `stack stack-1`, `MLAG vlt-1`.
    pub label: String,
    /// Indices into [`Scene::switches`].
    pub members: Vec<usize>,
}

#[derive(Clone, Debug)]
pub struct SwitchNode {
    pub id: String,
    pub name: String,
    pub lines: Vec<String>,
    pub tier: Tier,
    /// `★ root`, `★ root of instance 1`.
    pub roots: Vec<String>,
    pub down: bool,
    pub marks: Vec<Mark>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct HostNode {
    pub id: String,
    /// The host names, or a run of them.
    pub title: String,
    pub count: usize,
    pub lines: Vec<String>,
    pub marks: Vec<Mark>,
    /// With `--detail host`: NICs, teams and virtual switches.
    pub parts: Vec<Part>,
    /// Cards, each holding NIC parts (indices into `parts`).
    pub cards: Vec<Card>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Card {
    pub id: String,
    pub label: String,
    pub parts: Vec<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartKind {
    Nic,
    Team,
    VSwitch,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub id: String,
    pub kind: PartKind,
    pub title: String,
    pub lines: Vec<String>,
    pub marks: Vec<Mark>,
    pub down: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeKind {
    /// An inter-switch link (a spanning-tree port).
    Trunk,
    /// A stacking cable or MLAG peer-link, inside one bridge.
    Internal,
    /// A routed link, or a cable to a device with `managed = false`:
    /// cabling that carries no VLAN of the fabric (no spanning-tree port).
    Cabling,
    /// A host NIC's cable to a switch.
    Host,
    /// A direct cable between two hosts.
    Peer,
    /// Inside a host: a team over its members, a vSwitch over its uplinks.
    Inner,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Block {
    None,
    /// Blocked for every VLAN it carries (drawn dashed).
    Full,
    /// Blocked for some VLANs only (in the all-trees view).
    Partial,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    From,
    To,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    pub from: String,
    pub to: String,
    pub kind: EdgeKind,
    pub label: Vec<String>,
    /// Port role at each end (`Root`, `Desg`, `Altn`, ...).
    pub from_role: Option<String>,
    pub to_role: Option<String>,
    pub block: Block,
    pub blocked_at: Option<Side>,
    /// Carries none of the VLANs of the view (drawn grey).
    pub idle: bool,
    pub down: bool,
    /// Networks this link cuts (`csv (VLAN 20)`): drawn red.
    pub cuts: Vec<String>,
    pub marks: Vec<Mark>,
    /// Both ends are switches of one tier (Mermaid orders the ends by it).
    pub same_rank: bool,
}

impl Edge {
    pub(super) fn new(from: String, to: String, kind: EdgeKind) -> Edge {
        Edge {
            from,
            to,
            kind,
            label: Vec::new(),
            from_role: None,
            to_role: None,
            block: Block::None,
            blocked_at: None,
            idle: false,
            down: false,
            cuts: Vec::new(),
            marks: Vec::new(),
            same_rank: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetStatus {
    Ok,
    /// Cut in the state drawn (and, with failures, already before them).
    Cut(String),
    /// Cut by the failures drawn.
    CutByFailure(String),
}

#[derive(Clone, Debug)]
pub struct NetworkRow {
    pub id: String,
    pub name: String,
    /// `csv · VLAN 20 · MTU 9000`.
    pub detail: String,
    pub status: NetStatus,
    /// In the VLANs of the view (`--network`, `--instance`).
    pub selected: bool,
    pub marks: Vec<Mark>,
}
