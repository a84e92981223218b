//! Inter-switch links: cables grouped by the LAG (or VLT interconnect)
//! their ports belong to, with members, LAG mode, kind, speed, allowed
//! VLANs, MTU and port cost.

use std::collections::BTreeMap;

use super::cables::{Cable, End};
use super::toml::{self, Prov, Writer};
use super::{Note, Switch};
use crate::config::vendors::Mtu;
use crate::model::*;
use crate::names::{mbps, speed_text, IfName};
use crate::vlans::VlanSet;
use netlint_model::units::{MAX_MTU, MIN_MTU};
pub(crate) use unmanaged::{unmanaged, write_unmanaged};

mod ends;
mod unmanaged;

use ends::*;

/// A link to write.
pub(crate) struct Link {
    name: String,
    a: String,
    /// The other switches of the `a` end of a LAG between two MLAG
    /// domains (`a = ["dist-1", "dist-2"]`); empty otherwise.
    a_more: Vec<String>,
    b: Vec<String>,
    /// The `interface` lines of the `a` end's and the `b` ends' ports
    /// (their port-channels where they are LAG members).
    a_from: Prov,
    b_from: Prov,
    /// The LLDP or cabling lines that tell of the cables.
    cables_from: Prov,
    members: usize,
    lag: Option<(&'static str, Prov)>,
    /// Each end's bundling where the ends cannot bundle (`lag_a` /
    /// `lag_b`; issue 31 item 7): LACP against `mode on`, every `a`
    /// switch's members alike and every `b` switch's alike. `lag` is then
    /// not written.
    lag_ends: Option<[(&'static str, Prov); 2]>,
    peer_link: bool,
    /// A routed link (`no switchport` at an end): `kind = "routed"`, no
    /// VLANs, cost or native VLAN; the lines that make it routed.
    routed: Option<Prov>,
    /// None: no end states it and no port name tells it (written without
    /// `speed`: unknown, which format v2 allows).
    speed: Option<(String, Prov)>,
    vlans: Option<(VlanSet, Prov)>,
    /// Each end's allowed VLANs where the ends differ (`vlans_a` /
    /// `vlans_b`; issue 31 item 7): the `a` switches alike, the `b`
    /// switches alike, every end known. `vlans` is then not written.
    vlans_ends: Option<[(VlanSet, Prov); 2]>,
    mtu: Option<(u32, Prov)>,
    /// Each switch's MTU on the link where they differ (`mtu_a` /
    /// `mtu_b`; issue 31 item 7): the `a` end's switches, then the `b`
    /// end's, every switch known and in the format's range. `mtu` is then
    /// not written.
    mtu_ends: Option<[Vec<(String, u32, Prov)>; 2]>,
    /// The port cost as its TOML value: a number for every tree, or a
    /// table by MST instance.
    stp_cost: Option<(String, Prov)>,
    /// Native VLANs of the `a` and `b` ends, written only when one is not
    /// VLAN 1 (a config without `native vlan` runs VLAN 1 untagged).
    native: Option<[(u16, Prov); 2]>,
    remarks: Vec<String>,
}

/// The group a port belongs to on its switch: its port-channel, the VLT
/// interconnect, or the port itself.
fn group(sw: &Switch<'_>, port: &str) -> String {
    let Some(name) = IfName::parse(port) else {
        return port.to_string();
    };
    if let Some(d) = &sw.cfg.mlag {
        if d.kind == MlagKind::Vlt && d.peer_links.iter().any(|p| p.value == name) {
            return "VLTi".to_string();
        }
    }
    match sw
        .cfg
        .interface(name.as_str())
        .and_then(|i| i.channel_group)
    {
        Some(cg) => format!("Port-Channel{}", cg.value.id),
        None => name.to_string(),
    }
}

/// The interface whose layer-2 settings the group carries: the
/// port-channel when the config has it, else the port.
fn group_interface<'a>(sw: &Switch<'a>, group: &str, port: &str) -> Option<&'a Interface> {
    sw.cfg.interface(group).or_else(|| sw.cfg.interface(port))
}

fn mlag_name(cfg: &SwitchConfig) -> Option<String> {
    let d = cfg.mlag.as_ref()?;
    let kind = match d.kind {
        MlagKind::Vpc => "vpc",
        MlagKind::Mlag => "mlag",
        MlagKind::Vlt => "vlt",
    };
    Some(match &d.domain_id {
        Some(id) => format!("{kind}-{}", id.value),
        None => kind.to_string(),
    })
}

pub(crate) fn domain_name(cfg: &SwitchConfig) -> Option<String> {
    mlag_name(cfg)
}

/// The logical bridge a switch is part of: its MLAG domain, else its
/// Catalyst stack (whose port-channels span members as one LAG).
pub(crate) fn bridge_name(cfg: &SwitchConfig) -> Option<String> {
    mlag_name(cfg).or_else(|| cfg.stack.as_ref().map(|s| format!("stack {}", s.name)))
}

/// Whether the far end of a cable to a device that is no imported switch
/// names a switch port (the device is then an unmanaged switch), not a
/// host's NIC ([`crate::lldp::peer::is_switch_port_name`]: Windows's
/// `Ethernet 2` is a host's, issue 32 item 5).
fn far_is_switch_port(port: &str) -> bool {
    crate::lldp::peer::is_switch_port_name(port)
}

/// Whether the far end of a cable is a switch: as its LLDP neighbour
/// states (system description, capabilities), else by its port's name,
/// unless another cable names the same device by a port that is no switch
/// interface and states nothing either: that device is a host, and its
/// port named like a switch's (a NIC `MGMT1`, read as `mgmt1`) is one of
/// its NICs. `netlint generate` writes a host's NIC names in cabling.csv
/// (issue 36; fixtures/switch-ports.toml's `MGMT1` beside `SLOT1`).
fn far_is_switch(c: &Cable, far: &super::cables::End, cables: &[Cable]) -> bool {
    c.stated_switch(far).unwrap_or_else(|| {
        far_is_switch_port(&far.port)
            && !cables.iter().any(|o| {
                [&o.a, &o.b].into_iter().any(|e| {
                    e.device == far.device
                        && o.stated_switch(e).is_none()
                        && !far_is_switch_port(&e.port)
                })
            })
    })
}

struct Uf(Vec<usize>);

impl Uf {
    fn find(&mut self, x: usize) -> usize {
        let mut r = x;
        while self.0[r] != r {
            r = self.0[r];
        }
        self.0[x] = r;
        r
    }
    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.0[ra.max(rb)] = ra.min(rb);
        }
    }
}

