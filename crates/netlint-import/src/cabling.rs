//! A cabling CSV: one cable a row, with the columns `device`, `port`,
//! `peer_device` and `peer_port`.
//!
//! Read as spreadsheets write CSV (RFC 4180, with the csv crate): quoted
//! fields may hold the delimiter, doubled quotes and line breaks. The
//! delimiter is taken from the first row: a comma, a semicolon (Excel in
//! locales with a decimal comma) or a tab, whichever it holds most of. A
//! header names the columns, in any order and any case; other columns (a
//! `cable_id`, a `length`) are not read, and a note says so. Without a
//! header, a row is the four fields in the order above. Every cable, note
//! and row not understood keeps the line its row starts on.

use crate::source::{self, Noise, SrcLine};
use crate::summary::{Ignored, ImportSummary, LineClass, Reason};
use csv::{ReaderBuilder, StringRecord, Trim};

/// The columns a cabling CSV has, in the order of a row without a header.
pub const HEADER: [&str; 4] = ["device", "port", "peer_device", "peer_port"];

/// One cable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cable {
    pub line: u32,
    pub device: String,
    /// As written: a switch port (matched across abbreviations) or a host
    /// NIC name (matched exactly).
    pub port: String,
    pub peer_device: String,
    pub peer_port: String,
}

/// All cables of one file.
#[derive(Clone, Debug)]
pub struct Cabling {
    pub file: String,
    pub cables: Vec<Cable>,
    pub summary: ImportSummary,
}

/// The delimiters a cabling CSV may use, the first preferred on a tie.
const DELIMITERS: [(u8, &str); 3] = [(b',', "comma"), (b';', "semicolon"), (b'\t', "tab")];

/// The delimiter of a row: the one of comma, semicolon and tab it holds
/// most of outside double quotes (a comma when it holds none).
pub fn delimiter(line: &str) -> u8 {
    let mut counts = [0usize; 3];
    let mut quoted = false;
    for b in line.bytes() {
        if b == b'"' {
            quoted = !quoted;
        } else if !quoted {
            if let Some(i) = DELIMITERS.iter().position(|(d, _)| *d == b) {
                counts[i] += 1;
            }
        }
    }
    let mut best = 0;
    for i in 1..counts.len() {
        if counts[i] > counts[best] {
            best = i;
        }
    }
    DELIMITERS[best].0
}

/// The fields of one row, split at `delim` as CSV reads them (quotes
/// taken off, doubled quotes made one), white space around each trimmed.
pub fn fields_with(line: &str, delim: u8) -> Vec<String> {
    let mut r = reader(delim, line.as_bytes());
    let mut rec = StringRecord::new();
    match r.read_record(&mut rec) {
        Ok(true) => rec.iter().map(unquote).collect(),
        _ => Vec::new(),
    }
}

/// The fields of one row, with the delimiter it holds most of.
pub fn fields(line: &str) -> Vec<String> {
    fields_with(line, delimiter(line))
}

/// True when `line` is a header: it names the four columns (in any order
/// and case, other columns allowed), separated by a comma, semicolon or tab.
pub fn is_header(line: &str) -> bool {
    let line = line.trim_start_matches('\u{feff}');
    matches!(Columns::of(&fields(line)), Ok(Some(_)))
}

fn reader(delim: u8, bytes: &[u8]) -> csv::Reader<&[u8]> {
    ReaderBuilder::new()
        .delimiter(delim)
        .has_headers(false)
        .flexible(true)
        .trim(Trim::All)
        .comment(Some(b'#'))
        .from_reader(bytes)
}

/// A field with white space before its opening quote (`tor1, "Eth 1/1"`)
/// is not quoted to CSV; its quotes are taken off here.
fn unquote(f: &str) -> String {
    match f.strip_prefix('"').and_then(|f| f.strip_suffix('"')) {
        Some(inner) if !inner.is_empty() => inner.replace("\"\"", "\"").trim().to_string(),
        _ => f.to_string(),
    }
}

/// Where each column is in a row with a header.
struct Columns {
    /// The index of `device`, `port`, `peer_device`, `peer_port`.
    at: [usize; 4],
    /// How many fields the header has.
    width: usize,
    /// The names of the columns not read, in order.
    extra: Vec<String>,
    /// Columns named twice: (name, how often); the first is read.
    twice: Vec<(String, usize)>,
}

