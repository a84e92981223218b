//! Each rule's fix applied the way `netlint check --fix` applies it (to a
//! copy, checked again): a small design per rule, the fix carried by its
//! finding applied, the finding gone, no finding that was not there before,
//! and the edited text what the fix says.

use netlint::run::fix::{fix_source, FixMode};
use netlint::run::{check_source, CheckSettings};
use netlint_model::{Diagnostic, FixSafety, SourceFile};
use std::collections::BTreeMap;

type Key = (String, Vec<String>);

fn keys(diags: &[Diagnostic]) -> BTreeMap<Key, usize> {
    let mut out = BTreeMap::new();
    for d in diags {
        let mut s = d.subject_paths();
        s.sort();
        *out.entry((d.rule.clone(), s)).or_default() += 1;
    }
    out
}

/// `src` after `--fix --unsafe-fixes`: `rule` fired on it with a fix of
/// `safety`, every such fix was applied, none of its findings is left, and
/// no finding appeared. Returns the fixed text.
fn fixed(src: &str, rule: &str, safety: FixSafety) -> String {
    let settings = CheckSettings::default();
    let file = SourceFile::new("d.toml", src.to_string());
    let before = check_source(&file, None, &settings).0;
    assert!(
        !before.iter().any(Diagnostic::is_input_error),
        "the design loads: {before:#?}"
    );
    let mine: Vec<&Diagnostic> = before.iter().filter(|d| d.rule == rule).collect();
    assert!(!mine.is_empty(), "`{rule}` fires: {before:#?}");
    for d in &mine {
        let fix = d.fix.as_ref().unwrap_or_else(|| panic!("no fix: {d:#?}"));
        assert_eq!(fix.safety, safety, "{fix:#?}");
    }
    let out = fix_source(&file, None, &settings, FixMode::Unsafe);
    let refused: Vec<String> = out
        .not_applied
        .iter()
        .filter(|(f, _)| f.rule == rule)
        .map(|(f, why)| format!("{} on {}: {why}", f.rule, f.element))
        .collect();
    assert!(refused.is_empty(), "{}\n{}", refused.join("\n"), out.text);
    assert!(
        out.applied.iter().any(|f| f.rule == rule),
        "no `{rule}` fix applied"
    );
    let after = check_source(
        &SourceFile::new("d.toml", out.text.clone()),
        None,
        &settings,
    )
    .0;
    assert!(
        !after.iter().any(|d| d.rule == rule),
        "`{rule}` still fires:\n{}\n{after:#?}",
        out.text
    );
    let (b, a) = (keys(&before), keys(&after));
    for (k, n) in &a {
        assert!(
            b.get(k).is_some_and(|m| m >= n),
            "fixing added {k:?}\n{}",
            out.text
        );
    }
    out.text
}

/// The lines of `text` from `header` to the next table header.
fn section<'a>(text: &'a str, header: &str) -> &'a str {
    let start = text
        .find(header)
        .unwrap_or_else(|| panic!("{header}:\n{text}"));
    let rest = &text[start + header.len()..];
    let end = rest.find("\n[").map_or(rest.len(), |e| e + 1);
    &rest[..end]
}

#[test]
fn mtu_path_too_small_raises_the_link_or_switch_in_its_own_form() {
    let src = r#"
[design]
name = "t"
[networks.smb]
role = "storage"
protocol = "smb"
vlan = 40
mtu = 9000
[switches.a]
SWITCH_A
[switches.b]
mtu = 9216
[[links]]
a = "a"
b = "b"
LINK
[hosts.hv1.nics.P1]
speed = "10G"
switch = "a"
mtu = 9000
networks = ["smb"]
[hosts.hv2.nics.P1]
speed = "10G"
switch = "b"
mtu = 9000
networks = ["smb"]
"#;
    // A link's `mtu = 1500` becomes 9216.
    let link = src
        .replace("SWITCH_A", "mtu = 9216")
        .replace("LINK", "mtu = 1500 # the ISL");
    let out = fixed(&link, "mtu-path-too-small", FixSafety::Safe);
    assert!(out.contains("mtu = 9216 # the ISL"), "{out}");
    // A switch's `frame_size` stays a frame size, large enough tagged.
    let frame = src
        .replace("SWITCH_A", "frame_size = 9018")
        .replace("LINK", "");
    let out = fixed(&frame, "mtu-path-too-small", FixSafety::Safe);
    assert!(out.contains("[switches.a]\nframe_size = 9022\n"), "{out}");
    // A switch with no MTU written gets one of its own.
    let default = src.replace("SWITCH_A", "").replace("LINK", "");
    let out = fixed(&default, "mtu-path-too-small", FixSafety::Safe);
    assert!(
        section(&out, "[switches.a]").contains("\nmtu = 9216\n"),
        "{out}"
    );
}

