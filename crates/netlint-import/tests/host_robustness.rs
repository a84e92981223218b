//! Host collections as PowerShell really writes them: mutated bytes never
//! panic (an error lies at a line of the file), depth-truncated objects
//! and enums written as names are read for what they are, and Network ATC
//! intents are compared with the host as built.

use std::path::Path;

use netlint_import::design::to_design_with_hosts;
use netlint_import::host::facts::{Lba, TeamingMode, Transport};
use netlint_import::host::fold::NoteKind;
use netlint_import::host::read_hyperv;
use proptest::prelude::*;

fn fixture(rel: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/host-fixtures")
            .join(rel),
    )
    .unwrap()
}

/// Lines as the reader counts them: `\r\n`, `\n` and a lone `\r` each
/// end one.
fn lines(bytes: &[u8]) -> u32 {
    let text = netlint_import::host::json::decode(bytes);
    text.replace("\r\n", "\n")
        .replace('\r', "\n")
        .split('\n')
        .count() as u32
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any byte changed, any cut: facts or an error inside the file.
    #[test]
    fn mutated_collections_never_panic(at in any::<usize>(), byte in any::<u8>(), cut in any::<usize>(), utf16 in any::<bool>()) {
        let mut bytes = fixture(if utf16 { "converged/hv02.json" } else { "lbfo/lb01.json" });
        let i = at % bytes.len();
        bytes[i] = byte;
        bytes.truncate(bytes.len() - cut % (bytes.len() / 4));
        let total = lines(&bytes);
        match read_hyperv("x.json", &bytes) {
            Ok(h) => {
                let d = to_design_with_hosts(&[], &[h], "x");
                prop_assert!(d.toml.contains("[hosts."));
            }
            Err(e) => prop_assert!(e.line >= 1 && e.line <= total, "{e} of {total} lines"),
        }
    }

    /// Arbitrary text: never a panic.
    #[test]
    fn arbitrary_text_never_panics(s in "\\PC{0,200}") {
        let _ = read_hyperv("x.json", s.as_bytes());
        let _ = netlint_import::host::json::parse("x.json", &s);
    }

    /// Format-List text, any line changed, cut anywhere or joined with
    /// arbitrary text (a prompt, a colon, a brace): facts or an error,
    /// never a panic; a folder of such files too.
    #[test]
    fn mutated_format_list_text_never_panics(
        at in any::<usize>(),
        cut in any::<usize>(),
        s in "(PS C:\\\\> |\\[h\\]: PS x> |Get-|[ :{},.]|\\PC){0,40}",
    ) {
        let text = String::from_utf8(fixture("format-list/hv01.txt")).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let i = at % lines.len();
        let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        changed[i] = format!("{}{s}", &lines[i][..lines[i].len() / 2]);
        let mut joined = changed.join("\n");
        let keep = joined.len() - cut % joined.len().max(1);
        while !joined.is_char_boundary(keep.min(joined.len())) {
            joined.pop();
        }
        joined.truncate(keep.min(joined.len()));
        for name in ["hv01.txt", "Get-NetAdapter.txt"] {
            if let Ok(r) = netlint_import::read_input(name, joined.as_bytes(), None) {
                let _ = netlint_import::input::design(vec![r.input], "x");
            }
            let _ = netlint_import::host::read_hyperv_text(name, &joined);
        }
        let _ = netlint_import::host::fltext::from_files(
            "d",
            vec![("Get-VMSwitch.txt".to_string(), joined.clone().into_bytes()), (s.clone(), s.into_bytes())],
        );
    }

    /// Arbitrary text as Format-List text: never a panic.
    #[test]
    fn arbitrary_text_as_format_list_never_panics(s in "([A-Za-z]{1,6} +: |PS C:\\\\> Get-VMSwitch|\\{|\\}|\\.\\.\\.|\\n|\\PC){0,60}") {
        let _ = netlint_import::host::read_hyperv_text("Get-NetAdapter.txt", &s);
        let _ = netlint_import::host::read_hyperv_text("x.txt", &s);
    }
}

/// Replaces the text of one cmdlet's output in a collection.
fn with_cmdlet(base: &str, cmdlet: &str, json: &str) -> Vec<u8> {
    let mut v: serde_json::Value = serde_json::from_str(base).unwrap();
    v["Cmdlets"][cmdlet] = serde_json::from_str(json).unwrap();
    serde_json::to_string_pretty(&v).unwrap().into_bytes()
}

