//! `stp-suboptimal-path`: a network's forwarding path between two of its
//! hosts crosses a link slower than their adapters because the spanning
//! tree blocked a faster, more direct link.

use super::fixes::{first_fix, suggestions, Budget, Problem};
use super::{
    and_list, bridge_name, network_text, path_text, port_name, port_speed, priority_line,
    tree_priority,
};
use crate::phrases::stp::StpWords;
use crate::phrases::words::host_list;
use crate::phrases::words::speed_text;
use crate::{declare_rule, Context};
use netlint_analysis::BridgeId;
use netlint_model::fast_hash::Map as HashMap;
use netlint_model::{Diagnostic, HostId, NetworkId, Speed};
use std::collections::{BTreeMap, BTreeSet};

declare_rule!(
    RULE,
    id: "stp-suboptimal-path",
    category: "stp",
    severity: Warning,
    summary: "A network's path between two hosts crosses a link slower than their adapters because the spanning tree blocked the direct link.",
    check: check,
);

struct Slow {
    from: BridgeId,
    to: BridgeId,
    path: Vec<usize>,
    /// The slowest port on the path.
    slowest: usize,
    /// The hosts' adapter speed (the slower end of each pair, smallest).
    adapters: Speed,
    /// The per-cable speed the blocked path would give.
    better: Speed,
    hosts: BTreeSet<HostId>,
    /// The first host pair of each class pair on the path: the pairs of a
    /// class pair reach alike under any spanning tree, so the fix check
    /// asks one of them.
    pairs: BTreeSet<(HostId, HostId)>,
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    check_with(cx, out, true);
}

/// The rule, looking only at the class pairs it finds slow
/// (`candidates_only`, see [`candidates`]) or at every class pair that
/// reaches (what the tests compare it with).
fn check_with(cx: &Context<'_>, out: &mut Vec<Diagnostic>, candidates_only: bool) {
    let design = cx.design;
    let topo = cx.topology();
    let fwd = cx.forwarding();
    // (network, blocked ports, path) -> what it costs
    let mut slow: BTreeMap<(NetworkId, Vec<usize>, Vec<usize>), Slow> = BTreeMap::new();
    // The widest path per VLAN and bridge pair, asked for by many host pairs.
    let mut widest: HashMap<(Option<u16>, BridgeId, BridgeId), Option<Vec<usize>>> =
        HashMap::default();
    // A path is slower than the hosts' adapters only over a port slower
    // than the fastest adapter: a VLAN that forwards on no such port has
    // nothing to find, whatever its host pairs.
    let fastest = design
        .hosts
        .iter()
        .flat_map(|h| h.nics.iter().filter_map(|n| n.known_speed()))
        .max();
    let may_slow: Vec<bool> = design
        .networks
        .iter()
        .map(|n| {
            fwd.vlan(n.vlan_id()).is_some_and(|view| {
                let fastest = fastest.unwrap_or_default();
                // A port of unknown speed is never found slower.
                (0..topo.ports.len()).any(|p| {
                    view.forwarding[p] && topo.ports[p].member_speed.is_some_and(|s| s < fastest)
                })
            })
        })
        .collect();
    // Decided per pair of host classes: the hosts of a class have the same
    // adapters (NICs, speeds, switches), so every host pair of a class pair
    // has the paths and speeds of the pair walked for it. Only the class
    // pairs the rule finds are looked at ([`candidates`]), in the order of
    // the pairs.
    let mut pairs: Vec<netlint_analysis::ClassPair<'_>> = Vec::new();
    for (ni, _) in design.networks.iter().enumerate() {
        if may_slow[ni] {
            pairs.extend(if candidates_only {
                candidates(cx, NetworkId(ni))
            } else {
                cx.reachability()
                    .class_pairs(netlint_analysis::Which::Reaching, Some(NetworkId(ni)))
            });
        }
    }
    pairs.sort_by_key(|cp| (cp.network(), cp.order()));
    for cp in pairs {
        let (a, b) = cp.walked_pair();
        let network = cp.network();
        let vlan = design.network(network).vlan_id();
        let Some(view) = fwd.vlan(vlan) else { continue };
        for ap in cx.adapter_paths(network, a, b).iter() {
            let Some(path) = ap.path.as_ref().filter(|p| !p.is_empty()) else {
                continue;
            };
            let Some(&slowest) = path.iter().min_by_key(|p| topo.ports[**p].member_speed) else {
                continue;
            };
            // A link or adapter of unknown speed on the way: no slower
            // path can be told (`speed-unknown` names the check).
            let (Some(speed), Some(a_speed), Some(b_speed)) = (
                topo.ports[slowest].member_speed,
                design.host(a).nic(ap.a_nic).known_speed(),
                design.host(b).nic(ap.b_nic).known_speed(),
            ) else {
                continue;
            };
            let adapters = a_speed.min(b_speed);
            if speed >= adapters {
                continue;
            }
            let wide = widest
                .entry((vlan, ap.from, ap.to))
                .or_insert_with(|| fwd.widest_carried_path(topo, vlan, ap.from, ap.to));
            let Some(wide) = wide.as_ref() else {
                continue;
            };
            let Some(better) = wide
                .iter()
                .map(|p| topo.ports[*p].member_speed)
                .min()
                .unwrap_or(Some(adapters))
            else {
                continue;
            };
            if better <= speed {
                continue;
            }
            let blocked: Vec<usize> = wide
                .iter()
                .copied()
                .filter(|p| !view.forwarding[*p])
                .collect();
            if blocked.is_empty() {
                continue;
            }
            // One direction per bridge pair.
            let (from, to, path) = if ap.from <= ap.to {
                (ap.from, ap.to, path.clone())
            } else {
                (ap.to, ap.from, path.iter().rev().copied().collect())
            };
            let e = slow
                .entry((network, blocked, path.clone()))
                .or_insert(Slow {
                    from,
                    to,
                    path,
                    slowest,
                    adapters,
                    better,
                    hosts: BTreeSet::new(),
                    pairs: BTreeSet::new(),
                });
            e.adapters = e.adapters.min(adapters);
            e.hosts.extend(cp.firsts().chain(cp.seconds()));
            e.pairs.extend(cp.pairs().next());
        }
    }
    let budget = Budget::new(cx);
    for ((net, blocked, _), s) in slow {
        out.push(finding(cx, net, &blocked, &s, &budget));
    }
}

