//! `netlint collect vsphere` collections (one JSON file per cluster, written
//! by scripts/collect-vsphere.ps1) read into typed ESXi host facts, each
//! value with its line in the file.
//!
//! Property names are PowerCLI's (VMware PowerCLI reference, structures
//! `PhysicalNic`, `HostVirtualNic`, `VirtualSwitch`, `VDSwitch`,
//! `VirtualPortGroup`, `VDPortgroup`, `NicTeamingPolicy` /
//! `NicTeamingVirtualPortGroupPolicy`, `UplinkTeamingPolicy`), and the
//! vSphere API's for what PowerCLI only reaches through `ExtensionData`
//! (`PhysicalNicHintInfo` of `HostNetworkSystem.QueryNetworkHint`:
//! `PhysicalNicCdpInfo.DevId` / `PortId`, `LinkLayerDiscoveryProtocolInfo`
//! with its `System Name` parameter; `HostProxySwitch` uplink ports). Units
//! as PowerCLI gives them: `BitRatePerSec` is in Mb/s (it is
//! `PhysicalNicLinkInfo.speedMb`; `Set-VMHostNetworkAdapter` sets it as
//! `-BitRatePerSecMb`), `MemoryTotalGB` in GiB, `Mtu` in bytes of IP
//! packet.
//!
//! A value the file does not give is `None` (unknown); one it gives in a
//! shape not read is a [`Remark`] at its line, never a guess.

use crate::model::Sourced;

use super::facts::Remark;
use super::json;
use super::value::Node;
use crate::error::{ErrorKind, InputError};

/// One cluster's collection.
#[derive(Clone, Debug, Default)]
pub struct VsphereCollection {
    pub file: String,
    pub cluster: Option<Sourced<String>>,
    pub hosts: Vec<EsxHost>,
    pub remarks: Vec<Remark>,
}

#[derive(Clone, Debug, Default)]
pub struct EsxHost {
    pub line: u32,
    /// `Name` as vCenter knows the host (often its FQDN).
    pub name: String,
    /// ESXi `Version` (`"8.0.2"`).
    pub version: Option<Sourced<String>>,
    pub memory_gib: Option<Sourced<f64>>,
    pub vmnics: Vec<Vmnic>,
    pub switches: Vec<VSwitch>,
    pub portgroups: Vec<PortGroup>,
    pub vmks: Vec<Vmk>,
    /// vmkernel ports bound to the software iSCSI adapter
    /// (`esxcli iscsi networkportal list`); `None`: not collected.
    pub iscsi_bound: Option<Vec<Sourced<String>>>,
}

#[derive(Clone, Debug, Default)]
pub struct Vmnic {
    pub line: u32,
    pub name: String,
    /// Link speed in Mb/s; `None` when the link is down (0) or not given.
    pub speed_mbps: Option<Sourced<u64>>,
    /// PCI address `0000:3b:00.0`.
    pub pci: Option<Sourced<String>>,
    /// `esxcli network nic list` Description (the adapter model).
    pub description: Option<Sourced<String>>,
    pub driver: Option<Sourced<String>>,
    pub neighbor: Option<Neighbor>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Cdp,
    Lldp,
}

/// The switch a vmnic sees, from its CDP or LLDP hint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Neighbor {
    pub line: u32,
    pub protocol: Protocol,
    /// CDP `DevId` / LLDP `System Name` as sent.
    pub device: String,
    /// CDP `PortId` / LLDP `PortId` (or its port description when the
    /// Port ID is no interface name).
    pub port: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwitchKind {
    Vss,
    Vds,
}

/// ESXi load-balancing policies (PowerCLI `LoadBalancingPolicy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lb {
    OriginatingPort,
    SourceMac,
    IpHash,
    PhysicalNicLoad,
    ExplicitFailover,
    Lacp,
}

impl Lb {
    /// The design's `load_balancing` word.
    pub fn key(self) -> &'static str {
        match self {
            Lb::OriginatingPort => "originating-port",
            Lb::SourceMac => "source-mac",
            Lb::IpHash => "ip-hash",
            Lb::PhysicalNicLoad => "physical-nic-load",
            Lb::ExplicitFailover => "explicit-failover",
            Lb::Lacp => "lacp",
        }
    }
}

const LB: &[(&str, Lb)] = &[
    ("LoadBalanceSrcId", Lb::OriginatingPort),
    ("LoadBalanceSrcMac", Lb::SourceMac),
    ("LoadBalanceIP", Lb::IpHash),
    ("LoadBalanceLoadBased", Lb::PhysicalNicLoad),
    ("ExplicitFailover", Lb::ExplicitFailover),
];

