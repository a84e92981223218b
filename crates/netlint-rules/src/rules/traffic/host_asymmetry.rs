//! `host-asymmetry`: hosts of one cluster differ in their network build.
//!
//! For each network, the hosts of a cluster are compared aspect by aspect:
//! whether they carry it at all, on what kind of interface (NIC, team
//! interface, host vNIC, guest network of a virtual switch), how many
//! members the team or SET switch beneath has, the speeds of the NICs under
//! it, and the MTU of team members and switch uplinks. A host whose value
//! differs from most hosts' is reported once per aspect, at its odd value.
//! Each aspect compares only the hosts that agree on the ones before it
//! (speeds and member MTUs: on presence, interfaces and membership), so one
//! difference is not reported again as its consequences.
//!
//! Left to other rules, so that one difference is reported once:
//! `mtu-mismatch` has the MTUs of the interface a network's IP sits on (NIC,
//! team, vNIC), a member MTU smaller than what the team, switch or vNICs
//! above it ask for, and the member that sets a team's MTU;
//! `team-speed-mismatch` a team or SET switch mixing speeds on one host;
//! `rdma-mismatch` RDMA differences.

use super::{carriers, emit_per_host, majority, vswitch_nics, Carrier, Via};
use crate::phrases::words::host_list;
use crate::{declare_rule, Context};
use netlint_model::Element;
use netlint_model::{Design, Diagnostic, Host, HostId, NetworkId, NicIdx, Span, Uplink};

mod mesh;

declare_rule!(
    RULE,
    id: "host-asymmetry",
    category: "traffic",
    severity: Warning,
    summary: "Hosts of one cluster differ in their network build: NIC speeds, team or SET membership, vNICs, networks or member MTUs.",
    check: check,
);

/// The placeholder for the networks a finding is about, filled in once the
/// findings of several networks at one place are merged.
const NETS: &str = "{nets}";

/// One host's odd value for one network and aspect.
struct Odd {
    host: HostId,
    network: String,
    span: Span,
    element: Element,
    /// The message, with `NETS` where the networks go.
    message: String,
    help: String,
    related: Vec<(Span, String)>,
}

/// How one host carries one network.
struct Build<'d> {
    id: HostId,
    host: &'d Host,
    /// Sorted by kind, then in host order.
    carriers: Vec<Carrier>,
}

impl Build<'_> {
    fn name(&self) -> &str {
        &self.host.name
    }

    /// The distinct physical NICs under the network, in carrier order.
    fn nics(&self, members_only: bool) -> Vec<NicIdx> {
        let mut out: Vec<NicIdx> = Vec::new();
        for c in &self.carriers {
            if members_only && matches!(c.via, Via::Nic(_)) {
                continue;
            }
            for n in &c.nics {
                if !out.contains(n) {
                    out.push(*n);
                }
            }
        }
        out
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Nic,
    Team,
    VNic,
    Guest,
}

fn kind(c: &Carrier) -> Kind {
    match c.via {
        Via::Nic(_) => Kind::Nic,
        Via::Team(_) => Kind::Team,
        Via::VNic(..) => Kind::VNic,
        Via::Guest(_) => Kind::Guest,
    }
}

fn describe_kinds(kinds: &[Kind]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < kinds.len() {
        let n = kinds[i..].iter().take_while(|k| **k == kinds[i]).count();
        let (one, many) = match kinds[i] {
            Kind::Nic => ("a NIC", "NICs"),
            Kind::Team => ("a team interface", "team interfaces"),
            Kind::VNic => ("a host vNIC", "host vNICs"),
            Kind::Guest => (
                "a virtual switch (guest network)",
                "virtual switches (guest network)",
            ),
        };
        parts.push(if n == 1 {
            one.to_string()
        } else {
            format!("{n} {many}")
        });
        i += n;
    }
    parts.join(" and ")
}

/// The team or virtual switch whose membership a carrier rides on.
struct Group {
    what: String,
    members: usize,
    span: Span,
    element: Element,
}

