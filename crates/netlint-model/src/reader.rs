//! Typed access to the span-carrying TOML tree that collects every problem
//! instead of stopping at the first, each as a `schema` diagnostic at the
//! exact span, with the nearest valid name for a misspelt key or value.

use crate::design::StrEnum;
use crate::diag::Diagnostic;
use crate::fix::FixValue;
use crate::span::{Sp, Span};
use crate::units::Speed;
use crate::vlans::VlanSet;
use std::collections::BTreeMap;
use std::ops::RangeInclusive;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

pub(crate) type Table<'i> = DeTable<'i>;
pub(crate) type Value<'i> = Spanned<DeValue<'i>>;

pub(crate) fn span_of<T>(v: &Spanned<T>) -> Span {
    v.span().into()
}

/// Up to this many keys, a table is searched by comparing its keys in
/// turn: a design's tables hold a few keys each, and comparing them reads
/// fewer bytes than hashing the key with toml's hasher (SipHash), which
/// the loader did a hundred and sixty times per host.
const SCANNED: usize = 16;

/// The entry of `key` in `t`, as [`Table::get_key_value`] finds it.
pub(crate) fn entry<'t, 'i>(
    t: &'t Table<'i>,
    key: &str,
) -> Option<(&'t Spanned<std::borrow::Cow<'i, str>>, &'t Value<'i>)> {
    if t.len() <= SCANNED {
        t.iter().find(|(k, _)| k.get_ref().as_ref() == key)
    } else {
        t.get_key_value(key)
    }
}

/// The value of `key` in `t`, to change, as [`Table::get_mut`] finds it.
pub(crate) fn entry_mut<'t, 'i>(t: &'t mut Table<'i>, key: &str) -> Option<&'t mut Value<'i>> {
    if t.len() <= SCANNED {
        t.iter_mut()
            .find(|(k, _)| k.get_ref().as_ref() == key)
            .map(|(_, v)| v)
    } else {
        t.get_mut(key)
    }
}

/// The closest of `candidates` to `word`, when close enough to be a typo,
/// or when one is the other with whole name parts added (`vmotion` for
/// `vmotion-net`, `tor-a1` for `tor-a`).
pub fn nearest<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let w = word.to_ascii_lowercase();
    let limit = (w.chars().count() / 3).max(2);
    candidates
        .into_iter()
        .map(|c| {
            let lc = c.to_ascii_lowercase();
            (strsim::damerau_levenshtein(&w, &lc), c, extends(&w, &lc))
        })
        .filter(|(d, c, ext)| *ext || (*d <= limit && *d < c.chars().count()))
        .min_by_key(|(d, c, _)| (*d, *c))
        .map(|(_, c, _)| c)
}

/// Whether one name is the other plus whole parts after or before a
/// separator (`-`, `_`, `.`, ` `), the shorter at least 3 characters long.
fn extends(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if short.chars().count() < 3 || short == long {
        return false;
    }
    let sep = |c: Option<char>| matches!(c, Some('-' | '_' | '.' | ' '));
    (long.starts_with(short) && sep(long[short.len()..].chars().next()))
        || (long.ends_with(short) && sep(long[..long.len() - short.len()].chars().next_back()))
}

/// The one candidate within the distance [`nearest`] allows, when exactly
/// one is: what a misspelt name surely meant (a fix may rename it).
pub fn only_candidate<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    let w = word.to_ascii_lowercase();
    let limit = (w.chars().count() / 3).max(2);
    let mut near = candidates.into_iter().filter(|c| {
        let lc = c.to_ascii_lowercase();
        let d = strsim::damerau_levenshtein(&w, &lc);
        extends(&w, &lc) || (d <= limit && d < c.chars().count())
    });
    let one = near.next()?;
    if near.next().is_some() || siblings(&w, &one.to_ascii_lowercase()) {
        return None;
    }
    Some(one)
}

