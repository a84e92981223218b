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
