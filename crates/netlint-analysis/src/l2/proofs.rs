//! Proof that the forwarding layer is right, on whole designs: hand-computed
//! topologies (square, ring of five, parallel cables, LAG against single
//! cable, MSTP with two instances rooted apart, a region boundary, PVST),
//! and properties over random designs (reachability is symmetric, every
//! VLAN forwards on a forest, the result does not depend on the order of
//! the tables in the file).

use super::*;
use netlint_model::{load, SourceFile};
use proptest::prelude::*;

fn design(src: &str) -> Design {
    let l = load(&SourceFile::new("t.toml", src));
    assert!(l.diagnostics.is_empty(), "{:#?}\n{src}", l.diagnostics);
    l.design.unwrap()
}

struct Net {
    d: Design,
    t: Topology,
    f: Forwarding,
}

fn solve(src: &str) -> Net {
    let d = design(src);
    let t = Topology::build(&d);
    let f = Fabric::new(&d, &t).forwarding(&d, &t, &Failures::default());
    Net { d, t, f }
}

impl Net {
    /// The port of a link by name ("par#2" for cable 2 of a bundle).
    fn port(&self, name: &str) -> usize {
        let (link, cable) = match name.split_once('#') {
            Some((l, c)) => (l, Some(c.parse::<u32>().unwrap() - 1)),
            None => (name, None),
        };
        self.t
            .ports
            .iter()
            .position(|p| self.d.link(p.link).name == link && p.cable == cable)
            .unwrap_or_else(|| panic!("no port {name}"))
    }
    fn name(&self, port: usize) -> String {
        let p = &self.t.ports[port];
        match p.cable {
            Some(c) => format!("{}#{}", self.d.link(p.link).name, c + 1),
            None => self.d.link(p.link).name.clone(),
        }
    }
    /// Names of the ports forwarding `vlan`, sorted.
    fn forwarding(&self, vlan: Option<u16>) -> Vec<String> {
        let view = self.f.vlan(vlan).unwrap();
        let mut v: Vec<String> = (0..self.t.ports.len())
            .filter(|p| view.forwarding[*p])
            .map(|p| self.name(p))
            .collect();
        v.sort();
        v
    }
    fn host(&self, name: &str) -> HostId {
        self.d.host_by_name(name).unwrap()
    }
    fn reach(&self, net: &str, a: &str, b: &str) -> Reach {
        let n = self.d.network_by_name(net).unwrap();
        self.f
            .reach(&self.d, &self.t, n, self.host(a), self.host(b))
    }
    fn path(&self, net: &str, a: &str, b: &str) -> Vec<String> {
        let r = self.reach(net, a, b);
        assert!(r.broken.is_none(), "{net} {a}-{b}: {:?}", r.broken);
        r.path.iter().map(|p| self.name(*p)).collect()
    }
    fn bridge(&self, name: &str) -> BridgeId {
        BridgeId(self.t.bridges.iter().position(|b| b.name == name).unwrap())
    }
}

/// A network on VLAN 10 (and 20, 30), one host NIC per listed switch.
fn with_hosts(body: &str, hosts: &[(&str, &str)]) -> String {
    let mut s = String::from(
        "[design]\nname = \"t\"\n[networks.n10]\nrole = \"management\"\nvlan = 10\n\
         [networks.n20]\nrole = \"csv\"\nvlan = 20\n[networks.n30]\nrole = \"vm\"\nvlan = 30\n",
    );
    s.push_str(body);
    for (h, sw) in hosts {
        s.push_str(&format!(
            "[hosts.{h}.nics.A]\nspeed = \"10G\"\nswitch = \"{sw}\"\nnetworks = [\"n10\", \"n20\", \"n30\"]\n"
        ));
    }
    s
}

fn link(name: &str, a: &str, b: &str, speed: &str, extra: &str) -> String {
    format!(
        "[[links]]\nname = \"{name}\"\na = \"{a}\"\nb = \"{b}\"\nspeed = \"{speed}\"\n{extra}\n"
    )
}

fn switch(name: &str, stp: &str) -> String {
    format!("[switches.{name}]\nstp = {{ {stp} }}\n")
}

