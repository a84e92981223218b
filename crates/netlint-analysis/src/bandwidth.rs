//! The host bandwidth model: per host and traffic class (live migration,
//! CSV / cluster, SMB storage, iSCSI, VM, backup), which adapters carry it
//! and what one stream, one live migration and the whole class can reach,
//! healthy and after losing one adapter, and how long draining the host
//! takes.
//!
//! Every figure is the smallest of a list of [`Bound`]s, and every bound
//! says where its number comes from: the link speeds and member counts the
//! design gives, the teaming mode and load balancing, the transport, the SMB
//! bandwidth limit, and the labelled [`Assumption`]s below. Nothing is a
//! hidden constant. `docs/bandwidth-model.md` explains the model and its
//! formulas; the published figures come from the field notes cited on each
//! assumption.
//!
//! Direction: figures are for traffic *leaving* the host towards a peer of
//! the same cluster built like it (the direction of a drain). The sending
//! side is this host (degraded when an adapter is lost); the receiving side
//! is the peer, taken to be built alike and healthy.

use crate::topology::{Topology, Via};
use netlint_model::{
    Bandwidth, Design, Host, HostId, LoadBalancing, NetworkId, NicIdx, Protocol, Rdma, Role, Sp,
    Speed, TeamIdx, TeamMode, Transport, Uplink, VSwitchIdx,
};

// ---------------------------------------------------------------------------
// Published figures and assumptions. Each is a named constant with its source.
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// Model types
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TrafficClass {
    LiveMigration,
    /// CSV (redirected I/O, metadata) and cluster networks.
    Csv,
    SmbStorage,
    Iscsi,
    Vm,
    Backup,
}

impl TrafficClass {
    pub const ALL: [TrafficClass; 6] = [
        TrafficClass::LiveMigration,
        TrafficClass::Csv,
        TrafficClass::SmbStorage,
        TrafficClass::Iscsi,
        TrafficClass::Vm,
        TrafficClass::Backup,
    ];
    pub fn id(self) -> &'static str {
        match self {
            TrafficClass::LiveMigration => "live-migration",
            TrafficClass::Csv => "csv",
            TrafficClass::SmbStorage => "smb-storage",
            TrafficClass::Iscsi => "iscsi",
            TrafficClass::Vm => "vm",
            TrafficClass::Backup => "backup",
        }
    }
    pub fn label(self) -> &'static str {
        match self {
            TrafficClass::LiveMigration => "live migration",
            TrafficClass::Csv => "CSV / cluster",
            TrafficClass::SmbStorage => "SMB storage",
            TrafficClass::Iscsi => "iSCSI",
            TrafficClass::Vm => "VM",
            TrafficClass::Backup => "backup",
        }
    }
}

/// How a class moves its bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClassTransport {
    /// Live migration over TCP: one connection per migration, one network.
    LmTcp,
    /// Live migration with compression: as TCP on the wire.
    LmCompression,
    /// SMB 3 multichannel (SMB Direct on RDMA interfaces).
    Smb,
    /// vSphere multi-NIC vMotion.
    MultiNicVmotion,
    /// iSCSI MPIO.
    Mpio,
    /// Guests through their virtual switch.
    Guests,
    /// Several TCP streams (backup software).
    Streams,
}

impl ClassTransport {
    pub fn label(self) -> &'static str {
        match self {
            ClassTransport::LmTcp => "tcp",
            ClassTransport::LmCompression => "compression",
            ClassTransport::Smb => "smb",
            ClassTransport::MultiNicVmotion => "multi-NIC vMotion",
            ClassTransport::Mpio => "MPIO",
            ClassTransport::Guests => "virtual switch",
            ClassTransport::Streams => "TCP streams",
        }
    }
    /// Uses one network (and one interface) at a time.
    pub fn one_network(self) -> bool {
        matches!(self, ClassTransport::LmTcp | ClassTransport::LmCompression)
    }
}

/// How traffic of one port (host interface) is spread over the physical
/// members under it, in one direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spread {
    /// All of the port's traffic on one member: a single NIC, Hyper-V Port
    /// or vSphere port-ID pinning, an RDMA vNIC's affinity, a vNIC's
    /// inbound MAC.
    OneMember,
    /// Each flow hashed onto a member: many flows use every member.
    PerFlow,
    /// Every port of the team uses this one member (switch-independent
    /// address hash inbound; vSphere explicit failover).
    Shared(NicIdx),
}

/// The team or teamed virtual switch whose load balancing applies to a port.
#[derive(Clone, Debug, PartialEq)]
pub struct Balancer {
    pub group: Group,
    /// `team `BigTeam`` / `SET switch `S`` / `vSwitch `vSwitch0``.
    pub name: String,
    pub mode: TeamMode,
    /// None: not stated (a SET switch without `load_balancing`).
    pub load_balancing: Option<Sp<LoadBalancing>>,
    /// Active members (without standby).
    pub members: Vec<NicIdx>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    Team(TeamIdx),
    Switch(VSwitchIdx),
}

impl Balancer {
    pub fn lb(&self) -> Option<LoadBalancing> {
        self.load_balancing.as_ref().map(|l| l.value)
    }
    pub fn is_hyperv_port(&self) -> bool {
        self.lb() == Some(LoadBalancing::HypervPort)
    }
}

/// One host interface carrying a network: a NIC, a team interface, a vNIC
/// or vmkernel port, or the guests of a virtual switch.
#[derive(Clone, Debug, PartialEq)]
pub struct Port {
    pub network: NetworkId,
    pub via: Via,
    /// `vNIC `LM1` on `Converged``, `NIC `X520-5``, ...
    pub name: String,
    pub active: Vec<NicIdx>,
    pub standby: Vec<NicIdx>,
    pub balancer: Option<Balancer>,
    pub tx: Spread,
    pub rx: Spread,
    /// RDMA kind when SMB on this port can run as SMB Direct.
    pub rdma: Option<Rdma>,
    /// MTU (payload) of the interface.
    pub mtu: u32,
    /// SMB multichannel opens several connections here (RSS).
    pub rss: bool,
}

