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
