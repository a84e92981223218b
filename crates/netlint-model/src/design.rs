//! The typed, validated design: references resolved to indices, profiles
//! merged onto hosts, every value with the span of the line that set it.

use crate::element::Element;
use crate::span::{Sp, Span};
use crate::units::{Bandwidth, Duration, Mtu, Speed};
use crate::vlans::VlanSet;
use std::collections::BTreeMap;

macro_rules! str_enum {
    ($(#[$m:meta])* $name:ident { $($var:ident = $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum $name { $($var),+ }
        impl $name {
            /// Every value as written in a design, in documentation order.
            pub const NAMES: &'static [&'static str] = &[$($s),+];
            pub fn parse(s: &str) -> Option<Self> {
                match s { $($s => Some($name::$var),)+ _ => None }
            }
            pub fn as_str(self) -> &'static str {
                match self { $($name::$var => $s),+ }
            }
        }
        impl $crate::design::StrEnum for $name {
            const NAMES: &'static [&'static str] = &[$($s),+];
            fn parse(s: &str) -> Option<Self> { $name::parse(s) }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

/// An enumeration written as a kebab-case string in a design.
pub trait StrEnum: Sized + Copy {
    const NAMES: &'static [&'static str];
    fn parse(s: &str) -> Option<Self>;
}

str_enum!(
    /// Host operating system / hypervisor platform.
    Platform {
        Ws2012 = "windows-server-2012",
        Ws2012R2 = "windows-server-2012r2",
        Ws2016 = "windows-server-2016",
        Ws2019 = "windows-server-2019",
        Ws2022 = "windows-server-2022",
        Ws2025 = "windows-server-2025",
        AzureLocal = "azure-local",
        Vsphere50 = "vsphere-5.0",
        Vsphere50U2 = "vsphere-5.0u2",
        Vsphere51 = "vsphere-5.1",
        Vsphere55 = "vsphere-5.5",
        Vsphere6 = "vsphere-6",
        Vsphere7 = "vsphere-7",
        Vsphere8 = "vsphere-8",
    }
);

impl Platform {
    pub fn is_vsphere(self) -> bool {
        self.as_str().starts_with("vsphere")
    }
    pub fn is_windows(self) -> bool {
        !self.is_vsphere()
    }
    /// Windows Server 2016 or later, or Azure Local (SET exists).
    pub fn has_set(self) -> bool {
        self.is_windows() && self >= Platform::Ws2016
    }
    /// What the platform calls live migration: "vMotion" on vSphere.
    pub fn live_migration_words(self) -> &'static str {
        if self.is_vsphere() {
            "vMotion"
        } else {
            "live migration"
        }
    }
    /// Windows Server 2022 or later, or Azure Local (LBFO under a vSwitch blocked).
    pub fn lbfo_vswitch_deprecated(self) -> bool {
        self.is_windows() && self >= Platform::Ws2022
    }
}

str_enum!(Role {
    Management = "management",
    Vm = "vm",
    Cluster = "cluster",
    Csv = "csv",
    LiveMigration = "live-migration",
    Storage = "storage",
    Backup = "backup",
    Replica = "replica",
    // Not known yet: a VLAN read off switch configs, which never say
    // what a VLAN carries. Checked for what the switches alone decide.
    Unknown = "unknown",
});

str_enum!(Protocol {
    Smb = "smb",
    Iscsi = "iscsi",
    Nfs = "nfs",
    Vsan = "vsan",
});

str_enum!(ClusterUse {
    None = "none",
    Cluster = "cluster",
    ClusterAndClient = "cluster-and-client",
});

str_enum!(Tier {
    Access = "access",
    Aggregation = "aggregation",
    Core = "core",
});

str_enum!(StpMode {
    None = "none",
    Stp = "stp",
    Rstp = "rstp",
    Mstp = "mstp",
    Pvst = "pvst",
    RapidPvst = "rapid-pvst",
});

str_enum!(
    /// Which default port path cost table a switch uses: 802.1D-1998 16-bit
    /// (`short`) or 802.1t 32-bit (`long`).
    PathCost {
        Short = "short",
        Long = "long",
    }
);

str_enum!(LagMode {
    Lacp = "lacp",
    Static = "static",
    None = "none",
});

str_enum!(LinkKind {
    Ethernet = "ethernet",
    Stack = "stack",
    PeerLink = "peer-link",
    Routed = "routed",
});

str_enum!(Power {
    MaxPerformance = "max-performance",
    Balanced = "balanced",
    PowerSaver = "power-saver",
    Unknown = "unknown",
});

