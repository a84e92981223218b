//! `drift-team`: a team's (or SET switch's) members, teaming mode or load
//! balancing differs from the design.

use super::{changed, of, value_words};
use crate::declare_drift_rule;
use crate::drift::{DriftContext, Side};
use netlint_analysis::drift::Field;
use netlint_model::{Diagnostic, Severity};

declare_drift_rule!(
    RULE,
    id: "drift-team",
    severity: Warning,
    summary: "A team's or virtual switch's members, teaming mode or load balancing differs from the design.",
    check: check,
);

fn check(cx: &DriftContext<'_>, out: &mut Vec<Diagnostic>) {
    for diff in of(cx, |f| {
        matches!(
            f,
            Field::TeamMembers | Field::TeamMode | Field::LoadBalancing
        )
    }) {
        let dv = value_words(cx, Side::Design, diff.field, &diff.value.design, &diff.at);
        let effect = match diff.field {
            Field::TeamMembers => "the traffic spreads over other NICs than designed: its bandwidth and what one NIC or switch failure takes away change",
            Field::TeamMode => "the switch side must match the teaming mode: a switch-dependent team on independent ports (or the reverse) drops or loops traffic",
            _ => "traffic is spread by another algorithm: which NIC a flow uses, and how much one VM or vNIC can get, change",
        };
        out.push(changed(
            cx,
            &RULE,
            diff,
            effect.to_string(),
            Severity::Warning,
            format!("set {} to {dv} as built (`Set-NetLbfoTeam` / `Set-VMSwitchTeam` on Hyper-V, the port group's teaming policy on vSphere), or update the design", super::field_words(diff.field)),
        ));
    }
}
