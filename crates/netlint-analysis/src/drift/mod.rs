//! Drift: the design against the network as built (another `Design`, read
//! from a design file or imported from switch configs, LLDP and cabling).
//!
//! [`drift`] pairs the elements of the two designs ([`matching`]) and
//! compares every value that changes what the network does: VLANs allowed
//! on trunks and ports or defined on switches, MTUs, spanning-tree mode,
//! priority and MST region, cabling, LAGs, teams, vNICs, SMB bandwidth
//! limits, RDMA, DCB, live migration, networks' roles where the as-built
//! tells them apart ([`role_fits`]), and elements present on one side
//! only. Descriptions, comments, names and the order of tables are not
//! compared. The result is facts only: which element ([`At`]), which value
//! ([`Field`]), the value on each side ([`Value`]) and the line that sets
//! it on each side; `netlint_rules`' drift rules word them and judge their
//! consequence. `docs/drift.md` describes the matching and what counts.

mod fabric;
mod hosts;
pub mod matching;
mod networks;
pub mod trees;

pub use networks::role_fits;

pub use matching::{match_designs, HostParts, MatchedBy, Matching, Pairs};

use netlint_model::{
    Bandwidth, Design, HostId, LagMode, LinkId, LoadBalancing, Mtu, NetworkId, NicIdx, PolicyMatch,
    Protocol, Rdma, Role, Span, StpMode, SwitchId, SwitchLag, TeamIdx, TeamMode, Transport,
    VSwitchIdx, VlanSet,
};
use std::collections::{BTreeMap, BTreeSet};

/// The same thing on both sides: design, then as built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Two<T> {
    pub design: T,
    pub built: T,
}

/// The element a difference is about, by its id on each side (`None` on
/// the side it is missing from).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum At {
    Switch(Two<Option<SwitchId>>),
    Link(Two<Option<LinkId>>),
    /// A port configured one by one on a matched switch (`None` on the
    /// side that has no table for it: the switch's defaults apply there).
    Port {
        switch: Two<SwitchId>,
        port: Two<Option<usize>>,
    },
    Host(Two<Option<HostId>>),
    Nic {
        host: Two<HostId>,
        nic: Two<Option<NicIdx>>,
    },
    Team {
        host: Two<HostId>,
        team: Two<TeamIdx>,
    },
    VSwitch {
        host: Two<HostId>,
        vswitch: Two<VSwitchIdx>,
    },
    VNic {
        host: Two<HostId>,
        vswitch: Two<VSwitchIdx>,
        vnic: Two<Option<usize>>,
    },
    /// A host's `live_migration` table.
    LiveMigration(Two<HostId>),
    /// A host's `dcb` table.
    HostDcb(Two<HostId>),
    /// A switch's `dcb` table.
    SwitchDcb(Two<SwitchId>),
    /// A network matched on both sides.
    Network(Two<NetworkId>),
    /// A design NIC that the as-built's cabling (a [`CabledPeer`], by its
    /// index in the peers given to [`drift_with`]) places at a switch port,
    /// where the as-built holds no such host.
    CabledNic {
        host: HostId,
        nic: NicIdx,
        peer: usize,
    },
}

