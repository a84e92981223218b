//! Typed facts of one Hyper-V / Azure Local host as built, each value with
//! the line of the collection it came from ([`Sourced`]). A fact the
//! collection does not give is `None`: unknown, never defaulted. What a
//! reader saw but could not map is a [`Remark`].

use crate::model::Sourced;

/// One host's facts.
#[derive(Clone, Debug, Default)]
pub struct HostFacts {
    /// The collection file.
    pub file: String,
    /// The host's name (`ComputerName` of the collection, else the file's
    /// stem).
    pub name: String,
    pub os: Option<Sourced<OsFacts>>,
    /// Installed physical memory in bytes (`Win32_ComputerSystem.TotalPhysicalMemory`).
    pub memory_bytes: Option<Sourced<u64>>,
    pub power: Option<Sourced<PowerPlan>>,
    /// Physical adapters (`Get-NetAdapter -Physical`, or `Virtual = false`).
    pub nics: Vec<NicFacts>,
    /// `Get-NetLbfoTeam` (None: not collected).
    pub lbfo_teams: Option<Vec<LbfoTeam>>,
    /// `Get-VMSwitch`, with `Get-VMSwitchTeam` for SET switches.
    pub vswitches: Option<Vec<VSwitchFacts>>,
    /// `Get-VMNetworkAdapter -ManagementOS`.
    pub vnics: Option<Vec<VnicFacts>>,
    pub qos: QosFacts,
    /// `Get-SmbBandwidthLimit` (None: not collected; Some(empty): no limit).
    pub smb_limits: Option<Vec<SmbLimit>>,
    pub vmhost: Option<VmHostFacts>,
    /// `Get-VMMigrationNetwork`: subnets in preference order.
    pub migration_networks: Option<Vec<Sourced<String>>>,
    pub cluster_networks: Option<Vec<ClusterNetwork>>,
    pub cluster_interfaces: Option<Vec<ClusterInterface>>,
    /// `Get-NetIntent` (Network ATC): what the host should be.
    pub intents: Option<Vec<Intent>>,
    /// Cmdlets the collection lacks, or that failed on the host (with the
    /// error text when the collection recorded one).
    pub missing: Vec<(String, Option<String>)>,
    /// Cmdlets in the collection that netlint does not read (another
    /// script's, or a newer one's), with the line of their output: counted
    /// and listed like a config's lines not understood, never dropped
    /// silently.
    pub not_understood: Vec<(String, u32)>,
    pub remarks: Vec<Remark>,
}

/// Something seen but not mapped, or taken from a documented default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Remark {
    pub line: u32,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OsFacts {
    /// `Win32_OperatingSystem.Caption`.
    pub caption: String,
    /// `BuildNumber`.
    pub build: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PowerPlan {
    HighPerformance,
    Balanced,
    PowerSaver,
    /// A custom plan: its name.
    Other,
}

#[derive(Clone, Debug, Default)]
pub struct NicFacts {
    /// Line of the adapter's object in `Get-NetAdapter`.
    pub line: u32,
    pub name: String,
    /// `InterfaceDescription` (the driver's product name).
    pub description: Option<Sourced<String>>,
    pub mac: Option<Sourced<String>>,
    /// `Speed`, bits per second (`LinkSpeed` text when `Speed` is absent).
    pub speed: Option<Sourced<u64>>,
    pub status: Option<Sourced<String>>,
    /// `Get-NetAdapterHardwareInfo`: PCI slot number (`SlotNumber`) and bus.
    pub slot: Option<Sourced<u32>>,
    pub bus: Option<Sourced<u32>>,
    /// `*JumboPacket` advanced property (bytes, counting the 14-byte header).
    pub jumbo_packet: Option<Sourced<u32>>,
    /// `*NetworkDirect` advanced property.
    pub network_direct: Option<Sourced<bool>>,
    /// `*NetworkDirectTechnology`.
    pub rdma_tech: Option<Sourced<RdmaTech>>,
    /// `VlanID` advanced property.
    pub vlan: Option<Sourced<u16>>,
    /// `Get-NetAdapterRdma` `Enabled`.
    pub rdma_enabled: Option<Sourced<bool>>,
}

/// `*NetworkDirectTechnology`: 1 iWARP, 2 InfiniBand, 3 RoCE, 4 RoCEv2
/// (Microsoft, "Standardized INF Keywords for NDKPI").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RdmaTech {
    Iwarp,
    Infiniband,
    Roce,
    RoceV2,
}

/// LBFO `TeamingMode`: Static 0, SwitchIndependent 1, Lacp 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TeamingMode {
    Static,
    SwitchIndependent,
    Lacp,
}

/// `LoadBalancingAlgorithm` of LBFO (`MSFT_NetLbfoTeam`) and SET
/// (`VMSwitchLoadBalancingAlgorithm`): TransportPorts 0, IPAddresses 2,
/// MacAddresses 3, HyperVPort 4, Dynamic 5.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lba {
    TransportPorts,
    IpAddresses,
    MacAddresses,
    HyperVPort,
    Dynamic,
}

#[derive(Clone, Debug)]
pub struct LbfoTeam {
    pub line: u32,
    pub name: String,
    /// `Members` (adapter names).
    pub members: Sourced<Vec<String>>,
    pub mode: Option<Sourced<TeamingMode>>,
    pub lba: Option<Sourced<Lba>>,
    /// `Get-NetLbfoTeamMember` `AdministrativeMode` = Standby (1).
    pub standby: Option<Sourced<String>>,
}

