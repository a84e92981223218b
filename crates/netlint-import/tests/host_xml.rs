//! CliXml and Get-SDDCDiagnosticInfo folders: the fixture collection in
//! tests/sddc/ (written from the documented shapes; each file's header
//! cites its sources) reads into one collection per node with the values
//! and lines of its files, and mutated CliXml never panics.

use std::path::Path;

use netlint_import::host::value::Value;
use netlint_import::host::{clixml, sddc};
use proptest::prelude::*;

fn fixture() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sddc/s2d-roce-nopfc")
}

#[test]
fn the_fixture_collection_reads_per_node_utf8_and_utf16() {
    let dir = fixture();
    assert!(sddc::is_sddc_dir(&dir));
    let s = sddc::read_dir(&dir).unwrap();
    let names: Vec<&str> = s.nodes.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["HV01", "HV02"]);
    for n in &s.nodes {
        let c = &n.collection;
        // GetNetAdapter.txt beside the XML is counted, not read.
        assert_eq!(n.not_read, 1, "{}", n.name);
        let sw = &c.objects("Get-VMSwitch")[0];
        assert_eq!(sw.get("SwitchType").unwrap().as_str(), Some("External"));
        assert_eq!(
            sw.get("BandwidthReservationMode").unwrap().as_str(),
            Some("Weight")
        );
        assert_eq!(
            sw.get("NetAdapterInterfaceDescriptions")
                .unwrap()
                .strings()
                .len(),
            2
        );
        let nics = c.objects("Get-NetAdapter");
        assert_eq!(nics.len(), 5);
        assert_eq!(
            nics[0].get("Speed").unwrap().value,
            Value::Int(25_000_000_000)
        );
        assert_eq!(nics[0].get("LinkSpeed").unwrap().as_str(), Some("25 Gbps"));
        // The header comment is 4 lines, <Objs> line 5, the first object line 6.
        assert_eq!(nics[0].line, 6);
        let fc = c.objects("Get-NetQosFlowControl");
        assert_eq!(fc.len(), 8);
        assert!(fc
            .iter()
            .all(|p| p.get("Enabled").unwrap().as_bool() == Some(false)));
        let tc = c.objects("Get-NetQosTrafficClass");
        assert_eq!(tc[1].get("Priority").unwrap().items()[0].as_i64(), Some(3));
        let vlans = c.objects("Get-VMNetworkAdapterVlan");
        assert_eq!(vlans.len(), 3, "management-OS adapters only");
        assert_eq!(vlans[1].get("AccessVlanId").unwrap().as_i64(), Some(711));
        assert_eq!(c.objects("Get-ClusterNetwork").len(), 3);
        assert_eq!(
            c.objects("Get-ClusterNetwork")[1]
                .get("Role")
                .unwrap()
                .as_str(),
            Some("Cluster")
        );
        assert!(n.files["Get-NetAdapter"].ends_with("GetNetAdapter.xml"));
    }
}

fn mutate(bytes: &[u8], muts: &[(usize, u8, u8)]) -> Vec<u8> {
    let mut b = bytes.to_vec();
    for &(pos, op, val) in muts {
        if b.is_empty() {
            break;
        }
        let i = pos % b.len();
        match op % 4 {
            0 => b[i] = val,
            1 => {
                b.truncate(i);
            }
            2 => {
                let end = (i + val as usize).min(b.len());
                b.drain(i..end);
            }
            _ => {
                let piece: Vec<u8> = b[i..(i + val as usize).min(b.len())].to_vec();
                let at = (i * 7 + val as usize) % b.len();
                b.splice(at..at, piece);
            }
        }
    }
    b
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn mutated_clixml_never_panics_and_errors_lie_inside(
        file in 0usize..4,
        muts in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..6),
    ) {
        let names = ["GetVMSwitch.xml", "GetNetAdapter.xml", "GetNetQosTrafficClass.xml", "GetVMNetworkAdapter.xml"];
        // HV02's files are UTF-16 LE with a byte-order mark, HV01's UTF-8.
        let node = if file % 2 == 0 { "Node_HV01" } else { "Node_HV02" };
        let bytes = std::fs::read(fixture().join(node).join(names[file])).unwrap();
        let bad = mutate(&bytes, &muts);
        let text = clixml::decode(&bad);
        let lines = text.split('\n').count() as u32;
        match clixml::parse("x.xml", &text) {
            Ok(objs) => {
                for o in objs {
                    prop_assert!(o.line >= 1 && o.line <= lines);
                }
            }
            Err(errs) => {
                prop_assert!(!errs.is_empty());
                for e in errs {
                    prop_assert!(e.line >= 1 && e.line <= lines, "{} of {}", e, lines);
                }
            }
        }
    }
}

