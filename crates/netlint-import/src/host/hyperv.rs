//! A [`Collection`] of Hyper-V / Azure Local cmdlet outputs to
//! [`HostFacts`]. Property names and value shapes are Microsoft's
//! documented output (see the fixtures' headers for the pages); enums are
//! read as names or as their documented numbers.

use crate::model::{Lines, Origin, Sourced};
use std::collections::{HashMap, HashSet};

use super::facts::*;
use super::value::{Collection, Node, Value};
use cluster::{cluster, intents, migration};
use switches::{atc_switches, vnics, vswitches};

mod cluster;
mod switches;

/// Every cmdlet the collection script gathers; one absent from a
/// collection leaves its facts unknown.
pub const CMDLETS: &[&str] = &[
    "Get-NetAdapter",
    "Get-NetAdapterAdvancedProperty",
    "Get-NetAdapterHardwareInfo",
    "Get-NetAdapterRdma",
    "Get-VMSwitch",
    "Get-VMSwitchTeam",
    "Get-VMNetworkAdapter",
    "Get-VMNetworkAdapterVlan",
    "Get-VMNetworkAdapterIsolation",
    "Get-VMNetworkAdapterTeamMapping",
    "Get-NetLbfoTeam",
    "Get-NetLbfoTeamMember",
    "Get-NetQosPolicy",
    "Get-NetQosFlowControl",
    "Get-NetQosTrafficClass",
    "Get-NetQosDcbxSetting",
    "Get-SmbBandwidthLimit",
    "Get-VMHost",
    "Get-VMMigrationNetwork",
    "Get-ClusterNetwork",
    "Get-ClusterNetworkInterface",
    "Get-NetIntent",
    "Win32_ComputerSystem",
    "Win32_OperatingSystem",
    "Win32_PowerPlan",
];

/// Cmdlets whose absence is normal and says nothing is configured:
/// Network ATC exists only on Azure Local and Windows Server 2025, LBFO
/// and clustering are optional features.
const OPTIONAL: &[&str] = &["Get-NetIntent", "Get-NetLbfoTeamMember"];

fn at<T>(v: T, n: &Node) -> Sourced<T> {
    Sourced::at(v, n.line)
}

/// An enum written as its name or its number.
fn enum_of<T: Copy>(n: &Node, table: &[(&str, i64, T)]) -> Option<T> {
    if let Some(i) = n.as_i64() {
        if let Some((_, _, t)) = table.iter().find(|(_, v, _)| *v == i) {
            return Some(*t);
        }
    }
    let s = n.as_str()?.trim();
    table
        .iter()
        .find(|(name, _, _)| name.eq_ignore_ascii_case(s))
        .map(|(_, _, t)| *t)
}

const TEAMING_MODE: &[(&str, i64, TeamingMode)] = &[
    ("Static", 0, TeamingMode::Static),
    ("SwitchIndependent", 1, TeamingMode::SwitchIndependent),
    ("Lacp", 2, TeamingMode::Lacp),
];

const LBA: &[(&str, i64, Lba)] = &[
    ("TransportPorts", 0, Lba::TransportPorts),
    ("IPAddresses", 2, Lba::IpAddresses),
    ("MacAddresses", 3, Lba::MacAddresses),
    ("HyperVPort", 4, Lba::HyperVPort),
    ("Dynamic", 5, Lba::Dynamic),
];

const BW_MODE: &[(&str, i64, BandwidthMode)] = &[
    ("Default", 0, BandwidthMode::Default),
    ("Weight", 1, BandwidthMode::Weight),
    ("Absolute", 2, BandwidthMode::Absolute),
    ("None", 3, BandwidthMode::None),
];

const TRANSPORT: &[(&str, i64, Transport)] = &[
    ("TCPIP", 0, Transport::Tcp),
    ("Compression", 1, Transport::Compression),
    ("SMB", 2, Transport::Smb),
];

const CLUSTER_ROLE: &[(&str, i64, ClusterRole)] = &[
    ("None", 0, ClusterRole::None),
    ("Cluster", 1, ClusterRole::Cluster),
    ("Client", 2, ClusterRole::Client),
    ("ClusterAndClient", 3, ClusterRole::ClusterAndClient),
];

