//! `dcb-priority-mismatch`: host and switches disagree on lossless
//! priorities, or ETS shares exceed 100 %.

use super::emit_per_host;
use super::host_ports::{cabled_switches, rdma_path_switches, smb_direct_policy, smb_direct_uses};
use crate::phrases::words::host_list;
use crate::rules::fix_at::{host_table, switch_table};
use crate::{declare_rule, Context};
use netlint_model::{
    Diagnostic, Fix, FixEdit, FixValue, HostId, NetworkId, Sp, Span, SwitchId, TomlPath,
};
use std::collections::BTreeMap;

declare_rule!(
    RULE,
    id: "dcb-priority-mismatch",
    category: "traffic",
    severity: Error,
    summary: "Host and switches disagree on the SMB Direct lossless priority, or ETS shares exceed 100 %.",
    check: check,
);

fn list(p: &[u8]) -> String {
    p.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The unsafe fix that adds `prio` to the PFC list `pfc` written at
/// `path` (its items as written, then `prio`). Adding it where the traffic
/// runs lossy, rather than moving the policy, is a judgement.
fn pfc_plus(path: TomlPath, pfc: &Sp<Vec<u8>>, prio: u8) -> Fix {
    let ints =
        |v: &[u8]| FixValue::Array(v.iter().map(|p| FixValue::from(u16::from(*p))).collect());
    let mut new = pfc.value.clone();
    new.push(prio);
    let edit = FixEdit::replace(path, ints(&pfc.value), ints(&new), pfc.span);
    Fix::unsafe_(format!("set `{} = {}`", edit.path, ints(&new)), vec![edit])
}

fn ets_over(ets: &Sp<BTreeMap<u8, u32>>) -> Option<(u32, String)> {
    let sum: u32 = ets.value.values().sum();
    (sum > 100).then(|| {
        (
            sum,
            ets.value
                .iter()
                .map(|(k, v)| format!("{k} = {v}"))
                .collect::<Vec<_>>()
                .join(", "),
        )
    })
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let d = cx.design;
    let uses = smb_direct_uses(cx);
    let mut found = Vec::new();
    for (hi, host) in d.hosts.iter().enumerate() {
        let Some(dcb) = &host.dcb else { continue };
        if let Some(ets) = &dcb.ets {
            if let Some((sum, items)) = ets_over(ets) {
                found.push(cx
                        .finding(
                            &RULE,
                            host.element(),
                            ets.span,
                            format!("the host's ETS shares add up to {sum} % ({items}): ETS divides 100 % of the link"),
                        )
                        .with_help("lower the shares so that they add up to 100 at most (SMB Direct typically 50, cluster 1-2)"));
            }
        }
        let Some(policy) = smb_direct_policy(host) else {
            continue;
        };
        let Some(pfc) = &dcb.pfc else { continue };
        let carries = uses.iter().any(|u| u.host.0 == hi);
        if !carries || pfc.value.is_empty() || pfc.value.contains(&policy.priority.value) {
            continue;
        }
        found.push(cx
                .finding(
                    &RULE,
                    host.element(),
                    policy.priority.span,
                    format!(
                        "DCB policy `{}` puts SMB Direct on priority {}, but the host enables PFC on priority {} only: SMB Direct runs lossy",
                        policy.name.value,
                        policy.priority.value,
                        list(&pfc.value)
                    ),
                )
                .with_related(pfc.span, format!("PFC on {}", list(&pfc.value)))
                .with_help(format!(
                    "use one priority for SMB Direct everywhere: add {} to the host's `pfc` (and every switch's on the path), or move the policy to priority {}",
                    policy.priority.value,
                    pfc.value[0]
                ))
                .with_fix(Some(pfc_plus(
                    host_table(host, pfc.span).then("dcb").then("pfc"),
                    pfc,
                    policy.priority.value,
                ))));
    }
    emit_per_host(out, found);

    for sw in &d.switches {
        if let Some(ets) = sw.dcb.as_ref().and_then(|x| x.ets.as_ref()) {
            if let Some((sum, items)) = ets_over(ets) {
                out.push(
                    cx.finding(
                        &RULE,
                        sw.element(),
                        ets.span,
                        format!("switch `{}`: ETS shares add up to {sum} % ({items}): ETS divides 100 % of the link", sw.name),
                    )
                    .with_help("lower the shares so that they add up to 100 at most"),
                );
            }
        }
    }

    // Switches on the path whose PFC misses the hosts' SMB Direct priority.
    let mut by_net: BTreeMap<NetworkId, Vec<HostId>> = BTreeMap::new();
    let mut ends: BTreeMap<NetworkId, Vec<SwitchId>> = BTreeMap::new();
    for u in &uses {
        let hosts = by_net.entry(u.network).or_default();
        if !hosts.contains(&u.host) {
            hosts.push(u.host);
        }
        let e = ends.entry(u.network).or_default();
        for s in cabled_switches(cx, u.host, &u.active) {
            if !e.contains(&s) {
                e.push(s);
            }
        }
    }
    // (switch, priority) -> networks, hosts, the first policy's span.
    type Key = (SwitchId, u8);
    let mut misses: BTreeMap<Key, (Vec<NetworkId>, Vec<HostId>, Span)> = BTreeMap::new();
    for (net, hosts) in &by_net {
        let path = rdma_path_switches(d, d.network(*net).vlan_id(), &ends[net]);
        for h in hosts {
            let Some(policy) = smb_direct_policy(d.host(*h)) else {
                continue;
            };
            let prio = policy.priority.value;
            for s in &path {
                let Some(pfc) = d.switch(*s).dcb.as_ref().and_then(|x| x.pfc.as_ref()) else {
                    continue; // no PFC at all: `rdma-without-dcb`
                };
                if pfc.value.is_empty() || pfc.value.contains(&prio) {
                    continue;
                }
                let e = misses
                    .entry((*s, prio))
                    .or_insert_with(|| (Vec::new(), Vec::new(), policy.priority.span));
                if !e.0.contains(net) {
                    e.0.push(*net);
                }
                if !e.1.contains(h) {
                    e.1.push(*h);
                }
            }
        }
    }
    port_pfc_off(cx, &uses, out);
    for ((sid, prio), (nets, hosts, policy_span)) in misses {
        let sw = d.switch(sid);
        let pfc = sw
            .dcb
            .as_ref()
            .and_then(|x| x.pfc.as_ref())
            .expect("checked");
        let names: Vec<&str> = hosts.iter().map(|h| d.host(*h).name.as_str()).collect();
        let nets: Vec<String> = nets
            .iter()
            .map(|n| format!("`{}`", d.network(*n).name))
            .collect();
        out.push(
            cx.finding(
                &RULE,
                sw.element(),
                pfc.span,
                format!(
                    "switch `{}` enables PFC on priority {}, but the SMB Direct traffic it carries ({} from {}) uses priority {prio}: that traffic crosses the switch lossy",
                    sw.name,
                    list(&pfc.value),
                    nets.join(", "),
                    host_list(&names)
                ),
            )
            .with_related(policy_span, format!("SMB Direct on priority {prio}"))
            .with_help(format!(
                "add priority {prio} to `pfc` on `{}` (and give it an ETS share), or move the hosts' SMB Direct policy to a priority the switches protect",
                sw.name
            ))
            .with_fix(Some(pfc_plus(
                switch_table(sw).then("dcb").then("pfc"),
                pfc,
                prio,
            ))),
        );
    }
}

/// A RoCE adapter carrying SMB Direct on a switch port with `pfc = false`
/// (OS10 without `priority-flow-control mode on`) while its switch enables
/// PFC on the host's SMB Direct priority: that port pauses nothing, so the
/// traffic crosses it lossy. One finding per port, at its `pfc` line.
fn port_pfc_off(
    cx: &Context<'_>,
    uses: &[super::host_ports::SmbDirectUse],
    out: &mut Vec<Diagnostic>,
) {
    let d = cx.design;
    // (switch, port index) -> (priority, NIC words, networks, policy span).
    type Key = (SwitchId, usize);
    let mut off: BTreeMap<Key, (u8, Vec<String>, Vec<NetworkId>, Span)> = BTreeMap::new();
    for u in uses.iter().filter(|u| u.rdma.is_roce()) {
        let host = d.host(u.host);
        let Some(policy) = smb_direct_policy(host) else {
            continue;
        };
        let prio = policy.priority.value;
        for &n in &u.active {
            let nic = host.nic(n);
            let (Some(netlint_model::Attachment::Switch(s)), Some(p)) =
                (nic.attach.as_ref(), nic.switch_port.as_ref())
            else {
                continue;
            };
            let sw = d.switch(s.value);
            let port = &sw.ports[p.value];
            let switch_pfc = sw.dcb.as_ref().and_then(|x| x.pfc.as_ref());
            let protected = switch_pfc.is_some_and(|x| x.value.contains(&prio));
            if port.pfc.as_ref().is_none_or(|x| x.value) || !protected {
                continue;
            }
            let e = off
                .entry((s.value, p.value))
                .or_insert_with(|| (prio, Vec::new(), Vec::new(), policy.priority.span));
            let words = format!("`{}` of host `{}`", nic.name, host.name);
            if !e.1.contains(&words) {
                e.1.push(words);
            }
            if !e.2.contains(&u.network) {
                e.2.push(u.network);
            }
        }
    }
    for ((sid, pi), (prio, nics, nets, policy_span)) in off {
        let sw = d.switch(sid);
        let port = &sw.ports[pi];
        let at = port.pfc.as_ref().expect("pfc = false").span;
        let nets: Vec<String> = nets
            .iter()
            .map(|n| format!("`{}`", d.network(*n).name))
            .collect();
        let mut f = cx
            .finding(
                &RULE,
                sw.element(),
                at,
                format!(
                    "port `{}` of switch `{}` has PFC off (`pfc = false`), but RoCE adapter {} sends SMB Direct ({}) on priority {prio} through it, which the switch protects elsewhere: on this port that traffic crosses lossy",
                    port.name,
                    sw.name,
                    nics.join(", "),
                    nets.join(", ")
                ),
            )
            .with_related(policy_span, format!("SMB Direct on priority {prio}"))
            .with_help(format!(
                "turn PFC on at the port (OS10 `priority-flow-control mode on` under `interface {}`), then remove `pfc = false`",
                port.name
            ));
        if let Some(pfc) = sw.dcb.as_ref().and_then(|x| x.pfc.as_ref()) {
            f = f.with_related(
                pfc.span,
                format!("the switch's PFC priorities ({})", list(&pfc.value)),
            );
        }
        let edit = FixEdit::replace(
            switch_table(sw)
                .then("ports")
                .then(port.name.as_str())
                .then("pfc"),
            false,
            true,
            at,
        );
        out.push(f.with_fix(Some(Fix::safe(
            format!("set `{}` = true", edit.path),
            vec![edit],
        ))));
    }
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
[switches.tor]
dcb = SWDCB
[profiles.p.nics.N1]
speed = "25G"
switch = "tor"
rdma = "roce-v2"
networks = ["smb1"]
[profiles.p.dcb]
willing = false
pfc = HOSTPFC
ets = HOSTETS
policies = [{ name = "SMB", match = "smb-direct", priority = 3 }]
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
"#;

    fn src(sw: &str, pfc: &str, ets: &str) -> String {
        BASE.replace("SWDCB", sw)
            .replace("HOSTPFC", pfc)
            .replace("HOSTETS", ets)
    }

    const OK_SW: &str = "{ pfc = [3], ets = { 3 = 50, 7 = 1 } }";
    const OK_ETS: &str = "{ 3 = 50, 7 = 1 }";

    /// An OS10 host port without `priority-flow-control mode on`, as the
    /// import writes it: `pfc = false` on the port of hv2's RoCE adapter.
    #[test]
    fn a_port_with_pfc_off_under_a_roce_adapter_fires_at_its_pfc() {
        let s = src(OK_SW, "[3]", OK_ETS)
            .replace(
                "[profiles.p.nics.N1]",
                "[switches.tor.ports.\"ethernet1/1/2\"]\npfc = false\n[profiles.p.nics.N1]",
            )
            .replace(
                "[hosts.hv2]\nprofile = \"p\"",
                "[hosts.hv2]\nprofile = \"p\"\nnics.N1.switch_port = \"ethernet1/1/2\"",
            );
        let f = findings(&s, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "port `ethernet1/1/2` of switch `tor` has PFC off (`pfc = false`), but RoCE adapter `N1` of host `hv2` sends SMB Direct (`smb1`) on priority 3 through it, which the switch protects elsewhere: on this port that traffic crosses lossy"
        );
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert!(s[at..].starts_with("false\n"), "{}", &s[at..]);
        let fix = f[0].fix.as_ref().expect("a fix");
        assert_eq!(
            fix.edits[0].path.to_string(),
            "switches.tor.ports.\"ethernet1/1/2\".pfc"
        );
        // The port with PFC on, or no RoCE adapter on it: nothing.
        let on = s.replace("pfc = false", "pfc = true");
        assert!(findings(&on, &super::RULE).is_empty());
    }

    #[test]
    fn a_switch_protecting_another_priority_fires_at_its_pfc() {
        let s = src("{ pfc = [4] }", "[3]", OK_ETS);
        let f = findings(&s, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.starts_with("switch `tor` enables PFC on priority 4, but the SMB Direct traffic it carries (`smb1` from hosts `hv1`, `hv2`) uses priority 3"),
            "{}",
            f[0].message
        );
        assert_eq!(f[0].element(), "switches.tor");
        // The switch's `pfc` takes the hosts' priority: an unsafe fix.
        let fix = f[0].fix.as_ref().expect("a fix");
        assert_eq!(fix.safety, netlint_model::FixSafety::Unsafe);
        let e = &fix.edits[0];
        assert_eq!(e.path.to_string(), "switches.tor.dcb.pfc");
        assert_eq!(e.new.as_ref().unwrap().to_string(), "[4, 3]");
    }

    #[test]
    fn a_host_whose_pfc_misses_its_policy_fires_at_the_policy() {
        let s = src(OK_SW, "[4]", OK_ETS);
        let f = findings(&s, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.starts_with("hosts `hv1`, `hv2`: DCB policy `SMB` puts SMB Direct on priority 3, but the host enables PFC on priority 4 only"),
            "{}",
            f[0].message
        );
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert_eq!(&s[at..at + 1], "3");
        // The host's `pfc` (its profile's line) takes the policy's priority.
        let fix = f[0].fix.as_ref().expect("a fix");
        assert_eq!(fix.safety, netlint_model::FixSafety::Unsafe);
        let e = &fix.edits[0];
        assert_eq!(e.path.to_string(), "profiles.p.dcb.pfc");
        assert_eq!(e.old.as_ref().unwrap().to_string(), "[4]");
        assert_eq!(e.new.as_ref().unwrap().to_string(), "[4, 3]");
    }

    #[test]
    fn ets_over_100_fires_on_host_and_switch() {
        let s = src(
            "{ pfc = [3], ets = { 3 = 90, 7 = 20 } }",
            "[3]",
            "{ 3 = 80, 7 = 30 }",
        );
        let f = findings(&s, &super::RULE);
        assert_eq!(f.len(), 2, "{f:#?}");
        assert!(f.iter().any(|d| d
            .message
            .contains("the host's ETS shares add up to 110 % (3 = 80, 7 = 30)")));
        assert!(f.iter().any(|d| d
            .message
            .contains("switch `tor`: ETS shares add up to 110 % (3 = 90, 7 = 20)")));
    }

    #[test]
    fn agreement_is_silent() {
        assert!(findings(&src(OK_SW, "[3]", OK_ETS), &super::RULE).is_empty());
    }
}
