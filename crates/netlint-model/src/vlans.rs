//! The one VLAN-set type of netlint: the design's VLAN lists, the importer's
//! allowed and defined VLANs and the spanning-tree analysis's VLANs with
//! spanning tree off or carried on a link are all a [`VlanSet`].
//!
//! The switch syntax (`1-10,20`, `all`, `none`, the `add|remove|except`
//! edits) is the importer's (`netlint_import::vlans`); the design's
//! `"711-718"` range strings are read here ([`VlanSet::parse_range`]).

use std::fmt;

/// A set of VLAN ids as 4,096 bits: copied freely, compared fast, iterated
/// in ascending order.
///
/// It holds ids 0-4095; an id above 4095 is no VLAN and is never added (it
/// was once masked into 0-4095, which made `vlan5000` VLAN 904). A loaded
/// design's sets hold 1-4094 only: the loader refuses any other id.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct VlanSet([u64; 64]);

/// Bits in a [`VlanSet`]: ids 0..=4095.
const BITS: usize = 4096;

impl Default for VlanSet {
    fn default() -> Self {
        VlanSet::EMPTY
    }
}

impl VlanSet {
    /// No VLAN.
    pub const EMPTY: VlanSet = VlanSet([0; 64]);

    /// No VLAN (as [`VlanSet::EMPTY`]).
    pub const fn new() -> Self {
        VlanSet::EMPTY
    }

    /// Every usable VLAN, 1-4094: what `all` means on a trunk.
    pub fn all() -> VlanSet {
        let mut s = VlanSet::EMPTY;
        s.insert_range(1, 4094);
        s
    }

    /// One VLAN.
    pub fn single(id: u16) -> VlanSet {
        let mut s = VlanSet::EMPTY;
        s.insert(id);
        s
    }

    /// Adds `id`; an id above 4095 is no VLAN and is not added.
    pub fn insert(&mut self, id: u16) {
        if usize::from(id) < BITS {
            let id = usize::from(id);
            self.0[id / 64] |= 1 << (id % 64);
        }
    }

    /// Adds `lo..=hi` (clipped to 4095) a 64-bit word at a time: a range
    /// costs the same whatever its length. Nothing when `lo > hi`.
    pub fn insert_range(&mut self, lo: u16, hi: u16) {
        let hi = hi.min(4095);
        if lo > hi {
            return;
        }
        let (lo, hi) = (usize::from(lo), usize::from(hi));
        for w in lo / 64..=hi / 64 {
            let from = if w == lo / 64 { lo % 64 } else { 0 };
            let to = if w == hi / 64 { hi % 64 } else { 63 };
            // Bits from..=to of the word.
            let mask = (u64::MAX >> (63 - to)) & (u64::MAX << from);
            self.0[w] |= mask;
        }
    }

    /// Takes `id` out (nothing for an id above 4095).
    pub fn remove(&mut self, id: u16) {
        if usize::from(id) < BITS {
            let id = usize::from(id);
            self.0[id / 64] &= !(1 << (id % 64));
        }
    }

    /// Whether `id` is in the set (never for an id above 4095).
    pub fn contains(&self, id: u16) -> bool {
        usize::from(id) < BITS && self.0[usize::from(id) / 64] & (1 << (id % 64)) != 0
    }

    pub fn union(&self, other: &VlanSet) -> VlanSet {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(other.0.iter()) {
            *a |= b;
        }
        out
    }

    pub fn intersection(&self, other: &VlanSet) -> VlanSet {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(other.0.iter()) {
            *a &= b;
        }
        out
    }

    pub fn difference(&self, other: &VlanSet) -> VlanSet {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(other.0.iter()) {
            *a &= !b;
        }
        out
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }

    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The ids in ascending order, skipping empty words: the cost is the
    /// number of ids in the set (plus 64 words), not 4,096 tests.
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    (w * 64 + b) as u16
                })
            })
        })
    }

    /// The maximal runs `lo..=hi` in ascending order, found a word at a
    /// time (a full word of a long range is one step), without allocating.
    pub fn ranges(&self) -> impl Iterator<Item = (u16, u16)> + '_ {
        let mut id = 0;
        std::iter::from_fn(move || {
            let lo = self.next_bit(id, true)?;
            let end = self.next_bit(lo, false).unwrap_or(BITS);
            id = end;
            Some((lo as u16, (end - 1) as u16))
        })
    }

    /// The first id from `from` on whose bit is `set`, a word at a time.
    fn next_bit(&self, from: usize, set: bool) -> Option<usize> {
        let mut id = from;
        while id < BITS {
            let word = if set {
                self.0[id / 64]
            } else {
                !self.0[id / 64]
            };
            let rest = word >> (id % 64);
            if rest != 0 {
                return Some(id + rest.trailing_zeros() as usize);
            }
            id = (id / 64 + 1) * 64;
        }
        None
    }

    /// The runs joined by `sep`, a lone id as itself and a run as `lo-hi`:
    /// with `", "` the [`Display`](fmt::Display) (`10, 20-23, 100`), with
    /// `","` the way a switch writes a list (`10,20-23,100`). Nothing for
    /// the empty set.
    pub fn joined(&self, sep: &'static str) -> Joined<'_> {
        Joined { set: self, sep }
    }

    /// Parses a `"711-718"` range string into its bounds.
    pub fn parse_range(s: &str) -> Result<(u16, u16), String> {
        let err = || format!("`{s}` is not a VLAN range: write \"711-718\"");
        let (a, b) = s.split_once('-').ok_or_else(err)?;
        let a: u16 = a.trim().parse().map_err(|_| err())?;
        let b: u16 = b.trim().parse().map_err(|_| err())?;
        if a > b {
            return Err(format!(
                "VLAN range `{s}` runs backwards: write \"{b}-{a}\""
            ));
        }
        Ok((a, b))
    }
}

