//! `[switches.NAME]`: VLANs, MTU, MLAG domain, host ports, spanning tree
//! and PFC of one switch.

use std::collections::BTreeMap;

use super::cables::Cable;
use super::links::domain_name;
use super::toml::{self, Prov, Writer};
use super::{At, Note, Switch};
use crate::config::vendors::Pfc;
use crate::defaults;
use crate::model::*;
use crate::names::IfName;
use crate::vlans::VlanSet;
use dcb::write_dcb;
use netlint_model::units::{MAX_FRAME, MAX_MTU, MIN_MTU};
use stp::write_stp;

mod dcb;
mod stp;

/// The host-facing ports of each switch ([`host_ports`]).
pub(crate) struct HostPorts<'a> {
    /// Per switch, the interfaces facing something that is not an
    /// imported switch (a host or an unmanaged device): the port-channel
    /// when the port is a LAG member.
    pub ports: Vec<Vec<&'a Interface>>,
    /// Per switch, by interface, the lines that tied a port to a host
    /// outside the cabling (vSphere CDP / LLDP hints).
    pub hinted: Vec<Vec<(IfName, At)>>,
    /// Per switch, the interfaces that face hosts by their configuration
    /// alone (configured as edge ports, no cable or hint to a host), with
    /// the line (or global default) that makes each an edge port.
    pub configured: Vec<Vec<(IfName, Prov)>>,
    /// Per switch, the ports cabled to a host that the config has no
    /// `interface` stanza for, with the cable's line: the vendor's default
    /// port ([`SwitchConfig::default_port`]), never `host_ports`' (issue 31
    /// item 6).
    pub bare: Vec<Vec<(IfName, At)>>,
}

/// Per switch, the interfaces facing something that is not an imported
/// switch: those cabled to one, those `extra` ties to hosts outside the
/// cabling (vSphere CDP / LLDP hints), and those configured as edge ports
/// (`spanning-tree port type edge [trunk]`, `portfast`, or the global
/// default that reaches the port's mode): a port is host-facing because
/// its config says it is an edge port, never because of its description
/// (issue 31 item 2). A port toward a switch (an imported one, or one the
/// cabling or LLDP shows), a peer link and their port-channels never are.
pub(crate) fn host_ports<'a>(
    switches: &[Switch<'a>],
    by_name: &BTreeMap<String, usize>,
    cables: &[Cable],
    extra: &[super::HostPort],
) -> HostPorts<'a> {
    let mut out: Vec<Vec<&'a Interface>> = vec![Vec::new(); switches.len()];
    let mut hinted: Vec<Vec<(IfName, At)>> = vec![Vec::new(); switches.len()];
    let mut configured: Vec<Vec<(IfName, Prov)>> = vec![Vec::new(); switches.len()];
    let mut bare: Vec<Vec<(IfName, At)>> = vec![Vec::new(); switches.len()];
    // Ports toward a switch, by switch: never host ports.
    let mut to_switch: Vec<Vec<IfName>> = vec![Vec::new(); switches.len()];
    let lag_of = |cfg: &'a SwitchConfig, port: &'a Interface| -> &'a Interface {
        port.channel_group
            .and_then(|cg| cfg.interface(&format!("Port-Channel{}", cg.value.id)))
            .unwrap_or(port)
    };
    for c in cables {
        for (near, far) in [(&c.a, &c.b), (&c.b, &c.a)] {
            let Some(s) = by_name.get(&near.device) else {
                continue;
            };
            let cfg = switches[*s].cfg;
            // A far port named like a switch interface is a switch that
            // was not imported (an uplink), not a host.
            let far_is_switch = by_name.contains_key(&far.device)
                || c.stated_switch(far)
                    .unwrap_or_else(|| IfName::parse_switch_port(&far.port).is_some());
            let Some(port) = cfg.interface(&near.port) else {
                // A host on a port no stanza configures: the vendor's
                // default port.
                let name = IfName::parse(&near.port)
                    .filter(|n| n.kind() == crate::names::IfKind::Ethernet);
                if let Some(name) = name.filter(|_| !far_is_switch) {
                    if !bare[*s].iter().any(|(n, _)| *n == name) {
                        bare[*s].push((name, c.at.clone()));
                    }
                }
                continue;
            };
            let ifc = lag_of(cfg, port);
            if far_is_switch {
                to_switch[*s].push(port.name.clone());
                to_switch[*s].push(ifc.name.clone());
                continue;
            }
            if !out[*s].iter().any(|i| i.name == ifc.name) {
                out[*s].push(ifc);
            }
        }
    }
    for h in extra {
        let Some(s) = by_name.get(&h.switch) else {
            continue;
        };
        let cfg = switches[*s].cfg;
        let Some(port) = cfg.interface(&h.port) else {
            continue;
        };
        let ifc = lag_of(cfg, port);
        if !out[*s].iter().any(|i| i.name == ifc.name) {
            out[*s].push(ifc);
        }
        if !hinted[*s].iter().any(|(n, a)| *n == ifc.name && *a == h.at) {
            hinted[*s].push((ifc.name.clone(), h.at.clone()));
        }
    }
    for (s, sw) in switches.iter().enumerate() {
        let cfg = sw.cfg;
        let peer_lag = |i: &Interface| {
            i.mc_lag.is_some_and(|m| m.value == McLag::PeerLink)
                || cfg
                    .mlag
                    .as_ref()
                    .is_some_and(|d| d.peer_links.iter().any(|p| p.value == i.name))
        };
        for port in &cfg.interfaces {
            let ifc = lag_of(cfg, port);
            let l2 = |i: &Interface| {
                matches!(i.mode.value, PortMode::Access | PortMode::Trunk)
                    && matches!(
                        i.name.kind(),
                        crate::names::IfKind::Ethernet | crate::names::IfKind::PortChannel(_)
                    )
                    && i.shutdown.is_none_or(|d| !d.value)
            };
            if !l2(port) || !l2(ifc) || peer_lag(port) || peer_lag(ifc) {
                continue;
            }
            if [&port.name, &ifc.name]
                .iter()
                .any(|n| to_switch[s].contains(n))
            {
                continue;
            }
            // Spanning tree runs on the port-channel, not on its members:
            // its edge setting decides (a member's own defaults do not
            // make an uplink port-channel host-facing).
            let Some(from) = edge_by_config(cfg, ifc) else {
                continue;
            };
            if out[s].iter().any(|i| i.name == ifc.name) {
                continue;
            }
            out[s].push(ifc);
            configured[s].push((ifc.name.clone(), from));
        }
    }
    HostPorts {
        ports: out,
        hinted,
        configured,
        bare,
    }
}

