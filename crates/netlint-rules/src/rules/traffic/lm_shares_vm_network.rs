//! `lm-shares-vm-network`: live migration uses a network guests also use.

use super::emit_per_host;
use crate::{declare_rule, Context};
use netlint_model::{Diagnostic, NetworkId, Role};

declare_rule!(
    RULE,
    id: "lm-shares-vm-network",
    category: "traffic",
    severity: Warning,
    summary: "Live migration uses a network guests also use (the same network, or one sharing its VLAN).",
    check: check,
);

/// Networks guests use: VM networks and networks a virtual switch carries
/// for guests.
fn guest_networks(cx: &Context<'_>) -> Vec<(NetworkId, String)> {
    let d = cx.design;
    let mut out: Vec<(NetworkId, String)> = Vec::new();
    for (i, n) in d.networks.iter().enumerate() {
        if n.role.value == Role::Vm {
            out.push((NetworkId(i), "a VM network".to_string()));
        }
    }
    for host in &d.hosts {
        for vs in &host.vswitches {
            for net in &vs.networks {
                if !out.iter().any(|(n, _)| *n == net.value) {
                    out.push((
                        net.value,
                        format!(
                            "carried for guests by virtual switch `{}` of host `{}`",
                            vs.name, host.name
                        ),
                    ));
                }
            }
        }
    }
    out
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let d = cx.design;
    let guests = guest_networks(cx);
    if guests.is_empty() {
        return;
    }
    let mut found = Vec::new();
    for host in &d.hosts {
        let Some(lm) = &host.live_migration else {
            continue;
        };
        let vsphere = host.os.value.is_vsphere();
        let lm_words = host.os.value.live_migration_words();
        for entry in &lm.networks {
            let n = d.network(entry.value);
            let reason = if let Some((_, why)) = guests.iter().find(|(g, _)| *g == entry.value) {
                format!("`{}` is {why}", n.name)
            } else if let Some((g, _)) = guests.iter().find(|(g, _)| {
                *g != entry.value && n.vlan_id().is_some() && d.network(*g).vlan_id() == n.vlan_id()
            }) {
                format!(
                    "guest network `{}` shares its VLAN {}",
                    d.network(*g).name,
                    n.vlan_id().unwrap_or_default()
                )
            } else {
                continue;
            };
            found.push(cx
                    .finding(
                        &RULE,
                        host.element(),
                        entry.span,
                        format!(
                            "{lm_words} uses network `{}`, and {reason}: migration traffic is unencrypted VM memory on a segment guests can reach",
                            n.name
                        ),
                    )
                    .with_related(n.span, format!("network `{}`", n.name))
                    .with_help(if vsphere {
                        format!(
                            "give vMotion its own network on its own VLAN (a `live-migration` network no guest uses, on the vMotion vmkernel port) and list it in `live_migration.networks` instead of `{}` (or turn on encrypted vMotion); sharing uplinks on separate VLANs with NIOC shares is fine",
                            n.name
                        )
                    } else {
                        format!(
                            "give live migration its own network on its own VLAN (a `live-migration` or `csv` network no guest uses) and list it in `live_migration.networks` instead of `{}`; sharing adapters on separate VLANs with QoS is fine",
                            n.name
                        )
                    }));
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
[networks.vm]
role = "vm"
vlan = 100
[networks.lm]
role = "live-migration"
vlan = LMVLAN
[switches.sw]
[profiles.p.nics.A]
speed = "10G"
switch = "sw"
[profiles.p.nics.B]
speed = "10G"
switch = "sw"
[profiles.p.vswitches.S]
uplinks = ["A", "B"]
networks = GUESTS
[profiles.p.vswitches.S.vnics.LM]
network = "lm"
[profiles.p.live_migration]
networks = LMNETS
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
"#;

    fn src(vlan: &str, guests: &str, nets: &str) -> String {
        BASE.replace("LMVLAN", vlan)
            .replace("GUESTS", guests)
            .replace("LMNETS", nets)
    }

    #[test]
    fn a_vm_network_in_the_list_fires_at_its_entry() {
        let s = src("30", "[\"vm\"]", "[\"lm\", \"vm\"]");
        let f = findings(&s, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "hosts `hv1`, `hv2`: live migration uses network `vm`, and `vm` is a VM network: migration traffic is unencrypted VM memory on a segment guests can reach"
        );
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert_eq!(&s[at..at + 4], "\"vm\"");
    }

    #[test]
    fn vsphere_hosts_are_told_about_vmotion() {
        let s = src("30", "[\"vm\"]", "[\"lm\", \"vm\"]")
            .replace("name = \"t\"", "name = \"t\"\nplatform = \"vsphere-8\"");
        let f = findings(&s, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message
                .starts_with("hosts `hv1`, `hv2`: vMotion uses network `vm`"),
            "{}",
            f[0].message
        );
        let help = f[0].help.as_deref().unwrap();
        assert!(help.starts_with("give vMotion its own network"), "{help}");
        assert!(!help.contains("csv") && !help.contains("QoS"), "{help}");
    }

    #[test]
    fn a_shared_vlan_or_guest_carriage_fires() {
        let f = findings(&src("100", "[\"vm\"]", "[\"lm\"]"), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0]
            .message
            .contains("guest network `vm` shares its VLAN 100"));
        let f = findings(&src("30", "[\"vm\", \"lm\"]", "[\"lm\"]"), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0]
            .message
            .contains("carried for guests by virtual switch `S` of host `hv1`"));
    }

    #[test]
    fn converged_on_separate_vlans_is_fine() {
        assert!(findings(&src("30", "[\"vm\"]", "[\"lm\"]"), &super::RULE).is_empty());
    }
}
