//! Sharing PVST+ VLAN trees: two VLANs whose trees are built from the same
//! inputs (every bridge's priority, which bridges run spanning tree in the
//! VLAN, which links carry it and at what cost, and which tree decides it
//! on each MSTP region) come out alike, so the engine solves one and copies
//! it for the other. A distribution pair that splits its roots over two
//! groups of VLANs (`vlan_priority`) thus costs two solves, not one per
//! VLAN.

use super::{StpEngine, StpResult};

/// What a PVST+ VLAN tree depends on beyond the scenario, written sparsely:
/// only the bridges and links that say something per VLAN appear.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct TreeKey {
    /// (bridge, priority) for bridges with a per-VLAN priority for this VLAN.
    priority: Vec<(u32, u32)>,
    /// Bridges with spanning tree off in this VLAN.
    off: Vec<u32>,
    /// Links with an allowed list that leaves this VLAN out.
    not_carried: Vec<u32>,
    /// (link, cost) for links with a per-VLAN cost for this VLAN.
    cost: Vec<(u32, u32)>,
    /// The MSTI of the VLAN in each MSTP region of the scenario.
    instances: Vec<u16>,
}

/// The bridges and links whose part in a PVST tree can differ by VLAN.
pub(super) struct TreeInputs {
    per_vlan_priority: Vec<usize>,
    per_vlan_off: Vec<usize>,
    allowed_lists: Vec<usize>,
    per_vlan_cost: Vec<usize>,
}

impl TreeInputs {
    pub(super) fn new(engine: &StpEngine) -> Self {
        let bridges = &engine.bridges;
        let links = &engine.links;
        TreeInputs {
            per_vlan_priority: (0..bridges.len())
                .filter(|&b| bridges[b].is_pvst() && !bridges[b].vlan_priority.is_empty())
                .collect(),
            per_vlan_off: (0..bridges.len())
                .filter(|&b| bridges[b].is_pvst() && bridges[b].stp_off_vlans.is_some())
                .collect(),
            allowed_lists: (0..links.len())
                .filter(|&l| links[l].vlans.is_some())
                .collect(),
            per_vlan_cost: (0..links.len())
                .filter(|&l| !links[l].instance_cost.is_empty())
                .collect(),
        }
    }

    /// The key of VLAN `v`'s tree.
    pub(super) fn key(&self, engine: &StpEngine, res: &StpResult, v: u16) -> TreeKey {
        let bridges = &engine.bridges;
        let links = &engine.links;
        TreeKey {
            priority: self
                .per_vlan_priority
                .iter()
                .filter_map(|&b| bridges[b].vlan_priority.get(&v).map(|&p| (b as u32, p)))
                .collect(),
            off: self
                .per_vlan_off
                .iter()
                .filter(|&&b| bridges[b].stp_off(v))
                .map(|&b| b as u32)
                .collect(),
            not_carried: self
                .allowed_lists
                .iter()
                .filter(|&&l| !links[l].allows(v))
                .map(|&l| l as u32)
                .collect(),
            cost: self
                .per_vlan_cost
                .iter()
                .filter_map(|&l| links[l].instance_cost.get(&v).map(|&c| (l as u32, c)))
                .collect(),
            instances: res.regions.iter().map(|r| r.instance_of(v)).collect(),
        }
    }
}