/// `VMNetworkAdapterIsolationMode`: None 0, NativeVirtualSubnet 1,
/// ExternalVirtualSubnet 2, Vlan 3 (Microsoft, `NDIS_ISOLATION_MODE` in
/// ntddndis.h, the values `Set-VMNetworkAdapterIsolation -IsolationMode`
/// takes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum IsolationMode {
    None,
    NativeVirtualSubnet,
    ExternalVirtualSubnet,
    Vlan,
}

const ISOLATION_MODE: &[(&str, i64, IsolationMode)] = &[
    ("None", 0, IsolationMode::None),
    ("NativeVirtualSubnet", 1, IsolationMode::NativeVirtualSubnet),
    (
        "ExternalVirtualSubnet",
        2,
        IsolationMode::ExternalVirtualSubnet,
    ),
    ("Vlan", 3, IsolationMode::Vlan),
];

/// Network ATC `IntentType` flags as `Get-NetIntent` prints them: Compute
/// 2, Storage 4, Management 8 (a management + compute intent prints 10,
/// management + compute + storage 14; see
/// `tests/host-fixtures/atc/SOURCES.md`). Other bits are not decoded.
const INTENT_COMPUTE: i64 = 2;
const INTENT_STORAGE: i64 = 4;
const INTENT_MANAGEMENT: i64 = 8;

/// Why a host vNIC's virtual switch is `ConvergedSwitch(<intent>)` when the
/// collection does not name it.
pub const ATC_SWITCH_INFERRED: &str = "Network ATC names an intent's host vNICs vSMB(<intent>#<pNIC>) / vManagement(<intent>) and its virtual switch ConvergedSwitch(<intent>); the collection names no switch for this vNIC";

/// Why a `ConvergedSwitch(<intent>)` no `Get-VMSwitch` lists is written
/// with the intent's adapters as its uplinks.
pub const ATC_UPLINKS_INFERRED: &str = "Network ATC builds the SET switch ConvergedSwitch(<intent>) on the adapters of the intent (Get-NetIntent NetAdapterNamesAsList); Get-VMSwitch does not list it";

const RDMA_TECH: &[(&str, i64, RdmaTech)] = &[
    ("iWARP", 1, RdmaTech::Iwarp),
    ("InfiniBand", 2, RdmaTech::Infiniband),
    ("RoCE", 3, RdmaTech::Roce),
    ("RoCEv2", 4, RdmaTech::RoceV2),
];

/// `"25 Gbps"`, `"10 Gbps"`, `"100 Mbps"`, `"2.5 Gbps"` to bits per second.
pub fn link_speed_text(s: &str) -> Option<u64> {
    let s = s.trim();
    let (num, unit) = s.split_at(s.find(|c: char| c.is_ascii_alphabetic())?);
    let n: f64 = num.trim().parse().ok()?;
    let mult = match unit.trim().to_ascii_lowercase().as_str() {
        "kbps" => 1e3,
        "mbps" => 1e6,
        "gbps" => 1e9,
        "tbps" => 1e12,
        "bps" => 1.0,
        _ => return None,
    };
    let v = n * mult;
    (v.is_finite() && v > 0.0).then_some(v.round() as u64)
}

/// `Name` of an object, or its `InterfaceAlias` / `ifAlias`.
fn name_of(n: &Node) -> Option<String> {
    n.get_any(&["Name", "InterfaceAlias", "ifAlias"])
        .and_then(Node::scalar_text)
}

/// `vEthernet (SMB1)` -> `SMB1`.
pub fn vethernet(alias: &str) -> Option<&str> {
    alias
        .strip_prefix("vEthernet (")
        .and_then(|s| s.strip_suffix(')'))
}

/// What Network ATC made a host vNIC for, by the names it gives them:
/// `vSMB(<intent>#<pNIC>)` for a storage intent's SMB adapters,
/// `vManagement(<intent>)` for a management intent's (Microsoft, "Network
/// ATC overview" and "Manage Network ATC": the adapters ATC creates).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtcVnic {
    Storage,
    Management,
}

