//! `netlint import`: configs, LLDP tables and cabling into a design file
//! that `netlint check` accepts, with the summary per file, the notes, the
//! exit codes of bad input and `--strict`, and the atomic write.

mod support;
use std::path::{Path, PathBuf};
use support::run;

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("crates/netlint-import/tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

fn tmp(name: &str) -> PathBuf {
    support::tmp("import", name)
}

#[test]
fn imports_a_vpc_pair_that_check_and_topology_accept() {
    let out_file = tmp("nxos.toml");
    let _ = std::fs::remove_file(&out_file);
    let (code, out, err) = run(&[
        "import",
        &fixture("nxos-tor1.cfg"),
        &fixture("nxos-tor2.cfg"),
        &fixture("nxos-tor1.lldp.txt"),
        &fixture("cabling.csv"),
        "-o",
        out_file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.is_empty(), "the design goes to the file: {out}");
    // Per file: kind and line counts; not-understood lines at their line.
    assert!(
        err.contains("nxos-tor1.cfg: nxos (161 lines): 91 understood"),
        "{err}"
    );
    assert!(
        err.contains("nxos-tor1.cfg:147: fex 101 (command not understood)"),
        "{err}"
    );
    assert!(
        err.contains("cabling.csv:8: tor1,Eth1/47,border1 (3 fields, not 4"),
        "{err}"
    );
    assert!(
        err.contains("note: ") && err.contains("hv1 NIC1, which is not an imported switch"),
        "{err}"
    );
    assert!(!err.contains("per-VLAN bridge priority waits"), "{err}");
    let toml = std::fs::read_to_string(&out_file).unwrap();
    // Format v2's spanning-tree facts are written, each with its source:
    // each `spanning-tree vlan ... priority` line sets its own VLANs, the
    // switch's priority stays the vendor default (issue 31 item 5); tor1
    // turns spanning tree off in VLAN 999, both set `spanning-tree
    // pathcost method long`.
    for (text, source) in [
        (
            "vlan_priority = { \"1,10,20,30\" = 8192 }",
            "nxos-tor1.cfg:40",
        ),
        ("vlan_priority = { \"1,10,20\" = 8192 }", "nxos-tor2.cfg:18"),
        ("priority = 32768", "802.1D-2004"),
        ("disabled_vlans = [999]", "nxos-tor1.cfg:41"),
        ("path_cost = \"long\"", "nxos-tor1.cfg:38"),
        ("path_cost = \"long\"", "nxos-tor2.cfg:16"),
    ] {
        assert!(
            toml.lines()
                .any(|l| l.starts_with(text) && l.contains(source)),
            "{text} ({source}):\n{toml}"
        );
    }
    assert!(!toml.contains("priority = 8192"), "{toml}");
    // Both peers' `peer-switch` is written (`peer_switch = true`), and
    // the fixture's pair then shows what NX-OS would refuse too: tor1 runs
    // VLAN 30 at 8192 (`spanning-tree vlan 1,10,20,30 priority 8192`),
    // tor2 defines VLAN 30 and leaves it at 32768, and peer-switch wants
    // one priority on both peers. That one warning is all `check` says.
    assert!(
        toml.lines()
            .any(|l| l.starts_with("peer_switch = true ") && l.ends_with("nxos-tor1.cfg:63")),
        "{toml}"
    );
    let out_str = out_file.to_str().unwrap();
    let (code, out, err) = run(&["check", out_str, "--format", "concise"]);
    let findings: Vec<&str> = out.lines().filter(|l| l.contains("[")).collect();
    assert_eq!(findings.len(), 1, "{out}{err}");
    assert!(
        findings[0].contains("warning[vpc-peer-switch-priority]")
            && findings[0]
                .contains("in VLAN 30: `tor2` runs priority 32768 and `tor1` runs priority 8192"),
        "{out}"
    );
    assert_eq!(code, 1, "{out}{err}");
    // The two vPC peers are one bridge; the peer-link is internal to it.
    let (code, out, err) = run(&["topology", out_str]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("vpc-10 (MLAG domain of tor1 + tor2, rapid-pvst)"),
        "{out}"
    );
}

#[test]
fn writes_to_standard_output_and_takes_a_name() {
    let (code, out, err) = run(&["import", &fixture("ios-access1.cfg"), "--name", "campus"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("[design]\nname = \"campus\""), "{out}");
    assert!(
        out.contains("[switches.access1.stp]\nmode = \"rapid-pvst\""),
        "{out}"
    );
}

#[test]
fn bad_files_are_reported_all_at_once_with_exit_2_and_nothing_written() {
    let bad = tmp("mystery.txt");
    std::fs::write(&bad, "\nhello world\nthis is no config\n").unwrap();
    let out_file = tmp("never.toml");
    let _ = std::fs::remove_file(&out_file);
    let (code, _, err) = run(&[
        "import",
        bad.to_str().unwrap(),
        "/nonexistent/tor9.cfg",
        &fixture("eos-leaf1.cfg"),
        "-o",
        out_file.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("mystery.txt:2: not a running-config"), "{err}");
    assert!(err.contains("--from"), "{err}");
    assert!(
        err.contains("cannot read /nonexistent/tor9.cfg: no such file or directory"),
        "{err}"
    );
    // The good file is still reported.
    assert!(err.contains("eos-leaf1.cfg: eos"), "{err}");
    assert!(!out_file.exists());
}

#[test]
fn from_forces_the_kind_and_strict_fails_on_lines_not_understood() {
    let f = tmp("plain.cfg");
    std::fs::write(
        &f,
        "hostname sw1\ninterface Ethernet1\n   switchport mode trunk\n   frobnicate\n",
    )
    .unwrap();
    let (code, _, err) = run(&["import", f.to_str().unwrap()]);
    assert_eq!(code, 2, "no marker tells the dialect: {err}");
    let (code, out, err) = run(&["import", "--from", "eos", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("[switches.sw1]"), "{out}");
    assert!(
        err.contains("plain.cfg:4: frobnicate (command not understood)"),
        "{err}"
    );
    let (code, out, err) = run(&["import", "--from", "eos", "--strict", f.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(
        err.contains("--strict: 1 line(s) not understood; nothing written"),
        "{err}"
    );
    let (code, _, err) = run(&["import", "--from", "junos", f.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("junos"), "{err}");
}

#[test]
fn refuses_to_write_over_an_input() {
    let f = tmp("self.cfg");
    std::fs::write(&f, "!Command: show running-config\nhostname sw1\n").unwrap();
    let (code, _, err) = run(&["import", f.to_str().unwrap(), "-o", f.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("a file this run reads"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&f).unwrap(),
        "!Command: show running-config\nhostname sw1\n"
    );
}

/// Issue 31 item 10: `--list-ignored` lists every line ignored (blank
/// lines left out) with its reason, after the summary; without it they
/// are counted only. The STIG lines of Microsoft's generated Azure Local
/// ToR config are among them, none is not understood.
#[test]
fn list_ignored_lists_each_ignored_line_with_its_reason() {
    let f = fixture("nxos-azlocal-tor1a.cfg");
    let (code, _, err) = run(&["import", &f]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains(", 0 not understood"), "{err}");
    assert!(!err.contains("(ignored: "), "{err}");
    let (code, out, err) = run(&["import", "--list-ignored", &f]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("[switches.azl-r07-93180yc-1a]"), "{out}");
    for line in [
        "nxos-azlocal-tor1a.cfg:17: ! Make: Cisco (ignored: comment)",
        "nxos-azlocal-tor1a.cfg:25: BuildVersion: 2.2411.07 (ignored: banner text)",
        "nxos-azlocal-tor1a.cfg:44: fips mode enable (ignored: crypto)",
        "nxos-azlocal-tor1a.cfg:45: user max-logins 1 (ignored: aaa)",
        "nxos-azlocal-tor1a.cfg:482: icam monitor scale (ignored: monitoring)",
        "nxos-azlocal-tor1a.cfg:484: cli alias name wr copy running-config startup-config (ignored: cli)",
        "nxos-azlocal-tor1a.cfg:490: switching-mode store-forward (ignored: platform)",
    ] {
        assert!(err.contains(line), "{line}\n{err}");
    }
    // One listed line per ignored line but the blank ones.
    let listed = err.lines().filter(|l| l.contains(" (ignored: ")).count();
    let text = std::fs::read_to_string(&f).unwrap();
    let blank = text.lines().filter(|l| l.trim().is_empty()).count();
    let ignored: usize = err
        .lines()
        .find_map(|l| {
            let (_, rest) = l.split_once(" understood, ")?;
            rest.split_once(" ignored")?.0.parse().ok()
        })
        .unwrap();
    assert_eq!(listed + blank, ignored, "{err}");
}

/// Issue 31 item 9, through the CLI: an EOS `show lldp neighbors` summary
/// table is detected without `--from`, every row is a neighbour, and the
/// second neighbour on one port is said, not dropped.
#[test]
fn an_lldp_summary_table_is_detected_and_no_row_is_dropped_without_a_word() {
    let f = "crates/netlint-import/tests";
    let cfg = format!("{f}/fixtures/eos-leaf1.cfg");
    let table = format!("{f}/lldp-fixtures/eos-leaf1-summary.lldp.txt");
    let (code, _, err) = run(&["import", &cfg, &table]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("eos-leaf1-summary.lldp.txt: lldp-eos (16 lines): 6 understood, 10 ignored as irrelevant, 0 not understood"),
        "{err}"
    );
    assert!(
        err.contains("Ethernet1 has 2 neighbours: node1 (line 11), vm-sql01 (line 12)"),
        "{err}"
    );
    assert!(err.contains("cabled to vm-sql01"), "{err}");
}

/// Rapid PVST+ with spanning tree off in VLAN 1 and every VLAN the switch
/// defines runs no spanning tree: read as `mode = "none"` from both lines
/// (NX-OS and IOS have no global off; Cisco Nexus 9000 Layer 2 Switching
/// Configuration Guide, "Configuring Rapid PVST+": `no spanning-tree vlan
/// range`). One VLAN left on keeps rapid PVST+ and `disabled_vlans`.
#[test]
fn spanning_tree_off_in_every_vlan_is_mode_none() {
    let dir = support::tmp("import", "stp-off-everywhere");
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = |off: &str| {
        format!(
            "hostname lab\nfeature lacp\nvlan 10\n  name mgmt\nvlan 20\n  name lm\nspanning-tree mode rapid-pvst\nno spanning-tree vlan {off}\ninterface Ethernet1/1\n  switchport\n  switchport mode trunk\n  no shutdown\n"
        )
    };
    let all = dir.join("all.cfg");
    std::fs::write(&all, cfg("1,10,20")).unwrap();
    let (code, out, err) = run(&["import", all.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.lines().any(|l| l.starts_with("mode = \"none\"")
            && l.contains("all.cfg:7")
            && l.contains("all.cfg:8")),
        "{out}"
    );
    assert!(!out.contains("disabled_vlans"), "{out}");
    let some = dir.join("some.cfg");
    std::fs::write(&some, cfg("1,10")).unwrap();
    let (code, out, err) = run(&["import", some.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("mode = \"rapid-pvst\""), "{out}");
    assert!(out.contains("disabled_vlans = [10]"), "{out}");
}

/// OS10 names an MST region it is not told the name of by the switch's
/// system MAC address (Dell SmartFabric OS10 User Guide 10.5, MST `name`):
/// two such switches are two regions. The region is written named after
/// the switch, with that default as its source; a named region is read as
/// written.
#[test]
fn an_os10_mst_region_without_a_name_is_the_switchs_own() {
    let dir = support::tmp("import", "os10-mst-name");
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = |host: &str, name: &str| {
        format!(
            "! Version 10.5.4.0\nhostname {host}\nspanning-tree mode mst\nspanning-tree mst configuration\n{name} revision 1\n instance 1 vlan 10\n!\ninterface vlan10\n no shutdown\n!\ninterface ethernet1/1/1\n switchport mode trunk\n switchport trunk allowed vlan 10\n no shutdown\n"
        )
    };
    let a = dir.join("a.cfg");
    std::fs::write(&a, cfg("os10-a", "")).unwrap();
    let (code, out, err) = run(&["import", a.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("region = \"os10-a (system MAC)\"")
                && l.contains("default: Dell SmartFabric OS10 User Guide 10.5, MST `name`")),
        "{out}"
    );
    let b = dir.join("b.cfg");
    std::fs::write(&b, cfg("os10-b", " name dc1\n")).unwrap();
    let (code, out, err) = run(&["import", b.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.lines().any(|l| l.starts_with("region = \"dc1\"")),
        "{out}"
    );
}
