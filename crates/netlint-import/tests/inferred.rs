//! Configured, vendor default and inferred are kept apart (issue 30 item
//! 4): a value no line states but other lines lead to is
//! `Origin::Inferred`, and the design says so beside every value written
//! from it; an MTU the design format cannot hold is never changed
//! silently.

use netlint_import::design::{to_design, Note, Src};
use netlint_import::*;

include!("support/loads.rs");

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

/// Imports `files` (name, text, vendor; `None`: detected) and loads the
/// design: it must load without a diagnostic.
fn import(files: &[(&str, &str, Option<Vendor>)]) -> design::Imported {
    let docs: Vec<Document> = files
        .iter()
        .map(|(f, t, v)| parse(f, t, v.map(Kind::Config)).unwrap_or_else(|e| panic!("{f}: {e}")))
        .collect();
    let imported = to_design(&docs, "imported");
    assert_loads_cleanly(&imported.toml);
    imported
}

/// The design line that starts with `start` (after the table `table`).
fn line_of<'a>(toml: &'a str, table: &str, start: &str) -> &'a str {
    let from = toml
        .find(table)
        .unwrap_or_else(|| panic!("no {table}:\n{toml}"));
    toml[from..]
        .lines()
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no {start} under {table}:\n{toml}"))
}

#[test]
fn nxos_layer_2_from_its_no_switchport_lines_is_inferred_not_a_vendor_default() {
    let c = config(
        "interface Ethernet1/1\n  description x\ninterface Ethernet1/2\n  no switchport\ninterface Ethernet1/3\n  no switchport\n",
        Vendor::NxOs,
    );
    let m = port(&c, "Eth1/1").mode;
    assert_eq!(m.value, PortMode::Access);
    assert!(
        m.is_inferred() && !m.is_default() && !m.is_configured(),
        "{m:?}"
    );
    assert_eq!(m.line(), None);
    assert_eq!(
        m.origin,
        Origin::Inferred {
            why: defaults::NXOS_L2_INFERRED,
            from: Lines::of([4, 6]),
        }
    );
    // The routed ports are configured; the Nexus 9000 default stays a
    // vendor default.
    assert!(port(&c, "Eth1/2").mode.is_configured());
    let c = config("interface Ethernet1/1\n  description x\n", Vendor::NxOs);
    assert!(port(&c, "Eth1/1").mode.is_default());
}

#[test]
fn a_port_mode_deduced_from_the_access_vlan_line_is_inferred_from_it() {
    let c = config(
        "interface Ethernet1\n   switchport access vlan 10\ninterface Ethernet2\n   switchport mode access\n   switchport access vlan 10\n",
        Vendor::Eos,
    );
    let p = port(&c, "Et1");
    assert_eq!(p.mode.value, PortMode::Access);
    assert_eq!(
        p.mode.origin,
        Origin::Inferred {
            why: defaults::ACCESS_INFERRED,
            from: Lines::of([2]),
        }
    );
    // The VLAN itself is configured; a port that states its mode is too.
    assert_eq!(p.access_vlan.unwrap(), Sourced::at(10, 2));
    assert_eq!(port(&c, "Et2").mode, Sourced::at(PortMode::Access, 4));
    assert_eq!(
        format!("{:?}", p.mode),
        format!("Access @inferred from L2 <{}>", defaults::ACCESS_INFERRED)
    );
}

#[test]
fn lines_keep_the_first_few_and_count_the_rest() {
    let l = Lines::of([40, 3, 3, 12, 7, 90, 55]);
    assert_eq!(l.kept(), &[3, 7, 12, 40]);
    assert_eq!(l.len(), 6);
    assert_eq!(format!("{l:?}"), "L3,L7,L12,L40 +2");
    assert!(Lines::of([]).is_empty());
}

/// The host port's `access_vlan` rests on a mode no line states: its
/// comment says the mode was inferred, and from which line, and the
/// source map names that line as an inference.
#[test]
fn a_value_written_from_an_inferred_mode_says_so_in_the_design() {
    let leaf = "hostname leaf1\nvlan 10\ninterface Ethernet1\n   switchport access vlan 10\n";
    let imported = import(&[
        ("leaf1.cfg", leaf, Some(Vendor::Eos)),
        ("cabling.csv", "leaf1,Ethernet1,hv1,NIC1\n", None),
    ]);
    let toml = &imported.toml;
    let line = line_of(
        toml,
        "[switches.leaf1.ports.\"Ethernet1\"]",
        "access_vlan = 10",
    );
    assert!(
        line.ends_with(&format!(
            "# leaf1.cfg:4; access mode inferred from leaf1.cfg:4: {}",
            defaults::ACCESS_INFERRED
        )),
        "{line}"
    );
    let at = toml.find(line).unwrap();
    let m = imported.map.lookup(at..at + 5).expect("mapped");
    assert!(
        m.from.iter().any(|s| matches!(
            s,
            Src::Inferred { at, why } if at.line == 4 && *why == defaults::ACCESS_INFERRED
        )),
        "{:?}",
        m.from
    );
}

/// An NX-OS link whose ends are layer 2 only by the config's `no
/// switchport` lines: the VLAN it carries is written with the inference.
#[test]
fn a_link_carried_by_an_inferred_layer_2_says_so() {
    let sw = |host: &str| {
        format!(
            "!Command: show running-config\nfeature lacp\nhostname {host}\ninterface Ethernet1/1\n  description uplink\ninterface Ethernet1/2\n  no switchport\n"
        )
    };
    let (a, b) = (sw("tor1"), sw("tor2"));
    let imported = import(&[
        ("tor1.cfg", &a, None),
        ("tor2.cfg", &b, None),
        ("cabling.csv", "tor1,Eth1/1,tor2,Eth1/1\n", None),
    ]);
    let line = line_of(&imported.toml, "[[links]]", "vlans = [1]");
    assert!(
        line.contains("access mode inferred from tor1.cfg:7: NX-OS writes only ports"),
        "{line}"
    );
}