/// The class pairs of `network` that the rule finds slow: those that
/// reach each other with a pair of adapters (both of known speed, in one
/// forwarding component) whose forwarding path's slowest port is of known
/// speed `s`, slower than both adapters, with no port of unknown speed on
/// it, while ports faster than `s` that carry the VLAN join the two
/// bridges. Where the VLAN forwards on a forest the path between two
/// bridges is the only one, so each of those is a question of components:
/// per port speed `s`, two bridges' path has its slowest port at `s`
/// exactly when the forwarding ports of speed `s` or more (or unknown)
/// join them and those faster than `s` (or unknown) do not; it has no port
/// of unknown speed when the forwarding ports of known speed join them;
/// and a faster carried path exists when the carried ports faster than
/// `s` join them (the widest path then has a port the tree blocks: it is
/// not the forwarding one). Classes are registered per key, forwarding
/// component and speed under those components, and only the pairs that
/// answer all of it are listed: what a network without such a path costs
/// is a pass over its classes. Elsewhere, every class pair that reaches.
fn candidates<'r>(cx: &'r Context<'_>, network: NetworkId) -> Vec<netlint_analysis::ClassPair<'r>> {
    use netlint_analysis::Which;
    let (design, topo, fwd) = (cx.design, cx.topology(), cx.forwarding());
    let reach = cx.reachability();
    let Some(view) = fwd.vlan(design.network(network).vlan_id()) else {
        return Vec::new();
    };
    if !view.forwards_on_forest(topo) {
        return reach.class_pairs(Which::Reaching, Some(network));
    }
    let components = |keep: &dyn Fn(usize) -> bool| {
        let edges = topo
            .ports
            .iter()
            .enumerate()
            .filter(|(i, _)| keep(*i))
            .map(|(_, p)| (p.a.0, p.b.0));
        netlint_analysis::l2::components(topo.bridges.len(), edges)
    };
    let speed = |i: usize| topo.ports[i].member_speed;
    let forwards = |i: usize| view.forwarding[i];
    let carried = |i: usize| view.not_carried[i].is_none();
    // The speeds a forwarding port has: what a slowest port can be.
    let levels: Vec<Speed> = {
        let set: BTreeSet<Speed> = (0..topo.ports.len())
            .filter(|&i| forwards(i))
            .filter_map(speed)
            .collect();
        set.into_iter().collect()
    };
    // Per speed: the bridges' components over the forwarding ports at
    // least that fast or unknown, over those faster or unknown, and over
    // the carried ports faster; and over the forwarding ports of known
    // speed.
    let at_least: Vec<Vec<usize>> = levels
        .iter()
        .map(|&l| components(&|i| forwards(i) && speed(i).is_none_or(|s| s >= l)))
        .collect();
    let above: Vec<Vec<usize>> = levels
        .iter()
        .map(|&l| components(&|i| forwards(i) && speed(i).is_none_or(|s| s > l)))
        .collect();
    let faster: Vec<Vec<usize>> = levels
        .iter()
        .map(|&l| components(&|i| carried(i) && speed(i).is_some_and(|s| s > l)))
        .collect();
    let known = components(&|i| forwards(i) && speed(i).is_some());
    let mut out = Vec::new();
    for g in reach.groups().filter(|g| g.network() == network) {
        // Per class: its adapters of known speed (speed, switch component,
        // bridge).
        let adapters: Vec<Vec<(Speed, usize, usize)>> = (0..g.classes() as u32)
            .map(|c| {
                let h = g.members()[g.hosts_of(c)[0]];
                fwd.cabled_adapters(topo, h, network)
                    .into_iter()
                    .filter_map(|(n, s)| {
                        let speed = design.host(h).nic(n).known_speed()?;
                        Some((speed, view.switch_component(topo, s), topo.bridge_of[s.0].0))
                    })
                    .collect()
            })
            .collect();
        // (key, switch component, speed, and the components of the path's
        // other conditions) -> per component above that speed, the classes
        // with an adapter there faster than it.
        type Where = (
            netlint_analysis::ReachKey,
            usize,
            usize,
            usize,
            usize,
            usize,
        );
        let mut registry: BTreeMap<Where, BTreeMap<usize, Vec<u32>>> = BTreeMap::new();
        let mut chosen: BTreeSet<(u32, u32)> = BTreeSet::new();
        for (c, ads) in adapters.iter().enumerate() {
            let c = c as u32;
            let Some(keys) = g.keys(c) else {
                // A class with a direct cable: every class it reaches.
                for y in 0..g.classes() as u32 {
                    chosen.insert((c.min(y), c.max(y)));
                }
                continue;
            };
            for &(sp, comp, b) in ads {
                for (l, _) in levels.iter().enumerate().filter(|(_, l)| **l < sp) {
                    for k in keys {
                        let at = (*k, comp, l, at_least[l][b], faster[l][b], known[b]);
                        let classes = registry
                            .entry(at)
                            .or_default()
                            .entry(above[l][b])
                            .or_default();
                        if classes.last() != Some(&c) {
                            classes.push(c);
                        }
                    }
                }
            }
        }
        for parts in registry.values().filter(|p| p.len() > 1) {
            let parts: Vec<&Vec<u32>> = parts.values().collect();
            for (i, xs) in parts.iter().enumerate() {
                for ys in &parts[i + 1..] {
                    for &x in xs.iter() {
                        for &y in ys.iter() {
                            chosen.insert((x.min(y), x.max(y)));
                        }
                    }
                }
            }
        }
        for (x, y) in chosen {
            let orders: &[(u32, u32)] = if x == y { &[(x, x)] } else { &[(x, y), (y, x)] };
            for &(p, q) in orders {
                if g.has_pair(p, q) && g.reaches(p, q) {
                    out.push(g.class_pair(p, q));
                }
            }
        }
    }
    out
}

