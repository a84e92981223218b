//! `stp-vlan-partition`: the spanning tree blocks the only link that carries
//! some VLAN between two parts of the network, so a network is cut in the
//! healthy state.

use super::fixes::{first_fix, suggestions, Budget, Problem};
use super::{
    and_list, bridge_name, network_text, path_text, port_name, priority_line, tree_priority,
    vlans_text,
};
use crate::phrases::stp::StpWords;
use crate::phrases::words::host_list;
use crate::{declare_rule, Context};
use netlint_analysis::l2::Blocking;
use netlint_analysis::stp::{End, PortRef};
use netlint_analysis::{Break, BridgeId, NotCarried, Which};
use netlint_model::{Diagnostic, HostId, NetworkId};
use std::collections::{BTreeMap, BTreeSet};

declare_rule!(
    RULE,
    id: "stp-vlan-partition",
    category: "stp",
    severity: Error,
    summary: "The spanning tree blocks the only link that carries a VLAN between two parts of the network: a network is cut in the healthy state.",
    check: check,
);

/// The host pairs a cut separates on one network, and the bridges of the
/// first pair.
type CutPairs = (Vec<(HostId, HostId)>, (BridgeId, BridgeId));

/// The two forwarding components a blocked port joins (smaller first).
type Sides = (usize, usize);

/// Everything one cut takes, for one tree: the blocked ports that carry
/// the VLANs between the same two parts (parallel links; the first leads),
/// each with its blocking end.
struct Cut {
    blocking: Blocking,
    ports: Vec<(usize, Blocking)>,
    networks: BTreeMap<NetworkId, CutPairs>,
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let design = cx.design;
    let topo = cx.topology();
    let fwd = cx.forwarding();
    let mut cuts: BTreeMap<Vec<(usize, usize, End)>, Cut> = BTreeMap::new();
    // A block cuts a pair only on a VLAN whose carried ports join what its
    // forwarding ports leave apart (or that splits an MLAG domain): the
    // broken class pairs of groups without one are not walked.
    let mut may_block: BTreeMap<Option<u16>, bool> = BTreeMap::new();
    for g in cx.reachability().groups() {
        let blocks = g.vlans().iter().any(|v| {
            *may_block
                .entry(*v)
                .or_insert_with(|| fwd.vlan(*v).is_some_and(|view| view.may_block()))
        });
        if !blocks {
            continue;
        }
        // Per class pair, in the order of the pairs: its pairs are cut
        // alike (the same ports, the same VLAN).
        for cp in g.class_pairs(Which::Broken) {
            let walked = cp.walk(design, topo, fwd);
            let Some(Break::Blocked { ports, from, to }) = &walked.broken else {
                continue;
            };
            let network = cp.network();
            // The network's VLAN on the switches (an untagged network's
            // frames land in the hosts' ports' native VLAN).
            let vlan = netlint_analysis::l2::ports::host_vlan(design, topo, network, cp.first().0);
            let Some(view) = fwd.vlan(vlan) else { continue };
            // The blocked ports, grouped by the two parts each joins.
            let sides = |q: usize| {
                let p = &topo.ports[q];
                let (x, y) = (view.component[p.a.0], view.component[p.b.0]);
                (x.min(y), x.max(y))
            };
            let mut groups: Vec<(Sides, Vec<(usize, Blocking)>)> = Vec::new();
            for &p in ports {
                let Some(b) = fwd.blocking_ends(topo, p, vlan).first().copied() else {
                    continue;
                };
                match groups.iter_mut().find(|(s, _)| *s == sides(p)) {
                    Some((_, g)) => g.push((p, b)),
                    None => groups.push((sides(p), vec![(p, b)])),
                }
            }
            for (_, group) in groups {
                let key: Vec<(usize, usize, End)> =
                    group.iter().map(|(p, b)| (*p, b.tree, b.end)).collect();
                let cut = cuts.entry(key).or_insert(Cut {
                    blocking: group[0].1,
                    ports: group,
                    networks: BTreeMap::new(),
                });
                cut.networks
                    .entry(network)
                    .or_insert((Vec::new(), (*from, *to)))
                    .0
                    .extend(cp.pairs());
            }
        }
    }
    let budget = Budget::new(cx);
    for (key, cut) in cuts {
        let (port, tree, _) = key[0];
        out.push(finding(cx, port, tree, &cut, &budget));
    }
}

