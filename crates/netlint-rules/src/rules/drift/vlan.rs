//! `drift-vlan`: a VLAN allowed on a trunk or port, or defined on a
//! switch, on one side only; a port's access VLAN changed.

use super::{emit, networks_on_vlan, of, value_words, Found};
use crate::declare_drift_rule;
use crate::drift::{DriftContext, Side};
use netlint_analysis::drift::{At, Field, Value};
use netlint_model::{Diagnostic, Severity};

declare_drift_rule!(
    RULE,
    id: "drift-vlan",
    severity: Warning,
    summary: "A VLAN is allowed on a trunk or port (or defined on a switch) in the design or as built, not both.",
    check: check,
);

fn check(cx: &DriftContext<'_>, out: &mut Vec<Diagnostic>) {
    for diff in of(cx, |f| matches!(f, Field::Vlan(_) | Field::AccessVlan)) {
        let place = super::element_words(cx, &diff.at);
        if diff.field == Field::AccessVlan {
            let dv = value_words(cx, Side::Design, diff.field, &diff.value.design, &diff.at);
            let bv = value_words(cx, Side::Built, diff.field, &diff.value.built, &diff.at);
            out.push(emit(
                cx,
                &RULE,
                Found {
                    diff,
                    what: format!("{place} is an access port of VLAN {bv} as built, of VLAN {dv} in the design"),
                    effect: "the host on it lands in another network".to_string(),
                    severity: Severity::Warning,
                    help: format!("set the port's access VLAN as built to the design's (VLAN {dv}), or change the design's `access_vlan` if the move is intended"),
                    design_label: format!("the design: VLAN {dv}"),
                    built_label: format!("as built: VLAN {bv}"),
                },
            ));
            continue;
        }
        let Field::Vlan(v) = diff.field else { continue };
        let missing = diff.value.design == Value::Bool(true);
        let nets = networks_on_vlan(cx.design, v);
        let nets_words = crate::phrases::words::and_list(&nets);
        let verb = |one: &str, many: &str| {
            if nets.len() == 1 {
                one.to_string()
            } else {
                many.to_string()
            }
        };
        let (what, effect, severity) = match (&diff.at, missing) {
            (At::Switch(_), true) => (
                format!("{place} does not define VLAN {v} as built, which the design defines"),
                if nets.is_empty() {
                    "no network of the design uses it".to_string()
                } else {
                    format!("{nets_words} {} at the switch", verb("stops", "stop"))
                },
                if nets.is_empty() {
                    Severity::Info
                } else {
                    Severity::Warning
                },
            ),
            (At::Switch(_), false) => (
                format!("{place} defines VLAN {v} as built, which the design does not"),
                "a VLAN the design does not know exists on the switch".to_string(),
                Severity::Info,
            ),
            (At::Link(_), true) | (At::Port { .. }, true) => (
                format!("{place} lacks VLAN {v} as built, which the design carries"),
                if nets.is_empty() {
                    "no network of the design uses it".to_string()
                } else {
                    format!("{nets_words} {} cut there", verb("is", "are"))
                },
                if nets.is_empty() {
                    Severity::Info
                } else {
                    Severity::Warning
                },
            ),
            (_, _) => (
                format!("{place} carries VLAN {v} as built, which the design keeps off it"),
                if nets.is_empty() {
                    "a VLAN no network of the design uses crosses it".to_string()
                } else {
                    format!("{nets_words} also {} there, a path the design does not have (a loop, or traffic where it was kept off)", verb("crosses", "cross"))
                },
                if nets.is_empty() {
                    Severity::Info
                } else {
                    Severity::Warning
                },
            ),
        };
        let on_switch = matches!(diff.at, At::Switch(_));
        let help = if on_switch && missing {
            format!("define VLAN {v} on the switch as built (`vlan {v}`), or take it out of the design's `vlans` if the change is intended")
        } else if on_switch {
            format!("remove the definition of VLAN {v} as built (`no vlan {v}`), or add it to the design's `vlans` if it belongs there")
        } else if missing {
            format!("allow VLAN {v} there as built (on a Cisco or Arista trunk: `switchport trunk allowed vlan add {v}` on both ends), or take it out of the design if the change is intended")
        } else {
            format!("remove VLAN {v} there as built (`switchport trunk allowed vlan remove {v}`), or add it to the design if it belongs there")
        };
        out.push(emit(
            cx,
            &RULE,
            Found {
                diff,
                what,
                effect,
                severity,
                help,
                design_label: format!(
                    "the design: VLAN {v} {}",
                    if missing {
                        "allowed here"
                    } else {
                        "not allowed here"
                    }
                ),
                built_label: format!(
                    "as built: VLAN {v} {}",
                    if missing { "not allowed" } else { "allowed" }
                ),
            },
        ));
    }
}
