//! `l2-loop` for PVST+ VLANs with spanning tree off (`disabled_vlans`,
//! `no spanning-tree vlan N`): in such a VLAN the switches forward on every
//! port, so a loop of links carrying it is never blocked.

use super::l2_loop::{loop_groups, shortest_cycle, RULE};
use super::{and_list, path_text, port_name};
use crate::Context;
use netlint_analysis::BridgeId;
use netlint_model::{Diagnostic, VlanSet};
use std::collections::BTreeMap;

pub(super) fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let design = cx.design;
    let bridges = cx.fabric().engine().bridges();
    if bridges.iter().all(|b| b.stp_off_vlans.is_none()) {
        return;
    }
    let topo = cx.topology();
    let fwd = cx.forwarding();
    // Loop (its ports, sorted) -> the VLANs looping on it.
    let mut loops: BTreeMap<Vec<usize>, VlanSet> = BTreeMap::new();
    for v in design.used_vlans().iter() {
        let off = |b: usize| bridges[b].stp_off(v);
        if !(0..bridges.len()).any(off) {
            continue;
        }
        let Some(view) = fwd.vlan(Some(v)) else {
            continue;
        };
        let cyclic = fwd.stp.links_on_loops(&view.forwarding);
        for ports in loop_groups(topo, &cyclic).into_values() {
            // Loops through `mode = "none"` switches only are the main check's.
            if ports
                .iter()
                .any(|&p| off(topo.ports[p].a.0) || off(topo.ports[p].b.0))
            {
                loops.entry(ports).or_default().insert(v);
            }
        }
    }
    for (ports, vlans) in loops {
        let mut members: Vec<usize> = ports
            .iter()
            .flat_map(|&p| [topo.ports[p].a.0, topo.ports[p].b.0])
            .collect();
        members.sort_unstable();
        members.dedup();
        let first_vlan = vlans.iter().next().unwrap_or(1);
        let silent: Vec<usize> = members
            .iter()
            .copied()
            .filter(|&b| bridges[b].stp_off(first_vlan))
            .collect();
        let Some(&first) = silent.first() else {
            continue;
        };
        let name = |b: usize| format!("`{}`", topo.bridge(BridgeId(b)).name);
        let names: Vec<String> = silent.iter().map(|&b| name(b)).collect();
        let vlan_words = if vlans.len() == 1 {
            format!("VLAN {vlans}")
        } else {
            format!("VLANs {vlans}")
        };
        let cycle = shortest_cycle(topo, &ports, first);
        let message = format!(
            "{} {} spanning tree off for {vlan_words} (`disabled_vlans`) on a loop: {}. Every switch on it forwards {vlan_words} on all its links, so nothing blocks the loop: the first broadcast in {vlan_words} circles forever, and the storm fills every link it crosses, whatever VLAN the rest of the traffic is in",
            and_list(&names),
            if silent.len() == 1 { "runs" } else { "run" },
            path_text(design, topo, BridgeId(first), &cycle),
        );
        let help = format!(
            "run spanning tree for {vlan_words} (take it out of `disabled_vlans`, `spanning-tree vlan {vlans}` on the switch) on {}, or keep {vlan_words} off one link of the loop (`vlans` on the link without it)",
            and_list(&names),
        );
        let sw = design.switch(topo.bridge(BridgeId(first)).members[0]);
        let span = sw
            .stp
            .disabled_vlans
            .as_ref()
            .map_or(sw.stp.mode.span, |s| s.span);
        let mut d = cx
            .finding(&RULE, sw.element(), span, message)
            .with_help(help);
        for p in &cycle {
            let l = design.link(topo.ports[*p].link);
            d = d.with_related(
                l.span,
                format!("{} is on the loop", port_name(design, topo, *p)),
            );
        }
        out.push(d);
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const TRIANGLE: &str = r#"
[design]
name = "t"
[networks.a]
role = "management"
vlan = 10
[networks.b]
role = "backup"
vlan = 4094
[switches.a]
stp = { mode = "rapid-pvst" OFF_A }
[switches.b]
stp = { mode = "rapid-pvst" OFF_B }
[switches.c]
stp = { mode = "rapid-pvst" OFF_C }
[[links]]
name = "ab"
a = "a"
b = "b"
speed = "10G"
[[links]]
name = "bc"
a = "b"
b = "c"
speed = "10G"
[[links]]
name = "ca"
a = "c"
b = "a"
speed = "10G"
"#;

    const OFF: &str = ", disabled_vlans = [4094]";

    #[test]
    fn a_vlan_with_spanning_tree_off_everywhere_on_a_loop_is_an_error() {
        let src = TRIANGLE
            .replace("OFF_A", OFF)
            .replace("OFF_B", OFF)
            .replace("OFF_C", OFF);
        let f = findings(&src, "l2-loop");
        assert_eq!(f.len(), 1, "{f:#?}");
        let m = &f[0].message;
        assert!(m.starts_with("`a`, `b` and `c` run spanning tree off for VLAN 4094 (`disabled_vlans`) on a loop: `a` → `b` → `c` → `a` over `ab`, `bc`, `ca`."), "{m}");
        assert_eq!(f[0].element(), "switches.a");
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert_eq!(at, src.find("[4094]").unwrap());
        assert_eq!(f[0].related.len(), 3);
    }

    #[test]
    fn one_switch_running_the_vlan_tree_breaks_the_loop() {
        // b and c still run VLAN 4094's tree and block one port of it.
        let src = TRIANGLE
            .replace("OFF_A", OFF)
            .replace("OFF_B", "")
            .replace("OFF_C", "");
        assert!(findings(&src, "l2-loop").is_empty());
        // Or the VLAN is pruned from one link of the loop.
        let pruned = TRIANGLE
            .replace("OFF_A", OFF)
            .replace("OFF_B", OFF)
            .replace("OFF_C", OFF)
            .replace("name = \"ca\"", "name = \"ca\"\nvlans = [10]");
        assert!(findings(&pruned, "l2-loop").is_empty());
    }

    #[test]
    fn unused_or_tree_vlans_are_not_reported() {
        // VLAN 4000 is off but no network uses it; VLAN 10's tree blocks.
        let src = TRIANGLE
            .replace("OFF_A", ", disabled_vlans = [4000]")
            .replace("OFF_B", ", disabled_vlans = [4000]")
            .replace("OFF_C", ", disabled_vlans = [4000]");
        assert!(findings(&src, "l2-loop").is_empty());
    }
}
