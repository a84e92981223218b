//! Design elements as typed values: what a diagnostic is about, and what an
//! `allow` table is attached to. Names are kept as the user wrote them;
//! [`Element::path`] is the one place that spells an element as the dotted
//! path (`hosts.hv2.nics.P4-1`) that output, `allow` and baselines use.

use crate::design::{Host, NicIdx, TeamIdx, VSwitchIdx};

/// How a network's host interface sits on the host.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Via {
    /// The network's IP is on the NIC itself (`nics.X.networks`).
    Nic(NicIdx),
    /// On a team interface (`teams.X.networks`).
    Team(TeamIdx),
    /// On a host vNIC / vmkernel port (vswitch, vnic index).
    VNic(VSwitchIdx, usize),
    /// A guest network carried by a virtual switch (`vswitches.X.networks`).
    Guest(VSwitchIdx),
}

/// A part of a host (or of a profile, which is written like a host).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Part {
    /// The host itself.
    Whole,
    Nic(String),
    Team(String),
    VSwitch(String),
    VNic {
        vswitch: String,
        vnic: String,
    },
}

/// One element of a design.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Element {
    /// The design as a whole (its path is empty).
    Design,
    Network(String),
    Switch(String),
    Link(String),
    Host(String, Part),
    Profile(String, Part),
    /// A storage target, or one of its ports.
    Storage(String, Option<String>),
}

impl Element {
    pub fn host(name: impl Into<String>) -> Element {
        Element::Host(name.into(), Part::Whole)
    }

    pub fn nic(host: &str, nic: &str) -> Element {
        Element::Host(host.to_string(), Part::Nic(nic.to_string()))
    }
    pub fn team(host: &str, team: &str) -> Element {
        Element::Host(host.to_string(), Part::Team(team.to_string()))
    }
    pub fn vswitch(host: &str, vswitch: &str) -> Element {
        Element::Host(host.to_string(), Part::VSwitch(vswitch.to_string()))
    }
    pub fn vnic(host: &str, vswitch: &str, vnic: &str) -> Element {
        Element::Host(
            host.to_string(),
            Part::VNic {
                vswitch: vswitch.to_string(),
                vnic: vnic.to_string(),
            },
        )
    }

    /// The dotted path of the names the user wrote: `hosts.hv2.nics.P4-1`,
    /// `switches.tor-a`, the empty string for the design.
    pub fn path(&self) -> String {
        let (kind, name, part) = match self {
            Element::Design => return String::new(),
            Element::Network(n) => return dotted(&["networks", n]),
            Element::Switch(n) => return dotted(&["switches", n]),
            Element::Link(n) => return dotted(&["links", n]),
            Element::Storage(n, None) => return dotted(&["storage", n]),
            Element::Storage(n, Some(p)) => return dotted(&["storage", n, "ports", p]),
            Element::Host(n, p) => ("hosts", n, p),
            Element::Profile(n, p) => ("profiles", n, p),
        };
        match part {
            Part::Whole => dotted(&[kind, name]),
            Part::Nic(x) => dotted(&[kind, name, "nics", x]),
            Part::Team(x) => dotted(&[kind, name, "teams", x]),
            Part::VSwitch(x) => dotted(&[kind, name, "vswitches", x]),
            Part::VNic { vswitch, vnic } => {
                dotted(&[kind, name, "vswitches", vswitch, "vnics", vnic])
            }
        }
    }

    /// A part of this host or profile (`self` is the whole of one).
    pub(crate) fn with_part(&self, part: Part) -> Element {
        match self {
            Element::Host(n, _) => Element::Host(n.clone(), part),
            Element::Profile(n, _) => Element::Profile(n.clone(), part),
            other => other.clone(),
        }
    }

    /// The element a dotted path names, as [`Element::path`] writes it
    /// (what baselines and the command line hold); `None` if the path does
    /// not name an element. A name containing a dot cannot be told apart
    /// from a deeper path, so such paths are read as the shallower element.
    pub fn from_path(path: &str) -> Option<Element> {
        if path.is_empty() {
            return Some(Element::Design);
        }
        let (kind, rest) = path.split_once('.')?;
        let whole = |name: &str, part: Part| match kind {
            "hosts" => Some(Element::Host(name.to_string(), part)),
            "profiles" => Some(Element::Profile(name.to_string(), part)),
            _ => None,
        };
        match kind {
            "networks" => Some(Element::Network(rest.to_string())),
            "switches" => Some(Element::Switch(rest.to_string())),
            "links" => Some(Element::Link(rest.to_string())),
            "storage" => Some(match rest.split_once(".ports.") {
                Some((n, p)) => Element::Storage(n.to_string(), Some(p.to_string())),
                None => Element::Storage(rest.to_string(), None),
            }),
            "hosts" | "profiles" => {
                let Some((name, inner)) = rest.split_once('.') else {
                    return whole(rest, Part::Whole);
                };
                let (what, x) = inner.split_once('.')?;
                let part = match what {
                    "nics" => Part::Nic(x.to_string()),
                    "teams" => Part::Team(x.to_string()),
                    "vswitches" => match x.split_once(".vnics.") {
                        Some((vswitch, vnic)) => Part::VNic {
                            vswitch: vswitch.to_string(),
                            vnic: vnic.to_string(),
                        },
                        None => Part::VSwitch(x.to_string()),
                    },
                    _ => return None,
                };
                whole(name, part)
            }
            _ => None,
        }
    }

