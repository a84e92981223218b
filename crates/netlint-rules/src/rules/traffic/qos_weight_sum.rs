//! `qos-weight-sum`: the minimum-bandwidth weights on one Hyper-V switch add
//! up to more than 100.

use super::emit_per_host;
use crate::rules::fix_at::host_table;
use crate::{declare_rule, Context};
use netlint_model::Element;
use netlint_model::{Diagnostic, Fix, FixEdit, Span, TomlPath};

declare_rule!(
    RULE,
    id: "qos-weight-sum",
    category: "traffic",
    severity: Warning,
    summary: "The minimum-bandwidth weights on one Hyper-V switch (its vNICs plus `default_flow_weight`) add up to more than 100.",
    check: check,
);

/// The most the weights of one switch may add up to.
const LIMIT: u32 = 100;

struct Part {
    /// `vNIC `SMB1`` or `default flow`.
    what: String,
    /// The key to lower in the help.
    key: String,
    weight: u32,
    span: Span,
    /// Its key under the host's table (`vswitches.S.vnics.V.min_bandwidth_weight`).
    path: TomlPath,
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut found = Vec::new();
    for host in cx.design.hosts.iter().filter(|h| h.os.value.is_windows()) {
        for vs in &host.vswitches {
            let mut parts: Vec<Part> = vs
                .vnics
                .iter()
                .filter_map(|v| {
                    v.min_bandwidth_weight.as_ref().map(|w| Part {
                        what: format!("vNIC `{}`", v.name),
                        key: format!("`min_bandwidth_weight` of `{}`", v.name),
                        weight: w.value,
                        span: w.span,
                        path: TomlPath::new()
                            .then("vswitches")
                            .then(vs.name.as_str())
                            .then("vnics")
                            .then(v.name.as_str())
                            .then("min_bandwidth_weight"),
                    })
                })
                .collect();
            if let Some(w) = &vs.default_flow_weight {
                parts.push(Part {
                    what: "default flow".to_string(),
                    key: "`default_flow_weight`".to_string(),
                    weight: w.value,
                    span: w.span,
                    path: TomlPath::new()
                        .then("vswitches")
                        .then(vs.name.as_str())
                        .then("default_flow_weight"),
                });
            }
            let sum: u32 = parts.iter().map(|p| p.weight).sum();
            if sum <= LIMIT {
                continue;
            }
            // The largest weight is where lowering helps most.
            let largest = parts
                .iter()
                .enumerate()
                .max_by_key(|(i, p)| (p.weight, std::cmp::Reverse(*i)))
                .map(|(_, p)| p)
                .expect("a sum over 100 has parts");
            let listed: Vec<String> = parts
                .iter()
                .map(|p| format!("{} {}", p.what, p.weight))
                .collect();
            let scaled: Vec<String> = parts
                .iter()
                .map(|p| format!("{} {}", p.what, scale(p.weight, sum)))
                .collect();
            let mut d = cx
                .finding(
                    &RULE,
                    Element::vswitch(&host.name, &vs.name),
                    largest.span,
                    format!(
                        "the minimum-bandwidth weights on Hyper-V switch `{}` add up to {sum} ({}), more than {LIMIT}",
                        vs.name,
                        listed.join(", ")
                    ),
                )
                .at(
                    largest.span,
                    format!("{}: weight {}, the largest", largest.what, largest.weight),
                )
                .with_help(format!(
                    "lower the weights so that they total {LIMIT} or less, keeping their proportions, for example {} (start with {}, the largest)",
                    scaled.join(", "),
                    largest.key
                ));
            d = d.with_fix(fix(host, &parts, sum));
            for p in &parts {
                d = d.with_related(p.span, format!("{}: weight {}", p.what, p.weight));
            }
            found.push(d);
        }
    }
    emit_per_host(out, found);
}

/// The help's example made an edit: each weight that changes set to its
/// scaled value, where it is written (the host's line or its profile's).
/// `None` when the scaled weights would still add up to more than 100 (a
/// great many weights, each kept at 1 at least).
fn fix(host: &netlint_model::Host, parts: &[Part], sum: u32) -> Option<Fix> {
    if parts.iter().map(|p| scale(p.weight, sum)).sum::<u32>() > LIMIT {
        return None;
    }
    let edits: Vec<FixEdit> = parts
        .iter()
        .filter(|p| scale(p.weight, sum) != p.weight)
        .map(|p| {
            FixEdit::replace(
                host_table(host, p.span).then_all(p.path.clone()),
                p.weight,
                scale(p.weight, sum),
                p.span,
            )
        })
        .collect();
    (!edits.is_empty()).then(|| {
        Fix::safe(
            format!("scale the minimum-bandwidth weights down to a total of {LIMIT} or less, keeping their proportions"),
            edits,
        )
    })
}