pub(crate) fn build(
    switches: &[Switch<'_>],
    by_name: &BTreeMap<String, usize>,
    cables: &[Cable],
    notes: &mut Vec<Note>,
) -> Vec<Link> {
    // Cables between two imported switches, with each end's group.
    let mut between: Vec<(&Cable, String, String)> = Vec::new();
    for c in cables {
        let (sa, sb) = (by_name.get(&c.a.device), by_name.get(&c.b.device));
        match (sa, sb) {
            (Some(a), Some(b)) => {
                for (s, end) in [(a, &c.a), (b, &c.b)] {
                    if switches[*s].cfg.interface(&end.port).is_none() {
                        notes.push(Note::UnknownPort {
                            switch: end.device.clone(),
                            port: end.port.clone(),
                            at: c.at.clone(),
                        });
                    }
                }
                between.push((
                    c,
                    group(&switches[*a], &c.a.port),
                    group(&switches[*b], &c.b.port),
                ));
            }
            (Some(_), None) | (None, Some(_)) => {
                let (sw, far) = if sa.is_some() {
                    (&c.a, &c.b)
                } else {
                    (&c.b, &c.a)
                };
                if far_is_switch(c, far, cables) {
                    // A device with switch ports and no config: unmanaged
                    // (see [`unmanaged`]).
                    continue;
                }
                notes.push(Note::NotImportedPeer {
                    switch: sw.device.clone(),
                    port: sw.port.clone(),
                    peer: format!("{} {}", far.device, far.port),
                    peer_device: far.device.clone(),
                    peer_port: far.port.clone(),
                    at: c.at.clone(),
                });
            }
            (None, None) => {}
        }
    }
    // Cables sharing a group on either end form one link; so do cables
    // whose ends are in port-channels of one multi-chassis LAG (the same
    // `vpc` / `mlag` / `vlt-port-channel` id in one domain), whatever
    // their port-channel numbers (po11 on one vPC peer, po12 on the other
    // for `vpc 12`), and a double-sided LAG cabled straight (leaf-1a to
    // spine-1, leaf-1b to spine-2) is one LAG between two logical bridges
    // (issue 31 item 4).
    let mut uf = Uf((0..between.len()).collect());
    let mut first: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mc_key = |device: &str, g: &str, port: &str| -> Option<(String, String)> {
        let sw = &switches[*by_name.get(device)?];
        if let Some(st) = &sw.cfg.stack {
            // A stack's port-channel is one LAG whatever members it spans.
            return (g != port).then(|| (format!("stack {}", st.name), g.to_string()));
        }
        let domain = domain_name(sw.cfg)?;
        match group_interface(sw, g, port)?.mc_lag?.value {
            McLag::Member(id) => Some((format!("domain {domain}"), format!("mc{id}"))),
            McLag::PeerLink => None,
        }
    };
    for (i, (c, ga, gb)) in between.iter().enumerate() {
        let keys = [
            Some((c.a.device.clone(), ga.clone())),
            Some((c.b.device.clone(), gb.clone())),
            mc_key(&c.a.device, ga, &c.a.port),
            mc_key(&c.b.device, gb, &c.b.port),
        ];
        for key in keys.into_iter().flatten() {
            match first.get(&key) {
                Some(j) => uf.union(i, *j),
                None => {
                    first.insert(key, i);
                }
            }
        }
    }
    let mut components: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..between.len() {
        let r = uf.find(i);
        components.entry(r).or_default().push(i);
    }
    let mut links = Vec::new();
    for members in components.values() {
        let cabs: Vec<&(&Cable, String, String)> = members.iter().map(|i| &between[*i]).collect();
        if let Some(link) = one_link(switches, by_name, &cabs, notes) {
            links.push(link);
        }
    }
    links
}

fn one_link(
    switches: &[Switch<'_>],
    by_name: &BTreeMap<String, usize>,
    cabs: &[&(&Cable, String, String)],
    notes: &mut Vec<Note>,
) -> Option<Link> {
    let at = cabs[0].0.at.clone();
    // Per switch: the groups its ends are in, and its ends.
    let mut sides: BTreeMap<&str, (Vec<&str>, Vec<&End>)> = BTreeMap::new();
    for (c, ga, gb) in cabs {
        for (end, g) in [(&c.a, ga), (&c.b, gb)] {
            let e = sides.entry(end.device.as_str()).or_default();
            if !e.0.contains(&g.as_str()) {
                e.0.push(g.as_str());
            }
            e.1.push(end);
        }
    }
    let sw = |name: &str| &switches[by_name[name]];
    let label = |dev: &str, group: &str| format!("{dev}:{group}");
    let first = &cabs[0];
    let (a_all, b): (Vec<&str>, Vec<&str>) = match sides.len() {
        2 => {
            let a = first.0.a.device.as_str();
            let b = first.0.b.device.as_str();
            (vec![a], vec![b])
        }
        4 => {
            // A LAG between two MLAG domains (double-sided vPC, MLAG to
            // MLAG, VLT to VLT): each end is a domain, each switch with one
            // port-channel in it.
            let mut domains: BTreeMap<Option<String>, Vec<&str>> = BTreeMap::new();
            for (dev, (groups, _)) in &sides {
                let d = (groups.len() == 1)
                    .then(|| bridge_name(sw(dev).cfg))
                    .flatten();
                domains.entry(d).or_default().push(dev);
            }
            let pairs: Vec<&Vec<&str>> = domains
                .iter()
                .filter(|(d, devs)| d.is_some() && devs.len() == 2)
                .map(|(_, devs)| devs)
                .collect();
            if pairs.len() != 2 {
                notes.push(Note::UnsupportedShape {
                    link: sides.keys().copied().collect::<Vec<_>>().join(", "),
                    at,
                });
                return None;
            }
            // `a` is the domain of the first cable's `a` end.
            let first_a = first.0.a.device.as_str();
            let (x, y) = if pairs[0].contains(&first_a) {
                (pairs[0], pairs[1])
            } else {
                (pairs[1], pairs[0])
            };
            (x.clone(), y.clone())
        }
        3 => {
            // A LAG from one switch to the two peers of an MLAG domain.
            let centre = sides
                .iter()
                .find(|(dev, (groups, ends))| {
                    groups.len() == 1 && ends.len() == cabs.len() && {
                        let others: Vec<&str> =
                            sides.keys().filter(|d| d != dev).copied().collect();
                        let d0 = bridge_name(sw(others[0]).cfg);
                        d0.is_some() && d0 == bridge_name(sw(others[1]).cfg)
                    }
                })
                .map(|(dev, _)| *dev);
            match centre {
                Some(c) => (
                    vec![c],
                    sides.keys().filter(|d| **d != c).copied().collect(),
                ),
                None => {
                    notes.push(Note::UnsupportedShape {
                        link: sides.keys().copied().collect::<Vec<_>>().join(", "),
                        at,
                    });
                    return None;
                }
            }
        }
        _ => {
            notes.push(Note::UnsupportedShape {
                link: sides.keys().copied().collect::<Vec<_>>().join(", "),
                at,
            });
            return None;
        }
    };
    let a = a_all[0];
    let is_a = |name: &str| a_all.contains(&name);
    let a_group = sides[a].0[0];
    let name = format!(
        "{}--{}",
        a_all
            .iter()
            .map(|d| label(d, sides[d].0[0]))
            .collect::<Vec<_>>()
            .join("+"),
        b.iter()
            .map(|d| label(d, sides[d].0[0]))
            .collect::<Vec<_>>()
            .join("+")
    );
    let same_domain = b.len() == 1
        && a_all.len() == 1
        && domain_name(sw(a).cfg).is_some()
        && domain_name(sw(a).cfg) == domain_name(sw(b[0]).cfg);
    // A routed link between the peers (the vPC peer-keepalive link: `no
    // switchport`, `vrf member keepalive`, a /30) is no peer link: it is
    // written as routed, as between any two switches (issue 31 item 4).
    let routed_between_peers = same_domain
        && [(a, a_group), (b[0], sides[b[0]].0[0])]
            .iter()
            .all(|(dev, g)| {
                !is_peer_link(sw(dev), g)
                    && group_interface(sw(dev), g, &sides[dev].1[0].port)
                        .is_some_and(|i| i.mode.value == PortMode::Routed)
            });
    let peer_link = same_domain && !routed_between_peers;
    if peer_link && !(is_peer_link(sw(a), a_group) || is_peer_link(sw(b[0]), sides[b[0]].0[0])) {
        // v1 joins MLAG peers by their peer link only.
        notes.push(Note::UnsupportedShape { link: name, at });
        return None;
    }
    let mut remarks = Vec::new();
    // Layer 2 of each end's group; a routed end makes a routed link.
    let mut ends: Vec<(&Switch<'_>, &Interface)> = Vec::new();
    // Ends whose port has no `interface` stanza: the vendor's default port
    // (issue 31 item 6), never the VLANs of the other end.
    let mut bare: Vec<(&Switch<'_>, &str)> = Vec::new();
    let mut routed: Vec<Prov> = Vec::new();
    for dev in a_all.iter().chain(&b).copied() {
        let (groups, es) = &sides[dev];
        if let Some(ifc) = group_interface(sw(dev), groups[0], &es[0].port) {
            if ifc.mode.value == PortMode::Routed && !peer_link {
                routed.push(toml::sourced(&sw(dev).cfg.file, &ifc.mode));
            }
            ends.push((sw(dev), ifc));
        } else {
            let s = sw(dev);
            if s.cfg.default_mode.value == PortMode::Routed && !peer_link {
                routed.push(bare_port(s, &es[0].port));
            }
            bare.push((s, es[0].port.as_str()));
        }
    }
    let routed = if routed.is_empty() {
        None
    } else if b.len() > 1 || a_all.len() > 1 {
        // Format v2: each end of a routed link is one device.
        notes.push(Note::RoutedLink { link: name, at });
        return None;
    } else {
        if routed.len() < ends.len() {
            remarks.push(
                "one end is routed (`no switchport`), the other a switchport: no layer 2 crosses; written as routed"
                    .to_string(),
            );
        }
        Some(Prov::join(routed, ", "))
    };
    let cable_ends: Vec<(&Switch<'_>, &str)> = cabs
        .iter()
        .flat_map(|(c, _, _)| {
            [
                (sw(&c.a.device), c.a.port.as_str()),
                (sw(&c.b.device), c.b.port.as_str()),
            ]
        })
        .collect();
    let speed = speed_of(&cable_ends);
    if speed.is_none() {
        notes.push(Note::LinkWithoutSpeed {
            link: name.clone(),
            at,
        });
    }
    let lag_ends = per_end_modes(&cable_ends, &is_a);
    let (lag, disagree) = if lag_ends.is_some() {
        (None, true)
    } else {
        match bundle_mode(cable_ends.iter().copied(), b.len() > 1 || a_all.len() > 1) {
            Ok(l) => (l, false),
            Err(remark) => {
                remarks.push(remark);
                (None, true)
            }
        }
    };
    let lag = match lag {
        Some(l) => Some(l),
        None if cabs.len() > 1 && !peer_link && !disagree => {
            Some(("none", Prov::note("no channel-group on the members")))
        }
        None => None,
    };
    let mut vlans: Option<(VlanSet, Prov)> = None;
    let mut per_end = Vec::new();
    // Each end's sources with the number of VLANs it allows: the end that
    // allows fewest is the first source (a finding about a VLAN the link
    // lacks points at the trunk that leaves it out).
    let mut end_srcs: Vec<(usize, Vec<super::Src>)> = Vec::new();
    // Each end's set, by switch; `None` when an end's VLANs are not known.
    let mut end_sets: Option<Vec<(&str, VlanSet, Prov)>> = Some(Vec::new());
    if routed.is_some() {
        // A routed link carries no VLAN.
    } else if !(peer_link && ends.iter().any(|(_, i)| i.mode.value == PortMode::Routed)) {
        for (s, ifc) in &ends {
            match carried(s, ifc) {
                Some((set, from)) => {
                    per_end.push(format!(
                        "{} {} carries {} ({from})",
                        s.name,
                        ifc.name,
                        crate::vlans::switch_list(&set)
                    ));
                    end_srcs.push((set.len(), from.srcs.clone()));
                    if let Some(e) = &mut end_sets {
                        e.push((s.name.as_str(), set, from.clone()));
                    }
                    vlans = Some(match vlans {
                        None => (set, from),
                        Some((v, f)) if f.text == from.text => {
                            let text = f.text.clone();
                            let mut both = Prov::join([f, from], "");
                            both.text = text;
                            (v.intersection(&set), both)
                        }
                        Some((v, f)) => (v.intersection(&set), Prov::join([f, from], "; ")),
                    });
                }
                None => {
                    end_sets = None;
                    per_end.push(format!(
                        "{} {}: VLANs not known ({:?})",
                        s.name, ifc.name, ifc.mode.value
                    ))
                }
            }
        }
        for (s, port) in &bare {
            if s.cfg.default_mode.value != PortMode::Access {
                end_sets = None;
                continue;
            }
            let from = bare_port(s, port);
            if let Some(e) = &mut end_sets {
                e.push((s.name.as_str(), VlanSet::single(1), from.clone()));
            }
            per_end.push(format!("{} {port} carries VLAN 1 ({from})", s.name));
            end_srcs.push((1, from.srcs.clone()));
            let one = VlanSet::single(1);
            vlans = Some(match vlans {
                None => (one, from),
                Some((v, f)) => (v.intersection(&one), Prov::join([f, from], "; ")),
            });
        }
        let distinct: Vec<&String> = per_end.iter().collect();
        if ends.len() + bare.len() > 1 {
            let mut sets: Vec<Option<VlanSet>> = ends
                .iter()
                .map(|(s, i)| carried(s, i).map(|c| c.0))
                .collect();
            sets.extend(bare.iter().map(|(s, _)| {
                (s.cfg.default_mode.value == PortMode::Access).then(|| VlanSet::single(1))
            }));
            if sets.windows(2).any(|w| w[0] != w[1]) {
                remarks.push(
                    "the ends differ; the link carries the VLANs every end allows:".to_string(),
                );
                remarks.extend(distinct.into_iter().cloned());
            }
        }
    } else {
        end_sets = None;
        remarks.push("VLT interconnect: carries every VLAN of the domain".to_string());
    }
    let vlans_ends = if routed.is_some() {
        None
    } else {
        end_sets.and_then(|sets| per_end_vlans(&sets, &is_a))
    };
    if let Some((_, from)) = &mut vlans {
        end_srcs.sort_by_key(|(n, _)| *n);
        let mut srcs = Vec::new();
        for s in end_srcs.into_iter().flat_map(|(_, s)| s) {
            if !srcs.contains(&s) {
                srcs.push(s);
            }
        }
        from.srcs = srcs;
    }
    // Native VLANs per end (format v2 `native_vlan_a` / `_b`): the `a`
    // switch's port, and the `b` switches' ports (one value for all of
    // them, as the format has; differing `b` ends stay a remark).
    let native_of = |(s, ifc): &(&Switch<'_>, &Interface)| match ifc.native_vlan {
        Some(n) => (n.value, toml::sourced(&s.cfg.file, &n)),
        None => (
            1,
            Prov::note("no `native vlan`: VLAN 1").with_line(&s.cfg.file, ifc.line),
        ),
    };
    let a_ends: Vec<(u16, Prov)> = ends
        .iter()
        .filter(|(s, _)| is_a(&s.name))
        .map(native_of)
        .collect();
    let b_ends: Vec<(u16, Prov)> = ends
        .iter()
        .filter(|(s, _)| !is_a(&s.name))
        .map(native_of)
        .collect();
    let native = match (a_ends.first(), b_ends.first()) {
        _ if routed.is_some() => None,
        _ if peer_link && ends.iter().any(|(_, i)| i.mode.value == PortMode::Routed) => None,
        (Some(na), Some(nb)) if a_ends.iter().chain(&b_ends).any(|(v, _)| *v != 1) => {
            if let Some((v, from)) = a_ends.iter().find(|(v, _)| *v != na.0) {
                remarks.push(format!(
                    "the `a` end's ports differ in native VLAN: {v} ({from}) and {}; written: {}",
                    na.0, na.0
                ));
            }
            if let Some((v, from)) = b_ends.iter().find(|(v, _)| *v != nb.0) {
                remarks.push(format!(
                    "the `b` ends differ in native VLAN: {v} ({from}) and {}; written: {}",
                    nb.0, nb.0
                ));
            }
            Some([na.clone(), nb.clone()])
        }
        _ => None,
    };
    // Each switch's MTU on the link (the smallest of its groups there):
    // where they differ, each end is written as it is configured, so a
    // vPC member set apart from its peer is not lost in the smaller value.
    let mtu_ends = if routed.is_some() {
        None
    } else {
        end_mtus(&a_all, &b, &ends)
    };
    // A payload the format cannot hold is not written: the link then runs
    // the smaller of its switches' MTUs, the format's default for it.
    let mtu = ends
        .iter()
        .filter(|_| routed.is_none())
        .filter_map(|(s, i)| payload_mtu(s, i))
        .min_by_key(|(m, _)| *m)
        .and_then(|(m, from)| {
            if (MIN_MTU..=MAX_MTU).contains(&m) {
                return Some((m, from));
            }
            notes.push(Note::MtuOutOfRange {
                what: format!("link {name}"),
                stated: format!("mtu {m} ({from})"),
                then:
                    "`mtu` not written: the link is taken to run the smaller of its switches' MTUs"
                        .to_string(),
                at: from
                    .srcs
                    .iter()
                    .find_map(|s| s.at())
                    .cloned()
                    .unwrap_or_else(|| cabs[0].0.at.clone()),
            });
            None
        });
    let stp_cost = ends
        .iter()
        .filter(|_| routed.is_none())
        .find_map(|(s, i)| port_cost(s, &i.stp));
    let end_from = |of_a: bool| {
        Prov::join(
            ends.iter()
                .filter(|(s, _)| is_a(&s.name) == of_a)
                .map(|(s, i)| Prov::line(&s.cfg.file, i.line)),
            ", ",
        )
    };
    let cables_from = Prov::join(
        cabs.iter()
            .map(|(c, _, _)| Prov::line(&c.at.file, c.at.line)),
        ", ",
    );
    Some(Link {
        name,
        a_from: end_from(true),
        b_from: end_from(false),
        cables_from,
        a: a.to_string(),
        a_more: a_all[1..].iter().map(|s| s.to_string()).collect(),
        b: b.iter().map(|s| s.to_string()).collect(),
        members: cabs.len(),
        lag,
        lag_ends,
        peer_link,
        routed,
        speed: speed.map(|(m, from)| (speed_text(mbps(m.into())), from)),
        vlans,
        vlans_ends,
        mtu,
        mtu_ends,
        stp_cost,
        native,
        remarks,
    })
}

/// `mtu_a` / `mtu_b`: each switch's MTU on the link (the smallest of its
/// groups there), by end, when they are not all one value; `None` when
/// they agree, or when a switch's is not known or not a value the format
/// holds (the link's `mtu` then says what can be said).
fn end_mtus(
    a_all: &[&str],
    b: &[&str],
    ends: &[(&Switch<'_>, &Interface)],
) -> Option<[Vec<(String, u32, Prov)>; 2]> {
    let of = |name: &str| {
        ends.iter()
            .filter(|(s, _)| s.name == name)
            .filter_map(|(s, i)| payload_mtu(s, i))
            .min_by_key(|(m, _)| *m)
            .filter(|(m, _)| (MIN_MTU..=MAX_MTU).contains(m))
            .map(|(m, from)| (name.to_string(), m, from))
    };
    let a: Vec<_> = a_all.iter().map(|n| of(n)).collect::<Option<_>>()?;
    let b: Vec<_> = b.iter().map(|n| of(n)).collect::<Option<_>>()?;
    let first = a.first()?.1;
    if a.iter().chain(&b).all(|(_, m, _)| *m == first) {
        return None;
    }
    Some([a, b])
}

pub(crate) fn write(out: &mut Writer, link: &Link) {
    out.blank();
    for r in &link.remarks {
        out.comment(r);
    }
    // The name and the header point at the ports and the cables; no
    // comment is written for them.
    let quiet = |p: &Prov| Prov {
        text: String::new(),
        srcs: p.srcs.clone(),
    };
    let ends = quiet(&Prov::join(
        [
            link.a_from.clone(),
            link.b_from.clone(),
            link.cables_from.clone(),
        ],
        "",
    ));
    out.array_table("links", &ends);
    out.value("name", &toml::string(&link.name), &ends);
    let a = if link.a_more.is_empty() {
        toml::string(&link.a)
    } else {
        format!(
            "[{}]",
            std::iter::once(&link.a)
                .chain(&link.a_more)
                .map(|s| toml::string(s))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    out.value("a", &a, &quiet(&link.a_from));
    let b = if link.b.len() == 1 {
        toml::string(&link.b[0])
    } else {
        format!(
            "[{}]",
            link.b
                .iter()
                .map(|s| toml::string(s))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    out.value("b", &b, &quiet(&link.b_from));
    if link.peer_link {
        out.value("kind", "\"peer-link\"", &ends);
    }
    if let Some(from) = &link.routed {
        out.value("kind", "\"routed\"", from);
    }
    match &link.speed {
        Some((speed, from)) => out.value("speed", &toml::string(speed), from),
        None => out.comment("speed: stated by neither end nor told by a port name (unknown)"),
    }
    if link.members > 1 {
        let mut from = link.cables_from.clone();
        from.text = "cables from LLDP / cabling".to_string();
        out.value("members", &link.members.to_string(), &from);
    }
    if let Some((lag, from)) = &link.lag {
        out.value("lag", &toml::string(lag), from);
    }
    if let Some([(a, fa), (b, fb)]) = &link.lag_ends {
        out.value("lag_a", &toml::string(a), fa);
        out.value("lag_b", &toml::string(b), fb);
    }
    match (&link.vlans_ends, &link.vlans) {
        (Some([(a, fa), (b, fb)]), _) => {
            out.value("vlans_a", &toml::vlan_list(a), fa);
            out.value("vlans_b", &toml::vlan_list(b), fb);
        }
        (None, Some((set, from))) => out.value("vlans", &toml::vlan_list(set), from),
        (None, None) => {}
    }
    match &link.mtu_ends {
        Some(ends) => {
            for (key, end) in ["mtu_a", "mtu_b"].into_iter().zip(ends) {
                // One value for the end where its switches agree; else one
                // line per switch, each mapped to its own config line.
                if end.iter().all(|(_, m, _)| *m == end[0].1) {
                    // The same vendor default on every switch is said once.
                    let mut from = Prov::join(end.iter().map(|(_, _, p)| p.clone()), "; ");
                    if end.iter().all(|(_, _, p)| p.text == end[0].2.text) {
                        from.text = end[0].2.text.clone();
                    }
                    out.value(key, &end[0].1.to_string(), &from);
                } else {
                    for (sw, m, from) in end {
                        out.value_at(&[key, sw], &m.to_string(), from);
                    }
                }
            }
        }
        None => {
            if let Some((m, from)) = &link.mtu {
                out.value("mtu", &m.to_string(), from);
            }
        }
    }
    if let Some((c, from)) = &link.stp_cost {
        out.value("stp_cost", c, from);
    }
    match &link.native {
        Some([(a, fa), (b, fb)]) if a == b => {
            out.value(
                "native_vlan",
                &a.to_string(),
                &Prov::join([fa.clone(), fb.clone()], "; "),
            );
        }
        Some([(a, fa), (b, fb)]) => {
            // An end at the vendor default VLAN 1 is the format's default
            // too: a comment, so that a finding points at the end a
            // config line sets.
            let default_1 = |v: u16, p: &Prov| {
                v == 1
                    && !p.srcs.is_empty()
                    && p.srcs
                        .iter()
                        .all(|s| matches!(s, super::Src::Default { .. }))
            };
            for (key, v, from) in [("native_vlan_a", a, fa), ("native_vlan_b", b, fb)] {
                if default_1(*v, from) {
                    out.comment(&format!("{key}: 1 ({from})"));
                } else {
                    out.value(key, &v.to_string(), from);
                }
            }
        }
        None => {}
    }
}

/// A port's spanning-tree cost as the link's `stp_cost`: `spanning-tree
/// cost N` for every tree; under MST, `spanning-tree mst LIST cost N` per
/// instance: one number where instance 0 and every instance of the
/// switch's region have the same, else a table of the instances stated
/// (an instance not stated keeps its speed's cost). Instances the region
/// does not have are left out: the format holds none.
fn port_cost(s: &Switch<'_>, stp: &crate::model::PortStp) -> Option<(String, Prov)> {
    let file = &s.cfg.file;
    if let Some(c) = stp.cost {
        return Some((c.value.to_string(), toml::sourced(file, &c)));
    }
    if stp.mst_cost.is_empty() || s.cfg.stp.mode.value != crate::model::StpMode::Mst {
        return None;
    }
    let mut ids: Vec<u16> = vec![0];
    ids.extend(s.cfg.stp.mst.instances.keys().filter(|k| **k != 0));
    let known: Vec<(u16, &Sourced<u32>)> = ids
        .iter()
        .filter_map(|k| stp.mst_cost.get(k).map(|c| (*k, c)))
        .collect();
    let (_, first) = known.first()?;
    let from = Prov::join(known.iter().map(|(_, c)| toml::sourced(file, c)), ", ");
    if known.len() == ids.len() && known.iter().all(|(_, c)| c.value == first.value) {
        return Some((first.value.to_string(), from));
    }
    let table: Vec<String> = known
        .iter()
        .map(|(k, c)| format!("{k} = {}", c.value))
        .collect();
    Some((format!("{{ {} }}", table.join(", ")), from))
}

#[cfg(test)]
mod tests {
    use super::far_is_switch_port;

    #[test]
    fn windows_adapter_names_are_no_switch_ports() {
        for host in ["Ethernet 2", "ethernet 2", "Ethernet", "Ethernet  12"] {
            assert!(!far_is_switch_port(host), "{host}");
        }
        for switch in [
            "Ethernet2",
            "Ethernet1/1",
            "Ethernet 1/1",
            "Eth1/5",
            "Gi1/0/1",
            "Po10",
        ] {
            assert!(far_is_switch_port(switch), "{switch}");
        }
    }
}
