//! Redundancy rules: single points of failure, partitions, fallbacks.
//!
//! The `spof-*` rules and `lm-no-fallback` read the failure analysis
//! (`cx.failures()`): every single failure unit evaluated against what the
//! format's role table says must survive. They differ in which units they
//! report and how they advise; the wording is shared here.

use crate::phrases::failure::{around_hosts, LossGroup, LossWords, RequirementWords, UnitWords};
use crate::phrases::words::{and_list, with_host_words};
use crate::rules::located::{profile_line, Lines};
use crate::{Context, Rule};
use netlint_analysis::failure::{CarrierLoss, Loss, Requirement, Unit};
use netlint_model::Element;
use netlint_model::{Diagnostic, Host, HostId, NetworkId, Severity, Span};
use std::collections::{BTreeMap, BTreeSet};

pub mod cluster_network_count;
pub mod lm_no_fallback;
pub mod mlag_peer_link_vlan;
pub mod network_partitioned;
pub mod spof_link;
pub mod spof_nic_card;
pub mod spof_stack;
pub mod spof_switch;
pub mod storage_unreachable;

pub static RULES: &[&Rule] = &[
    &network_partitioned::RULE,
    &mlag_peer_link_vlan::RULE,
    &spof_switch::RULE,
    &spof_nic_card::RULE,
    &spof_link::RULE,
    &spof_stack::RULE,
    &cluster_network_count::RULE,
    &lm_no_fallback::RULE,
    &storage_unreachable::RULE,
];

/// One finding, before it becomes a diagnostic per host: a failure, the
/// hosts it cuts off for one reason, and everything they lose.
struct Pending {
    unit: Unit,
    /// The hosts named, in design order.
    hosts: Vec<HostId>,
    /// What they lose, worst first: "network `vm`", "every cluster network
    /// (...)"; or, for a split, the whole consequence.
    whats: Vec<(Severity, String)>,
    split: Option<String>,
    why: String,
    span: Span,
    related: Vec<(Span, String)>,
    elements: Vec<Element>,
    help: String,
    /// The same card failing alike on several hosts: one finding.
    card_hosts: Vec<HostId>,
    /// Networks of what they lose that are cut already with nothing
    /// failed (`network-partitioned` or `stp-vlan-partition` says where):
    /// the failure takes the last of a group only because of them (issue
    /// 34 item 10).
    already: BTreeSet<NetworkId>,
    /// A split unit ([`Unit::Split`]) whose other choices of the part
    /// keeping the LAGs (the vPC primary) lose the same: said once, for
    /// either choice.
    any_keep: bool,
}

/// The failed unit of a finding in words: a split unit that loses the same
/// whichever part keeps the LAGs says so instead of naming one.
fn unit_words(cx: &Context<'_>, p: &Pending) -> String {
    if p.any_keep {
        crate::phrases::failure::split_either_words(cx.design, cx.topology(), &p.unit)
    } else {
        p.unit.describe(cx.design, cx.topology())
    }
}

