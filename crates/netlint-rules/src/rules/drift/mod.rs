//! Drift rules: each difference between the design and the network as
//! built (`netlint_analysis::drift`), worded in the engineer's terms and
//! judged by its consequence. They run only under `netlint diff`.

use crate::drift::{DriftContext, DriftRule, Side};
use netlint_analysis::drift::{At, Difference, Field, Two, Value};
use netlint_model::{Design, Diagnostic, Element, HostId, LinkKind, Severity, Span, SwitchId};

pub mod cabling;
pub mod dcb;
pub mod extra;
pub mod lag;
pub mod live_migration;
pub mod missing;
pub mod mtu;
pub mod rdma;
pub mod role;
pub mod smb_limit;
pub mod stp;
pub mod team;
pub mod vlan;
pub mod vnic;

pub static RULES: &[&DriftRule] = &[
    &vlan::RULE,
    &mtu::RULE,
    &stp::RULE,
    &cabling::RULE,
    &lag::RULE,
    &team::RULE,
    &vnic::RULE,
    &role::RULE,
    &smb_limit::RULE,
    &rdma::RULE,
    &dcb::RULE,
    &live_migration::RULE,
    &missing::RULE,
    &extra::RULE,
];

/// The differences of these fields.
pub(crate) fn of<'a>(
    cx: &'a DriftContext<'_>,
    fields: impl Fn(Field) -> bool + 'a,
) -> impl Iterator<Item = &'a Difference> + 'a {
    cx.drift.differences.iter().filter(move |d| fields(d.field))
}

fn host(x: &Design, id: HostId) -> &netlint_model::Host {
    x.host(id)
}

/// "`tor-b`", with its as-built name when it differs: "`tor-b` (`TOR-B`
/// as built)".
fn both_names(d: &str, b: &str) -> String {
    if d == b {
        format!("`{d}`")
    } else {
        format!("`{d}` (`{b}` as built)")
    }
}

/// The element in words, design names first.
pub(crate) fn element_words(cx: &DriftContext<'_>, at: &At) -> String {
    let (d, b) = (cx.design, cx.built);
    match *at {
        At::Switch(t) => match (t.design, t.built) {
            (Some(x), Some(y)) => format!(
                "switch {}",
                both_names(&d.switch(x).name, &b.switch(y).name)
            ),
            (Some(x), None) => format!("switch `{}`", d.switch(x).name),
            (None, Some(y)) => format!("switch `{}`", b.switch(y).name),
            (None, None) => String::new(),
        },
        At::Link(t) => match (t.design, t.built) {
            (Some(x), _) => link_words(d, x),
            (None, Some(y)) => link_words(b, y),
            (None, None) => String::new(),
        },
        At::Port { switch, port } => format!(
            "port `{}` of switch {}",
            port_name(d, b, switch, port),
            both_names(&d.switch(switch.design).name, &b.switch(switch.built).name)
        ),
        At::Host(t) => match (t.design, t.built) {
            (Some(x), Some(y)) => format!("host {}", both_names(&d.host(x).name, &b.host(y).name)),
            (Some(x), None) => format!("host `{}`", d.host(x).name),
            (None, Some(y)) => format!("host `{}`", b.host(y).name),
            (None, None) => String::new(),
        },
        At::Nic { host: h, nic } => {
            let name = match (nic.design, nic.built) {
                (Some(x), Some(y)) => both_names(
                    &host(d, h.design).nic(x).name,
                    &host(b, h.built).nic(y).name,
                ),
                (Some(x), None) => format!("`{}`", host(d, h.design).nic(x).name),
                (None, Some(y)) => format!("`{}`", host(b, h.built).nic(y).name),
                (None, None) => String::new(),
            };
            let _ = h;
            format!("NIC {name}")
        }
        At::Team { host: h, team } => format!(
            "team {}",
            both_names(
                &host(d, h.design).teams[team.design.0].name,
                &host(b, h.built).teams[team.built.0].name
            )
        ),
        At::VSwitch { host: h, vswitch } => {
            let dv = &host(d, h.design).vswitches[vswitch.design.0];
            format!(
                "{} {}",
                dv.kind_words(host(d, h.design).os.value),
                both_names(&dv.name, &host(b, h.built).vswitches[vswitch.built.0].name)
            )
        }
        At::VNic {
            host: h,
            vswitch,
            vnic,
        } => {
            let dv = &host(d, h.design).vswitches[vswitch.design.0];
            let bv = &host(b, h.built).vswitches[vswitch.built.0];
            let name = match (vnic.design, vnic.built) {
                (Some(x), Some(y)) => both_names(&dv.vnics[x].name, &bv.vnics[y].name),
                (Some(x), None) => format!("`{}`", dv.vnics[x].name),
                (None, Some(y)) => format!("`{}`", bv.vnics[y].name),
                (None, None) => String::new(),
            };
            format!("vNIC {name} on {}", both_names(&dv.name, &bv.name))
        }
        At::LiveMigration(h) => host(d, h.design)
            .os
            .value
            .live_migration_words()
            .to_string(),
        At::HostDcb(_) => "DCB".to_string(),
        At::SwitchDcb(s) => format!(
            "DCB of switch {}",
            both_names(&d.switch(s.design).name, &b.switch(s.built).name)
        ),
        At::CabledNic { host: h, nic, .. } => format!("NIC `{}`", d.host(h).nic(nic).name),
        At::Network(n) => format!(
            "network {}",
            both_names(&d.network(n.design).name, &b.network(n.built).name)
        ),
    }
}

