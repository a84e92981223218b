//! NIC teaming rules (LBFO, vendor teams, SET).

use crate::Rule;
use netlint_model::{Host, VSwitch};
use std::collections::{BTreeMap, BTreeSet};

pub mod team_cross_switch_lag;
pub mod team_hyperv_port_cap;
pub mod team_iscsi;
pub mod team_lag_mismatch;
pub mod team_lbfo_vswitch;
pub mod team_member_identity;
pub mod team_member_limit;
pub mod team_rdma;
pub mod team_rx_single_member;
pub mod team_speed_mismatch;

pub static RULES: &[&Rule] = &[
    &team_speed_mismatch::RULE,
    &team_cross_switch_lag::RULE,
    &team_rdma::RULE,
    &team_lbfo_vswitch::RULE,
    &team_member_limit::RULE,
    &team_member_identity::RULE,
    &team_lag_mismatch::RULE,
    &team_hyperv_port_cap::RULE,
    &team_rx_single_member::RULE,
    &team_iscsi::RULE,
];

/// A Hyper-V Switch Embedded Teaming switch: two or more NIC uplinks on a
/// Windows host (on vSphere the same shape is an ordinary vSwitch).
pub(crate) fn is_hyperv_set(host: &Host, vs: &VSwitch) -> bool {
    vs.is_set() && host.os.value.is_windows()
}

/// The hosts that share each cause. A problem set on a profile's line is
/// one cause for every host using the profile: keyed by the span and the
/// facts, each host's finding can then carry one identical message naming
/// them all (the engine keeps one per span and message).
pub(crate) fn hosts_by_cause<K: Ord>(
    hits: impl IntoIterator<Item = (K, String)>,
) -> BTreeMap<K, Vec<String>> {
    let mut m: BTreeMap<K, (Vec<String>, BTreeSet<String>)> = BTreeMap::new();
    for (k, host) in hits {
        let (hosts, seen) = m.entry(k).or_default();
        if seen.insert(host.clone()) {
            hosts.push(host);
        }
    }
    m.into_iter().map(|(k, (hosts, _))| (k, hosts)).collect()
}
