//! `bpdu-filter-risk`: BPDU filter on a port that faces another switch, or
//! on a host port where it silences BPDU guard.

use crate::rules::fix_at::switch_table;
use crate::{declare_rule, Context};
use netlint_model::{
    Attachment, Diagnostic, End, Fix, FixEdit, Severity, StpMode, Switch, SwitchId, SwitchPort,
};
use std::collections::BTreeSet;

declare_rule!(
    RULE,
    id: "bpdu-filter-risk",
    category: "stp",
    severity: Error,
    summary: "BPDU filter on a port that can see another switch: spanning tree cannot see the loop through it.",
    check: check,
);

fn filters(p: &SwitchPort) -> bool {
    p.bpdu_filter.as_ref().is_some_and(|f| f.value)
}

/// `bpdu_filter = false` on the port's line: definite (the help's other
/// half, the switch's own configuration, is the user's to do).
fn filter_off(sw: &Switch, port: &SwitchPort) -> Option<Fix> {
    let f = port.bpdu_filter.as_ref()?;
    let path = switch_table(sw)
        .then("ports")
        .then(port.name.as_str())
        .then("bpdu_filter");
    Some(Fix::safe(
        format!("set `{path} = false`"),
        vec![FixEdit::replace(path, true, false, f.span)],
    ))
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let design = cx.design;
    let runs_stp = |s: SwitchId| design.switch(s).stp.mode.value != StpMode::None;
    // Inter-switch link ends on a configured port with BPDU filter.
    let mut seen: BTreeSet<(SwitchId, &str)> = BTreeSet::new();
    for link in &design.links {
        let ends = std::iter::once((End::A, 0, link.a.value, link.b[0].value)).chain(
            link.b
                .iter()
                .enumerate()
                .map(|(i, b)| (End::B, i, b.value, link.a.value)),
        );
        for (end, at, here, there) in ends {
            let Some(port) = link.port_at(design, end, at) else {
                continue;
            };
            if !filters(port) || !runs_stp(here) || !seen.insert((here, &port.name)) {
                continue;
            }
            let filter = port
                .bpdu_filter
                .as_ref()
                .map(|f| f.span)
                .unwrap_or(port.span);
            let (sw, other) = (&design.switch(here).name, &design.switch(there).name);
            out.push(
                cx.finding(
                    &RULE,
                    design.switch(here).element(),
                    filter,
                    format!(
                        "port `{}` of switch `{sw}` filters BPDUs (`bpdu_filter = true`) but is link `{}` to switch `{other}`: it neither sends nor receives BPDUs, so spanning tree on `{sw}` cannot see a loop through it and never blocks one: a second path between the two switches is a broadcast storm",
                        port.name, link.name
                    ),
                )
                .with_related(link.span, format!("link `{}` uses port `{}`", link.name, port.name))
                .with_fix(filter_off(design.switch(here), port))
                .with_help(format!(
                    "remove BPDU filter from port `{}` of `{sw}` (`no spanning-tree bpdufilter`), and set `bpdu_filter = false` or remove it in the design; to keep another domain's BPDUs out, use root guard (`root_guard = true`) instead",
                    port.name
                )),
            );
        }
    }
    // Host-facing ports: BPDU filter drops a BPDU before BPDU guard sees
    // it, so the guard on the port never trips.
    for host in &design.hosts {
        for nic in &host.nics {
            let (Some(Attachment::Switch(s)), Some(p)) = (&nic.attach, &nic.switch_port) else {
                continue;
            };
            let sw = design.switch(s.value);
            let port = &sw.ports[p.value];
            if !filters(port) || !runs_stp(s.value) || !seen.insert((s.value, &port.name)) {
                continue;
            }
            let guard = port
                .bpdu_guard
                .as_ref()
                .or(sw.host_ports.bpdu_guard.as_ref())
                .filter(|g| g.value);
            let filter = port
                .bpdu_filter
                .as_ref()
                .map(|f| f.span)
                .unwrap_or(port.span);
            let mut d = cx
                .finding_at(
                    &RULE,
                    Severity::Warning,
                    sw.element(),
                    filter,
                    format!(
                        "port `{}` of switch `{}` faces host `{}` (NIC `{}`) with BPDU filter on (`bpdu_filter = true`): a switch or a bridging host plugged into it is never seen by spanning tree{}",
                        port.name,
                        sw.name,
                        host.name,
                        nic.name,
                        if guard.is_some() {
                            ", and the filter drops BPDUs before BPDU guard sees them, so the guard never shuts the port"
                        } else {
                            ""
                        }
                    ),
                )
                .with_help(format!(
                    "remove BPDU filter from port `{}` and rely on `edge = true` with `bpdu_guard = true`, which shuts the port when a BPDU arrives",
                    port.name
                ))
                .with_fix(filter_off(sw, port));
            if let Some(g) = guard {
                d = d.with_related(g.span, "BPDU guard that never trips");
            }
            out.push(d);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;
    use netlint_model::Severity;

    const BASE: &str = r#"
[design]
name = "t"
[switches.tor-a]
host_ports = { edge = true, bpdu_guard = true }
[switches.tor-a.ports."Ethernet1/49"]
ISL_FILTER
[switches.tor-a.ports."Ethernet1/5"]
bpdu_filter = HOST_FILTER
[switches.tor-b]
[[links]]
name = "isl"
a = "tor-a"
b = "tor-b"
speed = "10G"
port_a = "Ethernet1/49"
[hosts.hv1.nics.A]
speed = "10G"
switch = "tor-a"
switch_port = "Ethernet1/5"
"#;

    fn src(filter: &str, host: &str) -> String {
        BASE.replace("ISL_FILTER", filter)
            .replace("HOST_FILTER", host)
    }

    #[test]
    fn a_filtering_port_on_an_inter_switch_link_is_an_error_at_its_line() {
        let s = src("bpdu_filter = true", "false");
        let f = findings(&s, "bpdu-filter-risk");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Error);
        assert!(
            f[0].message.starts_with("port `Ethernet1/49` of switch `tor-a` filters BPDUs (`bpdu_filter = true`) but is link `isl` to switch `tor-b`"),
            "{}",
            f[0].message
        );
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert!(s[at..].starts_with("true"), "{}", &s[at..]);
        assert_eq!(f[0].element(), "switches.tor-a");
    }

    #[test]
    fn a_filtering_host_port_is_a_warning_naming_the_silenced_guard() {
        let f = findings(&src("", "true"), "bpdu-filter-risk");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Warning);
        assert!(
            f[0].message.contains("faces host `hv1` (NIC `A`)"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].message.contains("the guard never shuts the port"),
            "{}",
            f[0].message
        );
        assert_eq!(f[0].related.len(), 1);
    }

    #[test]
    fn no_filter_or_no_stp_is_silent() {
        assert!(findings(&src("bpdu_filter = false", "false"), "bpdu-filter-risk").is_empty());
        let off = src("bpdu_filter = true", "true").replace(
            "[switches.tor-a]\n",
            "[switches.tor-a]\nstp = { mode = \"none\" }\n",
        );
        assert!(findings(&off, "bpdu-filter-risk").is_empty());
    }
}