fn finding(
    cx: &Context<'_>,
    net: NetworkId,
    blocked: &[usize],
    s: &Slow,
    budget: &Budget,
) -> Diagnostic {
    let design = cx.design;
    let topo = cx.topology();
    let fwd = cx.forwarding();
    let stp = &fwd.stp;
    let network = design.network(net);
    let vlan = network.vlan_id();
    let first = blocked[0];
    let cause = fwd.blocking_ends(topo, first, vlan).first().copied();
    let blocked_names: Vec<String> = blocked
        .iter()
        .map(|p| format!("{} ({})", port_name(design, topo, *p), port_speed(topo, *p)))
        .collect();
    let slowest = &topo.ports[s.slowest];
    let who: Vec<String> = s
        .hosts
        .iter()
        .map(|h| design.host(*h).name.clone())
        .collect();
    let by = match cause {
        Some(c) => stp.tree_label(c.tree, Some(c.bridge.0)),
        None => "the spanning tree".to_string(),
    };
    let mut message = format!(
        "network {} runs between {} and {} along {}; its slowest link {} gives {} per cable ({}), less than the hosts' {} adapters, because {by} blocks {}, which carries it at {} per cable. Affects {}.",
        network_text(design, net),
        bridge_name(design, topo, s.from),
        bridge_name(design, topo, s.to),
        path_text(design, topo, s.from, &s.path),
        port_name(design, topo, s.slowest),
        speed_text(slowest.member_speed),
        port_speed(topo, s.slowest),
        s.adapters,
        and_list(&blocked_names),
        s.better,
        host_list(&who),
    );
    if let Some(c) = cause {
        if let Some(ex) =
            stp.explain_port(c.tree, netlint_analysis::stp::PortRef::new(first, c.end))
        {
            message.push_str(&format!(
                " {}'s end of {} is {}.",
                bridge_name(design, topo, c.bridge),
                port_name(design, topo, first),
                stp.port_reason(&ex)
            ));
        }
    }

    let mut fixes = Vec::new();
    let mut fix = None;
    let mut checked = true;
    if let Some(c) = cause {
        let problem = Problem {
            port: first,
            blocking: c,
            vlans: vec![vlan],
            host_bridges: vec![s.from, s.to],
            pairs: s.pairs.iter().map(|(a, b)| (net, *a, *b)).collect(),
        };
        match suggestions(cx, &problem, budget) {
            Some(f) => {
                fix = first_fix(cx, &f);
                fixes = f.into_iter().map(|(text, _)| text).collect();
            }
            None => checked = false,
        }
    }
    let accept = format!(
        "or accept it: one flow of `{}` between the switches gets at most {}",
        network.name,
        speed_text(slowest.member_speed)
    );
    let unchecked = budget.unchecked();
    let help = if !checked {
        format!(
            "let the faster link forward `{}`: an MSTP instance for its VLAN rooted at the switches the hosts hang off, or a port cost or root priority that keeps {} forwarding; {unchecked}; {accept}",
            network.name,
            port_name(design, topo, first)
        )
    } else if fixes.is_empty() {
        format!(
            "let the faster link forward `{}`: change the root or the port costs (`netlint topology` shows every port's role and cost); {accept}",
            network.name
        )
    } else {
        let numbered: Vec<String> = fixes
            .iter()
            .enumerate()
            .map(|(i, f)| format!("({}) {f}", i + 1))
            .collect();
        format!(
            "let {} forward `{}` (each fix checked on a copy of the design: the spanning tree recomputed, this path fixed and no new spanning-tree finding): {}; {accept}",
            port_name(design, topo, first),
            network.name,
            numbered.join("; ")
        )
    };
    let link = design.link(topo.ports[first].link);
    let slow_link = design.link(slowest.link);
    let mut d = cx
        .finding(&RULE, network.element(), link.span, message)
        .with_help(help)
        .with_fix(fix)
        .with_related(
            slow_link.speed_span(),
            format!(
                "`{}`: {} per cable, the slowest link on the path",
                slow_link.name,
                speed_text(slowest.member_speed)
            ),
        );
    if let Some(c) = cause {
        if let Some(root) = stp.tree(c.tree).and_then(|t| t.root_of(c.bridge.0)) {
            let (span, sw) =
                priority_line(design, topo, BridgeId(root), tree_priority(fwd, c.tree));
            d = d.with_related(span, format!("`{}` is the root", design.switch(sw).name));
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    /// The triangle with every VLAN allowed on the uplinks: nothing is cut,
    /// but the core-rooted tree blocks the 10G ISL.
    const OPEN_TRIANGLE: &str = r#"
[design]
name = "tri"
[networks.vms]
role = "vm"
vlan = 100
[networks.csv]
role = "csv"
vlan = 20
[switches.core]
tier = "core"
stp = { mode = "rstp", priority = 4096 }
[switches.tor-a]
stp = { mode = "rstp", mac = "00:00:00:00:00:0a" }
[switches.tor-b]
stp = { mode = "rstp", mac = "00:00:00:00:00:0b" }
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
speed = "UPLINK"
members = 2
[[links]]
name = "up-b"
a = "tor-b"
b = "core"
speed = "UPLINK"
members = 2
[profiles.n.nics.A]
speed = "10G"
switch = "tor-a"
[profiles.n.nics.B]
speed = "10G"
switch = "tor-b"
[profiles.n.vswitches.S]
uplinks = ["A", "B"]
networks = ["vms"]
[profiles.n.vswitches.S.vnics]
CSV = { network = "csv" }
[hosts.h1]
profile = "n"
[hosts.h2]
profile = "n"
"#;

    #[test]
    fn ten_gig_traffic_through_a_one_gig_core_fires_per_network() {
        let f = findings(&OPEN_TRIANGLE.replace("UPLINK", "1G"), &super::RULE);
        assert_eq!(f.len(), 2, "{f:#?}");
        let elements: Vec<String> = f.iter().map(|d| d.element()).collect();
        assert!(
            elements.contains(&"networks.vms".into()) && elements.contains(&"networks.csv".into())
        );
        let m = &f
            .iter()
            .find(|d| d.element() == "networks.vms")
            .unwrap()
            .message;
        assert!(m.starts_with("network `vms` (VLAN 100) runs between `tor-a` and `tor-b` along `tor-a` → `core` → `tor-b` over `up-a`, `up-b`"), "{m}");
        assert!(
            m.contains("gives 1G per cable (2 x 1G), less than the hosts' 10G adapters"),
            "{m}"
        );
        assert!(m.contains("because the RSTP tree rooted at core blocks `isl` (2 x 10G), which carries it at 10G per cable"), "{m}");
        assert!(m.contains("Affects hosts `h1`, `h2`"), "{m}");
        let help = f[0].help.as_deref().unwrap();
        assert!(help.contains("raise the cost of `up-b`"), "{help}");
    }

    /// The rule decides per pair of host classes: 40 hosts built alike
    /// cost it as many adapter-path lookups as 2 (one per network), where
    /// a walk over host pairs would ask 780 times per network; the finding
    /// is the same but for the hosts it names.
    #[test]
    fn work_does_not_grow_with_the_hosts_of_a_class() {
        use netlint_model::{load, SourceFile};
        let run = |hosts: usize| {
            let mut src = OPEN_TRIANGLE.replace("UPLINK", "1G");
            for i in 3..=hosts {
                src.push_str(&format!("[hosts.h{i}]\nprofile = \"n\"\n"));
            }
            let design = load(&SourceFile::new("t.toml", &src)).design.unwrap();
            let cx = crate::Context::new(&design);
            let mut out = Vec::new();
            super::check(&cx, &mut out);
            assert_eq!(cx.reachability().len(), 2 * hosts * (hosts - 1) / 2);
            (cx.adapter_path_lookups(), out)
        };
        let (small, two) = run(2);
        let (large, forty) = run(40);
        assert_eq!(small, 2);
        assert_eq!(large, small);
        assert_eq!(two.len(), 2);
        assert_eq!(forty.len(), 2);
        for (a, b) in two.iter().zip(&forty) {
            assert_eq!(
                a.message
                    .replace("hosts `h1`, `h2`", "hosts `h1`, `h2`, `h3` and 37 more"),
                b.message
            );
            assert_eq!(a.help, b.help);
            assert!(a
                .help
                .as_deref()
                .unwrap()
                .contains("raise the cost of `up-b`"));
        }
    }

    #[test]
    fn uplinks_as_fast_as_the_adapters_are_fine() {
        assert!(findings(&OPEN_TRIANGLE.replace("UPLINK", "10G"), &super::RULE).is_empty());
    }

    #[test]
    fn a_slow_path_with_no_faster_alternative_is_not_the_trees_fault() {
        // Without the ISL the core is the only way: slow, but by design.
        let src = OPEN_TRIANGLE.replace("UPLINK", "1G").replace(
            "[[links]]\nname = \"isl\"\na = \"tor-a\"\nb = \"tor-b\"\nspeed = \"10G\"\nmembers = 2\n",
            "",
        );
        assert!(findings(&src, &super::RULE).is_empty());
    }

    /// Two MSTP regions: core-2 reaches the CIST root through the other
    /// member of its region, because between regions the external root path
    /// cost decides. The explanation cites that figure (2000), not the
    /// total with the in-region cost (22000), and the cost fix follows it.
    #[test]
    fn between_regions_the_external_cost_is_cited_and_used() {
        let src = include_str!("../../../../../fixtures/mstp-two-regions.toml");
        let f = findings(src, &super::RULE);
        assert!(!f.is_empty());
        for d in &f {
            assert!(
                d.message.contains("would have external root path cost 20000, more than the 2000 through its root port on b-local"),
                "{}",
                d.message
            );
            assert!(!d.message.contains("22000"), "{}", d.message);
            let help = d.help.as_deref().unwrap();
            assert!(
                help.contains("lower the cost of `rooms`: `stp_cost = { 0 = 1900 }` (below 2000)"),
                "{help}"
            );
        }
    }

    /// Looking only at the class pairs across a slower port finds what
    /// looking at every class pair that reaches finds, word for word, on
    /// random designs with links of mixed speeds.
    #[test]
    fn candidates_find_what_every_reaching_pair_finds() {
        crate::testing::shortcut_matches_exhaustive(super::check_with);
    }

    /// Hosts on many access switches whose uplinks are slower than their
    /// adapters, with no faster way round: every path is slow, none is the
    /// tree's doing, and no pair of classes is looked at (a walk per pair
    /// would ask for adapter paths 435 times per network).
    #[test]
    fn slow_uplinks_without_a_faster_way_cost_no_lookup() {
        use netlint_model::{load, SourceFile};
        let mut src = String::from(
            "[design]\nname = \"t\"\n[networks.csv]\nrole = \"csv\"\nvlan = 20\n\
             [switches.core]\nstp = { mode = \"rstp\", priority = 4096 }\n",
        );
        for k in 0..30 {
            src.push_str(&format!(
                "[switches.acc{k}]\n[[links]]\nname = \"up{k}\"\na = \"core\"\nb = \"acc{k}\"\nspeed = \"10G\"\n\
                 [hosts.h{k}]\nnics.A = {{ speed = \"25G\", switch = \"acc{k}\", networks = [\"csv\"] }}\n"
            ));
        }
        let design = load(&SourceFile::new("t.toml", &src)).design.unwrap();
        let cx = crate::Context::new(&design);
        let mut out = Vec::new();
        super::check(&cx, &mut out);
        assert!(out.is_empty(), "{out:#?}");
        assert_eq!(cx.reachability().len(), 30 * 29 / 2);
        assert_eq!(cx.adapter_path_lookups(), 0);
    }
}
