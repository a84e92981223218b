//! After the last line: port modes resolved, defaults filled (the
//! vendor's [`VendorSpec`](super::vendors::VendorSpec)), VLANs from their
//! interfaces where the dialect defines them so, the network-qos policy in
//! force applied.

use super::vendors::{Layer, Qos};
use super::*;
use crate::defaults;
use crate::names::IfKind;

impl Parser {
    pub(super) fn finish(&mut self) {
        let spec = self.spec;
        let default_layer = match spec.layer {
            Layer::Switchport(source) => Sourced::default_from(PortMode::Access, source),
            Layer::SystemDefault {
                routed,
                l2_inferred,
            } => self.system_default_layer(routed, l2_inferred),
        };
        self.cfg.default_mode = default_layer;
        for (i, ifc) in self.cfg.interfaces.iter_mut().enumerate() {
            let draft = &self.drafts[i];
            let kind = ifc.name.kind();
            let l2_capable = matches!(kind, IfKind::Ethernet | IfKind::PortChannel(_));
            ifc.mode = if let Some(m) = draft.mode {
                m
            } else if let Some(l) = draft.no_switchport {
                Sourced::at(PortMode::Routed, l)
            } else if let Some(l) = draft.switchport {
                Sourced::at(PortMode::Access, l)
            } else if let Some(v) = &ifc.access_vlan {
                let from = v.line().unwrap_or(ifc.line);
                Sourced::inferred(PortMode::Access, defaults::ACCESS_INFERRED, [from])
            } else if !l2_capable {
                Sourced::default_from(PortMode::Routed, defaults::L3_KIND)
            } else {
                default_layer
            };
            if !l2_capable {
                continue;
            }
            if ifc.mtu.is_none() {
                ifc.mtu = Some(spec.port_mtu.sourced());
            }
            match ifc.mode.value {
                PortMode::Trunk => {
                    if spec.trunk.untagged_apart() && ifc.native_vlan.is_none() {
                        // OS10 writes a trunk's untagged VLAN as its access VLAN.
                        ifc.native_vlan = ifc.access_vlan.take();
                    }
                    if ifc.native_vlan.is_none() {
                        ifc.native_vlan = Some(Sourced::default_from(1, defaults::VLAN1));
                    }
                    if ifc.allowed_vlans.is_none() && draft.allowed_unreadable.is_none() {
                        ifc.allowed_vlans = Some(spec.trunk.default_allowed());
                    }
                }
                PortMode::Access => {
                    if ifc.access_vlan.is_none() {
                        ifc.access_vlan = Some(Sourced::default_from(1, defaults::VLAN1));
                    }
                }
                PortMode::Routed | PortMode::Other => {}
            }
        }
        if spec.vlans_from_svis {
            // OS10 defines a VLAN by its interface `interface vlanN`.
            for ifc in &self.cfg.interfaces {
                if let IfKind::Vlan(id) = ifc.name.kind() {
                    self.cfg.vlans.entry(id).or_insert(Vlan {
                        line: ifc.line,
                        name: None,
                        trunk_groups: Vec::new(),
                    });
                }
            }
        }
        if let Some(domain) = self.cfg.mlag.as_mut() {
            if domain.kind == MlagKind::Vpc {
                // vPC names its peer link on the port-channel.
                for ifc in &self.cfg.interfaces {
                    if let Some(m) = ifc.mc_lag.filter(|m| m.value == McLag::PeerLink) {
                        domain.peer_links.push(Sourced {
                            value: ifc.name.clone(),
                            origin: m.origin,
                        });
                    }
                }
            }
        }
        if let Some(name) = &self.cfg.dcb.network_qos_policy {
            if let Some(policy) = self.nq_policies.get(&name.value) {
                self.cfg.mtu.network_qos = policy.mtu.clone();
                self.cfg.dcb.no_drop_cos = policy.no_drop.clone();
            }
        }
        self.cfg.dcb.ets = match spec.qos {
            Qos::NxOs => self.nxos_ets(),
            Qos::Os10 => self.os10_ets(),
            Qos::Eos => self.eos_ets(),
            Qos::None => BTreeMap::new(),
        };
    }
}

