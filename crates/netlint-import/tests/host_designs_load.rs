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

/// Issue 30 item 1: the design of `files` (name, text) as `netlint
/// import` writes it (`input::design`, every part through one table
/// registry), loaded.
fn import_all(case: &str, files: &[(&str, String)]) -> netlint_import::input::Written {
    let inputs = files
        .iter()
        .map(|(name, text)| {
            netlint_import::read_input(name, text.as_bytes(), None)
                .unwrap_or_else(|e| panic!("{case}: {name}: {e:?}"))
                .input
        })
        .collect();
    let written = netlint_import::input::design(inputs, "d");
    assert_loads(case, &written.imported.toml);
    written
}

/// Two vSphere collections whose clusters share a name (two vCenter
/// Servers with a `prod-cl01` each) gave `[profiles.esx-prod-cl01]`
/// twice: the second is its own cluster and profile, `-2`, its hosts
/// pointing at it, with a note; the same collection read three times
/// numbers the third copy's hosts.
#[test]
fn same_named_vsphere_clusters_import_to_a_design_that_loads() {
    let one = serde_json::to_string_pretty(&vsphere_fixture()).unwrap();
    let mut other = vsphere_fixture();
    each_host(&mut other, |h| {
        let n = h["Name"].as_str().unwrap().replace("esx0", "esx1");
        h["Name"] = json!(n);
    });
    let other = serde_json::to_string_pretty(&other).unwrap();
    let w = import_all(
        "two clusters",
        &[("a.vsphere.json", one.clone()), ("b.vsphere.json", other)],
    );
    let toml = &w.imported.toml;
    assert_eq!(
        toml.matches("\n[profiles.esx-prod-cl01]\n").count(),
        1,
        "{toml}"
    );
    assert_eq!(
        toml.matches("\n[profiles.esx-prod-cl01-2]\n").count(),
        1,
        "{toml}"
    );
    assert!(
        toml.contains("[hosts.esx11]\nprofile = \"esx-prod-cl01-2\"\ncluster = \"prod-cl01-2\"\n"),
        "{toml}"
    );
    assert!(
        toml.contains("[hosts.esx01]\nprofile = \"esx-prod-cl01\"\ncluster = \"prod-cl01\"\n"),
        "{toml}"
    );
    assert!(
        w.vsphere_notes
            .iter()
            .any(|n| n.starts_with("b.vsphere.json:")
                && n.contains("cluster prod-cl01 is also the cluster of a collection read before")
                && n.contains("profile esx-prod-cl01-2")),
        "{:#?}",
        w.vsphere_notes
    );
    // One collection three times: esx01, esx01.contoso.com, esx01-2.
    let w = import_all(
        "three copies",
        &[
            ("a.vsphere.json", one.clone()),
            ("b.vsphere.json", one.clone()),
            ("c.vsphere.json", one),
        ],
    );
    let toml = &w.imported.toml;
    for h in ["esx01", "\"esx01.contoso.com\"", "esx01-2"] {
        assert_eq!(
            toml.matches(&format!("\n[hosts.{h}]\n")).count(),
            1,
            "{h}\n{toml}"
        );
    }
    assert!(toml.contains("\n[profiles.esx-prod-cl01-3]\n"), "{toml}");
    assert!(
        w.vsphere_notes
            .iter()
            .any(|n| n.contains("host esx01.contoso.com: a host of that name is already in the design: written as host esx01-2")),
        "{:#?}",
        w.vsphere_notes
    );
}

/// A vSphere port group with the name of a Hyper-V host's network: the
/// vSphere network is written as `NAME-2`, and its vmkernel ports and
/// switch point at it.
#[test]
fn a_vsphere_network_named_as_a_hyperv_one_is_renamed_and_its_references_follow() {
    let hv = std::fs::read_to_string(root().join("host-fixtures/converged/hv01.json")).unwrap();
    let probe = import_all("hyper-v alone", &[("hv01.json", hv.clone())]);
    let taken = probe
        .imported
        .toml
        .lines()
        .find_map(|l| l.strip_prefix("[networks.")?.strip_suffix(']'))
        .expect("the Hyper-V host writes a network")
        .trim_matches('"')
        .to_string();
    let mut c = vsphere_fixture();
    let text = serde_json::to_string_pretty(&c).unwrap();
    c = serde_json::from_str(&text.replace("dvpg-vmotion", &taken)).unwrap();
    let w = import_all(
        "hyper-v and vsphere",
        &[
            ("hv01.json", hv),
            ("c.vsphere.json", serde_json::to_string_pretty(&c).unwrap()),
        ],
    );
    let toml = &w.imported.toml;
    let renamed = format!("{taken}-2");
    let k = |n: &str| {
        if n.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            n.to_string()
        } else {
            format!("\"{n}\"")
        }
    };
    assert!(
        toml.contains(&format!("\n[networks.{}]\n", k(&renamed))),
        "{toml}"
    );
    assert!(toml.contains(&format!("network = \"{renamed}\"")), "{toml}");
    assert!(
        toml.contains(&format!("networks = [\"{renamed}\"]")),
        "{toml}"
    );
    assert!(
        w.vsphere_notes
            .iter()
            .any(|n| n.contains(&format!("written as network {renamed}"))),
        "{:#?}",
        w.vsphere_notes
    );
}
