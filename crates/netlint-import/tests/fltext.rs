//! PowerShell `Format-List` text of the host cmdlets (issue 32 item 6a):
//! the transcript and the folder of `tests/host-fixtures/format-list/`
//! (HV01 of `host-fixtures/converged/`, see its README) read to the same
//! facts as the JSON collection wherever both state them, and to a design
//! that loads.

use std::fmt::Debug;
use std::path::{Path, PathBuf};

use netlint_import::host::facts::HostFacts;
use netlint_import::host::{fltext, read_hyperv, read_hyperv_text};
use netlint_import::input::{self, read_input, Input};
use netlint_import::model::Sourced;
use netlint_import::Kind;

include!("support/loads.rs");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/host-fixtures")
}

fn read_fs(p: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(p).map_err(|e| e.to_string())
}

fn transcript() -> String {
    std::fs::read_to_string(root().join("format-list/hv01.txt")).unwrap()
}

fn hyperv(input: Input) -> HostFacts {
    match input {
        Input::Hyperv(h) => *h,
        other => panic!("not a Hyper-V host: {:?}", other.kind()),
    }
}

fn folder() -> HostFacts {
    let r = input::read_host_dir(&root().join("format-list/hv01"), &read_fs)
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert!(r.notes.is_empty(), "{:?}", r.notes);
    hyperv(r.input)
}

fn file() -> HostFacts {
    let r =
        read_input("hv01.txt", transcript().as_bytes(), None).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(r.input.kind(), Kind::Hyperv);
    hyperv(r.input)
}

fn json() -> HostFacts {
    let bytes = std::fs::read(root().join("converged/hv01.json")).unwrap();
    read_hyperv("hv01.json", &bytes).unwrap()
}

fn v<T: Debug>(s: &Option<Sourced<T>>) -> String {
    format!("{:?}", s.as_ref().map(|s| &s.value))
}

/// The facts Format-List text of the fixture's cmdlets states, without
/// their lines: NICs, switches, vNICs (not their weight: Format-List shows
/// `BandwidthSetting` as its type name), QoS and SMB limits.
fn stated(h: &HostFacts) -> Vec<String> {
    let mut out = vec![format!("host {}", h.name)];
    for n in &h.nics {
        out.push(format!(
            "nic {} desc={} mac={} speed={} status={} jumbo={} nd={} tech={} vlan={} rdma={}",
            n.name,
            v(&n.description),
            v(&n.mac),
            v(&n.speed),
            v(&n.status),
            v(&n.jumbo_packet),
            v(&n.network_direct),
            v(&n.rdma_tech),
            v(&n.vlan),
            v(&n.rdma_enabled)
        ));
    }
    for s in h.vswitches.iter().flatten() {
        out.push(format!(
            "switch {} external={} uplinks={:?} set={} lba={} mode={} default={}",
            s.name,
            s.external,
            s.uplinks.value,
            v(&s.embedded_teaming),
            v(&s.lba),
            v(&s.bandwidth_mode),
            v(&s.default_flow_weight)
        ));
    }
    for n in h.vnics.iter().flatten() {
        out.push(format!(
            "vnic {} switch={} vlan={} rdma={} jumbo={} adapter={:?}",
            n.name,
            v(&n.switch),
            v(&n.vlan),
            v(&n.rdma_enabled),
            v(&n.jumbo_packet),
            n.adapter
        ));
    }
    for p in h.qos.policies.iter().flatten() {
        out.push(format!(
            "policy {} {:?} {}",
            p.name,
            p.matches,
            v(&p.priority)
        ));
    }
    out.push(format!("pfc {}", v(&h.qos.pfc)));
    let ets: Vec<_> = h.qos.ets.iter().flatten().map(|e| e.value).collect();
    out.push(format!("ets {ets:?}"));
    out.push(format!(
        "smb limits {:?}",
        h.smb_limits.as_ref().map(Vec::len)
    ));
    out
}

#[test]
fn both_forms_read_the_facts_the_json_collection_gives() {
    let j = stated(&json());
    let d = stated(&folder());
    let f = stated(&file());
    assert_eq!(d, j);
    assert_eq!(f, j);
    // The facts are there, not all unknown alike.
    assert!(
        j.iter()
            .any(|l| l.contains("vnic SMB1") && l.contains("vlan=Some(20)")),
        "{j:#?}"
    );
    assert!(
        j.iter()
            .any(|l| l.contains("uplinks=[\"SLOT 3 Port 1\", \"SLOT 3 Port 2\"]")),
        "{j:#?}"
    );
}

