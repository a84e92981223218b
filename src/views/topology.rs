//! `netlint topology DESIGN`: what the switches will forward, and why.
//!
//! Per bridged domain (switches joined by inter-switch links) and per
//! spanning-tree instance: the root and why it won, every bridge's root
//! path cost and root port, and every link's role and port cost at each
//! end, with the reason for each blocked end. Then per network the path
//! between its hosts, host pairs with identical paths grouped. The human
//! and JSON outputs are two renderings of one [`TopologyReport`].

use netlint_analysis::l2::AdapterPath;
use netlint_analysis::stp::{End, PortRef, StpResult, TreeKind};
use netlint_analysis::{
    Break, BridgeId, ClassPair, Fabric, Failures, Forwarding, NotCarried, Reach, Reachability,
    Topology, Which,
};
use netlint_model::{Design, HostId, NetworkId, VlanSet};
use netlint_rules::phrases::stp::StpWords;
use netlint_rules::phrases::words::{port_speed, speed_text};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};

#[derive(Serialize, Debug)]
pub struct TopologyReport {
    pub design: String,
    pub file: String,
    pub domains: Vec<Domain>,
    pub networks: Vec<NetworkPaths>,
    /// Routed links and links to unmanaged devices (no bridged domain);
    /// left out when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cabling: Vec<super::cabling::CablingOut>,
    /// Devices with `managed = false`; left out when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unmanaged: Vec<super::cabling::UnmanagedOut>,
}

/// Switches joined by inter-switch links: one bridged network.
#[derive(Serialize, Debug)]
pub struct Domain {
    /// 1-based, in the order of the first switch in the file.
    pub id: usize,
    pub bridges: Vec<BridgeOut>,
    pub trees: Vec<TreeOut>,
}

#[derive(Serialize, Debug)]
pub struct BridgeOut {
    pub name: String,
    /// switch | stack | mlag
    pub kind: &'static str,
    pub members: Vec<String>,
    pub mode: String,
}

/// One spanning-tree instance over (part of) a domain.
#[derive(Serialize, Debug)]
pub struct TreeOut {
    /// "the RSTP tree", "instance 1 of region dc1", "VLAN 20 (PVST+)".
    pub tree: String,
    /// cist | msti | pvst
    pub kind: &'static str,
    pub instance: Option<u16>,
    pub region: Option<String>,
    /// PVST+: the first of `vlans`.
    pub vlan: Option<u16>,
    /// PVST+: every VLAN whose tree comes out exactly like this one (same
    /// root, roles, costs and reasons), ascending: one entry stands for
    /// them all, so 4,094 VLANs over one tree are written once.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub vlans: Vec<u16>,
    /// The design's networks (with their VLAN) this tree decides somewhere.
    pub networks: Vec<String>,
    pub root: String,
    /// Why the root won, in one sentence.
    pub root_reason: String,
    /// The root won on a tie-break (MAC, or netlint's guess).
    pub tie_break: bool,
    pub bridges: Vec<TreeBridge>,
    pub links: Vec<TreeLink>,
}

#[derive(Serialize, Debug)]
pub struct TreeBridge {
    pub name: String,
    pub priority: u32,
    pub root_path_cost: u64,
    pub root_port: Option<String>,
}

#[derive(Serialize, Debug)]
pub struct TreeLink {
    pub link: String,
    pub speed: String,
    pub ends: Vec<LinkEnd>,
    /// Both ends forward.
    pub forwarding: bool,
}

#[derive(Serialize, Debug)]
pub struct LinkEnd {
    pub bridge: String,
    /// root | designated | alternate | backup | master | disabled
    pub role: &'static str,
    pub cost: u32,
    pub forwards: bool,
    /// MSTI only: a region boundary port, which takes its CIST role.
    pub boundary: bool,
    /// Why the port has its role.
    pub why: String,
}

