//! What building a scene consults: the design, its topology and spanning
//! trees, the options and the findings; and the words of its labels.

use super::marks::Marks;
use super::options::*;
use netlint_analysis::stp::{End, PortRef, PortRole, StpResult, TreeId, TreeKind};
use netlint_analysis::{Break, NotCarried, Topology};
use netlint_model::{Design, HostId, LagMode, NicIdx, StpMode, SwitchId};
use netlint_rules::phrases::stp::StpWords;

pub(super) fn role_abbrev(r: PortRole) -> &'static str {
    // The abbreviations of `show spanning-tree` on Cisco and Dell switches.
    match r {
        PortRole::Root => "Root",
        PortRole::Designated => "Desg",
        PortRole::Alternate => "Altn",
        PortRole::Backup => "Back",
        PortRole::Master => "Mstr",
        PortRole::Disabled => "Dis",
    }
}

pub(super) fn blocks(r: PortRole) -> bool {
    matches!(r, PortRole::Alternate | PortRole::Backup)
}

pub(super) fn vlan_text(v: Option<u16>) -> String {
    match v {
        Some(v) => format!("VLAN {v}"),
        None => "untagged".to_string(),
    }
}

pub(super) fn vlan_list(vs: &[Option<u16>]) -> String {
    let tagged: netlint_model::VlanSet = vs.iter().filter_map(|v| *v).collect();
    let mut parts = Vec::new();
    if vs.contains(&None) {
        parts.push("untagged".to_string());
    }
    if !tagged.is_empty() {
        parts.push(format!(
            "VLAN{} {tagged}",
            if tagged.len() == 1 { "" } else { "s" }
        ));
    }
    parts.join(", ")
}

/// `node1, node2, node3`; a long run as `hv01, hv02, … hv16`.
pub(super) fn name_run(names: &[&str]) -> String {
    if names.len() <= 4 {
        names.join(", ")
    } else {
        format!("{}, {}, … {}", names[0], names[1], names[names.len() - 1])
    }
}

pub(super) struct Ctx<'a> {
    pub(super) design: &'a Design,
    pub(super) topo: Topology,
    pub(super) stp: StpResult,
    pub(super) opts: &'a GraphOptions,
    pub(super) marks: Marks,
    pub(super) has_mstp: bool,
}

