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

    pub fn insert(&mut self, id: u16) {
        let id = usize::from(id & 0x0fff);
        self.0[id / 64] |= 1 << (id % 64);
    }

    pub fn insert_range(&mut self, lo: u16, hi: u16) {
        for id in lo..=hi.min(4095) {
            self.insert(id);
        }
    }

    pub fn remove(&mut self, id: u16) {
        let id = usize::from(id & 0x0fff);
        self.0[id / 64] &= !(1 << (id % 64));
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

    /// The ids in ascending order.
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        (0u16..4096).filter(move |id| self.contains(*id))
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
        let mut first = true;
        let mut id = 0u32;
        while id < 4096 {
            if self.contains(id as u16) {
                let lo = id;
                while id + 1 < 4096 && self.contains((id + 1) as u16) {
                    id += 1;
                }
                if !first {
                    write!(f, ",")?;
                }
                first = false;
                if lo == id {
                    write!(f, "{lo}")?;
                } else {
                    write!(f, "{lo}-{id}")?;
                }
            }
            id += 1;
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
}
