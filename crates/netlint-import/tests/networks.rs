//! Networks from the switches' VLANs (issue 31 item 1): a network per VLAN
//! the fabric defines or carries, named by its configured name, its role
//! `unknown` (a switch config never says what a VLAN carries), its `vlan`
//! mapped to every line that defines it.
//!
//! The inline configs are written in each vendor's syntax as its guide
//! gives it: Cisco Nexus 9000 Series NX-OS Layer 2 Switching Configuration
//! Guide, "Configuring VLANs" (`vlan 711` / `name`, a range line with one
//! name for each VLAN of it, `interface Vlan20` / `description`); Cisco
//! Catalyst "VLAN Trunking Protocol (VTP)": a switch in VTP server or client
//! mode keeps its VLANs in vlan.dat, so its running-config has no `vlan`
//! line, only the ports' `switchport access vlan` and `switchport trunk
//! allowed vlan` lines.

use std::path::Path;

use netlint_import::design::{to_design, Src};
use netlint_import::{parse, Document, Kind, Vendor};
use netlint_model::{load, Role, SourceFile};

include!("support/loads.rs");

fn nxos(file: &str, text: &str) -> Document {
    parse(file, text, Some(Kind::Config(Vendor::NxOs))).unwrap()
}

/// (name, role, VLAN) of every network of `toml`, in file order.
fn networks(toml: &str) -> Vec<(String, Role, Option<u16>)> {
    let d = load(&SourceFile::new("imported.toml", toml.to_string()))
        .design
        .expect("loads");
    d.networks
        .iter()
        .map(|n| (n.name.clone(), n.role.value, n.vlan_id()))
        .collect()
}

fn net(name: &str, vlan: u16) -> (String, Role, Option<u16>) {
    (name.to_string(), Role::Unknown, Some(vlan))
}

#[test]
fn every_vlan_the_vpc_pair_defines_is_a_network_of_unknown_role_at_its_vlan_lines() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let docs: Vec<Document> = ["nxos-tor1.cfg", "nxos-tor2.cfg"]
        .iter()
        .map(|f| parse(f, &std::fs::read_to_string(dir.join(f)).unwrap(), None).unwrap())
        .collect();
    let imported = to_design(&docs, "imported");
    assert_loads_cleanly(&imported.toml);
    // VLAN 1 is every switch's default VLAN, named by no line: no network.
    assert_eq!(
        networks(&imported.toml),
        [
            net("MGMT", 10),
            net("LIVE-MIGRATION", 20),
            net("STORAGE", 30),
            net("PARKING", 999),
        ]
    );
    // `vlan = 30` comes from the `vlan` line of each switch that defines it.
    let at = imported.toml.find("vlan = 30").unwrap();
    let from = &imported.map.lookup(at..at + 9).unwrap().from;
    let lines: Vec<String> = from
        .iter()
        .map(|s| match s {
            Src::Line(at) => at.to_string(),
            other => panic!("not a line: {other:?}"),
        })
        .collect();
    assert_eq!(lines, ["nxos-tor1.cfg:50", "nxos-tor2.cfg:19"]);
    // The note says the roles are to be set.
    assert!(imported.notes.iter().any(|n| n
        .to_string()
        .starts_with("4 network(s) written from the switches' VLANs with `role = \"unknown\"` (MGMT, LIVE-MIGRATION, STORAGE, PARKING)")));
}

#[test]
fn a_vlan_is_named_by_its_name_else_its_svi_else_its_number_and_names_stay_unique() {
    let a = nxos(
        "sw-a.cfg",
        "hostname sw-a\n\
         vlan 711\n  name Storage_711_TOR1\n\
         vlan 20\n\
         vlan 30\n\
         vlan 40-41\n  name DUP\n\
         interface Vlan20\n  description CSV-SVI\n",
    );
    let b = nxos(
        "sw-b.cfg",
        "hostname sw-b\n\
         vlan 711\n  name Storage_711_TOR2\n\
         vlan 1\n  name default\n",
    );
    let imported = to_design(&[a, b], "imported");
    assert_loads_cleanly(&imported.toml);
    assert_eq!(
        networks(&imported.toml),
        [
            net("CSV-SVI", 20),
            net("vlan30", 30),
            net("DUP-40", 40),
            net("DUP-41", 41),
            net("Storage_711_TOR1", 711),
        ]
    );
    // Each name's line, and the other switch's name beside it.
    let t = &imported.toml;
    assert!(
        t.contains("# VLAN 711 is named Storage_711_TOR1 (sw-a.cfg:3)"),
        "{t}"
    );
    assert!(
        t.contains("# also named Storage_711_TOR2 (sw-b.cfg:3)"),
        "{t}"
    );
    assert!(t.contains("# VLAN 40 is named DUP (sw-a.cfg:7)"), "{t}");
    assert!(t.contains("# VLAN 30 has no name in any config"), "{t}");
}

#[test]
fn a_vtp_switch_without_vlan_lines_gives_the_vlans_its_ports_carry() {
    let ios = parse(
        "acc1.cfg",
        "hostname acc1\n\
         vtp mode server\n\
         interface GigabitEthernet1/0/1\n switchport mode access\n switchport access vlan 10\n\
         interface GigabitEthernet1/0/48\n switchport mode trunk\n switchport trunk allowed vlan 10,20\n\
         interface GigabitEthernet1/0/49\n switchport mode trunk\n switchport trunk allowed vlan 1-4094\n",
        Some(Kind::Config(Vendor::Ios)),
    )
    .unwrap();
    let imported = to_design(&[ios], "imported");
    assert_loads_cleanly(&imported.toml);
    // `1-4094` allows every VLAN: it names no network.
    assert_eq!(
        networks(&imported.toml),
        [net("vlan10", 10), net("vlan20", 20)]
    );
}

#[test]
fn a_port_put_in_vlan_1_by_a_line_makes_vlan_1_a_network() {
    let ios = parse(
        "acc1.cfg",
        "hostname acc1\n\
         vlan 1\n\
         vlan 10\n\
         interface GigabitEthernet1/0/1\n switchport mode access\n switchport access vlan 1\n",
        Some(Kind::Config(Vendor::Ios)),
    )
    .unwrap();
    let imported = to_design(&[ios], "imported");
    assert_eq!(
        networks(&imported.toml),
        [net("vlan1", 1), net("vlan10", 10)]
    );
}
