//! Host-facing ports from the ports' own configuration (issue 31 item 2):
//! a port configured as an edge port faces a host, so the switch's
//! `host_ports` (and a port's own `[switches.X.ports."NAME"]` where it
//! differs) is written from it even when no cabling or LLDP table ties a
//! host to it. Inter-switch ports, peer links and shut ports never are.

use std::path::Path;

use netlint_import::design::{to_design, Note};
use netlint_import::parse;

include!("support/loads.rs");

fn import(files: &[&str]) -> (String, Vec<Note>) {
    let imported = import_fixtures(files);
    (imported.toml, imported.notes)
}

/// The text of the `[switches.NAME.ports."PORT"]` table, up to the next
/// table; `None` when it is not written.
fn port_table<'a>(toml: &'a str, switch: &str, port: &str) -> Option<&'a str> {
    let header = format!("[switches.{switch}.ports.\"{port}\"]");
    let start = toml.find(&header)?;
    let rest = &toml[start + header.len()..];
    let end = rest.find("\n[").map_or(rest.len(), |e| e + 1);
    Some(&rest[..end])
}

/// NX-OS, no cabling: the two `edge trunk` host trunks and the access
/// ports (one by its own `edge` line, one by `spanning-tree port type edge
/// default`) make `host_ports`; the trunk with a plain `edge` line faces a
/// host by its configuration but is no edge port on NX-OS (`edge = false`
/// on its own table, with why); the port with `bpduguard disable` has its
/// own `bpdu_guard = false`; the uplink port-channel (`port type
/// network`), its members, the shut spare port and the trunk with no edge
/// setting (the plain default reaches access ports only) are not host
/// ports. Fails before item 2: no `host_ports` was written without a
/// cable to a host.
#[test]
fn nxos_edge_ports_without_cabling_are_host_ports() {
    let (toml, _notes) = import(&["nxos-edge-leaf1.cfg"]);
    insta::assert_snapshot!("nxos-edge-leaf1.toml", toml);
    let host_ports = toml
        .lines()
        .find(|l| l.starts_with("host_ports = "))
        .unwrap_or_else(|| panic!("no host_ports:\n{toml}"));
    assert!(
        host_ports.starts_with("host_ports = { edge = true, bpdu_guard = true }"),
        "{host_ports}"
    );
    assert!(
        host_ports.contains("configured as an edge port"),
        "the comment says why the ports face hosts: {host_ports}"
    );
    for port in [
        "Ethernet1/1 ",
        "Ethernet1/2 ",
        "Ethernet1/3 ",
        "Ethernet1/4 ",
        "Ethernet1/5 ",
    ] {
        assert!(host_ports.contains(port), "{port} in {host_ports}");
    }
    for port in [
        "Ethernet1/6",
        "Ethernet1/47",
        "Ethernet1/49",
        "Ethernet1/50",
        "Port-Channel10",
    ] {
        assert!(
            !host_ports.contains(port),
            "{port} is no host port: {host_ports}"
        );
        assert!(
            port_table(&toml, "edge-leaf1", port).is_none(),
            "{port}\n{toml}"
        );
    }
    let e13 = port_table(&toml, "edge-leaf1", "Ethernet1/3").expect("Ethernet1/3's own table");
    assert!(e13.contains("edge = false"), "{e13}");
    assert!(e13.contains("no effect on a trunk"), "{e13}");
    let e14 = port_table(&toml, "edge-leaf1", "Ethernet1/4").expect("Ethernet1/4's own table");
    assert!(e14.contains("bpdu_guard = false"), "{e14}");
    assert!(!e14.contains("edge ="), "{e14}");
}

