//! Top-level commands: hostname, VLANs, interfaces, and the sections known
//! irrelevant to layer 2.

use super::vendors::Qos;
use super::*;
use crate::names::IfKind;
use crate::vlans::{self, VlanSet};

/// First words of top-level commands and sections that do not bear on
/// layer 2, with the reason written in the summary.
const IRRELEVANT: &[(&str, &str)] = &[
    ("aaa", "aaa"),
    ("access-list", "acl"),
    ("alias", "cli"),
    ("archive", "management"),
    ("boot", "boot"),
    ("boot-start-marker", "boot"),
    ("boot-end-marker", "boot"),
    ("call-home", "management"),
    ("callhome", "management"),
    ("cdp", "cdp"),
    ("cfs", "management"),
    ("class-map", "qos"),
    ("clock", "time"),
    ("control-plane", "copp"),
    ("copp", "copp"),
    ("crypto", "crypto"),
    ("daemon", "management"),
    ("diagnostic", "platform"),
    ("dhcp", "dhcp"),
    ("dns", "dns"),
    ("enable", "aaa"),
    ("errdisable", "errdisable"),
    ("event", "event manager"),
    ("event-handler", "event manager"),
    ("evpn", "routing"),
    ("fabric", "fabric"),
    ("file", "management"),
    ("flow", "flow export"),
    ("guestshell", "management"),
    ("hardware", "platform"),
    ("hsrp", "routing"),
    ("http", "management"),
    ("install", "platform"),
    ("ip", "ip"),
    ("ipv6", "ip"),
    ("key", "aaa"),
    ("lacp", "lacp"),
    ("license", "license"),
    ("line", "line"),
    ("load-balance", "load balancing"),
    ("logging", "logging"),
    ("login", "aaa"),
    ("mac", "mac table"),
    ("mac-address-table", "mac table"),
    ("management", "management"),
    ("memory", "platform"),
    ("module", "platform"),
    ("monitor", "monitoring"),
    ("mpls", "routing"),
    ("multicast", "routing"),
    ("netconf", "management"),
    ("netconf-yang", "management"),
    ("nv", "overlay"),
    ("ntp", "time"),
    ("nxapi", "management"),
    ("openflow", "management"),
    ("peer-filter", "routing"),
    ("platform", "platform"),
    ("policy-map", "qos"),
    ("port-channel", "lacp"),
    ("port-group", "platform"),
    ("power", "platform"),
    ("prefix-list", "routing"),
    ("privilege", "aaa"),
    ("process", "platform"),
    ("queue-monitor", "monitoring"),
    ("radius-server", "aaa"),
    ("radius", "aaa"),
    ("redundancy", "platform"),
    ("restconf", "management"),
    ("rmon", "monitoring"),
    ("role", "aaa"),
    ("route-map", "routing"),
    ("router", "routing"),
    ("router-id", "routing"),
    ("rollback", "management"),
    ("scheduler", "management"),
    ("service", "service"),
    ("sflow", "monitoring"),
    ("snmp", "snmp"),
    ("snmp-server", "snmp"),
    ("sntp", "time"),
    ("ssh", "management"),
    ("stopwatch", "management"),
    ("system-user", "aaa"),
    ("tacacs-server", "aaa"),
    ("tacacs", "aaa"),
    ("telemetry", "telemetry"),
    ("terminal", "cli"),
    ("track", "routing"),
    ("transceiver", "platform"),
    ("udld", "udld"),
    ("user-role", "aaa"),
    ("username", "aaa"),
    ("userpassphrase", "aaa"),
    ("vdc", "platform"),
    ("version", "version"),
    ("virtual-service", "platform"),
    ("vrf", "routing"),
    ("vtp", "vtp"),
    ("wsma", "management"),
    ("ztd", "management"),
    ("ztp", "management"),
    ("gnmi", "management"),
    ("openconfig", "management"),
    ("app-hosting", "platform"),
    ("iox", "platform"),
    ("queue", "qos"),
    ("qos", "qos"),
    ("trust-map", "qos"),
    ("wred", "qos"),
    ("ethernet", "ethernet oam"),
    ("errdisable-recovery", "errdisable"),
    ("storm-control", "storm control"),
    ("uplink-state-group", "uplink tracking"),
    ("nve", "overlay"),
    ("virtual-network", "overlay"),
    ("ipv4", "ip"),
    ("arp", "ip"),
    ("bfd", "routing"),
    ("interface-profile", "platform"),
    ("macsec", "crypto"),
    ("dot1x", "aaa"),
    ("authentication", "aaa"),
    ("tap", "monitoring"),
    ("ptp", "time"),
    ("watchdog", "platform"),
    ("event-monitor", "monitoring"),
    ("load-interval", "counters"),
    ("tcam", "platform"),
    ("prompt", "cli"),
    ("schedule", "management"),
    ("agent", "platform"),
    ("cvx", "overlay"),
    ("poe", "poe"),
    ("device-tracking", "ip"),
    ("mls", "qos"),
    ("auto", "qos"),
    ("macro", "cli"),
    ("cts", "aaa"),
    ("vstack", "management"),
    ("multilink", "routing"),
    ("identity", "aaa"),
    ("subscriber", "aaa"),
    ("table-map", "qos"),
    ("hw-switch", "platform"),
    ("switch", "platform"),
    ("stack-power", "platform"),
    ("sdm", "platform"),
    ("setup", "cli"),
    ("iscsi", "storage awareness"),
    ("qos-map", "qos"),
    ("trust", "qos"),
    ("key-chain", "aaa"),
    ("feature-set", "feature"),
    ("install-feature", "feature"),
    ("slot", "platform"),
    ("system-mac", "platform"),
    ("mac-learn", "mac table"),
    ("bridge-domain", "overlay"),
    ("segment-routing", "routing"),
    ("l2vpn", "overlay"),
    ("pseudowire", "overlay"),
    ("object-group", "acl"),
    ("time-range", "acl"),
    ("role-based", "aaa"),
    ("priority-flow-control", "pfc options"),
    ("link-state-track", "uplink tracking"),
    ("password", "aaa"),
    ("banner", "banner"),
    ("no-ip", "ip"),
    ("username-policy", "aaa"),
    ("hostname-policy", "aaa"),
    // Global lines of stock configs of current releases (issue 31 item
    // 10). NX-OS: `icam monitor scale` (the iCAM monitor every 9.3+
    // running-config shows), `fips mode enable`, `user max-logins 1`, `cli
    // alias name wr copy run start`, `switching-mode store-forward` (the
    // STIG lines of Microsoft's Azure Local ToR configs).
    ("icam", "monitoring"),
    ("fips", "crypto"),
    ("user", "aaa"),
    ("cli", "cli"),
    ("switching-mode", "platform"),
    // OS10: `vrrp version 3`, `vrrp delay reload 180` (Microsoft's OS10
    // ToR configs), `hash-algorithm ecmp crc`, `password-attributes
    // min-length 8`.
    ("vrrp", "routing"),
    ("hash-algorithm", "load balancing"),
    ("password-attributes", "aaa"),
    // IOS / IOS-XE: the `service-template` blocks, `device classifier`
    // and `pnp profile pnp-zero-touch` of a stock Catalyst 9000 config;
    // `security passwords min-length 8`; `kron policy-list` /
    // `kron occurrence` scheduled jobs.
    ("service-template", "aaa"),
    ("device", "aaa"),
    ("pnp", "management"),
    ("security", "aaa"),
    ("kron", "management"),
];

