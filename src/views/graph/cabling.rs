//! Routed links and cables to devices with `managed = false`: drawn as
//! cabling (dashed), labelled with what they are, never with spanning-tree
//! roles or VLANs (they carry none of the fabric's).

use super::ctx::*;
use super::options::*;
use super::scene::*;
use netlint_model::{LinkKind, SwitchId};
use std::collections::BTreeMap;

pub(super) fn edges(
    ctx: &Ctx,
    opts: &GraphOptions,
    switch_node: &BTreeMap<SwitchId, usize>,
    scene: &mut Scene,
) {
    let design = ctx.design;
    for li in &ctx.topo.cabling_links {
        let link = design.link(*li);
        let what = if link.kind.value == LinkKind::Routed {
            "routed".to_string()
        } else {
            let unmanaged: Vec<&str> = link
                .ends()
                .map(|s| design.switch(s))
                .filter(|s| !s.is_managed())
                .map(|s| s.name.as_str())
                .collect();
            format!("to unmanaged {}", unmanaged.join(", "))
        };
        let lost = opts
            .failures
            .cables
            .range((*li, 0)..=(*li, u32::MAX))
            .count() as u32;
        let pairs = link
            .a_ends()
            .flat_map(|a| link.b.iter().map(move |b| (a.value, b.value)));
        for (k, (a, b)) in pairs.enumerate() {
            let (Some(&na), Some(&nb)) = (switch_node.get(&a), switch_node.get(&b)) else {
                continue;
            };
            let (a_node, b_node) = (&scene.switches[na], &scene.switches[nb]);
            let swap = b_node.tier > a_node.tier;
            let (from, to) = if swap {
                (b_node, a_node)
            } else {
                (a_node, b_node)
            };
            let mut e = Edge::new(from.id.clone(), to.id.clone(), EdgeKind::Cabling);
            e.same_rank = a_node.tier == b_node.tier;
            e.down = opts.failures.switches.contains(&a)
                || opts.failures.switches.contains(&b)
                || lost >= link.members.value;
            e.label = if k == 0 {
                vec![
                    link.name.clone(),
                    format!(
                        "{what} · {}",
                        link_speed_text(link, link.members.value, false)
                    ),
                ]
            } else {
                vec![format!("{} (same LAG)", link.name)]
            };
            if e.down {
                e.label.push("✕ DOWN".to_string());
            }
            e.marks = ctx.marks.on(&link.element());
            scene.edges.push(e);
        }
    }
}
