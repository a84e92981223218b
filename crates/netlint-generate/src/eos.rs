//! Arista EOS.

use crate::plan::{
    channel_group, cisco_switchport_vlans, interface_head, sorted_ports, switch_ets, switch_pfc,
    switch_vlans, vlan_lines, McRole, Mode, SwitchOut, L2,
};
use crate::{stp, Vendor};
use netlint_model::{Design, Switch, SwitchId};
use std::collections::{BTreeMap, BTreeSet};

/// The body of the config of switch `id` (below the header).
pub(crate) fn body(d: &Design, id: SwitchId, out: &mut SwitchOut) -> Vec<String> {
    let v = Vendor::Eos;
    let s = d.switch(id);
    let mut body: Vec<String> = Vec::new();
    body.push(format!("hostname {}", s.name));
    let vlans = switch_vlans(d, s);
    vlan_lines(d, &vlans, &mut body);
    stp::stp(d, v, s, &vlans, &mut body, &mut out.notes);
    let payload = s.mtu.payload;
    let ets = ets_maps(s, &mut body);
    let ports = sorted_ports(out);
    // A switch with no switchport has no `l2 mtu` to carry its MTU: its
    // packets are routed, limited by the layer-3 `mtu` (EOS default 1500),
    // which `interface defaults` sets for every routed port.
    if payload != 1500 && !ports.iter().any(|p| matches!(p.mode, Mode::L2(_))) {
        body.push("interface defaults".to_string());
        body.push(format!("  mtu {payload}"));
    }
    for p in &ports {
        interface_head(p, "  ", &mut body);
        if let Some(m) = p.speed {
            body.push(if m >= 1000 && m % 1000 == 0 {
                format!("  speed forced {}gfull", m / 1000)
            } else {
                format!("  speed forced {m}full")
            });
        }
        match &p.mode {
            Mode::Routed => body.push("  no switchport".to_string()),
            Mode::L2(l2) => {
                l2_lines(l2, payload, &mut body);
                // A port cost under MST is refused on EOS (`refuse`).
                body.extend(crate::stp_cost_line(p, l2, "  "));
                if !p.name.to_ascii_lowercase().starts_with("port-channel") {
                    tx_queue_lines(&ets, &mut body);
                }
            }
        }
        if let Some((n, active)) = p.channel {
            body.push(channel_group(n, active, "  "));
        }
        if let Some(McRole::Member(n)) = p.mc {
            body.push(format!("  mlag {n}"));
        }
        body.push("  no shutdown".to_string());
    }
    if let Some(m) = &s.mlag {
        body.push("mlag configuration".to_string());
        body.push(format!("  domain-id {}", m.value));
        if let Some(pl) = &out.peer_link {
            body.push(format!("  peer-link {pl}"));
        }
        out.notes.push(
            "MLAG local-interface and peer-address (the design states no addresses): not generated"
                .to_string(),
        );
    }
    body
}

/// The ETS shares of `s` (`dcb.ets`), as transmit queues: each priority
/// the design names (in `ets` or `pfc`) its own traffic class and queue,
/// numbered as the priority, every other priority one shared class and
/// queue, the lowest number left (`qos map cos LIST to traffic-class T`,
/// `qos map traffic-class T to tx-queue T`: written whole, since their
/// defaults vary by platform). Returns each queue's share: the design's,
/// and the shared queue what is left.
fn ets_maps(s: &Switch, body: &mut Vec<String>) -> BTreeMap<u8, u32> {
    let mut shares = switch_ets(s);
    if shares.is_empty() {
        return shares;
    }
    let own: BTreeSet<u8> = switch_pfc(s)
        .into_iter()
        .chain(shares.keys().copied())
        .collect();
    let rest: Vec<u8> = (0..8).filter(|c| !own.contains(c)).collect();
    if let Some(shared) = rest.first().copied() {
        let list: Vec<String> = rest.iter().map(u8::to_string).collect();
        body.push(format!(
            "qos map cos {} to traffic-class {shared}",
            list.join(" ")
        ));
        let used: u32 = shares.values().sum();
        // A shared queue of one priority would read back as that
        // priority's own share, which the design does not state.
        if used < 100 && rest.len() > 1 {
            shares.insert(shared, 100 - used);
        }
    }
    for c in &own {
        body.push(format!("qos map cos {c} to traffic-class {c}"));
    }
    let queues: BTreeSet<u8> = own.iter().copied().chain(rest.first().copied()).collect();
    for q in queues {
        body.push(format!("qos map traffic-class {q} to tx-queue {q}"));
    }
    shares
}

/// A layer-2 port's transmit queues: round robin (`no priority`), each
/// with its share.
fn tx_queue_lines(shares: &BTreeMap<u8, u32>, body: &mut Vec<String>) {
    for (q, share) in shares {
        body.push(format!("  tx-queue {q}"));
        body.push("    no priority".to_string());
        body.push(format!("    bandwidth percent {share}"));
    }
}

fn l2_lines(l2: &L2, switch_payload: u32, body: &mut Vec<String>) {
    cisco_switchport_vlans(l2, "  ", body);
    // EOS `mtu` is layer 3: switched frames are limited by `l2 mtu`, the
    // frame with its 18-byte Ethernet header and FCS.
    body.push(format!(
        "  l2 mtu {}",
        l2.mtu.unwrap_or(switch_payload) + 18
    ));
    if l2.edge {
        body.push("  spanning-tree portfast".to_string());
    }
    if l2.bpdu_guard {
        body.push("  spanning-tree bpduguard enable".to_string());
    }
    if !l2.pfc.is_empty() {
        body.push("  priority-flow-control on".to_string());
        for p in &l2.pfc {
            body.push(format!("  priority-flow-control priority {p} no-drop"));
        }
    }
}
