//! Hand-computed expectations for the bandwidth model: every teaming mode x
//! load balancing x live-migration transport, on a team interface and on
//! vNICs, plus SMB Direct, caps, single NICs, vSphere, failures and drain
//! times.

use super::*;
use netlint_model::{load, SourceFile};

fn design(src: &str) -> Design {
    let l = load(&SourceFile::new("t.toml", src));
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    l.design.unwrap()
}

fn model(src: &str) -> (Design, BandwidthModel) {
    let d = design(src);
    let t = Topology::build(&d);
    let m = BandwidthModel::build(&d, &t);
    (d, m)
}

/// Whole seconds, as a drain time is shown.
fn secs(s: f64) -> u64 {
    s.round() as u64
}

fn g(n: u64) -> Speed {
    Speed::from_gbps(n)
}

const TEAM: &str = r#"
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
stack = "s"
[switches.sw2]
stack = "s"
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
switch = "sw2"
[profiles.p.nics.D]
speed = "10G"
switch = "sw2"
[profiles.p.teams.T]
members = ["A", "B", "C", "D"]
mode = "MODE"
load_balancing = "LB"
PLACEMENT
[profiles.p.live_migration]
transport = "TRANSPORT"
networks = ["lm1", "lm2"]
simultaneous = 4
[hosts.h1]
profile = "p"
[hosts.h2]
profile = "p"
"#;

const ON_TEAM: &str = "networks = [\"lm1\", \"lm2\"]";
const ON_VNICS: &str = r#"[profiles.p.vswitches.V]
uplinks = ["T"]
[profiles.p.vswitches.V.vnics.LM1]
network = "lm1"
[profiles.p.vswitches.V.vnics.LM2]
network = "lm2""#;

fn team_case(mode: &str, lb: &str, transport: &str, vnics: bool) -> (Speed, Speed, Speed) {
    let src = TEAM
        .replace("MODE", mode)
        .replace("LB", lb)
        .replace("TRANSPORT", transport)
        .replace("PLACEMENT", if vnics { ON_VNICS } else { ON_TEAM });
    let (_, m) = model(&src);
    let lm = m.hosts[0].class(TrafficClass::LiveMigration).unwrap();
    (
        lm.healthy.per_stream.speed(),
        lm.healthy.per_migration.as_ref().unwrap().speed(),
        lm.healthy.aggregate.speed(),
    )
}

/// (mode, load balancing, transport, per migration, all migrations) in
/// Gb/s, on a team interface of 4 x 10G, four simultaneous migrations.
///
/// Send: hyperv-port keeps the team interface on one member; address hash
/// and dynamic hash the 4 connections onto 4 members (TCP), or SMB's many
/// connections onto all of them. Receive: switch-dependent teams get every
/// member from the switch; switch-independent address hash receives on one
/// member; hyperv-port on the member it sends from; dynamic on a team
/// interface on every member.
const TEAM_INTERFACE: &[(&str, &str, &str, u64, u64)] = &[
    ("switch-independent", "hyperv-port", "tcp", 10, 10),
    ("switch-independent", "hyperv-port", "compression", 10, 10),
    ("switch-independent", "hyperv-port", "smb", 10, 10),
    ("switch-independent", "address-hash", "tcp", 10, 10),
    ("switch-independent", "address-hash", "compression", 10, 10),
    ("switch-independent", "address-hash", "smb", 10, 10),
    ("switch-independent", "dynamic", "tcp", 10, 40),
    ("switch-independent", "dynamic", "compression", 10, 40),
    ("switch-independent", "dynamic", "smb", 40, 40),
    ("static", "hyperv-port", "tcp", 10, 10),
    ("static", "hyperv-port", "compression", 10, 10),
    ("static", "hyperv-port", "smb", 10, 10),
    ("static", "address-hash", "tcp", 10, 40),
    ("static", "address-hash", "compression", 10, 40),
    ("static", "address-hash", "smb", 40, 40),
    ("static", "dynamic", "tcp", 10, 40),
    ("static", "dynamic", "compression", 10, 40),
    ("static", "dynamic", "smb", 40, 40),
    ("lacp", "hyperv-port", "tcp", 10, 10),
    ("lacp", "hyperv-port", "compression", 10, 10),
    ("lacp", "hyperv-port", "smb", 10, 10),
    ("lacp", "address-hash", "tcp", 10, 40),
    ("lacp", "address-hash", "compression", 10, 40),
    ("lacp", "address-hash", "smb", 40, 40),
    ("lacp", "dynamic", "tcp", 10, 40),
    ("lacp", "dynamic", "compression", 10, 40),
    ("lacp", "dynamic", "smb", 40, 40),
];

