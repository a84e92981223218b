use super::*;
use netlint_model::{load, SourceFile};

fn design(src: &str) -> Design {
    let l = load(&SourceFile::new("t.toml", src));
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    l.design.unwrap()
}

const BASE: &str = r#"
[design]
name = "t"
platform = "windows-server-2022"

[networks.mgmt]
role = "management"
vlan = 10

[networks.smb1]
role = "storage"
vlan = 711
protocol = "smb"

[switches.tor-a]
vlans = [10, 711]
stp = { mode = "rstp", priority = 4096 }

[switches.tor-b]
vlans = [10, 711]
stp = { mode = "rstp" }

[[links]]
a = "tor-a"
b = "tor-b"
speed = "100G"
members = 2
lag = "lacp"
vlans = [10, 711]

[hosts.hv1.nics.A]
speed = "25G"
switch = "tor-a"
port = "Ethernet1/1"
networks = ["mgmt", "smb1"]

[hosts.hv1.nics.B]
speed = "25G"
switch = "tor-b"
port = "Ethernet1/1"
networks = ["mgmt", "smb1"]
"#;

#[test]
fn a_design_against_itself_has_no_difference() {
    let d = design(BASE);
    let r = drift(&d, &d);
    assert!(r.differences.is_empty(), "{:#?}", r.differences);
    assert_eq!(r.matching.switches.to_built.len(), 2);
    assert_eq!(r.matching.links.to_built.len(), 1);
    assert_eq!(r.matching.hosts.to_built.len(), 1);
}

#[test]
fn a_vlan_missing_from_the_built_trunk_is_one_difference_at_both_lines() {
    let built_src = BASE.replacen("vlans = [10, 711]\n\n[hosts", "vlans = [10]\n\n[hosts", 1);
    let (d, b) = (design(BASE), design(&built_src));
    let r = drift(&d, &b);
    assert_eq!(r.differences.len(), 1, "{:#?}", r.differences);
    let x = &r.differences[0];
    assert_eq!(x.field, Field::Vlan(711));
    assert_eq!(x.value.design, Value::Bool(true));
    assert_eq!(x.value.built, Value::Bool(false));
    let line = |src: &str, s: Option<Span>| src[s.unwrap().start..s.unwrap().end].to_string();
    assert_eq!(line(BASE, x.span.design), "[10, 711]");
    assert_eq!(line(&built_src, x.span.built), "[10]");
}

#[test]
fn renamed_elements_are_matched_by_what_they_connect() {
    // The host, the switch and the link carry other names as built.
    let built_src = BASE
        .replace("[hosts.hv1.", "[hosts.HV-01.")
        .replace("tor-b", "TOR-B-real")
        .replace("[[links]]\n", "[[links]]\nname = \"po10\"\n");
    let (d, b) = (design(BASE), design(&built_src));
    let r = drift(&d, &b);
    assert!(r.differences.is_empty(), "{:#?}", r.differences);
    assert_eq!(r.matching.hosts.by(HostId(0)), Some(MatchedBy::Connections));
    assert_eq!(
        r.matching.switches.by(SwitchId(1)),
        Some(MatchedBy::Connections)
    );
    assert_eq!(r.matching.links.by(LinkId(0)), Some(MatchedBy::Connections));
}

/// Issue 33: `TOR-B` as built is the design's `tor-b` by name, whatever
/// it connects (here nothing: no link, no host), and `HV1` is `hv1`.
#[test]
fn names_that_differ_only_in_case_are_matched_by_name() {
    let built_src = BASE
        .replace("[switches.tor-b]", "[switches.TOR-B]")
        .replace("switch = \"tor-b\"", "switch = \"TOR-B\"")
        .replace("b = \"tor-b\"", "b = \"TOR-B\"")
        .replace("[hosts.hv1.", "[hosts.HV1.");
    let (d, b) = (design(BASE), design(&built_src));
    let r = drift(&d, &b);
    assert!(r.differences.is_empty(), "{:#?}", r.differences);
    assert_eq!(r.matching.switches.by(SwitchId(1)), Some(MatchedBy::Name));
    assert_eq!(r.matching.hosts.by(HostId(0)), Some(MatchedBy::Name));
    // Two as-built switches that differ only in case match neither.
    let two = "[design]\nname = \"t\"\n[switches.TOR-B]\n[switches.Tor-b]\n";
    let one = "[design]\nname = \"t\"\n[switches.tor-b]\n";
    let r = drift(&design(one), &design(two));
    assert_eq!(r.matching.switches.to_built.len(), 0);
}

