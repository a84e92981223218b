//! `stp-root-placement`: the root bridge of a spanning-tree instance won on
//! the MAC tie-break, or on the default priority: nobody chose it.

use super::fixes::Budget;
use super::verify::{self, Change};
use super::{
    and_list, bridge_name, members_phrase, port_name, port_speed, priority_line, priority_of,
    vlans_text, PriorityOf,
};
use crate::phrases::stp::StpWords;
use crate::{declare_rule, Context};
use netlint_analysis::stp::{RootDecision, TreeKind};
use netlint_analysis::{BridgeId, NicEnd};
use netlint_model::{Diagnostic, Fix, NetworkId, Tier, VlanSet};
use std::collections::BTreeMap;

declare_rule!(
    RULE,
    id: "stp-root-placement",
    category: "stp",
    severity: Warning,
    summary: "A spanning-tree root won on the MAC tie-break or with the default priority 32768: root placement was not chosen.",
    check: check,
);

/// One root that nobody chose, and the trees it roots.
struct Unchosen {
    /// Tree labels without the root, for CIST / MSTIs.
    trees: Vec<String>,
    /// PVST VLAN trees (listed together).
    pvst_vlans: Vec<u16>,
    /// The MSTI, when the trees are one MSTI.
    instance: Option<u16>,
    first_tree: usize,
    /// Every tree of the finding, and its kind.
    tree_ids: Vec<usize>,
    kinds: Vec<TreeKind>,
    tied: Vec<usize>,
    bridges: Vec<usize>,
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let design = cx.design;
    let topo = cx.topology();
    let stp = &cx.forwarding().stp;
    let mut found: BTreeMap<(usize, String, Option<u16>), Unchosen> = BTreeMap::new();
    for (tid, tree) in stp.trees().iter().enumerate() {
        for info in &tree.roots {
            if info.bridges.len() < 2 {
                continue;
            }
            if !(info.decided_by.is_tie_break() || info.default_priority) {
                continue;
            }
            let Some(why) = stp.root_message(tid, info.root) else {
                continue;
            };
            let tied = match &info.decided_by {
                RootDecision::MacTieBreak { tied } | RootDecision::SyntheticTieBreak { tied } => {
                    tied.clone()
                }
                RootDecision::Priority => Vec::new(),
            };
            let msti = match tree.kind {
                TreeKind::Msti { instance, .. } => Some(instance),
                _ => None,
            };
            let e = found.entry((info.root, why, msti)).or_insert(Unchosen {
                trees: Vec::new(),
                pvst_vlans: Vec::new(),
                instance: None,
                first_tree: tid,
                tree_ids: Vec::new(),
                kinds: Vec::new(),
                tied,
                bridges: info.bridges.clone(),
            });
            e.tree_ids.push(tid);
            e.kinds.push(tree.kind);
            match tree.kind {
                TreeKind::PvstVlan(v) => e.pvst_vlans.push(v),
                TreeKind::Msti { instance, .. } => {
                    e.instance = Some(instance);
                    e.trees.push(label(stp.tree_label(tid, Some(info.root))));
                }
                TreeKind::Cist => e.trees.push(label(stp.tree_label(tid, Some(info.root)))),
            }
        }
    }
    let budget = Budget::new(cx);
    for ((root, why, _), u) in found {
        let root = BridgeId(root);
        let mut trees = u.trees.clone();
        match u.pvst_vlans.len() {
            0 => {}
            1 => trees.push(format!("VLAN {} (PVST+)", u.pvst_vlans[0])),
            _ => {
                let v: Vec<String> = u.pvst_vlans.iter().map(|v| v.to_string()).collect();
                trees.push(format!("VLANs {} (PVST+)", v.join(", ")));
            }
        }
        // One MSTI alone takes instance priorities; anything else the bridge priority.
        let instance = if trees.len() == 1 { u.instance } else { None };
        let tree_words = and_list(&trees);
        let tied_note = if u.tied.len() > 1 {
            let others: Vec<String> = u
                .tied
                .iter()
                .filter(|b| **b != root.0)
                .map(|b| bridge_name(design, topo, BridgeId(*b)))
                .collect();
            format!(" (tied with {})", and_list(&others))
        } else {
            String::new()
        };
        let plural = trees.len() > 1 || (u.trees.is_empty() && u.pvst_vlans.len() > 1);
        let message = format!(
            "{tree_words} {} rooted at {}: {why}{tied_note}. Nobody chose this root, yet it decides which links block; a switch added or replaced later can take it over",
            if plural { "are" } else { "is" },
            bridge_name(design, topo, root),
        );

        // The intended root: for an MSTI of cluster VLANs the switches the
        // cluster hangs off, otherwise the highest tier.
        let candidates = intended_roots(cx, u.first_tree, &u.bridges, instance);
        let (help, fix) = if cx.is_fix_check() {
            (String::new(), None)
        } else {
            help(cx, &u, root, instance, &candidates, &budget)
        };

        // The line of the trees' own priority: an MSTI's, a PVST+ VLAN's
        // (the first VLAN's: the VLANs of one finding share their root
        // and its reason), else the switch's.
        let of = match (instance, u.pvst_vlans.first()) {
            (Some(k), _) => PriorityOf::Instance(k),
            (None, Some(v)) if !u.kinds.contains(&TreeKind::Cist) => PriorityOf::Vlan(*v),
            _ => PriorityOf::Bridge,
        };
        let (span, sw) = priority_line(design, topo, root, of);
        let mut d = cx
            .finding(&RULE, design.switch(sw).element(), span, message)
            .with_help(help)
            .with_fix(fix.map(Fix::moving_root));
        for b in u.tied.iter().filter(|b| **b != root.0) {
            let (s, other) = priority_line(design, topo, BridgeId(*b), of);
            d = d.with_related(
                s,
                format!("`{}` has the same priority", design.switch(other).name),
            );
        }
        out.push(d);
    }
}

