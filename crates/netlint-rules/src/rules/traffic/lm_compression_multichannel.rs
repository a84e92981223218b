//! `lm-compression-multichannel`: live migration uses compression over
//! several non-teamed adapters, which compression cannot use together.

use super::emit_per_host;
use crate::phrases::bandwidth::fmt_rate;
use crate::rules::fix_at::host_table;
use crate::{declare_rule, Context};
use netlint_analysis::bandwidth::TrafficClass;
use netlint_analysis::Via;
use netlint_model::{Diagnostic, Fix, FixEdit, HostId, NicIdx, Transport};

declare_rule!(
    RULE,
    id: "lm-compression-multichannel",
    category: "traffic",
    severity: Info,
    summary: "Live migration uses compression over several non-teamed adapters: compression cannot use SMB multichannel.",
    check: check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let d = cx.design;
    let mut found = Vec::new();
    for (hi, host) in d.hosts.iter().enumerate() {
        if !host.os.value.is_windows() {
            continue;
        }
        let Some(lm) = &host.live_migration else {
            continue;
        };
        if lm.transport.value != Transport::Compression {
            continue;
        }
        let Some(model) = cx
            .bandwidth()
            .host(HostId(hi))
            .class(TrafficClass::LiveMigration)
        else {
            continue;
        };
        let mut nics: Vec<(NicIdx, String)> = Vec::new();
        for p in &model.ports {
            if let Via::Nic(n) = p.via {
                if !nics.iter().any(|(m, _)| *m == n) {
                    nics.push((n, d.network(p.network).name.clone()));
                }
            }
        }
        if nics.len() < 2 {
            continue;
        }
        // The total needs every adapter's speed (`speed-unknown` names
        // the check otherwise).
        let Some(total) = netlint_analysis::speeds::sum_known(
            nics.iter().map(|(n, _)| host.nic(*n).known_speed()),
        ) else {
            continue;
        };
        let listed: Vec<String> = nics
            .iter()
            .map(|(n, net)| format!("`{}` for `{net}`", host.nic(*n).name))
            .collect();
        // `compression` is never the default (`tcp` is): the line is
        // written, in the host or its profile.
        let at = lm.transport.span;
        let edit = FixEdit::replace(
            host_table(host, at)
                .then("live_migration")
                .then("transport"),
            Transport::Compression.as_str(),
            Transport::Smb.as_str(),
            at,
        );
        let mut edits = vec![edit];
        // Over SMB, live migration that shares adapters with storage needs
        // the cap `smb-bandwidth-cap-missing` asks for: the fix sets it too,
        // computed on a copy of the design that migrates over SMB.
        if lm.smb_bandwidth_limit.is_none() {
            let mut after = d.clone();
            if let Some(l) = after.hosts[hi].live_migration.as_mut() {
                l.transport.value = Transport::Smb;
            }
            let acx = Context::new(&after);
            if let Some(mb) = super::smb_bandwidth_cap_missing::needed_cap(&acx, HostId(hi)) {
                edits.push(super::smb_bandwidth_cap_missing::cap_edit(host, mb));
            }
        }
        let what: Vec<String> = edits.iter().map(|e| format!("`{e}`")).collect();
        let fix = Fix::safe(format!("set {}", what.join(", ")), edits);
        found.push(cx
                .finding(
                    &RULE,
                    host.element(),
                    lm.transport.span,
                    format!(
                        "live migration uses compression over {} non-teamed adapters ({}): compression cannot use SMB multichannel, so migrations run over one adapter at a time, {} of the {} these adapters have",
                        nics.len(),
                        listed.join(", "),
                        fmt_rate(model.healthy.aggregate.speed()),
                        fmt_rate(total)
                    ),
                )
                .with_help(
                    "set `transport = \"smb\"` to let SMB multichannel use every listed adapter at once (SMB Direct too, on RDMA adapters), or keep compression (it trades CPU for bandwidth) knowing the other adapters are fallbacks",
                )
                .with_fix(Some(fix)));
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
[networks.csv]
role = "csv"
vlan = 20
[networks.lm]
role = "live-migration"
vlan = 30
[switches.sw]
[profiles.p.nics.X1]
speed = "10G"
switch = "sw"
networks = ["csv"]
[profiles.p.nics.X2]
speed = "10G"
switch = "sw"
networks = ["lm"]
[profiles.p.live_migration]
transport = "TRANSPORT"
networks = NETS
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
"#;

    fn src(t: &str, nets: &str) -> String {
        BASE.replace("TRANSPORT", t).replace("NETS", nets)
    }

    #[test]
    fn compression_over_two_nics_fires() {
        let f = findings(&src("compression", "[\"lm\", \"csv\"]"), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "hosts `hv1`, `hv2`: live migration uses compression over 2 non-teamed adapters (`X2` for `lm`, `X1` for `csv`): compression cannot use SMB multichannel, so migrations run over one adapter at a time, 10 Gb/s of the 20 Gb/s these adapters have"
        );
    }

    #[test]
    fn one_adapter_smb_or_tcp_is_silent() {
        assert!(findings(&src("compression", "[\"lm\"]"), &super::RULE).is_empty());
        assert!(findings(&src("smb", "[\"lm\", \"csv\"]"), &super::RULE).is_empty());
        assert!(findings(&src("tcp", "[\"lm\", \"csv\"]"), &super::RULE).is_empty());
    }
}
