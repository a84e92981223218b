//! Which kind of input a file is, from its content alone.

use crate::cabling;
use crate::lldp::LldpFormat;
use crate::model::Vendor;
use crate::source::{Noise, SrcLine};

/// The kinds of input read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Config(Vendor),
    Lldp(LldpFormat),
    Cabling,
    /// A Hyper-V / Azure Local host collection (`netlint collect hyperv`
    /// JSON).
    Hyperv,
    /// A vSphere cluster collection (`netlint collect vsphere` JSON).
    Vsphere,
    /// PowerShell `Format-List` text of the Hyper-V host cmdlets
    /// ([`crate::host::fltext`]); a folder of it is read by
    /// [`crate::input::read_host_dir`].
    HypervText,
    /// A `Get-SDDCDiagnosticInfo` collection: a ZIP archive (a folder is
    /// read by [`crate::input::read_sddc_dir`]).
    Sddc,
}

impl Kind {
    /// Every kind with the name `--from` takes.
    pub const KEYS: [(&'static str, Kind); 15] = [
        ("nxos", Kind::Config(Vendor::NxOs)),
        ("eos", Kind::Config(Vendor::Eos)),
        ("ios", Kind::Config(Vendor::Ios)),
        ("os10", Kind::Config(Vendor::Os10)),
        ("lldp-nxos", Kind::Lldp(LldpFormat::NxOsText)),
        ("lldp-eos", Kind::Lldp(LldpFormat::EosText)),
        ("lldp-ios", Kind::Lldp(LldpFormat::IosText)),
        ("lldp-os10", Kind::Lldp(LldpFormat::Os10Text)),
        ("lldp-nxos-json", Kind::Lldp(LldpFormat::NxOsJson)),
        ("lldp-eos-json", Kind::Lldp(LldpFormat::EosJson)),
        ("cabling", Kind::Cabling),
        ("hyperv", Kind::Hyperv),
        ("vsphere", Kind::Vsphere),
        ("sddc", Kind::Sddc),
        ("hyperv-text", Kind::HypervText),
    ];

    /// The kind `--from KEY` names.
    pub fn from_key(key: &str) -> Option<Kind> {
        Kind::KEYS
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, kind)| *kind)
    }

    /// Every `--from` key, comma-separated (for messages).
    pub fn keys_text() -> String {
        Kind::KEYS
            .iter()
            .map(|(k, _)| *k)
            .collect::<Vec<_>>()
            .join(", ")
    }

    pub fn key(self) -> &'static str {
        Kind::KEYS
            .iter()
            .find(|(_, k)| *k == self)
            .map_or("", |(key, _)| key)
    }
}

/// Each config dialect is told by its markers ([`VendorSpec::markers`],
/// in `config/vendors/`) and their weight. A marker is the start of a line
/// at its first column, or, when it starts with a blank, of an indented
/// line's body. Each marker counts once however often it occurs and
/// wherever in the file: a dialect is told by how many of its markers a
/// file has, not by one line repeated (a generated NX-OS config writes
/// `interface vlanN` in lower case for each of its twenty SVIs, as OS10
/// does).
///
/// [`VendorSpec::markers`]: crate::config::vendors::VendorSpec::markers
const DIALECTS: usize = Vendor::ALL.len();

/// The least score a config dialect is taken on, and how far it must lead
/// the next one: less is weak evidence, and the user names the kind with
/// `--from`.
const MIN_SCORE: u32 = 3;
const MIN_LEAD: u32 = 2;

