//! `spof-switch`: one switch failure disconnects hosts from a network or
//! group that must survive any single failure.

use super::{first_dead, quoted_list, unit_findings};
use crate::phrases::failure::UnitWords;
use crate::{declare_rule, Context};
use netlint_analysis::failure::Unit;
use netlint_model::Diagnostic;

declare_rule!(
    RULE,
    id: "spof-switch",
    category: "redundancy",
    severity: Error,
    summary: "One switch failure disconnects a host from a network or group that must survive any single failure.",
    check: check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    unit_findings(
        cx,
        &RULE,
        |u| matches!(u, Unit::Switch(_) | Unit::Bridge(_)),
        false,
        |unit, loss, group| {
            let switch = match unit {
                Unit::Switch(s) => format!("`{}`", cx.design.switch(*s).name),
                _ => unit.describe(cx.design, cx.topology()),
            };
            let whole_stack = matches!(unit, Unit::Bridge(_));
            match first_dead(cx, loss, group) {
                Some(d) if d.several && whole_stack => format!(
                    "cable {} to switches outside {switch}: another switch or stack, or the two members of an MLAG pair (separate control planes), so that one of them survives the whole stack failing",
                    quoted_list(&d.nics)
                ),
                Some(d) if d.several => format!(
                    "cable {} to two different switches (or to both members of an MLAG pair), so that one of them survives {switch}",
                    quoted_list(&d.nics)
                ),
                Some(d) => format!(
                    "give it a second adapter cabled to another switch than {switch} and team it with {} (or add a second network of the same role on other adapters)",
                    quoted_list(&d.nics)
                ),
                None => format!(
                    "give the network a second path that does not cross {switch}: a link between the switches on either side that allows its VLAN"
                ),
            }
        },
        out,
    );
}

#[cfg(test)]
mod tests {
    use super::super::test_designs::ONE_CARD_ONE_SWITCH;
    use crate::testing::findings;
    use netlint_model::Severity;

