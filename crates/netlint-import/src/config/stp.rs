//! Spanning-tree commands: global mode, priorities, MST region, path
//! cost, VLANs without spanning tree, and the port settings.

use super::*;
use crate::vlans;

/// `root primary` writes 24576 (or 4096 below a lower root at the time);
/// `root secondary` writes 28672. Cisco's NX-OS and IOS write the number
/// into the running-config; a `root` line that survives is read so.
const ROOT_PRIMARY: u32 = 24576;
const ROOT_SECONDARY: u32 = 28672;

impl Parser {
    pub(super) fn stp_global(&mut self, neg: bool, no: u32, body: &str, w: &[&str]) -> Outcome {
        let stp = &mut self.cfg.stp;
        match (neg, &w[1..]) {
            (false, ["mode", m]) => {
                let mode = match *m {
                    "rapid-pvst" | "rapid-pvst+" => StpMode::RapidPvst,
                    "pvst" => StpMode::Pvst,
                    "mst" | "mstp" => StpMode::Mst,
                    "rstp" => StpMode::Rstp,
                    "stp" | "backup" => StpMode::Stp,
                    "none" => StpMode::None,
                    other => {
                        return self.bad(no, body, format!("unknown spanning-tree mode `{other}`"))
                    }
                };
                stp.mode = Sourced::at(mode, no);
            }
            (true, []) | (false, ["disable"]) => stp.mode = Sourced::at(StpMode::None, no),
            (true, ["mode", ..]) => {}
            (false, ["vlan" | "vlan-id", list, rest @ ..]) => {
                let set = match vlans::parse(list) {
                    Ok(s) => s,
                    Err(e) => return self.bad(no, body, e.to_string()),
                };
                let prio = match (priority_words(rest), rest) {
                    (Words::Priority(p), _) => p,
                    (Words::Bad(why), _) => return self.bad(no, body, why),
                    (Words::Other, ["disable"]) => {
                        for id in set.iter() {
                            stp.disabled_vlans.insert(id, no);
                        }
                        return understood(Ctx::Leaf);
                    }
                    (Words::Other, ["hello-time" | "forward-time" | "max-age" | "enable", ..]) => {
                        return ignored("spanning-tree timers")
                    }
                    (Words::Other, _) => return (LineClass::NotUnderstood, Ctx::Unknown),
                };
                for id in set.iter() {
                    stp.vlan_priorities.insert(id, Sourced::at(prio, no));
                }
            }
            (true, ["vlan" | "vlan-id", list]) => match vlans::parse(list) {
                Ok(set) => {
                    for id in set.iter() {
                        stp.disabled_vlans.insert(id, no);
                    }
                }
                Err(e) => return self.bad(no, body, e.to_string()),
            },
            (false, ["priority", n]) | (false, ["rstp", "priority", n]) => match bridge_priority(n)
            {
                Some(v) => {
                    stp.bridge_priority = Some(Sourced::at(
                        Priority {
                            value: v,
                            how: PriorityHow::Value,
                        },
                        no,
                    ));
                }
                None => return self.bad(no, body, format!("`{n}` is not a bridge priority")),
            },
            (false, ["mst", "configuration"]) => return understood(Ctx::MstConfig),
            (false, ["mst", list, rest @ ..]) if list.starts_with(|c: char| c.is_ascii_digit()) => {
                let Some(ids) = instance_list(list) else {
                    return self.bad(no, body, format!("`{list}` is not a list of MST instances"));
                };
                let prio = match priority_words(rest) {
                    Words::Priority(p) => p,
                    Words::Bad(why) => return self.bad(no, body, why),
                    Words::Other => return ignored("spanning-tree timers"),
                };
                for id in ids {
                    stp.mst.priorities.insert(id, Sourced::at(prio, no));
                }
            }
            (false, ["pathcost", "method", m]) => {
                let pc = match *m {
                    "long" => PathCost::Long,
                    "short" => PathCost::Short,
                    other => {
                        return self.bad(no, body, format!("unknown path-cost method `{other}`"))
                    }
                };
                stp.path_cost = Some(Sourced::at(pc, no));
            }
            (_, ["port", "type", "edge", "default"])
            | (_, ["portfast", "default"])
            | (_, ["portfast", "edge", "default"]) => {
                stp.edge_default = Some(Sourced::at(!neg, no))
            }
            (_, ["port", "type", "edge", "trunk", "default"])
            | (_, ["portfast", "trunk", "default"])
            | (_, ["portfast", "edge", "trunk", "default"]) => {
                stp.edge_trunk_default = Some(Sourced::at(!neg, no))
            }
            (_, ["port", "type", "edge", "bpduguard", "default"])
            | (_, ["portfast", "bpduguard", "default"])
            | (_, ["portfast", "edge", "bpduguard", "default"])
            | (_, ["edge-port", "bpduguard", "default"]) => {
                stp.bpdu_guard_default = Some(Sourced::at(!neg, no))
            }
            _ => return ignored("spanning-tree option"),
        }
        understood(Ctx::Leaf)
    }

