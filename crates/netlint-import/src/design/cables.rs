//! Cables from the cabling CSV and the LLDP tables, one per pair of ports,
//! with the conflicts between the two sources noted.

use std::collections::{BTreeMap, HashMap};

use super::{file_stem, At, Note, Switch};
use crate::lldp::peer::is_switch_port_name;
use crate::lldp::PeerKind;
use crate::names::IfName;
use crate::Document;

/// One end of a cable: a device and its port (a switch port in canonical
/// form, anything else as written).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct End {
    pub device: String,
    pub port: String,
}

/// A cable between two ends, with the line that tells of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cable {
    pub a: End,
    pub b: End,
    pub at: At,
    pub from_lldp: bool,
    /// What the LLDP neighbour at `b` is, when its table states it (its
    /// system description or capabilities); `None` for a cabling row or a
    /// kind inferred from the port's name, which the design infers itself.
    pub b_stated: Option<PeerKind>,
}

impl Cable {
    /// Whether `far`, an end of this cable, is a switch as its LLDP
    /// neighbour states; `None` when nothing states it.
    pub(crate) fn stated_switch(&self, far: &End) -> Option<bool> {
        let stated = self.b_stated.filter(|_| *far == self.b)?;
        Some(stated == PeerKind::Switch)
    }
}

struct Ctx<'a> {
    by_name: &'a BTreeMap<String, usize>,
    /// Catalyst stacks read as their members: stack name -> member number
    /// -> the member's switch name.
    stacks: BTreeMap<String, BTreeMap<u32, String>>,
}

impl Ctx<'_> {
    /// A device name as the design knows it: an imported switch's name
    /// (also from an FQDN `tor1.example.net`), else as written.
    fn device(&self, name: &str) -> String {
        if self.by_name.contains_key(name) || self.stacks.contains_key(name) {
            return name.to_string();
        }
        let short = name.split('.').next().unwrap_or(name);
        if self.by_name.contains_key(short) || self.stacks.contains_key(short) {
            return short.to_string();
        }
        name.to_string()
    }

    fn end(&self, device: &str, port: &str) -> End {
        let mut device = self.device(device);
        // A stack's port is on the member its number names (`Gi2/0/1`).
        if let Some(members) = self.stacks.get(&device) {
            let member = IfName::parse(port)
                .and_then(|n| crate::model::stack_member_of(&n))
                .and_then(|m| members.get(&m));
            if let Some(m) = member {
                device = m.clone();
            }
        }
        let port = if self.by_name.contains_key(&device) {
            IfName::parse(port).map_or_else(|| port.trim().to_string(), |n| n.to_string())
        } else {
            port.trim().to_string()
        };
        End { device, port }
    }
}

