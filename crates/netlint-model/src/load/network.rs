//! Reading a network (`[networks.NAME]`): role, VLAN, subnet, MTU,
//! protocol and cluster use.
//! Part of the loader's `Builder` (load.rs).

use super::*;

impl Builder {
    pub(super) fn network(&mut self, name: String, key: Span, v: &Value<'_>) -> Option<Network> {
        let what = format!("network `{name}`");
        let (_, t) = self.r.as_table(&format!("networks.{name}"), v)?;
        let span = element_span(key, v);
        self.r.check_keys(t, NETWORK_KEYS, &what);
        let role = self.r.enum_::<Role>(t, "role");
        self.r.require(t, "role", span, &what, "\"csv\"");
        let vlan = self
            .r
            .int(t, "vlan", 0..=4094, "from 1 to 4094, or 0 for untagged")
            .and_then(|v| (v.value != 0).then(|| v.map(|n| n as u16)));
        let subnet = self.r.parsed(t, "subnet", Subnet::parse);
        let mtu = self
            .mtu(t, None, &what)
            .unwrap_or(Sp::new(Mtu::STANDARD, span));
        let protocol = self.r.enum_::<Protocol>(t, "protocol");
        let explicit_use = self.r.enum_::<ClusterUse>(t, "cluster_use");
        self.allow(t, Element::Network(name.to_string()));
        let role = role?;
        let cluster_use = explicit_use.unwrap_or_else(|| {
            let u = match role.value {
                Role::Management => ClusterUse::ClusterAndClient,
                Role::Cluster | Role::Csv | Role::LiveMigration => ClusterUse::Cluster,
                Role::Storage
                    if matches!(protocol.as_ref().map(|p| p.value), Some(Protocol::Smb)) =>
                {
                    ClusterUse::Cluster
                }
                _ => ClusterUse::None,
            };
            Sp::new(u, role.span)
        });
        Some(Network {
            name,
            span,
            role,
            vlan,
            subnet,
            mtu,
            protocol,
            cluster_use,
        })
    }
}
