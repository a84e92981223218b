//! What a hover shows: the words of the analyses' facts about the element
//! under the cursor (spanning-tree roles, what a link carries, bandwidth
//! figures, a host's profile and overrides), or a rule's summary and fix.

use super::analysis::Analysis;
use super::index::Target;
use crate::views::topology::Domain;
use netlint_analysis::bandwidth::{ClassModel, Port};
use netlint_model::{Design, Host, HostId, LinkId, NicIdx, RuleMeta, SwitchId, Uplink, Via};
use netlint_rules::phrases::bandwidth::{class_label, figure, port_name};
use netlint_rules::{input_rules, rule_by_id};
use std::fmt::Write as _;

/// The Markdown of the hover at `offset`, and the span it is about.
pub fn hover(a: &Analysis, offset: usize) -> Option<(String, netlint_model::Span)> {
    if let Some(r) = a.index.ref_at(offset) {
        return Some((element(a, r.target)?, r.span));
    }
    if let Some((id, span)) = word_at(&a.file.text, offset) {
        if let Some(meta) = rule_meta(id) {
            return Some((rule(&meta), span));
        }
    }
    let d = a.index.def_at(offset)?;
    let mut text = element(a, d.target)?;
    // A profile's line defines the part for each host built from it.
    let shared = a.index.defs.iter().filter(|x| x.span == d.span).count();
    if shared > 1 {
        let _ = write!(
            text,
            "\n\n(A profile's line: shown for the first of the {shared} hosts built from it.)"
        );
    }
    Some((text, d.span))
}

/// The rule-id-like word (letters, digits, `-`, `_`) at `offset`.
pub fn word_at(text: &str, offset: usize) -> Option<(&str, netlint_model::Span)> {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return None;
    }
    let start = text[..offset]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_word(*c))
        .last()
        .map_or(offset, |(i, _)| i);
    let end = text[offset..]
        .char_indices()
        .find(|(_, c)| !is_word(*c))
        .map_or(text.len(), |(i, _)| offset + i);
    (start < end).then(|| (&text[start..end], netlint_model::Span::new(start, end)))
}

pub fn rule_meta(id: &str) -> Option<RuleMeta> {
    rule_by_id(id)
        .map(|r| r.meta)
        .or_else(|| input_rules().into_iter().find(|m| m.id == id))
}

/// A section of a rule page (`## How to fix`), without its heading.
fn page_section<'a>(doc: &'a str, heading: &str) -> Option<&'a str> {
    let start = doc.find(&format!("\n## {heading}\n"))? + heading.len() + 5;
    let rest = &doc[start..];
    let end = rest.find("\n## ").unwrap_or(rest.len());
    Some(rest[..end].trim())
}

fn rule(meta: &RuleMeta) -> String {
    let mut s = format!(
        "**{}** ({}, {} by default)\n\n{}\n",
        meta.id, meta.category, meta.default_severity, meta.summary
    );
    if let Some(fix) = page_section(meta.doc, "How to fix") {
        let _ = write!(s, "\n**How to fix**\n\n{fix}\n");
    }
    if let Some(url) = crate::render::rule_url(&meta.id) {
        let _ = write!(s, "\n[The rule's page]({url})\n");
    }
    s
}

fn element(a: &Analysis, t: Target) -> Option<String> {
    let d = a.design.as_deref()?;
    Some(match t {
        Target::Switch(s) => switch(d, a.stp()?, s),
        Target::Link(l) => link(d, a.stp()?, l),
        Target::Host(h) => host(a, d, h),
        Target::Nic(..) | Target::Team(..) | Target::VNic(..) => interface(a, d, t)?,
        Target::Network(n) => {
            let n = d.network(n);
            let vlan = n
                .vlan_id()
                .map_or("untagged".to_string(), |v| format!("VLAN {v}"));
            format!(
                "**network `{}`**: {}, {vlan}, MTU {}",
                n.name, n.role.value, n.mtu.value.payload
            )
        }
        Target::Profile(p) => {
            let name = &d.profiles[p].name;
            let hosts: Vec<String> = d
                .hosts
                .iter()
                .filter(|h| h.profile.as_ref().is_some_and(|x| &x.value == name))
                .map(|h| format!("`{}`", h.name))
                .collect();
            format!(
                "**profile `{name}`**, used by {}: {}",
                hosts.len(),
                hosts.join(", ")
            )
        }
        Target::VSwitch(h, v) => {
            let host = d.host(h);
            let vs = &host.vswitches[v.0];
            let ups: Vec<String> = vs
                .uplinks
                .iter()
                .map(|u| format!("`{}`", host.uplink_name(u.value)))
                .collect();
            format!(
                "**{} `{}`** on host `{}`: uplinks {}",
                vs.kind_words(host.os.value),
                vs.name,
                host.name,
                ups.join(", ")
            )
        }
        Target::Storage(i) => format!("**storage target `{}`**", d.storage[i].name),
    })
}