fn group(host: &Host, c: &Carrier) -> Option<Group> {
    let team = |t: netlint_model::TeamIdx, what: String| {
        let team = &host.teams[t.0];
        Group {
            what,
            members: team.members.len(),
            span: team.members_span,
            element: Element::team(&host.name, &team.name),
        }
    };
    match c.via {
        Via::Nic(_) => None,
        Via::Team(t) => Some(team(t, format!("team `{}`", host.teams[t.0].name))),
        Via::VNic(v, _) | Via::Guest(v) => {
            let vs = &host.vswitches[v.0];
            if let [u] = vs.uplinks.as_slice() {
                if let Uplink::Team(t) = u.value {
                    let what = format!(
                        "team `{}` under virtual switch `{}`",
                        host.teams[t.0].name, vs.name
                    );
                    return Some(team(t, what));
                }
            }
            let what = format!("{} `{}`", vs.kind_words(host.os.value), vs.name);
            Some(Group {
                what,
                members: vswitch_nics(host, v).len(),
                span: vs.uplinks_span,
                element: Element::vswitch(&host.name, &vs.name),
            })
        }
    }
}

fn member_counts(b: &Build<'_>) -> Vec<usize> {
    b.carriers
        .iter()
        .map(|c| group(b.host, c).map_or(1, |g| g.members))
        .collect()
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let d = cx.design;
    let mut odds = Vec::new();
    for hosts in d.clusters().values() {
        if hosts.len() < 2 {
            continue;
        }
        // Networks on direct cables between two hosts are compared per
        // cable and pair (a node of a switchless mesh carries only its own
        // pairs' networks).
        let point_to_point = mesh::point_to_point(d, hosts);
        for ni in 0..d.networks.len() {
            if !point_to_point.contains(&NetworkId(ni)) {
                compare_network(d, hosts, NetworkId(ni), &mut odds);
            }
        }
        mesh::check(cx, hosts, out);
    }

    // One finding per host and odd place: several networks over the same
    // odd NIC or team are named together.
    let mut merged: Vec<(Odd, Vec<String>)> = Vec::new();
    for o in odds {
        let same = merged.iter_mut().find(|(m, _)| {
            m.host == o.host && m.span == o.span && m.element == o.element && m.message == o.message
        });
        match same {
            Some((_, nets)) => nets.push(o.network),
            None => {
                let nets = vec![o.network.clone()];
                merged.push((o, nets));
            }
        }
    }
    let mut found = Vec::new();
    for (o, nets) in merged {
        let quoted: Vec<String> = nets.iter().map(|n| format!("`{n}`")).collect();
        let nets = if quoted.len() == 1 {
            format!("network {}", quoted[0])
        } else {
            format!("networks {}", quoted.join(", "))
        };
        let mut f = cx
            .finding(&RULE, o.element, o.span, o.message.replace(NETS, &nets))
            .with_help(o.help.replace(NETS, &nets));
        for (span, label) in o.related {
            f = f.with_related(span, label);
        }
        found.push(f);
    }
    emit_per_host(out, found);
}

