//! `team-speed-mismatch`: members of one team or SET switch differ in speed.

use crate::phrases::words::speed_text;
use crate::{declare_rule, Context};
use netlint_model::Element;
use netlint_model::{Diagnostic, Sp, Speed};

declare_rule!(
    RULE,
    id: "team-speed-mismatch",
    category: "teaming",
    severity: Error,
    summary: "Members of one team or SET switch differ in speed.",
    check: check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for host in &cx.design.hosts {
        let mut groups: Vec<(String, Element, Vec<&netlint_model::Nic>)> = Vec::new();
        for team in &host.teams {
            let members = team.members.iter().map(|m| host.nic(m.value)).collect();
            groups.push((
                format!("team `{}`", team.name),
                Element::team(&host.name, &team.name),
                members,
            ));
        }
        for vs in host.vswitches.iter().filter(|v| v.is_set()) {
            let members = vs
                .uplinks
                .iter()
                .flat_map(|u| host.uplink_nics(u.value))
                .map(|n| host.nic(n))
                .collect();
            groups.push((
                format!("{} `{}`", vs.kind_words(host.os.value), vs.name),
                Element::vswitch(&host.name, &vs.name),
                members,
            ));
        }
        for (what, element, members) in groups {
            // Members of unknown speed are left out: two stated speeds
            // that differ are still a finding (`speed-unknown` names the
            // check for the others).
            let known: Vec<(&netlint_model::Nic, &Sp<Speed>)> = members
                .iter()
                .filter_map(|n| n.speed.as_ref().map(|s| (*n, s)))
                .collect();
            let Some(&(first, first_speed)) = known.first() else {
                continue;
            };
            let Some(&(odd, odd_speed)) = known.iter().find(|(_, s)| s.value != first_speed.value)
            else {
                continue;
            };
            let speeds: Vec<String> = members
                .iter()
                .map(|n| format!("{} {}", n.name, speed_text(n.known_speed())))
                .collect();
            out.push(
                cx.finding(
                    &RULE,
                    element,
                    odd_speed.span,
                    format!(
                        "host `{}`: {what} mixes speeds ({}): Windows teaming does not support members of different speeds",
                        host.name,
                        speeds.join(", ")
                    ),
                )
                .with_related(first_speed.span, format!("`{}` is {}", first.name, first_speed.value))
                .with_help(format!(
                    "team only adapters of one speed: move `{}` out of the {what}, or replace it with a {} adapter",
                    odd.name, first_speed.value
                )),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const BASE: &str = r#"
[design]
name = "t"
[networks.vm]
role = "vm"
vlan = 100
[switches.sw]
[hosts.h1.nics.A]
speed = "10G"
switch = "sw"
[hosts.h1.nics.B]
speed = "SPEED"
switch = "sw"
[hosts.h1.teams.T]
members = ["A", "B"]
"#;

    #[test]
    fn mixed_speeds_in_a_team_fire_on_the_odd_member() {
        let f = findings(&BASE.replace("SPEED", "1G"), &super::RULE);
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("A 10G, B 1G"), "{}", f[0].message);
        assert_eq!(f[0].element(), "hosts.h1.teams.T");
    }

    #[test]
    fn equal_speeds_are_fine() {
        assert!(findings(&BASE.replace("SPEED", "10G"), &super::RULE).is_empty());
    }

    #[test]
    fn set_switch_members_are_checked_too() {
        let src = BASE.replace("SPEED", "25G").replace(
            "[hosts.h1.teams.T]\nmembers = [\"A\", \"B\"]",
            "[hosts.h1.vswitches.S]\nuplinks = [\"A\", \"B\"]",
        );
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("SET switch `S`"));
    }

    #[test]
    fn vsphere_switches_are_worded_as_vswitch_or_vds() {
        for (kind, word) in [("", "vSwitch `S`"), ("kind = \"vds\"\n", "vDS `S`")] {
            let src = BASE
                .replace("name = \"t\"", "name = \"t\"\nplatform = \"vsphere-8\"")
                .replace("SPEED", "25G")
                .replace(
                    "[hosts.h1.teams.T]\nmembers = [\"A\", \"B\"]",
                    &format!("[hosts.h1.vswitches.S]\n{kind}uplinks = [\"A\", \"B\"]"),
                );
            let f = findings(&src, &super::RULE);
            assert_eq!(f.len(), 1, "{f:#?}");
            assert!(f[0].message.contains(word), "{}", f[0].message);
            assert!(!f[0].message.contains("SET"), "{}", f[0].message);
        }
    }
}
