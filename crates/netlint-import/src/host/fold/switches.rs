//! A Hyper-V host's LBFO teams, external virtual switches and the vNICs
//! on them (host vNICs sharing a VLAN and subnet are one network).

use std::collections::BTreeMap;

use crate::design::toml::{string, Prov};

use super::super::facts::*;
use super::{lba_text, list, Ctx, Host, NoteKind};

/// Writes `teams.<name>` of every LBFO team the collection knows members
/// of.
pub(super) fn teams(c: &mut Ctx<'_>, a: &Host<'_>) {
    let h = c.h;
    let Host {
        cluster_nets,
        on_adapter,
        nic_names,
        ..
    } = a;
    // LBFO teams.
    for tm in h.lbfo_teams.iter().flatten() {
        if nic_names.contains(tm.name.as_str()) {
            c.note(tm.line, NoteKind::Unknown, format!("team {} has the name of a physical adapter of Get-NetAdapter: the design names each once, so the team is not written", tm.name));
            continue;
        }
        let t = ["teams", tm.name.as_str()];
        let members: Vec<String> = tm
            .members
            .value
            .iter()
            .filter(|m| nic_names.contains(m.as_str()))
            .cloned()
            .collect();
        for m in &tm.members.value {
            if !nic_names.contains(m.as_str()) {
                c.note(
                    tm.line,
                    NoteKind::Unknown,
                    format!(
                        "team {}: member {m} is no physical adapter of Get-NetAdapter: left out",
                        tm.name
                    ),
                );
            }
        }
        if members.is_empty() {
            c.note(
                tm.line,
                NoteKind::Unknown,
                format!(
                    "team {} has no member the collection knows: not written",
                    tm.name
                ),
            );
            continue;
        }
        c.put(
            &t,
            "kind",
            string("lbfo"),
            Prov::line(&h.file, tm.line).then(" (Get-NetLbfoTeam)"),
        );
        let at = c.src(&tm.members);
        c.put(&t, "members", list(&members), at);
        if let Some(m) = &tm.mode {
            let v = match m.value {
                TeamingMode::Static => "static",
                TeamingMode::SwitchIndependent => "switch-independent",
                TeamingMode::Lacp => "lacp",
            };
            let at = c.src(m);
            c.put(&t, "mode", string(v), at);
        } else {
            c.note(tm.line, NoteKind::Unknown, format!("team {}: TeamingMode not collected: the design's default (switch-independent) applies", tm.name));
        }
        if let Some(l) = &tm.lba {
            let at = c.src(l);
            c.put(
                &t,
                "load_balancing",
                string(lba_text(l.value)),
                at.map_text(|at| format!("{at} ({:?})", l.value)),
            );
        } else {
            c.note(tm.line, NoteKind::Unknown, format!("team {}: LoadBalancingAlgorithm not collected: the design's default (dynamic) applies", tm.name));
        }
        if let Some(s) = &tm.standby {
            if members.contains(&s.value) {
                let at = c.src(s);
                c.put(&t, "standby", string(&s.value), at);
            }
        }
        if let Some((net, line)) = on_adapter.get(&tm.name) {
            let net = net.clone();
            let role = cluster_nets
                .get(net.as_str())
                .and_then(|x| x.role.as_ref())
                .map(|r| r.value);
            let e = c.evidence(&net, *line);
            e.cluster_role = e.cluster_role.or(role);
            let file = h.file.clone();
            // A team interface's VLAN (Get-NetLbfoTeamNic) is not
            // collected: unknown, not untagged.
            e.vlan(None, format!("{file}:{line} (team {})", tm.name));
            c.put(
                &t,
                "networks",
                list(&[net]),
                Prov::line(&h.file, *line).then(" (Get-ClusterNetworkInterface)"),
            );
        }
    }
}