#[test]
fn a_nic_on_another_port_is_a_cabling_difference() {
    let built_src = BASE.replacen(
        "switch = \"tor-b\"\nport = \"Ethernet1/1\"",
        "switch = \"tor-b\"\nport = \"Ethernet1/7\"",
        1,
    );
    let r = drift(&design(BASE), &design(&built_src));
    assert_eq!(r.differences.len(), 1, "{:#?}", r.differences);
    assert_eq!(r.differences[0].field, Field::Cabling);
    assert_eq!(
        r.differences[0].value.built,
        Value::Attach(Some(SwitchId(1)), Some("Ethernet1/7".into()))
    );
}

#[test]
fn missing_and_extra_elements_are_reported_on_their_side() {
    let built_src = format!(
        "{}\n[switches.tor-c]\n",
        BASE.replace("[hosts.hv1.nics.B]\nspeed = \"25G\"\nswitch = \"tor-b\"\nport = \"Ethernet1/1\"\nnetworks = [\"mgmt\", \"smb1\"]\n", "")
    );
    let r = drift(&design(BASE), &design(&built_src));
    let fields: Vec<(At, Field)> = r.differences.iter().map(|x| (x.at, x.field)).collect();
    assert!(fields.contains(&(
        At::Switch(Two {
            design: None,
            built: Some(SwitchId(2))
        }),
        Field::Present
    )));
    assert!(fields.contains(&(
        At::Nic {
            host: Two {
                design: HostId(0),
                built: HostId(0)
            },
            nic: Two {
                design: Some(NicIdx(1)),
                built: None
            }
        },
        Field::Present
    )));
    assert_eq!(fields.len(), 2, "{fields:#?}");
}

#[test]
fn descriptions_and_comments_are_not_differences() {
    let built_src = BASE
        .replace(
            "[switches.tor-a]\n",
            "# racked 2026-11-02\n[switches.tor-a]\nmodel = \"N9K-C93180YC-FX\"\n",
        )
        .replace("[design]\nname = \"t\"", "[design]\nname = \"as-built\"");
    let r = drift(&design(BASE), &design(&built_src));
    assert!(r.differences.is_empty(), "{:#?}", r.differences);
}

/// The default VLAN exists on every switch: a built switch whose list
/// names it, where the design's does not, is no difference; the other way
/// round neither.
#[test]
fn the_default_vlan_defined_on_one_side_only_is_no_difference() {
    let built_src = BASE.replacen(
        "[switches.tor-a]\nvlans = [10, 711]",
        "[switches.tor-a]\nvlans = [1, 10, 711]",
        1,
    );
    assert_ne!(built_src, BASE);
    let (d, b) = (design(BASE), design(&built_src));
    let r = drift(&d, &b);
    assert!(r.differences.is_empty(), "{:#?}", r.differences);
    let r = drift(&b, &d);
    assert!(r.differences.is_empty(), "{:#?}", r.differences);
    // Another VLAN defined as built only still is one.
    let other = BASE.replacen(
        "[switches.tor-a]\nvlans = [10, 711]",
        "[switches.tor-a]\nvlans = [10, 20, 711]",
        1,
    );
    let r = drift(&d, &design(&other));
    assert_eq!(r.differences.len(), 1, "{:#?}", r.differences);
    assert_eq!(r.differences[0].field, Field::Vlan(20));
}

/// A bundle whose mode the as-built side does not state (the format's
/// default fills it) is not compared; a stated one is.
#[test]
fn an_unstated_lag_mode_is_not_compared() {
    let static_design = BASE.replacen("lag = \"lacp\"", "lag = \"static\"", 1);
    let unstated = BASE.replacen("lag = \"lacp\"\n", "", 1);
    assert_ne!(unstated, BASE);
    let d = design(&static_design);
    let r = drift(&d, &design(&unstated));
    assert!(r.differences.is_empty(), "{:#?}", r.differences);
    let r = drift(&d, &design(BASE));
    assert_eq!(r.differences.len(), 1, "{:#?}", r.differences);
    assert_eq!(r.differences[0].field, Field::LagMode);
}

