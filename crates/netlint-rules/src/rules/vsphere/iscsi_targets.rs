//! `vsphere-iscsi-port-binding` against the iSCSI targets a host uses:
//! with port binding, ESXi logs in from every bound vmkernel port to every
//! port of the target, so the bound ports and the target's ports must all
//! be in one broadcast domain and subnet (VMware KB 2038869). Two fabrics
//! A/B on two VLANs or subnets are the design where binding must not be
//! used.

use crate::rules::located::Lines;
use crate::{Context, Rule};
use netlint_model::{Design, Diagnostic, Host, HostId, NetworkId, StorageKind};

/// Whether two networks are one broadcast domain and subnet: the same
/// VLAN (or both untagged), and subnets that overlap where both are known.
fn same_domain(design: &Design, a: NetworkId, b: NetworkId) -> bool {
    let (x, y) = (design.network(a), design.network(b));
    x.vlan_id() == y.vlan_id()
        && match (&x.subnet, &y.subnet) {
            (Some(s), Some(t)) => s.value.overlaps(&t.value),
            _ => true,
        }
}

/// One finding per iSCSI target the host uses whose ports, with the bound
/// vmkernel ports, span more than one broadcast domain.
pub(super) fn binding_domains(
    cx: &Context<'_>,
    rule: &'static Rule,
    h: HostId,
    host: &Host,
    found: &mut Vec<Diagnostic>,
) {
    let design = cx.design;
    // (vSwitch index, vNIC index, network) of every bound vmkernel port.
    let bound: Vec<(usize, usize, NetworkId)> = host
        .vswitches
        .iter()
        .enumerate()
        .flat_map(|(vi, vs)| {
            vs.vnics
                .iter()
                .enumerate()
                .filter(|(_, v)| v.iscsi_port_binding.value)
                .map(move |(ni, v)| (vi, ni, v.network.value))
        })
        .collect();
    let Some(&(fv, fn_, first_net)) = bound.first() else {
        return;
    };
    for target in &design.storage {
        if target.kind.value != StorageKind::Iscsi || !target.used_by(design, h) {
            continue;
        }
        let nets = target.networks();
        let mut all: Vec<NetworkId> = bound.iter().map(|b| b.2).collect();
        all.extend(nets.iter().copied());
        if all.iter().all(|n| same_domain(design, first_net, *n)) {
            continue;
        }
        let domain = |n: NetworkId| {
            let net = design.network(n);
            match (net.vlan_id(), &net.subnet) {
                (Some(v), Some(s)) => format!("`{}` (VLAN {v}, {})", net.name, s.value),
                (Some(v), None) => format!("`{}` (VLAN {v})", net.name),
                (None, Some(s)) => format!("`{}` (untagged, {})", net.name, s.value),
                (None, None) => format!("`{}` (untagged)", net.name),
            }
        };
        let vmks: Vec<String> = bound
            .iter()
            .map(|(vi, ni, n)| {
                format!(
                    "`{}` on {}",
                    host.vswitches[*vi].vnics[*ni].name,
                    domain(*n)
                )
            })
            .collect();
        let ports: Vec<String> = nets.iter().map(|n| domain(*n)).collect();
        let first = &host.vswitches[fv].vnics[fn_];
        let mut lines = Lines::new(first.iscsi_port_binding.span, "iscsi_port_binding");
        for (vi, ni, _) in bound.iter().skip(1) {
            let v = &host.vswitches[*vi].vnics[*ni];
            lines = lines.and(
                v.iscsi_port_binding.span,
                format!("`{}` is bound too", v.name),
            );
        }
        lines = lines.and(
            target.span,
            format!("the host uses iSCSI target `{}`", target.name),
        );
        let (span, related) = lines.for_hosts([host]);
        let names: Vec<String> = bound
            .iter()
            .map(|(vi, ni, _)| format!("`{}`", host.vswitches[*vi].vnics[*ni].name))
            .collect();
        let mut d = cx
            .finding(
                rule,
                host.vnic_element(netlint_model::VSwitchIdx(fv), fn_),
                span,
                format!(
                    "vmkernel port{} {} {} bound for iSCSI, and iSCSI target `{}` has ports on {}: port binding needs every bound vmkernel port and every target port in one broadcast domain and subnet; ESXi logs in from each bound port to each target port, and the logins that cross domains fail (dead paths, slow rescans and boots)",
                    if bound.len() == 1 { "" } else { "s" },
                    vmks.join(", "),
                    if bound.len() == 1 { "is" } else { "are" },
                    target.name,
                    ports.join(", ")
                ),
            )
            .with_help(format!(
                "remove `iscsi_port_binding` from {} (with the target's ports in several subnets ESXi picks the vmkernel port for each by its routing table: one vmkernel port per subnet), or put the bound ports and the target's ports in one subnet",
                names.join(", ")
            ));
        for (s, l) in related {
            d = d.with_related(s, l);
        }
        found.push(d);
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    /// Two ESXi hosts binding vmk1 (iscsi-a) and vmk2 (iscsi-b) to an
    /// array on both fabrics.
    const FABRICS: &str = include_str!("../../../../../fixtures/storage-iscsi-binding.toml");

    #[test]
    fn binding_over_two_fabrics_is_reported_against_the_target() {
        let f = findings(FABRICS, "vsphere-iscsi-port-binding");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "hosts.esx1.vswitches.vSwitch1.vnics.vmk1");
        assert_eq!(f[0].subjects.len(), 2, "one finding for both hosts");
        assert!(
            f[0].message.contains("and iSCSI target `array1` has ports on `iscsi-a` (VLAN 60, 10.60.0.0/24), `iscsi-b` (VLAN 61, 10.61.0.0/24)"),
            "{}",
            f[0].message
        );
        assert!(f[0]
            .help
            .as_deref()
            .unwrap()
            .starts_with("remove `iscsi_port_binding` from `vmk1`, `vmk2`"));
    }

    #[test]
    fn without_binding_two_fabrics_are_right() {
        let src = FABRICS.replace("iscsi_port_binding = true\n", "");
        assert!(findings(&src, "vsphere-iscsi-port-binding").is_empty());
    }

    #[test]
    fn binding_in_one_subnet_with_the_targets_ports_is_right() {
        // Both vmkernel ports and every target port on fabric A's network.
        let src = FABRICS
            .replace("network = \"iscsi-b\"", "network = \"iscsi-a\"")
            .replace("networks = [\"iscsi-b\"]", "networks = [\"iscsi-a\"]")
            .replace("vlans = [10, 61]", "vlans = [10, 60]")
            .replace("vlans = [10]", "vlans = [10, 60]");
        assert!(
            findings(&src, "vsphere-iscsi-port-binding").is_empty(),
            "{:#?}",
            findings(&src, "vsphere-iscsi-port-binding")
        );
        // A target port in another subnet of the same VLAN still counts.
        let other = src.replace(
            "[switches.tor-a]",
            "[networks.iscsi-c]\nrole = \"storage\"\nprotocol = \"iscsi\"\nvlan = 60\nsubnet = \"10.62.0.0/24\"\nmtu = 9000\n\n[switches.tor-a]",
        )
        .replacen("networks = [\"iscsi-a\"]\n\n[storage.array1.ports.B0]", "networks = [\"iscsi-c\"]\n\n[storage.array1.ports.B0]", 1);
        let f = findings(&other, "vsphere-iscsi-port-binding");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("`iscsi-c` (VLAN 60, 10.62.0.0/24)"),
            "{}",
            f[0].message
        );
    }
}
