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
        match ps.role {
            PortRole::Root | PortRole::Master => {
                ex.decided_by = Decision::BestRootPath;
                ex.message = format!(
                    "{}: best path to the root {root}, root path cost {} through {} on {}",
                    ps.role,
                    bs.root_path_cost,
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
                        "designated: offers root path cost {}, the best on {}",
                        bs.root_path_cost,
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
                let head = format!(
                    "alternate: receives root path cost {} from {} on {}; a root path through this port would cost {}",
                    ex.offered_cost,
                    self.bridge_name(d.bridge),
                    self.link_name(port.link),
                    ex.cost_through_port
                );
                let rp_link = self.link_name(rp.link);
                let cost_differs = mine.0.ext != theirs.0.ext
                    || (mine.0.rr == theirs.0.rr && mine.0.int != theirs.0.int);
                let (decision, tail) = if cost_differs {
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
        let what = self.tree_name(tree);
        let Some(t) = self.trees.get(tree) else {
            return what;
        };
        let root = bridge
            .and_then(|b| t.root_of(b))
            .or_else(|| t.roots.first().map(|r| r.root));
        match root {
            Some(r) => format!("{what} rooted at {}", self.bridge_name(r)),
            None => what,
        }
    }

    /// Names a tree without its root: "instance 0 (CIST)", "the RSTP
    /// tree", "VLAN 20 (PVST+)".
    pub fn tree_name(&self, tree: TreeId) -> String {
        let Some(t) = self.trees.get(tree) else {
            return format!("tree {tree}");
        };
        match t.kind {
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
