//! Fixtures imported into a design: the TOML is snapshotted, loads
//! without a diagnostic, and carries the facts a network engineer would
//! write by hand (roots, MLAG domains, LAGs, allowed VLANs).

use std::path::Path;

use netlint_import::design::{to_design, Note, Src};
use netlint_import::{parse, Document};
use netlint_model::{load, SourceFile};

include!("support/loads.rs");

fn import(files: &[&str]) -> (String, Vec<Note>) {
    let imported = import_fixtures(files);
    (imported.toml, imported.notes)
}

/// The source map names, for each written value, the config line its
/// comment names: `vlan_priority = { "1,10,20,30" = 8192 }` is tor1's line
/// 40 (`spanning-tree vlan 1,10,20,30 priority 8192`), a default stays a
/// default, and every line named is a line of the file.
#[test]
fn the_source_map_points_each_value_at_its_config_line() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let files = [
        "nxos-tor1.cfg",
        "nxos-tor2.cfg",
        "nxos-tor1.lldp.txt",
        "cabling.csv",
    ];
    let texts: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(dir.join(f)).unwrap())
        .collect();
    let docs: Vec<Document> = files
        .iter()
        .zip(&texts)
        .map(|(f, t)| parse(f, t, None).unwrap())
        .collect();
    let imported = to_design(&docs, "imported");
    let toml = &imported.toml;
    let config_line = |src: &Src| match src {
        Src::Line(at) | Src::Inferred { at, .. } => {
            let i = files.iter().position(|f| *f == at.file).unwrap();
            let r = netlint_import::source::line_span(&texts[i], at.line)
                .unwrap_or_else(|| panic!("{at} is past the end"));
            texts[i][r].to_string()
        }
        Src::Default { source, .. } => format!("default: {source}"),
    };
    let at_from = |from: usize, needle: &str| {
        let start = from
            + toml[from..]
                .find(needle)
                .unwrap_or_else(|| panic!("{needle}\n{toml}"));
        let m = imported
            .map
            .lookup(start..start + needle.len())
            .unwrap_or_else(|| panic!("{needle} is not mapped"));
        assert_eq!(
            &toml[m.span.clone()],
            needle,
            "the mapped range is `key = value`"
        );
        m.from.iter().map(config_line).collect::<Vec<_>>()
    };
    let at = |needle: &str| at_from(0, needle);
    // The per-VLAN line sets its VLANs; the switch stays at the default.
    assert_eq!(
        at("vlan_priority = { \"1,10,20,30\" = 8192 }"),
        ["spanning-tree vlan 1,10,20,30 priority 8192"]
    );
    assert!(at("priority = 32768")[0].starts_with("default: IEEE 802.1D-2004"));
    assert_eq!(at("mlag = \"vpc-10\""), ["vpc domain 10"]);
    assert!(at("mode = \"rapid-pvst\"")[0].starts_with("default: https://developer.cisco.com"));
    // Both ends of the peer-link state its allowed VLANs.
    let vlans = at_from(toml.find("[[links]]").unwrap(), "vlans = [10, 20, 30]");
    assert_eq!(vlans.len(), 2, "{vlans:?}");
    assert!(
        vlans
            .iter()
            .all(|l| l.contains("switchport trunk allowed vlan")),
        "{vlans:?}"
    );
    // A host port's allowed VLANs: tor2's port-channel101 lacks VLAN 30.
    assert_eq!(
        at_from(
            toml.find("[switches.tor2.ports").unwrap(),
            "vlans = [10, 20]"
        ),
        ["switchport trunk allowed vlan 10,20"]
    );
    // A table header is its switch's hostname line.
    let start = toml.find("[switches.tor2]").unwrap();
    let m = imported.map.lookup(start..start + 1).unwrap();
    assert_eq!(config_line(&m.from[0]), "switchname tor2");
    // Every mapped range is `key = value` or a header, every line exists.
    for m in imported.map.entries() {
        let text = &toml[m.span.clone()];
        assert!(text.contains(" = ") || text.starts_with('['), "{text}");
        assert!(!text.contains('#') && !text.contains('\n'), "{text}");
        for s in &m.from {
            config_line(s);
        }
    }
}

fn notes_text(notes: &[Note]) -> String {
    notes.iter().map(|n| format!("{n}\n")).collect()
}

#[test]
fn nxos_vpc_pair_with_lldp_and_cabling() {
    let (toml, notes) = import(&[
        "nxos-tor1.cfg",
        "nxos-tor2.cfg",
        "nxos-tor1.lldp.txt",
        "cabling.csv",
    ]);
    // The peer link is one 2-member LACP peer-link between the vPC peers.
    assert!(
        toml.contains("name = \"tor1:Port-Channel10--tor2:Port-Channel10\""),
        "{toml}"
    );
    assert!(toml.contains("kind = \"peer-link\""));
    assert!(toml.contains("mlag = \"vpc-10\""));
    insta::assert_snapshot!("nxos.toml", toml);
    insta::assert_snapshot!("nxos.notes", notes_text(&notes));
}

