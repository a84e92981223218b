//! vSphere collections (`netlint collect vsphere` JSON; the fixture in
//! tests/vsphere/ cites its sources) imported with the switches their
//! vmnics' CDP / LLDP hints name: the design loads without a diagnostic,
//! the hosts fold into one profile with per-host overrides, and the
//! written TOML and notes are snapshotted. Shapes the mapping must not
//! guess at become notes.

use std::path::Path;

use netlint_import::design::to_design_with_host_ports;
use netlint_import::host::vsphere::{self, Lb};
use netlint_import::host::vsphere_write::{hint_ports, write_with_docs};
use netlint_import::{parse, Document};

include!("support/loads.rs");

fn root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

fn docs(files: &[&str]) -> Vec<Document> {
    files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(root().join(f)).unwrap();
            parse(f, &text, None).unwrap_or_else(|e| panic!("{e}"))
        })
        .collect()
}

fn import(switch_files: &[&str], json: &str, name: &str) -> (String, Vec<String>) {
    let docs = docs(switch_files);
    let coll = vsphere::read(name, json.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let hinted = hint_ports(std::slice::from_ref(&coll), &docs);
    let mut imported = to_design_with_host_ports(&docs, &[], &hinted, "imported");
    let written = write_with_docs(&[coll], &docs);
    imported.toml.push_str(&written.toml);
    // As `netlint import` does: the switches' VLANs no host network has.
    netlint_import::design::add_vlan_networks(&mut imported, &docs);
    assert_loads_cleanly(&imported.toml);
    (imported.toml, written.notes)
}

const SWITCHES: &[&str] = &[
    "vsphere/tor-a.cfg",
    "vsphere/tor-b.cfg",
    "vsphere/cabling.csv",
];
const CLUSTER: &str = "vsphere/prod-cl01.vsphere.json";

fn cluster_json() -> String {
    // Read as the importer does: BOM and CRLF included.
    vsphere_text(&std::fs::read(root().join(CLUSTER)).unwrap())
}

fn vsphere_text(bytes: &[u8]) -> String {
    netlint_import::host::json::decode(bytes)
}

#[test]
fn a_three_host_cluster_folds_into_one_profile_with_the_odd_host_overridden() {
    let (toml, notes) = import(SWITCHES, &cluster_json(), CLUSTER);
    insta::assert_snapshot!("prod-cl01.toml", toml);
    insta::assert_snapshot!("prod-cl01.notes", notes.join("\n"));
    // The seeded drift is the only vmkernel override.
    assert!(toml.contains("[hosts.esx03.vswitches.dvs-prod.vnics.vmk1]\nmtu = 1500"));
    // Ports differ host by host, so none sits in the profile.
    let profile_nic = toml
        .split("[profiles.esx-prod-cl01.nics.vmnic0]")
        .nth(1)
        .and_then(|t| t.split("\n\n").next())
        .unwrap();
    assert!(profile_nic.contains("switch = \"tor-a\""), "{profile_nic}");
    assert!(!profile_nic.contains("port ="), "{profile_nic}");
    assert!(
        toml.contains("[hosts.esx01.nics.vmnic0]\nport = \"Ethernet1/1\""),
        "{toml}"
    );
}

#[test]
fn a_port_tied_to_a_host_only_by_a_cdp_hint_is_a_host_port() {
    // The cabling sheet holds only the vPC peer-link: esx01's vmnic0 is
    // tied to tor-a Ethernet1/1 by its CDP hint alone.
    let docs = docs(SWITCHES);
    let coll = vsphere::read(CLUSTER, cluster_json().as_bytes()).unwrap();
    let hinted = hint_ports(std::slice::from_ref(&coll), &docs);
    let e11 = hinted
        .iter()
        .find(|h| h.switch == "tor-a" && h.port == "Ethernet1/1")
        .unwrap_or_else(|| panic!("{hinted:#?}"));
    assert_eq!((e11.at.file.as_str(), e11.at.line), (CLUSTER, 27));
    let with = to_design_with_host_ports(&docs, &[], &hinted, "imported").toml;
    let tor_a = with
        .split("[switches.tor-a]")
        .nth(1)
        .and_then(|t| t.split("\n\n").next())
        .unwrap();
    assert!(
        tor_a.contains("host_ports = { edge = true, bpdu_guard = true }"),
        "{tor_a}"
    );
    // The hint's line is in the provenance beside the config's.
    assert!(
        tor_a.contains(&format!(
            "Ethernet1/1 (vsphere/tor-a.cfg:43; CDP / LLDP hint {CLUSTER}:27)"
        )),
        "{tor_a}"
    );
    // Without the hints, the ports face hosts by their configuration
    // alone (`spanning-tree port type edge trunk`, issue 31 item 2): the
    // edge line is named, no hint is.
    let without = to_design_with_host_ports(&docs, &[], &[], "imported").toml;
    let host_ports = without
        .lines()
        .find(|l| l.starts_with("host_ports = "))
        .unwrap_or_else(|| panic!("{without}"));
    assert!(
        host_ports.contains(
            "Ethernet1/1 (vsphere/tor-a.cfg:43; configured as an edge port: vsphere/tor-a.cfg:48)"
        ),
        "{host_ports}"
    );
    assert!(!without.contains("CDP / LLDP hint"), "{without}");
}

#[test]
fn the_reader_keeps_lines_units_and_resolves_vds_uplinks() {
    let c = vsphere::read(CLUSTER, cluster_json().as_bytes()).unwrap();
    assert_eq!(c.cluster.as_ref().unwrap().value, "prod-cl01");
    let h = &c.hosts[2];
    assert_eq!(h.name, "esx03.contoso.com");
    let n = &h.vmnics[2];
    assert_eq!(n.speed_mbps.as_ref().unwrap().value, 25000);
    let nb = n.neighbor.as_ref().unwrap();
    assert_eq!(nb.device, "tor-a.contoso.com");
    assert_eq!(nb.port.as_deref(), Some("Ethernet1/13"));
    let vm = h
        .portgroups
        .iter()
        .find(|g| g.name == "dvpg-vmotion")
        .unwrap();
    let t = vm.teaming.as_ref().unwrap();
    assert_eq!(
        (t.active.clone(), t.standby.clone()),
        (vec!["vmnic2".to_string()], vec!["vmnic3".to_string()])
    );
    assert_eq!(t.lb.as_ref().unwrap().value, Lb::OriginatingPort);
    let k = h.vmks.iter().find(|k| k.name == "vmk1").unwrap();
    assert!(k.vmotion && !k.management);
    assert_eq!(k.mtu.as_ref().unwrap().value, 1500);
    assert_eq!(
        k.mtu.as_ref().unwrap().line(),
        Some(644),
        "the line of esx03 vmk1 Mtu"
    );
}

/// A one-host collection with the shapes that become notes: a vmnic whose
/// CDP names a switch that is not imported, one with no hint at all, a
/// trunk port group (VLanId 4095), an active LAG, a vmkernel port with no
/// service, an iSCSI-bound one.
const ODD: &str = r#"{
  "Collector": "netlint collect vsphere", "Cluster": "lab",
  "Hosts": [{
    "Name": "esx9.lab", "Version": "7.0.3", "MemoryTotalGB": 256,
    "PhysicalNics": [
      {"Name": "vmnic0", "BitRatePerSec": 10000, "PciId": "0000:18:00.0",
       "Cdp": {"DevId": "oob-sw1", "PortId": "GigabitEthernet1/0/7"}, "Lldp": null},
      {"Name": "vmnic1", "BitRatePerSec": 0, "PciId": "0000:18:00.1", "Cdp": null, "Lldp": null},
      {"Name": "vmnic2", "BitRatePerSec": 25000, "PciId": "0000:3b:00.0",
       "Cdp": null, "Lldp": {"ChassisId": "x", "PortId": "00:11:22:33:44:55", "SystemName": "tor-a", "PortDescription": "Ethernet1/20"}},
      {"Name": "vmnic3", "BitRatePerSec": 25000, "PciId": "0000:3b:00.1", "Cdp": null, "Lldp": null}
    ],
    "StandardSwitches": [{"Name": "vSwitch0", "Mtu": 1500, "Nic": ["vmnic0", "vmnic1"],
      "Teaming": {"LoadBalancingPolicy": "LoadBalanceIP", "ActiveNic": ["vmnic0", "vmnic1"], "StandbyNic": [], "UnusedNic": []}}],
    "StandardPortGroups": [
      {"Name": "Management Network", "VirtualSwitchName": "vSwitch0", "VLanId": 0, "Teaming": null},
      {"Name": "trunk-vms", "VirtualSwitchName": "vSwitch0", "VLanId": 4095, "Teaming": null},
      {"Name": "nfs", "VirtualSwitchName": "vSwitch0", "VLanId": 50, "Teaming": null}
    ],
    "DistributedSwitches": [{"Name": "dvs-lab", "Mtu": 9000, "LacpGroups": ["lag1"],
      "Uplinks": [{"Uplink": "lag1-0", "Nic": "vmnic2"}, {"Uplink": "lag1-1", "Nic": "vmnic3"}]}],
    "DistributedPortGroups": [
      {"Name": "iscsi-a", "VDSwitch": "dvs-lab", "VlanConfiguration": "VLAN 60",
       "Teaming": {"LoadBalancingPolicy": "LoadBalanceIP", "ActiveUplinkPort": ["lag1"], "StandbyUplinkPort": [], "UnusedUplinkPort": []}}
    ],
    "VMKernelAdapters": [
      {"Name": "vmk0", "PortGroupName": "Management Network", "Mtu": 1500, "ManagementTrafficEnabled": true, "VMotionEnabled": true},
      {"Name": "vmk1", "PortGroupName": "nfs", "Mtu": 1500},
      {"Name": "vmk2", "PortGroupName": "iscsi-a", "Mtu": 9000}
    ],
    "IscsiPortBindings": [{"Adapter": "vmhba64", "Vmknic": "vmk2"}]
  }]
}"#;

