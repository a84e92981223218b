//! Host-facing switch ports in forwarding: a port passes a network's frames
//! only if its allowed VLANs (or its access VLAN) do, and a host's untagged
//! frames land in the port's native or access VLAN, whose spanning tree and
//! links then carry them.
//!
//! A host NIC without a configured port (`switch_port`) and on a switch
//! without `host_ports.native_vlan` behaves as in format v1: every VLAN the
//! switch defines passes, and untagged frames stay on the design's untagged
//! segment (the `None` VLAN view).

use super::Break;
use netlint_model::{Design, HostId, HostPortView, NicIdx, PortDrop, PortVlan, SwitchId};

/// One host NIC's end of a cut between two ports' VLANs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PortEnd {
    pub host: HostId,
    pub nic: NicIdx,
    pub switch: SwitchId,
    /// The VLAN its frames land in on the switch (`None`: the untagged
    /// segment).
    pub vlan: Option<u16>,
}

/// The VLAN a network tagged `vlan` (`None`: untagged) lands in on the
/// switch through the port of `host`'s NIC `nic`, or why the port drops it.
/// A NIC not cabled to a switch keeps the network's VLAN.
pub fn landing(
    design: &Design,
    host: HostId,
    nic: NicIdx,
    vlan: Option<u16>,
) -> Result<Option<u16>, PortDrop> {
    let n = design.host(host).nic(nic);
    match HostPortView::of(design, n) {
        None => Ok(vlan),
        Some(p) => p.carries(vlan).map(|c| match c {
            PortVlan::Untagged(v) => v,
            PortVlan::Tagged(v) => Some(v),
        }),
    }
}

/// The VLAN two NICs' frames land in through their ports, or why the
/// pair breaks there: a port drops the frames, or the two land in
/// different VLANs.
pub(super) fn land_pair(
    design: &Design,
    (ha, x, sx): (HostId, NicIdx, SwitchId),
    (hb, y, sy): (HostId, NicIdx, SwitchId),
    vlan: Option<u16>,
) -> Result<Option<u16>, Break> {
    let land = |host, nic, switch| {
        landing(design, host, nic, vlan)
            .map(|vlan| PortEnd {
                host,
                nic,
                switch,
                vlan,
            })
            .map_err(|why| Break::PortDrops {
                host,
                nic,
                switch,
                why,
            })
    };
    let (a, b) = (land(ha, x, sx)?, land(hb, y, sy)?);
    if a.vlan != b.vlan {
        return Err(Break::VlansApart { a, b });
    }
    Ok(a.vlan)
}

/// The VLAN a network's frames travel in on the switches from `host`: the
/// network's own, or the native or access VLAN of the port of its first
/// active NIC cabled to a switch (reachability joins only hosts whose
/// frames land in one VLAN, so for a pair that got past the ports it is
/// the pair's VLAN).
pub fn host_vlan(
    design: &Design,
    topo: &crate::topology::Topology,
    network: netlint_model::NetworkId,
    host: HostId,
) -> Option<u16> {
    let vid = design.network(network).vlan_id();
    topo.carriers_of(host, network)
        .flat_map(|c| c.active.iter())
        .find_map(|n| match topo.nic_ends[host.0][n.0] {
            Some(crate::topology::NicEnd::Switch(_)) => landing(design, host, *n, vid).ok(),
            _ => None,
        })
        .unwrap_or(vid)
}

/// Every VLAN forwarding needs a view of: the networks' own, and the
/// native and access VLANs of host-facing ports, sorted.
pub fn view_vlans(design: &Design) -> Vec<Option<u16>> {
    let mut vlans: Vec<Option<u16>> = design.networks.iter().map(|n| n.vlan_id()).collect();
    vlans.extend(design.port_vlans().iter().map(Some));
    vlans.sort();
    vlans.dedup();
    vlans
}

/// The VLANs the spanning-tree engine computes trees for.
pub fn stp_vlans(design: &Design) -> Vec<u16> {
    let mut v: Vec<u16> = design.used_vlans().iter().collect();
    v.extend(design.port_vlans().iter());
    v
}

