//! Ports and their defaults (issue 31 item 6): a cabled port the config
//! has no `interface` stanza for is the vendor's default port (an access
//! port in VLAN 1 on a switch whose Ethernet ports are switchports), not a
//! trunk carrying whatever the other end allows; an `interface breakout`
//! line gives the speed of the ports it makes (NX-OS Ethernet1/49/1, OS10
//! ethernet1/1/25:1), so a link on them is not of unknown speed.

use netlint_import::design::Note;

include!("support/loads.rs");

const FILES: [&str; 4] = [
    "nxos-ports-leaf1.cfg",
    "nxos-ports-leaf2.cfg",
    "os10-ports-leaf3.cfg",
    "ports.cabling.csv",
];

/// The `[[links]]` block that names `name`.
fn link_block<'a>(toml: &'a str, name: &str) -> &'a str {
    let at = toml
        .find(&format!("name = \"{name}\""))
        .unwrap_or_else(|| panic!("no link {name}:\n{toml}"));
    let start = toml[..at].rfind("[[links]]").unwrap();
    let end = toml[at..].find("\n\n").map_or(toml.len(), |e| at + e);
    &toml[start..end]
}

#[test]
fn the_import_of_breakouts_and_a_port_without_a_stanza() {
    let imported = import_fixtures(&FILES);
    insta::assert_snapshot!("ports.toml", imported.toml);
}

/// leaf1's Ethernet1/1 trunks VLANs 10 and 20 to leaf2's Ethernet1/1,
/// which has no stanza: an access port in VLAN 1. The link carries no VLAN
/// both ends pass (before item 6 it was written `vlans = [10, 20]`, leaf1's
/// list, as if leaf2's port were a trunk), and each end is written as it
/// is (`vlans_a`, `vlans_b`), for `trunk-vlan-mismatch` to judge.
#[test]
fn a_cabled_port_without_a_stanza_is_an_access_port_in_vlan_1() {
    let imported = import_fixtures(&FILES);
    let link = link_block(&imported.toml, "leaf1:Ethernet1/1--leaf2:Ethernet1/1");
    // Each end as it is (issue 31 item 7): leaf1's trunk list, leaf2's
    // default port in VLAN 1; the link carries what both allow, none.
    let line = |key: &str| {
        link.lines()
            .find(|l| l.starts_with(&format!("{key} = ")))
            .unwrap_or_else(|| panic!("no {key}: {link}"))
    };
    assert!(line("vlans_a").starts_with("vlans_a = [10, 20]"), "{link}");
    let b = line("vlans_b");
    assert!(b.starts_with("vlans_b = [1] "), "{link}");
    assert!(
        b.contains("leaf2 has no `interface Ethernet1/1` stanza: the vendor default, an access port in VLAN 1"),
        "{link}"
    );
    // The default's own source: the `system default switchport` line.
    assert!(b.contains("nxos-ports-leaf2.cfg:13"), "{link}");
    let design = netlint_model::load(&netlint_model::SourceFile::new(
        "imported.toml",
        imported.toml.clone(),
    ))
    .design
    .unwrap();
    let l = design
        .links
        .iter()
        .find(|l| l.name == "leaf1:Ethernet1/1--leaf2:Ethernet1/1")
        .unwrap();
    assert!(l.vlans.as_ref().unwrap().value.is_empty());
    // The remarks above the link list each end.
    assert!(
        imported.toml.contains(
            "# leaf2 Ethernet1/1 carries VLAN 1 (leaf2 has no `interface Ethernet1/1` stanza"
        ),
        "the ends are listed: {}",
        imported.toml
    );
    let note = imported
        .notes
        .iter()
        .find(|n| matches!(n, Note::UnknownPort { .. }))
        .expect("the port without a stanza is said");
    assert!(
        note.to_string().contains(
            "leaf2 has no interface Ethernet1/1 in its config: taken as the vendor's default port"
        ),
        "{note}"
    );
}

/// `interface breakout module 1 port 49 map 10g-4x` (leaf1, line 24) and
/// `interface breakout 1/1/25 map 10g-4x` (s5248-b): the link between
/// Ethernet1/49/1 and ethernet1/1/25:1 runs at 10G, from the breakout line.
#[test]
fn a_breakout_line_gives_the_speed_of_the_ports_it_makes() {
    let imported = import_fixtures(&FILES);
    let link = link_block(
        &imported.toml,
        "leaf1:Ethernet1/49/1--s5248-b:Ethernet1/1/25:1",
    );
    let speed = link.lines().find(|l| l.starts_with("speed = ")).unwrap();
    assert!(speed.starts_with("speed = \"10G\""), "{link}");
    assert!(speed.ends_with("nxos-ports-leaf1.cfg:24"), "{link}");
    assert!(
        !imported
            .notes
            .iter()
            .any(|n| matches!(n, Note::LinkWithoutSpeed { link, .. } if link.contains("49/1"))),
        "the breakout link has a speed"
    );
}

