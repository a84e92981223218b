//! Hosts alike share one computation of the model, and only they do: a
//! host with anything of its own that the model reads is its own class,
//! and the shared build equals every host computed on its own.

use super::super::*;
use netlint_model::{load, SourceFile};

fn design(src: &str) -> Design {
    let l = load(&SourceFile::new("t.toml", src));
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    l.design.unwrap()
}

/// The shared build, checked against every host computed on its own.
fn model(d: &Design) -> BandwidthModel {
    let t = Topology::build(d);
    let shared = BandwidthModel::build(d, &t);
    let each = BandwidthModel::build_each(d, &t);
    assert_eq!(shared.hosts, each.hosts);
    shared
}

fn same(m: &BandwidthModel, a: usize, b: usize) -> bool {
    Arc::ptr_eq(&m.hosts[a].classes, &m.hosts[b].classes)
}

/// Two management NICs in a team, two 25G NICs under a SET switch with
/// live migration and SMB (RDMA) vNICs, SMB live migration with a cap,
/// and `HOSTS` below the profile.
const BASE: &str = r#"
[design]
name = "t"
platform = "windows-server-2022"
[networks.mgmt]
role = "management"
vlan = 10
[networks.lm1]
role = "live-migration"
vlan = 31
[networks.lm2]
role = "live-migration"
vlan = 32
[networks.smb1]
role = "storage"
protocol = "smb"
vlan = 711
[networks.vm]
role = "vm"
vlan = 100
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
switch = "sw2"
[profiles.p.nics.C]
speed = "25G"
switch = "sw"
rdma = "roce-v2"
mtu = 9000
[profiles.p.nics.D]
speed = "25G"
switch = "sw2"
rdma = "roce-v2"
mtu = 9000
[profiles.p.teams.T]
members = ["A", "B"]
mode = "switch-independent"
load_balancing = "dynamic"
networks = ["mgmt"]
[profiles.p.vswitches.V]
uplinks = ["C", "D"]
load_balancing = "hyperv-port"
networks = ["vm"]
[profiles.p.vswitches.V.vnics.LM1]
network = "lm1"
mtu = 9000
[profiles.p.vswitches.V.vnics.LM2]
network = "lm2"
mtu = 9000
[profiles.p.vswitches.V.vnics.SMB1]
network = "smb1"
mtu = 9000
rdma = true
[profiles.p.live_migration]
transport = "smb"
networks = ["lm1", "lm2"]
smb_bandwidth_limit = "1500MB"
HOSTS
"#;

fn hosts(n: usize, extra: &str) -> String {
    let mut s = String::new();
    for i in 0..n {
        s.push_str(&format!("[hosts.hv{i}]\nprofile = \"p\"\n"));
    }
    BASE.replace("HOSTS", &format!("{s}{extra}"))
}

#[test]
fn the_hosts_of_one_profile_share_one_computation() {
    for n in [1, 2, 40] {
        let d = design(&hosts(n, ""));
        let m = model(&d);
        // Once, whatever the number of hosts.
        assert_eq!(m.computed, 1, "{n} hosts");
        assert!((1..n).all(|h| same(&m, 0, h)));
        assert_eq!(m.hosts.len(), n);
        assert!(m.hosts.iter().enumerate().all(|(i, h)| h.host == HostId(i)));
    }
}

#[test]
fn the_computations_grow_with_the_classes_not_the_hosts() {
    // 30 hosts of the profile, 30 with their own 25G `A`: two classes.
    let mut extra = String::new();
    for i in 30..60 {
        extra.push_str(&format!(
            "[hosts.hv{i}]\nprofile = \"p\"\nnics.A = {{ speed = \"25G\" }}\n"
        ));
    }
    let d = design(&hosts(30, &extra));
    let m = model(&d);
    assert_eq!(m.computed, 2);
    assert!((1..30).all(|h| same(&m, 0, h)));
    assert!((31..60).all(|h| same(&m, 30, h)));
    assert!(!same(&m, 0, 30));
}

