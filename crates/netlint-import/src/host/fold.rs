//! Host facts to the design's `[networks]`, `[profiles]` and `[hosts]`:
//! every host is first written in full as (table, key, value, comment)
//! [`Entry`]s; hosts with the same elements (NICs, teams, virtual
//! switches, vNICs) are then folded into one profile holding the value
//! most of them have, and each host keeps as overrides only what differs
//! from it ([`emit::by_shape`], which also writes them).
//!
//! What the format cannot state (a fact the collection lacks, a role the
//! collection does not tell) is a [`HostNote`], counted in the import
//! summary; nothing is guessed silently. Network ATC intents are what the
//! host should be: the design writes the host as it is, and a difference
//! from its intent is a note ([`NoteKind::IntentDiffers`]).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

use crate::design::toml::{key, string};
use crate::model::{Origin, Sourced};
use crate::names::speed_text;
use crate::Document;
use netlint_model::Speed;

use super::emit::{self, line_kv, Entry};
use super::facts::*;
use super::join::{same_host, tie, NicKey};

/// What a host note is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum NoteKind {
    /// A fact the collection lacks or the format cannot state.
    Unknown,
    /// A value taken from something other than a property that states it
    /// (a network's role from its name), said beside the value.
    Inferred,
    /// A NIC no LLDP neighbour or cabling row ties to a switch port.
    UnmatchedNic,
    /// The host differs from its Network ATC intent.
    IntentDiffers,
}

/// A note about the hosts, at a line of a collection.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct HostNote {
    pub file: String,
    pub line: u32,
    pub kind: NoteKind,
    pub text: String,
}

impl std::fmt::Display for HostNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.text)
    }
}

/// The hosts' part of a design.
#[derive(Clone, Debug, Default)]
pub struct HostsDesign {
    pub toml: String,
    pub notes: Vec<HostNote>,
    pub profiles: usize,
    pub overrides: usize,
}

/// What the interfaces of one network tell about it. A fact an
/// interface's collection lacks stays unknown and casts no vote: an
/// unknown VLAN is not untagged, an unknown MTU not 1500, an unknown RDMA
/// not off.
#[derive(Default)]
struct Evidence {
    cluster_role: Option<ClusterRole>,
    lm: bool,
    /// `Some(true)`: RDMA on some interface; `Some(false)`: known off on
    /// every interface that states it; `None`: no interface states it.
    rdma: Option<bool>,
    subnet: Option<String>,
    /// The VLANs interfaces state, each with where.
    vlans: Vec<(u16, String)>,
    /// Interfaces whose VLAN the collection does not state: where.
    unknown_vlans: Vec<String>,
    mtus: Vec<u32>,
    first: Option<(String, u32)>,
}

impl Evidence {
    fn rdma(&mut self, r: Option<bool>) {
        self.rdma = match (self.rdma, r) {
            (Some(true), _) | (_, Some(true)) => Some(true),
            (Some(false), _) | (_, Some(false)) => Some(false),
            (None, None) => None,
        };
    }

    fn vlan(&mut self, v: Option<(u16, String)>, at: String) {
        match v {
            Some(v) => self.vlans.push(v),
            None => self.unknown_vlans.push(at),
        }
    }
}

struct Ctx<'a> {
    h: &'a HostFacts,
    out: Vec<Entry>,
    notes: &'a mut Vec<HostNote>,
    nets: &'a mut BTreeMap<String, Evidence>,
}

impl Ctx<'_> {
    fn at<T>(&self, s: &Sourced<T>) -> String {
        match s.origin {
            Origin::Line(l) => format!("{}:{l}", self.h.file),
            Origin::VendorDefault { .. } => "default".into(),
            Origin::Inferred { .. } => crate::design::toml::sourced(&self.h.file, s).text,
        }
    }
    fn put(&mut self, table: &[&str], k: &'static str, value: String, comment: String) {
        self.out.push(Entry::new(table, k, value, comment));
    }
    fn note(&mut self, line: u32, kind: NoteKind, text: String) {
        self.notes.push(HostNote {
            file: self.h.file.clone(),
            line,
            kind,
            text: format!("host {}: {text}", self.h.name),
        });
    }
    fn evidence(&mut self, net: &str, line: u32) -> &mut Evidence {
        let file = self.h.file.clone();
        let e = self.nets.entry(net.to_string()).or_default();
        if e.first.is_none() {
            e.first = Some((file, line));
        }
        e
    }
}

/// The design platform of a Windows build or caption.
pub fn platform(os: &OsFacts) -> Option<&'static str> {
    let c = os.caption.to_ascii_lowercase();
    if c.contains("azure stack hci") || c.contains("azure local") {
        return Some("azure-local");
    }
    Some(match os.build? {
        9200 => "windows-server-2012",
        9600 => "windows-server-2012r2",
        14393 => "windows-server-2016",
        17763 => "windows-server-2019",
        20348 => "windows-server-2022",
        26100 => "windows-server-2025",
        _ => return None,
    })
}

fn lba_text(l: Lba) -> &'static str {
    match l {
        Lba::HyperVPort => "hyperv-port",
        Lba::Dynamic => "dynamic",
        Lba::TransportPorts | Lba::IpAddresses | Lba::MacAddresses => "address-hash",
    }
}

fn list(items: &[String]) -> String {
    let v: Vec<String> = items.iter().map(|s| string(s)).collect();
    format!("[{}]", v.join(", "))
}

