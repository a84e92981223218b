//! The words of the bandwidth model's facts: traffic classes, transports,
//! ports and balancers, the reason of every bound, the assumptions and
//! their sources, rates and durations. The model
//! (`netlint_analysis::bandwidth`) returns ids, numbers and enums only.

use crate::phrases::words::speed_text;
use netlint_analysis::bandwidth::{
    Assumption, Balancer, Bound, BoundKind, BoundReason, ClassModel, ClassNote, ClassTransport,
    Flows, Group, Known, PortUse, Spread, TrafficClass, ValidatorTerm,
    VALIDATOR_FLAT_MB_PER_ADAPTER, VALIDATOR_SMB_FACTOR,
};
use netlint_model::units::trim_float;
use netlint_model::{Design, Host, LoadBalancing, NicIdx, Speed, Via};

/// `1 Gb/s`, `2.5 Gb/s`, `100 Mb/s`.
pub fn fmt_rate(s: Speed) -> String {
    let b = s.bps() as f64;
    if b >= 1e9 {
        format!("{} Gb/s", trim_float(b / 1e9))
    } else if b >= 1e6 {
        format!("{} Mb/s", trim_float(b / 1e6))
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

/// `8 x 1G` or `` `X` 10G + `Y` 1G `` (`2 x speed unknown`, `` `Y` speed
/// unknown ``).
pub fn nics_text(host: &Host, nics: &[NicIdx]) -> String {
    let speeds: Vec<Option<Speed>> = nics.iter().map(|n| host.nic(*n).known_speed()).collect();
    match speeds.first() {
        None => "no adapter".to_string(),
        Some(first) if speeds.iter().all(|s| s == first) => {
            format!("{} x {}", nics.len(), speed_text(*first))
        }
        _ => nics
            .iter()
            .map(|n| format!("`{}` {}", host.nic(*n).name, nic_speed(host, *n)))
            .collect::<Vec<_>>()
            .join(" + "),
    }
}

/// A NIC's speed: "10G" or "speed unknown".
pub fn nic_speed(host: &Host, n: NicIdx) -> String {
    speed_text(host.nic(n).known_speed())
}

/// A figure with how much of it is known: "10 Gb/s", "at least 10 Gb/s"
/// (adapters of unknown speed counted as nothing), "unknown".
pub fn figure(speed: Speed, known: Known) -> String {
    match known {
        Known::Exact => fmt_rate(speed),
        Known::AtLeast => format!("at least {}", fmt_rate(speed)),
        Known::Unknown => "unknown".to_string(),
    }
}

/// A drain time with how much of it is known: "18m20s", "at most
/// 18m20s" (adapters of unknown speed counted as nothing), "unknown".
pub fn drain_text(seconds: f64, known: Known) -> String {
    match known {
        Known::Exact => fmt_seconds(seconds),
        Known::AtLeast => format!("at most {}", fmt_seconds(seconds)),
        Known::Unknown => "unknown".to_string(),
    }
}

/// A bound's own figure.
fn bound_figure(b: &Bound) -> String {
    figure(b.speed, b.known())
}

/// `` `A`, `B` ``.
fn names(host: &Host, nics: &[NicIdx]) -> String {
    nics.iter()
        .map(|n| format!("`{}`", host.nic(*n).name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// "live migration", "CSV / cluster", "SMB storage", ...
pub fn class_label(class: TrafficClass) -> &'static str {
    match class {
        TrafficClass::LiveMigration => "live migration",
        TrafficClass::Csv => "CSV / cluster",
        TrafficClass::SmbStorage => "SMB storage",
        TrafficClass::Iscsi => "iSCSI",
        TrafficClass::Vm => "VM",
        TrafficClass::Backup => "backup",
    }
}

/// "tcp", "smb", "multi-NIC vMotion", "MPIO", ...
pub fn transport_label(transport: ClassTransport) -> &'static str {
    match transport {
        ClassTransport::LmTcp => "tcp",
        ClassTransport::LmCompression => "compression",
        ClassTransport::Smb => "smb",
        ClassTransport::MultiNicVmotion => "multi-NIC vMotion",
        ClassTransport::Mpio => "MPIO",
        ClassTransport::Guests => "virtual switch",
        ClassTransport::Streams => "TCP streams",
    }
}

/// A port by its interface: "NIC `X520-5`", "team `T`", "vNIC `LM1` on
/// `Converged`" ("vmkernel port" on vSphere), "VMs on `vSwitch0`".
pub fn port_name(host: &Host, via: Via) -> String {
    match via {
        Via::Nic(n) => format!("NIC `{}`", host.nic(n).name),
        Via::Team(t) => format!("team `{}`", host.teams[t.0].name),
        Via::VNic(vi, k) => {
            let vs = &host.vswitches[vi.0];
            let what = if host.os.value.is_vsphere() {
                "vmkernel port"
            } else {
                "vNIC"
            };
            format!("{what} `{}` on `{}`", vs.vnics[k].name, vs.name)
        }
        Via::Guest(vi) => format!("VMs on `{}`", host.vswitches[vi.0].name),
    }
}

/// "team `BigTeam`", "SET switch `S`", "vSwitch `vSwitch0`".
pub fn balancer_name(host: &Host, b: &Balancer) -> String {
    match b.group {
        Group::Team(t) => format!("team `{}`", host.teams[t.0].name),
        Group::Switch(vi) => {
            let vs = &host.vswitches[vi.0];
            format!("{} `{}`", vs.kind_words(host.os.value), vs.name)
        }
    }
}

/// The load balancing in effect, or that the design does not state it.
fn lb_label(host: &Host, b: &Balancer) -> String {
    match b.effective_lb(host) {
        Some(lb) => lb.to_string(),
        None => "load balancing not stated".to_string(),
    }
}

/// How one port spreads its flows on one side, in words.
fn spread_text(host: &Host, p: &PortUse, receive: bool) -> String {
    let name = port_name(host, p.via);
    let who = if receive {
        "the receiving host takes "
    } else {
        ""
    };
    let b = match &p.balancer {
        Some(b) if p.active.len() > 1 || matches!(p.spread, Spread::Shared(_)) => b,
        _ => {
            return format!(
                "{who}{name} on {}",
                match p.active.as_slice() {
                    [n] => format!("`{}` ({})", host.nic(*n).name, nic_speed(host, *n)),
                    _ => names(host, &p.active),
                }
            )
        }
    };
    let lb = lb_label(host, b);
    let team = balancer_name(host, b);
    let pool = p.active.len();
    match p.spread {
        Spread::Shared(n) => {
            let why = if b.effective_lb(host) == Some(LoadBalancing::ExplicitFailover) {
                "explicit failover uses the first active uplink only"
            } else {
                "a switch-independent address-hash team receives on one member"
            };
            format!(
                "{who}{name} on one member of {team}, `{}` ({why})",
                host.nic(n).name
            )
        }
        Spread::OneMember if p.rdma => format!(
            "{who}{name} (SMB Direct) on the one adapter it is affinitized to, of {team} {}",
            nics_text(host, &p.active)
        ),
        Spread::OneMember if receive => format!(
            "{who}{name} on one member of {team} {} (a vNIC's inbound traffic arrives on one member; {lb})",
            nics_text(host, &p.active)
        ),
        Spread::OneMember => format!(
            "{name} is pinned to one member of {team} {} ({lb})",
            nics_text(host, &p.active)
        ),
        Spread::PerFlow => {
            let k = p.flows.cap(pool);
            let what = if receive && b.mode.switch_dependent() {
                format!("the switch spreads inbound flows ({})", b.mode)
            } else {
                lb
            };
            if k < pool {
                format!(
                    "{who}{name}: {} hash onto at most {k} of the {pool} members of {team} ({what})",
                    match p.flows {
                        Flows::One => "one connection".to_string(),
                        Flows::Count(n) => format!("{n} connections"),
                        Flows::Many => "the connections".to_string(),
                    },
                )
            } else {
                format!("{who}{name}: flows spread over all {pool} members of {team} ({what})")
            }
        }
    }
}

/// Where a bound's number comes from, with the names and numbers: "vNIC
/// `LM1` on `V` is pinned to one member of team `T` 4 x 10G (hyperv-port):
/// 1 x 10G = 10 Gb/s".
pub fn bound_text(host: &Host, b: &Bound) -> String {
    match &b.reason {
        BoundReason::Adapters => format!(
            "the adapters of its networks: {} ({}) = {}",
            names(host, &b.nics),
            nics_text(host, &b.nics),
            bound_figure(b)
        ),
        BoundReason::OneNetwork {
            transport,
            port,
            others,
        } => {
            let others: Vec<String> = others.iter().map(|v| port_name(host, *v)).collect();
            format!(
                "{} uses one network at a time: {} ({}){}",
                transport_label(*transport),
                port_name(host, *port),
                nics_text(host, &b.nics),
                match others.as_slice() {
                    [] => String::new(),
                    [one] => format!("; {one} takes over only when it fails"),
                    _ => format!(
                        "; the others ({}) take over only when it fails",
                        others.join(", ")
                    ),
                }
            )
        }
        BoundReason::OneFlow { port, migration } => format!(
            "{}: {} of {} ({})",
            if *migration {
                "one migration is one TCP connection, which stays on one adapter"
            } else {
                "one connection stays on one adapter"
            },
            port_name(host, *port),
            nics_text(host, &b.nics),
            nic_speed(host, b.nics[0])
        ),
        BoundReason::Usage(ports) => {
            let receive = b.kind == BoundKind::Receive;
            let parts: Vec<String> = ports
                .iter()
                .map(|p| spread_text(host, p, receive))
                .collect();
            format!(
                "{}: {} = {}",
                parts.join("; "),
                nics_text(host, &b.nics),
                bound_figure(b)
            )
        }
        BoundReason::SmbCap(limit) => format!(
            "smb_bandwidth_limit {} MB/s ({}) for all live migration of the host",
            trim_float(limit.ps_megabytes()),
            fmt_rate(b.speed)
        ),
    }
}

/// What the model takes to be true.
pub fn assumption_statement(a: Assumption) -> &'static str {
    match a {
        Assumption::LineRate => "figures are line rate: link speeds after teaming, transport and caps; protocol overhead, CPU and power settings are not deducted, so a drain time is a lower bound",
        Assumption::PeerAlike => "the receiving host is built like this one (cluster nodes are meant to be symmetric: `host-asymmetry` reports where they are not) and healthy",
        Assumption::OnePeer => "all simultaneous streams go to one peer, as they must in a two-node cluster: the worst case for the receiving side",
        Assumption::OneConnectionPerMigration => "a TCP or compression live migration moves memory over one TCP connection, which stays on one team member",
        Assumption::OneNetworkAtATime => "TCP and compression live migration use the first available network of `live_migration.networks`; the others are fallbacks",
        Assumption::HypervPortRoundRobin => "Hyper-V Port (and vSphere port-ID) load balancing puts each vNIC on one member, round robin: k unpinned vNICs use min(k, members) members (the best case)",
        Assumption::AddressHashReceive => "a switch-independent address-hash team receives everything on one member; switch-dependent (static, LACP) teams have the switch spread inbound flows",
        Assumption::DynamicSpreads => "dynamic load balancing spreads outbound flowlets over every member; on a team interface (no virtual switch) a switch-independent dynamic team also receives on every member, while a vNIC's inbound traffic stays on one member",
        Assumption::SetBalancingUnstated => "a SET switch without `load_balancing`: a vNIC's traffic is taken to stay on one member (true of its inbound traffic in either SET mode)",
        Assumption::SmbMultichannel => "SMB (live migration over SMB, CSV, SMB storage) uses every interface of its networks at once, several connections per RSS-capable interface; a host vNIC on Windows Server 2012 / 2012 R2 has no RSS and gets one connection",
        Assumption::SmbCap => "`smb_bandwidth_limit` (Set-SmbBandwidthLimit -Category LiveMigration) caps live migration over SMB, SMB Direct included, for the whole host",
        Assumption::CompressionNotCredited => "compression is not credited: it shortens migrations only with spare CPU, and cannot use SMB multichannel",
        Assumption::MultiNicVmotion => "vSphere 5 and later split one vMotion over every vMotion vmkernel port (multi-NIC vMotion)",
        Assumption::MpioOneSession => "iSCSI MPIO opens one session per interface, round robin across them",
        Assumption::DefaultSimultaneous => "`simultaneous` not given: the Hyper-V default of 2 simultaneous live migrations",
        Assumption::JumboGain => "live migration over standard 1500-byte frames is about 10-20 % slower than over jumbo frames: the drain time is given as a range",
        Assumption::GuestsSpread => "many VMs spread over every member of their virtual switch; one VM's vNIC stays on one member under port-based balancing",    }
}

/// Where an assumption comes from: the field notes it cites.
pub fn assumption_source(a: Assumption) -> &'static str {
    match a {
        Assumption::LineRate => "Aidan Finn, \"Testing SMB Live Migration on WS2012 R2 Hyper-V\": TCP live migration \"using around 9.8 Gbps\" of 10 GbE once jumbo frames and drivers were right; Didier Van Hoye: tuned 1G links \"use 99% instead of 75-80%\"",
        Assumption::PeerAlike => "the catalogue's `host-asymmetry`",
        Assumption::OnePeer => "Didier Van Hoye, \"Teamed NIC Live Migrations Between Two Hosts In Windows Server 2012 Do Use All Members\": \"with a 2 node cluster there is no possibility to Live Migrate to multiple nodes simultaneous\"",
        Assumption::OneConnectionPerMigration => "Didier Van Hoye, \"Teamed NIC Live Migrations Between Two Hosts ...\": \"one TCP/IP connection per Live Migration that is indeed tied to one NIC member\"; Marc van Eijk, \"NIC Teaming, Hyper-V switch, QoS and actual performance, part 4\": \"one TCP stream for transfer of virtual machine memory and state\"",
        Assumption::OneNetworkAtATime => "Didier Van Hoye, \"New Options For Optimizing Live Migrations\": \"You can select multiple NICs or even Teams of NICs but only one of those (one NIC or one Team) will be used\"; Marc van Eijk, part 4: ten simultaneous migrations over six LM networks \"resulted in only one team member being utilized\"",
        Assumption::HypervPortRoundRobin => "Marc van Eijk, part 4: \"Each live migration network will get its own port on the Hyper-V switch allowing for distribution of the individual live migration networks amongst the team members on a round-robin basis\"",
        Assumption::AddressHashReceive => "Didier Van Hoye, \"Teamed NIC Live Migrations ...\": \"the target server receives on only one ... In a switch independent scenario the receiving side limits the throughput\"",
        Assumption::DynamicSpreads => "Didier Van Hoye, \"Live Migration with compression over a switch-independent dynamic team\": \"with Dynamic load balancing we can now also use all member of a NIC team for live migration even in switch independent mode\"",
        Assumption::SetBalancingUnstated => "the design does not say; netlint does not guess the platform default",
        Assumption::SmbMultichannel => "Didier Van Hoye: \"SMB Multichannel will automatically detect and use multiple connections\", \"Multichannel defaults to 4\"; Marc van Eijk, part 2: \"SMB Multichannel will not function for the vNICs. A file copy initiated from a vNIC is single TCP stream\"",
        Assumption::SmbCap => "Didier Van Hoye, \"Set-SmbBandwidthLimit\": \"it even works to cap off Live Migration traffic over SMB that leverages RDMA (RoCE)\"; with 1250MB \"we max out at 10Gbps (2*5Gbps)\"",
        Assumption::CompressionNotCredited => "Didier Van Hoye: \"Compression basically slashes the live migration times in half at a cost. CPU cycles\"; \"you cannot combine compression with Multichannel\"",
        Assumption::MultiNicVmotion => "Michael Webster, \"vSphere 5 Multi-NIC vMotion\": \"load balance a single or multiple vMotion transmissions over multiple physical NIC's\"; 2 x 10G gave \"almost 18Gb/s\"",
        Assumption::MpioOneSession => "netlint's own reading (no published figure in the field notes)",
        Assumption::DefaultSimultaneous => "Hyper-V default of Set-VMHost -MaximumVirtualMachineMigrations; Didier Van Hoye's Windows Server 8 beta notes",
        Assumption::JumboGain => "Didier Van Hoye: \"Jumbo frames help out a lot (+/- 20 %)\", \"improves speeds (10% or more)\"; the catalogue's `jumbo-recommended`",
        Assumption::GuestsSpread => "Marc van Eijk, part 4 (Hyper-V Port distributes switch ports over members)",    }
}

/// One adapter's term of the validator's SMB limit: "`X` 25G: above 10G,
/// 750 MB/s", "`X` 10G: 50 % x 0.6 x 10G / 8 = 357 MB/s".
pub fn validator_term(host: &Host, share: f64, t: &ValidatorTerm) -> String {
    let (name, speed) = (&host.nic(t.nic).name, t.speed);
    if t.flat {
        format!("`{name}` {speed}: above 10G, {VALIDATOR_FLAT_MB_PER_ADAPTER} MB/s")
    } else {
        format!(
            "`{name}` {speed}: {} % x {VALIDATOR_SMB_FACTOR} x {speed} / 8 = {} MB/s",
            trim_float(share * 100.0),
            trim_float(t.mb_per_sec)
        )
    }
}

/// A class's note in words: "SMB Direct (roce-v2) on vNIC `SMB1` on `S`",
/// "network `lm2` has no interface on this host".
pub fn class_note(design: &Design, host: &Host, class: &ClassModel, note: &ClassNote) -> String {
    match note {
        ClassNote::SmbDirect { port, rdma } => {
            format!(
                "SMB Direct ({rdma}) on {}",
                port_name(host, class.ports[*port].via)
            )
        }
        ClassNote::NoInterface(net) => format!(
            "network `{}` has no interface on this host",
            design.network(*net).name
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use netlint_analysis::bandwidth::BandwidthModel;
    use netlint_analysis::Topology;
    use netlint_model::{load, HostId, SourceFile};

    /// A 4 x 10G hyperv-port team under a virtual switch with two
    /// live-migration vNICs (TCP, 4 simultaneous).
    const PINNED: &str = r#"
[design]
name = "t"
platform = "windows-server-2016"
[networks.lm1]
role = "live-migration"
vlan = 31
[networks.lm2]
role = "live-migration"
vlan = 32
[switches.sw]
[profiles.p]
memory_gb = 256
[profiles.p.nics.A]
speed = "10G"
switch = "sw"
[profiles.p.nics.B]
speed = "10G"
switch = "sw"
[profiles.p.nics.C]
speed = "10G"
switch = "sw"
[profiles.p.nics.D]
speed = "10G"
switch = "sw"
[profiles.p.teams.T]
members = ["A", "B", "C", "D"]
mode = "switch-independent"
load_balancing = "hyperv-port"
[profiles.p.vswitches.V]
uplinks = ["T"]
[profiles.p.vswitches.V.vnics.LM1]
network = "lm1"
[profiles.p.vswitches.V.vnics.LM2]
network = "lm2"
[profiles.p.live_migration]
transport = "TRANSPORT"
networks = ["lm1", "lm2"]
simultaneous = 4
[hosts.h1]
profile = "p"
"#;

    fn texts(src: &str, kind: BoundKind) -> String {
        let l = load(&SourceFile::new("t.toml", src));
        assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
        let d = l.design.unwrap();
        let m = BandwidthModel::build(&d, &Topology::build(&d));
        let lm = m
            .host(HostId(0))
            .class(TrafficClass::LiveMigration)
            .unwrap();
        bound_text(d.host(HostId(0)), lm.healthy.aggregate.bound(kind).unwrap())
    }

    #[test]
    fn every_kind_of_bound_is_worded_with_its_names_and_numbers() {
        let tcp = PINNED.replace("TRANSPORT", "tcp");
        assert_eq!(
            texts(&tcp, BoundKind::Adapters),
            "the adapters of its networks: `A`, `B`, `C`, `D` (4 x 10G) = 40 Gb/s"
        );
        assert_eq!(
            texts(&tcp, BoundKind::OneNetwork),
            "tcp uses one network at a time: vNIC `LM1` on `V` (4 x 10G); vNIC `LM2` on `V` takes over only when it fails"
        );
        assert_eq!(
            texts(&tcp, BoundKind::Send),
            "vNIC `LM1` on `V` is pinned to one member of team `T` 4 x 10G (hyperv-port): 1 x 10G = 10 Gb/s"
        );
        assert_eq!(
            texts(&tcp, BoundKind::Receive),
            "the receiving host takes vNIC `LM1` on `V` on one member of team `T` 4 x 10G (a vNIC's inbound traffic arrives on one member; hyperv-port): 1 x 10G = 10 Gb/s"
        );
        let smb = PINNED.replace("TRANSPORT", "smb").replace(
            "simultaneous = 4",
            "simultaneous = 4\nsmb_bandwidth_limit = \"500MB\"",
        );
        assert_eq!(
            texts(&smb, BoundKind::SmbCap),
            "smb_bandwidth_limit 500 MB/s (4.19 Gb/s) for all live migration of the host"
        );
    }

    #[test]
    fn one_migration_is_one_connection_in_words() {
        let l = load(&SourceFile::new(
            "t.toml",
            PINNED.replace("TRANSPORT", "tcp"),
        ));
        let d = l.design.unwrap();
        let m = BandwidthModel::build(&d, &Topology::build(&d));
        let lm = m
            .host(HostId(0))
            .class(TrafficClass::LiveMigration)
            .unwrap();
        let host = d.host(HostId(0));
        assert_eq!(
            bound_text(host, &lm.healthy.per_stream.bounds[0]),
            "one connection stays on one adapter: vNIC `LM1` on `V` of 4 x 10G (10G)"
        );
        assert_eq!(
            bound_text(host, &lm.healthy.per_migration.as_ref().unwrap().bounds[0]),
            "one migration is one TCP connection, which stays on one adapter: vNIC `LM1` on `V` of 4 x 10G (10G)"
        );
        assert_eq!(port_name(host, lm.ports[1].via), "vNIC `LM2` on `V`");
        let b = lm.ports[0].balancer.as_ref().unwrap();
        assert_eq!(balancer_name(host, b), "team `T`");
    }

    #[test]
    fn every_assumption_has_a_statement_and_a_source() {
        for a in Assumption::ALL {
            assert!(assumption_statement(a).len() > 20, "{a:?}");
            assert!(assumption_source(a).len() > 20, "{a:?}");
        }
        assert!(assumption_statement(Assumption::DefaultSimultaneous).contains("default of 2"));
    }

    #[test]
    fn rates_and_durations_format_plainly() {
        assert_eq!(fmt_rate(Speed::from_gbps(1)), "1 Gb/s");
        assert_eq!(fmt_rate(Speed::from_mbps(2500)), "2.5 Gb/s");
        assert_eq!(fmt_rate(Speed::from_mbps(100)), "100 Mb/s");
        assert_eq!(fmt_seconds(1099.5), "18m20s");
        assert_eq!(fmt_seconds(f64::INFINITY), "never");
        assert_eq!(class_label(TrafficClass::Csv), "CSV / cluster");
        assert_eq!(
            transport_label(ClassTransport::MultiNicVmotion),
            "multi-NIC vMotion"
        );
    }

    #[test]
    fn unknown_speeds_are_worded_never_guessed() {
        let one_unknown = PINNED
            .replace("TRANSPORT", "smb")
            .replacen("speed = \"10G\"\n", "", 1);
        assert_eq!(
            texts(&one_unknown, BoundKind::Adapters),
            "the adapters of its networks: `A`, `B`, `C`, `D` (`A` speed unknown + `B` 10G + `C` 10G + `D` 10G) = at least 30 Gb/s"
        );
        let none = PINNED
            .replace("TRANSPORT", "tcp")
            .replace("speed = \"10G\"\n", "");
        assert_eq!(
            texts(&none, BoundKind::Send),
            "vNIC `LM1` on `V` is pinned to one member of team `T` 4 x speed unknown (hyperv-port): 1 x speed unknown = unknown"
        );
        assert_eq!(
            figure(Speed::from_gbps(10), Known::AtLeast),
            "at least 10 Gb/s"
        );
        assert_eq!(drain_text(1100.0, Known::AtLeast), "at most 18m20s");
        assert_eq!(drain_text(f64::INFINITY, Known::Unknown), "unknown");
    }
}
