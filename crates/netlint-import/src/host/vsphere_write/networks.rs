//! The networks of vSphere collections: one per port group a vmkernel
//! port or VM uses, its role from the evidence of the vmkernel ports on
//! it (`role_of`, `rank`), its VLAN and MTU. Split from
//! `vsphere_write.rs`, which writes the hosts.

use super::*;

/// What one vmkernel port's services tell about its network's role.
pub(super) struct RoleOf {
    role: &'static str,
    protocol: Option<&'static str>,
    /// Where: the service flag (or the iSCSI binding) that tells it.
    from: Prov,
}

/// Why a port group no vmkernel port uses is written `vm`: the
/// collection lists no VMs, and a port group (not an uplink one) carries
/// vmkernel ports or VMs.
pub(super) const VM_PG: &str = "a port group no vmkernel port uses is taken for a VM port group";

/// Why Fault Tolerance logging alone is written `replica`.
pub(super) const FT_ONLY: &str =
    "a vmkernel port that carries only Fault Tolerance logging is written `replica` (information only): the design format has no role for it";

/// The role `k`'s services tell: Management `management`, vMotion
/// `live-migration`, vSAN `storage` / `vsan`, bound to software iSCSI
/// (`bound`: its binding) `storage` / `iscsi`; Fault Tolerance logging
/// alone `replica`, inferred; no service enabled `unknown`. Never from a
/// name.
pub(super) fn role_of(file: &str, h: &EsxHost, k: &Vmk, bound: Option<&Sourced<String>>) -> RoleOf {
    let flag = |name: &str| {
        Prov::line(file, k.services_line).then(&format!(", {} {}: {name}", h.name, k.name))
    };
    let (role, protocol, from) = if k.management {
        ("management", None, flag("ManagementTrafficEnabled"))
    } else if k.vmotion {
        ("live-migration", None, flag("VMotionEnabled"))
    } else if k.vsan {
        ("storage", Some("vsan"), flag("VsanTrafficEnabled"))
    } else if let Some(b) = bound {
        (
            "storage",
            Some("iscsi"),
            at(file, b).then(&format!(", {} {}: bound to software iSCSI", h.name, k.name)),
        )
    } else if k.ft {
        (
            "replica",
            None,
            Prov::line(file, k.services_line).inferred(
                FT_ONLY,
                &format!(
                    "{} {} carries only Fault Tolerance logging, which the design format has no role for (information only)",
                    h.name, k.name
                ),
            ),
        )
    } else {
        (
            "unknown",
            None,
            Prov::line(file, k.services_line).then(&format!(
                ", {} {}: no service enabled, so what the network carries is not known: set the role",
                h.name, k.name
            )),
        )
    };
    RoleOf {
        role,
        protocol,
        from,
    }
}

