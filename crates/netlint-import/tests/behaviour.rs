//! What the importer reads from single commands and captures: each test
//! names the behaviour and fails on a reader without it.

use netlint_import::*;

fn config(text: &str, vendor: Vendor) -> SwitchConfig {
    match parse("t.cfg", text, Some(Kind::Config(vendor))).unwrap() {
        Document::Config(c) => *c,
        other => panic!("{other:?}"),
    }
}

fn port<'a>(c: &'a SwitchConfig, name: &str) -> &'a Interface {
    c.interface(name)
        .unwrap_or_else(|| panic!("no {name} in {:?}", c.interfaces))
}

#[test]
fn allowed_vlans_add_remove_except_and_ranges() {
    let c = config(
        "interface Ethernet1/1\n  switchport mode trunk\n  switchport trunk allowed vlan 10-20,30\n  switchport trunk allowed vlan add 40-42\n  switchport trunk allowed vlan remove 15-20\n\
         interface Ethernet1/2\n  switchport mode trunk\n  switchport trunk allowed vlan except 1-99\n\
         interface Ethernet1/3\n  switchport mode trunk\n  switchport trunk allowed vlan none\n  switchport trunk allowed vlan add 5\n\
         interface Ethernet1/4\n  switchport mode trunk\n  switchport trunk allowed vlan remove 1\n",
        Vendor::NxOs,
    );
    let a = port(&c, "Eth1/1").allowed_vlans.unwrap();
    assert_eq!(vlans::switch_list(&a.value).to_string(), "10-14,30,40-42");
    assert_eq!(a.line(), Some(5));
    assert_eq!(port(&c, "Eth1/1").allowed_lines, vec![3, 4, 5]);
    assert_eq!(
        vlans::switch_list(&port(&c, "Eth1/2").allowed_vlans.unwrap().value).to_string(),
        "100-4094"
    );
    assert_eq!(
        vlans::switch_list(&port(&c, "Eth1/3").allowed_vlans.unwrap().value).to_string(),
        "5"
    );
    // `remove` from the implicit "all" of a fresh trunk.
    assert_eq!(
        vlans::switch_list(&port(&c, "Eth1/4").allowed_vlans.unwrap().value).to_string(),
        "2-4094"
    );
}

#[test]
fn a_trunk_without_a_list_carries_all_vlans_except_on_os10() {
    let c = config(
        "interface Ethernet1/1\n  switchport mode trunk\n",
        Vendor::NxOs,
    );
    let a = port(&c, "Ethernet1/1").allowed_vlans.unwrap();
    assert_eq!(a.value, VlanSet::all());
    assert!(a.is_default());
    let c = config(
        "interface ethernet1/1/1\n switchport mode trunk\n switchport access vlan 7\n",
        Vendor::Os10,
    );
    let p = port(&c, "ethernet1/1/1");
    assert_eq!(p.allowed_vlans.unwrap().value, VlanSet::EMPTY);
    // OS10 writes a trunk's untagged VLAN as `switchport access vlan`.
    assert_eq!(p.native_vlan.unwrap().value, 7);
    assert_eq!(p.native_vlan.unwrap().line(), Some(3));
}

#[test]
fn os10_allowed_lines_add_and_no_removes() {
    let c = config(
        "interface ethernet1/1/1\n switchport mode trunk\n switchport trunk allowed vlan 10\n switchport trunk allowed vlan 20-22\n no switchport trunk allowed vlan 21\n",
        Vendor::Os10,
    );
    assert_eq!(
        vlans::switch_list(&port(&c, "e1/1/1").allowed_vlans.unwrap().value).to_string(),
        "10,20,22"
    );
}

#[test]
fn interface_names_match_across_spelling() {
    let c = config(
        "interface Ethernet 1/49\n  switchport mode trunk\n",
        Vendor::NxOs,
    );
    let p = port(&c, "Eth1/49");
    assert_eq!(p.name.as_str(), "Ethernet1/49");
    assert_eq!(p.written, "Ethernet 1/49");
    assert!(c.interface("Ethernet1/49").is_some());
}

