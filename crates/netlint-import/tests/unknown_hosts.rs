//! Unknown stays unknown on the host side (issue 30 item 4): a value a
//! host's collection does not state is no number. It casts no vote in a
//! network's VLAN or MTU or a profile's majority, nothing is written for
//! it, and a note says so: a vmkernel MTU not collected is not 1500, a
//! vNIC VLAN not collected is not untagged, an RDMA state not collected is
//! not off.

use std::path::Path;

use netlint_import::design::to_design_with_hosts;
use netlint_import::host::fold::HostNote;
use netlint_import::host::read_hyperv;
use netlint_import::host::vsphere;
use netlint_import::host::vsphere_write::write_with_docs;
use netlint_model::{load, SourceFile};
use serde_json::Value;

fn root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

fn loads(toml: &str) {
    let loaded = load(&SourceFile::new("imported.toml", toml.to_string()));
    assert!(
        loaded.diagnostics.is_empty(),
        "{:#?}\n{toml}",
        loaded
            .diagnostics
            .iter()
            .map(|d| &d.message)
            .collect::<Vec<_>>()
    );
}

/// The converged fixture's four hosts, `edit` applied to each host's
/// collection (its index, its JSON).
fn converged(edit: impl Fn(usize, &mut Value)) -> (String, Vec<HostNote>) {
    let hosts: Vec<_> = (1..=4)
        .map(|i| {
            let f = format!("host-fixtures/converged/hv0{i}.json");
            let text = netlint_import::host::json::decode(&std::fs::read(root().join(&f)).unwrap());
            let mut v: Value = serde_json::from_str(&text).unwrap();
            edit(i, &mut v);
            let text = serde_json::to_string_pretty(&v).unwrap();
            read_hyperv(&f, text.as_bytes()).unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    let imported = to_design_with_hosts(&[], &hosts, "imported");
    loads(&imported.toml);
    (imported.toml, imported.host_notes)
}

fn cmdlet<'a>(v: &'a mut Value, name: &str) -> &'a mut Vec<Value> {
    v["Cmdlets"][name].as_array_mut().unwrap()
}

/// The text of the table `header` (up to the next table).
fn table<'a>(toml: &'a str, header: &str) -> &'a str {
    let start = toml
        .find(header)
        .unwrap_or_else(|| panic!("no {header}:\n{toml}"));
    let rest = &toml[start + header.len()..];
    &toml[start..start + header.len() + rest.find("\n[").unwrap_or(rest.len())]
}

#[test]
fn a_vnic_vlan_not_collected_casts_no_vote_for_its_network() {
    // HV02-HV04 lack SMB1's Get-VMNetworkAdapterVlan entry: only HV01
    // states its VLAN (20). Before, the three unknowns voted "untagged"
    // and the network was written without a VLAN.
    let (toml, notes) = converged(|i, v| {
        if i > 1 {
            cmdlet(v, "Get-VMNetworkAdapterVlan").retain(|x| x["AdapterName"] != "SMB1");
        }
    });
    let smb1 = table(&toml, "[networks.SMB1]");
    let vlan = smb1
        .lines()
        .find(|l| l.starts_with("vlan = "))
        .unwrap_or_else(|| panic!("{smb1}"));
    assert!(vlan.starts_with("vlan = 20 "), "{vlan}");
    assert!(
        vlan.ends_with("(1 of 1 interfaces, 3 more not collected)"),
        "{vlan}"
    );
    let texts: Vec<String> = notes.iter().map(|n| n.to_string()).collect();
    assert!(
        texts
            .iter()
            .any(|n| n.contains("network SMB1: the VLAN of ")
                && n.contains("(vNIC SMB1)")
                && n.ends_with("is not collected: they do not count toward its VLAN")),
        "{texts:#?}"
    );
    assert!(
        !texts.iter().any(|n| n.contains("different VLANs")),
        "an unknown VLAN is no second VLAN: {texts:#?}"
    );
    // No host collects it: no VLAN is written, and the note says so.
    let (toml, notes) = converged(|_, v| {
        cmdlet(v, "Get-VMNetworkAdapterVlan").retain(|x| x["AdapterName"] != "SMB1");
    });
    assert!(
        !table(&toml, "[networks.SMB1]").contains("\nvlan"),
        "{toml}"
    );
    assert!(
        notes
            .iter()
            .any(|n| n.text.starts_with("network SMB1: the VLAN of ")
                && n.text
                    .ends_with("`vlan` is not written (no interface states one)")),
        "{notes:#?}"
    );
}

#[test]
fn an_rdma_state_not_collected_is_not_written_and_not_in_the_profile() {
    // HV02's Get-NetAdapterRdma lacks SLOT 3 Port 1.
    let (toml, notes) = converged(|i, v| {
        if i == 2 {
            cmdlet(v, "Get-NetAdapterRdma").retain(|x| x["Name"] != "SLOT 3 Port 1");
        }
    });
    let profile = table(&toml, "[profiles.hosts.nics.\"SLOT 3 Port 1\"]");
    assert!(
        !profile.contains("\nrdma"),
        "not every host states it: {profile}"
    );
    let hv02 = table(&toml, "[hosts.HV02]");
    assert!(!hv02.contains("\"SLOT 3 Port 1\".rdma"), "{hv02}");
    for h in ["HV01", "HV03", "HV04"] {
        let t = table(&toml, &format!("[hosts.{h}]"));
        assert!(
            t.contains("nics.\"SLOT 3 Port 1\".rdma = \"roce-v2\""),
            "{h}: {t}"
        );
    }
    assert!(
        notes.iter().any(|n| n.to_string().contains(
            "host HV02: NIC SLOT 3 Port 1: Get-NetAdapterRdma does not list it: RDMA unknown, `rdma` not written"
        )),
        "{notes:#?}"
    );
}

