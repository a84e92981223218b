//! Switch ports configured one by one (`[switches.X.ports."Ethernet1/5"]`),
//! the native VLAN at each end of an inter-switch link, and the lookups the
//! analyses and rules share: which port a host NIC is cabled to, and which
//! settings apply to it (the port's own, else the switch's `host_ports`).

use crate::design::{Design, LagMode, Link, Nic, Switch, SwitchId, SwitchLag};
use crate::span::{Sp, Span};
use crate::units::Mtu;
use crate::vlans::VlanSet;

/// The VLAN a switch gives untagged frames when nothing says otherwise:
/// VLAN 1 on every common platform.
pub const DEFAULT_NATIVE_VLAN: u16 = 1;

/// One switch port configured on its own.
#[derive(Clone, Debug)]
pub struct SwitchPort {
    /// The port's name as the switch spells it (`Ethernet1/5`, `te1/0/5`).
    pub name: String,
    /// The table's header (or inline table).
    pub span: Span,
    /// Allowed VLANs of a trunk; `None` = every VLAN the switch defines.
    pub vlans: Option<Sp<VlanSet>>,
    /// The VLAN untagged frames belong to on a trunk; `None` = the switch's
    /// `host_ports.native_vlan` for a host-facing port, else VLAN 1.
    pub native_vlan: Option<Sp<u16>>,
    /// An access port: carries this one VLAN, untagged, and drops tagged
    /// frames.
    pub access_vlan: Option<Sp<u16>>,
    /// The largest payload the port forwards; `None` = the switch's MTU.
    pub mtu: Option<Sp<Mtu>>,
    pub edge: Option<Sp<bool>>,
    pub bpdu_guard: Option<Sp<bool>>,
    pub root_guard: Option<Sp<bool>>,
    pub bpdu_filter: Option<Sp<bool>>,
    /// How the port is bundled: an LACP or static port-channel, or none.
    pub lag: Option<Sp<SwitchLag>>,
    /// `pfc = false`: priority flow control is off on this port, so the
    /// switch's `dcb.pfc` priorities pause nothing here (Dell OS10 pauses
    /// a no-drop class only on ports with `priority-flow-control mode
    /// on`). `None` or `true`: the switch's `dcb.pfc` applies.
    pub pfc: Option<Sp<bool>>,
}

/// One end of a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    A,
    B,
}

/// A link's per-end settings: the native VLAN and the configured ports.
#[derive(Clone, Debug, Default)]
pub struct LinkEnds {
    /// `native_vlan`: both ends.
    pub native_vlan: Option<Sp<u16>>,
    pub native_vlan_a: Option<Sp<u16>>,
    pub native_vlan_b: Option<Sp<u16>>,
    /// `port_a`: a port configured on switch `a`.
    pub port_a: Option<Sp<String>>,
    /// `port_b`: a port configured on each switch of `b` (the port-channel
    /// of a multi-chassis LAG carries one name on every peer).
    pub port_b: Option<Sp<String>>,
    /// `vlans_a` / `vlans_b`: the VLANs each end allows, when the ends
    /// differ (an import of two configs keeps both); the link carries the
    /// VLANs both allow (`Link::vlans`, their intersection).
    pub vlans_a: Option<Sp<VlanSet>>,
    pub vlans_b: Option<Sp<VlanSet>>,
    /// `lag_a` / `lag_b`: how each end bundles the link's cables, when the
    /// ends differ (an import of two configs keeps both). Two ends that
    /// cannot bundle form no bundle: `Link::lag` is then `none` (see
    /// docs/format.md).
    pub lag_a: Option<Sp<LagMode>>,
    pub lag_b: Option<Sp<LagMode>>,
    /// `mtu_a` / `mtu_b`: the MTU of each switch's end, when the ends (or
    /// the peers of a multi-chassis end) differ: one entry per switch a
    /// value covers (a number covers every switch of its end), in the order
    /// written. The link carries the smallest (`Link::mtu`).
    pub mtus: Vec<EndMtu>,
}

