//! Input rules docs/format.md states, enforced by the loader: each bad
//! input is a `schema` error at the line that breaks the rule, and the
//! documented meanings load cleanly.

mod common;

use common::diags;
use netlint_model::{load, SourceFile, SCHEMA};

/// The errors of a design, each a `schema` error: (line, message).
fn errors(text: &str) -> Vec<(usize, String)> {
    let file = SourceFile::new("d.toml", text);
    assert!(load(&file).diagnostics.iter().all(|d| d.rule == SCHEMA));
    diags(text)
}

fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).unwrap() + 1
}

const HEAD: &str = "[design]\nname = \"d\"\n[networks.mgmt]\nrole = \"management\"\n";

#[test]
fn pinned_uplinks_must_be_uplinks_of_the_vswitch() {
    let text = HEAD.to_string()
        + r#"[hosts.h.nics.A]
speed = "10G"
[hosts.h.nics.B]
speed = "10G"
[hosts.h.nics.C]
speed = "10G"
[hosts.h.vswitches.vs]
uplinks = ["A", "B"]
[hosts.h.vswitches.vs.vnics.v]
network = "mgmt"
active_uplinks = ["A"]
standby_uplinks = ["C"]
"#;
    let errs = errors(&text);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].0, line_of(&text, "standby_uplinks"));
    assert_eq!(
        errs[0].1,
        "`standby_uplinks` of vNIC `v` names NIC `C`, which is not an uplink of virtual switch `vs`"
    );
}

#[test]
fn members_of_a_team_uplink_may_be_pinned() {
    let text = HEAD.to_string()
        + r#"[hosts.h.nics.A]
speed = "10G"
[hosts.h.nics.B]
speed = "10G"
[hosts.h.teams.T]
members = ["A", "B"]
[hosts.h.vswitches.vs]
uplinks = ["T"]
[hosts.h.vswitches.vs.vnics.v]
network = "mgmt"
active_uplinks = ["A"]
"#;
    assert_eq!(errors(&text), vec![]);
}

#[test]
fn a_team_needs_members() {
    let text = HEAD.to_string()
        + r#"[hosts.h.nics.A]
speed = "10G"
[hosts.h.teams.T]
members = []
"#;
    let errs = errors(&text);
    assert_eq!(
        errs,
        vec![(
            line_of(&text, "members"),
            "team `T` has no members".to_string()
        )]
    );
}

const TWO_HOSTS: &str = r#"[hosts.h1.nics.A]
speed = "25G"
[hosts.h1.nics.B]
speed = "25G"
[hosts.h2.nics.A]
speed = "25G"
[hosts.h3.nics.A]
speed = "25G"
"#;

#[test]
fn two_nics_cannot_both_be_cabled_to_one_nic() {
    let text = HEAD.to_string()
        + &TWO_HOSTS
            .replace(
                "[hosts.h2.nics.A]\nspeed = \"25G\"\n",
                "[hosts.h2.nics.A]\nspeed = \"25G\"\npeer = \"h1:A\"\n",
            )
            .replace(
                "[hosts.h3.nics.A]\nspeed = \"25G\"\n",
                "[hosts.h3.nics.A]\nspeed = \"25G\"\npeer = \"h1:A\"\n",
            );
    let errs = errors(&text);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].0, line_of(&text, "[hosts.h3.nics.A]") + 2);
    assert_eq!(
        errs[0].1,
        "`h3:A` and `h2:A` both declare a `peer` cable to `h1:A`"
    );
}

#[test]
fn a_peer_cable_joins_two_hosts() {
    let text = HEAD.to_string()
        + &TWO_HOSTS.replace(
            "[hosts.h1.nics.B]\nspeed = \"25G\"\n",
            "[hosts.h1.nics.B]\nspeed = \"25G\"\npeer = \"h1:A\"\n",
        );
    let errs = errors(&text);
    assert_eq!(
        errs,
        vec![(
            line_of(&text, "peer ="),
            "the `peer` cable from `h1:B` to `h1:A` joins two NICs of one host".to_string()
        )]
    );
}

#[test]
fn one_sided_peer_cables_still_load() {
    let text = HEAD.to_string()
        + &TWO_HOSTS.replace(
            "[hosts.h2.nics.A]\nspeed = \"25G\"\n",
            "[hosts.h2.nics.A]\nspeed = \"25G\"\npeer = \"h1:A\"\n",
        );
    assert_eq!(errors(&text), vec![]);
}

fn switches(a: &str, b: &str, c: &str, kind: &str) -> String {
    format!(
        "{HEAD}[switches.s1]\n{a}\n[switches.s2]\n{b}\n[switches.s3]\n{c}\n[[links]]\na = \"s1\"\nb = \"s2\"\nspeed = \"10G\"\n{kind}\n"
    )
}

#[test]
fn a_stacking_cable_joins_members_of_one_stack() {
    let text = switches("stack = \"x\"", "stack = \"y\"", "", "kind = \"stack\"");
    let errs = errors(&text);
    assert_eq!(
        errs,
        vec![(
            line_of(&text, "kind ="),
            "stacking cable `s1--s2` joins `s1` (in stack `x`) and `s2` (in stack `y`), which share no stack".to_string()
        )]
    );
    let text = switches("stack = \"x\"", "", "", "kind = \"stack\"");
    assert_eq!(errors(&text).len(), 1);
    // Documented: a stacking cable between switches naming no stack makes them one.
    assert_eq!(errors(&switches("", "", "", "kind = \"stack\"")), vec![]);
    assert_eq!(
        errors(&switches(
            "stack = \"x\"",
            "stack = \"x\"",
            "",
            "kind = \"stack\""
        )),
        vec![]
    );
}

#[test]
fn a_peer_link_joins_the_two_peers_of_one_domain() {
    // The two peers of `m` and a third switch: a peer-link to it would make
    // a three-member domain.
    let text = switches("mlag = \"m\"", "", "mlag = \"m\"", "kind = \"peer-link\"");
    let errs = errors(&text);
    assert_eq!(
        errs,
        vec![(
            line_of(&text, "kind ="),
            "peer-link `s1--s2` joins `s1` (in mlag `m`) and `s2` (no `mlag`), which share no mlag"
                .to_string()
        )]
    );
    assert_eq!(
        errors(&switches(
            "mlag = \"m\"",
            "mlag = \"m\"",
            "",
            "kind = \"peer-link\""
        )),
        vec![]
    );
    // Unnamed peers: the peer-link names the domain, of two switches only.
    assert_eq!(
        errors(&switches("", "", "", "kind = \"peer-link\"")),
        vec![]
    );
    let three = switches("", "", "", "kind = \"peer-link\"")
        + "[[links]]\na = \"s2\"\nb = \"s3\"\nspeed = \"10G\"\nkind = \"peer-link\"\n";
    let errs = errors(&three);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(
        errs[0].1,
        "peer-link `s2--s3` gives `s2` a second MLAG peer, `s3`, besides `s1`"
    );
}

#[test]
fn a_plain_link_between_mlag_peers_is_an_error() {
    let text = switches("mlag = \"m\"", "mlag = \"m\"", "", "");
    let errs = errors(&text);
    assert_eq!(
        errs,
        vec![(
            line_of(&text, "[[links]]"),
            "link `s1--s2` joins `s1` and `s2`, the peers of MLAG domain `m`, as a plain link"
                .to_string()
        )]
    );
}
