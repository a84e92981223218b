//! A Hyper-V host against its Network ATC intents: the design writes the
//! host as it is, and where it differs from an intent is a note.

use std::collections::BTreeSet;

use super::{Ctx, NoteKind};

/// Network ATC: where the host differs from its intents, a note.
pub(super) fn intents(c: &mut Ctx<'_>, nic_names: &BTreeSet<&str>) {
    let h = c.h;
    for i in h.intents.iter().flatten() {
        for a in &i.adapters {
            if !nic_names.contains(a.as_str()) {
                c.note(
                    i.line,
                    NoteKind::IntentDiffers,
                    format!(
                        "Network ATC intent {} names adapter {a}, which the host does not have",
                        i.name
                    ),
                );
                continue;
            }
            let nic = h.nics.iter().find(|n| &n.name == a);
            if let (Some(j), Some(n)) = (&i.jumbo_packet, nic) {
                let actual = n.jumbo_packet.as_ref().map(|x| x.value);
                if actual != Some(j.value) {
                    c.note(
                        n.line,
                        NoteKind::IntentDiffers,
                        format!(
                            "Network ATC intent {} sets JumboPacket {} but adapter {a} has {}",
                            i.name,
                            j.value,
                            actual.map_or("none collected".into(), |x| x.to_string())
                        ),
                    );
                }
            }
            if i.storage {
                if let Some(n) = nic {
                    if n.rdma_enabled.as_ref().is_some_and(|e| !e.value) {
                        c.note(n.line, NoteKind::IntentDiffers, format!("Network ATC intent {} carries storage on adapter {a}, whose RDMA is off", i.name));
                    }
                }
            }
        }
        if i.compute || i.management {
            let on_switch = h
                .vswitches
                .iter()
                .flatten()
                .any(|s| i.adapters.iter().all(|a| s.uplinks.value.contains(a)));
            if !on_switch && !i.adapters.is_empty() {
                c.note(i.line, NoteKind::IntentDiffers, format!("Network ATC intent {} (compute or management) expects a SET switch on {}, and no virtual switch has exactly these uplinks", i.name, i.adapters.join(", ")));
            }
        }
    }
}
