//! `power-profile`: a host that takes part in live migration does not run
//! the maximum-performance power plan.

use super::{carriers, emit_per_host};
use crate::rules::fix_at::{host_table, written};
use crate::{declare_rule, Context};
use netlint_model::{Diagnostic, Fix, FixEdit, Host, NetworkId, Power, Role, Speed, TomlPath};

declare_rule!(
    RULE,
    id: "power-profile",
    category: "traffic",
    severity: Info,
    summary: "A host that takes part in live migration does not run the `max-performance` power plan.",
    check: check,
);

/// From this adapter speed on, an unstated power plan is worth a note.
const FAST: Speed = Speed::from_gbps(10);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let d = cx.design;
    let mut found = Vec::new();
    // Profiles every host of which states no plan and fires: the one line
    // to add is the profile's (issue 35), not one per host.
    let unstated = |h: &Host| !written(h.power.span, None, h.span);
    let fires: Vec<bool> = d.hosts.iter().map(|h| fires(cx, h)).collect();
    let whole_profile = |p: &str| {
        d.hosts
            .iter()
            .zip(&fires)
            .filter(|(h, _)| h.profile.as_ref().is_some_and(|x| x.value == p))
            .all(|(h, f)| *f && unstated(h))
    };
    for host in &d.hosts {
        let nets = lm_networks(cx, host);
        if host.live_migration.is_none() && nets.is_empty() {
            continue;
        }
        let mut speeds: Vec<Speed> = nets
            .iter()
            .flat_map(|n| carriers(host, *n))
            .flat_map(|c| c.nics)
            .filter_map(|n| host.nic(n).known_speed())
            .collect();
        speeds.sort_unstable_by(|a, b| b.cmp(a));
        speeds.dedup();
        let fastest = speeds.first().copied();

        let names: Vec<String> = nets
            .iter()
            .map(|n| format!("`{}`", d.network(*n).name))
            .collect();
        let over = match (names.is_empty(), speeds.is_empty()) {
            (true, _) => String::new(),
            (false, true) => format!(" (over {})", names.join(", ")),
            (false, false) => format!(
                " (over {} on {} adapters)",
                names.join(", "),
                speeds
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
        };
        let lm = host.os.value.live_migration_words();
        let lm_adj = if host.os.value.is_vsphere() {
            "vMotion"
        } else {
            "live-migration"
        };
        let message = match host.power.value {
            Power::MaxPerformance => continue,
            Power::Unknown => {
                if !matches!(fastest, Some(s) if s >= FAST) {
                    continue;
                }
                format!(
                    "no power plan stated on a host that takes part in {lm}{over}: with the default balanced plan, C-states and C1E cut {lm_adj} throughput on 10G and faster adapters"
                )
            }
            p => format!(
                "power plan `{p}` on a host that takes part in {lm}{over}: C-states and C1E cut {lm_adj} throughput, badly so on 10G and faster adapters"
            ),
        };
        let help = match (host.power.value, &host.profile) {
            (Power::Unknown, Some(p)) => format!(
                "add `power = \"max-performance\"` to the host or its profile `{}`",
                p.value
            ),
            (Power::Unknown, None) => "add `power = \"max-performance\"` to the host".to_string(),
            _ => "set this line to `power = \"max-performance\"`".to_string(),
        };
        // Written (in the host or its profile): that line; not written: a
        // line of the host's own.
        let at = host.power.span;
        let edit = if written(at, None, host.span) {
            FixEdit::replace(
                host_table(host, at).then("power"),
                host.power.value.as_str(),
                Power::MaxPerformance.as_str(),
                at,
            )
        } else {
            match host.profile.as_ref().and_then(|p| {
                let profile = d.profiles.iter().find(|x| x.name == p.value)?;
                whole_profile(&p.value).then_some(profile)
            }) {
                Some(profile) => FixEdit::insert(
                    TomlPath::new()
                        .then("profiles")
                        .then(profile.name.as_str())
                        .then("power"),
                    Power::MaxPerformance.as_str(),
                    profile.span,
                ),
                None => FixEdit::insert(
                    TomlPath::new()
                        .then("hosts")
                        .then(host.name.as_str())
                        .then("power"),
                    Power::MaxPerformance.as_str(),
                    host.span,
                ),
            }
        };
        let fix = Fix::safe(
            format!("set `{} = \"max-performance\"`", edit.path),
            vec![edit],
        );
        let f = cx
            .finding(&RULE, host.element(), host.power.span, message)
            .with_fix(Some(fix))
            .with_help(format!(
                "{help}, and build the host that way: {} and the BIOS system profile set to performance (C-states and C1E off)",
                if host.os.value.is_vsphere() {
                    "the ESXi power management policy set to High Performance"
                } else {
                    "the OS high-performance power plan"
                }
            ));
        found.push(f);
    }
    emit_per_host(out, found);
}

