//! The words of the failure analysis: units, requirements, host lists,
//! why a carrier or a host lost a requirement, and the consequence of a
//! loss. The analysis (`netlint_analysis::failure`) returns the facts.

use super::words::host_runs;
use netlint_analysis::failure::{
    CarrierChange, CarrierLoss, HostLoss, Loss, NicCause, Requirement, Unit, UnitNameError,
};
use netlint_analysis::{BridgeId, BridgeKind, Topology, Via};
use netlint_model::{
    Design, Element, HostId, HostListStyle, HostWords, NetworkId, NicIdx, Span, SwitchId, Uplink,
};

/// A failure unit in words.
pub trait UnitWords {
    fn describe(&self, design: &Design, topo: &Topology) -> String;
}

impl UnitWords for Unit {
    /// The unit in a sentence: "switch tor-a", "stack s1 (stack-1,
    /// stack-2)", "cable 2 of 2 of link isl", "card slot4 of hv1 (P4-1,
    /// P4-2)", "NIC P4-1 of hv1".
    fn describe(&self, design: &Design, topo: &Topology) -> String {
        match self {
            Unit::Switch(s) => match design.switch(*s) {
                sw if sw.is_managed() => format!("switch `{}`", sw.name),
                sw => format!("unmanaged device `{}`", sw.name),
            },
            Unit::Bridge(b) => {
                let br = topo.bridge(*b);
                let what = match br.kind {
                    BridgeKind::Stack => "stack",
                    BridgeKind::Mlag => "MLAG domain",
                    BridgeKind::Switch => "switch",
                };
                if br.members.len() > 1 {
                    format!(
                        "{what} `{}` ({})",
                        br.name,
                        switch_names(design, &br.members)
                    )
                } else {
                    format!("{what} `{}`", br.name)
                }
            }
            Unit::Cable(l, c) => {
                let link = design.link(*l);
                if link.members.value == 1 {
                    format!("the cable of link `{}`", link.name)
                } else {
                    format!(
                        "cable {} of {} of link `{}`",
                        c + 1,
                        link.members.value,
                        link.name
                    )
                }
            }
            Unit::Link(l) => {
                let link = design.link(*l);
                if link.members.value == 1 {
                    format!("link `{}`", link.name)
                } else {
                    format!("link `{}` (all {} cables)", link.name, link.members.value)
                }
            }
            Unit::Card(h, card) => {
                let host = design.host(*h);
                let ports: Vec<&str> = host
                    .nics
                    .iter()
                    .filter(|n| n.card.value == *card)
                    .map(|n| n.name.as_str())
                    .collect();
                let quoted: Vec<String> = ports.iter().map(|p| format!("`{p}`")).collect();
                if ports.len() == 1 && ports[0] == card {
                    format!("NIC `{card}` of `{}`", host.name)
                } else {
                    format!("card `{card}` of `{}` ({})", host.name, quoted.join(", "))
                }
            }
            Unit::Nic(h, n) => {
                let host = design.host(*h);
                format!("NIC `{}` of `{}`", host.nic(*n).name, host.name)
            }
            Unit::Split { link, cable, .. } => {
                let base = split_link_words(design, *link, *cable);
                format!("{base} ({})", split_words(design, topo, self))
            }
        }
    }
}

/// The cables of a [`Unit::Split`]: "the cable of peer-link `p`", "cable 2
/// of 4 of stacking link `s`", "peer-link `p` (all 2 cables)".
fn split_link_words(design: &Design, link: netlint_model::LinkId, cable: Option<u32>) -> String {
    let l = design.link(link);
    let what = link_kind_words(l.kind.value);
    match cable {
        Some(_) if l.members.value == 1 => format!("the cable of {what} `{}`", l.name),
        Some(c) => format!(
            "cable {} of {} of {what} `{}`",
            c + 1,
            l.members.value,
            l.name
        ),
        None if l.members.value == 1 => format!("{what} `{}`", l.name),
        None => format!("{what} `{}` (all {} cables)", l.name, l.members.value),
    }
}

