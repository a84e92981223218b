//! The virtual-switch half of `team-lag-mismatch`: a SET switch, a
//! Hyper-V virtual switch on NICs, or a vSphere vSwitch whose uplinks'
//! switch ports are bundled in a way its teaming cannot work with
//! (`switch_lag` on the virtual switch, or the `lag` of its uplinks'
//! configured switch ports).
//!
//! Why one rule id and not a new one: it is the same fault as a team's
//! (host teaming and the switch's port-channel disagree, both ends of one
//! bundle), fixed on the same two ends, and users who configure or
//! `allow` it think of it as one check.

use super::team_lag_mismatch::RULE;
use crate::Context;
use netlint_model::{
    Design, Diagnostic, Element, Host, HostPortView, LoadBalancing, NicIdx, Sp, Span, SwitchLag,
    Uplink, VSwitch, VSwitchKind,
};

/// The port-channel mode every one of these NICs' configured switch ports
/// states (`lag`), when they all state the same one.
pub(crate) fn ports_lag(design: &Design, host: &Host, nics: &[NicIdx]) -> Option<Sp<SwitchLag>> {
    let mut found: Option<&Sp<SwitchLag>> = None;
    for n in nics {
        let lag = HostPortView::of(design, host.nic(*n))?.port?.lag.as_ref()?;
        match found {
            Some(f) if f.value != lag.value => return None,
            Some(_) => {}
            None => found = Some(lag),
        }
    }
    found.cloned()
}

/// How the host side of a virtual switch bundles its uplinks.
#[derive(Clone, Copy, PartialEq, Eq)]
enum HostSide {
    /// SET, a single NIC, or vSphere's originating-port, source-MAC,
    /// physical-NIC-load and explicit-failover policies.
    Independent,
    /// vSphere IP hash: one static EtherChannel.
    IpHash,
    /// A vDS LACP LAG.
    Lacp,
}

pub(crate) fn check(cx: &Context<'_>, found: &mut Vec<Diagnostic>) {
    let design = cx.design;
    for host in &design.hosts {
        for vs in &host.vswitches {
            // A virtual switch on a team: the team's mode and `switch_lag`
            // are checked as the team's (the loader refuses `switch_lag`
            // on such a virtual switch).
            if vs
                .uplinks
                .iter()
                .any(|u| matches!(u.value, Uplink::Team(_)))
            {
                continue;
            }
            let nics: Vec<NicIdx> = vs
                .uplinks
                .iter()
                .flat_map(|u| host.uplink_nics(u.value))
                .collect();
            let Some((lag, key)) = vs
                .switch_lag
                .clone()
                .map(|l| (l, "switch_lag"))
                .or_else(|| ports_lag(design, host, &nics).map(|l| (l, "lag")))
            else {
                continue;
            };
            if let Some(d) = finding(cx, host, vs, &lag, key) {
                found.push(d);
            }
        }
    }
}

