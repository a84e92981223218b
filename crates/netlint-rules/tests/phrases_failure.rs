//! The failure analysis in words: the phrases of `netlint_rules::phrases::
//! failure` over the facts of `netlint_analysis::failure`, on the
//! reference designs and small cases (moved from the analysis crate when
//! its wording moved here).

use netlint_analysis::failure::{
    parse_unit, requirements, units, Analysis, FailureReport, Requirement, Unit, UnitNameError,
    UnitOptions,
};
use netlint_analysis::{Fabric, Failures, Topology};
use netlint_model::{load, Design, HostId, LinkId, NetworkId, Severity, SourceFile, SwitchId};
use netlint_rules::phrases::failure::{
    host_list, hosts_phrase, unit_name_error, LossWords, RequirementWords, UnitWords,
};
use netlint_rules::phrases::stp::tree_change;

fn design(src: &str) -> Design {
    let l = load(&SourceFile::new("t.toml", src));
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    l.design.unwrap()
}

fn reference(name: &str) -> Design {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/reference")
        .join(name);
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    design(&text)
}

/// Two switches on one link; `MEMBERS` is replaced by the cable count.
const LINE: &str = include_str!("../../netlint-analysis/testdata/line.toml");

fn report(d: &Design) -> FailureReport {
    let t = Topology::build(d);
    let fab = Fabric::new(d, &t);
    let healthy = fab.forwarding(d, &t, &Failures::default());
    FailureReport::build(d, &t, &fab, &healthy)
}

#[test]
fn dedicated_10g_loses_csv_alone_with_sw10g_a() {
    let d = reference("dedicated-10g.toml");
    let t = Topology::build(&d);
    let fab = Fabric::new(&d, &t);
    let healthy = fab.forwarding(&d, &t, &Failures::default());
    let a = Analysis::new(&d, &t, &fab, &healthy, requirements(&d, true));
    let sw = parse_unit(&d, &t, "sw10g-a").unwrap();
    let sim = a.simulate(&healthy, std::slice::from_ref(&sw));
    let lost: Vec<String> = sim
        .outcome
        .losses
        .iter()
        .map(|l| l.requirement.label(&d))
        .collect();
    assert_eq!(lost, vec!["csv"]);
    let csv = &sim.outcome.losses[0];
    assert_eq!(csv.host_ids().len(), 4);
    let g = csv.groups(&d, &t, std::slice::from_ref(&sw));
    assert_eq!(g.len(), 1);
    assert_eq!(
        g[0].why.text,
        "its only adapter `X520-4` is cabled to `sw10g-a`"
    );
    let cluster = sim
        .standings
        .iter()
        .find(|s| s.requirement == Requirement::Cluster)
        .unwrap();
    assert!(!cluster.lost);
    let names = |v: &[NetworkId]| {
        v.iter()
            .map(|n| d.network(*n).name.as_str())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&cluster.networks_lost), vec!["csv"]);
    assert_eq!(names(&cluster.networks_kept), vec!["management", "lm"]);
    let lm = sim
        .standings
        .iter()
        .find(|s| s.requirement == Requirement::LiveMigration)
        .unwrap();
    assert!(!lm.lost);
    // The isolated 10G pair elects sw10g-b once sw10g-a is gone.
    assert!(
        sim.trees.iter().any(|t| tree_change(&healthy.stp, t)
            .1
            .iter()
            .any(|c| c == "`sw10g-b` becomes root")),
        "{:#?}",
        sim.trees
    );
    assert!(sim
        .down
        .iter()
        .any(|p| d.link(t.ports[*p].link).name == "isl-10g"));
}

