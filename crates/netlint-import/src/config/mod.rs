//! `show running-config` of NX-OS, EOS, IOS / IOS-XE and OS10 into a
//! [`SwitchConfig`]. One reader for the four: their syntax is the same
//! indented block language; the dialect ([`vendors::VendorSpec`], one file
//! per vendor) decides the handful of commands that differ and the
//! defaults that fill what a config leaves out.

mod domain;
mod finish;
mod interface;
mod stp;
mod top;
pub mod vendors;

use std::collections::{BTreeMap, HashMap};

use crate::model::*;
use crate::names::IfName;
use crate::source::{self, Noise, SrcLine};
use crate::summary::{Ignored, ImportSummary, LineClass, Reason};

/// What a line opens: the block its indented children belong to.
#[derive(Clone, Debug)]
pub(crate) enum Ctx {
    Interface(usize),
    /// `vlan LIST`: the VLANs its children (`name`, `trunk group`) set.
    Vlans(Box<crate::vlans::VlanSet>),
    VpcDomain,
    MlagConfig,
    VltDomain,
    MstConfig,
    /// `policy-map type network-qos NAME`.
    NqPolicy(String),
    /// A class inside a network-qos policy: (policy, class).
    NqClass(String, String),
    SystemQos,
    /// NX-OS `class-map type qos [match-all|match-any] NAME`.
    QosClassMap(String),
    /// NX-OS `policy-map type qos NAME`.
    QosPolicy(String),
    /// A class inside a qos policy: (policy, class).
    QosPolicyClass(String, String),
    /// NX-OS `policy-map type queuing NAME`.
    QueuingPolicy(String),
    /// A class inside a queuing policy: (policy, class).
    QueuingClass(String, String),
    /// OS10 `class-map type queuing NAME` (`match queue N`).
    QueuingClassMap(String),
    /// OS10 `trust dot1p-map NAME` (`qos-group G dot1p LIST`).
    Dot1pMap(String),
    /// OS10 `qos-map traffic-class NAME` (`queue Q qos-group LIST`).
    TrafficClassMap(String),
    /// EOS `interface defaults`.
    InterfaceDefaults,
    /// EOS `tx-queue Q` under an interface: (interface, queue).
    TxQueue(usize, u8),
    /// A section known irrelevant: its children are ignored with it.
    Ignored(&'static str),
    /// A section not understood: its children are not understood either.
    Unknown,
    /// A line that opens nothing; a child under it is not understood.
    Leaf,
}

/// A network-qos policy as written, resolved once `system qos` names it.
#[derive(Clone, Debug, Default)]
pub(crate) struct NqPolicy {
    pub mtu: BTreeMap<String, Sourced<u32>>,
    pub no_drop: BTreeMap<u8, Sourced<bool>>,
}

/// An EOS transmit queue of a port: its `bandwidth percent` and a
/// `priority strict` line.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TxQueue {
    pub share: Option<Sourced<u32>>,
    pub strict: Option<u32>,
}

/// Interface facts while reading: mode lines are resolved at the end.
#[derive(Clone, Debug, Default)]
pub(crate) struct IfDraft {
    pub mode: Option<Sourced<PortMode>>,
    pub switchport: Option<u32>,
    pub no_switchport: Option<u32>,
    /// An allowed-VLAN line that did not read: the port's VLANs are then
    /// unknown, never the vendor default of a port without such a line.
    pub allowed_unreadable: Option<u32>,
}

