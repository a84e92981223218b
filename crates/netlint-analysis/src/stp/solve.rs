//! The generic tree solver shared by every kind of tree (CIST, MSTI, PVST
//! VLAN): root election by lowest bridge id per connected component, a
//! Dijkstra over the priority-vector key, then designated ports per segment,
//! root ports per bridge and port roles.
//!
//! A *segment* is what 802.1D calls a LAN: the set of STP ports that hear
//! each other's BPDUs. A point-to-point link is a segment of two ports; a
//! cluster of switches that do not run STP (and flood BPDUs) is one segment
//! holding every STP port attached to it.

use super::{PortId, PortRef, PortRole};
use crate::union_find::UnionFind;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

pub(crate) const NO_SEG: u32 = u32::MAX;

/// The comparable head of a bridge's root priority vector, after the root id
/// (every bridge of a component agrees on the root):
/// {external root path cost, regional root id, internal root path cost}.
///
/// RSTP / STP / PVST trees only take *external* steps (cost added to `ext`,
/// `rr` = the receiving bridge, which then plays no role beyond what the
/// designated bridge id decides anyway); MSTI trees only take *internal*
/// steps (`ext` = 0, `rr` = the regional root, cost in `int`); the CIST takes
/// internal steps inside an MSTP region and external ones across boundaries,
/// which is exactly the 802.1Q CIST root path priority vector rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Key {
    pub ext: u64,
    pub rr: u64,
    pub int: u64,
}

impl Key {
    pub const MAX: Key = Key {
        ext: u64::MAX,
        rr: u64::MAX,
        int: u64::MAX,
    };
    /// External plus internal root path cost: the "root path cost" shown to users.
    pub fn total(self) -> u64 {
        self.ext.saturating_add(self.int)
    }
}

/// The key a bridge whose id is `receiver` derives from a designated port
/// advertising `k`, received on a port of cost `cost`.
pub(crate) fn step(k: Key, internal: bool, cost: u32, receiver: u64) -> Key {
    if internal {
        Key {
            ext: k.ext,
            rr: k.rr,
            int: k.int.saturating_add(u64::from(cost)),
        }
    } else {
        Key {
            ext: k.ext.saturating_add(u64::from(cost)),
            rr: receiver,
            int: 0,
        }
    }
}

/// One STP port on a segment, with the bridge that owns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SegPort {
    pub port: PortRef,
    pub bridge: usize,
}

#[derive(Clone, Debug)]
pub(crate) struct Seg {
    /// Never empty.
    pub ports: Vec<SegPort>,
    /// BPDUs on this segment take internal steps (MSTP region-internal).
    pub internal: bool,
}

pub(crate) struct Problem<'a> {
    pub participant: &'a [bool],
    /// Packed bridge id for this tree: priority << 32 | MAC rank.
    pub bid: &'a [u64],
    pub segments: &'a [Seg],
    /// This tree's cost of every port, per link and end.
    pub cost: &'a [[u32; 2]],
    pub port_id: &'a [[PortId; 2]],
}

impl Problem<'_> {
    fn cost(&self, p: PortRef) -> u32 {
        self.cost[p.link][p.end.index()]
    }
    fn pid(&self, p: PortRef) -> PortId {
        self.port_id[p.link][p.end.index()]
    }
}

pub(crate) struct Solution {
    pub key: Vec<Key>,
    /// Component of each participant (`u32::MAX` for others).
    pub comp: Vec<u32>,
    pub comp_root: Vec<usize>,
    pub comp_members: Vec<Vec<usize>>,
    pub root_port: Vec<Option<PortRef>>,
    pub seg_of: Vec<[u32; 2]>,
    pub designated: Vec<SegPort>,
    pub role: Vec<[Option<PortRole>; 2]>,
}

