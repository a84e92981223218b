//! `rdma-untagged`: a RoCE NIC or vNIC carries SMB Direct on an untagged
//! network.

use super::{emit_per_host, vswitch_nics};
use crate::{declare_rule, Context};
use netlint_model::Element;
use netlint_model::{Diagnostic, Host, NetworkId, Protocol, Role, Span, Transport};

declare_rule!(
    RULE,
    id: "rdma-untagged",
    category: "traffic",
    severity: Warning,
    summary: "A RoCE NIC or vNIC carries SMB Direct on an untagged network, where PFC cannot protect it.",
    check: check,
);

/// Why a network carries SMB (Direct, on an RDMA interface) on this host.
fn smb_use(cx: &Context<'_>, host: &Host, net: NetworkId) -> Option<&'static str> {
    let n = cx.design.network(net);
    match (n.role.value, n.protocol.as_ref().map(|p| p.value)) {
        (Role::Storage, Some(Protocol::Smb)) => return Some("SMB storage"),
        (Role::Csv, _) => return Some("CSV"),
        _ => {}
    }
    let lm = host.live_migration.as_ref()?;
    let listed = lm.networks.iter().any(|l| l.value == net);
    (lm.transport.value == Transport::Smb && (listed || n.role.value == Role::LiveMigration))
        .then_some("live migration over SMB")
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let d = cx.design;
    let mut found = Vec::new();
    for host in d.hosts.iter().filter(|h| h.os.value.is_windows()) {
        let mut report = |element: Element,
                          adapter: String,
                          at: Span,
                          rdma_at: Span,
                          net: NetworkId| {
            let n = d.network(net);
            if n.tagged() {
                return;
            }
            let Some(why) = smb_use(cx, host, net) else {
                return;
            };
            found.push(cx
                    .finding(
                        &RULE,
                        element,
                        at,
                        format!(
                            "{adapter} carries SMB Direct ({why}) on untagged network `{}`: an untagged frame has no 802.1Q priority field, so PFC cannot make that traffic lossless",
                            n.name
                        ),
                    )
                    .with_related(n.span, format!("`{}` has no `vlan`", n.name))
                    .with_related(rdma_at, "RoCE here")
                    .with_help(format!(
                        "put `{}` on a VLAN: set `vlan` on the network to a VLAN the switches carry (and tag the adapter or vNIC with it), then map the SMB Direct priority to that traffic with PFC on host and switches",
                        n.name
                    )));
        };
        for nic in host.nics.iter().filter(|n| n.rdma.value.is_roce()) {
            for net in &nic.networks {
                report(
                    Element::nic(&host.name, &nic.name),
                    format!("RoCE NIC `{}` ({})", nic.name, nic.rdma.value),
                    net.span,
                    nic.rdma.span,
                    net.value,
                );
            }
        }
        for (i, vs) in host.vswitches.iter().enumerate() {
            // vRDMA rides NIC uplinks (SET, or one NIC); an LBFO team below
            // hides RDMA altogether (team-rdma's finding).
            if vs
                .uplinks
                .iter()
                .any(|u| matches!(u.value, netlint_model::Uplink::Team(_)))
            {
                continue;
            }
            let uplinks = vswitch_nics(host, netlint_model::VSwitchIdx(i));
            for vnic in vs.vnics.iter().filter(|v| v.rdma.value) {
                // A vNIC pinned to uplinks uses those; otherwise any.
                let under: Vec<_> = if vnic.active_uplinks.is_empty() {
                    uplinks.clone()
                } else {
                    vnic.active_uplinks.iter().map(|u| u.value).collect()
                };
                let Some(roce) = under
                    .iter()
                    .map(|n| host.nic(*n))
                    .find(|n| n.rdma.value.is_roce())
                else {
                    continue;
                };
                report(
                    Element::vnic(&host.name, &vs.name, &vnic.name),
                    format!(
                        "RDMA vNIC `{}` on switch `{}` (RoCE uplink `{}`)",
                        vnic.name, vs.name, roce.name
                    ),
                    vnic.network.span,
                    roce.rdma.span,
                    vnic.network.value,
                );
            }
        }
    }
    emit_per_host(out, found);
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const NICS: &str = r#"
[design]
name = "t"
platform = "windows-server-2019"
[networks.smb]
role = "storage"
protocol = "PROTO"
VLAN
[switches.sw]
[profiles.p.nics.S1]
speed = "25G"
switch = "sw"
rdma = "RDMA"
networks = ["smb"]
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
"#;

    fn nics(proto: &str, vlan: &str, rdma: &str) -> String {
        NICS.replace("PROTO", proto)
            .replace("VLAN", vlan)
            .replace("RDMA", rdma)
    }

    #[test]
    fn roce_nic_on_untagged_smb_fires_once_for_the_profile_line() {
        let f = findings(&nics("smb", "", "roce-v2"), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        let m = &f[0].message;
        assert!(
            m.starts_with("hosts `hv1`, `hv2`: RoCE NIC `S1` (roce-v2)"),
            "{m}"
        );
        assert!(
            m.contains("SMB Direct (SMB storage) on untagged network `smb`"),
            "{m}"
        );
        assert_eq!(f[0].element(), "hosts.hv1.nics.S1");
    }

    #[test]
    fn vlan_zero_is_untagged() {
        assert_eq!(
            findings(&nics("smb", "vlan = 0", "roce"), &super::RULE).len(),
            1
        );
    }

    #[test]
    fn tagged_iwarp_or_non_smb_are_fine() {
        assert!(findings(&nics("smb", "vlan = 711", "roce"), &super::RULE).is_empty());
        assert!(findings(&nics("smb", "", "iwarp"), &super::RULE).is_empty());
        assert!(findings(&nics("iscsi", "", "roce"), &super::RULE).is_empty());
    }

    const SET: &str = r#"
[design]
name = "t"
platform = "windows-server-2019"
[networks.mgmt]
role = "management"
vlan = 7
[networks.lm]
role = "live-migration"
[switches.sw]
[hosts.hv1.nics.A]
speed = "25G"
switch = "sw"
rdma = "roce-v2"
[hosts.hv1.nics.B]
speed = "25G"
switch = "sw"
rdma = "roce-v2"
[hosts.hv1.vswitches.S]
uplinks = ["A", "B"]
[hosts.hv1.vswitches.S.vnics.Mgmt]
network = "mgmt"
[hosts.hv1.vswitches.S.vnics.LM]
network = "lm"
rdma = VRDMA
[hosts.hv1.live_migration]
transport = "TRANSPORT"
networks = ["lm"]
"#;

    #[test]
    fn rdma_vnic_on_roce_set_with_smb_live_migration_fires() {
        let src = SET.replace("VRDMA", "true").replace("TRANSPORT", "smb");
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "hosts.hv1.vswitches.S.vnics.LM");
        assert!(
            f[0].message
                .contains("RDMA vNIC `LM` on switch `S` (RoCE uplink `A`) carries SMB Direct (live migration over SMB) on untagged network `lm`"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn tcp_live_migration_or_a_vnic_without_rdma_is_fine() {
        let tcp = SET.replace("VRDMA", "true").replace("TRANSPORT", "tcp");
        assert!(findings(&tcp, &super::RULE).is_empty());
        let plain = SET.replace("VRDMA", "false").replace("TRANSPORT", "smb");
        assert!(findings(&plain, &super::RULE).is_empty());
    }

    #[test]
    fn a_vnic_over_an_lbfo_team_is_left_to_team_rdma() {
        let src = SET
            .replace("VRDMA", "true")
            .replace("TRANSPORT", "smb")
            .replace(
                "[hosts.hv1.vswitches.S]\nuplinks = [\"A\", \"B\"]",
                "[hosts.hv1.teams.T]\nmembers = [\"A\", \"B\"]\n[hosts.hv1.vswitches.S]\nuplinks = [\"T\"]",
            );
        assert!(findings(&src, &super::RULE).is_empty());
    }

    #[test]
    fn a_vnic_pinned_to_a_non_roce_uplink_is_fine() {
        let src = SET
            .replace("VRDMA", "true\nactive_uplinks = [\"B\"]")
            .replace("TRANSPORT", "smb")
            .replace(
                "[hosts.hv1.nics.B]\nspeed = \"25G\"\nswitch = \"sw\"\nrdma = \"roce-v2\"",
                "[hosts.hv1.nics.B]\nspeed = \"25G\"\nswitch = \"sw\"",
            );
        assert!(findings(&src, &super::RULE).is_empty());
    }
}