/// Splits the builds by one aspect: (the majority's value, the hosts that
/// have it, the builds that differ).
fn split<'a, 'd, K: PartialEq + Clone>(
    builds: &[&'a Build<'d>],
    value: impl Fn(&Build<'d>) -> K,
) -> (K, Vec<&'a Build<'d>>, Vec<&'a Build<'d>>) {
    let values: Vec<K> = builds.iter().map(|b| value(b)).collect();
    let maj = majority(&values).expect("at least one build");
    let (same, odd) = builds
        .iter()
        .zip(&values)
        .partition::<Vec<_>, _>(|(_, v)| **v == maj);
    (
        maj,
        same.into_iter().map(|(b, _)| *b).collect(),
        odd.into_iter().map(|(b, _)| *b).collect(),
    )
}

fn names(builds: &[&Build<'_>]) -> String {
    host_list(&builds.iter().map(|b| b.name()).collect::<Vec<_>>())
}

/// The items of `a` left over after taking away those of `b` (multisets).
fn minus<T: PartialEq + Clone>(a: &[T], b: &[T]) -> Vec<T> {
    let mut rest: Vec<T> = b.to_vec();
    let mut out = Vec::new();
    for x in a {
        match rest.iter().position(|y| y == x) {
            Some(i) => {
                rest.remove(i);
            }
            None => out.push(x.clone()),
        }
    }
    out
}

fn compare_network(d: &Design, hosts: &[HostId], net: NetworkId, odds: &mut Vec<Odd>) {
    let network = &d.network(net).name;
    let builds: Vec<Build<'_>> = hosts
        .iter()
        .map(|&id| {
            let host = d.host(id);
            let mut carriers = carriers(host, net);
            carriers.sort_by_key(kind);
            Build { id, host, carriers }
        })
        .collect();
    if builds.iter().all(|b| b.carriers.is_empty()) {
        return;
    }
    let all: Vec<&Build<'_>> = builds.iter().collect();
    let mut push = |b: &Build<'_>,
                    span: Span,
                    element: Element,
                    message: String,
                    help: String,
                    related: Vec<(Span, String)>| {
        odds.push(Odd {
            host: b.id,
            network: network.clone(),
            span,
            element,
            message,
            help,
            related,
        });
    };

    // Whether the host carries the network at all.
    let (present, same, odd) = split(&all, |b| !b.carriers.is_empty());
    for b in &odd {
        if present {
            let first = &same[0].carriers[0];
            push(
                b,
                b.host.span,
                b.host.element(),
                format!("does not carry {NETS}, unlike {}", names(&same)),
                format!(
                    "build `{}` like the other nodes: carry {NETS} the way `{}` does (see the related line)",
                    b.name(),
                    same[0].name()
                ),
                vec![(
                    first.span,
                    format!("`{}` carries `{network}` here", same[0].name()),
                )],
            );
        } else {
            let c = &b.carriers[0];
            push(
                b,
                c.span,
                b.host.via_element(c.via),
                format!("carries {NETS}, unlike {}", names(&same)),
                format!(
                    "remove {NETS} from `{}`, or carry it on every node of the cluster",
                    b.name()
                ),
                vec![],
            );
        }
    }
    if !present {
        return;
    }

    // On what kind of interface.
    let (kinds, same, odd) = split(&same, |b| b.carriers.iter().map(kind).collect::<Vec<_>>());
    for b in &odd {
        let own: Vec<Kind> = b.carriers.iter().map(kind).collect();
        let extra = minus(&own, &kinds);
        let c = extra
            .first()
            .and_then(|k| b.carriers.iter().find(|c| kind(c) == *k))
            .unwrap_or(&b.carriers[0]);
        let missing = minus(&kinds, &own);
        let related = missing
            .first()
            .and_then(|k| same[0].carriers.iter().find(|c| kind(c) == *k))
            .map(|m| {
                (
                    m.span,
                    format!(
                        "`{}` uses {} here",
                        same[0].name(),
                        describe_kinds(&[kind(m)])
                    ),
                )
            })
            .into_iter()
            .collect();
        push(
            b,
            c.span,
            b.host.via_element(c.via),
            format!(
                "carries {NETS} on {} (on {}: {})",
                describe_kinds(&own),
                names(&same),
                describe_kinds(&kinds)
            ),
            format!(
                "carry {NETS} on {} as the other nodes do",
                describe_kinds(&kinds)
            ),
            related,
        );
    }

    // How many NICs the team or SET switch beneath has.
    let (counts, same, odd) = split(&same, member_counts);
    for b in &odd {
        let own = member_counts(b);
        let Some(i) = (0..own.len()).find(|&i| own[i] != counts[i]) else {
            continue;
        };
        let Some(g) = group(b.host, &b.carriers[i]) else {
            continue;
        };
        let related = group(same[0].host, &same[0].carriers[i])
            .map(|m| {
                (
                    m.span,
                    format!("`{}`: {} members", same[0].name(), m.members),
                )
            })
            .into_iter()
            .collect();
        push(
            b,
            g.span,
            g.element,
            format!(
                "{} under {NETS} has {} members (on {}: {})",
                g.what,
                own[i],
                names(&same),
                counts[i]
            ),
            format!(
                "give {} {} members as on the other nodes",
                g.what, counts[i]
            ),
            related,
        );
    }
    let agreed = same;

    // The speeds of the NICs beneath. A team or SET switch mixing speeds
    // on one host is team-speed-mismatch's finding, at the same line.
    // Speeds are compared only where every host states them: an unknown
    // speed is no difference (`speed-unknown` names the check).
    let speed_of = |b: &Build<'_>, n: NicIdx| b.host.nic(n).known_speed().unwrap_or_default();
    let speeds_known = agreed.iter().all(|b| {
        b.nics(false)
            .into_iter()
            .all(|n| b.host.nic(n).speed.is_some())
    });
    let speeds = |b: &Build<'_>| {
        let mut s: Vec<_> = b.nics(false).into_iter().map(|n| speed_of(b, n)).collect();
        s.sort_unstable_by(|x, y| y.cmp(x));
        s
    };
    let (maj_speeds, same, mut odd) = split(&agreed, speeds);
    if !speeds_known {
        odd.clear();
    }
    for b in &odd {
        let (mut bad, good) = odd_nics(&b.nics(false), |n| speed_of(b, n), &maj_speeds);
        bad.retain(|n| !in_mixed_speed_team(b.host, *n));
        let Some(&first) = bad.first() else {
            continue;
        };
        let nic = b.host.nic(first);
        let list = nic_list(b.host, &bad);
        let odd_speeds = describe(bad.iter().map(|n| speed_of(b, *n)).collect());
        let good_speeds = describe(good.clone());
        let mut related: Vec<(Span, String)> = bad[1..]
            .iter()
            .map(|&i| {
                let n = b.host.nic(i);
                (
                    n.speed_span(),
                    format!("`{}` is {}", n.name, speed_of(b, i)),
                )
            })
            .collect();
        related.extend(
            same[0]
                .nics(false)
                .into_iter()
                .map(|n| same[0].host.nic(n))
                .find(|n| n.known_speed() == Some(good[0]))
                .map(|m| {
                    (
                        m.speed_span(),
                        format!("`{}`'s `{}` is {}", same[0].name(), m.name, good[0]),
                    )
                }),
        );
        push(
            b,
            nic.speed_span(),
            Element::nic(&b.host.name, &nic.name),
            format!(
                "{list} under {NETS} {} {odd_speeds} (on {}: {good_speeds})",
                if bad.len() == 1 { "is" } else { "are" },
                names(&same)
            ),
            format!(
                "use {good_speeds} adapters as the other nodes do (`speed = \"{}\"`), or change them all alike",
                good[0]
            ),
            related,
        );
    }

    // The MTU of team members and switch uplinks beneath. One smaller than
    // what sits above it is mtu-mismatch's finding.
    let mtu_of = |b: &Build<'_>, n: NicIdx| b.host.nic(n).mtu.value.payload;
    let mtus = |b: &Build<'_>| {
        let mut m: Vec<u32> = b.nics(true).into_iter().map(|n| mtu_of(b, n)).collect();
        m.sort_unstable();
        m
    };
    let (maj_mtus, same, odd) = split(&agreed, mtus);
    for b in &odd {
        let (mut bad, good) = odd_nics(&b.nics(true), |n| mtu_of(b, n), &maj_mtus);
        bad.retain(|n| {
            mtu_of(b, *n) >= required_above(b.host, *n) && !sets_team_mtu(b, same[0], *n)
        });
        let Some(&first) = bad.first() else {
            continue;
        };
        let nic = b.host.nic(first);
        let odd_mtus = if bad.len() == 1 {
            nic.mtu.value.describe()
        } else {
            format!(
                "MTU {}",
                describe(bad.iter().map(|n| mtu_of(b, *n)).collect())
            )
        };
        let mut related: Vec<(Span, String)> = bad[1..]
            .iter()
            .map(|n| {
                let n = b.host.nic(*n);
                (
                    n.mtu.span,
                    format!("`{}`: {}", n.name, n.mtu.value.describe()),
                )
            })
            .collect();
        related.extend(
            same[0]
                .nics(true)
                .into_iter()
                .map(|n| same[0].host.nic(n))
                .find(|n| n.mtu.value.payload == good[0])
                .map(|m| {
                    (
                        m.mtu.span,
                        format!(
                            "`{}`'s `{}`: {}",
                            same[0].name(),
                            m.name,
                            m.mtu.value.describe()
                        ),
                    )
                }),
        );
        push(
            b,
            nic.mtu.span,
            Element::nic(&b.host.name, &nic.name),
            format!(
                "member {list} under {NETS} {} {odd_mtus} (on {}: MTU {})",
                if bad.len() == 1 { "has" } else { "have" },
                names(&same),
                describe(good.clone()),
                list = nic_list(b.host, &bad),
            ),
            format!(
                "set `mtu = {g}` (or `jumbo_packet = {}`) on {} as on the other nodes",
                good[0] + netlint_model::units::JUMBO_PACKET_HEADER,
                nic_list(b.host, &bad),
                g = good[0],
            ),
            related,
        );
    }
}

