//! `drift-live-migration`: a host's live-migration settings (transport,
//! networks, simultaneous migrations) differ from the design.

use super::{changed, of, value_words};
use crate::declare_drift_rule;
use crate::drift::{DriftContext, Side};
use netlint_analysis::drift::Field;
use netlint_model::{Diagnostic, Severity};

declare_drift_rule!(
    RULE,
    id: "drift-live-migration",
    severity: Warning,
    summary: "A host's live-migration transport, networks or number of simultaneous migrations differs from the design.",
    check: check,
);

fn check(cx: &DriftContext<'_>, out: &mut Vec<Diagnostic>) {
    for diff in of(cx, |f| {
        matches!(
            f,
            Field::LmTransport | Field::LmNetworks | Field::LmSimultaneous
        )
    }) {
        let dv = value_words(cx, Side::Design, diff.field, &diff.value.design, &diff.at);
        let effect = match diff.field {
            Field::LmTransport => "migrations use another transport: their speed, CPU cost and the adapters they load differ from the design",
            Field::LmNetworks => "migrations run over other networks than designed: they load other adapters, and may share them with traffic the design kept apart",
            _ => "more or fewer migrations run at once: drain times and the load on the migration network differ from the design",
        };
        out.push(changed(
            cx,
            &RULE,
            diff,
            effect.to_string(),
            Severity::Warning,
            format!("set the {} to {dv} as built (`Set-VMHost -VirtualMachineMigrationPerformanceOption`, `Add-VMMigrationNetwork`, `-MaximumVirtualMachineMigrations`), or update the design", super::field_words(diff.field)),
        ));
    }
}