/// Words that follow `vlan` as an option of the command rather than a
/// VLAN list: IOS `vlan internal allocation policy`, `vlan dot1q tag
/// native`, `vlan access-map`, `vlan filter`, `vlan accounting`, `vlan
/// group`, `vlan ifdescr`; NX-OS `vlan configuration`, `vlan dot1Q tag
/// native`; EOS `vlan internal order`.
const VLAN_OPTIONS: &[&str] = &[
    "internal",
    "dot1q",
    "access-map",
    "filter",
    "accounting",
    "group",
    "ifdescr",
    "configuration",
    "database",
];

/// A name of the VLAN-interface family (`Vlan5000`, `Vlan0`): its number
/// is no VLAN id when [`IfName::kind`] does not give one.
fn is_vlan_family(name: &IfName) -> bool {
    name.as_str()
        .strip_prefix("Vlan")
        .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_digit()))
}

/// The ports an `interface breakout` line splits and the speed of each
/// port it makes, in Mb/s: NX-OS `module 1 port 49,51-52 map 10g-4x`
/// (Cisco Nexus 9000 Interfaces Configuration Guide, "Configuring
/// Breakout"), OS10 `1/1/25 map 40g-1x` (Dell OS10 User Guide,
/// "interface breakout"). `None` for any other shape.
fn breakout(words: &[&str]) -> Option<(Vec<IfName>, u32)> {
    let (ports, map): (Vec<String>, &str) = match words {
        ["module", module, "port", list, "map", map, ..] => {
            let mut ports = Vec::new();
            for part in list.split(',') {
                let (from, to) = match part.split_once('-') {
                    Some((a, b)) => (a.parse::<u16>().ok()?, b.parse::<u16>().ok()?),
                    None => {
                        let p = part.parse::<u16>().ok()?;
                        (p, p)
                    }
                };
                if from > to || to - from > 256 {
                    return None;
                }
                ports.extend((from..=to).map(|p| format!("Ethernet{module}/{p}")));
            }
            (ports, map)
        }
        [port, "map", map, ..] if port.contains('/') => (vec![format!("ethernet{port}")], map),
        _ => return None,
    };
    // `10g-4x`, `25g-4x`, `40g-1x`, `100g-2x-pam4`: the speed of each lane.
    let gbps: u32 = map
        .to_ascii_lowercase()
        .split_once("g-")
        .and_then(|(g, _)| g.parse().ok())
        .filter(|g| *g > 0)?;
    let ports = ports
        .iter()
        .map(|p| IfName::parse(p))
        .collect::<Option<Vec<_>>>()?;
    Some((ports, gbps.checked_mul(1000)?))
}

