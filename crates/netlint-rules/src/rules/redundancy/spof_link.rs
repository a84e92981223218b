//! `spof-link`: one inter-switch cable failure cuts a network or group that
//! must survive any single failure.

use super::unit_findings;
use crate::{declare_rule, Context};
use netlint_analysis::failure::Unit;
use netlint_model::Diagnostic;

declare_rule!(
    RULE,
    id: "spof-link",
    category: "redundancy",
    severity: Error,
    summary: "One inter-switch cable failure cuts a network or group that must survive any single failure.",
    check: check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    unit_findings(
        cx,
        &RULE,
        |u| matches!(u, Unit::Cable(..) | Unit::Link(..)),
        false,
        |unit, _, _| {
            let (Unit::Cable(l, _) | Unit::Link(l)) = unit else {
                return String::new();
            };
            let link = cx.design.link(*l);
            let ends: Vec<String> = link
                .ends()
                .map(|s| format!("`{}`", cx.design.switch(s).name))
                .collect();
            if link.members.value == 1 {
                format!(
                    "give link `{}` a second cable (`members = 2`, bundled as a LAG), or add a second path between {} that allows the network's VLAN",
                    link.name,
                    ends.join(" and ")
                )
            } else {
                format!(
                    "add a path between {} that does not depend on link `{}`, or keep the spanning tree from moving traffic off it when it loses a cable (`stp_cost`)",
                    ends.join(" and "),
                    link.name
                )
            }
        },
        out,
    );
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;
    use netlint_model::Severity;

    const SRC: &str = r#"
[design]
name = "t"
[networks.vm]
role = "vm"
vlan = 100
[networks.csv]
role = "csv"
vlan = 20
[switches.tor-a]
[switches.tor-b]
[[links]]
name = "isl"
a = "tor-a"
b = "tor-b"
speed = "10G"
MEMBERS
[profiles.p.nics.A]
card = "a"
speed = "10G"
switch = "tor-a"
[profiles.p.nics.B]
card = "b"
speed = "10G"
switch = "tor-b"
[profiles.p.vswitches.S]
uplinks = ["A", "B"]
networks = ["vm"]
[profiles.p.vswitches.S.vnics.CSV]
network = "csv"
[hosts.h1]
profile = "p"
[hosts.h2]
profile = "p"
"#;

    #[test]
    fn a_one_cable_isl_under_a_set_switch_spanning_both_switches_fires() {
        let f = findings(&SRC.replace("MEMBERS", ""), &super::RULE);
        // vm (error) and the cluster group (warning), one reason: a SET
        // switch whose members end on two switches that no longer meet.
        assert_eq!(f.len(), 1, "{f:#?}");
        let d = &f[0];
        assert_eq!(d.severity, Severity::Error);
        assert_eq!(d.element(), "links.isl");
        assert_eq!(
            d.message,
            "if the cable of link `isl` fails, hosts `h1`, `h2` lose network `vm` and every cluster network (`csv`): its working adapters end on `tor-a` and `tor-b`, which no longer reach each other"
        );
        assert!(d.help.as_deref().unwrap().contains("`members = 2`"));
    }

    #[test]
    fn a_two_cable_lag_is_redundant() {
        assert!(findings(&SRC.replace("MEMBERS", "members = 2"), &super::RULE).is_empty());
    }
}
