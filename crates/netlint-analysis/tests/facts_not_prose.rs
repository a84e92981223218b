//! The analysis crate's invariant: it returns facts (ids, numbers, enums),
//! never prose. Rules and views word the facts (`netlint_rules::phrases`).
//!
//! The criterion, checkable and strict: no string literal in the crate's
//! non-test source holds two words separated by a space (a word being two
//! or more ASCII letters, optionally in backticks or followed by
//! punctuation), which every sentence, clause or label of a message needs.
//! Comments, `tests.rs` / `proofs.rs` files and everything from a file's
//! top-level `#[cfg(test)]` on are not looked at. A single-word literal
//! (`"up"`, a key, a format such as `"{}.{}"`) passes.

use std::path::{Path, PathBuf};

/// Files that still build prose, and why; the list may only shrink (a file
/// listed here without prose fails the test too).
const NOT_YET: &[(&str, &str)] = &[];

/// String literals of Rust source, comments skipped: (line, text).
fn literals(src: &str) -> Vec<(usize, String)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < b.len() {
        match b[i] {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    line += usize::from(b[i] == b'\n');
                    i += 1;
                }
                i += 2;
            }
            b'\'' => {
                // A char literal ('x', '\n', '\'') or a lifetime ('a).
                if b.get(i + 1) == Some(&b'\\') {
                    i += 3;
                    while i < b.len() && b[i] != b'\'' {
                        i += 1;
                    }
                    i += 1;
                } else if b.get(i + 2) == Some(&b'\'') {
                    i += 3;
                } else {
                    i += 1;
                }
            }
            b'r' if matches!(b.get(i + 1), Some(b'#' | b'"'))
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                let mut j = i + 1;
                let mut hashes = 0;
                while b.get(j) == Some(&b'#') {
                    hashes += 1;
                    j += 1;
                }
                if b.get(j) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let start = j + 1;
                let close: Vec<u8> = std::iter::once(b'"')
                    .chain(std::iter::repeat_n(b'#', hashes))
                    .collect();
                let mut k = start;
                while k < b.len() && !b[k..].starts_with(&close) {
                    k += 1;
                }
                out.push((line, src[start..k].to_string()));
                line += src[start..k].matches('\n').count();
                i = k + close.len();
            }
            b'"' => {
                let start = i + 1;
                let mut k = start;
                while k < b.len() && b[k] != b'"' {
                    k += if b[k] == b'\\' { 2 } else { 1 };
                }
                let k = k.min(b.len());
                out.push((line, src[start..k].to_string()));
                line += src[start..k].matches('\n').count();
                i = k + 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// Two words separated by a space: the mark of a phrase.
fn is_prose(text: &str) -> bool {
    let words: Vec<&str> = text
        .split(' ')
        .map(|w| w.trim_matches(|c: char| "`,.:;()!?'".contains(c)))
        .collect();
    let word = |w: &str| w.len() >= 2 && w.chars().all(|c| c.is_ascii_alphabetic());
    words.windows(2).any(|p| word(p[0]) && word(p[1]))
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs")
            && !matches!(
                p.file_name().and_then(|n| n.to_str()),
                Some("tests.rs" | "proofs.rs")
            )
        {
            out.push(p);
        }
    }
}

#[test]
fn analysis_source_has_no_sentences() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    files.sort();
    assert!(files.len() > 10, "{files:?}");
    let mut found = Vec::new();
    let mut clean_but_listed = Vec::new();
    for f in &files {
        let rel = f
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(f).unwrap();
        let text = match text.find("\n#[cfg(test)]") {
            Some(i) => &text[..i],
            None => &text[..],
        };
        let prose: Vec<(usize, String)> = literals(text)
            .into_iter()
            .filter(|(_, t)| is_prose(t))
            .collect();
        let listed = NOT_YET.iter().any(|(n, _)| *n == rel);
        if listed && prose.is_empty() {
            clean_but_listed.push(rel.clone());
        }
        if !listed {
            found.extend(prose.into_iter().map(|(l, t)| format!("{rel}:{l}: {t:?}")));
        }
    }
    assert!(
        found.is_empty(),
        "the analysis returns facts, never prose; word these in netlint_rules::phrases:\n{}",
        found.join("\n")
    );
    assert!(
        clean_but_listed.is_empty(),
        "no prose left in {clean_but_listed:?}: take them off NOT_YET"
    );
}

#[test]
fn the_criterion_tells_phrases_from_keys() {
    assert!(is_prose("no path is left"));
    assert!(is_prose("`{}` becomes root"));
    assert!(is_prose("cabled to {what} `{}`"));
    assert!(!is_prose("up"));
    assert!(!is_prose("{}.{}"));
    assert!(!is_prose("{}#{}"));
    assert!(!is_prose("{} {}"));
    let found = literals(
        "let a = \"two words\"; // \"not this\"\nlet c = 'x'; let r = r#\"raw text\"#; fn f<'a>() {}",
    );
    assert_eq!(
        found,
        vec![(1, "two words".to_string()), (2, "raw text".to_string())]
    );
}
