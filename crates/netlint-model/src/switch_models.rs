//! A small built-in table of common data-centre and campus switch models:
//! the largest MTU each takes and its vendor (which decides the default
//! spanning-tree path-cost method of PVST+). The sources of every row are
//! in `docs/format.md` ("Switch models").

use crate::span::Span;

/// Who makes a switch, as far as netlint's defaults care.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Vendor {
    /// Cisco IOS / IOS XE (Catalyst).
    CiscoIos,
    /// Cisco NX-OS (Nexus).
    CiscoNxos,
    /// Dell Networking: OS9, SmartFabric OS10 and the N-series.
    DellOs,
    /// HPE Aruba AOS-CX.
    ArubaCx,
    /// Arista EOS.
    Arista,
}

impl Vendor {
    /// The path-cost method PVST+ / rapid-PVST+ uses on this platform
    /// without `spanning-tree pathcost method`: short (802.1D-1998) on
    /// Cisco IOS and NX-OS, long (802.1t) on Dell (OS9, OS10, N-series)
    /// and Aruba; `None` where no source was found (Arista EOS). The
    /// sources are in `docs/format.md` ("Path-cost method").
    pub fn pvst_cost_default(self) -> Option<crate::design::PathCost> {
        use crate::design::PathCost;
        match self {
            Vendor::CiscoIos | Vendor::CiscoNxos => Some(PathCost::Short),
            Vendor::DellOs | Vendor::ArubaCx => Some(PathCost::Long),
            Vendor::Arista => None,
        }
    }

    /// The vendor as documentation names it.
    pub fn as_str(self) -> &'static str {
        match self {
            Vendor::CiscoIos => "Cisco IOS",
            Vendor::CiscoNxos => "Cisco NX-OS",
            Vendor::DellOs => "Dell Networking",
            Vendor::ArubaCx => "HPE Aruba",
            Vendor::Arista => "Arista EOS",
        }
    }
}

/// Who makes a switch, from fragments of its `model` (lower case, spaces,
/// `-` and `_` removed), wider than the MTU table: every model of a
/// vendor's families, not the few whose largest MTU netlint knows. The
/// first row with a matching fragment wins.
const VENDORS: &[(&[&str], Vendor)] = &[
    (
        &["nexus", "n9k", "n3k", "n5k", "n6k", "n7k"],
        Vendor::CiscoNxos,
    ),
    (
        &[
            "catalyst", "wsc", "c9200", "c9300", "c9400", "c9500", "c9600", "c2960", "c3560",
            "c3650", "c3750", "c3850", "c4948", "cisco",
        ],
        Vendor::CiscoIos,
    ),
    (
        &["arista", "dcs7", "7050", "7280", "7060", "7300", "720xp"],
        Vendor::Arista,
    ),
    (&["aruba", "cx8", "cx6", "cx9", "jl479a"], Vendor::ArubaCx),
    (
        &[
            "dell",
            "powerswitch",
            "s3048",
            "s3124",
            "s3148",
            "s4048",
            "s4112",
            "s4128",
            "s4148",
            "s5212",
            "s5224",
            "s5232",
            "s5248",
            "s5296",
            "s5448",
            "s6010",
            "s6100",
            "z9100",
            "z9264",
            "z9332",
            "z9432",
            "z9664",
            "n1108",
            "n1124",
            "n1148",
            "n1524",
            "n1548",
            "n2024",
            "n2048",
            "n2128",
            "n2224",
            "n2248",
            "n3024",
            "n3048",
            "n3132",
            "n3208",
            "n3224",
            "n3248",
            "mx9116",
            "mx5108",
        ],
        Vendor::DellOs,
    ),
];

/// The vendor a free-text `model` names, if any: from the MTU table's row
/// when it has one, else from the vendor table (`Dell N3248X-ON`,
/// `S5248F-ON`, `DCS-7050SX3-48YC8`, `WS-C3850`).
pub fn vendor_of(model: &str) -> Option<Vendor> {
    if let Some(m) = lookup(model) {
        return Some(m.vendor);
    }
    let key = key(model);
    VENDORS
        .iter()
        .find(|(frags, _)| frags.iter().any(|f| key.contains(f)))
        .map(|(_, v)| *v)
}

/// A model string as the tables match it.
fn key(model: &str) -> String {
    model
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// One row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwitchModel {
    /// The family as documentation names it ("Cisco Catalyst 2960-X").
    pub family: &'static str,
    pub vendor: Vendor,
    /// The largest value of the switch's MTU setting, in netlint's `mtu`
    /// terms (the largest packet, 802.1Q tag allowed for).
    pub max_mtu: u32,
    /// The vendor setting that has that maximum.
    pub setting: &'static str,
    /// Lower-case fragments (spaces, `-` and `_` removed) that identify the
    /// family in a `model` string; any one matches.
    patterns: &'static [&'static str],
}

