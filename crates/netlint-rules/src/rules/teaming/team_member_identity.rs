//! `team-member-identity`: SET members differ in model, or a SET switch
//! has a standby member.

use super::{emit_hits, is_hyperv_set, HostHit};
use crate::{declare_rule, Context};
use netlint_model::Element;
use netlint_model::{Diagnostic, Nic, Sp};

declare_rule!(
    RULE,
    id: "team-member-identity",
    category: "teaming",
    severity: Warning,
    summary: "SET members differ in model, or a SET switch has a standby member.",
    check: check,
);

/// Models compared as adapters, not as spelling: case and spacing differ
/// between what `Get-NetAdapter` shows and what people type.
fn normalized(model: &str) -> String {
    model
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut hits = Vec::new();
    for host in &cx.design.hosts {
        for vs in host.vswitches.iter().filter(|vs| is_hyperv_set(host, vs)) {
            let element = Element::vswitch(&host.name, &vs.name);
            let members: Vec<&Nic> = vs
                .uplinks
                .iter()
                .flat_map(|u| host.uplink_nics(u.value))
                .map(|n| host.nic(n))
                .collect();
            // Only members that state a model are compared: a member without
            // one is not known to differ.
            let stated: Vec<(&Nic, &Sp<String>)> = members
                .iter()
                .filter_map(|n| n.model.as_ref().map(|m| (*n, m)))
                .collect();
            if let Some((first, first_model)) = stated.first() {
                if let Some((odd, odd_model)) = stated
                    .iter()
                    .find(|(_, m)| normalized(&m.value) != normalized(&first_model.value))
                {
                    let listed: Vec<String> = stated
                        .iter()
                        .map(|(n, m)| format!("{} {}", n.name, m.value))
                        .collect();
                    hits.push(HostHit {
                        element: element.clone(),
                        span: odd_model.span,
                        message: format!(
                            "SET switch `{}` mixes adapter models ({}): SET needs identical adapters",
                            vs.name,
                            listed.join(", ")
                        ),
                        related: vec![(
                            first_model.span,
                            format!("`{}` is a {}", first.name, first_model.value),
                        )],
                        help: format!(
                            "team only identical adapters (make, model, firmware and driver) in SET: replace `{}` with a {}, or take it out of `uplinks` of `{}`",
                            odd.name, first_model.value, vs.name
                        ),
                    });
                }
            }
            for vnic in &vs.vnics {
                for standby in &vnic.standby_uplinks {
                    let nic = host.nic(standby.value);
                    hits.push(HostHit {
                        element: Element::vnic(&host.name, &vs.name, &vnic.name),
                        span: standby.span,
                        message: format!(
                            "vNIC `{}` on SET switch `{}` names `{}` as a standby uplink: SET has no standby members, every member is active",
                            vnic.name, vs.name, nic.name
                        ),
                        related: Vec::new(),
                        help: format!(
                            "remove `standby_uplinks` from vNIC `{}`; to steer it to one member, use `active_uplinks` (vNIC-to-team-member affinity), and let SET fail it over",
                            vnic.name
                        ),
                    });
                }
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
[networks.smb1]
role = "storage"
protocol = "smb"
vlan = 711
[switches.sw]
[profiles.p.nics.A]
speed = "25G"
switch = "sw"
model = "Mellanox ConnectX-4 Lx"
[profiles.p.nics.B]
speed = "25G"
switch = "sw"
MODEL_B
[profiles.p.vswitches.S]
uplinks = ["A", "B"]
networks = ["vm"]
[profiles.p.vswitches.S.vnics.SMB1]
network = "smb1"
active_uplinks = ["A"]
STANDBY
[hosts.h1]
profile = "p"
"#;

    fn src(platform: &str, model_b: &str, standby: &str) -> String {
        BASE.replace("PLATFORM", platform)
            .replace("MODEL_B", model_b)
            .replace("STANDBY", standby)
    }

    #[test]
    fn different_models_fire_on_the_odd_member() {
        let f = findings(
            &src("windows-server-2022", "model = \"Intel E810\"", ""),
            ID,
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "hosts.h1.vswitches.S");
        assert_eq!(
            f[0].message,
            "host `h1`: SET switch `S` mixes adapter models (A Mellanox ConnectX-4 Lx, B Intel E810): SET needs identical adapters"
        );
        assert_eq!(f[0].related.len(), 1);
    }

    #[test]
    fn same_model_in_other_spelling_is_identical() {
        let f = findings(
            &src(
                "windows-server-2022",
                "model = \"mellanox  ConnectX-4 LX\"",
                "",
            ),
            ID,
        );
        assert!(f.is_empty(), "{f:#?}");
    }

    #[test]
    fn a_member_without_a_model_is_not_compared() {
        assert!(findings(&src("windows-server-2022", "", ""), ID).is_empty());
    }

    #[test]
    fn standby_uplink_on_set_fires_on_the_vnic() {
        let f = findings(
            &src(
                "windows-server-2019",
                "model = \"Mellanox ConnectX-4 Lx\"",
                "standby_uplinks = [\"B\"]",
            ),
            ID,
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "hosts.h1.vswitches.S.vnics.SMB1");
        assert!(
            f[0].message.contains("names `B` as a standby uplink"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn vsphere_standby_uplinks_and_mixed_models_are_normal() {
        let f = findings(
            &src(
                "vsphere-8",
                "model = \"Intel E810\"",
                "standby_uplinks = [\"B\"]",
            ),
            ID,
        );
        assert!(f.is_empty(), "{f:#?}");
    }
}