#[test]
fn square_blocks_the_link_between_the_two_far_corners() {
    // a is root (4096). b and d reach it directly (2000 each); c ties at
    // 4000 through b or d and takes b (lower bridge id, MAC ...0b), so c's
    // end of c-d is alternate: c-d blocks.
    let body = [
        switch("a", "priority = 4096, mac = \"00:00:00:00:00:0a\""),
        switch("b", "mac = \"00:00:00:00:00:0b\""),
        switch("c", "mac = \"00:00:00:00:00:0c\""),
        switch("d", "mac = \"00:00:00:00:00:0d\""),
        link("a-b", "a", "b", "10G", ""),
        link("b-c", "b", "c", "10G", ""),
        link("c-d", "c", "d", "10G", ""),
        link("d-a", "d", "a", "10G", ""),
    ]
    .concat();
    let n = solve(&with_hosts(&body, &[("h1", "c"), ("h2", "d")]));
    assert_eq!(n.forwarding(Some(10)), ["a-b", "b-c", "d-a"]);
    let blocking = n.f.blocking_ends(&n.t, n.port("c-d"), Some(10));
    assert_eq!(blocking.len(), 1);
    assert_eq!(blocking[0].bridge, n.bridge("c"));
    // h1 (on c) to h2 (on d) goes the long way round.
    assert_eq!(n.path("n10", "h1", "h2"), ["b-c", "a-b", "d-a"]);
}

#[test]
fn ring_of_five_blocks_the_link_opposite_the_root() {
    // a root; b, e at 2000; c (via b) and d (via e) at 4000; on c-d both
    // offer 4000 and c has the lower id, so d's end blocks.
    let body = [
        switch("a", "priority = 4096, mac = \"00:00:00:00:00:0a\""),
        switch("b", "mac = \"00:00:00:00:00:0b\""),
        switch("c", "mac = \"00:00:00:00:00:0c\""),
        switch("d", "mac = \"00:00:00:00:00:0d\""),
        switch("e", "mac = \"00:00:00:00:00:0e\""),
        link("a-b", "a", "b", "10G", ""),
        link("b-c", "b", "c", "10G", ""),
        link("c-d", "c", "d", "10G", ""),
        link("d-e", "d", "e", "10G", ""),
        link("e-a", "e", "a", "10G", ""),
    ]
    .concat();
    let n = solve(&with_hosts(&body, &[("h1", "c"), ("h2", "d")]));
    assert_eq!(n.forwarding(Some(20)), ["a-b", "b-c", "d-e", "e-a"]);
    let blocking = n.f.blocking_ends(&n.t, n.port("c-d"), Some(20));
    assert_eq!(blocking[0].bridge, n.bridge("d"));
    assert_eq!(n.path("n20", "h1", "h2"), ["b-c", "a-b", "e-a", "d-e"]);
    // The tree path ignores allowed lists; the widest carried path is the
    // direct 10G link that the tree blocks.
    let (c, d) = (n.bridge("c"), n.bridge("d"));
    assert_eq!(n.f.tree_path(&n.t, Some(20), c, d).unwrap().len(), 4);
    assert_eq!(
        n.f.widest_carried_path(&n.t, Some(20), c, d),
        Some(vec![n.port("c-d")])
    );
}

#[test]
fn parallel_cables_without_a_lag_forward_one_and_block_the_other() {
    // Two independent 1G cables: two ports. b's root port is the one whose
    // far (designated) port on a has the lower number: cable 1.
    let body = [
        switch("a", "priority = 4096"),
        switch("b", ""),
        link("par", "a", "b", "1G", "members = 2\nlag = \"none\""),
    ]
    .concat();
    let n = solve(&with_hosts(&body, &[("h1", "a"), ("h2", "b")]));
    assert_eq!(n.t.ports.len(), 2);
    assert_eq!(n.forwarding(Some(10)), ["par#1"]);
    assert_eq!(n.path("n10", "h1", "h2"), ["par#1"]);
    // As a LAG the two cables are one 2G port, forwarding.
    let lag = solve(&with_hosts(
        &body.replace("lag = \"none\"", "lag = \"lacp\""),
        &[("h1", "a"), ("h2", "b")],
    ));
    assert_eq!(lag.t.ports.len(), 1);
    assert_eq!(lag.forwarding(Some(10)), ["par"]);
    assert_eq!(lag.t.ports[0].speed(), Some(Speed::from_gbps(2)));
    // The slowest link of a path is per cable: 1G, not the LAG's 2G.
    assert_eq!(
        lag.reach("n10", "h1", "h2").slowest,
        Some((0, Some(Speed::from_gbps(1))))
    );
}

