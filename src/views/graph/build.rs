//! [`build`]: a design and its findings into a [`Scene`].

use super::ctx::*;
use super::hosts::*;
use super::marks::*;
use super::options::*;
use super::scene::*;
use netlint_analysis::stp::{End, PortRole, TreeId, TreeKind, CIST};
use netlint_analysis::{all_pairs, Break, Fabric, Failures, NotCarried, Reach, Topology};
use netlint_model::{Design, Diagnostic, HostId, LinkKind, MtuForm, NetworkId, StpMode, SwitchId};
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
    let pairs_now: Vec<Reach> = all_pairs(design, &topo, cur);
    let pairs_before: Option<Vec<Reach>> =
        failed.as_ref().map(|_| all_pairs(design, &topo, &healthy));
    let ctx = Ctx {
        design,
        stp: cur.stp.clone(),
        opts,
        marks: Marks::new(design, diagnostics),
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
    let in_scope_host = |h: HostId| opts.scope.as_ref().is_none_or(|sc| sc.hosts.contains(&h));

    // Networks cut now, by whom.
    let mut cut_by_port: BTreeMap<usize, Vec<NetworkId>> = BTreeMap::new();
    for r in &pairs_now {
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
    let net_label = |n: NetworkId| {
        let net = design.network(n);
        format!("{} ({})", net.name, vlan_text(net.vlan_id()))
    };

    // Notes: the view, the failures, design-wide findings.
    scene.notes.push(view_note(&ctx));
    if !opts.failures.is_healthy() {
        scene.notes.push(format!(
            "after the failure of {} (spanning tree reconverged)",
            opts.failure_names.join(", ")
        ));
    }
    scene.marks = ctx.marks.on("");
    scene.marks.extend(ctx.marks.on("design"));

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
    for (p, port) in ctx.topo.ports.iter().enumerate() {
        let link = design.link(port.link);
        let state = cur.ports[p];
        let b_switches: Vec<SwitchId> = port
            .b_switches
            .iter()
            .copied()
            .filter(|s| in_scope_switch(*s))
            .collect();
        if !in_scope_switch(port.a_switch) || b_switches.is_empty() {
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
                        End::A => design.switch(port.a_switch).name.clone(),
                        End::B => bridge_display(&ctx, port.b.0, &port.b_switches),
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
                Some(End::A) => (design.switch(port.a_switch).name.clone(), role_a),
                _ => (bridge_display(&ctx, port.b.0, &port.b_switches), role_b),
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

        let a_node = &scene.switches[switch_node[&port.a_switch]];
        for (k, bs) in b_switches.iter().enumerate() {
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
                LinkKind::Ethernet => "inside one bridge",
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

    // Hosts.
    let draws: Vec<(HostId, HostDraw)> = design
        .host_ids()
        .filter(|h| in_scope_host(*h))
        .map(|h| (h, host_draw(&ctx, h)))
        .collect();
    let mut groups: Vec<(Vec<HostId>, &HostDraw)> = Vec::new();
    for (h, draw) in &draws {
        let profile = design.host(*h).profile.as_ref().map(|p| &p.value);
        let joined = if opts.hosts_all || profile.is_none() {
            None
        } else {
            groups.iter_mut().find(|(hs, d)| {
                design.host(hs[0]).profile.as_ref().map(|p| &p.value) == profile && *d == draw
            })
        };
        match joined {
            Some((hs, _)) => hs.push(*h),
            None => groups.push((vec![*h], draw)),
        }
    }
    let mut host_node_of: BTreeMap<HostId, usize> = BTreeMap::new();
    for (gi, (hs, _)) in groups.iter().enumerate() {
        for h in hs {
            host_node_of.insert(*h, gi);
        }
    }
    for (gi, (hs, draw)) in groups.iter().enumerate() {
        let id = format!("hs{gi}");
        let names: Vec<&str> = hs.iter().map(|h| design.host(*h).name.as_str()).collect();
        let mut lines = draw.lines.clone();
        if hs.len() > 1 {
            lines.insert(0, format!("{} hosts", hs.len()));
        }
        let part_id = |k: usize| format!("{id}_p{k}");
        let parts: Vec<Part> = draw
            .parts
            .iter()
            .enumerate()
            .map(|(k, p)| Part {
                id: part_id(k),
                ..p.clone()
            })
            .collect();
        let cards: Vec<Card> = draw
            .cards
            .iter()
            .enumerate()
            .map(|(k, c)| Card {
                id: format!("{id}_c{k}"),
                ..c.clone()
            })
            .collect();
        for (from, to) in &draw.inner {
            let mut e = Edge::new(part_id(*from), part_id(*to), EdgeKind::Inner);
            e.down = parts[*from].down;
            scene.edges.push(e);
        }
        for c in &draw.cables {
            let host_end = match c.part {
                Some(k) => part_id(k),
                None => id.clone(),
            };
            let mut e = match c.target {
                Target::Switch(s) => {
                    let Some(&sn) = switch_node.get(&s) else {
                        continue;
                    };
                    Edge::new(scene.switches[sn].id.clone(), host_end, EdgeKind::Host)
                }
                Target::Peer(oh, on) => {
                    let Some(&g) = host_node_of.get(&oh) else {
                        continue;
                    };
                    let other = if opts.detail_host {
                        let k = groups[g].1.nic_part[on.0];
                        format!("hs{g}_p{k}")
                    } else {
                        format!("hs{g}")
                    };
                    Edge::new(host_end, other, EdgeKind::Peer)
                }
            };
            e.label = c.label.clone();
            e.down = c.down;
            scene.edges.push(e);
        }
        scene.hosts.push(HostNode {
            id,
            title: name_run(&names),
            count: hs.len(),
            lines,
            marks: draw.marks.clone(),
            parts,
            cards,
        });
    }

    // Networks.
    for (ni, net) in design.networks.iter().enumerate() {
        let nid = NetworkId(ni);
        let mut detail = vec![net.role.value.to_string(), vlan_text(net.vlan_id())];
        if net.mtu.value.payload != 1500 {
            detail.push(format!("MTU {}", net.mtu.value.payload));
        }
        let broken = |pairs: &[Reach]| -> (usize, usize, Option<String>) {
            let mine: Vec<&Reach> = pairs.iter().filter(|r| r.network == nid).collect();
            let cut: Vec<&&Reach> = mine.iter().filter(|r| r.broken.is_some()).collect();
            let why = cut.first().map(|r| {
                format!(
                    "{} ↔ {}: {}",
                    design.host(r.a).name,
                    design.host(r.b).name,
                    ctx.describe_break(r.broken.as_ref().unwrap(), net.vlan_id())
                )
            });
            (cut.len(), mine.len(), why)
        };
        let (now, total, why) = broken(&pairs_now);
        let status = match (&pairs_before, why) {
            (_, None) => NetStatus::Ok,
            (Some(before), Some(why)) if broken(before).0 < now => NetStatus::CutByFailure(
                format!("cut by the failure ({now} of {total} host pairs): {why}"),
            ),
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
