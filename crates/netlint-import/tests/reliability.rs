//! Issue 37: inputs that panicked, were changed silently or wrote designs
//! the loader refuses. Each test names the class and fails on a reader
//! without the fix.

use netlint_import::*;

include!("support/loads.rs");

fn fixture(name: &str) -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name),
    )
    .unwrap()
}

fn lldp(text: &str, format: LldpFormat) -> Result<LldpTable, InputError> {
    match parse("l.json", text, Some(Kind::Lldp(format)))? {
        Document::Lldp(t) => Ok(t),
        other => panic!("{other:?}"),
    }
}

/// `}` on a line before the first `{`: the JSON's end was looked for
/// before its start and the text was sliced backwards (a panic).
#[test]
fn lldp_json_with_a_closing_brace_before_the_first_opening_one_is_an_input_error() {
    for format in [LldpFormat::NxOsJson, LldpFormat::EosJson] {
        let e = lldp("}\n\n{\n", format).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Json(_)), "{e}");
        assert_eq!(e.line, 3, "{e}");
        // A comment ending in `}` above the JSON: what content detection
        // takes for LLDP JSON (`diff` reads it so).
        let e = lldp("# }\n\n{\"lldpNeighbors\": {\n", format).unwrap_err();
        assert_eq!(e.line, 3, "{e}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, ..Default::default() })]

    /// Lines of braces, comments, prompts and table keys in any order:
    /// LLDP JSON never panics, and an error or an entry is at a line of the
    /// file.
    #[test]
    fn lldp_json_shaped_noise_never_panics(lines in proptest::collection::vec(
        "(\\{|\\}|# \\}|! x|tor1# show lldp|\\[|\\]|,|\"lldpNeighbors\": \\{|\"TABLE_nbor_detail\": \\{|\"ROW_nbor_detail\": \\[|\"l_port_id\": \"Eth1/1\"|\"Ethernet1\": \\{\"lldpNeighborInfo\": \\[\\{\"systemName\": \"a\"\\}\\]\\}|  |)",
        0..12,
    )) {
        let text = lines.join("\n");
        let n = lines.len().max(1) as u32;
        for format in [LldpFormat::NxOsJson, LldpFormat::EosJson] {
            match lldp(&text, format) {
                Ok(t) => {
                    for nb in &t.neighbors {
                        proptest::prop_assert!(nb.line >= 1 && nb.line <= n, "{text:?}");
                    }
                }
                Err(e) => proptest::prop_assert!(e.line >= 1 && e.line <= n, "{e} {text:?}"),
            }
        }
    }
}

/// A running-config is no LLDP JSON: an error, not a panic.
#[test]
fn a_running_config_read_as_lldp_json_is_an_input_error() {
    for name in ["eos-leaf1.cfg", "nxos-tor1.cfg", "os10-vlt1.cfg"] {
        for format in [LldpFormat::EosJson, LldpFormat::NxOsJson] {
            let e = lldp(&fixture(name), format).unwrap_err();
            assert!(
                matches!(e.kind, ErrorKind::Json(_) | ErrorKind::WrongKind(_)),
                "{name}: {e}"
            );
            assert!(e.line > 0, "{name}: {e}");
        }
    }
}

/// Entries stand on their own lines, also when a key's text occurs
/// elsewhere (inside a value, or as a key of another object).
#[test]
fn lldp_json_entries_stand_on_their_own_lines() {
    let nxos = "tor1# show lldp neighbors detail | json\n{\"TABLE_x\": {\"l_port_id\": \"Eth9/9\"},\n \"TABLE_nbor_detail\": {\"ROW_nbor_detail\": [\n  {\"sys_name\": \"a\",\n   \"l_port_id\": \"Eth1/1\", \"port_id\": \"Ethernet1/1\"},\n  {\"l_port_id\": \"Eth1/2\",\n   \"sys_name\": \"b\"}\n]}}\n";
    let t = lldp(nxos, LldpFormat::NxOsJson).unwrap();
    let lines: Vec<(u32, Option<u32>)> = t
        .neighbors
        .iter()
        .map(|n| (n.line, n.local_port.line()))
        .collect();
    assert_eq!(lines, vec![(5, Some(5)), (6, Some(6))]);
    assert_eq!(t.local_device.as_ref().unwrap().value, "tor1");
    let eos = "{\"lldpNeighbors\": {\n \"Ethernet2\": {\"lldpNeighborInfo\": [{\"systemName\": \"a\", \"chassisId\": \"x\", \"Ethernet1\": 1}]},\n \"Ethernet1\": {\"lldpNeighborInfo\": [\n   {\"systemName\": \"leaf2\", \"chassisId\": \"y\"}]}\n}}\n";
    let t = lldp(eos, LldpFormat::EosJson).unwrap();
    let by_port: Vec<(String, u32)> = t
        .neighbors
        .iter()
        .map(|n| (n.local_port.value.as_str().to_string(), n.line))
        .collect();
    assert!(
        by_port.contains(&("Ethernet1".to_string(), 3)),
        "{by_port:?}"
    );
    assert!(
        by_port.contains(&("Ethernet2".to_string(), 2)),
        "{by_port:?}"
    );
}

const VENDORS: [Vendor; 4] = [Vendor::NxOs, Vendor::Eos, Vendor::Ios, Vendor::Os10];

fn config(text: &str, vendor: Vendor) -> SwitchConfig {
    match parse("t.cfg", text, Some(Kind::Config(vendor))).unwrap() {
        Document::Config(c) => *c,
        other => panic!("{other:?}"),
    }
}

/// The design imported from `docs` loads without a diagnostic.
fn assert_loads(docs: &[Document]) -> String {
    let imported = netlint_import::design::to_design(docs, "imported");
    assert_loads_cleanly(&imported.toml);
    imported.toml
}

