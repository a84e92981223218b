//! [`build`]: a design and its findings into a [`Scene`].

use super::ctx::*;
use super::hosts::host_nodes;
use super::links::trunks;
use super::marks::*;
use super::options::*;
use super::scene::*;
use netlint_analysis::stp::{TreeId, TreeKind};
use netlint_analysis::{Break, Fabric, Failures, NotCarried, Reachability, Topology, Which};
use netlint_model::{Design, Diagnostic, Element, LinkKind, MtuForm, NetworkId, StpMode, SwitchId};
use std::collections::BTreeMap;

/// Builds the picture of `design` with its `diagnostics` (findings shown on
/// their elements) as `opts` asks.
pub fn build(
    design: &Design,
    diagnostics: &[Diagnostic],
    opts: &GraphOptions,
) -> Result<Scene, String> {
    let topo = Topology::build(design);
    let fabric = Fabric::new(design, &topo);
    let healthy = fabric.forwarding(design, &topo, &Failures::default());
    let failed =
        (!opts.failures.is_healthy()).then(|| fabric.forwarding(design, &topo, &opts.failures));
    let cur = failed.as_ref().unwrap_or(&healthy);
    // Host pairs by class pairs: counted and explained per class pair.
    let pairs_now = Reachability::new(design, &topo, cur);
    let pairs_before: Option<Reachability> = failed
        .as_ref()
        .map(|_| Reachability::new(design, &topo, &healthy));
    let ctx = Ctx {
        design,
        stp: (*cur.stp).clone(),
        opts,
        marks: Marks::new(diagnostics),
        has_mstp: design
            .switches
            .iter()
            .any(|s| s.stp.mode.value == StpMode::Mstp),
        topo,
    };
    if let View::Instance(n) = opts.view {
        if n > 0
            && !ctx
                .stp
                .trees()
                .iter()
                .any(|t| matches!(t.kind, TreeKind::Msti { instance, .. } if instance == n))
        {
            let mut have: Vec<u16> = vec![0];
            for t in ctx.stp.trees() {
                if let TreeKind::Msti { instance, .. } = t.kind {
                    have.push(instance);
                }
            }
            have.sort();
            have.dedup();
            let list: Vec<String> = have.iter().map(|i| i.to_string()).collect();
            return Err(format!(
                "the design has no MSTP instance {n} (instances: {})",
                list.join(", ")
            ));
        }
    }

    let mut scene = Scene {
        title: design.name.value.clone(),
        ..Scene::default()
    };
    let in_scope_switch = |s: SwitchId| {
        opts.scope
            .as_ref()
            .is_none_or(|sc| sc.switches.contains(&s))
    };

    // Networks cut now, by whom.
    // Only a block, or a port down, is drawn on a link: a block is possible
    // only on a VLAN whose carried ports join what its forwarding ports
    // leave apart, or that splits an MLAG domain (which a cut at a port
    // down needs too), so only the broken class pairs of such groups are
    // walked.
    let mut cut_by_port: BTreeMap<usize, Vec<NetworkId>> = BTreeMap::new();
    let mut may_block: BTreeMap<Option<u16>, bool> = BTreeMap::new();
    for g in pairs_now.groups() {
        let blocks = g.vlans().iter().any(|v| {
            *may_block
                .entry(*v)
                .or_insert_with(|| cur.vlan(*v).is_some_and(|view| view.may_block()))
        });
        if !blocks {
            continue;
        }
        for cp in g.class_pairs(Which::Broken) {
            let r = cp.walk(design, &ctx.topo, cur);
            let ports: Vec<usize> = match &r.broken {
                Some(Break::Blocked { ports, .. }) => ports.clone(),
                Some(Break::NotCarried {
                    port,
                    why: NotCarried::Down,
                }) => vec![*port],
                _ => continue,
            };
            for p in ports {
                let v = cut_by_port.entry(p).or_default();
                if !v.contains(&r.network) {
                    v.push(r.network);
                }
            }
        }
    }

    // Notes: the view, the failures, design-wide findings.
    scene.notes.push(view_note(&ctx));
    if !opts.failures.is_healthy() {
        scene.notes.push(format!(
            "after the failure of {} (spanning tree reconverged)",
            opts.failure_names.join(", ")
        ));
    }
    scene.marks = ctx.marks.on(&Element::Design);

    // Roots to star.
    let mut roots: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    let shown_trees: Vec<TreeId> = match opts.view {
        View::AllTrees => (0..ctx.stp.trees().len()).collect(),
        _ => {
            let mut v: Vec<TreeId> = (0..ctx.topo.bridges.len())
                .filter_map(|b| ctx.end_tree(b))
                .collect();
            v.sort();
            v.dedup();
            v
        }
    };
    for &t in &shown_trees {
        let tree = &ctx.stp.trees()[t];
        for r in &tree.roots {
            if r.bridges.len() < 2 {
                continue;
            }
            let short = ctx.tree_short(t);
            let entry = roots.entry(r.root).or_default();
            if !entry.contains(&short) {
                entry.push(short);
            }
        }
    }

    // Switches, grouped by bridge.
    let mut switch_node: BTreeMap<SwitchId, usize> = BTreeMap::new();
    for (bi, bridge) in ctx.topo.bridges.iter().enumerate() {
        let members: Vec<SwitchId> = bridge
            .members
            .iter()
            .copied()
            .filter(|s| in_scope_switch(*s))
            .collect();
        if members.is_empty() {
            continue;
        }
        let mut idx = Vec::new();
        for s in &members {
            let sw = design.switch(*s);
            let mut lines = Vec::new();
            if let Some(m) = &sw.model {
                lines.push(m.value.clone());
            }
            lines.push(stp_line(sw));
            if let Some(v) = &sw.vlans {
                lines.push(format!(
                    "VLAN{} {}",
                    if v.value.len() == 1 { "" } else { "s" },
                    v.value
                ));
            }
            if sw.mtu.value.form != MtuForm::Default {
                lines.push(sw.mtu.value.describe());
            }
            let root_text = roots.get(&bi).map(|names| {
                let named: Vec<&str> = names
                    .iter()
                    .filter(|n| !n.is_empty())
                    .map(|n| n.as_str())
                    .collect();
                if named.is_empty() {
                    "★ root".to_string()
                } else {
                    format!("★ root of {}", named.join(", "))
                }
            });
            // A bridge of several switches is root as a whole: star its first member.
            let roots_here = if Some(*s) == members.first().copied() {
                root_text.into_iter().collect()
            } else {
                Vec::new()
            };
            switch_node.insert(*s, scene.switches.len());
            idx.push(scene.switches.len());
            scene.switches.push(SwitchNode {
                id: format!("sw{}", s.0),
                name: sw.name.clone(),
                lines,
                tier: sw.tier.value,
                roots: roots_here,
                down: opts.failures.switches.contains(s),
                marks: ctx.marks.on(&sw.element()),
            });
        }
        if bridge.members.len() > 1 {
            let kind = match bridge.kind {
                netlint_analysis::BridgeKind::Stack => "stack",
                _ => "MLAG",
            };
            scene.groups.push(Group {
                id: format!("grp{bi}"),
                label: format!("{kind} {}", bridge.name),
                members: idx,
            });
        }
    }

    // Inter-switch links: one edge per spanning-tree port.
    let view_vlans = ctx.view_vlans();
    trunks(&ctx, cur, &cut_by_port, &switch_node, &mut scene);

    // Stacking cables and peer-links.
    for li in &ctx.topo.internal_links {
        let link = design.link(*li);
        for b in &link.b {
            let (a, b) = (link.a.value, b.value);
            if !in_scope_switch(a) || !in_scope_switch(b) {
                continue;
            }
            let mut e = Edge::new(
                scene.switches[switch_node[&a]].id.clone(),
                scene.switches[switch_node[&b]].id.clone(),
                EdgeKind::Internal,
            );
            e.same_rank = true;
            let lost = opts
                .failures
                .cables
                .range((*li, 0)..=(*li, u32::MAX))
                .count() as u32;
            e.down = opts.failures.switches.contains(&a)
                || opts.failures.switches.contains(&b)
                || lost >= link.members.value;
            let kind = match link.kind.value {
                LinkKind::Stack => "stack cable",
                LinkKind::PeerLink => "peer-link",
                LinkKind::Ethernet | LinkKind::Routed => "inside one bridge",
            };
            e.label = vec![
                link.name.clone(),
                format!(
                    "{kind} · {}",
                    link_speed_text(link, link.members.value, false)
                ),
            ];
            if e.down {
                e.label.push("✕ DOWN".to_string());
            }
            e.marks = ctx.marks.on(&link.element());
            scene.edges.push(e);
        }
    }

    // Routed links and cables to unmanaged devices.
    super::cabling::edges(&ctx, opts, &switch_node, &mut scene);

    // Hosts.
    host_nodes(&ctx, &switch_node, &mut scene);
    super::targets::target_nodes(&ctx, &switch_node, &mut scene);

    // Networks.
    for (ni, net) in design.networks.iter().enumerate() {
        let nid = NetworkId(ni);
        let mut detail = vec![net.role.value.to_string(), vlan_text(net.vlan_id())];
        if net.mtu.value.payload != 1500 {
            detail.push(format!("MTU {}", net.mtu.value.payload));
        }
        // Counted bucket by bucket; only the first broken pair is walked.
        let (now, total) = pairs_now.broken_count(nid);
        let why = pairs_now.first_broken(nid).map(|cp| {
            let r = cp.reach(&cp.walk(design, &ctx.topo, cur));
            format!(
                "{} ↔ {}: {}",
                design.host(r.a).name,
                design.host(r.b).name,
                ctx.describe_break(r.broken.as_ref().unwrap(), net.vlan_id())
            )
        });
        let status = match (&pairs_before, why) {
            (_, None) => NetStatus::Ok,
            (Some(before), Some(why)) if before.broken_count(nid).0 < now => {
                NetStatus::CutByFailure(format!(
                    "cut by the failure ({now} of {total} host pairs): {why}"
                ))
            }
            (_, Some(why)) => NetStatus::Cut(format!("cut ({now} of {total} host pairs): {why}")),
        };
        let selected = match opts.view {
            View::AllTrees => false,
            View::Network(n) => n == nid,
            View::Instance(_) => view_vlans.contains(&net.vlan_id()),
        };
        let marks = ctx.marks.on(&net.element());
        if let Some(sc) = &opts.scope {
            if status == NetStatus::Ok && marks.is_empty() && !sc.networks.contains(&nid) {
                continue;
            }
        }
        scene.networks.push(NetworkRow {
            id: format!("net{ni}"),
            name: net.name.clone(),
            detail: detail.join(" · "),
            status,
            selected,
            marks,
        });
    }
    Ok(scene)
}
