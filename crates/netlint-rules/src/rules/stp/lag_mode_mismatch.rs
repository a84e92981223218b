//! `lag-mode-mismatch`: the two ends of an inter-switch link bundle its
//! cables differently (`lag_a` / `lag_b`): LACP against a static
//! port-channel, or a port-channel against plain ports, forms no bundle.

use super::trunk_vlan_mismatch::end_names;
use crate::rules::fix_at::link_table;
use crate::{declare_rule, Context};
use netlint_model::{Diagnostic, Fix, FixEdit, LagMode, Link, LinkKind, Sp};

declare_rule!(
    RULE,
    id: "lag-mode-mismatch",
    category: "stp",
    severity: Error,
    summary: "The two ends of an inter-switch link bundle its cables differently (LACP against a static port-channel, or a port-channel against plain ports): no bundle forms.",
    check: check,
);

/// How much an end bundles: LACP, then a static port-channel, then none.
fn rank(m: LagMode) -> u8 {
    match m {
        LagMode::Lacp => 2,
        LagMode::Static => 1,
        LagMode::None => 0,
    }
}

/// "`acc1` runs LACP", as the end's mode is said in the message.
fn runs(names: &str, m: LagMode) -> String {
    match m {
        LagMode::Lacp => format!("{names} runs LACP"),
        LagMode::Static => format!("{names} a static port-channel (`mode on`)"),
        LagMode::None => format!("{names} no port-channel"),
    }
}

