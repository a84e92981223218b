//! Virtual switches and host vNICs of a Hyper-V collection: Get-VMSwitch,
//! Get-VMSwitchTeam, Get-VMNetworkAdapter and its VLAN, isolation and
//! team mapping, and the switches Network ATC names without listing them.

use super::*;

/// The adapter named by an interface description.
pub(super) fn adapter_by_description(c: &Collection, desc: &str) -> Option<String> {
    c.objects("Get-NetAdapter")
        .iter()
        .find(|a| a.get("InterfaceDescription").and_then(Node::as_str) == Some(desc))
        .and_then(name_of)
}

pub(super) fn vswitches(c: &Collection, h: &mut HostFacts) {
    if c.cmdlet("Get-VMSwitch").is_none() {
        return;
    }
    let mut out = Vec::new();
    for s in c.objects("Get-VMSwitch") {
        let Some(name) = name_of(s) else { continue };
        let external = match s.get("SwitchType") {
            Some(t) => {
                t.as_i64() == Some(2)
                    || t.as_str()
                        .is_some_and(|x| x.eq_ignore_ascii_case("External"))
            }
            None => true,
        };
        let team = c
            .objects("Get-VMSwitchTeam")
            .iter()
            .find(|t| name_of(t).as_deref() == Some(&name));
        // SET members: Get-VMSwitchTeam NetAdapterInterfaceDescription (one
        // per member), else the switch's NetAdapterInterfaceDescriptions.
        let descs = team
            .and_then(|t| t.get("NetAdapterInterfaceDescription"))
            .or_else(|| s.get("NetAdapterInterfaceDescriptions"))
            .or_else(|| s.get("NetAdapterInterfaceDescription"));
        let mut uplinks = Vec::new();
        let mut line = s.line;
        if let Some(d) = descs {
            line = d.line;
            for item in d.items() {
                let Some(text) = item.as_str() else { continue };
                match adapter_by_description(c, text) {
                    Some(a) => uplinks.push(a),
                    None => remark(
                        h,
                        item.line,
                        format!("virtual switch {name}: no adapter has the description `{text}`"),
                    ),
                }
            }
        }
        let lba = team
            .and_then(|t| t.get("LoadBalancingAlgorithm"))
            .and_then(|m| enum_of(m, LBA).map(|v| at(v, m)));
        out.push(VSwitchFacts {
            line: s.line,
            name,
            external,
            uplinks: Sourced::at(uplinks, line),
            embedded_teaming: s
                .get("EmbeddedTeamingEnabled")
                .and_then(|e| e.as_bool().map(|b| at(b, e))),
            lba,
            bandwidth_mode: s
                .get("BandwidthReservationMode")
                .and_then(|m| enum_of(m, BW_MODE).map(|v| at(v, m))),
            default_flow_weight: s.get("DefaultFlowMinimumBandwidthWeight").and_then(|w| {
                w.as_i64()
                    .and_then(|v| u32::try_from(v).ok())
                    .map(|v| at(v, w))
            }),
        });
    }
    h.vswitches = Some(out);
}

/// The name of the vNIC an object of `Get-VMNetworkAdapterVlan`,
/// `-Isolation` or `-TeamMapping` is about: its `ParentAdapter` (an object
/// with a `Name`, or the text `VMInternalNetworkAdapter, Name = '...'`),
/// else the property `other` the script adds.
pub(super) fn parent_of(o: &Node, other: &str) -> Option<String> {
    o.get_any(&["ParentAdapter"])
        .and_then(|p| {
            p.get("Name")
                .and_then(Node::scalar_text)
                .or_else(|| p.as_str().map(|t| parent_name(t).to_string()))
        })
        .or_else(|| o.get(other).and_then(Node::scalar_text))
}

