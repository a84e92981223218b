//! Human-readable reasons: why a port has its role, how a root won, and how
//! to name a tree in a message.

use super::solve::{step, Key};
use super::{PortId, PortRef, PortRole, RootDecision, StpResult, TreeId, TreeKind, CIST};
use netlint_model::StpMode;

/// Which component of the priority vectors decided a port's role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// The bridge is the root: every port is designated (or backup).
    BridgeIsRoot,
    /// Root port: the best root path priority vector of the bridge.
    BestRootPath,
    /// Designated: the best designated priority vector on its segment.
    BestOnSegment,
    /// Alternate: the root path through this port costs more.
    RootPathCost,
    /// Alternate, equal cost (MSTP CIST): the other path leads to a better
    /// regional root.
    RegionalRoot,
    /// Alternate, equal cost: the root port's designated bridge has the lower id.
    DesignatedBridge,
    /// Alternate, equal cost and designated bridge: lower designated port id.
    DesignatedPort,
    /// Alternate, all else equal: the root port has the lower port id itself.
    ReceivingPort,
    /// Backup: another port of the same bridge is designated on the segment.
    OwnDesignatedPort,
    /// MSTI boundary port: follows its CIST role.
    FollowsCist,
    /// The port is down or does not carry the tree's VLAN.
    Disabled,
}

/// Which root path cost a port explanation's figures are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CostScope {
    /// The root path cost (external plus internal; for STP, RSTP, PVST+ and
    /// inside the CIST root's own region the only one there is).
    RootPath,
    /// The CIST external root path cost: what decides between two paths
    /// that reach the CIST root through different region boundaries. The
    /// internal cost to the bridge's CIST regional root does not count.
    External,
}

/// Why a port has its role in one tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortExplanation {
    pub tree: TreeId,
    pub port: PortRef,
    pub bridge: usize,
    pub role: PortRole,
    pub decided_by: Decision,
    /// The port's path cost in this tree.
    pub cost: u32,
    /// The designated port of the port's segment (another bridge's for an
    /// alternate port, the same bridge's for a backup port).
    pub designated: Option<PortRef>,
    pub designated_bridge: Option<usize>,
    /// Which cost the three figures below are: the one that decided.
    pub cost_scope: CostScope,
    /// Root path cost the designated port advertises.
    pub offered_cost: u64,
    /// The bridge's root path cost if this port were its root port.
    pub cost_through_port: u64,
    /// The bridge's actual root path cost.
    pub root_path_cost: u64,
    pub root_port: Option<PortRef>,
    /// One sentence, naming bridges and links as the caller named them.
    pub message: String,
}

