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
    let st = &s.stp;
    let mode = st.mode.value;
    // Under vPC `peer-switch` (written for every vPC domain the design does
    // not say runs without it) the two peers act as one root with one
    // bridge ID, and Cisco requires one spanning-tree priority on both
    // (documents 118858 and 217274): each peer gets the domain's, the
    // lowest of its peers' per VLAN, instance and bridge, which is what
    // netlint models the domain with (docs/format.md).
    let peers: Vec<&Switch> = match &s.mlag {
        Some(m) if v == Vendor::NxOs && st.peer_switch.as_ref().is_none_or(|p| p.value) => d
            .switches
            .iter()
            .filter(|x| x.mlag.as_ref().is_some_and(|y| y.value == m.value))
            .collect(),
        _ => vec![s],
    };
    let vlan_priority = |id: u16| {
        peers
            .iter()
            .map(|p| p.stp.vlan_priority(id))
            .min()
            .unwrap_or_else(|| st.vlan_priority(id))
    };
    let bridge_priority = peers
        .iter()
        .map(|p| p.stp.bridge_priority())
        .min()
        .unwrap_or_else(|| st.bridge_priority());
    let priority_set = peers.iter().any(|p| p.stp.priority.is_some());
    let mut instance_priority: BTreeMap<u16, u32> = BTreeMap::new();
    for p in &peers {
        for (i, x) in &p.stp.instance_priority {
            let e = instance_priority.entry(*i).or_insert(x.value);
            *e = (*e).min(x.value);
        }
    }
    if peers.len() > 1 {
        let own_differs = bridge_priority != st.bridge_priority()
            || instance_priority
                .iter()
                .any(|(i, x)| st.instance_priority.get(i).map(|p| p.value) != Some(*x))
            || peers
                .iter()
                .flat_map(|p| p.stp.vlan_priority.keys().copied())
                .any(|id| vlan_priority(id) != st.vlan_priority(id));
        if own_differs {
            let names: Vec<&str> = peers
                .iter()
                .filter(|p| p.name != s.name)
                .map(|p| p.name.as_str())
                .collect();
            notes.push(format!(
                "vPC peer-switch: {} gets the spanning-tree priorities of its domain (the lowest of it and {}), not its own: Cisco requires one priority on both peers under peer-switch (documents 118858, 217274)",
                s.name,
                names.join(", ")
            ));
        }
    }
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
                // No mode turns spanning tree off, but rapid PVST+ turns it
                // off per VLAN (`no spanning-tree vlan LIST`, Cisco's Nexus
                // 9000 Layer 2 Switching and Catalyst Layer 2 guides): off
                // in every VLAN the switch carries, VLAN 1 with them, is
                // no spanning tree, as `netlint diff` reads it back.
                (Vendor::NxOs | Vendor::Ios, StpMode::None) => {
                    let mut all: BTreeSet<u16> = vlans.clone();
                    all.insert(1);
                    let list = vlan_list(&all);
                    body.push("spanning-tree mode rapid-pvst".to_string());
                    body.push(format!("no spanning-tree vlan {list}"));
                    notes.push(format!(
                        "spanning-tree mode none: {} has no such mode; written as rapid-pvst with spanning tree off in every VLAN the switch carries ({list})",
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
            for p in &peers {
                ids.extend(p.stp.vlan_priority.keys().copied());
            }
            let mut by: BTreeMap<u32, BTreeSet<u16>> = BTreeMap::new();
            for id in ids {
                by.entry(vlan_priority(id)).or_default().insert(id);
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
            if priority_set {
                body.push(format!("spanning-tree mst 0 priority {bridge_priority}"));
            }
            for (i, p) in &instance_priority {
                body.push(format!("spanning-tree mst {i} priority {p}"));
            }
            body.push("spanning-tree mst configuration".to_string());
            match &st.region {
                Some(r) => body.push(format!("{ind}name {}", r.value)),
                // OS10 names an unnamed region by the switch's system MAC
                // (OS10 User Guide 10.5, MST `name`): every switch a region
                // of its own. The design's switches share one unnamed
                // region: named after the design, so they stay one.
                None if v == Vendor::Os10 => {
                    let name: String = d
                        .name
                        .value
                        .chars()
                        .map(|c| {
                            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                                c
                            } else {
                                '-'
                            }
                        })
                        .take(32)
                        .collect();
                    body.push(format!("{ind}name {name}"));
                    notes.push(format!(
                        "MST region: the design names none, and OS10 names an unnamed one by the switch's system MAC (a region per switch); named `{name}` after the design, on every switch"
                    ));
                }
                None => {}
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
        StpMode::Rstp if priority_set => {
            body.push(match v {
                Vendor::Os10 => format!("spanning-tree rstp priority {bridge_priority}"),
                Vendor::NxOs | Vendor::Eos | Vendor::Ios => {
                    format!("spanning-tree priority {bridge_priority}")
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
