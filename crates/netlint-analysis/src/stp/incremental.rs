//! Failure scenarios solved as changes to the healthy result, instead of
//! solving every tree of the fabric again.
//!
//! A failure only takes things away: links go down (with the bridges they
//! end on) and LAGs that lose members get slower, so their default port
//! costs can only grow. [`Updates::update`] turns such a [`Scenario`] into
//! the ports whose forwarding changes, tree by tree, and answers
//! [`StpResult::forwarding_links`] of the full solve for the links it
//! touches. It is exact, for these reasons (priority vectors as in
//! [`solve`](super::solve)):
//!
//! * Every tree is a Dijkstra over a monotone, strictly increasing step,
//!   so a bridge's key is the best key of any path from its component's
//!   root, and every role follows from the keys: the designated port of a
//!   segment is the least {key, bridge id, port id}, the root port the
//!   least {key through the port, designated bridge id, designated port
//!   id, own port id}.
//! * Taking links away and making ports dearer makes no path better, so no
//!   key decreases. A bridge whose chain of root ports up to the root uses
//!   no changed port keeps that chain, hence its key, and the root stays
//!   the least bridge id of its (smaller) component. Only the bridges
//!   below a changed root port in the healthy tree of root ports (the
//!   *affected* subtree) can change key; they are solved again from the
//!   unaffected bridges around them, and what the failure cut off from
//!   those elects roots of its own, as the full solve does.
//! * A port whose cost grows and that is no root port changes nothing: its
//!   bridge's root port only saw a worse candidate, and costs take no part
//!   in designated vectors. Roles are recomputed on every segment that
//!   touches an affected bridge and on every port of a bridge whose root
//!   port may have moved.
//!
//! The update declines (`None`: solve the scenario in full) when a changed
//! link ends on a bridge that does not run STP (shared segments change
//! shape), when a cost would decrease, and when PVST+ bridges share the
//! fabric with other STP bridges (PVST segments then follow the other
//! trees' forwarding) or the failure takes every PVST+ bridge away.
//! MSTP regions need no special case: a region only splits when its
//! internal links go, and the MSTI over the split region solves each part
//! as a component of its own, as the full solve's two regions would.

use super::solve::{step, Key, Seg, SegPort, NO_SEG};
use super::{
    End, PortId, PortRef, PortRole, Scenario, StpEngine, StpResult, Tree, TreeId, TreeKind, CIST,
};
use crate::fast_hash::{Map as HashMap, Set as HashSet};
use netlint_model::StpMode;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};

/// What the healthy result says about each tree, prepared once.
pub struct Updates {
    trees: Vec<TreePrep>,
    /// PVST+ bridges next to other STP bridges: never updated.
    mixed_pvst: bool,
    pvst_bridges: usize,
}

/// One tree's segments and tree of root ports, as compressed adjacency.
struct TreePrep {
    segs: Vec<Seg>,
    /// Per bridge `b`: its ports, `ports[port_start[b]..port_start[b + 1]]`
    /// as (segment, port).
    port_start: Vec<usize>,
    ports: Vec<(u32, PortRef)>,
    /// Per bridge: the bridges whose root port leads to it.
    child_start: Vec<usize>,
    children: Vec<usize>,
}

/// One scenario as changes to the healthy result.
#[derive(Debug, Default)]
pub struct Update {
    /// Links that are down in the scenario and up in the healthy result.
    gone: BTreeSet<usize>,
    /// Per (tree, port): whether it forwards, where that differs from the
    /// healthy result.
    flips: HashMap<(TreeId, PortRef), bool>,
}

