use super::*;
use crate::l2::{all_pairs, Fabric};
use netlint_model::{load, SourceFile};
use proptest::prelude::*;

fn design(src: &str) -> Design {
    let l = load(&SourceFile::new("t.toml", src));
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    l.design.unwrap()
}

fn reference(name: &str) -> Design {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/reference")
        .join(name);
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    design(&text)
}

const REFERENCE: &[&str] = &[
    "broken-basics.toml",
    "converged-roce.toml",
    "dedicated-10g.toml",
    "eight-by-1g.toml",
    "mstp-fixed.toml",
    "rstp-blocks-isl.toml",
];

/// Host pairs per network that reach each other healthy and not after
/// `failures`, by the exact path walk of `Forwarding::reach` with the
/// spanning tree solved again.
fn exact_lost(
    d: &Design,
    t: &Topology,
    fab: &Fabric,
    healthy: &Forwarding,
    failures: &Failures,
) -> BTreeSet<(NetworkId, HostId, HostId)> {
    let failed = fab.forwarding(d, t, failures);
    all_pairs(d, t, healthy)
        .into_iter()
        .filter(|r| r.broken.is_none())
        .filter(|r| failed.reach(d, t, r.network, r.a, r.b).broken.is_some())
        .map(|r| (r.network, r.a, r.b))
        .collect()
}

fn fast_lost(a: &Analysis, failures: &Failures) -> BTreeSet<(NetworkId, HostId, HostId)> {
    let mut out = BTreeSet::new();
    for l in a.evaluate(failures).losses {
        if let Requirement::Network(n) = l.requirement {
            out.extend(l.pairs.iter().map(|(x, y)| (n, *x, *y)));
        }
    }
    out
}

/// The fast evaluation agrees with the exact one on every unit (and on
/// pairs of units) of a design.
/// Every single failure unit, NIC ports included, and each whole stack or
/// MLAG domain and each whole link.
fn every_unit(d: &Design, t: &Topology) -> Vec<Unit> {
    let mut all = units(
        d,
        t,
        UnitOptions {
            stack_as_unit: false,
            nic_ports: true,
        },
    );
    all.extend(
        (0..t.bridges.len())
            .filter(|b| t.bridges[*b].members.len() > 1)
            .map(|b| Unit::Bridge(BridgeId(b))),
    );
    all.extend((0..d.links.len()).map(|l| Unit::Link(LinkId(l))));
    all
}

fn check_parity(d: &Design, name: &str) {
    let t = Topology::build(d);
    let fab = Fabric::new(d, &t);
    let healthy = fab.forwarding(d, &t, &Failures::default());
    let a = Analysis::new(d, &t, &fab, &healthy, requirements(d, true));
    let all = every_unit(d, &t);
    let mut scenarios: Vec<Failures> = all.iter().map(|u| u.failures(d, &t)).collect();
    // Some double failures: each switch with each other unit.
    for (i, u) in all.iter().enumerate() {
        if let Unit::Switch(_) = u {
            for v in all.iter().skip(i + 1).step_by(3) {
                let mut f = u.failures(d, &t);
                v.add_to(d, &t, &mut f);
                scenarios.push(f);
            }
        }
    }
    for f in scenarios {
        let exact = exact_lost(d, &t, &fab, &healthy, &f);
        let fast = fast_lost(&a, &f);
        assert_eq!(fast, exact, "{name}: {f:?}");
    }
}

#[test]
fn fast_evaluation_matches_the_exact_walk_on_the_reference_designs() {
    for name in REFERENCE {
        let d = reference(name);
        check_parity(&d, name);
    }
}

const SWITCHLESS: &str = r#"
[design]
name = "switchless"
[networks.mgmt]
role = "management"
vlan = 10
[networks.smb1]
role = "storage"
protocol = "smb"
[networks.smb2]
role = "storage"
protocol = "smb"
[switches.sw]
[hosts.h1.nics.M]
speed = "1G"
switch = "sw"
networks = ["mgmt"]
[hosts.h1.nics.S1]
speed = "25G"
peer = "h2:S1"
networks = ["smb1"]
[hosts.h1.nics.S2]
speed = "25G"
card = "S1"
peer = "h2:S2"
networks = ["smb2"]
[hosts.h2.nics.M]
speed = "1G"
switch = "sw"
networks = ["mgmt"]
[hosts.h2.nics.S1]
speed = "25G"
peer = "h1:S1"
networks = ["smb1"]
[hosts.h2.nics.S2]
speed = "25G"
peer = "h1:S2"
networks = ["smb2"]
"#;

