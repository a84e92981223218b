//! Unknown speeds, rule by rule: every rule that reads a speed runs on a
//! design that leaves it out (no panic, no guessed figure), and
//! `speed-unknown` names the checks it stopped.

use crate::testing::findings;
use netlint_model::{load, Severity, SourceFile};

/// Two hosts, a SET switch of two NICs without `speed` carrying live
/// migration over SMB and storage, a drain budget, a LAG without `speed`.
const NO_SPEEDS: &str = r#"
[design]
name = "t"
platform = "windows-server-2022"
drain_budget = "1s"
[networks.lm]
role = "live-migration"
vlan = 31
[networks.storage]
role = "storage"
protocol = "smb"
vlan = 40
[switches.a]
stp = { mode = "rstp", priority = 4096 }
[switches.b]
stp = { mode = "rstp", priority = 8192 }
[[links]]
name = "isl"
a = "a"
b = "b"
members = 2
[profiles.p]
memory_gb = 512
[profiles.p.nics.S1]
switch = "a"
[profiles.p.nics.S2]
switch = "b"
[profiles.p.vswitches.SET]
uplinks = ["S1", "S2"]
load_balancing = "hyperv-port"
[profiles.p.vswitches.SET.vnics.LM]
network = "lm"
[profiles.p.vswitches.SET.vnics.SMB1]
network = "storage"
[profiles.p.live_migration]
transport = "smb"
networks = ["lm", "storage"]
[hosts.h1]
profile = "p"
[hosts.h2]
profile = "p"
"#;

#[test]
fn a_design_without_speeds_is_valid() {
    let l = load(&SourceFile::new("t.toml", NO_SPEEDS));
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    let d = l.design.unwrap();
    assert!(d.hosts[0].nics[0].speed.is_none());
    assert!(d.links[0].speed.is_none());
    // A speed that is written but wrong is still an input error.
    let bad = NO_SPEEDS.replace("members = 2", "members = 2\nspeed = \"fast\"");
    let l = load(&SourceFile::new("t.toml", &bad));
    assert!(l.design.is_none());
}

#[test]
fn rules_that_need_a_speed_do_not_guess() {
    // None may fire on a figure it had to make up (the next test: with
    // the speeds stated, the bandwidth rules do fire).
    for rule in [
        "lm-drain-time",
        "smb-bandwidth-cap-missing",
        "smb-bandwidth-cap-degraded",
        "team-speed-mismatch",
        "host-asymmetry",
        "stp-suboptimal-path",
        "jumbo-recommended",
        "team-hyperv-port-cap",
        "power-profile",
    ] {
        let f = findings(NO_SPEEDS, rule);
        assert!(f.is_empty(), "{rule}: {f:#?}");
    }
}

#[test]
fn with_speeds_stated_the_same_design_is_checked() {
    let stated = NO_SPEEDS
        .replace(
            "[profiles.p.nics.S1]\n",
            "[profiles.p.nics.S1]\nspeed = \"10G\"\n",
        )
        .replace(
            "[profiles.p.nics.S2]\n",
            "[profiles.p.nics.S2]\nspeed = \"10G\"\n",
        )
        .replace("members = 2", "members = 2\nspeed = \"10G\"");
    assert_eq!(findings(&stated, "lm-drain-time").len(), 1);
    assert_eq!(findings(&stated, "smb-bandwidth-cap-missing").len(), 1);
    assert!(findings(&stated, "speed-unknown").is_empty());
}

#[test]
fn one_finding_per_nic_names_the_checks_it_stopped() {
    let f = findings(NO_SPEEDS, "speed-unknown");
    // S1 and S2 of the profile (one finding each for both hosts), and the link.
    assert_eq!(f.len(), 3, "{f:#?}");
    assert!(f.iter().all(|d| d.severity == Severity::Info));
    let s1 = f.iter().find(|d| d.message.contains("NIC `S1`")).unwrap();
    assert!(
        s1.message
            .starts_with("hosts `h1`, `h2`: NIC `S1` states no speed"),
        "{}",
        s1.message
    );
    for check in [
        "`team-speed-mismatch`",
        "`host-asymmetry`",
        "`stp-suboptimal-path`",
        "`lm-drain-time`",
        "`smb-bandwidth-cap-missing`",
        "`smb-bandwidth-cap-degraded`",
        "`power-profile`",
        "the bandwidth figures of `netlint report`",
    ] {
        assert!(s1.message.contains(check), "{check}: {}", s1.message);
    }
    assert!(s1.help.as_deref().unwrap().contains("profile `p`"));
    let link = f.iter().find(|d| d.message.contains("link `isl`")).unwrap();
    assert!(
        link.message
            .contains("its spanning-tree port cost (taken as for 10G)"),
        "{}",
        link.message
    );
}

#[test]
fn a_link_with_stp_cost_needs_no_speed_for_the_tree() {
    let src = NO_SPEEDS.replace("members = 2", "members = 2\nstp_cost = 2000");
    let f = findings(&src, "speed-unknown");
    let link = f.iter().find(|d| d.message.contains("link `isl`")).unwrap();
    assert!(
        !link.message.contains("spanning-tree port cost"),
        "{}",
        link.message
    );
}