fn csr(n: usize, items: impl Iterator<Item = (usize, usize)> + Clone) -> (Vec<usize>, Vec<usize>) {
    let mut start = vec![0usize; n + 1];
    for (k, _) in items.clone() {
        start[k + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut out = vec![0usize; start[n]];
    for (k, v) in items {
        out[fill[k]] = v;
        fill[k] += 1;
    }
    (start, out)
}

impl TreePrep {
    fn new(tree: &Tree, ends: &[Option<(usize, usize)>], nb: usize) -> TreePrep {
        let mut segs: Vec<Seg> = Vec::new();
        let mut owned: Vec<(usize, (u32, PortRef))> = Vec::new();
        for (l, e) in ends.iter().enumerate() {
            let Some((a, b)) = *e else { continue };
            for (end, bridge) in [(End::A, a), (End::B, b)] {
                let s = tree.seg_of[l][end.index()];
                if s == NO_SEG {
                    continue;
                }
                let si = s as usize;
                if segs.len() <= si {
                    segs.resize_with(si + 1, || Seg {
                        ports: Vec::new(),
                        internal: false,
                    });
                }
                let port = PortRef::new(l, end);
                segs[si].ports.push(SegPort { port, bridge });
                segs[si].internal = tree.seg_internal.get(si).copied().unwrap_or(false);
                owned.push((bridge, (s, port)));
            }
        }
        let mut port_start = vec![0usize; nb + 1];
        for (b, _) in &owned {
            port_start[b + 1] += 1;
        }
        for i in 0..nb {
            port_start[i + 1] += port_start[i];
        }
        let mut fill = port_start.clone();
        let mut ports = vec![(0u32, PortRef::default()); port_start[nb]];
        for (b, x) in owned {
            ports[fill[b]] = x;
            fill[b] += 1;
        }
        let parent = |b: usize| -> Option<usize> {
            let rp = tree.bridges.get(b)?.as_ref()?.root_port?;
            let s = tree.seg_of[rp.link][rp.end.index()];
            let d = tree.designated.get(s as usize)?;
            Some(d.bridge).filter(|&p| p < nb)
        };
        let edges: Vec<(usize, usize)> = (0..nb).filter_map(|b| Some((parent(b)?, b))).collect();
        let (child_start, children) = csr(nb, edges.iter().copied());
        TreePrep {
            segs,
            port_start,
            ports,
            child_start,
            children,
        }
    }

    fn ports_of(&self, b: usize) -> &[(u32, PortRef)] {
        &self.ports[self.port_start[b]..self.port_start[b + 1]]
    }

    fn children_of(&self, b: usize) -> &[usize] {
        &self.children[self.child_start[b]..self.child_start[b + 1]]
    }
}

/// One tree of one scenario: the healthy tree with changed costs and
/// removed links, and the keys, designated ports and root ports that
/// differ from it.
struct Local<'a> {
    tree: &'a Tree,
    prep: &'a TreePrep,
    port_ids: &'a [[PortId; 2]],
    /// The segments with a port on a link or bridge that is gone.
    dead: HashSet<usize>,
    cost: HashMap<PortRef, u32>,
    key: HashMap<usize, Key>,
    /// Affected bridges that root a component of their own now.
    new_root: HashSet<usize>,
    designated: HashMap<usize, Option<SegPort>>,
}

impl Local<'_> {
    fn cost(&self, p: PortRef) -> u32 {
        self.cost
            .get(&p)
            .copied()
            .or_else(|| self.tree.ports[p.link][p.end.index()].map(|s| s.cost))
            .unwrap_or(u32::MAX)
    }
    fn key(&self, b: usize) -> Key {
        self.key.get(&b).copied().unwrap_or(self.tree.key[b])
    }
    fn pid(&self, p: PortRef) -> PortId {
        self.port_ids[p.link][p.end.index()]
    }
    fn seg_alive(&self, s: usize) -> bool {
        self.dead.is_empty() || !self.dead.contains(&s)
    }
    fn designated(&self, s: usize) -> Option<SegPort> {
        match self.designated.get(&s) {
            Some(d) => *d,
            None => self.tree.designated.get(s).copied(),
        }
    }

    /// Dijkstra over the bridges of `open` from the keys in `heap`; every
    /// bridge it settles is removed from `open`.
    fn dijkstra(
        &mut self,
        heap: &mut BinaryHeap<Reverse<(Key, u64, usize)>>,
        open: &mut HashSet<usize>,
    ) {
        let prep = self.prep;
        while let Some(Reverse((k, _, b))) = heap.pop() {
            if !open.contains(&b) || self.key.get(&b) != Some(&k) {
                continue;
            }
            open.remove(&b);
            for &(s, _) in prep.ports_of(b) {
                let s = s as usize;
                if !self.seg_alive(s) {
                    continue;
                }
                let seg = &prep.segs[s];
                for q in &seg.ports {
                    if q.bridge == b || !open.contains(&q.bridge) {
                        continue;
                    }
                    let cand = step(k, seg.internal, self.cost(q.port), self.tree.bid[q.bridge]);
                    if self.key.get(&q.bridge).is_none_or(|&x| cand < x) {
                        self.key.insert(q.bridge, cand);
                        heap.push(Reverse((cand, self.tree.bid[q.bridge], q.bridge)));
                    }
                }
            }
        }
    }

    /// Solves the affected bridges again: from the unaffected bridges next
    /// to them first, then each part cut off from those from its least
    /// bridge id.
    fn resolve(&mut self, affected: &HashSet<usize>) {
        let prep = self.prep;
        let mut heap = BinaryHeap::new();
        for &a in affected {
            let mut best: Option<Key> = None;
            for &(s, own) in prep.ports_of(a) {
                let s = s as usize;
                if !self.seg_alive(s) {
                    continue;
                }
                let seg = &prep.segs[s];
                for q in &seg.ports {
                    if q.bridge == a || affected.contains(&q.bridge) {
                        continue;
                    }
                    let cand = step(
                        self.tree.key[q.bridge],
                        seg.internal,
                        self.cost(own),
                        self.tree.bid[a],
                    );
                    best = Some(best.map_or(cand, |x| x.min(cand)));
                }
            }
            if let Some(k) = best {
                self.key.insert(a, k);
                heap.push(Reverse((k, self.tree.bid[a], a)));
            }
        }
        let mut open: HashSet<usize> = affected.clone();
        self.dijkstra(&mut heap, &mut open);
        let mut cut: Vec<usize> = open.iter().copied().collect();
        cut.sort_by_key(|&b| self.tree.bid[b]);
        for r in cut {
            if !open.contains(&r) {
                continue;
            }
            let k = Key {
                ext: 0,
                rr: self.tree.bid[r],
                int: 0,
            };
            self.key.insert(r, k);
            self.new_root.insert(r);
            heap.push(Reverse((k, self.tree.bid[r], r)));
            self.dijkstra(&mut heap, &mut open);
        }
    }

    fn best_designated(&self, s: usize) -> Option<SegPort> {
        self.prep.segs[s].ports.iter().copied().min_by_key(|q| {
            (
                self.key(q.bridge),
                self.tree.bid[q.bridge],
                self.pid(q.port),
            )
        })
    }

    /// The candidate for root port of bridge `b`'s port `q` on segment
    /// `s`: its root path priority vector, as [`solve`](super::solve) ranks it.
    fn candidate(&self, b: usize, s: usize, q: PortRef) -> Option<Candidate> {
        if !self.seg_alive(s) {
            return None;
        }
        let d = self.designated(s)?;
        if d.bridge == b {
            return None;
        }
        let internal = self.prep.segs[s].internal;
        Some((
            step(self.key(d.bridge), internal, self.cost(q), self.tree.bid[b]),
            self.tree.bid[d.bridge],
            self.pid(d.port),
            self.pid(q),
            q,
        ))
    }

    /// Bridge `b`'s root port now, `changed` being its ports on segments
    /// whose designated port or its key, or whose own cost, changed. An
    /// unaffected bridge whose root port is on none of them keeps that
    /// port's candidate, and every other unchanged candidate still ranks
    /// behind it: only the changed ones can win.
    fn root_port(
        &self,
        b: usize,
        changed: &[(usize, PortRef)],
        affected: &HashSet<usize>,
    ) -> Option<PortRef> {
        let healthy = self.tree.bridges[b].as_ref().and_then(|s| s.root_port);
        let is_root = if affected.contains(&b) {
            self.new_root.contains(&b)
        } else {
            healthy.is_none()
        };
        if is_root {
            return None;
        }
        let healthy_seg = healthy.map(|p| self.tree.seg_of[p.link][p.end.index()] as usize);
        let local = !affected.contains(&b)
            && healthy_seg.is_some_and(|hs| changed.iter().all(|&(s, _)| s != hs));
        let all: Vec<(usize, PortRef)>;
        let candidates: &[(usize, PortRef)] = if local {
            changed
        } else {
            all = self
                .prep
                .ports_of(b)
                .iter()
                .map(|&(s, q)| (s as usize, q))
                .collect();
            &all
        };
        let kept = match (local, healthy_seg, healthy) {
            (true, Some(s), Some(q)) => self.candidate(b, s, q),
            _ => None,
        };
        candidates
            .iter()
            .filter_map(|&(s, q)| self.candidate(b, s, q))
            .chain(kept)
            .min()
            .map(|x| x.4)
    }
}

