//! Mutated captures never panic: every outcome is a document whose
//! not-understood lines lie inside the file, or an error at a line of it.

use std::path::Path;

use netlint_import::{parse, parse_bytes, Document, Kind};
use proptest::prelude::*;

fn fixtures() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            (
                p.file_name().unwrap().to_string_lossy().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

#[derive(Clone, Debug)]
enum Mutation {
    DropLine(usize),
    DupLine(usize),
    SwapLines(usize, usize),
    Byte(usize, u8),
    Truncate(usize),
    Crlf,
    LoneCr,
    Splice(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::DropLine),
        any::<usize>().prop_map(Mutation::DupLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(a, b)| Mutation::Byte(a, b)),
        any::<usize>().prop_map(Mutation::Truncate),
        Just(Mutation::Crlf),
        Just(Mutation::LoneCr),
        any::<usize>().prop_map(Mutation::Splice),
    ]
}

fn apply(text: &str, muts: &[Mutation]) -> Vec<u8> {
    let mut lines: Vec<Vec<u8>> = text.split('\n').map(|l| l.as_bytes().to_vec()).collect();
    let mut joiner: &[u8] = b"\n";
    for m in muts {
        let n = lines.len().max(1);
        match m {
            Mutation::DropLine(i) if !lines.is_empty() => {
                lines.remove(i % n);
            }
            Mutation::DupLine(i) if !lines.is_empty() => {
                let l = lines[i % n].clone();
                lines.insert(i % n, l);
            }
            Mutation::SwapLines(a, b) if !lines.is_empty() => lines.swap(a % n, b % n),
            Mutation::Byte(i, b) if !lines.is_empty() => {
                let l = &mut lines[i % n];
                let at = if l.is_empty() { 0 } else { i % l.len() };
                l.insert(at, *b);
            }
            Mutation::Truncate(i) if !lines.is_empty() => {
                let l = &mut lines[i % n];
                let at = if l.is_empty() { 0 } else { i % l.len() };
                l.truncate(at);
            }
            Mutation::Crlf => joiner = b"\r\n",
            Mutation::LoneCr => joiner = b"\r",
            Mutation::Splice(i) if !lines.is_empty() => {
                lines[i % n].extend_from_slice(
                    b" 2026 Dec  1 05:00:02 sw %ETHPORT-5-IF_UP: Interface Ethernet1/1 is up",
                );
            }
            _ => {}
        }
    }
    lines.join(joiner)
}

fn check(name: &str, bytes: &[u8], forced: Option<Kind>) {
    let lines = String::from_utf8_lossy(bytes)
        .replace("\r\n", "\n")
        .replace('\r', "\n")
        .split('\n')
        .count()
        .max(1) as u32;
    match parse_bytes(name, bytes, forced) {
        Ok(doc) => {
            let s = doc.summary();
            assert!(s.lines() as u32 <= lines);
            for n in &s.not_understood {
                assert!(
                    n.line >= 1 && n.line <= lines,
                    "{name}: {n:?} outside 1..={lines}"
                );
            }
            if let Document::Lldp(t) = &doc {
                for nb in &t.neighbors {
                    assert!(nb.line >= 1 && nb.line <= lines);
                }
            }
        }
        Err(e) => {
            assert!(
                e.line >= 1 && e.line <= lines,
                "{name}: {e} outside 1..={lines}"
            );
            assert_eq!(e.file, name);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn mutated_fixtures_never_panic(pick in any::<usize>(), muts in prop::collection::vec(mutation(), 1..8)) {
        let all = fixtures();
        let (name, text) = &all[pick % all.len()];
        let bytes = apply(text, &muts);
        check(name, &bytes, None);
        // Forced to every kind, too: a wrong --from must not panic.
        for (_, kind) in Kind::KEYS {
            check(name, &bytes, Some(kind));
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        check("any", &bytes, None);
        check("any", &bytes, Some(Kind::Config(netlint_import::Vendor::NxOs)));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn config_shaped_noise_never_panics(words in prop::collection::vec("(interface|vlan|no|spanning-tree|switchport|trunk|allowed|add|mst|instance|banner|motd|\\^C|#|%|mtu|channel-group|mode|vpc|mlag|[0-9,-]{1,6}|Eth[0-9/]{1,5}| |\n|\t|\r|  ){1,12}", 1..16)) {
        let text = words.join("\n");
        for (_, kind) in Kind::KEYS {
            check("noise", text.as_bytes(), Some(kind));
        }
        let _ = parse("noise", &text, None);
    }
}