/// "the trunk between `tor-a` and `tor-b`" (a peer link, a stack link,
/// a routed link by its kind).
pub(crate) fn link_words(x: &Design, id: netlint_model::LinkId) -> String {
    let l = x.link(id);
    let names = |ids: Vec<netlint_model::SwitchId>| {
        ids.iter()
            .map(|s| format!("`{}`", x.switch(*s).name))
            .collect::<Vec<_>>()
            .join(" + ")
    };
    let a = names(l.a_ends().map(|s| s.value).collect());
    let b = names(l.b.iter().map(|s| s.value).collect());
    let kind = match l.kind.value {
        LinkKind::Ethernet => "trunk",
        LinkKind::Stack => "stack link",
        LinkKind::PeerLink => "peer link",
        LinkKind::Routed => "routed link",
    };
    format!("the {kind} between {a} and {b}")
}

/// The design elements a difference is about (design names; as-built
/// names for an element only built), most specific first: its subjects,
/// and where an as-built finding it causes is looked for.
pub(crate) fn touched(cx: &DriftContext<'_>, at: &At, field: Field) -> Vec<Element> {
    let (d, b) = (cx.design, cx.built);
    match *at {
        At::Switch(t) => match (t.design, t.built) {
            (Some(x), _) => {
                let mut v = vec![d.switch(x).element()];
                if let Field::Vlan(vlan) = field {
                    v.extend(
                        d.networks
                            .iter()
                            .filter(|n| n.vlan_id() == Some(vlan))
                            .map(|n| n.element()),
                    );
                }
                v
            }
            (None, Some(y)) => vec![b.switch(y).element()],
            _ => vec![Element::Design],
        },
        At::Link(t) => match (t.design, t.built) {
            (Some(x), _) => {
                // The link, then the networks it carries in the design
                // (a cut shows as their partition), then its switches.
                let l = d.link(x);
                let mut v = vec![l.element()];
                v.extend(
                    d.networks
                        .iter()
                        .filter(|n| match (field, n.vlan_id()) {
                            (Field::Vlan(vlan), id) => id == Some(vlan),
                            (_, id) => d.bridges_link(l) && l.allows_vlan(id),
                        })
                        .map(|n| n.element()),
                );
                v.extend(l.ends().map(|s| d.switch(s).element()));
                v
            }
            (None, Some(y)) => vec![b.link(y).element()],
            _ => vec![Element::Design],
        },
        At::Port { switch, .. } => vec![d.switch(switch.design).element()],
        At::Host(t) => match (t.design, t.built) {
            (Some(x), _) => vec![d.host(x).element()],
            (None, Some(y)) => vec![b.host(y).element()],
            _ => vec![Element::Design],
        },
        At::Nic { host: h, nic } => {
            let dh = d.host(h.design);
            match nic.design {
                Some(n) => vec![dh.nic_element(n), dh.element()],
                None => vec![dh.element()],
            }
        }
        At::Team { host: h, team } => {
            let dh = d.host(h.design);
            vec![dh.team_element(team.design), dh.element()]
        }
        At::VSwitch { host: h, vswitch } => {
            let dh = d.host(h.design);
            vec![
                Element::vswitch(&dh.name, &dh.vswitches[vswitch.design.0].name),
                dh.element(),
            ]
        }
        At::VNic {
            host: h,
            vswitch,
            vnic,
        } => {
            let dh = d.host(h.design);
            let vs = &dh.vswitches[vswitch.design.0];
            match vnic.design {
                Some(i) => vec![
                    Element::vnic(&dh.name, &vs.name, &vs.vnics[i].name),
                    Element::vswitch(&dh.name, &vs.name),
                    dh.element(),
                ],
                None => vec![Element::vswitch(&dh.name, &vs.name), dh.element()],
            }
        }
        At::LiveMigration(h) | At::HostDcb(h) => vec![d.host(h.design).element()],
        At::SwitchDcb(s) => vec![d.switch(s.design).element()],
        At::CabledNic { host: h, nic, .. } => {
            let dh = d.host(h);
            vec![dh.nic_element(nic), dh.element()]
        }
        At::Network(n) => vec![d.network(n.design).element()],
    }
}

