//! A switch's `dcb` table: its PFC priorities, as in force toward the
//! host-facing ports.

use super::*;

/// Returns the source of the vendor's rule when PFC is in force per port
/// (OS10) and the switch's `pfc` is written: a host port without PFC on is
/// then `pfc = false` on its own (`write_ports`).
pub(super) fn write_dcb(
    out: &mut Writer,
    sw: &Switch<'_>,
    hosts: &[&Interface],
) -> Option<&'static str> {
    let cfg = sw.cfg;
    let file = cfg.file.as_str();
    let mut pfc: BTreeMap<u8, Prov> = BTreeMap::new();
    for (cos, s) in &cfg.dcb.no_drop_cos {
        if s.value {
            pfc.insert(*cos, toml::sourced(file, s));
        }
    }
    for ifc in &cfg.interfaces {
        for (p, s) in &ifc.pfc_no_drop {
            if s.value {
                pfc.entry(*p).or_insert_with(|| toml::sourced(file, s));
            }
        }
    }
    let pfc_off = os10_pfc_off(cfg, hosts, &mut pfc);
    let comments = |out: &mut Writer| {
        // DCBX and LLDP: the format has no switch field for them (a host's
        // `willing` is the host's); a comment keeps what the config says.
        if let Some(d) = &cfg.dcb.dcbx {
            out.comment(&format!(
                "dcbx: {} ({}); not a design field",
                if d.value { "on" } else { "off" },
                toml::sourced(file, d)
            ));
        }
        if let Some(m) = &cfg.dcb.dcbx_mode {
            out.comment(&format!(
                "dcbx: mode {} ({}, the first port that states one); not a design field",
                m.value,
                toml::sourced(file, m)
            ));
        }
        if let Some(l) = cfg.dcb.lldp.as_ref().filter(|l| !l.value) {
            out.comment(&format!(
                "lldp: off ({}): DCBX cannot negotiate PFC with the hosts",
                toml::sourced(file, l)
            ));
        }
    };
    let ets = &cfg.dcb.ets;
    if pfc.is_empty() && ets.is_empty() {
        comments(out);
        if let Some(off) = pfc_off {
            out.comment(&off);
        }
        return None;
    }
    let keys: Vec<String> = pfc.keys().map(|k| k.to_string()).collect();
    let from = Prov::join(pfc.into_values(), ", ");
    let ets_from = Prov::join(ets.values().map(|s| toml::sourced(file, s)), ", ");
    out.blank();
    // Without a paused class, the table stands for the network-qos policy
    // in force, whose classes leave PFC off (a missing `pause pfc-cos 3`
    // is labelled there, not at the ETS lines).
    let nq_from = cfg.dcb.network_qos_policy.as_ref().map(|p| {
        let mut from = toml::sourced(file, p).then(" (network-qos policy, no class paused)");
        for m in cfg.mtu.network_qos.values() {
            if let Some(l) = m.line() {
                from = from.with_line(file, l);
            }
        }
        from
    });
    let header = match (keys.is_empty(), &nq_from) {
        (false, _) => &from,
        (true, Some(nq)) => nq,
        (true, None) => &ets_from,
    };
    out.table(&format!("switches.{}.dcb", toml::key(&sw.name)), header);
    comments(out);
    if let Some(off) = pfc_off {
        out.comment(&off);
    }
    let per_port = match cfg.vendor.spec().pfc {
        Pfc::PortMode(source) if !keys.is_empty() => Some(source),
        _ => None,
    };
    if !keys.is_empty() {
        out.value("pfc", &format!("[{}]", keys.join(", ")), &from);
    }
    if !ets.is_empty() {
        let shares: Vec<String> = ets
            .iter()
            .map(|(cos, s)| format!("{cos} = {}", s.value))
            .collect();
        out.value(
            "ets",
            &format!("{{ {} }}", shares.join(", ")),
            &ets_from
                .then(" (the queue's bandwidth percent; the default class's CoS are not listed)"),
        );
    }
    per_port
}

/// Whether PFC is on at a host port: its own `priority-flow-control mode
/// on`, or every member's for a port-channel.
pub(super) fn port_pfc_on(cfg: &SwitchConfig, ifc: &Interface) -> bool {
    match ifc.name.kind() {
        crate::names::IfKind::PortChannel(n) => {
            let mut members = cfg
                .interfaces
                .iter()
                .filter(|i| i.channel_group.is_some_and(|cg| cg.value.id == n))
                .peekable();
            members.peek().is_some() && members.all(|i| i.pfc.is_some_and(|p| p.value))
        }
        _ => ifc.pfc.is_some_and(|p| p.value),
    }
}

/// OS10 pauses a no-drop class only on interfaces with
/// `priority-flow-control mode on` ([`Pfc::PortMode`], its source
/// [`defaults::OS10_PFC_MODE`]): the
/// host-facing ports (a port-channel's member ports) decide whether the
/// network-qos classes are in force toward the hosts. When none of them
/// turns PFC on, the switch's `pfc` is left out (`pfc` empty) and the
/// returned comment says why; when some do and some do not, `pfc` stays
/// (it is in force on those) and the comment names the ports without it,
/// each written `pfc = false` under `ports`.
fn os10_pfc_off(
    cfg: &SwitchConfig,
    hosts: &[&Interface],
    pfc: &mut BTreeMap<u8, Prov>,
) -> Option<String> {
    let source = match cfg.vendor.spec().pfc {
        Pfc::PortMode(source) => source,
        Pfc::Policy => return None,
    };
    if pfc.is_empty() || hosts.is_empty() {
        return None;
    }
    let mut ports: Vec<&Interface> = Vec::new();
    for h in hosts {
        match h.name.kind() {
            crate::names::IfKind::PortChannel(n) => ports.extend(
                cfg.interfaces
                    .iter()
                    .filter(|i| i.channel_group.is_some_and(|cg| cg.value.id == n)),
            ),
            _ => ports.push(h),
        }
    }
    let (on, off): (Vec<&Interface>, Vec<&Interface>) = ports
        .into_iter()
        .partition(|i| i.pfc.is_some_and(|p| p.value));
    if off.is_empty() {
        return None;
    }
    let file = cfg.file.as_str();
    let names: Vec<String> = off
        .iter()
        .map(|i| format!("{} ({file}:{})", i.name, i.line))
        .collect();
    let classes: Vec<String> = pfc.keys().map(|k| k.to_string()).collect();
    if on.is_empty() {
        pfc.clear();
        Some(format!(
            "pfc: the network-qos no-drop classes ({}) pause nothing toward the hosts: no host port has `priority-flow-control mode on` ({}; {})",
            classes.join(", "),
            names.join(", "),
            source
        ))
    } else {
        Some(format!(
            "pfc: in force only on the host ports with `priority-flow-control mode on`; off on {} ({})",
            names.join(", "),
            source
        ))
    }
}