impl Parser {
    /// The layer of a port that says neither `switchport` nor `no
    /// switchport` under [`Layer::SystemDefault`] (NX-OS). `system default
    /// switchport` says layer 2. Otherwise
    /// the config itself tells: NX-OS writes only the ports that differ
    /// from the system default, so `no switchport` on some port and no
    /// bare `switchport` anywhere means the default is layer 2 (Nexus
    /// 3000/5000/6000, or `system default switchport` set before the
    /// capture), and the reverse means layer 3. With neither, the Nexus
    /// 9000 default: layer 3.
    fn system_default_layer(
        &self,
        routed_source: &'static str,
        l2_source: &'static str,
    ) -> Sourced<PortMode> {
        if let Some(l) = self.system_default_switchport {
            return Sourced::at(PortMode::Access, l);
        }
        let physical = |i: &usize| {
            matches!(
                self.cfg.interfaces[*i].name.kind(),
                IfKind::Ethernet | IfKind::PortChannel(_)
            )
        };
        let idx: Vec<usize> = (0..self.drafts.len()).filter(physical).collect();
        let bare = idx.iter().any(|i| self.drafts[*i].switchport.is_some());
        let routed = idx.iter().any(|i| self.drafts[*i].no_switchport.is_some());
        match (bare, routed) {
            (false, true) => Sourced::inferred(
                PortMode::Access,
                l2_source,
                idx.iter().filter_map(|i| self.drafts[*i].no_switchport),
            ),
            _ => Sourced::default_from(PortMode::Routed, routed_source),
        }
    }
}

impl Parser {
    /// NX-OS ETS per CoS: the queuing policy `system qos` applies gives a
    /// bandwidth share per egress queue (`c-out-8q-qN` or `c-out-q-N`:
    /// queue N serves qos-group N; `...-q-default` qos-group 0, the Cisco
    /// Nexus 9000 QoS configuration guide, "Configuring Queuing and
    /// Scheduling"); the qos policy in force (`set qos-group N` per class)
    /// and its class maps (`match cos`) say which CoS goes to which group.
    /// Only a CoS a class names is written: the default class is every
    /// other CoS, whose share is the default queue's.
    fn nxos_ets(&self) -> BTreeMap<u8, Sourced<u32>> {
        let mut out = BTreeMap::new();
        let (Some(q), Some(p)) = (&self.queuing_policy, &self.qos_policy) else {
            return out;
        };
        let (Some(queues), Some(classes)) = (
            self.queuing_policies.get(&q.value),
            self.qos_policies.get(&p.value),
        ) else {
            return out;
        };
        let mut per_group: BTreeMap<u8, Sourced<u32>> = BTreeMap::new();
        for (class, share) in queues {
            let group = class
                .strip_prefix("c-out-8q-q")
                .or_else(|| class.strip_prefix("c-out-q"))
                .and_then(|n| match n {
                    "-default" | "default" => Some(0),
                    n => n
                        .trim_start_matches('-')
                        .parse::<u8>()
                        .ok()
                        .filter(|n| *n < 8),
                });
            if let Some(g) = group {
                per_group.insert(g, *share);
            }
        }
        let mut group_of: BTreeMap<u8, u8> = BTreeMap::new();
        for (class, group) in classes {
            for c in self.qos_class_cos.get(class).into_iter().flatten() {
                group_of.insert(*c, group.value);
            }
        }
        for (cos, group) in &group_of {
            if let Some(share) = per_group.get(group) {
                out.insert(*cos, *share);
            }
        }
        // Every CoS no class names is in qos-group 0, the default class.
        one_priority_queues(out, |cos| Some(group_of.get(&cos).copied().unwrap_or(0)))
    }
}

