//! Spanning-tree engine on a 400-bridge / 1,200-link / 4-instance MSTP
//! design (one region), built by a deterministic generator.
//!
//! `CARGO_TARGET_DIR=... cargo bench -p netlint-analysis --bench stp`

use criterion::{criterion_group, criterion_main, Criterion};
use netlint_analysis::stp::{BridgeInput, LinkInput, MstConfig, Scenario, StpEngine};
use netlint_model::StpMode;
use std::hint::black_box;

const BRIDGES: usize = 400;
const LINKS: usize = 1_200;

/// Numerical Recipes LCG: deterministic, no rand crate.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A connected random graph: a random spanning tree, then random extra links
/// (parallel links included), speeds 1G..100G, one MSTP region with VLANs
/// 1..=400 spread over instances 1..=4, per-instance roots placed on
/// different bridges, and MACs on every bridge.
fn design() -> (Vec<BridgeInput>, Vec<LinkInput>) {
    let mut rng = Lcg(0x5eed);
    let config = MstConfig {
        name: "dc1".into(),
        revision: 1,
        vlan_instance: (1..=400u16).map(|v| (v, v % 5)).collect(),
    };
    let bridges: Vec<BridgeInput> = (0..BRIDGES)
        .map(|i| {
            let mut b = BridgeInput::new(format!("sw{i:03}"), StpMode::Mstp);
            b.mac = Some([
                0x00,
                0x1e,
                0xc9,
                (i >> 8) as u8,
                i as u8,
                (rng.next() & 0xff) as u8,
            ]);
            b.priority = [4096, 8192, 32768, 32768][rng.below(4)];
            for k in 1..=4u16 {
                if rng.below(50) == 0 {
                    b.instance_priority.insert(k, 4096 * k as u32);
                }
            }
            b.mst = Some(config.clone());
            b
        })
        .collect();
    let speeds = [1_000, 2_000, 10_000, 20_000, 25_000, 40_000, 100_000];
    let mut links = Vec::with_capacity(LINKS);
    for i in 1..BRIDGES {
        let p = rng.below(i);
        links.push(LinkInput::new(
            format!("l{:04}", links.len()),
            p,
            i,
            speeds[rng.below(speeds.len())],
        ));
    }
    while links.len() < LINKS {
        let (a, b) = (rng.below(BRIDGES), rng.below(BRIDGES));
        if a != b {
            links.push(LinkInput::new(
                format!("l{:04}", links.len()),
                a,
                b,
                speeds[rng.below(speeds.len())],
            ));
        }
    }
    (bridges, links)
}

fn bench(c: &mut Criterion) {
    let (bridges, links) = design();
    c.bench_function("stp/prepare 400 bridges 1200 links", |b| {
        b.iter(|| StpEngine::new(black_box(bridges.clone()), black_box(links.clone())))
    });
    let engine = StpEngine::new(bridges, links);
    let r = engine.compute_healthy();
    assert_eq!(r.trees().len(), 5, "CIST + 4 MSTIs");
    c.bench_function("stp/compute 400 bridges 1200 links 4 MSTIs", |b| {
        b.iter(|| engine.compute(black_box(&Scenario::healthy())))
    });
    c.bench_function("stp/compute without one bridge", |b| {
        b.iter(|| engine.compute(black_box(&Scenario::without_bridge(7))))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