/// The Network ATC intent a host vNIC belongs to, and what ATC made it
/// for, by ATC's names: `vSMB(<intent>#<pNIC>)` -> (storage, `<intent>`),
/// `vManagement(<intent>)` -> (management, `<intent>`).
pub fn atc_vnic(vnic: &str) -> Option<(AtcVnic, &str)> {
    let lower = vnic.to_ascii_lowercase();
    let (kind, inner) = if lower.starts_with("vsmb(") {
        (AtcVnic::Storage, &vnic[5..])
    } else if lower.starts_with("vmanagement(") {
        (AtcVnic::Management, &vnic[12..])
    } else {
        return None;
    };
    let inner = inner.strip_suffix(')')?;
    let intent = inner.split('#').next().unwrap_or(inner);
    (!intent.is_empty()).then_some((kind, intent))
}

/// The Network ATC intent a host vNIC belongs to, by ATC's names:
/// `vSMB(<intent>#<pNIC>)` -> `<intent>`, `vManagement(<intent>)` ->
/// `<intent>`.
pub fn atc_intent(vnic: &str) -> Option<&str> {
    atc_vnic(vnic).map(|(_, i)| i)
}

/// The switch Network ATC builds for an intent.
pub fn atc_switch(intent: &str) -> String {
    format!("ConvergedSwitch({intent})")
}

/// The names a host vNIC's adapter may have in `Get-NetAdapter`,
/// `Get-NetAdapterRdma` and `Get-NetAdapterAdvancedProperty`: `vEthernet
/// (<name>)` for a vNIC made by hand, the vNIC's own name for one Network
/// ATC made (`vSMB(storage#pNIC1)`).
pub fn vnic_aliases(vnic: &str) -> [String; 2] {
    [format!("vEthernet ({vnic})"), vnic.to_string()]
}

/// The adapter name in a `ParentAdapter` printed as text:
/// `VMInternalNetworkAdapter, Name = 'vSMB(mc#ethernet)'` ->
/// `vSMB(mc#ethernet)`; other text is the name itself.
pub fn parent_name(text: &str) -> &str {
    match text.find("Name = '") {
        Some(i) => {
            let rest = &text[i + 8..];
            rest.strip_suffix('\'').unwrap_or(rest)
        }
        None => text,
    }
}

/// Maps one collection.
pub fn facts(c: &Collection) -> HostFacts {
    // A cmdlet whose objects ConvertTo-Json cut to text (`-Depth` too
    // small) gives no facts: it is taken out and named as missing.
    let cut: Vec<(String, u32)> = c
        .cmdlets
        .iter()
        .filter_map(|(k, v)| {
            v.items()
                .iter()
                .find(|n| is_truncated(n))
                .map(|n| (k.clone(), n.line))
        })
        .collect();
    if !cut.is_empty() {
        let mut clean = c.clone();
        for (k, _) in &cut {
            clean.cmdlets.remove(k);
        }
        let mut h = facts(&clean);
        for (k, line) in cut {
            h.missing.retain(|(m, _)| *m != k);
            h.missing.push((
                k.clone(),
                Some(format!(
                    "its objects were written as text at line {line}: ConvertTo-Json -Depth was too small; collect again with the netlint script"
                )),
            ));
        }
        return h;
    }
    let mut h = HostFacts {
        file: c.file.clone(),
        name: c
            .host
            .clone()
            .unwrap_or_else(|| crate::design::file_stem(&c.file)),
        ..Default::default()
    };
    for cmd in CMDLETS {
        if c.cmdlet(cmd).is_none() && !OPTIONAL.contains(cmd) {
            h.missing.push((cmd.to_string(), None));
        }
    }
    for (k, v) in &c.cmdlets {
        if !CMDLETS.iter().any(|n| n.eq_ignore_ascii_case(k)) {
            h.not_understood.push((k.clone(), v.line));
        }
    }
    system(c, &mut h);
    let by_name = ByName::new(c);
    nics(c, &by_name, &mut h);
    lbfo(c, &mut h);
    vswitches(c, &mut h);
    vnics(c, &by_name, &mut h);
    qos(c, &mut h);
    migration(c, &mut h);
    cluster(c, &mut h);
    intents(c, &mut h);
    atc_switches(&mut h);
    h
}