/// Writes `vswitches.<name>` of every external virtual switch with an
/// uplink the collection knows; returns each written switch's uplinks.
pub(super) fn vswitches(c: &mut Ctx<'_>, a: &Host<'_>) -> BTreeMap<String, Vec<String>> {
    let h = c.h;
    let Host {
        nic_names,
        team_names,
        ..
    } = a;
    // Virtual switches and their vNICs.
    // Each written switch's uplinks: a vNIC is pinned to one of them only.
    let mut written_switches: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for s in h.vswitches.iter().flatten() {
        if !s.external {
            c.note(
                s.line,
                NoteKind::Unknown,
                format!(
                    "virtual switch {} is internal or private (no uplink): not written",
                    s.name
                ),
            );
            continue;
        }
        let mut uplinks = Vec::new();
        for u in &s.uplinks.value {
            if nic_names.contains(u.as_str()) || team_names.contains(u.as_str()) {
                uplinks.push(u.clone());
            } else {
                c.note(s.uplinks.line().unwrap_or(s.line), NoteKind::Unknown, format!("virtual switch {}: uplink {u} is no physical adapter or LBFO team of the collection: left out", s.name));
            }
        }
        if uplinks.is_empty() {
            c.note(
                s.line,
                NoteKind::Unknown,
                format!(
                    "virtual switch {} has no uplink the collection knows: not written",
                    s.name
                ),
            );
            continue;
        }
        written_switches.insert(s.name.clone(), uplinks.clone());
        let t = ["vswitches", s.name.as_str()];
        let at = c.src(&s.uplinks);
        let from = if s.uplinks.is_inferred() {
            c.note(
                s.line,
                NoteKind::Inferred,
                format!(
                    "virtual switch {} is not in Get-VMSwitch: written on the adapters of its Network ATC intent ({})",
                    s.name,
                    uplinks.join(", ")
                ),
            );
            at
        } else {
            at.map_text(|at| format!("{at} (NetAdapterInterfaceDescription)"))
        };
        c.put(&t, "uplinks", list(&uplinks), from);
        let set = uplinks.len() >= 2 && uplinks.iter().all(|u| nic_names.contains(u.as_str()));
        if set {
            match &s.lba {
                Some(l) if matches!(l.value, Lba::HyperVPort | Lba::Dynamic) => {
                    let at = c.src(l);
                    c.put(&t, "load_balancing", string(lba_text(l.value)), at.map_text(|at| format!("{at} (Get-VMSwitchTeam)")));
                }
                Some(l) => c.note(l.line().unwrap_or(s.line), NoteKind::Unknown, format!("SET switch {}: load balancing {:?} is not one SET has", s.name, l.value)),
                None => c.note(s.line, NoteKind::Unknown, format!("SET switch {}: Get-VMSwitchTeam not collected: the platform's default load balancing applies", s.name)),
            }
        }
        if let (Some(m), Some(w)) = (&s.bandwidth_mode, &s.default_flow_weight) {
            if m.value == BandwidthMode::Weight && w.value <= 100 {
                let at = c.src(w);
                c.put(&t, "default_flow_weight", w.value.to_string(), at);
            }
        }
        c.note(s.line, NoteKind::Unknown, format!("virtual switch {}: its guest (VM) networks are not collected: `networks` not written", s.name));
    }
    written_switches
}