/// Every cable the documents tell of. LLDP wins over the cabling sheet
/// where they disagree (it is what is plugged in); the disagreement is a
/// note.
pub(crate) fn collect(
    docs: &[Document],
    switches: &[Switch<'_>],
    by_name: &BTreeMap<String, usize>,
    notes: &mut Vec<Note>,
) -> Vec<Cable> {
    let mut stacks: BTreeMap<String, BTreeMap<u32, String>> = BTreeMap::new();
    for sw in switches {
        if let Some(st) = &sw.cfg.stack {
            stacks
                .entry(st.name.clone())
                .or_default()
                .insert(st.member, sw.name.clone());
        }
    }
    let ctx = Ctx { by_name, stacks };
    let mut cables: Vec<Option<Cable>> = Vec::new();
    let mut at_end: HashMap<End, usize> = HashMap::new();
    let mut add = |cable: Cable, cables: &mut Vec<Option<Cable>>, notes: &mut Vec<Note>| {
        let existing = [&cable.a, &cable.b]
            .iter()
            .find_map(|e| at_end.get(*e).copied());
        if let Some(i) = existing {
            let old = cables[i].clone().expect("indexed cables are kept");
            let same =
                (old.a == cable.a && old.b == cable.b) || (old.a == cable.b && old.b == cable.a);
            // A host names its ports its own way (LLDP sends a description,
            // the sheet a NIC name): the same device at the far end is the
            // same cable, and the sheet's name stays.
            let same_host =
                |x: &End, y: &End| x.device == y.device && !by_name.contains_key(&x.device);
            let same_far = (old.a == cable.a && same_host(&old.b, &cable.b))
                || (old.b == cable.a && same_host(&old.a, &cable.b))
                || (old.a == cable.b && same_host(&old.b, &cable.a))
                || (old.b == cable.b && same_host(&old.a, &cable.a));
            if same || same_far {
                return;
            }
            if cable.from_lldp && !old.from_lldp {
                let (port, lldp_far) = if old.a == cable.a || old.b == cable.a {
                    (&cable.a, &cable.b)
                } else {
                    (&cable.b, &cable.a)
                };
                let sheet_far = if old.a == *port { &old.b } else { &old.a };
                notes.push(Note::CablingConflict {
                    port: format!("{} {}", port.device, port.port),
                    lldp: (
                        format!("{} {}", lldp_far.device, lldp_far.port),
                        cable.at.clone(),
                    ),
                    cabling: (
                        format!("{} {}", sheet_far.device, sheet_far.port),
                        old.at.clone(),
                    ),
                });
                at_end.remove(&old.a);
                at_end.remove(&old.b);
                cables[i] = None;
            } else {
                // Two LLDP tables or two sheet rows disagree: the first
                // stays; a second LLDP neighbour on one port is noted.
                if cable.from_lldp && old.from_lldp {
                    let shared = if old.a == cable.a || old.b == cable.a {
                        &cable.a
                    } else {
                        &cable.b
                    };
                    let other = if *shared == cable.a {
                        &cable.b
                    } else {
                        &cable.a
                    };
                    let kept = if old.a == *shared { &old.b } else { &old.a };
                    notes.push(Note::SharedPort {
                        port: format!("{} {}", shared.device, shared.port),
                        kept: (format!("{} {}", kept.device, kept.port), old.at.clone()),
                        left: (format!("{} {}", other.device, other.port), cable.at.clone()),
                    });
                }
                return;
            }
        }
        at_end.insert(cable.a.clone(), cables.len());
        at_end.insert(cable.b.clone(), cables.len());
        cables.push(Some(cable));
    };
    for doc in docs {
        if let Document::Cabling(c) = doc {
            for row in &c.cables {
                let cable = Cable {
                    a: ctx.end(&row.device, &row.port),
                    b: ctx.end(&row.peer_device, &row.peer_port),
                    at: At {
                        file: c.file.clone(),
                        line: row.line,
                    },
                    from_lldp: false,
                    b_stated: None,
                };
                add(cable, &mut cables, notes);
            }
        }
    }
    for doc in docs {
        let Document::Lldp(t) = doc else { continue };
        let device = match &t.local_device {
            Some(d) => ctx.device(&d.value),
            None => {
                let stem = file_stem(&t.file);
                if by_name.contains_key(&stem) || ctx.stacks.contains_key(&stem) {
                    stem
                } else {
                    notes.push(Note::UnknownTableDevice {
                        file: t.file.clone(),
                    });
                    continue;
                }
            }
        };
        for n in &t.neighbors {
            let far_device = match (&n.system_name, &n.chassis_id) {
                (Some(s), _) => ctx.device(s),
                (None, Some(c)) => format!("chassis {c}"),
                (None, None) => continue,
            };
            // A switch's port is its Port ID; a host's, its description
            // (a NIC's name) before its Port ID (often a MAC). Unstated,
            // a Port ID named like a switch interface tells a switch.
            let switch_port = match n.peer.stated() {
                true => n.peer.kind == PeerKind::Switch,
                false => n.port_id.as_deref().is_some_and(is_switch_port_name),
            };
            let far_port =
                if by_name.contains_key(&far_device) || ctx.stacks.contains_key(&far_device) {
                    n.remote_port
                        .as_ref()
                        .map(|p| p.to_string())
                        .or_else(|| n.port_id.clone())
                } else if switch_port {
                    n.port_id.clone().or_else(|| n.port_description.clone())
                } else {
                    n.port_description.clone().or_else(|| n.port_id.clone())
                };
            let cable = Cable {
                a: ctx.end(&device, &n.local_port.value.to_string()),
                b: ctx.end(
                    &far_device,
                    far_port.as_deref().unwrap_or("(port not advertised)"),
                ),
                at: At {
                    file: t.file.clone(),
                    line: n.line,
                },
                from_lldp: true,
                b_stated: n.peer.stated().then_some(n.peer.kind),
            };
            add(cable, &mut cables, notes);
        }
    }
    cables.into_iter().flatten().collect()
}