    /// The part of a host or profile this element is.
    pub fn part(&self) -> Option<&Part> {
        match self {
            Element::Host(_, p) | Element::Profile(_, p) => Some(p),
            _ => None,
        }
    }

    /// The host this element is or is part of (not a profile's).
    pub fn host_name(&self) -> Option<&str> {
        match self {
            Element::Host(n, _) => Some(n),
            _ => None,
        }
    }

    /// Whether `self` is `other` or contains it: a host contains its NICs,
    /// teams and virtual switches, a virtual switch its vNICs (`hosts.hv01`
    /// covers `hosts.hv01.nics.A`, not `hosts.hv010`).
    pub fn covers(&self, other: &Element) -> bool {
        match (self, other) {
            (Element::Host(a, pa), Element::Host(b, pb))
            | (Element::Profile(a, pa), Element::Profile(b, pb)) => {
                a == b
                    && match (pa, pb) {
                        (Part::Whole, _) => true,
                        (Part::VSwitch(v), Part::VNic { vswitch, .. }) => v == vswitch,
                        _ => pa == pb,
                    }
            }
            (Element::Storage(a, None), Element::Storage(b, _)) => a == b,
            _ => self == other,
        }
    }
}

impl Host {
    /// The host itself.
    pub fn element(&self) -> Element {
        Element::host(&self.name)
    }
    pub fn nic_element(&self, nic: NicIdx) -> Element {
        Element::nic(&self.name, &self.nics[nic.0].name)
    }
    pub fn team_element(&self, team: TeamIdx) -> Element {
        Element::team(&self.name, &self.teams[team.0].name)
    }
    pub fn vswitch_element(&self, vs: VSwitchIdx) -> Element {
        Element::vswitch(&self.name, &self.vswitches[vs.0].name)
    }
    pub fn vnic_element(&self, vs: VSwitchIdx, vnic: usize) -> Element {
        let v = &self.vswitches[vs.0];
        Element::vnic(&self.name, &v.name, &v.vnics[vnic].name)
    }
    /// The interface a network sits on: the NIC, team, vNIC, or the
    /// virtual switch of a guest network.
    pub fn via_element(&self, via: Via) -> Element {
        match via {
            Via::Nic(n) => self.nic_element(n),
            Via::Team(t) => self.team_element(t),
            Via::VNic(v, j) => self.vnic_element(v, j),
            Via::Guest(v) => self.vswitch_element(v),
        }
    }
}

/// `parts` joined by dots, in a string of exactly that length: paths are
/// written for every finding's element and subjects (a `format!` each
/// cost several times as much).
fn dotted(parts: &[&str]) -> String {
    let len = parts.iter().map(|p| p.len()).sum::<usize>() + parts.len().saturating_sub(1);
    let mut out = String::with_capacity(len);
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            out.push('.');
        }
        out.push_str(p);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nic(h: &str, n: &str) -> Element {
        Element::Host(h.into(), Part::Nic(n.into()))
    }

    #[test]
    fn paths_are_the_names_the_user_wrote() {
        assert_eq!(Element::Design.path(), "");
        assert_eq!(nic("hv2", "P4-1").path(), "hosts.hv2.nics.P4-1");
        assert_eq!(Element::Switch("tor-a".into()).path(), "switches.tor-a");
        assert_eq!(Element::Link("isl".into()).path(), "links.isl");
        assert_eq!(Element::Network("lm".into()).path(), "networks.lm");
        assert_eq!(Element::Storage("san".into(), None).path(), "storage.san");
        assert_eq!(
            Element::Storage("san".into(), Some("A0".into())).path(),
            "storage.san.ports.A0"
        );
        assert_eq!(Element::Design.path(), "");
        let vnic = Element::Profile(
            "p".into(),
            Part::VNic {
                vswitch: "S".into(),
                vnic: "SMB1".into(),
            },
        );
        assert_eq!(vnic.path(), "profiles.p.vswitches.S.vnics.SMB1");
    }

    #[test]
    fn paths_read_back_into_the_same_elements() {
        for e in [
            Element::Design,
            nic("hv2", "P4-1"),
            Element::Switch("tor-a".into()),
            Element::Link("isl".into()),
            Element::Network("lm".into()),
            Element::host("h"),
            Element::team("h", "T"),
            Element::vswitch("h", "S"),
            Element::vnic("h", "S", "SMB1"),
            Element::Profile("p".into(), Part::Nic("A".into())),
        ] {
            assert_eq!(Element::from_path(&e.path()), Some(e.clone()), "{e:?}");
        }
        assert_eq!(Element::from_path("hosts.h.cards.x"), None);
        assert_eq!(Element::from_path("racks.r"), None);
    }

    #[test]
    fn a_host_covers_its_parts_and_not_a_longer_name() {
        let host = Element::host("hv01");
        assert!(host.covers(&nic("hv01", "A")));
        assert!(host.covers(&host));
        assert!(!host.covers(&nic("hv010", "A")));
        assert!(!nic("hv01", "A").covers(&host));
        assert!(!nic("hv01", "A").covers(&nic("hv01", "B")));
        let vs = Element::Host("h".into(), Part::VSwitch("S".into()));
        let vnic = Element::Host(
            "h".into(),
            Part::VNic {
                vswitch: "S".into(),
                vnic: "X".into(),
            },
        );
        assert!(vs.covers(&vnic));
        assert!(!vnic.covers(&vs));
        assert!(!Element::Profile("h".into(), Part::Whole).covers(&vnic));
        assert!(!Element::Switch("h".into()).covers(&Element::host("h")));
    }
}