#[test]
fn a_lag_costs_its_aggregate_speed() {
    // b reaches the root a directly over one 10G cable (2000), or through c
    // over two LAGs. With 4 x 10G LAGs (500 each) the detour costs 1000 and
    // wins: the direct link blocks. With single cables it costs 4000 and
    // the direct link forwards.
    let body = |members: u32| {
        [
            switch("a", "priority = 4096"),
            switch("b", ""),
            switch("c", "priority = 8192"),
            link("a-b", "a", "b", "10G", ""),
            link("a-c", "a", "c", "10G", &format!("members = {members}")),
            link("c-b", "c", "b", "10G", &format!("members = {members}")),
        ]
        .concat()
    };
    let lagged = solve(&with_hosts(&body(4), &[("h1", "a"), ("h2", "b")]));
    assert_eq!(lagged.forwarding(Some(10)), ["a-c", "c-b"]);
    assert_eq!(lagged.path("n10", "h1", "h2"), ["a-c", "c-b"]);
    let single = solve(&with_hosts(&body(1), &[("h1", "a"), ("h2", "b")]));
    assert_eq!(single.forwarding(Some(10)), ["a-b", "a-c"]);
    assert_eq!(single.path("n10", "h1", "h2"), ["a-b"]);
}

#[test]
fn mstp_instances_rooted_on_different_bridges_block_different_links() {
    // One region; VLAN 10 in instance 1 rooted at a, VLAN 20 in instance 2
    // rooted at b, VLAN 30 in the IST whose root is c. In a triangle each
    // tree blocks the link opposite its root.
    let mst = "mode = \"mstp\", region = \"r\", revision = 1, instances = { 1 = [10], 2 = [20] }";
    let body = [
        switch("a", &format!("{mst}, instance_priority = {{ 1 = 4096 }}")),
        switch("b", &format!("{mst}, instance_priority = {{ 2 = 4096 }}")),
        switch("c", &format!("{mst}, priority = 4096")),
        link("a-b", "a", "b", "10G", ""),
        link("b-c", "b", "c", "10G", ""),
        link("c-a", "c", "a", "10G", ""),
    ]
    .concat();
    let n = solve(&with_hosts(&body, &[("h1", "a"), ("h2", "b"), ("h3", "c")]));
    assert_eq!(n.forwarding(Some(10)), ["a-b", "c-a"]);
    assert_eq!(n.forwarding(Some(20)), ["a-b", "b-c"]);
    assert_eq!(n.forwarding(Some(30)), ["b-c", "c-a"]);
    // So b to c is direct for VLAN 20 and 30, and goes through a for VLAN 10.
    assert_eq!(n.path("n10", "h2", "h3"), ["a-b", "c-a"]);
    assert_eq!(n.path("n20", "h2", "h3"), ["b-c"]);
    assert_eq!(n.path("n30", "h2", "h3"), ["b-c"]);
    let t10 = n.f.tree_of(n.bridge("b"), Some(10)).unwrap();
    let tree = n.f.stp.tree(t10).unwrap();
    assert_eq!(
        tree.kind,
        crate::stp::TreeKind::Msti {
            region: 0,
            instance: 1
        }
    );
    assert_eq!(n.f.stp.regions()[0].name(), "r");
    assert_eq!(tree.roots[0].root, n.bridge("a").0);
}

