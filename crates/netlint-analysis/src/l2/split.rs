//! The components of a VLAN after a failure, derived from its healthy
//! forwarding instead of a union-find over every bridge.
//!
//! The healthy forwarding ports are laid out once as a spanning forest
//! (one tree per healthy component, rooted at its least bridge, walked in
//! preorder, so that a subtree is a range of the walk) and the forwarding
//! ports the forest does not use. A failure changes a few ports: those
//! that stop forwarding cut the forest into *pieces* (the part of a tree
//! between a cut child and the cuts below it), those that start
//! forwarding and the unused forwarding ports join pieces again. A
//! union-find over the pieces, not the bridges, then tells which healthy
//! components came out whole: every piece of theirs in one group, with no
//! piece of another component. Their bridges keep their healthy labels;
//! the bridges of the others are listed with new labels, as
//! [`relabel`] would give them. A failure that moves a root port and
//! leaves every component whole costs a few lookups, whatever the size of
//! the fabric.
//!
//! Pure: bridge and port indices in, labels out.

use crate::union_find::UnionFind;

const NONE: u32 = u32::MAX;

/// One VLAN's healthy forwarding as a spanning forest.
#[derive(Clone, Debug)]
pub struct SplitForest {
    nb: usize,
    /// Per port: its two bridges.
    ends: Vec<(u32, u32)>,
    /// Per bridge: its position in the preorder walk, and one past the
    /// last position of its subtree.
    tin: Vec<u32>,
    tout: Vec<u32>,
    /// The walk: bridges by position.
    order: Vec<u32>,
    /// Per bridge: the root of its tree, its healthy component's least
    /// bridge (its healthy label).
    root: Vec<u32>,
    /// Per port: the bridge below it when the forest uses it.
    child: Vec<u32>,
    /// Per root: the forwarding ports of its component the forest does not
    /// use, `spare[spare_start[r]..spare_start[r + 1]]`.
    spare_start: Vec<u32>,
    spare: Vec<u32>,
}

impl SplitForest {
    /// `ends`: per port its two bridges (`nb` bridges in all); `forwarding`:
    /// per port, whether it forwards the VLAN in the healthy state.
    pub fn new(nb: usize, ends: &[(usize, usize)], forwarding: &[bool]) -> SplitForest {
        let mut adj_start = vec![0u32; nb + 1];
        for (p, &(a, b)) in ends.iter().enumerate() {
            if forwarding[p] && a != b {
                adj_start[a + 1] += 1;
                adj_start[b + 1] += 1;
            }
        }
        for i in 0..nb {
            adj_start[i + 1] += adj_start[i];
        }
        let mut fill = adj_start.clone();
        let mut adj = vec![(0u32, 0u32); adj_start[nb] as usize];
        for (p, &(a, b)) in ends.iter().enumerate() {
            if forwarding[p] && a != b {
                adj[fill[a] as usize] = (b as u32, p as u32);
                fill[a] += 1;
                adj[fill[b] as usize] = (a as u32, p as u32);
                fill[b] += 1;
            }
        }
        let mut tin = vec![NONE; nb];
        let mut tout = vec![0u32; nb];
        let mut root = vec![NONE; nb];
        let mut order = Vec::with_capacity(nb);
        let mut child = vec![NONE; ends.len()];
        // (bridge, next adjacency index)
        let mut stack: Vec<(u32, u32)> = Vec::new();
        for r in 0..nb {
            if tin[r] != NONE {
                continue;
            }
            tin[r] = order.len() as u32;
            root[r] = r as u32;
            order.push(r as u32);
            stack.push((r as u32, adj_start[r]));
            while let Some(top) = stack.last_mut() {
                let b = top.0 as usize;
                if top.1 == adj_start[b + 1] {
                    tout[b] = order.len() as u32;
                    stack.pop();
                    continue;
                }
                let (y, p) = adj[top.1 as usize];
                top.1 += 1;
                if tin[y as usize] == NONE {
                    tin[y as usize] = order.len() as u32;
                    root[y as usize] = r as u32;
                    order.push(y);
                    child[p as usize] = y;
                    stack.push((y, adj_start[y as usize]));
                }
            }
        }
        let mut spare_start = vec![0u32; nb + 1];
        let unused = |p: usize| forwarding[p] && child[p] == NONE;
        for (p, &(a, _)) in ends.iter().enumerate() {
            if unused(p) {
                spare_start[root[a] as usize + 1] += 1;
            }
        }
        for i in 0..nb {
            spare_start[i + 1] += spare_start[i];
        }
        let mut fill = spare_start.clone();
        let mut spare = vec![0u32; spare_start[nb] as usize];
        for (p, &(a, _)) in ends.iter().enumerate() {
            if unused(p) {
                let r = root[a] as usize;
                spare[fill[r] as usize] = p as u32;
                fill[r] += 1;
            }
        }
        SplitForest {
            nb,
            ends: ends.iter().map(|&(a, b)| (a as u32, b as u32)).collect(),
            tin,
            tout,
            order,
            root,
            child,
            spare_start,
            spare,
        }
    }

