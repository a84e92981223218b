// A generated site: switch configs of the four dialects, deterministic,
// of the size and shape of a top-of-rack switch (VLANs, 48 host ports,
// LAG uplinks, a vPC/MLAG/VLT domain, STP, and irrelevant sections).
// Shared by the benchmark and the timed test through `include!`.

/// The `i`-th switch of a site: (file name, config text).
pub fn site_config(i: usize) -> (String, String) {
    use std::fmt::Write;
    let host = format!("tor{i}");
    let mut s = String::new();
    match i % 4 {
        0 => {
            let _ = writeln!(s, "!Command: show running-config\n!Time: Tue Dec  1 05:00:00 2026\nversion 9.3(8) Bios:version 05.45");
            let _ = writeln!(s, "hostname {host}\nfeature lacp\nfeature vpc\nfeature lldp\nsystem jumbomtu 9216");
            let _ = writeln!(s, "spanning-tree port type edge bpduguard default\nspanning-tree vlan 1-4094 priority {}", if i % 8 == 0 { 8192 } else { 16384 });
            for v in 10..50 {
                let _ = writeln!(s, "vlan {v}\n  name net{v}");
            }
            let _ = writeln!(s, "vpc domain {}\n  peer-switch\n  role priority {}\n  peer-keepalive destination 10.0.0.{} source 10.0.0.{}\n  peer-gateway", i / 2 + 1, 100 + i % 2, i ^ 1, i);
            let _ = writeln!(s, "interface port-channel1\n  switchport mode trunk\n  switchport trunk allowed vlan 10-49\n  spanning-tree port type network\n  vpc peer-link");
            for p in 1..=48 {
                let _ = writeln!(s, "interface Ethernet1/{p}\n  description host{p}\n  switchport mode trunk\n  switchport trunk native vlan 10\n  switchport trunk allowed vlan 10-20,30\n  switchport trunk allowed vlan add 40-45\n  spanning-tree port type edge trunk\n  mtu 9216\n  no shutdown");
            }
            let _ = writeln!(s, "interface Ethernet1/49\n  switchport mode trunk\n  channel-group 1 mode active\ninterface Ethernet1/50\n  switchport mode trunk\n  channel-group 1 mode active");
        }
        1 => {
            let _ = writeln!(s, "! Command: show running-config\n! device: {host} (DCS-7050SX3-48YC8, EOS-4.28.3M)\n!\ntransceiver qsfp default-mode 4x10G\n!\nhostname {host}\n!\nspanning-tree mode mstp\nspanning-tree mst 0 priority 8192\n!\nspanning-tree mst configuration\n   name site\n   revision 3\n   instance 1 vlan 10-29\n   instance 2 vlan 30-49\n!");
            for v in 10..50 {
                let _ = writeln!(s, "vlan {v}\n   name net{v}\n!");
            }
            let _ = writeln!(s, "vlan 4094\n   trunk group mlagpeer\n!\ninterface Port-Channel10\n   switchport mode trunk\n   switchport trunk group mlagpeer\n!");
            for p in 1..=48 {
                let _ = writeln!(s, "interface Ethernet{p}\n   description host{p}\n   switchport trunk allowed vlan 10-20,30,40-45\n   switchport mode trunk\n   spanning-tree portfast\n   spanning-tree bpduguard enable\n!");
            }
            let _ = writeln!(s, "mlag configuration\n   domain-id site\n   local-interface Vlan4094\n   peer-address 10.255.255.{}\n   peer-link Port-Channel10\n!", i ^ 1);
        }
        2 => {
            let _ = writeln!(s, "Building configuration...\n\nCurrent configuration : 9999 bytes\n!\nversion 15.2\nservice timestamps debug datetime msec\nno service pad\nhostname {host}\n!\nboot-start-marker\nboot-end-marker\n!\nspanning-tree mode rapid-pvst\nspanning-tree extend system-id\nspanning-tree vlan 10-49 priority 24576\n!");
            for v in 10..50 {
                let _ = writeln!(s, "vlan {v}\n name net{v}\n!");
            }
            for p in 1..=48 {
                let _ = writeln!(s, "interface GigabitEthernet1/0/{p}\n description host{p}\n switchport access vlan {}\n switchport mode access\n spanning-tree portfast\n spanning-tree bpduguard enable\n!", 10 + p % 40);
            }
            let _ = writeln!(s, "interface Port-channel1\n switchport trunk allowed vlan 10-49\n switchport mode trunk\n!\ninterface TenGigabitEthernet1/1/1\n switchport mode trunk\n channel-group 1 mode active\n!\nline vty 0 4\n login local\n!\nend");
        }
        _ => {
            let _ = writeln!(s, "! Version 10.5.4.0\n! Last configuration change at Dec  01 05:00:00 2026\n!\nztd cancel\nhostname {host}\nsystem-user linuxadmin password ****\nspanning-tree vlan 10-49 priority 24576\ndcbx enable\n!");
            for v in 10..50 {
                let _ = writeln!(s, "interface vlan{v}\n description net{v}\n no shutdown\n!");
            }
            let _ = writeln!(s, "interface port-channel1\n no shutdown\n switchport mode trunk\n switchport trunk allowed vlan 10-49\n vlt-port-channel 1\n!");
            for p in 1..=48 {
                let _ = writeln!(s, "interface ethernet1/1/{p}\n description host{p}\n no shutdown\n switchport mode trunk\n switchport access vlan 10\n switchport trunk allowed vlan 11-20,30,40-45\n mtu 9216\n spanning-tree port type edge\n spanning-tree bpduguard enable\n flowcontrol receive off\n!");
            }
            let _ = writeln!(s, "vlt-domain 1\n backup destination 10.0.0.{}\n discovery-interface ethernet1/1/53-1/1/54\n!", i ^ 1);
        }
    }
    let _ = writeln!(s, "router bgp 65000\n  router-id 10.0.0.{i}\n  neighbor 10.0.1.1 remote-as 65001\nsnmp-server community public ro\nlogging host 10.9.9.9\nntp server 10.9.9.10\nusername admin password 5 $1$abc role network-admin");
    (format!("{host}.cfg"), s)
}