/// An MLAG pair whose peer-link leaves VLAN 20 out: hosts on one peer each
/// (SET members on both), a vPC and a single link to a core.
const PRUNED_PEER_LINK: &str = r#"
[design]
name = "pruned-peer-link"
[networks.mgmt]
role = "management"
vlan = 10
[networks.csv]
role = "csv"
vlan = 20
[switches.core]
stp = { mode = "rstp", priority = 4096 }
[switches.core2]
[switches.a]
mlag = "m"
[switches.b]
mlag = "m"
[[links]]
name = "peer"
a = "a"
b = "b"
kind = "peer-link"
speed = "100G"
members = 2
vlans = [10]
[[links]]
name = "up"
a = "core"
b = ["a", "b"]
speed = "10G"
members = 2
[[links]]
name = "side"
a = "core2"
b = "b"
speed = "10G"
[hosts.h1.nics.A]
speed = "10G"
switch = "a"
networks = ["csv", "mgmt"]
[hosts.h2.nics.A]
speed = "10G"
switch = "b"
networks = ["csv", "mgmt"]
[hosts.h3.nics.A]
speed = "10G"
switch = "a"
[hosts.h3.nics.B]
speed = "10G"
switch = "b"
[hosts.h3.vswitches.S]
uplinks = ["A", "B"]
[hosts.h3.vswitches.S.vnics.C]
network = "csv"
[hosts.h3.vswitches.S.vnics.M]
network = "mgmt"
[hosts.h4.nics.A]
speed = "10G"
switch = "core"
networks = ["csv", "mgmt"]
[hosts.h5.nics.A]
speed = "10G"
switch = "core2"
networks = ["csv", "mgmt"]
[hosts.h6.nics.A]
speed = "10G"
switch = "b"
networks = ["csv", "mgmt"]
"#;

#[test]
fn fast_evaluation_matches_where_a_peer_link_splits_a_vlan() {
    let d = design(PRUNED_PEER_LINK);
    check_parity(&d, "pruned-peer-link");
    // Healthy: h2 and h6 (on `b`) reach h5 over `side`; h1 does not.
    let t = Topology::build(&d);
    let fab = Fabric::new(&d, &t);
    let healthy = fab.forwarding(&d, &t, &Failures::default());
    let csv = d.network_by_name("csv").unwrap();
    assert!(healthy
        .reach(&d, &t, csv, HostId(1), HostId(4))
        .broken
        .is_none());
    assert!(healthy
        .reach(&d, &t, csv, HostId(0), HostId(4))
        .broken
        .is_some());
    // Losing `side` takes h2 and h6 from h5 on csv: the analysis sees it.
    let a = Analysis::new(&d, &t, &fab, &healthy, requirements(&d, true));
    let lost = fast_lost(&a, &Unit::Cable(LinkId(2), 0).failures(&d, &t));
    assert!(lost.contains(&(csv, HostId(1), HostId(4))), "{lost:?}");
    assert!(lost.contains(&(csv, HostId(4), HostId(5))), "{lost:?}");
}

#[test]
fn fast_evaluation_matches_on_direct_cables() {
    let d = design(SWITCHLESS);
    check_parity(&d, "switchless");
}

#[test]
fn direct_cables_on_one_card_lose_the_storage_group() {
    let d = design(SWITCHLESS);
    let t = Topology::build(&d);
    let fab = Fabric::new(&d, &t);
    let healthy = fab.forwarding(&d, &t, &Failures::default());
    let a = Analysis::new(&d, &t, &fab, &healthy, requirements(&d, false));
    // h1's S1 and S2 share card S1: the smb group is gone with it.
    let o = a.evaluate_unit(&Unit::Card(HostId(0), "S1".into()));
    let l = o
        .losses
        .iter()
        .find(|l| l.requirement == Requirement::Storage(Some(Protocol::Smb)))
        .expect("storage lost");
    assert_eq!(l.host_ids(), vec![HostId(0)]);
    assert!(l.hosts[0].cut_off);
    // h2's cards are separate: its S1 failing leaves smb2.
    let o = a.evaluate_unit(&Unit::Card(HostId(1), "S1".into()));
    assert!(o
        .losses
        .iter()
        .all(|l| l.requirement != Requirement::Storage(Some(Protocol::Smb))));
    // The switch takes management (a warning) and nothing else.
    let o = a.evaluate_unit(&Unit::Switch(SwitchId(0)));
    let reqs: Vec<&Requirement> = o.losses.iter().map(|l| &l.requirement).collect();
    assert_eq!(reqs, vec![&Requirement::Network(NetworkId(0))]);
    assert_eq!(o.losses[0].host_ids(), vec![HostId(0), HostId(1)]);
}

fn report(d: &Design) -> FailureReport {
    let t = Topology::build(d);
    let fab = Fabric::new(d, &t);
    let healthy = fab.forwarding(d, &t, &Failures::default());
    FailureReport::build(d, &t, &fab, &healthy)
}

#[test]
fn dedicated_10g_survives_every_single_failure() {
    let d = reference("dedicated-10g.toml");
    let r = report(&d);
    assert!(r.results.is_empty(), "{:#?}", r.results);
    assert!(r.stacks.is_empty());
}

#[test]
fn converged_roce_survives_every_single_failure() {
    let d = reference("converged-roce.toml");
    let r = report(&d);
    assert!(r.results.is_empty(), "{:#?}", r.results);
}

/// Two switches on one link; `MEMBERS` is replaced by the cable count.
const LINE: &str = include_str!("../../testdata/line.toml");

