//! Routed links and devices with `managed = false` in the views: cabling
//! that is no part of any bridged domain. netlint takes an unmanaged
//! device as opaque (it bridges none of the fabric's VLANs and sends no
//! BPDU) and a routed link as carrying no VLAN, so neither has a
//! spanning-tree role; `netlint topology` lists them on their own.

use netlint_analysis::Topology;
use netlint_model::{Design, LinkKind};
use netlint_rules::phrases::words::cables_speed;
use serde::Serialize;

/// A routed link, or a link to an unmanaged device.
#[derive(Serialize, Debug)]
pub struct CablingOut {
    pub link: String,
    /// routed | unmanaged (a link to a device with `managed = false`)
    pub kind: &'static str,
    pub a: Vec<String>,
    pub b: Vec<String>,
    /// "10G", or "2 x 10G" for several cables.
    pub speed: String,
}

/// A device known only from its cabling (`managed = false`).
#[derive(Serialize, Debug)]
pub struct UnmanagedOut {
    pub name: String,
    pub model: Option<String>,
    /// The links that reach it, in file order.
    pub links: Vec<String>,
}

/// Every routed link and link to an unmanaged device, in file order.
pub fn cabling(design: &Design, topo: &Topology) -> Vec<CablingOut> {
    let names = |ids: Vec<netlint_model::SwitchId>| -> Vec<String> {
        ids.into_iter()
            .map(|s| design.switch(s).name.clone())
            .collect()
    };
    topo.cabling_links
        .iter()
        .map(|l| {
            let link = design.link(*l);
            let members = link.members.value;
            CablingOut {
                link: link.name.clone(),
                kind: if link.kind.value == LinkKind::Routed {
                    "routed"
                } else {
                    "unmanaged"
                },
                a: names(link.a_ends().map(|s| s.value).collect()),
                b: names(link.b.iter().map(|s| s.value).collect()),
                speed: cables_speed(members, link.known_speed()),
            }
        })
        .collect()
}

/// Every device with `managed = false`, in file order.
pub fn unmanaged(design: &Design) -> Vec<UnmanagedOut> {
    design
        .switches
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.is_managed())
        .map(|(i, s)| UnmanagedOut {
            name: s.name.clone(),
            model: s.model.as_ref().map(|m| m.value.clone()),
            links: design
                .links
                .iter()
                .filter(|l| l.ends().any(|e| e.0 == i))
                .map(|l| l.name.clone())
                .collect(),
        })
        .collect()
}

/// Whether a bridge takes part in the topology through cabling only: an
/// unmanaged device, or a switch whose every link is routed (a router
/// written as a switch) with no spanning-tree port and no host cabled to
/// it. Such a bridge is no bridged domain of its own.
pub fn cabling_only(design: &Design, topo: &Topology, bridge: usize) -> bool {
    let members = &topo.bridges[bridge].members;
    if members.iter().all(|s| !design.switch(*s).is_managed()) {
        return true;
    }
    let has_port = topo
        .ports
        .iter()
        .any(|p| p.a.0 == bridge || p.b.0 == bridge);
    let has_host = topo
        .nic_ends
        .iter()
        .flatten()
        .any(|e| matches!(e, Some(netlint_analysis::NicEnd::Switch(s)) if members.contains(s)));
    let cabled = topo
        .cabling_links
        .iter()
        .any(|l| design.link(*l).ends().any(|s| members.contains(&s)));
    let internal = topo
        .internal_links
        .iter()
        .any(|l| design.link(*l).ends().any(|s| members.contains(&s)));
    cabled && !has_port && !has_host && !internal
}