/// What happens on the wire, `more` the end that bundles more.
fn outcome(more: (&str, LagMode), less: (&str, LagMode), members: u32) -> String {
    let cables = if members > 1 {
        format!("its {members} members")
    } else {
        "its member".to_string()
    };
    match (more.1, less.1) {
        (LagMode::Lacp, LagMode::Static) => format!(
            "a `mode on` end sends no LACPDUs, so {} never brings {cables} into the bundle (IEEE 802.1AX; NX-OS suspends them, EOS and IOS leave them individual ports) while {} forwards over them as one port: frames may loop or be dropped, depending on the vendor",
            more.0, less.0
        ),
        (LagMode::Lacp, _) => format!(
            "no LACPDUs reach {} from plain ports, so it never brings {cables} into the bundle (IEEE 802.1AX; NX-OS suspends them, EOS and IOS leave them individual ports): the link runs on one cable at best, or not at all",
            more.0
        ),
        _ => format!(
            "{} forwards over the cables as one port while {} runs them as separate ports: a frame {} floods on one cable comes back to it on another (a loop) unless spanning tree blocks all but one",
            more.0, less.0, less.0
        ),
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let design = cx.design;
    for link in &design.links {
        // A stacking cable is a backplane, not a port-channel.
        if link.kind.value == LinkKind::Stack {
            continue;
        }
        let Some((la, lb)) = link.lag_ends() else {
            continue;
        };
        if la.value == lb.value {
            continue;
        }
        let lacp = la.value == LagMode::Lacp || lb.value == LagMode::Lacp;
        // One cable, a static port-channel against a plain port: the
        // port-channel of one member forwards as the port would.
        if !lacp && link.members.value < 2 && !link.is_multi_chassis() {
            continue;
        }
        out.push(finding(cx, link, &la, &lb));
    }
}

fn finding(cx: &Context<'_>, link: &Link, la: &Sp<LagMode>, lb: &Sp<LagMode>) -> Diagnostic {
    let design = cx.design;
    let (na, nb) = (
        end_names(design, link, true),
        end_names(design, link, false),
    );
    // The finding sits at the end that bundles less (the `b` end when the
    // `a` end bundles less, the related line the other end).
    let (less, more, less_names, more_names, less_key) = if rank(la.value) < rank(lb.value) {
        (la, lb, &na, &nb, "lag_a")
    } else {
        (lb, la, &nb, &na, "lag_b")
    };
    let message = format!(
        "the two ends of link `{}` cannot bundle: {} and {}: {}",
        link.name,
        runs(&na, la.value),
        runs(&nb, lb.value),
        outcome(
            (more_names, more.value),
            (less_names, less.value),
            link.members.value
        )
    );
    // The end that bundles less takes the other end's mode, where its key
    // is written (an end left at the default has no line to change).
    let written = if less_key == "lag_a" {
        link.ends.lag_a.is_some()
    } else {
        link.ends.lag_b.is_some()
    };
    let fix = written.then(|| {
        Fix::unsafe_(
            format!(
                "bundle both ends of link `{}` as `{}`",
                link.name,
                more.value.as_str()
            ),
            vec![FixEdit::replace(
                link_table(link).then(less_key),
                less.value.as_str(),
                more.value.as_str(),
                less.span,
            )],
        )
    });
    cx.finding(&RULE, link.element(), less.span, message)
        .with_related(more.span, format!("the bundling mode of {more_names}"))
        .with_help(format!(
            "configure the same mode at both ends of link `{}` on the switches (`channel-group N mode active` on both: LACP also finds a miscabled member) and write one `lag`",
            link.name
        ))
        .with_fix(fix)
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const LINK: &str = r#"
[design]
name = "t"
[switches.acc1]
vlans = [10]
[switches.tor]
vlans = [10]
[[links]]
name = "up"
a = "acc1"
b = "tor"
speed = "10G"
ENDS
"#;

    #[test]
    fn lacp_against_static_is_reported_at_the_static_end() {
        let design = LINK.replace("ENDS", "members = 2\nlag_a = \"lacp\"\nlag_b = \"static\"");
        let f = findings(&design, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "the two ends of link `up` cannot bundle: `acc1` runs LACP and `tor` a static port-channel (`mode on`): a `mode on` end sends no LACPDUs, so `acc1` never brings its 2 members into the bundle (IEEE 802.1AX; NX-OS suspends them, EOS and IOS leave them individual ports) while `tor` forwards over them as one port: frames may loop or be dropped, depending on the vendor"
        );
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert!(design[at..].starts_with("\"static\""), "{}", &design[at..]);
        let rel = f[0].related[0].span.start;
        assert!(design[rel..].starts_with("\"lacp\""), "{}", &design[rel..]);
        assert_eq!(f[0].related[0].message, "the bundling mode of `acc1`");
        let fix = f[0].fix.as_ref().expect("a fix");
        assert_eq!(fix.safety, netlint_model::FixSafety::Unsafe);
        assert_eq!(fix.edits[0].path.to_string(), "links[0].lag_b");
    }

    #[test]
    fn a_port_channel_against_plain_ports_is_reported_at_the_plain_end() {
        let design = LINK.replace("ENDS", "members = 2\nlag_a = \"none\"\nlag_b = \"static\"");
        let f = findings(&design, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("`tor` forwards over the cables as one port while `acc1` runs them as separate ports"), "{}", f[0].message);
        assert_eq!(
            f[0].fix.as_ref().unwrap().edits[0].path.to_string(),
            "links[0].lag_a"
        );
        let lacp = LINK.replace("ENDS", "lag_a = \"lacp\"\nlag_b = \"none\"");
        assert_eq!(findings(&lacp, &super::RULE).len(), 1);
        // `lag_b` alone against the default LACP of two cables.
        let alone = LINK.replace("ENDS", "members = 2\nlag_b = \"static\"");
        let f = findings(&alone, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].fix.is_some());
    }

    #[test]
    fn ends_that_agree_and_one_cable_static_against_plain_are_no_finding() {
        let same = LINK.replace("ENDS", "members = 2\nlag_a = \"lacp\"\nlag_b = \"lacp\"");
        assert!(findings(&same, &super::RULE).is_empty());
        let one = LINK.replace("ENDS", "lag_a = \"static\"\nlag_b = \"none\"");
        assert!(findings(&one, &super::RULE).is_empty());
        let written = LINK.replace("ENDS", "members = 2\nlag = \"static\"");
        assert!(findings(&written, &super::RULE).is_empty());
        // One end alone: the other runs the default, LACP on two cables.
        let alone = LINK.replace("ENDS", "members = 2\nlag_a = \"lacp\"");
        assert!(findings(&alone, &super::RULE).is_empty());
    }

    #[test]
    fn the_model_takes_ends_that_cannot_bundle_as_separate_ports() {
        let design = LINK.replace("ENDS", "members = 2\nlag_a = \"lacp\"\nlag_b = \"static\"");
        let loaded = netlint_model::load(&netlint_model::SourceFile::new("t.toml", design));
        let d = loaded.design.expect("loads");
        assert_eq!(d.links[0].lag.value, netlint_model::LagMode::None);
        assert!(!d.links[0].is_lag());
    }
}
