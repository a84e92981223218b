//! `trunk-vlan-mismatch`: the two ends of an inter-switch link allow
//! different VLANs (`vlans_a` / `vlans_b`), so a VLAN one end sends is
//! dropped at the other.

use super::and_list;
use crate::rules::fix_at::{link_table, vlans_plus};
use crate::{declare_rule, Context};
use netlint_model::{Design, Diagnostic, End, Fix, Link, LinkKind, Sp, SwitchId, VlanSet};

declare_rule!(
    RULE,
    id: "trunk-vlan-mismatch",
    category: "stp",
    severity: Warning,
    summary: "The two ends of an inter-switch link allow different VLANs: a VLAN one end sends is dropped at the other.",
    check: check,
);

/// The VLANs worth a word on one end's side: a network's VLAN, or a VLAN
/// the end's switches define (VLAN 1 only through a network). A VLAN no
/// switch of that end defines and no network uses crosses nothing.
fn in_use(design: &Design, link: &Link, a_end: bool, v: u16) -> bool {
    if design
        .networks
        .iter()
        .any(|n| n.vlan.as_ref().is_some_and(|x| x.value == v))
    {
        return true;
    }
    if v == 1 {
        return false;
    }
    end_switches(link, a_end).into_iter().any(|s| {
        design
            .switch(s)
            .vlans
            .as_ref()
            .is_some_and(|d| d.value.contains(v))
    })
}

/// The switches of one end of a link (`a` and `a_more`, or every `b`).
fn end_switches(link: &Link, a_end: bool) -> Vec<SwitchId> {
    link.end_switches(if a_end { End::A } else { End::B })
}

/// "`acc1`", "`tor-a` and `tor-b`".
pub(crate) fn end_names(design: &Design, link: &Link, a_end: bool) -> String {
    let names: Vec<String> = end_switches(link, a_end)
        .into_iter()
        .map(|s| format!("`{}`", design.switch(s).name))
        .collect();
    and_list(&names)
}

/// On a peer link: the VLANs a multi-chassis LAG of its two peers carries.
/// `mlag-peer-link-vlan` reports a peer link that lacks one of them (one
/// cause, one finding); empty for any other link.
fn mc_lag_vlans(design: &Design, link: &Link) -> VlanSet {
    if link.kind.value != LinkKind::PeerLink {
        return VlanSet::new();
    }
    let peers: Vec<_> = std::iter::once(&link.a)
        .chain(&link.b)
        .map(|s| s.value)
        .collect();
    design
        .links
        .iter()
        .filter(|l| l.index != link.index)
        .filter(|l| {
            let on = |e: &[_]| {
                peers
                    .iter()
                    .all(|p| e.iter().any(|x: &&Sp<_>| x.value == *p))
            };
            let a: Vec<&Sp<_>> = std::iter::once(&l.a).chain(&l.a_more).collect();
            let b: Vec<&Sp<_>> = l.b.iter().collect();
            on(&a) || on(&b)
        })
        .flat_map(|l| l.vlans.iter().flat_map(|v| v.value.iter()))
        .collect()
}