/// Effective teaming of a switch or port group, uplinks as vmnics.
#[derive(Clone, Debug, Default)]
pub struct Teaming {
    pub line: u32,
    pub lb: Option<Sourced<Lb>>,
    pub active: Vec<String>,
    pub standby: Vec<String>,
    pub unused: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct VSwitch {
    pub line: u32,
    pub name: String,
    pub kind: SwitchKind,
    pub mtu: Option<Sourced<u32>>,
    /// vmnics.
    pub uplinks: Sourced<Vec<String>>,
    pub teaming: Option<Teaming>,
}

/// A port group's VLAN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Vlan {
    Untagged,
    Tag(u16),
    /// A trunk (`VLanId` 4095, `VLAN Trunk [...]`) or private VLAN: not
    /// one network's VLAN.
    Other(String),
}

#[derive(Clone, Debug)]
pub struct PortGroup {
    pub line: u32,
    pub name: String,
    pub switch: String,
    pub vlan: Option<Sourced<Vlan>>,
    pub teaming: Option<Teaming>,
}

#[derive(Clone, Debug, Default)]
pub struct Vmk {
    pub line: u32,
    pub name: String,
    pub portgroup: Option<Sourced<String>>,
    pub mtu: Option<Sourced<u32>>,
    pub management: bool,
    pub vmotion: bool,
    pub vsan: bool,
    pub ft: bool,
    /// The line of the first service flag that is on.
    pub services_line: u32,
}

/// Whether decoded text is a `netlint collect vsphere` collection.
pub fn looks_like(text: &str) -> bool {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    t.starts_with('{') && {
        let head: String = t.chars().take(4096).collect();
        head.contains("netlint collect vsphere")
            || (head.contains("\"Hosts\"") && head.contains("\"PhysicalNics\""))
    }
}

/// Reads one collection file.
pub fn read(file: &str, bytes: &[u8]) -> Result<VsphereCollection, InputError> {
    let text = json::decode(bytes);
    let root = json::parse(file, &text)?;
    let Some(hosts) = root.get("Hosts") else {
        return Err(InputError {
            file: file.to_string(),
            line: root.line,
            column: 0,
            kind: ErrorKind::Json(
                "not a vSphere collection: no `Hosts` member (write it with `netlint collect vsphere`)"
                    .into(),
            ),
        });
    };
    let mut c = VsphereCollection {
        file: file.to_string(),
        cluster: root.get("Cluster").and_then(text_at),
        ..Default::default()
    };
    for h in hosts.items() {
        match host(h, &mut c.remarks) {
            Some(e) => c.hosts.push(e),
            None => c.remarks.push(Remark {
                line: h.line,
                text: "a host without a Name is left out".into(),
            }),
        }
    }
    Ok(c)
}

fn text_at(n: &Node) -> Option<Sourced<String>> {
    n.scalar_text()
        .filter(|s| !s.trim().is_empty())
        .map(|s| Sourced::at(s, n.line))
}

fn str_of(n: &Node, key: &str) -> Option<Sourced<String>> {
    n.get(key).and_then(text_at)
}

fn u32_of(n: &Node, key: &str) -> Option<Sourced<u32>> {
    let v = n.get(key)?;
    let x = v.as_i64().and_then(|x| u32::try_from(x).ok())?;
    Some(Sourced::at(x, v.line))
}

fn bool_of(n: &Node, key: &str) -> Option<(bool, u32)> {
    let v = n.get(key)?;
    v.as_bool().map(|b| (b, v.line))
}

