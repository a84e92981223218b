//! Helpers shared by the host-traffic rules (and the hyperv-port teaming
//! rule): where a bandwidth-model port sits in the design, which ports carry
//! SMB Direct, and which switches that traffic crosses.

use crate::Context;
use netlint_analysis::bandwidth::{Port, TrafficClass};
use netlint_analysis::{NicEnd, Via};
use netlint_model::{
    DcbPolicy, Design, Host, HostId, NetworkId, NicIdx, PolicyMatch, Rdma, Role, Span, SwitchId,
    Transport,
};
use std::collections::{BTreeSet, VecDeque};

/// The line that puts `net` on the interface (the entry of a `networks`
/// list, or a vNIC's `network`).
pub(crate) fn via_span(host: &Host, via: Via, net: NetworkId) -> Span {
    let find = |list: &[netlint_model::Sp<NetworkId>], fallback: Span| {
        list.iter()
            .find(|n| n.value == net)
            .map(|n| n.span)
            .unwrap_or(fallback)
    };
    match via {
        Via::Nic(n) => find(&host.nic(n).networks, host.nic(n).span),
        Via::Team(t) => find(&host.teams[t.0].networks, host.teams[t.0].span),
        Via::VNic(v, i) => host.vswitches[v.0].vnics[i].network.span,
        Via::Guest(v) => find(&host.vswitches[v.0].networks, host.vswitches[v.0].span),
    }
}

/// "a" or "an" before a number written in digits ("an 8 x 1G team").
pub(crate) fn article(text: &str) -> &'static str {
    let digits: String = text.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.starts_with('8') || digits == "11" || digits == "18" {
        "an"
    } else {
        "a"
    }
}

/// The host's DCB policy for SMB Direct (`match = "smb-direct"`).
pub(crate) fn smb_direct_policy(host: &Host) -> Option<&DcbPolicy> {
    host.dcb
        .as_ref()?
        .policies
        .iter()
        .find(|p| p.match_.value == PolicyMatch::SmbDirect)
}

/// Whether `class` runs over SMB on this host (and so can run as SMB
/// Direct), for a port on network `net`.
fn smb_class(cx: &Context<'_>, host: &Host, class: TrafficClass, net: NetworkId) -> bool {
    match class {
        TrafficClass::SmbStorage => true,
        TrafficClass::Csv => cx.design.network(net).role.value == Role::Csv,
        TrafficClass::LiveMigration => host
            .live_migration
            .as_ref()
            .is_some_and(|lm| lm.transport.value == Transport::Smb && host.os.value.is_windows()),
        _ => false,
    }
}

/// One interface of one host carrying SMB Direct on one network.
#[derive(Clone, Debug)]
pub(crate) struct SmbDirectUse {
    pub host: HostId,
    pub network: NetworkId,
    pub via: Via,
    /// `vNIC `SMB1` on `ConvergedSwitch``.
    pub name: String,
    pub rdma: Rdma,
    pub active: Vec<NicIdx>,
}

/// Every interface that carries SMB Direct (SMB storage, CSV, live
/// migration over SMB) on an RDMA adapter, per the bandwidth model.
pub(crate) fn smb_direct_uses(cx: &Context<'_>) -> Vec<SmbDirectUse> {
    let mut out: Vec<SmbDirectUse> = Vec::new();
    for (hi, host) in cx.design.hosts.iter().enumerate() {
        if !host.os.value.is_windows() {
            continue;
        }
        let hb = cx.bandwidth().host(HostId(hi));
        for class in hb.classes.iter() {
            for p in &class.ports {
                let Some(rdma) = p.rdma else { continue };
                if !smb_class(cx, host, class.class, p.network) {
                    continue;
                }
                if out
                    .iter()
                    .any(|u| u.host.0 == hi && u.network == p.network && u.via == p.via)
                {
                    continue;
                }
                out.push(SmbDirectUse {
                    host: HostId(hi),
                    network: p.network,
                    via: p.via,
                    name: crate::phrases::bandwidth::port_name(host, p.via),
                    rdma,
                    active: p.active.clone(),
                });
            }
        }
    }
    out
}