impl StpResult {
    /// Why `port` has its role in `tree`; `None` when the port's bridge takes
    /// no part in the tree.
    pub fn explain_port(&self, tree: TreeId, port: PortRef) -> Option<PortExplanation> {
        let t = self.trees.get(tree)?;
        let ps = *t.port(port)?;
        let b = self.port_bridge(port)?;
        let bs = t.bridges[b].as_ref()?;
        let mut ex = PortExplanation {
            tree,
            port,
            bridge: b,
            role: ps.role,
            decided_by: Decision::Disabled,
            cost: ps.cost,
            designated: None,
            designated_bridge: None,
            cost_scope: CostScope::RootPath,
            offered_cost: 0,
            cost_through_port: 0,
            root_path_cost: bs.root_path_cost,
            root_port: bs.root_port,
            message: String::new(),
        };
        if ps.boundary {
            let mut inner = self.explain_port(CIST, port)?;
            inner.tree = tree;
            inner.role = ps.role;
            inner.decided_by = Decision::FollowsCist;
            inner.message = format!(
                "{}: region boundary port, so it takes its CIST role ({})",
                ps.role, inner.message
            );
            return Some(inner);
        }
        if ps.role == PortRole::Disabled {
            ex.message = match t.kind {
                TreeKind::PvstVlan(v) if self.is_link_up(port.link) => {
                    format!(
                        "disabled: {} does not carry VLAN {v}",
                        self.link_name(port.link)
                    )
                }
                _ => format!("disabled: {} is down", self.link_name(port.link)),
            };
            return Some(ex);
        }
        let si = t.seg_of[port.link][port.end.index()] as usize;
        let internal = *t.seg_internal.get(si)?;
        let d = *t.designated.get(si)?;
        let dkey = t.key[d.bridge];
        let via = step(dkey, internal, ps.cost, t.bid[b]);
        ex.designated = Some(d.port);
        ex.designated_bridge = Some(d.bridge);
        ex.offered_cost = dkey.total();
        ex.cost_through_port = via.total();
        let root = self.bridge_name(bs.root);
        let pid = |p: PortRef| self.shared.port_ids[p.link][p.end.index()];
        // A bridge of an MSTP region other than the CIST root's: its root
        // path cost is an external cost to the region plus an internal one
        // to the CIST regional root, which are compared apart.
        let split = match (t.kind, bs.regional_root) {
            (TreeKind::Cist, Some(rr))
                if rr != b
                    && self.shared.modes[b] == StpMode::Mstp
                    && bs.external_cost > 0
                    && bs.internal_cost > 0 =>
            {
                Some(rr)
            }
            _ => None,
        };
        let cost_words = |bs: &super::BridgeState| {
            match split {
            Some(rr) => format!(
                "external root path cost {} and internal root path cost {} to its CIST regional root {}",
                bs.external_cost,
                bs.internal_cost,
                self.bridge_name(rr)
            ),
            None => format!("root path cost {}", bs.root_path_cost),
        }
        };
        match ps.role {
            PortRole::Root | PortRole::Master => {
                ex.decided_by = Decision::BestRootPath;
                let sep = if split.is_some() { "," } else { "" };
                ex.message = format!(
                    "{}: best path to the root {root}, {}{sep} through {} on {}",
                    ps.role,
                    cost_words(bs),
                    self.bridge_name(d.bridge),
                    self.link_name(port.link)
                );
            }
            PortRole::Designated => {
                if bs.root == b {
                    ex.decided_by = Decision::BridgeIsRoot;
                    ex.message = format!("designated: {} is the root", self.bridge_name(b));
                } else {
                    ex.decided_by = Decision::BestOnSegment;
                    ex.message = format!(
                        "designated: offers {}, the best on {}",
                        cost_words(bs),
                        self.link_name(port.link)
                    );
                }
            }
            PortRole::Backup => {
                ex.decided_by = Decision::OwnDesignatedPort;
                ex.message = format!(
                    "backup: port {} of the same bridge (on {}) is designated on this segment",
                    pid(d.port),
                    self.link_name(d.port.link)
                );
            }
            PortRole::Alternate => {
                let Some(rp) = bs.root_port else {
                    ex.message = "alternate".to_string();
                    return Some(ex);
                };
                let rsi = t.seg_of[rp.link][rp.end.index()] as usize;
                let rd = t.designated[rsi];
                let mine: (Key, u64, PortId, PortId) =
                    (via, t.bid[d.bridge], pid(d.port), pid(port));
                let theirs: (Key, u64, PortId, PortId) =
                    (t.key[b], t.bid[rd.bridge], pid(rd.port), pid(rp));
                let rp_link = self.link_name(rp.link);
                let cost_differs = mine.0.ext != theirs.0.ext
                    || (mine.0.rr == theirs.0.rr && mine.0.int != theirs.0.int);
                // Paths through different region boundaries: the external
                // cost decides, whatever the internal costs add.
                let external = mine.0.ext != theirs.0.ext
                    && (mine.0.int != 0 || theirs.0.int != 0 || dkey.int != 0);
                let head = if external {
                    ex.cost_scope = CostScope::External;
                    ex.offered_cost = dkey.ext;
                    ex.cost_through_port = via.ext;
                    ex.root_path_cost = theirs.0.ext;
                    format!(
                        "alternate: receives external root path cost {} from {} on {}; a root path through this port would have external root path cost {}",
                        ex.offered_cost,
                        self.bridge_name(d.bridge),
                        self.link_name(port.link),
                        ex.cost_through_port
                    )
                } else {
                    format!(
                        "alternate: receives root path cost {} from {} on {}; a root path through this port would cost {}",
                        ex.offered_cost,
                        self.bridge_name(d.bridge),
                        self.link_name(port.link),
                        ex.cost_through_port
                    )
                };
                let (decision, tail) = if external {
                    let note = match (bs.regional_root, self.region_of.get(b).copied().flatten()) {
                        (Some(rr), Some(reg)) if rr != b && theirs.0.int > 0 => format!(
                            " (between regions the external root path cost decides; inside region {} {} adds internal root path cost {} to its CIST regional root {})",
                            self.regions[reg].name(),
                            self.bridge_name(b),
                            theirs.0.int,
                            self.bridge_name(rr)
                        ),
                        _ => " (between regions the external root path cost decides)".to_string(),
                    };
                    (
                        Decision::RootPathCost,
                        format!(
                            ", more than the {} through its root port on {rp_link}{note}",
                            ex.root_path_cost
                        ),
                    )
                } else if cost_differs {
                    (
                        Decision::RootPathCost,
                        format!(
                            ", more than the {} through its root port on {rp_link}",
                            bs.root_path_cost
                        ),
                    )
                } else if mine.0.rr != theirs.0.rr {
                    (
                        Decision::RegionalRoot,
                        format!(
                            ", while its root port on {rp_link} leads through the better CIST regional root {}",
                            bs.regional_root.map_or("?", |r| self.bridge_name(r))
                        ),
                    )
                } else if mine.1 != theirs.1 {
                    (
                        Decision::DesignatedBridge,
                        format!(
                            ", the same as through its root port on {rp_link}, which wins on the lower bridge id of {} over {}",
                            self.bridge_name(rd.bridge),
                            self.bridge_name(d.bridge)
                        ),
                    )
                } else if mine.2 != theirs.2 {
                    (
                        Decision::DesignatedPort,
                        format!(
                            ", the same as through its root port on {rp_link}, which wins on the lower designated port id {} over {}",
                            theirs.2, mine.2
                        ),
                    )
                } else {
                    (
                        Decision::ReceivingPort,
                        format!(
                            ", the same as through its root port on {rp_link}, which wins on its lower port id {} over {}",
                            theirs.3, mine.3
                        ),
                    )
                };
                ex.decided_by = decision;
                ex.message = head + &tail;
            }
            PortRole::Disabled => {}
        }
        Some(ex)
    }