/// Whether the rule fires on `host` (what `check` skips, it does not).
fn fires(cx: &Context<'_>, host: &Host) -> bool {
    let nets = lm_networks(cx, host);
    if host.live_migration.is_none() && nets.is_empty() {
        return false;
    }
    match host.power.value {
        Power::MaxPerformance => false,
        Power::Unknown => nets
            .iter()
            .flat_map(|n| carriers(host, *n))
            .flat_map(|c| c.nics)
            .filter_map(|n| host.nic(n).known_speed())
            .max()
            .is_some_and(|s| s >= FAST),
        _ => true,
    }
}

/// The networks a host migrates over: those in `live_migration.networks`,
/// then any live-migration network the host carries, in design order.
fn lm_networks(cx: &Context<'_>, host: &Host) -> Vec<NetworkId> {
    let mut nets: Vec<NetworkId> = host
        .live_migration
        .iter()
        .flat_map(|lm| lm.networks.iter().map(|n| n.value))
        .collect();
    for (i, n) in cx.design.networks.iter().enumerate() {
        let id = NetworkId(i);
        if n.role.value == Role::LiveMigration
            && !nets.contains(&id)
            && !carriers(host, id).is_empty()
        {
            nets.push(id);
        }
    }
    nets
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const BASE: &str = r#"
[design]
name = "t"
[networks.lm]
role = "live-migration"
vlan = 30
[switches.sw]
[profiles.p]
POWER
[profiles.p.nics.A]
speed = "SPEED"
switch = "sw"
networks = ["lm"]
LM
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
"#;

    const LM: &str = "[profiles.p.live_migration]\nnetworks = [\"lm\"]";

    fn design(power: &str, speed: &str, lm: &str) -> String {
        BASE.replace("POWER", power)
            .replace("SPEED", speed)
            .replace("LM", lm)
    }

    #[test]
    fn vsphere_hosts_are_told_about_vmotion_and_the_esxi_policy() {
        let src = design("power = \"balanced\"", "25G", LM)
            .replace("name = \"t\"", "name = \"t\"\nplatform = \"vsphere-8\"");
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        let m = &f[0].message;
        assert!(
            m.contains("power plan `balanced` on a host that takes part in vMotion (over `lm` on 25G adapters): C-states and C1E cut vMotion throughput"),
            "{m}"
        );
        assert!(!m.contains("live migration"), "{m}");
        let help = f[0].help.as_deref().unwrap();
        assert!(
            help.contains("ESXi power management policy set to High Performance"),
            "{help}"
        );
        assert!(!help.contains("OS high-performance power plan"), "{help}");
    }

    #[test]
    fn balanced_fires_once_for_the_profile_line() {
        let src = design("power = \"balanced\"", "1G", LM);
        let f = findings(&src, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        let m = &f[0].message;
        assert!(m.starts_with("hosts `hv1`, `hv2`: "), "{m}");
        assert!(
            m.contains("power plan `balanced` on a host that takes part in live migration (over `lm` on 1G adapters)"),
            "{m}"
        );
        assert_eq!(f[0].severity, netlint_model::Severity::Info);
        assert_eq!(f[0].element(), "hosts.hv1");
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert!(src[at..].starts_with("\"balanced\""));
    }

    #[test]
    fn max_performance_is_fine() {
        let src = design("power = \"max-performance\"", "25G", LM);
        assert!(findings(&src, &super::RULE).is_empty());
    }

    #[test]
    fn unknown_fires_only_on_10g_and_faster() {
        assert!(findings(&design("", "1G", LM), &super::RULE).is_empty());
        let f = findings(&design("", "10G", LM), &super::RULE);
        // Each host's default sits at its own header: one finding each.
        assert_eq!(f.len(), 2, "{f:#?}");
        assert!(f[0].message.starts_with("host `hv1`: "));
        assert!(f[0].message.contains("no power plan stated"));
        assert!(f[0].help.as_deref().unwrap().contains("its profile `p`"));
    }

    #[test]
    fn a_live_migration_role_network_alone_counts() {
        let f = findings(&design("power = \"power-saver\"", "10G", ""), &super::RULE);
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("`power-saver`"));
        assert!(f[0].message.contains("over `lm` on 10G"));
    }

    #[test]
    fn hosts_without_live_migration_are_silent() {
        let src = design("power = \"balanced\"", "10G", "")
            .replace("role = \"live-migration\"", "role = \"management\"");
        assert!(findings(&src, &super::RULE).is_empty());
    }
}
