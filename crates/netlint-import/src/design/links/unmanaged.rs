//! Devices seen only in the cabling or LLDP (no config) and their links
//! to the imported switches, written as `managed = false` switches.

use super::*;

/// A device seen only in the cabling or LLDP (no config) whose port is
/// named like a switch interface: a router, a firewall, a switch nobody
/// gave netlint the config of. Written as `managed = false`, with where
/// it was seen.
pub(crate) struct Unmanaged {
    pub name: String,
    pub from: Prov,
}

/// The unmanaged devices and their links: per device, the cables to each
/// group (port-channel or port) of an imported switch are one link;
/// groups on the peers of one MLAG domain with the same multi-chassis id
/// (`vpc 20` on both) are one multi-chassis LAG (`b` lists both).
pub(crate) fn unmanaged(
    switches: &[Switch<'_>],
    by_name: &BTreeMap<String, usize>,
    cables: &[Cable],
) -> (Vec<Unmanaged>, Vec<Link>) {
    // (device, domain or switch, group key) -> (switch, group, cable)s.
    type Key = (String, String, String);
    let mut groups: BTreeMap<Key, Vec<(usize, String, &Cable)>> = BTreeMap::new();
    let mut devices: BTreeMap<String, Vec<Prov>> = BTreeMap::new();
    for c in cables {
        for (near, far) in [(&c.a, &c.b), (&c.b, &c.a)] {
            let (Some(s), None) = (by_name.get(&near.device), by_name.get(&far.device)) else {
                continue;
            };
            if !far_is_switch(c, far, cables) {
                continue;
            }
            let sw = &switches[*s];
            let g = group(sw, &near.port);
            let mc = sw
                .cfg
                .interface(&g)
                .and_then(|i| i.mc_lag)
                .and_then(|m| match m.value {
                    McLag::Member(id) => Some(id),
                    McLag::PeerLink => None,
                });
            let key = match (mc, domain_name(sw.cfg)) {
                (Some(id), Some(d)) => (far.device.clone(), d, format!("mc{id}")),
                // A stack's port-channel spans its members as one LAG.
                _ if g != near.port && sw.cfg.stack.is_some() => (
                    far.device.clone(),
                    super::bridge_name(sw.cfg).unwrap_or_default(),
                    g.clone(),
                ),
                _ => (far.device.clone(), sw.name.clone(), g.clone()),
            };
            groups.entry(key).or_default().push((*s, g, c));
            devices
                .entry(far.device.clone())
                .or_default()
                .push(Prov::line(&c.at.file, c.at.line));
        }
    }
    let mut links = Vec::new();
    for ((dev, _, _), ends) in &groups {
        let mut b: Vec<String> = Vec::new();
        for (s, _, _) in ends {
            if !b.contains(&switches[*s].name) {
                b.push(switches[*s].name.clone());
            }
        }
        let b_from = Prov::join(
            ends.iter().map(|(s, g, c)| {
                let sw = &switches[*s];
                let port = if c.a.device == sw.name {
                    &c.a.port
                } else {
                    &c.b.port
                };
                match group_interface(sw, g, port) {
                    Some(i) => Prov::line(&sw.cfg.file, i.line),
                    None => Prov::default(),
                }
            }),
            ", ",
        );
        let ports: Vec<(&Switch<'_>, &str)> = ends
            .iter()
            .map(|(s, _, c)| {
                let sw = &switches[*s];
                let port = if c.a.device == sw.name {
                    &c.a.port
                } else {
                    &c.b.port
                };
                (sw, port.as_str())
            })
            .collect();
        let mut remarks = vec![format!(
            "{dev} has no config here: an unmanaged device (bridges no VLAN, sends no BPDU)"
        )];
        let (lag, disagree) = match bundle_mode(ports.iter().copied(), b.len() > 1) {
            Ok(l) => (l, false),
            Err(remark) => {
                remarks.push(remark);
                (None, true)
            }
        };
        let lag = match lag {
            Some(l) => Some(l),
            None if ends.len() > 1 && b.len() == 1 && !disagree => {
                Some(("none", Prov::note("no channel-group on the members")))
            }
            None => None,
        };
        let cables_from = Prov::join(
            ends.iter()
                .map(|(_, _, c)| Prov::line(&c.at.file, c.at.line)),
            ", ",
        );
        // A routed port (`no switchport`) to one switch: a routed link.
        let routed_ends: Vec<Prov> = ends
            .iter()
            .zip(&ports)
            .filter_map(|((_, g, _), (sw, port))| {
                let i = group_interface(sw, g, port)?;
                (i.mode.value == PortMode::Routed).then(|| toml::sourced(&sw.cfg.file, &i.mode))
            })
            .collect();
        let routed = (b.len() == 1 && !routed_ends.is_empty() && routed_ends.len() == ends.len())
            .then(|| Prov::join(routed_ends, ", "));
        let name = format!(
            "{dev}--{}",
            ends.iter()
                .map(|(s, g, _)| format!("{}:{g}", switches[*s].name))
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect::<Vec<_>>()
                .join("+")
        );
        links.push(Link {
            name,
            a: dev.clone(),
            a_more: Vec::new(),
            b,
            a_from: Prov::default(),
            b_from,
            cables_from,
            members: ends.len(),
            peer_link: false,
            lag: if routed.is_some() { None } else { lag },
            routed,
            speed: speed_of(&ports).map(|(m, from)| (speed_text(mbps(m.into())), from)),
            vlans: None,
            vlans_ends: None,
            lag_ends: None,
            mtu: None,
            mtu_ends: None,
            stp_cost: None,
            native: None,
            remarks,
        });
    }
    let devices = devices
        .into_iter()
        .map(|(name, from)| Unmanaged {
            name,
            from: Prov::join(from, ", "),
        })
        .collect();
    (devices, links)
}

/// `[switches.NAME]` of an unmanaged device.
pub(crate) fn write_unmanaged(out: &mut Writer, d: &Unmanaged) {
    out.blank();
    out.table(&format!("switches.{}", toml::key(&d.name)), &d.from);
    let mut from = d.from.clone();
    from.text = format!("seen only in the cabling / LLDP: {}", d.from.text);
    out.value("managed", "false", &from);
}
