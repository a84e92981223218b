//! Issue 37 through the CLI: `import` on inputs that panicked, printed
//! control characters or wrote designs its own loader refused.

mod support;
use support::run;

fn tmp(name: &str) -> std::path::PathBuf {
    support::tmp("import_reliability", name)
}

#[test]
fn lldp_json_closing_before_opening_is_exit_2_not_a_panic() {
    let f = tmp("backwards.json");
    std::fs::write(&f, "}\n\n{\n").unwrap();
    for from in ["lldp-nxos-json", "lldp-eos-json"] {
        let (code, out, err) = run(&["import", "--from", from, f.to_str().unwrap()]);
        assert_eq!(code, 2, "{from}: {out}{err}");
        assert!(err.contains("backwards.json:3"), "{from}: {err}");
    }
}

fn fixture(dir: &str, name: &str) -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("crates/netlint-import/tests")
            .join(dir)
            .join(name),
    )
    .unwrap()
}

/// Control characters and bidirectional controls of every kind: ESC
/// (a terminal escape sequence), NUL, DEL, a C1 control (CSI) and a
/// right-to-left override.
const HOSTILE: [&str; 5] = ["\u{1b}[31m", "\u{0}", "\u{7f}", "\u{9b}2J", "\u{202e}"];

fn raw_control(s: &str) -> Option<char> {
    s.chars()
        .find(|&c| netlint_model::text::is_unsafe(c) && !matches!(c, '\n' | '\t'))
}

