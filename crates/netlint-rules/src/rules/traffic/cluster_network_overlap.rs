//! `cluster-network-overlap`: two networks share a subnet, or share a VLAN id
//! on the same switches.

use crate::{declare_rule, Context};
use netlint_model::{Design, Diagnostic, Network};

declare_rule!(
    RULE,
    id: "cluster-network-overlap",
    category: "traffic",
    severity: Error,
    summary: "Two networks of the design share a subnet, or share a VLAN id on the same switches.",
    check: check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let d = cx.design;
    for (j, second) in d.networks.iter().enumerate() {
        for first in &d.networks[..j] {
            if let Some(f) = pair(cx, d, first, second) {
                out.push(f);
            }
        }
    }
}

/// The finding for one pair of networks, at the second one's line.
fn pair(cx: &Context<'_>, d: &Design, first: &Network, second: &Network) -> Option<Diagnostic> {
    let subnets = match (&first.subnet, &second.subnet) {
        (Some(a), Some(b)) if a.value.overlaps(&b.value) => Some((a, b)),
        _ => None,
    };
    let vlan = match (&first.vlan, &second.vlan) {
        (Some(a), Some(b)) if a.value == b.value => {
            let on: Vec<&str> = d
                .switches
                .iter()
                .filter(|s| s.defines_vlan(Some(a.value)))
                .map(|s| s.name.as_str())
                .collect();
            // Without switches the two meet wherever the hosts put them;
            // with switches, only where a switch defines the VLAN.
            (d.switches.is_empty() || !on.is_empty()).then_some((a, b, on))
        }
        _ => None,
    };
    if subnets.is_none() && vlan.is_none() {
        return None;
    }

    let mut facts = Vec::new();
    if let Some((a, _, on)) = &vlan {
        let place = if on.is_empty() {
            String::new()
        } else {
            format!(
                " on switch{} {}",
                if on.len() == 1 { "" } else { "es" },
                on.iter()
                    .map(|s| format!("`{s}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        facts.push(format!("share VLAN {}{place}", a.value));
    }
    if let Some((a, b)) = subnets {
        if a.value == b.value {
            facts.push(format!("share subnet {}", a.value));
        } else {
            facts.push(format!(
                "have overlapping subnets ({} and {})",
                a.value, b.value
            ));
        }
    }
    let message = format!(
        "networks `{}` and `{}` {}: the cluster merges them into one network where the design means two",
        first.name,
        second.name,
        facts.join(" and ")
    );

    let mut fixes = Vec::new();
    if let Some((a, _, _)) = &vlan {
        match free_vlan(d, a.value) {
            Some(v) => fixes.push(format!(
                "give `{}` a VLAN of its own (e.g. `vlan = {v}`, unused in the design)",
                second.name
            )),
            None => fixes.push(format!("give `{}` a VLAN of its own", second.name)),
        }
    }
    if subnets.is_some() {
        fixes.push(format!(
            "give `{}` a subnet that does not overlap `{}`'s",
            second.name, first.name
        ));
    }
    let help = format!(
        "{}; if they are really one segment, describe it as one network",
        fixes.join(" and ")
    );

    let mut f = match (&vlan, subnets) {
        (Some((a, b, _)), subnets) => {
            let mut f = cx
                .finding(&RULE, second.element(), b.span, message)
                .with_related(
                    a.span,
                    format!("`{}` uses VLAN {} here", first.name, a.value),
                );
            if let Some((sa, sb)) = subnets {
                f = f
                    .with_related(sb.span, format!("`{}`: {}", second.name, sb.value))
                    .with_related(sa.span, format!("`{}`: {}", first.name, sa.value));
            }
            f
        }
        (None, Some((sa, sb))) => cx
            .finding(&RULE, second.element(), sb.span, message)
            .with_related(sa.span, format!("`{}` uses {} here", first.name, sa.value)),
        (None, None) => unreachable!("returned above"),
    };
    f = f.with_help(help);
    Some(f)
}

/// The first VLAN id above `from` that no network of the design uses.
fn free_vlan(d: &Design, from: u16) -> Option<u16> {
    let used = d.used_vlans();
    (from + 1..=4094)
        .chain(1..from)
        .find(|v| !used.contains(*v))
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const BASE: &str = r#"
[design]
name = "t"
[networks.csv]
role = "csv"
vlan = 20
subnet = "10.0.20.0/24"
[networks.lm]
role = "live-migration"
LM
SWITCHES
"#;

    fn design(lm: &str, switches: &str) -> String {
        BASE.replace("LM", lm).replace("SWITCHES", switches)
    }

    #[test]
    fn shared_vlan_on_a_switch_fires_at_the_second_network() {
        let src = design("vlan = 20\nsubnet = \"10.0.30.0/24\"", "[switches.sw]");
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "networks.lm");
        assert!(
            f[0].message
                .contains("networks `csv` and `lm` share VLAN 20 on switch `sw`"),
            "{}",
            f[0].message
        );
        let at = f[0].primary.as_ref().unwrap().span.start;
        let lm_vlan = src.find("vlan = 20\nsubnet = \"10.0.30").unwrap();
        assert_eq!(at, lm_vlan + "vlan = ".len());
        assert!(f[0].help.as_deref().unwrap().contains("`vlan = 21`"));
    }

    #[test]
    fn shared_vlan_not_defined_on_any_switch_is_silent() {
        let src = design(
            "vlan = 20\nsubnet = \"10.0.30.0/24\"",
            "[switches.sw]\nvlans = [30]",
        );
        assert!(findings(&src, &super::RULE).is_empty());
    }

    #[test]
    fn shared_vlan_only_lists_switches_that_define_it() {
        let src = design(
            "vlan = 20\nsubnet = \"10.0.30.0/24\"",
            "[switches.a]\nvlans = [20]\n[switches.b]\nvlans = [30]",
        );
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("on switch `a`:"), "{}", f[0].message);
    }

    #[test]
    fn shared_vlan_without_switches_still_fires() {
        let f = findings(&design("vlan = 20", ""), &super::RULE);
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("share VLAN 20:"), "{}", f[0].message);
    }

    #[test]
    fn overlapping_subnets_fire_at_the_subnet_line() {
        let src = design("vlan = 30\nsubnet = \"10.0.20.128/25\"", "[switches.sw]");
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message
                .contains("overlapping subnets (10.0.20.0/24 and 10.0.20.128/25)"),
            "{}",
            f[0].message
        );
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert_eq!(at, src.find("\"10.0.20.128/25\"").unwrap());
    }

    #[test]
    fn vlan_and_subnet_together_make_one_finding() {
        let src = design("vlan = 20\nsubnet = \"10.0.20.0/24\"", "[switches.sw]");
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message
                .contains("share VLAN 20 on switch `sw` and share subnet 10.0.20.0/24"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn distinct_networks_and_untagged_pairs_are_fine() {
        let src = design("vlan = 30\nsubnet = \"10.0.30.0/24\"", "[switches.sw]");
        assert!(findings(&src, &super::RULE).is_empty());
        // Two untagged networks have no VLAN id to share.
        let src = BASE
            .replace("vlan = 20\n", "")
            .replace("LM", "subnet = \"10.0.30.0/24\"")
            .replace("SWITCHES", "[switches.sw]");
        assert!(findings(&src, &super::RULE).is_empty());
    }

    #[test]
    fn every_pair_is_reported_once() {
        let src = design(
            "vlan = 20",
            "[switches.sw]\n[networks.bk]\nrole = \"backup\"\nvlan = 20",
        );
        let f = findings(&src, &super::RULE);
        let pairs: Vec<String> = f.iter().map(|d| d.element()).collect();
        assert_eq!(
            pairs,
            ["networks.lm", "networks.bk", "networks.bk"],
            "{f:#?}"
        );
    }
}
