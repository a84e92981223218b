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
        |u| matches!(u, Unit::Cable(..) | Unit::Link(..) | Unit::Split { .. }),
        false,
        |unit, _, _| {
            if let Unit::Split { link, keep, .. } = unit {
                return split_help(cx, *link, *keep);
            }
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

/// The advice for a peer-link or stacking cable whose loss splits its
/// domain ([`Unit::Split`]).
fn split_help(
    cx: &Context<'_>,
    link: netlint_model::LinkId,
    keep: netlint_model::SwitchId,
) -> String {
    let design = cx.design;
    let topo = cx.topology();
    let l = design.link(link);
    let bridge = topo.bridge(topo.bridge_of[keep.0]);
    if bridge.kind == netlint_analysis::BridgeKind::Mlag {
        format!(
            "give peer-link `{}` a second cable (`members = {}`, on another line card) so that one cable does not split MLAG domain `{}`; hosts single-attached to one peer (orphan ports: SET and switch-independent team members, single NICs) stay up on the secondary when the peer-link is down and reach only that peer: dual-attach them through an MLAG / vPC port-channel where the team allows it, or have the secondary shut those ports with its MLAG ports (NX-OS: `vpc orphan-port suspend` on each) so that the hosts fail over to the primary",
            l.name,
            l.members.value + 1,
            bridge.name
        )
    } else {
        format!(
            "cable stack `{}` as a ring (a stacking cable from its last member back to its first), which loses nothing to one stacking cable, or give link `{}` a second cable",
            bridge.name, l.name
        )
    }
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

    /// A vPC pair whose peer-link is one cable: `h1` and `h2` run SET over
    /// both peers, `h3` has one adapter on `nx-b`, `h4` one on `nx-a`
    /// (issue 34 item 8).
    const VPC: &str = r#"
[design]
name = "t"
[networks.vm]
role = "vm"
vlan = 100
[switches.nx-a]
mlag = "vpc1"
[switches.nx-b]
mlag = "vpc1"
[[links]]
name = "vpc-peer"
a = "nx-a"
b = "nx-b"
kind = "peer-link"
speed = "100G"
MEMBERS
[profiles.p.nics.A]
card = "a"
speed = "25G"
switch = "nx-a"
[profiles.p.nics.B]
card = "b"
speed = "25G"
switch = "nx-b"
[profiles.p.vswitches.S]
uplinks = ["A", "B"]
networks = ["vm"]
[hosts.h1]
profile = "p"
[hosts.h2]
profile = "p"
[hosts.h3.nics.N]
speed = "25G"
switch = "nx-b"
networks = ["vm"]
[hosts.h4.nics.N]
speed = "25G"
switch = "nx-a"
networks = ["vm"]
"#;

    #[test]
    fn a_one_cable_peer_link_cuts_set_hosts_either_way_and_orphans_on_the_secondary() {
        let f = findings(&VPC.replace("MEMBERS", ""), &super::RULE);
        let messages: Vec<&str> = f.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(f.len(), 3, "{messages:#?}");
        // The SET hosts lose `vm` whichever peer is the secondary: one
        // finding; h3 only when nx-b is, h4 only when nx-a is.
        assert!(messages.contains(&"if the cable of peer-link `vpc-peer` (either peer as the MLAG / vPC secondary) fails, hosts `h1`, `h2` lose network `vm`: its working adapters end on `nx-a` and `nx-b`, as orphan ports (in no vPC / MLAG port-channel) that stay up, and those no longer reach each other without peer-link `vpc-peer`"), "{messages:#?}");
        assert!(messages.contains(&"if the cable of peer-link `vpc-peer` (`nx-b` as the MLAG / vPC secondary) fails, host `h3` loses network `vm`: its adapters are orphan ports (in no vPC / MLAG port-channel) on `nx-b`, which stay up but no longer reach `nx-a` without peer-link `vpc-peer`"), "{messages:#?}");
        assert!(messages.contains(&"if the cable of peer-link `vpc-peer` (`nx-a` as the MLAG / vPC secondary) fails, host `h4` loses network `vm`: its adapters are orphan ports (in no vPC / MLAG port-channel) on `nx-a`, which stay up but no longer reach `nx-b` without peer-link `vpc-peer`"), "{messages:#?}");
        assert!(f[0]
            .help
            .as_deref()
            .unwrap()
            .contains("vpc orphan-port suspend"));
    }

    #[test]
    fn a_two_cable_peer_link_is_not_split_by_one_cable() {
        assert!(findings(&VPC.replace("MEMBERS", "members = 2"), &super::RULE).is_empty());
    }
}
