//! Interface names, matched across vendors' abbreviations and spacing:
//! `Gi0/1` = `GigabitEthernet0/1`, `Eth1/1` = `Ethernet1/1` =
//! `Ethernet 1/1`, `e1/1/25:1` = `ethernet1/1/25:1`, `Po10` =
//! `port-channel10` = `Port-Channel10`. The importers read names with
//! it, and `diff` matches a design's ports with the as-built's by it.

use std::fmt;

/// What an interface is, from its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum IfKind {
    /// A physical Ethernet port of any speed family.
    Ethernet,
    /// A port-channel (LAG) with its number.
    PortChannel(u32),
    /// A VLAN interface (SVI) with its VLAN id.
    Vlan(u16),
    Loopback,
    Management,
    /// Tunnels, NVE, breakout groups and the rest.
    Other,
}

/// A normalized interface name: the canonical family name and the
/// number as written (`Ethernet1/1`, `GigabitEthernet0/1`,
/// `Port-Channel10`, `Ethernet1/1/25:1`).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct IfName(String);

/// (aliases in lower case, canonical family, speed in Mb/s the family's
/// name tells). The first alias that the written prefix equals wins; an
/// alias list never holds a prefix of another family's full name that
/// would be ambiguous.
const FAMILIES: &[(&[&str], &str, Option<u32>)] = &[
    (&["e", "et", "eth", "ethernet"], "Ethernet", None),
    (&["fa", "fastethernet"], "FastEthernet", Some(100)),
    (
        &["gi", "gig", "ge", "gigabitethernet"],
        "GigabitEthernet",
        Some(1000),
    ),
    (
        &["tw", "twogigabitethernet"],
        "TwoGigabitEthernet",
        Some(2500),
    ),
    (
        &["fi", "fivegigabitethernet"],
        "FiveGigabitEthernet",
        Some(5000),
    ),
    (
        &["te", "ten", "tengig", "tengigabitethernet", "tengige"],
        "TenGigabitEthernet",
        Some(10_000),
    ),
    (
        &["twe", "twentyfivegige", "twentyfivegigabitethernet"],
        "TwentyFiveGigE",
        Some(25_000),
    ),
    (
        &["fo", "fortygigabitethernet", "fortygige"],
        "FortyGigabitEthernet",
        Some(40_000),
    ),
    (&["fif", "fiftygige"], "FiftyGigE", Some(50_000)),
    (
        &["hu", "hundredgige", "hundredgigabitethernet"],
        "HundredGigE",
        Some(100_000),
    ),
    (
        &["fou", "fourhundredgige"],
        "FourHundredGigE",
        Some(400_000),
    ),
    (
        &["po", "port-channel", "portchannel", "port-chan"],
        "Port-Channel",
        None,
    ),
    (&["vl", "vlan"], "Vlan", None),
    (&["lo", "loopback"], "Loopback", None),
    (&["ma", "mgmt", "management"], "Management", None),
];

impl IfName {
    /// Normalizes a written name. `None` when the text has no number part
    /// (`Ethernet`, `foo`) or characters no interface name has.
    pub fn parse(written: &str) -> Option<IfName> {
        let text = written.trim();
        let split = text.find(|c: char| c.is_ascii_digit())?;
        let (prefix, number) = text.split_at(split);
        let prefix = prefix.trim_end();
        if prefix.is_empty() || number.contains(char::is_whitespace) {
            return None;
        }
        if !prefix
            .chars()
            .all(|c| c.is_ascii_alphabetic() || c == '-' || c == '_')
            || !number
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '/' | '.' | ':'))
        {
            return None;
        }
        let lower = prefix.to_ascii_lowercase();
        let family = FAMILIES
            .iter()
            .find(|(aliases, _, _)| aliases.contains(&lower.as_str()))
            .map(|(_, canonical, _)| (*canonical).to_string())
            .unwrap_or_else(|| {
                let mut c = lower.chars();
                match c.next() {
                    Some(first) => first.to_ascii_uppercase().to_string() + c.as_str(),
                    None => String::new(),
                }
            });
        Some(IfName(format!("{family}{number}")))
    }

    /// [`IfName::parse`], but only names of a switch interface family
    /// (`Ethernet`, `GigabitEthernet`, `Port-Channel`, ...): a host's
    /// `vmnic0` or `NIC1` is no switch port.
    pub fn parse_switch_port(written: &str) -> Option<IfName> {
        let name = IfName::parse(written)?;
        let split = name.0.find(|c: char| c.is_ascii_digit()).unwrap_or(0);
        FAMILIES
            .iter()
            .any(|(_, canonical, _)| *canonical == &name.0[..split])
            .then_some(name)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The speed in Mb/s the name's family tells (`GigabitEthernet0/1`:
    /// 1000, `HundredGigE1/0/49`: 100000); `None` for a family of any
    /// speed (`Ethernet1/1`) or no Ethernet family.
    pub fn family_speed_mbps(&self) -> Option<u32> {
        let split = self.0.find(|c: char| c.is_ascii_digit()).unwrap_or(0);
        FAMILIES
            .iter()
            .find(|(_, canonical, _)| *canonical == &self.0[..split])
            .and_then(|(_, _, mbps)| *mbps)
    }

    /// The family and number this name stands for.
    pub fn kind(&self) -> IfKind {
        let split = self.0.find(|c: char| c.is_ascii_digit()).unwrap_or(0);
        let (family, number) = self.0.split_at(split);
        match family {
            "Port-Channel" => number
                .parse()
                .map(IfKind::PortChannel)
                .unwrap_or(IfKind::Other),
            // 1-4094 only: `Vlan0`, `Vlan4095` and `Vlan5000` name no VLAN.
            "Vlan" => number
                .parse()
                .ok()
                .filter(|id| (1..=4094).contains(id))
                .map_or(IfKind::Other, IfKind::Vlan),
            "Loopback" => IfKind::Loopback,
            "Management" => IfKind::Management,
            f if f.ends_with("Ethernet") || f.ends_with("GigE") => IfKind::Ethernet,
            _ => IfKind::Other,
        }
    }
}