/// The bridge a switch is part of (itself, its stack or MLAG domain).
fn bridge_of<'d>(domains: &'d [Domain], name: &str) -> Option<(&'d Domain, &'d str)> {
    domains.iter().find_map(|dom| {
        dom.bridges
            .iter()
            .find(|b| b.name == name || b.members.iter().any(|m| m == name))
            .map(|b| (dom, b.name.as_str()))
    })
}

fn switch(d: &Design, domains: &[Domain], s: SwitchId) -> String {
    let sw = d.switch(s);
    let mut out = format!(
        "**switch `{}`**: spanning tree {}",
        sw.name, sw.stp.mode.value
    );
    let Some((dom, bridge)) = bridge_of(domains, &sw.name) else {
        out.push_str("\n\nIt is in no bridged domain (no link to another switch).");
        return out;
    };
    if bridge != sw.name {
        let _ = write!(out, ", part of bridge `{bridge}`");
    }
    out.push('\n');
    for t in &dom.trees {
        let Some(b) = t.bridges.iter().find(|b| b.name == bridge) else {
            continue;
        };
        let role = if t.root == bridge {
            "**root bridge**".to_string()
        } else {
            match &b.root_port {
                Some(p) => format!("root port `{p}`"),
                None => "no root port".to_string(),
            }
        };
        let _ = writeln!(
            out,
            "\n- {}: {role}, root path cost {} (priority {}, root `{}`)",
            t.tree, b.root_path_cost, b.priority, t.root
        );
        for l in &t.links {
            for e in l.ends.iter().filter(|e| e.bridge == bridge) {
                let _ = writeln!(
                    out,
                    "  - `{}`: {}, cost {}, {}",
                    l.link,
                    e.role,
                    e.cost,
                    if e.forwards { "forwarding" } else { "blocking" }
                );
            }
        }
    }
    out
}

fn link(d: &Design, domains: &[Domain], l: LinkId) -> String {
    let link = d.link(l);
    let ends: Vec<String> = link
        .ends()
        .map(|s| format!("`{}`", d.switch(s).name))
        .collect();
    let speed = link
        .speed
        .as_ref()
        .map_or("speed not stated".to_string(), |s| s.value.to_string());
    let mut out = format!(
        "**link `{}`** ({}): {}, {} x {speed}",
        link.name,
        link.kind.value,
        ends.join(" to "),
        link.members.value
    );
    let carried: Vec<String> = d
        .networks
        .iter()
        .filter(|n| {
            link.allows_vlan(n.vlan_id())
                && link.ends().all(|s| d.switch(s).defines_vlan(n.vlan_id()))
        })
        .map(|n| match n.vlan_id() {
            Some(v) => format!("`{}` (VLAN {v})", n.name),
            None => format!("`{}` (untagged)", n.name),
        })
        .collect();
    let _ = write!(
        out,
        "\n\nCarries: {}\n",
        if carried.is_empty() {
            "none of the design's networks".to_string()
        } else {
            carried.join(", ")
        }
    );
    for dom in domains {
        for t in &dom.trees {
            for tl in t.links.iter().filter(|tl| {
                tl.link == link.name || tl.link.starts_with(&format!("{} (cable ", link.name))
            }) {
                let ends: Vec<String> = tl
                    .ends
                    .iter()
                    .map(|e| {
                        format!(
                            "`{}` {} (cost {}, {})",
                            e.bridge,
                            e.role,
                            e.cost,
                            if e.forwards { "forwarding" } else { "blocking" }
                        )
                    })
                    .collect();
                let _ = writeln!(out, "\n- {}: {}", t.tree, ends.join("; "));
            }
        }
    }
    out
}

fn host(a: &Analysis, d: &Design, h: HostId) -> String {
    let host = d.host(h);
    let mut out = format!("**host `{}`** ({})", host.name, host.os.value);
    if !host.cluster_name().is_empty() {
        let _ = write!(out, ", cluster `{}`", host.cluster_name());
    }
    match &host.profile {
        Some(p) => {
            let _ = write!(out, "\n\nProfile `{}`", p.value);
            if host.overrides.is_empty() {
                out.push_str(", no overrides.");
            } else {
                out.push_str(", overridden here:\n");
                let mut lines: Vec<usize> = host
                    .overrides
                    .iter()
                    .map(|s| a.file.line_col(s.start).line)
                    .collect();
                lines.dedup();
                for l in lines {
                    let _ = write!(out, "\n- line {l}: `{}`", a.file.line_text(l).trim());
                }
            }
        }
        None => out.push_str("\n\nNo profile: every line is its own."),
    }
    out
}

