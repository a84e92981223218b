//! Every TOML example in docs/ and the README is valid: complete designs
//! load without a diagnostic; fragments (no `[design]`) are checked inside a
//! minimal design, where only references to names the fragment does not
//! define may be unresolved.

use netlint_model::{load, SourceFile};
use std::path::Path;

fn toml_blocks(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        match &mut current {
            None if line.trim_start().starts_with("```toml") => {
                current = Some((i + 1, String::new()))
            }
            None => {}
            Some((_, body)) => {
                if line.trim_start().starts_with("```") {
                    out.push(current.take().unwrap());
                } else {
                    body.push_str(line);
                    body.push('\n');
                }
            }
        }
    }
    out
}

fn is_reference_error(message: &str) -> bool {
    message.starts_with("unknown switch")
        || message.starts_with("unknown network")
        || message.starts_with("unknown NIC")
        || message.starts_with("unknown uplink")
        || message.starts_with("unknown profile")
        || message.starts_with("`peer` names unknown host")
        || message.contains("share no stack or MLAG domain")
}

#[test]
fn every_toml_example_in_the_docs_is_valid() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    files.push(root.join("README.md"));
    files.sort();
    let mut checked = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        // Fragments of one page build one design (the format page defines a
        // profile in one example and uses it in the next), so they are
        // checked together; complete designs on their own.
        let mut fragments = String::from("[design]\nname = \"doc\"\n\n");
        for (line, block) in toml_blocks(&text) {
            checked += 1;
            if block.lines().any(|l| l.trim() == "[design]") {
                let where_ = format!("{}:{line}", path.display());
                let loaded = load(&SourceFile::new(where_.clone(), block));
                assert!(
                    loaded.diagnostics.is_empty(),
                    "{where_}: {:#?}",
                    loaded.diagnostics
                );
            } else {
                fragments.push_str(&format!("# {}:{line}\n{block}\n", path.display()));
            }
        }
        let loaded = load(&SourceFile::new(
            path.display().to_string(),
            fragments.clone(),
        ));
        let bad: Vec<_> = loaded
            .diagnostics
            .iter()
            .filter(|d| !is_reference_error(&d.message))
            .map(|d| {
                let line = d
                    .primary
                    .as_ref()
                    .map(|p| fragments[..p.span.start].lines().count())
                    .unwrap_or(0);
                format!("line {line} of the joined examples: {}", d.message)
            })
            .collect();
        assert!(bad.is_empty(), "{}: {bad:#?}\n{fragments}", path.display());
    }
    assert!(checked >= 10, "only {checked} TOML examples found");
}