#[test]
fn hostname_inside_a_banner_is_not_the_hostname() {
    for (text, vendor) in [
        (
            "banner motd ^C\nhostname fake\n^C\nhostname real\n",
            Vendor::Ios,
        ),
        ("banner motd #hostname fake#\nhostname real\n", Vendor::NxOs),
        (
            "banner motd %\nhostname fake\n%\nhostname real\n",
            Vendor::NxOs,
        ),
        (
            "banner login\nhostname fake\nEOF\nhostname real\n",
            Vendor::Eos,
        ),
    ] {
        let c = config(text, vendor);
        let real = text.lines().position(|l| l == "hostname real").unwrap() as u32 + 1;
        assert_eq!(c.hostname.as_ref().unwrap().value, "real", "{text:?}");
        assert_eq!(c.hostname.as_ref().unwrap().line(), Some(real), "{text:?}");
        for line in 1..real {
            assert_eq!(
                c.summary.class(line),
                Some(LineClass::Ignored(Ignored::Banner)),
                "{text:?}"
            );
        }
    }
}

#[test]
fn an_unterminated_banner_is_reported_at_its_line() {
    let c = config(
        "hostname a\nbanner motd ^C\nwelcome\nhostname b\n",
        Vendor::Ios,
    );
    assert_eq!(c.hostname.unwrap().value, "a");
    assert_eq!(c.summary.not_understood.len(), 1);
    assert_eq!(c.summary.not_understood[0].line, 2);
    assert_eq!(
        c.summary.not_understood[0].reason,
        Reason::UnterminatedBanner
    );
}

#[test]
fn capture_noise_is_ignored_and_lines_still_count() {
    let text = "tor1# show running-config\r\n\r\n!Command: show running-config\r\nhostname tor1\rvlan 10\n  name A 2026 Dec  1 05:00:02 tor1 %ETHPORT-5-IF_UP: Interface Ethernet1/1 is up\n2026 Dec  1 05:00:03 tor1 %VPC-2-PEER_KEEP_ALIVE_RECV_FAIL: In domain 10, VPC peer keep-alive receive has failed\ninterface Ethernet1/1\n --More-- \u{8}\u{8}\u{8}\u{8}\u{8}\u{8}\u{8}\u{8}\u{8}\u{8}        \u{8}\u{8}  switchport mode trunk\n  mtu 9216\ntor1#";
    let c = config(text, Vendor::NxOs);
    assert_eq!(c.hostname.as_ref().unwrap().line(), Some(4));
    assert_eq!(c.vlans[&10].name.as_ref().unwrap().value, "A");
    assert_eq!(c.vlans[&10].name.as_ref().unwrap().line(), Some(6));
    let p = port(&c, "Ethernet1/1");
    assert_eq!(p.mode.value, PortMode::Trunk);
    assert_eq!(p.mode.line(), Some(9));
    assert_eq!(
        p.mtu.unwrap().line(),
        Some(10),
        "the block survives the pager line"
    );
    assert_eq!(c.summary.lines(), 11);
    assert_eq!(
        c.summary.class(1),
        Some(LineClass::Ignored(Ignored::Capture))
    );
    assert_eq!(
        c.summary.class(7),
        Some(LineClass::Ignored(Ignored::Capture))
    );
    assert_eq!(
        c.summary.class(11),
        Some(LineClass::Ignored(Ignored::Capture))
    );
    assert_eq!(c.summary.cleaned, vec![6, 9]);
    assert!(
        c.summary.not_understood.is_empty(),
        "{:?}",
        c.summary.not_understood
    );
}

#[test]
fn irrelevant_sections_are_ignored_with_their_children_and_unknown_ones_listed() {
    let c = config(
        "router bgp 65000\n  neighbor 10.0.0.1 remote-as 65001\nsnmp-server community x ro\nfrobnicate widgets\n  deeper widget\ninterface Ethernet1/1\n  frob 1\n  ip address 10.0.0.1/31\n",
        Vendor::NxOs,
    );
    assert_eq!(
        c.summary.class(1),
        Some(LineClass::Ignored(Ignored::Irrelevant("routing")))
    );
    assert_eq!(
        c.summary.class(2),
        Some(LineClass::Ignored(Ignored::Irrelevant("routing")))
    );
    assert_eq!(
        c.summary.class(3),
        Some(LineClass::Ignored(Ignored::Irrelevant("snmp")))
    );
    let lines: Vec<u32> = c.summary.not_understood.iter().map(|n| n.line).collect();
    assert_eq!(lines, vec![4, 5, 7]);
    assert_eq!(c.summary.not_understood[2].text, "frob 1");
    assert_eq!(
        c.summary.class(8),
        Some(LineClass::Ignored(Ignored::Irrelevant("ip")))
    );
    assert_eq!(
        c.summary.understood() + c.summary.ignored() + c.summary.not_understood_count(),
        8
    );
}

