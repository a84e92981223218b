//! `l2-loop`: a cycle of switches and links through a switch with spanning
//! tree disabled: a broadcast storm waiting to happen.

use super::{and_list, path_text, port_name};
use crate::{declare_rule, Context};
use netlint_analysis::{BridgeId, UnionFind};
use netlint_model::{Diagnostic, StpMode};
use std::collections::{BTreeMap, VecDeque};

declare_rule!(
    RULE,
    id: "l2-loop",
    category: "stp",
    severity: Error,
    summary: "A loop of switches and links passes through a switch with spanning tree disabled: a broadcast storm will take the network down.",
    check: check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    super::l2_loop_off::check(cx, out);
    let design = cx.design;
    let topo = cx.topology();
    let fwd = cx.forwarding();
    let bridges = cx.fabric().engine().bridges();
    let none = |b: usize| bridges.get(b).is_some_and(|x| x.mode == StpMode::None);
    if !(0..topo.bridges.len()).any(none) {
        return;
    }
    // Ports on some cycle of the cabled graph (a LAG and a stack are one
    // port / one bridge; parallel independent cables are a cycle).
    let up: Vec<bool> = fwd.ports.iter().map(|p| p.up).collect();
    let cyclic = fwd.stp.links_on_loops(&up);
    if cyclic.is_empty() {
        return;
    }
    let groups = loop_groups(topo, &cyclic);
    let open: Vec<usize> = fwd
        .stp
        .forwarding_links(None)
        .map(|f| fwd.stp.links_on_loops(f))
        .unwrap_or_default();
    for links in groups.values() {
        let mut members: Vec<usize> = links
            .iter()
            .flat_map(|p| [topo.ports[*p].a.0, topo.ports[*p].b.0])
            .collect();
        members.sort_unstable();
        members.dedup();
        let silent: Vec<usize> = members.iter().copied().filter(|b| none(*b)).collect();
        let Some(&first) = silent.first() else {
            continue;
        };
        let cycle = shortest_cycle(topo, links, first);
        let stp_members: Vec<usize> = members.iter().copied().filter(|b| !none(*b)).collect();
        let name = |b: usize| format!("`{}`", topo.bridge(BridgeId(b)).name);
        let silent_names: Vec<String> = silent.iter().map(|b| name(*b)).collect();
        let loop_open = links.iter().any(|p| open.contains(p));
        let consequence = if stp_members.is_empty() || loop_open {
            "No switch on it runs spanning tree where the loop closes, so nothing ever blocks it: the first broadcast circles forever and the storm takes the network down".to_string()
        } else {
            let stp_names: Vec<String> = stp_members.iter().map(|b| name(*b)).collect();
            format!(
                "Only the spanning tree of {} can block it, and only as long as {} floods their BPDUs; a switch that drops BPDUs with spanning tree off (many do), or a BPDU filter, leaves the loop open, and the first broadcast storm takes the network down",
                and_list(&stp_names),
                and_list(&silent_names)
            )
        };
        let message = format!(
            "{} {} with spanning tree disabled (`mode = \"none\"`) on a loop: {}. {consequence}",
            and_list(&silent_names),
            if silent.len() == 1 { "runs" } else { "run" },
            path_text(design, topo, BridgeId(first), &cycle),
        );
        let neighbour_mode = stp_members
            .first()
            .map(|b| bridges[*b].mode.as_str())
            .unwrap_or("rstp");
        let help = format!(
            "enable spanning tree on {} (`mode = \"{neighbour_mode}\"` in its `stp` table, like its neighbours), or break the loop: remove one of its links, or bundle parallel cables into one LAG (`lag = \"lacp\"`)",
            and_list(&silent_names)
        );
        let sw = design.switch(topo.bridge(BridgeId(first)).members[0]);
        let mut d = cx
            .finding(&RULE, sw.element(), sw.stp.mode.span, message)
            .with_help(help);
        for p in &cycle {
            let l = design.link(topo.ports[*p].link);
            d = d.with_related(
                l.span,
                format!("{} is on the loop", port_name(design, topo, *p)),
            );
        }
        out.push(d);
    }
}

/// Ports on cycles grouped by the 2-edge-connected group of bridges they
/// join (keyed by a representative bridge).
pub(super) fn loop_groups(
    topo: &netlint_analysis::Topology,
    cyclic: &[usize],
) -> BTreeMap<usize, Vec<usize>> {
    let mut sets = UnionFind::new(topo.bridges.len());
    for &p in cyclic {
        sets.union(topo.ports[p].a.0, topo.ports[p].b.0);
    }
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &p in cyclic {
        groups
            .entry(sets.find(topo.ports[p].a.0))
            .or_default()
            .push(p);
    }
    groups
}

