//! Findings carry their subjects: a cause shared by hosts built alike is one
//! finding about each of them, never several findings with one text (the
//! engine no longer de-duplicates by message).

use netlint::run::{check_source, CheckSettings};
use netlint_model::SourceFile;
use netlint_synth::{generate, Params};
use std::collections::BTreeSet;
use std::path::Path;

fn assert_one_finding_per_cause(name: &str, text: String) -> usize {
    let file = SourceFile::new(name, text);
    let (diags, _, _) = check_source(&file, None, &CheckSettings::default());
    let mut causes = BTreeSet::new();
    let mut shared = 0;
    for d in &diags {
        assert!(!d.subjects.is_empty(), "{name}: {d:#?}");
        let span = d.primary.as_ref().map(|p| p.span);
        assert!(
            causes.insert((d.rule.clone(), span, d.message.clone())),
            "{name}: two findings of `{}` with one text at one place: {}",
            d.rule,
            d.message
        );
        shared += usize::from(d.subjects.len() > 1);
    }
    shared
}

#[test]
fn every_cause_is_one_finding_in_the_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut shared = 0;
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "toml") {
            n += 1;
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            shared += assert_one_finding_per_cause(&name, std::fs::read_to_string(&p).unwrap());
        }
    }
    assert!(n > 40, "{n}");
    assert!(shared > 0, "no fixture has a finding shared by hosts");
}

#[test]
fn hosts_built_alike_share_their_findings_in_a_flawed_synthetic_design() {
    let text = generate(&Params {
        flawed: true,
        ..Params::hosts(64)
    });
    let shared = assert_one_finding_per_cause("synthetic-64.toml", text);
    assert!(shared > 0);
}
