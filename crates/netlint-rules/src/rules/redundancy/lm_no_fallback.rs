//! `lm-no-fallback`: one single failure takes out every network listed in
//! a host's `live_migration.networks`.

use super::{quoted_list, unit_findings};
use crate::phrases::failure::{LossGroup, UnitWords};
use crate::{declare_rule, Context};
use netlint_analysis::failure::{CarrierLoss, Loss, Unit};
use netlint_analysis::BridgeId;
use netlint_model::{Diagnostic, Role};

declare_rule!(
    RULE,
    id: "lm-no-fallback",
    category: "redundancy",
    severity: Warning,
    summary: "One single failure takes out every network live migration may use.",
    check: check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    unit_findings(
        cx,
        &RULE,
        |_| true,
        true,
        |unit, loss, group| {
            if unit_on_vsphere(cx, unit) {
                "give vMotion a second way out: a second vMotion vmkernel port (or a standby uplink for the one there is) on other uplinks, cards and switches, its network listed in `live_migration.networks`".to_string()
            } else {
                help(cx, unit, loss, group)
            }
        },
        out,
    );
}

/// Advice by cause. A network left out of `live_migration.networks` is
/// only the cause when the list has one network; when the failure splits
/// the fabric, or takes down the adapters every listed network rides, the
/// help says that instead.
fn help(cx: &Context<'_>, unit: &Unit, loss: &Loss, group: &LossGroup) -> String {
    let design = cx.design;
    let topo = cx.topology();
    let host = group.hosts.first().map(|h| design.host(*h));
    let listed: Vec<String> = host
        .and_then(|h| h.live_migration.as_ref())
        .map(|lm| {
            lm.networks
                .iter()
                .map(|n| design.network(n.value).name.clone())
                .collect()
        })
        .unwrap_or_default();
    let listed_text = quoted_list(&listed);
    // The group's first host: what the failure did to its carriers.
    let first_loss = group
        .hosts
        .first()
        .and_then(|h| loss.hosts.iter().find(|x| x.host == *h));

    // The fabric: the group's first host keeps adapters with link whose
    // switches no longer reach the other hosts' (or each other).
    let mut split: Vec<BridgeId> = Vec::new();
    if let Some(hl) = first_loss {
        for c in &hl.carriers {
            let bridges: Vec<BridgeId> = match &c.loss {
                CarrierLoss::Cut { from, to } => from.iter().chain(to.iter()).copied().collect(),
                CarrierLoss::Scattered { bridges } => bridges.clone(),
                CarrierLoss::Dead { .. }
                | CarrierLoss::NotDefined { .. }
                | CarrierLoss::TargetPortsDown { .. }
                | CarrierLoss::PortDrops { .. }
                | CarrierLoss::VlanMoved { .. } => Vec::new(),
            };
            for b in bridges {
                if !split.contains(&b) {
                    split.push(b);
                }
            }
        }
    }
    if split.len() >= 2 {
        split.sort();
        let names: Vec<String> = split.iter().map(|b| topo.bridge(*b).name.clone()).collect();
        let between = quoted_list(&names);
        let lead = match listed.len() {
            0 | 1 => String::new(),
            2 => format!(
                "{listed_text} are both listed, so a second network is not what is missing: "
            ),
            _ => {
                format!("{listed_text} are all listed, so another network is not what is missing: ")
            }
        };
        let fix = match unit {
            Unit::Cable(l, _) | Unit::Link(l) => {
                let link = design.link(*l);
                format!(
                    "give `{}` a second cable (`members = {}`, a LAG) or add a second link between {between}",
                    link.name,
                    link.members.value + 1
                )
            }
            _ => format!(
                "connect {between} by a second path that does not depend on {}",
                unit.describe(design, topo)
            ),
        };
        return format!(
            "{lead}when {} fails no path is left between {between} and the fabric splits, taking every network that crosses it with it; {fix}",
            unit.describe(design, topo)
        );
    }

    // Adapters: every listed network rides what failed.
    if listed.len() > 1 {
        let mut dead: Vec<String> = Vec::new();
        if let (Some(h), Some(hl)) = (host, first_loss) {
            for c in &hl.carriers {
                if let CarrierLoss::Dead { nics } = &c.loss {
                    for (n, _) in nics {
                        let name = h.nic(*n).name.clone();
                        if !dead.contains(&name) {
                            dead.push(name);
                        }
                    }
                }
            }
        }
        let both = if listed.len() == 2 { "both" } else { "all" };
        let adapters = if dead.is_empty() {
            String::new()
        } else {
            format!(" ({})", quoted_list(&dead))
        };
        return format!(
            "{listed_text} are {both} listed, but every adapter they ride{adapters} goes down with this failure: move one of them to adapters on another card and switch, or carry live migration on a team that survives any single failure"
        );
    }
    let csv_unlisted = design
        .networks
        .iter()
        .any(|n| n.role.value == Role::Csv && !listed.contains(&n.name));
    format!(
        "list a second network in `live_migration.networks` that rides other adapters, cards and switches{}, or carry live migration on a team that survives any single failure",
        if csv_unlisted {
            " (the CSV network is the classic second choice)"
        } else {
            ""
        }
    )
}

