//! vSphere collections to the hosts of a design (`docs/format.md`, hosts
//! on vSphere platforms): networks from the port groups the vmkernel
//! ports and VMs use, one profile per cluster holding what its hosts share
//! (the value most hosts have), and per host only what differs
//! ([`emit::per_cluster`], which also writes them). Each value carries a
//! comment naming the collection line it came from, and the same line in
//! the source map ([`Written::map`]), so that `netlint check` on the
//! collection reports a finding on the value at that line.
//!
//! Mapping:
//!
//! - a vmnic is a NIC: `card` from its PCI address (ports of one adapter
//!   share domain, bus and device: `0000:3b:00.0` and `0000:3b:00.1` are
//!   card `pci-0000:3b:00`), `model` from `esxcli network nic list`,
//!   `speed` from `BitRatePerSec` (Mb/s), `switch` / `port` from its CDP or
//!   LLDP hint (or a cabling CSV row) when that names an imported switch;
//!   no `mtu` (a vmnic runs its virtual switch's);
//! - a standard switch is `kind = "vss"`, a distributed one `"vds"`, with
//!   its vmnic `uplinks`, `mtu` and `load_balancing` (ESXi's policy names
//!   mapped to the format's words; a vDS's from its port groups, the one
//!   most use; an active LAG is `lacp`); port groups no vmkernel port uses
//!   are VM networks in the switch's `networks`;
//! - a vmkernel port is a `vnic` of its switch: its port group's network,
//!   `mtu`, the port group's `active_uplinks` / `standby_uplinks` when they
//!   are not every uplink active, `iscsi_port_binding`;
//! - a port group's network: `role` from the evidence of the vmkernel
//!   ports on it, never from a name (Management: `management`; vMotion:
//!   `live-migration`; vSAN: `storage` / `vsan`; bound to software iSCSI:
//!   `storage` / `iscsi`; only Fault Tolerance logging: `replica`,
//!   inferred; no service enabled: `unknown`, evidence from another port
//!   winning, see `rank`; no vmkernel port: `vm`, inferred), its VLAN, and
//!   the MTU most of its vmkernel ports run; the vMotion networks are the
//!   host's `live_migration.networks`.
//!
//! What the format cannot say, or what is assumed, is a note.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use crate::design::toml::{key, string, Prov};
use crate::design::{At, Mapped, SourceMap, Tables};
use crate::model::Sourced;
use crate::names::{mbps, speed_text};

use super::emit::{self, line_mapped, Blank, Entry, HostEntries};
use super::vsphere::{EsxHost, Lb, PortGroup, SwitchKind, Vlan, Vmk, VsphereCollection};

mod networks;
use networks::*;

/// A cable from a cabling sheet between a switch port and a host NIC.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostCable {
    pub switch: String,
    pub port: String,
    pub host: String,
    pub nic: String,
    /// The cabling row.
    pub at: At,
}

/// The written tables, the notes, and the source map.
#[derive(Clone, Debug, Default)]
pub struct Written {
    pub toml: String,
    pub notes: Vec<String>,
    /// Where each written value came from (its collection line, or the
    /// cabling row), by its byte range in `toml`.
    pub map: SourceMap,
}

struct NetInfo {
    /// Its name in the design: the port group's, or `NAME-2` when a
    /// network written before (a Hyper-V host's) has that name.
    name: String,
    role: &'static str,
    protocol: Option<&'static str>,
    /// Where the role came from: the first vmkernel port's service flag
    /// (or iSCSI binding) that tells it, or the port group of a VM
    /// network.
    role_from: Prov,
    /// The port group's line (of the first host that has it).
    pg_at: Option<Prov>,
    vlan: Option<(u16, Prov)>,
    /// The MTUs of its vmkernel ports that the collection states: one it
    /// does not state is no vote (it is noted, never taken as 1500).
    mtus: Vec<(u32, Prov)>,
    vm: bool,
}

/// Writes the hosts of `colls`. `switches` are the design names of the
/// imported switches; `cables` the cabling sheets' host cables.
pub fn write(colls: &[VsphereCollection], switches: &[String], cables: &[HostCable]) -> Written {
    write_in(colls, switches, cables, &mut Tables::default())
}