#[test]
fn bad_values_are_listed_with_why() {
    let c = config(
        "interface Ethernet1/1\n  switchport access vlan 5000\n  switchport trunk allowed vlan 20-10\n  mtu 99999\nspanning-tree vlan 10 priority 1000\n",
        Vendor::NxOs,
    );
    let why: Vec<String> = c
        .summary
        .not_understood
        .iter()
        .map(|n| n.reason.to_string())
        .collect();
    assert_eq!(
        why,
        vec![
            "`5000` is not a VLAN id",
            "the range 20-10 is descending",
            "`99999` is not an MTU",
            "`1000` is not a bridge priority",
        ]
    );
}

#[test]
fn stp_modes_priorities_and_defaults() {
    let c = config("hostname a\n", Vendor::NxOs);
    assert_eq!(c.stp.mode.value, StpMode::RapidPvst);
    assert!(c.stp.mode.is_default());
    assert_eq!(c.stp.default_priority.value, 32768);
    assert_eq!(
        config("hostname a\n", Vendor::Eos).stp.mode.value,
        StpMode::Mst
    );
    assert_eq!(
        config("hostname a\n", Vendor::Os10).stp.mode.value,
        StpMode::RapidPvst
    );
    assert_eq!(
        config("hostname a\n", Vendor::Ios).stp.mode.value,
        StpMode::Pvst
    );

    let c = config(
        "spanning-tree mode rapid-pvst\nspanning-tree vlan 10-12 priority 4096\nspanning-tree vlan 20 root primary\nspanning-tree vlan 30 root secondary\nno spanning-tree vlan 99\nspanning-tree pathcost method long\n",
        Vendor::Ios,
    );
    assert_eq!(c.stp.mode, Sourced::at(StpMode::RapidPvst, 1));
    assert_eq!(c.stp.vlan_priorities[&11].value.value, 4096);
    assert_eq!(
        c.stp.vlan_priorities[&20].value,
        Priority {
            value: 24576,
            how: PriorityHow::RootPrimary
        }
    );
    assert_eq!(
        c.stp.vlan_priorities[&30].value,
        Priority {
            value: 28672,
            how: PriorityHow::RootSecondary
        }
    );
    assert_eq!(c.stp.disabled_vlans[&99], 5);
    assert_eq!(c.stp.path_cost.unwrap().value, PathCost::Long);

    let c = config(
        "spanning-tree mode mstp\nspanning-tree mst 0 priority 8192\nspanning-tree mst 1-2 priority 4096\nspanning-tree mst configuration\n   name DC\n   revision 7\n   instance 1 vlan 10-20\n   instance 1 vlan 30\n   instance 2 vlan 40\n",
        Vendor::Eos,
    );
    assert_eq!(c.stp.mst.priorities[&0].value.value, 8192);
    assert_eq!(c.stp.mst.priorities[&2].value.value, 4096);
    assert_eq!(c.stp.mst.name.as_ref().unwrap().value, "DC");
    assert_eq!(c.stp.mst.revision.unwrap().value, 7);
    assert_eq!(
        vlans::switch_list(&c.stp.mst.instances[&1].value).to_string(),
        "10-20,30"
    );
    assert_eq!(c.stp.mst.instances[&1].line(), Some(8));
    // Instance lists may start at 0 (the IST).
    let c = config("spanning-tree mst 0-2 priority 4096\n", Vendor::NxOs);
    assert_eq!(
        c.stp.mst.priorities.keys().copied().collect::<Vec<_>>(),
        vec![0, 1, 2]
    );
    let c = config("spanning-tree mode none\n", Vendor::Eos);
    assert_eq!(c.stp.mode.value, StpMode::None);
    let c = config(
        "spanning-tree rstp priority 8192\nspanning-tree mode rstp\n",
        Vendor::Os10,
    );
    assert_eq!(c.stp.bridge_priority.unwrap().value.value, 8192);
}