/// Host ports' edge and BPDU guard, switch-wide and per port, where both
/// sides state them.
#[test]
fn host_port_edge_and_bpdu_guard_are_compared_where_both_sides_state_them() {
    let with = BASE.replacen(
        "[switches.tor-b]\nvlans = [10, 711]",
        "[switches.tor-b]\nvlans = [10, 711]\nhost_ports = { edge = true, bpdu_guard = true }",
        1,
    );
    assert_ne!(with, BASE);
    let d = design(&with);
    let no_edge = with.replacen(
        "edge = true, bpdu_guard = true",
        "edge = false, bpdu_guard = true",
        1,
    );
    let r = drift(&d, &design(&no_edge));
    assert_eq!(r.differences.len(), 1, "{:#?}", r.differences);
    assert_eq!(r.differences[0].field, Field::Edge);
    let no_guard = with.replacen(
        "edge = true, bpdu_guard = true",
        "edge = true, bpdu_guard = false",
        1,
    );
    let r = drift(&d, &design(&no_guard));
    assert_eq!(r.differences.len(), 1, "{:#?}", r.differences);
    assert_eq!(r.differences[0].field, Field::BpduGuard);
    // An as-built side that does not state them is not compared.
    let r = drift(&d, &design(BASE));
    assert!(r.differences.is_empty(), "{:#?}", r.differences);
    // A port's own setting against the switch-wide value in force.
    let port = with.replacen(
        "\n[[links]]",
        "\n[switches.tor-b.ports.\"Ethernet1/1\"]\nedge = false\n\n[[links]]",
        1,
    );
    let d2 = design(&with.replacen(
        "\n[[links]]",
        "\n[switches.tor-b.ports.\"Ethernet1/1\"]\nvlans = [10, 711]\n\n[[links]]",
        1,
    ));
    let r = drift(
        &d2,
        &design(&port.replacen("edge = false\n", "edge = false\nvlans = [10, 711]\n", 1)),
    );
    assert_eq!(r.differences.len(), 1, "{:#?}", r.differences);
    assert_eq!(r.differences[0].field, Field::Edge);
}

/// A trunk carries only the VLANs its switches define: an as-built trunk
/// that allows every VLAN (an EOS trunk without an allowed list, imported
/// as 1-4094) between switches that define the design's VLANs is no
/// difference; one whose switch defines one more VLAN carries that one.
#[test]
fn a_trunk_allowing_every_vlan_carries_only_those_its_switches_define() {
    let all = BASE.replacen(
        "vlans = [10, 711]\n\n[hosts",
        "vlans = [\"1-4094\"]\n\n[hosts",
        1,
    );
    assert_ne!(all, BASE);
    let d = design(BASE);
    let r = drift(&d, &design(&all));
    assert!(r.differences.is_empty(), "{:#?}", r.differences);
    let more = all
        .replacen(
            "[switches.tor-a]\nvlans = [10, 711]",
            "[switches.tor-a]\nvlans = [10, 20, 711]",
            1,
        )
        .replacen(
            "[switches.tor-b]\nvlans = [10, 711]",
            "[switches.tor-b]\nvlans = [10, 20, 711]",
            1,
        );
    let r = drift(&d, &design(&more));
    let fields: Vec<_> = r.differences.iter().map(|x| (x.at, x.field)).collect();
    assert!(
        r.differences
            .iter()
            .any(|x| matches!(x.at, At::Link(_)) && x.field == Field::Vlan(20)),
        "{fields:#?}"
    );
}

/// Port names are compared as interface names (docs/import.md): OS10
/// prints `ethernet1/1/2`, NX-OS abbreviations are `Eth1/1`, and a design
/// may write `Ethernet1/1`; all name the same port (issue 33 item 6).
#[test]
fn port_names_match_across_case_and_abbreviation() {
    let port =
        |src: &str| format!("{src}\n[switches.tor-a.ports.\"Ethernet1/1\"]\nvlans = [10, 711]\n");
    let d = design(&port(BASE));
    // The as-built spells each port as OS10 and NX-OS print them.
    let built = port(BASE)
        .replace("ports.\"Ethernet1/1\"", "ports.\"ethernet1/1\"")
        .replace("port = \"Ethernet1/1\"", "port = \"Eth1/1\"");
    assert_ne!(built, port(BASE));
    let r = drift(&d, &design(&built));
    assert!(r.differences.is_empty(), "{:#?}", r.differences);
    let matched: usize = r.matching.ports.values().map(|p| p.to_built.len()).sum();
    assert_eq!(matched, 1);
    // A VLAN taken off the lower-case port is found there.
    let pruned = built.replacen(
        "ports.\"ethernet1/1\"]\nvlans = [10, 711]",
        "ports.\"ethernet1/1\"]\nvlans = [10]",
        1,
    );
    assert_ne!(pruned, built);
    let r = drift(&d, &design(&pruned));
    assert!(
        r.differences
            .iter()
            .any(|x| matches!(x.at, At::Port { .. }) && x.field == Field::Vlan(711)),
        "{:#?}",
        r.differences
    );
}

