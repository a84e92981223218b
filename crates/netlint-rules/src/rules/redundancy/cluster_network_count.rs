//! `cluster-network-count`: a host has fewer than two networks in the
//! cluster group.

use crate::phrases::failure::around_hosts;
use crate::phrases::words::with_host_words;
use crate::{declare_rule, Context};
use netlint_analysis::Via;
use netlint_model::{Diagnostic, HostId, NetworkId, Role, Span};

declare_rule!(
    RULE,
    id: "cluster-network-count",
    category: "redundancy",
    severity: Warning,
    summary: "A host has fewer than two networks in the cluster group, so one failure ends cluster communication.",
    check: check,
);

/// The line that puts `network` on the host through `via`.
fn assignment_span(cx: &Context<'_>, host: HostId, via: Via, network: NetworkId) -> Option<Span> {
    let h = cx.design.host(host);
    let find = |list: &[netlint_model::Sp<NetworkId>]| {
        list.iter().find(|n| n.value == network).map(|n| n.span)
    };
    match via {
        Via::Nic(n) => find(&h.nic(n).networks),
        Via::Team(t) => find(&h.teams[t.0].networks),
        Via::Guest(vs) => find(&h.vswitches[vs.0].networks),
        Via::VNic(vs, k) => Some(h.vswitches[vs.0].vnics[k].network.span),
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let design = cx.design;
    let topo = cx.topology();
    // (span, networks) -> hosts
    let mut groups: Vec<(Span, Vec<NetworkId>, Vec<HostId>)> = Vec::new();
    for hosts in design.clusters().values() {
        if hosts.len() < 2 {
            continue;
        }
        for &h in hosts {
            let carriers = &topo.carriers[h.0];
            // A Windows failover cluster heartbeats over every cluster
            // network and wants two. vSphere HA heartbeats over the
            // management network only, whose redundancy is its uplinks'
            // (a teamed management vSwitch is what VMware asks for), which
            // the spof-* rules judge: counting networks there is wrong.
            if carriers.is_empty() || design.host(h).os.value.is_vsphere() {
                continue;
            }
            let mut nets: Vec<NetworkId> = Vec::new();
            let mut unknown: Vec<NetworkId> = Vec::new();
            let mut span = None;
            for c in carriers {
                let n = design.network(c.network);
                if n.in_cluster_group() && !nets.contains(&c.network) {
                    nets.push(c.network);
                    span = span.or(assignment_span(cx, h, c.via, c.network));
                } else if n.role.value == Role::Unknown && !unknown.contains(&c.network) {
                    unknown.push(c.network);
                }
            }
            // A network whose role is not known yet may be in the group:
            // the count is not decided until its role is set.
            if nets.len() + unknown.len() >= 2 {
                continue;
            }
            let span = span.unwrap_or(design.host(h).span);
            match groups.iter_mut().find(|(s, n, _)| *s == span && *n == nets) {
                Some(g) => g.2.push(h),
                None => groups.push((span, nets, vec![h])),
            }
        }
    }
    for (span, nets, hosts) in groups {
        let what = match nets.first() {
            Some(n) => format!(
                "one network in the cluster group (`{}`): one failure of it ends cluster communication (heartbeats, CSV redirection) for",
                design.network(*n).name,
            ),
            None => "no network in the cluster group (every network's `cluster_use` is `none`): the cluster cannot talk to".to_string(),
        };
        let after = |have: &str, them: &str| format!(" {have} {what} {them}");
        // Written again from the hosts left once `allow` took some away.
        let words = around_hosts(
            design,
            &hosts,
            (String::new(), after("has", "it")),
            (String::new(), after("have", "them")),
        );
        let Some(first) = hosts.first() else {
            continue;
        };
        out.push(
            with_host_words(
                cx.finding(&RULE, design.host(*first).element(), span, String::new())
                    .with_subjects(hosts.iter().map(|h| design.host(*h).element()))
                    .with_help(
                        "give every node a second cluster network on other adapters (e.g. dedicated CSV and live-migration networks, which back each other up), or leave `cluster_use` at its default on a network that has one",
                    ),
                words,
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const SRC: &str = r#"
[design]
name = "t"
[networks.mgmt]
role = "management"
vlan = 10
[networks.csv]
role = "csv"
vlan = 20
CSVUSE
[networks.vm]
role = "vm"
vlan = 100
[switches.sw]
[profiles.p.nics.A]
speed = "10G"
switch = "sw"
networks = ["mgmt", "csv"]
[profiles.p.nics.B]
speed = "10G"
switch = "sw"
[profiles.p.vswitches.V]
uplinks = ["B"]
networks = ["vm"]
[hosts.h1]
profile = "p"
[hosts.h2]
profile = "p"
"#;

    #[test]
    fn two_cluster_networks_are_enough() {
        assert!(findings(&SRC.replace("CSVUSE", ""), &super::RULE).is_empty());
    }

    #[test]
    fn one_cluster_network_fires_once_for_the_profile() {
        let f = findings(
            &SRC.replace("CSVUSE", "cluster_use = \"none\""),
            &super::RULE,
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "hosts `h1`, `h2` have one network in the cluster group (`mgmt`): one failure of it ends cluster communication (heartbeats, CSV redirection) for them"
        );
        assert_eq!(f[0].element(), "hosts.h1");
    }

    #[test]
    fn a_network_of_unknown_role_may_be_in_the_group_so_nothing_is_decided() {
        let src = SRC.replace("role = \"csv\"", "role = \"unknown\"");
        assert!(findings(&src.replace("CSVUSE", ""), &super::RULE).is_empty());
        // Two networks of unknown role and nothing else: undecided too.
        let src = src.replace("role = \"management\"", "role = \"unknown\"");
        assert!(findings(&src.replace("CSVUSE", ""), &super::RULE).is_empty());
        // The VM network's role is known: it does not count.
        let one = SRC
            .replace("role = \"management\"", "role = \"unknown\"")
            .replace("networks = [\"mgmt\", \"csv\"]", "networks = [\"mgmt\"]");
        let f = findings(&one.replace("CSVUSE", ""), &super::RULE);
        assert_eq!(f.len(), 2, "one unknown network cannot make two: {f:#?}");
    }

    #[test]
    fn a_lone_host_is_not_a_cluster() {
        let src = SRC
            .replace("CSVUSE", "cluster_use = \"none\"")
            .replace("[hosts.h2]\nprofile = \"p\"\n", "");
        assert!(findings(&src, &super::RULE).is_empty());
    }

    #[test]
    fn vsphere_hosts_are_not_counted() {
        // A teamed management vSwitch over two switches is vSphere HA's
        // management redundancy: no finding.
        let src = r#"
[design]
name = "t"
platform = "vsphere-8"
[networks.mgmt]
role = "management"
vlan = 10
[switches.a]
[switches.b]
[[links]]
a = "a"
b = "b"
speed = "10G"
members = 2
[profiles.esx.nics.vmnic0]
speed = "10G"
switch = "a"
[profiles.esx.nics.vmnic1]
speed = "10G"
switch = "b"
[profiles.esx.vswitches.vSwitch0]
uplinks = ["vmnic0", "vmnic1"]
[profiles.esx.vswitches.vSwitch0.vnics.vmk0]
network = "mgmt"
[hosts.esx1]
profile = "esx"
[hosts.esx2]
profile = "esx"
"#;
        assert!(findings(src, &super::RULE).is_empty());
        // The same build on Hyper-V: one cluster network is a finding.
        let hv = src.replace("vsphere-8", "windows-server-2022").replace(
            "[profiles.esx.vswitches.vSwitch0]\n",
            "[profiles.esx.vswitches.vSwitch0]\nload_balancing = \"hyperv-port\"\n",
        );
        assert_eq!(findings(&hv, &super::RULE).len(), 1);
    }
}
