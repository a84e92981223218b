//! Hand-computed topologies and property tests for the engine.

use super::explain::CostSplit;
use super::*;
use netlint_model::StpMode as M;
use proptest::prelude::*;

fn mac(last: u8) -> Option<[u8; 6]> {
    Some([0x00, 0x01, 0xe8, 0x00, 0x00, last])
}

#[derive(Default, Clone)]
struct Net {
    bridges: Vec<BridgeInput>,
    links: Vec<LinkInput>,
}

impl Net {
    fn bridge(&mut self, name: &str, mode: StpMode, priority: u32, mac: Option<[u8; 6]>) -> usize {
        let mut b = BridgeInput::new(name, mode);
        b.priority = priority;
        b.mac = mac;
        self.bridges.push(b);
        self.bridges.len() - 1
    }
    fn link(&mut self, name: &str, a: usize, b: usize, mbps: u64) -> usize {
        self.links.push(LinkInput::new(name, a, b, mbps));
        self.links.len() - 1
    }
    fn engine(&self) -> StpEngine {
        StpEngine::new(self.bridges.clone(), self.links.clone())
    }
}

fn role(t: &Tree, link: usize, end: End) -> Option<PortRole> {
    t.port(PortRef::new(link, end)).map(|p| p.role)
}

fn cfg(name: &str, revision: u32, map: &[(u16, u16)]) -> Option<MstConfig> {
    Some(MstConfig {
        name: name.into(),
        revision,
        vlan_instance: map.iter().copied().collect(),
    })
}

/// The triangle of designs/rstp-blocks-isl.toml: core-1 (4096) root, tor-a /
/// tor-b default priority with MACs ..0a / ..0b, ISL 2x10G LAG, uplinks 2x1G.
fn triangle(mode: StpMode) -> (Net, [usize; 3], [usize; 3]) {
    let mut n = Net::default();
    let core = n.bridge("core-1", mode, 4096, None);
    let a = n.bridge("tor-a", mode, 32768, mac(0x0a));
    let b = n.bridge("tor-b", mode, 32768, mac(0x0b));
    let isl = n.link("isl", a, b, 20_000);
    let ua = n.link("uplink-a", a, core, 2_000);
    let ub = n.link("uplink-b", b, core, 2_000);
    (n, [core, a, b], [isl, ua, ub])
}

#[test]
fn rstp_triangle_blocks_isl_on_tor_b() {
    let (n, [core, a, b], [isl, ua, ub]) = triangle(M::Rstp);
    let r = n.engine().compute_healthy();
    let t = r.cist();
    assert_eq!(t.roots.len(), 1);
    assert_eq!(t.roots[0].root, core);
    assert_eq!(t.roots[0].decided_by, RootDecision::Priority);
    assert!(!t.roots[0].default_priority);
    // 2G uplink: 20,000,000 / 2,000 = 10,000; 20G ISL: 1,000.
    assert_eq!(t.port(PortRef::new(isl, End::A)).unwrap().cost, 1000);
    assert_eq!(t.port(PortRef::new(ua, End::A)).unwrap().cost, 10_000);
    let cost = |x: usize| t.bridges[x].as_ref().unwrap().root_path_cost;
    assert_eq!((cost(core), cost(a), cost(b)), (0, 10_000, 10_000));
    // ISL: both ends offer 10,000; tor-a wins on MAC, so tor-b's end blocks.
    assert_eq!(role(t, isl, End::A), Some(PortRole::Designated));
    assert_eq!(role(t, isl, End::B), Some(PortRole::Alternate));
    assert_eq!(role(t, ua, End::A), Some(PortRole::Root));
    assert_eq!(role(t, ua, End::B), Some(PortRole::Designated));
    assert_eq!(role(t, ub, End::A), Some(PortRole::Root));
    assert_eq!(role(t, ub, End::B), Some(PortRole::Designated));
    assert_eq!(r.forwarding_links(None).unwrap(), &[false, true, true]);
    assert_eq!(r.forwarding_links(Some(20)).unwrap(), &[false, true, true]);
    let ex = r.explain_port(CIST, PortRef::new(isl, End::B)).unwrap();
    assert_eq!(ex.decided_by, Decision::RootPathCost);
    assert_eq!(
        (ex.offered_cost, ex.cost_through_port, ex.root_path_cost),
        (10_000, 11_000, 10_000)
    );
    assert_eq!(ex.designated_bridge, Some(a));
    assert_eq!(ex.root_port.map(|p| p.link), Some(ub));
    assert_eq!(
        r.tree(r.governing_tree(b, None).unwrap()).unwrap().roots[0].root,
        core
    );
    assert_eq!(r.governing_tree(b, Some(20)), Some(CIST));
    assert!(r
        .links_on_loops(r.forwarding_links(None).unwrap())
        .is_empty());
}

#[test]
fn mstp_triangle_instance_1_forwards_isl() {
    let (mut n, [core, a, b], [isl, ua, ub]) = triangle(M::Mstp);
    for (x, p1) in [(core, 61440), (a, 4096), (b, 8192)] {
        n.bridges[x].mst = cfg("dc1", 3, &[(20, 1), (30, 1)]);
        n.bridges[x].instance_priority.insert(1, p1);
    }
    let r = n.engine().compute_healthy();
    assert_eq!(r.regions().len(), 1);
    assert_eq!(r.regions()[0].instances, vec![1]);
    assert_eq!(r.regions()[0].cist_regional_root, Some(core));
    // Instance 0 is the RSTP result.
    assert_eq!(role(r.cist(), isl, End::B), Some(PortRole::Alternate));
    assert_eq!(r.cist().bridges[b].as_ref().unwrap().internal_cost, 10_000);
    let m1 = r.msti(0, 1).unwrap();
    let t = r.tree(m1).unwrap();
    assert_eq!(t.roots[0].root, a);
    assert_eq!(t.bridges[b].as_ref().unwrap().root_path_cost, 1000);
    assert_eq!(t.bridges[core].as_ref().unwrap().root_path_cost, 10_000);
    assert_eq!(role(t, isl, End::B), Some(PortRole::Root));
    assert_eq!(role(t, ua, End::B), Some(PortRole::Root));
    assert_eq!(role(t, ub, End::A), Some(PortRole::Designated));
    assert_eq!(role(t, ub, End::B), Some(PortRole::Alternate));
    assert_eq!(r.forwarding_links(Some(20)).unwrap(), &[true, true, false]);
    assert_eq!(r.forwarding_links(Some(30)).unwrap(), &[true, true, false]);
    assert_eq!(r.forwarding_links(Some(10)).unwrap(), &[false, true, true]);
    assert_eq!(r.forwarding_links(None).unwrap(), &[false, true, true]);
    let g = r.governing_tree(b, Some(20)).unwrap();
    assert_eq!(g, m1);
    assert_eq!(
        r.tree(g).unwrap().kind,
        TreeKind::Msti {
            region: 0,
            instance: 1
        }
    );
    assert_eq!(r.regions()[0].name(), "dc1");
    assert_eq!(r.cist().root_of(b), Some(core));
    assert_eq!(r.governing_tree(b, Some(10)), Some(CIST));
}

