//! Issue 31 item 10: the global lines of stock configs of current
//! releases are ignored with their reason, and every ignored line is kept
//! with its reason, listable as the lines not understood are.

use netlint_import::*;

fn summary(text: &str, vendor: Vendor) -> ImportSummary {
    parse("t.cfg", text, Some(Kind::Config(vendor)))
        .unwrap()
        .summary()
        .clone()
}

/// Each line (with its children), read in its vendor's config, is
/// ignored with the reason given; the rest of the config still reads.
#[test]
fn stock_global_lines_are_ignored_with_their_reason() {
    let cases: &[(Vendor, &str, &str)] = &[
        (Vendor::NxOs, "icam monitor scale", "monitoring"),
        (Vendor::NxOs, "fips mode enable", "crypto"),
        (Vendor::NxOs, "user max-logins 1", "aaa"),
        (Vendor::NxOs, "cli alias name wr copy run start", "cli"),
        (Vendor::NxOs, "switching-mode store-forward", "platform"),
        (Vendor::Os10, "vrrp version 3", "routing"),
        (Vendor::Os10, "vrrp delay reload 180", "routing"),
        (Vendor::Os10, "hash-algorithm ecmp crc", "load balancing"),
        (Vendor::Os10, "password-attributes min-length 8", "aaa"),
        (
            Vendor::Ios,
            "service-template webauth-global-inactive\n inactivity-timer 3600",
            "aaa",
        ),
        (Vendor::Ios, "device classifier", "aaa"),
        (
            Vendor::Ios,
            "pnp profile pnp-zero-touch\n transport https ipv4 192.0.2.1 port 443",
            "management",
        ),
        (Vendor::Ios, "security passwords min-length 8", "aaa"),
        (
            Vendor::Ios,
            "kron policy-list SAVE\n cli write memory\nkron occurrence SAVE at 1:00 recurring\n policy-list SAVE",
            "management",
        ),
    ];
    for (vendor, lines, why) in cases {
        let text = format!("hostname sw1\n{lines}\nvlan 10\n");
        let s = summary(&text, *vendor);
        assert!(
            s.not_understood.is_empty(),
            "{lines}: {:?}",
            s.not_understood
        );
        let n = lines.lines().count() as u32;
        for no in 2..2 + n {
            assert_eq!(
                s.class(no),
                Some(LineClass::Ignored(Ignored::Irrelevant(why))),
                "{lines}: line {no}"
            );
        }
        assert_eq!(s.class(2 + n), Some(LineClass::Understood), "{lines}");
    }
}

/// Every ignored line but a blank one is kept with its text and reason,
/// in file order; the list agrees with the count.
#[test]
fn ignored_lines_are_kept_with_their_reason() {
    let text = "tor1# show running-config\n!Command: show running-config\n\nhostname tor1\nbanner motd ^C\nhostname fake\n^C\nfeature lldp\nfips mode enable\nrouter bgp 65000\n  router-id 10.0.0.1\nfrob\n2024 Jan  5 10:01:02 tor1 %ETHPORT-5-IF_UP: Interface Ethernet1/1 is up\n";
    let s = summary(text, Vendor::NxOs);
    let got: Vec<(u32, &str, String)> = s
        .ignored_lines
        .iter()
        .map(|l| (l.line, l.text.as_str(), l.why.to_string()))
        .collect();
    assert_eq!(
        got,
        vec![
            (1, "tor1# show running-config", "capture noise".to_string()),
            (2, "!Command: show running-config", "comment".to_string()),
            (5, "banner motd ^C", "banner text".to_string()),
            (6, "hostname fake", "banner text".to_string()),
            (7, "^C", "banner text".to_string()),
            (9, "fips mode enable", "crypto".to_string()),
            (10, "router bgp 65000", "routing".to_string()),
            (11, "router-id 10.0.0.1", "routing".to_string()),
            (
                13,
                "2024 Jan  5 10:01:02 tor1 %ETHPORT-5-IF_UP: Interface Ethernet1/1 is up",
                "capture noise".to_string()
            ),
        ]
    );
    // The blank line 3 is counted as ignored, not listed.
    assert_eq!(s.ignored(), got.len() + 1);
    assert_eq!(s.not_understood.len(), 1);
}

/// LLDP tables and cabling CSVs keep theirs too.
#[test]
fn lldp_and_cabling_keep_their_ignored_lines() {
    let d = parse(
        "c.csv",
        "# site cabling\ndevice,port,peer_device,peer_port\ntor1,Eth1/1,hv1,NIC1\n",
        None,
    )
    .unwrap();
    let l: Vec<u32> = d.summary().ignored_lines.iter().map(|l| l.line).collect();
    assert_eq!(l, [1, 2], "{:?}", d.summary().ignored_lines);
    let d = parse(
        "l.txt",
        "tor1# show lldp neighbors detail\nCapability codes:\nChassis id: 0050.5600.0001\nPort id: NIC1\nLocal Port id: Eth1/1\nSystem Name: hv1\n",
        None,
    )
    .unwrap();
    let first = &d.summary().ignored_lines[0];
    assert_eq!((first.line, first.why), (1, Ignored::Capture));
}
