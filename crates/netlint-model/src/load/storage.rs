//! `[storage.NAME]`: storage targets and their ports. A port is read like
//! a host NIC (`card`, `speed`, `switch`, `port`, `mtu`, `networks`), so a
//! designer learns nothing new.

use super::{defined_list, element_span, entries, Builder};
use crate::design::{Host, HostId};
use crate::reader::{did_you_mean, Table, Value};
use crate::span::{Sp, Span};
use crate::storage::{StorageKind, StorageTarget, StorageUser, TargetPort};
use crate::units::{Mtu, Speed};

const STORAGE_KEYS: &[&str] = &["kind", "model", "used_by", "ports", "allow"];
const PORT_KEYS: &[&str] = &[
    "card", "model", "speed", "switch", "port", "mtu", "networks", "allow",
];

impl Builder {
    /// Every `[storage.NAME]` table, with `used_by` resolved against the
    /// hosts and their clusters.
    pub(super) fn storage(&mut self, root: &Table<'_>, hosts: &[Host]) -> Vec<StorageTarget> {
        let mut out = Vec::new();
        let Some((_, t)) = self.r.table(root, "storage") else {
            return out;
        };
        for (name, key, v) in entries(t) {
            if let Some(target) = self.target(name, key, v, hosts) {
                out.push(target);
            }
        }
        out
    }

    fn target(
        &mut self,
        name: String,
        key: Span,
        v: &Value<'_>,
        hosts: &[Host],
    ) -> Option<StorageTarget> {
        let what = format!("storage target `{name}`");
        let (_, t) = self.r.as_table(&format!("storage.{name}"), v)?;
        let span = element_span(key, v);
        self.r.check_keys(t, STORAGE_KEYS, &what);
        let kind = self.r.enum_::<StorageKind>(t, "kind");
        self.r.require(t, "kind", span, &what, "\"iscsi\"");
        let model = self.r.str(t, "model");
        let used_by = self.used_by(t, hosts);
        let element = crate::element::Element::Storage(name.clone(), None);
        self.allow(t, element);
        let mut ports = Vec::new();
        self.r.require(
            t,
            "ports",
            span,
            &what,
            "{ A0 = { speed = \"25G\", switch = \"tor-a\", networks = [\"storage-a\"] } }",
        );
        if let Some((_, pt)) = self.r.table(t, "ports") {
            for (pname, pkey, pv) in entries(pt) {
                if let Some(p) = self.target_port(&name, pname, pkey, pv) {
                    ports.push(p);
                }
            }
        }
        Some(StorageTarget {
            name,
            span,
            kind: kind?,
            model,
            used_by,
            ports,
        })
    }

    /// `used_by = ["cluster-a", "hv05"]`: cluster names (a host's
    /// `cluster`) or host names.
    fn used_by(&mut self, t: &Table<'_>, hosts: &[Host]) -> Option<Sp<Vec<Sp<StorageUser>>>> {
        let (span, names) = self.r.str_list(t, "used_by")?;
        let mut users = Vec::new();
        for n in names {
            if hosts
                .iter()
                .any(|h| h.cluster_name() == n.value && h.cluster.is_some())
            {
                users.push(Sp::new(StorageUser::Cluster(n.value.clone()), n.span));
            } else if let Some(i) = hosts.iter().position(|h| h.name == n.value) {
                users.push(Sp::new(StorageUser::Host(HostId(i)), n.span));
            } else {
                let mut clusters: Vec<&str> = hosts
                    .iter()
                    .filter_map(|h| h.cluster.as_ref().map(|c| c.value.as_str()))
                    .collect();
                clusters.sort();
                clusters.dedup();
                let candidates = clusters
                    .iter()
                    .copied()
                    .chain(hosts.iter().map(|h| h.name.as_str()));
                let hint = did_you_mean(&n.value, candidates);
                let help = if clusters.is_empty() {
                    defined_list("hosts", hosts.iter().map(|h| h.name.as_str()))
                } else {
                    format!(
                        "{}; {}",
                        defined_list("clusters", clusters.iter().copied()),
                        defined_list("hosts", hosts.iter().map(|h| h.name.as_str()))
                    )
                };
                self.r.error_help(
                    n.span,
                    format!("`used_by` names no cluster or host `{}`{hint}", n.value),
                    help,
                );
            }
        }
        Some(Sp::new(users, span))
    }

