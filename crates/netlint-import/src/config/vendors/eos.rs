//! Arista EOS.

use super::*;
use crate::defaults;

pub(super) const SPEC: VendorSpec = VendorSpec {
    vendor: Vendor::Eos,
    name: "EOS",
    markers: &[
        ("! device: ", 6),
        ("! boot system flash", 6),
        ("mlag configuration", 5),
        ("interface Management1", 4),
        ("management api http-commands", 4),
        ("daemon TerminAttr", 4),
        ("service routing protocols model", 4),
        ("transceiver qsfp default-mode", 4),
        ("switchport trunk group", 3),
        (" switchport trunk group", 3),
        ("interface Port-Channel", 2),
        ("spanning-tree portfast", 1),
    ],
    stp_mode: Cited {
        value: StpMode::Mst,
        source: defaults::EOS_STP,
    },
    layer: Layer::Switchport(defaults::L2_ACCESS),
    trunk: Trunk::AllUnlessListed(defaults::TRUNK_ALL),
    vlans_from_svis: false,
    // `mtu` is the layer-3 MTU; switched frames are limited by `l2 mtu`.
    mtu: Mtu::Layer3 {
        l2_overhead: 18,
        l2_default: Cited {
            value: defaults::EOS_L2_FRAME,
            source: defaults::EOS_L2_MTU,
        },
    },
    port_mtu: Cited {
        value: 1500,
        source: defaults::EOS_MTU,
    },
    qos: Qos::Eos,
    pfc: Pfc::Policy,
    edge: Edge::AnyMode(defaults::EDGE_ANY_MODE),
    stacks: false,
};
