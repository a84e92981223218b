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

/// The `*.md` names in `dir`, sorted.
fn pages_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".md"))
        .collect();
    names.sort();
    names
}

#[test]
fn rule_pages_live_inside_the_rules_package() {
    // `declare_rule!` includes `crates/netlint-rules/rules/<id>.md`, so that
    // `cargo package` ships the pages with the crate. The top-level `rules`
    // (where the project's layout puts them) is a link to that directory,
    // not a second copy: a page written there lands in the package.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let pages = root.join("crates/netlint-rules/rules");
    assert!(pages.join("mtu-mismatch.md").is_file());
    let link = root.join("rules");
    let meta = std::fs::symlink_metadata(&link).expect("`rules` at the top level");
    assert!(
        meta.file_type().is_symlink(),
        "`rules` is a link to crates/netlint-rules/rules (`ln -s crates/netlint-rules/rules rules`), \
         not a directory of its own: move its pages with `git mv rules/<id>.md crates/netlint-rules/rules/`"
    );
    assert_eq!(
        std::fs::read_link(&link).unwrap(),
        Path::new("crates/netlint-rules/rules"),
        "a relative link, so it resolves in every clone"
    );
    assert_eq!(link.canonicalize().unwrap(), pages.canonicalize().unwrap());
    let names = pages_in(&link);
    assert!(names.len() > 60, "{names:?}");
    assert_eq!(names, pages_in(&pages));
}

/// What `cargo package` would put in the netlint-rules crate holds every
/// rule page (`cargo package --list`: no build, no network).
#[test]
fn the_rules_package_carries_every_rule_page() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args([
            "package",
            "--list",
            "--allow-dirty",
            "--offline",
            "-p",
            "netlint-rules",
        ])
        .current_dir(root)
        .output()
        .expect("cargo runs");
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pages = pages_in(&root.join("crates/netlint-rules/rules"));
    assert!(pages.len() > 60, "{pages:?}");
    for page in pages {
        assert!(
            listed.lines().any(|l| l == format!("rules/{page}")),
            "the netlint-rules package lacks rules/{page}:\n{listed}"
        );
    }
}