/// The same on two vNICs (LM1, LM2) of a virtual switch over the team.
/// Send: hyperv-port pins each vNIC to one member (two vNICs: two members
/// for SMB, one for TCP, which uses LM1 only); address hash and dynamic
/// spread. Receive: a vNIC's inbound traffic stays on one member unless
/// the switch spreads it (static, LACP); switch-independent address hash
/// receives on one member for the whole team.
const VNICS: &[(&str, &str, &str, u64, u64)] = &[
    ("switch-independent", "hyperv-port", "tcp", 10, 10),
    ("switch-independent", "hyperv-port", "compression", 10, 10),
    ("switch-independent", "hyperv-port", "smb", 20, 20),
    ("switch-independent", "address-hash", "tcp", 10, 10),
    ("switch-independent", "address-hash", "compression", 10, 10),
    ("switch-independent", "address-hash", "smb", 10, 10),
    ("switch-independent", "dynamic", "tcp", 10, 10),
    ("switch-independent", "dynamic", "compression", 10, 10),
    ("switch-independent", "dynamic", "smb", 20, 20),
    ("static", "hyperv-port", "tcp", 10, 10),
    ("static", "hyperv-port", "compression", 10, 10),
    ("static", "hyperv-port", "smb", 20, 20),
    ("static", "address-hash", "tcp", 10, 40),
    ("static", "address-hash", "compression", 10, 40),
    ("static", "address-hash", "smb", 40, 40),
    ("static", "dynamic", "tcp", 10, 40),
    ("static", "dynamic", "compression", 10, 40),
    ("static", "dynamic", "smb", 40, 40),
    ("lacp", "hyperv-port", "tcp", 10, 10),
    ("lacp", "hyperv-port", "compression", 10, 10),
    ("lacp", "hyperv-port", "smb", 20, 20),
    ("lacp", "address-hash", "tcp", 10, 40),
    ("lacp", "address-hash", "compression", 10, 40),
    ("lacp", "address-hash", "smb", 40, 40),
    ("lacp", "dynamic", "tcp", 10, 40),
    ("lacp", "dynamic", "compression", 10, 40),
    ("lacp", "dynamic", "smb", 40, 40),
];

#[test]
fn every_mode_balancing_and_transport_on_a_team_interface() {
    for (mode, lb, transport, per_migration, all) in TEAM_INTERFACE {
        let got = team_case(mode, lb, transport, false);
        assert_eq!(
            got,
            (g(10), g(*per_migration), g(*all)),
            "team interface {mode} / {lb} / {transport}"
        );
    }
}

#[test]
fn every_mode_balancing_and_transport_on_vnics() {
    for (mode, lb, transport, per_migration, all) in VNICS {
        let got = team_case(mode, lb, transport, true);
        assert_eq!(
            got,
            (g(10), g(*per_migration), g(*all)),
            "vNICs {mode} / {lb} / {transport}"
        );
    }
}