/// What a configured port adds to a host class: the port itself (the
/// classes of `l2::classes` join hosts whose NICs end alike; two hosts on
/// different ports of one switch may not).
pub fn port_key(design: &Design, host: HostId, nic: NicIdx) -> usize {
    design
        .host(host)
        .nic(nic)
        .switch_port
        .as_ref()
        .map_or(0, |p| p.value + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::l2::{Break, Fabric, Failures};
    use crate::topology::Topology;
    use netlint_model::{load, NetworkId, SourceFile};

    const TWO: &str = r#"
[design]
name = "t"
[networks.storage]
role = "storage"
protocol = "smb"
vlan = 711
[networks.mgmt]
role = "management"
[switches.tor-a]
host_ports = { edge = true, bpdu_guard = true }
PORTS
[hosts.hv1.nics.A]
speed = "10G"
switch = "tor-a"
networks = ["storage", "mgmt"]
HV1
[hosts.hv2.nics.A]
speed = "10G"
switch = "tor-a"
networks = ["storage", "mgmt"]
HV2
"#;

    fn reach(src: &str, net: usize) -> Option<Break> {
        let d = load(&SourceFile::new("t.toml", src))
            .design
            .expect("design loads");
        let topo = Topology::build(&d);
        let fabric = Fabric::new(&d, &topo);
        let fwd = fabric.forwarding(&d, &topo, &Failures::default());
        fwd.reach(&d, &topo, NetworkId(net), HostId(0), HostId(1))
            .broken
    }

    fn src(ports: &str, hv1: &str, hv2: &str) -> String {
        TWO.replace("PORTS", ports)
            .replace("HV1", hv1)
            .replace("HV2", hv2)
    }

    #[test]
    fn a_port_without_the_vlan_cuts_its_host() {
        let ports = "[switches.tor-a.ports.\"Ethernet1/5\"]\nvlans = [10]\n[switches.tor-a.ports.\"Ethernet1/6\"]\nvlans = [10, 711]\n";
        let s = src(
            ports,
            "switch_port = \"Ethernet1/5\"",
            "switch_port = \"Ethernet1/6\"",
        );
        assert_eq!(
            reach(&s, 0),
            Some(Break::PortDrops {
                host: HostId(0),
                nic: NicIdx(0),
                switch: SwitchId(0),
                why: PortDrop::NotAllowed,
            })
        );
        // Both ports allowing it: reachable.
        let s = s.replace("vlans = [10]\n", "vlans = [10, 711]\n");
        assert_eq!(reach(&s, 0), None);
    }

    #[test]
    fn untagged_frames_land_in_the_ports_native_vlan() {
        let ports = "[switches.tor-a.ports.\"Ethernet1/5\"]\nnative_vlan = 20\n[switches.tor-a.ports.\"Ethernet1/6\"]\nNATIVE\n";
        let same = src(
            &ports.replace("NATIVE", "native_vlan = 20"),
            "switch_port = \"Ethernet1/5\"",
            "switch_port = \"Ethernet1/6\"",
        );
        assert_eq!(reach(&same, 1), None);
        // The other host's port leaves untagged frames on the default
        // segment: the two hosts are in different VLANs.
        let apart = src(
            &ports.replace("NATIVE", ""),
            "switch_port = \"Ethernet1/5\"",
            "switch_port = \"Ethernet1/6\"",
        );
        assert_eq!(
            reach(&apart, 1),
            Some(Break::VlansApart {
                a: PortEnd {
                    host: HostId(0),
                    nic: NicIdx(0),
                    switch: SwitchId(0),
                    vlan: Some(20)
                },
                b: PortEnd {
                    host: HostId(1),
                    nic: NicIdx(0),
                    switch: SwitchId(0),
                    vlan: None
                },
            })
        );
        // An access port in VLAN 20 puts the other host there too.
        let access = src(
            &ports.replace("NATIVE", "access_vlan = 20"),
            "switch_port = \"Ethernet1/5\"",
            "switch_port = \"Ethernet1/6\"",
        );
        assert_eq!(reach(&access, 1), None);
        // ...and drops the tagged storage VLAN.
        assert!(matches!(
            reach(&access, 0),
            Some(Break::PortDrops {
                why: PortDrop::Access,
                ..
            })
        ));
    }

    #[test]
    fn the_native_vlan_must_cross_the_links_between_switches() {
        // Two switches; the link between them does not allow VLAN 20, the
        // native VLAN both hosts' untagged management lands in.
        let s = r#"
[design]
name = "t"
[networks.mgmt]
role = "management"
[switches.tor-a]
host_ports = { native_vlan = 20 }
[switches.tor-b]
host_ports = { native_vlan = 20 }
[[links]]
a = "tor-a"
b = "tor-b"
speed = "10G"
vlans = [30]
[hosts.hv1.nics.A]
speed = "10G"
switch = "tor-a"
networks = ["mgmt"]
[hosts.hv2.nics.A]
speed = "10G"
switch = "tor-b"
networks = ["mgmt"]
"#;
        assert!(matches!(reach(s, 0), Some(Break::NotCarried { .. })));
        assert_eq!(reach(&s.replace("[30]", "[20, 30]"), 0), None);
    }

    #[test]
    fn a_tagged_network_on_the_ports_native_vlan_is_dropped() {
        let s = src(
            "[switches.tor-a.ports.\"Ethernet1/5\"]\nnative_vlan = 711\n",
            "switch_port = \"Ethernet1/5\"",
            "",
        );
        assert!(matches!(
            reach(&s, 0),
            Some(Break::PortDrops {
                why: PortDrop::NativeTagged,
                ..
            })
        ));
    }

    #[test]
    fn without_port_settings_forwarding_is_v1s() {
        let s = src("", "", "");
        let d = load(&SourceFile::new("t.toml", &s)).design.unwrap();
        assert_eq!(view_vlans(&d), vec![None, Some(711)]);
        assert_eq!(reach(&s, 0), None);
        assert_eq!(reach(&s, 1), None);
    }

    /// The fixture `switch-ports.toml`, built as the loader reads it.
    fn fixture() -> netlint_model::Design {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures/switch-ports.toml");
        let text = std::fs::read_to_string(p).expect("fixture");
        let l = load(&SourceFile::new("switch-ports.toml", &text));
        assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
        l.design.unwrap()
    }

    /// The failure analysis's fast evaluation agrees with the exact walk
    /// of `Forwarding::reach` on every single failure of a design whose
    /// ports cut a host and move a standby NIC into another VLAN, and
    /// says why at the port.
    #[test]
    fn failures_honour_ports_as_the_exact_walk_does() {
        use crate::failure::{requirements, units, Analysis, CarrierLoss, Unit, UnitOptions};
        use std::collections::BTreeSet;
        let d = fixture();
        let t = Topology::build(&d);
        let fab = Fabric::new(&d, &t);
        let healthy = fab.forwarding(&d, &t, &Failures::default());
        let a = Analysis::new(&d, &t, &fab, &healthy, requirements(&d, true));
        let opts = UnitOptions {
            stack_as_unit: false,
            nic_ports: true,
        };
        let mut moved = false;
        for u in units(&d, &t, opts) {
            let f = u.failures(&d, &t);
            let failed = fab.forwarding(&d, &t, &f);
            let exact: BTreeSet<_> = crate::l2::all_pairs(&d, &t, &healthy)
                .into_iter()
                .filter(|r| r.broken.is_none())
                .filter(|r| failed.reach(&d, &t, r.network, r.a, r.b).broken.is_some())
                .map(|r| (r.network, r.a, r.b))
                .collect();
            let outcome = a.evaluate(&f);
            let mut fast = BTreeSet::new();
            for l in &outcome.losses {
                if let crate::failure::Requirement::Network(n) = l.requirement {
                    fast.extend(l.pairs.iter().map(|(x, y)| (n, *x, *y)));
                }
                for hl in &l.hosts {
                    for c in &hl.carriers {
                        if let CarrierLoss::VlanMoved { nic, from, to, .. } = c.loss {
                            // hv2's standby MGMT2 on Ethernet1/6 of tor-b.
                            assert_eq!(d.host(hl.host).name, "hv2");
                            assert_eq!(d.host(hl.host).nic(nic).name, "MGMT2");
                            assert_eq!((from, to), (Some(10), Some(20)));
                            assert!(
                                matches!(u, Unit::Nic(..) | Unit::Card(..) | Unit::Switch(_)),
                                "{u:?}"
                            );
                            moved = true;
                        }
                    }
                }
            }
            assert_eq!(fast, exact, "{u:?}");
        }
        assert!(moved, "no failure moved hv2's management into VLAN 20");
    }

    /// Two hosts cabled to one switch are one class only when their
    /// configured ports agree: the class of hv3 (whose port lacks VLAN 711)
    /// is not hv1's.
    #[test]
    fn hosts_on_different_ports_are_not_one_class() {
        let d = fixture();
        let t = Topology::build(&d);
        let fab = Fabric::new(&d, &t);
        let fwd = fab.forwarding(&d, &t, &Failures::default());
        let storage_a = d.network_by_name("storage-a").unwrap();
        let broken: Vec<(String, String)> = crate::l2::all_pairs(&d, &t, &fwd)
            .into_iter()
            .filter(|r| r.network == storage_a && r.broken.is_some())
            .map(|r| (d.host(r.a).name.clone(), d.host(r.b).name.clone()))
            .collect();
        let s = |a: &str, b: &str| (a.to_string(), b.to_string());
        assert_eq!(broken, vec![s("hv1", "hv3"), s("hv2", "hv3")]);
    }
}
