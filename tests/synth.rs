//! Synthetic designs are valid designs at every size the benchmarks use.

use netlint_model::{load, SourceFile};
use netlint_synth::{generate, Params};

#[test]
fn synthetic_designs_load_without_diagnostics() {
    for hosts in [1, 16, 64, 300] {
        let text = generate(&Params::hosts(hosts));
        let loaded = load(&SourceFile::new("synthetic.toml", text));
        assert!(
            loaded.diagnostics.is_empty(),
            "{hosts}: {:#?}",
            &loaded.diagnostics[..loaded.diagnostics.len().min(5)]
        );
        let d = loaded.design.unwrap();
        assert_eq!(d.hosts.len(), hosts);
    }
}
