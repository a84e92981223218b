//! Switch ports, native VLANs and `switch_lag` on a virtual switch as the
//! loader reads them: what a design means, and every mistake reported at
//! its line, all at once.

use netlint_model::{load, Design, Diagnostic, End, HostPortView, PortDrop, PortVlan, SourceFile};

fn design(text: &str) -> Design {
    let loaded = load(&SourceFile::new("t.toml", text));
    assert!(loaded.diagnostics.is_empty(), "{:#?}", loaded.diagnostics);
    loaded.design.expect("the design loads")
}

/// The diagnostics, each as (line, message).
fn errors(text: &str) -> Vec<(usize, String)> {
    let file = SourceFile::new("t.toml", text);
    let loaded = load(&file);
    assert!(loaded.design.is_none(), "the design must not load");
    loaded
        .diagnostics
        .iter()
        .map(|d: &Diagnostic| {
            let at = d.primary.as_ref().unwrap().span.start;
            (file.line_col(at).line, d.message.clone())
        })
        .collect()
}

const BASE: &str = r#"[design]
name = "t"
[switches.tor]
host_ports = { edge = true, native_vlan = 10 }
[switches.tor.ports."Ethernet1/5"]
vlans = [10, 711]
native_vlan = 10
edge = false
lag = "lacp"
[switches.tor.ports."Ethernet1/6"]
access_vlan = 30
[switches.core]
[switches.core.ports."Ethernet1/1"]
native_vlan = 99
bpdu_filter = true
[[links]]
a = "core"
b = "tor"
speed = "10G"
port_a = "Ethernet1/1"
native_vlan_b = 98
[hosts.hv1.nics.A]
speed = "10G"
switch = "tor"
switch_port = "Ethernet1/5"
[hosts.hv1.nics.B]
speed = "10G"
switch = "tor"
port = "Ethernet1/6"
[hosts.hv1.nics.C]
speed = "10G"
switch = "tor"
port = "te1/0/9"
"#;

#[test]
fn ports_native_vlans_and_their_settings_load() {
    let d = design(BASE);
    let tor = &d.switches[0];
    assert_eq!(tor.ports.len(), 2);
    assert_eq!(tor.host_ports.native_vlan.as_ref().unwrap().value, 10);
    let h = &d.hosts[0];
    // `switch_port`, and `port` naming a configured port, are that port;
    // `port` naming no configured port stays free text.
    assert_eq!(h.nics[0].switch_port.as_ref().unwrap().value, 0);
    assert_eq!(h.nics[1].switch_port.as_ref().unwrap().value, 1);
    assert!(h.nics[2].switch_port.is_none());
    let a = HostPortView::of(&d, &h.nics[0]).unwrap();
    assert!(!a.edge().unwrap().value, "the port's own edge wins");
    assert_eq!(a.carries(Some(711)), Ok(PortVlan::Tagged(711)));
    assert_eq!(a.carries(Some(712)), Err(PortDrop::NotAllowed));
    assert_eq!(a.carries(Some(10)), Err(PortDrop::NativeTagged));
    assert_eq!(a.carries(None), Ok(PortVlan::Untagged(Some(10))));
    let b = HostPortView::of(&d, &h.nics[1]).unwrap();
    assert_eq!(b.carries(None), Ok(PortVlan::Untagged(Some(30))));
    assert_eq!(b.carries(Some(711)), Err(PortDrop::Access));
    // A NIC on the switch's host ports takes host_ports' native VLAN.
    let c = HostPortView::of(&d, &h.nics[2]).unwrap();
    assert!(c.port.is_none());
    assert_eq!(c.carries(None), Ok(PortVlan::Untagged(Some(10))));
    assert!(c.edge().unwrap().value);
    // The link: the port's native VLAN at `a`, the link's at `b`.
    let l = &d.links[0];
    assert_eq!(l.native_at(&d, End::A, 0).vlan, 99);
    assert_eq!(l.native_at(&d, End::B, 0).vlan, 98);
    assert!(
        l.port_at(&d, End::A, 0)
            .unwrap()
            .bpdu_filter
            .as_ref()
            .unwrap()
            .value
    );
    let vlans: Vec<u16> = d.port_vlans().iter().collect();
    assert_eq!(vlans, vec![10, 30, 99]);
}