#[derive(Serialize, Debug)]
pub struct NetworkPaths {
    pub network: String,
    pub role: String,
    pub vlan: Option<u16>,
    /// The trees that decide the network's VLAN, with their roots.
    pub decided_by: Vec<String>,
    pub groups: Vec<PathGroup>,
}

/// Host pairs whose paths are identical.
#[derive(Serialize, Debug)]
pub struct PathGroup {
    pub cluster: String,
    pub hosts: Vec<String>,
    /// Every pair among `hosts` (else `pairs` lists them).
    pub every_pair: bool,
    pub pairs: Vec<[String; 2]>,
    pub reachable: bool,
    /// Where it breaks, when it does.
    pub cut: Option<String>,
    /// One per pair of switches the hosts' adapters are cabled to.
    pub paths: Vec<PathOut>,
}

#[derive(Serialize, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct PathOut {
    pub from: String,
    pub to: String,
    /// Bridges from `from` to `to` (one entry: the same bridge).
    pub bridges: Vec<String>,
    pub links: Vec<String>,
    /// "1G per cable on uplink-a"
    pub slowest: Option<String>,
    /// The largest packet every switch and link on the path carries.
    pub mtu: Option<u32>,
    /// Why there is no path (None = forwarding).
    pub cut: Option<String>,
    /// Inside one MLAG domain: the peers the adapters are cabled to (from,
    /// to); when they differ, the traffic crosses `peer_link`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peers: Option<[String; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peer_link: Option<String>,
}

// ---------------------------------------------------------------- model

/// The report for one loaded design.
pub fn build(design: &Design, file: &str) -> TopologyReport {
    let topo = Topology::build(design);
    let fabric = Fabric::new(design, &topo);
    let fwd = fabric.forwarding(design, &topo, &Failures::default());
    let reach = Reachability::new(design, &topo, &fwd);
    TopologyReport {
        design: design.name.value.clone(),
        file: file.to_string(),
        domains: domains(design, &topo, &fwd),
        networks: networks(design, &topo, &fwd, &reach),
        cabling: super::cabling::cabling(design, &topo),
        unmanaged: super::cabling::unmanaged(design),
    }
}

/// The spanning-tree part of the report alone (no network paths): what
/// an editor's hover on a switch or link shows.
pub fn stp_domains(design: &Design) -> Vec<Domain> {
    let topo = Topology::build(design);
    let fabric = Fabric::new(design, &topo);
    let fwd = fabric.forwarding(design, &topo, &Failures::default());
    domains(design, &topo, &fwd)
}

fn port_label(design: &Design, topo: &Topology, port: usize) -> String {
    let p = &topo.ports[port];
    let name = &design.link(p.link).name;
    match p.cable {
        Some(c) => format!("{name} (cable {})", c + 1),
        None => name.clone(),
    }
}

/// Whether some switch of the bridge defines the VLAN.
fn defines(design: &Design, topo: &Topology, bridge: usize, vlan: Option<u16>) -> bool {
    topo.bridges[bridge]
        .members
        .iter()
        .any(|s| design.switch(*s).defines_vlan(vlan))
}

fn vlan_words(v: Option<u16>) -> String {
    match v {
        Some(v) => format!("VLAN {v}"),
        None => "untagged".to_string(),
    }
}

