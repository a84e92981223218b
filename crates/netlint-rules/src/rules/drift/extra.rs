//! `drift-extra`: the network as built has a host, NIC, vNIC, switch or
//! link the design does not.

use super::{element_words, emit, of, Found};
use crate::declare_drift_rule;
use crate::drift::DriftContext;
use netlint_analysis::drift::Field;
use netlint_model::{Diagnostic, Severity};

declare_drift_rule!(
    RULE,
    id: "drift-extra",
    severity: Info,
    summary: "The network as built has a host, NIC, vNIC, switch or link the design does not.",
    check: check,
);

fn check(cx: &DriftContext<'_>, out: &mut Vec<Diagnostic>) {
    for diff in of(cx, |f| f == Field::Present) {
        if diff.span.design.is_some() {
            continue;
        }
        let place = element_words(cx, &diff.at);
        out.push(emit(
            cx,
            &RULE,
            Found {
                diff,
                what: format!("{place} is in the network as built, not in the design"),
                effect: "nothing the design was checked for accounts for it".to_string(),
                severity: Severity::Info,
                help: "add it to the design so that it is checked, or remove it as built if it should not be there".to_string(),
                design_label: "the design does not have it".to_string(),
                built_label: "as built".to_string(),
            },
        ));
    }
}
