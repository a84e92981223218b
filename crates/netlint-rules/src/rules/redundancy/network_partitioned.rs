//! `network-partitioned`: in the healthy state two hosts of one cluster
//! cannot reach each other on a network both are attached to.

use crate::phrases::failure::host_list;
use crate::phrases::ports;
use crate::rules::fix_at::{link_vlans_plus, switch_table, vlans_plus};
use crate::{declare_rule, Context};
use netlint_analysis::{Break, BridgeId, ClassPair, NotCarried, Reach, Topology, Which};
use netlint_model::fast_hash::Map as HashMap;
use netlint_model::Element;
use netlint_model::{Design, Diagnostic, Fix, HostId, NetworkId, NicIdx, Span};
use std::collections::BTreeSet;

declare_rule!(
    RULE,
    id: "network-partitioned",
    category: "redundancy",
    severity: Error,
    summary: "In the healthy state two hosts of one cluster cannot reach each other on a network both are attached to.",
    check: check,
);

/// What the first break says, where it is, and how to fix it.
pub(super) struct Cause {
    pub(super) text: String,
    pub(super) element: Element,
    pub(super) span: Span,
    pub(super) related: Vec<(Span, String)>,
    pub(super) help: String,
}

/// The VLAN a network's frames are in on the switches, in words:
/// "VLAN 20", "untagged traffic", or for an untagged network whose hosts'
/// ports put it in a native VLAN, "VLAN 10 (the native VLAN its untagged
/// frames land in)".
pub(super) fn vlan_text(design: &Design, net: NetworkId, landed: Option<u16>) -> String {
    match (design.network(net).vlan_id(), landed) {
        (Some(v), _) => format!("VLAN {v}"),
        (None, Some(v)) => format!("VLAN {v} (the native VLAN its untagged frames land in)"),
        (None, None) => "untagged traffic".to_string(),
    }
}

/// The bridge a host reaches the network on (its first cabled NIC).
fn host_bridge(topo: &Topology, host: HostId, net: NetworkId) -> Option<BridgeId> {
    topo.carriers_of(host, net)
        .flat_map(|c| c.active.iter())
        .find_map(|n| match topo.nic_ends[host.0][n.0] {
            Some(netlint_analysis::NicEnd::Switch(s)) => Some(topo.bridge_of[s.0]),
            _ => None,
        })
}

/// The NIC's cable, as a related line: "`A` of `hv1` is cabled to it".
fn cabled_to_it(h: &netlint_model::Host, n: &netlint_model::Nic) -> Vec<(Span, String)> {
    n.attach
        .iter()
        .map(|a| {
            (
                a.span(),
                format!("`{}` of `{}` is cabled to it", n.name, h.name),
            )
        })
        .collect()
}

