//! Parsing a site of 200 generated switch configs (the four dialects in
//! turn), detection included. docs/performance.md records the figure.

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

criterion_group!(benches, site);
criterion_main!(benches);