/// The line that configures `i` as an edge port: its own edge line
/// (`... edge`, `... edge trunk`, `portfast`), or the global edge default
/// that reaches its mode when the port's own lines make it a switchport
/// of that mode (a port no line configures is left out: nothing says it
/// faces anything). A plain edge line on a trunk where the vendor takes
/// `edge trunk` still says the port faces a host, though it is no edge
/// port ([`port_edge`] writes `edge = false` and why). `None` when nothing
/// configures it as an edge port.
fn edge_by_config(cfg: &SwitchConfig, i: &Interface) -> Option<Prov> {
    let file = cfg.file.as_str();
    match i.stp.edge {
        Some(e) => match e.value {
            EdgeMode::Edge | EdgeMode::EdgeTrunk => Some(toml::sourced(file, &e)),
            EdgeMode::Network | EdgeMode::Normal => None,
        },
        None => {
            let (edge, from) = port_edge(cfg, i);
            let stated = i.mode.is_configured() || i.access_vlan.is_some_and(|a| a.is_configured());
            (edge && stated).then(|| from.then(" (the switch's edge default)"))
        }
    }
}

fn stp_mode(m: StpMode) -> &'static str {
    match m {
        StpMode::Pvst => "pvst",
        StpMode::RapidPvst => "rapid-pvst",
        StpMode::Mst => "mstp",
        StpMode::Rstp => "rstp",
        StpMode::Stp => "stp",
        StpMode::None => "none",
    }
}

