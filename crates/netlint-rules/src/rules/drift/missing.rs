//! `drift-missing`: a host, NIC, vNIC, switch or link of the design is not
//! in the network as built.

use super::{element_words, emit, of, Found};
use crate::declare_drift_rule;
use crate::drift::DriftContext;
use netlint_analysis::drift::{At, Field};
use netlint_model::{Diagnostic, Severity};

declare_drift_rule!(
    RULE,
    id: "drift-missing",
    severity: Warning,
    summary: "A host, NIC, vNIC, switch or link of the design is not in the network as built.",
    check: check,
);

fn check(cx: &DriftContext<'_>, out: &mut Vec<Diagnostic>) {
    for diff in of(cx, |f| f == Field::Present) {
        if diff.span.design.is_none() {
            continue;
        }
        // An as-built side that describes no host at all (switch configs
        // and LLDP only) says nothing about the hosts.
        let host_side = matches!(diff.at, At::Host(_) | At::Nic { .. } | At::VNic { .. });
        if host_side && cx.built.hosts.is_empty() {
            continue;
        }
        let place = element_words(cx, &diff.at);
        let effect = match diff.at {
            At::Switch(_) => "the links and NICs the design puts on it have nowhere to go",
            At::Link(_) => "the switches lose this path: the capacity and redundancy between them are not what the design was checked for",
            At::Host(_) => "the cluster is a node short of the design",
            At::Nic { .. } => "the host has one adapter fewer: its networks lose that path",
            _ => "the host has no interface for that network",
        };
        out.push(emit(
            cx,
            &RULE,
            Found {
                diff,
                what: format!("{place} of the design is not in the network as built"),
                effect: effect.to_string(),
                severity: Severity::Warning,
                help: "build it as the design says, or remove it from the design if it was dropped on purpose".to_string(),
                design_label: "the design has it".to_string(),
                built_label: String::new(),
            },
        ));
    }
}
