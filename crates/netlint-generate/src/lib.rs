//! netlint-generate: a design's switch running-configs (Cisco NX-OS, Arista
//! EOS) and its cabling CSV, written so that `netlint import` reads back the
//! values the design states (issue 36).
//!
//! Only what the design states is written: hostname, VLANs and their
//! names, spanning tree, the MLAG / vPC domain and its peer-link,
//! inter-switch port-channels, host-facing ports, MTU and PFC. What it
//! does not state (management addresses, AAA, NTP, routing, the vPC peer
//! keepalive, ETS shares) is left out and listed in each file's header.
//! Ports a design does not name are numbered here, and the header says
//! which: a port-channel needs member ports.
//!
//! ```
//! let text = "[design]\nname = \"d\"\n[networks.m]\nrole = \"management\"\nvlan = 10\n[switches.tor]\n";
//! let file = netlint_model::SourceFile::new("d.toml", text.to_string());
//! let design = netlint_model::load(&file).design.unwrap();
//! let out = netlint_generate::generate(&design, netlint_generate::Vendor::NxOs);
//! assert_eq!(out.files[0].0, "tor.cfg");
//! assert!(out.files[0].1.contains("vlan 10\n  name m\n"));
//! ```

use netlint_model::ifname::port_key;
use netlint_model::{
    Attachment, Design, End, LagMode, Link, LinkKind, NicIdx, PathCost, StpMode, Switch, SwitchId,
    VlanSet,
};
use std::collections::{BTreeMap, BTreeSet};

/// The vendors this slice writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vendor {
    NxOs,
    Eos,
}

impl Vendor {
    pub const ALL: [Vendor; 2] = [Vendor::NxOs, Vendor::Eos];
    /// The key `--vendor` takes.
    pub fn key(self) -> &'static str {
        match self {
            Vendor::NxOs => "nxos",
            Vendor::Eos => "eos",
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Vendor::NxOs => "Cisco NX-OS",
            Vendor::Eos => "Arista EOS",
        }
    }
    pub fn from_key(key: &str) -> Option<Vendor> {
        Vendor::ALL.into_iter().find(|v| v.key() == key)
    }
    fn ethernet(self, n: u32) -> String {
        match self {
            Vendor::NxOs => format!("Ethernet1/{n}"),
            Vendor::Eos => format!("Ethernet{n}"),
        }
    }
    fn port_channel(self, n: usize) -> String {
        match self {
            Vendor::NxOs => format!("port-channel{n}"),
            Vendor::Eos => format!("Port-Channel{n}"),
        }
    }
}

/// The generated files, in order: one `<switch>.cfg` per managed switch,
/// then `cabling.csv`; and what was not generated, design-wide.
#[derive(Clone, Debug, Default)]
pub struct Generated {
    pub files: Vec<(String, String)>,
    /// Facts of the design this vendor's configs do not carry (each also
    /// said in the header of the file concerned).
    pub not_generated: Vec<String>,
}

/// What every file leaves out because a design never states it.
const NEVER_STATED: &[&str] = &[
    "management interface and address, default route",
    "users, AAA, SSH and SNMP",
    "NTP, DNS, logging",
    "routing (SVIs, routed addresses, routing protocols)",
];

/// A layer-2 port's settings.
#[derive(Clone, Debug, Default)]
struct L2 {
    access: Option<u16>,
    /// Allowed VLANs of a trunk; `None` = every VLAN (no allowed line).
    allowed: Option<BTreeSet<u16>>,
    native: Option<u16>,
    /// The payload MTU written on the port (NX-OS `mtu`); EOS writes `l2
    /// mtu` from it, else from the switch's.
    mtu: Option<u32>,
    edge: bool,
    bpdu_guard: bool,
    pfc: Vec<u8>,
}

#[derive(Clone, Debug)]
enum Mode {
    L2(L2),
    Routed,
}

