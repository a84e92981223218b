//! `mtu-path-too-small`: a switch or inter-switch link on a network's
//! forwarding path cannot carry the network's largest frame.

use crate::phrases::words::host_list;
use crate::rules::fix_at::{link_table, switch_table};
use crate::{declare_rule, Context};
use netlint_analysis::{Topology, Via};
use netlint_model::units::{FRAME_OVERHEAD, VLAN_TAG};
use netlint_model::{
    Design, Diagnostic, Fix, FixEdit, HostId, LinkId, Mtu, MtuForm, NetworkId, Span, SwitchId,
    TargetId, TomlPath, Uplink,
};
use std::collections::{BTreeMap, BTreeSet};

declare_rule!(
    RULE,
    id: "mtu-path-too-small",
    category: "mtu",
    severity: Error,
    summary: "A switch or inter-switch link on a network's forwarding path cannot carry the network's largest frame.",
    check: check,
);

/// The largest packet one host sends on one network, and where it is set.
#[derive(Clone, Debug)]
pub(crate) struct HostMtu {
    pub host: HostId,
    /// The packet size that reaches the wire: the interface's MTU, capped by
    /// the adapters beneath it.
    pub payload: u32,
    /// The line that sets the interface's MTU.
    pub span: Span,
    /// "NIC `P2-1`", "vNIC `CSV`", "team `T`", "guests on `VMSwitch`".
    pub what: String,
}

impl HostMtu {
    /// The related line's label: "`hv1` sends 9000-byte packets on NIC `P1`".
    pub(crate) fn sends(&self, design: &Design) -> String {
        format!(
            "`{}` sends {}-byte packets on {}",
            design.host(self.host).name,
            self.payload,
            self.what
        )
    }
}

fn nic_mtu(host: &netlint_model::Host, n: netlint_model::NicIdx) -> u32 {
    host.nic(n).mtu.value.payload
}

fn team_mtu(host: &netlint_model::Host, t: netlint_model::TeamIdx) -> (u32, Span) {
    let team = &host.teams[t.0];
    if let Some(m) = &team.mtu {
        return (m.value.payload, m.span);
    }
    team.members
        .iter()
        .map(|m| (nic_mtu(host, m.value), host.nic(m.value).mtu.span))
        .min_by_key(|x| x.0)
        .unwrap_or((Mtu::STANDARD.payload, team.span))
}

/// The largest packet a virtual switch passes to its uplinks.
fn vswitch_limit(host: &netlint_model::Host, v: netlint_model::VSwitchIdx) -> u32 {
    let vs = &host.vswitches[v.0];
    if let Some(m) = &vs.mtu {
        return m.value.payload;
    }
    vs.uplinks
        .iter()
        .map(|u| match u.value {
            Uplink::Nic(n) => nic_mtu(host, n),
            Uplink::Team(t) => team_mtu(host, t).0,
        })
        .min()
        .unwrap_or(Mtu::STANDARD.payload)
}

/// Every host interface on `net` with the packet size it sends, in host
/// and carrier order.
pub(crate) fn host_mtus(design: &Design, topo: &Topology, net: NetworkId) -> Vec<HostMtu> {
    let network = design.network(net);
    let mut out = Vec::new();
    for h in topo.hosts_on(net) {
        let host = design.host(h);
        for c in topo.carriers_of(h, net) {
            let (payload, span, what) = match c.via {
                Via::Nic(n) => (
                    nic_mtu(host, n),
                    host.nic(n).mtu.span,
                    format!("NIC `{}`", host.nic(n).name),
                ),
                Via::Team(t) => {
                    let (p, s) = team_mtu(host, t);
                    let own = if host.teams[t.0].mtu.is_some() {
                        ""
                    } else {
                        " (its members' MTU)"
                    };
                    (p, s, format!("team `{}`{own}", host.teams[t.0].name))
                }
                Via::VNic(v, i) => {
                    let vnic = &host.vswitches[v.0].vnics[i];
                    (
                        vnic.mtu.value.payload.min(vswitch_limit(host, v)),
                        vnic.mtu.span,
                        format!("vNIC `{}`", vnic.name),
                    )
                }
                Via::Guest(v) => (
                    network.mtu.value.payload.min(vswitch_limit(host, v)),
                    network.mtu.span,
                    format!("guests on `{}`", host.vswitches[v.0].name),
                ),
            };
            out.push(HostMtu {
                host: h,
                payload,
                span,
                what,
            });
        }
    }
    out
}

