//! The format v2 spanning-tree settings of a bridge (a switch, or a stack
//! or MLAG domain collapsed into one): its path-cost method, PVST+
//! per-VLAN priorities and the VLANs with spanning tree off.

use crate::stp::{BridgeInput, CostMethod};
use netlint_model::{PathCost, Switch};
use std::collections::BTreeMap;

/// Fills `input` from the bridge's member switches (design order). The
/// members of a stack or domain are configured alike; the first decides
/// the cost method and the VLANs with spanning tree off (as it decides the
/// mode), and per VLAN the best priority of any member is the one the
/// bridge presents (as for `priority`).
pub(super) fn apply(input: &mut BridgeInput, members: &[&Switch]) {
    let Some(first) = members.first() else {
        return;
    };
    input.cost_method = Some(match first.cost_method() {
        PathCost::Short => CostMethod::Short,
        PathCost::Long => CostMethod::Long,
    });
    let mut vlan_priority: BTreeMap<u16, u32> = BTreeMap::new();
    for m in members {
        for &v in m.stp.vlan_priority.keys() {
            let best = members
                .iter()
                .map(|x| x.stp.vlan_priority(v))
                .min()
                .unwrap_or(input.priority);
            vlan_priority.insert(v, best);
        }
    }
    input.vlan_priority = vlan_priority;
    input.stp_off_vlans = first.stp.disabled_vlans.as_ref().map(|s| s.value);
}
