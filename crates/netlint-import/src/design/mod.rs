//! Facts to a netlint design as TOML text, each value with a comment
//! naming the line it came from or the default that filled it.
//!
//! Written: switches (VLANs, MTU, MLAG domain, host-port edge and BPDU
//! guard, spanning tree with format v2's per-VLAN priorities
//! (`vlan_priority`), `disabled_vlans` and `path_cost`, PFC) and the
//! inter-switch links from LLDP and the cabling (members, LAG, kind,
//! allowed VLANs, MTU, speed, port cost, native VLANs per end), routed
//! links (`kind = "routed"`), the devices seen only in the cabling or
//! LLDP on switch-interface ports (`managed = false`), host-facing ports
//! that differ from `host_ports` (`[switches.X.ports."NAME"]`) and
//! port-channels between two MLAG domains (`a` and `b` lists). Beside the
//! text, a [`SourceMap`] records where each value came from. What the importer
//! does not write (hosts, shapes the format cannot hold) is returned as
//! [`Note`]s, never dropped silently.

mod cables;
mod links;
mod map;
mod networks;
mod stacks;
mod switches;
pub(crate) mod toml;

use std::collections::BTreeMap;
use std::fmt;

use crate::model::SwitchConfig;
use crate::Document;

pub use cables::Cable;
pub use map::{Mapped, SourceMap, Src};
pub use toml::Tables;

/// Where a fact came from, for a note: file and line.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct At {
    pub file: String,
    pub line: u32,
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// Something the import could not write, or found inconsistent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// Two configs name the same switch; the second is left out.
    DuplicateHostname {
        name: String,
        first: String,
        second: At,
    },
    /// LLDP and the cabling disagree about what a port is cabled to.
    CablingConflict {
        port: String,
        lldp: (String, At),
        cabling: (String, At),
    },
    /// Several LLDP neighbours on one port (a hypervisor's bridge, a
    /// hub), or two tables that disagree about one port: the design takes
    /// one cable per port, the first; each other is this note.
    SharedPort {
        port: String,
        kept: (String, At),
        left: (String, At),
    },
    /// An LLDP table whose device is not known (no prompt line above it
    /// and no config of that name).
    UnknownTableDevice { file: String },
    /// A cable between switches whose speed neither config states nor the
    /// port name tells: the link is written without `speed` (unknown).
    LinkWithoutSpeed { link: String, at: At },
    /// A cable to a port its switch's config does not have.
    UnknownPort {
        switch: String,
        port: String,
        at: At,
    },
    /// A routed link to several switches (a routed port-channel cannot
    /// span an MLAG domain's peers in format v2).
    RoutedLink { link: String, at: At },
    /// Cabling shapes v1 cannot express (a LAG to two switches that share
    /// no MLAG domain, double-sided MLAG: v2).
    UnsupportedShape { link: String, at: At },
    /// A cable to a device that is not an imported switch and whose port
    /// is no switch interface: a host, which the import does not write
    /// yet (a device on a switch-interface port is written unmanaged).
    NotImportedPeer {
        switch: String,
        port: String,
        /// `device port`, as shown.
        peer: String,
        /// The far end's device and port, as the cabling names them.
        peer_device: String,
        peer_port: String,
        at: At,
    },
    /// An MTU the input states that the design format cannot hold (`mtu`
    /// 576 to 9216, `frame_size` 594 to 9238): `then` says what was written
    /// instead (the format's largest, as an inferred value, or nothing).
    MtuOutOfRange {
        what: String,
        stated: String,
        then: String,
        at: At,
    },
    /// Networks written from the switches' VLANs with `role = "unknown"`:
    /// no switch config says what a VLAN carries.
    RolesUnknown { networks: Vec<String> },
    /// A Catalyst stack's one config, written as its members (`NAME-N`,
    /// `stack = "NAME"`); its stacking cables are in no running-config.
    Stack {
        name: String,
        members: Vec<String>,
        at: At,
    },
    /// A fact v1 has no field for.
    WaitsForV2 {
        what: &'static str,
        detail: String,
        at: At,
    },
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::DuplicateHostname { name, first, second } => write!(
                f,
                "{second}: switch `{name}` is already imported from {first}; this config is left out"
            ),
            Note::CablingConflict { port, lldp, cabling } => write!(
                f,
                "{}: LLDP sees {port} cabled to {}, but {} says {}; the LLDP neighbour is used",
                lldp.1, lldp.0, cabling.1, cabling.0
            ),
            Note::SharedPort { port, kept, left } => write!(
                f,
                "{}: LLDP sees {port} cabled to {} as well as to {} ({}); the design takes one cable per port: the first is written, this one is not",
                left.1, left.0, kept.0, kept.1
            ),
            Note::UnknownTableDevice { file } => write!(
                f,
                "{file}: the LLDP table names no device (keep the prompt line, `tor1# show lldp neighbors detail`, in the capture); its neighbours are not used"
            ),
            Note::LinkWithoutSpeed { link, at } => write!(
                f,
                "{at}: link {link} is written without `speed`: no end configures it and no port name tells it (netlint check names the checks an unknown speed stops, rule speed-unknown)"
            ),
            Note::UnknownPort { switch, port, at } => {
                write!(f, "{at}: {switch} has no interface {port} in its config: taken as the vendor's default port (an access port in VLAN 1, or routed where the switch's ports are routed by default)")
            }
            Note::RoutedLink { link, at } => write!(
                f,
                "{at}: link {link} is routed (`no switchport`) but ends on several switches; a routed link joins two devices, so it is not written"
            ),
            Note::UnsupportedShape { link, at } => write!(
                f,
                "{at}: link {link} is not written: its shape (a LAG across switches outside one MLAG domain, or MLAG on both sides) waits for format v2"
            ),
            Note::NotImportedPeer {
                switch,
                port,
                peer,
                at,
                ..
            } => write!(
                f,
                "{at}: {switch} {port} is cabled to {peer}, which is not an imported switch or host (a host is written when its collection, `netlint collect hyperv` or `vsphere` output, is imported with the switches)"
            ),
            Note::MtuOutOfRange {
                what,
                stated,
                then,
                at,
            } => write!(
                f,
                "{at}: {what}: {stated} is outside what the design format takes (mtu 576 to 9216, frame_size 594 to 9238); {then}"
            ),
            Note::RolesUnknown { networks } => write!(
                f,
                "{} network(s) written from the switches' VLANs with `role = \"unknown\"` ({}): a switch config does not say what a VLAN carries, so they are checked only for what the switches decide; set each role, or import the hosts' collections with the configs",
                networks.len(),
                networks.join(", ")
            ),
            Note::Stack { name, members, at } => write!(
                f,
                "{at}: `{name}` is a Catalyst stack of {} members (told by its `switch N provision` lines and its ports numbered by member): written as switches {} sharing `stack = \"{name}\"`; its stacking cables are in no running-config and none is written (netlint takes a stack whose stacking cables are not listed as joined whatever fails)",
                members.len(),
                members.join(", ")
            ),
            Note::WaitsForV2 { what, detail, at } => {
                write!(f, "{at}: {what} waits for format v2: {detail}")
            }
        }
    }
}