fn host(h: &Node, remarks: &mut Vec<Remark>) -> Option<EsxHost> {
    let name = str_of(h, "Name")?.value;
    let mut e = EsxHost {
        line: h.line,
        name,
        version: str_of(h, "Version"),
        memory_gib: h
            .get("MemoryTotalGB")
            .and_then(|m| m.as_f64().map(|f| Sourced::at(f, m.line)))
            .filter(|m| m.value > 0.0),
        ..Default::default()
    };
    for p in h.get("PhysicalNics").map(Node::items).unwrap_or(&[]) {
        let Some(name) = str_of(p, "Name") else {
            remarks.push(Remark {
                line: p.line,
                text: format!("{}: a physical NIC without a Name is left out", e.name),
            });
            continue;
        };
        let speed = p.get("BitRatePerSec").and_then(|s| {
            s.as_u64()
                .filter(|v| *v > 0)
                .map(|v| Sourced::at(v, s.line))
        });
        if speed.is_none() {
            remarks.push(Remark {
                line: p.line,
                text: format!(
                    "{} {}: BitRatePerSec is 0 or absent (link down): speed unknown",
                    e.name, name.value
                ),
            });
        }
        e.vmnics.push(Vmnic {
            line: p.line,
            name: name.value,
            speed_mbps: speed,
            pci: str_of(p, "PciId"),
            description: str_of(p, "Description"),
            driver: str_of(p, "Driver"),
            neighbor: neighbor(p),
        });
    }
    // vDS uplink names -> vmnics, per switch.
    let mut uplink_map: Vec<(String, String, String)> = Vec::new();
    for s in h.get("StandardSwitches").map(Node::items).unwrap_or(&[]) {
        let Some(name) = str_of(s, "Name") else {
            continue;
        };
        let nics = s.get("Nic");
        let teaming = s.get("Teaming").map(|t| teaming(t, &[], remarks, &e.name));
        e.switches.push(VSwitch {
            line: s.line,
            name: name.value,
            kind: SwitchKind::Vss,
            mtu: u32_of(s, "Mtu"),
            uplinks: Sourced::at(
                nics.map(Node::strings).unwrap_or_default(),
                nics.map_or(s.line, |n| n.line),
            ),
            teaming,
        });
    }
    let mut lags: Vec<(String, Vec<String>)> = Vec::new();
    for s in h.get("DistributedSwitches").map(Node::items).unwrap_or(&[]) {
        let Some(name) = str_of(s, "Name") else {
            continue;
        };
        let up = s.get("Uplinks");
        let mut vmnics = Vec::new();
        for u in up.map(Node::items).unwrap_or(&[]) {
            if let (Some(a), Some(n)) = (str_of(u, "Uplink"), str_of(u, "Nic")) {
                uplink_map.push((name.value.clone(), a.value, n.value.clone()));
                vmnics.push(n.value);
            }
        }
        lags.push((
            name.value.clone(),
            s.get("LacpGroups").map(Node::strings).unwrap_or_default(),
        ));
        e.switches.push(VSwitch {
            line: s.line,
            name: name.value,
            kind: SwitchKind::Vds,
            mtu: u32_of(s, "Mtu"),
            uplinks: Sourced::at(vmnics, up.map_or(s.line, |n| n.line)),
            teaming: None,
        });
    }
    for g in h.get("StandardPortGroups").map(Node::items).unwrap_or(&[]) {
        let Some(name) = str_of(g, "Name") else {
            continue;
        };
        let vlan = g.get("VLanId").and_then(|v| {
            let id = v.as_i64()?;
            let vl = match id {
                0 => Vlan::Untagged,
                1..=4094 => Vlan::Tag(id as u16),
                _ => Vlan::Other(format!("VLanId {id}")),
            };
            Some(Sourced::at(vl, v.line))
        });
        e.portgroups.push(PortGroup {
            line: g.line,
            name: name.value,
            switch: str_of(g, "VirtualSwitchName")
                .map(|s| s.value)
                .unwrap_or_default(),
            vlan,
            teaming: g.get("Teaming").map(|t| teaming(t, &[], remarks, &e.name)),
        });
    }
    for g in h
        .get("DistributedPortGroups")
        .map(Node::items)
        .unwrap_or(&[])
    {
        let Some(name) = str_of(g, "Name") else {
            continue;
        };
        let sw = str_of(g, "VDSwitch").map(|s| s.value).unwrap_or_default();
        let vlan = g.get("VlanConfiguration").map(|v| {
            let vl = match v.as_str().map(str::trim) {
                None | Some("") => Vlan::Untagged,
                Some(t) => match t
                    .strip_prefix("VLAN ")
                    .and_then(|x| x.trim().parse::<u16>().ok())
                {
                    Some(id) if (1..=4094).contains(&id) => Vlan::Tag(id),
                    _ => Vlan::Other(t.to_string()),
                },
            };
            Sourced::at(vl, v.line)
        });
        let names: Vec<(String, String)> = uplink_map
            .iter()
            .filter(|(s, _, _)| *s == sw)
            .map(|(_, u, n)| (u.clone(), n.clone()))
            .collect();
        let mut t = g
            .get("Teaming")
            .map(|t| teaming(t, &names, remarks, &e.name));
        if let Some(t) = &mut t {
            // An active LAG: the vDS teams by LACP.
            let sw_lags = lags.iter().find(|(s, _)| *s == sw).map(|(_, l)| l.clone());
            if let Some(l) = sw_lags {
                if t.active.iter().any(|a| l.contains(a)) {
                    t.lb = Some(Sourced::at(Lb::Lacp, t.line));
                    t.active.clear();
                    t.standby.clear();
                }
            }
        }
        e.portgroups.push(PortGroup {
            line: g.line,
            name: name.value,
            switch: sw,
            vlan,
            teaming: t,
        });
    }
    for v in h.get("VMKernelAdapters").map(Node::items).unwrap_or(&[]) {
        let Some(name) = str_of(v, "Name") else {
            continue;
        };
        let mut k = Vmk {
            line: v.line,
            name: name.value,
            portgroup: str_of(v, "PortGroupName"),
            mtu: u32_of(v, "Mtu"),
            ..Default::default()
        };
        for (key, slot) in [
            ("ManagementTrafficEnabled", &mut k.management),
            ("VMotionEnabled", &mut k.vmotion),
            ("VsanTrafficEnabled", &mut k.vsan),
            ("FaultToleranceLoggingEnabled", &mut k.ft),
        ] {
            if let Some((true, line)) = bool_of(v, key) {
                *slot = true;
                if k.services_line == 0 {
                    k.services_line = line;
                }
            }
        }
        if k.services_line == 0 {
            k.services_line = v.line;
        }
        e.vmks.push(k);
    }
    e.iscsi_bound = h.get("IscsiPortBindings").map(|b| {
        b.items()
            .iter()
            .filter_map(|x| str_of(x, "Vmknic"))
            .collect()
    });
    Some(e)
}