/// A link whose speed no end states and no port name tells (NX-OS
/// `Ethernet1/49` without a `speed` line) is written without `speed`,
/// which format v2 reads as unknown, and the note says so: the link is
/// not dropped, so the spanning tree and the paths keep it.
#[test]
fn a_link_of_unknown_speed_is_written_without_one() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let docs: Vec<Document> = ["nxos-tor1.cfg", "nxos-tor2.cfg", "nxos-tor1.lldp.txt"]
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(dir.join(f)).unwrap();
            let text: String = text
                .lines()
                .filter(|l| !l.trim_start().starts_with("speed "))
                .map(|l| format!("{l}\n"))
                .collect();
            parse(f, &text, None).unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    let imported = to_design(&docs, "imported");
    let loaded = load(&SourceFile::new("imported.toml", imported.toml.clone()));
    assert!(loaded.diagnostics.is_empty(), "{}", imported.toml);
    let design = loaded.design.expect("a design");
    let peer_link = design
        .links
        .iter()
        .find(|l| l.name == "tor1:Port-Channel10--tor2:Port-Channel10")
        .unwrap_or_else(|| panic!("the peer-link is written:\n{}", imported.toml));
    assert!(peer_link.speed.is_none());
    assert!(
        imported.toml.contains("# speed: stated by neither end"),
        "{}",
        imported.toml
    );
    let notes = notes_text(&imported.notes);
    assert!(
        notes.contains("link tor1:Port-Channel10--tor2:Port-Channel10 is written without `speed`"),
        "{notes}"
    );
}

