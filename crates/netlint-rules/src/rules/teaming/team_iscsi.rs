//! `team-iscsi`: an iSCSI network rides on a team, or host and guest iSCSI
//! share adapters.

use crate::phrases::bandwidth::nics_text;
use crate::rules::traffic::emit_per_host;
use crate::rules::traffic::host_ports::via_span;
use crate::{declare_rule, Context};
use netlint_analysis::Via;
use netlint_model::{Diagnostic, NetworkId, NicIdx, Protocol, Role};

declare_rule!(
    RULE,
    id: "team-iscsi",
    category: "teaming",
    severity: Info,
    summary: "An iSCSI network rides on a team, or host and guest iSCSI share adapters.",
    check: check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let d = cx.design;
    let iscsi: Vec<NetworkId> = d
        .networks
        .iter()
        .enumerate()
        .filter(|(_, n)| {
            n.role.value == Role::Storage
                && n.protocol.as_ref().map(|p| p.value) == Some(Protocol::Iscsi)
        })
        .map(|(i, _)| NetworkId(i))
        .collect();
    if iscsi.is_empty() {
        return;
    }
    let mut found = Vec::new();
    for (hi, host) in d.hosts.iter().enumerate() {
        let carriers: Vec<_> = cx.topology().carriers[hi]
            .iter()
            .filter(|c| iscsi.contains(&c.network))
            .collect();
        let guest_nics: Vec<(NetworkId, Vec<NicIdx>, Via)> = carriers
            .iter()
            .filter(|c| matches!(c.via, Via::Guest(_)))
            .map(|c| {
                let mut all = c.active.clone();
                all.extend(&c.standby);
                (c.network, all, c.via)
            })
            .collect();
        for c in carriers.iter().filter(|c| !matches!(c.via, Via::Guest(_))) {
            let net = d.network(c.network);
            let mut nics = c.active.clone();
            nics.extend(&c.standby);
            let teamed = match c.via {
                Via::Team(_) => true,
                // A port-bound vmkernel port with one uplink is not teamed;
                // a Hyper-V vNIC on a team or SET switch is.
                Via::VNic(v, _) => {
                    if host.os.value.is_vsphere() {
                        nics.len() > 1
                    } else {
                        let vs = &host.vswitches[v.0];
                        vs.uplinks.len() > 1
                            || vs
                                .uplinks
                                .iter()
                                .any(|u| matches!(u.value, netlint_model::Uplink::Team(_)))
                    }
                }
                _ => false,
            };
            let element = host.via_element(c.via);
            let span = via_span(host, c.via, c.network);
            let name = match c.via {
                Via::Team(t) => format!("team `{}`", host.teams[t.0].name),
                Via::VNic(v, k) => format!(
                    "{} `{}` on virtual switch `{}`",
                    if host.os.value.is_vsphere() {
                        "vmkernel port"
                    } else {
                        "vNIC"
                    },
                    host.vswitches[v.0].vnics[k].name,
                    host.vswitches[v.0].name
                ),
                Via::Nic(n) => format!("NIC `{}`", host.nic(n).name),
                Via::Guest(_) => unreachable!(),
            };
            if teamed {
                found.push(cx
                        .finding(
                            &RULE,
                            element.clone(),
                            span,
                            format!(
                                "iSCSI network `{}` rides on {name} ({}): {}",
                                net.name,
                                nics_text(host, &nics),
                                if host.os.value.is_vsphere() {
                                    "multipathing over vmkernel ports with one active uplink each (port binding) is the common advice"
                                } else {
                                    "MPIO over separate, non-teamed adapters on separate subnets is the common advice (Microsoft supports either)"
                                }
                            ),
                        )
                        .with_help(format!(
                            "put `{}` on dedicated NICs (`nics.<nic>.networks`), one per iSCSI subnet, and let MPIO spread and fail over the sessions",
                            net.name
                        )));
            }
            for (gnet, gnics, gvia) in &guest_nics {
                let shared: Vec<NicIdx> =
                    nics.iter().copied().filter(|n| gnics.contains(n)).collect();
                if shared.is_empty() {
                    continue;
                }
                let Via::Guest(v) = gvia else { continue };
                let vs = &host.vswitches[v.0];
                found.push(cx
                        .finding(
                            &RULE,
                            element.clone(),
                            span,
                            format!(
                                "host iSCSI (`{}` on {name}) and guest iSCSI (`{}` on virtual switch `{}`) share adapters {}: a guest burst competes with the host's storage paths",
                                net.name,
                                d.network(*gnet).name,
                                vs.name,
                                shared
                                    .iter()
                                    .map(|n| format!("`{}`", host.nic(*n).name))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                        )
                        .with_related(via_span(host, *gvia, *gnet), "guest iSCSI here")
                        .with_help("give host iSCSI and guest iSCSI separate adapters"));
            }
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
platform = "PLATFORM"
[networks.iscsi]
role = "storage"
protocol = "PROTO"
vlan = 60
[networks.giscsi]
role = "storage"
protocol = "iscsi"
vlan = 61
[switches.sw]
[profiles.p.nics.A]
speed = "10G"
switch = "sw"
[profiles.p.nics.B]
speed = "10G"
switch = "sw"
PLACEMENT
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
"#;

    fn src(platform: &str, proto: &str, placement: &str) -> String {
        BASE.replace("PLATFORM", platform)
            .replace("PROTO", proto)
            .replace("PLACEMENT", placement)
    }

    const ON_TEAM: &str = "[profiles.p.teams.T]\nmembers = [\"A\", \"B\"]\nnetworks = [\"iscsi\"]";

    #[test]
    fn iscsi_on_a_team_fires_once_for_the_profile_line() {
        let s = src("windows-server-2019", "iscsi", ON_TEAM);
        let f = findings(&s, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.starts_with(
                "hosts `hv1`, `hv2`: iSCSI network `iscsi` rides on team `T` (2 x 10G)"
            ),
            "{}",
            f[0].message
        );
        assert_eq!(f[0].element(), "hosts.hv1.teams.T");
    }

    #[test]
    fn separate_nics_or_another_protocol_are_silent() {
        let separate = src("windows-server-2019", "iscsi", "").replace(
            "switch = \"sw\"\n[profiles.p.nics.B]",
            "switch = \"sw\"\nnetworks = [\"iscsi\"]\n[profiles.p.nics.B]",
        );
        assert!(findings(&separate, &super::RULE).is_empty());
        assert!(findings(&src("windows-server-2019", "smb", ON_TEAM), &super::RULE).is_empty());
    }

    #[test]
    fn host_and_guest_iscsi_on_one_vswitch_fire() {
        let s = src(
            "windows-server-2019",
            "iscsi",
            "[profiles.p.vswitches.S]\nuplinks = [\"A\", \"B\"]\nnetworks = [\"giscsi\"]\n[profiles.p.vswitches.S.vnics.iSCSI]\nnetwork = \"iscsi\"",
        );
        let f = findings(&s, &super::RULE);
        assert_eq!(f.len(), 2, "{f:#?}");
        assert!(f.iter().any(|d| d
            .message
            .contains("rides on vNIC `iSCSI` on virtual switch `S`")));
        assert!(
            f.iter().any(|d| d.message.contains("host iSCSI (`iscsi` on vNIC `iSCSI` on virtual switch `S`) and guest iSCSI (`giscsi` on virtual switch `S`) share adapters `A`, `B`")),
            "{f:#?}"
        );
    }

    #[test]
    fn a_port_bound_vmkernel_port_with_one_uplink_is_not_teamed() {
        let s = src(
            "vsphere-7",
            "iscsi",
            "[profiles.p.vswitches.vSwitch1]\nuplinks = [\"A\", \"B\"]\n[profiles.p.vswitches.vSwitch1.vnics.vmk2]\nnetwork = \"iscsi\"\nactive_uplinks = [\"A\"]\niscsi_port_binding = true",
        );
        assert!(findings(&s, &super::RULE).is_empty());
    }
}
