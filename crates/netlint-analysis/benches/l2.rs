//! The layer-2 model of a design with 400 switches, 1,200 inter-switch
//! links and 4 MSTP instances: topology graph, spanning-tree engine,
//! forwarding of every network's VLAN in the healthy state, and
//! reachability of 64 hosts.
//!
//! `CARGO_TARGET_DIR=... cargo bench -p netlint-analysis --bench l2`

use criterion::{criterion_group, criterion_main, Criterion};
use netlint_analysis::{all_pairs, Fabric, Failures, Topology};
use netlint_model::{load, Design, SourceFile};
use std::fmt::Write;
use std::hint::black_box;

const SWITCHES: usize = 400;
const LINKS: usize = 1_200;
const HOSTS: usize = 64;

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

/// One MSTP region of 400 switches: a random spanning tree plus random
/// extra links (parallel ones and `lag = "none"` bundles included) up to
/// 1,200, speeds 1G..100G, a few allowed-VLAN lists; eight networks over
/// the four instances and the IST; 64 hosts with a SET switch over two
/// NICs on two random switches, in clusters of 16.
fn design() -> Design {
    let mut rng = Lcg(0x5eed);
    let mut s =
        String::from("[design]\nname = \"bench-400\"\nplatform = \"windows-server-2022\"\n\n");
    let nets = [
        ("mgmt", "management", 10),
        ("vm", "vm", 100),
        ("csv", "csv", 20),
        ("lm", "live-migration", 30),
        ("smb1", "storage", 1031),
        ("smb2", "storage", 1042),
        ("backup", "backup", 500),
        ("vm2", "vm", 101),
    ];
    for (name, role, vlan) in nets {
        let proto = if role == "storage" {
            "protocol = \"smb\"\n"
        } else {
            ""
        };
        let _ = writeln!(
            s,
            "[networks.{name}]\nrole = \"{role}\"\nvlan = {vlan}\n{proto}"
        );
    }
    let instances =
        "{ 1 = [20, 30], 2 = [10, 100, 101], 3 = [\"1030-1039\"], 4 = [\"1040-1049\"] }";
    for i in 0..SWITCHES {
        let prio = [4096, 8192, 32768, 32768][rng.below(4)];
        let mut ip = Vec::new();
        for k in 1..=4 {
            if rng.below(50) == 0 {
                ip.push(format!("{k} = {}", 4096 * k));
            }
        }
        let ip = if ip.is_empty() {
            String::new()
        } else {
            format!(", instance_priority = {{ {} }}", ip.join(", "))
        };
        let _ = writeln!(
            s,
            "[switches.sw{i:03}]\nmtu = 9216\nhost_ports = {{ edge = true, bpdu_guard = true }}\nstp = {{ mode = \"mstp\", priority = {prio}, mac = \"00:1e:c9:{:02x}:{:02x}:{:02x}\", region = \"dc1\", revision = 1, instances = {instances}{ip} }}\n",
            i >> 8,
            i & 0xff,
            rng.next() & 0xff
        );
    }
    let speeds = ["1G", "2.5G", "10G", "25G", "40G", "100G"];
    let mut links = 0;
    let link = |s: &mut String, links: &mut usize, a: usize, b: usize, rng: &mut Lcg| {
        let members = [1, 1, 2, 4][rng.below(4)];
        let lag = if members > 1 && rng.below(4) == 0 {
            "lag = \"none\"\n"
        } else {
            ""
        };
        let vlans = if rng.below(10) == 0 {
            "vlans = [10, 100, 500]\n"
        } else {
            ""
        };
        let _ = writeln!(
            s,
            "[[links]]\nname = \"l{links:04}\"\na = \"sw{a:03}\"\nb = \"sw{b:03}\"\nspeed = \"{}\"\nmembers = {members}\n{lag}{vlans}",
            speeds[rng.below(speeds.len())]
        );
        *links += 1;
    };
    for i in 1..SWITCHES {
        let p = rng.below(i);
        link(&mut s, &mut links, p, i, &mut rng);
    }
    while links < LINKS {
        let (a, b) = (rng.below(SWITCHES), rng.below(SWITCHES));
        if a != b {
            link(&mut s, &mut links, a, b, &mut rng);
        }
    }
    for h in 0..HOSTS {
        let (a, b) = (rng.below(SWITCHES), rng.below(SWITCHES));
        let _ = writeln!(
            s,
            "[hosts.h{h:02}]\ncluster = \"c{}\"\n[hosts.h{h:02}.nics.A]\nspeed = \"25G\"\nswitch = \"sw{a:03}\"\nmtu = 9000\n[hosts.h{h:02}.nics.B]\nspeed = \"25G\"\nswitch = \"sw{b:03}\"\nmtu = 9000\n[hosts.h{h:02}.vswitches.S]\nuplinks = [\"A\", \"B\"]\nnetworks = [\"vm\", \"vm2\"]\n[hosts.h{h:02}.vswitches.S.vnics]\nMgmt = {{ network = \"mgmt\" }}\nCSV = {{ network = \"csv\" }}\nLM = {{ network = \"lm\" }}\nSMB1 = {{ network = \"smb1\" }}\nSMB2 = {{ network = \"smb2\" }}\nBackup = {{ network = \"backup\" }}\n",
            h / 16
        );
    }
    let loaded = load(&SourceFile::new("bench.toml", s));
    assert!(
        loaded.diagnostics.is_empty(),
        "{:#?}",
        &loaded.diagnostics[..3.min(loaded.diagnostics.len())]
    );
    loaded.design.expect("design")
}

fn bench(c: &mut Criterion) {
    let d = design();
    let topo = Topology::build(&d);
    assert_eq!(d.switches.len(), SWITCHES);
    assert_eq!(d.links.len(), LINKS);
    let fabric = Fabric::new(&d, &topo);
    let fwd = fabric.forwarding(&d, &topo, &Failures::default());
    assert_eq!(fwd.stp.trees().len(), 5, "CIST + 4 MSTIs");
    c.bench_function(
        "l2/model 400 switches 1200 links 4 MSTIs (topology + fabric + forwarding)",
        |b| {
            b.iter(|| {
                let topo = Topology::build(black_box(&d));
                let fabric = Fabric::new(&d, &topo);
                fabric.forwarding(&d, &topo, &Failures::default())
            })
        },
    );
    c.bench_function("l2/forwarding healthy", |b| {
        b.iter(|| fabric.forwarding(black_box(&d), &topo, &Failures::default()))
    });
    c.bench_function("l2/reachability 64 hosts 8 networks", |b| {
        b.iter(|| all_pairs(black_box(&d), &topo, &fwd))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
