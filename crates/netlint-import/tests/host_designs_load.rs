//! Issue 37 item 10: host collections whose shape made the importer write
//! a design its own loader refused (a key written twice, a reference to
//! something not written, a speed the loader cannot read). Each case
//! mutates a fixture the way a real collection can be, imports it, and
//! loads the design with netlint_model; what was dropped or merged is
//! said in a note.

use std::path::Path;

use netlint_import::design::to_design_with_hosts;
use netlint_import::host::read_hyperv;
use netlint_import::host::vsphere;
use netlint_import::host::vsphere_write::write_with_docs;
use netlint_model::{load, SourceFile};
use serde_json::{json, Value};

fn root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

fn assert_loads(case: &str, toml: &str) {
    let loaded = load(&SourceFile::new("imported.toml", toml.to_string()));
    assert!(
        loaded.diagnostics.is_empty(),
        "{case}: {:#?}\n{toml}",
        loaded
            .diagnostics
            .iter()
            .map(|d| &d.message)
            .collect::<Vec<_>>()
    );
}

fn vsphere_fixture() -> Value {
    let bytes = std::fs::read(root().join("vsphere/prod-cl01.vsphere.json")).unwrap();
    serde_json::from_str(&netlint_import::host::json::decode(&bytes)).unwrap()
}