pub(crate) fn solve(p: &Problem<'_>) -> Solution {
    let nb = p.participant.len();
    let nl = p.cost.len();
    let segs = p.segments;

    // Ports per bridge, as a compressed adjacency list.
    let mut start = vec![0usize; nb + 1];
    for s in segs {
        for q in &s.ports {
            start[q.bridge + 1] += 1;
        }
    }
    for i in 0..nb {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut adj = vec![(0u32, PortRef::default()); start[nb]];
    let mut seg_of = vec![[NO_SEG; 2]; nl];
    let mut uf = UnionFind::new(nb);
    for (si, s) in segs.iter().enumerate() {
        for q in &s.ports {
            seg_of[q.port.link][q.port.end.index()] = si as u32;
            adj[fill[q.bridge]] = (si as u32, q.port);
            fill[q.bridge] += 1;
        }
        if let Some(first) = s.ports.first() {
            for q in &s.ports[1..] {
                uf.union(first.bridge, q.bridge);
            }
        }
    }

    // Components and their roots (lowest bridge id).
    let mut comp = vec![u32::MAX; nb];
    let mut comp_of_set = vec![u32::MAX; nb];
    let mut comp_root: Vec<usize> = Vec::new();
    let mut comp_members: Vec<Vec<usize>> = Vec::new();
    for b in (0..nb).filter(|&b| p.participant[b]) {
        let r = uf.find(b);
        if comp_of_set[r] == u32::MAX {
            comp_of_set[r] = comp_root.len() as u32;
            comp_root.push(b);
            comp_members.push(Vec::new());
        }
        let c = comp_of_set[r] as usize;
        comp[b] = c as u32;
        comp_members[c].push(b);
        if p.bid[b] < p.bid[comp_root[c]] {
            comp_root[c] = b;
        }
    }

    // Dijkstra on (key, bridge id). Costs are >= 1, so a bridge is final when
    // popped, and the first bridge popped on a segment is its designated bridge:
    // only its BPDUs count for the other ports there.
    let mut key = vec![Key::MAX; nb];
    let mut heap = BinaryHeap::new();
    for &r in &comp_root {
        key[r] = Key {
            ext: 0,
            rr: p.bid[r],
            int: 0,
        };
        heap.push(Reverse((key[r], p.bid[r], r)));
    }
    let mut done = vec![false; nb];
    let mut seg_done = vec![false; segs.len()];
    while let Some(Reverse((k, _, b))) = heap.pop() {
        if done[b] || k != key[b] {
            continue;
        }
        done[b] = true;
        for &(si, _) in &adj[start[b]..start[b + 1]] {
            let si = si as usize;
            if seg_done[si] {
                continue;
            }
            seg_done[si] = true;
            let s = &segs[si];
            for q in &s.ports {
                if q.bridge == b || done[q.bridge] {
                    continue;
                }
                let cand = step(k, s.internal, p.cost(q.port), p.bid[q.bridge]);
                if cand < key[q.bridge] {
                    key[q.bridge] = cand;
                    heap.push(Reverse((cand, p.bid[q.bridge], q.bridge)));
                }
            }
        }
    }

    // Designated port per segment: best designated priority vector
    // {key, bridge id, port id}.
    let designated: Vec<SegPort> = segs
        .iter()
        .map(|s| {
            s.ports
                .iter()
                .copied()
                .min_by_key(|q| (key[q.bridge], p.bid[q.bridge], p.pid(q.port)))
                .unwrap_or(SegPort {
                    port: PortRef::default(),
                    bridge: usize::MAX,
                })
        })
        .collect();

    // Root port: best root path priority vector
    // {key via port, designated bridge id, designated port id, own port id}.
    let mut root_port = vec![None; nb];
    for b in 0..nb {
        if !p.participant[b] || comp_root.get(comp[b] as usize) == Some(&b) {
            continue;
        }
        let mut best: Option<(Key, u64, PortId, PortId, PortRef)> = None;
        for &(si, q) in &adj[start[b]..start[b + 1]] {
            let s = &segs[si as usize];
            let d = designated[si as usize];
            if d.bridge == b {
                continue;
            }
            let cand = (
                step(key[d.bridge], s.internal, p.cost(q), p.bid[b]),
                p.bid[d.bridge],
                p.pid(d.port),
                p.pid(q),
                q,
            );
            if match &best {
                None => true,
                Some(x) => cand < *x,
            } {
                best = Some(cand);
            }
        }
        root_port[b] = best.map(|x| x.4);
    }

    let mut role = vec![[None; 2]; nl];
    for (si, s) in segs.iter().enumerate() {
        let d = designated[si];
        for q in &s.ports {
            let r = if root_port[q.bridge] == Some(q.port) {
                PortRole::Root
            } else if d.port == q.port {
                PortRole::Designated
            } else if d.bridge == q.bridge {
                PortRole::Backup
            } else {
                PortRole::Alternate
            };
            role[q.port.link][q.port.end.index()] = Some(r);
        }
    }

    Solution {
        key,
        comp,
        comp_root,
        comp_members,
        root_port,
        seg_of,
        designated,
        role,
    }
}