#[test]
fn fewer_simultaneous_migrations_than_members_use_fewer_members() {
    let src = TEAM
        .replace("MODE", "lacp")
        .replace("LB", "address-hash")
        .replace("TRANSPORT", "tcp")
        .replace("PLACEMENT", ON_TEAM)
        .replace("simultaneous = 4", "simultaneous = 3");
    let (_, m) = model(&src);
    let lm = m.hosts[0].class(TrafficClass::LiveMigration).unwrap();
    assert_eq!(lm.healthy.aggregate.speed(), g(30));
    let send = lm.healthy.aggregate.bound(BoundKind::Send).unwrap();
    // One team interface, three connections hashed onto three members.
    match &send.reason {
        BoundReason::Usage(uses) => {
            assert_eq!(uses.len(), 1);
            assert_eq!(uses[0].flows, Flows::Count(3));
            assert_eq!(uses[0].spread, Spread::PerFlow);
            assert_eq!(
                (
                    uses[0].flows.cap(uses[0].active.len()),
                    uses[0].active.len()
                ),
                (3, 4)
            );
        }
        r => panic!("{r:?}"),
    }
    assert_eq!(send.nics.len(), 3);
}

#[test]
fn default_simultaneous_is_two_and_labelled() {
    let src = TEAM
        .replace("MODE", "lacp")
        .replace("LB", "dynamic")
        .replace("TRANSPORT", "tcp")
        .replace("PLACEMENT", ON_TEAM)
        .replace("simultaneous = 4\n", "");
    let (_, m) = model(&src);
    let lm = m.hosts[0].class(TrafficClass::LiveMigration).unwrap();
    assert_eq!(lm.simultaneous, Some((2, true)));
    assert_eq!(lm.healthy.aggregate.speed(), g(20));
    assert!(lm.assumptions.contains(&Assumption::DefaultSimultaneous));
}

#[test]
fn hyperv_port_pin_cap_is_reported_with_numbers() {
    let src = TEAM
        .replace("MODE", "switch-independent")
        .replace("LB", "hyperv-port")
        .replace("TRANSPORT", "tcp")
        .replace("PLACEMENT", ON_VNICS);
    let (d, m) = model(&src);
    let lm = m.hosts[0].class(TrafficClass::LiveMigration).unwrap();
    assert_eq!(lm.pin_caps.len(), 1);
    let pc = &lm.pin_caps[0];
    assert_eq!((pc.members_used, pc.cap, pc.team_total), (1, g(10), g(40)));
    let b = lm.healthy.aggregate.bottleneck().unwrap();
    assert_eq!(b.kind, BoundKind::Send);
    // vNIC LM1 pinned to one member of the four of team T.
    match &b.reason {
        BoundReason::Usage(uses) => {
            assert_eq!(uses.len(), 1);
            assert_eq!(uses[0].via, Via::VNic(VSwitchIdx(0), 0));
            assert_eq!(uses[0].spread, Spread::OneMember);
            assert_eq!(uses[0].active.len(), 4);
            assert_eq!(
                uses[0].balancer.as_ref().map(|b| b.group),
                Some(Group::Team(TeamIdx(0)))
            );
        }
        r => panic!("{r:?}"),
    }
    let one = lm.healthy.aggregate.bound(BoundKind::OneNetwork).unwrap();
    assert_eq!(
        one.reason,
        BoundReason::OneNetwork {
            transport: ClassTransport::LmTcp,
            port: Via::VNic(VSwitchIdx(0), 0),
            others: vec![Via::VNic(VSwitchIdx(0), 1)],
        }
    );
    // SMB over the same two vNICs: two members of four.
    let smb = src.replace("transport = \"tcp\"", "transport = \"smb\"");
    let (_, m) = model(&smb);
    let lm = m.hosts[0].class(TrafficClass::LiveMigration).unwrap();
    assert_eq!(lm.pin_caps[0].cap, g(20));
    let _ = d;
}

