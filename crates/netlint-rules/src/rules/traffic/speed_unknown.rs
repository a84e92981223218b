//! `speed-unknown`: a NIC or link states no `speed`, and a check that needs
//! it could not run. One finding per element, naming the checks; none for
//! a link no check reads the speed of (a peer-link, a stacking cable, a
//! routed link, a link to an unmanaged device).
//!
//! Every rule that needs a speed skips what it cannot tell (no guess, no
//! silent pass): this rule is where that is said, once per element, at
//! `info` so an imported design is not a wall of warnings, and named so a
//! CI gate can raise it (`--fail-on info`) or `allow` it per element.

use super::emit_per_host;
use crate::{declare_rule, Context};
use netlint_analysis::bandwidth::TrafficClass;
use netlint_analysis::speeds::UNKNOWN_LINK_STP_SPEED;
use netlint_model::{
    Design, Diagnostic, Element, Host, HostId, LoadBalancing, NicIdx, Power, StpMode, TeamMode,
    Transport,
};

declare_rule!(
    RULE,
    id: "speed-unknown",
    category: "traffic",
    severity: Info,
    summary: "A NIC or link states no `speed`, so the checks that need it could not run.",
    check: check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let d = cx.design;
    let clusters = d.clusters();
    let mut found = Vec::new();
    for (hi, host) in d.hosts.iter().enumerate() {
        let hid = HostId(hi);
        let peers = clusters
            .get(host.cluster_name())
            .map_or(0, |v| v.len().saturating_sub(1));
        for (ni, nic) in host.nics.iter().enumerate() {
            if nic.speed.is_some() {
                continue;
            }
            let checks = nic_checks(cx, host, hid, NicIdx(ni), peers);
            if checks.is_empty() {
                continue;
            }
            found.push(
                cx.finding(
                    &RULE,
                    Element::nic(&host.name, &nic.name),
                    nic.span,
                    format!(
                        "NIC `{}` states no speed, so netlint could not check {}",
                        nic.name,
                        crate::phrases::words::and_list(&checks)
                    ),
                )
                .with_help(format!(
                    "state the negotiated link speed, e.g. `speed = \"25G\"` on NIC `{}`{}",
                    nic.name,
                    match &host.profile {
                        Some(p) => format!(" (or in profile `{}`)", p.value),
                        None => String::new(),
                    }
                )),
            );
        }
    }
    emit_per_host(out, found);
    let topo = cx.topology();
    // Per link: whether it is a port between two bridges (only those are
    // costed, walked and simulated), and whether spanning tree runs at one
    // of its ends. A peer-link or a stacking cable (inside one bridge), a
    // routed link and a link to an unmanaged device are no such port:
    // nothing reads their speed.
    let mut port = vec![false; d.links.len()];
    let mut stp = vec![false; d.links.len()];
    for p in &topo.ports {
        port[p.link.0] = true;
        stp[p.link.0] |= [p.a, p.b].iter().any(|b| {
            topo.bridges[b.0]
                .members
                .iter()
                .any(|s| d.switch(*s).stp.mode.value != StpMode::None)
        });
    }
    for (li, link) in d.links.iter().enumerate() {
        if link.speed.is_some() || !port[li] {
            continue;
        }
        let mut checks = Vec::new();
        if stp[li] {
            if link.stp_cost.is_none() {
                checks.push(format!(
                    "its spanning-tree port cost (taken as for {UNKNOWN_LINK_STP_SPEED})"
                ));
            }
            checks.push("`stp-suboptimal-path` along it".to_string());
        }
        checks.push("the capacities `netlint simulate` shows for it".to_string());
        out.push(
            cx.finding(
                &RULE,
                Element::Link(link.name.clone()),
                link.span,
                format!(
                    "link `{}` states no speed, so netlint could not check {}",
                    link.name,
                    crate::phrases::words::and_list(&checks)
                ),
            )
            .with_help(format!(
                "state the per-cable speed, e.g. `speed = \"100G\"` on link `{}`{}",
                link.name,
                if stp[li] { ", or its `stp_cost`" } else { "" }
            )),
        );
    }
}

/// The checks that needed NIC `n`'s speed on `host`, by rule id (and the
/// report's figures), in a stable order.
fn nic_checks(cx: &Context<'_>, host: &Host, hid: HostId, n: NicIdx, peers: usize) -> Vec<String> {
    let d: &Design = cx.design;
    let mut out: Vec<&str> = Vec::new();
    let teamed = host
        .teams
        .iter()
        .any(|t| t.members.len() > 1 && t.members.iter().any(|m| m.value == n))
        || host.vswitches.iter().any(|v| {
            v.is_set()
                && v.uplinks
                    .iter()
                    .any(|u| host.uplink_nics(u.value).contains(&n))
        });
    if teamed {
        out.push("`team-speed-mismatch`");
    }
    if host.teams.iter().any(|t| {
        t.members.iter().any(|m| m.value == n)
            && t.mode.value == TeamMode::SwitchIndependent
            && t.load_balancing.value == LoadBalancing::AddressHash
    }) {
        out.push("`team-rx-single-member`");
    }
    if peers > 0 {
        out.push("`host-asymmetry`");
    }
    if host.nic(n).attach.is_some() {
        out.push("`stp-suboptimal-path`");
    }
    let hb = cx.bandwidth().host(hid);
    let used = |c: TrafficClass| hb.class(c).is_some_and(|m| m.nics().contains(&n));
    let in_model = hb.classes.iter().any(|c| c.nics().contains(&n));
    // jumbo-recommended looks at networks still at standard frames.
    if in_model && host.nic(n).mtu.value.payload <= 1500 {
        out.push("`jumbo-recommended`");
    }
    if hb
        .classes
        .iter()
        .any(|c| c.pin_caps.iter().any(|p| p.unknown.contains(&n)))
    {
        out.push("`team-hyperv-port-cap`");
    }
    if used(TrafficClass::LiveMigration) {
        let lm = host.live_migration.as_ref().map(|l| l.transport.value);
        if d.drain_budget.is_some() && host.memory_gb.is_some() {
            out.push("`lm-drain-time`");
        }
        if lm == Some(Transport::Smb) {
            out.push("`smb-bandwidth-cap-missing`");
            out.push("`smb-bandwidth-cap-degraded`");
        }
        if lm == Some(Transport::Compression) {
            out.push("`lm-compression-multichannel`");
        }
        if host.power.value == Power::Unknown {
            out.push("`power-profile`");
        }
    }
    let mut out: Vec<String> = out.into_iter().map(String::from).collect();
    if in_model {
        out.push(
            "the bandwidth figures of `netlint report` (shown as \"at least\" or \"unknown\")"
                .to_string(),
        );
    }
    out
}

#[cfg(test)]
mod tests;
