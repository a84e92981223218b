//! The inter-switch links of a scene: one edge per spanning-tree port,
//! with its speed, members, VLANs, port roles and what a failure cut.

use super::ctx::*;
use super::options::*;
use super::scene::*;
use netlint_analysis::stp::{End, PortRole, TreeId, CIST};
use netlint_analysis::Forwarding;
use netlint_model::{NetworkId, SwitchId};
use std::collections::BTreeMap;

/// Adds one edge per spanning-tree port of `ctx` to `scene`, in the state
/// `cur`; `cut_by_port` names the networks each port cuts, `switch_node`
/// each drawn switch's node.
pub(super) fn trunks(
    ctx: &Ctx,
    cur: &Forwarding,
    cut_by_port: &BTreeMap<usize, Vec<NetworkId>>,
    switch_node: &BTreeMap<SwitchId, usize>,
    scene: &mut Scene,
) {
    let (design, opts) = (ctx.design, ctx.opts);
    let in_scope_switch = |s: SwitchId| {
        opts.scope
            .as_ref()
            .is_none_or(|sc| sc.switches.contains(&s))
    };
    let net_label = |n: NetworkId| {
        let net = design.network(n);
        format!("{} ({})", net.name, vlan_text(net.vlan_id()))
    };
    let view_vlans = ctx.view_vlans();
    for (p, port) in ctx.topo.ports.iter().enumerate() {
        let link = design.link(port.link);
        let state = cur.ports[p];
        let in_scope = |ss: &[SwitchId]| -> Vec<SwitchId> {
            ss.iter().copied().filter(|s| in_scope_switch(*s)).collect()
        };
        let (a_switches, b_switches) = (in_scope(&port.a_switches), in_scope(&port.b_switches));
        if a_switches.is_empty() || b_switches.is_empty() {
            continue;
        }
        // Roles at each end in a single-tree view.
        let role_a = ctx.end_tree(port.a.0).and_then(|t| ctx.role(t, p, End::A));
        let role_b = ctx.end_tree(port.b.0).and_then(|t| ctx.role(t, p, End::B));
        let single_tree = opts.view != View::AllTrees || ctx.stp.trees().len() == 1;

        // Which of the view's VLANs the port carries and forwards.
        let mut carried = Vec::new();
        let mut blocked_vlans: Vec<Option<u16>> = Vec::new();
        for v in &view_vlans {
            if let Some(vv) = cur.vlan(*v) {
                if vv.not_carried[p].is_none() {
                    carried.push(*v);
                    if !vv.forwarding[p] {
                        blocked_vlans.push(*v);
                    }
                }
            }
        }
        let mut block = Block::None;
        let mut blocked_end: Option<End> = None;
        let mut block_lines = Vec::new();
        if state.up {
            if single_tree {
                let ends = [(End::A, role_a), (End::B, role_b)];
                if let Some((e, _)) = ends.iter().find(|(_, r)| r.is_some_and(blocks)) {
                    block = Block::Full;
                    blocked_end = Some(*e);
                }
            } else if !blocked_vlans.is_empty() {
                block = if blocked_vlans.len() == carried.len() {
                    Block::Full
                } else {
                    Block::Partial
                };
                // Which end blocks, in which tree, for which VLANs.
                let mut by_end_tree: BTreeMap<(End, TreeId), Vec<Option<u16>>> = BTreeMap::new();
                for v in &blocked_vlans {
                    for (e, b) in [(End::A, port.a.0), (End::B, port.b.0)] {
                        if let Some(t) = ctx.stp.governing_tree(b, *v) {
                            if ctx.role(t, p, e).is_some_and(blocks) {
                                by_end_tree.entry((e, t)).or_default().push(*v);
                            }
                        }
                    }
                }
                let forwarded: Vec<Option<u16>> = carried
                    .iter()
                    .filter(|v| !blocked_vlans.contains(v))
                    .copied()
                    .collect();
                if !forwarded.is_empty() {
                    block_lines.push(format!("forwards {}", vlan_list(&forwarded)));
                }
                for ((e, t), vs) in &by_end_tree {
                    blocked_end.get_or_insert(*e);
                    let at = match e {
                        End::A => bridge_display(ctx, port.a.0, &port.a_switches),
                        End::B => bridge_display(ctx, port.b.0, &port.b_switches),
                    };
                    let tree = ctx.tree_short(*t);
                    let tree = if tree.is_empty() {
                        String::new()
                    } else {
                        format!(", {tree}")
                    };
                    block_lines.push(format!(
                        "blocks {} at {at} ({}{tree})",
                        vlan_list(vs),
                        role_abbrev(ctx.role(*t, p, *e).unwrap_or(PortRole::Alternate))
                    ));
                }
            } else if carried.is_empty() {
                // Carries none of the design's VLANs: the CIST roles still tell.
                let ca = ctx.role(CIST, p, End::A);
                let cb = ctx.role(CIST, p, End::B);
                if let Some((e, _)) = [(End::A, ca), (End::B, cb)]
                    .iter()
                    .find(|(_, r)| r.is_some_and(blocks))
                {
                    block = Block::Full;
                    blocked_end = Some(*e);
                }
            }
        }
        if single_tree && block == Block::Full {
            let (at, role) = match blocked_end {
                Some(End::A) => (bridge_display(ctx, port.a.0, &port.a_switches), role_a),
                _ => (bridge_display(ctx, port.b.0, &port.b_switches), role_b),
            };
            block_lines.push(format!(
                "BLOCKED at {at} ({})",
                role.map(role_abbrev).unwrap_or("Altn")
            ));
        }

        let mut label = vec![ctx.port_name(p)];
        label.push(link_speed_text(link, port.members, port.cable.is_some()));
        label.push(match &link.vlans {
            Some(v) => format!(
                "VLAN{} {}",
                if v.value.len() == 1 { "" } else { "s" },
                v.value
            ),
            None => "all VLANs".to_string(),
        });
        if state.up && state.members < port.members {
            label.push(format!(
                "✕ {} of {} cables down",
                port.members - state.members,
                port.members
            ));
        }
        if !state.up {
            label.push("✕ DOWN".to_string());
        }
        label.extend(block_lines);
        let cuts: Vec<String> = cut_by_port
            .get(&p)
            .map(|v| v.iter().map(|n| net_label(*n)).collect())
            .unwrap_or_default();
        if !cuts.is_empty() {
            label.push(format!("cuts {}", cuts.join(", ")));
        }
        if state.up && carried.is_empty() && !view_vlans.is_empty() && opts.view != View::AllTrees {
            label.push(format!("carries no {}", vlan_list(&view_vlans)));
        }
        let marks = ctx.marks.on(&link.element());

        // One edge per cable end pair: from the `a` switch to each `b`
        // switch, and for a double-sided LAG from each `a` switch.
        let pairs = a_switches
            .iter()
            .flat_map(|a| b_switches.iter().map(move |b| (a, b)));
        for (k, (as_, bs)) in pairs.enumerate() {
            let a_node = &scene.switches[switch_node[as_]];
            let b_node = &scene.switches[switch_node[bs]];
            // Higher tiers above: the upper end is the edge's tail.
            let swap = b_node.tier > a_node.tier;
            let (from, to) = if swap {
                (b_node.id.clone(), a_node.id.clone())
            } else {
                (a_node.id.clone(), b_node.id.clone())
            };
            let mut e = Edge::new(from, to, EdgeKind::Trunk);
            e.same_rank = a_node.tier == b_node.tier;
            e.label = if k == 0 {
                label.clone()
            } else {
                vec![format!("{} (same LAG)", ctx.port_name(p))]
            };
            let (ra, rb) = if single_tree && state.up {
                (role_a.map(role_abbrev), role_b.map(role_abbrev))
            } else {
                (None, None)
            };
            let (rf, rt) = if swap { (rb, ra) } else { (ra, rb) };
            e.from_role = rf.map(str::to_string);
            e.to_role = rt.map(str::to_string);
            e.block = block;
            e.blocked_at = blocked_end.map(|be| match (be, swap) {
                (End::A, false) | (End::B, true) => Side::From,
                _ => Side::To,
            });
            e.idle = state.up && carried.is_empty() && opts.view != View::AllTrees;
            e.down = !state.up;
            e.cuts = cuts.clone();
            e.marks = marks.clone();
            scene.edges.push(e);
        }
    }
}
