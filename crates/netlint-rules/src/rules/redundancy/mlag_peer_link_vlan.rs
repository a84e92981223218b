//! `mlag-peer-link-vlan`: a multi-chassis LAG carries a VLAN that the
//! MLAG peer-link between its switches does not.

use crate::rules::fix_at::link_vlans_plus;
use crate::rules::stp::trunk_vlan_mismatch::end_names;
use crate::{declare_rule, Context};
use netlint_analysis::l2::{peer_groups, peer_link_between};
use netlint_analysis::{BridgeKind, Failures};
use netlint_model::Element;
use netlint_model::{Diagnostic, End, Fix, LinkId, Span, SwitchId, VlanSet};
use std::collections::BTreeMap;

declare_rule!(
    RULE,
    id: "mlag-peer-link-vlan",
    category: "redundancy",
    severity: Error,
    summary: "A multi-chassis LAG (vPC, MLAG, VLT port) carries a VLAN that the peer-link between its switches does not allow.",
    check: check,
);

/// "VLAN 20", "VLANs 20, 30".
fn vlan_list(vlans: &[u16]) -> String {
    let list: Vec<String> = vlans.iter().map(|v| v.to_string()).collect();
    match vlans {
        [_] => format!("VLAN {}", list[0]),
        _ => format!("VLANs {}", list.join(", ")),
    }
}

/// What one peer-link leaves out: per multi-chassis LAG, its VLANs.
struct Gap {
    from: SwitchId,
    to: SwitchId,
    lags: Vec<(LinkId, Vec<u16>)>,
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let design = cx.design;
    let topo = cx.topology();
    let healthy = Failures::default();
    // Keyed by the peer-link (or, without one, the first peer), in the
    // order first met.
    let mut gaps: BTreeMap<(Option<LinkId>, SwitchId), Gap> = BTreeMap::new();
    // Each multi-chassis end of a LAG: its `b` end, and its `a` end too
    // when it is double-sided.
    let sides = design.links.iter().enumerate().flat_map(|(li, link)| {
        let (a, b) = (link.end_switches(End::A), link.end_switches(End::B));
        [a, b]
            .into_iter()
            .filter(|side| side.len() > 1)
            .map(move |side| (li, link, side))
    });
    for (li, link, side) in sides {
        let bridge = topo.bridge_of[side[0].0];
        if topo.bridge(bridge).kind != BridgeKind::Mlag {
            continue;
        }
        // The VLANs the LAG carries: those of the design's networks and
        // any it lists, allowed and defined at every end.
        let mut candidates: VlanSet = design.used_vlans();
        if let Some(v) = &link.vlans {
            candidates = candidates.iter().chain(v.value.iter()).collect();
        }
        let ends: Vec<SwitchId> = link.ends().collect();
        for v in candidates.iter() {
            let vlan = Some(v);
            if !link.allows_vlan(vlan) || !ends.iter().all(|s| design.switch(*s).defines_vlan(vlan))
            {
                continue;
            }
            let Some(peers) = peer_groups(design, topo, &healthy, vlan) else {
                continue;
            };
            let first = side[0];
            let Some(other) = side.iter().copied().find(|s| peers[s.0] != peers[first.0]) else {
                continue;
            };
            let pl = peer_link_between(design, topo, first, other);
            let gap = gaps.entry((pl, first)).or_insert_with(|| Gap {
                from: first,
                to: other,
                lags: Vec::new(),
            });
            match gap.lags.iter_mut().find(|(l, _)| *l == LinkId(li)) {
                Some((_, vs)) => vs.push(v),
                None => gap.lags.push((LinkId(li), vec![v])),
            }
        }
    }
    for ((pl, _), gap) in gaps {
        let (a, b) = (design.switch(gap.from), design.switch(gap.to));
        let all: Vec<u16> = {
            let set: VlanSet = gap
                .lags
                .iter()
                .flat_map(|(_, v)| v.iter().copied())
                .collect();
            set.iter().collect()
        };
        let networks: Vec<String> = design
            .networks
            .iter()
            .filter(|n| n.vlan_id().is_some_and(|v| all.contains(&v)))
            .map(|n| format!("`{}`", n.name))
            .collect();
        let nets = match networks.len() {
            0 => String::new(),
            1 => format!(" (network {})", networks[0]),
            _ => format!(" (networks {})", networks.join(", ")),
        };
        let lag_words = match gap.lags.as_slice() {
            [(l, _)] => format!("multi-chassis LAG `{}`", design.link(*l).name),
            lags => {
                let each: Vec<String> = lags
                    .iter()
                    .map(|(l, v)| format!("`{}` ({})", design.link(*l).name, vlan_list(v)))
                    .collect();
                format!("multi-chassis LAGs {}", each.join(", "))
            }
        };
        let (element, span, subject): (Element, Span, String) = match pl.map(|l| design.link(l)) {
            Some(link) => (
                link.element(),
                link.vlans.as_ref().map(|v| v.span).unwrap_or(link.span),
                format!(
                    "peer-link `{}` between `{}` and `{}`",
                    link.name, a.name, b.name
                ),
            ),
            None => (
                a.element(),
                a.mlag.as_ref().map(|m| m.span).unwrap_or(a.span),
                format!("no link between MLAG peers `{}` and `{}`", a.name, b.name),
            ),
        };
        let verb = if pl.is_some() {
            "does not allow"
        } else {
            "carries"
        };
        let message = format!(
            "{subject} {verb} {}{nets}, which {lag_words} carries: NX-OS suspends such a VLAN on the vPC; other vendors drop the frames that arrive on the peer without the destination (an orphan port there, or a LAG whose member on the receiving peer failed)",
            vlan_list(&all)
        );
        let help = match pl.map(|l| design.link(l)) {
            Some(link) => format!(
                "add {} to `vlans` of peer-link `{}` (a peer-link carries every VLAN of every multi-chassis LAG of the domain), or remove {} from the multi-chassis LAG",
                all.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", "),
                link.name,
                if all.len() == 1 { "it" } else { "them" }
            ),
            None => format!(
                "add a peer-link between `{}` and `{}` that carries {}",
                a.name,
                b.name,
                vlan_list(&all)
            ),
        };
        // The fix: the peer-link's `vlans` with the missing VLANs added.
        // A peer-link carries every VLAN of its domain's LAGs, so this is
        // the one edit (the other, taking the VLANs off the LAG, would cut
        // the network it was put there for).
        let fix = pl.map(|l| design.link(l)).and_then(|link| {
            let edits = link_vlans_plus(design, link, &all);
            let title = edits
                .iter()
                .map(|e| format!("`{e}`"))
                .collect::<Vec<_>>()
                .join(" and ");
            (!edits.is_empty()).then(|| Fix::safe(format!("set {title}"), edits))
        });
        let mut d = cx
            .finding(&RULE, element, span, message)
            .with_help(help)
            .with_fix(fix);
        // Each end stated apart: the end that allows the VLANs is a
        // related line (the finding sits at the list that lacks them).
        if let Some(link) = pl.map(|l| design.link(l)) {
            let ends = [
                (link.ends.vlans_a.as_ref(), true),
                (link.ends.vlans_b.as_ref(), false),
            ];
            for (list, a_end) in ends {
                let Some(list) =
                    list.filter(|l| Some(l.span) != link.vlans.as_ref().map(|v| v.span))
                else {
                    continue;
                };
                let allowed: Vec<u16> = list.value.iter().filter(|v| all.contains(v)).collect();
                if allowed.is_empty() {
                    continue;
                }
                d = d.with_related(
                    list.span,
                    format!(
                        "the peer-link's end at {} allows {}",
                        end_names(design, link, a_end),
                        vlan_list(&allowed)
                    ),
                );
            }
        }
        for (l, v) in &gap.lags {
            let link = design.link(*l);
            d = d.with_related(
                link.vlans.as_ref().map(|x| x.span).unwrap_or(link.span),
                format!("multi-chassis LAG `{}` carries {}", link.name, vlan_list(v)),
            );
        }
        out.push(d);
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const SRC: &str = r#"
[design]
name = "t"
[networks.mgmt]
role = "management"
vlan = 10
[networks.csv]
role = "csv"
vlan = 20
[switches.core]
stp = { mode = "rstp", priority = 4096 }
[switches.a]
mlag = "m"
[switches.b]
mlag = "m"
[[links]]
name = "peer"
a = "a"
b = "b"
kind = "peer-link"
speed = "100G"
members = 2
PEERVLANS
[[links]]
name = "up"
a = "core"
b = ["a", "b"]
speed = "10G"
members = 2
UPVLANS
[hosts.h1.nics.A]
speed = "10G"
switch = "a"
networks = ["mgmt"]
[hosts.h1.nics.B]
speed = "10G"
switch = "core"
networks = ["csv"]
[hosts.h2.nics.A]
speed = "10G"
switch = "a"
networks = ["mgmt"]
[hosts.h2.nics.B]
speed = "10G"
switch = "core"
networks = ["csv"]
"#;