/// Imports the NX-OS pair with each file's text changed by `edit`.
fn import_nxos_edited(edit: impl Fn(&str, String) -> String) -> (String, netlint_model::Design) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let docs: Vec<Document> = ["nxos-tor1.cfg", "nxos-tor2.cfg", "nxos-tor1.lldp.txt"]
        .iter()
        .map(|f| {
            let text = edit(f, std::fs::read_to_string(dir.join(f)).unwrap());
            parse(f, &text, None).unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    let imported = to_design(&docs, "imported");
    let loaded = load(&SourceFile::new("imported.toml", imported.toml.clone()));
    assert!(loaded.diagnostics.is_empty(), "{}", imported.toml);
    (imported.toml, loaded.design.expect("a design"))
}

/// A native VLAN on one end of the peer-link only (tor1's port-channel10
/// runs VLAN 99 untagged, tor2's VLAN 1) is written per end, from its
/// line, so `netlint check` sees the mismatch the switches have; the same
/// native VLAN on both ends is one `native_vlan`.
#[test]
fn native_vlans_of_a_link_are_written_per_end() {
    let add = |f: &str, text: String, file: &str| {
        if f == file {
            text.replace(
                "  description vPC peer-link to tor2\n",
                "  description vPC peer-link to tor2\n  switchport trunk native vlan 99\n",
            )
        } else {
            text
        }
    };
    let (toml, design) = import_nxos_edited(|f, t| add(f, t, "nxos-tor1.cfg"));
    let pl = design
        .links
        .iter()
        .find(|l| l.name == "tor1:Port-Channel10--tor2:Port-Channel10")
        .expect("the peer-link");
    let line = |key: &str| {
        toml.lines()
            .find(|l| l.starts_with(key))
            .map(str::to_string)
    };
    let a = line("native_vlan_a = 99").unwrap_or_else(|| panic!("{toml}"));
    assert!(a.contains("nxos-tor1.cfg:78"), "{a}");
    // tor2's end is at the vendor default VLAN 1, the format's default
    // too: a comment naming the default, not a value.
    assert!(line("native_vlan_b").is_none(), "{toml}");
    assert!(
        line("# native_vlan_b: 1 (default: IEEE 802.1Q").is_some(),
        "{toml}"
    );
    assert_ne!(pl.a.value, pl.b[0].value);
    // Both ends alike: one key.
    let (toml, _) = import_nxos_edited(|f, t| {
        let t = add(f, t, "nxos-tor1.cfg");
        if f == "nxos-tor2.cfg" {
            t.replace(
                "interface port-channel10\n",
                "interface port-channel10\n  switchport trunk native vlan 99\n",
            )
        } else {
            t
        }
    });
    assert!(line_in(&toml, "native_vlan = 99"), "{toml}");
    assert!(!toml.contains("native_vlan_a"), "{toml}");
}

fn line_in(toml: &str, start: &str) -> bool {
    toml.lines().any(|l| l.starts_with(start))
}

#[test]
fn eos_mlag_pair_with_mstp() {
    let (toml, notes) = import(&["eos-leaf1.cfg", "eos-leaf2.cfg", "eos-leaf1.lldp.txt"]);
    assert!(toml.contains("region = \"AZL-SITE1\""));
    insta::assert_snapshot!("eos.toml", toml);
    insta::assert_snapshot!("eos.notes", notes_text(&notes));
}

#[test]
fn os10_vlt_pair() {
    let (toml, notes) = import(&["os10-vlt1.cfg", "os10-vlt2.cfg", "os10-vlt1.lldp.txt"]);
    insta::assert_snapshot!("os10.toml", toml);
    insta::assert_snapshot!("os10.notes", notes_text(&notes));
}

#[test]
fn ios_access_switch() {
    let (toml, notes) = import(&["ios-access1.cfg", "ios-access1.lldp.txt"]);
    insta::assert_snapshot!("ios.toml", toml);
    insta::assert_snapshot!("ios.notes", notes_text(&notes));
}

/// Imports inline texts (name, text) and loads the design, which must have
/// no diagnostic.
fn import_texts(files: &[(&str, &str)]) -> (String, netlint_model::Design, Vec<Note>) {
    let docs: Vec<Document> = files
        .iter()
        .map(|(f, t)| parse(f, t, None).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let imported = to_design(&docs, "imported");
    assert_loads_cleanly(&imported.toml);
    let loaded = load(&SourceFile::new("imported.toml", imported.toml.clone()));
    (
        imported.toml,
        loaded.design.expect("a design"),
        imported.notes,
    )
}

/// A minimal NX-OS config: hostname and the given interface sections
/// (syntax as in the Cisco Nexus 9000 interfaces configuration guide and
/// the fixtures; `feature` and `!Command:` lines for detection).
fn nxos(host: &str, body: &str) -> String {
    format!("!Command: show running-config\nfeature lacp\nfeature vpc\nhostname {host}\nvlan 10,20,30\n{body}")
}

/// `no switchport` on both ends of a cable: a routed link, written as
/// `kind = "routed"` with no VLANs, native VLAN or cost, its kind from
/// the two `no switchport` lines.
#[test]
fn routed_ports_make_a_routed_link() {
    let routed = "interface Ethernet1/1\n  no switchport\n  ip address 192.0.2.1/31\n";
    let core = nxos("core1", routed);
    let tor = nxos("tor1", &routed.replace(".1/31", ".0/31"));
    let (toml, design, notes) = import_texts(&[
        ("core1.cfg", &core),
        ("tor1.cfg", &tor),
        ("cabling.csv", "core1,Eth1/1,tor1,Eth1/1\n"),
    ]);
    assert!(
        notes.iter().all(|n| !matches!(n, Note::RoutedLink { .. })),
        "{notes:?}"
    );
    let line = toml
        .lines()
        .find(|l| l.starts_with("kind = \"routed\""))
        .unwrap_or_else(|| panic!("{toml}"));
    assert!(line.ends_with("core1.cfg:7, tor1.cfg:7"), "{line}");
    let link = &design.links[0];
    assert_eq!(
        link.kind.value,
        netlint_model::design::LinkKind::Routed,
        "{toml}"
    );
    let links = &toml[toml.find("[[links]]").unwrap()..];
    for key in ["vlans", "native_vlan", "stp_cost", "mtu"] {
        assert!(!links.contains(key), "a routed link has no {key}: {links}");
    }
}

/// A device that appears only in the cabling, on ports named like switch
/// interfaces (a firewall on `vpc 30` of both peers of a vPC pair, a
/// border router on one port), is written as an unmanaged device
/// (`managed = false`), its cables to one vPC as one multi-chassis LAG.
#[test]
fn devices_only_in_the_cabling_are_unmanaged() {
    let body = |peer: &str| {
        format!(
            "vpc domain 10\n  peer-switch\ninterface port-channel10\n  switchport\n  switchport mode trunk\n  vpc peer-link\n\
             interface port-channel30\n  switchport\n  switchport mode trunk\n  switchport trunk allowed vlan 10\n  vpc 30\n\
             interface Ethernet1/30\n  switchport\n  switchport mode trunk\n  switchport trunk allowed vlan 10\n  channel-group 30 mode active\n\
             interface Ethernet1/31\n  no switchport\n\
             interface Ethernet1/49\n  speed 100000\n  switchport\n  switchport mode trunk\n  channel-group 10 mode active\n\
             ! peer {peer}\n"
        )
    };
    let (t1, t2) = (nxos("tor1", &body("tor2")), nxos("tor2", &body("tor1")));
    let cabling = "device,port,peer_device,peer_port\n\
                   tor1,Eth1/49,tor2,Eth1/49\n\
                   fw1,ethernet1/1,tor1,Eth1/30\n\
                   fw1,ethernet1/2,tor2,Eth1/30\n\
                   tor1,Eth1/31,border1,Gi0/0/0\n\
                   tor2,Eth1/31,hv1,NIC1\n\
                   hv2,Ethernet 2,tor1,Eth1/40\n";
    let (toml, design, notes) = import_texts(&[
        ("tor1.cfg", &t1),
        ("tor2.cfg", &t2),
        ("cabling.csv", cabling),
    ]);
    for (name, line) in [
        ("fw1", "cabling.csv:3, cabling.csv:4"),
        ("border1", "cabling.csv:5"),
    ] {
        let sw = design
            .switches
            .iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("{name}: {toml}"));
        assert_eq!(sw.managed.as_ref().map(|m| m.value), Some(false), "{name}");
        let header = format!("[switches.{name}]\nmanaged = false");
        let at = toml
            .find(&header)
            .unwrap_or_else(|| panic!("{header}\n{toml}"));
        let managed_line = toml[at..].lines().nth(1).unwrap();
        assert!(managed_line.ends_with(line), "{managed_line}");
    }
    let fw = toml.find("a = \"fw1\"").unwrap_or_else(|| panic!("{toml}"));
    let link = &toml[fw..toml[fw..].find("\n\n").map_or(toml.len(), |e| fw + e)];
    assert!(link.contains("b = [\"tor1\", \"tor2\"]"), "{link}");
    assert!(link.contains("members = 2"), "{link}");
    assert!(link.contains("lag = \"lacp\""), "{link}");
    let border = toml.find("a = \"border1\"").unwrap();
    assert!(
        toml[border..]
            .lines()
            .any(|l| l.starts_with("kind = \"routed\"")),
        "tor1's Ethernet1/31 is routed: {toml}"
    );
    // The host stays a note: hosts are not switches.
    assert!(
        notes
            .iter()
            .any(|n| matches!(n, Note::NotImportedPeer { peer, .. } if peer == "hv1 NIC1")),
        "{notes:?}"
    );
    // So does a host whose NIC has Windows' default name (`Ethernet 2`:
    // an interface family in form): no phantom switch `hv2` (issue 32
    // item 5).
    assert!(!design.switches.iter().any(|s| s.name == "hv2"), "{toml}");
    assert!(
        notes
            .iter()
            .any(|n| matches!(n, Note::NotImportedPeer { peer, .. } if peer == "hv2 Ethernet 2")),
        "{notes:?}"
    );
}

/// A port-channel between two vPC domains (back-to-back vPC: dist1/dist2
/// `vpc 20` to tor1/tor2 `vpc 20`, each switch with one cable to each
/// switch of the other pair) is one double-sided multi-chassis LAG: `a`
/// and `b` both list a domain's switches, four members.
#[test]
fn a_vpc_between_two_vpc_domains_is_double_sided() {
    let pair = |host: &str, domain: u32| {
        nxos(
            host,
            &format!(
                "vpc domain {domain}\n  peer-switch\ninterface port-channel10\n  switchport\n  switchport mode trunk\n  vpc peer-link\n\
                 interface port-channel20\n  switchport\n  switchport mode trunk\n  switchport trunk allowed vlan 10,20\n  vpc 20\n\
                 interface Ethernet1/1\n  speed 100000\n  switchport\n  switchport mode trunk\n  switchport trunk allowed vlan 10,20\n  channel-group 20 mode active\n\
                 interface Ethernet1/2\n  speed 100000\n  switchport\n  switchport mode trunk\n  switchport trunk allowed vlan 10,20\n  channel-group 20 mode active\n\
                 interface Ethernet1/49\n  speed 100000\n  switchport\n  switchport mode trunk\n  channel-group 10 mode active\n"
            ),
        )
    };
    let (d1, d2, t1, t2) = (
        pair("dist1", 1),
        pair("dist2", 1),
        pair("tor1", 2),
        pair("tor2", 2),
    );
    let cabling = "device,port,peer_device,peer_port\n\
                   dist1,Eth1/49,dist2,Eth1/49\n\
                   tor1,Eth1/49,tor2,Eth1/49\n\
                   dist1,Eth1/1,tor1,Eth1/1\n\
                   dist1,Eth1/2,tor2,Eth1/1\n\
                   dist2,Eth1/1,tor1,Eth1/2\n\
                   dist2,Eth1/2,tor2,Eth1/2\n";
    let (toml, design, notes) = import_texts(&[
        ("dist1.cfg", &d1),
        ("dist2.cfg", &d2),
        ("tor1.cfg", &t1),
        ("tor2.cfg", &t2),
        ("cabling.csv", cabling),
    ]);
    assert!(
        notes
            .iter()
            .all(|n| !matches!(n, Note::UnsupportedShape { .. })),
        "{notes:?}"
    );
    assert!(
        toml.contains("a = [\"dist1\", \"dist2\"]\nb = [\"tor1\", \"tor2\"]\n"),
        "{toml}"
    );
    let lag = design
        .links
        .iter()
        .find(|l| !l.a_more.is_empty())
        .unwrap_or_else(|| panic!("{toml}"));
    assert_eq!(lag.members.value, 4);
    assert_eq!(lag.b.len(), 2);
    assert!(toml.contains("vlans = [10, 20]"), "{toml}");
}

/// NX-OS ETS as configured, read through the chain the switch applies:
/// `class-map type qos` (`match cos`) -> `policy-map type qos` (`set
/// qos-group`) applied on the ports -> `policy-map type queuing` applied by
/// `system qos` (`bandwidth [remaining] percent` of queue `c-out-8q-qN`,
/// which serves qos-group N). The QoS sections are the Azure Local
/// reference ToR QoS policy for Cisco Nexus (github.com/iancaragol/
/// AzureLocal-Supportability, TSG/Networking/Top-Of-Rack-Switch/
/// Reference-TOR-QOS-Policy-Configuration.md, after the Cisco Nexus 9000
/// NX-OS QoS configuration guide, "Configuring Queuing and Scheduling"):
/// storage CoS 3 gets 50 %, cluster heartbeat CoS 7 gets 1 %.
#[test]
fn nxos_ets_from_the_queuing_policy_in_force() {
    let qos = "policy-map type network-qos QOS_NETWORK\n  class type network-qos c-8q-nq3\n    mtu 9216\n    pause pfc-cos 3\n  class type network-qos c-8q-nq-default\n    mtu 9216\n\
               class-map type qos match-all RDMA\n  match cos 3\nclass-map type qos match-all CLUSTER\n  match cos 7\n\
               policy-map type qos AZLocal_SERVICES\n  class RDMA\n    set qos-group 3\n  class CLUSTER\n    set qos-group 7\n\
               policy-map type queuing QOS_EGRESS_PORT\n  class type queuing c-out-8q-q3\n    bandwidth remaining percent 50\n    random-detect minimum-threshold 300 kbytes maximum-threshold 300 kbytes drop-probability 100 weight 0 ecn\n  class type queuing c-out-8q-q-default\n    bandwidth remaining percent 48\n  class type queuing c-out-8q-q7\n    bandwidth percent 1\n  class type queuing c-out-8q-q1\n    bandwidth remaining percent 0\n\
               system qos\n  service-policy type queuing output QOS_EGRESS_PORT\n  service-policy type network-qos QOS_NETWORK\n\
               interface Ethernet1/17\n  description Storage Intent\n  switchport\n  switchport mode trunk\n  switchport trunk allowed vlan 711\n  priority-flow-control mode on send-tlv\n  mtu 9216\n  service-policy type qos input AZLocal_SERVICES\n";
    let cfg = nxos("tor1", qos);
    let Document::Config(parsed) = parse("tor1.cfg", &cfg, None).unwrap() else {
        panic!()
    };
    assert!(
        parsed.summary.not_understood.is_empty(),
        "{:?}",
        parsed.summary.not_understood
    );
    let ets: Vec<(u8, u32, Option<u32>)> = parsed
        .dcb
        .ets
        .iter()
        .map(|(c, s)| (*c, s.value, s.line()))
        .collect();
    // Each share from its `bandwidth` line.
    let line = |text: &str| cfg.lines().position(|l| l.trim() == text).unwrap() as u32 + 1;
    assert_eq!(
        ets,
        [
            (3, 50, Some(line("bandwidth remaining percent 50"))),
            (7, 1, Some(line("bandwidth percent 1")))
        ]
    );
    let (toml, _, _) = import_texts(&[("tor1.cfg", &cfg)]);
    let ets_line = toml
        .lines()
        .find(|l| l.starts_with("ets = "))
        .unwrap_or_else(|| panic!("{toml}"));
    assert!(
        ets_line.starts_with("ets = { 3 = 50, 7 = 1 }"),
        "{ets_line}"
    );
    assert!(toml.contains("pfc = [3]"), "{toml}");
    // Without the qos policy on a port, no CoS is classified: no ETS.
    let unapplied = cfg.replace("  service-policy type qos input AZLocal_SERVICES\n", "");
    let Document::Config(parsed) = parse("tor1.cfg", &unapplied, None).unwrap() else {
        panic!()
    };
    assert!(parsed.dcb.ets.is_empty());
    // Without `pause pfc-cos 3`, the dcb table (ETS only) stands for the
    // network-qos policy in force: its header names the policy's lines,
    // where a missing pause is labelled, not the ETS lines (issue 33
    // item 5).
    let unpaused = cfg.replace("    pause pfc-cos 3\n", "");
    assert_ne!(unpaused, cfg);
    let doc = parse("tor1.cfg", &unpaused, None).unwrap();
    let imported = to_design(std::slice::from_ref(&doc), "imported");
    let toml = &imported.toml;
    assert!(!toml.contains("pfc = "), "{toml}");
    let at = toml
        .find("[switches.tor1.dcb]")
        .unwrap_or_else(|| panic!("{toml}"));
    let m = imported
        .map
        .lookup(at..at + 1)
        .expect("the dcb table is mapped");
    let lines: Vec<&str> = m
        .from
        .iter()
        .map(|src| match src {
            Src::Line(a) | Src::Inferred { at: a, .. } => {
                unpaused.lines().nth(a.line as usize - 1).unwrap().trim()
            }
            Src::Default { .. } => "default",
        })
        .collect();
    assert_eq!(
        lines.first().copied(),
        Some("service-policy type network-qos QOS_NETWORK"),
        "{lines:?}"
    );
    assert!(
        lines.iter().all(|l| !l.starts_with("bandwidth")),
        "{lines:?}"
    );
}

/// OS10 ETS as configured: the queuing policy in force (`service-policy
/// output type queuing` on the port) gives each `class-map type queuing`
/// (`match queue Q`) its `bandwidth percent`; `qos-map traffic-class`
/// maps qos-groups to queues and `trust dot1p-map` (under `system qos`)
/// CoS to qos-groups. The QoS sections are the "Full QoS configuration"
/// for Dell OS10 of Microsoft's Azure Local rack aware cluster network
/// design: storage CoS 3 gets 50 %, heartbeat CoS 7 gets 2 %; queue 0,
/// shared by CoS 0-2 and 4-6 (the default class), is not listed per
/// priority.
#[test]
fn os10_ets_through_the_dot1p_and_traffic_class_maps() {
    let cfg = "! Version 10.5.4.0\nhostname s5248-a\ndcbx enable\n\
               class-map type queuing AZS_SERVICES_EtsQue_0\n match queue 0\n!\n\
               class-map type queuing AZS_SERVICES_EtsQue_3\n match queue 3\n!\n\
               class-map type queuing AZS_SERVICES_EtsQue_7\n match queue 7\n!\n\
               class-map type network-qos AZS_SERVICES_Dot1p_3\n match qos-group 3\n!\n\
               trust dot1p-map AZS_SERVICES_Dot1p\n qos-group 0 dot1p 0-2,4-6\n qos-group 3 dot1p 3\n qos-group 7 dot1p 7\n!\n\
               qos-map traffic-class AZS_SERVICES_Que\n queue 0 qos-group 0-2,4-6\n queue 3 qos-group 3\n queue 7 qos-group 7\n!\n\
               policy-map type queuing AZS_SERVICES_ets\n!\n class AZS_SERVICES_EtsQue_0\n  bandwidth percent 48\n!\n class AZS_SERVICES_EtsQue_3\n  bandwidth percent 50\n  random-detect ecn\n!\n class AZS_SERVICES_EtsQue_7\n  bandwidth percent 2\n!\n\
               policy-map type network-qos AZS_SERVICES_pfc\n!\n class AZS_SERVICES_Dot1p_3\n  pause\n  pfc-cos 3\n!\n\
               system qos\n  trust-map dot1p AZS_SERVICES_Dot1p\n    buffer-statistics-tracking\n  ets mode on\n!\n\
               interface vlan711\n no shutdown\n!\n\
               interface ethernet1/1/18\n description Storage-CL1\n no shutdown\n switchport mode trunk\n switchport trunk allowed vlan 711\n mtu 9216\n priority-flow-control mode on\n service-policy input type network-qos AZS_SERVICES_pfc\n service-policy output type queuing AZS_SERVICES_ets\n ets mode on\n qos-map traffic-class AZS_SERVICES_Que\n";
    let Document::Config(parsed) = parse("s5248-a.cfg", cfg, None).unwrap() else {
        panic!()
    };
    assert!(
        parsed.summary.not_understood.is_empty(),
        "{:?}",
        parsed.summary.not_understood
    );
    let line = |text: &str| cfg.lines().position(|l| l.trim() == text).unwrap() as u32 + 1;
    let ets: Vec<(u8, u32, Option<u32>)> = parsed
        .dcb
        .ets
        .iter()
        .map(|(c, s)| (*c, s.value, s.line()))
        .collect();
    assert_eq!(
        ets,
        [
            (3, 50, Some(line("bandwidth percent 50"))),
            (7, 2, Some(line("bandwidth percent 2")))
        ]
    );
    let (toml, _, _) = import_texts(&[("s5248-a.cfg", cfg)]);
    assert!(toml.contains("\nets = { 3 = 50, 7 = 2 }"), "{toml}");
    assert!(toml.contains("pfc = [3]"), "{toml}");
}

/// EOS ETS as configured: `qos map cos LIST to traffic-class T` and `qos
/// map traffic-class LIST to tx-queue Q` lead from a CoS to its transmit
/// queue, a port's `tx-queue Q` block gives the queue its `bandwidth
/// percent` (`no priority`: round robin). Syntax: the Arista EOS User
/// Manual, Quality of Service (<https://www.arista.com/en/um-eos/eos-quality-of-service>:
/// traffic classes, transmit queues configured per Ethernet port), as
/// Arista's AVD renders it (github.com/aristanetworks/avd, the `qos map`
/// lines and the interface `tx-queue` blocks of its EOS config examples).
/// Storage CoS 3 gets 50 %, heartbeat CoS 7 gets 1 %; queue 0, shared by
/// the other CoS, is not listed per priority. Both maps' defaults vary by
/// platform: a CoS the config does not map leaves every share unknown.
#[test]
fn eos_ets_through_the_qos_maps_and_a_ports_tx_queues() {
    let cfg = "! device: leaf1 (DCS-7050SX3-48YC8, EOS-4.30.2F)\nhostname leaf1\n\
               qos map cos 0 1 2 4 5 6 to traffic-class 0\nqos map cos 3 to traffic-class 3\nqos map cos 7 to traffic-class 7\n\
               qos map traffic-class 0 to tx-queue 0\nqos map traffic-class 3 to tx-queue 3\nqos map traffic-class 7 to tx-queue 7\n\
               qos map traffic-class 1 to dscp 56\n\
               interface Ethernet1\n   switchport mode trunk\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\n\
               \x20  tx-queue 0\n      no priority\n      bandwidth percent 49\n\
               \x20  tx-queue 3\n      no priority\n      bandwidth percent 50\n      random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes\n\
               \x20  tx-queue 7\n      no priority\n      bandwidth percent 1\n";
    let Document::Config(parsed) = parse("leaf1.cfg", cfg, None).unwrap() else {
        panic!()
    };
    assert!(
        parsed.summary.not_understood.is_empty(),
        "{:?}",
        parsed.summary.not_understood
    );
    let line = |text: &str| cfg.lines().position(|l| l.trim() == text).unwrap() as u32 + 1;
    let ets: Vec<(u8, u32, Option<u32>)> = parsed
        .dcb
        .ets
        .iter()
        .map(|(c, s)| (*c, s.value, s.line()))
        .collect();
    assert_eq!(
        ets,
        [
            (3, 50, Some(line("bandwidth percent 50"))),
            (7, 1, Some(line("bandwidth percent 1")))
        ]
    );
    let (toml, _, _) = import_texts(&[("leaf1.cfg", cfg)]);
    assert!(toml.contains("\nets = { 3 = 50, 7 = 1 }"), "{toml}");
    // CoS 6 unmapped: its queue is the platform's default, so whether
    // queue 3 or 7 serves one priority alone is unknown: no share.
    let partial = cfg.replace("qos map cos 0 1 2 4 5 6 ", "qos map cos 0 1 2 4 5 ");
    assert_ne!(partial, cfg);
    let Document::Config(parsed) = parse("leaf1.cfg", &partial, None).unwrap() else {
        panic!()
    };
    assert!(parsed.dcb.ets.is_empty(), "{:?}", parsed.dcb.ets);
    // A strict-priority queue is served first, not by its share.
    let strict = cfg.replacen(
        "   tx-queue 7\n      no priority\n",
        "   tx-queue 7\n      priority strict\n",
        1,
    );
    assert_ne!(strict, cfg);
    let Document::Config(parsed) = parse("leaf1.cfg", &strict, None).unwrap() else {
        panic!()
    };
    assert_eq!(parsed.dcb.ets.keys().copied().collect::<Vec<_>>(), [3]);
}

/// EOS `mtu` is layer 3: a switchport without `l2 mtu` forwards jumbo
/// frames (the vendor default 9234-byte frame, with its source), and a
/// host port's own `l2 mtu 1518` is its own MTU in the design (1500), not
/// dropped (issue 33 item 6).
#[test]
fn eos_l2_mtu_is_the_switchport_frame_limit() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    let leaf1 = read("eos-leaf1.cfg").replacen(
        "interface Port-Channel11\n",
        "interface Port-Channel11\n   l2 mtu 1518\n",
        1,
    );
    assert_ne!(leaf1, read("eos-leaf1.cfg"));
    let (toml, design, _) = import_texts(&[
        ("eos-leaf1.cfg", &leaf1),
        ("eos-leaf2.cfg", &read("eos-leaf2.cfg")),
        ("eos-leaf1.lldp.txt", &read("eos-leaf1.lldp.txt")),
    ]);
    let leaf1 = design.switches.iter().find(|s| s.name == "leaf1").unwrap();
    // The switch: the default jumbo frame, payload 9216.
    assert_eq!(leaf1.mtu.payload, 9216, "{toml}");
    assert!(
        toml.contains("frame_size = 9234                        # default: "),
        "{toml}"
    );
    // The host port: its own line, payload 1500.
    let port = leaf1.port("Port-Channel11").expect("the host port's table");
    assert_eq!(port.mtu.as_ref().map(|m| m.payload), Some(1500), "{toml}");
    assert!(
        toml.contains("mtu = 1500                               # eos-leaf1.cfg:51 (1518 less 18)"),
        "{toml}"
    );
}