    fn target_port(
        &mut self,
        target: &str,
        name: String,
        key: Span,
        v: &Value<'_>,
    ) -> Option<TargetPort> {
        let what = format!("port `{name}` of storage target `{target}`");
        let (_, t) = self.r.as_table(&name, v)?;
        let span = element_span(key, v);
        self.r.check_keys(t, PORT_KEYS, &what);
        let card = self.r.str(t, "card").unwrap_or(Sp::new(name.clone(), span));
        let model = self.r.str(t, "model");
        let speed = self.r.speed(t, "speed");
        self.r.require(t, "speed", span, &what, "\"25G\"");
        let switch = self.r.str(t, "switch").and_then(|s| self.switch_ref(&s));
        let port = self.r.str(t, "port");
        let mtu = self
            .mtu(t, None, &what)
            .unwrap_or(Sp::new(Mtu::STANDARD, span));
        let networks = self.network_list(t, "networks");
        self.r
            .require(t, "networks", span, &what, "[\"storage-a\"]");
        self.allow(
            t,
            crate::element::Element::Storage(target.to_string(), Some(name.clone())),
        );
        Some(TargetPort {
            name,
            span,
            card,
            model,
            speed: speed.unwrap_or(Sp::new(Speed::MIN, span)),
            switch,
            port,
            mtu,
            networks,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::{load, SourceFile, StorageUser};

    const BASE: &str = r#"
[design]
name = "t"
[networks.iscsi-a]
role = "storage"
protocol = "iscsi"
vlan = 60
[switches.tor-a]
[hosts.hv1]
cluster = "c1"
nics.S = { speed = "25G", switch = "tor-a", networks = ["iscsi-a"] }
[hosts.hv2]
nics.S = { speed = "25G", switch = "tor-a", networks = ["iscsi-a"] }
"#;

    fn messages(extra: &str) -> Vec<String> {
        let loaded = load(&SourceFile::new("t.toml", format!("{BASE}{extra}")));
        loaded
            .diagnostics
            .iter()
            .map(|d| d.message.clone())
            .collect()
    }

    #[test]
    fn a_target_reads_like_a_host_nic_and_resolves_clusters_and_hosts() {
        let text = format!(
            "{BASE}[storage.a1]\nkind = \"iscsi\"\nused_by = [\"c1\", \"hv2\"]\n[storage.a1.ports.A0]\ncard = \"ctrl-a\"\nspeed = \"25G\"\nswitch = \"tor-a\"\nframe_size = 9018\nmtu = 9000\nnetworks = [\"iscsi-a\"]\n"
        );
        let loaded = load(&SourceFile::new("t.toml", text.clone()));
        // `frame_size` is a switch's form, not a port's.
        assert_eq!(loaded.diagnostics.len(), 1, "{:#?}", loaded.diagnostics);
        assert!(loaded.diagnostics[0].message.contains("frame_size"));
        let loaded = load(&SourceFile::new(
            "t.toml",
            text.replace("frame_size = 9018\n", ""),
        ));
        assert!(loaded.diagnostics.is_empty(), "{:#?}", loaded.diagnostics);
        let d = loaded.design.unwrap();
        let t = &d.storage[0];
        assert_eq!(t.kind.value.as_str(), "iscsi");
        let users: Vec<&StorageUser> = t
            .used_by
            .as_ref()
            .unwrap()
            .value
            .iter()
            .map(|u| &u.value)
            .collect();
        assert_eq!(
            users,
            [
                &StorageUser::Cluster("c1".into()),
                &StorageUser::Host(crate::HostId(1))
            ]
        );
        assert_eq!(t.users(&d), [crate::HostId(0), crate::HostId(1)]);
        assert_eq!(t.ports[0].mtu.value.payload, 9000);
        assert_eq!(t.ports[0].card.value, "ctrl-a");
        assert_eq!(t.networks(), [crate::NetworkId(0)]);
    }

    #[test]
    fn every_problem_of_a_target_is_reported_at_once() {
        let m = messages(
            "[storage.a1]\nused_by = [\"hv3\"]\n[storage.a1.ports.A0]\nspeed = \"25G\"\nswitch = \"tor-b\"\nnetworks = [\"iscsi-b\"]\n[storage.a1.ports.A1]\nswitch = \"tor-a\"\n",
        );
        let want = [
            "storage target `a1` has no `kind`, which is required",
            "`used_by` names no cluster or host `hv3`, did you mean `hv1`?",
            "unknown switch `tor-b`, did you mean `tor-a`?",
            "unknown network `iscsi-b`, did you mean `iscsi-a`?",
            "port `A1` of storage target `a1` has no `speed`, which is required",
            "port `A1` of storage target `a1` has no `networks`, which is required",
        ];
        for w in want {
            assert!(m.iter().any(|x| x == w), "missing {w:?} in {m:#?}");
        }
    }

    #[test]
    fn a_target_needs_ports_and_a_known_kind() {
        let m = messages("[storage.a1]\nkind = \"fc\"\n");
        assert!(m.iter().any(|x| x.contains("`fc`")), "{m:#?}");
        assert!(
            m.iter()
                .any(|x| x == "storage target `a1` has no `ports`, which is required"),
            "{m:#?}"
        );
    }
}