fn remark(h: &mut HostFacts, line: u32, text: String) {
    h.remarks.push(Remark { line, text });
}

fn system(c: &Collection, h: &mut HostFacts) {
    if let Some(os) = c.objects("Win32_OperatingSystem").first() {
        if let Some(cap) = os.get("Caption").and_then(Node::as_str) {
            let build = os
                .get("BuildNumber")
                .and_then(Node::as_i64)
                .and_then(|b| u32::try_from(b).ok());
            h.os = Some(Sourced::at(
                OsFacts {
                    caption: cap.trim().to_string(),
                    build,
                },
                os.get("Caption").map_or(os.line, |n| n.line),
            ));
        }
    }
    if let Some(cs) = c.objects("Win32_ComputerSystem").first() {
        if let Some(m) = cs.get("TotalPhysicalMemory") {
            if let Some(b) = m.as_u64() {
                h.memory_bytes = Some(at(b, m));
            }
        }
    }
    let plans = c.objects("Win32_PowerPlan");
    let active = plans
        .iter()
        .find(|p| p.get("IsActive").and_then(Node::as_bool) == Some(true))
        .or(if plans.len() == 1 {
            plans.first()
        } else {
            None
        });
    if let Some(p) = active {
        // The built-in plans' GUIDs (powercfg /list) are language-neutral;
        // the ElementName is localised.
        let id = p
            .get("InstanceID")
            .and_then(Node::as_str)
            .unwrap_or("")
            .to_ascii_lowercase();
        let name = p.get("ElementName").and_then(Node::as_str).unwrap_or("");
        let plan = if id.contains("8c5e7fda-e8bf-4a96-9a85-a6e23a8c635c") {
            PowerPlan::HighPerformance
        } else if id.contains("381b4222-f694-41f0-9685-ff5bb260df2e") {
            PowerPlan::Balanced
        } else if id.contains("a1841308-3541-4fab-bc81-f71556f20b4a") {
            PowerPlan::PowerSaver
        } else {
            remark(
                h,
                p.line,
                format!("power plan `{name}` is not a built-in plan: written as unknown"),
            );
            PowerPlan::Other
        };
        h.power = Some(at(plan, p));
    }
}

/// The objects the adapters are looked up in, indexed by adapter name
/// once: a search of every object for each adapter was quadratic in the
/// adapters (20,000 NICs took 10.5 s).
struct ByName<'a> {
    /// `Get-NetAdapterHardwareInfo`, the first object of each name.
    hardware: HashMap<String, &'a Node>,
    /// `Get-NetAdapterRdma`, the first object of each name.
    rdma: HashMap<String, &'a Node>,
    /// `Get-NetAdapterAdvancedProperty` by (adapter, `RegistryKeyword` in
    /// ASCII lower case, as keywords are compared): the first of each.
    advanced: HashMap<(String, String), &'a Node>,
    /// Every adapter name `Get-NetAdapter`, `Get-NetAdapterRdma` and
    /// `Get-NetAdapterAdvancedProperty` give.
    names: HashSet<String>,
}

