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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stp::{BridgeInput, LinkInput};
    use netlint_model::{StpMode, VlanSet};

    #[test]
    fn vlans_with_the_same_inputs_share_a_key() {
        let mut a = BridgeInput::new("a", StpMode::RapidPvst);
        a.vlan_priority = [(10, 4096), (30, 4096), (20, 8192)].into_iter().collect();
        let mut b = BridgeInput::new("b", StpMode::RapidPvst);
        b.stp_off_vlans = Some([40].into_iter().collect::<VlanSet>());
        let c = BridgeInput::new("c", StpMode::RapidPvst);
        let mut ab = LinkInput::new("ab", 0, 1, 10_000);
        ab.vlans = Some((1..=100).filter(|&v| v != 50).collect());
        let mut bc = LinkInput::new("bc", 1, 2, 10_000);
        bc.instance_cost = [(60, 7)].into_iter().collect();
        let ca = LinkInput::new("ca", 2, 0, 10_000);
        let engine = StpEngine::new(vec![a, b, c], vec![ab, bc, ca])
            .with_vlans([10, 20, 30, 40, 50, 60, 70]);
        let res = engine.compute_healthy();
        let inputs = TreeInputs::new(&engine);
        let key = |v| inputs.key(&engine, &res, v);
        // 10 and 30: the same priority on `a`, nothing else differs.
        assert_eq!(key(10), key(30));
        // Each of these differs in one input: a's priority (20), b's VLAN
        // off (40), `ab` not carrying it (50), `bc`'s cost (60); 70 has
        // none of them.
        let others = [key(20), key(40), key(50), key(60), key(70)];
        for (i, k) in others.iter().enumerate() {
            assert_ne!(*k, key(10), "{i}");
            for (j, l) in others.iter().enumerate().skip(i + 1) {
                assert_ne!(k, l, "{i} {j}");
            }
        }
        // The shared tree is a copy under its own VLAN.
        let (t10, t30) = (res.pvst_vlan(10).unwrap(), res.pvst_vlan(30).unwrap());
        assert_ne!(t10, t30);
        assert_eq!(
            res.tree(t30).unwrap().kind,
            super::super::TreeKind::PvstVlan(30)
        );
        assert_eq!(res.tree(t10).unwrap().ports, res.tree(t30).unwrap().ports);
    }
}
