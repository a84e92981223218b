//! `mtu-mismatch`: hosts on one network use different MTUs, or a host vNIC /
//! team / vSwitch asks for a larger MTU than the adapter beneath it.

use crate::phrases::words::host_list;
use crate::rules::fix_at::host_table;
use crate::rules::located::Lines;
use crate::rules::merge_alike;
use crate::{declare_rule, Context};
use netlint_model::Element;
use netlint_model::{
    Design, Diagnostic, Fix, FixEdit, Host, Mtu, MtuForm, NetworkId, Nic, Sp, Span, Team, TomlPath,
    Uplink, VNic, VSwitch,
};
use std::collections::{BTreeMap, BTreeSet};

declare_rule!(
    RULE,
    id: "mtu-mismatch",
    category: "mtu",
    severity: Error,
    summary: "Hosts on one network use different MTUs, or a host vNIC / team / vSwitch asks for a larger MTU than the adapter beneath it.",
    check: check,
);

/// The key and value that give `payload` in the form the user wrote.
fn setting(form: MtuForm, payload: u32) -> String {
    match form {
        MtuForm::JumboPacket(_) => format!(
            "jumbo_packet = {}",
            payload + netlint_model::units::JUMBO_PACKET_HEADER
        ),
        _ => format!("mtu = {payload}"),
    }
}

/// What sets the MTU of a host interface or of an adapter beneath one.
#[derive(Clone, Copy)]
enum Source<'d> {
    Nic(&'d Nic),
    /// A team with its own `mtu`.
    Team(&'d Team),
    /// A team without `mtu`: its smallest member decides.
    TeamMembers(&'d Team, &'d Nic),
    /// A vNIC, and the virtual switch it is on.
    VNic(&'d VSwitch, &'d VNic),
    /// A virtual switch with its own `mtu`.
    VSwitch(&'d VSwitch),
}

impl Source<'_> {
    /// "`jumbo_packet = 9014` on NIC `P4-1`": how this element gets `payload`.
    fn fix(self, payload: u32) -> String {
        match self {
            Source::Nic(n) => format!("`{}` on NIC `{}`", setting(n.mtu.form, payload), n.name),
            Source::Team(t) => format!("`mtu = {payload}` on team `{}`", t.name),
            Source::TeamMembers(t, n) => format!(
                "`{}` on the members of team `{}`",
                setting(n.mtu.form, payload),
                t.name
            ),
            Source::VNic(_, v) => format!("`mtu = {payload}` on vNIC `{}`", v.name),
            Source::VSwitch(v) => format!("`mtu = {payload}` on virtual switch `{}`", v.name),
        }
    }
}

/// The edit that gives a NIC's or vNIC's `mtu` (at `mtu`, in the table
/// `table` of the element written at `element`) the payload `payload`, in
/// the form it was written (`jumbo_packet` stays `jumbo_packet`); a value
/// not written is added as `mtu` to the element's table.
fn mtu_edit(host: &Host, element: Span, table: TomlPath, mtu: &Sp<Mtu>, payload: u32) -> FixEdit {
    match mtu.form {
        MtuForm::JumboPacket(j) => FixEdit::replace(
            host_table(host, mtu.span)
                .then_all(table)
                .then("jumbo_packet"),
            j,
            payload + netlint_model::units::JUMBO_PACKET_HEADER,
            mtu.span,
        ),
        MtuForm::Mtu => FixEdit::replace(
            host_table(host, mtu.span).then_all(table).then("mtu"),
            mtu.payload,
            payload,
            mtu.span,
        ),
        MtuForm::Default | MtuForm::FrameSize(_) => FixEdit::insert(
            host_table(host, element).then_all(table).then("mtu"),
            payload,
            element,
        ),
    }
}

impl<'d> Carrier<'d> {
    /// For a vNIC, the virtual switch it is on.
    pub(super) fn vswitch(&self) -> Option<&'d VSwitch> {
        match self.source {
            Source::VNic(vs, _) => Some(vs),
            _ => None,
        }
    }

    /// The edits that make this interface run `payload`: its own line, or
    /// a team without `mtu`'s members below `payload`.
    pub(super) fn fix_edits(&self, payload: u32) -> Vec<FixEdit> {
        let host = self.host;
        let nic = |n: &Nic| {
            mtu_edit(
                host,
                n.span,
                TomlPath::new().then("nics").then(n.name.as_str()),
                &n.mtu,
                payload,
            )
        };
        match self.source {
            Source::Nic(n) => vec![nic(n)],
            Source::Team(t) => {
                let m = t.mtu.as_ref().expect("a team with its own mtu");
                vec![FixEdit::replace(
                    host_table(host, m.span)
                        .then("teams")
                        .then(t.name.as_str())
                        .then("mtu"),
                    m.payload,
                    payload,
                    m.span,
                )]
            }
            Source::TeamMembers(t, _) => {
                let mut spans = Vec::new();
                let mut edits = Vec::new();
                for m in &t.members {
                    let n = host.nic(m.value);
                    // Members that share one line (a profile's) take one edit.
                    if n.mtu.payload != payload && !spans.contains(&n.mtu.span) {
                        spans.push(n.mtu.span);
                        edits.push(nic(n));
                    }
                }
                edits
            }
            Source::VNic(vs, v) => vec![mtu_edit(
                host,
                v.span,
                TomlPath::new()
                    .then("vswitches")
                    .then(vs.name.as_str())
                    .then("vnics")
                    .then(v.name.as_str()),
                &v.mtu,
                payload,
            )],
            Source::VSwitch(_) => Vec::new(),
        }
    }
}