impl Parser {
    /// OS10 ETS per CoS: the queuing policy in force (`system qos` /
    /// `service-policy output type queuing`, else the first port's) gives
    /// `bandwidth percent` per class, a `class-map type queuing` (`match
    /// queue Q`) its queue; the `qos-map traffic-class` in force maps
    /// qos-groups to queues and the `trust dot1p-map` in force CoS to
    /// qos-groups. Source: the Azure Local rack aware cluster network
    /// design's "Full QoS configuration" for Dell OS10.
    fn os10_ets(&self) -> BTreeMap<u8, Sourced<u32>> {
        let mut per_queue: BTreeMap<u8, Sourced<u32>> = BTreeMap::new();
        let Some(q) = &self.queuing_policy else {
            return BTreeMap::new();
        };
        for (class, share) in self.queuing_policies.get(&q.value).into_iter().flatten() {
            if let Some(queue) = self.queuing_class_queue.get(class) {
                per_queue.insert(*queue, *share);
            }
        }
        let (Some(d), Some(t)) = (&self.dot1p_map, &self.tc_map) else {
            return BTreeMap::new();
        };
        let (Some(dot1p), Some(tc)) = (self.dot1p_maps.get(&d.value), self.tc_maps.get(&t.value))
        else {
            return BTreeMap::new();
        };
        let mut out = BTreeMap::new();
        for (cos, group) in dot1p {
            if let Some(share) = tc.get(group).and_then(|queue| per_queue.get(queue)) {
                out.insert(*cos, *share);
            }
        }
        one_priority_queues(out, |cos| tc.get(dot1p.get(&cos)?).copied())
    }
}

impl Parser {
    /// EOS ETS per CoS: `qos map cos LIST to traffic-class T` and `qos map
    /// traffic-class LIST to tx-queue Q` lead from a CoS to its transmit
    /// queue; the first port that gives a queue a share (`tx-queue Q` /
    /// `bandwidth percent S`) gives the shares. Both maps' defaults vary
    /// by platform (the Arista EOS User Manual, Quality of Service), so a
    /// CoS the config does not map is unknown, and then so is whether any
    /// queue serves one priority alone: nothing is written. A queue set
    /// to `priority strict` is served before the others, not by share.
    fn eos_ets(&self) -> BTreeMap<u8, Sourced<u32>> {
        let Some(port) = self
            .eos_tx_queues
            .values()
            .find(|q| q.values().any(|t| t.share.is_some() && t.strict.is_none()))
        else {
            return BTreeMap::new();
        };
        let queue_of = |cos: u8| -> Option<u8> {
            let tc = self.eos_cos_tc.get(&cos)?.value;
            Some(self.eos_tc_queue.get(&tc)?.value)
        };
        if (0..8u8).any(|c| queue_of(c).is_none()) {
            return BTreeMap::new();
        }
        let mut out = BTreeMap::new();
        for cos in 0..8u8 {
            let Some(q) = queue_of(cos) else { continue };
            if let Some(TxQueue {
                share: Some(share),
                strict: None,
            }) = port.get(&q)
            {
                out.insert(cos, *share);
            }
        }
        one_priority_queues(out, queue_of)
    }
}

/// ETS shares are per traffic class: a share is written per priority only
/// where its queue serves that one priority. A queue several priorities
/// share (the default class) is left out, so that the written shares add
/// up as the switch's do.
fn one_priority_queues(
    shares: BTreeMap<u8, Sourced<u32>>,
    queue_of: impl Fn(u8) -> Option<u8>,
) -> BTreeMap<u8, Sourced<u32>> {
    let mut users: BTreeMap<u8, usize> = BTreeMap::new();
    for cos in 0..8u8 {
        if let Some(q) = queue_of(cos) {
            *users.entry(q).or_default() += 1;
        }
    }
    shares
        .into_iter()
        .filter(|(cos, _)| queue_of(*cos).is_some_and(|q| users.get(&q) == Some(&1)))
        .collect()
}
