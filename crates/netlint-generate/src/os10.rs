//! Dell SmartFabric OS10.
//!
//! OS10 differs from the Cisco-like dialects in what a line means more
//! than in its words: `interface vlanN` defines VLAN N (named by its
//! `description`); a trunk carries only the VLANs its `switchport trunk
//! allowed vlan` lines add, and its untagged VLAN is its `switchport
//! access vlan`; `mtu` counts the whole frame (the payload and 18 bytes of
//! Ethernet header and FCS); the VLT interconnect is physical ports the
//! `vlt-domain` names (`discovery-interface`), not a port-channel; PFC
//! pauses only on ports with `priority-flow-control mode on` and the
//! network-qos policy applied.

use crate::plan::{
    channel_group, domain_id, interface_head, sorted_ports, switch_ets, switch_pfc, switch_vlans,
    vlan_list, McRole, Mode, Port, SwitchOut, L2,
};
use crate::{stp, Vendor};
use netlint_model::{Design, Switch, SwitchId};
use std::collections::BTreeSet;

/// The OS10 frame overhead `mtu` counts on top of the payload.
const OVERHEAD: u32 = 18;
/// The ` mtu N` line of a port whose payload is `payload`: the frame.
/// OS10's `mtu` takes 1280 to 65535 bytes, the platform's largest frame
/// at most (9216 on an S4000-ON): a design over its switch model's limit
/// is `mtu-switch-model-limit`'s to report, not this writer's to change.
fn mtu_line(payload: u32) -> String {
    format!(" mtu {}", payload + OVERHEAD)
}

const NQ_POLICY: &str = "netlint-pfc";
const QUEUING_POLICY: &str = "netlint-ets";
const DOT1P_MAP: &str = "netlint-dot1p";
const TC_MAP: &str = "netlint-tc";

/// The body of the config of switch `id` (below the header).
pub(crate) fn body(d: &Design, id: SwitchId, out: &mut SwitchOut) -> Vec<String> {
    let v = Vendor::Os10;
    let s = d.switch(id);
    let mut body: Vec<String> = Vec::new();
    body.push(format!("hostname {}", s.name));
    let vlans = switch_vlans(d, s);
    stp::stp(d, v, s, &vlans, &mut body, &mut out.notes);
    let dcb = qos(s, &mut body);
    // VLANs: an interface each, named by its description.
    for vid in &vlans {
        if *vid == 1 {
            continue;
        }
        body.push(format!("interface vlan{vid}"));
        if let Some(n) = d.networks.iter().find(|n| n.vlan_id() == Some(*vid)) {
            body.push(format!(" description {}", n.name));
        }
        body.push(" no shutdown".to_string());
    }
    // The VLT interconnect: the peer link's physical ports.
    let vlt = s.mlag.is_some();
    let mut vlti: Vec<String> = Vec::new();
    let payload = s.mtu.payload;
    // OS10 writes `stp` as RSTP (noted in the spanning-tree section).
    let rstp = matches!(
        s.stp.mode.value,
        netlint_model::StpMode::Rstp | netlint_model::StpMode::Stp
    );
    for p in &sorted_ports(out) {
        let is_channel = p.name.to_ascii_lowercase().starts_with("port-channel");
        if vlt && p.peer && is_channel {
            continue;
        }
        interface_head(p, " ", &mut body);
        body.push(" no shutdown".to_string());
        if vlt && p.peer {
            vlti.push(p.name.clone());
            body.push(" no switchport".to_string());
            body.push(mtu_line(payload));
        } else if let Some((n, active)) = p.channel {
            // A member: its port-channel carries the layer-2 settings.
            body.push(channel_group(n, active, " "));
            body.push(" no switchport".to_string());
            let mtu = match &p.mode {
                Mode::L2(l2) => l2.mtu.unwrap_or(payload),
                Mode::Routed => payload,
            };
            body.push(mtu_line(mtu));
        } else {
            match &p.mode {
                Mode::Routed => {
                    body.push(" no switchport".to_string());
                    body.push(mtu_line(payload));
                }
                Mode::L2(l2) => {
                    l2_lines(p, l2, payload, &vlans, &mut body, &mut out.notes);
                    // Dell SmartFabric OS10 User Guide 10.5, RSTP "Interface
                    // parameters": `spanning-tree rstp cost N`.
                    match (l2.stp_cost, p.channel) {
                        (Some(c), None) if rstp => body.push(format!(" spanning-tree rstp cost {c}")),
                        (Some(c), None) => out.notes.push(format!(
                            "{}: spanning-tree port cost {c}: OS10 has it per mode (`rstp cost` under RSTP); not generated under {}",
                            p.name, s.stp.mode.value
                        )),
                        _ => {}
                    }
                    // MST commands: `spanning-tree msti N cost C`.
                    if p.channel.is_none() {
                        for (k, c) in &l2.mst_cost {
                            body.push(format!(" spanning-tree msti {k} cost {c}"));
                        }
                    }
                }
            }
        }
        if let Some(m) = p.speed {
            body.push(format!(" speed {m}"));
        }
        if let Some(McRole::Member(n)) = p.mc {
            body.push(format!(" vlt-port-channel {n}"));
        }
        // DCB on the physical ports.
        if let (false, Mode::L2(l2)) = (is_channel, &p.mode) {
            if !(vlt && p.peer) {
                dcb_lines(&dcb, l2, &mut body);
            }
        }
    }
    if let Some(m) = &s.mlag {
        let mut n = domain_id(d, &m.value);
        if !(1..=255).contains(&n) {
            n = 1;
        }
        body.push(format!("vlt-domain {n}"));
        for p in &vlti {
            body.push(format!(" discovery-interface {}", p.to_ascii_lowercase()));
        }
        out.notes.push(
            "VLT backup destination (the design states no addresses): not generated".to_string(),
        );
    }
    body
}

