//! Failure analysis: what each failure unit (a switch, a stack, one cable of
//! an inter-switch link, a NIC card, a NIC port or its cable) takes away,
//! measured against what the format's role table says must survive.
//!
//! The evaluation is built for scale (docs/failure-analysis.md):
//!
//! - the healthy forwarding is computed once; a host-local failure (NIC,
//!   card, host cable) changes only that host's attachments, so it is
//!   evaluated against the healthy VLAN components without touching the
//!   spanning tree;
//! - a switch or link failure changes the bridge graph: its spanning tree
//!   is solved again (or, where every bridge runs one spanning-tree
//!   configuration and every port carries every VLAN, the VLAN components
//!   are those of the surviving graph, which any spanning tree of it gives);
//!   only hosts cabled to the failed switch or attached to a part of the
//!   fabric that split are evaluated again;
//! - reachability is decided on "tokens": each way a network leaves a host
//!   (a NIC, a team, a vSwitch or vNIC) either reaches one VLAN component
//!   of the fabric or a direct cable, and two hosts reach each other when
//!   they share a token: the same rule as [`Forwarding::reach`], without
//!   walking paths. The healthy tokens of every host are computed once.

use crate::fast_hash::Map as HashMap;
use crate::l2::{
    all_pairs, components, Fabric, Failures, Forwarding, Reach, ScenarioComponents,
    ScenarioForwarding,
};
use crate::topology::{BridgeId, BridgeKind, NicEnd, Topology, Via};
use netlint_model::{
    Design, Element, HostId, LinkId, NetworkId, NicIdx, Protocol, Role, Severity, Span, Speed,
    SwitchId,
};
pub use pairs::PairPaths;
use std::collections::{BTreeMap, BTreeSet};

mod evaluate;
mod lm_path;
mod outcome;
mod pairs;
mod report;
mod requirements;
mod simulate;
mod targets;
#[cfg(test)]
mod tests;
mod units;

pub use evaluate::*;
pub use lm_path::*;
pub use outcome::*;
pub use report::*;
pub use requirements::*;
pub use simulate::*;
pub use units::*;