/// A written design and what could not be written.
#[derive(Clone, Debug)]
pub struct Imported {
    pub toml: String,
    pub notes: Vec<Note>,
    /// Where each written value came from, by its byte range in `toml`.
    pub map: SourceMap,
    /// Notes about the imported hosts (unknown facts, unmatched NICs,
    /// Network ATC differences), sorted by file and line.
    pub host_notes: Vec<crate::host::fold::HostNote>,
    /// Every table written and every name taken: a part appended later
    /// (the vSphere hosts, the VLAN networks) takes its names here.
    pub tables: Tables,
}

/// One imported switch: its design name and its config.
pub(crate) struct Switch<'a> {
    pub name: String,
    pub cfg: &'a SwitchConfig,
}

/// Writes the design of these documents. `design_name` goes into
/// `[design] name`.
pub fn to_design(docs: &[Document], design_name: &str) -> Imported {
    to_design_with_hosts(docs, &[], design_name)
}

/// The networks of the switches' VLANs appended to `imported` (written
/// from `docs`, and the hosts after them): one per VLAN no network of the
/// hosts has, `role = "unknown"` ([`networks`]). Call it once, after the
/// last hosts' part is appended.
pub fn add_vlan_networks(imported: &mut Imported, docs: &[Document]) {
    let docs = &*stacks::expand(docs);
    let mut ignored = Vec::new();
    let (switches, _) = switches_of(docs, &mut ignored);
    let (taken, mut names) = written_networks(&imported.toml);
    names.extend(imported.tables.names("networks"));
    let nets = networks::collect(&switches, &taken, &names);
    let mut out = toml::Writer::default();
    out.tables = std::mem::take(&mut imported.tables);
    for n in &nets {
        let name = out.tables.claim("networks", &n.name);
        debug_assert_eq!(name, n.name, "networks::collect names each network once");
    }
    networks::write(&mut out, &nets);
    imported.tables = std::mem::take(&mut out.tables);
    let (text, map) = out.finish();
    let offset = imported.toml.len();
    imported.toml.push_str(&text);
    imported.map.append(map, offset);
    imported.notes.extend(networks::note(&nets));
}

/// The VLANs and names of the networks already in `toml` (the hosts'):
/// the design text as written, read back.
fn written_networks(
    toml: &str,
) -> (
    std::collections::BTreeSet<u16>,
    std::collections::BTreeSet<String>,
) {
    let mut vlans = std::collections::BTreeSet::new();
    let mut names = std::collections::BTreeSet::new();
    let Ok(doc) = toml.parse::<::toml::Table>() else {
        return (vlans, names);
    };
    if let Some(nets) = doc.get("networks").and_then(|n| n.as_table()) {
        for (name, n) in nets {
            names.insert(name.clone());
            if let Some(v) = n.get("vlan").and_then(|v| v.as_integer()) {
                vlans.extend(u16::try_from(v).ok());
            }
        }
    }
    (vlans, names)
}

