//! `drift-rdma`: a NIC's or vNIC's RDMA setting differs from the design.

use super::{changed, of, value_words};
use crate::declare_drift_rule;
use crate::drift::{DriftContext, Side};
use netlint_analysis::drift::Field;
use netlint_model::{Diagnostic, Severity};

declare_drift_rule!(
    RULE,
    id: "drift-rdma",
    severity: Warning,
    summary: "A NIC's RDMA kind, or a vNIC's RDMA, differs from the design.",
    check: check,
);

fn check(cx: &DriftContext<'_>, out: &mut Vec<Diagnostic>) {
    for diff in of(cx, |f| f == Field::Rdma) {
        let dv = value_words(cx, Side::Design, diff.field, &diff.value.design, &diff.at);
        out.push(changed(
            cx,
            &RULE,
            diff,
            "SMB Direct runs (or falls back to TCP) where the design says otherwise: storage and live-migration throughput and CPU cost differ, and RoCE needs lossless DCB on every hop".to_string(),
            Severity::Warning,
            format!("set RDMA to {dv} as built (`Enable-NetAdapterRdma` / `Disable-NetAdapterRdma`, and the adapter's NetworkDirect technology), or update the design"),
        ));
    }
}