impl Columns {
    /// `Ok(Some)` for a header with the four columns; `Err(missing)` for a
    /// row that names some of them but not all; `Ok(None)` for a row that
    /// names none (a cable).
    fn of(fields: &[String]) -> Result<Option<Columns>, Vec<&'static str>> {
        let mut at = [None; 4];
        let mut extra = Vec::new();
        let mut twice: Vec<(String, usize)> = Vec::new();
        for (i, f) in fields.iter().enumerate() {
            let name = f.trim().to_ascii_lowercase();
            match HEADER.iter().position(|h| *h == name) {
                Some(c) if at[c].is_none() => at[c] = Some(i),
                Some(c) => match twice.iter_mut().find(|(n, _)| n == HEADER[c]) {
                    Some((_, n)) => *n += 1,
                    None => twice.push((HEADER[c].to_string(), 2)),
                },
                None => extra.push(f.clone()),
            }
        }
        let found = at.iter().filter(|a| a.is_some()).count();
        if found == 0 {
            return Ok(None);
        }
        if found < 4 {
            return Err(HEADER
                .iter()
                .zip(at)
                .filter(|(_, a)| a.is_none())
                .map(|(h, _)| *h)
                .collect());
        }
        Ok(Some(Columns {
            at: at.map(|a| a.unwrap_or(0)),
            width: fields.len(),
            extra,
            twice,
        }))
    }

    /// A row without a header: the four columns in order.
    fn positional() -> Columns {
        Columns {
            at: [0, 1, 2, 3],
            width: 4,
            extra: Vec::new(),
            twice: Vec::new(),
        }
    }
}

/// Reads a cabling CSV. A row that does not give the four columns, each
/// non-empty, is listed as not understood; the other rows are read.
pub fn parse(file: &str, text: &str) -> Cabling {
    let lines = source::lines(text);
    let mut c = Cabling {
        file: file.to_string(),
        cables: Vec::new(),
        summary: ImportSummary {
            classes: vec![LineClass::Understood; lines.len()],
            ..ImportSummary::default()
        },
    };
    if let Some((no, text)) = source::stamp_note(&lines) {
        c.summary.note(no, text);
    }
    // The text CSV reads: one line for each line of the file, so the
    // reader's line numbers are the file's; a CLI prompt captured with the
    // file is blanked (an empty line is no row to CSV), and an indented
    // comment unindented (CSV takes `#` as a comment at a line's start).
    let mut csv_text = String::with_capacity(text.len() + lines.len());
    for (i, l) in lines.iter().enumerate() {
        let t = match l.noise {
            Noise::Prompt | Noise::Only => "",
            _ if l.body().starts_with('#') => l.body(),
            _ if i == 0 => l.text.trim_start_matches('\u{feff}'),
            _ => l.text,
        };
        csv_text.push_str(t);
        csv_text.push('\n');
    }
    // Lines outside any row: blank, comment or capture noise.
    for l in &lines {
        let class = match l.noise {
            Noise::Prompt | Noise::Only => LineClass::Ignored(Ignored::Capture),
            _ if l.body().is_empty() => LineClass::Ignored(Ignored::Blank),
            _ if l.body().starts_with('#') => LineClass::Ignored(Ignored::Comment),
            _ => continue,
        };
        c.summary.set(l.no, class);
    }
    let Some(first) = lines.iter().find(|l| is_row(l)) else {
        return c;
    };
    let delim = delimiter(first.body());
    let mut r = reader(delim, csv_text.as_bytes());
    let mut rec = StringRecord::new();
    let mut columns: Option<Columns> = None;
    loop {
        let start = r.position().line();
        match r.read_record(&mut rec) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                // CSV over text that is UTF-8 by construction fails only
                // on a bug of its own; say so at the line rather than lose it.
                let line = row_start(&lines, e.position().map_or(start, |p| p.line()) as u32);
                let body = line_body(&lines, line);
                c.summary
                    .not_understood(line, body, Reason::Malformed(e.to_string()));
                continue;
            }
        }
        let Some(pos) = rec.position() else { continue };
        // The reader's position is where it began to look for the row:
        // before the blank and comment lines it passed over.
        let line = row_start(&lines, pos.line() as u32);
        // The line after the row's last: its line break is read.
        let end = (r.position().line() as u32).max(line + 1);
        let fields: Vec<String> = rec.iter().map(unquote).collect();
        let body = line_body(&lines, line);
        let cols = match &columns {
            Some(cols) => cols,
            None => {
                let found = Columns::of(&fields);
                let (cols, class) = match found {
                    Ok(Some(cols)) => {
                        note_header(&mut c.summary, line, &cols, delim);
                        (cols, Some(LineClass::Ignored(Ignored::TableText)))
                    }
                    Ok(None) => {
                        if delim != b',' {
                            c.summary
                                .note(line, format!("read as {}-separated", delimiter_name(delim)));
                        }
                        (Columns::positional(), None)
                    }
                    Err(missing) => {
                        let missing: Vec<String> =
                            missing.iter().map(|m| format!("`{m}`")).collect();
                        c.summary.not_understood(
                            line,
                            body,
                            Reason::Malformed(format!(
                                "a header without {}: the columns are {}; the rows are read as {} in that order",
                                missing.join(", "),
                                HEADER.join(","),
                                HEADER.join(",")
                            )),
                        );
                        columns = Some(Columns::positional());
                        span(&mut c.summary, line, end, LineClass::NotUnderstood);
                        continue;
                    }
                };
                let is_header = class.is_some();
                columns = Some(cols);
                if let Some(class) = class {
                    span(&mut c.summary, line, end, class);
                }
                if is_header {
                    continue;
                }
                columns.as_ref().expect("just set")
            }
        };
        match cable(cols, &fields, line, end) {
            Ok(cable) => {
                c.cables.push(cable);
                span(&mut c.summary, line, end, LineClass::Understood);
            }
            Err(why) => {
                c.summary.not_understood(line, body, Reason::Malformed(why));
                span(&mut c.summary, line, end, LineClass::NotUnderstood);
            }
        }
    }
    c.summary.keep_ignored(&lines);
    c
}

