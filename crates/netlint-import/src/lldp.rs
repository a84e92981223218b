//! `show lldp neighbors detail` of NX-OS, EOS, IOS and OS10 as text, and
//! the `| json` of NX-OS and EOS: who is cabled to which port.

use crate::error::{ErrorKind, InputError};
use crate::host::{Node, Value};
use crate::model::Sourced;
use crate::names::IfName;
use crate::source::{self, line_starts, Noise};
use crate::summary::{Ignored, ImportSummary, LineClass, Reason};

/// Which output the table is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LldpFormat {
    NxOsText,
    EosText,
    IosText,
    Os10Text,
    NxOsJson,
    EosJson,
}

/// One neighbour seen on one local port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LldpNeighbor {
    /// The line where the neighbour's entry begins.
    pub line: u32,
    pub local_port: Sourced<IfName>,
    pub chassis_id: Option<String>,
    /// The Port ID TLV as sent (an interface name, or a MAC for a host).
    pub port_id: Option<String>,
    /// The remote port as an interface name, from the Port ID or else the
    /// port description, when either reads as one.
    pub remote_port: Option<IfName>,
    pub port_description: Option<String>,
    pub system_name: Option<String>,
}

/// A neighbour table.
#[derive(Clone, Debug)]
pub struct LldpTable {
    pub file: String,
    pub format: LldpFormat,
    /// The device the table was taken on, from the CLI prompt above it
    /// (`tor1# show lldp neighbors detail`); the table itself never names it.
    pub local_device: Option<Sourced<String>>,
    pub neighbors: Vec<LldpNeighbor>,
    pub summary: ImportSummary,
}

#[derive(Default)]
struct Draft {
    line: u32,
    local: Option<(String, u32)>,
    chassis: Option<String>,
    port: Option<String>,
    desc: Option<String>,
    name: Option<String>,
}

impl Draft {
    fn is_empty(&self) -> bool {
        self.local.is_none() && self.chassis.is_none() && self.port.is_none() && self.name.is_none()
    }
}

/// Which neighbour field a table key sets.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Field {
    Local,
    Chassis,
    Port,
    Desc,
    Name,
}

fn field(key: &str) -> Option<Field> {
    let k = key.trim().trim_start_matches("- ").to_ascii_lowercase();
    Some(match k.as_str() {
        "local port id" | "local intf" | "local interface" => Field::Local,
        "chassis id" | "remote chassis id" => Field::Chassis,
        "port id" | "remote port id" => Field::Port,
        "port description" | "remote port description" => Field::Desc,
        "system name" | "remote system name" => Field::Name,
        _ => return None,
    })
}

/// A TLV value as shown: quotes taken off; "not advertised" and the like
/// are no value.
fn value(v: &str) -> Option<String> {
    let v = v.trim().trim_matches('"').trim();
    let lower = v.to_ascii_lowercase();
    if v.is_empty() || matches!(lower.as_str(), "null" | "not advertised" | "--" | "n/a") {
        None
    } else {
        Some(v.to_string())
    }
}

/// The prompt's device name: `tor1# show lldp ...` -> `tor1`.
fn prompt_device(raw: &str) -> Option<String> {
    let p = raw.find(['#', '>'])?;
    let host = raw[..p].trim();
    let host = host.split('(').next().unwrap_or(host);
    (!host.is_empty()).then(|| host.to_string())
}

/// A table with no neighbour yet, every line of the given class.
fn empty_table(file: &str, format: LldpFormat, lines: usize, class: LineClass) -> LldpTable {
    LldpTable {
        file: file.to_string(),
        format,
        local_device: None,
        neighbors: Vec::new(),
        summary: ImportSummary {
            classes: vec![class; lines],
            ..ImportSummary::default()
        },
    }
}

