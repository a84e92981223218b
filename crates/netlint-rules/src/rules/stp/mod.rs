//! Spanning tree and layer-2 loop rules, and what they share: naming
//! bridges, ports, paths and trees the way the design names them, and
//! finding the lines that set a bridge's priority.

use crate::Rule;
use netlint_analysis::stp::{TreeId, TreeKind};
use netlint_analysis::{BridgeId, Forwarding, Topology};
use netlint_model::{Design, NetworkId, Span, SwitchId};

pub mod bpdu_filter_risk;
pub(crate) mod fixes;
pub mod host_port_not_edge;
pub mod l2_loop;
mod l2_loop_off;
pub mod lag_mode_mismatch;
pub mod mstp_region_mismatch;
pub mod native_vlan_mismatch;
pub mod stp_cost_method_mismatch;
pub mod stp_mode_mismatch;
pub mod stp_root_placement;
pub mod stp_suboptimal_path;
pub mod stp_vlan_partition;
pub mod trunk_vlan_mismatch;
pub(crate) mod verify;
pub mod vpc_peer_switch_priority;

pub static RULES: &[&Rule] = &[
    &l2_loop::RULE,
    &stp_vlan_partition::RULE,
    &stp_suboptimal_path::RULE,
    &stp_root_placement::RULE,
    &mstp_region_mismatch::RULE,
    &stp_mode_mismatch::RULE,
    &stp_cost_method_mismatch::RULE,
    &vpc_peer_switch_priority::RULE,
    &host_port_not_edge::RULE,
    &native_vlan_mismatch::RULE,
    &trunk_vlan_mismatch::RULE,
    &lag_mode_mismatch::RULE,
    &bpdu_filter_risk::RULE,
];

/// "`tor-a`", or for a stack / MLAG domain "`vlt-1` (`tor-a`, `tor-b`)".
pub(crate) fn bridge_name(design: &Design, topo: &Topology, b: BridgeId) -> String {
    let br = topo.bridge(b);
    if br.members.len() == 1 {
        return format!("`{}`", br.name);
    }
    let members: Vec<String> = br
        .members
        .iter()
        .map(|s| format!("`{}`", design.switch(*s).name))
        .collect();
    format!("`{}` ({})", br.name, members.join(", "))
}

/// The member switches of a bridge, as a phrase: "`tor-a`", "`m1` and `m2`".
pub(crate) fn members_phrase(design: &Design, topo: &Topology, b: BridgeId) -> String {
    let names: Vec<String> = topo
        .bridge(b)
        .members
        .iter()
        .map(|s| format!("`{}`", design.switch(*s).name))
        .collect();
    and_list(&names)
}

pub(crate) use crate::phrases::words::{and_list, port_speed};

/// "`isl`", or "cable 2 of `par`" for one cable of a `lag = "none"` bundle.
pub(crate) fn port_name(design: &Design, topo: &Topology, port: usize) -> String {
    let p = &topo.ports[port];
    let name = &design.link(p.link).name;
    match p.cable {
        Some(c) => format!("cable {} of `{name}`", c + 1),
        None => format!("`{name}`"),
    }
}

/// "VLAN 20", "VLANs 20, 30", "untagged frames".
pub(crate) fn vlans_text(vlans: &[Option<u16>]) -> String {
    let tagged: Vec<String> = vlans.iter().flatten().map(|v| v.to_string()).collect();
    let untagged = vlans.iter().any(|v| v.is_none());
    let mut parts = Vec::new();
    match tagged.len() {
        0 => {}
        1 => parts.push(format!("VLAN {}", tagged[0])),
        _ => parts.push(format!("VLANs {}", tagged.join(", "))),
    }
    if untagged {
        parts.push("untagged frames".to_string());
    }
    parts.join(" and ")
}

/// "`csv` (VLAN 20)", "`mgmt` (untagged)".
pub(crate) fn network_text(design: &Design, net: NetworkId) -> String {
    let n = design.network(net);
    match n.vlan_id() {
        Some(v) => format!("`{}` (VLAN {v})", n.name),
        None => format!("`{}` (untagged)", n.name),
    }
}

