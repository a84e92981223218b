//! Format v2 topology (issue 13, items 6 and 8): a LAG between two MLAG
//! domains is one spanning-tree port, its member failures and both
//! domains' peer-links are honoured; routed links and unmanaged devices are
//! cabling, never bridge ports. The spanning trees below are computed by
//! hand in the comments, then checked.

use netlint_analysis::l2::{NotCarried, PortState};
use netlint_analysis::stp::End;
use netlint_analysis::{Fabric, Failures, Forwarding, Topology};
use netlint_model::{load, Design, SourceFile, SwitchId};

const DOUBLE: &str = include_str!("../../../fixtures/mlag-double-sided.toml");
const ROUTED: &str = include_str!("../../../fixtures/routed-unmanaged.toml");

fn design(src: &str) -> Design {
    let l = load(&SourceFile::new("t.toml", src));
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    l.design.unwrap()
}

fn solve(d: &Design, failures: &Failures) -> (Topology, Forwarding) {
    let t = Topology::build(d);
    let f = Fabric::new(d, &t).forwarding(d, &t, failures);
    (t, f)
}

fn sw(d: &Design, name: &str) -> SwitchId {
    d.switch_by_name(name).unwrap()
}

/// Per port: its link's name and the ends that block the untagged tree
/// (RSTP: one tree for every VLAN).
fn blocked(d: &Design, t: &Topology, f: &Forwarding) -> Vec<(String, Vec<End>)> {
    (0..t.ports.len())
        .map(|p| {
            let ends = f
                .blocking_ends(t, p, Some(10))
                .into_iter()
                .map(|b| b.end)
                .collect();
            (d.link(t.ports[p].link).name.clone(), ends)
        })
        .collect()
}

/// The square: MLAG domains `dist` (dist-1, dist-2; priority 4096) and
/// `tor` (tor-1, tor-2; 16384) joined by one double-sided LAG of 4 x 25G,
/// and the core (8192) with a 2 x 10G MC-LAG to each domain. Three
/// bridges, three ports. Port costs (802.1t): 100G = 200, 20G = 1000.
///
/// - Root: `dist`, the lowest priority.
/// - `tor`: root path cost 200 over `dist-tor`, 2000 through the core:
///   root port `dist-tor`.
/// - `core`: 1000 over `core-dist`, 200 + 1000 = 1200 through `tor`: root
///   port `core-dist`.
/// - `core-tor`: `tor` offers 200, `core` 1000, so `tor`'s end is
///   designated and `core`'s (the `a` end) is alternate: it blocks.
///
/// Only the core's end of `core-tor` blocks; `dist-tor` forwards at both
/// ends.
#[test]
fn a_double_sided_lag_is_one_port_and_only_the_cores_uplink_blocks() {
    let d = design(DOUBLE);
    let (t, f) = solve(&d, &Failures::default());
    assert_eq!(t.bridges.len(), 3);
    assert_eq!(t.ports.len(), 3);
    let port = &t.ports[0];
    assert_eq!(d.link(port.link).name, "dist-tor");
    assert_eq!(port.a_switches, vec![sw(&d, "dist-1"), sw(&d, "dist-2")]);
    assert_eq!(port.b_switches, vec![sw(&d, "tor-1"), sw(&d, "tor-2")]);
    assert_eq!(port.speed().map(|s| s.mbps()), Some(100_000));
    assert_eq!(
        blocked(&d, &t, &f),
        vec![
            ("dist-tor".to_string(), vec![]),
            ("core-dist".to_string(), vec![]),
            ("core-tor".to_string(), vec![End::A]),
        ]
    );
}

/// The same network written as v1 had to: two LAGs, `dist-1` to both tors
/// and `dist-2` to both tors, 2 x 25G each (cost 400). `tor` now has two
/// ports to the root at the same cost; the one with the higher port id
/// (`dist-tor-2`, second in the file) is an alternate at `tor`: a port the
/// real network, one port-channel, does not block. The core's end of
/// `core-tor` still blocks (400 from `tor` against 1000).
#[test]
fn split_in_two_the_tree_blocks_a_port_the_real_network_does_not() {
    let split = DOUBLE.replace(
        "[[links]]\nname = \"dist-tor\"\na = [\"dist-1\", \"dist-2\"]\nb = [\"tor-1\", \"tor-2\"]\nspeed = \"25G\"\nmembers = 4\n",
        "[[links]]\nname = \"dist-tor-1\"\na = \"dist-1\"\nb = [\"tor-1\", \"tor-2\"]\nspeed = \"25G\"\nmembers = 2\n\n\
         [[links]]\nname = \"dist-tor-2\"\na = \"dist-2\"\nb = [\"tor-1\", \"tor-2\"]\nspeed = \"25G\"\nmembers = 2\n",
    );
    assert_ne!(split, DOUBLE);
    let d = design(&split);
    let (t, f) = solve(&d, &Failures::default());
    assert_eq!(
        blocked(&d, &t, &f),
        vec![
            ("dist-tor-1".to_string(), vec![]),
            ("dist-tor-2".to_string(), vec![End::B]),
            ("core-dist".to_string(), vec![]),
            ("core-tor".to_string(), vec![End::A]),
        ]
    );
}

