//! `mstp-region-mismatch`: two adjacent MSTP switches name the same region
//! but differ in revision or VLAN-to-instance map, so they form two regions.

use super::and_list;
use crate::rules::fix_at::switch_table;
use crate::{declare_rule, Context};
use netlint_model::{
    Design, Diagnostic, Fix, FixEdit, LinkKind, Span, StpMode, Switch, SwitchId, VlanSet,
};
use std::collections::BTreeMap;

declare_rule!(
    RULE,
    id: "mstp-region-mismatch",
    category: "stp",
    severity: Error,
    summary: "Adjacent MSTP switches name the same region but differ in revision or VLAN-to-instance map: they form two regions.",
    check: check,
);

/// A switch's MSTP configuration as the region election compares it.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Config {
    revision: u32,
    /// VLAN -> instance (VLANs in instance 0 left out).
    map: BTreeMap<u16, u16>,
}

fn config(sw: &Switch) -> Config {
    let mut map = BTreeMap::new();
    if let Some(inst) = &sw.stp.instances {
        for (k, set) in &inst.value {
            for v in set.iter() {
                map.insert(v, *k);
            }
        }
    }
    Config {
        revision: sw.stp.revision.as_ref().map(|r| r.value).unwrap_or(0),
        map,
    }
}

fn region(sw: &Switch) -> Option<&str> {
    (sw.stp.mode.value == StpMode::Mstp)
        .then(|| sw.stp.region.as_ref().map(|r| r.value.as_str()))
        .flatten()
}

/// `instances = { 1 = [20, 30], 2 = [10, "100-110"] }` as TOML.
fn instances_toml(c: &Config) -> String {
    let mut by: BTreeMap<u16, VlanSet> = BTreeMap::new();
    for (v, k) in &c.map {
        by.entry(*k).or_default().insert(*v);
    }
    let parts: Vec<String> = by
        .iter()
        .map(|(k, set)| {
            let items: Vec<String> = set
                .to_string()
                .split(", ")
                .map(|x| {
                    if x.contains('-') {
                        format!("\"{x}\"")
                    } else {
                        x.to_string()
                    }
                })
                .collect();
            format!("{k} = [{}]", items.join(", "))
        })
        .collect();
    format!("instances = {{ {} }}", parts.join(", "))
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let design = cx.design;
    let topo = cx.topology();
    // The configuration most switches of each region name hold (ties: the
    // first switch in the file): the one the odd switch should copy.
    // Each MSTP switch's configuration, worked out once.
    let configs: Vec<Option<Config>> = design
        .switches
        .iter()
        .map(|sw| region(sw).map(|_| config(sw)))
        .collect();
    let config_of = |s: SwitchId| configs[s.0].as_ref();
    let mut votes: BTreeMap<&str, Vec<(Config, usize, SwitchId)>> = BTreeMap::new();
    for (i, sw) in design.switches.iter().enumerate() {
        if let (Some(r), Some(c)) = (region(sw), &configs[i]) {
            let list = votes.entry(r).or_default();
            match list.iter_mut().find(|(x, _, _)| x == c) {
                Some(e) => e.1 += 1,
                None => list.push((c.clone(), 1, SwitchId(i))),
            }
        }
    }
    let majority = |r: &str| -> Option<Config> {
        let list = votes.get(r)?;
        let best = list.iter().map(|e| e.1).max()?;
        list.iter().find(|e| e.1 == best).map(|e| e.0.clone())
    };

    // Adjacent pairs, each once, with the links between them.
    let mut pairs: BTreeMap<(SwitchId, SwitchId), Vec<String>> = BTreeMap::new();
    for p in &topo.ports {
        for (&a, &b) in p
            .a_switches
            .iter()
            .flat_map(|a| p.b_switches.iter().map(move |b| (a, b)))
        {
            let (sa, sb) = (design.switch(a), design.switch(b));
            let (Some(ra), Some(rb)) = (region(sa), region(sb)) else {
                continue;
            };
            if ra != rb || config_of(a) == config_of(b) {
                continue;
            }
            let key = (a.min(b), a.max(b));
            let name = format!("`{}`", design.link(p.link).name);
            let links = pairs.entry(key).or_default();
            if !links.contains(&name) {
                links.push(name);
            }
        }
    }
    // The two peers of an MLAG domain (vPC, MLAG, VLT) over their peer
    // link: the model runs them as one bridge, so no spanning-tree port
    // joins them, but each keeps its own MST configuration, and the
    // domain needs both the same (Cisco lists the MST region
    // configuration among the vPC type-1 consistency parameters; a split
    // suspends the vPCs, as two regions would split the tree).
    for l in &design.links {
        if l.kind.value != LinkKind::PeerLink {
            continue;
        }
        for b in &l.b {
            let (a, b) = (l.a.value, b.value);
            let (sa, sb) = (design.switch(a), design.switch(b));
            let (Some(ra), Some(rb)) = (region(sa), region(sb)) else {
                continue;
            };
            if a == b || ra != rb || config_of(a) == config_of(b) {
                continue;
            }
            let links = pairs.entry((a.min(b), a.max(b))).or_default();
            let name = format!("`{}`", l.name);
            if !links.contains(&name) {
                links.push(name);
            }
        }
    }
    // One finding per odd switch and configuration it differs from.
    let mut odd: BTreeMap<(SwitchId, Config), (Vec<SwitchId>, Vec<String>)> = BTreeMap::new();
    for ((x, y), links) in pairs {
        let name = region(design.switch(x)).unwrap_or_default();
        let major = majority(name);
        // Report on the switch that leaves the region's usual configuration.
        let (o, good) = if major.as_ref() == config_of(x) {
            (y, x)
        } else {
            (x, y)
        };
        let e = odd
            .entry((
                o,
                config_of(good)
                    .cloned()
                    .unwrap_or_else(|| config(design.switch(good))),
            ))
            .or_default();
        e.0.push(good);
        for l in links {
            if !e.1.contains(&l) {
                e.1.push(l);
            }
        }
    }
    for ((o, _), (goods, links)) in odd {
        let name = region(design.switch(o)).unwrap_or_default();
        out.push(finding(cx, design, o, &goods, name, &links));
    }
}

