//! Full `check` of synthetic designs (parse, validate, every analysis and
//! rule) at several sizes. Run: `cargo bench --bench check`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use netlint::check::{check_source, CheckSettings};
use netlint_model::SourceFile;
use netlint_synth::{generate, Params};

fn full_check(c: &mut Criterion) {
    let mut group = c.benchmark_group("check");
    group.sample_size(10);
    for hosts in [16usize, 64, 1_000, 10_000] {
        let text = generate(&Params::hosts(hosts));
        let file = SourceFile::new("synthetic.toml", text);
        group.throughput(Throughput::Elements(hosts as u64));
        group.bench_with_input(BenchmarkId::from_parameter(hosts), &file, |b, file| {
            b.iter(|| {
                let (diags, _, _) = check_source(file, None, &CheckSettings::default());
                assert!(!diags.iter().any(|d| d.rule == "schema"));
                diags.len()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, full_check);
criterion_main!(benches);
