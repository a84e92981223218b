//! Network ATC as built (issue 32 item 1): the fixture `host-fixtures/atc/`
//! (two Azure Local nodes with one converged intent; sources in
//! `host-fixtures/atc/SOURCES.md`) and edits of it. ATC sets the storage
//! VLANs by isolation (`Get-VMNetworkAdapterVlan` says Untagged), names
//! the host vNICs `vSMB(<intent>#<pNIC>)` / `vManagement(<intent>)` (no
//! `vEthernet (...)`), prints `IntentType` as flags (Compute 2, Storage 4,
//! Management 8) and names its switch `ConvergedSwitch(<intent>)`.

use std::path::Path;

use netlint_import::design::to_design_with_hosts;
use netlint_import::host::facts::HostFacts;
use netlint_import::host::fold::{HostNote, NoteKind};
use netlint_import::host::{hyperv, read_hyperv, sddc};
use serde_json::{json, Value};

include!("support/loads.rs");

const INTENT: &str = "managementcomputestorage";
const SMB1: &str = "vSMB(managementcomputestorage#ethernet)";
const SMB2: &str = "vSMB(managementcomputestorage#ethernet 2)";

fn root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

/// The fixture's nodes, `edit` applied to each collection's JSON.
fn hosts(edit: impl Fn(&mut Value)) -> Vec<HostFacts> {
    ["azl01", "azl02"]
        .iter()
        .map(|h| {
            let f = format!("host-fixtures/atc/{h}.json");
            let text = netlint_import::host::json::decode(&std::fs::read(root().join(&f)).unwrap());
            let mut v: Value = serde_json::from_str(&text).unwrap();
            edit(&mut v);
            let text = serde_json::to_string_pretty(&v).unwrap();
            read_hyperv(&f, text.as_bytes()).unwrap_or_else(|e| panic!("{e}"))
        })
        .collect()
}

fn import(hosts: &[HostFacts]) -> (String, Vec<HostNote>) {
    let imported = to_design_with_hosts(&[], hosts, "imported");
    assert_loads_cleanly(&imported.toml);
    (imported.toml, imported.host_notes)
}

fn notes_text(notes: &[HostNote]) -> String {
    notes
        .iter()
        .map(|n| format!("{:?} {n}\n", n.kind))
        .collect()
}

/// The text of the table `header` (up to the next table).
fn table<'a>(toml: &'a str, header: &str) -> &'a str {
    let start = toml
        .find(header)
        .unwrap_or_else(|| panic!("no {header}:\n{toml}"));
    let rest = &toml[start + header.len()..];
    &toml[start..start + header.len() + rest.find("\n[").unwrap_or(rest.len())]
}

fn vnic<'a>(h: &'a HostFacts, name: &str) -> &'a netlint_import::host::facts::VnicFacts {
    h.vnics
        .iter()
        .flatten()
        .find(|v| v.name == name)
        .unwrap_or_else(|| panic!("no vNIC {name}: {:?}", h.vnics))
}

#[test]
fn the_atc_converged_cluster_is_written_with_its_isolation_vlans() {
    let (toml, notes) = import(&hosts(|_| {}));
    // The storage networks carry ATC's isolation VLANs, not "untagged".
    let smb1 = table(&toml, &format!("[networks.\"{SMB1}\"]"));
    assert!(smb1.contains("\nvlan = 711 "), "{smb1}");
    let smb2 = table(&toml, &format!("[networks.\"{SMB2}\"]"));
    assert!(smb2.contains("\nvlan = 712 "), "{smb2}");
    assert!(toml.contains("[profiles.hosts]"), "{toml}");
    insta::assert_snapshot!("atc.toml", toml);
    insta::assert_snapshot!("atc.notes", notes_text(&notes));
}