#[test]
fn square_blocks_on_the_far_corner() {
    let mut n = Net::default();
    let a = n.bridge("a", M::Rstp, 4096, mac(1));
    let b = n.bridge("b", M::Rstp, 32768, mac(2));
    let c = n.bridge("c", M::Rstp, 32768, mac(3));
    let d = n.bridge("d", M::Rstp, 32768, mac(4));
    let ab = n.link("ab", a, b, 10_000);
    let bc = n.link("bc", b, c, 10_000);
    let cd = n.link("cd", c, d, 10_000);
    let _da = n.link("da", d, a, 10_000);
    let r = n.engine().compute_healthy();
    let t = r.cist();
    assert_eq!(t.bridges[c].as_ref().unwrap().root_path_cost, 4000);
    assert_eq!(
        t.bridges[c].as_ref().unwrap().root_port,
        Some(PortRef::new(bc, End::B))
    );
    assert_eq!(role(t, cd, End::B), Some(PortRole::Designated));
    assert_eq!(role(t, cd, End::A), Some(PortRole::Alternate));
    assert_eq!(role(t, ab, End::A), Some(PortRole::Designated));
    let ex = r.explain_port(CIST, PortRef::new(cd, End::A)).unwrap();
    assert_eq!(ex.decided_by, Decision::DesignatedBridge);
    assert_eq!(ex.root_port_designated.map(|(bridge, _)| bridge), Some(b));
    assert_eq!(ex.designated_bridge, Some(d));
    assert_eq!(
        r.forwarding_links(None).unwrap(),
        &[true, true, false, true]
    );
}

#[test]
fn ring_of_five_blocks_opposite_link() {
    let mut n = Net::default();
    let names = ["a", "b", "c", "d", "e"];
    let ids: Vec<usize> = names
        .iter()
        .enumerate()
        .map(|(i, nm)| {
            n.bridge(
                nm,
                M::Rstp,
                if i == 0 { 4096 } else { 32768 },
                mac(i as u8 + 1),
            )
        })
        .collect();
    for i in 0..5 {
        let nm = format!("{}{}", names[i], names[(i + 1) % 5]);
        n.link(&nm, ids[i], ids[(i + 1) % 5], 10_000);
    }
    let r = n.engine().compute_healthy();
    let t = r.cist();
    let costs: Vec<u64> = ids
        .iter()
        .map(|&x| t.bridges[x].as_ref().unwrap().root_path_cost)
        .collect();
    assert_eq!(costs, vec![0, 2000, 4000, 4000, 2000]);
    // link cd (index 2): c and d both at 4000; c has the lower id.
    assert_eq!(role(t, 2, End::A), Some(PortRole::Designated));
    assert_eq!(role(t, 2, End::B), Some(PortRole::Alternate));
    assert_eq!(
        r.explain_port(CIST, PortRef::new(2, End::B))
            .unwrap()
            .decided_by,
        Decision::RootPathCost
    );
    assert_eq!(
        r.forwarding_links(None).unwrap(),
        &[true, true, false, true, true]
    );
}

#[test]
fn parallel_links_one_becomes_alternate() {
    for order in [["p1", "p2"], ["p2", "p1"]] {
        let mut n = Net::default();
        let a = n.bridge("a", M::Rstp, 4096, mac(1));
        let b = n.bridge("b", M::Rstp, 32768, mac(2));
        n.link(order[0], a, b, 10_000);
        n.link(order[1], a, b, 10_000);
        let e = n.engine();
        let r = e.compute_healthy();
        let p1 = n.links.iter().position(|l| l.name == "p1").unwrap();
        let p2 = 1 - p1;
        assert_eq!(
            e.port_id(PortRef::new(p1, End::A)).unwrap().to_string(),
            "128.1"
        );
        assert_eq!(
            e.port_id(PortRef::new(p2, End::A)).unwrap().to_string(),
            "128.2"
        );
        let t = r.cist();
        assert_eq!(role(t, p1, End::B), Some(PortRole::Root));
        assert_eq!(role(t, p2, End::B), Some(PortRole::Alternate));
        assert_eq!(role(t, p2, End::A), Some(PortRole::Designated));
        let ex = r.explain_port(CIST, PortRef::new(p2, End::B)).unwrap();
        assert_eq!(ex.decided_by, Decision::DesignatedPort);
        let rd = ex.root_port_designated.map(|(_, id)| id.to_string());
        assert_eq!(rd.as_deref(), Some("128.1"));
        assert_eq!(
            ex.designated_port_id.map(|id| id.to_string()).as_deref(),
            Some("128.2")
        );
        let f = r.forwarding_links(None).unwrap();
        assert!(f[p1] && !f[p2]);
    }
}