#[test]
fn a_host_overriding_a_speed_gets_a_model_of_its_own() {
    let d = design(&hosts(
        1,
        "[hosts.hv1]\nprofile = \"p\"\n[hosts.hv1.nics.C]\nspeed = \"10G\"\n",
    ));
    let m = model(&d);
    assert_eq!(m.computed, 2);
    assert!(!same(&m, 0, 1));
    let vm = |h: usize| {
        m.hosts[h]
            .class(TrafficClass::Vm)
            .unwrap()
            .healthy
            .aggregate
            .speed()
    };
    assert_eq!((vm(0), vm(1)), (Speed::from_gbps(50), Speed::from_gbps(35)));
}

/// Each line is written in the second host's own table (or a table under
/// it) and changes one input of the model: the host must be a class of
/// its own, and the shared build must equal the host computed alone.
const OVERRIDES: &[&str] = &[
    // NICs: speed, MTU, RDMA, networks (the carriers).
    "[hosts.hv1.nics.A]\nspeed = \"25G\"",
    "[hosts.hv1.nics.C]\nspeed = \"10G\"",
    "[hosts.hv1.nics.A]\nmtu = 9000",
    "[hosts.hv1.nics.C]\nrdma = \"iwarp\"",
    "[hosts.hv1.nics.C]\nrdma = \"none\"",
    "[hosts.hv1.nics.B]\nnetworks = [\"lm1\"]",
    // The team: members, standby, mode, load balancing, MTU, networks.
    "[hosts.hv1.teams.T]\nmembers = [\"A\"]",
    "[hosts.hv1.teams.T]\nstandby = \"B\"",
    "[hosts.hv1.teams.T]\nmode = \"lacp\"",
    "[hosts.hv1.teams.T]\nload_balancing = \"address-hash\"",
    "[hosts.hv1.teams.T]\nmtu = 9000",
    "[hosts.hv1.teams.T]\nnetworks = [\"mgmt\", \"lm2\"]",
    // The virtual switch and its vNICs.
    "[hosts.hv1.vswitches.V]\nload_balancing = \"dynamic\"",
    "[hosts.hv1.vswitches.V]\nmtu = 1500",
    "[hosts.hv1.vswitches.V]\nuplinks = [\"C\"]",
    "[hosts.hv1.vswitches.V.vnics.LM1]\nmtu = 1500",
    "[hosts.hv1.vswitches.V.vnics.SMB1]\nrdma = false",
    "[hosts.hv1.vswitches.V.vnics.SMB1]\nactive_uplinks = [\"C\"]",
    "[hosts.hv1.vswitches.V.vnics.LM2]\nnetwork = \"smb1\"",
    // Live migration.
    "[hosts.hv1.live_migration]\ntransport = \"tcp\"",
    "[hosts.hv1.live_migration]\ntransport = \"compression\"",
    "[hosts.hv1.live_migration]\nnetworks = [\"lm2\", \"lm1\"]",
    "[hosts.hv1.live_migration]\nsimultaneous = 4",
    "[hosts.hv1.live_migration]\nsmb_bandwidth_limit = \"1250MB\"",
    // The platform.
    "os = \"windows-server-2012r2\"",
    "os = \"windows-server-2019\"",
];

#[test]
fn every_input_of_the_model_makes_a_class_of_its_own() {
    for o in OVERRIDES {
        let d = design(&hosts(1, &format!("[hosts.hv1]\nprofile = \"p\"\n{o}\n")));
        let m = model(&d);
        assert_eq!(m.computed, 2, "{o}");
        assert!(!same(&m, 0, 1), "{o}");
    }
    // All in one design, one host each, and two hosts of the profile.
    let mut extra = String::new();
    for (i, o) in OVERRIDES.iter().enumerate() {
        let h = format!("hv{}", i + 2);
        extra.push_str(&format!(
            "[hosts.{h}]\nprofile = \"p\"\n{}\n",
            o.replace("hosts.hv1", &format!("hosts.{h}"))
        ));
    }
    let d = design(&hosts(2, &extra));
    let m = model(&d);
    assert_eq!(m.computed, OVERRIDES.len() + 1);
    assert!(same(&m, 0, 1));
}