/// What the QoS blocks define, for the ports' lines.
struct Dcb {
    pfc: Vec<u8>,
    ets: bool,
}

/// The QoS maps and policies of `s`'s PFC priorities and ETS shares:
/// each stated priority its own qos-group and queue (the group and the
/// queue numbered as the priority), every other priority one shared
/// group and queue, the lowest number left.
fn qos(s: &Switch, body: &mut Vec<String>) -> Dcb {
    let pfc = switch_pfc(s);
    let ets = switch_ets(s);
    let own: BTreeSet<u8> = pfc.iter().copied().chain(ets.keys().copied()).collect();
    if own.is_empty() {
        return Dcb { pfc, ets: false };
    }
    let rest: BTreeSet<u8> = (0..8).filter(|c| !own.contains(c)).collect();
    let shared = rest.first().copied();
    for c in &pfc {
        body.push(format!("class-map type network-qos netlint-pfc{c}"));
        body.push(format!(" match qos-group {c}"));
    }
    for c in ets.keys() {
        body.push(format!("class-map type queuing netlint-q{c}"));
        body.push(format!(" match queue {c}"));
    }
    body.push(format!("trust dot1p-map {DOT1P_MAP}"));
    if let Some(g) = shared {
        body.push(format!(" qos-group {g} dot1p {}", small_list(&rest)));
    }
    for c in &own {
        body.push(format!(" qos-group {c} dot1p {c}"));
    }
    body.push(format!("qos-map traffic-class {TC_MAP}"));
    let mut queues: Vec<u8> = own.iter().copied().chain(shared).collect();
    queues.sort();
    for q in queues {
        body.push(format!(" queue {q} qos-group {q}"));
    }
    if !pfc.is_empty() {
        body.push(format!("policy-map type network-qos {NQ_POLICY}"));
        for c in &pfc {
            body.push(format!(" class netlint-pfc{c}"));
            body.push("  pause".to_string());
            body.push(format!("  pfc-cos {c}"));
        }
    }
    if !ets.is_empty() {
        body.push(format!("policy-map type queuing {QUEUING_POLICY}"));
        for (c, share) in &ets {
            body.push(format!(" class netlint-q{c}"));
            body.push(format!("  bandwidth percent {share}"));
        }
    }
    body.push("system qos".to_string());
    body.push(format!(" trust-map dot1p {DOT1P_MAP}"));
    body.push(format!(" qos-map traffic-class {TC_MAP}"));
    if !ets.is_empty() {
        body.push(format!(
            " service-policy output type queuing {QUEUING_POLICY}"
        ));
    }
    Dcb {
        pfc,
        ets: !ets.is_empty(),
    }
}

/// `0-2,4,6-7`: the priorities of a dot1p map line.
fn small_list(set: &BTreeSet<u8>) -> String {
    let wide: BTreeSet<u16> = set.iter().map(|c| u16::from(*c)).collect();
    vlan_list(&wide)
}

/// PFC and ETS on a physical port that carries the switch's PFC.
fn dcb_lines(dcb: &Dcb, l2: &L2, body: &mut Vec<String>) {
    if !l2.pfc.is_empty() && !dcb.pfc.is_empty() {
        body.push(" priority-flow-control mode on".to_string());
        body.push(format!(
            " service-policy input type network-qos {NQ_POLICY}"
        ));
        if dcb.ets {
            body.push(" ets mode on".to_string());
        }
    }
}

fn l2_lines(
    p: &Port,
    l2: &L2,
    payload: u32,
    vlans: &BTreeSet<u16>,
    body: &mut Vec<String>,
    notes: &mut Vec<String>,
) {
    match l2.access {
        Some(a) => {
            body.push(" switchport mode access".to_string());
            body.push(format!(" switchport access vlan {a}"));
        }
        None => {
            body.push(" switchport mode trunk".to_string());
            let native = l2.native.unwrap_or(1);
            if native != 1 {
                body.push(format!(" switchport access vlan {native}"));
            }
            // Only the VLANs listed cross: "every VLAN" is the switch's.
            let mut tagged: BTreeSet<u16> = match &l2.allowed {
                Some(a) => a.clone(),
                None => vlans.clone(),
            };
            tagged.remove(&native);
            if native != 1 && tagged.remove(&1) {
                notes.push(format!(
                    "{}: VLAN 1 tagged beside untagged VLAN {native}: OS10 carries VLAN 1 untagged only (not generated)",
                    p.name
                ));
            }
            if !tagged.is_empty() {
                body.push(format!(
                    " switchport trunk allowed vlan {}",
                    vlan_list(&tagged)
                ));
            }
        }
    }
    body.push(mtu_line(l2.mtu.unwrap_or(payload)));
    if l2.edge {
        body.push(" spanning-tree port type edge".to_string());
    }
    if l2.bpdu_guard {
        body.push(" spanning-tree bpduguard enable".to_string());
    }
}
