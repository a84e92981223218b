//! The model's types: traffic classes, ports, bounds, figures, drain times.

use super::*;

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
    /// Stable id (JSON output, the docs); the words are
    /// `netlint_rules::phrases::bandwidth::class_label`.
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
    /// The team or virtual switch (its name is worded from it).
    pub group: Group,
    pub mode: TeamMode,
    /// None: not stated (a SET switch without `load_balancing`). The value
    /// only: the model is shared by the hosts built alike, so the line that
    /// states it is the host's own ([`Balancer::load_balancing_span`]).
    pub load_balancing: Option<LoadBalancing>,
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
        self.load_balancing
    }
    /// The line of `host` that states the load balancing (its own override
    /// or its profile's); None when it is not stated.
    pub fn load_balancing_span(&self, host: &Host) -> Option<Span> {
        match self.group {
            Group::Team(t) => Some(host.teams[t.0].load_balancing.span),
            Group::Switch(v) => host.vswitches[v.0].load_balancing.as_ref().map(|l| l.span),
        }
    }
    pub fn is_hyperv_port(&self) -> bool {
        self.lb() == Some(LoadBalancing::HypervPort)
    }
    /// The load balancing in effect: the stated one, or vSphere's default
    /// (originating port ID). None: a SET switch that does not say.
    pub fn effective_lb(&self, host: &Host) -> Option<LoadBalancing> {
        self.lb().or(if host.os.value.is_vsphere() {
            Some(LoadBalancing::OriginatingPort)
        } else {
            None
        })
    }
}

/// One host interface carrying a network: a NIC, a team interface, a vNIC
/// or vmkernel port, or the guests of a virtual switch.
#[derive(Clone, Debug, PartialEq)]
pub struct Port {
    pub network: NetworkId,
    /// The interface (a NIC, team interface, vNIC or vmkernel port, or
    /// the guests of a virtual switch); its name is worded from it.
    pub via: Via,
    /// Never empty: a carrier without an active adapter is no port, and
    /// [`Port::without`] returns None when the last one goes.
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

