//! Reachability from hosts to the storage targets they use (`[storage]`):
//! the real requirement of a storage network is host to target, not only
//! host to host. A host reaches a target on a network when one of its
//! carriers of the network reaches a port of the target on it: every
//! working NIC of the carrier (a switch-independent team or SET may send
//! from any) ends in the VLAN component of some up port of the target that
//! sits on a switch defining the VLAN. The same rule decides failures in
//! `failure::targets`.

use super::{Break, Forwarding, MtuAt, VlanView};
use crate::topology::{Carrier, NicEnd, Topology};
use netlint_model::{Design, HostId, NetworkId, SwitchId, TargetId, TargetPortIdx};

/// Why a host does not reach a target on a network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TargetBreak {
    /// The host has no interface on any network the target's ports are on.
    NoNetwork,
    /// On the host's side or in the fabric: the breaks between two hosts.
    Fabric(Break),
    /// A port of the target on the network is not cabled (no `switch`),
    /// and no other port is usable.
    PortNotCabled(TargetPortIdx),
    /// The port's switch does not define the network's VLAN, and no other
    /// port is usable.
    PortSwitchLacksVlan(TargetPortIdx, SwitchId),
    /// Every port of the target on the network is down with the switch it
    /// is cabled to (a failure scenario).
    PortsDown,
}

/// Reachability of one target from one host on one network.
#[derive(Clone, Debug)]
pub struct TargetReach {
    pub target: TargetId,
    pub host: HostId,
    /// For [`TargetBreak::NoNetwork`]: the target's first network.
    pub network: NetworkId,
    /// None = reached.
    pub broken: Option<TargetBreak>,
    /// The port reached (by the first working NIC of the carrier that
    /// reaches it).
    pub port: Option<TargetPortIdx>,
    /// Forwarding ports on the path from the host's first NIC to the port.
    pub path: Vec<usize>,
    /// The host's switch and the target port's switch at the path's ends.
    pub ends: Option<(SwitchId, SwitchId)>,
    /// The smallest payload the switches and links on the path carry.
    pub min_mtu: Option<(u32, MtuAt)>,
}

impl Forwarding {
    /// Every (target, user host, network) of the design: for each target,
    /// each host that uses it, each network of the target the host has an
    /// interface on (or one record saying it has none).
    pub fn target_reach(&self, design: &Design, topo: &Topology) -> Vec<TargetReach> {
        let mut out = Vec::new();
        for t in design.target_ids() {
            let target = design.target(t);
            let nets = target.networks();
            let Some(&first) = nets.first() else { continue };
            for h in target.users(design) {
                let mine: Vec<NetworkId> = nets
                    .iter()
                    .copied()
                    .filter(|n| topo.carriers_of(h, *n).next().is_some())
                    .collect();
                if mine.is_empty() {
                    out.push(TargetReach {
                        target: t,
                        host: h,
                        network: first,
                        broken: Some(TargetBreak::NoNetwork),
                        port: None,
                        path: Vec::new(),
                        ends: None,
                        min_mtu: None,
                    });
                }
                for n in mine {
                    out.push(self.reach_target(design, topo, t, h, n));
                }
            }
        }
        out
    }

    /// Reachability of target `t` from host `h` on network `net`.
    pub fn reach_target(
        &self,
        design: &Design,
        topo: &Topology,
        t: TargetId,
        h: HostId,
        net: NetworkId,
    ) -> TargetReach {
        let mut r = TargetReach {
            target: t,
            host: h,
            network: net,
            broken: None,
            port: None,
            path: Vec::new(),
            ends: None,
            min_mtu: None,
        };
        let vlan = design.network(net).vlan_id();
        let Some(view) = self.vlan(vlan) else {
            return r;
        };
        let target = design.target(t);
        // The target's usable ports on the network: cabled, up, on a
        // switch defining the VLAN.
        let mut usable: Vec<(TargetPortIdx, SwitchId)> = Vec::new();
        let mut port_break: Option<TargetBreak> = None;
        for p in target.ports_on(net) {
            match &target.port(p).switch {
                None => {
                    port_break.get_or_insert(TargetBreak::PortNotCabled(p));
                }
                Some(s) if self.failures.switches.contains(&s.value) => {}
                Some(s) if !design.switch(s.value).defines_vlan(vlan) => {
                    port_break.get_or_insert(TargetBreak::PortSwitchLacksVlan(p, s.value));
                }
                Some(s) => usable.push((p, s.value)),
            }
        }
        if usable.is_empty() {
            // Every port is down in this scenario: nothing on the host's
            // side to blame.
            r.broken = Some(port_break.unwrap_or(TargetBreak::PortsDown));
            return r;
        }
        let mut first_break: Option<Break> = None;
        for c in topo.carriers_of(h, net) {
            match self.carrier_to_ports(design, topo, view, h, c, &usable) {
                Ok((port, sx, sy)) => {
                    let (bx, by) = (topo.bridge_of[sx.0], topo.bridge_of[sy.0]);
                    let path = view
                        .path(topo, bx, by, &view.forwarding)
                        .unwrap_or_default();
                    r.min_mtu = self.path_mtu(design, topo, &path, vec![sx, sy], vlan.is_some());
                    r.path = path;
                    r.port = Some(port);
                    r.ends = Some((sx, sy));
                    return r;
                }
                Err(b) => {
                    first_break.get_or_insert(b);
                }
            }
        }
        r.broken = Some(TargetBreak::Fabric(
            first_break.unwrap_or(Break::NoAdapter { host: h }),
        ));
        r
    }

