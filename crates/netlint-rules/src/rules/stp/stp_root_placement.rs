//! `stp-root-placement`: the root bridge of a spanning-tree instance won on
//! the MAC tie-break, or on the default priority: nobody chose it.

use super::{and_list, bridge_name, members_phrase, priority_line};
use crate::phrases::stp::StpWords;
use crate::{declare_rule, Context};
use netlint_analysis::stp::{RootDecision, TreeKind};
use netlint_analysis::{BridgeId, NicEnd};
use netlint_model::{Diagnostic, Tier};
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
                tied,
                bridges: info.bridges.clone(),
            });
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
        let message = format!(
            "{tree_words} {} rooted at {}: {why}{tied_note}. Nobody chose this root, yet it decides which links block; a switch added or replaced later can take it over",
            if trees.len() == 1 { "is" } else { "are" },
            bridge_name(design, topo, root),
        );

        // The intended root: for an MSTI of cluster VLANs the switches the
        // cluster hangs off, otherwise the highest tier.
        let candidates = intended_roots(cx, u.first_tree, &u.bridges, instance);
        let setting = |p: u32| match instance {
            Some(k) => format!("`instance_priority = {{ {k} = {p} }}`"),
            None => format!("`priority = {p}`"),
        };
        let help = match candidates.as_slice() {
            [] => format!("set {} on the switch meant to be root", setting(4096)),
            [(first, why_first), rest @ ..] => {
                let mut h = format!(
                    "set {} on {} ({why_first}){}",
                    setting(4096),
                    members_phrase(design, topo, *first),
                    if *first == root {
                        ", so that it stays root on purpose"
                    } else {
                        ""
                    }
                );
                if let Some((second, _)) = rest.first() {
                    h.push_str(&format!(
                        " and {} on {} as the backup root",
                        setting(8192),
                        members_phrase(design, topo, *second)
                    ));
                }
                h
            }
        };

        let (span, sw) = priority_line(design, topo, root, instance);
        let mut d = cx
            .finding(&RULE, design.switch(sw).element(), span, message)
            .with_help(help);
        for b in u.tied.iter().filter(|b| **b != root.0) {
            let (s, other) = priority_line(design, topo, BridgeId(*b), instance);
            d = d.with_related(
                s,
                format!("`{}` has the same priority", design.switch(other).name),
            );
        }
        out.push(d);
    }
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
        let f = findings(&src("", ""), "stp-root-placement");
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
            "stp-root-placement",
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
        assert!(findings(&src("stp = { priority = 4096 }", ""), "stp-root-placement").is_empty());
    }

    #[test]
    fn a_lone_switch_has_nothing_to_place() {
        let f = findings(
            "[design]\nname = \"t\"\n[switches.a]\n",
            "stp-root-placement",
        );
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
        let f = findings(&design, "stp-root-placement");
        assert_eq!(f.len(), 2, "{f:#?}");
        let msti = f
            .iter()
            .find(|d| d.message.starts_with("instance 1"))
            .unwrap();
        assert!(
            msti.help.as_deref().unwrap().starts_with(
                "set `instance_priority = { 1 = 4096 }` on `acc-2` (the cluster hangs off it"
            ),
            "{:?}",
            msti.help
        );
    }
}