#[test]
fn the_isolation_vlan_wins_over_an_untagged_vlan_setting_and_a_note_names_both() {
    let h = &hosts(|_| {})[0];
    let v = vnic(h, SMB1);
    assert_eq!(v.vlan.as_ref().map(|x| x.value), Some(711));
    let said: Vec<&str> = h
        .remarks
        .iter()
        .filter(|r| r.text.starts_with(&format!("vNIC {SMB1}:")))
        .map(|r| r.text.as_str())
        .collect();
    assert_eq!(said.len(), 1, "{said:#?}");
    assert!(
        said[0].contains("Get-VMNetworkAdapterVlan says untagged")
            && said[0].contains("IsolationMode Vlan, DefaultIsolationID 711")
            && said[0].contains("VLAN 711 is written"),
        "{}",
        said[0]
    );
    // The management vNIC has no isolation VLAN: its VLAN setting stands.
    let m = vnic(h, &format!("vManagement({INTENT})"));
    assert_eq!(m.vlan.as_ref().map(|x| x.value), Some(0));
}

#[test]
fn an_isolation_vlan_alone_is_the_vlan() {
    let hs = hosts(|v| {
        v["Cmdlets"]
            .as_object_mut()
            .unwrap()
            .remove("Get-VMNetworkAdapterVlan");
    });
    let v = vnic(&hs[0], SMB2);
    assert_eq!(v.vlan.as_ref().map(|x| x.value), Some(712));
    assert!(
        !hs[0]
            .remarks
            .iter()
            .any(|r| r.text.contains("says untagged")),
        "{:?}",
        hs[0].remarks
    );
}

#[test]
fn an_sddc_isolation_setting_is_read_as_get_vmnetworkadapterisolation() {
    let head =
        r#"<Objs Version="1.1.0.1" xmlns="http://schemas.microsoft.com/powershell/2004/04">"#;
    let xml = format!(
        r#"{head}
<Obj RefId="0"><Props><S N="Name">{SMB1}</S><B N="IsManagementOs">true</B><S N="SwitchName">ConvergedSwitch({INTENT})</S>
<Obj N="VlanSetting" RefId="1"><Props><S N="OperationMode">Untagged</S><I32 N="AccessVlanId">0</I32></Props></Obj>
<Obj N="IsolationSetting" RefId="2"><Props><S N="IsolationMode">Vlan</S><I32 N="DefaultIsolationID">711</I32><B N="AllowUntaggedTraffic">true</B></Props></Obj></Props></Obj>
</Objs>"#
    );
    let s = sddc::from_files(
        "c",
        vec![(
            "Node_AZL01/GetVMNetworkAdapter.xml".into(),
            xml.into_bytes(),
        )],
    )
    .unwrap();
    let c = &s.nodes[0].collection;
    let iso = c.objects("Get-VMNetworkAdapterIsolation");
    assert_eq!(iso.len(), 1);
    assert_eq!(iso[0].line, 4);
    let h = hyperv::facts(c);
    let v = vnic(&h, SMB1);
    assert_eq!(v.vlan.as_ref().and_then(|x| x.line()), Some(4));
    assert_eq!(v.vlan.as_ref().map(|x| x.value), Some(711));
}

#[test]
fn atc_vnic_adapters_are_looked_up_by_their_own_names() {
    let (toml, notes) = import(&hosts(|_| {}));
    let h = &hosts(|_| {})[0];
    let v = vnic(h, SMB1);
    assert_eq!(v.adapter.as_deref(), Some(SMB1));
    assert_eq!(v.rdma_enabled.as_ref().map(|x| x.value), Some(true));
    assert_eq!(v.jumbo_packet.as_ref().map(|x| x.value), Some(9014));
    let t = table(
        &toml,
        &format!("[profiles.hosts.vswitches.\"ConvergedSwitch({INTENT})\".vnics.\"{SMB1}\"]"),
    );
    assert!(t.contains("\nrdma = true "), "{t}");
    assert!(t.contains("\nmtu = 9000 "), "{t}");
    assert!(t.contains(&format!("(*JumboPacket 9014 of {SMB1})")), "{t}");
    let text = notes_text(&notes);
    for smb in [SMB1, SMB2] {
        assert!(
            !text.contains(&format!("*JumboPacket of {smb} not collected")),
            "{text}"
        );
    }
    // ATC's vNICs are no physical NICs.
    assert_eq!(
        h.nics.len(),
        2,
        "{:?}",
        h.nics.iter().map(|n| &n.name).collect::<Vec<_>>()
    );
}

