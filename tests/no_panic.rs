//! Property tests: whatever the input, loading and checking never panics,
//! and every diagnostic points inside the file.

use netlint::run::{check_source, CheckSettings};
use netlint_model::SourceFile;
use proptest::prelude::*;
use std::path::Path;

fn seeds() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "toml") {
                out.push(std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    out.sort();
    out
}

fn check_text(text: String) {
    let file = SourceFile::new("fuzz.toml", text);
    let (diags, _, _) = check_source(&file, None, &CheckSettings::default());
    for d in &diags {
        for label in d.primary.iter().chain(&d.related) {
            assert!(label.span.start <= label.span.end, "{d:?}");
            assert!(label.span.end <= file.text.len(), "{d:?}");
        }
    }
}

/// One edit of a valid design: the kinds of mistake people make.
#[derive(Debug, Clone)]
enum Edit {
    DeleteLine(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    ReplaceByte(usize, u8),
    Truncate(usize),
    ReplaceValue(usize, String),
}

fn apply(text: &str, edit: &Edit) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let n = lines.len().max(1);
    match edit {
        Edit::DeleteLine(i) => {
            if !lines.is_empty() {
                lines.remove(i % n);
            }
        }
        Edit::DuplicateLine(i) => {
            if !lines.is_empty() {
                let l = lines[i % n].clone();
                lines.insert(i % n, l);
            }
        }
        Edit::SwapLines(a, b) => {
            if !lines.is_empty() {
                lines.swap(a % n, b % n);
            }
        }
        Edit::ReplaceByte(i, b) => {
            let mut bytes = text.as_bytes().to_vec();
            if !bytes.is_empty() {
                let len = bytes.len();
                bytes[i % len] = *b;
            }
            return String::from_utf8_lossy(&bytes).into_owned();
        }
        Edit::Truncate(i) => {
            let mut cut = i % (text.len() + 1);
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            return text[..cut].to_string();
        }
        Edit::ReplaceValue(i, v) => {
            if !lines.is_empty() {
                let l = &mut lines[i % n];
                if let Some(eq) = l.find('=') {
                    *l = format!("{}= {v}", &l[..eq]);
                }
            }
        }
    }
    lines.join("\n")
}

fn edit() -> impl Strategy<Value = Edit> {
    let value = prop_oneof![
        Just("\"\"".to_string()),
        Just("0".to_string()),
        Just("-1".to_string()),
        Just("99999999999999999999".to_string()),
        Just("[]".to_string()),
        Just("{}".to_string()),
        Just("[\"x\", 1]".to_string()),
        Just("\"10G\"".to_string()),
        Just("true".to_string()),
        Just("1.5".to_string()),
        Just("\"hv1:NIC1\"".to_string()),
        "[a-z0-9:\\-\\. ]{0,12}".prop_map(|s| format!("\"{s}\"")),
    ];
    prop_oneof![
        any::<usize>().prop_map(Edit::DeleteLine),
        any::<usize>().prop_map(Edit::DuplicateLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::SwapLines(a, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Edit::ReplaceByte(i, b)),
        any::<usize>().prop_map(Edit::Truncate),
        (any::<usize>(), value).prop_map(|(i, v)| Edit::ReplaceValue(i, v)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        check_text(String::from_utf8_lossy(&bytes).into_owned());
    }

    #[test]
    fn arbitrary_toml_shaped_text_never_panics(text in "(\\[[a-z._]{1,20}\\]\n|[a-z_]{1,10} = (\"[a-z0-9:-]{0,8}\"|[0-9]{1,5}|\\[[0-9, ]{0,10}\\]|\\{ [a-z]{1,5} = [0-9]{1,3} \\})\n){0,30}") {
        check_text(text);
    }

    #[test]
    fn mutated_designs_never_panic(seed in any::<prop::sample::Index>(), edits in proptest::collection::vec(edit(), 1..6)) {
        let seeds = seeds();
        let mut text = seeds[seed.index(seeds.len())].clone();
        for e in &edits {
            text = apply(&text, e);
        }
        check_text(text);
    }
}