pub(crate) struct Parser {
    /// The dialect: every vendor-dependent decision of the reader.
    pub spec: &'static vendors::VendorSpec,
    pub cfg: SwitchConfig,
    pub drafts: Vec<IfDraft>,
    pub if_index: HashMap<IfName, usize>,
    pub nq_policies: BTreeMap<String, NqPolicy>,
    /// NX-OS ETS: `class-map type qos` -> the CoS values it matches.
    pub qos_class_cos: BTreeMap<String, Vec<u8>>,
    /// `policy-map type qos` -> class -> `set qos-group N`.
    pub qos_policies: BTreeMap<String, BTreeMap<String, Sourced<u8>>>,
    /// `policy-map type queuing` -> class -> bandwidth percent.
    pub queuing_policies: BTreeMap<String, BTreeMap<String, Sourced<u32>>>,
    /// `system qos` / `service-policy type queuing output NAME`.
    pub queuing_policy: Option<Sourced<String>>,
    /// `service-policy type qos input NAME` (system qos, else the first
    /// port that applies one).
    pub qos_policy: Option<Sourced<String>>,
    /// OS10 ETS: `class-map type queuing` -> its queue.
    pub queuing_class_queue: BTreeMap<String, u8>,
    /// OS10 `trust dot1p-map` -> CoS -> qos-group.
    pub dot1p_maps: BTreeMap<String, BTreeMap<u8, u8>>,
    /// OS10 `qos-map traffic-class` -> qos-group -> queue.
    pub tc_maps: BTreeMap<String, BTreeMap<u8, u8>>,
    /// OS10 `trust-map dot1p NAME` in force (system qos, else a port's).
    pub dot1p_map: Option<Sourced<String>>,
    /// OS10 `qos-map traffic-class NAME` in force (system qos, else a port's).
    pub tc_map: Option<Sourced<String>>,
    /// EOS `qos map cos LIST to traffic-class T`: CoS -> traffic class.
    pub eos_cos_tc: BTreeMap<u8, Sourced<u8>>,
    /// EOS `qos map traffic-class LIST to tx-queue Q`: class -> queue.
    pub eos_tc_queue: BTreeMap<u8, Sourced<u8>>,
    /// EOS `tx-queue Q` per interface (by index): queue -> its lines.
    pub eos_tx_queues: BTreeMap<usize, BTreeMap<u8, TxQueue>>,
    pub system_default_switchport: Option<u32>,
    /// The VLANs a `vlan LIST` line has defined so far: a line repeating
    /// them costs one set difference, not a map lookup per VLAN.
    pub vlans_defined: crate::vlans::VlanSet,
    /// The open banner: its delimiter and first line.
    banner: Option<(String, u32)>,
}

/// The result of one line: its class and the block it opens.
pub(crate) type Outcome = (LineClass, Ctx);

pub(crate) fn understood(ctx: Ctx) -> Outcome {
    (LineClass::Understood, ctx)
}

pub(crate) fn ignored(why: &'static str) -> Outcome {
    (
        LineClass::Ignored(Ignored::Irrelevant(why)),
        Ctx::Ignored(why),
    )
}

/// Reads one running-config. Never fails: what it cannot read is listed
/// in the summary.
pub fn parse_config(file: &str, text: &str, vendor: Vendor) -> SwitchConfig {
    let lines = source::lines(text);
    let mut p = Parser {
        spec: vendor.spec(),
        cfg: SwitchConfig {
            file: file.to_string(),
            vendor,
            hostname: None,
            vlans: BTreeMap::new(),
            interfaces: Vec::new(),
            stp: crate::defaults::stp(vendor),
            mlag: None,
            mtu: SystemMtu::default(),
            dcb: Dcb::default(),
            breakouts: Vec::new(),
            // Replaced by the vendor's default layer when the last line is read.
            default_mode: Sourced::default_from(PortMode::Access, crate::defaults::VLAN1),
            provisioned: BTreeMap::new(),
            stack: None,
            summary: ImportSummary {
                classes: vec![LineClass::Understood; lines.len()],
                ..ImportSummary::default()
            },
        },
        drafts: Vec::new(),
        if_index: HashMap::new(),
        nq_policies: BTreeMap::new(),
        qos_class_cos: BTreeMap::new(),
        qos_policies: BTreeMap::new(),
        queuing_policies: BTreeMap::new(),
        queuing_policy: None,
        qos_policy: None,
        queuing_class_queue: BTreeMap::new(),
        dot1p_maps: BTreeMap::new(),
        tc_maps: BTreeMap::new(),
        dot1p_map: None,
        tc_map: None,
        eos_cos_tc: BTreeMap::new(),
        eos_tc_queue: BTreeMap::new(),
        eos_tx_queues: BTreeMap::new(),
        system_default_switchport: None,
        vlans_defined: crate::vlans::VlanSet::EMPTY,
        banner: None,
    };
    if let Some((no, text)) = source::stamp_note(&lines) {
        p.cfg.summary.note(no, text);
    }
    let mut stack: Vec<(usize, Ctx)> = Vec::new();
    for line in &lines {
        p.line(line, &mut stack);
    }
    if let Some((_, start)) = p.banner.take() {
        let text = lines[start as usize - 1].body().to_string();
        p.cfg
            .summary
            .not_understood(start, &text, Reason::UnterminatedBanner);
    }
    p.finish();
    p.cfg.summary.keep_ignored(&lines);
    p.cfg
}