/// A root port candidate: {root path key through the port, designated
/// bridge id, designated port id, own port id}, then the port.
type Candidate = (Key, u64, PortId, PortId, PortRef);

impl Updates {
    /// Prepares the trees of `healthy`, the engine's healthy result.
    pub fn new(engine: &StpEngine, healthy: &StpResult) -> Updates {
        let nb = engine.bridges.len();
        let ends = &engine.shared.ends;
        let runs = |b: usize| healthy.bridge_up[b] && engine.bridges[b].mode != StpMode::None;
        let pvst_bridges = (0..nb)
            .filter(|&b| runs(b) && engine.bridges[b].is_pvst())
            .count();
        // Bridges with spanning tree off in some VLANs join those VLANs'
        // trees as non-PVST bridges: solved in full, like a mixed network.
        let mixed_pvst = pvst_bridges > 0
            && (0..nb).any(|b| {
                runs(b)
                    && (!engine.bridges[b].is_pvst() || engine.bridges[b].stp_off_vlans.is_some())
            });
        Updates {
            trees: healthy
                .trees
                .iter()
                .map(|t| TreePrep::new(t, ends, nb))
                .collect(),
            mixed_pvst,
            pvst_bridges,
        }
    }

    /// The scenario as changes to `healthy`, or `None` when it must be
    /// solved in full (see the module documentation).
    pub fn update(&self, engine: &StpEngine, healthy: &StpResult, sc: &Scenario) -> Option<Update> {
        if self.mixed_pvst || self.trees.len() != healthy.trees.len() {
            return None;
        }
        let nb = engine.bridges.len();
        let ends = &engine.shared.ends;
        let gone_bridge: HashSet<usize> = sc
            .removed_bridges
            .iter()
            .copied()
            .filter(|&b| b < nb && healthy.bridge_up[b])
            .collect();
        let removed_pvst = gone_bridge
            .iter()
            .filter(|&&b| engine.bridges[b].is_pvst())
            .count();
        if self.pvst_bridges > 0 && removed_pvst == self.pvst_bridges {
            return None;
        }
        let mut gone_link: HashSet<usize> = sc
            .removed_links
            .iter()
            .copied()
            .filter(|&l| healthy.link_up.get(l).copied().unwrap_or(false))
            .collect();
        for &b in &gone_bridge {
            for p in &engine.adj[b] {
                if healthy.link_up[p.link] {
                    gone_link.insert(p.link);
                }
            }
        }
        let speed: Vec<(usize, u64)> = sc
            .link_speed_mbps
            .iter()
            .copied()
            .filter(|&(l, s)| {
                healthy.link_up.get(l).copied().unwrap_or(false)
                    && !gone_link.contains(&l)
                    && s != engine.links[l].speed_mbps
            })
            .collect();
        let changed = gone_link.iter().copied().chain(speed.iter().map(|x| x.0));
        for l in changed {
            let Some((a, b)) = ends[l] else { continue };
            if engine.bridges[a].mode == StpMode::None || engine.bridges[b].mode == StpMode::None {
                return None;
            }
        }
        let mut out = Update {
            gone: gone_link.iter().copied().collect(),
            flips: HashMap::default(),
        };
        for (t, (tree, prep)) in healthy.trees.iter().zip(&self.trees).enumerate() {
            let mut dead: HashSet<usize> = HashSet::default();
            for &l in &gone_link {
                for end in [End::A, End::B] {
                    let s = tree.seg_of[l][end.index()];
                    if s != NO_SEG {
                        dead.insert(s as usize);
                    }
                }
            }
            for &b in &gone_bridge {
                dead.extend(prep.ports_of(b).iter().map(|x| x.0 as usize));
            }
            let mut local = Local {
                tree,
                prep,
                port_ids: &engine.shared.port_ids,
                dead,
                cost: HashMap::default(),
                key: HashMap::default(),
                new_root: HashSet::default(),
                designated: HashMap::default(),
            };
            // Whether every port that got dearer is no root port and on no
            // root port's segment: then, with nothing gone, no key, root
            // port or role of this tree changes (the module documentation).
            let mut quiet = gone_link.is_empty() && gone_bridge.is_empty();
            for &(l, s) in &speed {
                let Some((a, b)) = ends[l] else { continue };
                for (end, bridge) in [(End::A, a), (End::B, b)] {
                    if tree.seg_of[l][end.index()] == NO_SEG {
                        continue;
                    }
                    let Some(old) = tree.ports[l][end.index()].map(|p| p.cost) else {
                        continue;
                    };
                    let key = match tree.kind {
                        TreeKind::Cist => u16::from(engine.bridges[bridge].is_pvst()),
                        TreeKind::Msti { instance, .. } => instance,
                        TreeKind::PvstVlan(v) => v,
                    };
                    let new = engine.port_cost(l, bridge, s, key);
                    if new < old {
                        return None;
                    }
                    if new > old {
                        let p = PortRef::new(l, end);
                        local.cost.insert(p, new);
                        let rp = tree.bridges[bridge].as_ref().and_then(|x| x.root_port);
                        quiet &= rp.is_none_or(|r| {
                            r != p
                                && tree.seg_of[r.link][r.end.index()]
                                    != tree.seg_of[p.link][p.end.index()]
                        });
                    }
                }
            }
            if quiet {
                continue;
            }
            // Bridges whose root port went down or got dearer, and every
            // bridge below them.
            let is_changed =
                |p: PortRef| gone_link.contains(&p.link) || local.cost.contains_key(&p);
            let mut affected: HashSet<usize> = HashSet::default();
            let mut stack: Vec<usize> = Vec::new();
            let mut seed = |b: usize, stack: &mut Vec<usize>| {
                if affected.insert(b) {
                    stack.push(b);
                }
            };
            for &l in gone_link.iter().chain(speed.iter().map(|x| &x.0)) {
                let Some((a, b)) = ends[l] else { continue };
                for (end, bridge) in [(End::A, a), (End::B, b)] {
                    let p = PortRef::new(l, end);
                    let root = tree.bridges[bridge].as_ref().and_then(|s| s.root_port);
                    if root == Some(p) && is_changed(p) {
                        seed(bridge, &mut stack);
                    }
                }
            }
            for &b in &gone_bridge {
                seed(b, &mut stack);
            }
            while let Some(b) = stack.pop() {
                for &c in prep.children_of(b) {
                    seed(c, &mut stack);
                }
            }
            for b in &gone_bridge {
                affected.remove(b);
            }
            // Ports whose role must be derived again, and per bridge its
            // ports on segments that changed.
            let mut ports: BTreeSet<PortRef> = BTreeSet::new();
            let mut owners: BTreeMap<usize, Vec<(usize, PortRef)>> = BTreeMap::new();
            if !affected.is_empty() {
                local.resolve(&affected);
                let mut segs: BTreeSet<usize> = BTreeSet::new();
                for &a in &affected {
                    owners.entry(a).or_default();
                    segs.extend(prep.ports_of(a).iter().map(|x| x.0 as usize));
                }
                for &s in &segs {
                    if !local.seg_alive(s) {
                        continue;
                    }
                    let d = local.best_designated(s);
                    local.designated.insert(s, d);
                    for q in &prep.segs[s].ports {
                        owners.entry(q.bridge).or_default().push((s, q.port));
                        ports.insert(q.port);
                    }
                }
            }
            for p in local.cost.keys() {
                if let Some(b) = engine.shared.bridge_of(*p) {
                    let s = tree.seg_of[p.link][p.end.index()] as usize;
                    owners.entry(b).or_default().push((s, *p));
                }
            }
            let mut root_port: HashMap<usize, Option<PortRef>> = HashMap::default();
            for (&b, changed) in &owners {
                if gone_bridge.contains(&b) {
                    continue;
                }
                let now = local.root_port(b, changed, &affected);
                let was = tree.bridges[b].as_ref().and_then(|x| x.root_port);
                if now != was {
                    ports.extend(now);
                    ports.extend(was);
                }
                root_port.insert(b, now);
            }
            for p in ports {
                let s = tree.seg_of[p.link][p.end.index()] as usize;
                if !local.seg_alive(s) {
                    continue;
                }
                let Some(bridge) = engine.shared.bridge_of(p) else {
                    continue;
                };
                let rp = match root_port.get(&bridge) {
                    Some(r) => *r,
                    None => tree.bridges[bridge].as_ref().and_then(|x| x.root_port),
                };
                let d = local.designated(s);
                let role = if rp == Some(p) {
                    PortRole::Root
                } else if d.is_some_and(|d| d.port == p) {
                    PortRole::Designated
                } else if d.is_some_and(|d| d.bridge == bridge) {
                    PortRole::Backup
                } else {
                    PortRole::Alternate
                };
                let was = healthy.port_forwards(t, p);
                if role.forwards() != was {
                    out.flips.insert((t, p), role.forwards());
                }
            }
            // Ports of links that went down no longer forward.
            for &l in &gone_link {
                for end in [End::A, End::B] {
                    let p = PortRef::new(l, end);
                    if healthy.port_forwards(t, p) {
                        out.flips.insert((t, p), false);
                    }
                }
            }
        }
        Some(out)
    }
}

