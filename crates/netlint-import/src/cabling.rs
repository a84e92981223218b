//! A cabling CSV: `device,port,peer_device,peer_port`, one cable a row.

use crate::source::{self, Noise};
use crate::summary::{Ignored, ImportSummary, LineClass, Reason};

/// The header a cabling CSV may start with.
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

/// True when `line` is the header row.
pub fn is_header(line: &str) -> bool {
    let fields = fields(line);
    fields.len() == 4
        && fields
            .iter()
            .zip(HEADER)
            .all(|(f, h)| f.eq_ignore_ascii_case(h))
}

/// The fields of a row: split at commas, white space and one pair of
/// double quotes taken off each.
pub fn fields(line: &str) -> Vec<&str> {
    line.split(',')
        .map(|f| {
            let f = f.trim();
            f.strip_prefix('"')
                .and_then(|f| f.strip_suffix('"'))
                .unwrap_or(f)
                .trim()
        })
        .collect()
}

/// Reads a cabling CSV. A row without four non-empty fields is listed as
/// not understood; the other rows are read.
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
    let mut seen_content = false;
    for l in &lines {
        let body = l.body();
        let class = match l.noise {
            Noise::Prompt | Noise::Only => LineClass::Ignored(Ignored::Capture),
            _ if body.is_empty() => LineClass::Ignored(Ignored::Blank),
            _ if body.starts_with('#') => LineClass::Ignored(Ignored::Comment),
            _ if !seen_content && is_header(body) => {
                seen_content = true;
                LineClass::Ignored(Ignored::TableText)
            }
            _ => {
                seen_content = true;
                let f = fields(body);
                if f.len() != 4 {
                    c.summary.not_understood(
                        l.no,
                        body,
                        Reason::Malformed(format!(
                            "{} fields, not 4 (device,port,peer_device,peer_port)",
                            f.len()
                        )),
                    );
                    continue;
                }
                if let Some(i) = f.iter().position(|x| x.is_empty()) {
                    c.summary.not_understood(
                        l.no,
                        body,
                        Reason::Malformed(format!("the field `{}` is empty", HEADER[i])),
                    );
                    continue;
                }
                c.cables.push(Cable {
                    line: l.no,
                    device: f[0].to_string(),
                    port: f[1].to_string(),
                    peer_device: f[2].to_string(),
                    peer_port: f[3].to_string(),
                });
                LineClass::Understood
            }
        };
        c.summary.set(l.no, class);
    }
    c
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
            c.summary.not_understood[1].reason.to_string(),
            "the field `port` is empty"
        );
        assert_eq!(
            c.summary.class(1),
            Some(LineClass::Ignored(Ignored::TableText))
        );
    }
}
