//! `stp-mode-mismatch`: adjacent switches run different spanning-tree
//! modes, so their ports interoperate in a fallback mode.

use super::and_list;
use crate::rules::fix_at::{switch_table, written};
use crate::{declare_rule, Context};
use netlint_model::{Diagnostic, Fix, FixEdit, StpMode, SwitchId};
use std::collections::BTreeMap;

declare_rule!(
    RULE,
    id: "stp-mode-mismatch",
    category: "stp",
    severity: Warning,
    summary: "Adjacent switches run different spanning-tree modes: interoperation falls back to the common instance and per-VLAN blocking is lost.",
    check: check,
);

fn family(m: StpMode) -> u8 {
    match m {
        StpMode::None => 0,
        StpMode::Stp | StpMode::Rstp => 1,
        StpMode::Mstp => 2,
        StpMode::Pvst | StpMode::RapidPvst => 3,
    }
}

fn mode_name(m: StpMode) -> &'static str {
    match m {
        StpMode::None => "no spanning tree",
        StpMode::Stp => "legacy STP (802.1D)",
        StpMode::Rstp => "RSTP",
        StpMode::Mstp => "MSTP",
        StpMode::Pvst => "PVST+",
        StpMode::RapidPvst => "rapid-PVST+",
    }
}

/// What happens on a port where these two modes meet.
fn consequence(x: StpMode, y: StpMode, links: &str) -> String {
    let (fx, fy) = (family(x), family(y));
    let has = |m: &[StpMode]| m.contains(&x) || m.contains(&y);
    match (fx.min(fy), fx.max(fy)) {
        (1, 2) => format!(
            "{links} is an MSTP region boundary facing a single-tree bridge: every VLAN follows the CIST (instance 0) there, so the per-instance blocking of the MSTP side is lost on it"
        ),
        (2, 3) => format!(
            "MSTP meets PVST+ on {links} only through the CIST (VLAN 1): every VLAN follows one tree across the boundary, so per-VLAN and per-instance blocking is lost, and Cisco's PVST simulation blocks the boundary port as inconsistent if the PVST+ side has a better root for any other VLAN than for VLAN 1"
        ),
        (1, 3) => format!(
            "PVST+ meets a single-tree IEEE bridge on {links}: only VLAN 1 joins the common tree; the other VLANs' PVST+ BPDUs cross the IEEE bridge as data and its one tree decides for all of them, so per-VLAN blocking is lost"
        ),
        _ if has(&[StpMode::Stp]) => format!(
            "RSTP falls back to 802.1D on {links}: after every topology change the port spends 30 seconds listening and learning before it forwards, instead of under a second"
        ),
        _ => format!(
            "rapid-PVST+ falls back to PVST+ (802.1D timers) on {links}: after every topology change the port spends 30 seconds listening and learning before it forwards"
        ),
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let design = cx.design;
    let topo = cx.topology();
    // The mode most STP switches run (ties: the first switch's): the odd
    // one out of a mismatched pair is the one that differs from it.
    let mut counts: Vec<(StpMode, usize)> = Vec::new();
    for sw in &design.switches {
        let m = sw.stp.mode.value;
        if m == StpMode::None {
            continue;
        }
        match counts.iter_mut().find(|(x, _)| *x == m) {
            Some(e) => e.1 += 1,
            None => counts.push((m, 1)),
        }
    }
    let best = counts.iter().map(|c| c.1).max().unwrap_or(0);
    let usual = counts.iter().find(|c| c.1 == best).map(|c| c.0);

    // A switch with STP disabled on a loop is `l2-loop`'s finding (an
    // error); this rule covers switches that run STP in different modes.
    let mut pairs: BTreeMap<(SwitchId, SwitchId), Vec<String>> = BTreeMap::new();
    for p in &topo.ports {
        for (&a, &b) in p
            .a_switches
            .iter()
            .flat_map(|a| p.b_switches.iter().map(move |b| (a, b)))
        {
            let (ma, mb) = (
                design.switch(a).stp.mode.value,
                design.switch(b).stp.mode.value,
            );
            if ma == mb || ma == StpMode::None || mb == StpMode::None {
                continue;
            }
            let name = format!("`{}`", design.link(p.link).name);
            let links = pairs.entry((a.min(b), a.max(b))).or_default();
            if !links.contains(&name) {
                links.push(name);
            }
        }
    }
    for ((x, y), links) in pairs {
        let (odd, other) = if Some(design.switch(x).stp.mode.value) == usual {
            (y, x)
        } else {
            (x, y)
        };
        let (so, sg) = (design.switch(odd), design.switch(other));
        let (mo, mg) = (so.stp.mode.value, sg.stp.mode.value);
        let links_text = and_list(&links);
        let message = format!(
            "`{}` runs {} and its neighbour `{}` runs {}: {}",
            so.name,
            mode_name(mo),
            sg.name,
            mode_name(mg),
            consequence(mo, mg, &links_text)
        );
        let help = format!(
            "run one spanning-tree mode across the bridged network: set `mode = \"{}\"` in the `stp` of `{}` (with MSTP, the same region, revision and instance map on every switch)",
            mg.as_str(),
            so.name
        );
        // The neighbour's mode on the odd switch; with MSTP the region and
        // instance map must follow, which is more than one value: no fix.
        let fix = (mg != StpMode::Mstp).then(|| {
            let path = switch_table(so).then("stp").then("mode");
            let at = so.stp.mode.span;
            let edit = if written(at, so.stp.span, so.span) {
                FixEdit::replace(path, mo.as_str(), mg.as_str(), at)
            } else {
                FixEdit::insert(path, mg.as_str(), so.stp.span.unwrap_or(so.span))
            };
            Fix::unsafe_(
                format!("set `{} = \"{}\"`", edit.path, mg.as_str()),
                vec![edit],
            )
        });
        out.push(
            cx.finding(&RULE, so.element(), so.stp.mode.span, message)
                .with_help(help)
                .with_fix(fix)
                .with_related(
                    sg.stp.mode.span,
                    format!("`{}` runs {}", sg.name, mode_name(mg)),
                ),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const LINE: &str = r#"
[design]
name = "t"
[switches.a]
stp = { mode = "MODE_A" }
[switches.b]
stp = { mode = "mstp" }
[switches.c]
stp = { mode = "mstp" }
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

    /// The neighbours' mode on the odd switch, as a fix that needs
    /// judgement; none when the neighbours run MSTP (a region must follow).
    #[test]
    fn the_fix_sets_the_neighbours_mode_unless_it_is_mstp() {
        use netlint_model::{FixSafety, FixValue};
        let rstp = LINE
            .replace("\"mstp\"", "\"rstp\"")
            .replace("MODE_A", "pvst");
        let f = findings(&rstp, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        let fix = f[0].fix.as_ref().expect("a fix");
        assert_eq!(fix.safety, FixSafety::Unsafe);
        let e = &fix.edits[0];
        assert_eq!(e.path.to_string(), "switches.a.stp.mode");
        assert_eq!(e.old, Some(FixValue::from("pvst")));
        assert_eq!(e.new, Some(FixValue::from("rstp")));
        assert_eq!(&rstp[e.span.start..e.span.end], "\"pvst\"");
        let mstp = findings(&LINE.replace("MODE_A", "rstp"), &super::RULE);
        assert_eq!(mstp.len(), 1);
        assert!(mstp[0].fix.is_none());
    }

    #[test]
    fn rstp_next_to_mstp_is_a_region_boundary() {
        let f = findings(&LINE.replace("MODE_A", "rstp"), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "switches.a");
        assert!(
            f[0].message.starts_with(
                "`a` runs RSTP and its neighbour `b` runs MSTP: `ab` is an MSTP region boundary"
            ),
            "{}",
            f[0].message
        );
        assert!(f[0]
            .help
            .as_deref()
            .unwrap()
            .contains("set `mode = \"mstp\"` in the `stp` of `a`"));
    }

    #[test]
    fn pvst_next_to_mstp_loses_per_vlan_blocking() {
        let f = findings(&LINE.replace("MODE_A", "rapid-pvst"), &super::RULE);
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message
                .contains("MSTP meets PVST+ on `ab` only through the CIST"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn legacy_stp_next_to_rstp_converges_slowly() {
        let src = LINE
            .replace("MODE_A", "stp")
            .replace("\"mstp\"", "\"rstp\"");
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message.contains("RSTP falls back to 802.1D on `ab`"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn one_mode_everywhere_and_stp_disabled_are_silent() {
        assert!(findings(&LINE.replace("MODE_A", "mstp"), &super::RULE).is_empty());
        // No loop here, and a loop through a switch without STP is l2-loop's.
        assert!(findings(&LINE.replace("MODE_A", "none"), &super::RULE).is_empty());
    }
}
