//! `vpc-peer-switch-priority`: the peers of a vPC domain with peer-switch
//! run different spanning-tree priorities (the bridge's, a VLAN's or an
//! MSTP instance's), although with peer-switch they act as one root.
//!
//! Cisco requires identical priorities with vPC peer-switch (documents
//! 118858 and 217274), and NX-OS makes peer-switch operational only then;
//! netlint models the domain as one bridge and takes the lowest priority of
//! its peers (`Fabric::new`, `stp_input::apply`), a value the real pair does
//! not present. Only domains that write `peer_switch = true`: Dell VLT
//! documents a unique priority per peer (the primary the root, the
//! secondary the second best), which is no mistake.

use super::and_list;
use crate::rules::fix_at::{switch_table, written};
use crate::{declare_rule, Context};
use netlint_analysis::BridgeKind;
use netlint_model::{
    Design, Diagnostic, Fix, FixEdit, Span, StpMode, Switch, SwitchId, VlanSet,
    DEFAULT_BRIDGE_PRIORITY,
};
use std::collections::{BTreeMap, BTreeSet};

declare_rule!(
    RULE,
    id: "vpc-peer-switch-priority",
    category: "stp",
    severity: Warning,
    summary: "The peers of a vPC domain with peer-switch (one root to spanning tree) run different spanning-tree priorities.",
    check: check,
);

/// Which priority of a peer is compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Scope {
    /// `priority`: the bridge's (RSTP, STP), the CIST's and every instance
    /// not listed (MSTP), every VLAN not listed (PVST+).
    Bridge,
    /// A PVST+ VLAN listed in `vlan_priority` on one of the peers.
    Vlan(u16),
    /// An MSTP instance listed in `instance_priority` on one of the peers.
    Instance(u16),
}

/// A peer's priority in one scope, and the line that sets it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Setting {
    switch: SwitchId,
    value: u32,
    /// The value's line, or where it would be written (its `stp` table, or
    /// the switch) when it is the default.
    span: Span,
    written: bool,
    /// For a VLAN or an instance: the value comes from the peer's own
    /// `vlan_priority` / `instance_priority` entry (else from `priority`).
    own_key: bool,
}

/// Findings are grouped by the kind of scope and the settings compared
/// (peer, value, line of each).
type GroupKey = (u8, Vec<(usize, u32, Span)>);

fn setting(design: &Design, s: SwitchId, scope: Scope) -> Setting {
    let sw = design.switch(s);
    let stp = &sw.stp;
    let keyed = match scope {
        Scope::Bridge => None,
        Scope::Vlan(v) => stp.vlan_priority.get(&v),
        Scope::Instance(i) => stp.instance_priority.get(&i),
    };
    if let Some(p) = keyed {
        return Setting {
            switch: s,
            value: p.value,
            span: p.span,
            written: true,
            own_key: true,
        };
    }
    match &stp.priority {
        Some(p) => Setting {
            switch: s,
            value: p.value,
            span: p.span,
            written: true,
            own_key: false,
        },
        None => Setting {
            switch: s,
            value: DEFAULT_BRIDGE_PRIORITY,
            span: stp.span.unwrap_or(sw.span),
            written: false,
            own_key: false,
        },
    }
}

/// "priority 4096", "priority 32768 (the default: no `priority`)".
fn value_text(s: &Setting) -> String {
    if s.written {
        format!("priority {}", s.value)
    } else {
        format!("priority {} (the default: no `priority` written)", s.value)
    }
}