fn fixture(name: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn lm_compression_multichannel_sets_smb_where_compression_is_written() {
    let src = fixture("lm-compression-multichannel.toml");
    let out = fixed(&src, "lm-compression-multichannel", FixSafety::Safe);
    let lm = section(&out, "[profiles.node.live_migration]");
    assert!(lm.contains("transport = \"smb\""), "{out}");
    // Over SMB it shares the adapters with CSV: the cap comes with it.
    assert!(lm.contains("smb_bandwidth_limit = \""), "{out}");
}

#[test]
fn native_vlan_mismatch_gives_one_end_the_others_vlan() {
    let src = fixture("native-vlan-mismatch.toml");
    fixed(&src, "native-vlan-mismatch", FixSafety::Unsafe);
    let base = r#"
[design]
name = "t"
[switches.tor-a]
[switches.tor-a.ports."Ethernet1/49"]
native_vlan = 99
[switches.tor-b]
[[links]]
name = "isl"
a = "tor-a"
b = "tor-b"
speed = "10G"
port_a = "Ethernet1/49"
LINK
"#;
    // Both stated: the `b` end's line takes the `a` end's VLAN.
    let out = fixed(
        &base.replace("LINK", "native_vlan_b = 20 # b"),
        "native-vlan-mismatch",
        FixSafety::Unsafe,
    );
    assert!(out.contains("native_vlan_b = 99 # b"), "{out}");
    // One stated (the port's): the other end gets it on the link.
    let out = fixed(
        &base.replace("LINK", ""),
        "native-vlan-mismatch",
        FixSafety::Unsafe,
    );
    assert!(
        section(&out, "[[links]]").contains("native_vlan_b = 99"),
        "{out}"
    );
}

#[test]
fn mtu_mismatch_sets_the_odd_host_in_the_unit_it_was_written() {
    let src = r#"
[design]
name = "t"
[networks.csv]
role = "csv"
vlan = 20
mtu = 9000
[switches.tor]
mtu = 9216
[profiles.node.nics.P1]
speed = "25G"
switch = "tor"
jumbo_packet = 9014
networks = ["csv"]
[hosts.hv1]
profile = "node"
[hosts.hv2]
profile = "node"
[hosts.hv3]
profile = "node"
nics.P1.jumbo_packet = 1514 # driver reset
"#;
    let out = fixed(src, "mtu-mismatch", FixSafety::Unsafe);
    assert!(
        out.contains("nics.P1.jumbo_packet = 9014 # driver reset"),
        "{out}"
    );
    // A vNIC with no MTU written among vNICs that have one gets its own.
    let vnic = r#"
[design]
name = "t"
[networks.lm]
role = "live-migration"
vlan = 30
mtu = 9000
[switches.tor]
mtu = 9216
[profiles.node.nics.P1]
speed = "25G"
switch = "tor"
mtu = 9000
[profiles.node.vswitches.S]
uplinks = ["P1"]
[profiles.node.vswitches.S.vnics.LM]
network = "lm"
mtu = 9000
[hosts.hv1]
profile = "node"
[hosts.hv2]
profile = "node"
[hosts.hv3]
profile = "node"
[hosts.hv3.vswitches.S.vnics.LM]
network = "lm"
mtu = 1500
"#;
    let out = fixed(vnic, "mtu-mismatch", FixSafety::Unsafe);
    assert!(
        section(&out, "[hosts.hv3.vswitches.S.vnics.LM]").contains("mtu = 9000"),
        "{out}"
    );
}

#[test]
fn smb_bandwidth_cap_missing_adds_the_validator_figure() {
    let src = fixture("smb-bandwidth-cap-missing.toml");
    let out = fixed(&src, "smb-bandwidth-cap-missing", FixSafety::Safe);
    assert!(out.contains("smb_bandwidth_limit = \""), "{out}");
}

#[test]
fn mlag_peer_link_vlan_adds_the_vlans_to_the_peer_link_keeping_ranges() {
    let src = fixture("mlag-peer-link-vlan.toml");
    fixed(&src, "mlag-peer-link-vlan", FixSafety::Safe);
    let ranges = r#"
[design]
name = "t"
[networks.mgmt]
role = "management"
vlan = 10
[networks.csv]
role = "csv"
vlan = 20
[switches.core]
stp = { mode = "rstp", priority = 4096 }
[switches.a]
mlag = "m"
stp = { mode = "rstp", priority = 8192 }
[switches.b]
mlag = "m"
stp = { mode = "rstp", priority = 8192 }
[[links]]
name = "peer"
a = "a"
b = "b"
kind = "peer-link"
speed = "100G"
members = 2
vlans = ["1-15"] # mgmt only
[[links]]
name = "up"
a = "core"
b = ["a", "b"]
speed = "100G"
"#;
    let out = fixed(ranges, "mlag-peer-link-vlan", FixSafety::Safe);
    assert!(out.contains("vlans = [\"1-15\", 20] # mgmt only"), "{out}");
}

#[test]
fn smb_bandwidth_cap_degraded_lowers_the_cap_to_the_validator_figure() {
    let src = fixture("smb-bandwidth-cap-degraded.toml");
    let out = fixed(&src, "smb-bandwidth-cap-degraded", FixSafety::Safe);
    assert!(!out.contains("\"16Gbps\""), "{out}");
    assert!(out.contains("smb_bandwidth_limit = \""), "{out}");
}

#[test]
fn dcb_cluster_class_takes_pfc_off_the_cluster_priority_and_lowers_its_share() {
    let src = fixture("dcb-cluster-class.toml");
    let out = fixed(&src, "dcb-cluster-class", FixSafety::Safe);
    let dcb = section(&out, "[profiles.hci.dcb]");
    assert!(dcb.contains("pfc = [3]"), "{out}");
    assert!(dcb.contains("ets = { 3 = 50, 7 = 2 }"), "{out}");
}

#[test]
fn qos_weight_sum_scales_the_weights_to_100_keeping_their_proportions() {
    let src = fixture("qos-weight-sum.toml");
    let out = fixed(&src, "qos-weight-sum", FixSafety::Safe);
    // 10, 30, 30 and 50 (120) become 8, 25, 25 and 41 (99).
    assert!(out.contains("default_flow_weight = 41"), "{out}");
    assert!(out.contains("min_bandwidth_weight = 8\n"), "{out}");
    assert_eq!(
        out.matches("min_bandwidth_weight = 25\n").count(),
        2,
        "{out}"
    );
}

#[test]
fn team_lag_mismatch_gives_the_team_the_mode_its_switch_ports_run() {
    let src = r#"
[design]
name = "t"
[switches.sw]
[profiles.p.nics.A]
speed = "10G"
switch = "sw"
[profiles.p.nics.B]
speed = "10G"
switch = "sw"
[profiles.p.teams.T]
members = ["A", "B"]
load_balancing = "dynamic"
mode = "lacp" # as first built
switch_lag = "none"
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
"#;
    let out = fixed(src, "team-lag-mismatch", FixSafety::Unsafe);
    assert!(
        out.contains("mode = \"switch-independent\" # as first built"),
        "{out}"
    );
}

#[test]
fn dcb_priority_mismatch_adds_the_smb_direct_priority_to_the_pfc_that_misses_it() {
    let base = r#"
[design]
name = "t"
platform = "windows-server-2019"
[networks.smb1]
role = "storage"
protocol = "smb"
vlan = 711
[switches.tor]
dcb = { pfc = SWPFC, ets = { 3 = 50, 7 = 1 } }
[profiles.p.nics.N1]
speed = "25G"
switch = "tor"
rdma = "roce-v2"
networks = ["smb1"]
[profiles.p.dcb]
willing = false
pfc = HOSTPFC
ets = { 3 = 50, 7 = 1 }
policies = [{ name = "SMB", match = "smb-direct", priority = 3 }]
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
"#;
    // The switch protects priority 4 only: it takes 3 as well.
    let out = fixed(
        &base.replace("SWPFC", "[4]").replace("HOSTPFC", "[3]"),
        "dcb-priority-mismatch",
        FixSafety::Unsafe,
    );
    assert!(out.contains("dcb = { pfc = [4, 3], ets"), "{out}");
    // The hosts' `pfc` misses their policy's priority: the profile's line.
    let out = fixed(
        &base.replace("SWPFC", "[3]").replace("HOSTPFC", "[4]"),
        "dcb-priority-mismatch",
        FixSafety::Unsafe,
    );
    assert!(
        section(&out, "[profiles.p.dcb]").contains("pfc = [4, 3]\n"),
        "{out}"
    );
}

#[test]
fn mstp_region_mismatch_gives_the_odd_switch_its_regions_revision() {
    let src = r#"
[design]
name = "t"
[switches.a]
stp = { mode = "mstp", priority = 4096, region = "dc1", revision = 3, instances = { 1 = [20, 30] } }
[switches.b]
stp = { mode = "mstp", region = "dc1", revision = 3, instances = { 1 = [20, 30] } }
[switches.c]
stp = { mode = "mstp", region = "dc1", revision = 4, instances = { 1 = [20, 30] } }
[[links]]
name = "ab"
a = "a"
b = "b"
speed = "10G"
[[links]]
name = "bc"
a = "b"
b = "c"
speed = "10G"
"#;
    let out = fixed(src, "mstp-region-mismatch", FixSafety::Unsafe);
    assert!(!out.contains("revision = 4"), "{out}");
    assert_eq!(out.matches("revision = 3,").count(), 3, "{out}");
}

/// Issue 35: `unused-allow` removes the entry that suppresses nothing (a
/// key of an inline table, a line of an `[allow]` table, a dotted key), with
/// no other line touched and every comment kept; the used entries stay.
#[test]
fn unused_allow_removes_the_entry_and_keeps_the_comments() {
    let src = fixture("unused-allow.toml");
    let out = fixed(&src, "unused-allow", FixSafety::Safe);
    assert!(out.contains("allow = {}  # review yearly\n"), "{out}");
    let profile = section(&out, "[profiles.node.allow]");
    assert!(!profile.contains("mtu-mismatch"), "{out}");
    for kept in [
        "# until the jumbo rollout",
        "# the lab has no second NIC",
        "\"spof-nic-card\" = \"lab hosts, one card\"",
        "\"spof-switch\" = \"lab rack, one switch\"",
    ] {
        assert!(profile.contains(kept), "{kept}: {out}");
    }
    assert!(!out.contains("allow.dcbx-willing"), "{out}");
    // Only the four entries' lines changed.
    let changed = similar::TextDiff::from_lines(&src, &out)
        .iter_all_changes()
        .filter(|c| c.tag() == similar::ChangeTag::Delete)
        .count();
    assert_eq!(changed, 3, "{out}");
}

/// Issue 35: `jumbo-recommended` sets MTU 9000 on the network and on every
/// host interface that carries it, as one fix (each profile line once);
/// the switch already at 9216 is left alone, nothing else changes.
#[test]
fn jumbo_recommended_sets_the_network_and_its_interfaces_in_one_fix() {
    let src = fixture("jumbo-recommended.toml");
    let settings = CheckSettings::default();
    let before = check_source(&SourceFile::new("d.toml", src.clone()), None, &settings).0;
    let lm = before
        .iter()
        .find(|d| d.rule == "jumbo-recommended" && d.element() == "networks.lm")
        .expect("jumbo-recommended on lm");
    let edits: Vec<String> = lm
        .fix
        .as_ref()
        .unwrap()
        .edits
        .iter()
        .map(|e| e.to_string())
        .collect();
    assert_eq!(
        edits,
        [
            "networks.lm.mtu = 9000",
            "profiles.node.nics.SLOT2-1.mtu = 9000"
        ]
    );
    let out = fixed(&src, "jumbo-recommended", FixSafety::Unsafe);
    assert!(
        section(&out, "[networks.lm]").contains("mtu = 9000"),
        "{out}"
    );
    assert!(
        section(&out, "[networks.csv]").contains("mtu = 9000"),
        "{out}"
    );
    assert!(
        section(&out, "[networks.mgmt]").find("mtu").is_none(),
        "{out}"
    );
    assert!(section(&out, "[profiles.node.nics.SLOT3-1]").contains("mtu = 9000"));
    assert!(!section(&out, "[profiles.node.nics.LOM1]").contains("mtu"));
    assert!(section(&out, "[switches.tor-a]").contains("mtu = 9216\n"));
}

/// A switch below jumbo frames is raised with the hosts (here one that
/// states no MTU gets `mtu = 9216`), so the fix adds no
/// `mtu-path-too-small`.
#[test]
fn jumbo_recommended_raises_the_switches_of_the_vlan_too() {
    let src = fixture("jumbo-recommended.toml").replace("mtu = 9216\n", "");
    let out = fixed(&src, "jumbo-recommended", FixSafety::Unsafe);
    assert!(
        section(&out, "[switches.tor-a]").contains("mtu = 9216\n"),
        "{out}"
    );
}

/// Issue 35: `team-cross-switch-lag` gives the team the mode independent
/// switch ports match (`switch-independent`), on the profile's line; on the
/// public broken-basics design it is applied, the finding gone.
#[test]
fn team_cross_switch_lag_makes_the_team_switch_independent() {
    let src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/reference/broken-basics.toml"),
    )
    .unwrap();
    let out = fixed(&src, "team-cross-switch-lag", FixSafety::Unsafe);
    let team = section(&out, "[profiles.node.teams.VMTeam]");
    assert!(team.contains("mode = \"switch-independent\""), "{out}");
}

