//! `team-member-limit`: a SET switch with more than 8 members, an LBFO team
//! with more than 32.

use super::{emit_hits, is_hyperv_set, HostHit};
use crate::{declare_rule, Context};
use netlint_model::Element;
use netlint_model::{Diagnostic, TeamKind};

declare_rule!(
    RULE,
    id: "team-member-limit",
    category: "teaming",
    severity: Error,
    summary: "A SET switch has more than 8 members, or an LBFO team more than 32.",
    check: check,
);

/// Switch Embedded Teaming supports up to 8 physical NICs.
pub const SET_MAX_MEMBERS: usize = 8;
/// LBFO supports up to 32 team members.
pub const LBFO_MAX_MEMBERS: usize = 32;

/// "SET switch `S` has 9 members: Switch Embedded Teaming supports at most 8".
fn over_limit(what: String, members: usize, limit: usize) -> String {
    let product = if limit == SET_MAX_MEMBERS {
        "Switch Embedded Teaming"
    } else {
        "LBFO teaming"
    };
    format!("{what} has {members} members: {product} supports at most {limit}")
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut hits = Vec::new();
    for host in &cx.design.hosts {
        for vs in &host.vswitches {
            let members = vs.uplinks.len();
            if !is_hyperv_set(host, vs) || members <= SET_MAX_MEMBERS {
                continue;
            }
            hits.push(HostHit {
                element: Element::vswitch(&host.name, &vs.name),
                span: vs.uplinks_span,
                message: over_limit(format!("SET switch `{}`", vs.name), members, SET_MAX_MEMBERS),
                related: Vec::new(),
                help: format!(
                    "keep at most {SET_MAX_MEMBERS} NICs in the `uplinks` of `{}`: split the adapters over two SET switches, or leave {} of them out",
                    vs.name,
                    members - SET_MAX_MEMBERS
                ),
            });
        }
        if !host.os.value.is_windows() {
            continue;
        }
        for team in &host.teams {
            let members = team.members.len();
            if team.kind.value != TeamKind::Lbfo || members <= LBFO_MAX_MEMBERS {
                continue;
            }
            hits.push(HostHit {
                element: Element::team(&host.name, &team.name),
                span: team.members_span,
                message: over_limit(format!("LBFO team `{}`", team.name), members, LBFO_MAX_MEMBERS),
                related: Vec::new(),
                help: format!(
                    "keep at most {LBFO_MAX_MEMBERS} NICs in the `members` of `{}`: split them into two teams, or leave {} of them out",
                    team.name,
                    members - LBFO_MAX_MEMBERS
                ),
            });
        }
    }
    emit_hits(cx, &RULE, hits, out);
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const ID: &crate::Rule = &super::RULE;

    /// A host with `n` 10G NICs named N1..Nn, all cabled to `sw`.
    fn design(platform: &str, n: usize, tail: &str) -> String {
        let mut s = format!(
            "[design]\nname = \"t\"\nplatform = \"{platform}\"\n[networks.vm]\nrole = \"vm\"\nvlan = 100\n[switches.sw]\n"
        );
        for i in 1..=n {
            s.push_str(&format!(
                "[profiles.p.nics.N{i}]\nspeed = \"10G\"\nswitch = \"sw\"\n"
            ));
        }
        s.push_str(tail);
        s
    }

    fn names(n: usize) -> String {
        (1..=n)
            .map(|i| format!("\"N{i}\""))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn set(n: usize, platform: &str) -> String {
        design(
            platform,
            n,
            &format!(
                "[profiles.p.vswitches.S]\nuplinks = [{}]\nnetworks = [\"vm\"]\n[hosts.h1]\nprofile = \"p\"\n",
                names(n)
            ),
        )
    }

    fn team(n: usize, kind: &str) -> String {
        design(
            "windows-server-2019",
            n,
            &format!(
                "[profiles.p.teams.T]\nkind = \"{kind}\"\nmembers = [{}]\n[hosts.h1]\nprofile = \"p\"\n",
                names(n)
            ),
        )
    }

    #[test]
    fn nine_set_members_fire() {
        let f = findings(&set(9, "windows-server-2022"), ID);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].element(), "hosts.h1.vswitches.S");
        assert_eq!(
            f[0].message,
            "host `h1`: SET switch `S` has 9 members: Switch Embedded Teaming supports at most 8"
        );
        assert!(f[0]
            .help
            .as_deref()
            .unwrap()
            .contains("leave 1 of them out"));
    }

    #[test]
    fn eight_set_members_are_the_limit() {
        assert!(findings(&set(8, "windows-server-2022"), ID).is_empty());
    }

    #[test]
    fn vsphere_vswitch_is_not_set() {
        assert!(findings(&set(10, "vsphere-8"), ID).is_empty());
    }

    #[test]
    fn lbfo_team_over_32_fires_and_32_does_not() {
        let f = findings(&team(33, "lbfo"), ID);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].element(), "hosts.h1.teams.T");
        assert!(
            f[0].message.contains("LBFO team `T` has 33 members")
                && f[0].message.contains("at most 32"),
            "{}",
            f[0].message
        );
        assert!(findings(&team(32, "lbfo"), ID).is_empty());
    }

    #[test]
    fn vendor_teams_have_no_stated_limit() {
        assert!(findings(&team(33, "vendor"), ID).is_empty());
    }

    #[test]
    fn a_profile_line_gives_one_finding_naming_every_host() {
        let src = set(9, "windows-server-2022") + "[hosts.h2]\nprofile = \"p\"\n";
        let f = findings(&src, ID);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.starts_with("hosts `h1`, `h2`: "),
            "{}",
            f[0].message
        );
    }
}