fn not_understood(c: &SwitchConfig) -> Vec<u32> {
    c.summary.not_understood.iter().map(|n| n.line).collect()
}

/// `interface vlanN` with N outside 1-4094 names no VLAN: OS10 made
/// `vlan5000` VLAN 904 and `vlan4100` VLAN 4 (the id was masked to 12
/// bits), wrote `vlan0` and `vlan4095` into a design that then failed, and
/// dropped `vlan70000` while counting it understood.
#[test]
fn vlan_interfaces_outside_1_to_4094_are_not_understood_on_every_vendor() {
    for vendor in VENDORS {
        for n in ["5000", "4100", "0", "4095", "70000"] {
            let text =
                format!("hostname sw1\ninterface vlan{n}\n description svi\ninterface vlan20\n");
            let c = config(&text, vendor);
            // The line and its child, which belongs to no known interface.
            assert_eq!(not_understood(&c), vec![2, 3], "{vendor:?} vlan{n}");
            let ids: Vec<u16> = c.vlans.keys().copied().collect();
            let expected: Vec<u16> = if vendor == Vendor::Os10 {
                vec![20]
            } else {
                vec![]
            };
            assert_eq!(ids, expected, "{vendor:?} vlan{n}");
            let toml = assert_loads(&[Document::Config(Box::new(c))]);
            assert!(!toml.contains("904") && !toml.contains("= [4]"), "{toml}");
        }
    }
}

/// `vlan X` where X does not start with an ASCII digit was "ignored as
/// irrelevant" (and passed --strict); options of the command still are.
#[test]
fn vlan_lines_that_are_no_list_are_not_understood() {
    for vendor in VENDORS {
        for x in ["-1", "ten", "\u{ff11}\u{ff10}", "10 x", "+5"] {
            let c = config(
                &format!("hostname sw1\nvlan {x}\n name a\nvlan 30\n"),
                vendor,
            );
            assert_eq!(not_understood(&c)[..1], [2], "{vendor:?} vlan {x}");
            assert_eq!(c.vlans.keys().copied().collect::<Vec<_>>(), vec![30]);
            assert_loads(&[Document::Config(Box::new(c))]);
        }
        let c = config(
            "vlan internal allocation policy ascending\nvlan dot1Q tag native\nvlan configuration 10\nvlan internal order ascending range 1006 4094\n",
            vendor,
        );
        assert!(
            not_understood(&c).is_empty(),
            "{vendor:?} {:?}",
            c.summary.not_understood
        );
    }
}

/// `switchport trunk allowed vlan 10,5000` does not read: the port's
/// VLANs are unknown, never the vendor default of "no such line" (every
/// VLAN), and the line is listed.
#[test]
fn an_unreadable_allowed_vlan_list_leaves_the_port_vlans_unknown() {
    for vendor in VENDORS {
        for list in ["10,5000", "0", "10-4095", "10,ten"] {
            let text = format!(
                "hostname sw1\nvlan 10\ninterface Ethernet1/1\n switchport mode trunk\n switchport trunk allowed vlan {list}\n switchport trunk allowed vlan add 20\n"
            );
            let c = config(&text, vendor);
            assert_eq!(not_understood(&c), vec![5], "{vendor:?} {list}");
            let p = c.interface("Ethernet1/1").unwrap();
            assert_eq!(p.allowed_vlans, None, "{vendor:?} {list}");
            let toml = assert_loads(&[Document::Config(Box::new(c))]);
            assert!(!toml.contains("1-4094"), "{toml}");
        }
        // A whole new list after it is known again (not on OS10, where a
        // list adds to the one before).
        let c = config(
            "interface Ethernet1/1\n switchport mode trunk\n switchport trunk allowed vlan 10,5000\n switchport trunk allowed vlan 30\n",
            vendor,
        );
        let p = c.interface("Ethernet1/1").unwrap();
        let expected = (vendor != Vendor::Os10).then(|| "30".to_string());
        assert_eq!(
            p.allowed_vlans
                .map(|a| vlans::switch_list(&a.value).to_string()),
            expected,
            "{vendor:?}"
        );
    }
}

/// `vlan 1-4094` cost about 100 ns per VLAN id (every id of the range
/// walked and looked up in the map on every line): 100,000 such lines took
/// over 20 s. Ranges are now set a word at a time and only VLANs not
/// defined before are looked up, so a range line costs about what a
/// one-VLAN line does (measured in debug: 1.4 s for 100,000 of either).
#[test]
fn vlan_ranges_cost_the_same_whatever_their_length() {
    let timed = |lines: &[&str]| {
        let mut text = String::from("hostname sw1\n");
        for k in 0..100_000usize {
            text.push_str(lines[k % lines.len()]);
        }
        text.push_str(
            "interface Ethernet1/1\n switchport mode trunk\n switchport trunk allowed vlan 1-4094\n",
        );
        let t = std::time::Instant::now();
        let c = config(&text, Vendor::NxOs);
        let took = t.elapsed();
        assert!(not_understood(&c).is_empty());
        (c, took)
    };
    let (c, ranges) = timed(&["vlan 1-4094\n", "vlan 2-4000,4090\n"]);
    assert_eq!(c.vlans.len(), 4094);
    let (c, singles) = timed(&["vlan 10\n", "vlan 20\n"]);
    assert_eq!(c.vlans.len(), 2);
    // Generous against a loaded machine: walking every id made a range
    // line over a hundred times dearer than a one-VLAN line.
    assert!(
        ranges < singles * 4 + std::time::Duration::from_millis(500),
        "ranges {ranges:?}, single VLANs {singles:?}"
    );
    assert!(ranges < std::time::Duration::from_secs(10), "{ranges:?}");
}