/// A line CSV reads as (the start of) a row.
fn is_row(l: &SrcLine<'_>) -> bool {
    !matches!(l.noise, Noise::Prompt | Noise::Only)
        && !l.body().is_empty()
        && !l.body().starts_with('#')
}

/// The first line at or after `from` that CSV reads as a row.
fn row_start(lines: &[SrcLine<'_>], from: u32) -> u32 {
    lines
        .iter()
        .skip((from as usize).saturating_sub(1))
        .find(|l| is_row(l))
        .map_or(from, |l| l.no)
}

fn line_body<'a>(lines: &[SrcLine<'a>], line: u32) -> &'a str {
    lines
        .get((line as usize).saturating_sub(1))
        .map_or("", |l| l.body())
}

fn delimiter_name(d: u8) -> &'static str {
    DELIMITERS
        .iter()
        .find(|(x, _)| *x == d)
        .map_or("comma", |(_, n)| n)
}

/// Classes the lines `from..to` of a row (a quoted field may hold line
/// breaks).
fn span(s: &mut ImportSummary, from: u32, to: u32, class: LineClass) {
    for l in from..to {
        s.set(l, class);
    }
}

/// What the header tells the reader: the delimiter when not a comma, the
/// columns not read, the columns named twice.
fn note_header(s: &mut ImportSummary, line: u32, cols: &Columns, delim: u8) {
    if delim != b',' {
        s.note(line, format!("read as {}-separated", delimiter_name(delim)));
    }
    if !cols.extra.is_empty() {
        let names: Vec<String> = cols
            .extra
            .iter()
            .map(|e| {
                if e.is_empty() {
                    "(unnamed)".to_string()
                } else {
                    format!("`{e}`")
                }
            })
            .collect();
        s.note(
            line,
            format!(
                "{} {} not read (netlint reads {})",
                if names.len() == 1 {
                    "the column"
                } else {
                    "the columns"
                },
                names.join(", ") + if names.len() == 1 { " is" } else { " are" },
                HEADER.join(", ")
            ),
        );
    }
    for (name, n) in &cols.twice {
        s.note(
            line,
            format!("the column `{name}` is named {n} times: the first is read"),
        );
    }
}

