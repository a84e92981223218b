//! `netlint import` of a cabling CSV as a spreadsheet exports it (issue 29
//! item 5): semicolons, a byte-order mark, CRLF, columns netlint does not
//! read, quoted fields. The summary notes the delimiter and the columns
//! passed over at the header's line, and the design written loads.

mod support;
use std::path::Path;
use support::run;

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("crates/netlint-import/tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn a_spreadsheet_export_is_imported_with_notes_at_the_header() {
    let dir = support::tmp("import-cabling", "excel");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("cabling.csv");
    // Excel's "CSV UTF-8" in a locale with a decimal comma: BOM, `;`, CRLF.
    std::fs::write(
        &csv,
        "\u{feff}Cable ID;Device;Port;Peer_Device;Peer_Port;Length\r\n\
         C1;tor1;Eth1/49;tor2;Eth1/49;1,5\r\n\
         C2;\"tor1\";\"Eth1/50\";tor2;Eth1/50;\"1,5\"\r\n",
    )
    .unwrap();
    let out = dir.join("design.toml");
    let (code, _, err) = run(&[
        "import",
        &fixture("nxos-tor1.cfg"),
        &fixture("nxos-tor2.cfg"),
        csv.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(
            "cabling.csv: cabling (3 lines): 2 understood, 1 ignored as irrelevant, 0 not understood"
        ),
        "{err}"
    );
    assert!(
        err.contains("cabling.csv:1: note: read as semicolon-separated"),
        "{err}"
    );
    assert!(
        err.contains("cabling.csv:1: note: the columns `Cable ID`, `Length` are not read"),
        "{err}"
    );
    let (code, _, err) = run(&["check", out.to_str().unwrap(), "--isolated"]);
    assert!(code == 0 || code == 1, "the imported design loads: {err}");
}