/// Writes the hosts of a design. `switches` are the imported switches'
/// names (for the join); `docs` the switch-side documents (LLDP tables,
/// cabling).
pub fn write(hosts: &[HostFacts], docs: &[Document], switches: &BTreeSet<String>) -> HostsDesign {
    let mut notes = Vec::new();
    let mut nets: BTreeMap<String, Evidence> = BTreeMap::new();
    let mut per_host: Vec<(String, Vec<Entry>)> = Vec::new();
    let mut sorted: Vec<&HostFacts> = hosts.iter().collect();
    sorted.sort_by(|a, b| {
        a.name
            .to_ascii_lowercase()
            .cmp(&b.name.to_ascii_lowercase())
    });
    let mut seen = BTreeSet::new();
    for h in sorted {
        if !seen.insert(h.name.to_ascii_lowercase()) {
            notes.push(HostNote {
                file: h.file.clone(),
                line: 1,
                kind: NoteKind::Unknown,
                text: format!(
                    "host {} is already imported from another collection; this one is left out",
                    h.name
                ),
            });
            continue;
        }
        let mut ctx = Ctx {
            h,
            out: Vec::new(),
            notes: &mut notes,
            nets: &mut nets,
        };
        one_host(&mut ctx, docs, switches);
        let out = ctx.out;
        per_host.push((h.name.clone(), out));
    }
    let mut toml = String::new();
    write_networks(&mut toml, &nets, &mut notes);
    let files: HashMap<&str, &str> = hosts
        .iter()
        .map(|h| (h.name.as_str(), h.file.as_str()))
        .collect();
    let file_of = |name: &str| files.get(name).copied().unwrap_or_default().to_string();
    let (profiles, overrides) = emit::by_shape(&mut toml, &per_host, file_of);
    notes.sort();
    HostsDesign {
        toml,
        notes,
        profiles,
        overrides,
    }
}