#[test]
fn a_region_boundary_makes_the_region_one_bridge_on_the_cist() {
    // Regions r1 = {a, b} (root a) and r2 = {c, d} (another revision), in a
    // square a-b, c-d, a-c, b-d. Inside r1 everything has external cost 0,
    // so c and d both hear external cost 2000 across the boundary; c wins
    // the CIST regional root on its lower id, and d reaches the outside
    // through c rather than over its own boundary link b-d, which blocks.
    let r1 = "mode = \"mstp\", region = \"r1\", revision = 1, instances = { 1 = [10] }";
    let r2 = "mode = \"mstp\", region = \"r2\", revision = 2, instances = { 1 = [10] }";
    let body = [
        switch(
            "a",
            &format!("{r1}, priority = 4096, mac = \"00:00:00:00:00:0a\""),
        ),
        switch("b", &format!("{r1}, mac = \"00:00:00:00:00:0b\"")),
        switch("c", &format!("{r2}, mac = \"00:00:00:00:00:0c\"")),
        switch("d", &format!("{r2}, mac = \"00:00:00:00:00:0d\"")),
        link("a-b", "a", "b", "10G", ""),
        link("c-d", "c", "d", "10G", ""),
        link("a-c", "a", "c", "10G", ""),
        link("b-d", "b", "d", "10G", ""),
    ]
    .concat();
    let n = solve(&with_hosts(&body, &[("h1", "b"), ("h2", "d")]));
    assert_eq!(n.f.stp.regions().len(), 2);
    for v in [Some(10), Some(20)] {
        assert_eq!(n.forwarding(v), ["a-b", "a-c", "c-d"], "{v:?}");
    }
    let blocking = n.f.blocking_ends(&n.t, n.port("b-d"), Some(10));
    assert_eq!(blocking[0].bridge, n.bridge("d"));
    assert_eq!(n.path("n10", "h1", "h2"), ["a-b", "a-c", "c-d"]);
}

#[test]
fn pvst_runs_each_vlan_on_the_links_that_carry_it() {
    // The triangle under rapid-PVST+: VLAN 10's tree spans the uplinks and
    // blocks the ISL; VLAN 20 is carried on the ISL only, so its tree is the
    // ISL, which forwards.
    let body = [
        switch("core", "mode = \"rapid-pvst\", priority = 4096"),
        switch(
            "tor-a",
            "mode = \"rapid-pvst\", mac = \"00:00:00:00:00:0a\"",
        ),
        switch(
            "tor-b",
            "mode = \"rapid-pvst\", mac = \"00:00:00:00:00:0b\"",
        ),
        link("isl", "tor-a", "tor-b", "10G", "members = 2"),
        link("up-a", "tor-a", "core", "1G", "members = 2\nvlans = [10]"),
        link("up-b", "tor-b", "core", "1G", "members = 2\nvlans = [10]"),
    ]
    .concat();
    let n = solve(&with_hosts(&body, &[("h1", "tor-a"), ("h2", "tor-b")]));
    assert_eq!(n.forwarding(Some(10)), ["up-a", "up-b"]);
    assert_eq!(n.forwarding(Some(20)), ["isl"]);
    assert_eq!(n.path("n10", "h1", "h2"), ["up-a", "up-b"]);
    assert_eq!(n.path("n20", "h1", "h2"), ["isl"]);
    let t20 = n.f.tree_of(n.bridge("tor-a"), Some(20)).unwrap();
    let tree = n.f.stp.tree(t20).unwrap();
    assert_eq!(tree.kind, crate::stp::TreeKind::PvstVlan(20));
    assert_eq!(tree.root_of(n.bridge("tor-a").0), Some(n.bridge("tor-a").0));
    // The same under RSTP: one tree, the ISL blocks for VLAN 20 too.
    let rstp = solve(&with_hosts(
        &body.replace("rapid-pvst", "rstp"),
        &[("h1", "tor-a"), ("h2", "tor-b")],
    ));
    assert!(matches!(
        rstp.reach("n20", "h1", "h2").broken,
        Some(Break::Blocked { .. })
    ));
}