str_enum!(Rdma {
    None = "none",
    Roce = "roce",
    RoceV2 = "roce-v2",
    Iwarp = "iwarp",
    Infiniband = "infiniband",
});

impl Rdma {
    pub fn is_roce(self) -> bool {
        matches!(self, Rdma::Roce | Rdma::RoceV2)
    }
    pub fn enabled(self) -> bool {
        self != Rdma::None
    }
}

str_enum!(TeamKind {
    Lbfo = "lbfo",
    Vendor = "vendor",
});

str_enum!(TeamMode {
    SwitchIndependent = "switch-independent",
    Static = "static",
    Lacp = "lacp",
});

impl TeamMode {
    pub fn switch_dependent(self) -> bool {
        self != TeamMode::SwitchIndependent
    }
}

str_enum!(
    /// Load balancing of a team or virtual switch (Hyper-V and vSphere names).
    LoadBalancing {
        HypervPort = "hyperv-port",
        AddressHash = "address-hash",
        Dynamic = "dynamic",
        OriginatingPort = "originating-port",
        SourceMac = "source-mac",
        IpHash = "ip-hash",
        PhysicalNicLoad = "physical-nic-load",
        ExplicitFailover = "explicit-failover",
        Lacp = "lacp",
    }
);

impl LoadBalancing {
    pub const TEAM: &'static [&'static str] = &["hyperv-port", "address-hash", "dynamic"];
    pub const SET: &'static [&'static str] = &["hyperv-port", "dynamic"];
    pub const VSPHERE: &'static [&'static str] = &[
        "originating-port",
        "source-mac",
        "ip-hash",
        "physical-nic-load",
        "explicit-failover",
        "lacp",
    ];
}

str_enum!(SwitchLag {
    Lacp = "lacp",
    Static = "static",
    None = "none",
});

str_enum!(VSwitchKind {
    Vss = "vss",
    Vds = "vds",
});

str_enum!(Transport {
    Tcp = "tcp",
    Compression = "compression",
    Smb = "smb",
});

str_enum!(PolicyMatch {
    SmbDirect = "smb-direct",
    Smb = "smb",
    Cluster = "cluster",
    LiveMigration = "live-migration",
    Iscsi = "iscsi",
    Default = "default",
});

str_enum!(
    /// A rule's configured level in `[netlint] rules`.
    Level {
        Off = "off",
        Info = "info",
        Warning = "warning",
        Error = "error",
    }
);

str_enum!(
    /// `fail_on` threshold.
    FailOn {
        Error = "error",
        Warning = "warning",
        Info = "info",
        Never = "never",
    }
);

macro_rules! id_type {
    ($name:ident) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub usize);
    };
}
id_type!(NetworkId);
id_type!(SwitchId);
id_type!(LinkId);
id_type!(HostId);
// Indices into `Host::nics`, `Host::teams` and `Host::vswitches`.
id_type!(NicIdx);
id_type!(TeamIdx);
id_type!(VSwitchIdx);

/// `allow = { rule-id = "reason" }` on one element.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Allow {
    /// rule id (with the span of the key) -> reason.
    pub entries: Vec<AllowEntry>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AllowEntry {
    pub rule: Sp<String>,
    pub reason: String,
    /// Where the reason is written.
    pub reason_span: Span,
    /// The TOML path of the entry (`hosts.hv1.allow."mtu-mismatch"`),
    /// where it is written: a profile's entry is the profile's, on each
    /// host built from it.
    pub path: crate::fix::TomlPath,
}

#[derive(Clone, Debug)]
pub struct Design {
    pub name: Sp<String>,
    /// The `[design]` header.
    pub span: Span,
    pub platform: Sp<Platform>,
    pub drain_budget: Option<Sp<Duration>>,
    pub networks: Vec<Network>,
    pub switches: Vec<Switch>,
    pub links: Vec<Link>,
    pub profiles: Vec<Profile>,
    pub hosts: Vec<Host>,
    /// `[storage.NAME]`: storage targets, in file order.
    pub storage: Vec<crate::storage::StorageTarget>,
    pub lint: LintSettings,
    /// Every `allow` table of the design, by the element it is attached to
    /// (a profile's entries are copied onto each host built from it).
    pub allows: Vec<(Element, AllowEntry)>,
    /// Every network some host lists under `live_migration.networks`, in
    /// the order first listed; worked out once by the loader (the hosts are
    /// not changed after loading), as failure wording asks for it per unit.
    pub(crate) live_migration_networks: Vec<NetworkId>,
    /// The value written at a span where the model keeps it in another
    /// form: VLAN lists (`[10, "20-29"]`, whose ranges the model expands)
    /// and strings parsed into units (`"1500MB"`). A fix that replaces one
    /// names it as the old value ([`Design::written_at`]).
    pub written: std::collections::BTreeMap<Span, crate::fix::FixValue>,
}

