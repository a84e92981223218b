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

/// Every `rev:` a user would copy (docs/ci.md, the header of
/// `.pre-commit-hooks.yaml`) exists: a full commit SHA, a placeholder for
/// one, or a tag `vX.Y.Z` whose release has its `## [X.Y.Z]` entry in
/// CHANGELOG.md (docs/releasing.md). `rev: v0.1.0` before any release
/// failed in pre-commit with `pathspec 'v0.1.0' did not match`.
#[test]
fn every_pre_commit_rev_in_the_docs_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let changelog = std::fs::read_to_string(root.join("CHANGELOG.md")).unwrap();
    let mut seen = 0;
    for file in ["docs/ci.md", ".pre-commit-hooks.yaml"] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_start_matches(['#', ' ']);
            let Some(rev) = line.strip_prefix("rev:") else {
                continue;
            };
            seen += 1;
            let rev = rev.split('#').next().unwrap().trim();
            let sha = rev.len() == 40 && rev.chars().all(|c| c.is_ascii_hexdigit());
            let placeholder = rev == "<full commit SHA>";
            let released = rev
                .strip_prefix('v')
                .is_some_and(|v| changelog.contains(&format!("## [{v}]")));
            assert!(
                sha || placeholder || released,
                "{file}:{}: `rev: {rev}` is neither a commit SHA nor a released tag (CHANGELOG.md)",
                i + 1
            );
        }
    }
    assert!(
        seen >= 2,
        "no `rev:` found in docs/ci.md and .pre-commit-hooks.yaml"
    );
}
