//! `storage-unreachable`: in the healthy state a host cannot reach a
//! storage target it uses on a network both are on (or is on none of the
//! target's networks).

use super::network_partitioned::{cause, vlan_text, Cause};
use crate::phrases::failure::hosts_phrase;
use crate::{declare_rule, Context};
use netlint_analysis::{Break, TargetBreak, TargetReach};
use netlint_model::{
    Diagnostic, Element, HostId, NetworkId, Span, SwitchId, TargetId, TargetPortIdx,
};
use std::collections::BTreeMap;

declare_rule!(
    RULE,
    id: "storage-unreachable",
    category: "redundancy",
    severity: Error,
    summary: "In the healthy state a host cannot reach a storage target it uses on a network both are on.",
    check: check,
);

/// Why one host does not reach one target on one network, worded.
fn target_cause(cx: &Context<'_>, r: &TargetReach, b: &TargetBreak) -> Cause {
    let design = cx.design;
    let topo = cx.topology();
    let target = design.target(r.target);
    let net = design.network(r.network);
    let landed = netlint_analysis::l2::ports::host_vlan(design, topo, r.network, r.host);
    let vlan = vlan_text(design, r.network, landed);
    match b {
        TargetBreak::NoNetwork => {
            let nets: Vec<String> = target
                .networks()
                .iter()
                .map(|n| format!("`{}`", design.network(*n).name))
                .collect();
            let h = design.host(r.host);
            Cause {
                text: format!(
                    "`{}` has no interface on {}, the networks of the target's ports",
                    h.name,
                    if nets.len() == 1 {
                        nets[0].clone()
                    } else {
                        format!("any of {}", nets.join(", "))
                    }
                ),
                element: target.element(),
                span: target.used_by_span(design, r.host),
                related: vec![(h.span, format!("host `{}`", h.name))],
                help: format!(
                    "give `{}` an interface on {} (a NIC's, team's or vNIC's network), or take it out of `used_by` of `{}`",
                    h.name, nets[0], target.name
                ),
            }
        }
        TargetBreak::PortNotCabled(p) => {
            let port = target.port(*p);
            Cause {
                text: format!(
                    "its port `{}` on `{}` is not cabled (no `switch`)",
                    port.name, net.name
                ),
                element: target.port_element(*p),
                span: port.span,
                related: Vec::new(),
                help: format!("set `switch` on port `{}` of `{}`", port.name, target.name),
            }
        }
        TargetBreak::PortSwitchLacksVlan(p, s) => {
            if let Some(c) = miscabled(cx, r, *p, *s) {
                return c;
            }
            let port = target.port(*p);
            let sw = design.switch(*s);
            let mut related = Vec::new();
            if let Some(at) = &port.switch {
                related.push((at.span, format!("port `{}` is cabled to it", port.name)));
            }
            Cause {
                text: format!(
                    "its port `{}` is cabled to `{}`, which does not define {vlan}",
                    port.name, sw.name
                ),
                element: sw.element(),
                span: sw.vlans.as_ref().map(|v| v.span).unwrap_or(sw.span),
                related,
                help: format!(
                    "add {} to `vlans` of switch `{}`",
                    net.vlan_id().unwrap_or(0),
                    sw.name
                ),
            }
        }
        // Only in a failure scenario, which this rule does not look at.
        TargetBreak::PortsDown => Cause {
            text: format!("its ports on `{}` are down", net.name),
            element: target.element(),
            span: target.span,
            related: Vec::new(),
            help: String::new(),
        },
        TargetBreak::Fabric(Break::Blocked { ports, from, to }) => {
            let link = design.link(topo.ports[ports[0]].link);
            Cause {
                text: format!(
                    "the spanning tree blocks link `{}`, the only way that carries {vlan} between `{}` and `{}`",
                    link.name,
                    topo.bridge(*from).name,
                    topo.bridge(*to).name
                ),
                element: link.element(),
                span: link.span,
                related: Vec::new(),
                help: format!(
                    "allow {vlan} on a forwarding path between `{}` and `{}` (`netlint topology` shows which ports the tree blocks)",
                    topo.bridge(*from).name,
                    topo.bridge(*to).name
                ),
            }
        }
        TargetBreak::Fabric(b) => {
            let port_bridge = r
                .port
                .or_else(|| target.ports_on(r.network).next())
                .and_then(|p| target.port(p).switch.as_ref())
                .map(|s| topo.bridge_of[s.value.0]);
            // "on the path to `san`": the same words for every host.
            cause(design, topo, r.network, (None, port_bridge), landed, b).unwrap_or_else(|| {
                let h = design.host(r.host);
                Cause {
                    text: format!("`{}` has no path to it", h.name),
                    element: h.element(),
                    span: h.span,
                    related: Vec::new(),
                    help: "cable a NIC of the host to a switch that reaches the target's ports"
                        .to_string(),
                }
            })
        }
    }
}