/// The bridges a path visits, from `from`, and the path in words:
/// "`tor-a` → `core-1` → `tor-b` over `uplink-a`, `uplink-b`".
pub(crate) fn path_text(
    design: &Design,
    topo: &Topology,
    from: BridgeId,
    path: &[usize],
) -> String {
    let mut at = from;
    let mut hops = vec![format!("`{}`", topo.bridge(at).name)];
    for &p in path {
        let port = &topo.ports[p];
        at = if port.a == at { port.b } else { port.a };
        hops.push(format!("`{}`", topo.bridge(at).name));
    }
    let links: Vec<String> = path.iter().map(|p| port_name(design, topo, *p)).collect();
    if links.is_empty() {
        return hops.join(" → ");
    }
    format!("{} over {}", hops.join(" → "), links.join(", "))
}

/// The MSTP instance of a tree (`None` for the CIST and PVST trees).
pub(crate) fn tree_instance(fwd: &Forwarding, tree: TreeId) -> Option<u16> {
    match fwd.stp.tree(tree)?.kind {
        TreeKind::Msti { instance, .. } => Some(instance),
        _ => None,
    }
}

/// Which of a switch's priorities a tree uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PriorityOf {
    /// The common tree's (the CIST, an RSTP or STP tree, PVST+'s VLAN 1):
    /// the switch's `priority`, under PVST+ VLAN 1's `vlan_priority` when
    /// it has one.
    Bridge,
    /// An MSTI's `instance_priority`, else `priority`.
    Instance(u16),
    /// A PVST+ VLAN's `vlan_priority`, else `priority`.
    Vlan(u16),
}

/// The priority a tree's bridges use.
pub(crate) fn tree_priority(fwd: &Forwarding, tree: TreeId) -> PriorityOf {
    match fwd.stp.tree(tree).map(|t| t.kind) {
        Some(TreeKind::Msti { instance, .. }) => PriorityOf::Instance(instance),
        Some(TreeKind::PvstVlan(v)) => PriorityOf::Vlan(v),
        _ => PriorityOf::Bridge,
    }
}

/// The line that sets a bridge's priority for a tree (an MSTI's
/// `instance_priority` or a PVST+ VLAN's `vlan_priority`, else `priority`,
/// else the `stp` table, else the switch), on the first member switch that
/// has one, with that switch.
pub(crate) fn priority_line(
    design: &Design,
    topo: &Topology,
    bridge: BridgeId,
    of: PriorityOf,
) -> (Span, SwitchId) {
    let members = &topo.bridge(bridge).members;
    for s in members {
        let stp = &design.switch(*s).stp;
        let own = match of {
            PriorityOf::Instance(k) => stp.instance_priority.get(&k),
            PriorityOf::Vlan(v) => stp.vlan_priority.get(&v),
            PriorityOf::Bridge => stp.vlan_priority.get(&1),
        };
        if let Some(p) = own {
            return (p.span, *s);
        }
    }
    for s in members {
        if let Some(p) = &design.switch(*s).stp.priority {
            return (p.span, *s);
        }
    }
    let s = members[0];
    let sw = design.switch(s);
    (sw.stp.span.unwrap_or(sw.span), s)
}

/// A bridge's priority for a tree, as the design sets it.
pub(crate) fn priority_of(
    design: &Design,
    topo: &Topology,
    bridge: BridgeId,
    instance: Option<u16>,
) -> u32 {
    topo.bridge(bridge)
        .members
        .iter()
        .map(|s| {
            let stp = &design.switch(*s).stp;
            match instance {
                Some(k) => stp.instance_priority(k),
                None => stp.bridge_priority(),
            }
        })
        .min()
        .unwrap_or(netlint_model::DEFAULT_BRIDGE_PRIORITY)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_naturally() {
        assert_eq!(and_list(&["a".into()]), "a");
        assert_eq!(
            and_list(&["a".into(), "b".into(), "c".into()]),
            "a, b and c"
        );
        assert_eq!(vlans_text(&[Some(20), Some(30)]), "VLANs 20, 30");
        assert_eq!(vlans_text(&[Some(20)]), "VLAN 20");
        assert_eq!(vlans_text(&[None, Some(5)]), "VLAN 5 and untagged frames");
    }
}