    #[test]
    fn a_team_cabled_to_one_switch_fires_once_for_all_hosts() {
        let f = findings(
            &ONE_CARD_ONE_SWITCH.replace("SWITCH", "tor-a"),
            &super::RULE,
        );
        // One message naming the three hosts, one copy per host element.
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "if switch `tor-a` fails, hosts `hv1` to `hv3` lose network `vm`: team `VMTeam`'s members `P1-1` and `P1-2` are both cabled to `tor-a`"
        );
        assert_eq!(f[0].severity, Severity::Error);
        assert_eq!(f[0].element(), "hosts.hv1.vswitches.VMSwitch");
        assert_eq!(f[0].related.len(), 1);
        assert!(f[0].help.as_deref().unwrap().contains("`P1-1` and `P1-2`"));
    }

    #[test]
    fn a_vsphere_switch_is_named_as_a_vswitch_not_a_set_switch() {
        // The VM team as the two uplinks of an ESXi standard vSwitch.
        let src = ONE_CARD_ONE_SWITCH
            .replace("SWITCH", "tor-a")
            .replace("name = \"t\"", "name = \"t\"\nplatform = \"vsphere-8\"")
            .replace(
                "[profiles.p.teams.VMTeam]\nmembers = [\"P1-1\", \"P1-2\"]\n",
                "",
            )
            .replace("uplinks = [\"VMTeam\"]", "uplinks = [\"P1-1\", \"P1-2\"]");
        let f = findings(&src, &super::RULE);
        assert!(!f.is_empty());
        let m = &f[0].message;
        assert!(
            m.contains("vSwitch `VMSwitch`'s members `P1-1` and `P1-2`"),
            "{m}"
        );
        assert!(!m.contains("SET"), "{m}");
    }

    /// Issue 34 item 10: TOR1 is the last path of the SMB group only
    /// because `smb2` is cut already (TOR2 lacks VLAN 712): said.
    #[test]
    fn a_loss_that_follows_from_a_network_cut_already_says_so() {
        let src = super::super::test_designs::SWITCHED_STORAGE;
        let f = findings(&src.replace("TOR2_VLANS", "[711]"), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "if switch `TOR1` fails, hosts `node1` to `node4` lose every smb storage network (`smb1`, `smb2`) and every cluster network (`smb1`, `smb2`): its only adapter `A` is cabled to `TOR1` (and `smb2` is cut already with nothing failed)"
        );
        // With VLAN 712 on TOR2, either switch leaves one SMB network.
        let f = findings(&src.replace("TOR2_VLANS", "[711, 712]"), &super::RULE);
        assert!(f.is_empty(), "{f:#?}");
    }

    #[test]
    fn a_team_over_two_switches_is_redundant() {
        let f = findings(
            &ONE_CARD_ONE_SWITCH.replace("SWITCH", "tor-b"),
            &super::RULE,
        );
        assert!(f.is_empty(), "{f:#?}");
    }

    #[test]
    fn management_on_one_switch_is_a_warning() {
        let src = ONE_CARD_ONE_SWITCH.replace("SWITCH", "tor-b").replace(
            "card = \"lom2\"\nspeed = \"1G\"\nswitch = \"tor-b\"",
            "card = \"lom2\"\nspeed = \"1G\"\nswitch = \"tor-a\"",
        );
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Warning);
        // Management is also the hosts' only cluster network: one finding
        // for the group says both.
        assert_eq!(
            f[0].message,
            "if switch `tor-a` fails, hosts `hv1` to `hv3` lose every cluster network (`mgmt`): its adapters `LOM1` and `LOM2` are both cabled to `tor-a`"
        );
        assert!(f[0]
            .help
            .as_deref()
            .unwrap()
            .starts_with("cable `LOM1` and `LOM2` to two different switches"));
    }

    #[test]
    fn a_switch_that_splits_the_fabric_fires_on_the_switch() {
        let src = r#"
[design]
name = "t"
[networks.vm]
role = "vm"
vlan = 100
[switches.a]
[switches.mid]
[switches.b]
[[links]]
a = "a"
b = "mid"
speed = "10G"
members = 2
[[links]]
a = "mid"
b = "b"
speed = "10G"
members = 2
[hosts.h1.nics.N]
speed = "10G"
switch = "a"
[hosts.h1.vswitches.V]
uplinks = ["N"]
networks = ["vm"]
[hosts.h2.nics.N]
speed = "10G"
switch = "b"
[hosts.h2.vswitches.V]
uplinks = ["N"]
networks = ["vm"]
"#;
        let f = findings(src, &super::RULE);
        let mid: Vec<_> = f.iter().filter(|d| d.element() == "switches.mid").collect();
        assert_eq!(mid.len(), 1, "{f:#?}");
        assert_eq!(
            mid[0].message,
            "if switch `mid` fails, hosts `h1`, `h2` lose network `vm`: no path is left between `a` and `b`"
        );
        // a and b are each one host's only switch.
        assert!(f.iter().any(|d| d
            .message
            .starts_with("if switch `a` fails, host `h1` loses")));
    }

    /// `[netlint] stack_as_unit = true`: a team over both members of one
    /// stack loses everything when the stack fails as a whole, and
    /// spof-switch says so (without it, each member failure alone is
    /// survivable and spof-switch is silent).
    #[test]
    fn with_stack_as_unit_a_stack_is_judged_as_one_switch() {
        let src = r#"
[design]
name = "t"
LINT
[networks.vm]
role = "vm"
vlan = 100
[switches.st-1]
stack = "stack-a"
[switches.st-2]
stack = "stack-a"
[[links]]
a = "st-1"
b = "st-2"
kind = "stack"
speed = "480G"
[profiles.p.nics.P1]
card = "lom"
speed = "10G"
switch = "st-1"
[profiles.p.nics.P2]
card = "slot2"
speed = "10G"
switch = "st-2"
[profiles.p.teams.T]
members = ["P1", "P2"]
[profiles.p.vswitches.V]
uplinks = ["T"]
networks = ["vm"]
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
"#;
        assert!(findings(&src.replace("LINT", ""), &super::RULE).is_empty());
        assert!(!findings(
            &src.replace("LINT", ""),
            &crate::rules::redundancy::spof_stack::RULE
        )
        .is_empty());
        let on = src.replace("LINT", "[netlint]\nstack_as_unit = true");
        let f = findings(&on, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "if stack `stack-a` (`st-1`, `st-2`) fails, hosts `hv1`, `hv2` lose network `vm`: team `T`'s members `P1` and `P2` are both cabled to stack `stack-a`"
        );
        assert_eq!(f[0].severity, Severity::Error);
        assert!(
            f[0].help
                .as_deref()
                .unwrap()
                .starts_with("cable `P1` and `P2` to switches outside stack `stack-a`"),
            "{:?}",
            f[0].help
        );
        // The stack is already one unit: spof-stack has nothing to add.
        assert!(findings(&on, &crate::rules::redundancy::spof_stack::RULE).is_empty());
    }
}