fn domains(design: &Design, topo: &Topology, fwd: &Forwarding) -> Vec<Domain> {
    let stp = &fwd.stp;
    let n = topo.bridges.len();
    // Components of the cabled bridge graph.
    let comp = netlint_analysis::l2::components(n, topo.ports.iter().map(|p| (p.a.0, p.b.0)));
    let mut members: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (b, c) in comp.iter().enumerate() {
        members.entry(*c).or_default().push(b);
    }
    let kind_of = |b: usize| match topo.bridges[b].kind {
        netlint_analysis::BridgeKind::Switch => "switch",
        netlint_analysis::BridgeKind::Stack => "stack",
        netlint_analysis::BridgeKind::Mlag => "mlag",
    };
    let modes = |b: usize| -> String {
        let mut m: Vec<&str> = topo.bridges[b]
            .members
            .iter()
            .map(|s| design.switch(*s).stp.mode.value.as_str())
            .collect();
        m.dedup();
        m.join("/")
    };
    let mut out = Vec::new();
    let bridged = |bs: &&Vec<usize>| {
        !bs.iter()
            .all(|b| super::cabling::cabling_only(design, topo, *b))
    };
    for (i, bridges) in members.values().filter(bridged).enumerate() {
        let in_domain: BTreeSet<usize> = bridges.iter().copied().collect();
        let mut trees: Vec<TreeOut> = Vec::new();
        // PVST+ trees already written, by what they say apart from the VLAN.
        let mut pvst: HashMap<String, usize> = HashMap::new();
        for (tid, tree) in stp.trees().iter().enumerate() {
            for info in &tree.roots {
                if !in_domain.contains(&info.root) {
                    continue;
                }
                let t = tree_out(design, topo, fwd, tid, info.root, &info.bridges);
                let Some(vlan) = t.vlan else {
                    trees.push(t);
                    continue;
                };
                let sig = serde_json::to_string(&(
                    &t.root,
                    &t.root_reason,
                    t.tie_break,
                    &t.bridges,
                    &t.links,
                ))
                .unwrap_or_default();
                match pvst.get(&sig) {
                    Some(&i) => {
                        let same = &mut trees[i];
                        same.vlans.push(vlan);
                        for n in t.networks {
                            if !same.networks.contains(&n) {
                                same.networks.push(n);
                            }
                        }
                    }
                    None => {
                        pvst.insert(sig, trees.len());
                        trees.push(t);
                    }
                }
            }
        }
        for t in trees.iter_mut().filter(|t| t.vlans.len() > 1) {
            let set: VlanSet = t.vlans.iter().copied().collect();
            t.tree = format!("VLANs {set} (PVST+)");
        }
        out.push(Domain {
            id: i + 1,
            bridges: bridges
                .iter()
                .map(|&b| BridgeOut {
                    name: topo.bridges[b].name.clone(),
                    kind: kind_of(b),
                    members: topo.bridges[b]
                        .members
                        .iter()
                        .map(|s| design.switch(*s).name.clone())
                        .collect(),
                    mode: modes(b),
                })
                .collect(),
            trees,
        });
    }
    out
}

fn tree_out(
    design: &Design,
    topo: &Topology,
    fwd: &Forwarding,
    tid: usize,
    root: usize,
    bridges: &[usize],
) -> TreeOut {
    let stp: &StpResult = &fwd.stp;
    let tree = stp.tree(tid).expect("tree");
    let (kind, instance, region, vlan) = match tree.kind {
        TreeKind::Cist => ("cist", None, None, None),
        TreeKind::Msti { region, instance } => (
            "msti",
            Some(instance),
            Some(stp.regions()[region].name().to_string()),
            None,
        ),
        TreeKind::PvstVlan(v) => ("pvst", None, None, Some(v)),
    };
    let members: BTreeSet<usize> = bridges.iter().copied().collect();
    let networks = design
        .networks
        .iter()
        .filter(|n| {
            members.iter().any(|&b| {
                stp.governing_tree(b, n.vlan_id()) == Some(tid)
                    && defines(design, topo, b, n.vlan_id())
            })
        })
        .map(|n| format!("{} ({})", n.name, vlan_words(n.vlan_id())))
        .collect();
    let info = tree.root_info_of(root).expect("root info");
    let tree_bridges = bridges
        .iter()
        .filter_map(|&b| {
            let st = tree.bridges[b].as_ref()?;
            Some(TreeBridge {
                name: topo.bridges[b].name.clone(),
                priority: st.priority,
                root_path_cost: st.root_path_cost,
                root_port: st.root_port.map(|p| port_label(design, topo, p.link)),
            })
        })
        .collect();
    let mut links = Vec::new();
    for (pi, p) in topo.ports.iter().enumerate() {
        if !members.contains(&p.a.0) && !members.contains(&p.b.0) {
            continue;
        }
        let mut ends = Vec::new();
        for (end, b) in [(End::A, p.a), (End::B, p.b)] {
            let pr = PortRef::new(pi, end);
            let Some(ps) = tree.port(pr) else { continue };
            let why = stp
                .explain_port(tid, pr)
                .map(|e| stp.port_reason(&e))
                .unwrap_or_default();
            ends.push(LinkEnd {
                bridge: topo.bridges[b.0].name.clone(),
                role: ps.role.as_str(),
                cost: ps.cost,
                forwards: ps.role.forwards(),
                boundary: ps.boundary,
                why,
            });
        }
        if ends.is_empty() {
            continue;
        }
        let forwarding = ends.iter().all(|e| e.forwards);
        links.push(TreeLink {
            link: port_label(design, topo, pi),
            speed: port_speed(topo, pi),
            ends,
            forwarding,
        });
    }
    TreeOut {
        tree: stp.tree_name(tid),
        kind,
        instance,
        region,
        vlan,
        vlans: vlan.into_iter().collect(),
        networks,
        root: topo.bridges[root].name.clone(),
        root_reason: stp.root_message(tid, root).unwrap_or_default(),
        tie_break: info.decided_by.is_tie_break(),
        bridges: tree_bridges,
        links,
    }
}

