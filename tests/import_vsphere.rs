//! `netlint import` on a vSphere collection (`netlint collect vsphere`
//! JSON) with the switch configs and cabling, then `netlint check` on the
//! written design: the seeded faults are found where a reviewer expects
//! them. Fixtures: crates/netlint-import/tests/vsphere/ (sources in each
//! file's header).

mod support;
use std::path::{Path, PathBuf};
use support::run;

fn fixture(name: &str) -> String {
    support::vsphere_fixture(name)
}

fn tmp(name: &str) -> PathBuf {
    support::tmp("import-vsphere", name)
}

fn findings(design: &Path) -> Vec<(String, String, String)> {
    let (_, out, err) = run(&["check", design.to_str().unwrap(), "--format", "json"]);
    let v: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}\n{out}\n{err}"));
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap_or("").to_string(),
                d["severity"].as_str().unwrap_or("").to_string(),
                d["message"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn an_imported_vsphere_cluster_shows_the_vmotion_mtu_drift_and_the_pinned_management_port() {
    let design = tmp("prod-cl01.toml");
    let err = support::import_vsphere_site("prod-cl01.vsphere.json", &design);
    assert!(
        err.contains("prod-cl01.vsphere.json: vsphere collection of cluster prod-cl01: 3 host(s)"),
        "{err}"
    );
    let f = findings(&design);
    // esx03's vMotion vmkernel port at 1500 on the MTU 9000 vDS.
    assert!(
        f.iter().any(|(r, s, m)| r == "mtu-mismatch"
            && s == "error"
            && m.contains("host `esx03` uses MTU 1500 on network `dvpg-vmotion` (vNIC `vmk1`)")),
        "{f:#?}"
    );
    // The Management Network port group: one active uplink, no standby.
    assert!(
        f.iter().any(|(r, _, m)| r == "spof-nic-card"
            && m.contains("lose")
            && m.contains("`Management Network`")
            && m.contains("`vmnic0`")),
        "{f:#?}"
    );
    // vMotion and vSAN are pinned active/standby across both cards: no
    // single card takes them.
    assert!(
        !f.iter().any(|(r, _, m)| r == "spof-nic-card"
            && (m.contains("dvpg-vmotion") || m.contains("dvpg-vsan"))),
        "{f:#?}"
    );
    // esx03 runs the Balanced CPU power policy; the others High Performance.
    let power: Vec<&String> = f
        .iter()
        .filter(|(r, _, _)| r == "power-profile")
        .map(|(_, _, m)| m)
        .collect();
    assert_eq!(power.len(), 1, "{power:#?}");
    assert!(
        power[0].contains("host `esx03`: power plan `balanced`"),
        "{power:#?}"
    );
    // Exactly one host is off: the other two are not reported.
    assert!(!f
        .iter()
        .any(|(r, _, m)| r == "mtu-mismatch" && m.contains("host `esx01` uses")));
    // The ports the vmnics' CDP / LLDP hints name are host ports, and the
    // configs set them `spanning-tree port type edge trunk` with BPDU
    // guard by default: no `host-port-not-edge` (a false positive while
    // the hints did not reach the switch writer).
    let toml = std::fs::read_to_string(&design).unwrap();
    assert_eq!(
        toml.matches("host_ports = { edge = true, bpdu_guard = true }")
            .count(),
        2,
        "{toml}"
    );
    assert!(
        !f.iter().any(|(r, _, _)| r == "host-port-not-edge"),
        "{f:#?}"
    );
}

#[test]
fn a_vsphere_collection_that_does_not_parse_is_exit_2_at_its_line() {
    let bad = tmp("bad.vsphere.json");
    std::fs::write(&bad, "{\n  \"Collector\": \"netlint collect vsphere\",\n  \"Hosts\": [ { \"Name\": \"esx1\", } ]\n}\n").unwrap();
    let out_file = tmp("bad.toml");
    let _ = std::fs::remove_file(&out_file);
    let (code, _, err) = run(&[
        "import",
        bad.to_str().unwrap(),
        "-o",
        out_file.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad.vsphere.json:3:"), "{err}");
    assert!(!out_file.exists(), "nothing is written on bad input");
}

#[test]
fn netlint_collect_vsphere_prints_the_shipped_read_only_script() {
    let (code, out, err) = run(&["collect", "vsphere"]);
    assert_eq!(code, 0, "{err}");
    let shipped = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/collect-vsphere.ps1"),
    )
    .unwrap();
    assert_eq!(out, shipped);
    for cmd in [
        "Get-VMHostNetworkAdapter",
        "Get-VirtualSwitch",
        "Get-VDSwitch",
        "Get-VirtualPortGroup",
        "Get-VDPortgroup",
        "Get-NicTeamingPolicy",
        "Get-VDUplinkTeamingPolicy",
        "Get-EsxCli",
        "QueryNetworkHint",
        "ConvertTo-Json",
    ] {
        assert!(out.contains(cmd), "{cmd}");
    }
    // Read-only: no PowerCLI cmdlet that changes anything (Set-StrictMode
    // and Set-Content act on the local session and output file), and
    // esxcli only lists.
    for verb in [
        "Set-VM",
        "Set-Virtual",
        "Set-VD",
        "Set-Nic",
        "New-V",
        "Remove-",
        "Add-",
        "Update-",
        "Invoke-VMScript",
    ] {
        assert!(!out.contains(verb), "{verb}");
    }
    for (i, _) in out.match_indices(".Invoke(") {
        assert!(
            out[..i].ends_with(".list"),
            "{}",
            &out[i.saturating_sub(40)..i + 8]
        );
    }
    // Its syntax: crates/netlint-import/tests/collect_scripts.rs parses it
    // with tree-sitter's PowerShell grammar.
}

/// Issue 30 item 1: two collections whose clusters share a name (two
/// vCenter Servers) gave `[profiles.esx-prod-cl01]` twice, and `import`
/// refused its own design (exit 2). Now the second is written as cluster
/// `prod-cl01-2`, profile `esx-prod-cl01-2`, said in a note, and the
/// design loads.
#[test]
fn two_collections_of_same_named_clusters_import_to_a_design_that_loads() {
    let text = std::fs::read_to_string(fixture("prod-cl01.vsphere.json")).unwrap();
    let other = tmp("second-vcenter.vsphere.json");
    std::fs::write(&other, text.replace("esx0", "esx1")).unwrap();
    let design = tmp("two-same-named-clusters.toml");
    let _ = std::fs::remove_file(&design);
    let (code, _, err) = run(&[
        "import",
        &fixture("prod-cl01.vsphere.json"),
        other.to_str().unwrap(),
        "-o",
        design.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("cluster prod-cl01 is also the cluster of a collection read before: its hosts are written as cluster prod-cl01-2, profile esx-prod-cl01-2"),
        "{err}"
    );
    let toml = std::fs::read_to_string(&design).unwrap();
    assert!(toml.contains("\n[profiles.esx-prod-cl01-2]\n"), "{toml}");
    let (code, out, err) = run(&["check", design.to_str().unwrap(), "--format", "concise"]);
    assert!(code < 2, "{code}: {out}{err}");
}