/// Writes `vswitches.<switch>.vnics.<name>` of every host vNIC on a
/// written switch (`written_switches`: each one's uplinks).
pub(super) fn vnics(
    c: &mut Ctx<'_>,
    a: &Host<'_>,
    written_switches: &BTreeMap<String, Vec<String>>,
) {
    let h = c.h;
    let Host {
        cluster_nets,
        lm_nets,
        nic_names,
        ..
    } = a;
    let on_vnic = |v: &VnicFacts| a.on_vnic(v);
    // vNICs on one VLAN and one subnet (the classic SMB1 + SMB2 on VLAN
    // 102, 192.168.2.0/24 of SMB Multichannel) are interfaces of one
    // network, named by the first of them: the subnet from the cluster
    // network of their adapters (issue 32 item 4).
    let mut first_on: BTreeMap<(u16, String), String> = BTreeMap::new();
    let mut shares: BTreeMap<String, (String, u16, String)> = BTreeMap::new();
    for v in h.vnics.iter().flatten() {
        let subnet = on_vnic(v)
            .and_then(|(n, _)| cluster_nets.get(n.as_str()).copied())
            .and_then(|x| x.subnet.as_ref())
            .map(|s| s.value.clone());
        let (Some(subnet), Some(vlan)) = (subnet, v.vlan.as_ref().map(|x| x.value)) else {
            continue;
        };
        match first_on.get(&(vlan, subnet.clone())) {
            Some(first) => {
                shares.insert(v.name.clone(), (first.clone(), vlan, subnet));
            }
            None => {
                first_on.insert((vlan, subnet), v.name.clone());
            }
        }
    }
    for v in h.vnics.iter().flatten() {
        let Some(sw) = &v.switch else {
            c.note(
                v.line,
                NoteKind::Unknown,
                format!("vNIC {} names no virtual switch: not written", v.name),
            );
            continue;
        };
        if !written_switches.contains_key(&sw.value) {
            c.note(
                v.line,
                NoteKind::Unknown,
                format!(
                    "vNIC {} is on virtual switch {}, which is not written: left out",
                    v.name, sw.value
                ),
            );
            continue;
        }
        let t = ["vswitches", sw.value.as_str(), "vnics", v.name.as_str()];
        let (net, why) = match shares.get(&v.name) {
            Some((first, vlan, subnet)) => (
                first.clone(),
                format!("shares VLAN {vlan} and subnet {subnet} with vNIC {first}: one network"),
            ),
            None => (v.name.clone(), "the vNIC's name".to_string()),
        };
        // A switch the collection does not name (Network ATC's
        // ConvergedSwitch(<intent>)) says so beside the vNIC.
        let on_switch = if sw.is_inferred() {
            format!("; virtual switch {}: {}", sw.value, c.at(sw))
        } else {
            String::new()
        };
        c.put(
            &t,
            "network",
            string(&net),
            Prov::line(&h.file, v.line).map_text(|at| format!("{at} ({why}){on_switch}")),
        );
        if sw.is_inferred() {
            c.note(
                sw.line().unwrap_or(v.line),
                NoteKind::Inferred,
                format!(
                    "vNIC {} names no virtual switch: placed on {} by Network ATC's naming",
                    v.name, sw.value
                ),
            );
        }
        let adapter = v
            .adapter
            .clone()
            .unwrap_or_else(|| format!("vEthernet ({})", v.name));
        let mtu = v.jumbo_packet.as_ref().map(|j| j.value.saturating_sub(14));
        match &v.jumbo_packet {
            Some(j) if (576..=9216).contains(&j.value.saturating_sub(14)) => {
                let at = c.src(j);
                c.put(&t, "mtu", (j.value - 14).to_string(), at.map_text(|at| format!("{at} (*JumboPacket {} of {adapter})", j.value)));
            }
            _ => c.note(v.line, NoteKind::Unknown, format!("vNIC {}: *JumboPacket of {adapter} not collected: the design's default MTU 1500 applies", v.name)),
        }
        if let Some(r) = &v.rdma_enabled {
            let at = c.src(r);
            c.put(
                &t,
                "rdma",
                r.value.to_string(),
                at.map_text(|at| format!("{at} (Get-NetAdapterRdma {adapter})")),
            );
        }
        if let Some(w) = &v.weight {
            if w.value <= 100 {
                let at = c.src(w);
                c.put(&t, "min_bandwidth_weight", w.value.to_string(), at);
            }
        }
        if let Some(p) = &v.pinned {
            let uplink = written_switches
                .get(&sw.value)
                .is_some_and(|u| u.contains(&p.value));
            if nic_names.contains(p.value.as_str()) && !uplink {
                c.note(p.line().unwrap_or(v.line), NoteKind::Unknown, format!("vNIC {} is mapped to {} (Get-VMNetworkAdapterTeamMapping), which is no uplink of virtual switch {}: `active_uplinks` not written", v.name, p.value, sw.value));
            } else if nic_names.contains(p.value.as_str()) {
                let at = c.src(p);
                c.put(
                    &t,
                    "active_uplinks",
                    list(std::slice::from_ref(&p.value)),
                    at.map_text(|at| format!("{at} (Get-VMNetworkAdapterTeamMapping)")),
                );
            }
        }
        // Evidence for the network.
        let cn = on_vnic(v);
        let role = cn
            .as_ref()
            .and_then(|(n, _)| cluster_nets.get(n.as_str()))
            .and_then(|x| x.role.as_ref())
            .map(|r| r.value);
        let subnet = cn
            .as_ref()
            .and_then(|(n, _)| cluster_nets.get(n.as_str()))
            .and_then(|x| x.subnet.as_ref())
            .map(|s| s.value.clone());
        let vlan = v.vlan.as_ref().map(|x| (x.value, c.src(x)));
        let rdma = v.rdma_enabled.as_ref().map(|r| r.value);
        let lm = lm_nets.contains(&net);
        let atc = super::atc_of_vnic(h, &v.name);
        let file = h.file.clone();
        let e = c.evidence(&net, v.line);
        e.atc = e.atc.take().or(atc);
        e.cluster_role = e.cluster_role.or(role);
        e.subnet = e.subnet.clone().or(subnet);
        e.rdma(rdma);
        e.lm |= lm;
        e.mtus.extend(mtu);
        e.vlan(vlan, format!("{file}:{} (vNIC {})", v.line, v.name));
    }
}
