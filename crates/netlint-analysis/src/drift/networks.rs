//! The networks' side of the comparison: a matched network's role as
//! built against the design's, where the as-built's evidence can tell the
//! two apart.

use super::{At, Cmp, Difference, Field, Two, Value};
use netlint_model::{ClusterUse, Network, Protocol, Role};

impl Cmp<'_> {
    pub(super) fn networks(&mut self) {
        let (d, b) = (self.d, self.b);
        for (&dn, &(bn, _)) in &self.m.networks.to_built {
            let (x, y) = (d.network(dn), b.network(bn));
            if role_fits(x, y) {
                continue;
            }
            let role =
                |n: &Network| Value::Role(n.role.value, n.protocol.as_ref().map(|p| p.value));
            self.out.push(Difference {
                at: At::Network(Two {
                    design: dn,
                    built: bn,
                }),
                field: Field::NetworkRole,
                value: Two {
                    design: role(x),
                    built: role(y),
                },
                span: Two {
                    design: Some(x.role.span),
                    built: Some(y.role.span),
                },
            });
        }
    }
}

/// Whether a network the as-built describes as `built` can be the network
/// the design describes as `design`. An imported role is only as precise
/// as its evidence: a Hyper-V cluster network of role Cluster is
/// `cluster` whether the design calls it `cluster`, `csv`,
/// `live-migration` or SMB `storage` (each is cluster traffic, SMB
/// included); RDMA makes SMB `storage` of a network the design may call
/// `cluster`, `csv` or `live-migration` (SMB Direct carries CSV redirection
/// and live migration too); a live-migration network may be any of those.
/// The role `unknown` on either side is no statement; a storage protocol
/// not stated fits any. What does not fit is what no faithful build can
/// give: a vmkernel port whose services turned from vMotion into vSAN
/// (`live-migration` against vSAN `storage`), a management network the
/// cluster keeps from clients (`management` against `cluster`), an iSCSI
/// network the cluster uses, SMB against iSCSI, guest (`vm`) against host
/// traffic. `management` as built (cluster role ClusterAndClient) fits a
/// design network whose `cluster_use` is `cluster-and-client`.
pub fn role_fits(design: &Network, built: &Network) -> bool {
    use Role::*;
    let dp = design.protocol.as_ref().map(|p| p.value);
    let bp = built.protocol.as_ref().map(|p| p.value);
    let smb = |p: Option<Protocol>| matches!(p, None | Some(Protocol::Smb));
    let cluster_traffic = |r: Role| matches!(r, Cluster | Csv | LiveMigration);
    match (design.role.value, built.role.value) {
        (Unknown, _) | (_, Unknown) => true,
        (Storage, Storage) => dp.is_none() || bp.is_none() || dp == bp,
        (x, y) if x == y => true,
        (x, y) if cluster_traffic(x) && cluster_traffic(y) => true,
        (Storage, y) if cluster_traffic(y) => smb(dp),
        (x, Storage) if cluster_traffic(x) => smb(bp),
        (_, Management) => design.cluster_use.value == ClusterUse::ClusterAndClient,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use netlint_model::{load, SourceFile};

    /// The network `n` of a design holding only it.
    fn net(role: &str, extra: &str) -> Network {
        let src = format!(
            "[design]\nname = \"t\"\nplatform = \"vsphere-8\"\n\n[networks.n]\nrole = \"{role}\"\nvlan = 30\n{extra}"
        );
        let l = load(&SourceFile::new("t.toml", src));
        l.design
            .unwrap_or_else(|| panic!("{:#?}", l.diagnostics))
            .networks
            .remove(0)
    }

    #[test]
    fn what_the_evidence_cannot_tell_apart_fits() {
        let smb = net("storage", "protocol = \"smb\"");
        for r in ["cluster", "csv", "live-migration"] {
            // Cluster traffic against cluster traffic, and SMB storage
            // against any of it, both ways.
            assert!(role_fits(&net(r, ""), &net("cluster", "")), "{r}");
            assert!(role_fits(&net("cluster", ""), &net(r, "")), "{r}");
            assert!(role_fits(&smb, &net(r, "")), "{r}");
            assert!(role_fits(&net(r, ""), &smb), "{r}");
        }
        // Unknown on either side is no statement.
        for r in ["management", "vm", "storage", "backup"] {
            assert!(role_fits(&net(r, ""), &net("unknown", "")), "{r}");
            assert!(role_fits(&net("unknown", ""), &net(r, "")), "{r}");
        }
        // A protocol one side does not state fits any.
        assert!(role_fits(
            &net("storage", ""),
            &net("storage", "protocol = \"iscsi\"")
        ));
        // Management as built fits a network the clients use.
        assert!(role_fits(
            &net("cluster", "cluster_use = \"cluster-and-client\""),
            &net("management", "")
        ));
    }

    #[test]
    fn what_no_faithful_build_gives_does_not_fit() {
        let vsan = net("storage", "protocol = \"vsan\"");
        let iscsi = net("storage", "protocol = \"iscsi\"");
        // vMotion turned into vSAN, and back.
        assert!(!role_fits(&net("live-migration", ""), &vsan));
        assert!(!role_fits(&vsan, &net("live-migration", "")));
        // A management network the cluster keeps from clients.
        assert!(!role_fits(&net("management", ""), &net("cluster", "")));
        // Management as built for a cluster-only network.
        assert!(!role_fits(&net("cluster", ""), &net("management", "")));
        // An iSCSI network the cluster uses; SMB against iSCSI.
        assert!(!role_fits(&iscsi, &net("cluster", "")));
        assert!(!role_fits(&net("storage", "protocol = \"smb\""), &iscsi));
        // Guest against host traffic.
        assert!(!role_fits(&net("vm", ""), &net("management", "")));
        assert!(!role_fits(&net("vm", ""), &net("live-migration", "")));
    }
}