/// A host interface or adapter and the MTU it runs.
#[derive(Clone)]
pub(super) struct Carrier<'d> {
    host: &'d Host,
    /// `NIC `P4-1``, `team `T``, `vNIC `SMB1``.
    what: String,
    element: Element,
    pub(super) mtu: Sp<Mtu>,
    source: Source<'d>,
}

/// The MTU a team runs: its own, or else its smallest member's.
fn team_mtu<'d>(host: &'d Host, team: &'d Team) -> Option<(Sp<Mtu>, Source<'d>)> {
    if let Some(m) = &team.mtu {
        return Some((m.clone(), Source::Team(team)));
    }
    let smallest = team
        .members
        .iter()
        .map(|m| host.nic(m.value))
        .min_by_key(|n| n.mtu.payload)?;
    Some((smallest.mtu.clone(), Source::TeamMembers(team, smallest)))
}

pub(super) fn nic_carrier<'d>(host: &'d Host, nic: &'d Nic) -> Carrier<'d> {
    Carrier {
        host,
        what: format!("NIC `{}`", nic.name),
        element: Element::nic(&host.name, &nic.name),
        mtu: nic.mtu.clone(),
        source: Source::Nic(nic),
    }
}

pub(super) fn team_carrier<'d>(host: &'d Host, team: &'d Team) -> Option<Carrier<'d>> {
    let (mtu, source) = team_mtu(host, team)?;
    Some(Carrier {
        host,
        what: format!("team `{}`", team.name),
        element: Element::team(&host.name, &team.name),
        mtu,
        source,
    })
}

/// Every interface of `host` that carries the IP of `net`.
pub(super) fn carriers<'d>(host: &'d Host, net: NetworkId) -> Vec<Carrier<'d>> {
    let on_net = |ns: &[Sp<NetworkId>]| ns.iter().any(|n| n.value == net);
    let mut out: Vec<Carrier> = host
        .nics
        .iter()
        .filter(|n| on_net(&n.networks))
        .map(|n| nic_carrier(host, n))
        .collect();
    out.extend(
        host.teams
            .iter()
            .filter(|t| on_net(&t.networks))
            .filter_map(|t| team_carrier(host, t)),
    );
    for vs in &host.vswitches {
        for vnic in vs.vnics.iter().filter(|v| v.network.value == net) {
            out.push(Carrier {
                host,
                what: format!("vNIC `{}`", vnic.name),
                element: Element::vnic(&host.name, &vs.name, &vnic.name),
                mtu: vnic.mtu.clone(),
                source: Source::VNic(vs, vnic),
            });
        }
    }
    out
}