impl<'a> ByName<'a> {
    fn new(c: &'a Collection) -> ByName<'a> {
        let first = |cmdlet: &str| {
            let mut m: HashMap<String, &'a Node> = HashMap::new();
            for o in c.objects(cmdlet) {
                if let Some(n) = name_of(o) {
                    m.entry(n).or_insert(o);
                }
            }
            m
        };
        let mut advanced = HashMap::new();
        for p in c.objects("Get-NetAdapterAdvancedProperty") {
            let (Some(n), Some(k)) = (name_of(p), p.get("RegistryKeyword").and_then(Node::as_str))
            else {
                continue;
            };
            advanced.entry((n, k.to_ascii_lowercase())).or_insert(p);
        }
        let rdma = first("Get-NetAdapterRdma");
        let mut names: HashSet<String> = c
            .objects("Get-NetAdapter")
            .iter()
            .filter_map(name_of)
            .collect();
        names.extend(rdma.keys().cloned());
        names.extend(advanced.keys().map(|(n, _)| n.clone()));
        ByName {
            hardware: first("Get-NetAdapterHardwareInfo"),
            rdma,
            advanced,
            names,
        }
    }

    /// The adapter of host vNIC `vnic`: the first of [`vnic_aliases`] the
    /// collection names (`vEthernet (SMB1)`, or ATC's `vSMB(s#pNIC1)` as
    /// it is); `None` when it names neither.
    fn vnic_adapter(&self, vnic: &str) -> Option<String> {
        vnic_aliases(vnic)
            .into_iter()
            .find(|a| self.names.contains(a))
    }

    /// The advanced property `keyword` of `adapter`.
    fn advanced(&self, adapter: &str, keyword: &str) -> Option<&'a Node> {
        self.advanced
            .get(&(adapter.to_string(), keyword.to_ascii_lowercase()))
            .copied()
    }
}

/// The `RegistryValue` (a one-item array of text) of an advanced
/// property, as a number.
fn adv_number(p: &Node) -> Option<Sourced<i64>> {
    let v = p.get("RegistryValue")?;
    let first = v.items().first()?;
    let n = first
        .as_i64()
        .or_else(|| p.get("DisplayValue").and_then(Node::as_i64))?;
    Some(Sourced::at(n, first.line.max(v.line)))
}

fn nics(c: &Collection, by_name: &ByName, h: &mut HostFacts) {
    for a in c.objects("Get-NetAdapter") {
        let Some(name) = name_of(a) else {
            remark(h, a.line, "an adapter without a Name is left out".into());
            continue;
        };
        let virt = a.get("Virtual").and_then(Node::as_bool);
        let desc = a.get("InterfaceDescription").and_then(Node::as_str);
        // Host vNICs, LBFO team interfaces and the like are virtual.
        if virt == Some(true)
            || vethernet(&name).is_some()
            || atc_intent(&name).is_some()
            || desc.is_some_and(|d| {
                d.contains("Multiplexor Driver") || d.contains("Hyper-V Virtual Ethernet Adapter")
            })
        {
            continue;
        }
        let mut n = NicFacts {
            line: a.line,
            name: name.clone(),
            ..Default::default()
        };
        if let Some(d) = a.get("InterfaceDescription") {
            if let Some(s) = d.as_str() {
                n.description = Some(at(s.to_string(), d));
            }
        }
        if let Some(m) = a.get("MacAddress") {
            if let Some(s) = m.as_str() {
                n.mac = Some(at(s.to_string(), m));
            }
        }
        if let Some(s) = a.get("Speed").filter(|s| !s.is_null()) {
            if let Some(b) = s.as_u64().filter(|b| *b > 0) {
                n.speed = Some(at(b, s));
            }
        }
        if n.speed.is_none() {
            if let Some(ls) = a.get("LinkSpeed") {
                if let Some(b) = ls.as_str().and_then(link_speed_text) {
                    n.speed = Some(at(b, ls));
                }
            }
        }
        if let Some(s) = a.get("Status") {
            if let Some(t) = s.scalar_text() {
                n.status = Some(at(t, s));
            }
        }
        if let Some(hw) = by_name.hardware.get(&name) {
            if let Some(s) = hw.get_any(&["SlotNumber", "Slot"]) {
                if let Some(v) = s.as_i64().and_then(|v| u32::try_from(v).ok()) {
                    n.slot = Some(at(v, s));
                }
            }
            if let Some(s) = hw.get_any(&["BusNumber", "Bus"]) {
                if let Some(v) = s.as_i64().and_then(|v| u32::try_from(v).ok()) {
                    n.bus = Some(at(v, s));
                }
            }
        }
        if let Some(p) = by_name.advanced(&name, "*JumboPacket") {
            match adv_number(p) {
                Some(v) => {
                    n.jumbo_packet = u32::try_from(v.value).ok().map(|j| Sourced {
                        value: j,
                        origin: v.origin,
                    })
                }
                None => remark(h, p.line, format!("{name}: *JumboPacket has no number")),
            }
        }
        if let Some(p) = by_name.advanced(&name, "*NetworkDirect") {
            if let Some(v) = adv_number(p) {
                n.network_direct = Some(Sourced {
                    value: v.value != 0,
                    origin: v.origin,
                });
            }
        }
        if let Some(p) = by_name.advanced(&name, "*NetworkDirectTechnology") {
            let v = p.get("RegistryValue").and_then(|v| v.items().first());
            match v.and_then(|v| enum_of(v, RDMA_TECH).map(|t| at(t, v))) {
                Some(t) => n.rdma_tech = Some(t),
                None => remark(
                    h,
                    p.line,
                    format!("{name}: *NetworkDirectTechnology is not 1-4 (iWARP, InfiniBand, RoCE, RoCEv2)"),
                ),
            }
        }
        if let Some(p) = by_name.advanced(&name, "VlanID") {
            if let Some(v) = adv_number(p) {
                n.vlan = u16::try_from(v.value).ok().map(|j| Sourced {
                    value: j,
                    origin: v.origin,
                });
            }
        }
        if let Some(r) = by_name.rdma.get(&name) {
            if let Some(e) = r.get("Enabled") {
                n.rdma_enabled = e.as_bool().map(|b| at(b, e));
            }
        }
        h.nics.push(n);
    }
    h.nics.sort_by(|a, b| a.name.cmp(&b.name));
}

