//! VLAN lists as switches write them (`1-10,20,30-35`, `all`, `none`):
//! read into, and written from, the model's [`VlanSet`] (the one VLAN-set
//! type, `netlint_model::vlans`). The edits of `switchport trunk allowed
//! vlan add|remove|except` are its union and difference
//! (`config::interface`).

use std::fmt;

pub use netlint_model::VlanSet;

/// Parses a VLAN list as switches write it: `10`, `1-10,20`, `1-10, 20`
/// (spaces after commas, as EOS and OS10 accept), `all`, `none`. Every id
/// must be 1-4094 and every range ascending.
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

/// `set` as a switch writes it: `1-10,20,30-35`; `none` when empty.
pub fn switch_list(set: &VlanSet) -> SwitchList<'_> {
    SwitchList(set)
}

/// A [`VlanSet`] in a switch's syntax (see [`switch_list`]).
#[derive(Clone, Copy)]
pub struct SwitchList<'a>(&'a VlanSet);

impl fmt::Display for SwitchList<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            f.write_str("none")
        } else {
            self.0.joined(",").fmt(f)
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_ranges_and_writes_them_back() {
        let s = parse("1-10, 20,30-32").unwrap();
        assert_eq!(s.len(), 14);
        assert_eq!(switch_list(&s).to_string(), "1-10,20,30-32");
        assert_eq!(switch_list(&parse("all").unwrap()).to_string(), "1-4094");
        assert_eq!(parse("none").unwrap(), VlanSet::EMPTY);
        assert_eq!(parse("NONE").unwrap(), VlanSet::EMPTY);
        assert_eq!(switch_list(&VlanSet::EMPTY).to_string(), "none");
        assert_eq!(format!("{:?}", parse("1-10,20").unwrap()), "[1-10,20]");
    }

    #[test]
    fn refuses_bad_lists() {
        assert_eq!(parse("0"), Err(VlanListError::OutOfRange(0)));
        assert_eq!(parse("4095"), Err(VlanListError::OutOfRange(4095)));
        assert_eq!(parse("20-10"), Err(VlanListError::Descending(20, 10)));
        assert!(matches!(parse("10,,20"), Err(VlanListError::NotANumber(_))));
        assert!(matches!(parse("ten"), Err(VlanListError::NotANumber(_))));
        assert_eq!(parse(" "), Err(VlanListError::Empty));
    }

    #[test]
    fn set_operations() {
        let a = parse("1-10").unwrap();
        let b = parse("5-20").unwrap();
        let text = |s: VlanSet| switch_list(&s).to_string();
        assert_eq!(text(a.union(&b)), "1-20");
        assert_eq!(text(a.difference(&b)), "1-4");
        assert_eq!(text(a.intersection(&b)), "5-10");
        assert_eq!(text(VlanSet::all().difference(&a)), "11-4094");
        assert_eq!(text(a.difference(&a)), "none");
    }

    #[test]
    fn ranges_of_a_parsed_list() {
        let s = parse("1,3,5-70,128,4000-4094").unwrap();
        assert_eq!(
            s.ranges().collect::<Vec<_>>(),
            vec![(1, 1), (3, 3), (5, 70), (128, 128), (4000, 4094)]
        );
        assert_eq!(switch_list(&s).to_string(), "1,3,5-70,128,4000-4094");
    }
}
