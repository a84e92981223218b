//! Storage targets (`[storage.NAME]`): iSCSI arrays, SMB / SOFS file servers
//! and NFS filers, with their ports cabled like host NICs, and the hosts
//! that use them.

use crate::design::{Design, HostId, NetworkId, SwitchId};
use crate::element::Element;
use crate::span::{Sp, Span};
use crate::units::{Mtu, Speed};

str_enum!(
    /// What a storage target serves.
    StorageKind {
        Iscsi = "iscsi",
        Smb = "smb",
        Nfs = "nfs",
    }
);

impl StorageKind {
    /// "iSCSI target", "SMB file server", "NFS filer".
    pub fn words(self) -> &'static str {
        match self {
            StorageKind::Iscsi => "iSCSI target",
            StorageKind::Smb => "SMB file server",
            StorageKind::Nfs => "NFS filer",
        }
    }
}

/// Index into `Design::storage`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TargetId(pub usize);

/// Index into `StorageTarget::ports`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TargetPortIdx(pub usize);

/// Who uses a target: every host of a cluster, or one host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StorageUser {
    /// The hosts whose `cluster` is this name.
    Cluster(String),
    Host(HostId),
}

#[derive(Clone, Debug)]
pub struct StorageTarget {
    pub name: String,
    /// The table's header.
    pub span: Span,
    pub kind: Sp<StorageKind>,
    pub model: Option<Sp<String>>,
    /// `used_by`: clusters and hosts; None = every host of the design.
    pub used_by: Option<Sp<Vec<Sp<StorageUser>>>>,
    pub ports: Vec<TargetPort>,
}

/// One network port of a target (a controller's NIC), written like a host
/// NIC.
#[derive(Clone, Debug)]
pub struct TargetPort {
    pub name: String,
    pub span: Span,
    /// Controller or card; default the port's own name.
    pub card: Sp<String>,
    pub model: Option<Sp<String>>,
    pub speed: Sp<Speed>,
    /// The switch it is cabled to; None = not cabled.
    pub switch: Option<Sp<SwitchId>>,
    pub port: Option<Sp<String>>,
    /// Default 1500.
    pub mtu: Sp<Mtu>,
    /// Networks whose target address sits on this port.
    pub networks: Vec<Sp<NetworkId>>,
}

impl StorageTarget {
    pub fn element(&self) -> Element {
        Element::Storage(self.name.clone(), None)
    }
    pub fn port_element(&self, p: TargetPortIdx) -> Element {
        Element::Storage(self.name.clone(), Some(self.ports[p.0].name.clone()))
    }
    pub fn port(&self, p: TargetPortIdx) -> &TargetPort {
        &self.ports[p.0]
    }
    /// The networks of its ports, in port and list order, once each.
    pub fn networks(&self) -> Vec<NetworkId> {
        let mut out: Vec<NetworkId> = Vec::new();
        for n in self.ports.iter().flat_map(|p| &p.networks) {
            if !out.contains(&n.value) {
                out.push(n.value);
            }
        }
        out
    }
    /// Ports with an address on `net`.
    pub fn ports_on(&self, net: NetworkId) -> impl Iterator<Item = TargetPortIdx> + '_ {
        self.ports
            .iter()
            .enumerate()
            .filter(move |(_, p)| p.networks.iter().any(|n| n.value == net))
            .map(|(i, _)| TargetPortIdx(i))
    }
    /// Whether `host` uses the target (by cluster, by name, or because no
    /// `used_by` is written).
    pub fn used_by(&self, design: &Design, host: HostId) -> bool {
        match &self.used_by {
            None => true,
            Some(list) => list.value.iter().any(|u| match &u.value {
                StorageUser::Host(h) => *h == host,
                StorageUser::Cluster(c) => design.host(host).cluster_name() == c,
            }),
        }
    }
    /// The hosts that use the target, in design order.
    pub fn users(&self, design: &Design) -> Vec<HostId> {
        design
            .host_ids()
            .filter(|h| self.used_by(design, *h))
            .collect()
    }
    /// The line that makes `host` a user (its `used_by` item), or the
    /// target's header when every host uses it.
    pub fn used_by_span(&self, design: &Design, host: HostId) -> Span {
        match &self.used_by {
            None => self.span,
            Some(list) => list
                .value
                .iter()
                .find(|u| match &u.value {
                    StorageUser::Host(h) => *h == host,
                    StorageUser::Cluster(c) => design.host(host).cluster_name() == c,
                })
                .map(|u| u.span)
                .unwrap_or(list.span),
        }
    }
}

impl Design {
    pub fn target(&self, id: TargetId) -> &StorageTarget {
        &self.storage[id.0]
    }
    pub fn target_ids(&self) -> impl Iterator<Item = TargetId> {
        (0..self.storage.len()).map(TargetId)
    }
}

#[cfg(test)]
mod tests {
    use crate::Element;

    #[test]
    fn target_paths_read_back_and_a_target_covers_its_ports() {
        let t = Element::Storage("array1".into(), None);
        let p = Element::Storage("array1".into(), Some("A0".into()));
        assert_eq!(t.path(), "storage.array1");
        assert_eq!(p.path(), "storage.array1.ports.A0");
        assert_eq!(Element::from_path(&t.path()), Some(t.clone()));
        assert_eq!(Element::from_path(&p.path()), Some(p.clone()));
        assert!(t.covers(&p));
        assert!(!p.covers(&t));
        assert!(!t.covers(&Element::Storage("array10".into(), None)));
    }
}
