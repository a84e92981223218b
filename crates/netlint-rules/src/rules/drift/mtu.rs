//! `drift-mtu`: an MTU differs between the design and the network as built.

use super::{changed, nums, of, value_words};
use crate::declare_drift_rule;
use crate::drift::{DriftContext, Side};
use netlint_analysis::drift::Field;
use netlint_model::{Diagnostic, Severity};

declare_drift_rule!(
    RULE,
    id: "drift-mtu",
    severity: Warning,
    summary: "An MTU (switch, link, port, NIC or vNIC) differs between the design and the network as built.",
    check: check,
);

fn check(cx: &DriftContext<'_>, out: &mut Vec<Diagnostic>) {
    for diff in of(cx, |f| f == Field::Mtu) {
        let Some((d, b)) = nums(diff) else { continue };
        let dv = value_words(cx, Side::Design, diff.field, &diff.value.design, &diff.at);
        let (effect, severity) = if b < d {
            (
                format!("packets larger than {b} bytes that the design lets through are dropped there (large SMB, live-migration or storage frames fail while pings pass)"),
                Severity::Warning,
            )
        } else {
            (
                format!("it takes larger frames than the design's {d}; harmless by itself, but the path is not the one that was reviewed"),
                Severity::Info,
            )
        };
        out.push(changed(
            cx,
            &RULE,
            diff,
            effect,
            severity,
            format!("set MTU {dv} as built, as the design says, or change the design if the new MTU is intended (then check the path end to end with `netlint check`)"),
        ));
    }
}