#[test]
fn standby_members_take_over_when_their_switch_dies() {
    let src = LINE.replace("MEMBERS", "members = 2").replace(
        "[hosts.h1.teams.T]\nmembers = [\"N1\", \"N2\"]",
        "[hosts.h1.teams.T]\nmembers = [\"N1\", \"N2\"]\nstandby = \"N2\"",
    );
    let d = design(&src);
    check_parity(&d, "standby");
    let t = Topology::build(&d);
    let fab = Fabric::new(&d, &t);
    let healthy = fab.forwarding(&d, &t, &Failures::default());
    let a = Analysis::new(&d, &t, &fab, &healthy, requirements(&d, false));
    let o = a.evaluate_unit(&Unit::Switch(SwitchId(0)));
    // h2 and h4 are cut off with a; h1's standby N2 takes over on b and
    // still reaches h3.
    assert_eq!(o.losses.len(), 1);
    assert_eq!(o.losses[0].host_ids(), vec![HostId(1), HostId(3)]);
    assert!(o.losses[0].hosts.iter().all(|h| h.cut_off));
}

/// Paths over the forwarding ports climb the forwarding forest; they are
/// the breadth-first search's shortest paths.
#[test]
fn forest_paths_are_the_shortest_paths() {
    for name in REFERENCE {
        let d = reference(name);
        let t = Topology::build(&d);
        let fab = Fabric::new(&d, &t);
        for f in [
            Failures::default(),
            Unit::Switch(SwitchId(0)).failures(&d, &t),
        ] {
            let fwd = fab.forwarding(&d, &t, &f);
            for v in d.networks.iter().map(|n| n.vlan_id()) {
                let view = fwd.vlan(v).unwrap();
                let copy = view.forwarding.clone();
                for a in 0..t.bridges.len() {
                    for b in 0..t.bridges.len() {
                        let (a, b) = (BridgeId(a), BridgeId(b));
                        let fast = view.path(&t, a, b, &view.forwarding);
                        let bfs = view.path(&t, a, b, &copy);
                        assert_eq!(
                            fast.as_ref().map(|p| p.len()),
                            bfs.as_ref().map(|p| p.len()),
                            "{name}"
                        );
                        if let Some(p) = fast {
                            // A walk from a to b over forwarding ports.
                            let mut at = a;
                            for port in p {
                                let q = &t.ports[port];
                                assert!(view.forwarding[port]);
                                at = if q.a == at {
                                    q.b
                                } else {
                                    assert_eq!(q.b, at);
                                    q.a
                                };
                            }
                            assert_eq!(at, b);
                        }
                    }
                }
            }
        }
    }
}

// ------------------------------------------------ spanning-tree updates

/// A random fabric: groups of switches (a switch, an MLAG pair with a
/// peer-link, a stack of two), a random spanning tree of links between
/// groups plus extra ones (LAGs of several cables, bundles without LAG,
/// multi-chassis LAGs, pruned VLAN lists), a spanning-tree flavour mix, and
/// hosts on random switches.
#[derive(Clone, Debug)]
struct Fabricated {
    text: String,
}