const SET: &str = r#"
[design]
name = "t"
platform = "windows-server-2019"
[networks.smb1]
role = "storage"
protocol = "smb"
vlan = 711
[networks.smb2]
role = "storage"
protocol = "smb"
vlan = 712
[switches.a]
mlag = "m"
[switches.b]
mlag = "m"
[profiles.p]
memory_gb = 768
[profiles.p.nics.N1]
speed = "25G"
switch = "a"
rdma = "roce-v2"
mtu = 9000
[profiles.p.nics.N2]
speed = "25G"
switch = "b"
rdma = "roce-v2"
mtu = 9000
[profiles.p.vswitches.S]
uplinks = ["N1", "N2"]
load_balancing = "hyperv-port"
[profiles.p.vswitches.S.vnics.SMB1]
network = "smb1"
mtu = 9000
rdma = true
active_uplinks = ["N1"]
[profiles.p.vswitches.S.vnics.SMB2]
network = "smb2"
mtu = 9000
rdma = true
active_uplinks = ["N2"]
[profiles.p.live_migration]
transport = "smb"
networks = ["smb1", "smb2"]
simultaneous = 2
CAP
[hosts.h1]
profile = "p"
[hosts.h2]
profile = "p"
"#;

#[test]
fn smb_direct_on_pinned_rdma_vnics_uses_both_adapters_and_fails_over() {
    let (d, m) = model(&SET.replace("CAP", ""));
    let h = &m.hosts[0];
    let lm = h.class(TrafficClass::LiveMigration).unwrap();
    assert_eq!(lm.transport, ClassTransport::Smb);
    assert_eq!(lm.ports[0].rdma, Some(Rdma::RoceV2));
    assert_eq!(lm.healthy.per_stream.speed(), g(25));
    assert_eq!(lm.healthy.per_migration.as_ref().unwrap().speed(), g(50));
    assert_eq!(lm.healthy.aggregate.speed(), g(50));
    assert!(
        lm.pin_caps.is_empty(),
        "two vNICs on two members: not capped"
    );
    let deg = lm.degraded.as_ref().unwrap();
    assert_eq!(d.host(HostId(0)).nic(deg.lost).name, "N1");
    assert_eq!(deg.figures.aggregate.speed(), g(25));
    assert!(deg.down.is_empty(), "SMB1 fails over to N2");
    assert!(
        lm.notes.iter().any(|n| matches!(
            n,
            ClassNote::SmbDirect { port, rdma: Rdma::RoceV2 }
                if matches!(lm.ports[*port].via, Via::VNic(_, 0))
        )),
        "{:?}",
        lm.notes
    );
    // Storage sees the same adapters.
    let st = h.class(TrafficClass::SmbStorage).unwrap();
    assert_eq!(st.healthy.aggregate.speed(), g(50));
    // 768 GiB at 50 Gb/s, jumbo frames: no range.
    let drain = h.drain.as_ref().unwrap();
    assert!((drain.healthy.seconds - 768.0 * BYTES_PER_GIB * 8.0 / 50e9).abs() < 1e-6);
    assert_eq!(secs(drain.healthy.seconds), 2 * 60 + 12);
    assert!(drain.healthy.standard_frames.is_none());
    assert_eq!(secs(drain.worst().seconds), 4 * 60 + 24);
}

#[test]
fn the_smb_cap_bounds_live_migration_only() {
    let (_, m) = model(&SET.replace("CAP", "smb_bandwidth_limit = \"1250MB\""));
    let h = &m.hosts[0];
    let lm = h.class(TrafficClass::LiveMigration).unwrap();
    // 1250 x 1,048,576 x 8 = 10,485,760,000 b/s
    let cap = Speed::from_bps(10_485_760_000);
    assert_eq!(lm.healthy.aggregate.speed(), cap);
    assert_eq!(lm.healthy.per_stream.speed(), cap);
    assert_eq!(
        lm.healthy.aggregate.bottleneck().unwrap().kind,
        BoundKind::SmbCap
    );
    // Losing N1 leaves 25G of adapters: still above the cap.
    let deg = lm.degraded.as_ref().unwrap();
    assert_eq!(deg.figures.aggregate.speed(), cap);
    assert_eq!(
        deg.figures.aggregate.speed_without(BoundKind::SmbCap),
        g(25)
    );
    let st = h.class(TrafficClass::SmbStorage).unwrap();
    assert_eq!(st.healthy.aggregate.speed(), g(50));
    assert!(lm.assumptions.contains(&Assumption::SmbCap));
}

