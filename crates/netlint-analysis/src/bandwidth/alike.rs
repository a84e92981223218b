//! Hosts alike to the bandwidth model: the classes of a host are a function
//! of [`Inputs`], so hosts with equal inputs share one computation.
//!
//! [`Inputs`] holds exactly the fields [`super::host_classes`] reads
//! (through `class_model`, `ports_of`, `evaluate`, `pin_caps` and the
//! balancers), values only: no name, no span, no cabling. They are taken
//! for every NIC, team and virtual switch of the host, by index, whether a
//! carrier uses it or not (hosts that differ in an unused adapter only
//! compute their model twice). A new read of the host or of its carriers
//! in the model must add its field here, or hosts that differ in it would
//! share a model; `BandwidthModel::build_each` (every host on its own) is
//! the reference the tests hold the shared build to.

use super::*;
use crate::topology::Carrier;
use netlint_model::{Mtu, Platform};

/// Everything of one host the model's classes rest on. Equal inputs, equal
/// classes; the design's networks (roles, protocols) are the same for
/// every host of a design and so are not in it.
#[derive(Debug, PartialEq, Eq, Hash)]
pub(super) struct Inputs<'a> {
    /// vSphere or Hyper-V (multi-NIC vMotion, the default balancing), and Windows
    /// Server 2012 / 2012 R2 (no RSS on vNICs).
    os: Platform,
    /// Whether `memory_gb` is given: a drain time over standard frames
    /// adds [`Assumption::JumboGain`] to the live-migration class. Its
    /// value goes into the drain time only, which is the host's own.
    memory: bool,
    live_migration: Option<LiveMigration>,
    /// Per NIC, by [`NicIdx`].
    nics: Vec<Nic>,
    /// Per team, by [`TeamIdx`].
    teams: Vec<Team>,
    /// Per virtual switch, by [`VSwitchIdx`].
    vswitches: Vec<VSwitch>,
    /// The host's carriers of every network (`Topology::carriers`):
    /// which interfaces carry which network over which adapters.
    carriers: &'a [Carrier],
}

#[derive(Debug, PartialEq, Eq, Hash)]
struct LiveMigration {
    transport: Transport,
    networks: Vec<NetworkId>,
    simultaneous: Option<u32>,
    /// `smb_bandwidth_limit` in bytes per second, as bits of the `f64`:
    /// equal bits, equal figures.
    smb_bandwidth_limit: Option<u64>,
}

#[derive(Debug, PartialEq, Eq, Hash)]
struct Nic {
    speed: Option<Speed>,
    /// MTU payload.
    mtu: u32,
    rdma: Rdma,
}

#[derive(Debug, PartialEq, Eq, Hash)]
struct Team {
    members: Vec<NicIdx>,
    standby: Option<NicIdx>,
    mode: TeamMode,
    load_balancing: LoadBalancing,
    mtu: Option<u32>,
}

#[derive(Debug, PartialEq, Eq, Hash)]
struct VSwitch {
    uplinks: Vec<Uplink>,
    load_balancing: Option<LoadBalancing>,
    mtu: Option<u32>,
    /// Per vNIC: its MTU payload and `rdma`.
    vnics: Vec<(u32, bool)>,
}

fn payload(m: &Sp<Mtu>) -> u32 {
    m.value.payload
}

impl<'a> Inputs<'a> {
    pub(super) fn of(design: &Design, topology: &'a Topology, h: HostId) -> Inputs<'a> {
        let host = design.host(h);
        Inputs {
            os: host.os.value,
            memory: host.memory_gb.is_some(),
            live_migration: host.live_migration.as_ref().map(|lm| LiveMigration {
                transport: lm.transport.value,
                networks: lm.networks.iter().map(|n| n.value).collect(),
                simultaneous: lm.simultaneous.as_ref().map(|s| s.value),
                smb_bandwidth_limit: lm
                    .smb_bandwidth_limit
                    .as_ref()
                    .map(|c| c.value.bytes_per_sec.to_bits()),
            }),
            nics: host
                .nics
                .iter()
                .map(|n| Nic {
                    speed: n.speed.as_ref().map(|s| s.value),
                    mtu: payload(&n.mtu),
                    rdma: n.rdma.value,
                })
                .collect(),
            teams: host
                .teams
                .iter()
                .map(|t| Team {
                    members: t.members.iter().map(|m| m.value).collect(),
                    standby: t.standby.as_ref().map(|s| s.value),
                    mode: t.mode.value,
                    load_balancing: t.load_balancing.value,
                    mtu: t.mtu.as_ref().map(payload),
                })
                .collect(),
            vswitches: host
                .vswitches
                .iter()
                .map(|v| VSwitch {
                    uplinks: v.uplinks.iter().map(|u| u.value).collect(),
                    load_balancing: v.load_balancing.as_ref().map(|l| l.value),
                    mtu: v.mtu.as_ref().map(payload),
                    vnics: v
                        .vnics
                        .iter()
                        .map(|k| (payload(&k.mtu), k.rdma.value))
                        .collect(),
                })
                .collect(),
            carriers: &topology.carriers[h.0],
        }
    }
}

#[cfg(test)]
mod tests;
