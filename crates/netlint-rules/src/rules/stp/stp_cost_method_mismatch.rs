//! `stp-cost-method-mismatch`: switches of one bridged domain use
//! different default path-cost tables (802.1D-1998 short, 802.1t long), so
//! root path costs add numbers of different scales.

use super::and_list;
use crate::rules::fix_at::switch_table;
use crate::{declare_rule, Context};
use netlint_analysis::stp::CostMethod;
use netlint_analysis::{BridgeId, UnionFind};
use netlint_model::{Diagnostic, Fix, FixEdit, PathCost, Span, StpMode, Switch};
use std::collections::BTreeMap;

declare_rule!(
    RULE,
    id: "stp-cost-method-mismatch",
    category: "stp",
    severity: Warning,
    summary: "Switches of one bridged domain use different spanning-tree path-cost methods (short 802.1D-1998 and long 802.1t): root path costs add numbers of different scales, and root ports follow the tables, not the link speeds.",
    check: check,
);

fn words(m: CostMethod) -> &'static str {
    match m {
        CostMethod::Short => "short (802.1D-1998) path costs, 10G = 2",
        CostMethod::Long => "long (802.1t) path costs, 10G = 2000",
    }
}

/// Why `sw` uses its method, and the line that decides it.
fn reason(sw: &Switch) -> (String, Span) {
    let stp = &sw.stp;
    if let Some(p) = &stp.path_cost {
        return (format!("`path_cost = \"{}\"`", p.value), p.span);
    }
    let mode = stp.mode.value;
    let mode_line = stp.mode.span;
    let vendor = sw.vendor();
    match (mode, vendor.and_then(|v| v.pvst_cost_default()), &sw.model) {
        (StpMode::Stp, ..) => ("the default of `mode = \"stp\"`".to_string(), mode_line),
        (StpMode::Pvst | StpMode::RapidPvst, Some(m), Some(model)) => (
            format!(
                "the {mode} default of {} (`{}`), {}",
                vendor.map_or("its vendor", |v| v.as_str()),
                model.value,
                if m == PathCost::Short {
                    "`spanning-tree pathcost method short`"
                } else {
                    "802.1t costs"
                }
            ),
            model.span,
        ),
        // No model, or a vendor whose default no source gives: netlint
        // takes Cisco's, and says so.
        (StpMode::Pvst | StpMode::RapidPvst, None, model) => (
            format!(
                "assumed: netlint takes the {mode} default of Cisco IOS and NX-OS (`spanning-tree pathcost method short`) because {}",
                match (vendor, model) {
                    (Some(v), _) => format!("no source gives the default of {}", v.as_str()),
                    (None, Some(m)) => format!("it does not know the vendor of `{}`", m.value),
                    (None, None) => "the switch states no `model`".to_string(),
                }
            ),
            model.as_ref().map_or(mode_line, |m| m.span),
        ),
        _ => (format!("the {mode} default"), mode_line),
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let design = cx.design;
    let topo = cx.topology();
    let bridges = cx.fabric().engine().bridges();
    let n = topo.bridges.len();
    let runs = |b: usize| bridges.get(b).is_some_and(|x| x.mode != StpMode::None);
    // Bridged domains: bridges joined by inter-switch links.
    let mut uf = UnionFind::new(n);
    for p in &topo.ports {
        uf.union(p.a.0, p.b.0);
    }
    let mut domains: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for b in (0..n).filter(|&b| runs(b)) {
        domains.entry(uf.find(b)).or_default().push(b);
    }
    for members in domains.values() {
        let method = |b: usize| bridges[b].cost_method();
        let short: Vec<usize> = members
            .iter()
            .copied()
            .filter(|&b| method(b) == CostMethod::Short)
            .collect();
        let long: Vec<usize> = members
            .iter()
            .copied()
            .filter(|&b| method(b) == CostMethod::Long)
            .collect();
        if short.is_empty() || long.is_empty() {
            continue;
        }
        // The fewer switches change; on a tie the short ones (802.1t is the
        // standard since 802.1D-2004, and short costs cannot tell 25G from 100G).
        let (odd, rest) = if long.len() < short.len() {
            (long, short)
        } else {
            (short, long)
        };
        let name = |b: usize| format!("`{}`", topo.bridge(BridgeId(b)).name);
        let rest_names: Vec<String> = rest.iter().map(|&b| name(b)).collect();
        let rest_method = method(rest[0]);
        for &b in &odd {
            let sw = design.switch(topo.bridge(BridgeId(b)).members[0]);
            let (why, span) = reason(sw);
            let m = method(b);
            let message = format!(
                "`{}` uses {} ({why}), but {} in its bridged domain {} {}: a root path cost adds both scales, so a 10G hop through `{}` counts {} where the next switch's counts {}, and root ports and blocked ports follow the tables, not the link speeds",
                sw.name,
                words(m),
                and_list(&rest_names),
                if rest.len() == 1 { "uses" } else { "use" },
                words(rest_method),
                sw.name,
                if m == CostMethod::Short { "2" } else { "2000" },
                if m == CostMethod::Short { "2000" } else { "2" },
            );
            // Long costs everywhere: `path_cost = "long"` on every member
            // of every short bridge of the domain (a stack is one), what a
            // network engineer does (long tells 10G, 25G and 100G apart),
            // rather than short costs on the odd switch.
            let short_bridges = if m == CostMethod::Short { &odd } else { &rest };
            let short_members: Vec<&Switch> = short_bridges
                .iter()
                .flat_map(|&x| topo.bridge(BridgeId(x)).members.iter())
                .map(|&s| design.switch(s))
                .collect();
            let edits: Vec<FixEdit> = short_members
                .iter()
                .map(|member| {
                    let path = switch_table(member).then("stp").then("path_cost");
                    match &member.stp.path_cost {
                        Some(p) => FixEdit::replace(path, p.value.as_str(), "long", p.span),
                        None => {
                            FixEdit::insert(path, "long", member.stp.span.unwrap_or(member.span))
                        }
                    }
                })
                .collect();
            let short_names: Vec<String> = short_members
                .iter()
                .map(|s| format!("`{}`", s.name))
                .collect();
            let fix = Fix::unsafe_(
                format!(
                    "set `path_cost = \"long\"` in the `stp` of {} (long costs everywhere)",
                    and_list(&short_names)
                ),
                edits,
            );
            let or_else = if m == CostMethod::Long {
                format!("; or `path_cost = \"short\"` on `{}`", sw.name)
            } else {
                String::new()
            };
            let help = format!(
                "write `path_cost = \"long\"` in the `stp` table of {} and configure it on {} (`spanning-tree pathcost method long` on Cisco), so that every switch of the domain uses long costs, which tell 10G, 25G and 100G apart{or_else}; or set explicit `stp_cost` on the links",
                and_list(&short_names),
                if short_names.len() == 1 { "that switch" } else { "those switches" },
            );
            let other = design.switch(topo.bridge(BridgeId(rest[0])).members[0]);
            let (other_why, other_span) = reason(other);
            out.push(
                cx.finding(&RULE, sw.element(), span, message)
                    .with_related(
                        other_span,
                        format!("`{}` uses {} ({other_why})", other.name, words(rest_method)),
                    )
                    .with_help(help)
                    .with_fix(Some(fix)),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const BASE: &str = r#"
[design]
name = "t"
[networks.a]
role = "management"
vlan = 10
[switches.core-1]
stp = { mode = "rapid-pvst", priority = 4096 CORE1 }
[switches.core-2]
stp = { mode = "rapid-pvst", priority = 8192 CORE2 }
[switches.tor-a]
TORMODEL
stp = { mode = "rapid-pvst" TORA }
[[links]]
a = "core-1"
b = "core-2"
speed = "10G"
[[links]]
a = "tor-a"
b = "core-1"
speed = "10G"
[[links]]
a = "tor-a"
b = "core-2"
speed = "10G"
"#;

    fn src(core1: &str, core2: &str, tor_model: &str, tor: &str) -> String {
        BASE.replace("CORE1", core1)
            .replace("CORE2", core2)
            .replace("TORMODEL", tor_model)
            .replace("TORA", tor)
    }

    #[test]
    fn one_switch_on_long_costs_among_short_ones_fires_at_its_line() {
        let s = src("", "", "", r#", path_cost = "long""#);
        let f = findings(&s, "stp-cost-method-mismatch");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "`tor-a` uses long (802.1t) path costs, 10G = 2000 (`path_cost = \"long\"`), but `core-1` and `core-2` in its bridged domain use short (802.1D-1998) path costs, 10G = 2: a root path cost adds both scales, so a 10G hop through `tor-a` counts 2000 where the next switch's counts 2, and root ports and blocked ports follow the tables, not the link speeds"
        );
        assert_eq!(f[0].element(), "switches.tor-a");
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert_eq!(at, s.find("\"long\"").unwrap());
        assert!(f[0].help.as_deref().unwrap().starts_with(
            "write `path_cost = \"long\"` in the `stp` table of `core-1` and `core-2`"
        ));
        let fix = f[0].fix.as_ref().unwrap();
        let edited: Vec<String> = fix.edits.iter().map(|e| e.path.to_string()).collect();
        assert_eq!(
            edited,
            [
                "switches.core-1.stp.path_cost",
                "switches.core-2.stp.path_cost"
            ],
            "long costs everywhere, not short ones on `tor-a`"
        );
    }

    #[test]
    fn a_platform_default_counts_and_points_at_the_model() {
        // A Dell switch runs rapid-PVST+ on long (802.1s/t) costs by default.
        let s = src("", "", "model = \"Dell S4048-ON\"", "");
        let f = findings(&s, "stp-cost-method-mismatch");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains(
                "(the rapid-pvst default of Dell Networking (`Dell S4048-ON`), 802.1t costs)"
            ),
            "{}",
            f[0].message
        );
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert_eq!(at, s.find("\"Dell S4048-ON\"").unwrap());
    }

    /// Dell models outside the MTU table (an N-series and an OS10 switch)
    /// are Dell's too, long costs by default, so a Cisco pair next to one
    /// is a mismatch (issue 34 item 6).
    #[test]
    fn dell_models_beyond_the_mtu_table_use_long_costs() {
        for model in ["Dell N3248X-ON", "S5248F-ON"] {
            let s = src("", "", &format!("model = \"{model}\""), "");
            let f = findings(&s, "stp-cost-method-mismatch");
            assert_eq!(f.len(), 1, "{model}: {f:#?}");
            assert!(
                f[0].message.starts_with("`tor-a` uses long"),
                "{}",
                f[0].message
            );
            assert!(
                f[0].message.contains(&format!("`{model}`")),
                "{}",
                f[0].message
            );
        }
    }

    /// A vendor whose default no source gives (Arista) is taken as short,
    /// and a finding that rests on it says it is assumed.
    #[test]
    fn an_unknown_default_is_named_as_assumed() {
        let long = r#", path_cost = "long""#;
        let s = src(long, long, "model = \"Arista 7050SX3\"", "");
        let f = findings(&s, "stp-cost-method-mismatch");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message
                .contains("assumed: netlint takes the rapid-pvst default of Cisco IOS and NX-OS")
                && f[0]
                    .message
                    .contains("no source gives the default of Arista EOS"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn the_minority_is_reported_and_a_tie_reports_the_short_ones() {
        // Two long, one short: the short one.
        let s = src(r#", path_cost = "long""#, r#", path_cost = "long""#, "", "");
        let f = findings(&s, "stp-cost-method-mismatch");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "switches.tor-a");
        assert!(f[0].message.contains("Cisco IOS and NX-OS"));
        // MSTP (long) next to PVST (short) is a mismatch too.
        let s = src("", "", "", "").replace(
            "stp = { mode = \"rapid-pvst\"  }",
            "stp = { mode = \"mstp\" }",
        );
        assert!(s.contains("\"mstp\""));
        let f = findings(&s, "stp-cost-method-mismatch");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.starts_with("`tor-a` uses long"));
    }

    #[test]
    fn one_method_everywhere_or_separate_domains_is_fine() {
        assert!(findings(&src("", "", "", ""), "stp-cost-method-mismatch").is_empty());
        let all_long = r#", path_cost = "long""#;
        assert!(findings(
            &src(all_long, all_long, "", all_long),
            "stp-cost-method-mismatch"
        )
        .is_empty());
        // Not cabled together: two domains, each consistent.
        let apart =
            "[design]\nname = \"t\"\n[switches.a]\nstp = { mode = \"stp\" }\n[switches.b]\n";
        assert!(findings(apart, "stp-cost-method-mismatch").is_empty());
        // A switch without spanning tree uses no costs.
        let s = src("", "", "", "").replace(
            "stp = { mode = \"rapid-pvst\"  }",
            "stp = { mode = \"none\" }",
        );
        assert!(s.contains("\"none\""));
        assert!(findings(&s, "stp-cost-method-mismatch").is_empty());
    }
}