/// "peer-link vlti", or "the link between the peers" when none joins them.
fn peer_link_words(design: &Design, link: Option<netlint_model::LinkId>) -> String {
    match link {
        Some(l) => format!("peer-link {}", design.link(l).name),
        None => "the link between the peers".to_string(),
    }
}

/// One sentence for a break.
fn break_text(
    design: &Design,
    topo: &Topology,
    fwd: &Forwarding,
    br: &Break,
    vlan: Option<u16>,
) -> String {
    let host = |h: &HostId| design.host(*h).name.clone();
    let nic = |h: &HostId, n: &netlint_model::NicIdx| design.host(*h).nic(*n).name.clone();
    let bridge = |b: &BridgeId| topo.bridges[b.0].name.clone();
    match br {
        Break::NoAdapter { host: h } => format!("{} has no working adapter for it", host(h)),
        Break::NotCabled { host: h, nic: n } => {
            format!("{} NIC {} is not cabled", host(h), nic(h, n))
        }
        Break::HostSwitchLacksVlan {
            host: h,
            nic: n,
            switch,
        } => format!(
            "{} NIC {} is cabled to {}, which does not define {}",
            host(h),
            nic(h, n),
            design.switch(*switch).name,
            vlan_words(vlan)
        ),
        Break::PeerElsewhere { host: h, nic: n } => format!(
            "the direct cable of {} NIC {} leads to another host",
            host(h),
            nic(h, n)
        ),
        Break::PortDrops { .. } | Break::VlansApart { .. } => {
            netlint_rules::phrases::ports::port_break_text(design, br, vlan).unwrap_or_default()
        }
        Break::NoPath { from, to } => format!(
            "no inter-switch link joins {} and {}",
            bridge(from),
            bridge(to)
        ),
        Break::NotCarried { port, why } => {
            let link = port_label(design, topo, *port);
            match why {
                NotCarried::Down => format!("{link} is down"),
                NotCarried::NotAllowed => {
                    format!("{link} does not allow {}", vlan_words(vlan))
                }
                NotCarried::NotDefined(s) => format!(
                    "{} does not define {} (on {link})",
                    design.switch(*s).name,
                    vlan_words(vlan)
                ),
                NotCarried::PeerLink { from, to, link: pl } => format!(
                    "{link} ends on {} and {}, and {} does not carry {}",
                    design.switch(*from).name,
                    design.switch(*to).name,
                    peer_link_words(design, *pl),
                    vlan_words(vlan)
                ),
            }
        }
        Break::PeerLink { from, to, link, .. } => format!(
            "traffic between {} and {} crosses {}, which does not carry {}",
            design.switch(*from).name,
            design.switch(*to).name,
            peer_link_words(design, *link),
            vlan_words(vlan)
        ),
        Break::Blocked { ports, .. } => {
            let parts: Vec<String> = ports
                .iter()
                .map(|p| {
                    let by = fwd
                        .blocking_ends(topo, *p, vlan)
                        .first()
                        .map(|b| {
                            format!(
                                " (blocked at {} by {})",
                                topo.bridges[b.bridge.0].name,
                                fwd.stp.tree_label(b.tree, Some(b.bridge.0))
                            )
                        })
                        .unwrap_or_default();
                    format!("{}{by}", port_label(design, topo, *p))
                })
                .collect();
            format!(
                "spanning tree blocks {}, and no other path carries {}",
                parts.join(", "),
                vlan_words(vlan)
            )
        }
    }
}