/// How a finding reads once the hosts sharing its cause are known.
enum Wording {
    /// "host `hv2` uses ... while `hv1`, `hv3` use MTU 9000".
    Disagree {
        /// After the verb.
        rest: String,
        fix: String,
        /// After the hosts in the help.
        help_tail: String,
    },
    /// "host `hv1`: vNIC `X` asks for ...".
    Beneath { fact: String, help: String },
}

/// A finding before the hosts sharing its cause are known.
struct Hit {
    host: String,
    element: Element,
    span: Span,
    /// The facts, identical for every host sharing the cause.
    key: String,
    wording: Wording,
    related: Vec<(Span, String)>,
    fix: Option<Fix>,
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut hits = Vec::new();
    hosts_disagree(cx.design, &mut hits);
    for host in &cx.design.hosts {
        larger_than_beneath(host, &mut hits);
    }
    let hosts = hosts_by_cause(
        hits.iter()
            .map(|h| ((h.span, h.key.clone()), h.host.clone())),
    );
    let mut found = Vec::new();
    for h in hits {
        let sharing = &hosts[&(h.span, h.key.clone())];
        let phrase = host_list(sharing);
        let (message, help) = match h.wording {
            Wording::Disagree {
                rest,
                fix,
                help_tail,
            } => {
                let verb = if sharing.len() == 1 { "uses" } else { "use" };
                (
                    format!("{phrase} {verb} {rest}"),
                    format!(
                        "every host must run one MTU on a network: set {fix} of {phrase}{help_tail}"
                    ),
                )
            }
            Wording::Beneath { fact, help } => (format!("{phrase}: {fact}"), help),
        };
        let mut d = cx
            .finding(&RULE, h.element, h.span, message)
            .with_help(help)
            .with_fix(h.fix);
        for (span, label) in h.related {
            d = d.with_related(span, label);
        }
        found.push(d);
    }
    out.extend(merge_alike(found));
}

fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// (1) Hosts of one cluster on one network run different MTUs: the odd
/// ones out are reported against the value most hosts use (on a tie, the
/// network's own `mtu`, then the larger).
fn hosts_disagree(design: &Design, hits: &mut Vec<Hit>) {
    for members in design.clusters().values() {
        for (ni, net) in design.networks.iter().enumerate() {
            let all: Vec<Carrier> = members
                .iter()
                .flat_map(|h| carriers(design.host(*h), NetworkId(ni)))
                .collect();
            let mut by_payload: BTreeMap<u32, Vec<&Carrier>> = BTreeMap::new();
            for c in &all {
                by_payload.entry(c.mtu.payload).or_default().push(c);
            }
            if by_payload.len() < 2 {
                continue;
            }
            let host_count = |cs: &[&Carrier]| {
                let mut names: Vec<&str> = cs.iter().map(|c| c.host.name.as_str()).collect();
                names.dedup();
                names.len()
            };
            let Some((&majority, reference)) = by_payload
                .iter()
                .max_by_key(|(p, cs)| (host_count(cs), **p == net.mtu.payload, **p))
            else {
                continue;
            };
            let mut majority_hosts: Vec<&str> = Vec::new();
            // Where the majority's value was set, and for which hosts.
            let mut majority_spans: Vec<(Span, Mtu, Vec<&str>)> = Vec::new();
            for c in reference {
                if !majority_hosts.contains(&c.host.name.as_str()) {
                    majority_hosts.push(&c.host.name);
                }
                match majority_spans.iter_mut().find(|(s, _, _)| *s == c.mtu.span) {
                    Some((_, _, hosts)) => hosts.push(&c.host.name),
                    None => majority_spans.push((c.mtu.span, c.mtu.value, vec![&c.host.name])),
                }
            }
            let others = quoted(&majority_hosts);
            let others_verb = if majority_hosts.len() == 1 {
                "uses"
            } else {
                "use"
            };
            let mut related: Vec<(Span, String)> = majority_spans
                .iter()
                .map(|(span, mtu, hosts)| {
                    (*span, format!("{} on {}", mtu.describe(), quoted(hosts)))
                })
                .collect();
            related.push((
                net.mtu.span,
                format!(
                    "network `{}` is meant to run {}",
                    net.name,
                    net.mtu.describe()
                ),
            ));
            let intent = if majority != net.mtu.payload {
                format!(
                    "; network `{}` is meant to run MTU {}: if that is the intent, raise the others to it instead",
                    net.name, net.mtu.payload
                )
            } else {
                String::new()
            };
            for (&payload, odd) in &by_payload {
                if payload == majority {
                    continue;
                }
                for c in odd {
                    // The odd interface to the majority's MTU: the majority
                    // may be the wrong side, so it needs judgement.
                    let edits = c.fix_edits(majority);
                    let fix = (!edits.is_empty()).then(|| {
                        let what: Vec<String> = edits.iter().map(|e| format!("`{e}`")).collect();
                        Fix::unsafe_(format!("set {}", what.join(", ")), edits)
                    });
                    hits.push(Hit {
                        host: c.host.name.clone(),
                        element: c.element.clone(),
                        span: c.mtu.span,
                        key: format!("{} {payload} on {}", c.what, net.name),
                        wording: Wording::Disagree {
                            rest: format!(
                                "{} on network `{}` ({}) while {others} {others_verb} MTU {majority}",
                                c.mtu.describe(),
                                net.name,
                                c.what
                            ),
                            fix: c.source.fix(majority),
                            help_tail: format!(", as on {others}{intent}"),
                        },
                        related: related.clone(),
                        fix,
                    });
                }
            }
        }
    }
}

