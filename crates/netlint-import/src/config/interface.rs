//! Commands under `interface`: switchport mode and VLANs, LAG membership,
//! MTU, speed, shutdown, description, spanning-tree port settings, PFC.

use super::vendors::{Qos, Trunk};
use super::*;
use crate::vlans::{self, VlanSet};

/// Interface commands that do not bear on layer 2.
const IRRELEVANT: &[(&str, &str)] = &[
    ("ip", "ip"),
    ("ipv6", "ip"),
    ("vrf", "routing"),
    ("load-interval", "counters"),
    ("lacp", "lacp timers"),
    ("cdp", "cdp"),
    ("lldp", "lldp"),
    ("logging", "logging"),
    ("snmp", "snmp"),
    ("snmp-server", "snmp"),
    ("storm-control", "storm control"),
    ("udld", "udld"),
    ("duplex", "duplex"),
    ("negotiation", "autonegotiation"),
    ("flowcontrol", "flow control"),
    ("service-policy", "qos"),
    ("hsrp", "routing"),
    ("vrrp", "routing"),
    ("vrrp-group", "routing"),
    ("ospf", "routing"),
    ("isis", "routing"),
    ("pim", "routing"),
    ("igmp", "routing"),
    ("bfd", "routing"),
    ("mac", "mac table"),
    ("mac-address", "mac table"),
    ("errdisable", "errdisable"),
    ("power", "poe"),
    ("auto", "qos"),
    ("mls", "qos"),
    ("qos", "qos"),
    ("trust", "qos"),
    ("trust-map", "qos"),
    (
        "ets",
        "qos (`ets mode on`: the shares are read from the queuing policy)",
    ),
    ("queue", "qos"),
    ("tx-queue", "qos"),
    ("media-type", "transceiver"),
    ("fec", "transceiver"),
    ("error-correction", "transceiver"),
    ("link-debounce", "timers"),
    ("carrier-delay", "timers"),
    ("bandwidth", "routing"),
    ("delay", "routing"),
    ("evpn", "overlay"),
    ("ethernet-segment", "overlay"),
    ("encapsulation", "routing"),
    ("beacon", "platform"),
    ("dhcp", "dhcp"),
    ("ptp", "time"),
    ("sflow", "monitoring"),
    ("fabric", "fabric"),
    ("autostate", "svi"),
    ("medium", "routing"),
    ("arp", "ip"),
    ("management", "management"),
    ("nat", "routing"),
    ("hardware", "platform"),
    ("transceiver", "transceiver"),
    ("keepalive", "timers"),
    ("rate-limit", "qos"),
    ("dot1x", "aaa"),
    ("authentication", "aaa"),
    ("mab", "aaa"),
    ("access-session", "aaa"),
    ("device-tracking", "ip"),
    ("source", "overlay"),
    ("member", "overlay"),
    ("vxlan", "overlay"),
    ("host-reachability", "overlay"),
    ("unidirectional", "transceiver"),
    ("poe", "poe"),
    ("energy-efficient-ethernet", "power"),
    ("error-disable", "errdisable"),
    ("mpls", "routing"),
    ("tunnel", "routing"),
    ("vpc-peer-link", "vpc"),
    ("dcbx", "dcbx"),
    ("port-security", "security"),
    ("ip-helper", "ip"),
    ("no-autostate", "svi"),
    ("peer-gateway", "vpc"),
    ("traffic-policy", "qos"),
    ("phy", "transceiver"),
    ("link-fault-signaling", "transceiver"),
    ("lag", "lacp"),
    ("port-channel", "lacp"),
    ("channel-protocol", "lacp"),
    ("storm", "storm control"),
    ("hold-queue", "qos"),
    ("priority-queue", "qos"),
    ("srr-queue", "qos"),
    ("source-interface", "overlay"),
    ("suppress-arp", "overlay"),
    ("ingress-replication", "overlay"),
    ("mcast-group", "overlay"),
    ("link", "timers"),
    ("vpc", "vpc option"),
    ("dampening", "timers"),
    ("service-profile", "qos"),
    ("macro", "cli"),
    ("small-frame", "storm control"),
    ("qos-map", "qos"),
    ("unknown-unicast-storm-control", "storm control"),
    ("wrr-queue", "qos"),
    ("rcv-queue", "qos"),
    ("cts", "aaa"),
    ("fabricpath", "fabric"),
    ("shape", "qos"),
    ("l2protocol-tunnel", "tunnelling"),
    ("l2protocol", "tunnelling"),
    ("priority-flow-control", "pfc options"),
    ("ip-address", "ip"),
];