#[test]
fn what_the_format_cannot_say_or_the_hints_do_not_tell_is_a_note() {
    let (toml, notes) = import(&["vsphere/tor-a.cfg"], ODD, "odd.json");
    let all = notes.join("\n");
    for want in [
        "odd.json:7: esx9 vmnic0: its switch oob-sw1 (CDP) is not an imported switch",
        "odd.json:8: esx9 vmnic1: no CDP / LLDP hint and no cabling row",
        "esx9.lab vmnic1: BitRatePerSec is 0 or absent (link down): speed unknown",
        "port group trunk-vms is VLanId 4095 (a trunk or private VLAN)",
        "esx9.lab vmk1 has no service enabled (NFS, or iSCSI without port binding): its network nfs is written with role `unknown`",
        "esx9.lab vmk0 carries management and vMotion",
    ] {
        assert!(all.contains(want), "missing {want:?} in:\n{all}");
    }
    // The LLDP hint's Port ID is a MAC: the port description names the port.
    assert!(toml.contains("port = \"Ethernet1/20\""), "{toml}");
    assert!(toml.contains("load_balancing = \"lacp\""), "{toml}");
    assert!(toml.contains("load_balancing = \"ip-hash\""), "{toml}");
    assert!(toml.contains("iscsi_port_binding = true"), "{toml}");
    assert!(toml.contains("os = \"vsphere-7\""), "{toml}");
    // The port's iSCSI binding (line 31) tells the network's role.
    let iscsi = role_line(&toml, "iscsi-a");
    assert!(
        iscsi.starts_with("role = \"storage\"")
            && iscsi.contains("odd.json:31, esx9.lab vmk2: bound to software iSCSI"),
        "{iscsi}"
    );
    assert!(
        table(&toml, "[networks.iscsi-a]").contains("\nprotocol = \"iscsi\""),
        "{toml}"
    );
}

