//! Arista EOS.

use crate::plan::{
    channel_group, cisco_switchport_vlans, interface_head, sorted_ports, switch_vlans, vlan_lines,
    McRole, Mode, SwitchOut, L2,
};
use crate::{stp, Vendor};
use netlint_model::{Design, SwitchId};

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
    if s.dcb.as_ref().is_some_and(|x| x.ets.is_some()) {
        out.notes
            .push("ETS bandwidth shares (`dcb.ets`): not generated".to_string());
    }
    for p in &sorted_ports(out) {
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
                body.extend(crate::stp_cost_line(p, l2, "  "));
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