    /// The bridges whose label changes when the ports of `flips` (port,
    /// forwarding now; each differing from the healthy state) change and
    /// the bridges of `removed` go down: (bridge, label), sorted by bridge.
    /// Every other bridge keeps its healthy label (its component's least
    /// bridge). A listed bridge's label is past every bridge index (`nb` +
    /// the least bridge of its component now), and every removed bridge is
    /// listed.
    pub fn relabel(&self, flips: &[(usize, bool)], removed: &[usize]) -> Vec<(usize, usize)> {
        let mut gone: Vec<u32> = flips.iter().filter(|f| !f.1).map(|f| f.0 as u32).collect();
        gone.sort_unstable();
        let is_gone = |p: u32| gone.binary_search(&p).is_ok();
        // The cuts, by position in the walk, each with the cut around it.
        let mut cuts: Vec<u32> = gone
            .iter()
            .map(|&p| self.child[p as usize])
            .filter(|&c| c != NONE)
            .collect();
        cuts.sort_unstable_by_key(|&c| self.tin[c as usize]);
        cuts.dedup();
        let mut around = vec![NONE; cuts.len()];
        let mut open: Vec<usize> = Vec::new();
        for (i, &c) in cuts.iter().enumerate() {
            while let Some(&j) = open.last() {
                if self.tout[cuts[j] as usize] > self.tin[c as usize] {
                    break;
                }
                open.pop();
            }
            around[i] = open.last().map_or(NONE, |&j| j as u32);
            open.push(i);
        }
        // A bridge's piece: its deepest cut, or its root.
        let piece_top = |b: u32| -> u32 {
            let t = self.tin[b as usize];
            let mut i = cuts.partition_point(|&c| self.tin[c as usize] <= t);
            while i > 0 {
                let c = cuts[i - 1];
                if self.tout[c as usize] > t {
                    return c;
                }
                i = match around[i - 1] {
                    NONE => 0,
                    j => j as usize + 1,
                };
            }
            self.root[b as usize]
        };
        let added: Vec<(u32, u32)> = flips
            .iter()
            .filter(|f| f.1)
            .map(|f| self.ends[f.0])
            .collect();
        // The trees a piece of is cut or joined to another.
        let mut trees: Vec<u32> = cuts.iter().map(|&c| self.root[c as usize]).collect();
        for &(a, b) in &added {
            trees.push(self.root[a as usize]);
            trees.push(self.root[b as usize]);
        }
        trees.sort_unstable();
        trees.dedup();
        // Pieces, by their top bridge: the cuts and the involved roots.
        let mut tops: Vec<u32> = cuts.iter().copied().chain(trees.iter().copied()).collect();
        tops.sort_unstable();
        tops.dedup();
        let index = |top: u32| tops.binary_search(&top).unwrap_or_default();
        let mut uf = UnionFind::new(tops.len());
        for &(a, b) in &added {
            uf.union(index(piece_top(a)), index(piece_top(b)));
        }
        for &r in &trees {
            let r = r as usize;
            for &p in &self.spare[self.spare_start[r] as usize..self.spare_start[r + 1] as usize] {
                if is_gone(p) {
                    continue;
                }
                let (a, b) = self.ends[p as usize];
                uf.union(index(piece_top(a)), index(piece_top(b)));
            }
        }
        let is_removed = |b: u32| removed.binary_search(&(b as usize)).is_ok();
        // Per piece that is not a removed bridge: (group, tree).
        let mut groups: Vec<(usize, u32)> = tops
            .iter()
            .enumerate()
            .filter(|(_, &t)| !is_removed(t))
            .map(|(i, &t)| (uf.find(i), self.root[t as usize]))
            .collect();
        groups.sort_unstable();
        groups.dedup();
        // A tree is whole when its pieces are in one group of its own.
        let mut broken: Vec<u32> = Vec::new();
        let mut i = 0;
        while i < groups.len() {
            let j = i + groups[i..].partition_point(|x| x.0 == groups[i].0);
            if j - i > 1 {
                broken.extend(groups[i..j].iter().map(|x| x.1));
            }
            i = j;
        }
        groups.sort_unstable_by_key(|x| (x.1, x.0));
        let mut i = 0;
        while i < groups.len() {
            let j = i + groups[i..].partition_point(|x| x.1 == groups[i].1);
            if j - i > 1 {
                broken.push(groups[i].1);
            }
            i = j;
        }
        broken.sort_unstable();
        broken.dedup();
        // Every bridge of a broken tree, with its group, in walk order.
        let mut out: Vec<(usize, usize)> = Vec::new();
        let mut stack: Vec<u32> = Vec::new();
        for &r in &broken {
            let (from, to) = (self.tin[r as usize], self.tout[r as usize]);
            let mut next = cuts.partition_point(|&c| self.tin[c as usize] < from);
            stack.clear();
            for pos in from..to {
                let b = self.order[pos as usize];
                while stack.last().is_some_and(|&c| self.tout[c as usize] <= pos) {
                    stack.pop();
                }
                if next < cuts.len() && cuts[next] == b {
                    stack.push(b);
                    next += 1;
                }
                let top = stack.last().copied().unwrap_or(r);
                out.push((b as usize, uf.find(index(top))));
            }
        }
        // Labels: past every bridge, the least bridge of the group.
        let mut least: Vec<(usize, usize)> = out.iter().map(|&(b, g)| (g, b)).collect();
        least.sort_unstable();
        least.dedup_by_key(|x| x.0);
        for x in &mut out {
            let k = least.partition_point(|l| l.0 < x.1);
            x.1 = self.nb + least[k].1;
        }
        for &r in removed {
            out.push((r, self.nb + r));
        }
        out.sort_unstable_by_key(|x| x.0);
        out.dedup_by_key(|x| x.0);
        out
    }
}

