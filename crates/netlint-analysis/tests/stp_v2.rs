//! Format v2 spanning-tree settings, each on a small network whose trees
//! are worked out by hand in the comments: PVST+ per-VLAN priorities,
//! the path-cost method, spanning tree off per VLAN, and MLAG peer-switch.

use netlint_analysis::l2::Fabric;
use netlint_analysis::stp::{End, PortRef, PortRole, StpResult, TreeId};
use netlint_analysis::Topology;
use netlint_model::{load, Design, SourceFile};

fn design(src: &str) -> Design {
    let l = load(&SourceFile::new("t.toml", src));
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    l.design.unwrap()
}

struct Solved {
    fabric: Fabric,
    res: StpResult,
}

fn solve(src: &str) -> Solved {
    let d = design(src);
    let t = Topology::build(&d);
    let fabric = Fabric::new(&d, &t);
    let res = fabric.engine().compute_healthy();
    Solved { fabric, res }
}

impl Solved {
    fn bridge(&self, name: &str) -> usize {
        self.fabric
            .engine()
            .bridges()
            .iter()
            .position(|b| b.name == name)
            .unwrap_or_else(|| panic!("no bridge {name}"))
    }
    fn link(&self, name: &str) -> usize {
        self.fabric
            .engine()
            .links()
            .iter()
            .position(|l| l.name == name)
            .unwrap_or_else(|| panic!("no link {name}"))
    }
    fn tree(&self, vlan: u16) -> TreeId {
        self.res.pvst_vlan(vlan).expect("a PVST tree")
    }
    fn root(&self, vlan: u16) -> String {
        let t = self.res.tree(self.tree(vlan)).unwrap();
        let r = t.roots[0].root;
        self.fabric.engine().bridges()[r].name.clone()
    }
    /// The role of `bridge`'s end of `link` in VLAN `vlan`'s tree.
    fn role(&self, vlan: u16, link: &str, bridge: &str) -> PortRole {
        let l = self.link(link);
        let b = self.bridge(bridge);
        let e = &self.fabric.engine().links()[l];
        let end = if e.a == b { End::A } else { End::B };
        let t = self.res.tree(self.tree(vlan)).unwrap();
        t.port(PortRef::new(l, end)).expect("a port").role
    }
    fn cost(&self, vlan: u16, link: &str, bridge: &str) -> u32 {
        let l = self.link(link);
        let b = self.bridge(bridge);
        let e = &self.fabric.engine().links()[l];
        let end = if e.a == b { End::A } else { End::B };
        let t = self.res.tree(self.tree(vlan)).unwrap();
        t.port(PortRef::new(l, end)).expect("a port").cost
    }
    /// Links forwarding `vlan` that lie on a loop.
    fn loops(&self, vlan: u16) -> Vec<String> {
        let fwd = self.res.forwarding_links(Some(vlan)).expect("computed");
        self.res
            .links_on_loops(fwd)
            .into_iter()
            .map(|l| self.fabric.engine().links()[l].name.clone())
            .collect()
    }
}

/// A distribution pair `d1`, `d2` and an access switch `acc`, all 10G:
/// `d1 --peer-- d2`, `d1 --up1-- acc`, `d2 --up2-- acc`.
fn triangle(d1: &str, d2: &str, acc: &str) -> String {
    format!(
        r#"
[design]
name = "t"
[networks.a]
role = "management"
vlan = 10
[networks.b]
role = "vm"
vlan = 20
[networks.c]
role = "csv"
vlan = 30
[networks.d]
role = "backup"
vlan = 4094
[switches.d1]
stp = {{ {d1} }}
[switches.d2]
stp = {{ {d2} }}
[switches.acc]
stp = {{ {acc} }}
[[links]]
name = "peer"
a = "d1"
b = "d2"
speed = "10G"
[[links]]
name = "up1"
a = "d1"
b = "acc"
speed = "10G"
[[links]]
name = "up2"
a = "d2"
b = "acc"
speed = "10G"
"#
    )
}