#[test]
fn port_stp_settings_of_each_dialect() {
    let c = config(
        "interface Ethernet1/1\n  spanning-tree port type edge trunk\n  spanning-tree bpduguard enable\n  spanning-tree bpdufilter enable\n  spanning-tree guard root\ninterface Ethernet1/2\n  spanning-tree port type network\n  spanning-tree guard loop\nspanning-tree port type edge bpduguard default\n",
        Vendor::NxOs,
    );
    let s = &port(&c, "Ethernet1/1").stp;
    assert_eq!(s.edge.unwrap().value, EdgeMode::EdgeTrunk);
    assert!(s.bpdu_guard.unwrap().value);
    assert!(s.bpdu_filter.unwrap().value);
    assert!(s.root_guard.unwrap().value);
    assert_eq!(
        port(&c, "Ethernet1/2").stp.edge.unwrap().value,
        EdgeMode::Network
    );
    assert!(port(&c, "Ethernet1/2").stp.loop_guard.unwrap().value);
    assert_eq!(c.stp.bpdu_guard_default.unwrap().line(), Some(9));

    let c = config(
        "interface Ethernet3\n   spanning-tree portfast\n   spanning-tree bpduguard disable\ninterface Ethernet4\n   no spanning-tree portfast\n",
        Vendor::Eos,
    );
    assert_eq!(port(&c, "Et3").stp.edge.unwrap().value, EdgeMode::Edge);
    assert!(!port(&c, "Et3").stp.bpdu_guard.unwrap().value);
    assert_eq!(port(&c, "Et4").stp.edge.unwrap().value, EdgeMode::Normal);

    let c = config(
        "interface Gi1/0/1\n spanning-tree portfast edge trunk\n",
        Vendor::Ios,
    );
    assert_eq!(
        port(&c, "Gi1/0/1").stp.edge.unwrap().value,
        EdgeMode::EdgeTrunk
    );
}

#[test]
fn lag_membership_modes_and_mlag_ids() {
    let c = config(
        "interface Ethernet1/1\n  channel-group 10 mode active\ninterface Ethernet1/2\n  channel-group 11\ninterface Ethernet1/3\n  channel-group 12 force mode passive\ninterface port-channel10\n  vpc 10\ninterface port-channel1\n  vpc peer-link\nvpc domain 5\n  peer-switch\n",
        Vendor::NxOs,
    );
    assert_eq!(
        port(&c, "Eth1/1").channel_group.unwrap().value,
        ChannelGroup {
            id: 10,
            mode: LagMode::Active
        }
    );
    assert_eq!(
        port(&c, "Eth1/2").channel_group.unwrap().value.mode,
        LagMode::On
    );
    assert_eq!(
        port(&c, "Eth1/3").channel_group.unwrap().value.mode,
        LagMode::Passive
    );
    assert_eq!(port(&c, "Po10").mc_lag.unwrap().value, McLag::Member(10));
    let d = c.mlag.unwrap();
    assert_eq!(d.kind, MlagKind::Vpc);
    assert_eq!(d.peer_links[0].value.as_str(), "Port-Channel1");
    assert!(d.peer_switch.unwrap().value);

    let c = config("interface port-channel5\n vlt-port-channel 5\nvlt-domain 1\n discovery-interface ethernet1/1/53-1/1/54\n backup destination 10.0.0.2\n", Vendor::Os10);
    assert_eq!(
        port(&c, "port-channel5").mc_lag.unwrap().value,
        McLag::Member(5)
    );
    let d = c.mlag.unwrap();
    assert_eq!(d.kind, MlagKind::Vlt);
    assert_eq!(d.peer_links.len(), 2);
    assert_eq!(d.peer_address.unwrap().value, "10.0.0.2");
}

#[test]
fn nxos_port_layer_follows_the_config_or_the_nexus_9000_default() {
    // Nothing says: the Nexus 9000 default, layer 3.
    let c = config("interface Ethernet1/1\n  description x\n", Vendor::NxOs);
    assert_eq!(port(&c, "Eth1/1").mode.value, PortMode::Routed);
    assert!(port(&c, "Eth1/1").mode.is_default());
    // `no switchport` elsewhere and no bare `switchport`: layer 2 default.
    let c = config(
        "interface Ethernet1/1\n  description x\ninterface Ethernet1/2\n  no switchport\n",
        Vendor::NxOs,
    );
    assert_eq!(port(&c, "Eth1/1").mode.value, PortMode::Access);
    let c = config(
        "system default switchport\ninterface Ethernet1/1\n",
        Vendor::NxOs,
    );
    assert_eq!(port(&c, "Eth1/1").mode, Sourced::at(PortMode::Access, 1));
    // EOS, IOS and OS10 ports are switchports.
    let c = config("interface Ethernet1\n   description x\n", Vendor::Eos);
    assert_eq!(port(&c, "Et1").mode.value, PortMode::Access);
    assert_eq!(port(&c, "Et1").access_vlan.unwrap().value, 1);
}