/// The cable of one row, or why it is not one.
fn cable(cols: &Columns, fields: &[String], line: u32, end: u32) -> Result<Cable, String> {
    let width_ok = fields.len() == cols.width
        || (fields.len() > cols.width && fields[cols.width..].iter().all(|f| f.is_empty()));
    if !width_ok {
        let what = if cols.extra.is_empty() && cols.at == [0, 1, 2, 3] {
            format!("not 4 ({})", HEADER.join(","))
        } else {
            format!("the header has {}", cols.width)
        };
        let across = if end > line + 1 {
            format!(
                "; a quoted field runs from line {line} to line {}: an unclosed quote?",
                end - 1
            )
        } else {
            String::new()
        };
        return Err(format!("{} fields, {what}{across}", fields.len()));
    }
    let mut v: [&str; 4] = [""; 4];
    for (i, name) in HEADER.iter().enumerate() {
        let f = fields[cols.at[i]].as_str();
        if f.is_empty() {
            return Err(format!("the field `{name}` is empty"));
        }
        if f.chars().any(char::is_control) {
            let what = if f.contains(['\n', '\r']) {
                "a line break"
            } else {
                "a control character"
            };
            return Err(format!("the field `{name}` holds {what}"));
        }
        v[i] = f;
    }
    Ok(Cable {
        line,
        device: v[0].to_string(),
        port: v[1].to_string(),
        peer_device: v[2].to_string(),
        peer_port: v[3].to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_header_and_bad_rows() {
        let c = parse(
            "c.csv",
            "device,port,peer_device,peer_port\r\ntor1,Eth1/1,hv1,NIC1\n# spare\ntor1,Eth1/2\n\"tor2\", Ethernet 1/1 ,hv1,NIC2\ntor1,,hv2,NIC1\n",
        );
        assert_eq!(c.cables.len(), 2);
        assert_eq!(c.cables[1].port, "Ethernet 1/1");
        assert_eq!(c.cables[1].device, "tor2");
        assert_eq!(c.cables[1].line, 5);
        let bad: Vec<u32> = c.summary.not_understood.iter().map(|n| n.line).collect();
        assert_eq!(bad, vec![4, 6]);
        assert_eq!(
            c.summary.not_understood[0].reason.to_string(),
            "2 fields, not 4 (device,port,peer_device,peer_port)"
        );
        assert_eq!(
            c.summary.not_understood[1].reason.to_string(),
            "the field `port` is empty"
        );
        assert_eq!(
            c.summary.class(1),
            Some(LineClass::Ignored(Ignored::TableText))
        );
        assert_eq!(
            c.summary.class(3),
            Some(LineClass::Ignored(Ignored::Comment))
        );
        assert!(c.summary.notes.is_empty());
    }

    fn cables(c: &Cabling) -> Vec<(u32, &str, &str, &str, &str)> {
        c.cables
            .iter()
            .map(|k| {
                (
                    k.line,
                    k.device.as_str(),
                    k.port.as_str(),
                    k.peer_device.as_str(),
                    k.peer_port.as_str(),
                )
            })
            .collect()
    }

    fn notes(c: &Cabling) -> Vec<(u32, &str)> {
        c.summary
            .notes
            .iter()
            .map(|n| (n.line, n.text.as_str()))
            .collect()
    }

    /// Issue 29 item 5: a quoted field holding the delimiter is one field.
    #[test]
    fn a_quoted_comma_is_part_of_the_field() {
        let c = parse(
            "c.csv",
            "device,port,peer_device,peer_port\n\"tor1, rack 3\",Eth1/1,hv1,NIC1\n",
        );
        assert!(c.summary.not_understood.is_empty(), "{:?}", c.summary);
        assert_eq!(cables(&c), [(2, "tor1, rack 3", "Eth1/1", "hv1", "NIC1")]);
    }

    #[test]
    fn semicolons_as_excel_writes_them_in_many_locales() {
        let c = parse(
            "c.csv",
            "Device;Port;Peer_Device;Peer_Port\ntor1;Eth1/1;hv1;NIC1\n\"tor2;b\";Eth1/2;hv1;NIC2\n",
        );
        assert!(c.summary.not_understood.is_empty(), "{:?}", c.summary);
        assert_eq!(
            cables(&c),
            [
                (2, "tor1", "Eth1/1", "hv1", "NIC1"),
                (3, "tor2;b", "Eth1/2", "hv1", "NIC2")
            ]
        );
        assert_eq!(notes(&c), [(1, "read as semicolon-separated")]);
    }

    #[test]
    fn tabs() {
        let c = parse(
            "c.tsv",
            "device\tport\tpeer_device\tpeer_port\ntor1\tEthernet 1/1\thv1\tNIC 1\n",
        );
        assert!(c.summary.not_understood.is_empty(), "{:?}", c.summary);
        assert_eq!(cables(&c), [(2, "tor1", "Ethernet 1/1", "hv1", "NIC 1")]);
        assert_eq!(notes(&c), [(1, "read as tab-separated")]);
    }

    /// Columns found by name, in another order, with columns netlint does
    /// not read: noted once, at the header.
    #[test]
    fn extra_columns_in_another_order() {
        let c = parse(
            "c.csv",
            "# from the cabling sheet\ncable_id,peer_device,peer_port,length,device,port\nC-001,hv1,NIC1,3m,tor1,Eth1/1\nC-002,hv1,NIC2,,tor2,Eth1/1\nC-003,hv2,NIC1,3m\n",
        );
        assert_eq!(
            cables(&c),
            [
                (3, "tor1", "Eth1/1", "hv1", "NIC1"),
                (4, "tor2", "Eth1/1", "hv1", "NIC2")
            ]
        );
        assert_eq!(
            notes(&c),
            [(
                2,
                "the columns `cable_id`, `length` are not read (netlint reads device, port, peer_device, peer_port)"
            )]
        );
        let bad: Vec<(u32, String)> = c
            .summary
            .not_understood
            .iter()
            .map(|n| (n.line, n.reason.to_string()))
            .collect();
        assert_eq!(bad, [(5, "4 fields, the header has 6".to_string())]);
        assert_eq!(
            c.summary.class(2),
            Some(LineClass::Ignored(Ignored::TableText))
        );
    }

    #[test]
    fn doubled_quotes_are_one_quote() {
        let c = parse("c.csv", "tor1,Eth1/1,hv1,\"NIC \"\"A\"\"\"\n");
        assert_eq!(cables(&c), [(1, "tor1", "Eth1/1", "hv1", "NIC \"A\"")]);
    }

    /// A quoted line break in a column not read leaves the line numbers of
    /// the rows after it right; in a column read, the row is refused.
    #[test]
    fn line_breaks_inside_quotes_keep_the_line_numbers() {
        let c = parse(
            "c.csv",
            "device,port,peer_device,peer_port,notes\ntor1,Eth1/1,hv1,NIC1,\"spare\n\nrelabel\"\ntor1,\"Eth1/2\nx\",hv1,NIC2,\ntor2,Eth1/1,hv2,NIC1,\n",
        );
        assert_eq!(
            cables(&c),
            [
                (2, "tor1", "Eth1/1", "hv1", "NIC1"),
                (7, "tor2", "Eth1/1", "hv2", "NIC1")
            ]
        );
        assert_eq!(c.summary.not_understood[0].line, 5);
        assert_eq!(
            c.summary.not_understood[0].reason.to_string(),
            "the field `port` holds a line break"
        );
        assert_eq!(c.summary.class(3), Some(LineClass::Understood));
        assert_eq!(c.summary.class(6), Some(LineClass::NotUnderstood));
        assert_eq!(c.summary.not_understood_count(), 2);
    }

    #[test]
    fn an_unclosed_quote_is_named() {
        let c = parse(
            "c.csv",
            "device,port,peer_device,peer_port\ntor1,\"Eth1/1,hv1,NIC1\ntor2,Eth1/1,hv2,NIC1\n",
        );
        assert!(c.cables.is_empty());
        let n = &c.summary.not_understood[0];
        assert_eq!(n.line, 2);
        assert_eq!(
            n.reason.to_string(),
            "2 fields, not 4 (device,port,peer_device,peer_port); a quoted field runs from line 2 to line 3: an unclosed quote?"
        );
        assert_eq!(c.summary.not_understood_count(), 2, "both lines counted");
    }

    #[test]
    fn a_header_missing_a_column_is_named() {
        let c = parse(
            "c.csv",
            "device,port,peer_device,remote_port\ntor1,Eth1/1,hv1,NIC1\n",
        );
        assert_eq!(c.summary.not_understood[0].line, 1);
        assert!(
            c.summary.not_understood[0]
                .reason
                .to_string()
                .starts_with("a header without `peer_port`"),
            "{:?}",
            c.summary
        );
        assert_eq!(cables(&c), [(2, "tor1", "Eth1/1", "hv1", "NIC1")]);
    }

    #[test]
    fn headers_are_recognised_with_any_delimiter_order_and_extras() {
        for yes in [
            "device,port,peer_device,peer_port",
            "\u{feff}device,port,peer_device,peer_port",
            "Device;Port;Peer_Device;Peer_Port",
            "device\tport\tpeer_device\tpeer_port",
            "cable_id,peer_device,peer_port,length,device,port",
            "\"device\",\"port\",\"peer_device\",\"peer_port\"",
        ] {
            assert!(is_header(yes), "{yes}");
        }
        for no in [
            "tor1,Eth1/1,hv1,NIC1",
            "device,port,peer_device",
            "device port peer_device peer_port",
        ] {
            assert!(!is_header(no), "{no}");
        }
    }
}