/// An OS10 port `mtu 9416` (frame 9416, more than the format's 9238):
/// the facts keep 9416; the design writes the format's largest frame
/// marked inferred, and a note says what the config states.
#[test]
fn an_mtu_above_the_format_is_written_as_its_largest_marked_inferred() {
    let cfg = "hostname vlt1\ninterface ethernet1/1/1\n switchport mode trunk\n mtu 9416\n";
    let c = config(cfg, Vendor::Os10);
    assert_eq!(port(&c, "ethernet1/1/1").mtu, Some(Sourced::at(9416, 4)));
    let imported = import(&[("vlt1.cfg", cfg, Some(Vendor::Os10))]);
    let line = line_of(&imported.toml, "[switches.vlt1]", "frame_size");
    assert!(line.starts_with("frame_size = 9238 "), "{line}");
    assert!(
        line.contains("# inferred from vlt1.cfg:4, the largest port MTU")
            && line.contains(
                "frame_size 9416 is more than the design format takes; the switch carries 9238"
            ),
        "{line}"
    );
    let note = imported
        .notes
        .iter()
        .find(|n| matches!(n, Note::MtuOutOfRange { .. }))
        .unwrap_or_else(|| panic!("{:?}", imported.notes))
        .to_string();
    assert!(
        note.starts_with("vlt1.cfg:4: switch vlt1: frame_size 9416 (vlt1.cfg:4")
            && note.contains("written as `frame_size = 9238`, marked inferred"),
        "{note}"
    );
}

/// A switch MTU below the format's smallest is not written (no number
/// would be true), with a comment and a note; so is a port's or a link's
/// out-of-range MTU (they then run their switch's).
#[test]
fn an_mtu_below_the_format_or_on_a_port_or_link_is_not_written_but_noted() {
    let sw = |host: &str, mtu: u32| {
        format!(
            "!Command: show running-config\nfeature lacp\nhostname {host}\ninterface Ethernet1/1\n  switchport\n  switchport mode trunk\n  mtu {mtu}\n"
        )
    };
    let low = sw("tor1", 500);
    let imported = import(&[("tor1.cfg", &low, None)]);
    let toml = &imported.toml;
    let table = &toml[toml.find("[switches.tor1]").unwrap()..];
    let table = &table[..table.find("\n[switches.tor1.stp]").unwrap()];
    assert!(
        !table.lines().any(|l| l.starts_with("mtu")),
        "no mtu is written: {table}"
    );
    assert!(
        table.contains("# mtu: 500 (tor1.cfg:7, the largest port MTU) is less than the design format takes (576): not written"),
        "{table}"
    );
    assert!(
        imported.notes.iter().any(|n| n
            .to_string()
            .starts_with("tor1.cfg:7: switch tor1: mtu 500")),
        "{:?}",
        imported.notes
    );
    // A link whose ends state 9600: no `mtu` on the link, a note; the
    // switches carry the format's largest, inferred.
    let (a, b) = (sw("tor1", 9600), sw("tor2", 9600));
    let imported = import(&[
        ("tor1.cfg", &a, None),
        ("tor2.cfg", &b, None),
        ("cabling.csv", "tor1,Eth1/1,tor2,Eth1/1\n", None),
    ]);
    let links = &imported.toml[imported.toml.find("[[links]]").unwrap()..];
    assert!(!links.contains("\nmtu"), "{links}");
    let notes: Vec<String> = imported.notes.iter().map(|n| n.to_string()).collect();
    assert!(
        notes.iter().any(|n| n.contains("link ")
            && n.contains("mtu 9600")
            && n.contains(
                "`mtu` not written: the link is taken to run the smaller of its switches' MTUs"
            )),
        "{notes:#?}"
    );
    assert!(
        line_of(&imported.toml, "[switches.tor1]", "mtu = ").starts_with("mtu = 9216 "),
        "{}",
        imported.toml
    );
}

/// A host port's own `l2 mtu` below the format's range is not written
/// (the port then runs its switch's), with a note.
#[test]
fn a_port_mtu_the_format_cannot_hold_is_noted_not_clamped() {
    let leaf = "hostname leaf1\nvlan 10\ninterface Ethernet1\n   switchport mode access\n   switchport access vlan 10\n   l2 mtu 500\ninterface Ethernet2\n   switchport mode access\n   l2 mtu 9214\n";
    let imported = import(&[
        ("leaf1.cfg", leaf, Some(Vendor::Eos)),
        ("cabling.csv", "leaf1,Ethernet1,hv1,NIC1\n", None),
    ]);
    let port = &imported.toml[imported
        .toml
        .find("[switches.leaf1.ports.\"Ethernet1\"]")
        .unwrap()..];
    assert!(!port.contains("\nmtu"), "{port}");
    let notes: Vec<String> = imported.notes.iter().map(|n| n.to_string()).collect();
    assert!(
        notes.iter().any(
            |n| n.starts_with("leaf1.cfg:6: switch leaf1 port Ethernet1: mtu 482")
                && n.ends_with("`mtu` not written: the port is taken to run its switch's MTU")
        ),
        "{notes:#?}"
    );
}
