//! Characters that must not reach a terminal or a diagram raw: control
//! characters (C0, DEL, C1: terminal escape sequences, line breaks inside a
//! name) and the Unicode bidirectional controls (text shown in another
//! order than it is stored). Names are refused at load; renderers escape
//! whatever text they print with [`escape`].

use std::borrow::Cow;

/// Whether `c` is a control character or a bidirectional control.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// `s` with every unsafe character written as `\u{1b}`; `s` itself when
/// it has none.
pub fn escape(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_unsafe) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_unsafe(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Like [`escape`], but keeps line breaks and tabs: for multi-line free
/// text (an `allow` reason) printed as it was written.
pub fn escape_keep_lines(s: &str) -> Cow<'_, str> {
    if !s.chars().any(|c| is_unsafe(c) && !matches!(c, '\n' | '\t')) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(
        s.split('\n')
            .map(|line| {
                line.split('\t')
                    .map(|part| escape(part).into_owned())
                    .collect::<Vec<_>>()
                    .join("\t")
            })
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_controls_and_bidi_only() {
        assert_eq!(escape("tor-a"), "tor-a");
        assert_eq!(escape("ünïcode ok"), "ünïcode ok");
        assert_eq!(escape("a\u{1b}[31mb"), "a\\u{1b}[31mb");
        assert_eq!(escape("x\ny\u{7f}"), "x\\u{a}y\\u{7f}");
        assert_eq!(escape("\u{202e}evil"), "\\u{202e}evil");
        assert_eq!(escape_keep_lines("a\n\tb\u{1b}"), "a\n\tb\\u{1b}");
    }
}
