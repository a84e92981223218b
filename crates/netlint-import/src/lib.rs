//! netlint-import: switch running-configs, LLDP neighbour tables and
//! cabling CSVs into typed, vendor-neutral facts, each value with the line
//! it came from or the vendor default (and its documented source) that
//! filled it.
//!
//! ```
//! use netlint_import::{parse, Document};
//! let text = "hostname tor1\nfeature lldp\nvlan 10\n  name storage\n";
//! let Document::Config(cfg) = parse("tor1.cfg", text, None).unwrap() else { panic!() };
//! assert_eq!(cfg.hostname.unwrap().value, "tor1");
//! assert_eq!(cfg.vlans[&10].name.as_ref().unwrap().value, "storage");
//! ```
//!
//! [`read_input`] reads any input (configs, LLDP, cabling, Hyper-V,
//! vSphere and SDDC collections) by its detected or forced kind, its text
//! decoded once ([`decode`]).
//!
//! Every line of every input is classified ([`ImportSummary`]):
//! understood, ignored as irrelevant (with the reason), or not understood
//! (listed). A file that is no input of a known kind is a located
//! [`InputError`]; nothing panics.

pub mod cabling;
pub mod config;
pub mod decode;
pub mod defaults;
pub mod design;
pub mod detect;
pub mod error;
pub mod host;
pub mod input;
pub mod lldp;
pub mod model;
pub mod names;
pub mod pstext;
pub mod source;
pub mod summary;
pub mod vlans;

pub use cabling::{Cable, Cabling};
pub use detect::Kind;
pub use error::{ErrorKind, InputError};
pub use input::{read_input, Input, Read};
pub use lldp::{LldpFormat, LldpNeighbor, LldpTable};
pub use model::*;
pub use names::{IfKind, IfName};
pub use summary::{Ignored, IgnoredLine, ImportSummary, LineClass, NotUnderstood, Note, Reason};
pub use vlans::VlanSet;

/// One input file, read.
#[derive(Clone, Debug)]
pub enum Document {
    Config(Box<SwitchConfig>),
    Lldp(LldpTable),
    Cabling(Cabling),
}

impl Document {
    pub fn summary(&self) -> &ImportSummary {
        match self {
            Document::Config(c) => &c.summary,
            Document::Lldp(t) => &t.summary,
            Document::Cabling(c) => &c.summary,
        }
    }

    pub fn kind(&self) -> Kind {
        match self {
            Document::Config(c) => Kind::Config(c.vendor),
            Document::Lldp(t) => Kind::Lldp(t.format),
            Document::Cabling(_) => Kind::Cabling,
        }
    }
}

/// Reads one file: its kind from `forced` (`--from`) or detected from the
/// content. `file` names it in errors and provenance.
pub fn parse(file: &str, text: &str, forced: Option<Kind>) -> Result<Document, InputError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines = source::lines(text);
    let content = lines.iter().find(|l| {
        let b = l.body();
        !b.is_empty()
            && !b.starts_with('!')
            && !b.starts_with('#')
            && !matches!(l.noise, source::Noise::Prompt | source::Noise::Only)
    });
    let Some(content) = content else {
        return Err(InputError {
            file: file.to_string(),
            line: lines.len().max(1) as u32,
            column: 0,
            kind: ErrorKind::Empty,
        });
    };
    let kind = match forced.or_else(|| detect::detect(&lines)) {
        Some(k) => k,
        None => {
            return Err(InputError {
                file: file.to_string(),
                line: content.no,
                column: 0,
                kind: pstext::view(text).map_or(ErrorKind::Unrecognised, ErrorKind::PowerShellText),
            })
        }
    };
    Ok(match kind {
        Kind::Config(v) => Document::Config(Box::new(config::parse_config(file, text, v))),
        Kind::Lldp(f @ (LldpFormat::NxOsJson | LldpFormat::EosJson)) => {
            Document::Lldp(lldp::parse_json(file, text, f)?)
        }
        Kind::Lldp(f) => Document::Lldp(lldp::parse_text(file, text, f)),
        Kind::Cabling => Document::Cabling(cabling::parse(file, text)),
        Kind::Hyperv | Kind::HypervText | Kind::Vsphere | Kind::Sddc => {
            return Err(InputError {
                file: file.to_string(),
                line: 1,
                column: 0,
                kind: ErrorKind::WrongKind(format!(
                    "a {} collection is read by `read_input`, not as a switch-side text",
                    kind.key()
                )),
            })
        }
    })
}

/// [`parse`] of raw bytes, decoded by [`decode::decode`] (BOMs, UTF-16
/// with or without a mark, UTF-8, else Latin-1): never refused for its
/// encoding.
pub fn parse_bytes(file: &str, bytes: &[u8], forced: Option<Kind>) -> Result<Document, InputError> {
    parse(file, &decode::decode(bytes).0, forced)
}