/// The score of each config dialect ([`Vendor::ALL`] order) over `lines`.
fn scores<'a>(lines: impl Iterator<Item = &'a SrcLine<'a>>) -> [u32; DIALECTS] {
    let markers: Vec<(usize, &str, u32)> = Vendor::ALL
        .iter()
        .enumerate()
        .flat_map(|(i, v)| v.spec().markers.iter().map(move |(m, w)| (i, *m, *w)))
        .collect();
    let mut seen = vec![false; markers.len()];
    for l in lines {
        let b = l.body();
        for (i, (_, m, _)) in markers.iter().enumerate() {
            if seen[i] {
                continue;
            }
            seen[i] = match m.strip_prefix(' ') {
                Some(m) => l.text.len() > b.len() && b.starts_with(m),
                None => l.text.starts_with(m),
            };
        }
    }
    let mut score = [0u32; DIALECTS];
    for ((v, _, w), _) in markers.iter().zip(&seen).filter(|(_, s)| **s) {
        score[*v] += w;
    }
    score
}

/// The dialect the scores tell: the best, when it is at least
/// [`MIN_SCORE`] and leads every other by [`MIN_LEAD`].
fn dialect(score: [u32; DIALECTS]) -> Option<Vendor> {
    let i = (0..score.len()).max_by_key(|i| score[*i])?;
    let best = score[i];
    let next = (0..score.len())
        .filter(|j| *j != i)
        .map(|j| score[j])
        .max()
        .unwrap_or(0);
    (best >= MIN_SCORE && best >= next + MIN_LEAD).then(|| Vendor::ALL[i])
}

/// The kind of a file from its lines; `None` when nothing matches or the
/// best config dialect ties with another.
pub fn detect(lines: &[SrcLine<'_>]) -> Option<Kind> {
    let content: Vec<&SrcLine<'_>> = lines
        .iter()
        .filter(|l| l.noise != Noise::Prompt && l.noise != Noise::Only && !l.body().is_empty())
        .collect();
    let first = content
        .iter()
        .find(|l| !l.body().starts_with('#') && !l.body().starts_with('!'))?;
    let body = first.body();
    if body.starts_with('{') {
        let text: String = content.iter().take(400).map(|l| l.body()).collect();
        if text.contains("\"TABLE_nbor_detail\"") {
            return Some(Kind::Lldp(LldpFormat::NxOsJson));
        }
        if text.contains("\"lldpNeighbors\"") {
            return Some(Kind::Lldp(LldpFormat::EosJson));
        }
        return None;
    }
    let rows: Vec<&str> = content
        .iter()
        .map(|l| l.body())
        .filter(|b| !b.starts_with('#'))
        .collect();
    // A cabling CSV: its header (the four columns in any order, other
    // columns allowed, comma, semicolon or tab), or rows of four fields
    // with the delimiter of the first.
    if let Some(first) = rows.first() {
        let delim = cabling::delimiter(first);
        if cabling::is_header(first)
            || rows
                .iter()
                .all(|r| cabling::fields_with(r, delim).len() == 4)
        {
            return Some(Kind::Cabling);
        }
    }
    // The whole file, not its first lines: a marker may come late (a
    // prompt, a long banner, hundreds of VLANs before the first one).
    let mut lldp = [0u32; 4];
    for l in &content {
        let b = l.body();
        if b.starts_with("Local Port id:") {
            lldp[0] += 1;
        }
        if b.starts_with("Interface ") && b.contains(" LLDP neighbor") {
            lldp[1] += 1;
        }
        if b.starts_with("Local Intf:") {
            lldp[2] += 1;
        }
        if b.starts_with("Local Port ID:") || b.starts_with("Remote Chassis ID:") {
            lldp[3] += 1;
        }
    }
    let formats = [
        LldpFormat::NxOsText,
        LldpFormat::EosText,
        LldpFormat::IosText,
        LldpFormat::Os10Text,
    ];
    if let Some((i, _)) = lldp
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .max_by_key(|(_, n)| **n)
    {
        return Some(Kind::Lldp(formats[i]));
    }
    if let Some(f) = crate::lldp::summary_format(lines) {
        return Some(Kind::Lldp(f));
    }
    dialect(scores(content.iter().copied())).map(Kind::Config)
}