#[test]
fn lag_costs_less_than_single_cable() {
    let mut n = Net::default();
    let a = n.bridge("a", M::Rstp, 4096, mac(1));
    let b = n.bridge("b", M::Rstp, 32768, mac(2));
    let single = n.link("a-single", a, b, 10_000);
    let lag = n.link("b-lag", a, b, 20_000);
    let r = n.engine().compute_healthy();
    let t = r.cist();
    assert_eq!(t.port(PortRef::new(single, End::B)).unwrap().cost, 2000);
    assert_eq!(t.port(PortRef::new(lag, End::B)).unwrap().cost, 1000);
    assert_eq!(role(t, lag, End::B), Some(PortRole::Root));
    assert_eq!(role(t, single, End::B), Some(PortRole::Alternate));
    assert_eq!(
        r.explain_port(CIST, PortRef::new(single, End::B))
            .unwrap()
            .decided_by,
        Decision::RootPathCost
    );
    // The LAG loses a member: 10G each, equal cost, the lower port id wins.
    let r = n.engine().compute(&Scenario::with_link_speed(lag, 10_000));
    assert_eq!(role(r.cist(), single, End::B), Some(PortRole::Root));
    assert_eq!(r.cist().port(PortRef::new(lag, End::B)).unwrap().cost, 2000);
}

#[test]
fn mstp_two_instances_rooted_apart() {
    let mut n = Net::default();
    let ids: Vec<usize> = ["a", "b", "c", "d"]
        .iter()
        .enumerate()
        .map(|(i, nm)| n.bridge(nm, M::Mstp, 32768, mac(i as u8 + 1)))
        .collect();
    let (a, c) = (ids[0], ids[2]);
    for &x in &ids {
        n.bridges[x].mst = cfg("r", 1, &[(10, 1), (20, 2)]);
    }
    n.bridges[a].instance_priority.insert(1, 4096);
    n.bridges[c].instance_priority.insert(2, 4096);
    for (i, nm) in ["ab", "bc", "cd", "da"].iter().enumerate() {
        n.link(nm, ids[i], ids[(i + 1) % 4], 10_000);
    }
    let r = n.engine().compute_healthy();
    let cist = &r.cist().roots[0];
    assert_eq!(cist.root, a);
    assert!(cist.default_priority);
    assert_eq!(
        cist.decided_by,
        RootDecision::MacTieBreak { tied: ids.clone() }
    );
    assert_eq!(r.tree(r.msti(0, 1).unwrap()).unwrap().roots[0].root, a);
    assert_eq!(r.tree(r.msti(0, 2).unwrap()).unwrap().roots[0].root, c);
    assert_eq!(
        r.tree(r.msti(0, 2).unwrap()).unwrap().roots[0].decided_by,
        RootDecision::Priority
    );
    assert_eq!(
        r.forwarding_links(Some(10)).unwrap(),
        &[true, true, false, true]
    );
    assert_eq!(
        r.forwarding_links(Some(20)).unwrap(),
        &[true, true, true, false]
    );
    assert_eq!(
        r.forwarding_links(Some(30)).unwrap(),
        r.forwarding_links(None).unwrap()
    );
    let info = r.cist().root_info_of(c).unwrap();
    assert!(matches!(&info.decided_by, RootDecision::MacTieBreak { tied } if tied.len() == 4));
    assert_eq!((info.priority, info.default_priority), (32768, true));
}

#[test]
fn region_boundary_makes_each_region_one_bridge() {
    let mut n = Net::default();
    let a1 = n.bridge("a1", M::Mstp, 4096, mac(1));
    let a2 = n.bridge("a2", M::Mstp, 32768, mac(2));
    let b1 = n.bridge("b1", M::Mstp, 32768, mac(3));
    let b2 = n.bridge("b2", M::Mstp, 32768, mac(4));
    n.bridges[a1].mst = cfg("dc", 1, &[]);
    n.bridges[a2].mst = cfg("dc", 1, &[]);
    n.bridges[b1].mst = cfg("dc", 2, &[(10, 1)]);
    n.bridges[b2].mst = cfg("dc", 2, &[(10, 1)]);
    n.bridges[b2].instance_priority.insert(1, 4096);
    let l_a = n.link("a1-a2", a1, a2, 10_000);
    let l_b = n.link("b1-b2", b1, b2, 1_000);
    let l_1 = n.link("a1-b1", a1, b1, 10_000);
    let l_2 = n.link("a2-b2", a2, b2, 10_000);
    let r = n.engine().compute_healthy();
    assert_eq!(r.regions().len(), 2);
    let rb = r.region_of(b1).unwrap();
    assert_eq!(r.regions()[rb].cist_regional_root, Some(b1));
    let t = r.cist();
    // b2 would reach a1 for 4000 through a2 as an RSTP bridge; in its region
    // it follows the regional root b1 over the 1G internal link instead.
    let s = t.bridges[b2].as_ref().unwrap();
    assert_eq!((s.external_cost, s.internal_cost), (2000, 20_000));
    assert_eq!(s.root_port, Some(PortRef::new(l_b, End::B)));
    assert_eq!(s.regional_root, Some(b1));
    assert_eq!(role(t, l_2, End::A), Some(PortRole::Designated));
    assert_eq!(role(t, l_2, End::B), Some(PortRole::Alternate));
    assert_eq!(
        r.explain_port(CIST, PortRef::new(l_2, End::B))
            .unwrap()
            .decided_by,
        Decision::RegionalRoot
    );
    // MSTI 1 of region b: rooted at b2, boundary ports follow the CIST.
    let m = r.tree(r.msti(rb, 1).unwrap()).unwrap();
    assert_eq!(m.roots[0].root, b2);
    assert_eq!(role(m, l_1, End::B), Some(PortRole::Master));
    assert_eq!(role(m, l_2, End::B), Some(PortRole::Alternate));
    assert!(m.port(PortRef::new(l_2, End::B)).unwrap().boundary);
    assert_eq!(role(m, l_b, End::A), Some(PortRole::Root));
    assert_eq!(
        r.explain_port(r.msti(rb, 1).unwrap(), PortRef::new(l_2, End::B))
            .unwrap()
            .decided_by,
        Decision::FollowsCist
    );
    let f = r.forwarding_links(Some(10)).unwrap();
    assert!(f[l_a] && f[l_b] && f[l_1] && !f[l_2]);
    // The same four bridges as plain RSTP: b2 goes through a2.
    let mut rn = n.clone();
    for b in &mut rn.bridges {
        b.mode = M::Rstp;
    }
    let r = rn.engine().compute_healthy();
    assert_eq!(
        r.cist().bridges[b2].as_ref().unwrap().root_port,
        Some(PortRef::new(l_2, End::B))
    );
}