fn path_out(
    design: &Design,
    topo: &Topology,
    fwd: &Forwarding,
    ap: &AdapterPath,
    vlan: Option<u16>,
    tagged: bool,
) -> PathOut {
    let swap = ap.from > ap.to || (ap.from == ap.to && ap.a_switch > ap.b_switch);
    let (from, to, path) = match &ap.path {
        Some(p) if swap => (
            ap.to,
            ap.from,
            Some(p.iter().rev().copied().collect::<Vec<_>>()),
        ),
        Some(p) => (ap.from, ap.to, Some(p.clone())),
        None if swap => (ap.to, ap.from, None),
        None => (ap.from, ap.to, None),
    };
    let (sa, sb) = if swap {
        (ap.b_switch, ap.a_switch)
    } else {
        (ap.a_switch, ap.b_switch)
    };
    // Two peers of one MLAG domain: their traffic crosses the peer-link.
    let peers = (from == to && topo.bridges[from.0].kind == netlint_analysis::BridgeKind::Mlag)
        .then(|| {
            [
                design.switch(sa).name.clone(),
                design.switch(sb).name.clone(),
            ]
        });
    let peer_link = (peers.is_some() && sa != sb).then(|| {
        peer_link_words(
            design,
            netlint_analysis::l2::peer_link_between(design, topo, sa, sb),
        )
    });
    let name = |b: BridgeId| topo.bridges[b.0].name.clone();
    let Some(path) = path else {
        let cut = fwd
            .explain_switches(design, topo, vlan, sa, sb)
            .map(|b| break_text(design, topo, fwd, &b, vlan));
        return PathOut {
            from: name(from),
            to: name(to),
            bridges: Vec::new(),
            links: Vec::new(),
            slowest: None,
            mtu: None,
            cut,
            peers,
            peer_link,
        };
    };
    let mut at = from;
    let mut bridges = vec![name(at)];
    for &p in &path {
        let port = &topo.ports[p];
        at = if port.a == at { port.b } else { port.a };
        bridges.push(name(at));
    }
    let slowest = path
        .iter()
        .min_by_key(|p| topo.ports[**p].member_speed)
        .map(|p| {
            format!(
                "{} per cable on {}",
                speed_text(topo.ports[*p].member_speed),
                port_label(design, topo, *p)
            )
        });
    // The smallest packet limit among the switches and links crossed.
    let mut mtu: Option<u32> = None;
    let mut take = |m: &netlint_model::Mtu| {
        let l = m.payload_limit(tagged);
        mtu = Some(mtu.map_or(l, |x: u32| x.min(l)));
    };
    take(&design.switch(ap.a_switch).mtu.value);
    take(&design.switch(ap.b_switch).mtu.value);
    for &p in &path {
        let port = &topo.ports[p];
        for s in port.switches() {
            take(&design.switch(s).mtu.value);
        }
        if let Some(m) = &design.link(port.link).mtu {
            take(&m.value);
        }
    }
    PathOut {
        from: name(from),
        to: name(to),
        bridges,
        links: path.iter().map(|p| port_label(design, topo, *p)).collect(),
        slowest,
        mtu,
        cut: None,
        peers,
        peer_link,
    }
}