/// [`write`] into a design whose tables so far are `tables`: a network,
/// cluster profile or host whose name is taken (by a Hyper-V host, or
/// another collection's cluster of the same name) is written as
/// `NAME-2` (`-3`, ...), every reference to it following, with a note.
pub fn write_in(
    colls: &[VsphereCollection],
    switches: &[String],
    cables: &[HostCable],
    tables: &mut Tables,
) -> Written {
    let mut notes = Vec::new();
    for c in colls {
        for r in &c.remarks {
            notes.push(format!("{}:{}: {}", c.file, r.line, r.text));
        }
    }
    let mut nets = networks(colls, &mut notes);
    let mut out = String::new();
    let mut map: Vec<Mapped> = Vec::new();
    for (pg, n) in nets.iter_mut() {
        n.name = tables.claim("networks", pg);
        if n.name != *pg {
            notes.push(format!(
                "port group {pg}: a network of that name is already in the design (a Hyper-V host's): written as network {}",
                n.name
            ));
        }
    }
    for n in nets.values() {
        let header = tables.header(&format!("networks.{}", key(&n.name)));
        // The header mapped to the port group (of the first host that
        // has it): a finding on the network as a whole points there.
        if let Some(pg) = &n.pg_at {
            let start = out.len() + 1;
            map.push(Mapped {
                span: start..start + header.len(),
                from: pg.srcs.clone(),
            });
        }
        let _ = writeln!(out, "\n{header}");
        // Each mapped to the line its comment names: the role's service
        // flag, the port group's VLAN, the first vmkernel port with the
        // MTU most run.
        line_mapped(
            &mut out,
            &mut map,
            "role",
            &string(n.role),
            &n.role_from.text,
            &n.role_from.srcs,
            Blank::Omit,
        );
        if let Some(p) = n.protocol {
            line_mapped(
                &mut out,
                &mut map,
                "protocol",
                &string(p),
                "with the role",
                &n.role_from.srcs,
                Blank::Omit,
            );
        }
        if let Some((v, at)) = &n.vlan {
            line_mapped(
                &mut out,
                &mut map,
                "vlan",
                &v.to_string(),
                &at.text,
                &at.srcs,
                Blank::Omit,
            );
        }
        if let Some((mtu, at)) = majority(&n.mtus) {
            if mtu != 1500 {
                let at = at.then(", the MTU most of its vmkernel ports run");
                line_mapped(
                    &mut out,
                    &mut map,
                    "mtu",
                    &mtu.to_string(),
                    &at.text,
                    &at.srcs,
                    Blank::Omit,
                );
            }
        }
    }
    let several = colls.len() > 1;
    for c in colls {
        if c.hosts.is_empty() {
            notes.push(format!("{}: the collection holds no host", c.file));
            continue;
        }
        let cluster = c
            .cluster
            .as_ref()
            .map(|s| s.value.clone())
            .unwrap_or_else(|| crate::design::file_stem(&c.file));
        // Two collections naming one cluster (two vCenter Servers, or one
        // cluster collected twice): the second is written as its own
        // cluster, `<cluster>-2`, with its own profile.
        let wanted = cluster;
        let cluster = tables.claim("clusters", &wanted);
        let profile = tables.claim("profiles", &format!("esx-{cluster}"));
        if cluster != wanted {
            let line = c.cluster.as_ref().and_then(|s| s.line()).unwrap_or(1);
            notes.push(format!(
                "{}:{line}: cluster {wanted} is also the cluster of a collection read before: its hosts are written as cluster {cluster}, profile {profile} (if the two are one cluster, give its hosts one `cluster` and `profile`)",
                c.file
            ));
        }
        let mut hosts: Vec<HostEntries> = Vec::new();
        for h in &c.hosts {
            let name = host_name(&h.name, tables);
            if name != h.name && name != short_name(&h.name) {
                notes.push(format!(
                    "{}:{}: host {}: a host of that name is already in the design: written as host {name}",
                    c.file, h.line, h.name
                ));
            }
            let entries = host_entries(&c.file, h, &name, &nets, switches, cables, &mut notes);
            hosts.push(HostEntries { name, entries });
        }
        emit::per_cluster(
            &mut out,
            &mut map,
            tables,
            &profile,
            several.then_some(cluster.as_str()),
            &hosts,
        );
    }
    Written {
        toml: out,
        notes,
        map: SourceMap::new(map),
    }
}

/// [`write`] against the switches and cabling sheets of `docs`: the
/// switches are named as the design names them (hostname, else the file's
/// stem), and a cabling row between a switch port and a device that is no
/// switch is a host cable.
pub fn write_with_docs(colls: &[VsphereCollection], docs: &[crate::Document]) -> Written {
    write_with_docs_in(colls, docs, &mut Tables::default())
}