#[test]
fn adapter_paths_cover_every_active_member_and_what_if_recomputes() {
    // A SET switch on tor-a and tor-b: traffic can leave either member, so
    // the pairs include tor-a <-> tor-b although the first pair shares tor-a.
    let body = [
        switch("core", "priority = 4096"),
        switch("tor-a", "mac = \"00:00:00:00:00:0a\""),
        switch("tor-b", "mac = \"00:00:00:00:00:0b\""),
        link("isl", "tor-a", "tor-b", "10G", "members = 2"),
        link("up-a", "tor-a", "core", "1G", "members = 2"),
        link("up-b", "tor-b", "core", "1G", "members = 2"),
    ]
    .concat();
    let mut src = with_hosts(&body, &[]);
    for h in ["h1", "h2"] {
        src.push_str(&format!(
            "[hosts.{h}.nics.A]\nspeed = \"10G\"\nswitch = \"tor-a\"\n[hosts.{h}.nics.B]\nspeed = \"10G\"\nswitch = \"tor-b\"\n[hosts.{h}.vswitches.S]\nuplinks = [\"A\", \"B\"]\nnetworks = [\"n30\"]\n"
        ));
    }
    let n = solve(&src);
    let net = n.d.network_by_name("n30").unwrap();
    let paths =
        n.f.adapter_paths(&n.d, &n.t, net, n.host("h1"), n.host("h2"));
    assert_eq!(paths.len(), 4);
    let cross = paths
        .iter()
        .find(|p| p.from == n.bridge("tor-a") && p.to == n.bridge("tor-b"))
        .unwrap();
    let names: Vec<String> = cross
        .path
        .as_ref()
        .unwrap()
        .iter()
        .map(|p| n.name(*p))
        .collect();
    assert_eq!(names, ["up-a", "up-b"]);
    // Raising up-b's cost above 11000 moves tor-b's root port to the ISL.
    let isl = n.port("isl");
    let upb = n.port("up-b");
    let fabric = Fabric::new(&n.d, &n.t).what_if(&n.d, |_, links| links[upb].cost = Some(12000));
    let f2 = fabric.forwarding(&n.d, &n.t, &Failures::default());
    assert!(f2.vlan(Some(30)).unwrap().forwarding[isl]);
    assert!(!f2.vlan(Some(30)).unwrap().forwarding[upb]);
    // And the cut in the RSTP triangle is explained per bridge pair.
    assert_eq!(
        n.f.explain_bridges(&n.t, Some(30), n.bridge("tor-a"), n.bridge("tor-b")),
        None
    );
}

// ---------------------------------------------------------------- properties

/// A random design, as its tables, so they can be written in any order.
#[derive(Clone, Debug)]
struct Spec {
    switches: Vec<String>,
    links: Vec<String>,
    hosts: Vec<String>,
    networks: Vec<String>,
}

impl Spec {
    fn text(&self, order: &[usize; 4], seed: u64) -> String {
        let mut s = String::from("[design]\nname = \"p\"\n");
        let shuffle = |v: &[String], salt: u64| -> Vec<String> {
            let mut idx: Vec<(u64, usize)> = (0..v.len())
                .map(|i| {
                    let x = (i as u64 + 1)
                        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                        .wrapping_add(seed ^ salt)
                        .rotate_left(17)
                        .wrapping_mul(0xbf58_476d_1ce4_e5b9);
                    (x, i)
                })
                .collect();
            if seed != 0 {
                idx.sort();
            }
            idx.into_iter().map(|(_, i)| v[i].clone()).collect()
        };
        let parts = [
            shuffle(&self.networks, 1),
            shuffle(&self.switches, 2),
            shuffle(&self.links, 3),
            shuffle(&self.hosts, 4),
        ];
        for &i in order {
            for t in &parts[i] {
                s.push_str(t);
            }
        }
        s
    }
}

