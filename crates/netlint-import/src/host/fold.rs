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
//!
//! A host's entries are written part by part, in this order: its own keys
//! (`root`), then the submodules `nics`, `switches` (`teams`, `vswitches`
//! and their `vnics`), `live_migration` and `dcb`; the interfaces'
//! evidence makes the `[networks]` (`networks`), and `intents` compares
//! the host with its Network ATC intents.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::design::toml::{string, Prov};
use crate::design::{SourceMap, Tables};
use crate::model::{Origin, Sourced};
use crate::Document;

use super::emit::{self, Entry, HostEntries};
use super::facts::*;
use super::hyperv::AtcVnic;
use super::join::same_host;
use networks::{write_networks, Evidence};

mod dcb;
mod intents;
mod live_migration;
mod networks;
mod nics;
mod switches;

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
    /// Where the hosts' values came from, by byte range in `toml`.
    pub map: SourceMap,
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
    /// [`Ctx::at`]'s comment text with the sources it names (the
    /// collection's line), for the source map.
    fn src<T>(&self, s: &Sourced<T>) -> Prov {
        Prov {
            text: self.at(s),
            srcs: crate::design::toml::sourced(&self.h.file, s).srcs,
        }
    }
    /// An entry: `from` is its comment, and its sources when it is a
    /// [`Prov`] (a `String` comment names none).
    fn put(&mut self, table: &[&str], k: &'static str, value: String, from: impl Into<Prov>) {
        self.out.push(Entry::sourced(table, k, value, from.into()));
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

/// What Network ATC says a host vNIC carries: the intent ATC's name for
/// it gives (`vSMB(<intent>#<pNIC>)`, `vManagement(<intent>)`), stated when
/// the collection has that intent with that type. An intent collected
/// without that type contradicts the name: no evidence.
fn atc_of_vnic(h: &HostFacts, vnic: &str) -> Option<networks::Atc> {
    let (kind, intent) = super::hyperv::atc_vnic(vnic)?;
    let stated = match h
        .intents
        .iter()
        .flatten()
        .find(|i| i.name.eq_ignore_ascii_case(intent))
    {
        Some(i) => match kind {
            AtcVnic::Storage if i.storage => true,
            AtcVnic::Management if i.management => true,
            _ => return None,
        },
        None => false,
    };
    Some(networks::Atc {
        kind,
        intent: intent.to_string(),
        stated,
    })
}

/// What Network ATC says a physical NIC with an address carries: an
/// intent of storage alone, or of management alone, on that NIC (a
/// compute intent puts a virtual switch on it, and the vNICs say).
fn atc_of_nic(h: &HostFacts, nic: &str) -> Option<networks::Atc> {
    let i = h
        .intents
        .iter()
        .flatten()
        .find(|i| i.adapters.iter().any(|a| a.eq_ignore_ascii_case(nic)))?;
    let kind = match (i.storage, i.management, i.compute) {
        (true, false, false) => AtcVnic::Storage,
        (false, true, false) => AtcVnic::Management,
        _ => return None,
    };
    Some(networks::Atc {
        kind,
        intent: i.name.clone(),
        stated: true,
    })
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
    write_in(hosts, docs, switches, &mut Tables::default())
}

/// [`write`] into a design whose tables so far are `tables`: the
/// networks, profiles and hosts are claimed and written through it. The
/// Hyper-V hosts are the first hosts of a design (before the vSphere
/// ones), so every name they want is free.
pub fn write_in(
    hosts: &[HostFacts],
    docs: &[Document],
    switches: &BTreeSet<String>,
    tables: &mut Tables,
) -> HostsDesign {
    let mut notes = Vec::new();
    let mut nets: BTreeMap<String, Evidence> = BTreeMap::new();
    let mut per_host: Vec<HostEntries> = Vec::new();
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
        let claimed = tables.claim("hosts", &h.name);
        debug_assert_eq!(claimed, h.name, "host names are unique, ASCII case aside");
        per_host.push(HostEntries {
            name: h.name.clone(),
            entries: out,
        });
    }
    let mut toml = String::new();
    let mut map = Vec::new();
    write_networks(&mut toml, &mut map, tables, &nets, &mut notes);
    let files: HashMap<&str, &str> = hosts
        .iter()
        .map(|h| (h.name.as_str(), h.file.as_str()))
        .collect();
    let file_of = |name: &str| files.get(name).copied().unwrap_or_default().to_string();
    let (profiles, overrides) = emit::by_shape(&mut toml, &mut map, tables, &per_host, file_of);
    notes.sort();
    HostsDesign {
        toml,
        notes,
        profiles,
        overrides,
        map: SourceMap::new(map),
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
    root(c);
    let a = Host::of(c);
    nics::write(c, &a, docs, switches);
    switches::teams(c, &a);
    let written_switches = switches::vswitches(c, &a);
    switches::vnics(c, &a, &written_switches);
    live_migration::write(c, &a);
    dcb::write(c);
    intents::intents(c, &a.nic_names);
}

/// The host's own keys: `os`, `memory_gb`, `power`.
fn root(c: &mut Ctx<'_>) {
    let h = c.h;
    if let Some(os) = &h.os {
        match platform(&os.value) {
            Some(p) => {
                let at = c.src(os);
                c.put(&[], "os", string(p), at.map_text(|at| format!("{at} ({}, build {})", os.value.caption, os.value.build.map_or("?".into(), |b| b.to_string()))));
            }
            None => c.note(os.line().unwrap_or(1), NoteKind::Unknown, format!("OS `{}` (build {:?}) is no platform the design names: `os` not written (the design's platform applies)", os.value.caption, os.value.build)),
        }
    }
    if let Some(m) = &h.memory_bytes {
        let gib = (m.value as f64 / 1_073_741_824.0 * 10.0).round() / 10.0;
        if gib > 0.0 {
            let at = c.src(m);
            c.put(
                &[],
                "memory_gb",
                format!("{gib}"),
                at.then(", installed memory: the VM memory a drain moves is at most this"),
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
        let at = c.src(p);
        c.put(&[], "power", string(v), at);
    }
}

/// What the parts of one host share: its cluster networks, the design
/// network on each adapter, its live-migration networks and the names of
/// its NICs and teams.
struct Host<'a> {
    cluster_nets: BTreeMap<&'a str, &'a ClusterNetwork>,
    /// Cluster interfaces of this node: adapter alias -> (cluster
    /// network, line).
    on_adapter: BTreeMap<String, (String, u32)>,
    lm_subnets: Vec<&'a Sourced<String>>,
    /// The design networks of the live-migration subnets.
    lm_nets: Vec<String>,
    nic_names: BTreeSet<&'a str>,
    team_names: BTreeSet<&'a str>,
}

impl<'a> Host<'a> {
    fn of(c: &mut Ctx<'a>) -> Host<'a> {
        let h = c.h;
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
        let vnic_names: BTreeSet<&str> =
            h.vnics.iter().flatten().map(|v| v.name.as_str()).collect();
        let design_net = |alias: &str| -> Option<String> {
            match super::hyperv::vethernet(alias) {
                Some(v) => Some(v.to_string()),
                // A Network ATC vNIC's adapter has the vNIC's own name.
                None if vnic_names.contains(alias) => Some(alias.to_string()),
                None => on_adapter.get(alias).map(|(n, _)| n.clone()),
            }
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
        let team_names: BTreeSet<&str> = h
            .lbfo_teams
            .iter()
            .flatten()
            .map(|t| t.name.as_str())
            .collect();
        let nic_names: BTreeSet<&str> = h.nics.iter().map(|n| n.name.as_str()).collect();
        Host {
            cluster_nets,
            on_adapter,
            lm_subnets,
            lm_nets,
            nic_names,
            team_names,
        }
    }

    /// The cluster interface on a vNIC's adapter, by either of its names.
    fn on_vnic(&self, v: &VnicFacts) -> Option<(String, u32)> {
        super::hyperv::vnic_aliases(&v.name)
            .iter()
            .find_map(|a| self.on_adapter.get(a).cloned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