#[derive(Clone, Debug)]
struct Port {
    name: String,
    description: Option<String>,
    mode: Mode,
    /// Member of this port-channel: (id, LACP active?).
    channel: Option<(usize, bool)>,
    /// vPC / MLAG id or peer-link.
    mc: Option<McRole>,
    /// A member's speed (Mb/s), where the design states it.
    speed: Option<u64>,
}

#[derive(Clone, Copy, Debug)]
enum McRole {
    PeerLink,
    Member(usize),
}

struct SwitchOut {
    ports: Vec<Port>,
    used: BTreeSet<String>,
    next: u32,
    /// Ports numbered here.
    numbered: Vec<String>,
    notes: Vec<String>,
    peer_link: Option<String>,
}

impl SwitchOut {
    fn new() -> Self {
        SwitchOut {
            ports: Vec::new(),
            used: BTreeSet::new(),
            next: 1,
            numbered: Vec::new(),
            notes: Vec::new(),
            peer_link: None,
        }
    }
    fn reserve(&mut self, name: &str) {
        self.used.insert(port_key(name));
    }
    fn alloc(&mut self, v: Vendor) -> String {
        loop {
            let name = v.ethernet(self.next);
            self.next += 1;
            if self.used.insert(port_key(&name)) {
                self.numbered.push(name.clone());
                return name;
            }
        }
    }
    fn add(&mut self, p: Port) {
        self.reserve(&p.name);
        self.ports.push(p);
    }
}

/// One cable of the cabling CSV.
struct Cable {
    device: String,
    port: String,
    peer_device: String,
    peer_port: String,
}

/// The switch's VLANs: its `vlans`, else every VLAN the networks use.
fn switch_vlans(d: &Design, s: &Switch) -> BTreeSet<u16> {
    match &s.vlans {
        Some(v) => v.value.iter().collect(),
        None => d.used_vlans().iter().collect(),
    }
}

/// `10,20-23,100`, as the vendors write VLAN lists.
fn vlan_list(set: &BTreeSet<u16>) -> String {
    let s: VlanSet = set.iter().copied().collect();
    s.to_string().replace(", ", ",")
}