fn finding(cx: &Context<'_>, port: usize, tree: usize, cut: &Cut, budget: &Budget) -> Diagnostic {
    let design = cx.design;
    let topo = cx.topology();
    let fwd = cx.forwarding();
    let stp = &fwd.stp;
    let p = &topo.ports[port];
    let link = design.link(p.link);
    let here = cut.blocking.bridge;
    // Each network's VLAN on the switches, as its first cut pair has it.
    let net_vlan = |n: &NetworkId| match cut.networks.get(n).and_then(|c| c.0.first()) {
        Some((a, _)) => netlint_analysis::l2::ports::host_vlan(design, topo, *n, *a),
        None => design.network(*n).vlan_id(),
    };
    let vlans: Vec<Option<u16>> = {
        let set: BTreeSet<Option<u16>> = cut.networks.keys().map(net_vlan).collect();
        set.into_iter().collect()
    };
    let nets: Vec<String> = cut
        .networks
        .keys()
        .map(|n| network_text(design, *n))
        .collect();
    let nets_text = match nets.len() {
        1 => format!("network {}", nets[0]),
        _ => format!("networks {}", and_list(&nets)),
    };

    // The hosts cut off from each other.
    let pairs: BTreeSet<(HostId, HostId)> = cut
        .networks
        .values()
        .flat_map(|(v, _)| v.iter().copied())
        .collect();
    let hosts: BTreeSet<HostId> = pairs.iter().flat_map(|(a, b)| [*a, *b]).collect();
    let names = |hs: &BTreeSet<HostId>| -> Vec<String> {
        hs.iter().map(|h| design.host(*h).name.clone()).collect()
    };
    let n = hosts.len();
    let who = if pairs.len() == n * (n - 1) / 2 {
        format!(
            "{} cannot reach each other on {}",
            host_list(&names(&hosts)),
            if nets.len() == 1 { "it" } else { "them" }
        )
    } else {
        let list: Vec<String> = pairs
            .iter()
            .map(|(a, b)| format!("`{}`–`{}`", design.host(*a).name, design.host(*b).name))
            .collect();
        format!("host pairs {} cannot reach each other", list.join(", "))
    };

    // Are these ports (parallel links between the same two parts) alone
    // the missing piece?
    let sole = cut.networks.iter().all(|(net, (_, (from, to)))| {
        let Some(view) = fwd.vlan(net_vlan(net)) else {
            return false;
        };
        let mut mask = view.forwarding.clone();
        for (q, _) in &cut.ports {
            mask[*q] = true;
        }
        view.path(topo, *from, *to, &mask).is_some()
    });
    let vtext = vlans_text(&vlans);
    let label = stp.tree_label(tree, Some(here.0));
    let names: Vec<String> = cut
        .ports
        .iter()
        .map(|(q, _)| port_name(design, topo, *q))
        .collect();
    let several = names.len() > 1;
    let mut message = format!(
        "{label} blocks {} between {} and {}{}: {nets_text} {} cut, and {who}.",
        and_list(&names),
        bridge_name(design, topo, p.a),
        bridge_name(design, topo, p.b),
        match (sole, several) {
            (true, false) => format!(", the only link that carries {vtext} there"),
            (true, true) if names.len() == 2 => {
                format!(", both links that carry {vtext} there")
            }
            (true, true) => format!(", all {} links that carry {vtext} there", names.len()),
            (false, false) => format!(", one of the links every path carrying {vtext} needs"),
            (false, true) => format!(
                ", the {} parallel links one of which every path carrying {vtext} needs",
                names.len()
            ),
        },
        if nets.len() == 1 { "is" } else { "are" },
    );
    if let Some(root) = stp.root_message(tree, here.0) {
        message.push_str(&format!(" {root}."));
    }
    for (q, b) in &cut.ports {
        if let Some(ex) = stp.explain_port(b.tree, PortRef::new(*q, b.end)) {
            message.push_str(&format!(
                " {}'s end of {} is {}.",
                bridge_name(design, topo, b.bridge),
                port_name(design, topo, *q),
                stp.port_reason(&ex)
            ));
        }
    }

    // Where the tree sends these VLANs instead, and why that path does not carry them.
    let (first_net, (_, (from, to))) = cut.networks.iter().next().expect("a cut has a network");
    let first_vlan = net_vlan(first_net);
    let mut related: Vec<(netlint_model::Span, String)> = Vec::new();
    let mut fix_allow: Option<String> = None;
    if let Some(path) = fwd.tree_path(topo, first_vlan, *from, *to) {
        let mut not_allowed: Vec<usize> = Vec::new();
        let mut not_defined: Vec<netlint_model::SwitchId> = Vec::new();
        for &q in &path {
            for v in &vlans {
                let Some(view) = fwd.vlan(*v) else { continue };
                if view.not_carried[q] == Some(NotCarried::NotAllowed) && !not_allowed.contains(&q)
                {
                    not_allowed.push(q);
                }
                let port = &topo.ports[q];
                for s in port.switches() {
                    if !design.switch(s).defines_vlan(*v) && !not_defined.contains(&s) {
                        not_defined.push(s);
                    }
                }
            }
        }
        let mut why = Vec::new();
        if !not_allowed.is_empty() {
            let links: Vec<String> = not_allowed
                .iter()
                .map(|q| port_name(design, topo, *q))
                .collect();
            why.push(format!(
                "{} {} not allow them",
                and_list(&links),
                if links.len() == 1 { "does" } else { "do" }
            ));
            for q in &not_allowed {
                let l = design.link(topo.ports[*q].link);
                if let Some(v) = &l.vlans {
                    related.push((
                        v.span,
                        format!("`{}` allows only {}", l.name, vlan_set_text(&v.value)),
                    ));
                }
            }
        }
        if !not_defined.is_empty() {
            let sws: Vec<String> = not_defined
                .iter()
                .map(|s| format!("`{}`", design.switch(*s).name))
                .collect();
            why.push(format!(
                "{} {} not define them",
                and_list(&sws),
                if sws.len() == 1 { "does" } else { "do" }
            ));
            for s in &not_defined {
                let sw = design.switch(*s);
                if let Some(v) = &sw.vlans {
                    related.push((
                        v.span,
                        format!("`{}` defines only {}", sw.name, vlan_set_text(&v.value)),
                    ));
                }
            }
        }
        if !path.is_empty() && !why.is_empty() {
            message.push_str(&format!(
                " The tree forwards {vtext} along {} instead, where {}.",
                path_text(design, topo, *from, &path),
                and_list(&why)
            ));
            let mut parts = Vec::new();
            if !not_allowed.is_empty() {
                let links: Vec<String> = not_allowed
                    .iter()
                    .map(|q| port_name(design, topo, *q))
                    .collect();
                parts.push(format!("allow {vtext} on {}", and_list(&links)));
            }
            if !not_defined.is_empty() {
                let sws: Vec<String> = not_defined
                    .iter()
                    .map(|s| format!("`{}`", design.switch(*s).name))
                    .collect();
                parts.push(format!("define them on {}", and_list(&sws)));
            }
            fix_allow = Some(format!(
                "{}, so that the path the tree forwards carries them",
                parts.join(" and ")
            ));
        }
    }

    // Fixes, each checked by recomputing the spanning tree.
    let mut host_bridges: Vec<BridgeId> = Vec::new();
    for (_, (from, to)) in cut.networks.values() {
        for b in [*from, *to] {
            if !host_bridges.contains(&b) {
                host_bridges.push(b);
            }
        }
    }
    let problem = Problem {
        port,
        blocking: cut.blocking,
        vlans: vlans.clone(),
        host_bridges,
        pairs: cut
            .networks
            .iter()
            .flat_map(|(n, (ps, _))| ps.iter().map(move |(a, b)| (*n, *a, *b)))
            .collect(),
    };
    let suggested = suggestions(cx, &problem, budget);
    let fix = suggested.as_deref().and_then(|s| first_fix(cx, s));
    let checked: Option<Vec<String>> =
        suggested.map(|s| s.into_iter().map(|(text, _)| text).collect());
    let mut fixes = checked.clone().unwrap_or_default();
    fixes.extend(fix_allow);
    let unchecked = budget.unchecked();
    let help = if checked.is_none() {
        let mut h = format!(
            "let a path that carries {vtext} forward: an MSTP instance for these VLANs rooted at the switches the hosts hang off, a port cost or root priority that keeps {} forwarding, or the VLANs allowed on the path the tree forwards; {unchecked}",
            port_name(design, topo, port)
        );
        if let Some(f) = fixes.first() {
            h.push_str(&format!(" (or: {f})"));
        }
        h
    } else if fixes.is_empty() {
        format!(
            "let a path that carries {vtext} forward: change the root, the port costs or the allowed VLANs (`netlint topology` shows every port's role and cost)"
        )
    } else {
        let numbered: Vec<String> = fixes
            .iter()
            .enumerate()
            .map(|(i, f)| format!("({}) {f}", i + 1))
            .collect();
        format!(
            "any one of these fixes it (each checked on a copy of the design: the spanning tree recomputed, these VLANs carried and no new spanning-tree finding; `netlint topology` shows every port's role and cost): {}",
            numbered.join("; ")
        )
    };

    let mut d = cx
        .finding(&RULE, link.element(), link.span, message)
        .with_help(help)
        .with_fix(fix);
    for (q, _) in &cut.ports[1..] {
        let other = design.link(topo.ports[*q].link);
        if other.index != link.index {
            d = d.with_related(
                other.span,
                format!("`{}` carries {vtext} there too, and is blocked", other.name),
            );
        }
    }
    if let Some(root) = stp.tree(tree).and_then(|t| t.root_of(here.0)) {
        let (span, sw) = priority_line(design, topo, BridgeId(root), tree_priority(fwd, tree));
        d = d.with_related(
            span,
            format!(
                "`{}` is the root of {}",
                design.switch(sw).name,
                stp.tree_label(tree, Some(here.0))
                    .split(" rooted at ")
                    .next()
                    .unwrap_or("the tree")
            ),
        );
    }
    for (span, label) in related {
        d = d.with_related(span, label);
    }
    d
}