/// The help: every fix that works on a copy of the design (the finding's
/// trees get a root chosen on priority, no spanning-tree finding appears),
/// best first, and that they were checked; or, when none does, what to do
/// and that nothing was found to check.
fn help(
    cx: &Context<'_>,
    u: &Unchosen,
    root: BridgeId,
    instance: Option<u16>,
    candidates: &[(BridgeId, String)],
    budget: &Budget,
) -> (String, Option<Fix>) {
    let setting = |p: u32| match instance {
        Some(k) => format!("`instance_priority = {{ {k} = {p} }}`"),
        None => format!("`priority = {p}`"),
    };
    let mut fixes: Vec<String> = Vec::new();
    let mut fix: Option<Fix> = None;
    let mut unchecked = false;
    let mut try_fix = |changes: &[Change], must_root: Option<BridgeId>, text: String| -> bool {
        if !budget.take_design() {
            unchecked = true;
            return false;
        }
        let ok = verify::check(cx, changes, &|after| fixed(after, u, must_root));
        if ok {
            if fix.is_none() {
                fix = verify::as_fix(cx.design, &text, changes);
            }
            fixes.push(text);
        }
        ok
    };

    // The trunks to a switch that has no business in these VLANs' trees.
    let pruning = prune(cx, u, root);
    if let Some((changes, text)) = &pruning {
        if !try_fix(changes, None, text.clone()) {
            // Pruned, the trees still need a chosen root among the rest.
            let rest: Vec<(BridgeId, String)> = candidates
                .iter()
                .filter(|(b, _)| *b != root)
                .cloned()
                .collect();
            if let Some(fix) = priority_fix(cx, u, &rest, &[root], instance, &setting) {
                let all: Vec<Change> = changes.iter().cloned().chain(fix.changes.clone()).collect();
                try_fix(
                    &all,
                    Some(rest[0].0),
                    format!("{text}; and {}", fix.words(true)),
                );
            }
        }
    }
    // A priority on the intended root (and its backup).
    if let Some(fix) = priority_fix(cx, u, candidates, &[], instance, &setting) {
        let first = candidates[0].0;
        let stays = if first == root {
            ", so that it stays root on purpose"
        } else {
            ""
        };
        if !try_fix(
            &fix.changes,
            Some(first),
            format!("{}{stays}", fix.words(true)),
        ) && fix.backup.is_some()
        {
            try_fix(
                &fix.changes[..1],
                Some(first),
                format!("{}{stays}", fix.words(false)),
            );
        }
    }

    let why_unchecked = budget.unchecked();
    const CHECKED: &str = "checked on a copy of the design: the spanning trees recomputed, this finding gone and no new spanning-tree finding";
    let words = match fixes.as_slice() {
        [] if unchecked => format!(
            "give the switch meant to be root for these trees a priority lower than every other switch in them; {why_unchecked}"
        ),
        [] => "give the switch meant to be root for these trees a priority lower than every other switch in them and higher than the roots of the trees it must not take over (`netlint topology` shows every tree's root); no priority or VLAN change netlint tried removed this finding without adding another, so none is offered as checked".to_string(),
        [one] => format!("{one} ({CHECKED})"),
        many => {
            let list: Vec<String> = many
                .iter()
                .enumerate()
                .map(|(i, f)| format!("({}) {f}", i + 1))
                .collect();
            format!("any one of these fixes it ({CHECKED}): {}", list.join("; "))
        }
    };
    (words, fix)
}