impl Port {
    /// The port after losing NIC `lost`: the first standby adapter takes
    /// the place of a failed active one (LBFO standby, SET affinity
    /// failover, vSphere failover order). None: the port is down.
    pub fn without(&self, lost: NicIdx) -> Option<Port> {
        if !self.active.contains(&lost) {
            let mut p = self.clone();
            p.standby.retain(|n| *n != lost);
            return Some(p);
        }
        let mut p = self.clone();
        p.active.retain(|n| *n != lost);
        p.standby.retain(|n| *n != lost);
        if !p.standby.is_empty() {
            let s = p.standby.remove(0);
            p.active.push(s);
        }
        if p.active.is_empty() {
            return None;
        }
        for side in [&mut p.tx, &mut p.rx] {
            if *side == Spread::Shared(lost) {
                *side = Spread::Shared(p.active[0]);
            }
        }
        if let Some(b) = &mut p.balancer {
            b.members.retain(|n| *n != lost);
        }
        Some(p)
    }

    fn spread(&self, side: Side) -> Spread {
        match side {
            Side::Send => self.tx,
            Side::Receive => self.rx,
        }
    }

    /// Every NIC this port can use (active then standby).
    pub fn all_nics(&self) -> impl Iterator<Item = NicIdx> + '_ {
        self.active.iter().chain(&self.standby).copied()
    }
}

/// Which limit a bound expresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundKind {
    /// The link speeds of every adapter the class's networks use.
    Adapters,
    /// TCP / compression live migration uses one network at a time.
    OneNetwork,
    /// One connection stays on one adapter.
    OneFlow,
    /// How the sending host spreads the traffic over its members.
    Send,
    /// How the receiving host (built alike) takes it in.
    Receive,
    /// `smb_bandwidth_limit`.
    SmbCap,
}

/// One upper limit on a figure, with where its number comes from.
#[derive(Clone, Debug, PartialEq)]
pub struct Bound {
    pub kind: BoundKind,
    pub speed: Speed,
    /// Plain words with the names and numbers: "vNIC `LM1` is pinned to
    /// one member of team `BigTeam` (hyperv-port): 1 x 1G".
    pub text: String,
    /// The adapters this bound counts.
    pub nics: Vec<NicIdx>,
}

/// A figure: the smallest of its bounds.
#[derive(Clone, Debug, PartialEq)]
pub struct Rate {
    pub bounds: Vec<Bound>,
}