    pub(super) fn mst_child(&mut self, no: u32, words: &[&str]) -> Outcome {
        let mst = &mut self.cfg.stp.mst;
        match words {
            ["name", name] => mst.name = Some(Sourced::at(name.trim_matches('"').to_string(), no)),
            ["revision", n] => match number(Some(n), 0..=65535) {
                Some(r) => mst.revision = Some(Sourced::at(r, no)),
                None => return (LineClass::NotUnderstood, Ctx::Unknown),
            },
            ["instance", id, "vlan" | "vlans", list @ ..] => {
                let Some(id) = number(Some(id), 0..=4094) else {
                    return (LineClass::NotUnderstood, Ctx::Unknown);
                };
                let Ok(set) = vlans::parse(&list.join("")) else {
                    return (LineClass::NotUnderstood, Ctx::Unknown);
                };
                let id = id as u16;
                let merged = match mst.instances.get(&id) {
                    Some(old) => old.value.union(&set),
                    None => set,
                };
                mst.instances.insert(id, Sourced::at(merged, no));
            }
            ["exit"] | ["abort"] => return ignored("mode change"),
            _ => return (LineClass::NotUnderstood, Ctx::Unknown),
        }
        understood(Ctx::Leaf)
    }

    pub(super) fn port_stp(
        &mut self,
        i: usize,
        neg: bool,
        no: u32,
        body: &str,
        w: &[&str],
    ) -> Outcome {
        let stp = &mut self.cfg.interfaces[i].stp;
        let edge = |m: EdgeMode| Some(Sourced::at(m, no));
        match (neg, &w[1..]) {
            (false, ["port", "type", "edge"])
            | (false, ["portfast"])
            | (false, ["portfast", "edge"]) => stp.edge = edge(EdgeMode::Edge),
            (false, ["port", "type", "edge", "trunk"])
            | (false, ["portfast", "trunk"])
            | (false, ["portfast", "edge", "trunk"]) => stp.edge = edge(EdgeMode::EdgeTrunk),
            (false, ["port", "type", "network"]) | (false, ["portfast", "network"]) => {
                stp.edge = edge(EdgeMode::Network)
            }
            (false, ["port", "type", "normal"])
            | (false, ["portfast", "disable"])
            | (true, ["portfast", ..])
            | (true, ["port", "type", ..]) => stp.edge = edge(EdgeMode::Normal),
            (_, ["bpduguard", rest @ ..]) => {
                let on = match (neg, rest) {
                    (false, ["enable"] | []) => true,
                    (false, ["disable"]) | (true, _) => false,
                    _ => return self.bad(no, body, "bpduguard setting not read".to_string()),
                };
                stp.bpdu_guard = Some(Sourced::at(on, no));
            }
            (_, ["bpdufilter", rest @ ..]) => {
                let on = match (neg, rest) {
                    (false, ["enable"] | []) => true,
                    (false, ["disable"]) | (true, _) => false,
                    _ => return self.bad(no, body, "bpdufilter setting not read".to_string()),
                };
                stp.bpdu_filter = Some(Sourced::at(on, no));
            }
            (false, ["guard", g]) | (false, ["guard", g, "enable"]) => match *g {
                "root" => stp.root_guard = Some(Sourced::at(true, no)),
                "loop" => stp.loop_guard = Some(Sourced::at(true, no)),
                "none" => {
                    stp.root_guard = Some(Sourced::at(false, no));
                    stp.loop_guard = Some(Sourced::at(false, no));
                }
                other => return self.bad(no, body, format!("unknown guard `{other}`")),
            },
            (true, ["guard", ..]) => {
                stp.root_guard = Some(Sourced::at(false, no));
                stp.loop_guard = Some(Sourced::at(false, no));
            }
            // Per MST instance: Cisco `spanning-tree mst LIST cost N` (Cisco
            // Nexus 9000 Layer 2 Switching Configuration Guide, "Configuring
            // MST": the port cost of one instance, a range or a list), OS10
            // `spanning-tree msti N cost C` (Dell SmartFabric OS10 User
            // Guide 10.5, MST commands).
            (false, ["mst" | "msti", list, "cost", n]) => {
                let Some(ids) = instance_list(list) else {
                    return self.bad(no, body, format!("`{list}` is not a list of MST instances"));
                };
                let Some(c) = number(Some(n), 1..=200_000_000) else {
                    return self.bad(no, body, format!("`{n}` is not a port cost"));
                };
                for id in ids {
                    stp.mst_cost.insert(id, Sourced::at(c, no));
                }
            }
            // OS10 under RSTP: `spanning-tree rstp cost N` (Dell SmartFabric
            // OS10 User Guide 10.5, RSTP "Interface parameters").
            (false, ["cost", n] | ["rstp", "cost", n]) => match number(Some(n), 1..=200_000_000) {
                Some(c) => stp.cost = Some(Sourced::at(c, no)),
                None => return self.bad(no, body, format!("`{n}` is not a port cost")),
            },
            (false, ["port-priority", n]) => match number(Some(n), 0..=255) {
                Some(p) => stp.port_priority = Some(Sourced::at(p as u16, no)),
                None => return self.bad(no, body, format!("`{n}` is not a port priority")),
            },
            _ => return ignored("spanning-tree port option"),
        }
        understood(Ctx::Leaf)
    }
}

