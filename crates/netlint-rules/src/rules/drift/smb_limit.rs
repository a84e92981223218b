//! `drift-smb-limit`: a host's SMB bandwidth limit for live migration
//! differs from the design.

use super::{changed, of, value_words};
use crate::declare_drift_rule;
use crate::drift::{DriftContext, Side};
use netlint_analysis::drift::{Field, Value};
use netlint_model::{Diagnostic, Severity};

declare_drift_rule!(
    RULE,
    id: "drift-smb-limit",
    severity: Warning,
    summary: "A host's SMB bandwidth limit for live migration differs from the design.",
    check: check,
);

fn check(cx: &DriftContext<'_>, out: &mut Vec<Diagnostic>) {
    for diff in of(cx, |f| f == Field::SmbLimit) {
        let dv = value_words(cx, Side::Design, diff.field, &diff.value.design, &diff.at);
        let effect = match (&diff.value.design, &diff.value.built) {
            (_, Value::Unset) => "live migration over SMB is not capped: a migration can take the bandwidth storage traffic on the same adapters needs",
            (Value::Bandwidth(d), Value::Bandwidth(b)) if b.gbps() < d.gbps() => "live migration is capped lower than designed: draining a host takes longer than the design's figures",
            _ => "live migration may take more of the shared adapters than designed, at the expense of storage traffic",
        };
        let help = match &diff.value.design {
            Value::Unset => "remove the limit as built (`Remove-SmbBandwidthLimit -Category LiveMigration`), or add it to the design".to_string(),
            _ => format!("set the limit as built to {dv} (`Set-SmbBandwidthLimit -Category LiveMigration -BytesPerSecond ...`), or update the design"),
        };
        out.push(changed(
            cx,
            &RULE,
            diff,
            effect.to_string(),
            Severity::Warning,
            help,
        ));
    }
}
