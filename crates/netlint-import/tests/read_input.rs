//! The one reader (`read_input`) and the one decoder (`decode`): any bytes,
//! any forced kind, no panic; any text survives the encodings Windows and
//! Unix tools write; every kind is told from its content.

use netlint_import::decode::decode;
use netlint_import::input::Input;
use netlint_import::{read_input, Kind};
use proptest::prelude::*;
use std::path::Path;

fn fixture(rel: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests")
            .join(rel),
    )
    .unwrap()
}

fn utf16(s: &str, le: bool, bom: bool) -> Vec<u8> {
    let mut v = match (bom, le) {
        (false, _) => Vec::new(),
        (true, true) => vec![0xFF, 0xFE],
        (true, false) => vec![0xFE, 0xFF],
    };
    for u in s.encode_utf16() {
        v.extend(if le { u.to_le_bytes() } else { u.to_be_bytes() });
    }
    v
}

#[test]
fn every_kind_is_told_from_its_content_in_any_encoding() {
    let cases: [(&str, Kind); 5] = [
        (
            "fixtures/nxos-tor1.cfg",
            Kind::Config(netlint_import::Vendor::NxOs),
        ),
        (
            "fixtures/eos-leaf1.lldp.json",
            Kind::Lldp(netlint_import::LldpFormat::EosJson),
        ),
        ("fixtures/cabling.csv", Kind::Cabling),
        ("host-fixtures/converged/hv01.json", Kind::Hyperv),
        ("vsphere/prod-cl01.vsphere.json", Kind::Vsphere),
    ];
    for (file, kind) in cases {
        let bytes = fixture(file);
        let text = String::from_utf8(bytes.clone()).unwrap();
        let mut bom8 = vec![0xEF, 0xBB, 0xBF];
        bom8.extend(&bytes);
        for (enc, b) in [
            ("utf-8", bytes.clone()),
            ("utf-8 bom", bom8),
            ("utf-16le bom", utf16(&text, true, true)),
            ("utf-16be bom", utf16(&text, false, true)),
            ("utf-16le", utf16(&text, true, false)),
        ] {
            let r = read_input(file, &b, None).unwrap_or_else(|e| panic!("{file} {enc}: {e:?}"));
            assert_eq!(r.input.kind(), kind, "{file} {enc}");
            assert_eq!(
                r.text.trim_start_matches('\u{feff}'),
                text.trim_start_matches('\u{feff}'),
                "{file} {enc}"
            );
            assert!(r.notes.is_empty(), "{file} {enc}: {:?}", r.notes);
        }
    }
    let z = netlint_import::host::zip::write(&[("Node_HV01/readme.txt", b"x", false)]);
    // A ZIP is read as an SDDC collection: one node, whose network files
    // are all missing (said by the Hyper-V mapping).
    let r = read_input("c.zip", &z, None).unwrap();
    assert_eq!(r.input.kind(), Kind::Sddc);
    let e = read_input("c.zip", &netlint_import::host::zip::write(&[]), None).unwrap_err();
    assert!(e[0].to_string().contains("no Node_<name> folder"), "{e:?}");
    let e = read_input("c.cfg", b"hostname x\n", Some(Kind::Sddc)).unwrap_err();
    assert!(e[0].to_string().contains("not a ZIP archive"), "{e:?}");
}

#[test]
fn a_host_collection_forced_as_a_switch_kind_is_said() {
    let r = read_input(
        "hv01.json",
        &fixture("host-fixtures/converged/hv01.json"),
        Some(Kind::Config(netlint_import::Vendor::Eos)),
    )
    .unwrap();
    assert!(matches!(r.input, Input::Switch(_)));
    assert!(
        r.notes[0].contains("looks like a hyperv collection"),
        "{:?}",
        r.notes
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_text_survives_every_encoding(s in "\\PC{0,200}") {
        for b in [utf16(&s, true, true), utf16(&s, false, true)] {
            prop_assert_eq!(decode(&b).0, s.clone());
        }
        let (t, note) = decode(s.as_bytes());
        // Text whose UTF-8 has NULs in a UTF-16 pattern is read as UTF-16;
        // everything else is itself.
        if !s.contains('\0') {
            prop_assert_eq!(t, s.clone());
            prop_assert!(note.is_none());
        }
    }

    #[test]
    fn any_bytes_with_any_forced_kind_never_panic(
        bytes in proptest::collection::vec(any::<u8>(), 0..600),
        k in 0usize..15,
    ) {
        let forced = Kind::KEYS.get(k).map(|(_, kind)| *kind);
        let _ = read_input("x", &bytes, forced);
        let _ = decode(&bytes);
    }

    #[test]
    fn mutated_inputs_never_panic(
        file in 0usize..4,
        cut in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        at in any::<prop::sample::Index>(),
        wide in any::<bool>(),
    ) {
        let files = [
            "fixtures/nxos-tor1.cfg",
            "fixtures/cabling.csv",
            "host-fixtures/converged/hv01.json",
            "vsphere/prod-cl01.vsphere.json",
        ];
        let mut b = fixture(files[file]);
        if wide {
            b = utf16(&String::from_utf8(b).unwrap(), true, true);
        }
        let i = at.index(b.len());
        b[i] = byte;
        b.truncate(cut.index(b.len() + 1));
        let _ = read_input(files[file], &b, None);
    }
}
