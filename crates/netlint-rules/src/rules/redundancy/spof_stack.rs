//! `spof-stack`: a network's redundancy rests on two members of one stack.

use crate::phrases::failure::{hosts_phrase, LossWords, RequirementWords};
use crate::phrases::words::and_list;
use crate::{declare_rule, Context};
use netlint_analysis::failure::Unit;
use netlint_model::Diagnostic;

declare_rule!(
    RULE,
    id: "spof-stack",
    category: "redundancy",
    severity: Info,
    summary: "A network's redundancy rests on two members of one stack: one control plane and one firmware domain.",
    check: check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let design = cx.design;
    let topo = cx.topology();
    for stack in &cx.failures().stacks {
        let bridge = topo.bridge(stack.bridge);
        let unit = Unit::Bridge(stack.bridge);
        let members: Vec<String> = bridge
            .members
            .iter()
            .map(|s| format!("`{}`", design.switch(*s).name))
            .collect();
        let first = design.switch(bridge.members[0]);
        let span = unit.span(design, topo);
        // One finding per set of hosts and reason, listing what they keep
        // only through the stack.
        let mut items: Vec<(Vec<netlint_model::HostId>, String, Vec<String>)> = Vec::new();
        for loss in &stack.extra {
            let hosts = loss.host_ids();
            let mut why: Vec<String> = Vec::new();
            for g in loss.groups(design, topo, std::slice::from_ref(&unit)) {
                if !why.contains(&g.why.text) {
                    why.push(g.why.text);
                }
            }
            let why = why.join("; ");
            let what = loss.requirement.describe(design);
            match items.iter_mut().find(|(h, w, _)| *h == hosts && *w == why) {
                Some(item) => item.2.push(what),
                None => items.push((hosts, why, vec![what])),
            }
        }
        for (hosts, why, whats) in items {
            let mut d = cx
                .finding(
                    &RULE,
                    first.element(),
                    span,
                    format!(
                        "{} keep {} only through stack `{}`: each of its members {} carries a path, but a stack reload or a bad firmware upgrade takes them down together ({why})",
                        hosts_phrase(design, &hosts),
                        and_list(&whats),
                        bridge.name,
                        members.join(" and "),
                    ),
                )
                .with_help(format!(
                    "for the most critical networks, cable the two paths to switches that do not share a control plane (an MLAG pair or two independent switches) instead of two members of stack `{}`; at least upgrade its members one at a time",
                    bridge.name
                ));
            for s in &bridge.members[1..] {
                let sw = design.switch(*s);
                if let Some(st) = &sw.stack {
                    d = d.with_related(st.span, format!("`{}` is in the same stack", sw.name));
                }
            }
            out.push(d);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;
    use netlint_model::Severity;

    const SRC: &str = r#"
[design]
name = "t"
[networks.vm]
role = "vm"
vlan = 100
[switches.s-1]
stack = "st"
[switches.s-2]
stack = "st"
[switches.other]
[[links]]
a = "s-1"
b = "s-2"
kind = "stack"
speed = "40G"
[[links]]
a = "s-1"
b = "other"
speed = "10G"
members = 2
[profiles.p.nics.A]
card = "a"
speed = "10G"
switch = "s-1"
[profiles.p.nics.B]
card = "b"
speed = "10G"
switch = "SECOND"
[profiles.p.vswitches.S]
uplinks = ["A", "B"]
networks = ["vm"]
[hosts.h1]
profile = "p"
[hosts.h2]
profile = "p"
"#;

    #[test]
    fn redundancy_inside_one_stack_is_reported_as_info() {
        let f = findings(&SRC.replace("SECOND", "s-2"), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Info);
        assert_eq!(f[0].element(), "switches.s-1");
        assert!(
            f[0].message.starts_with("hosts `h1`, `h2` keep network `vm` only through stack `st`: each of its members `s-1` and `s-2` carries a path"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].message
                .contains("SET switch `S`'s members `A` and `B` are both cabled to stack `st`"),
            "{}",
            f[0].message
        );
        assert_eq!(f[0].related.len(), 1);
    }

    #[test]
    fn a_second_path_outside_the_stack_is_enough() {
        assert!(findings(&SRC.replace("SECOND", "other"), &super::RULE).is_empty());
    }

    #[test]
    fn a_host_on_one_member_is_spof_switch_not_spof_stack() {
        let f = findings(&SRC.replace("SECOND", "s-1"), &super::RULE);
        assert!(f.is_empty(), "{f:#?}");
        let f = findings(
            &SRC.replace("SECOND", "s-1"),
            &crate::rules::redundancy::spof_switch::RULE,
        );
        assert!(!f.is_empty());
    }
}