/// Each vendor's breakout line, read alone: the speed of each port it
/// makes, for the split port and for its lanes; a malformed one is a line
/// not understood, never a silent platform line.
#[test]
fn breakout_lines_of_each_vendor_and_a_malformed_one() {
    use netlint_import::model::Vendor;
    let cfg = |vendor: Vendor, text: &str| {
        let kind = netlint_import::detect::Kind::Config(vendor);
        let doc = netlint_import::parse("b.cfg", text, Some(kind)).unwrap();
        match doc {
            netlint_import::Document::Config(c) => c,
            _ => panic!("not a config"),
        }
    };
    let nx = cfg(
        Vendor::NxOs,
        "hostname a\ninterface breakout module 1 port 49,51-52 map 25g-4x\n",
    );
    for port in [
        "Ethernet1/49/1",
        "Eth1/51/4",
        "Ethernet1/52",
        "ethernet1/52/2",
    ] {
        let s = nx.breakout_speed(port).unwrap_or_else(|| panic!("{port}"));
        assert_eq!((s.value, s.line()), (25_000, Some(2)), "{port}");
    }
    for port in [
        "Ethernet1/50/1",
        "Ethernet1/5",
        "Ethernet1/49/1/1",
        "Ethernet1/490",
    ] {
        assert!(nx.breakout_speed(port).is_none(), "{port}");
    }
    let os10 = cfg(
        Vendor::Os10,
        "hostname b\ninterface breakout 1/1/25 map 100g-1x\n",
    );
    assert_eq!(
        os10.breakout_speed("ethernet1/1/25:1").map(|s| s.value),
        Some(100_000)
    );
    assert!(os10.breakout_speed("ethernet1/1/26:1").is_none());
    let bad = cfg(
        Vendor::NxOs,
        "hostname c\ninterface breakout module 1 port x map 10g-4x\ninterface breakout module 1 port 49 map fast\n",
    );
    assert!(bad.breakouts.is_empty());
    assert_eq!(bad.summary.not_understood_count(), 2, "{:?}", bad.summary);
}

/// A host NIC cabled to a port the config has no stanza for (issue 31
/// item 6): leaf1's Ethernet5 is the vendor's default port, an access port
/// in VLAN 1, written under `ports` with that source and the cable's line,
/// and said in a note. Before, the port took the switch's `host_ports`
/// (a trunk of every VLAN the switch defines), a default no line states.
#[test]
fn a_host_on_a_port_without_a_stanza_is_the_vendors_default_port() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let cfg = std::fs::read_to_string(dir.join("eos-leaf1.cfg")).unwrap();
    let csv =
        "device,port,peer_device,peer_port\nleaf1,Ethernet1,hv1,NIC1\nleaf1,Ethernet5,hv9,NIC1\n";
    let docs = vec![
        netlint_import::parse("eos-leaf1.cfg", &cfg, None).unwrap(),
        netlint_import::parse("hosts.csv", csv, None).unwrap(),
    ];
    let imported = netlint_import::design::to_design(&docs, "imported");
    assert_loads_cleanly(&imported.toml);
    let at = imported
        .toml
        .find("[switches.leaf1.ports.\"Ethernet5\"]")
        .unwrap_or_else(|| panic!("{}", imported.toml));
    let block = &imported.toml[at..];
    let block = &block[..block.find("\n\n").unwrap_or(block.len())];
    // The table's header points at the cable: no config line states it.
    let header = imported
        .map
        .lookup(at..at + 1)
        .expect("the header is mapped");
    assert_eq!(
        header
            .from
            .first()
            .and_then(|s| s.at())
            .map(|a| (a.file.as_str(), a.line)),
        Some(("hosts.csv", 3)),
        "{header:?}"
    );
    let access = block
        .lines()
        .find(|l| l.starts_with("access_vlan = 1 "))
        .unwrap_or_else(|| panic!("{block}"));
    assert!(
        access.contains(
            "no `interface Ethernet5` stanza: the vendor default, an access port in VLAN 1"
        ),
        "{access}"
    );
    assert!(
        imported.notes.iter().any(|n| matches!(n,
            Note::UnknownPort { switch, port, at } if switch == "leaf1" && port == "Ethernet5" && at.line == 3)),
        "{:#?}",
        imported.notes
    );
    let host_ports = imported
        .toml
        .lines()
        .find(|l| l.starts_with("host_ports = "))
        .unwrap();
    assert!(
        host_ports
            .contains("Ethernet5 (no stanza: the vendor's default port, cabled at hosts.csv:3)"),
        "{host_ports}"
    );
}

/// The same on a Nexus 9000 whose ports are routed by default (a bare
/// `switchport` on the ports that are layer 2, no `no switchport`: NX-OS
/// writes what differs from the system default, layer 3): the host's
/// port carries no layer-2 network, which the format cannot state, so it
/// is said in a note and not written as a trunk of every VLAN.
#[test]
fn a_host_on_a_routed_default_port_is_said_not_written() {
    let cfg = "hostname n9k-1\nfeature lacp\nvlan 10\ninterface Ethernet1/1\n  switchport\n  switchport mode trunk\n";
    let csv = "device,port,peer_device,peer_port\nn9k-1,Ethernet1/7,hv9,NIC1\n";
    let docs = vec![
        netlint_import::parse(
            "n9k-1.cfg",
            cfg,
            Some(netlint_import::detect::Kind::Config(
                netlint_import::model::Vendor::NxOs,
            )),
        )
        .unwrap(),
        netlint_import::parse("hosts.csv", csv, None).unwrap(),
    ];
    let imported = netlint_import::design::to_design(&docs, "imported");
    assert_loads_cleanly(&imported.toml);
    assert!(!imported.toml.contains("Ethernet1/7"), "{}", imported.toml);
    assert!(
        imported.notes.iter().any(|n| matches!(n,
            Note::WaitsForV2 { what: "a host on a routed port", at, .. } if at.line == 2)),
        "{:#?}",
        imported.notes
    );
}