/// An EOS switch with no switchport switches no frame: the `l2 mtu`
/// default of a switchport (9234) reaches nothing and is not its MTU. Its
/// packets are routed, limited by the layer-3 `mtu` (default 1500, Arista
/// EOS "Layer 3 MTU"), which `interface defaults` / `mtu` sets for every
/// routed port.
#[test]
fn an_eos_switch_without_switchports_runs_its_routed_mtu() {
    let cfg = "! device: core-1 (DCS-7280SR3-48YC8, EOS-4.30.2F)\nhostname core-1\n\
               interface Ethernet1\n   no switchport\n!\ninterface Ethernet2\n   no switchport\n";
    let (toml, design, _) = import_texts(&[("core-1.cfg", cfg)]);
    assert!(!toml.contains("frame_size"), "{toml}");
    assert!(
        toml.contains("# mtu: no switchport, and no line sets the layer-3 `mtu`"),
        "{toml}"
    );
    assert_eq!(design.switches[0].mtu.payload, 1500, "{toml}");
    let defaults = cfg.replace(
        "hostname core-1\n",
        "hostname core-1\ninterface defaults\n   mtu 9216\n",
    );
    let (toml, design, _) = import_texts(&[("core-1.cfg", &defaults)]);
    assert_eq!(design.switches[0].mtu.payload, 9216, "{toml}");
    assert!(toml.contains("mtu = 9216 "), "{toml}");
}