pub(crate) fn write(
    out: &mut Writer,
    sw: &Switch<'_>,
    hosts: &[&Interface],
    hinted: &[(IfName, At)],
    configured: &[(IfName, Prov)],
    bare: &[(IfName, At)],
    notes: &mut Vec<Note>,
) {
    let cfg = sw.cfg;
    let file = cfg.file.as_str();
    let at = |line: u32| At {
        file: file.to_string(),
        line,
    };
    // Host ports without a stanza, as the vendor leaves them. A routed
    // one carries no network of the host; the format has no routed host
    // port, so it is said, not written.
    let mut defaults: Vec<Interface> = Vec::new();
    let mut cabled_at: Vec<(IfName, At)> = Vec::new();
    for (name, cable) in bare {
        notes.push(Note::UnknownPort {
            switch: sw.name.clone(),
            port: name.to_string(),
            at: cable.clone(),
        });
        let port = cfg.default_port(name.clone());
        if port.mode.value == PortMode::Access {
            defaults.push(port);
            cabled_at.push((name.clone(), cable.clone()));
        } else {
            notes.push(Note::WaitsForV2 {
                what: "a host on a routed port",
                detail: format!(
                    "{} {name} has no stanza and the switch's ports are routed by default ({}): no layer-2 network reaches the host there; the port is not written",
                    sw.name,
                    toml::sourced(file, &cfg.default_mode)
                ),
                at: cable.clone(),
            });
        }
    }
    let hosts: Vec<&Interface> = hosts.iter().copied().chain(&defaults).collect();
    let hosts = hosts.as_slice();
    out.blank();
    let hostname_from = match &cfg.hostname {
        Some(h) => toml::sourced(file, h),
        None => Prov::note(format!("{file}: no hostname, named after the file")),
    };
    out.table(&format!("switches.{}", toml::key(&sw.name)), &hostname_from);
    // An inferred name (a stack member's) says `inferred from ...` itself.
    let from = match &cfg.hostname {
        Some(h) if h.is_inferred() => "",
        _ => "from ",
    };
    out.comment(&format!(
        "{} ({:?}), name {from}{hostname_from}",
        sw.name, cfg.vendor
    ));
    if !cfg.vlans.is_empty() {
        let mut set = VlanSet::EMPTY;
        let mut lines: Vec<u32> = Vec::new();
        for (id, v) in &cfg.vlans {
            set.insert(*id);
            if !lines.contains(&v.line) {
                lines.push(v.line);
            }
        }
        let from = lines
            .iter()
            .map(|l| l.to_string())
            .collect::<Vec<_>>()
            .join(",");
        let mut from = Prov::note(format!("{file}:{from}"));
        for l in &lines {
            from = from.with_line(file, *l);
        }
        // Their names are the networks' (`[networks.NAME]`, networks.rs).
        out.value("vlans", &toml::vlan_list(&set), &from);
    }
    let payload = write_mtu(out, sw, notes);
    if let Some(st) = &cfg.stack {
        // The member's `switch N provision` line (or first port) and the
        // hostname: the stack is the config's, this switch one member.
        let mut from = Prov::line(file, st.line);
        if let Some(l) = cfg.hostname.as_ref().and_then(|h| match h.origin {
            crate::model::Origin::Inferred { from, .. } => {
                from.kept().iter().copied().find(|x| *x != st.line)
            }
            _ => None,
        }) {
            from = from.with_line(file, l);
        }
        let from = from.then(&format!(": member {} of the stack's one config", st.member));
        out.value("stack", &toml::string(&st.name), &from);
    }
    if let (Some(name), Some(d)) = (domain_name(cfg), &cfg.mlag) {
        out.value("mlag", &toml::string(&name), &Prov::line(file, d.line));
        if d.kind == MlagKind::Vpc && d.peer_switch.is_none_or(|p| !p.value) {
            notes.push(Note::WaitsForV2 {
                what: "vPC without peer-switch",
                detail: format!("{}: the vPC peers send BPDUs as two bridges", sw.name),
                at: at(d.line),
            });
        }
    }
    let mut common = None;
    if !hosts.is_empty() {
        // What most host ports have (a tie: false, what every port then
        // does not have); a port that differs gets its own value
        // (`write_ports`).
        let most = |f: &dyn Fn(&Interface) -> bool| {
            let yes = hosts.iter().filter(|i| f(i)).count();
            yes * 2 > hosts.len()
        };
        let edge = most(&|i| port_edge(cfg, i).0);
        let guard = most(&|i| port_guard(cfg, i).0);
        common = Some((edge, guard));
        let names: Vec<String> = hosts
            .iter()
            .map(|i| {
                let ties: Vec<String> = hinted
                    .iter()
                    .filter(|(n, _)| *n == i.name)
                    .map(|(_, a)| format!("{}:{}", a.file, a.line))
                    .collect();
                if let Some((_, cable)) = cabled_at.iter().find(|(n, _)| *n == i.name) {
                    format!(
                        "{} (no stanza: the vendor's default port, cabled at {cable})",
                        i.name
                    )
                } else if let Some((_, edge)) = configured.iter().find(|(n, _)| *n == i.name) {
                    format!(
                        "{} ({file}:{}; configured as an edge port: {edge})",
                        i.name, i.line
                    )
                } else if ties.is_empty() {
                    format!("{} ({file}:{})", i.name, i.line)
                } else {
                    format!(
                        "{} ({file}:{}; CDP / LLDP hint {})",
                        i.name,
                        i.line,
                        ties.join(", ")
                    )
                }
            })
            .collect();
        let cabled = hosts.len() > configured.len();
        let lead = match (cabled, hinted.is_empty(), configured.is_empty()) {
            (_, true, true) => "from the ports cabled to hosts",
            (_, false, true) => {
                "from the ports facing hosts (cabled, or named by a host NIC's CDP / LLDP hint)"
            }
            (false, _, false) => {
                "from the ports configured as edge ports (host-facing by their configuration)"
            }
            (true, true, false) => {
                "from the ports facing hosts (cabled to hosts, or configured as edge ports)"
            }
            (true, false, false) => {
                "from the ports facing hosts (cabled, named by a host NIC's CDP / LLDP hint, or configured as edge ports)"
            }
        };
        let mut from = Prov::note(format!("{lead}: {}", names.join(", ")));
        for i in hosts.iter().filter(|i| i.line > 0) {
            from = from.with_line(file, i.line);
        }
        for (_, a) in hinted {
            from = from.with_line(&a.file, a.line);
        }
        for (_, edge) in configured {
            for src in &edge.srcs {
                if !from.srcs.contains(src) {
                    from.srcs.push(src.clone());
                }
            }
        }
        out.value(
            "host_ports",
            &format!("{{ edge = {edge}, bpdu_guard = {guard} }}"),
            &from,
        );
    }
    write_stp(out, sw, notes);
    let pfc_per_port = write_dcb(out, sw, hosts);
    if let Some(common) = common {
        let ctx = PortsCtx {
            bare: &cabled_at,
            common,
            switch_payload: payload,
            pfc_per_port,
        };
        write_ports(out, sw, hosts, &ctx, notes);
    }
}