#[test]
fn what_format_list_does_not_show_stays_unknown() {
    let h = file();
    // BandwidthSetting is a type name: the weight is unknown, not 0.
    for n in h.vnics.iter().flatten() {
        assert!(n.weight.is_none(), "{}: {:?}", n.name, n.weight);
    }
    // Cmdlets the text lacks are missing (their facts unknown).
    let missing: Vec<&str> = h.missing.iter().map(|m| m.0.as_str()).collect();
    for c in [
        "Get-VMHost",
        "Get-NetAdapterHardwareInfo",
        "Get-NetQosDcbxSetting",
    ] {
        assert!(missing.contains(&c), "{missing:?}");
    }
    assert!(h.vmhost.is_none() && h.qos.willing.is_none());
    assert!(h.nics.iter().all(|n| n.slot.is_none()));
    assert!(h.not_understood.is_empty(), "{:?}", h.not_understood);
    // The [Default] class's priorities are cut (`{0, 1, 2, 4...}`): unknown
    // and said, at their line.
    let cut = h
        .remarks
        .iter()
        .find(|r| r.text.contains("$FormatEnumerationLimit"))
        .unwrap_or_else(|| panic!("{:?}", h.remarks));
    assert!(
        cut.text.contains("Priority: `{0, 1, 2, 4...}`"),
        "{}",
        cut.text
    );
    assert_eq!(
        transcript().lines().nth(cut.line as usize - 1),
        Some("Priority            : {0, 1, 2, 4...}")
    );
    // The lines of facts are the transcript's.
    let smb1 = h.vnics.iter().flatten().find(|n| n.name == "SMB1").unwrap();
    let line = smb1.vlan.as_ref().unwrap().line().unwrap();
    assert_eq!(
        transcript().lines().nth(line as usize - 1),
        Some("AccessVlanId              : 20")
    );
}

#[test]
fn a_cut_list_is_unknown_not_what_it_shows() {
    let text = "PS C:\\> Get-NetQosTrafficClass | Format-List *\n\nName                : SMB\nAlgorithm           : ETS\nBandwidthPercentage : 50\nPriority            : {3, 4, 5, 6...}\n";
    let h = read_hyperv_text("t.txt", text).unwrap();
    assert_eq!(h.qos.ets.as_deref().map(<[_]>::len), Some(0));
    assert!(h
        .remarks
        .iter()
        .any(|r| r.line == 6 && r.text.contains("cut short")));
}

#[test]
fn pfc_on_a_priority_is_read() {
    let text = "PS C:\\> Get-NetQosFlowControl\n\nName     : Priority0\nEnabled  : False\nPriority : 0\n\nName     : Priority3\nEnabled  : True\nPriority : 3\n";
    let h = read_hyperv_text("t.txt", text).unwrap();
    assert_eq!(h.qos.pfc.map(|p| p.value), Some(vec![3]));
}

fn utf16le_crlf(s: &str) -> Vec<u8> {
    let mut out = vec![0xFF, 0xFE];
    out.extend(
        s.replace('\n', "\r\n")
            .encode_utf16()
            .flat_map(u16::to_le_bytes),
    );
    out
}

#[test]
fn utf16_crlf_as_windows_powershell_writes_reads_the_same() {
    let bytes = utf16le_crlf(&transcript());
    let r = read_input("hv01.txt", &bytes, None).unwrap();
    assert_eq!(stated(&hyperv(r.input)), stated(&file()));
    // A folder of such files too.
    let dir = root().join("format-list/hv01");
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| {
            let text = std::fs::read_to_string(e.path()).unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                utf16le_crlf(&text),
            )
        })
        .collect();
    files.sort();
    let r = fltext::from_files("hv01", files).unwrap();
    let h = netlint_import::host::fltext_facts(r);
    assert_eq!(stated(&h), stated(&folder()));
}

#[test]
fn an_unknown_cmdlet_section_is_listed() {
    let text = format!(
        "{}PS C:\\> Get-NetIPAddress -InterfaceAlias 'vEthernet (SMB1)' | fl\n\nIPAddress         : 10.0.20.11\nInterfaceAlias    : vEthernet (SMB1)\nPrefixLength      : 24\n",
        transcript()
    );
    let r = read_input("hv01.txt", text.as_bytes(), None).unwrap();
    assert_eq!(r.input.not_understood(), 1);
    let h = hyperv(r.input.clone());
    let line = text
        .lines()
        .position(|l| l.contains("Get-NetIPAddress"))
        .unwrap() as u32
        + 1;
    assert_eq!(
        h.not_understood,
        vec![("Get-NetIPAddress".to_string(), line)]
    );
    let summary = input::summary_lines("hv01.txt", &r).join("\n");
    assert!(
        summary.contains(&format!(
            "hv01.txt:{line}: Get-NetIPAddress (a cmdlet netlint does not read)"
        )),
        "{summary}"
    );
}