/// OS10 states the MTU per port. The VLT interconnect's ports are `no
/// switchport` (Dell SmartFabric OS10 User Guide, "VLT interconnect"), yet
/// they switch the frames of every VLAN between the peers: a switch whose
/// host ports run 1518-byte frames and whose VLTi runs 9234 forwards jumbo
/// frames, and its `frame_size` is the VLTi's, not the largest
/// switchport's.
#[test]
fn an_os10_vlt_interconnect_mtu_counts_for_the_switch() {
    let cfg = "! Version 10.5.4.0\nhostname tor-b\ninterface vlan711\n no shutdown\n!\n\
               interface ethernet1/1/1\n no shutdown\n no switchport\n mtu 9234\n!\n\
               interface ethernet1/1/3\n no shutdown\n switchport mode trunk\n switchport trunk allowed vlan 711\n mtu 1518\n!\n\
               vlt-domain 1\n discovery-interface ethernet1/1/1\n";
    let (toml, design, _) = import_texts(&[("tor-b.cfg", cfg)]);
    assert_eq!(design.switches[0].mtu.payload, 9216, "{toml}");
    assert!(toml.contains("frame_size = 9234 "), "{toml}");
}

/// OS10 pauses the network-qos no-drop classes only on interfaces with
/// `priority-flow-control mode on`. The fixture's host ports are node1's
/// port-channel (its member ethernet1/1/1 has the line; a host port by its
/// `spanning-tree port type edge`, issue 31 item 2) and node2's breakout
/// (cabled, without it): `pfc = [3]` is written, with a comment naming the
/// breakout it is off on. Without the member's line no host port pauses,
/// so the switch's `pfc` is left out with a comment saying why; with the
/// line on both, `pfc = [3]` and no comment (issue 33 item 6).
#[test]
fn os10_pfc_is_in_force_only_on_ports_with_pfc_mode_on() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    let pfc_of = |cfg: &str| {
        let (toml, design, _) = import_texts(&[
            ("os10-vlt1.cfg", cfg),
            ("os10-vlt2.cfg", &read("os10-vlt2.cfg")),
            ("os10-vlt1.lldp.txt", &read("os10-vlt1.lldp.txt")),
        ]);
        let sw = design
            .switches
            .iter()
            .find(|s| s.name == "s5248-a")
            .unwrap();
        let pfc = sw
            .dcb
            .as_ref()
            .and_then(|d| d.pfc.as_ref())
            .map(|p| p.value.clone());
        (pfc, toml)
    };
    let fixture = read("os10-vlt1.cfg");
    let (some, toml) = pfc_of(&fixture);
    assert_eq!(some, Some(vec![3]), "{toml}");
    assert!(
        toml.contains("pfc: in force only on the host ports with `priority-flow-control mode on`; off on Ethernet1/1/25:1"),
        "{toml}"
    );
    let member_line = " flowcontrol receive off\n priority-flow-control mode on\n";
    let off = fixture.replacen(member_line, " flowcontrol receive off\n", 1);
    assert_ne!(off, fixture);
    let (none, toml) = pfc_of(&off);
    assert_eq!(none.unwrap_or_default(), Vec::<u8>::new(), "{toml}");
    assert!(
        toml.contains("no host port has `priority-flow-control mode on`"),
        "{toml}"
    );
    let on = fixture.replacen(
        " mtu 9216\n spanning-tree port type edge\n!\ninterface ethernet1/1/53",
        " mtu 9216\n spanning-tree port type edge\n priority-flow-control mode on\n!\ninterface ethernet1/1/53",
        1,
    );
    assert_ne!(on, fixture);
    let (pfc, toml) = pfc_of(&on);
    assert_eq!(pfc, Some(vec![3]), "{toml}");
    assert!(!toml.contains("pfc: in force only"), "{toml}");
}

