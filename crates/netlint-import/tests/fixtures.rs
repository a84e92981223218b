//! Every fixture in tests/fixtures: detected as the kind its name says,
//! and its facts snapshotted (Debug of the parsed document: each value
//! with `@L<line>` or `@default <source>`).

use std::path::Path;

use netlint_import::{parse, Kind, LldpFormat, Vendor};

fn expected_kind(name: &str) -> Kind {
    let vendor = match name.split('-').next().unwrap_or("") {
        "nxos" => Vendor::NxOs,
        "eos" => Vendor::Eos,
        "ios" => Vendor::Ios,
        "os10" => Vendor::Os10,
        _ => return Kind::Cabling,
    };
    if name.ends_with(".lldp.json") {
        Kind::Lldp(match vendor {
            Vendor::NxOs => LldpFormat::NxOsJson,
            _ => LldpFormat::EosJson,
        })
    } else if name.ends_with(".lldp.txt") {
        Kind::Lldp(match vendor {
            Vendor::NxOs => LldpFormat::NxOsText,
            Vendor::Eos => LldpFormat::EosText,
            Vendor::Ios => LldpFormat::IosText,
            Vendor::Os10 => LldpFormat::Os10Text,
        })
    } else {
        Kind::Config(vendor)
    }
}

#[test]
fn fixtures_are_detected_and_their_facts_snapshotted() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    assert!(names.len() >= 14, "{names:?}");
    for name in names {
        let text = std::fs::read_to_string(dir.join(&name)).unwrap();
        let doc = parse(&name, &text, None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(doc.kind(), expected_kind(&name), "{name}");
        insta::assert_debug_snapshot!(name.clone(), doc);
    }
}
