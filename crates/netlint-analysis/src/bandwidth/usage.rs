//! Usage: which members a set of ports occupies.

use super::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Side {
    Send,
    Receive,
}

/// How many concurrent flows a port carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flows {
    One,
    Count(u32),
    Many,
}

impl Flows {
    fn cap(self, pool: usize) -> usize {
        match self {
            Flows::One => 1.min(pool),
            Flows::Count(n) => (n as usize).min(pool),
            Flows::Many => pool,
        }
    }
}

/// The distinct members a set of (port, flows) occupies on one side, best
/// case: exact placements first, then round robin / hashing onto members
/// not yet used.
pub(super) fn used_nics(items: &[(&Port, Flows)], side: Side) -> Vec<NicIdx> {
    let mut used: Vec<NicIdx> = Vec::new();
    let push = |used: &mut Vec<NicIdx>, n: NicIdx| {
        if !used.contains(&n) {
            used.push(n);
        }
    };
    for (p, _) in items {
        match p.spread(side) {
            Spread::Shared(n) => push(&mut used, n),
            Spread::OneMember if p.active.len() == 1 => push(&mut used, p.active[0]),
            _ => {}
        }
    }
    for (p, flows) in items {
        let want = match p.spread(side) {
            Spread::Shared(_) => continue,
            Spread::OneMember if p.active.len() == 1 => continue,
            Spread::OneMember => 1.min(p.active.len()),
            Spread::PerFlow => flows.cap(p.active.len()),
        };
        let fresh: Vec<NicIdx> = p
            .active
            .iter()
            .copied()
            .filter(|n| !used.contains(n))
            .take(want)
            .collect();
        for n in fresh {
            push(&mut used, n);
        }
    }
    used
}

pub(super) fn lb_label(host: &Host, b: &Balancer) -> String {
    match effective_lb(host, b) {
        Some(lb) => lb.to_string(),
        None => "load balancing not stated".to_string(),
    }
}

/// How one port spreads `flows` on one side, in words.
pub(super) fn spread_text(host: &Host, p: &Port, flows: Flows, side: Side) -> String {
    let spread = p.spread(side);
    let who = if side == Side::Send {
        ""
    } else {
        "the receiving host takes "
    };
    let b = match &p.balancer {
        Some(b) if p.active.len() > 1 || matches!(spread, Spread::Shared(_)) => b,
        _ => {
            return format!(
                "{who}{} on {}",
                p.name,
                match p.active.as_slice() {
                    [n] => format!("`{}` ({})", host.nic(*n).name, host.nic(*n).speed.value),
                    _ => names(host, &p.active),
                }
            )
        }
    };
    let lb = lb_label(host, b);
    let pool = p.active.len();
    match spread {
        Spread::Shared(n) => {
            let why = if effective_lb(host, b) == Some(LoadBalancing::ExplicitFailover) {
                "explicit failover uses the first active uplink only"
            } else {
                "a switch-independent address-hash team receives on one member"
            };
            format!(
                "{who}{} on one member of {}, `{}` ({why})",
                p.name,
                b.name,
                host.nic(n).name
            )
        }
        Spread::OneMember if p.rdma.is_some() => format!(
            "{who}{} (SMB Direct) on the one adapter it is affinitized to, of {} {}",
            p.name,
            b.name,
            nics_text(host, &p.active)
        ),
        Spread::OneMember if side == Side::Receive => format!(
            "{who}{} on one member of {} {} (a vNIC's inbound traffic arrives on one member; {lb})",
            p.name,
            b.name,
            nics_text(host, &p.active)
        ),
        Spread::OneMember => format!(
            "{} is pinned to one member of {} {} ({lb})",
            p.name,
            b.name,
            nics_text(host, &p.active)
        ),
        Spread::PerFlow => {
            let k = flows.cap(pool);
            let what = if side == Side::Receive && b.mode.switch_dependent() {
                format!("the switch spreads inbound flows ({})", b.mode)
            } else {
                lb.clone()
            };
            if k < pool {
                format!(
                    "{who}{}: {} hash onto at most {k} of the {pool} members of {} ({what})",
                    p.name,
                    match flows {
                        Flows::One => "one connection".to_string(),
                        Flows::Count(n) => format!("{n} connections"),
                        Flows::Many => "the connections".to_string(),
                    },
                    b.name
                )
            } else {
                format!(
                    "{who}{}: flows spread over all {pool} members of {} ({what})",
                    p.name, b.name
                )
            }
        }
    }
}

pub(super) fn usage_bound(
    host: &Host,
    spec: &Spec<'_>,
    items: &[(&Port, Flows)],
    side: Side,
    kind: BoundKind,
) -> Option<Bound> {
    if items.is_empty() {
        return None;
    }
    let used = used_nics(items, side);
    let speed = sum_speed(host, &used);
    Some(Bound {
        kind,
        speed,
        text: spec.text(|| {
            let parts: Vec<String> = items
                .iter()
                .map(|(p, f)| spread_text(host, p, *f, side))
                .collect();
            format!(
                "{}: {} = {}",
                parts.join("; "),
                nics_text(host, &used),
                fmt_rate(speed)
            )
        }),
        nics: used,
    })
}
