//! `team-lbfo-vswitch`: an LBFO team is the uplink of a Hyper-V virtual
//! switch on Windows Server 2022 or later / Azure Local.

use super::{emit_hits, HostHit};
use crate::{declare_rule, Context};
use netlint_model::Element;
use netlint_model::{Diagnostic, TeamKind, Uplink};

declare_rule!(
    RULE,
    id: "team-lbfo-vswitch",
    category: "teaming",
    severity: Warning,
    summary: "An LBFO team is the uplink of a Hyper-V virtual switch on Windows Server 2022 or later / Azure Local.",
    check: check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut hits = Vec::new();
    for host in &cx.design.hosts {
        let os = host.os.value;
        if !os.lbfo_vswitch_deprecated() {
            continue;
        }
        for vs in &host.vswitches {
            for uplink in &vs.uplinks {
                let Uplink::Team(ti) = uplink.value else {
                    continue;
                };
                let team = &host.teams[ti.0];
                if team.kind.value != TeamKind::Lbfo {
                    continue;
                }
                let members: Vec<String> = team
                    .members
                    .iter()
                    .map(|m| format!("\"{}\"", host.nic(m.value).name))
                    .collect();
                hits.push(HostHit {
                    element: Element::vswitch(&host.name, &vs.name),
                    span: uplink.span,
                    message: format!(
                        "virtual switch `{}` is bound to LBFO team `{}` on {os}: LBFO under a Hyper-V switch is deprecated there and blocked by default",
                        vs.name, team.name
                    ),
                    related: vec![
                        (team.span, format!("LBFO team `{}`", team.name)),
                        (host.os.span, format!("platform {os}")),
                    ],
                    help: format!(
                        "use Switch Embedded Teaming: set `uplinks = [{}]` on `{}` and remove team `{}` (its `networks` become vNICs of the switch)",
                        members.join(", "),
                        vs.name,
                        team.name
                    ),
                });
            }
        }
    }
    emit_hits(cx, &RULE, hits, out);
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const ID: &crate::Rule = &super::RULE;

    const BASE: &str = r#"
[design]
name = "t"
platform = "PLATFORM"
[networks.vm]
role = "vm"
vlan = 100
[switches.sw]
[profiles.p.nics.A]
speed = "10G"
switch = "sw"
[profiles.p.nics.B]
speed = "10G"
switch = "sw"
[profiles.p.teams.T]
KIND
members = ["A", "B"]
[profiles.p.vswitches.V]
uplinks = ["T"]
networks = ["vm"]
[hosts.h1]
profile = "p"
HOST
"#;

    fn src(platform: &str, kind: &str, host: &str) -> String {
        BASE.replace("PLATFORM", platform)
            .replace("KIND", kind)
            .replace("HOST", host)
    }

    #[test]
    fn lbfo_under_a_vswitch_on_2022_fires() {
        let f = findings(&src("windows-server-2022", "", ""), ID);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "hosts.h1.vswitches.V");
        assert_eq!(
            f[0].message,
            "host `h1`: virtual switch `V` is bound to LBFO team `T` on windows-server-2022: LBFO under a Hyper-V switch is deprecated there and blocked by default"
        );
        assert!(f[0]
            .help
            .as_deref()
            .unwrap()
            .contains("`uplinks = [\"A\", \"B\"]`"));
    }

    #[test]
    fn azure_local_and_2025_fire() {
        assert_eq!(findings(&src("azure-local", "", ""), ID).len(), 1);
        assert_eq!(findings(&src("windows-server-2025", "", ""), ID).len(), 1);
    }

    #[test]
    fn older_windows_is_fine() {
        assert!(findings(&src("windows-server-2019", "", ""), ID).is_empty());
    }

    #[test]
    fn the_hosts_os_decides_not_the_design_platform() {
        let f = findings(
            &src("windows-server-2022", "", "os = \"windows-server-2019\""),
            ID,
        );
        assert!(f.is_empty(), "{f:#?}");
        let f = findings(
            &src("windows-server-2019", "", "os = \"windows-server-2022\""),
            ID,
        );
        assert_eq!(f.len(), 1);
    }

    #[test]
    fn vendor_teams_are_not_lbfo() {
        assert!(findings(&src("windows-server-2022", "kind = \"vendor\"", ""), ID).is_empty());
    }
}