fn networks(
    design: &Design,
    topo: &Topology,
    fwd: &Forwarding,
    reach: &Reachability,
) -> Vec<NetworkPaths> {
    let mut out = Vec::new();
    for (ni, net) in design.networks.iter().enumerate() {
        let id = NetworkId(ni);
        let vlan = net.vlan_id();
        // The trees deciding this VLAN, wherever a bridge runs one.
        let mut decided: Vec<String> = Vec::new();
        for b in 0..topo.bridges.len() {
            if !defines(design, topo, b, vlan) || super::cabling::cabling_only(design, topo, b) {
                continue;
            }
            if let Some(t) = fwd.stp.governing_tree(b, vlan) {
                let l = fwd.stp.tree_label(t, Some(b));
                if !decided.contains(&l) {
                    decided.push(l);
                }
            }
        }
        // Pairs grouped by what they see, decided per pair of host classes
        // (split where a break names a host), in the order of their first
        // pairs: the groups come in the order their first pairs do.
        type Sig = (String, bool, Option<String>, Vec<PathOut>);
        let all = reach.class_pairs(Which::All, Some(id));
        let walks: Vec<Reach> = all.iter().map(|cp| cp.walk(design, topo, fwd)).collect();
        let mut parts: Vec<(ClassPair<'_>, &Reach)> = all
            .iter()
            .zip(&walks)
            .flat_map(|(cp, w)| cp.by_named_host(w).into_iter().map(move |p| (p, w)))
            .collect();
        parts.sort_by_key(|(p, _)| p.order());
        let mut groups: BTreeMap<Sig, Vec<ClassPair<'_>>> = BTreeMap::new();
        let mut order: Vec<Sig> = Vec::new();
        for (part, walked) in parts {
            let r = part.reach(walked);
            let mut paths: Vec<PathOut> = fwd
                .adapter_paths(design, topo, id, r.a, r.b)
                .iter()
                .map(|ap| path_out(design, topo, fwd, ap, vlan, net.tagged()))
                .collect();
            paths.sort();
            paths.dedup();
            let cut = r
                .broken
                .as_ref()
                .map(|b| break_text(design, topo, fwd, b, vlan));
            let cluster = design.host(r.a).cluster_name().to_string();
            let sig: Sig = (cluster, r.broken.is_none(), cut, paths);
            if !groups.contains_key(&sig) {
                order.push(sig.clone());
            }
            groups.entry(sig).or_default().push(part);
        }
        let groups = order
            .into_iter()
            .map(|sig| {
                let parts = &groups[&sig];
                let hosts: BTreeSet<HostId> = parts
                    .iter()
                    .flat_map(|p| p.firsts().chain(p.seconds()))
                    .collect();
                let n = hosts.len();
                let count: usize = parts.iter().map(|p| p.len()).sum();
                let every_pair = count == n * (n - 1) / 2;
                let (cluster, reachable, cut, paths) = sig;
                PathGroup {
                    cluster,
                    hosts: hosts.iter().map(|h| design.host(*h).name.clone()).collect(),
                    every_pair,
                    pairs: if every_pair {
                        Vec::new()
                    } else {
                        // One cluster's pairs: in its order, that of the hosts.
                        let mut pairs: Vec<(HostId, HostId)> =
                            parts.iter().flat_map(|p| p.pairs()).collect();
                        pairs.sort();
                        pairs
                            .iter()
                            .map(|(a, b)| {
                                [design.host(*a).name.clone(), design.host(*b).name.clone()]
                            })
                            .collect()
                    },
                    reachable,
                    cut,
                    paths,
                }
            })
            .collect();
        out.push(NetworkPaths {
            network: net.name.clone(),
            role: net.role.value.as_str().to_string(),
            vlan,
            decided_by: decided,
            groups,
        });
    }
    out
}
