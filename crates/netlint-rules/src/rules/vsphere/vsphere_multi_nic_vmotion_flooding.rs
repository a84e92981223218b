//! `vsphere-multi-nic-vmotion-flooding`: multi-NIC vMotion on vSphere 5.0 /
//! 5.1 before the fix can flood the vMotion VLAN.

use crate::rules::traffic::emit_per_host;
use crate::{declare_rule, Context};
use netlint_model::{Diagnostic, Platform, Role};

declare_rule!(
    RULE,
    id: "vsphere-multi-nic-vmotion-flooding",
    category: "vsphere",
    severity: Warning,
    summary: "Multi-NIC vMotion on vSphere 5.0 / 5.1 before the fix can flood every port of the vMotion VLAN.",
    check: check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut found = Vec::new();
    let d = cx.design;
    for host in &d.hosts {
        if !matches!(host.os.value, Platform::Vsphere50 | Platform::Vsphere51) {
            continue;
        }
        let listed = |net| {
            host.live_migration
                .as_ref()
                .is_some_and(|lm| lm.networks.iter().any(|n| n.value == net))
        };
        let mut vmks = Vec::new();
        for vs in &host.vswitches {
            for vnic in &vs.vnics {
                let net = vnic.network.value;
                if d.network(net).role.value == Role::LiveMigration || listed(net) {
                    vmks.push(format!("`{}`", vnic.name));
                }
            }
        }
        if vmks.len() < 2 {
            continue;
        }
        found.push(cx
                .finding(
                    &RULE,
                    host.element(),
                    host.os.span,
                    format!(
                        "platform `{}` with {} vMotion vmkernel ports ({}): multi-NIC vMotion before 5.0 Update 2 can flood every port of the vMotion VLAN once switch MAC tables age out (about 300 s into a long migration), because the acknowledgements come back to one MAC only",
                        host.os.value,
                        vmks.len(),
                        vmks.join(", ")
                    ),
                )
                .with_help("upgrade to vSphere 5.0 Update 2 or later (`os = \"vsphere-5.0u2\"` or newer); until then, raise the MAC aging time on the switches carrying the vMotion VLAN, or use one vMotion vmkernel port"));
    }
    emit_per_host(out, found);
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    fn src(platform: &str, vmks: usize) -> String {
        let mut s = format!(
            r#"
[design]
name = "t"
platform = "{platform}"
[networks.vmotion]
role = "live-migration"
vlan = 50
[switches.a]
[hosts.esx1.nics.vmnic0]
speed = "1G"
switch = "a"
[hosts.esx1.nics.vmnic1]
speed = "1G"
switch = "a"
[hosts.esx1.vswitches.vSwitch0]
uplinks = ["vmnic0", "vmnic1"]
"#
        );
        for i in 0..vmks {
            s.push_str(&format!(
                "[hosts.esx1.vswitches.vSwitch0.vnics.vmk{i}]\nnetwork = \"vmotion\"\n"
            ));
        }
        s
    }

    #[test]
    fn two_vmotion_ports_on_5_0_or_5_1_fire() {
        for p in ["vsphere-5.0", "vsphere-5.1"] {
            let f = findings(&src(p, 2), &super::RULE);
            assert_eq!(f.len(), 1, "{p}: {f:#?}");
            assert!(f[0]
                .message
                .contains("2 vMotion vmkernel ports (`vmk0`, `vmk1`)"));
            assert_eq!(f[0].element(), "hosts.esx1");
        }
    }

    #[test]
    fn fixed_releases_or_one_port_are_silent() {
        assert!(findings(&src("vsphere-5.0u2", 2), &super::RULE).is_empty());
        assert!(findings(&src("vsphere-6", 2), &super::RULE).is_empty());
        assert!(findings(&src("vsphere-5.0", 1), &super::RULE).is_empty());
    }
}
