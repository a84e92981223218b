//! `drift-stp`: a switch's spanning-tree mode, priority or MST region
//! (name, revision, instance map) differs from the design, or a host
//! port's edge (portfast) or BPDU guard setting.

use super::{changed, element_words, emit, of, touched, value_words, Found};
use crate::declare_drift_rule;
use crate::drift::{DriftContext, Side};
use netlint_analysis::drift::At;
use netlint_analysis::drift::{Difference, Field, Value};
use netlint_analysis::BridgeId;
use netlint_model::{Design, Diagnostic, Severity, SwitchId};

declare_drift_rule!(
    RULE,
    id: "drift-stp",
    severity: Warning,
    summary: "A switch's spanning-tree mode, bridge priority or MST region (name, revision, instance map), or a host port's edge or BPDU guard setting, differs from the design.",
    check: check,
);

/// Edge and BPDU guard lost together on one port (one config line took
/// both: NX-OS `spanning-tree port type edge bpduguard default` reaches
/// edge ports only) whose consequence is one as-built finding: the
/// edge difference, which says both. One cause, one finding.
fn joint_edge_guard<'a>(cx: &'a DriftContext<'_>) -> Vec<(&'a Difference, &'a Difference)> {
    let lost =
        |d: &Difference| d.value.design == Value::Bool(true) && d.value.built == Value::Bool(false);
    let mut out = Vec::new();
    for e in of(cx, |f| f == Field::Edge).filter(|d| lost(d)) {
        let Some(g) = of(cx, |f| f == Field::BpduGuard).find(|g| g.at == e.at && lost(g)) else {
            continue;
        };
        let (te, tg) = (
            touched(cx, &e.at, Field::Edge),
            touched(cx, &g.at, Field::BpduGuard),
        );
        if let (Some(a), Some(b)) = (cx.consequence(e, &te), cx.consequence(g, &tg)) {
            if a.rule == b.rule && a.subjects == b.subjects {
                out.push((e, g));
            }
        }
    }
    out
}

fn check(cx: &DriftContext<'_>, out: &mut Vec<Diagnostic>) {
    let joint = joint_edge_guard(cx);
    for (e, _) in &joint {
        let place = element_words(cx, &e.at);
        out.push(emit(
            cx,
            &RULE,
            Found {
                diff: e,
                what: format!("{place}: edge (portfast) and BPDU guard on host ports: no as built, yes in the design (one line took both)"),
                effect: String::new(),
                severity: Severity::Warning,
                help: "configure the port as the design says (NX-OS `spanning-tree port type edge trunk`, which also brings back BPDU guard under `spanning-tree port type edge bpduguard default`; EOS and IOS `spanning-tree portfast` and `spanning-tree bpduguard enable`), or update the design's `host_ports` or port table if the change is intended".to_string(),
                design_label: "the design: edge and BPDU guard yes".to_string(),
                built_label: "as built: edge and BPDU guard no".to_string(),
            },
        ));
    }
    let in_joint = |d: &Difference| {
        joint
            .iter()
            .any(|(e, g)| std::ptr::eq(*e, d) || std::ptr::eq(*g, d))
    };
    for diff in of(cx, |f| {
        matches!(
            f,
            Field::StpMode
                | Field::StpPriority
                | Field::VlanPriority(_)
                | Field::StpRegion
                | Field::StpRevision
                | Field::StpInstances
                | Field::StpCost
                | Field::Edge
                | Field::BpduGuard
        )
    }) {
        if in_joint(diff) {
            continue;
        }
        let dv = value_words(cx, Side::Design, diff.field, &diff.value.design, &diff.at);
        if !matches!(diff.field, Field::Edge | Field::BpduGuard) {
            if let Some(same) = same_trees(cx) {
                let help = match diff.field {
                    Field::StpMode => format!("nothing to do where the switch's vendor has no mode `{}` (Cisco NX-OS and Catalyst run no plain RSTP: `netlint generate` writes MST with one region there); else configure the switch as the design says, or update the design's `stp` table", match &diff.value.design { Value::Stp(m) => m.to_string(), _ => String::new() }),
                    Field::StpCost => "nothing to do for the trees; set the link's port cost as the design says, or update its `stp_cost`, to keep the two alike".to_string(),
                    _ => "nothing to do for the trees; configure the switch as the design says, or update the design's `stp` table, to keep the two alike".to_string(),
                };
                out.push(changed(cx, &RULE, diff, same, Severity::Info, help));
                continue;
            }
        }
        let effect = match diff.field {
            Field::StpMode => "the switch speaks another spanning-tree protocol than its neighbours were designed for: the tree, its root and the blocked links are not the reviewed ones".to_string(),
            Field::VlanPriority(v) => format!(
                "the root election of VLAN {v}'s tree changes: another switch may become its root, and other links block in that VLAN"
            ),
            Field::StpPriority => match cist_roots(cx, &diff.at) {
                Some((before, after)) if before != after => format!(
                    "the root election changes: the common spanning tree's root moves from `{before}` (the design) to `{after}` (as built), and the links that block follow it"
                ),
                Some((root, _)) => format!(
                    "the root election changes its margins: `{root}` stays the common spanning tree's root, but the backup root and the blocked links after a failure are not the reviewed ones"
                ),
                None => "the root election changes: another switch may become root, and other links block".to_string(),
            },
            Field::StpCost => "the link's port cost decides, with the others on the way, which port each switch takes to the root and which links block: the tree is not the reviewed one".to_string(),
            Field::Edge if diff.value.design == Value::Bool(true) => "a host port that is no edge port goes through listening and learning before it forwards (about 30 s after every link-up: a cluster node's NIC flap or reboot is a storage and heartbeat outage), and each flap sends topology changes that flush MAC tables across the fabric".to_string(),
            Field::Edge => "the port forwards at once on link-up, as the design's non-edge port would not: a bridge cabled there forwards before the spanning tree has seen it".to_string(),
            Field::BpduGuard if diff.value.design == Value::Bool(true) => "a host or bridge that sends BPDUs on that port is no longer shut down: a bridged loop through a host (a VM bridging two vNICs, a miscabled switch) is not stopped at the edge".to_string(),
            Field::BpduGuard => "the port is shut down when a BPDU arrives, which the design does not expect there".to_string(),
            _ => "an MST region is only one when name, revision and instance map match on every switch: the switch falls into a region of its own, and its links to the others become region boundaries where every instance follows the CIST".to_string(),
        };
        let key = match diff.field {
            Field::StpMode => "mode",
            Field::StpPriority => "priority",
            Field::VlanPriority(_) => "vlan_priority",
            Field::StpRegion => "region",
            Field::StpRevision => "revision",
            Field::Edge => "edge",
            Field::BpduGuard => "bpdu_guard",
            Field::StpCost => "stp_cost",
            _ => "instances",
        };
        out.push(changed(
            cx,
            &RULE,
            diff,
            effect,
            Severity::Warning,
            match diff.field {
                Field::Edge => format!("configure the port as the design says (edge: {dv}; NX-OS `spanning-tree port type edge trunk`, EOS and IOS `spanning-tree portfast`, OS10 `spanning-tree port type edge`), or update the design's `host_ports` or port table if the change is intended"),
                Field::BpduGuard => format!("configure the port as the design says (BPDU guard: {dv}; `spanning-tree bpduguard enable`), or update the design's `host_ports` or port table if the change is intended"),
                Field::StpCost => format!("configure the link's port cost as the design says (stp_cost: {dv}; `spanning-tree cost N` on the port-channel or port, at both ends), or update the link's `stp_cost` if the change is intended"),
                _ => format!("configure the switch as the design says ({key}: {dv}), or update the design's `stp` table if the change is intended"),
            },
        ));
    }
}