    /// Whether every working NIC of carrier `c` of host `h` reaches one of
    /// the `usable` ports: the first NIC's (port, its switch, the port's
    /// switch), or the first break.
    fn carrier_to_ports(
        &self,
        design: &Design,
        topo: &Topology,
        view: &VlanView,
        h: HostId,
        c: &Carrier,
        usable: &[(TargetPortIdx, SwitchId)],
    ) -> Result<(TargetPortIdx, SwitchId, SwitchId), Break> {
        let working = self.working_nics(topo, h, c);
        if working.is_empty() {
            return Err(Break::NoAdapter { host: h });
        }
        let mut first = None;
        for x in working {
            let sx = match topo.nic_ends[h.0][x.0] {
                None => return Err(Break::NotCabled { host: h, nic: x }),
                Some(NicEnd::Peer(..)) => return Err(Break::PeerElsewhere { host: h, nic: x }),
                Some(NicEnd::Switch(s)) => s,
            };
            if !design.switch(sx).defines_vlan(view.vlan) {
                return Err(Break::HostSwitchLacksVlan {
                    host: h,
                    nic: x,
                    switch: sx,
                });
            }
            let comp = view.switch_component(topo, sx);
            match usable
                .iter()
                .find(|(_, sy)| view.switch_component(topo, *sy) == comp)
            {
                Some(&(p, sy)) => {
                    first.get_or_insert((p, sx, sy));
                }
                None => return Err(self.explain_switch_cut(design, topo, view, sx, usable[0].1)),
            }
        }
        first.ok_or(Break::NoAdapter { host: h })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::l2::{Fabric, Failures, NotCarried};
    use netlint_model::{load, SourceFile};

    fn design(src: &str) -> Design {
        let l = load(&SourceFile::new("t.toml", src));
        assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
        l.design.unwrap()
    }

    /// h1 on `tor-a`, h2 on `tor-b`, the array on `tor-b`; the trunk
    /// between the switches allows TRUNK.
    const SRC: &str = r#"
[design]
name = "t"
[networks.iscsi]
role = "storage"
protocol = "iscsi"
vlan = 60
[switches.tor-a]
[switches.tor-b]
[[links]]
name = "isl"
a = "tor-a"
b = "tor-b"
speed = "25G"
members = 2
vlans = TRUNK
[hosts.h1.nics.S]
speed = "25G"
switch = "tor-a"
networks = ["iscsi"]
[hosts.h2.nics.S]
speed = "25G"
switch = "tor-b"
networks = ["iscsi"]
[storage.array]
kind = "iscsi"
[storage.array.ports.P0]
speed = "25G"
switch = "tor-b"
mtu = 9000
networks = ["iscsi"]
"#;

    fn reach(trunk: &str) -> (Design, Vec<TargetReach>) {
        let d = design(&SRC.replace("TRUNK", trunk));
        let topo = Topology::build(&d);
        let fwd = Fabric::new(&d, &topo).forwarding(&d, &topo, &Failures::default());
        let r = fwd.target_reach(&d, &topo);
        (d, r)
    }

    #[test]
    fn a_vlan_missing_on_the_trunk_cuts_the_target_from_one_host_only() {
        let (d, r) = reach("[10]");
        assert_eq!(r.len(), 2);
        let isl = d.link_by_name("isl").unwrap();
        assert_eq!(r[0].host, HostId(0));
        match &r[0].broken {
            Some(TargetBreak::Fabric(Break::NotCarried { port, why })) => {
                assert_eq!(*why, NotCarried::NotAllowed);
                let topo = Topology::build(&d);
                assert_eq!(topo.ports[*port].link, isl);
            }
            other => panic!("{other:?}"),
        }
        // h2 shares the array's switch.
        assert_eq!(r[1].host, HostId(1));
        assert!(r[1].broken.is_none());
        assert_eq!(r[1].port, Some(TargetPortIdx(0)));
        assert!(r[1].path.is_empty());
    }

    #[test]
    fn with_the_vlan_allowed_the_path_and_its_mtu_are_known() {
        let (d, r) = reach("[10, 60]");
        assert!(r.iter().all(|x| x.broken.is_none()), "{r:#?}");
        assert_eq!(r[0].path.len(), 1);
        let (a, b) = (
            d.switch_by_name("tor-a").unwrap(),
            d.switch_by_name("tor-b").unwrap(),
        );
        assert_eq!(r[0].ends, Some((a, b)));
        // Default switch MTU 1500, tagged: 1500 fits.
        assert_eq!(r[0].min_mtu.map(|m| m.0), Some(1500));
    }

    #[test]
    fn a_switch_failure_takes_the_targets_only_port_away() {
        let d = design(&SRC.replace("TRUNK", "[60]"));
        let topo = Topology::build(&d);
        let mut f = Failures::default();
        f.switches.insert(d.switch_by_name("tor-b").unwrap());
        let fwd = Fabric::new(&d, &topo).forwarding(&d, &topo, &f);
        let r = fwd.target_reach(&d, &topo);
        assert!(
            r.iter().all(|x| x.broken == Some(TargetBreak::PortsDown)),
            "{r:#?}"
        );
    }
}