/// [`write_with_docs`] into a design whose tables so far are `tables`
/// ([`write_in`]).
pub fn write_with_docs_in(
    colls: &[VsphereCollection],
    docs: &[crate::Document],
    tables: &mut Tables,
) -> Written {
    let switches = switch_names(docs);
    let is_switch = |d: &str| switches.iter().any(|s| s.eq_ignore_ascii_case(d));
    let mut cables = Vec::new();
    for d in docs {
        let crate::Document::Cabling(c) = d else {
            continue;
        };
        for row in &c.cables {
            let at = At {
                file: c.file.clone(),
                line: row.line,
            };
            let (sw, port, host, nic) = if is_switch(&row.device) && !is_switch(&row.peer_device) {
                (&row.device, &row.port, &row.peer_device, &row.peer_port)
            } else if is_switch(&row.peer_device) && !is_switch(&row.device) {
                (&row.peer_device, &row.peer_port, &row.device, &row.port)
            } else {
                continue;
            };
            let sw = switches
                .iter()
                .find(|s| s.eq_ignore_ascii_case(sw))
                .cloned()
                .unwrap_or_default();
            let port = crate::names::IfName::parse_switch_port(port)
                .map_or(port.clone(), |i| i.to_string());
            cables.push(HostCable {
                switch: sw,
                port,
                host: host.clone(),
                nic: nic.clone(),
                at,
            });
        }
    }
    write_in(colls, &switches, &cables, tables)
}

/// The design names of the switches of `docs`: hostname, else the file's
/// stem, as `design::to_design` names them.
fn switch_names(docs: &[crate::Document]) -> Vec<String> {
    let mut switches: Vec<String> = Vec::new();
    for d in docs {
        if let crate::Document::Config(cfg) = d {
            let name = cfg
                .hostname
                .as_ref()
                .map_or_else(|| crate::design::file_stem(&cfg.file), |h| h.value.clone());
            if !switches.contains(&name) {
                switches.push(name);
            }
        }
    }
    switches
}

/// The switch ports of `docs` the vmnics' CDP / LLDP hints name (the ties
/// [`write_with_docs`] writes as a NIC's `switch` / `port`), each with the
/// hint's line: pass them to
/// [`crate::design::to_design_with_host_ports`] so the switch writes these
/// ports as host ports.
pub fn hint_ports(
    colls: &[VsphereCollection],
    docs: &[crate::Document],
) -> Vec<crate::design::HostPort> {
    let switches = switch_names(docs);
    let mut out = Vec::new();
    for c in colls {
        for h in &c.hosts {
            for n in &h.vmnics {
                let Some(nb) = &n.neighbor else { continue };
                let (Some(sw), Some(port)) = (match_switch(&nb.device, &switches), &nb.port) else {
                    continue;
                };
                let port = crate::names::IfName::parse_switch_port(port)
                    .map_or(port.clone(), |i| i.to_string());
                out.push(crate::design::HostPort {
                    switch: sw.clone(),
                    port,
                    at: crate::design::At {
                        file: c.file.clone(),
                        line: nb.line,
                    },
                });
            }
        }
    }
    out
}

/// `file:line` (or `default: <source>`, `inferred from file:line:
/// <why>`) as a comment, with its line for the source map.
fn at<T>(file: &str, s: &Sourced<T>) -> Prov {
    crate::design::toml::sourced(file, s)
}

/// The most common value (ties: the first seen), with where its first
/// occurrence is.
fn majority<T: Eq + std::hash::Hash + Clone>(vals: &[(T, Prov)]) -> Option<(T, Prov)> {
    let (first, _) = emit::majority(vals.iter().map(|v| &v.0))?;
    Some(vals[first].clone())
}

/// `esx01.contoso.com` -> `esx01` (an address stays whole).
fn short_name(full: &str) -> String {
    if full.parse::<std::net::IpAddr>().is_ok() {
        full.to_string()
    } else {
        full.split('.').next().unwrap_or(full).to_string()
    }
}

/// A host's design name, claimed: its short name, else its full name
/// when the short one is taken, else the short one numbered (`esx01-2`).
fn host_name(full: &str, tables: &mut Tables) -> String {
    let short = short_name(full);
    if tables.taken("hosts", &short) && !tables.taken("hosts", full) {
        tables.claim("hosts", full)
    } else {
        tables.claim("hosts", &short)
    }
}

