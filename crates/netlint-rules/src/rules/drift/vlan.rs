//! `drift-vlan`: a VLAN allowed on a trunk or port, or defined on a
//! switch, on one side only; a port's access VLAN changed.

use super::{emit, networks_on_vlan, of, value_words, Found};
use crate::declare_drift_rule;
use crate::drift::{DriftContext, Side};
use netlint_analysis::drift::{At, Difference, Field, Value};
use netlint_model::{Diagnostic, Severity, SwitchId};
use std::collections::BTreeMap;

declare_drift_rule!(
    RULE,
    id: "drift-vlan",
    severity: Warning,
    summary: "A VLAN is allowed on a trunk or port (or defined on a switch) in the design or as built, not both.",
    check: check,
);

/// Ports of one switch that lose (or gain) the same VLAN: one finding,
/// at the first port, listing them all.
type PortGroup = (SwitchId, SwitchId, u16, bool);

fn port_group(diff: &Difference) -> Option<PortGroup> {
    match (diff.at, diff.field) {
        (At::Port { switch, .. }, Field::Vlan(v)) => Some((
            switch.design,
            switch.built,
            v,
            diff.value.design == Value::Bool(true),
        )),
        _ => None,
    }
}

fn check(cx: &DriftContext<'_>, out: &mut Vec<Diagnostic>) {
    let mut groups: BTreeMap<PortGroup, Vec<&Difference>> = BTreeMap::new();
    for diff in of(cx, |f| matches!(f, Field::Vlan(_))) {
        if let Some(g) = port_group(diff) {
            groups.entry(g).or_default().push(diff);
        }
    }
    for diff in of(cx, |f| matches!(f, Field::Vlan(_) | Field::AccessVlan)) {
        let group = port_group(diff).and_then(|g| groups.get(&g));
        // The other ports of the group are in the first one's finding.
        let others: &[&Difference] = match group {
            Some(g) if !std::ptr::eq(g[0], diff) => continue,
            Some(g) => &g[1..],
            None => &[],
        };
        let place = if others.is_empty() {
            super::element_words(cx, &diff.at)
        } else {
            let names: Vec<String> = std::iter::once(diff)
                .chain(others.iter().copied())
                .filter_map(|d| match d.at {
                    At::Port { switch, port } => Some(format!(
                        "`{}`",
                        super::port_name(cx.design, cx.built, switch, port)
                    )),
                    _ => None,
                })
                .collect();
            let At::Port { switch, .. } = diff.at else {
                unreachable!("a group holds ports")
            };
            format!(
                "ports {} of switch `{}`",
                crate::phrases::words::and_list(&names),
                cx.design.switch(switch.design).name
            )
        };
        if diff.field == Field::AccessVlan {
            let dv = value_words(cx, Side::Design, diff.field, &diff.value.design, &diff.at);
            let bv = value_words(cx, Side::Built, diff.field, &diff.value.built, &diff.at);
            out.push(emit(
                cx,
                &RULE,
                Found {
                    diff,
                    what: format!("{place} is an access port of VLAN {bv} as built, of VLAN {dv} in the design"),
                    effect: "the host on it lands in another network".to_string(),
                    severity: Severity::Warning,
                    help: format!("set the port's access VLAN as built to the design's (VLAN {dv}), or change the design's `access_vlan` if the move is intended"),
                    design_label: format!("the design: VLAN {dv}"),
                    built_label: format!("as built: VLAN {bv}"),
                },
            ));
            continue;
        }
        let Field::Vlan(v) = diff.field else { continue };
        let missing = diff.value.design == Value::Bool(true);
        let nets = networks_on_vlan(cx.design, v);
        let nets_words = crate::phrases::words::and_list(&nets);
        let verb = |one: &str, many: &str| {
            if nets.len() == 1 {
                one.to_string()
            } else {
                many.to_string()
            }
        };
        let (what, effect, severity) = match (&diff.at, missing) {
            (At::Switch(_), true) => (
                format!("{place} does not define VLAN {v} as built, which the design defines"),
                if nets.is_empty() {
                    "no network of the design uses it".to_string()
                } else {
                    format!("{nets_words} {} at the switch", verb("stops", "stop"))
                },
                if nets.is_empty() {
                    Severity::Info
                } else {
                    Severity::Warning
                },
            ),
            (At::Switch(_), false) => (
                format!("{place} defines VLAN {v} as built, which the design does not"),
                "a VLAN the design does not know exists on the switch".to_string(),
                Severity::Info,
            ),
            (At::Link(_), true) | (At::Port { .. }, true) => (
                format!(
                    "{place} {} VLAN {v} as built, which the design carries",
                    if others.is_empty() { "lacks" } else { "lack" }
                ),
                if nets.is_empty() {
                    "no network of the design uses it".to_string()
                } else {
                    format!("{nets_words} {} cut there", verb("is", "are"))
                },
                if nets.is_empty() {
                    Severity::Info
                } else {
                    Severity::Warning
                },
            ),
            (_, _) => (
                if others.is_empty() {
                    format!("{place} carries VLAN {v} as built, which the design keeps off it")
                } else {
                    format!("{place} carry VLAN {v} as built, which the design keeps off them")
                },
                if nets.is_empty() {
                    "a VLAN no network of the design uses crosses it".to_string()
                } else {
                    format!("{nets_words} also {} there, a path the design does not have (a loop, or traffic where it was kept off)", verb("crosses", "cross"))
                },
                if nets.is_empty() {
                    Severity::Info
                } else {
                    Severity::Warning
                },
            ),
        };
        let on_switch = matches!(diff.at, At::Switch(_));
        let help = if on_switch && missing {
            format!("define VLAN {v} on the switch as built (`vlan {v}`), or take it out of the design's `vlans` if the change is intended")
        } else if on_switch {
            format!("remove the definition of VLAN {v} as built (`no vlan {v}`), or add it to the design's `vlans` if it belongs there")
        } else if missing {
            format!("allow VLAN {v} there as built (on a Cisco or Arista trunk: `switchport trunk allowed vlan add {v}` on both ends), or take it out of the design if the change is intended")
        } else {
            format!("remove VLAN {v} there as built (`switchport trunk allowed vlan remove {v}`), or add it to the design if it belongs there")
        };
        let mut d = emit(
            cx,
            &RULE,
            Found {
                diff,
                what,
                effect,
                severity,
                help,
                design_label: format!(
                    "the design: VLAN {v} {}",
                    if missing {
                        "allowed here"
                    } else {
                        "not allowed here"
                    }
                ),
                built_label: format!(
                    "as built: VLAN {v} {}",
                    if missing { "not allowed" } else { "allowed" }
                ),
            },
        );
        for o in others {
            if let Some(span) = o.span.design {
                d = d.with_related(span, format!("the design: VLAN {v} here too"));
            }
            if let Some(span) = o.span.built {
                d = d.with_related_in(&cx.built_file, span, format!("as built: VLAN {v} here too"));
            }
        }
        out.push(d);
    }
}

