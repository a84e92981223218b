//! Host traffic rules: live migration, SMB, RDMA, DCB, QoS and host symmetry.

use crate::Rule;
use netlint_model::{Diagnostic, Host, NetworkId, NicIdx, Span, TeamIdx, Uplink, VSwitchIdx};
use std::collections::{BTreeMap, BTreeSet};

pub mod cluster_network_overlap;
pub mod dcb_cluster_class;
pub mod dcb_priority_mismatch;
pub mod dcbx_willing;
pub mod host_asymmetry;
pub(crate) mod host_ports;
pub mod lm_compression_multichannel;
pub mod lm_drain_time;
pub mod lm_shares_vm_network;
pub mod power_profile;
pub mod qos_weight_sum;
pub mod rdma_mismatch;
pub mod rdma_untagged;
pub mod rdma_without_dcb;
pub mod smb_bandwidth_cap_degraded;
pub mod smb_bandwidth_cap_missing;

pub static RULES: &[&Rule] = &[
    &rdma_untagged::RULE,
    &dcbx_willing::RULE,
    &cluster_network_overlap::RULE,
    &host_asymmetry::RULE,
    &qos_weight_sum::RULE,
    &power_profile::RULE,
    &smb_bandwidth_cap_missing::RULE,
    &smb_bandwidth_cap_degraded::RULE,
    &rdma_without_dcb::RULE,
    &dcb_priority_mismatch::RULE,
    &dcb_cluster_class::RULE,
    &rdma_mismatch::RULE,
    &lm_compression_multichannel::RULE,
    &lm_shares_vm_network::RULE,
    &lm_drain_time::RULE,
];

/// A finding about one host, before it is worded for every host that
/// shares it.
pub(crate) struct HostFinding {
    pub host: String,
    /// The message without the host: it is prefixed with the hosts.
    pub diagnostic: Diagnostic,
}

/// Emits one finding per host, worded once for every host whose finding has
/// the same primary span and message ("hosts `hv1`, `hv2`: ..."). Hosts
/// built from one profile thus get identical messages at the profile's line,
/// which the engine shows once, while each host keeps its own element so
/// that `allow` on a host still works.
pub(crate) use super::host_list;

pub(crate) fn emit_per_host(out: &mut Vec<Diagnostic>, items: Vec<HostFinding>) {
    // Each phrase is built once per cause, and long host lists are cut
    // short, so thousands of hosts built alike stay linear in time and size.
    type Cause = (Option<Span>, String);
    let mut hosts: BTreeMap<Cause, (Vec<String>, BTreeSet<String>)> = BTreeMap::new();
    for f in &items {
        let key = (
            f.diagnostic.primary.as_ref().map(|l| l.span),
            f.diagnostic.message.clone(),
        );
        let (list, seen) = hosts.entry(key).or_default();
        if seen.insert(f.host.clone()) {
            list.push(f.host.clone());
        }
    }
    let phrases: BTreeMap<Cause, String> = hosts
        .into_iter()
        .map(|(k, (list, _))| (k, host_list(&list)))
        .collect();
    for f in items {
        let key = (
            f.diagnostic.primary.as_ref().map(|l| l.span),
            f.diagnostic.message.clone(),
        );
        let mut d = f.diagnostic;
        d.message = format!("{}: {}", phrases[&key], d.message);
        out.push(d);
    }
}

/// How a host's network reaches the host: the interface it sits on (the
/// topology's own notion).
pub(crate) use netlint_analysis::Via;

/// One place a host carries a network, with the physical NICs under it.
#[derive(Clone, Debug)]
pub(crate) struct Carrier {
    pub via: Via,
    /// The line that puts the network there (the name in a `networks`
    /// list, or the vNIC's `network`).
    pub span: Span,
    pub nics: Vec<NicIdx>,
}

impl Carrier {
    /// The dotted element path of the interface.
    pub fn element(&self, host: &Host) -> String {
        host_ports::via_element(host, self.via)
    }
}

/// The physical NICs under a virtual switch, in uplink order.
pub(crate) fn vswitch_nics(host: &Host, vs: VSwitchIdx) -> Vec<NicIdx> {
    host.vswitches[vs.0]
        .uplinks
        .iter()
        .flat_map(|u| host.uplink_nics(u.value))
        .collect()
}

/// Every place `host` carries `net`, in the order NICs, teams, virtual
/// switches (guest networks, then vNICs) appear in the host.
pub(crate) fn carriers(host: &Host, net: NetworkId) -> Vec<Carrier> {
    let mut out = Vec::new();
    for (i, nic) in host.nics.iter().enumerate() {
        for n in nic.networks.iter().filter(|n| n.value == net) {
            out.push(Carrier {
                via: Via::Nic(NicIdx(i)),
                span: n.span,
                nics: vec![NicIdx(i)],
            });
        }
    }
    for (i, team) in host.teams.iter().enumerate() {
        for n in team.networks.iter().filter(|n| n.value == net) {
            out.push(Carrier {
                via: Via::Team(TeamIdx(i)),
                span: n.span,
                nics: host.uplink_nics(Uplink::Team(TeamIdx(i))),
            });
        }
    }
    for (i, vs) in host.vswitches.iter().enumerate() {
        let vsi = VSwitchIdx(i);
        for n in vs.networks.iter().filter(|n| n.value == net) {
            out.push(Carrier {
                via: Via::Guest(vsi),
                span: n.span,
                nics: vswitch_nics(host, vsi),
            });
        }
        for (j, vnic) in vs.vnics.iter().enumerate() {
            if vnic.network.value == net {
                out.push(Carrier {
                    via: Via::VNic(vsi, j),
                    span: vnic.network.span,
                    nics: vswitch_nics(host, vsi),
                });
            }
        }
    }
    out
}

/// The value most hosts have; a tie goes to the value of the host that
/// comes first in the file.
pub(crate) fn majority<K: PartialEq + Clone>(values: &[K]) -> Option<K> {
    let mut counts: Vec<(&K, usize)> = Vec::new();
    for v in values {
        match counts.iter_mut().find(|(k, _)| *k == v) {
            Some((_, c)) => *c += 1,
            None => counts.push((v, 1)),
        }
    }
    let best = counts.iter().map(|(_, c)| *c).max()?;
    counts
        .into_iter()
        .find(|(_, c)| *c == best)
        .map(|(k, _)| k.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn majority_prefers_the_most_common_then_the_first() {
        assert_eq!(majority(&[2, 3, 3]), Some(3));
        assert_eq!(majority(&[2, 3]), Some(2));
        assert_eq!(majority::<u8>(&[]), None);
    }

    #[test]
    fn host_lists_read_naturally() {
        assert_eq!(host_list(&["a"]), "host `a`");
        assert_eq!(host_list(&["a", "b"]), "hosts `a`, `b`");
    }
}
