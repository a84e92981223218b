//! Usage: which members a set of ports occupies.

use super::*;

/// Which end of the traffic: this host sending, or the peer receiving.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
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
    /// How many of `pool` members these flows can occupy at most.
    pub fn cap(self, pool: usize) -> usize {
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

pub(super) fn usage_bound(
    host: &Host,
    items: &[(&Port, Flows)],
    side: Side,
    kind: BoundKind,
) -> Option<Bound> {
    if items.is_empty() {
        return None;
    }
    let used = used_nics(items, side);
    let speed = sum_speed(host, &used);
    let uses = items
        .iter()
        .map(|(p, flows)| PortUse {
            via: p.via,
            flows: *flows,
            spread: p.spread(side),
            active: p.active.clone(),
            balancer: p.balancer.clone(),
            rdma: p.rdma.is_some(),
        })
        .collect();
    Some(Bound {
        kind,
        speed,
        reason: BoundReason::Usage(uses),
        unknown: unknown_speeds(host, &used),
        nics: used,
    })
}
