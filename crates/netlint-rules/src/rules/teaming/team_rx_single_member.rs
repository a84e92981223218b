//! `team-rx-single-member`: a switch-independent address-hash team receives
//! on one member only.

use crate::phrases::bandwidth::{fmt_rate, nics_text};
use crate::rules::fix_at::host_table;
use crate::rules::traffic::emit_per_host;
use crate::{declare_rule, Context};
use netlint_model::Element;
use netlint_model::{Diagnostic, Fix, FixEdit, LoadBalancing, NicIdx, Platform, Speed, TeamMode};

declare_rule!(
    RULE,
    id: "team-rx-single-member",
    category: "teaming",
    severity: Info,
    summary: "A switch-independent address-hash team receives on one member only.",
    check: check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut found = Vec::new();
    for host in &cx.design.hosts {
        for team in &host.teams {
            if team.mode.value != TeamMode::SwitchIndependent
                || team.load_balancing.value != LoadBalancing::AddressHash
            {
                continue;
            }
            let standby = team.standby.as_ref().map(|s| s.value);
            let active: Vec<NicIdx> = team
                .members
                .iter()
                .map(|m| m.value)
                .filter(|m| Some(*m) != standby)
                .collect();
            // With one active member, sending and receiving are one member
            // anyway.
            if active.len() < 2 {
                continue;
            }
            // The figures need every member's speed (`speed-unknown`
            // names the check otherwise).
            let Some(speeds) = active
                .iter()
                .map(|n| host.nic(*n).known_speed())
                .collect::<Option<Vec<Speed>>>()
            else {
                continue;
            };
            let one = speeds.iter().copied().min().unwrap_or_default();
            let all = Speed::from_bps(speeds.iter().map(|s| s.bps()).sum());
            // `dynamic` exists from Windows Server 2012 R2 on; a
            // switch-dependent team is the other way: a choice.
            let at = team.load_balancing.span;
            let fix =
                (host.os.value.is_windows() && host.os.value >= Platform::Ws2012R2).then(|| {
                    let path = host_table(host, at)
                        .then("teams")
                        .then(team.name.as_str())
                        .then("load_balancing");
                    Fix::unsafe_(
                        format!("set `{path} = \"dynamic\"`"),
                        vec![FixEdit::replace(
                            path,
                            LoadBalancing::AddressHash.as_str(),
                            LoadBalancing::Dynamic.as_str(),
                            at,
                        )],
                    )
                });
            found.push(cx
                    .finding(
                        &RULE,
                        Element::team(&host.name, &team.name),
                        team.load_balancing.span,
                        format!(
                            "team `{}` is switch-independent with address-hash load balancing: it sends on all {} active members ({}) but receives everything on one, so inbound traffic gets {} of {}",
                            team.name,
                            active.len(),
                            nics_text(host, &active),
                            fmt_rate(one),
                            fmt_rate(all)
                        ),
                    )
                    .with_related(team.mode.span, "switch-independent: the switch does not spread inbound traffic")
                    .with_help(format!(
                        "set `load_balancing = \"dynamic\"` on team `{}` (Windows Server 2012 R2 and later), or make it switch-dependent (`mode = \"lacp\"` with `switch_lag = \"lacp\"`, members on one switch, stack or MLAG domain) so that the switch spreads inbound flows",
                        team.name
                    ))
                    .with_fix(fix));
        }
    }
    emit_per_host(out, found);
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const BASE: &str = r#"
[design]
name = "t"
[switches.sw]
[profiles.p.nics.A]
speed = "10G"
switch = "sw"
[profiles.p.nics.B]
speed = "10G"
switch = "sw"
[profiles.p.teams.T]
members = ["A", "B"]
mode = "MODE"
load_balancing = "LB"
EXTRA
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
"#;

    fn src(mode: &str, lb: &str, extra: &str) -> String {
        BASE.replace("MODE", mode)
            .replace("LB", lb)
            .replace("EXTRA", extra)
    }

    #[test]
    fn switch_independent_address_hash_fires_with_the_numbers() {
        let s = src("switch-independent", "address-hash", "");
        let f = findings(&s, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        let m = &f[0].message;
        assert!(
            m.starts_with("hosts `hv1`, `hv2`: team `T` is switch-independent"),
            "{m}"
        );
        assert!(m.contains("all 2 active members (2 x 10G)"), "{m}");
        assert!(m.contains("inbound traffic gets 10 Gb/s of 20 Gb/s"), "{m}");
        assert_eq!(f[0].element(), "hosts.hv1.teams.T");
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert_eq!(&s[at..at + 14], "\"address-hash\"");
    }

    #[test]
    fn other_modes_and_balancing_are_silent() {
        for (mode, lb) in [
            ("switch-independent", "dynamic"),
            ("switch-independent", "hyperv-port"),
            ("lacp", "address-hash"),
            ("static", "address-hash"),
        ] {
            assert!(
                findings(&src(mode, lb, ""), &super::RULE).is_empty(),
                "{mode} {lb}"
            );
        }
    }

    #[test]
    fn one_active_member_and_a_standby_is_silent() {
        let s = src("switch-independent", "address-hash", "standby = \"B\"");
        assert!(findings(&s, &super::RULE).is_empty());
    }
}