#[test]
fn intent_type_10_is_management_and_compute_and_carries_no_storage() {
    // The intent as some builds print it: IntentType only, adapters as
    // comma-joined text; its adapters have RDMA off (a management +
    // compute intent need not run RDMA).
    let edit = |ty: i64| {
        move |v: &mut Value| {
            let c = &mut v["Cmdlets"];
            c["Get-NetIntent"] = json!([{
                "IntentName": "managementcompute",
                "IntentType": ty,
                "NetAdapterNamesAsList": "ethernet, ethernet 2"
            }]);
            for r in c["Get-NetAdapterRdma"].as_array_mut().unwrap() {
                r["Enabled"] = false.into();
            }
        }
    };
    let hs = hosts(edit(10));
    let i = &hs[0].intents.as_ref().unwrap()[0];
    assert!(i.management && i.compute && !i.storage, "{i:?}");
    assert_eq!(i.adapters, ["ethernet", "ethernet 2"]);
    let (_, notes) = import(&hs);
    let differs: Vec<String> = notes
        .iter()
        .filter(|n| n.kind == NoteKind::IntentDiffers)
        .map(|n| n.to_string())
        .collect();
    assert!(
        !differs.iter().any(|n| n.contains("carries storage")),
        "{differs:#?}"
    );
    // 14 is management + compute + storage; storage with RDMA off is a
    // difference, on each adapter.
    let hs = hosts(edit(14));
    let i = &hs[0].intents.as_ref().unwrap()[0];
    assert!(i.management && i.compute && i.storage, "{i:?}");
    let (_, notes) = import(&hs);
    let storage = notes
        .iter()
        .filter(|n| n.text.contains("carries storage"))
        .count();
    assert_eq!(storage, 4, "{notes:#?}");
}

#[test]
fn intent_adapters_read_as_an_array_a_joined_text_or_the_csv() {
    let with = |list: Value, csv: Option<&str>| {
        let hs = hosts(|v| {
            let i = &mut v["Cmdlets"]["Get-NetIntent"][0];
            i["NetAdapterNamesAsList"] = list.clone();
            match csv {
                Some(c) => i["NetAdapterNameCsv"] = c.into(),
                None => {
                    i.as_object_mut().unwrap().remove("NetAdapterNameCsv");
                }
            }
        });
        hs[0].intents.as_ref().unwrap()[0].adapters.clone()
    };
    let want = ["ethernet", "ethernet 2"];
    assert_eq!(with(json!(["ethernet", "ethernet 2"]), None), want);
    assert_eq!(with(json!("ethernet, ethernet 2"), None), want);
    assert_eq!(with(json!("{ethernet, ethernet 2}"), None), want);
    assert_eq!(with(json!("ethernet 2"), None), ["ethernet 2"]);
    assert_eq!(with(Value::Null, Some("ethernet#ethernet 2")), want);
}

