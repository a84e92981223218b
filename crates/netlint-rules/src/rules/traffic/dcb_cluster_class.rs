//! `dcb-cluster-class`: the cluster (heartbeat) DCB priority has PFC, or an
//! ETS share above 2 %.

use super::emit_per_host;
use crate::rules::fix_at::host_table;
use crate::{declare_rule, Context};
use netlint_model::{Diagnostic, Fix, FixEdit, FixValue, PolicyMatch};

declare_rule!(
    RULE,
    id: "dcb-cluster-class",
    category: "traffic",
    severity: Warning,
    summary: "The cluster heartbeat priority has PFC enabled or an ETS share above 2 %.",
    check: check,
);

/// Microsoft's guidance for the cluster traffic class: 1-2 % of ETS.
const CLUSTER_ETS_MAX: u32 = 2;

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut found = Vec::new();
    for host in &cx.design.hosts {
        let Some(dcb) = &host.dcb else { continue };
        let Some(policy) = dcb
            .policies
            .iter()
            .find(|p| p.match_.value == PolicyMatch::Cluster)
        else {
            continue;
        };
        let prio = policy.priority.value;
        let pfc = dcb.pfc.as_ref().filter(|p| p.value.contains(&prio));
        let ets = dcb
            .ets
            .as_ref()
            .and_then(|e| Some((e, *e.value.get(&prio)?)))
            .filter(|(_, share)| *share > CLUSTER_ETS_MAX);
        // One fix mends both findings of the host (their subjects are the
        // same, so the fix check wants both gone): the priority out of
        // `pfc`, its share in `ets` down to 2. An `ets` written under a
        // header of its own has no fix.
        let pfc_edit = pfc.map(|pfc| {
            let ints = |v: &[u8]| {
                FixValue::Array(v.iter().map(|p| FixValue::Integer(i64::from(*p))).collect())
            };
            let kept: Vec<u8> = pfc.value.iter().copied().filter(|p| *p != prio).collect();
            FixEdit::replace(
                host_table(host, pfc.span).then("dcb").then("pfc"),
                ints(&pfc.value),
                ints(&kept),
                pfc.span,
            )
        });
        let ets_edit = ets.map(|(ets, _)| {
            let FixValue::Table(entries) = cx.design.written_at(ets.span)? else {
                return None;
            };
            let new: Vec<(String, FixValue)> = entries
                .iter()
                .map(|(k, v)| match k.parse::<u8>() {
                    Ok(p) if p == prio => {
                        (k.clone(), FixValue::Integer(i64::from(CLUSTER_ETS_MAX)))
                    }
                    _ => (k.clone(), v.clone()),
                })
                .collect();
            Some(FixEdit::replace(
                host_table(host, ets.span).then("dcb").then("ets"),
                FixValue::Table(entries.clone()),
                FixValue::Table(new),
                ets.span,
            ))
        });
        let fix = match ets_edit {
            Some(None) => None,
            ets_edit => {
                let edits: Vec<FixEdit> = pfc_edit.into_iter().chain(ets_edit.flatten()).collect();
                let what: Vec<String> = edits.iter().map(|e| format!("`{e}`")).collect();
                (!edits.is_empty()).then(|| Fix::safe(format!("set {}", what.join(", ")), edits))
            }
        };
        if let Some(pfc) = pfc {
            found.push(cx
                    .finding(
                        &RULE,
                        host.element(),
                        pfc.span,
                        format!(
                            "the cluster policy `{}` uses priority {prio}, which has PFC enabled: pausing heartbeats behind congested storage traffic can make nodes miss heartbeats and leave the cluster",
                            policy.name.value
                        ),
                    )
                    .with_related(policy.priority.span, format!("cluster heartbeat on priority {prio}"))
                    .with_help(format!(
                        "take {prio} out of `pfc`: Microsoft's guidance is the cluster class on priority 7 with PFC off and a 1-2 % ETS share"
                    ))
                    .with_fix(fix.clone()));
        }
        if let Some((ets, share)) = ets {
            found.push(cx
                    .finding(
                        &RULE,
                        host.element(),
                        ets.span,
                        format!(
                            "the cluster policy `{}` uses priority {prio}, whose ETS share is {share} %: heartbeats need 1-2 %, the rest is taken from storage",
                            policy.name.value
                        ),
                    )
                    .with_related(policy.priority.span, format!("cluster heartbeat on priority {prio}"))
                    .with_help(format!(
                        "set the ETS share of priority {prio} to 1 or 2 (`ets = {{ ..., {prio} = 2 }}`)"
                    ))
                    .with_fix(fix));
        }
    }
    emit_per_host(out, found);
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    fn src(pfc: &str, ets: &str) -> String {
        format!(
            r#"
[design]
name = "t"
[profiles.p.dcb]
willing = false
pfc = {pfc}
ets = {ets}
policies = [
  {{ name = "SMB", match = "smb-direct", priority = 3 }},
  {{ name = "Cluster", match = "cluster", priority = 7 }},
]
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
"#
        )
    }

    #[test]
    fn pfc_on_the_cluster_priority_fires() {
        let f = findings(&src("[3, 7]", "{ 3 = 50, 7 = 1 }"), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.starts_with("hosts `hv1`, `hv2`: the cluster policy `Cluster` uses priority 7, which has PFC enabled"),
            "{}",
            f[0].message
        );
        assert_eq!(f[0].element(), "hosts.hv1");
    }

    #[test]
    fn a_share_above_two_percent_fires_and_two_is_fine() {
        let f = findings(&src("[3]", "{ 3 = 50, 7 = 5 }"), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("whose ETS share is 5 %"),
            "{}",
            f[0].message
        );
        assert!(findings(&src("[3]", "{ 3 = 50, 7 = 2 }"), &super::RULE).is_empty());
    }
}
