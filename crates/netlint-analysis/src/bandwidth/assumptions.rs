//! Published figures and assumptions, each a named constant with its source.

use super::*;

/// An assumption the model makes where the design cannot say: shown next to
/// every figure that relies on it.
#[derive(Debug, PartialEq, Eq)]
pub struct Assumption {
    /// Stable id (used in JSON output and the docs).
    pub id: &'static str,
    /// What the model takes to be true.
    pub statement: &'static str,
    /// Where that comes from.
    pub source: &'static str,
}

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

pub const LINE_RATE: Assumption = Assumption {
    id: "line-rate",
    statement: "figures are line rate: link speeds after teaming, transport and caps; protocol overhead, CPU and power settings are not deducted, so a drain time is a lower bound",
    source: "Aidan Finn, \"Testing SMB Live Migration on WS2012 R2 Hyper-V\": TCP live migration \"using around 9.8 Gbps\" of 10 GbE once jumbo frames and drivers were right; Didier Van Hoye: tuned 1G links \"use 99% instead of 75-80%\"",
};

pub const PEER_ALIKE: Assumption = Assumption {
    id: "peer-alike",
    statement: "the receiving host is built like this one (cluster nodes are meant to be symmetric: `host-asymmetry` reports where they are not) and healthy",
    source: "the catalogue's `host-asymmetry`",
};

pub const ONE_PEER: Assumption = Assumption {
    id: "one-peer",
    statement: "all simultaneous streams go to one peer, as they must in a two-node cluster: the worst case for the receiving side",
    source: "Didier Van Hoye, \"Teamed NIC Live Migrations Between Two Hosts In Windows Server 2012 Do Use All Members\": \"with a 2 node cluster there is no possibility to Live Migrate to multiple nodes simultaneous\"",
};

pub const ONE_CONNECTION_PER_MIGRATION: Assumption = Assumption {
    id: "one-connection-per-migration",
    statement: "a TCP or compression live migration moves memory over one TCP connection, which stays on one team member",
    source: "Didier Van Hoye, \"Teamed NIC Live Migrations Between Two Hosts ...\": \"one TCP/IP connection per Live Migration that is indeed tied to one NIC member\"; Marc van Eijk, \"NIC Teaming, Hyper-V switch, QoS and actual performance, part 4\": \"one TCP stream for transfer of virtual machine memory and state\"",
};

pub const ONE_NETWORK_AT_A_TIME: Assumption = Assumption {
    id: "one-network-at-a-time",
    statement: "TCP and compression live migration use the first available network of `live_migration.networks`; the others are fallbacks",
    source: "Didier Van Hoye, \"New Options For Optimizing Live Migrations\": \"You can select multiple NICs or even Teams of NICs but only one of those (one NIC or one Team) will be used\"; Marc van Eijk, part 4: ten simultaneous migrations over six LM networks \"resulted in only one team member being utilized\"",
};

pub const HYPERV_PORT_ROUND_ROBIN: Assumption = Assumption {
    id: "hyperv-port-round-robin",
    statement: "Hyper-V Port (and vSphere port-ID) load balancing puts each vNIC on one member, round robin: k unpinned vNICs use min(k, members) members (the best case)",
    source: "Marc van Eijk, part 4: \"Each live migration network will get its own port on the Hyper-V switch allowing for distribution of the individual live migration networks amongst the team members on a round-robin basis\"",
};

pub const ADDRESS_HASH_RECEIVE: Assumption = Assumption {
    id: "address-hash-receive",
    statement: "a switch-independent address-hash team receives everything on one member; switch-dependent (static, LACP) teams have the switch spread inbound flows",
    source: "Didier Van Hoye, \"Teamed NIC Live Migrations ...\": \"the target server receives on only one ... In a switch independent scenario the receiving side limits the throughput\"",
};

pub const DYNAMIC_SPREADS: Assumption = Assumption {
    id: "dynamic-spreads",
    statement: "dynamic load balancing spreads outbound flowlets over every member; on a team interface (no virtual switch) a switch-independent dynamic team also receives on every member, while a vNIC's inbound traffic stays on one member",
    source: "Didier Van Hoye, \"Live Migration with compression over a switch-independent dynamic team\": \"with Dynamic load balancing we can now also use all member of a NIC team for live migration even in switch independent mode\"",
};