/// (2) A team, vSwitch or vNIC asks for more than the adapter beneath it.
fn larger_than_beneath(host: &Host, hits: &mut Vec<Hit>) {
    let mut push = |element: Element, upper: &str, asked: &Sp<Mtu>, below: &Carrier| {
        let fact = format!(
            "{upper} asks for {} but {} beneath it carries {}: packets above {} bytes are dropped",
            asked.describe(),
            below.what,
            below.mtu.describe(),
            below.mtu.payload
        );
        // The line that differs for this host leads: a host's override of
        // the adapter beneath, or of the MTU asked for, before the profile.
        let (span, related) =
            Lines::new(asked.span, format!("{upper} asks for {}", asked.describe()))
                .and(
                    below.mtu.span,
                    format!("{} carries {}", below.what, below.mtu.describe()),
                )
                .for_hosts([host]);
        hits.push(Hit {
            host: host.name.clone(),
            element,
            span,
            key: fact.clone(),
            wording: Wording::Beneath {
                fact,
                help: format!(
                    "raise the adapter beneath ({}), or lower the MTU of {upper} to {}",
                    below.source.fix(asked.payload),
                    below.mtu.payload
                ),
            },
            related,
            fix: None,
        });
    };
    for team in &host.teams {
        let Some(asked) = &team.mtu else { continue };
        let smallest = team
            .members
            .iter()
            .map(|m| host.nic(m.value))
            .min_by_key(|n| n.mtu.payload);
        if let Some(nic) = smallest.filter(|n| n.mtu.payload < asked.payload) {
            let mut below = nic_carrier(host, nic);
            below.what = format!("member {}", below.what);
            push(
                Element::team(&host.name, &team.name),
                &format!("team `{}`", team.name),
                asked,
                &below,
            );
        }
    }
    for vs in &host.vswitches {
        let vs_element = Element::vswitch(&host.name, &vs.name);
        let Some(smallest) = vs
            .uplinks
            .iter()
            .filter_map(|u| match u.value {
                Uplink::Nic(n) => Some(nic_carrier(host, host.nic(n))),
                Uplink::Team(t) => team_carrier(host, &host.teams[t.0]),
            })
            .min_by_key(|c| c.mtu.payload)
        else {
            continue;
        };
        let switch_mtu = match &vs.mtu {
            Some(m) => {
                if m.payload > smallest.mtu.payload {
                    push(
                        vs_element.clone(),
                        &format!("virtual switch `{}`", vs.name),
                        m,
                        &smallest,
                    );
                }
                Carrier {
                    host,
                    what: format!("virtual switch `{}`", vs.name),
                    element: vs_element.clone(),
                    mtu: m.clone(),
                    source: Source::VSwitch(vs),
                }
            }
            // On vSphere the virtual switch sets its uplinks' MTU (the
            // loader gives each vmnic its switch's): the fix is the switch's.
            None if host.os.value.is_vsphere() => Carrier {
                host,
                what: format!("virtual switch `{}`", vs.name),
                element: vs_element.clone(),
                mtu: Sp::new(smallest.mtu.value, vs.span),
                source: Source::VSwitch(vs),
            },
            None => Carrier {
                what: format!("virtual switch `{}` (through {})", vs.name, smallest.what),
                ..smallest
            },
        };
        for vnic in vs
            .vnics
            .iter()
            .filter(|v| v.mtu.payload > switch_mtu.mtu.payload)
        {
            push(
                Element::vnic(&host.name, &vs.name, &vnic.name),
                &format!("vNIC `{}`", vnic.name),
                &vnic.mtu,
                &switch_mtu,
            );
        }
    }
}