/// The reference [`SplitForest::relabel`] answers: from `new`, the labels
/// of a full union-find over the ports forwarding now, every bridge whose
/// healthy component `old` does not map one to one onto its new one (or
/// that is removed) gets `nb + new`, the others keep `old`.
pub fn relabel(old: &[usize], new: &[usize], is_removed: &[bool]) -> Vec<usize> {
    const UNSET: usize = usize::MAX;
    const MANY: usize = usize::MAX - 1;
    let nb = new.len();
    let mut old_to_new = vec![UNSET; nb];
    let mut new_to_old = vec![UNSET; nb];
    let link = |map: &mut [usize], from: usize, to: usize| {
        let e = &mut map[from];
        if *e == UNSET {
            *e = to;
        } else if *e != to {
            *e = MANY;
        }
    };
    for b in (0..nb).filter(|b| !is_removed[*b]) {
        link(&mut old_to_new, old[b], new[b]);
        link(&mut new_to_old, new[b], old[b]);
    }
    (0..nb)
        .map(|b| {
            let stable = !is_removed[b] && old_to_new[old[b]] != MANY && new_to_old[new[b]] != MANY;
            if stable {
                old[b]
            } else {
                nb + new[b]
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::union_find::components;
    use proptest::prelude::*;

    /// The forest's answer against a union-find over every bridge.
    fn agree(nb: usize, ends: &[(usize, usize)], fwd: &[bool], now: &[bool], removed: &[usize]) {
        let forest = SplitForest::new(nb, ends, fwd);
        let old = components(nb, ends.iter().zip(fwd).filter(|x| *x.1).map(|x| *x.0));
        let new = components(nb, ends.iter().zip(now).filter(|x| *x.1).map(|x| *x.0));
        let mut is_removed = vec![false; nb];
        for &r in removed {
            is_removed[r] = true;
        }
        let want = relabel(&old, &new, &is_removed);
        let flips: Vec<(usize, bool)> = (0..ends.len())
            .filter(|&p| fwd[p] != now[p])
            .map(|p| (p, now[p]))
            .collect();
        let got = forest.relabel(&flips, removed);
        let mut dense = old.clone();
        for &(b, l) in &got {
            dense[b] = l;
        }
        assert_eq!(dense, want, "ends {ends:?} healthy {fwd:?} now {now:?}");
        // Listed are exactly the bridges whose label changed.
        for (b, _) in got {
            assert!(want[b] != old[b], "{b} listed but unchanged");
        }
    }

    #[test]
    fn a_moved_root_port_changes_no_label() {
        // 0 - 1 - 2, 0 - 2 blocked; 1 - 2 stops, 0 - 2 starts.
        let ends = [(0, 1), (1, 2), (0, 2)];
        let forest = SplitForest::new(3, &ends, &[true, true, false]);
        assert_eq!(forest.relabel(&[(1, false), (2, true)], &[]), vec![]);
        agree(3, &ends, &[true, true, false], &[true, false, true], &[]);
    }

    #[test]
    fn a_cut_subtree_gets_labels_of_its_own() {
        // 0 - 1 - 2 - 3: cutting 1 - 2 leaves {0, 1} and {2, 3}.
        let ends = [(0, 1), (1, 2), (2, 3)];
        let forest = SplitForest::new(4, &ends, &[true; 3]);
        assert_eq!(
            forest.relabel(&[(1, false)], &[]),
            vec![(0, 4), (1, 4), (2, 6), (3, 6)]
        );
    }

    #[test]
    fn a_loop_keeps_a_cut_tree_whole_and_a_removed_bridge_is_listed() {
        // A ring without spanning tree: 0 - 1 - 2 - 3 - 0, every port
        // forwarding. Bridge 1 goes down with its two ports.
        let ends = [(0, 1), (1, 2), (2, 3), (3, 0)];
        let fwd = [true; 4];
        let forest = SplitForest::new(4, &ends, &fwd);
        assert_eq!(
            forest.relabel(&[(0, false), (1, false)], &[1]),
            vec![(1, 5)]
        );
        agree(4, &ends, &fwd, &[false, false, true, true], &[1]);
    }

    #[test]
    fn joined_components_are_both_relabelled() {
        let ends = [(0, 1), (2, 3), (1, 2)];
        agree(4, &ends, &[true, true, false], &[true, true, true], &[]);
    }

    /// Bridges, ports' ends, healthy forwarding, ports flipped.
    type Case = (usize, Vec<(usize, usize)>, Vec<bool>, Vec<bool>);

    fn fabric() -> impl Strategy<Value = Case> {
        (2usize..12).prop_flat_map(|nb| {
            prop::collection::vec((0..nb, 0..nb), 0..20).prop_flat_map(move |ends| {
                let m = ends.len();
                (
                    Just(nb),
                    Just(ends),
                    prop::collection::vec(any::<bool>(), m),
                    prop::collection::vec(prop::bool::weighted(0.2), m),
                )
            })
        })
    }

    proptest! {
        /// Any healthy forwarding (trees or loops), any ports flipped, any
        /// bridge down with its ports: the same labels as the union-find.
        #[test]
        fn labels_are_those_of_a_union_find_over_every_bridge(
            (nb, ends, fwd, flip) in fabric(),
            down in prop::collection::btree_set(0usize..12, 0..3),
        ) {
            let removed: Vec<usize> = down.into_iter().filter(|&b| b < nb).collect();
            let now: Vec<bool> = ends
                .iter()
                .enumerate()
                .map(|(p, &(a, b))| {
                    let off = removed.contains(&a) || removed.contains(&b);
                    !off && (fwd[p] != flip[p])
                })
                .collect();
            agree(nb, &ends, &fwd, &now, &removed);
        }
    }
}