pub(super) fn vnics(c: &Collection, by_name: &ByName, h: &mut HostFacts) {
    let isolation = c.objects("Get-VMNetworkAdapterIsolation");
    if c.cmdlet("Get-VMNetworkAdapter").is_none() && isolation.is_empty() {
        return;
    }
    // The VLAN settings, isolation settings and team mappings of each
    // vNIC, in file order, gathered once (not a pass over all of them per
    // vNIC).
    let by_parent = |cmdlet: &str, other: &str| {
        let mut of: HashMap<String, Vec<&Node>> = HashMap::new();
        for o in c.objects(cmdlet) {
            if let Some(p) = parent_of(o, other) {
                of.entry(p).or_default().push(o);
            }
        }
        of
    };
    let vlans_of = by_parent("Get-VMNetworkAdapterVlan", "AdapterName");
    let isolation_of = by_parent("Get-VMNetworkAdapterIsolation", "AdapterName");
    let maps_of = by_parent("Get-VMNetworkAdapterTeamMapping", "VMNetworkAdapterName");
    // The vNICs: Get-VMNetworkAdapter -ManagementOS, and the Network ATC
    // vNICs only the isolation settings name (a capture of
    // Get-VMNetworkAdapterIsolation alone).
    let mut listed: Vec<(String, &Node)> = Vec::new();
    for v in c.objects("Get-VMNetworkAdapter") {
        let Some(name) = name_of(v) else { continue };
        // -ManagementOS adapters only: IsManagementOs true (or not stated).
        if v.get("IsManagementOs").and_then(Node::as_bool) == Some(false) {
            continue;
        }
        listed.push((name, v));
    }
    for o in isolation {
        if let Some(p) = parent_of(o, "AdapterName") {
            if atc_intent(&p).is_some() && !listed.iter().any(|(n, _)| *n == p) {
                listed.push((p, o));
            }
        }
    }
    let mut out = Vec::new();
    for (name, v) in listed {
        let mut f = VnicFacts {
            line: v.line,
            name: name.clone(),
            switch: v
                .get("SwitchName")
                .and_then(|s| s.as_str().map(|t| at(t.to_string(), s))),
            weight: None,
            vlan: None,
            pinned: None,
            rdma_enabled: None,
            jumbo_packet: None,
            adapter: by_name.vnic_adapter(&name),
        };
        if f.switch.is_none() {
            if let Some(intent) = atc_intent(&name) {
                f.switch = Some(Sourced {
                    value: atc_switch(intent),
                    origin: Origin::Inferred {
                        why: ATC_SWITCH_INFERRED,
                        from: Lines::of([v.line]),
                    },
                });
            }
        }
        if let Some(w) = v.path(&["BandwidthSetting", "MinimumBandwidthWeight"]) {
            f.weight = w
                .as_i64()
                .and_then(|x| u32::try_from(x).ok())
                .map(|x| at(x, w));
        } else if let Some(b) = v.get("BandwidthSetting").and_then(Node::as_str) {
            // Depth ran out: the object is its type name.
            remark(
                h,
                v.get("BandwidthSetting").map_or(v.line, |n| n.line),
                format!("vNIC {name}: BandwidthSetting was written as text (`{b}`; ConvertTo-Json -Depth too small): its weight is unknown"),
            );
        }
        for vl in vlans_of.get(&name).into_iter().flatten() {
            if let Some(a) = vl.get("AccessVlanId") {
                f.vlan = a
                    .as_i64()
                    .and_then(|x| u16::try_from(x).ok())
                    .map(|x| at(x, a));
            }
            let mode = vl.get("OperationMode");
            let access = mode.is_none_or(|m| {
                m.as_i64() == Some(1)
                    || m.as_str().is_some_and(|s| s.eq_ignore_ascii_case("Access"))
            });
            let untagged = mode.is_some_and(|m| {
                m.as_i64() == Some(0)
                    || m.as_str()
                        .is_some_and(|s| s.eq_ignore_ascii_case("Untagged"))
            });
            if untagged {
                f.vlan = Some(Sourced::at(0, mode.map_or(vl.line, |m| m.line)));
            } else if !access {
                remark(
                    h,
                    vl.line,
                    format!("vNIC {name}: VLAN operation mode is trunk or private; only access VLANs are written"),
                );
            }
        }
        if let Some(iso) = isolation_of.get(&name).and_then(|l| l.first()) {
            isolation_vlan(h, &mut f, iso);
        }
        for m in maps_of.get(&name).into_iter().flatten() {
            if let Some(a) = m.get("NetAdapterName") {
                f.pinned = a.scalar_text().map(|x| at(x, a));
            }
        }
        if let Some(alias) = &f.adapter {
            if let Some(r) = by_name.rdma.get(alias) {
                if let Some(e) = r.get("Enabled") {
                    f.rdma_enabled = e.as_bool().map(|b| at(b, e));
                }
            }
            if let Some(p) = by_name.advanced(alias, "*JumboPacket") {
                if let Some(v) = adv_number(p) {
                    f.jumbo_packet = u32::try_from(v.value).ok().map(|j| Sourced {
                        value: j,
                        origin: v.origin,
                    });
                }
            }
        }
        out.push(f);
    }
    h.vnics = Some(out);
}