/// VMSwitch `BandwidthReservationMode`: Default 0, Weight 1, Absolute 2,
/// None 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BandwidthMode {
    Default,
    Weight,
    Absolute,
    None,
}

#[derive(Clone, Debug)]
pub struct VSwitchFacts {
    pub line: u32,
    pub name: String,
    /// `SwitchType`: External 2 (Internal 1, Private 0 are left out).
    pub external: bool,
    /// `NetAdapterInterfaceDescription(s)` resolved to adapter names: the
    /// SET members or the one adapter (an LBFO team's multiplexor).
    pub uplinks: Sourced<Vec<String>>,
    /// `EmbeddedTeamingEnabled`.
    pub embedded_teaming: Option<Sourced<bool>>,
    /// SET load balancing from `Get-VMSwitchTeam`.
    pub lba: Option<Sourced<Lba>>,
    pub bandwidth_mode: Option<Sourced<BandwidthMode>>,
    /// `DefaultFlowMinimumBandwidthWeight`.
    pub default_flow_weight: Option<Sourced<u32>>,
}

#[derive(Clone, Debug)]
pub struct VnicFacts {
    pub line: u32,
    pub name: String,
    pub switch: Option<Sourced<String>>,
    /// `BandwidthSetting.MinimumBandwidthWeight`.
    pub weight: Option<Sourced<u32>>,
    /// The access VLAN in force (0 untagged): `Get-VMNetworkAdapterVlan`,
    /// or `Get-VMNetworkAdapterIsolation`'s `DefaultIsolationID` when its
    /// `IsolationMode` is `Vlan` (which wins when the two disagree).
    pub vlan: Option<Sourced<u16>>,
    /// `Get-VMNetworkAdapterTeamMapping`: the SET member it is pinned to.
    pub pinned: Option<Sourced<String>>,
    /// RDMA on its adapter ([`VnicFacts::adapter`]).
    pub rdma_enabled: Option<Sourced<bool>>,
    /// `*JumboPacket` of its adapter.
    pub jumbo_packet: Option<Sourced<u32>>,
    /// The name of its adapter in `Get-NetAdapter` / `-Rdma` /
    /// `-AdvancedProperty`: `vEthernet (NAME)`, or NAME itself for a
    /// Network ATC vNIC (`vSMB(storage#pNIC1)`); `None` when the
    /// collection names neither.
    pub adapter: Option<String>,
}

#[derive(Clone, Debug, Default)]
pub struct QosFacts {
    /// `Get-NetQosPolicy` (None: not collected).
    pub policies: Option<Vec<QosPolicy>>,
    /// `Get-NetQosFlowControl`: priorities with PFC on.
    pub pfc: Option<Sourced<Vec<u8>>>,
    /// `Get-NetQosTrafficClass`: ETS share per priority.
    pub ets: Option<Vec<Sourced<(u8, u32)>>>,
    /// `Get-NetQosDcbxSetting` `Willing`.
    pub willing: Option<Sourced<bool>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyMatch {
    SmbDirect,
    Smb,
    Cluster,
    LiveMigration,
    Iscsi,
    Default,
}

#[derive(Clone, Debug)]
pub struct QosPolicy {
    pub line: u32,
    pub name: String,
    pub matches: Option<PolicyMatch>,
    pub priority: Option<Sourced<u8>>,
}

/// `Get-SmbBandwidthLimit`: Category (Default 0, VirtualMachine 1,
/// LiveMigration 2) and BytesPerSecond.
#[derive(Clone, Debug)]
pub struct SmbLimit {
    pub line: u32,
    pub live_migration: bool,
    pub bytes_per_second: Sourced<u64>,
}

/// `VirtualMachineMigrationPerformanceOption`: TCPIP 0, Compression 1, SMB 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    Tcp,
    Compression,
    Smb,
}

#[derive(Clone, Debug, Default)]
pub struct VmHostFacts {
    pub line: u32,
    pub migration_enabled: Option<Sourced<bool>>,
    pub transport: Option<Sourced<Transport>>,
    pub simultaneous: Option<Sourced<u32>>,
    /// `UseAnyNetworkForMigration`.
    pub any_network: Option<Sourced<bool>>,
}

/// `Get-ClusterNetwork` Role: None 0, Cluster 1, Client 2,
/// ClusterAndClient 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClusterRole {
    None,
    Cluster,
    Client,
    ClusterAndClient,
}

#[derive(Clone, Debug)]
pub struct ClusterNetwork {
    pub line: u32,
    pub name: String,
    pub role: Option<Sourced<ClusterRole>>,
    /// `Address` / `AddressMask`: the subnet as `10.0.20.0/24`.
    pub subnet: Option<Sourced<String>>,
}

#[derive(Clone, Debug)]
pub struct ClusterInterface {
    pub line: u32,
    pub node: String,
    pub network: String,
    /// `Adapter`: the interface alias (`vEthernet (SMB1)`, `SLOT 3 Port 1`).
    pub adapter: String,
}

/// Network ATC intent types: the `IsComputeIntentSet`-style booleans, else
/// `Get-NetIntent` `IntentType` (flags Compute 2, Storage 4, Management
/// 8: a management + compute intent prints 10), else its names.
#[derive(Clone, Debug)]
pub struct Intent {
    pub line: u32,
    pub name: String,
    pub adapters: Vec<String>,
    pub management: bool,
    pub compute: bool,
    pub storage: bool,
    /// `AdapterAdvancedParametersOverride.JumboPacket` when set.
    pub jumbo_packet: Option<Sourced<u32>>,
}