#[test]
fn team_speed_mismatch_compares_the_stated_speeds_only() {
    let team = |b: &str, c: &str| {
        format!(
            r#"
[design]
name = "t"
[networks.vm]
role = "vm"
vlan = 100
[switches.sw]
[hosts.h1.nics.A]
speed = "10G"
switch = "sw"
[hosts.h1.nics.B]
{b}switch = "sw"
[hosts.h1.nics.C]
{c}switch = "sw"
[hosts.h1.teams.T]
members = ["A", "B", "C"]
"#
        )
    };
    assert!(findings(&team("", ""), "team-speed-mismatch").is_empty());
    let f = findings(&team("speed = \"1G\"\n", ""), "team-speed-mismatch");
    assert_eq!(f.len(), 1);
    assert!(
        f[0].message.contains("A 10G, B 1G, C speed unknown"),
        "{}",
        f[0].message
    );
    let u = findings(&team("", ""), "speed-unknown");
    assert_eq!(u.len(), 2, "{u:#?}");
    assert!(
        u[0].message.contains("`team-speed-mismatch`"),
        "{}",
        u[0].message
    );
}

#[test]
fn a_nic_no_check_needs_says_nothing() {
    // A lone NIC on one host, no team, no bandwidth class, no cable: no
    // check needed its speed.
    let src = r#"
[design]
name = "t"
[networks.vm]
role = "vm"
vlan = 100
[hosts.h1.nics.A]
"#;
    assert!(findings(src, "speed-unknown").is_empty());
}

/// Live migration with compression on two NICs (lm-compression-multichannel)
/// and a switch-independent address-hash team (team-rx-single-member),
/// with or without speeds.
const COMPRESSION: &str = r#"
[design]
name = "t"
platform = "windows-server-2019"
[networks.lm1]
role = "live-migration"
vlan = 31
[networks.lm2]
role = "live-migration"
vlan = 32
[networks.vm]
role = "vm"
vlan = 100
[switches.a]
[hosts.h1.nics.X1]
SPEEDswitch = "a"
networks = ["lm1"]
[hosts.h1.nics.X2]
SPEEDswitch = "a"
networks = ["lm2"]
[hosts.h1.nics.V1]
SPEEDswitch = "a"
[hosts.h1.nics.V2]
SPEEDswitch = "a"
[hosts.h1.teams.T]
members = ["V1", "V2"]
mode = "switch-independent"
load_balancing = "address-hash"
networks = ["vm"]
[hosts.h1.live_migration]
transport = "compression"
networks = ["lm1", "lm2"]
"#;

#[test]
fn compression_and_receive_side_figures_need_the_speeds() {
    let stated = COMPRESSION.replace("SPEED", "speed = \"10G\"\n");
    let unknown = COMPRESSION.replace("SPEED", "");
    for rule in ["lm-compression-multichannel", "team-rx-single-member"] {
        assert_eq!(findings(&stated, rule).len(), 1, "{rule} with speeds");
        assert!(findings(&unknown, rule).is_empty(), "{rule} without speeds");
    }
    let f = findings(&unknown, "speed-unknown");
    let named = |nic: &str, rule: &str| {
        f.iter()
            .any(|d| d.message.contains(&format!("NIC `{nic}`")) && d.message.contains(rule))
    };
    assert!(named("X1", "`lm-compression-multichannel`"), "{f:#?}");
    assert!(named("V1", "`team-rx-single-member`"), "{f:#?}");
    assert!(named("V2", "`team-speed-mismatch`"), "{f:#?}");
}

/// A vPC pair with a peer-link, a stack of two with a stacking cable, a
/// routed uplink and a firewall (unmanaged) on single links, none with a
/// `speed`, and one plain inter-switch link between the pair and the
/// stack, also without. Only that ISL is a spanning-tree port: no check
/// reads the others' speed.
const CABLING: &str = r#"
[design]
name = "t"
[networks.vm]
role = "vm"
vlan = 100
[switches.core]
tier = "core"
[switches.fw]
managed = false
[switches.v1]
mlag = "vpc"
stp = { priority = 4096, peer_switch = true }
[switches.v2]
mlag = "vpc"
stp = { priority = 4096, peer_switch = true }
[switches.s1]
stack = "stk"
STACK_STP
[switches.s2]
stack = "stk"
STACK_STP
[[links]]
name = "vpc-peer"
a = "v1"
b = "v2"
kind = "peer-link"
members = 2
[[links]]
name = "stackwise"
a = "s1"
b = "s2"
kind = "stack"
[[links]]
name = "uplink"
a = "core"
b = "v1"
kind = "routed"
[[links]]
name = "to-fw"
a = "fw"
b = "v2"
[[links]]
name = "isl"
a = "s1"
b = ["v1", "v2"]
members = 2
"#;

#[test]
fn only_a_link_whose_speed_a_check_reads_is_reported() {
    let src = CABLING.replace("STACK_STP\n", "");
    let l = load(&SourceFile::new("t.toml", &src));
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    let f = findings(&src, "speed-unknown");
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].element(), "links.isl");
    assert!(
        f[0].message
            .contains("its spanning-tree port cost (taken as for 10G)"),
        "{}",
        f[0].message
    );
}

#[test]
fn a_link_between_switches_without_spanning_tree_has_no_port_cost() {
    // The stack runs no spanning tree, the vPC pair does: the ISL is still
    // a port of the pair's tree. With spanning tree off at both ends, only
    // the simulated capacity needs the speed.
    let src = CABLING.replace("STACK_STP", "stp = { mode = \"none\" }");
    let f = findings(&src, "speed-unknown");
    assert_eq!(f.len(), 1, "{f:#?}");
    assert!(
        f[0].message.contains("spanning-tree port cost"),
        "{}",
        f[0].message
    );
    let none = src.replace(
        "stp = { priority = 4096, peer_switch = true }",
        "stp = { mode = \"none\" }",
    );
    let f = findings(&none, "speed-unknown");
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(
        f[0].message,
        "link `isl` states no speed, so netlint could not check the capacities `netlint simulate` shows for it"
    );
    assert!(!f[0].help.as_deref().unwrap().contains("stp_cost"));
}
