//! `native-vlan-mismatch`: the two ends of an inter-switch link have
//! different native (untagged) VLANs.

use crate::rules::fix_at::{link_table, switch_table};
use crate::{declare_rule, Context};
use netlint_model::{Diagnostic, End, Fix, FixEdit, LinkKind, NativeAt};

declare_rule!(
    RULE,
    id: "native-vlan-mismatch",
    category: "stp",
    severity: Error,
    summary: "The two ends of an inter-switch link have different native (untagged) VLANs: traffic leaks between the two VLANs.",
    check: check,
);

/// "10 at `tor-a` (port `Ethernet1/49`)", "1 at `tor-b` (not stated: the
/// default)".
fn end_words(
    design: &netlint_model::Design,
    link: &netlint_model::Link,
    end: End,
    at: usize,
    n: &NativeAt,
) -> String {
    let switch = match end {
        End::A => link.a.value,
        End::B => link.b[at].value,
    };
    let sw = &design.switch(switch).name;
    let mut notes: Vec<String> = link
        .port_at(design, end, at)
        .map(|p| format!("port `{}`", p.name))
        .into_iter()
        .collect();
    if n.span.is_none() {
        notes.push("not stated: the default".to_string());
    }
    if notes.is_empty() {
        format!("{} at `{sw}`", n.vlan)
    } else {
        format!("{} at `{sw}` ({})", n.vlan, notes.join(", "))
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let design = cx.design;
    for link in &design.links {
        // A stacking cable is a backplane, not an 802.1Q trunk.
        if link.kind.value == LinkKind::Stack {
            continue;
        }
        let a = link.native_at(design, End::A, 0);
        let Some((at, b)) = (0..link.b.len())
            .map(|i| (i, link.native_at(design, End::B, i)))
            .find(|(_, b)| b.vlan != a.vlan)
        else {
            continue;
        };
        let (wa, wb) = (
            end_words(design, link, End::A, 0, &a),
            end_words(design, link, End::B, at, &b),
        );
        // The stated end that differs from the default is the one to look
        // at first; with both stated, the `b` end.
        let (primary, other, other_words) = match (a.span, b.span) {
            (Some(sa), None) => (sa, None, String::new()),
            (None, Some(sb)) => (sb, None, String::new()),
            (Some(sa), Some(sb)) => (sb, Some(sa), format!("native VLAN {wa}")),
            (None, None) => (link.span, None, String::new()),
        };
        let mut d = cx
            .finding(
                &RULE,
                link.element(),
                primary,
                format!(
                    "link `{}` has native VLAN {} and native VLAN {}: untagged frames leave one switch in VLAN {} and arrive at the other in VLAN {}, so the two VLANs leak into each other (Cisco CDP reports \"Native VLAN mismatch\", and PVST+ blocks the port for both VLANs as PVID-inconsistent)",
                    link.name, wa, wb, a.vlan, b.vlan
                ),
            )
            .with_help(format!(
                "give both ends of link `{}` one native VLAN ({} or {}) on the switches (`switchport trunk native vlan`) and in the design (`native_vlan` on the link for both ends, or the ports' `native_vlan`)",
                link.name, a.vlan, b.vlan
            ));
        if let Some(s) = other {
            d = d.with_related(s, other_words);
        }
        // The fix: an end that states nothing takes the stated end's VLAN
        // (on the link, for that end); with both stated, the `b` end takes
        // the `a` end's, where it is written. Which VLAN is right is the
        // user's call: it needs judgement.
        let (end, at_end, to, from) = match (a.span, b.span) {
            (Some(_), None) => (End::B, at, a.vlan, &b),
            (None, Some(_)) => (End::A, 0, b.vlan, &a),
            _ => (End::B, at, a.vlan, &b),
        };
        d = d.with_fix(native_fix(design, link, end, at_end, from, to));
        d = d.with_related(link.span, format!("link `{}`", link.name));
        out.push(d);
    }
}

/// The edit that gives `end` (switch `at` of `b`) of `link`, now `from`,
/// the native VLAN `to`: its own line where it is stated (the link's
/// `native_vlan_a` / `native_vlan_b`, or its port's `native_vlan`), else
/// a `native_vlan_a` / `native_vlan_b` of the link's own.
fn native_fix(
    design: &netlint_model::Design,
    link: &netlint_model::Link,
    end: End,
    at: usize,
    from: &NativeAt,
    to: u16,
) -> Option<Fix> {
    let key = match end {
        End::A => "native_vlan_a",
        End::B => "native_vlan_b",
    };
    let own = match end {
        End::A => &link.ends.native_vlan_a,
        End::B => &link.ends.native_vlan_b,
    };
    let edit = match from.span {
        None => FixEdit::insert(link_table(link).then(key), to, link.span),
        Some(s) if own.as_ref().is_some_and(|v| v.span == s) => {
            FixEdit::replace(link_table(link).then(key), from.vlan, to, s)
        }
        Some(s) => {
            // The link's shared `native_vlan` holds both ends: changing it
            // mends nothing.
            let port = link
                .port_at(design, end, at)
                .filter(|p| p.native_vlan.as_ref().is_some_and(|v| v.span == s))?;
            let sw = match end {
                End::A => link.a.value,
                End::B => link.b[at].value,
            };
            FixEdit::replace(
                switch_table(design.switch(sw))
                    .then("ports")
                    .then(port.name.as_str())
                    .then("native_vlan"),
                from.vlan,
                to,
                s,
            )
        }
    };
    Some(Fix::unsafe_(
        format!("set `{} = {to}`", edit.path),
        vec![edit],
    ))
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const ISL: &str = r#"
[design]
name = "t"
[switches.tor-a]
PORT_A
[switches.tor-b]
[[links]]
name = "isl"
a = "tor-a"
b = "tor-b"
speed = "10G"
LINK
"#;

    fn src(link: &str, port_a: &str) -> String {
        ISL.replace("LINK", link).replace("PORT_A", port_a)
    }

    #[test]
    fn different_ends_fire_at_the_b_end_with_the_a_end_related() {
        let s = src("native_vlan_a = 10\nnative_vlan_b = 20", "");
        let f = findings(&s, "native-vlan-mismatch");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.starts_with(
                "link `isl` has native VLAN 10 at `tor-a` and native VLAN 20 at `tor-b`: untagged frames leave one switch in VLAN 10 and arrive at the other in VLAN 20"
            ),
            "{}",
            f[0].message
        );
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert!(s[at..].starts_with("20"), "{}", &s[at..]);
        assert_eq!(f[0].related[0].message, "native VLAN 10 at `tor-a`");
        assert_eq!(f[0].element(), "links.isl");
    }

    #[test]
    fn an_unstated_end_is_vlan_1() {
        let f = findings(&src("native_vlan_a = 99", ""), "native-vlan-mismatch");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message
                .contains("native VLAN 1 at `tor-b` (not stated: the default)"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn the_ports_native_vlan_counts_for_its_end() {
        let port = "[switches.tor-a.ports.\"Ethernet1/49\"]\nnative_vlan = 99";
        let f = findings(
            &src("port_a = \"Ethernet1/49\"\nnative_vlan_b = 98", port),
            "native-vlan-mismatch",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message
                .contains("native VLAN 99 at `tor-a` (port `Ethernet1/49`)"),
            "{}",
            f[0].message
        );
        let ok = findings(
            &src("port_a = \"Ethernet1/49\"\nnative_vlan_b = 99", port),
            "native-vlan-mismatch",
        );
        assert!(ok.is_empty(), "{ok:#?}");
    }

    #[test]
    fn one_native_vlan_for_both_ends_or_none_is_silent() {
        for link in ["native_vlan = 99", "", "native_vlan_a = 1"] {
            let f = findings(&src(link, ""), "native-vlan-mismatch");
            assert!(f.is_empty(), "{link}: {f:#?}");
        }
    }
}