/// Which value differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Field {
    /// The element exists on one side only.
    Present,
    /// The VLAN is allowed (a trunk, a port) or defined (a switch) on one
    /// side only.
    Vlan(u16),
    /// A port's access VLAN.
    AccessVlan,
    Mtu,
    StpMode,
    StpPriority,
    /// A PVST+ switch's priority in one VLAN (its `vlan_priority`, else
    /// its `priority`), compared where both sides run PVST+.
    VlanPriority(u16),
    StpRegion,
    StpRevision,
    StpInstances,
    /// A link's spanning-tree port cost (`stp_cost`, one for every tree),
    /// compared where either side states one.
    StpCost,
    /// The switch (and port) a NIC is cabled to.
    Cabling,
    LagMembers,
    LagMode,
    TeamMembers,
    TeamMode,
    LoadBalancing,
    /// The VLAN of a vNIC's network.
    VNicVlan,
    /// A vNIC's `min_bandwidth_weight`.
    VNicWeight,
    /// A virtual switch's `default_flow_weight`.
    DefaultFlowWeight,
    SmbLimit,
    Rdma,
    DcbWilling,
    DcbPfc,
    DcbEts,
    DcbPolicies,
    LmTransport,
    LmNetworks,
    LmSimultaneous,
    /// A host-facing port's spanning-tree edge (portfast) setting: a
    /// switch's `host_ports.edge`, or a port's own `edge`.
    Edge,
    /// A host-facing port's BPDU guard (`host_ports.bpdu_guard`, a port's
    /// `bpdu_guard`).
    BpduGuard,
    /// Whether a port pauses its switch's PFC priorities (a port's `pfc`;
    /// without it, yes where the switch has PFC).
    PortPfc,
    /// A network's role (and storage protocol), where the as-built's role
    /// cannot be the design's ([`role_fits`]).
    NetworkRole,
}

/// A value on one side. Ids are of that side's design.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Not set (the element or the key is absent).
    Unset,
    Bool(bool),
    Num(u32),
    Mtu(Mtu),
    Stp(StpMode),
    Text(String),
    Instances(BTreeMap<u16, VlanSet>),
    Lag(LagMode),
    /// How a switch port is bundled.
    SwitchLag(SwitchLag),
    TeamMode(TeamMode),
    LoadBalancing(LoadBalancing),
    /// Team members or virtual-switch NIC uplinks.
    Nics(Vec<NicIdx>),
    /// A virtual switch's uplinks that are teams.
    Teams(Vec<TeamIdx>),
    /// A NIC's switch and port.
    Attach(Option<SwitchId>, Option<String>),
    /// A VLAN (None: untagged).
    Vlan(Option<u16>),
    Rdma(Rdma),
    Bandwidth(Bandwidth),
    Priorities(Vec<u8>),
    Ets(BTreeMap<u8, u32>),
    Policies(Vec<(PolicyMatch, u8)>),
    Transport(Transport),
    Networks(Vec<NetworkId>),
    /// A network's role and its storage protocol (None: not stated).
    Role(Role, Option<Protocol>),
}

/// One difference between the design and the network as built.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    pub at: At,
    pub field: Field,
    pub value: Two<Value>,
    /// The line that sets the value on each side (the element's own line
    /// when the key is absent; `None` on the side the element is missing
    /// from).
    pub span: Two<Option<Span>>,
}

/// Every difference, in design order (switches, links, hosts; the
/// as-built side's extra elements after the design's).
#[derive(Clone, Debug)]
pub struct Drift {
    pub matching: Matching,
    pub differences: Vec<Difference>,
}

/// A cable from a port of an as-built switch to a device the as-built
/// design does not hold (a host in the cabling sheet, which the import
/// notes but does not write): the as-built says which host NIC sits at
/// that port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CabledPeer {
    /// The switch as the cabling names it (its hostname).
    pub switch: String,
    pub port: String,
    /// The far device and port as the cabling names them (a host and its
    /// NIC).
    pub device: String,
    pub device_port: String,
    /// Where the cabling says so: the file (as shown) and the byte range
    /// of its line there (`None` when unknown).
    pub at: Option<(String, Span)>,
}

impl CabledPeer {
    /// The NIC of `d` this cable names: its host and NIC, names compared
    /// without case.
    pub fn nic_in(&self, d: &Design) -> Option<(HostId, NicIdx)> {
        let h = d
            .hosts
            .iter()
            .position(|h| h.name.eq_ignore_ascii_case(&self.device))?;
        let n = d.hosts[h]
            .nics
            .iter()
            .position(|n| n.name.eq_ignore_ascii_case(&self.device_port))?;
        Some((HostId(h), NicIdx(n)))
    }
}