#[test]
fn pvst_roots_per_vlan() {
    let mut n = Net::default();
    let x = n.bridge("x", M::RapidPvst, 32768, mac(1));
    let y = n.bridge("y", M::RapidPvst, 32768, mac(2));
    let z = n.bridge("z", M::RapidPvst, 32768, mac(3));
    n.bridges[x].vlan_priority.insert(10, 4096);
    n.bridges[y].vlan_priority.insert(20, 4096);
    n.link("xy", x, y, 10_000);
    n.link("yz", y, z, 10_000);
    n.link("zx", z, x, 10_000);
    let r = n.engine().with_vlans([1, 10, 20]).compute_healthy();
    assert_eq!(r.tree(r.pvst_vlan(10).unwrap()).unwrap().roots[0].root, x);
    assert_eq!(r.tree(r.pvst_vlan(20).unwrap()).unwrap().roots[0].root, y);
    assert_eq!(r.forwarding_links(Some(10)).unwrap(), &[true, false, true]);
    assert_eq!(r.forwarding_links(Some(20)).unwrap(), &[true, true, false]);
    assert_eq!(r.forwarding_links(Some(1)).unwrap(), &[true, false, true]);
    assert!(r.cist().roots[0].decided_by.is_tie_break());
    assert_eq!(r.forwarding_links(Some(30)), None);
    let g = r.governing_tree(z, Some(20)).unwrap();
    assert_eq!(r.tree(g).unwrap().kind, TreeKind::PvstVlan(20));
    assert_eq!(r.tree(g).unwrap().root_of(z), Some(y));
    assert_eq!(r.cist().root_of(z), Some(x));
    assert!((0..3).all(|b| r.bridge_mode(b) == M::RapidPvst));
}

#[test]
fn pvst_vlan_tree_only_on_links_carrying_it() {
    let mut n = Net::default();
    let x = n.bridge("x", M::RapidPvst, 4096, mac(1));
    let y = n.bridge("y", M::RapidPvst, 32768, mac(2));
    let z = n.bridge("z", M::RapidPvst, 32768, mac(3));
    n.link("xy", x, y, 10_000);
    let yz = n.link("yz", y, z, 10_000);
    let zx = n.link("zx", z, x, 1_000);
    n.links[zx].vlans = Some([20].into_iter().collect());
    let r = n.engine().with_vlans([10, 20]).compute_healthy();
    // VLAN 10 is not on zx: its tree is the path x-y-z, yz forwards.
    let f10 = r.forwarding_links(Some(10)).unwrap();
    assert!(f10[yz] && !f10[zx]);
    let t10 = r.tree(r.pvst_vlan(10).unwrap()).unwrap();
    assert_eq!(role(t10, zx, End::A), Some(PortRole::Disabled));
    // VLAN 20 sees the triangle: z takes the 1G link? 20000 direct vs 4000 via y.
    let f20 = r.forwarding_links(Some(20)).unwrap();
    assert!(f20[yz] && !f20[zx]);
}

#[test]
fn pvst_next_to_rstp_tunnels_through_it() {
    // p1, p2 run rapid-PVST; r runs RSTP. In VLAN 10 p2 is the root; r floods
    // PVST BPDUs between its forwarding ports, so the VLAN 10 tree sees the
    // loop through r and breaks it.
    let mut n = Net::default();
    let p1 = n.bridge("p1", M::RapidPvst, 32768, mac(1));
    let p2 = n.bridge("p2", M::RapidPvst, 32768, mac(2));
    let rr = n.bridge("r", M::Rstp, 4096, mac(3));
    n.bridges[p2].vlan_priority.insert(10, 4096);
    n.link("p1p2", p1, p2, 10_000);
    n.link("p1r", p1, rr, 10_000);
    n.link("p2r", p2, rr, 10_000);
    let res = n.engine().with_vlans([10]).compute_healthy();
    let f = res.forwarding_links(Some(10)).unwrap();
    assert_eq!(f.iter().filter(|&&x| x).count(), 2, "{f:?}");
    assert!(res.links_on_loops(f).is_empty());
    assert_eq!(res.forwarding_links(None).unwrap(), &[false, true, true]);
}

#[test]
fn mode_none_is_a_shared_segment() {
    let mut n = Net::default();
    let a = n.bridge("a", M::Rstp, 4096, mac(1));
    let nn = n.bridge("n", M::None, 32768, None);
    let b = n.bridge("b", M::Rstp, 32768, mac(2));
    let an = n.link("an", a, nn, 10_000);
    let nb = n.link("nb", nn, b, 10_000);
    let ab = n.link("ab", a, b, 1_000);
    let r = n.engine().compute_healthy();
    let t = r.cist();
    assert!(t.bridges[nn].is_none());
    assert_eq!(role(t, an, End::B), None);
    assert_eq!(role(t, an, End::A), Some(PortRole::Designated));
    assert_eq!(role(t, nb, End::B), Some(PortRole::Root));
    assert_eq!(role(t, ab, End::B), Some(PortRole::Alternate));
    assert_eq!(r.forwarding_links(None).unwrap(), &[true, true, false]);
    assert_eq!(r.governing_tree(nn, Some(10)), None);
    let segs = r.non_stp_segments();
    assert_eq!(segs.len(), 1);
    assert_eq!(segs[0].bridges, vec![nn]);
    assert_eq!(segs[0].links, vec![an, nb]);
    assert_eq!(
        segs[0].stp_ports,
        vec![PortRef::new(an, End::A), PortRef::new(nb, End::B)]
    );
}