    /// Names a tree for messages, with the root of `bridge`'s component (or
    /// of the first component): "instance 0 (CIST) rooted at core-1",
    /// "instance 1 of region dc1 rooted at tor-a", "the RSTP tree rooted at
    /// core-1", "VLAN 20 (PVST+) rooted at sw-2".
    pub fn tree_label(&self, tree: TreeId, bridge: Option<usize>) -> String {
        let Some(t) = self.trees.get(tree) else {
            return format!("tree {tree}");
        };
        let what = match t.kind {
            TreeKind::Cist => {
                let modes: Vec<StpMode> = (0..self.bridge_up.len())
                    .filter(|&b| t.bridges[b].is_some())
                    .map(|b| self.shared.modes[b])
                    .collect();
                let all = |m: &[StpMode]| !modes.is_empty() && modes.iter().all(|x| m.contains(x));
                if modes.contains(&StpMode::Mstp) {
                    "instance 0 (CIST)".to_string()
                } else if all(&[StpMode::Rstp]) {
                    "the RSTP tree".to_string()
                } else if all(&[StpMode::Stp]) {
                    "the STP tree".to_string()
                } else if all(&[StpMode::Pvst, StpMode::RapidPvst]) {
                    "VLAN 1 (PVST+)".to_string()
                } else {
                    "the common spanning tree".to_string()
                }
            }
            TreeKind::Msti { region, instance } => {
                format!(
                    "instance {instance} of region {}",
                    self.regions[region].name()
                )
            }
            TreeKind::PvstVlan(v) => format!("VLAN {v} (PVST+)"),
        };
        let root = bridge
            .and_then(|b| t.root_of(b))
            .or_else(|| t.roots.first().map(|r| r.root));
        match root {
            Some(r) => format!("{what} rooted at {}", self.bridge_name(r)),
            None => what,
        }
    }

    /// Why the root of `bridge`'s component of `tree` won, in one sentence:
    /// "core-1 is root on its priority 4096", "tor-a is root on the MAC
    /// tie-break among 3 bridges of priority 32768 (the default)".
    pub fn root_message(&self, tree: TreeId, bridge: usize) -> Option<String> {
        let info = self.trees.get(tree)?.root_info_of(bridge)?;
        let name = self.bridge_name(info.root);
        let dflt = if info.default_priority {
            " (the default)"
        } else {
            ""
        };
        Some(match &info.decided_by {
            RootDecision::Priority => format!("{name} is root on its priority {}{dflt}", info.priority),
            RootDecision::MacTieBreak { tied } => format!(
                "{name} is root on the MAC tie-break among {} bridges of priority {}{dflt}",
                tied.len(),
                info.priority
            ),
            RootDecision::SyntheticTieBreak { tied } => format!(
                "{name} is root only by netlint's guess: {} bridges share priority {}{dflt} and their MACs are not all known",
                tied.len(),
                info.priority
            ),
        })
    }
}