/// Every VLAN the networks of NIC `n` of `h` carry tagged, and whether
/// one of them is untagged.
fn nic_vlans(d: &Design, h: &netlint_model::Host, n: NicIdx) -> (BTreeSet<u16>, bool) {
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
fn nic_port(d: &Design, n: &netlint_model::Nic) -> Option<(SwitchId, String)> {
    let Some(Attachment::Switch(s)) = &n.attach else {
        return None;
    };
    if let Some(i) = &n.switch_port {
        return Some((s.value, d.switch(s.value).ports[i.value].name.clone()));
    }
    n.port.as_ref().map(|p| (s.value, p.value.clone()))
}

/// Generates the configs and the cabling of `d` for `vendor`.
pub fn generate(d: &Design, vendor: Vendor) -> Generated {
    let mut outs: Vec<SwitchOut> = d.switches.iter().map(|_| SwitchOut::new()).collect();
    let mut cables: Vec<Cable> = Vec::new();
    let mut not_generated: Vec<String> = Vec::new();
    // Names the design states are reserved before any port is numbered.
    for (i, s) in d.switches.iter().enumerate() {
        for p in &s.ports {
            outs[i].reserve(&p.name);
        }
    }
    for h in &d.hosts {
        for n in &h.nics {
            if let Some((s, p)) = nic_port(d, n) {
                outs[s.0].reserve(&p);
            }
        }
    }
    for l in &d.links {
        for (end, name) in [(End::A, &l.ends.port_a), (End::B, &l.ends.port_b)] {
            if let Some(name) = name {
                let on: Vec<SwitchId> = match end {
                    End::A => l.a_ends().map(|s| s.value).collect(),
                    End::B => l.b.iter().map(|s| s.value).collect(),
                };
                for s in on {
                    outs[s.0].reserve(&name.value);
                }
            }
        }
    }
    for l in &d.links {
        link(d, vendor, l, &mut outs, &mut cables, &mut not_generated);
    }
    host_ports(d, vendor, &mut outs, &mut cables);
    // Ports configured one by one that no NIC or link used.
    for (i, s) in d.switches.iter().enumerate() {
        if !s.is_managed() {
            continue;
        }
        for p in &s.ports {
            if outs[i]
                .ports
                .iter()
                .any(|q| port_key(&q.name) == port_key(&p.name))
            {
                continue;
            }
            let l2 = port_table(d, s, p, L2::default());
            outs[i].ports.push(Port {
                name: p.name.clone(),
                description: None,
                mode: Mode::L2(l2),
                channel: None,
                mc: None,
                speed: None,
            });
        }
    }
    let mut files = Vec::new();
    for (i, s) in d.switches.iter().enumerate() {
        if !s.is_managed() {
            continue;
        }
        let text = switch_config(d, vendor, SwitchId(i), &mut outs[i]);
        for n in &outs[i].notes {
            not_generated.push(format!("{}: {n}", s.name));
        }
        files.push((format!("{}.cfg", s.name), text));
    }
    files.push(("cabling.csv".to_string(), cabling(d, &cables)));
    Generated {
        files,
        not_generated,
    }
}

/// A port configured under `ports`: its own settings over `base`.
fn port_table(d: &Design, s: &Switch, p: &netlint_model::SwitchPort, mut l2: L2) -> L2 {
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

fn link(
    d: &Design,
    vendor: Vendor,
    l: &Link,
    outs: &mut [SwitchOut],
    cables: &mut Vec<Cable>,
    not_generated: &mut Vec<String>,
) {
    if l.kind.value == LinkKind::Stack {
        not_generated.push(format!(
            "link {}: a stacking cable is no running-config line",
            l.name
        ));
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
    let lag = l.is_lag();
    let id = l.index + 1;
    let routed = l.kind.value == LinkKind::Routed;
    let peer = l.kind.value == LinkKind::PeerLink;
    let lacp = l.lag.value != LagMode::Static;
    // The settings of each end.
    let settings = |s: SwitchId, end: End, at: usize| -> Mode {
        if routed {
            return Mode::Routed;
        }
        let native = l.native_at(d, end, at).vlan;
        Mode::L2(L2 {
            allowed: l.vlans.as_ref().map(|v| v.value.iter().collect()),
            native: (native != 1).then_some(native),
            mtu: l.mtu.as_ref().map(|m| m.value.payload),
            pfc: d
                .switch(s)
                .dcb
                .as_ref()
                .and_then(|x| x.pfc.as_ref())
                .map(|p| p.value.clone())
                .unwrap_or_default(),
            ..L2::default()
        })
    };
    let stated = |end: End| match end {
        End::A => l.ends.port_a.as_ref().map(|p| p.value.clone()),
        End::B => l.ends.port_b.as_ref().map(|p| p.value.clone()),
    };
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
                _ => out.alloc(vendor),
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
                channel: lag.then_some((id, lacp)),
                mc: None,
                speed: l.speed.as_ref().map(|x| x.value.mbps()),
            });
            if lag {
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
        });
    }
}

