//! Spanning tree, for every vendor: the mode (or the nearest one the
//! platform has), bridge, per-VLAN and per-instance priorities, the MST
//! region.

use crate::plan::vlan_list;
use crate::Vendor;
use netlint_model::{Design, PathCost, StpMode, Switch};
use std::collections::{BTreeMap, BTreeSet};

pub(crate) fn stp(
    d: &Design,
    v: Vendor,
    s: &Switch,
    vlans: &BTreeSet<u16>,
    body: &mut Vec<String>,
    notes: &mut Vec<String>,
) {
    let _ = d;
    let st = &s.stp;
    let mode = st.mode.value;
    let word = match (v, mode) {
        (Vendor::NxOs, StpMode::RapidPvst) => Some("rapid-pvst"),
        (Vendor::NxOs, StpMode::Mstp) => Some("mst"),
        (Vendor::Eos, StpMode::RapidPvst) => Some("rapid-pvst"),
        (Vendor::Eos, StpMode::Mstp) => Some("mstp"),
        (Vendor::Eos, StpMode::Rstp) => Some("rstp"),
        (Vendor::Eos, StpMode::None) => Some("none"),
        (Vendor::Os10, StpMode::RapidPvst) => Some("rapid-pvst"),
        (Vendor::Os10, StpMode::Mstp) => Some("mst"),
        (Vendor::Os10, StpMode::Rstp) => Some("rstp"),
        (Vendor::Ios, StpMode::Pvst) => Some("pvst"),
        (Vendor::Ios, StpMode::RapidPvst) => Some("rapid-pvst"),
        (Vendor::Ios, StpMode::Mstp) => Some("mst"),
        _ => None,
    };
    let (mode, word) = match word {
        Some(w) => (mode, w),
        None => {
            // The nearest mode the platform has, with the design's
            // priorities: the mode itself is the difference `diff` shows.
            let (near, w) = match (v, mode) {
                (Vendor::Eos | Vendor::Os10, StpMode::Stp) => (StpMode::Rstp, "rstp"),
                // OS10 turns spanning tree off globally.
                (Vendor::Os10, StpMode::None) => {
                    body.push("spanning-tree disable".to_string());
                    return;
                }
                // One tree for every VLAN, as RSTP: MST's common instance.
                (Vendor::NxOs | Vendor::Ios, StpMode::Rstp | StpMode::Stp) => {
                    (StpMode::Mstp, "mst")
                }
                (Vendor::NxOs | Vendor::Ios, StpMode::None) => {
                    notes.push(format!(
                        "spanning-tree mode none: {} cannot turn spanning tree off; left at its default (rapid-pvst)",
                        v.name()
                    ));
                    return;
                }
                _ => (StpMode::RapidPvst, "rapid-pvst"),
            };
            notes.push(format!(
                "spanning-tree mode {mode}: {} has no such mode; written as {w}, with the design's priorities",
                v.name()
            ));
            (near, w)
        }
    };
    body.push(format!("spanning-tree mode {word}"));
    let vlan_kw = match v {
        Vendor::NxOs | Vendor::Os10 | Vendor::Ios => "vlan",
        Vendor::Eos => "vlan-id",
    };
    let ind = v.indent();
    match mode {
        StpMode::RapidPvst | StpMode::Pvst => {
            let mut ids: BTreeSet<u16> = vlans.clone();
            ids.insert(1);
            ids.extend(st.vlan_priority.keys().copied());
            let mut by: BTreeMap<u32, BTreeSet<u16>> = BTreeMap::new();
            for id in ids {
                by.entry(st.vlan_priority(id)).or_default().insert(id);
            }
            for (p, set) in by {
                if p != 32768 {
                    body.push(format!(
                        "spanning-tree {vlan_kw} {} priority {p}",
                        vlan_list(&set)
                    ));
                }
            }
            if let Some(dis) = &st.disabled_vlans {
                let set: BTreeSet<u16> = dis.value.iter().collect();
                if !set.is_empty() {
                    body.push(match v {
                        Vendor::Os10 => format!("spanning-tree vlan {} disable", vlan_list(&set)),
                        Vendor::NxOs | Vendor::Eos | Vendor::Ios => {
                            format!("no spanning-tree {vlan_kw} {}", vlan_list(&set))
                        }
                    });
                }
            }
        }
        StpMode::Mstp => {
            if st.priority.is_some() {
                body.push(format!(
                    "spanning-tree mst 0 priority {}",
                    st.bridge_priority()
                ));
            }
            for (i, p) in &st.instance_priority {
                body.push(format!("spanning-tree mst {i} priority {}", p.value));
            }
            body.push("spanning-tree mst configuration".to_string());
            if let Some(r) = &st.region {
                body.push(format!("{ind}name {}", r.value));
            }
            if let Some(r) = &st.revision {
                body.push(format!("{ind}revision {}", r.value));
            }
            if let Some(inst) = &st.instances {
                for (i, set) in &inst.value {
                    let set: BTreeSet<u16> = set.iter().collect();
                    body.push(format!("{ind}instance {i} vlan {}", vlan_list(&set)));
                }
            }
        }
        StpMode::Rstp if st.priority.is_some() => {
            body.push(match v {
                Vendor::Os10 => format!("spanning-tree rstp priority {}", st.bridge_priority()),
                Vendor::NxOs | Vendor::Eos | Vendor::Ios => {
                    format!("spanning-tree priority {}", st.bridge_priority())
                }
            });
        }
        _ => {}
    }
    if mode != StpMode::RapidPvst && mode != StpMode::Pvst {
        if let Some(dis) = &st.disabled_vlans {
            if !dis.value.is_empty() {
                notes.push(format!(
                    "spanning tree off per VLAN under {mode}: not generated"
                ));
            }
        }
    }
    if let Some(pc) = &st.path_cost {
        match v {
            Vendor::NxOs | Vendor::Ios => body.push(format!(
                "spanning-tree pathcost method {}",
                match pc.value {
                    PathCost::Long => "long",
                    PathCost::Short => "short",
                }
            )),
            Vendor::Eos => notes.push(format!(
                "spanning-tree path-cost method {}: EOS sets none (not generated)",
                pc.value
            )),
            Vendor::Os10 => notes.push(format!(
                "spanning-tree path-cost method {}: no OS10 command for it was found (not generated)",
                pc.value
            )),
        }
    }
}
