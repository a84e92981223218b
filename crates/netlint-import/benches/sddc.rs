//! Importing host collections at scale: a Get-SDDCDiagnosticInfo
//! collection of 1,000 nodes (each node the files of the fixture node
//! tests/sddc/s2d-roce-nopfc/Node_HV01, renamed) read from memory, mapped
//! to host facts and written as a design; and a vSphere collection of
//! 1,000 ESXi hosts (the fixture's hosts, renamed) read and written.
//! docs/performance.md records the figures.

use criterion::{criterion_group, criterion_main, Criterion};
use std::path::Path;

fn sddc_files(nodes: usize) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sddc/s2d-roce-nopfc");
    let mut node: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir.join("Node_HV01"))
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    node.sort();
    let mut out = vec![(
        "GetClusterNetwork.XML".to_string(),
        std::fs::read(dir.join("GetClusterNetwork.XML")).unwrap(),
    )];
    for i in 0..nodes {
        for (f, b) in &node {
            out.push((format!("Node_HV{i:04}/{f}"), b.clone()));
        }
    }
    out
}

fn vsphere_json(hosts: usize) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vsphere/prod-cl01.vsphere.json");
    let text = netlint_import::host::json::decode(&std::fs::read(path).unwrap());
    let start = text.find("\"Hosts\": [").unwrap() + "\"Hosts\": [".len();
    let end = text.rfind(']').unwrap();
    let body = &text[start..end];
    // The fixture's three hosts, renamed per copy.
    let mut hs = Vec::new();
    for i in 0..hosts.div_ceil(3) {
        hs.push(body.replace("esx0", &format!("esx{i:04}-")));
    }
    format!("{}{}{}", &text[..start], hs.join(","), &text[end..]).into_bytes()
}

fn bench(c: &mut Criterion) {
    let files = sddc_files(1000);
    let bytes: usize = files.iter().map(|(_, b)| b.len()).sum();
    eprintln!(
        "SDDC: 1,000 nodes, {} files, {} MB",
        files.len(),
        bytes / 1_000_000
    );
    // One timed pass per phase, for docs/performance.md.
    let t = std::time::Instant::now();
    let s = netlint_import::host::sddc::from_files("c", files.clone()).unwrap();
    let read = t.elapsed();
    let t = std::time::Instant::now();
    let hosts: Vec<_> = s
        .nodes
        .iter()
        .map(|n| netlint_import::host::hyperv::facts(&n.collection))
        .collect();
    let map = t.elapsed();
    let t = std::time::Instant::now();
    let d = netlint_import::design::to_design_with_hosts(&[], &hosts, "bench");
    let write = t.elapsed();
    eprintln!(
        "SDDC phases: read (CliXml) {read:?}, map {map:?}, fold and write {write:?}; design {} lines",
        d.toml.lines().count()
    );
    let mut g = c.benchmark_group("hosts");
    g.sample_size(10);
    g.bench_function("sddc 1000 nodes: read, map, write", |b| {
        b.iter(|| {
            let s = netlint_import::host::sddc::from_files("c", files.clone()).unwrap();
            let hosts: Vec<_> = s
                .nodes
                .iter()
                .map(|n| netlint_import::host::hyperv::facts(&n.collection))
                .collect();
            assert_eq!(hosts.len(), 1000);
            let d = netlint_import::design::to_design_with_hosts(&[], &hosts, "bench");
            std::hint::black_box(d);
        })
    });
    let json = vsphere_json(1000);
    let t = std::time::Instant::now();
    let vc = netlint_import::host::vsphere::read("c.json", &json).unwrap();
    let read = t.elapsed();
    let t = std::time::Instant::now();
    let w = netlint_import::host::vsphere_write::write(&[vc], &[], &[]);
    eprintln!(
        "vSphere phases: read {read:?}, write {:?}; {} lines",
        t.elapsed(),
        w.toml.lines().count()
    );
    eprintln!(
        "vSphere: {} hosts, {} MB",
        1000usize.div_ceil(3) * 3,
        json.len() / 1_000_000
    );
    g.bench_function("vsphere 1002 hosts: read, write", |b| {
        b.iter(|| {
            let c = netlint_import::host::vsphere::read("c.json", &json).unwrap();
            assert_eq!(c.hosts.len(), 1002);
            let w = netlint_import::host::vsphere_write::write(&[c], &[], &[]);
            std::hint::black_box(w);
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
