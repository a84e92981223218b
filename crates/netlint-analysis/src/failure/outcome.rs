//! What a scenario takes away: losses per requirement, per host, per carrier.

use super::*;

/// Why one NIC is down in a scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NicCause {
    /// The NIC (or its card) failed.
    Failed,
    /// The switch its cable plugs into failed.
    SwitchDown(SwitchId),
    /// The host NIC at the other end of its direct cable failed.
    PeerDown(HostId, NicIdx),
    /// Its switch suspended it with its other multi-chassis LAG (vPC)
    /// ports: the switch is the vPC secondary of a failed peer-link, or in
    /// a part of a split stack that does not keep the LAG
    /// ([`Unit::Split`]).
    Suspended(SwitchId),
}

/// What happened to one way a network leaves a host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CarrierLoss {
    /// No member is left: every NIC under it is down.
    Dead { nics: Vec<(NicIdx, NicCause)> },
    /// Its NICs still have link, but the fabric no longer joins their
    /// switches to the other hosts' (`to`: switches of a host it lost).
    Cut {
        from: Vec<BridgeId>,
        to: Vec<BridgeId>,
    },
    /// A working NIC (a standby one that took over, or one left after
    /// its team lost members) is cabled to a switch that does not define
    /// the network's VLAN: the first real cause, before any question of
    /// where its other NICs end.
    NotDefined {
        nic: NicIdx,
        switch: SwitchId,
        vlan: u16,
    },
    /// A working NIC (a standby one that took over) is cabled to a switch
    /// port that does not pass the network's frames (`l2::ports`).
    PortDrops {
        nic: NicIdx,
        switch: SwitchId,
        why: netlint_model::PortDrop,
    },
    /// A working NIC (a standby one that took over) sits on a port that
    /// puts the network's untagged frames in VLAN `to` (its native or
    /// access VLAN), not in `from` where they were: the other hosts are
    /// not there.
    VlanMoved {
        nic: NicIdx,
        switch: SwitchId,
        from: Option<u16>,
        to: Option<u16>,
    },
    /// Its working NICs now end in parts of the fabric that no longer meet.
    Scattered { bridges: Vec<BridgeId> },
    /// The host's carrier still stands, but every port of storage target
    /// `target` on its network went down with the switch it is cabled to.
    TargetPortsDown {
        target: netlint_model::TargetId,
        ports: Vec<(netlint_model::TargetPortIdx, SwitchId)>,
    },
}

/// One carrier of a host that the failure changed, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CarrierChange {
    pub network: NetworkId,
    pub via: Via,
    pub loss: CarrierLoss,
}

/// A host named by a loss, with its carriers the failure broke.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostLoss {
    pub host: HostId,
    pub carriers: Vec<CarrierChange>,
    /// Hosts it could reach on the requirement before and can no longer.
    pub lost_partners: Vec<HostId>,
    /// Whether it lost every partner it had.
    pub cut_off: bool,
}

/// One consequence of a scenario: a requirement that some host pairs lose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loss {
    pub requirement: Requirement,
    /// The hosts whose own attachments the failure broke, each cut off or
    /// on one side of a split.
    pub hosts: Vec<HostLoss>,
    /// When the requirement is split rather than some hosts cut off: the
    /// groups of hosts that still reach each other.
    pub split: Vec<Vec<HostId>>,
    /// Host pairs that reached each other and no longer do.
    pub pairs: Vec<(HostId, HostId)>,
}

impl Loss {
    /// Hosts that lose, in design order.
    pub fn host_ids(&self) -> Vec<HostId> {
        self.hosts.iter().map(|h| h.host).collect()
    }
}

/// What a scenario takes away.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub losses: Vec<Loss>,
}