/// Compares `design` with `built`.
pub fn drift(design: &Design, built: &Design) -> Drift {
    drift_with(design, built, &[])
}

/// [`drift`], with the as-built's cables to devices it does not hold
/// (`peers`): a design NIC whose host and name a cable names sits at that
/// cable's switch port as built.
pub fn drift_with(design: &Design, built: &Design, peers: &[CabledPeer]) -> Drift {
    let matching = match_designs(design, built);
    let mut c = Cmp {
        d: design,
        b: built,
        m: &matching,
        peers,
        out: Vec::new(),
        // The as-built's networks of unknown role are the VLANs its
        // switches define (`netlint import`), not networks anyone reviewed:
        // a VLAN only they use is compared where a list names it, not
        // against a side that allows every VLAN.
        vlans: design
            .used_vlans()
            .iter()
            .chain(
                built
                    .networks
                    .iter()
                    .filter(|n| n.role.value != netlint_model::Role::Unknown)
                    .filter_map(|n| n.vlan_id()),
            )
            .collect(),
    };
    c.switches();
    c.links();
    c.hosts();
    c.cabled_nics();
    c.networks();
    let differences = c.out;
    Drift {
        matching,
        differences,
    }
}

pub(crate) struct Cmp<'a> {
    d: &'a Design,
    b: &'a Design,
    m: &'a Matching,
    peers: &'a [CabledPeer],
    out: Vec<Difference>,
    /// The VLANs either side's networks use: the ones whose presence on a
    /// trunk is compared even where a side allows "every VLAN".
    vlans: BTreeSet<u16>,
}

fn opt<T: Clone>(v: Option<&T>, f: impl Fn(T) -> Value) -> Value {
    v.cloned().map(f).unwrap_or(Value::Unset)
}

impl Cmp<'_> {
    /// An element of the design with no match as built (at its design line).
    fn only_in_design(&mut self, at: At, span: Span) {
        self.push(
            at,
            Field::Present,
            (Value::Bool(true), Some(span)),
            (Value::Bool(false), None),
        );
    }

    /// An element as built with no match in the design (at its as-built line).
    fn only_as_built(&mut self, at: At, span: Span) {
        self.push(
            at,
            Field::Present,
            (Value::Bool(false), None),
            (Value::Bool(true), Some(span)),
        );
    }

    fn push(&mut self, at: At, field: Field, d: (Value, Option<Span>), b: (Value, Option<Span>)) {
        if d.0 != b.0 {
            self.out.push(Difference {
                at,
                field,
                value: Two {
                    design: d.0,
                    built: b.0,
                },
                span: Two {
                    design: d.1,
                    built: b.1,
                },
            });
        }
    }

    /// VLANs to compare between two allowed sets (`None`: every VLAN the
    /// side's switches define, judged by `every`). A listed VLAN counts
    /// only where `every` holds too: a trunk carries only the VLANs that
    /// exist on its switches (an EOS trunk without an allowed list, read
    /// as 1-4094, carries the VLANs its switch defines, no more).
    fn vlan_diffs(
        &mut self,
        at: At,
        d: (Option<&VlanSet>, Span, &dyn Fn(u16) -> bool),
        b: (Option<&VlanSet>, Span, &dyn Fn(u16) -> bool),
    ) {
        let mut ids: BTreeSet<u16> = self.vlans.clone();
        if let (Some(x), Some(y)) = (d.0, b.0) {
            ids.extend(x.iter().filter(|v| !y.contains(*v)));
            ids.extend(y.iter().filter(|v| !x.contains(*v)));
        }
        for v in ids {
            let has_d = d.0.is_none_or(|s| s.contains(v)) && (d.2)(v);
            let has_b = b.0.is_none_or(|s| s.contains(v)) && (b.2)(v);
            self.push(
                at,
                Field::Vlan(v),
                (Value::Bool(has_d), Some(d.1)),
                (Value::Bool(has_b), Some(b.1)),
            );
        }
    }
}

#[cfg(test)]
mod tests;
