//! Graphviz DOT for `netlint graph --format dot`: a pure function of the
//! [`Scene`]. Render with `dot -Tsvg design.dot > design.svg`.
//!
//! Switches rank by tier (core on top, hosts at the bottom; `newrank` lets
//! the rank constraints cross the stack / MLAG clusters). A link blocked by
//! the spanning tree is dashed with a bar (`tee`) at the blocking end, and
//! red when it cuts a network; its label names the role and the networks.

use crate::views::graph::{
    worst, Block, Edge, EdgeKind, HostNode, Mark, NetStatus, Part, PartKind, Scene, Side,
    SwitchNode,
};
use netlint_model::{Severity, Tier};
use std::fmt::Write as _;

const RED: &str = "#c62828";
const GREY: &str = "#9e9e9e";
const FONT: &str = "Helvetica";

/// Text for an HTML-like label.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// A quoted DOT id.
fn id(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

fn severity_colors(s: Severity) -> (&'static str, &'static str) {
    // (fill, border)
    match s {
        Severity::Error => ("#fde7e9", RED),
        Severity::Warning => ("#fff4e5", "#ef6c00"),
        Severity::Info => ("#e3f2fd", "#1565c0"),
    }
}

fn mark_lines(marks: &[Mark]) -> Vec<String> {
    marks
        .iter()
        .map(|m| {
            let (_, color) = severity_colors(m.severity);
            format!("<font color=\"{color}\">{}</font>", bold(&esc(&m.text())))
        })
        .collect()
}

fn small(s: &str) -> String {
    format!("<font point-size=\"9\">{}</font>", esc(s))
}

/// Node attributes: fill, border and pen width from state and findings.
fn node_style(
    base_fill: &str,
    base_border: &str,
    marks: &[Mark],
    down: bool,
    root: bool,
) -> String {
    let (mut fill, mut border, mut pen, mut style) =
        (base_fill, base_border, "1", "rounded,filled");
    if root {
        border = "#b8860b";
        pen = "2.5";
    }
    if let Some(s) = worst(marks) {
        (fill, border) = severity_colors(s);
        pen = "2.5";
    }
    if down {
        fill = "#eeeeee";
        border = RED;
        pen = "2";
        style = "rounded,filled,dashed";
    }
    format!("style=\"{style}\", fillcolor=\"{fill}\", color=\"{border}\", penwidth={pen}")
}

fn switch_node(out: &mut String, sw: &SwitchNode, indent: &str) {
    let mut lines = vec![bold(&esc(&sw.name))];
    lines.extend(sw.lines.iter().map(|l| small(l)));
    for r in &sw.roots {
        lines.push(format!("<font color=\"#b8860b\">{}</font>", bold(&esc(r))));
    }
    if sw.down {
        lines.push(format!("<font color=\"{RED}\"><b>✕ FAILED</b></font>"));
    }
    lines.extend(mark_lines(&sw.marks));
    let _ = writeln!(
        out,
        "{indent}{} [label=<{}>, {}];",
        id(&sw.id),
        lines.join("<br/>"),
        node_style(
            "#e8f0fe",
            "#1a73e8",
            &sw.marks,
            sw.down,
            !sw.roots.is_empty()
        )
    );
}

fn part_node(out: &mut String, p: &Part, indent: &str) {
    let shape = match p.kind {
        PartKind::Nic => "box",
        PartKind::Team => "hexagon",
        PartKind::VSwitch => "component",
    };
    let mut lines = vec![bold(&esc(&p.title))];
    lines.extend(p.lines.iter().map(|l| small(l)));
    lines.extend(mark_lines(&p.marks));
    let _ = writeln!(
        out,
        "{indent}{} [shape={shape}, label=<{}>, {}];",
        id(&p.id),
        lines.join("<br/>"),
        node_style("#ffffff", "#558b2f", &p.marks, p.down, false)
    );
}

fn host_lines(h: &HostNode) -> Vec<String> {
    let mut lines = vec![bold(&esc(&h.title))];
    lines.extend(h.lines.iter().map(|l| small(l)));
    lines.extend(mark_lines(&h.marks));
    lines
}

fn host(out: &mut String, h: &HostNode) {
    if h.parts.is_empty() {
        let _ = writeln!(
            out,
            "  {} [label=<{}>, {}];",
            id(&h.id),
            host_lines(h).join("<br/>"),
            node_style("#f1f8e9", "#558b2f", &h.marks, false, false)
        );
        return;
    }
    let border = worst(&h.marks).map_or("#558b2f", |s| severity_colors(s).1);
    let _ = writeln!(out, "  subgraph {} {{", id(&format!("cluster_{}", h.id)));
    let _ = writeln!(
        out,
        "    label=<{}>; style=\"rounded,filled\"; fillcolor=\"#f1f8e9\"; color=\"{border}\";",
        host_lines(h).join("<br/>")
    );
    let mut in_card = vec![false; h.parts.len()];
    for c in &h.cards {
        let _ = writeln!(out, "    subgraph {} {{", id(&format!("cluster_{}", c.id)));
        let _ = writeln!(
            out,
            "      label=<{}>; style=\"rounded,dashed\"; color=\"#78909c\"; fillcolor=\"#ffffff\";",
            small(&c.label)
        );
        for &k in &c.parts {
            in_card[k] = true;
            part_node(out, &h.parts[k], "      ");
        }
        let _ = writeln!(out, "    }}");
    }
    for (k, p) in h.parts.iter().enumerate() {
        if !in_card[k] {
            part_node(out, p, "    ");
        }
    }
    let _ = writeln!(out, "  }}");
}

fn edge(out: &mut String, e: &Edge) {
    let mut attrs: Vec<String> = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    for (i, l) in e.label.iter().enumerate() {
        let red = l.starts_with("BLOCKED") || l.starts_with("blocks") || l.starts_with('✕');
        let text = esc(l);
        lines.push(if i == 0 && e.kind == EdgeKind::Trunk {
            bold(&text)
        } else if red {
            format!("<font color=\"{RED}\">{text}</font>")
        } else {
            text
        });
    }
    if !e.cuts.is_empty() {
        // The cut line is already in the label; make it stand out.
        if let Some(last) = lines.iter_mut().rev().find(|l| l.starts_with("cuts ")) {
            *last = format!("<font color=\"{RED}\"><b>{last}</b></font>");
        }
    }
    lines.extend(mark_lines(&e.marks));
    if !lines.is_empty() {
        attrs.push(format!("label=<{}>", lines.join("<br/>")));
    }
    let (mut color, mut pen, mut style) = match e.kind {
        EdgeKind::Trunk => ("#37474f", "2", "solid"),
        EdgeKind::Internal => ("#1a73e8", "4", "bold"),
        EdgeKind::Cabling => ("#607d8b", "1.5", "dashed"),
        EdgeKind::Host => ("#78909c", "1.2", "solid"),
        EdgeKind::Peer => ("#8e24aa", "1.5", "solid"),
        EdgeKind::Inner => ("#558b2f", "1", "solid"),
    };
    if e.idle {
        color = "#cfd8dc";
    }
    if e.block == Block::Full {
        style = "dashed";
        color = GREY;
    }
    if e.down {
        style = "dotted";
        color = RED;
    }
    if !e.cuts.is_empty() {
        color = RED;
        pen = "3";
    }
    attrs.push(format!("color=\"{color}\""));
    attrs.push(format!("penwidth={pen}"));
    if style != "solid" {
        attrs.push(format!("style={style}"));
    }
    if e.block != Block::None {
        let (tail, head) = match e.blocked_at {
            Some(Side::From) => ("tee", "none"),
            Some(Side::To) => ("none", "tee"),
            None => ("none", "none"),
        };
        attrs.push(format!("dir=both, arrowtail={tail}, arrowhead={head}"));
    }
    let role = |r: &Option<String>, blocking: bool| {
        r.as_ref().map(|r| {
            let c = if blocking { RED } else { "#455a64" };
            format!("<<font color=\"{c}\" point-size=\"8\">{}</font>>", esc(r))
        })
    };
    if let Some(t) = role(&e.from_role, e.blocked_at == Some(Side::From)) {
        attrs.push(format!("taillabel={t}"));
    }
    if let Some(h) = role(&e.to_role, e.blocked_at == Some(Side::To)) {
        attrs.push(format!("headlabel={h}"));
    }
    if e.kind == EdgeKind::Internal {
        // Peers side by side, whatever the link says.
        attrs.push("constraint=false".to_string());
    }
    let _ = writeln!(
        out,
        "  {} -- {} [{}];",
        id(&e.from),
        id(&e.to),
        attrs.join(", ")
    );
}

fn legend(out: &mut String, scene: &Scene) {
    let mut rows = String::new();
    let _ = write!(
        rows,
        "<tr><td colspan=\"2\" bgcolor=\"#eceff1\"><b>networks</b></td></tr>"
    );
    for n in &scene.networks {
        let (bg, status) = match &n.status {
            NetStatus::Ok => ("#ffffff", String::new()),
            NetStatus::Cut(why) | NetStatus::CutByFailure(why) => (
                "#fde7e9",
                format!("<br/><font color=\"{RED}\">{}</font>", bold(&esc(why))),
            ),
        };
        let name = if n.selected {
            bold(&if n.name.is_empty() {
                String::new()
            } else {
                format!("<u>{}</u>", esc(&n.name))
            })
        } else {
            bold(&esc(&n.name))
        };
        let name = if n.status == NetStatus::Ok {
            name
        } else {
            format!("<font color=\"{RED}\">{name}</font>")
        };
        let marks: String = mark_lines(&n.marks)
            .into_iter()
            .map(|m| format!("<br/>{m}"))
            .collect();
        let _ = write!(
            rows,
            "<tr><td align=\"left\" bgcolor=\"{bg}\">{name}</td><td align=\"left\" balign=\"left\" bgcolor=\"{bg}\">{}{status}{marks}</td></tr>",
            small(&n.detail)
        );
    }
    let keys = [
        "━━ forwarding · ╍╍ blocked by spanning tree (⊣ at the blocking end)",
        "red: cuts a network, or failed · ★ root bridge · ═ stack / peer-link",
        "Root / Desg / Altn / Back: port roles at each end",
    ];
    for k in keys {
        let _ = write!(
            rows,
            "<tr><td colspan=\"2\" align=\"left\">{}</td></tr>",
            small(k)
        );
    }
    let _ = writeln!(
        out,
        "  \"legend\" [shape=plaintext, style=solid, label=<<table border=\"0\" cellborder=\"1\" cellspacing=\"0\" cellpadding=\"3\">{rows}</table>>];"
    );
}

/// The scene as a Graphviz `graph`.
/// Control characters from the design (file names, free text) are
/// escaped: the text is printed to a terminal.
pub fn render(scene: &Scene) -> String {
    super::printable(render_raw(scene))
}

/// `<b>text</b>`, or nothing for an empty text: Graphviz rejects an empty
/// `<b></b>` in an HTML-like label ("syntax error"), which a design
/// named `""` gave in its graph's title.
fn bold(text: &str) -> String {
    if text.is_empty() {
        String::new()
    } else {
        format!("<b>{text}</b>")
    }
}

fn render_raw(scene: &Scene) -> String {
    let mut out = String::new();
    let mut title = vec![bold(&esc(&scene.title))];
    title.extend(scene.notes.iter().map(|n| small(n)));
    title.extend(mark_lines(&scene.marks));
    let _ = writeln!(out, "graph {} {{", id(&format!("netlint {}", scene.title)));
    let _ = writeln!(
        out,
        "  graph [rankdir=TB, newrank=true, nodesep=1.2, ranksep=1.4, fontname=\"{FONT}\", labelloc=t, label=<{}>];",
        title.join("<br/>")
    );
    let _ = writeln!(
        out,
        "  node [shape=box, style=\"rounded,filled\", fontname=\"{FONT}\", fontsize=11, margin=\"0.15,0.06\"];"
    );
    let _ = writeln!(out, "  edge [fontname=\"{FONT}\", fontsize=9];");

    // Switches: the members of a stack or MLAG domain in a cluster.
    let mut grouped = vec![false; scene.switches.len()];
    for g in &scene.groups {
        let _ = writeln!(out, "  subgraph {} {{", id(&format!("cluster_{}", g.id)));
        let _ = writeln!(
            out,
            "    label=<{}>; style=\"rounded,dashed\"; color=\"#546e7a\"; fontname=\"{FONT}\";",
            small(&g.label)
        );
        for &m in &g.members {
            grouped[m] = true;
            switch_node(&mut out, &scene.switches[m], "    ");
        }
        let _ = writeln!(out, "  }}");
    }
    for (i, sw) in scene.switches.iter().enumerate() {
        if !grouped[i] {
            switch_node(&mut out, sw, "  ");
        }
    }
    for h in &scene.hosts {
        host(&mut out, h);
    }
    if !scene.networks.is_empty() {
        legend(&mut out, scene);
    }

    // Ranks: core, aggregation, access, then hosts.
    for tier in [Tier::Core, Tier::Aggregation, Tier::Access] {
        let ids: Vec<String> = scene
            .switches
            .iter()
            .filter(|s| s.tier == tier)
            .map(|s| id(&s.id))
            .collect();
        if !ids.is_empty() {
            let _ = writeln!(out, "  {{ rank=same; {}; }}", ids.join("; "));
        }
    }
    let host_ids: Vec<String> = scene
        .hosts
        .iter()
        .flat_map(|h| {
            if h.parts.is_empty() {
                vec![id(&h.id)]
            } else {
                h.parts
                    .iter()
                    .filter(|p| p.kind == PartKind::Nic)
                    .map(|p| id(&p.id))
                    .collect()
            }
        })
        .collect();
    if !host_ids.is_empty() {
        let _ = writeln!(out, "  {{ rank=same; {}; }}", host_ids.join("; "));
    }

    for e in &scene.edges {
        edge(&mut out, e);
    }
    if !scene.networks.is_empty() {
        // The legend below everything else: under the hosts (their last
        // parts), or under the switches when no host is drawn.
        let mut bottom: Vec<&str> = scene
            .hosts
            .iter()
            .map(|h| h.parts.last().map_or(h.id.as_str(), |p| p.id.as_str()))
            .collect();
        if bottom.is_empty() {
            bottom = scene.switches.iter().map(|s| s.id.as_str()).collect();
        }
        for b in bottom {
            let _ = writeln!(out, "  {} -- \"legend\" [style=invis];", id(b));
        }
    }
    out.push_str("}\n");
    out
}
