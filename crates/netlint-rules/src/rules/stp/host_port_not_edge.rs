//! `host-port-not-edge`: a switch with host-facing ports lacks
//! `host_ports.edge = true` or `bpdu_guard = true`.

use super::and_list;
use crate::phrases::words::host_list;
use crate::rules::fix_at::switch_table;
use crate::{declare_rule, Context};
use netlint_model::{
    Attachment, Design, Diagnostic, Fix, FixEdit, HostPortView, Sp, Span, StpMode, SwitchId,
    SwitchPort, TomlPath,
};

declare_rule!(
    RULE,
    id: "host-port-not-edge",
    category: "stp",
    severity: Warning,
    summary: "A switch with host-facing ports lacks `host_ports.edge = true` or `bpdu_guard = true`.",
    check: check,
);

/// The hosts whose ports take a setting from one switch's `host_ports`,
/// and its first such cable with a label.
type Facing = (Vec<usize>, Option<(Span, String)>);

/// Per switch: hosts whose ports inherit each setting from `host_ports`
/// (`edge`, `bpdu_guard`); per configured port that states a setting
/// false itself: the port, its host and what it lacks.
struct Ports<'d> {
    inherit: Vec<[Facing; 2]>,
    own: Vec<(SwitchId, &'d SwitchPort, &'d str, &'d str, [bool; 2])>,
    /// Ports configured under the switch that no NIC is cabled to and no
    /// link names (host-facing by the format: `host_ports` describes every
    /// port facing a host, and a port that differs is configured on its
    /// own), which state a setting false themselves although the switch's
    /// `host_ports` has it true: a design or an import of switch configs
    /// without the hosts' collections (`spanning-tree port type edge`
    /// removed from one host port).
    uncabled: Vec<(SwitchId, &'d SwitchPort, [bool; 2])>,
}

const EDGE: &str = "`edge = true` (without it a host port waits 30 seconds, listening and learning, before it forwards after every link flap, since no switch answers its spanning-tree proposal: a team member coming back or a host rebooting is cut off that long)";
const GUARD: &str = "`bpdu_guard = true` (a host that bridges its NICs, or a misconnected switch, could then take part in spanning tree or loop the network)";

fn host_ports<'d>(design: &'d Design) -> Ports<'d> {
    let mut inherit: Vec<[Facing; 2]> = (0..design.switches.len())
        .map(|_| [(Vec::new(), None), (Vec::new(), None)])
        .collect();
    let mut own = Vec::new();
    for (hi, host) in design.hosts.iter().enumerate() {
        for nic in &host.nics {
            let (Some(Attachment::Switch(s)), Some(view)) =
                (&nic.attach, HostPortView::of(design, nic))
            else {
                continue;
            };
            let port = view.port;
            let settings = [
                port.and_then(|p| p.edge.as_ref()),
                port.and_then(|p| p.bpdu_guard.as_ref()),
            ];
            let mut lacks = [false; 2];
            for (i, stated) in settings.iter().enumerate() {
                match stated {
                    Some(v) => lacks[i] = !v.value,
                    None => {
                        let (hosts, cable) = &mut inherit[s.value.0][i];
                        if hosts.last() != Some(&hi) {
                            hosts.push(hi);
                        }
                        cable.get_or_insert_with(|| {
                            (
                                s.span,
                                format!(
                                    "`{}` NIC `{}` is cabled to `{}`",
                                    host.name, nic.name, view.switch.name
                                ),
                            )
                        });
                    }
                }
            }
            if let (Some(p), true) = (port, lacks.iter().any(|l| *l)) {
                own.push((s.value, p, host.name.as_str(), nic.name.as_str(), lacks));
            }
        }
    }
    // Ports a NIC or a link end is on: every other configured port faces a
    // host the design does not describe.
    let mut used: Vec<(SwitchId, &str)> = own.iter().map(|o| (o.0, o.1.name.as_str())).collect();
    for host in &design.hosts {
        for nic in &host.nics {
            if let (Some(Attachment::Switch(s)), Some(view)) =
                (&nic.attach, HostPortView::of(design, nic))
            {
                if let Some(p) = view.port {
                    used.push((s.value, p.name.as_str()));
                }
            }
        }
    }
    for l in &design.links {
        if let Some(p) = &l.ends.port_a {
            used.push((l.a.value, p.value.as_str()));
        }
        if let Some(p) = &l.ends.port_b {
            for b in &l.b {
                used.push((b.value, p.value.as_str()));
            }
        }
    }
    let mut uncabled = Vec::new();
    for (si, sw) in design.switches.iter().enumerate() {
        let hp = &sw.host_ports;
        let policy = [
            hp.edge.as_ref().is_some_and(|e| e.value),
            hp.bpdu_guard.as_ref().is_some_and(|g| g.value),
        ];
        for p in &sw.ports {
            if used.contains(&(SwitchId(si), p.name.as_str())) {
                continue;
            }
            let lacks = [
                policy[0] && p.edge.as_ref().is_some_and(|e| !e.value),
                policy[1] && p.bpdu_guard.as_ref().is_some_and(|g| !g.value),
            ];
            if lacks.iter().any(|l| *l) {
                uncabled.push((SwitchId(si), p, lacks));
            }
        }
    }
    Ports {
        inherit,
        own,
        uncabled,
    }
}