fn fabricated() -> impl Strategy<Value = Fabricated> {
    use proptest::collection::vec;
    (3usize..7).prop_flat_map(|n| {
        (
            0u8..7,
            vec((0u8..3, 0u8..4, any::<bool>(), 0u8..6, proptest::option::of(0u8..3)), n),
            vec(any::<prop::sample::Index>(), n - 1),
            vec(
                (0..n, 0..n, 0u8..4, 1u32..4, 0u8..3, 0u8..5, any::<bool>(), any::<bool>()),
                0..2 * n,
            ),
            vec(vec((0..n, any::<bool>()), 1..3), 2..5),
        )
            .prop_map(move |(mix, groups, tree, extra, hosts)| {
                let modes = ["rstp", "mstp", "rapid-pvst", "stp", "none", "pvst"];
                let mut s = String::from(
                    "[design]\nname = \"u\"\n[networks.n10]\nrole = \"management\"\nvlan = 10\n\
                     [networks.n20]\nrole = \"csv\"\nvlan = 20\n[networks.n30]\nrole = \"vm\"\nvlan = 30\n",
                );
                // Member switches of each group.
                let members: Vec<Vec<String>> = groups
                    .iter()
                    .enumerate()
                    .map(|(g, (kind, ..))| match kind {
                        0 => vec![format!("g{g}")],
                        _ => vec![format!("g{g}a"), format!("g{g}b")],
                    })
                    .collect();
                for (g, (kind, prio, mac, pick, defined)) in groups.iter().enumerate() {
                    let mode = match mix {
                        0 => "rstp",
                        1 | 2 => "mstp",
                        3 => "rapid-pvst",
                        4 => "stp",
                        5 => modes[*pick as usize],
                        _ => ["rstp", "rstp", "mstp", "none", "rstp", "mstp"][*pick as usize],
                    };
                    let mut stp = format!(
                        "mode = \"{mode}\", priority = {}",
                        [4096, 8192, 32768, 32768][*prio as usize]
                    );
                    if *mac {
                        stp.push_str(&format!(", mac = \"00:00:00:00:01:{g:02x}\""));
                    }
                    if mode == "mstp" {
                        let region = if mix == 2 { g % 2 } else { 0 };
                        let inst = ["{ 1 = [20], 2 = [30] }", "{ 1 = [20, 30] }"][region];
                        stp.push_str(&format!(
                            ", region = \"r{region}\", revision = 1, instances = {inst}, instance_priority = {{ 1 = {}, 2 = {} }}",
                            4096 * (g as u32 % 3 + 1),
                            4096 * ((g as u32 + 1) % 3 + 1)
                        ));
                    }
                    let vlans = defined
                        .map(|k| format!("vlans = {}\n", ["[10, 20, 30]", "[10, 20]", "[10, 30]"][k as usize]))
                        .unwrap_or_default();
                    for m in &members[g] {
                        s.push_str(&format!("[switches.{m}]\n{vlans}stp = {{ {stp} }}\n"));
                        match kind {
                            1 => s.push_str(&format!("mlag = \"m{g}\"\n")),
                            2 => s.push_str(&format!("stack = \"s{g}\"\n")),
                            _ => {}
                        }
                    }
                    if *kind == 1 {
                        s.push_str(&format!(
                            "[[links]]\nname = \"peer{g}\"\na = \"{}\"\nb = \"{}\"\nkind = \"peer-link\"\nspeed = \"100G\"\nmembers = 2\n",
                            members[g][0], members[g][1]
                        ));
                    }
                }
                let speeds = ["1G", "10G", "25G", "100G"];
                let vlan_sets = ["[10]", "[10, 20]", "[20, 30]"];
                let mut link = |name: String, a: usize, b: usize, sp: u8, cables: u32, lag: u8, vl: u8, side: bool, multi: bool| {
                    let a_sw = &members[a][usize::from(side) % members[a].len()];
                    let b_end = if multi && members[b].len() > 1 {
                        format!("[\"{}\", \"{}\"]", members[b][0], members[b][1])
                    } else {
                        format!("\"{}\"", members[b][usize::from(!side) % members[b].len()])
                    };
                    let multi = multi && members[b].len() > 1;
                    let cables = if multi { cables + 1 } else { cables };
                    s.push_str(&format!(
                        "[[links]]\nname = \"{name}\"\na = \"{a_sw}\"\nb = {b_end}\nspeed = \"{}\"\nmembers = {cables}\n",
                        speeds[sp as usize]
                    ));
                    if cables > 1 && lag == 0 && !multi {
                        s.push_str("lag = \"none\"\n");
                    }
                    if vl < 3 {
                        s.push_str(&format!("vlans = {}\n", vlan_sets[vl as usize]));
                    }
                };
                for i in 1..n {
                    let p = tree[i - 1].index(i);
                    link(format!("t{i}"), p, i, 1, 1 + (i as u32 % 2), 1, 3, i % 2 == 0, i % 3 == 0);
                }
                for (k, (a, b, sp, cables, lag, vl, side, multi)) in extra.into_iter().enumerate() {
                    if a != b {
                        link(format!("x{k}"), a, b, sp, cables, lag, vl, side, multi);
                    }
                }
                for (h, nics) in hosts.iter().enumerate() {
                    let mut uplinks = Vec::new();
                    for (k, (g, second)) in nics.iter().enumerate() {
                        let sw = &members[*g][usize::from(*second) % members[*g].len()];
                        s.push_str(&format!(
                            "[hosts.h{h}.nics.N{k}]\nspeed = \"10G\"\nswitch = \"{sw}\"\n"
                        ));
                        uplinks.push(format!("\"N{k}\""));
                    }
                    s.push_str(&format!(
                        "[hosts.h{h}.vswitches.V]\nuplinks = [{}]\nnetworks = [\"n30\"]\n\
                         [hosts.h{h}.vswitches.V.vnics.C]\nnetwork = \"n20\"\n\
                         [hosts.h{h}.vswitches.V.vnics.M]\nnetwork = \"n10\"\n",
                        uplinks.join(", ")
                    ));
                }
                Fabricated { text: s }
            })
    })
}

/// Every single failure of the fabric and of the hosts' NICs, each whole
/// bridge and link, and the pairs picked by `pairs`.
fn scenarios(
    d: &Design,
    t: &Topology,
    pairs: &[(prop::sample::Index, prop::sample::Index)],
) -> Vec<Failures> {
    let all = every_unit(d, t);
    let mut out: Vec<Failures> = all.iter().map(|u| u.failures(d, t)).collect();
    for (i, j) in pairs {
        let mut f = i.get(&all).failures(d, t);
        j.get(&all).add_to(d, t, &mut f);
        out.push(f);
    }
    out
}

