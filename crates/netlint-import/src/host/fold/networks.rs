//! The `[networks]` the Hyper-V hosts' interfaces are on: the evidence
//! each interface gives ([`Evidence`]), and the network written from it
//! (role, protocol, VLAN, subnet, MTU), with a note for what is inferred
//! or differs between hosts.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::design::toml::{key, string, Prov};
use crate::design::Mapped;

use super::super::emit::{line_kv, line_mapped, Blank};
use super::super::facts::*;
use super::super::hyperv::AtcVnic;
use super::{HostNote, NoteKind};

/// What the interfaces of one network tell about it. A fact an
/// interface's collection lacks stays unknown and casts no vote: an
/// unknown VLAN is not untagged, an unknown MTU not 1500, an unknown RDMA
/// not off.
#[derive(Default)]
pub(super) struct Evidence {
    pub(super) cluster_role: Option<ClusterRole>,
    pub(super) lm: bool,
    /// `Some(true)`: RDMA on some interface; `Some(false)`: known off on
    /// every interface that states it; `None`: no interface states it.
    pub(super) rdma: Option<bool>,
    pub(super) subnet: Option<String>,
    /// The VLANs interfaces state, each with where (its comment and the
    /// line, for the source map).
    pub(super) vlans: Vec<(u16, Prov)>,
    /// Interfaces whose VLAN the collection does not state: where.
    pub(super) unknown_vlans: Vec<String>,
    pub(super) mtus: Vec<u32>,
    pub(super) first: Option<(String, u32)>,
    /// The Network ATC intent of an adapter on it.
    pub(super) atc: Option<Atc>,
}

impl Evidence {
    pub(super) fn rdma(&mut self, r: Option<bool>) {
        self.rdma = match (self.rdma, r) {
            (Some(true), _) | (_, Some(true)) => Some(true),
            (Some(false), _) | (_, Some(false)) => Some(false),
            (None, None) => None,
        };
    }

    pub(super) fn vlan(&mut self, v: Option<(u16, Prov)>, at: String) {
        match v {
            Some(v) => self.vlans.push(v),
            None => self.unknown_vlans.push(at),
        }
    }
}

/// What Network ATC says a network carries: the intent of the adapter on
/// it and what ATC made that adapter for.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Atc {
    pub(super) kind: AtcVnic,
    pub(super) intent: String,
    /// The intent is in the collection (`Get-NetIntent`) with that type;
    /// `false`: known only by the names ATC gives its adapters.
    pub(super) stated: bool,
}

/// A network's role, from evidence only, strongest first: a Network ATC
/// intent; the cluster network role ClusterAndClient (the network clients
/// and management reach the cluster on); RDMA on its interfaces (SMB
/// Direct); a live-migration network; the cluster network role Cluster.
/// Nothing else tells a role: never the name (an intent named
/// `managementcompute` carries storage vNICs too), and without evidence
/// the role is `unknown`, which the format checks only for what the
/// switches decide. Returns (role, protocol, why, inferred).
fn role_of(e: &Evidence) -> (&'static str, Option<&'static str>, String, bool) {
    if let Some(a) = &e.atc {
        let (role, proto, what) = match a.kind {
            AtcVnic::Storage => ("storage", Some("smb"), "storage"),
            AtcVnic::Management => ("management", None, "management"),
        };
        return if a.stated {
            (
                role,
                proto,
                format!("Network ATC intent {} ({what})", a.intent),
                false,
            )
        } else {
            (
                role,
                proto,
                format!(
                    "Network ATC names its {what} adapters so (intent {}, not collected)",
                    a.intent
                ),
                true,
            )
        };
    }
    if e.cluster_role == Some(ClusterRole::ClusterAndClient) {
        return (
            "management",
            None,
            "cluster network role ClusterAndClient".into(),
            false,
        );
    }
    if e.rdma == Some(true) {
        return (
            "storage",
            Some("smb"),
            "RDMA on its interfaces: SMB Direct".into(),
            true,
        );
    }
    if e.lm {
        return (
            "live-migration",
            None,
            "a live-migration network (Get-VMMigrationNetwork)".into(),
            false,
        );
    }
    if e.cluster_role == Some(ClusterRole::Cluster) {
        return (
            "cluster",
            None,
            "cluster network role Cluster".into(),
            false,
        );
    }
    (
        "unknown",
        None,
        "the collection gives no evidence of what it carries (no Network ATC intent, cluster network role, RDMA or live-migration setting): set its role".into(),
        true,
    )
}

