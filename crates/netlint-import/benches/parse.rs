//! Parsing a site of 200 generated switch configs (the four dialects in
//! turn), detection included, and importing it into a design. docs/performance.md records the figure.

use criterion::{criterion_group, criterion_main, Criterion};

include!("../tests/support/gen.rs");

fn site(c: &mut Criterion) {
    let site: Vec<(String, String)> = (0..200).map(site_config).collect();
    let lines: usize = site.iter().map(|(_, t)| t.lines().count()).sum();
    eprintln!("200 configs, {lines} lines");
    c.bench_function("parse 200 switch configs", |b| {
        b.iter(|| {
            for (file, text) in &site {
                let doc =
                    netlint_import::parse(file, text, None).expect("a generated config parses");
                std::hint::black_box(doc);
            }
        })
    });
}

/// The whole import of the same site: parsing and writing the design
/// with its source map (`netlint import` without the file reads).
fn import(c: &mut Criterion) {
    let site: Vec<(String, String)> = (0..200).map(site_config).collect();
    c.bench_function("import 200 switch configs to a design", |b| {
        b.iter(|| {
            let docs: Vec<netlint_import::Document> = site
                .iter()
                .map(|(file, text)| {
                    netlint_import::parse(file, text, None).expect("a generated config parses")
                })
                .collect();
            std::hint::black_box(netlint_import::design::to_design(&docs, "site"));
        })
    });
}

criterion_group!(benches, site, import);
criterion_main!(benches);
