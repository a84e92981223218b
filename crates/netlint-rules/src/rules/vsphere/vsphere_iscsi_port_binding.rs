//! `vsphere-iscsi-port-binding`: a vmkernel port bound for iSCSI has more
//! than one active uplink, or standby uplinks.

use crate::rules::located::Lines;
use crate::rules::traffic::emit_per_host;
use crate::{declare_rule, Context};
use netlint_model::Element;
use netlint_model::{Diagnostic, NicIdx};

declare_rule!(
    RULE,
    id: "vsphere-iscsi-port-binding",
    category: "vsphere",
    severity: Error,
    summary: "An iSCSI-bound vmkernel port has more than one active uplink or standby uplinks, or is not in one broadcast domain with the ports of the iSCSI targets its host uses.",
    check: check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut found = Vec::new();
    for (hi, host) in cx.design.hosts.iter().enumerate() {
        if !host.os.value.is_vsphere() {
            continue;
        }
        super::iscsi_targets::binding_domains(
            cx,
            &RULE,
            netlint_model::HostId(hi),
            host,
            &mut found,
        );
        for vs in &host.vswitches {
            let all: Vec<NicIdx> = vs
                .uplinks
                .iter()
                .flat_map(|u| host.uplink_nics(u.value))
                .collect();
            for vnic in vs.vnics.iter().filter(|v| v.iscsi_port_binding.value) {
                let standby: Vec<NicIdx> = vnic.standby_uplinks.iter().map(|u| u.value).collect();
                let active: Vec<NicIdx> = if vnic.active_uplinks.is_empty() {
                    all.iter()
                        .copied()
                        .filter(|n| !standby.contains(n))
                        .collect()
                } else {
                    vnic.active_uplinks.iter().map(|u| u.value).collect()
                };
                if active.len() == 1 && standby.is_empty() {
                    continue;
                }
                let names = |v: &[NicIdx]| {
                    v.iter()
                        .map(|n| format!("`{}`", host.nic(*n).name))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let mut problems = Vec::new();
                if active.len() > 1 {
                    problems.push(format!(
                        "{} active uplinks ({}){}",
                        active.len(),
                        names(&active),
                        if vnic.active_uplinks.is_empty() {
                            format!(
                                ", inherited from `{}` because it sets no `active_uplinks`",
                                vs.name
                            )
                        } else {
                            String::new()
                        }
                    ));
                }
                if !standby.is_empty() {
                    problems.push(format!("standby uplinks ({})", names(&standby)));
                }
                // The lines that make the problem; one of this host's own
                // overrides (a standby uplink added on one host) leads.
                let mut lines = match (vnic.active_uplinks.first(), vnic.standby_uplinks.first()) {
                    (Some(a), _) => Lines::new(a.span, "active_uplinks"),
                    (None, Some(s)) => Lines::new(s.span, "standby_uplinks"),
                    (None, None) => Lines::new(vnic.iscsi_port_binding.span, "iscsi_port_binding"),
                };
                if let (Some(_), Some(s)) =
                    (vnic.active_uplinks.first(), vnic.standby_uplinks.first())
                {
                    lines = lines.and(s.span, "standby_uplinks");
                }
                if vnic.active_uplinks.is_empty() && active.len() > 1 {
                    lines = lines.and(vs.uplinks_span, format!("the uplinks of `{}`", vs.name));
                }
                let (span, related) = lines
                    .and(vnic.iscsi_port_binding.span, "iscsi_port_binding")
                    .for_hosts([host]);
                let keep = active
                    .first()
                    .or(all.first())
                    .map(|n| host.nic(*n).name.clone())
                    .unwrap_or_default();
                let mut diagnostic = cx
                        .finding(
                            &RULE,
                            Element::vnic(&host.name, &vs.name, &vnic.name),
                            span,
                            format!(
                                "vmkernel port `{}` is bound for iSCSI but has {}: port binding needs exactly one active uplink and the others unused, or the binding is refused (or paths fail over wrongly)",
                                vnic.name,
                                problems.join(" and ")
                            ),
                        )
                        .with_help(format!(
                            "set `active_uplinks = [\"{keep}\"]` and no `standby_uplinks` on `{}`; give each other uplink its own bound vmkernel port",
                            vnic.name
                        ));
                for (span, label) in related {
                    diagnostic = diagnostic.with_related(span, label);
                }
                found.push(diagnostic);
            }
        }
    }
    emit_per_host(out, found);
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    fn src(vmk: &str) -> String {
        format!(
            r#"
[design]
name = "t"
platform = "vsphere-7"
[networks.iscsi]
role = "storage"
protocol = "iscsi"
vlan = 60
[switches.a]
[hosts.esx1.nics.vmnic2]
speed = "10G"
switch = "a"
[hosts.esx1.nics.vmnic3]
speed = "10G"
switch = "a"
[hosts.esx1.vswitches.vSwitch1]
uplinks = ["vmnic2", "vmnic3"]
[hosts.esx1.vswitches.vSwitch1.vnics.vmk1]
network = "iscsi"
iscsi_port_binding = true
{vmk}
"#
        )
    }

    #[test]
    fn inherited_active_uplinks_fire() {
        let f = findings(&src(""), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message
                .contains("has 2 active uplinks (`vmnic2`, `vmnic3`), inherited from `vSwitch1`"),
            "{}",
            f[0].message
        );
        assert_eq!(f[0].element(), "hosts.esx1.vswitches.vSwitch1.vnics.vmk1");
        assert!(f[0]
            .help
            .as_ref()
            .unwrap()
            .contains("`active_uplinks = [\"vmnic2\"]`"));
    }

    #[test]
    fn a_standby_uplink_fires() {
        let f = findings(
            &src("active_uplinks = [\"vmnic2\"]\nstandby_uplinks = [\"vmnic3\"]"),
            &super::RULE,
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("has standby uplinks (`vmnic3`)"));
    }

    #[test]
    fn a_standby_uplink_added_on_one_host_is_reported_at_that_host() {
        let src = r#"
[design]
name = "t"
platform = "vsphere-7"
[networks.iscsi]
role = "storage"
protocol = "iscsi"
vlan = 60
[switches.a]
[profiles.esx.nics.vmnic2]
speed = "10G"
switch = "a"
[profiles.esx.nics.vmnic3]
speed = "10G"
switch = "a"
[profiles.esx.vswitches.vSwitch1]
uplinks = ["vmnic2", "vmnic3"]
[profiles.esx.vswitches.vSwitch1.vnics.vmk1]
network = "iscsi"
iscsi_port_binding = true
active_uplinks = ["vmnic2"]
[hosts.esx1]
profile = "esx"
[hosts.esx2]
profile = "esx"
[hosts.esx2.vswitches.vSwitch1.vnics.vmk1]
standby_uplinks = ["vmnic3"]
"#;
        let f = findings(src, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.starts_with("host `esx2`: "),
            "{}",
            f[0].message
        );
        let p = f[0].primary.as_ref().unwrap().span;
        assert_eq!(&src[p.start..p.end], "\"vmnic3\"");
        let labels: Vec<&str> = f[0].related.iter().map(|r| r.message.as_str()).collect();
        assert_eq!(labels, ["active_uplinks", "iscsi_port_binding"]);
        let r = f[0].related[0].span;
        assert_eq!(&src[r.start..r.end], "\"vmnic2\"");
    }

    #[test]
    fn one_active_uplink_is_right() {
        assert!(findings(&src("active_uplinks = [\"vmnic3\"]"), &super::RULE).is_empty());
    }
}
