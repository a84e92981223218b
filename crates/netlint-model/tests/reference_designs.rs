//! Every reference design (tests/data/reference, the copies of the
//! project's reference designs kept in the repository) parses without a
//! diagnostic.

use netlint_model::{load, SourceFile};
use std::path::Path;

#[test]
fn reference_designs_load_cleanly() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/reference");
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut n = 0;
    for e in entries.flatten() {
        let p = e.path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if !name.ends_with(".toml") {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        let loaded = load(&SourceFile::new(name.clone(), text));
        assert!(
            loaded.diagnostics.is_empty(),
            "{name}: {:#?}",
            loaded.diagnostics
        );
        assert!(loaded.design.is_some(), "{name}");
        n += 1;
    }
    assert_eq!(n, 6, "the six reference designs");
}