/// The spanning-tree updates give, for every scenario, the forwarding
/// ports and components of every VLAN that solving the scenario in full
/// gives, and the analysis the same outcome; returns how many scenarios
/// the updates answered (the others were solved in full).
fn check_updates(d: &Design, pairs: &[(prop::sample::Index, prop::sample::Index)]) -> usize {
    let t = Topology::build(d);
    let fab = Fabric::new(d, &t);
    let healthy = fab.forwarding(d, &t, &Failures::default());
    let fast = Analysis::new(d, &t, &fab, &healthy, requirements(d, true));
    let full = Analysis::new(d, &t, &fab, &healthy, requirements(d, true)).full_recompute();
    let sc = ScenarioComponents::new(d, &t, &fab, &healthy, &fast.vlans);
    let sf = ScenarioForwarding::new(d, &t, &fab, &healthy);
    let mut answered = 0;
    for f in scenarios(d, &t, pairs) {
        let solved = fab.forwarding(d, &t, &f);
        if let Some(fwd) = sc.updated_forwarding(d, &t, &fab, &f) {
            answered += 1;
            for (slot, v) in fast.vlans.iter().enumerate() {
                let want = solved.vlan(*v).map(|view| &view.forwarding);
                let got = fwd[slot]
                    .as_ref()
                    .or(healthy.vlan(*v).map(|view| &view.forwarding));
                assert_eq!(got, want, "forwarding of {v:?} under {f:?}");
            }
        }
        let comps = sc.components(d, &t, &fab, &f);
        for (slot, v) in fast.vlans.iter().enumerate() {
            let want = solved.vlan(*v).map(|view| &view.component);
            let got = comps[slot]
                .as_ref()
                .or(healthy.vlan(*v).map(|view| &view.component));
            assert_eq!(got, want, "components of {v:?} under {f:?}");
        }
        // The labels derived from the healthy forests: those of relabelling
        // the full solve's components.
        let mut removed: Vec<usize> = f
            .switches
            .iter()
            .map(|s| t.bridge_of[s.0].0)
            .filter(|b| t.bridges[*b].members.iter().all(|s| f.switches.contains(s)))
            .collect();
        removed.sort();
        removed.dedup();
        if let Some(labels) = sc.relabeled(d, &t, &fab, &f, &removed) {
            let mut is_removed = vec![false; t.bridges.len()];
            for b in &removed {
                is_removed[*b] = true;
            }
            for (slot, v) in fast.vlans.iter().enumerate() {
                let Some(old) = healthy.vlan(*v).map(|view| &view.component) else {
                    assert!(labels[slot].is_empty());
                    continue;
                };
                let new = solved.vlan(*v).map(|view| &view.component).unwrap();
                let mut got = old.clone();
                for &(b, l) in &labels[slot] {
                    got[b] = l;
                }
                let want = if old == new && labels[slot].is_empty() {
                    old.clone()
                } else {
                    crate::l2::split::relabel(old, new, &is_removed)
                };
                assert_eq!(got, want, "labels of {v:?} under {f:?}");
            }
        }
        assert_eq!(fast.evaluate(&f), full.evaluate(&f), "{f:?}");
        // The whole forwarding updated from the healthy one: every VLAN's
        // reasons, forwarding and components, and the port states.
        let updated = sf.forwarding(d, &t, &fab, &healthy, &f);
        assert_eq!(updated.ports, solved.ports, "port states under {f:?}");
        for v in &fast.vlans {
            let (Some(got), Some(want)) = (updated.vlan(*v), solved.vlan(*v)) else {
                assert!(updated.vlan(*v).is_none() && solved.vlan(*v).is_none());
                continue;
            };
            assert_eq!(
                got.not_carried, want.not_carried,
                "reasons of {v:?} under {f:?}"
            );
            assert_eq!(
                got.forwarding, want.forwarding,
                "forwarding of {v:?} under {f:?}"
            );
            assert_eq!(
                got.component, want.component,
                "components of {v:?} under {f:?}"
            );
            assert_eq!(
                got.carried_component, want.carried_component,
                "carried components of {v:?} under {f:?}"
            );
            assert_eq!(got.peers, want.peers, "peers of {v:?} under {f:?}");
        }
    }
    answered
}

// ------------------------------------------------ pairs walked again