/// Reads a text table.
pub fn parse_text(file: &str, text: &str, format: LldpFormat) -> LldpTable {
    let lines = source::lines(text);
    let mut t = empty_table(
        file,
        format,
        lines.len(),
        LineClass::Ignored(Ignored::TableText),
    );
    if let Some((no, text)) = source::stamp_note(&lines) {
        t.summary.note(no, text);
    }
    let mut cur = Draft::default();
    // EOS names the local port once above its neighbours.
    let mut eos_local: Option<(String, u32)> = None;
    for l in &lines {
        let body = l.body();
        let class = match l.noise {
            Noise::Prompt => {
                if t.local_device.is_none() {
                    t.local_device = prompt_device(l.text).map(|d| Sourced::at(d, l.no));
                }
                LineClass::Ignored(Ignored::Capture)
            }
            Noise::Only => LineClass::Ignored(Ignored::Capture),
            _ if body.is_empty() => LineClass::Ignored(Ignored::Blank),
            _ if body.starts_with('#') || body.starts_with('!') => {
                LineClass::Ignored(Ignored::Comment)
            }
            _ if body.starts_with("---") || body.starts_with("===") => {
                flush(&mut t, &mut cur);
                LineClass::Ignored(Ignored::TableText)
            }
            _ if format == LldpFormat::EosText
                && body.starts_with("Interface ")
                && body.contains(" detected ") =>
            {
                flush(&mut t, &mut cur);
                let name = body["Interface ".len()..]
                    .split(" detected ")
                    .next()
                    .unwrap_or("");
                eos_local = Some((name.trim().to_string(), l.no));
                LineClass::Understood
            }
            _ if format == LldpFormat::EosText && body.starts_with("Neighbor ") => {
                flush(&mut t, &mut cur);
                cur.line = l.no;
                cur.local = eos_local.clone();
                LineClass::Understood
            }
            _ => match body.split_once(':').and_then(|(k, v)| Some((field(k)?, v))) {
                Some((f, v)) => {
                    let v = value(v);
                    let taken = match f {
                        Field::Local => cur.local.is_some() && format != LldpFormat::EosText,
                        Field::Chassis => cur.chassis.is_some(),
                        Field::Port => cur.port.is_some(),
                        Field::Name => cur.name.is_some(),
                        Field::Desc => cur.desc.is_some(),
                    };
                    if taken {
                        flush(&mut t, &mut cur);
                    }
                    if cur.is_empty() && cur.line == 0 {
                        cur.line = l.no;
                    }
                    match f {
                        Field::Local => cur.local = v.map(|v| (v, l.no)),
                        Field::Chassis => cur.chassis = v,
                        Field::Port => cur.port = v,
                        Field::Desc => cur.desc = v,
                        Field::Name => cur.name = v,
                    }
                    LineClass::Understood
                }
                None => LineClass::Ignored(Ignored::TableText),
            },
        };
        t.summary.set(l.no, class);
    }
    flush(&mut t, &mut cur);
    t.summary.keep_ignored(&lines);
    t
}

fn flush(t: &mut LldpTable, cur: &mut Draft) {
    let d = std::mem::take(cur);
    if d.is_empty() {
        return;
    }
    let line = d.line.max(1);
    let Some((local, local_line)) = d.local else {
        t.summary.not_understood(
            line,
            "",
            Reason::Malformed("a neighbour without a local port".to_string()),
        );
        return;
    };
    let Some(local_port) = IfName::parse(&local) else {
        t.summary.not_understood(
            local_line,
            &local,
            Reason::Malformed(format!("local port `{local}` is not an interface name")),
        );
        return;
    };
    if d.chassis.is_none() && d.port.is_none() && d.name.is_none() {
        t.summary.not_understood(
            line,
            &local,
            Reason::Malformed("a neighbour with no chassis, port or system name".to_string()),
        );
        return;
    }
    let remote_port = d
        .port
        .as_deref()
        .and_then(IfName::parse_switch_port)
        .or_else(|| d.desc.as_deref().and_then(IfName::parse_switch_port));
    t.neighbors.push(LldpNeighbor {
        line,
        local_port: Sourced::at(local_port, local_line),
        chassis_id: d.chassis,
        port_id: d.port,
        remote_port,
        port_description: d.desc,
        system_name: d.name,
    });
}

