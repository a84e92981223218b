//! `smb-bandwidth-cap-missing`: live migration over SMB shares adapters
//! with CSV or SMB storage and has no SMB bandwidth limit.

use super::emit_per_host;
use super::host_ports::{lm_shared_adapters, smb_share, with_text};
use crate::phrases::bandwidth::{fmt_rate, nics_text, validator_term};
use crate::rules::fix_at::host_table;
use crate::{declare_rule, Context};
use netlint_analysis::bandwidth::{validator_limit, TrafficClass, VALIDATOR_SMB_FACTOR};
use netlint_model::{Diagnostic, Fix, FixEdit, Host, HostId};

declare_rule!(
    RULE,
    id: "smb-bandwidth-cap-missing",
    category: "traffic",
    severity: Warning,
    summary: "Live migration over SMB shares adapters with CSV or SMB storage and has no `smb_bandwidth_limit`.",
    check: check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let d = cx.design;
    let mut found = Vec::new();
    for (hi, host) in d.hosts.iter().enumerate() {
        let Some(lm) = &host.live_migration else {
            continue;
        };
        if lm.smb_bandwidth_limit.is_some() {
            continue;
        }
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
        let rdma = model
            .healthy
            .in_use
            .iter()
            .any(|i| model.ports[*i].rdma.is_some());
        let (share, share_text) = smb_share(host, rdma);
        // The validator's figure needs every adapter's speed
        // (`speed-unknown` names the check otherwise).
        let Some((limit, lines)) = validator_limit(host, &shared.nics, share) else {
            continue;
        };
        let mb = limit.ps_megabytes().floor();
        let names: Vec<String> = shared
            .nics
            .iter()
            .map(|n| format!("`{}`", host.nic(*n).name))
            .collect();
        let mut diag = cx
            .finding(
                &RULE,
                host.element(),
                lm.transport.span,
                format!(
                    "live migration over SMB shares {} {} ({}) with {} and no `smb_bandwidth_limit` is set: migrations can take all {} and starve {} I/O",
                    if names.len() == 1 { "adapter" } else { "adapters" },
                    names.join(", "),
                    nics_text(host, &shared.nics),
                    with_text(cx, &shared.with),
                    fmt_rate(model.healthy.aggregate.speed()),
                    if shared.with.iter().any(|(c, _)| *c == TrafficClass::SmbStorage) {
                        "storage"
                    } else {
                        "CSV"
                    }
                ),
            )
            .with_help(format!(
                "set `smb_bandwidth_limit = \"{mb}MB\"` in `live_migration` (`Set-SmbBandwidthLimit -Category LiveMigration -BytesPerSecond {mb}MB`): Microsoft's validator expects, per adapter, SMB share x {VALIDATOR_SMB_FACTOR} x link speed / 8 up to 10G and 750 MB/s above; here {share_text}: {}",
                lines
                    .iter()
                    .map(|t| validator_term(host, share, t))
                    .collect::<Vec<_>>()
                    .join("; ")
            ));
        for (_, net) in &shared.with {
            let n = d.network(*net);
            diag = diag.with_related(n.role.span, format!("`{}` shares the adapters", n.name));
        }
        let edit = cap_edit(host, mb);
        diag = diag.with_fix(Some(Fix::safe(format!("set `{edit}`"), vec![edit])));
        found.push(diag);
    }
    emit_per_host(out, found);
}

/// The `smb_bandwidth_limit` (PowerShell MB per second) live migration
/// over SMB needs on host `h` of `cx`, as the help words it: `None` when
/// it needs none (no SMB transport, no shared adapter) or the figure is
/// unknown (an adapter without a speed). Whether one is set is not asked.
pub(crate) fn needed_cap(cx: &Context<'_>, h: HostId) -> Option<f64> {
    let host = cx.design.host(h);
    let shared = lm_shared_adapters(cx, h)?;
    let model = cx.bandwidth().host(h).class(TrafficClass::LiveMigration)?;
    let rdma = model
        .healthy
        .in_use
        .iter()
        .any(|i| model.ports[*i].rdma.is_some());
    let (share, _) = smb_share(host, rdma);
    let (limit, _) = validator_limit(host, &shared.nics, share)?;
    Some(limit.ps_megabytes().floor())
}