/// A port with a table as built only (a design without port tables, as
/// `import` writes one where every host trunk carries every VLAN) is
/// compared with what the design's switch gives a port: a host trunk that
/// drops the management VLAN is a difference there; pruning a VLAN no
/// network uses (an MLAG peer VLAN) is none (issue 33 item 6).
#[test]
fn a_port_configured_as_built_only_is_compared_with_the_switch_defaults() {
    let peer_vlan =
        |src: &str| src.replace("vlans = [10, 711]\nstp", "vlans = [10, 711, 4094]\nstp");
    let d = design(&peer_vlan(BASE));
    let pruned = format!(
        "{}\n[switches.tor-a.ports.\"Ethernet1/1\"]\nvlans = [10, 711]\n",
        peer_vlan(BASE)
    );
    let r = drift(&d, &design(&pruned));
    assert!(r.differences.is_empty(), "{:#?}", r.differences);
    let dropped = format!(
        "{}\n[switches.tor-a.ports.\"Ethernet1/1\"]\nvlans = [711]\nmtu = 9216\n",
        peer_vlan(BASE)
    );
    let r = drift(&d, &design(&dropped));
    let found: Vec<_> = r.differences.iter().map(|x| (x.at, x.field)).collect();
    let port = At::Port {
        switch: Two {
            design: SwitchId(0),
            built: SwitchId(0),
        },
        port: Two {
            design: None,
            built: Some(0),
        },
    };
    assert!(found.contains(&(port, Field::Vlan(10))), "{found:#?}");
    assert!(found.contains(&(port, Field::Mtu)), "{found:#?}");
    assert!(!found.contains(&(port, Field::Vlan(4094))), "{found:#?}");
}

/// A design without hosts (a brownfield design `netlint import` wrote
/// from the configs alone, whose host trunks carried every VLAN the
/// switch defines, so it wrote no port tables): a host trunk as built
/// that drops a VLAN one of its networks uses is a difference, since the
/// design gives every port each VLAN its switch defines; a VLAN no
/// network uses is none.
#[test]
fn a_trunk_pruned_against_a_design_without_hosts_is_compared_on_the_networks_vlans() {
    let fabric = |src: &str| {
        let cut = src.find("[hosts.hv1.nics.A]").unwrap();
        src[..cut].replace("vlans = [10, 711]\nstp", "vlans = [10, 711, 4094]\nstp")
    };
    let d = design(&fabric(BASE));
    let dropped = format!(
        "{}\n[switches.tor-a.ports.\"Ethernet1/1\"]\nvlans = [711]\n",
        fabric(BASE)
    );
    let r = drift(&d, &design(&dropped));
    let found: Vec<_> = r.differences.iter().map(|x| (x.at, x.field)).collect();
    let port = At::Port {
        switch: Two {
            design: SwitchId(0),
            built: SwitchId(0),
        },
        port: Two {
            design: None,
            built: Some(0),
        },
    };
    assert_eq!(found, vec![(port, Field::Vlan(10))], "{found:#?}");
    // Pruned of the VLAN no network uses only: faithful.
    let pruned = format!(
        "{}\n[switches.tor-a.ports.\"Ethernet1/1\"]\nvlans = [10, 711]\n",
        fabric(BASE)
    );
    let r = drift(&d, &design(&pruned));
    assert!(r.differences.is_empty(), "{:#?}", r.differences);
}

