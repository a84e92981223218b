//! `rdma-mismatch`: hosts on one SMB storage / CSV / SMB live-migration
//! network use different RDMA kinds, or only some have RDMA.

use super::host_ports::{smb_ports, via_span};
use super::majority;
use crate::phrases::words::host_list;
use crate::{declare_rule, Context};
use netlint_analysis::Via;
use netlint_model::{Diagnostic, Element, HostId, NetworkId, Rdma, Span};
use std::collections::BTreeMap;

declare_rule!(
    RULE,
    id: "rdma-mismatch",
    category: "traffic",
    severity: Error,
    summary: "Hosts on one SMB network use different RDMA kinds, or only some have RDMA: SMB Direct falls back to TCP.",
    check: check,
);

struct Seen {
    host: HostId,
    kind: Option<Rdma>,
    port: String,
    element: Element,
    span: Span,
}

fn kind_text(k: Option<Rdma>) -> String {
    match k {
        Some(k) => format!("use {k}"),
        None => "have no RDMA".to_string(),
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let d = cx.design;
    for hosts in d.clusters().values() {
        let mut by_net: BTreeMap<NetworkId, Vec<Seen>> = BTreeMap::new();
        for h in hosts {
            if !d.host(*h).os.value.is_windows() {
                continue;
            }
            let host = d.host(*h);
            let mut per_net: BTreeMap<NetworkId, Seen> = BTreeMap::new();
            for p in smb_ports(cx, *h) {
                let span = match p.via {
                    Via::Nic(n) => host.nic(n).rdma.span,
                    Via::VNic(v, k) => host.vswitches[v.0].vnics[k].rdma.span,
                    _ => via_span(host, p.via, p.network),
                };
                let seen = Seen {
                    host: *h,
                    kind: p.rdma,
                    port: crate::phrases::bandwidth::port_name(host, p.via),
                    element: host.via_element(p.via),
                    span,
                };
                match per_net.get(&p.network) {
                    // One RDMA interface is enough for SMB Direct.
                    Some(s) if s.kind.is_some() || seen.kind.is_none() => {}
                    _ => {
                        per_net.insert(p.network, seen);
                    }
                }
            }
            for (net, seen) in per_net {
                by_net.entry(net).or_default().push(seen);
            }
        }
        for (net, seen) in by_net {
            if seen.iter().all(|s| s.kind.is_none()) || seen.len() < 2 {
                continue;
            }
            let kinds: Vec<Option<Rdma>> = seen.iter().map(|s| s.kind).collect();
            let Some(common) = majority(&kinds) else {
                continue;
            };
            let agree: Vec<&str> = seen
                .iter()
                .filter(|s| s.kind == common)
                .map(|s| d.host(s.host).name.as_str())
                .collect();
            let n = d.network(net);
            for s in seen.iter().filter(|s| s.kind != common) {
                let name = &d.host(s.host).name;
                let consequence = match (s.kind, common) {
                    (Some(a), Some(b)) if a.is_roce() && b.is_roce() => format!(
                        "RoCE v1 and RoCE v2 do not interoperate, so SMB Direct between `{name}` and them falls back to TCP"
                    ),
                    (Some(_), Some(_)) => format!(
                        "RoCE and iWARP cannot talk to each other, so SMB Direct between `{name}` and them silently falls back to TCP"
                    ),
                    (None, _) => format!("SMB Direct to and from `{name}` silently falls back to TCP"),
                    (Some(_), None) => format!(
                        "SMB Direct never runs between `{name}` and them: their SMB traffic stays on TCP"
                    ),
                };
                out.push(
                    cx.finding(
                        &RULE,
                        s.element.clone(),
                        s.span,
                        format!(
                            "network `{}`: host `{name}` {} ({}) where {} {}: {consequence}",
                            n.name,
                            match s.kind {
                                Some(k) => format!("uses {k}"),
                                None => "has no RDMA".to_string(),
                            },
                            s.port,
                            host_list(&agree),
                            kind_text(common)
                        ),
                    )
                    .with_related(n.span, format!("`{}` carries SMB", n.name))
                    .with_help(match common {
                        Some(k) => format!(
                            "give `{name}` {k} adapters on `{}` like the other hosts (`rdma = \"{k}\"`, and `rdma = true` on a vNIC), or accept SMB over TCP for it",
                            n.name
                        ),
                        None => format!(
                            "use the same adapters on every host of `{}`: RDMA on all of them or on none",
                            n.name
                        ),
                    }),
                );
            }
        }
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
protocol = "PROTO"
vlan = 711
[switches.sw]
[profiles.p.nics.N1]
speed = "25G"
switch = "sw"
rdma = "roce-v2"
networks = ["smb1"]
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
[hosts.hv3]
profile = "p"
HV3
"#;

    fn src(proto: &str, hv3: &str) -> String {
        BASE.replace("PROTO", proto).replace("HV3", hv3)
    }

    #[test]
    fn an_iwarp_host_among_roce_hosts_fires_on_it() {
        let s = src("smb", "nics.N1 = { rdma = \"iwarp\" }");
        let f = findings(&s, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "network `smb1`: host `hv3` uses iwarp (NIC `N1`) where hosts `hv1`, `hv2` use roce-v2: RoCE and iWARP cannot talk to each other, so SMB Direct between `hv3` and them silently falls back to TCP"
        );
        assert_eq!(f[0].element(), "hosts.hv3.nics.N1");
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert_eq!(&s[at..at + 7], "\"iwarp\"");
    }

    #[test]
    fn a_host_without_rdma_fires() {
        let f = findings(&src("smb", "nics.N1 = { rdma = \"none\" }"), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0]
            .message
            .contains("host `hv3` has no RDMA (NIC `N1`) where hosts `hv1`, `hv2` use roce-v2"));
    }

    #[test]
    fn matching_hosts_or_non_smb_networks_are_silent() {
        assert!(findings(&src("smb", ""), &super::RULE).is_empty());
        assert!(findings(
            &src("iscsi", "nics.N1 = { rdma = \"iwarp\" }"),
            &super::RULE
        )
        .is_empty());
    }
}