/// Two names alike but for their last character (`tor-a` and `tor-b`,
/// `smb1` and `smb2`, `node3` and `node4`): a set of siblings, not a typo
/// of one another. The hint may name one, a fix must not move a cable or
/// a network to the other sibling.
fn siblings(a: &str, b: &str) -> bool {
    let (x, y): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    x.len() == y.len()
        && x.len() > 1
        && x[..x.len() - 1] == y[..y.len() - 1]
        && x[x.len() - 1] != y[y.len() - 1]
}

/// ", did you mean `x`?" or "".
pub fn did_you_mean<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> String {
    match nearest(word, candidates) {
        Some(n) => format!(", did you mean `{n}`?"),
        None => String::new(),
    }
}

fn type_name(v: &DeValue<'_>) -> &'static str {
    match v {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a number",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

/// Reads values out of tables, collecting diagnostics.
#[derive(Default)]
pub(crate) struct Reader {
    pub diags: Vec<Diagnostic>,
    /// Values as written where the model keeps another form (a VLAN list
    /// with ranges, a bandwidth string), by span: see [`Design::written`].
    ///
    /// [`Design::written`]: crate::Design::written
    pub written: BTreeMap<Span, FixValue>,
    /// Misspelt string values with exactly one near valid one: (the index
    /// of their diagnostic, the value's span, as written, the valid one).
    /// The loader turns each into a fix once it knows the value's TOML path.
    pub renames: Vec<(usize, Span, String, String)>,
    /// Misspelt keys with one near valid key and a plain value (a string,
    /// number, boolean or array of them): (the index of their diagnostic,
    /// the value's span, the value, the valid key). The loader turns each
    /// into a fix (the key removed, the valid one added with the value)
    /// once it knows the value's TOML path.
    pub key_renames: Vec<(usize, Span, FixValue, String)>,
}

/// A plain TOML value as a fix writes it: strings, integers, booleans and
/// arrays of them. `None` for a table, a float or a date, which a key
/// rename does not move.
fn plain_value(v: &DeValue<'_>) -> Option<FixValue> {
    match v {
        DeValue::String(s) => Some(FixValue::String(s.to_string())),
        DeValue::Boolean(b) => Some(FixValue::Bool(*b)),
        DeValue::Integer(i) => i64::from_str_radix(i.as_str(), i.radix())
            .ok()
            .map(FixValue::Integer),
        DeValue::Array(items) => items
            .iter()
            .map(|x| plain_value(x.get_ref()))
            .collect::<Option<Vec<_>>>()
            .map(FixValue::Array),
        _ => None,
    }
}

impl Reader {
    /// The diagnostic just reported is about the string `old` at `span`,
    /// which surely meant `new`.
    pub fn suggest(&mut self, span: Span, old: &str, new: &str) {
        if let Some(i) = self.diags.len().checked_sub(1) {
            self.renames
                .push((i, span, old.to_string(), new.to_string()));
        }
    }

    pub fn error(&mut self, span: Span, message: impl Into<String>) {
        self.diags.push(Diagnostic::schema(span, message));
    }

    pub fn error_help(&mut self, span: Span, message: impl Into<String>, help: impl Into<String>) {
        self.diags
            .push(Diagnostic::schema(span, message).with_help(help));
    }

    /// Reports every key of `t` not in `known`.
    pub fn check_keys(&mut self, t: &Table<'_>, known: &[&str], what: &str) {
        for (k, v) in t.iter() {
            let name: &str = k.get_ref();
            if !known.contains(&name) {
                let hint = did_you_mean(name, known.iter().copied());
                let help = format!("{what} takes: {}", known.join(", "));
                self.error_help(
                    span_of(k),
                    format!("unknown field `{name}` in {what}{hint}"),
                    help,
                );
                // One near valid key that the table does not have already:
                // the key is renamed (a safe fix, checked on a copy).
                let near = nearest(name, known.iter().copied()).filter(|n| entry(t, n).is_none());
                if let (Some(n), Some(value)) = (near, plain_value(v.get_ref())) {
                    let i = self.diags.len() - 1;
                    self.key_renames.push((i, span_of(v), value, n.to_string()));
                }
            }
        }
    }

    pub fn get<'t, 'i>(t: &'t Table<'i>, key: &str) -> Option<(Span, &'t Value<'i>)> {
        entry(t, key).map(|(k, v)| (span_of(k), v))
    }

    fn wrong_type(&mut self, key: &str, v: &Value<'_>, expected: &str) {
        self.error(
            span_of(v),
            format!(
                "`{key}` must be {expected}, found {}",
                type_name(v.get_ref())
            ),
        );
    }

    /// Reports a missing required key, unless a misspelling of it is there
    /// (that is reported as an unknown field with the suggestion already).
    pub fn require(&mut self, t: &Table<'_>, key: &str, span: Span, what: &str, example: &str) {
        if entry(t, key).is_some() {
            return;
        }
        let misspelt = t.iter().any(|(k, _)| {
            let k: &str = k.get_ref();
            nearest(k, [key]).is_some()
        });
        if !misspelt {
            self.error_help(
                span,
                format!("{what} has no `{key}`, which is required"),
                format!("add `{key} = {example}`"),
            );
        }
    }

    pub fn str(&mut self, t: &Table<'_>, key: &str) -> Option<Sp<String>> {
        let (_, v) = Self::get(t, key)?;
        self.as_str(key, v)
    }

    pub fn as_str(&mut self, key: &str, v: &Value<'_>) -> Option<Sp<String>> {
        match v.get_ref() {
            DeValue::String(s) => Some(Sp::new(s.to_string(), span_of(v))),
            _ => {
                self.wrong_type(key, v, "a string");
                None
            }
        }
    }

    pub fn bool(&mut self, t: &Table<'_>, key: &str) -> Option<Sp<bool>> {
        let (_, v) = Self::get(t, key)?;
        match v.get_ref() {
            DeValue::Boolean(b) => Some(Sp::new(*b, span_of(v))),
            _ => {
                self.wrong_type(key, v, "true or false");
                None
            }
        }
    }

    /// An integer within `range`; `what` completes "must be ...".
    pub fn int(
        &mut self,
        t: &Table<'_>,
        key: &str,
        range: RangeInclusive<i64>,
        what: &str,
    ) -> Option<Sp<i64>> {
        let (_, v) = Self::get(t, key)?;
        self.as_int(key, v, range, what)
    }

    pub fn as_int(
        &mut self,
        key: &str,
        v: &Value<'_>,
        range: RangeInclusive<i64>,
        what: &str,
    ) -> Option<Sp<i64>> {
        match v.get_ref() {
            DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
                Ok(n) if range.contains(&n) => Some(Sp::new(n, span_of(v))),
                Ok(n) => {
                    self.error(
                        span_of(v),
                        format!("`{key}` = {n} is out of range: it must be {what}"),
                    );
                    None
                }
                Err(_) => {
                    self.error(
                        span_of(v),
                        format!("`{key}` is too large: it must be {what}"),
                    );
                    None
                }
            },
            _ => {
                self.wrong_type(key, v, "an integer");
                None
            }
        }
    }

    /// An integer or decimal number, more than zero and at most `max`.
    pub fn number(&mut self, t: &Table<'_>, key: &str, max: f64) -> Option<Sp<f64>> {
        let (_, v) = Self::get(t, key)?;
        let (raw, n) = match v.get_ref() {
            DeValue::Integer(i) => (
                i.as_str(),
                i64::from_str_radix(i.as_str(), i.radix())
                    .ok()
                    .map(|n| n as f64),
            ),
            DeValue::Float(f) => (f.as_str(), f.as_str().replace('_', "").parse::<f64>().ok()),
            _ => {
                self.wrong_type(key, v, "a number");
                return None;
            }
        };
        match n {
            Some(n) if n.is_finite() && n > 0.0 && n <= max => Some(Sp::new(n, span_of(v))),
            _ => {
                self.error(
                    span_of(v),
                    format!(
                        "`{key}` = {raw} is out of range: it must be more than 0 and at most {}",
                        crate::units::trim_float(max)
                    ),
                );
                None
            }
        }
    }

    /// A string naming one of an enumeration's values (restricted to `allowed`).
    pub fn enum_in<E: StrEnum>(
        &mut self,
        t: &Table<'_>,
        key: &str,
        allowed: &[&str],
    ) -> Option<Sp<E>> {
        let s = self.str(t, key)?;
        self.parse_enum(key, &s, allowed)
    }

    pub fn enum_<E: StrEnum>(&mut self, t: &Table<'_>, key: &str) -> Option<Sp<E>> {
        self.enum_in(t, key, E::NAMES)
    }

    pub fn parse_enum<E: StrEnum>(
        &mut self,
        key: &str,
        s: &Sp<String>,
        allowed: &[&str],
    ) -> Option<Sp<E>> {
        match E::parse(&s.value) {
            Some(e) if allowed.contains(&s.value.as_str()) => Some(Sp::new(e, s.span)),
            _ => {
                let hint = did_you_mean(&s.value, allowed.iter().copied());
                self.error_help(
                    s.span,
                    format!("unknown `{key}` value `{}`{hint}", s.value),
                    format!("`{key}` takes one of: {}", allowed.join(", ")),
                );
                if let Some(n) = only_candidate(&s.value, allowed.iter().copied()) {
                    self.suggest(s.span, &s.value, n);
                }
                None
            }
        }
    }

    pub fn table<'t, 'i>(&mut self, t: &'t Table<'i>, key: &str) -> Option<(Span, &'t Table<'i>)> {
        let (_, v) = Self::get(t, key)?;
        self.as_table(key, v)
    }

    pub fn as_table<'t, 'i>(
        &mut self,
        key: &str,
        v: &'t Value<'i>,
    ) -> Option<(Span, &'t Table<'i>)> {
        match v.get_ref() {
            DeValue::Table(t) => Some((span_of(v), t)),
            _ => {
                self.wrong_type(key, v, "a table");
                None
            }
        }
    }

    pub fn array<'t, 'i>(
        &mut self,
        t: &'t Table<'i>,
        key: &str,
    ) -> Option<(Span, &'t [Value<'i>])> {
        let (_, v) = Self::get(t, key)?;
        match v.get_ref() {
            DeValue::Array(a) => Some((span_of(v), a.as_ref())),
            _ => {
                self.wrong_type(key, v, "an array");
                None
            }
        }
    }

    /// An array of strings (names), reporting duplicates.
    pub fn str_list(&mut self, t: &Table<'_>, key: &str) -> Option<(Span, Vec<Sp<String>>)> {
        let (span, items) = self.array(t, key)?;
        let mut out: Vec<Sp<String>> = Vec::new();
        for item in items {
            if let Some(s) = self.as_str(key, item) {
                if let Some(first) = out.iter().find(|o| o.value == s.value) {
                    let first = first.span;
                    self.diags.push(
                        Diagnostic::schema(
                            s.span,
                            format!("`{}` is listed twice in `{key}`", s.value),
                        )
                        .with_related(first, "first listed here")
                        .with_help("remove the duplicate"),
                    );
                    continue;
                }
                out.push(s);
            }
        }
        Some((span, out))
    }

    /// A list of VLANs, each an id (1..4094) or a `"711-718"` range.
    pub fn vlan_list(&mut self, t: &Table<'_>, key: &str) -> Option<Sp<VlanSet>> {
        let (_, v) = Self::get(t, key)?;
        self.as_vlan_list(key, v)
    }

    pub fn as_vlan_list(&mut self, key: &str, v: &Value<'_>) -> Option<Sp<VlanSet>> {
        let DeValue::Array(items) = v.get_ref() else {
            self.wrong_type(key, v, "an array of VLAN ids or \"a-b\" ranges");
            return None;
        };
        let mut set = VlanSet::new();
        let mut ok = true;
        let mut written = Vec::new();
        for item in items {
            match item.get_ref() {
                DeValue::Integer(_) => {
                    match self.as_int(key, item, 1..=4094, "a VLAN id from 1 to 4094") {
                        Some(n) => {
                            set.insert(n.value as u16);
                            written.push(FixValue::Integer(n.value));
                        }
                        None => ok = false,
                    }
                }
                DeValue::String(s) => match VlanSet::parse_range(s) {
                    Ok((a, b)) if a >= 1 && b <= 4094 => {
                        set.insert_range(a, b);
                        written.push(FixValue::String(s.to_string()));
                    }
                    Ok(_) => {
                        self.error(
                            span_of(item),
                            format!("VLAN range `{s}` goes outside 1-4094"),
                        );
                        ok = false;
                    }
                    Err(e) => {
                        self.error(span_of(item), e);
                        ok = false;
                    }
                },
                _ => {
                    self.wrong_type(key, item, "a VLAN id or a \"a-b\" range");
                    ok = false;
                }
            }
        }
        if ok {
            self.written.insert(span_of(v), FixValue::Array(written));
        }
        ok.then(|| Sp::new(set, span_of(v)))
    }

    pub fn speed(&mut self, t: &Table<'_>, key: &str) -> Option<Sp<Speed>> {
        let s = self.str(t, key)?;
        match Speed::parse(&s.value) {
            Ok(sp) => Some(Sp::new(sp, s.span)),
            Err(e) => {
                self.error_help(
                    s.span,
                    e,
                    "a speed is a number and a unit, from 10M to 10T: \"1G\", \"10G\", \"25G\", \"100M\"",
                );
                None
            }
        }
    }

    /// A string parsed by `parse`.
    pub fn parsed<T>(
        &mut self,
        t: &Table<'_>,
        key: &str,
        parse: impl FnOnce(&str) -> Result<T, String>,
    ) -> Option<Sp<T>> {
        let s = self.str(t, key)?;
        match parse(&s.value) {
            Ok(v) => {
                self.written
                    .insert(s.span, FixValue::String(s.value.clone()));
                Some(Sp::new(v, s.span))
            }
            Err(e) => {
                self.error(s.span, e);
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn siblings_are_no_typo_to_fix() {
        assert_eq!(only_candidate("tor-b", ["tor-a"]), None);
        assert_eq!(only_candidate("smb2", ["smb1", "mgmt"]), None);
        assert_eq!(only_candidate("dc1-tor-a", ["tor-a"]), Some("tor-a"));
        assert_eq!(only_candidate("mgmt-nte", ["mgmt-net"]), Some("mgmt-net"));
    }

    #[test]
    fn nearest_names() {
        assert_eq!(nearest("speeed", ["speed", "switch"]), Some("speed"));
        assert_eq!(nearest("swtich", ["speed", "switch"]), Some("switch"));
        assert_eq!(nearest("rstpp", ["rstp", "mstp", "stp"]), Some("rstp"));
        assert_eq!(nearest("zzzzzz", ["speed", "switch"]), None);
    }

    #[test]
    fn a_name_missing_a_part_finds_the_whole_name() {
        let nets = ["mgmt", "vmotion-net", "vsan-net"];
        assert_eq!(nearest("vmotion", nets), Some("vmotion-net"));
        assert_eq!(nearest("vMotion", nets), Some("vmotion-net"));
        assert_eq!(nearest("vmotion-net-1", nets), Some("vmotion-net"));
        assert_eq!(nearest("net-vsan", ["vsan"]), Some("vsan"));
        // A typo still wins over a longer extension.
        assert_eq!(nearest("vsan", ["vsan-net", "vsam"]), Some("vsam"));
        // Parts only, and not too short to mean anything.
        assert_eq!(nearest("vmot", nets), None);
        assert_eq!(nearest("a", ["tor-a"]), None);
    }
}