impl Parser {
    pub(super) fn interface(&mut self, i: usize, no: u32, body: &str, words: &[&str]) -> Outcome {
        let (neg, w) = match words {
            ["no", rest @ ..] if !rest.is_empty() => (true, rest),
            _ => (false, words),
        };
        let ifc = &mut self.cfg.interfaces[i];
        match (neg, w) {
            (false, ["description", ..]) => {
                let d = rest_after(body, 1);
                ifc.description = Some(Sourced::at(d.trim_matches('"').to_string(), no));
            }
            (false, ["shutdown"]) => ifc.shutdown = Some(Sourced::at(true, no)),
            (true, ["shutdown"]) => ifc.shutdown = Some(Sourced::at(false, no)),
            (false, ["switchport"]) => self.drafts[i].switchport = Some(no),
            (true, ["switchport"]) => self.drafts[i].no_switchport = Some(no),
            (false, ["switchport", "mode", mode, ..]) => {
                let m = match *mode {
                    "access" => PortMode::Access,
                    "trunk" => PortMode::Trunk,
                    "dot1q-tunnel" | "private-vlan" | "fex-fabric" | "dynamic" | "tap" | "tool"
                    | "routed" => PortMode::Other,
                    other => {
                        return self.bad(no, body, format!("unknown switchport mode `{other}`"))
                    }
                };
                self.drafts[i].mode = Some(Sourced::at(m, no));
            }
            (false, ["switchport", "access", "vlan", v]) => match vlan_id(v) {
                Some(id) => ifc.access_vlan = Some(Sourced::at(id, no)),
                None => return self.bad(no, body, format!("`{v}` is not a VLAN id")),
            },
            (false, ["switchport", "trunk", "native", "vlan", v]) => match vlan_id(v) {
                Some(id) => ifc.native_vlan = Some(Sourced::at(id, no)),
                None => {
                    return self.bad(
                        no,
                        body,
                        format!("native VLAN `{v}` is not read (only an id is)"),
                    )
                }
            },
            // The default back (VLAN 1 on every vendor read): as if the
            // port had never set one.
            (true, ["switchport", "access", "vlan", ..]) => ifc.access_vlan = None,
            (true, ["switchport", "trunk", "native", "vlan", ..]) => ifc.native_vlan = None,
            (_, ["switchport", "trunk", "allowed", "vlan", ops @ ..]) => {
                return self.allowed(i, neg, no, body, ops);
            }
            (false, ["switchport", "trunk", "group", g]) => {
                ifc.trunk_groups.push(Sourced::at(g.to_string(), no));
            }
            (_, ["switchport", ..]) => return ignored("switchport option"),
            (false, ["mtu", n]) => match number(Some(n), 68..=10240) {
                Some(m) => ifc.mtu = Some(Sourced::at(m, no)),
                None => return self.bad(no, body, format!("`{n}` is not an MTU")),
            },
            (false, ["l2", "mtu", n]) => match number(Some(n), 68..=10240) {
                Some(m) => ifc.l2_mtu = Some(Sourced::at(m, no)),
                None => return self.bad(no, body, format!("`{n}` is not an MTU")),
            },
            (false, ["speed", rest @ ..]) => match parse_speed(rest) {
                Some(s) => ifc.speed = Some(Sourced::at(s, no)),
                None => return self.bad(no, body, "speed not read".to_string()),
            },
            (true, ["speed", ..]) => ifc.speed = None,
            (false, ["channel-group", id, rest @ ..]) => {
                let Some(id) = number(Some(id), 1..=999_999) else {
                    return self.bad(no, body, format!("`{id}` is not a port-channel number"));
                };
                let rest: Vec<&str> = rest.iter().copied().filter(|w| *w != "force").collect();
                let mode = match rest.as_slice() {
                    [] | ["mode", "on"] => LagMode::On,
                    ["mode", "active"] => LagMode::Active,
                    ["mode", "passive"] => LagMode::Passive,
                    ["mode", "desirable" | "auto", ..] => LagMode::Pagp,
                    _ => return self.bad(no, body, "channel-group mode not read".to_string()),
                };
                ifc.channel_group = Some(Sourced::at(ChannelGroup { id, mode }, no));
            }
            (false, ["vpc", "peer-link"]) => ifc.mc_lag = Some(Sourced::at(McLag::PeerLink, no)),
            (false, ["vpc" | "mlag" | "vlt-port-channel", id]) => {
                match number(Some(id), 1..=999_999) {
                    Some(n) => ifc.mc_lag = Some(Sourced::at(McLag::Member(n), no)),
                    None => return self.bad(no, body, format!("`{id}` is not a vPC/MLAG/VLT id")),
                }
            }
            (_, ["spanning-tree", ..]) => return self.port_stp(i, neg, no, body, w),
            (false, ["service-policy", "type", "qos", "input", name])
                if self.spec.qos == Qos::NxOs =>
            {
                // The classification ETS is read through: the system's,
                // else the first port's.
                if self.qos_policy.is_none() {
                    self.qos_policy = Some(Sourced::at(name.to_string(), no));
                }
            }
            (false, ["tx-queue", q]) if self.spec.qos == Qos::Eos => {
                return match number(Some(q), 0..=7) {
                    Some(q) => understood(Ctx::TxQueue(i, q as u8)),
                    None => self.bad(no, body, format!("`{q}` is not a transmit queue 0-7")),
                };
            }
            (false, ["dcbx", "mode", m @ ("ieee" | "cee" | "none")]) => {
                if self.cfg.dcb.dcbx_mode.is_none() {
                    self.cfg.dcb.dcbx_mode = Some(Sourced::at(m.to_string(), no));
                }
            }
            (false, ["service-policy", "output", "type", "queuing", name])
                if self.spec.qos == Qos::Os10 =>
            {
                if self.queuing_policy.is_none() {
                    self.queuing_policy = Some(Sourced::at(name.to_string(), no));
                }
            }
            (false, ["qos-map", "traffic-class", name]) if self.spec.qos == Qos::Os10 => {
                if self.tc_map.is_none() {
                    self.tc_map = Some(Sourced::at(name.to_string(), no));
                }
            }
            (false, ["trust-map", "dot1p", name]) if self.spec.qos == Qos::Os10 => {
                if self.dot1p_map.is_none() {
                    self.dot1p_map = Some(Sourced::at(name.to_string(), no));
                }
            }
            (false, ["service-policy", "input", "type", "network-qos", name])
            | (false, ["service-policy", "type", "network-qos", name]) => {
                // OS10 applies the PFC policy per port; the first one names
                // the policy read when `system qos` names none.
                if self.cfg.dcb.network_qos_policy.is_none() {
                    self.cfg.dcb.network_qos_policy = Some(Sourced::at(name.to_string(), no));
                }
            }
            // `auto` (NX-OS's default: PFC as DCBX negotiates it) is not
            // taken as on.
            (false, ["priority-flow-control", "mode", m @ ("on" | "off" | "auto")])
            | (false, ["priority-flow-control", m @ ("on" | "off")]) => {
                ifc.pfc = Some(Sourced::at(*m == "on", no));
            }
            (false, ["priority-flow-control", "mode", m]) => {
                return self.bad(no, body, format!("`{m}` is no PFC mode (on, off, auto)"));
            }
            (true, ["priority-flow-control", "mode", ..]) | (true, ["priority-flow-control"]) => {
                ifc.pfc = Some(Sourced::at(false, no));
            }
            (_, ["priority-flow-control", "priority", p, rest @ ..]) => {
                let Some(p) = number(Some(p), 0..=7) else {
                    return self.bad(no, body, format!("`{p}` is not a priority 0-7"));
                };
                let no_drop = !neg && rest != ["drop"];
                ifc.pfc_no_drop.insert(p as u8, Sourced::at(no_drop, no));
            }
            (_, [first, ..]) => {
                return match IRRELEVANT.iter().find(|(w, _)| w == first) {
                    Some((_, why)) => ignored(why),
                    None => (LineClass::NotUnderstood, Ctx::Unknown),
                };
            }
            (_, []) => return (LineClass::NotUnderstood, Ctx::Unknown),
        }
        understood(Ctx::Leaf)
    }