/// Findings for the losses of the units `pick` selects: one per unit and
/// reason (span and text), listing every network or group that reason
/// takes from the hosts it names, about each named host's element. The same card
/// failing the same way on several hosts (a profile's card line) is one
/// finding naming every host.
pub(crate) fn unit_findings(
    cx: &Context<'_>,
    rule: &Rule,
    pick: impl Fn(&Unit) -> bool,
    live_migration: bool,
    help: impl Fn(&Unit, &Loss, &LossGroup) -> String,
    out: &mut Vec<Diagnostic>,
) {
    let design = cx.design;
    let topo = cx.topology();
    let mut pending: Vec<Pending> = Vec::new();
    // "every live-migration network (lm, csv)" looks at every host: worded
    // once per requirement, not once per loss.
    let mut described: Vec<(Requirement, String)> = Vec::new();
    let mut describe = |r: &Requirement| -> String {
        if let Some((_, text)) = described.iter().find(|(x, _)| x == r) {
            return text.clone();
        }
        let text = r.describe(design);
        described.push((r.clone(), text.clone()));
        text
    };
    // Whether a network is cut among its hosts with nothing failed.
    let mut cut: BTreeMap<NetworkId, bool> = BTreeMap::new();
    let mut cut_healthy = |n: NetworkId| -> bool {
        *cut.entry(n).or_insert_with(|| {
            let hosts: BTreeSet<HostId> = topo.hosts_on(n).into_iter().collect();
            cx.reachability().reach_groups(n, &hosts).len() > 1
        })
    };
    // Host-target pairs already cut on some network with nothing failed:
    // `storage-unreachable` says so at its cause, and what a single
    // failure then takes follows from it (one cause, one finding).
    let target_cut: BTreeSet<(netlint_model::TargetId, HostId)> = cx
        .target_reach()
        .iter()
        .filter(|r| r.broken.is_some())
        .map(|r| (r.target, r.host))
        .collect();
    for result in cx.failures().of(|u| pick(u)) {
        let unit = &result.unit;
        let mut items: Vec<Pending> = Vec::new();
        for loss in &result.outcome.losses {
            if (loss.requirement == Requirement::LiveMigration) != live_migration {
                continue;
            }
            let severity = if live_migration {
                rule.meta.default_severity
            } else {
                loss.requirement.severity(design)
            };
            let already: BTreeSet<NetworkId> = {
                let nets = loss.requirement.networks(design);
                if nets.len() > 1 {
                    nets.into_iter().filter(|n| cut_healthy(*n)).collect()
                } else {
                    BTreeSet::new()
                }
            };
            for group in loss.groups(design, topo, std::slice::from_ref(unit)) {
                if let Requirement::Target(t) = loss.requirement {
                    if group.hosts.iter().all(|h| target_cut.contains(&(t, *h))) {
                        continue;
                    }
                }
                let what = describe(&loss.requirement);
                let split =
                    (!loss.split.is_empty()).then(|| loss.consequence(design, &group.hosts));
                if split.is_none() {
                    if let Some(p) = items.iter_mut().find(|p| {
                        p.split.is_none()
                            && p.hosts == group.hosts
                            && p.span == group.why.span
                            && p.why == group.why.text
                    }) {
                        p.whats.push((severity, what));
                        p.already.extend(already.iter().copied());
                        continue;
                    }
                }
                items.push(Pending {
                    unit: unit.clone(),
                    hosts: group.hosts.clone(),
                    whats: vec![(severity, what)],
                    split,
                    why: group.why.text.clone(),
                    span: group.why.span,
                    related: group.why.related.clone(),
                    elements: group.elements.clone(),
                    help: crate::phrases::storage::target_side_help(design, loss, &group.hosts)
                        .or_else(|| crate::phrases::ports::port_loss_help(design, loss, &group))
                        .unwrap_or_else(|| help(unit, loss, &group)),
                    card_hosts: Vec::new(),
                    already: already.clone(),
                    any_keep: false,
                });
            }
        }
        for mut item in items {
            item.whats.sort_by_key(|(s, _)| std::cmp::Reverse(*s));
            let same_card = |p: &Pending| match (&p.unit, &item.unit) {
                (Unit::Card(h1, c1), Unit::Card(h2, c2)) => {
                    c1 == c2
                        && p.hosts == [*h1]
                        && item.hosts == [*h2]
                        && p.split.is_none()
                        && item.split.is_none()
                        && p.whats == item.whats
                        && p.span == item.span
                        && p.why == item.why
                }
                _ => false,
            };
            // The same loss whichever part keeps the LAGs: one finding.
            let same_split = |p: &Pending| match (&p.unit, &item.unit) {
                (
                    Unit::Split {
                        link: l1,
                        cable: c1,
                        ..
                    },
                    Unit::Split {
                        link: l2,
                        cable: c2,
                        ..
                    },
                ) => {
                    l1 == l2
                        && c1 == c2
                        && p.hosts == item.hosts
                        && p.split == item.split
                        && p.whats == item.whats
                        && p.span == item.span
                        && p.why == item.why
                }
                _ => false,
            };
            if let Some(p) = pending.iter_mut().find(|p| same_split(p)) {
                p.any_keep = true;
                continue;
            }
            match pending.iter_mut().find(|p| same_card(p)) {
                Some(p) => {
                    p.card_hosts.extend(item.hosts.iter().copied());
                    p.elements.extend(item.elements);
                }
                None => {
                    item.card_hosts = item.hosts.clone();
                    pending.push(item);
                }
            }
        }
    }
    for p in pending {
        let merged = matches!(p.unit, Unit::Card(..)) && p.card_hosts.len() > 1;
        let whats: Vec<String> = p.whats.iter().map(|(_, w)| w.clone()).collect();
        // vMotion when every host named runs vSphere.
        let tail = if !live_migration {
            ""
        } else if p
            .card_hosts
            .iter()
            .chain(&p.hosts)
            .all(|h| design.host(*h).os.value.is_vsphere())
        {
            ", so vMotion has nowhere to go"
        } else {
            ", so live migration has nowhere to go"
        };
        // A network of the group already cut is why one failure takes it
        // all: said (the rule that names the cut depends on its cause).
        let already = match p.already.len() {
            0 => String::new(),
            _ => {
                let names: Vec<String> = p
                    .already
                    .iter()
                    .map(|n| format!("`{}`", design.network(*n).name))
                    .collect();
                format!(
                    " (and {} {} cut already with nothing failed)",
                    and_list(&names),
                    if names.len() == 1 { "is" } else { "are" }
                )
            }
        };
        // The message names its hosts through `HostWords`, so that `allow`
        // taking some of them away writes it again from those left.
        let (message, words) = match &p.split {
            // A split names groups of hosts, not its subjects: fixed words.
            Some(split) => {
                let when = format!("if {} fails", unit_words(cx, &p));
                (format!("{when}, {split}: {}", p.why), None)
            }
            None if merged => {
                let (card, word) = card_words(cx, &p.unit, card_of(&p.unit));
                let after = format!(
                    ", that host loses {}{tail}: {}{already}",
                    and_list(&whats),
                    p.why
                );
                let words = around_hosts(
                    design,
                    &p.card_hosts,
                    (format!("if {word} `{card}` fails on "), after.clone()),
                    (format!("if {word} `{card}` fails on any of "), after),
                );
                (String::new(), Some(words))
            }
            None => {
                let before = format!("if {} fails, ", unit_words(cx, &p));
                let after =
                    |verb: &str| format!(" {verb} {}{tail}: {}{already}", and_list(&whats), p.why);
                let words = around_hosts(
                    design,
                    &p.hosts,
                    (before.clone(), after("loses")),
                    (before, after("lose")),
                );
                (String::new(), Some(words))
            }
        };
        let severity = p
            .whats
            .iter()
            .map(|(s, _)| *s)
            .max()
            .unwrap_or(Severity::Info);
        // A host's override among the lines that explain it (one host's
        // card or cable made different) is where the user must look.
        let concerned: Vec<&Host> = if merged { &p.card_hosts } else { &p.hosts }
            .iter()
            .map(|h| design.host(*h))
            .collect();
        let mut lines = Lines::new(
            p.span,
            concerned
                .first()
                .map(|h| profile_line(h))
                .unwrap_or_default(),
        );
        for (span, label) in &p.related {
            lines = lines.and(*span, label.clone());
        }
        let (span, related) = lines.for_hosts(concerned);
        let Some(first) = p.elements.first() else {
            continue;
        };
        let mut d = cx
            .finding_at(rule, severity, first.clone(), span, message)
            .with_subjects(p.elements)
            .with_help(p.help);
        if let Some(words) = words {
            d = with_host_words(d, words);
        }
        for (span, label) in related {
            d = d.with_related(span, label);
        }
        out.push(d);
    }
}

