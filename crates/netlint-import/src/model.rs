//! The vendor-neutral facts of one switch configuration, each value with
//! where it came from.
//!
//! Every value is a [`Sourced`]: the line of the file that set it, a
//! vendor default with the document that states it, or an inference from
//! other lines, with why. The file is the document's own
//! ([`SwitchConfig::file`]); lines are 1-based and count `\r\n`, `\n` and
//! a lone `\r` as one line break each.

use std::collections::BTreeMap;
use std::fmt;

use crate::names::IfName;
use crate::summary::ImportSummary;
use crate::vlans::VlanSet;

/// Where a value came from.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The line of the input file (1-based) that set it.
    Line(u32),
    /// The vendor's default, with the public document that states it.
    VendorDefault { source: &'static str },
    /// Deduced from other lines, none of which states it: why the value
    /// follows, and the lines it follows from (a port's mode from its
    /// `switchport access vlan` line, the default layer of an NX-OS switch
    /// from its `no switchport` lines).
    Inferred { why: &'static str, from: Lines },
}

/// The lines an inference follows from, in file order: the first
/// [`Lines::KEPT`] of them, and how many there are in all.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Lines {
    kept: [u32; Lines::KEPT],
    len: u32,
}

impl Lines {
    /// How many lines are kept (a value stays `Copy`).
    pub const KEPT: usize = 4;

    /// The lines, sorted, each once.
    pub fn of(lines: impl IntoIterator<Item = u32>) -> Lines {
        let mut all: Vec<u32> = lines.into_iter().collect();
        all.sort_unstable();
        all.dedup();
        let mut kept = [0; Lines::KEPT];
        for (k, l) in kept.iter_mut().zip(&all) {
            *k = *l;
        }
        Lines {
            kept,
            len: all.len() as u32,
        }
    }

    /// The kept lines (the first [`Lines::KEPT`]).
    pub fn kept(&self) -> &[u32] {
        &self.kept[..(self.len as usize).min(Lines::KEPT)]
    }

    /// How many lines there are in all, kept or not.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl fmt::Debug for Lines {
    /// `L3,L7 +2`: the kept lines, and how many more there are.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kept: Vec<String> = self.kept().iter().map(|l| format!("L{l}")).collect();
        write!(f, "{}", kept.join(","))?;
        match self.len() - self.kept().len() {
            0 => Ok(()),
            more => write!(f, " +{more}"),
        }
    }
}

/// A value and its origin.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Sourced<T> {
    pub value: T,
    pub origin: Origin,
}

impl<T> Sourced<T> {
    pub fn at(value: T, line: u32) -> Self {
        Sourced {
            value,
            origin: Origin::Line(line),
        }
    }

    pub fn default_from(value: T, source: &'static str) -> Self {
        Sourced {
            value,
            origin: Origin::VendorDefault { source },
        }
    }

    /// A value no line states, deduced from `from` for the reason `why`.
    pub fn inferred(value: T, why: &'static str, from: impl IntoIterator<Item = u32>) -> Self {
        Sourced {
            value,
            origin: Origin::Inferred {
                why,
                from: Lines::of(from),
            },
        }
    }

    /// The line that set the value; `None` for a vendor default or an
    /// inference (no line states it).
    pub fn line(&self) -> Option<u32> {
        match self.origin {
            Origin::Line(l) => Some(l),
            Origin::VendorDefault { .. } | Origin::Inferred { .. } => None,
        }
    }

    pub fn is_default(&self) -> bool {
        matches!(self.origin, Origin::VendorDefault { .. })
    }

    pub fn is_inferred(&self) -> bool {
        matches!(self.origin, Origin::Inferred { .. })
    }

    /// Whether a line of the input states the value.
    pub fn is_configured(&self) -> bool {
        matches!(self.origin, Origin::Line(_))
    }
}

impl fmt::Debug for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Line(l) => write!(f, "L{l}"),
            Origin::VendorDefault { source } => write!(f, "default <{source}>"),
            Origin::Inferred { why, from } => write!(f, "inferred from {from:?} <{why}>"),
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for Sourced<T> {
    /// `value @L12`, `value @default <url>` or `value @inferred from L3,L7
    /// <why>`: compact in snapshots.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} @{:?}", self.value, self.origin)
    }
}

/// The operating systems read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Vendor {
    /// Cisco NX-OS (Nexus).
    NxOs,
    /// Arista EOS.
    Eos,
    /// Cisco IOS and IOS-XE (Catalyst).
    Ios,
    /// Dell SmartFabric OS10.
    Os10,
}