/// What the words after `vlan LIST` or `mst LIST` say.
enum Words {
    Priority(Priority),
    /// `priority` with a value that is no bridge priority.
    Bad(String),
    Other,
}

/// `priority N`, `root primary [diameter ..]`, `root secondary`.
fn priority_words(rest: &[&str]) -> Words {
    match rest {
        ["priority", n] => match bridge_priority(n) {
            Some(v) => Words::Priority(Priority {
                value: v,
                how: PriorityHow::Value,
            }),
            None => Words::Bad(format!("`{n}` is not a bridge priority")),
        },
        ["root", "primary", ..] => Words::Priority(Priority {
            value: ROOT_PRIMARY,
            how: PriorityHow::RootPrimary,
        }),
        ["root", "secondary", ..] => Words::Priority(Priority {
            value: ROOT_SECONDARY,
            how: PriorityHow::RootSecondary,
        }),
        _ => Words::Other,
    }
}

/// MST instances `0`, `1-3`, `0,2`: 0 to 4094.
fn instance_list(text: &str) -> Option<Vec<u16>> {
    let mut out = Vec::new();
    for part in text.split(',') {
        let (lo, hi) = match part.split_once('-') {
            Some((lo, hi)) => (number(Some(&lo), 0..=4094)?, number(Some(&hi), 0..=4094)?),
            None => {
                let n = number(Some(&part), 0..=4094)?;
                (n, n)
            }
        };
        if lo > hi {
            return None;
        }
        out.extend((lo..=hi).map(|n| n as u16));
    }
    Some(out)
}

/// A bridge priority: 0-61440 in steps of 4096 (with the extended
/// system id every platform here uses).
fn bridge_priority(word: &str) -> Option<u32> {
    number(Some(&word), 0..=61440).filter(|v| v % 4096 == 0)
}
