//! The words of the spanning-tree analysis: how a tree is named, why its
//! root won, and the changes of a tree in a failure scenario.

use netlint_analysis::failure::{TreeChange, TreeEvent};
use netlint_analysis::stp::{
    CostScope, Decision, PortExplanation, PortRole, RootDecision, StpResult, TreeId, TreeKind, CIST,
};
use netlint_model::StpMode;

/// A spanning-tree result in words.
pub trait StpWords {
    /// Names a tree for messages, with the root of `bridge`'s component (or
    /// of the first component).
    fn tree_label(&self, tree: TreeId, bridge: Option<usize>) -> String;
    /// Names a tree without its root.
    fn tree_name(&self, tree: TreeId) -> String;
    /// Why the root of `bridge`'s component of `tree` won, in one sentence.
    fn root_message(&self, tree: TreeId, bridge: usize) -> Option<String>;
    /// Why a port has its role, in one sentence, naming bridges and links
    /// as the design does.
    fn port_reason(&self, ex: &PortExplanation) -> String;
}

impl StpWords for StpResult {
    fn port_reason(&self, ex: &PortExplanation) -> String {
        let link = self.link_name(ex.port.link);
        if ex.decided_by == Decision::FollowsCist {
            let inner = self
                .explain_port(CIST, ex.port)
                .map(|i| self.port_reason(&i))
                .unwrap_or_default();
            return format!(
                "{}: region boundary port, so it takes its CIST role ({inner})",
                ex.role
            );
        }
        let name = |b: Option<usize>| b.map_or("?", |b| self.bridge_name(b));
        let id =
            |p: Option<netlint_analysis::stp::PortId>| p.map(|p| p.to_string()).unwrap_or_default();
        // A bridge in another MSTP region than the CIST root's states its
        // root path cost in both parts.
        let (cost_words, sep) = match ex.cost_split {
            Some(c) => (
                format!(
                    "external root path cost {} and internal root path cost {} to its CIST regional root {}",
                    c.external,
                    c.internal,
                    self.bridge_name(c.regional_root)
                ),
                ",",
            ),
            None => (format!("root path cost {}", ex.root_path_cost), ""),
        };
        match ex.role {
            PortRole::Disabled => match self.tree(ex.tree).map(|t| t.kind) {
                Some(TreeKind::PvstVlan(v)) if self.is_link_up(ex.port.link) => {
                    format!("disabled: {link} does not carry VLAN {v}")
                }
                _ => format!("disabled: {link} is down"),
            },
            PortRole::Root | PortRole::Master => format!(
                "{}: best path to the root {}, {cost_words}{sep} through {} on {link}",
                ex.role,
                self.bridge_name(ex.root),
                name(ex.designated_bridge),
            ),
            PortRole::Designated if ex.decided_by == Decision::BridgeIsRoot => {
                format!("designated: {} is the root", self.bridge_name(ex.bridge))
            }
            PortRole::Designated => format!("designated: offers {cost_words}, the best on {link}"),
            PortRole::Backup => format!(
                "backup: port {} of the same bridge (on {}) is designated on this segment",
                id(ex.designated_port_id),
                ex.designated.map_or("?", |d| self.link_name(d.link))
            ),
            PortRole::Alternate => {
                let (Some(rp), Some((rd_bridge, rd_port))) =
                    (ex.root_port, ex.root_port_designated)
                else {
                    return "alternate".to_string();
                };
                let head = match ex.cost_scope {
                    CostScope::External => format!(
                        "alternate: receives external root path cost {} from {} on {link}; a root path through this port would have external root path cost {}",
                        ex.offered_cost,
                        name(ex.designated_bridge),
                        ex.cost_through_port
                    ),
                    CostScope::RootPath => format!(
                        "alternate: receives root path cost {} from {} on {link}; a root path through this port would cost {}",
                        ex.offered_cost,
                        name(ex.designated_bridge),
                        ex.cost_through_port
                    ),
                };
                let rp_link = self.link_name(rp.link);
                let tail = match ex.decided_by {
                    Decision::RootPathCost if ex.cost_scope == CostScope::External => {
                        let note = match (ex.internal_note, ex.regional_root) {
                            (Some((region, internal)), Some(rr)) => format!(
                                " (between regions the external root path cost decides; inside region {} {} adds internal root path cost {internal} to its CIST regional root {})",
                                self.regions()[region].name(),
                                self.bridge_name(ex.bridge),
                                self.bridge_name(rr)
                            ),
                            _ => " (between regions the external root path cost decides)"
                                .to_string(),
                        };
                        format!(
                            ", more than the {} through its root port on {rp_link}{note}",
                            ex.root_path_cost
                        )
                    }
                    Decision::RootPathCost => format!(
                        ", more than the {} through its root port on {rp_link}",
                        ex.root_path_cost
                    ),
                    Decision::RegionalRoot => format!(
                        ", while its root port on {rp_link} leads through the better CIST regional root {}",
                        name(ex.regional_root)
                    ),
                    Decision::DesignatedBridge => format!(
                        ", the same as through its root port on {rp_link}, which wins on the lower bridge id of {} over {}",
                        self.bridge_name(rd_bridge),
                        name(ex.designated_bridge)
                    ),
                    Decision::DesignatedPort => format!(
                        ", the same as through its root port on {rp_link}, which wins on the lower designated port id {rd_port} over {}",
                        id(ex.designated_port_id)
                    ),
                    _ => format!(
                        ", the same as through its root port on {rp_link}, which wins on its lower port id {} over {}",
                        id(ex.root_port_id),
                        ex.port_id
                    ),
                };
                head + &tail
            }
        }
    }