/// A capture of `Get-VMNetworkAdapterIsolation` alone, its `ParentAdapter`
/// printed as text (no `Get-VMNetworkAdapter`, no `Get-VMSwitch`): the
/// ATC vNICs are still placed, on `ConvergedSwitch(<intent>)`, written as
/// inferred, and the switch on the intent's adapters, inferred too.
#[test]
fn atc_vnics_no_switch_names_are_placed_on_the_inferred_converged_switch() {
    assert_eq!(
        hyperv::parent_name("VMInternalNetworkAdapter, Name = 'vSMB(managementcompute#ethernet)'"),
        "vSMB(managementcompute#ethernet)"
    );
    assert_eq!(
        hyperv::atc_intent("vSMB(managementcompute#ethernet)"),
        Some("managementcompute")
    );
    assert_eq!(
        hyperv::atc_intent(&format!("vManagement({INTENT})")),
        Some(INTENT)
    );
    assert_eq!(hyperv::atc_intent("SMB1"), None);
    let hs = hosts(|v| {
        let c = v["Cmdlets"].as_object_mut().unwrap();
        for k in [
            "Get-VMSwitch",
            "Get-VMSwitchTeam",
            "Get-VMNetworkAdapter",
            "Get-VMNetworkAdapterVlan",
            "Get-VMNetworkAdapterTeamMapping",
        ] {
            c.remove(k);
        }
        c["Get-VMNetworkAdapterIsolation"] = json!([
            {"ParentAdapter": format!("VMInternalNetworkAdapter, Name = '{SMB1}'"), "IsolationMode": 3, "DefaultIsolationID": 711, "AllowUntaggedTraffic": true},
            {"ParentAdapter": format!("VMInternalNetworkAdapter, Name = '{SMB2}'"), "IsolationMode": 3, "DefaultIsolationID": 712, "AllowUntaggedTraffic": true}
        ]);
    });
    let v = vnic(&hs[0], SMB1);
    let sw = v.switch.as_ref().expect("a switch");
    assert_eq!(sw.value, format!("ConvergedSwitch({INTENT})"));
    assert!(sw.is_inferred(), "{sw:?}");
    assert_eq!(v.vlan.as_ref().map(|x| x.value), Some(711));
    let (toml, notes) = import(&hs);
    let t = table(
        &toml,
        &format!("[profiles.hosts.vswitches.\"ConvergedSwitch({INTENT})\".vnics.\"{SMB1}\"]"),
    );
    assert!(
        t.contains(&format!(
            "virtual switch ConvergedSwitch({INTENT}): inferred from "
        )),
        "{t}"
    );
    let sw = table(
        &toml,
        &format!("[profiles.hosts.vswitches.\"ConvergedSwitch({INTENT})\"]"),
    );
    assert!(
        sw.contains("uplinks = [\"ethernet\", \"ethernet 2\"]"),
        "{sw}"
    );
    assert!(sw.contains("inferred from "), "{sw}");
    assert!(
        notes
            .iter()
            .any(|n| n.kind == NoteKind::Inferred && n.text.contains("placed on ConvergedSwitch")),
        "{notes:#?}"
    );
    insta::assert_snapshot!("atc-isolation-only.toml", toml);
    insta::assert_snapshot!("atc-isolation-only.notes", notes_text(&notes));
}

/// A network's role comes from evidence, never from its name (issue 32
/// item 2). Without RDMA collected, the storage vNICs of the intent
/// `managementcomputestorage` were `management` because the name holds
/// "manage"; the intent (`Get-NetIntent`: storage) says storage.
#[test]
fn the_intent_not_the_name_gives_the_role() {
    let hs = hosts(|v| {
        v["Cmdlets"]
            .as_object_mut()
            .unwrap()
            .remove("Get-NetAdapterRdma");
    });
    let (toml, _) = import(&hs);
    for smb in [SMB1, SMB2] {
        let t = table(&toml, &format!("[networks.\"{smb}\"]"));
        assert!(
            t.contains(&format!(
                "role = \"storage\"                         # Network ATC intent {INTENT} (storage)"
            )),
            "{t}"
        );
    }
}

/// Without any evidence (no intent, cluster network, RDMA or
/// live-migration setting collected) a network's role is `unknown`, said
/// in a note naming it: the name is no evidence.
#[test]
fn without_evidence_a_role_is_unknown() {
    let hs = hosts(|v| {
        let c = v["Cmdlets"].as_object_mut().unwrap();
        for k in [
            "Get-NetIntent",
            "Get-NetAdapterRdma",
            "Get-ClusterNetwork",
            "Get-ClusterNetworkInterface",
            "Get-VMMigrationNetwork",
        ] {
            c.remove(k);
        }
        // The vNICs keep ATC's names; give them hand-made ones, which
        // tell nothing.
        let text = serde_json::to_string(&*c)
            .unwrap()
            .replace("vSMB(managementcomputestorage#ethernet 2)", "Storage 2")
            .replace("vSMB(managementcomputestorage#ethernet)", "Storage 1")
            .replace("vManagement(managementcomputestorage)", "Management");
        *c = serde_json::from_str(&text).unwrap();
    });
    let (toml, notes) = import(&hs);
    let notes = notes_text(&notes);
    for (net, header) in [
        ("Storage 1", "[networks.\"Storage 1\"]"),
        ("Storage 2", "[networks.\"Storage 2\"]"),
        ("Management", "[networks.Management]"),
    ] {
        let t = table(&toml, header);
        assert!(t.contains("role = \"unknown\""), "{net}: {t}");
        assert!(
            notes.contains(&format!(
                "network {net}: role `unknown` the collection gives no evidence"
            )),
            "{notes}"
        );
    }
}