/// A port configured as an edge port but cabled to a switch (the cabling
/// names a switch port at its far end), and a vPC peer link that carries
/// an edge line by mistake, are inter-switch ports: never host ports, so
/// the edge line does not put them in `host_ports`.
#[test]
fn edge_lines_on_inter_switch_ports_make_no_host_ports() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let leaf = std::fs::read_to_string(dir.join("nxos-edge-leaf1.cfg")).unwrap();
    let leaf = format!(
        "{leaf}\nvpc domain 5\n\ninterface port-channel20\n  switchport\n  switchport mode trunk\n  \
         spanning-tree port type edge trunk\n  vpc peer-link\n\ninterface Ethernet1/53\n  switchport\n  \
         switchport mode trunk\n  channel-group 20 mode active\n  no shutdown\n"
    );
    let cabling = "device,port,peer_device,peer_port\nedge-leaf1,Eth1/2,spine9,Ethernet1/7\n";
    let docs = vec![
        parse("nxos-edge-leaf1.cfg", &leaf, None).unwrap(),
        parse("cabling.csv", cabling, None).unwrap(),
    ];
    let toml = to_design(&docs, "imported").toml;
    assert_loads_cleanly(&toml);
    let host_ports = toml
        .lines()
        .find(|l| l.starts_with("host_ports = "))
        .unwrap_or_else(|| panic!("{toml}"));
    assert!(host_ports.contains("Ethernet1/1 "), "{host_ports}");
    for port in ["Ethernet1/2", "Port-Channel20", "Ethernet1/53"] {
        assert!(!host_ports.contains(port), "{port}: {host_ports}");
        assert!(
            port_table(&toml, "edge-leaf1", port).is_none(),
            "{port}\n{toml}"
        );
    }
}

/// `spanning-tree port type edge trunk default` reaches the trunks the
/// plain default does not (NX-OS): the trunk without an edge line of the
/// fixture (Ethernet1/6) becomes an edge port facing a host, by the
/// default's line; without that line it is none.
#[test]
fn the_edge_trunk_default_reaches_trunks() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let leaf = std::fs::read_to_string(dir.join("nxos-edge-leaf1.cfg")).unwrap();
    let with = leaf.replace(
        "spanning-tree port type edge default\n",
        "spanning-tree port type edge default\nspanning-tree port type edge trunk default\n",
    );
    assert_ne!(with, leaf);
    let toml = to_design(
        &[parse("nxos-edge-leaf1.cfg", &with, None).unwrap()],
        "imported",
    )
    .toml;
    assert_loads_cleanly(&toml);
    let host_ports = toml
        .lines()
        .find(|l| l.starts_with("host_ports = "))
        .unwrap_or_else(|| panic!("{toml}"));
    assert!(
        host_ports.contains("Ethernet1/6 (nxos-edge-leaf1.cfg:90; configured as an edge port: nxos-edge-leaf1.cfg:33 (the switch's edge default))"),
        "{host_ports}"
    );
    // The uplink port-channel stays out: its own `spanning-tree port type
    // network` wins over the default, and its members follow it.
    for port in ["Port-Channel10", "Ethernet1/49", "Ethernet1/50"] {
        assert!(!host_ports.contains(port), "{port}: {host_ports}");
    }
    // The trunk with a plain `edge` line stays no edge port: its own line
    // wins over the default.
    let e13 = port_table(&toml, "edge-leaf1", "Ethernet1/3").expect("Ethernet1/3's own table");
    assert!(e13.contains("edge = false"), "{e13}");
}

/// The provenance of Ethernet1/3's `edge = false` (a plain edge line on an
/// NX-OS trunk): its own line, and the vendor rule as a cited default, so
/// `netlint check` on the config points at the line and names the rule.
#[test]
fn a_plain_edge_line_on_an_nxos_trunk_cites_its_line_and_the_vendor_rule() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let text = std::fs::read_to_string(dir.join("nxos-edge-leaf1.cfg")).unwrap();
    let imported = to_design(
        &[parse("nxos-edge-leaf1.cfg", &text, None).unwrap()],
        "imported",
    );
    let toml = &imported.toml;
    let table = toml
        .find("[switches.edge-leaf1.ports.\"Ethernet1/3\"]")
        .unwrap_or_else(|| panic!("{toml}"));
    let start = table + toml[table..].find("edge = false").unwrap();
    let m = imported
        .map
        .lookup(start..start + "edge = false".len())
        .unwrap_or_else(|| panic!("not mapped"));
    let lines: Vec<u32> = m
        .from
        .iter()
        .filter_map(|s| s.at())
        .map(|a| a.line)
        .collect();
    assert_eq!(lines, [69], "the `spanning-tree port type edge` line");
    assert_eq!(text.lines().nth(68), Some("  spanning-tree port type edge"));
    assert!(
        m.from.iter().any(|s| matches!(
            s,
            netlint_import::design::Src::Default { source, .. } if source.contains("edge trunk")
        )),
        "{:?}",
        m.from
    );
}