/// `8.0.2` -> `vsphere-8`.
fn platform(version: &str) -> Option<&'static str> {
    let mut it = version.trim().split('.');
    let major = it.next()?;
    let minor = it.next().unwrap_or("0");
    Some(match (major, minor) {
        ("8", _) => "vsphere-8",
        ("7", _) => "vsphere-7",
        ("6", _) => "vsphere-6",
        ("5", "5") => "vsphere-5.5",
        ("5", "1") => "vsphere-5.1",
        ("5", "0") => "vsphere-5.0",
        _ => return None,
    })
}

/// `0000:3b:00.1` -> `pci-0000:3b:00`.
fn card(pci: &str) -> String {
    let base = pci.rsplit_once('.').map_or(pci, |(b, _)| b);
    format!("pci-{base}")
}

/// The design switch a CDP / LLDP device name stands for.
fn match_switch<'a>(device: &str, switches: &'a [String]) -> Option<&'a String> {
    let d = device.trim();
    let d = d.split('(').next().unwrap_or(d).trim();
    let short = d.split('.').next().unwrap_or(d);
    switches
        .iter()
        .find(|s| s.eq_ignore_ascii_case(d) || s.eq_ignore_ascii_case(short))
}

fn host_entries(
    file: &str,
    h: &EsxHost,
    name: &str,
    nets: &BTreeMap<String, NetInfo>,
    switches: &[String],
    cables: &[HostCable],
    notes: &mut Vec<String>,
) -> Vec<Entry> {
    let mut e = Vec::new();
    // Every entry names the collection line (or cabling row) it came
    // from, in its comment and for the source map.
    let mut push = |path: &[&str], key: &'static str, value: String, from: Prov| {
        e.push(Entry::sourced(path, key, value, from))
    };
    match &h.version {
        Some(v) => match platform(&v.value) {
            Some(p) => push(
                &[],
                "os",
                string(p),
                at(file, v).then(&format!(", ESXi {}", v.value)),
            ),
            None => notes.push(format!(
                "{}: {name}: ESXi version {} is none the design format names; `os` not written",
                at(file, v),
                v.value
            )),
        },
        None => notes.push(format!(
            "{file}:{}: {name}: no Version: `os` not written (the design's platform applies)",
            h.line
        )),
    }
    if let Some(m) = &h.memory_gib {
        let v = (m.value * 100.0).round() / 100.0;
        push(&[], "memory_gb", format!("{v}"), at(file, m));
    }
    if let Some(pp) = &h.power_policy {
        let l = pp.value.to_ascii_lowercase();
        let power = if l.contains("high perf") {
            Some("max-performance")
        } else if l.contains("balanced") {
            Some("balanced")
        } else if l.contains("low power") {
            Some("power-saver")
        } else {
            None
        };
        match power {
            Some(p) => push(
                &[],
                "power",
                string(p),
                at(file, pp).then(&format!(", {}", pp.value)),
            ),
            None => notes.push(format!(
                "{}: {name}: power policy {:?} is none the design names (a custom policy): `power` not written",
                at(file, pp),
                pp.value
            )),
        }
    }
    // A vmnic or switch listed twice is written once: the first entry.
    let mut seen: BTreeMap<&str, u32> = BTreeMap::new();
    for n in &h.vmnics {
        if let Some(first) = seen.get(n.name.as_str()) {
            notes.push(format!(
                "{file}:{}: {name} {} is listed twice (first at line {first}): the first is written",
                n.line, n.name
            ));
            continue;
        }
        seen.insert(n.name.as_str(), n.line);
        let p = ["nics", n.name.as_str()];
        if let Some(pci) = &n.pci {
            push(
                &p,
                "card",
                string(&card(&pci.value)),
                at(file, pci).then(&format!(", PCI {}", pci.value)),
            );
        }
        if let Some(d) = &n.description {
            push(&p, "model", string(&d.value), at(file, d));
        }
        if let Some(s) = n
            .speed_mbps
            .as_ref()
            .filter(|s| netlint_model::Speed::parse(&speed_text(mbps(s.value))).is_err())
        {
            notes.push(format!(
                "{}: {name} {}: BitRatePerSec {} (Mb/s) is outside what the design takes (10M-10T): written without `speed` (unknown)",
                at(file, s),
                n.name,
                s.value
            ));
        } else if let Some(s) = &n.speed_mbps {
            push(
                &p,
                "speed",
                string(&speed_text(mbps(s.value))),
                at(file, s).then(&format!(", BitRatePerSec {} (Mb/s)", s.value)),
            );
        }
        let cable = cables.iter().find(|c| {
            c.nic.eq_ignore_ascii_case(&n.name)
                && (c.host.eq_ignore_ascii_case(name) || c.host.eq_ignore_ascii_case(&h.name))
        });
        match (&n.neighbor, cable) {
            (Some(nb), _) if match_switch(&nb.device, switches).is_some() => {
                let sw = match_switch(&nb.device, switches).cloned().unwrap_or_default();
                let proto = match nb.protocol {
                    super::vsphere::Protocol::Cdp => "CDP",
                    super::vsphere::Protocol::Lldp => "LLDP",
                };
                push(
                    &p,
                    "switch",
                    string(&sw),
                    Prov::line(file, nb.line).then(&format!(", {proto} device {}", nb.device)),
                );
                if let Some(port) = &nb.port {
                    let port = crate::names::IfName::parse_switch_port(port)
                        .map_or(port.clone(), |i| i.to_string());
                    push(
                        &p,
                        "port",
                        string(&port),
                        Prov::line(file, nb.line).then(&format!(", {proto} port")),
                    );
                }
            }
            (_, Some(c)) => {
                let row = Prov::line(&c.at.file, c.at.line);
                push(&p, "switch", string(&c.switch), row.clone());
                push(&p, "port", string(&c.port), row);
            }
            (Some(nb), None) => notes.push(format!(
                "{file}:{}: {name} {}: its switch {} ({}) is not an imported switch; the NIC is written without `switch`",
                nb.line,
                n.name,
                nb.device,
                match nb.protocol {
                    super::vsphere::Protocol::Cdp => "CDP",
                    super::vsphere::Protocol::Lldp => "LLDP",
                }
            )),
            (None, None) => notes.push(format!(
                "{file}:{}: {name} {}: no CDP / LLDP hint and no cabling row: the NIC is written without `switch`",
                n.line, n.name
            )),
        }
    }
    let bound: BTreeSet<&str> = h
        .iscsi_bound
        .iter()
        .flatten()
        .map(|s| s.value.as_str())
        .collect();
    let vmnics: BTreeSet<&str> = h.vmnics.iter().map(|n| n.name.as_str()).collect();
    let mut seen: BTreeMap<&str, u32> = BTreeMap::new();
    for s in &h.switches {
        if let Some(first) = seen.get(s.name.as_str()) {
            notes.push(format!(
                "{file}:{}: {name} switch {} is listed twice (first at line {first}): the first is written",
                s.line, s.name
            ));
            continue;
        }
        seen.insert(s.name.as_str(), s.line);
        // Uplinks the host's vmnics hold; another is no NIC of the design.
        let mut uplinks: Vec<String> = Vec::new();
        for u in &s.uplinks.value {
            if vmnics.contains(u.as_str()) {
                uplinks.push(u.clone());
            } else {
                notes.push(format!(
                    "{}: {name} switch {}: uplink {u} is no physical NIC of the host: left out",
                    at(file, &s.uplinks),
                    s.name
                ));
            }
        }
        let p = ["vswitches", s.name.as_str()];
        let kind = match s.kind {
            SwitchKind::Vss => "vss",
            SwitchKind::Vds => "vds",
        };
        push(&p, "kind", string(kind), Prov::line(file, s.line));
        let ups: Vec<String> = uplinks.iter().map(|u| string(u)).collect();
        push(
            &p,
            "uplinks",
            format!("[{}]", ups.join(", ")),
            at(file, &s.uplinks),
        );
        if let Some(m) = &s.mtu {
            push(&p, "mtu", m.value.to_string(), at(file, m));
        }
        let pgs: Vec<&PortGroup> = h.portgroups.iter().filter(|g| g.switch == s.name).collect();
        let lb = match (s.kind, &s.teaming) {
            (SwitchKind::Vss, Some(t)) => t.lb.as_ref().map(|l| (l.value, at(file, l))),
            _ => {
                let all: Vec<(Lb, Prov)> = pgs
                    .iter()
                    .filter_map(|g| {
                        g.teaming
                            .as_ref()?
                            .lb
                            .as_ref()
                            .map(|l| (l.value, at(file, l)))
                    })
                    .collect();
                let m = majority(&all);
                if let Some((l, _)) = &m {
                    if all.iter().any(|(x, _)| x != l) {
                        notes.push(format!(
                            "{file}:{}: {name} {}: its port groups use several load-balancing policies; the switch is written with the one most use ({})",
                            s.line,
                            s.name,
                            l.key()
                        ));
                    }
                }
                m
            }
        };
        if let Some((l, c)) = lb {
            push(&p, "load_balancing", string(l.key()), c);
        }
        let vm: Vec<String> = pgs
            .iter()
            .filter(|g| nets.get(&g.name).is_some_and(|n| n.vm))
            .map(|g| string(&nets[&g.name].name))
            .collect();
        if !vm.is_empty() {
            push(
                &p,
                "networks",
                format!("[{}]", vm.join(", ")),
                Prov::line(file, s.line).then(", VM port groups"),
            );
        }
        for k in &h.vmks {
            let Some(pg) = &k.portgroup else { continue };
            let Some(g) = pgs.iter().find(|g| g.name == pg.value) else {
                continue;
            };
            let vp = ["vswitches", s.name.as_str(), "vnics", k.name.as_str()];
            let net = nets.get(&pg.value).map_or(&pg.value, |n| &n.name);
            push(&vp, "network", string(net), at(file, pg));
            if let Some(m) = &k.mtu {
                push(&vp, "mtu", m.value.to_string(), at(file, m));
            }
            if let Some(t) = &g.teaming {
                let all: BTreeSet<&String> = uplinks.iter().collect();
                let act: BTreeSet<&String> = t.active.iter().collect();
                let known = |l: &[String]| l.iter().all(|u| uplinks.contains(u));
                if !known(&t.active) || !known(&t.standby) {
                    notes.push(format!(
                        "{file}:{}: {name} port group {}: its teaming names uplinks that are not vmnics of {}; failover order not written",
                        t.line, g.name, s.name
                    ));
                } else if !t.active.is_empty() && (act != all || !t.standby.is_empty()) {
                    let a: Vec<String> = t.active.iter().map(|u| string(u)).collect();
                    push(
                        &vp,
                        "active_uplinks",
                        format!("[{}]", a.join(", ")),
                        Prov::line(file, t.line).then(&format!(", port group {}", g.name)),
                    );
                    if !t.standby.is_empty() {
                        let sb: Vec<String> = t.standby.iter().map(|u| string(u)).collect();
                        push(
                            &vp,
                            "standby_uplinks",
                            format!("[{}]", sb.join(", ")),
                            Prov::line(file, t.line).then(&format!(", port group {}", g.name)),
                        );
                    }
                }
            }
            if bound.contains(k.name.as_str()) {
                let b = h
                    .iscsi_bound
                    .iter()
                    .flatten()
                    .find(|b| b.value == k.name)
                    .map_or(Prov::default(), |b| at(file, b));
                push(&vp, "iscsi_port_binding", "true".into(), b);
            }
        }
    }
    let lm: Vec<String> = h
        .vmks
        .iter()
        .filter(|k| k.vmotion)
        .filter_map(|k| k.portgroup.as_ref())
        .map(|p| string(nets.get(&p.value).map_or(&p.value, |n| &n.name)))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if !lm.is_empty() {
        let first = h
            .vmks
            .iter()
            .find(|k| k.vmotion)
            .map_or(h.line, |k| k.services_line);
        push(
            &["live_migration"],
            "networks",
            format!("[{}]", lm.join(", ")),
            Prov::line(file, first).then(", vMotion enabled"),
        );
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_platforms_and_switch_names() {
        assert_eq!(card("0000:3b:00.1"), "pci-0000:3b:00");
        assert_eq!(platform("8.0.2"), Some("vsphere-8"));
        assert_eq!(platform("5.5.0"), Some("vsphere-5.5"));
        assert_eq!(platform("9.0"), None);
        let sw = vec!["tor-a".to_string()];
        assert_eq!(match_switch("tor-a(FDO2419X01)", &sw), Some(&sw[0]));
        assert_eq!(match_switch("TOR-A.contoso.com", &sw), Some(&sw[0]));
        assert_eq!(match_switch("tor-b", &sw), None);
        let mut used = Tables::default();
        assert_eq!(host_name("esx01.a.com", &mut used), "esx01");
        assert_eq!(host_name("esx01.b.com", &mut used), "esx01.b.com");
        assert_eq!(host_name("10.0.0.1", &mut used), "10.0.0.1");
        // The same host in a third collection: numbered.
        assert_eq!(host_name("esx01.b.com", &mut used), "esx01-2");
    }
}
