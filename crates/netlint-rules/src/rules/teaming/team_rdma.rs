//! `team-rdma`: an RDMA-capable NIC that carries SMB traffic is a member of
//! an LBFO team, which does not expose RDMA.

use super::{emit_hits, HostHit};
use crate::{declare_rule, Context};
use netlint_model::Element;
use netlint_model::{
    Design, Diagnostic, Host, NetworkId, Nic, Protocol, Role, Span, Team, TeamIdx, TeamKind,
    Transport, Uplink,
};

declare_rule!(
    RULE,
    id: "team-rdma",
    category: "teaming",
    severity: Error,
    summary: "An RDMA-capable NIC that carries SMB traffic is a member of an LBFO team.",
    check: check,
);

/// Whether SMB (and so SMB Direct, given RDMA) runs on this network for
/// this host: SMB storage, CSV, and live migration over SMB.
fn carries_smb(design: &Design, host: &Host, id: NetworkId) -> bool {
    let net = design.network(id);
    match net.role.value {
        Role::Csv => true,
        Role::Storage => net
            .protocol
            .as_ref()
            .is_some_and(|p| p.value == Protocol::Smb),
        _ => host.live_migration.as_ref().is_some_and(|lm| {
            lm.transport.value == Transport::Smb
                && (net.role.value == Role::LiveMigration
                    || lm.networks.iter().any(|n| n.value == id))
        }),
    }
}

