//! What a design puts on each switch, before any vendor's syntax: the
//! ports (links, host ports, ports configured one by one) with their
//! layer-2 settings, the port-channels, the cables; shared helpers.

use crate::Vendor;
use netlint_model::ifname::port_key;
use netlint_model::{
    Attachment, Design, End, LagMode, Link, LinkKind, NicIdx, StpCost, StpMode, Switch, SwitchId,
    VlanSet,
};
use std::collections::{BTreeMap, BTreeSet};

/// A layer-2 port's settings.
#[derive(Clone, Debug, Default)]
pub(crate) struct L2 {
    pub(crate) access: Option<u16>,
    /// Allowed VLANs of a trunk; `None` = every VLAN (no allowed line).
    pub(crate) allowed: Option<BTreeSet<u16>>,
    pub(crate) native: Option<u16>,
    /// The payload MTU written on the port (NX-OS `mtu`); EOS writes `l2
    /// mtu` from it, else from the switch's.
    pub(crate) mtu: Option<u32>,
    pub(crate) edge: bool,
    pub(crate) bpdu_guard: bool,
    pub(crate) pfc: Vec<u8>,
    /// The link's spanning-tree port cost (`stp_cost` for every tree),
    /// written on the port-channel or the lone port, not on members.
    pub(crate) stp_cost: Option<u32>,
    /// Under MST, the port's cost per instance (instance, cost): the
    /// link's `stp_cost` on instance 0 and each instance of the switch's
    /// region, or its table.
    pub(crate) mst_cost: Vec<(u16, u32)>,
}

#[derive(Clone, Debug)]
pub(crate) enum Mode {
    L2(L2),
    Routed,
}

