//! vSphere-specific rules.

use crate::Rule;

mod iscsi_targets;
pub mod vsphere_ip_hash_lag;
pub mod vsphere_iscsi_port_binding;
pub mod vsphere_multi_nic_vmotion_flooding;

pub static RULES: &[&Rule] = &[
    &vsphere_ip_hash_lag::RULE,
    &vsphere_iscsi_port_binding::RULE,
    &vsphere_multi_nic_vmotion_flooding::RULE,
];
