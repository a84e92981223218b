//! The one union-find of netlint: components of bridges, switches and
//! hosts. Every set is named by its smallest member, so labels follow the
//! order of the design and results are deterministic.

/// Disjoint sets over `0..n`, path halving, the smaller root absorbing the
/// larger.
#[derive(Clone, Debug)]
pub struct UnionFind {
    parent: Vec<u32>,
}

impl UnionFind {
    /// `n` singletons. `n` fits in `u32` (ids of a design's elements).
    pub fn new(n: usize) -> UnionFind {
        debug_assert!(u32::try_from(n).is_ok());
        UnionFind {
            parent: (0..n as u32).collect(),
        }
    }

    /// The smallest member of `x`'s set.
    pub fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] as usize != x {
            let gp = self.parent[self.parent[x] as usize];
            self.parent[x] = gp;
            x = gp as usize;
        }
        x
    }

    /// Joins the sets of `a` and `b`; false when they were one already.
    pub fn union(&mut self, a: usize, b: usize) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return false;
        }
        let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
        self.parent[hi] = lo as u32;
        true
    }

    /// Every member's label (the smallest member of its set).
    pub fn labels(&mut self) -> Vec<usize> {
        (0..self.parent.len()).map(|x| self.find(x)).collect()
    }
}

/// Connected components of `n` nodes over `edges`, each labelled by its
/// smallest node.
pub fn components(n: usize, edges: impl Iterator<Item = (usize, usize)>) -> Vec<usize> {
    let mut uf = UnionFind::new(n);
    for (a, b) in edges {
        uf.union(a, b);
    }
    uf.labels()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_are_named_by_their_smallest_member() {
        let mut uf = UnionFind::new(6);
        assert!(uf.union(4, 2));
        assert!(uf.union(5, 4));
        assert!(!uf.union(2, 5));
        assert!(uf.union(3, 1));
        assert_eq!(uf.labels(), vec![0, 1, 2, 1, 2, 2]);
        assert_eq!(
            components(4, [(3, 2), (1, 0)].into_iter()),
            vec![0, 0, 2, 2]
        );
    }
}
