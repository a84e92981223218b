//! The one reader of inputs (issue 30 items 2 and 3, issue 37 items 3, 4
//! and 7, issue 29 item 10): `import`, `check` and `diff` read every kind
//! of input the same way (text decoded once, UTF-16 included), find and
//! read files as `check` does (no FIFO waited on, no device read to the
//! end of memory, no directory loop followed), refuse ZIP bombs and an
//! output inside an input folder, and `import` never writes a design its
//! own loader refuses. Each run is the real binary with a deadline, so a
//! hang fails the test instead of stalling the suite.

use std::path::Path;
mod support;
use support::{netlint_in, TempDir};

fn fixture(rel: &str) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("crates/netlint-import/tests")
        .join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

/// UTF-16 LE with a byte-order mark and CRLF line ends: what Windows
/// PowerShell 5.1's `>` writes.
fn powershell_utf16(text: &[u8]) -> Vec<u8> {
    let text = String::from_utf8(text.to_vec()).unwrap();
    let crlf = text.replace("\r\n", "\n").replace('\n', "\r\n");
    let mut out = vec![0xFF, 0xFE];
    out.extend(crlf.encode_utf16().flat_map(u16::to_le_bytes));
    out
}

#[test]
fn a_utf16_running_config_and_csv_import_to_the_design_of_their_utf8_originals() {
    let utf8 = TempDir::new("reader", "utf8");
    let utf16 = TempDir::new("reader", "utf16");
    let files = [
        "fixtures/nxos-tor1.cfg",
        "fixtures/eos-leaf1.cfg",
        "fixtures/cabling.csv",
    ];
    for f in files {
        let name = Path::new(f).file_name().unwrap().to_str().unwrap();
        let bytes = fixture(f);
        utf8.write(name, &bytes);
        utf16.write(name, powershell_utf16(&bytes));
    }
    let args = ["import", "nxos-tor1.cfg", "eos-leaf1.cfg", "cabling.csv"];
    let (code8, design8, err8) = utf8.run(&args);
    assert_eq!(code8, 0, "{err8}");
    let (code16, design16, err16) = utf16.run(&args);
    assert_eq!(code16, 0, "{err16}");
    assert_eq!(design16, design8);
    assert!(err16.contains("nxos-tor1.cfg: nxos ("), "{err16}");
    assert!(err16.contains("cabling.csv: cabling ("), "{err16}");
    // Forced, every line is still read (not "not understood").
    let (code, forced, err) = utf16.run(&["import", "--from", "nxos", "nxos-tor1.cfg"]);
    let (_, forced8, _) = utf8.run(&["import", "--from", "nxos", "nxos-tor1.cfg"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(forced, forced8);
}

#[test]
fn a_latin1_config_is_read_with_a_note() {
    let t = TempDir::new("reader", "latin1");
    t.write(
        "tor1.cfg",
        b"hostname tor1\nfeature lldp\nvlan 10\n  name caf\xe9\n",
    );
    let (code, design, err) = t.run(&["import", "tor1.cfg"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("note: tor1.cfg: not UTF-8"), "{err}");
    assert!(err.contains("Latin-1"), "{err}");
    assert!(design.contains("café"), "{design}");
}

#[test]
fn check_and_diff_read_hyperv_vsphere_and_sddc_collections() {
    let t = TempDir::new("reader", "kinds");
    t.write("hv01.json", fixture("host-fixtures/converged/hv01.json"));
    t.write(
        "prod-cl01.vsphere.json",
        fixture("vsphere/prod-cl01.vsphere.json"),
    );
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("crates/netlint-import/tests/sddc/s2d-roce-nopfc"),
        &t.path().join("s2d"),
    );
    for (input, said) in [
        ("hv01.json", "hyperv collection of host"),
        (
            "prod-cl01.vsphere.json",
            "vsphere collection of cluster prod-cl01",
        ),
        ("s2d", "sddc node HV01"),
    ] {
        let (code, _, err) = t.run(&["check", input]);
        assert_ne!(code, 2, "check {input}: {err}");
        assert!(err.contains(said), "check {input}: {err}");
        let (code, out, err) = t.run(&["import", input, "-o", "design.toml"]);
        assert_eq!(code, 0, "import {input}: {err}{out}");
        let (code, out, err) = t.run(&["diff", "design.toml", input]);
        assert_ne!(code, 2, "diff {input}: {err}{out}");
        assert!(err.contains(said), "diff {input}: {err}");
        // The roles imported from the input are the input's own roles.
        assert!(!out.contains("drift-role"), "diff {input}: {out}");
        std::fs::remove_file(t.path().join("design.toml")).unwrap();
    }
    // --from on check and diff, host kinds included.
    let (code, _, err) = t.run(&["check", "--from", "vsphere", "prod-cl01.vsphere.json"]);
    assert_ne!(code, 2, "{err}");
    let (_, _, err) = t.run(&["check", "--from", "eos", "hv01.json"]);
    assert!(
        err.contains("note: hv01.json: read as eos (--from eos), but its content looks like a hyperv collection (--from hyperv)"),
        "{err}"
    );
}

#[test]
fn from_a_vendor_on_another_vendors_config_says_so() {
    let t = TempDir::new("reader", "from");
    t.write("tor1.cfg", fixture("fixtures/nxos-tor1.cfg"));
    let (code, _, err) = t.run(&["import", "--from", "eos", "tor1.cfg"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("note: tor1.cfg: read as eos (--from eos), but its content looks like a nxos running-config (--from nxos)"),
        "{err}"
    );
    let (_, _, err) = t.run(&["import", "--from", "nxos", "tor1.cfg"]);
    assert!(!err.contains("looks like"), "{err}");
}

#[test]
fn import_help_names_every_input_kind() {
    let (code, out, _) = netlint_in(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &["import", "--help"],
        b"",
    );
    assert_eq!(code, 0);
    let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
    for kind in [
        "running-configs",
        "LLDP",
        "cabling CSVs",
        "Hyper-V",
        "vSphere",
        "Get-SDDCDiagnosticInfo",
        "ZIP archive",
        "hyperv, vsphere, sddc",
        "hyperv-text",
        "Format-List",
        "--max-file-size",
    ] {
        assert!(flat.contains(kind), "{kind}: {out}");
    }
}

#[test]
fn a_zip_bomb_is_refused_with_the_limit_named() {
    use netlint_import::host::zip::{crc32, write_raw, RawEntry};
    let t = TempDir::new("reader", "bomb");
    // 17 network files of 1 MiB of zeros (about 1 KiB deflated each): 17
    // MiB from 17 KiB, past 16 MiB at 1,000 to 1 (the unit tests of
    // host::zip take the 256 MiB cap too).
    let zeros = vec![0u8; 1 << 20];
    let data = netlint_import::host::zip::deflate(&zeros);
    let crc = crc32(&zeros);
    let names: Vec<String> = (0..17)
        .map(|i| format!("Node_HV{i}/GetNetAdapter.xml"))
        .collect();
    let raw: Vec<RawEntry<'_>> = names
        .iter()
        .map(|name| RawEntry {
            name,
            data: data.clone(),
            deflated: true,
            crc,
            size: zeros.len() as u32,
        })
        .collect();
    let zip = write_raw(&raw);
    assert!(zip.len() < 1 << 20, "{}", zip.len());
    t.write("HealthTest-c1.ZIP", &zip);
    let (code, out, err) = t.run(&["import", "HealthTest-c1.ZIP"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("ZIP archive refused"), "{err}");
    assert!(err.contains("unpack it and import the folder"), "{err}");
}

#[test]
fn an_output_inside_an_input_folder_is_refused() {
    let t = TempDir::new("reader", "inside");
    let cfg = fixture("fixtures/nxos-tor1.cfg");
    t.write("configs/tor1.cfg", &cfg);
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("crates/netlint-import/tests/sddc/s2d-roce-nopfc"),
        &t.path().join("s2d"),
    );
    for (input, out) in [
        ("configs", "configs/tor1.cfg"),
        ("configs", "configs/design.toml"),
        ("configs", "configs/sub/design.toml"),
        ("s2d", "s2d/Node_HV01/GetNetAdapter.xml"),
    ] {
        let before = std::fs::read(t.path().join(out)).ok();
        let (code, _, err) = t.run(&["import", input, "-o", out]);
        assert_eq!(code, 2, "import {input} -o {out}: {err}");
        assert!(
            err.contains("a folder this run reads") || err.contains("a file this run reads"),
            "{err}"
        );
        assert_eq!(std::fs::read(t.path().join(out)).ok(), before, "{out}");
    }
    let (code, _, err) = t.run(&["import", "configs", "-o", "design.toml"]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn import_never_writes_a_design_its_loader_refuses() {
    // Two vSphere collections whose clusters share a name, and a VLAN name
    // with control characters: issue 30 names both as writing a design
    // `check` then refuses. Either the writer handles them (the design
    // loads) or the backstop refuses (exit 2, nothing written).
    let t = TempDir::new("reader", "backstop");
    let v = fixture("vsphere/prod-cl01.vsphere.json");
    t.write("a.vsphere.json", &v);
    t.write("b.vsphere.json", &v);
    t.write(
        "tor1.cfg",
        b"hostname tor1\nfeature lldp\nvlan 10\n  name st\x1b[31mor\x07age\n",
    );
    for inputs in [&["a.vsphere.json", "b.vsphere.json"][..], &["tor1.cfg"][..]] {
        let _ = std::fs::remove_file(t.path().join("out.toml"));
        let mut args = vec!["import"];
        args.extend_from_slice(inputs);
        args.extend(["-o", "out.toml"]);
        let (code, _, err) = t.run(&args);
        let written = t.path().join("out.toml");
        if code == 0 {
            let (code, out, err) = t.run(&["check", "out.toml", "--format", "json"]);
            assert_ne!(code, 2, "{inputs:?}: written but does not load: {out}{err}");
        } else {
            assert_eq!(code, 2, "{inputs:?}: {err}");
            assert!(err.contains("does not load"), "{err}");
            assert!(!written.exists(), "{inputs:?}: written");
        }
    }
}

#[cfg(unix)]
mod unix {
    use super::*;
    use std::os::unix::fs::symlink;

    fn mkfifo(p: &Path) {
        let ok = std::process::Command::new("mkfifo")
            .arg(p)
            .status()
            .unwrap()
            .success();
        assert!(ok, "mkfifo {}", p.display());
    }

    #[test]
    fn a_fifo_named_or_in_a_folder_is_not_waited_on() {
        let t = TempDir::new("reader", "fifo");
        t.write("d/tor1.cfg", fixture("fixtures/nxos-tor1.cfg"));
        mkfifo(&t.path().join("d/pipe.cfg"));
        mkfifo(&t.path().join("named.cfg"));
        let (code, _, err) = t.run(&["import", "named.cfg"]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("cannot read named.cfg: a FIFO"), "{err}");
        let (code, out, err) = t.run(&["import", "d"]);
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("skipped d/pipe.cfg: a FIFO"), "{err}");
        assert!(out.contains("[switches.tor1]"), "{out}");
        for cmd in [
            &["check", "named.cfg"][..],
            &["diff", "x.toml", "named.cfg"][..],
        ] {
            t.write("x.toml", b"[design]\nname = \"x\"\n");
            let (code, _, err) = t.run(cmd);
            assert_eq!(code, 2, "{cmd:?}: {err}");
        }
    }

    #[test]
    fn an_sddc_folder_whose_cluster_file_is_a_fifo_is_not_waited_on() {
        let t = TempDir::new("reader", "sddc-fifo");
        copy_dir(
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("crates/netlint-import/tests/sddc/s2d-roce-nopfc"),
            &t.path().join("s2d"),
        );
        let _ = std::fs::remove_file(t.path().join("s2d/GetClusterNetwork.XML"));
        mkfifo(&t.path().join("s2d/GetClusterNetwork.XML"));
        mkfifo(&t.path().join("s2d/Node_HV01/GetNetAdapter.xml.fifo"));
        let (code, _, err) = t.run(&["import", "s2d"]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("GetClusterNetwork.XML"), "{err}");
        assert!(
            err.contains("a FIFO (named pipe), not a regular file"),
            "{err}"
        );
    }

    #[test]
    fn dev_zero_and_sizes_are_read_under_the_limit() {
        let t = TempDir::new("reader", "zero");
        symlink("/dev/zero", t.path().join("zero.cfg")).unwrap();
        std::fs::create_dir_all(t.path().join("d")).unwrap();
        symlink("/dev/zero", t.path().join("d/zero.cfg")).unwrap();
        t.write("d/tor1.cfg", fixture("fixtures/nxos-tor1.cfg"));
        let (code, _, err) = t.run(&["import", "zero.cfg"]);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains("a character device, not a regular file"),
            "{err}"
        );
        let (code, _, err) = t.run(&["import", "d"]);
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("skipped d/zero.cfg"), "{err}");
        let (code, _, err) = t.run(&["import", "--max-file-size", "100", "d/tor1.cfg"]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("larger than 100 bytes"), "{err}");
        t.write("x.toml", b"[design]\nname = \"x\"\n");
        let (code, _, err) = t.run(&["diff", "--max-file-size", "100", "x.toml", "d/tor1.cfg"]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("larger than 100 bytes"), "{err}");
    }

    #[test]
    fn a_link_to_its_own_folder_is_walked_once() {
        let t = TempDir::new("reader", "self");
        t.write("d/tor1.cfg", fixture("fixtures/nxos-tor1.cfg"));
        symlink(".", t.path().join("d/self")).unwrap();
        symlink("..", t.path().join("d/up")).unwrap();
        let (code, _, err) = t.run(&["import", "d"]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(err.matches(": nxos (").count(), 1, "{err}");
        assert!(!err.contains("already imported"), "{err}");
    }
}

#[test]
fn stdout_and_stderr_of_a_failed_run_hold_no_design() {
    // Nothing half-written: an unreadable input among readable ones stops
    // the import before anything is written.
    let t = TempDir::new("reader", "partial");
    t.write("tor1.cfg", fixture("fixtures/nxos-tor1.cfg"));
    let (code, out, err) = t.run(&["import", "tor1.cfg", "missing.cfg", "-o", "o.toml"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert!(!t.path().join("o.toml").exists());
}

/// PowerShell formatted text is refused with what to do instead (issue 32
/// item 6a, the refusal): exit 2, the view named, `netlint collect`.
#[test]
fn powershell_formatted_text_is_refused_with_netlint_collect_named() {
    let t = TempDir::new("reader", "pstext");
    // Get-NetAdapter's default view, and `| Format-List` of it with no
    // cmdlet named (no command line, a file name of no cmdlet), as saved by
    // Windows PowerShell 5.1 (`>`: UTF-16LE with a BOM, CRLF).
    t.write(
        "nics.txt",
        powershell_utf16(b"Name   InterfaceDescription      ifIndex Status LinkSpeed\r\n----   --------------------      ------- ------ ---------\r\nSMB1   Mellanox ConnectX-4 Lx          5 Up     25 Gbps\r\n"),
    );
    let list = b"\r\nName                 : SMB1\r\nInterfaceDescription : Mellanox ConnectX-4 Lx\r\nifIndex              : 5\r\nStatus               : Up\r\nLinkSpeed            : 25 Gbps\r\n";
    t.write("nics-fl.txt", list);
    for (file, view, what) in [
        ("nics.txt", "PowerShell Format-Table", "`| Format-List *`"),
        (
            "nics-fl.txt",
            "PowerShell Format-List text that names no cmdlet",
            "`Get-NetAdapter.txt`",
        ),
    ] {
        for cmd in ["import", "check"] {
            // `import` says it on standard error, `check` as a finding.
            let (code, out, err) = t.run(&[cmd, file]);
            let said = format!("{out}{err}").replace("\n  │ ", " ");
            // The renderer may wrap after a hyphen (`Format- List`).
            let flat = |s: &str| s.replace([' ', '\n', '│'], "");
            assert_eq!(code, 2, "{cmd} {file}: {said}");
            assert!(flat(&said).contains(&flat(view)), "{cmd} {file}: {said}");
            assert!(flat(&said).contains(&flat(what)), "{cmd} {file}: {said}");
            assert!(
                said.contains("`netlint collect hyperv`"),
                "{cmd} {file}: {said}"
            );
        }
    }
    // The same Format-List text named by its cmdlet is read.
    t.write("HV05/Get-NetAdapter.txt", powershell_utf16(list));
    let (code, out, err) = t.run(&["import", "HV05/Get-NetAdapter.txt"]);
    assert_eq!(code, 0, "{err}{out}");
    assert!(err.contains("hyperv collection of host HV05"), "{err}");
}

#[test]
fn import_check_and_diff_read_format_list_text() {
    let t = TempDir::new("reader", "fltext");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("crates/netlint-import/tests/host-fixtures/format-list/hv01"),
        &t.path().join("hv01"),
    );
    t.write("hv01.txt", fixture("host-fixtures/format-list/hv01.txt"));
    for input in ["hv01", "hv01.txt"] {
        let (code, _, err) = t.run(&["check", input]);
        assert_ne!(code, 2, "check {input}: {err}");
        assert!(
            err.contains("hyperv collection of host HV01"),
            "check {input}: {err}"
        );
        let (code, out, err) = t.run(&["import", input, "-o", "design.toml"]);
        assert_eq!(code, 0, "import {input}: {err}{out}");
        assert!(err.contains("2 physical NICs"), "import {input}: {err}");
        let (code, out, err) = t.run(&["diff", "design.toml", input]);
        assert_ne!(code, 2, "diff {input}: {err}{out}");
        assert!(
            err.contains("hyperv collection of host HV01"),
            "diff {input}: {err}"
        );
        std::fs::remove_file(t.path().join("design.toml")).unwrap();
    }
    let (code, _, err) = t.run(&["check", "--from", "hyperv-text", "hv01.txt"]);
    assert_ne!(code, 2, "{err}");
}
