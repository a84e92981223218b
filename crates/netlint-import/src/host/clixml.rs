//! CliXml, the file format of PowerShell's `Export-Clixml`, into the
//! generic value tree ([`Node`]) the host readers share, every value with
//! the line it was written on.
//!
//! The object model read here is the one of the PowerShell Remoting
//! Protocol, [MS-PSRP] 2.2.5 "Serialization" (the format `Export-Clixml`
//! writes and `Import-Clixml` reads):
//!
//! - a file is `<Objs>` holding one element per object of the pipeline;
//! - a complex object is `<Obj RefId="n">` with its type names (`<TN
//!   RefId="m"><T>...</T></TN>`, or `<TNRef RefId="m"/>` naming a list
//!   written before), its `<ToString>`, its adapted properties `<Props>` and
//!   extended members `<MS>` (both become the keys of one map, as
//!   `Import-Clixml` gives them), a collection (`<LST>`, `<IE>`, `<STK>`,
//!   `<QUE>`: a list; `<DCT>` of `<En>` with `Key` / `Value`: a map) or a
//!   primitive value it wraps;
//! - `<Ref RefId="n"/>` is the object of that RefId written earlier in the
//!   file (its value is repeated here);
//! - an enum is an object whose type names include `System.Enum`: its
//!   `<ToString>` is its name (`"External"`) and a primitive (`<I32>2</I32>`)
//!   its number; the name is kept, the number when there is no name;
//! - primitives: `S` string, `C` char, `B` boolean, `DT` date-time, `TS`
//!   duration, `By` / `SB` / `U16` / `I16` / `U32` / `I32` / `U64` / `I64`
//!   integers, `Sg` / `Db` / `D` floating and decimal, `BA` base64 bytes,
//!   `G` GUID, `URI`, `Version`, `XD` XML, `SBK` script block, `SS` secure
//!   string, `Nil` null, `PR` progress record;
//! - text and property names escape characters XML cannot hold as
//!   `_xHHHH_` (UTF-16 units: `_x000D__x000A_` is a line break, a
//!   surrogate pair is two escapes) and `_` itself as `_x005F_`.
//!
//! Strings, dates, durations, GUIDs and versions stay text; numbers become
//! [`Value::Int`] (an unsigned 64-bit number above `i64::MAX` a
//! [`Value::Float`]) or [`Value::Float`].
//!
//! Files are read as `Export-Clixml` writes them: UTF-16 LE with a
//! byte-order mark in Windows PowerShell 5.1, UTF-8 (with or without a
//! mark) in PowerShell 7 ([`decode`]). Every problem is an [`InputError`]
//! at its line and column, all of them at once; nothing panics, however
//! deep or self-referencing the input.
//!
//! [MS-PSRP]: https://learn.microsoft.com/en-us/openspecs/windows_protocols/ms-psrp/

use std::collections::HashMap;

use super::value::{Node, Value};
use crate::error::{ErrorKind, InputError};

/// Nesting deeper than this is refused (`Export-Clixml` writes depth 2 by
/// default; every level is a few elements).
const MAX_DEPTH: usize = 200;

/// References may repeat objects; the values they expand to are capped so
/// that a file of nested references cannot take the memory.
const MAX_VALUES: usize = 2_000_000;

/// Text of a CliXml file's bytes: [`crate::decode::decode`], the one
/// decoder of every reader (UTF-16 LE / BE by their byte-order mark or,
/// without one, by their NUL pattern, else UTF-8, else Latin-1).
pub fn decode(bytes: &[u8]) -> String {
    crate::decode::decode(bytes).0
}