/// The text of the table `header` (up to the next table).
fn table<'a>(toml: &'a str, header: &str) -> &'a str {
    let start = toml
        .find(header)
        .unwrap_or_else(|| panic!("no {header}:\n{toml}"));
    let rest = &toml[start + header.len()..];
    &toml[start..start + header.len() + rest.find("\n[").unwrap_or(rest.len())]
}

/// The `role = ...` line of network `name`.
fn role_line<'a>(toml: &'a str, name: &str) -> &'a str {
    let t = table(toml, &format!("[networks.{name}]"));
    t.lines()
        .find(|l| l.starts_with("role = "))
        .unwrap_or_else(|| panic!("{t}"))
}

#[test]
fn a_vmkernel_port_with_no_service_gives_a_network_of_unknown_role() {
    // ODD's vmk1 on port group nfs enables no service (line 28): nothing
    // tells what the network carries. Before, it was written `storage`.
    let (toml, notes) = import(&["vsphere/tor-a.cfg"], ODD, "odd.json");
    let nfs = table(&toml, "[networks.nfs]");
    let role = role_line(&toml, "nfs");
    assert!(role.starts_with("role = \"unknown\""), "{nfs}");
    assert!(role.contains("odd.json:28"), "{role}");
    assert!(!nfs.contains("protocol"), "{nfs}");
    let all = notes.join("\n");
    assert!(
        all.contains("odd.json:28: esx9.lab vmk1 has no service enabled (NFS, or iSCSI without port binding): its network nfs is written with role `unknown`"),
        "{all}"
    );
    // The roles told by evidence say where.
    let mgmt = role_line(&toml, "\"Management Network\"");
    assert!(mgmt.starts_with("role = \"management\""), "{mgmt}");
    assert!(
        mgmt.contains("odd.json:27, esx9.lab vmk0: ManagementTrafficEnabled"),
        "{mgmt}"
    );
}