impl Parser {
    pub(super) fn top(&mut self, no: u32, body: &str, words: &[&str]) -> Outcome {
        let (neg, w) = match words {
            ["no", rest @ ..] if !rest.is_empty() => (true, rest),
            _ => (false, words),
        };
        match (neg, w) {
            // Catalyst stack: `switch N provision TYPE` (Cisco Catalyst
            // 3750 Switch Command Reference, `switch provision`: the
            // provisioned configuration is in the stack's running config).
            (false, ["switch", n, "provision", kind])
                if self.spec.stacks
                    && n.parse::<u32>().is_ok_and(|n| (1..=16).contains(&n)) =>
            {
                let n: u32 = n.parse().unwrap_or(1);
                self.cfg
                    .provisioned
                    .insert(n, Sourced::at(kind.to_string(), no));
                understood(Ctx::Leaf)
            }
            (false, ["hostname" | "switchname", name, ..]) => {
                let name = name.trim_matches('"');
                self.cfg.hostname = Some(Sourced::at(name.to_string(), no));
                understood(Ctx::Leaf)
            }
            (false, ["vlan", list]) if list.starts_with(|c: char| c.is_ascii_digit()) => {
                match vlans::parse(list) {
                    Ok(set) => {
                        // Only VLANs not defined before cost a map entry.
                        for id in set.difference(&self.vlans_defined).iter() {
                            self.cfg.vlans.entry(id).or_insert(Vlan {
                                line: no,
                                name: None,
                                trunk_groups: Vec::new(),
                            });
                        }
                        self.vlans_defined = self.vlans_defined.union(&set);
                        understood(Ctx::Vlans(Box::new(set)))
                    }
                    Err(e) => self.bad(no, body, e.to_string()),
                }
            }
            (false, ["vlan", word, ..])
                if VLAN_OPTIONS.contains(&word.to_ascii_lowercase().as_str()) =>
            {
                ignored("vlan options")
            }
            // `vlan -1`, `vlan ten`, `vlan １０`, `vlan 10 x`: neither a VLAN
            // list nor an option of the command.
            (false, ["vlan", word, ..]) => {
                let why = match vlans::parse(word) {
                    Err(e) => e.to_string(),
                    Ok(_) => format!("`{}` after the VLAN list", rest_after(body, 2)),
                };
                self.bad(no, body, why)
            }
            (false, ["interface", "defaults"]) => understood(Ctx::InterfaceDefaults),
            (false, ["interface", "breakout", rest @ ..]) => match breakout(rest) {
                Some((ports, mbps)) => {
                    for port in ports {
                        self.cfg.breakouts.push(Breakout {
                            port,
                            mbps: Sourced::at(mbps, no),
                        });
                    }
                    understood(Ctx::Leaf)
                }
                None => self.bad(
                    no,
                    body,
                    "neither `interface breakout module M port LIST map SPEEDg-Nx` (NX-OS) nor `interface breakout N/N/N map SPEEDg-Nx` (OS10)".to_string(),
                ),
            },
            (false, ["interface", ..]) => {
                let written = rest_after(body, 1);
                match IfName::parse(written) {
                    Some(name) if name.kind() == IfKind::Other && is_vlan_family(&name) => {
                        let number = &name.as_str()["Vlan".len()..];
                        self.bad(no, body, format!("VLAN {number} is outside 1-4094"))
                    }
                    Some(name) => {
                        let idx = self.interface_entry(name, written, no);
                        understood(Ctx::Interface(idx))
                    }
                    None => self.bad(no, body, format!("`{written}` is not an interface name")),
                }
            }
            (_, ["spanning-tree", ..]) => self.stp_global(neg, no, body, w),
            (false, ["vpc", "domain", id, ..]) => {
                self.domain_line(MlagKind::Vpc, no, Some(id), body, Ctx::VpcDomain)
            }
            (false, ["mlag", "configuration"]) => {
                self.domain_line(MlagKind::Mlag, no, None, body, Ctx::MlagConfig)
            }
            (false, ["vlt-domain", id]) => {
                self.domain_line(MlagKind::Vlt, no, Some(id), body, Ctx::VltDomain)
            }
            (false, ["system", "jumbomtu", n]) => match number(Some(n), 576..=10240) {
                Some(m) => {
                    self.cfg.mtu.jumbo = Some(Sourced::at(m, no));
                    understood(Ctx::Leaf)
                }
                None => self.bad(no, body, format!("`{n}` is not an MTU")),
            },
            (false, ["system", "mtu", "routing", ..]) => ignored("ip"),
            (false, ["system", "mtu", "jumbo", n]) | (false, ["system", "mtu", n]) => {
                match number(Some(n), 576..=10240) {
                    Some(m) => {
                        self.cfg.mtu.system = Some(Sourced::at(m, no));
                        understood(Ctx::Leaf)
                    }
                    None => self.bad(no, body, format!("`{n}` is not an MTU")),
                }
            }
            (false, ["system", "default", "switchport"]) => {
                self.system_default_switchport = Some(no);
                understood(Ctx::Leaf)
            }
            (false, ["system", "qos"]) => understood(Ctx::SystemQos),
            (false, ["qos", "map", "cos", rest @ ..]) if self.spec.qos == Qos::Eos => {
                match eos_qos_map(rest, "traffic-class") {
                    Some((list, tc)) => {
                        for c in list {
                            self.eos_cos_tc.insert(c, Sourced::at(tc, no));
                        }
                        understood(Ctx::Leaf)
                    }
                    None => ignored("qos"),
                }
            }
            (false, ["qos", "map", "traffic-class", rest @ ..]) if self.spec.qos == Qos::Eos => {
                match eos_qos_map(rest, "tx-queue") {
                    Some((list, q)) => {
                        for tc in list {
                            self.eos_tc_queue.insert(tc, Sourced::at(q, no));
                        }
                        understood(Ctx::Leaf)
                    }
                    None => ignored("qos"),
                }
            }
            (false, ["class-map", "type", "qos", .., name]) if self.spec.qos == Qos::NxOs => {
                self.qos_class_cos.entry(name.to_string()).or_default();
                understood(Ctx::QosClassMap(name.to_string()))
            }
            (false, ["policy-map", "type", "qos", name]) if self.spec.qos == Qos::NxOs => {
                self.qos_policies.entry(name.to_string()).or_default();
                understood(Ctx::QosPolicy(name.to_string()))
            }
            (false, ["class-map", "type", "queuing", name]) if self.spec.qos == Qos::Os10 => {
                understood(Ctx::QueuingClassMap(name.to_string()))
            }
            (false, ["trust", "dot1p-map", name]) if self.spec.qos == Qos::Os10 => {
                self.dot1p_maps.entry(name.to_string()).or_default();
                understood(Ctx::Dot1pMap(name.to_string()))
            }
            (false, ["qos-map", "traffic-class", name]) if self.spec.qos == Qos::Os10 => {
                self.tc_maps.entry(name.to_string()).or_default();
                understood(Ctx::TrafficClassMap(name.to_string()))
            }
            (false, ["policy-map", "type", "queuing", name])
                if self.spec.qos.reads_queuing_policies() =>
            {
                self.queuing_policies.entry(name.to_string()).or_default();
                understood(Ctx::QueuingPolicy(name.to_string()))
            }
            (false, ["policy-map", "type", "network-qos", name, ..]) => {
                self.nq_policies.entry(name.to_string()).or_default();
                understood(Ctx::NqPolicy(name.to_string()))
            }
            (false, ["system", ..]) => ignored("platform"),
            (_, ["dcbx", "enable"]) => {
                self.cfg.dcb.dcbx = Some(Sourced::at(!neg, no));
                understood(Ctx::Leaf)
            }
            (_, ["feature", "lldp"]) | (_, ["lldp", "run"]) | (_, ["lldp", "enable"]) => {
                self.cfg.dcb.lldp = Some(Sourced::at(!neg, no));
                understood(Ctx::Leaf)
            }
            (_, ["lldp", "tlv-select", "dcbxp"]) => {
                self.cfg.dcb.dcbx = Some(Sourced::at(!neg, no));
                understood(Ctx::Leaf)
            }
            (_, ["lldp", ..]) => ignored("lldp timers and tlvs"),
            (_, ["feature", ..]) => ignored("feature"),
            (_, [first, ..]) => match IRRELEVANT.iter().find(|(w, _)| w == first) {
                Some((_, why)) => ignored(why),
                None => (LineClass::NotUnderstood, Ctx::Unknown),
            },
            (_, []) => (LineClass::NotUnderstood, Ctx::Unknown),
        }
    }