fn finding(
    cx: &Context<'_>,
    host: &Host,
    vs: &VSwitch,
    lag: &Sp<SwitchLag>,
    key: &str,
) -> Option<Diagnostic> {
    let os = host.os.value;
    let kind = vs.kind_words(os);
    let name = &vs.name;
    let lb = vs.load_balancing.as_ref().map(|l| l.value);
    let vss = os.is_vsphere() && vs.kind.as_ref().map(|k| k.value) != Some(VSwitchKind::Vds);
    let side = match (os.is_vsphere(), lb) {
        (false, _) => HostSide::Independent,
        (true, Some(LoadBalancing::Lacp)) => HostSide::Lacp,
        (true, Some(LoadBalancing::IpHash)) => HostSide::IpHash,
        (true, _) => HostSide::Independent,
    };
    let set = |l: &str| format!("`{key} = \"{l}\"`");
    let (what, help, related): (String, String, Option<(Span, String)>) = match (lag.value, side) {
        // LACP load balancing on a vSS is `vsphere-ip-hash-lag`'s.
        (SwitchLag::Lacp, HostSide::Lacp) if vss => return None,
        (SwitchLag::Lacp, _) if vss => (
            format!("is on an LACP port-channel ({}), but a vSphere standard switch does not speak LACP (it bundles only as a static EtherChannel with IP hash; LACP needs a distributed switch's LAG): the switch gets no LACP partner and suspends the ports (`lacp suspend-individual`) or runs them as individual ports", set("lacp")),
            format!("use a static port-channel (`channel-group mode on`, {}) with `load_balancing = \"ip-hash\"`, or move the uplinks to a vDS with an LACP LAG (`kind = \"vds\"`, `load_balancing = \"lacp\"`)", set("static")),
            None,
        ),
        (SwitchLag::None, HostSide::Independent)
        | (SwitchLag::Static, HostSide::IpHash)
        | (SwitchLag::Lacp, HostSide::Lacp) => return None,
        (SwitchLag::Lacp | SwitchLag::Static, HostSide::Independent) if os.is_windows() => {
            let bundle = if lag.value == SwitchLag::Lacp { "an LACP" } else { "a static" };
            (
                format!("is on {bundle} port-channel ({}), but Hyper-V teams a virtual switch's NIC uplinks switch-independently only (Switch Embedded Teaming has no LACP or static mode): {}", set(lag.value.as_str()), consequence(lag.value)),
                format!("remove the port-channel on the switch ({}) and leave the uplinks as independent ports; SET is switch-independent", set("none")),
                None,
            )
        }
        (SwitchLag::Lacp | SwitchLag::Static, HostSide::Independent) => {
            let bundle = if lag.value == SwitchLag::Lacp { "an LACP" } else { "a static" };
            (
                format!("is on {bundle} port-channel ({}), but its load balancing ({}) treats the uplinks as independent ports: {}", set(lag.value.as_str()), lb.unwrap_or(LoadBalancing::OriginatingPort), consequence(lag.value)),
                format!("remove the port-channel on the switch ({}), or bundle the uplinks on the host too (`load_balancing = \"ip-hash\"` for a static port-channel, a vDS LACP LAG for LACP)", set("none")),
                vs.load_balancing.as_ref().map(|l| (l.span, "load balancing".to_string())),
            )
        }
        (SwitchLag::None, HostSide::IpHash) => (
            format!("uses IP hash, which sends one VM's flows out of every uplink, but its switch ports are independent ({}): the switch sees the VMs' MAC addresses move between ports (MAC flapping) and drops or loops back frames", set("none")),
            format!("bundle the uplinks' switch ports into one static port-channel (`channel-group mode on`, {}), or use `load_balancing = \"originating-port\"`", set("static")),
            vs.load_balancing.as_ref().map(|l| (l.span, "load balancing".to_string())),
        ),
        (SwitchLag::Lacp, HostSide::IpHash) => (
            format!("uses IP hash (a static EtherChannel) but its switch ports run LACP ({}): the vSwitch sends no LACPDUs, so the switch gets no LACP partner and suspends the ports or runs them individually", set("lacp")),
            format!("make the port-channel static (`channel-group mode on`, {}), or use a vDS LACP LAG", set("static")),
            vs.load_balancing.as_ref().map(|l| (l.span, "load balancing".to_string())),
        ),
        (SwitchLag::None | SwitchLag::Static, HostSide::Lacp) => (
            format!("runs an LACP LAG (`load_balancing = \"lacp\"`) but its switch ports {} ({}): no LACP partner answers, so the LAG's uplinks never aggregate", if lag.value == SwitchLag::None { "are independent" } else { "are a static port-channel, which sends no LACPDUs" }, set(lag.value.as_str())),
            format!("configure an LACP port-channel on the uplinks' switch ports ({}), or leave LACP on the vDS", set("lacp")),
            vs.load_balancing.as_ref().map(|l| (l.span, "load balancing".to_string())),
        ),
    };
    let mut d = cx
        .finding(
            &RULE,
            Element::vswitch(&host.name, name),
            lag.span,
            format!("{kind} `{name}` {what}"),
        )
        .with_related(vs.uplinks_span, format!("uplinks of {kind} `{name}`"))
        .with_help(help);
    if let Some((s, l)) = related {
        d = d.with_related(s, l);
    }
    Some(d)
}

