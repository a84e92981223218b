//! `team-hyperv-port-cap`: management-OS traffic of one class reaches a
//! hyperv-port team or SET switch through fewer vNICs than it has active
//! members, so the class is capped at (its vNICs x one member).

use crate::phrases::bandwidth::{balancer_name, fmt_rate, nics_text, port_name, transport_label};
use crate::rules::traffic::emit_worded;
use crate::rules::traffic::host_ports::{article, via_span};
use crate::{declare_rule, Context};
use netlint_analysis::bandwidth::{ClassModel, Group, PinCap, TrafficClass};
use netlint_model::fast_hash::Map as HashMap;
use netlint_model::{Diagnostic, Element, Host, HostId, Platform, Role, Span, Transport};
use std::sync::Arc;

declare_rule!(
    RULE,
    id: "team-hyperv-port-cap",
    category: "teaming",
    severity: Warning,
    summary: "Live migration, SMB or backup reaches a hyperv-port team through fewer vNICs than members: capped at one member per vNIC.",
    check: check,
);

fn class_words(c: TrafficClass) -> &'static str {
    match c {
        TrafficClass::LiveMigration => "live migration",
        TrafficClass::Csv => "CSV",
        TrafficClass::SmbStorage => "SMB storage",
        TrafficClass::Backup => "backup",
        TrafficClass::Iscsi => "iSCSI",
        TrafficClass::Vm => "VM traffic",
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let d = cx.design;
    let model = cx.bandwidth();
    // Hosts alike share their classes (one allocation) and mostly their
    // names and lines: each distinct set of facts is worded once.
    let mut words: Vec<Diagnostic> = Vec::new();
    let mut index: HashMap<Facts, usize> = HashMap::default();
    let mut found: Vec<(usize, Element)> = Vec::new();
    for (hi, host) in d.hosts.iter().enumerate() {
        let hb = model.host(HostId(hi));
        for (ci, class) in hb.classes.iter().enumerate() {
            if !matches!(
                class.class,
                TrafficClass::LiveMigration
                    | TrafficClass::Csv
                    | TrafficClass::SmbStorage
                    | TrafficClass::Backup
            ) {
                continue;
            }
            for (pi, pc) in class.pin_caps.iter().enumerate() {
                // The cap needs every member's speed (`speed-unknown`
                // names the check otherwise).
                if !pc.unknown.is_empty() {
                    continue;
                }
                // Heartbeat-only cluster networks carry no bulk traffic.
                let ports: Vec<usize> = pc
                    .ports
                    .iter()
                    .copied()
                    .filter(|i| {
                        class.class != TrafficClass::Csv
                            || d.network(class.ports[*i].network).role.value == Role::Csv
                    })
                    .collect();
                if ports.is_empty() {
                    continue;
                }
                let model = (
                    Arc::as_ptr(&hb.classes) as *const ClassModel as usize,
                    ci,
                    pi,
                );
                let (facts, element) = Facts::of(host, model, class, pc, ports);
                let w = match index.get(&facts) {
                    Some(w) => *w,
                    None => {
                        words.push(finding(cx, &facts, class, pc));
                        index.insert(facts, words.len() - 1);
                        words.len() - 1
                    }
                };
                found.push((w, element));
            }
        }
    }
    emit_worded(out, words, found);
}

/// Everything the words of a finding take from its host, beside the
/// host's (shared) bandwidth model: hosts with equal facts get equal words,
/// so [`finding`] reads these and never the host.
#[derive(PartialEq, Eq, Hash)]
struct Facts {
    /// The host's classes (the allocation hosts alike share), the class
    /// and the pin cap.
    model: (usize, usize, usize),
    /// Indices into the class's ports of the ports that carry it there.
    ports: Vec<usize>,
    os: Platform,
    /// "team", or the virtual switch's kind ("SET switch", "vSwitch").
    what: &'static str,
    /// "team `T`", "SET switch `S`".
    balancer: String,
    /// The members: "4 x 1G".
    total: String,
    /// The load-balancing line (the switch's own line when not stated).
    span: Span,
    /// Per port of `ports`: its name and the line that puts its network
    /// there.
    port_names: Vec<String>,
    port_spans: Vec<Span>,
    /// Live migration: the `transport` line and its value.
    transport: Option<(Span, Transport)>,
}