impl Vendor {
    pub const ALL: [Vendor; 4] = [Vendor::NxOs, Vendor::Eos, Vendor::Ios, Vendor::Os10];

    /// The name `--from` takes: `nxos`, `eos`, `ios`, `os10`.
    pub fn key(self) -> &'static str {
        match self {
            Vendor::NxOs => "nxos",
            Vendor::Eos => "eos",
            Vendor::Ios => "ios",
            Vendor::Os10 => "os10",
        }
    }
}

/// Everything read from one running-config.
#[derive(Clone, Debug)]
pub struct SwitchConfig {
    /// The file as given.
    pub file: String,
    pub vendor: Vendor,
    /// `hostname` (NX-OS also `switchname`).
    pub hostname: Option<Sourced<String>>,
    /// VLANs defined with `vlan N` (names from `name`), by id.
    pub vlans: BTreeMap<u16, Vlan>,
    /// Interfaces in file order; an interface written twice is one entry.
    pub interfaces: Vec<Interface>,
    pub stp: Stp,
    /// vPC, MLAG or VLT domain.
    pub mlag: Option<MlagDomain>,
    pub mtu: SystemMtu,
    pub dcb: Dcb,
    /// `interface breakout ...` lines: the ports they split, each with the
    /// speed of one of its lanes.
    pub breakouts: Vec<Breakout>,
    /// The mode of an Ethernet port the config has no `interface` stanza
    /// for: the vendor's default layer (an access port in VLAN 1, or
    /// routed on a Nexus 9000 without `system default switchport`), as the
    /// ports that have a stanza but no mode line get it.
    pub default_mode: Sourced<PortMode>,
    /// Catalyst `switch N provision TYPE`: the stack members the config
    /// provisions, by member number, with their switch type.
    pub provisioned: BTreeMap<u32, Sourced<String>>,
    /// Set on one member of a Catalyst stack read as its members
    /// ([`SwitchConfig::stack_members`]): the stack and this member.
    pub stack: Option<StackMember>,
    pub summary: ImportSummary,
}

/// One member of a Catalyst stack whose one config was read as its
/// members: its interfaces are those numbered on it.
#[derive(Clone, Debug)]
pub struct StackMember {
    /// The stack's name: the config's hostname (else its file's stem).
    pub name: String,
    /// The member number (`switch N provision`, `GigabitEthernetN/0/P`).
    pub member: u32,
    /// The line that tells of the member: its `switch N provision` line,
    /// else its first interface.
    pub line: u32,
    /// Every member of the stack, in order.
    pub members: Vec<u32>,
}

/// The stack member a Catalyst port is numbered on: `GigabitEthernet2/0/1`
/// and `TenGigabitEthernet2/1/1` are on member 2 (Catalyst stacking
/// switches number a port switch/module/port, the switch being the
/// stack member: Cisco Catalyst 3650 / 9300 "Managing Switch Stacks").
/// `None` for a port-channel, an SVI, the `GigabitEthernet0/0`
/// management port and every name of fewer or more than three numbers.
pub fn stack_member_of(name: &IfName) -> Option<u32> {
    if name.kind() != crate::names::IfKind::Ethernet {
        return None;
    }
    let s = name.as_str();
    let digits = s.find(|c: char| c.is_ascii_digit())?;
    let parts: Vec<&str> = s[digits..].split('/').collect();
    if parts.len() != 3
        || !parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    parts[0]
        .parse::<u32>()
        .ok()
        .filter(|m| (1..=16).contains(m))
}

/// One port split by an `interface breakout` line: NX-OS `interface
/// breakout module 1 port 49 map 10g-4x` makes Ethernet1/49/1-4, OS10
/// `interface breakout 1/1/25 map 40g-1x` makes ethernet1/1/25:1 (the
/// name of each lane is the port's, then `/N` or `:N`).
#[derive(Clone, Debug)]
pub struct Breakout {
    pub port: IfName,
    /// The speed of each port the breakout makes, in Mb/s.
    pub mbps: Sourced<u32>,
}

impl SwitchConfig {
    /// The members of the Catalyst stack this config is, in order: the
    /// member numbers of its `switch N provision` lines and of its ports
    /// (`GigabitEthernetN/0/P`), when they are two or more; else empty
    /// (one switch, read as today). Catalyst (IOS) only.
    pub fn stack_members(&self) -> Vec<u32> {
        if !self.vendor.spec().stacks {
            return Vec::new();
        }
        let mut members: std::collections::BTreeSet<u32> =
            self.provisioned.keys().copied().collect();
        members.extend(
            self.interfaces
                .iter()
                .filter_map(|i| stack_member_of(&i.name)),
        );
        if members.len() < 2 {
            return Vec::new();
        }
        members.into_iter().collect()
    }