#[test]
fn per_vlan_priority_splits_the_roots() {
    let s = solve(&triangle(
        r#"mode = "rapid-pvst", mac = "00:00:00:00:00:01", vlan_priority = { "10,30" = 4096, "20" = 8192 }"#,
        r#"mode = "rapid-pvst", mac = "00:00:00:00:00:02", vlan_priority = { "20" = 4096, "10,30" = 8192 }"#,
        r#"mode = "rapid-pvst", mac = "00:00:00:00:00:03""#,
    ));
    // VLAN 10: d1 has 4096, d2 8192, acc the default 32768: d1 is root.
    // Every port costs 2 (10G, short costs: the rapid-PVST+ default).
    // acc: up1 reaches d1 at 2, up2 at 2 + 2 = 4: root port up1.
    // d2: peer at 2, up2 at 4: root port peer. On up2 both ends offer root
    // path cost 2; d2's bridge id (8192) beats acc's (32768), so d2's end
    // is designated and acc's end is alternate: acc blocks up2.
    assert_eq!(s.root(10), "d1");
    assert_eq!(s.cost(10, "up1", "acc"), 2);
    assert_eq!(s.role(10, "up1", "acc"), PortRole::Root);
    assert_eq!(s.role(10, "peer", "d2"), PortRole::Root);
    assert_eq!(s.role(10, "up2", "d2"), PortRole::Designated);
    assert_eq!(s.role(10, "up2", "acc"), PortRole::Alternate);
    // VLAN 20 is the mirror image: d2 is root and acc blocks up1.
    assert_eq!(s.root(20), "d2");
    assert_eq!(s.role(20, "up2", "acc"), PortRole::Root);
    assert_eq!(s.role(20, "up1", "d1"), PortRole::Designated);
    assert_eq!(s.role(20, "up1", "acc"), PortRole::Alternate);
    // VLAN 30 has VLAN 10's priorities everywhere: the same tree.
    assert_eq!(s.root(30), "d1");
    assert_eq!(s.role(30, "up2", "acc"), PortRole::Alternate);
    let t10 = s.res.tree(s.tree(10)).unwrap();
    let t30 = s.res.tree(s.tree(30)).unwrap();
    assert_ne!(s.tree(10), s.tree(30), "each VLAN has its own tree entry");
    assert_eq!(t10.ports, t30.ports);
    assert_eq!(t10.roots, t30.roots);
    // VLAN 4094 has no per-VLAN priority: every bridge at its `priority`
    // (32768), so the lowest MAC (d1) wins.
    assert_eq!(s.root(4094), "d1");
    // Forwarding follows: VLAN 10 does not cross up2, VLAN 20 not up1.
    let f10 = s.res.forwarding_links(Some(10)).unwrap();
    let f20 = s.res.forwarding_links(Some(20)).unwrap();
    assert!(!f10[s.link("up2")] && f10[s.link("up1")]);
    assert!(!f20[s.link("up1")] && f20[s.link("up2")]);
}

/// `r` (the root) with a 1G link to `x` and 10G links `r--y` and `y--x`.
fn cost_triangle(method: &str) -> String {
    format!(
        r#"
[design]
name = "t"
[networks.a]
role = "management"
vlan = 10
[switches.r]
stp = {{ mode = "rapid-pvst", priority = 4096 {method} }}
[switches.x]
stp = {{ mode = "rapid-pvst", mac = "00:00:00:00:00:0a" {method} }}
[switches.y]
stp = {{ mode = "rapid-pvst", mac = "00:00:00:00:00:0b" {method} }}
[[links]]
name = "rx"
a = "r"
b = "x"
speed = "1G"
[[links]]
name = "ry"
a = "r"
b = "y"
speed = "10G"
[[links]]
name = "xy"
a = "x"
b = "y"
speed = "10G"
"#
    )
}

