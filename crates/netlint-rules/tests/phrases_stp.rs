//! The spanning-tree analysis in words: tree names, root reasons, port
//! reasons and a scenario's tree changes, worded by
//! `netlint_rules::phrases::stp` over the facts of `netlint_analysis::stp`
//! (moved from the analysis crate's tests with the words).

use netlint_analysis::failure::{requirements, Analysis, Unit};
use netlint_analysis::stp::{End, PortRef, PortRole, CIST};
use netlint_analysis::{Fabric, Failures, Topology};
use netlint_model::{load, Design, SourceFile};
use netlint_rules::phrases::stp::{tree_change, StpWords};

fn fixture(name: &str) -> Design {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures")
        .join(name);
    let text = std::fs::read_to_string(path).unwrap();
    let l = load(&SourceFile::new(name, text));
    l.design.unwrap()
}

#[test]
fn the_rstp_triangle_in_words() {
    let d = fixture("rstp-triangle.toml");
    let t = Topology::build(&d);
    let fab = Fabric::new(&d, &t);
    let healthy = fab.forwarding(&d, &t, &Failures::default());
    let stp = &healthy.stp;
    let tor_b = (0..t.bridges.len())
        .find(|b| stp.bridge_name(*b) == "tor-b")
        .unwrap();
    assert_eq!(
        stp.tree_label(CIST, Some(tor_b)),
        "the RSTP tree rooted at core-1"
    );
    assert_eq!(stp.tree_label(CIST, None), "the RSTP tree rooted at core-1");
    assert_eq!(
        stp.root_message(CIST, tor_b).unwrap(),
        "core-1 is root on its priority 4096"
    );
    // Every port's reason reads as its role, then why.
    let mut alternates = Vec::new();
    for link in 0..stp.cist().ports.len() {
        for end in [End::A, End::B] {
            let Some(ex) = stp.explain_port(CIST, PortRef::new(link, end)) else {
                continue;
            };
            let why = stp.port_reason(&ex);
            assert!(why.starts_with(ex.role.as_str()), "{why}");
            if ex.role == PortRole::Alternate {
                alternates.push(why);
            }
        }
    }
    assert_eq!(alternates.len(), 1, "{alternates:?}");
    assert!(
        alternates[0].starts_with("alternate: receives root path cost "),
        "{alternates:?}"
    );
    // A failed core uplink: the tree changes in words.
    let a = Analysis::new(&d, &t, &fab, &healthy, requirements(&d, true));
    let uplink = d
        .links
        .iter()
        .position(|l| l.name != "isl")
        .map(|i| Unit::Cable(netlint_model::LinkId(i), 0))
        .unwrap();
    let sim = a.simulate(&healthy, &[uplink]);
    let (tree, changes) = tree_change(stp, &sim.trees[0]);
    assert_eq!(tree, "the RSTP tree rooted at core-1");
    assert!(
        changes
            .iter()
            .any(|c| c.starts_with("link `isl` starts forwarding (was alternate at `")),
        "{changes:?}"
    );
}

#[test]
fn the_mstp_triangle_names_its_instances() {
    let d = fixture("mstp-triangle.toml");
    let t = Topology::build(&d);
    let fab = Fabric::new(&d, &t);
    let healthy = fab.forwarding(&d, &t, &Failures::default());
    let stp = &healthy.stp;
    let labels: Vec<String> = (0..stp.trees().len())
        .map(|tr| stp.tree_label(tr, None))
        .collect();
    assert!(
        labels[0].starts_with("instance 0 (CIST) rooted at "),
        "{labels:?}"
    );
    assert!(
        labels[1..]
            .iter()
            .all(|l| l.starts_with("instance ") && l.contains(" of region ")),
        "{labels:?}"
    );
}

/// Changes in two bridged domains of one tree, each named by the root of
/// its own component (healthy), never by a bridge of another component
/// such as a router with routed links only.
#[test]
fn each_component_of_a_tree_is_named_by_its_own_root() {
    let src = r#"
[design]
name = "t"
[networks.m]
role = "management"
vlan = 10
[switches.router]
[switches.a1]
stp = { priority = 4096 }
[switches.a2]
stp = { priority = 8192 }
[switches.a3]
[switches.b1]
stp = { priority = 4096 }
[switches.b2]
stp = { priority = 8192 }
[switches.b3]
[[links]]
a = "router"
b = "a1"
kind = "routed"
[[links]]
a = "router"
b = "b1"
kind = "routed"
[[links]]
a = "a1"
b = "a2"
[[links]]
a = "a1"
b = "a3"
[[links]]
a = "a2"
b = "a3"
[[links]]
a = "b1"
b = "b2"
[[links]]
a = "b1"
b = "b3"
[[links]]
a = "b2"
b = "b3"
"#;
    let l = load(&SourceFile::new("t.toml", src));
    let d = l.design.unwrap_or_else(|| panic!("{:#?}", l.diagnostics));
    let t = Topology::build(&d);
    let fab = Fabric::new(&d, &t);
    let healthy = fab.forwarding(&d, &t, &Failures::default());
    let stp = &healthy.stp;
    let a = Analysis::new(&d, &t, &fab, &healthy, requirements(&d, true));
    let unit = |name: &str| {
        let i = d.switches.iter().position(|s| s.name == name).unwrap();
        Unit::Switch(netlint_model::SwitchId(i))
    };
    let sim = a.simulate(&healthy, &[unit("a1"), unit("b1")]);
    let named: Vec<(String, Vec<String>)> = sim.trees.iter().map(|c| tree_change(stp, c)).collect();
    assert_eq!(named.len(), 2, "{named:#?}");
    assert_eq!(named[0].0, "the RSTP tree rooted at a1", "{named:#?}");
    assert_eq!(named[1].0, "the RSTP tree rooted at b1", "{named:#?}");
    assert!(named[0].1.iter().all(|c| !c.contains("`b")), "{named:#?}");
    assert!(
        named[0].1.contains(&"`a2` becomes root".to_string()),
        "{named:#?}"
    );
    assert!(
        named[1].1.contains(&"`b2` becomes root".to_string()),
        "{named:#?}"
    );
}