/// Members are spread over the four (a, b) switch pairs: one per pair.
#[test]
fn member_failures_take_each_switchs_share_of_the_double_sided_lag() {
    let d = design(DOUBLE);
    let t = Topology::build(&d);
    let fabric = Fabric::new(&d, &t);
    let state = |down: &[&str]| -> PortState {
        let failures = Failures {
            switches: down.iter().map(|n| sw(&d, n)).collect(),
            ..Failures::default()
        };
        fabric.port_state(&d, &t, 0, &failures)
    };
    assert_eq!(state(&[]).members, 4);
    assert_eq!(state(&["dist-1"]).members, 2);
    assert_eq!(state(&["tor-2"]).members, 2);
    assert_eq!(state(&["dist-1", "tor-2"]).members, 1);
    let both = state(&["dist-1", "dist-2"]);
    assert!(!both.up && both.members == 0);
    // A cable lost on top of a switch.
    let mut failures = Failures {
        switches: [sw(&d, "tor-1")].into_iter().collect(),
        ..Failures::default()
    };
    failures.cables.insert((t.ports[0].link, 0));
    assert_eq!(fabric.port_state(&d, &t, 0, &failures).members, 1);
}

/// A VLAN the `a` end's peer-link does not carry splits that domain, and
/// the double-sided LAG carries it only if both ends' peer-links do (NX-OS
/// suspends it on the vPC otherwise): here the `dist` peer-link drops
/// VLAN 20, so `dist-tor` does not carry it, while VLAN 10 still crosses.
#[test]
fn both_ends_peer_links_decide_what_the_double_sided_lag_carries() {
    let pruned = DOUBLE.replace(
        "name = \"dist-peer\"\na = \"dist-1\"\nb = \"dist-2\"\nkind = \"peer-link\"\nspeed = \"100G\"\nmembers = 2\n",
        "name = \"dist-peer\"\na = \"dist-1\"\nb = \"dist-2\"\nkind = \"peer-link\"\nspeed = \"100G\"\nmembers = 2\nvlans = [10, 30, 100]\n",
    );
    assert_ne!(pruned, DOUBLE);
    let d = design(&pruned);
    let (_, f) = solve(&d, &Failures::default());
    assert_eq!(
        f.vlan(Some(20)).unwrap().not_carried[0],
        Some(NotCarried::PeerLink {
            from: sw(&d, "dist-1"),
            to: sw(&d, "dist-2"),
            link: d.link_by_name("dist-peer"),
        })
    );
    assert_eq!(f.vlan(Some(10)).unwrap().not_carried[0], None);
}

/// Routed uplinks and the links of unmanaged devices are cabling: no
/// spanning-tree port, so the firewall's two links to the vPC pair close
/// no loop and nothing blocks. The same cabling written as plain links to
/// managed switches makes the firewall, the BMC switch and the routers
/// bridges, each joined to the vPC pair's bridge: the firewall's second
/// link blocks, and so does one of each router's two links.
#[test]
fn routed_links_and_unmanaged_devices_are_no_bridge_ports() {
    let d = design(ROUTED);
    let (t, f) = solve(&d, &Failures::default());
    assert!(t.ports.is_empty(), "{:?}", t.ports);
    assert_eq!(t.cabling_links.len(), 7);
    assert_eq!(t.internal_links.len(), 1);
    let fw = sw(&d, "fw");
    assert!(!d.switch(fw).is_managed());
    assert_eq!(d.switch(fw).stp.mode.value, netlint_model::StpMode::None);
    assert!(!d.switch(fw).defines_vlan(Some(100)));
    // Hosts still reach each other through the vPC pair.
    let vm = d.network_by_name("vm").unwrap();
    let r = f.reach(
        &d,
        &t,
        vm,
        netlint_model::HostId(0),
        netlint_model::HostId(1),
    );
    assert!(r.broken.is_none(), "{:?}", r.broken);

    let bridged = ROUTED
        .replace("managed = false\n", "")
        .replace("kind = \"routed\"\n", "");
    let d = design(&bridged);
    let (t, f) = solve(&d, &Failures::default());
    assert_eq!(t.ports.len(), 7);
    let blocking = (0..t.ports.len())
        .filter(|p| !f.blocking_ends(&t, *p, Some(100)).is_empty())
        .count();
    assert_eq!(blocking, 3, "{:?}", blocked(&d, &t, &f));
}

/// Failing an unmanaged device or a routed link's cable takes nothing
/// from the hosts' networks, and the spanning tree does not change.
#[test]
fn failures_of_cabling_take_nothing_away() {
    let d = design(ROUTED);
    let (t, healthy) = solve(&d, &Failures::default());
    for failures in [
        Failures {
            switches: [sw(&d, "fw")].into_iter().collect(),
            ..Failures::default()
        },
        Failures {
            cables: [(d.link_by_name("core-1--tor-1").unwrap(), 0)]
                .into_iter()
                .collect(),
            ..Failures::default()
        },
    ] {
        let f = Fabric::new(&d, &t).forwarding(&d, &t, &failures);
        for n in 0..d.networks.len() {
            let net = netlint_model::NetworkId(n);
            let r = f.reach(
                &d,
                &t,
                net,
                netlint_model::HostId(0),
                netlint_model::HostId(1),
            );
            assert!(r.broken.is_none(), "{failures:?}: {:?}", r.broken);
        }
        assert_eq!(f.ports, healthy.ports);
    }
}
