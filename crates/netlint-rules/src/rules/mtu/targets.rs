//! `mtu-path-too-small` at a storage target's port: the end of the host's
//! storage path takes smaller packets than the host sends.

use super::mtu_path_too_small::{host_mtus, ping_advice, HostMtu};
use crate::phrases::failure::hosts_phrase;
use crate::{Context, Rule};
use netlint_model::{Diagnostic, HostId, NetworkId, TargetId, TargetPortIdx};
use std::collections::{BTreeMap, BTreeSet};

/// One port that takes smaller packets than hosts reaching it send.
struct Small {
    sender: HostMtu,
    hosts: BTreeSet<HostId>,
}

/// A finding per target port whose MTU is below the largest packet a host
/// that reaches the target on the port's network sends there.
pub(super) fn port_findings(cx: &Context<'_>, rule: &'static Rule, out: &mut Vec<Diagnostic>) {
    let design = cx.design;
    if design.storage.is_empty() {
        return;
    }
    let topo = cx.topology();
    // Per network, each host's largest packet.
    let mut largest: BTreeMap<NetworkId, BTreeMap<HostId, HostMtu>> = BTreeMap::new();
    let mut found: BTreeMap<(TargetId, TargetPortIdx, NetworkId), Small> = BTreeMap::new();
    for r in cx.target_reach().iter().filter(|r| r.broken.is_none()) {
        let per_host = largest.entry(r.network).or_insert_with(|| {
            let mut m: BTreeMap<HostId, HostMtu> = BTreeMap::new();
            for x in host_mtus(design, topo, r.network) {
                let e = m.entry(x.host).or_insert_with(|| x.clone());
                if x.payload > e.payload {
                    *e = x;
                }
            }
            m
        });
        let Some(sent) = per_host.get(&r.host) else {
            continue;
        };
        let target = design.target(r.target);
        for p in target.ports_on(r.network) {
            if target.port(p).mtu.value.payload >= sent.payload {
                continue;
            }
            let e = found
                .entry((r.target, p, r.network))
                .or_insert_with(|| Small {
                    sender: sent.clone(),
                    hosts: BTreeSet::new(),
                });
            if sent.payload > e.sender.payload {
                e.sender = sent.clone();
            }
            e.hosts.insert(r.host);
        }
    }
    for ((t, p, net), small) in found {
        let target = design.target(t);
        let port = target.port(p);
        let network = design.network(net);
        let all: Vec<HostId> = small.hosts.iter().copied().collect();
        let sender = &small.sender;
        let mtu = port.mtu.value.payload;
        let default = if port.mtu.span == port.span {
            " (the default when none is written)"
        } else {
            ""
        };
        let message = format!(
            "port `{}` of {} `{}` has MTU {mtu}{default}, but {} send it packets of up to {} bytes on network `{}`: TCP sessions to the target fall back to {mtu}-byte packets, so the jumbo frames the path is built for are never used, and larger packets that are not TCP (don't-fragment pings, vmkping checks, NFS over UDP) are dropped",
            port.name,
            target.kind.value.words(),
            target.name,
            hosts_phrase(design, &all),
            sender.payload,
            network.name,
        );
        let help = format!(
            "set `mtu = {}` on port `{}` of `{}` (and the same MTU on the array or server's interface); then {}",
            sender.payload,
            port.name,
            target.name,
            ping_advice(design, &all, sender.payload)
        );
        out.push(
            cx.finding(rule, target.port_element(p), port.mtu.span, message)
                .with_help(help)
                .with_related(sender.span, sender.sends(design)),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    /// Two hosts with jumbo iSCSI NICs on `tor`; the array on `san` behind
    /// it. PORT_MTU is the array port's, SAN_MTU the storage switch's.
    const SRC: &str = r#"
[design]
name = "t"
[networks.iscsi]
role = "storage"
protocol = "iscsi"
vlan = 60
mtu = 9000
[switches.tor]
mtu = 9216
[switches.san]
SAN_MTU
[[links]]
a = "tor"
b = "san"
speed = "25G"
members = 2
[hosts.h1.nics.S]
speed = "25G"
switch = "tor"
mtu = 9000
networks = ["iscsi"]
[hosts.h2.nics.S]
speed = "25G"
switch = "tor"
mtu = 9000
networks = ["iscsi"]
[storage.array]
kind = "iscsi"
[storage.array.ports.P0]
speed = "25G"
switch = "san"
PORT_MTU
networks = ["iscsi"]
"#;

    fn run(port: &str, san: &str) -> Vec<netlint_model::Diagnostic> {
        findings(
            &SRC.replace("PORT_MTU", port).replace("SAN_MTU", san),
            "mtu-path-too-small",
        )
    }

    #[test]
    fn a_1500_target_port_under_9000_host_nics_is_reported_at_the_port() {
        let f = run("mtu = 1500", "mtu = 9216");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "storage.array.ports.P0");
        assert!(
            f[0].message.starts_with(
                "port `P0` of iSCSI target `array` has MTU 1500, but hosts `h1`, `h2` send it packets of up to 9000 bytes on network `iscsi`"
            ),
            "{}",
            f[0].message
        );
        assert!(f[0]
            .help
            .as_deref()
            .unwrap()
            .starts_with("set `mtu = 9000` on port `P0` of `array`"));
        assert!(run("mtu = 9000", "mtu = 9216").is_empty());
    }

    #[test]
    fn a_switch_only_on_the_path_to_the_target_is_checked_and_names_it() {
        // No two hosts talk across `san`: only the target's path does.
        let f = run("mtu = 9000", "");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "switches.san");
        assert!(
            f[0].message
                .ends_with("; it is on the path to iSCSI target `array`"),
            "{}",
            f[0].message
        );
    }
}