    fn src(peer: &str, up: &str) -> String {
        SRC.replace("PEERVLANS", peer).replace("UPVLANS", up)
    }

    #[test]
    fn a_vlan_on_the_vpc_but_not_on_the_peer_link_fires_at_the_peer_link() {
        let f = findings(&src("vlans = [10]", ""), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "links.peer");
        assert!(
            f[0].message.starts_with(
                "peer-link `peer` between `a` and `b` does not allow VLAN 20 (network `csv`), which multi-chassis LAG `up` carries"
            ),
            "{}",
            f[0].message
        );
        assert_eq!(f[0].related.len(), 1);
        assert!(f[0]
            .help
            .as_deref()
            .unwrap()
            .starts_with("add 20 to `vlans` of peer-link `peer`"));
    }

    #[test]
    fn a_listed_vlan_no_network_uses_counts_too() {
        let f = findings(
            &src("vlans = [10, 20]", "vlans = [10, 20, 50]"),
            &super::RULE,
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message
                .starts_with("peer-link `peer` between `a` and `b` does not allow VLAN 50, which"),
            "{}",
            f[0].message
        );
        // A switch that does not define it does not carry it.
        let s = src("vlans = [10, 20]", "vlans = [10, 20, 50]").replace(
            "[switches.a]
",
            "[switches.a]
vlans = [10, 20]
",
        );
        assert!(findings(&s, &super::RULE).is_empty());
    }

    #[test]
    fn a_peer_link_with_every_vlan_is_silent() {
        assert!(findings(&src("", ""), &super::RULE).is_empty());
        assert!(findings(&src("vlans = [10, 20]", ""), &super::RULE).is_empty());
    }

    #[test]
    fn a_vpc_that_leaves_the_vlan_out_is_silent() {
        assert!(findings(&src("vlans = [10]", "vlans = [10]"), &super::RULE).is_empty());
    }

    #[test]
    fn a_domain_without_a_declared_peer_link_is_silent() {
        let s = src("", "").replace(
            "[[links]]\nname = \"peer\"\na = \"a\"\nb = \"b\"\nkind = \"peer-link\"\nspeed = \"100G\"\nmembers = 2\n\n",
            "",
        );
        assert!(!s.contains("peer-link"));
        assert!(findings(&s, &super::RULE).is_empty());
    }
}