/// The networks on which a host carries SMB at all, with its ports there
/// (for `rdma-mismatch`).
pub(crate) fn smb_ports<'a>(cx: &'a Context<'_>, h: HostId) -> Vec<&'a Port> {
    let host = cx.design.host(h);
    let mut out: Vec<&Port> = Vec::new();
    for class in cx.bandwidth().host(h).classes.iter() {
        for p in &class.ports {
            if smb_class(cx, host, class.class, p.network)
                && !out.iter().any(|q| q.network == p.network && q.via == p.via)
            {
                out.push(p);
            }
        }
    }
    out
}

/// The switches a set of host adapters is cabled to, in file order.
pub(crate) fn cabled_switches(cx: &Context<'_>, host: HostId, nics: &[NicIdx]) -> Vec<SwitchId> {
    let mut out = Vec::new();
    for n in nics {
        if let Some(Some(NicEnd::Switch(s))) = cx.topology().nic_ends[host.0].get(n.0) {
            if !out.contains(s) {
                out.push(*s);
            }
        }
    }
    out
}

/// The switches traffic on `vlan` crosses between the switches in `ends`.
///
/// An approximation until the layer-2 forwarding model (spanning tree per
/// instance) lands: the end switches (those the hosts' RDMA adapters are
/// cabled to), every switch on a shortest path between two of them over
/// inter-switch links that allow the VLAN (and whose switches define it),
/// and every switch of such a link that joins two switches already on the
/// path (the other chassis of a multi-chassis LAG). Swap this function for
/// the forwarding path once the forwarding model exists: the rules that call
/// it (`rdma-without-dcb`, `dcb-priority-mismatch`) need no other change.
pub(crate) fn rdma_path_switches(
    design: &Design,
    vlan: Option<u16>,
    ends: &[SwitchId],
) -> Vec<SwitchId> {
    let n = design.switches.len();
    let carries = |s: SwitchId| design.switch(s).defines_vlan(vlan);
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n];
    for link in &design.links {
        if !link.allows_vlan(vlan) {
            continue;
        }
        let members: Vec<SwitchId> = link.ends().collect();
        for x in &members {
            for y in &members {
                if x != y && carries(*x) && carries(*y) && !adj[x.0].contains(&y.0) {
                    adj[x.0].push(y.0);
                }
            }
        }
    }
    let mut on_path: BTreeSet<usize> = ends.iter().map(|s| s.0).collect();
    for (i, from) in ends.iter().enumerate() {
        // BFS from one end; walk back from every later end it reaches.
        let mut parent: Vec<Option<usize>> = vec![None; n];
        let mut seen = vec![false; n];
        let mut queue = VecDeque::from([from.0]);
        seen[from.0] = true;
        while let Some(x) = queue.pop_front() {
            for &y in &adj[x] {
                if !seen[y] {
                    seen[y] = true;
                    parent[y] = Some(x);
                    queue.push_back(y);
                }
            }
        }
        for to in &ends[i + 1..] {
            if !seen[to.0] {
                continue;
            }
            let mut at = to.0;
            while let Some(p) = parent[at] {
                on_path.insert(p);
                at = p;
            }
        }
    }
    for link in &design.links {
        if !link.allows_vlan(vlan) {
            continue;
        }
        let members: Vec<usize> = link.ends().map(|s| s.0).collect();
        if members.iter().filter(|m| on_path.contains(m)).count() >= 2 {
            on_path.extend(members.into_iter().filter(|m| carries(SwitchId(*m))));
        }
    }
    on_path.into_iter().map(SwitchId).collect()
}

/// What live migration over SMB shares with SMB storage and CSV on one
/// host: the adapters both use in the healthy state, and the other
/// networks there.
pub(crate) struct SharedAdapters {
    pub nics: Vec<NicIdx>,
    /// (class, network) of the SMB traffic on those adapters, in order.
    pub with: Vec<(TrafficClass, NetworkId)>,
}

