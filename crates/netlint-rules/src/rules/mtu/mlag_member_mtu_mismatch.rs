//! `mlag-member-mtu-mismatch`: the switches of one multi-chassis end of a
//! link (the two peers of a vPC / MLAG / VLT) run its port-channel at
//! different MTUs (`mtu_a` / `mtu_b` by switch).

use crate::rules::fix_at::link_table;
use crate::{declare_rule, Context};
use netlint_model::{Design, Diagnostic, End, Fix, FixEdit, Link, LinkKind, Span, SwitchId};

declare_rule!(
    RULE,
    id: "mlag-member-mtu-mismatch",
    category: "mtu",
    severity: Error,
    summary: "The peers of a multi-chassis LAG run its port-channel at different MTUs: NX-OS suspends the vPC on one peer, elsewhere large frames hashed onto the smaller member are dropped.",
    check: check,
);

/// One switch of a multi-chassis end: its MTU on the link and the line
/// that states it (`None`: the switch's own `mtu`, at that line).
struct Member {
    switch: SwitchId,
    payload: u32,
    entry: Option<Span>,
    at: Span,
}

fn members(design: &Design, link: &Link, end: End) -> Vec<Member> {
    link.end_switches(end)
        .into_iter()
        .map(|s| match link.ends.mtus.iter().find(|e| e.switch == s) {
            Some(e) => Member {
                switch: s,
                payload: e.mtu.value.payload,
                entry: Some(e.mtu.span),
                at: e.mtu.span,
            },
            None => {
                let sw = design.switch(s);
                Member {
                    switch: s,
                    payload: sw.mtu.value.payload,
                    entry: None,
                    at: sw.mtu.span,
                }
            }
        })
        .collect()
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let design = cx.design;
    for link in &design.links {
        // Per-member MTUs are written only where the members differ; a
        // link that writes none has one MTU on every member.
        if link.ends.mtus.is_empty() || link.kind.value != LinkKind::Ethernet {
            continue;
        }
        for end in [End::A, End::B] {
            let m = members(design, link, end);
            if m.len() < 2 {
                continue;
            }
            let (Some(small), Some(large)) = (
                m.iter().min_by_key(|x| x.payload),
                m.iter().max_by_key(|x| x.payload),
            ) else {
                continue;
            };
            if small.payload == large.payload {
                continue;
            }
            let key = match end {
                End::A => "mtu_a",
                End::B => "mtu_b",
            };
            let name = |s: SwitchId| design.switch(s).name.as_str();
            let each: Vec<String> = m
                .iter()
                .map(|x| format!("`{}` {}", name(x.switch), x.payload))
                .collect();
            let stated = |x: &Member| match x.entry {
                Some(_) => format!("`{}`'s member of link `{}`", name(x.switch), link.name),
                None => format!(
                    "`{}`'s own MTU, which its member of link `{}` runs",
                    name(x.switch),
                    link.name
                ),
            };
            let mut d = cx
                .finding(
                    &RULE,
                    link.element(),
                    small.at,
                    format!(
                        "the peers of the multi-chassis LAG `{}` run it at different MTUs ({}): NX-OS checks the MTU as a type-1 vPC parameter and suspends the vPC on the secondary peer, so the LAG runs on one peer only; on other MLAG switches a frame larger than {} that hashes onto `{}`'s member is dropped",
                        link.name,
                        each.join(", "),
                        small.payload,
                        name(small.switch)
                    ),
                )
                .with_related(large.at, stated(large))
                .with_help(format!(
                    "set the same MTU on the port-channel of every peer (`mtu {}` on `{}`'s member, or the smaller everywhere), then write one `{key}` for the end",
                    large.payload,
                    name(small.switch)
                ));
            // The fix raises each smaller member to the largest: which of
            // the two is meant is the user's choice.
            let edits: Vec<FixEdit> = m
                .iter()
                .filter(|x| x.payload < large.payload)
                .map(|x| {
                    let path = link_table(link).then(key).then(name(x.switch));
                    match x.entry {
                        Some(at) => FixEdit::replace(path, x.payload, large.payload, at),
                        None => FixEdit::insert(path, large.payload, link.span),
                    }
                })
                .collect();
            d = d.with_fix(Some(Fix::unsafe_(
                format!(
                    "run every peer's member of link `{}` at MTU {}",
                    link.name, large.payload
                ),
                edits,
            )));
            out.push(d);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const VPC: &str = r#"
[design]
name = "t"
[switches.acc1]
mtu = 9216
[switches.tor-a]
mtu = 9216
mlag = "vpc-1"
[switches.tor-b]
mtu = 9216
mlag = "vpc-1"
[[links]]
name = "up"
a = "acc1"
b = ["tor-a", "tor-b"]
speed = "10G"
members = 2
ENDS
"#;

    #[test]
    fn peers_at_different_mtus_are_reported_at_the_smaller_member() {
        let design = VPC.replace("ENDS", "mtu_b = { \"tor-a\" = 9216, \"tor-b\" = 1500 }");
        let f = findings(&design, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.starts_with(
                "the peers of the multi-chassis LAG `up` run it at different MTUs (`tor-a` 9216, `tor-b` 1500)"
            ),
            "{}",
            f[0].message
        );
        let at = f[0].primary.as_ref().unwrap().span.start;
        assert!(design[at..].starts_with("1500 }"), "{}", &design[at..]);
        let rel = f[0].related[0].span.start;
        assert!(design[rel..].starts_with("9216, "), "{}", &design[rel..]);
        let fix = f[0].fix.as_ref().expect("a fix");
        assert_eq!(fix.safety, netlint_model::FixSafety::Unsafe);
        assert_eq!(fix.edits.len(), 1);
        assert_eq!(fix.edits[0].path.to_string(), "links[0].mtu_b.tor-b");
    }

    #[test]
    fn a_peer_the_table_does_not_name_runs_its_switch_mtu() {
        let design = VPC.replace("ENDS", "mtu_b = { \"tor-a\" = 1500 }");
        let f = findings(&design, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("(`tor-a` 1500, `tor-b` 9216)"),
            "{}",
            f[0].message
        );
        assert_eq!(
            f[0].related[0].message,
            "`tor-b`'s own MTU, which its member of link `up` runs"
        );
    }

    #[test]
    fn one_mtu_per_end_or_for_the_link_is_no_finding() {
        for ends in [
            "mtu = 9216",
            "mtu_a = 9216\nmtu_b = 1500",
            "mtu_b = { \"tor-a\" = 9000, \"tor-b\" = 9000 }",
            "",
        ] {
            let design = VPC.replace("ENDS", ends);
            assert!(findings(&design, &super::RULE).is_empty(), "{ends}");
        }
    }
}
