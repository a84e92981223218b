//! What a neighbour is, switch or host: from its system description (a
//! network OS, or a host OS), else from its enabled capabilities (IEEE
//! 802.1AB-2016 8.5.8: Other, Repeater, Bridge, WLAN Access Point,
//! Router, Telephone, DOCSIS cable device, Station only), else inferred
//! from the shape of its port ID.

use std::fmt;

use crate::names::IfName;

/// One system capability (IEEE 802.1AB-2016 Table 8-4), as the tables
/// write it: a letter (`B`, `R`, `S`, NX-OS and IOS) or a word
/// (`Bridge`, EOS and OS10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Capability {
    Other,
    Repeater,
    Bridge,
    WlanAccessPoint,
    Router,
    Telephone,
    DocsisCableDevice,
    Station,
}

impl Capability {
    fn of_letter(c: char) -> Option<Capability> {
        Some(match c.to_ascii_uppercase() {
            'O' => Capability::Other,
            'P' => Capability::Repeater,
            'B' => Capability::Bridge,
            'W' => Capability::WlanAccessPoint,
            'R' => Capability::Router,
            'T' => Capability::Telephone,
            'C' => Capability::DocsisCableDevice,
            'S' => Capability::Station,
            _ => return None,
        })
    }

    fn of_word(w: &str) -> Option<Option<Capability>> {
        Some(Some(match w.to_ascii_lowercase().as_str() {
            "other" => Capability::Other,
            "repeater" => Capability::Repeater,
            "bridge" => Capability::Bridge,
            "wlan" | "wlanaccesspoint" => Capability::WlanAccessPoint,
            "router" => Capability::Router,
            "telephone" => Capability::Telephone,
            "docsis" | "docsiscabledevice" => Capability::DocsisCableDevice,
            "station" | "stationonly" => Capability::Station,
            // The rest of a name of several words.
            "access" | "point" | "cable" | "device" | "only" => return Some(None),
            _ => return None,
        }))
    }
}

/// Capabilities as shown: `B, R`, `B,R`, `BR` (the NX-OS summary's
/// column), `Bridge, Router`, `Repeater Bridge Router` (OS10). `None`
/// when a part reads as none of them.
pub fn capabilities(text: &str) -> Option<Vec<Capability>> {
    let mut out = Vec::new();
    for part in text.split([',', ' ', '/']).filter(|p| !p.is_empty()) {
        let part = part.trim_matches(|c| c == '(' || c == ')');
        let letters = part.len() <= 8
            && part.chars().all(|c| c.is_ascii_uppercase())
            && part.chars().all(|c| Capability::of_letter(c).is_some());
        if letters && (part.len() == 1 || Capability::of_word(part).is_none()) {
            out.extend(part.chars().filter_map(Capability::of_letter));
        } else {
            out.extend(Capability::of_word(part)?);
        }
    }
    out.sort();
    out.dedup();
    Some(out)
}

/// A switch (or another device that forwards frames) or a host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeerKind {
    Switch,
    Host,
}

/// What the kind was taken from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KindFrom {
    /// Stated: the system description names a network OS or a host OS.
    Description,
    /// Stated: the enabled capabilities (else the system capabilities).
    Capabilities,
    /// Inferred: neither is stated; from the port ID (else the port
    /// description) read as a switch interface name or not.
    PortId,
}

/// A neighbour's kind and what it was taken from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Peer {
    pub kind: PeerKind,
    pub from: KindFrom,
}

impl Peer {
    /// Whether the kind was stated by the neighbour (its description or
    /// capabilities), not inferred from its port's name.
    pub fn stated(&self) -> bool {
        self.from != KindFrom::PortId
    }
}

impl fmt::Display for Peer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            PeerKind::Switch => "a switch",
            PeerKind::Host => "a host",
        };
        let from = match self.from {
            KindFrom::Description => "by its system description",
            KindFrom::Capabilities => "by its capabilities",
            KindFrom::PortId => "inferred from its port ID",
        };
        write!(f, "{kind} ({from})")
    }
}

/// Words of a network operating system's system description: the device
/// forwards frames whatever capabilities it lists. Checked before
/// [`HOST_OS`]: Cumulus Linux and SONiC (Debian) are switches.
const NETWORK_OS: &[&str] = &[
    "nx-os",
    "nexus operating system",
    "cisco ios",
    "ios-xe",
    "ios xe",
    "ios-xr",
    "arista networks eos",
    "eos version",
    "networking os10",
    "smartfabric os10",
    "os10 enterprise",
    "dell emc networking os",
    "dell networking os",
    "ftos",
    "junos",
    "juniper networks",
    "cumulus linux",
    "sonic software",
    "arubaos",
    "aruba ",
    "procurve",
    "comware",
    "extremexos",
    "fortiswitch",
    "mellanox onyx",
    "mlnx-os",
    "routeros",
    "vyos",
];

/// Words of a host's system description: a server or hypervisor, even
/// when it lists Bridge among its capabilities (a hypervisor's virtual
/// switch: ESXi's distributed switch, a Linux bridge with lldpd).
const HOST_OS: &[&str] = &[
    "windows",
    "microsoft",
    "azure stack hci",
    "azure local",
    "vmware esx",
    "esxi",
    "hyper-v",
    "ubuntu",
    "red hat",
    "rhel",
    "centos",
    "debian",
    "suse",
    "proxmox",
    "linux",
    "freebsd",
    "nutanix",
];

