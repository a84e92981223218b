//! What the ends of one link say, port by port: how its cables are
//! bundled (each end's channel-group mode, and whether the ends can form a
//! bundle at all), which VLANs each end allows and carries, its speed,
//! its payload MTU, and what a cabled port without an `interface` stanza
//! is. Split from `links.rs`, which pairs the ends into links and writes
//! them.

use super::*;

/// How the cables of one link are bundled, from the channel-group of
/// every member port that has one, on every end: `static` where all are
/// `mode on`, `lacp` where all negotiate (LACP with at least one `active`
/// end, or PAgP), else `none`, naming every end's line: LACP against
/// `mode on`, or `passive` against `passive` (IEEE 802.1AX: a passive
/// port never starts LACP), forms no bundle, whichever end is read first.
/// `None` where no port states a channel-group. On a multi-chassis link
/// (`multi`), where the format has no `none`, ends that disagree write no
/// mode: the error names them, for the link's comment.
pub(super) fn bundle_mode<'s>(
    ports: impl Iterator<Item = (&'s Switch<'s>, &'s str)>,
    multi: bool,
) -> Result<Option<(&'static str, Prov)>, String> {
    let mut modes: Vec<(LagMode, Prov)> = Vec::new();
    let mut devices: Vec<&str> = Vec::new();
    for (s, p) in ports {
        if let Some(cg) = s.cfg.interface(p).and_then(|i| i.channel_group) {
            modes.push((cg.value.mode, toml::sourced(&s.cfg.file, &cg)));
            if !devices.contains(&s.name.as_str()) {
                devices.push(&s.name);
            }
        }
    }
    let Some((_, first)) = modes.first().cloned() else {
        return Ok(None);
    };
    let all = |f: &dyn Fn(LagMode) -> bool| modes.iter().all(|(m, _)| f(*m));
    if all(&|m| m == LagMode::On) {
        return Ok(Some(("static", first)));
    }
    // Passive alone, on one end only: the other end may start LACP.
    if all(&|m| m == LagMode::Pagp)
        || (all(&|m| matches!(m, LagMode::Active | LagMode::Passive))
            && (devices.len() < 2 || modes.iter().any(|(m, _)| *m == LagMode::Active)))
    {
        return Ok(Some(("lacp", first)));
    }
    let why = if all(&|m| m == LagMode::Passive) {
        "every end LACP passive: no end starts LACP, no bundle forms"
    } else {
        "the ends disagree (LACP against `mode on`, or LACP against PAgP): no bundle forms"
    };
    let mut lines: Vec<Prov> = Vec::new();
    for (_, p) in modes {
        if !lines.contains(&p) {
            lines.push(p);
        }
    }
    let lines = Prov::join(lines, ", ");
    if multi {
        return Err(format!("bundle mode not written: {lines}: {why}"));
    }
    Ok(Some(("none", lines.then(&format!(" ({why})")))))
}

