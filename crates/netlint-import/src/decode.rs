//! Bytes to text, once and the same way for every reader (configs, LLDP
//! tables, cabling CSVs, host JSON and CliXml).
//!
//! In order:
//!
//! 1. a byte-order mark: UTF-8 (`EF BB BF`), UTF-16 LE (`FF FE`, what
//!    Windows PowerShell 5.1's `>` and `Out-File` write) or UTF-16 BE
//!    (`FE FF`); the mark is not part of the text;
//! 2. UTF-16 without a mark, by its NUL pattern: ASCII text in UTF-16 LE
//!    has a NUL at every odd offset (`h\0o\0`), in BE at every even one;
//!    at least three quarters of the first 512 code units must show it;
//! 3. UTF-8;
//! 4. anything else is read as Latin-1 (ISO 8859-1, every byte a
//!    character, so nothing is lost or refused), with a note saying so: a
//!    description typed on a Windows-1252 console is the usual cause.
//!
//! Invalid UTF-16 (an unpaired surrogate) is replaced (U+FFFD) with a
//! note. Line endings are left as they are (the readers take `\r\n`).

/// What [`decode`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf8Bom,
    Utf16Le,
    Utf16Be,
    /// UTF-16 LE without a byte-order mark.
    Utf16LeNoBom,
    /// UTF-16 BE without a byte-order mark.
    Utf16BeNoBom,
    Latin1,
}

/// The text of `bytes` and, when it was not plain UTF-8 or UTF-16, a note
/// saying how it was read (for the user: `file: note`).
pub fn decode(bytes: &[u8]) -> (String, Option<String>) {
    let (text, _, note) = decode_with(bytes);
    (text, note)
}

/// [`decode`], also naming the encoding found.
pub fn decode_with(bytes: &[u8]) -> (String, Encoding, Option<String>) {
    match bytes {
        [0xEF, 0xBB, 0xBF, rest @ ..] => {
            let (t, e, n) = utf8_or_latin1(rest);
            let e = if e == Encoding::Utf8 {
                Encoding::Utf8Bom
            } else {
                e
            };
            (t, e, n)
        }
        [0xFF, 0xFE, rest @ ..] => {
            let (t, n) = utf16(rest, true);
            (t, Encoding::Utf16Le, n)
        }
        [0xFE, 0xFF, rest @ ..] => {
            let (t, n) = utf16(rest, false);
            (t, Encoding::Utf16Be, n)
        }
        _ => match nul_pattern(bytes) {
            Some(true) => {
                let (t, n) = utf16(bytes, true);
                (t, Encoding::Utf16LeNoBom, n)
            }
            Some(false) => {
                let (t, n) = utf16(bytes, false);
                (t, Encoding::Utf16BeNoBom, n)
            }
            None => utf8_or_latin1(bytes),
        },
    }
}

fn utf8_or_latin1(bytes: &[u8]) -> (String, Encoding, Option<String>) {
    match std::str::from_utf8(bytes) {
        Ok(t) => (t.to_string(), Encoding::Utf8, None),
        Err(e) => {
            let at = e.valid_up_to();
            let line = bytes[..at].iter().filter(|b| **b == b'\n').count() + 1;
            let text: String = bytes.iter().map(|&b| b as char).collect();
            (
                text,
                Encoding::Latin1,
                Some(format!(
                    "not UTF-8 (byte 0x{:02X} on line {line}): read as Latin-1 (ISO 8859-1); save it as UTF-8 if a name reads wrong",
                    bytes[at]
                )),
            )
        }
    }
}

/// `Some(true)` for UTF-16 LE without a mark, `Some(false)` for BE.
fn nul_pattern(bytes: &[u8]) -> Option<bool> {
    let units: Vec<&[u8]> = bytes.chunks_exact(2).take(512).collect();
    if units.len() < 2 {
        return None;
    }
    let le = units.iter().filter(|u| u[0] != 0 && u[1] == 0).count();
    let be = units.iter().filter(|u| u[0] == 0 && u[1] != 0).count();
    let need = units.len() * 3 / 4;
    if le >= need.max(1) && le > be {
        Some(true)
    } else if be >= need.max(1) && be > le {
        Some(false)
    } else {
        None
    }
}

fn utf16(body: &[u8], le: bool) -> (String, Option<String>) {
    let units = body.chunks_exact(2).map(|c| {
        if le {
            u16::from_le_bytes([c[0], c[1]])
        } else {
            u16::from_be_bytes([c[0], c[1]])
        }
    });
    let mut bad = 0usize;
    let mut text: String = char::decode_utf16(units)
        .map(|r| {
            r.unwrap_or_else(|_| {
                bad += 1;
                char::REPLACEMENT_CHARACTER
            })
        })
        .collect();
    let odd = body.len() % 2 == 1;
    if odd {
        text.push(char::REPLACEMENT_CHARACTER);
    }
    let note = (bad > 0 || odd).then(|| {
        format!(
            "UTF-16 text with {} invalid code unit(s){}: replaced by U+FFFD",
            bad,
            if odd {
                " and an odd byte at the end"
            } else {
                ""
            }
        )
    });
    (text, note)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16le(s: &str, bom: bool) -> Vec<u8> {
        let mut v = if bom { vec![0xFF, 0xFE] } else { Vec::new() };
        v.extend(s.encode_utf16().flat_map(u16::to_le_bytes));
        v
    }

    fn utf16be(s: &str, bom: bool) -> Vec<u8> {
        let mut v = if bom { vec![0xFE, 0xFF] } else { Vec::new() };
        v.extend(s.encode_utf16().flat_map(u16::to_be_bytes));
        v
    }

    #[test]
    fn every_encoding_reads_to_the_same_text() {
        let s = "hostname tor1\r\ninterface Ethernet1/1\r\n  description café\r\n";
        let mut bom8 = vec![0xEF, 0xBB, 0xBF];
        bom8.extend(s.as_bytes());
        for (bytes, enc) in [
            (s.as_bytes().to_vec(), Encoding::Utf8),
            (bom8, Encoding::Utf8Bom),
            (utf16le(s, true), Encoding::Utf16Le),
            (utf16be(s, true), Encoding::Utf16Be),
            (utf16le(s, false), Encoding::Utf16LeNoBom),
            (utf16be(s, false), Encoding::Utf16BeNoBom),
        ] {
            let (t, e, note) = decode_with(&bytes);
            assert_eq!(t, s);
            assert_eq!(e, enc);
            assert_eq!(note, None);
        }
    }

    #[test]
    fn latin1_is_read_with_a_note() {
        let (t, e, note) = decode_with(b"hostname tor1\ndescription caf\xe9\n");
        assert_eq!(t, "hostname tor1\ndescription café\n");
        assert_eq!(e, Encoding::Latin1);
        let note = note.unwrap();
        assert!(note.contains("0xE9 on line 2"), "{note}");
    }

    #[test]
    fn short_and_binary_inputs_do_not_panic() {
        for b in [
            &b""[..],
            b"\xff",
            b"\xff\xfe\x00",
            b"\xfe\xff\xd8\x00",
            b"a\0",
            b"\0\0\0\0",
        ] {
            let _ = decode(b);
        }
        let (t, n) = decode(b"\xff\xfe\x00\xd8");
        assert_eq!(t, "\u{fffd}");
        assert!(n.is_some());
    }
}