fn lbfo(c: &Collection, h: &mut HostFacts) {
    if c.cmdlet("Get-NetLbfoTeam").is_none() {
        return;
    }
    let mut teams = Vec::new();
    for t in c.objects("Get-NetLbfoTeam") {
        let Some(name) = name_of(t) else { continue };
        let members = t
            .get("Members")
            .map(|m| at(m.strings(), m))
            .unwrap_or_else(|| Sourced::at(Vec::new(), t.line));
        let standby = c
            .objects("Get-NetLbfoTeamMember")
            .iter()
            .filter(|m| m.get("Team").and_then(Node::scalar_text).as_deref() == Some(&name))
            .find(|m| {
                m.get("AdministrativeMode").is_some_and(|a| {
                    a.as_i64() == Some(1)
                        || a.as_str()
                            .is_some_and(|s| s.eq_ignore_ascii_case("Standby"))
                })
            })
            .and_then(|m| name_of(m).map(|n| at(n, m)));
        teams.push(LbfoTeam {
            line: t.line,
            name,
            members,
            mode: t
                .get("TeamingMode")
                .and_then(|m| enum_of(m, TEAMING_MODE).map(|v| at(v, m))),
            lba: t
                .get("LoadBalancingAlgorithm")
                .and_then(|m| enum_of(m, LBA).map(|v| at(v, m))),
            standby,
        });
    }
    h.lbfo_teams = Some(teams);
}

fn policy_match(p: &Node) -> Option<PolicyMatch> {
    let num = |k: &str| p.get(k).and_then(Node::as_i64).filter(|v| *v != 0);
    if num("NetDirectPortMatchCondition") == Some(445) || num("NetDirectPort") == Some(445) {
        return Some(PolicyMatch::SmbDirect);
    }
    // Template is read by name only: the collection script writes enums
    // as names, and no Microsoft page found gives its numbers.
    if let Some(t) = p.get("Template").and_then(Node::as_str) {
        match t.to_ascii_lowercase().as_str() {
            "smb" => return Some(PolicyMatch::Smb),
            "iscsi" => return Some(PolicyMatch::Iscsi),
            "default" => return Some(PolicyMatch::Default),
            "livemigration" => return Some(PolicyMatch::LiveMigration),
            "cluster" => return Some(PolicyMatch::Cluster),
            _ => {}
        }
    }
    if num("IPDstPortMatchCondition") == Some(3343) || num("IPDstPort") == Some(3343) {
        return Some(PolicyMatch::Cluster);
    }
    if num("IPDstPortMatchCondition") == Some(445) {
        return Some(PolicyMatch::Smb);
    }
    None
}

