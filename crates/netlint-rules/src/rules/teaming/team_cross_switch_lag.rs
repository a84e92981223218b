//! `team-cross-switch-lag`: a switch-dependent team (`static` / `lacp`)
//! whose members are cabled to switches that are not one logical switch.

use super::team_lag_mismatch;
use super::HostHit;
use crate::rules::traffic::emit_per_host;
use crate::{declare_rule, Context};
use netlint_model::Element;
use netlint_model::{Attachment, Diagnostic, Fix, Nic, Sp, SwitchId, SwitchLag};

declare_rule!(
    RULE,
    id: "team-cross-switch-lag",
    category: "teaming",
    severity: Error,
    summary: "A static or LACP team has members cabled to switches that are not one stack or MLAG domain.",
    check: check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let design = cx.design;
    let mut hits: Vec<(HostHit, Fix)> = Vec::new();
    for host in &design.hosts {
        for team in &host.teams {
            if !team.mode.value.switch_dependent() {
                continue;
            }
            // Only members cabled to a switch: an uncabled member or a
            // direct cable says nothing about the switch side.
            let cabled: Vec<(&Nic, &Sp<SwitchId>)> = team
                .members
                .iter()
                .map(|m| host.nic(m.value))
                .filter_map(|n| match &n.attach {
                    Some(Attachment::Switch(sw)) => Some((n, sw)),
                    _ => None,
                })
                .collect();
            let split = cabled.iter().enumerate().find_map(|(i, (a, sa))| {
                cabled[i + 1..]
                    .iter()
                    .find(|(_, sb)| !design.same_logical_switch(sa.value, sb.value))
                    .map(|(b, sb)| ((*a, *sa), (*b, *sb)))
            });
            let Some(((a, sa), (b, sb))) = split else {
                continue;
            };
            let (name_a, name_b) = (&design.switch(sa.value).name, &design.switch(sb.value).name);
            let mut switches: Vec<&str> = Vec::new();
            for (_, sw) in &cabled {
                let name = design.switch(sw.value).name.as_str();
                if !switches.contains(&name) {
                    switches.push(name);
                }
            }
            let cabling: Vec<String> = cabled
                .iter()
                .map(|(n, sw)| format!("{} to {}", n.name, design.switch(sw.value).name))
                .collect();
            // The mode that matches ports of independent switches; with a
            // `switch_lag` stated on the team, the fix check refuses it
            // (`team-lag-mismatch` would be new).
            let fix = team_lag_mismatch::fix(host, team, SwitchLag::None);
            hits.push((HostHit {
                element: Element::team(&host.name, &team.name),
                span: team.mode.span,
                message: format!(
                    "team `{}` uses `{}` mode but its members are cabled to switches that are not one logical switch ({}): `{name_a}` and `{name_b}` share no stack or MLAG domain",
                    team.name,
                    team.mode.value,
                    cabling.join(", "),
                ),
                related: cabled
                    .iter()
                    .map(|(n, sw)| {
                        (
                            sw.span,
                            format!("`{}` cabled to `{}`", n.name, design.switch(sw.value).name),
                        )
                    })
                    .collect(),
                help: format!(
                    "set `mode = \"switch-independent\"` on team `{}` (with independent switch ports), or make {} one logical switch (a common `stack` or `mlag` domain), or cable `{}` and `{}` to one switch",
                    team.name,
                    switches
                        .iter()
                        .map(|s| format!("`{s}`"))
                        .collect::<Vec<_>>()
                        .join(" and "),
                    a.name,
                    b.name,
                ),
            }, fix));
        }
    }
    let found = hits
        .into_iter()
        .map(|(h, fix)| {
            let mut d = cx
                .finding(&RULE, h.element, h.span, h.message)
                .with_help(h.help)
                .with_fix(Some(fix));
            for (span, label) in h.related {
                d = d.with_related(span, label);
            }
            d
        })
        .collect();
    emit_per_host(out, found);
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const ID: &crate::Rule = &super::RULE;

    const BASE: &str = r#"
[design]
name = "t"
[networks.vm]
role = "vm"
vlan = 100
[switches.sw-a]
SW_A
[switches.sw-b]
SW_B
[profiles.p.nics.A]
speed = "10G"
switch = "sw-a"
[profiles.p.nics.B]
speed = "10G"
switch = "SWITCH_B"
[profiles.p.teams.T]
members = ["A", "B"]
mode = "MODE"
[hosts.h1]
profile = "p"
[hosts.h2]
profile = "p"
"#;

    fn src(mode: &str, switch_b: &str, sw_a: &str, sw_b: &str) -> String {
        BASE.replace("MODE", mode)
            .replace("SWITCH_B", switch_b)
            .replace("SW_A", sw_a)
            .replace("SW_B", sw_b)
    }

    #[test]
    fn lacp_across_independent_switches_fires_at_the_mode() {
        let f = findings(&src("lacp", "sw-b", "", ""), ID);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "hosts.h1.teams.T");
        assert_eq!(
            f[0].message,
            "hosts `h1`, `h2`: team `T` uses `lacp` mode but its members are cabled to switches that are not one logical switch (A to sw-a, B to sw-b): `sw-a` and `sw-b` share no stack or MLAG domain"
        );
        assert_eq!(f[0].related.len(), 2);
    }

    #[test]
    fn static_mode_too() {
        assert_eq!(findings(&src("static", "sw-b", "", ""), ID).len(), 1);
    }

    #[test]
    fn switch_independent_is_fine() {
        assert!(findings(&src("switch-independent", "sw-b", "", ""), ID).is_empty());
    }

    #[test]
    fn one_switch_stack_or_mlag_is_fine() {
        assert!(findings(&src("lacp", "sw-a", "", ""), ID).is_empty());
        assert!(findings(&src("lacp", "sw-b", "stack = \"s1\"", "stack = \"s1\""), ID).is_empty());
        assert!(findings(
            &src("lacp", "sw-b", "mlag = \"vpc-1\"", "mlag = \"vpc-1\""),
            ID
        )
        .is_empty());
    }

    #[test]
    fn different_mlag_domains_fire() {
        let f = findings(
            &src("lacp", "sw-b", "mlag = \"vpc-1\"", "mlag = \"vpc-2\""),
            ID,
        );
        assert_eq!(f.len(), 1);
    }

    #[test]
    fn uncabled_members_are_not_compared() {
        let s = src("lacp", "sw-b", "", "").replace("switch = \"sw-b\"\n", "");
        assert!(findings(&s, ID).is_empty());
    }
}
