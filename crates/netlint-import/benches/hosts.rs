//! Importing 1,000 generated Hyper-V host collections (the converged
//! fixture's shape, each host with its own name, MACs and one jumbo size
//! in ten differing): reading the JSON, mapping it to facts, and folding
//! them into one design. docs/performance.md records the figure.

use criterion::{criterion_group, criterion_main, Criterion};
use netlint_import::design::to_design_with_hosts;
use netlint_import::host::read_hyperv;

fn collections() -> Vec<(String, Vec<u8>)> {
    let base = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/host-fixtures/converged/hv01.json"
    ))
    .expect("the fixture is there");
    let base = String::from_utf8(base).expect("hv01.json is UTF-8");
    (0..1000)
        .map(|i| {
            let name = format!("HV{i:04}");
            let mut text = base.replace("\"HV01\"", &format!("\"{name}\"")).replace(
                "00-15-5D-0A-01-",
                &format!("00-15-5D-{:02X}-{:02X}-", i / 256, i % 256),
            );
            if i % 10 == 9 {
                text = text.replace("\"9014\"", "\"1514\"");
            }
            (format!("{name}.json"), text.into_bytes())
        })
        .collect()
}

fn hosts(c: &mut Criterion) {
    let input = collections();
    let bytes: usize = input.iter().map(|(_, b)| b.len()).sum();
    eprintln!("1000 collections, {bytes} bytes");
    c.bench_function("import 1000 host collections", |b| {
        b.iter(|| {
            let facts: Vec<_> = input
                .iter()
                .map(|(f, b)| read_hyperv(f, b).expect("a generated collection reads"))
                .collect();
            let d = to_design_with_hosts(&[], &facts, "bench");
            std::hint::black_box(d);
        })
    });
}

criterion_group!(benches, hosts);
criterion_main!(benches);