/// PVST+ on both sides: priorities are compared per VLAN a network uses
/// (and VLAN 1), so a switch at the default whose per-VLAN lines set the
/// design's priority in every such VLAN is no difference; every VLAN
/// differing the same way is one difference of the switch's priority, and
/// otherwise each VLAN that differs is one.
#[test]
fn pvst_priorities_are_compared_per_vlan() {
    let pvst = BASE.replacen(
        "stp = { mode = \"rstp\", priority = 4096 }",
        "stp = { mode = \"rapid-pvst\", priority = 8192 }",
        1,
    );
    assert_ne!(pvst, BASE);
    let d = design(&pvst);
    let per_vlan = pvst.replacen(
        "stp = { mode = \"rapid-pvst\", priority = 8192 }",
        "stp = { mode = \"rapid-pvst\", vlan_priority = { \"1,10,711\" = 8192, \"999\" = 32768 } }",
        1,
    );
    let r = drift(&d, &design(&per_vlan));
    assert!(r.differences.is_empty(), "{:#?}", r.differences);
    let partly = pvst.replacen(
        "stp = { mode = \"rapid-pvst\", priority = 8192 }",
        "stp = { mode = \"rapid-pvst\", vlan_priority = { \"10\" = 8192 } }",
        1,
    );
    let r = drift(&d, &design(&partly));
    let fields: Vec<Field> = r.differences.iter().map(|x| x.field).collect();
    assert_eq!(
        fields,
        [Field::VlanPriority(1), Field::VlanPriority(711)],
        "{:#?}",
        r.differences
    );
    let everywhere = pvst.replacen(
        "stp = { mode = \"rapid-pvst\", priority = 8192 }",
        "stp = { mode = \"rapid-pvst\", priority = 4096 }",
        1,
    );
    let r = drift(&d, &design(&everywhere));
    let fields: Vec<Field> = r.differences.iter().map(|x| x.field).collect();
    assert_eq!(fields, [Field::StpPriority], "{:#?}", r.differences);
    let mixed = pvst.replacen(
        "stp = { mode = \"rapid-pvst\", priority = 8192 }",
        "stp = { mode = \"rapid-pvst\", vlan_priority = { \"10\" = 4096, \"1,711\" = 8192 } }",
        1,
    );
    let r = drift(&d, &design(&mixed));
    let fields: Vec<Field> = r.differences.iter().map(|x| x.field).collect();
    assert_eq!(fields, [Field::VlanPriority(10)], "{:#?}", r.differences);
}

/// Issue 32 item 3: a DCBX bit the as-built side does not know is not
/// compared (no "willing differs" against a collection that lacks it).
#[test]
fn a_willing_bit_not_known_as_built_is_not_compared() {
    let with = |w: &str| format!("{BASE}\n[hosts.hv1.dcb]\nwilling = {w}\npfc = [3]\n");
    let d = design(&with("false"));
    let r = drift(&d, &design(&with("\"unknown\"")));
    assert!(r.differences.is_empty(), "{:#?}", r.differences);
    // Known on both sides, a difference is one.
    let r = drift(&d, &design(&with("true")));
    let fields: Vec<Field> = r.differences.iter().map(|x| x.field).collect();
    assert_eq!(fields, [Field::DcbWilling], "{:#?}", r.differences);
}

/// Two trunks between the same switches, no ports stated on either side
/// and other names as built (an import names them by port-channel): each
/// is paired with the one like it, so nothing is missing or extra.
#[test]
fn parallel_links_without_ports_pair_by_what_they_are() {
    let d = design(&BASE.replace(
        "vlans = [10, 711]\n\n[hosts",
        "vlans = [10, 711]\n\n[[links]]\nname = \"backup\"\na = \"tor-a\"\nb = \"tor-b\"\nspeed = \"1G\"\nmembers = 8\n\n[hosts",
    ));
    // As built: the 1G bundle first, both named by port-channel, and the
    // 100G one no longer allowing VLAN 10 (a difference on the paired link).
    let b = design(&BASE.replace(
        "[[links]]\na = \"tor-a\"\nb = \"tor-b\"\nspeed = \"100G\"\nmembers = 2\nlag = \"lacp\"\nvlans = [10, 711]",
        "[[links]]\nname = \"po2\"\na = \"tor-a\"\nb = \"tor-b\"\nspeed = \"1G\"\nmembers = 8\n\n[[links]]\nname = \"po1\"\na = \"tor-a\"\nb = \"tor-b\"\nspeed = \"100G\"\nmembers = 2\nlag = \"lacp\"\nvlans = [711]",
    ));
    let r = drift(&d, &b);
    assert_eq!(r.matching.links.built(LinkId(0)), Some(LinkId(1)));
    assert_eq!(r.matching.links.built(LinkId(1)), Some(LinkId(0)));
    assert!(
        r.differences.iter().all(|x| x.field != Field::Present),
        "{:#?}",
        r.differences
    );
    assert!(r.differences.iter().any(|x| x.field == Field::Vlan(10)
        && x.at
            == At::Link(Two {
                design: Some(LinkId(0)),
                built: Some(LinkId(1))
            })));
}

