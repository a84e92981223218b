//! One host drawn: its node, and with `--detail host` its cards, NICs,
//! teams and virtual switches, and its cables.

use super::ctx::*;
use super::scene::*;
use netlint_analysis::NicEnd;
use netlint_model::{Element, HostId, MtuForm, NetworkId, NicIdx, SwitchId, Uplink};
use netlint_rules::phrases::words::speed_text;
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Target {
    Switch(SwitchId),
    Peer(HostId, NicIdx),
}

#[derive(Clone, Debug, PartialEq)]
pub(super) struct Cable {
    /// The NIC part (with `--detail host`), else the host node.
    pub(super) part: Option<usize>,
    pub(super) target: Target,
    pub(super) label: Vec<String>,
    pub(super) down: bool,
}

/// One host drawn without its name: hosts whose draws are equal (and who
/// share a profile) become one node.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct HostDraw {
    pub(super) lines: Vec<String>,
    pub(super) marks: Vec<Mark>,
    pub(super) parts: Vec<Part>,
    pub(super) cards: Vec<Card>,
    /// (uplink part, part over it): a member under its team, an uplink
    /// under its vSwitch.
    pub(super) inner: Vec<(usize, usize)>,
    pub(super) cables: Vec<Cable>,
    /// Part of each NIC (detail mode).
    pub(super) nic_part: Vec<usize>,
}