#[test]
fn one_file_named_by_its_cmdlet_is_read() {
    let text = std::fs::read_to_string(root().join("format-list/hv01/Get-NetAdapter.txt")).unwrap();
    let r = read_input("hv01/Get-NetAdapter.txt", text.as_bytes(), None).unwrap();
    let h = hyperv(r.input);
    assert_eq!(h.name, "HV01");
    assert_eq!(h.nics.len(), 2);
    // Named otherwise, with no command line, it names no cmdlet: refused.
    let e = read_input("nics.txt", text.as_bytes(), None).unwrap_err();
    let said = e[0].kind.describe();
    assert!(
        said.contains("Format-List text that names no cmdlet"),
        "{said}"
    );
    assert!(said.contains("Get-NetAdapter.txt"), "{said}");
}

#[test]
fn format_table_text_is_refused_naming_format_list() {
    let table = "PS C:\\> Get-NetAdapter\n\nName          InterfaceDescription                    ifIndex Status LinkSpeed\n----          --------------------                    ------- ------ ---------\nSLOT 3 Port 1 Mellanox ConnectX-4 Lx Ethernet Adapter      10 Up     25 Gbps\n";
    for name in ["hv01.txt", "Get-NetAdapter.txt"] {
        let e = read_input(name, table.as_bytes(), None).unwrap_err();
        let said = e[0].kind.describe();
        assert!(said.contains("Format-Table"), "{said}");
        assert!(said.contains("`| Format-List *`"), "{said}");
        assert!(said.contains("`netlint collect hyperv`"), "{said}");
    }
    // In a folder, the file is refused the same way.
    let e = fltext::from_files(
        "hv01",
        vec![("Get-NetAdapter.txt".to_string(), table.as_bytes().to_vec())],
    )
    .unwrap_err();
    assert!(e[0].kind.describe().contains("`| Format-List *`"));
    assert_eq!(e[0].file, "hv01/Get-NetAdapter.txt");
}

#[test]
fn forced_hyperv_text_reads_and_a_json_collection_is_not_it() {
    let r = read_input("x.txt", transcript().as_bytes(), Some(Kind::HypervText)).unwrap();
    assert_eq!(hyperv(r.input).name, "HV01");
    assert_eq!(Kind::from_key("hyperv-text"), Some(Kind::HypervText));
}

#[test]
fn both_forms_write_a_design_that_loads() {
    let f = input::design(vec![Input::Hyperv(Box::new(file()))], "imported");
    assert_loads_cleanly(&f.imported.toml);
    assert_eq!(f.hosts, 1);
    let d = input::design(vec![Input::Hyperv(Box::new(folder()))], "imported");
    assert_loads_cleanly(&d.imported.toml);
    insta::assert_snapshot!("format_list_hv01.toml", f.imported.toml);
}

/// `Get-NetIntent | Format-List *` on an Azure Local node (property names
/// as Microsoft Learn's Get-NetIntent reference and "Manage Network ATC"
/// print them: `IntentName`, `IsComputeIntentSet`, `IsStorageIntentSet`,
/// `IsManagementIntentSet`, `NetAdapterNamesAsList`, the override object
/// shown as its type name): the intent, its types and adapters are read,
/// and the override, a nested object, is unknown (no JumboPacket).
#[test]
fn a_network_atc_intent_is_read() {
    let text = "PS C:\\> Get-NetIntent | Format-List *\n\n\
IntentName                        : managementcomputestorage\n\
Scope                             : Cluster\n\
IsComputeIntentSet                : True\n\
IsStorageIntentSet                : True\n\
IsManagementIntentSet             : True\n\
NetAdapterNamesAsList             : {ethernet, ethernet 2}\n\
AdapterAdvancedParametersOverride : FabricManager.NetAdapterAdvancedConfiguration\n\
\n\
IntentName                        : storage\n\
Scope                             : Cluster\n\
IsComputeIntentSet                : False\n\
IsStorageIntentSet                : True\n\
IsManagementIntentSet             : False\n\
NetAdapterNamesAsList             : {SMB1, SMB2}\n";
    let h = read_hyperv_text("t.txt", text).unwrap();
    let intents = h.intents.expect("Get-NetIntent is read");
    assert_eq!(intents.len(), 2);
    let i = &intents[0];
    assert_eq!(i.name, "managementcomputestorage");
    assert_eq!(i.adapters, ["ethernet", "ethernet 2"]);
    assert!(i.management && i.compute && i.storage);
    assert_eq!(i.line, 3);
    assert!(i.jumbo_packet.is_none());
    let s = &intents[1];
    assert_eq!((s.management, s.compute, s.storage), (false, false, true));
    assert_eq!(s.adapters, ["SMB1", "SMB2"]);
}
