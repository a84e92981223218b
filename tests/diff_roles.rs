//! `netlint diff` compares networks' roles (issue 32 item 7): the design
//! imported from a vSphere collection against that collection gives no
//! role difference, and against the collection with its vMotion vmkernel
//! ports turned into vSAN ports gives `drift-role` on that network, which
//! a VLAN and MTU comparison alone never saw.

mod support;
use std::path::{Path, PathBuf};
use support::run;

fn fixture(name: &str) -> String {
    support::vsphere_fixture(name)
}

fn tmp(name: &str) -> PathBuf {
    support::tmp("diff-roles", name)
}

/// The design `netlint import` writes from the fixture's switches,
/// cabling and vSphere collection.
fn imported_design() -> PathBuf {
    let design = tmp("prod-cl01.toml");
    support::import_vsphere_site("prod-cl01.vsphere.json", &design);
    design
}

/// `drift-role` findings of `netlint diff design COLLECTION` (with the
/// fixture's switches and cabling), as (message, as-built file).
fn role_findings(design: &Path, collection: &str) -> Vec<String> {
    let (code, out, err) = run(&[
        "diff",
        design.to_str().unwrap(),
        &fixture("tor-a.cfg"),
        &fixture("tor-b.cfg"),
        &fixture("cabling.csv"),
        collection,
        "--format",
        "json",
    ]);
    assert_ne!(code, 2, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}\n{out}\n{err}"));
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "drift-role")
        .map(|d| d["message"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_collection_a_design_was_imported_from_has_no_role_drift() {
    let design = imported_design();
    assert_eq!(
        role_findings(&design, &fixture("prod-cl01.vsphere.json")),
        Vec::<String>::new()
    );
}

#[test]
fn a_vmotion_port_turned_into_vsan_is_a_role_drift() {
    let design = imported_design();
    let text = std::fs::read_to_string(fixture("prod-cl01.vsphere.json")).unwrap();
    let mut v: serde_json::Value =
        serde_json::from_str(text.trim_start_matches('\u{feff}')).unwrap();
    let mut turned = 0;
    for h in v["Hosts"].as_array_mut().unwrap() {
        for k in h["VMKernelAdapters"].as_array_mut().into_iter().flatten() {
            if k["VMotionEnabled"] == true {
                k["VMotionEnabled"] = false.into();
                k["VsanTrafficEnabled"] = true.into();
                turned += 1;
            }
        }
    }
    assert_eq!(turned, 3, "one vMotion port per host in the fixture");
    let built = tmp("vsan-instead.vsphere.json");
    std::fs::write(&built, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let found = role_findings(&design, built.to_str().unwrap());
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].starts_with("network `dvpg-vmotion`: role `storage` (`vsan`) as built, `live-migration` in the design"),
        "{found:#?}"
    );
}