#[cfg(test)]
mod tests {
    use crate::drift::diff;
    use crate::RuleConfig;
    use netlint_model::{load, Design, SourceFile};

    fn design(src: &str) -> Design {
        let l = load(&SourceFile::new("t.toml", src));
        assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
        l.design.unwrap()
    }

    const PORTS: &str = r#"
[design]
name = "t"
platform = "windows-server-2022"

[networks.mgmt]
role = "management"
vlan = 10

[networks.smb1]
role = "storage"
vlan = 711
protocol = "smb"

[switches.tor-a]
vlans = [10, 711]

[switches.tor-a.ports."Ethernet1/1"]
vlans = [10, 711]

[switches.tor-a.ports."Ethernet1/2"]
vlans = [10, 711]

[switches.tor-a.ports."Ethernet1/3"]
vlans = [10, 711]

[switches.tor-a.ports."Ethernet1/4"]
vlans = [10, 711]
"#;

    /// Three ports of one switch that lose one VLAN are one finding that
    /// names the three, with a label at each port's line on both sides.
    #[test]
    fn ports_losing_one_vlan_on_one_switch_are_one_finding() {
        let mut built = PORTS.to_string();
        for p in ["1/1", "1/2", "1/3"] {
            built = built.replacen(
                &format!("\"Ethernet{p}\"]\nvlans = [10, 711]"),
                &format!("\"Ethernet{p}\"]\nvlans = [10]"),
                1,
            );
        }
        let (d, b) = (design(PORTS), design(&built));
        let cfg = RuleConfig::default();
        let out = diff(&d, &b, "built.toml", &cfg, &cfg);
        let vlan: Vec<_> = out
            .diagnostics
            .iter()
            .filter(|x| x.rule == "drift-vlan")
            .collect();
        assert_eq!(vlan.len(), 1, "{vlan:#?}");
        let m = &vlan[0].message;
        assert!(
            m.starts_with("ports `Ethernet1/1`, `Ethernet1/2` and `Ethernet1/3` of switch `tor-a` lack VLAN 711 as built"),
            "{m}"
        );
        // The first port's line, then both lines of the two others.
        assert_eq!(vlan[0].related.len(), 1 + 2 * 2, "{:#?}", vlan[0].related);
        // One port alone keeps the one-port words.
        let one = PORTS.replacen(
            "\"Ethernet1/4\"]\nvlans = [10, 711]",
            "\"Ethernet1/4\"]\nvlans = [10]",
            1,
        );
        let out = diff(&d, &design(&one), "built.toml", &cfg, &cfg);
        assert_eq!(out.diagnostics.len(), 1, "{:#?}", out.diagnostics);
        assert!(
            out.diagnostics[0]
                .message
                .starts_with("port `Ethernet1/4` of switch `tor-a` lacks VLAN 711 as built"),
            "{}",
            out.diagnostics[0].message
        );
    }
}
