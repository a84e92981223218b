//! The bandwidth model shared by hosts alike equals every host's model
//! computed on its own, on every fixture and on synthetic designs, and is
//! computed once per class of hosts alike, not per host.

mod support;

use netlint_analysis::bandwidth::BandwidthModel;
use netlint_analysis::topology::Topology;
use netlint_model::{load, Design, SourceFile};
use netlint_synth::{generate, Params};
use std::sync::Arc;

/// Every design among the fixtures (invalid ones give none), by path.
fn fixture_designs() -> Vec<(String, Design)> {
    support::fixture_files()
        .into_iter()
        .filter_map(|(path, text)| {
            let d = load(&SourceFile::new(path.clone(), text)).design?;
            Some((path, d))
        })
        .collect()
}

/// The shared build against every host on its own; the number of
/// distinct allocations of classes is the number computed.
fn shared_equals_each(name: &str, d: &Design) -> BandwidthModel {
    let t = Topology::build(d);
    let shared = BandwidthModel::build(d, &t);
    let each = BandwidthModel::build_each(d, &t);
    assert_eq!(shared.hosts.len(), d.hosts.len(), "{name}");
    for (a, b) in shared.hosts.iter().zip(&each.hosts) {
        assert_eq!(a, b, "{name}: host `{}`", d.host(a.host).name);
    }
    let mut distinct: Vec<&Arc<_>> = Vec::new();
    for h in &shared.hosts {
        if !distinct.iter().any(|c| Arc::ptr_eq(c, &h.classes)) {
            distinct.push(&h.classes);
        }
    }
    assert_eq!(distinct.len(), shared.computed, "{name}");
    shared
}

#[test]
fn every_fixture_shares_models_only_between_hosts_with_equal_models() {
    let designs = fixture_designs();
    assert!(designs.len() > 50, "{}", designs.len());
    let (mut hosts, mut computed) = (0, 0);
    for (name, d) in &designs {
        let m = shared_equals_each(name, d);
        hosts += d.hosts.len();
        computed += m.computed;
    }
    // The fixtures build most hosts from profiles.
    assert!(computed < hosts, "{computed} of {hosts}");
}

#[test]
fn synthetic_designs_compute_the_model_once_per_class_of_hosts() {
    for (hosts, flawed, classes) in [
        (64, false, 1),
        (300, false, 1),
        (64, true, 2),
        (300, true, 2),
    ] {
        let text = generate(&Params {
            flawed,
            ..Params::hosts(hosts)
        });
        let d = load(&SourceFile::new("synthetic.toml", text))
            .design
            .unwrap();
        let name = format!("{hosts} hosts, flawed: {flawed}");
        let m = shared_equals_each(&name, &d);
        // One profile (and, flawed, every fifth host on standard frames):
        // the same number of computations at any size.
        assert_eq!(m.computed, classes, "{name}");
    }
}