#[test]
fn a_v1_link_has_vlan_1_at_both_ends() {
    let d = design(
        "[design]\nname = \"t\"\n[switches.a]\n[switches.b]\n[[links]]\na = \"a\"\nb = \"b\"\nspeed = \"10G\"\n",
    );
    let l = &d.links[0];
    for end in [End::A, End::B] {
        let n = l.native_at(&d, end, 0);
        assert_eq!((n.vlan, n.span), (1, None));
    }
}

#[test]
fn every_port_mistake_is_reported_at_its_line_at_once() {
    let text = r#"[design]
name = "t"
[switches.tor]
[switches.tor.ports."Ethernet1/5"]
access_vlan = 30
vlans = [30]
[switches.tor.ports."Ethernet1/6"]
vlans = [10]
native_vlan = 20
[switches.tor.ports."Ethernet1/7"]
native_vlan = 5
[switches.core]
[[links]]
a = "core"
b = "tor"
speed = "10G"
native_vlan = 99
native_vlan_a = 98
port_b = "Ethernet1/7"
[[links]]
name = "second"
a = "core"
b = "tor"
speed = "10G"
port_b = "Ethernet1/8"
[hosts.hv1.nics.A]
speed = "10G"
switch = "tor"
switch_port = "Ethernet1/7"
[hosts.hv1.nics.B]
speed = "10G"
switch_port = "Ethernet1/6"
[hosts.hv1.nics.C]
speed = "10G"
switch = "tor"
switch_port = "Ethernet1/6"
port = "Ethernet1/5"
"#;
    let e = errors(text);
    let has = |line: usize, start: &str| {
        assert!(
            e.iter().any(|(l, m)| *l == line && m.starts_with(start)),
            "no `{start}` at line {line}: {e:#?}"
        )
    };
    has(
        6,
        "port `Ethernet1/5` of switch `tor` sets both `access_vlan` and `vlans`",
    );
    has(
        9,
        "native VLAN 20 of port `Ethernet1/6` of switch `tor` is not among its allowed `vlans`",
    );
    has(
        18,
        "link #1 sets both `native_vlan` (both ends) and `native_vlan_a`",
    );
    has(
        17,
        "link #1 states the native VLAN of port `Ethernet1/7` of switch `tor` again",
    );
    has(25, "`port_b` names port `Ethernet1/8`, which switch `tor` does not configure, did you mean `Ethernet1/5`?");
    has(29, "port `Ethernet1/7` of switch `tor` is cabled to NIC `A` of host `hv1` and already to link `core--tor`");
    has(
        32,
        "NIC `B` names `switch_port` but is not cabled to a switch",
    );
    has(36, "NIC `C` names two switch ports");
}

#[test]
fn a_port_shared_by_the_hosts_of_a_profile_is_reported() {
    let text = r#"[design]
name = "t"
[switches.tor]
[switches.tor.ports."Ethernet1/5"]
[profiles.p.nics.A]
speed = "10G"
switch = "tor"
switch_port = "Ethernet1/5"
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
"#;
    let e = errors(text);
    assert_eq!(e.len(), 1, "{e:#?}");
    assert_eq!(e[0].0, 8);
    assert!(
        e[0].1
            .contains("is cabled to NIC `A` of host `hv2` and already to NIC `A` of host `hv1`"),
        "{e:#?}"
    );
    // Each host naming its own port: fine.
    let own = text
        .replace(
            "[switches.tor.ports.\"Ethernet1/5\"]\n",
            "[switches.tor.ports.\"Ethernet1/5\"]\n[switches.tor.ports.\"Ethernet1/6\"]\n",
        )
        .replace(
            "[hosts.hv2]\nprofile = \"p\"\n",
            "[hosts.hv2]\nprofile = \"p\"\nnics.A = { switch_port = \"Ethernet1/6\" }\n",
        );
    design(&own);
}