    /// A port the config has no `interface` stanza for, as the vendor
    /// leaves it: the switch's default layer (an access port in VLAN 1, or
    /// routed where ports are routed by default) and the vendor's default
    /// MTU, each with its source. Its `line` is 0: no line states it.
    pub fn default_port(&self, name: IfName) -> Interface {
        let access = self.default_mode.value == PortMode::Access;
        Interface {
            written: name.as_str().to_string(),
            name,
            line: 0,
            mode: self.default_mode,
            access_vlan: access.then(|| Sourced::default_from(1, crate::defaults::VLAN1)),
            native_vlan: None,
            allowed_vlans: None,
            allowed_lines: Vec::new(),
            mtu: Some(self.vendor.spec().port_mtu.sourced()),
            l2_mtu: None,
            speed: None,
            shutdown: None,
            description: None,
            channel_group: None,
            mc_lag: None,
            trunk_groups: Vec::new(),
            stp: PortStp::default(),
            pfc: None,
            pfc_no_drop: BTreeMap::new(),
        }
    }

    /// The interface with this name, matched across abbreviations.
    pub fn interface(&self, name: &str) -> Option<&Interface> {
        let name = IfName::parse(name)?;
        self.interfaces.iter().find(|i| i.name == name)
    }

    /// The speed a breakout line gives this port: the port it splits, or
    /// one of the ports it makes (`Ethernet1/49/2`, `ethernet1/1/25:1`).
    pub fn breakout_speed(&self, name: &str) -> Option<Sourced<u32>> {
        let name = IfName::parse(name)?;
        self.breakouts
            .iter()
            .find(|b| {
                let lane = name.as_str().strip_prefix(b.port.as_str());
                lane.is_some_and(|rest| {
                    rest.is_empty()
                        || rest
                            .strip_prefix(['/', ':'])
                            .is_some_and(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()))
                })
            })
            .map(|b| b.mbps)
    }
}

/// A VLAN defined on the switch.
#[derive(Clone, Debug)]
pub struct Vlan {
    /// The `vlan` line (the first, when a range line defines it).
    pub line: u32,
    pub name: Option<Sourced<String>>,
    /// EOS `trunk group`: the VLAN crosses only trunks of these groups.
    pub trunk_groups: Vec<Sourced<String>>,
}

/// Layer-2 or layer-3 behaviour of a port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PortMode {
    Access,
    Trunk,
    /// `no switchport`: a routed port.
    Routed,
    /// A mode read but not modelled (`dot1q-tunnel`, `private-vlan`, ...).
    Other,
}

/// LACP or static membership of a port-channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LagMode {
    Active,
    Passive,
    /// `mode on`: static, no LACP.
    On,
    /// Cisco PAgP (`desirable`, `auto`).
    Pagp,
}

/// `channel-group N mode M` on a member port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChannelGroup {
    pub id: u32,
    pub mode: LagMode,
}

/// The multi-chassis role of a port-channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum McLag {
    /// `vpc N`, `mlag N`, `vlt-port-channel N`.
    Member(u32),
    /// `vpc peer-link` (EOS and OS10 name the peer link in the domain).
    PeerLink,
}

/// How a port treats spanning tree at its edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeMode {
    /// `spanning-tree port type edge`, `portfast`: an access edge port.
    Edge,
    /// `... edge trunk`, `portfast trunk`: an edge port that trunks.
    EdgeTrunk,
    /// `spanning-tree port type network`: bridge assurance port.
    Network,
    /// `spanning-tree port type normal`, `no spanning-tree portfast`.
    Normal,
}

/// Spanning-tree settings of one port.
#[derive(Clone, Debug, Default)]
pub struct PortStp {
    pub edge: Option<Sourced<EdgeMode>>,
    pub bpdu_guard: Option<Sourced<bool>>,
    pub bpdu_filter: Option<Sourced<bool>>,
    pub root_guard: Option<Sourced<bool>>,
    pub loop_guard: Option<Sourced<bool>>,
    pub cost: Option<Sourced<u32>>,
    /// The port's cost per MST instance: Cisco `spanning-tree mst LIST
    /// cost N`, OS10 `spanning-tree msti N cost C`.
    pub mst_cost: std::collections::BTreeMap<u16, Sourced<u32>>,
    pub port_priority: Option<Sourced<u16>>,
}