fn qos(c: &Collection, h: &mut HostFacts) {
    if c.cmdlet("Get-NetQosPolicy").is_some() {
        let mut pols = Vec::new();
        for p in c.objects("Get-NetQosPolicy") {
            let Some(name) = name_of(p) else { continue };
            let m = policy_match(p);
            if m.is_none() {
                remark(
                    h,
                    p.line,
                    format!("QoS policy {name}: its match condition is none the design names (smb-direct, smb, cluster, live-migration, iscsi, default); left out"),
                );
            }
            let pr = p
                .get_any(&["PriorityValue8021Action", "PriorityValue"])
                .and_then(|v| {
                    v.as_i64()
                        .and_then(|x| u8::try_from(x).ok())
                        .filter(|x| *x <= 7)
                        .map(|x| at(x, v))
                });
            pols.push(QosPolicy {
                line: p.line,
                name,
                matches: m,
                priority: pr,
            });
        }
        h.qos.policies = Some(pols);
    }
    if let Some(fc) = c.cmdlet("Get-NetQosFlowControl") {
        let mut on = Vec::new();
        for p in fc.items() {
            let pri = p.get("Priority").and_then(Node::as_i64);
            let en = p.get("Enabled").and_then(Node::as_bool);
            if let (Some(pri), Some(true)) = (pri, en) {
                if let Ok(x) = u8::try_from(pri) {
                    on.push(x);
                }
            }
        }
        on.sort_unstable();
        h.qos.pfc = Some(Sourced::at(on, fc.line));
    }
    if c.cmdlet("Get-NetQosTrafficClass").is_some() {
        let mut ets = Vec::new();
        for t in c.objects("Get-NetQosTrafficClass") {
            // The [Default] class shares what is left among the priorities
            // no class names: no ETS reservation of its own.
            if name_of(t).as_deref() == Some("[Default]") {
                continue;
            }
            let bw = t
                .get("BandwidthPercentage")
                .and_then(Node::as_i64)
                .and_then(|b| u32::try_from(b).ok());
            let Some(bw) = bw else { continue };
            let prios = t.get("Priority").map(Node::items).unwrap_or(&[]);
            for p in prios {
                // A string "3 5" when several priorities were flattened.
                let list: Vec<i64> = match p.as_str() {
                    Some(s) => s.split([' ', ',']).filter_map(|x| x.parse().ok()).collect(),
                    None => p.as_i64().into_iter().collect(),
                };
                for x in list {
                    if let Ok(x) = u8::try_from(x) {
                        ets.push(Sourced::at((x, bw), p.line));
                    }
                }
            }
        }
        h.qos.ets = Some(ets);
    }
    if let Some(d) = c.objects("Get-NetQosDcbxSetting").first() {
        if let Some(w) = d.get("Willing") {
            h.qos.willing = w.as_bool().map(|b| at(b, w));
        }
    }
    if c.cmdlet("Get-SmbBandwidthLimit").is_some() {
        let mut limits = Vec::new();
        for l in c.objects("Get-SmbBandwidthLimit") {
            let cat = l.get("Category");
            let lm = cat.is_some_and(|c| {
                c.as_i64() == Some(2)
                    || c.as_str()
                        .is_some_and(|s| s.eq_ignore_ascii_case("LiveMigration"))
            });
            if let Some(b) = l.get("BytesPerSecond") {
                if let Some(v) = b.as_u64() {
                    limits.push(SmbLimit {
                        line: l.line,
                        live_migration: lm,
                        bytes_per_second: at(v, b),
                    });
                }
            }
        }
        h.smb_limits = Some(limits);
    }
}

/// A node that is a `Value::Str` holding a depth-truncated object (`"@{...}"`,
/// or a .NET type name such as `Microsoft.Management.Infrastructure.CimInstance`
/// or `MSFT_NetAdapter`): such an object's facts are unknown.
pub fn is_truncated(n: &Node) -> bool {
    matches!(&n.value, Value::Str(s) if s.starts_with("@{")
        || s.starts_with("Microsoft.")
        || s.starts_with("System.")
        || s.starts_with("MSFT_"))
}