#[test]
fn mtu_system_jumbo_network_qos_and_pfc() {
    let c = config(
        "system jumbomtu 9216\npolicy-map type network-qos jumbo\n  class type network-qos class-default\n    mtu 9216\n  class type network-qos c-nq3\n    pause pfc-cos 3,4\nsystem qos\n  service-policy type network-qos jumbo\ninterface Ethernet1/1\n  priority-flow-control mode on\n",
        Vendor::NxOs,
    );
    assert_eq!(c.mtu.jumbo.unwrap().value, 9216);
    assert_eq!(c.mtu.network_qos["class-default"].value, 9216);
    assert_eq!(
        c.dcb.no_drop_cos.keys().copied().collect::<Vec<_>>(),
        vec![3, 4]
    );
    assert!(port(&c, "Eth1/1").pfc.unwrap().value);
    // A policy `system qos` does not apply is not in force.
    let c = config(
        "policy-map type network-qos x\n  class type network-qos c\n    mtu 9216\n",
        Vendor::NxOs,
    );
    assert!(c.mtu.network_qos.is_empty());

    let c = config("system mtu 9198\n", Vendor::Ios);
    assert_eq!(c.mtu.system.unwrap().value, 9198);
    let c = config(
        "interface defaults\n   mtu 9214\ninterface Ethernet1\n   l2 mtu 9000\n",
        Vendor::Eos,
    );
    assert_eq!(c.mtu.system.unwrap().value, 9214);
    assert_eq!(port(&c, "Et1").l2_mtu.unwrap().value, 9000);
    let c = config(
        "interface ethernet1/1/1\n mtu 9216\ninterface ethernet1/1/2\n",
        Vendor::Os10,
    );
    assert_eq!(port(&c, "e1/1/2").mtu.unwrap().value, 1532);
    assert!(port(&c, "e1/1/2").mtu.unwrap().is_default());
}

#[test]
fn eos_trunk_groups_and_speeds() {
    let c = config(
        "vlan 4094\n   trunk group mlagpeer\ninterface Port-Channel10\n   switchport trunk group mlagpeer\ninterface Ethernet1\n   speed forced 10000full\ninterface Ethernet2\n   speed 25g\ninterface Ethernet3\n   speed auto\n",
        Vendor::Eos,
    );
    assert_eq!(c.vlans[&4094].trunk_groups[0].value, "mlagpeer");
    assert_eq!(port(&c, "Po10").trunk_groups[0].value, "mlagpeer");
    assert_eq!(port(&c, "Et1").speed.unwrap().value, PortSpeed::Mbps(10000));
    assert_eq!(port(&c, "Et2").speed.unwrap().value, PortSpeed::Mbps(25000));
    assert_eq!(port(&c, "Et3").speed.unwrap().value, PortSpeed::Auto);
}