/// The payload a port's own MTU line gives (the design's meaning of
/// `mtu`), where the port states one, as its vendor's spec says `mtu`
/// counts: NX-OS and IOS `mtu` (the payload), OS10 `mtu` (a frame size,
/// less its overhead), EOS `l2 mtu` (less its overhead; EOS `mtu` is
/// layer 3). As stated: the caller checks it against the format's range.
fn port_own_mtu(sw: &Switch<'_>, ifc: &Interface) -> Option<(u32, Prov)> {
    use crate::config::vendors::Mtu;
    let file = sw.cfg.file.as_str();
    let (m, less) = match sw.cfg.vendor.spec().mtu {
        Mtu::Payload => (ifc.mtu?, 0),
        Mtu::Frame { overhead } => (ifc.mtu?, overhead),
        Mtu::Layer3 { l2_overhead, .. } => (ifc.l2_mtu?, l2_overhead),
    };
    if m.is_default() {
        return None;
    }
    let payload = m.value.saturating_sub(less);
    let from = if less > 0 {
        toml::sourced(file, &m).then(&format!(" ({} less {less})", m.value))
    } else {
        toml::sourced(file, &m)
    };
    Some((payload, from))
}

/// `access mode inferred from tor1.cfg:12: <why>` when no line states a
/// port's mode: the comment and sources a value that rests on the mode
/// (its access VLAN, the VLANs a link carries) adds.
pub(crate) fn inferred_mode(file: &str, ifc: &Interface) -> Option<Prov> {
    if !ifc.mode.is_inferred() {
        return None;
    }
    let mut p = toml::sourced(file, &ifc.mode);
    let mode = match ifc.mode.value {
        PortMode::Access => "access",
        PortMode::Trunk => "trunk",
        PortMode::Routed => "routed",
        PortMode::Other => "port",
    };
    p.text = format!("{mode} mode {}", p.text);
    Some(p)
}