impl Ctx<'_> {
    /// Short name of a tree for root marks and block labels ("" when the
    /// design runs one tree).
    pub(super) fn tree_short(&self, t: TreeId) -> String {
        let Some(tree) = self.stp.tree(t) else {
            return String::new();
        };
        match tree.kind {
            TreeKind::Cist => {
                if self.has_mstp {
                    "instance 0".to_string()
                } else if self.stp.trees().len() > 1 {
                    "VLAN 1 / CST".to_string()
                } else {
                    String::new()
                }
            }
            TreeKind::Msti { region, instance } => {
                if self.stp.regions().len() > 1 {
                    format!(
                        "instance {instance} ({})",
                        self.stp.regions()[region].name()
                    )
                } else {
                    format!("instance {instance}")
                }
            }
            TreeKind::PvstVlan(v) => format!("VLAN {v}"),
        }
    }

    /// The tree whose role a bridge's port shows in a single-tree view.
    pub(super) fn end_tree(&self, bridge: usize) -> Option<TreeId> {
        match self.opts.view {
            View::AllTrees => {
                if self.stp.trees().len() == 1 {
                    self.stp.governing_tree(bridge, None)
                } else {
                    None
                }
            }
            View::Instance(0) => self.stp.governing_tree(bridge, None),
            View::Instance(n) => {
                let msti = self.stp.trees().iter().position(|t| {
                    matches!(t.kind, TreeKind::Msti { instance, .. } if instance == n)
                        && t.bridges.get(bridge).is_some_and(|b| b.is_some())
                });
                msti.or_else(|| self.stp.governing_tree(bridge, None))
            }
            View::Network(net) => self
                .stp
                .governing_tree(bridge, self.design.network(net).vlan_id()),
        }
    }

    pub(super) fn role(&self, tree: TreeId, port: usize, end: End) -> Option<PortRole> {
        self.stp
            .tree(tree)
            .and_then(|t| t.port(PortRef::new(port, end)))
            .map(|p| p.role)
    }

    /// The VLANs the view is about.
    pub(super) fn view_vlans(&self) -> Vec<Option<u16>> {
        let mut all: Vec<Option<u16>> = self.design.networks.iter().map(|n| n.vlan_id()).collect();
        all.sort();
        all.dedup();
        match self.opts.view {
            View::AllTrees => all,
            View::Network(net) => vec![self.design.network(net).vlan_id()],
            View::Instance(n) => {
                let mstp: Vec<&netlint_model::Switch> = self
                    .design
                    .switches
                    .iter()
                    .filter(|s| s.stp.mode.value == StpMode::Mstp)
                    .collect();
                all.into_iter()
                    .filter(|v| match v {
                        None => n == 0,
                        Some(v) if mstp.is_empty() => n == 0 && *v > 0,
                        Some(v) => mstp.iter().any(|s| s.stp.instance_of(*v) == n),
                    })
                    .collect()
            }
        }
    }

    pub(super) fn port_name(&self, p: usize) -> String {
        let port = &self.topo.ports[p];
        let link = self.design.link(port.link);
        match port.cable {
            Some(c) => format!("{}#{}", link.name, c + 1),
            None => link.name.clone(),
        }
    }

    pub(super) fn bridge_name(&self, b: usize) -> &str {
        &self.topo.bridges[b].name
    }

    /// The switch whose end of port `p` blocks `vlan`.
    pub(super) fn blocking_end(&self, p: usize, vlan: Option<u16>) -> Option<String> {
        let port = &self.topo.ports[p];
        for (end, bridge) in [(End::A, port.a.0), (End::B, port.b.0)] {
            let Some(tree) = self.stp.governing_tree(bridge, vlan) else {
                continue;
            };
            if self.role(tree, p, end).is_some_and(blocks) {
                return Some(match end {
                    End::A => bridge_display(self, port.a.0, &port.a_switches),
                    End::B => bridge_display(self, port.b.0, &port.b_switches),
                });
            }
        }
        None
    }

    pub(super) fn describe_break(&self, br: &Break, vlan: Option<u16>) -> String {
        let d = self.design;
        let nic = |h: HostId, n: NicIdx| format!("{}:{}", d.host(h).name, d.host(h).nic(n).name);
        match br {
            Break::NoAdapter { host } => {
                format!("{} has no working adapter for it", d.host(*host).name)
            }
            Break::NotCabled { host, nic: n } => format!("{} is not cabled", nic(*host, *n)),
            Break::HostSwitchLacksVlan {
                host,
                nic: n,
                switch,
            } => format!(
                "{} (cabled to {}) does not define {}",
                d.switch(*switch).name,
                nic(*host, *n),
                vlan_text(vlan)
            ),
            Break::PeerElsewhere { host, nic: n } => {
                format!("{} is cabled straight to another host", nic(*host, *n))
            }
            Break::PortDrops { .. } | Break::VlansApart { .. } => {
                netlint_rules::phrases::ports::port_break_text(d, br, vlan).unwrap_or_default()
            }
            Break::NoPath { from, to } => format!(
                "no working path between {} and {}",
                self.bridge_name(from.0),
                self.bridge_name(to.0)
            ),
            Break::NotCarried { port, why } => match why {
                NotCarried::Down => format!("{} is down", self.port_name(*port)),
                NotCarried::NotAllowed => {
                    format!(
                        "{} does not allow {}",
                        self.port_name(*port),
                        vlan_text(vlan)
                    )
                }
                NotCarried::NotDefined(s) => format!(
                    "{} does not define {} (on {})",
                    d.switch(*s).name,
                    vlan_text(vlan),
                    self.port_name(*port)
                ),
                NotCarried::PeerLink { from, to, .. } => format!(
                    "{} ends on {} and {}, and no peer-link between them carries {}",
                    self.port_name(*port),
                    d.switch(*from).name,
                    d.switch(*to).name,
                    vlan_text(vlan)
                ),
            },
            Break::PeerLink { from, to, .. } => format!(
                "traffic between MLAG peers {} and {} crosses the peer-link, which does not carry {}",
                d.switch(*from).name,
                d.switch(*to).name,
                vlan_text(vlan)
            ),
            Break::Blocked { ports, .. } => {
                let names: Vec<String> = ports
                    .iter()
                    .map(|p| match self.blocking_end(*p, vlan) {
                        Some(at) => format!("{} at {at}", self.port_name(*p)),
                        None => self.port_name(*p),
                    })
                    .collect();
                if names.is_empty() {
                    "the spanning tree blocks it".to_string()
                } else {
                    format!("the spanning tree blocks {}", names.join(", "))
                }
            }
        }
    }
}

