//! Findings carry their subjects: a cause shared by hosts built alike is one
//! finding about each of them, never several findings with one text (the
//! engine no longer de-duplicates by message).

use netlint::run::{check_source, CheckSettings};
use netlint_model::SourceFile;
use netlint_synth::{generate, Params};
use std::collections::BTreeSet;
use std::path::Path;

fn assert_one_finding_per_cause(name: &str, text: String) -> usize {
    let file = SourceFile::new(name, text);
    let (diags, _, _) = check_source(&file, None, &CheckSettings::default());
    let mut causes = BTreeSet::new();
    let mut shared = 0;
    for d in &diags {
        assert!(!d.subjects.is_empty(), "{name}: {d:#?}");
        let span = d.primary.as_ref().map(|p| p.span);
        assert!(
            causes.insert((d.rule.clone(), span, d.message.clone())),
            "{name}: two findings of `{}` with one text at one place: {}",
            d.rule,
            d.message
        );
        shared += usize::from(d.subjects.len() > 1);
    }
    shared
}

#[test]
fn every_cause_is_one_finding_in_the_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut shared = 0;
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "toml") {
            n += 1;
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            shared += assert_one_finding_per_cause(&name, std::fs::read_to_string(&p).unwrap());
        }
    }
    assert!(n > 40, "{n}");
    assert!(shared > 0, "no fixture has a finding shared by hosts");
}

#[test]
fn hosts_built_alike_share_their_findings_in_a_flawed_synthetic_design() {
    let text = generate(&Params {
        flawed: true,
        ..Params::hosts(64)
    });
    let shared = assert_one_finding_per_cause("synthetic-64.toml", text);
    assert!(shared > 0);
}

/// Three hosts on one card and one switch, built from one profile: each
/// of spof-switch, spof-nic-card and cluster-network-count is one finding
/// naming the three hosts in the middle of its message. The hosts of
/// `allowed` allow those three rules.
fn three_hosts(allowed: &[&str]) -> String {
    let mut text = String::from(
        r#"
[design]
name = "three"
platform = "windows-server-2022"
[networks.mgmt]
role = "management"
vlan = 10
[networks.vm]
role = "vm"
vlan = 100
[switches.tor-a]
stp = { mode = "rstp", priority = 4096 }
host_ports = { edge = true, bpdu_guard = true }
[profiles.node]
memory_gb = 64
power = "max-performance"
[profiles.node.nics.LOM1]
card = "lom"
speed = "10G"
switch = "tor-a"
networks = ["mgmt", "vm"]
"#,
    );
    for h in ["hv1", "hv2", "hv3"] {
        text.push_str(&format!("[hosts.{h}]\nprofile = \"node\"\n"));
        if allowed.contains(&h) {
            text.push_str(
                "allow = { spof-switch = \"lab\", spof-nic-card = \"lab\", cluster-network-count = \"lab\" }\n",
            );
        }
    }
    text
}

fn report_of(text: String) -> netlint::run::Report {
    let file = SourceFile::new("three.toml", text);
    let (diagnostics, _, fail_on) = check_source(&file, None, &CheckSettings::default());
    netlint::run::Report {
        sources: Vec::new(),
        files: vec![netlint::run::FileReport {
            file,
            diagnostics,
            design: None,
            fail_on,
        }],
        rules: Vec::new(),
    }
}

const MID_LIST_RULES: [&str; 3] = ["spof-switch", "spof-nic-card", "cluster-network-count"];

/// (rule, message, JSON subjects) of the findings of the mid-list rules.
fn mid_list_findings(text: String) -> Vec<(String, String, Vec<String>)> {
    let json = netlint::render::json::render(&report_of(text), 0);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| MID_LIST_RULES.contains(&d["rule"].as_str().unwrap()))
        .map(|d| {
            let subjects = d["subjects"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect();
            (
                d["rule"].as_str().unwrap().to_string(),
                d["message"].as_str().unwrap().to_string(),
                subjects,
            )
        })
        .collect()
}

#[test]
fn json_lists_every_subject_of_a_finding() {
    let found = mid_list_findings(three_hosts(&[]));
    assert_eq!(found.len(), 3, "{found:#?}");
    let (_, message, subjects) = found.iter().find(|f| f.0 == "spof-switch").unwrap();
    assert_eq!(
        subjects,
        &[
            "hosts.hv1.nics.LOM1",
            "hosts.hv2.nics.LOM1",
            "hosts.hv3.nics.LOM1"
        ]
    );
    assert!(
        message.starts_with("if switch `tor-a` fails, hosts `hv1` to `hv3` lose network `vm`"),
        "{message}"
    );
    let (_, _, subjects) = found
        .iter()
        .find(|f| f.0 == "cluster-network-count")
        .unwrap();
    assert_eq!(subjects, &["hosts.hv1", "hosts.hv2", "hosts.hv3"]);
}

#[test]
fn allowing_a_host_takes_it_out_of_the_message_and_the_subjects() {
    let found = mid_list_findings(three_hosts(&["hv2"]));
    let message = |rule: &str| {
        let f = found.iter().find(|f| f.0 == rule).unwrap();
        assert!(
            f.2.iter().all(|s| !s.starts_with("hosts.hv2")),
            "{rule}: {:?}",
            f.2
        );
        assert_eq!(f.2.len(), 2, "{rule}: {:?}", f.2);
        f.1.clone()
    };
    assert_eq!(
        message("spof-switch"),
        "if switch `tor-a` fails, hosts `hv1`, `hv3` lose network `vm` and every cluster network (`mgmt`): its only adapter `LOM1` is cabled to `tor-a`"
    );
    assert_eq!(
        message("spof-nic-card"),
        "if card `lom` fails on any of hosts `hv1`, `hv3`, that host loses network `vm` and every cluster network (`mgmt`): its only adapter `LOM1` is on card `lom`"
    );
    assert_eq!(
        message("cluster-network-count"),
        "hosts `hv1`, `hv3` have one network in the cluster group (`mgmt`): one failure of it ends cluster communication (heartbeats, CSV redirection) for them"
    );

    // One host left: the words agree with it.
    let found = mid_list_findings(three_hosts(&["hv1", "hv3"]));
    let messages: Vec<&str> = found.iter().map(|f| f.1.as_str()).collect();
    assert_eq!(
        messages,
        [
            "if card `lom` fails on host `hv2`, that host loses network `vm` and every cluster network (`mgmt`): its only adapter `LOM1` is on card `lom`",
            "if switch `tor-a` fails, host `hv2` loses network `vm` and every cluster network (`mgmt`): its only adapter `LOM1` is cabled to `tor-a`",
            "host `hv2` has one network in the cluster group (`mgmt`): one failure of it ends cluster communication (heartbeats, CSV redirection) for it",
        ]
    );

    // Every host allowed: no finding is left.
    assert_eq!(mid_list_findings(three_hosts(&["hv1", "hv2", "hv3"])), []);
}
