//! Issue 31 item 10: the global lines of stock configs of current
//! releases are ignored with their reason.

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