impl fmt::Display for IfName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for IfName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Whether two written names name the same switch port: equal as
/// [`IfName`]s (`ethernet1/1/2` as OS10 prints it = `Ethernet1/1/2`,
/// `Eth1/1` = `Ethernet1/1`), else equal as written.
pub fn same_port(a: &str, b: &str) -> bool {
    port_key(a) == port_key(b)
}

/// The key two written port names are compared by: the [`IfName`] when
/// the name is an interface name, else the name as written.
pub fn port_key(written: &str) -> String {
    IfName::parse(written).map_or_else(|| written.to_string(), |n| n.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> String {
        IfName::parse(s).map(|n| n.to_string()).unwrap_or_default()
    }

    #[test]
    fn abbreviations_and_spacing_meet() {
        assert_eq!(n("Gi0/1"), "GigabitEthernet0/1");
        assert_eq!(n("GigabitEthernet0/1"), "GigabitEthernet0/1");
        assert_eq!(n("Eth1/1"), "Ethernet1/1");
        assert_eq!(n("Ethernet 1/1"), "Ethernet1/1");
        assert_eq!(n("ethernet1/1/25:1"), "Ethernet1/1/25:1");
        assert_eq!(n("e1/1/25:1"), "Ethernet1/1/25:1");
        assert_eq!(n("Et49/1"), "Ethernet49/1");
        assert_eq!(n("port-channel10"), "Port-Channel10");
        assert_eq!(n("Port-Channel10"), "Port-Channel10");
        assert_eq!(n("Po10"), "Port-Channel10");
        assert_eq!(n("Te1/0/1"), "TenGigabitEthernet1/0/1");
        assert_eq!(n("Twe1/0/1"), "TwentyFiveGigE1/0/1");
        assert_eq!(n("Tw1/0/1"), "TwoGigabitEthernet1/0/1");
        assert_eq!(n("mgmt0"), "Management0");
        assert_eq!(n("Vlan10"), "Vlan10");
        assert_eq!(n("nve1"), "Nve1");
    }

    #[test]
    fn switch_ports_only() {
        assert_eq!(IfName::parse_switch_port("vmnic0"), None);
        assert_eq!(IfName::parse_switch_port("NIC1"), None);
        assert_eq!(
            IfName::parse_switch_port("Te1/0/1").unwrap().as_str(),
            "TenGigabitEthernet1/0/1"
        );
    }

    #[test]
    fn kinds() {
        assert_eq!(
            IfName::parse("Po10").unwrap().kind(),
            IfKind::PortChannel(10)
        );
        assert_eq!(IfName::parse("vlan 20").unwrap().kind(), IfKind::Vlan(20));
        assert_eq!(IfName::parse("Hu1/0/49").unwrap().kind(), IfKind::Ethernet);
        assert_eq!(IfName::parse("Gi0/1").unwrap().kind(), IfKind::Ethernet);
        assert_eq!(IfName::parse("lo0").unwrap().kind(), IfKind::Loopback);
        for out_of_range in ["vlan0", "vlan4095", "vlan4100", "vlan5000", "vlan70000"] {
            assert_eq!(
                IfName::parse(out_of_range).unwrap().kind(),
                IfKind::Other,
                "{out_of_range}"
            );
        }
    }

    #[test]
    fn families_tell_their_speed() {
        let speed = |s: &str| IfName::parse(s).unwrap().family_speed_mbps();
        assert_eq!(speed("Fa0/1"), Some(100));
        assert_eq!(speed("Gi1/0/1"), Some(1000));
        assert_eq!(speed("Tw1/0/1"), Some(2500));
        assert_eq!(speed("Te1/0/1"), Some(10_000));
        assert_eq!(speed("Twe1/0/1"), Some(25_000));
        assert_eq!(speed("Hu1/0/49"), Some(100_000));
        assert_eq!(speed("FourHundredGigE1/0/1"), Some(400_000));
        for any in ["Ethernet1/1", "Po10", "Vlan10", "mgmt0", "nve1"] {
            assert_eq!(speed(any), None, "{any}");
        }
    }

    #[test]
    fn same_port_across_case_and_abbreviation() {
        assert!(same_port("ethernet1/1/2", "Ethernet1/1/2"));
        assert!(same_port("Eth1/1", "Ethernet 1/1"));
        assert!(same_port("po10", "Port-Channel10"));
        assert!(same_port("NIC 1", "NIC 1"));
        assert!(!same_port("Ethernet1/1", "Ethernet1/10"));
        assert!(!same_port("Gi0/1", "Te0/1"));
    }

    #[test]
    fn refuses_what_is_no_interface() {
        assert_eq!(IfName::parse("Ethernet"), None);
        assert_eq!(IfName::parse("1/1"), None);
        assert_eq!(IfName::parse("Eth 1/1 x"), None);
        assert_eq!(IfName::parse("Eth1/1;"), None);
    }
}