    /// `switchport trunk allowed vlan LIST | all | none | add L | remove L |
    /// except L`; under [`Trunk::OnlyListed`] (OS10) a plain list adds and
    /// `no ... L` removes.
    fn allowed(&mut self, i: usize, neg: bool, no: u32, body: &str, ops: &[&str]) -> Outcome {
        let trunk = self.spec.trunk;
        let current = self.cfg.interfaces[i]
            .allowed_vlans
            .as_ref()
            .map(|s| s.value);
        let (op, list) = match ops {
            ["add" | "remove" | "except", rest @ ..] => (ops[0], rest.join("")),
            rest => ("", rest.join("")),
        };
        let set = match vlans::parse(&list) {
            Ok(s) => s,
            Err(e) => {
                // The VLANs the port carries are unknown from here on.
                self.drafts[i].allowed_unreadable = Some(no);
                self.cfg.interfaces[i].allowed_vlans = None;
                return self.bad(no, body, e.to_string());
            }
        };
        if self.drafts[i].allowed_unreadable.is_some() {
            // An edit of a list that did not read is still unknown.
            let edits = matches!(op, "add" | "remove") || (trunk.lists_edit() && op != "except");
            if edits {
                let ifc = &mut self.cfg.interfaces[i];
                ifc.allowed_lines.push(no);
                return understood(Ctx::Leaf);
            }
            self.drafts[i].allowed_unreadable = None;
        }
        let base = current.unwrap_or_else(|| trunk.base());
        let new = match (neg, op, trunk) {
            (true, _, Trunk::OnlyListed(_)) => base.difference(&set),
            (true, _, Trunk::AllUnlessListed(_)) => VlanSet::all(),
            (false, "add", _) => base.union(&set),
            (false, "remove", _) => base.difference(&set),
            (false, "except", _) => VlanSet::all().difference(&set),
            (false, _, Trunk::OnlyListed(_)) => base.union(&set),
            (false, _, Trunk::AllUnlessListed(_)) => set,
        };
        let ifc = &mut self.cfg.interfaces[i];
        ifc.allowed_vlans = Some(Sourced::at(new, no));
        ifc.allowed_lines.push(no);
        understood(Ctx::Leaf)
    }
}