/// Issue 31 item 5: `spanning-tree vlan 10 priority 8192` and no other
/// priority line sets VLAN 10; the switch stays at the vendor default
/// (with its source), so VLAN 1's tree is at 32768 and a finding about it
/// is not put on VLAN 10's line. (Syntax: Cisco Nexus 9000 NX-OS Layer 2
/// Switching Configuration Guide, "Configuring Rapid PVST+", `spanning-tree
/// vlan vlan-range priority value`.)
#[test]
fn a_per_vlan_priority_line_sets_its_vlan_not_the_switch() {
    let cfg = "hostname sw1\nfeature lacp\nspanning-tree vlan 10 priority 8192\nvlan 10\n  name SERVERS\n";
    let doc = parse(
        "sw1.cfg",
        cfg,
        Some(netlint_import::Kind::Config(netlint_import::Vendor::NxOs)),
    )
    .unwrap();
    let imported = to_design(&[doc], "imported");
    assert_loads_cleanly(&imported.toml);
    let toml = &imported.toml;
    let line = |key: &str| {
        toml.lines()
            .find(|l| l.starts_with(key))
            .unwrap_or_else(|| panic!("{key}: {toml}"))
    };
    assert!(
        line("priority = 32768").contains("default: IEEE 802.1D-2004"),
        "{toml}"
    );
    assert!(
        line("vlan_priority = { \"10\" = 8192 }").ends_with("# sw1.cfg:3"),
        "{toml}"
    );
    let d = load(&SourceFile::new("i.toml", toml.clone()))
        .design
        .unwrap();
    assert_eq!(d.switches[0].stp.vlan_priority(1), 32768);
    assert_eq!(d.switches[0].stp.vlan_priority(10), 8192);
}

