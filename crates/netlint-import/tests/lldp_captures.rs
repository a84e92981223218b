//! LLDP as captured (issue 31 item 9): the `show lldp neighbors` summary
//! tables of NX-OS, EOS, IOS and OS10 and an EOS detail output with TLV
//! sub-lines and several neighbours on one port, each fixture citing the
//! vendor documentation or published outputs it follows. Every row is a
//! neighbour or a line not understood; the designs they give are
//! snapshotted, with their notes.

use std::path::Path;

use netlint_import::design::{to_design, Note};
use netlint_import::lldp::{KindFrom, PeerKind};
use netlint_import::{parse, Document, Kind, LineClass, LldpFormat, LldpTable};

include!("support/loads.rs");

fn text(dir: &str, name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(dir)
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn table(name: &str) -> LldpTable {
    match parse(name, &text("lldp-fixtures", name), None) {
        Ok(Document::Lldp(t)) => t,
        Ok(d) => panic!("{name}: read as {:?}", d.kind()),
        Err(e) => panic!("{e}"),
    }
}

/// Every line of a table is classed, and none is lost: a row is a
/// neighbour or a line not understood.
fn every_line_classed(t: &LldpTable) {
    let s = &t.summary;
    assert_eq!(
        s.understood() + s.ignored() + s.not_understood_count(),
        s.lines(),
        "{}",
        t.file
    );
}

/// (fixture, format, neighbours) of each capture.
const CAPTURES: [(&str, LldpFormat, usize); 5] = [
    ("eos-leaf1-summary.lldp.txt", LldpFormat::EosText, 6),
    ("nxos-tor1-summary.lldp.txt", LldpFormat::NxOsText, 6),
    ("ios-access1-summary.lldp.txt", LldpFormat::IosText, 5),
    ("os10-vlt1-summary.lldp.txt", LldpFormat::Os10Text, 5),
    ("eos-leaf1-detail.lldp.txt", LldpFormat::EosText, 7),
];

/// Each capture is detected as its table, every row read (none dropped,
/// none not understood), and its facts snapshotted.
#[test]
fn every_row_of_every_capture_is_a_neighbour() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lldp-fixtures");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    assert_eq!(names.len(), CAPTURES.len(), "{names:?}");
    for (name, format, neighbours) in CAPTURES {
        let t = table(name);
        assert_eq!(t.format, format, "{name}");
        assert_eq!(t.neighbors.len(), neighbours, "{name}: {:#?}", t.neighbors);
        assert!(
            t.summary.not_understood.is_empty(),
            "{name}: {:#?}",
            t.summary.not_understood
        );
        every_line_classed(&t);
        // Each row's line is understood, never ignored as table text.
        for n in &t.neighbors {
            assert_eq!(
                t.summary.class(n.line),
                Some(LineClass::Understood),
                "{name}:{}",
                n.line
            );
        }
        insta::assert_debug_snapshot!(format!("lldp-captures__{name}"), t);
    }
}

