//! `smb-bandwidth-cap-degraded`: the SMB live-migration cap is above what
//! the shared adapters give after losing one of them, or above their total.

use super::emit_per_host;
use super::host_ports::{lm_shared_adapters, smb_share};
use crate::phrases::bandwidth::fmt_rate;
use crate::phrases::failure::{fabric_port_name, UnitWords};
use crate::rules::fix_at::host_table;
use crate::rules::located::speed_lines;
use crate::{declare_rule, Context};
use netlint_analysis::bandwidth::{validator_limit, BoundKind, Known, TrafficClass};
use netlint_model::{Bandwidth, Diagnostic, Fix, FixEdit, HostId, Speed};

declare_rule!(
    RULE,
    id: "smb-bandwidth-cap-degraded",
    category: "traffic",
    severity: Warning,
    summary: "The SMB live-migration cap is above what the shared adapters give after losing one, or above their total.",
    check: check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut found = Vec::new();
    for (hi, host) in cx.design.hosts.iter().enumerate() {
        let Some(lm) = &host.live_migration else {
            continue;
        };
        let Some(cap) = &lm.smb_bandwidth_limit else {
            continue;
        };
        let Some(shared) = lm_shared_adapters(cx, HostId(hi)) else {
            continue;
        };
        let Some(model) = cx
            .bandwidth()
            .host(HostId(hi))
            .class(TrafficClass::LiveMigration)
        else {
            continue;
        };
        let cap_speed = Speed::from_bps(cap.value.bits_per_sec().round() as u64);
        let cap_text = format!(
            "`smb_bandwidth_limit` {} MB/s ({})",
            netlint_model::units::trim_float(cap.value.ps_megabytes()),
            fmt_rate(cap_speed)
        );
        // What the adapters give, and what the fabric path to the slowest
        // peer gives the host's streams (the smaller).
        let adapters = model.healthy.aggregate.speed_without(BoundKind::SmbCap);
        let healthy = match cx.lm_path(HostId(hi)).and_then(|p| p.healthy_rate()) {
            Some(r) => adapters.min(r),
            None => adapters,
        };
        let over = if healthy < adapters {
            "over its adapters and the fabric path to its slowest peer"
        } else {
            "over its adapters"
        };
        let rdma = model
            .healthy
            .in_use
            .iter()
            .any(|i| model.ports[*i].rdma.is_some());
        // The figures need every adapter's speed (`speed-unknown` names
        // the check otherwise).
        let Some((limit, _)) = validator_limit(host, &shared.nics, smb_share(host, rdma).0) else {
            continue;
        };
        if model.healthy.aggregate.known() != Known::Exact
            || model
                .degraded
                .as_ref()
                .is_some_and(|d| d.figures.aggregate.known() != Known::Exact)
        {
            continue;
        }
        let validator = format!(
            "Microsoft's validator figure for these adapters is {}MB",
            limit.ps_megabytes().floor()
        );
        // What the cap must stay under: all the adapters give, and what one
        // adapter down leaves.
        let mut under = healthy;
        let (message, help) = if cap_speed > healthy {
            (
                format!(
                    "the live-migration cap, {cap_text}, is above the {} live migration can reach {over}: it never limits, so migrations can still starve SMB storage and CSV",
                    fmt_rate(healthy)
                ),
                format!(
                    "lower `smb_bandwidth_limit` well below {}; {validator}",
                    fmt_rate(healthy)
                ),
            )
        } else if let Some((unit, left, link)) =
            fabric_left(cx, HostId(hi), healthy).filter(|(_, left, _)| {
                cap_speed > *left
                    && model.degraded.as_ref().is_none_or(|d| {
                        *left < d.figures.aggregate.speed_without(BoundKind::SmbCap)
                    })
            })
        {
            // A single fabric failure leaves live migration less than the
            // cap: its streams cross a slower path (issue 34 item 1).
            under = left;
            (
                format!(
                    "the live-migration cap, {cap_text}, is above the {} left to live migration after {} fails (of {}): its streams then cross link `{link}`, and migrations take all of it and starve SMB storage and CSV",
                    fmt_rate(left),
                    unit.describe(cx.design, cx.topology()),
                    fmt_rate(healthy)
                ),
                format!(
                    "size the cap for that failure: below {} (what the path over `{link}` leaves), leaving room for storage; or widen that path; {validator}",
                    fmt_rate(left)
                ),
            )
        } else if let Some(deg) = &model.degraded {
            let left = deg.figures.aggregate.speed_without(BoundKind::SmbCap);
            if cap_speed <= left {
                continue;
            }
            under = left;
            let lost = &host.nic(deg.lost).name;
            (
                format!(
                    "the live-migration cap, {cap_text}, is above the {} left to live migration after losing adapter `{lost}` (of {}): with one adapter down, migrations take all of it and starve SMB storage and CSV",
                    fmt_rate(left),
                    fmt_rate(healthy)
                ),
                format!(
                    "size the cap for one adapter down: below {} (what remains without `{lost}`), leaving room for storage; {validator}",
                    fmt_rate(left)
                ),
            )
        } else {
            continue;
        };
        // The fix: the validator's figure, when it is below what the cap
        // must stay under (and so below the cap), on the cap's own line.
        let mb = limit.ps_megabytes().floor();
        let figure = Bandwidth::from_bytes_per_sec(mb * 1_048_576.0);
        let fits = Speed::from_bps(figure.bits_per_sec().round() as u64) < under;
        let fix = cx
            .design
            .written_at(cap.span)
            .filter(|_| fits && mb >= 1.0)
            .map(|old| {
                let edit = FixEdit::replace(
                    host_table(host, cap.span)
                        .then("live_migration")
                        .then("smb_bandwidth_limit"),
                    old.clone(),
                    format!("{mb}MB"),
                    cap.span,
                );
                Fix::safe(format!("set `{edit}`"), vec![edit])
            });
        let mut diagnostic = cx
            .finding(&RULE, host.element(), cap.span, message)
            .with_related(lm.transport.span, "live migration over SMB")
            .with_help(help)
            .with_fix(fix);
        // The adapters' speeds decide what is left: one host's slower
        // adapter (an override) is the line that differs for it.
        for (span, label) in speed_lines(host, &shared.nics) {
            diagnostic = diagnostic.with_related(span, label);
        }
        found.push(diagnostic);
    }
    emit_per_host(out, found);
}

