//! `rdma-without-dcb`: RoCE adapters carry SMB Direct but the host, or a
//! switch on the path, has no PFC for it.

use super::emit_per_host;
use super::host_ports::{
    cabled_switches, rdma_path_switches, smb_direct_policy, smb_direct_uses, SmbDirectUse,
};
use crate::phrases::words::host_list;
use crate::rules::fix_at::switch_table;
use crate::{declare_rule, Context};
use netlint_model::{Diagnostic, Fix, FixEdit, FixValue, HostId, NetworkId, Switch, SwitchId};
use std::collections::BTreeMap;

declare_rule!(
    RULE,
    id: "rdma-without-dcb",
    category: "traffic",
    severity: Error,
    summary: "RoCE adapters carry SMB Direct without PFC on the host or on a switch on the path.",
    check: check,
);

/// "vNIC `SMB1` on `S` (`smb1`, roce-v2)".
fn uses_text(cx: &Context<'_>, uses: &[&SmbDirectUse]) -> String {
    uses.iter()
        .map(|u| {
            format!(
                "{} (`{}`, {})",
                u.name,
                cx.design.network(u.network).name,
                u.rdma
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The priority the hosts put SMB Direct on (the first host's policy), and
/// the ETS table to copy (the host's, else half the link for it).
fn suggested(cx: &Context<'_>, hosts: &[HostId]) -> (u8, BTreeMap<u8, u32>) {
    for h in hosts {
        let host = cx.design.host(*h);
        if let Some(p) = smb_direct_policy(host) {
            let ets = host
                .dcb
                .as_ref()
                .and_then(|d| d.ets.as_ref())
                .map(|e| e.value.clone())
                .unwrap_or_else(|| [(p.priority.value, 50)].into_iter().collect());
            return (p.priority.value, ets);
        }
    }
    (3, [(3, 50), (7, 1)].into_iter().collect())
}

fn ets_text(ets: &BTreeMap<u8, u32>) -> String {
    ets.iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn ets_value(ets: &BTreeMap<u8, u32>) -> FixValue {
    FixValue::Table(
        ets.iter()
            .map(|(k, v)| (k.to_string(), (*v).into()))
            .collect(),
    )
}

/// The switch's PFC (and ETS, where it has none) made what the hosts' SMB
/// Direct policy uses: a `dcb` table added, or the keys it lacks, or an
/// empty `pfc` list filled. Unsafe: the priorities are a plan the network
/// team owns, and the hosts' may be the ones to change.
fn switch_fix(sw: &Switch, prio: u8, ets: &BTreeMap<u8, u32>) -> Fix {
    let table = switch_table(sw);
    let pfc = FixValue::Array(vec![FixValue::from(u32::from(prio))]);
    let edits = match &sw.dcb {
        None => vec![FixEdit::insert(
            table.then("dcb"),
            FixValue::Table(vec![("pfc".into(), pfc), ("ets".into(), ets_value(ets))]),
            sw.span,
        )],
        Some(dcb) => {
            let mut edits = vec![match &dcb.pfc {
                Some(p) => FixEdit::replace(
                    table.clone().then("dcb").then("pfc"),
                    FixValue::Array(Vec::new()),
                    pfc,
                    p.span,
                ),
                None => FixEdit::insert(table.clone().then("dcb").then("pfc"), pfc, dcb.span),
            }];
            if dcb.ets.is_none() {
                edits.push(FixEdit::insert(
                    table.then("dcb").then("ets"),
                    ets_value(ets),
                    dcb.span,
                ));
            }
            edits
        }
    };
    Fix::unsafe_(
        format!(
            "enable PFC on priority {prio} on `{}`, as the hosts' SMB Direct policy uses",
            sw.name
        ),
        edits,
    )
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let d = cx.design;
    let uses: Vec<SmbDirectUse> = smb_direct_uses(cx)
        .into_iter()
        .filter(|u| u.rdma.is_roce())
        .collect();
    if uses.is_empty() {
        return;
    }

    // Host side.
    let mut found = Vec::new();
    for (hi, host) in d.hosts.iter().enumerate() {
        let mine: Vec<&SmbDirectUse> = uses.iter().filter(|u| u.host.0 == hi).collect();
        let Some(first) = mine.first() else { continue };
        let rdma_span = host.nic(first.active[0]).rdma.span;
        let (why, span) = match &host.dcb {
            None => ("the host has no DCB configuration".to_string(), rdma_span),
            Some(dcb) => match &dcb.pfc {
                None => ("the host's DCB enables PFC on no priority".to_string(), dcb.span),
                Some(pfc) if pfc.value.is_empty() => {
                    ("the host's DCB enables PFC on no priority".to_string(), pfc.span)
                }
                Some(_) if smb_direct_policy(host).is_none() => (
                    "no DCB policy puts SMB Direct on a priority (`match = \"smb-direct\"`), so it travels at priority 0 without PFC".to_string(),
                    dcb.span,
                ),
                Some(_) => continue,
            },
        };
        found.push(cx
                .finding(
                    &RULE,
                    host.element(),
                    span,
                    format!(
                        "RoCE adapters carry SMB Direct ({}) but {why}: RoCE needs lossless Ethernet, and without PFC on the SMB priority frames are dropped under load and SMB Direct stalls",
                        uses_text(cx, &mine)
                    ),
                )
                .with_related(rdma_span, "RoCE here")
                .with_help(
                    "give the host a `dcb` table: `willing = false`, `pfc = [3]`, `ets = { 3 = 50, 7 = 1 }`, `policies = [{ name = \"SMB\", match = \"smb-direct\", priority = 3 }, { name = \"Cluster\", match = \"cluster\", priority = 7 }]` (New-NetQosPolicy / Enable-NetQosFlowControl), and the same PFC priority on every switch on the path",
                ));
    }
    emit_per_host(out, found);

    // Switch side: every switch on the path of each RoCE network.
    let mut by_net: BTreeMap<NetworkId, Vec<&SmbDirectUse>> = BTreeMap::new();
    for u in &uses {
        by_net.entry(u.network).or_default().push(u);
    }
    // switch -> (network, use) pairs crossing it.
    let mut crossing: BTreeMap<SwitchId, Vec<(NetworkId, &SmbDirectUse)>> = BTreeMap::new();
    for (net, list) in &by_net {
        let mut ends: Vec<SwitchId> = Vec::new();
        for u in list {
            for s in cabled_switches(cx, u.host, &u.active) {
                if !ends.contains(&s) {
                    ends.push(s);
                }
            }
        }
        for s in rdma_path_switches(d, d.network(*net).vlan_id(), &ends) {
            let entry = crossing.entry(s).or_default();
            for u in list {
                entry.push((*net, u));
            }
        }
    }
    for (sid, list) in crossing {
        let sw = d.switch(sid);
        let (why, span) = match &sw.dcb {
            None => ("has no PFC (no `dcb` table)", sw.span),
            Some(dcb) => match &dcb.pfc {
                None => ("enables PFC on no priority", dcb.span),
                Some(p) if p.value.is_empty() => ("enables PFC on no priority", p.span),
                Some(_) => continue,
            },
        };
        let mut nets: Vec<String> = Vec::new();
        let mut hosts: Vec<HostId> = Vec::new();
        let mut adapters: Vec<String> = Vec::new();
        let mut related = None;
        for (net, u) in &list {
            let n = format!("`{}`", d.network(*net).name);
            if !nets.contains(&n) {
                nets.push(n);
            }
            if !hosts.contains(&u.host) {
                hosts.push(u.host);
            }
            let host = d.host(u.host);
            for nic in &u.active {
                if cabled_switches(cx, u.host, &[*nic]).contains(&sid) {
                    let a = format!("`{}`", host.nic(*nic).name);
                    if !adapters.contains(&a) {
                        adapters.push(a);
                    }
                    if related.is_none() {
                        related = host.nic(*nic).attach.as_ref().map(|a| {
                            (
                                a.span(),
                                format!(
                                    "`{}` of `{}` is cabled here",
                                    host.nic(*nic).name,
                                    host.name
                                ),
                            )
                        });
                    }
                }
            }
        }
        let host_names: Vec<&str> = hosts.iter().map(|h| d.host(*h).name.as_str()).collect();
        let (prio, ets_map) = suggested(cx, &hosts);
        let ets = ets_text(&ets_map);
        let via = if adapters.is_empty() {
            "on its way between the hosts' switches".to_string()
        } else {
            format!("from {}", adapters.join(", "))
        };
        let mut diag = cx
            .finding(
                &RULE,
                sw.element(),
                span,
                format!(
                    "switch `{}` {why} but carries RoCE SMB Direct of {} ({}, {via}): a congested port drops RoCE frames instead of pausing them, and SMB Direct stalls",
                    sw.name,
                    nets.join(", "),
                    host_list(&host_names),
                ),
            )
            .with_help(format!(
                "enable PFC for priority {prio} on `{}` as the hosts' SMB Direct policy expects: `dcb = {{ pfc = [{prio}], ets = {{ {ets} }} }}`",
                sw.name
            ))
            .with_fix(Some(switch_fix(sw, prio, &ets_map)));
        if let Some((s, label)) = related {
            diag = diag.with_related(s, label);
        }
        out.push(diag);
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
[networks.smb2]
role = "storage"
protocol = "smb"
vlan = 712
[switches.tor-a]
mlag = "m"
dcb = { pfc = [3], ets = { 3 = 50, 7 = 1 } }
[switches.tor-b]
mlag = "m"
TORB
[[links]]
a = "tor-a"
b = "tor-b"
kind = "peer-link"
speed = "100G"
[profiles.p.nics.N1]
speed = "25G"
switch = "tor-a"
rdma = "RDMA"
networks = ["smb1"]
[profiles.p.nics.N2]
speed = "25G"
switch = "tor-b"
rdma = "RDMA"
networks = ["smb2"]
HOSTDCB
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
"#;

    const HOST_DCB: &str = "[profiles.p.dcb]\nwilling = false\npfc = [3]\nets = { 3 = 50, 7 = 1 }\npolicies = [{ name = \"SMB\", match = \"smb-direct\", priority = 3 }]";

    fn src(torb: &str, rdma: &str, host_dcb: &str) -> String {
        BASE.replace("TORB", torb)
            .replace("RDMA", rdma)
            .replace("HOSTDCB", host_dcb)
    }

    #[test]
    fn a_switch_without_pfc_on_the_path_fires_once() {
        let s = src("", "roce-v2", HOST_DCB);
        let f = findings(&s, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        let m = &f[0].message;
        assert!(
            m.starts_with("switch `tor-b` has no PFC (no `dcb` table) but carries RoCE SMB Direct of `smb2` (hosts `hv1`, `hv2`, from `N2`)"),
            "{m}"
        );
        assert_eq!(f[0].element(), "switches.tor-b");
        assert!(
            f[0].help
                .as_ref()
                .unwrap()
                .contains("`dcb = { pfc = [3], ets = { 3 = 50, 7 = 1 } }`"),
            "{:?}",
            f[0].help
        );
    }

    #[test]
    fn a_host_without_dcb_fires_at_its_rdma_line() {
        let s = src("dcb = { pfc = [3] }", "roce", "");
        let f = findings(&s, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.starts_with("hosts `hv1`, `hv2`: RoCE adapters carry SMB Direct (NIC `N1` (`smb1`, roce), NIC `N2` (`smb2`, roce)) but the host has no DCB configuration"),
            "{}",
            f[0].message
        );
        assert_eq!(f[0].element(), "hosts.hv1");
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert_eq!(&s[at..at + 6], "\"roce\"");
    }

    #[test]
    fn a_host_without_an_smb_direct_policy_fires() {
        let s = src(
            "dcb = { pfc = [3] }",
            "roce-v2",
            "[profiles.p.dcb]\nwilling = false\npfc = [3]",
        );
        let f = findings(&s, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0]
            .message
            .contains("no DCB policy puts SMB Direct on a priority"));
    }

    #[test]
    fn iwarp_or_full_pfc_is_silent() {
        assert!(findings(&src("", "iwarp", ""), &super::RULE).is_empty());
        assert!(findings(
            &src("dcb = { pfc = [3] }", "roce-v2", HOST_DCB),
            &super::RULE
        )
        .is_empty());
    }

    #[test]
    fn a_switch_between_the_hosts_switches_is_on_the_path() {
        let s = src("dcb = { pfc = [3] }", "roce-v2", HOST_DCB)
            .replace("kind = \"peer-link\"\nspeed = \"100G\"", "speed = \"100G\"")
            .replace("mlag = \"m\"\n", "")
            .replace(
                "[[links]]\na = \"tor-a\"\nb = \"tor-b\"",
                "[switches.spine]\n[[links]]\na = \"tor-a\"\nb = \"spine\"\nspeed = \"100G\"\n[[links]]\na = \"spine\"\nb = \"tor-b\"",
            )
            .replace("networks = [\"smb2\"]", "networks = [\"smb1\"]");
        let f = findings(&s, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.starts_with("switch `spine` has no PFC (no `dcb` table) but carries RoCE SMB Direct of `smb1` (hosts `hv1`, `hv2`, on its way between the hosts' switches)"),
            "{}",
            f[0].message
        );
    }
}