/// Two hosts on port groups pg-x (esxa's vmk1 enables no service, esxb's
/// vMotion) and pg-ft (esxa's vmk2: Fault Tolerance logging only).
const TWO: &str = r#"{
  "Collector": "netlint collect vsphere", "Cluster": "c",
  "Hosts": [
    {"Name": "esxa", "Version": "8.0.2",
     "PhysicalNics": [{"Name": "vmnic0", "BitRatePerSec": 10000}],
     "StandardSwitches": [{"Name": "vSwitch0", "Mtu": 1500, "Nic": ["vmnic0"]}],
     "StandardPortGroups": [
       {"Name": "pg-x", "VirtualSwitchName": "vSwitch0", "VLanId": 20},
       {"Name": "pg-ft", "VirtualSwitchName": "vSwitch0", "VLanId": 21}],
     "VMKernelAdapters": [
       {"Name": "vmk1", "PortGroupName": "pg-x", "Mtu": 1500},
       {"Name": "vmk2", "PortGroupName": "pg-ft", "Mtu": 1500,
        "FaultToleranceLoggingEnabled": true}]},
    {"Name": "esxb", "Version": "8.0.2",
     "PhysicalNics": [{"Name": "vmnic0", "BitRatePerSec": 10000}],
     "StandardSwitches": [{"Name": "vSwitch0", "Mtu": 1500, "Nic": ["vmnic0"]}],
     "StandardPortGroups": [
       {"Name": "pg-x", "VirtualSwitchName": "vSwitch0", "VLanId": 20}],
     "VMKernelAdapters": [
       {"Name": "vmk1", "PortGroupName": "pg-x", "Mtu": 1500,
        "VMotionEnabled": true}]}
  ]
}"#;

#[test]
fn evidence_on_a_port_group_wins_over_a_port_with_no_service() {
    let (toml, notes) = import(&[], TWO, "two.json");
    // esxb's vMotion flag tells what pg-x carries; esxa's port without a
    // service does not make it unknown.
    let x = role_line(&toml, "pg-x");
    assert!(x.starts_with("role = \"live-migration\""), "{toml}");
    assert!(x.contains("two.json:21, esxb vmk1: VMotionEnabled"), "{x}");
    let all = notes.join("\n");
    assert!(
        all.contains("two.json:11: esxa vmk1 has no service enabled (NFS, or iSCSI without port binding): its network pg-x is written with role `live-migration`, from two.json:21, esxb vmk1: VMotionEnabled"),
        "{all}"
    );
    // Fault Tolerance logging alone: `replica`, said to be inferred, in
    // the comment and the note.
    let ft = role_line(&toml, "pg-ft");
    assert!(ft.starts_with("role = \"replica\""), "{ft}");
    assert!(ft.contains("# inferred from two.json:13"), "{ft}");
    assert!(
        all.contains("two.json:13: esxa vmk2 carries only Fault Tolerance logging, which the design format has no role for: its network pg-ft is written with role `replica`, inferred (information only)"),
        "{all}"
    );
}

#[test]
fn malformed_or_foreign_json_is_a_located_error() {
    let e = vsphere::read("bad.json", b"{\n  \"Hosts\": [\n    {\"Name\": }\n  ]\n}").unwrap_err();
    assert_eq!(e.line, 3, "{e}");
    let e = vsphere::read("other.json", b"{\n \"Cmdlets\": {}\n}").unwrap_err();
    assert!(e.to_string().contains("no `Hosts` member"), "{e}");
}