#[derive(Clone, Debug, Default)]
pub struct LintSettings {
    pub span: Option<Span>,
    pub fail_on: Option<Sp<FailOn>>,
    /// `stack_as_unit = true`: a stack fails as a whole (one control plane
    /// and firmware), not member by member.
    pub stack_as_unit: Option<Sp<bool>>,
    /// rule id (span of the key) -> level (span of the value).
    pub rules: Vec<(Sp<String>, Sp<Level>)>,
}

#[derive(Clone, Debug)]
pub struct Network {
    pub name: String,
    /// The table's header or key.
    pub span: Span,
    pub role: Sp<Role>,
    /// None = untagged.
    pub vlan: Option<Sp<u16>>,
    pub subnet: Option<Sp<Subnet>>,
    pub mtu: Sp<Mtu>,
    pub protocol: Option<Sp<Protocol>>,
    /// Written or defaulted by role (span = the role when defaulted).
    pub cluster_use: Sp<ClusterUse>,
}

impl Network {
    pub fn tagged(&self) -> bool {
        self.vlan.is_some()
    }
    pub fn vlan_id(&self) -> Option<u16> {
        self.vlan.as_ref().map(|v| v.value)
    }
    /// In the cluster group: `cluster_use` other than `none`.
    pub fn in_cluster_group(&self) -> bool {
        self.cluster_use.value != ClusterUse::None
    }
    pub fn element(&self) -> Element {
        Element::Network(self.name.clone())
    }
}

/// An IPv4 or IPv6 prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Subnet {
    pub addr: std::net::IpAddr,
    pub prefix: u8,
}

impl Subnet {
    pub fn parse(s: &str) -> Result<Subnet, String> {
        let err = || format!("`{s}` is not a subnet: write it as \"10.0.20.0/24\"");
        let (a, p) = s.split_once('/').ok_or_else(err)?;
        let addr: std::net::IpAddr = a.trim().parse().map_err(|_| err())?;
        let prefix: u8 = p.trim().parse().map_err(|_| err())?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        if prefix > max {
            return Err(format!(
                "prefix length /{prefix} is longer than {max} in `{s}`"
            ));
        }
        Ok(Subnet { addr, prefix })
    }

    fn bits(&self) -> (u128, u32) {
        match self.addr {
            std::net::IpAddr::V4(a) => (u32::from(a) as u128, 32),
            std::net::IpAddr::V6(a) => (u128::from(a), 128),
        }
    }

    /// Whether the two prefixes share any address.
    pub fn overlaps(&self, other: &Subnet) -> bool {
        let ((a, wa), (b, wb)) = (self.bits(), other.bits());
        if wa != wb {
            return false;
        }
        let p = self.prefix.min(other.prefix) as u32;
        if p == 0 {
            return true;
        }
        let shift = wa - p;
        (a >> shift) == (b >> shift)
    }
}

impl std::fmt::Display for Subnet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.addr, self.prefix)
    }
}

#[derive(Clone, Debug)]
pub struct Switch {
    pub name: String,
    pub span: Span,
    pub model: Option<Sp<String>>,
    pub tier: Sp<Tier>,
    /// `mtu` or `frame_size`; default 1500.
    pub mtu: Sp<Mtu>,
    /// VLANs defined on the switch; None = every VLAN the design uses.
    pub vlans: Option<Sp<VlanSet>>,
    pub stack: Option<Sp<String>>,
    pub mlag: Option<Sp<String>>,
    pub host_ports: HostPorts,
    pub stp: Stp,
    pub dcb: Option<SwitchDcb>,
    /// The largest MTU the switch takes: `max_mtu` as written, or from its
    /// `model` in the built-in table (`switch_models`).
    pub mtu_limit: Option<crate::switch_models::MtuLimit>,
    /// `managed = false`: a device known only from cabling (a router, a
    /// firewall, a BMC switch), taken as opaque: it bridges none of the
    /// design's VLANs and runs no spanning tree (docs/format.md, "Routed
    /// links and unmanaged devices"). Absent = managed.
    pub managed: Option<Sp<bool>>,
    /// Ports configured one by one (`ports."Ethernet1/5"`), in file order.
    pub ports: Vec<crate::ports::SwitchPort>,
}

