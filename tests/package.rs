//! `cargo package` / `cargo publish` prerequisites that a build does not
//! check: the metadata crates.io shows, and path dependencies whose
//! version follows the workspace's (a release bumps both, docs/releasing.md).
//! `.ci/run` packages the workspace for real.

use std::path::Path;
use toml::Table;

fn manifest(rel: &str) -> Table {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&path)
        .unwrap()
        .parse()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn table<'a>(t: &'a Table, key: &str) -> &'a Table {
    t[key].as_table().unwrap_or_else(|| panic!("no [{key}]"))
}

/// The publishable packages: the bin and every library crate.
const PACKAGES: [&str; 5] = [
    "Cargo.toml",
    "crates/netlint-import/Cargo.toml",
    "crates/netlint-model/Cargo.toml",
    "crates/netlint-analysis/Cargo.toml",
    "crates/netlint-rules/Cargo.toml",
];

#[test]
fn path_dependencies_carry_the_workspace_version() {
    let root = manifest("Cargo.toml");
    let workspace = table(&root, "workspace");
    let version = table(workspace, "package")["version"].as_str().unwrap();
    let deps = table(workspace, "dependencies");
    for name in [
        "netlint-model",
        "netlint-analysis",
        "netlint-rules",
        "netlint-import",
    ] {
        let dep = deps[name].as_table().unwrap();
        assert!(dep.contains_key("path"), "{name}");
        assert_eq!(
            dep.get("version").and_then(|v| v.as_str()),
            Some(version),
            "[workspace.dependencies] {name} needs `version = \"{version}\"` (the workspace version) to be packaged"
        );
    }
}

#[test]
fn every_published_package_has_the_metadata_crates_io_shows() {
    for rel in PACKAGES {
        let m = manifest(rel);
        let package = table(&m, "package");
        assert_ne!(
            package.get("publish").and_then(|p| p.as_bool()),
            Some(false),
            "{rel}"
        );
        for key in [
            "description",
            "license",
            "repository",
            "readme",
            "keywords",
            "categories",
            "rust-version",
        ] {
            assert!(package.contains_key(key), "{rel} lacks `{key}`");
        }
    }
    let root = manifest("Cargo.toml");
    let shared = table(table(&root, "workspace"), "package");
    let keywords = shared["keywords"].as_array().unwrap();
    assert!(keywords.len() <= 5, "crates.io takes at most 5 keywords");
    for k in keywords {
        let k = k.as_str().unwrap();
        assert!(k.len() <= 20 && k.is_ascii(), "keyword `{k}`");
    }
    assert!(Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(shared["readme"].as_str().unwrap())
        .is_file());
}

#[test]
fn rule_pages_live_inside_the_rules_package() {
    // `declare_rule!` includes `crates/netlint-rules/rules/<id>.md`, so that
    // `cargo package` ships the pages with the crate; a page left in the
    // old place at the repository root (a branch written before the move)
    // would be missing from the package and from `netlint explain`.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(root
        .join("crates/netlint-rules/rules/mtu-mismatch.md")
        .is_file());
    let stray: Vec<String> = std::fs::read_dir(root.join("rules"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".md"))
        .collect();
    assert!(
        stray.is_empty(),
        "rule pages belong in crates/netlint-rules/rules/: `git mv rules/<id>.md crates/netlint-rules/rules/` for {stray:?}"
    );
}