/// A Catalyst stack's one config is read as its members: `core-stk-1`
/// and `core-stk-2` sharing `stack = "core-stk"`, each with the ports
/// numbered on it, the port-channel across both one LAG to `dist1`, no
/// stacking cable invented, and a note that says so.
#[test]
fn ios_stack_is_read_as_its_members() {
    let (toml, notes) = import(&["ios-stack1.cfg", "stack.cabling.csv"]);
    assert!(toml.contains("[switches.core-stk-1]") && toml.contains("[switches.core-stk-2]"));
    assert_eq!(toml.matches("stack = \"core-stk\"").count(), 2, "{toml}");
    assert!(
        toml.contains("b = [\"core-stk-1\", \"core-stk-2\"]"),
        "{toml}"
    );
    assert!(!toml.contains("kind = \"stack\""), "{toml}");
    assert!(notes
        .iter()
        .any(|n| matches!(n, Note::Stack { name, members, .. } if name == "core-stk" && members.len() == 2)));
    insta::assert_snapshot!("ios-stack.toml", toml);
    insta::assert_snapshot!("ios-stack.notes", notes_text(&notes));
}

/// One member (a standalone Catalyst numbers its ports `Gi1/0/N` too) is
/// one switch named by its hostname, as before.
#[test]
fn ios_single_member_stays_one_switch() {
    let text = "hostname acc1\nswitch 1 provision c9300-24t\ninterface GigabitEthernet1/0/1\n switchport mode trunk\n";
    let (toml, _, notes) = import_texts(&[("acc1.cfg", text)]);
    assert!(toml.contains("[switches.acc1]"), "{toml}");
    assert!(!toml.contains("stack ="), "{toml}");
    assert!(!notes.iter().any(|n| matches!(n, Note::Stack { .. })));
}