#[test]
fn validator_limit_follows_the_published_formula() {
    let (d, _) = model(&SET.replace("CAP", ""));
    let h = d.host(HostId(0));
    // Above 10G: 750 MB per adapter.
    let (b, lines) = validator_limit(h, &[NicIdx(0), NicIdx(1)], 0.5).unwrap();
    assert_eq!(b.ps_megabytes(), 1500.0);
    assert!(lines[0].flat);
    assert_eq!(lines[0].mb_per_sec, 750.0);
    // 10G at a 50 % share: 0.5 x 0.6 x 1.25e9 = 375e6 B/s = 357 MB (floored).
    let ten = d.clone();
    let mut ten = ten;
    ten.hosts[0].nics[0].speed.as_mut().unwrap().value = g(10);
    let (b, lines) = validator_limit(&ten.hosts[0], &[NicIdx(0)], 0.5).unwrap();
    assert_eq!(b.ps_megabytes(), 357.0);
    assert!(!lines[0].flat);
    assert_eq!((lines[0].speed, lines[0].mb_per_sec), (g(10), 357.0));
}

const NICS: &str = r#"
[design]
name = "t"
platform = "windows-server-2012r2"
[networks.csv]
role = "csv"
vlan = 20
[networks.lm]
role = "live-migration"
vlan = 30
[switches.a]
[switches.b]
[profiles.p]
memory_gb = 128
[profiles.p.nics.X1]
speed = "10G"
switch = "a"
MTU
networks = ["csv"]
[profiles.p.nics.X2]
speed = "10G"
switch = "b"
MTU
networks = ["lm"]
[profiles.p.live_migration]
transport = "TRANSPORT"
networks = ["lm", "csv"]
[hosts.h1]
profile = "p"
[hosts.h2]
profile = "p"
"#;

#[test]
fn single_nics_tcp_uses_one_compression_one_smb_both() {
    let nics = |t: &str| NICS.replace("TRANSPORT", t).replace("MTU", "mtu = 9000");
    for (t, per_migration, all) in [("tcp", 10, 10), ("compression", 10, 10), ("smb", 20, 20)] {
        let (_, m) = model(&nics(t));
        let lm = m.hosts[0].class(TrafficClass::LiveMigration).unwrap();
        assert_eq!(
            (
                lm.healthy.per_migration.as_ref().unwrap().speed(),
                lm.healthy.aggregate.speed()
            ),
            (g(per_migration), g(all)),
            "{t}"
        );
    }
    // TCP: losing the LM NIC moves migration to the CSV NIC: no change.
    let (_, m) = model(&nics("tcp"));
    let lm = m.hosts[0].class(TrafficClass::LiveMigration).unwrap();
    assert!(lm.degraded.is_none());
    assert_eq!(
        lm.healthy.aggregate.bottleneck().unwrap().kind,
        BoundKind::OneNetwork
    );
    // SMB: losing either NIC halves it.
    let (_, m) = model(&nics("smb"));
    let lm = m.hosts[0].class(TrafficClass::LiveMigration).unwrap();
    assert_eq!(
        lm.degraded.as_ref().unwrap().figures.aggregate.speed(),
        g(10)
    );
    assert_eq!(lm.degraded.as_ref().unwrap().down, vec![0]);
}

