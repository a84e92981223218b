//! Issue 37: inputs that panicked, were changed silently or wrote designs
//! the loader refuses. Each test names the class and fails on a reader
//! without the fix.

use netlint_import::*;

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
    assert!(by_port.contains(&("Ethernet1".to_string(), 3)), "{by_port:?}");
    assert!(by_port.contains(&("Ethernet2".to_string(), 2)), "{by_port:?}");
}
