//! A standalone ESXi host (a lab, an edge site, a host before it joins a
//! cluster) imports (issue 32 item 6b): `netlint collect vsphere` writes
//! `Cluster: null` for a host in no cluster (connected to the host itself,
//! or named with `-VMHost`), and `netlint import` and `netlint check` read
//! it. Fixture: crates/netlint-import/tests/vsphere/esx01-standalone.vsphere.json
//! (esx01 of prod-cl01.vsphere.json, in no cluster; sources in its header).

mod support;
use support::run;

fn fixture(name: &str) -> String {
    support::vsphere_fixture(name)
}

#[test]
fn a_standalone_host_imports_and_checks() {
    let design = support::tmp("vsphere-standalone", "esx01.toml");
    let err = support::import_vsphere_site("esx01-standalone.vsphere.json", &design);
    assert!(
        err.contains(
            "esx01-standalone.vsphere.json: vsphere collection of 1 standalone host(s) (in no cluster)"
        ),
        "{err}"
    );
    let toml = std::fs::read_to_string(&design).unwrap();
    // The host, its vmnics cabled to the switches, its vmkernel ports.
    assert!(toml.contains("[hosts.esx01]"), "{toml}");
    assert!(toml.contains("nics.vmnic0]\n"), "{toml}");
    assert!(toml.contains("vnics.vmk1]\n"), "{toml}");
    // No cluster is made up for it.
    assert!(!toml.contains("[clusters."), "{toml}");
    let (code, _, err) = run(&["check", design.to_str().unwrap()]);
    assert_ne!(code, 2, "{err}");
    // `check` reads the collection itself too.
    let (code, _, err) = run(&["check", &fixture("esx01-standalone.vsphere.json")]);
    assert_ne!(code, 2, "{err}");
    assert!(err.contains("standalone host(s)"), "{err}");
}

/// The shipped collector covers standalone hosts: connected to an ESXi
/// host itself (`ProductLine` `embeddedEsx`), `-VMHost`, and hosts of a
/// vCenter in no cluster; each written with `Cluster` null. (Its syntax:
/// crates/netlint-import/tests/collect_scripts.rs.)
#[test]
fn the_collector_writes_standalone_hosts() {
    let (code, out, _) = run(&["collect", "vsphere"]);
    assert_eq!(code, 0);
    for needle in [
        "[string[]] $VMHost",
        "$global:DefaultVIServer.ProductLine -eq 'embeddedEsx'",
        "Write-Collection $h.Name (Get-HostCluster $h) @(Get-HostNetwork $h)",
        "Where-Object { $null -eq (Get-HostCluster $_) }",
    ] {
        assert!(out.contains(needle), "{needle}");
    }
}
