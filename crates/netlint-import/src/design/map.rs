//! The source map of a written design: for each value `netlint import`
//! writes, the byte range of `key = value` in the design text and the
//! config lines (or vendor defaults, or the lines it was inferred from) it
//! came from. `netlint check` run on
//! configs uses it to point each finding at the config line that causes
//! it instead of at the design it generated in memory.

use std::ops::Range;

use super::At;

/// One source of a written value.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Src {
    /// A line of an input file.
    Line(At),
    /// A vendor default the config of `file` left in force, with the
    /// public document that states it.
    Default { file: String, source: &'static str },
    /// A line a value was inferred from (no line states the value), with
    /// why the value follows from it.
    Inferred { at: At, why: &'static str },
}

impl Src {
    /// The input line: the line that states the value, or one it was
    /// inferred from; `None` for a vendor default.
    pub fn at(&self) -> Option<&At> {
        match self {
            Src::Line(at) | Src::Inferred { at, .. } => Some(at),
            Src::Default { .. } => None,
        }
    }
}

/// A range of the design text and where what is written there came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mapped {
    /// Byte range of `key = value` (or of a `[table]` header).
    pub span: Range<usize>,
    /// Never empty; the first source is the one a finding points at, the
    /// others are related (the line of the other end, say).
    pub from: Vec<Src>,
}

/// Every mapped range of one written design, in text order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceMap {
    entries: Vec<Mapped>,
}

impl SourceMap {
    pub(crate) fn new(mut entries: Vec<Mapped>) -> SourceMap {
        entries.sort_by_key(|e| (e.span.start, std::cmp::Reverse(e.span.end)));
        SourceMap { entries }
    }

    /// `other`'s entries, for text appended at byte `offset`.
    pub(crate) fn append(&mut self, other: SourceMap, offset: usize) {
        self.entries.extend(other.entries.into_iter().map(|mut e| {
            e.span = e.span.start + offset..e.span.end + offset;
            e
        }));
        self.entries
            .sort_by_key(|e| (e.span.start, std::cmp::Reverse(e.span.end)));
    }

    pub fn entries(&self) -> &[Mapped] {
        &self.entries
    }

    /// Where the text at `span` came from: the narrowest mapped range
    /// holding all of it, else the narrowest holding its start (a label
    /// on a table can run past its header). `None`: the design text there
    /// came from no input (a header comment, `[design]`, a value the
    /// import wrote without a source).
    pub fn lookup(&self, span: Range<usize>) -> Option<&Mapped> {
        let narrowest = |holds: &dyn Fn(&Range<usize>) -> bool| {
            self.entries
                .iter()
                .filter(|e| holds(&e.span))
                .min_by_key(|e| (e.span.len(), e.span.start))
        };
        narrowest(&|e| e.start <= span.start && span.end <= e.end)
            .or_else(|| narrowest(&|e| e.contains(&span.start)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(file: &str, line: u32) -> Src {
        Src::Line(At {
            file: file.into(),
            line,
        })
    }

    #[test]
    fn the_narrowest_range_holding_a_span_wins() {
        let map = SourceMap::new(vec![
            Mapped {
                span: 10..20,
                from: vec![line("a.cfg", 3)],
            },
            Mapped {
                span: 0..8,
                from: vec![line("a.cfg", 1)],
            },
            Mapped {
                span: 12..16,
                from: vec![line("b.cfg", 9)],
            },
        ]);
        assert_eq!(map.entries()[0].span, 0..8, "sorted by position");
        assert_eq!(map.lookup(13..15).unwrap().from, [line("b.cfg", 9)]);
        assert_eq!(map.lookup(10..20).unwrap().from, [line("a.cfg", 3)]);
        // Runs past every range: the one holding its start.
        assert_eq!(map.lookup(2..30).unwrap().from, [line("a.cfg", 1)]);
        assert_eq!(map.lookup(8..9), None);
        assert_eq!(map.lookup(40..41), None);
    }
}