/// The MTU one switch's end of a link runs (`mtu_a` / `mtu_b`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndMtu {
    pub end: End,
    pub switch: SwitchId,
    /// At the number, or at the switch's entry of the table.
    pub mtu: Sp<Mtu>,
}

/// A native VLAN at one end of a link, and where it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NativeAt {
    pub vlan: u16,
    /// The line that states it; `None` = not stated (VLAN 1).
    pub span: Option<Span>,
}

impl Switch {
    /// A port configured under `ports`, by name.
    pub fn port(&self, name: &str) -> Option<&SwitchPort> {
        self.ports.iter().find(|p| p.name == name)
    }
}

impl Link {
    /// The switches of one end: `a` and `a_more`, or every `b`.
    pub fn end_switches(&self, end: End) -> Vec<SwitchId> {
        match end {
            End::A => self.a_ends().map(|s| s.value).collect(),
            End::B => self.b.iter().map(|s| s.value).collect(),
        }
    }

    /// The MTU switch `s`'s end of the link runs as written: its
    /// `mtu_a` / `mtu_b` entry where the link writes either, else the
    /// link's `mtu`; `None`: the switch's own (the format's default).
    pub fn mtu_of(&self, s: SwitchId) -> Option<&Sp<Mtu>> {
        if self.ends.mtus.is_empty() {
            return self.mtu.as_ref();
        }
        self.ends
            .mtus
            .iter()
            .find(|e| e.switch == s)
            .map(|e| &e.mtu)
    }

    /// The configured port at one end, on switch `at` (one of the `b`
    /// switches for a multi-chassis LAG).
    pub fn port_at<'d>(&self, design: &'d Design, end: End, at: usize) -> Option<&'d SwitchPort> {
        let (name, switch) = match end {
            End::A => (self.ends.port_a.as_ref()?, self.a.value),
            End::B => (self.ends.port_b.as_ref()?, self.b.get(at)?.value),
        };
        design.switch(switch).port(&name.value)
    }

    /// The native VLAN at one end, on switch `at` of `b` for `End::B`
    /// (`native_vlan_b` holds for every `b` switch; `port_b` names a port
    /// configured on each, whose own `native_vlan` may differ).
    pub fn native_at(&self, design: &Design, end: End, at: usize) -> NativeAt {
        let own = match end {
            End::A => &self.ends.native_vlan_a,
            End::B => &self.ends.native_vlan_b,
        };
        let stated = own
            .as_ref()
            .or(self.ends.native_vlan.as_ref())
            .or_else(|| self.port_at(design, end, at)?.native_vlan.as_ref());
        match stated {
            Some(v) => NativeAt {
                vlan: v.value,
                span: Some(v.span),
            },
            None => NativeAt {
                vlan: DEFAULT_NATIVE_VLAN,
                span: None,
            },
        }
    }
}

/// How a host-facing port treats the frames of one network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PortVlan {
    /// Untagged frames land in this VLAN on the switch (`None`: no native
    /// VLAN is stated, the design's untagged segment as in format v1).
    Untagged(Option<u16>),
    /// Tagged frames of this VLAN pass.
    Tagged(u16),
}

/// Why a host-facing port does not pass a network's frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PortDrop {
    /// The VLAN is not in the port's allowed `vlans`.
    NotAllowed,
    /// An access port: it drops tagged frames (`access_vlan`).
    Access,
    /// The network's VLAN is the port's native VLAN: the switch sends it
    /// untagged, so the host's tagged interface never receives it.
    NativeTagged,
}

/// The settings that apply at a host NIC's switch port: the configured
/// port's own, else the switch's `host_ports`.
#[derive(Clone, Copy, Debug)]
pub struct HostPortView<'d> {
    pub switch: &'d Switch,
    pub port: Option<&'d SwitchPort>,
}

