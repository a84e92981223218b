//! The part of a design that findings are about.

use super::options::*;
use netlint_analysis::{NicEnd, Topology};
use netlint_model::{Design, HostId};
use std::collections::BTreeSet;

/// The part of a design that findings are about: the switches, links and
/// hosts they name (hosts and switches of a network finding), plus, when
/// `neighbours`, the switches one link away, so a blocked link is drawn
/// with the loop that blocks it.
pub fn scope_of(design: &Design, elements: &[&str], neighbours: bool) -> Scope {
    let topo = Topology::build(design);
    let mut sc = Scope::default();
    let add_host = |sc: &mut Scope, h: HostId| {
        sc.hosts.insert(h);
        for end in topo.nic_ends[h.0].iter().flatten() {
            if let NicEnd::Switch(s) = end {
                sc.switches.insert(*s);
            }
        }
    };
    for el in elements {
        let mut parts = el.splitn(3, '.');
        let (kind, name) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        match kind {
            "switches" => {
                if let Some(s) = design.switch_by_name(name) {
                    sc.switches.insert(s);
                }
            }
            "links" => {
                if let Some(l) = design.link_by_name(name) {
                    let link = design.link(l);
                    sc.switches.extend(link.ends());
                }
            }
            "hosts" => {
                if let Some(h) = design.host_by_name(name) {
                    add_host(&mut sc, h);
                }
            }
            "networks" => {
                if let Some(n) = design.network_by_name(name) {
                    sc.networks.insert(n);
                    for h in topo.hosts_on(n) {
                        add_host(&mut sc, h);
                    }
                }
            }
            _ => {}
        }
    }
    // Whole bridges: both peers of an MLAG pair, every stack member.
    let mut bridges: BTreeSet<usize> = sc.switches.iter().map(|s| topo.bridge_of[s.0].0).collect();
    if neighbours {
        let seed = bridges.clone();
        for p in &topo.ports {
            if seed.contains(&p.a.0) || seed.contains(&p.b.0) {
                bridges.insert(p.a.0);
                bridges.insert(p.b.0);
            }
        }
    }
    for b in bridges {
        sc.switches.extend(topo.bridges[b].members.iter().copied());
    }
    sc
}