/// `key = true`: the stated `false` replaced, or the key added to its
/// table (at `table`).
fn set_true(path: TomlPath, stated: &Option<Sp<bool>>, table: Span) -> FixEdit {
    match stated {
        Some(v) => FixEdit::replace(path, v.value, true, v.span),
        None => FixEdit::insert(path, true, table),
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let design = cx.design;
    let ports = host_ports(design);
    for (si, (sw, [edge_f, guard_f])) in design.switches.iter().zip(ports.inherit).enumerate() {
        // Without spanning tree, ports forward at once and nothing guards.
        if sw.stp.mode.value == StpMode::None {
            continue;
        }
        let hp = &sw.host_ports;
        let edge = edge_f.0.is_empty() || hp.edge.as_ref().is_some_and(|e| e.value);
        let guard = guard_f.0.is_empty() || hp.bpdu_guard.as_ref().is_some_and(|g| g.value);
        if !(edge && guard) {
            let mut hosts: Vec<usize> = Vec::new();
            let mut missing = Vec::new();
            let mut cable = None;
            for (ok, (hs, c), text) in [(edge, &edge_f, EDGE), (guard, &guard_f, GUARD)] {
                if ok {
                    continue;
                }
                missing.push(text.to_string());
                hosts.extend(hs);
                cable = cable.or(c.clone());
            }
            // In design order, each once.
            hosts.sort_unstable();
            hosts.dedup();
            let hosts: Vec<&str> = hosts
                .iter()
                .map(|h| design.hosts[*h].name.as_str())
                .collect();
            let message = if hp.span.is_none() {
                format!(
                    "switch `{}` has ports facing {} and no `host_ports`, so they are taken as the switch ships them, without {}",
                    sw.name,
                    host_list(&hosts),
                    and_list(&missing)
                )
            } else {
                format!(
                    "switch `{}` has ports facing {} but its `host_ports` lack {}",
                    sw.name,
                    host_list(&hosts),
                    and_list(&missing)
                )
            };
            let help = format!(
                "set `host_ports = {{ edge = true, bpdu_guard = true }}` on `{}`, and configure the host-facing ports so on the switch (`spanning-tree portfast` and `spanning-tree bpduguard enable` on Cisco, `spanning-tree port type edge` and `bpduguard` elsewhere)",
                sw.name
            );
            let span = hp
                .edge
                .as_ref()
                .filter(|e| !e.value && !edge)
                .map(|e| e.span)
                .or(hp
                    .bpdu_guard
                    .as_ref()
                    .filter(|g| !g.value && !guard)
                    .map(|g| g.span))
                .or(hp.span)
                .unwrap_or(sw.span);
            let table = switch_table(sw).then("host_ports");
            let edits = [
                (edge, &hp.edge, "edge"),
                (guard, &hp.bpdu_guard, "bpdu_guard"),
            ]
            .into_iter()
            .filter(|(ok, _, _)| !ok)
            .map(|(_, stated, key)| {
                set_true(table.clone().then(key), stated, hp.span.unwrap_or(sw.span))
            })
            .collect();
            let mut d = cx
                .finding(&RULE, sw.element(), span, message)
                .with_help(help)
                .with_fix(Some(Fix::safe(
                    format!("set `{table} = {{ edge = true, bpdu_guard = true }}`"),
                    edits,
                )));
            if let Some((cable_span, cable_label)) = cable {
                d = d.with_related(cable_span, cable_label);
            }
            out.push(d);
        }
        let own = ports
            .own
            .iter()
            .filter(|o| o.0 .0 == si)
            .map(|(_, port, host, nic, lacks)| {
                (
                    *port,
                    format!("faces host `{host}` (NIC `{nic}`)"),
                    lacks,
                    "",
                )
            });
        let uncabled = ports
            .uncabled
            .iter()
            .filter(|o| o.0 .0 == si)
            .map(|(_, port, lacks)| {
                (
                    *port,
                    "faces a host the design does not describe (configured under the switch, named by no link or NIC)".to_string(),
                    lacks,
                    ", which the switch's `host_ports` gives its host ports",
                )
            });
        for (port, faces, lacks, tail) in own.chain(uncabled) {
            let mut missing = Vec::new();
            let mut edits = Vec::new();
            let port_table = switch_table(sw).then("ports").then(port.name.as_str());
            let mut span = None;
            for (i, (stated, text)) in [(&port.edge, EDGE), (&port.bpdu_guard, GUARD)]
                .into_iter()
                .enumerate()
            {
                if lacks[i] {
                    let key = if i == 0 { "edge" } else { "bpdu_guard" };
                    edits.push(set_true(port_table.clone().then(key), stated, port.span));
                    missing.push(text.to_string());
                    span = span.or(stated.as_ref().map(|v| v.span));
                }
            }
            out.push(
                cx.finding(
                    &RULE,
                    sw.element(),
                    span.unwrap_or(port.span),
                    format!(
                        "port `{}` of switch `{}` {faces} but is configured without {}{tail}",
                        port.name,
                        sw.name,
                        and_list(&missing)
                    ),
                )
                .with_related(port.span, format!("port `{}`", port.name))
                .with_help(format!(
                    "set `edge = true` and `bpdu_guard = true` on port `{}` (or remove them there to take the switch's `host_ports`), and configure the port so on the switch",
                    port.name
                ))
                .with_fix(Some(Fix::safe(
                    format!("set `edge = true` and `bpdu_guard = true` in `{port_table}`"),
                    edits,
                ))),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const ONE: &str = r#"
[design]
name = "t"
[switches.tor]
HOST_PORTS
[switches.spare]
[hosts.hv1.nics.A]
speed = "10G"
switch = "tor"
[hosts.hv2.nics.A]
speed = "10G"
switch = "tor"
"#;

    #[test]
    fn missing_host_ports_names_both_settings_and_the_hosts() {
        let f = findings(&ONE.replace("HOST_PORTS", ""), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "switches.tor");
        let m = &f[0].message;
        assert!(m.starts_with("switch `tor` has ports facing hosts `hv1`, `hv2` and no `host_ports`, so they are taken as the switch ships them, without `edge = true`"), "{m}");
        assert!(m.contains("and `bpdu_guard = true`"), "{m}");
        assert_eq!(f[0].related[0].message, "`hv1` NIC `A` is cabled to `tor`");
    }

    /// A port configured under the switch that no NIC and no link is on
    /// faces a host the design does not describe (an import of switch
    /// configs without the hosts' collections): its own `edge = false`
    /// against the switch's `host_ports` is reported at its line; a port a
    /// link names (an uplink) is not, nor one whose switch's `host_ports`
    /// has no edge to give.
    #[test]
    fn an_uncabled_host_port_that_turns_edge_off_is_reported_at_its_line() {
        let design = r#"
[design]
name = "t"
[switches.tor]
host_ports = { edge = true, bpdu_guard = true }
[switches.tor.ports."Ethernet1"]
edge = false
[switches.tor.ports."Ethernet49"]
edge = false
[switches.agg]
[[links]]
name = "up"
a = "tor"
b = "agg"
port_a = "Ethernet49"
speed = "100G"
"#;
        let f = findings(design, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        let m = &f[0].message;
        assert!(
            m.starts_with("port `Ethernet1` of switch `tor` faces a host the design does not describe (configured under the switch, named by no link or NIC) but is configured without `edge = true`"),
            "{m}"
        );
        assert!(!m.contains("bpdu_guard = true"), "{m}");
        assert!(
            m.ends_with("which the switch's `host_ports` gives its host ports"),
            "{m}"
        );
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert_eq!(at, design.find("edge = false").unwrap() + "edge = ".len());
        let fix = f[0].fix.as_ref().expect("a fix");
        assert_eq!(
            fix.edits[0].path.to_string(),
            "switches.tor.ports.Ethernet1.edge"
        );
        // Without edge in `host_ports`, the port takes nothing it turns off.
        let off = design.replace("host_ports = { edge = true, bpdu_guard = true }", "");
        assert!(findings(&off, &super::RULE).is_empty());
    }

    #[test]
    fn edge_without_bpdu_guard_names_only_the_guard() {
        let f = findings(
            &ONE.replace("HOST_PORTS", "host_ports = { edge = true }"),
            &super::RULE,
        );
        assert_eq!(f.len(), 1);
        assert!(!f[0].message.contains("`edge = true`"), "{}", f[0].message);
        assert!(f[0].message.contains("`bpdu_guard = true`"));
    }

    #[test]
    fn a_configured_port_overrides_host_ports_and_is_reported_at_its_line() {
        let ports = "host_ports = { edge = true, bpdu_guard = true }\n[switches.tor.ports.\"Ethernet1/5\"]\nedge = false\n[switches.tor.ports.\"Ethernet1/6\"]\nbpdu_guard = true";
        let s = ONE.replace("HOST_PORTS", ports).replace(
            "[hosts.hv1.nics.A]\nspeed = \"10G\"\nswitch = \"tor\"",
            "[hosts.hv1.nics.A]\nspeed = \"10G\"\nswitch = \"tor\"\nswitch_port = \"Ethernet1/5\"",
        );
        let f = findings(&s, "host-port-not-edge");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.starts_with("port `Ethernet1/5` of switch `tor` faces host `hv1` (NIC `A`) but is configured without `edge = true`"), "{}", f[0].message);
        assert!(!f[0].message.contains("bpdu_guard"), "{}", f[0].message);
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert!(s[at..].starts_with("false"), "{}", &s[at..]);
        // The fix: that `false` becomes `true` on the port's own line.
        let fix = f[0].fix.as_ref().expect("a fix");
        assert_eq!(fix.edits.len(), 1, "{fix:#?}");
        let e = &fix.edits[0];
        assert_eq!(
            e.path.to_string(),
            "switches.tor.ports.\"Ethernet1/5\".edge"
        );
        assert_eq!(e.old, Some(netlint_model::FixValue::Bool(false)));
        assert_eq!(e.span.start, at);
        // host_ports lacking the guard: the port that states its own guard
        // is not among the hosts that lack it.
        let s2 = s.replace("host_ports = { edge = true, bpdu_guard = true }", "host_ports = { edge = true }")
            .replace("[hosts.hv2.nics.A]\nspeed = \"10G\"\nswitch = \"tor\"", "[hosts.hv2.nics.A]\nspeed = \"10G\"\nswitch = \"tor\"\nswitch_port = \"Ethernet1/6\"");
        let f = findings(&s2, "host-port-not-edge");
        assert_eq!(f.len(), 2, "{f:#?}");
        let sw = f
            .iter()
            .find(|d| d.message.starts_with("switch `tor`"))
            .unwrap();
        assert!(
            sw.message
                .contains("facing host `hv1` but its `host_ports` lack `bpdu_guard = true`"),
            "{}",
            sw.message
        );
    }

    #[test]
    fn both_set_or_no_hosts_or_no_stp_is_silent() {
        assert!(findings(
            &ONE.replace(
                "HOST_PORTS",
                "host_ports = { edge = true, bpdu_guard = true }"
            ),
            &super::RULE
        )
        .is_empty());
        assert!(findings(
            &ONE.replace("HOST_PORTS", "stp = { mode = \"none\" }"),
            &super::RULE
        )
        .is_empty());
    }
}
