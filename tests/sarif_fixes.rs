//! Every fix of a SARIF log, applied together as a SARIF consumer would
//! (each result's `fixes`, every replacement at its byte offset): no two
//! replacements overlap, and the fixed design loads. Findings that share
//! one edit (a finding per host of one profile line, per pair of one
//! spanning-tree change) carry it once: the others point at the result
//! that does (`netlint/fixOnResult`); a fix whose edits meet an earlier
//! one's (two findings adding one key with other values) is left out and
//! names the result it conflicts with (`netlint/fixConflictsWithResult`).

mod support;

use netlint_model::{load, SourceFile};
use serde_json::Value;

#[test]
fn applying_every_fix_of_a_sarif_log_makes_each_edit_once() {
    let mut shared = 0;
    for (path, text) in support::fixture_files() {
        if path.contains("/invalid/") || path.contains("/drift/") {
            continue;
        }
        let (code, out, err) = support::run(&["check", "--isolated", "--format", "sarif", &path]);
        assert!(code == 0 || code == 1, "{path}: {err}");
        let log: Value = serde_json::from_str(&out).unwrap();
        let results = log["runs"][0]["results"].as_array().unwrap();
        let mut edits: Vec<(usize, usize, String)> = Vec::new();
        for (i, r) in results.iter().enumerate() {
            if let Some(other) = r["properties"]["netlint/fixConflictsWithResult"].as_u64() {
                let other = other as usize;
                assert!(
                    other < i && results[other]["fixes"].is_array(),
                    "{path}: result {i}"
                );
                assert!(r.get("fixes").is_none(), "{path}: result {i}");
            }
            if let Some(first) = r["properties"]["netlint/fixOnResult"].as_u64() {
                let first = first as usize;
                assert!(first < i, "{path}: result {i} points at a later one");
                assert!(
                    results[first]["fixes"].is_array(),
                    "{path}: result {i} points at result {first}, which carries no fix"
                );
                assert!(r.get("fixes").is_none(), "{path}: result {i}");
                shared += 1;
            }
            for fix in r["fixes"].as_array().into_iter().flatten() {
                for change in fix["artifactChanges"].as_array().unwrap() {
                    for rep in change["replacements"].as_array().unwrap() {
                        let at = &rep["deletedRegion"];
                        edits.push((
                            at["byteOffset"].as_u64().unwrap() as usize,
                            at["byteLength"].as_u64().unwrap() as usize,
                            rep["insertedContent"]["text"].as_str().unwrap().to_string(),
                        ));
                    }
                }
            }
        }
        if edits.is_empty() {
            continue;
        }
        edits.sort();
        for w in edits.windows(2) {
            assert!(
                w[0].0 + w[0].1 <= w[1].0 && w[0] != w[1],
                "{path}: two replacements overlap: {:?} and {:?}",
                w[0],
                w[1]
            );
        }
        let mut fixed = text.clone();
        for (start, len, new) in edits.iter().rev() {
            fixed.replace_range(*start..start + len, new);
        }
        let loaded = load(&SourceFile::new(path.as_str(), &fixed));
        assert!(
            loaded.design.is_some() && loaded.diagnostics.is_empty(),
            "{path}: the design with every SARIF fix applied does not load: {:#?}\n{fixed}",
            loaded.diagnostics
        );
    }
    // The fixtures have findings that share one edit (rstp-triangle,
    // stp-suboptimal-path): the pointer is exercised, not only the
    // absence of repeats.
    assert!(shared > 0);
}