#[test]
fn two_ports_into_one_non_stp_switch_give_a_backup() {
    let mut n = Net::default();
    let a = n.bridge("a", M::Rstp, 32768, mac(1));
    let nn = n.bridge("n", M::None, 32768, None);
    n.link("n1", a, nn, 10_000);
    n.link("n2", a, nn, 10_000);
    let r = n.engine().compute_healthy();
    assert_eq!(role(r.cist(), 0, End::A), Some(PortRole::Designated));
    assert_eq!(role(r.cist(), 1, End::A), Some(PortRole::Backup));
    assert_eq!(
        r.explain_port(CIST, PortRef::new(1, End::A))
            .unwrap()
            .decided_by,
        Decision::OwnDesignatedPort
    );
    let f = r.forwarding_links(None).unwrap();
    assert_eq!(f, &[true, false]);
    assert!(r.links_on_loops(f).is_empty());
    assert_eq!(r.links_on_loops(&[true, true]), vec![0, 1]);
}

#[test]
fn loop_of_non_stp_switches_stays() {
    let mut n = Net::default();
    let x = n.bridge("x", M::None, 32768, None);
    let y = n.bridge("y", M::None, 32768, None);
    let z = n.bridge("z", M::None, 32768, None);
    let w = n.bridge("w", M::Rstp, 32768, None);
    n.link("xy", x, y, 1000);
    n.link("yz", y, z, 1000);
    n.link("zx", z, x, 1000);
    n.link("zw", z, w, 1000);
    let r = n.engine().compute_healthy();
    let f = r.forwarding_links(Some(5)).unwrap();
    assert_eq!(f, &[true, true, true, true]);
    assert_eq!(r.links_on_loops(f), vec![0, 1, 2]);
}

#[test]
fn disconnected_components_elect_their_own_roots() {
    let mut n = Net::default();
    let a = n.bridge("a", M::Rstp, 32768, mac(1));
    let b = n.bridge("b", M::Rstp, 32768, mac(2));
    let c = n.bridge("c", M::Rstp, 8192, mac(3));
    let d = n.bridge("d", M::Rstp, 32768, mac(4));
    n.link("ab", a, b, 1000);
    n.link("cd", c, d, 1000);
    let r = n.engine().compute_healthy();
    let roots: Vec<usize> = r.cist().roots.iter().map(|x| x.root).collect();
    assert_eq!(roots, vec![a, c]);
    assert_eq!(r.cist().root_of(d), Some(c));
    assert_eq!(r.forwarding_links(None).unwrap(), &[true, true]);
}

#[test]
fn missing_macs_fall_back_to_names() {
    let mut n = Net::default();
    let c = n.bridge("c", M::Rstp, 32768, None);
    let a = n.bridge("a", M::Rstp, 32768, None);
    let b = n.bridge("b", M::Rstp, 32768, mac(9));
    n.link("ca", c, a, 1000);
    n.link("ab", a, b, 1000);
    n.link("bc", b, c, 1000);
    let r = n.engine().compute_healthy();
    // b has a MAC, so it ranks first; the outcome still rests on unknown MACs.
    assert_eq!(r.cist().roots[0].root, b);
    assert_eq!(
        r.cist().roots[0].decided_by,
        RootDecision::SyntheticTieBreak {
            tied: vec![b, a, c]
        }
    );
    n.bridges[b].mac = None;
    let r = n.engine().compute_healthy();
    assert_eq!(r.cist().roots[0].root, a);
    assert!(matches!(
        r.cist().root_info_of(c).unwrap().decided_by,
        RootDecision::SyntheticTieBreak { .. }
    ));
}

#[test]
fn short_costs_and_mixed_methods() {
    let mut n = Net::default();
    let s1 = n.bridge("s1", M::Stp, 4096, mac(1));
    let s2 = n.bridge("s2", M::Stp, 32768, mac(2));
    let r3 = n.bridge("r3", M::Rstp, 32768, mac(3));
    let l1 = n.link("g1", s1, s2, 1_000);
    let l2 = n.link("g10", s1, s2, 10_000);
    let l3 = n.link("g20", s1, s2, 20_000);
    let l4 = n.link("mixed", s2, r3, 1_000);
    let r = n.engine().compute_healthy();
    let c = |l: usize, e: End| r.cist().port(PortRef::new(l, e)).unwrap().cost;
    assert_eq!((c(l1, End::B), c(l2, End::B), c(l3, End::B)), (4, 2, 1));
    assert_eq!((c(l4, End::A), c(l4, End::B)), (4, 20_000));
    assert_eq!(role(r.cist(), l3, End::B), Some(PortRole::Root));
    assert_eq!(
        r.cist().bridges[r3].as_ref().unwrap().root_path_cost,
        20_001
    );
}

#[test]
fn cost_overrides_per_tree() {
    let (mut n, [core, a, b], [isl, _ua, ub]) = triangle(M::Mstp);
    for (x, p1) in [(core, 61440), (a, 4096), (b, 8192)] {
        n.bridges[x].mst = cfg("dc1", 3, &[(20, 1)]);
        n.bridges[x].instance_priority.insert(1, p1);
    }
    // Instance 1 made to avoid the ISL; the CIST made to prefer it over uplink-b.
    n.links[isl].instance_cost.insert(1, 50_000);
    n.links[isl].cost = Some(1);
    n.links[ub].instance_cost.insert(0, 50_000);
    let r = n.engine().compute_healthy();
    assert_eq!(r.cist().port(PortRef::new(isl, End::A)).unwrap().cost, 1);
    let m = r.tree(r.msti(0, 1).unwrap()).unwrap();
    assert_eq!(m.port(PortRef::new(isl, End::A)).unwrap().cost, 50_000);
    assert_eq!(role(m, isl, End::B), Some(PortRole::Alternate));
    assert!(!r.forwarding_links(Some(20)).unwrap()[isl]);
    assert!(r.forwarding_links(Some(10)).unwrap()[isl]);
    assert_eq!(r.cist().bridges[b].as_ref().unwrap().root_path_cost, 10_001);
    assert_eq!(m.port(PortRef::new(ub, End::A)).unwrap().cost, 10_000);
}

