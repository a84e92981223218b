//! The `show lldp neighbors` summary tables: one row per neighbour under
//! a header line whose columns say which output it is.
//!
//! - NX-OS and IOS: `Device ID  Local Intf  Hold-time  Capability  Port
//!   ID`, under a `Capability codes:` legend, with `Total entries
//!   displayed: N` below. NX-OS puts a Device ID longer than its column
//!   on a line of its own, the rest of the row on the next; IOS cuts it
//!   at 20 characters, sometimes against the local port
//!   (`long_name_swt.josh-vGi0/2`). The capability column may be empty.
//! - EOS: `Port  Neighbor Device ID  Neighbor Port ID  TTL`, under the
//!   table's counters (`Last table change time`, `Number of table
//!   inserts`, ...), with or without a dashed line below the header.
//! - OS10: `Loc PortID  Rem Host Name  Rem Port Id  Rem Chassis Id`,
//!   dashed line below; a long host name is cut with `...`, an absent one
//!   written `Not Advertised`.
//!
//! Every line is classed: the text around the table ignored as table
//! text, each row understood, a line that reads as no row not understood
//! (listed, with why).

use super::{capture_class, flush, is_detail_line, total_entries, value, Draft, LldpTable};
use crate::names::IfName;
use crate::source::{Noise, SrcLine};
use crate::summary::{Ignored, LineClass, Reason};

/// Which table, and where its header puts the columns a row is split at
/// when its words alone do not tell (byte offsets in the line).
#[derive(Clone, Copy, Debug)]
enum Layout {
    /// NX-OS and IOS.
    Cisco {
        local: usize,
    },
    Eos {
        port: usize,
    },
    Os10 {
        port: usize,
    },
}

fn header(text: &str) -> Option<Layout> {
    let body = text.trim_start();
    if body.starts_with("Device ID") && body.contains("Local Intf") && body.contains("Hold-time") {
        return Some(Layout::Cisco {
            local: text.find("Local Intf")?,
        });
    }
    if body.starts_with("Port")
        && body.contains("Neighbor Device ID")
        && body.contains("Neighbor Port ID")
    {
        return Some(Layout::Eos {
            port: text.find("Neighbor Port ID")?,
        });
    }
    if body.starts_with("Loc PortID") && body.contains("Rem Host Name") {
        return Some(Layout::Os10 {
            port: text
                .find("Rem Port Id")
                .or_else(|| text.find("Rem Port ID"))?,
        });
    }
    None
}