/// The shortest cycle through `start` over `links` (ports), as ports in
/// order from `start` back to it.
pub(super) fn shortest_cycle(
    topo: &netlint_analysis::Topology,
    links: &[usize],
    start: usize,
) -> Vec<usize> {
    let mut best: Option<Vec<usize>> = None;
    for &e in links {
        let p = &topo.ports[e];
        if p.a.0 != start && p.b.0 != start {
            continue;
        }
        if p.a == p.b {
            return vec![e];
        }
        let u = if p.a.0 == start { p.b.0 } else { p.a.0 };
        // BFS from u back to start without e.
        let mut prev: BTreeMap<usize, (usize, usize)> = BTreeMap::new();
        let mut q = VecDeque::from([u]);
        let mut seen = vec![u];
        while let Some(x) = q.pop_front() {
            if x == start {
                break;
            }
            for &f in links {
                if f == e {
                    continue;
                }
                let pf = &topo.ports[f];
                let y = if pf.a.0 == x {
                    pf.b.0
                } else if pf.b.0 == x {
                    pf.a.0
                } else {
                    continue;
                };
                if !seen.contains(&y) {
                    seen.push(y);
                    prev.insert(y, (x, f));
                    q.push_back(y);
                }
            }
        }
        if !seen.contains(&start) {
            continue;
        }
        let mut tail = Vec::new();
        let mut at = start;
        while at != u {
            let (x, f) = prev[&at];
            tail.push(f);
            at = x;
        }
        tail.reverse();
        let mut cycle = vec![e];
        cycle.extend(tail);
        if best.as_ref().is_none_or(|b| cycle.len() < b.len()) {
            best = Some(cycle);
        }
    }
    best.unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const TRIANGLE: &str = r#"
[design]
name = "t"
[switches.a]
stp = { mode = "MODE_A" }
[switches.b]
stp = { mode = "MODE_B" }
[switches.c]
stp = { mode = "rstp" }
[[links]]
name = "ab"
a = "a"
b = "b"
speed = "10G"
[[links]]
name = "bc"
a = "b"
b = "c"
speed = "10G"
[[links]]
name = "ca"
a = "c"
b = "a"
speed = "10G"
"#;

    #[test]
    fn a_switch_without_stp_on_a_loop_is_an_error() {
        let f = findings(
            &TRIANGLE.replace("MODE_A", "none").replace("MODE_B", "rstp"),
            &super::RULE,
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "switches.a");
        let m = &f[0].message;
        assert!(m.starts_with("`a` runs with spanning tree disabled (`mode = \"none\"`) on a loop: `a` → `b` → `c` → `a` over `ab`, `bc`, `ca`."), "{m}");
        assert!(m.contains("Only the spanning tree of `b` and `c` can block it, and only as long as `a` floods their BPDUs"), "{m}");
        assert_eq!(f[0].related.len(), 3);
    }

    #[test]
    fn a_loop_of_switches_without_stp_is_never_blocked() {
        let src = TRIANGLE
            .replace("MODE_A", "none")
            .replace("MODE_B", "none")
            .replace("mode = \"rstp\"", "mode = \"none\"");
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message
                .starts_with("`a`, `b` and `c` run with spanning tree disabled"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].message.contains("nothing ever blocks it"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn parallel_cables_that_are_not_a_lag_close_a_loop() {
        let src = r#"
[design]
name = "t"
[switches.a]
stp = { mode = "none" }
[switches.b]
[[links]]
name = "pair"
a = "a"
b = "b"
speed = "1G"
members = 2
lag = "LAG"
"#;
        let f = findings(&src.replace("LAG", "none"), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message
                .contains("over cable 1 of `pair`, cable 2 of `pair`"),
            "{}",
            f[0].message
        );
        assert!(findings(&src.replace("LAG", "lacp"), &super::RULE).is_empty());
    }

    #[test]
    fn stp_everywhere_or_no_loop_is_silent() {
        assert!(findings(
            &TRIANGLE.replace("MODE_A", "rstp").replace("MODE_B", "rstp"),
            &super::RULE
        )
        .is_empty());
        let open = TRIANGLE
            .replace("MODE_A", "none")
            .replace("MODE_B", "rstp")
            .replace(
                "[[links]]\nname = \"ca\"\na = \"c\"\nb = \"a\"\nspeed = \"10G\"\n",
                "",
            );
        assert!(findings(&open, &super::RULE).is_empty());
    }
}
