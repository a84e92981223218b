//! `lm-drain-time`: draining a host after one adapter failure takes longer
//! than `design.drain_budget`.

use super::emit_per_host;
use crate::phrases::bandwidth::{bound_text, fmt_rate, fmt_seconds};
use crate::phrases::failure::{fabric_port_name, UnitWords};
use crate::rules::located::speed_lines;
use crate::{declare_rule, Context};
use netlint_analysis::bandwidth::BYTES_PER_GIB;
use netlint_analysis::bandwidth::{Known, TrafficClass};
use netlint_analysis::failure::PathRate;
use netlint_model::{units::trim_float, Diagnostic, HostId, Speed};

declare_rule!(
    RULE,
    id: "lm-drain-time",
    category: "traffic",
    severity: Warning,
    summary: "Draining a host over live migration, after one adapter failure, takes longer than `drain_budget`.",
    check: check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let d = cx.design;
    let Some(budget) = &d.drain_budget else {
        return;
    };
    let mut found = Vec::new();
    for (hi, host) in d.hosts.iter().enumerate() {
        let hb = cx.bandwidth().host(HostId(hi));
        let (Some(drain), Some(lm)) = (&hb.drain, hb.class(TrafficClass::LiveMigration)) else {
            continue;
        };
        let worst = drain.worst();
        // Adapters of unknown speed: the time is an upper bound (at
        // `AtLeast`) or none; over the budget it cannot be told
        // (`speed-unknown` names the check).
        if worst.known == Known::Unknown || worst.known == Known::AtLeast {
            continue;
        }
        // The fabric: the path to the slowest peer, healthy and after the
        // worst single fabric failure, bounds every stream by its slowest
        // cable (issue 34 item 1).
        let path = cx.lm_path(HostId(hi));
        let healthy_path = path.and_then(|p| Some((p.healthy?, p.healthy_rate()?)));
        let fabric_failure = path.and_then(|p| Some((p.degraded.clone()?, p.degraded_rate()?)));
        let adapter_rate = match healthy_path {
            Some((_, r)) => worst.rate.min(r),
            None => worst.rate,
        };
        let fabric_rate = fabric_failure
            .as_ref()
            .map(|(_, r)| drain.healthy.rate.min(*r));
        let memory_bits = drain.memory_gib.value * BYTES_PER_GIB * 8.0;
        let seconds_at = |r: Speed| memory_bits / r.bps().max(1) as f64;
        // Over standard frames, the same factor as the adapters' figure.
        let frames_at = |secs: f64| {
            worst
                .standard_frames
                .map(|(_, hi)| {
                    format!(
                        "; over standard 1500-byte frames expect up to {} (jumbo frames gave 10-20 % more in published tests)",
                        fmt_seconds(secs * hi / worst.seconds)
                    )
                })
                .unwrap_or_default()
        };
        let topo = cx.topology();
        let port_words =
            |p: &PathRate| (fabric_port_name(d, topo, p.port), topo.ports[p.port].link);
        let stream_words = |flows: u64, p: &PathRate| {
            format!(
                "{} per stream ({flows} stream{} at once, a LAG carrying each on one cable; {} in all)",
                fmt_rate(p.per_stream),
                if flows == 1 { "" } else { "s" },
                fmt_rate(p.aggregate)
            )
        };
        let flows = path.map_or(1, |p| p.flows);
        let (message, rate_lines): (String, Option<netlint_model::LinkId>) = match (
            fabric_rate,
            &fabric_failure,
        ) {
            (Some(fr), Some(((unit, peer, p), _))) if fr < adapter_rate => {
                let secs = seconds_at(fr);
                if secs <= budget.value.seconds as f64 {
                    continue;
                }
                let (port, link) = port_words(p);
                (
                    format!(
                        "draining {} GiB after {} fails takes at least {} at {} (line rate), over the drain budget of {}; bottleneck: live migration to `{}` then crosses link `{port}` at {}{}",
                        trim_float(drain.memory_gib.value),
                        unit.describe(d, topo),
                        fmt_seconds(secs),
                        fmt_rate(fr),
                        budget.value,
                        d.host(*peer).name,
                        stream_words(flows, p),
                        frames_at(secs)
                    ),
                    Some(link),
                )
            }
            _ => {
                let secs = seconds_at(adapter_rate);
                if secs <= budget.value.seconds as f64 {
                    continue;
                }
                match healthy_path {
                    Some(((peer, p), r)) if r < worst.rate => {
                        let (port, link) = port_words(&p);
                        (
                            format!(
                                "draining {} GiB takes at least {} at {} (line rate) with nothing failed, over the drain budget of {}; bottleneck: live migration to `{}` crosses link `{port}` at {}{}",
                                trim_float(drain.memory_gib.value),
                                fmt_seconds(secs),
                                fmt_rate(adapter_rate),
                                budget.value,
                                d.host(peer).name,
                                stream_words(flows, &p),
                                frames_at(secs)
                            ),
                            Some(link),
                        )
                    }
                    _ => {
                        let figures = lm.worst();
                        let bottleneck = figures
                            .aggregate
                            .bottleneck()
                            .map(|b| bound_text(host, b))
                            .unwrap_or_default();
                        let after = match &drain.degraded {
                            Some((lost, _)) => {
                                format!("after losing adapter `{}`", host.nic(*lost).name)
                            }
                            None => "with any one adapter lost (none changes it)".to_string(),
                        };
                        (
                            format!(
                                "draining {} GiB {after} takes at least {} at {} (line rate), over the drain budget of {}; bottleneck: {bottleneck}{}",
                                trim_float(drain.memory_gib.value),
                                fmt_seconds(worst.seconds),
                                fmt_rate(worst.rate),
                                budget.value,
                                frames_at(worst.seconds)
                            ),
                            None,
                        )
                    }
                }
            }
        };
        let mut diagnostic = cx
                .finding(&RULE, host.element(), drain.memory_gib.span, message)
                .with_related(budget.span, format!("drain_budget {}", budget.value))
                .with_help(match (rate_lines, host.os.value.is_vsphere()) {
                    (Some(link), _) => format!(
                        "widen the path the streams take: faster cables on link `{}` (a stream never exceeds one cable of a LAG, so more cables do not speed it up), or cable the hosts' live-migration adapters to one switch; or raise `drain_budget` if the time is acceptable",
                        d.link(link).name
                    ),
                    (None, true) => "widen the vMotion path that sets the bottleneck: more or faster uplinks for vMotion, or multi-NIC vMotion (one vMotion vmkernel port per uplink, each active on a different one); or raise `drain_budget` if the time is acceptable".to_string(),
                    (None, false) => "widen the live-migration path that sets the bottleneck: more or faster adapters for live migration, SMB transport across several adapters, or load balancing that uses every team member; or raise `drain_budget` if the time is acceptable".to_string(),
                });
        if let Some(l) = rate_lines {
            let link = d.link(l);
            let span = link.speed.as_ref().map_or(link.members.span, |s| s.span);
            diagnostic = diagnostic.with_related(span, format!("link `{}`", link.name));
        }
        // The adapters' speeds set the time: one host's slower adapter (an
        // override) is the line that differs for it.
        for (span, label) in speed_lines(host, &lm.nics_in_use()) {
            diagnostic = diagnostic.with_related(span, label);
        }
        found.push(diagnostic);
    }
    emit_per_host(out, found);
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const BASE: &str = r#"
[design]
name = "t"
platform = "windows-server-2016"
drain_budget = "BUDGET"
[networks.lm]
role = "live-migration"
vlan = 30
[networks.csv]
role = "csv"
vlan = 20
[switches.sw]
[profiles.p]
memory_gb = 128
[profiles.p.nics.X1]
speed = "1G"
switch = "sw"
networks = ["lm"]
[profiles.p.nics.X2]
speed = "1G"
switch = "sw"
networks = ["csv"]
[profiles.p.live_migration]
transport = "TRANSPORT"
networks = ["lm", "csv"]
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
"#;

    fn src(budget: &str, t: &str) -> String {
        BASE.replace("BUDGET", budget).replace("TRANSPORT", t)
    }

    #[test]
    fn over_budget_fires_with_the_estimate_and_bottleneck() {
        // SMB over 2 x 1G: losing one leaves 1 Gb/s: 128 GiB in 1099.5 s.
        let f = findings(&src("10m", "smb"), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        let m = &f[0].message;
        assert!(
            m.starts_with("hosts `hv1`, `hv2`: draining 128 GiB after losing adapter `X1` takes at least 18m20s at 1 Gb/s (line rate), over the drain budget of 10m"),
            "{m}"
        );
        assert!(m.contains("expect up to 21m59s"), "{m}");
        assert_eq!(f[0].element(), "hosts.hv1");
    }

    #[test]
    fn within_budget_or_no_budget_is_silent() {
        assert!(findings(&src("20m", "smb"), &super::RULE).is_empty());
        let none = src("10m", "smb").replace("drain_budget = \"10m\"\n", "");
        assert!(findings(&none, &super::RULE).is_empty());
    }

    #[test]
    fn tcp_is_unchanged_by_one_loss_and_says_so() {
        let f = findings(&src("15m", "tcp"), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("draining 128 GiB with any one adapter lost (none changes it) takes at least 18m20s"),
            "{}",
            f[0].message
        );
    }

    /// Two ToRs joined by `isl` (2 x 10G) and a blocked 8 x 1G `backup`;
    /// each host's live-migration adapter on one side (issue 34 item 1).
    const FABRIC: &str = r#"
[design]
name = "t"
platform = "windows-server-2022"
drain_budget = "4m"
[networks.lm]
role = "live-migration"
vlan = 30
[switches.tor-a]
stp = { priority = 4096 }
[switches.tor-b]
stp = { priority = 8192 }
[[links]]
name = "isl"
a = "tor-a"
b = "tor-b"
speed = "ISL_SPEED"
members = ISL_MEMBERS
[[links]]
name = "backup"
a = "tor-a"
b = "tor-b"
speed = "1G"
members = 8
stp_cost = 1500
[profiles.p]
memory_gb = 256
[profiles.p.nics.LM1]
speed = "10G"
switch = "tor-a"
networks = ["lm"]
[profiles.p.live_migration]
transport = "tcp"
networks = ["lm"]
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
nics.LM1.switch = "tor-b"
"#;

    #[test]
    fn one_isl_cable_moving_the_tree_onto_1g_cables_is_over_budget() {
        let src = FABRIC
            .replace("ISL_SPEED", "10G")
            .replace("ISL_MEMBERS", "2");
        let f = findings(&src, &super::RULE);
        // Healthy: 256 GiB at 10 Gb/s is 3m40s, within 4m; after one ISL
        // cable the two streams cross 1G cables: 2 Gb/s, 18m20s.
        assert_eq!(f.len(), 2, "{f:#?}");
        assert!(
            f[0].message.starts_with(
            "host `hv1`: draining 256 GiB after cable 1 of 2 of link `isl` fails takes at least 18m20s at 2 Gb/s (line rate), over the drain budget of 4m; bottleneck: live migration to `hv2` then crosses link `backup` at 1 Gb/s per stream (2 streams at once, a LAG carrying each on one cable; 8 Gb/s in all)"
            ),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn a_healthy_1g_cross_switch_path_sets_the_drain_not_the_10g_adapters() {
        // One 1G ISL, the backup slower still: with nothing failed every
        // migration between the two sides runs at 1 Gb/s, never 10.
        let src = FABRIC
            .replace("ISL_SPEED", "1G")
            .replace("ISL_MEMBERS", "1")
            .replace("stp_cost = 1500", "stp_cost = 200000");
        let f = findings(&src, &super::RULE);
        assert!(!f.is_empty(), "{f:#?}");
        let m = &f[0].message;
        assert!(
            m.contains(
                "draining 256 GiB takes at least 36m39s at 1 Gb/s (line rate) with nothing failed"
            ),
            "{m}"
        );
        assert!(!m.contains("10 Gb/s"), "{m}");
    }

    #[test]
    fn hosts_on_one_switch_cross_no_link() {
        let src = FABRIC
            .replace("ISL_SPEED", "1G")
            .replace("ISL_MEMBERS", "1")
            .replace("nics.LM1.switch = \"tor-b\"", "");
        assert!(findings(&src, &super::RULE).is_empty());
    }
}