/// Whether a host-facing port is an edge port, and the line (or global
/// default) that makes it one or not. Where the vendor's plain edge line
/// reaches access ports only ([`crate::config::vendors::Edge::AccessOnly`], NX-OS and IOS), a
/// trunk with a plain `spanning-tree port type edge` / `portfast` is no
/// edge port (it takes `... edge trunk`), and the plain global default
/// does not reach it (`... edge trunk default` does).
fn port_edge(cfg: &SwitchConfig, i: &Interface) -> (bool, Prov) {
    let file = cfg.file.as_str();
    let rule = cfg.vendor.spec().edge;
    let trunk_apart = i.mode.value == PortMode::Trunk && !rule.plain_reaches_trunks();
    // The vendor's rule, as a cited default among the value's sources.
    let cite = |mut p: Prov| {
        let src = super::Src::Default {
            file: file.to_string(),
            source: rule.source(),
        };
        if !p.srcs.contains(&src) {
            p.srcs.push(src);
        }
        p
    };
    match i.stp.edge {
        Some(e) => match e.value {
            EdgeMode::Edge if trunk_apart => (
                false,
                cite(toml::sourced(file, &e).then(&format!(
                    ": a plain edge line has no effect on a trunk, which takes `edge trunk` ({})",
                    rule.source()
                ))),
            ),
            EdgeMode::Edge | EdgeMode::EdgeTrunk => (true, toml::sourced(file, &e)),
            EdgeMode::Network | EdgeMode::Normal => (false, toml::sourced(file, &e)),
        },
        None => {
            let d = if trunk_apart {
                cfg.stp.edge_trunk_default
            } else {
                cfg.stp.edge_default
            };
            match (d, cfg.stp.edge_default) {
                (Some(d), _) => (d.value, toml::sourced(file, &d)),
                (None, Some(plain)) if trunk_apart && plain.value => (
                    false,
                    cite(
                        Prov::note("no edge setting")
                            .with_line(file, i.line)
                            .then(&format!(
                                "; the edge default ({}) reaches access ports only ({})",
                                toml::sourced(file, &plain),
                                rule.source()
                            ))
                            .with_line(file, plain.line().unwrap_or(i.line)),
                    ),
                ),
                (None, _) => (false, Prov::note("no edge setting").with_line(file, i.line)),
            }
        }
    }
}

/// Whether a host-facing port has BPDU guard, and the line that says so.
fn port_guard(cfg: &SwitchConfig, i: &Interface) -> (bool, Prov) {
    let file = cfg.file.as_str();
    match i.stp.bpdu_guard {
        Some(g) => (g.value, toml::sourced(file, &g)),
        None => {
            let (is_edge, from) = port_edge(cfg, i);
            match cfg.stp.bpdu_guard_default {
                Some(d) if is_edge => (d.value, toml::sourced(file, &d)),
                _ => (false, from),
            }
        }
    }
}

/// `[switches.X.ports."NAME"]` for each host-facing port (its
/// port-channel when it is a LAG member) that differs from what the
/// switch's `host_ports` and VLANs say: its allowed, native or access
/// VLAN, edge and BPDU guard, and the LAG it is.
/// What `write_ports` compares each port with.
struct PortsCtx<'a> {
    /// Host ports without a stanza, with the cable's line.
    bare: &'a [(IfName, At)],
    /// `host_ports`' edge and BPDU guard.
    common: (bool, bool),
    switch_payload: Option<u32>,
    /// PFC is in force per port and the switch's `pfc` is written: the
    /// vendor rule's source.
    pfc_per_port: Option<&'static str>,
}