/// On the copy: every component of the finding's trees that holds one of
/// its bridges has a root chosen on priority (`must_root` when given).
fn fixed(after: &Context<'_>, u: &Unchosen, must_root: Option<BridgeId>) -> bool {
    let stp = &after.forwarding().stp;
    u.kinds.iter().all(|kind| {
        let Some(t) = stp.trees().iter().find(|t| t.kind == *kind) else {
            return true;
        };
        t.roots.iter().all(|info| {
            if info.bridges.len() < 2 || !info.bridges.iter().any(|b| u.bridges.contains(b)) {
                return true;
            }
            if info.decided_by.is_tie_break() || info.default_priority {
                return false;
            }
            match must_root {
                Some(r) if info.bridges.contains(&r.0) => info.root == r.0,
                _ => true,
            }
        })
    })
}

/// A priority fix: the intended root's setting, and its backup's.
struct PriorityFix {
    changes: Vec<Change>,
    first: String,
    backup: Option<String>,
    /// Why not the conventional 4096, when another is chosen.
    note: String,
}

impl PriorityFix {
    fn words(&self, with_backup: bool) -> String {
        let mut w = self.first.clone();
        if let (true, Some(b)) = (with_backup, &self.backup) {
            w.push_str(" and ");
            w.push_str(b);
        }
        w.push_str(&self.note);
        w
    }
}