#[test]
fn failure_scenarios() {
    let (n, [core, a, _b], [_isl, ua, _ub]) = triangle(M::Rstp);
    let e = n.engine();
    let r = e.compute(&Scenario::without_link(ua));
    assert!(!r.is_link_up(ua));
    assert_eq!(r.forwarding_links(None).unwrap(), &[true, false, true]);
    assert_eq!(r.cist().bridges[a].as_ref().unwrap().root_path_cost, 11_000);
    assert_eq!(role(r.cist(), ua, End::A), Some(PortRole::Disabled));
    let ex = r.explain_port(CIST, PortRef::new(ua, End::A)).unwrap();
    assert_eq!(
        (ex.role, ex.decided_by),
        (PortRole::Disabled, Decision::Disabled)
    );
    let r = e.compute(&Scenario::without_bridge(core));
    assert!(r.cist().bridges[core].is_none());
    assert_eq!(r.cist().roots[0].root, a);
    assert!(matches!(
        r.cist().roots[0].decided_by,
        RootDecision::MacTieBreak { .. }
    ));
    assert_eq!(r.forwarding_links(None).unwrap(), &[true, false, false]);
}

#[test]
fn degenerate_inputs_do_not_panic() {
    let e = StpEngine::new(Vec::new(), Vec::new());
    let r = e.compute_healthy();
    assert!(r.cist().roots.is_empty());
    assert_eq!(r.forwarding_links(None).unwrap(), &[] as &[bool]);

    let mut n = Net::default();
    let a = n.bridge("a", M::Rstp, 32768, None);
    let b = n.bridge("b", M::Mstp, 70_000, None);
    n.link("loop", a, a, 1000);
    n.link("bad", a, 7, 1000);
    n.link("ab", a, b, 0);
    n.link("ab", a, b, 0);
    n.links[2].cost = Some(0);
    let e = n.engine().with_vlans([0, 1, 5000, 20]);
    for sc in [
        Scenario::healthy(),
        Scenario::without_bridge(9),
        Scenario::without_link(42),
        Scenario::with_link_speed(99, 1),
        Scenario::without_bridge(a),
    ] {
        let r = e.compute(&sc);
        for (t, tree) in r.trees().iter().enumerate() {
            for l in 0..n.links.len() {
                for end in [End::A, End::B] {
                    let _ = r.explain_port(t, PortRef::new(l, end));
                }
            }
            for x in 0..3 {
                let _ = tree.root_of(x).and_then(|_| tree.root_info_of(x));
            }
            assert_eq!(tree.ports.len(), 4);
        }
        assert!(r.forwarding_links(Some(5000)).is_none());
        let _ = r.forwarding_links(Some(0));
        let _ = r.governing_tree(99, Some(1));
    }
    let r = e.compute_healthy();
    assert_eq!(role(r.cist(), 0, End::A), Some(PortRole::Designated));
    assert_eq!(role(r.cist(), 0, End::B), Some(PortRole::Backup));
    assert_eq!(role(r.cist(), 1, End::A), None);
    assert_eq!(
        r.forwarding_links(None).unwrap(),
        &[false, false, true, false]
    );
}

// ---------------------------------------------------------------- properties

const VLANS: [Option<u16>; 5] = [None, Some(1), Some(10), Some(20), Some(30)];

#[derive(Clone, Debug)]
struct Spec {
    modes: Vec<u8>,
    prio: Vec<u8>,
    has_mac: Vec<bool>,
    /// (a, b, speed index)
    links: Vec<(usize, usize, u8)>,
}

fn spec(max_bridges: usize, modes: u8) -> impl Strategy<Value = Spec> {
    (1..=max_bridges).prop_flat_map(move |n| {
        (
            proptest::collection::vec(0..modes, n),
            proptest::collection::vec(0u8..3, n),
            proptest::collection::vec(any::<bool>(), n),
            proptest::collection::vec(any::<prop::sample::Index>(), n.saturating_sub(1)),
            proptest::collection::vec((0..n, 0..n, 0u8..4), 0..2 * n),
            proptest::collection::vec(0u8..4, n),
        )
            .prop_map(move |(modes, prio, has_mac, parents, extra, tree_speed)| {
                // A random spanning tree first, so the graph is connected.
                let mut links: Vec<(usize, usize, u8)> = (1..n)
                    .map(|i| (parents[i - 1].index(i), i, tree_speed[i]))
                    .collect();
                links.extend(extra);
                Spec {
                    modes,
                    prio,
                    has_mac,
                    links,
                }
            })
    })
}

fn build(s: &Spec) -> Net {
    let mut n = Net::default();
    for i in 0..s.modes.len() {
        let mode = match s.modes[i] {
            0 => M::Rstp,
            1 => M::Mstp,
            2 => M::Stp,
            3 => M::Mstp,
            4 => M::RapidPvst,
            5 => M::Pvst,
            _ => M::None,
        };
        let prio = [4096, 8192, 32768][s.prio[i] as usize];
        let x = n.bridge(
            &format!("br{i}"),
            mode,
            prio,
            s.has_mac[i].then_some([2, 0, 0, 0, 0, i as u8]),
        );
        let b = &mut n.bridges[x];
        match s.modes[i] {
            1 => b.mst = cfg("r", 1, &[(10, 1), (20, 2)]),
            3 => b.mst = cfg("r", 2, &[(20, 1)]),
            4 | 5 => {
                b.vlan_priority
                    .insert(10, [61440, 4096, 32768][(i + s.prio[i] as usize) % 3]);
            }
            _ => {}
        }
        if i % 2 == 0 {
            b.instance_priority.insert(1, 4096 * (i as u32 % 5));
        }
    }
    for (j, &(a, b, sp)) in s.links.iter().enumerate() {
        n.link(
            &format!("ln{j}"),
            a,
            b,
            [1_000, 2_000, 10_000, 20_000][sp as usize],
        );
    }
    n
}

/// Checks that `fwd` is a spanning forest of the graph of all up links.
fn assert_spanning_forest(n: &Net, fwd: &[bool]) -> Result<(), TestCaseError> {
    let nb = n.bridges.len();
    let mut all = crate::union_find::UnionFind::new(nb);
    let mut f = crate::union_find::UnionFind::new(nb);
    let mut edges = 0;
    for (l, link) in n.links.iter().enumerate() {
        all.union(link.a, link.b);
        if fwd[l] {
            prop_assert!(link.a != link.b, "self-loop forwards");
            prop_assert!(
                f.find(link.a) != f.find(link.b),
                "forwarding cycle through {}",
                link.name
            );
            f.union(link.a, link.b);
            edges += 1;
        }
    }
    let comps = (0..nb).filter(|&b| all.find(b) == b).count();
    prop_assert_eq!(edges, nb - comps, "not spanning");
    Ok(())
}