/// Whether a port of the bandwidth model runs over the interface.
fn uses(host: &Host, t: Target, p: &Port) -> bool {
    match t {
        Target::Nic(_, n) => p.active.contains(&n) || p.standby.contains(&n),
        Target::Team(_, team) => {
            p.via == Via::Team(team)
                || host.teams[team.0]
                    .members
                    .iter()
                    .any(|m| p.active.contains(&m.value) || p.standby.contains(&m.value))
        }
        Target::VNic(_, v, k) => p.via == Via::VNic(v, k),
        _ => false,
    }
}

fn interface(a: &Analysis, d: &Design, t: Target) -> Option<String> {
    let (h, title) = match t {
        Target::Nic(h, n) => {
            let nic = d.host(h).nic(n);
            let speed = nic
                .speed
                .as_ref()
                .map_or("speed not stated".to_string(), |s| s.value.to_string());
            (
                h,
                format!(
                    "**NIC `{}`** of host `{}`: {speed}, MTU {}",
                    nic.name,
                    d.host(h).name,
                    nic.mtu.value.payload
                ),
            )
        }
        Target::Team(h, team) => {
            let host = d.host(h);
            let tm = &host.teams[team.0];
            let members: Vec<String> = tm
                .members
                .iter()
                .map(|m| nic_with_speed(host, m.value))
                .collect();
            (
                h,
                format!(
                    "**team `{}`** of host `{}` ({}, {}): {}",
                    tm.name,
                    host.name,
                    tm.mode.value,
                    tm.load_balancing.value,
                    members.join(", ")
                ),
            )
        }
        Target::VNic(h, v, k) => {
            let host = d.host(h);
            let vs = &host.vswitches[v.0];
            let vn = &vs.vnics[k];
            let ups: Vec<String> = vs
                .uplinks
                .iter()
                .flat_map(|u| match u.value {
                    Uplink::Nic(n) => vec![n],
                    Uplink::Team(t) => host.teams[t.0].members.iter().map(|m| m.value).collect(),
                })
                .map(|n| nic_with_speed(host, n))
                .collect();
            (
                h,
                format!(
                    "**vNIC `{}`** on `{}` of host `{}`: network `{}`, over {}",
                    vn.name,
                    vs.name,
                    host.name,
                    d.network(vn.network.value).name,
                    ups.join(", ")
                ),
            )
        }
        _ => return None,
    };
    let host = d.host(h);
    let (topo, model) = a.bandwidth()?;
    let mut out = title;
    // Networks carried, from the topology's carriers.
    let nets: Vec<String> = {
        let mut v: Vec<String> = topo.carriers[h.0]
            .iter()
            .filter(|c| match t {
                Target::Nic(_, n) => c.active.contains(&n) || c.standby.contains(&n),
                Target::Team(_, team) => {
                    c.via == Via::Team(team)
                        || host.teams[team.0]
                            .members
                            .iter()
                            .any(|m| c.active.contains(&m.value))
                }
                Target::VNic(_, vs, k) => c.via == Via::VNic(vs, k),
                _ => false,
            })
            .map(|c| format!("`{}`", d.network(c.network).name))
            .collect();
        v.dedup();
        v
    };
    let _ = write!(
        out,
        "\n\nCarries: {}\n",
        if nets.is_empty() {
            "no network".to_string()
        } else {
            nets.join(", ")
        }
    );
    if let Some(hb) = model.hosts.iter().find(|b| b.host == h) {
        for c in hb.classes.iter() {
            let ports: Vec<&Port> = c.ports.iter().filter(|p| uses(host, t, p)).collect();
            if ports.is_empty() {
                continue;
            }
            let _ = writeln!(out, "\n- {}", class_line(host, c, &ports));
        }
    }
    Some(out)
}

fn nic_with_speed(host: &Host, n: NicIdx) -> String {
    let nic = host.nic(n);
    match &nic.speed {
        Some(s) => format!("`{}` {}", nic.name, s.value),
        None => format!("`{}` (speed not stated)", nic.name),
    }
}

/// "live migration over vNIC `LM` on `Converged`: 50 Gb/s in all, 25 Gb/s
/// per stream; 25 Gb/s after losing `P1-1`".
fn class_line(host: &Host, c: &ClassModel, ports: &[&Port]) -> String {
    let via: Vec<String> = ports.iter().map(|p| port_name(host, p.via)).collect();
    let mut s = format!(
        "{} over {}: {} in all, {} per stream",
        class_label(c.class),
        via.join(", "),
        figure(c.healthy.aggregate.speed(), c.healthy.aggregate.known()),
        figure(c.healthy.per_stream.speed(), c.healthy.per_stream.known())
    );
    if let Some(dg) = &c.degraded {
        let _ = write!(
            s,
            "; {} after losing `{}`",
            figure(dg.figures.aggregate.speed(), dg.figures.aggregate.known()),
            host.nic(dg.lost).name
        );
    }
    s
}
