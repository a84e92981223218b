//! Joining host NICs to switch ports: from the switches' LLDP neighbour
//! tables (the neighbour's system name is the host, its port ID the NIC's
//! MAC address or name) or from the cabling CSV (a row naming the host and
//! the NIC). A NIC neither ties to a port is reported by name, never
//! guessed.

use std::collections::BTreeSet;

use crate::Document;

/// Where a host NIC is cabled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tie {
    pub switch: String,
    pub port: String,
    /// `file:line` of the LLDP entry or cabling row.
    pub at: String,
    /// The same line, for the source map.
    pub line: crate::design::At,
    pub from_lldp: bool,
}

/// A host NIC as the join sees it.
pub struct NicKey<'a> {
    pub host: &'a str,
    pub nic: &'a str,
    pub mac: Option<&'a str>,
    pub description: Option<&'a str>,
}

/// `00-15-5D-01-02-03`, `0015.5d01.0203`, `00:15:5d:01:02:03` ->
/// `00155d010203`; `None` when it is not 12 hex digits.
pub fn mac_key(s: &str) -> Option<String> {
    let hex: String = s
        .chars()
        .filter(|c| !matches!(c, '-' | ':' | '.' | ' '))
        .map(|c| c.to_ascii_lowercase())
        .collect();
    (hex.len() == 12 && hex.chars().all(|c| c.is_ascii_hexdigit())).then_some(hex)
}

/// Host names compare case-insensitively and without their DNS domain
/// (LLDP sends `HV01.contoso.local`, the collection `HV01`).
pub fn same_host(a: &str, b: &str) -> bool {
    let short = |s: &str| s.split('.').next().unwrap_or(s).trim().to_ascii_lowercase();
    short(a) == short(b)
}

/// Ties one NIC to a switch port. `switches` are the imported switches'
/// design names; a neighbour table or a cabling row naming another device
/// is no tie. LLDP wins over the cabling sheet (it is what the switch
/// sees).
pub fn tie(docs: &[Document], switches: &BTreeSet<String>, nic: &NicKey<'_>) -> Option<Tie> {
    let mac = nic.mac.and_then(mac_key);
    for d in docs {
        let Document::Lldp(t) = d else { continue };
        let Some(dev) = &t.local_device else { continue };
        if !switches.contains(&dev.value) {
            continue;
        }
        for n in &t.neighbors {
            let Some(sys) = &n.system_name else { continue };
            if !same_host(sys, nic.host) {
                continue;
            }
            let by_mac = mac.is_some()
                && (n.port_id.as_deref().and_then(mac_key) == mac
                    || n.chassis_id.as_deref().and_then(mac_key) == mac && n.port_id.is_none());
            let by_name = [n.port_id.as_deref(), n.port_description.as_deref()]
                .into_iter()
                .flatten()
                .any(|p| p == nic.nic || Some(p) == nic.description);
            if by_mac || by_name {
                return Some(Tie {
                    switch: dev.value.clone(),
                    port: n.local_port.value.as_str().to_string(),
                    at: format!("{}:{}", t.file, n.line),
                    line: crate::design::At {
                        file: t.file.clone(),
                        line: n.line,
                    },
                    from_lldp: true,
                });
            }
        }
    }
    for d in docs {
        let Document::Cabling(c) = d else { continue };
        for row in &c.cables {
            let (sw, port) = if same_host(&row.device, nic.host) && row.port == nic.nic {
                (&row.peer_device, &row.peer_port)
            } else if same_host(&row.peer_device, nic.host) && row.peer_port == nic.nic {
                (&row.device, &row.port)
            } else {
                continue;
            };
            if switches.contains(sw) {
                return Some(Tie {
                    switch: sw.clone(),
                    port: port.clone(),
                    at: format!("{}:{}", c.file, row.line),
                    line: crate::design::At {
                        file: c.file.clone(),
                        line: row.line,
                    },
                    from_lldp: false,
                });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn macs_and_host_names_compare_as_lldp_writes_them() {
        assert_eq!(
            mac_key("00-15-5D-01-02-03").as_deref(),
            Some("00155d010203")
        );
        assert_eq!(mac_key("0015.5d01.0203").as_deref(), Some("00155d010203"));
        assert_eq!(mac_key("SLOT 3 Port 1"), None);
        assert!(same_host("HV01.contoso.local", "hv01"));
        assert!(!same_host("hv011", "hv01"));
    }
}