fn one_host(c: &mut Ctx<'_>, docs: &[Document], switches: &BTreeSet<String>) {
    let h = c.h;
    for (cmd, err) in &h.missing {
        let why = err
            .as_deref()
            .map(|e| format!(" ({e})"))
            .unwrap_or_default();
        c.note(
            1,
            NoteKind::Unknown,
            format!("{cmd} is not in the collection{why}: the facts it gives are unknown"),
        );
    }
    for r in &h.remarks {
        c.note(r.line, NoteKind::Unknown, r.text.clone());
    }
    // Root: os, memory, power.
    if let Some(os) = &h.os {
        match platform(&os.value) {
            Some(p) => {
                let at = c.at(os);
                c.put(&[], "os", string(p), format!("{at} ({}, build {})", os.value.caption, os.value.build.map_or("?".into(), |b| b.to_string())));
            }
            None => c.note(os.line().unwrap_or(1), NoteKind::Unknown, format!("OS `{}` (build {:?}) is no platform the design names: `os` not written (the design's platform applies)", os.value.caption, os.value.build)),
        }
    }
    if let Some(m) = &h.memory_bytes {
        let gib = (m.value as f64 / 1_073_741_824.0 * 10.0).round() / 10.0;
        if gib > 0.0 {
            let at = c.at(m);
            c.put(
                &[],
                "memory_gb",
                format!("{gib}"),
                format!("{at}, installed memory: the VM memory a drain moves is at most this"),
            );
        }
    }
    if let Some(p) = &h.power {
        let v = match p.value {
            PowerPlan::HighPerformance => "max-performance",
            PowerPlan::Balanced => "balanced",
            PowerPlan::PowerSaver => "power-saver",
            PowerPlan::Other => "unknown",
        };
        let at = c.at(p);
        c.put(&[], "power", string(v), at);
    }

    // Cluster interfaces of this node: adapter alias -> design network.
    let cluster_nets: BTreeMap<&str, &ClusterNetwork> = h
        .cluster_networks
        .iter()
        .flatten()
        .map(|n| (n.name.as_str(), n))
        .collect();
    let mut on_adapter: BTreeMap<String, (String, u32)> = BTreeMap::new();
    for i in h.cluster_interfaces.iter().flatten() {
        if same_host(&i.node, &h.name) {
            on_adapter.insert(i.adapter.clone(), (i.network.clone(), i.line));
        }
    }
    // Live-migration subnets -> cluster network names.
    let lm_subnets: Vec<&Sourced<String>> = h.migration_networks.iter().flatten().collect();
    let mut lm_nets: Vec<String> = Vec::new();
    let vnic_names: BTreeSet<&str> = h.vnics.iter().flatten().map(|v| v.name.as_str()).collect();
    let design_net = |alias: &str| -> Option<String> {
        match super::hyperv::vethernet(alias) {
            Some(v) => Some(v.to_string()),
            // A Network ATC vNIC's adapter has the vNIC's own name.
            None if vnic_names.contains(alias) => Some(alias.to_string()),
            None => on_adapter.get(alias).map(|(n, _)| n.clone()),
        }
    };
    // The cluster interface on a vNIC's adapter, by either of its names.
    let on_vnic = |v: &VnicFacts| -> Option<(String, u32)> {
        super::hyperv::vnic_aliases(&v.name)
            .iter()
            .find_map(|a| on_adapter.get(a).cloned())
    };
    for s in &lm_subnets {
        let mut found = false;
        for (alias, (cn, _)) in &on_adapter {
            let Some(net) = cluster_nets.get(cn.as_str()) else {
                continue;
            };
            if net.subnet.as_ref().map(|x| &x.value) == Some(&s.value) {
                if let Some(d) = design_net(alias) {
                    if !lm_nets.contains(&d) {
                        lm_nets.push(d);
                    }
                    found = true;
                }
            }
        }
        if !found {
            let line = s.line().unwrap_or(1);
            c.note(line, NoteKind::Unknown, format!("live-migration subnet {} matches no interface of this host in Get-ClusterNetwork / Get-ClusterNetworkInterface: not written", s.value));
        }
    }

    // Physical NICs.
    let team_names: BTreeSet<&str> = h
        .lbfo_teams
        .iter()
        .flatten()
        .map(|t| t.name.as_str())
        .collect();
    let nic_names: BTreeSet<&str> = h.nics.iter().map(|n| n.name.as_str()).collect();
    // A NIC listed twice (Get-NetAdapter run twice into one file, a
    // hand-merged collection) is written once: the first entry.
    let mut first_line: BTreeMap<&str, u32> = BTreeMap::new();
    for n in &h.nics {
        if let Some(first) = first_line.get(n.name.as_str()) {
            c.note(n.line, NoteKind::Unknown, format!("NIC {} is listed twice by Get-NetAdapter (first at line {first}): the first is written, this one is left out", n.name));
            continue;
        }
        first_line.insert(n.name.as_str(), n.line);
        let t = ["nics", n.name.as_str()];
        if let Some(s) = &n.slot {
            let at = c.at(s);
            c.put(
                &t,
                "card",
                string(&format!("slot{}", s.value)),
                format!("{at} (Get-NetAdapterHardwareInfo SlotNumber)"),
            );
        } else if let Some(b) = &n.bus {
            let at = c.at(b);
            c.put(
                &t,
                "card",
                string(&format!("bus{}", b.value)),
                format!("{at} (PCI bus: ports of one adapter share it)"),
            );
        } else {
            c.note(n.line, NoteKind::Unknown, format!("NIC {}: no slot or bus (Get-NetAdapterHardwareInfo): its card is unknown, the NIC is its own card", n.name));
        }
        if let Some(d) = &n.description {
            let at = c.at(d);
            c.put(&t, "model", string(adapter_model(&d.value)), at);
        }
        match &n.speed {
            // Only a speed the design can hold (10M-10T): `Speed 4095`
            // would be "0.004M", which the loader refuses.
            Some(s) if netlint_model::Speed::parse(&speed_text(Speed::from_bps(s.value))).is_err() => {
                c.note(s.line().unwrap_or(n.line), NoteKind::Unknown, format!("NIC {}: Speed {} (bits/s) is outside what the design takes (10M-10T): written without `speed` (unknown)", n.name, s.value));
            }
            Some(s) => {
                let at = c.at(s);
                c.put(&t, "speed", string(&speed_text(Speed::from_bps(s.value))), at);
            }
            None => c.note(n.line, NoteKind::Unknown, format!("NIC {}: no link speed (disconnected, or not collected): written without `speed` (unknown)", n.name)),
        }
        match &n.jumbo_packet {
            Some(j) if (590..=9230).contains(&j.value) => {
                let at = c.at(j);
                c.put(&t, "jumbo_packet", j.value.to_string(), format!("{at} (*JumboPacket)"));
            }
            Some(j) => c.note(j.line().unwrap_or(n.line), NoteKind::Unknown, format!("NIC {}: *JumboPacket {} is outside what the design takes (590-9230): not written", n.name, j.value)),
            None => c.note(n.line, NoteKind::Unknown, format!("NIC {}: *JumboPacket not collected: the design's default MTU 1500 applies", n.name)),
        }
        match (&n.rdma_enabled, &n.rdma_tech) {
            (Some(e), _) if !e.value => {
                let at = c.at(e);
                c.put(
                    &t,
                    "rdma",
                    string("none"),
                    format!("{at} (Get-NetAdapterRdma Enabled = False)"),
                );
            }
            (Some(e), Some(tech)) => {
                let v = match tech.value {
                    RdmaTech::Iwarp => "iwarp",
                    RdmaTech::Infiniband => "infiniband",
                    RdmaTech::Roce => "roce",
                    RdmaTech::RoceV2 => "roce-v2",
                };
                let (a, b) = (c.at(e), c.at(tech));
                c.put(
                    &t,
                    "rdma",
                    string(v),
                    format!("{a} (enabled), {b} (*NetworkDirectTechnology)"),
                );
            }
            (Some(e), None) => {
                let a = c.at(e);
                c.put(
                    &t,
                    "rdma",
                    string("roce"),
                    format!("inferred from {a} (enabled): technology not collected, taken as RoCE"),
                );
                c.note(e.line().unwrap_or(n.line), NoteKind::Inferred, format!("NIC {}: RDMA is on but *NetworkDirectTechnology is not collected: written as `roce`", n.name));
            }
            (None, _) => c.note(
                n.line,
                NoteKind::Unknown,
                format!(
                    "NIC {}: Get-NetAdapterRdma does not list it: RDMA unknown, `rdma` not written (the design's default, none, then applies)",
                    n.name
                ),
            ),
        }
        let key = NicKey {
            host: &h.name,
            nic: &n.name,
            mac: n.mac.as_ref().map(|m| m.value.as_str()),
            description: n.description.as_ref().map(|d| d.value.as_str()),
        };
        match tie(docs, switches, &key) {
            Some(tie) => {
                c.put(&t, "switch", string(&tie.switch), tie.at.clone());
                c.out.push(Entry {
                    host_only: true,
                    ..Entry::new(&t, "port", string(&tie.port), tie.at)
                });
            }
            None => {
                let status = n
                    .status
                    .as_ref()
                    .map(|s| format!(" (status {})", s.value))
                    .unwrap_or_default();
                c.note(n.line, NoteKind::UnmatchedNic, format!("NIC {}{status}: no LLDP neighbour (system name {}, port ID its MAC or name) or cabling row ties it to an imported switch: written without `switch`", n.name, h.name));
            }
        }
        if let Some((net, line)) = on_adapter.get(&n.name) {
            let net = net.clone();
            let vlan = n.vlan.as_ref().map(|v| v.value);
            let mtu = n.jumbo_packet.as_ref().map(|j| j.value.saturating_sub(14));
            let role = cluster_nets
                .get(net.as_str())
                .and_then(|x| x.role.as_ref())
                .map(|r| r.value);
            let subnet = cluster_nets
                .get(net.as_str())
                .and_then(|x| x.subnet.as_ref())
                .map(|s| s.value.clone());
            let rdma = n.rdma_enabled.as_ref().map(|e| e.value);
            let file = h.file.clone();
            let e = c.evidence(&net, *line);
            e.cluster_role = e.cluster_role.or(role);
            e.subnet = e.subnet.clone().or(subnet);
            e.rdma(rdma);
            let at = format!("{file}:{line}");
            e.vlan(vlan.map(|v| (v, at.clone())), at);
            e.mtus.extend(mtu);
            e.lm |= lm_nets.contains(&net);
            c.put(
                &t,
                "networks",
                list(&[net]),
                format!("{}:{line} (Get-ClusterNetworkInterface)", h.file),
            );
        }
    }

    // LBFO teams.
    for tm in h.lbfo_teams.iter().flatten() {
        if nic_names.contains(tm.name.as_str()) {
            c.note(tm.line, NoteKind::Unknown, format!("team {} has the name of a physical adapter of Get-NetAdapter: the design names each once, so the team is not written", tm.name));
            continue;
        }
        let t = ["teams", tm.name.as_str()];
        let members: Vec<String> = tm
            .members
            .value
            .iter()
            .filter(|m| nic_names.contains(m.as_str()))
            .cloned()
            .collect();
        for m in &tm.members.value {
            if !nic_names.contains(m.as_str()) {
                c.note(
                    tm.line,
                    NoteKind::Unknown,
                    format!(
                        "team {}: member {m} is no physical adapter of Get-NetAdapter: left out",
                        tm.name
                    ),
                );
            }
        }
        if members.is_empty() {
            c.note(
                tm.line,
                NoteKind::Unknown,
                format!(
                    "team {} has no member the collection knows: not written",
                    tm.name
                ),
            );
            continue;
        }
        c.put(
            &t,
            "kind",
            string("lbfo"),
            format!("{}:{} (Get-NetLbfoTeam)", h.file, tm.line),
        );
        let at = c.at(&tm.members);
        c.put(&t, "members", list(&members), at);
        if let Some(m) = &tm.mode {
            let v = match m.value {
                TeamingMode::Static => "static",
                TeamingMode::SwitchIndependent => "switch-independent",
                TeamingMode::Lacp => "lacp",
            };
            let at = c.at(m);
            c.put(&t, "mode", string(v), at);
        } else {
            c.note(tm.line, NoteKind::Unknown, format!("team {}: TeamingMode not collected: the design's default (switch-independent) applies", tm.name));
        }
        if let Some(l) = &tm.lba {
            let at = c.at(l);
            c.put(
                &t,
                "load_balancing",
                string(lba_text(l.value)),
                format!("{at} ({:?})", l.value),
            );
        } else {
            c.note(tm.line, NoteKind::Unknown, format!("team {}: LoadBalancingAlgorithm not collected: the design's default (dynamic) applies", tm.name));
        }
        if let Some(s) = &tm.standby {
            if members.contains(&s.value) {
                let at = c.at(s);
                c.put(&t, "standby", string(&s.value), at);
            }
        }
        if let Some((net, line)) = on_adapter.get(&tm.name) {
            let net = net.clone();
            let role = cluster_nets
                .get(net.as_str())
                .and_then(|x| x.role.as_ref())
                .map(|r| r.value);
            let e = c.evidence(&net, *line);
            e.cluster_role = e.cluster_role.or(role);
            let file = h.file.clone();
            // A team interface's VLAN (Get-NetLbfoTeamNic) is not
            // collected: unknown, not untagged.
            e.vlan(None, format!("{file}:{line} (team {})", tm.name));
            c.put(
                &t,
                "networks",
                list(&[net]),
                format!("{}:{line} (Get-ClusterNetworkInterface)", h.file),
            );
        }
    }

    // Virtual switches and their vNICs.
    // Each written switch's uplinks: a vNIC is pinned to one of them only.
    let mut written_switches: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for s in h.vswitches.iter().flatten() {
        if !s.external {
            c.note(
                s.line,
                NoteKind::Unknown,
                format!(
                    "virtual switch {} is internal or private (no uplink): not written",
                    s.name
                ),
            );
            continue;
        }
        let mut uplinks = Vec::new();
        for u in &s.uplinks.value {
            if nic_names.contains(u.as_str()) || team_names.contains(u.as_str()) {
                uplinks.push(u.clone());
            } else {
                c.note(s.uplinks.line().unwrap_or(s.line), NoteKind::Unknown, format!("virtual switch {}: uplink {u} is no physical adapter or LBFO team of the collection: left out", s.name));
            }
        }
        if uplinks.is_empty() {
            c.note(
                s.line,
                NoteKind::Unknown,
                format!(
                    "virtual switch {} has no uplink the collection knows: not written",
                    s.name
                ),
            );
            continue;
        }
        written_switches.insert(s.name.clone(), uplinks.clone());
        let t = ["vswitches", s.name.as_str()];
        let at = c.at(&s.uplinks);
        let from = if s.uplinks.is_inferred() {
            c.note(
                s.line,
                NoteKind::Inferred,
                format!(
                    "virtual switch {} is not in Get-VMSwitch: written on the adapters of its Network ATC intent ({})",
                    s.name,
                    uplinks.join(", ")
                ),
            );
            at
        } else {
            format!("{at} (NetAdapterInterfaceDescription)")
        };
        c.put(&t, "uplinks", list(&uplinks), from);
        let set = uplinks.len() >= 2 && uplinks.iter().all(|u| nic_names.contains(u.as_str()));
        if set {
            match &s.lba {
                Some(l) if matches!(l.value, Lba::HyperVPort | Lba::Dynamic) => {
                    let at = c.at(l);
                    c.put(&t, "load_balancing", string(lba_text(l.value)), format!("{at} (Get-VMSwitchTeam)"));
                }
                Some(l) => c.note(l.line().unwrap_or(s.line), NoteKind::Unknown, format!("SET switch {}: load balancing {:?} is not one SET has", s.name, l.value)),
                None => c.note(s.line, NoteKind::Unknown, format!("SET switch {}: Get-VMSwitchTeam not collected: the platform's default load balancing applies", s.name)),
            }
        }
        if let (Some(m), Some(w)) = (&s.bandwidth_mode, &s.default_flow_weight) {
            if m.value == BandwidthMode::Weight && w.value <= 100 {
                let at = c.at(w);
                c.put(&t, "default_flow_weight", w.value.to_string(), at);
            }
        }
        c.note(s.line, NoteKind::Unknown, format!("virtual switch {}: its guest (VM) networks are not collected: `networks` not written", s.name));
    }
    // vNICs on one VLAN and one subnet (the classic SMB1 + SMB2 on VLAN
    // 102, 192.168.2.0/24 of SMB Multichannel) are interfaces of one
    // network, named by the first of them: the subnet from the cluster
    // network of their adapters (issue 32 item 4).
    let mut first_on: BTreeMap<(u16, String), String> = BTreeMap::new();
    let mut shares: BTreeMap<String, (String, u16, String)> = BTreeMap::new();
    for v in h.vnics.iter().flatten() {
        let subnet = on_vnic(v)
            .and_then(|(n, _)| cluster_nets.get(n.as_str()).copied())
            .and_then(|x| x.subnet.as_ref())
            .map(|s| s.value.clone());
        let (Some(subnet), Some(vlan)) = (subnet, v.vlan.as_ref().map(|x| x.value)) else {
            continue;
        };
        match first_on.get(&(vlan, subnet.clone())) {
            Some(first) => {
                shares.insert(v.name.clone(), (first.clone(), vlan, subnet));
            }
            None => {
                first_on.insert((vlan, subnet), v.name.clone());
            }
        }
    }
    for v in h.vnics.iter().flatten() {
        let Some(sw) = &v.switch else {
            c.note(
                v.line,
                NoteKind::Unknown,
                format!("vNIC {} names no virtual switch: not written", v.name),
            );
            continue;
        };
        if !written_switches.contains_key(&sw.value) {
            c.note(
                v.line,
                NoteKind::Unknown,
                format!(
                    "vNIC {} is on virtual switch {}, which is not written: left out",
                    v.name, sw.value
                ),
            );
            continue;
        }
        let t = ["vswitches", sw.value.as_str(), "vnics", v.name.as_str()];
        let (net, why) = match shares.get(&v.name) {
            Some((first, vlan, subnet)) => (
                first.clone(),
                format!("shares VLAN {vlan} and subnet {subnet} with vNIC {first}: one network"),
            ),
            None => (v.name.clone(), "the vNIC's name".to_string()),
        };
        // A switch the collection does not name (Network ATC's
        // ConvergedSwitch(<intent>)) says so beside the vNIC.
        let on_switch = if sw.is_inferred() {
            format!("; virtual switch {}: {}", sw.value, c.at(sw))
        } else {
            String::new()
        };
        c.put(
            &t,
            "network",
            string(&net),
            format!("{}:{} ({why}){on_switch}", h.file, v.line),
        );
        if sw.is_inferred() {
            c.note(
                sw.line().unwrap_or(v.line),
                NoteKind::Inferred,
                format!(
                    "vNIC {} names no virtual switch: placed on {} by Network ATC's naming",
                    v.name, sw.value
                ),
            );
        }
        let adapter = v
            .adapter
            .clone()
            .unwrap_or_else(|| format!("vEthernet ({})", v.name));
        let mtu = v.jumbo_packet.as_ref().map(|j| j.value.saturating_sub(14));
        match &v.jumbo_packet {
            Some(j) if (576..=9216).contains(&j.value.saturating_sub(14)) => {
                let at = c.at(j);
                c.put(&t, "mtu", (j.value - 14).to_string(), format!("{at} (*JumboPacket {} of {adapter})", j.value));
            }
            _ => c.note(v.line, NoteKind::Unknown, format!("vNIC {}: *JumboPacket of {adapter} not collected: the design's default MTU 1500 applies", v.name)),
        }
        if let Some(r) = &v.rdma_enabled {
            let at = c.at(r);
            c.put(
                &t,
                "rdma",
                r.value.to_string(),
                format!("{at} (Get-NetAdapterRdma {adapter})"),
            );
        }
        if let Some(w) = &v.weight {
            if w.value <= 100 {
                let at = c.at(w);
                c.put(&t, "min_bandwidth_weight", w.value.to_string(), at);
            }
        }
        if let Some(p) = &v.pinned {
            let uplink = written_switches
                .get(&sw.value)
                .is_some_and(|u| u.contains(&p.value));
            if nic_names.contains(p.value.as_str()) && !uplink {
                c.note(p.line().unwrap_or(v.line), NoteKind::Unknown, format!("vNIC {} is mapped to {} (Get-VMNetworkAdapterTeamMapping), which is no uplink of virtual switch {}: `active_uplinks` not written", v.name, p.value, sw.value));
            } else if nic_names.contains(p.value.as_str()) {
                let at = c.at(p);
                c.put(
                    &t,
                    "active_uplinks",
                    list(std::slice::from_ref(&p.value)),
                    format!("{at} (Get-VMNetworkAdapterTeamMapping)"),
                );
            }
        }
        // Evidence for the network.
        let cn = on_vnic(v);
        let role = cn
            .as_ref()
            .and_then(|(n, _)| cluster_nets.get(n.as_str()))
            .and_then(|x| x.role.as_ref())
            .map(|r| r.value);
        let subnet = cn
            .as_ref()
            .and_then(|(n, _)| cluster_nets.get(n.as_str()))
            .and_then(|x| x.subnet.as_ref())
            .map(|s| s.value.clone());
        let vlan = v.vlan.as_ref().map(|x| (x.value, c.at(x)));
        let rdma = v.rdma_enabled.as_ref().map(|r| r.value);
        let lm = lm_nets.contains(&net);
        let file = h.file.clone();
        let e = c.evidence(&net, v.line);
        e.cluster_role = e.cluster_role.or(role);
        e.subnet = e.subnet.clone().or(subnet);
        e.rdma(rdma);
        e.lm |= lm;
        e.mtus.extend(mtu);
        e.vlan(vlan, format!("{file}:{} (vNIC {})", v.line, v.name));
    }

    // Live migration.
    if let Some(vm) = &h.vmhost {
        let t = ["live_migration"];
        if let Some(tr) = &vm.transport {
            let v = match tr.value {
                Transport::Tcp => "tcp",
                Transport::Compression => "compression",
                Transport::Smb => "smb",
            };
            let at = c.at(tr);
            c.put(
                &t,
                "transport",
                string(v),
                format!("{at} (VirtualMachineMigrationPerformanceOption)"),
            );
        }
        // Only networks the design gets: a live-migration subnet's network
        // whose interfaces were all left out is no network of the design.
        let (kept, left): (Vec<String>, Vec<String>) = lm_nets
            .iter()
            .cloned()
            .partition(|n| c.nets.contains_key(n));
        for n in &left {
            let line = lm_subnets.first().and_then(|s| s.line()).unwrap_or(vm.line);
            c.note(line, NoteKind::Unknown, format!("live migration network {n} is not written (its interfaces were left out): not listed in `live_migration.networks`"));
        }
        let lm_nets = kept;
        if !lm_nets.is_empty() {
            let line = lm_subnets.first().and_then(|s| s.line()).unwrap_or(1);
            c.put(
                &t,
                "networks",
                list(&lm_nets),
                format!("{}:{line} (Get-VMMigrationNetwork subnets)", h.file),
            );
        } else if vm.any_network.as_ref().is_some_and(|a| a.value) {
            c.note(vm.line, NoteKind::Unknown, "UseAnyNetworkForMigration is on: live migration may use any network, which the design cannot list".into());
        }
        if let Some(s) = &vm.simultaneous {
            if (1..=64).contains(&s.value) {
                let at = c.at(s);
                c.put(
                    &t,
                    "simultaneous",
                    s.value.to_string(),
                    format!("{at} (MaximumVirtualMachineMigrations)"),
                );
            }
        }
        match &h.smb_limits {
            Some(limits) => {
                if let Some(l) = limits.iter().find(|l| l.live_migration) {
                    let b = l.bytes_per_second.value;
                    let v = if b % 1_048_576 == 0 { format!("{}MB", b / 1_048_576) } else { format!("{b}B") };
                    let at = c.at(&l.bytes_per_second);
                    c.put(&t, "smb_bandwidth_limit", string(&v), format!("{at} (Get-SmbBandwidthLimit LiveMigration)"));
                }
            }
            None => c.note(vm.line, NoteKind::Unknown, "Get-SmbBandwidthLimit not collected: `smb_bandwidth_limit` not written, which the design reads as no limit".into()),
        }
    }

    // DCB.
    let q = &h.qos;
    if let Some(w) = &q.willing {
        let at = c.at(w);
        c.put(
            &["dcb"],
            "willing",
            w.value.to_string(),
            format!("{at} (Get-NetQosDcbxSetting)"),
        );
    }
    if q.willing.is_none() && (q.pfc.is_some() || q.ets.as_ref().is_some_and(|e| !e.is_empty())) {
        // The host has DCB but its DCBX bit was not collected: written as
        // not known, never as the DCBX default a rule would then judge
        // (issue 32 item 3).
        c.put(
            &["dcb"],
            "willing",
            string("unknown"),
            "Get-NetQosDcbxSetting not collected: not known".to_string(),
        );
    }
    if let Some(p) = &q.pfc {
        let v: Vec<String> = p.value.iter().map(|x| x.to_string()).collect();
        let at = c.at(p);
        c.put(
            &["dcb"],
            "pfc",
            format!("[{}]", v.join(", ")),
            format!("{at} (Get-NetQosFlowControl: priorities enabled)"),
        );
    }
    if let Some(ets) = &q.ets {
        if !ets.is_empty() {
            let mut m: BTreeMap<u8, u32> = BTreeMap::new();
            for e in ets {
                m.insert(e.value.0, e.value.1);
            }
            let v: Vec<String> = m
                .iter()
                .filter(|(p, b)| **p <= 7 && **b <= 100)
                .map(|(p, b)| format!("{p} = {b}"))
                .collect();
            let at = c.at(&ets[0]);
            c.put(
                &["dcb"],
                "ets",
                format!("{{ {} }}", v.join(", ")),
                format!("{at} (Get-NetQosTrafficClass)"),
            );
        }
    }
    if let Some(pols) = &q.policies {
        let mut items = Vec::new();
        let mut first = None;
        for p in pols {
            let (Some(m), Some(pr)) = (p.matches, &p.priority) else {
                if p.matches.is_some() {
                    c.note(
                        p.line,
                        NoteKind::Unknown,
                        format!("QoS policy {} sets no 802.1p priority: left out", p.name),
                    );
                }
                continue;
            };
            let mv = match m {
                PolicyMatch::SmbDirect => "smb-direct",
                PolicyMatch::Smb => "smb",
                PolicyMatch::Cluster => "cluster",
                PolicyMatch::LiveMigration => "live-migration",
                PolicyMatch::Iscsi => "iscsi",
                PolicyMatch::Default => "default",
            };
            first.get_or_insert(p.line);
            items.push(format!(
                "{{ name = {}, match = {}, priority = {} }}",
                string(&p.name),
                string(mv),
                pr.value
            ));
        }
        if !items.is_empty() || q.pfc.is_some() {
            c.put(
                &["dcb"],
                "policies",
                format!("[{}]", items.join(", ")),
                format!("{}:{} (Get-NetQosPolicy)", h.file, first.unwrap_or(1)),
            );
        }
    }

    intents(c, &nic_names);
}