/// The hosts that share each cause. A problem set on a profile's line is
/// one cause for every host using the profile: keyed by the span and the
/// facts, each host's finding can then carry one identical message naming
/// them all (the engine keeps one per span and message).
pub(crate) fn hosts_by_cause<K: Ord>(
    hits: impl IntoIterator<Item = (K, String)>,
) -> BTreeMap<K, Vec<String>> {
    let mut m: BTreeMap<K, (Vec<String>, BTreeSet<String>)> = BTreeMap::new();
    for (k, host) in hits {
        let (hosts, seen) = m.entry(k).or_default();
        if seen.insert(host.clone()) {
            hosts.push(host);
        }
    }
    m.into_iter().map(|(k, (hosts, _))| (k, hosts)).collect()
}

#[cfg(test)]
mod tests {
    use crate::testing::{findings, line_of, line_where};

    const ID: &crate::Rule = &super::RULE;

    const CSV: &str = r#"
[design]
name = "t"
[networks.csv]
role = "csv"
vlan = 20
mtu = 9000
[switches.sw]
mtu = 9216
[profiles.p.nics.A]
speed = "10G"
switch = "sw"
jumbo_packet = 9014
networks = ["csv"]
[hosts.h1]
profile = "p"
[hosts.h2]
profile = "p"
OVERRIDE
[hosts.h3]
profile = "p"
"#;

    #[test]
    fn the_odd_host_is_reported_at_its_override() {
        let src = CSV.replace("OVERRIDE", "nics.A = { jumbo_packet = 1514 }");
        let f = findings(&src, ID);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "hosts.h2.nics.A");
        assert_eq!(
            f[0].message,
            "host `h2` uses jumbo_packet = 1514 (MTU 1500) on network `csv` (NIC `A`) while `h1`, `h3` use MTU 9000"
        );
        let p = f[0].primary.as_ref().unwrap().span;
        assert!(
            src[p.start..p.end].contains("1514"),
            "{}",
            &src[p.start..p.end]
        );
        assert_eq!(line_of(&src, p), line_where(&src, |l| l.contains("1514")));
        assert_eq!(f[0].related.len(), 2, "{:#?}", f[0].related);
        assert!(f[0]
            .help
            .as_deref()
            .unwrap()
            .contains("set `jumbo_packet = 9014` on NIC `A` of host `h2`, as on `h1`, `h3`"));
    }

    #[test]
    fn hosts_that_agree_are_fine_even_below_the_network_mtu() {
        assert!(findings(&CSV.replace("OVERRIDE", ""), ID).is_empty());
        let all_low = CSV
            .replace("jumbo_packet = 9014", "jumbo_packet = 1514")
            .replace("OVERRIDE", "");
        assert!(findings(&all_low, ID).is_empty());
    }

    #[test]
    fn on_a_tie_the_network_mtu_decides() {
        let src = CSV
            .replace("OVERRIDE", "nics.A = { mtu = 1500 }")
            .replace("[hosts.h3]\nprofile = \"p\"\n", "");
        let f = findings(&src, ID);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "hosts.h2.nics.A");
        assert!(f[0].message.contains("uses MTU 1500 on network `csv`"));
        assert!(f[0].help.as_deref().unwrap().contains("`mtu = 9000`"));
    }

    #[test]
    fn the_majority_wins_even_against_the_network_mtu_but_the_help_says_so() {
        let src = CSV
            .replace("jumbo_packet = 9014", "mtu = 1500")
            .replace("OVERRIDE", "nics.A = { mtu = 9000 }");
        let f = findings(&src, ID);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "hosts.h2.nics.A");
        assert!(f[0].help.as_deref().unwrap().contains("raise the others"));
    }

    #[test]
    fn hosts_in_different_clusters_are_not_compared() {
        let src = CSV.replace(
            "OVERRIDE",
            "nics.A = { jumbo_packet = 1514 }\ncluster = \"other\"",
        );
        assert!(findings(&src, ID).is_empty());
    }

    #[test]
    fn a_shared_profile_line_names_every_odd_host_once() {
        // Three hosts override to jumbo, two keep the profile's 1500.
        let src = CSV
            .replace("jumbo_packet = 9014", "mtu = 1500")
            .replace("OVERRIDE", "")
            .replace(
                "[hosts.h1]\nprofile = \"p\"\n",
                "[hosts.h1]\nprofile = \"p\"\n[hosts.h4]\nprofile = \"p\"\nnics.A = { mtu = 9000 }\n[hosts.h5]\nprofile = \"p\"\nnics.A = { mtu = 9000 }\n[hosts.h6]\nprofile = \"p\"\nnics.A = { mtu = 9000 }\n",
            );
        let f = findings(&src, ID);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message
                .starts_with("hosts `h1`, `h2`, `h3` use MTU 1500 on network `csv`"),
            "{}",
            f[0].message
        );
        assert!(f[0]
            .message
            .ends_with("while `h4`, `h5`, `h6` use MTU 9000"));
    }

    const CONVERGED: &str = r#"