#[test]
fn drain_time_with_standard_frames_is_a_labelled_range() {
    let (_, m) = model(&NICS.replace("TRANSPORT", "tcp").replace("MTU\n", ""));
    let h = &m.hosts[0];
    let drain = h.drain.as_ref().unwrap();
    // 128 GiB = 137,438,953,472 bytes x 8 / 10e9 = 109.95 s
    assert_eq!(secs(drain.healthy.seconds), 60 + 50);
    let (lo, hi) = drain.healthy.standard_frames.unwrap();
    assert_eq!((secs(lo), secs(hi)), (2 * 60 + 1, 2 * 60 + 12));
    let lm = h.class(TrafficClass::LiveMigration).unwrap();
    assert!(lm.assumptions.contains(&Assumption::JumboGain));
}

#[test]
fn lbfo_standby_takes_over_and_address_hash_receives_on_one() {
    let src = r#"
[design]
name = "t"
platform = "windows-server-2016"
[networks.csv]
role = "csv"
vlan = 20
[switches.a]
[hosts.h.nics.A]
speed = "1G"
switch = "a"
[hosts.h.nics.B]
speed = "1G"
switch = "a"
[hosts.h.nics.C]
speed = "1G"
switch = "a"
[hosts.h.teams.T]
members = ["A", "B", "C"]
standby = "C"
mode = "switch-independent"
load_balancing = "address-hash"
networks = ["csv"]
"#;
    let (_, m) = model(src);
    let csv = m.hosts[0].class(TrafficClass::Csv).unwrap();
    // Sends on A and B, the peer receives on one member.
    assert_eq!(
        csv.healthy.aggregate.bound(BoundKind::Send).unwrap().speed,
        g(2)
    );
    assert_eq!(csv.healthy.aggregate.speed(), g(1));
    assert_eq!(
        csv.healthy.aggregate.bottleneck().unwrap().kind,
        BoundKind::Receive
    );
    // Losing A: C joins, still 1G received.
    assert!(csv.degraded.is_none());
    let p = csv.ports[0].without(NicIdx(0)).unwrap();
    assert_eq!(p.active, vec![NicIdx(1), NicIdx(2)]);
    assert_eq!(p.rx, Spread::Shared(NicIdx(1)));
}

#[test]
fn vsphere_multi_nic_vmotion_spreads_one_vmotion() {
    let src = r#"
[design]
name = "t"
platform = "vsphere-6"
[networks.vmotion]
role = "live-migration"
vlan = 50
[switches.a]
[profiles.p]
memory_gb = 512
[profiles.p.nics.vmnic0]
speed = "10G"
switch = "a"
[profiles.p.nics.vmnic1]
speed = "10G"
switch = "a"
[profiles.p.vswitches.vSwitch1]
uplinks = ["vmnic0", "vmnic1"]
[profiles.p.vswitches.vSwitch1.vnics.vmk1]
network = "vmotion"
active_uplinks = ["vmnic0"]
standby_uplinks = ["vmnic1"]
[profiles.p.vswitches.vSwitch1.vnics.vmk2]
network = "vmotion"
active_uplinks = ["vmnic1"]
standby_uplinks = ["vmnic0"]
[profiles.p.live_migration]
transport = "tcp"
networks = ["vmotion"]
[hosts.esx1]
profile = "p"
[hosts.esx2]
profile = "p"
"#;
    let (_, m) = model(src);
    let lm = m.hosts[0].class(TrafficClass::LiveMigration).unwrap();
    assert_eq!(lm.transport, ClassTransport::MultiNicVmotion);
    assert_eq!(lm.healthy.per_migration.as_ref().unwrap().speed(), g(20));
    assert_eq!(
        lm.degraded.as_ref().unwrap().figures.aggregate.speed(),
        g(10)
    );
    assert!(lm.assumptions.contains(&Assumption::MultiNicVmotion));
}