/// Everything that must not depend on input order, keyed by names.
fn signature(n: &Net, r: &StpResult) -> Vec<String> {
    let mut out = Vec::new();
    let bname = |b: usize| n.bridges[b].name.clone();
    for t in r.trees() {
        let kind = match t.kind {
            TreeKind::Msti { region, instance } => {
                let mut names: Vec<String> = r.regions()[region]
                    .bridges
                    .iter()
                    .map(|&b| bname(b))
                    .collect();
                names.sort();
                format!("msti {instance} {names:?}")
            }
            k => format!("{k:?}"),
        };
        for (b, s) in t.bridges.iter().enumerate() {
            if let Some(s) = s {
                out.push(format!(
                    "{kind} {} root={} cost={}/{} rp={:?}",
                    bname(b),
                    bname(s.root),
                    s.external_cost,
                    s.internal_cost,
                    s.root_port
                        .map(|p| (&n.links[p.link].name, bname(r.port_bridge(p).unwrap())))
                ));
            }
        }
        for (l, ports) in t.ports.iter().enumerate() {
            for (e, p) in ports.iter().enumerate() {
                if let Some(p) = p {
                    let end = if e == 0 { End::A } else { End::B };
                    let b = r.port_bridge(PortRef::new(l, end)).unwrap();
                    out.push(format!(
                        "{kind} {} {} {:?} {}",
                        n.links[l].name,
                        bname(b),
                        p.role,
                        p.cost
                    ));
                }
            }
        }
        for root in &t.roots {
            let tied = match &root.decided_by {
                RootDecision::Priority => vec![],
                RootDecision::MacTieBreak { tied } | RootDecision::SyntheticTieBreak { tied } => {
                    tied.iter().map(|&b| bname(b)).collect()
                }
            };
            out.push(format!("{kind} root {} {tied:?}", bname(root.root)));
        }
    }
    for v in VLANS {
        if let Some(f) = r.forwarding_links(v) {
            for (l, &x) in f.iter().enumerate() {
                out.push(format!("fwd {v:?} {} {x}", n.links[l].name));
            }
        }
    }
    out.sort();
    out
}

fn permute(n: &Net, seed: u64) -> Net {
    let mut lcg = seed | 1;
    let mut next = move |k: usize| {
        lcg = lcg
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((lcg >> 33) as usize) % k.max(1)
    };
    let nb = n.bridges.len();
    let mut order: Vec<usize> = (0..nb).collect();
    for i in (1..nb).rev() {
        order.swap(i, next(i + 1));
    }
    let mut new_index = vec![0; nb];
    for (new, &old) in order.iter().enumerate() {
        new_index[old] = new;
    }
    let mut links: Vec<LinkInput> = n
        .links
        .iter()
        .map(|l| LinkInput {
            a: new_index[l.a],
            b: new_index[l.b],
            ..l.clone()
        })
        .collect();
    for i in (1..links.len()).rev() {
        links.swap(i, next(i + 1));
    }
    Net {
        bridges: order.iter().map(|&o| n.bridges[o].clone()).collect(),
        links,
    }
}