fn only(one: &Sp<VlanSet>, other: &Sp<VlanSet>) -> Vec<u16> {
    one.value
        .iter()
        .filter(|v| !other.value.contains(*v))
        .collect()
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let design = cx.design;
    for link in &design.links {
        // A stacking cable is a backplane, not an 802.1Q trunk.
        if link.kind.value == LinkKind::Stack {
            continue;
        }
        let (Some(va), Some(vb)) = (&link.ends.vlans_a, &link.ends.vlans_b) else {
            continue;
        };
        let covered = mc_lag_vlans(design, link);
        let only_a: Vec<u16> = only(va, vb)
            .into_iter()
            .filter(|v| in_use(design, link, true, *v) && !covered.contains(*v))
            .collect();
        let only_b: Vec<u16> = only(vb, va)
            .into_iter()
            .filter(|v| in_use(design, link, false, *v) && !covered.contains(*v))
            .collect();
        if only_a.is_empty() && only_b.is_empty() {
            continue;
        }
        let (na, nb) = (
            end_names(design, link, true),
            end_names(design, link, false),
        );
        let mut parts = Vec::new();
        for (vs, has, lacks) in [(&only_a, &na, &nb), (&only_b, &nb, &na)] {
            if vs.is_empty() {
                continue;
            }
            let set: VlanSet = vs.iter().copied().collect();
            let which = if vs.len() == 1 { "VLAN" } else { "VLANs" };
            let nets: Vec<String> = design
                .networks
                .iter()
                .filter(|n| n.vlan.as_ref().is_some_and(|x| vs.contains(&x.value)))
                .map(|n| format!("`{}`", n.name))
                .collect();
            let nets = if nets.is_empty() {
                String::new()
            } else {
                format!(" ({})", and_list(&nets))
            };
            parts.push(format!(
                "{has} allows {which} {set}{nets}, which {lacks} does not: its frames are dropped at {lacks}, so {which} {set} on {has} is cut off across this link"
            ));
        }
        // The end that lacks VLANs the other sends is where the trunk was
        // pruned: the finding sits there (the `b` end when both lack some).
        let (primary, related, related_words) = if only_a.is_empty() {
            (va, vb, format!("the allowed VLANs of {nb}"))
        } else {
            (vb, va, format!("the allowed VLANs of {na}"))
        };
        let mut d = cx
            .finding(
                &RULE,
                link.element(),
                primary.span,
                format!(
                    "the two ends of link `{}` allow different VLANs: {}",
                    link.name,
                    parts.join("; ")
                ),
            )
            .with_related(related.span, related_words)
            .with_help(format!(
                "allow the same VLANs at both ends of link `{}` on the switches (`switchport trunk allowed vlan add ...` where one is missing, or remove it from the other end) and write one `vlans` for the link",
                link.name
            ));
        // The fix: the end that lacks VLANs allows them. Removing them from
        // the other end is as possible: it needs judgement.
        let table = link_table(link);
        let edits: Vec<_> = [(vb, "vlans_b", &only_a), (va, "vlans_a", &only_b)]
            .into_iter()
            .filter(|(_, _, add)| !add.is_empty())
            .filter_map(|(list, key, add)| {
                vlans_plus(design, table.clone().then(key), list, add.iter().copied())
            })
            .collect();
        if !edits.is_empty() {
            d = d.with_fix(Some(Fix::unsafe_(
                format!(
                    "allow at each end of link `{}` the VLANs the other end sends",
                    link.name
                ),
                edits,
            )));
        }
        out.push(d);
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const LINK: &str = r#"
[design]
name = "t"
[networks.storage]
role = "storage"
vlan = 391
[switches.acc1]
vlans = [10, 20, 391]
[switches.tor]
vlans = [10, 20, 391]
[[links]]
name = "up"
a = "acc1"
b = "tor"
speed = "10G"
ENDS
"#;

    #[test]
    fn a_vlan_one_end_allows_is_reported_at_the_end_that_lacks_it() {
        let design = LINK.replace("ENDS", "vlans_a = [10, 20, 391]\nvlans_b = [10, 20]");
        let f = findings(&design, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "the two ends of link `up` allow different VLANs: `acc1` allows VLAN 391 (`storage`), which `tor` does not: its frames are dropped at `tor`, so VLAN 391 on `acc1` is cut off across this link"
        );
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert!(design[at..].starts_with("[10, 20]\n"), "{}", &design[at..]);
        assert_eq!(f[0].related[0].message, "the allowed VLANs of `acc1`");
        let fix = f[0].fix.as_ref().expect("a fix");
        assert_eq!(fix.safety, netlint_model::FixSafety::Unsafe);
        assert_eq!(fix.edits[0].path.to_string(), "links[0].vlans_b");
    }

    #[test]
    fn the_same_vlans_and_vlans_nobody_uses_are_no_finding() {
        let same = LINK.replace("ENDS", "vlans_a = [10, 20]\nvlans_b = [10, 20]");
        assert!(findings(&same, &super::RULE).is_empty());
        // `1-4094` against a pruned list: only the VLANs in use count, and
        // every VLAN in use is on both ends.
        let wide = LINK.replace("ENDS", "vlans_a = [\"1-4094\"]\nvlans_b = [10, 20, 391]");
        assert!(findings(&wide, &super::RULE).is_empty());
        let one = LINK.replace("ENDS", "vlans = [10, 20]");
        assert!(findings(&one, &super::RULE).is_empty());
    }

    #[test]
    fn each_end_lacking_vlans_is_named() {
        let design = LINK.replace("ENDS", "vlans_a = [10, 391]\nvlans_b = [10, 20]");
        let f = findings(&design, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        let m = &f[0].message;
        assert!(
            m.contains("`acc1` allows VLAN 391 (`storage`), which `tor` does not"),
            "{m}"
        );
        assert!(
            m.contains("`tor` allows VLAN 20, which `acc1` does not"),
            "{m}"
        );
        assert_eq!(f[0].fix.as_ref().unwrap().edits.len(), 2);
    }
}
