//! Vendor defaults: what a switch does about what its config leaves out,
//! each with the public document that states it (docs/import.md lists
//! them with their sources). A running-config omits a setting at its
//! default, so these fill most of a real import. Each vendor's
//! [`VendorSpec`](crate::config::vendors::VendorSpec) names the ones it
//! takes (`config/vendors/`).

use std::collections::BTreeMap;

use crate::model::*;

/// NX-OS runs Rapid PVST+ unless told otherwise.
pub const NXOS_STP: &str = "https://developer.cisco.com/docs/cisco-nexus-3000-and-9000-series-nx-api-rest-sdk-user-guide-and-api-reference-release-103x/configuring-stp";
/// EOS runs MSTP unless told otherwise.
pub const EOS_STP: &str = "https://netlab.tools/module/stp (EOS: MSTP is enabled by default)";
/// OS10 runs RPVST+ unless told otherwise.
pub const OS10_STP: &str = "Dell EMC PowerEdge MX SmartFabric Configuration and Troubleshooting Guide, 3.3 Spanning Tree Protocol (OS10 uses RPVST+ by default on all switching platforms); https://netlab.tools/module/stp";
/// IOS: PVST+ where the config does not say (IOS writes `spanning-tree
/// mode` into every running-config, so this default is rarely used).
pub const IOS_STP: &str = "https://livebook.manning.com/learn/concepts/spanning-tree-mode-command--api-element/acing-the-ccna-exam-fundamentals-and-protocols (PVST+; the default depends on model and release)";
/// Bridge priority 32768 on every platform (IEEE 802.1D default).
pub const PRIORITY: &str = "IEEE 802.1D-2004 17.14 Table 17-2 (bridge priority 32768); https://developer.aliyun.com/article/103676 (NX-OS and IOS: 32768)";
/// A trunk without an allowed list carries every VLAN (Cisco, Arista).
pub const TRUNK_ALL: &str =
    "Cisco and Arista: a trunk with no `switchport trunk allowed vlan` carries VLANs 1-4094";
/// An OS10 MST region without `name` is named by the switch's system MAC
/// address: a region of that switch alone.
pub const OS10_MST_NAME: &str = "Dell SmartFabric OS10 User Guide 10.5, MST `name`: default System MAC address (\"By default, the MST protocol assigns the system MAC address as the region name\")";
/// An OS10 trunk carries only the VLANs it is given.
pub const OS10_TRUNK: &str = "Dell OS10: `switchport mode trunk` carries only VLANs added with `switchport trunk allowed vlan`";
/// The native / access VLAN is 1.
pub const VLAN1: &str =
    "IEEE 802.1Q default PVID 1; the default access and native VLAN of all four systems";
/// A Nexus 9000 port is routed unless `system default switchport`.
pub const NXOS_L3: &str = "https://developer.cisco.com/docs/cisco-nexus-3000-and-9000-series-nx-api-rest-sdk-user-guide-and-api-reference-release-9-3x/configuring-system-default-switchport (Nexus 9000 ports are layer 3 unless `system default switchport`)";
/// NX-OS: the config's own `no switchport` lines show layer 2 is the
/// default (the reason of an inference, not a default).
pub const NXOS_L2_INFERRED: &str = "NX-OS writes only ports that differ from the system default layer: ports here carry `no switchport` and none a bare `switchport`, so the default is layer 2 (Nexus 3000/5000/6000, or `system default switchport`)";
/// A port with an access VLAN and no mode line is taken as an access port
/// (the reason of an inference, not a default).
pub const ACCESS_INFERRED: &str =
    "the port sets `switchport access vlan` and no `switchport mode`: taken as an access port";
/// EOS, IOS and OS10 ports are switchports in access mode, VLAN 1.
pub const L2_ACCESS: &str =
    "EOS, IOS and OS10: an Ethernet port is a switchport in access mode (VLAN 1) until configured";
/// A VLAN interface, loopback or management port routes.
pub const L3_KIND: &str =
    "a VLAN interface (SVI), loopback or management port is a layer-3 interface";