/// Two identical trunks on each side are interchangeable: paired in order.
#[test]
fn identical_parallel_links_pair_in_order() {
    let two = "[[links]]\nname = \"NAME1\"\na = \"tor-a\"\nb = \"tor-b\"\nspeed = \"10G\"\n\n[[links]]\nname = \"NAME2\"\na = \"tor-a\"\nb = \"tor-b\"\nspeed = \"10G\"\n\n[hosts";
    let d = design(&BASE.replacen("[hosts", &two.replace("NAME", "fibre-"), 1));
    let b = design(&BASE.replacen("[hosts", &two.replace("NAME", "Ethernet1/"), 1));
    let r = drift(&d, &b);
    assert_eq!(r.matching.links.to_built.len(), 3);
    assert!(r.differences.is_empty(), "{:#?}", r.differences);
    // Read back listing the switch's VLANs (OS10 writes a trunk of every
    // VLAN so): still alike among themselves, so paired in order.
    let listed = two
        .replace("NAME", "Ethernet1/")
        .replace("speed = \"10G\"\n", "speed = \"10G\"\nvlans = [10, 711]\n");
    let b = design(&BASE.replacen("[hosts", &listed, 1));
    let r = drift(&d, &b);
    assert_eq!(r.matching.links.to_built.len(), 3, "{:#?}", r.differences);
}

/// PVST+: a switch's priority in a VLAN it does not define is no value
/// (a core that carries only the management VLAN, configured with its
/// priority on that VLAN alone, as built).
#[test]
fn pvst_priority_is_compared_only_in_vlans_the_switch_defines() {
    let pvst = |prio: &str| {
        BASE.replace("stp = { mode = \"rstp\", priority = 4096 }", prio)
            .replace(
                "stp = { mode = \"rstp\" }",
                "stp = { mode = \"rapid-pvst\" }",
            )
            .replace(
                "[switches.tor-a]\nvlans = [10, 711]",
                "[switches.tor-a]\nvlans = [10]",
            )
    };
    let d = design(&pvst("stp = { mode = \"rapid-pvst\", priority = 4096 }"));
    let b = design(&pvst(
        "stp = { mode = \"rapid-pvst\", vlan_priority = { \"1,10\" = 4096 } }",
    ));
    let r = drift(&d, &b);
    assert!(r.differences.is_empty(), "{:#?}", r.differences);
    // In a VLAN it does define, the same difference is one.
    let b = design(&pvst(
        "stp = { mode = \"rapid-pvst\", vlan_priority = { \"1\" = 4096 } }",
    ));
    let r = drift(&d, &b);
    assert!(
        r.differences
            .iter()
            .any(|x| x.field == Field::VlanPriority(10)),
        "{:#?}",
        r.differences
    );
}