#[test]
fn switch_lag_goes_on_the_team_of_a_virtual_switch() {
    let text = r#"[design]
name = "t"
[switches.tor]
[hosts.hv1.nics.A]
speed = "10G"
switch = "tor"
[hosts.hv1.teams.T]
members = ["A"]
[hosts.hv1.vswitches.V]
uplinks = ["T"]
switch_lag = "lacp"
"#;
    let e = errors(text);
    assert_eq!(e.len(), 1, "{e:#?}");
    assert_eq!(e[0].0, 11);
    assert_eq!(
        e[0].1,
        "virtual switch `V` sets `switch_lag`, but its uplink is team `T`"
    );
    let ok = text
        .replace(
            "[hosts.hv1.nics.A]",
            "[hosts.hv1.nics.B]\nspeed = \"10G\"\nswitch = \"tor\"\n[hosts.hv1.nics.A]",
        )
        .replace("uplinks = [\"T\"]", "uplinks = [\"A\", \"B\"]")
        .replace("[hosts.hv1.teams.T]\nmembers = [\"A\"]\n", "");
    let d = design(&ok);
    assert_eq!(
        d.hosts[0].vswitches[0]
            .switch_lag
            .as_ref()
            .unwrap()
            .value
            .as_str(),
        "lacp"
    );
}

const MTU_ENDS: &str = r#"[design]
name = "t"
[switches.acc1]
mtu = 9216
max_mtu = 9216
[switches.tor-a]
mtu = 9000
max_mtu = 9000
mlag = "m"
[switches.tor-b]
mtu = 9000
mlag = "m"
[[links]]
name = "up"
a = "acc1"
b = ["tor-a", "tor-b"]
members = 2
ENDS
"#;

/// `mtu_a` / `mtu_b` (issue 31 item 7): a number covers every switch of
/// its end, a table each switch it names; the link carries the smallest.
#[test]
fn each_end_and_each_peer_keeps_its_own_mtu() {
    let d = design(&MTU_ENDS.replace(
        "ENDS",
        "mtu_a = 9216\nmtu_b = { \"tor-a\" = 9000, \"tor-b\" = 1500 }",
    ));
    let l = &d.links[0];
    assert_eq!(l.mtu.as_ref().unwrap().value.payload, 1500);
    assert_eq!(l.ends.mtus.len(), 3);
    let of = |name: &str| {
        let id = d.switches.iter().position(|s| s.name == name).unwrap();
        l.mtu_of(netlint_model::SwitchId(id))
            .map(|m| m.value.payload)
    };
    assert_eq!(
        (of("acc1"), of("tor-a"), of("tor-b")),
        (Some(9216), Some(9000), Some(1500))
    );
}

/// Every mistake at its line at once: `mtu` with `mtu_b`, a table key that
/// is no switch of its end, a value above that switch's `max_mtu`.
#[test]
fn per_end_mtu_mistakes_are_reported_at_their_lines() {
    let e = errors(&MTU_ENDS.replace(
        "ENDS",
        "mtu = 9000\nmtu_b = { \"tor-a\" = 9216, \"acc1\" = 1500 }",
    ));
    let lines: Vec<usize> = e.iter().map(|(l, _)| *l).collect();
    assert!(
        e.iter()
            .any(|(_, m)| m == "link #1 sets both `mtu` (both ends) and `mtu_b`"),
        "{e:#?}"
    );
    assert!(
        e.iter().any(|(_, m)| m.starts_with(
            "link #1 sets `mtu_b` for `acc1`, which is not a switch of its `b` end (tor-a, tor-b)"
        )),
        "{e:#?}"
    );
    assert!(
        e.iter()
            .any(|(_, m)| m.contains("sets `mtu = 9216`, more than the switch takes")),
        "{e:#?}"
    );
    assert!(lines.iter().all(|l| *l == 19), "{e:#?}");
}