/// An independent oracle for single-tree (STP/RSTP) networks of
/// point-to-point links: iterate the 802.1D root priority vector rule
/// (Bellman-Ford over {root, cost, designated bridge, designated port,
/// receiving port}) to its fixed point, then assign roles by comparing each
/// port's designated vector with the vector it receives.
fn oracle_roles(e: &StpEngine, n: &Net) -> Vec<[PortRole; 2]> {
    type V = (u64, u64, u64, PortId, PortId);
    let nb = n.bridges.len();
    let bid: Vec<u64> = e.bids(&n.bridges.iter().map(|b| b.priority).collect::<Vec<_>>());
    let cost = e.costs(
        &n.links.iter().map(|l| l.speed_mbps).collect::<Vec<_>>(),
        |_| 0,
    );
    let pid = |l: usize, i: usize| e.shared.port_ids[l][i];
    let ends = |l: usize| [n.links[l].a, n.links[l].b];
    let own = |b: usize| -> V { (bid[b], 0, bid[b], PortId::default(), PortId::default()) };
    let mut rv: Vec<V> = (0..nb).map(own).collect();
    loop {
        let mut next: Vec<V> = (0..nb).map(own).collect();
        for (l, c) in cost.iter().enumerate() {
            let [a, b] = ends(l);
            for (i, &port_cost) in c.iter().enumerate() {
                let (me, other) = if i == 0 { (a, b) } else { (b, a) };
                let cand: V = (
                    rv[other].0,
                    rv[other].1 + u64::from(port_cost),
                    bid[other],
                    pid(l, 1 - i),
                    pid(l, i),
                );
                if cand < next[me] {
                    next[me] = cand;
                }
            }
        }
        if next == rv {
            break;
        }
        rv = next;
    }
    let mut roles = vec![[PortRole::Disabled; 2]; n.links.len()];
    for l in 0..n.links.len() {
        let [a, b] = ends(l);
        for i in 0..2 {
            let (me, other) = if i == 0 { (a, b) } else { (b, a) };
            let mine = (rv[me].0, rv[me].1, bid[me], pid(l, i));
            let theirs = (rv[other].0, rv[other].1, bid[other], pid(l, 1 - i));
            let via: V = (
                rv[other].0,
                rv[other].1 + u64::from(cost[l][i]),
                bid[other],
                pid(l, 1 - i),
                pid(l, i),
            );
            roles[l][i] = if via == rv[me] && rv[me].0 != bid[me] {
                PortRole::Root
            } else if mine < theirs {
                PortRole::Designated
            } else if me == other {
                PortRole::Backup
            } else {
                PortRole::Alternate
            };
        }
    }
    roles
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_vlan_forwards_on_a_spanning_forest(s in spec(10, 6)) {
        let n = build(&s);
        let r = n.engine().with_vlans([1, 10, 20, 30]).compute_healthy();
        for v in VLANS {
            let f = r.forwarding_links(v).unwrap();
            assert_spanning_forest(&n, f)?;
        }
    }

    #[test]
    fn result_does_not_depend_on_input_order(s in spec(9, 7), seed in any::<u64>()) {
        let n = build(&s);
        let p = permute(&n, seed);
        let r1 = n.engine().with_vlans([1, 10, 20, 30]).compute_healthy();
        let r2 = p.engine().with_vlans([30, 20, 10, 1]).compute_healthy();
        prop_assert_eq!(signature(&n, &r1), signature(&p, &r2));
    }

    #[test]
    fn raising_a_blocked_ports_cost_keeps_it_blocked(s in spec(9, 6), factor in 2u32..50) {
        let n = build(&s);
        let r = n.engine().compute_healthy();
        for (l, ports) in r.cist().ports.iter().enumerate() {
            for (e, p) in ports.iter().enumerate() {
                let Some(p) = p else { continue };
                if p.role.forwards() {
                    continue;
                }
                let other = ports[1 - e].map_or(0, |o| o.cost);
                let mut m = n.clone();
                m.links[l].cost = Some(p.cost.max(other).saturating_mul(factor));
                let r2 = m.engine().compute_healthy();
                let end = if e == 0 { End::A } else { End::B };
                let role2 = r2.cist().port(PortRef::new(l, end)).map(|x| x.role);
                prop_assert!(role2.is_some_and(|x| !x.forwards()), "{} end {e}: {:?} -> {:?}", m.links[l].name, p.role, role2);
            }
        }
    }

    #[test]
    fn arbitrary_input_never_panics(
        s in spec(8, 7),
        bad in proptest::collection::vec((0usize..12, 0usize..12, 0u64..30_000, proptest::option::of(0u32..5)), 0..6),
        removed in proptest::collection::vec(0usize..14, 0..3),
    ) {
        let mut n = build(&s);
        for (i, &(a, b, sp, c)) in bad.iter().enumerate() {
            let mut l = LinkInput::new(format!("x{i}"), a, b, sp);
            l.cost = c;
            n.links.push(l);
        }
        let e = n.engine().with_vlans([10, 20]);
        let sc = Scenario { removed_bridges: removed.clone(), removed_links: removed, link_speed_mbps: vec![(0, 0)] };
        let r = e.compute(&sc);
        for t in 0..r.trees().len() {
            for l in 0..n.links.len() {
                let _ = r.explain_port(t, PortRef::new(l, End::A));
                let _ = r.explain_port(t, PortRef::new(l, End::B));
            }
        }
        for v in VLANS {
            if let Some(f) = r.forwarding_links(v) {
                let _ = r.links_on_loops(f);
            }
        }
    }

    #[test]
    fn single_tree_matches_the_iterated_standard_rule(s in spec(10, 1), stp in proptest::collection::vec(any::<bool>(), 10)) {
        let mut n = build(&s);
        for (b, &x) in n.bridges.iter_mut().zip(&stp) {
            b.mode = if x { M::Stp } else { M::Rstp };
        }
        let e = n.engine();
        let r = e.compute_healthy();
        let want = oracle_roles(&e, &n);
        for (l, w) in want.iter().enumerate() {
            let got = [role(r.cist(), l, End::A).unwrap(), role(r.cist(), l, End::B).unwrap()];
            prop_assert_eq!(&got, w, "link {}", &n.links[l].name);
        }
    }
}

/// Two MSTP regions. core-1 (region dc1) is the CIST root. In region dc2,
/// tor-d reaches core-1 over a 10G boundary link and becomes the CIST
/// regional root; core-2's own link to core-1 has `stp_cost = 20000`, and
/// its in-region path to tor-d is a 1G link (internal cost 20000). Between
/// regions the external root path cost decides: 2000 through tor-d beats
/// 20000 over the direct link, although 2000 + 20000 (the in-region cost
/// added) is more than 20000. The explanation cites the external figures.
#[test]
fn across_regions_the_external_root_path_cost_is_cited() {
    let mut n = Net::default();
    let c1 = n.bridge("core-1", M::Mstp, 4096, mac(1));
    let c2 = n.bridge("core-2", M::Mstp, 8192, mac(2));
    let d = n.bridge("tor-d", M::Mstp, 32768, mac(4));
    n.bridges[c1].mst = cfg("dc1", 1, &[]);
    n.bridges[c2].mst = cfg("dc2", 1, &[]);
    n.bridges[d].mst = cfg("dc2", 1, &[]);
    let direct = n.link("direct", c1, c2, 10_000);
    n.links[direct].cost = Some(20_000);
    let _cd = n.link("c1-d", c1, d, 10_000);
    let _c2d = n.link("c2-d", c2, d, 1_000);
    let r = n.engine().compute_healthy();
    let t = r.cist();
    let s = t.bridges[c2].as_ref().unwrap();
    assert_eq!((s.external_cost, s.internal_cost), (2000, 20_000));
    assert_eq!(role(t, direct, End::B), Some(PortRole::Alternate));
    let ex = r.explain_port(CIST, PortRef::new(direct, End::B)).unwrap();
    assert_eq!(ex.decided_by, Decision::RootPathCost);
    assert_eq!(ex.cost_scope, CostScope::External);
    assert_eq!(
        (ex.offered_cost, ex.cost_through_port, ex.root_path_cost),
        (0, 20_000, 2000)
    );
    // Inside region dc2, core-2's root port adds internal cost 20000: the
    // words say so (`netlint_rules::phrases::stp`).
    let dc2 = r.regions.iter().position(|g| g.name() == "dc2").unwrap();
    assert_eq!(ex.internal_note, Some((dc2, 20_000)));
    assert_eq!(ex.regional_root, Some(d));
    // The root port of core-2: both figures.
    let rp = r.explain_port(CIST, PortRef::new(_c2d, End::A)).unwrap();
    assert_eq!(
        rp.cost_split,
        Some(CostSplit {
            external: 2000,
            internal: 20_000,
            regional_root: d
        })
    );
}
