//! `ConvertTo-Json` output read into the located [`Value`] tree.
//!
//! A small hand-written reader rather than serde_json: serde_json's
//! `Value` keeps no positions, and every host fact must name the line it
//! came from. The grammar is RFC 8259 JSON; what PowerShell adds around it
//! is handled here:
//!
//! - encodings: UTF-16 LE with BOM (`Out-File` and `>` in Windows
//!   PowerShell 5.1), UTF-16 BE with BOM, UTF-8 with or without BOM, and
//!   UTF-16 LE without BOM (detected from the NUL bytes);
//! - `"\/Date(1700000000000)\/"` (5.1's DateTime) is an ordinary string;
//! - a one-object result is written as the object, not a one-element
//!   array ([`Node::items`] takes either);
//! - objects deeper than `-Depth` are written as their type name or as
//!   `"@{...}"` text: a string where an object was expected, so the facts
//!   under it are unknown (see [`super::hyperv::is_truncated`]).
//!
//! Malformed input is an [`InputError`] at its line and column; nesting is
//! limited to 512 levels, so nothing overflows the stack.

use std::collections::BTreeMap;

use crate::error::{ErrorKind, InputError};

use super::value::{Collection, Node, Value};

const MAX_DEPTH: usize = 512;

/// Bytes to text: [`crate::decode::decode`], the one decoder of every
/// reader (BOMs and UTF-16 as described above; not UTF-8 is Latin-1).
pub fn decode(bytes: &[u8]) -> String {
    crate::decode::decode(bytes).0
}

/// Whether decoded text looks like a netlint host collection: a JSON
/// object with a `Cmdlets` member (written by `netlint collect hyperv`).
pub fn looks_like_collection(text: &str) -> bool {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    t.starts_with('{') && {
        let head: String = t.chars().take(4096).collect();
        head.to_ascii_lowercase().contains("\"cmdlets\"")
    }
}

/// Parses JSON text with line numbers.
pub fn parse(file: &str, text: &str) -> Result<Node, InputError> {
    let mut p = Parser {
        file,
        s: text.as_bytes(),
        i: 0,
        line: 1,
        line_start: 0,
    };
    if text.starts_with('\u{feff}') {
        p.i = 3;
        p.line_start = 3;
    }
    p.ws();
    if p.i >= p.s.len() {
        return Err(p.err("the file holds no JSON".into()));
    }
    let v = p.value(0)?;
    p.ws();
    if p.i < p.s.len() {
        return Err(p.err("unexpected text after the JSON value".into()));
    }
    Ok(v)
}

/// Reads one collection file (bytes as written on the host).
pub fn read_collection(file: &str, bytes: &[u8]) -> Result<Collection, InputError> {
    let text = decode(bytes);
    let root = parse(file, &text)?;
    let cmdlets_node = root.get("Cmdlets").ok_or_else(|| InputError {
        file: file.to_string(),
        line: root.line,
        column: 0,
        kind: ErrorKind::Json(
            "not a netlint host collection: the object has no `Cmdlets` member (write it with `netlint collect hyperv`)".into(),
        ),
    })?;
    let Some(map) = cmdlets_node.as_map() else {
        return Err(InputError {
            file: file.to_string(),
            line: cmdlets_node.line,
            column: 0,
            kind: ErrorKind::Json("`Cmdlets` is not an object of cmdlet outputs".into()),
        });
    };
    let mut cmdlets = BTreeMap::new();
    for (k, v) in map {
        cmdlets.insert(k.clone(), v.clone());
    }
    let host = root
        .get_any(&["ComputerName", "Host"])
        .and_then(Node::scalar_text)
        .filter(|h| !h.trim().is_empty());
    Ok(Collection {
        file: file.to_string(),
        host,
        cmdlets,
    })
}

/// Cmdlets that failed on the host, from the collection's `Errors` member
/// (`{ "Get-NetIntent": "The term 'Get-NetIntent' is not recognized ..." }`).
pub fn errors(file: &str, bytes: &[u8]) -> Vec<(String, String, u32)> {
    let text = decode(bytes);
    let Ok(root) = parse(file, &text) else {
        return Vec::new();
    };
    root.get("Errors")
        .and_then(Node::as_map)
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.scalar_text().unwrap_or_default(), v.line))
                .collect()
        })
        .unwrap_or_default()
}

struct Parser<'a> {
    file: &'a str,
    s: &'a [u8],
    i: usize,
    line: u32,
    line_start: usize,
}

