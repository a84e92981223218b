//! The human text of `netlint topology` (its JSON is the view serialized).

use crate::views::topology::*;
use std::fmt::Write as _;

fn role_words(e: &LinkEnd) -> String {
    let role = match e.role {
        r if e.forwards => r.to_string(),
        "disabled" => "disabled".to_string(),
        r => format!("{} (blocks)", r.to_uppercase()),
    };
    if e.boundary {
        format!("{role}, boundary")
    } else {
        role
    }
}

fn table(rows: &[Vec<String>], indent: &str, out: &mut String) {
    let cols = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let width: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for r in rows {
        let mut line = String::from(indent);
        for (c, cell) in r.iter().enumerate() {
            if c + 1 == r.len() {
                line.push_str(cell);
            } else {
                line.push_str(cell);
                line.push_str(&" ".repeat(width[c] - cell.chars().count() + 2));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
}

/// Control characters from the design (file names, free text) are
/// escaped: the text is printed to a terminal.
pub fn human(r: &TopologyReport) -> String {
    super::printable(human_raw(r))
}

fn human_raw(r: &TopologyReport) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "Design `{}` ({})", r.design, r.file);
    for d in &r.domains {
        let names: Vec<String> = d
            .bridges
            .iter()
            .map(|b| match b.kind {
                "switch" => format!("{} ({})", b.name, b.mode),
                k => format!(
                    "{} ({} of {}, {})",
                    b.name,
                    if k == "stack" { "stack" } else { "MLAG domain" },
                    b.members.join(" + "),
                    b.mode
                ),
            })
            .collect();
        let _ = writeln!(s, "\nBridged domain {}: {}", d.id, names.join(", "));
        if d.trees.iter().all(|t| t.links.is_empty()) {
            let _ = writeln!(
                s,
                "  No inter-switch links: spanning tree has nothing to block here."
            );
            continue;
        }
        // PVST+ VLAN trees that come out the same are one entry (the view
        // groups them).
        for t in &d.trees {
            let name = if t.vlans.len() > 1 {
                format!("{}, each", t.tree)
            } else {
                t.tree.clone()
            };
            let networks = &t.networks;
            let carries = if networks.is_empty() {
                "no network of the design".to_string()
            } else {
                networks.join(", ")
            };
            let _ = writeln!(
                s,
                "\n  {} rooted at {}: decides {carries}",
                capital(&name),
                t.root
            );
            let _ = writeln!(s, "    Root: {}.", t.root_reason);
            let mut rows = vec![vec![
                "switch".to_string(),
                "priority".to_string(),
                "root path cost".to_string(),
                "root port".to_string(),
            ]];
            for b in &t.bridges {
                rows.push(vec![
                    b.name.clone(),
                    b.priority.to_string(),
                    b.root_path_cost.to_string(),
                    b.root_port.clone().unwrap_or_else(|| "-".to_string()),
                ]);
            }
            table(&rows, "    ", &mut s);
            if t.links.is_empty() {
                continue;
            }
            let _ = writeln!(s, "    Links (role and port cost at each end):");
            let mut rows = Vec::new();
            let mut whys: Vec<(usize, Vec<String>)> = Vec::new();
            for l in &t.links {
                let mut row = vec![l.link.clone(), l.speed.clone()];
                for e in &l.ends {
                    row.push(format!("{} {} cost {}", e.bridge, role_words(e), e.cost));
                }
                let blocked: Vec<String> = l
                    .ends
                    .iter()
                    .filter(|e| !e.forwards)
                    .map(|e| format!("{}: {}", e.bridge, e.why))
                    .collect();
                whys.push((rows.len(), blocked));
                rows.push(row);
            }
            let mut lines = String::new();
            table(&rows, "      ", &mut lines);
            for (i, line) in lines.lines().enumerate() {
                let _ = writeln!(s, "{line}");
                if let Some((_, ws)) = whys.iter().find(|(r, _)| *r == i) {
                    for w in ws {
                        let _ = writeln!(s, "          why {w}");
                    }
                }
            }
        }
    }
    cabling(r, &mut s);
    if !r.networks.is_empty() {
        let _ = writeln!(
            s,
            "\nNetworks (paths between the switches each pair of hosts is cabled to)"
        );
    }
    for n in &r.networks {
        let vlan = match n.vlan {
            Some(v) => format!("VLAN {v}"),
            None => "untagged".to_string(),
        };
        let by = if n.decided_by.is_empty() {
            String::new()
        } else {
            format!(", decided by {}", n.decided_by.join("; "))
        };
        let _ = writeln!(s, "\n  {} ({vlan}, {}){by}", n.network, n.role);
        if n.groups.is_empty() {
            let _ = writeln!(s, "    fewer than two hosts of one cluster carry it");
        }
        for g in &n.groups {
            let who = if g.every_pair {
                format!("hosts {}", g.hosts.join(", "))
            } else {
                let p: Vec<String> = g.pairs.iter().map(|[a, b]| format!("{a}-{b}")).collect();
                format!("host pairs {}", p.join(", "))
            };
            let cluster = if g.cluster.is_empty() {
                String::new()
            } else {
                format!(" (cluster {})", g.cluster)
            };
            match &g.cut {
                None => {
                    let _ = writeln!(s, "    {who}{cluster}: reachable");
                }
                Some(c) => {
                    let _ = writeln!(s, "    {who}{cluster}: CUT, {c}");
                }
            }
            for p in &g.paths {
                let head = format!("{} <-> {}", p.from, p.to);
                let body = match (&p.cut, p.links.is_empty()) {
                    (Some(c), _) => format!("no path: {c}"),
                    (None, true) => match (&p.peers, &p.peer_link) {
                        (Some([a, b]), Some(pl)) => format!("{a} -> {b} over {pl}"),
                        (Some([a, _]), None) => format!("both on peer {a}"),
                        _ => "same switch".to_string(),
                    },
                    (None, false) => {
                        let mut b =
                            format!("{} over {}", p.bridges.join(" -> "), p.links.join(", "));
                        if let Some(sl) = &p.slowest {
                            let _ = write!(b, "; slowest {sl}");
                        }
                        b
                    }
                };
                let mtu = match (p.mtu, &p.cut) {
                    (Some(m), None) => format!("; packets up to {m} bytes"),
                    _ => String::new(),
                };
                let _ = writeln!(s, "      {head}: {body}{mtu}");
            }
            if g.paths.is_empty() && g.reachable {
                let _ = writeln!(s, "      direct cable between the hosts");
            }
        }
    }
    s
}

/// Unmanaged devices and the cabling outside every bridged domain.
fn cabling(r: &TopologyReport, s: &mut String) {
    if !r.unmanaged.is_empty() {
        let _ = writeln!(
            s,
            "\nUnmanaged devices (opaque: netlint assumes they bridge none of the design's VLANs and send no BPDU)"
        );
        for u in &r.unmanaged {
            let model = u
                .model
                .as_ref()
                .map(|m| format!(" ({m})"))
                .unwrap_or_default();
            let links = match u.links.is_empty() {
                true => "no link".to_string(),
                false => format!("links {}", u.links.join(", ")),
            };
            let _ = writeln!(s, "  {}{model}: {links}", u.name);
        }
    }
    if !r.cabling.is_empty() {
        let _ = writeln!(
            s,
            "\nCabling outside the bridged domains (no spanning-tree port, no VLAN of the design)"
        );
        let rows: Vec<Vec<String>> = r
            .cabling
            .iter()
            .map(|c| {
                vec![
                    c.link.clone(),
                    format!("{} -- {}", c.a.join("+"), c.b.join("+")),
                    c.speed.clone(),
                    match c.kind {
                        "routed" => "routed".to_string(),
                        _ => "to an unmanaged device".to_string(),
                    },
                ]
            })
            .collect();
        table(&rows, "  ", s);
    }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}