/// "every VLAN's tree is the design's ..." when the two sides make the
/// same spanning trees in every VLAN, healthy and after each single
/// failure: then a setting that differs changes nothing the design was
/// reviewed for. `None` when some tree differs.
fn same_trees(cx: &DriftContext<'_>) -> Option<String> {
    let t = cx.trees();
    if t.differs.is_some() {
        return None;
    }
    let failures = t.states - 1;
    let when = match (failures, t.every_failure) {
        (0, _) => "(the fabric has no single failure to compare)".to_string(),
        (n, true) => format!("and the same forwarding links after each of the {n} single switch and link failures"),
        (n, false) => format!("and the same forwarding links after the first {n} single failures, the roots' first (the fabric has more; the others were not compared)"),
    };
    Some(format!("every VLAN's spanning tree is the design's (the same root and the same forwarding links healthy, {when}): the setting changes no tree the design was reviewed for"))
}

/// The root of the common spanning tree (the CIST: RSTP's one tree,
/// MSTP's instance 0, PVST+'s VLAN 1) of the component a switch is in,
/// in the design and as built, by name: a stack's or MLAG domain's
/// member switches, in design names (a domain is named otherwise on each
/// side: `vpc-1` as built for the design's `vlt-1`); `None` when the
/// difference is no switch's or the switch runs no spanning tree on
/// either side.
fn cist_roots(cx: &DriftContext<'_>, at: &At) -> Option<(String, String)> {
    let At::Switch(t) = at else {
        return None;
    };
    let root = |d: &Design, s: SwitchId, side: Side| -> Option<String> {
        let c = cx.analyses(side);
        let topo = c.topology();
        let b = topo.bridge_of.get(s.0)?.0;
        let tree = c
            .forwarding()
            .stp
            .trees()
            .iter()
            .find(|t| t.kind == netlint_analysis::stp::TreeKind::Cist)?;
        let r = tree.root_of(b)?;
        let names: Vec<String> = topo
            .bridge(BridgeId(r))
            .members
            .iter()
            .map(|m| {
                let in_design = match side {
                    Side::Design => Some(*m),
                    Side::Built => cx.drift.matching.switches.design(*m),
                };
                match in_design {
                    Some(x) => cx.design.switch(x).name.clone(),
                    None => d.switch(*m).name.clone(),
                }
            })
            .collect();
        Some(names.join("` + `"))
    };
    Some((
        root(cx.design, t.design?, Side::Design)?,
        root(cx.built, t.built?, Side::Built)?,
    ))
}
