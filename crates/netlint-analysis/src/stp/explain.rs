//! Why a port has its role: which component of the priority vectors
//! decided it, with every figure and id a message needs (the words are
//! `netlint_rules::phrases::stp`).

use super::solve::{step, Key};
use super::{PortId, PortRef, PortRole, StpResult, TreeId, TreeKind, CIST};
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

/// A CIST root path cost in its two parts, for a bridge of an MSTP region
/// other than the CIST root's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CostSplit {
    pub external: u64,
    pub internal: u64,
    /// The bridge's CIST regional root, which the internal cost reaches.
    pub regional_root: usize,
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
    /// The port's own id.
    pub port_id: PortId,
    /// The root of the bridge's component.
    pub root: usize,
    /// The bridge's CIST regional root (MSTP).
    pub regional_root: Option<usize>,
    /// The designated port of the port's segment (another bridge's for an
    /// alternate port, the same bridge's for a backup port), its bridge and
    /// port id.
    pub designated: Option<PortRef>,
    pub designated_bridge: Option<usize>,
    pub designated_port_id: Option<PortId>,
    /// Which cost the three figures below are: the one that decided.
    pub cost_scope: CostScope,
    /// The bridge's root path cost in its two parts, when it lies in an
    /// MSTP region other than the CIST root's (CIST only).
    pub cost_split: Option<CostSplit>,
    /// For an alternate port decided on the external cost: the bridge's
    /// region and the internal cost its root port adds inside it.
    pub internal_note: Option<(usize, u64)>,
    /// Root path cost the designated port advertises.
    pub offered_cost: u64,
    /// The bridge's root path cost if this port were its root port.
    pub cost_through_port: u64,
    /// The bridge's actual root path cost.
    pub root_path_cost: u64,
    pub root_port: Option<PortRef>,
    pub root_port_id: Option<PortId>,
    /// The designated bridge and port id on the root port's segment (what
    /// an alternate port lost to).
    pub root_port_designated: Option<(usize, PortId)>,
}

impl StpResult {
    /// A port's id (priority and number).
    pub fn port_id(&self, p: PortRef) -> PortId {
        self.shared.port_ids[p.link][p.end.index()]
    }

    /// Why `port` has its role in `tree`; `None` when the port's bridge takes
    /// no part in the tree.
    pub fn explain_port(&self, tree: TreeId, port: PortRef) -> Option<PortExplanation> {
        let t = self.trees.get(tree)?;
        let ps = *t.port(port)?;
        let b = self.port_bridge(port)?;
        let bs = t.bridges[b].as_ref()?;
        let pid = |p: PortRef| self.port_id(p);
        let mut ex = PortExplanation {
            tree,
            port,
            bridge: b,
            role: ps.role,
            decided_by: Decision::Disabled,
            cost: ps.cost,
            port_id: pid(port),
            root: bs.root,
            regional_root: bs.regional_root,
            designated: None,
            designated_bridge: None,
            designated_port_id: None,
            cost_scope: CostScope::RootPath,
            cost_split: None,
            internal_note: None,
            offered_cost: 0,
            cost_through_port: 0,
            root_path_cost: bs.root_path_cost,
            root_port: bs.root_port,
            root_port_id: bs.root_port.map(pid),
            root_port_designated: None,
        };
        if ps.boundary {
            let mut inner = self.explain_port(CIST, port)?;
            inner.tree = tree;
            inner.role = ps.role;
            inner.decided_by = Decision::FollowsCist;
            return Some(inner);
        }
        if ps.role == PortRole::Disabled {
            return Some(ex);
        }
        let si = t.seg_of[port.link][port.end.index()] as usize;
        let internal = *t.seg_internal.get(si)?;
        let d = *t.designated.get(si)?;
        let dkey = t.key[d.bridge];
        let via = step(dkey, internal, ps.cost, t.bid[b]);
        ex.designated = Some(d.port);
        ex.designated_bridge = Some(d.bridge);
        ex.designated_port_id = Some(pid(d.port));
        ex.offered_cost = dkey.total();
        ex.cost_through_port = via.total();
        // A bridge of an MSTP region other than the CIST root's: its root
        // path cost is an external cost to the region plus an internal one
        // to the CIST regional root, which are compared apart.
        ex.cost_split = match (t.kind, bs.regional_root) {
            (TreeKind::Cist, Some(rr))
                if rr != b
                    && self.shared.modes[b] == StpMode::Mstp
                    && bs.external_cost > 0
                    && bs.internal_cost > 0 =>
            {
                Some(CostSplit {
                    external: bs.external_cost,
                    internal: bs.internal_cost,
                    regional_root: rr,
                })
            }
            _ => None,
        };
        match ps.role {
            PortRole::Root | PortRole::Master => ex.decided_by = Decision::BestRootPath,
            PortRole::Designated => {
                ex.decided_by = if bs.root == b {
                    Decision::BridgeIsRoot
                } else {
                    Decision::BestOnSegment
                };
            }
            PortRole::Backup => ex.decided_by = Decision::OwnDesignatedPort,
            PortRole::Alternate => {
                let Some(rp) = bs.root_port else {
                    return Some(ex);
                };
                let rsi = t.seg_of[rp.link][rp.end.index()] as usize;
                let rd = t.designated[rsi];
                ex.root_port_designated = Some((rd.bridge, pid(rd.port)));
                let mine: (Key, u64, PortId, PortId) =
                    (via, t.bid[d.bridge], pid(d.port), pid(port));
                let theirs: (Key, u64, PortId, PortId) =
                    (t.key[b], t.bid[rd.bridge], pid(rd.port), pid(rp));
                let cost_differs = mine.0.ext != theirs.0.ext
                    || (mine.0.rr == theirs.0.rr && mine.0.int != theirs.0.int);
                // Paths through different region boundaries: the external
                // cost decides, whatever the internal costs add.
                let external = mine.0.ext != theirs.0.ext
                    && (mine.0.int != 0 || theirs.0.int != 0 || dkey.int != 0);
                if external {
                    ex.cost_scope = CostScope::External;
                    ex.offered_cost = dkey.ext;
                    ex.cost_through_port = via.ext;
                    ex.root_path_cost = theirs.0.ext;
                    ex.internal_note =
                        match (bs.regional_root, self.region_of.get(b).copied().flatten()) {
                            (Some(rr), Some(reg)) if rr != b && theirs.0.int > 0 => {
                                Some((reg, theirs.0.int))
                            }
                            _ => None,
                        };
                }
                ex.decided_by = if cost_differs {
                    Decision::RootPathCost
                } else if mine.0.rr != theirs.0.rr {
                    Decision::RegionalRoot
                } else if mine.1 != theirs.1 {
                    Decision::DesignatedBridge
                } else if mine.2 != theirs.2 {
                    Decision::DesignatedPort
                } else {
                    Decision::ReceivingPort
                };
            }
            PortRole::Disabled => {}
        }
        Some(ex)
    }
}