/// `simulate_with` and its prepared pairs finds, for every single failure
/// and the pairs of units picked, the slower and the restored pairs that
/// walking every pair again finds.
fn check_pair_paths(d: &Design, picks: &[(prop::sample::Index, prop::sample::Index)]) {
    let t = Topology::build(d);
    let fab = Fabric::new(d, &t);
    let healthy = fab.forwarding(d, &t, &Failures::default());
    let a = Analysis::new(d, &t, &fab, &healthy, requirements(d, true));
    let prepared = PairPaths::new(d, &t, &healthy);
    let all = every_unit(d, &t);
    let mut cases: Vec<Vec<Unit>> = all.iter().map(|u| vec![u.clone()]).collect();
    for (i, j) in picks {
        cases.push(vec![i.get(&all).clone(), j.get(&all).clone()]);
    }
    let scenarios = ScenarioForwarding::new(d, &t, &fab, &healthy);
    for units in cases {
        let walked = a.simulate(&healthy, &units);
        let indexed = a.simulate_with(&healthy, &units, Some(&prepared));
        assert_eq!(indexed.slower, walked.slower, "slower under {units:?}");
        assert_eq!(
            indexed.restored, walked.restored,
            "restored under {units:?}"
        );
        // A row of the table says what the whole simulation says.
        if let [unit] = units.as_slice() {
            let row = a.simulate_row(&healthy, &scenarios, &prepared, unit);
            assert_eq!(row.outcome, walked.outcome, "losses under {units:?}");
            assert_eq!(row.down, walked.down, "links down under {units:?}");
            assert_eq!(row.degraded, walked.degraded, "degraded under {units:?}");
            let slower: usize = walked.slower.iter().map(|s| s.pairs.len()).sum();
            assert_eq!(row.slower_pairs, slower, "slower pairs under {units:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// On random fabrics: the spanning-tree updates against the full solve,
    /// and the prepared pairs against walking every pair.
    #[test]
    fn updates_and_prepared_pairs_match_the_full_computation(
        s in fabricated(),
        picks in proptest::collection::vec(any::<(prop::sample::Index, prop::sample::Index)>(), 0..6),
    ) {
        let l = load(&SourceFile::new("u.toml", &s.text));
        prop_assume!(l.diagnostics.is_empty());
        let Some(d) = l.design else { return Ok(()) };
        check_updates(&d, &picks);
        check_pair_paths(&d, &picks);
        check_same_failures(&d);
    }
}

/// Cables that [`Analysis::same_failure`] calls alike (the report and the
/// simulate table evaluate only the first) lose the same, link for link,
/// and each cable of a bundle without LAG is a failure of its own; returns
/// how many pairs were alike.
fn check_same_failures(d: &Design) -> usize {
    let t = Topology::build(d);
    let fab = Fabric::new(d, &t);
    let healthy = fab.forwarding(d, &t, &Failures::default());
    let a = Analysis::new(d, &t, &fab, &healthy, requirements(d, true));
    let scenarios = ScenarioForwarding::new(d, &t, &fab, &healthy);
    let pairs = PairPaths::new(d, &t, &healthy);
    let cables: Vec<Unit> = every_unit(d, &t)
        .into_iter()
        .filter(|u| matches!(u, Unit::Cable(..)))
        .collect();
    let mut alike = 0;
    for u in &cables {
        for v in &cables {
            let (Unit::Cable(lu, _), Unit::Cable(lv, _)) = (u, v) else {
                continue;
            };
            let per_cable = t.ports.iter().any(|p| p.link == *lu && p.cable.is_some());
            if lu != lv || u == v {
                assert!(!a.same_failure(u, v) || u == v, "{u:?} {v:?}");
                continue;
            }
            assert_eq!(a.same_failure(u, v), !per_cable, "{u:?} {v:?}");
            if !a.same_failure(u, v) {
                continue;
            }
            alike += 1;
            assert_eq!(a.evaluate_unit(u), a.evaluate_unit(v), "{u:?} {v:?}");
            let mut row = a.simulate_row(&healthy, &scenarios, &pairs, u);
            row.units = vec![v.clone()];
            assert_eq!(row, a.simulate_row(&healthy, &scenarios, &pairs, v));
        }
    }
    alike
}

#[test]
fn cables_of_one_lag_fail_alike() {
    let mut alike = 0;
    for name in REFERENCE {
        let d = reference(name);
        alike += check_same_failures(&d);
    }
    alike += check_same_failures(&design(&LINE.replace("MEMBERS", "members = 2")));
    assert!(alike > 0, "no LAG of several cables to compare");
}

#[test]
fn updates_and_prepared_pairs_match_on_the_reference_designs() {
    for name in REFERENCE {
        let d = reference(name);
        check_updates(&d, &[]);
        check_pair_paths(&d, &[]);
    }
}

/// The fast evaluation on the line (one and two cables) and the two halves
/// designs whose losses `netlint-rules`' tests/phrases_failure.rs words.
#[test]
fn line_and_halves_match_the_exact_walk() {
    check_parity(&design(&LINE.replace("MEMBERS", "")), "line");
    check_parity(&design(&LINE.replace("MEMBERS", "members = 2")), "line");
    check_parity(&design(&halves()), "halves");
}

/// Two switches, one cable, two hosts on each.
fn halves() -> String {
    let mut src = String::from(
        "[design]\nname = \"halves\"\n[networks.vm]\nrole = \"vm\"\nvlan = 100\n\
         [switches.a]\n[switches.b]\n[[links]]\nname = \"ab\"\na = \"a\"\nb = \"b\"\nspeed = \"10G\"\n",
    );
    for (h, sw) in [("h1", "a"), ("h2", "a"), ("h3", "b"), ("h4", "b")] {
        src.push_str(&format!(
            "[hosts.{h}.nics.N]\nspeed = \"10G\"\nswitch = \"{sw}\"\n[hosts.{h}.vswitches.V]\nuplinks = [\"N\"]\nnetworks = [\"vm\"]\n"
        ));
    }
    src
}

/// A triangle rooted at `a` whose forwarding link `a`-`b` leaves VLAN 100
/// out: the hosts on `a` and on `b` have no path until that link fails
/// and the blocked `b`-`c` link takes over. The prepared pairs index the
/// unjoined pair by the components of its two bridges, so the failure of
/// `ab` must still find it restored; a failure of a cable inside the
/// component of `a` alone (`ac2`, one of two) joins nothing.
#[test]
fn a_blocked_link_that_takes_over_restores_the_unjoined_pair() {
    let src = "[design]\nname = \"tri\"\n\
        [networks.vm]\nrole = \"vm\"\nvlan = 100\n\
        [switches.a]\nstp = { mode = \"rstp\", priority = 4096 }\n\
        [switches.b]\nstp = { mode = \"rstp\", priority = 32768 }\n\
        [switches.c]\nstp = { mode = \"rstp\", priority = 8192 }\n\
        [[links]]\nname = \"ab\"\na = \"a\"\nb = \"b\"\nspeed = \"10G\"\nvlans = [1]\n\
        [[links]]\nname = \"ac\"\na = \"a\"\nb = \"c\"\nspeed = \"10G\"\nmembers = 2\n\
        [[links]]\nname = \"bc\"\na = \"b\"\nb = \"c\"\nspeed = \"1G\"\n\
        [hosts.h1.nics.N]\nspeed = \"10G\"\nswitch = \"a\"\n\
        [hosts.h1.vswitches.V]\nuplinks = [\"N\"]\nnetworks = [\"vm\"]\n\
        [hosts.h2.nics.N]\nspeed = \"10G\"\nswitch = \"b\"\n\
        [hosts.h2.vswitches.V]\nuplinks = [\"N\"]\nnetworks = [\"vm\"]\n";
    let d = design(src);
    let t = Topology::build(&d);
    let fab = Fabric::new(&d, &t);
    let healthy = fab.forwarding(&d, &t, &Failures::default());
    assert!(!healthy.reaches(&d, &t, NetworkId(0), HostId(0), HostId(1)));
    let a = Analysis::new(&d, &t, &fab, &healthy, requirements(&d, true));
    let prepared = PairPaths::new(&d, &t, &healthy);
    let link = |name: &str| d.links.iter().position(|l| l.name == name).unwrap();
    let ab = every_unit(&d, &t)
        .into_iter()
        .find(|u| matches!(u, Unit::Cable(l, _) if l.0 == link("ab")))
        .expect("the cable ab is a unit");
    let sim = a.simulate_with(&healthy, std::slice::from_ref(&ab), Some(&prepared));
    assert_eq!(
        sim.restored,
        vec![(NetworkId(0), vec![(HostId(0), HostId(1))])],
        "failing ab joins h1 and h2 over b-c"
    );
    check_pair_paths(&d, &[]);
}

/// A vPC pair with a one-cable peer-link (issue 34 item 8): `h1` teams
/// both peers with LACP (a vPC), `h2` is single-attached to `b`, `h3` to
/// `a`, `h4` sits on a core reached by a vPC uplink to both peers.
const ONE_CABLE_PEER_LINK: &str = r#"
[design]
name = "one-cable-peer-link"
[networks.mgmt]
role = "management"
vlan = 10
[switches.core]
stp = { mode = "rstp", priority = 4096 }
[switches.a]
mlag = "m"
[switches.b]
mlag = "m"
[[links]]
name = "peer"
a = "a"
b = "b"
kind = "peer-link"
speed = "100G"
[[links]]
name = "up"
a = "core"
b = ["a", "b"]
speed = "10G"
members = 2
[hosts.h1.nics.A]
speed = "10G"
switch = "a"
[hosts.h1.nics.B]
speed = "10G"
switch = "b"
[hosts.h1.teams.T]
members = ["A", "B"]
mode = "lacp"
networks = ["mgmt"]
[hosts.h2.nics.A]
speed = "10G"
switch = "b"
networks = ["mgmt"]
[hosts.h3.nics.A]
speed = "10G"
switch = "a"
networks = ["mgmt"]
[hosts.h4.nics.A]
speed = "10G"
switch = "core"
networks = ["mgmt"]
"#;

fn split_units(d: &Design, t: &Topology) -> Vec<Unit> {
    units(d, t, UnitOptions::default())
        .into_iter()
        .filter(|u| matches!(u, Unit::Split { .. }))
        .collect()
}

#[test]
fn a_one_cable_peer_link_is_a_unit_per_choice_of_secondary() {
    let d = design(ONE_CABLE_PEER_LINK);
    let t = Topology::build(&d);
    let (a, b) = (
        d.switch_by_name("a").unwrap(),
        d.switch_by_name("b").unwrap(),
    );
    let peer = d.link_by_name("peer").unwrap();
    assert_eq!(
        split_units(&d, &t),
        vec![
            Unit::Split {
                link: peer,
                cable: Some(0),
                keep: a
            },
            Unit::Split {
                link: peer,
                cable: Some(0),
                keep: b
            },
        ]
    );
    // `a` keeps the vPCs: `b` suspends its vPC ports (h1's `B`, its cable
    // of `up`) and keeps h2's orphan port up.
    let unit = Unit::Split {
        link: peer,
        cable: Some(0),
        keep: a,
    };
    let f = unit.failures(&d, &t);
    assert_eq!(f.suspended, BTreeSet::from([b]));
    assert_eq!(f.nics, BTreeSet::from([(HostId(0), NicIdx(1))]));
    let fab = Fabric::new(&d, &t);
    let healthy = fab.forwarding(&d, &t, &Failures::default());
    let up = t
        .ports
        .iter()
        .position(|p| p.link == d.link_by_name("up").unwrap())
        .unwrap();
    let failed = fab.forwarding(&d, &t, &f);
    assert_eq!(failed.ports[up].members, 1, "the uplink keeps a's cable");
    // Only h2 (an orphan on the secondary) is cut, from every other host.
    let an = Analysis::new(&d, &t, &fab, &healthy, requirements(&d, true));
    let o = an.evaluate(&f);
    let lost: BTreeSet<HostId> = o.losses.iter().flat_map(|l| l.host_ids()).collect();
    assert_eq!(lost, BTreeSet::from([HostId(1)]), "{o:#?}");
    assert_eq!(fast_lost(&an, &f), exact_lost(&d, &t, &fab, &healthy, &f));
    check_parity(&d, "one-cable-peer-link");
    // `--fail peer@a` names that choice; `b` keeping them cuts h3.
    assert_eq!(parse_unit(&d, &t, "peer@a"), Ok(unit));
    let other = parse_unit(&d, &t, "peer@b").unwrap();
    let o = an.evaluate(&other.failures(&d, &t));
    let lost: BTreeSet<HostId> = o.losses.iter().flat_map(|l| l.host_ids()).collect();
    assert_eq!(lost, BTreeSet::from([HostId(2)]));
    assert!(matches!(
        parse_unit(&d, &t, "up@a"),
        Err(UnitNameError::Keep { .. })
    ));
    // simulate without a choice: the worse part, said to be a choice.
    let sim = an.simulate(&healthy, &[Unit::Cable(peer, 0)]);
    assert_eq!(sim.splits.len(), 1);
    assert!(!sim.splits[0].stated);
    assert_eq!(sim.splits[0].lost_pairs.len(), 2);
}

#[test]
fn a_two_cable_peer_link_and_a_ring_stack_lose_nothing_to_one_cable() {
    let two = ONE_CABLE_PEER_LINK.replace(
        "kind = \"peer-link\"\nspeed = \"100G\"",
        "kind = \"peer-link\"\nspeed = \"100G\"\nmembers = 2",
    );
    let d = design(&two);
    let t = Topology::build(&d);
    assert!(split_units(&d, &t).is_empty());
    // Both cables at once still split it.
    let peer = d.link_by_name("peer").unwrap();
    assert!(parse_unit(&d, &t, "peer@a").is_ok());
    let _ = peer;

    let chain = r#"
[design]
name = "chain"
[networks.mgmt]
role = "management"
vlan = 10
[switches.s1]
stack = "st"
[switches.s2]
stack = "st"
[switches.s3]
stack = "st"
[[links]]
name = "c12"
a = "s1"
b = "s2"
kind = "stack"
[[links]]
name = "c23"
a = "s2"
b = "s3"
kind = "stack"
[hosts.h1.nics.A]
speed = "10G"
switch = "s1"
networks = ["mgmt"]
[hosts.h2.nics.A]
speed = "10G"
switch = "s3"
networks = ["mgmt"]
"#;
    let d = design(chain);
    let t = Topology::build(&d);
    // A chain: each cable splits it in two, one unit per part.
    assert_eq!(split_units(&d, &t).len(), 4);
    let fab = Fabric::new(&d, &t);
    let healthy = fab.forwarding(&d, &t, &Failures::default());
    let an = Analysis::new(&d, &t, &fab, &healthy, requirements(&d, true));
    for u in split_units(&d, &t) {
        assert!(!an.evaluate(&u.failures(&d, &t)).losses.is_empty(), "{u:?}");
    }
    check_parity(&d, "chain");
    // A ring: no cable splits it.
    let ring =
        format!("{chain}[[links]]\nname = \"c31\"\na = \"s3\"\nb = \"s1\"\nkind = \"stack\"\n");
    let d = design(&ring);
    let t = Topology::build(&d);
    assert!(split_units(&d, &t).is_empty());
    // A stack that lists none of its cables is taken to be joined.
    let bare = chain.split("[[links]]").next().unwrap().to_string()
        + "[hosts.h1.nics.A]\nspeed = \"10G\"\nswitch = \"s1\"\nnetworks = [\"mgmt\"]\n";
    let d = design(&bare);
    let t = Topology::build(&d);
    assert!(split_units(&d, &t).is_empty());
}