/// Network ATC: where the host differs from its intents, a note.
fn intents(c: &mut Ctx<'_>, nic_names: &BTreeSet<&str>) {
    let h = c.h;
    for i in h.intents.iter().flatten() {
        for a in &i.adapters {
            if !nic_names.contains(a.as_str()) {
                c.note(
                    i.line,
                    NoteKind::IntentDiffers,
                    format!(
                        "Network ATC intent {} names adapter {a}, which the host does not have",
                        i.name
                    ),
                );
                continue;
            }
            let nic = h.nics.iter().find(|n| &n.name == a);
            if let (Some(j), Some(n)) = (&i.jumbo_packet, nic) {
                let actual = n.jumbo_packet.as_ref().map(|x| x.value);
                if actual != Some(j.value) {
                    c.note(
                        n.line,
                        NoteKind::IntentDiffers,
                        format!(
                            "Network ATC intent {} sets JumboPacket {} but adapter {a} has {}",
                            i.name,
                            j.value,
                            actual.map_or("none collected".into(), |x| x.to_string())
                        ),
                    );
                }
            }
            if i.storage {
                if let Some(n) = nic {
                    if n.rdma_enabled.as_ref().is_some_and(|e| !e.value) {
                        c.note(n.line, NoteKind::IntentDiffers, format!("Network ATC intent {} carries storage on adapter {a}, whose RDMA is off", i.name));
                    }
                }
            }
        }
        if i.compute || i.management {
            let on_switch = h
                .vswitches
                .iter()
                .flatten()
                .any(|s| i.adapters.iter().all(|a| s.uplinks.value.contains(a)));
            if !on_switch && !i.adapters.is_empty() {
                c.note(i.line, NoteKind::IntentDiffers, format!("Network ATC intent {} (compute or management) expects a SET switch on {}, and no virtual switch has exactly these uplinks", i.name, i.adapters.join(", ")));
            }
        }
    }
}