impl Rate {
    pub fn speed(&self) -> Speed {
        self.bounds
            .iter()
            .map(|b| b.speed)
            .min()
            .unwrap_or_default()
    }
    /// The bound that sets the figure (the first of the smallest).
    pub fn bottleneck(&self) -> Option<&Bound> {
        let s = self.speed();
        self.bounds.iter().find(|b| b.speed == s)
    }
    /// The figure without one kind of bound (the SMB cap, to see what the
    /// adapters alone give).
    pub fn speed_without(&self, kind: BoundKind) -> Speed {
        self.bounds
            .iter()
            .filter(|b| b.kind != kind)
            .map(|b| b.speed)
            .min()
            .unwrap_or_default()
    }
    pub fn bound(&self, kind: BoundKind) -> Option<&Bound> {
        self.bounds.iter().find(|b| b.kind == kind)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Figures {
    /// One TCP connection / SMB channel / VM vNIC.
    pub per_stream: Rate,
    /// One live migration (live migration only).
    pub per_migration: Option<Rate>,
    /// The whole class.
    pub aggregate: Rate,
    /// Indices into the class's `ports` that carry it.
    pub in_use: Vec<usize>,
}

/// The class after the single adapter loss that hurts it most.
#[derive(Clone, Debug, PartialEq)]
pub struct Degraded {
    pub lost: NicIdx,
    pub figures: Figures,
    /// Ports that went down with it.
    pub down: Vec<usize>,
}

/// A hyperv-port team or SET switch whose members the class cannot use:
/// the class reaches it through fewer ports than it has active members.
#[derive(Clone, Debug, PartialEq)]
pub struct PinCap {
    pub balancer: Balancer,
    /// Indices into `ports` of the ports that carry the class there.
    pub ports: Vec<usize>,
    /// Members those ports occupy.
    pub members_used: usize,
    pub member_speed: Speed,
    /// members_used x member_speed.
    pub cap: Speed,
    /// members x member_speed.
    pub team_total: Speed,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ClassModel {
    pub class: TrafficClass,
    pub transport: ClassTransport,
    /// The class's networks, in preference order for live migration.
    pub networks: Vec<NetworkId>,
    /// Every port of those networks on this host, in network order.
    pub ports: Vec<Port>,
    /// Simultaneous live migrations and whether that is the default.
    pub simultaneous: Option<(u32, bool)>,
    pub cap: Option<Sp<Bandwidth>>,
    pub healthy: Figures,
    /// The single adapter loss that takes the most, among those that leave
    /// the class a path. None when no such loss changes anything.
    pub degraded: Option<Degraded>,
    /// Adapters whose loss leaves the class no interface at all (a single
    /// point of failure, which the redundancy rules report).
    pub stranded: Vec<NicIdx>,
    pub pin_caps: Vec<PinCap>,
    pub assumptions: Vec<&'static Assumption>,
    /// Facts worth a line in a report ("SMB Direct (roce-v2) on `SMB1`").
    pub notes: Vec<String>,
}

impl ClassModel {
    /// Every physical NIC the class can use (active and standby, all ports).
    pub fn nics(&self) -> Vec<NicIdx> {
        let mut out = Vec::new();
        for p in &self.ports {
            for n in p.all_nics() {
                if !out.contains(&n) {
                    out.push(n);
                }
            }
        }
        out
    }
    /// NICs of the ports in use in the healthy state.
    pub fn nics_in_use(&self) -> Vec<NicIdx> {
        let mut out = Vec::new();
        for i in &self.healthy.in_use {
            for n in &self.ports[*i].active {
                if !out.contains(n) {
                    out.push(*n);
                }
            }
        }
        out
    }
    /// The figures after losing one adapter (healthy when nothing changes).
    pub fn worst(&self) -> &Figures {
        self.degraded
            .as_ref()
            .map(|d| &d.figures)
            .unwrap_or(&self.healthy)
    }
}

/// Time to move a host's memory at a rate.
#[derive(Clone, Debug, PartialEq)]
pub struct DrainTime {
    pub rate: Speed,
    /// At line rate (a lower bound).
    pub seconds: f64,
    /// With standard frames on the LM interfaces: [`JUMBO_LM_GAIN_LOW`] and
    /// [`JUMBO_LM_GAIN_HIGH`] applied.
    pub standard_frames: Option<(f64, f64)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Drain {
    pub memory_gib: Sp<f64>,
    pub healthy: DrainTime,
    /// After the worst single adapter loss (None: no loss changes it).
    pub degraded: Option<(NicIdx, DrainTime)>,
}

impl Drain {
    /// The drain time after the worst single adapter loss.
    pub fn worst(&self) -> &DrainTime {
        self.degraded
            .as_ref()
            .map(|(_, d)| d)
            .unwrap_or(&self.healthy)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct HostBandwidth {
    pub host: HostId,
    pub classes: Vec<ClassModel>,
    pub drain: Option<Drain>,
}

impl HostBandwidth {
    pub fn class(&self, class: TrafficClass) -> Option<&ClassModel> {
        self.classes.iter().find(|c| c.class == class)
    }
}

#[derive(Clone, Debug)]
pub struct BandwidthModel {
    /// By `HostId`.
    pub hosts: Vec<HostBandwidth>,
}

impl BandwidthModel {
    /// Every host's model. Hosts are independent, so large designs build
    /// them on every core; the order is the hosts' whatever the threads do.
    pub fn build(design: &Design, topology: &Topology) -> BandwidthModel {
        use rayon::prelude::*;
        let hosts = (0..design.hosts.len())
            .into_par_iter()
            .with_min_len(64)
            .map(|h| host_model(design, topology, HostId(h)))
            .collect();
        BandwidthModel { hosts }
    }
    pub fn host(&self, h: HostId) -> &HostBandwidth {
        &self.hosts[h.0]
    }
}

// ---------------------------------------------------------------------------
// Formatting helpers shared by the model's texts, the rules and the report.
// ---------------------------------------------------------------------------

/// `1 Gb/s`, `2.5 Gb/s`, `100 Mb/s`.
pub fn fmt_rate(s: Speed) -> String {
    let b = s.bps() as f64;
    if b >= 1e9 {
        format!("{} Gb/s", netlint_model::units::trim_float(b / 1e9))
    } else if b >= 1e6 {
        format!("{} Mb/s", netlint_model::units::trim_float(b / 1e6))
    } else {
        format!("{} b/s", b)
    }
}

/// `18m20s` (rounded to the second); `never` without bandwidth.
pub fn fmt_seconds(s: f64) -> String {
    if !s.is_finite() {
        return "never".to_string();
    }
    netlint_model::Duration {
        seconds: s.round().max(0.0) as u64,
    }
    .to_string()
}

/// Seconds to move `gib` GiB at `rate`.
pub fn drain_seconds(gib: f64, rate: Speed) -> f64 {
    if rate.bps() == 0 {
        return f64::INFINITY;
    }
    gib * BYTES_PER_GIB * 8.0 / rate.bps() as f64
}

/// `8 x 1G` or `X 10G + Y 1G`.
pub fn nics_text(host: &Host, nics: &[NicIdx]) -> String {
    let speeds: Vec<Speed> = nics.iter().map(|n| host.nic(*n).speed.value).collect();
    match speeds.first() {
        None => "no adapter".to_string(),
        Some(first) if speeds.iter().all(|s| s == first) => format!("{} x {first}", nics.len()),
        _ => nics
            .iter()
            .map(|n| format!("`{}` {}", host.nic(*n).name, host.nic(*n).speed.value))
            .collect::<Vec<_>>()
            .join(" + "),
    }
}

fn sum_speed(host: &Host, nics: &[NicIdx]) -> Speed {
    Speed::from_bps(nics.iter().map(|n| host.nic(*n).speed.value.bps()).sum())
}

fn min_speed(host: &Host, nics: &[NicIdx]) -> Speed {
    nics.iter()
        .map(|n| host.nic(*n).speed.value)
        .min()
        .unwrap_or_default()
}

fn names(host: &Host, nics: &[NicIdx]) -> String {
    nics.iter()
        .map(|n| format!("`{}`", host.nic(*n).name))
        .collect::<Vec<_>>()
        .join(", ")
}

// ---------------------------------------------------------------------------
// Ports
// ---------------------------------------------------------------------------

fn team_balancer(host: &Host, t: TeamIdx) -> Balancer {
    let team = &host.teams[t.0];
    let standby = team.standby.as_ref().map(|s| s.value);
    Balancer {
        group: Group::Team(t),
        name: format!("team `{}`", team.name),
        mode: team.mode.value,
        load_balancing: Some(team.load_balancing.clone()),
        members: team
            .members
            .iter()
            .map(|m| m.value)
            .filter(|m| Some(*m) != standby)
            .collect(),
    }
}

/// The balancer of a virtual switch: its team, or the switch itself when
/// it teams two or more NICs (SET, or a vSphere vSwitch).
fn vswitch_balancer(host: &Host, vi: VSwitchIdx) -> Option<Balancer> {
    let vs = &host.vswitches[vi.0];
    if let [u] = vs.uplinks.as_slice() {
        return match u.value {
            Uplink::Team(t) => Some(team_balancer(host, t)),
            Uplink::Nic(_) => None,
        };
    }
    if vs.uplinks.len() < 2 {
        return None;
    }
    let lb = vs.load_balancing.clone();
    let mode = match lb.as_ref().map(|l| l.value) {
        Some(LoadBalancing::IpHash) => TeamMode::Static,
        Some(LoadBalancing::Lacp) => TeamMode::Lacp,
        _ => TeamMode::SwitchIndependent,
    };
    let kind = vs.kind_words(host.os.value);
    Some(Balancer {
        group: Group::Switch(vi),
        name: format!("{kind} `{}`", vs.name),
        mode,
        load_balancing: lb,
        members: vs
            .uplinks
            .iter()
            .flat_map(|u| host.uplink_nics(u.value))
            .collect(),
    })
}

fn effective_lb(host: &Host, b: &Balancer) -> Option<LoadBalancing> {
    b.lb().or(if host.os.value.is_vsphere() {
        Some(LoadBalancing::OriginatingPort)
    } else {
        None
    })
}

/// (send, receive) spreading of a port under a balancer.
fn spreads(host: &Host, b: &Balancer, team_interface: bool, active: &[NicIdx]) -> (Spread, Spread) {
    use LoadBalancing as L;
    let first = active.first().copied().unwrap_or(NicIdx(0));
    let lb = effective_lb(host, b);
    if lb == Some(L::ExplicitFailover) {
        return (Spread::Shared(first), Spread::Shared(first));
    }
    let tx = match lb {
        Some(L::AddressHash | L::Dynamic | L::IpHash | L::Lacp) => Spread::PerFlow,
        _ => Spread::OneMember,
    };
    let rx = if b.mode.switch_dependent() {
        Spread::PerFlow
    } else {
        match lb {
            Some(L::AddressHash) => Spread::Shared(first),
            Some(L::Dynamic) if team_interface => Spread::PerFlow,
            _ => Spread::OneMember,
        }
    };
    (tx, rx)
}

fn nic_rdma(host: &Host, nics: &[NicIdx]) -> Option<Rdma> {
    let kinds: Vec<Rdma> = nics.iter().map(|n| host.nic(*n).rdma.value).collect();
    match kinds.first() {
        Some(k) if k.enabled() && kinds.iter().all(|x| x == k) => Some(*k),
        _ => None,
    }
}

/// Every port of `net` on `host` (guest ports only when `guests`).
fn ports_of(
    design: &Design,
    topology: &Topology,
    hid: HostId,
    net: NetworkId,
    guests: bool,
) -> Vec<Port> {
    let host = design.host(hid);
    let vsphere = host.os.value.is_vsphere();
    let old_windows = matches!(
        host.os.value,
        netlint_model::Platform::Ws2012 | netlint_model::Platform::Ws2012R2
    );
    let mut out = Vec::new();
    for c in topology.carriers_of(hid, net) {
        if matches!(c.via, Via::Guest(_)) != guests {
            continue;
        }
        let (name, balancer, mtu, rdma, rss, team_interface) = match c.via {
            Via::Nic(n) => {
                let nic = host.nic(n);
                (
                    format!("NIC `{}`", nic.name),
                    None,
                    nic.mtu.value.payload,
                    nic.rdma.value.enabled().then_some(nic.rdma.value),
                    true,
                    false,
                )
            }
            Via::Team(t) => {
                let team = &host.teams[t.0];
                let mtu = team
                    .mtu
                    .as_ref()
                    .map(|m| m.value.payload)
                    .unwrap_or_else(|| {
                        team.members
                            .iter()
                            .map(|m| host.nic(m.value).mtu.value.payload)
                            .min()
                            .unwrap_or(1500)
                    });
                // LBFO teams do not expose RDMA (`team-rdma`).
                (
                    format!("team `{}`", team.name),
                    Some(team_balancer(host, t)),
                    mtu,
                    None,
                    true,
                    true,
                )
            }
            Via::VNic(vi, k) => {
                let vs = &host.vswitches[vi.0];
                let vnic = &vs.vnics[k];
                let what = if vsphere { "vmkernel port" } else { "vNIC" };
                let rdma = if vnic.rdma.value {
                    nic_rdma(host, &c.active)
                } else {
                    None
                };
                (
                    format!("{what} `{}` on `{}`", vnic.name, vs.name),
                    vswitch_balancer(host, vi),
                    vnic.mtu.value.payload,
                    rdma,
                    !old_windows,
                    false,
                )
            }
            Via::Guest(vi) => {
                let vs = &host.vswitches[vi.0];
                let mtu = vs.mtu.as_ref().map(|m| m.value.payload).unwrap_or_else(|| {
                    c.active
                        .iter()
                        .map(|n| host.nic(*n).mtu.value.payload)
                        .min()
                        .unwrap_or(1500)
                });
                (
                    format!("VMs on `{}`", vs.name),
                    vswitch_balancer(host, vi),
                    mtu,
                    None,
                    true,
                    false,
                )
            }
        };
        let (mut tx, mut rx) = match &balancer {
            None => (Spread::OneMember, Spread::OneMember),
            Some(b) => spreads(host, b, team_interface, &c.active),
        };
        if rdma.is_some() && matches!(c.via, Via::VNic(..)) {
            // SMB Direct from a vNIC runs on the adapter the vNIC is
            // affinitized to.
            tx = Spread::OneMember;
            rx = Spread::OneMember;
        }
        if matches!(c.via, Via::Guest(_)) {
            // Many VMs: each on one member, together on all of them.
            if tx == Spread::OneMember {
                tx = Spread::PerFlow;
            }
            if rx == Spread::OneMember {
                rx = Spread::PerFlow;
            }
        }
        out.push(Port {
            network: net,
            via: c.via,
            name,
            active: c.active.clone(),
            standby: c.standby.clone(),
            balancer,
            tx,
            rx,
            rdma,
            mtu,
            rss,
        });
    }
    out
}

// ---------------------------------------------------------------------------
// Usage: which members a set of ports occupies
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Send,
    Receive,
}

/// How many concurrent flows a port carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flows {
    One,
    Count(u32),
    Many,
}

impl Flows {
    fn cap(self, pool: usize) -> usize {
        match self {
            Flows::One => 1.min(pool),
            Flows::Count(n) => (n as usize).min(pool),
            Flows::Many => pool,
        }
    }
}

/// The distinct members a set of (port, flows) occupies on one side, best
/// case: exact placements first, then round robin / hashing onto members
/// not yet used.
fn used_nics(items: &[(&Port, Flows)], side: Side) -> Vec<NicIdx> {
    let mut used: Vec<NicIdx> = Vec::new();
    let push = |used: &mut Vec<NicIdx>, n: NicIdx| {
        if !used.contains(&n) {
            used.push(n);
        }
    };
    for (p, _) in items {
        match p.spread(side) {
            Spread::Shared(n) => push(&mut used, n),
            Spread::OneMember if p.active.len() == 1 => push(&mut used, p.active[0]),
            _ => {}
        }
    }
    for (p, flows) in items {
        let want = match p.spread(side) {
            Spread::Shared(_) => continue,
            Spread::OneMember if p.active.len() == 1 => continue,
            Spread::OneMember => 1.min(p.active.len()),
            Spread::PerFlow => flows.cap(p.active.len()),
        };
        let fresh: Vec<NicIdx> = p
            .active
            .iter()
            .copied()
            .filter(|n| !used.contains(n))
            .take(want)
            .collect();
        for n in fresh {
            push(&mut used, n);
        }
    }
    used
}

fn lb_label(host: &Host, b: &Balancer) -> String {
    match effective_lb(host, b) {
        Some(lb) => lb.to_string(),
        None => "load balancing not stated".to_string(),
    }
}

/// How one port spreads `flows` on one side, in words.
fn spread_text(host: &Host, p: &Port, flows: Flows, side: Side) -> String {
    let spread = p.spread(side);
    let who = if side == Side::Send {
        ""
    } else {
        "the receiving host takes "
    };
    let b = match &p.balancer {
        Some(b) if p.active.len() > 1 || matches!(spread, Spread::Shared(_)) => b,
        _ => {
            return format!(
                "{who}{} on {}",
                p.name,
                match p.active.as_slice() {
                    [n] => format!("`{}` ({})", host.nic(*n).name, host.nic(*n).speed.value),
                    _ => names(host, &p.active),
                }
            )
        }
    };
    let lb = lb_label(host, b);
    let pool = p.active.len();
    match spread {
        Spread::Shared(n) => {
            let why = if effective_lb(host, b) == Some(LoadBalancing::ExplicitFailover) {
                "explicit failover uses the first active uplink only"
            } else {
                "a switch-independent address-hash team receives on one member"
            };
            format!(
                "{who}{} on one member of {}, `{}` ({why})",
                p.name,
                b.name,
                host.nic(n).name
            )
        }
        Spread::OneMember if p.rdma.is_some() => format!(
            "{who}{} (SMB Direct) on the one adapter it is affinitized to, of {} {}",
            p.name,
            b.name,
            nics_text(host, &p.active)
        ),
        Spread::OneMember if side == Side::Receive => format!(
            "{who}{} on one member of {} {} (a vNIC's inbound traffic arrives on one member; {lb})",
            p.name,
            b.name,
            nics_text(host, &p.active)
        ),
        Spread::OneMember => format!(
            "{} is pinned to one member of {} {} ({lb})",
            p.name,
            b.name,
            nics_text(host, &p.active)
        ),
        Spread::PerFlow => {
            let k = flows.cap(pool);
            let what = if side == Side::Receive && b.mode.switch_dependent() {
                format!("the switch spreads inbound flows ({})", b.mode)
            } else {
                lb.clone()
            };
            if k < pool {
                format!(
                    "{who}{}: {} hash onto at most {k} of the {pool} members of {} ({what})",
                    p.name,
                    match flows {
                        Flows::One => "one connection".to_string(),
                        Flows::Count(n) => format!("{n} connections"),
                        Flows::Many => "the connections".to_string(),
                    },
                    b.name
                )
            } else {
                format!(
                    "{who}{}: flows spread over all {pool} members of {} ({what})",
                    p.name, b.name
                )
            }
        }
    }
}

fn usage_bound(
    host: &Host,
    spec: &Spec<'_>,
    items: &[(&Port, Flows)],
    side: Side,
    kind: BoundKind,
) -> Option<Bound> {
    if items.is_empty() {
        return None;
    }
    let used = used_nics(items, side);
    let speed = sum_speed(host, &used);
    Some(Bound {
        kind,
        speed,
        text: spec.text(|| {
            let parts: Vec<String> = items
                .iter()
                .map(|(p, f)| spread_text(host, p, *f, side))
                .collect();
            format!(
                "{}: {} = {}",
                parts.join("; "),
                nics_text(host, &used),
                fmt_rate(speed)
            )
        }),
        nics: used,
    })
}

// ---------------------------------------------------------------------------
// Classes
// ---------------------------------------------------------------------------

/// What a class needs to be evaluated in one scenario.
struct Spec<'a> {
    class: TrafficClass,
    transport: ClassTransport,
    simultaneous: u32,
    cap: Option<&'a Sp<Bandwidth>>,
    /// Write the bounds' texts. Off while trying every adapter loss, where
    /// only the figures decide which loss is kept; the kept one is then
    /// evaluated again with its texts.
    texts: bool,
}

impl Spec<'_> {
    fn text(&self, f: impl FnOnce() -> String) -> String {
        if self.texts {
            f()
        } else {
            String::new()
        }
    }
}

fn cap_bound(spec: &Spec<'_>, cap: &Sp<Bandwidth>) -> Bound {
    let speed = Speed::from_bps(cap.value.bits_per_sec().round() as u64);
    Bound {
        kind: BoundKind::SmbCap,
        speed,
        text: spec.text(|| {
            format!(
                "smb_bandwidth_limit {} MB/s ({}) for all live migration of the host",
                netlint_model::units::trim_float(cap.value.ps_megabytes()),
                fmt_rate(speed)
            )
        }),
        nics: Vec::new(),
    }
}

fn union_active(ports: &[&Port]) -> Vec<NicIdx> {
    let mut out = Vec::new();
    for p in ports {
        for n in &p.active {
            if !out.contains(n) {
                out.push(*n);
            }
        }
    }
    out
}

fn smb_flows(p: &Port) -> Flows {
    if p.rss && p.rdma.is_none() {
        Flows::Many
    } else {
        Flows::One
    }
}

/// The figures of a class given the sending host's ports (None = down) and
/// the receiving (healthy, alike) host's ports, index-aligned.
fn evaluate(host: &Host, spec: &Spec<'_>, tx: &[Option<Port>], rx: &[Port]) -> Option<Figures> {
    let up: Vec<usize> = (0..tx.len()).filter(|i| tx[*i].is_some()).collect();
    let first = *up.first()?;
    let in_use: Vec<usize> = if spec.transport.one_network() {
        vec![first]
    } else {
        up.clone()
    };
    let txp = |i: usize| tx[i].as_ref().expect("up");
    let all_up: Vec<&Port> = up.iter().map(|i| txp(*i)).collect();
    let adapters = union_active(&all_up);
    let adapters_bound = Bound {
        kind: BoundKind::Adapters,
        speed: sum_speed(host, &adapters),
        text: spec.text(|| {
            format!(
                "the adapters of its networks: {} ({}) = {}",
                names(host, &adapters),
                nics_text(host, &adapters),
                fmt_rate(sum_speed(host, &adapters))
            )
        }),
        nics: adapters.clone(),
    };
    let cap = spec.cap.map(|c| cap_bound(spec, c));

    // One stream: one connection on the first port in use.
    let p0 = txp(first);
    let stream_nics: Vec<NicIdx> = match p0.tx {
        Spread::Shared(n) => vec![n],
        _ => p0.active.clone(),
    };
    let one_flow = Bound {
        kind: BoundKind::OneFlow,
        speed: min_speed(host, &stream_nics),
        text: spec.text(|| {
            format!(
                "one connection stays on one adapter: {} of {} ({})",
                p0.name,
                nics_text(host, &stream_nics),
                host.nic(stream_nics[0]).speed.value
            )
        }),
        nics: stream_nics.clone(),
    };
    let mut per_stream = vec![one_flow];
    if spec.class == TrafficClass::LiveMigration {
        per_stream.extend(cap.clone());
    }

    let flows_for = |p: &Port| -> Flows {
        match spec.transport {
            ClassTransport::LmTcp | ClassTransport::LmCompression => {
                Flows::Count(spec.simultaneous)
            }
            ClassTransport::Smb => smb_flows(p),
            ClassTransport::Mpio => Flows::One,
            ClassTransport::MultiNicVmotion => Flows::One,
            ClassTransport::Guests | ClassTransport::Streams => Flows::Many,
        }
    };
    // Two networks on one interface (a team interface with two IPs) are
    // one port to the load balancing.
    let mut distinct: Vec<usize> = Vec::new();
    for i in &in_use {
        if !distinct.iter().any(|j| txp(*j).via == txp(*i).via) {
            distinct.push(*i);
        }
    }
    let items_tx: Vec<(&Port, Flows)> = distinct
        .iter()
        .map(|i| (txp(*i), flows_for(txp(*i))))
        .collect();
    let items_rx: Vec<(&Port, Flows)> = distinct
        .iter()
        .map(|i| (&rx[*i], flows_for(&rx[*i])))
        .collect();

    let mut aggregate = vec![adapters_bound.clone()];
    if spec.transport.one_network() {
        let chosen = &p0.active;
        let speed = sum_speed(host, chosen);
        let mut others: Vec<String> = Vec::new();
        for i in &up {
            if *i != first && !others.contains(&txp(*i).name) {
                others.push(txp(*i).name.clone());
            }
        }
        aggregate.push(Bound {
            kind: BoundKind::OneNetwork,
            speed,
            text: spec.text(|| {
                format!(
                    "{} uses one network at a time: {} ({}){}",
                    spec.transport.label(),
                    p0.name,
                    nics_text(host, chosen),
                    match others.len() {
                        0 => String::new(),
                        1 => format!("; {} takes over only when it fails", others[0]),
                        _ => format!(
                            "; the others ({}) take over only when it fails",
                            others.join(", ")
                        ),
                    }
                )
            }),
            nics: chosen.clone(),
        });
    }
    aggregate.extend(usage_bound(
        host,
        spec,
        &items_tx,
        Side::Send,
        BoundKind::Send,
    ));
    aggregate.extend(usage_bound(
        host,
        spec,
        &items_rx,
        Side::Receive,
        BoundKind::Receive,
    ));
    if spec.class == TrafficClass::LiveMigration {
        aggregate.extend(cap.clone());
    }

    let per_migration = (spec.class == TrafficClass::LiveMigration).then(|| {
        if spec.transport.one_network() {
            let mut b = per_stream.clone();
            b[0].text = spec.text(|| {
                format!(
                "one migration is one TCP connection, which stays on one adapter: {} of {} ({})",
                p0.name,
                nics_text(host, &stream_nics),
                host.nic(stream_nics[0]).speed.value
            )
            });
            Rate { bounds: b }
        } else {
            // One migration already spreads over every interface; the
            // simultaneous ones share the same channels.
            Rate {
                bounds: aggregate.clone(),
            }
        }
    });

    Some(Figures {
        per_stream: Rate { bounds: per_stream },
        per_migration,
        aggregate: Rate { bounds: aggregate },
        in_use,
    })
}

fn pin_caps(host: &Host, spec: &Spec<'_>, ports: &[Port], figures: &Figures) -> Vec<PinCap> {
    let mut groups: Vec<(Balancer, Vec<usize>)> = Vec::new();
    for i in &figures.in_use {
        let p = &ports[*i];
        let Some(b) = &p.balancer else { continue };
        if !b.is_hyperv_port() || p.tx != Spread::OneMember {
            continue;
        }
        match groups.iter_mut().find(|(g, _)| g.group == b.group) {
            // Two networks on one interface are one port.
            Some((_, v)) if v.iter().any(|j| ports[*j].via == p.via) => {}
            Some((_, v)) => v.push(*i),
            None => groups.push((b.clone(), vec![*i])),
        }
    }
    let mut out = Vec::new();
    for (b, idx) in groups {
        let items: Vec<(&Port, Flows)> = idx
            .iter()
            .map(|i| (&ports[*i], Flows::Count(spec.simultaneous.max(1))))
            .collect();
        let used = used_nics(&items, Side::Send);
        let used_here: Vec<NicIdx> = used.into_iter().filter(|n| b.members.contains(n)).collect();
        if used_here.len() >= b.members.len() || b.members.len() < 2 {
            continue;
        }
        let member_speed = min_speed(host, &b.members);
        out.push(PinCap {
            cap: sum_speed(host, &used_here),
            team_total: sum_speed(host, &b.members),
            members_used: used_here.len(),
            member_speed,
            balancer: b,
            ports: idx,
        });
    }
    out
}

fn class_networks(design: &Design, host: &Host, class: TrafficClass) -> Vec<NetworkId> {
    let by_role = |f: &dyn Fn(&netlint_model::Network) -> bool| -> Vec<NetworkId> {
        design
            .networks
            .iter()
            .enumerate()
            .filter(|(_, n)| f(n))
            .map(|(i, _)| NetworkId(i))
            .collect()
    };
    match class {
        TrafficClass::LiveMigration => host
            .live_migration
            .as_ref()
            .map(|lm| lm.networks.iter().map(|n| n.value).collect())
            .unwrap_or_default(),
        TrafficClass::Csv => by_role(&|n| matches!(n.role.value, Role::Csv | Role::Cluster)),
        TrafficClass::SmbStorage => by_role(&|n| {
            n.role.value == Role::Storage
                && n.protocol.as_ref().map(|p| p.value) == Some(Protocol::Smb)
        }),
        TrafficClass::Iscsi => by_role(&|n| {
            n.role.value == Role::Storage
                && n.protocol.as_ref().map(|p| p.value) == Some(Protocol::Iscsi)
        }),
        TrafficClass::Vm => by_role(&|n| n.role.value == Role::Vm),
        TrafficClass::Backup => by_role(&|n| n.role.value == Role::Backup),
    }
}

fn class_model(
    design: &Design,
    topology: &Topology,
    hid: HostId,
    class: TrafficClass,
) -> Option<ClassModel> {
    let host = design.host(hid);
    let vsphere = host.os.value.is_vsphere();
    let networks = class_networks(design, host, class);
    let guests = class == TrafficClass::Vm;
    let mut ports = Vec::new();
    for net in &networks {
        ports.extend(ports_of(design, topology, hid, *net, guests));
    }
    if ports.is_empty() {
        return None;
    }
    let lm = host.live_migration.as_ref();
    let mut assumptions: Vec<&'static Assumption> = vec![&LINE_RATE, &PEER_ALIKE];
    let (transport, simultaneous, cap) = match class {
        TrafficClass::LiveMigration => {
            let lm = lm?;
            let transport = if vsphere {
                ClassTransport::MultiNicVmotion
            } else {
                match lm.transport.value {
                    Transport::Tcp => ClassTransport::LmTcp,
                    Transport::Compression => ClassTransport::LmCompression,
                    Transport::Smb => ClassTransport::Smb,
                }
            };
            let sim = match &lm.simultaneous {
                Some(s) => (s.value, false),
                None => (DEFAULT_SIMULTANEOUS_MIGRATIONS, true),
            };
            let cap = (transport == ClassTransport::Smb)
                .then(|| lm.smb_bandwidth_limit.clone())
                .flatten();
            (transport, Some(sim), cap)
        }
        TrafficClass::Csv | TrafficClass::SmbStorage => (ClassTransport::Smb, None, None),
        TrafficClass::Iscsi => (ClassTransport::Mpio, None, None),
        TrafficClass::Vm => (ClassTransport::Guests, None, None),
        TrafficClass::Backup => (ClassTransport::Streams, None, None),
    };
    let spec = Spec {
        class,
        transport,
        simultaneous: simultaneous.map(|s| s.0).unwrap_or(1),
        cap: cap.as_ref(),
        texts: true,
    };
    let figures_only = Spec {
        texts: false,
        ..spec
    };
    let tx: Vec<Option<Port>> = ports.iter().cloned().map(Some).collect();
    let healthy = evaluate(host, &spec, &tx, &ports)?;

    // The single adapter loss that hurts the class most.
    let mut candidates: Vec<NicIdx> = Vec::new();
    for p in &ports {
        for n in p.all_nics() {
            if !candidates.contains(&n) {
                candidates.push(n);
            }
        }
    }
    let mut degraded: Option<Degraded> = None;
    let mut stranded = Vec::new();
    for lost in candidates {
        let tx: Vec<Option<Port>> = ports.iter().map(|p| p.without(lost)).collect();
        let down: Vec<usize> = (0..tx.len()).filter(|i| tx[*i].is_none()).collect();
        let Some(figures) = evaluate(host, &figures_only, &tx, &ports) else {
            stranded.push(lost);
            continue;
        };
        // Compared without the SMB cap: the loss that takes most from the
        // adapters, even where the cap hides it.
        let uncapped = |r: &Rate| r.speed_without(BoundKind::SmbCap);
        let worse = match &degraded {
            None => {
                uncapped(&figures.aggregate) < uncapped(&healthy.aggregate)
                    || uncapped(&figures.per_stream) < uncapped(&healthy.per_stream)
            }
            Some(d) => uncapped(&figures.aggregate) < uncapped(&d.figures.aggregate),
        };
        if worse {
            degraded = Some(Degraded {
                lost,
                figures,
                down,
            });
        }
    }

    // The kept loss again, with the texts that explain its figures.
    if let Some(d) = &mut degraded {
        let tx: Vec<Option<Port>> = ports.iter().map(|p| p.without(d.lost)).collect();
        if let Some(figures) = evaluate(host, &spec, &tx, &ports) {
            d.figures = figures;
        }
    }
    let pin_caps = pin_caps(host, &spec, &ports, &healthy);

    // Labels of what the figures relied on.
    let in_use_ports: Vec<&Port> = healthy.in_use.iter().map(|i| &ports[*i]).collect();
    match transport {
        ClassTransport::LmTcp | ClassTransport::LmCompression => {
            assumptions.push(&ONE_CONNECTION_PER_MIGRATION);
            assumptions.push(&ONE_NETWORK_AT_A_TIME);
            assumptions.push(&ONE_PEER);
            if transport == ClassTransport::LmCompression {
                assumptions.push(&COMPRESSION_NOT_CREDITED);
            }
        }
        ClassTransport::Smb => {
            assumptions.push(&SMB_MULTICHANNEL);
            if cap.is_some() {
                assumptions.push(&SMB_CAP_APPLIES_TO_RDMA);
            }
        }
        ClassTransport::MultiNicVmotion => assumptions.push(&MULTI_NIC_VMOTION),
        ClassTransport::Mpio => assumptions.push(&MPIO_ONE_SESSION),
        ClassTransport::Guests => assumptions.push(&GUESTS_SPREAD),
        ClassTransport::Streams => {}
    }
    if simultaneous.is_some_and(|s| s.1) && transport.one_network() {
        assumptions.push(&DEFAULT_SIMULTANEOUS);
    }
    for p in &in_use_ports {
        let Some(b) = &p.balancer else { continue };
        let lb = effective_lb(host, b);
        let push = |a: &'static Assumption, v: &mut Vec<&'static Assumption>| {
            if !v.contains(&a) {
                v.push(a);
            }
        };
        if p.tx == Spread::OneMember && p.active.len() > 1 {
            push(&HYPERV_PORT_ROUND_ROBIN, &mut assumptions);
        }
        match lb {
            Some(LoadBalancing::AddressHash) => push(&ADDRESS_HASH_RECEIVE, &mut assumptions),
            Some(LoadBalancing::Dynamic) => push(&DYNAMIC_SPREADS, &mut assumptions),
            None => push(&SET_BALANCING_UNSTATED, &mut assumptions),
            _ => {}
        }
        if b.mode.switch_dependent() {
            push(&ADDRESS_HASH_RECEIVE, &mut assumptions);
        }
    }

    let mut notes = Vec::new();
    if transport == ClassTransport::Smb {
        for p in &in_use_ports {
            if let Some(k) = p.rdma {
                notes.push(format!("SMB Direct ({k}) on {}", p.name));
            }
        }
    }
    for net in &networks {
        if !ports.iter().any(|p| p.network == *net) {
            notes.push(format!(
                "network `{}` has no interface on this host",
                design.network(*net).name
            ));
        }
    }

    Some(ClassModel {
        class,
        transport,
        networks,
        ports,
        simultaneous,
        cap,
        healthy,
        degraded,
        stranded,
        pin_caps,
        assumptions,
        notes,
    })
}

fn drain_time(gib: f64, rate: Speed, standard_frames: bool) -> DrainTime {
    let seconds = drain_seconds(gib, rate);
    DrainTime {
        rate,
        seconds,
        standard_frames: standard_frames.then_some((
            seconds * (1.0 + JUMBO_LM_GAIN_LOW),
            seconds * (1.0 + JUMBO_LM_GAIN_HIGH),
        )),
    }
}

fn host_model(design: &Design, topology: &Topology, hid: HostId) -> HostBandwidth {
    let host = design.host(hid);
    let mut classes: Vec<ClassModel> = TrafficClass::ALL
        .iter()
        .filter_map(|c| class_model(design, topology, hid, *c))
        .collect();
    let drain = match (
        &host.memory_gb,
        classes
            .iter_mut()
            .find(|c| c.class == TrafficClass::LiveMigration),
    ) {
        (Some(mem), Some(lm)) => {
            let standard = |f: &Figures| {
                f.in_use
                    .iter()
                    .any(|i| lm.ports[*i].mtu <= STANDARD_FRAMES_MTU)
            };
            let healthy = drain_time(
                mem.value,
                lm.healthy.aggregate.speed(),
                standard(&lm.healthy),
            );
            let degraded = lm.degraded.as_ref().map(|d| {
                (
                    d.lost,
                    drain_time(mem.value, d.figures.aggregate.speed(), standard(&d.figures)),
                )
            });
            if healthy.standard_frames.is_some()
                || degraded
                    .as_ref()
                    .is_some_and(|(_, d)| d.standard_frames.is_some())
            {
                lm.assumptions.push(&JUMBO_GAIN);
            }
            Some(Drain {
                memory_gib: mem.clone(),
                healthy,
                degraded,
            })
        }
        _ => None,
    };
    HostBandwidth {
        host: hid,
        classes,
        drain,
    }
}

/// The SMB live-migration limit Microsoft's validator expects for these
/// adapters: per adapter, `share` x [`VALIDATOR_SMB_FACTOR`] x link speed /
/// 8 up to 10G, [`VALIDATOR_FLAT_MB_PER_ADAPTER`] above. In bytes per
/// second, with a line per adapter saying how.
pub fn validator_limit(host: &Host, nics: &[NicIdx], share: f64) -> (Bandwidth, Vec<String>) {
    let mut total = 0.0;
    let mut lines = Vec::new();
    for n in nics {
        let nic = host.nic(*n);
        let speed = nic.speed.value;
        let (bytes, how) = if speed > VALIDATOR_FLAT_ABOVE {
            let b = VALIDATOR_FLAT_MB_PER_ADAPTER * 1_048_576.0;
            (
                b,
                format!(
                    "`{}` {speed}: above 10G, {} MB/s",
                    nic.name, VALIDATOR_FLAT_MB_PER_ADAPTER
                ),
            )
        } else {
            let b = share * VALIDATOR_SMB_FACTOR * speed.bytes_per_sec();
            (
                b,
                format!(
                    "`{}` {speed}: {} % x {} x {speed} / 8 = {} MB/s",
                    nic.name,
                    netlint_model::units::trim_float(share * 100.0),
                    VALIDATOR_SMB_FACTOR,
                    netlint_model::units::trim_float((b / 1_048_576.0).floor())
                ),
            )
        };
        total += b_floor(bytes);
        lines.push(how);
    }
    (Bandwidth::from_bytes_per_sec(total), lines)
}

/// Whole PowerShell MB.
fn b_floor(bytes: f64) -> f64 {
    (bytes / 1_048_576.0).floor() * 1_048_576.0
}

#[cfg(test)]
mod tests;
