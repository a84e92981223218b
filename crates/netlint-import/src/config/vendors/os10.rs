//! Dell SmartFabric OS10.

use super::*;
use crate::defaults;

pub(super) const SPEC: VendorSpec = VendorSpec {
    vendor: Vendor::Os10,
    name: "OS10",
    markers: &[
        ("! Version 10.", 6),
        ("interface ethernet1/", 5),
        ("interface mgmt1/1/1", 6),
        ("vlt-domain ", 5),
        ("system-user linuxadmin", 5),
        ("ztd cancel", 4),
        ("dcbx enable", 2),
        ("interface vlan", 2),
        ("interface port-channel", 1),
        ("vlt-port-channel ", 5),
        (" vlt-port-channel ", 5),
        ("discovery-interface ", 3),
        (" discovery-interface ", 3),
        ("! Make: DellEMC", 3),
        ("! Make: dellemc", 3),
        // The header `netlint generate --vendor os10` writes (its configs
        // name the design's ports, which need not be `ethernet1/1/N`).
        ("! Dell OS10 running-config of switch ", 6),
    ],
    stp_mode: Cited {
        value: StpMode::RapidPvst,
        source: defaults::OS10_STP,
    },
    layer: Layer::Switchport(defaults::L2_ACCESS),
    trunk: Trunk::OnlyListed(defaults::OS10_TRUNK),
    vlans_from_svis: true,
    // `mtu` counts the Ethernet header: the link frame size.
    mtu: Mtu::Frame { overhead: 18 },
    port_mtu: Cited {
        value: 1532,
        source: defaults::OS10_MTU,
    },
    qos: Qos::Os10,
    pfc: Pfc::PortMode(defaults::OS10_PFC_MODE),
    edge: Edge::AnyMode(defaults::EDGE_ANY_MODE),
    stacks: false,
};
