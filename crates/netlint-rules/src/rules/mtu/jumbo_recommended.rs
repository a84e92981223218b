//! `jumbo-recommended`: a CSV, live-migration or storage network runs at
//! MTU 1500 on 10G or faster adapters.

use super::mtu_mismatch::{carriers, nic_carrier, team_carrier};
use super::mtu_path_too_small::{host_mtus, ping_advice};
use crate::phrases::words::host_list;
use crate::rules::fix_at::{host_table, switch_table};
use crate::{declare_rule, Context};
use netlint_model::units::{FRAME_OVERHEAD, MAX_MTU, VLAN_TAG};
use netlint_model::{
    Design, Diagnostic, Fix, FixEdit, FixValue, HostId, MtuForm, Network, NetworkId, Role, Speed,
    TomlPath, Uplink,
};

declare_rule!(
    RULE,
    id: "jumbo-recommended",
    category: "mtu",
    severity: Info,
    summary: "A CSV, live-migration or storage network runs at MTU 1500 on 10G or faster adapters: jumbo frames would help.",
    check: check,
);

const STANDARD: u32 = 1500;

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let design = cx.design;
    let topo = cx.topology();
    for (ni, network) in design.networks.iter().enumerate() {
        if !matches!(
            network.role.value,
            Role::Csv | Role::LiveMigration | Role::Storage
        ) {
            continue;
        }
        let net = NetworkId(ni);
        let mtus = host_mtus(design, topo, net);
        if mtus.is_empty() || network.mtu.value.payload > STANDARD {
            continue;
        }
        // Some hosts already at jumbo is a mismatch (`mtu-mismatch`), not advice.
        if mtus.iter().any(|m| m.payload > STANDARD) {
            continue;
        }
        // The adapters that carry it: every active one must be 10G or faster.
        let mut slowest: Option<Speed> = None;
        let mut hosts: Vec<HostId> = Vec::new();
        for h in topo.hosts_on(net) {
            for c in topo.carriers_of(h, net) {
                for n in &c.active {
                    // An adapter of unknown speed: the network cannot be
                    // told to run at 10G (`speed-unknown` names the check).
                    let s = design.host(h).nic(*n).known_speed().unwrap_or_default();
                    slowest = Some(slowest.map_or(s, |x| x.min(s)));
                }
            }
            hosts.push(h);
        }
        let Some(slowest) = slowest else { continue };
        if slowest < Speed::from_gbps(10) {
            continue;
        }
        let names: Vec<String> = hosts.iter().map(|h| design.host(*h).name.clone()).collect();
        // What jumbo frames buy depends on what the network carries.
        let gain = match network.role.value {
            Role::LiveMigration => "about 10-20 % more live-migration throughput and less CPU per byte in published tests",
            Role::Csv => "fewer packets and less CPU per byte for the redirected CSV I/O that crosses it (SMB between the nodes)",
            _ => "fewer packets and less CPU per byte for the storage traffic it carries",
        };
        let message = format!(
            "network `{}` ({}) runs at MTU {} on {slowest} or faster adapters ({}): jumbo frames (MTU 9000) would give {gain}",
            network.name,
            network.role.value,
            mtus.iter().map(|m| m.payload).max().unwrap_or(STANDARD),
            host_list(&names)
        );
        // On ESXi a vmnic runs its virtual switch's MTU: the switch and
        // the vmkernel port are what to set.
        let vsphere = hosts.iter().any(|h| design.host(*h).os.value.is_vsphere());
        let windows = hosts.iter().any(|h| design.host(*h).os.value.is_windows());
        let mut how = Vec::new();
        if windows {
            how.push("on a NIC `jumbo_packet = 9014` or `mtu = 9000`, on a vNIC `mtu = 9000`");
        }
        if vsphere {
            how.push("on vSphere `mtu = 9000` on the standard or distributed switch and on the vmkernel port; the vmnics follow their switch");
        }
        // Switches that take less than 9216 (`max_mtu`, or their model's).
        let lower: Vec<String> = design
            .switches
            .iter()
            .filter(|sw| sw.defines_vlan(network.vlan_id()))
            .filter_map(|sw| {
                let l = sw.lower_mtu_limit()?;
                Some(match l.family() {
                    Some(f) => format!(
                        "`mtu = {}` on `{}`, the most a {f} takes",
                        l.payload, sw.name
                    ),
                    None => format!("`mtu = {}` on `{}`, its `max_mtu`", l.payload, sw.name),
                })
            })
            .collect();
        let switches = if lower.is_empty() {
            "`mtu = 9216` on the switches on its path".to_string()
        } else {
            format!(
                "`mtu = 9216` on the switches on its path ({})",
                lower.join("; ")
            )
        };
        let help = format!(
            "set `mtu = 9000` on network `{}` and on every host interface that carries it ({}), and {switches}; then {}",
            network.name,
            how.join("; "),
            ping_advice(design, &hosts, 9000)
        );
        out.push(
            cx.finding(&RULE, network.element(), network.mtu.span, message)
                .with_help(help)
                .with_fix(jumbo_fix(design, network, net, &hosts)),
        );
    }
}

