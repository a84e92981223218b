//! A switch's `stp` table: mode, bridge priority, MST region and
//! revision, the VLANs spanning tree is disabled on, path cost.

use super::*;

pub(super) fn write_stp(out: &mut Writer, sw: &Switch<'_>, notes: &mut Vec<Note>) {
    let cfg = sw.cfg;
    let file = cfg.file.as_str();
    let at = |line: u32| At {
        file: file.to_string(),
        line,
    };
    let stp = &cfg.stp;
    out.blank();
    out.table(
        &format!("switches.{}.stp", toml::key(&sw.name)),
        &toml::sourced(file, &stp.mode),
    );
    // PVST+ with spanning tree off in VLAN 1 and in every VLAN the switch
    // defines runs no spanning tree at all: NX-OS and IOS say mode `none`
    // so (`no spanning-tree vlan 1-N`; neither has a global off). Read as
    // `none`, with both lines, and nothing else of the table applies.
    let pvst = matches!(stp.mode.value, StpMode::Pvst | StpMode::RapidPvst);
    let off = |id: u16| stp.disabled_vlans.contains_key(&id);
    if pvst && off(1) && cfg.vlans.keys().all(|id| off(*id)) {
        let mut lines: Vec<u32> = stp.disabled_vlans.values().copied().collect();
        lines.sort();
        lines.dedup();
        let from = Prov::join(
            std::iter::once(toml::sourced(file, &stp.mode))
                .chain(lines.iter().map(|l| Prov::line(file, *l))),
            ", ",
        );
        out.value("mode", &toml::string("none"), &from);
        out.comment("spanning tree is off in every VLAN the switch has (VLAN 1 too): mode none");
        return;
    }
    out.value(
        "mode",
        &toml::string(stp_mode(stp.mode.value)),
        &toml::sourced(file, &stp.mode),
    );
    let mut priority: Option<(u32, Prov)> = stp
        .bridge_priority
        .map(|p| (p.value.value, toml::sourced(file, &p)));
    let mut vlan_priority: Vec<(String, Prov)> = Vec::new();
    match stp.mode.value {
        StpMode::Pvst | StpMode::RapidPvst => {
            // PVST+ has no one-tree priority: the switch's is the vendor
            // default, written as such (a finding about a tree left at it
            // points at the default, not at another VLAN's line), and each
            // `spanning-tree vlan N priority P` line sets its own VLANs
            // (`vlan_priority`, one key per value; format v2,
            // docs/format.md) (issue 31 item 5).
            priority = Some((
                stp.default_priority.value,
                toml::sourced(file, &stp.default_priority),
            ));
            let mut by_value: BTreeMap<u32, (VlanSet, Vec<Prov>)> = BTreeMap::new();
            for (id, p) in &stp.vlan_priorities {
                let (set, from) = by_value.entry(p.value.value).or_default();
                set.insert(*id);
                let line = toml::sourced(file, p);
                if !from.contains(&line) {
                    from.push(line);
                }
            }
            for (value, (set, from)) in by_value {
                vlan_priority.push((
                    format!(
                        "{} = {value}",
                        toml::string(&crate::vlans::switch_list(&set).to_string())
                    ),
                    Prov::join(from, ", "),
                ));
            }
        }
        StpMode::Mst => {
            if let Some(p) = stp.mst.priorities.get(&0) {
                priority = Some((p.value.value, toml::sourced(file, p)));
            }
        }
        _ => {}
    }
    match priority {
        Some((v, from)) => out.value("priority", &v.to_string(), &from),
        None => out.comment(&format!(
            "priority: {} ({})",
            stp.default_priority.value,
            toml::sourced(file, &stp.default_priority)
        )),
    }
    if !vlan_priority.is_empty() {
        let (vals, from): (Vec<String>, Vec<Prov>) = vlan_priority.into_iter().unzip();
        out.value(
            "vlan_priority",
            &format!("{{ {} }}", vals.join(", ")),
            &Prov::join(from, "; "),
        );
    }
    // vPC `peer-switch`: the two peers act as one root with one bridge ID,
    // which Cisco requires to have one priority on both
    // (`vpc-peer-switch-priority` judges it); written where the design
    // has the domain (`mlag`), as the format allows it only there.
    if let (Some(_), Some(d)) = (domain_name(cfg), &cfg.mlag) {
        if let Some(ps) = d
            .peer_switch
            .as_ref()
            .filter(|p| d.kind == MlagKind::Vpc && p.value)
        {
            out.value("peer_switch", "true", &toml::sourced(file, ps));
        }
    }
    if stp.mode.value == StpMode::Mst {
        match &stp.mst.name {
            Some(n) => out.value("region", &toml::string(&n.value), &toml::sourced(file, n)),
            // OS10 names a region it is not told the name of by the
            // switch's system MAC address: a region of its own, which the
            // config does not show; written as one named after the switch
            // (the MAC itself is not in the config), so that two such
            // switches are two regions, as they are.
            None if cfg.vendor == Vendor::Os10 => out.value(
                "region",
                &toml::string(&format!("{} (system MAC)", sw.name)),
                &Prov::note(format!("default: {}", crate::defaults::OS10_MST_NAME)),
            ),
            None => {}
        }
        if let Some(r) = &stp.mst.revision {
            out.value("revision", &r.value.to_string(), &toml::sourced(file, r));
        }
        let inst: Vec<String> = stp
            .mst
            .instances
            .iter()
            .filter(|(id, _)| **id != 0)
            .map(|(id, v)| format!("{id} = {}", toml::vlan_list(&v.value)))
            .collect();
        if !inst.is_empty() {
            let from: Vec<Prov> = stp
                .mst
                .instances
                .values()
                .map(|v| toml::sourced(file, v))
                .collect();
            out.value(
                "instances",
                &format!("{{ {} }}", inst.join(", ")),
                &Prov::join(from, ", "),
            );
        }
        let prio: Vec<(String, Prov)> = stp
            .mst
            .priorities
            .iter()
            .filter(|(id, _)| **id != 0)
            .map(|(id, p)| (format!("{id} = {}", p.value.value), toml::sourced(file, p)))
            .collect();
        if !prio.is_empty() {
            let (vals, from): (Vec<String>, Vec<Prov>) = prio.into_iter().unzip();
            out.value(
                "instance_priority",
                &format!("{{ {} }}", vals.join(", ")),
                &Prov::join(from, ", "),
            );
        }
    }
    // `no spanning-tree vlan N`: `disabled_vlans` (PVST+ only, and never
    // VLAN 1, which carries the common tree: format v2 rejects both).
    if let Some(line) = stp.disabled_vlans.values().next() {
        let pvst = matches!(stp.mode.value, StpMode::Pvst | StpMode::RapidPvst);
        let mut set = VlanSet::EMPTY;
        for id in stp.disabled_vlans.keys().filter(|id| pvst && **id != 1) {
            set.insert(*id);
        }
        if !set.is_empty() {
            let from = Prov::join(
                stp.disabled_vlans
                    .values()
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .map(|l| Prov::line(file, *l)),
                ", ",
            );
            out.value("disabled_vlans", &toml::vlan_list(&set), &from);
        }
        let mut left = VlanSet::EMPTY;
        for id in stp.disabled_vlans.keys().filter(|id| !pvst || **id == 1) {
            left.insert(*id);
        }
        if !left.is_empty() {
            notes.push(Note::WaitsForV2 {
                what: "spanning tree off per VLAN",
                detail: format!(
                    "{}: no spanning tree on VLANs {}: netlint models it under PVST+ only, and never for VLAN 1",
                    sw.name,
                    crate::vlans::switch_list(&left)
                ),
                at: at(*line),
            });
        }
    }
    if let Some(pc) = &stp.path_cost {
        let method = match pc.value {
            PathCost::Short => "short",
            PathCost::Long => "long",
        };
        out.value("path_cost", &toml::string(method), &toml::sourced(file, pc));
    }
}