/// The cause of a break between the bridges `ends` (the first bridge of
/// each side, for "on the path between ..."); `landed`: the VLAN the
/// network's untagged frames land in at the first host's port.
pub(super) fn cause(
    design: &Design,
    topo: &Topology,
    net: NetworkId,
    ends: (Option<BridgeId>, Option<BridgeId>),
    landed: Option<u16>,
    b: &Break,
) -> Option<Cause> {
    let vid = design.network(net).vlan_id();
    let vlan = vlan_text(design, net, landed);
    // The VLAN to add where the frames are not carried.
    let add = landed.unwrap_or(0);
    let bridge = |x: netlint_analysis::BridgeId| format!("`{}`", topo.bridge(x).name);
    Some(match b {
        Break::Blocked { .. } => return None,
        Break::NoAdapter { host } => {
            let h = design.host(*host);
            Cause {
                text: format!("host `{}` has no active adapter for it", h.name),
                element: h.element(),
                span: h.span,
                related: Vec::new(),
                help: "make at least one member of the team or virtual switch carrying it active (not standby)".to_string(),
            }
        }
        Break::NotCabled { host, nic } => {
            let h = design.host(*host);
            let n = h.nic(*nic);
            Cause {
                text: format!(
                    "`{}`'s NIC `{}` carries it but is not cabled (no `switch` or `peer`)",
                    h.name, n.name
                ),
                element: Element::nic(&h.name, &n.name),
                span: n.span,
                related: Vec::new(),
                help: format!("set `switch` (or `peer`) on NIC `{}`", n.name),
            }
        }
        Break::HostSwitchLacksVlan { host, nic, switch } => {
            let h = design.host(*host);
            let n = h.nic(*nic);
            let sw = design.switch(*switch);
            let related = cabled_to_it(h, n);
            Cause {
                text: format!(
                    "`{}`'s NIC `{}` is cabled to `{}`, which does not define {vlan}",
                    h.name, n.name, sw.name
                ),
                element: sw.element(),
                span: sw.vlans.as_ref().map(|v| v.span).unwrap_or(sw.span),
                related,
                help: format!(
                    "add {} to `vlans` of switch `{}`",
                    add,
                    sw.name
                ),
            }
        }
        Break::PortDrops {
            host,
            nic,
            switch,
            why,
        } => {
            let h = design.host(*host);
            let n = h.nic(*nic);
            let words = ports::drop_words(design, *host, *nic, vid, *why);
            let related = cabled_to_it(h, n);
            Cause {
                text: format!(
                    "`{}`'s NIC `{}` is cabled to {}, which {}",
                    h.name,
                    n.name,
                    ports::port_name(design, *host, *nic),
                    words.clause
                ),
                element: design.switch(*switch).element(),
                span: words.span,
                related,
                help: words.help,
            }
        }
        Break::VlansApart { a, b } => {
            // Blame the end whose frames left the network's own VLAN.
            let (x, y) = if a.vlan != vid { (a, b) } else { (b, a) };
            let end = |e: &netlint_analysis::l2::ports::PortEnd| {
                let h = design.host(e.host);
                format!(
                    "`{}`'s NIC `{}` on {}",
                    h.name,
                    h.nic(e.nic).name,
                    ports::port_name(design, e.host, e.nic)
                )
            };
            let span_of = |e: &netlint_analysis::l2::ports::PortEnd| {
                let n = design.host(e.host).nic(e.nic);
                netlint_model::HostPortView::of(design, n)
                    .map(|v| v.deciding_span(vid))
                    .unwrap_or(n.span)
            };
            Cause {
                text: format!(
                    "its frames land in different VLANs on the switches: {} puts them in {}, {} in {}",
                    end(x),
                    ports::landing_words(x.vlan),
                    end(y),
                    ports::landing_words(y.vlan)
                ),
                element: design.switch(x.switch).element(),
                span: span_of(x),
                related: vec![(span_of(y), end(y))],
                help: format!(
                    "give both ports the same native VLAN (`native_vlan`, or `access_vlan` on an access port), or tag the network (`vlan` on network `{}`) and allow its VLAN on both ports",
                    design.network(net).name
                ),
            }
        }
        Break::PeerElsewhere { host, nic } => {
            let h = design.host(*host);
            let n = h.nic(*nic);
            Cause {
                text: format!(
                    "`{}`'s NIC `{}` is cabled directly to another host, so it cannot reach the others",
                    h.name, n.name
                ),
                element: Element::nic(&h.name, &n.name),
                span: n.attach.as_ref().map(|a| a.span()).unwrap_or(n.span),
                related: Vec::new(),
                help: "cable the NIC to a switch, or carry the network on NICs that reach every host".to_string(),
            }
        }
        Break::NoPath { from, to } => {
            let network = design.network(net);
            Cause {
                text: format!("no link joins {} and {}", bridge(*from), bridge(*to)),
                element: network.element(),
                span: network.span,
                related: Vec::new(),
                help: format!(
                    "add a link between {} and {} (or their uplinks) that allows {vlan}",
                    bridge(*from),
                    bridge(*to)
                ),
            }
        }
        Break::PeerLink {
            bridge: domain,
            from,
            to,
            link,
        } => peer_link_cause(
            design,
            (&vlan, add),
            *link,
            format!(
                "traffic between `{}` and `{}` (ports of different peers of MLAG domain {}, not in one multi-chassis LAG) crosses",
                design.switch(*from).name,
                design.switch(*to).name,
                bridge(*domain),
            ),
            (*from, *to),
            Vec::new(),
        ),
        Break::NotCarried { port, why } => {
            let p = &topo.ports[*port];
            let link = design.link(p.link);
            let between = match ends {
                (Some(x), Some(y)) if x != y => {
                    let (x, y) = if x <= y { (x, y) } else { (y, x) };
                    format!("between {} and {}", bridge(x), bridge(y))
                }
                // Towards one end only (a storage target's switch).
                (None, Some(y)) => format!("to {}", bridge(y)),
                _ => "between the hosts' switches".to_string(),
            };
            match why {
                NotCarried::NotAllowed | NotCarried::Down => Cause {
                    text: format!(
                        "link `{}`, on the path {between}, does not allow {vlan}",
                        link.name
                    ),
                    element: link.element(),
                    span: link.vlans.as_ref().map(|v| v.span).unwrap_or(link.span),
                    related: Vec::new(),
                    help: format!(
                        "add {} to `vlans` of link `{}` (or remove the list to allow every VLAN both ends define)",
                        add,
                        link.name
                    ),
                },
                NotCarried::PeerLink { from, to, link: pl } => peer_link_cause(
                    design,
                    (&vlan, add),
                    *pl,
                    format!(
                        "multi-chassis LAG `{}` ends on peers `{}` and `{}`; frames that arrive on the peer without the destination cross",
                        link.name,
                        design.switch(*from).name,
                        design.switch(*to).name,
                    ),
                    (*from, *to),
                    vec![(
                        link.span,
                        format!("multi-chassis LAG `{}` carries {vlan}", link.name),
                    )],
                ),
                NotCarried::NotDefined(s) => {
                    let sw = design.switch(*s);
                    Cause {
                        text: format!(
                            "switch `{}`, on the path {between}, does not define {vlan}",
                            sw.name
                        ),
                        element: sw.element(),
                        span: sw.vlans.as_ref().map(|v| v.span).unwrap_or(sw.span),
                        related: vec![(link.span, format!("link `{}` leads through it", link.name))],
                        help: format!(
                            "add {} to `vlans` of switch `{}`",
                            add,
                            sw.name
                        ),
                    }
                }
            }
        }
    })
}