    pub fn spread(&self, side: Side) -> Spread {
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

/// Why a bound has its number: the facts the phrases word ("vNIC `LM1`
/// is pinned to one member of team `BigTeam` (hyperv-port): 1 x 1G").
#[derive(Clone, Debug, PartialEq)]
pub enum BoundReason {
    /// The adapters of the class's networks ([`Bound::nics`]) together.
    Adapters,
    /// The transport uses one network at a time: `port` carries the
    /// class, `others` (distinct interfaces) take over only when it fails.
    OneNetwork {
        transport: ClassTransport,
        port: Via,
        others: Vec<Via>,
    },
    /// One connection stays on one adapter of `port` ([`Bound::nics`]: the
    /// adapters it may be on). `migration`: one live migration is that one
    /// connection.
    OneFlow { port: Via, migration: bool },
    /// How the ports spread their flows over their members, on the side
    /// the bound's kind names ([`BoundKind::Send`] or
    /// [`BoundKind::Receive`]); [`Bound::nics`]: the members used.
    Usage(Vec<PortUse>),
    /// `smb_bandwidth_limit`, for all live migration of the host.
    SmbCap(Bandwidth),
}

/// One port's share of a [`BoundReason::Usage`]: the port as it is in the
/// scenario (after a loss, its remaining members) on one side.
#[derive(Clone, Debug, PartialEq)]
pub struct PortUse {
    pub via: Via,
    pub flows: Flows,
    /// The port's spread on the bound's side.
    pub spread: Spread,
    pub active: Vec<NicIdx>,
    pub balancer: Option<Balancer>,
    /// SMB Direct on this port.
    pub rdma: bool,
}

/// One upper limit on a figure, with where its number comes from.
#[derive(Clone, Debug, PartialEq)]
pub struct Bound {
    pub kind: BoundKind,
    pub speed: Speed,
    /// The facts behind the number.
    pub reason: BoundReason,
    /// The adapters this bound counts.
    pub nics: Vec<NicIdx>,
    /// Those of [`Bound::nics`] whose speed the design does not state,
    /// counted as nothing: `speed` is then a lower bound (0 when it is a
    /// minimum over them).
    pub unknown: Vec<NicIdx>,
}

impl Bound {
    /// Whether the bound's own number is exact ([`Bound::unknown`] empty),
    /// a lower bound, or nothing (0 over adapters of unknown speed).
    pub fn known(&self) -> Known {
        match (self.unknown.is_empty(), self.speed.bps()) {
            (true, _) => Known::Exact,
            (false, 0) => Known::Unknown,
            (false, _) => Known::AtLeast,
        }
    }
}

/// How much of a figure is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Known {
    /// Every speed it rests on is stated.
    Exact,
    /// It counts adapters of unknown speed as nothing: the real figure is
    /// at least this.
    AtLeast,
    /// It rests on an adapter of unknown speed alone: no figure.
    Unknown,
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
    /// Whether the figure is exact: the smallest of lower bounds is a lower
    /// bound, and exact when an exact bound reaches it.
    pub fn known(&self) -> Known {
        let s = self.speed();
        let at_min = || self.bounds.iter().filter(|b| b.speed == s);
        if at_min().any(|b| b.unknown.is_empty()) {
            Known::Exact
        } else if s.bps() == 0 {
            Known::Unknown
        } else {
            Known::AtLeast
        }
    }
    /// Every adapter of unknown speed the figure's bounds count.
    pub fn unknown(&self) -> Vec<NicIdx> {
        let mut out: Vec<NicIdx> = Vec::new();
        for n in self.bounds.iter().flat_map(|b| &b.unknown) {
            if !out.contains(n) {
                out.push(*n);
            }
        }
        out
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
    /// Members whose speed is not stated (counted as nothing above).
    pub unknown: Vec<NicIdx>,
}

/// A fact about a class worth a line in a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClassNote {
    /// SMB runs as SMB Direct on this port (an index into the class's
    /// ports).
    SmbDirect { port: usize, rdma: Rdma },
    /// One of the class's networks has no interface on this host.
    NoInterface(NetworkId),
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
    /// `smb_bandwidth_limit` when it applies (SMB live migration); its line
    /// is the host's own (`live_migration.smb_bandwidth_limit`).
    pub cap: Option<Bandwidth>,
    pub healthy: Figures,
    /// The single adapter loss that takes the most, among those that leave
    /// the class a path. None when no such loss changes anything.
    pub degraded: Option<Degraded>,
    /// Adapters whose loss leaves the class no interface at all (a single
    /// point of failure, which the redundancy rules report).
    pub stranded: Vec<NicIdx>,
    pub pin_caps: Vec<PinCap>,
    pub assumptions: Vec<Assumption>,
    /// Facts worth a line in a report.
    pub notes: Vec<ClassNote>,
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
    /// Whether `rate` is exact; at [`Known::AtLeast`] `seconds` is an
    /// upper bound, at [`Known::Unknown`] there is no time.
    pub known: Known,
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

/// One host's model: its classes, shared by every host built alike (see
/// [`BandwidthModel::build`]), and its drain time, its own (it rests on the
/// host's `memory_gb`).
#[derive(Clone, Debug, PartialEq)]
pub struct HostBandwidth {
    pub host: HostId,
    /// The same allocation for every host whose inputs to the model are
    /// equal. Indices only (NICs, teams, virtual switches, networks): the
    /// names, and the lines a finding points at, are the host's own.
    pub classes: Arc<[ClassModel]>,
    pub drain: Option<Drain>,
}

impl HostBandwidth {
    pub fn class(&self, class: TrafficClass) -> Option<&ClassModel> {
        self.classes.iter().find(|c| c.class == class)
    }
    /// The model of one host computed on its own, shared with nothing.
    pub fn of(design: &Design, topology: &Topology, h: HostId) -> HostBandwidth {
        let classes: Arc<[ClassModel]> = host_classes(design, topology, h).into();
        HostBandwidth {
            host: h,
            drain: host_drain(design.host(h), &classes),
            classes,
        }
    }
}

#[derive(Clone, Debug)]
pub struct BandwidthModel {
    /// By `HostId`.
    pub hosts: Vec<HostBandwidth>,
    /// How many times the classes were computed: once per class of hosts
    /// alike, whatever the number of hosts in it.
    pub computed: usize,
}

impl BandwidthModel {
    /// Every host's model. The classes are computed once per class of
    /// hosts whose inputs to the model are equal (`alike::Inputs`: the
    /// same platform, adapters, teams, virtual switches, live-migration
    /// settings and carriers, whatever their names, lines and cabling) and
    /// shared by its hosts; the drain time is each host's own. Classes are
    /// independent, so large designs compute them on every core; the
    /// order is the hosts' whatever the threads do.
    pub fn build(design: &Design, topology: &Topology) -> BandwidthModel {
        use rayon::prelude::*;
        let n = design.hosts.len();
        let inputs: Vec<alike::Inputs<'_>> = (0..n)
            .into_par_iter()
            .with_min_len(256)
            .map(|h| alike::Inputs::of(design, topology, HostId(h)))
            .collect();
        // Classes numbered in the order of their first host.
        let mut index: HashMap<&alike::Inputs<'_>, usize> = HashMap::default();
        let mut first: Vec<HostId> = Vec::new();
        let class_of: Vec<usize> = inputs
            .iter()
            .enumerate()
            .map(|(h, k)| {
                *index.entry(k).or_insert_with(|| {
                    first.push(HostId(h));
                    first.len() - 1
                })
            })
            .collect();
        let shared: Vec<Arc<[ClassModel]>> = first
            .par_iter()
            .map(|h| host_classes(design, topology, *h).into())
            .collect();
        let hosts = (0..n)
            .into_par_iter()
            .with_min_len(256)
            .map(|h| {
                let classes = Arc::clone(&shared[class_of[h]]);
                HostBandwidth {
                    host: HostId(h),
                    drain: host_drain(design.host(HostId(h)), &classes),
                    classes,
                }
            })
            .collect();
        BandwidthModel {
            hosts,
            computed: shared.len(),
        }
    }
    /// Every host's model computed on its own: the reference
    /// [`BandwidthModel::build`] is tested against.
    pub fn build_each(design: &Design, topology: &Topology) -> BandwidthModel {
        let hosts: Vec<HostBandwidth> = design
            .host_ids()
            .map(|h| HostBandwidth::of(design, topology, h))
            .collect();
        BandwidthModel {
            computed: hosts.len(),
            hosts,
        }
    }
    pub fn host(&self, h: HostId) -> &HostBandwidth {
        &self.hosts[h.0]
    }
}