#[test]
fn path_cost_method_decides_the_root_port() {
    // Short costs (the rapid-PVST+ default): 1G = 4, 10G = 2. x reaches r
    // directly at 4, or through y at 2 + 2 = 4: a tie, broken by the
    // designated bridge id, r (4096) before y: root port rx. On xy, y offers
    // 2 and x 4: y's end designated, x's end alternate.
    let short = solve(&cost_triangle(""));
    assert_eq!(short.cost(10, "rx", "x"), 4);
    assert_eq!(short.cost(10, "xy", "x"), 2);
    assert_eq!(short.role(10, "rx", "x"), PortRole::Root);
    assert_eq!(short.role(10, "xy", "x"), PortRole::Alternate);
    // Long costs: 1G = 20000, 10G = 2000. Through y costs 4000, less than
    // 20000: x's root port is xy, and x's end of rx is alternate.
    let long = solve(&cost_triangle(r#", path_cost = "long""#));
    assert_eq!(long.cost(10, "rx", "x"), 20_000);
    assert_eq!(long.role(10, "xy", "x"), PortRole::Root);
    assert_eq!(long.role(10, "rx", "x"), PortRole::Alternate);
    // Written short is the default.
    let written = solve(&cost_triangle(r#", path_cost = "short""#));
    assert_eq!(written.role(10, "rx", "x"), PortRole::Root);
}

#[test]
fn platform_default_cost_method() {
    // Dell Networking OS runs rapid-PVST+ on long costs; Cisco NX-OS on short ones.
    let src = |model: &str| {
        cost_triangle("").replace(
            "[switches.x]\n",
            &format!("[switches.x]\nmodel = \"{model}\"\n"),
        )
    };
    let dell = solve(&src("Dell S4048-ON"));
    assert_eq!(dell.cost(10, "rx", "x"), 20_000);
    let nexus = solve(&src("Cisco Nexus 93180YC-EX"));
    assert_eq!(nexus.cost(10, "rx", "x"), 4);
    // MSTP uses long costs whatever the platform.
    let mst = solve(&cost_triangle("").replace("rapid-pvst", "mstp"));
    let rx = mst.link("rx");
    let x = mst.bridge("x");
    let end = if mst.fabric.engine().links()[rx].a == x {
        End::A
    } else {
        End::B
    };
    assert_eq!(
        mst.res.cist().port(PortRef::new(rx, end)).unwrap().cost,
        20_000
    );
}

#[test]
fn spanning_tree_off_in_a_vlan_forwards_everywhere() {
    // Every switch runs `no spanning-tree vlan 4094`. VLAN 10 is a normal
    // tree (d1 lowest MAC, root; acc blocks up2 as in the test above, d2's
    // bridge id beating acc's on the tie), but in VLAN 4094 no switch runs
    // spanning tree: all three links forward it, a loop.
    let off = r#", disabled_vlans = [4094]"#;
    let s = solve(&triangle(
        &format!(r#"mode = "rapid-pvst", mac = "00:00:00:00:00:01"{off}"#),
        &format!(r#"mode = "rapid-pvst", mac = "00:00:00:00:00:02"{off}"#),
        &format!(r#"mode = "rapid-pvst", mac = "00:00:00:00:00:03"{off}"#),
    ));
    assert!(s.loops(10).is_empty());
    assert_eq!(s.role(10, "up2", "acc"), PortRole::Alternate);
    assert_eq!(s.loops(4094), vec!["peer", "up1", "up2"]);
    for b in ["d1", "d2", "acc"] {
        assert_eq!(s.res.governing_tree(s.bridge(b), Some(4094)), None);
    }
}

#[test]
fn spanning_tree_off_on_one_switch_floods_bpdus() {
    // Only acc has VLAN 4094 off. d1 (MAC ...01) is the root of VLAN 4094;
    // acc takes no part and passes BPDUs on like any frame, so up1 and up2
    // are one shared segment holding d1's port on up1 and d2's on up2.
    // d2 reaches d1 over peer at 2, or over that segment at 2 (its own
    // port cost on up2): a tie on cost and on designated bridge (d1), broken
    // by d1's port id: peer is d1's port 1 (links sorted by name: peer,
    // up1), up1 its port 2, so d2's root port is peer and its end of up2 is
    // alternate. The loop is broken, acc forwards everywhere.
    let s = solve(&triangle(
        r#"mode = "rapid-pvst", mac = "00:00:00:00:00:01""#,
        r#"mode = "rapid-pvst", mac = "00:00:00:00:00:02""#,
        r#"mode = "rapid-pvst", mac = "00:00:00:00:00:03", disabled_vlans = [4094]"#,
    ));
    assert_eq!(s.root(4094), "d1");
    assert_eq!(s.role(4094, "peer", "d2"), PortRole::Root);
    assert_eq!(s.role(4094, "up2", "d2"), PortRole::Alternate);
    assert!(s.loops(4094).is_empty());
    let f = s.res.forwarding_links(Some(4094)).unwrap();
    assert!(f[s.link("up1")] && f[s.link("peer")] && !f[s.link("up2")]);
    // acc's own VLAN 10 is untouched: acc blocks up2 as before.
    assert_eq!(s.role(10, "up2", "acc"), PortRole::Alternate);
}

#[test]
fn mlag_peer_switch_true_is_one_bridge() {
    // With peer-switch the vPC pair is one bridge: n1 + n2 present one
    // bridge (priority 4096) to `acc`, whose LAG to both is one port: no
    // loop to break, nothing blocks.
    let src = r#"
[design]
name = "t"
[networks.a]
role = "management"
vlan = 10
[switches.n1]
mlag = "vpc-1"
stp = { mode = "rapid-pvst", priority = 4096, peer_switch = true }
[switches.n2]
mlag = "vpc-1"
stp = { mode = "rapid-pvst", priority = 4096, peer_switch = true }
[switches.acc]
stp = { mode = "rapid-pvst" }
[[links]]
name = "pl"
a = "n1"
b = "n2"
kind = "peer-link"
speed = "100G"
[[links]]
name = "vpc"
a = "acc"
b = ["n1", "n2"]
speed = "10G"
members = 2
"#;
    let s = solve(src);
    assert_eq!(s.fabric.engine().bridges().len(), 2);
    assert_eq!(s.root(10), "vpc-1");
    assert_eq!(s.role(10, "vpc", "acc"), PortRole::Root);
    // Without peer-switch each peer keeps its own bridge id: not modelled,
    // an input error at the value.
    let l = load(&SourceFile::new(
        "t.toml",
        src.replace("peer_switch = true", "peer_switch = false"),
    ));
    let errs: Vec<&str> = l.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(errs.len(), 2, "{errs:#?}");
    assert!(errs[0].starts_with("a vPC / MLAG domain without peer-switch is not modelled"));
}