fn card_of(unit: &Unit) -> &str {
    match unit {
        Unit::Card(_, c) => c,
        _ => "",
    }
}

/// ("pci1", "card") or, for a NIC that is its own card, ("P4-1", "NIC").
fn card_words<'u>(cx: &Context<'_>, unit: &Unit, card: &'u str) -> (&'u str, &'static str) {
    if let Unit::Card(h, _) = unit {
        let host = cx.design.host(*h);
        let ports: Vec<_> = host.nics.iter().filter(|n| n.card.value == card).collect();
        if ports.len() == 1 && ports[0].name == card {
            return (card, "NIC");
        }
    }
    (card, "card")
}

/// The owner and NICs of the first dead carrier of a group's first host,
/// for advice: ("team `VMTeam`", ["LOM2", "PCI6-2"]) or (None, ["X520-4"]).
pub(crate) fn first_dead(cx: &Context<'_>, loss: &Loss, group: &LossGroup) -> Option<DeadCarrier> {
    let host = group.hosts.first()?;
    let hl = loss.hosts.iter().find(|h| h.host == *host)?;
    let first = hl
        .carriers
        .iter()
        .find(|c| matches!(c.loss, CarrierLoss::Dead { .. }))?;
    // Every NIC of the dead carriers of that network (a network on two
    // plain NICs is two carriers).
    let mut nics: Vec<String> = Vec::new();
    for c in hl.carriers.iter().filter(|c| c.network == first.network) {
        if let CarrierLoss::Dead { nics: n } = &c.loss {
            for (nic, _) in n {
                let name = cx.design.host(*host).nic(*nic).name.clone();
                if !nics.contains(&name) {
                    nics.push(name);
                }
            }
        }
    }
    Some(DeadCarrier {
        several: nics.len() > 1,
        nics,
    })
}

