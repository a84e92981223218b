//! Ports: which adapters carry a network, teamed how and balanced how.

use super::*;

pub(super) fn team_balancer(host: &Host, t: TeamIdx) -> Balancer {
    let team = &host.teams[t.0];
    let standby = team.standby.as_ref().map(|s| s.value);
    Balancer {
        group: Group::Team(t),
        mode: team.mode.value,
        load_balancing: Some(team.load_balancing.value),
        members: team
            .members
            .iter()
            .map(|m| m.value)
            .filter(|m| Some(*m) != standby)
            .collect(),
    }
}

/// The balancer of a virtual switch: its team, or the switch itself when
/// it teams two or more NICs (SET, or a vSphere vSwitch).
pub(super) fn vswitch_balancer(host: &Host, vi: VSwitchIdx) -> Option<Balancer> {
    let vs = &host.vswitches[vi.0];
    if let [u] = vs.uplinks.as_slice() {
        return match u.value {
            Uplink::Team(t) => Some(team_balancer(host, t)),
            Uplink::Nic(_) => None,
        };
    }
    if vs.uplinks.len() < 2 {
        return None;
    }
    let lb = vs.load_balancing.as_ref().map(|l| l.value);
    let mode = match lb {
        Some(LoadBalancing::IpHash) => TeamMode::Static,
        Some(LoadBalancing::Lacp) => TeamMode::Lacp,
        _ => TeamMode::SwitchIndependent,
    };
    Some(Balancer {
        group: Group::Switch(vi),
        mode,
        load_balancing: lb,
        members: vs
            .uplinks
            .iter()
            .flat_map(|u| host.uplink_nics(u.value))
            .collect(),
    })
}

/// (send, receive) spreading of a port under a balancer.
pub(super) fn spreads(
    host: &Host,
    b: &Balancer,
    team_interface: bool,
    active: &[NicIdx],
) -> (Spread, Spread) {
    use LoadBalancing as L;
    let first = active.first().copied().unwrap_or(NicIdx(0));
    let lb = b.effective_lb(host);
    if lb == Some(L::ExplicitFailover) {
        return (Spread::Shared(first), Spread::Shared(first));
    }
    let tx = match lb {
        Some(L::AddressHash | L::Dynamic | L::IpHash | L::Lacp) => Spread::PerFlow,
        _ => Spread::OneMember,
    };
    let rx = if b.mode.switch_dependent() {
        Spread::PerFlow
    } else {
        match lb {
            Some(L::AddressHash) => Spread::Shared(first),
            Some(L::Dynamic) if team_interface => Spread::PerFlow,
            _ => Spread::OneMember,
        }
    };
    (tx, rx)
}

pub(super) fn nic_rdma(host: &Host, nics: &[NicIdx]) -> Option<Rdma> {
    let kinds: Vec<Rdma> = nics.iter().map(|n| host.nic(*n).rdma.value).collect();
    match kinds.first() {
        Some(k) if k.enabled() && kinds.iter().all(|x| x == k) => Some(*k),
        _ => None,
    }
}

/// Every port of `net` on `host` (guest ports only when `guests`).
pub(super) fn ports_of(
    design: &Design,
    topology: &Topology,
    hid: HostId,
    net: NetworkId,
    guests: bool,
) -> Vec<Port> {
    let host = design.host(hid);
    let old_windows = matches!(
        host.os.value,
        netlint_model::Platform::Ws2012 | netlint_model::Platform::Ws2012R2
    );
    let mut out = Vec::new();
    for c in topology.carriers_of(hid, net) {
        // A carrier with no active adapter carries nothing (standby ones
        // take over only for a failed active one, as in
        // `Forwarding::working`): no port, so every port has a first
        // active adapter.
        if matches!(c.via, Via::Guest(_)) != guests || c.active.is_empty() {
            continue;
        }
        let (balancer, mtu, rdma, rss, team_interface) = match c.via {
            Via::Nic(n) => {
                let nic = host.nic(n);
                (
                    None,
                    nic.mtu.value.payload,
                    nic.rdma.value.enabled().then_some(nic.rdma.value),
                    true,
                    false,
                )
            }
            Via::Team(t) => {
                let team = &host.teams[t.0];
                let mtu = team
                    .mtu
                    .as_ref()
                    .map(|m| m.value.payload)
                    .unwrap_or_else(|| {
                        team.members
                            .iter()
                            .map(|m| host.nic(m.value).mtu.value.payload)
                            .min()
                            .unwrap_or(1500)
                    });
                // LBFO teams do not expose RDMA (`team-rdma`).
                (Some(team_balancer(host, t)), mtu, None, true, true)
            }
            Via::VNic(vi, k) => {
                let vs = &host.vswitches[vi.0];
                let vnic = &vs.vnics[k];
                let rdma = if vnic.rdma.value {
                    nic_rdma(host, &c.active)
                } else {
                    None
                };
                (
                    vswitch_balancer(host, vi),
                    vnic.mtu.value.payload,
                    rdma,
                    !old_windows,
                    false,
                )
            }
            Via::Guest(vi) => {
                let vs = &host.vswitches[vi.0];
                let mtu = vs.mtu.as_ref().map(|m| m.value.payload).unwrap_or_else(|| {
                    c.active
                        .iter()
                        .map(|n| host.nic(*n).mtu.value.payload)
                        .min()
                        .unwrap_or(1500)
                });
                (vswitch_balancer(host, vi), mtu, None, true, false)
            }
        };
        let (mut tx, mut rx) = match &balancer {
            None => (Spread::OneMember, Spread::OneMember),
            Some(b) => spreads(host, b, team_interface, &c.active),
        };
        if rdma.is_some() && matches!(c.via, Via::VNic(..)) {
            // SMB Direct from a vNIC runs on the adapter the vNIC is
            // affinitized to.
            tx = Spread::OneMember;
            rx = Spread::OneMember;
        }
        if matches!(c.via, Via::Guest(_)) {
            // Many VMs: each on one member, together on all of them.
            if tx == Spread::OneMember {
                tx = Spread::PerFlow;
            }
            if rx == Spread::OneMember {
                rx = Spread::PerFlow;
            }
        }
        out.push(Port {
            network: net,
            via: c.via,
            active: c.active.clone(),
            standby: c.standby.clone(),
            balancer,
            tx,
            rx,
            rdma,
            mtu,
            rss,
        });
    }
    out
}
