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
    /// Dell Networking OS9 / OS10.
    DellOs,
    /// HPE Aruba AOS-CX.
    ArubaCx,
}

impl Vendor {
    /// Whether PVST+ / rapid-PVST+ defaults to the short (802.1D-1998)
    /// costs on this platform: Cisco IOS and NX-OS do (`spanning-tree
    /// pathcost method short` is their default); Dell and Aruba use the
    /// 802.1t long costs.
    pub fn pvst_short_costs(self) -> bool {
        matches!(self, Vendor::CiscoIos | Vendor::CiscoNxos)
    }
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
    let key: String = model
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_'))
        .flat_map(char::to_lowercase)
        .collect();
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
        assert!(Vendor::CiscoIos.pvst_short_costs());
        assert!(Vendor::CiscoNxos.pvst_short_costs());
        assert!(!Vendor::DellOs.pvst_short_costs());
        assert!(!Vendor::ArubaCx.pvst_short_costs());
    }
}