[design]
name = "t"
platform = "windows-server-2022"
[networks.smb1]
role = "storage"
protocol = "smb"
vlan = 711
mtu = 9000
[switches.sw]
mtu = 9216
[profiles.p.nics.A]
speed = "25G"
switch = "sw"
NIC_MTU
[profiles.p.nics.B]
speed = "25G"
switch = "sw"
NIC_MTU
[profiles.p.vswitches.S]
uplinks = ["A", "B"]
VS_MTU
[profiles.p.vswitches.S.vnics.SMB1]
network = "smb1"
mtu = 9000
[hosts.h1]
profile = "p"
[hosts.h2]
profile = "p"
"#;

    fn converged(nic: &str, vs: &str) -> String {
        CONVERGED.replace("NIC_MTU", nic).replace("VS_MTU", vs)
    }

    #[test]
    fn a_vnic_larger_than_its_uplinks_fires_once_for_the_profile() {
        let f = findings(&converged("", ""), ID);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "hosts.h1.vswitches.S.vnics.SMB1");
        assert_eq!(
            f[0].message,
            "hosts `h1`, `h2`: vNIC `SMB1` asks for MTU 9000 but virtual switch `S` (through NIC `A`) beneath it carries MTU 1500 (default): packets above 1500 bytes are dropped"
        );
        assert!(f[0]
            .help
            .as_deref()
            .unwrap()
            .contains("`mtu = 9000` on NIC `A`"));
    }

    #[test]
    fn one_hosts_override_beneath_a_vnic_is_the_primary_line() {
        let src = converged("jumbo_packet = 9014", "").replace(
            "[hosts.h2]\nprofile = \"p\"\n",
            "[hosts.h2]\nprofile = \"p\"\nnics.B = { jumbo_packet = 9000 }\n",
        );
        let f = findings(&src, ID);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "hosts.h2.vswitches.S.vnics.SMB1");
        assert!(f[0]
            .message
            .starts_with("host `h2`: vNIC `SMB1` asks for MTU 9000"));
        let p = f[0].primary.as_ref().unwrap().span;
        assert_eq!(&src[p.start..p.end], "9000");
        assert_eq!(
            line_of(&src, p),
            line_where(&src, |l| l.contains("jumbo_packet = 9000")),
            "primary at the override"
        );
        // The vNIC's profile line is a related label.
        assert_eq!(f[0].related.len(), 1, "{:#?}", f[0].related);
        let r = f[0].related[0].span;
        let lines: Vec<&str> = src.lines().collect();
        assert_eq!(
            line_of(&src, r),
            lines.iter().rposition(|l| *l == "mtu = 9000").unwrap() + 1
        );
        assert_eq!(f[0].related[0].message, "vNIC `SMB1` asks for MTU 9000");
    }

    const VSPHERE: &str = r#"