/// A target port cabled into the wrong fabric: its switch carries another
/// of the target's networks (the other fabric of an A/B pair) and another
/// switch is where this network's VLAN is. The cause is the cable, not a
/// VLAN missing: adding the VLAN to the switch would join the two fabrics
/// that MPIO keeps apart. `None` when that is not the case (a switch that
/// simply lacks the VLAN).
fn miscabled(cx: &Context<'_>, r: &TargetReach, p: TargetPortIdx, s: SwitchId) -> Option<Cause> {
    let design = cx.design;
    let target = design.target(r.target);
    let net = design.network(r.network);
    let vlan = net.vlan_id()?;
    let port = target.port(p);
    let at = port.switch.as_ref()?;
    let sw = design.switch(s);
    // The switch's own fabric: another network of the target it defines
    // by an explicit list.
    let listed =
        |x: &netlint_model::Switch, v: u16| x.vlans.as_ref().is_some_and(|l| l.value.contains(v));
    let other = target
        .networks()
        .into_iter()
        .filter(|n| *n != r.network)
        .find(|n| design.network(*n).vlan_id().is_some_and(|v| listed(sw, v)))?;
    // Where this network's VLAN is: switches that list it.
    let homes: Vec<&netlint_model::Switch> = design
        .switches
        .iter()
        .filter(|x| x.name != sw.name && listed(x, vlan))
        .collect();
    let home = homes.first()?;
    let names: Vec<String> = homes.iter().map(|x| format!("`{}`", x.name)).collect();
    let other = design.network(other);
    let mut related = vec![(
        sw.vlans.as_ref().map_or(sw.span, |v| v.span),
        format!(
            "`{}` carries `{}` (VLAN {}), the target's other fabric",
            sw.name,
            other.name,
            other.vlan_id().unwrap_or(0)
        ),
    )];
    related.extend(homes.iter().map(|x| {
        (
            x.vlans.as_ref().map_or(x.span, |v| v.span),
            format!("`{}` carries VLAN {vlan} of `{}`", x.name, net.name),
        )
    }));
    Some(Cause {
        text: format!(
            "its port `{}` is cabled to `{}`, a switch of its other fabric (`{}`), not to {} where VLAN {vlan} is",
            port.name,
            sw.name,
            other.name,
            names.join(" or ")
        ),
        element: target.port_element(p),
        span: at.span,
        related,
        help: format!(
            "cable port `{}` of `{}` to `{}` and write `switch = \"{}\"` for it; adding VLAN {vlan} to `{}` instead would join the two fabrics that multipathing keeps apart",
            port.name, target.name, home.name, home.name, sw.name
        ),
    })
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let design = cx.design;
    // One finding per (target, network, cause), naming every host it cuts,
    // in the order first met.
    type Key = (TargetId, Option<NetworkId>, Element, Span, String);
    let mut index: BTreeMap<Key, usize> = BTreeMap::new();
    let mut cuts: Vec<(Key, Cause, Vec<HostId>)> = Vec::new();
    for r in cx.target_reach() {
        let Some(b) = &r.broken else { continue };
        let c = target_cause(cx, r, b);
        // "on network x" unless the host is on none of the target's.
        let net = (*b != TargetBreak::NoNetwork).then_some(r.network);
        let key = (r.target, net, c.element.clone(), c.span, c.text.clone());
        match index.get(&key) {
            Some(&i) => cuts[i].2.push(r.host),
            None => {
                index.insert(key.clone(), cuts.len());
                cuts.push((key, c, vec![r.host]));
            }
        }
    }
    for ((t, net, element, span, _), c, hosts) in cuts {
        let target = design.target(t);
        let on = net
            .map(|n| format!(" on network `{}`", design.network(n).name))
            .unwrap_or_default();
        // The networks on which every one of these hosts still reaches
        // the target: its only way until this is fixed (the `spof-*`
        // rules leave a host-target pair cut here to this finding).
        let reached: Vec<String> = target
            .networks()
            .into_iter()
            .filter(|n| Some(*n) != net)
            .filter(|n| {
                hosts.iter().all(|h| {
                    cx.target_reach().iter().any(|r| {
                        r.target == t && r.host == *h && r.network == *n && r.broken.is_none()
                    })
                })
            })
            .map(|n| format!("`{}`", design.network(n).name))
            .collect();
        let alone = match reached.as_slice() {
            [] => String::new(),
            [one] => format!(" (until then they reach it on {one} alone: no second path)"),
            more => format!(" (until then they reach it on {} only)", more.join(", ")),
        };
        let mut d = cx
            .finding(
                &RULE,
                element,
                span,
                format!(
                    "{} cannot reach {} `{}`{on}: {}{alone}",
                    hosts_phrase(design, &hosts),
                    target.kind.value.words(),
                    target.name,
                    c.text
                ),
            )
            .with_help(c.help);
        for (s, l) in c.related {
            d = d.with_related(s, l);
        }
        out.push(d);
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    /// Two hosts on `tor-a` / `tor-b`; the array's ports on a storage
    /// switch `san` behind `tor-b`. TRUNK is the `vlans` of `tor-b--san`.
    const SRC: &str = r#"
[design]
name = "t"
[networks.iscsi]
role = "storage"
protocol = "iscsi"
vlan = 60
[switches.tor-a]
[switches.tor-b]
[switches.san]
SANVLANS
[[links]]
name = "isl"
a = "tor-a"
b = "tor-b"
speed = "25G"
members = 2
[[links]]
name = "tor-b--san"
a = "tor-b"
b = "san"
speed = "25G"
members = 2
TRUNK
[hosts.h1.nics.S]
speed = "25G"
switch = "tor-a"
networks = ["iscsi"]
[hosts.h2.nics.S]
speed = "25G"
switch = "tor-b"
networks = ["iscsi"]
[hosts.h3.nics.M]
speed = "1G"
switch = "tor-a"
[storage.array]
kind = "iscsi"
USEDBY
[storage.array.ports.P0]
speed = "25G"
switch = "san"
networks = ["iscsi"]
"#;

    fn src(san_vlans: &str, trunk: &str, used_by: &str) -> String {
        SRC.replace("SANVLANS", san_vlans)
            .replace("TRUNK", trunk)
            .replace("USEDBY", used_by)
    }

    #[test]
    fn a_vlan_missing_on_the_trunk_to_the_array_cuts_the_hosts_from_it() {
        let f = findings(
            &src("", "vlans = [10]", "used_by = [\"h1\", \"h2\"]"),
            "storage-unreachable",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "hosts `h1`, `h2` cannot reach iSCSI target `array` on network `iscsi`: link `tor-b--san`, on the path to `san`, does not allow VLAN 60"
        );
        assert_eq!(f[0].element(), "links.tor-b--san");
        assert!(f[0]
            .help
            .as_deref()
            .unwrap()
            .contains("add 60 to `vlans` of link `tor-b--san`"));
        // The hosts reach each other: only the host-to-target check sees it.
        let partitioned = findings(
            &src("", "vlans = [10]", "used_by = [\"h1\", \"h2\"]"),
            "network-partitioned",
        );
        assert!(partitioned.is_empty(), "{partitioned:#?}");
    }

    #[test]
    fn a_trunk_that_carries_the_vlan_reaches_the_array() {
        let f = findings(
            &src("", "vlans = [10, 60]", "used_by = [\"h1\", \"h2\"]"),
            "storage-unreachable",
        );
        assert!(f.is_empty(), "{f:#?}");
    }

    #[test]
    fn a_user_without_an_interface_on_the_targets_networks_is_reported_at_used_by() {
        // No `used_by`: every host uses it, h3 (management only) too.
        let f = findings(&src("", "", ""), "storage-unreachable");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "host `h3` cannot reach iSCSI target `array`: `h3` has no interface on `iscsi`, the networks of the target's ports"
        );
        assert_eq!(f[0].element(), "storage.array");
    }

    #[test]
    fn the_array_switch_without_the_vlan_is_named() {
        let f = findings(
            &src("vlans = [10]", "", "used_by = [\"h1\", \"h2\"]"),
            "storage-unreachable",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "hosts `h1`, `h2` cannot reach iSCSI target `array` on network `iscsi`: its port `P0` is cabled to `san`, which does not define VLAN 60"
        );
        assert_eq!(f[0].element(), "switches.san");
    }

    #[test]
    fn an_uncabled_target_port_is_named() {
        let s = src("", "", "used_by = [\"h1\"]").replace(
            "speed = \"25G\"\nswitch = \"san\"\nnetworks",
            "speed = \"25G\"\nnetworks",
        );
        let f = findings(&s, "storage-unreachable");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message
                .ends_with("its port `P0` on `iscsi` is not cabled (no `switch`)"),
            "{}",
            f[0].message
        );
        assert_eq!(f[0].element(), "storage.array.ports.P0");
    }

    /// Two fabrics A/B with no layer-2 path between them; the array's
    /// fabric-B port cabled to CABLE.
    const FABRICS: &str = r#"