/// Top-level words that open a section or stand alone, used to place a
/// line whose indentation a pager prompt destroyed.
const TOP_WORDS: &[&str] = &[
    "interface",
    "vlan",
    "hostname",
    "switchname",
    "spanning-tree",
    "vpc",
    "mlag",
    "vlt-domain",
    "router",
    "feature",
    "ip",
    "ipv6",
    "line",
    "banner",
    "username",
    "snmp-server",
    "logging",
    "ntp",
    "aaa",
    "policy-map",
    "class-map",
    "system",
    "management",
    "end",
    "version",
];

impl Parser {
    fn line(&mut self, line: &SrcLine<'_>, stack: &mut Vec<(usize, Ctx)>) {
        let no = line.no;
        if matches!(line.noise, Noise::Syslog | Noise::Pager) {
            self.cfg.summary.cleaned.push(no);
        }
        if let Some((delim, _)) = &self.banner {
            if line.unstamped().contains(delim.as_str()) {
                self.banner = None;
            }
            self.cfg
                .summary
                .set(no, LineClass::Ignored(Ignored::Banner));
            return;
        }
        let body = line.body();
        let class = match line.noise {
            Noise::Prompt | Noise::Only => Some(Ignored::Capture),
            _ if body.is_empty() => Some(Ignored::Blank),
            _ if body.starts_with('!') || body.starts_with('#') => Some(Ignored::Comment),
            _ if body.starts_with("Building configuration")
                || body.starts_with("Current configuration")
                || (body == "end" && line.indent.unwrap_or(0) == 0) =>
            {
                Some(Ignored::Capture)
            }
            _ => None,
        };
        if let Some(c) = class {
            self.cfg.summary.set(no, LineClass::Ignored(c));
            return;
        }
        let words: Vec<&str> = body.split_whitespace().collect();
        let indent = match line.indent {
            Some(i) => i,
            None if TOP_WORDS.contains(&words[0]) => 0,
            None => {
                // A pager took the indentation: the line belongs to the
                // innermost open block.
                while stack.last().is_some_and(|(_, c)| matches!(c, Ctx::Leaf)) {
                    stack.pop();
                }
                stack.last().map_or(0, |(i, _)| i + 1)
            }
        };
        while stack.last().is_some_and(|(i, _)| *i >= indent) {
            stack.pop();
        }
        let parent = if indent == 0 {
            None
        } else {
            stack.last().map(|(_, c)| c.clone())
        };
        let (class, opens) = match parent {
            None if words[0] == "banner" => self.banner_start(no, body),
            None => self.top(no, body, &words),
            Some(Ctx::Interface(i)) => self.interface(i, no, body, &words),
            Some(Ctx::Vlans(ids)) => self.vlan_child(*ids, no, body, &words),
            Some(Ctx::VpcDomain) => self.vpc_child(no, &words),
            Some(Ctx::MlagConfig) => self.mlag_child(no, &words),
            Some(Ctx::VltDomain) => self.vlt_child(no, &words),
            Some(Ctx::MstConfig) => self.mst_child(no, &words),
            Some(Ctx::NqPolicy(name)) => self.nq_policy_child(&name, &words),
            Some(Ctx::NqClass(policy, class)) => self.nq_class_child(&policy, &class, no, &words),
            Some(Ctx::SystemQos) => self.system_qos_child(no, &words),
            Some(Ctx::QosClassMap(name)) => self.qos_class_map_child(&name, &words),
            Some(Ctx::QosPolicy(name)) => match words.as_slice() {
                ["class", class] | ["class", "type", "qos", class] => {
                    understood(Ctx::QosPolicyClass(name, class.to_string()))
                }
                _ => ignored("qos"),
            },
            Some(Ctx::QosPolicyClass(policy, class)) => match words.as_slice() {
                ["set", "qos-group", g] => match number(Some(g), 0..=7) {
                    Some(g) => {
                        self.qos_policies
                            .entry(policy)
                            .or_default()
                            .insert(class, Sourced::at(g as u8, no));
                        understood(Ctx::Leaf)
                    }
                    None => (LineClass::NotUnderstood, Ctx::Unknown),
                },
                _ => ignored("qos"),
            },
            Some(Ctx::QueuingPolicy(name)) => match words.as_slice() {
                ["class", "type", "queuing", class] | ["class", class] => {
                    understood(Ctx::QueuingClass(name, class.to_string()))
                }
                _ => ignored("qos"),
            },
            Some(Ctx::QueuingClassMap(name)) => match words.as_slice() {
                ["match", "queue", q] => match number(Some(q), 0..=7) {
                    Some(q) => {
                        self.queuing_class_queue.insert(name, q as u8);
                        understood(Ctx::Leaf)
                    }
                    None => (LineClass::NotUnderstood, Ctx::Unknown),
                },
                _ => ignored("qos"),
            },
            Some(Ctx::Dot1pMap(name)) => match words.as_slice() {
                ["qos-group", g, "dot1p", list] => match (number(Some(g), 0..=7), small_list(list))
                {
                    (Some(g), Some(set)) => {
                        let map = self.dot1p_maps.entry(name).or_default();
                        for c in set {
                            map.insert(c, g as u8);
                        }
                        understood(Ctx::Leaf)
                    }
                    _ => (LineClass::NotUnderstood, Ctx::Unknown),
                },
                _ => ignored("qos"),
            },
            Some(Ctx::TrafficClassMap(name)) => match words.as_slice() {
                ["queue", q, "qos-group", list] => match (number(Some(q), 0..=7), small_list(list))
                {
                    (Some(q), Some(set)) => {
                        let map = self.tc_maps.entry(name).or_default();
                        for g in set {
                            map.insert(g, q as u8);
                        }
                        understood(Ctx::Leaf)
                    }
                    _ => (LineClass::NotUnderstood, Ctx::Unknown),
                },
                _ => ignored("qos"),
            },
            Some(Ctx::QueuingClass(policy, class)) => match words.as_slice() {
                ["bandwidth", "percent", p] | ["bandwidth", "remaining", "percent", p] => {
                    match number(Some(p), 0..=100) {
                        Some(p) => {
                            self.queuing_policies
                                .entry(policy)
                                .or_default()
                                .insert(class, Sourced::at(p, no));
                            understood(Ctx::Leaf)
                        }
                        None => (LineClass::NotUnderstood, Ctx::Unknown),
                    }
                }
                _ => ignored("qos"),
            },
            Some(Ctx::InterfaceDefaults) => self.interface_defaults_child(no, &words),
            Some(Ctx::TxQueue(i, q)) => {
                let queue = self
                    .eos_tx_queues
                    .entry(i)
                    .or_default()
                    .entry(q)
                    .or_default();
                match words.as_slice() {
                    ["bandwidth", "percent", p] => match number(Some(p), 0..=100) {
                        Some(p) => {
                            queue.share = Some(Sourced::at(p, no));
                            understood(Ctx::Leaf)
                        }
                        None => (LineClass::NotUnderstood, Ctx::Unknown),
                    },
                    ["priority", "strict"] => {
                        queue.strict = Some(no);
                        understood(Ctx::Leaf)
                    }
                    ["no", "priority"] => {
                        queue.strict = None;
                        understood(Ctx::Leaf)
                    }
                    _ => ignored("qos"),
                }
            }
            Some(Ctx::Ignored(why)) => ignored(why),
            Some(Ctx::Unknown) | Some(Ctx::Leaf) => (LineClass::NotUnderstood, Ctx::Unknown),
        };
        match class {
            LineClass::NotUnderstood => {
                if self.cfg.summary.class(no) != Some(LineClass::NotUnderstood) {
                    self.cfg
                        .summary
                        .not_understood(no, body, Reason::UnknownCommand);
                }
            }
            c => self.cfg.summary.set(no, c),
        }
        // A line whose indentation a pager destroyed opens no block its
        // followers could be placed in, unless it starts a section.
        if line.indent.is_some() || indent == 0 {
            stack.push((indent, opens));
        }
    }

