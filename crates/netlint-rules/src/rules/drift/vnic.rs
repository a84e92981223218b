//! `drift-vnic`: a host vNIC's VLAN or bandwidth weight (or its virtual
//! switch's default flow weight) differs from the design.

use super::{changed, of, value_words};
use crate::declare_drift_rule;
use crate::drift::{DriftContext, Side};
use netlint_analysis::drift::Field;
use netlint_model::{Diagnostic, Severity};

declare_drift_rule!(
    RULE,
    id: "drift-vnic",
    severity: Warning,
    summary: "A host vNIC's VLAN or minimum bandwidth weight (or its virtual switch's default flow weight) differs from the design.",
    check: check,
);

fn check(cx: &DriftContext<'_>, out: &mut Vec<Diagnostic>) {
    for diff in of(cx, |f| {
        matches!(
            f,
            Field::VNicVlan | Field::VNicWeight | Field::DefaultFlowWeight
        )
    }) {
        let dv = value_words(cx, Side::Design, diff.field, &diff.value.design, &diff.at);
        let (effect, severity, help) = match diff.field {
            Field::VNicVlan => (
                "the vNIC tags its traffic for another VLAN: it lands in another network, or nowhere".to_string(),
                Severity::Warning,
                format!("set the vNIC's VLAN to the design's ({dv}) as built (`Set-VMNetworkAdapterIsolation` / `Set-VMNetworkAdapterVlan` on Hyper-V, the port group's VLAN on vSphere), or update the design"),
            ),
            _ => (
                "the share of the uplinks this traffic keeps under contention changes: the design's bandwidth model no longer holds".to_string(),
                Severity::Warning,
                format!("set the {} to {dv} as built (`Set-VMNetworkAdapter -MinimumBandwidthWeight` / `Set-VMSwitch -DefaultFlowMinimumBandwidthWeight`), or update the design", super::field_words(diff.field)),
            ),
        };
        out.push(changed(cx, &RULE, diff, effect, severity, help));
    }
}