/// Reads the `| json` of NX-OS or EOS.
///
/// The JSON runs from the first line that starts with `{` to the last line
/// after it that ends with `}`; the lines around it (the CLI prompt,
/// comments) are classified as capture. It is read with the host side's
/// position-keeping reader ([`crate::host::json`]), so every entry names
/// the line it stands on, and malformed JSON is an error at its line.
pub fn parse_json(file: &str, text: &str, format: LldpFormat) -> Result<LldpTable, InputError> {
    let lines = source::lines(text);
    let starts = line_starts(text);
    let err = |line: u32, column: u32, kind: ErrorKind| InputError {
        file: file.to_string(),
        line,
        column,
        kind,
    };
    let mut t = empty_table(file, format, lines.len(), LineClass::Understood);
    let Some(first) = lines.iter().find(|l| l.body().starts_with('{')) else {
        let at = lines
            .iter()
            .find(|l| !l.body().is_empty() && l.noise == Noise::None);
        return Err(err(
            at.map_or(1, |l| l.no),
            0,
            ErrorKind::Json("no JSON object in the file".into()),
        ));
    };
    // The last line ending in `}` at or after the first `{`; none: the JSON
    // runs to the end of the file (and the reader says where it breaks off).
    let last = lines
        .iter()
        .rev()
        .take_while(|l| l.no >= first.no)
        .find(|l| l.body().ends_with('}'))
        .map_or(lines.len() as u32, |l| l.no);
    for l in &lines {
        if l.no < first.no || l.no > last {
            let class = match l.noise {
                Noise::Prompt => {
                    if t.local_device.is_none() {
                        t.local_device = prompt_device(l.text).map(|d| Sourced::at(d, l.no));
                    }
                    LineClass::Ignored(Ignored::Capture)
                }
                _ if l.body().is_empty() => LineClass::Ignored(Ignored::Blank),
                _ if l.body().starts_with('#') || l.body().starts_with('!') => {
                    LineClass::Ignored(Ignored::Comment)
                }
                Noise::Only => LineClass::Ignored(Ignored::Capture),
                _ => {
                    t.summary.not_understood(
                        l.no,
                        l.body(),
                        Reason::Malformed("text outside the JSON".into()),
                    );
                    LineClass::NotUnderstood
                }
            };
            t.summary.set(l.no, class);
        } else if l.body().is_empty() {
            t.summary.set(l.no, LineClass::Ignored(Ignored::Blank));
        }
    }
    let begin = starts[first.no as usize - 1];
    let end = starts.get(last as usize).copied().unwrap_or(text.len());
    // The lines before the JSON become empty lines, so that the reader's
    // line numbers are the file's.
    let mut json = "\n".repeat(first.no as usize - 1);
    json.push_str(&text[begin..end]);
    let root = crate::host::json::parse(file, &json).map_err(|mut e| {
        // Broken off at the end: the last line of the file, not the one
        // after it.
        if e.line as usize > lines.len() {
            e.line = lines.len() as u32;
            e.column = 0;
        }
        e
    })?;
    match format {
        LldpFormat::NxOsJson => {
            let Some(rows) = root
                .get("TABLE_nbor_detail")
                .map(|t| t.get("ROW_nbor_detail"))
            else {
                if root.as_map().is_some_and(|o| o.is_empty()) {
                    t.summary.keep_ignored(&lines);
                    return Ok(t);
                }
                return Err(err(
                    first.no,
                    0,
                    ErrorKind::WrongKind(
                        "no TABLE_nbor_detail: not the JSON of NX-OS `show lldp neighbors detail`"
                            .into(),
                    ),
                ));
            };
            let rows: Vec<&Node> = match rows {
                Some(n) if n.as_list().is_some() || n.as_map().is_some() => {
                    n.items().iter().collect()
                }
                _ => Vec::new(),
            };
            let keys = [
                "l_port_id",
                "chassis_id",
                "port_id",
                "port_desc",
                "sys_name",
            ];
            flat_rows(&mut t, &rows, keys);
        }
        LldpFormat::EosJson => match root.get("lldpNeighbors") {
            Some(ports) if ports.as_map().is_some() => {
                for (local, info) in ports.as_map().unwrap_or_default() {
                    let line = info.line;
                    let list = info.get("lldpNeighborInfo").and_then(Node::as_list);
                    for n in list.into_iter().flatten() {
                        let iface = n.get("neighborInterfaceInfo");
                        let s = |v: Option<&Node>, key: &str| {
                            v.and_then(|v| v.get(key)).and_then(json_str)
                        };
                        let d = Draft {
                            line,
                            local: Some((local.clone(), line)),
                            chassis: s(Some(n), "chassisId"),
                            port: s(iface, "interfaceId_v2").or_else(|| s(iface, "interfaceId")),
                            desc: s(iface, "interfaceDescription"),
                            name: s(Some(n), "systemName"),
                        };
                        flush(&mut t, &mut { d });
                    }
                }
            }
            Some(rows) if rows.as_list().is_some() => {
                let rows: Vec<&Node> = rows.items().iter().collect();
                let keys = ["port", "", "neighborPort", "", "neighborDevice"];
                flat_rows(&mut t, &rows, keys);
            }
            _ => {
                return Err(err(
                    first.no,
                    0,
                    ErrorKind::WrongKind(
                        "no lldpNeighbors: not the JSON of EOS `show lldp neighbors [detail]`"
                            .into(),
                    ),
                ))
            }
        },
        _ => {}
    }
    t.summary.keep_ignored(&lines);
    Ok(t)
}

/// Rows of a flat neighbour table: `keys` names the fields of the local
/// port, chassis, port id, port description and system name (`""`: none).
/// A row stands on the line of its local port (of the row's `{` without
/// one).
fn flat_rows(t: &mut LldpTable, rows: &[&Node], keys: [&str; 5]) {
    for row in rows {
        let field = |key: &str| (!key.is_empty()).then(|| row.get(key)).flatten();
        let s = |key: &str| field(key).and_then(json_str);
        let line = field(keys[0]).map_or(row.line, |n| n.line);
        let mut d = Draft {
            line,
            local: s(keys[0]).map(|v| (v, line)),
            chassis: s(keys[1]),
            port: s(keys[2]),
            desc: s(keys[3]),
            name: s(keys[4]),
        };
        flush(t, &mut d);
    }
}

/// A JSON string or number as text; quotes EOS puts inside
/// (`"\"Ethernet1\""`) taken off.
fn json_str(v: &Node) -> Option<String> {
    match &v.value {
        Value::Str(s) => value(s),
        Value::Int(_) | Value::Float(_) => v.scalar_text(),
        _ => None,
    }
}
