//! The host bandwidth model: per host and traffic class (live migration,
//! CSV / cluster, SMB storage, iSCSI, VM, backup), which adapters carry it
//! and what one stream, one live migration and the whole class can reach,
//! healthy and after losing one adapter, and how long draining the host
//! takes.
//!
//! The model returns facts (ids, numbers, enums: [`BoundReason`],
//! [`Assumption`]); `netlint_rules::phrases::bandwidth` words them.
//!
//! Every figure is the smallest of a list of [`Bound`]s, and every bound
//! says where its number comes from: the link speeds and member counts the
//! design gives, the teaming mode and load balancing, the transport, the SMB
//! bandwidth limit, and the labelled [`Assumption`]s below. Nothing is a
//! hidden constant. `docs/bandwidth-model.md` explains the model and its
//! formulas; the published figures come from the field notes cited on each
//! assumption.
//!
//! Direction: figures are for traffic *leaving* the host towards a peer of
//! the same cluster built like it (the direction of a drain). The sending
//! side is this host (degraded when an adapter is lost); the receiving side
//! is the peer, taken to be built alike and healthy.

use crate::fast_hash::Map as HashMap;
use crate::topology::{Topology, Via};
use netlint_model::{
    Bandwidth, Design, Host, HostId, LoadBalancing, NetworkId, NicIdx, Protocol, Rdma, Role, Sp,
    Span, Speed, TeamIdx, TeamMode, Transport, Uplink, VSwitchIdx,
};
use std::sync::Arc;

mod alike;
mod assumptions;
mod classes;
mod model;
mod ports;
mod speeds;
#[cfg(test)]
mod tests;
mod usage;

pub use assumptions::*;
pub use classes::*;
pub use model::*;
use ports::*;
pub use speeds::*;
pub use usage::*;