/// Reads one `Export-Clixml` file: the objects it holds, in order.
pub fn parse(file: &str, text: &str) -> Result<Vec<Node>, Vec<InputError>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let opts = roxmltree::ParsingOptions {
        allow_dtd: false,
        ..roxmltree::ParsingOptions::default()
    };
    let doc = match roxmltree::Document::parse_with_options(text, opts) {
        Ok(d) => d,
        Err(e) => {
            let (line, column, why) = match e {
                // roxmltree places these at 1:1; the file's end is where
                // the text stops short (a truncated copy).
                roxmltree::Error::UnclosedRootNode | roxmltree::Error::UnexpectedEndOfStream => {
                    let line = text.split('\n').count() as u32;
                    let last = text.rsplit('\n').next().unwrap_or("");
                    (
                        line,
                        last.chars().count() as u32 + 1,
                        format!("the file ends before its elements close (truncated?): {e}"),
                    )
                }
                _ => {
                    let pos = e.pos();
                    (pos.row, pos.col, format!("not well-formed XML: {e}"))
                }
            };
            return Err(vec![InputError {
                file: file.to_string(),
                line,
                column,
                kind: ErrorKind::Xml(why),
            }]);
        }
    };
    let mut r = Reader {
        file,
        line_starts: std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect(),
        text,
        objects: HashMap::new(),
        replaying: 0,
        capped: false,
        building: Vec::new(),
        types: HashMap::new(),
        values: 0,
        errors: Vec::new(),
        last_col: (0, 0),
    };
    let root = doc.root_element();
    if root.tag_name().name() != "Objs" {
        r.error(
            root,
            format!(
                "not a CliXml file: the root element is <{}>, Export-Clixml writes <Objs>",
                root.tag_name().name()
            ),
        );
        return Err(r.errors);
    }
    let mut out = Vec::new();
    for child in root.children().filter(|c| c.is_element()) {
        if r.values > MAX_VALUES {
            break;
        }
        out.push(r.value(child, 0));
    }
    if r.errors.is_empty() {
        Ok(out)
    } else {
        Err(r.errors)
    }
}

/// Reads a file's bytes ([`decode`], then [`parse`]).
pub fn parse_bytes(file: &str, bytes: &[u8]) -> Result<Vec<Node>, Vec<InputError>> {
    parse(file, &decode(bytes))
}

struct Reader<'a> {
    file: &'a str,
    text: &'a str,
    line_starts: Vec<usize>,
    /// Objects by RefId, with the number of values each holds.
    /// Objects by RefId: where each is written (a reference reads it
    /// again, so that objects nobody refers to are never copied).
    objects: HashMap<String, roxmltree::NodeId>,
    /// Above 0 while a reference reads its object again: its problems were
    /// reported where it is written.
    replaying: usize,
    capped: bool,
    /// RefIds of the objects being read (a reference to one is a cycle).
    building: Vec<String>,
    /// Whether a type-name list (by its RefId) names an enum.
    types: HashMap<String, bool>,
    values: usize,
    errors: Vec<InputError>,
    /// The last byte offset a column was counted for, and the characters
    /// from its line's start to it.
    last_col: (usize, usize),
}

type XNode<'a, 'i> = roxmltree::Node<'a, 'i>;