fn finding(
    cx: &Context<'_>,
    design: &Design,
    odd: SwitchId,
    goods: &[SwitchId],
    region: &str,
    links: &[String],
) -> Diagnostic {
    let (so, sg) = (design.switch(odd), design.switch(goods[0]));
    let names: Vec<String> = goods
        .iter()
        .map(|g| format!("`{}`", design.switch(*g).name))
        .collect();
    let on = if goods.len() == 1 {
        format!("on `{}`", sg.name)
    } else {
        "on them".to_string()
    };
    let (co, cg) = (config(so), config(sg));
    let mut diffs = Vec::new();
    let mut primary: Option<Span> = None;
    let mut related: Vec<(Span, String)> = Vec::new();
    if co.revision != cg.revision {
        diffs.push(format!(
            "revision {} here against {} {on}",
            co.revision, cg.revision
        ));
        primary = so.stp.revision.as_ref().map(|r| r.span);
        if let Some(r) = &sg.stp.revision {
            related.push((
                r.span,
                format!("`{}` has revision {}", sg.name, cg.revision),
            ));
        }
    }
    if co.map != cg.map {
        let vlans: Vec<u16> = co
            .map
            .keys()
            .chain(cg.map.keys())
            .copied()
            .filter(|v| co.map.get(v) != cg.map.get(v))
            .collect::<std::collections::BTreeSet<u16>>()
            .into_iter()
            .collect();
        let shown: Vec<String> = vlans
            .iter()
            .take(4)
            .map(|v| {
                format!(
                    "VLAN {v} is in instance {} here and {} {on}",
                    co.map.get(v).copied().unwrap_or(0),
                    cg.map.get(v).copied().unwrap_or(0),
                )
            })
            .collect();
        let more = if vlans.len() > 4 {
            format!(" (and {} more VLANs)", vlans.len() - 4)
        } else {
            String::new()
        };
        diffs.push(format!(
            "the VLAN-to-instance map ({}{more})",
            shown.join("; ")
        ));
        if primary.is_none() {
            primary = so.stp.instances.as_ref().map(|i| i.span);
        }
        if let Some(i) = &sg.stp.instances {
            related.push((
                i.span,
                format!("`{}` maps VLANs to instances here", sg.name),
            ));
        }
    }
    let instances: std::collections::BTreeSet<u16> =
        co.map.values().chain(cg.map.values()).copied().collect();
    let lost = match instances.len() {
        0 => "per-instance blocking".to_string(),
        1 => format!(
            "the per-instance blocking of instance {}",
            instances.iter().next().unwrap()
        ),
        _ => {
            let l: Vec<String> = instances.iter().map(|i| i.to_string()).collect();
            format!("the per-instance blocking of instances {}", and_list(&l))
        }
    };
    let message = if goods.iter().all(|g| peers(design, odd, *g)) {
        // MLAG peers: one bridge to the rest of the network, one MST
        // configuration needed.
        format!(
            "`{}` names MSTP region `{region}` like its MLAG peer {} but differs in {}: the two peers of one domain act as one bridge and must hold one MST configuration (Cisco lists the MST region among the vPC type-1 consistency parameters: NX-OS suspends the vPCs on a mismatch), and to the rest of the network they form two regions across {}, where {lost} is lost",
            so.name,
            and_list(&names),
            and_list(&diffs),
            and_list(links),
        )
    } else {
        format!(
            "`{}` names MSTP region `{region}` like its {} {} but differs in {}: they form two regions, so on {} (a region boundary) every VLAN follows the CIST, and {lost} that the design relies on is lost there",
            so.name,
            if goods.len() == 1 { "neighbour" } else { "neighbours" },
            and_list(&names),
            and_list(&diffs),
            and_list(links),
        )
    };
    let help = format!(
        "give every switch of region `{region}` the same revision and VLAN-to-instance map: on `{}` set `revision = {}` and `{}` as on `{}`",
        so.name,
        cg.revision,
        instances_toml(&cg),
        sg.name
    );
    let span = primary.unwrap_or(so.stp.span.unwrap_or(so.span));
    let mut d = cx
        .finding(&RULE, so.element(), span, message)
        .with_help(help)
        .with_fix(revision_fix(so, &co, &cg));
    for (s, l) in related {
        d = d.with_related(s, l);
    }
    d
}

