//! `drift-stp`: a switch's spanning-tree mode, priority or MST region
//! (name, revision, instance map) differs from the design.

use super::{changed, of, value_words};
use crate::declare_drift_rule;
use crate::drift::{DriftContext, Side};
use netlint_analysis::drift::Field;
use netlint_model::{Diagnostic, Severity};

declare_drift_rule!(
    RULE,
    id: "drift-stp",
    severity: Warning,
    summary: "A switch's spanning-tree mode, bridge priority or MST region (name, revision, instance map) differs from the design.",
    check: check,
);

fn check(cx: &DriftContext<'_>, out: &mut Vec<Diagnostic>) {
    for diff in of(cx, |f| {
        matches!(
            f,
            Field::StpMode
                | Field::StpPriority
                | Field::StpRegion
                | Field::StpRevision
                | Field::StpInstances
        )
    }) {
        let dv = value_words(cx, Side::Design, diff.field, &diff.value.design, &diff.at);
        let effect = match diff.field {
            Field::StpMode => "the switch speaks another spanning-tree protocol than its neighbours were designed for: the tree, its root and the blocked links are not the reviewed ones".to_string(),
            Field::StpPriority => "the root election changes: another switch may become root, and other links block".to_string(),
            _ => "an MST region is only one when name, revision and instance map match on every switch: the switch falls into a region of its own, and its links to the others become region boundaries where every instance follows the CIST".to_string(),
        };
        let key = match diff.field {
            Field::StpMode => "mode",
            Field::StpPriority => "priority",
            Field::StpRegion => "region",
            Field::StpRevision => "revision",
            _ => "instances",
        };
        out.push(changed(
            cx,
            &RULE,
            diff,
            effect,
            Severity::Warning,
            format!("configure the switch as the design says ({key}: {dv}), or update the design's `stp` table if the change is intended"),
        ));
    }
}
