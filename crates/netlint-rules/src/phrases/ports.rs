//! The words of switch ports: which port a host NIC is cabled to, why it
//! drops a network's frames (`PortDrop`), and which VLAN a host's frames
//! land in (`l2::ports`).

use netlint_model::{Design, HostId, HostPortView, NicIdx, PortDrop, Span};

/// "port `Ethernet1/5` of `tor-a`", or "its port on `tor-a`" for a NIC
/// without a configured port (the switch's `host_ports`).
pub fn port_name(design: &Design, host: HostId, nic: NicIdx) -> String {
    let n = design.host(host).nic(nic);
    match HostPortView::of(design, n) {
        Some(HostPortView {
            switch,
            port: Some(p),
        }) => format!("port `{}` of `{}`", p.name, switch.name),
        Some(HostPortView { switch, .. }) => format!("its port on `{}`", switch.name),
        None => "its port".to_string(),
    }
}

/// "VLAN 20", or "untagged traffic" for the design's untagged segment.
pub fn landing_words(vlan: Option<u16>) -> String {
    match vlan {
        Some(v) => format!("VLAN {v}"),
        None => "the switch's default native VLAN (no `native_vlan` stated)".to_string(),
    }
}

/// Why the port drops the network's frames, as a clause after the port's
/// name ("port `Ethernet1/5` of `tor-a` does not allow VLAN 711"), the
/// line to fix, and how.
pub struct DropWords {
    pub clause: String,
    pub span: Span,
    pub help: String,
}

pub fn drop_words(
    design: &Design,
    host: HostId,
    nic: NicIdx,
    vlan: Option<u16>,
    why: PortDrop,
) -> DropWords {
    let n = design.host(host).nic(nic);
    let Some(view) = HostPortView::of(design, n) else {
        return DropWords {
            clause: "drops its frames".to_string(),
            span: n.span,
            help: "cable the NIC to a switch port that carries the network".to_string(),
        };
    };
    let span = view.deciding_span(vlan);
    let (table, port) = match view.port {
        Some(p) => (
            format!("port `{}` of switch `{}`", p.name, view.switch.name),
            Some(p),
        ),
        None => (
            format!("`host_ports` of switch `{}`", view.switch.name),
            None,
        ),
    };
    let native = view.native_vlan().map(|n| n.value);
    let access = port.and_then(|p| p.access_vlan.as_ref()).map(|a| a.value);
    let (clause, help) = match (why, vlan) {
        (PortDrop::NotAllowed, Some(v)) => (
            format!("does not allow VLAN {v}"),
            format!("add {v} to `vlans` of {table} (`switchport trunk allowed vlan add {v}`)"),
        ),
        (PortDrop::NotAllowed, None) => {
            let nv = native.unwrap_or_default();
            (
                format!("does not allow its native VLAN {nv}, which the NIC's untagged frames belong to"),
                format!("add {nv} to `vlans` of {table}"),
            )
        }
        (PortDrop::Access, v) => {
            let v = v.unwrap_or_default();
            (
                format!(
                    "is an access port in VLAN {}, which drops the NIC's frames tagged {v}",
                    access.unwrap_or_default()
                ),
                format!("make {table} a trunk that allows VLAN {v} (`vlans`, without `access_vlan`), or send the network untagged"),
            )
        }
        (PortDrop::NativeTagged, v) => {
            let v = v.unwrap_or_default();
            (
                format!("has VLAN {v} as its native VLAN and sends it untagged, so the host's interface tagged {v} never receives it"),
                format!("give {table} another `native_vlan` (or tag the native VLAN on the switch: `vlan dot1q tag native`), or send the network untagged on the host"),
            )
        }
    };
    DropWords { clause, span, help }
}

/// One clause for a reachability break at a host's switch port (the
/// `PortDrops` and `VlansApart` breaks), as the graph and topology views
/// print them; `None` for other breaks.
pub fn port_break_text(
    design: &Design,
    br: &netlint_analysis::Break,
    vlan: Option<u16>,
) -> Option<String> {
    use netlint_analysis::Break;
    let nic = |h: HostId, n: NicIdx| {
        format!(
            "{}:{} on {}",
            design.host(h).name,
            design.host(h).nic(n).name,
            port_name(design, h, n)
        )
    };
    Some(match br {
        Break::PortDrops {
            host, nic: n, why, ..
        } => format!(
            "{}, which {}",
            nic(*host, *n),
            drop_words(design, *host, *n, vlan, *why).clause
        ),
        Break::VlansApart { a, b } => format!(
            "{} lands in {}, {} in {}",
            nic(a.host, a.nic),
            landing_words(a.vlan),
            nic(b.host, b.nic),
            landing_words(b.vlan)
        ),
        _ => return None,
    })
}

/// The fix of a failure finding whose reason is a host's switch port (a
/// standby NIC whose port drops the network, or puts it in another VLAN):
/// the port, not a second path. `None` when the group's reason is another.
pub fn port_loss_help(
    design: &Design,
    loss: &netlint_analysis::failure::Loss,
    group: &super::failure::LossGroup,
) -> Option<String> {
    use netlint_analysis::failure::CarrierLoss;
    let host = *group.hosts.first()?;
    let hl = loss.hosts.iter().find(|h| h.host == host)?;
    hl.carriers.iter().find_map(|c| {
        let vlan = design.network(c.network).vlan_id();
        let (nic, help) = match &c.loss {
            CarrierLoss::PortDrops { nic, why, .. } => {
                (*nic, drop_words(design, host, *nic, vlan, *why).help)
            }
            CarrierLoss::VlanMoved { nic, from, .. } => {
                let to = match from {
                    Some(v) => format!("`native_vlan = {v}`"),
                    None => "no `native_vlan` (the switch's default)".to_string(),
                };
                (
                    *nic,
                    format!(
                        "give {} the native VLAN the other hosts' ports have ({to}), so that the NIC that takes over lands where its team's other members do",
                        port_name(design, host, *nic)
                    ),
                )
            }
            _ => return None,
        };
        let n = design.host(host).nic(nic);
        let span = HostPortView::of(design, n)?.deciding_span(vlan);
        (span == group.why.span).then_some(help)
    })
}
