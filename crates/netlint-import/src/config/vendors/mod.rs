//! What differs between the dialects the shared reader takes: one
//! [`VendorSpec`] per vendor, one file each (`nxos.rs`, `eos.rs`,
//! `ios.rs`, `os10.rs`), found by [`Vendor::spec`], the only match over
//! [`Vendor`] in `config/`.
//!
//! Everything the reader, detection and the defaults decide by vendor is a
//! field here, and every field is an enum or a value the vendor's file
//! states: nothing falls back to another vendor's behaviour. The shared
//! parser matches the spec's enums exhaustively (never `_ =>` over a
//! vendor; `tests::no_vendor_wildcards` reads the sources), so a new
//! variant is a compile error where it matters, and a new vendor is a new
//! file whose struct literal must name every field.
//!
//! Each default is [`Cited`]: a value with its source, a named constant of
//! [`crate::defaults`] (docs/import.md lists them).

mod eos;
mod ios;
mod nxos;
mod os10;

use crate::model::{Sourced, StpMode, Vendor};
use crate::vlans::VlanSet;

/// A vendor default: the value and the public document that states it
/// (one of the constants of [`crate::defaults`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cited<T> {
    pub value: T,
    pub source: &'static str,
}

impl<T: Copy> Cited<T> {
    /// The default as a fact: its value, marked as the vendor default.
    pub fn sourced(self) -> Sourced<T> {
        Sourced::default_from(self.value, self.source)
    }
}

/// One vendor's dialect: how to tell its configs, and what its switch
/// does about what the config leaves out.
#[derive(Clone, Copy, Debug)]
pub struct VendorSpec {
    pub vendor: Vendor,
    /// The name the design's comments use for the vendor (`OS10`).
    pub name: &'static str,
    /// Detection markers and their weights ([`crate::detect`]): the start
    /// of a line at its first column, or, when the marker starts with a
    /// blank, of an indented line's body. Each counts once per file.
    pub markers: &'static [(&'static str, u32)],
    /// The spanning-tree mode without a `spanning-tree mode` line.
    pub stp_mode: Cited<StpMode>,
    /// The layer of an Ethernet port or port-channel that says neither
    /// `switchport` nor `no switchport` and has no mode line.
    pub layer: Layer,
    /// What a trunk carries, and how its allowed-VLAN lines read.
    pub trunk: Trunk,
    /// Whether `interface vlanN` defines VLAN N (OS10 has no `vlan N`
    /// line for a VLAN with an interface).
    pub vlans_from_svis: bool,
    /// What a port's `mtu N` counts.
    pub mtu: Mtu,
    /// A port's `mtu` when it states none, in the meaning of [`Self::mtu`].
    pub port_mtu: Cited<u32>,
    /// Which QoS lines give the ETS shares.
    pub qos: Qos,
    /// Where PFC is turned on.
    pub pfc: Pfc,
    /// Which ports a plain edge line (and the global edge default) makes
    /// edge ports.
    pub edge: Edge,
    /// Catalyst stacking: `switch N provision TYPE` is read, and a config
    /// of two or more members ([`crate::model::SwitchConfig::stack_members`])
    /// is read as its members by the design.
    pub stacks: bool,
}

/// The default layer of a switchable port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// A switchport in access mode (VLAN 1), by this source.
    Switchport(&'static str),
    /// The system's default layer: `system default switchport` makes it
    /// layer 2; else the config's own `no switchport` lines (and no bare
    /// `switchport`) show layer 2 is the default (`l2_inferred`); else
    /// routed (`routed`). NX-OS.
    SystemDefault {
        routed: &'static str,
        l2_inferred: &'static str,
    },
}