/// A cut at an MLAG peer-link that does not carry the VLAN: `crossing`
/// says which traffic has to cross it (it ends with "crosses").
fn peer_link_cause(
    design: &Design,
    (vlan, vid): (&str, u16),
    link: Option<netlint_model::LinkId>,
    crossing: String,
    (from, to): (netlint_model::SwitchId, netlint_model::SwitchId),
    related: Vec<(Span, String)>,
) -> Cause {
    let why = "ports of different peers that are not in one multi-chassis LAG (orphan ports: SET, switch-independent and vSphere team members, single links to one peer) reach each other only across it";
    match link.map(|l| design.link(l)) {
        Some(pl) => Cause {
            text: format!(
                "{crossing} peer-link `{}`, which does not allow {vlan}",
                pl.name
            ),
            element: pl.element(),
            span: pl.vlans.as_ref().map(|v| v.span).unwrap_or(pl.span),
            related,
            help: format!(
                "add {vid} to `vlans` of peer-link `{}` (or remove the list): {why}",
                pl.name
            ),
        },
        None => {
            let sw = design.switch(from);
            Cause {
                text: format!(
                    "{crossing} between the peers, and no link joins `{}` and `{}` that carries {vlan}",
                    sw.name,
                    design.switch(to).name
                ),
                element: sw.element(),
                span: sw.mlag.as_ref().map(|m| m.span).unwrap_or(sw.span),
                related,
                help: format!(
                    "add a peer-link between `{}` and `{}` that allows {vid}: {why}",
                    sw.name,
                    design.switch(to).name
                ),
            }
        }
    }
}

