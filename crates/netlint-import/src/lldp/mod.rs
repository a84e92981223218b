//! `show lldp neighbors detail` of NX-OS, EOS, IOS and OS10 as text, their
//! `show lldp neighbors` summary tables ([`table`]), and the `| json` of
//! NX-OS and EOS: who is cabled to which port, and whether it is a switch
//! or a host ([`peer`]).
//!
//! No neighbour is lost without a word: a row or entry that does not read
//! is a line not understood; several neighbours on one port are all kept,
//! with a note; a table's own count (`Total entries displayed: 3`,
//! `detected 2 LLDP neighbors`) that differs from the neighbours read is
//! a note; and a table that yields no neighbour from lines of text says
//! so.

pub mod peer;
mod table;

use crate::error::{ErrorKind, InputError};
use crate::host::{Node, Value};
use crate::model::Sourced;
use crate::names::IfName;
use crate::source::{self, line_starts, Noise, SrcLine};
use crate::summary::{Ignored, ImportSummary, LineClass, Reason};

pub use peer::{Capability, KindFrom, Peer, PeerKind};

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
    /// The System Description TLV (its first line).
    pub system_description: Option<String>,
    /// The enabled capabilities, else the system capabilities, when shown.
    pub capabilities: Option<Vec<Capability>>,
    /// Switch or host, and what says so.
    pub peer: Peer,
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
    sys_desc: Option<String>,
    /// System capabilities, then enabled capabilities (preferred).
    sys_caps: Option<Vec<Capability>>,
    en_caps: Option<Vec<Capability>>,
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
    SysDesc,
    SysCaps,
    EnCaps,
}

fn field(key: &str) -> Option<Field> {
    let k = key
        .trim()
        .trim_start_matches("- ")
        .trim()
        .to_ascii_lowercase();
    Some(match k.as_str() {
        "local port id" | "local intf" | "local interface" => Field::Local,
        "chassis id" | "remote chassis id" => Field::Chassis,
        "port id" | "remote port id" => Field::Port,
        "port description" | "remote port description" => Field::Desc,
        "system name" | "remote system name" => Field::Name,
        "system description" | "remote system desc" | "remote system description" => Field::SysDesc,
        "system capabilities" | "existing system capabilities" => Field::SysCaps,
        "enabled capabilities" | "enabled system capabilities" => Field::EnCaps,
        _ => return None,
    })
}