/// `import` of `files` (name, text): exit 0, nothing unsafe printed, and
/// the design it writes loads without a diagnostic.
fn imports_safely(case: &str, files: &[(&str, String)], extra: &[&str]) -> String {
    let mut args = vec!["import".to_string()];
    for (name, text) in files {
        let p = tmp(&format!("{case}-{name}"));
        std::fs::write(&p, text).unwrap();
        args.push(p.display().to_string());
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{case}: {err}");
    assert_eq!(raw_control(&out), None, "{case}: {out:?}");
    assert_eq!(raw_control(&err), None, "{case}: {err:?}");
    let loaded = netlint_model::load(&netlint_model::SourceFile::new("d.toml", out.clone()));
    assert!(
        loaded.diagnostics.is_empty(),
        "{case}: {:#?}\n{out}",
        loaded
            .diagnostics
            .iter()
            .map(|d| &d.message)
            .collect::<Vec<_>>()
    );
    out
}

/// Names and descriptions with control characters were copied raw into
/// design comments (no longer TOML) and to the terminal.
#[test]
fn control_characters_from_switch_configs_are_escaped_in_the_design_and_on_the_terminal() {
    let tor1 = fixture("fixtures", "nxos-tor1.cfg");
    let tor2 = fixture("fixtures", "nxos-tor2.cfg");
    let lldp = fixture("fixtures", "nxos-tor1.lldp.json");
    for (k, bad) in HOSTILE.iter().enumerate() {
        let cfg = tor1
            .replace("hostname tor1\n", &format!("hostname tor1{bad}\n"))
            .replace("name LIVE-MIGRATION", &format!("name LIVE{bad}MIGRATION"))
            .replace(
                "description host management",
                &format!("description host{bad}management"),
            )
            .replace(
                "interface Ethernet1/47\n",
                &format!("interface Ethernet1/47\n  x{bad}y\n"),
            )
            .replace(
                "vlan 10\n",
                &format!("vlan 10\nvlan x{bad}\ninterface Eth{bad}\n"),
            );
        let json_bad: String = bad
            .chars()
            .map(|c| format!("\\u{:04x}", c as u32))
            .collect();
        let lldp = lldp.replace(
            "\"sys_name\": \"tor2\"",
            &format!("\"sys_name\": \"tor2{json_bad}\""),
        );
        imports_safely(
            &format!("switch{k}"),
            &[
                ("tor1.cfg", cfg),
                ("tor2.cfg", tor2.clone()),
                ("tor1.lldp.json", lldp),
            ],
            &[],
        );
    }
}

/// The same through `check` on configs: the design is loaded in memory,
/// and an error in it was reported at `<imported>:9:6`.
#[test]
fn check_on_a_config_with_control_characters_reports_no_error_in_the_imported_design() {
    let tor1 = fixture("fixtures", "nxos-tor1.cfg");
    for (k, bad) in HOSTILE.iter().enumerate() {
        let cfg = tor1
            .replace("hostname tor1\n", &format!("hostname tor1{bad}\n"))
            .replace("name LIVE-MIGRATION", &format!("name LIVE{bad}MIGRATION"));
        let p = tmp(&format!("check{k}-tor1.cfg"));
        std::fs::write(&p, cfg).unwrap();
        let (code, out, err) = run(&["check", p.to_str().unwrap(), "--format", "concise"]);
        assert!(code < 2, "{code}: {out}{err}");
        assert!(!out.contains("<imported>"), "{out}");
        assert_eq!(raw_control(&out), None, "{out:?}");
        assert_eq!(raw_control(&err), None, "{err:?}");
    }
}

/// vSphere JSON: the cluster, a host, a switch and port group names with a
/// control character.
#[test]
fn control_characters_from_vsphere_collections_are_escaped() {
    let coll = fixture("vsphere", "prod-cl01.vsphere.json");
    for (k, bad) in HOSTILE.iter().enumerate() {
        let j: String = bad
            .chars()
            .map(|c| format!("\\u{:04x}", c as u32))
            .collect();
        let coll = coll
            .replace("esx01.contoso.com", &format!("esx01{j}.contoso.com"))
            .replace(
                "\"Cluster\": \"prod-cl01\"",
                &format!("\"Cluster\": \"prod{j}-cl01\""),
            )
            .replace("dvpg-vmotion", &format!("dvpg{j}-vmotion"))
            .replace("\"vSwitch0\"", &format!("\"vSwitch0{j}\""))
            .replace(
                "\"Management Network\"",
                &format!("\"Management{j} Network\""),
            );
        imports_safely(&format!("vsphere{k}"), &[("c.vsphere.json", coll)], &[]);
    }
}

/// Line ends, tabs and Unicode line separators in names: a TOML comment
/// ends at a line end and a basic string may hold none, so each is written
/// escaped (`\u{a}`) in strings and keys, and as a space or escaped in
/// comments, wherever it comes from: a VLAN name of a switch config (a
/// tab, a carriage return: a config line holds no line feed), a vSphere
/// cluster, host and port group (JSON holds any), a Hyper-V host.
#[test]
fn line_ends_and_separators_in_names_give_a_design_that_loads() {
    let tor1 = fixture("fixtures", "nxos-tor1.cfg");
    for (k, bad) in ["\t", "\r", "\u{2028}", "\u{85}"].iter().enumerate() {
        let cfg = tor1.replace("name LIVE-MIGRATION", &format!("name LIVE{bad}MIGRATION"));
        imports_safely(&format!("vlan-name{k}"), &[("tor1.cfg", cfg)], &[]);
    }
    let coll = fixture("vsphere", "prod-cl01.vsphere.json");
    let hv = fixture("host-fixtures/converged", "hv01.json");
    for (k, j) in ["\\n", "\\r\\n", "\\t", "\\u2028", "\\u0085"]
        .iter()
        .enumerate()
    {
        let coll = coll
            .replace("esx01.contoso.com", &format!("esx01{j}.contoso.com"))
            .replace(
                "\"Cluster\": \"prod-cl01\"",
                &format!("\"Cluster\": \"prod{j}-cl01\""),
            )
            .replace("dvpg-vmotion", &format!("dvpg{j}-vmotion"));
        imports_safely(
            &format!("vsphere-line{k}"),
            &[("c.vsphere.json", coll)],
            &[],
        );
        let hv = hv.replace("\"HV01\"", &format!("\"HV01{j}\""));
        imports_safely(&format!("hyperv-line{k}"), &[("hv01.json", hv)], &[]);
    }
}

/// A Hyper-V collection: the computer name, an adapter and the virtual
/// switch with a control character.
#[test]
fn control_characters_from_hyperv_collections_are_escaped() {
    let hv = fixture("host-fixtures/converged", "hv01.json");
    for (k, bad) in HOSTILE.iter().enumerate() {
        let j: String = bad
            .chars()
            .map(|c| format!("\\u{:04x}", c as u32))
            .collect();
        let hv = hv
            .replace("\"HV01\"", &format!("\"HV01{j}\""))
            .replace("SLOT 3 Port 1", &format!("SLOT 3{j} Port 1"))
            .replace("ConvergedSwitch", &format!("Converged{j}Switch"));
        imports_safely(&format!("hyperv{k}"), &[("hv01.json", hv)], &[]);
    }
}

/// Out-of-range VLANs are lines not understood: listed, and `--strict`
/// refuses the import (OS10 `interface vlan5000` became VLAN 904 and
/// passed).
#[test]
fn out_of_range_vlans_are_listed_and_fail_strict() {
    let f = tmp("os10-vlan5000.cfg");
    std::fs::write(
        &f,
        "OS10# show running-configuration\nhostname leaf1\ninterface vlan5000\n no shutdown\ninterface vlan20\n",
    )
    .unwrap();
    let path = f.to_str().unwrap();
    let (code, out, err) = run(&["import", "--from", "os10", path]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("os10-vlan5000.cfg:3: interface vlan5000 (VLAN 5000 is outside 1-4094)"),
        "{err}"
    );
    assert!(!out.contains("904"), "{out}");
    let (code, _, err) = run(&["import", "--from", "os10", "--strict", path]);
    assert_eq!(code, 2, "{err}");
    let f = tmp("nxos-vlan-ten.cfg");
    std::fs::write(&f, "hostname tor1\nvlan ten\n").unwrap();
    let (code, _, err) = run(&["import", "--from", "nxos", "--strict", f.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("nxos-vlan-ten.cfg:2: vlan ten (`ten` is not a VLAN id)"),
        "{err}"
    );
}

/// `diff` reads LLDP JSON too (found by its content): a comment ending in
/// `}` two lines above the JSON's first line panicked it the same way.
#[test]
fn diff_on_lldp_json_closing_before_opening_is_exit_2() {
    let f = tmp("backwards.lldp.json");
    std::fs::write(&f, "# }\n\n{\"lldpNeighbors\": {\n").unwrap();
    let design = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/drift/imported/design.toml");
    let (code, out, err) = run(&[
        "diff",
        design.to_str().unwrap(),
        f.to_str().unwrap(),
        "--format",
        "concise",
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        format!("{out}{err}").contains("backwards.lldp.json:3"),
        "{out}{err}"
    );
}