#[test]
fn iscsi_mpio_and_vms() {
    let src = r#"
[design]
name = "t"
platform = "windows-server-2019"
[networks.iscsi-a]
role = "storage"
protocol = "iscsi"
vlan = 60
[networks.iscsi-b]
role = "storage"
protocol = "iscsi"
vlan = 61
[networks.vm]
role = "vm"
vlan = 100
[switches.a]
[hosts.h.nics.I1]
speed = "10G"
switch = "a"
networks = ["iscsi-a"]
[hosts.h.nics.I2]
speed = "10G"
switch = "a"
networks = ["iscsi-b"]
[hosts.h.nics.V1]
speed = "25G"
switch = "a"
[hosts.h.nics.V2]
speed = "25G"
switch = "a"
[hosts.h.vswitches.S]
uplinks = ["V1", "V2"]
load_balancing = "hyperv-port"
networks = ["vm"]
"#;
    let (_, m) = model(src);
    let h = &m.hosts[0];
    let iscsi = h.class(TrafficClass::Iscsi).unwrap();
    assert_eq!(iscsi.healthy.per_stream.speed(), g(10));
    assert_eq!(iscsi.healthy.aggregate.speed(), g(20));
    assert_eq!(
        iscsi.degraded.as_ref().unwrap().figures.aggregate.speed(),
        g(10)
    );
    let vm = h.class(TrafficClass::Vm).unwrap();
    assert_eq!(vm.healthy.per_stream.speed(), g(25));
    assert_eq!(vm.healthy.aggregate.speed(), g(50));
    assert!(h.class(TrafficClass::LiveMigration).is_none());
    assert!(h.drain.is_none());
}

#[test]
fn eight_by_one_g_live_migration_is_one_gigabit() {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/reference/eight-by-1g.toml"
    ))
    .expect("the reference design tests/data/reference/eight-by-1g.toml");
    let (d, m) = model(&src);
    let h = &m.hosts[0];
    let lm = h.class(TrafficClass::LiveMigration).unwrap();
    assert_eq!(lm.healthy.aggregate.speed(), g(1));
    assert_eq!(lm.healthy.per_migration.as_ref().unwrap().speed(), g(1));
    assert_eq!(lm.pin_caps[0].team_total, g(8));
    let drain = h.drain.as_ref().unwrap();
    // 128 GiB x 8 / 1 Gb/s = 1099.5 s
    assert_eq!(secs(drain.healthy.seconds), 18 * 60 + 20);
    assert_eq!(d.host(HostId(0)).name, "hv1");
}

#[test]
fn losing_the_only_adapter_strands_the_class() {
    let src = NICS
        .replace("TRANSPORT", "tcp")
        .replace("MTU\n", "")
        .replace("networks = [\"lm\", \"csv\"]", "networks = [\"lm\"]");
    let (_, m) = model(&src);
    let h = &m.hosts[0];
    let lm = h.class(TrafficClass::LiveMigration).unwrap();
    assert_eq!(lm.stranded, vec![NicIdx(1)]);
    assert!(lm.degraded.is_none());
    // The drain estimate stays the healthy one (no finite worse case).
    assert!(h.drain.as_ref().unwrap().degraded.is_none());
    assert!(drain_seconds(128.0, Speed::default()).is_infinite());
}

/// A port with no active adapter carries nothing (the reachability
/// analysis, `Forwarding::working`, takes the same view), so the model
/// leaves it out instead of indexing its first adapter. Three designs the
/// fuzzing campaign of issue 17 found panicking.
const NO_ACTIVE: &str = r#"
[design]
name = "t"
platform = "PLATFORM"
[networks.mgmt]
role = "management"
vlan = 10
[networks.lm]
role = "live-migration"
vlan = 50
[switches.a]
[profiles.p]
memory_gb = 512
[profiles.p.nics.n0]
speed = "10G"
switch = "a"
[profiles.p.nics.n1]
speed = "10G"
switch = "a"
UPLINKS
[profiles.p.vswitches.V.vnics.m]
network = "mgmt"
[profiles.p.vswitches.V.vnics.l]
network = "lm"
PIN
[profiles.p.live_migration]
transport = "tcp"
networks = ["lm"]
[hosts.h1]
profile = "p"
[hosts.h2]
profile = "p"
"#;

