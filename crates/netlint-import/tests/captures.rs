//! Issue 31 item 3: a file's kind told by the weight of its vendor
//! markers over the whole file, and the timestamps terminal loggers write
//! in front of lines taken off, each line keeping its number.

use std::path::Path;

use netlint_import::design::to_design;
use netlint_import::{parse, Document, Ignored, Kind, LineClass, Vendor};

fn fixture(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name),
    )
    .unwrap()
}

/// Microsoft's generated Azure Local ToR config: CRLF, `! Name: / Make: /
/// Model:` comments, a `#` banner holding `hostname` and `BuildVersion:`,
/// and twenty SVIs written `interface vlanN` in lower case (OS10's
/// spelling). Counted per line over the first lines, the SVIs outweighed
/// every NX-OS marker and the file was taken for OS10.
#[test]
fn a_generated_azure_local_nxos_config_is_detected_as_nxos() {
    let text = fixture("nxos-azlocal-tor1a.cfg");
    assert!(text.contains("\r\n"), "the fixture keeps its CRLF");
    let doc = parse("tor1a.cfg", &text, None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(doc.kind(), Kind::Config(Vendor::NxOs));
    let Document::Config(cfg) = doc else {
        unreachable!()
    };
    assert_eq!(cfg.hostname.unwrap().value, "azl-r07-93180yc-1a");
    // The banner's `hostname` is banner text, not the switch's name.
    assert_eq!(
        cfg.summary.class(24),
        Some(LineClass::Ignored(Ignored::Banner))
    );
}

/// Weak evidence and ties are still no dialect: the user names it.
#[test]
fn weak_or_tied_markers_name_no_dialect() {
    for text in [
        // One weak OS10 marker (`interface port-channel`), however often.
        "hostname x\ninterface port-channel1\ninterface port-channel2\ninterface port-channel3\ninterface port-channel4\n",
        // NX-OS `feature` (3) against IOS `service timestamps` (3).
        "hostname x\nfeature lldp\nservice timestamps log datetime\n",
    ] {
        let e = parse("x.cfg", text, None).unwrap_err();
        assert!(e.to_string().contains("--from"), "{e}");
    }
    // The same weak marker beside a strong one decides nothing against it.
    let d = parse(
        "x.cfg",
        "interface port-channel1\ninterface port-channel2\nvpc domain 1\n",
        None,
    )
    .unwrap();
    assert_eq!(d.kind(), Kind::Config(Vendor::NxOs));
}

/// A marker far down the file counts: the first 2000 lines were read.
#[test]
fn a_marker_after_the_first_two_thousand_lines_counts() {
    let mut text = String::from("hostname x\n");
    for i in 1..=2100 {
        text.push_str(&format!("vlan {i}\n"));
    }
    text.push_str("vpc domain 10\n");
    assert_eq!(
        parse("x.cfg", &text, None).unwrap().kind(),
        Kind::Config(Vendor::NxOs)
    );
}

/// The same config as a terminal logger captured it, every line stamped
/// `[2026-12-01 05:00:01] `: the same design, value for value at the same
/// lines, and the same lines understood and not understood.
#[test]
fn a_capture_stamped_throughout_imports_like_the_clean_config() {
    let clean = fixture("nxos-azlocal-tor1a.cfg");
    let stamped = fixture("nxos-azlocal-tor1a.timestamped.cfg");
    let read = |t: &str| parse("tor1a.cfg", t, None).unwrap_or_else(|e| panic!("{e}"));
    let (a, b) = (read(&clean), read(&stamped));
    assert_eq!(b.kind(), Kind::Config(Vendor::NxOs));
    let design = |d: &Document| to_design(std::slice::from_ref(d), "imported").toml;
    assert_eq!(design(&a), design(&b));
    let (sa, sb) = (a.summary(), b.summary());
    assert_eq!(sa.understood(), sb.understood());
    assert_eq!(sa.not_understood, sb.not_understood);
    // The prompt lines first and last are capture noise.
    assert_eq!(sb.class(1), Some(LineClass::Ignored(Ignored::Capture)));
    let last = sb.lines() as u32;
    assert_eq!(sb.class(last), Some(LineClass::Ignored(Ignored::Capture)));
    assert_eq!(sa.ignored() + 1, sb.ignored());
    // Said once, at the first line cut.
    assert_eq!(sb.notes.len(), 1, "{:?}", sb.notes);
    assert_eq!(sb.notes[0].line, 1);
    assert!(
        sb.notes[0].text.contains("`[2026-12-01 05:00:01]`"),
        "{:?}",
        sb.notes
    );
}

/// `[2020-01-30 16:11:46] N7K-1# show running-config` in an otherwise
/// clean file is a prompt: capture noise, not a command not understood.
#[test]
fn a_timestamped_prompt_line_is_capture_noise() {
    let text = "[2020-01-30 16:11:46] N7K-1# show running-config\n\n!Command: show running-config\nhostname N7K-1\nfeature lldp\n[2020-01-30 16:11:49] N7K-1#\n";
    let d = parse("n7k.cfg", text, None).unwrap();
    assert_eq!(d.kind(), Kind::Config(Vendor::NxOs));
    let s = d.summary();
    assert!(s.not_understood.is_empty(), "{:?}", s.not_understood);
    for line in [1, 6] {
        assert_eq!(
            s.class(line),
            Some(LineClass::Ignored(Ignored::Capture)),
            "line {line}"
        );
    }
    // Other forms loggers write.
    for prompt in [
        "2020-01-30 16:11:46 N7K-1# show running-config",
        "[16:11:46.123] N7K-1# show running-config",
        "[2020-01-30 16:11:46.123] N7K-1# show running-config",
        "[Thu Jan 30 16:11:46.123 2020] N7K-1# show running-config",
    ] {
        let text = format!("{prompt}\nhostname N7K-1\nfeature lldp\n");
        let s = parse("n7k.cfg", &text, None).unwrap().summary().clone();
        assert!(
            s.not_understood.is_empty(),
            "{prompt}: {:?}",
            s.not_understood
        );
        assert_eq!(
            s.class(1),
            Some(LineClass::Ignored(Ignored::Capture)),
            "{prompt}"
        );
    }
}

/// A stamped line that is not a prompt, in a file not stamped throughout,
/// keeps its stamp: it is no logger's line.
#[test]
fn a_stamp_on_a_few_lines_only_is_kept_off_prompts() {
    let text = "hostname x\nfeature lldp\n2020-01-30 16:11:46 frob\n";
    let s = parse("x.cfg", text, None).unwrap().summary().clone();
    assert_eq!(s.not_understood.len(), 1);
    assert_eq!(s.not_understood[0].text, "2020-01-30 16:11:46 frob");
}
