//! Cisco IOS-XE on Catalyst switches (9000 series syntax).
//!
//! Catalyst has no multi-chassis LAG domain (StackWise Virtual makes two
//! switches one), and netlint writes no Catalyst PFC / ETS yet: a design
//! with either is refused (`refuse`). The switch MTU is `system mtu` (the
//! payload). A stack is one config for all its members
//! ([`stack_config`]): `switch N provision TYPE` per member, the ports of
//! member N numbered `<type>N/0/<port>`, the switch-wide settings once.

use crate::plan::{
    channel_group, cisco_switchport_vlans, interface_head, sorted_ports, switch_vlans, Mode,
    SwitchOut, L2,
};
use crate::refuse::Stack;
use crate::{stp, Vendor};
use netlint_model::ifname::port_key;
use netlint_model::{Design, Switch, SwitchId};

/// The body of the config of switch `id` (below the header).
pub(crate) fn body(d: &Design, id: SwitchId, out: &mut SwitchOut) -> Vec<String> {
    let s = d.switch(id);
    let mut body: Vec<String> = vec![format!("hostname {}", s.name)];
    body.extend(switch_wide(d, s, &mut out.notes));
    interfaces(out, &mut body);
    body
}

/// The config of a stack: one file for its members, named `name` (its
/// hostname). Member N is the stack's N-th switch in the design; its
/// `model`, when one word (a Catalyst switch type such as `c9300-48p`),
/// is written as `switch N provision TYPE` (Cisco Catalyst 3750 Switch
/// Command Reference, `switch provision`: the provisioned configuration
/// appears in the stack's running configuration); else the line is left
/// to the stack, which creates it when the member joins (Cisco Catalyst
/// 2975 Software Configuration Guide, "Stack Offline Configuration"), and
/// the header says so. The switch-wide settings are the first member's;
/// a member whose own differ is a note.
pub(crate) fn stack_config(d: &Design, st: &Stack, name: &str, outs: &mut [SwitchOut]) -> String {
    let first = d.switch(st.members[0]);
    let mut merged = SwitchOut::new();
    let mut body: Vec<String> = vec![format!("hostname {name}")];
    let mut unprovisioned = Vec::new();
    for (k, m) in st.members.iter().enumerate() {
        let s = d.switch(*m);
        match s.model.as_ref().map(|x| x.value.trim()) {
            Some(t) if !t.is_empty() && !t.contains(char::is_whitespace) => {
                body.push(format!("switch {} provision {t}", k + 1))
            }
            _ => unprovisioned.push(format!("{} ({})", k + 1, s.name)),
        }
    }
    if !unprovisioned.is_empty() {
        merged.notes.push(format!(
            "`switch N provision TYPE` of member(s) {}: the design's `model` is no one-word Catalyst switch type; the stack writes the line when the member joins",
            unprovisioned.join(", ")
        ));
    }
    // A member with neither a provision line nor a port leaves no trace
    // in the config: read back, the stack lacks it.
    let traceless: Vec<&str> = st
        .members
        .iter()
        .enumerate()
        .filter(|(k, m)| {
            unprovisioned
                .iter()
                .any(|u| u.starts_with(&format!("{} (", k + 1)))
                && outs[m.0].ports.is_empty()
        })
        .map(|(_, m)| d.switch(*m).name.as_str())
        .collect();
    if !traceless.is_empty() {
        merged.notes.push(format!(
            "{}: no port and no `switch N provision` line in this config, so nothing in it tells of the member (give it a one-word `model`, its Catalyst switch type)",
            traceless.join(", ")
        ));
    }
    let wide = switch_wide(d, first, &mut merged.notes);
    for m in st.members.iter().skip(1) {
        let s = d.switch(*m);
        if switch_wide(d, s, &mut Vec::new()) != wide {
            merged.notes.push(format!(
                "{}'s switch-wide settings (spanning tree, VLANs, MTU) differ from {}'s: a stack has one set, written as {}'s",
                s.name, first.name, first.name
            ));
        }
    }
    body.extend(wide);
    for (k, m) in st.members.iter().enumerate() {
        let out = &mut outs[m.0];
        for n in &out.notes {
            merged
                .notes
                .push(format!("member {} ({}): {n}", k + 1, d.switch(*m).name));
        }
        merged.numbered.extend(out.numbered.iter().cloned());
        for p in &out.ports {
            // A port-channel across members is one interface of the stack.
            if !merged
                .ports
                .iter()
                .any(|q| port_key(&q.name) == port_key(&p.name))
            {
                merged.ports.push(p.clone());
            }
        }
    }
    // A port the design names on a member but numbers on another
    // (`GigabitEthernet1/0/5` on member 2) is that other member's in the
    // stack's config.
    for (k, m) in st.members.iter().enumerate() {
        for p in &outs[m.0].ports {
            if let Some(on) = catalyst_member(&p.name).filter(|on| *on != k as u32 + 1) {
                merged.notes.push(format!(
                    "{} names port {} of member {} ({}): its number puts it on member {on}, whose port it is in this config",
                    d.switch(*m).name,
                    p.name,
                    k + 1,
                    d.switch(*m).name
                ));
            }
        }
    }
    interfaces(&merged, &mut body);
    crate::with_header(d, Vendor::Ios, name, &merged, body)
}

/// The stack member a Catalyst port name is numbered on: the first of
/// its three numbers (`GigabitEthernet2/0/1`: member 2).
fn catalyst_member(name: &str) -> Option<u32> {
    let digits = name.find(|c: char| c.is_ascii_digit())?;
    if name[..digits]
        .to_ascii_lowercase()
        .starts_with("port-channel")
    {
        return None;
    }
    let parts: Vec<&str> = name[digits..].split('/').collect();
    (parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())))
    .then(|| parts[0].parse().ok())
    .flatten()
}

/// What a switch (a stack) sets once: MTU, spanning tree, VLANs.
fn switch_wide(d: &Design, s: &Switch, notes: &mut Vec<String>) -> Vec<String> {
    let v = Vendor::Ios;
    let mut body: Vec<String> = Vec::new();
    let payload = s.mtu.payload;
    if payload != 1500 {
        body.push(format!("system mtu {payload}"));
    }
    let vlans = switch_vlans(d, s);
    stp::stp(d, v, s, &vlans, &mut body, notes);
    for vid in &vlans {
        if *vid == 1 {
            continue;
        }
        body.push(format!("vlan {vid}"));
        if let Some(n) = d.networks.iter().find(|n| n.vlan_id() == Some(*vid)) {
            body.push(format!(" name {}", n.name));
        }
    }
    body
}

/// The interfaces, in port order.
fn interfaces(out: &SwitchOut, body: &mut Vec<String>) {
    for p in &sorted_ports(out) {
        interface_head(p, " ", body);
        if let Some(m) = p.speed {
            body.push(format!(" speed {m}"));
        }
        match &p.mode {
            Mode::Routed => body.push(" no switchport".to_string()),
            Mode::L2(l2) => {
                l2_lines(l2, body);
                body.extend(crate::stp_cost_line(p, l2, " "));
            }
        }
        if let Some((n, active)) = p.channel {
            body.push(channel_group(n, active, " "));
        }
        body.push(" no shutdown".to_string());
    }
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