fn no_active(platform: &str, uplinks: &str, pin: &str) -> Design {
    design(
        &NO_ACTIVE
            .replace("PLATFORM", platform)
            .replace("UPLINKS", uplinks)
            .replace("PIN", pin),
    )
}

/// Builds the whole model (where the panic was) and returns every host's
/// live-migration ports.
fn lm_ports(d: &Design) -> Vec<Vec<Port>> {
    let t = Topology::build(d);
    let m = BandwidthModel::build(d, &t);
    assert_eq!(m.hosts.len(), d.hosts.len());
    let lm = d.network_by_name("lm").unwrap();
    (0..d.hosts.len())
        .map(|h| ports_of(d, &t, HostId(h), lm, false))
        .collect()
}

#[test]
fn a_vmkernel_port_whose_only_uplink_is_standby_has_no_port() {
    let d = no_active(
        "vsphere-7",
        "[profiles.p.vswitches.V]\nuplinks = [\"n1\"]",
        "standby_uplinks = [\"n1\"]",
    );
    let ports = lm_ports(&d);
    assert!(ports.iter().all(|p| p.is_empty()), "{ports:#?}");
    let t = Topology::build(&d);
    let m = BandwidthModel::build(&d, &t);
    assert!(m.hosts[0].class(TrafficClass::LiveMigration).is_none());
}

#[test]
fn a_team_without_members_under_a_vswitch_has_no_port() {
    // The loader refuses `members = []` (issue 17 item 2); the analysis
    // must not panic on such a design all the same.
    let mut d = no_active(
        "windows-server-2016",
        "[profiles.p.teams.T]\nmembers = [\"n0\", \"n1\"]\n\
         [profiles.p.vswitches.V]\nuplinks = [\"T\"]",
        "",
    );
    for h in &mut d.hosts {
        h.teams[0].members.clear();
    }
    let ports = lm_ports(&d);
    assert!(ports.iter().all(|p| p.is_empty()), "{ports:#?}");
}

#[test]
fn a_vswitch_without_uplinks_and_a_pinned_vnic_has_no_port() {
    let mut d = no_active(
        "windows-server-2022",
        "[profiles.p.vswitches.V]\nuplinks = [\"n0\", \"n1\"]",
        "active_uplinks = [\"n0\"]",
    );
    for h in &mut d.hosts {
        h.vswitches[0].uplinks.clear();
    }
    let ports = lm_ports(&d);
    assert!(ports.iter().all(|p| p.is_empty()), "{ports:#?}");
}

#[test]
fn figures_that_count_an_adapter_of_unknown_speed_are_marked() {
    // Live migration over SMB on two NICs, one of which states no speed.
    let src = NICS
        .replace("TRANSPORT", "smb")
        .replace("MTU\n", "")
        .replacen("speed = \"10G\"\n", "", 1);
    let (d, m) = model(&src);
    let lm = m.hosts[0].class(TrafficClass::LiveMigration).unwrap();
    let unknown: Vec<NicIdx> = (0..d.hosts[0].nics.len())
        .map(NicIdx)
        .filter(|n| d.hosts[0].nic(*n).speed.is_none())
        .collect();
    assert_eq!(unknown.len(), 1);
    let adapters = lm.healthy.aggregate.bound(BoundKind::Adapters).unwrap();
    assert_eq!(adapters.unknown, unknown);
    assert_eq!(lm.healthy.aggregate.known(), Known::AtLeast);
    assert_eq!(lm.healthy.aggregate.speed(), g(10));
    assert_eq!(lm.healthy.aggregate.unknown(), unknown);
    // Every speed stated: exact.
    let (_, m) = model(&NICS.replace("TRANSPORT", "smb").replace("MTU\n", ""));
    let lm = m.hosts[0].class(TrafficClass::LiveMigration).unwrap();
    assert_eq!(lm.healthy.aggregate.known(), Known::Exact);
    assert!(lm.healthy.aggregate.unknown().is_empty());
}