fn write_ports(
    out: &mut Writer,
    sw: &Switch<'_>,
    hosts: &[&Interface],
    ctx: &PortsCtx<'_>,
    notes: &mut Vec<Note>,
) {
    let PortsCtx {
        bare,
        common,
        switch_payload,
        pfc_per_port,
    } = *ctx;
    let cfg = sw.cfg;
    let file = cfg.file.as_str();
    let mut defined = VlanSet::EMPTY;
    for id in cfg.vlans.keys() {
        defined.insert(*id);
    }
    let mut ports: Vec<&&Interface> = hosts.iter().collect();
    ports.sort_by_key(|p| p.line);
    for ifc in ports {
        let mut values: Vec<(&str, String, Prov)> = Vec::new();
        let cable = bare.iter().find(|(n, _)| *n == ifc.name).map(|(_, c)| c);
        match ifc.mode.value {
            // No stanza: the vendor's default access port, written as such
            // (a port without `access_vlan` or `vlans` would carry every
            // VLAN of the switch).
            PortMode::Access if cable.is_some() => {
                let from = Prov::join(
                    [
                        Prov::note(format!(
                            "no `interface {}` stanza: the vendor default, an access port in VLAN 1",
                            ifc.name
                        )),
                        toml::sourced(file, &ifc.mode),
                    ],
                    "; ",
                );
                values.push(("access_vlan", "1".to_string(), from));
            }
            PortMode::Trunk => {
                let mut allowed = ifc.allowed_vlans.filter(|a| !a.is_default());
                // OS10 lists the tagged VLANs only; the untagged one
                // (`switchport access vlan` on a trunk) crosses too.
                if let (true, Some(a), Some(n)) = (
                    cfg.vendor.spec().trunk.untagged_apart(),
                    &mut allowed,
                    ifc.native_vlan,
                ) {
                    a.value.insert(n.value);
                }
                if let Some(a) = allowed {
                    if cfg.vlans.is_empty() || a.value.intersection(&defined) != defined {
                        values.push(("vlans", toml::vlan_list(&a.value), toml::sourced(file, &a)));
                    }
                }
                if let Some(n) = ifc.native_vlan.filter(|n| !n.is_default() && n.value != 1) {
                    // The format wants a native VLAN among the allowed ones.
                    let allowed_set = allowed.map(|a| a.value);
                    if allowed_set.is_none_or(|set| set.contains(n.value)) {
                        values.push(("native_vlan", n.value.to_string(), toml::sourced(file, &n)));
                    } else {
                        out.comment(&format!(
                            "{}: native VLAN {} ({}) is not among its allowed VLANs; not written",
                            ifc.name,
                            n.value,
                            toml::sourced(file, &n)
                        ));
                    }
                }
            }
            PortMode::Access
                if ifc.mode.is_configured() || ifc.access_vlan.is_some_and(|a| !a.is_default()) =>
            {
                let (v, from) = match ifc.access_vlan {
                    Some(a) => (a.value, toml::sourced(file, &a)),
                    None => (1, toml::sourced(file, &ifc.mode).then(", VLAN 1")),
                };
                let from = match inferred_mode(file, ifc) {
                    Some(mode) => Prov::join([from, mode], "; "),
                    None => from,
                };
                values.push(("access_vlan", v.to_string(), from));
            }
            _ => {}
        }
        // A port's own MTU where it states one the switch's line does not
        // give (EOS `l2 mtu 1518` on a host port of a jumbo switch).
        // One the format cannot hold is not written (the port then runs
        // its switch's), and said.
        if let Some((m, from)) = port_own_mtu(sw, ifc) {
            if Some(m) == switch_payload {
            } else if (MIN_MTU..=MAX_MTU).contains(&m) {
                values.push(("mtu", m.to_string(), from));
            } else {
                notes.push(Note::MtuOutOfRange {
                    what: format!("switch {} port {}", sw.name, ifc.name),
                    stated: format!("mtu {m} ({from})"),
                    then: "`mtu` not written: the port is taken to run its switch's MTU"
                        .to_string(),
                    at: first_at(&from, file, ifc.line),
                });
            }
        }
        let (edge, from) = port_edge(cfg, ifc);
        if edge != common.0 {
            values.push(("edge", edge.to_string(), from));
        }
        let (guard, from) = port_guard(cfg, ifc);
        if guard != common.1 {
            values.push(("bpdu_guard", guard.to_string(), from));
        }
        // PFC off at a host port of a switch whose PFC is in force per port
        // (OS10 without `priority-flow-control mode on`).
        if let Some(source) = pfc_per_port.filter(|_| !dcb::port_pfc_on(cfg, ifc)) {
            let mut from = if ifc.line > 0 {
                Prov::note(format!(
                    "{file}:{}: no `priority-flow-control mode on`",
                    ifc.line
                ))
                .with_line(file, ifc.line)
            } else {
                Prov::note("no stanza, so no `priority-flow-control mode on`")
            };
            from.srcs.push(super::Src::Default {
                file: file.to_string(),
                source,
            });
            values.push(("pfc", "false".to_string(), from));
        }
        if let crate::names::IfKind::PortChannel(n) = ifc.name.kind() {
            let member = cfg
                .interfaces
                .iter()
                .filter_map(|i| i.channel_group)
                .find(|cg| cg.value.id == n);
            if let Some(cg) = member {
                let mode = match cg.value.mode {
                    LagMode::On => "static",
                    _ => "lacp",
                };
                values.push(("lag", toml::string(mode), toml::sourced(file, &cg)));
            }
        }
        if values.is_empty() {
            continue;
        }
        out.blank();
        let header = match cable {
            Some(c) => Prov::line(&c.file, c.line),
            None => Prov::line(file, ifc.line),
        };
        out.table(
            &format!(
                "switches.{}.ports.{}",
                toml::key(&sw.name),
                toml::string(ifc.name.as_str())
            ),
            &header,
        );
        for (k, v, from) in values {
            out.value(k, &v, &from);
        }
    }
}

