//! `lm-drain-time`: draining a host after one adapter failure takes longer
//! than `design.drain_budget`.

use super::emit_per_host;
use crate::phrases::bandwidth::{bound_text, fmt_rate, fmt_seconds};
use crate::rules::located::speed_lines;
use crate::{declare_rule, Context};
use netlint_analysis::bandwidth::{Known, TrafficClass};
use netlint_model::{units::trim_float, Diagnostic, HostId};

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
        if worst.known == Known::Unknown
            || worst.seconds <= budget.value.seconds as f64
            || worst.known == Known::AtLeast
        {
            continue;
        }
        let figures = lm.worst();
        let bottleneck = figures
            .aggregate
            .bottleneck()
            .map(|b| bound_text(host, b))
            .unwrap_or_default();
        let after = match &drain.degraded {
            Some((lost, _)) => format!("after losing adapter `{}`", host.nic(*lost).name),
            None => "with any one adapter lost (none changes it)".to_string(),
        };
        let frames = worst
            .standard_frames
            .map(|(_, hi)| {
                format!(
                    "; over standard 1500-byte frames expect up to {} (jumbo frames gave 10-20 % more in published tests)",
                    fmt_seconds(hi)
                )
            })
            .unwrap_or_default();
        let mut diagnostic = cx
                .finding(
                    &RULE,
                    host.element(),
                    drain.memory_gib.span,
                    format!(
                        "draining {} GiB {after} takes at least {} at {} (line rate), over the drain budget of {}; bottleneck: {bottleneck}{frames}",
                        trim_float(drain.memory_gib.value),
                        fmt_seconds(worst.seconds),
                        fmt_rate(worst.rate),
                        budget.value
                    ),
                )
                .with_related(budget.span, format!("drain_budget {}", budget.value))
                .with_help(if host.os.value.is_vsphere() {
                    "widen the vMotion path that sets the bottleneck: more or faster uplinks for vMotion, or multi-NIC vMotion (one vMotion vmkernel port per uplink, each active on a different one); or raise `drain_budget` if the time is acceptable"
                } else {
                    "widen the live-migration path that sets the bottleneck: more or faster adapters for live migration, SMB transport across several adapters, or load balancing that uses every team member; or raise `drain_budget` if the time is acceptable"
                });
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
}