/// `priority` on the first candidate (and the next one as backup): the
/// conventional 4096 / 8192 where that wins these trees without tying or
/// beating the root of another tree the same setting applies to (PVST+
/// has one priority for every VLAN), else the lowest step above those
/// roots that still wins. `exclude`: bridges the fix takes out of these
/// trees.
fn priority_fix(
    cx: &Context<'_>,
    u: &Unchosen,
    candidates: &[(BridgeId, String)],
    exclude: &[BridgeId],
    instance: Option<u16>,
    setting: &dyn Fn(u32) -> String,
) -> Option<PriorityFix> {
    let design = cx.design;
    let topo = cx.topology();
    let stp = &cx.forwarding().stp;
    let [(first, why_first), rest @ ..] = candidates else {
        return None;
    };
    // A bridge's priority in these trees (PVST+ `vlan_priority` included).
    let in_trees = |x: BridgeId| {
        u.tree_ids
            .iter()
            .filter_map(|t| stp.tree(*t)?.bridges.get(x.0)?.as_ref().map(|s| s.priority))
            .min()
            .unwrap_or_else(|| priority_of(design, topo, x, instance))
    };
    let pick = |b: BridgeId, also_out: &[BridgeId], from: u32| -> Option<u32> {
        // Lower than every other bridge of these trees...
        let upper = u
            .bridges
            .iter()
            .map(|x| BridgeId(*x))
            .filter(|x| *x != b && !exclude.contains(x) && !also_out.contains(x))
            .map(&in_trees)
            .min()
            .unwrap_or(u32::MAX);
        // ...and higher than the chosen roots of the other trees it is in.
        let lower = other_root(cx, u, b, instance).map(|(p, _, _)| p);
        let mut p = from;
        while lower.is_some_and(|l| p <= l) {
            p += 4096;
        }
        if p >= upper {
            // The others are at `from` or below: the step under the lowest.
            p = upper.checked_sub(4096)?;
            if lower.is_some_and(|l| p <= l) {
                return None;
            }
        }
        (p <= 61440).then_some(p)
    };
    let p = pick(*first, &[], 4096)?;
    let mut fix = PriorityFix {
        changes: vec![Change::Priority {
            switches: topo.bridge(*first).members.clone(),
            instance,
            priority: p,
        }],
        first: format!(
            "set {} on {} ({why_first})",
            setting(p),
            members_phrase(design, topo, *first)
        ),
        backup: None,
        note: String::new(),
    };
    if p > 4096 {
        if let Some((l, r, tree)) = other_root(cx, u, *first, instance) {
            fix.note = format!(
                " (not 4096: the same setting applies to {}, whose root {} has {l}, and would tie with it or take it over)",
                label(stp.tree_label(tree, None)),
                bridge_name(design, topo, BridgeId(r))
            );
        }
    }
    if let Some((second, _)) = rest.first() {
        if let Some(p2) = pick(*second, &[*first], p + 4096) {
            fix.changes.push(Change::Priority {
                switches: topo.bridge(*second).members.clone(),
                instance,
                priority: p2,
            });
            fix.backup = Some(format!(
                "{} on {} as the backup root",
                setting(p2),
                members_phrase(design, topo, *second)
            ));
        }
    }
    Some(fix)
}

/// Among the trees outside the finding that `b` takes part in and the same
/// setting applies to, the root that won on priority (not `b`) with the
/// highest priority: (priority, root, tree). A new priority of `b` must
/// stay above it.
fn other_root(
    cx: &Context<'_>,
    u: &Unchosen,
    b: BridgeId,
    instance: Option<u16>,
) -> Option<(u32, usize, usize)> {
    let stp = &cx.forwarding().stp;
    // `priority` also sets the MSTIs that have no `instance_priority` of
    // their own on the bridge.
    let own_instance_priority = |k: u16| {
        cx.topology()
            .bridge(b)
            .members
            .iter()
            .any(|s| cx.design.switch(*s).stp.instance_priority.contains_key(&k))
    };
    // Likewise PVST+ VLANs without a `vlan_priority` of their own.
    let own_vlan_priority = |v: u16| {
        cx.topology()
            .bridge(b)
            .members
            .iter()
            .any(|s| cx.design.switch(*s).stp.vlan_priority.contains_key(&v))
    };
    stp.trees()
        .iter()
        .enumerate()
        .filter(|(tid, t)| {
            !u.tree_ids.contains(tid)
                && match (instance, t.kind) {
                    (Some(k), TreeKind::Msti { instance, .. }) => instance == k,
                    (Some(_), _) => false,
                    (None, TreeKind::Msti { instance, .. }) => !own_instance_priority(instance),
                    (None, TreeKind::PvstVlan(v)) => !own_vlan_priority(v),
                    (None, _) => true,
                }
        })
        .filter_map(|(tid, t)| t.root_info_of(b.0).map(|info| (tid, info)))
        .filter(|(_, info)| info.root != b.0 && !info.decided_by.is_tie_break())
        .map(|(tid, info)| (info.priority, info.root, tid))
        // The highest; among equals a VLAN's own tree before the common one.
        .max_by_key(|(p, _, tid)| {
            (
                *p,
                *tid != netlint_analysis::stp::CIST,
                std::cmp::Reverse(*tid),
            )
        })
}