impl Update {
    /// The links whose forwarding may differ from the healthy result, sorted.
    pub fn links(&self) -> Vec<usize> {
        let mut v: Vec<usize> = self
            .gone
            .iter()
            .copied()
            .chain(self.flips.keys().map(|(_, p)| p.link))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Whether nothing forwards differently from the healthy result.
    pub fn is_empty(&self) -> bool {
        self.gone.is_empty() && self.flips.is_empty()
    }

    /// What [`StpResult::forwarding_links`] of the scenario solved in full
    /// says about `link` for `vlan` (`None` where it answers `None`).
    pub fn link_forwards(
        &self,
        healthy: &StpResult,
        link: usize,
        vlan: Option<u16>,
    ) -> Option<bool> {
        healthy.forwarding_links(vlan)?;
        // The class `forwarding_links` picks: the common tree's vector for
        // untagged frames and for VLANs without a class of their own.
        let query = vlan
            .map(|v| v.max(1))
            .filter(|v| healthy.vlan_class.contains_key(v));
        if self.gone.contains(&link) || !healthy.is_link_up(link) {
            return Some(false);
        }
        let Some((a, b)) = healthy.shared.ends.get(link).copied().flatten() else {
            return Some(false);
        };
        let forwards = |t: TreeId, p: PortRef| self.port_forwards(healthy, t, p);
        Some(
            healthy.end_forwards_by(a, PortRef::new(link, End::A), query, forwards)
                && healthy.end_forwards_by(b, PortRef::new(link, End::B), query, forwards),
        )
    }

    /// A port's forwarding in tree `t`. An MSTI's boundary port plays its
    /// CIST role, so it follows the CIST's changes.
    fn port_forwards(&self, healthy: &StpResult, t: TreeId, p: PortRef) -> bool {
        if let Some(&f) = self.flips.get(&(t, p)) {
            return f;
        }
        let boundary = healthy.trees[t].ports[p.link][p.end.index()].is_some_and(|s| s.boundary);
        if boundary {
            return self.port_forwards(healthy, CIST, p);
        }
        healthy.port_forwards(t, p)
    }
}