/// RSTP in the design, MST with every VLAN in the IST as built (what
/// NX-OS runs for it): the same trees healthy and after each failure. A
/// priority that moves the root is another tree.
#[test]
fn trees_compare_by_root_and_forwarding_links_in_every_state() {
    let three = BASE.replace(
        "[hosts.hv1.nics.A]",
        "[switches.core]\nvlans = [10, 711]\nstp = { mode = \"rstp\", priority = 8192 }\n\n[[links]]\na = \"core\"\nb = \"tor-a\"\nspeed = \"10G\"\n\n[[links]]\na = \"core\"\nb = \"tor-b\"\nspeed = \"10G\"\n\n[hosts.hv1.nics.A]",
    );
    let d = design(&three);
    let mst = design(&three.replace("mode = \"rstp\"", "mode = \"mstp\""));
    let r = drift(&d, &mst);
    assert!(r.differences.iter().any(|x| x.field == Field::StpMode));
    let t = trees::compare_trees(&d, &mst, &r.matching);
    assert_eq!(t.differs, None, "{t:?}");
    // Healthy, three switches down, three links down.
    assert_eq!((t.states, t.every_failure), (7, true));
    // The core at 0 as built: the root moves, healthy.
    let moved = design(&three.replace("priority = 8192", "priority = 0"));
    let r = drift(&d, &moved);
    let t = trees::compare_trees(&d, &moved, &r.matching);
    assert_eq!(
        t.differs.map(|x| x.state),
        Some(trees::TreeState::Healthy),
        "{t:?}"
    );
    // tor-b's priority only decides who is root when tor-a is down: the
    // trees differ in that state alone.
    // With a fourth switch cabled to the core and tor-b, the root that
    // tor-a's failure leaves decides which of their links blocks.
    let zero = three
        .replace(
            "stp = { mode = \"rstp\", priority = 4096 }",
            "stp = { mode = \"rstp\", priority = 0 }",
        )
        .replace(
            "[hosts.hv1.nics.A]",
            "[switches.acc]\nvlans = [10, 711]\nstp = { mode = \"rstp\" }\n\n[[links]]\na = \"core\"\nb = \"acc\"\nspeed = \"10G\"\n\n[[links]]\na = \"tor-b\"\nb = \"acc\"\nspeed = \"10G\"\n\n[hosts.hv1.nics.A]",
        );
    let d = design(&zero);
    let backup = design(&zero.replace(
        "stp = { mode = \"rstp\" }",
        "stp = { mode = \"rstp\", priority = 4096 }",
    ));
    let r = drift(&d, &backup);
    let t = trees::compare_trees(&d, &backup, &r.matching);
    assert!(
        matches!(
            t.differs.map(|x| x.state),
            Some(trees::TreeState::SwitchDown(_))
        ),
        "{t:?}"
    );
}

/// An MLAG pair presents its best priority; with a peer down the other
/// goes on with its own. A peer's priority that only tells when its twin
/// is down is compared in that state.
#[test]
fn an_mlag_peer_down_leaves_the_priority_of_the_other() {
    let src = BASE
        .replace(
            "[switches.tor-a]\n",
            "[switches.tor-a]\nmlag = \"m\"\n",
        )
        .replace(
            "[switches.tor-b]\nvlans = [10, 711]\nstp = { mode = \"rstp\" }",
            "[switches.tor-b]\nmlag = \"m\"\nvlans = [10, 711]\nstp = { mode = \"rstp\", priority = 12288 }",
        )
        .replace("members = 2\nlag = \"lacp\"", "members = 2\nkind = \"peer-link\"")
        .replace(
            "[hosts.hv1.nics.A]",
            "[switches.core]\nvlans = [10, 711]\nstp = { mode = \"rstp\", priority = 8192 }\n\n[[links]]\na = \"core\"\nb = [\"tor-a\", \"tor-b\"]\nspeed = \"10G\"\nmembers = 2\n\n[switches.acc]\nvlans = [10, 711]\nstp = { mode = \"rstp\" }\n\n[[links]]\na = \"acc\"\nb = [\"tor-a\", \"tor-b\"]\nspeed = \"10G\"\nmembers = 2\n\n[[links]]\na = \"acc\"\nb = \"core\"\nspeed = \"10G\"\n\n[hosts.hv1.nics.A]",
        );
    let d = design(&src);
    let b = design(&src.replace("priority = 12288", "priority = 4096"));
    let r = drift(&d, &b);
    let t = trees::compare_trees(&d, &b, &r.matching);
    assert_eq!(
        t.differs.map(|x| x.state),
        Some(trees::TreeState::SwitchDown(SwitchId(0))),
        "{t:?}"
    );
}

/// A link's port cost is compared where either side states one.
#[test]
fn a_links_port_cost_is_compared_where_stated() {
    let d = design(&BASE.replace(
        "vlans = [10, 711]\n\n[hosts",
        "vlans = [10, 711]\nstp_cost = 1500\n\n[hosts",
    ));
    let r = drift(&d, &design(BASE));
    let c: Vec<_> = r
        .differences
        .iter()
        .filter(|x| x.field == Field::StpCost)
        .collect();
    assert_eq!(c.len(), 1, "{:#?}", r.differences);
    assert_eq!(
        (c[0].value.design.clone(), c[0].value.built.clone()),
        (Value::Num(1500), Value::Unset)
    );
    assert!(drift(&d, &d).differences.is_empty());
}