    /// Marks a line as a known command with a value that does not read.
    pub(crate) fn bad(&mut self, no: u32, body: &str, why: String) -> Outcome {
        self.cfg
            .summary
            .not_understood(no, body, Reason::BadValue(why));
        (LineClass::NotUnderstood, Ctx::Unknown)
    }

    /// `banner motd ^C ... ^C`, `banner motd #...#`, EOS `banner motd` to
    /// a line `EOF`, OS10 `banner motd %...%`.
    fn banner_start(&mut self, no: u32, body: &str) -> Outcome {
        let mut words = body.split_whitespace();
        words.next();
        let _kind = words.next();
        let rest = body
            .splitn(3, char::is_whitespace)
            .nth(2)
            .unwrap_or("")
            .trim();
        let delim: String = if rest.is_empty() {
            "EOF".to_string()
        } else if rest.starts_with("^C") {
            "^C".to_string()
        } else if rest.starts_with('\u{3}') {
            "\u{3}".to_string()
        } else {
            rest.chars().next().map(String::from).unwrap_or_default()
        };
        let after = if rest.is_empty() {
            ""
        } else {
            &rest[delim.len()..]
        };
        if rest.is_empty() || !after.contains(delim.as_str()) {
            self.banner = Some((delim, no));
        }
        (LineClass::Ignored(Ignored::Banner), Ctx::Ignored("banner"))
    }