#[test]
fn broken_basics_card_and_switch_single_points() {
    let d = reference("broken-basics.toml");
    let t = Topology::build(&d);
    let r = report(&d);
    let mut seen: Vec<(String, String, Severity, usize)> = Vec::new();
    for u in &r.results {
        for l in &u.outcome.losses {
            seen.push((
                u.unit.cli_name(&d, &t),
                l.requirement.label(&d),
                l.requirement.severity(&d),
                l.hosts.len(),
            ));
        }
    }
    let has = |unit: &str, req: &str, sev: Severity| {
        seen.iter()
            .any(|(u, r, s, n)| u == unit && r == req && *s == sev && *n == 1)
    };
    for h in ["hv1", "hv2", "hv3"] {
        assert!(
            has(&format!("{h}:card:pci1"), "vm", Severity::Error),
            "{seen:#?}"
        );
        assert!(
            has(&format!("{h}:card:lom"), "mgmt", Severity::Warning),
            "{seen:#?}"
        );
    }
    assert!(seen.iter().any(|(u, r, s, n)| u == "storage-sw"
        && r == "storage (smb)"
        && *s == Severity::Error
        && *n == 3));
    // No edge switch is a single point: every team and network spans both.
    assert!(
        !seen.iter().any(|(u, ..)| u == "edge-a" || u == "edge-b"),
        "{seen:#?}"
    );
    // The card's message names the team's members.
    let card = r
        .results
        .iter()
        .find(|u| u.unit.cli_name(&d, &t) == "hv1:card:pci1")
        .unwrap();
    let vm = &card.outcome.losses[0];
    let g = vm.groups(&d, &t, std::slice::from_ref(&card.unit));
    assert_eq!(
        g[0].why.text,
        "team `VMTeam`'s members `P1-1` and `P1-2` are both on card `pci1`"
    );
    assert_eq!(
        vm.consequence(&d, &g[0].hosts),
        "host `hv1` loses network `vm`"
    );
    assert_eq!(
        g[0].elements,
        vec![netlint_model::Element::vswitch("hv1", "VMSwitch")]
    );
}

#[test]
fn a_stack_is_redundant_member_by_member_but_not_as_a_whole() {
    let d = reference("eight-by-1g.toml");
    let t = Topology::build(&d);
    let r = report(&d);
    assert!(r.results.is_empty(), "{:#?}", r.results);
    assert_eq!(r.stacks.len(), 1);
    let labels: Vec<String> = r.stacks[0]
        .extra
        .iter()
        .map(|l| l.requirement.label(&d))
        .collect();
    assert_eq!(labels, vec!["mgmt", "vm", "cluster group"]);
    assert_eq!(t.bridge(r.stacks[0].bridge).name, "s1");
    // As a unit, the stack takes everything.
    let u = units(
        &d,
        &t,
        UnitOptions {
            stack_as_unit: true,
            nic_ports: false,
        },
    );
    assert_eq!(u[0], Unit::Bridge(r.stacks[0].bridge));
    assert!(!u.contains(&Unit::Switch(SwitchId(0))));
}

#[test]
fn a_one_cable_link_splits_the_network() {
    let d = design(&LINE.replace("MEMBERS", ""));
    let t = Topology::build(&d);
    let fab = Fabric::new(&d, &t);
    let healthy = fab.forwarding(&d, &t, &Failures::default());
    let a = Analysis::new(&d, &t, &fab, &healthy, requirements(&d, false));
    let unit = Unit::Cable(LinkId(0), 0);
    let o = a.evaluate_unit(&unit);
    assert_eq!(o.losses.len(), 1);
    let l = &o.losses[0];
    // h1's team spans both switches: its members end in two parts now;
    // h3, alone on b, is cut off too; h2 and h4 on a still reach each
    // other.
    assert_eq!(l.pairs.len(), 5);
    assert_eq!(l.host_ids(), vec![HostId(0), HostId(2)]);
    assert!(l.split.is_empty());
    let g = l.groups(&d, &t, std::slice::from_ref(&unit));
    assert!(
        g.iter()
            .any(|g| g.why.text == "no path is left between `a` and `b`"),
        "{g:#?}"
    );
    assert!(g.iter().all(|g| g.why.span == d.links[0].members.span));
    assert_eq!(
        l.consequence(&d, &[HostId(0), HostId(2)]),
        "hosts `h1`, `h3` lose network `vm`"
    );
    // With two cables it only loses capacity.
    let d = design(&LINE.replace("MEMBERS", "members = 2"));
    let t = Topology::build(&d);
    let fab = Fabric::new(&d, &t);
    let healthy = fab.forwarding(&d, &t, &Failures::default());
    let a = Analysis::new(&d, &t, &fab, &healthy, requirements(&d, true));
    let sim = a.simulate(&healthy, &[Unit::Cable(LinkId(0), 1)]);
    assert!(sim.outcome.losses.is_empty());
    assert_eq!(sim.degraded.len(), 1);
    assert_eq!(sim.degraded[0].members_left, 1);
    // 20G -> 10G across `ab`, but no pair of these hosts sends more than
    // 10G to the other side (a single 10G adapter at one end of each pair
    // across it): no pair is slower for them.
    assert!(sim.slower.is_empty(), "{:?}", sim.slower);
}