/// One cut: the network, the element and span to blame, why, the parts
/// of class pairs whose host pairs it separates, and, for a host switch
/// that does not define the VLAN, every NIC cabled to it that this cuts
/// off (one cause, one finding: issue 34 item 10).
struct Cut<'r> {
    net: NetworkId,
    element: Element,
    span: Span,
    cause: Cause,
    parts: Vec<ClassPair<'r>>,
    lacking: Option<Lacking>,
    fix: Option<Fix>,
}

/// The edit that adds the network's VLAN `add` where the break says it is
/// missing: a switch's `vlans`, a link's (or each end's) allowed list, a
/// peer-link's. Safe: `--fix` applies it only when, made to a copy, the
/// network is whole again and nothing new fires (one place makes it
/// whole); `None` for a break no VLAN list mends.
fn vlan_fix(design: &Design, topo: &Topology, b: &Break, add: u16) -> Option<Fix> {
    if add == 0 {
        return None;
    }
    let switch_fix = |s: netlint_model::SwitchId| {
        let sw = design.switch(s);
        let list = sw.vlans.as_ref()?;
        let edit = vlans_plus(design, switch_table(sw).then("vlans"), list, [add])?;
        Some(Fix::safe(
            format!("add VLAN {add} to `vlans` of switch `{}`", sw.name),
            vec![edit],
        ))
    };
    let link_fix = |l: netlint_model::LinkId| {
        let link = design.link(l);
        let edits = link_vlans_plus(design, link, &[add]);
        (!edits.is_empty())
            .then(|| Fix::safe(format!("allow VLAN {add} on link `{}`", link.name), edits))
    };
    match b {
        Break::HostSwitchLacksVlan { switch, .. } => switch_fix(*switch),
        Break::NotCarried { port, why } => match why {
            NotCarried::NotAllowed => link_fix(topo.ports[*port].link),
            NotCarried::NotDefined(s) => switch_fix(*s),
            NotCarried::PeerLink { link: Some(pl), .. } => link_fix(*pl),
            _ => None,
        },
        Break::PeerLink { link: Some(pl), .. } => link_fix(*pl),
        _ => None,
    }
}

/// A host switch that does not define a network's VLAN, and the NICs
/// cabled to it that carry the network (found once the cut's pairs are
/// all known).
struct Lacking {
    switch: netlint_model::SwitchId,
    vlan: String,
    nics: Vec<(HostId, NicIdx)>,
}