/// A port's speed: megabits per second, or `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PortSpeed {
    Mbps(u32),
    Auto,
}

/// One interface and everything said under it.
#[derive(Clone, Debug)]
pub struct Interface {
    pub name: IfName,
    /// The name as written on the `interface` line.
    pub written: String,
    /// The `interface` line.
    pub line: u32,
    pub mode: Sourced<PortMode>,
    pub access_vlan: Option<Sourced<u16>>,
    pub native_vlan: Option<Sourced<u16>>,
    /// The VLANs a trunk carries, after every `add`, `remove` and `except`;
    /// the origin is the last line that changed the list.
    pub allowed_vlans: Option<Sourced<VlanSet>>,
    /// Every line that changed the allowed list, in order.
    pub allowed_lines: Vec<u32>,
    /// `mtu`: on NX-OS and IOS the port's frame MTU; on EOS the layer-3
    /// MTU of a routed port or SVI; on OS10 the frame size including the
    /// Ethernet header.
    pub mtu: Option<Sourced<u32>>,
    /// EOS `l2 mtu`: the largest frame a switchport forwards.
    pub l2_mtu: Option<Sourced<u32>>,
    pub speed: Option<Sourced<PortSpeed>>,
    pub shutdown: Option<Sourced<bool>>,
    pub description: Option<Sourced<String>>,
    pub channel_group: Option<Sourced<ChannelGroup>>,
    pub mc_lag: Option<Sourced<McLag>>,
    /// EOS `switchport trunk group`: the trunk carries the VLANs of these
    /// groups even when their VLANs are restricted to trunk groups.
    pub trunk_groups: Vec<Sourced<String>>,
    pub stp: PortStp,
    /// `priority-flow-control mode on` (or `auto`, kept as `false`).
    pub pfc: Option<Sourced<bool>>,
    /// EOS `priority-flow-control priority N no-drop`.
    pub pfc_no_drop: BTreeMap<u8, Sourced<bool>>,
}

/// The spanning-tree protocol a switch runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StpMode {
    /// Cisco PVST+ (802.1D per VLAN).
    Pvst,
    /// Rapid PVST+ (802.1w per VLAN).
    RapidPvst,
    /// MSTP (802.1s).
    Mst,
    /// One RSTP tree (802.1w).
    Rstp,
    /// Classic STP (802.1D).
    Stp,
    /// Spanning tree off (`spanning-tree mode none`, `no spanning-tree`).
    None,
}

/// How a bridge priority was stated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PriorityHow {
    /// `priority N`.
    Value,
    /// `root primary`: 24576, or 4096 below a lower current root at the
    /// time the command ran (the macro reads the network then).
    RootPrimary,
    /// `root secondary`: 28672.
    RootSecondary,
}

/// A bridge priority.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Priority {
    pub value: u32,
    pub how: PriorityHow,
}

/// The path-cost method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathCost {
    /// 16-bit 802.1D-1998 costs.
    Short,
    /// 32-bit 802.1t costs.
    Long,
}

/// Spanning tree of the whole switch.
#[derive(Clone, Debug)]
pub struct Stp {
    pub mode: Sourced<StpMode>,
    /// The priority a bridge (a VLAN's, an instance's) has when none is set.
    pub default_priority: Sourced<u32>,
    /// One-tree priority: EOS `spanning-tree priority`, OS10
    /// `spanning-tree rstp priority`.
    pub bridge_priority: Option<Sourced<Priority>>,
    /// Per-VLAN priorities (PVST+, Rapid PVST+).
    pub vlan_priorities: BTreeMap<u16, Sourced<Priority>>,
    /// VLANs with spanning tree switched off (`no spanning-tree vlan X`).
    pub disabled_vlans: BTreeMap<u16, u32>,
    pub mst: Mst,
    pub path_cost: Option<Sourced<PathCost>>,
    /// `spanning-tree port type edge default`, `portfast default`.
    pub edge_default: Option<Sourced<bool>>,
    /// `spanning-tree port type edge trunk default`: trunks edge ports by
    /// default, where plain `edge` does not reach a trunk (NX-OS).
    pub edge_trunk_default: Option<Sourced<bool>>,
    /// `... bpduguard default`: BPDU guard on every edge port.
    pub bpdu_guard_default: Option<Sourced<bool>>,
}

