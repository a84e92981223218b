//! The words of storage targets in the failure analysis: why a host lost
//! a target whose ports went down.

use super::failure::Why;
use super::words::and_list;
use netlint_analysis::failure::{CarrierLoss, Loss, Requirement, Unit};
use netlint_analysis::Topology;
use netlint_model::{Design, Host, HostId, SwitchId, TargetId, TargetPortIdx};

/// "target `array1`'s ports on `iscsi-b` (`A1`, `B1`) are all cabled to
/// `san-b`", at the failed unit's line, with each port's cabling related.
pub(crate) fn ports_down(
    design: &Design,
    topo: &Topology,
    host: &Host,
    target: TargetId,
    ports: &[(TargetPortIdx, SwitchId)],
    fabric_unit: Option<&Unit>,
) -> Why {
    let t = design.target(target);
    let names: Vec<String> = ports
        .iter()
        .map(|(p, _)| format!("`{}`", t.port(*p).name))
        .collect();
    let mut switches: Vec<String> = ports
        .iter()
        .map(|(_, s)| format!("`{}`", design.switch(*s).name))
        .collect();
    switches.dedup();
    let nets: Vec<String> = {
        let mut v: Vec<String> = ports
            .iter()
            .flat_map(|(p, _)| t.port(*p).networks.iter())
            .map(|n| format!("`{}`", design.network(n.value).name))
            .collect();
        v.sort();
        v.dedup();
        v
    };
    let on = and_list(&nets);
    let text = if names.len() == 1 {
        format!(
            "the target has one port on {on}, `{}`, cabled to {}",
            t.port(ports[0].0).name,
            switches[0]
        )
    } else {
        format!(
            "the target's ports on {on} ({}) are all cabled to {}",
            names.join(", "),
            and_list(&switches)
        )
    };
    let related = ports
        .iter()
        .filter_map(|(p, _)| {
            let port = t.port(*p);
            port.switch.as_ref().map(|s| {
                (
                    s.span,
                    format!("port `{}` of `{}` is cabled here", port.name, t.name),
                )
            })
        })
        .collect();
    let span = fabric_unit.map(|u| u.span(design, topo)).unwrap_or(t.span);
    Why {
        text,
        span,
        related,
        element: host.element(),
    }
}

/// Advice for a loss of a target whose cause is on the target's side only
/// (its ports went down with a switch): cable them apart.
pub(crate) fn target_side_help(design: &Design, loss: &Loss, hosts: &[HostId]) -> Option<String> {
    let Requirement::Target(t) = loss.requirement else {
        return None;
    };
    let mut down: Vec<(TargetPortIdx, SwitchId)> = Vec::new();
    for hl in loss.hosts.iter().filter(|h| hosts.contains(&h.host)) {
        for cc in &hl.carriers {
            match &cc.loss {
                CarrierLoss::TargetPortsDown { ports, .. } => {
                    for p in ports {
                        if !down.contains(p) {
                            down.push(*p);
                        }
                    }
                }
                _ => return None,
            }
        }
    }
    let (first, switch) = *down.first()?;
    let target = design.target(t);
    let port = target.port(first);
    let nets: Vec<String> = port
        .networks
        .iter()
        .map(|n| format!("`{}`", design.network(n.value).name))
        .collect();
    Some(format!(
        "cable the ports of `{}` on {} to two different switches (or to both members of an MLAG pair), e.g. `{}` to another switch than `{}`, or add a port on another switch, so that one survives",
        target.name,
        and_list(&nets),
        port.name,
        design.switch(switch).name
    ))
}
