// The design text `netlint import` wrote loads without a diagnostic.
// Shared by the crate's tests through `include!`.

#[allow(dead_code)] // not every test file that includes it asserts it
fn assert_loads_cleanly(toml: &str) {
    let loaded = netlint_model::load(&netlint_model::SourceFile::new(
        "imported.toml",
        toml.to_string(),
    ));
    assert!(
        loaded.diagnostics.is_empty(),
        "{:#?}\n{toml}",
        loaded
            .diagnostics
            .iter()
            .map(|d| &d.message)
            .collect::<Vec<_>>(),
    );
}

/// The fixtures `files` (under tests/fixtures) imported as `netlint
/// import` would, each file's kind detected; the design loads cleanly.
#[allow(dead_code)] // not every test file that includes it imports fixtures
fn import_fixtures(files: &[&str]) -> netlint_import::design::Imported {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let docs: Vec<netlint_import::Document> = files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(dir.join(f)).unwrap();
            netlint_import::parse(f, &text, None).unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    let imported = netlint_import::design::to_design(&docs, "imported");
    assert_loads_cleanly(&imported.toml);
    imported
}
