//! `team-lag-mismatch`: a team's mode disagrees with how the switch ports
//! of its members are set up (`switch_lag`).

use super::vswitch_lag::ports_lag;
use crate::rules::fix_at::{host_table, written};
use crate::rules::traffic::emit_per_host;
use crate::{declare_rule, Context};
use netlint_model::Element;
use netlint_model::{Diagnostic, Fix, FixEdit, Host, SwitchLag, Team, TeamMode};

declare_rule!(
    RULE,
    id: "team-lag-mismatch",
    category: "teaming",
    severity: Error,
    summary: "A team's or virtual switch's teaming disagrees with the port-channel configuration of its switch ports (`switch_lag`).",
    check: check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut found = Vec::new();
    for host in &cx.design.hosts {
        for team in &host.teams {
            let members: Vec<_> = team.members.iter().map(|m| m.value).collect();
            let Some((lag, key)) = team
                .switch_lag
                .clone()
                .map(|l| (l, "switch_lag"))
                .or_else(|| ports_lag(cx.design, host, &members).map(|l| (l, "lag")))
            else {
                continue;
            };
            let lag = &lag;
            let (what, help) = match (team.mode.value, lag.value) {
                (TeamMode::Lacp, SwitchLag::Lacp)
                | (TeamMode::Static, SwitchLag::Static)
                | (TeamMode::SwitchIndependent, SwitchLag::None) => continue,
                (TeamMode::Lacp, SwitchLag::None) => (
                    format!("runs LACP (`mode = \"lacp\"`) but its members' switch ports do not (`{key} = \"none\"`): no LACP partner answers its LACPDUs, so the members never aggregate and the team does not bring them into service as one bundle"),
                    format!("configure an LACP port-channel on the members' switch ports (`{key} = \"lacp\"`), or set `mode = \"switch-independent\"` on the team"),
                ),
                (TeamMode::Static, SwitchLag::None) => (
                    format!("is a static team (`mode = \"static\"`) but its members' switch ports are independent (`{key} = \"none\"`): the team sends one MAC address out of every member as one bundle, the switch sees that address move between ports (MAC flapping), and frames are dropped or looped back"),
                    format!("bundle the members' switch ports into one static port-channel (`channel-group mode on`, `{key} = \"static\"`), or set `mode = \"switch-independent\"` on the team"),
                ),
                (TeamMode::SwitchIndependent, SwitchLag::Lacp) => (
                    format!("is switch-independent but its members' switch ports are an LACP port-channel (`{key} = \"lacp\"`): the team never sends LACPDUs, so the switch gets no LACP partner and suspends the ports (`lacp suspend-individual`) or runs them as individual ports outside the channel, depending on the switch"),
                    format!("remove the port-channel on the switch (`{key} = \"none\"`), or set the team's `mode = \"lacp\"`"),
                ),
                (TeamMode::SwitchIndependent, SwitchLag::Static) => (
                    format!("is switch-independent but its members' switch ports are a static port-channel (`{key} = \"static\"`): the switch hashes inbound frames onto any member, while a switch-independent team expects each flow back on the member it chose, so traffic is dropped"),
                    format!("remove the port-channel on the switch (`{key} = \"none\"`), or set the team's `mode = \"static\"`"),
                ),
                (TeamMode::Lacp, SwitchLag::Static) => (
                    format!("runs LACP but its switch ports are a static port-channel (`{key} = \"static\"`), which sends and answers no LACPDUs: the team has no LACP partner, so its members never aggregate"),
                    format!("use LACP on both ends (an LACP port-channel, `{key} = \"lacp\"`) or static on both ends (`mode = \"static\"`)"),
                ),
                (TeamMode::Static, SwitchLag::Lacp) => (
                    format!("is a static team but its switch ports are an LACP port-channel (`{key} = \"lacp\"`): the team never sends LACPDUs, so the switch gets no LACP partner and suspends the ports (`lacp suspend-individual`) or runs them as individual ports, depending on the switch"),
                    format!("use LACP on both ends (`mode = \"lacp\"` on the team) or static on both ends (`channel-group mode on`, `{key} = \"static\"`)"),
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
                .with_help(help)
                .with_fix(Some(fix(host, team, lag.value))),
            );
        }
    }
    super::vswitch_lag::check(cx, &mut found);
    emit_per_host(out, found);
}

/// The team's `mode` made the one its switch ports run (`lacp`, `static`,
/// or `switch-independent` for independent ports), on the line that holds
/// it, or added to the team when not written. Which end is right is a
/// judgement: an unsafe fix.
pub(super) fn fix(host: &Host, team: &Team, lag: SwitchLag) -> Fix {
    let mode = match lag {
        SwitchLag::Lacp => TeamMode::Lacp,
        SwitchLag::Static => TeamMode::Static,
        SwitchLag::None => TeamMode::SwitchIndependent,
    };
    let at = team.mode.span;
    let edit = if written(at, None, team.span) {
        FixEdit::replace(
            host_table(host, at)
                .then("teams")
                .then(team.name.as_str())
                .then("mode"),
            team.mode.value.as_str(),
            mode.as_str(),
            at,
        )
    } else {
        FixEdit::insert(
            host_table(host, team.span)
                .then("teams")
                .then(team.name.as_str())
                .then("mode"),
            mode.as_str(),
            team.span,
        )
    };
    Fix::unsafe_(
        format!(
            "set `{} = \"{}\"`, as the switch ports run",
            edit.path,
            mode.as_str()
        ),
        vec![edit],
    )
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
        let f = findings(&s, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.starts_with("hosts `hv1`, `hv2`: team `T` runs LACP (`mode = \"lacp\"`) but its members' switch ports do not"),
            "{}",
            f[0].message
        );
        assert_eq!(f[0].element(), "hosts.hv1.teams.T");
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert_eq!(&s[at..at + 6], "\"none\"");
        // The team follows its switch ports: an unsafe fix of its `mode`.
        let fix = f[0].fix.as_ref().expect("a fix");
        assert_eq!(fix.safety, netlint_model::FixSafety::Unsafe);
        assert_eq!(fix.edits.len(), 1);
        let e = &fix.edits[0];
        assert_eq!(e.path.to_string(), "profiles.p.teams.T.mode");
        assert_eq!(e.old, Some("lacp".into()));
        assert_eq!(e.new, Some("switch-independent".into()));
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
            let f = findings(&src(mode, &format!("switch_lag = \"{lag}\"")), &super::RULE);
            assert_eq!(f.len(), usize::from(fires), "{mode} / {lag}: {f:#?}");
        }
    }

    /// Each mismatch says what that combination does: an LACP team without
    /// an LACP partner never aggregates (no MAC flapping: it never sends as
    /// a bundle); a static team on independent ports is the one that makes
    /// the switch see its MAC move; a switch that waits for LACP suspends or
    /// individualises its ports.
    #[test]
    fn each_mismatch_is_worded_by_what_it_does() {
        let msg = |mode: &str, lag: &str| {
            let f = findings(&src(mode, &format!("switch_lag = \"{lag}\"")), &super::RULE);
            (f[0].message.clone(), f[0].help.clone().unwrap_or_default())
        };
        let (m, h) = msg("lacp", "none");
        assert!(
            m.contains("no LACP partner") && m.contains("never aggregate"),
            "{m}"
        );
        assert!(
            !m.contains("MAC"),
            "an LACP team without a partner does not flap: {m}"
        );
        assert!(h.contains("`switch_lag = \"lacp\"`"), "{h}");
        let (m, h) = msg("static", "none");
        assert!(m.contains("MAC flapping"), "{m}");
        assert!(h.contains("static port-channel"), "{h}");
        let (m, _) = msg("lacp", "static");
        assert!(m.contains("no LACP partner") && !m.contains("MAC"), "{m}");
        for (mode, lag) in [("switch-independent", "lacp"), ("static", "lacp")] {
            let (m, _) = msg(mode, lag);
            assert!(
                m.contains("never sends LACPDUs") && m.contains("suspend-individual"),
                "{mode} / {lag}: {m}"
            );
        }
        let (m, h) = msg("switch-independent", "static");
        assert!(m.contains("hashes inbound frames onto any member"), "{m}");
        assert!(h.contains("`mode = \"static\"`"), "{h}");
    }

    /// Without `switch_lag`, the members' configured switch ports say how
    /// they are bundled: the finding points at the port's `lag`.
    #[test]
    fn the_members_ports_lag_is_the_switch_side() {
        let s = src("switch-independent", "")
            .replace(
                "[switches.sw]\n",
                "[switches.sw]\n[switches.sw.ports.\"Eth1\"]\nlag = \"lacp\"\n[switches.sw.ports.\"Eth2\"]\nlag = \"lacp\"\n[switches.sw.ports.\"Eth3\"]\nlag = \"lacp\"\n[switches.sw.ports.\"Eth4\"]\nlag = \"lacp\"\n",
            )
            .replace(
                "[hosts.hv1]\nprofile = \"p\"\n",
                "[hosts.hv1]\nprofile = \"p\"\nnics.A = { switch_port = \"Eth1\" }\nnics.B = { switch_port = \"Eth2\" }\n",
            )
            .replace(
                "[hosts.hv2]\nprofile = \"p\"\n",
                "[hosts.hv2]\nprofile = \"p\"\nnics.A = { switch_port = \"Eth3\" }\nnics.B = { switch_port = \"Eth4\" }\n",
            );
        let f = findings(&s, "team-lag-mismatch");
        assert_eq!(f.len(), 2, "{f:#?}");
        assert!(
            f[0].message
                .contains("are an LACP port-channel (`lag = \"lacp\"`)"),
            "{}",
            f[0].message
        );
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert!(
            s[..at].ends_with("[switches.sw.ports.\"Eth1\"]\nlag = "),
            "{}",
            &s[..at]
        );
    }

    #[test]
    fn unstated_switch_side_is_silent() {
        assert!(findings(&src("lacp", ""), &super::RULE).is_empty());
    }
}