/// What live migration keeps after the single fabric failure that leaves it
/// least, when less than `healthy`: the unit, the rate and the link that
/// then sets the streams' speed.
fn fabric_left(
    cx: &Context<'_>,
    h: HostId,
    healthy: Speed,
) -> Option<(netlint_analysis::failure::Unit, Speed, String)> {
    let path = cx.lm_path(h)?;
    let (unit, _, p) = path.degraded.as_ref()?;
    let left = path.degraded_rate()?.min(healthy);
    if left >= healthy {
        return None;
    }
    let name = fabric_port_name(cx.design, cx.topology(), p.port);
    Some((unit.clone(), left, name))
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const BASE: &str = r#"
[design]
name = "t"
platform = "windows-server-2016"
[networks.smb1]
role = "storage"
protocol = "smb"
vlan = 711
[networks.smb2]
role = "storage"
protocol = "smb"
vlan = 712
[switches.a]
[switches.b]
[profiles.p.nics.N1]
speed = "10G"
switch = "a"
networks = ["smb1"]
[profiles.p.nics.N2]
speed = "10G"
switch = "b"
networks = ["smb2"]
[profiles.p.live_migration]
transport = "smb"
networks = ["smb1", "smb2"]
smb_bandwidth_limit = "CAP"
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
"#;

    #[test]
    fn a_cap_above_one_adapter_fires_naming_the_lost_adapter() {
        // 16 Gb/s on 2 x 10G: one NIC down leaves 10 Gb/s.
        let s = BASE.replace("CAP", "16Gbps");
        let f = findings(&s, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        let m = &f[0].message;
        assert!(
            m.contains("1907.35 MB/s (16 Gb/s), is above the 10 Gb/s left to live migration after losing adapter `N1` (of 20 Gb/s)"),
            "{m}"
        );
        assert!(m.starts_with("hosts `hv1`, `hv2`: "), "{m}");
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert_eq!(&s[at..at + 8], "\"16Gbps\"");
    }

    #[test]
    fn a_cap_above_the_total_never_limits() {
        let f = findings(&BASE.replace("CAP", "3000MB"), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains(
                "is above the 20 Gb/s live migration can reach over its adapters: it never limits"
            ),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn a_cap_that_fits_one_adapter_down_is_silent() {
        // 1000 MB = 8.39 Gb/s < 10 Gb/s.
        assert!(findings(&BASE.replace("CAP", "1000MB"), &super::RULE).is_empty());
    }

    #[test]
    fn a_cap_above_what_a_fabric_failure_leaves_fires_naming_it() {
        // hv1 on `a`, hv2 on `b`: SMB crosses `isl` (2 x 10G). One ISL
        // cable down moves the tree onto `backup`'s 1G cables: 8 channels
        // at 1 Gb/s each, 8 Gb/s, under the 8.39 Gb/s cap (issue 34 item 1).
        let s = BASE
            .replace("CAP", "1000MB")
            .replace(
                "[switches.a]\n[switches.b]\n",
                "[switches.a]\nstp = { priority = 4096 }\n[switches.b]\nstp = { priority = 8192 }\n[[links]]\nname = \"isl\"\na = \"a\"\nb = \"b\"\nspeed = \"10G\"\nmembers = 2\n[[links]]\nname = \"backup\"\na = \"a\"\nb = \"b\"\nspeed = \"1G\"\nmembers = 8\nstp_cost = 1500\n",
            )
            .replace("switch = \"b\"\nnetworks = [\"smb2\"]", "switch = \"a\"\nnetworks = [\"smb2\"]")
            .replace(
                "[hosts.hv2]\nprofile = \"p\"",
                "[hosts.hv2]\nprofile = \"p\"\nnics.N1.switch = \"b\"\nnics.N2.switch = \"b\"",
            );
        let f = findings(&s, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        let m = &f[0].message;
        assert!(
            m.contains("is above the 8 Gb/s left to live migration after cable 1 of 2 of link `isl` fails (of 20 Gb/s): its streams then cross link `backup`"),
            "{m}"
        );
    }
}