/// Whether `nic` is the smallest member of a team that carries the network
/// itself without an `mtu` of its own, so that it sets the team's MTU, and
/// that MTU differs from the reference host's: mtu-mismatch reports that
/// team, at this NIC's line.
fn sets_team_mtu(b: &Build<'_>, reference: &Build<'_>, nic: NicIdx) -> bool {
    let smallest = |host: &Host, t: netlint_model::TeamIdx| {
        let team = &host.teams[t.0];
        team.mtu
            .is_none()
            .then(|| {
                team.members
                    .iter()
                    .map(|m| host.nic(m.value).mtu.value.payload)
                    .min()
            })
            .flatten()
    };
    b.carriers.iter().zip(&reference.carriers).any(|(c, r)| {
        let (Via::Team(t), Via::Team(rt)) = (c.via, r.via) else {
            return false;
        };
        let own = smallest(b.host, t);
        c.nics.contains(&nic)
            && own == Some(b.host.nic(nic).mtu.value.payload)
            && own != smallest(reference.host, rt)
    })
}

/// The NICs whose values are left over against the majority's (as
/// multisets), in NIC order, and the majority's values they stand against.
fn odd_nics<T: PartialEq + Clone>(
    nics: &[NicIdx],
    value: impl Fn(NicIdx) -> T,
    majority: &[T],
) -> (Vec<NicIdx>, Vec<T>) {
    let own: Vec<T> = nics.iter().map(|n| value(*n)).collect();
    let mut extra = minus(&own, majority);
    let missing = minus(majority, &own);
    let mut odd = Vec::new();
    for n in nics {
        if let Some(i) = extra.iter().position(|x| *x == value(*n)) {
            extra.remove(i);
            odd.push(*n);
        }
    }
    (odd, missing)
}