impl Switch {
    pub fn element(&self) -> Element {
        Element::Switch(self.name.clone())
    }
    /// The largest `mtu` the switch takes (its `max_mtu` or model's, else
    /// the format's 9216).
    pub fn max_mtu(&self) -> u32 {
        self.mtu_limit
            .as_ref()
            .map_or(crate::units::MAX_MTU, |l| l.payload)
    }
    /// Its limit when it is below the format's 9216 (a `max_mtu`, or a
    /// model that takes less): what MTU advice must not exceed.
    pub fn lower_mtu_limit(&self) -> Option<&crate::switch_models::MtuLimit> {
        self.mtu_limit
            .as_ref()
            .filter(|l| l.payload < crate::units::MAX_MTU)
    }
    /// The vendor of a `model` the built-in table knows.
    pub fn vendor(&self) -> Option<crate::switch_models::Vendor> {
        let m = self.model.as_ref()?;
        crate::switch_models::vendor_of(&m.value)
    }
    /// The path-cost method this switch's STP uses.
    pub fn cost_method(&self) -> PathCost {
        self.stp.cost_method(self.vendor())
    }
    /// Whether the switch defines this VLAN (None = untagged: always). An
    /// unmanaged device defines none: it bridges none of the design's
    /// VLANs.
    pub fn defines_vlan(&self, vlan: Option<u16>) -> bool {
        if !self.is_managed() {
            return false;
        }
        match (vlan, &self.vlans) {
            (None, _) | (_, None) => true,
            (Some(v), Some(set)) => set.value.contains(v),
        }
    }
    /// Whether netlint knows the switch's configuration: false for a
    /// device written with `managed = false`.
    pub fn is_managed(&self) -> bool {
        self.managed.as_ref().is_none_or(|m| m.value)
    }
}

#[derive(Clone, Debug, Default)]
pub struct HostPorts {
    pub span: Option<Span>,
    pub edge: Option<Sp<bool>>,
    pub bpdu_guard: Option<Sp<bool>>,
    /// The native VLAN of host-facing ports (`None`: not stated).
    pub native_vlan: Option<Sp<u16>>,
}

#[derive(Clone, Debug)]
pub struct Stp {
    pub span: Option<Span>,
    pub mode: Sp<StpMode>,
    /// Written priority; None = the default 32768.
    pub priority: Option<Sp<u32>>,
    pub mac: Option<Sp<[u8; 6]>>,
    pub region: Option<Sp<String>>,
    pub revision: Option<Sp<u32>>,
    /// MSTP instance -> VLANs (span of the `instances` value).
    pub instances: Option<Sp<BTreeMap<u16, VlanSet>>>,
    pub instance_priority: BTreeMap<u16, Sp<u32>>,
    /// PVST: per-VLAN bridge priority (`vlan_priority`), span of the value.
    pub vlan_priority: BTreeMap<u16, Sp<u32>>,
    /// `path_cost` as written; see [`Stp::cost_method`] for the default.
    pub path_cost: Option<Sp<PathCost>>,
    /// PVST: VLANs with spanning tree off (`no spanning-tree vlan N`).
    pub disabled_vlans: Option<Sp<VlanSet>>,
    /// `peer_switch` of an MLAG / vPC peer (only `true` is modelled).
    pub peer_switch: Option<Sp<bool>>,
}

pub const DEFAULT_BRIDGE_PRIORITY: u32 = 32768;