/// `smb_bandwidth_limit = "{mb}MB"` added to `host`'s `live_migration`
/// table (its own, or its profile's when it takes the table from there).
pub(crate) fn cap_edit(host: &Host, mb: f64) -> FixEdit {
    let lm = host
        .live_migration
        .as_ref()
        .expect("a live_migration table");
    FixEdit::insert(
        host_table(host, lm.span)
            .then("live_migration")
            .then("smb_bandwidth_limit"),
        format!("{mb}MB"),
        lm.span,
    )
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const BASE: &str = r#"
[design]
name = "t"
platform = "windows-server-2019"
[networks.smb1]
role = "storage"
protocol = "smb"
vlan = 711
[networks.smb2]
role = "storage"
protocol = "smb"
vlan = 712
[networks.lm]
role = "live-migration"
vlan = 30
[switches.a]
[switches.b]
[profiles.p.nics.N1]
speed = "SPEED"
switch = "a"
rdma = "roce-v2"
[profiles.p.nics.N2]
speed = "SPEED"
switch = "b"
rdma = "roce-v2"
[profiles.p.vswitches.S]
uplinks = ["N1", "N2"]
load_balancing = "hyperv-port"
[profiles.p.vswitches.S.vnics.SMB1]
network = "smb1"
rdma = true
active_uplinks = ["N1"]
[profiles.p.vswitches.S.vnics.SMB2]
network = "smb2"
rdma = true
active_uplinks = ["N2"]
[profiles.p.vswitches.S.vnics.LM]
network = "lm"
[profiles.p.live_migration]
transport = "TRANSPORT"
networks = LMNETS
CAP
DCB
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
"#;

    fn src(speed: &str, transport: &str, nets: &str, cap: &str, dcb: &str) -> String {
        BASE.replace("SPEED", speed)
            .replace("TRANSPORT", transport)
            .replace("LMNETS", nets)
            .replace("CAP", cap)
            .replace("DCB", dcb)
    }

    const NETS: &str = "[\"smb1\", \"smb2\"]";
    const DCB: &str = "[profiles.p.dcb]\nwilling = false\npfc = [3]\nets = { 3 = 50, 7 = 1 }\npolicies = [{ name = \"SMB\", match = \"smb-direct\", priority = 3 }]";

    #[test]
    fn smb_live_migration_on_storage_vnics_without_a_cap_fires_with_a_figure() {
        let s = src("25G", "smb", NETS, "", DCB);
        let f = findings(&s, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        let m = &f[0].message;
        assert!(
            m.starts_with("hosts `hv1`, `hv2`: live migration over SMB shares adapters `N1`, `N2` (2 x 25G) with SMB storage (`smb1`, `smb2`)"),
            "{m}"
        );
        assert!(m.contains("can take all 50 Gb/s"), "{m}");
        let h = f[0].help.as_ref().unwrap();
        assert!(
            h.starts_with("set `smb_bandwidth_limit = \"1500MB\"`"),
            "{h}"
        );
        assert!(h.contains("`N1` 25G: above 10G, 750 MB/s"), "{h}");
        assert_eq!(f[0].element(), "hosts.hv1");
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert_eq!(&s[at..at + 5], "\"smb\"");
    }

    #[test]
    fn at_10g_the_figure_follows_the_ets_share() {
        // 50 % x 0.6 x 10G / 8 = 375,000,000 B/s = 357 MB per adapter.
        let f = findings(&src("10G", "smb", NETS, "", DCB), &super::RULE);
        let h = f[0].help.as_ref().unwrap();
        assert!(
            h.starts_with("set `smb_bandwidth_limit = \"714MB\"`"),
            "{h}"
        );
        assert!(
            h.contains("SMB share 50 % (the ETS share of priority 3)"),
            "{h}"
        );
        // No ETS: the whole adapter, 0.6 x 10G / 8 = 715 MB per adapter.
        let f = findings(&src("10G", "smb", NETS, "", ""), &super::RULE);
        let h = f[0].help.as_ref().unwrap();
        assert!(
            h.starts_with("set `smb_bandwidth_limit = \"1430MB\"`"),
            "{h}"
        );
    }

    #[test]
    fn a_cap_tcp_or_dedicated_adapters_are_silent() {
        assert!(findings(
            &src("25G", "smb", NETS, "smb_bandwidth_limit = \"1500MB\"", DCB),
            &super::RULE
        )
        .is_empty());
        assert!(findings(&src("25G", "tcp", NETS, "", DCB), &super::RULE).is_empty());
        // LM on its own vNIC: pinned by round robin, it may share; but on
        // dedicated NICs it cannot.
        let own = src("25G", "smb", "[\"lm\"]", "", DCB).replace(
            "[profiles.p.vswitches.S.vnics.LM]\nnetwork = \"lm\"",
            "[profiles.p.nics.N3]\nspeed = \"25G\"\nswitch = \"a\"\nnetworks = [\"lm\"]",
        );
        assert!(findings(&own, &super::RULE).is_empty());
    }
}