/// A vmnic's CDP hint, else its LLDP hint.
fn neighbor(p: &Node) -> Option<Neighbor> {
    if let Some(c) = p.get("Cdp").filter(|c| c.as_map().is_some()) {
        if let Some(dev) = str_of(c, "DevId") {
            return Some(Neighbor {
                line: dev.line().unwrap_or(0),
                protocol: Protocol::Cdp,
                device: dev.value,
                port: str_of(c, "PortId").map(|s| s.value),
            });
        }
    }
    let l = p.get("Lldp").filter(|l| l.as_map().is_some())?;
    let dev = str_of(l, "SystemName")?;
    let port_id = str_of(l, "PortId").map(|s| s.value);
    let port = match port_id {
        Some(p) if crate::names::IfName::parse_switch_port(&p).is_some() => Some(p),
        other => str_of(l, "PortDescription")
            .map(|s| s.value)
            .filter(|d| crate::names::IfName::parse_switch_port(d).is_some())
            .or(other),
    };
    Some(Neighbor {
        line: dev.line().unwrap_or(0),
        protocol: Protocol::Lldp,
        device: dev.value,
        port,
    })
}

/// A teaming policy; `uplinks` maps vDS uplink names to vmnics (empty for
/// a standard switch, whose lists name vmnics).
fn teaming(
    t: &Node,
    uplinks: &[(String, String)],
    remarks: &mut Vec<Remark>,
    host: &str,
) -> Teaming {
    let map = |key: &str| -> Vec<String> {
        t.get(key)
            .map(Node::strings)
            .unwrap_or_default()
            .into_iter()
            .map(|u| {
                uplinks
                    .iter()
                    .find(|(name, _)| *name == u)
                    .map_or(u, |(_, nic)| nic.clone())
            })
            .collect()
    };
    let (active, standby, unused) = if uplinks.is_empty() {
        (map("ActiveNic"), map("StandbyNic"), map("UnusedNic"))
    } else {
        (
            map("ActiveUplinkPort"),
            map("StandbyUplinkPort"),
            map("UnusedUplinkPort"),
        )
    };
    let lb = t.get("LoadBalancingPolicy").and_then(|n| {
        let s = n.as_str()?;
        match LB.iter().find(|(k, _)| k.eq_ignore_ascii_case(s.trim())) {
            Some((_, lb)) => Some(Sourced::at(*lb, n.line)),
            None => {
                remarks.push(Remark {
                    line: n.line,
                    text: format!("{host}: load-balancing policy {s:?} is not one netlint knows"),
                });
                None
            }
        }
    });
    Teaming {
        line: t.line,
        lb,
        active,
        standby,
        unused,
    }
}
