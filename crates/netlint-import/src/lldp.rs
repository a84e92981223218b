//! `show lldp neighbors detail` of NX-OS, EOS, IOS and OS10 as text, and
//! the `| json` of NX-OS and EOS: who is cabled to which port.

use serde_json::Value;

use crate::error::{ErrorKind, InputError};
use crate::model::Sourced;
use crate::names::IfName;
use crate::source::{self, line_of, line_starts, Noise};
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
    let first = lines.iter().find(|l| l.body().starts_with('{'));
    let last = lines.iter().rev().find(|l| l.body().ends_with('}'));
    let (Some(first), Some(last)) = (first, last) else {
        let at = lines
            .iter()
            .find(|l| !l.body().is_empty() && l.noise == Noise::None);
        return Err(err(
            at.map_or(1, |l| l.no),
            0,
            ErrorKind::Json("no JSON object in the file".into()),
        ));
    };
    for l in &lines {
        if l.no < first.no || l.no > last.no {
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
    let end = starts.get(last.no as usize).copied().unwrap_or(text.len());
    let slice = &text[begin..end];
    let root: Value = serde_json::from_str(slice).map_err(|e| {
        err(
            first.no + e.line().max(1) as u32 - 1,
            e.column() as u32,
            ErrorKind::Json(format!(
                "JSON does not parse: {}",
                strip_position(&e.to_string())
            )),
        )
    })?;
    // The k-th occurrence of a key in the text is the k-th row's line.
    let occurrences = |key: &str| -> Vec<u32> {
        let pat = format!("\"{key}\"");
        slice
            .match_indices(&pat)
            .map(|(i, _)| line_of(&starts, begin + i))
            .collect()
    };
    match format {
        LldpFormat::NxOsJson => {
            let Some(rows) = root
                .get("TABLE_nbor_detail")
                .map(|t| t.get("ROW_nbor_detail"))
            else {
                if root.as_object().is_some_and(|o| o.is_empty()) {
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
            let rows: Vec<&Value> = match rows {
                Some(Value::Array(a)) => a.iter().collect(),
                Some(v @ Value::Object(_)) => vec![v],
                _ => Vec::new(),
            };
            let keys = [
                "l_port_id",
                "chassis_id",
                "port_id",
                "port_desc",
                "sys_name",
            ];
            flat_rows(&mut t, &rows, &occurrences(keys[0]), first.no, keys);
        }
        LldpFormat::EosJson => match root.get("lldpNeighbors") {
            Some(Value::Object(ports)) => {
                for (local, info) in ports {
                    let line =
                        key_line(slice, local).map_or(first.no, |i| line_of(&starts, begin + i));
                    let list = info.get("lldpNeighborInfo").and_then(Value::as_array);
                    for n in list.into_iter().flatten() {
                        let iface = n.get("neighborInterfaceInfo");
                        let s = |v: Option<&Value>, key: &str| {
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
            Some(Value::Array(rows)) => {
                let rows: Vec<&Value> = rows.iter().collect();
                let keys = ["port", "", "neighborPort", "", "neighborDevice"];
                flat_rows(&mut t, &rows, &occurrences(keys[4]), first.no, keys);
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
    Ok(t)
}

/// Rows of a flat neighbour table: `keys` names the fields of the local
/// port, chassis, port id, port description and system name (`""`: none);
/// the k-th row is at `lines_at[k]`, the k-th occurrence of a key.
fn flat_rows(
    t: &mut LldpTable,
    rows: &[&Value],
    lines_at: &[u32],
    default_line: u32,
    keys: [&str; 5],
) {
    for (k, row) in rows.iter().enumerate() {
        let line = lines_at.get(k).copied().unwrap_or(default_line);
        let s = |key: &str| {
            (!key.is_empty())
                .then(|| row.get(key).and_then(json_str))
                .flatten()
        };
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
fn json_str(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => value(s),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Where `"key"` is written as an object key (followed by `:`).
fn key_line(text: &str, key: &str) -> Option<usize> {
    let pat = format!("\"{key}\"");
    text.match_indices(&pat)
        .map(|(i, _)| i)
        .find(|i| text[i + pat.len()..].trim_start().starts_with(':'))
}

/// serde_json appends " at line L column C"; the error carries them.
fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(p) => msg[..p].to_string(),
        None => msg.to_string(),
    }
}