#[test]
fn names_memory_and_cabling_are_not_inputs() {
    // Another memory size, other switches, another cluster, other names of
    // the adapters' cards: the same model, each host its own drain time.
    let d = design(&hosts(
        1,
        r#"[hosts.hv1]
profile = "p"
memory_gb = 1024
cluster = "c2"
[hosts.hv1.nics.A]
switch = "sw2"
card = "slot9"
[hosts.hv1.nics.B]
switch = "sw"
"#,
    ));
    let m = model(&d);
    assert_eq!(m.computed, 1);
    assert!(same(&m, 0, 1));
    let (a, b) = (
        m.hosts[0].drain.as_ref().unwrap(),
        m.hosts[1].drain.as_ref().unwrap(),
    );
    assert_eq!((a.memory_gib.value, b.memory_gib.value), (256.0, 1024.0));
    assert!((b.healthy.seconds / a.healthy.seconds - 4.0).abs() < 1e-9);
    // The drain time's line is the host's own.
    assert_ne!(a.memory_gib.span, b.memory_gib.span);
    assert!(d.hosts[1].overrides(b.memory_gib.span));
    assert!(!d.hosts[0].overrides(a.memory_gib.span));
}

#[test]
fn an_override_with_the_profile_value_shares_the_model_but_not_the_line() {
    // hv1 states the profile's own load balancing and cap again: the same
    // model; the lines are each host's (looked up on the host).
    let src = hosts(
        1,
        "[hosts.hv1]\nprofile = \"p\"\n[hosts.hv1.vswitches.V]\nload_balancing = 'hyperv-port'\n[hosts.hv1.live_migration]\nsmb_bandwidth_limit = '1500MB'\n",
    );
    let d = design(&src);
    let m = model(&d);
    assert_eq!(m.computed, 1);
    assert!(same(&m, 0, 1));
    let lm = m.hosts[1].class(TrafficClass::LiveMigration).unwrap();
    let b = lm.ports[0].balancer.as_ref().unwrap();
    assert_eq!(b.group, Group::Switch(VSwitchIdx(0)));
    let at = |h: usize| b.load_balancing_span(&d.hosts[h]).unwrap();
    assert_eq!(&src[at(0).start..at(0).end], "\"hyperv-port\"");
    assert_eq!(&src[at(1).start..at(1).end], "'hyperv-port'");
    assert!(d.hosts[1].overrides(at(1)));
}

#[test]
fn memory_given_or_not_is_an_input() {
    // Over standard frames a drain time comes with the jumbo-frame range,
    // an assumption of the live-migration class: a host without
    // `memory_gb` has no drain time and no such assumption.
    let src = hosts(
        0,
        "[hosts.hv0]\nprofile = \"p\"\n[hosts.hv1]\nprofile = \"p\"\nmemory_gb = 512\n[hosts.hv2]\nprofile = \"p\"\n",
    )
    .replace("[profiles.p]\nmemory_gb = 256\n", "[profiles.p]\n")
    .replace("network = \"lm1\"\nmtu = 9000", "network = \"lm1\"");
    let d = design(&src);
    let m = model(&d);
    assert_eq!(m.computed, 2);
    assert!(same(&m, 0, 2) && !same(&m, 0, 1));
    let jumbo = |h: usize| {
        m.hosts[h]
            .class(TrafficClass::LiveMigration)
            .unwrap()
            .assumptions
            .contains(&Assumption::JumboGain)
    };
    assert_eq!((jumbo(0), jumbo(1)), (false, true));
    assert!(m.hosts[0].drain.is_none() && m.hosts[1].drain.is_some());
}