/// MST region and instances.
#[derive(Clone, Debug, Default)]
pub struct Mst {
    pub name: Option<Sourced<String>>,
    pub revision: Option<Sourced<u32>>,
    /// Instance -> VLANs mapped to it (instance 0 holds the rest).
    pub instances: BTreeMap<u16, Sourced<VlanSet>>,
    /// Instance -> priority.
    pub priorities: BTreeMap<u16, Sourced<Priority>>,
}

/// Which multi-chassis LAG technology.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MlagKind {
    /// Cisco vPC.
    Vpc,
    /// Arista MLAG.
    Mlag,
    /// Dell VLT.
    Vlt,
}

/// The vPC / MLAG / VLT domain of the switch.
#[derive(Clone, Debug)]
pub struct MlagDomain {
    pub kind: MlagKind,
    /// The domain line (`vpc domain 10`, `mlag configuration`, `vlt-domain 1`).
    pub line: u32,
    /// The domain id (`vpc domain 10`, EOS `domain-id`, `vlt-domain 1`).
    pub domain_id: Option<Sourced<String>>,
    /// The peer link: a port-channel (vPC, MLAG) or the discovery
    /// interfaces of VLT.
    pub peer_links: Vec<Sourced<IfName>>,
    /// `peer-keepalive destination`, EOS `peer-address`, VLT `backup destination`.
    pub peer_address: Option<Sourced<String>>,
    /// vPC `peer-switch`: both peers send BPDUs as one bridge.
    pub peer_switch: Option<Sourced<bool>>,
    /// `role priority`, VLT `primary-priority`.
    pub role_priority: Option<Sourced<u32>>,
}

/// System-wide MTU settings.
#[derive(Clone, Debug, Default)]
pub struct SystemMtu {
    /// NX-OS `system jumbomtu`: the largest MTU a port may be given.
    pub jumbo: Option<Sourced<u32>>,
    /// IOS `system mtu` / `system mtu jumbo`; EOS `interface defaults` `mtu`.
    pub system: Option<Sourced<u32>>,
    /// NX-OS network-qos MTU of the policy `system qos` applies, by class.
    pub network_qos: BTreeMap<String, Sourced<u32>>,
}

/// Data-centre bridging.
#[derive(Clone, Debug, Default)]
pub struct Dcb {
    /// OS10 `dcbx enable`; NX-OS/EOS LLDP DCBX TLV settings.
    pub dcbx: Option<Sourced<bool>>,
    /// EOS `dcbx mode ieee|cee` on a port (the first port that states
    /// one; `none` turns DCBX off there).
    pub dcbx_mode: Option<Sourced<String>>,
    /// CoS values paused (no-drop) by the network-qos policy in force
    /// (NX-OS `pause pfc-cos`, OS10 `pfc-cos`), and EOS no-drop priorities
    /// stated per interface are on the interface.
    pub no_drop_cos: BTreeMap<u8, Sourced<bool>>,
    /// `system qos` / `system qos` service-policy network-qos name.
    pub network_qos_policy: Option<Sourced<String>>,
    /// LLDP switched on or off globally (`feature lldp`, `no lldp run`...).
    pub lldp: Option<Sourced<bool>>,
    /// ETS bandwidth share (percent) per CoS, as configured: NX-OS, the
    /// `bandwidth [remaining] percent` of the egress queue
    /// (`c-out-8q-qN`, queue N = qos-group N) of the queuing policy
    /// `system qos` applies, for each CoS a `policy-map type qos` in force
    /// sets into that qos-group (`match cos` / `set qos-group`). A CoS no
    /// class names (the default class) has no entry.
    pub ets: BTreeMap<u8, Sourced<u32>>,
}

#[cfg(test)]
mod stack_tests {
    use super::*;

    #[test]
    fn a_catalyst_port_is_on_the_member_its_first_number_names() {
        let on = |n: &str| stack_member_of(&IfName::parse(n).unwrap());
        assert_eq!(on("GigabitEthernet2/0/1"), Some(2));
        assert_eq!(on("Te1/1/4"), Some(1));
        assert_eq!(on("GigabitEthernet0/0"), None);
        assert_eq!(on("Ethernet1/1"), None);
        assert_eq!(on("Port-channel1"), None);
        assert_eq!(on("Vlan10"), None);
        // OS10's ethernet1/1/1 is three numbers too, but only IOS is read
        // as a stack (`SwitchConfig::stack_members`).
    }
}