#[test]
fn units_and_names_round_trip() {
    let d = reference("dedicated-10g.toml");
    let t = Topology::build(&d);
    let all = units(
        &d,
        &t,
        UnitOptions {
            stack_as_unit: false,
            nic_ports: true,
        },
    );
    // 5 switches, 4 links of 2 cables, per host 4 cards and 4 ports of the
    // two dual-port cards.
    assert_eq!(all.len(), 5 + 8 + 4 * (4 + 4));
    for u in &all {
        let name = u.cli_name(&d, &t);
        assert_eq!(&parse_unit(&d, &t, &name).unwrap(), u, "{name}");
    }
    assert_eq!(
        parse_unit(&d, &t, "isl-10g").unwrap(),
        Unit::Link(d.link_by_name("isl-10g").unwrap())
    );
    let e = parse_unit(&d, &t, "sw10g-c").unwrap_err();
    assert_eq!(
        e,
        UnitNameError::Unknown {
            name: "sw10g-c".into(),
            nearest: Some("sw10g-a".into())
        }
    );
    assert!(
        unit_name_error(&e).contains("did you mean `sw10g-a`?"),
        "{e:?}"
    );
    let e = parse_unit(&d, &t, "hv01:card:slot9").unwrap_err();
    assert!(
        unit_name_error(&e).contains("no card of hv01 named `slot9`"),
        "{e:?}"
    );
    let e = parse_unit(&d, &t, "isl-10g#3").unwrap_err();
    assert!(unit_name_error(&e).contains("has 2 cables"), "{e:?}");
    assert_eq!(
        Unit::Card(HostId(0), "slot4".into()).describe(&d, &t),
        "card `slot4` of `hv01` (`X520-4`)"
    );
}

#[test]
fn host_lists_compress_runs() {
    let d = design(
        r#"
[design]
name = "t"
[hosts.hv01]
[hosts.hv02]
[hosts.hv03]
[hosts.hv04]
[hosts.hv05]
[hosts.node-1]
[hosts.node-2]
[hosts.node-3]
"#,
    );
    let ids = |v: &[usize]| v.iter().map(|i| HostId(*i)).collect::<Vec<_>>();
    assert_eq!(host_list(&d, &ids(&[0, 1, 2, 3])), "`hv01` to `hv04`");
    assert_eq!(host_list(&d, &ids(&[0, 1, 3])), "`hv01`, `hv02`, `hv04`");
    assert_eq!(host_list(&d, &ids(&[5, 6, 7])), "`node-1` to `node-3`");
    assert_eq!(hosts_phrase(&d, &ids(&[4])), "host `hv05`");
}

#[test]
fn two_halves_that_keep_talking_inside_are_a_split() {
    let mut src = String::from(
        "[design]\nname = \"halves\"\n[networks.vm]\nrole = \"vm\"\nvlan = 100\n\
         [switches.a]\n[switches.b]\n[[links]]\nname = \"ab\"\na = \"a\"\nb = \"b\"\nspeed = \"10G\"\n",
    );
    for (h, sw) in [("h1", "a"), ("h2", "a"), ("h3", "b"), ("h4", "b")] {
        src.push_str(&format!(
            "[hosts.{h}.nics.N]\nspeed = \"10G\"\nswitch = \"{sw}\"\n[hosts.{h}.vswitches.V]\nuplinks = [\"N\"]\nnetworks = [\"vm\"]\n"
        ));
    }
    let d = design(&src);
    let t = Topology::build(&d);
    let fab = Fabric::new(&d, &t);
    let healthy = fab.forwarding(&d, &t, &Failures::default());
    let a = Analysis::new(&d, &t, &fab, &healthy, requirements(&d, false));
    let unit = Unit::Cable(LinkId(0), 0);
    let o = a.evaluate_unit(&unit);
    assert_eq!(o.losses.len(), 1);
    let l = &o.losses[0];
    assert_eq!(l.pairs.len(), 4);
    assert_eq!(
        l.split,
        vec![vec![HostId(0), HostId(1)], vec![HostId(2), HostId(3)]]
    );
    let g = l.groups(&d, &t, std::slice::from_ref(&unit));
    assert_eq!(g.len(), 1, "{g:#?}");
    assert_eq!(g[0].why.text, "no path is left between `a` and `b`");
    assert_eq!(
        g[0].elements,
        vec![netlint_model::Element::Link("ab".into()); 4]
    );
    assert_eq!(
        l.consequence(&d, &g[0].hosts),
        "network `vm` splits between `h1`, `h2` | `h3`, `h4`"
    );
}