/// What a trunk port carries when its allowed-VLAN lines leave it so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trunk {
    /// Every VLAN until an allowed list narrows it: a plain `switchport
    /// trunk allowed vlan LIST` replaces the set, `add` / `remove` /
    /// `except` edit it, `no switchport trunk allowed vlan` restores all;
    /// the untagged VLAN is `switchport trunk native vlan`.
    AllUnlessListed(&'static str),
    /// Only the VLANs it is given: each `switchport trunk allowed vlan
    /// LIST` adds, `no ... LIST` removes; the untagged VLAN of a trunk is
    /// written as its `switchport access vlan`. OS10.
    OnlyListed(&'static str),
}

impl Trunk {
    /// The VLANs a trunk carries before any allowed-VLAN line.
    pub fn base(self) -> VlanSet {
        match self {
            Trunk::AllUnlessListed(_) => VlanSet::all(),
            Trunk::OnlyListed(_) => VlanSet::EMPTY,
        }
    }

    /// The VLANs a trunk without an allowed-VLAN line carries, as the
    /// vendor default.
    pub fn default_allowed(self) -> Sourced<VlanSet> {
        match self {
            Trunk::AllUnlessListed(source) | Trunk::OnlyListed(source) => {
                Sourced::default_from(self.base(), source)
            }
        }
    }

    /// Whether a plain allowed-VLAN line (and its `no`) edits the set
    /// rather than replacing it.
    pub fn lists_edit(self) -> bool {
        match self {
            Trunk::AllUnlessListed(_) => false,
            Trunk::OnlyListed(_) => true,
        }
    }

    /// Whether a trunk's untagged VLAN is written apart from its allowed
    /// list, as its `switchport access vlan`: the allowed list then names
    /// the tagged VLANs only, and the untagged one crosses too.
    pub fn untagged_apart(self) -> bool {
        match self {
            Trunk::AllUnlessListed(_) => false,
            Trunk::OnlyListed(_) => true,
        }
    }
}

/// What `mtu N` on a switchport counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mtu {
    /// The payload a frame carries (the design's `mtu`). NX-OS, IOS.
    Payload,
    /// The whole frame: `overhead` bytes of Ethernet header (and FCS) on
    /// top of the payload. OS10.
    Frame { overhead: u32 },
    /// Routed packets only; switched frames are limited by `l2 mtu N`, a
    /// frame `l2_overhead` bytes over its payload, `l2_default` on a
    /// switchport that states none. EOS.
    Layer3 {
        l2_overhead: u32,
        l2_default: Cited<u32>,
    },
}

/// The QoS dialect the ETS shares are read from (docs/import.md, "ETS").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Qos {
    /// No ETS is read: the QoS sections are ignored as `qos`.
    None,
    /// `class-map type qos` (`match cos`), `policy-map type qos` (`set
    /// qos-group`), `policy-map type queuing` (`bandwidth percent` per
    /// `c-out-8q-qN` class), applied by `system qos` or a port's
    /// `service-policy type qos input`. NX-OS.
    NxOs,
    /// `class-map type queuing` (`match queue`), `policy-map type
    /// queuing`, `trust dot1p-map`, `qos-map traffic-class`, applied by
    /// `system qos` or the first port that names them. OS10.
    Os10,
    /// `qos map cos LIST to traffic-class T`, `qos map traffic-class LIST
    /// to tx-queue Q` and a port's `tx-queue Q` / `bandwidth percent S`
    /// (the first port that gives a share). EOS.
    Eos,
}

impl Qos {
    /// Whether `policy-map type queuing NAME` is read.
    pub fn reads_queuing_policies(self) -> bool {
        match self {
            Qos::NxOs | Qos::Os10 => true,
            Qos::Eos | Qos::None => false,
        }
    }
}

/// Where priority flow control is turned on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pfc {
    /// The no-drop classes of the network-qos policy in force pause on
    /// every port that does not turn PFC off.
    Policy,
    /// A port pauses only with `priority-flow-control mode on`, by this
    /// source. OS10.
    PortMode(&'static str),
}

/// What a port's plain edge line (`spanning-tree port type edge`,
/// `spanning-tree portfast`) and the switch's edge default reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    /// Access ports only: a trunk is an edge port by `... edge trunk` /
    /// `portfast trunk` (or `... edge trunk default`), never by a plain
    /// edge line or the plain default, by this source. NX-OS, IOS.
    AccessOnly(&'static str),
    /// Any switchport, access or trunk, by this source. EOS, OS10.
    AnyMode(&'static str),
}

impl Edge {
    /// Whether a plain edge line or default makes a trunk an edge port.
    pub fn plain_reaches_trunks(self) -> bool {
        match self {
            Edge::AccessOnly(_) => false,
            Edge::AnyMode(_) => true,
        }
    }

    pub fn source(self) -> &'static str {
        match self {
            Edge::AccessOnly(s) | Edge::AnyMode(s) => s,
        }
    }
}

impl Vendor {
    /// The vendor's dialect.
    pub fn spec(self) -> &'static VendorSpec {
        match self {
            Vendor::NxOs => &nxos::SPEC,
            Vendor::Eos => &eos::SPEC,
            Vendor::Ios => &ios::SPEC,
            Vendor::Os10 => &os10::SPEC,
        }
    }
}

#[cfg(test)]
mod tests;