#[test]
fn nested_references_are_capped_not_expanded_without_bound() {
    // Each object holds ten references to the one before: 10^30 values if
    // expanded. The reader stops at its cap with a located error.
    let mut x = String::from(
        r#"<Objs Version="1.1.0.1" xmlns="http://schemas.microsoft.com/powershell/2004/04">
<Obj RefId="0"><MS><S N="a">x</S></MS></Obj>
"#,
    );
    for i in 1..30 {
        x.push_str(&format!("<Obj RefId=\"{i}\"><LST>"));
        for _ in 0..10 {
            x.push_str(&format!("<Ref RefId=\"{}\" />", i - 1));
        }
        x.push_str("</LST></Obj>\n");
    }
    x.push_str("</Objs>");
    let e = clixml::parse("bomb.xml", &x).unwrap_err();
    assert!(e[0].to_string().contains("more than"), "{}", e[0]);
    assert!(e[0].line > 2);
}

#[test]
fn the_fixture_collection_maps_to_hyperv_facts_rdma_on_without_pfc() {
    use netlint_import::host::facts::RdmaTech;
    use netlint_import::host::hyperv;
    let s = sddc::read_dir(&fixture()).unwrap();
    for n in &s.nodes {
        let h = hyperv::facts(&n.collection);
        assert_eq!(h.name, n.name);
        let nics: Vec<&str> = h.nics.iter().map(|x| x.name.as_str()).collect();
        assert_eq!(nics, ["SLOT 3 Port 1", "SLOT 3 Port 2"]);
        for nic in &h.nics {
            assert_eq!(nic.speed.as_ref().unwrap().value, 25_000_000_000);
            assert_eq!(nic.jumbo_packet.as_ref().unwrap().value, 9014);
            assert!(nic.rdma_enabled.as_ref().unwrap().value);
            assert_eq!(nic.rdma_tech.as_ref().unwrap().value, RdmaTech::RoceV2);
        }
        // Flow control collected and off on every priority: known empty.
        assert_eq!(h.qos.pfc.as_ref().unwrap().value, Vec::<u8>::new());
        assert!(!h.qos.willing.as_ref().unwrap().value);
        let pols = h.qos.policies.as_ref().unwrap();
        assert_eq!(pols[0].priority.as_ref().unwrap().value, 3);
        let sw = &h.vswitches.as_ref().unwrap()[0];
        assert!(sw.external);
        assert_eq!(sw.uplinks.value.len(), 2);
        let vnics = h.vnics.as_ref().unwrap();
        let vl: Vec<(&str, Option<u16>)> = vnics
            .iter()
            .map(|v| (v.name.as_str(), v.vlan.as_ref().map(|x| x.value)))
            .collect();
        assert!(vl.contains(&("SMB1", Some(711))), "{vl:?}");
        assert!(vl.contains(&("SMB2", Some(712))), "{vl:?}");
        assert_eq!(h.os.as_ref().unwrap().value.build, Some(20348));
        // What Get-SDDCDiagnosticInfo does not gather stays unknown.
        let missing: Vec<&str> = h.missing.iter().map(|m| m.0.as_str()).collect();
        assert!(missing.contains(&"Get-SmbBandwidthLimit"), "{missing:?}");
        assert!(missing.contains(&"Get-VMHost"), "{missing:?}");
        assert!(!missing.contains(&"Get-NetQosFlowControl"), "{missing:?}");
        assert!(h.smb_limits.is_none());
    }
}