/// The network's `mtu` and every host interface that carries it (with
/// the adapters beneath a vNIC: its virtual switch's own `mtu` and its
/// uplinks) at `JUMBO`, one fix with every edit, each line once (a
/// profile's line serves all its hosts). It needs judgement: jumbo frames
/// must also pass every switch on the path, which the fix check verifies
/// (`mtu-path-too-small` would be new) but the user configures.
fn jumbo_fix(design: &Design, network: &Network, net: NetworkId, hosts: &[HostId]) -> Option<Fix> {
    const JUMBO: u32 = 9000;
    let mut edits: Vec<FixEdit> = Vec::new();
    let path = TomlPath::new()
        .then("networks")
        .then(network.name.as_str())
        .then("mtu");
    let mtu = &network.mtu;
    edits.push(if mtu.span == network.span || mtu.span.is_empty() {
        FixEdit::insert(path, JUMBO, network.span)
    } else {
        let old = design
            .written_at(mtu.span)
            .cloned()
            .unwrap_or(FixValue::from(mtu.value.payload));
        FixEdit::replace(path, old, JUMBO, mtu.span)
    });
    let mut add = |more: Vec<FixEdit>| {
        for e in more {
            if !edits.iter().any(|x| x.path == e.path) {
                edits.push(e);
            }
        }
    };
    for h in hosts {
        let host = design.host(*h);
        for c in carriers(host, net) {
            if c.mtu.payload < JUMBO {
                add(c.fix_edits(JUMBO));
            }
            let Some(vs) = c.vswitch() else { continue };
            if let Some(m) = vs.mtu.as_ref().filter(|m| m.value.payload < JUMBO) {
                add(vec![FixEdit::replace(
                    host_table(host, m.span)
                        .then("vswitches")
                        .then(vs.name.as_str())
                        .then("mtu"),
                    m.value.payload,
                    JUMBO,
                    m.span,
                )]);
            }
            for u in &vs.uplinks {
                let beneath = match u.value {
                    Uplink::Nic(n) => Some(nic_carrier(host, host.nic(n))),
                    Uplink::Team(t) => team_carrier(host, &host.teams[t.0]),
                };
                if let Some(b) = beneath.filter(|b| b.mtu.payload < JUMBO) {
                    add(b.fix_edits(JUMBO));
                }
            }
        }
    }
    // The switches that carry its VLAN, up to 9216 (or their largest) in
    // the form written; one that cannot take the frames leaves no fix.
    for sw in design
        .switches
        .iter()
        .filter(|sw| sw.defines_vlan(network.vlan_id()))
    {
        let mtu = &sw.mtu;
        if mtu.value.payload >= JUMBO {
            continue;
        }
        let most = sw.max_mtu();
        if most < JUMBO {
            return None;
        }
        let table = switch_table(sw);
        let frame = JUMBO + FRAME_OVERHEAD + VLAN_TAG;
        add(vec![match mtu.value.form {
            MtuForm::FrameSize(f) => {
                FixEdit::replace(table.then("frame_size"), f, frame.max(f), mtu.span)
            }
            MtuForm::Mtu => FixEdit::replace(
                table.then("mtu"),
                mtu.value.payload,
                MAX_MTU.min(most),
                mtu.span,
            ),
            MtuForm::Default | MtuForm::JumboPacket(_) => {
                FixEdit::insert(table.then("mtu"), MAX_MTU.min(most), sw.span)
            }
        }]);
    }
    Some(Fix::unsafe_(
        format!(
            "set MTU {JUMBO} on network `{}`, every host interface that carries it and the switches that carry its VLAN",
            network.name
        ),
        edits,
    ))
}

#[cfg(test)]
mod tests {
    use crate::testing::findings;

