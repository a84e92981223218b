//! `netlint import` on a `Get-SDDCDiagnosticInfo` folder (per-node
//! `Export-Clixml` files) with the switch configs and a cabling sheet, then
//! `netlint check`: the seeded fault (RDMA on without PFC on the hosts) is
//! found. Fixtures: crates/netlint-import/tests/sddc/ (sources in each
//! file's header).

mod support;
use std::path::{Path, PathBuf};
use support::run;

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("crates/netlint-import/tests")
        .join(name)
        .display()
        .to_string()
}

fn tmp(name: &str) -> PathBuf {
    support::tmp("import-sddc", name)
}

#[test]
fn an_imported_sddc_collection_shows_rdma_without_pfc() {
    let design = tmp("s2d.toml");
    let _ = std::fs::remove_file(&design);
    let (code, out, err) = run(&[
        "import",
        &fixture("vsphere/tor-a.cfg"),
        &fixture("vsphere/tor-b.cfg"),
        &fixture("sddc/cabling.csv"),
        &fixture("sddc/s2d-roce-nopfc"),
        "-o",
        design.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.is_empty(), "{out}");
    // One host per Node_<name> folder; what SDDC does not gather is named.
    assert!(err.contains("sddc node HV01: 2 physical NICs"), "{err}");
    assert!(err.contains("sddc node HV02: 2 physical NICs"), "{err}");
    assert!(
        err.contains("not gathered by Get-SDDCDiagnosticInfo: "),
        "{err}"
    );
    let written = std::fs::read_to_string(&design).unwrap();
    assert!(written.contains("[hosts.HV01]"), "{written}");
    assert!(written.contains("pfc = []"), "{written}");
    let (_, out, err) = run(&["check", design.to_str().unwrap(), "--format", "json"]);
    let v: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}\n{out}\n{err}"));
    let diags = v["diagnostics"].as_array().unwrap();
    let host_rdma = diags.iter().find(|d| {
        d["rule"] == "rdma-without-dcb"
            && d["message"].as_str().is_some_and(|m| {
                m.contains("hosts `HV01`, `HV02`") && m.contains("PFC on no priority")
            })
    });
    assert!(host_rdma.is_some(), "{diags:#?}");
}

#[test]
fn a_malformed_node_file_is_exit_2_at_its_file_and_line_and_nothing_is_written() {
    let root = tmp("broken-sddc");
    let _ = std::fs::remove_dir_all(&root);
    let node = root.join("Node_HV09");
    std::fs::create_dir_all(&node).unwrap();
    std::fs::write(
        node.join("GetNetAdapter.xml"),
        "<Objs Version=\"1.1.0.1\" xmlns=\"http://schemas.microsoft.com/powershell/2004/04\">\n<Obj RefId=\"0\"><Props>\n<U64 N=\"Speed\">fast</U64>\n</Props></Obj>\n</Objs>\n",
    )
    .unwrap();
    std::fs::write(node.join("GetVMSwitch.xml"), "<Objs>\n<Obj>\n").unwrap();
    let out_file = tmp("broken.toml");
    let _ = std::fs::remove_file(&out_file);
    let (code, _, err) = run(&[
        "import",
        root.to_str().unwrap(),
        "-o",
        out_file.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    // Both files' problems, each at its line.
    assert!(err.contains("GetNetAdapter.xml:3:"), "{err}");
    assert!(err.contains("\"fast\""), "{err}");
    assert!(err.contains("GetVMSwitch.xml:3:"), "{err}");
    assert!(!out_file.exists());
}

#[test]
fn the_collection_as_the_module_zips_it_imports_like_the_folder() {
    // The fixture folder packed as Get-SDDCDiagnosticInfo delivers it: a
    // ZIP with the collection under one folder, files deflated.
    let dir = PathBuf::from(fixture("sddc/s2d-roce-nopfc"));
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if p.is_dir() {
            for f in std::fs::read_dir(&p).unwrap() {
                let f = f.unwrap().path();
                let fname = f.file_name().unwrap().to_string_lossy().into_owned();
                files.push((
                    format!("HealthTest-S2D-20261201-0500/{name}/{fname}"),
                    std::fs::read(&f).unwrap(),
                ));
            }
        } else {
            files.push((
                format!("HealthTest-S2D-20261201-0500/{name}"),
                std::fs::read(&p).unwrap(),
            ));
        }
    }
    files.sort();
    let entries: Vec<(&str, &[u8], bool)> = files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice(), true))
        .collect();
    let zip = tmp("HealthTest-S2D-20261201-0500.ZIP");
    std::fs::write(&zip, netlint_import::host::zip::write(&entries)).unwrap();
    let from_zip = tmp("s2d-zip.toml");
    let _ = std::fs::remove_file(&from_zip);
    let (code, _, err) = run(&[
        "import",
        &fixture("vsphere/tor-a.cfg"),
        &fixture("vsphere/tor-b.cfg"),
        &fixture("sddc/cabling.csv"),
        zip.to_str().unwrap(),
        "-o",
        from_zip.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("sddc node HV02: 2 physical NICs"), "{err}");
    let written = std::fs::read_to_string(&from_zip).unwrap();
    assert!(written.contains("[hosts.HV02]"), "{written}");
    assert!(written.contains("pfc = []"), "{written}");
    assert!(
        written.contains("HealthTest-S2D-20261201-0500.ZIP/Node_HV01"),
        "{written}"
    );
    // A damaged archive: exit 2, nothing written.
    let mut bytes = std::fs::read(&zip).unwrap();
    let n = bytes.len();
    bytes.truncate(n - 10);
    std::fs::write(&zip, bytes).unwrap();
    let _ = std::fs::remove_file(&from_zip);
    let (code, _, err) = run(&[
        "import",
        zip.to_str().unwrap(),
        "-o",
        from_zip.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("ZIP"), "{err}");
    assert!(!from_zip.exists());
}