/// The vSAN vmkernel ports of esx02 and esx03 state no `Mtu`: the network
/// runs the MTU the one port that states it runs (9000), not the 1500 two
/// unknowns voted for before; those ports get no `mtu`, so the profile
/// holds none, and each is a note.
#[test]
fn a_vmkernel_mtu_not_collected_casts_no_vote_and_is_not_written() {
    let text = netlint_import::host::json::decode(
        &std::fs::read(root().join("vsphere/prod-cl01.vsphere.json")).unwrap(),
    );
    let mut v: Value = serde_json::from_str(&text).unwrap();
    let hosts = v["Hosts"].as_array_mut().expect("Hosts");
    for h in hosts.iter_mut().skip(1) {
        for k in h["VMKernelAdapters"]
            .as_array_mut()
            .expect("VMKernelAdapters")
        {
            if k["Name"] == "vmk2" {
                k.as_object_mut().unwrap().remove("Mtu");
            }
        }
    }
    let json = serde_json::to_string_pretty(&v).unwrap();
    let coll = vsphere::read("cl.json", json.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let written = write_with_docs(&[coll], &[]);
    let toml = &written.toml;
    loads(&format!("[design]\nname = \"imported\"\n{toml}"));
    let vsan = table(toml, "[networks.dvpg-vsan]");
    assert!(vsan.contains("\nmtu = 9000 "), "{vsan}");
    let profile = table(
        toml,
        "[profiles.esx-prod-cl01.vswitches.dvs-prod.vnics.vmk2]",
    );
    assert!(!profile.contains("\nmtu"), "{profile}");
    assert!(
        table(toml, "[hosts.esx01.vswitches.dvs-prod.vnics.vmk2]").contains("\nmtu = 9000"),
        "{toml}"
    );
    for h in ["esx02", "esx03"] {
        assert!(
            !toml.contains(&format!("[hosts.{h}.vswitches.dvs-prod.vnics.vmk2]\nmtu")),
            "{toml}"
        );
        assert!(
            written.notes.iter().any(|n| n.contains(&format!("{h}.contoso.com vmk2: its MTU is not collected: `mtu` is not written for it, and it does not count toward the MTU of network dvpg-vsan"))),
            "{:#?}",
            written.notes
        );
    }
}

/// Values the host fold deduces say so beside them in the design: a
/// network role no property states, and RoCE taken for an RDMA NIC whose
/// technology is not collected.
#[test]
fn values_the_host_fold_infers_say_so_in_the_design() {
    let (toml, _) = converged(|i, v| {
        if i == 2 {
            cmdlet(v, "Get-NetAdapterAdvancedProperty").retain(|x| {
                !(x["Name"] == "SLOT 3 Port 1"
                    && x["RegistryKeyword"] == "*NetworkDirectTechnology")
            });
        }
    });
    let role = table(&toml, "[networks.SMB1]")
        .lines()
        .find(|l| l.starts_with("role = "))
        .unwrap();
    assert!(
        role.ends_with("# inferred: RDMA on its interfaces: SMB Direct"),
        "{role}"
    );
    let hv02 = table(&toml, "[hosts.HV02]");
    let rdma = hv02
        .lines()
        .find(|l| l.starts_with("nics.\"SLOT 3 Port 1\".rdma = \"roce\""))
        .unwrap_or_else(|| panic!("{hv02}"));
    assert!(
        rdma.contains("# inferred from host-fixtures/converged/hv02.json:")
            && rdma.ends_with("(enabled): technology not collected, taken as RoCE"),
        "{rdma}"
    );
}

/// Issue 32 item 3: a host with DCB whose collection lacks
/// `Get-NetQosDcbxSetting` gets `willing = "unknown"`, not the DCBX
/// default (willing) that `dcbx-willing` would then report as a fault.
#[test]
fn a_dcbx_bit_not_collected_is_written_unknown_not_willing() {
    let (toml, _) = converged(|_, v| {
        v["Cmdlets"]
            .as_object_mut()
            .unwrap()
            .remove("Get-NetQosDcbxSetting");
    });
    let dcb = table(&toml, "[profiles.hosts.dcb]");
    let willing = dcb
        .lines()
        .find(|l| l.starts_with("willing = "))
        .unwrap_or_else(|| panic!("{dcb}"));
    assert!(
        willing.starts_with("willing = \"unknown\"") && willing.contains("not collected"),
        "{willing}"
    );
    let d = load(&SourceFile::new("imported.toml", toml.clone()))
        .design
        .unwrap();
    let dcb = d.hosts[0].dcb.as_ref().unwrap();
    assert!(dcb.willing.is_none() && dcb.willing_unknown.is_some());
    // Collected, it is the host's own value.
    let (toml, _) = converged(|_, _| {});
    assert!(
        table(&toml, "[profiles.hosts.dcb]").contains("willing = false"),
        "{toml}"
    );
}