[design]
name = "t"
platform = "vsphere-8"
[networks.vmotion]
role = "live-migration"
vlan = 30
mtu = 9000
[switches.sw]
mtu = 9216
[profiles.esx.nics.vmnic0]
speed = "25G"
switch = "sw"
[profiles.esx.nics.vmnic1]
speed = "25G"
switch = "sw"
[profiles.esx.vswitches.vds]
kind = "vds"
uplinks = ["vmnic0", "vmnic1"]
VDS_MTU
[profiles.esx.vswitches.vds.vnics.vmk1]
network = "vmotion"
mtu = 9000
[hosts.esx1]
profile = "esx"
[hosts.esx2]
profile = "esx"
"#;

    #[test]
    fn a_vsphere_jumbo_vds_is_clean_without_vmnic_mtus() {
        // ESXi vmnics run the vDS MTU: nothing beneath the vDS is 1500.
        let f = findings(&VSPHERE.replace("VDS_MTU", "mtu = 9000"), ID);
        assert!(f.is_empty(), "{f:#?}");
    }

    #[test]
    fn a_vsphere_vmkernel_port_above_its_switch_is_fixed_on_the_switch() {
        let f = findings(&VSPHERE.replace("VDS_MTU", ""), ID);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "hosts `esx1`, `esx2`: vNIC `vmk1` asks for MTU 9000 but virtual switch `vds` beneath it carries MTU 1500 (default): packets above 1500 bytes are dropped"
        );
        let help = f[0].help.as_deref().unwrap();
        assert!(
            help.contains("`mtu = 9000` on virtual switch `vds`"),
            "{help}"
        );
        assert!(!help.contains("vmnic"), "{help}");
    }

    #[test]
    fn jumbo_uplinks_carry_a_9000_vnic() {
        assert!(findings(&converged("jumbo_packet = 9014", ""), ID).is_empty());
    }

    #[test]
    fn a_vswitch_mtu_above_its_uplinks_is_reported_at_the_vswitch_only() {
        let f = findings(&converged("", "mtu = 9000"), ID);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "hosts.h1.vswitches.S");
    }

    #[test]
    fn a_vnic_above_a_stated_vswitch_mtu_fires() {
        let f = findings(&converged("jumbo_packet = 9014", "mtu = 1500"), ID);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "hosts.h1.vswitches.S.vnics.SMB1");
        assert!(f[0]
            .message
            .contains("virtual switch `S` beneath it carries MTU 1500"));
    }

    #[test]
    fn a_team_above_a_member_fires_and_the_vswitch_over_it_does_not_repeat_it() {
        let src = r#"
[design]
name = "t"
[networks.vm]
role = "vm"
vlan = 100
[switches.sw]
[hosts.h1.nics.A]
speed = "10G"
switch = "sw"
mtu = 9000
[hosts.h1.nics.B]
speed = "10G"
switch = "sw"
[hosts.h1.teams.T]
members = ["A", "B"]
mtu = 9000
[hosts.h1.vswitches.V]
uplinks = ["T"]
networks = ["vm"]
mtu = 9000
"#;
        let f = findings(src, ID);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "hosts.h1.teams.T");
        assert!(
            f[0].message
                .contains("team `T` asks for MTU 9000 but member NIC `B`"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn a_team_without_mtu_runs_its_smallest_member() {
        let src = r#"
[design]
name = "t"
[networks.mgmt]
role = "management"
vlan = 10
[switches.sw]
[profiles.p.nics.A]
speed = "1G"
switch = "sw"
[profiles.p.nics.B]
speed = "1G"
switch = "sw"
[profiles.p.teams.T]
members = ["A", "B"]
networks = ["mgmt"]
[hosts.h1]
profile = "p"
[hosts.h2]
profile = "p"
[hosts.h3]
profile = "p"
nics.B = { mtu = 9000 }
nics.A = { mtu = 9000 }
"#;
        let f = findings(src, ID);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "hosts.h3.teams.T");
        assert!(f[0].message.contains("(team `T`)"), "{}", f[0].message);
        assert!(f[0]
            .help
            .as_deref()
            .unwrap()
            .contains("`mtu = 1500` on the members of team `T`"));
    }
}