fn role_of(name: &str, e: &Evidence) -> (&'static str, Option<&'static str>, String, bool) {
    let n = name.to_ascii_lowercase().replace([' ', '-', '_'], "");
    let has = |words: &[&str]| words.iter().any(|w| n.contains(w));
    if e.rdma == Some(true) {
        return (
            "storage",
            Some("smb"),
            "RDMA on its interfaces: SMB Direct".into(),
            true,
        );
    }
    if e.cluster_role == Some(ClusterRole::ClusterAndClient) {
        return (
            "management",
            None,
            "cluster network role ClusterAndClient".into(),
            false,
        );
    }
    if e.lm {
        return (
            "live-migration",
            None,
            "a live-migration network (Get-VMMigrationNetwork)".into(),
            false,
        );
    }
    let by_name: &[(&[&str], &str, Option<&str>)] = &[
        (&["mgmt", "manage"], "management", None),
        (
            &["livemigration", "migration", "lm"],
            "live-migration",
            None,
        ),
        (&["iscsi"], "storage", Some("iscsi")),
        (&["smb", "storage", "rdma", "s2d"], "storage", Some("smb")),
        (&["csv"], "csv", None),
        (&["heartbeat", "cluster", "hb"], "cluster", None),
        (&["backup"], "backup", None),
        (&["replica"], "replica", None),
    ];
    for (words, role, proto) in by_name {
        if has(words) {
            return (role, *proto, format!("from the name `{name}`"), true);
        }
    }
    if e.cluster_role == Some(ClusterRole::Cluster) {
        return (
            "cluster",
            None,
            "cluster network role Cluster".into(),
            false,
        );
    }
    (
        "cluster",
        None,
        "not told by the collection: written as cluster, correct it".into(),
        true,
    )
}

