//! `spof-nic-card`: one NIC card failure disconnects a host from a network
//! or group that must survive any single failure.

use super::{first_dead, quoted_list, unit_findings};
use crate::{declare_rule, Context};
use netlint_analysis::failure::Unit;
use netlint_model::Diagnostic;

declare_rule!(
    RULE,
    id: "spof-nic-card",
    category: "redundancy",
    severity: Error,
    summary: "One NIC card failure disconnects a host from a network or group that must survive any single failure.",
    check: check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    unit_findings(
        cx,
        &RULE,
        |u| matches!(u, Unit::Card(..) | Unit::Nic(..)),
        false,
        |unit, loss, group| {
            let card = match unit {
                Unit::Card(_, c) => c.as_str(),
                _ => "",
            };
            match first_dead(cx, loss, group) {
                Some(d) if d.several => format!(
                    "spread {} over two cards: replace one of them with a port of another card than `{card}` (a team of two ports of one card is not redundant)",
                    quoted_list(&d.nics)
                ),
                Some(d) => format!(
                    "add a second adapter on another card and team it with {} (or, for storage, give it a second network on another card for SMB multichannel or MPIO)",
                    quoted_list(&d.nics)
                ),
                None => "give the host a second way onto the network on another card".to_string(),
            }
        },
        out,
    );
}

#[cfg(test)]
mod tests {
    use super::super::test_designs::ONE_CARD_ONE_SWITCH;
    use crate::testing::{findings, line_of, line_where};
    use netlint_model::Severity;

    #[test]
    fn a_team_on_one_dual_port_card_fires_once_for_the_profile() {
        let f = findings(
            &ONE_CARD_ONE_SWITCH.replace("SWITCH", "tor-b"),
            &super::RULE,
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "if card `pci1` fails on any of hosts `hv1` to `hv3`, that host loses network `vm`: team `VMTeam`'s members `P1-1` and `P1-2` are both on card `pci1`"
        );
        assert_eq!(f[0].severity, Severity::Error);
        assert_eq!(f[0].element(), "hosts.hv1.vswitches.VMSwitch");
        assert!(f[0]
            .help
            .as_deref()
            .unwrap()
            .contains("another card than `pci1`"));
    }

    #[test]
    fn a_host_override_gets_its_own_finding() {
        let src = ONE_CARD_ONE_SWITCH.replace("SWITCH", "tor-b").replace(
            "[hosts.hv3]\nprofile = \"p\"",
            "[hosts.hv3]\nprofile = \"p\"\nnics.P1-2 = { card = \"pci2\" }",
        );
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("hosts `hv1`, `hv2`"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn one_hosts_override_onto_one_card_is_the_primary_line() {
        let src = ONE_CARD_ONE_SWITCH
            .replace(
                "card = \"pci1\"\nspeed = \"10G\"\nswitch = \"SWITCH\"",
                "card = \"pci2\"\nspeed = \"10G\"\nswitch = \"tor-b\"",
            )
            .replace(
                "[hosts.hv3]\nprofile = \"p\"",
                "[hosts.hv3]\nprofile = \"p\"\nnics.P1-2 = { card = \"pci1\" }",
            );
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("host `hv3`"), "{}", f[0].message);
        let p = f[0].primary.as_ref().unwrap().span;
        assert_eq!(
            line_of(&src, p),
            line_where(&src, |l| l.contains("nics.P1-2 = { card")),
            "primary at hv3's override"
        );
        // The profile's card line of the other member is related.
        assert_eq!(f[0].related.len(), 1, "{:#?}", f[0].related);
        let r = f[0].related[0].span;
        assert_eq!(&src[r.start..r.end], "\"pci1\"");
        assert_eq!(
            line_of(&src, r),
            line_where(&src, |l| l == "card = \"pci1\"")
        );
    }

    #[test]
    fn two_cards_are_redundant() {
        let src = ONE_CARD_ONE_SWITCH.replace("SWITCH", "tor-b").replace(
            "card = \"pci1\"\nspeed = \"10G\"\nswitch = \"tor-b\"",
            "card = \"pci2\"\nspeed = \"10G\"\nswitch = \"tor-b\"",
        );
        let f = findings(&src, &super::RULE);
        assert!(f.is_empty(), "{f:#?}");
    }

    #[test]
    fn a_single_management_nic_is_a_warning() {
        let src = ONE_CARD_ONE_SWITCH
            .replace("SWITCH", "tor-b")
            .replace("card = \"lom2\"", "card = \"lom\"");
        let f: Vec<_> = findings(&src, &super::RULE)
            .into_iter()
            .filter(|d| d.message.contains("`mgmt`"))
            .collect();
        // Management is the hosts' only cluster network: reported as the
        // cluster group.
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Warning);
        assert!(
            f[0].message.ends_with(
                "that host loses every cluster network (`mgmt`): its adapters `LOM1` and `LOM2` are both on card `lom`"
            ),
            "{}",
            f[0].message
        );
    }

    /// A standby NIC whose switch port does not allow the network's VLAN
    /// is no standby: the finding points at that port's `vlans`.
    #[test]
    fn a_standby_on_a_port_without_the_vlan_is_reported_at_the_port() {
        let src = r#"
[design]
name = "t"
[networks.mgmt]
role = "management"
vlan = 10
[switches.tor-a]
[switches.tor-b]
[switches.tor-b.ports."Ethernet1/2"]
vlans = [20]
[[links]]
a = "tor-a"
b = "tor-b"
speed = "10G"
[profiles.p.nics.A]
speed = "10G"
switch = "tor-a"
[profiles.p.nics.B]
speed = "10G"
switch = "tor-b"
[profiles.p.teams.T]
members = ["A", "B"]
standby = "B"
networks = ["mgmt"]
[hosts.hv1]
profile = "p"
nics.B = { switch_port = "Ethernet1/2" }
[hosts.hv2]
profile = "p"
"#;
        let f = crate::testing::findings(src, "spof-nic-card");
        let d = f
            .iter()
            .find(|d| d.message.starts_with("if NIC `A` of `hv1` fails"))
            .unwrap_or_else(|| panic!("{f:#?}"));
        assert!(
            d.message.ends_with("its working adapter `B` is cabled to port `Ethernet1/2` of `tor-b`, which does not allow VLAN 10"),
            "{}",
            d.message
        );
        let at = d.primary.as_ref().unwrap().span.start;
        assert!(src[at..].starts_with("[20]"), "{}", &src[at..]);
        // The fix is the port, not a second card.
        assert_eq!(
            d.help.as_deref(),
            Some("add 10 to `vlans` of port `Ethernet1/2` of switch `tor-b` (`switchport trunk allowed vlan add 10`)")
        );
    }
}
