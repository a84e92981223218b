//! `vsphere-ip-hash-lag`: IP-hash teaming whose uplinks cannot be one
//! static EtherChannel, or LACP on a standard vSwitch.

use crate::rules::fix_at::host_table;
use crate::rules::traffic::emit_per_host;
use crate::{declare_rule, Context};
use netlint_analysis::NicEnd;
use netlint_model::{
    Attachment, Diagnostic, Element, Fix, FixEdit, Host, LoadBalancing, Sp, SwitchId, SwitchLag,
    Uplink, VSwitch, VSwitchKind,
};

/// The virtual switch's `load_balancing` made `to`, on the line that holds
/// it: the policy the switch ports match. Unsafe: cabling the uplinks to
/// one stack with a static EtherChannel is the other way out.
fn policy_fix(host: &Host, vs: &VSwitch, lb: &Sp<LoadBalancing>, to: LoadBalancing) -> Fix {
    let edit = FixEdit::replace(
        host_table(host, lb.span)
            .then("vswitches")
            .then(vs.name.as_str())
            .then("load_balancing"),
        lb.value.as_str(),
        to.as_str(),
        lb.span,
    );
    Fix::unsafe_(
        format!("set `{edit}`, which independent switch ports match"),
        vec![edit],
    )
}

declare_rule!(
    RULE,
    id: "vsphere-ip-hash-lag",
    category: "vsphere",
    severity: Error,
    summary: "A vSphere IP-hash team whose uplinks are not one static EtherChannel, or LACP on a standard vSwitch.",
    check: check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut found = Vec::new();
    let d = cx.design;
    for (hi, host) in d.hosts.iter().enumerate() {
        if !host.os.value.is_vsphere() {
            continue;
        }
        for vs in &host.vswitches {
            let Some(lb) = &vs.load_balancing else {
                continue;
            };
            let element = Element::vswitch(&host.name, &vs.name);
            if lb.value == LoadBalancing::Lacp
                && vs.kind.as_ref().map(|k| k.value) == Some(VSwitchKind::Vss)
            {
                found.push(cx
                        .finding(
                            &RULE,
                            element.clone(),
                            lb.span,
                            format!(
                                "standard vSwitch `{}` uses LACP load balancing, which only a distributed switch (vDS LAG) offers",
                                vs.name
                            ),
                        )
                        .with_help("move the uplinks to a vDS with an LACP LAG, or use `load_balancing = \"ip-hash\"` with a static EtherChannel (or originating-port with independent switch ports)"));
                continue;
            }
            if lb.value != LoadBalancing::IpHash {
                continue;
            }
            // The switch side must be one static port-channel: one logical
            // switch, and not stated as anything else.
            let mut switches: Vec<SwitchId> = Vec::new();
            let mut uncabled = false;
            let mut lag_says = None;
            for u in &vs.uplinks {
                if let Uplink::Team(t) = u.value {
                    if let Some(l) = &host.teams[t.0].switch_lag {
                        if l.value != SwitchLag::Static {
                            lag_says = Some(l.clone());
                        }
                    }
                }
                for n in host.uplink_nics(u.value) {
                    match cx.topology().nic_ends[hi].get(n.0) {
                        Some(Some(NicEnd::Switch(s))) => {
                            if !switches.contains(s) {
                                switches.push(*s);
                            }
                        }
                        _ => uncabled = true,
                    }
                }
            }
            if let Some(l) = lag_says {
                found.push(cx
                        .finding(
                            &RULE,
                            element.clone(),
                            lb.span,
                            format!(
                                "vSwitch `{}` uses IP-hash load balancing, but its uplinks' switch ports are `switch_lag = \"{}\"`: IP hash needs one static EtherChannel (`channel-group mode on`), not LACP or independent ports",
                                vs.name, l.value
                            ),
                        )
                        .with_related(l.span, "switch side")
                        .with_help("bundle the uplinks' switch ports into a static port-channel, or use originating-port load balancing on independent ports")
                        .with_fix((l.value == SwitchLag::None).then(|| {
                            policy_fix(host, vs, lb, LoadBalancing::OriginatingPort)
                        })));
                continue;
            }
            if uncabled || switches.len() < 2 {
                continue;
            }
            let one = switches
                .iter()
                .all(|s| d.same_logical_switch(switches[0], *s));
            if one {
                continue;
            }
            let names: Vec<String> = switches
                .iter()
                .map(|s| format!("`{}`", d.switch(*s).name))
                .collect();
            // Each uplink's cable is a line of the cause (one host's
            // override that moves an uplink to another switch leads).
            let mut cabling = Vec::new();
            for u in &vs.uplinks {
                for n in host.uplink_nics(u.value) {
                    let nic = host.nic(n);
                    if let Some(Attachment::Switch(sw)) = &nic.attach {
                        cabling.push((
                            sw.span,
                            format!("`{}` cabled to `{}`", nic.name, d.switch(sw.value).name),
                        ));
                    }
                }
            }
            let mut diagnostic = cx
                    .finding(
                        &RULE,
                        element,
                        lb.span,
                        format!(
                            "vSwitch `{}` uses IP-hash load balancing, but its uplinks go to {}, which are not one stack or MLAG domain: they cannot form the one static EtherChannel IP hash needs, and each switch sees the VM MACs flap between ports",
                            vs.name,
                            names.join(" and ")
                        ),
                    )
                    .with_related(vs.uplinks_span, "uplinks")
                    .with_help("use originating-port (or physical-NIC-load on a vDS) load balancing on independent switch ports, or cable the uplinks to one stack / MLAG pair with a static EtherChannel")
                    .with_fix(Some(policy_fix(host, vs, lb, LoadBalancing::OriginatingPort)));
            for (span, label) in cabling {
                diagnostic = diagnostic.with_related(span, label);
            }
            found.push(diagnostic);
        }
    }
    emit_per_host(out, found);
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    fn src(lb: &str, kind: &str, sw_b: &str, extra: &str) -> String {
        format!(
            r#"
[design]
name = "t"
platform = "vsphere-7"
[switches.a]
{extra}
[switches.b]
{extra}
[hosts.esx1.nics.vmnic0]
speed = "10G"
switch = "a"
[hosts.esx1.nics.vmnic1]
speed = "10G"
switch = "{sw_b}"
[hosts.esx1.vswitches.vSwitch0]
{kind}
uplinks = ["vmnic0", "vmnic1"]
load_balancing = "{lb}"
"#
        )
    }

    #[test]
    fn ip_hash_across_independent_switches_fires() {
        let f = findings(&src("ip-hash", "", "b", ""), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.starts_with("host `esx1`: vSwitch `vSwitch0` uses IP-hash load balancing, but its uplinks go to `a` and `b`, which are not one stack or MLAG domain"),
            "{}",
            f[0].message
        );
        assert_eq!(f[0].element(), "hosts.esx1.vswitches.vSwitch0");
    }

    #[test]
    fn ip_hash_to_one_switch_or_a_stack_is_silent() {
        assert!(findings(&src("ip-hash", "", "a", ""), &super::RULE).is_empty());
        assert!(findings(&src("ip-hash", "", "b", "stack = \"s\""), &super::RULE).is_empty());
        assert!(findings(&src("originating-port", "", "b", ""), &super::RULE).is_empty());
    }

    #[test]
    fn lacp_on_a_standard_vswitch_fires() {
        let f = findings(&src("lacp", "kind = \"vss\"", "a", ""), &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0]
            .message
            .contains("standard vSwitch `vSwitch0` uses LACP"));
        assert!(findings(&src("lacp", "kind = \"vds\"", "a", ""), &super::RULE).is_empty());
    }
}
