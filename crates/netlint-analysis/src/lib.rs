//! netlint's analyses over a validated design: the topology graph, spanning
//! tree per instance, VLAN forwarding, reachability, failure scenarios and
//! the host bandwidth model. Each is computed once and shared by the rules.
//!
//! Invariant: **the analysis returns facts, never prose.** Its results are
//! ids, numbers and enums (a [`failure::CarrierLoss`], a
//! [`stp::PortExplanation`], a [`failure::TreeEvent`]); the rules and the
//! views write the words, in `netlint_rules::phrases`, so one fact reads
//! the same everywhere and nothing parses a message. The test
//! `tests/facts_not_prose.rs` holds the crate to it (no string literal
//! with two space-separated words outside tests).

pub mod bandwidth;
pub mod drift;
pub mod failure;
use netlint_model::fast_hash;
pub mod l2;
pub mod speeds;
pub mod stp;
pub mod topology;
pub mod union_find;

pub use l2::{
    all_pairs, Break, ClassPair, Fabric, Failures, Forwarding, GroupRef, MtuAt, NotCarried,
    PortState, Reach, ReachKey, Reachability, TargetBreak, TargetReach, VlanView, Which,
};
pub use topology::{Bridge, BridgeId, BridgeKind, Carrier, NicEnd, Port, Topology, Via};
pub use union_find::UnionFind;