/// OS10 `mtu` counts the Ethernet header; 1532 by default.
pub const OS10_MTU: &str = "https://www.manualshelf.com/manual/dell/powerswitch-s4048-on/1-users-guide-english/page-297.html (OS10 mtu: link frame size, default 1532 bytes)";
/// EOS `mtu` is the layer-3 MTU, 1500 by default.
pub const EOS_MTU: &str = "https://arista.com/zh/um-eos/eos-support-for-layer-3-mtu-on-7280r37500r37800r3 (EOS mtu is the layer-3 MTU, default 1500)";
/// EOS switchports forward jumbo frames without configuration: `mtu` is
/// enforced on routed traffic only, and an Ethernet switchport without
/// `l2 mtu` shows an L2 MTU status of 9234 bytes (`show interfaces
/// ethernet N l2 mtu`), the platform's jumbo frame, header and FCS
/// counted: the frame the design's `frame_size` counts.
pub const EOS_L2_FRAME: u32 = 9234;
/// The source of [`EOS_L2_FRAME`].
pub const EOS_L2_MTU: &str = "https://eos.arista.com/forum/jumbo-frame-mtu-sizes/ (`show interfaces ethernet 1 l2 mtu`: no MTU configured, MTU status 9234) and https://aristaeos.blogspot.com/2020/03/arista-eos-mtu-behavior-1.html (EOS mtu is enforced on routed packets only, no action on switched traffic)";
/// OS10 turns PFC on per interface: a network-qos policy's `pause` /
/// `pfc-cos` classes pause nothing on a port without `priority-flow-control
/// mode on`.
pub const OS10_PFC_MODE: &str = "Dell SmartFabric OS10 User Guide, Priority flow control (PFC is enabled on an interface with `priority-flow-control mode on`, with the network-qos policy applied by `service-policy input type network-qos`)";
/// NX-OS and IOS ports: MTU 1500.
pub const CISCO_MTU: &str =
    "Cisco NX-OS and IOS interface configuration guides: default MTU 1500 bytes";

/// NX-OS: `spanning-tree port type edge` (and its global `... edge
/// default`) makes an access port an edge port; a trunk is an edge port
/// only with `spanning-tree port type edge trunk`.
pub const NXOS_EDGE: &str = "Cisco Nexus 9000 Series NX-OS Layer 2 Switching Configuration Guide, Configuring STP Extensions (`spanning-tree port type edge` configures access interfaces as edge ports; `spanning-tree port type edge trunk` a trunk; a trunk given plain `edge` is told: \"Portfast has been configured on ... but will only have effect when the interface is in a non-trunking mode\"); https://www.cisco.com/c/en/us/td/docs/dcn/nexus3550/3550-t/sw/101x/configuration/cisco-nexus-3550t-configuration-guide/m-configuring-stp-extensions-using-cisco-nx-os.html";
/// IOS: `spanning-tree portfast` (and `portfast default`) on nontrunking
/// ports only; `portfast trunk` / `portfast edge trunk` on a trunk.
pub const IOS_PORTFAST: &str = "Cisco Catalyst 2960-X Command Reference, spanning-tree portfast (global configuration): `spanning-tree portfast default` enables PortFast on all nontrunking interfaces; Catalyst 4500 IOS XE 3.3.0XO Command Reference, spanning-tree portfast (interface): `portfast trunk` configures PortFast on trunk ports, a plain `portfast` has effect only in a non-trunking mode (https://www.manualslib.com/manual/1351023/Cisco-Catalyst-2960-X.html?page=113)";
/// EOS and OS10: the port's edge line makes it an edge port whatever its
/// mode (no trunk keyword exists).
pub const EDGE_ANY_MODE: &str = "Arista EOS User Manual, Spanning Tree Protocol, Port Roles and Rapid Convergence (`spanning-tree portfast` makes a port an edge port, access or trunk); Dell SmartFabric OS10 User Guide, spanning-tree port type edge (interface mode, no trunk variant)";

/// Spanning tree before any line of the config is read.
pub fn stp(vendor: Vendor) -> Stp {
    Stp {
        mode: vendor.spec().stp_mode.sourced(),
        default_priority: Sourced::default_from(32768, PRIORITY),
        bridge_priority: None,
        vlan_priorities: BTreeMap::new(),
        disabled_vlans: BTreeMap::new(),
        mst: Mst::default(),
        path_cost: None,
        edge_default: None,
        edge_trunk_default: None,
        bpdu_guard_default: None,
    }
}