#[test]
fn enums_written_as_names_read_like_numbers() {
    // PowerShell 7 `ConvertTo-Json -EnumsAsStrings`.
    let base = String::from_utf8(fixture("lbfo/lb01.json")).unwrap();
    let b = with_cmdlet(
        &base,
        "Get-NetLbfoTeam",
        r#"{"Name": "VMTeam", "Members": ["NIC1", "NIC2"], "TeamingMode": "Lacp", "LoadBalancingAlgorithm": "Dynamic"}"#,
    );
    let text = String::from_utf8(b).unwrap();
    let b = with_cmdlet(
        &text,
        "Get-VMHost",
        r#"{"VirtualMachineMigrationPerformanceOption": "SMB", "MaximumVirtualMachineMigrations": 4}"#,
    );
    let h = read_hyperv("lb01.json", &b).unwrap();
    let t = &h.lbfo_teams.as_ref().unwrap()[0];
    assert_eq!(t.mode.unwrap().value, TeamingMode::Lacp);
    assert_eq!(t.lba.unwrap().value, Lba::Dynamic);
    assert_eq!(
        h.vmhost.as_ref().unwrap().transport.unwrap().value,
        Transport::Smb
    );
}

#[test]
fn a_depth_truncated_bandwidth_setting_is_unknown_and_said() {
    // ConvertTo-Json's default -Depth 2 writes a nested object as its type
    // name (5.1) or as "@{...}" text.
    let base = String::from_utf8(fixture("lbfo/lb01.json")).unwrap();
    let b = with_cmdlet(
        &base,
        "Get-VMNetworkAdapter",
        r#"[{"Name": "LM", "SwitchName": "VMSwitch", "IsManagementOs": true,
             "BandwidthSetting": "Microsoft.HyperV.PowerShell.VMNetworkAdapterBandwidthSetting"}]"#,
    );
    let h = read_hyperv("lb01.json", &b).unwrap();
    let v = &h.vnics.as_ref().unwrap()[0];
    assert!(v.weight.is_none());
    assert!(
        h.remarks
            .iter()
            .any(|r| r.text.contains("BandwidthSetting was written as text")),
        "{:?}",
        h.remarks
    );
    let d = to_design_with_hosts(&[], &[h], "x");
    assert!(!d.toml.contains("min_bandwidth_weight"), "{}", d.toml);
}

#[test]
fn network_atc_intents_are_compared_with_the_host_as_built() {
    // Azure Local: a storage intent whose adapters have RDMA off and a
    // different jumbo size than its override, and a compute intent on
    // adapters no vSwitch uses.
    let base = String::from_utf8(fixture("lbfo/lb01.json")).unwrap();
    let b = with_cmdlet(
        &base,
        "Get-NetIntent",
        r#"[{"IntentName": "storage", "IntentType": 2, "NetAdapterNamesAsList": ["NIC1", "NIC3"],
              "IsComputeIntentSet": false, "IsStorageIntentSet": true, "IsManagementIntentSet": false,
              "AdapterAdvancedParametersOverride": {"JumboPacket": 9014}},
             {"IntentName": "compute", "IntentType": 1, "NetAdapterNamesAsList": ["NIC2"],
              "IsComputeIntentSet": true, "IsStorageIntentSet": false, "IsManagementIntentSet": false,
              "AdapterAdvancedParametersOverride": {"JumboPacket": 1514}}]"#,
    );
    let h = read_hyperv("lb01.json", &b).unwrap();
    let d = to_design_with_hosts(&[], &[h], "x");
    let diffs: Vec<String> = d
        .host_notes
        .iter()
        .filter(|n| n.kind == NoteKind::IntentDiffers)
        .map(|n| n.text.clone())
        .collect();
    assert!(
        diffs
            .iter()
            .any(|t| t.contains("names adapter NIC3, which the host does not have")),
        "{diffs:?}"
    );
    assert!(
        diffs
            .iter()
            .any(|t| t.contains("carries storage on adapter NIC1, whose RDMA is off")),
        "{diffs:?}"
    );
    assert!(
        diffs
            .iter()
            .any(|t| t.contains("sets JumboPacket 1514 but adapter NIC2 has 9014")),
        "{diffs:?}"
    );
    assert!(
        diffs
            .iter()
            .any(|t| t.contains("intent compute") && t.contains("no virtual switch")),
        "{diffs:?}"
    );
    assert_eq!(diffs.len(), 4, "{diffs:?}");
}

#[test]
fn a_cmdlet_cut_to_text_by_convertto_json_depth_is_missing_with_the_reason() {
    // Objects one level too deep come out as "@{Name=...; ...}" text.
    let base = String::from_utf8(fixture("lbfo/lb01.json")).unwrap();
    let b = with_cmdlet(
        &base,
        "Get-NetAdapter",
        r#"["@{Name=NIC1; InterfaceDescription=Intel(R) Ethernet 10G 2P X520 Adapter; Speed=10000000000}",
            "@{Name=NIC2; InterfaceDescription=Intel(R) Ethernet 10G 2P X520 Adapter #2; Speed=10000000000}"]"#,
    );
    let h = read_hyperv("lb01.json", &b).unwrap();
    assert!(h.nics.is_empty());
    let (_, why) = h
        .missing
        .iter()
        .find(|(m, _)| m == "Get-NetAdapter")
        .expect("named as missing");
    assert!(
        why.as_deref().unwrap().contains("-Depth was too small"),
        "{why:?}"
    );
    let d = to_design_with_hosts(&[], &[h], "x");
    assert!(
        d.host_notes.iter().any(|n| n
            .text
            .contains("Get-NetAdapter is not in the collection (its objects were written as text")),
        "{:?}",
        d.host_notes
    );
}

