//! After the last line: port modes resolved, defaults filled, OS10 VLANs
//! from their interfaces, the network-qos policy in force applied.

use super::*;
use crate::defaults;
use crate::names::IfKind;
use crate::vlans::VlanSet;

impl Parser {
    pub(super) fn finish(&mut self) {
        let vendor = self.vendor;
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
                match (vendor, self.system_default_switchport) {
                    (Vendor::NxOs, Some(l)) => Sourced::at(PortMode::Access, l),
                    (Vendor::NxOs, None) => Sourced::default_from(PortMode::Routed, defaults::NXOS_L3),
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
                            Vendor::Os10 => Sourced::default_from(VlanSet::EMPTY, defaults::OS10_TRUNK),
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
        if let Some(name) = &self.cfg.dcb.network_qos_policy {
            if let Some(policy) = self.nq_policies.get(&name.value) {
                self.cfg.mtu.network_qos = policy.mtu.clone();
                self.cfg.dcb.no_drop_cos = policy.no_drop.clone();
            }
        }
    }
}
