//! NIC teaming rules (LBFO, vendor teams, SET).

use crate::rules::traffic::emit_per_host;
use crate::{Context, Rule};
use netlint_model::{Diagnostic, Element, Host, Span, VSwitch};

pub mod team_cross_switch_lag;
pub mod team_hyperv_port_cap;
pub mod team_iscsi;
pub mod team_lag_mismatch;
pub mod team_lbfo_vswitch;
pub mod team_member_identity;
pub mod team_member_limit;
pub mod team_rdma;
pub mod team_rx_single_member;
pub mod team_speed_mismatch;
mod vswitch_lag;

pub static RULES: &[&Rule] = &[
    &team_speed_mismatch::RULE,
    &team_cross_switch_lag::RULE,
    &team_rdma::RULE,
    &team_lbfo_vswitch::RULE,
    &team_member_limit::RULE,
    &team_member_identity::RULE,
    &team_lag_mismatch::RULE,
    &team_hyperv_port_cap::RULE,
    &team_rx_single_member::RULE,
    &team_iscsi::RULE,
];

/// A Hyper-V Switch Embedded Teaming switch: two or more NIC uplinks on a
/// Windows host (on vSphere the same shape is an ordinary vSwitch).
pub(crate) fn is_hyperv_set(host: &Host, vs: &VSwitch) -> bool {
    vs.is_set() && host.os.value.is_windows()
}

/// One host's finding, before it is worded for every host that shares it.
pub(crate) struct HostHit {
    pub element: Element,
    pub span: Span,
    /// The facts, without the hosts: with the span, the grouping key.
    pub message: String,
    pub related: Vec<(Span, String)>,
    pub help: String,
}

/// Emits each hit as a finding of `rule` through
/// [`emit_per_host`](crate::rules::traffic::emit_per_host): hosts built from
/// one profile share one message naming them all.
pub(crate) fn emit_hits(
    cx: &Context<'_>,
    rule: &Rule,
    hits: Vec<HostHit>,
    out: &mut Vec<Diagnostic>,
) {
    let found = hits
        .into_iter()
        .map(|h| {
            let mut d = cx
                .finding(rule, h.element, h.span, h.message)
                .with_help(h.help);
            for (span, label) in h.related {
                d = d.with_related(span, label);
            }
            d
        })
        .collect();
    emit_per_host(out, found);
}