/// Issue 35: `vsphere-ip-hash-lag` on uplinks to two independent switches
/// sets originating-port load balancing where IP hash is written (the
/// profile's line); the standard vSwitch running LACP on `esx2` has no
/// fix (a vDS or a static EtherChannel is the user's choice) and stays.
#[test]
fn vsphere_ip_hash_lag_sets_originating_port_where_ip_hash_is_written() {
    let src = fixture("vsphere-ip-hash-lag.toml");
    let settings = CheckSettings::default();
    let file = SourceFile::new("d.toml", src.clone());
    let out = fix_source(&file, None, &settings, FixMode::Unsafe);
    let applied: Vec<&str> = out.applied.iter().map(|f| f.element.as_str()).collect();
    assert!(
        out.applied.iter().any(
            |f| f.rule == "vsphere-ip-hash-lag" && f.element == "hosts.esx1.vswitches.vSwitch0"
        ),
        "{applied:?} {:?}",
        out.not_applied
    );
    assert!(
        section(&out.text, "[profiles.esx.vswitches.vSwitch0]")
            .contains("load_balancing = \"originating-port\""),
        "{}",
        out.text
    );
    let after = check_source(
        &SourceFile::new("d.toml", out.text.clone()),
        None,
        &settings,
    )
    .0;
    let left: Vec<String> = after
        .iter()
        .filter(|d| d.rule == "vsphere-ip-hash-lag")
        .map(|d| d.element())
        .collect();
    assert_eq!(left, ["hosts.esx2.vswitches.vSwitch0"]);
    let (b, a) = (keys(&check_source(&file, None, &settings).0), keys(&after));
    assert!(a.keys().all(|k| b.contains_key(k)), "a finding appeared");
}