/// One mismatch: a scope kind with its VLANs or instances, and the peers'
/// settings (the highest first, the one the fix changes).
struct Mismatch {
    kind: u8,
    ids: BTreeSet<u16>,
    peers: Vec<Setting>,
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let design = cx.design;
    let topo = cx.topology();
    for bridge in &topo.bridges {
        if bridge.kind != BridgeKind::Mlag || bridge.members.len() < 2 {
            continue;
        }
        let peers: Vec<&Switch> = bridge.members.iter().map(|s| design.switch(*s)).collect();
        if peers.iter().all(|p| p.stp.mode.value == StpMode::None) {
            continue;
        }
        // Only where peer-switch is stated: without it each peer keeps its
        // own bridge ID (a Dell VLT pair runs a unique priority per peer).
        if !peers
            .iter()
            .any(|p| p.stp.peer_switch.as_ref().is_some_and(|x| x.value))
        {
            continue;
        }
        let mut scopes = vec![Scope::Bridge];
        let mut vlans = BTreeSet::new();
        let mut instances = BTreeSet::new();
        for p in &peers {
            vlans.extend(p.stp.vlan_priority.keys().copied());
            instances.extend(p.stp.instance_priority.keys().copied());
        }
        scopes.extend(vlans.into_iter().map(Scope::Vlan));
        scopes.extend(instances.into_iter().map(Scope::Instance));
        // Grouped by the settings compared (the same lines and values):
        // VLANs set by one `vlan_priority` key on each peer are one finding.
        let mut found: BTreeMap<GroupKey, Mismatch> = BTreeMap::new();
        let bridge_values: Vec<u32> = peers.iter().map(|p| p.stp.bridge_priority()).collect();
        let bridge_min = bridge_values.iter().copied().min().unwrap_or_default();
        let bridge_differs = bridge_values.iter().any(|v| *v != bridge_min);
        for scope in scopes {
            let mut settings: Vec<Setting> = bridge
                .members
                .iter()
                .map(|s| setting(design, *s, scope))
                .collect();
            if settings.iter().all(|s| s.value == settings[0].value) {
                continue;
            }
            // A VLAN or an instance no peer lists on its own follows each
            // peer's `priority`: the bridge finding says it.
            if scope != Scope::Bridge && !settings.iter().any(|s| s.own_key) {
                continue;
            }
            // One cause, one finding: where the bridge priorities differ
            // and the peers that list no entry of their own for this VLAN
            // or instance take the pair's lowest `priority` (the bridge
            // finding's fix), they agree: the bridge finding covers it.
            if scope != Scope::Bridge && bridge_differs {
                let after: Vec<u32> = settings
                    .iter()
                    .map(|s| if s.own_key { s.value } else { bridge_min })
                    .collect();
                if after.iter().all(|v| *v == after[0]) {
                    continue;
                }
            }
            // The highest priority (the weakest) first: the fix moves it to
            // the lowest, which is what netlint models the domain with.
            settings.sort_by_key(|s| (std::cmp::Reverse(s.value), s.switch));
            let (kind, id) = match scope {
                Scope::Bridge => (0, None),
                Scope::Vlan(v) => (1, Some(v)),
                Scope::Instance(i) => (2, Some(i)),
            };
            let key: Vec<(usize, u32, Span)> = settings
                .iter()
                .map(|s| (s.switch.0, s.value, s.span))
                .collect();
            let m = found.entry((kind, key)).or_insert_with(|| Mismatch {
                kind,
                ids: BTreeSet::new(),
                peers: settings.clone(),
            });
            m.ids.extend(id);
        }
        let mut found: Vec<Mismatch> = found.into_values().collect();
        found.sort_by_key(|m| (m.kind, m.ids.first().copied()));
        for m in found {
            out.push(finding(cx, &bridge.name, &peers, &m));
        }
    }
}