fn spec() -> impl Strategy<Value = Spec> {
    (2usize..7).prop_flat_map(|n| {
        (
            Just(n),
            0u8..4,
            proptest::collection::vec((0u32..4, any::<bool>()), n),
            proptest::collection::vec(any::<prop::sample::Index>(), n - 1),
            proptest::collection::vec((0..n, 0..n, 0u8..4, 1u32..3, any::<bool>(), 0u8..4), 0..2 * n),
            proptest::collection::vec(proptest::collection::vec(0..n, 1..3), 2..5),
            proptest::collection::vec(proptest::option::of(0u8..3), n),
        )
            .prop_map(|(n, mode, sw, tree, extra, hosts, defined)| {
                let mode = ["rstp", "mstp", "rapid-pvst", "stp"][mode as usize];
                let vlan_sets = ["[10]", "[10, 20]", "[20, 30]"];
                let switches = (0..n)
                    .map(|i| {
                        let (prio, mac) = sw[i];
                        let mut stp = format!("mode = \"{mode}\", priority = {}", [4096, 8192, 32768, 32768][prio as usize]);
                        if mac {
                            stp.push_str(&format!(", mac = \"00:00:00:00:00:{i:02x}\""));
                        }
                        if mode == "mstp" {
                            stp.push_str(", region = \"r\", revision = 1, instances = { 1 = [20], 2 = [30] }");
                            stp.push_str(&format!(", instance_priority = {{ 1 = {}, 2 = {} }}", 4096 * (i as u32 % 3 + 1), 4096 * ((i as u32 + 1) % 3 + 1)));
                        }
                        let vlans = defined[i]
                            .map(|k| format!("vlans = {}\n", ["[10, 20, 30]", "[10, 20]", "[10, 30]"][k as usize]))
                            .unwrap_or_default();
                        format!("[switches.s{i}]\n{vlans}stp = {{ {stp} }}\n")
                    })
                    .collect();
                let speeds = ["1G", "10G", "25G", "100G"];
                let mut links = Vec::new();
                // A random spanning tree keeps most designs connected.
                for i in 1..n {
                    let p = tree[i - 1].index(i);
                    links.push(format!("[[links]]\nname = \"t{i}\"\na = \"s{p}\"\nb = \"s{i}\"\nspeed = \"10G\"\n"));
                }
                for (k, (a, b, sp, members, lag, vl)) in extra.into_iter().enumerate() {
                    if a == b {
                        continue;
                    }
                    let mut l = format!(
                        "[[links]]\nname = \"x{k}\"\na = \"s{a}\"\nb = \"s{b}\"\nspeed = \"{}\"\nmembers = {members}\n",
                        speeds[sp as usize]
                    );
                    if members > 1 && !lag {
                        l.push_str("lag = \"none\"\n");
                    }
                    if vl < 3 {
                        l.push_str(&format!("vlans = {}\n", vlan_sets[vl as usize]));
                    }
                    links.push(l);
                }
                let hosts = hosts
                    .into_iter()
                    .enumerate()
                    .map(|(h, nics)| {
                        let mut t = String::new();
                        let mut members = Vec::new();
                        for (k, sw) in nics.iter().enumerate() {
                            t.push_str(&format!("[hosts.h{h}.nics.N{k}]\nspeed = \"10G\"\nswitch = \"s{sw}\"\n"));
                            members.push(format!("\"N{k}\""));
                        }
                        t.push_str(&format!(
                            "[hosts.h{h}.vswitches.V]\nuplinks = [{}]\nnetworks = [\"n30\"]\n[hosts.h{h}.vswitches.V.vnics.C]\nnetwork = \"n20\"\n[hosts.h{h}.vswitches.V.vnics.M]\nnetwork = \"n10\"\n",
                            members.join(", ")
                        ));
                        t
                    })
                    .collect();
                let networks = vec![
                    "[networks.n10]\nrole = \"management\"\nvlan = 10\n".to_string(),
                    "[networks.n20]\nrole = \"csv\"\nvlan = 20\n".to_string(),
                    "[networks.n30]\nrole = \"vm\"\nvlan = 30\n".to_string(),
                ];
                Spec {
                    switches,
                    links,
                    hosts,
                    networks,
                }
            })
    })
}

/// What must not depend on the order of the tables: per VLAN the ports
/// that forward, per network and host pair whether they reach each other.
type Signature = (
    Vec<(Option<u16>, Vec<String>)>,
    Vec<(String, String, String, bool)>,
);