/// A switch or a link with its own MTU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Elem {
    Switch(SwitchId),
    Link(LinkId),
    /// A configured host-facing port with its own `mtu` (switch, index).
    Port(SwitchId, usize),
}

/// One network that does not fit through one element.
#[derive(Clone, Debug)]
struct TooBig {
    payload: u32,
    sender: HostMtu,
    hosts: BTreeSet<HostId>,
    /// Storage targets whose path from the hosts crosses the element.
    targets: BTreeSet<TargetId>,
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    check_with(cx, out, true);
}

/// The rule, deciding the pairs of hosts that reach each other per
/// element by the classes' components (`by_components`), or pair by pair
/// (what the tests compare it with).
pub(super) fn check_with(cx: &Context<'_>, out: &mut Vec<Diagnostic>, by_components: bool) {
    let design = cx.design;
    let topo = cx.topology();
    let fwd = cx.forwarding();
    let mut found: BTreeMap<Elem, BTreeMap<NetworkId, TooBig>> = BTreeMap::new();
    for (ni, network) in design.networks.iter().enumerate() {
        let net = NetworkId(ni);
        let tagged = network.tagged();
        let mtus = host_mtus(design, topo, net);
        // Each host's largest packet on the network.
        let mut largest: BTreeMap<HostId, HostMtu> = BTreeMap::new();
        for m in &mtus {
            let e = largest.entry(m.host).or_insert_with(|| m.clone());
            if m.payload > e.payload {
                *e = m.clone();
            }
        }
        // Nothing to find when every switch and link takes the largest
        // packet any host sends on the network: skip walking the pairs.
        let Some(max_payload) = largest.values().map(|m| m.payload).max() else {
            continue;
        };
        let fits = |mtu: Mtu| max_payload <= mtu.payload_limit(tagged);
        if design.switches.iter().all(|s| {
            fits(s.mtu.value)
                && s.ports
                    .iter()
                    .all(|p| p.mtu.as_ref().is_none_or(|m| fits(m.value)))
        }) && design
            .links
            .iter()
            .all(|l| l.mtu.as_ref().is_none_or(|m| fits(m.value)))
        {
            continue;
        }
        let mut consider = |elem: Elem, m: &HostMtu, host: HostId, target: Option<TargetId>| {
            let mtu = match elem {
                Elem::Switch(s) => design.switch(s).mtu.value,
                Elem::Link(l) => match &design.link(l).mtu {
                    Some(m) => m.value,
                    None => return,
                },
                Elem::Port(s, p) => match &design.switch(s).ports[p].mtu {
                    Some(m) => m.value,
                    None => return,
                },
            };
            if m.payload <= mtu.payload_limit(tagged) {
                return;
            }
            let e = found
                .entry(elem)
                .or_default()
                .entry(net)
                .or_insert_with(|| TooBig {
                    payload: m.payload,
                    sender: m.clone(),
                    hosts: BTreeSet::new(),
                    targets: BTreeSet::new(),
                });
            if m.payload > e.payload {
                e.payload = m.payload;
                e.sender = m.clone();
            }
            e.hosts.insert(host);
            e.targets.extend(target);
        };
        // Every host's frames reach the switches its adapters are cabled
        // to, through their ports; the ports also carry what the hosts it
        // reaches send it (below).
        let mut host_ports: BTreeMap<HostId, Vec<Elem>> = BTreeMap::new();
        for (h, m) in &largest {
            for c in topo.carriers_of(*h, net) {
                for n in fwd.effective_nics(*h, c) {
                    if let Some(netlint_analysis::NicEnd::Switch(s)) = topo.nic_ends[h.0][n.0] {
                        consider(Elem::Switch(s), m, *h, None);
                        if let Some(p) = &design.host(*h).nic(n).switch_port {
                            consider(Elem::Port(s, p.value), m, *h, None);
                            host_ports
                                .entry(*h)
                                .or_default()
                                .push(Elem::Port(s, p.value));
                        }
                    }
                }
            }
        }
        // And every switch and link between two hosts that reach each other,
        // and every configured port of the host they reach: decided per
        // element that does not take the largest packet, by the classes'
        // components ([`super::crossed`]); pair by pair where the VLAN does
        // not forward on a forest.
        let mut elems: Vec<(Elem, u32)> = Vec::new();
        for (si, s) in design.switches.iter().enumerate() {
            elems.push((
                Elem::Switch(SwitchId(si)),
                s.mtu.value.payload_limit(tagged),
            ));
            for (pi, p) in s.ports.iter().enumerate() {
                if let Some(m) = &p.mtu {
                    elems.push((Elem::Port(SwitchId(si), pi), m.value.payload_limit(tagged)));
                }
            }
        }
        for (li, l) in design.links.iter().enumerate() {
            if let Some(m) = &l.mtu {
                elems.push((Elem::Link(LinkId(li)), m.value.payload_limit(tagged)));
            }
        }
        elems.retain(|(_, limit)| *limit < max_payload);
        let payloads: BTreeMap<HostId, u32> =
            largest.iter().map(|(h, m)| (*h, m.payload)).collect();
        let crossings = if by_components {
            super::crossed::crossings(cx, net, &payloads, &host_ports, &elems)
        } else {
            None
        };
        match crossings {
            Some(crossings) => {
                for (elem, hosts) in crossings {
                    for h in hosts {
                        consider(elem, &largest[&h], h, None);
                    }
                }
            }
            None => {
                for (a, b) in reaching_pairs(cx, net) {
                    let (Some(ma), Some(mb)) = (largest.get(&a), largest.get(&b)) else {
                        continue;
                    };
                    for (m, sender, to) in [(ma, a, b), (mb, b, a)] {
                        for port in host_ports.get(&to).into_iter().flatten() {
                            consider(*port, m, sender, None);
                        }
                    }
                    for ap in cx.adapter_paths(net, a, b).iter() {
                        let Some(path) = &ap.path else { continue };
                        for &p in path {
                            let port = &topo.ports[p];
                            // Either host's largest packet crosses every hop.
                            for (m, sender) in [(ma, a), (mb, b)] {
                                consider(Elem::Link(port.link), m, sender, None);
                                for s in port.switches() {
                                    consider(Elem::Switch(s), m, sender, None);
                                }
                            }
                        }
                    }
                }
            }
        }
        // And every switch and link between a host and a storage target
        // it reaches, the target's switch included.
        for r in cx.target_reach() {
            let (Some(m), Some((sx, sy)), None) = (largest.get(&r.host), r.ends, &r.broken) else {
                continue;
            };
            if r.network != net {
                continue;
            }
            let t = Some(r.target);
            for s in [sx, sy] {
                consider(Elem::Switch(s), m, r.host, t);
            }
            for &p in &r.path {
                let port = &topo.ports[p];
                consider(Elem::Link(port.link), m, r.host, t);
                for s in port.switches() {
                    consider(Elem::Switch(s), m, r.host, t);
                }
            }
        }
    }
    for (elem, nets) in found {
        out.push(finding(cx, elem, &nets));
    }
    super::targets::port_findings(cx, &RULE, out);
}