impl Lacking {
    /// "`node1`'s NIC `B` is" / "NIC `B` of `node1` to `node4` is" /
    /// "NICs `B` of `node1` and `C` of `node2` are", cabled to the switch.
    fn text(&self, design: &Design) -> String {
        let sw = &design.switch(self.switch).name;
        let names: BTreeSet<&str> = self
            .nics
            .iter()
            .map(|(h, n)| design.host(*h).nic(*n).name.as_str())
            .collect();
        let hosts: Vec<HostId> = self.nics.iter().map(|(h, _)| *h).collect();
        let nics = match (names.iter().next(), names.len(), hosts.as_slice()) {
            (Some(n), 1, [h]) => format!("`{}`'s NIC `{n}` is", design.host(*h).name),
            (Some(n), 1, _) => format!("NIC `{n}` of {} is", host_list(design, &hosts)),
            _ => {
                let each: Vec<String> = self
                    .nics
                    .iter()
                    .map(|(h, n)| {
                        let h = design.host(*h);
                        format!("`{}` of `{}`", h.nic(*n).name, h.name)
                    })
                    .collect();
                format!("NICs {} are", crate::phrases::words::and_list(&each))
            }
        };
        format!(
            "{nics} cabled to `{sw}`, which does not define {}",
            self.vlan
        )
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let design = cx.design;
    let topo = cx.topology();
    let fwd = cx.forwarding();
    let reach = cx.reachability();
    // Decided per part of a broken pair of host classes (split where the
    // break names a host): its pairs share the cause. Only the class pairs
    // that do not reach are listed and walked. In the order of the pairs.
    let broken = reach.class_pairs(Which::Broken, None);
    let walks: Vec<Reach> = broken.iter().map(|cp| cp.walk(design, topo, fwd)).collect();
    let mut parts: Vec<(ClassPair<'_>, &Reach)> = broken
        .iter()
        .zip(&walks)
        .flat_map(|(cp, w)| cp.by_named_host(w).into_iter().map(move |p| (p, w)))
        .collect();
    parts.sort_by_key(|(p, _)| p.order());
    // (network, element, span, text) -> index of its cause and pairs, in
    // the order first met.
    let mut keys: HashMap<(NetworkId, Element, Span, String), usize> = HashMap::default();
    let mut cuts: Vec<Cut<'_>> = Vec::new();
    // A switch that lacks the VLAN is one cause for every NIC on it.
    let mut lacking: HashMap<(NetworkId, netlint_model::SwitchId), usize> = HashMap::default();
    for (part, walked) in parts {
        let r = part.reach(walked);
        let Some(b) = &r.broken else { continue };
        let ends = (
            host_bridge(topo, r.a, r.network),
            host_bridge(topo, r.b, r.network),
        );
        let landed = netlint_analysis::l2::ports::host_vlan(design, topo, r.network, r.a);
        let Some(c) = cause(design, topo, r.network, ends, landed, b) else {
            continue;
        };
        let add = design.network(r.network).vlan_id().or(landed).unwrap_or(0);
        if let Break::HostSwitchLacksVlan { switch, .. } = b {
            let i = *lacking.entry((r.network, *switch)).or_insert_with(|| {
                cuts.push(Cut {
                    net: r.network,
                    element: c.element.clone(),
                    span: c.span,
                    lacking: Some(Lacking {
                        switch: *switch,
                        vlan: vlan_text(design, r.network, landed),
                        nics: Vec::new(),
                    }),
                    cause: c,
                    parts: Vec::new(),
                    fix: vlan_fix(design, topo, b, add),
                });
                cuts.len() - 1
            });
            cuts[i].parts.push(part);
            continue;
        }
        let key = (r.network, c.element.clone(), c.span, c.text.clone());
        match keys.get(&key) {
            Some(&i) => cuts[i].parts.push(part),
            None => {
                keys.insert(key, cuts.len());
                cuts.push(Cut {
                    net: r.network,
                    element: c.element.clone(),
                    span: c.span,
                    cause: c,
                    parts: vec![part],
                    lacking: None,
                    fix: vlan_fix(design, topo, b, add),
                });
            }
        }
    }
    for cut in cuts {
        let Cut {
            net,
            element,
            span,
            cause: mut c,
            parts,
            mut lacking,
            fix,
        } = cut;
        if let Some(l) = &mut lacking {
            // Every NIC of the cut hosts that carries the network into the
            // switch (a pair's break names one host of its two), in design order,
            // and their cables, one label per line (a profile's NIC is one
            // line for all its hosts).
            for p in &parts {
                for h in p.firsts().chain(p.seconds()) {
                    for c in topo.carriers_of(h, net) {
                        for n in &c.active {
                            let on = matches!(
                                topo.nic_ends[h.0][n.0],
                                Some(netlint_analysis::NicEnd::Switch(s)) if s == l.switch
                            );
                            if on && !l.nics.contains(&(h, *n)) {
                                l.nics.push((h, *n));
                            }
                        }
                    }
                }
            }
            l.nics.sort_unstable();
            c.text = l.text(design);
            let mut by_line: Vec<(Span, String, Vec<HostId>)> = Vec::new();
            for (h, n) in &l.nics {
                let nic = design.host(*h).nic(*n);
                if let Some(a) = &nic.attach {
                    match by_line.iter_mut().find(|(s, _, _)| *s == a.span()) {
                        Some(e) => e.2.push(*h),
                        None => by_line.push((a.span(), nic.name.clone(), vec![*h])),
                    }
                }
            }
            c.related = by_line
                .into_iter()
                .map(|(span, nic, hosts)| {
                    (
                        span,
                        format!("`{nic}` of {} is cabled to it", host_list(design, &hosts)),
                    )
                })
                .collect();
        }
        let hosts: BTreeSet<HostId> = parts
            .iter()
            .flat_map(|p| p.firsts().chain(p.seconds()))
            .collect();
        // Who still reaches whom among them: by the classes' components.
        let groups = reach.reach_groups(net, &hosts);
        let name = &design.network(net).name;
        let between = match groups.as_slice() {
            [a, b] => format!(
                "{} cannot reach {}",
                host_list(design, a),
                host_list(design, b)
            ),
            _ => format!(
                "it falls apart into {}",
                groups
                    .iter()
                    .map(|g| host_list(design, g))
                    .collect::<Vec<_>>()
                    .join(" | ")
            ),
        };
        let mut d = cx
            .finding(
                &RULE,
                element,
                span,
                format!("network `{name}` is cut: {between}; {}", c.text),
            )
            .with_help(c.help);
        for (s, l) in c.related {
            d = d.with_related(s, l);
        }
        out.push(d.with_fix(fix));
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const SRC: &str = r#"
[design]
name = "t"
[networks.csv]
role = "csv"
vlan = 20
[switches.tor-a]
stp = { mode = "rstp", priority = 4096 }
[switches.tor-b]
VLANS
[[links]]
name = "isl"
a = "tor-a"
b = "tor-b"
speed = "10G"
members = 2
LINKVLANS
[hosts.h1.nics.A]
speed = "10G"
switch = "tor-a"
networks = ["csv"]
[hosts.h2.nics.A]
speed = "10G"
switch = "tor-a"
networks = ["csv"]
[hosts.h3.nics.A]
speed = "10G"
switch = "tor-b"
networks = ["csv"]
"#;

    fn src(vlans: &str, link: &str) -> String {
        SRC.replace("LINKVLANS", link).replace("VLANS", vlans)
    }

    /// Issue 35: a VLAN missing on one trunk or one switch is added there
    /// by a safe fix (`--fix` applies it once the network is whole again).
    #[test]
    fn the_missing_vlan_is_added_where_it_is_missing() {
        let f = findings(&src("", "vlans = [10]"), &super::RULE);
        let fix = f[0].fix.as_ref().expect("a fix");
        assert_eq!(fix.safety, netlint_model::FixSafety::Safe);
        assert_eq!(fix.edits[0].path.to_string(), "links[0].vlans");
        assert_eq!(fix.edits[0].new.as_ref().unwrap().to_string(), "[10, 20]");
        let f = findings(&src("vlans = [10]", ""), &super::RULE);
        let fix = f[0].fix.as_ref().expect("a fix");
        assert_eq!(fix.edits[0].path.to_string(), "switches.tor-b.vlans");
        assert_eq!(fix.edits[0].new.as_ref().unwrap().to_string(), "[10, 20]");
    }

    #[test]
    fn a_trunk_that_does_not_allow_the_vlan_cuts_the_network() {
        let f = findings(&src("", "vlans = [10]"), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "links.isl");
        assert_eq!(
            f[0].message,
            "network `csv` is cut: `h1`, `h2` cannot reach `h3`; link `isl`, on the path between `tor-a` and `tor-b`, does not allow VLAN 20"
        );
        assert!(f[0]
            .help
            .as_deref()
            .unwrap()
            .contains("add 20 to `vlans` of link `isl`"));
    }

    #[test]
    fn a_host_switch_without_the_vlan_names_the_switch() {
        let f = findings(&src("vlans = [10]", ""), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "switches.tor-b");
        assert!(
            f[0].message
                .ends_with("`h3`'s NIC `A` is cabled to `tor-b`, which does not define VLAN 20"),
            "{}",
            f[0].message
        );
        assert_eq!(f[0].related.len(), 1);
    }

    /// Issue 34 item 10: Azure Local switched storage, every node's `smb2`
    /// NIC on TOR2, which lacks VLAN 712: one cause, one finding, naming
    /// the switch, the VLAN and every node it cuts off (three overlapping
    /// findings before).
    #[test]
    fn a_storage_vlan_missing_on_one_tor_is_one_finding_naming_every_node() {
        let src = super::super::test_designs::SWITCHED_STORAGE.replace("TOR2_VLANS", "[711]");
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "switches.TOR2");
        assert_eq!(
            f[0].message,
            "network `smb2` is cut: it falls apart into `node1` | `node2` | `node3` | `node4`; NIC `B` of `node1` to `node4` is cabled to `TOR2`, which does not define VLAN 712"
        );
        // The profile's NIC line once, for every node.
        assert_eq!(f[0].related.len(), 1, "{:#?}", f[0].related);
        assert_eq!(
            f[0].related[0].message,
            "`B` of `node1` to `node4` is cabled to it"
        );
        assert!(f[0]
            .help
            .as_deref()
            .unwrap()
            .contains("add 712 to `vlans` of switch `TOR2`"));
    }

    #[test]
    fn an_uncabled_nic_is_a_partition() {
        let s = src("", "").replace(
            "[hosts.h3.nics.A]\nspeed = \"10G\"\nswitch = \"tor-b\"",
            "[hosts.h3.nics.A]\nspeed = \"10G\"",
        );
        let f = findings(&s, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "hosts.h3.nics.A");
    }

    /// SET hosts with one uplink on each peer of an MLAG pair: every vNIC
    /// is an orphan port behind one peer or the other.
    const SET_ON_VPC: &str = r#"
[design]
name = "t"
platform = "windows-server-2022"
[networks.mgmt]
role = "management"
vlan = 10
[networks.csv]
role = "csv"
vlan = 20
[networks.lm]
role = "live-migration"
vlan = 30
[switches.a]
mlag = "vpc10"
[switches.b]
mlag = "vpc10"
[[links]]
name = "vpc-peer"
a = "a"
b = "b"
kind = "peer-link"
speed = "100G"
members = 2
PEER
[profiles.p.nics.N1]
speed = "25G"
switch = "a"
[profiles.p.nics.N2]
speed = "25G"
switch = "b"
[profiles.p.vswitches.S]
uplinks = ["N1", "N2"]
[profiles.p.vswitches.S.vnics.Mgmt]
network = "mgmt"
[profiles.p.vswitches.S.vnics.CSV]
network = "csv"
[profiles.p.vswitches.S.vnics.LM]
network = "lm"
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
"#;

    #[test]
    fn a_peer_link_without_the_vlans_cuts_set_hosts_at_its_vlans_line() {
        let src = SET_ON_VPC.replace("PEER", "vlans = [10, 100]");
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 2, "{f:#?}");
        let line = src.lines().position(|l| l == "vlans = [10, 100]").unwrap() + 1;
        for (d, (net, vlan)) in f.iter().zip([("csv", 20), ("lm", 30)]) {
            assert_eq!(d.element(), "links.vpc-peer");
            assert_eq!(
                d.message,
                format!("network `{net}` is cut: `hv1` cannot reach `hv2`; traffic between `a` and `b` (ports of different peers of MLAG domain `vpc10`, not in one multi-chassis LAG) crosses peer-link `vpc-peer`, which does not allow VLAN {vlan}")
            );
            let primary = d.primary.as_ref().unwrap().span;
            let file = netlint_model::SourceFile::new("test.toml", &src);
            assert_eq!(file.line_col(primary.start).line, line);
            assert!(d
                .help
                .as_deref()
                .unwrap()
                .starts_with(&format!("add {vlan} to `vlans` of peer-link `vpc-peer`")));
        }
    }

    #[test]
    fn a_peer_link_with_every_vlan_is_silent() {
        for peer in ["", "vlans = [10, 20, 30]"] {
            let f = findings(&SET_ON_VPC.replace("PEER", peer), &super::RULE);
            assert!(f.is_empty(), "{peer}: {f:#?}");
        }
    }

    #[test]
    fn a_healthy_network_is_silent() {
        assert!(findings(&src("", ""), &super::RULE).is_empty());
    }

    #[test]
    fn a_spanning_tree_block_is_left_to_stp_vlan_partition() {
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../tests/data/reference/rstp-blocks-isl.toml"),
        )
        .expect("the reference design rstp-blocks-isl.toml");
        assert!(findings(&text, &super::RULE).is_empty());
    }