/// A weight scaled so that all of them add up to at most 100 (a weight
/// that was set stays at least 1: 0 would switch the reservation off).
fn scale(weight: u32, sum: u32) -> u32 {
    if weight == 0 {
        return 0;
    }
    (weight * LIMIT / sum).max(1)
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const BASE: &str = r#"
[design]
name = "t"
platform = "windows-server-2019"
[networks.mgmt]
role = "management"
vlan = 10
[networks.lm]
role = "live-migration"
vlan = 30
[networks.vm]
role = "vm"
vlan = 100
[switches.sw]
[profiles.p.nics.A]
speed = "10G"
switch = "sw"
[profiles.p.nics.B]
speed = "10G"
switch = "sw"
[profiles.p.vswitches.S]
uplinks = ["A", "B"]
networks = ["vm"]
DEFAULT
[profiles.p.vswitches.S.vnics.Mgmt]
network = "mgmt"
min_bandwidth_weight = 10
[profiles.p.vswitches.S.vnics.LM]
network = "lm"
min_bandwidth_weight = LMW
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
"#;

    fn design(default: &str, lm: u32) -> String {
        BASE.replace("DEFAULT", default)
            .replace("LMW", &lm.to_string())
    }

    #[test]
    fn weights_over_100_fire_once_per_host_with_the_sum_and_parts() {
        let f = findings(&design("default_flow_weight = 50", 60), &super::RULE);
        // One finding per host; the engine keeps one of the two identical ones.
        assert_eq!(f.len(), 1, "{f:#?}");
        let m = &f[0].message;
        assert!(m.starts_with("hosts `hv1`, `hv2`: "), "{m}");
        assert!(m.contains("add up to 120"), "{m}");
        assert!(
            m.contains("vNIC `Mgmt` 10, vNIC `LM` 60, default flow 50"),
            "{m}"
        );
        assert_eq!(f[0].element(), "hosts.hv1.vswitches.S");
        assert_eq!(f[0].related.len(), 2, "the other parts are related");
        let help = f[0].help.as_deref().unwrap();
        assert!(
            help.contains("vNIC `Mgmt` 8, vNIC `LM` 50, default flow 41"),
            "{help}"
        );
        assert!(help.contains("`min_bandwidth_weight` of `LM`"), "{help}");
    }

    #[test]
    fn the_fix_scales_each_weight_where_it_is_written() {
        let f = findings(&design("default_flow_weight = 50", 60), &super::RULE);
        let fix = f[0].fix.as_ref().expect("a fix");
        assert_eq!(fix.safety, netlint_model::FixSafety::Safe);
        let edits: Vec<String> = fix
            .edits
            .iter()
            .map(|e| format!("{} {:?} -> {}", e.path, e.old, e.new.as_ref().unwrap()))
            .collect();
        assert_eq!(
            edits,
            [
                "profiles.p.vswitches.S.vnics.Mgmt.min_bandwidth_weight Some(Integer(10)) -> 8",
                "profiles.p.vswitches.S.vnics.LM.min_bandwidth_weight Some(Integer(60)) -> 50",
                "profiles.p.vswitches.S.default_flow_weight Some(Integer(50)) -> 41",
            ]
        );
    }

    #[test]
    fn exactly_100_is_fine() {
        assert!(findings(&design("default_flow_weight = 30", 60), &super::RULE).is_empty());
    }

    #[test]
    fn absent_default_flow_weight_is_not_counted() {
        assert!(findings(&design("", 90), &super::RULE).is_empty());
        let f = findings(&design("", 95), &super::RULE);
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("add up to 105"));
        assert!(!f[0].message.contains("default flow"));
    }

    #[test]
    fn a_host_override_is_reported_on_its_own_line() {
        let src = design("default_flow_weight = 30", 60).replace(
            "[hosts.hv2]\nprofile = \"p\"",
            "[hosts.hv2]\nprofile = \"p\"\nvswitches.S.vnics.LM = { min_bandwidth_weight = 70 }",
        );
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.starts_with("host `hv2`: "));
        assert!(f[0].message.contains("add up to 110"));
        assert_eq!(f[0].element(), "hosts.hv2.vswitches.S");
        let line_start = src.find("vswitches.S.vnics.LM = ").unwrap();
        assert!(f[0].primary.as_ref().unwrap().span.start > line_start);
    }

    #[test]
    fn vsphere_hosts_are_not_checked() {
        let src = design("default_flow_weight = 50", 60)
            .replace("windows-server-2019", "vsphere-7")
            .replace(
                "uplinks = [\"A\", \"B\"]",
                "uplinks = [\"A\", \"B\"]\nkind = \"vds\"\nload_balancing = \"originating-port\"",
            );
        assert!(findings(&src, &super::RULE).is_empty());
    }
}
