//! Host traffic rules: live migration, SMB, RDMA, DCB, QoS and host symmetry.

use crate::rules::{merge_alike, merge_worded};
use crate::Rule;
use netlint_model::{
    Diagnostic, Element, Host, HostWords, NetworkId, NicIdx, Span, TeamIdx, Uplink, VSwitchIdx,
};

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
pub mod speed_unknown;

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
    &speed_unknown::RULE,
];

/// Emits the findings of hosts, each about one host's element with a
/// message that does not name the host, as one finding per cause (primary
/// span and message) with a subject per element: hosts built from one
/// profile share the profile's line and one finding. The engine writes the
/// list of hosts in front of the message ("hosts `hv1`, `hv2`: ...") once
/// `allow` has taken away the hosts it covers.
pub(crate) fn emit_per_host(out: &mut Vec<Diagnostic>, items: Vec<Diagnostic>) {
    for mut d in merge_alike(items) {
        d.host_words = Some(HostWords::leading(&d.message));
        out.push(d);
    }
}

/// [`emit_per_host`] for a rule that words each distinct finding once:
/// `words` the distinct findings (their subjects are not read), `items`
/// every finding in order as its words (an index into `words`) and its
/// subject. The same findings as `emit_per_host` of every item's own
/// finding (see [`merge_worded`]).
pub(crate) fn emit_worded(
    out: &mut Vec<Diagnostic>,
    words: Vec<Diagnostic>,
    items: Vec<(usize, Element)>,
) {
    for mut d in merge_worded(words, items) {
        d.host_words = Some(HostWords::leading(&d.message));
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
}