/// Every pair of hosts of `net` that reach each other, in order: per
/// cluster, each host with every later host. Quadratic: only for a VLAN
/// that does not forward on a forest.
fn reaching_pairs<'a>(
    cx: &'a Context<'_>,
    net: NetworkId,
) -> impl Iterator<Item = (HostId, HostId)> + 'a {
    cx.reachability()
        .groups()
        .filter(move |g| g.network() == net)
        .flat_map(|g| {
            let m = g.members();
            (0..m.len()).flat_map(move |i| {
                (i + 1..m.len())
                    .filter(move |&j| g.members_reach(i, j))
                    .map(move |j| (m[i], m[j]))
            })
        })
}

/// The don't-fragment pings that prove a path, for the hosts' platforms.
pub(crate) fn ping_advice(design: &Design, hosts: &[HostId], mtu: u32) -> String {
    let size = mtu.saturating_sub(28);
    let windows = hosts.iter().any(|h| design.host(*h).os.value.is_windows());
    let vsphere = hosts.iter().any(|h| design.host(*h).os.value.is_vsphere());
    let mut cmds = Vec::new();
    if windows || !vsphere {
        cmds.push(format!("`ping -f -l {size} <peer address>` from Windows"));
    }
    if vsphere {
        cmds.push(format!("`vmkping -d -s {size} <peer address>` from ESXi"));
    }
    format!(
        "check end to end with don't-fragment pings of {size} bytes (MTU {mtu} minus 20 bytes of IP and 8 of ICMP header): {}",
        cmds.join(", ")
    )
}