/// The EOS summary that was "27 lines ignored as irrelevant": its six
/// rows are six neighbours, on the ports they name.
#[test]
fn the_eos_summary_table_is_read_row_by_row() {
    let t = table("eos-leaf1-summary.lldp.txt");
    let rows: Vec<(String, String, String)> = t
        .neighbors
        .iter()
        .map(|n| {
            (
                n.local_port.value.to_string(),
                n.system_name.clone().unwrap_or_default(),
                n.port_id.clone().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        rows[4],
        (
            "Ethernet49/1".to_string(),
            "spine1.example.net".to_string(),
            "Ethernet1/23".to_string()
        )
    );
    assert_eq!(rows[5].0, "Management1");
    // The table states no capabilities: every kind is inferred, said once.
    assert!(t.neighbors.iter().all(|n| n.peer.from == KindFrom::PortId));
    assert!(
        t.summary
            .notes
            .iter()
            .any(|n| n.text.contains("6 neighbour(s)") && n.text.contains("inferred")),
        "{:#?}",
        t.summary.notes
    );
    // Forced with --from lldp-eos, as before detection knew the table.
    let forced = parse(
        "x",
        &text("lldp-fixtures", "eos-leaf1-summary.lldp.txt"),
        Kind::from_key("lldp-eos"),
    )
    .unwrap();
    let Document::Lldp(forced) = forced else {
        panic!()
    };
    assert_eq!(forced.neighbors, t.neighbors);
}

/// NX-OS puts a long Device ID on a line of its own; IOS cuts it against
/// the local port; an empty Capability column and a Port ID with a space
/// read; OS10's `Not Advertised` is no name and a name cut with `...` is
/// noted.
#[test]
fn summary_rows_read_as_each_vendor_lays_them_out() {
    let nx = table("nxos-tor1-summary.lldp.txt");
    let hub = &nx.neighbors[2];
    assert_eq!(
        hub.system_name.as_deref(),
        Some("oob-hub-sw.corp.example.net")
    );
    assert_eq!(hub.local_port.value.as_str(), "Management0");
    assert_eq!((hub.line, hub.local_port.line()), (9, Some(10)));
    let fw = &nx.neighbors[3];
    assert_eq!(
        (fw.capabilities.as_ref(), fw.port_id.as_deref()),
        (None, Some("ethernet1/9"))
    );
    assert_eq!(nx.neighbors[0].peer.kind, PeerKind::Host);
    assert_eq!(nx.neighbors[0].peer.from, KindFrom::Capabilities);

    let ios = table("ios-access1-summary.lldp.txt");
    let cut = &ios.neighbors[1];
    assert_eq!(cut.system_name.as_deref(), Some("dist2-core.campus.ex"));
    assert_eq!(cut.local_port.value.as_str(), "TenGigabitEthernet1/1/2");
    assert_eq!(ios.neighbors[3].port_id.as_deref(), Some("Port 1"));
    // An ESXi host's distributed switch says Bridge as a switch does: with
    // a port that is no switch interface, its kind is inferred (a host).
    let esx = &ios.neighbors[2];
    assert_eq!(
        (esx.peer.kind, esx.peer.from),
        (PeerKind::Host, KindFrom::PortId)
    );

    let os10 = table("os10-vlt1-summary.lldp.txt");
    assert_eq!(os10.neighbors[0].system_name, None);
    assert_eq!(
        os10.neighbors[0].chassis_id.as_deref(),
        Some("b8:59:9f:00:11:01")
    );
    assert_eq!(os10.neighbors[4].port_id.as_deref(), Some("Eth1/32"));
    assert!(
        os10.summary
            .notes
            .iter()
            .any(|n| n.line == 9 && n.text.contains("cut the neighbour's name short")),
        "{:#?}",
        os10.summary.notes
    );
}

/// EOS detail: a `Link Aggregation` TLV's `Port ID : 0` starts no
/// neighbour; three neighbours on one port are all kept and noted; kinds
/// come from the system description first (a Debian hypervisor that says
/// Bridge is a host; an NX-OS neighbour is a switch whatever its port
/// description).
#[test]
fn eos_detail_sub_lines_and_several_neighbours_on_one_port() {
    let t = table("eos-leaf1-detail.lldp.txt");
    assert!(t
        .neighbors
        .iter()
        .all(|n| n.port_id.as_deref() != Some("0")));
    let on_eth1: Vec<&str> = t
        .neighbors
        .iter()
        .filter(|n| n.local_port.value.as_str() == "Ethernet1")
        .filter_map(|n| n.system_name.as_deref())
        .collect();
    assert_eq!(on_eth1, ["pve1", "vm-web01", "vm-web02"]);
    assert!(
        t.summary.notes.iter().any(|n| n
            .text
            .starts_with("Ethernet1 has 3 neighbours: pve1 (line 6), vm-web01")),
        "{:#?}",
        t.summary.notes
    );
    let pve = &t.neighbors[0];
    assert_eq!(
        (pve.peer.kind, pve.peer.from),
        (PeerKind::Host, KindFrom::Description)
    );
    let spine = t.neighbors.last().unwrap();
    assert_eq!(
        (spine.peer.kind, spine.peer.from),
        (PeerKind::Switch, KindFrom::Description)
    );
    // The Link Aggregation `Port ID` lines are TLV text, not understood
    // as a neighbour's and not listed as not understood.
    let lag_port_lines: Vec<u32> = text("lldp-fixtures", "eos-leaf1-detail.lldp.txt")
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with("Port ID                : "))
        .map(|(i, _)| i as u32 + 1)
        .collect();
    assert_eq!(lag_port_lines.len(), 6);
    for l in lag_port_lines {
        assert!(
            matches!(t.summary.class(l), Some(LineClass::Ignored(_))),
            "line {l}"
        );
    }
}

/// A row that reads as none is a line not understood, listed with why; a
/// table's own count that differs from the rows read is a note; a table
/// of text with no header and no entry says it read nothing.
#[test]
fn no_row_is_lost_without_a_word() {
    let text = "tor1# show lldp neighbors\nCapability codes:\n  (R) Router, (B) Bridge, (T) Telephone, (C) DOCSIS Cable Device\n  (W) WLAN Access Point, (P) Repeater, (S) Station, (O) Other\nDevice ID            Local Intf      Hold-time  Capability  Port ID\ntor2                 Eth1/49         101        BR          Ethernet1/49\ngarbled row here\nlonely-device-id-without-its-row\nTotal entries displayed: 3\n";
    let Document::Lldp(t) = parse("t.txt", text, None).unwrap() else {
        panic!()
    };
    assert_eq!(t.format, LldpFormat::NxOsText);
    assert_eq!(t.neighbors.len(), 1);
    let lines: Vec<u32> = t.summary.not_understood.iter().map(|n| n.line).collect();
    assert_eq!(lines, [7, 8]);
    every_line_classed(&t);
    assert!(
        t.summary
            .notes
            .iter()
            .any(|n| n.line == 9 && n.text.contains("counts 3 neighbour(s), 1 were read")),
        "{:#?}",
        t.summary.notes
    );
    // EOS: a row without its TTL, an interface that counts more than it
    // shows.
    let eos = "leaf1#show lldp neighbors\nPort   Neighbor Device ID   Neighbor Port ID   TTL\nEt1    leaf2                Ethernet1\n";
    let Document::Lldp(t) = parse("e.txt", eos, Kind::from_key("lldp-eos")).unwrap() else {
        panic!()
    };
    assert_eq!(t.summary.not_understood.len(), 1);
    let eos = "leaf1#show lldp neighbors detail\nInterface Ethernet1 detected 2 LLDP neighbors:\n\n  Neighbor 001c.7301.0202/Ethernet1, age 5 seconds\n  - Chassis ID type: MAC address (4)\n    Chassis ID     : 001c.7301.0202\n  - Port ID type: Interface name (5)\n    Port ID        : \"Ethernet1\"\n  - System Name: \"leaf2\"\n";
    let Document::Lldp(t) = parse("d.txt", eos, None).unwrap() else {
        panic!()
    };
    assert_eq!(t.neighbors.len(), 1);
    assert!(
        t.summary
            .notes
            .iter()
            .any(|n| n.line == 2 && n.text.contains("counts 2")),
        "{:#?}",
        t.summary.notes
    );
    // Forced on text that is no table: nothing read, and said.
    let Document::Lldp(t) = parse("n.txt", "hello\nworld\n", Kind::from_key("lldp-eos")).unwrap()
    else {
        panic!()
    };
    assert!(t.neighbors.is_empty());
    assert!(
        t.summary
            .notes
            .iter()
            .any(|n| n.text.starts_with("no neighbour was read")),
        "{:#?}",
        t.summary.notes
    );
}

fn import(files: &[(&str, &str)]) -> (String, Vec<Note>) {
    let docs: Vec<Document> = files
        .iter()
        .map(|(dir, f)| parse(f, &text(dir, f), None).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let imported = to_design(&docs, "imported");
    assert_loads_cleanly(&imported.toml);
    (imported.toml, imported.notes)
}

fn notes_text(notes: &[Note]) -> String {
    notes.iter().map(|n| format!("{n}\n")).collect()
}

const F: &str = "fixtures";
const L: &str = "lldp-fixtures";

/// The designs each capture gives with its switches' configs.
#[test]
fn designs_from_the_captures() {
    for (name, files) in [
        (
            "eos-summary",
            [
                (F, "eos-leaf1.cfg"),
                (F, "eos-leaf2.cfg"),
                (L, "eos-leaf1-summary.lldp.txt"),
            ],
        ),
        (
            "nxos-summary",
            [
                (F, "nxos-tor1.cfg"),
                (F, "nxos-tor2.cfg"),
                (L, "nxos-tor1-summary.lldp.txt"),
            ],
        ),
        (
            "os10-summary",
            [
                (F, "os10-vlt1.cfg"),
                (F, "os10-vlt2.cfg"),
                (L, "os10-vlt1-summary.lldp.txt"),
            ],
        ),
        (
            "eos-detail",
            [
                (F, "eos-leaf1.cfg"),
                (F, "eos-leaf2.cfg"),
                (L, "eos-leaf1-detail.lldp.txt"),
            ],
        ),
    ] {
        let (toml, notes) = import(&files);
        insta::assert_snapshot!(format!("lldp-captures__{name}.toml"), toml);
        insta::assert_snapshot!(format!("lldp-captures__{name}.notes"), notes_text(&notes));
    }
    let (toml, notes) = import(&[(F, "ios-access1.cfg"), (L, "ios-access1-summary.lldp.txt")]);
    insta::assert_snapshot!("lldp-captures__ios-summary.toml", toml);
    insta::assert_snapshot!("lldp-captures__ios-summary.notes", notes_text(&notes));
}

/// A switch that sends a port description is a switch: its NX-OS system
/// description says so, and its Port ID (`Ethernet1/23`) is its port,
/// not the description; the hypervisor's guests on one port are noted,
/// not dropped.
#[test]
fn a_stated_switch_is_written_a_switch_and_shared_ports_are_noted() {
    let (toml, notes) = import(&[
        (F, "eos-leaf1.cfg"),
        (F, "eos-leaf2.cfg"),
        (L, "eos-leaf1-detail.lldp.txt"),
    ]);
    assert!(toml.contains("[switches.spine1]"), "{toml}");
    assert!(
        !notes.iter().any(
            |n| matches!(n, Note::NotImportedPeer { peer_device, .. } if peer_device == "spine1")
        ),
        "{}",
        notes_text(&notes)
    );
    let shared: Vec<String> = notes
        .iter()
        .filter_map(|n| match n {
            Note::SharedPort { left, .. } => Some(left.0.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(shared, ["vm-web01 ens18", "vm-web02 ens18"]);
}