fn host_ports(d: &Design, vendor: Vendor, outs: &mut [SwitchOut], cables: &mut Vec<Cable>) {
    let _ = vendor;
    for h in &d.hosts {
        for (i, n) in h.nics.iter().enumerate() {
            let Some((sid, port)) = nic_port(d, n) else {
                continue;
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
                pfc: sw
                    .dcb
                    .as_ref()
                    .and_then(|x| x.pfc.as_ref())
                    .map(|p| p.value.clone())
                    .unwrap_or_default(),
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
fn sort_key(name: &str) -> (u8, String, Vec<u32>) {
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

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn cabling(d: &Design, cables: &[Cable]) -> String {
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
fn domain_id(d: &Design, name: &str) -> u32 {
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

fn switch_config(d: &Design, v: Vendor, id: SwitchId, out: &mut SwitchOut) -> String {
    let s = d.switch(id);
    let mut body: Vec<String> = Vec::new();
    let mut push = |l: &str| body.push(l.to_string());
    push(&format!("hostname {}", s.name));
    if v == Vendor::NxOs {
        push("feature lacp");
        push("system default switchport");
        push("feature lldp");
        if s.mlag.is_some() {
            push("feature vpc");
        }
    }
    // VLANs.
    let vlans = switch_vlans(d, s);
    for vid in &vlans {
        if *vid == 1 {
            continue;
        }
        body.push(format!("vlan {vid}"));
        if let Some(n) = d.networks.iter().find(|n| n.vlan_id() == Some(*vid)) {
            body.push(format!("  name {}", n.name));
        }
    }
    stp(d, v, s, &vlans, &mut body, &mut out.notes);
    let payload = s.mtu.payload;
    let pfc: Vec<u8> = s
        .dcb
        .as_ref()
        .and_then(|x| x.pfc.as_ref())
        .map(|p| p.value.clone())
        .unwrap_or_default();
    if s.dcb.as_ref().is_some_and(|x| x.ets.is_some()) {
        out.notes
            .push("ETS bandwidth shares (`dcb.ets`): not generated".to_string());
    }
    if v == Vendor::NxOs && (payload != 1500 || !pfc.is_empty()) {
        body.push("policy-map type network-qos netlint-nq".to_string());
        for cos in &pfc {
            body.push(format!("  class type network-qos c-8q-nq{cos}"));
            body.push(format!("    pause pfc-cos {cos}"));
            body.push(format!("    mtu {payload}"));
        }
        body.push("  class type network-qos c-8q-nq-default".to_string());
        body.push(format!("    mtu {payload}"));
        body.push("system qos".to_string());
        body.push("  service-policy type network-qos netlint-nq".to_string());
    }
    // vPC domain (NX-OS), before the interfaces that name it.
    if let (Vendor::NxOs, Some(m)) = (v, &s.mlag) {
        body.push(format!("vpc domain {}", domain_id(d, &m.value)));
        if s.stp.peer_switch.as_ref().is_none_or(|p| p.value) {
            body.push("  peer-switch".to_string());
        }
        out.notes
            .push("vPC peer-keepalive (the design states no addresses): not generated".to_string());
    }
    // Interfaces.
    let mut ports = out.ports.clone();
    ports.sort_by_key(|p| sort_key(&p.name));
    for p in &ports {
        body.push(format!("interface {}", p.name));
        if let Some(desc) = &p.description {
            body.push(format!("  description {desc}"));
        }
        if let Some(m) = p.speed {
            body.push(match v {
                Vendor::NxOs => format!("  speed {m}"),
                Vendor::Eos if m >= 1000 && m % 1000 == 0 => {
                    format!("  speed forced {}gfull", m / 1000)
                }
                Vendor::Eos => format!("  speed forced {m}full"),
            });
        }
        match &p.mode {
            Mode::Routed => body.push("  no switchport".to_string()),
            Mode::L2(l2) => l2_lines(v, l2, payload, &mut body),
        }
        if let Some((n, active)) = p.channel {
            let mode = if active { "active" } else { "on" };
            body.push(format!("  channel-group {n} mode {mode}"));
        }
        match (v, p.mc) {
            (Vendor::NxOs, Some(McRole::PeerLink)) => body.push("  vpc peer-link".to_string()),
            (Vendor::NxOs, Some(McRole::Member(n))) => body.push(format!("  vpc {n}")),
            (Vendor::Eos, Some(McRole::Member(n))) => body.push(format!("  mlag {n}")),
            _ => {}
        }
        body.push("  no shutdown".to_string());
    }
    if let (Vendor::Eos, Some(m)) = (v, &s.mlag) {
        body.push("mlag configuration".to_string());
        body.push(format!("  domain-id {}", m.value));
        if let Some(pl) = &out.peer_link {
            body.push(format!("  peer-link {pl}"));
        }
        out.notes.push(
            "MLAG local-interface and peer-address (the design states no addresses): not generated"
                .to_string(),
        );
    }
    // Header.
    let mut text = String::new();
    let c = |t: &mut String, l: &str| {
        t.push_str("! ");
        t.push_str(l);
        t.push('\n');
    };
    if v == Vendor::Eos {
        text.push_str(&format!("! device: {} (netlint generate)\n", s.name));
    }
    c(
        &mut text,
        &format!(
            "{} running-config of switch {} of design \"{}\", written by netlint generate.",
            v.name(),
            s.name,
            d.name.value
        ),
    );
    c(&mut text, "Not generated: the design does not state them:");
    for n in NEVER_STATED {
        c(&mut text, &format!("  - {n}"));
    }
    if !out.notes.is_empty() {
        c(&mut text, "Not generated for this switch:");
        for n in &out.notes {
            c(&mut text, &format!("  - {n}"));
        }
    }
    if !out.numbered.is_empty() {
        c(
            &mut text,
            &format!(
                "Ports the design does not name, numbered here (cable them as cabling.csv says): {}",
                out.numbered.join(", ")
            ),
        );
    }
    text.push_str("!\n");
    for l in body {
        text.push_str(&l);
        text.push('\n');
    }
    text
}

fn l2_lines(v: Vendor, l2: &L2, switch_payload: u32, body: &mut Vec<String>) {
    if v == Vendor::NxOs {
        body.push("  switchport".to_string());
    }
    match l2.access {
        Some(a) => {
            body.push("  switchport mode access".to_string());
            body.push(format!("  switchport access vlan {a}"));
        }
        None => {
            body.push("  switchport mode trunk".to_string());
            if let Some(n) = l2.native {
                body.push(format!("  switchport trunk native vlan {n}"));
            }
            if let Some(a) = &l2.allowed {
                let list = if a.is_empty() {
                    "none".to_string()
                } else {
                    vlan_list(a)
                };
                body.push(format!("  switchport trunk allowed vlan {list}"));
            }
        }
    }
    match v {
        Vendor::NxOs => {
            if let Some(m) = l2.mtu {
                body.push(format!("  mtu {m}"));
            }
        }
        // EOS `mtu` is layer 3: switched frames are limited by `l2 mtu`,
        // the frame with its 18-byte Ethernet header and FCS.
        Vendor::Eos => body.push(format!(
            "  l2 mtu {}",
            l2.mtu.unwrap_or(switch_payload) + 18
        )),
    }
    if l2.edge {
        body.push(match (v, l2.access.is_some()) {
            (Vendor::NxOs, true) => "  spanning-tree port type edge".to_string(),
            (Vendor::NxOs, false) => "  spanning-tree port type edge trunk".to_string(),
            (Vendor::Eos, _) => "  spanning-tree portfast".to_string(),
        });
    }
    if l2.bpdu_guard {
        body.push("  spanning-tree bpduguard enable".to_string());
    }
    if !l2.pfc.is_empty() {
        match v {
            Vendor::NxOs => body.push("  priority-flow-control mode on".to_string()),
            Vendor::Eos => {
                body.push("  priority-flow-control on".to_string());
                for p in &l2.pfc {
                    body.push(format!("  priority-flow-control priority {p} no-drop"));
                }
            }
        }
    }
}

fn stp(
    d: &Design,
    v: Vendor,
    s: &Switch,
    vlans: &BTreeSet<u16>,
    body: &mut Vec<String>,
    notes: &mut Vec<String>,
) {
    let _ = d;
    let st = &s.stp;
    let mode = st.mode.value;
    let word = match (v, mode) {
        (Vendor::NxOs, StpMode::RapidPvst) => Some("rapid-pvst"),
        (Vendor::NxOs, StpMode::Mstp) => Some("mst"),
        (Vendor::Eos, StpMode::RapidPvst) => Some("rapid-pvst"),
        (Vendor::Eos, StpMode::Mstp) => Some("mstp"),
        (Vendor::Eos, StpMode::Rstp) => Some("rstp"),
        (Vendor::Eos, StpMode::None) => Some("none"),
        _ => None,
    };
    let (mode, word) = match word {
        Some(w) => (mode, w),
        None => {
            // The nearest mode the platform has, with the design's
            // priorities: the mode itself is the difference `diff` shows.
            let (near, w) = match (v, mode) {
                (Vendor::Eos, StpMode::Stp) => (StpMode::Rstp, "rstp"),
                // One tree for every VLAN, as RSTP: MST's common instance.
                (Vendor::NxOs, StpMode::Rstp | StpMode::Stp) => (StpMode::Mstp, "mst"),
                (Vendor::NxOs, StpMode::None) => {
                    notes.push(format!(
                        "spanning-tree mode none: {} cannot turn spanning tree off; left at its default (rapid-pvst)",
                        v.name()
                    ));
                    return;
                }
                _ => (StpMode::RapidPvst, "rapid-pvst"),
            };
            notes.push(format!(
                "spanning-tree mode {mode}: {} has no such mode; written as {w}, with the design's priorities",
                v.name()
            ));
            (near, w)
        }
    };
    body.push(format!("spanning-tree mode {word}"));
    let vlan_kw = match v {
        Vendor::NxOs => "vlan",
        Vendor::Eos => "vlan-id",
    };
    match mode {
        StpMode::RapidPvst | StpMode::Pvst => {
            let mut ids: BTreeSet<u16> = vlans.clone();
            ids.insert(1);
            ids.extend(st.vlan_priority.keys().copied());
            let mut by: BTreeMap<u32, BTreeSet<u16>> = BTreeMap::new();
            for id in ids {
                by.entry(st.vlan_priority(id)).or_default().insert(id);
            }
            for (p, set) in by {
                if p != 32768 {
                    body.push(format!(
                        "spanning-tree {vlan_kw} {} priority {p}",
                        vlan_list(&set)
                    ));
                }
            }
            if let Some(dis) = &st.disabled_vlans {
                let set: BTreeSet<u16> = dis.value.iter().collect();
                if !set.is_empty() {
                    body.push(format!("no spanning-tree {vlan_kw} {}", vlan_list(&set)));
                }
            }
        }
        StpMode::Mstp => {
            if st.priority.is_some() {
                body.push(format!(
                    "spanning-tree mst 0 priority {}",
                    st.bridge_priority()
                ));
            }
            for (i, p) in &st.instance_priority {
                body.push(format!("spanning-tree mst {i} priority {}", p.value));
            }
            body.push("spanning-tree mst configuration".to_string());
            if let Some(r) = &st.region {
                body.push(format!("  name {}", r.value));
            }
            if let Some(r) = &st.revision {
                body.push(format!("  revision {}", r.value));
            }
            if let Some(inst) = &st.instances {
                for (i, set) in &inst.value {
                    let set: BTreeSet<u16> = set.iter().collect();
                    body.push(format!("  instance {i} vlan {}", vlan_list(&set)));
                }
            }
        }
        StpMode::Rstp if st.priority.is_some() => {
            body.push(format!("spanning-tree priority {}", st.bridge_priority()));
        }
        _ => {}
    }
    if mode != StpMode::RapidPvst && mode != StpMode::Pvst {
        if let Some(dis) = &st.disabled_vlans {
            if !dis.value.is_empty() {
                notes.push(format!(
                    "spanning tree off per VLAN under {mode}: not generated"
                ));
            }
        }
    }
    if let Some(pc) = &st.path_cost {
        match v {
            Vendor::NxOs => body.push(format!(
                "spanning-tree pathcost method {}",
                match pc.value {
                    PathCost::Long => "long",
                    PathCost::Short => "short",
                }
            )),
            Vendor::Eos => notes.push(format!(
                "spanning-tree path-cost method {}: EOS sets none (not generated)",
                pc.value
            )),
        }
    }
}
