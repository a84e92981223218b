//! Host traffic rules: live migration, SMB, RDMA, DCB, QoS and host symmetry.

use crate::Rule;

pub static RULES: &[&Rule] = &[];