pub(super) fn host_draw(ctx: &Ctx, hid: HostId) -> HostDraw {
    let d = ctx.design;
    let h = d.host(hid);
    let detail = ctx.opts.detail_host;
    let failed = |n: usize| {
        ctx.opts.failures.nics.contains(&(hid, NicIdx(n)))
            || matches!(ctx.topo.nic_ends[hid.0][n], Some(NicEnd::Switch(s)) if ctx.opts.failures.switches.contains(&s))
    };
    let nets = |v: &[netlint_model::Sp<NetworkId>]| -> String {
        v.iter()
            .map(|n| d.network(n.value).name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let el = h.element();
    let mut draw = HostDraw {
        lines: Vec::new(),
        marks: Vec::new(),
        parts: Vec::new(),
        cards: Vec::new(),
        inner: Vec::new(),
        cables: Vec::new(),
        nic_part: Vec::new(),
    };
    if let Some(p) = &h.profile {
        draw.lines.push(format!("profile {}", p.value));
    }
    let nic_el = |n: &str| Element::nic(&h.name, n);
    let team_el = |n: &str| Element::team(&h.name, n);
    let vs_el = |n: &str| Element::vswitch(&h.name, n);

    if detail {
        // Cards in order of first NIC; a NIC part per NIC.
        for (ni, nic) in h.nics.iter().enumerate() {
            let mut lines = vec![speed_text(nic.known_speed())];
            if nic.mtu.value.form != MtuForm::Default {
                lines.push(format!("MTU {}", nic.mtu.value.payload));
            }
            if nic.rdma.value.enabled() {
                lines.push(format!("RDMA {}", nic.rdma.value));
            }
            if !nic.networks.is_empty() {
                lines.push(format!("→ {}", nets(&nic.networks)));
            }
            if ctx.opts.failures.nics.contains(&(hid, NicIdx(ni))) {
                lines.push("✕ FAILED".to_string());
            } else if failed(ni) {
                lines.push("✕ link down".to_string());
            }
            draw.nic_part.push(draw.parts.len());
            draw.parts.push(Part {
                id: String::new(),
                kind: PartKind::Nic,
                title: nic.name.clone(),
                lines,
                marks: ctx.marks.under(&nic_el(&nic.name), |_| false),
                down: failed(ni),
            });
            let card = &nic.card.value;
            let label = format!("card {card}");
            match draw.cards.iter_mut().find(|c| c.label == label) {
                Some(c) => c.parts.push(draw.parts.len() - 1),
                None => draw.cards.push(Card {
                    id: String::new(),
                    label,
                    parts: vec![draw.parts.len() - 1],
                }),
            }
        }
        let mut team_part = Vec::new();
        for t in &h.teams {
            let mut lines = vec![format!(
                "{} {} · {}",
                t.kind.value, t.mode.value, t.load_balancing.value
            )];
            if let Some(s) = &t.standby {
                lines.push(format!("standby {}", h.nic(s.value).name));
            }
            if !t.networks.is_empty() {
                lines.push(format!("→ {}", nets(&t.networks)));
            }
            team_part.push(draw.parts.len());
            let members: Vec<usize> = t.members.iter().map(|m| draw.nic_part[m.value.0]).collect();
            let me = draw.parts.len();
            let down = members.iter().all(|m| draw.parts[*m].down);
            draw.parts.push(Part {
                id: String::new(),
                kind: PartKind::Team,
                title: format!("team {}", t.name),
                lines,
                marks: ctx.marks.under(&team_el(&t.name), |_| false),
                down,
            });
            for m in members {
                draw.inner.push((m, me));
            }
        }
        for vs in &h.vswitches {
            let kind = vswitch_kind(h, vs);
            let mut lines = Vec::new();
            if !vs.networks.is_empty() {
                lines.push(format!("VMs: {}", nets(&vs.networks)));
            }
            for v in &vs.vnics {
                lines.push(format!(
                    "vNIC {} → {}",
                    v.name,
                    d.network(v.network.value).name
                ));
            }
            let me = draw.parts.len();
            let ups: Vec<usize> = vs
                .uplinks
                .iter()
                .map(|u| match u.value {
                    Uplink::Nic(n) => draw.nic_part[n.0],
                    Uplink::Team(t) => team_part[t.0],
                })
                .collect();
            let down = !ups.is_empty() && ups.iter().all(|u| draw.parts[*u].down);
            draw.parts.push(Part {
                id: String::new(),
                kind: PartKind::VSwitch,
                title: format!("{kind} {}", vs.name),
                lines,
                marks: ctx.marks.under(&vs_el(&vs.name), |_| false),
                down,
            });
            for u in ups {
                draw.inner.push((u, me));
            }
        }

        draw.marks = ctx.marks.under(&el, |k| {
            k.part().is_some_and(|p| *p != netlint_model::Part::Whole)
        });
        for (ni, end) in ctx.topo.nic_ends[hid.0].iter().enumerate() {
            let target = match end {
                Some(NicEnd::Switch(s)) => Target::Switch(*s),
                Some(NicEnd::Peer(oh, on)) if (hid.0, ni) < (oh.0, on.0) => Target::Peer(*oh, *on),
                _ => continue,
            };
            let nic = &h.nics[ni];
            let mut label = Vec::new();
            if let Some(p) = &nic.port {
                label.push(p.value.clone());
            }
            draw.cables.push(Cable {
                part: Some(draw.nic_part[ni]),
                target,
                label,
                down: failed(ni),
            });
        }
    } else {
        for nic in &h.nics {
            if !nic.networks.is_empty() {
                draw.lines
                    .push(format!("{} → {}", nic.name, nets(&nic.networks)));
            }
        }
        for t in &h.teams {
            let members: Vec<String> = t
                .members
                .iter()
                .map(|m| {
                    let n = &h.nic(m.value).name;
                    if t.standby.as_ref().is_some_and(|s| s.value == m.value) {
                        format!("{n} (standby)")
                    } else {
                        n.clone()
                    }
                })
                .collect();
            let mut s = format!("team {} {}: {}", t.name, t.mode.value, members.join(" + "));
            if !t.networks.is_empty() {
                s.push_str(&format!(" → {}", nets(&t.networks)));
            }
            draw.lines.push(s);
        }
        for vs in &h.vswitches {
            let ups: Vec<&str> = vs.uplinks.iter().map(|u| h.uplink_name(u.value)).collect();
            let mut s = format!("{} {} on {}", vswitch_kind(h, vs), vs.name, ups.join(" + "));
            let mut carried = Vec::new();
            if !vs.networks.is_empty() {
                carried.push(nets(&vs.networks));
            }
            if !vs.vnics.is_empty() {
                let v: Vec<&str> = vs
                    .vnics
                    .iter()
                    .map(|v| d.network(v.network.value).name.as_str())
                    .collect();
                carried.push(format!("vNICs {}", v.join(", ")));
            }
            if !carried.is_empty() {
                s.push_str(&format!(" → {}", carried.join(" · ")));
            }
            draw.lines.push(s);
        }
        for (ni, nic) in h.nics.iter().enumerate() {
            if ctx.opts.failures.nics.contains(&(hid, NicIdx(ni))) {
                draw.lines.push(format!("✕ {} failed", nic.name));
            }
        }
        draw.marks = ctx.marks.under(&el, |_| false);
        // One edge per switch, listing the NICs cabled to it.
        let mut per_target: Vec<(Target, Vec<usize>)> = Vec::new();
        for (ni, end) in ctx.topo.nic_ends[hid.0].iter().enumerate() {
            let target = match end {
                Some(NicEnd::Switch(s)) => Target::Switch(*s),
                Some(NicEnd::Peer(oh, on)) if (hid.0, ni) < (oh.0, on.0) => Target::Peer(*oh, *on),
                _ => continue,
            };
            match per_target.iter_mut().find(|(t, _)| *t == target) {
                Some((_, v)) => v.push(ni),
                None => per_target.push((target, vec![ni])),
            }
        }
        for (target, nics) in per_target {
            let label = nics
                .iter()
                .map(|ni| {
                    let n = &h.nics[*ni];
                    let mut s = format!("{} {}", n.name, speed_text(n.known_speed()));
                    if failed(*ni) {
                        s.push_str(" ✕");
                    }
                    s
                })
                .collect();
            draw.cables.push(Cable {
                part: None,
                target,
                label,
                down: nics.iter().all(|n| failed(*n)),
            });
        }
    }
    draw
}

pub(super) fn vswitch_kind(h: &netlint_model::Host, vs: &netlint_model::VSwitch) -> &'static str {
    if h.os.value.is_vsphere() {
        match vs.kind.as_ref().map(|k| k.value) {
            Some(netlint_model::VSwitchKind::Vds) => "vDS",
            _ => "vSS",
        }
    } else if vs.is_set() {
        "SET"
    } else {
        "vSwitch"
    }
}

/// Adds the hosts in scope to `scene`: one node per host, or per group of
/// hosts of one profile drawn alike, with their cables to `switch_node`.
pub(super) fn host_nodes(ctx: &Ctx, switch_node: &BTreeMap<SwitchId, usize>, scene: &mut Scene) {
    let (design, opts) = (ctx.design, ctx.opts);
    let in_scope_host = |h: HostId| opts.scope.as_ref().is_none_or(|sc| sc.hosts.contains(&h));
    let draws: Vec<(HostId, HostDraw)> = design
        .host_ids()
        .filter(|h| in_scope_host(*h))
        .map(|h| (h, host_draw(ctx, h)))
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
}