/// Whether a port name is a switch interface's: an interface family
/// (`Ethernet1/23`, `Te1/0/1`, `ethernet1/1/3`), but not Windows's
/// adapter names (`Ethernet`, `Ethernet 2`: a space, then one number),
/// which are a host's NIC (issue 32 item 5).
pub fn is_switch_port_name(port: &str) -> bool {
    let windows = port
        .trim()
        .get(..8)
        .filter(|p| p.eq_ignore_ascii_case("ethernet"))
        .and_then(|_| port.trim().get(8..))
        .is_some_and(|rest| {
            rest.is_empty()
                || (rest.starts_with(' ')
                    && !rest.trim().is_empty()
                    && rest.trim().chars().all(|c| c.is_ascii_digit()))
        });
    !windows && IfName::parse_switch_port(port).is_some()
}

/// The kind a system description states, if it names an OS known here.
pub fn kind_of_description(desc: &str) -> Option<PeerKind> {
    let d = desc.to_ascii_lowercase();
    if NETWORK_OS.iter().any(|w| d.contains(w)) {
        Some(PeerKind::Switch)
    } else if HOST_OS.iter().any(|w| d.contains(w)) {
        Some(PeerKind::Host)
    } else {
        None
    }
}

/// The kind capabilities state: a device that forwards (Bridge, Router,
/// Repeater, WLAN access point, DOCSIS) is a switch; Station or Telephone
/// without those, a host; Other alone, or none, states nothing.
pub fn kind_of_capabilities(caps: &[Capability]) -> Option<PeerKind> {
    use Capability::*;
    if caps.iter().any(|c| {
        matches!(
            c,
            Bridge | Router | Repeater | WlanAccessPoint | DocsisCableDevice
        )
    }) {
        Some(PeerKind::Switch)
    } else if caps.iter().any(|c| matches!(c, Station | Telephone)) {
        Some(PeerKind::Host)
    } else {
        None
    }
}

/// A neighbour's kind: the system description first (a hypervisor's
/// Bridge is a host's), then the capabilities (Bridge alone only with a
/// port named like a switch interface), else inferred from the port ID,
/// or the port description when the port ID is no name (a MAC).
pub fn decide(
    description: Option<&str>,
    capabilities: Option<&[Capability]>,
    port_id: Option<&str>,
    port_description: Option<&str>,
) -> Peer {
    if let Some(kind) = description.and_then(kind_of_description) {
        return Peer {
            kind,
            from: KindFrom::Description,
        };
    }
    let switch = port_id.is_some_and(is_switch_port_name)
        || port_description.is_some_and(is_switch_port_name);
    // Bridge alone is what a hypervisor's virtual switch says too (ESXi's
    // distributed switch, a Linux bridge under lldpd): it states a switch
    // only with a port named like a switch interface, and otherwise
    // leaves the kind to the port's name, as inferred.
    let bridge_only = capabilities.is_some_and(|c| {
        c.contains(&Capability::Bridge)
            && !c.iter().any(|c| {
                matches!(
                    c,
                    Capability::Router
                        | Capability::Repeater
                        | Capability::WlanAccessPoint
                        | Capability::DocsisCableDevice
                )
            })
    });
    if let Some(kind) = capabilities.and_then(kind_of_capabilities) {
        if !bridge_only || switch {
            return Peer {
                kind,
                from: KindFrom::Capabilities,
            };
        }
    }
    Peer {
        kind: if switch {
            PeerKind::Switch
        } else {
            PeerKind::Host
        },
        from: KindFrom::PortId,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Capability::*;

    #[test]
    fn capabilities_read_as_each_vendor_writes_them() {
        for (text, caps) in [
            ("B, R", vec![Bridge, Router]),
            ("B,R", vec![Bridge, Router]),
            ("BR", vec![Bridge, Router]),
            ("S", vec![Station]),
            ("Bridge, Router", vec![Bridge, Router]),
            ("Repeater Bridge Router", vec![Repeater, Bridge, Router]),
            ("WLAN Access Point", vec![WlanAccessPoint]),
            ("Station Only", vec![Station]),
            ("", vec![]),
        ] {
            assert_eq!(capabilities(text), Some(caps), "{text}");
        }
        assert_eq!(capabilities("Bridgeish"), None);
    }

    #[test]
    fn the_description_outranks_the_capabilities() {
        let esx = decide(
            Some("VMware ESX Releasebuild-22380479"),
            Some(&[Bridge]),
            Some("00:50:56:80:00:01"),
            Some("vmnic0"),
        );
        assert_eq!(esx.kind, PeerKind::Host);
        assert_eq!(esx.from, KindFrom::Description);
        let cumulus = decide(Some("Cumulus Linux version 5.4.0"), None, None, None);
        assert_eq!(cumulus.kind, PeerKind::Switch);
        let station = decide(None, Some(&[Station]), Some("Eth1/23"), None);
        assert_eq!(
            (station.kind, station.from),
            (PeerKind::Host, KindFrom::Capabilities)
        );
        let guess = decide(None, None, Some("Ethernet 2"), None);
        assert_eq!((guess.kind, guess.from), (PeerKind::Host, KindFrom::PortId));
        // Bridge alone from a port that is no switch interface: an ESXi
        // host's distributed switch as well as a switch; inferred.
        let esx = decide(None, Some(&[Bridge]), Some("vmnic0"), None);
        assert_eq!((esx.kind, esx.from), (PeerKind::Host, KindFrom::PortId));
        let sw = decide(None, Some(&[Bridge]), Some("Gi1/0/24"), None);
        assert_eq!(
            (sw.kind, sw.from),
            (PeerKind::Switch, KindFrom::Capabilities)
        );
        let guess = decide(None, Some(&[Other]), Some("Eth1/23"), None);
        assert_eq!(
            (guess.kind, guess.from),
            (PeerKind::Switch, KindFrom::PortId)
        );
    }
}