#[test]
fn kind_detection_and_forcing() {
    let detect = |t: &str| parse("f", t, None).map(|d| d.kind());
    assert_eq!(
        detect("device,port,peer_device,peer_port\na,b,c,d\n"),
        Ok(Kind::Cabling)
    );
    assert_eq!(
        detect("tor1# show lldp neighbors detail\nChassis id: 1\nLocal Port id: Eth1/1\n"),
        Ok(Kind::Lldp(LldpFormat::NxOsText))
    );
    assert_eq!(
        detect("Local Intf: Gi0/1\nChassis id: 1\n"),
        Ok(Kind::Lldp(LldpFormat::IosText))
    );
    assert_eq!(
        detect("Remote Chassis ID: 1\nLocal Port ID: ethernet1/1/1\n"),
        Ok(Kind::Lldp(LldpFormat::Os10Text))
    );
    assert_eq!(
        detect("Interface Ethernet1 detected 0 LLDP neighbors:\n"),
        Ok(Kind::Lldp(LldpFormat::EosText))
    );
    assert_eq!(
        detect("! device: x (DCS-7050, EOS-4.28)\nhostname x\n"),
        Ok(Kind::Config(Vendor::Eos))
    );
    assert_eq!(
        detect("! Version 10.5.4.0\nhostname x\n"),
        Ok(Kind::Config(Vendor::Os10))
    );
    assert_eq!(
        detect("Building configuration...\nhostname x\n"),
        Ok(Kind::Config(Vendor::Ios))
    );
    assert_eq!(
        detect("!Command: show running-config\nhostname x\n"),
        Ok(Kind::Config(Vendor::NxOs))
    );
    // Nothing tells the dialect: a located error that names --from.
    let e = parse(
        "x.cfg",
        "\n! a comment\nhostname x\ninterface Ethernet1\n",
        None,
    )
    .unwrap_err();
    assert_eq!((e.line, &e.kind), (3, &ErrorKind::Unrecognised));
    assert!(
        e.to_string().starts_with("x.cfg:3: not a running-config"),
        "{e}"
    );
    assert!(e.to_string().contains("--from"));
    // --from forces it.
    let d = parse(
        "x.cfg",
        "hostname x\ninterface Ethernet1\n",
        Kind::from_key("eos"),
    )
    .unwrap();
    assert_eq!(d.kind(), Kind::Config(Vendor::Eos));
    assert_eq!(
        Kind::from_key("lldp-nxos-json"),
        Some(Kind::Lldp(LldpFormat::NxOsJson))
    );
    assert_eq!(Kind::Config(Vendor::Os10).key(), "os10");
    // Empty and noise-only files.
    let e = parse("e.cfg", "\r\n\r\n", None).unwrap_err();
    assert_eq!((e.line, e.kind), (2, ErrorKind::Empty));
    let e = parse("e.cfg", "tor1# show running-config\n!\ntor1#\n", None).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Empty);
    // Binary garbage: no panic, an error.
    assert!(parse_bytes("b.bin", &[0xff, 0xfe, 0, 1, 2, 3, b'\n', 0x80], None).is_err());
}

#[test]
fn json_errors_are_located() {
    let text = "tor1# show lldp neighbors detail | json\n{\n  \"TABLE_nbor_detail\": {\n    \"ROW_nbor_detail\": [\n      {\"l_port_id\": \"Eth1/1\",,}\n    ]\n  }\n}\n";
    let e = parse("l.json", text, None).unwrap_err();
    assert_eq!(e.line, 5, "{e}");
    assert!(matches!(e.kind, ErrorKind::Json(_)));
    assert!(e.to_string().starts_with("l.json:5:"), "{e}");
    let e = parse(
        "l.json",
        "{\"something\": 1}\n",
        Some(Kind::Lldp(LldpFormat::NxOsJson)),
    )
    .unwrap_err();
    assert!(matches!(e.kind, ErrorKind::WrongKind(_)));
    // A single NX-OS row is an object, not an array.
    let one = "{\"TABLE_nbor_detail\": {\"ROW_nbor_detail\": {\"l_port_id\": \"Eth1/2\", \"sys_name\": \"tor2\", \"port_id\": \"Ethernet1/2\"}}}";
    let Document::Lldp(t) = parse("l.json", one, None).unwrap() else {
        panic!()
    };
    assert_eq!(t.neighbors.len(), 1);
    assert_eq!(
        t.neighbors[0].remote_port.as_ref().unwrap().as_str(),
        "Ethernet1/2"
    );
    // EOS's non-detail JSON lists rows.
    let eos = "{\"lldpNeighbors\": [\n {\"port\": \"Ethernet1\", \"neighborDevice\": \"leaf2\", \"neighborPort\": \"Ethernet1\", \"ttl\": 120}\n]}";
    let Document::Lldp(t) = parse("l.json", eos, None).unwrap() else {
        panic!()
    };
    assert_eq!(t.neighbors[0].system_name.as_deref(), Some("leaf2"));
    assert_eq!(t.neighbors[0].line, 2);
}

#[test]
fn lldp_entries_without_a_local_port_are_listed() {
    let Document::Lldp(t) = parse(
        "l.txt",
        "Chassis id: 1\nLocal Port id: Eth1/1\nSystem Name: a\n\nChassis id: 2\nSystem Name: b\n",
        Some(Kind::Lldp(LldpFormat::NxOsText)),
    )
    .unwrap() else {
        panic!()
    };
    assert_eq!(t.neighbors.len(), 1);
    assert_eq!(t.summary.not_understood.len(), 1);
    assert_eq!(t.summary.not_understood[0].line, 5);
}