    /// Names a tree for messages, with the root of `bridge`'s component (or
    /// of the first component): "instance 0 (CIST) rooted at core-1",
    /// "instance 1 of region dc1 rooted at tor-a", "the RSTP tree rooted at
    /// core-1", "VLAN 20 (PVST+) rooted at sw-2".
    fn tree_label(&self, tree: TreeId, bridge: Option<usize>) -> String {
        let what = self.tree_name(tree);
        let Some(t) = self.trees().get(tree) else {
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
    fn tree_name(&self, tree: TreeId) -> String {
        let Some(t) = self.trees().get(tree) else {
            return format!("tree {tree}");
        };
        match t.kind {
            TreeKind::Cist => {
                let modes: Vec<StpMode> = (0..t.bridges.len())
                    .filter(|&b| t.bridges[b].is_some())
                    .map(|b| self.bridge_mode(b))
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
                    self.regions()[region].name()
                )
            }
            TreeKind::PvstVlan(v) => format!("VLAN {v} (PVST+)"),
        }
    }

    /// Why the root of `bridge`'s component of `tree` won, in one sentence:
    /// "core-1 is root on its priority 4096", "tor-a is root on the MAC
    /// tie-break among 3 bridges of priority 32768 (the default)".
    fn root_message(&self, tree: TreeId, bridge: usize) -> Option<String> {
        let info = self.trees().get(tree)?.root_info_of(bridge)?;
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

/// A tree's changes in a scenario: the tree's name (before) and one phrase
/// per change. `stp` is the healthy result the tree is numbered in (names
/// of bridges and links are the same in every scenario).
pub fn tree_change(stp: &StpResult, change: &TreeChange) -> (String, Vec<String>) {
    let name = |b: usize| stp.bridge_name(b).to_string();
    let at = |b: Option<usize>| b.map(name).unwrap_or_default();
    let changes = change
        .changes
        .iter()
        .map(|e| match *e {
            TreeEvent::BecomesRoot(r) => format!("`{}` becomes root", name(r)),
            TreeEvent::NoLongerRoot(r) => format!("`{}` is no longer root", name(r)),
            TreeEvent::RootDown(r) => format!("root `{}` is down", name(r)),
            TreeEvent::StartsForwarding { link, was, at: b } => format!(
                "link `{}` starts forwarding (was {was} at `{}`)",
                stp.link_name(link),
                at(b)
            ),
            TreeEvent::StopsForwarding { link, now, at: b } => format!(
                "link `{}` stops forwarding ({now} at `{}`)",
                stp.link_name(link),
                at(b)
            ),
        })
        .collect();
    (stp.tree_label(change.tree, change.root), changes)
}