impl Facts {
    fn of(
        host: &Host,
        model: (usize, usize, usize),
        class: &ClassModel,
        pc: &PinCap,
        ports: Vec<usize>,
    ) -> (Facts, Element) {
        let b = &pc.balancer;
        let (what, element, span) = match b.group {
            Group::Team(t) => (
                "team",
                Element::team(&host.name, &host.teams[t.0].name),
                host.teams[t.0].load_balancing.span,
            ),
            Group::Switch(v) => (
                host.vswitches[v.0].kind_words(host.os.value),
                Element::vswitch(&host.name, &host.vswitches[v.0].name),
                // The host's own line (the model is shared by hosts alike).
                b.load_balancing_span(host)
                    .unwrap_or(host.vswitches[v.0].span),
            ),
        };
        let transport = (class.class == TrafficClass::LiveMigration)
            .then(|| {
                host.live_migration
                    .as_ref()
                    .map(|lm| (lm.transport.span, lm.transport.value))
            })
            .flatten();
        let facts = Facts {
            model,
            os: host.os.value,
            what,
            balancer: balancer_name(host, b),
            total: nics_text(host, &b.members),
            span,
            port_names: ports
                .iter()
                .map(|i| port_name(host, class.ports[*i].via))
                .collect(),
            port_spans: ports
                .iter()
                .map(|i| {
                    let p = &class.ports[*i];
                    via_span(host, p.via, p.network)
                })
                .collect(),
            ports,
            transport,
        };
        (facts, element)
    }
}