const MODELS: &[SwitchModel] = &[
    SwitchModel {
        family: "Cisco Catalyst 2960-X",
        vendor: Vendor::CiscoIos,
        max_mtu: 9198,
        setting: "system mtu jumbo",
        patterns: &["catalyst2960x", "c2960x", "2960x"],
    },
    SwitchModel {
        family: "Cisco Catalyst 4948",
        vendor: Vendor::CiscoIos,
        max_mtu: 9198,
        setting: "mtu",
        patterns: &["catalyst4948", "c4948"],
    },
    SwitchModel {
        family: "Cisco Nexus 9000",
        vendor: Vendor::CiscoNxos,
        max_mtu: 9216,
        setting: "system jumbomtu / mtu",
        patterns: &["nexus9", "n9kc9", "n9k"],
    },
    SwitchModel {
        family: "Dell S4048-ON",
        vendor: Vendor::DellOs,
        max_mtu: 9216,
        setting: "mtu",
        patterns: &["s4048on", "s4048ton"],
    },
    SwitchModel {
        family: "HPE Aruba CX 8320 / 8400",
        vendor: Vendor::ArubaCx,
        max_mtu: 9198,
        setting: "mtu",
        patterns: &["aruba8320", "aruba8400", "cx8320", "cx8400", "jl479a"],
    },
];

/// Every row, in documentation order.
pub fn models() -> &'static [SwitchModel] {
    MODELS
}

/// The row a free-text `model` names, if any: the first whose fragment
/// occurs in the model with spaces, hyphens and underscores removed
/// ("Cisco Catalyst 2960-X", "WS-C2960X-48TS-L" and "c2960x" all match).
pub fn lookup(model: &str) -> Option<&'static SwitchModel> {
    let key = key(model);
    MODELS
        .iter()
        .find(|m| m.patterns.iter().any(|p| key.contains(p)))
}

/// Where a switch's largest MTU comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MtuLimitSource {
    /// `max_mtu` written on the switch (span of the value).
    Stated(Span),
    /// The built-in table, for the `model` at this span.
    Model {
        model: &'static SwitchModel,
        span: Span,
    },
}

/// The largest MTU a switch takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MtuLimit {
    pub payload: u32,
    pub source: MtuLimitSource,
}

impl MtuLimit {
    /// The line that sets the limit (`max_mtu`, or `model`).
    pub fn span(&self) -> Span {
        match &self.source {
            MtuLimitSource::Stated(s) => *s,
            MtuLimitSource::Model { span, .. } => *span,
        }
    }
    /// The model family when the limit comes from the table.
    pub fn family(&self) -> Option<&'static str> {
        match &self.source {
            MtuLimitSource::Model { model, .. } => Some(model.family),
            MtuLimitSource::Stated(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_by_fragments() {
        let m = lookup("Cisco Catalyst 2960-X").unwrap();
        assert_eq!((m.family, m.max_mtu), ("Cisco Catalyst 2960-X", 9198));
        assert_eq!(lookup("WS-C2960X-48TS-L").unwrap().max_mtu, 9198);
        assert_eq!(lookup("Nexus 93180YC-EX").unwrap().max_mtu, 9216);
        assert_eq!(lookup("N9K-C93180YC-FX").unwrap().vendor, Vendor::CiscoNxos);
        assert_eq!(lookup("Dell S4048-ON").unwrap().vendor, Vendor::DellOs);
        assert_eq!(lookup("Aruba CX 8320").unwrap().max_mtu, 9198);
        assert!(lookup("Dell PowerConnect 8024F").is_none());
        assert!(lookup("").is_none());
    }

    #[test]
    fn pvst_cost_defaults_by_vendor() {
        use crate::design::PathCost;
        assert_eq!(Vendor::CiscoIos.pvst_cost_default(), Some(PathCost::Short));
        assert_eq!(Vendor::CiscoNxos.pvst_cost_default(), Some(PathCost::Short));
        assert_eq!(Vendor::DellOs.pvst_cost_default(), Some(PathCost::Long));
        assert_eq!(Vendor::ArubaCx.pvst_cost_default(), Some(PathCost::Long));
        assert_eq!(Vendor::Arista.pvst_cost_default(), None);
    }

    /// Models outside the MTU table still name their vendor (issue 34
    /// item 6): Dell's N-series and OS10 switches, Arista, Catalyst.
    #[test]
    fn vendors_beyond_the_mtu_table() {
        for (model, vendor) in [
            ("Dell N3248X-ON", Vendor::DellOs),
            ("S5248F-ON", Vendor::DellOs),
            ("Dell EMC PowerSwitch Z9264F-ON", Vendor::DellOs),
            ("DCS-7050SX3-48YC8", Vendor::Arista),
            ("Arista 7280R3", Vendor::Arista),
            ("WS-C3850-48T", Vendor::CiscoIos),
            ("Cisco Catalyst 9300", Vendor::CiscoIos),
            ("N9K-C93180YC-FX", Vendor::CiscoNxos),
            ("Aruba CX 6300", Vendor::ArubaCx),
        ] {
            assert_eq!(vendor_of(model), Some(vendor), "{model}");
        }
        assert_eq!(vendor_of("whitebox-48x25"), None);
    }
}