/// What the switch does to a switch-independent host on this bundle.
fn consequence(lag: SwitchLag) -> &'static str {
    match lag {
        SwitchLag::Lacp => "the host sends no LACPDUs, so the switch gets no LACP partner and suspends the ports (`lacp suspend-individual`) or runs them as individual ports outside the channel, depending on the switch",
        _ => "the switch hashes inbound frames onto any member, while the host expects each flow back on the uplink it chose, so traffic is dropped",
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;
    use netlint_model::Severity;

    fn hyperv(lag: &str) -> String {
        format!(
            r#"
[design]
name = "t"
platform = "windows-server-2022"
[switches.tor]
[switches.tor.ports."Ethernet1/5"]
PORTLAG
[switches.tor.ports."Ethernet1/6"]
PORTLAG
[hosts.hv1.nics.A]
speed = "25G"
switch = "tor"
switch_port = "Ethernet1/5"
[hosts.hv1.nics.B]
speed = "25G"
switch = "tor"
switch_port = "Ethernet1/6"
[hosts.hv1.vswitches.SET]
uplinks = ["A", "B"]
{lag}
"#
        )
    }

    #[test]
    fn a_set_switch_on_a_port_channel_is_an_error_at_switch_lag() {
        for lag in ["lacp", "static"] {
            let s = hyperv(&format!("switch_lag = \"{lag}\"")).replace("PORTLAG", "");
            let f = findings(&s, "team-lag-mismatch");
            assert_eq!(f.len(), 1, "{lag}: {f:#?}");
            assert_eq!(f[0].severity, Severity::Error);
            assert!(
                f[0].message
                    .starts_with("host `hv1`: SET switch `SET` is on ")
                    && f[0]
                        .message
                        .contains("Switch Embedded Teaming has no LACP or static mode"),
                "{}",
                f[0].message
            );
            assert_eq!(f[0].element(), "hosts.hv1.vswitches.SET");
            let at = f[0].primary.as_ref().unwrap().span.start;
            assert!(s[at..].starts_with(&format!("\"{lag}\"")), "{}", &s[at..]);
        }
        let ok = hyperv("switch_lag = \"none\"").replace("PORTLAG", "");
        assert!(findings(&ok, "team-lag-mismatch").is_empty());
    }

    #[test]
    fn the_ports_lag_is_the_switch_side_when_switch_lag_is_not_stated() {
        let s = hyperv("").replace("PORTLAG", "lag = \"lacp\"");
        let f = findings(&s, "team-lag-mismatch");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("(`lag = \"lacp\"`)"),
            "{}",
            f[0].message
        );
        // Ports that disagree state no one bundle: silent.
        let mixed = hyperv("")
            .replacen("PORTLAG", "lag = \"lacp\"", 1)
            .replace("PORTLAG", "lag = \"none\"");
        assert!(findings(&mixed, "team-lag-mismatch").is_empty());
    }

    fn vsphere(kind: &str, lb: &str, lag: &str) -> String {
        format!(
            r#"
[design]
name = "t"
platform = "vsphere-8"
[switches.tor]
[hosts.esx1.nics.vmnic0]
speed = "10G"
switch = "tor"
[hosts.esx1.nics.vmnic1]
speed = "10G"
switch = "tor"
[hosts.esx1.vswitches.vSwitch0]
kind = "{kind}"
uplinks = ["vmnic0", "vmnic1"]
load_balancing = "{lb}"
switch_lag = "{lag}"
"#
        )
    }

    #[test]
    fn a_standard_vswitch_on_lacp_is_an_error() {
        let f = findings(&vsphere("vss", "ip-hash", "lacp"), "team-lag-mismatch");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message
                .starts_with("host `esx1`: vSwitch `vSwitch0` is on an LACP port-channel")
                && f[0].message.contains("LACP needs a distributed switch"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn vsphere_teaming_against_the_switch_side() {
        let cases = [
            ("vss", "ip-hash", "static", false),
            ("vss", "originating-port", "none", false),
            ("vds", "lacp", "lacp", false),
            ("vss", "ip-hash", "none", true),
            ("vss", "originating-port", "static", true),
            ("vds", "originating-port", "lacp", true),
            ("vds", "lacp", "none", true),
            ("vds", "ip-hash", "lacp", true),
        ];
        for (kind, lb, lag, fires) in cases {
            let f = findings(&vsphere(kind, lb, lag), "team-lag-mismatch");
            assert_eq!(f.len(), usize::from(fires), "{kind} {lb} {lag}: {f:#?}");
        }
    }
}