impl FromIterator<u16> for VlanSet {
    fn from_iter<I: IntoIterator<Item = u16>>(iter: I) -> Self {
        let mut s = VlanSet::EMPTY;
        for id in iter {
            s.insert(id);
        }
        s
    }
}

/// A [`VlanSet`]'s runs joined by a separator (see [`VlanSet::joined`]).
#[derive(Clone, Copy)]
pub struct Joined<'a> {
    set: &'a VlanSet,
    sep: &'static str,
}

impl fmt::Display for Joined<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, (lo, hi)) in self.set.ranges().enumerate() {
            if k > 0 {
                f.write_str(self.sep)?;
            }
            if lo == hi {
                write!(f, "{lo}")?;
            } else {
                write!(f, "{lo}-{hi}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for VlanSet {
    /// `10, 20-23, 100`; nothing when empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.joined(", ").fmt(f)
    }
}

impl fmt::Debug for VlanSet {
    /// `[10,20-23,100]`, `[none]` when empty: compact in the importer's
    /// snapshots.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            f.write_str("[none]")
        } else {
            write!(f, "[{}]", self.joined(","))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    #[test]
    fn writes_runs() {
        let s: VlanSet = [10, 20, 21, 22, 100].into_iter().collect();
        assert_eq!(s.to_string(), "10, 20-22, 100");
        assert_eq!(s.joined(",").to_string(), "10,20-22,100");
        assert_eq!(format!("{s:?}"), "[10,20-22,100]");
        assert_eq!(VlanSet::EMPTY.to_string(), "");
        assert_eq!(format!("{:?}", VlanSet::new()), "[none]");
        assert_eq!(VlanSet::all().to_string(), "1-4094");
        assert_eq!(VlanSet::single(7).to_string(), "7");
        assert_eq!(VlanSet::default(), VlanSet::EMPTY);
    }

    #[test]
    fn parses_design_ranges() {
        assert_eq!(VlanSet::parse_range("711-718").unwrap(), (711, 718));
        assert_eq!(VlanSet::parse_range(" 7 - 9 ").unwrap(), (7, 9));
        assert!(VlanSet::parse_range("9-3").is_err());
        assert!(VlanSet::parse_range("9").is_err());
        assert!(VlanSet::parse_range("a-b").is_err());
    }

    #[test]
    fn set_operations() {
        let mut a = VlanSet::EMPTY;
        a.insert_range(1, 10);
        let mut b = VlanSet::EMPTY;
        b.insert_range(5, 20);
        assert_eq!(a.union(&b).to_string(), "1-20");
        assert_eq!(a.difference(&b).to_string(), "1-4");
        assert_eq!(a.intersection(&b).to_string(), "5-10");
        assert_eq!(VlanSet::all().difference(&a).to_string(), "11-4094");
        a.remove(5);
        a.remove(5000);
        assert_eq!(a.to_string(), "1-4, 6-10");
        assert_eq!(a.len(), 9);
    }

    /// Ranges are set and read a 64-bit word at a time, at every word
    /// boundary, and agree with the ids one by one.
    #[test]
    fn ranges_are_kept_word_by_word() {
        for (lo, hi) in [
            (1, 1),
            (63, 64),
            (64, 127),
            (0, 63),
            (1, 4094),
            (4094, 4095),
            (100, 1000),
            (127, 129),
            (0, 4095),
        ] {
            let mut s = VlanSet::EMPTY;
            s.insert_range(lo, hi);
            assert_eq!(s.len(), usize::from(hi - lo + 1), "{lo}-{hi}");
            assert_eq!(s.ranges().collect::<Vec<_>>(), vec![(lo, hi)], "{lo}-{hi}");
            let ids: Vec<u16> = s.iter().collect();
            assert_eq!(ids, (lo..=hi).collect::<Vec<_>>(), "{lo}-{hi}");
            for id in [lo.saturating_sub(1), hi + 1] {
                assert_eq!(s.contains(id), (lo..=hi).contains(&id), "{id}");
            }
        }
        let s: VlanSet = [1, 3]
            .into_iter()
            .chain(5..=70)
            .chain([128])
            .chain(4000..=4094)
            .collect();
        assert_eq!(
            s.ranges().collect::<Vec<_>>(),
            vec![(1, 1), (3, 3), (5, 70), (128, 128), (4000, 4094)]
        );
        let mut e = VlanSet::EMPTY;
        e.insert_range(10, 5);
        assert!(e.is_empty());
        assert_eq!(e.ranges().next(), None);
        // An id above 4095 is no VLAN: not folded into 0-4095.
        e.insert(5000);
        e.insert(4096 + 10);
        e.insert(u16::MAX);
        e.insert_range(4096, u16::MAX);
        assert!(e.is_empty(), "{e:?}");
        assert!(!VlanSet::single(904).contains(5000));
        assert!(!VlanSet::all().contains(u16::MAX));
    }

    /// `a-b` for a run, `a` for a lone id, `", "` between: back to the ids.
    fn read_back(text: &str) -> BTreeSet<u16> {
        let mut out = BTreeSet::new();
        for part in text.split(", ").filter(|p| !p.is_empty()) {
            match VlanSet::parse_range(part) {
                Ok((lo, hi)) => out.extend(lo..=hi),
                Err(_) => {
                    out.insert(part.parse::<u16>().unwrap());
                }
            }
        }
        out
    }

    proptest! {
        /// The set agrees with a `BTreeSet` of the same ids (below 4096).
        #[test]
        fn is_a_set_of_ids(ids in proptest::collection::vec(0u16..4200, 0..200)) {
            let s: VlanSet = ids.iter().copied().collect();
            let b: BTreeSet<u16> = ids.iter().copied().filter(|&v| v < 4096).collect();
            prop_assert_eq!(s.iter().collect::<Vec<_>>(), b.iter().copied().collect::<Vec<_>>());
            prop_assert_eq!(s.len(), b.len());
            prop_assert_eq!(s.is_empty(), b.is_empty());
            for v in 0..4200u16 {
                prop_assert_eq!(s.contains(v), b.contains(&v));
            }
        }

        /// A range inserted at once is the same as its ids one by one.
        #[test]
        fn insert_range_is_insert_one_by_one(lo in 0u16..4200, len in 0u16..300, base in proptest::collection::vec(0u16..4096, 0..20)) {
            let hi = lo.saturating_add(len);
            let mut at_once: VlanSet = base.iter().copied().collect();
            at_once.insert_range(lo, hi);
            let mut one_by_one: VlanSet = base.iter().copied().collect();
            for v in lo..=hi {
                one_by_one.insert(v);
            }
            prop_assert_eq!(at_once, one_by_one);
        }

        /// The runs are maximal, ascending and cover the set; the Display
        /// reads back to the set.
        #[test]
        fn ranges_round_trip(ids in proptest::collection::vec(0u16..4096, 0..300)) {
            let s: VlanSet = ids.iter().copied().collect();
            let runs: Vec<(u16, u16)> = s.ranges().collect();
            let mut again = VlanSet::EMPTY;
            for (k, &(lo, hi)) in runs.iter().enumerate() {
                prop_assert!(lo <= hi);
                if k > 0 {
                    // Ascending, and a gap between two runs.
                    prop_assert!(runs[k - 1].1 + 1 < lo);
                }
                again.insert_range(lo, hi);
            }
            prop_assert_eq!(again, s);
            let b: BTreeSet<u16> = s.iter().collect();
            prop_assert_eq!(read_back(&s.to_string()), b);
            prop_assert_eq!(s.joined(",").to_string(), s.to_string().replace(", ", ","));
        }

        /// Union, intersection and difference are those of the id sets.
        #[test]
        fn operations_are_the_sets(a in proptest::collection::vec(0u16..4096, 0..100), b in proptest::collection::vec(0u16..4096, 0..100)) {
            let (sa, sb): (VlanSet, VlanSet) = (a.iter().copied().collect(), b.iter().copied().collect());
            let (ba, bb): (BTreeSet<u16>, BTreeSet<u16>) = (a.iter().copied().collect(), b.iter().copied().collect());
            prop_assert_eq!(sa.union(&sb).iter().collect::<BTreeSet<_>>(), &ba | &bb);
            prop_assert_eq!(sa.intersection(&sb).iter().collect::<BTreeSet<_>>(), &ba & &bb);
            prop_assert_eq!(sa.difference(&sb).iter().collect::<BTreeSet<_>>(), &ba - &bb);
        }
    }
}
