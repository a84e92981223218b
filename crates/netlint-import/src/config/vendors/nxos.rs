//! Cisco NX-OS (Nexus 3000, 5000, 6000, 9000).

use super::*;
use crate::defaults;

pub(super) const SPEC: VendorSpec = VendorSpec {
    vendor: Vendor::NxOs,
    name: "NX-OS",
    markers: &[
        ("!Command: show running-config", 5),
        ("!Time:", 2),
        ("switchname ", 4),
        ("vpc domain ", 4),
        (" vpc peer-link", 4),
        (" peer-keepalive destination", 4),
        ("system jumbomtu", 4),
        ("system default switchport", 4),
        ("interface mgmt0", 4),
        ("vrf context ", 4),
        ("copp profile", 4),
        ("feature ", 3),
        ("no feature ", 3),
        ("icam monitor", 4),
        ("cli alias name", 4),
        ("switching-mode ", 4),
        ("userpassphrase ", 4),
        (" hsrp version", 3),
        (" priority-flow-control mode on send-tlv", 3),
        ("spanning-tree port type", 1),
        ("policy-map type network-qos", 1),
        // The header Microsoft's switch config generator writes (Azure Local /
        // Azure Stack HCI ToR configs): its Cisco configs are NX-OS.
        ("! Make: Cisco", 3),
        ("! Make: cisco", 3),
    ],
    stp_mode: Cited {
        value: StpMode::RapidPvst,
        source: defaults::NXOS_STP,
    },
    // A Nexus 9000 port is routed unless `system default switchport`; a
    // Nexus 3000/5000/6000 port is a switchport. The config tells which.
    layer: Layer::SystemDefault {
        routed: defaults::NXOS_L3,
        l2_inferred: defaults::NXOS_L2_INFERRED,
    },
    trunk: Trunk::AllUnlessListed(defaults::TRUNK_ALL),
    vlans_from_svis: false,
    mtu: Mtu::Payload,
    port_mtu: Cited {
        value: 1500,
        source: defaults::CISCO_MTU,
    },
    qos: Qos::NxOs,
    pfc: Pfc::Policy,
    edge: Edge::AccessOnly(defaults::NXOS_EDGE),
    stacks: false,
};