/// The largest `mtu` an element can be set to, and why when it is below
/// the format's 9216: a switch's own limit, a link's smaller end's.
fn ceiling(design: &netlint_model::Design, elem: Elem) -> (u32, Option<String>) {
    let switches: Vec<SwitchId> = match elem {
        Elem::Switch(s) | Elem::Port(s, _) => vec![s],
        Elem::Link(l) => {
            let link = design.link(l);
            link.a_ends()
                .chain(link.b.iter())
                .map(|s| s.value)
                .collect()
        }
    };
    let lowest = switches
        .iter()
        .map(|s| design.switch(*s))
        .min_by_key(|sw| sw.max_mtu());
    match lowest.and_then(|sw| Some((sw, sw.lower_mtu_limit()?))) {
        Some((sw, l)) => {
            let why = match l.family() {
                Some(f) => format!("the most `{}`, a {f}, takes", sw.name),
                None => format!("the `max_mtu` of `{}`", sw.name),
            };
            (l.payload, Some(why))
        }
        None => (netlint_model::units::MAX_MTU, None),
    }
}

fn finding(cx: &Context<'_>, elem: Elem, nets: &BTreeMap<NetworkId, TooBig>) -> Diagnostic {
    let design = cx.design;
    // The network with the largest frame leads.
    let (lead_net, lead) = nets
        .iter()
        .max_by(|x, y| {
            let fx = Mtu::frame_for(x.1.payload, design.network(*x.0).tagged());
            let fy = Mtu::frame_for(y.1.payload, design.network(*y.0).tagged());
            fx.cmp(&fy).then(y.0.cmp(x.0))
        })
        .expect("a finding has a network");
    let network = design.network(*lead_net);
    let tagged = network.tagged();
    let (what, name, mtu, element, span, table, container): (
        String,
        String,
        Mtu,
        netlint_model::Element,
        Span,
        TomlPath,
        Span,
    ) = match elem {
        Elem::Port(s, p) => {
            let sw = design.switch(s);
            let port = &sw.ports[p];
            let m = port
                .mtu
                .as_ref()
                .expect("only ports with an MTU are checked");
            (
                format!("switch `{}`'s port", sw.name),
                port.name.clone(),
                m.value,
                sw.element(),
                m.span,
                switch_table(sw).then("ports").then(port.name.as_str()),
                port.span,
            )
        }
        Elem::Switch(s) => {
            let sw = design.switch(s);
            (
                "switch".to_string(),
                sw.name.clone(),
                sw.mtu.value,
                sw.element(),
                sw.mtu.span,
                switch_table(sw),
                sw.span,
            )
        }
        Elem::Link(l) => {
            let link = design.link(l);
            let m = link
                .mtu
                .as_ref()
                .expect("only links with an MTU are checked");
            (
                "link".to_string(),
                link.name.clone(),
                m.value,
                link.element(),
                m.span,
                link_table(link),
                link.span,
            )
        }
    };
    let limit = mtu.payload_limit(tagged);
    let ceiling = ceiling(design, elem);
    let frame = Mtu::frame_for(lead.payload, tagged);
    let tag_words = if tagged { " + 4 VLAN tag" } else { "" };
    let capacity = match mtu.form {
        MtuForm::FrameSize(f) => format!(
            "has `frame_size = {f}`: it forwards frames of at most {f} bytes, so {} packets of at most {limit} bytes",
            if tagged { "802.1Q-tagged" } else { "untagged" }
        ),
        MtuForm::Default => format!(
            "has MTU {} (the default when none is written): it forwards packets of at most {limit} bytes",
            mtu.payload
        ),
        _ => format!("has MTU {}: it forwards packets of at most {limit} bytes", mtu.payload),
    };
    let hosts: Vec<&str> = lead
        .hosts
        .iter()
        .map(|h| design.host(*h).name.as_str())
        .collect();
    let vlan = match network.vlan_id() {
        Some(v) => format!("VLAN {v}"),
        None => "untagged".to_string(),
    };
    let mut message = format!(
        "{what} `{name}` {capacity}, but network `{}` ({vlan}) runs MTU {} ({}): a full-size packet is a {frame}-byte frame ({} + 14 header{tag_words} + 4 FCS), {} bytes more than `{name}` forwards. Jumbo packets through it are dropped silently while small pings work",
        network.name,
        lead.payload,
        host_list(&hosts),
        lead.payload,
        lead.payload - limit,
    );
    if !lead.targets.is_empty() {
        let names: Vec<String> = lead
            .targets
            .iter()
            .map(|t| {
                let target = design.target(*t);
                format!("{} `{}`", target.kind.value.words(), target.name)
            })
            .collect();
        message.push_str(&format!(
            "; it is on the path to {}",
            super::super::stp::and_list(&names)
        ));
    }
    let others: Vec<String> = nets
        .iter()
        .filter(|(n, _)| *n != lead_net)
        .map(|(n, t)| format!("`{}` (MTU {})", design.network(*n).name, t.payload))
        .collect();
    if !others.is_empty() {
        message.push_str(&format!(
            "; network{} {} {} too",
            if others.len() == 1 { "" } else { "s" },
            super::super::stp::and_list(&others),
            if others.len() == 1 {
                "does not fit"
            } else {
                "do not fit"
            }
        ));
    }
    // What to set: enough for the largest frame of every network here.
    let need_payload = nets
        .values()
        .map(|t| t.payload)
        .max()
        .unwrap_or(lead.payload);
    let need_frame = nets
        .iter()
        .map(|(n, t)| Mtu::frame_for(t.payload, design.network(*n).tagged()))
        .max()
        .unwrap_or(frame);
    let frame_size = need_frame.max(Mtu::frame_for(need_payload, true));
    let mtu_value = if need_payload > 1500 {
        need_payload.max(9216).min(ceiling.0.max(need_payload))
    } else {
        need_payload
    };
    let setting = match mtu.form {
        MtuForm::FrameSize(_) => format!(
            "`frame_size = {frame_size}` or more (tagged frames need {} bytes above the packet)",
            FRAME_OVERHEAD + VLAN_TAG
        ),
        _ => format!("`mtu = {mtu_value}`"),
    };
    // The fix: the element's own line to the value the help gives, in the
    // form it was written (`frame_size` stays a frame size), when the
    // element can take it; an element that cannot has no fix.
    let fits = need_payload <= ceiling.0
        && match mtu.form {
            MtuForm::FrameSize(_) => frame_size <= ceiling.0 + FRAME_OVERHEAD + VLAN_TAG,
            _ => mtu_value <= ceiling.0,
        };
    let fix = fits.then(|| {
        let edit = match mtu.form {
            MtuForm::FrameSize(f) => {
                FixEdit::replace(table.then("frame_size"), f, frame_size, span)
            }
            MtuForm::Mtu => FixEdit::replace(table.then("mtu"), mtu.payload, mtu_value, span),
            // Not written: the element's own line.
            MtuForm::Default | MtuForm::JumboPacket(_) => {
                FixEdit::insert(table.then("mtu"), mtu_value, container)
            }
        };
        Fix::safe(format!("set `{edit}`"), vec![edit])
    });
    // A switch's largest MTU (its `max_mtu` or its model's) caps the advice.
    let head = match &ceiling.1 {
        Some(why) if need_payload > ceiling.0 => format!(
            "{what} `{name}` takes at most `mtu = {c}` ({why}), less than the {need_payload}-byte packets need: set `mtu = {c}` on it and lower the MTU of the networks through it to {c} or less",
            c = ceiling.0
        ),
        _ => format!("set {setting} on {what} `{name}`"),
    };
    let all_hosts: Vec<HostId> = nets
        .values()
        .flat_map(|t| t.hosts.iter().copied())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let help = format!(
        "{head}; then {}",
        ping_advice(design, &all_hosts, lead.payload)
    );
    let sender = &lead.sender;
    cx.finding(&RULE, element, span, message)
        .with_help(help)
        .with_related(sender.span, sender.sends(design))
        .with_fix(fix)
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const STORAGE: &str = r#"
[design]
name = "t"
[networks.smb]
role = "storage"
protocol = "smb"
VLAN
mtu = 9000
[switches.storage-sw]
SWITCH_MTU
[hosts.hv1.nics.P1]
speed = "10G"
switch = "storage-sw"
mtu = 9000
networks = ["smb"]
[hosts.hv2.nics.P1]
speed = "10G"
switch = "storage-sw"
mtu = 9000
networks = ["smb"]
"#;

    fn run(vlan: &str, sw: &str) -> Vec<netlint_model::Diagnostic> {
        findings(
            &STORAGE.replace("VLAN", vlan).replace("SWITCH_MTU", sw),
            &super::RULE,
        )
    }

    #[test]
    fn frame_size_9018_cannot_carry_a_tagged_9000_byte_packet() {
        let f = run("vlan = 40", "frame_size = 9018");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "switches.storage-sw");
        let m = &f[0].message;
        assert!(m.starts_with("switch `storage-sw` has `frame_size = 9018`: it forwards frames of at most 9018 bytes, so 802.1Q-tagged packets of at most 8996 bytes"), "{m}");
        assert!(m.contains("network `smb` (VLAN 40) runs MTU 9000 (hosts `hv1`, `hv2`): a full-size packet is a 9022-byte frame (9000 + 14 header + 4 VLAN tag + 4 FCS), 4 bytes more"), "{m}");
        let help = f[0].help.as_deref().unwrap();
        assert!(
            help.starts_with("set `frame_size = 9022` or more"),
            "{help}"
        );
        assert!(
            help.contains("`ping -f -l 8972 <peer address>` from Windows"),
            "{help}"
        );
        assert!(!help.contains("vmkping"), "{help}");
        assert_eq!(
            f[0].related[0].message,
            "`hv1` sends 9000-byte packets on NIC `P1`"
        );
    }

    #[test]
    fn the_same_switch_carries_the_packet_untagged() {
        assert!(run("", "frame_size = 9018").is_empty());
    }

    #[test]
    fn a_default_switch_mtu_is_1500() {
        let f = run("vlan = 40", "");
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message
                .contains("has MTU 1500 (the default when none is written)"),
            "{}",
            f[0].message
        );
        assert!(f[0]
            .help
            .as_deref()
            .unwrap()
            .starts_with("set `mtu = 9216` on switch `storage-sw`"));
    }

    #[test]
    fn the_advice_stays_within_the_switch_model() {
        // A Catalyst 2960-X takes at most 9198: that, not 9216, is advised.
        let f = run("vlan = 40", "model = \"Cisco Catalyst 2960-X\"");
        assert_eq!(f.len(), 1);
        let help = f[0].help.as_deref().unwrap();
        assert!(
            help.starts_with("set `mtu = 9198` on switch `storage-sw`"),
            "{help}"
        );
        // A stated `max_mtu` likewise.
        let f = run("vlan = 40", "max_mtu = 9100");
        assert!(f[0]
            .help
            .as_deref()
            .unwrap()
            .starts_with("set `mtu = 9100` on switch `storage-sw`"));
        // Packets larger than the switch takes at all: say so.
        let f = run("vlan = 40", "max_mtu = 8000\nmtu = 8000");
        assert_eq!(f.len(), 1);
        let help = f[0].help.as_deref().unwrap();
        assert!(help.starts_with("switch `storage-sw` takes at most `mtu = 8000` (the `max_mtu` of `storage-sw`), less than the 9000-byte packets need: set `mtu = 8000` on it and lower the MTU of the networks through it to 8000 or less"), "{help}");
    }

    #[test]
    fn a_jumbo_switch_is_fine() {
        assert!(run("vlan = 40", "mtu = 9216").is_empty());
        assert!(run("vlan = 40", "frame_size = 9022").is_empty());
    }

    #[test]
    fn links_and_switches_on_the_path_count_and_vmkping_for_esxi() {
        let src = r#"
[design]
name = "t"
platform = "vsphere-7"
[networks.vmotion]
role = "live-migration"
vlan = 30
mtu = 9000
[switches.a]
mtu = 9216
[switches.b]
mtu = 9216
[switches.mid]
mtu = 9216
[[links]]
name = "a-mid"
a = "a"
b = "mid"
speed = "10G"
mtu = 1500
[[links]]
name = "mid-b"
a = "mid"
b = "b"
speed = "10G"
[hosts.esx1.nics.vmnic0]
speed = "10G"
switch = "a"
mtu = 9000
networks = ["vmotion"]
[hosts.esx2.nics.vmnic0]
speed = "10G"
switch = "b"
mtu = 9000
networks = ["vmotion"]
"#;
        let f = findings(src, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "links.a-mid");
        assert!(f[0]
            .help
            .as_deref()
            .unwrap()
            .contains("`vmkping -d -s 8972 <peer address>` from ESXi"));
    }

    /// A configured host port with a smaller MTU than its switch drops
    /// the jumbo frames of the host on it and of the hosts sending to it:
    /// the finding is at the port's `mtu`.
    #[test]
    fn a_host_port_with_a_smaller_mtu_is_reported_at_its_line() {
        let src = r#"
[design]
name = "t"
[networks.csv]
role = "csv"
vlan = 20
mtu = 9000
[switches.tor]
mtu = 9216
[switches.tor.ports."Ethernet1/5"]
mtu = 1500
[profiles.p.nics.A]
speed = "10G"
switch = "tor"
mtu = 9000
networks = ["csv"]
[hosts.hv1]
profile = "p"
nics.A = { switch_port = "Ethernet1/5" }
[hosts.hv2]
profile = "p"
"#;
        let f = findings(src, "mtu-path-too-small");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.starts_with("switch `tor`'s port `Ethernet1/5` has MTU 1500: it forwards packets of at most 1500 bytes, but network `csv` (VLAN 20) runs MTU 9000 (hosts `hv1`, `hv2`)"),
            "{}",
            f[0].message
        );
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert!(src[at..].starts_with("1500\n[profiles"), "{}", &src[at..]);
        // A port that takes jumbo frames, or one without its own MTU: silent.
        for port in ["mtu = 9216", ""] {
            let ok = src.replace("mtu = 1500", port);
            assert!(findings(&ok, "mtu-path-too-small").is_empty(), "{port}");
        }
    }

    /// Deciding per element by the classes' components finds what walking
    /// every pair that reaches finds, word for word (hosts, first sender,
    /// networks), on random designs with small MTUs on switches, links and
    /// configured ports, MLAG pairs, loops without spanning tree, direct
    /// cables and uncabled NICs.
    #[test]
    fn components_decide_as_the_pairs_do() {
        crate::testing::shortcut_matches_exhaustive(super::check_with);
    }
}