/// Whether a peer link joins `a` and `b` (the two peers of an MLAG domain).
fn peers(design: &Design, a: SwitchId, b: SwitchId) -> bool {
    design.links.iter().any(|l| {
        l.kind.value == LinkKind::PeerLink
            && ((l.a.value == a && l.b.iter().any(|x| x.value == b))
                || (l.a.value == b && l.b.iter().any(|x| x.value == a)))
    })
}

/// When the maps agree and only the revision differs: the odd switch's
/// `revision` made its neighbour's (on its line, or added to its `stp`
/// table). Which side is right is a judgement (the odd switch may be the
/// first of a change): an unsafe fix. A map that differs is not fixed.
fn revision_fix(so: &Switch, co: &Config, cg: &Config) -> Option<Fix> {
    if co.map != cg.map || co.revision == cg.revision {
        return None;
    }
    let path = switch_table(so).then("stp").then("revision");
    let edit = match &so.stp.revision {
        Some(r) => FixEdit::replace(path, r.value, cg.revision, r.span),
        None => FixEdit::insert(path, cg.revision, so.stp.span?),
    };
    Some(Fix::unsafe_(
        format!("set `{} = {}`", edit.path, cg.revision),
        vec![edit],
    ))
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const TWO: &str = r#"
[design]
name = "t"
[switches.a]
stp = { mode = "mstp", region = "dc1", revision = 3, instances = { 1 = [20, 30] } }
[switches.b]
stp = { mode = "mstp", region = "dc1", revision = 3, instances = { 1 = [20, 30] } }
[switches.c]
stp = { mode = "mstp", region = "dc1", revision = REV, instances = { 1 = [MAP] } }
[[links]]
name = "ab"
a = "a"
b = "b"
speed = "10G"
[[links]]
name = "bc"
a = "b"
b = "c"
speed = "10G"
"#;

    #[test]
    fn a_revision_mismatch_points_at_the_odd_switch() {
        let f = findings(
            &TWO.replace("REV", "4").replace("MAP", "20, 30"),
            &super::RULE,
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "switches.c");
        let m = &f[0].message;
        assert!(m.starts_with("`c` names MSTP region `dc1` like its neighbour `b` but differs in revision 4 here against 3 on `b`"), "{m}");
        assert!(m.contains("on `bc` (a region boundary) every VLAN follows the CIST, and the per-instance blocking of instance 1"), "{m}");
        assert_eq!(
            f[0].help.as_deref().unwrap(),
            "give every switch of region `dc1` the same revision and VLAN-to-instance map: on `c` set `revision = 3` and `instances = { 1 = [20, 30] }` as on `b`"
        );
        // The revision alone differs: an unsafe fix sets `c`'s to 3.
        let fix = f[0].fix.as_ref().expect("a fix");
        assert_eq!(fix.safety, netlint_model::FixSafety::Unsafe);
        assert_eq!(fix.edits.len(), 1);
        let e = &fix.edits[0];
        assert_eq!(e.path.to_string(), "switches.c.stp.revision");
        assert_eq!(e.old, Some(4u32.into()));
        assert_eq!(e.new, Some(3u32.into()));
    }

    /// Two MLAG peers run as one bridge, so no spanning-tree port joins
    /// them: a revision split between them was silent (issue 31 item 8,
    /// `netlint check tor-a.cfg tor-b.cfg` after `revision 2` on one).
    #[test]
    fn a_revision_split_between_mlag_peers_is_found_on_the_peer_link() {
        let design = r#"
[design]
name = "t"
[switches.a]
mlag = "pair"
stp = { mode = "mstp", region = "dc1", revision = 1, instances = { 1 = [20] } }
[switches.b]
mlag = "pair"
stp = { mode = "mstp", region = "dc1", revision = REV, instances = { 1 = [20] } }
[[links]]
name = "peer"
a = "a"
b = "b"
kind = "peer-link"
speed = "100G"
"#;
        let f = findings(&design.replace("REV", "2"), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "switches.b");
        let m = &f[0].message;
        assert!(
            m.starts_with("`b` names MSTP region `dc1` like its MLAG peer `a` but differs in revision 2 here against 1 on `a`: the two peers of one domain act as one bridge"),
            "{m}"
        );
        assert!(
            m.contains("type-1 consistency") && m.contains("across `peer`"),
            "{m}"
        );
        assert!(f[0].fix.is_some());
        assert!(findings(&design.replace("REV", "1"), &super::RULE).is_empty());
    }

    #[test]
    fn a_map_mismatch_names_the_vlans() {
        let f = findings(&TWO.replace("REV", "3").replace("MAP", "20"), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message
                .contains("the VLAN-to-instance map (VLAN 30 is in instance 0 here and 1 on `b`)"),
            "{}",
            f[0].message
        );
        // A map that differs is not fixed.
        assert!(f[0].fix.is_none());
    }

    #[test]
    fn identical_configurations_and_different_region_names_are_fine() {
        assert!(findings(
            &TWO.replace("REV", "3").replace("MAP", "20, 30"),
            &super::RULE
        )
        .is_empty());
        let other = TWO.replace("REV", "4").replace("MAP", "20").replace(
            "region = \"dc1\", revision = 4",
            "region = \"dc2\", revision = 4",
        );
        assert!(findings(&other, &super::RULE).is_empty());
    }
}