/// Whether the hosts a unit's findings are about run vSphere: a host's
/// own unit (a card, a NIC) says; a fabric unit goes by the design's
/// platform.
fn unit_on_vsphere(cx: &Context<'_>, unit: &netlint_analysis::failure::Unit) -> bool {
    use netlint_analysis::failure::Unit;
    match unit {
        Unit::Card(h, _) | Unit::Nic(h, _) => cx.design.host(*h).os.value.is_vsphere(),
        _ => cx.design.platform.value.is_vsphere(),
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::{findings, line_of, line_where};

    const SRC: &str = r#"
[design]
name = "t"
[networks.csv]
role = "csv"
vlan = 20
[networks.lm]
role = "live-migration"
vlan = 30
[switches.sw-a]
[switches.sw-b]
[[links]]
a = "sw-a"
b = "sw-b"
speed = "10G"
members = 2
[profiles.p.nics.X1]
card = "slot4"
speed = "10G"
switch = "sw-a"
networks = ["csv"]
[profiles.p.nics.X2]
card = "slot5"
speed = "10G"
switch = "sw-b"
networks = ["lm"]
[profiles.p.live_migration]
transport = "tcp"
networks = LMNETS
[hosts.h1]
profile = "p"
[hosts.h2]
profile = "p"
"#;

    #[test]
    fn lm_on_one_adapter_without_a_second_network_fires() {
        let f = findings(&SRC.replace("LMNETS", "[\"lm\"]"), &super::RULE);
        // The switch, and the NIC (its own card) on each host, merged.
        assert_eq!(f.len(), 2, "{f:#?}");
        assert!(f.iter().any(|d| d.message
            == "if switch `sw-b` fails, hosts `h1`, `h2` lose every live-migration network (`lm`), so live migration has nowhere to go: its only adapter `X2` is cabled to `sw-b`"));
        assert!(f.iter().any(|d| d.message
            == "if card `slot5` fails on any of hosts `h1`, `h2`, that host loses every live-migration network (`lm`), so live migration has nowhere to go: its only adapter `X2` is on card `slot5`"), "{f:#?}");
        assert!(f
            .iter()
            .all(|d| d.severity == netlint_model::Severity::Warning));
    }

    /// Issue 34 item 10: `sw-b` lacks the LM VLAN, so losing `sw-a` leaves
    /// live migration nowhere; the finding says why the second network
    /// did not help.
    #[test]
    fn a_live_migration_network_cut_already_is_named() {
        let src = SRC
            .replace("LMNETS", "[\"csv\", \"lm\"]")
            .replace("[switches.sw-b]\n", "[switches.sw-b]\nvlans = [20]\n");
        let f = findings(&src, &super::RULE);
        assert!(
            f.iter().any(|d| d.message
                == "if switch `sw-a` fails, hosts `h1`, `h2` lose every live-migration network (`csv`, `lm`), so live migration has nowhere to go: its only adapter `X1` is cabled to `sw-a` (and `lm` is cut already with nothing failed)"),
            "{f:#?}"
        );
    }

    #[test]
    fn one_hosts_override_that_puts_both_set_ports_on_one_card_is_the_primary_line() {
        // Live migration rides a SET switch over two cards; h2's override
        // moves the second port onto the first port's card.
        let src = r#"
[design]
name = "t"
platform = "windows-server-2022"
[networks.lm]
role = "live-migration"
vlan = 30
[switches.sw-a]
[switches.sw-b]
[[links]]
a = "sw-a"
b = "sw-b"
speed = "10G"
members = 2
[profiles.p.nics.X1]
card = "slot4"
speed = "10G"
switch = "sw-a"
[profiles.p.nics.X2]
card = "slot5"
speed = "10G"
switch = "sw-b"
[profiles.p.vswitches.S]
uplinks = ["X1", "X2"]
[profiles.p.vswitches.S.vnics.LM]
network = "lm"
[profiles.p.live_migration]
networks = ["lm"]
[hosts.h1]
profile = "p"
[hosts.h2]
profile = "p"
nics.X2 = { card = "slot4" }
"#;
        let f = findings(src, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message
                .starts_with("if card `slot4` of `h2` (`X1`, `X2`) fails, host `h2` loses"),
            "{}",
            f[0].message
        );
        let p = f[0].primary.as_ref().unwrap().span;
        assert_eq!(
            line_of(src, p),
            line_where(src, |l| l.contains("nics.X2 = { card")),
            "primary at h2's override: {:#?}",
            f[0]
        );
        assert_eq!(f[0].related.len(), 1, "{:#?}", f[0].related);
        let r = f[0].related[0].span;
        assert_eq!(
            line_of(src, r),
            line_where(src, |l| l == "card = \"slot4\"")
        );
    }

    #[test]
    fn csv_as_second_choice_is_a_fallback() {
        assert!(findings(&SRC.replace("LMNETS", "[\"lm\", \"csv\"]"), &super::RULE).is_empty());
    }

    /// Converged hosts: one SET switch over a NIC on each switch carries
    /// both networks live migration may use, and the switches share one
    /// cable. CSV is already listed; what takes both networks away is the
    /// fabric splitting, and the help must say that.
    const SPLIT: &str = r#"
[design]
name = "t"
[networks.csv]
role = "csv"
vlan = 20
[networks.lm]
role = "live-migration"
vlan = 30
[switches.sw-a]
[switches.sw-b]
[[links]]
name = "isl"
a = "sw-a"
b = "sw-b"
speed = "10G"
[profiles.p.nics.N1]
card = "slot1"
speed = "10G"
switch = "sw-a"
[profiles.p.nics.N2]
card = "slot2"
speed = "10G"
switch = "sw-b"
[profiles.p.vswitches.S]
uplinks = ["N1", "N2"]
[profiles.p.vswitches.S.vnics.CSV]
network = "csv"
[profiles.p.vswitches.S.vnics.LM]
network = "lm"
[profiles.p.live_migration]
networks = ["lm", "csv"]
[hosts.h1]
profile = "p"
[hosts.h2]
profile = "p"
"#;

    #[test]
    fn a_fabric_split_is_named_as_the_cause_not_a_missing_fallback() {
        let f = findings(SPLIT, &super::RULE);
        assert!(!f.is_empty(), "the single ISL cable splits both networks");
        for d in &f {
            let help = d.help.as_deref().unwrap();
            assert!(
                !help.contains("list a second network")
                    && !help.contains("CSV network is the classic"),
                "CSV is already listed: {help}"
            );
            assert!(
                help.contains("no path is left between `sw-a` and `sw-b`"),
                "{help}"
            );
            assert!(help.contains("`isl`"), "{help}");
        }
    }

    #[test]
    fn several_listed_networks_on_the_same_adapter_are_named() {
        let src = SRC
            .replace("LMNETS", "[\"lm\", \"csv\"]")
            .replace("networks = [\"csv\"]", "networks = []")
            .replace("networks = [\"lm\"]", "networks = [\"lm\", \"csv\"]");
        let f = findings(&src, &super::RULE);
        assert!(!f.is_empty());
        let help = f[0].help.as_deref().unwrap();
        assert!(
            help.starts_with(
                "`lm` and `csv` are both listed, but every adapter they ride (`X2`) goes down"
            ),
            "{help}"
        );
    }
}
