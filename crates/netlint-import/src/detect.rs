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
    /// A `Get-SDDCDiagnosticInfo` collection: a ZIP archive (a folder is
    /// read by [`crate::input::read_sddc_dir`]).
    Sddc,
}

impl Kind {
    /// Every kind with the name `--from` takes.
    pub const KEYS: [(&'static str, Kind); 14] = [
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

/// Markers of each config dialect and their weight.
const MARKERS: &[(Vendor, &str, u32)] = &[
    (Vendor::NxOs, "!Command: show running-config", 5),
    (Vendor::NxOs, "!Time:", 2),
    (Vendor::NxOs, "switchname ", 4),
    (Vendor::NxOs, "vpc domain ", 4),
    (Vendor::NxOs, "system jumbomtu", 4),
    (Vendor::NxOs, "interface mgmt0", 4),
    (Vendor::NxOs, "vrf context ", 4),
    (Vendor::NxOs, "copp profile", 4),
    (Vendor::NxOs, "feature ", 3),
    (Vendor::NxOs, "spanning-tree port type", 1),
    (Vendor::NxOs, "policy-map type network-qos", 1),
    (Vendor::Eos, "! device: ", 6),
    (Vendor::Eos, "! boot system flash", 6),
    (Vendor::Eos, "mlag configuration", 5),
    (Vendor::Eos, "interface Management1", 4),
    (Vendor::Eos, "management api http-commands", 4),
    (Vendor::Eos, "daemon TerminAttr", 4),
    (Vendor::Eos, "service routing protocols model", 4),
    (Vendor::Eos, "transceiver qsfp default-mode", 4),
    (Vendor::Eos, "switchport trunk group", 3),
    (Vendor::Eos, "interface Port-Channel", 2),
    (Vendor::Eos, "spanning-tree portfast", 1),
    (Vendor::Ios, "Building configuration", 4),
    (Vendor::Ios, "Current configuration :", 5),
    (Vendor::Ios, "boot-start-marker", 5),
    (Vendor::Ios, "service timestamps", 3),
    (Vendor::Ios, "no service pad", 3),
    (Vendor::Ios, "spanning-tree extend system-id", 3),
    (Vendor::Ios, "interface GigabitEthernet", 3),
    (Vendor::Ios, "interface FastEthernet", 4),
    (Vendor::Ios, "interface TenGigabitEthernet", 2),
    (Vendor::Ios, "interface Port-channel", 3),
    (Vendor::Ios, "line vty", 2),
    (Vendor::Ios, "spanning-tree mode pvst", 2),
    (Vendor::Os10, "! Version 10.", 6),
    (Vendor::Os10, "interface ethernet1/", 5),
    (Vendor::Os10, "interface mgmt1/1/1", 6),
    (Vendor::Os10, "vlt-domain ", 5),
    (Vendor::Os10, "system-user linuxadmin", 5),
    (Vendor::Os10, "ztd cancel", 4),
    (Vendor::Os10, "dcbx enable", 2),
    (Vendor::Os10, "interface vlan", 2),
    (Vendor::Os10, "interface port-channel", 1),
    (Vendor::Os10, "vlt-port-channel ", 5),
    (Vendor::Os10, "discovery-interface ", 3),
];

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
    let head = content.iter().take(2000);
    let mut lldp = [0u32; 4];
    let mut score = [0u32; 4];
    for l in head {
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
        for (v, m, w) in MARKERS {
            if l.text.starts_with(m) || (m.starts_with(' ') && b.starts_with(m.trim())) {
                score[*v as usize] += w;
            }
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
    let best = *score.iter().max()?;
    if best == 0 || score.iter().filter(|s| **s == best).count() > 1 {
        return None;
    }
    let i = score.iter().position(|s| *s == best)?;
    Some(Kind::Config(Vendor::ALL[i]))
}