/// PVST+ trees rooted at a switch no host of their VLANs hangs off: remove
/// those VLANs from the trunks to it, so that it takes no part in their
/// trees (a PVST+ switch runs a VLAN's tree only on trunks that carry it).
fn prune(cx: &Context<'_>, u: &Unchosen, root: BridgeId) -> Option<(Vec<Change>, String)> {
    if u.pvst_vlans.is_empty() {
        return None;
    }
    let design = cx.design;
    let topo = cx.topology();
    // Hosts of these VLANs on the root: it has business in their trees.
    for (ni, net) in design.networks.iter().enumerate() {
        if !net.vlan_id().is_some_and(|v| u.pvst_vlans.contains(&v)) {
            continue;
        }
        for h in topo.hosts_on(NetworkId(ni)) {
            for c in topo.carriers_of(h, NetworkId(ni)) {
                for n in c.active.iter().chain(&c.standby) {
                    if let Some(NicEnd::Switch(s)) = topo.nic_ends[h.0][n.0] {
                        if topo.bridge_of[s.0] == root {
                            return None;
                        }
                    }
                }
            }
        }
    }
    let used = design.used_vlans();
    let mut changes = Vec::new();
    let mut words = Vec::new();
    let mut done = Vec::new();
    for (pi, p) in topo.ports.iter().enumerate() {
        if (p.a != root && p.b != root) || done.contains(&p.link) {
            continue;
        }
        done.push(p.link);
        let link = design.link(p.link);
        let allowed: VlanSet = match &link.vlans {
            Some(v) => v.value,
            None => used
                .iter()
                .filter(|v| link.ends().all(|s| design.switch(s).defines_vlan(Some(*v))))
                .collect(),
        };
        if !u.pvst_vlans.iter().any(|v| allowed.contains(*v)) {
            continue;
        }
        let kept: VlanSet = allowed
            .iter()
            .filter(|v| !u.pvst_vlans.contains(v))
            .collect();
        // Nothing left on the trunk would be removing the link, not pruning.
        kept.iter().next()?;
        let far = if p.a == root { p.b } else { p.a };
        words.push(format!(
            "{}, the {} trunk between {} and {} (`vlans = [{}]`)",
            port_name(design, topo, pi),
            port_speed(topo, pi),
            bridge_name(design, topo, far),
            bridge_name(design, topo, root),
            kept.iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
        changes.push(Change::Vlans {
            link: p.link,
            vlans: Box::new(kept),
        });
    }
    if changes.is_empty() {
        return None;
    }
    let vlans: Vec<Option<u16>> = u.pvst_vlans.iter().map(|v| Some(*v)).collect();
    Some((
        changes,
        format!(
            "remove {} from {}: no host uses them on {}, and a PVST+ switch takes no part in the tree of a VLAN its trunks do not carry",
            vlans_text(&vlans),
            and_list(&words),
            bridge_name(design, topo, root)
        ),
    ))
}

/// "instance 0 (CIST) rooted at x" -> "instance 0 (CIST)".
fn label(full: String) -> String {
    match full.split_once(" rooted at ") {
        Some((head, _)) => head.to_string(),
        None => full,
    }
}

/// Where the root belongs, best first, with the reason.
fn intended_roots(
    cx: &Context<'_>,
    tree: usize,
    bridges: &[usize],
    instance: Option<u16>,
) -> Vec<(BridgeId, String)> {
    let design = cx.design;
    let topo = cx.topology();
    let stp = &cx.forwarding().stp;
    // An MSTI whose VLANs carry cluster networks: the hosts' switches.
    if let (Some(k), Some(TreeKind::Msti { region, .. })) =
        (instance, stp.tree(tree).map(|t| t.kind))
    {
        let reg = &stp.regions()[region];
        let mut count: BTreeMap<usize, usize> = BTreeMap::new();
        for (ni, net) in design.networks.iter().enumerate() {
            let Some(v) = net.vlan_id() else { continue };
            if reg.instance_of(v) != k || !net.in_cluster_group() {
                continue;
            }
            for h in topo.hosts_on(netlint_model::NetworkId(ni)) {
                for c in topo.carriers_of(h, netlint_model::NetworkId(ni)) {
                    for n in &c.active {
                        if let Some(NicEnd::Switch(s)) = topo.nic_ends[h.0][n.0] {
                            let b = topo.bridge_of[s.0].0;
                            if bridges.contains(&b) {
                                *count.entry(b).or_default() += 1;
                            }
                        }
                    }
                }
            }
        }
        if !count.is_empty() {
            let mut v: Vec<(usize, usize)> = count.into_iter().collect();
            v.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
            return v
                .into_iter()
                .map(|(b, _)| {
                    (
                        BridgeId(b),
                        format!("the cluster hangs off it for instance {k}'s VLANs"),
                    )
                })
                .collect();
        }
    }
    let tier = |b: usize| {
        topo.bridge(BridgeId(b))
            .members
            .iter()
            .map(|s| design.switch(*s).tier.value)
            .max()
            .unwrap_or(Tier::Access)
    };
    let mut v: Vec<usize> = bridges.to_vec();
    v.sort_by(|x, y| tier(*y).cmp(&tier(*x)).then(x.cmp(y)));
    v.into_iter()
        .map(|b| {
            let t = tier(b);
            (
                BridgeId(b),
                match t {
                    Tier::Access => "the intended root".to_string(),
                    t => format!(
                        "a{} {t} switch",
                        if t == Tier::Aggregation { "n" } else { "" }
                    ),
                },
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    /// A design check reruns every spanning-tree rule, host pairs
    /// included, on a copy: on a design of thousands of hosts it would
    /// double the run, so the help says the fix was not checked, and why,
    /// instead of claiming a check (or offering an unchecked fix as one).
    #[test]
    fn a_design_too_large_for_design_checks_says_its_fix_is_unchecked() {
        let mut src = String::from(
            "[design]\nname = \"t\"\n[switches.core-1]\nstp = { mode = \"rstp\", priority = 4096 }\n[switches.core-2]\nstp = { mode = \"rstp\", priority = 4096 }\n[[links]]\na = \"core-1\"\nb = \"core-2\"\nspeed = \"10G\"\n",
        );
        let small = findings(&src, &super::RULE);
        assert_eq!(small.len(), 1, "{small:#?}");
        let help = small[0].help.as_deref().unwrap();
        assert!(help.contains("checked on a copy of the design"), "{help}");
        for i in 0..1600 {
            src.push_str(&format!("[hosts.h{i}]\n"));
        }
        let large = findings(&src, &super::RULE);
        assert_eq!(large.len(), 1, "{large:#?}");
        let help = large[0].help.as_deref().unwrap();
        assert!(help.contains("too many hosts to check each fix"), "{help}");
        assert!(!help.contains("(checked on a copy"), "{help}");
    }

    const PAIR: &str = r#"
[design]
name = "t"
[switches.core]
tier = "core"
CORE
[switches.acc-1]
ACC1
[switches.acc-2]
[[links]]
a = "core"
b = "acc-1"
speed = "10G"
[[links]]
a = "core"
b = "acc-2"
speed = "10G"
"#;

    fn src(core: &str, acc1: &str) -> String {
        PAIR.replace("CORE", core).replace("ACC1", acc1)
    }

    #[test]
    fn default_priorities_without_macs_are_a_guess() {
        let f = findings(&src("", ""), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        let m = &f[0].message;
        // No MACs: names decide (acc-1 < acc-2 < core).
        assert!(m.starts_with("the RSTP tree is rooted at `acc-1`: acc-1 is root only by netlint's guess: 3 bridges share priority 32768 (the default)"), "{m}");
        assert!(m.contains("(tied with `acc-2` and `core`)"), "{m}");
        assert_eq!(f[0].element(), "switches.acc-1");
        let help = f[0].help.as_deref().unwrap();
        assert!(
            help.starts_with("set `priority = 4096` on `core` (a core switch)"),
            "{help}"
        );
        assert_eq!(f[0].related.len(), 2);
    }

    #[test]
    fn a_mac_tie_break_is_named_as_such() {
        let f = findings(
            &src(
                "stp = { priority = 8192, mac = \"00:00:00:00:00:02\" }",
                "stp = { priority = 8192, mac = \"00:00:00:00:00:01\" }",
            ),
            &super::RULE,
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message
                .contains("acc-1 is root on the MAC tie-break among 2 bridges of priority 8192"),
            "{}",
            f[0].message
        );
        assert!(f[0].help.as_deref().unwrap().contains(
            "on `core` (a core switch) and `priority = 8192` on `acc-1` as the backup root"
        ));
    }

    #[test]
    fn an_explicit_lowest_priority_is_a_choice() {
        assert!(findings(&src("stp = { priority = 4096 }", ""), &super::RULE).is_empty());
    }

    #[test]
    fn a_lone_switch_has_nothing_to_place() {
        let f = findings("[design]\nname = \"t\"\n[switches.a]\n", &super::RULE);
        assert!(f.is_empty());
    }

    #[test]
    fn an_msti_of_cluster_vlans_belongs_where_the_hosts_hang_off() {
        let mst = |extra: &str| {
            format!("stp = {{ mode = \"mstp\", priority = 4096, region = \"r\", instances = {{ 1 = [20] }}{extra} }}")
        };
        let design = src(&mst(""), &mst(""))
            .replace("[switches.acc-2]", &format!("[switches.acc-2]\n{}", mst("")))
            + "[networks.csv]\nrole = \"csv\"\nvlan = 20\n[hosts.h.nics.A]\nspeed = \"10G\"\nswitch = \"acc-2\"\nnetworks = [\"csv\"]\n";
        let f = findings(&design, &super::RULE);
        assert_eq!(f.len(), 2, "{f:#?}");
        let msti = f
            .iter()
            .find(|d| d.message.starts_with("instance 1"))
            .unwrap();
        assert!(
            msti.help.as_deref().unwrap().starts_with(
                "set `instance_priority = { 1 = 0 }` on `acc-2` (the cluster hangs off it"
            ),
            "{:?}",
            msti.help
        );
    }

    /// PVST+: the core is root of VLAN 10 at 4096; the cluster VLANs 20 and
    /// 30 stay on the top-of-rack pair, and a legacy 1G out-of-band switch
    /// with the oldest MAC became their root because its trunk allows every
    /// VLAN. One `priority` applies to every VLAN: 4096 on `tor-a` would tie
    /// with the core on VLAN 10 and take it over on its lower MAC.
    const PVST_OOB: &str = r#"
[design]
name = "t"
[networks.mgmt]
role = "management"
vlan = 10
[networks.csv]
role = "csv"
vlan = 20
[networks.lm]
role = "live-migration"
vlan = 30
[switches.core-1]
tier = "core"
stp = { mode = "rapid-pvst", priority = 4096, mac = "00:1b:54:00:00:10" }
[switches.tor-a]
stp = { mode = "rapid-pvst", mac = "00:1b:54:00:00:0a"TORA }
[switches.tor-b]
stp = { mode = "rapid-pvst", mac = "00:1b:54:00:00:0b" }
[switches.oob-sw]
stp = { mode = "rapid-pvst", mac = "00:0a:41:00:00:01" }
[[links]]
name = "isl"
a = "tor-a"
b = "tor-b"
speed = "25G"
members = 2
[[links]]
name = "up-a"
a = "tor-a"
b = "core-1"
speed = "10G"
vlans = [10]
[[links]]
name = "up-b"
a = "tor-b"
b = "core-1"
speed = "10G"
vlans = [10]
[[links]]
name = "oob-uplink"
a = "oob-sw"
b = "tor-a"
speed = "1G"
OOBVLANS
[profiles.p.nics.P1]
speed = "25G"
switch = "tor-a"
[profiles.p.nics.P2]
speed = "25G"
switch = "tor-b"
[profiles.p.vswitches.S]
uplinks = ["P1", "P2"]
[profiles.p.vswitches.S.vnics.M]
network = "mgmt"
[profiles.p.vswitches.S.vnics.C]
network = "csv"
[profiles.p.vswitches.S.vnics.L]
network = "lm"
[hosts.h1]
profile = "p"
[hosts.h2]
profile = "p"
"#;

    fn pvst(tor_a: &str, oob_vlans: &str) -> String {
        PVST_OOB
            .replace("TORA", tor_a)
            .replace("OOBVLANS", oob_vlans)
    }

    #[test]
    fn the_advice_of_old_would_move_the_core_root_and_warn_about_itself() {
        // What the help used to say: `priority = 4096` on tor-a. Applied,
        // tor-a ties with the core on VLAN 10 and wins on its MAC.
        let f = findings(&pvst(", priority = 4096", ""), &super::RULE);
        assert!(
            f.iter().any(|d| d.message.contains(
                "VLAN 10 (PVST+) are rooted at `tor-a`: tor-a is root on the MAC tie-break"
            )),
            "{f:#?}"
        );
    }

    #[test]
    fn pvst_fixes_are_checked_and_never_tie_with_another_vlans_root() {
        let f = findings(&pvst("", ""), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message
                .starts_with("VLANs 20, 30 (PVST+) are rooted at `oob-sw`"),
            "{}",
            f[0].message
        );
        let help = f[0].help.as_deref().unwrap();
        assert!(!help.contains("`priority = 4096` on `tor-a`"), "{help}");
        assert!(help.contains("checked on a copy of the design"), "{help}");
        // The clean fix first: the cluster VLANs off the out-of-band trunk.
        assert!(
            help.contains("(1) remove VLANs 20, 30 from `oob-uplink`, the 1G trunk between `tor-a` and `oob-sw` (`vlans = [10]`)"),
            "{help}"
        );
        assert!(help.contains("`priority = 8192` on `tor-a`"), "{help}");
        assert!(help.contains("whose root `core-1` has 4096"), "{help}");
        // Each offered fix, applied by hand, leaves no root-placement finding.
        for fixed in [
            pvst(", priority = 8192", "vlans = [10]").replace(
                "[switches.tor-b]\nstp = { mode = \"rapid-pvst\",",
                "[switches.tor-b]\nstp = { mode = \"rapid-pvst\", priority = 12288,",
            ),
            pvst(", priority = 8192", "").replace(
                "[switches.tor-b]\nstp = { mode = \"rapid-pvst\",",
                "[switches.tor-b]\nstp = { mode = \"rapid-pvst\", priority = 12288,",
            ),
        ] {
            let after = findings(&fixed, &super::RULE);
            assert!(after.is_empty(), "{after:#?}");
        }
    }

    #[test]
    fn pruning_is_offered_only_where_no_host_uses_the_vlans() {
        // Hosts' second NIC on the out-of-band switch: it carries the
        // cluster VLANs for them, so removing them from its trunk is no fix.
        let src = pvst("", "").replace(
            "[profiles.p.nics.P2]\nspeed = \"25G\"\nswitch = \"tor-b\"",
            "[profiles.p.nics.P2]\nspeed = \"1G\"\nswitch = \"oob-sw\"",
        );
        let f = findings(&src, &super::RULE);
        assert!(!f.is_empty());
        for d in &f {
            assert!(
                !d.help.as_deref().unwrap().contains("remove VLANs"),
                "{d:#?}"
            );
        }
    }
}
