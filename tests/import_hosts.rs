//! `netlint import` of Hyper-V host collections with the switches they
//! are cabled to, then `netlint check` on the written design: the seeds'
//! host failures are found on the imported cluster (RDMA without PFC, a
//! missing SMB bandwidth limit, jumbo frames on three hosts of four, a
//! Hyper-V Port team capping live migration, an LBFO team under a
//! vSwitch on Windows Server 2022).

mod support;
use std::path::{Path, PathBuf};
use support::run;

fn path(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("crates/netlint-import/tests")
        .join(rel)
        .display()
        .to_string()
}

fn tmp(name: &str) -> PathBuf {
    support::tmp("import_hosts", name)
}

/// Imports, then checks; returns the design text, the import's standard
/// error and the findings as (rule, message, line of the design).
fn import_and_check(name: &str, inputs: &[String]) -> (String, String, Vec<(String, String, u64)>) {
    let out_file = tmp(name);
    let _ = std::fs::remove_file(&out_file);
    let mut args = vec!["import"];
    args.extend(inputs.iter().map(String::as_str));
    args.extend(["-o", out_file.to_str().unwrap()]);
    let (code, _, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let design = std::fs::read_to_string(&out_file).unwrap();
    let (_, json, cerr) = run(&["check", out_file.to_str().unwrap(), "--format", "json"]);
    let v: serde_json::Value =
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}{cerr}"));
    let findings = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap().to_string(),
                d["message"].as_str().unwrap().to_string(),
                d["location"]["line"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    (design, err, findings)
}

fn rules(f: &[(String, String, u64)]) -> Vec<&str> {
    f.iter().map(|(r, _, _)| r.as_str()).collect()
}

#[test]
fn converged_cluster_rdma_without_pfc_no_smb_limit_and_jumbo_on_three_of_four() {
    let (design, err, findings) = import_and_check(
        "converged.toml",
        &[
            path("fixtures/nxos-tor1.cfg"),
            path("fixtures/nxos-tor2.cfg"),
            path("host-fixtures/converged"),
        ],
    );
    assert!(err.contains("hyperv collection of host HV02"), "{err}");
    assert!(err.contains("hosts: 4 imported"), "{err}");
    let r = rules(&findings);
    assert!(r.contains(&"rdma-without-dcb"), "{r:?}");
    assert!(r.contains(&"smb-bandwidth-cap-missing"), "{r:?}");
    // Jumbo on three hosts of four: HV04 is the odd one, at its override.
    let lines: Vec<&str> = design.lines().collect();
    let mtu: Vec<_> = findings.iter().filter(|f| f.0 == "mtu-mismatch").collect();
    assert!(!mtu.is_empty(), "{r:?}");
    for (_, msg, line) in &mtu {
        assert!(msg.contains("HV04"), "{msg}");
        let text = lines[*line as usize - 1];
        assert!(text.contains("hv04.json"), "finding at `{text}`");
    }
    assert!(r.contains(&"host-asymmetry"), "{r:?}");
    // Both ports of the one ConnectX-4 card are one model, although
    // Windows calls the second "... Adapter #2".
    assert!(!r.contains(&"team-member-identity"), "{r:?}");
}

#[test]
fn lbfo_team_under_a_vswitch_with_hyperv_port_caps_live_migration() {
    let (_, err, findings) = import_and_check(
        "lbfo.toml",
        &[
            path("fixtures/nxos-tor1.cfg"),
            path("fixtures/nxos-tor2.cfg"),
            path("host-fixtures/lbfo/cabling.csv"),
            path("host-fixtures/lbfo/lb01.json"),
            path("host-fixtures/lbfo/lb02.json"),
        ],
    );
    let r = rules(&findings);
    assert!(r.contains(&"team-lbfo-vswitch"), "{r:?}");
    assert!(r.contains(&"team-hyperv-port-cap"), "{r:?}");
    // The NIC no cable ties is named, never guessed.
    assert!(
        err.contains("host LB02: NIC NIC2 (status Up): no LLDP neighbour"),
        "{err}"
    );
    assert!(err.contains("1 NIC(s) tied to no switch port"), "{err}");
}

#[test]
fn a_malformed_collection_is_a_located_error_and_nothing_is_written() {
    let bad = tmp("bad.json");
    std::fs::write(
        &bad,
        "{\r\n  \"ComputerName\": \"HV09\",\r\n  \"Cmdlets\": {\r\n    \"Get-VMHost\": {\"MaximumVirtualMachineMigrations\" 2}\r\n  }\r\n}\r\n",
    )
    .unwrap();
    let out_file = tmp("bad.toml");
    let _ = std::fs::remove_file(&out_file);
    let (code, _, err) = run(&[
        "import",
        bad.to_str().unwrap(),
        &path("host-fixtures/lbfo/lb01.json"),
        "-o",
        out_file.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad.json:4:"), "{err}");
    assert!(err.contains("expected `:`"), "{err}");
    assert!(!out_file.exists());
}

#[test]
fn a_partial_collection_leaves_the_missing_facts_unknown_and_says_so() {
    // LB01 without Get-SmbBandwidthLimit and Get-NetAdapterHardwareInfo.
    let text = std::fs::read_to_string(path("host-fixtures/lbfo/lb01.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let cmdlets = v["Cmdlets"].as_object_mut().unwrap();
    cmdlets.remove("Get-SmbBandwidthLimit");
    cmdlets.remove("Get-NetAdapterHardwareInfo");
    let partial = tmp("partial.json");
    std::fs::write(&partial, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let (design, err, _) = import_and_check(
        "partial.toml",
        &[
            path("fixtures/nxos-tor1.cfg"),
            partial.display().to_string(),
        ],
    );
    assert!(
        err.contains("Get-SmbBandwidthLimit is not in the collection"),
        "{err}"
    );
    assert!(err.contains("2 cmdlet(s) missing"), "{err}");
    assert!(err.contains("its card is unknown"), "{err}");
    assert!(!design.contains("card ="), "{design}");
}

/// A cmdlet netlint does not read (another script's, a newer one's) is
/// counted and listed at its line, as a config's lines not understood are
/// (issue 32 item 6c); the rest of the collection is read as before.
#[test]
fn a_cmdlet_netlint_does_not_read_is_counted_and_listed() {
    let text = std::fs::read_to_string(path("host-fixtures/lbfo/lb01.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let cmdlets = v["Cmdlets"].as_object_mut().unwrap();
    cmdlets.insert(
        "Get-NetAdapterBinding".into(),
        serde_json::json!([{ "Name": "NIC1", "ComponentID": "ms_tcpip6", "Enabled": false }]),
    );
    let extra = tmp("extra-cmdlet.json");
    let pretty = serde_json::to_string_pretty(&v).unwrap();
    std::fs::write(&extra, &pretty).unwrap();
    let line = pretty
        .lines()
        .position(|l| l.contains("\"Get-NetAdapterBinding\""))
        .unwrap()
        + 1;
    let (_, err, _) = import_and_check(
        "extra-cmdlet.toml",
        &[path("fixtures/nxos-tor1.cfg"), extra.display().to_string()],
    );
    assert!(
        err.contains("0 cmdlet(s) missing, 1 not understood"),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "extra-cmdlet.json:{line}: Get-NetAdapterBinding (a cmdlet netlint does not read)"
        )),
        "{err}"
    );
    // `--strict` refuses it as it refuses a config line not understood.
    let strict = tmp("extra-cmdlet-strict.toml");
    let _ = std::fs::remove_file(&strict);
    let (code, _, err) = run(&[
        "import",
        "--strict",
        &extra.display().to_string(),
        "-o",
        strict.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--strict: 1 line(s) not understood"), "{err}");
    assert!(!strict.exists());
}

#[test]
fn collect_hyperv_prints_the_shipped_script() {
    let (code, out, err) = run(&["collect", "hyperv"]);
    assert_eq!(code, 0, "{err}");
    let shipped = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/collect-hyperv.ps1"),
    )
    .unwrap();
    assert_eq!(out, shipped);
    let (code, _, err) = run(&["collect", "nosuch"]);
    assert_eq!(code, 2);
    assert!(err.contains("hyperv"), "{err}");
}