/// The input line a value's provenance names first; `line` of `file`
/// when it names none.
fn first_at(from: &Prov, file: &str, line: u32) -> At {
    from.srcs
        .iter()
        .find_map(|s| s.at())
        .cloned()
        .unwrap_or_else(|| At {
            file: file.to_string(),
            line,
        })
}

/// Why a switch MTU above the format's range is written as its largest.
const ABOVE_FORMAT: &str =
    "the config states more than the design format's largest: the switch carries that largest";

/// Writes the switch's `mtu` (`frame` false, 576 to 9216) or `frame_size`
/// (`frame`, 594 to 9238) as the config states it. A value the format
/// cannot hold is never changed silently: above the largest, the largest
/// is written marked inferred (the switch carries every packet the format
/// can state) and noted; below the smallest, nothing is written (any
/// number would claim packets the switch drops), a comment and a note say
/// so.
fn put_mtu(
    out: &mut Writer,
    sw: &Switch<'_>,
    frame: bool,
    value: u32,
    from: Prov,
    notes: &mut Vec<Note>,
) {
    let (key, lo, hi) = if frame {
        ("frame_size", MIN_MTU + 18, MAX_FRAME)
    } else {
        ("mtu", MIN_MTU, MAX_MTU)
    };
    if (lo..=hi).contains(&value) {
        out.value(key, &value.to_string(), &from);
        return;
    }
    let at = first_at(&from, &sw.cfg.file, 1);
    let stated = format!("{key} {value} ({from})");
    let then = if value > hi {
        let detail =
            format!("{key} {value} is more than the design format takes; the switch carries {hi}");
        out.value(key, &hi.to_string(), &from.inferred(ABOVE_FORMAT, &detail));
        format!("written as `{key} = {hi}`, marked inferred: the switch carries every packet the format can state")
    } else {
        out.comment(&format!(
            "{key}: {value} ({from}) is less than the design format takes ({lo}): not written"
        ));
        format!("`{key}` not written: the switch carries less than the format can state, and the design's default (MTU 1500) overstates it")
    };
    notes.push(Note::MtuOutOfRange {
        what: format!("switch {}", sw.name),
        stated,
        then,
        at,
    });
}

