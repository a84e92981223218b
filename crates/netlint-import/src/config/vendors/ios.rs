//! Cisco IOS and IOS-XE (Catalyst).

use super::*;
use crate::defaults;

pub(super) const SPEC: VendorSpec = VendorSpec {
    vendor: Vendor::Ios,
    name: "IOS",
    markers: &[
        ("Building configuration", 4),
        ("Current configuration :", 5),
        ("boot-start-marker", 5),
        ("service timestamps", 3),
        ("no service pad", 3),
        ("spanning-tree extend system-id", 3),
        ("interface GigabitEthernet", 3),
        ("interface FastEthernet", 4),
        ("interface TenGigabitEthernet", 2),
        ("interface Port-channel", 3),
        ("line vty", 2),
        ("spanning-tree mode pvst", 2),
        // The header `netlint generate --vendor ios` writes (its configs
        // name the design's ports, which need not be GigabitEthernet).
        ("! Cisco IOS-XE (Catalyst) running-config of switch ", 6),
    ],
    stp_mode: Cited {
        value: StpMode::Pvst,
        source: defaults::IOS_STP,
    },
    layer: Layer::Switchport(defaults::L2_ACCESS),
    trunk: Trunk::AllUnlessListed(defaults::TRUNK_ALL),
    vlans_from_svis: false,
    mtu: Mtu::Payload,
    port_mtu: Cited {
        value: 1500,
        source: defaults::CISCO_MTU,
    },
    qos: Qos::None,
    pfc: Pfc::Policy,
    edge: Edge::AccessOnly(defaults::IOS_PORTFAST),
    stacks: true,
};
