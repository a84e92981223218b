//! After the last line: port modes resolved, defaults filled, OS10 VLANs
//! from their interfaces, the network-qos policy in force applied.

use super::*;
use crate::defaults;
use crate::names::IfKind;
use crate::vlans::VlanSet;

impl Parser {
    pub(super) fn finish(&mut self) {
        let vendor = self.vendor;
        let nxos_default = self.nxos_default_layer();
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
                Sourced::at(PortMode::Access, v.line().unwrap_or(ifc.line))
            } else if !l2_capable {
                Sourced::default_from(PortMode::Routed, defaults::L3_KIND)
            } else {
                match vendor {
                    Vendor::NxOs => nxos_default,
                    _ => Sourced::default_from(PortMode::Access, defaults::L2_ACCESS),
                }
            };
            if !l2_capable {
                continue;
            }
            if ifc.mtu.is_none() {
                ifc.mtu = Some(defaults::port_mtu(vendor));
            }
            match ifc.mode.value {
                PortMode::Trunk => {
                    if vendor == Vendor::Os10 && ifc.native_vlan.is_none() {
                        // OS10 writes a trunk's untagged VLAN as its access VLAN.
                        ifc.native_vlan = ifc.access_vlan.take();
                    }
                    if ifc.native_vlan.is_none() {
                        ifc.native_vlan = Some(Sourced::default_from(1, defaults::VLAN1));
                    }
                    if ifc.allowed_vlans.is_none() {
                        ifc.allowed_vlans = Some(match vendor {
                            Vendor::Os10 => {
                                Sourced::default_from(VlanSet::EMPTY, defaults::OS10_TRUNK)
                            }
                            _ => Sourced::default_from(VlanSet::all(), defaults::TRUNK_ALL),
                        });
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
        if vendor == Vendor::Os10 {
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
        self.cfg.dcb.ets = self.nxos_ets();
    }
}

impl Parser {
    /// The layer of an NX-OS port that says neither `switchport` nor `no
    /// switchport`. `system default switchport` says layer 2. Otherwise
    /// the config itself tells: NX-OS writes only the ports that differ
    /// from the system default, so `no switchport` on some port and no
    /// bare `switchport` anywhere means the default is layer 2 (Nexus
    /// 3000/5000/6000, or `system default switchport` set before the
    /// capture), and the reverse means layer 3. With neither, the Nexus
    /// 9000 default: layer 3.
    fn nxos_default_layer(&self) -> Sourced<PortMode> {
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
            (false, true) => Sourced::default_from(PortMode::Access, defaults::NXOS_L2_INFERRED),
            _ => Sourced::default_from(PortMode::Routed, defaults::NXOS_L3),
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
        for (class, group) in classes {
            let (Some(cos), Some(share)) =
                (self.qos_class_cos.get(class), per_group.get(&group.value))
            else {
                continue;
            };
            for c in cos {
                out.insert(*c, *share);
            }
        }
        out
    }
}
