//! The human text of `netlint simulate` (its JSON is the view serialized).

use crate::views::simulate::*;
use std::fmt::Write as _;

/// "`a`", "`a` or `b`", "`a`, `b` or `c`".
fn or_list(v: &[String]) -> String {
    let q: Vec<String> = v.iter().map(|s| format!("`{s}`")).collect();
    match q.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The human rendering.
/// Control characters from the design (file names, free text) are
/// escaped: the text is printed to a terminal.
pub fn human(r: &SimulateReport) -> String {
    super::printable(human_raw(r))
}

fn human_raw(r: &SimulateReport) -> String {
    let mut s = String::new();
    if let Some(sc) = &r.scenario {
        let failing: Vec<String> = sc.failing.iter().map(|f| f.unit.clone()).collect();
        let _ = writeln!(
            s,
            "{} ({}) with {} down",
            r.design,
            r.file,
            failing.join(" and ")
        );
        let _ = writeln!(s);
        let _ = writeln!(s, "Lost");
        if sc.lost.is_empty() {
            let _ = writeln!(
                s,
                "  nothing: every host pair that reached each other still does"
            );
        }
        for l in &sc.lost {
            let tag = if l.required {
                l.severity.to_string()
            } else {
                "info: need not survive on its own".to_string()
            };
            let _ = writeln!(s, "  {} [{tag}]", l.requirement);
            for reason in &l.reasons {
                let _ = writeln!(s, "    {}", reason.text);
            }
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "What must survive");
        for st in &sc.standing {
            let status = if st.kept { "ok  " } else { "LOST" };
            let mut line = format!("  {status}  {}", st.requirement);
            if st.kept && !st.lost_networks.is_empty() && !st.through.is_empty() {
                let _ = write!(
                    line,
                    ": every host pair still connects through {}; {} is lost",
                    or_list(&st.through),
                    or_list(&st.lost_networks).replace(" or ", " and ")
                );
            } else if !st.kept {
                let _ = write!(line, " [{}]", st.severity);
            }
            let _ = writeln!(s, "{line}");
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "Spanning tree");
        if sc.spanning_tree.is_empty() {
            let _ = writeln!(s, "  no change");
        }
        for t in &sc.spanning_tree {
            let _ = writeln!(s, "  {}: {}", t.tree, t.changes.join("; "));
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "Links");
        for split in &sc.splits {
            let _ = writeln!(s, "  {split}");
        }
        if sc.links.is_empty() && sc.splits.is_empty() {
            let _ = writeln!(s, "  every inter-switch link keeps all its cables");
        }
        for l in &sc.links {
            let _ = writeln!(s, "  {}", link_line(l));
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "Slower paths");
        if sc.slower.is_empty() {
            let _ = writeln!(s, "  none");
        }
        for p in &sc.slower {
            let more = "";
            let via = p
                .via
                .as_ref()
                .map(|v| format!(" (now through `{v}`)"))
                .unwrap_or_default();
            let stream = p
                .per_stream
                .as_ref()
                .map(|[a, b]| format!(", per stream {a} -> {b}"))
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "  network `{}`: {}{more}: {} -> {}{stream}{via}",
                p.network,
                pair_list(&p.pairs),
                p.before,
                p.after
            );
        }
        if !sc.restored.is_empty() {
            let _ = writeln!(s);
            let _ = writeln!(s, "Reconnected (cut before the failure)");
            for r in &sc.restored {
                let _ = writeln!(s, "  network `{}`: {}", r.network, pair_list(&r.pairs));
            }
        }
    }
    if let Some(rows) = &r.units {
        let _ = writeln!(
            s,
            "{} ({}): every single failure{}, {} units",
            r.design,
            r.file,
            if r.stack_as_unit {
                " (stacks as one unit)"
            } else {
                ""
            },
            rows.len()
        );
        let _ = writeln!(s);
        let width = rows.iter().map(|u| u.name.len()).max().unwrap_or(4).max(4);
        let _ = writeln!(s, "{:<width$}  {:<7}  CONSEQUENCES", "UNIT", "WORST");
        let mut fine = 0;
        for u in rows {
            let mut parts: Vec<String> = Vec::new();
            // What the same hosts lose, together: "lost vm, mgmt (hv1, hv2)".
            let mut lost: Vec<(String, Vec<String>)> = Vec::new();
            for l in &u.lost {
                let who = if l.split.is_empty() {
                    l.hosts.join(", ")
                } else {
                    l.split
                        .iter()
                        .map(|g| g.join(", "))
                        .collect::<Vec<_>>()
                        .join(" | ")
                };
                let who = shorten(&who);
                match lost.iter_mut().find(|(w, _)| *w == who) {
                    Some((_, labels)) => labels.push(l.label.clone()),
                    None => lost.push((who, vec![l.label.clone()])),
                }
            }
            for (who, labels) in lost {
                parts.push(format!("lost {} ({who})", labels.join(", ")));
            }
            // A core switch takes every uplink with it: the first few
            // links, then a count, keep the row readable.
            for l in u.links.iter().take(TABLE_LINKS) {
                parts.push(match l.state {
                    "down" => format!("{} down", l.link),
                    _ => format!(
                        "{} {} of {} cables ({} of {})",
                        l.link, l.cables_left, l.cables, l.capacity_left, l.capacity
                    ),
                });
            }
            if u.links.len() > TABLE_LINKS {
                let rest = &u.links[TABLE_LINKS..];
                let down = rest.iter().filter(|l| l.state == "down").count();
                let fewer = rest.len() - down;
                let mut more = Vec::new();
                if down > 0 {
                    more.push(format!("{down} more links down"));
                }
                if fewer > 0 {
                    more.push(format!("{fewer} more with fewer cables"));
                }
                parts.push(more.join(", "));
            }
            if u.slower_pairs > 0 {
                parts.push(format!("{} host pairs slower", u.slower_pairs));
            }
            if parts.is_empty() {
                fine += 1;
                parts.push("nothing lost".to_string());
            }
            let _ = writeln!(
                s,
                "{:<width$}  {:<7}  {}",
                u.name,
                u.severity.unwrap_or("-"),
                parts.join("; ")
            );
        }
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "{} of {} units take nothing away. `netlint simulate {} --fail UNIT` explains one.",
            fine,
            rows.len(),
            r.file
        );
    }
    s
}

/// "`a`-`b`, `a`-`c` and 3 more pairs".
fn pair_list(pairs: &[[String; 2]]) -> String {
    let shown: Vec<String> = pairs
        .iter()
        .take(4)
        .map(|[a, b]| format!("`{a}`-`{b}`"))
        .collect();
    if pairs.len() > 4 {
        format!("{} and {} more pairs", shown.join(", "), pairs.len() - 4)
    } else {
        shown.join(", ")
    }
}

fn link_line(l: &LinkOut) -> String {
    match l.state {
        "down" => format!("`{}`: down ({} lost)", l.link, l.capacity),
        _ => format!(
            "`{}`: {} of {} cables left, {} of {}",
            l.link, l.cables_left, l.cables, l.capacity_left, l.capacity
        ),
    }
}

/// Links named in one row of the table before the rest are counted.
const TABLE_LINKS: usize = 6;

/// Long host lists in the table: the first few, then "and N more".
fn shorten(list: &str) -> String {
    let items: Vec<&str> = list.split(", ").collect();
    if items.len() <= 6 {
        list.to_string()
    } else {
        format!("{} and {} more", items[..6].join(", "), items.len() - 6)
    }
}
