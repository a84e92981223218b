//! Values are bounded to the ranges docs/format.md documents, each bad
//! value is reported once at its own line, and errors the TOML parser
//! gives without a position are placed at the line that causes them.

mod common;

use common::diags;
use netlint_model::Speed;

const HEAD: &str = "[design]\nname = \"d\"\n[networks.mgmt]\nrole = \"management\"\n";

#[test]
fn an_invalid_nic_speed_is_one_error_not_also_an_unknown_uplink() {
    let text = HEAD.to_string()
        + "[hosts.h.nics.A]\nspeed = \"10X\"\n[hosts.h.nics.B]\nswitch = \"nowhere\"\n[hosts.h.vswitches.vs]\nuplinks = [\"A\", \"B\"]\n";
    let d = diags(&text);
    let messages: Vec<&str> = d.iter().map(|(_, m)| m.as_str()).collect();
    // B states no speed: unknown, not an error (docs/format.md, "Unknown
    // speeds").
    assert_eq!(d.len(), 2, "{d:#?}");
    assert!(
        messages[0].starts_with("`10X` is not a speed"),
        "{messages:?}"
    );
    assert!(
        messages[1].starts_with("unknown switch `nowhere`"),
        "{messages:?}"
    );
}

#[test]
fn speeds_run_from_10m_to_10t_as_the_message_says() {
    assert_eq!(Speed::parse("10T"), Ok(Speed::from_gbps(10_000)));
    assert_eq!(Speed::parse("1.6T"), Ok(Speed::from_gbps(1600)));
    assert_eq!(Speed::parse("10M"), Ok(Speed::from_mbps(10)));
    assert_eq!(Speed::from_gbps(10_000).to_string(), "10T");
    for bad in ["11T", "1M", "0G"] {
        assert_eq!(
            Speed::parse(bad),
            Err(format!(
                "speed `{bad}` is out of range: it must be from 10M to 10T"
            )),
        );
    }
}

#[test]
fn numbers_are_bounded_to_documented_ranges() {
    let text = "[design]\nname = \"d\"\ndrain_budget = \"9999h\"\n[hosts.h]\nmemory_gb = 1e308\n[hosts.h.live_migration]\nsmb_bandwidth_limit = \"99999999999999999999999MB\"\n";
    assert_eq!(
        diags(text),
        vec![
            (3, "`drain_budget = \"9999h\"` is out of range: it must be from 1s to 168h".to_string()),
            (5, "`memory_gb` = 1e308 is out of range: it must be more than 0 and at most 65536".to_string()),
            (7, "bandwidth `99999999999999999999999MB` is out of range: it must be from 1 byte to 1250GB per second (PowerShell units, about 10 Tb/s)".to_string()),
        ]
    );
    let ok = "[design]\nname = \"d\"\ndrain_budget = \"168h\"\n[hosts.h]\nmemory_gb = 65536\n[hosts.h.live_migration]\nsmb_bandwidth_limit = \"1\"\n";
    assert_eq!(diags(ok), vec![]);
}

#[test]
fn a_key_nested_past_the_parser_limit_is_reported_at_its_line() {
    let deep = vec!["a"; 100].join(".");
    for text in [
        format!("[design]\nname = \"d\"\n[{deep}]\nx = 1\n"),
        format!("[design]\nname = \"d\"\n[hosts]\nx = {{ {deep} = 1 }}\n"),
    ] {
        assert_eq!(
            diags(&text),
            vec![(
                3 + usize::from(text.contains("[hosts]")),
                "TOML syntax error: a key or table header nests more than 80 levels deep"
                    .to_string()
            )]
        );
    }
}