/// "VLAN 10", "VLANs 10, 100".
fn vlan_set_text(set: &netlint_model::VlanSet) -> String {
    if set.len() == 1 {
        format!("VLAN {set}")
    } else {
        format!("VLANs {set}")
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    /// Two 10G switches with an ISL carrying every VLAN, each uplinked to a
    /// 1G core that carries only VLAN 10: the core-rooted RSTP tree blocks
    /// the ISL, and VLAN 20 has no other way.
    pub(crate) const TRIANGLE: &str = r#"
[design]
name = "tri"
[networks.mgmt]
role = "management"
vlan = 10
[networks.csv]
role = "csv"
vlan = 20
[networks.lm]
role = "live-migration"
vlan = 30
[switches.core]
tier = "core"
vlans = [10]
stp = { mode = "MODE", priority = 4096 }
[switches.tor-a]
stp = { mode = "MODE", mac = "00:00:00:00:00:0a" }
[switches.tor-b]
stp = { mode = "MODE", mac = "00:00:00:00:00:0b" }
[[links]]
name = "isl"
a = "tor-a"
b = "tor-b"
speed = "10G"
members = 2
[[links]]
name = "up-a"
a = "tor-a"
b = "core"
speed = "1G"
members = 2
vlans = [10]
[[links]]
name = "up-b"
a = "tor-b"
b = "core"
speed = "1G"
members = 2
vlans = [10]
[profiles.n.nics.A]
speed = "10G"
switch = "tor-a"
[profiles.n.nics.B]
speed = "10G"
switch = "tor-b"
[profiles.n.vswitches.S]
uplinks = ["A", "B"]
[profiles.n.vswitches.S.vnics]
Mgmt = { network = "mgmt" }
CSV = { network = "csv" }
LM = { network = "lm" }
[hosts.h1]
profile = "n"
[hosts.h2]
profile = "n"
[hosts.h3]
profile = "n"
"#;

    #[test]
    fn rstp_blocking_the_only_cluster_link_is_one_finding_with_the_whole_story() {
        let f = findings(&TRIANGLE.replace("MODE", "rstp"), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        let d = &f[0];
        assert_eq!(d.element(), "links.isl");
        let m = &d.message;
        assert!(m.starts_with("the RSTP tree rooted at core blocks `isl` between `tor-a` and `tor-b`, the only link that carries VLANs 20, 30 there"), "{m}");
        assert!(
            m.contains("networks `csv` (VLAN 20) and `lm` (VLAN 30) are cut"),
            "{m}"
        );
        assert!(
            m.contains("hosts `h1`, `h2`, `h3` cannot reach each other on them"),
            "{m}"
        );
        assert!(m.contains("core is root on its priority 4096"), "{m}");
        // tor-b's end blocks: 2 x 1G uplink costs 10000, the ISL 1000 more than tor-a's 10000.
        assert!(m.contains("`tor-b`'s end of `isl` is alternate"), "{m}");
        assert!(
            m.contains("would cost 11000, more than the 10000 through its root port on up-b"),
            "{m}"
        );
        assert!(m.contains("along `tor-a` → `core` → `tor-b` over `up-a`, `up-b` instead, where `up-a` and `up-b` do not allow them and `core` does not define them"), "{m}");
        let help = d.help.as_deref().unwrap();
        assert!(
            help.contains("add `1 = [20, 30]`") || help.contains("`instances = { 1 = [20, 30] }`"),
            "{help}"
        );
        assert!(
            help.contains("`instance_priority = { 1 = 4096 }` on `tor-a`"),
            "{help}"
        );
        assert!(
            help.contains("`instance_priority = { 1 = 61440 }` on `core`"),
            "{help}"
        );
        assert!(
            help.contains("raise the cost of `up-b`: `stp_cost = 12000` (more than 11000)"),
            "{help}"
        );
        assert!(help.contains("`priority = 0` on `tor-a`"), "{help}");
        assert!(
            help.contains("allow VLANs 20, 30 on `up-a` and `up-b` and define them on `core`"),
            "{help}"
        );
        // Related: the root's priority line, then the other path's vlans lines.
        let labels: Vec<&str> = d.related.iter().map(|l| l.message.as_str()).collect();
        assert_eq!(labels[0], "`core` is the root of the RSTP tree");
        assert!(labels.contains(&"`up-a` allows only VLAN 10"), "{labels:?}");
        assert!(
            labels.contains(&"`core` defines only VLAN 10"),
            "{labels:?}"
        );
    }

    #[test]
    fn parallel_links_blocked_together_are_one_cut_naming_each() {
        // The triangle's ISL as two independent fibres.
        let two = TRIANGLE.replace("MODE", "rstp").replace(
            "name = \"isl\"\na = \"tor-a\"\nb = \"tor-b\"\nspeed = \"10G\"\nmembers = 2\n",
            "name = \"fibre-1\"\na = \"tor-a\"\nb = \"tor-b\"\nspeed = \"10G\"\n[[links]]\nname = \"fibre-2\"\na = \"tor-a\"\nb = \"tor-b\"\nspeed = \"10G\"\n",
        );
        assert!(two.contains("fibre-2"));
        let f = findings(&two, &super::RULE);
        assert_eq!(f.len(), 1, "one cut, one finding: {f:#?}");
        let m = &f[0].message;
        assert!(m.starts_with("the RSTP tree rooted at core blocks `fibre-1` and `fibre-2` between `tor-a` and `tor-b`, both links that carry VLANs 20, 30 there"), "{m}");
        assert!(!m.contains("the only link"), "{m}");
        assert!(m.contains("`tor-b`'s end of `fibre-1` is alternate"), "{m}");
        assert!(m.contains("`tor-b`'s end of `fibre-2` is alternate"), "{m}");
        let labels: Vec<&str> = f[0].related.iter().map(|l| l.message.as_str()).collect();
        assert!(
            labels.contains(&"`fibre-2` carries VLANs 20, 30 there too, and is blocked"),
            "{labels:?}"
        );
        // A lag = "none" bundle: its cables are parallel ports of one link.
        let bundle = TRIANGLE.replace("MODE", "rstp").replace(
            "members = 2\n[[links]]\nname = \"up-a\"",
            "members = 2\nlag = \"none\"\n[[links]]\nname = \"up-a\"",
        );
        let f = findings(&bundle, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        let m = &f[0].message;
        assert!(m.starts_with("the RSTP tree rooted at core blocks cable 1 of `isl` and cable 2 of `isl` between `tor-a` and `tor-b`, both links that carry VLANs 20, 30 there"), "{m}");
        assert!(
            m.contains("`tor-b`'s end of cable 2 of `isl` is alternate"),
            "{m}"
        );
        // Cables of one link add no related line of their own.
        assert!(f[0].related.iter().all(|l| !l.message.contains("too")));
    }

    #[test]
    fn mstp_with_the_cluster_vlans_in_their_own_instance_is_silent() {
        let src = TRIANGLE
            .replace("MODE", "mstp")
            .replace(
                "priority = 4096 }",
                "priority = 4096, region = \"r\", revision = 1, instances = { 1 = [20, 30] }, instance_priority = { 1 = 61440 } }",
            )
            .replace(
                "0a\" }",
                "0a\", region = \"r\", revision = 1, instances = { 1 = [20, 30] }, instance_priority = { 1 = 4096 } }",
            )
            .replace(
                "0b\" }",
                "0b\", region = \"r\", revision = 1, instances = { 1 = [20, 30] }, instance_priority = { 1 = 8192 } }",
            );
        assert!(findings(&src, &super::RULE).is_empty());
    }

    #[test]
    fn a_vlan_allowed_nowhere_is_not_a_spanning_tree_problem() {
        let src = TRIANGLE
            .replace("MODE", "rstp")
            .replace("name = \"isl\"", "name = \"isl\"\nvlans = [10]");
        assert!(findings(&src, &super::RULE).is_empty());
    }

    /// An untagged network whose hosts' ports put it in native VLAN 20 is
    /// cut where VLAN 20 is: the finding reads that VLAN's tree.
    #[test]
    fn an_untagged_network_is_cut_in_its_native_vlan() {
        let src = TRIANGLE
            .replace("MODE", "rstp")
            .replace(
                "[networks.csv]\nrole = \"csv\"\nvlan = 20\n",
                "[networks.csv]\nrole = \"csv\"\n",
            )
            .replace(
                "[switches.tor-a]\n",
                "[switches.tor-a]\nhost_ports = { native_vlan = 20 }\n",
            )
            .replace(
                "[switches.tor-b]\n",
                "[switches.tor-b]\nhost_ports = { native_vlan = 20 }\n",
            );
        let f = findings(&src, "stp-vlan-partition");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.starts_with("the RSTP tree rooted at core blocks `isl` between `tor-a` and `tor-b`, the only link that carries VLANs 20, 30 there"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn pvst_runs_a_tree_per_vlan_and_keeps_the_isl_for_vlan_20() {
        let src = TRIANGLE.replace("MODE", "rapid-pvst");
        assert!(findings(&src, &super::RULE).is_empty());
    }

    #[test]
    fn hosts_on_one_switch_are_not_cut() {
        let src = TRIANGLE
            .replace("MODE", "rstp")
            .replace("switch = \"tor-b\"", "switch = \"tor-a\"");
        assert!(findings(&src, &super::RULE).is_empty());
    }

    #[test]
    fn fixes_are_checked_for_the_first_findings_of_a_large_design() {
        // Twenty ToR pairs under one core, each ISL the only link for VLAN 20.
        let mut src = String::from(
            "[design]\nname = \"many\"\n[networks.csv]\nrole = \"csv\"\nvlan = 20\n[switches.core]\nvlans = [10]\nstp = { priority = 4096 }\n",
        );
        for i in 0..20 {
            for side in ["a", "b"] {
                src.push_str(&format!(
                    "[switches.t{i:02}{side}]\n[[links]]\nname = \"up{i:02}{side}\"\na = \"t{i:02}{side}\"\nb = \"core\"\nspeed = \"1G\"\nvlans = [10]\n[hosts.h{i:02}{side}.nics.A]\nspeed = \"10G\"\nswitch = \"t{i:02}{side}\"\nnetworks = [\"csv\"]\n"
                ));
            }
            src.push_str(&format!(
                "[[links]]\nname = \"isl{i:02}\"\na = \"t{i:02}a\"\nb = \"t{i:02}b\"\nspeed = \"10G\"\n"
            ));
        }
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 20);
        let helps: Vec<&str> = f.iter().map(|d| d.help.as_deref().unwrap()).collect();
        assert!(
            helps[0].starts_with("any one of these fixes it"),
            "{}",
            helps[0]
        );
        assert!(
            helps[19].contains("too many such findings to check a fix for each"),
            "{}",
            helps[19]
        );
        assert!(
            helps[19].contains("(or: allow VLAN 20 on `up19a` and `up19b`"),
            "{}",
            helps[19]
        );
    }
}