pub(crate) struct DeadCarrier {
    /// More than one NIC went down together.
    pub several: bool,
    pub nics: Vec<String>,
}

/// "`a`", "`a` and `b`".
pub(crate) fn quoted_list(items: &[String]) -> String {
    let q: Vec<String> = items.iter().map(|s| format!("`{s}`")).collect();
    match q.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
pub(crate) mod test_designs {
    /// Azure Local switched storage: four nodes, `smb1` (VLAN 711) on each
    /// node's NIC `A` to TOR1, `smb2` (VLAN 712) on NIC `B` to TOR2, whose
    /// VLANs are `TOR2_VLANS` (issue 34 item 10: `[711]`, TOR2 lacks 712).
    pub const SWITCHED_STORAGE: &str = r#"
[design]
name = "azl"
platform = "azure-local"
[networks.smb1]
role = "storage"
protocol = "smb"
vlan = 711
[networks.smb2]
role = "storage"
protocol = "smb"
vlan = 712
[switches.TOR1]
vlans = [711, 712]
mlag = "vpc"
[switches.TOR2]
vlans = TOR2_VLANS
mlag = "vpc"
[[links]]
name = "peer"
a = "TOR1"
b = "TOR2"
kind = "peer-link"
speed = "100G"
[profiles.node.nics.A]
speed = "25G"
switch = "TOR1"
networks = ["smb1"]
[profiles.node.nics.B]
speed = "25G"
switch = "TOR2"
networks = ["smb2"]
[hosts.node1]
profile = "node"
[hosts.node2]
profile = "node"
[hosts.node3]
profile = "node"
[hosts.node4]
profile = "node"
"#;

    /// Two hosts, a VM team on two ports of one card cabled to one switch,
    /// management on a second card and switch.
    pub const ONE_CARD_ONE_SWITCH: &str = r#"
[design]
name = "t"
[networks.mgmt]
role = "management"
vlan = 10
[networks.vm]
role = "vm"
vlan = 100
[switches.tor-a]
[switches.tor-b]
[[links]]
name = "isl"
a = "tor-a"
b = "tor-b"
speed = "10G"
members = 2
[profiles.p.nics.P1-1]
card = "pci1"
speed = "10G"
switch = "tor-a"
[profiles.p.nics.P1-2]
card = "pci1"
speed = "10G"
switch = "SWITCH"
[profiles.p.nics.LOM1]
card = "lom"
speed = "1G"
switch = "tor-a"
networks = ["mgmt"]
[profiles.p.nics.LOM2]
card = "lom2"
speed = "1G"
switch = "tor-b"
networks = ["mgmt"]
[profiles.p.teams.VMTeam]
members = ["P1-1", "P1-2"]
[profiles.p.vswitches.VMSwitch]
uplinks = ["VMTeam"]
networks = ["vm"]
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
[hosts.hv3]
profile = "p"
"#;
}