pub(super) fn write_networks(
    out: &mut String,
    map: &mut Vec<Mapped>,
    tables: &mut crate::design::Tables,
    nets: &BTreeMap<String, Evidence>,
    notes: &mut Vec<HostNote>,
) {
    for (name, e) in nets {
        let (role, proto, why, inferred) = role_of(e);
        let (file, line) = e.first.clone().unwrap_or_default();
        if inferred {
            notes.push(HostNote {
                file: file.clone(),
                line,
                kind: NoteKind::Inferred,
                text: format!("network {name}: role `{role}` {why}"),
            });
        }
        // The first part to write networks: every name is free.
        let claimed = tables.claim("networks", name);
        debug_assert_eq!(&claimed, name);
        let _ = writeln!(
            out,
            "\n{}",
            tables.header(&format!("networks.{}", key(name)))
        );
        // A role no property states says so beside it, not only on
        // standard error.
        let said = if inferred {
            format!("inferred: {why}")
        } else {
            why
        };
        line_kv(out, "role", &string(role), &said);
        if let Some(p) = proto {
            line_kv(out, "protocol", &string(p), "with the role");
        }
        // VLAN: the one most interfaces that state one use; an interface
        // whose VLAN is not collected casts no vote.
        let unknown = match e.unknown_vlans.len() {
            0 => String::new(),
            n => format!(", {n} more not collected"),
        };
        if !e.unknown_vlans.is_empty() {
            let then = if e.vlans.is_empty() {
                "`vlan` is not written (no interface states one)"
            } else {
                "they do not count toward its VLAN"
            };
            notes.push(HostNote {
                file: file.clone(),
                line,
                kind: NoteKind::Unknown,
                text: format!(
                    "network {name}: the VLAN of {} is not collected: {then}",
                    e.unknown_vlans.join(", ")
                ),
            });
        }
        let mut count: BTreeMap<u16, Vec<&Prov>> = BTreeMap::new();
        for (v, at) in &e.vlans {
            count.entry(*v).or_default().push(at);
        }
        if let Some((vlan, ats)) = count
            .iter()
            .max_by_key(|(v, a)| (a.len(), std::cmp::Reverse(**v)))
        {
            if *vlan > 0 && *vlan <= 4094 {
                // Mapped to the first interface that states it, as its
                // comment names it.
                line_mapped(
                    out,
                    map,
                    &key("vlan"),
                    &vlan.to_string(),
                    &format!(
                        "{} ({} of {} interfaces{unknown})",
                        ats[0],
                        ats.len(),
                        e.vlans.len()
                    ),
                    &ats[0].srcs,
                    Blank::Omit,
                );
            }
            if count.len() > 1 {
                let others: Vec<String> = count
                    .iter()
                    .filter(|(v, _)| *v != vlan)
                    .map(|(v, a)| {
                        let at: Vec<&str> = a.iter().map(|p| p.text.as_str()).collect();
                        format!("VLAN {v} at {}", at.join(", "))
                    })
                    .collect();
                notes.push(HostNote {
                    file: file.clone(),
                    line,
                    kind: NoteKind::Unknown,
                    text: format!("network {name}: hosts put it in different VLANs ({}); a network has one VLAN in the design, {} is written", others.join("; "), vlan),
                });
            }
        }
        if let Some(s) = &e.subnet {
            line_kv(
                out,
                "subnet",
                &string(s),
                "Get-ClusterNetwork Address / AddressMask",
            );
        }
        let mut mtus: BTreeMap<u32, usize> = BTreeMap::new();
        for m in &e.mtus {
            *mtus.entry(*m).or_default() += 1;
        }
        if let Some((m, n)) = mtus.iter().max_by_key(|(m, n)| (**n, **m)) {
            if (576..=9216).contains(m) {
                line_kv(
                    out,
                    "mtu",
                    &m.to_string(),
                    &format!("as built on {n} of {} interfaces", e.mtus.len()),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_role_comes_from_evidence_never_from_the_name() {
        // No evidence: unknown, whatever the name says.
        let e = Evidence::default();
        let (role, proto, why, inferred) = role_of(&e);
        assert_eq!((role, proto), ("unknown", None));
        assert!(inferred && why.contains("no evidence"), "{why}");
        let lm = Evidence {
            lm: true,
            ..Default::default()
        };
        assert_eq!(role_of(&lm).0, "live-migration");
        assert!(!role_of(&lm).3);
        // A Network ATC storage adapter is storage even when the cluster
        // network is ClusterAndClient or the intent's name says
        // management.
        let atc = Evidence {
            cluster_role: Some(ClusterRole::ClusterAndClient),
            atc: Some(Atc {
                kind: AtcVnic::Storage,
                intent: "managementcompute".into(),
                stated: true,
            }),
            ..Default::default()
        };
        let (role, proto, why, inferred) = role_of(&atc);
        assert_eq!((role, proto, inferred), ("storage", Some("smb"), false));
        assert!(why.contains("managementcompute"), "{why}");
        // Known by ATC's naming only: inferred.
        let named = Evidence {
            atc: Some(Atc {
                kind: AtcVnic::Management,
                intent: "mgmt".into(),
                stated: false,
            }),
            ..Default::default()
        };
        assert_eq!(role_of(&named).0, "management");
        assert!(role_of(&named).3);
        // RDMA: storage; cluster role Cluster alone: cluster.
        let rdma = Evidence {
            rdma: Some(true),
            cluster_role: Some(ClusterRole::Cluster),
            ..Default::default()
        };
        assert_eq!(role_of(&rdma).0, "storage");
        let cl = Evidence {
            cluster_role: Some(ClusterRole::Cluster),
            ..Default::default()
        };
        assert_eq!(role_of(&cl).0, "cluster");
    }
}