    const PORTS: &str = r#"
[design]
name = "t"
[networks.storage]
role = "storage"
protocol = "smb"
vlan = 711
[networks.mgmt]
role = "management"
[switches.tor]
[switches.tor.ports."Ethernet1/5"]
vlans = [711]
[switches.tor.ports."Ethernet1/6"]
vlans = [10]
native_vlan = 10
[hosts.hv1.nics.A]
speed = "10G"
switch = "tor"
switch_port = "Ethernet1/5"
networks = ["storage", "mgmt"]
[hosts.hv2.nics.A]
speed = "10G"
switch = "tor"
switch_port = "Ethernet1/6"
networks = ["storage", "mgmt"]
"#;

    /// A host whose port lacks the storage VLAN is cut at the port's
    /// `vlans` line (not the switch's); one whose port puts its untagged
    /// management in another VLAN, at the port's `native_vlan`.
    #[test]
    fn a_port_that_drops_or_moves_a_network_is_the_line_to_fix() {
        let f = findings(PORTS, "network-partitioned");
        assert_eq!(f.len(), 2, "{f:#?}");
        let storage = f.iter().find(|d| d.message.contains("`storage`")).unwrap();
        assert!(
            storage.message.ends_with("`hv2`'s NIC `A` is cabled to port `Ethernet1/6` of `tor`, which does not allow VLAN 711"),
            "{}",
            storage.message
        );
        let at = storage.primary.as_ref().unwrap().span.start;
        assert!(
            PORTS[at..].starts_with("[10]\nnative_vlan"),
            "{}",
            &PORTS[at..]
        );
        assert_eq!(storage.element(), "switches.tor");
        assert!(storage
            .help
            .as_deref()
            .unwrap()
            .starts_with("add 711 to `vlans` of port `Ethernet1/6` of switch `tor`"));
        let mgmt = f.iter().find(|d| d.message.contains("`mgmt`")).unwrap();
        assert!(
            mgmt.message.contains("`hv2`'s NIC `A` on port `Ethernet1/6` of `tor` puts them in VLAN 10, `hv1`'s NIC `A` on port `Ethernet1/5` of `tor` in the switch's default native VLAN"),
            "{}",
            mgmt.message
        );
        let at = mgmt.primary.as_ref().unwrap().span.start;
        assert!(PORTS[at..].starts_with("10\n[hosts"), "{}", &PORTS[at..]);
    }

    /// Untagged management landing in the hosts' native VLAN 20 needs VLAN
    /// 20 on the link between their switches: the finding names VLAN 20,
    /// not "untagged traffic", and the fix adds 20.
    #[test]
    fn a_link_without_the_native_vlan_is_named_by_that_vlan() {
        let src = r#"
[design]
name = "t"
[networks.mgmt]
role = "management"
[switches.tor-a]
host_ports = { native_vlan = 20 }
[switches.tor-b]
host_ports = { native_vlan = 20 }
[[links]]
name = "isl"
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
        let f = findings(src, "network-partitioned");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.ends_with("link `isl`, on the path between `tor-a` and `tor-b`, does not allow VLAN 20 (the native VLAN its untagged frames land in)"),
            "{}",
            f[0].message
        );
        assert!(f[0]
            .help
            .as_deref()
            .unwrap()
            .starts_with("add 20 to `vlans` of link `isl`"));
    }
}