/// The imported switches of `docs`, by name: a second config naming a
/// switch already imported is left out with a note.
fn switches_of<'a>(
    docs: &'a [Document],
    notes: &mut Vec<Note>,
) -> (Vec<Switch<'a>>, BTreeMap<String, usize>) {
    let mut switches: Vec<Switch<'_>> = Vec::new();
    let mut by_name: BTreeMap<String, usize> = BTreeMap::new();
    for doc in docs {
        let Document::Config(cfg) = doc else { continue };
        let name = match &cfg.hostname {
            Some(h) => h.value.clone(),
            None => file_stem(&cfg.file),
        };
        if let Some(first) = by_name.get(&name) {
            notes.push(Note::DuplicateHostname {
                name,
                first: switches[*first].cfg.file.clone(),
                second: At {
                    file: cfg.file.clone(),
                    line: cfg.hostname.as_ref().and_then(|h| h.line()).unwrap_or(1),
                },
            });
            continue;
        }
        by_name.insert(name.clone(), switches.len());
        switches.push(Switch { name, cfg });
    }
    (switches, by_name)
}

/// A switch port known to face a host from outside the switch configs and
/// cabling tables (a vSphere vmnic's CDP / LLDP hint): `switch` is the
/// switch's design name, `at` the line that ties the port to the host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostPort {
    pub switch: String,
    pub port: String,
    pub at: At,
}

/// [`to_design`] with hosts read from host collections: their networks,
/// profiles and hosts follow the switches and links, their NICs tied to
/// the switches' ports by LLDP or the cabling; then the networks of the
/// VLANs no host network has ([`add_vlan_networks`]).
pub fn to_design_with_hosts(
    docs: &[Document],
    hosts: &[crate::host::facts::HostFacts],
    design_name: &str,
) -> Imported {
    let mut imported = to_design_with_host_ports(docs, hosts, &[], design_name);
    add_vlan_networks(&mut imported, docs);
    imported
}

/// [`to_design_with_hosts`] with more host-facing switch ports (`extra`,
/// from vSphere CDP / LLDP hints): they are host ports as the cabled
/// ones are, so the switch's `host_ports` say how they are configured.
/// It writes no network of the switches' VLANs: append the vSphere part,
/// then call [`add_vlan_networks`].
pub fn to_design_with_host_ports(
    docs: &[Document],
    hosts: &[crate::host::facts::HostFacts],
    extra: &[HostPort],
    design_name: &str,
) -> Imported {
    let mut notes = Vec::new();
    let given = docs;
    let docs = &*stacks::expand(docs);
    let (switches, by_name) = switches_of(docs, &mut notes);
    for sw in &switches {
        if let Some(st) = sw.cfg.stack.as_ref().filter(|s| s.member == s.members[0]) {
            notes.push(Note::Stack {
                name: st.name.clone(),
                members: st
                    .members
                    .iter()
                    .map(|m| format!("{}-{m}", st.name))
                    .collect(),
                at: At {
                    file: sw.cfg.file.clone(),
                    line: st.line,
                },
            });
        }
    }
    let cables = cables::collect(docs, &switches, &by_name, &mut notes);
    let mut links = links::build(&switches, &by_name, &cables, &mut notes);
    let (unmanaged, more) = links::unmanaged(&switches, &by_name, &cables);
    links.extend(more);
    let host_ports = switches::host_ports(&switches, &by_name, &cables, extra);
    let mut out = toml::Writer::default();
    for sw in &switches {
        out.tables.claim("switches", &sw.name);
    }
    for d in &unmanaged {
        out.tables.claim("switches", &d.name);
    }
    out.header(given, design_name);
    for (i, sw) in switches.iter().enumerate() {
        switches::write(
            &mut out,
            sw,
            &host_ports.ports[i],
            &host_ports.hinted[i],
            &host_ports.configured[i],
            &host_ports.bare[i],
            &mut notes,
        );
    }
    for d in &unmanaged {
        links::write_unmanaged(&mut out, d);
    }
    for link in &links {
        links::write(&mut out, link);
    }
    let mut tables = std::mem::take(&mut out.tables);
    let (mut toml, mut map) = out.finish();
    let mut host_notes = Vec::new();
    if !hosts.is_empty() {
        let names: std::collections::BTreeSet<String> =
            switches.iter().map(|s| s.name.clone()).collect();
        let written = crate::host::fold::write_in(hosts, docs, &names, &mut tables);
        map.append(written.map, toml.len());
        toml.push_str(&written.toml);
        host_notes = written.notes;
        // A cable to an imported host is no longer a peer left out.
        notes.retain(|n| match n {
            Note::NotImportedPeer { peer, .. } => !hosts.iter().any(|h| {
                crate::host::join::same_host(peer.split_whitespace().next().unwrap_or(""), &h.name)
            }),
            _ => true,
        });
    }
    Imported {
        toml,
        notes,
        map,
        host_notes,
        tables,
    }
}

/// `dir/tor1.lldp.txt` -> `tor1`.
pub(crate) fn file_stem(file: &str) -> String {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    base.split('.').next().unwrap_or(base).to_string()
}