pub const SET_BALANCING_UNSTATED: Assumption = Assumption {
    id: "set-balancing-unstated",
    statement: "a SET switch without `load_balancing`: a vNIC's traffic is taken to stay on one member (true of its inbound traffic in either SET mode)",
    source: "the design does not say; netlint does not guess the platform default",
};

pub const SMB_MULTICHANNEL: Assumption = Assumption {
    id: "smb-multichannel",
    statement: "SMB (live migration over SMB, CSV, SMB storage) uses every interface of its networks at once, several connections per RSS-capable interface; a host vNIC on Windows Server 2012 / 2012 R2 has no RSS and gets one connection",
    source: "Didier Van Hoye: \"SMB Multichannel will automatically detect and use multiple connections\", \"Multichannel defaults to 4\"; Marc van Eijk, part 2: \"SMB Multichannel will not function for the vNICs. A file copy initiated from a vNIC is single TCP stream\"",
};

pub const SMB_CAP_APPLIES_TO_RDMA: Assumption = Assumption {
    id: "smb-cap",
    statement: "`smb_bandwidth_limit` (Set-SmbBandwidthLimit -Category LiveMigration) caps live migration over SMB, SMB Direct included, for the whole host",
    source: "Didier Van Hoye, \"Set-SmbBandwidthLimit\": \"it even works to cap off Live Migration traffic over SMB that leverages RDMA (RoCE)\"; with 1250MB \"we max out at 10Gbps (2*5Gbps)\"",
};

pub const COMPRESSION_NOT_CREDITED: Assumption = Assumption {
    id: "compression-not-credited",
    statement: "compression is not credited: it shortens migrations only with spare CPU, and cannot use SMB multichannel",
    source: "Didier Van Hoye: \"Compression basically slashes the live migration times in half at a cost. CPU cycles\"; \"you cannot combine compression with Multichannel\"",
};

pub const MULTI_NIC_VMOTION: Assumption = Assumption {
    id: "multi-nic-vmotion",
    statement: "vSphere 5 and later split one vMotion over every vMotion vmkernel port (multi-NIC vMotion)",
    source: "Michael Webster, \"vSphere 5 Multi-NIC vMotion\": \"load balance a single or multiple vMotion transmissions over multiple physical NIC's\"; 2 x 10G gave \"almost 18Gb/s\"",
};

pub const MPIO_ONE_SESSION: Assumption = Assumption {
    id: "mpio-one-session",
    statement: "iSCSI MPIO opens one session per interface, round robin across them",
    source: "netlint's own reading (no published figure in the field notes)",
};

pub const DEFAULT_SIMULTANEOUS: Assumption = Assumption {
    id: "default-simultaneous",
    statement: "`simultaneous` not given: the Hyper-V default of 2 simultaneous live migrations",
    source: "Hyper-V default of Set-VMHost -MaximumVirtualMachineMigrations; Didier Van Hoye's Windows Server 8 beta notes",
};

pub const JUMBO_GAIN: Assumption = Assumption {
    id: "jumbo-gain",
    statement: "live migration over standard 1500-byte frames is about 10-20 % slower than over jumbo frames: the drain time is given as a range",
    source: "Didier Van Hoye: \"Jumbo frames help out a lot (+/- 20 %)\", \"improves speeds (10% or more)\"; the catalogue's `jumbo-recommended`",
};

pub const GUESTS_SPREAD: Assumption = Assumption {
    id: "guests-spread",
    statement: "many VMs spread over every member of their virtual switch; one VM's vNIC stays on one member under port-based balancing",
    source: "Marc van Eijk, part 4 (Hyper-V Port distributes switch ports over members)",
};

/// Every assumption, in the order the docs list them.
pub const ASSUMPTIONS: &[&Assumption] = &[
    &LINE_RATE,
    &PEER_ALIKE,
    &ONE_PEER,
    &ONE_CONNECTION_PER_MIGRATION,
    &ONE_NETWORK_AT_A_TIME,
    &HYPERV_PORT_ROUND_ROBIN,
    &ADDRESS_HASH_RECEIVE,
    &DYNAMIC_SPREADS,
    &SET_BALANCING_UNSTATED,
    &SMB_MULTICHANNEL,
    &SMB_CAP_APPLIES_TO_RDMA,
    &COMPRESSION_NOT_CREDITED,
    &MULTI_NIC_VMOTION,
    &MPIO_ONE_SESSION,
    &DEFAULT_SIMULTANEOUS,
    &JUMBO_GAIN,
    &GUESTS_SPREAD,
];
