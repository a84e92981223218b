//! Published figures and assumptions, each a named constant with its source.

use super::*;

/// Jumbo frames gave live migration about 10 % (low end) more throughput in
/// published tests. Applied, as a range with [`JUMBO_LM_GAIN_HIGH`], to the
/// drain-time estimate of live migration over standard 1500-byte frames.
///
/// Sources: Didier Van Hoye (workinghardinit), "Live Migration Over TCP/IP
/// & Multichannel in Windows Server 2012 R2": "Turn on Jumbo Frames. This
/// helps to peek to 1.25GB/s and improves speeds (10% or more)"; the
/// catalogue's `jumbo-recommended` ("about 10-20 %").
pub const JUMBO_LM_GAIN_LOW: f64 = 0.10;

/// High end of the published jumbo-frame gain for live migration: about
/// 20 %. Source: Didier Van Hoye, "Introducing 10Gbps & Integrating It Into
/// Your Network Infrastructure (Part 4/4)": "Jumbo frames help out a lot
/// (+/- 20 %), especially with the larger memory virtual machines".
pub const JUMBO_LM_GAIN_HIGH: f64 = 0.20;

/// An MTU at or below this is "standard frames" for [`JUMBO_LM_GAIN_LOW`].
pub const STANDARD_FRAMES_MTU: u32 = 1500;

/// Simultaneous live migrations per host when `live_migration.simultaneous`
/// is not given: the Hyper-V default (`Set-VMHost
/// -MaximumVirtualMachineMigrations`, 2). Source: Didier Van Hoye's Windows
/// Server 8 beta notes ("this 2 node cluster is handling 2 concurrent Live
/// Migrations at the time. The other guests are queued").
pub const DEFAULT_SIMULTANEOUS_MIGRATIONS: u32 = 2;

/// Microsoft's validator expects an SMB live-migration limit of, per
/// adapter, SMB share x this factor x link speed / 8 on links up to
/// [`VALIDATOR_FLAT_ABOVE`]. Source: issue 5 and the catalogue's
/// `smb-bandwidth-cap-missing`.
pub const VALIDATOR_SMB_FACTOR: f64 = 0.6;

/// Above this link speed the validator expects a flat
/// [`VALIDATOR_FLAT_MB_PER_ADAPTER`] per adapter.
pub const VALIDATOR_FLAT_ABOVE: Speed = Speed::from_gbps(10);

/// The validator's flat per-adapter figure above 10G, in PowerShell MB
/// (1,048,576 bytes) per second, as `Set-SmbBandwidthLimit -BytesPerSecond
/// 750MB` takes it. Source: issue 5 and the catalogue.
pub const VALIDATOR_FLAT_MB_PER_ADAPTER: f64 = 750.0;

/// Bytes in a GiB (`memory_gb` is GiB).
pub const BYTES_PER_GIB: f64 = 1_073_741_824.0;

/// An assumption the model makes where the design cannot say: shown next to
/// every figure that relies on it. What it takes to be true and where that
/// comes from (the field notes it cites) are worded by
/// `netlint_rules::phrases::bandwidth::assumption_statement` and
/// `assumption_source`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Assumption {
    /// Figures are line rate; a drain time is a lower bound.
    LineRate,
    /// The receiving host is built alike and healthy.
    PeerAlike,
    /// All simultaneous streams go to one peer.
    OnePeer,
    /// A TCP / compression live migration is one TCP connection.
    OneConnectionPerMigration,
    /// TCP / compression live migration uses the first available network.
    OneNetworkAtATime,
    /// Hyper-V Port / port-ID balancing: vNICs round robin over members.
    HypervPortRoundRobin,
    /// A switch-independent address-hash team receives on one member.
    AddressHashReceive,
    /// Dynamic balancing spreads outbound flowlets over every member.
    DynamicSpreads,
    /// A SET switch without `load_balancing`: one member per vNIC.
    SetBalancingUnstated,
    /// SMB multichannel uses every interface of its networks.
    SmbMultichannel,
    /// `smb_bandwidth_limit` caps SMB live migration, SMB Direct included.
    SmbCap,
    /// Compression is not credited.
    CompressionNotCredited,
    /// vSphere multi-NIC vMotion splits one vMotion over every port.
    MultiNicVmotion,
    /// iSCSI MPIO: one session per interface, round robin.
    MpioOneSession,
    /// `simultaneous` not given: the Hyper-V default
    /// ([`DEFAULT_SIMULTANEOUS_MIGRATIONS`]).
    DefaultSimultaneous,
    /// Standard frames: [`JUMBO_LM_GAIN_LOW`]-[`JUMBO_LM_GAIN_HIGH`] slower.
    JumboGain,
    /// Many VMs spread over every member; one VM's vNIC on one member.
    GuestsSpread,
}

impl Assumption {
    /// Every assumption, in the order the docs list them.
    pub const ALL: [Assumption; 17] = [
        Assumption::LineRate,
        Assumption::PeerAlike,
        Assumption::OnePeer,
        Assumption::OneConnectionPerMigration,
        Assumption::OneNetworkAtATime,
        Assumption::HypervPortRoundRobin,
        Assumption::AddressHashReceive,
        Assumption::DynamicSpreads,
        Assumption::SetBalancingUnstated,
        Assumption::SmbMultichannel,
        Assumption::SmbCap,
        Assumption::CompressionNotCredited,
        Assumption::MultiNicVmotion,
        Assumption::MpioOneSession,
        Assumption::DefaultSimultaneous,
        Assumption::JumboGain,
        Assumption::GuestsSpread,
    ];

    /// Stable id (used in JSON output and the docs).
    pub fn id(self) -> &'static str {
        match self {
            Assumption::LineRate => "line-rate",
            Assumption::PeerAlike => "peer-alike",
            Assumption::OnePeer => "one-peer",
            Assumption::OneConnectionPerMigration => "one-connection-per-migration",
            Assumption::OneNetworkAtATime => "one-network-at-a-time",
            Assumption::HypervPortRoundRobin => "hyperv-port-round-robin",
            Assumption::AddressHashReceive => "address-hash-receive",
            Assumption::DynamicSpreads => "dynamic-spreads",
            Assumption::SetBalancingUnstated => "set-balancing-unstated",
            Assumption::SmbMultichannel => "smb-multichannel",
            Assumption::SmbCap => "smb-cap",
            Assumption::CompressionNotCredited => "compression-not-credited",
            Assumption::MultiNicVmotion => "multi-nic-vmotion",
            Assumption::MpioOneSession => "mpio-one-session",
            Assumption::DefaultSimultaneous => "default-simultaneous",
            Assumption::JumboGain => "jumbo-gain",
            Assumption::GuestsSpread => "guests-spread",
        }
    }
}