/// The SMB networks that reach a team: on its own interfaces, or as host
/// vNICs of a virtual switch over it. Each with the span that puts it there.
fn smb_networks(
    design: &Design,
    host: &Host,
    team_idx: usize,
    team: &Team,
) -> Vec<(NetworkId, Span, String)> {
    let mut found: Vec<(NetworkId, Span, String)> = Vec::new();
    for n in &team.networks {
        if carries_smb(design, host, n.value) {
            found.push((n.value, n.span, format!("team `{}`", team.name)));
        }
    }
    for vs in &host.vswitches {
        if !vs
            .uplinks
            .iter()
            .any(|u| u.value == Uplink::Team(TeamIdx(team_idx)))
        {
            continue;
        }
        for vnic in &vs.vnics {
            if carries_smb(design, host, vnic.network.value) {
                found.push((
                    vnic.network.value,
                    vnic.network.span,
                    format!("vNIC `{}` of virtual switch `{}`", vnic.name, vs.name),
                ));
            }
        }
    }
    found
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let design = cx.design;
    let mut hits = Vec::new();
    for host in design.hosts.iter().filter(|h| h.os.value.is_windows()) {
        for (ti, team) in host.teams.iter().enumerate() {
            if team.kind.value != TeamKind::Lbfo {
                continue;
            }
            let rdma: Vec<&Nic> = team
                .members
                .iter()
                .map(|m| host.nic(m.value))
                .filter(|n| n.rdma.value.enabled())
                .collect();
            if rdma.is_empty() {
                continue;
            }
            let smb = smb_networks(design, host, ti, team);
            let Some((_, _, first_via)) = smb.first() else {
                continue;
            };
            let nic_list: Vec<String> = rdma
                .iter()
                .map(|n| format!("`{}` ({})", n.name, n.rdma.value))
                .collect();
            let mut nets: Vec<String> = Vec::new();
            for (id, _, _) in &smb {
                let name = format!("`{}`", design.network(*id).name);
                if !nets.contains(&name) {
                    nets.push(name);
                }
            }
            let (nics_word, verb) = if rdma.len() == 1 {
                ("NIC", "is a member")
            } else {
                ("NICs", "are members")
            };
            let message = format!(
                "RDMA-capable {nics_word} {} {verb} of LBFO team `{}`, which carries SMB on {} {}: LBFO does not expose RDMA, so SMB Direct falls back to TCP",
                nic_list.join(", "),
                team.name,
                if nets.len() == 1 { "network" } else { "networks" },
                nets.join(", "),
            );
            let mut related: Vec<(Span, String)> = rdma
                .iter()
                .map(|n| {
                    (
                        n.rdma.span,
                        format!("`{}` is {}-capable", n.name, n.rdma.value),
                    )
                })
                .collect();
            for (id, span, via) in &smb {
                related.push((
                    *span,
                    format!("SMB network `{}` on {via}", design.network(*id).name),
                ));
            }
            let separate = format!(
                "take {} out of team `{}` and carry {} on them directly, each NIC in its own SMB network and subnet (SMB Multichannel gives the redundancy)",
                rdma.iter()
                    .map(|n| format!("`{}`", n.name))
                    .collect::<Vec<_>>()
                    .join(", "),
                team.name,
                nets.join(", "),
            );
            let help = if host.os.value.has_set() {
                format!(
                    "{separate}, or replace the team with a SET switch (`uplinks = [{}]`) and RDMA-enabled vNICs (`rdma = true`) for the SMB traffic now on {first_via}",
                    rdma.iter()
                        .map(|n| format!("\"{}\"", n.name))
                        .collect::<Vec<_>>()
                        .join(", "),
                )
            } else {
                format!("{separate}; SET with vRDMA needs Windows Server 2016 or later")
            };
            hits.push(HostHit {
                element: Element::team(&host.name, &team.name),
                span: team.members_span,
                message,
                related,
                help,
            });
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
platform = "windows-server-2016"
[networks.smb]
role = "storage"
protocol = "PROTO"
vlan = 40
[networks.lm]
role = "live-migration"
vlan = 30
[networks.vm]
role = "vm"
vlan = 100
[switches.sw]
[profiles.p.nics.A]
speed = "10G"
switch = "sw"
rdma = "RDMA"
[profiles.p.nics.B]
speed = "10G"
switch = "sw"
rdma = "RDMA"
[profiles.p.teams.T]
KIND
members = ["A", "B"]
TEAM_NETS
[hosts.h1]
profile = "p"
[hosts.h2]
profile = "p"
"#;

    fn src(proto: &str, rdma: &str, kind: &str, team_nets: &str) -> String {
        BASE.replace("PROTO", proto)
            .replace("RDMA", rdma)
            .replace("KIND", kind)
            .replace("TEAM_NETS", team_nets)
    }

    #[test]
    fn rdma_nics_in_an_lbfo_team_carrying_smb_fire_once_for_the_profile() {
        let f = findings(&src("smb", "iwarp", "", "networks = [\"smb\"]"), ID);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "hosts.h1.teams.T");
        assert_eq!(
            f[0].message,
            "hosts `h1`, `h2`: RDMA-capable NICs `A` (iwarp), `B` (iwarp) are members of LBFO team `T`, which carries SMB on network `smb`: LBFO does not expose RDMA, so SMB Direct falls back to TCP"
        );
        // both rdma lines and the network reference
        assert_eq!(f[0].related.len(), 3, "{:#?}", f[0].related);
        assert!(f[0].help.as_deref().unwrap().contains("SET switch"));
    }

    #[test]
    fn iscsi_is_not_smb() {
        assert!(findings(&src("iscsi", "iwarp", "", "networks = [\"smb\"]"), ID).is_empty());
    }

    #[test]
    fn nics_without_rdma_are_fine() {
        assert!(findings(&src("smb", "none", "", "networks = [\"smb\"]"), ID).is_empty());
    }

    #[test]
    fn vendor_teams_are_not_lbfo() {
        assert!(findings(
            &src(
                "smb",
                "roce-v2",
                "kind = \"vendor\"",
                "networks = [\"smb\"]"
            ),
            ID
        )
        .is_empty());
    }

    #[test]
    fn smb_vnic_on_a_vswitch_over_the_team_counts() {
        let tail = "[profiles.p.vswitches.V]\nuplinks = [\"T\"]\nnetworks = [\"vm\"]\n[profiles.p.vswitches.V.vnics.S]\nnetwork = \"smb\"\n";
        let s = src("smb", "roce", "", "").replace("[hosts.h1]", &format!("{tail}[hosts.h1]"));
        let f = findings(&s, ID);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("network `smb`"));
    }

    #[test]
    fn live_migration_counts_only_over_smb() {
        let lm = |transport: &str| {
            src("smb", "iwarp", "", "networks = [\"lm\"]").replace(
                "[hosts.h1]",
                &format!("[profiles.p.live_migration]\ntransport = \"{transport}\"\nnetworks = [\"lm\"]\n[hosts.h1]"),
            )
        };
        assert_eq!(findings(&lm("smb"), ID).len(), 1);
        assert!(findings(&lm("tcp"), ID).is_empty());
    }

    #[test]
    fn a_team_without_smb_is_fine() {
        assert!(findings(&src("smb", "iwarp", "", ""), ID).is_empty());
    }
}