[design]
name = "t"
[networks.iscsi-a]
role = "storage"
protocol = "iscsi"
vlan = 60
[networks.iscsi-b]
role = "storage"
protocol = "iscsi"
vlan = 61
[switches.san-a]
vlans = [60]
[switches.san-b]
vlans = [61]
[profiles.n.nics.A]
card = "c1"
speed = "25G"
switch = "san-a"
networks = ["iscsi-a"]
[profiles.n.nics.B]
card = "c2"
speed = "25G"
switch = "san-b"
networks = ["iscsi-b"]
[hosts.h1]
profile = "n"
[hosts.h2]
profile = "n"
[storage.array]
kind = "iscsi"
[storage.array.ports.A0]
speed = "25G"
switch = "san-a"
networks = ["iscsi-a"]
[storage.array.ports.B0]
speed = "25G"
switch = "CABLE"
networks = ["iscsi-b"]
"#;

    #[test]
    fn a_port_cabled_into_the_other_fabric_is_found_at_its_cable() {
        let src = FABRICS.replace("CABLE", "san-a");
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "hosts `h1`, `h2` cannot reach iSCSI target `array` on network `iscsi-b`: its port `B0` is cabled to `san-a`, a switch of its other fabric (`iscsi-a`), not to `san-b` where VLAN 61 is (until then they reach it on `iscsi-a` alone: no second path)"
        );
        // At the cable (B0's `switch` line, the last of its text), not at
        // san-a's VLAN list.
        let line = crate::testing::line_of(&src, f[0].primary.as_ref().unwrap().span);
        let b0 = src
            .lines()
            .enumerate()
            .filter(|(_, l)| *l == "switch = \"san-a\"")
            .map(|(i, _)| i + 1)
            .last()
            .unwrap();
        assert_eq!(line, b0);
        let help = f[0].help.as_deref().unwrap();
        assert!(
            help.starts_with("cable port `B0` of `array` to `san-b`"),
            "{help}"
        );
        assert!(help.contains("would join the two fabrics"), "{help}");
        // The fix the help names works: nothing left.
        assert!(findings(&FABRICS.replace("CABLE", "san-b"), &super::RULE).is_empty());
    }

    #[test]
    fn no_single_failure_finding_follows_from_the_same_cable() {
        let src = FABRICS.replace("CABLE", "san-a");
        for rule in [
            &crate::rules::redundancy::spof_nic_card::RULE,
            &crate::rules::redundancy::spof_switch::RULE,
        ] {
            assert!(
                findings(&src, rule).is_empty(),
                "{}: {:#?}",
                rule.meta.id,
                findings(&src, rule)
            );
        }
    }

    #[test]
    fn a_switch_that_only_lacks_the_vlan_is_still_told_to_define_it() {
        // One fabric: san-a holds both networks' ports but defines VLAN 60
        // only; no other switch carries VLAN 61, so it is a VLAN missing.
        let src = FABRICS.replace("CABLE", "san-a").replace(
            "[switches.san-b]\nvlans = [61]",
            "[switches.san-b]\nvlans = [60]",
        );
        let f = findings(&src, &super::RULE);
        assert!(
            f.iter()
                .any(|d| d.help.as_deref() == Some("add 61 to `vlans` of switch `san-a`")),
            "{f:#?}"
        );
    }
}