/// "NIC `A`" or "NICs `A`, `B`".
fn nic_list(host: &Host, nics: &[NicIdx]) -> String {
    let names: Vec<String> = nics
        .iter()
        .map(|n| format!("`{}`", host.nic(*n).name))
        .collect();
    if names.len() == 1 {
        format!("NIC {}", names[0])
    } else {
        format!("NICs {}", names.join(", "))
    }
}

/// One value when all are equal, else all of them.
fn describe<T: PartialEq + std::fmt::Display>(values: Vec<T>) -> String {
    if values.windows(2).all(|w| w[0] == w[1]) {
        values.first().map(|v| v.to_string()).unwrap_or_default()
    } else {
        values
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Whether `nic` is in a team or SET switch whose members differ in speed
/// on this host (what team-speed-mismatch reports).
fn in_mixed_speed_team(host: &Host, nic: NicIdx) -> bool {
    let mixed = |nics: &[NicIdx]| {
        nics.contains(&nic)
            && nics
                .windows(2)
                .any(|w| host.nic(w[0]).known_speed() != host.nic(w[1]).known_speed())
    };
    host.teams
        .iter()
        .any(|t| mixed(&t.members.iter().map(|m| m.value).collect::<Vec<_>>()))
        || host
            .vswitches
            .iter()
            .enumerate()
            .any(|(i, vs)| vs.is_set() && mixed(&vswitch_nics(host, netlint_model::VSwitchIdx(i))))
}

/// The largest MTU a team, virtual switch or vNIC above `nic` asks for.
fn required_above(host: &Host, nic: NicIdx) -> u32 {
    let mut need = 0;
    for t in &host.teams {
        if t.members.iter().any(|m| m.value == nic) {
            need = need.max(t.mtu.as_ref().map_or(0, |m| m.value.payload));
        }
    }
    for (i, vs) in host.vswitches.iter().enumerate() {
        if !vswitch_nics(host, netlint_model::VSwitchIdx(i)).contains(&nic) {
            continue;
        }
        need = need.max(vs.mtu.as_ref().map_or(0, |m| m.value.payload));
        for v in &vs.vnics {
            need = need.max(v.mtu.value.payload);
        }
        for u in &vs.uplinks {
            if let Uplink::Team(t) = u.value {
                need = need.max(host.teams[t.0].mtu.as_ref().map_or(0, |m| m.value.payload));
            }
        }
    }
    need
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    /// Three nodes: CSV on a NIC, management and VMs on a SET switch.
    const BASE: &str = r#"
[design]
name = "t"
platform = "windows-server-2019"
[networks.mgmt]
role = "management"
vlan = 10
[networks.vm]
role = "vm"
vlan = 100
[networks.csv]
role = "csv"
vlan = 20
mtu = 9000
[switches.sw]
mtu = 9216
[profiles.p.nics.A]
speed = "10G"
switch = "sw"
[profiles.p.nics.B]
speed = "10G"
switch = "sw"
[profiles.p.nics.C]
speed = "10G"
switch = "sw"
[profiles.p.nics.D]
speed = "10G"
switch = "sw"
jumbo_packet = 9014
networks = ["csv"]
[profiles.p.vswitches.S]
uplinks = ["A", "B"]
networks = ["vm"]
[profiles.p.vswitches.S.vnics.Mgmt]
network = "mgmt"
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
[hosts.hv3]
profile = "p"
HV3
"#;

    fn design(hv3: &str) -> String {
        BASE.replace("HV3", hv3)
    }

    #[test]
    fn symmetric_hosts_are_silent() {
        assert!(findings(&design(""), &super::RULE).is_empty());
    }

    #[test]
    fn a_slower_nic_fires_at_the_override_naming_the_majority() {
        let src = design("nics.D = { speed = \"1G\" }");
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "host `hv3`: NIC `D` under network `csv` is 1G (on hosts `hv1`, `hv2`: 10G)"
        );
        assert_eq!(f[0].element(), "hosts.hv3.nics.D");
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert!(src[at..].starts_with("\"1G\" }"), "{}", &src[at..]);
        assert!(f[0].help.as_deref().unwrap().contains("`speed = \"10G\"`"));
    }

    #[test]
    fn faster_set_uplinks_are_one_finding_naming_every_network_over_them() {
        let src = design("nics.A = { speed = \"25G\" }\nnics.B = { speed = \"25G\" }");
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "host `hv3`: NICs `A`, `B` under networks `mgmt`, `vm` are 25G (on hosts `hv1`, `hv2`: 10G)"
        );
        assert_eq!(f[0].element(), "hosts.hv3.nics.A");
        assert!(f[0].related.iter().any(|l| l.message == "`B` is 25G"));
    }

    #[test]
    fn one_odd_member_of_a_set_is_left_to_team_speed_mismatch() {
        let src = design("nics.B = { speed = \"25G\" }");
        assert!(findings(&src, &super::RULE).is_empty());
        assert_eq!(
            findings(&src, &crate::rules::teaming::team_speed_mismatch::RULE).len(),
            1
        );
    }

    #[test]
    fn a_bigger_set_reports_membership_not_speeds() {
        let f = findings(
            &design("vswitches.S = { uplinks = [\"A\", \"B\", \"C\"] }"),
            &super::RULE,
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "host `hv3`: SET switch `S` under networks `mgmt`, `vm` has 3 members (on hosts `hv1`, `hv2`: 2)"
        );
        assert_eq!(f[0].element(), "hosts.hv3.vswitches.S");
    }

    #[test]
    fn a_missing_network_is_reported_at_the_host() {
        let f = findings(&design("nics.D = { networks = [] }"), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "host `hv3`: does not carry network `csv`, unlike hosts `hv1`, `hv2`"
        );
        assert_eq!(f[0].element(), "hosts.hv3");
    }

    #[test]
    fn a_network_on_a_vnic_instead_of_a_nic_is_a_different_build() {
        let f = findings(
            &design("nics.D = { networks = [] }\nvswitches.S.vnics.CSV = { network = \"csv\", mtu = 9000 }"),
            &super::RULE,
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "host `hv3`: carries network `csv` on a host vNIC (on hosts `hv1`, `hv2`: a NIC)"
        );
        assert_eq!(f[0].element(), "hosts.hv3.vswitches.S.vnics.CSV");
    }

    #[test]
    fn member_mtu_differences_fire_unless_mtu_mismatch_covers_them() {
        // Uplink B at 9000 on hv3 only, vNICs at 1500: nothing breaks, but
        // the nodes differ.
        let f = findings(&design("nics.B = { mtu = 9000 }"), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message
                .contains("member NIC `B` under networks `mgmt`, `vm` has MTU 9000 (on hosts `hv1`, `hv2`: MTU 1500)"),
            "{}",
            f[0].message
        );
        // The CSV NIC carries the network itself: its MTU is mtu-mismatch's.
        assert!(findings(&design("nics.D = { jumbo_packet = 1514 }"), &super::RULE).is_empty());
    }

    #[test]
    fn a_member_below_what_its_vnic_asks_is_left_to_mtu_mismatch() {
        let src = BASE
            .replace(
                "[profiles.p.nics.A]\nspeed = \"10G\"\nswitch = \"sw\"",
                "[profiles.p.nics.A]\nspeed = \"10G\"\nswitch = \"sw\"\nmtu = 9000",
            )
            .replace(
                "[profiles.p.nics.B]\nspeed = \"10G\"\nswitch = \"sw\"",
                "[profiles.p.nics.B]\nspeed = \"10G\"\nswitch = \"sw\"\nmtu = 9000",
            )
            .replace("network = \"mgmt\"", "network = \"mgmt\"\nmtu = 9000")
            .replace("HV3", "nics.B = { mtu = 1500 }");
        assert!(findings(&src, &super::RULE).is_empty());
    }

    #[test]
    fn a_member_setting_its_teams_mtu_is_left_to_mtu_mismatch() {
        // Management on an LBFO team without `mtu`: the smallest member is
        // the team's MTU, which mtu-mismatch compares between hosts.
        let src = BASE
            .replace(
                "[profiles.p.vswitches.S]\nuplinks = [\"A\", \"B\"]\nnetworks = [\"vm\"]\n[profiles.p.vswitches.S.vnics.Mgmt]\nnetwork = \"mgmt\"",
                "[profiles.p.teams.T]\nmembers = [\"A\", \"B\"]\nnetworks = [\"mgmt\"]",
            )
            .replace("[networks.vm]\nrole = \"vm\"\nvlan = 100\n", "");
        assert!(findings(&design_of(&src, ""), &super::RULE).is_empty());
        let lowered = design_of(&src, "nics.A = { mtu = 1400 }");
        assert!(findings(&lowered, &super::RULE).is_empty());
        assert!(!findings(&lowered, &crate::rules::mtu::mtu_mismatch::RULE).is_empty());
        // A member above the smallest changes nothing mtu-mismatch sees.
        let raised = design_of(&src, "nics.A = { mtu = 9000 }");
        let f = findings(&raised, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0]
            .message
            .contains("member NIC `A` under network `mgmt` has MTU 9000"));
    }

    fn design_of(base: &str, hv3: &str) -> String {
        base.replace("HV3", hv3)
    }

    #[test]
    fn cabling_and_card_names_are_not_asymmetry() {
        let f = findings(
            &design("nics.A = { port = \"te1/0/9\", card = \"other\" }"),
            &super::RULE,
        );
        assert!(f.is_empty(), "{f:#?}");
    }

    #[test]
    fn clusters_are_compared_separately() {
        let src = design("cluster = \"b\"\nnics.D = { speed = \"1G\" }");
        assert!(findings(&src, &super::RULE).is_empty());
    }

    #[test]
    fn two_odd_hosts_on_one_profile_share_one_finding() {
        let src = BASE.replace("HV3", "").replace(
            "[profiles.p.nics.A]",
            "[profiles.q]\n[hosts.hv4]\nprofile = \"q\"\n[hosts.hv5]\nprofile = \"q\"\n[profiles.p.nics.A]",
        );
        // hv4 and hv5 (profile q) carry nothing: each gets one finding per
        // network, all at their own host header.
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 2, "{f:#?}");
        assert!(f.iter().all(|d| d.message.contains(
            "does not carry networks `mgmt`, `vm`, `csv`, unlike hosts `hv1`, `hv2`, `hv3`"
        )));
    }
}
