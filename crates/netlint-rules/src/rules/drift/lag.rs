//! `drift-lag`: a link's or port's LAG membership or mode differs from the
//! design.

use super::{changed, nums, of};
use crate::declare_drift_rule;
use crate::drift::DriftContext;
use netlint_analysis::drift::{At, Difference, Field, Value};
use netlint_model::{Diagnostic, LagMode, LinkKind, Severity};

declare_drift_rule!(
    RULE,
    id: "drift-lag",
    severity: Warning,
    summary: "A link's LAG membership (number of cables) or mode (LACP, static, none) differs from the design.",
    check: check,
);

fn check(cx: &DriftContext<'_>, out: &mut Vec<Diagnostic>) {
    for diff in of(cx, |f| matches!(f, Field::LagMembers | Field::LagMode)) {
        let (effect, severity) = match (diff.field, nums(diff)) {
            (Field::LagMembers, Some((d, b))) if b < d => (
                format!("{} of the design's {d} cables are missing: the bundle has less capacity, and fewer cables to lose before it is down", d - b),
                Severity::Warning,
            ),
            (Field::LagMembers, _) => (
                "the bundle has more cables than designed: more capacity, but not the reviewed one".to_string(),
                Severity::Info,
            ),
            (Field::LagMode, _) if unbundled(diff) => {
                let peer_link = match diff.at {
                    At::Link(t) => t
                        .design
                        .is_some_and(|l| cx.design.link(l).kind.value == LinkKind::PeerLink),
                    _ => false,
                };
                if peer_link {
                    (
                        "as built no bundle forms (the ends disagree, or neither starts LACP): the peer link does not come up, so the MLAG peers cannot act as one switch (on NX-OS the secondary suspends its vPC member ports)".to_string(),
                        Severity::Error,
                    )
                } else {
                    (
                        "as built no bundle forms (the ends disagree, or neither starts LACP): the members are suspended, or run as separate links that spanning tree blocks, or, where one end forwards on every member, loop".to_string(),
                        Severity::Warning,
                    )
                }
            }
            _ => (
                "the two ends of a bundle must agree: LACP against a static bundle (or none) leaves members suspended, or forwarding on their own as a loop".to_string(),
                Severity::Warning,
            ),
        };
        out.push(changed(
            cx,
            &RULE,
            diff,
            effect,
            severity,
            "build the bundle as the design says (members and `channel-group ... mode`), or update the design's `members` / `lag` if the change is intended".to_string(),
        ));
    }
}

/// The design bundles, and as built no bundle forms (`lag = "none"`, as
/// the import writes it for ends that disagree).
fn unbundled(diff: &Difference) -> bool {
    matches!(
        (&diff.value.design, &diff.value.built),
        (Value::Lag(d), Value::Lag(LagMode::None)) if *d != LagMode::None
    )
}