    pub(super) fn vlan_child(
        &mut self,
        ids: VlanSet,
        no: u32,
        body: &str,
        words: &[&str],
    ) -> Outcome {
        match words {
            ["name", ..] => {
                let name = rest_after(body, 1).trim_matches('"').to_string();
                for id in ids.iter() {
                    if let Some(v) = self.cfg.vlans.get_mut(&id) {
                        v.name = Some(Sourced::at(name.clone(), no));
                    }
                }
                understood(Ctx::Leaf)
            }
            ["trunk", "group", group] => {
                for id in ids.iter() {
                    if let Some(v) = self.cfg.vlans.get_mut(&id) {
                        v.trunk_groups.push(Sourced::at(group.to_string(), no));
                    }
                }
                understood(Ctx::Leaf)
            }
            ["state" | "shutdown" | "vn-segment" | "mode" | "private-vlan" | "media"
            | "remote-span", ..]
            | ["no", "shutdown" | "state", ..] => ignored("vlan options"),
            _ => (LineClass::NotUnderstood, Ctx::Unknown),
        }
    }

    pub(super) fn interface_defaults_child(&mut self, no: u32, words: &[&str]) -> Outcome {
        match words {
            ["mtu", n] => match number(Some(n), 68..=10240) {
                Some(m) => {
                    self.cfg.mtu.system = Some(Sourced::at(m, no));
                    understood(Ctx::Leaf)
                }
                None => (LineClass::NotUnderstood, Ctx::Unknown),
            },
            _ => ignored("interface defaults"),
        }
    }
}

/// The EOS map `V V ... to TARGET N` (`qos map cos 3 to traffic-class 3`,
/// `qos map traffic-class 3 to tx-queue 3`), values 0-7; another target
/// (`to dscp`, `to cos`) is `None`.
fn eos_qos_map(rest: &[&str], target: &str) -> Option<(Vec<u8>, u8)> {
    let to = rest.iter().position(|w| *w == "to")?;
    let (list, tail) = rest.split_at(to);
    let [_, t, n] = tail else { return None };
    if *t != target || list.is_empty() {
        return None;
    }
    let n = number(Some(n), 0..=7)? as u8;
    let list: Option<Vec<u8>> = list
        .iter()
        .map(|v| number(Some(v), 0..=7).map(|v| v as u8))
        .collect();
    Some((list?, n))
}
