//! Cisco IOS-XE on Catalyst switches (9000 series syntax).
//!
//! Catalyst has no multi-chassis LAG domain (StackWise Virtual makes two
//! switches one), and netlint writes no Catalyst PFC / ETS nor a stack's
//! one config yet: a design with any of them is refused (`refuse`). The
//! switch MTU is `system mtu` (the payload).

use crate::plan::{
    channel_group, cisco_switchport_vlans, interface_head, sorted_ports, switch_vlans, Mode,
    SwitchOut, L2,
};
use crate::{stp, Vendor};
use netlint_model::{Design, SwitchId};

/// The body of the config of switch `id` (below the header).
pub(crate) fn body(d: &Design, id: SwitchId, out: &mut SwitchOut) -> Vec<String> {
    let v = Vendor::Ios;
    let s = d.switch(id);
    let mut body: Vec<String> = Vec::new();
    body.push(format!("hostname {}", s.name));
    let payload = s.mtu.payload;
    if payload != 1500 {
        body.push(format!("system mtu {payload}"));
    }
    let vlans = switch_vlans(d, s);
    stp::stp(d, v, s, &vlans, &mut body, &mut out.notes);
    for vid in &vlans {
        if *vid == 1 {
            continue;
        }
        body.push(format!("vlan {vid}"));
        if let Some(n) = d.networks.iter().find(|n| n.vlan_id() == Some(*vid)) {
            body.push(format!(" name {}", n.name));
        }
    }
    for p in &sorted_ports(out) {
        interface_head(p, " ", &mut body);
        if let Some(m) = p.speed {
            body.push(format!(" speed {m}"));
        }
        match &p.mode {
            Mode::Routed => body.push(" no switchport".to_string()),
            Mode::L2(l2) => {
                l2_lines(l2, &mut body);
                body.extend(crate::stp_cost_line(p, l2, " "));
            }
        }
        if let Some((n, active)) = p.channel {
            body.push(channel_group(n, active, " "));
        }
        body.push(" no shutdown".to_string());
    }
    body
}

fn l2_lines(l2: &L2, body: &mut Vec<String>) {
    cisco_switchport_vlans(l2, " ", body);
    if let Some(m) = l2.mtu {
        body.push(format!(" mtu {m}"));
    }
    if l2.edge {
        body.push(if l2.access.is_some() {
            " spanning-tree portfast edge".to_string()
        } else {
            " spanning-tree portfast edge trunk".to_string()
        });
    }
    if l2.bpdu_guard {
        body.push(" spanning-tree bpduguard enable".to_string());
    }
}
