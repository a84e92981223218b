//! Host collections imported with the switches they are cabled to: the
//! design loads without a diagnostic, hosts built alike fold into one
//! profile, and the written TOML is snapshotted.

use std::path::Path;

use netlint_import::design::to_design_with_hosts;
use netlint_import::host::fold::{HostNote, NoteKind};
use netlint_import::host::read_hyperv;
use netlint_import::{parse, Document};
use netlint_model::{load, SourceFile};

include!("support/loads.rs");

fn import(switch_files: &[&str], host_files: &[&str]) -> (String, Vec<HostNote>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let docs: Vec<Document> = switch_files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(root.join(f)).unwrap();
            parse(f, &text, None).unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    let hosts: Vec<_> = host_files
        .iter()
        .map(|f| {
            let bytes = std::fs::read(root.join(f)).unwrap();
            read_hyperv(f, &bytes).unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    let imported = to_design_with_hosts(&docs, &hosts, "imported");
    assert_loads_cleanly(&imported.toml);
    (imported.toml, imported.host_notes)
}

fn notes_text(notes: &[HostNote]) -> String {
    notes
        .iter()
        .map(|n| format!("{:?} {n}\n", n.kind))
        .collect()
}

const SWITCHES: &[&str] = &["fixtures/nxos-tor1.cfg", "fixtures/nxos-tor2.cfg"];

#[test]
fn converged_set_cluster_folds_into_one_profile() {
    let mut sw = SWITCHES.to_vec();
    sw.push("host-fixtures/converged/cabling.csv");
    sw.push("host-fixtures/converged/tor2.lldp.txt");
    let (toml, notes) = import(
        &sw,
        &[
            "host-fixtures/converged/hv01.json",
            "host-fixtures/converged/hv02.json",
            "host-fixtures/converged/hv03.json",
            "host-fixtures/converged/hv04.json",
        ],
    );
    assert!(toml.contains("[profiles.hosts]"), "{toml}");
    // Jumbo differs on HV04 only: an override there, 9014 in the profile.
    assert!(
        toml.contains("nics.\"SLOT 3 Port 1\".jumbo_packet = 1514"),
        "{toml}"
    );
    assert!(toml.contains("jumbo_packet = 9014"), "{toml}");
    // HV04's second port comes from tor2's LLDP table (its MAC).
    assert!(toml.contains("tor2.lldp.txt:"), "{toml}");
    assert!(
        !notes.iter().any(|n| n.kind == NoteKind::UnmatchedNic),
        "{notes:?}"
    );
    insta::assert_snapshot!("converged.toml", toml);
    insta::assert_snapshot!("converged.notes", notes_text(&notes));
}

#[test]
fn lbfo_cluster_reports_the_nic_no_cable_ties() {
    let mut sw = SWITCHES.to_vec();
    sw.push("host-fixtures/lbfo/cabling.csv");
    let (toml, notes) = import(
        &sw,
        &[
            "host-fixtures/lbfo/lb01.json",
            "host-fixtures/lbfo/lb02.json",
        ],
    );
    assert!(toml.contains("load_balancing = \"hyperv-port\""), "{toml}");
    assert!(toml.contains("os = \"windows-server-2022\""), "{toml}");
    let unmatched: Vec<&HostNote> = notes
        .iter()
        .filter(|n| n.kind == NoteKind::UnmatchedNic)
        .collect();
    assert_eq!(unmatched.len(), 1, "{notes:?}");
    assert!(unmatched[0].text.contains("LB02") && unmatched[0].text.contains("NIC2"));
    insta::assert_snapshot!("lbfo.toml", toml);
    insta::assert_snapshot!("lbfo.notes", notes_text(&notes));
}

/// The classic two-vNIC SMB Multichannel build: SMB1 and SMB2 on one VLAN
/// and one subnet (one cluster network) are interfaces of one network,
/// not two networks on one VLAN, which `check` would report as an overlap
/// (issue 32 item 4). The converged fixture with SMB2 moved into SMB1's
/// VLAN 20 and cluster network.
#[test]
fn vnics_sharing_a_vlan_and_a_subnet_are_one_network() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let hosts: Vec<_> = ["hv01", "hv02", "hv03", "hv04"]
        .iter()
        .map(|h| {
            let f = format!("host-fixtures/converged/{h}.json");
            let text = netlint_import::host::json::decode(&std::fs::read(root.join(&f)).unwrap());
            let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
            let c = &mut v["Cmdlets"];
            for vlan in c["Get-VMNetworkAdapterVlan"].as_array_mut().unwrap() {
                if vlan["AdapterName"] == "SMB2" {
                    vlan["AccessVlanId"] = 20.into();
                }
            }
            c["Get-ClusterNetwork"]
                .as_array_mut()
                .unwrap()
                .retain(|n| n["Name"] != "SMB2");
            for i in c["Get-ClusterNetworkInterface"].as_array_mut().unwrap() {
                if i["Network"] == "SMB2" {
                    i["Network"] = "SMB1".into();
                }
            }
            read_hyperv(&f, serde_json::to_string(&v).unwrap().as_bytes())
                .unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    let imported = to_design_with_hosts(&[], &hosts, "imported");
    let loaded = load(&SourceFile::new("imported.toml", imported.toml.clone()));
    let design = loaded.design.expect("the design loads");
    let toml = &imported.toml;
    let on_vlan_20: Vec<&str> = design
        .networks
        .iter()
        .filter(|n| n.vlan_id() == Some(20))
        .map(|n| n.name.as_str())
        .collect();
    assert_eq!(on_vlan_20, ["SMB1"], "{toml}");
    assert!(
        toml.contains("shares VLAN 20 and subnet 10.0.20.0/24 with vNIC SMB1: one network"),
        "{toml}"
    );
}