impl Reader<'_> {
    /// The line (from 1) of byte `at`: a binary search, whatever the
    /// length of the line.
    fn row(&self, at: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= at)
    }

    /// The line and column (from 1, in characters) of byte `at`. The
    /// column counts on from the last one asked for when that is earlier on
    /// the same line (errors come in document order), so a one-line file
    /// with an error per value is not quadratic.
    fn pos(&mut self, at: usize) -> (u32, u32) {
        let row = self.row(at);
        let start = self.line_starts[row.saturating_sub(1)];
        let (from, col) = match self.last_col {
            (o, c) if o >= start && o <= at && self.text.is_char_boundary(o) => (o, c),
            _ => (start, 0),
        };
        let col = col + self.text.get(from..at).map_or(0, |s| s.chars().count());
        if self.text.is_char_boundary(at) {
            self.last_col = (at, col);
        }
        (row as u32, col as u32 + 1)
    }

    /// The line of an element: only the line, so that reading a value
    /// never counts the characters before it.
    fn line(&self, el: XNode<'_, '_>) -> u32 {
        self.row(el.range().start) as u32
    }

    fn error(&mut self, el: XNode<'_, '_>, why: String) {
        if self.replaying > 0 {
            return;
        }
        let (line, column) = self.pos(el.range().start);
        self.errors.push(InputError {
            file: self.file.to_string(),
            line,
            column,
            kind: ErrorKind::Xml(why),
        });
    }

    fn node(&mut self, el: XNode<'_, '_>, value: Value) -> Node {
        self.values += 1;
        Node {
            value,
            line: self.line(el),
        }
    }

    /// One value element: a primitive, `<Obj>` or `<Ref>`.
    fn value(&mut self, el: XNode<'_, '_>, depth: usize) -> Node {
        if depth > MAX_DEPTH {
            self.error(
                el,
                format!("objects nested deeper than {MAX_DEPTH} levels are not read"),
            );
            return self.node(el, Value::Null);
        }
        let tag = el.tag_name().name();
        match tag {
            "Obj" => self.object(el, depth),
            "Ref" => self.reference(el, depth),
            "PR" => {
                let mut map = Vec::new();
                for c in el.children().filter(|c| c.is_element()) {
                    let v = self.value_or_text(c, depth + 1);
                    map.push((c.tag_name().name().to_string(), v));
                }
                self.node(el, Value::Map(map))
            }
            _ => match self.primitive(el) {
                Some(v) => self.node(el, v),
                None => {
                    self.error(el, format!("<{tag}> is no CliXml value element"));
                    self.node(el, Value::Null)
                }
            },
        }
    }

    /// Inside a progress record, plain elements hold text.
    fn value_or_text(&mut self, el: XNode<'_, '_>, depth: usize) -> Node {
        if is_value_tag(el.tag_name().name()) {
            self.value(el, depth)
        } else {
            let t = unescape(el.text().unwrap_or(""));
            self.node(el, Value::Str(t))
        }
    }

    /// A primitive element's value; `None` when the tag is no primitive.
    /// A primitive whose text does not read is an error (and `Null`).
    fn primitive(&mut self, el: XNode<'_, '_>) -> Option<Value> {
        let tag = el.tag_name().name();
        let raw = el.text().unwrap_or("");
        let t = raw.trim();
        let bad = |r: &mut Self, what: &str| {
            r.error(el, format!("<{tag}> holds {:?}, which is no {what}", t));
            Value::Null
        };
        Some(match tag {
            "Nil" => Value::Null,
            "S" | "DT" | "TS" | "G" | "URI" | "Version" | "XD" | "SBK" | "SS" | "BA" => {
                Value::Str(unescape(raw))
            }
            "B" => match t {
                "true" | "True" | "1" => Value::Bool(true),
                "false" | "False" | "0" => Value::Bool(false),
                _ => bad(self, "boolean"),
            },
            "C" => match t.parse::<u32>().ok().and_then(char::from_u32) {
                Some(c) => Value::Str(c.to_string()),
                None => bad(self, "character code"),
            },
            "By" => int::<u8>(t).map_or_else(|| bad(self, "byte (0 to 255)"), Value::Int),
            "SB" => int::<i8>(t).map_or_else(|| bad(self, "signed byte"), Value::Int),
            "U16" => int::<u16>(t).map_or_else(|| bad(self, "16-bit unsigned integer"), Value::Int),
            "I16" => int::<i16>(t).map_or_else(|| bad(self, "16-bit integer"), Value::Int),
            "U32" => int::<u32>(t).map_or_else(|| bad(self, "32-bit unsigned integer"), Value::Int),
            "I32" => int::<i32>(t).map_or_else(|| bad(self, "32-bit integer"), Value::Int),
            "I64" => int::<i64>(t).map_or_else(|| bad(self, "64-bit integer"), Value::Int),
            "U64" => match t.parse::<u64>() {
                Ok(n) => match i64::try_from(n) {
                    Ok(i) => Value::Int(i),
                    Err(_) => Value::Float(n as f64),
                },
                Err(_) => bad(self, "64-bit unsigned integer"),
            },
            "Sg" | "Db" | "D" => match float(t) {
                Some(f) => Value::Float(f),
                None => bad(self, "number"),
            },
            _ => return None,
        })
    }

    fn reference(&mut self, el: XNode<'_, '_>, depth: usize) -> Node {
        let Some(id) = el.attribute("RefId") else {
            self.error(el, "<Ref> without RefId".to_string());
            return self.node(el, Value::Null);
        };
        if self.building.iter().any(|b| b == id) {
            // An object that holds itself: the cycle is cut here.
            return self.node(el, Value::Null);
        }
        if self.values > MAX_VALUES {
            if !self.capped {
                self.capped = true;
                let saved = std::mem::take(&mut self.replaying);
                self.error(
                    el,
                    format!("the references expand to more than {MAX_VALUES} values"),
                );
                self.replaying = saved;
            }
            return self.node(el, Value::Null);
        }
        match self.objects.get(id).copied() {
            Some(nid) => match el.document().get_node(nid) {
                Some(target) => {
                    self.replaying += 1;
                    let n = self.value(target, depth + 1);
                    self.replaying -= 1;
                    n
                }
                None => self.node(el, Value::Null),
            },
            None => {
                self.error(
                    el,
                    format!("<Ref RefId=\"{id}\"> names no object written before it"),
                );
                self.node(el, Value::Null)
            }
        }
    }

    fn object(&mut self, el: XNode<'_, '_>, depth: usize) -> Node {
        let ref_id = el.attribute("RefId").map(str::to_string);
        if let Some(id) = &ref_id {
            self.building.push(id.clone());
        }
        let mut is_enum = false;
        let mut to_string: Option<String> = None;
        let mut props: Vec<(String, Node)> = Vec::new();
        let mut collection: Option<Value> = None;
        let mut primitive: Option<Value> = None;
        for c in el.children().filter(|c| c.is_element()) {
            match c.tag_name().name() {
                "TN" => {
                    is_enum = c.children().any(|t| {
                        t.is_element()
                            && t.tag_name().name() == "T"
                            && t.text().map(str::trim) == Some("System.Enum")
                    });
                    if let Some(id) = c.attribute("RefId") {
                        self.types.insert(id.to_string(), is_enum);
                    }
                }
                "TNRef" => match c.attribute("RefId").and_then(|id| self.types.get(id)) {
                    Some(t) => is_enum = *t,
                    None => self.error(
                        c,
                        format!(
                            "<TNRef RefId=\"{}\"> names no type list written before it",
                            c.attribute("RefId").unwrap_or("")
                        ),
                    ),
                },
                "ToString" => to_string = Some(unescape(c.text().unwrap_or(""))),
                "Props" | "MS" => {
                    for p in c.children().filter(|p| p.is_element()) {
                        let Some(name) = p.attribute("N") else {
                            self.error(
                                p,
                                format!(
                                    "<{}> in <{}> without a property name (N)",
                                    p.tag_name().name(),
                                    c.tag_name().name()
                                ),
                            );
                            continue;
                        };
                        let name = unescape(name);
                        let v = self.value(p, depth + 1);
                        // Import-Clixml: an extended member hides an adapted
                        // property of the same name.
                        match props.iter_mut().find(|(k, _)| *k == name) {
                            Some(slot) => slot.1 = v,
                            None => props.push((name, v)),
                        }
                    }
                }
                "LST" | "IE" | "STK" | "QUE" => {
                    let items = c
                        .children()
                        .filter(|i| i.is_element())
                        .map(|i| self.value(i, depth + 1))
                        .collect();
                    collection = Some(Value::List(items));
                }
                "DCT" => {
                    let mut map = Vec::new();
                    for en in c.children().filter(|e| e.is_element()) {
                        if en.tag_name().name() != "En" {
                            self.error(en, "a <DCT> holds <En> entries only".to_string());
                            continue;
                        }
                        let mut key = None;
                        let mut value = None;
                        for kv in en.children().filter(|k| k.is_element()) {
                            match kv.attribute("N") {
                                Some("Key") => key = Some(self.value(kv, depth + 1)),
                                Some("Value") => value = Some(self.value(kv, depth + 1)),
                                _ => self.error(
                                    kv,
                                    "an <En> holds a Key and a Value (N=\"Key\", N=\"Value\")"
                                        .to_string(),
                                ),
                            }
                        }
                        match (key, value) {
                            (Some(k), v) => {
                                let v = v.unwrap_or(Node {
                                    value: Value::Null,
                                    line: k.line,
                                });
                                map.push((key_text(&k.value), v));
                            }
                            (None, _) => self.error(en, "an <En> without a Key".to_string()),
                        }
                    }
                    collection = Some(Value::Map(map));
                }
                _ => match self.value_child(c, depth) {
                    Some(v) => primitive = Some(v),
                    None => {
                        let tag = c.tag_name().name().to_string();
                        self.error(c, format!("<{tag}> is not part of a CliXml <Obj>"));
                    }
                },
            }
        }
        let value = if is_enum {
            match (to_string, primitive) {
                (Some(s), _) => Value::Str(s),
                (None, Some(p)) => p,
                (None, None) => Value::Null,
            }
        } else if let Some(coll) = collection {
            coll
        } else if !props.is_empty() {
            Value::Map(props)
        } else if let Some(p) = primitive {
            p
        } else if let Some(s) = to_string {
            Value::Str(s)
        } else {
            Value::Map(Vec::new())
        };
        let node = self.node(el, value);
        if let Some(id) = ref_id {
            self.building.pop();
            self.objects.insert(id, el.id());
        }
        node
    }

    /// A primitive wrapped by an `<Obj>`.
    fn value_child(&mut self, c: XNode<'_, '_>, depth: usize) -> Option<Value> {
        let tag = c.tag_name().name();
        if !is_value_tag(tag) {
            return None;
        }
        Some(self.value(c, depth + 1).value)
    }
}

