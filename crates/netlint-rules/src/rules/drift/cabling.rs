//! `drift-cabling`: a NIC is cabled to another switch or port than the
//! design says.

use super::{changed, of, value_words};
use crate::declare_drift_rule;
use crate::drift::{DriftContext, Side};
use netlint_analysis::drift::{Field, Value};
use netlint_model::{Diagnostic, Severity};

declare_drift_rule!(
    RULE,
    id: "drift-cabling",
    severity: Warning,
    summary: "A NIC is cabled to another switch or another port than the design says.",
    check: check,
);

fn check(cx: &DriftContext<'_>, out: &mut Vec<Diagnostic>) {
    for diff in of(cx, |f| f == Field::Cabling) {
        let dv = value_words(cx, Side::Design, diff.field, &diff.value.design, &diff.at);
        let other_switch = match (&diff.value.design, &diff.value.built) {
            (Value::Attach(Some(a), _), Value::Attach(Some(b), _)) => {
                cx.drift.matching.switches.built(*a) != Some(*b)
            }
            _ => true,
        };
        let effect = if other_switch {
            "the NIC hangs off another switch: what it reaches, and what one switch failure takes with it, are not what the design was checked for".to_string()
        } else {
            "the NIC sits on another port of the same switch: that port's VLANs, MTU and edge settings apply, not the designed port's".to_string()
        };
        out.push(changed(
            cx,
            &RULE,
            diff,
            effect,
            Severity::Warning,
            format!("re-cable the NIC to {dv}, or update the design's `switch` / `port` if the new cabling is intended"),
        ));
    }
}