/// A host with `n` physical NICs (each with a hardware entry, advanced
/// properties and an RDMA entry) and `v` vNICs (each with a VLAN and a
/// team mapping), on the converged fixture.
fn many_adapters(n: usize, v: usize) -> Vec<u8> {
    let base = String::from_utf8(fixture("converged/hv01.json")).unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&base).unwrap();
    let c = &mut doc["Cmdlets"];
    let push = |c: &mut serde_json::Value, cmdlet: &str, o: serde_json::Value| {
        c[cmdlet].as_array_mut().unwrap().push(o);
    };
    for i in 0..n {
        let name = format!("NIC {i}");
        push(
            c,
            "Get-NetAdapter",
            serde_json::json!({
                "Name": name, "InterfaceDescription": format!("Mellanox ConnectX-4 Lx Ethernet Adapter #{}", i + 3),
                "ifIndex": 1000 + i, "Status": "Up", "MacAddress": format!("00-15-5D-{:02X}-{:02X}-{:02X}", i >> 16 & 255, i >> 8 & 255, i & 255),
                "LinkSpeed": "25 Gbps", "Speed": 25_000_000_000u64, "Virtual": false, "MtuSize": 9000,
            }),
        );
        push(
            c,
            "Get-NetAdapterHardwareInfo",
            serde_json::json!({"Name": name, "SlotNumber": 3, "BusNumber": i % 200}),
        );
        push(
            c,
            "Get-NetAdapterAdvancedProperty",
            serde_json::json!({
                "Name": name, "DisplayName": "Jumbo Packet", "DisplayValue": "9014", "RegistryKeyword": "*JumboPacket", "RegistryValue": ["9014"],
            }),
        );
        push(
            c,
            "Get-NetAdapterRdma",
            serde_json::json!({"Name": name, "Enabled": true}),
        );
    }
    for i in 0..v {
        let name = format!("vNIC {i}");
        push(
            c,
            "Get-VMNetworkAdapter",
            serde_json::json!({"Name": name, "IsManagementOs": true, "SwitchName": "ConvergedSwitch"}),
        );
        push(
            c,
            "Get-VMNetworkAdapterVlan",
            serde_json::json!({"ParentAdapter": {"Name": name}, "OperationMode": 1, "AccessVlanId": 100 + i % 3000}),
        );
        push(
            c,
            "Get-VMNetworkAdapterTeamMapping",
            serde_json::json!({"ParentAdapter": {"Name": name}, "NetAdapterName": "SLOT 3 Port 1"}),
        );
    }
    serde_json::to_vec(&doc).unwrap()
}

#[test]
fn many_adapters_import_in_linear_time() {
    // Each adapter searched every advanced property, hardware and RDMA
    // entry, each vNIC every VLAN and mapping, and the design writer
    // searched its tables per entry: 20,000 NICs took 10.5 s.
    let (n, v) = (20_000, 5_000);
    let bytes = many_adapters(n, v);
    let started = std::time::Instant::now();
    let h = read_hyperv("x.json", &bytes).unwrap();
    let d = to_design_with_hosts(&[], std::slice::from_ref(&h), "x");
    let took = started.elapsed();
    assert!(
        took.as_secs_f64() < 15.0,
        "{n} NICs and {v} vNICs took {took:?}"
    );
    // Each found its own entries.
    let nic = h.nics.iter().find(|x| x.name == "NIC 19999").unwrap();
    assert_eq!(nic.jumbo_packet.as_ref().map(|j| j.value), Some(9014));
    assert_eq!(nic.bus.as_ref().map(|b| b.value), Some(19_999 % 200));
    assert_eq!(nic.rdma_enabled.as_ref().map(|b| b.value), Some(true));
    let vnics = h.vnics.as_ref().unwrap();
    let last = vnics.iter().find(|x| x.name == "vNIC 4999").unwrap();
    assert_eq!(last.vlan.as_ref().map(|x| x.value), Some(100 + 4999 % 3000));
    assert_eq!(
        last.pinned.as_ref().map(|x| x.value.as_str()),
        Some("SLOT 3 Port 1")
    );
    assert!(
        d.toml.contains("NIC 19999"),
        "the design names the last NIC"
    );
}