/// The stack's own LLDP table (its prompt names the stack's hostname):
/// each local port goes to the member it is numbered on, so the two
/// uplinks from different members are one LAG of the stack.
#[test]
fn ios_stack_lldp_ports_go_to_their_members() {
    let cfg = "hostname stk\nswitch 1 provision c9300-48p\nswitch 2 provision c9300-48p\n\
interface Port-channel1\n switchport mode trunk\n\
interface TenGigabitEthernet1/1/1\n switchport mode trunk\n channel-group 1 mode active\n\
interface TenGigabitEthernet2/1/1\n switchport mode trunk\n channel-group 1 mode active\n";
    let neighbour = |local: &str, port: &str| {
        format!(
            "------------------------------------------------\nLocal Intf: {local}\nChassis id: 0050.56a1.b2c3\nPort id: {port}\nPort Description: {port}\nSystem Name: dist1\n\nSystem Description: \nCisco IOS Software, Catalyst L3 Switch Software (CAT9K_IOSXE), Version 17.9.4\n\nTime remaining: 98 seconds\nSystem Capabilities: B,R\nEnabled Capabilities: B,R\n\n"
        )
    };
    let lldp = format!(
        "stk#show lldp neighbors detail\n{}{}\nTotal entries displayed: 2\n",
        neighbour("Te1/1/1", "Te1/0/1"),
        neighbour("Te2/1/1", "Te1/0/2")
    );
    let (toml, design, _) = import_texts(&[("stk.cfg", cfg), ("stk.lldp.txt", &lldp)]);
    assert!(toml.contains("b = [\"stk-1\", \"stk-2\"]"), "{toml}");
    assert_eq!(design.switches.len(), 3, "{toml}");
}