/// The words of a finding (its subject is set by [`emit_worded`]).
fn finding(cx: &Context<'_>, f: &Facts, class: &ClassModel, pc: &PinCap) -> Diagnostic {
    let d = cx.design;
    let b = &pc.balancer;
    let b_name = &f.balancer;
    let members = b.members.len();
    let total = &f.total;
    let what = f.what;
    let words = class_words(class.class);
    let ports = &f.ports;
    let port_names: Vec<String> = ports
        .iter()
        .zip(&f.port_names)
        .map(|(i, name)| format!("{} (`{}`)", name, d.network(class.ports[*i].network).name))
        .collect();
    let vsphere = f.os.is_vsphere();
    let how = if class.transport.one_network() {
        let p = &class.ports[ports[0]];
        let n_lm = class.networks.len();
        let sim = class
            .simultaneous
            .map(|(s, dflt)| {
                format!(
                    ", however many of the {s} simultaneous migrations{} run",
                    if dflt { " (the default)" } else { "" }
                )
            })
            .unwrap_or_default();
        format!(
            "transport `{}` runs every migration over one network at a time, here {} (`{}`{}), and that vNIC sits on one member{sim}",
            transport_label(class.transport),
            f.port_names[0],
            d.network(p.network).name,
            if n_lm > 1 {
                format!(", the first of {n_lm} live-migration networks")
            } else {
                String::new()
            }
        )
    } else {
        format!(
            "{} reaches it through {} {}: {}",
            match class.class {
                TrafficClass::LiveMigration if vsphere => "vMotion",
                TrafficClass::LiveMigration => "live migration over SMB",
                _ => words,
            },
            ports.len(),
            if ports.len() == 1 { "vNIC" } else { "vNICs" },
            port_names.join(", ")
        )
    };
    let idle = members - pc.members_used;
    let message = format!(
        "{words} limited to {} on {} {total} {what}: {} uses hyperv-port load balancing, which pins each vNIC to one member, and {how}; {idle} of the {members} members never {} {words}",
        fmt_rate(pc.cap),
        article(total),
        b_name,
        if idle == 1 { "carries" } else { "carry" },
    );
    let mut diag = cx.finding(&RULE, Element::Design, f.span, message);
    for ((i, name), span) in ports.iter().zip(&f.port_names).zip(&f.port_spans) {
        let p = &class.ports[*i];
        diag = diag.with_related(
            *span,
            format!("{} carries `{}`", name, d.network(p.network).name),
        );
    }
    if let Some((span, transport)) = f.transport {
        diag = diag.with_related(span, format!("transport `{transport}`"));
    }
    let help = if vsphere {
        format!(
            "give {} up to {members} vmkernel ports, each active on a different uplink of {} (multi-NIC vMotion for vMotion), or a teaming policy that spreads flows over the uplinks",
            if class.class == TrafficClass::LiveMigration { "vMotion" } else { words },
            b_name
        )
    } else if class.transport.one_network() {
        if f.os == Platform::Ws2012 {
            format!(
                "Windows Server 2012 has neither SMB live migration nor dynamic load balancing: give live migration its own members, e.g. a separate LACP / address-hash team of {} members without a virtual switch carrying the live-migration network, where simultaneous migrations spread over the members (Windows Server 2012 R2 and later: `transport = \"smb\"` or `load_balancing = \"dynamic\"`)",
                (members / 2).max(2)
            )
        } else {
            format!(
                "set `transport = \"smb\"` in `live_migration` and give it up to {members} vNICs on separate networks, pinned to different members (`active_uplinks`), so SMB multichannel uses them all; or set `load_balancing = \"dynamic\"` on {}, which spreads outbound flows",
                b_name
            )
        }
    } else {
        format!(
            "give {words} up to {members} vNICs (one per member), each pinned to a different member with `active_uplinks`, so SMB multichannel uses every member; or set `load_balancing = \"dynamic\"` on {}",
            b_name
        )
    };
    diag.with_help(help)
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const BASE: &str = r#"
[design]
name = "t"
platform = "PLATFORM"
[networks.lm1]
role = "live-migration"
vlan = 31
[networks.lm2]
role = "live-migration"
vlan = 32
[networks.cluster]
role = "cluster"
vlan = 11
[switches.sw]
[profiles.p.nics.A]
speed = "1G"
switch = "sw"
[profiles.p.nics.B]
speed = "1G"
switch = "sw"
[profiles.p.nics.C]
speed = "1G"
switch = "sw"
[profiles.p.nics.D]
speed = "1G"
switch = "sw"
[profiles.p.teams.T]
members = ["A", "B", "C", "D"]
mode = "switch-independent"
load_balancing = "LB"
[profiles.p.vswitches.V]
uplinks = ["T"]
[profiles.p.vswitches.V.vnics.LM1]
network = "lm1"
[profiles.p.vswitches.V.vnics.LM2]
network = "lm2"
[profiles.p.vswitches.V.vnics.Cluster]
network = "cluster"
[profiles.p.live_migration]
transport = "TRANSPORT"
networks = ["lm1", "lm2"]
simultaneous = 4
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
"#;

    fn src(platform: &str, lb: &str, transport: &str) -> String {
        BASE.replace("PLATFORM", platform)
            .replace("LB", lb)
            .replace("TRANSPORT", transport)
    }

    #[test]
    fn tcp_live_migration_on_a_hyperv_port_team_is_capped_at_one_member() {
        let f = findings(
            &src("windows-server-2012", "hyperv-port", "tcp"),
            &super::RULE,
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        let m = &f[0].message;
        assert!(
            m.starts_with("hosts `hv1`, `hv2`: live migration limited to 1 Gb/s on a 4 x 1G team: team `T` uses hyperv-port"),
            "{m}"
        );
        assert!(
            m.contains("here vNIC `LM1` on `V` (`lm1`, the first of 2 live-migration networks)"),
            "{m}"
        );
        assert!(
            m.contains("3 of the 4 members never carry live migration"),
            "{m}"
        );
        assert_eq!(f[0].element(), "hosts.hv1.teams.T");
        assert!(f[0]
            .help
            .as_ref()
            .unwrap()
            .contains("Windows Server 2012 has neither"));
        // The cluster vNIC (heartbeat) is not a finding of its own.
        assert!(!m.contains("CSV"));
    }

    #[test]
    fn smb_over_two_vnics_is_capped_at_two_of_four() {
        let f = findings(
            &src("windows-server-2019", "hyperv-port", "smb"),
            &super::RULE,
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        let m = &f[0].message;
        assert!(
            m.contains("live migration limited to 2 Gb/s on a 4 x 1G team"),
            "{m}"
        );
        assert!(
            m.contains("live migration over SMB reaches it through 2 vNICs: vNIC `LM1` on `V` (`lm1`), vNIC `LM2` on `V` (`lm2`)"),
            "{m}"
        );
        let help = f[0].help.as_ref().unwrap();
        assert!(
            help.starts_with("give live migration up to 4 vNICs (one per member)"),
            "{help}"
        );
    }

    #[test]
    fn dynamic_or_address_hash_teams_are_not_capped_this_way() {
        for lb in ["dynamic", "address-hash"] {
            assert!(
                findings(&src("windows-server-2019", lb, "tcp"), &super::RULE).is_empty(),
                "{lb}"
            );
        }
    }

    #[test]
    fn smb_over_as_many_pinned_vnics_as_members_is_not_capped() {
        let two = src("windows-server-2019", "hyperv-port", "smb").replace(
            "members = [\"A\", \"B\", \"C\", \"D\"]",
            "members = [\"A\", \"B\"]",
        );
        assert!(findings(&two, &super::RULE).is_empty());
    }

    #[test]
    fn set_switch_is_named_and_pointed_at() {
        let set = r#"
[design]
name = "t"
platform = "windows-server-2019"
[networks.smb1]
role = "storage"
protocol = "smb"
vlan = 711
[switches.sw]
[hosts.hv1.nics.A]
speed = "25G"
switch = "sw"
[hosts.hv1.nics.B]
speed = "25G"
switch = "sw"
[hosts.hv1.vswitches.S]
uplinks = ["A", "B"]
load_balancing = "hyperv-port"
[hosts.hv1.vswitches.S.vnics.SMB1]
network = "smb1"
"#;
        let f = findings(set, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.starts_with("host `hv1`: SMB storage limited to 25 Gb/s on a 2 x 25G SET switch: SET switch `S` uses hyperv-port"),
            "{}",
            f[0].message
        );
        assert_eq!(f[0].element(), "hosts.hv1.vswitches.S");
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert_eq!(&set[at..at + 13], "\"hyperv-port\"");
    }

    #[test]
    fn a_host_stating_the_profile_load_balancing_again_is_pointed_at_its_own_line() {
        // hv2 writes the profile's value again: the hosts share one
        // bandwidth model, and each finding points at the host's own line.
        let set = r#"
[design]
name = "t"
platform = "windows-server-2019"
[networks.smb1]
role = "storage"
protocol = "smb"
vlan = 711
[switches.sw]
[profiles.p.nics.A]
speed = "25G"
switch = "sw"
[profiles.p.nics.B]
speed = "25G"
switch = "sw"
[profiles.p.vswitches.S]
uplinks = ["A", "B"]
load_balancing = "hyperv-port"
[profiles.p.vswitches.S.vnics.SMB1]
network = "smb1"
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
[hosts.hv2.vswitches.S]
load_balancing = 'hyperv-port'
[hosts.hv3]
profile = "p"
"#;
        let f = findings(set, &super::RULE);
        assert_eq!(f.len(), 2, "{f:#?}");
        let line = |i: usize| {
            let s = f[i].primary.as_ref().unwrap().span;
            &set[s.start..s.end]
        };
        let hosts = |i: usize| f[i].subjects.iter().map(|e| e.path()).collect::<Vec<_>>();
        let (profile, own) = if line(0) == "\"hyperv-port\"" {
            (0, 1)
        } else {
            (1, 0)
        };
        assert_eq!(line(profile), "\"hyperv-port\"");
        assert_eq!(line(own), "'hyperv-port'");
        assert_eq!(
            hosts(profile),
            ["hosts.hv1.vswitches.S", "hosts.hv3.vswitches.S"]
        );
        assert_eq!(hosts(own), ["hosts.hv2.vswitches.S"]);
    }
}