/// A vNIC's `Get-VMNetworkAdapterIsolation`: with `IsolationMode Vlan`
/// its `DefaultIsolationID` is the VLAN in force (Network ATC sets the
/// storage VLANs this way, and `Get-VMNetworkAdapterVlan` then says
/// `Untagged`; Microsoft, "Configure and View VLAN Settings on Hyper-V
/// Virtual Switch Ports"). When the two disagree the isolation VLAN is
/// written and a remark names both.
pub(super) fn isolation_vlan(h: &mut HostFacts, f: &mut VnicFacts, iso: &Node) {
    let name = f.name.clone();
    let Some(mode_node) = iso.get("IsolationMode") else {
        return;
    };
    match enum_of(mode_node, ISOLATION_MODE) {
        Some(IsolationMode::Vlan) => {
            let id = iso.get("DefaultIsolationID");
            match id.and_then(|n| n.as_i64().map(|v| (v, n))) {
                Some((v, n)) if (1..=4094).contains(&v) => {
                    let iv = at(v as u16, n);
                    match &f.vlan {
                        Some(x) if i64::from(x.value) == v => {}
                        Some(x) => {
                            let said = if x.value == 0 {
                                "untagged".to_string()
                            } else {
                                format!("access VLAN {}", x.value)
                            };
                            let line = x.line().map_or(String::new(), |l| format!(" (line {l})"));
                            remark(
                                h,
                                n.line,
                                format!(
                                    "vNIC {name}: Get-VMNetworkAdapterVlan says {said}{line} but Get-VMNetworkAdapterIsolation sets IsolationMode Vlan, DefaultIsolationID {v} (line {}): the isolation VLAN is the one in force (how Network ATC sets storage VLANs; Microsoft, \"Configure and View VLAN Settings on Hyper-V Virtual Switch Ports\"), VLAN {v} is written",
                                    n.line
                                ),
                            );
                            f.vlan = Some(iv);
                        }
                        None => f.vlan = Some(iv),
                    }
                }
                _ => remark(
                    h,
                    iso.line,
                    format!("vNIC {name}: IsolationMode Vlan without a DefaultIsolationID of 1-4094: its isolation VLAN is unknown, the VLAN written is Get-VMNetworkAdapterVlan's"),
                ),
            }
        }
        Some(IsolationMode::None) => {}
        Some(m) => remark(
            h,
            mode_node.line,
            format!("vNIC {name}: IsolationMode {m:?} (network virtualization): its virtual subnet is not read, the VLAN written is Get-VMNetworkAdapterVlan's"),
        ),
        None => remark(
            h,
            mode_node.line,
            format!("vNIC {name}: IsolationMode is none of None, NativeVirtualSubnet, ExternalVirtualSubnet, Vlan (0-3): not read"),
        ),
    }
}

/// A `ConvergedSwitch(<intent>)` a vNIC is on (by its name, or ATC's
/// naming) that `Get-VMSwitch` does not list: built by Network ATC on the
/// intent's adapters, written with them as its uplinks, inferred.
pub(super) fn atc_switches(h: &mut HostFacts) {
    let wanted: Vec<String> = h
        .vnics
        .iter()
        .flatten()
        .filter_map(|v| v.switch.as_ref().map(|s| s.value.clone()))
        .collect();
    let mut add = Vec::new();
    for i in h.intents.iter().flatten() {
        let sw = atc_switch(&i.name);
        let listed = h.vswitches.iter().flatten().any(|s| s.name == sw);
        if listed || !wanted.contains(&sw) || add.iter().any(|s: &VSwitchFacts| s.name == sw) {
            continue;
        }
        if i.adapters.is_empty()
            || !i
                .adapters
                .iter()
                .all(|a| h.nics.iter().any(|n| &n.name == a))
        {
            continue;
        }
        add.push(VSwitchFacts {
            line: i.line,
            name: sw,
            external: true,
            uplinks: Sourced {
                value: i.adapters.clone(),
                origin: Origin::Inferred {
                    why: ATC_UPLINKS_INFERRED,
                    from: Lines::of([i.line]),
                },
            },
            embedded_teaming: None,
            lba: None,
            bandwidth_mode: None,
            default_flow_weight: None,
        });
    }
    if !add.is_empty() {
        h.vswitches.get_or_insert_with(Vec::new).extend(add);
    }
}
