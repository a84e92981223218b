//! Every reference design in ../shared/designs parses without a diagnostic.

use netlint_model::{load, SourceFile};
use std::path::Path;

#[test]
fn reference_designs_load_cleanly() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/designs");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("no {} here: skipped", dir.display());
        return;
    };
    let mut n = 0;
    for e in entries.flatten() {
        let p = e.path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if !name.ends_with(".toml") || name.ends_with(".expect.toml") {
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
    assert!(n >= 6, "only {n} designs found");
}
