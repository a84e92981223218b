//! `lm-no-fallback`: one single failure takes out every network listed in
//! a host's `live_migration.networks`.

use super::unit_findings;
use crate::{declare_rule, Context};
use netlint_model::Diagnostic;

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
        |unit, _, _| {
            if unit_on_vsphere(cx, unit) {
                "give vMotion a second way out: a second vMotion vmkernel port (or a standby uplink for the one there is) on other uplinks, cards and switches, its network listed in `live_migration.networks`".to_string()
            } else {
                "list a second network in `live_migration.networks` that rides other adapters, cards and switches (the CSV network is the classic second choice), or carry live migration on a team that survives any single failure".to_string()
            }
        },
        out,
    );
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
    use crate::testing::findings;

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
        let f = findings(&SRC.replace("LMNETS", "[\"lm\"]"), "lm-no-fallback");
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

    #[test]
    fn csv_as_second_choice_is_a_fallback() {
        assert!(findings(
            &SRC.replace("LMNETS", "[\"lm\", \"csv\"]"),
            "lm-no-fallback"
        )
        .is_empty());
    }
}
