//! The generated site the benchmark parses: every config is detected as
//! its dialect and read without a line left not understood.

use netlint_import::{parse, Document, Kind, PortMode, Vendor};

include!("support/gen.rs");

#[test]
fn every_generated_config_is_detected_and_understood() {
    for i in 0..8 {
        let (file, text) = site_config(i);
        let doc = parse(&file, &text, None).unwrap_or_else(|e| panic!("{e}"));
        let want = Vendor::ALL[i % 4];
        assert_eq!(doc.kind(), Kind::Config(want), "{file}");
        let Document::Config(cfg) = doc else {
            unreachable!()
        };
        assert_eq!(
            cfg.summary.not_understood,
            vec![],
            "{file}: every generated line is understood or ignored"
        );
        assert_eq!(
            cfg.hostname.as_ref().map(|h| h.value.as_str()),
            Some(format!("tor{i}").as_str())
        );
        assert_eq!(
            cfg.vlans.len(),
            if want == Vendor::Eos { 41 } else { 40 },
            "{file}"
        );
        let trunks = cfg
            .interfaces
            .iter()
            .filter(|p| p.mode.value == PortMode::Trunk)
            .count();
        assert!(trunks >= 2, "{file}: {trunks} trunks");
        assert!(cfg.summary.ignored() > 0 && cfg.summary.understood() > 100);
    }
}