impl Parser<'_> {
    fn err(&self, why: String) -> InputError {
        let col = std::str::from_utf8(&self.s[self.line_start..self.i.min(self.s.len())])
            .map(|t| t.chars().count())
            .unwrap_or(self.i - self.line_start);
        InputError {
            file: self.file.to_string(),
            line: self.line,
            column: col as u32 + 1,
            kind: ErrorKind::Json(why),
        }
    }

    fn ws(&mut self) {
        while let Some(&c) = self.s.get(self.i) {
            match c {
                b'\n' => {
                    self.i += 1;
                    self.line += 1;
                    self.line_start = self.i;
                }
                b'\r' => {
                    self.i += 1;
                    if self.s.get(self.i) == Some(&b'\n') {
                        self.i += 1;
                    }
                    self.line += 1;
                    self.line_start = self.i;
                }
                b' ' | b'\t' => self.i += 1,
                _ => break,
            }
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, InputError> {
        if depth > MAX_DEPTH {
            return Err(self.err(format!("JSON nested deeper than {MAX_DEPTH} levels")));
        }
        let line = self.line;
        let v = match self.s.get(self.i) {
            None => return Err(self.err("the JSON ends early".into())),
            Some(b'{') => {
                self.i += 1;
                let mut props = Vec::new();
                self.ws();
                if self.s.get(self.i) == Some(&b'}') {
                    self.i += 1;
                } else {
                    loop {
                        self.ws();
                        if self.s.get(self.i) != Some(&b'"') {
                            return Err(
                                self.err("expected a property name in double quotes".into())
                            );
                        }
                        let k = self.string()?;
                        self.ws();
                        if self.s.get(self.i) != Some(&b':') {
                            return Err(self.err("expected `:` after the property name".into()));
                        }
                        self.i += 1;
                        self.ws();
                        let v = self.value(depth + 1)?;
                        props.push((k, v));
                        self.ws();
                        match self.s.get(self.i) {
                            Some(b',') => self.i += 1,
                            Some(b'}') => {
                                self.i += 1;
                                break;
                            }
                            _ => return Err(self.err("expected `,` or `}` in the object".into())),
                        }
                    }
                }
                Value::Map(props)
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.s.get(self.i) == Some(&b']') {
                    self.i += 1;
                } else {
                    loop {
                        self.ws();
                        items.push(self.value(depth + 1)?);
                        self.ws();
                        match self.s.get(self.i) {
                            Some(b',') => self.i += 1,
                            Some(b']') => {
                                self.i += 1;
                                break;
                            }
                            _ => return Err(self.err("expected `,` or `]` in the array".into())),
                        }
                    }
                }
                Value::List(items)
            }
            Some(b'"') => Value::Str(self.string()?),
            Some(b't') => self.word("true", Value::Bool(true))?,
            Some(b'f') => self.word("false", Value::Bool(false))?,
            Some(b'n') => self.word("null", Value::Null)?,
            Some(c) if *c == b'-' || c.is_ascii_digit() => self.number()?,
            Some(_) => return Err(self.err("expected a JSON value".into())),
        };
        Ok(Node { value: v, line })
    }

    fn word(&mut self, w: &str, v: Value) -> Result<Value, InputError> {
        if self.s[self.i..].starts_with(w.as_bytes()) {
            self.i += w.len();
            Ok(v)
        } else {
            Err(self.err("expected a JSON value".into()))
        }
    }

    fn number(&mut self) -> Result<Value, InputError> {
        let start = self.i;
        if self.s.get(self.i) == Some(&b'-') {
            self.i += 1;
        }
        let digits = |p: &mut Self| {
            let s = p.i;
            while p.s.get(p.i).is_some_and(u8::is_ascii_digit) {
                p.i += 1;
            }
            p.i > s
        };
        if !digits(self) {
            return Err(self.err("a number needs digits".into()));
        }
        let mut float = false;
        if self.s.get(self.i) == Some(&b'.') {
            self.i += 1;
            float = true;
            if !digits(self) {
                return Err(self.err("a number needs digits after `.`".into()));
            }
        }
        if matches!(self.s.get(self.i), Some(b'e' | b'E')) {
            self.i += 1;
            float = true;
            if matches!(self.s.get(self.i), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if !digits(self) {
                return Err(self.err("a number needs digits in its exponent".into()));
            }
        }
        let text = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("0");
        if !float {
            if let Ok(i) = text.parse::<i64>() {
                return Ok(Value::Int(i));
            }
        }
        match text.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(Value::Float(f)),
            _ => Err(self.err(format!("the number {text} is out of range"))),
        }
    }

    fn hex4(&mut self) -> Result<u16, InputError> {
        let h = self
            .s
            .get(self.i..self.i + 4)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u16::from_str_radix(h, 16).ok())
            .ok_or_else(|| self.err("`\\u` needs four hex digits".into()))?;
        self.i += 4;
        Ok(h)
    }

    fn string(&mut self) -> Result<String, InputError> {
        self.i += 1; // opening quote
        let mut out = String::new();
        loop {
            let start = self.i;
            while let Some(&c) = self.s.get(self.i) {
                if c == b'"' || c == b'\\' || c < 0x20 {
                    break;
                }
                self.i += 1;
            }
            out.push_str(&String::from_utf8_lossy(&self.s[start..self.i]));
            match self.s.get(self.i) {
                None => return Err(self.err("the string is not closed".into())),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let Some(&e) = self.s.get(self.i) else {
                        return Err(self.err("the string is not closed".into()));
                    };
                    self.i += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let c = if (0xD800..0xDC00).contains(&hi)
                                && self.s.get(self.i..self.i + 2) == Some(b"\\u")
                            {
                                self.i += 2;
                                let lo = self.hex4()?;
                                char::decode_utf16([hi, lo])
                                    .next()
                                    .and_then(Result::ok)
                                    .unwrap_or('\u{fffd}')
                            } else {
                                char::from_u32(hi as u32).unwrap_or('\u{fffd}')
                            };
                            out.push(c);
                        }
                        _ => {
                            self.i -= 1;
                            return Err(self.err(format!(
                                "`\\{}` is no JSON escape",
                                char::from(e).escape_default()
                            )));
                        }
                    }
                }
                Some(_) => {
                    return Err(
                        self.err("a control character (line break, tab) inside a string".into())
                    )
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_values_and_powershell_shapes() {
        let text = "{\r\n  \"Name\": \"SLOT 3 Port 1\",\r\n  \"Speed\": 25000000000,\r\n  \"When\": \"\\/Date(1700000000000)\\/\",\r\n  \"X\": [1, 2.5, true, null]\r\n}";
        let n = parse("a.json", text).unwrap();
        assert_eq!(n.line, 1);
        assert_eq!(n.get("name").unwrap().line, 2);
        assert_eq!(n.get("Speed").unwrap().as_u64(), Some(25_000_000_000));
        assert_eq!(
            n.get("When").unwrap().as_str(),
            Some("/Date(1700000000000)/")
        );
        assert_eq!(n.get("X").unwrap().items().len(), 4);
        assert_eq!(n.get("X").unwrap().line, 5);
    }

    #[test]
    fn utf16_le_with_bom_and_utf8_bom() {
        let text = "{\"Cmdlets\": {\"Get-VMHost\": {\"MaximumVirtualMachineMigrations\": 2}}, \"ComputerName\": \"HV01\"}";
        let mut bytes = vec![0xFF, 0xFE];
        for u in text.encode_utf16() {
            bytes.extend(u.to_le_bytes());
        }
        let c = read_collection("hv01.json", &bytes).unwrap();
        assert_eq!(c.host.as_deref(), Some("HV01"));
        assert!(c.cmdlet("get-vmhost").is_some());
        let mut b8 = vec![0xEF, 0xBB, 0xBF];
        b8.extend(text.as_bytes());
        assert_eq!(
            read_collection("hv01.json", &b8).unwrap().host.as_deref(),
            Some("HV01")
        );
    }

    #[test]
    fn malformed_input_is_located() {
        let e = parse("x.json", "{\n  \"a\": 1,\n  \"b\" 2\n}").unwrap_err();
        assert_eq!((e.line, e.column), (3, 7));
        assert!(e.to_string().starts_with("x.json:3:7: expected `:`"), "{e}");
        let e = parse("x.json", "[1, 2").unwrap_err();
        assert_eq!(e.line, 1);
        let deep = "[".repeat(10_000);
        assert!(parse("x.json", &deep)
            .unwrap_err()
            .to_string()
            .contains("deeper"));
        let e = read_collection("x.json", b"{\"a\": 1}").unwrap_err();
        assert!(e.to_string().contains("no `Cmdlets`"), "{e}");
    }
}