/// A TLV value as shown: quotes taken off; "not advertised" and the like
/// are no value.
fn value(v: &str) -> Option<String> {
    let v = v.trim().trim_matches('"').trim();
    let lower = v.to_ascii_lowercase();
    if v.is_empty()
        || matches!(
            lower.as_str(),
            "null" | "not advertised" | "- not advertised" | "--" | "n/a"
        )
    {
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

/// The class of a capture line (a prompt, noise alone, blank, a
/// comment), the prompt's device kept; `None` for a line of the table.
fn capture_class(t: &mut LldpTable, l: &SrcLine<'_>) -> Option<LineClass> {
    let body = l.body();
    Some(match l.noise {
        Noise::Prompt => {
            if t.local_device.is_none() {
                t.local_device = prompt_device(l.text).map(|d| Sourced::at(d, l.no));
            }
            LineClass::Ignored(Ignored::Capture)
        }
        Noise::Only => LineClass::Ignored(Ignored::Capture),
        _ if body.is_empty() => LineClass::Ignored(Ignored::Blank),
        _ if body.starts_with('#') || body.starts_with('!') => LineClass::Ignored(Ignored::Comment),
        _ => return None,
    })
}

/// A count a table states of itself: `Total entries displayed: 3`.
fn total_entries(body: &str) -> Option<usize> {
    body.strip_prefix("Total entries displayed:")?
        .trim()
        .parse()
        .ok()
}

/// Reads a text table: a summary table ([`table`]) when the file has one
/// and no detail entry, else the detail output.
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
    if !table::read(&mut t, &lines) {
        parse_detail(&mut t, &lines, format);
    }
    finish(&mut t, &lines);
    t
}

/// The format of a `show lldp neighbors` summary table, when the lines
/// hold one (its header, and no detail entry).
pub fn summary_format(lines: &[SrcLine<'_>]) -> Option<LldpFormat> {
    table::format(lines)
}

/// Whether a line begins a detail entry (of any of the four outputs).
fn is_detail_line(body: &str) -> bool {
    let lower = body.to_ascii_lowercase();
    [
        "local port id:",
        "local intf:",
        "chassis id:",
        "remote chassis id:",
    ]
    .iter()
    .any(|k| lower.starts_with(k))
        || (body.starts_with("Interface ") && body.contains(" LLDP neighbor"))
}

fn parse_detail(t: &mut LldpTable, lines: &[SrcLine<'_>], format: LldpFormat) {
    let eos = format == LldpFormat::EosText;
    let mut cur = Draft::default();
    // EOS names the local port once above its neighbours, with their count.
    let mut eos_local: Option<(String, u32)> = None;
    let mut eos_count: Option<(usize, u32, usize)> = None;
    let eos_entries = eos && lines.iter().any(|l| l.body().starts_with("Neighbor "));
    // The EOS TLV a sub-line belongs to (`- Port ID type: ...`).
    let mut tlv = String::new();
    // IOS writes the system description on the line after its key.
    let mut desc_follows = false;
    let mut total: Option<(usize, u32)> = None;
    for l in lines {
        let body = l.body();
        let follows = std::mem::take(&mut desc_follows);
        let class = match capture_class(t, l) {
            Some(c) => c,
            None if body.starts_with("---") || body.starts_with("===") => {
                flush(t, &mut cur);
                LineClass::Ignored(Ignored::TableText)
            }
            None if total_entries(body).is_some() => {
                total = total_entries(body).map(|n| (n, l.no));
                LineClass::Ignored(Ignored::TableText)
            }
            None if eos && body.starts_with("Interface ") && body.contains(" detected ") => {
                flush(t, &mut cur);
                eos_check(t, eos_count.take());
                let (name, rest) = body["Interface ".len()..]
                    .split_once(" detected ")
                    .unwrap_or(("", ""));
                eos_local = Some((name.trim().to_string(), l.no));
                let n = rest.split_whitespace().next().and_then(|n| n.parse().ok());
                eos_count = n.map(|n| (n, l.no, t.neighbors.len()));
                LineClass::Understood
            }
            None if eos && body.starts_with("Neighbor ") => {
                flush(t, &mut cur);
                cur.line = l.no;
                cur.local = eos_local.clone();
                tlv.clear();
                LineClass::Understood
            }
            None if follows && body.split_once(':').and_then(|(k, _)| field(k)).is_none() => {
                cur.sys_desc = value(body);
                LineClass::Understood
            }
            None => {
                let sub = eos && !body.starts_with("- ");
                if eos && !sub {
                    tlv = body[2..].split(':').next().unwrap_or("").trim().to_string();
                }
                let key = body.split_once(':').and_then(|(k, v)| Some((field(k)?, v)));
                match key {
                    // An EOS sub-line counts only under its own TLV: the
                    // `Port ID : 0` of `- IEEE802.3 Link Aggregation` is
                    // the aggregated port, no neighbour's.
                    Some((f, _)) if sub && !eos_sub_field(&tlv, f) => {
                        LineClass::Ignored(Ignored::TableText)
                    }
                    Some((f, v)) => {
                        let v = value(v);
                        let taken = match f {
                            Field::Local => cur.local.is_some() && !eos,
                            Field::Chassis => cur.chassis.is_some(),
                            Field::Port => cur.port.is_some(),
                            Field::Name => cur.name.is_some(),
                            Field::Desc => cur.desc.is_some(),
                            Field::SysDesc => cur.sys_desc.is_some(),
                            Field::SysCaps => cur.sys_caps.is_some(),
                            Field::EnCaps => cur.en_caps.is_some(),
                        };
                        if taken && eos_entries {
                            // EOS begins each neighbour with `Neighbor`: a
                            // second value in one entry starts none.
                            t.summary.not_understood(
                                l.no,
                                body,
                                Reason::Malformed(
                                    "a second value of this field in one neighbour entry"
                                        .to_string(),
                                ),
                            );
                            t.summary.set(l.no, LineClass::NotUnderstood);
                            continue;
                        }
                        if taken {
                            flush(t, &mut cur);
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
                            Field::SysDesc => {
                                desc_follows = v.is_none();
                                cur.sys_desc = v;
                            }
                            Field::SysCaps | Field::EnCaps => {
                                let caps = match v.as_deref().map(peer::capabilities) {
                                    Some(None) => {
                                        t.summary.not_understood(
                                            l.no,
                                            body,
                                            Reason::BadValue(
                                                "capabilities that read as none of Bridge, Router, Station, ... (IEEE 802.1AB)"
                                                    .to_string(),
                                            ),
                                        );
                                        continue;
                                    }
                                    Some(Some(c)) => Some(c),
                                    None => None,
                                };
                                if f == Field::SysCaps {
                                    cur.sys_caps = caps;
                                } else {
                                    cur.en_caps = caps;
                                }
                            }
                        }
                        LineClass::Understood
                    }
                    None => LineClass::Ignored(Ignored::TableText),
                }
            }
        };
        t.summary.set(l.no, class);
    }
    flush(t, &mut cur);
    eos_check(t, eos_count.take());
    if let Some((n, line)) = total {
        count_check(t, n, t.neighbors.len(), line, "the table");
    }
}

/// Whether an EOS TLV's sub-line sets this field: the Chassis ID under
/// `- Chassis ID type`, the Port ID under `- Port ID type`, the enabled
/// capabilities under `- System Capabilities`.
fn eos_sub_field(tlv: &str, f: Field) -> bool {
    let tlv = tlv.to_ascii_lowercase();
    match f {
        Field::Chassis => tlv.starts_with("chassis id"),
        Field::Port => tlv.starts_with("port id"),
        Field::EnCaps => tlv.starts_with("system capabilities"),
        _ => false,
    }
}

/// EOS's `Interface Ethernet1 detected 3 LLDP neighbors:` against the
/// neighbours read for it.
fn eos_check(t: &mut LldpTable, count: Option<(usize, u32, usize)>) {
    if let Some((n, line, before)) = count {
        let read = t.neighbors.len() - before;
        count_check(t, n, read, line, "the interface");
    }
}

/// A note when a table's own count is not the neighbours read.
fn count_check(t: &mut LldpTable, said: usize, read: usize, line: u32, what: &str) {
    if said != read {
        t.summary.note(
            line,
            format!(
                "{what} counts {said} neighbour(s), {read} were read: the others are among the lines not understood, or the capture is cut"
            ),
        );
    }
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
    let capabilities = d.en_caps.or(d.sys_caps);
    let peer = peer::decide(
        d.sys_desc.as_deref(),
        capabilities.as_deref(),
        d.port.as_deref(),
        d.desc.as_deref(),
    );
    t.neighbors.push(LldpNeighbor {
        line,
        local_port: Sourced::at(local_port, local_line),
        chassis_id: d.chassis,
        port_id: d.port,
        remote_port,
        port_description: d.desc,
        system_name: d.name,
        system_description: d.sys_desc,
        capabilities,
        peer,
    });
}

/// The notes every table gets once read: several neighbours on one port,
/// kinds inferred rather than stated, names a table cut short, and a
/// table of text that yielded no neighbour.
fn finish(t: &mut LldpTable, lines: &[SrcLine<'_>]) {
    let mut ports: Vec<&IfName> = Vec::new();
    for n in &t.neighbors {
        if !ports.contains(&&n.local_port.value) {
            ports.push(&n.local_port.value);
        }
    }
    let mut notes = Vec::new();
    for port in ports {
        let on: Vec<&LldpNeighbor> = t
            .neighbors
            .iter()
            .filter(|n| n.local_port.value == *port)
            .collect();
        if on.len() > 1 {
            let names: Vec<String> = on
                .iter()
                .map(|n| format!("{} (line {})", neighbor_name(n), n.line))
                .collect();
            notes.push((
                on[0].line,
                format!(
                    "{port} has {} neighbours: {}; all are kept (a hypervisor's bridge or a hub passes its hosts' LLDP on); a design takes one cable per port and notes the others",
                    on.len(),
                    names.join(", ")
                ),
            ));
        }
    }
    let inferred: Vec<&LldpNeighbor> = t.neighbors.iter().filter(|n| !n.peer.stated()).collect();
    if let Some(first) = inferred.first() {
        let at: Vec<String> = inferred.iter().map(|n| n.line.to_string()).collect();
        notes.push((
            first.line,
            format!(
                "{} neighbour(s) (line(s) {}) state neither capabilities nor a system description: whether each is a switch or a host is inferred from its port ID",
                inferred.len(),
                at.join(", ")
            ),
        ));
    }
    for n in &t.neighbors {
        if let Some(name) = n.system_name.as_deref().filter(|s| s.ends_with("...")) {
            notes.push((
                n.line,
                format!(
                    "the table cut the neighbour's name short (`{name}`): it matches no device by name (`show lldp neighbors detail` shows it whole)"
                ),
            ));
        }
    }
    let text_lines = lines
        .iter()
        .filter(|l| {
            matches!(
                t.summary.class(l.no),
                Some(LineClass::Ignored(Ignored::TableText))
            )
        })
        .count();
    let counted_none = lines.iter().any(|l| total_entries(l.body()) == Some(0));
    if t.neighbors.is_empty()
        && t.summary.not_understood.is_empty()
        && text_lines > 0
        && !counted_none
    {
        let first = lines
            .iter()
            .find(|l| {
                matches!(
                    t.summary.class(l.no),
                    Some(LineClass::Ignored(Ignored::TableText))
                )
            })
            .map_or(1, |l| l.no);
        notes.push((
            first,
            format!(
                "no neighbour was read from {text_lines} line(s) of table text: neither a neighbour table's header (`show lldp neighbors`) nor a detail entry was found"
            ),
        ));
    }
    notes.sort_by_key(|(line, _)| *line);
    for (line, text) in notes {
        t.summary.note(line, text);
    }
    t.summary.keep_ignored(lines);
}

/// How a note names a neighbour: its system name, else its chassis ID.
fn neighbor_name(n: &LldpNeighbor) -> String {
    n.system_name
        .clone()
        .or_else(|| n.chassis_id.as_ref().map(|c| format!("chassis {c}")))
        .unwrap_or_else(|| "(unnamed)".to_string())
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
                    finish(&mut t, &lines);
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
            let keys = Keys {
                local: "l_port_id",
                chassis: "chassis_id",
                port: "port_id",
                desc: "port_desc",
                name: "sys_name",
                sys_desc: "sys_desc",
                caps: ["enabled_capability", "system_capability"],
            };
            flat_rows(&mut t, &rows, &keys);
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
                            sys_desc: s(Some(n), "systemDescription"),
                            sys_caps: n.get("systemCapabilities").and_then(json_caps),
                            en_caps: n.get("enabledCapabilities").and_then(json_caps),
                        };
                        flush(&mut t, &mut { d });
                    }
                }
            }
            Some(rows) if rows.as_list().is_some() => {
                let rows: Vec<&Node> = rows.items().iter().collect();
                let keys = Keys {
                    local: "port",
                    chassis: "",
                    port: "neighborPort",
                    desc: "",
                    name: "neighborDevice",
                    sys_desc: "",
                    caps: ["", ""],
                };
                flat_rows(&mut t, &rows, &keys);
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
    finish(&mut t, &lines);
    Ok(t)
}

/// The keys of a flat neighbour table's fields (`""`: none); `caps`
/// are the enabled capabilities' key, then the system capabilities'.
struct Keys {
    local: &'static str,
    chassis: &'static str,
    port: &'static str,
    desc: &'static str,
    name: &'static str,
    sys_desc: &'static str,
    caps: [&'static str; 2],
}

/// Rows of a flat neighbour table. A row stands on the line of its local
/// port (of the row's `{` without one).
fn flat_rows(t: &mut LldpTable, rows: &[&Node], keys: &Keys) {
    for row in rows {
        let field = |key: &str| (!key.is_empty()).then(|| row.get(key)).flatten();
        let s = |key: &str| field(key).and_then(json_str);
        let line = field(keys.local).map_or(row.line, |n| n.line);
        let mut d = Draft {
            line,
            local: s(keys.local).map(|v| (v, line)),
            chassis: s(keys.chassis),
            port: s(keys.port),
            desc: s(keys.desc),
            name: s(keys.name),
            sys_desc: s(keys.sys_desc),
            en_caps: field(keys.caps[0]).and_then(json_caps),
            sys_caps: field(keys.caps[1]).and_then(json_caps),
        };
        flush(t, &mut d);
    }
}

/// Capabilities in JSON: a string as the text shows them (`"B, R"`), a
/// list of names, or a map of names to booleans (true: enabled).
fn json_caps(v: &Node) -> Option<Vec<Capability>> {
    if let Some(s) = json_str(v) {
        return peer::capabilities(&s);
    }
    if let Some(items) = v.as_list() {
        let names: Vec<String> = items.iter().filter_map(json_str).collect();
        return peer::capabilities(&names.join(","));
    }
    let map = v.as_map()?;
    let names: Vec<String> = map
        .iter()
        .filter(|(_, on)| matches!(on.value, Value::Bool(true)))
        .map(|(k, _)| k.clone())
        .collect();
    peer::capabilities(&names.join(","))
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