/// Issue 35: where every host of a profile lacks a power plan and needs
/// one, `power = "max-performance"` is added once, to the profile; a host
/// without a profile gets its own line.
#[test]
fn power_profile_adds_the_plan_to_the_profile_when_all_its_hosts_need_it() {
    let src = fixture("power-profile.toml").replace("power = \"balanced\"\n", "");
    let out = fixed(&src, "power-profile", FixSafety::Safe);
    assert!(
        section(&out, "[profiles.r740]").contains("power = \"max-performance\""),
        "{out}"
    );
    assert!(!section(&out, "[hosts.hv1]").contains("power"), "{out}");
    assert!(!section(&out, "[hosts.hv2]").contains("power"), "{out}");
    assert!(section(&out, "[hosts.hv3]").contains("power = \"max-performance\""));
    assert_eq!(out.matches("power = ").count(), 2, "{out}");
}

/// Issue 35: `rdma-without-dcb` on a switch without PFC gives it the PFC
/// priority and ETS table the hosts' SMB Direct policy uses (here tor-a's
/// and the hosts' `pfc = [3]`, `ets = { 3 = 50, 7 = 2 }`); the finding on
/// host `hci03`, whose DCB enables no PFC, has no fix and stays.
#[test]
fn rdma_without_dcb_gives_the_switch_the_hosts_pfc_and_ets() {
    let src = fixture("rdma-without-dcb.toml");
    let settings = CheckSettings::default();
    let file = SourceFile::new("d.toml", src.clone());
    let before = check_source(&file, None, &settings).0;
    let out = fix_source(&file, None, &settings, FixMode::Unsafe);
    assert!(
        out.applied
            .iter()
            .any(|f| f.rule == "rdma-without-dcb" && f.element == "switches.tor-b"),
        "{:?}",
        out.not_applied
    );
    assert!(
        section(&out.text, "[switches.tor-b]")
            .contains("dcb = { pfc = [3], ets = { 3 = 50, 7 = 2 } }"),
        "{}",
        out.text
    );
    let after = check_source(
        &SourceFile::new("d.toml", out.text.clone()),
        None,
        &settings,
    )
    .0;
    let left: Vec<String> = after
        .iter()
        .filter(|d| d.rule == "rdma-without-dcb")
        .map(|d| d.element())
        .collect();
    assert_eq!(left, ["hosts.hci03"]);
    let (b, a) = (keys(&before), keys(&after));
    assert!(a.keys().all(|k| b.contains_key(k)), "a finding appeared");
}