    const LM: &str = r#"
[design]
name = "t"
[networks.lm]
role = "ROLE"
NETMTU
[switches.sw]
mtu = 9216
[hosts.hv1.nics.A]
speed = "SPEED"
switch = "sw"
NICMTU
networks = ["lm"]
[hosts.hv2.nics.A]
speed = "SPEED"
switch = "sw"
NICMTU
networks = ["lm"]
"#;

    fn run(role: &str, speed: &str, net: &str, nic: &str) -> Vec<netlint_model::Diagnostic> {
        findings(
            &LM.replace("ROLE", role)
                .replace("SPEED", speed)
                .replace("NETMTU", net)
                .replace("NICMTU", nic),
            &super::RULE,
        )
    }

    #[test]
    fn live_migration_at_1500_on_10g_is_advice() {
        let f = run("live-migration", "10G", "", "");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].element(), "networks.lm");
        assert_eq!(f[0].severity, netlint_model::Severity::Info);
        assert!(f[0].message.starts_with("network `lm` (live-migration) runs at MTU 1500 on 10G or faster adapters (hosts `hv1`, `hv2`)"), "{}", f[0].message);
        assert!(f[0]
            .help
            .as_deref()
            .unwrap()
            .contains("`ping -f -l 8972 <peer address>`"));
    }

    #[test]
    fn the_switch_advice_stays_within_each_switch_model() {
        let src = LM
            .replace("ROLE", "live-migration")
            .replace("SPEED", "10G")
            .replace("NETMTU", "")
            .replace("NICMTU", "")
            .replace(
                "mtu = 9216",
                "model = \"Cisco Catalyst 2960-X\"\nmtu = 1500",
            );
        let f = findings(&src, "jumbo-recommended");
        assert_eq!(f.len(), 1, "{f:#?}");
        let help = f[0].help.as_deref().unwrap();
        assert!(
            help.contains("`mtu = 9216` on the switches on its path (`mtu = 9198` on `sw`, the most a Cisco Catalyst 2960-X takes)"),
            "{help}"
        );
        // Without a known model or `max_mtu`, 9216 alone.
        let f = run("live-migration", "10G", "", "");
        assert!(f[0]
            .help
            .as_deref()
            .unwrap()
            .contains("`mtu = 9216` on the switches on its path; then"));
    }

    /// The benefit named follows the role: live-migration throughput for
    /// a live-migration network only (issue 34, minor).
    #[test]
    fn the_gain_named_follows_what_the_network_carries() {
        let lm = run("live-migration", "10G", "", "");
        assert!(
            lm[0].message.contains("live-migration throughput"),
            "{}",
            lm[0].message
        );
        let csv = run("csv", "10G", "", "");
        assert_eq!(csv.len(), 1, "{csv:#?}");
        assert!(
            !csv[0].message.contains("live-migration"),
            "{}",
            csv[0].message
        );
        assert!(
            csv[0].message.contains("redirected CSV I/O"),
            "{}",
            csv[0].message
        );
    }

    #[test]
    fn one_gig_vm_or_jumbo_networks_are_silent() {
        assert!(run("live-migration", "1G", "", "").is_empty());
        assert!(run("vm", "10G", "", "").is_empty());
        assert!(run("csv", "10G", "mtu = 9000", "mtu = 9000").is_empty());
        // Some hosts at jumbo already: that is mtu-mismatch's business.
        assert!(run("csv", "10G", "", "jumbo_packet = 9014").is_empty());
    }

    #[test]
    fn on_vsphere_the_help_sets_the_virtual_switch_not_the_vmnics() {
        let src = r#"
[design]
name = "t"
platform = "vsphere-8"
[networks.vmotion]
role = "live-migration"
vlan = 30
[switches.sw]
[profiles.esx.nics.vmnic0]
speed = "25G"
switch = "sw"
[profiles.esx.vswitches.vds]
kind = "vds"
uplinks = ["vmnic0"]
[profiles.esx.vswitches.vds.vnics.vmk1]
network = "vmotion"
[hosts.esx1]
profile = "esx"
[hosts.esx2]
profile = "esx"
"#;
        let f = findings(src, &super::RULE);
        assert_eq!(f.len(), 1, "{f:#?}");
        let help = f[0].help.as_deref().unwrap();
        assert!(
            help.contains("on vSphere `mtu = 9000` on the standard or distributed switch and on the vmkernel port"),
            "{help}"
        );
        assert!(!help.contains("jumbo_packet"), "{help}");
        assert!(help.contains("vmkping -d -s 8972"), "{help}");
    }
}
