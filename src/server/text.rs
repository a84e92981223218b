//! An open document's text: LSP positions (line, UTF-16 code unit) to byte
//! offsets and back, and incremental edits.

use lsp_types::{Position, Range, TextDocumentContentChangeEvent};
use netlint_model::Span;

/// Line starts of a text, for converting between byte offsets and LSP
/// positions, which count UTF-16 code units within a line.
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// The position of a byte offset (clamped to the text, moved back to
    /// the start of a UTF-8 sequence).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.starts[line];
        let character = text[start..offset].encode_utf16().count();
        Position::new(line as u32, character as u32)
    }

    /// The byte offset of a position; a character past the end of its line
    /// is the end of the line (before the line break), a line past the end
    /// is the end of the text.
    pub fn offset(&self, text: &str, pos: Position) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else {
            return text.len();
        };
        let end = self
            .starts
            .get(pos.line as usize + 1)
            .map_or(text.len(), |e| e - 1);
        let line = &text[start..end.max(start)];
        let line = line.strip_suffix('\r').unwrap_or(line);
        let mut units = 0u32;
        for (i, c) in line.char_indices() {
            if units >= pos.character {
                return start + i;
            }
            units += c.len_utf16() as u32;
        }
        start + line.len()
    }

    pub fn range(&self, text: &str, span: Span) -> Range {
        Range::new(
            self.position(text, span.start),
            self.position(text, span.end.max(span.start)),
        )
    }
}

/// Applies the editor's changes in order (a change without a range
/// replaces the whole text).
pub fn apply_changes(text: &mut String, changes: Vec<TextDocumentContentChangeEvent>) {
    for change in changes {
        match change.range {
            None => *text = change.text,
            Some(range) => {
                let index = LineIndex::new(text);
                let start = index.offset(text, range.start);
                let end = index.offset(text, range.end).max(start);
                text.replace_range(start..end, &change.text);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        // "é" is 2 bytes and 1 UTF-16 unit; "𝄞" is 4 bytes and 2 units.
        let text = "a = \"é𝄞x\"\r\nb = 1\n";
        let idx = LineIndex::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(idx.position(text, x), Position::new(0, 8));
        assert_eq!(idx.offset(text, Position::new(0, 8)), x);
        let b = text.find('b').unwrap();
        assert_eq!(idx.position(text, b), Position::new(1, 0));
        // Past the end of a line: its end, before "\r\n".
        assert_eq!(
            idx.offset(text, Position::new(0, 99)),
            text.find('\r').unwrap()
        );
        // Past the last line: the end of the text.
        assert_eq!(idx.offset(text, Position::new(9, 0)), text.len());
    }

    #[test]
    fn incremental_changes_apply_in_order() {
        let mut text = "[design]\nname = \"x\"\n".to_string();
        apply_changes(
            &mut text,
            vec![
                TextDocumentContentChangeEvent {
                    range: Some(Range::new(Position::new(1, 8), Position::new(1, 9))),
                    range_length: None,
                    text: "yz".into(),
                },
                TextDocumentContentChangeEvent {
                    range: Some(Range::new(Position::new(2, 0), Position::new(2, 0))),
                    range_length: None,
                    text: "platform = \"vsphere-8\"\n".into(),
                },
            ],
        );
        assert_eq!(text, "[design]\nname = \"yz\"\nplatform = \"vsphere-8\"\n");
    }
}