impl Stp {
    pub fn bridge_priority(&self) -> u32 {
        self.priority
            .as_ref()
            .map(|p| p.value)
            .unwrap_or(DEFAULT_BRIDGE_PRIORITY)
    }
    /// The bridge priority for an MSTP instance (0 = CIST).
    pub fn instance_priority(&self, instance: u16) -> u32 {
        if instance != 0 {
            if let Some(p) = self.instance_priority.get(&instance) {
                return p.value;
            }
        }
        self.bridge_priority()
    }
    /// The PVST+ bridge priority of a VLAN (`vlan_priority`, else `priority`).
    pub fn vlan_priority(&self, vlan: u16) -> u32 {
        self.vlan_priority
            .get(&vlan)
            .map(|p| p.value)
            .unwrap_or_else(|| self.bridge_priority())
    }
    /// The path-cost method the switch uses: `path_cost` as written, else
    /// the default of its mode and platform (see `docs/format.md`): short
    /// for `stp` and for Cisco PVST+ / rapid-PVST+ (the default of IOS and
    /// NX-OS), long for RSTP and MSTP and for PVST on a platform the
    /// `model` table knows to use long costs (Dell, Aruba).
    pub fn cost_method(&self, vendor: Option<crate::switch_models::Vendor>) -> PathCost {
        if let Some(p) = &self.path_cost {
            return p.value;
        }
        self.default_cost_method(vendor)
    }
    /// [`Stp::cost_method`] without `path_cost`.
    pub fn default_cost_method(&self, vendor: Option<crate::switch_models::Vendor>) -> PathCost {
        match self.mode.value {
            StpMode::Stp => PathCost::Short,
            // The vendor's default; where it is unknown, Cisco's (the
            // protocol's origin), which `stp-cost-method-mismatch` names
            // as assumed.
            StpMode::Pvst | StpMode::RapidPvst => vendor
                .and_then(|v| v.pvst_cost_default())
                .unwrap_or(PathCost::Short),
            _ => PathCost::Long,
        }
    }
    /// Whether spanning tree is off for `vlan` (`disabled_vlans`).
    pub fn vlan_disabled(&self, vlan: u16) -> bool {
        self.disabled_vlans
            .as_ref()
            .is_some_and(|s| s.value.contains(vlan))
    }
    /// MSTP instance of a VLAN (0 = IST/CIST).
    pub fn instance_of(&self, vlan: u16) -> u16 {
        self.instances
            .as_ref()
            .and_then(|m| {
                m.value
                    .iter()
                    .find(|(_, set)| set.contains(vlan))
                    .map(|(i, _)| *i)
            })
            .unwrap_or(0)
    }
}

#[derive(Clone, Debug)]
pub struct SwitchDcb {
    pub span: Span,
    pub pfc: Option<Sp<Vec<u8>>>,
    pub ets: Option<Sp<BTreeMap<u8, u32>>>,
}

#[derive(Clone, Debug)]
pub struct Link {
    /// `name`, or "A--B" by default.
    pub name: String,
    /// The `[[links]]` header (or the inline table).
    pub span: Span,
    /// The switch at the `a` end (the first one when `a` lists several).
    pub a: Sp<SwitchId>,
    /// The other switches of a double-sided multi-chassis LAG's `a` end
    /// (`a = ["dist-1", "dist-2"]`); empty when `a` is one switch.
    pub a_more: Vec<Sp<SwitchId>>,
    /// One switch, or several for a multi-chassis LAG.
    pub b: Vec<Sp<SwitchId>>,
    /// Per member; None: not stated (unknown, never guessed: see
    /// `docs/format.md`, "Unknown speeds").
    pub speed: Option<Sp<Speed>>,
    pub members: Sp<u32>,
    /// As written, or the format's default from the number of cables and
    /// ends (see `lag_written`).
    pub lag: Sp<LagMode>,
    /// Whether `lag` was written; false: `lag` is the format's default,
    /// which `netlint diff` does not compare.
    pub lag_written: bool,
    pub kind: Sp<LinkKind>,
    pub vlans: Option<Sp<VlanSet>>,
    pub stp_cost: Option<Sp<StpCost>>,
    pub mtu: Option<Sp<Mtu>>,
    /// Native VLAN and configured port at each end.
    pub ends: crate::ports::LinkEnds,
    /// 0-based position in `[[links]]`.
    pub index: usize,
}