/// A [`Unit::Split`] that loses the same whichever part keeps the LAGs:
/// "the cable of peer-link `p` (either peer as the vPC secondary)".
pub fn split_either_words(design: &Design, topo: &Topology, unit: &Unit) -> String {
    let Unit::Split { link, cable, keep } = unit else {
        return unit.describe(design, topo);
    };
    let base = split_link_words(design, *link, *cable);
    match topo.bridge(topo.bridge_of[keep.0]).kind {
        BridgeKind::Mlag => format!("{base} (either peer as the MLAG / vPC secondary)"),
        _ => format!("{base} (whichever part keeps the cross-stack LAGs)"),
    }
}

/// A spanning-tree port as the user names it: the link, or `link#K` for one
/// cable of a `lag = "none"` bundle (the `--fail` name of that cable).
pub fn fabric_port_name(design: &Design, topo: &Topology, port: usize) -> String {
    let p = &topo.ports[port];
    let link = design.link(p.link);
    match p.cable {
        Some(c) => format!("{}#{}", link.name, c + 1),
        None => link.name.clone(),
    }
}

/// "peer-link", "stacking link", "link".
fn link_kind_words(kind: netlint_model::LinkKind) -> &'static str {
    match kind {
        netlint_model::LinkKind::PeerLink => "peer-link",
        netlint_model::LinkKind::Stack => "stacking link",
        _ => "link",
    }
}

/// Who suspends what when a [`Unit::Split`] fails: "`tor-b` as the vPC
/// secondary", "`s3`, `s4` cut off the cross-stack LAGs".
pub fn split_words(design: &Design, topo: &Topology, unit: &Unit) -> String {
    let Unit::Split { keep, .. } = unit else {
        return String::new();
    };
    let f = unit.failures(design, topo);
    let suspended: Vec<SwitchId> = f.suspended.iter().copied().collect();
    match topo.bridge(topo.bridge_of[keep.0]).kind {
        BridgeKind::Mlag => format!(
            "{} as the MLAG / vPC secondary",
            switch_names(design, &suspended)
        ),
        _ => format!(
            "{} off the cross-stack LAGs",
            switch_names(design, &suspended)
        ),
    }
}

/// Why a carrier is cut by a [`Unit::Split`]: its adapters are orphan
/// ports (not in a multi-chassis LAG), which stay up on their switch but
/// no longer reach the other part of the domain. `None` for another unit.
fn split_cut_words(
    design: &Design,
    topo: &Topology,
    host: HostId,
    change: &CarrierChange,
    unit: Option<&Unit>,
) -> Option<String> {
    let unit @ Unit::Split { link, keep, .. } = unit? else {
        return None;
    };
    let bridge = topo.bridge_of[keep.0];
    let carrier = topo
        .carriers_of(host, change.network)
        .find(|c| c.via == change.via)?;
    let f = unit.failures(design, topo);
    let mut on: Vec<SwitchId> = carrier
        .active
        .iter()
        .chain(&carrier.standby)
        .filter(|n| !f.nics.contains(&(host, **n)))
        .filter_map(|n| match topo.nic_ends[host.0][n.0] {
            Some(netlint_analysis::NicEnd::Switch(s)) if topo.bridge_of[s.0] == bridge => Some(s),
            _ => None,
        })
        .collect();
    on.sort();
    on.dedup();
    if on.is_empty() {
        return None;
    }
    let l = design.link(*link);
    let across = format!("{} `{}`", link_kind_words(l.kind.value), l.name);
    let ports = if topo.bridge(bridge).kind == BridgeKind::Mlag {
        "vPC / MLAG port-channel"
    } else {
        "cross-stack LAG"
    };
    if on.len() > 1 {
        return Some(format!(
            "its working adapters end on {}, as orphan ports (in no {ports}) that stay up, and those no longer reach each other without {across}",
            and_list(&on.iter().map(|s| format!("`{}`", design.switch(*s).name)).collect::<Vec<_>>())
        ));
    }
    let others: Vec<SwitchId> = topo
        .bridge(bridge)
        .members
        .iter()
        .copied()
        .filter(|s| f.suspended.contains(s) != f.suspended.contains(&on[0]))
        .collect();
    Some(format!(
        "its adapters are orphan ports (in no {ports}) on `{}`, which stay up but no longer reach {} without {across}",
        design.switch(on[0]).name,
        switch_names(design, &others)
    ))
}