fn vlan_id(word: &str) -> Option<u16> {
    number(Some(&word), 1..=4094).map(|n| n as u16)
}

/// `speed 10000`, `speed auto`, `speed 25g`, `speed 100gfull`, EOS
/// `speed forced 10000full`, `speed auto 25gfull`.
pub(crate) fn parse_speed(words: &[&str]) -> Option<PortSpeed> {
    let words: Vec<&str> = words.iter().copied().filter(|w| *w != "forced").collect();
    let word = match words.as_slice() {
        ["auto"] => return Some(PortSpeed::Auto),
        ["auto", w] | [w] => *w,
        _ => return None,
    };
    let w = word.to_ascii_lowercase();
    let w = w.strip_suffix("full").unwrap_or(&w);
    let (digits, unit) = match w.strip_suffix('g') {
        Some(d) => (d, 1000),
        None => match w.strip_suffix('m') {
            Some(d) => (d, 1),
            None => (w, 1),
        },
    };
    let n: u32 =
        if digits.bytes().all(|b| b.is_ascii_digit()) && !digits.is_empty() && digits.len() < 8 {
            digits.parse().ok()?
        } else {
            return None;
        };
    let mbps = n.checked_mul(unit)?;
    (10..=1_600_000)
        .contains(&mbps)
        .then_some(PortSpeed::Mbps(mbps))
}