/// Whether the lines hold a summary table: its header, and no detail
/// entry (NX-OS prints the summary's header above its detail output too).
pub(super) fn is_summary(lines: &[SrcLine<'_>]) -> bool {
    lines.iter().any(|l| header(l.text).is_some())
        && !lines
            .iter()
            .any(|l| l.noise != Noise::Prompt && is_detail_line(l.body()))
}

/// The words of a line with where each starts.
fn words(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

fn digits(w: &str) -> bool {
    !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit())
}

/// The text from the first word's start to the last word's end.
fn span(text: &str, ws: &[(usize, &str)]) -> Option<String> {
    let (first, last) = (ws.first()?, ws.last()?);
    Some(text[first.0..last.0 + last.1.len()].to_string())
}

/// What a line under the header is.
enum Row {
    /// A neighbour; `used` says whether it took the pending Device ID,
    /// `cut` whether its Device ID ran into the local port's column.
    Entry {
        draft: Draft,
        used: bool,
        cut: bool,
    },
    /// A Device ID alone on its line (NX-OS): the row follows.
    DeviceOnly(String),
    Bad(String),
}

/// A row of the NX-OS / IOS table. The hold time (a number after an
/// interface name) anchors it: the Device ID before the local port, the
/// capability codes after the hold time, the Port ID the rest.
fn cisco_row(text: &str, local_col: usize, pending: Option<&str>) -> Row {
    let mut ws = words(text);
    let anchor = |ws: &[(usize, &str)]| {
        (1..ws.len()).find(|&i| {
            digits(ws[i].1) && IfName::parse(ws[i - 1].1).is_some() && (i >= 2 || pending.is_some())
        })
    };
    let mut at = anchor(&ws);
    if let (None, [(0, name)]) = (at, ws.as_slice()) {
        return Row::DeviceOnly(name.to_string());
    }
    let mut cut = false;
    // IOS cuts a long Device ID at its column, against the local port.
    if at.is_none() {
        if let Some(&(start, w)) = ws.first() {
            let width = local_col.saturating_sub(start);
            if start < local_col && w.len() > width && w.is_char_boundary(width) && width > 0 {
                ws.splice(0..1, [(start, &w[..width]), (start + width, &w[width..])]);
                at = anchor(&ws);
                cut = at.is_some();
            }
        }
    }
    let Some(h) = at else {
        return Row::Bad(
            "not a row of the neighbour table (Device ID, Local Intf, Hold-time, Capability, Port ID)"
                .to_string(),
        );
    };
    let local = ws[h - 1].1.to_string();
    let (device, used) = if h >= 2 {
        (span(text, &ws[..h - 1]).unwrap_or_default(), false)
    } else {
        (pending.unwrap_or_default().to_string(), true)
    };
    let after = &ws[h + 1..];
    if after.is_empty() {
        return Row::Bad("a row without a Port ID".to_string());
    }
    let is_code = |w: &str| w.chars().all(|c| "RBTCWPSO,".contains(c));
    let mut k = 0;
    while k + 1 < after.len() && is_code(after[k].1) {
        k += 1;
    }
    let caps_text: String = after[..k].iter().map(|w| w.1).collect::<Vec<_>>().join(" ");
    let caps = match super::peer::capabilities(&caps_text) {
        Some(c) if !c.is_empty() => Some(c),
        _ => None,
    };
    let port = text[after[k].0..].trim_end().to_string();
    Row::Entry {
        draft: Draft {
            local: Some((local, 0)),
            name: value(&device),
            port: value(&port),
            en_caps: caps,
            ..Draft::default()
        },
        used,
        cut,
    }
}

/// A row of the EOS table (`Port`, device, port, `TTL` last) or the OS10
/// one (`Loc PortID`, host name, port, chassis last): the first and last
/// words are their columns, the middle splits at the port column when it
/// is more than two words.
fn middle_row(text: &str, port_col: usize, eos: bool) -> Row {
    let ws = words(text);
    if ws.len() < 4 || (eos && !digits(ws[ws.len() - 1].1)) {
        let cols = if eos {
            "Port, Neighbor Device ID, Neighbor Port ID, TTL"
        } else {
            "Loc PortID, Rem Host Name, Rem Port Id, Rem Chassis Id"
        };
        return Row::Bad(format!("not a row of the neighbour table ({cols})"));
    }
    let middle = &ws[1..ws.len() - 1];
    let split = if middle.len() == 2 {
        1
    } else {
        match middle.iter().position(|w| w.0 >= port_col) {
            Some(0) | None => 1,
            Some(i) => i,
        }
    };
    let device = span(text, &middle[..split]).unwrap_or_default();
    let port = span(text, &middle[split..]).unwrap_or_default();
    let last = ws[ws.len() - 1].1;
    Row::Entry {
        draft: Draft {
            local: Some((ws[0].1.to_string(), 0)),
            name: value(&device),
            port: value(&port),
            chassis: if eos { None } else { value(last) },
            ..Draft::default()
        },
        used: false,
        cut: false,
    }
}

/// Reads the summary table of `lines` into `t`; false when the lines hold
/// none (the detail output is read instead).
pub(super) fn read(t: &mut LldpTable, lines: &[SrcLine<'_>]) -> bool {
    if !is_summary(lines) {
        return false;
    }
    let Some(h) = lines.iter().position(|l| header(l.text).is_some()) else {
        return false;
    };
    let Some(layout) = header(lines[h].text) else {
        return false;
    };
    let mut pending: Option<(String, u32)> = None;
    let mut total: Option<(usize, u32)> = None;
    let mut rows = 0usize;
    for (i, l) in lines.iter().enumerate() {
        let body = l.body();
        let class = match capture_class(t, l) {
            Some(c) => c,
            // The legend and the table's counters above the header, the
            // header itself (again after a pager), dashed rules.
            None if i <= h || header(l.text).is_some() => LineClass::Ignored(Ignored::TableText),
            None if body.chars().all(|c| c == '-' || c == ' ') => {
                LineClass::Ignored(Ignored::TableText)
            }
            None if total_entries(body).is_some() => {
                total = total_entries(body).map(|n| (n, l.no));
                LineClass::Ignored(Ignored::TableText)
            }
            None => {
                let row = match layout {
                    Layout::Cisco { local } => {
                        cisco_row(l.text, local, pending.as_ref().map(|p| p.0.as_str()))
                    }
                    Layout::Eos { port } => middle_row(l.text, port, true),
                    Layout::Os10 { port } => middle_row(l.text, port, false),
                };
                match row {
                    Row::Entry {
                        mut draft,
                        used,
                        cut,
                    } => {
                        if let (true, Some(name)) = (cut, draft.name.as_deref()) {
                            t.summary.note(
                                l.no,
                                format!(
                                    "the Device ID runs into the Local Intf column: IOS cut it to `{name}`, which may name no device (`show lldp neighbors detail` shows it whole)"
                                ),
                            );
                        }
                        let started = match pending.take() {
                            Some((_, line)) if used => line,
                            Some((name, line)) => {
                                orphan(t, line, &name);
                                l.no
                            }
                            None => l.no,
                        };
                        draft.line = started;
                        if let Some(local) = draft.local.as_mut() {
                            local.1 = l.no;
                        }
                        let before = t.neighbors.len();
                        flush(t, &mut draft);
                        rows += 1;
                        if t.neighbors.len() > before {
                            LineClass::Understood
                        } else {
                            // flush listed the row as not understood.
                            LineClass::NotUnderstood
                        }
                    }
                    Row::DeviceOnly(name) => {
                        if let Some((old, line)) = pending.replace((name, l.no)) {
                            orphan(t, line, &old);
                        }
                        LineClass::Understood
                    }
                    Row::Bad(why) => {
                        t.summary.not_understood(l.no, body, Reason::Malformed(why));
                        LineClass::NotUnderstood
                    }
                }
            }
        };
        t.summary.set(l.no, class);
    }
    if let Some((name, line)) = pending.take() {
        orphan(t, line, &name);
    }
    if let Some((n, line)) = total {
        if n != rows {
            super::count_check(t, n, t.neighbors.len(), line, "the table");
        }
    }
    true
}

/// A Device ID on a line of its own whose row never came.
fn orphan(t: &mut LldpTable, line: u32, name: &str) {
    t.summary.not_understood(
        line,
        name,
        Reason::Malformed(
            "a Device ID whose row (local port, hold time, port ID) does not follow".to_string(),
        ),
    );
}

/// The format of a summary table, from its header: EOS and OS10 by their
/// columns; NX-OS and IOS share theirs, and NX-OS names its ports `Eth1/1`
/// and `mgmt0` where IOS writes `Gi1/0/1`, `Te1/1/1` or `Et0/0`.
pub(super) fn format(lines: &[SrcLine<'_>]) -> Option<super::LldpFormat> {
    use super::LldpFormat;
    if !is_summary(lines) {
        return None;
    }
    let h = lines.iter().position(|l| header(l.text).is_some())?;
    Some(match header(lines[h].text)? {
        Layout::Eos { .. } => LldpFormat::EosText,
        Layout::Os10 { .. } => LldpFormat::Os10Text,
        Layout::Cisco { .. } => {
            let nxos = lines[h + 1..].iter().any(|l| {
                words(l.text).iter().any(|(_, w)| {
                    let lower = w.to_ascii_lowercase();
                    lower == "mgmt0"
                        || lower
                            .strip_prefix("eth")
                            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
                })
            });
            if nxos {
                LldpFormat::NxOsText
            } else {
                LldpFormat::IosText
            }
        }
    })
}