/// What the title says about the tree drawn.
pub(super) fn view_note(ctx: &Ctx) -> String {
    let stp = &ctx.stp;
    match ctx.opts.view {
        View::AllTrees => {
            let labels: Vec<String> = (0..stp.trees().len())
                .flat_map(|t| {
                    stp.trees()[t]
                        .roots
                        .iter()
                        .filter(|r| r.bridges.len() > 1)
                        .map(move |r| stp.tree_label(t, Some(r.root)))
                })
                .collect();
            if labels.is_empty() {
                "no spanning tree joins two switches".to_string()
            } else if labels.len() == 1 {
                format!("spanning tree: {}", labels[0])
            } else {
                format!("spanning trees: {}", labels.join("; "))
            }
        }
        View::Instance(n) => {
            let trees: Vec<TreeId> = (0..stp.trees().len())
                .filter(|t| match stp.trees()[*t].kind {
                    TreeKind::Msti { instance, .. } => instance == n,
                    TreeKind::Cist => n == 0,
                    TreeKind::PvstVlan(_) => false,
                })
                .collect();
            let parts: Vec<String> = trees
                .iter()
                .map(|t| {
                    let root = stp.trees()[*t].roots.first().map(|r| r.root);
                    match root.and_then(|r| stp.root_message(*t, r)) {
                        Some(why) => format!("{} ({why})", stp.tree_label(*t, None)),
                        None => stp.tree_label(*t, None),
                    }
                })
                .collect();
            format!("spanning tree: {}", parts.join("; "))
        }
        View::Network(net) => {
            let n = ctx.design.network(net);
            let mut trees: Vec<TreeId> = (0..ctx.topo.bridges.len())
                .filter_map(|b| stp.governing_tree(b, n.vlan_id()))
                .collect();
            trees.sort();
            trees.dedup();
            let labels: Vec<String> = trees.iter().map(|t| stp.tree_label(*t, None)).collect();
            format!(
                "network {} ({}): {}",
                n.name,
                vlan_text(n.vlan_id()),
                if labels.is_empty() {
                    "no spanning tree".to_string()
                } else {
                    labels.join("; ")
                }
            )
        }
    }
}

pub(super) fn stp_line(sw: &netlint_model::Switch) -> String {
    if !sw.is_managed() {
        return "unmanaged: no STP, bridges no VLAN".to_string();
    }
    let stp = &sw.stp;
    let mode = match stp.mode.value {
        StpMode::None => return "no STP".to_string(),
        StpMode::Stp => "STP",
        StpMode::Rstp => "RSTP",
        StpMode::Mstp => "MSTP",
        StpMode::Pvst => "PVST+",
        StpMode::RapidPvst => "rapid-PVST+",
    };
    let mut s = format!("{mode} priority {}", stp.bridge_priority());
    if stp.mode.value == StpMode::Mstp {
        if let Some(r) = &stp.region {
            s.push_str(&format!(" · region {}", r.value));
        }
        for (i, p) in &stp.instance_priority {
            s.push_str(&format!(" · inst {i}: {}", p.value));
        }
    }
    s
}

/// `2 x 10G LACP`, `10G`, `2 x 1G MC-LAG`.
pub(super) fn link_speed_text(link: &netlint_model::Link, members: u32, one_cable: bool) -> String {
    let speed = netlint_rules::phrases::words::speed_text(link.known_speed());
    if one_cable || members == 1 && !link.is_multi_chassis() {
        return speed.to_string();
    }
    let kind = if link.is_multi_chassis() {
        " MC-LAG"
    } else {
        match link.lag.value {
            LagMode::Lacp => " LACP",
            LagMode::Static => " static LAG",
            LagMode::None => "",
        }
    };
    format!("{members} x {speed}{kind}")
}

/// A bridge end of a port by the switches it reaches (`m1+m2` for a
/// multi-chassis LAG).
pub(super) fn bridge_display(ctx: &Ctx, bridge: usize, switches: &[SwitchId]) -> String {
    if switches.len() > 1 {
        ctx.bridge_name(bridge).to_string()
    } else {
        ctx.design.switch(switches[0]).name.clone()
    }
}