pub(super) fn networks(
    colls: &[VsphereCollection],
    notes: &mut Vec<String>,
) -> BTreeMap<String, NetInfo> {
    let mut nets: BTreeMap<String, NetInfo> = BTreeMap::new();
    // The vmkernel ports whose services tell no role (none enabled) or
    // only an inferred one (Fault Tolerance logging): (port group, what
    // they are), noted once every port is seen, with the role written.
    let mut weak: Vec<(String, String)> = Vec::new();
    for c in colls {
        for h in &c.hosts {
            for k in &h.vmks {
                let Some(pg) = &k.portgroup else {
                    notes.push(format!(
                        "{}:{}: {} {} names no port group; left out",
                        c.file, k.line, h.name, k.name
                    ));
                    continue;
                };
                let bound = h.iscsi_bound.iter().flatten().find(|b| b.value == k.name);
                let r = role_of(&c.file, h, k, bound);
                let said = match r.role {
                    "unknown" => Some("has no service enabled (NFS, or iSCSI without port binding)"),
                    "replica" => Some("carries only Fault Tolerance logging, which the design format has no role for"),
                    _ => None,
                };
                if let Some(said) = said {
                    weak.push((
                        pg.value.clone(),
                        format!(
                            "{}:{}: {} {} {said}",
                            c.file, k.services_line, h.name, k.name
                        ),
                    ));
                }
                if k.management && (k.vmotion || k.vsan) {
                    notes.push(format!(
                        "{}:{}: {} {} carries management and {}: its network {} is written as `management`",
                        c.file,
                        k.services_line,
                        h.name,
                        k.name,
                        if k.vmotion { "vMotion" } else { "vSAN" },
                        pg.value
                    ));
                }
                let n = nets.entry(pg.value.clone()).or_insert_with(|| NetInfo {
                    name: pg.value.clone(),
                    role: r.role,
                    protocol: r.protocol,
                    role_from: r.from.clone(),
                    pg_at: None,
                    vlan: None,
                    mtus: Vec::new(),
                    vm: false,
                });
                if rank(r.role) < rank(n.role) {
                    n.role = r.role;
                    n.protocol = r.protocol;
                    n.role_from = r.from;
                }
                n.vm = false;
                match &k.mtu {
                    Some(m) => n.mtus.push((m.value, at(&c.file, m))),
                    None => notes.push(format!(
                        "{}:{}: {} {}: its MTU is not collected: `mtu` is not written for it, and it does not count toward the MTU of network {}",
                        c.file, k.line, h.name, k.name, pg.value
                    )),
                }
                if n.pg_at.is_none() {
                    n.pg_at = h
                        .portgroups
                        .iter()
                        .find(|g| g.name == pg.value)
                        .map(|g| Prov::line(&c.file, g.line));
                }
                if n.vlan.is_none() {
                    n.vlan = pg_vlan(&c.file, h, &pg.value, notes);
                }
            }
        }
    }
    for (pg, said) in weak {
        let n = &nets[&pg];
        notes.push(match n.role {
            "unknown" => format!(
                "{said}: its network {pg} is written with role `unknown` (no vmkernel port on it tells what it carries: set the role)"
            ),
            "replica" => format!(
                "{said}: its network {pg} is written with role `replica`, inferred (information only)"
            ),
            role => format!(
                "{said}: its network {pg} is written with role `{role}`, from {}",
                n.role_from
            ),
        });
    }
    // Port groups no vmkernel port uses: VM networks.
    for c in colls {
        for h in &c.hosts {
            for g in &h.portgroups {
                if nets.contains_key(&g.name) {
                    continue;
                }
                let vlan = pg_vlan(&c.file, h, &g.name, notes);
                nets.insert(
                    g.name.clone(),
                    NetInfo {
                        name: g.name.clone(),
                        role: "vm",
                        protocol: None,
                        role_from: Prov::line(&c.file, g.line).inferred(
                            VM_PG,
                            &format!("{} port group {}: no vmkernel port uses it", h.name, g.name),
                        ),
                        pg_at: Some(Prov::line(&c.file, g.line)),
                        vlan,
                        mtus: Vec::new(),
                        vm: true,
                    },
                );
            }
        }
    }
    nets
}

/// Which of two vmkernel ports' roles for one port group is written:
/// evidence (a service flag or an iSCSI binding) first, then the role
/// inferred from Fault Tolerance logging, then `unknown`.
pub(super) fn rank(role: &str) -> u8 {
    match role {
        "management" => 0,
        "live-migration" => 1,
        "storage" => 2,
        "replica" => 3,
        _ => 4,
    }
}

pub(super) fn pg_vlan(
    file: &str,
    h: &EsxHost,
    pg: &str,
    notes: &mut Vec<String>,
) -> Option<(u16, Prov)> {
    let g = h.portgroups.iter().find(|g| g.name == pg)?;
    let v = g.vlan.as_ref()?;
    match &v.value {
        Vlan::Tag(id) => Some((*id, at(file, v))),
        Vlan::Untagged => None,
        Vlan::Other(t) => {
            notes.push(format!(
                "{}: port group {pg} is {t} (a trunk or private VLAN), not one network's VLAN: its network is written untagged",
                at(file, v)
            ));
            None
        }
    }
}