/// `lag_a` / `lag_b` of a link whose ends cannot bundle: every member of
/// the `a` switches states one of LACP (`active` / `passive`), `mode on`
/// and no channel-group (plain ports, `none`), every member of the `b`
/// switches another, each with its lines. `None` where the ends agree, an
/// end mixes modes or runs PAgP, which the format has no word for
/// (`bundle_mode` then tells of it).
pub(super) fn per_end_modes<'s>(
    ports: &[(&'s Switch<'s>, &'s str)],
    is_a: &dyn Fn(&str) -> bool,
) -> Option<[(&'static str, Prov); 2]> {
    let side = |a: bool| -> Option<(&'static str, Prov)> {
        let mut mode = None;
        let mut lines: Vec<Prov> = Vec::new();
        for (s, p) in ports.iter().filter(|(s, _)| is_a(&s.name) == a) {
            let ifc = s.cfg.interface(p);
            let (m, from) = match ifc.and_then(|i| i.channel_group) {
                Some(cg) => (
                    match cg.value.mode {
                        LagMode::On => "static",
                        LagMode::Active | LagMode::Passive => "lacp",
                        LagMode::Pagp => return None,
                    },
                    toml::sourced(&s.cfg.file, &cg),
                ),
                // A plain port: it bundles nothing (IEEE 802.1AX: an LACP
                // partner finds no actor there).
                None => (
                    "none",
                    match ifc {
                        Some(i) => {
                            Prov::note(format!("{}:{}: no channel-group", s.cfg.file, i.line))
                                .with_line(&s.cfg.file, i.line)
                        }
                        None => bare_port(s, p),
                    },
                ),
            };
            if mode.is_some_and(|x| x != m) {
                return None;
            }
            mode = Some(m);
            if !lines.contains(&from) {
                lines.push(from);
            }
        }
        Some((mode?, Prov::join(lines, ", ")))
    };
    let (mut a, mut b) = (side(true)?, side(false)?);
    if a.0 == b.0 {
        return None;
    }
    // Each end's lines first, then the other end's, as related lines: a
    // finding at one end's mode names both ends' channel-group lines.
    let (sa, sb) = (a.1.srcs.clone(), b.1.srcs.clone());
    for (end, other) in [(&mut a.1, sb), (&mut b.1, sa)] {
        for s in other {
            if !end.srcs.contains(&s) {
                end.srcs.push(s);
            }
        }
    }
    Some([a, b])
}

/// Whether this group is the MLAG peer link of its switch.
pub(super) fn is_peer_link(sw: &Switch<'_>, group: &str) -> bool {
    if group == "VLTi" {
        return true;
    }
    let Some(d) = &sw.cfg.mlag else { return false };
    let name = IfName::parse(group);
    d.peer_links.iter().any(|p| Some(&p.value) == name.as_ref())
        || sw
            .cfg
            .interface(group)
            .and_then(|i| i.mc_lag)
            .is_some_and(|m| m.value == McLag::PeerLink)
}

/// The speed a cable runs at: configured on either end (a `speed` line,
/// else an `interface breakout` line), else told by the port's family name.
pub(super) fn speed_of(ends: &[(&Switch<'_>, &str)]) -> Option<(u32, Prov)> {
    for (sw, port) in ends {
        if let Some(i) = sw.cfg.interface(port) {
            if let Some(s) = i.speed {
                if let PortSpeed::Mbps(m) = s.value {
                    return Some((m, toml::sourced(&sw.cfg.file, &s)));
                }
            }
        }
    }
    // A port an `interface breakout` line split runs at its lane speed.
    for (sw, port) in ends {
        if let Some(s) = sw.cfg.breakout_speed(port) {
            return Some((s.value, toml::sourced(&sw.cfg.file, &s)));
        }
    }
    for (sw, port) in ends {
        if let Some(name) = IfName::parse(port) {
            let Some(mbps) = name.family_speed_mbps() else {
                continue;
            };
            let mut from = Prov::note(format!("{}: from the port name {name}", sw.name));
            if let Some(i) = sw.cfg.interface(port) {
                from = from.with_line(&sw.cfg.file, i.line);
            }
            return Some((mbps, from));
        }
    }
    None
}

/// `vlans_a` / `vlans_b` of a link whose ends allow different VLANs: every
/// `a` switch's end alike and every `b` switch's end alike (else the link
/// keeps the VLANs all allow, with a remark), each with its lines.
pub(super) fn per_end_vlans(
    sets: &[(&str, VlanSet, Prov)],
    is_a: &dyn Fn(&str) -> bool,
) -> Option<[(VlanSet, Prov); 2]> {
    let side = |a: bool| -> Option<(VlanSet, Prov)> {
        let of: Vec<&(&str, VlanSet, Prov)> = sets.iter().filter(|e| is_a(e.0) == a).collect();
        let first = of.first()?;
        if of.iter().any(|e| e.1 != first.1) {
            return None;
        }
        let mut from = Prov::join(of.iter().map(|e| e.2.clone()), "; ");
        if of.iter().all(|e| e.2.text == first.2.text) {
            from.text = first.2.text.clone();
        }
        Some((first.1, from))
    };
    let (a, b) = (side(true)?, side(false)?);
    (a.0 != b.0).then_some([a, b])
}

/// A cabled port the config has no `interface` stanza for: the vendor's
/// default port (an access port in VLAN 1 on EOS, IOS, OS10 and a Nexus
/// with layer-2 ports by default; routed on a Nexus 9000 without `system
/// default switchport`), with the default's source.
pub(super) fn bare_port(sw: &Switch<'_>, port: &str) -> Prov {
    let what = match sw.cfg.default_mode.value {
        PortMode::Routed => "a routed port",
        _ => "an access port in VLAN 1",
    };
    Prov::join(
        [
            Prov::note(format!(
                "{} has no `interface {port}` stanza: the vendor default, {what}",
                sw.name
            )),
            toml::sourced(&sw.cfg.file, &sw.cfg.default_mode),
        ],
        "; ",
    )
}

/// The VLANs a group carries, by its mode.
pub(super) fn carried(sw: &Switch<'_>, ifc: &Interface) -> Option<(VlanSet, Prov)> {
    let file = &sw.cfg.file;
    match ifc.mode.value {
        PortMode::Trunk => {
            let a = ifc.allowed_vlans?;
            let mut set = a.value;
            // EOS: a VLAN in trunk groups crosses only trunks of a group.
            for (id, vlan) in &sw.cfg.vlans {
                if !vlan.trunk_groups.is_empty()
                    && !vlan
                        .trunk_groups
                        .iter()
                        .any(|g| ifc.trunk_groups.iter().any(|t| t.value == g.value))
                {
                    set.remove(*id);
                }
            }
            if !ifc.trunk_groups.is_empty() {
                for (id, vlan) in &sw.cfg.vlans {
                    if vlan
                        .trunk_groups
                        .iter()
                        .any(|g| ifc.trunk_groups.iter().any(|t| t.value == g.value))
                    {
                        set.insert(*id);
                    }
                }
            }
            Some((set, toml::sourced(file, &a)))
        }
        PortMode::Access => {
            let v = ifc.access_vlan?;
            let from = toml::sourced(file, &v);
            let from = match crate::design::switches::inferred_mode(file, ifc) {
                Some(mode) => Prov::join([from, mode], "; "),
                None => from,
            };
            Some((VlanSet::single(v.value), from))
        }
        PortMode::Routed | PortMode::Other => None,
    }
}

/// The largest payload a group passes, in the design's meaning of `mtu`.
pub(super) fn payload_mtu(sw: &Switch<'_>, ifc: &Interface) -> Option<(u32, Prov)> {
    let file = &sw.cfg.file;
    match sw.cfg.vendor.spec().mtu {
        Mtu::Payload => {
            let m = ifc.mtu?;
            if m.is_default() {
                if let Some(q) = sw.cfg.mtu.network_qos.values().max_by_key(|s| s.value) {
                    return Some((q.value, toml::sourced(file, q).then(" (network-qos)")));
                }
                if let Some(s) = sw.cfg.mtu.system {
                    return Some((s.value, toml::sourced(file, &s)));
                }
            }
            Some((m.value, toml::sourced(file, &m)))
        }
        Mtu::Frame { overhead } => {
            let m = ifc.mtu?;
            Some((
                m.value.saturating_sub(overhead),
                toml::sourced(file, &m).then(&format!(" (frame size {} less {overhead})", m.value)),
            ))
        }
        Mtu::Layer3 { l2_overhead, .. } => {
            let m = ifc.l2_mtu?;
            Some((
                m.value.saturating_sub(l2_overhead),
                toml::sourced(file, &m).then(&format!(" (l2 mtu {} less {l2_overhead})", m.value)),
            ))
        }
    }
}
