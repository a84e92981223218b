//! `team-lag-mismatch`: a team's mode disagrees with how the switch ports
//! of its members are set up (`switch_lag`).

use crate::rules::traffic::emit_per_host;
use crate::{declare_rule, Context};
use netlint_model::Element;
use netlint_model::{Diagnostic, SwitchLag, TeamMode};

declare_rule!(
    RULE,
    id: "team-lag-mismatch",
    category: "teaming",
    severity: Error,
    summary: "A team's mode disagrees with the port-channel configuration of its switch ports (`switch_lag`).",
    check: check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut found = Vec::new();
    for host in &cx.design.hosts {
        for team in &host.teams {
            let Some(lag) = &team.switch_lag else {
                continue;
            };
            let (what, help) = match (team.mode.value, lag.value) {
                (TeamMode::Lacp, SwitchLag::Lacp)
                | (TeamMode::Static, SwitchLag::Static)
                | (TeamMode::SwitchIndependent, SwitchLag::None) => continue,
                (TeamMode::Lacp | TeamMode::Static, SwitchLag::None) => (
                    format!(
                        "is switch-dependent (`{}`) but its members' switch ports are independent (`switch_lag = \"none\"`): the team sends on every member as one bundle, the switch sees the same MAC address move between ports, and frames are dropped or looped back",
                        team.mode.value
                    ),
                    format!(
                        "bundle the members' switch ports into one port-channel ({}), or set `mode = \"switch-independent\"` on the team",
                        if team.mode.value == TeamMode::Lacp { "LACP" } else { "static, `channel-group mode on`" }
                    ),
                ),
                (TeamMode::SwitchIndependent, SwitchLag::Lacp | SwitchLag::Static) => (
                    format!(
                        "is switch-independent but its members' switch ports are bundled into a port-channel (`switch_lag = \"{}\"`): {}",
                        lag.value,
                        if lag.value == SwitchLag::Lacp {
                            "the team never answers LACP, so the switch suspends the ports (or leaves them individual and standalone)"
                        } else {
                            "the switch hashes inbound frames onto any member, while a switch-independent team expects each flow back on the member it chose, so traffic is dropped"
                        }
                    ),
                    "remove the port-channel on the switch (`switch_lag = \"none\"`), or set the team's `mode` to match it".to_string(),
                ),
                (TeamMode::Lacp, SwitchLag::Static) | (TeamMode::Static, SwitchLag::Lacp) => (
                    format!(
                        "uses `{}` but its switch ports are a {} port-channel: {}",
                        team.mode.value,
                        lag.value,
                        if team.mode.value == TeamMode::Lacp {
                            "the static bundle never answers LACP, so the team keeps its members out of service"
                        } else {
                            "the switch waits for LACP the static team never sends, and suspends the ports"
                        }
                    ),
                    format!(
                        "use LACP on both ends (`mode = \"lacp\"` with an LACP port-channel) or static on both ends; the team now says `{}` and the switch `{}`",
                        team.mode.value, lag.value
                    ),
                ),
            };
            found.push(
                cx.finding(
                    &RULE,
                    Element::team(&host.name, &team.name),
                    lag.span,
                    format!("team `{}` {what}", team.name),
                )
                .with_related(team.mode.span, format!("team mode `{}`", team.mode.value))
                .with_help(help),
            );
        }
    }
    emit_per_host(out, found);
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    fn src(mode: &str, lag: &str) -> String {
        format!(
            r#"
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
mode = "{mode}"
{lag}
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
"#
        )
    }

    #[test]
    fn switch_dependent_on_independent_ports_fires_at_switch_lag() {
        let s = src("lacp", "switch_lag = \"none\"");
        let f = findings(&s, "team-lag-mismatch");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.starts_with("hosts `hv1`, `hv2`: team `T` is switch-dependent (`lacp`) but its members' switch ports are independent"),
            "{}",
            f[0].message
        );
        assert_eq!(f[0].element(), "hosts.hv1.teams.T");
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert_eq!(&s[at..at + 6], "\"none\"");
    }

    #[test]
    fn every_mismatch_fires_and_every_match_is_silent() {
        let cases = [
            ("lacp", "lacp", false),
            ("static", "static", false),
            ("switch-independent", "none", false),
            ("static", "none", true),
            ("switch-independent", "lacp", true),
            ("switch-independent", "static", true),
            ("lacp", "static", true),
            ("static", "lacp", true),
        ];
        for (mode, lag, fires) in cases {
            let f = findings(
                &src(mode, &format!("switch_lag = \"{lag}\"")),
                "team-lag-mismatch",
            );
            assert_eq!(f.len(), usize::from(fires), "{mode} / {lag}: {f:#?}");
        }
        let f = findings(&src("lacp", "switch_lag = \"static\""), "team-lag-mismatch");
        assert!(f[0]
            .message
            .contains("uses `lacp` but its switch ports are a static port-channel"));
    }

    #[test]
    fn unstated_switch_side_is_silent() {
        assert!(findings(&src("lacp", ""), "team-lag-mismatch").is_empty());
    }
}
