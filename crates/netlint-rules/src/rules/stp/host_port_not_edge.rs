//! `host-port-not-edge`: a switch with host-facing ports lacks
//! `host_ports.edge = true` or `bpdu_guard = true`.

use super::and_list;
use crate::phrases::words::host_list;
use crate::{declare_rule, Context};
use netlint_model::{Attachment, Diagnostic, Span, StpMode};

declare_rule!(
    RULE,
    id: "host-port-not-edge",
    category: "stp",
    severity: Warning,
    summary: "A switch with host-facing ports lacks `host_ports.edge = true` or `bpdu_guard = true`.",
    check: check,
);

/// The hosts cabled to one switch, and its first cable with a label.
type Facing<'d> = (Vec<&'d str>, Option<(Span, String)>);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let design = cx.design;
    // One pass over the NICs: for each switch, the hosts cabled to it (each
    // once, in design order) and the first such cable.
    let mut facing: Vec<Facing> = (0..design.switches.len())
        .map(|_| (Vec::new(), None))
        .collect();
    for host in &design.hosts {
        for nic in &host.nics {
            let Some(Attachment::Switch(s)) = &nic.attach else {
                continue;
            };
            let Some((hosts, cable)) = facing.get_mut(s.value.0) else {
                continue;
            };
            if hosts.last() != Some(&host.name.as_str()) {
                hosts.push(&host.name);
            }
            cable.get_or_insert_with(|| {
                (
                    s.span,
                    format!(
                        "`{}` NIC `{}` is cabled to `{}`",
                        host.name, nic.name, design.switches[s.value.0].name
                    ),
                )
            });
        }
    }
    for (sw, (hosts, cable)) in design.switches.iter().zip(facing) {
        // Without spanning tree, ports forward at once and nothing guards.
        if sw.stp.mode.value == StpMode::None {
            continue;
        }
        let Some((cable_span, cable_label)) = cable else {
            continue;
        };
        let hp = &sw.host_ports;
        let edge = hp.edge.as_ref().is_some_and(|e| e.value);
        let guard = hp.bpdu_guard.as_ref().is_some_and(|g| g.value);
        if edge && guard {
            continue;
        }
        let mut missing = Vec::new();
        if !edge {
            missing.push(
                "`edge = true` (without it a host port waits 30 seconds, listening and learning, before it forwards after every link flap, since no switch answers its spanning-tree proposal: a team member coming back or a host rebooting is cut off that long)".to_string(),
            );
        }
        if !guard {
            missing.push(
                "`bpdu_guard = true` (a host that bridges its NICs, or a misconnected switch, could then take part in spanning tree or loop the network)".to_string(),
            );
        }
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
            .filter(|e| !e.value)
            .map(|e| e.span)
            .or(hp.bpdu_guard.as_ref().filter(|g| !g.value).map(|g| g.span))
            .or(hp.span)
            .unwrap_or(sw.span);
        out.push(
            cx.finding(&RULE, sw.element(), span, message)
                .with_help(help)
                .with_related(cable_span, cable_label),
        );
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
