//! Byte spans into a design file and the line index that turns them into
//! 1-based line/column positions for every renderer.

use std::fmt;

/// A byte range `start..end` in one source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    pub fn len(&self) -> usize {
        self.end.saturating_sub(self.start)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl From<std::ops::Range<usize>> for Span {
    fn from(r: std::ops::Range<usize>) -> Self {
        Span::new(r.start, r.end)
    }
}

/// A value together with the span of the text that set it.
///
/// After profiles are merged onto hosts, the span is the line that actually
/// set the value: the host's override or the profile's line.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Sp<T> {
    pub value: T,
    pub span: Span,
}

impl<T> Sp<T> {
    pub fn new(value: T, span: Span) -> Self {
        Sp { value, span }
    }

    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Sp<U> {
        Sp {
            value: f(self.value),
            span: self.span,
        }
    }

    pub fn as_ref(&self) -> Sp<&T> {
        Sp {
            value: &self.value,
            span: self.span,
        }
    }
}

impl<T: Copy> Sp<T> {
    pub fn get(&self) -> T {
        self.value
    }
}

impl<T> std::ops::Deref for Sp<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T: fmt::Display> fmt::Display for Sp<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}

/// 1-based line and column (columns count characters, not bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

/// A design (or config) file's text with a line index.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The path as the user gave it (used in every output).
    pub path: String,
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceFile {
            path: path.into(),
            text,
            line_starts,
        }
    }

    /// Position of a byte offset; offsets past the end clamp to the end and
    /// offsets inside a UTF-8 sequence move back to its first byte.
    pub fn line_col(&self, offset: usize) -> LineCol {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        let column = self.text[start..offset].chars().count() + 1;
        LineCol {
            line: line + 1,
            column,
        }
    }

    /// Start and end positions of a span. The end is exclusive in bytes and
    /// reported as the column just after the last character, as SARIF and
    /// GitHub expect.
    pub fn range(&self, span: Span) -> (LineCol, LineCol) {
        (
            self.line_col(span.start),
            self.line_col(span.end.max(span.start)),
        )
    }

    /// The text of the line holding `offset`, without its line break.
    pub fn line_text(&self, line: usize) -> &str {
        let Some(&start) = self.line_starts.get(line.saturating_sub(1)) else {
            return "";
        };
        let end = self
            .line_starts
            .get(line)
            .copied()
            .unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }

    pub fn slice(&self, span: Span) -> &str {
        self.text
            .get(span.start.min(self.text.len())..span.end.min(self.text.len()))
            .unwrap_or("")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_are_one_based() {
        let f = SourceFile::new("x.toml", "a = 1\nbé = 2\n");
        assert_eq!(f.line_col(0), LineCol { line: 1, column: 1 });
        assert_eq!(f.line_col(6), LineCol { line: 2, column: 1 });
        // `é` is two bytes: the `=` after it is the 4th character.
        assert_eq!(f.line_col(10), LineCol { line: 2, column: 4 });
        assert_eq!(f.line_col(999), LineCol { line: 3, column: 1 });
        assert_eq!(f.line_col(8), LineCol { line: 2, column: 2 });
        assert_eq!(f.line_text(2), "bé = 2");
    }
}
