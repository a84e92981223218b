//! Full `check` of synthetic designs (parse, validate, every analysis and
//! rule) at several sizes, clean (`check`) and seeded with mistakes that
//! fire rules on most hosts (`check-flawed`), and the failure analysis on
//! its own (every single failure of the design, the healthy forwarding
//! prepared once; `failures`, `failures-flawed`), and parsing the same
//! files into a bare `toml::Table` (`parse`), what a check is compared
//! with. Run: `cargo bench --bench check`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use netlint::run::{check_source, CheckSettings};
use netlint_analysis::failure::FailureReport;
use netlint_analysis::{Fabric, Failures, Topology};
use netlint_model::{load, SourceFile};
use netlint_synth::{generate, Params};

const SIZES: [usize; 4] = [16, 64, 1_000, 10_000];

fn full_check(c: &mut Criterion) {
    check_group(c, "check", false);
}

fn full_check_flawed(c: &mut Criterion) {
    check_group(c, "check-flawed", true);
}

fn check_group(c: &mut Criterion, name: &str, flawed: bool) {
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    for hosts in SIZES {
        let text = generate(&Params {
            flawed,
            ..Params::hosts(hosts)
        });
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

/// Every single failure unit (switches, inter-switch cables, NIC cards) and
/// every stack, against the role table: what `cx.failures()` computes. The
/// flawed designs prune a VLAN from some trunks, so the surviving graph's
/// components are not the VLANs' and spanning trees are updated per
/// failure (`failures-flawed`).
fn failure_analysis(c: &mut Criterion) {
    failures_group(c, "failures", false);
}

fn failure_analysis_flawed(c: &mut Criterion) {
    failures_group(c, "failures-flawed", true);
}

fn failures_group(c: &mut Criterion, name: &str, flawed: bool) {
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    for hosts in SIZES {
        let text = generate(&Params {
            flawed,
            ..Params::hosts(hosts)
        });
        let design = load(&SourceFile::new("synthetic.toml", text))
            .design
            .expect("the synthetic design loads");
        let topo = Topology::build(&design);
        let fabric = Fabric::new(&design, &topo);
        let healthy = fabric.forwarding(&design, &topo, &Failures::default());
        group.throughput(Throughput::Elements(hosts as u64));
        group.bench_with_input(BenchmarkId::from_parameter(hosts), &design, |b, design| {
            b.iter(|| {
                FailureReport::build(design, &topo, &fabric, &healthy)
                    .results
                    .len()
            })
        });
    }
    group.finish();
}

/// Parsing the same designs into a bare `toml::Table` and nothing else:
/// the floor the `check` groups are compared with (docs/performance.md
/// keeps the ratio; a check should cost at most 3 times this, 4 times on
/// the flawed designs).
fn parse_only(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse");
    group.sample_size(10);
    for (flawed, label) in [(false, "clean"), (true, "flawed")] {
        for hosts in SIZES {
            let text = generate(&Params {
                flawed,
                ..Params::hosts(hosts)
            });
            group.throughput(Throughput::Elements(hosts as u64));
            group.bench_with_input(BenchmarkId::new(label, hosts), &text, |b, text| {
                b.iter(|| {
                    text.parse::<toml::Table>()
                        .expect("the design parses")
                        .len()
                })
            });
        }
    }
    group.finish();
}

criterion_group!(
    benches,
    parse_only,
    full_check,
    full_check_flawed,
    failure_analysis,
    failure_analysis_flawed
);
criterion_main!(benches);