    /// The interface with this name, created on first sight.
    pub(crate) fn interface_entry(&mut self, name: IfName, written: &str, no: u32) -> usize {
        if let Some(i) = self.if_index.get(&name) {
            return *i;
        }
        let idx = self.cfg.interfaces.len();
        self.if_index.insert(name.clone(), idx);
        self.cfg.interfaces.push(Interface {
            name,
            written: written.to_string(),
            line: no,
            mode: Sourced::at(PortMode::Access, no),
            access_vlan: None,
            native_vlan: None,
            allowed_vlans: None,
            allowed_lines: Vec::new(),
            mtu: None,
            l2_mtu: None,
            speed: None,
            shutdown: None,
            description: None,
            channel_group: None,
            mc_lag: None,
            trunk_groups: Vec::new(),
            stp: PortStp::default(),
            pfc: None,
            pfc_no_drop: BTreeMap::new(),
        });
        self.drafts.push(IfDraft::default());
        idx
    }
}

/// The text after the first `n` words of `body`, as written.
pub(crate) fn rest_after(body: &str, n: usize) -> &str {
    let mut rest = body.trim_start();
    for _ in 0..n {
        rest = rest.trim_start();
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        rest = &rest[end..];
    }
    rest.trim()
}

/// A decimal number within `range`.
pub(crate) fn number(word: Option<&&str>, range: std::ops::RangeInclusive<u32>) -> Option<u32> {
    let w = word?;
    if w.is_empty() || w.len() > 10 || !w.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    w.parse::<u32>().ok().filter(|n| range.contains(n))
}

/// A list of priorities or groups 0 to 7: `0-2,4-6`, `3`.
pub(crate) fn small_list(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    for part in text.split(',') {
        let (lo, hi) = match part.split_once('-') {
            Some((a, b)) => (a.parse::<u8>().ok()?, b.parse::<u8>().ok()?),
            None => {
                let n = part.parse::<u8>().ok()?;
                (n, n)
            }
        };
        if lo > hi || hi > 7 {
            return None;
        }
        out.extend(lo..=hi);
    }
    Some(out)
}
