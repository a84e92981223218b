//! Cisco NX-OS (Nexus 9000 syntax).

use crate::plan::{channel_group, cisco_switchport_vlans, interface_head, sorted_ports};
use crate::plan::{domain_id, switch_pfc, switch_vlans, vlan_lines, McRole, Mode, SwitchOut, L2};
use crate::{stp, Vendor};
use netlint_model::{Design, SwitchId};

/// The body of the config of switch `id` (below the header).
pub(crate) fn body(d: &Design, id: SwitchId, out: &mut SwitchOut) -> Vec<String> {
    let v = Vendor::NxOs;
    let s = d.switch(id);
    let mut body: Vec<String> = Vec::new();
    body.push(format!("hostname {}", s.name));
    body.push("feature lacp".to_string());
    body.push("system default switchport".to_string());
    body.push("feature lldp".to_string());
    if s.mlag.is_some() {
        body.push("feature vpc".to_string());
    }
    let vlans = switch_vlans(d, s);
    vlan_lines(d, &vlans, &mut body);
    stp::stp(d, v, s, &vlans, &mut body, &mut out.notes);
    let payload = s.mtu.payload;
    let pfc = switch_pfc(s);
    if s.dcb.as_ref().is_some_and(|x| x.ets.is_some()) {
        out.notes
            .push("ETS bandwidth shares (`dcb.ets`): not generated".to_string());
    }
    if payload != 1500 || !pfc.is_empty() {
        body.push("policy-map type network-qos netlint-nq".to_string());
        for cos in &pfc {
            body.push(format!("  class type network-qos c-8q-nq{cos}"));
            body.push(format!("    pause pfc-cos {cos}"));
            body.push(format!("    mtu {payload}"));
        }
        body.push("  class type network-qos c-8q-nq-default".to_string());
        body.push(format!("    mtu {payload}"));
        body.push("system qos".to_string());
        body.push("  service-policy type network-qos netlint-nq".to_string());
    }
    // vPC domain, before the interfaces that name it.
    if let Some(m) = &s.mlag {
        body.push(format!("vpc domain {}", domain_id(d, &m.value)));
        if s.stp.peer_switch.as_ref().is_none_or(|p| p.value) {
            body.push("  peer-switch".to_string());
        }
        out.notes
            .push("vPC peer-keepalive (the design states no addresses): not generated".to_string());
    }
    for p in &sorted_ports(out) {
        interface_head(p, "  ", &mut body);
        if let Some(m) = p.speed {
            body.push(format!("  speed {m}"));
        }
        match &p.mode {
            Mode::Routed => body.push("  no switchport".to_string()),
            Mode::L2(l2) => l2_lines(l2, &mut body),
        }
        if let Some((n, active)) = p.channel {
            body.push(channel_group(n, active, "  "));
        }
        match p.mc {
            Some(McRole::PeerLink) => body.push("  vpc peer-link".to_string()),
            Some(McRole::Member(n)) => body.push(format!("  vpc {n}")),
            None => {}
        }
        body.push("  no shutdown".to_string());
    }
    body
}

fn l2_lines(l2: &L2, body: &mut Vec<String>) {
    body.push("  switchport".to_string());
    cisco_switchport_vlans(l2, "  ", body);
    if let Some(m) = l2.mtu {
        body.push(format!("  mtu {m}"));
    }
    if l2.edge {
        body.push(if l2.access.is_some() {
            "  spanning-tree port type edge".to_string()
        } else {
            "  spanning-tree port type edge trunk".to_string()
        });
    }
    if l2.bpdu_guard {
        body.push("  spanning-tree bpduguard enable".to_string());
    }
    if !l2.pfc.is_empty() {
        body.push("  priority-flow-control mode on".to_string());
    }
}
