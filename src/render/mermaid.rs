//! A Mermaid flowchart for `netlint graph --format mermaid` and the
//! Markdown report: a pure function of the [`Scene`]. GitHub and GitLab
//! draw it in Markdown (a ```` ```mermaid ```` block).
//!
//! Mermaid has no ranks, so edges run from the upper tier down; between
//! switches of one tier a blocked link is written towards its blocking end,
//! which gets the cross (`-.-x`). Blocked links are dotted, links that cut
//! a network red (`linkStyle`), stacks and MLAG domains subgraphs.

use crate::views::graph::{
    worst, Block, Edge, EdgeKind, HostNode, Mark, NetStatus, Part, PartKind, Scene, Side,
    SwitchNode,
};
use netlint_model::Severity;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Text inside a quoted Mermaid label: entity codes for the characters the
/// flowchart grammar or the HTML label would read.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '#' => out.push_str("#35;"),
            '"' => out.push_str("#quot;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '&' => out.push_str("#amp;"),
            '|' => out.push_str("#124;"),
            '\n' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

fn mark_lines(marks: &[Mark]) -> Vec<String> {
    marks.iter().map(|m| esc(&m.text())).collect()
}

fn class_for(marks: &[Mark], down: bool, fallback: &'static str) -> &'static str {
    if down {
        return "down";
    }
    match worst(marks) {
        Some(Severity::Error) => "err",
        Some(Severity::Warning) => "warn",
        Some(Severity::Info) => "info",
        None => fallback,
    }
}

fn switch_node(out: &mut String, sw: &SwitchNode, indent: &str) {
    let mut lines = vec![format!("<b>{}</b>", esc(&sw.name))];
    lines.extend(sw.lines.iter().map(|l| esc(l)));
    lines.extend(sw.roots.iter().map(|r| esc(r)));
    if sw.down {
        lines.push("✕ FAILED".to_string());
    }
    lines.extend(mark_lines(&sw.marks));
    let fallback = if sw.roots.is_empty() { "sw" } else { "root" };
    let _ = writeln!(
        out,
        "{indent}{}[\"{}\"]:::{}",
        sw.id,
        lines.join("<br/>"),
        class_for(&sw.marks, sw.down, fallback)
    );
}

fn part_node(out: &mut String, p: &Part, indent: &str) {
    let mut lines = vec![format!("<b>{}</b>", esc(&p.title))];
    lines.extend(p.lines.iter().map(|l| esc(l)));
    lines.extend(mark_lines(&p.marks));
    let text = lines.join("<br/>");
    let shape = match p.kind {
        PartKind::Nic => format!("[\"{text}\"]"),
        PartKind::Team => format!("{{{{\"{text}\"}}}}"),
        PartKind::VSwitch => format!("[[\"{text}\"]]"),
    };
    let _ = writeln!(
        out,
        "{indent}{}{shape}:::{}",
        p.id,
        class_for(&p.marks, p.down, "part")
    );
}

fn host(out: &mut String, h: &HostNode) {
    let mut lines = vec![format!("<b>{}</b>", esc(&h.title))];
    lines.extend(h.lines.iter().map(|l| esc(l)));
    lines.extend(mark_lines(&h.marks));
    if h.parts.is_empty() {
        let _ = writeln!(
            out,
            "  {}(\"{}\"):::{}",
            h.id,
            lines.join("<br/>"),
            class_for(&h.marks, false, "host")
        );
        return;
    }
    let _ = writeln!(out, "  subgraph {} [\"{}\"]", h.id, lines.join("<br/>"));
    let mut in_card = vec![false; h.parts.len()];
    for c in &h.cards {
        let _ = writeln!(out, "    subgraph {} [\"{}\"]", c.id, esc(&c.label));
        for &k in &c.parts {
            in_card[k] = true;
            part_node(out, &h.parts[k], "      ");
        }
        let _ = writeln!(out, "    end");
    }
    for (k, p) in h.parts.iter().enumerate() {
        if !in_card[k] {
            part_node(out, p, "    ");
        }
    }
    let _ = writeln!(out, "  end");
}

/// The link statement, and the style class for `linkStyle`.
fn edge(e: &Edge) -> (String, &'static str) {
    let mut lines: Vec<String> = e.label.iter().map(|l| esc(l)).collect();
    if let Some(first) = lines.first_mut() {
        if e.kind == EdgeKind::Trunk {
            *first = format!("<b>{first}</b>");
        }
    }
    if e.from_role.is_some() || e.to_role.is_some() {
        lines.push(esc(&format!(
            "roles: {} ↔ {}",
            e.from_role.as_deref().unwrap_or("–"),
            e.to_role.as_deref().unwrap_or("–")
        )));
    }
    lines.extend(mark_lines(&e.marks));
    let (mut from, mut to) = (e.from.as_str(), e.to.as_str());
    let mut cross_at_to = e.blocked_at == Some(Side::To);
    if e.blocked_at == Some(Side::From) && e.same_rank {
        // Between peers the direction does not matter: put the blocking end last.
        std::mem::swap(&mut from, &mut to);
        cross_at_to = true;
    }
    let arrow = match (e.kind, e.block, e.down) {
        (_, _, true) => "-.-",
        (EdgeKind::Internal, _, _) => "===",
        (EdgeKind::Cabling, _, _) => "-.-",
        (_, Block::Full, _) if cross_at_to => "-.-x",
        (_, Block::Full, _) => "-.-",
        (_, Block::Partial, _) if cross_at_to => "--x",
        _ => "---",
    };
    let style = if !e.cuts.is_empty() {
        "cut"
    } else if e.down {
        "down"
    } else {
        match e.kind {
            EdgeKind::Internal => "internal",
            EdgeKind::Cabling => "idle",
            EdgeKind::Host | EdgeKind::Inner => "host",
            EdgeKind::Peer => "peer",
            EdgeKind::Trunk if e.block == Block::Full => "blocked",
            EdgeKind::Trunk if e.idle => "idle",
            EdgeKind::Trunk => "trunk",
        }
    };
    let text = if lines.is_empty() {
        format!("{from} {arrow} {to}")
    } else {
        format!("{from} {arrow}|\"{}\"| {to}", lines.join("<br/>"))
    };
    (text, style)
}

const LINK_STYLES: &[(&str, &str)] = &[
    ("trunk", "stroke:#37474f,stroke-width:2px"),
    ("blocked", "stroke:#9e9e9e,stroke-width:2px"),
    ("idle", "stroke:#cfd8dc,stroke-width:1px"),
    ("cut", "stroke:#c62828,stroke-width:3px"),
    (
        "down",
        "stroke:#c62828,stroke-width:2px,stroke-dasharray:2 4",
    ),
    ("internal", "stroke:#1a73e8,stroke-width:4px"),
    ("host", "stroke:#78909c,stroke-width:1px"),
    ("peer", "stroke:#8e24aa,stroke-width:1.5px"),
];

const CLASSES: &[(&str, &str)] = &[
    ("sw", "fill:#e8f0fe,stroke:#1a73e8,color:#000"),
    (
        "root",
        "fill:#e8f0fe,stroke:#b8860b,stroke-width:3px,color:#000",
    ),
    ("host", "fill:#f1f8e9,stroke:#558b2f,color:#000"),
    ("part", "fill:#ffffff,stroke:#558b2f,color:#000"),
    (
        "err",
        "fill:#fde7e9,stroke:#c62828,stroke-width:3px,color:#000",
    ),
    (
        "warn",
        "fill:#fff4e5,stroke:#ef6c00,stroke-width:2px,color:#000",
    ),
    (
        "info",
        "fill:#e3f2fd,stroke:#1565c0,stroke-width:2px,color:#000",
    ),
    (
        "down",
        "fill:#eeeeee,stroke:#c62828,stroke-width:2px,stroke-dasharray:4 3,color:#616161",
    ),
    ("net", "fill:#ffffff,stroke:#90a4ae,color:#000"),
    (
        "netcut",
        "fill:#fde7e9,stroke:#c62828,stroke-width:2px,color:#b71c1c",
    ),
];

/// The scene as a Mermaid flowchart, with a front-matter title.
/// Control characters from the design (file names, free text) are
/// escaped: the text is printed to a terminal.
pub fn render(scene: &Scene) -> String {
    super::printable(render_raw(scene))
}

fn render_raw(scene: &Scene) -> String {
    let mut out = String::new();
    let title = std::iter::once(scene.title.clone())
        .chain(scene.notes.iter().cloned())
        .collect::<Vec<_>>()
        .join(" · ");
    let _ = writeln!(out, "---");
    let _ = writeln!(
        out,
        "title: \"{}\"",
        title.replace('\\', "\\\\").replace('"', "\\\"")
    );
    let _ = writeln!(out, "---");
    out.push_str(&render_body(scene));
    out
}

/// The flowchart without front matter (what the Markdown report embeds).
pub fn render_body(scene: &Scene) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "flowchart TB");
    if !scene.marks.is_empty() {
        let _ = writeln!(
            out,
            "  design[\"{}\"]:::{}",
            mark_lines(&scene.marks).join("<br/>"),
            class_for(&scene.marks, false, "net")
        );
    }
    let mut grouped = vec![false; scene.switches.len()];
    for g in &scene.groups {
        let _ = writeln!(out, "  subgraph {} [\"{}\"]", g.id, esc(&g.label));
        for &m in &g.members {
            grouped[m] = true;
            switch_node(&mut out, &scene.switches[m], "    ");
        }
        let _ = writeln!(out, "  end");
    }
    for (i, sw) in scene.switches.iter().enumerate() {
        if !grouped[i] {
            switch_node(&mut out, sw, "  ");
        }
    }
    for h in &scene.hosts {
        host(&mut out, h);
    }
    let mut styles: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, e) in scene.edges.iter().enumerate() {
        let (text, style) = edge(e);
        let _ = writeln!(out, "  {text}");
        styles.entry(style).or_default().push(i);
    }
    // Networks: one box for those that work, a red one for those cut, below
    // the hosts (invisible links, after the styled ones so `linkStyle`
    // numbers stay put).
    let mut boxes: Vec<&str> = Vec::new();
    let (fine, cut): (Vec<_>, Vec<_>) = scene
        .networks
        .iter()
        .partition(|n| n.status == NetStatus::Ok);
    for (id, title, class, rows) in [
        ("networks", "networks", "net", fine),
        ("cut", "cut networks", "netcut", cut),
    ] {
        if rows.is_empty() {
            continue;
        }
        let mut lines = vec![format!("<b>{title}</b>")];
        for n in rows {
            let mut l = format!(
                "{}<b>{}</b> · {}",
                if n.selected { "▶ " } else { "" },
                esc(&n.name),
                esc(&n.detail)
            );
            if let NetStatus::Cut(why) | NetStatus::CutByFailure(why) = &n.status {
                l.push_str(&format!(": ✖ {}", esc(why)));
            }
            for m in mark_lines(&n.marks) {
                l.push_str(&format!(" · {m}"));
            }
            lines.push(l);
        }
        let _ = writeln!(out, "  {id}[\"{}\"]:::{class}", lines.join("<br/>"));
        boxes.push(id);
    }
    for (style, css) in LINK_STYLES {
        if let Some(idx) = styles.get(style) {
            let list: Vec<String> = idx.iter().map(|i| i.to_string()).collect();
            let _ = writeln!(out, "  linkStyle {} {css}", list.join(","));
        }
    }
    let bottom: Vec<&str> = if scene.hosts.is_empty() {
        scene.switches.iter().map(|s| s.id.as_str()).collect()
    } else {
        scene.hosts.iter().map(|h| h.id.as_str()).collect()
    };
    for b in &boxes {
        for from in &bottom {
            let _ = writeln!(out, "  {from} ~~~ {b}");
        }
    }
    for g in &scene.groups {
        let _ = writeln!(
            out,
            "  style {} fill:#fafafa,stroke:#546e7a,stroke-dasharray:5 4",
            g.id
        );
    }
    for h in scene.hosts.iter().filter(|h| !h.parts.is_empty()) {
        let border = match worst(&h.marks) {
            Some(Severity::Error) => "#c62828",
            Some(Severity::Warning) => "#ef6c00",
            Some(Severity::Info) => "#1565c0",
            None => "#558b2f",
        };
        let _ = writeln!(out, "  style {} fill:#f1f8e9,stroke:{border}", h.id);
        for c in &h.cards {
            let _ = writeln!(
                out,
                "  style {} fill:#ffffff,stroke:#78909c,stroke-dasharray:4 3",
                c.id
            );
        }
    }
    for (name, css) in CLASSES {
        let _ = writeln!(out, "  classDef {name} {css}");
    }
    out
}