/// Writes the switch's MTU line; returns the largest payload the config
/// states (the design's meaning of `mtu`; as stated, also where the
/// format cannot hold it), `None` where it states none and the format's
/// default applies.
fn write_mtu(out: &mut Writer, sw: &Switch<'_>, notes: &mut Vec<Note>) -> Option<u32> {
    let cfg = sw.cfg;
    let file = cfg.file.as_str();
    let l2 = |i: &&Interface| {
        matches!(i.mode.value, PortMode::Access | PortMode::Trunk)
            && matches!(
                i.name.kind(),
                crate::names::IfKind::Ethernet | crate::names::IfKind::PortChannel(_)
            )
    };
    let stated_max = |f: fn(&Interface) -> Option<Sourced<u32>>| {
        cfg.interfaces
            .iter()
            .filter(l2)
            .filter_map(f)
            .filter(|m| !m.is_default())
            .max_by_key(|m| m.value)
    };
    match cfg.vendor {
        Vendor::NxOs | Vendor::Ios => {
            let pick = cfg
                .mtu
                .network_qos
                .values()
                .max_by_key(|m| m.value)
                .map(|m| (m.value, toml::sourced(file, m).then(" (network-qos)")))
                .or_else(|| cfg.mtu.system.map(|m| (m.value, toml::sourced(file, &m))))
                .or_else(|| {
                    stated_max(|i| i.mtu).map(|m| {
                        (
                            m.value,
                            toml::sourced(file, &m).then(", the largest port MTU"),
                        )
                    })
                });
            match pick {
                Some((m, from)) => {
                    put_mtu(out, sw, false, m, from, notes);
                    Some(m)
                }
                None => {
                    out.comment("mtu: not configured, the vendor default 1500 applies");
                    None
                }
            }
        }
        // The VLT interconnect's ports are `no switchport`, yet they switch
        // the frames of every VLAN between the peers: their `mtu` counts
        // as a switchport's.
        Vendor::Os10 => match stated_max(|i| i.mtu)
            .into_iter()
            .chain(
                cfg.interfaces
                    .iter()
                    .filter(|i| {
                        cfg.mlag
                            .as_ref()
                            .is_some_and(|d| d.peer_links.iter().any(|p| p.value == i.name))
                    })
                    .filter_map(|i| i.mtu)
                    .filter(|m| !m.is_default()),
            )
            .max_by_key(|m| m.value)
        {
            Some(m) => {
                let from = toml::sourced(file, &m)
                    .then(", the largest port MTU (OS10 counts the Ethernet header)");
                put_mtu(out, sw, true, m.value, from, notes);
                Some(m.value.saturating_sub(18))
            }
            None => {
                out.comment("frame_size: not configured, the OS10 default 1532 applies");
                None
            }
        },
        // EOS `mtu` is layer 3: switched frames are limited by `l2 mtu`,
        // jumbo on a port that states none. The switch takes the largest
        // frame of its switchports, the vendor default among them unless
        // every one states its own; a port below it gets its own `mtu`
        // (`write_ports`).
        Vendor::Eos => {
            // A switch with no switchport switches no frame: `l2 mtu` and
            // its default reach nothing. Its packets are routed, limited
            // by the routed ports' `mtu` (the layer-3 MTU, EOS default
            // 1500).
            if !cfg.interfaces.iter().any(|i| l2(&i)) {
                let routed = |i: &&Interface| {
                    i.mode.value == PortMode::Routed
                        && matches!(
                            i.name.kind(),
                            crate::names::IfKind::Ethernet | crate::names::IfKind::PortChannel(_)
                        )
                };
                let stated = cfg
                    .interfaces
                    .iter()
                    .filter(routed)
                    .filter_map(|i| i.mtu)
                    .filter(|m| !m.is_default())
                    .map(|m| (m, ", the largest routed-port `mtu` (no switchport)"))
                    .chain(cfg.mtu.system.map(|m| {
                        (
                            m,
                            " (`interface defaults`: every routed port; no switchport)",
                        )
                    }))
                    .max_by_key(|(m, _)| m.value);
                return match stated {
                    Some((m, why)) => {
                        let from = toml::sourced(file, &m).then(why);
                        put_mtu(out, sw, false, m.value, from, notes);
                        Some(m.value)
                    }
                    None => {
                        out.comment("mtu: no switchport, and no line sets the layer-3 `mtu`: the EOS default 1500 applies");
                        None
                    }
                };
            }
            let stated = stated_max(|i| i.l2_mtu);
            // A port-channel's members take its `l2 mtu`.
            let every_port_states = cfg
                .interfaces
                .iter()
                .filter(l2)
                .filter(|i| i.channel_group.is_none())
                .all(|i| i.l2_mtu.is_some_and(|m| !m.is_default()));
            match stated {
                Some(m) if every_port_states || m.value > defaults::EOS_L2_FRAME => {
                    let from = toml::sourced(file, &m).then(", the largest `l2 mtu`");
                    put_mtu(out, sw, true, m.value, from, notes);
                    Some(m.value.saturating_sub(18))
                }
                _ => {
                    let d = Sourced::default_from(defaults::EOS_L2_FRAME, defaults::EOS_L2_MTU);
                    out.value(
                        "frame_size",
                        &d.value.to_string(),
                        &toml::sourced(file, &d).then(" (a switchport without `l2 mtu`)"),
                    );
                    Some(d.value - 18)
                }
            }
        }
    }
}
