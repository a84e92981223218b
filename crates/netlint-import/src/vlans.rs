//! VLAN sets: 4,096 bits, the ranges a switch writes (`1-10,20,30-35`),
//! and the edits of `switchport trunk allowed vlan add|remove|except`.

use std::fmt;

/// A set of VLAN ids 0..=4095 as a bit set: copied freely, compared fast.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct VlanSet([u64; 64]);

impl Default for VlanSet {
    fn default() -> Self {
        VlanSet::EMPTY
    }
}

impl VlanSet {
    /// No VLAN.
    pub const EMPTY: VlanSet = VlanSet([0; 64]);

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

    /// Adds `id`; an id above 4095 is no VLAN and is not added (it was
    /// once masked into 0-4095, which made `vlan5000` VLAN 904).
    pub fn insert(&mut self, id: u16) {
        if id < 4096 {
            let id = usize::from(id);
            self.0[id / 64] |= 1 << (id % 64);
        }
    }

    /// Adds `lo..=hi` (clipped to 4095) a 64-bit word at a time: a range
    /// costs the same whatever its length.
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

    pub fn remove(&mut self, id: u16) {
        if id < 4096 {
            let id = usize::from(id);
            self.0[id / 64] &= !(1 << (id % 64));
        }
    }

    pub fn contains(&self, id: u16) -> bool {
        id < 4096 && self.0[usize::from(id) / 64] & (1 << (id % 64)) != 0
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
    /// time (a full word of a long range is one step).
    pub fn ranges(&self) -> Vec<(u16, u16)> {
        let mut out: Vec<(u16, u16)> = Vec::new();
        let mut open: Option<u16> = None;
        let mut id = 0usize;
        while id < 4096 {
            let word = self.0[id / 64] >> (id % 64);
            let left = 64 - id % 64;
            // Run of equal bits from `id`, within this word.
            let run = if open.is_some() {
                (!word).trailing_zeros().min(left as u32) as usize
            } else {
                word.trailing_zeros().min(left as u32) as usize
            };
            if run == 0 {
                // The bit at `id` starts or ends a run.
                match open.take() {
                    Some(lo) => out.push((lo, id as u16 - 1)),
                    None => open = Some(id as u16),
                }
                continue;
            }
            id += run;
        }
        if let Some(lo) = open {
            out.push((lo, 4095));
        }
        out
    }

    /// Parses a VLAN list as switches write it: `10`, `1-10,20`,
    /// `1-10, 20` (spaces after commas, as EOS and OS10 accept), `all`,
    /// `none`. Every id must be 1-4094 and every range ascending.
    pub fn parse(text: &str) -> Result<VlanSet, VlanListError> {
        let text = text.trim();
        match text.to_ascii_lowercase().as_str() {
            "all" => return Ok(VlanSet::all()),
            "none" => return Ok(VlanSet::EMPTY),
            "" => return Err(VlanListError::Empty),
            _ => {}
        }
        let mut set = VlanSet::EMPTY;
        for part in text.split(',') {
            let part = part.trim();
            let (lo, hi) = match part.split_once('-') {
                Some((lo, hi)) => (parse_id(lo)?, parse_id(hi)?),
                None => {
                    let id = parse_id(part)?;
                    (id, id)
                }
            };
            if lo > hi {
                return Err(VlanListError::Descending(lo, hi));
            }
            set.insert_range(lo, hi);
        }
        Ok(set)
    }
}

fn parse_id(text: &str) -> Result<u16, VlanListError> {
    let text = text.trim();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) || text.len() > 5 {
        return Err(VlanListError::NotANumber(text.to_string()));
    }
    let id: u32 = text
        .parse()
        .map_err(|_| VlanListError::NotANumber(text.to_string()))?;
    if !(1..=4094).contains(&id) {
        return Err(VlanListError::OutOfRange(id));
    }
    Ok(id as u16)
}

/// Why a VLAN list did not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VlanListError {
    Empty,
    NotANumber(String),
    OutOfRange(u32),
    Descending(u16, u16),
}

impl fmt::Display for VlanListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VlanListError::Empty => write!(f, "an empty VLAN list"),
            VlanListError::NotANumber(t) => write!(f, "`{t}` is not a VLAN id"),
            VlanListError::OutOfRange(id) => write!(f, "VLAN {id} is outside 1-4094"),
            VlanListError::Descending(lo, hi) => write!(f, "the range {lo}-{hi} is descending"),
        }
    }
}

impl fmt::Display for VlanSet {
    /// Ranges as a switch writes them: `1-10,20,30-35`; `none` when empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return write!(f, "none");
        }
        for (k, (lo, hi)) in self.ranges().into_iter().enumerate() {
            if k > 0 {
                write!(f, ",")?;
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

impl fmt::Debug for VlanSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{self}]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_ranges_and_writes_them_back() {
        let s = VlanSet::parse("1-10, 20,30-32").unwrap();
        assert_eq!(s.len(), 14);
        assert_eq!(s.to_string(), "1-10,20,30-32");
        assert_eq!(VlanSet::parse("all").unwrap().to_string(), "1-4094");
        assert_eq!(VlanSet::parse("none").unwrap(), VlanSet::EMPTY);
    }

    #[test]
    fn refuses_bad_lists() {
        assert_eq!(VlanSet::parse("0"), Err(VlanListError::OutOfRange(0)));
        assert_eq!(VlanSet::parse("4095"), Err(VlanListError::OutOfRange(4095)));
        assert_eq!(
            VlanSet::parse("20-10"),
            Err(VlanListError::Descending(20, 10))
        );
        assert!(matches!(
            VlanSet::parse("10,,20"),
            Err(VlanListError::NotANumber(_))
        ));
        assert!(matches!(
            VlanSet::parse("ten"),
            Err(VlanListError::NotANumber(_))
        ));
        assert_eq!(VlanSet::parse(" "), Err(VlanListError::Empty));
    }

    #[test]
    fn set_operations() {
        let a = VlanSet::parse("1-10").unwrap();
        let b = VlanSet::parse("5-20").unwrap();
        assert_eq!(a.union(&b).to_string(), "1-20");
        assert_eq!(a.difference(&b).to_string(), "1-4");
        assert_eq!(a.intersection(&b).to_string(), "5-10");
        assert_eq!(VlanSet::all().difference(&a).to_string(), "11-4094");
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
        ] {
            let mut s = VlanSet::EMPTY;
            s.insert_range(lo, hi);
            assert_eq!(s.len(), usize::from(hi - lo + 1), "{lo}-{hi}");
            assert_eq!(s.ranges(), vec![(lo, hi)], "{lo}-{hi}");
            let ids: Vec<u16> = s.iter().collect();
            assert_eq!(ids, (lo..=hi).collect::<Vec<_>>(), "{lo}-{hi}");
            for id in [lo.saturating_sub(1), hi + 1] {
                assert_eq!(s.contains(id), (lo..=hi).contains(&id), "{id}");
            }
        }
        let s = VlanSet::parse("1,3,5-70,128,4000-4094").unwrap();
        assert_eq!(
            s.ranges(),
            vec![(1, 1), (3, 3), (5, 70), (128, 128), (4000, 4094)]
        );
        let mut e = VlanSet::EMPTY;
        e.insert_range(10, 5);
        assert!(e.is_empty());
        // An id above 4095 is no VLAN: not folded into 0-4095.
        e.insert(5000);
        e.insert(4096 + 10);
        assert!(e.is_empty(), "{e}");
        assert!(!VlanSet::single(904).contains(5000));
    }
}