/// What a switch suspends with a split ([`NicCause::Suspended`]): "vPC",
/// "cross-stack LAG".
fn suspended_ports_words(topo: &Topology, s: SwitchId) -> &'static str {
    match topo.bridge(topo.bridge_of[s.0]).kind {
        BridgeKind::Mlag => "vPC / MLAG ports",
        _ => "cross-stack LAG ports",
    }
}

fn switch_names(design: &Design, ids: &[SwitchId]) -> String {
    ids.iter()
        .map(|s| format!("`{}`", design.switch(*s).name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A requirement in words.
pub trait RequirementWords {
    fn describe(&self, design: &Design) -> String;
    fn label(&self, design: &Design) -> String;
}

impl RequirementWords for Requirement {
    /// "network vm-prod", "every smb storage network (smb1, smb2)", "every
    /// cluster network (management, csv, lm)", "every live-migration network
    /// (lm, csv)".
    fn describe(&self, design: &Design) -> String {
        let names = || {
            self.networks(design)
                .iter()
                .map(|n| format!("`{}`", design.network(*n).name))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            Requirement::Network(n) => format!("network `{}`", design.network(*n).name),
            Requirement::Storage(p) => {
                let nets = self.networks(design);
                let proto = p.map(|p| format!("{p} ")).unwrap_or_default();
                if nets.len() == 1 {
                    format!("{proto}storage network {}", names())
                } else {
                    format!("every {proto}storage network ({})", names())
                }
            }
            Requirement::Cluster => format!("every cluster network ({})", names()),
            Requirement::LiveMigration => {
                format!("every live-migration network ({})", names())
            }
            Requirement::Target(t) => {
                let target = design.target(*t);
                format!("{} `{}`", target.kind.value.words(), target.name)
            }
        }
    }

    /// Short label for tables: "vm-prod", "storage (smb)", "cluster group",
    /// "live migration".
    fn label(&self, design: &Design) -> String {
        match self {
            Requirement::Network(n) => design.network(*n).name.clone(),
            Requirement::Storage(Some(p)) => format!("storage ({p})"),
            Requirement::Storage(None) => "storage".to_string(),
            Requirement::Cluster => "cluster group".to_string(),
            Requirement::LiveMigration => "live migration".to_string(),
            Requirement::Target(t) => design.target(*t).name.clone(),
        }
    }
}

/// Host names in design order, runs of three or more consecutive hosts
/// written as "`hv01` to `hv04`", at most eight items then "and N more".
pub fn host_list(design: &Design, hosts: &[HostId]) -> String {
    let named: Vec<(usize, &str)> = hosts
        .iter()
        .map(|h| (h.0, design.host(*h).name.as_str()))
        .collect();
    host_runs(&named)
}

/// The words `one` and `many` put around the list of `hosts` (as
/// [`hosts_phrase`] writes it), for a finding whose subjects are those
/// hosts' elements: the engine writes the message from them, and again
/// after `allow` or a baseline took some hosts away.
pub fn around_hosts(
    design: &Design,
    hosts: &[HostId],
    one: (String, String),
    many: (String, String),
) -> HostWords {
    let mut ids = hosts.to_vec();
    ids.sort();
    ids.dedup();
    let (before, after) = if ids.len() == 1 { &one } else { &many };
    // Not expected (the subjects are these hosts' elements): the message
    // about all of them.
    let none = format!("{before}{}{after}", hosts_phrase(design, &ids));
    let places = ids
        .iter()
        .map(|h| (design.host(*h).name.clone(), *h))
        .collect();
    HostWords {
        none,
        one,
        many,
        list: HostListStyle::Runs(places),
    }
}

/// "hosts `hv01` to `hv04`" / "host `hv01`".
pub fn hosts_phrase(design: &Design, hosts: &[HostId]) -> String {
    let mut ids = hosts.to_vec();
    ids.sort();
    ids.dedup();
    if ids.len() == 1 {
        format!("host `{}`", design.host(ids[0]).name)
    } else {
        format!("hosts {}", host_list(design, &ids))
    }
}

fn and_list(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        _ => format!(
            "{} and {}",
            items[..items.len() - 1].join(", "),
            items[items.len() - 1]
        ),
    }
}

/// What a carrier is, for sentences about its members: "team VMTeam",
/// "SET switch S", "vDS dvs1", or None for a single NIC.
fn owner(design: &Design, host: HostId, via: Via) -> Option<String> {
    let h = design.host(host);
    match via {
        Via::Nic(_) => None,
        Via::Team(t) => Some(format!("team `{}`", h.teams[t.0].name)),
        Via::Guest(vs) | Via::VNic(vs, _) => {
            let v = &h.vswitches[vs.0];
            match v.uplinks.as_slice() {
                [one] => match one.value {
                    Uplink::Team(t) => Some(format!("team `{}`", h.teams[t.0].name)),
                    Uplink::Nic(_) => None,
                },
                _ => Some(format!("{} `{}`", v.kind_words(h.os.value), v.name)),
            }
        }
    }
}

/// One reason, its primary span, related spans and the element to file it
/// under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Why {
    pub text: String,
    pub span: Span,
    pub related: Vec<(Span, String)>,
    pub element: Element,
}

/// Why a carrier is gone, in words.
pub trait CarrierWhy {
    fn why(&self, design: &Design, topo: &Topology, host: HostId, units: &[Unit]) -> Why;
}

impl CarrierWhy for CarrierChange {
    /// Why this carrier is gone, in one clause: "VMTeam's members LOM2 and
    /// PCI6-2 are both cabled to tor-a", "its only adapter X520-4 is
    /// cabled to sw10g-a", "no path is left from tor-a to tor-b".
    fn why(&self, design: &Design, topo: &Topology, host: HostId, units: &[Unit]) -> Why {
        let h = design.host(host);
        let element = h.via_element(self.via);
        // The failed unit that explains a NIC or a cut.
        let bridge_unit = |s: SwitchId| {
            units.iter().find_map(|u| match u {
                Unit::Bridge(b) if topo.bridge_of[s.0] == *b => Some(*b),
                _ => None,
            })
        };
        let card_unit = |n: NicIdx| {
            units
                .iter()
                .any(|u| matches!(u, Unit::Card(uh, c) if *uh == host && h.nic(n).card.value == *c))
        };
        let fabric_unit = units.iter().find(|u| !u.is_host_local()).or(units.first());
        match &self.loss {
            CarrierLoss::Dead { nics } => {
                let names: Vec<String> = nics
                    .iter()
                    .map(|(n, _)| format!("`{}`", h.nic(*n).name))
                    .collect();
                let cause_text = |c: &NicCause, n: NicIdx| -> String {
                    match c {
                        NicCause::SwitchDown(s) => match bridge_unit(*s) {
                            Some(b) => {
                                let br = topo.bridge(b);
                                let what = if br.kind == BridgeKind::Mlag {
                                    "MLAG domain"
                                } else {
                                    "stack"
                                };
                                format!("cabled to {what} `{}`", br.name)
                            }
                            _ => format!("cabled to `{}`", design.switch(*s).name),
                        },
                        NicCause::Suspended(s) => format!(
                            "suspended with the {} of `{}`",
                            suspended_ports_words(topo, *s),
                            design.switch(*s).name
                        ),
                        NicCause::PeerDown(ph, pn) => format!(
                            "cabled directly to `{}:{}`",
                            design.host(*ph).name,
                            design.host(*ph).nic(*pn).name
                        ),
                        NicCause::Failed => {
                            // A NIC without `card` is a card of its own.
                            let own = h.nic(n).card.value == h.nic(n).name;
                            if card_unit(n) && !own {
                                format!("on card `{}`", h.nic(n).card.value)
                            } else {
                                "down".to_string()
                            }
                        }
                    }
                };
                let span_of = |c: &NicCause, n: NicIdx| -> Span {
                    let nic = h.nic(n);
                    match c {
                        NicCause::SwitchDown(_)
                        | NicCause::PeerDown(..)
                        | NicCause::Suspended(_) => {
                            nic.attach.as_ref().map(|a| a.span()).unwrap_or(nic.span)
                        }
                        NicCause::Failed => {
                            if card_unit(n) {
                                nic.card.span
                            } else {
                                nic.span
                            }
                        }
                    }
                };
                let texts: Vec<String> = nics.iter().map(|(n, c)| cause_text(c, *n)).collect();
                let all_same = texts.windows(2).all(|w| w[0] == w[1]);
                let own = owner(design, host, self.via);
                let text = match (nics.len(), all_same, &own) {
                    (0, _, _) => "it has no working adapter".to_string(),
                    (1, _, None) => format!("its only adapter {} is {}", names[0], texts[0]),
                    (1, _, Some(o)) => {
                        format!("{o}'s only working member {} is {}", names[0], texts[0])
                    }
                    (2, true, Some(o)) => format!(
                        "{o}'s members {} and {} are both {}",
                        names[0], names[1], texts[0]
                    ),
                    (_, true, Some(o)) => format!(
                        "all {} members of {o} ({}) are {}",
                        nics.len(),
                        names.join(", "),
                        texts[0]
                    ),
                    (2, true, None) => format!(
                        "its adapters {} and {} are both {}",
                        names[0], names[1], texts[0]
                    ),
                    (_, true, None) => {
                        format!("its adapters {} are all {}", and_list(&names), texts[0])
                    }
                    (_, false, _) => {
                        let parts: Vec<String> = names
                            .iter()
                            .zip(&texts)
                            .map(|(n, t)| format!("{n} is {t}"))
                            .collect();
                        match &own {
                            Some(o) => format!("{o} has no member left: {}", and_list(&parts)),
                            None => and_list(&parts),
                        }
                    }
                };
                let mut spans = nics.iter().map(|(n, c)| (span_of(c, *n), *n));
                let (span, _) = spans.next().unwrap_or((h.span, NicIdx(0)));
                let related = spans
                    .map(|(s, n)| {
                        let c = nics.iter().find(|(m, _)| *m == n).map(|x| x.1);
                        (
                            s,
                            format!(
                                "`{}` is {}",
                                h.nic(n).name,
                                c.map(|c| cause_text(&c, n)).unwrap_or_default()
                            ),
                        )
                    })
                    .collect();
                Why {
                    text,
                    span,
                    related,
                    element,
                }
            }
            CarrierLoss::Cut { from, to } => {
                let names = |b: &[BridgeId]| {
                    b.iter()
                        .map(|x| format!("`{}`", topo.bridge(*x).name))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let split = split_cut_words(design, topo, host, self, fabric_unit);
                let text = if let Some(text) = split {
                    text
                } else if to.is_empty() || to == from {
                    format!("no path is left from {} to the other hosts", names(from))
                } else {
                    // In bridge order, so both sides of a split read alike.
                    let (x, y) = if from <= to { (from, to) } else { (to, from) };
                    format!("no path is left between {} and {}", names(x), names(y))
                };
                let (span, element) = match fabric_unit {
                    Some(u) => (u.span(design, topo), u.element(design, topo)),
                    None => (h.span, element),
                };
                Why {
                    text,
                    span,
                    related: Vec::new(),
                    element,
                }
            }
            CarrierLoss::NotDefined { nic, switch, vlan } => {
                let (span, element) = match fabric_unit {
                    Some(u) => (u.span(design, topo), u.element(design, topo)),
                    None => (h.span, element),
                };
                let sw = design.switch(*switch);
                let what = format!("`{}` does not define VLAN {vlan}", sw.name);
                let related = vec![(sw.vlans.as_ref().map(|v| v.span).unwrap_or(sw.span), what)];
                Why {
                    text: format!(
                        "its working adapter `{}` is cabled to `{}`, which does not define VLAN {vlan}",
                        h.nic(*nic).name,
                        sw.name
                    ),
                    span,
                    related,
                    element,
                }
            }
            CarrierLoss::TargetPortsDown { target, ports } => {
                super::storage::ports_down(design, topo, h, *target, ports, fabric_unit)
            }
            CarrierLoss::PortDrops { nic, why, .. } => {
                let vlan = design.network(self.network).vlan_id();
                let words = super::ports::drop_words(design, host, *nic, vlan, *why);
                let port = super::ports::port_name(design, host, *nic);
                let related = match fabric_unit {
                    Some(u) if !u.is_host_local() => {
                        vec![(u.span(design, topo), u.describe(design, topo))]
                    }
                    _ => Vec::new(),
                };
                Why {
                    text: format!(
                        "its working adapter `{}` is cabled to {port}, which {}",
                        h.nic(*nic).name,
                        words.clause
                    ),
                    span: words.span,
                    related,
                    element,
                }
            }
            CarrierLoss::VlanMoved { nic, from, to, .. } => {
                let n = h.nic(*nic);
                let span = netlint_model::HostPortView::of(design, n)
                    .map(|v| v.deciding_span(design.network(self.network).vlan_id()))
                    .unwrap_or(n.span);
                Why {
                    text: format!(
                        "its working adapter `{}` is cabled to {}, which puts its untagged frames in {}, not in {} with the other hosts",
                        n.name,
                        super::ports::port_name(design, host, *nic),
                        super::ports::landing_words(*to),
                        super::ports::landing_words(*from)
                    ),
                    span,
                    related: Vec::new(),
                    element,
                }
            }
            CarrierLoss::Scattered { bridges } => {
                let names: Vec<String> = bridges
                    .iter()
                    .map(|b| format!("`{}`", topo.bridge(*b).name))
                    .collect();
                let (span, element) = match fabric_unit {
                    Some(u) => (u.span(design, topo), u.element(design, topo)),
                    None => (h.span, element),
                };
                Why {
                    text: split_cut_words(design, topo, host, self, fabric_unit).unwrap_or_else(
                        || {
                            format!(
                                "its working adapters end on {}, which no longer reach each other",
                                and_list(&names)
                            )
                        },
                    ),
                    span,
                    related: Vec::new(),
                    element,
                }
            }
        }
    }
}

/// Why a host lost a requirement, in words.
pub trait HostLossWhy {
    fn why(&self, design: &Design, topo: &Topology, req: &Requirement, units: &[Unit]) -> Why;
}

impl HostLossWhy for HostLoss {
    /// Every reason of this host, deduplicated, with the first one's span
    /// and element; networks named when the requirement has several.
    fn why(&self, design: &Design, topo: &Topology, req: &Requirement, units: &[Unit]) -> Why {
        let _ = req;
        let mut texts: Vec<(String, Vec<String>)> = Vec::new();
        let mut first: Option<Why> = None;
        let mut related = Vec::new();
        // A network on several plain NICs (each its own carrier) that all
        // went down reads as one clause about those NICs.
        let mut carriers: Vec<CarrierChange> = Vec::new();
        for cc in &self.carriers {
            if let (Via::Nic(_), CarrierLoss::Dead { nics }) = (cc.via, &cc.loss) {
                if let Some(prev) = carriers.iter_mut().find(|p| {
                    p.network == cc.network
                        && matches!(p.via, Via::Nic(_))
                        && matches!(p.loss, CarrierLoss::Dead { .. })
                }) {
                    if let CarrierLoss::Dead { nics: pn } = &mut prev.loss {
                        pn.extend(nics.iter().copied());
                    }
                    continue;
                }
            }
            carriers.push(cc.clone());
        }
        let mut nets: Vec<NetworkId> = carriers.iter().map(|c| c.network).collect();
        nets.sort();
        nets.dedup();
        let several = nets.len() > 1;
        for cc in &carriers {
            let w = cc.why(design, topo, self.host, units);
            // Reasons in order, each with the networks it explains.
            let net = design.network(cc.network).name.clone();
            match texts.iter_mut().find(|(t, _)| *t == w.text) {
                Some((_, nets)) => {
                    if !nets.contains(&net) {
                        nets.push(net)
                    }
                }
                None => texts.push((w.text.clone(), vec![net])),
            }
            match &first {
                None => {
                    related.extend(w.related.clone());
                    first = Some(w);
                }
                Some(f) => {
                    if w.span != f.span && !related.iter().any(|(s, _)| *s == w.span) {
                        related.push((w.span, w.text.clone()));
                    }
                    for r in w.related {
                        if r.0 != f.span && !related.iter().any(|(s, _)| *s == r.0) {
                            related.push(r);
                        }
                    }
                }
            }
        }
        let h = design.host(self.host);
        let mut w = first.unwrap_or(Why {
            text: String::new(),
            span: h.span,
            related: Vec::new(),
            element: h.element(),
        });
        w.text = if texts.is_empty() {
            "it cannot reach them any more".to_string()
        } else if !several || texts.len() == 1 {
            texts
                .iter()
                .map(|(t, _)| t.clone())
                .collect::<Vec<_>>()
                .join("; ")
        } else {
            texts
                .iter()
                .map(|(t, nets)| {
                    let nets: Vec<String> = nets.iter().map(|n| format!("`{n}`")).collect();
                    format!("{}: {t}", nets.join(", "))
                })
                .collect::<Vec<_>>()
                .join("; ")
        };
        w.related = related;
        w
    }
}

/// One finding's worth of a loss: the hosts sharing one reason and span.
#[derive(Clone, Debug)]
pub struct LossGroup {
    pub hosts: Vec<HostId>,
    pub why: Why,
    /// The element of each host's copy of the finding.
    pub elements: Vec<Element>,
}

/// A loss in findings' words: its groups of hosts and its consequence.
pub trait LossWords {
    fn groups(&self, design: &Design, topo: &Topology, units: &[Unit]) -> Vec<LossGroup>;
    fn consequence(&self, design: &Design, hosts: &[HostId]) -> String;
}

impl LossWords for Loss {
    /// The named hosts grouped by (span, reason): one finding each.
    fn groups(&self, design: &Design, topo: &Topology, units: &[Unit]) -> Vec<LossGroup> {
        let mut groups: Vec<LossGroup> = Vec::new();
        for hl in &self.hosts {
            let w = hl.why(design, topo, &self.requirement, units);
            match groups
                .iter_mut()
                .find(|g| g.why.span == w.span && g.why.text == w.text)
            {
                Some(g) => {
                    g.hosts.push(hl.host);
                    g.elements.push(w.element.clone());
                }
                None => groups.push(LossGroup {
                    hosts: vec![hl.host],
                    elements: vec![w.element.clone()],
                    why: w,
                }),
            }
        }
        groups
    }

    /// "hosts hv01-hv04 lose network vm-prod" or "network csv splits into
    /// hv01, hv02 | hv03, hv04", for the hosts of one group.
    fn consequence(&self, design: &Design, hosts: &[HostId]) -> String {
        let what = self.requirement.describe(design);
        if self.split.is_empty() {
            if self.requirement == Requirement::LiveMigration {
                let verb = if hosts.len() == 1 { "loses" } else { "lose" };
                return format!(
                    "{} {verb} {what}, so live migration has nowhere to go",
                    hosts_phrase(design, hosts)
                );
            }
            let verb = if hosts.len() == 1 { "loses" } else { "lose" };
            format!("{} {verb} {what}", hosts_phrase(design, hosts))
        } else {
            let parts: Vec<String> = self.split.iter().map(|g| host_list(design, g)).collect();
            format!("{what} splits between {}", parts.join(" | "))
        }
    }
}

/// Why a `--fail` name names no unit, in words.
pub fn unit_name_error(e: &UnitNameError) -> String {
    let hint = |n: &Option<String>| match n {
        Some(n) => format!(", did you mean `{n}`?"),
        None => String::new(),
    };
    match e {
        UnitNameError::Host { name, nearest } => format!("no host named `{name}`{}", hint(nearest)),
        UnitNameError::Card {
            host,
            name,
            nearest,
        } => format!("no card of {host} named `{name}`{}", hint(nearest)),
        UnitNameError::Nic {
            host,
            name,
            nearest,
        } => format!("no NIC of {host} named `{name}`{}", hint(nearest)),
        UnitNameError::Cable { link, members } => format!(
            "link `{link}` has {members} cable{}: name one as `{link}#1`{}",
            if *members == 1 { "" } else { "s" },
            if *members > 1 {
                format!(" to `{link}#{members}`")
            } else {
                String::new()
            }
        ),
        UnitNameError::Keep { link, switch } => format!(
            "`{link}@{switch}`: losing link `{link}` does not split a stack or MLAG domain of switch `{switch}` (`link@switch` names the part that keeps the multi-chassis LAGs, the vPC primary, when a peer-link or stacking cable fails)"
        ),
        UnitNameError::Unknown { name, nearest } => format!(
            "no switch, stack or link named `{name}`{} (name a switch, a stack or MLAG domain, a link, `link#N`, `host:NIC` or `host:card:NAME`)",
            hint(nearest)
        ),
    }
}