fn signature(n: &Net) -> Signature {
    let vlans = [Some(10), Some(20), Some(30)]
        .into_iter()
        .map(|v| (v, n.forwarding(v)))
        .collect();
    let mut pairs: Vec<(String, String, String, bool)> = all_pairs(&n.d, &n.t, &n.f)
        .iter()
        .map(|r| {
            let (a, b) = (n.d.host(r.a).name.clone(), n.d.host(r.b).name.clone());
            let (a, b) = if a < b { (a, b) } else { (b, a) };
            (
                n.d.network(r.network).name.clone(),
                a,
                b,
                r.broken.is_none(),
            )
        })
        .collect();
    pairs.sort();
    (vlans, pairs)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Reachability does not depend on which host asks.
    #[test]
    fn reachability_is_symmetric(s in spec()) {
        let n = solve(&s.text(&[0, 1, 2, 3], 0));
        for net in 0..n.d.networks.len() {
            let hosts = n.t.hosts_on(NetworkId(net));
            for &a in &hosts {
                for &b in &hosts {
                    let ab = n.f.reach(&n.d, &n.t, NetworkId(net), a, b);
                    let ba = n.f.reach(&n.d, &n.t, NetworkId(net), b, a);
                    prop_assert_eq!(ab.broken.is_none(), ba.broken.is_none(), "{:?} {:?}", ab.broken, ba.broken);
                    prop_assert_eq!(ab.path.len(), ba.path.len());
                }
            }
        }
    }

    /// Whether two hosts reach each other is a question of components:
    /// the classes' keys (VLAN and forwarding component per carrier) meet
    /// exactly when the walk finds no break, healthy and with any one
    /// switch down; the broken pairs listed, counted and grouped from the
    /// keys are the ones the walks find.
    #[test]
    fn reachability_by_components_is_reachability_by_walking(s in spec(), down in 0usize..8) {
        let n = solve(&s.text(&[0, 1, 2, 3], 0));
        let mut failures = Failures::default();
        if down < n.d.switches.len() {
            failures.switches.insert(SwitchId(down));
        }
        let f = Fabric::new(&n.d, &n.t).forwarding(&n.d, &n.t, &failures);
        let r = Reachability::new(&n.d, &n.t, &f);
        for g in r.groups() {
            let m = g.members();
            let mut broken = 0;
            let mut first = None;
            for i in 0..m.len() {
                for j in i + 1..m.len() {
                    let walked = f.reach(&n.d, &n.t, g.network(), m[i], m[j]);
                    prop_assert_eq!(g.members_reach(i, j), walked.broken.is_none(), "{:?}", walked.broken);
                    if walked.broken.is_some() {
                        broken += 1;
                        first.get_or_insert((m[i], m[j]));
                    }
                }
            }
            // One cluster per network here: the group is the network's.
            prop_assert_eq!(r.broken_count(g.network()).0, broken);
            prop_assert_eq!(r.first_broken(g.network()).map(|cp| cp.first()), first);
            let listed: usize = r
                .class_pairs(Which::Broken, Some(g.network()))
                .iter()
                .map(|cp| cp.len())
                .sum();
            prop_assert_eq!(listed, broken);
        }
    }

    /// No VLAN ever forwards on a cycle: parallel cables and rings included.
    #[test]
    fn every_vlan_forwards_on_a_forest(s in spec()) {
        let n = solve(&s.text(&[0, 1, 2, 3], 0));
        for v in [Some(10), Some(20), Some(30)] {
            let view = n.f.vlan(v).unwrap();
            let mut sets = crate::UnionFind::new(n.t.bridges.len());
            for (i, port) in n.t.ports.iter().enumerate() {
                if !view.forwarding[i] {
                    continue;
                }
                prop_assert!(sets.union(port.a.0, port.b.0), "VLAN {:?} forwards a cycle through {}", v, n.name(i));
            }
            // And a forwarding path is a path of forwarding ports.
            for r in all_pairs(&n.d, &n.t, &n.f).iter().filter(|r| n.d.network(r.network).vlan_id() == v) {
                prop_assert!(r.path.iter().all(|p| view.forwarding[*p]));
            }
        }
    }

    /// The order of networks, switches, links and hosts in the file changes
    /// nothing.
    #[test]
    fn forwarding_does_not_depend_on_table_order(s in spec(), seed in 1u64.., order in Just([3usize, 2, 1, 0])) {
        let a = solve(&s.text(&[0, 1, 2, 3], 0));
        let b = solve(&s.text(&order, seed));
        prop_assert_eq!(signature(&a), signature(&b));
    }
}
