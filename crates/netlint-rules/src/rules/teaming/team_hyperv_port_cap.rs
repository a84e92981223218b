//! `team-hyperv-port-cap`: management-OS traffic of one class reaches a
//! hyperv-port team or SET switch through fewer vNICs than it has active
//! members, so the class is capped at (its vNICs x one member).

use crate::phrases::bandwidth::{balancer_name, fmt_rate, nics_text, port_name, transport_label};
use crate::rules::traffic::emit_per_host;
use crate::rules::traffic::host_ports::{article, via_span};
use crate::{declare_rule, Context};
use netlint_analysis::bandwidth::{ClassModel, Group, TrafficClass};
use netlint_model::Element;
use netlint_model::{Diagnostic, HostId, Platform, Role};

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
    let mut found = Vec::new();
    for (hi, host) in d.hosts.iter().enumerate() {
        let hb = cx.bandwidth().host(HostId(hi));
        for class in hb.classes.iter() {
            if !matches!(
                class.class,
                TrafficClass::LiveMigration
                    | TrafficClass::Csv
                    | TrafficClass::SmbStorage
                    | TrafficClass::Backup
            ) {
                continue;
            }
            for pc in &class.pin_caps {
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
                found.push(finding(cx, host, class, pc, &ports));
            }
        }
    }
    emit_per_host(out, found);
}

fn finding(
    cx: &Context<'_>,
    host: &netlint_model::Host,
    class: &ClassModel,
    pc: &netlint_analysis::bandwidth::PinCap,
    ports: &[usize],
) -> Diagnostic {
    let d = cx.design;
    let b = &pc.balancer;
    let b_name = balancer_name(host, b);
    let members = b.members.len();
    let total = nics_text(host, &b.members);
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
    let words = class_words(class.class);
    let lm = host.live_migration.as_ref();
    let port_names: Vec<String> = ports
        .iter()
        .map(|i| {
            let p = &class.ports[*i];
            format!(
                "{} (`{}`)",
                port_name(host, p.via),
                d.network(p.network).name
            )
        })
        .collect();
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
            port_name(host, p.via),
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
                TrafficClass::LiveMigration if host.os.value.is_vsphere() => "vMotion",
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
        article(&total),
        b_name,
        if idle == 1 { "carries" } else { "carry" },
    );
    let mut diag = cx.finding(&RULE, element, span, message);
    for i in ports {
        let p = &class.ports[*i];
        diag = diag.with_related(
            via_span(host, p.via, p.network),
            format!(
                "{} carries `{}`",
                port_name(host, p.via),
                d.network(p.network).name
            ),
        );
    }
    if class.class == TrafficClass::LiveMigration {
        if let Some(lm) = lm {
            diag = diag.with_related(
                lm.transport.span,
                format!("transport `{}`", lm.transport.value),
            );
        }
    }
    let help = if host.os.value.is_vsphere() {
        format!(
            "give {} up to {members} vmkernel ports, each active on a different uplink of {} (multi-NIC vMotion for vMotion), or a teaming policy that spreads flows over the uplinks",
            if class.class == TrafficClass::LiveMigration { "vMotion" } else { words },
            b_name
        )
    } else if class.transport.one_network() {
        if host.os.value == Platform::Ws2012 {
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
