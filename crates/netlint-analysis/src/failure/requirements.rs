//! Requirements: what the role table says must survive a failure.

use super::*;

/// Something the role table says must survive a single failure (or, in
/// `simulate`, any network of the design).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Requirement {
    /// One network on its own (`vm`: error, `management`: warning; other
    /// roles only in `simulate`, at info).
    Network(NetworkId),
    /// The storage networks of one protocol: any of them is enough.
    Storage(Option<Protocol>),
    /// Every network whose `cluster_use` is not `none`.
    Cluster,
    /// The networks of each host's `live_migration.networks` (both hosts'
    /// lists): `lm-no-fallback`.
    LiveMigration,
    /// A storage target, from each host that uses it: any of its networks
    /// is enough (MPIO, SMB multichannel).
    Target(netlint_model::TargetId),
}

impl Requirement {
    pub fn severity(&self, design: &Design) -> Severity {
        match self {
            Requirement::Network(n) => match design.network(*n).role.value {
                Role::Vm => Severity::Error,
                Role::Management => Severity::Warning,
                _ => Severity::Info,
            },
            Requirement::Storage(_) | Requirement::Target(_) => Severity::Error,
            Requirement::Cluster | Requirement::LiveMigration => Severity::Warning,
        }
    }

    /// Whether the role table asks for this to survive any single failure.
    pub fn required(&self, design: &Design) -> bool {
        match self {
            Requirement::Network(n) => {
                matches!(design.network(*n).role.value, Role::Vm | Role::Management)
            }
            _ => true,
        }
    }

    /// The design's networks this requirement is about (for live
    /// migration: every network some host lists).
    pub fn networks(&self, design: &Design) -> Vec<NetworkId> {
        let ids = (0..design.networks.len()).map(NetworkId);
        match self {
            Requirement::Network(n) => vec![*n],
            Requirement::Storage(p) => ids
                .filter(|n| {
                    let net = design.network(*n);
                    net.role.value == Role::Storage && net.protocol.as_ref().map(|x| x.value) == *p
                })
                .collect(),
            Requirement::Cluster => ids
                .filter(|n| design.network(*n).in_cluster_group())
                .collect(),
            Requirement::LiveMigration => design.live_migration_networks().to_vec(),
            Requirement::Target(t) => design.target(*t).networks(),
        }
    }
}

/// The requirements of a design: the role table's (`everything = false`),
/// or also every other network on its own (for `simulate`).
pub fn requirements(design: &Design, everything: bool) -> Vec<Requirement> {
    let mut out = Vec::new();
    for (i, n) in design.networks.iter().enumerate() {
        if everything || matches!(n.role.value, Role::Vm | Role::Management) {
            out.push(Requirement::Network(NetworkId(i)));
        }
    }
    let mut protos: Vec<Option<Protocol>> = Vec::new();
    for n in design
        .networks
        .iter()
        .filter(|n| n.role.value == Role::Storage)
    {
        let p = n.protocol.as_ref().map(|p| p.value);
        if !protos.contains(&p) {
            protos.push(p);
        }
    }
    out.extend(protos.into_iter().map(Requirement::Storage));
    if design.networks.iter().any(|n| n.in_cluster_group()) {
        out.push(Requirement::Cluster);
    }
    if design.hosts.iter().any(|h| h.live_migration.is_some()) {
        out.push(Requirement::LiveMigration);
    }
    out.extend(
        design
            .target_ids()
            .filter(|t| !design.target(*t).networks().is_empty())
            .map(Requirement::Target),
    );
    out
}