fn write_networks(out: &mut String, nets: &BTreeMap<String, Evidence>, notes: &mut Vec<HostNote>) {
    for (name, e) in nets {
        let (role, proto, why, inferred) = role_of(name, e);
        let (file, line) = e.first.clone().unwrap_or_default();
        if inferred {
            notes.push(HostNote {
                file: file.clone(),
                line,
                kind: NoteKind::Inferred,
                text: format!("network {name}: role `{role}` {why}"),
            });
        }
        let _ = writeln!(out, "\n[networks.{}]", key(name));
        // A role no property states says so beside it, not only on
        // standard error.
        let said = if inferred {
            format!("inferred: {why}")
        } else {
            why
        };
        line_kv(out, "role", &string(role), &said);
        if let Some(p) = proto {
            line_kv(out, "protocol", &string(p), "with the role");
        }
        // VLAN: the one most interfaces that state one use; an interface
        // whose VLAN is not collected casts no vote.
        let unknown = match e.unknown_vlans.len() {
            0 => String::new(),
            n => format!(", {n} more not collected"),
        };
        if !e.unknown_vlans.is_empty() {
            let then = if e.vlans.is_empty() {
                "`vlan` is not written (no interface states one)"
            } else {
                "they do not count toward its VLAN"
            };
            notes.push(HostNote {
                file: file.clone(),
                line,
                kind: NoteKind::Unknown,
                text: format!(
                    "network {name}: the VLAN of {} is not collected: {then}",
                    e.unknown_vlans.join(", ")
                ),
            });
        }
        let mut count: BTreeMap<u16, Vec<&str>> = BTreeMap::new();
        for (v, at) in &e.vlans {
            count.entry(*v).or_default().push(at);
        }
        if let Some((vlan, ats)) = count
            .iter()
            .max_by_key(|(v, a)| (a.len(), std::cmp::Reverse(**v)))
        {
            if *vlan > 0 && *vlan <= 4094 {
                line_kv(
                    out,
                    "vlan",
                    &vlan.to_string(),
                    &format!(
                        "{} ({} of {} interfaces{unknown})",
                        ats[0],
                        ats.len(),
                        e.vlans.len()
                    ),
                );
            }
            if count.len() > 1 {
                let others: Vec<String> = count
                    .iter()
                    .filter(|(v, _)| *v != vlan)
                    .map(|(v, a)| format!("VLAN {v} at {}", a.join(", ")))
                    .collect();
                notes.push(HostNote {
                    file: file.clone(),
                    line,
                    kind: NoteKind::Unknown,
                    text: format!("network {name}: hosts put it in different VLANs ({}); a network has one VLAN in the design, {} is written", others.join("; "), vlan),
                });
            }
        }
        if let Some(s) = &e.subnet {
            line_kv(
                out,
                "subnet",
                &string(s),
                "Get-ClusterNetwork Address / AddressMask",
            );
        }
        let mut mtus: BTreeMap<u32, usize> = BTreeMap::new();
        for m in &e.mtus {
            *mtus.entry(*m).or_default() += 1;
        }
        if let Some((m, n)) = mtus.iter().max_by_key(|(m, n)| (**n, **m)) {
            if (576..=9216).contains(m) {
                line_kv(
                    out,
                    "mtu",
                    &m.to_string(),
                    &format!("as built on {n} of {} interfaces", e.mtus.len()),
                );
            }
        }
    }
}

