//! The binary package's layers (docs/architecture.md): `cli` and `commands`
//! on top, then `render`, `views`, `run`. A module imports only those below
//! it: no renderer imports a command, and the only import circle is the one
//! clap's completion and man generation need (`cli` -> `commands` ->
//! `completions` / `man` -> `cli`).
//!
//! The imports are read from the source: every `use crate::...` and
//! `use super::...` (braces expanded), every `crate::...` path in code, and
//! every `mod` declaration, each resolved to the file that defines the
//! module. Test modules (`#[cfg(test)]` onwards) are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The file's module path (`src/views/graph/mod.rs` -> `views::graph`).
fn module_of(file: &str) -> Vec<String> {
    let rel = file.trim_end_matches(".rs");
    let mut segs: Vec<String> = rel.split('/').map(str::to_string).collect();
    if matches!(
        segs.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        segs.pop();
    }
    segs
}

/// The file defining the longest prefix of `path` that is a module.
fn resolve(files: &BTreeSet<String>, path: &[String]) -> Option<String> {
    for k in (0..=path.len()).rev() {
        let base = path[..k].join("/");
        if k == 0 {
            return Some("lib.rs".to_string());
        }
        for cand in [format!("{base}.rs"), format!("{base}/mod.rs")] {
            if files.contains(&cand) {
                return Some(cand);
            }
        }
    }
    None
}

/// `a::{b, c::{d, e}}` -> `a::b`, `a::c::d`, `a::c::e`.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        return vec![tree.split(" as ").next().unwrap().trim().to_string()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap()];
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[start..]);
    items
        .into_iter()
        .filter(|i| !i.trim().is_empty())
        .flat_map(expand)
        .map(|i| {
            if i == "self" {
                prefix.trim_end_matches("::").to_string()
            } else {
                format!("{prefix}{i}")
            }
        })
        .collect()
}

/// Each file of src/ and the files it imports.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let mut paths = Vec::new();
    rust_files(Path::new(SRC), &mut paths);
    let files: BTreeSet<String> = paths
        .iter()
        .map(|p| {
            p.strip_prefix(SRC)
                .unwrap()
                .to_string_lossy()
                .trim_start_matches('/')
                .replace('\\', "/")
        })
        .collect();
    let mut graph = BTreeMap::new();
    for file in &files {
        let text = std::fs::read_to_string(Path::new(SRC).join(file)).unwrap();
        let text = text.split("#[cfg(test)]").next().unwrap();
        let here = module_of(file);
        let mut targets: Vec<Vec<String>> = Vec::new();
        for stmt in text.split(';') {
            let s = stmt.trim();
            // The `use` item: the line that starts it and what follows
            // (comments and attributes before it are skipped).
            let Some(start) = s.lines().position(|l| {
                let l = l.trim_start();
                ["use ", "pub use ", "pub(crate) use ", "pub(super) use "]
                    .iter()
                    .any(|p| l.starts_with(p))
            }) else {
                continue;
            };
            let item = s.lines().skip(start).collect::<Vec<_>>().join("\n");
            let tree = &item[item.find("use ").unwrap() + 4..];
            for p in expand(tree) {
                let segs: Vec<&str> = p.split("::").map(str::trim).collect();
                match segs.first() {
                    Some(&"crate") => {
                        targets.push(segs[1..].iter().map(|s| s.to_string()).collect())
                    }
                    Some(&"super") => {
                        let mut base = here.clone();
                        let mut rest = &segs[..];
                        while rest.first() == Some(&"super") {
                            base.pop();
                            rest = &rest[1..];
                        }
                        base.extend(rest.iter().map(|s| s.to_string()));
                        targets.push(base);
                    }
                    _ => {}
                }
            }
        }
        for p in crate_paths(text) {
            targets.push(p);
        }
        for line in text.lines() {
            let l = line.trim();
            let decl = l
                .strip_prefix("pub mod ")
                .or_else(|| l.strip_prefix("pub(crate) mod "))
                .or_else(|| l.strip_prefix("mod "));
            if let Some(name) = decl.and_then(|d| d.strip_suffix(';')) {
                let mut m = here.clone();
                m.push(name.to_string());
                targets.push(m);
            }
        }
        let mut set = BTreeSet::new();
        for t in targets {
            if let Some(f) = resolve(&files, &t) {
                if &f != file {
                    set.insert(f);
                }
            }
        }
        graph.insert(file.clone(), set);
    }
    graph
}

/// `crate::a::b` paths written in code.
fn crate_paths(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices("crate::") {
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let rest = &text[at + "crate::".len()..];
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(rest.len());
        let segs: Vec<String> = rest[..end]
            .split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        out.push(segs);
    }
    out
}

fn layer(file: &str) -> usize {
    match file.split('/').next().unwrap() {
        "run" => 0,
        "views" => 1,
        "render" => 2,
        _ => 3,
    }
}

#[test]
fn no_renderer_imports_a_command() {
    let graph = imports();
    assert!(graph.contains_key("render/dot.rs"), "{:?}", graph.keys());
    for (file, targets) in &graph {
        if !file.starts_with("render/") {
            continue;
        }
        for t in targets {
            assert!(
                !t.starts_with("commands/") && t != "cli.rs",
                "{file} imports {t}: a renderer knows no command"
            );
        }
    }
}

#[test]
fn each_layer_imports_only_those_below_it() {
    let graph = imports();
    for (file, targets) in &graph {
        for t in targets {
            assert!(
                layer(t) <= layer(file),
                "{file} imports {t}, a layer above it (run < views < render < commands)"
            );
        }
    }
}

#[test]
fn the_only_import_circle_is_clap_completion_and_man() {
    let graph = imports();
    // Files that reach themselves, by depth-first search from each.
    let mut circles: BTreeSet<String> = BTreeSet::new();
    for start in graph.keys() {
        let mut stack: Vec<&String> = graph[start].iter().collect();
        let mut seen: BTreeSet<&String> = BTreeSet::new();
        while let Some(f) = stack.pop() {
            if f == start {
                circles.insert(start.clone());
                break;
            }
            if seen.insert(f) {
                stack.extend(graph.get(f).into_iter().flatten());
            }
        }
    }
    let allowed: BTreeSet<String> = [
        "cli.rs",
        "commands/mod.rs",
        "commands/completions.rs",
        "commands/man.rs",
    ]
    .into_iter()
    .map(str::to_string)
    .collect();
    let extra: Vec<&String> = circles.difference(&allowed).collect();
    assert!(extra.is_empty(), "files in an import circle: {extra:?}");
    // The check sees circles at all: the allowed one is found.
    assert!(circles.contains("commands/completions.rs"), "{circles:?}");
}

#[test]
fn the_reader_expands_nested_braces() {
    assert_eq!(
        expand("crate::run::{self, a, b::{c, d as e}}"),
        [
            "crate::run",
            "crate::run::a",
            "crate::run::b::c",
            "crate::run::b::d"
        ]
    );
    assert_eq!(module_of("views/graph/mod.rs"), ["views", "graph"]);
}