/// Rapid PVST+ with spanning tree off in every VLAN the switch carries
/// runs no spanning tree: as NX-OS and IOS write mode `none` (`no
/// spanning-tree vlan LIST`), no difference from a design's `none`.
#[test]
fn rapid_pvst_off_in_every_vlan_it_carries_is_mode_none() {
    let none = BASE
        .replace(
            "stp = { mode = \"rstp\", priority = 4096 }",
            "stp = { mode = \"none\" }",
        )
        .replace("stp = { mode = \"rstp\" }", "stp = { mode = \"none\" }");
    let off = |list: &str| {
        BASE.replace(
            "stp = { mode = \"rstp\", priority = 4096 }",
            &format!("stp = {{ mode = \"rapid-pvst\", disabled_vlans = {list} }}"),
        )
        .replace(
            "stp = { mode = \"rstp\" }",
            &format!("stp = {{ mode = \"rapid-pvst\", disabled_vlans = {list} }}"),
        )
    };
    let (d, all, some) = (
        design(&none),
        design(&off("[10, 711]")),
        design(&off("[10]")),
    );
    let tor = SwitchId(0);
    assert_eq!(
        fabric::effective_stp_mode(&all, all.switch(tor)),
        StpMode::None
    );
    assert_eq!(
        fabric::effective_stp_mode(&some, some.switch(tor)),
        StpMode::RapidPvst
    );
    assert_eq!(fabric::effective_stp_mode(&d, d.switch(tor)), StpMode::None);
    // Against the design: no difference; with a VLAN still running a
    // tree, the mode is one.
    let r = drift(&d, &all);
    assert!(r.differences.is_empty(), "{:#?}", r.differences);
    let r = drift(&d, &some);
    assert!(
        r.differences.iter().any(|x| x.field == Field::StpMode),
        "{:#?}",
        r.differences
    );
    // And the other way round: the design's every-VLAN-off is `none`.
    let r = drift(&all, &d);
    assert!(r.differences.is_empty(), "{:#?}", r.differences);
}

const STACK_HEAD: &str =
    "[design]\nname = \"t\"\n[networks.mgmt]\nrole = \"management\"\nvlan = 10\n";

/// A Catalyst stack read back from its one config: members `s1-1`, `s1-2`
/// sharing `stack = "s1"`, no stacking cable (the config has none). The
/// design's members pair with them in order, and its stacking cable is
/// matched against the stack: no difference. A stack whose as-built side
/// lists stacking cables, but not this one, still reports it missing.
#[test]
fn a_stacking_cable_no_config_shows_is_the_stack_not_a_missing_link() {
    let d = design(&format!(
        "{STACK_HEAD}[switches.tor-a]\nstack = \"s1\"\n[switches.tor-b]\nstack = \"s1\"\n[[links]]\na = \"tor-a\"\nb = \"tor-b\"\nkind = \"stack\"\n"
    ));
    let b = design(&format!(
        "{STACK_HEAD}[switches.s1-1]\nstack = \"s1\"\n[switches.s1-2]\nstack = \"s1\"\n"
    ));
    let r = drift(&d, &b);
    assert!(r.differences.is_empty(), "{:#?}", r.differences);
    assert_eq!(r.matching.switches.built(SwitchId(0)), Some(SwitchId(0)));
    assert_eq!(r.matching.switches.built(SwitchId(1)), Some(SwitchId(1)));
    assert!(fabric::stacking_cable_not_in_configs(
        &b,
        &r.matching,
        d.link(LinkId(0))
    ));

    // Three members as built, one stacking cable listed (`s1-2`--`s1-3`):
    // the design's `tor-a`--`tor-b` cable is then missing.
    let d3 = design(&format!(
        "{STACK_HEAD}[switches.tor-a]\nstack = \"s1\"\n[switches.tor-b]\nstack = \"s1\"\n[switches.tor-c]\nstack = \"s1\"\n[[links]]\na = \"tor-a\"\nb = \"tor-b\"\nkind = \"stack\"\n"
    ));
    let b3 = design(&format!(
        "{STACK_HEAD}[switches.s1-1]\nstack = \"s1\"\n[switches.s1-2]\nstack = \"s1\"\n[switches.s1-3]\nstack = \"s1\"\n[[links]]\na = \"s1-2\"\nb = \"s1-3\"\nkind = \"stack\"\n"
    ));
    let r = drift(&d3, &b3);
    assert!(!fabric::stacking_cable_not_in_configs(
        &b3,
        &r.matching,
        d3.link(LinkId(0))
    ));
    assert!(r.differences.iter().any(|x| x.field == Field::Present
        && x.at
            == At::Link(Two {
                design: Some(LinkId(0)),
                built: None
            })));
}