/// Imports a vSphere collection alone; the design and the notes.
fn import_vsphere(case: &str, coll: &Value) -> (String, Vec<String>) {
    let text = serde_json::to_string_pretty(coll).unwrap();
    let c = vsphere::read("c.vsphere.json", text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let written = write_with_docs(&[c], &[]);
    let toml = format!("[design]\nname = \"d\"\n{}", written.toml);
    assert_loads(case, &toml);
    (toml, written.notes)
}

fn each_host(coll: &mut Value, f: impl Fn(&mut Value)) {
    for h in coll["Hosts"].as_array_mut().unwrap() {
        f(h);
    }
}

#[test]
fn a_vmnic_listed_twice_is_written_once() {
    let mut c = vsphere_fixture();
    each_host(&mut c, |h| {
        let nics = h["PhysicalNics"].as_array_mut().unwrap();
        let dup = nics[2].clone();
        nics.push(dup);
    });
    let (toml, notes) = import_vsphere("vmnic twice", &c);
    assert_eq!(toml.matches(".nics.vmnic2]").count(), 1, "{toml}");
    assert!(
        notes
            .iter()
            .any(|n| n.contains("vmnic2") && n.contains("twice")),
        "{notes:#?}"
    );
}

#[test]
fn a_distributed_switch_listed_twice_is_written_once() {
    let mut c = vsphere_fixture();
    each_host(&mut c, |h| {
        let s = h["DistributedSwitches"].as_array_mut().unwrap();
        let dup = s[0].clone();
        s.push(dup);
    });
    let (toml, notes) = import_vsphere("vds twice", &c);
    assert_eq!(toml.matches(".vswitches.dvs-prod]").count(), 1, "{toml}");
    assert!(
        notes
            .iter()
            .any(|n| n.contains("dvs-prod") && n.contains("twice")),
        "{notes:#?}"
    );
}

#[test]
fn an_uplink_naming_a_missing_vmnic_is_dropped_with_a_note() {
    let mut c = vsphere_fixture();
    each_host(&mut c, |h| {
        h["StandardSwitches"][0]["Nic"] = json!(["vmnic0", "vmnic1", "vmnic9"]);
    });
    let (toml, notes) = import_vsphere("missing vmnic", &c);
    assert!(!toml.contains("vmnic9"), "{toml}");
    assert!(notes.iter().any(|n| n.contains("vmnic9")), "{notes:#?}");
}

fn hyperv_fixture(name: &str) -> Value {
    let bytes = std::fs::read(root().join("host-fixtures").join(name)).unwrap();
    serde_json::from_str(&netlint_import::host::json::decode(&bytes)).unwrap()
}

/// Imports one Hyper-V collection alone; the design and the notes' text.
fn import_hyperv(case: &str, coll: &Value) -> (String, Vec<String>) {
    let text = serde_json::to_string_pretty(coll).unwrap();
    let h = read_hyperv("hv.json", text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let imported = to_design_with_hosts(&[], &[h], "imported");
    assert_loads(case, &imported.toml);
    let notes = imported.host_notes.iter().map(|n| n.to_string()).collect();
    (imported.toml, notes)
}

#[test]
fn a_net_adapter_listed_twice_is_written_once() {
    let mut c = hyperv_fixture("converged/hv01.json");
    let nics = c["Cmdlets"]["Get-NetAdapter"].as_array_mut().unwrap();
    let dup = nics[0].clone();
    nics.push(dup);
    let (toml, notes) = import_hyperv("adapter twice", &c);
    assert_eq!(
        toml.matches(".nics.\"SLOT 3 Port 1\"]").count(),
        1,
        "{toml}"
    );
    assert!(
        notes
            .iter()
            .any(|n| n.contains("SLOT 3 Port 1") && n.contains("twice")),
        "{notes:#?}"
    );
}

#[test]
fn a_vnic_pinned_to_an_adapter_that_is_no_uplink_of_its_switch_is_not_pinned() {
    let mut c = hyperv_fixture("converged/hv01.json");
    // A third physical adapter, not in the SET team, that SMB1 is mapped to.
    let nics = c["Cmdlets"]["Get-NetAdapter"].as_array_mut().unwrap();
    let mut extra = nics[0].clone();
    extra["Name"] = json!("NIC9");
    extra["InterfaceDescription"] = json!("Intel(R) Ethernet Adapter I350");
    extra["MacAddress"] = json!("00-15-5D-0A-01-99");
    nics.push(extra);
    c["Cmdlets"]["Get-VMNetworkAdapterTeamMapping"][0]["NetAdapterName"] = json!("NIC9");
    let (toml, notes) = import_hyperv("pinned to no uplink", &c);
    assert!(!toml.contains("active_uplinks = [\"NIC9\"]"), "{toml}");
    assert!(
        notes
            .iter()
            .any(|n| n.contains("NIC9") && n.contains("SMB1")),
        "{notes:#?}"
    );
}

#[test]
fn live_migration_naming_a_network_left_out_is_not_written() {
    let mut c = hyperv_fixture("converged/hv01.json");
    // SMB1's vNIC is on a switch the collection does not list: the vNIC
    // and its network are left out, while its cluster interface still
    // names the live-migration subnet.
    c["Cmdlets"]["Get-VMNetworkAdapter"][1]["SwitchName"] = json!("Elsewhere");
    let (toml, notes) = import_hyperv("live migration network left out", &c);
    assert!(!toml.contains("networks = [\"SMB1\""), "{toml}");
    assert!(
        notes
            .iter()
            .any(|n| n.contains("SMB1") && n.contains("live")),
        "{notes:#?}"
    );
}

#[test]
fn a_speed_below_one_megabit_is_not_written() {
    let mut c = hyperv_fixture("converged/hv01.json");
    c["Cmdlets"]["Get-NetAdapter"][0]["Speed"] = json!(4095);
    let (toml, notes) = import_hyperv("speed 4095", &c);
    assert!(!toml.contains("0.004M"), "{toml}");
    assert!(notes.iter().any(|n| n.contains("4095")), "{notes:#?}");
}

#[test]
fn a_nic_named_like_its_team_is_written_without_a_clash() {
    let mut c = hyperv_fixture("lbfo/lb01.json");
    c["Cmdlets"]["Get-NetAdapter"][0]["Name"] = json!("VMTeam");
    c["Cmdlets"]["Get-NetLbfoTeam"]["Members"] = json!(["VMTeam", "NIC2"]);
    let (_toml, notes) = import_hyperv("nic named like its team", &c);
    assert!(notes.iter().any(|n| n.contains("VMTeam")), "{notes:#?}");
}

#[test]
fn a_vmnic_speed_the_design_cannot_hold_is_not_written() {
    let mut c = vsphere_fixture();
    each_host(&mut c, |h| {
        h["PhysicalNics"][0]["BitRatePerSec"] = json!(5);
    });
    let (toml, notes) = import_vsphere("vmnic 5 Mb/s", &c);
    assert!(!toml.contains("\"5M\""), "{toml}");
    assert!(
        notes.iter().any(|n| n.contains("BitRatePerSec 5 ")),
        "{notes:#?}"
    );
}