#[test]
fn common_real_world_sections_are_ignored_but_profiles_and_fex_are_not() {
    let c = config(
        "nv overlay evpn\nfeature nv overlay\nhardware access-list tcam region racl 512\ninterface nve1\n  no shutdown\n  host-reachability protocol bgp\n  source-interface loopback1\n  member vni 10100\n    suppress-arp\n    ingress-replication protocol bgp\ninterface Ethernet1/5\n  switchport\n  link debounce time 0\n  vpc orphan-port suspend\n  priority-flow-control watch-dog-interval on\n  inherit port-profile HOSTS\nport-profile type ethernet HOSTS\n  switchport mode trunk\nfex 101\n  description FEX0101\n",
        Vendor::NxOs,
    );
    let lines: Vec<u32> = c.summary.not_understood.iter().map(|n| n.line).collect();
    // The port profile (its settings reach the port) and the FEX (its host
    // ports) bear on layer 2 and are not read: listed, not ignored.
    assert_eq!(lines, vec![16, 17, 18, 19, 20]);
    let c = config(
        "switch 1 provision ws-c3850-48p\nsdm prefer advanced\nmls qos\nmacro name x\ninterface GigabitEthernet1/0/1\n switchport mode access\n srr-queue bandwidth share 1 30 35 5\n macro description x\n small-frame violation-rate 10\n",
        Vendor::Ios,
    );
    assert!(
        c.summary.not_understood.is_empty(),
        "{:?}",
        c.summary.not_understood
    );
}

/// EOS `dcbx mode ieee` on a storage port (as in a published Azure Local
/// EOS storage-port config, with `priority-flow-control on` and
/// `priority-flow-control priority 3 no-drop`) is read with its line.
#[test]
fn eos_dcbx_mode_is_read_from_the_port() {
    let text = "! device: sw1 (DCS-7280SR3-48YC8, EOS-4.30.1F)\nhostname sw1\n\
                interface Ethernet9/1\n   description azl-node-01\n   mtu 9214\n   dcbx mode ieee\n   switchport trunk allowed vlan 711\n   switchport mode trunk\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\n   spanning-tree portfast edge\n";
    let netlint_import::Document::Config(c) = netlint_import::parse("sw1.cfg", text, None).unwrap()
    else {
        panic!()
    };
    assert!(
        c.summary.not_understood.is_empty(),
        "{:?}",
        c.summary.not_understood
    );
    let m = c.dcb.dcbx_mode.as_ref().unwrap();
    assert_eq!((m.value.as_str(), m.line()), ("ieee", Some(6)));
}

/// Issue 30 item 7: a second, other vPC domain is not understood (the
/// first kept, never silently replaced), the same one entered again is;
/// a PFC mode that is none of on, off, auto is not understood (it was
/// taken as off); `no switchport access vlan` and `no switchport trunk
/// native vlan` put the default back, understood (they were "ignored").
#[test]
fn a_second_domain_a_bad_pfc_mode_and_no_access_vlan_are_classed_by_what_they_say() {
    let c = config(
        "vpc domain 10\n  peer-switch\nvpc domain 10\n  role priority 100\nvpc domain 20\n  peer-switch\n\
         interface Ethernet1/1\n  priority-flow-control mode sometimes\n\
         interface Ethernet1/2\n  priority-flow-control mode auto\n\
         interface Ethernet1/3\n  switchport access vlan 7\n  no switchport access vlan\n  no switchport trunk native vlan\n",
        Vendor::NxOs,
    );
    let d = c.mlag.as_ref().unwrap();
    assert_eq!(d.domain_id.as_ref().unwrap().value, "10");
    assert_eq!(d.line, 1);
    let not: Vec<u32> = c.summary.not_understood.iter().map(|n| n.line).collect();
    assert_eq!(not, vec![5, 6, 8], "{:?}", c.summary.not_understood);
    assert!(!port(&c, "Ethernet1/2").pfc.unwrap().value);
    assert!(port(&c, "Ethernet1/1").pfc.is_none());
    assert!(port(&c, "Ethernet1/3").access_vlan.is_none());
    for line in [3, 4, 13, 14] {
        assert_eq!(
            c.summary.class(line),
            Some(LineClass::Understood),
            "line {line}"
        );
    }
}