/// The adapter model in an `InterfaceDescription`: Windows names the
/// second and later ports of one driver "Mellanox ConnectX-4 Lx Ethernet
/// Adapter #2", "#3", ... (the instance number of the device's friendly
/// name), which is no part of the model; two ports of one card are one
/// model (`team-member-identity` compares them).
fn adapter_model(description: &str) -> &str {
    match description.rsplit_once(" #") {
        Some((model, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
            model.trim_end()
        }
        _ => description,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_instance_number_windows_adds_is_no_part_of_the_model() {
        let m = "Mellanox ConnectX-4 Lx Ethernet Adapter";
        assert_eq!(adapter_model(m), m);
        assert_eq!(adapter_model(&format!("{m} #2")), m);
        assert_eq!(adapter_model(&format!("{m} #12")), m);
        // Only a trailing number after " #" is one.
        assert_eq!(adapter_model("Port #A adapter"), "Port #A adapter");
        assert_eq!(adapter_model("Adapter #"), "Adapter #");
    }

    #[test]
    fn platforms_as_the_design_writes_them() {
        let os = |caption: &str, build| OsFacts {
            caption: caption.into(),
            build,
        };
        assert_eq!(
            platform(&os("Microsoft Windows Server 2022 Datacenter", Some(20348))),
            Some("windows-server-2022")
        );
        assert_eq!(
            platform(&os("Microsoft Azure Stack HCI", Some(20349))),
            Some("azure-local")
        );
        assert_eq!(
            platform(&os("Microsoft Windows Server 2019 Standard", None)),
            None
        );
        assert_eq!(platform(&os("Windows 11 Pro", Some(22631))), None);
    }

    #[test]
    fn a_role_not_told_by_the_collection_is_said_to_be_inferred() {
        let e = Evidence::default();
        let (role, _, why, inferred) = role_of("Net7", &e);
        assert_eq!(role, "cluster");
        assert!(inferred && why.contains("not told"), "{why}");
        let (role, proto, _, inferred) = role_of("vSMB(storage#pNIC1)", &e);
        assert_eq!((role, proto, inferred), ("storage", Some("smb"), true));
        let lm = Evidence {
            lm: true,
            ..Default::default()
        };
        assert_eq!(role_of("Net7", &lm).0, "live-migration");
        assert!(!role_of("Net7", &lm).3);
    }
}