impl<'d> HostPortView<'d> {
    /// The port of `nic`, when it is cabled to a switch.
    pub fn of(design: &'d Design, nic: &Nic) -> Option<HostPortView<'d>> {
        let crate::design::Attachment::Switch(s) = nic.attach.as_ref()? else {
            return None;
        };
        let switch = design.switch(s.value);
        let port = nic.switch_port.as_ref().map(|p| &switch.ports[p.value]);
        Some(HostPortView { switch, port })
    }

    /// The native VLAN stated for this port (its own, else `host_ports`').
    pub fn native_vlan(&self) -> Option<&'d Sp<u16>> {
        self.port.and_then(|p| p.native_vlan.as_ref()).or(self
            .switch
            .host_ports
            .native_vlan
            .as_ref())
    }

    pub fn edge(&self) -> Option<&'d Sp<bool>> {
        self.port
            .and_then(|p| p.edge.as_ref())
            .or(self.switch.host_ports.edge.as_ref())
    }

    pub fn bpdu_guard(&self) -> Option<&'d Sp<bool>> {
        self.port
            .and_then(|p| p.bpdu_guard.as_ref())
            .or(self.switch.host_ports.bpdu_guard.as_ref())
    }

    /// Where a network with VLAN `vlan` (`None`: untagged) lands on the
    /// switch through this port, or why the port drops it.
    pub fn carries(&self, vlan: Option<u16>) -> Result<PortVlan, PortDrop> {
        let port = self.port;
        if let Some(a) = port.and_then(|p| p.access_vlan.as_ref()) {
            return match vlan {
                None => Ok(PortVlan::Untagged(Some(a.value))),
                Some(_) => Err(PortDrop::Access),
            };
        }
        let allowed = |v: u16| {
            port.and_then(|p| p.vlans.as_ref())
                .is_none_or(|set| set.value.contains(v))
        };
        let native = self.native_vlan().map(|n| n.value);
        match vlan {
            Some(v) if native == Some(v) => Err(PortDrop::NativeTagged),
            Some(v) if !allowed(v) => Err(PortDrop::NotAllowed),
            Some(v) => Ok(PortVlan::Tagged(v)),
            None => match native {
                Some(n) if !allowed(n) => Err(PortDrop::NotAllowed),
                n => Ok(PortVlan::Untagged(n)),
            },
        }
    }

    /// The line that decides `carries` for this VLAN: the port's `vlans`,
    /// `access_vlan` or `native_vlan`, `host_ports`' `native_vlan`, or the
    /// port's header.
    pub fn deciding_span(&self, vlan: Option<u16>) -> Span {
        let p = self.port;
        let access = p.and_then(|p| p.access_vlan.as_ref()).map(|a| a.span);
        let native = self.native_vlan().map(|n| n.span);
        let vlans = p.and_then(|p| p.vlans.as_ref()).map(|v| v.span);
        let header = p.map(|p| p.span).unwrap_or(self.switch.span);
        match self.carries(vlan) {
            Err(PortDrop::Access) => access,
            Err(PortDrop::NativeTagged) => native,
            Err(PortDrop::NotAllowed) => vlans,
            Ok(PortVlan::Untagged(_)) => access.or(native),
            Ok(PortVlan::Tagged(_)) => vlans,
        }
        .unwrap_or(header)
    }
}

impl Design {
    /// Every VLAN a host's untagged frames can land in through a port's
    /// native or access VLAN: forwarding and the spanning tree must know
    /// them as well as the networks' own VLANs.
    pub fn port_vlans(&self) -> VlanSet {
        let mut out = VlanSet::new();
        for s in &self.switches {
            if let Some(n) = &s.host_ports.native_vlan {
                out.insert(n.value);
            }
            for p in &s.ports {
                for v in [&p.native_vlan, &p.access_vlan].into_iter().flatten() {
                    out.insert(v.value);
                }
            }
        }
        out
    }
}