pub(crate) fn lm_shared_adapters(cx: &Context<'_>, h: HostId) -> Option<SharedAdapters> {
    let hb = cx.bandwidth().host(h);
    let lm = hb.class(TrafficClass::LiveMigration)?;
    if lm.transport != netlint_analysis::bandwidth::ClassTransport::Smb {
        return None;
    }
    let lm_nics = lm.nics_in_use();
    let mut nics: Vec<NicIdx> = Vec::new();
    let mut with = Vec::new();
    for class in [TrafficClass::SmbStorage, TrafficClass::Csv] {
        let Some(c) = hb.class(class) else { continue };
        for i in &c.healthy.in_use {
            let p = &c.ports[*i];
            if class == TrafficClass::Csv && cx.design.network(p.network).role.value != Role::Csv {
                continue;
            }
            let shared: Vec<NicIdx> = p
                .active
                .iter()
                .copied()
                .filter(|n| lm_nics.contains(n))
                .collect();
            if shared.is_empty() {
                continue;
            }
            for n in shared {
                if !nics.contains(&n) {
                    nics.push(n);
                }
            }
            if !with.contains(&(class, p.network)) {
                with.push((class, p.network));
            }
        }
    }
    // Adapter order as the host lists them.
    nics.sort();
    (!nics.is_empty()).then_some(SharedAdapters { nics, with })
}

/// "SMB storage (`smb1`, `smb2`) and CSV (`csv`)".
pub(crate) fn with_text(cx: &Context<'_>, with: &[(TrafficClass, NetworkId)]) -> String {
    let mut parts = Vec::new();
    for class in [TrafficClass::SmbStorage, TrafficClass::Csv] {
        let nets: Vec<String> = with
            .iter()
            .filter(|(c, _)| *c == class)
            .map(|(_, n)| format!("`{}`", cx.design.network(*n).name))
            .collect();
        if !nets.is_empty() {
            let label = if class == TrafficClass::Csv {
                "CSV"
            } else {
                "SMB storage"
            };
            parts.push(format!("{label} ({})", nets.join(", ")));
        }
    }
    parts.join(" and ")
}

/// The SMB share of an adapter: the ETS share of the priority the host's
/// SMB (Direct) policy uses, or the whole adapter when nothing reserves it.
pub(crate) fn smb_share(host: &Host, rdma: bool) -> (f64, String) {
    let wanted = if rdma {
        PolicyMatch::SmbDirect
    } else {
        PolicyMatch::Smb
    };
    let share = host.dcb.as_ref().and_then(|dcb| {
        let p = dcb.policies.iter().find(|p| p.match_.value == wanted)?;
        let pct = *dcb.ets.as_ref()?.value.get(&p.priority.value)?;
        Some((pct, p.priority.value))
    });
    match share {
        Some((pct, prio)) => (
            pct as f64 / 100.0,
            format!("SMB share {pct} % (the ETS share of priority {prio})"),
        ),
        None => (
            1.0,
            "SMB share 100 % (no ETS share reserves less)".to_string(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use netlint_model::{load, SourceFile};

    #[test]
    fn articles() {
        assert_eq!(article("8 x 1G"), "an");
        assert_eq!(article("2 x 25G"), "a");
        assert_eq!(article("11 x 1G"), "an");
        assert_eq!(article("18"), "an");
        assert_eq!(article("16"), "a");
    }

    #[test]
    fn path_switches_follow_links_that_allow_the_vlan() {
        let src = r#"
[design]
name = "t"
[switches.a]
[switches.b]
[switches.mid]
[switches.other]
[switches.m1]
mlag = "x"
[switches.m2]
mlag = "x"
[[links]]
a = "a"
b = "mid"
speed = "10G"
[[links]]
a = "mid"
b = "b"
speed = "10G"
[[links]]
a = "a"
b = "other"
speed = "10G"
vlans = [5]
[[links]]
a = "other"
b = "b"
speed = "10G"
vlans = [5]
[[links]]
a = "b"
b = ["m1", "m2"]
speed = "10G"
members = 2
"#;
        let l = load(&SourceFile::new("t.toml", src));
        assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
        let d = l.design.unwrap();
        let id = |n: &str| d.switch_by_name(n).unwrap();
        let names = |v: Vec<SwitchId>| -> Vec<String> {
            v.into_iter().map(|s| d.switch(s).name.clone()).collect()
        };
        // VLAN 7: only through `mid` (the `other` links carry VLAN 5 only).
        assert_eq!(
            names(rdma_path_switches(&d, Some(7), &[id("a"), id("b")])),
            ["a", "b", "mid"]
        );
        // A multi-chassis LAG from b to m1+m2: both chassis are on the path.
        assert_eq!(
            names(rdma_path_switches(&d, Some(7), &[id("b"), id("m1")])),
            ["b", "m1", "m2"]
        );
        assert_eq!(names(rdma_path_switches(&d, Some(7), &[id("a")])), ["a"]);
    }
}
