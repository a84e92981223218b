//! `drift-dcb`: a host's or switch's DCB settings (willing, PFC, ETS, QoS
//! policies) differ from the design.

use super::{changed, of, value_words};
use crate::declare_drift_rule;
use crate::drift::{DriftContext, Side};
use netlint_analysis::drift::Field;
use netlint_model::{Diagnostic, Severity};

declare_drift_rule!(
    RULE,
    id: "drift-dcb",
    severity: Warning,
    summary: "A host's or switch's DCB settings (DCBX willing, PFC priorities, ETS shares, QoS policies) differ from the design.",
    check: check,
);

fn check(cx: &DriftContext<'_>, out: &mut Vec<Diagnostic>) {
    for diff in of(cx, |f| {
        matches!(
            f,
            Field::DcbWilling | Field::DcbPfc | Field::DcbEts | Field::DcbPolicies | Field::PortPfc
        )
    }) {
        let dv = value_words(cx, Side::Design, diff.field, &diff.value.design, &diff.at);
        let effect = match diff.field {
            Field::DcbWilling => "the host takes (or ignores) the switch's DCBX settings where the design says otherwise",
            Field::DcbPfc => "the lossless priorities differ: RDMA traffic on a priority without PFC is dropped under congestion, and pause frames on the wrong class stall other traffic",
            Field::DcbEts => "the bandwidth each traffic class keeps under contention differs from the design",
            Field::PortPfc => "the port does not pause the switch's lossless priorities: RDMA traffic of the host on it is dropped under congestion there",
            _ => "traffic is tagged with other priorities than designed: it lands in another class, lossless or not",
        };
        out.push(changed(
            cx,
            &RULE,
            diff,
            effect.to_string(),
            Severity::Warning,
            match diff.field {
                Field::PortPfc => format!("set PFC at the port as the design says ({dv}: OS10 `priority-flow-control mode on` under the interface), or update the design's port table (`pfc`) if the change is intended"),
                _ => format!("set the {} to {dv} as built (`Set-NetQosDcbxSetting`, `Enable-NetQosFlowControl`, `New-NetQosTrafficClass`, `New-NetQosPolicy` on the host; `priority-flow-control` and the QoS policy on the switch), or update the design", super::field_words(diff.field)),
            },
        ));
    }
}
