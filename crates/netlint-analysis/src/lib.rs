//! netlint's analyses over a validated design: the topology graph, spanning
//! tree per instance, VLAN forwarding, reachability, failure scenarios and
//! the host bandwidth model. Each is computed once and shared by the rules.

pub mod bandwidth;
pub mod failure;
pub mod l2;
pub mod stp;
pub mod topology;
pub mod union_find;

pub use l2::{
    all_pairs, Break, Fabric, Failures, Forwarding, MtuAt, NotCarried, PortState, Reach, VlanView,
};
pub use topology::{Bridge, BridgeId, BridgeKind, Carrier, NicEnd, Port, Topology, Via};
pub use union_find::UnionFind;
