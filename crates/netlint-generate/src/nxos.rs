//! Cisco NX-OS (Nexus 9000 syntax).

use crate::plan::{channel_group, cisco_switchport_vlans, interface_head, sorted_ports};
use crate::plan::{
    domain_id, switch_ets, switch_pfc, switch_vlans, vlan_lines, McRole, Mode, SwitchOut, L2,
};
use crate::{stp, Vendor};
use netlint_model::{Design, SwitchId};
use std::collections::BTreeSet;

const NQ_POLICY: &str = "netlint-nq";
const QOS_POLICY: &str = "netlint-qos";
const QUEUING_POLICY: &str = "netlint-out";

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
    let ets = switch_ets(s);
    // Each priority the design gives PFC or an ETS share is classified
    // into the qos-group numbered as itself, which the system classes
    // `c-8q-nqN` (network-qos) and `c-out-8q-qN` (queuing) serve: without
    // the `type qos` classification every frame stays in qos-group 0 and
    // neither the pause nor the share reaches it (Cisco Nexus 9000 Series
    // NX-OS Quality of Service Configuration Guide, "Using Modular QoS
    // CLI": type qos policies set the qos-groups that drive the
    // system-defined network-qos and queuing classes; Microsoft's Azure
    // Local NX-OS ToR reference config: `class-map type qos match-all
    // RDMA` / `match cos 3`, `set qos-group 3`, `policy-map type queuing`
    // with `c-out-8q-q3` / `bandwidth remaining percent 50`).
    let classified: BTreeSet<u8> = pfc
        .iter()
        .copied()
        .chain(ets.keys().copied())
        .filter(|c| *c != 0)
        .collect();
    if payload != 1500 || !pfc.is_empty() {
        body.push(format!("policy-map type network-qos {NQ_POLICY}"));
        for cos in &pfc {
            body.push(format!("  class type network-qos c-8q-nq{cos}"));
            body.push(format!("    pause pfc-cos {cos}"));
            body.push(format!("    mtu {payload}"));
        }
        body.push("  class type network-qos c-8q-nq-default".to_string());
        body.push(format!("    mtu {payload}"));
    }
    for cos in &classified {
        body.push(format!("class-map type qos match-all netlint-cos{cos}"));
        body.push(format!("  match cos {cos}"));
    }
    if !classified.is_empty() {
        body.push(format!("policy-map type qos {QOS_POLICY}"));
        for cos in &classified {
            body.push(format!("  class netlint-cos{cos}"));
            body.push(format!("    set qos-group {cos}"));
        }
    }
    if !ets.is_empty() {
        body.push(format!("policy-map type queuing {QUEUING_POLICY}"));
        for (cos, share) in ets.iter().filter(|(c, _)| **c != 0) {
            body.push(format!("  class type queuing c-out-8q-q{cos}"));
            body.push(format!("    bandwidth remaining percent {share}"));
        }
        // The default queue (qos-group 0, every priority not classified)
        // keeps the design's share of priority 0, else what is left.
        let stated: u32 = ets.values().sum();
        let default = ets
            .get(&0)
            .copied()
            .or((stated < 100).then(|| 100 - stated));
        if let Some(share) = default {
            body.push("  class type queuing c-out-8q-q-default".to_string());
            body.push(format!("    bandwidth remaining percent {share}"));
        }
    }
    if payload != 1500 || !pfc.is_empty() || !ets.is_empty() {
        body.push("system qos".to_string());
        if !ets.is_empty() {
            body.push(format!(
                "  service-policy type queuing output {QUEUING_POLICY}"
            ));
        }
        if payload != 1500 || !pfc.is_empty() {
            body.push(format!("  service-policy type network-qos {NQ_POLICY}"));
        }
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
            Mode::L2(l2) => {
                l2_lines(l2, &mut body);
                body.extend(crate::stp_cost_line(p, l2, "  "));
                // The classification on every layer-2 port that is no
                // port-channel member: a member takes its channel's
                // (Cisco Nexus 9000 QoS guide, "Attaching and Detaching a
                // QoS Policy Action": a policy attached to a port channel
                // takes effect even when policies are attached to member
                // ports).
                if !classified.is_empty() && p.channel.is_none() {
                    body.push(format!("  service-policy type qos input {QOS_POLICY}"));
                }
            }
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