impl Link {
    pub fn element(&self) -> Element {
        Element::Link(self.name.clone())
    }
    pub fn is_multi_chassis(&self) -> bool {
        self.b.len() > 1 || !self.a_more.is_empty()
    }
    /// The switches at the `a` end, `a` first.
    pub fn a_ends(&self) -> impl Iterator<Item = &Sp<SwitchId>> + '_ {
        std::iter::once(&self.a).chain(&self.a_more)
    }
    /// Every switch the link touches: its `a` end, then its `b` end.
    pub fn ends(&self) -> impl Iterator<Item = SwitchId> + '_ {
        self.a_ends().chain(&self.b).map(|s| s.value)
    }
    /// The bundling of each end where `lag_a` or `lag_b` states it, the
    /// other end, when unstated, at the format's default (`lacp` with
    /// several cables or switches, else `none`, at the link's span).
    pub fn lag_ends(&self) -> Option<(Sp<LagMode>, Sp<LagMode>)> {
        let default = || {
            let m = if self.members.value > 1 || self.is_multi_chassis() {
                LagMode::Lacp
            } else {
                LagMode::None
            };
            Sp::new(m, self.span)
        };
        match (&self.ends.lag_a, &self.ends.lag_b) {
            (None, None) => None,
            (a, b) => Some((
                a.clone().unwrap_or_else(default),
                b.clone().unwrap_or_else(default),
            )),
        }
    }
    /// Several members bundled into one logical port.
    pub fn is_lag(&self) -> bool {
        self.members.value > 1 && self.lag.value != LagMode::None || self.is_multi_chassis()
    }
    /// Whether the link carries the VLAN (None = untagged). A routed link
    /// carries none.
    pub fn allows_vlan(&self, vlan: Option<u16>) -> bool {
        if self.kind.value == LinkKind::Routed {
            return false;
        }
        match (vlan, &self.vlans) {
            (None, _) | (_, None) => true,
            (Some(v), Some(set)) => set.value.contains(v),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StpCost {
    All(u32),
    PerInstance(BTreeMap<u16, u32>),
}

#[derive(Clone, Debug)]
pub struct Profile {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Host {
    pub name: String,
    pub span: Span,
    pub profile: Option<Sp<String>>,
    /// `cluster` (default: one cluster for the whole design, named "").
    pub cluster: Option<Sp<String>>,
    pub os: Sp<Platform>,
    pub memory_gb: Option<Sp<f64>>,
    pub power: Sp<Power>,
    pub nics: Vec<Nic>,
    pub teams: Vec<Team>,
    pub vswitches: Vec<VSwitch>,
    pub live_migration: Option<LiveMigration>,
    pub dcb: Option<HostDcb>,
    /// Spans of the keys and values written in the host's own table when it
    /// names a profile: its overrides (empty for a host without a profile,
    /// whose every line is its own).
    pub overrides: Vec<Span>,
}

impl Host {
    /// Whether the line at `span` is this host's override of its profile: a
    /// value that differs for this host alone, not the profile's shared line.
    pub fn overrides(&self, span: Span) -> bool {
        !span.is_empty()
            && self
                .overrides
                .iter()
                .any(|o| o.start <= span.start && span.end <= o.end)
    }
    pub fn cluster_name(&self) -> &str {
        self.cluster
            .as_ref()
            .map(|c| c.value.as_str())
            .unwrap_or("")
    }
    pub fn nic(&self, idx: NicIdx) -> &Nic {
        &self.nics[idx.0]
    }
    pub fn nic_by_name(&self, name: &str) -> Option<NicIdx> {
        self.nics.iter().position(|n| n.name == name).map(NicIdx)
    }
    /// The physical NICs under an uplink.
    pub fn uplink_nics(&self, u: Uplink) -> Vec<NicIdx> {
        match u {
            Uplink::Nic(n) => vec![n],
            Uplink::Team(t) => self.teams[t.0].members.iter().map(|m| m.value).collect(),
        }
    }
    pub fn uplink_name(&self, u: Uplink) -> &str {
        match u {
            Uplink::Nic(n) => &self.nics[n.0].name,
            Uplink::Team(t) => &self.teams[t.0].name,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Nic {
    pub name: String,
    pub span: Span,
    /// Card name; default the NIC's own name.
    pub card: Sp<String>,
    pub model: Option<Sp<String>>,
    /// None: not stated (unknown, never guessed).
    pub speed: Option<Sp<Speed>>,
    pub attach: Option<Attachment>,
    pub port: Option<Sp<String>>,
    /// The configured port of its switch it is cabled to (index into the
    /// switch's `ports`): `switch_port`, or `port` when it names one.
    pub switch_port: Option<Sp<usize>>,
    pub mtu: Sp<Mtu>,
    pub rdma: Sp<Rdma>,
    pub networks: Vec<Sp<NetworkId>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Attachment {
    Switch(Sp<SwitchId>),
    /// A direct cable to another host's NIC.
    Peer {
        host: HostId,
        nic: NicIdx,
        span: Span,
    },
}

impl Attachment {
    pub fn span(&self) -> Span {
        match self {
            Attachment::Switch(s) => s.span,
            Attachment::Peer { span, .. } => *span,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Team {
    pub name: String,
    pub span: Span,
    pub kind: Sp<TeamKind>,
    pub members: Vec<Sp<NicIdx>>,
    /// Span of the `members` array.
    pub members_span: Span,
    pub mode: Sp<TeamMode>,
    pub load_balancing: Sp<LoadBalancing>,
    pub standby: Option<Sp<NicIdx>>,
    pub switch_lag: Option<Sp<SwitchLag>>,
    pub networks: Vec<Sp<NetworkId>>,
    pub mtu: Option<Sp<Mtu>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Uplink {
    Nic(NicIdx),
    Team(TeamIdx),
}

#[derive(Clone, Debug)]
pub struct VSwitch {
    pub name: String,
    pub span: Span,
    /// vSphere only: vss | vds.
    pub kind: Option<Sp<VSwitchKind>>,
    pub uplinks: Vec<Sp<Uplink>>,
    pub uplinks_span: Span,
    pub load_balancing: Option<Sp<LoadBalancing>>,
    pub networks: Vec<Sp<NetworkId>>,
    pub mtu: Option<Sp<Mtu>>,
    pub default_flow_weight: Option<Sp<u32>>,
    pub vnics: Vec<VNic>,
    /// How the switch ports of its uplinks are bundled.
    pub switch_lag: Option<Sp<SwitchLag>>,
}

impl VSwitch {
    /// What the platform calls this switch: "vDS" or "vSwitch" on vSphere,
    /// "SET switch" (two or more NIC uplinks) or "virtual switch" on
    /// Hyper-V.
    pub fn kind_words(&self, os: Platform) -> &'static str {
        match (os.is_vsphere(), self.kind.as_ref().map(|k| k.value)) {
            (true, Some(VSwitchKind::Vds)) => "vDS",
            (true, _) => "vSwitch",
            (false, _) if self.is_set() => "SET switch",
            (false, _) => "virtual switch",
        }
    }
    /// Two or more NIC uplinks: Switch Embedded Teaming.
    pub fn is_set(&self) -> bool {
        self.uplinks.len() >= 2
            && self
                .uplinks
                .iter()
                .all(|u| matches!(u.value, Uplink::Nic(_)))
    }
}

#[derive(Clone, Debug)]
pub struct VNic {
    pub name: String,
    pub span: Span,
    pub network: Sp<NetworkId>,
    pub mtu: Sp<Mtu>,
    pub rdma: Sp<bool>,
    pub min_bandwidth_weight: Option<Sp<u32>>,
    pub active_uplinks: Vec<Sp<NicIdx>>,
    pub standby_uplinks: Vec<Sp<NicIdx>>,
    pub iscsi_port_binding: Sp<bool>,
}

#[derive(Clone, Debug)]
pub struct LiveMigration {
    pub span: Span,
    pub transport: Sp<Transport>,
    pub networks: Vec<Sp<NetworkId>>,
    pub simultaneous: Option<Sp<u32>>,
    pub smb_bandwidth_limit: Option<Sp<Bandwidth>>,
}

#[derive(Clone, Debug)]
pub struct HostDcb {
    pub span: Span,
    pub willing: Option<Sp<bool>>,
    /// `willing = "unknown"`: the input did not say (a host collection
    /// without `Get-NetQosDcbxSetting`); `willing` is then `None` and no
    /// rule takes the DCBX default for it.
    pub willing_unknown: Option<Span>,
    pub pfc: Option<Sp<Vec<u8>>>,
    pub ets: Option<Sp<BTreeMap<u8, u32>>>,
    pub policies: Vec<DcbPolicy>,
}

#[derive(Clone, Debug)]
pub struct DcbPolicy {
    pub span: Span,
    pub name: Sp<String>,
    pub match_: Sp<PolicyMatch>,
    pub priority: Sp<u8>,
}

impl Design {
    /// The value as written at `span`, where the loader kept it
    /// ([`Design::written`]).
    pub fn written_at(&self, span: Span) -> Option<&crate::fix::FixValue> {
        self.written.get(&span)
    }

    /// Every network some host lists under `live_migration.networks`, in
    /// the order first listed.
    pub fn live_migration_networks(&self) -> &[NetworkId] {
        &self.live_migration_networks
    }
    pub(crate) fn find_live_migration_networks(hosts: &[Host]) -> Vec<NetworkId> {
        let mut seen = crate::fast_hash::Set::default();
        hosts
            .iter()
            .flat_map(|h| h.live_migration.iter().flat_map(|lm| &lm.networks))
            .map(|n| n.value)
            .filter(|n| seen.insert(*n))
            .collect()
    }
    pub fn network(&self, id: NetworkId) -> &Network {
        &self.networks[id.0]
    }
    pub fn switch(&self, id: SwitchId) -> &Switch {
        &self.switches[id.0]
    }
    pub fn link(&self, id: LinkId) -> &Link {
        &self.links[id.0]
    }
    pub fn host(&self, id: HostId) -> &Host {
        &self.hosts[id.0]
    }
    pub fn network_by_name(&self, name: &str) -> Option<NetworkId> {
        self.networks
            .iter()
            .position(|n| n.name == name)
            .map(NetworkId)
    }
    pub fn switch_by_name(&self, name: &str) -> Option<SwitchId> {
        self.switches
            .iter()
            .position(|n| n.name == name)
            .map(SwitchId)
    }
    pub fn host_by_name(&self, name: &str) -> Option<HostId> {
        self.hosts.iter().position(|n| n.name == name).map(HostId)
    }
    pub fn link_by_name(&self, name: &str) -> Option<LinkId> {
        self.links.iter().position(|n| n.name == name).map(LinkId)
    }
    pub fn host_ids(&self) -> impl Iterator<Item = HostId> {
        (0..self.hosts.len()).map(HostId)
    }
    /// Hosts grouped by cluster name, in file order.
    pub fn clusters(&self) -> BTreeMap<&str, Vec<HostId>> {
        let mut m: BTreeMap<&str, Vec<HostId>> = BTreeMap::new();
        for (i, h) in self.hosts.iter().enumerate() {
            m.entry(h.cluster_name()).or_default().push(HostId(i));
        }
        m
    }
    /// Whether two switches are one logical switch for a LAG: the same
    /// switch, one stack or one MLAG domain.
    pub fn same_logical_switch(&self, a: SwitchId, b: SwitchId) -> bool {
        if a == b {
            return true;
        }
        let (sa, sb) = (self.switch(a), self.switch(b));
        let same = |x: &Option<Sp<String>>, y: &Option<Sp<String>>| match (x, y) {
            (Some(x), Some(y)) => x.value == y.value,
            _ => false,
        };
        same(&sa.stack, &sb.stack) || same(&sa.mlag, &sb.mlag)
    }
    /// Whether a link is part of the bridged fabric: not a routed link and
    /// not cabling to a device with `managed = false` (see
    /// `docs/format.md`, "Routed links and unmanaged devices").
    pub fn bridges_link(&self, link: &Link) -> bool {
        link.kind.value != LinkKind::Routed && link.ends().all(|s| self.switch(s).is_managed())
    }
    /// The VLANs the design's networks use.
    /// The design's stacks: switches sharing a `stack` name, and switches
    /// joined by `kind = "stack"` cables, each stack's members in design
    /// order, the stacks in the order of their first member.
    pub fn stacks(&self) -> Vec<Vec<SwitchId>> {
        let n = self.switches.len();
        let mut parent: Vec<usize> = (0..n).collect();
        fn root(p: &mut [usize], mut i: usize) -> usize {
            while p[i] != i {
                p[i] = p[p[i]];
                i = p[i];
            }
            i
        }
        let mut join = |a: usize, b: usize| {
            let (x, y) = (root(&mut parent, a), root(&mut parent, b));
            if x != y {
                parent[x.max(y)] = x.min(y);
            }
        };
        let mut in_stack = vec![false; n];
        let mut first_of: std::collections::BTreeMap<&str, usize> = Default::default();
        for (i, s) in self.switches.iter().enumerate() {
            if let Some(name) = &s.stack {
                in_stack[i] = true;
                let j = *first_of.entry(name.value.as_str()).or_insert(i);
                join(i, j);
            }
        }
        for l in self
            .links
            .iter()
            .filter(|l| l.kind.value == LinkKind::Stack)
        {
            let ends: Vec<usize> = l.ends().map(|s| s.0).collect();
            for e in &ends {
                in_stack[*e] = true;
                join(ends[0], *e);
            }
        }
        let mut groups: std::collections::BTreeMap<usize, Vec<SwitchId>> = Default::default();
        for i in (0..n).filter(|i| in_stack[*i]) {
            let r = root(&mut parent, i);
            groups.entry(r).or_default().push(SwitchId(i));
        }
        groups.into_values().collect()
    }

    pub fn used_vlans(&self) -> VlanSet {
        self.networks.iter().filter_map(|n| n.vlan_id()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subnets_overlap() {
        let a = Subnet::parse("10.0.20.0/24").unwrap();
        let b = Subnet::parse("10.0.20.128/25").unwrap();
        let c = Subnet::parse("10.0.21.0/24").unwrap();
        assert!(a.overlaps(&b));
        assert!(!a.overlaps(&c));
        assert!(Subnet::parse("10.0.0.0/33").is_err());
        assert!(Subnet::parse("10.0.0.0").is_err());
    }

    #[test]
    fn platform_order() {
        assert!(Platform::Ws2022.lbfo_vswitch_deprecated());
        assert!(Platform::AzureLocal.lbfo_vswitch_deprecated());
        assert!(!Platform::Ws2019.lbfo_vswitch_deprecated());
        assert!(!Platform::Vsphere8.lbfo_vswitch_deprecated());
        assert!(Platform::Vsphere51.is_vsphere());
    }
}