fn is_value_tag(tag: &str) -> bool {
    matches!(
        tag,
        "Nil"
            | "S"
            | "DT"
            | "TS"
            | "G"
            | "URI"
            | "Version"
            | "XD"
            | "SBK"
            | "SS"
            | "BA"
            | "B"
            | "C"
            | "By"
            | "SB"
            | "U16"
            | "I16"
            | "U32"
            | "I32"
            | "I64"
            | "U64"
            | "Sg"
            | "Db"
            | "D"
            | "Obj"
            | "Ref"
            | "PR"
    )
}

fn int<T: std::str::FromStr + Into<i64>>(t: &str) -> Option<i64> {
    t.parse::<T>().ok().map(Into::into)
}

/// XML Schema doubles: `INF`, `-INF`, `NaN` besides numbers.
fn float(t: &str) -> Option<f64> {
    match t {
        "INF" => Some(f64::INFINITY),
        "-INF" => Some(f64::NEG_INFINITY),
        "NaN" => Some(f64::NAN),
        _ => t.parse::<f64>().ok().filter(|f| f.is_finite()),
    }
}

/// A dictionary key as map key text.
fn key_text(v: &Value) -> String {
    match v {
        Value::Str(s) => s.clone(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => f.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Null => String::new(),
        Value::List(_) | Value::Map(_) => "?".to_string(),
    }
}

/// Undoes CliXml's `_xHHHH_` escapes (UTF-16 units; a lone surrogate
/// becomes U+FFFD).
pub fn unescape(s: &str) -> String {
    if !s.contains("_x") {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut units: Vec<u16> = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    let flush = |units: &mut Vec<u16>, out: &mut String| {
        out.extend(
            char::decode_utf16(units.drain(..)).map(|r| r.unwrap_or(char::REPLACEMENT_CHARACTER)),
        );
    };
    while i < b.len() {
        if b[i] == b'_'
            && i + 7 <= b.len()
            && b[i + 1] == b'x'
            && b[i + 6] == b'_'
            && b[i + 2..i + 6].iter().all(u8::is_ascii_hexdigit)
        {
            // Indices checked ASCII above, so the slice is on char bounds.
            if let Ok(u) = u16::from_str_radix(&s[i + 2..i + 6], 16) {
                units.push(u);
                i += 7;
                continue;
            }
        }
        flush(&mut units, &mut out);
        let ch = s[i..].chars().next().unwrap_or('\u{FFFD}');
        out.push(ch);
        i += ch.len_utf8();
    }
    flush(&mut units, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(xml: &str) -> Value {
        let v = parse("t.xml", xml).unwrap();
        assert_eq!(v.len(), 1);
        v.into_iter().next().unwrap().value
    }

    fn get<'a>(v: &'a Value, key: &str) -> &'a Value {
        match v {
            Value::Map(m) => &m.iter().find(|(k, _)| k == key).unwrap().1.value,
            other => panic!("not a map: {other:?}"),
        }
    }

    const NS: &str =
        r#"<Objs Version="1.1.0.1" xmlns="http://schemas.microsoft.com/powershell/2004/04">"#;

    #[test]
    fn primitives_at_top_level() {
        let xml = format!(
            "{NS}\n<S>a_x000D__x000A_b</S>\n<I32>-5</I32>\n<U64>18446744073709551615</U64>\n<B>true</B>\n<Nil />\n<Db>1.5</Db>\n<C>65</C>\n</Objs>"
        );
        let v = parse("t.xml", &xml).unwrap();
        assert_eq!(v[0].value, Value::Str("a\r\nb".into()));
        assert_eq!(v[0].line, 2);
        assert_eq!(v[1].value, Value::Int(-5));
        assert_eq!(v[2].value, Value::Float(18446744073709551615.0));
        assert_eq!(v[3].value, Value::Bool(true));
        assert_eq!(v[4].value, Value::Null);
        assert_eq!(v[5].value, Value::Float(1.5));
        assert_eq!(v[6].value, Value::Str("A".into()));
    }

    #[test]
    fn props_and_members_merge_enum_by_name_and_refs_repeat() {
        let xml = format!(
            r#"{NS}
  <Obj RefId="0">
    <TN RefId="0"><T>Microsoft.HyperV.PowerShell.VMSwitch</T><T>System.Object</T></TN>
    <ToString>VMSwitch</ToString>
    <Props>
      <S N="Name">SETswitch</S>
      <Obj N="SwitchType" RefId="1">
        <TN RefId="1"><T>Microsoft.HyperV.PowerShell.VMSwitchType</T><T>System.Enum</T><T>System.ValueType</T><T>System.Object</T></TN>
        <ToString>External</ToString>
        <I32>2</I32>
      </Obj>
      <Obj N="NetAdapterInterfaceDescriptions" RefId="2">
        <TN RefId="2"><T>System.String[]</T><T>System.Array</T><T>System.Object</T></TN>
        <LST><S>NIC_x005F_1</S><S>NIC2</S></LST>
      </Obj>
    </Props>
    <MS><B N="EmbeddedTeamingEnabled">true</B><Ref N="Again" RefId="2" /></MS>
  </Obj>
  <Obj RefId="3"><TNRef RefId="1" /><ToString>Internal</ToString><I32>1</I32></Obj>
</Objs>"#
        );
        let all = parse("t.xml", &xml).unwrap();
        let sw = &all[0].value;
        assert_eq!(all[0].line, 2);
        assert_eq!(get(sw, "Name"), &Value::Str("SETswitch".into()));
        assert_eq!(get(sw, "SwitchType"), &Value::Str("External".into()));
        assert_eq!(get(sw, "EmbeddedTeamingEnabled"), &Value::Bool(true));
        let Value::List(l) = get(sw, "NetAdapterInterfaceDescriptions") else {
            panic!()
        };
        assert_eq!(l[0].value, Value::Str("NIC_1".into()));
        assert_eq!(l[1].line, 14);
        assert_eq!(get(sw, "Again"), get(sw, "NetAdapterInterfaceDescriptions"));
        assert_eq!(all[1].value, Value::Str("Internal".into()));
    }

    #[test]
    fn enum_without_name_keeps_its_number_and_dictionaries_are_maps() {
        let xml = format!(
            r#"{NS}<Obj RefId="0"><TN RefId="0"><T>X.Mode</T><T>System.Enum</T></TN><I32>4</I32></Obj>
<Obj RefId="1"><TN RefId="1"><T>System.Collections.Hashtable</T></TN><DCT><En><S N="Key">a</S><I32 N="Value">1</I32></En><En><I32 N="Key">7</I32><Nil N="Value" /></En></DCT></Obj></Objs>"#
        );
        let all = parse("t.xml", &xml).unwrap();
        assert_eq!(all[0].value, Value::Int(4));
        assert_eq!(get(&all[1].value, "a"), &Value::Int(1));
        assert_eq!(get(&all[1].value, "7"), &Value::Null);
    }

    #[test]
    fn utf16_with_bom_decodes() {
        let text = format!("{NS}<S>x</S></Objs>");
        let mut bytes = vec![0xFF, 0xFE];
        for u in text.encode_utf16() {
            bytes.extend(u.to_le_bytes());
        }
        assert_eq!(
            parse_bytes("t.xml", &bytes).unwrap()[0].value,
            Value::Str("x".into())
        );
    }

    #[test]
    fn errors_are_located_and_all_reported() {
        let xml = format!("{NS}\n<I32>abc</I32>\n<Ref RefId=\"9\" />\n<Foo/>\n</Objs>");
        let e = parse("t.xml", &xml).unwrap_err();
        assert_eq!(e.len(), 3);
        assert_eq!((e[0].line, e[1].line, e[2].line), (2, 3, 4));
        assert!(e[0].to_string().contains("\"abc\""), "{}", e[0]);
        let e = parse("t.xml", "<Objs>\n<S>x</Objs>").unwrap_err();
        assert_eq!(e[0].line, 2);
        let e = parse("t.xml", "<root/>").unwrap_err();
        assert!(e[0].to_string().contains("Export-Clixml writes <Objs>"));
    }

    #[test]
    fn a_self_reference_is_cut_not_followed() {
        let xml = format!(r#"{NS}<Obj RefId="0"><MS><Ref N="Me" RefId="0" /></MS></Obj></Objs>"#);
        assert_eq!(get(&one(&xml), "Me"), &Value::Null);
    }

    #[test]
    fn unescape_pairs_and_plain_underscores() {
        assert_eq!(unescape("_xD83D__xDE00_"), "\u{1F600}");
        assert_eq!(unescape("a_b_x12_"), "a_b_x12_");
        assert_eq!(unescape("_xD83D_"), "\u{FFFD}");
    }

    #[test]
    fn one_line_with_many_values_reads_in_linear_time() {
        // Each value counted the characters from the start of its line:
        // 200,000 values on one line took over 20 s.
        let n = 200_000;
        let mut xml = format!("{NS}\n");
        xml.push_str("<Obj RefId=\"0\"><LST>");
        for i in 0..n {
            xml.push_str(&format!("<I32>{i}</I32>"));
        }
        xml.push_str("</LST></Obj></Objs>");
        let started = std::time::Instant::now();
        let v = parse("t.xml", &xml).unwrap();
        let took = started.elapsed();
        assert!(
            took.as_secs_f64() < 5.0,
            "{n} values on one line took {took:?}"
        );
        let Value::List(items) = &v[0].value else {
            panic!("{:?}", v[0].value)
        };
        assert_eq!(items.len(), n);
        assert_eq!(items[n - 1].line, 2);
    }

    #[test]
    fn errors_on_one_line_have_their_columns_in_linear_time() {
        let n = 100_000;
        let mut xml = format!("{NS}\n");
        xml.push_str("<Obj RefId=\"0\"><LST>");
        let first = xml[xml.rfind('\n').unwrap() + 1..].chars().count() as u32 + 1;
        // 12 characters (13 bytes) each: columns count characters.
        let columns: Vec<u32> = (0..n as u32).map(|i| first + 12 * i).collect();
        for _ in 0..n {
            xml.push_str("<I32>é</I32>");
        }
        xml.push_str("</LST></Obj></Objs>");
        let started = std::time::Instant::now();
        let e = parse("t.xml", &xml).unwrap_err();
        let took = started.elapsed();
        assert!(
            took.as_secs_f64() < 5.0,
            "{n} errors on one line took {took:?}"
        );
        assert_eq!(e.len(), n);
        let got: Vec<u32> = e.iter().map(|e| e.column).collect();
        assert_eq!(got, columns);
        assert!(e.iter().all(|e| e.line == 2));
    }
}