#[derive(Clone, Debug)]
pub(crate) struct Port {
    pub(crate) name: String,
    pub(crate) description: Option<String>,
    pub(crate) mode: Mode,
    /// Member of this port-channel: (id, LACP active?).
    pub(crate) channel: Option<(usize, bool)>,
    /// vPC / MLAG id or peer-link.
    pub(crate) mc: Option<McRole>,
    /// A member's speed (Mb/s), where the design states it.
    pub(crate) speed: Option<u64>,
    /// A port of a peer link (a member, or its port-channel): OS10's VLT
    /// interconnect is its physical ports, named by the VLT domain.
    pub(crate) peer: bool,
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum McRole {
    PeerLink,
    Member(usize),
}

pub(crate) struct SwitchOut {
    pub(crate) ports: Vec<Port>,
    pub(crate) used: BTreeSet<String>,
    pub(crate) next: u32,
    /// Ports numbered here.
    pub(crate) numbered: Vec<String>,
    pub(crate) notes: Vec<String>,
    pub(crate) peer_link: Option<String>,
    /// The switch's member number in its Catalyst stack (1 outside one).
    pub(crate) member: u32,
}

impl SwitchOut {
    pub(crate) fn new() -> Self {
        SwitchOut {
            ports: Vec::new(),
            used: BTreeSet::new(),
            next: 1,
            numbered: Vec::new(),
            notes: Vec::new(),
            peer_link: None,
            member: 1,
        }
    }
    pub(crate) fn reserve(&mut self, name: &str) {
        self.used.insert(port_key(name));
    }
    /// The next free port, for a cable of `speed` (Mb/s) where stated.
    pub(crate) fn alloc(&mut self, v: Vendor, speed: Option<u64>) -> String {
        loop {
            let name = v.ethernet(self.member, self.next, speed);
            self.next += 1;
            if self.used.insert(port_key(&name)) {
                self.numbered.push(name.clone());
                return name;
            }
        }
    }
    pub(crate) fn add(&mut self, p: Port) {
        self.reserve(&p.name);
        self.ports.push(p);
    }
}

/// One cable of the cabling CSV.
pub(crate) struct Cable {
    pub(crate) device: String,
    pub(crate) port: String,
    pub(crate) peer_device: String,
    pub(crate) peer_port: String,
}

/// The switch's VLANs: its `vlans`, else every VLAN the networks use.
pub(crate) fn switch_vlans(d: &Design, s: &Switch) -> BTreeSet<u16> {
    match &s.vlans {
        Some(v) => v.value.iter().collect(),
        None => d.used_vlans().iter().collect(),
    }
}

/// `interface NAME` and its `description`, as every vendor writes them,
/// the description after `indent`.
pub(crate) fn interface_head(p: &Port, indent: &str, body: &mut Vec<String>) {
    body.push(format!("interface {}", p.name));
    if let Some(desc) = &p.description {
        body.push(format!("{indent}description {desc}"));
    }
}

/// A member port's `channel-group N mode active|on` (LACP or static), as
/// every vendor writes it, after `indent`.
pub(crate) fn channel_group(n: usize, active: bool, indent: &str) -> String {
    let mode = if active { "active" } else { "on" };
    format!("{indent}channel-group {n} mode {mode}")
}

/// A switchport's mode and VLAN lines as NX-OS, EOS and IOS write them
/// (`switchport mode access` / `access vlan`, or `mode trunk`, `trunk
/// native vlan`, `trunk allowed vlan LIST|none`), each line after
/// `indent`. OS10 writes a trunk's VLANs otherwise (os10.rs).
pub(crate) fn cisco_switchport_vlans(l2: &L2, indent: &str, body: &mut Vec<String>) {
    match l2.access {
        Some(a) => {
            body.push(format!("{indent}switchport mode access"));
            body.push(format!("{indent}switchport access vlan {a}"));
        }
        None => {
            body.push(format!("{indent}switchport mode trunk"));
            if let Some(n) = l2.native {
                body.push(format!("{indent}switchport trunk native vlan {n}"));
            }
            if let Some(a) = &l2.allowed {
                let list = if a.is_empty() {
                    "none".to_string()
                } else {
                    vlan_list(a)
                };
                body.push(format!("{indent}switchport trunk allowed vlan {list}"));
            }
        }
    }
}

/// `10,20-23,100`, as the vendors write VLAN lists.
pub(crate) fn vlan_list(set: &BTreeSet<u16>) -> String {
    let s: VlanSet = set.iter().copied().collect();
    s.to_string().replace(", ", ",")
}

/// Every VLAN the networks of NIC `n` of `h` carry tagged, and whether
/// one of them is untagged.
pub(crate) fn nic_vlans(d: &Design, h: &netlint_model::Host, n: NicIdx) -> (BTreeSet<u16>, bool) {
    let mut nets: Vec<netlint_model::NetworkId> =
        h.nic(n).networks.iter().map(|x| x.value).collect();
    for team in &h.teams {
        if team.members.iter().any(|m| m.value == n) {
            nets.extend(team.networks.iter().map(|x| x.value));
        }
    }
    for vs in &h.vswitches {
        if vs
            .uplinks
            .iter()
            .any(|u| h.uplink_nics(u.value).contains(&n))
        {
            nets.extend(vs.networks.iter().map(|x| x.value));
            nets.extend(vs.vnics.iter().map(|v| v.network.value));
        }
    }
    let mut tagged = BTreeSet::new();
    let mut untagged = false;
    for id in nets {
        match d.network(id).vlan_id() {
            Some(v) => {
                tagged.insert(v);
            }
            None => untagged = true,
        }
    }
    (tagged, untagged)
}

/// The switch and port a NIC is cabled to, where the design names the
/// port (`switch_port`, or `port`).
pub(crate) fn nic_port(d: &Design, n: &netlint_model::Nic) -> Option<(SwitchId, String)> {
    let Some(Attachment::Switch(s)) = &n.attach else {
        return None;
    };
    if let Some(i) = &n.switch_port {
        return Some((s.value, d.switch(s.value).ports[i.value].name.clone()));
    }
    n.port.as_ref().map(|p| (s.value, p.value.clone()))
}

/// A port configured under `ports`: its own settings over `base`.
pub(crate) fn port_table(d: &Design, s: &Switch, p: &netlint_model::SwitchPort, mut l2: L2) -> L2 {
    if let Some(a) = &p.access_vlan {
        l2.access = Some(a.value);
        l2.allowed = None;
        l2.native = None;
    } else {
        if let Some(v) = &p.vlans {
            l2.allowed = Some(v.value.iter().collect());
        }
        if let Some(n) = &p.native_vlan {
            l2.native = Some(n.value);
        }
    }
    if let Some(m) = &p.mtu {
        l2.mtu = Some(m.value.payload);
    }
    if let Some(e) = &p.edge {
        l2.edge = e.value;
    }
    if let Some(g) = &p.bpdu_guard {
        l2.bpdu_guard = g.value;
    }
    let _ = (d, s);
    l2
}

pub(crate) fn link(
    d: &Design,
    vendor: Vendor,
    l: &Link,
    outs: &mut [SwitchOut],
    cables: &mut Vec<Cable>,
) {
    // A stacking cable is no port of a running-config: NX-OS, EOS and OS10
    // refuse a stack (`refuse`), and a Catalyst stack's config has no line
    // for its stacking cables.
    if l.kind.value == LinkKind::Stack {
        return;
    }
    let a_ends: Vec<SwitchId> = l.a_ends().map(|s| s.value).collect();
    let b_ends: Vec<SwitchId> = l.b.iter().map(|s| s.value).collect();
    let mut pairs: Vec<(SwitchId, SwitchId)> = Vec::new();
    for a in &a_ends {
        for b in &b_ends {
            pairs.push((*a, *b));
        }
    }
    let members = l.members.value.max(1) as usize;
    let id = l.index + 1;
    let routed = l.kind.value == LinkKind::Routed;
    let peer = l.kind.value == LinkKind::PeerLink;
    let lag = l.is_lag() || peer;
    // Each end's bundling: `lag_a` / `lag_b` where the design gives the
    // ends two (a mismatch the configs then carry, as the design does).
    let channel_of = |end: End| -> Option<(usize, bool)> {
        let mode = match (l.lag_ends(), end) {
            (Some((a, _)), End::A) => a.value,
            (Some((_, b)), End::B) => b.value,
            (None, _) => l.lag.value,
        };
        // A peer link is a port-channel even of one cable: NX-OS takes
        // `vpc peer-link` and EOS `peer-link` on a port-channel only.
        let bundled = peer || l.is_multi_chassis() || l.members.value > 1 && mode != LagMode::None;
        bundled.then_some((id, mode != LagMode::Static))
    };
    let mst = |s: SwitchId| d.switch(s).stp.mode.value == StpMode::Mstp;
    // The settings of each end.
    let settings = |s: SwitchId, end: End, at: usize| -> Mode {
        if routed {
            return Mode::Routed;
        }
        let native = l.native_at(d, end, at).vlan;
        Mode::L2(L2 {
            allowed: l.vlans.as_ref().map(|v| v.value.iter().collect()),
            native: (native != 1).then_some(native),
            mtu: l.mtu_of(s).map(|m| m.value.payload),
            pfc: switch_pfc(d.switch(s)),
            // Under MST a port's cost is set per instance (Cisco
            // `spanning-tree mst N cost`, OS10 `spanning-tree msti N cost`).
            stp_cost: match l.stp_cost.as_ref().map(|c| &c.value) {
                Some(StpCost::All(c)) if !mst(s) => Some(*c),
                _ => None,
            },
            mst_cost: match l.stp_cost.as_ref().map(|c| &c.value) {
                Some(StpCost::All(c)) if mst(s) => {
                    let st = &d.switch(s).stp;
                    let mut ids = vec![0u16];
                    if let Some(i) = &st.instances {
                        ids.extend(i.value.keys().filter(|k| **k != 0));
                    }
                    ids.into_iter().map(|k| (k, *c)).collect()
                }
                Some(StpCost::PerInstance(m)) if mst(s) => {
                    m.iter().map(|(k, c)| (*k, *c)).collect()
                }
                _ => Vec::new(),
            },
            ..L2::default()
        })
    };
    let stated = |end: End| match end {
        End::A => l.ends.port_a.as_ref().map(|p| p.value.clone()),
        End::B => l.ends.port_b.as_ref().map(|p| p.value.clone()),
    };
    if let Some(c) = &l.stp_cost {
        for e in l.ends() {
            if !mst(e) && matches!(c.value, StpCost::PerInstance(_)) {
                outs[e.0].notes.push(format!(
                    "link {}: a port cost per MST instance on a switch that runs no MST: not generated",
                    l.name
                ));
            }
        }
    }
    let mut used_pc: BTreeSet<SwitchId> = BTreeSet::new();
    for c in 0..members {
        let (a, b) = pairs[c % pairs.len()];
        let mut names = Vec::new();
        for (s, end, far) in [(a, End::A, b), (b, End::B, a)] {
            let at = b_ends.iter().position(|x| *x == s).unwrap_or(0);
            let out = &mut outs[s.0];
            // A stated name is the one physical port of a one-cable end.
            let name = match stated(end) {
                Some(n) if members == 1 || (!lag && c == 0) => n,
                _ => out.alloc(vendor, l.speed.as_ref().map(|x| x.value.mbps())),
            };
            names.push(name.clone());
            if !d.switch(s).is_managed() {
                continue;
            }
            let mode = match settings(s, end, at) {
                // A port named under `ports` keeps its own settings.
                Mode::L2(base) => match d.switch(s).port(&name) {
                    Some(p) => Mode::L2(port_table(d, d.switch(s), p, base)),
                    None => Mode::L2(base),
                },
                Mode::Routed => Mode::Routed,
            };
            out.add(Port {
                name,
                description: Some(format!("{} ({})", d.switch(far).name, l.name)),
                mode,
                channel: channel_of(end),
                mc: None,
                speed: l.speed.as_ref().map(|x| x.value.mbps()),
                peer,
            });
            if channel_of(end).is_some() {
                used_pc.insert(s);
            }
        }
        cables.push(Cable {
            device: d.switch(a).name.clone(),
            port: names[0].clone(),
            peer_device: d.switch(b).name.clone(),
            peer_port: names[1].clone(),
        });
    }
    for s in used_pc {
        let end = if a_ends.contains(&s) { End::A } else { End::B };
        let at = b_ends.iter().position(|x| *x == s).unwrap_or(0);
        let sides = if end == End::A { &a_ends } else { &b_ends };
        let far: Vec<&str> = (if end == End::A { &b_ends } else { &a_ends })
            .iter()
            .map(|x| d.switch(*x).name.as_str())
            .collect();
        let mc = if peer {
            Some(McRole::PeerLink)
        } else if sides.len() > 1 && d.switch(s).mlag.is_some() {
            Some(McRole::Member(id))
        } else {
            None
        };
        let name = vendor.port_channel(id);
        if peer {
            outs[s.0].peer_link = Some(name.clone());
        }
        let mode = settings(s, end, at);
        outs[s.0].add(Port {
            name,
            description: Some(format!("{} ({})", far.join(" + "), l.name)),
            mode,
            channel: None,
            mc,
            speed: None,
            peer,
        });
    }
}

pub(crate) fn host_ports(
    d: &Design,
    vendor: Vendor,
    outs: &mut [SwitchOut],
    cables: &mut Vec<Cable>,
) {
    for h in &d.hosts {
        for (i, n) in h.nics.iter().enumerate() {
            // A NIC cabled to a switch port the design does not name gets
            // the next free port, as an inter-switch cable does: without a
            // port the switch would carry none of the host-facing settings
            // (edge, BPDU guard, VLANs, MTU, PFC) the design gives it.
            let (sid, port) = match nic_port(d, n) {
                Some(x) => x,
                None => match &n.attach {
                    Some(Attachment::Switch(s)) if d.switch(s.value).is_managed() => {
                        let speed = n.speed.as_ref().map(|x| x.value.mbps());
                        (s.value, outs[s.value.0].alloc(vendor, speed))
                    }
                    _ => continue,
                },
            };
            let sw = d.switch(sid);
            if !sw.is_managed() {
                continue;
            }
            let (tagged, untagged) = nic_vlans(d, h, NicIdx(i));
            let defined = switch_vlans(d, sw);
            let base = L2 {
                allowed: Some(tagged.intersection(&defined).copied().collect()),
                native: if untagged {
                    sw.host_ports.native_vlan.as_ref().map(|v| v.value)
                } else {
                    None
                },
                edge: sw.host_ports.edge.as_ref().is_some_and(|e| e.value),
                bpdu_guard: sw.host_ports.bpdu_guard.as_ref().is_some_and(|e| e.value),
                pfc: switch_pfc(sw),
                ..L2::default()
            };
            let mut l2 = match sw.port(&port) {
                Some(p) => port_table(d, sw, p, base),
                None => base,
            };
            // A native VLAN the trunk does not carry is added to it.
            if let (Some(nv), Some(a)) = (l2.native, l2.allowed.as_mut()) {
                a.insert(nv);
            }
            let out = &mut outs[sid.0];
            // Two NICs on one port: the first one's settings stay.
            if !out
                .ports
                .iter()
                .any(|p| port_key(&p.name) == port_key(&port))
            {
                out.add(Port {
                    name: port.clone(),
                    description: Some(format!("{} {}", h.name, n.name)),
                    mode: Mode::L2(l2),
                    channel: None,
                    mc: None,
                    speed: n.speed.as_ref().map(|x| x.value.mbps()),
                    peer: false,
                });
            }
            cables.push(Cable {
                device: sw.name.clone(),
                port: port.clone(),
                peer_device: h.name.clone(),
                peer_port: n.name.clone(),
            });
        }
    }
}

/// The numbers in an interface name, for ordering `Ethernet1/2` before
/// `Ethernet1/10`.
pub(crate) fn sort_key(name: &str) -> (u8, String, Vec<u32>) {
    let kind = if name.to_ascii_lowercase().starts_with("port") {
        0
    } else {
        1
    };
    let prefix: String = name
        .chars()
        .take_while(|c| !c.is_ascii_digit())
        .collect::<String>()
        .to_ascii_lowercase();
    let nums = name
        .split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty())
        .filter_map(|p| p.parse().ok())
        .collect();
    (kind, prefix, nums)
}