/// A value in words, for the field it is of, on its side.
pub(crate) fn value_words(
    cx: &DriftContext<'_>,
    side: Side,
    field: Field,
    v: &Value,
    at: &At,
) -> String {
    let x = cx.of(side);
    let host_of = |at: &At| -> Option<HostId> {
        let h = match at {
            At::Nic { host, .. }
            | At::Team { host, .. }
            | At::VSwitch { host, .. }
            | At::VNic { host, .. }
            | At::LiveMigration(host)
            | At::HostDcb(host) => *host,
            _ => return None,
        };
        Some(match side {
            Side::Design => h.design,
            Side::Built => h.built,
        })
    };
    match v {
        Value::Unset => "not set".to_string(),
        Value::Bool(true) => "yes".to_string(),
        Value::Bool(false) => "no".to_string(),
        Value::Num(n) => {
            let _ = field;
            n.to_string()
        }
        Value::Mtu(m) => m.describe(),
        Value::Stp(m) => format!("`{m}`"),
        Value::Text(t) => format!("`{t}`"),
        Value::Instances(map) => {
            if map.is_empty() {
                "no instance (every VLAN in the IST)".to_string()
            } else {
                map.iter()
                    .map(|(i, set)| format!("instance {i}: VLANs {set}"))
                    .collect::<Vec<_>>()
                    .join("; ")
            }
        }
        Value::Lag(l) => format!("`{l}`"),
        Value::SwitchLag(l) => format!("`{l}`"),
        Value::TeamMode(m) => format!("`{m}`"),
        Value::LoadBalancing(l) => format!("`{l}`"),
        Value::Nics(nics) => match host_of(at) {
            Some(h) => {
                let names: Vec<String> = nics
                    .iter()
                    .map(|n| format!("`{}`", x.host(h).nic(*n).name))
                    .collect();
                format!("[{}]", names.join(", "))
            }
            None => String::new(),
        },
        Value::Teams(t) => format!("{} teams", t.len()),
        Value::Attach(s, p) => match (s, p) {
            (Some(s), Some(p)) => format!("`{}` port `{p}`", x.switch(*s).name),
            (Some(s), None) => format!("`{}`", x.switch(*s).name),
            _ => "no switch".to_string(),
        },
        Value::Vlan(Some(v)) => v.to_string(),
        Value::Vlan(None) => "untagged".to_string(),
        Value::Rdma(r) => format!("`{r}`"),
        Value::Bandwidth(b) => b.to_string(),
        Value::Priorities(p) => format!(
            "[{}]",
            p.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Ets(e) => format!(
            "{{ {} }}",
            e.iter()
                .map(|(k, v)| format!("{k} = {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Policies(p) => p
            .iter()
            .map(|(m, pr)| format!("{m} on priority {pr}"))
            .collect::<Vec<_>>()
            .join(", "),
        Value::Transport(t) => format!("`{t}`"),
        Value::Networks(n) => format!(
            "[{}]",
            n.iter()
                .map(|i| format!("`{}`", x.network(*i).name))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Role(r, Some(p)) => format!("`{r}` (`{p}`)"),
        Value::Role(r, None) => format!("`{r}`"),
    }
}

/// One drift finding: what differs and what that does, judged by the
/// as-built findings it causes.
pub(crate) struct Found<'a> {
    pub diff: &'a Difference,
    /// "tor-b's trunk to tor-a lacks VLAN 711, which the design carries".
    pub what: String,
    /// What the difference does when no rule's finding says it better.
    pub effect: String,
    /// The severity by effect, when no rule of the as-built fails.
    pub severity: Severity,
    pub help: String,
    /// Labels for the two places.
    pub design_label: String,
    pub built_label: String,
}

/// The finding of a difference: at the design's line (the `[design]`
/// header for an element the design does not have), with the as-built
/// line as a label in the as-built file, about the design's element; an error naming the as-built finding when the difference makes
/// the as-built fail a rule the design passes.
pub(crate) fn emit(cx: &DriftContext<'_>, rule: &DriftRule, f: Found<'_>) -> Diagnostic {
    let touched = touched(cx, &f.diff.at, f.diff.field);
    let (severity, message) = match cx.consequence(f.diff, &touched) {
        Some(c) => (
            Severity::Error,
            format!(
                "{}: as built this fails `{}`, which the design passes: {}",
                f.what, c.rule, c.message
            ),
        ),
        None => (f.severity, format!("{}: {}", f.what, f.effect)),
    };
    let subject = touched.first().cloned().unwrap_or(Element::Design);
    let span: Span = f.diff.span.design.unwrap_or(cx.design.span);
    // A part of a host: the engine writes the hosts in front ("hosts
    // `hv1`, `hv2`: ..."), once the findings of hosts built alike from one
    // profile are one.
    let host_part = matches!(
        f.diff.at,
        At::Nic {
            nic: Two {
                design: Some(_),
                ..
            },
            ..
        } | At::Team { .. }
            | At::VSwitch { .. }
            | At::VNic {
                vnic: Two {
                    design: Some(_),
                    ..
                },
                ..
            }
            | At::LiveMigration(_)
            | At::HostDcb(_)
            | At::CabledNic { .. }
    );
    let mut d = Diagnostic::new(rule.rule.meta.id, severity, subject, message)
        .at(span, f.design_label)
        .with_help(f.help);
    if host_part {
        d.host_words = Some(netlint_model::HostWords::leading(&d.message));
    }
    // A NIC the as-built cabling places: the cabling's own line.
    let cabled = match f.diff.at {
        At::CabledNic { peer, .. } => cx.peers.get(peer).and_then(|p| p.at.clone()),
        _ => None,
    };
    match (f.diff.span.built, cabled) {
        (Some(at), _) => d.with_related_in(&cx.built_file, at, f.built_label),
        (None, Some((file, at))) => d.with_related_in(&file, at, f.built_label),
        (None, None) => d,
    }
}

/// "VLANs" words of the networks that use `vlan` on a side.
pub(crate) fn networks_on_vlan(x: &Design, vlan: u16) -> Vec<String> {
    x.networks
        .iter()
        .filter(|n| n.vlan_id() == Some(vlan))
        .map(|n| format!("{} network `{}`", n.role.value, n.name))
        .collect()
}

/// What a field is called.
pub(crate) fn field_words(field: Field) -> &'static str {
    match field {
        Field::Present => "presence",
        Field::Vlan(_) => "VLAN",
        Field::AccessVlan => "access VLAN",
        Field::Mtu => "MTU",
        Field::StpMode => "spanning-tree mode",
        Field::StpPriority => "bridge priority",
        Field::VlanPriority(_) => "spanning-tree priority",
        Field::StpRegion => "MST region name",
        Field::StpRevision => "MST revision",
        Field::StpInstances => "MST instance map",
        Field::StpCost => "spanning-tree port cost",
        Field::Cabling => "cabled to",
        Field::LagMembers => "members",
        Field::LagMode => "LAG mode",
        Field::TeamMembers => "members",
        Field::TeamMode => "teaming mode",
        Field::LoadBalancing => "load balancing",
        Field::VNicVlan => "VLAN",
        Field::VNicWeight => "minimum bandwidth weight",
        Field::DefaultFlowWeight => "default flow weight",
        Field::SmbLimit => "SMB bandwidth limit",
        Field::Rdma => "RDMA",
        Field::DcbWilling => "DCBX `willing`",
        Field::DcbPfc => "PFC priorities",
        Field::DcbEts => "ETS shares",
        Field::DcbPolicies => "QoS policies",
        Field::LmTransport => "transport",
        Field::LmNetworks => "networks",
        Field::LmSimultaneous => "simultaneous migrations",
        Field::Edge => "edge (portfast) on host ports:",
        Field::BpduGuard => "BPDU guard on host ports:",
        Field::PortPfc => "PFC at the port:",
        Field::NetworkRole => "role",
    }
}

/// A value that differs: "{place}: {field} is {as built} as built, {design}
/// in the design", with the rule's effect and help.
pub(crate) fn changed(
    cx: &DriftContext<'_>,
    rule: &DriftRule,
    diff: &Difference,
    effect: String,
    severity: Severity,
    help: String,
) -> Diagnostic {
    let place = element_words(cx, &diff.at);
    let dv = value_words(cx, Side::Design, diff.field, &diff.value.design, &diff.at);
    let bv = value_words(cx, Side::Built, diff.field, &diff.value.built, &diff.at);
    let field = field_words(diff.field);
    emit(
        cx,
        rule,
        Found {
            diff,
            what: format!("{place}: {field} {bv} as built, {dv} in the design"),
            effect,
            severity,
            help,
            design_label: format!("the design: {field} {dv}"),
            built_label: format!("as built: {field} {bv}"),
        },
    )
}

/// A number of the difference on each side, for rules that compare sizes.
pub(crate) fn nums(diff: &Difference) -> Option<(u32, u32)> {
    match (&diff.value.design, &diff.value.built) {
        (Value::Num(a), Value::Num(b)) => Some((*a, *b)),
        _ => None,
    }
}

/// A port's name: the design's table's, else the as-built's (a port with
/// no table in the design).
pub(super) fn port_name<'a>(
    d: &'a Design,
    b: &'a Design,
    switch: Two<SwitchId>,
    port: Two<Option<usize>>,
) -> &'a str {
    match (port.design, port.built) {
        (Some(x), _) => &d.switch(switch.design).ports[x].name,
        (None, Some(y)) => &b.switch(switch.built).ports[y].name,
        (None, None) => "",
    }
}