fn finding(cx: &Context<'_>, domain: &str, peers: &[&Switch], m: &Mismatch) -> Diagnostic {
    let design = cx.design;
    let high = &m.peers[0];
    let low = m.peers.last().expect("two peers or more");
    let sw = |s: &Setting| design.switch(s.switch);
    let ids: Vec<String> = m.ids.iter().map(|i| i.to_string()).collect();
    let vlans: VlanSet = m.ids.iter().copied().collect();
    let what = match (m.kind, ids.len()) {
        (0, _) => String::new(),
        (1, 1) => format!(" in VLAN {vlans}"),
        (1, _) => format!(" in VLANs {vlans}"),
        (_, 1) => format!(" in MSTP instance {}", ids[0]),
        _ => format!(" in MSTP instances {}", and_list(&ids)),
    };
    let each: Vec<String> = m
        .peers
        .iter()
        .map(|s| format!("`{}` runs {}", sw(s).name, value_text(s)))
        .collect();
    let message = format!(
        "the peers of vPC domain `{domain}` run different spanning-tree priorities{what}: {}; with `peer_switch` the vPC peers act as one root with one bridge ID, and Cisco requires identical spanning-tree priorities on both (documents 118858 and 217274): NX-OS makes peer-switch operational only then. netlint models the domain as one bridge and takes the lowest, {}, which the real pair does not present",
        and_list(&each),
        low.value
    );
    let target = sw(high);
    let help = match m.kind {
        0 => format!(
            "give every peer of `{domain}` the same priority: `priority = {}` in the `stp` of `{}` (the pair as netlint models it), or one higher value on both if another bridge should be root",
            low.value, target.name
        ),
        1 => format!(
            "give every peer of `{domain}` the same priority{what}: `vlan_priority = {{ \"{}\" = {} }}` in the `stp` of `{}` (with the same VLAN keys on both peers)",
            vlans.to_string().replace(' ', ""),
            low.value,
            target.name
        ),
        _ => format!(
            "give every peer of `{domain}` the same priority{what}: `instance_priority = {{ {} }}` in the `stp` of `{}`",
            ids.iter()
                .map(|i| format!("{i} = {}", low.value))
                .collect::<Vec<_>>()
                .join(", "),
            target.name
        ),
    };
    // The fix: the bridge priority of the higher peer set to the lower's
    // (what netlint already models, so no tree changes). Per VLAN or
    // instance a key may cover other VLANs: no fix, the help says what.
    let fix = (m.kind == 0).then(|| {
        let path = switch_table(target).then("stp").then("priority");
        let edit = if high.written && written(high.span, target.stp.span, target.span) {
            FixEdit::replace(path, i64::from(high.value), i64::from(low.value), high.span)
        } else {
            FixEdit::insert(
                path,
                i64::from(low.value),
                target.stp.span.unwrap_or(target.span),
            )
        };
        Fix::unsafe_(format!("set `{} = {}`", edit.path, low.value), vec![edit])
    });
    // Subjects: the peers, and for a VLAN or an instance the networks in
    // it (so that each finding of a domain is told apart: by `allow`, by
    // the fix check).
    let in_scope = |vlan: u16| match m.kind {
        1 => m.ids.contains(&vlan),
        2 => peers.iter().any(|p| {
            p.stp.instances.as_ref().is_some_and(|map| {
                map.value
                    .iter()
                    .any(|(i, set)| m.ids.contains(i) && set.contains(vlan))
            })
        }),
        _ => false,
    };
    let networks = design
        .networks
        .iter()
        .filter(|n| n.vlan_id().is_some_and(in_scope))
        .map(|n| n.element());
    let mut d = cx
        .finding(&RULE, target.element(), high.span, message)
        .with_help(help)
        .with_fix(fix)
        .with_subjects(m.peers.iter().map(|s| sw(s).element()).chain(networks));
    for s in &m.peers[1..] {
        d = d.with_related(s.span, format!("`{}` runs {}", sw(s).name, value_text(s)));
    }
    d
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    /// A vPC pair with peer-switch, a third switch on a single link to
    /// each peer, and two hosts; `TOR1` / `TOR2` are the peers' `stp`.
    const PAIR: &str = r#"
[design]
name = "t"
[networks.vm]
role = "vm"
vlan = 10
[networks.lm]
role = "live-migration"
vlan = 30
[switches.tor-1]
mlag = "vpc-1"
stp = { TOR1 }
[switches.tor-2]
mlag = "vpc-1"
stp = { TOR2 }
[switches.acc]
stp = { MODE }
[[links]]
name = "peer"
a = "tor-1"
b = "tor-2"
kind = "peer-link"
speed = "100G"
[[links]]
a = "acc"
b = "tor-1"
speed = "10G"
[[links]]
a = "acc"
b = "tor-2"
speed = "10G"
[hosts.hv1.nics.A]
speed = "10G"
switch = "tor-1"
networks = ["vm", "lm"]
"#;

    fn design(tor1: &str, tor2: &str, mode: &str) -> String {
        PAIR.replace("TOR1", tor1)
            .replace("TOR2", tor2)
            .replace("MODE", mode)
    }

    #[test]
    fn different_bridge_priorities_fire_at_both_lines() {
        let src = design(
            "mode = \"rapid-pvst\", peer_switch = true, priority = 4096",
            "mode = \"rapid-pvst\", peer_switch = true, priority = 8192",
            "mode = \"rapid-pvst\"",
        );
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        let d = &f[0];
        assert_eq!(
            d.message,
            "the peers of vPC domain `vpc-1` run different spanning-tree priorities: `tor-2` runs priority 8192 and `tor-1` runs priority 4096; with `peer_switch` the vPC peers act as one root with one bridge ID, and Cisco requires identical spanning-tree priorities on both (documents 118858 and 217274): NX-OS makes peer-switch operational only then. netlint models the domain as one bridge and takes the lowest, 4096, which the real pair does not present"
        );
        // Primary: tor-2's 8192; related: tor-1's 4096.
        let at = d.primary.as_ref().unwrap().span.start;
        assert_eq!(at, src.find("8192").unwrap());
        assert_eq!(d.related.len(), 1);
        assert_eq!(d.related[0].span.start, src.find("4096").unwrap());
        assert_eq!(d.subject_paths(), vec!["switches.tor-2", "switches.tor-1"]);
        let fix = d.fix.as_ref().unwrap();
        assert_eq!(fix.description, "set `switches.tor-2.stp.priority = 4096`");
    }

    #[test]
    fn equal_priorities_are_fine() {
        let src = design(
            "mode = \"rapid-pvst\", peer_switch = true, priority = 4096, vlan_priority = { \"30\" = 8192 }",
            "mode = \"rapid-pvst\", peer_switch = true, priority = 4096, vlan_priority = { \"30\" = 8192 }",
            "mode = \"rapid-pvst\"",
        );
        assert!(findings(&src, &super::RULE).is_empty());
        // Neither writes one: both run the default.
        let src = design("mode = \"rstp\"", "mode = \"rstp\"", "mode = \"rstp\"");
        assert!(findings(&src, &super::RULE).is_empty());
        // Spanning tree off on both: nothing to compare.
        let src = design(
            "mode = \"none\", priority = 4096",
            "mode = \"none\"",
            "mode = \"none\"",
        );
        assert!(findings(&src, &super::RULE).is_empty());
    }

    #[test]
    fn without_peer_switch_a_unique_priority_per_peer_is_no_finding() {
        // Dell VLT documents a unique bridge priority per peer (primary
        // 4096, secondary 8192): only `peer_switch = true` asks for one.
        let src = design(
            "mode = \"rstp\", priority = 4096",
            "mode = \"rstp\", priority = 8192",
            "mode = \"rstp\"",
        );
        assert!(findings(&src, &super::RULE).is_empty());
    }

    #[test]
    fn a_priority_left_at_the_default_on_one_peer_fires() {
        let src = design(
            "mode = \"rstp\", peer_switch = true, priority = 4096",
            "mode = \"rstp\", peer_switch = true",
            "mode = \"rstp\"",
        );
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("`tor-2` runs priority 32768 (the default: no `priority` written) and `tor-1` runs priority 4096; with `peer_switch`"),
            "{}",
            f[0].message
        );
        // At tor-2's `stp` table, where the fix inserts the value.
        let at = f[0].primary.as_ref().unwrap().span.start;
        let tor2 = src.find("[switches.tor-2]").unwrap();
        assert_eq!(
            at,
            tor2 + src[tor2..]
                .find("{ mode = \"rstp\", peer_switch = true }")
                .unwrap()
        );
        assert_eq!(
            f[0].fix.as_ref().unwrap().description,
            "set `switches.tor-2.stp.priority = 4096`"
        );
    }

    #[test]
    fn per_vlan_priorities_are_compared_vlan_by_vlan() {
        let src = design(
            "mode = \"rapid-pvst\", peer_switch = true, priority = 4096, vlan_priority = { \"10,30\" = 4096 }",
            "mode = \"rapid-pvst\", peer_switch = true, priority = 4096, vlan_priority = { \"10\" = 4096, \"30\" = 8192 }",
            "mode = \"rapid-pvst\"",
        );
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.starts_with(
                "the peers of vPC domain `vpc-1` run different spanning-tree priorities in VLAN 30: `tor-2` runs priority 8192 and `tor-1` runs priority 4096"
            ),
            "{}",
            f[0].message
        );
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert_eq!(at, src.find("8192").unwrap());
        assert_eq!(
            f[0].related[0].span.start,
            src.find("\"10,30\" = 4096").unwrap() + "\"10,30\" = ".len()
        );
        assert!(f[0].fix.is_none());
        assert_eq!(
            f[0].subject_paths(),
            vec!["switches.tor-2", "switches.tor-1", "networks.lm"]
        );
        // A VLAN listed on one peer only, against the other's `priority`.
        let src = design(
            "mode = \"rapid-pvst\", peer_switch = true, priority = 8192, vlan_priority = { \"10,30\" = 4096 }",
            "mode = \"rapid-pvst\", peer_switch = true, priority = 8192",
            "mode = \"rapid-pvst\"",
        );
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.starts_with("the peers of vPC domain `vpc-1` run different spanning-tree priorities in VLANs 10, 30: `tor-2` runs priority 8192 and `tor-1` runs priority 4096"), "{}", f[0].message);
    }

    #[test]
    fn a_vlan_that_follows_the_bridge_fix_is_not_a_second_finding() {
        // VLAN 30 is 4096 on tor-1 (its own key) and 8192 on tor-2 (its
        // `priority`): setting tor-2's `priority` to 4096 settles both.
        let src = design(
            "mode = \"rapid-pvst\", peer_switch = true, priority = 4096, vlan_priority = { \"30\" = 4096 }",
            "mode = \"rapid-pvst\", peer_switch = true, priority = 8192",
            "mode = \"rapid-pvst\"",
        );
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].fix.is_some());
        // Split the other way round for VLAN 30: a second cause.
        let src = design(
            "mode = \"rapid-pvst\", peer_switch = true, priority = 4096, vlan_priority = { \"30\" = 8192 }",
            "mode = \"rapid-pvst\", peer_switch = true, priority = 8192, vlan_priority = { \"30\" = 4096 }",
            "mode = \"rapid-pvst\"",
        );
        assert_eq!(findings(&src, &super::RULE).len(), 2);
    }

    #[test]
    fn per_instance_priorities_too() {
        let mst = "mode = \"mstp\", peer_switch = true, region = \"r\", revision = 1, instances = { 1 = [10], 2 = [30] }, priority = 4096";
        let src = design(
            &format!("{mst}, instance_priority = {{ 1 = 4096, 2 = 8192 }}"),
            &format!("{mst}, instance_priority = {{ 1 = 8192, 2 = 4096 }}"),
            "mode = \"mstp\", region = \"r\", revision = 1, instances = { 1 = [10], 2 = [30] }",
        );
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 2, "{f:#?}");
        let one = "the peers of vPC domain `vpc-1` run different spanning-tree priorities in MSTP instance 1: `tor-2` runs priority 8192 and `tor-1` runs priority 4096";
        let two = "the peers of vPC domain `vpc-1` run different spanning-tree priorities in MSTP instance 2: `tor-1` runs priority 8192 and `tor-2` runs priority 4096";
        assert!(f.iter().any(|d| d.message.starts_with(one)), "{f:#?}");
        assert!(f.iter().any(|d| d.message.starts_with(two)), "{f:#?}");
        let i1 = f.iter().find(|d| d.message.starts_with(one)).unwrap();
        assert!(
            i1.help
                .as_deref()
                .unwrap()
                .contains("`instance_priority = { 1 = 4096 }` in the `stp` of `tor-2`"),
            "{:?}",
            i1.help
        );
        // The bridge priority is the same (4096): no finding for it.
        assert!(f.iter().all(|d| d.fix.is_none()));
    }

    #[test]
    fn the_fix_leaves_one_priority_and_the_same_tree() {
        let src = design(
            "mode = \"rapid-pvst\", peer_switch = true, priority = 4096",
            "mode = \"rapid-pvst\", peer_switch = true, priority = 8192",
            "mode = \"rapid-pvst\"",
        );
        let fixed = src.replacen("priority = 8192", "priority = 4096", 1);
        assert!(findings(&fixed, &super::RULE).is_empty());
    }
}