pub(crate) fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

pub(crate) fn cabling(d: &Design, cables: &[Cable]) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "# Cabling of design \"{}\", written by netlint generate: the cables the design states.\n",
        d.name.value
    ));
    out.push_str("device,port,peer_device,peer_port\n");
    for c in cables {
        out.push_str(&format!(
            "{},{},{},{}\n",
            csv_field(&c.device),
            csv_field(&c.port),
            csv_field(&c.peer_device),
            csv_field(&c.peer_port)
        ));
    }
    out
}

/// The vPC / MLAG domain id: the digits the design's domain name ends
/// with, else its place among the design's domains.
pub(crate) fn domain_id(d: &Design, name: &str) -> u32 {
    let digits: String = name
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_digit())
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    if let Ok(n) = digits.parse::<u32>() {
        if (1..=1000).contains(&n) {
            return n;
        }
    }
    let mut names: Vec<&str> = d
        .switches
        .iter()
        .filter_map(|s| s.mlag.as_ref().map(|m| m.value.as_str()))
        .collect();
    names.sort();
    names.dedup();
    names.iter().position(|n| *n == name).unwrap_or(0) as u32 + 1
}

/// The PFC priorities of switch `s` (`dcb.pfc`).
pub(crate) fn switch_pfc(s: &Switch) -> Vec<u8> {
    s.dcb
        .as_ref()
        .and_then(|x| x.pfc.as_ref())
        .map(|p| p.value.clone())
        .unwrap_or_default()
}

/// The ETS shares of switch `s` by priority (`dcb.ets`).
pub(crate) fn switch_ets(s: &Switch) -> BTreeMap<u8, u32> {
    s.dcb
        .as_ref()
        .and_then(|x| x.ets.as_ref())
        .map(|e| e.value.clone())
        .unwrap_or_default()
}

/// `vlan N` and the network's `name` per VLAN (not VLAN 1).
pub(crate) fn vlan_lines(d: &Design, vlans: &BTreeSet<u16>, body: &mut Vec<String>) {
    for vid in vlans {
        if *vid == 1 {
            continue;
        }
        body.push(format!("vlan {vid}"));
        if let Some(n) = d.networks.iter().find(|n| n.vlan_id() == Some(*vid)) {
            body.push(format!("  name {}", n.name));
        }
    }
}

/// The switch's ports in interface order (port-channels first).
pub(crate) fn sorted_ports(out: &SwitchOut) -> Vec<Port> {
    let mut ports = out.ports.clone();
    ports.sort_by_key(|p| sort_key(&p.name));
    ports
}
