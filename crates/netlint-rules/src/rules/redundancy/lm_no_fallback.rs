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
        |_, _, _| {
            "list a second network in `live_migration.networks` that rides other adapters, cards and switches (the CSV network is the classic second choice), or carry live migration on a team that survives any single failure".to_string()
        },
        out,
    );
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
        let f = findings(src, "lm-no-fallback");
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
        assert!(findings(
            &SRC.replace("LMNETS", "[\"lm\", \"csv\"]"),
            "lm-no-fallback"
        )
        .is_empty());
    }
}
