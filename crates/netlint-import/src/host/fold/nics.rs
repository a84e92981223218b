//! A Hyper-V host's physical NICs: card, model, speed, jumbo packet,
//! RDMA, the switch port they are cabled to, and the cluster network on
//! each (evidence for [`super::networks`]).

use std::collections::{BTreeMap, BTreeSet};

use crate::design::toml::{string, Prov};
use crate::names::speed_text;
use crate::Document;
use netlint_model::Speed;

use super::super::emit::Entry;
use super::super::facts::*;
use super::super::join::{tie, NicKey};
use super::{list, Ctx, Host, NoteKind};

/// Writes `nics.<name>` of every NIC Get-NetAdapter lists, once each.
pub(super) fn write(c: &mut Ctx<'_>, a: &Host<'_>, docs: &[Document], switches: &BTreeSet<String>) {
    let h = c.h;
    let Host {
        cluster_nets,
        on_adapter,
        lm_nets,
        ..
    } = a;
    // A NIC listed twice (Get-NetAdapter run twice into one file, a
    // hand-merged collection) is written once: the first entry.
    let mut first_line: BTreeMap<&str, u32> = BTreeMap::new();
    for n in &h.nics {
        if let Some(first) = first_line.get(n.name.as_str()) {
            c.note(n.line, NoteKind::Unknown, format!("NIC {} is listed twice by Get-NetAdapter (first at line {first}): the first is written, this one is left out", n.name));
            continue;
        }
        first_line.insert(n.name.as_str(), n.line);
        let t = ["nics", n.name.as_str()];
        if let Some(s) = &n.slot {
            let at = c.src(s);
            c.put(
                &t,
                "card",
                string(&format!("slot{}", s.value)),
                at.map_text(|at| format!("{at} (Get-NetAdapterHardwareInfo SlotNumber)")),
            );
        } else if let Some(b) = &n.bus {
            let at = c.src(b);
            c.put(
                &t,
                "card",
                string(&format!("bus{}", b.value)),
                at.map_text(|at| format!("{at} (PCI bus: ports of one adapter share it)")),
            );
        } else {
            c.note(n.line, NoteKind::Unknown, format!("NIC {}: no slot or bus (Get-NetAdapterHardwareInfo): its card is unknown, the NIC is its own card", n.name));
        }
        if let Some(d) = &n.description {
            let at = c.src(d);
            c.put(&t, "model", string(adapter_model(&d.value)), at);
        }
        match &n.speed {
            // Only a speed the design can hold (10M-10T): `Speed 4095`
            // would be "0.004M", which the loader refuses.
            Some(s) if netlint_model::Speed::parse(&speed_text(Speed::from_bps(s.value))).is_err() => {
                c.note(s.line().unwrap_or(n.line), NoteKind::Unknown, format!("NIC {}: Speed {} (bits/s) is outside what the design takes (10M-10T): written without `speed` (unknown)", n.name, s.value));
            }
            Some(s) => {
                let at = c.src(s);
                c.put(&t, "speed", string(&speed_text(Speed::from_bps(s.value))), at);
            }
            None => c.note(n.line, NoteKind::Unknown, format!("NIC {}: no link speed (disconnected, or not collected): written without `speed` (unknown)", n.name)),
        }
        match &n.jumbo_packet {
            Some(j) if (590..=9230).contains(&j.value) => {
                let at = c.src(j);
                c.put(&t, "jumbo_packet", j.value.to_string(), at.map_text(|at| format!("{at} (*JumboPacket)")));
            }
            Some(j) => c.note(j.line().unwrap_or(n.line), NoteKind::Unknown, format!("NIC {}: *JumboPacket {} is outside what the design takes (590-9230): not written", n.name, j.value)),
            None => c.note(n.line, NoteKind::Unknown, format!("NIC {}: *JumboPacket not collected: the design's default MTU 1500 applies", n.name)),
        }
        match (&n.rdma_enabled, &n.rdma_tech) {
            (Some(e), _) if !e.value => {
                let at = c.src(e);
                c.put(
                    &t,
                    "rdma",
                    string("none"),
                    at.map_text(|at| format!("{at} (Get-NetAdapterRdma Enabled = False)")),
                );
            }
            (Some(e), Some(tech)) => {
                let v = match tech.value {
                    RdmaTech::Iwarp => "iwarp",
                    RdmaTech::Infiniband => "infiniband",
                    RdmaTech::Roce => "roce",
                    RdmaTech::RoceV2 => "roce-v2",
                };
                let (a, b) = (c.src(e), c.src(tech));
                c.put(
                    &t,
                    "rdma",
                    string(v),
                    Prov::join(
                        [a.then(" (enabled)"), b.then(" (*NetworkDirectTechnology)")],
                        ", ",
                    ),
                );
            }
            (Some(e), None) => {
                let a = c.src(e);
                let why = "technology not collected, taken as RoCE";
                c.put(
                    &t,
                    "rdma",
                    string("roce"),
                    a.then(" (enabled)").inferred(why, why),
                );
                c.note(e.line().unwrap_or(n.line), NoteKind::Inferred, format!("NIC {}: RDMA is on but *NetworkDirectTechnology is not collected: written as `roce`", n.name));
            }
            (None, _) => c.note(
                n.line,
                NoteKind::Unknown,
                format!(
                    "NIC {}: Get-NetAdapterRdma does not list it: RDMA unknown, `rdma` not written (the design's default, none, then applies)",
                    n.name
                ),
            ),
        }
        let key = NicKey {
            host: &h.name,
            nic: &n.name,
            mac: n.mac.as_ref().map(|m| m.value.as_str()),
            description: n.description.as_ref().map(|d| d.value.as_str()),
        };
        match tie(docs, switches, &key) {
            Some(tie) => {
                let at = Prov::line(&tie.line.file, tie.line.line);
                debug_assert_eq!(at.text, tie.at);
                c.put(&t, "switch", string(&tie.switch), at.clone());
                c.out.push(Entry {
                    host_only: true,
                    ..Entry::sourced(&t, "port", string(&tie.port), at)
                });
            }
            None => {
                let status = n
                    .status
                    .as_ref()
                    .map(|s| format!(" (status {})", s.value))
                    .unwrap_or_default();
                c.note(n.line, NoteKind::UnmatchedNic, format!("NIC {}{status}: no LLDP neighbour (system name {}, port ID its MAC or name) or cabling row ties it to an imported switch: written without `switch`", n.name, h.name));
            }
        }
        if let Some((net, line)) = on_adapter.get(&n.name) {
            let net = net.clone();
            let vlan = n.vlan.as_ref().map(|v| v.value);
            let mtu = n.jumbo_packet.as_ref().map(|j| j.value.saturating_sub(14));
            let role = cluster_nets
                .get(net.as_str())
                .and_then(|x| x.role.as_ref())
                .map(|r| r.value);
            let subnet = cluster_nets
                .get(net.as_str())
                .and_then(|x| x.subnet.as_ref())
                .map(|s| s.value.clone());
            let rdma = n.rdma_enabled.as_ref().map(|e| e.value);
            let file = h.file.clone();
            let atc = super::atc_of_nic(h, &n.name);
            let e = c.evidence(&net, *line);
            e.atc = e.atc.take().or(atc);
            e.cluster_role = e.cluster_role.or(role);
            e.subnet = e.subnet.clone().or(subnet);
            e.rdma(rdma);
            let at = format!("{file}:{line}");
            e.vlan(vlan.map(|v| (v, Prov::line(&file, *line))), at);
            e.mtus.extend(mtu);
            e.lm |= lm_nets.contains(&net);
            c.put(
                &t,
                "networks",
                list(&[net]),
                Prov::line(&h.file, *line).then(" (Get-ClusterNetworkInterface)"),
            );
        }
    }
}

/// The adapter model in an `InterfaceDescription`: Windows names the
/// second and later ports of one driver "Mellanox ConnectX-4 Lx Ethernet
/// Adapter #2", "#3", ... (the instance number of the device's friendly
/// name), which is no part of the model; two ports of one card are one
/// model (`team-member-identity` compares them).
fn adapter_model(description: &str) -> &str {
    match description.rsplit_once(" #") {
        Some((model, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
            model.trim_end()
        }
        _ => description,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_instance_number_windows_adds_is_no_part_of_the_model() {
        let m = "Mellanox ConnectX-4 Lx Ethernet Adapter";
        assert_eq!(adapter_model(m), m);
        assert_eq!(adapter_model(&format!("{m} #2")), m);
        assert_eq!(adapter_model(&format!("{m} #12")), m);
        // Only a trailing number after " #" is one.
        assert_eq!(adapter_model("Port #A adapter"), "Port #A adapter");
        assert_eq!(adapter_model("Adapter #"), "Adapter #");
    }
}
