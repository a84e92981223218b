//! Design text -> validated [`Design`], reporting every problem at once.
//!
//! The TOML is parsed into a span-carrying tree; profiles are merged onto
//! hosts on that tree (key by key, so each leaf keeps the span of the line
//! that set it), and every element is then read with [`Reader`], which
//! collects unknown keys, wrong types, bad values and dangling references.

use crate::design::*;
use crate::diag::{Diagnostic, Severity};
use crate::element::{Element, Part};
use crate::reader::{did_you_mean, span_of, Reader, Table, Value};
use crate::span::{SourceFile, Sp, Span};
use crate::text::{escape, is_unsafe};
use crate::units::{Bandwidth, Duration, Mtu, MtuForm, MAX_FRAME, MAX_MTU, MIN_MTU};
use std::collections::{BTreeMap, HashMap};
use toml::de::{DeTable, DeValue};

mod stp;
mod topo;
use topo::written_names;
mod ports;
mod storage;

/// The result of loading one design file.
pub struct Loaded {
    /// None when the file has syntax errors or misses `[design]`.
    pub design: Option<Design>,
    /// Input diagnostics (`syntax`, `schema`), sorted by position.
    pub diagnostics: Vec<Diagnostic>,
}

const TOP_KEYS: &[&str] = &[
    "design", "networks", "switches", "links", "profiles", "hosts", "storage", "netlint",
];
const DESIGN_KEYS: &[&str] = &["name", "platform", "drain_budget"];
const NETWORK_KEYS: &[&str] = &[
    "role",
    "vlan",
    "subnet",
    "mtu",
    "protocol",
    "cluster_use",
    "allow",
];
const SWITCH_KEYS: &[&str] = &[
    "model",
    "tier",
    "mtu",
    "frame_size",
    "vlans",
    "stack",
    "mlag",
    "host_ports",
    "stp",
    "dcb",
    "max_mtu",
    "managed",
    "ports",
    "allow",
];
const HOST_PORTS_KEYS: &[&str] = &["edge", "bpdu_guard", "native_vlan"];
const STP_KEYS: &[&str] = &[
    "mode",
    "priority",
    "mac",
    "region",
    "revision",
    "instances",
    "instance_priority",
    "vlan_priority",
    "path_cost",
    "disabled_vlans",
    "peer_switch",
];
const SWITCH_DCB_KEYS: &[&str] = &["pfc", "ets"];
const LINK_KEYS: &[&str] = &[
    "name",
    "a",
    "b",
    "speed",
    "members",
    "lag",
    "kind",
    "vlans",
    "stp_cost",
    "mtu",
    "frame_size",
    "native_vlan",
    "native_vlan_a",
    "native_vlan_b",
    "port_a",
    "port_b",
    "allow",
];
const PROFILE_KEYS: &[&str] = &[
    "os",
    "memory_gb",
    "power",
    "cluster",
    "nics",
    "teams",
    "vswitches",
    "live_migration",
    "dcb",
    "allow",
];
const HOST_KEYS: &[&str] = &[
    "profile",
    "os",
    "memory_gb",
    "power",
    "cluster",
    "nics",
    "teams",
    "vswitches",
    "live_migration",
    "dcb",
    "allow",
];
const NIC_KEYS: &[&str] = &[
    "card",
    "model",
    "speed",
    "switch",
    "port",
    "switch_port",
    "peer",
    "mtu",
    "jumbo_packet",
    "rdma",
    "networks",
    "allow",
];
const TEAM_KEYS: &[&str] = &[
    "kind",
    "members",
    "mode",
    "load_balancing",
    "standby",
    "switch_lag",
    "networks",
    "mtu",
    "allow",
];
const VSWITCH_KEYS: &[&str] = &[
    "kind",
    "uplinks",
    "load_balancing",
    "networks",
    "mtu",
    "default_flow_weight",
    "vnics",
    "switch_lag",
    "allow",
];
const VNIC_KEYS: &[&str] = &[
    "network",
    "mtu",
    "rdma",
    "min_bandwidth_weight",
    "active_uplinks",
    "standby_uplinks",
    "iscsi_port_binding",
    "allow",
];
const LM_KEYS: &[&str] = &[
    "transport",
    "networks",
    "simultaneous",
    "smb_bandwidth_limit",
];
const HOST_DCB_KEYS: &[&str] = &["willing", "pfc", "ets", "policies"];
const POLICY_KEYS: &[&str] = &["name", "match", "priority"];
const LINT_KEYS: &[&str] = &["fail_on", "stack_as_unit", "rules"];

/// The largest `memory_gb` (GiB): 64 TiB, above any server built so far.
pub const MAX_MEMORY_GB: f64 = 65536.0;
/// The longest `drain_budget`: a week.
pub const MAX_DRAIN_BUDGET_S: u64 = 7 * 24 * 3600;

/// Default OS when neither the design nor the host names one.
pub const DEFAULT_PLATFORM: Platform = Platform::Ws2019;

/// Loads and validates a design file.
pub fn load(file: &SourceFile) -> Loaded {
    let (root, errors) = DeTable::parse_recoverable(&file.text);
    if !errors.is_empty() {
        return Loaded {
            design: None,
            diagnostics: syntax_diagnostics(file, &errors),
        };
    }
    let mut b = Builder::default();
    check_text(root.get_ref(), None, &mut b.r);
    let design = b.design(root.get_ref(), file);
    let mut diagnostics = b.r.diags;
    finish(&mut diagnostics);
    let design = if diagnostics.iter().any(|d| d.severity == Severity::Error) {
        None
    } else {
        design
    };
    Loaded {
        design,
        diagnostics,
    }
}

/// Reads a `netlint.toml` (only a `[netlint]` table).
pub fn parse_lint_settings(file: &SourceFile) -> (LintSettings, Vec<Diagnostic>) {
    let (root, errors) = DeTable::parse_recoverable(&file.text);
    if !errors.is_empty() {
        return (LintSettings::default(), syntax_diagnostics(file, &errors));
    }
    let mut r = Reader::default();
    check_text(root.get_ref(), None, &mut r);
    r.check_keys(root.get_ref(), &["netlint"], "netlint.toml");
    let settings = match r.table(root.get_ref(), "netlint") {
        Some((span, t)) => lint_settings(&mut r, span, t),
        None => LintSettings::default(),
    };
    let mut diags = r.diags;
    finish(&mut diags);
    (settings, diags)
}

/// Sorts and removes duplicates (a profile's bad value is found once per host).
fn finish(diags: &mut Vec<Diagnostic>) {
    diags.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    diags.dedup_by(|a, b| a.primary == b.primary && a.message == b.message);
}

/// The parser recovers and reports cascades; each real error once is what
/// a person can act on (see [`crate::syntax`]).
fn syntax_diagnostics(file: &SourceFile, errors: &[toml::de::Error]) -> Vec<Diagnostic> {
    crate::syntax::diagnostics(file, errors)
}

/// Refuses control characters (and bidirectional controls) in every key
/// and string value: names are printed to terminals and drawn in diagrams.
/// Free text (`model`, an `allow` reason) may hold line breaks and tabs.
fn check_text(t: &Table<'_>, parent: Option<&str>, r: &mut Reader) {
    fn bad(s: &str, free_text: bool) -> Option<char> {
        s.chars()
            .find(|&c| is_unsafe(c) && !(free_text && matches!(c, '\n' | '\t' | '\r')))
    }
    fn value(key: &str, v: &Value<'_>, free_text: bool, r: &mut Reader) {
        match v.get_ref() {
            DeValue::String(s) => {
                if let Some(c) = bad(s, free_text) {
                    r.error_help(
                        span_of(v),
                        format!(
                            "`{}` = \"{}\" contains the control character U+{:04X}",
                            escape(key),
                            escape(s),
                            c as u32
                        ),
                        "names and values are printed to terminals and diagrams: remove the character",
                    );
                }
            }
            DeValue::Array(items) => {
                for item in items.iter() {
                    value(key, item, free_text, r);
                }
            }
            DeValue::Table(t) => check_text(t, Some(key), r),
            _ => {}
        }
    }
    for (k, v) in t.iter() {
        let key: &str = k.get_ref();
        if let Some(c) = bad(key, false) {
            r.error_help(
                span_of(k),
                format!(
                    "the name `{}` contains the control character U+{:04X}",
                    escape(key),
                    c as u32
                ),
                "names are printed to terminals and diagrams: remove the character",
            );
        }
        let free_text = key == "model" || parent == Some("allow");
        value(key, v, free_text, r);
    }
}

/// How many dots a key may have before the TOML parser stops with a
/// "recursion limit" error (its nesting limit, 80 levels).
pub(crate) const KEY_DEPTH_LIMIT: usize = 80;

/// The parser reports a dotted key or header nested past its limit without
/// a position: the first key with that many dots (outside quotes) is it.
pub(crate) fn deepest_key(text: &str) -> Option<std::ops::Range<usize>> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        // The longest run of dotted key parts on the line (quoted parts
        // count as parts; a value like 2.5 is one dot at most).
        let (mut dots, mut most) = (0, 0);
        let mut quote = None;
        for c in line.chars() {
            match (quote, c) {
                (None, '"' | '\'') => quote = Some(c),
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '.') => dots += 1,
                (None, '#') => break,
                (None, c) if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ' ' | '\t') => {}
                (None, _) => dots = 0,
            }
            most = most.max(dots);
        }
        if most >= KEY_DEPTH_LIMIT {
            let start = offset + (line.len() - line.trim_start().len());
            return Some(start..offset + line.trim_end().len());
        }
        offset += line.len();
    }
    None
}

#[derive(Default)]
struct Builder {
    r: Reader,
    networks: Vec<Network>,
    switches: Vec<Switch>,
    /// Name to index, so a reference resolves in constant time whatever
    /// the design's size.
    network_ids: HashMap<String, usize>,
    switch_ids: HashMap<String, usize>,
    allows: Vec<(Element, AllowEntry)>,
}

/// The hosts' names in design order, and indexed, for `peer` references.
struct HostNames {
    list: Vec<String>,
    ids: HashMap<String, usize>,
}

/// Each name with its position.
fn name_index<'n>(names: impl Iterator<Item = &'n String>) -> HashMap<String, usize> {
    names.enumerate().map(|(i, n)| (n.clone(), i)).collect()
}

impl HostNames {
    fn new(list: Vec<String>) -> Self {
        let ids = name_index(list.iter());
        HostNames { list, ids }
    }

    fn strs(&self) -> impl Iterator<Item = &str> {
        self.list.iter().map(String::as_str)
    }
}

/// A name read from a design: a map key, with its span.
fn entries<'t, 'i>(t: &'t Table<'i>) -> impl Iterator<Item = (String, Span, &'t Value<'i>)> {
    t.iter()
        .map(|(k, v)| (k.get_ref().to_string(), span_of(k), v))
}

/// The element span: for `[x.y]` tables the header, for inline tables the
/// value; implicit tables (`[hosts.h.nics.A]` makes `nics` implicit) have the key.
fn element_span(key: Span, v: &Value<'_>) -> Span {
    let s = span_of(v);
    if s.is_empty() {
        key
    } else {
        s
    }
}

impl Builder {
    fn design(&mut self, root: &Table<'_>, file: &SourceFile) -> Option<Design> {
        self.r.check_keys(root, TOP_KEYS, "a design file");

        let design_table = self.r.table(root, "design");
        if design_table.is_none() && Reader::get(root, "design").is_none() {
            let at = Span::new(
                0,
                file.text
                    .find('\n')
                    .unwrap_or(file.text.len())
                    .min(file.text.len()),
            );
            self.r.error_help(
                at,
                "the design has no `[design]` table",
                "start the file with:\n[design]\nname = \"my-cluster\"\nplatform = \"windows-server-2019\"",
            );
        }
        let mut name = None;
        let mut platform = Sp::new(DEFAULT_PLATFORM, Span::default());
        let mut drain_budget = None;
        let mut design_span = Span::default();
        if let Some((span, t)) = design_table {
            design_span = span;
            platform.span = span;
            self.r.check_keys(t, DESIGN_KEYS, "[design]");
            name = self.r.str(t, "name");
            self.r
                .require(t, "name", span, "[design]", "\"my-cluster\"");
            if let Some(p) = self.r.enum_::<Platform>(t, "platform") {
                platform = p;
            }
            drain_budget = self.r.parsed(t, "drain_budget", |s| {
                let d = Duration::parse(s)?;
                if (1..=MAX_DRAIN_BUDGET_S).contains(&d.seconds) {
                    Ok(d)
                } else {
                    Err(format!(
                        "`drain_budget = \"{s}\"` is out of range: it must be from 1s to {}",
                        Duration {
                            seconds: MAX_DRAIN_BUDGET_S
                        }
                    ))
                }
            });
        }

        if let Some((_, t)) = self.r.table(root, "networks") {
            for (n, key, v) in entries(t) {
                if let Some(net) = self.network(n, key, v) {
                    self.networks.push(net);
                }
            }
        }
        self.network_ids = name_index(self.networks.iter().map(|n| &n.name));
        if let Some((_, t)) = self.r.table(root, "switches") {
            for (n, key, v) in entries(t) {
                if let Some(sw) = self.switch(n, key, v) {
                    self.switches.push(sw);
                }
            }
        }
        self.switch_ids = name_index(self.switches.iter().map(|s| &s.name));
        let mut links = Vec::new();
        if let Some((_, items)) = self.r.array(root, "links") {
            for (i, v) in items.iter().enumerate() {
                if let Some(l) = self.link(i, v) {
                    links.push(l);
                }
            }
        }
        self.check_link_names(&links);
        self.check_link_kinds(&links);
        self.check_link_mtu_limits(&links);
        self.check_routed_and_unmanaged(&links);

        // Profiles: checked once on their own; merged onto hosts below.
        let mut profiles = Vec::new();
        let mut profile_tables: Vec<(String, Span, &Table<'_>)> = Vec::new();
        if let Some((_, t)) = self.r.table(root, "profiles") {
            for (n, key, v) in entries(t) {
                if let Some((span, pt)) = self.r.as_table(&format!("profiles.{n}"), v) {
                    let span = element_span(key, v).min(span.max(key));
                    self.r
                        .check_keys(pt, PROFILE_KEYS, &format!("profile `{n}`"));
                    profiles.push(Profile {
                        name: n.clone(),
                        span: element_span(key, v),
                    });
                    profile_tables.push((n, span, pt));
                }
            }
        }

        let host_entries: Vec<(String, Span, &Value<'_>)> = match self.r.table(root, "hosts") {
            Some((_, t)) => entries(t).collect(),
            None => Vec::new(),
        };
        let host_names = HostNames::new(host_entries.iter().map(|(n, _, _)| n.clone()).collect());
        let mut hosts = Vec::new();
        let mut used_profiles = vec![false; profile_tables.len()];
        let mut peers: Vec<PendingPeer> = Vec::new();
        for (n, key, v) in &host_entries {
            let Some((_, ht)) = self.r.as_table(&format!("hosts.{n}"), v) else {
                continue;
            };
            let span = element_span(*key, v);
            let profile = self.r.str(ht, "profile");
            let merged;
            let table: &Table<'_> = match &profile {
                Some(p) => match profile_tables.iter().position(|(pn, _, _)| *pn == p.value) {
                    Some(i) => {
                        used_profiles[i] = true;
                        let mut base = profile_tables[i].2.clone();
                        merge(&mut base, ht);
                        merged = base;
                        &merged
                    }
                    None => {
                        let hint = did_you_mean(
                            &p.value,
                            profile_tables.iter().map(|(pn, _, _)| pn.as_str()),
                        );
                        self.r.error_help(
                            p.span,
                            format!("unknown profile `{}`{hint}", p.value),
                            defined_list(
                                "profiles",
                                profile_tables.iter().map(|(pn, _, _)| pn.as_str()),
                            ),
                        );
                        ht
                    }
                },
                None => ht,
            };
            let mut host = self.host(
                n,
                span,
                profile,
                table,
                &platform,
                &host_names,
                &mut peers,
                hosts.len(),
                true,
            );
            if host.profile.is_some() {
                own_spans(ht, &mut host.overrides);
            }
            hosts.push(host);
        }
        // Profiles no host uses are still checked, as if a host used them.
        for (i, (n, span, pt)) in profile_tables.iter().enumerate() {
            if !used_profiles[i] {
                let mut scratch = Vec::new();
                let _ = self.host(
                    n,
                    *span,
                    None,
                    pt,
                    &platform,
                    &host_names,
                    &mut scratch,
                    usize::MAX,
                    false,
                );
            }
        }
        self.resolve_peers(&mut hosts, peers);
        self.check_unmanaged_host_cables(&hosts);
        let storage = self.storage(root, &hosts);
        self.check_port_use(&hosts, &links);

        let lint = match self.r.table(root, "netlint") {
            Some((span, t)) => lint_settings(&mut self.r, span, t),
            None => LintSettings::default(),
        };

        let name = name?;
        design_table?;
        Some(Design {
            name,
            span: design_span,
            platform,
            drain_budget,
            networks: std::mem::take(&mut self.networks),
            switches: std::mem::take(&mut self.switches),
            links,
            profiles,
            hosts,
            storage,
            lint,
            allows: std::mem::take(&mut self.allows),
        })
    }

    fn allow(&mut self, t: &Table<'_>, element: Element) {
        let Some((_, at)) = self.r.table(t, "allow") else {
            return;
        };
        for (rule, key, v) in entries(at) {
            match v.get_ref() {
                DeValue::String(reason) if !reason.trim().is_empty() => self.allows.push((
                    element.clone(),
                    AllowEntry {
                        rule: Sp::new(rule, key),
                        reason: reason.to_string(),
                    },
                )),
                DeValue::String(_) => self.r.error_help(
                    span_of(v),
                    format!("`allow` for `{rule}` has an empty reason"),
                    format!("say why the rule does not apply here: `{rule} = \"reason\"`"),
                ),
                _ => self.r.error_help(
                    span_of(v),
                    format!("`allow` for `{rule}` needs a reason string"),
                    format!("write `{rule} = \"why this is fine here\"`"),
                ),
            }
        }
    }

    /// A virtual switch's `load_balancing`, kept when the host's platform
    /// has it: SET takes `hyperv-port` or `dynamic`, ESXi its own policies
    /// (`physical-nic-load` on a distributed switch only).
    fn platform_load_balancing(
        &mut self,
        lb: Sp<LoadBalancing>,
        os: Platform,
        kind: Option<&Sp<VSwitchKind>>,
    ) -> Option<Sp<LoadBalancing>> {
        let values = |names: &[&str]| {
            let q: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            match q.split_last() {
                Some((last, init)) if !init.is_empty() => format!("{} or {last}", init.join(", ")),
                _ => q.join(""),
            }
        };
        if os.is_vsphere() {
            if !LoadBalancing::VSPHERE.contains(&lb.value.as_str()) {
                self.r.error_help(
                    lb.span,
                    format!(
                        "`{}` is not a teaming policy of an ESXi virtual switch ({os})",
                        lb.value
                    ),
                    format!(
                        "a vSwitch or vDS takes {} (`lacp` and `physical-nic-load` on a vDS only)",
                        values(LoadBalancing::VSPHERE)
                    ),
                );
                return None;
            }
            if lb.value == LoadBalancing::PhysicalNicLoad
                && kind.is_some_and(|k| k.value == VSwitchKind::Vss)
            {
                self.r.error_help(
                    lb.span,
                    "`physical-nic-load` (Route based on physical NIC load) exists on a distributed switch only, not on a standard vSwitch (`kind = \"vss\"`)",
                    "move the uplinks to a vDS, or use `originating-port` on the standard vSwitch",
                );
                return None;
            }
        } else if !LoadBalancing::SET.contains(&lb.value.as_str()) {
            self.r.error_help(
                lb.span,
                format!(
                    "`{}` is not a load-balancing algorithm of a Hyper-V virtual switch (Switch Embedded Teaming) on {os}",
                    lb.value
                ),
                format!(
                    "Switch Embedded Teaming takes {} (Microsoft recommends `hyperv-port`)",
                    values(LoadBalancing::SET)
                ),
            );
            return None;
        }
        Some(lb)
    }

    fn network_ref(&mut self, s: &Sp<String>) -> Option<Sp<NetworkId>> {
        match self.network_ids.get(&s.value).copied() {
            Some(i) => Some(Sp::new(NetworkId(i), s.span)),
            None => {
                let hint = did_you_mean(&s.value, self.networks.iter().map(|n| n.name.as_str()));
                self.r.error_help(
                    s.span,
                    format!("unknown network `{}`{hint}", s.value),
                    defined_list("networks", self.networks.iter().map(|n| n.name.as_str())),
                );
                None
            }
        }
    }

    fn network_list(&mut self, t: &Table<'_>, key: &str) -> Vec<Sp<NetworkId>> {
        let Some((_, names)) = self.r.str_list(t, key) else {
            return Vec::new();
        };
        names.iter().filter_map(|s| self.network_ref(s)).collect()
    }

    fn switch_ref(&mut self, s: &Sp<String>) -> Option<Sp<SwitchId>> {
        self.switch_ref_except(s, &[])
    }

    /// A switch reference whose suggestion, if any, is none of `except`:
    /// a link's end is never suggested to be its other end (a link from a
    /// switch to itself is another error).
    fn switch_ref_except(&mut self, s: &Sp<String>, except: &[String]) -> Option<Sp<SwitchId>> {
        match self.switch_ids.get(&s.value).copied() {
            Some(i) => Some(Sp::new(SwitchId(i), s.span)),
            None => {
                let hint = did_you_mean(
                    &s.value,
                    self.switches
                        .iter()
                        .map(|n| n.name.as_str())
                        .filter(|n| !except.iter().any(|e| e == n)),
                );
                self.r.error_help(
                    s.span,
                    format!("unknown switch `{}`{hint}", s.value),
                    defined_list("switches", self.switches.iter().map(|n| n.name.as_str())),
                );
                None
            }
        }
    }

    /// `mtu = N` or the vendor form (`jumbo_packet`, `frame_size`), never both.
    fn mtu(&mut self, t: &Table<'_>, vendor_key: Option<&str>, what: &str) -> Option<Sp<Mtu>> {
        let range = MIN_MTU as i64..=MAX_MTU as i64;
        let range_text =
            format!("from {MIN_MTU} to {MAX_MTU} (the largest payload, 1500 standard, 9000 jumbo)");
        let plain = self
            .r
            .int(t, "mtu", range, &range_text)
            .map(|v| v.map(|n| Mtu::mtu(n as u32)));
        let Some(vk) = vendor_key else {
            return plain;
        };
        let vendor = match vk {
            "jumbo_packet" => self
                .r
                .int(t, vk, (MIN_MTU + 14) as i64..=(MAX_MTU + 14) as i64, &format!("from {} to {} (the MTU plus the 14-byte header: 1514 standard, 9014 jumbo)", MIN_MTU + 14, MAX_MTU + 14))
                .map(|v| v.map(|n| Mtu::from_jumbo_packet(n as u32))),
            _ => self
                .r
                .int(t, vk, (MIN_MTU + 18) as i64..=MAX_FRAME as i64, &format!("from {} to {MAX_FRAME} (the frame: MTU + 14 header + 4 FCS)", MIN_MTU + 18))
                .map(|v| v.map(|n| Mtu::from_frame_size(n as u32))),
        };
        if let (Some((ps, _)), Some((vs, _))) = (Reader::get(t, "mtu"), Reader::get(t, vk)) {
            self.r.diags.push(
                Diagnostic::schema(vs, format!("{what} sets both `mtu` and `{vk}`"))
                    .with_related(ps, "`mtu` set here")
                    .with_help(format!(
                        "keep one of them: `{vk}` is the vendor form of the same value"
                    )),
            );
            return None;
        }
        plain.or(vendor)
    }

    fn network(&mut self, name: String, key: Span, v: &Value<'_>) -> Option<Network> {
        let what = format!("network `{name}`");
        let (_, t) = self.r.as_table(&format!("networks.{name}"), v)?;
        let span = element_span(key, v);
        self.r.check_keys(t, NETWORK_KEYS, &what);
        let role = self.r.enum_::<Role>(t, "role");
        self.r.require(t, "role", span, &what, "\"csv\"");
        let vlan = self
            .r
            .int(t, "vlan", 0..=4094, "from 1 to 4094, or 0 for untagged")
            .and_then(|v| (v.value != 0).then(|| v.map(|n| n as u16)));
        let subnet = self.r.parsed(t, "subnet", Subnet::parse);
        let mtu = self
            .mtu(t, None, &what)
            .unwrap_or(Sp::new(Mtu::STANDARD, span));
        let protocol = self.r.enum_::<Protocol>(t, "protocol");
        let explicit_use = self.r.enum_::<ClusterUse>(t, "cluster_use");
        self.allow(t, Element::Network(name.to_string()));
        let role = role?;
        let cluster_use = explicit_use.unwrap_or_else(|| {
            let u = match role.value {
                Role::Management => ClusterUse::ClusterAndClient,
                Role::Cluster | Role::Csv | Role::LiveMigration => ClusterUse::Cluster,
                Role::Storage
                    if matches!(protocol.as_ref().map(|p| p.value), Some(Protocol::Smb)) =>
                {
                    ClusterUse::Cluster
                }
                _ => ClusterUse::None,
            };
            Sp::new(u, role.span)
        });
        Some(Network {
            name,
            span,
            role,
            vlan,
            subnet,
            mtu,
            protocol,
            cluster_use,
        })
    }

    fn switch(&mut self, name: String, key: Span, v: &Value<'_>) -> Option<Switch> {
        let what = format!("switch `{name}`");
        let (_, t) = self.r.as_table(&format!("switches.{name}"), v)?;
        let span = element_span(key, v);
        self.r.check_keys(t, SWITCH_KEYS, &what);
        let model = self.r.str(t, "model");
        let tier = self
            .r
            .enum_::<Tier>(t, "tier")
            .unwrap_or(Sp::new(Tier::Access, span));
        let mtu = self
            .mtu(t, Some("frame_size"), &what)
            .unwrap_or(Sp::new(Mtu::STANDARD, span));
        let vlans = self.r.vlan_list(t, "vlans");
        let stack = self.r.str(t, "stack");
        let mlag = self.r.str(t, "mlag");
        let mut host_ports = HostPorts::default();
        if let Some((hs, ht)) = self.r.table(t, "host_ports") {
            self.r.check_keys(ht, HOST_PORTS_KEYS, "`host_ports`");
            host_ports = HostPorts {
                span: Some(hs),
                edge: self.r.bool(ht, "edge"),
                bpdu_guard: self.r.bool(ht, "bpdu_guard"),
                native_vlan: self.vlan_id(ht, "native_vlan"),
            };
        }
        let stp = self.stp(t, span, &what);
        self.check_peer_switch(&stp, mlag.as_ref(), &what);
        let mtu_limit = self.mtu_limit(t, model.as_ref(), &mtu, &what);
        let dcb = self.r.table(t, "dcb").map(|(ds, dt)| {
            self.r.check_keys(dt, SWITCH_DCB_KEYS, "switch `dcb`");
            SwitchDcb {
                span: ds,
                pfc: self.priorities(dt, "pfc"),
                ets: self.ets(dt),
            }
        });
        let managed = self.r.bool(t, "managed");
        self.check_unmanaged_keys(t, managed.as_ref(), &name);
        let stp = topo::unmanaged_stp(stp, managed.as_ref());
        let ports = self.switch_ports(t, &name);
        self.allow(t, Element::Switch(name.to_string()));
        Some(Switch {
            name,
            span,
            model,
            tier,
            mtu,
            vlans,
            stack,
            mlag,
            host_ports,
            stp,
            dcb,
            mtu_limit,
            managed,
            ports,
        })
    }

    fn bridge_priority(&mut self, key: &str, v: &Value<'_>) -> Option<Sp<u32>> {
        let p = self
            .r
            .as_int(key, v, 0..=61440, "from 0 to 61440 in steps of 4096")?;
        if p.value % 4096 != 0 {
            let lower = p.value / 4096 * 4096;
            self.r.error_help(
                p.span,
                format!("bridge priority {} is not a multiple of 4096", p.value),
                format!("use {} or {}", lower, (lower + 4096).min(61440)),
            );
            return None;
        }
        Some(p.map(|n| n as u32))
    }

    fn stp(&mut self, t: &Table<'_>, span: Span, what: &str) -> Stp {
        let mut stp = Stp {
            span: None,
            mode: Sp::new(StpMode::Rstp, span),
            priority: None,
            mac: None,
            region: None,
            revision: None,
            instances: None,
            instance_priority: BTreeMap::new(),
            vlan_priority: BTreeMap::new(),
            path_cost: None,
            disabled_vlans: None,
            peer_switch: None,
        };
        let Some((ss, st)) = self.r.table(t, "stp") else {
            return stp;
        };
        stp.span = Some(ss);
        self.r.check_keys(st, STP_KEYS, &format!("`stp` of {what}"));
        if let Some(m) = self.r.enum_::<StpMode>(st, "mode") {
            stp.mode = m;
        }
        if let Some((_, v)) = Reader::get(st, "priority") {
            stp.priority = self.bridge_priority("priority", v);
        }
        stp.mac = self.r.parsed(st, "mac", parse_mac);
        stp.region = self.r.str(st, "region");
        stp.revision = self
            .r
            .int(st, "revision", 0..=65535, "from 0 to 65535")
            .map(|v| v.map(|n| n as u32));
        if let Some((is, it)) = self.r.table(st, "instances") {
            let mut map: BTreeMap<u16, crate::units::VlanSet> = BTreeMap::new();
            let mut owner: HashMap<u16, u16> = HashMap::new();
            for (k, ks, v) in entries(it) {
                let Some(inst) = parse_instance(&mut self.r, &k, ks) else {
                    continue;
                };
                if inst == 0 {
                    self.r.error_help(
                        ks,
                        "instance 0 is the IST: it holds every VLAN not mapped elsewhere",
                        "map VLANs to instances 1 to 4094 only",
                    );
                    continue;
                }
                if let Some(set) = self.r.as_vlan_list("instances", v) {
                    for vlan in set.value.iter() {
                        if let Some(prev) = owner.insert(vlan, inst) {
                            if prev != inst {
                                self.r.error(span_of(v), format!("VLAN {vlan} is mapped to both instance {prev} and instance {inst}"));
                            }
                        }
                    }
                    map.insert(inst, set.value);
                }
            }
            stp.instances = Some(Sp::new(map, is));
        }
        if let Some((_, it)) = self.r.table(st, "instance_priority") {
            for (k, ks, v) in entries(it) {
                if let Some(inst) = parse_instance(&mut self.r, &k, ks) {
                    if let Some(p) = self.bridge_priority("instance_priority", v) {
                        stp.instance_priority.insert(inst, p);
                    }
                }
            }
        }
        self.stp_v2(st, &mut stp, what);
        stp
    }

    fn priorities(&mut self, t: &Table<'_>, key: &str) -> Option<Sp<Vec<u8>>> {
        let (span, items) = self.r.array(t, key)?;
        let mut out = Vec::new();
        for item in items {
            if let Some(p) = self
                .r
                .as_int(key, item, 0..=7, "an 802.1p priority from 0 to 7")
            {
                if out.contains(&(p.value as u8)) {
                    self.r.error(
                        p.span,
                        format!("priority {} is listed twice in `{key}`", p.value),
                    );
                } else {
                    out.push(p.value as u8);
                }
            }
        }
        Some(Sp::new(out, span))
    }

    fn ets(&mut self, t: &Table<'_>) -> Option<Sp<BTreeMap<u8, u32>>> {
        let (span, et) = self.r.table(t, "ets")?;
        let mut out = BTreeMap::new();
        for (k, ks, v) in entries(et) {
            let Ok(p) = k.parse::<u8>() else {
                self.r.error(
                    ks,
                    format!("`ets` key `{k}` is not an 802.1p priority (0 to 7)"),
                );
                continue;
            };
            if p > 7 {
                self.r.error(
                    ks,
                    format!("`ets` key `{k}` is not an 802.1p priority (0 to 7)"),
                );
                continue;
            }
            if let Some(pct) =
                self.r
                    .as_int("ets", v, 0..=100, "a bandwidth percentage from 0 to 100")
            {
                out.insert(p, pct.value as u32);
            }
        }
        Some(Sp::new(out, span))
    }

    fn link(&mut self, index: usize, v: &Value<'_>) -> Option<Link> {
        let (span, t) = self.r.as_table("links", v)?;
        let what = format!("link #{}", index + 1);
        self.r.check_keys(t, LINK_KEYS, &what);
        let name = self.r.str(t, "name");
        // The names written at each end, so that neither end is suggested
        // for the other.
        let (a_written, b_written) = (written_names(t, "a"), written_names(t, "b"));
        self.r.require(t, "a", span, &what, "\"switch-name\"");
        self.r.require(t, "b", span, &what, "\"switch-name\"");
        let (a_list, a_names, a_ok) = self.link_end(t, "a", &b_written);
        let mut b_except = a_written;
        b_except.extend(b_written.iter().cloned());
        let (b, b_names, b_ok) = self.link_end(t, "b", &b_except);
        let speed = self.r.speed(t, "speed");
        let members = self
            .r
            .int(t, "members", 1..=64, "from 1 to 64 cables")
            .map(|m| m.map(|n| n as u32));
        let members = members.unwrap_or(Sp::new(1, span));
        let lag = self.r.enum_::<LagMode>(t, "lag").unwrap_or_else(|| {
            Sp::new(
                if members.value > 1 || b.len() > 1 || a_list.len() > 1 {
                    LagMode::Lacp
                } else {
                    LagMode::None
                },
                span,
            )
        });
        let kind = self
            .r
            .enum_::<LinkKind>(t, "kind")
            .unwrap_or(Sp::new(LinkKind::Ethernet, span));
        let vlans = self.r.vlan_list(t, "vlans");
        let stp_cost = self.stp_cost(t);
        let mtu = self.mtu(t, Some("frame_size"), &what);
        let link_name = match &name {
            Some(n) => n.value.clone(),
            None if a_names.is_empty() => format!("?--{}", b_names.join("+")),
            None => format!("{}--{}", a_names.join("+"), b_names.join("+")),
        };
        self.allow(t, Element::Link(link_name.to_string()));
        let b_ids: Vec<SwitchId> = b.iter().map(|s| s.value).collect();
        let ends = self.link_ends(t, a_list.first().map(|a| a.value), &b_ids, &what);
        if !a_ok || !b_ok {
            return None;
        }
        let mut a_list = a_list.into_iter();
        let a = a_list.next()?;
        let a_more: Vec<Sp<SwitchId>> = a_list.collect();
        let a_all: Vec<Sp<SwitchId>> = std::iter::once(&a).chain(&a_more).cloned().collect();
        self.check_lag_ends(&link_name, [&a_all, &b], &lag);
        if let Some(same) = std::iter::once(&a)
            .chain(&a_more)
            .find(|x| b.iter().any(|s| s.value == x.value))
        {
            self.r.error(
                same.span,
                format!(
                    "link `{link_name}` connects switch `{}` to itself",
                    self.switches[same.value.0].name
                ),
            );
            return None;
        }
        Some(Link {
            name: link_name,
            span,
            a,
            a_more,
            b,
            speed,
            members,
            lag,
            kind,
            vlans,
            stp_cost,
            mtu,
            ends,
            index,
        })
    }

    fn stp_cost(&mut self, t: &Table<'_>) -> Option<Sp<StpCost>> {
        let (_, v) = Reader::get(t, "stp_cost")?;
        let range = 1..=200_000_000;
        let what = "from 1 to 200000000";
        match v.get_ref() {
            DeValue::Table(ct) => {
                let mut m = BTreeMap::new();
                for (k, ks, cv) in entries(ct) {
                    if let Some(inst) = parse_instance(&mut self.r, &k, ks) {
                        if let Some(c) = self.r.as_int("stp_cost", cv, range.clone(), what) {
                            m.insert(inst, c.value as u32);
                        }
                    }
                }
                Some(Sp::new(StpCost::PerInstance(m), span_of(v)))
            }
            _ => self
                .r
                .as_int("stp_cost", v, range, what)
                .map(|c| c.map(|n| StpCost::All(n as u32))),
        }
    }

    fn check_link_names(&mut self, links: &[Link]) {
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for l in links {
            if let Some(first) = seen.insert(&l.name, l.span) {
                self.r.diags.push(
                    Diagnostic::schema(l.span, format!("two links are named `{}`", l.name))
                        .with_related(first, "the first one")
                        .with_help("give each link a unique `name` (links between the same two switches need one)"),
                );
            }
        }
    }

    /// A stacking cable joins members of one stack, a peer-link the two
    /// peers of one MLAG domain, and the peers of a domain are joined by
    /// their peer-link only. Cables between switches that name no stack
    /// (no MLAG domain) define one: format.md documents that meaning.
    fn check_link_kinds(&mut self, links: &[Link]) {
        // Peer-links between switches that name no MLAG domain: the
        // switch each one is already paired with, and by which link.
        let mut paired: HashMap<usize, (usize, Span)> = HashMap::new();
        for (l, a_id) in links.iter().flat_map(|l| l.a_ends().map(move |a| (l, a))) {
            let a = &self.switches[a_id.value.0];
            let kind = l.kind.value;
            for b_id in &l.b {
                let b = &self.switches[b_id.value.0];
                let (field, group_a, group_b) = match kind {
                    LinkKind::Stack => ("stack", &a.stack, &b.stack),
                    LinkKind::PeerLink => ("mlag", &a.mlag, &b.mlag),
                    LinkKind::Routed => continue,
                    LinkKind::Ethernet => {
                        if let (Some(ma), Some(mb)) = (&a.mlag, &b.mlag) {
                            if ma.value == mb.value {
                                self.r.diags.push(
                                    Diagnostic::schema(l.span, format!("link `{}` joins `{}` and `{}`, the peers of MLAG domain `{}`, as a plain link", l.name, a.name, b.name, ma.value))
                                        .with_related(ma.span, format!("`{}` in `{}`", a.name, ma.value))
                                        .with_related(mb.span, format!("`{}` in `{}`", b.name, mb.value))
                                        .with_help("netlint models an MLAG domain as one bridge joined by its peer-link: write the cable between the peers as `kind = \"peer-link\"` (several cables: `members = N`), and leave out a keepalive link"),
                                );
                            }
                        }
                        continue;
                    }
                };
                let what = |sw: &Switch, g: &Option<Sp<String>>| match g {
                    Some(g) => format!("`{}` (in {field} `{}`)", sw.name, g.value),
                    None => format!("`{}` (no `{field}`)", sw.name),
                };
                let cable = if kind == LinkKind::Stack {
                    "stacking cable"
                } else {
                    "peer-link"
                };
                if l.b.len() > 1 {
                    self.r.error_help(
                        l.kind.span,
                        format!("{cable} `{}` has several switches at its `b` end", l.name),
                        format!("a {cable} joins two switches: write one link per pair"),
                    );
                    break;
                }
                match (group_a, group_b) {
                    (Some(x), Some(y)) if x.value == y.value => {}
                    (None, None) if kind == LinkKind::PeerLink => {
                        let (ia, ib) = (a_id.value.0, b_id.value.0);
                        for (end, other) in [(ia, ib), (ib, ia)] {
                            match paired.get(&end) {
                                Some(&(prev, first)) if prev != other => {
                                    let (n, p, o) = (
                                        &self.switches[end].name,
                                        &self.switches[prev].name,
                                        &self.switches[other].name,
                                    );
                                    self.r.diags.push(
                                        Diagnostic::schema(l.kind.span, format!("peer-link `{}` gives `{n}` a second MLAG peer, `{o}`, besides `{p}`", l.name))
                                            .with_related(first, format!("the peer-link to `{p}`"))
                                            .with_help("an MLAG / vPC / VLT domain has two peers: join the other switches with ordinary links (or a multi-chassis LAG), or name the domains with `mlag`"),
                                    );
                                }
                                Some(_) => {}
                                None => {
                                    paired.insert(end, (other, l.span));
                                }
                            }
                        }
                    }
                    (None, None) => {}
                    _ => {
                        let mut d = Diagnostic::schema(
                            l.kind.span,
                            format!(
                                "{cable} `{}` joins {} and {}, which share no {field}",
                                l.name,
                                what(a, group_a),
                                what(b, group_b)
                            ),
                        );
                        for g in [group_a, group_b].into_iter().flatten() {
                            d = d.with_related(g.span, format!("`{field}` set here"));
                        }
                        self.r.diags.push(d.with_help(format!(
                            "give `{}` and `{}` the same `{field}`, or make the link an ordinary one (remove `kind`)",
                            a.name, b.name
                        )));
                    }
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn host(
        &mut self,
        name: &str,
        span: Span,
        profile: Option<Sp<String>>,
        t: &Table<'_>,
        platform: &Sp<Platform>,
        host_names: &HostNames,
        peers: &mut Vec<PendingPeer>,
        host_index: usize,
        is_host: bool,
    ) -> Host {
        let (what, owner) = if is_host {
            (format!("host `{name}`"), Element::host(name))
        } else {
            (
                format!("profile `{name}`"),
                Element::Profile(name.to_string(), Part::Whole),
            )
        };
        if is_host {
            self.r.check_keys(t, HOST_KEYS, &what);
        }
        let os = self
            .r
            .enum_::<Platform>(t, "os")
            .unwrap_or_else(|| platform.clone());
        let memory_gb = self.r.number(t, "memory_gb", MAX_MEMORY_GB);
        let power = self
            .r
            .enum_::<Power>(t, "power")
            .unwrap_or(Sp::new(Power::Unknown, span));
        let cluster = self.r.str(t, "cluster");
        self.allow(t, owner.clone());

        let mut nics = Vec::new();
        if let Some((_, nt)) = self.r.table(t, "nics") {
            for (n, key, v) in entries(nt) {
                if let Some(nic) = self.nic(
                    &owner,
                    &n,
                    key,
                    v,
                    host_names,
                    peers,
                    host_index,
                    nics.len(),
                ) {
                    nics.push(nic);
                }
            }
        }
        let mut teams: Vec<Team> = Vec::new();
        if let Some((_, tt)) = self.r.table(t, "teams") {
            for (n, key, v) in entries(tt) {
                if let Some(team) = self.team(&owner, &n, key, v, &nics, &teams) {
                    teams.push(team);
                }
            }
        }
        let mut vswitches: Vec<VSwitch> = Vec::new();
        if let Some((_, vt)) = self.r.table(t, "vswitches") {
            for (n, key, v) in entries(vt) {
                if let Some(vs) =
                    self.vswitch(&owner, &n, key, v, &nics, &teams, &vswitches, os.value)
                {
                    vswitches.push(vs);
                }
            }
        }
        let live_migration = self.r.table(t, "live_migration").map(|(ls, lt)| {
            self.r.check_keys(lt, LM_KEYS, "`live_migration`");
            let transport = self
                .r
                .enum_::<Transport>(lt, "transport")
                .unwrap_or(Sp::new(Transport::Tcp, ls));
            let networks = self.network_list(lt, "networks");
            let simultaneous = self
                .r
                .int(lt, "simultaneous", 1..=64, "from 1 to 64")
                .map(|s| s.map(|n| n as u32));
            let smb_bandwidth_limit = self.r.parsed(lt, "smb_bandwidth_limit", Bandwidth::parse);
            LiveMigration {
                span: ls,
                transport,
                networks,
                simultaneous,
                smb_bandwidth_limit,
            }
        });
        let dcb = self.r.table(t, "dcb").map(|(ds, dt)| {
            self.r.check_keys(dt, HOST_DCB_KEYS, "host `dcb`");
            let willing = self.r.bool(dt, "willing");
            let pfc = self.priorities(dt, "pfc");
            let ets = self.ets(dt);
            let mut policies = Vec::new();
            if let Some((_, items)) = self.r.array(dt, "policies") {
                for item in items {
                    let Some((ps, pt)) = self.r.as_table("policies", item) else {
                        continue;
                    };
                    self.r.check_keys(pt, POLICY_KEYS, "a DCB policy");
                    let name = self.r.str(pt, "name");
                    let m = self.r.enum_::<PolicyMatch>(pt, "match");
                    let prio = self
                        .r
                        .int(pt, "priority", 0..=7, "an 802.1p priority from 0 to 7");
                    for (k, ex) in [
                        ("name", "\"SMB\""),
                        ("match", "\"smb-direct\""),
                        ("priority", "3"),
                    ] {
                        self.r.require(pt, k, ps, "a DCB policy", ex);
                    }
                    if let (Some(name), Some(m), Some(p)) = (name, m, prio) {
                        policies.push(DcbPolicy {
                            span: ps,
                            name,
                            match_: m,
                            priority: p.map(|n| n as u8),
                        });
                    }
                }
            }
            HostDcb {
                span: ds,
                willing,
                pfc,
                ets,
                policies,
            }
        });
        self.check_nic_in_two_teams(&nics, &teams);
        if os.value.is_vsphere() {
            self.vsphere_uplink_mtu(&mut nics, &teams, &vswitches);
        }
        Host {
            name: name.to_string(),
            span,
            profile,
            cluster,
            os,
            memory_gb,
            power,
            nics,
            teams,
            vswitches,
            live_migration,
            dcb,
            overrides: Vec::new(),
        }
    }

    /// On ESXi a vmnic has no MTU of its own: it runs the MTU of the
    /// standard or distributed switch it is an uplink of. Each uplink takes
    /// its virtual switch's `mtu` (span: that line); an uplink that writes a
    /// different MTU is an input error, as are uplinks of one virtual switch
    /// without `mtu` that write different MTUs.
    fn vsphere_uplink_mtu(&mut self, nics: &mut [Nic], teams: &[Team], vswitches: &[VSwitch]) {
        for vs in vswitches {
            let uplinks: Vec<NicIdx> = vs
                .uplinks
                .iter()
                .flat_map(|u| match u.value {
                    Uplink::Nic(n) => vec![n],
                    Uplink::Team(t) => teams[t.0].members.iter().map(|m| m.value).collect(),
                })
                .collect();
            let written = |n: &NicIdx| nics[n.0].mtu.form != MtuForm::Default;
            let switch_mtu = match &vs.mtu {
                Some(m) => m.clone(),
                None => {
                    let mut set = uplinks.iter().filter(|n| written(n));
                    let Some(first) = set.next().map(|n| &nics[n.0]) else {
                        continue;
                    };
                    if let Some(other) = set
                        .map(|n| &nics[n.0])
                        .find(|n| n.mtu.payload != first.mtu.payload)
                    {
                        self.r.diags.push(
                            Diagnostic::schema(
                                other.mtu.span,
                                format!(
                                    "vmnics `{}` ({}) and `{}` ({}) of virtual switch `{}` set different MTUs, but on vSphere a vmnic has no MTU of its own: it runs its virtual switch's",
                                    first.name,
                                    first.mtu.describe(),
                                    other.name,
                                    other.mtu.describe(),
                                    vs.name
                                ),
                            )
                            .with_related(first.mtu.span, format!("`{}`: {}", first.name, first.mtu.describe()))
                            .with_help(format!(
                                "set the MTU once, as `mtu = {}` on virtual switch `{}`, and remove `mtu` from its vmnics",
                                first.mtu.payload.max(other.mtu.payload),
                                vs.name
                            )),
                        );
                    }
                    continue;
                }
            };
            for n in uplinks {
                let nic = &mut nics[n.0];
                if nic.mtu.form != MtuForm::Default && nic.mtu.payload != switch_mtu.payload {
                    self.r.diags.push(
                        Diagnostic::schema(
                            nic.mtu.span,
                            format!(
                                "vmnic `{}` sets {}, but on vSphere a vmnic has no MTU of its own: it runs the MTU of its virtual switch `{}` ({})",
                                nic.name,
                                nic.mtu.describe(),
                                vs.name,
                                switch_mtu.describe()
                            ),
                        )
                        .with_related(switch_mtu.span, format!("virtual switch `{}`: {}", vs.name, switch_mtu.describe()))
                        .with_help(format!(
                            "remove `mtu` from vmnic `{}`; set the MTU on virtual switch `{}`",
                            nic.name, vs.name
                        )),
                    );
                } else {
                    nic.mtu = switch_mtu.clone();
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn nic(
        &mut self,
        owner: &Element,
        name: &str,
        key: Span,
        v: &Value<'_>,
        host_names: &HostNames,
        peers: &mut Vec<PendingPeer>,
        host_index: usize,
        nic_index: usize,
    ) -> Option<Nic> {
        let what = format!("NIC `{name}`");
        let (_, t) = self.r.as_table(name, v)?;
        let span = element_span(key, v);
        self.r.check_keys(t, NIC_KEYS, &what);
        let card = self
            .r
            .str(t, "card")
            .unwrap_or(Sp::new(name.to_string(), span));
        let model = self.r.str(t, "model");
        let speed = self.r.speed(t, "speed");
        let switch = self.r.str(t, "switch");
        let peer = self.r.str(t, "peer");
        let port = self.r.str(t, "port");
        let mtu = self
            .mtu(t, Some("jumbo_packet"), &what)
            .unwrap_or(Sp::new(Mtu::STANDARD, span));
        let rdma = self
            .r
            .enum_::<Rdma>(t, "rdma")
            .unwrap_or(Sp::new(Rdma::None, span));
        let networks = self.network_list(t, "networks");
        self.allow(t, owner.with_part(Part::Nic(name.to_string())));
        let mut attach = None;
        let mut pending = None;
        match (&switch, &peer) {
            (Some(s), Some(p)) => {
                self.r.diags.push(
                    Diagnostic::schema(p.span, format!("{what} sets both `switch` and `peer`"))
                        .with_related(s.span, "`switch` set here")
                        .with_help("a NIC has one cable: keep `switch` for a switch port or `peer` for a direct cable to another host"),
                );
            }
            (Some(s), None) => attach = self.switch_ref(s).map(Attachment::Switch),
            (None, Some(p)) => match p.value.split_once(':') {
                Some((h, n)) if !h.is_empty() && !n.is_empty() => {
                    if !host_names.ids.contains_key(h) {
                        let hint = did_you_mean(h, host_names.strs());
                        self.r.error_help(
                            p.span,
                            format!("`peer` names unknown host `{h}`{hint}"),
                            defined_list("hosts", host_names.strs()),
                        );
                    } else if host_index != usize::MAX {
                        pending = Some(PendingPeer {
                            host: host_index,
                            nic: nic_index,
                            other_host: h.to_string(),
                            other_nic: n.to_string(),
                            span: p.span,
                        });
                    }
                }
                _ => self.r.error_help(
                    p.span,
                    format!("`peer = \"{}\"` is not `host:NIC`", p.value),
                    "write the other end as \"hv02:SLOT3-1\"",
                ),
            },
            (None, None) => {}
        }
        let switch_port = self.nic_switch_port(t, attach.as_ref(), port.as_ref(), &what);
        peers.extend(pending);
        Some(Nic {
            name: name.to_string(),
            span,
            card,
            model,
            speed,
            attach,
            port,
            switch_port,
            mtu,
            rdma,
            networks,
        })
    }

    fn nic_ref(&mut self, nics: &[Nic], s: &Sp<String>, host_what: &str) -> Option<Sp<NicIdx>> {
        match nics.iter().position(|n| n.name == s.value) {
            Some(i) => Some(Sp::new(NicIdx(i), s.span)),
            None => {
                let hint = did_you_mean(&s.value, nics.iter().map(|n| n.name.as_str()));
                self.r.error_help(
                    s.span,
                    format!("unknown NIC `{}`{hint}", s.value),
                    defined_list(
                        &format!("NICs of {host_what}"),
                        nics.iter().map(|n| n.name.as_str()),
                    ),
                );
                None
            }
        }
    }

    fn team(
        &mut self,
        owner: &Element,
        name: &str,
        key: Span,
        v: &Value<'_>,
        nics: &[Nic],
        teams: &[Team],
    ) -> Option<Team> {
        let what = format!("team `{name}`");
        let (_, t) = self.r.as_table(name, v)?;
        let span = element_span(key, v);
        self.r.check_keys(t, TEAM_KEYS, &what);
        if nics.iter().any(|n| n.name == name) {
            self.r.error(key, format!("team `{name}` has the name of a NIC: names of NICs, teams and virtual switches must differ"));
        }
        let _ = teams;
        let kind = self
            .r
            .enum_::<TeamKind>(t, "kind")
            .unwrap_or(Sp::new(TeamKind::Lbfo, span));
        self.r
            .require(t, "members", span, &what, "[\"NIC1\", \"NIC2\"]");
        let (members_span, member_names) =
            self.r.str_list(t, "members").unwrap_or((span, Vec::new()));
        let empty_list = |v: &Value<'_>| matches!(v.get_ref(), DeValue::Array(a) if a.is_empty());
        if Reader::get(t, "members").is_some_and(|(_, v)| empty_list(v)) {
            self.r.error_help(
                members_span,
                format!("{what} has no members"),
                "list the NICs it teams: `members = [\"NIC1\", \"NIC2\"]`, or remove the team",
            );
        }
        let members: Vec<Sp<NicIdx>> = member_names
            .iter()
            .filter_map(|m| self.nic_ref(nics, m, &owner.path()))
            .collect();
        let mode = self
            .r
            .enum_::<TeamMode>(t, "mode")
            .unwrap_or(Sp::new(TeamMode::SwitchIndependent, span));
        let load_balancing = self
            .r
            .enum_in::<LoadBalancing>(t, "load_balancing", LoadBalancing::TEAM)
            .unwrap_or(Sp::new(LoadBalancing::Dynamic, span));
        let standby = self.r.str(t, "standby").and_then(|s| {
            let idx = self.nic_ref(nics, &s, &owner.path())?;
            if !members.iter().any(|m| m.value == idx.value) {
                self.r.error_help(
                    s.span,
                    format!("standby NIC `{}` is not a member of {what}", s.value),
                    format!("add `{}` to `members`", s.value),
                );
                return None;
            }
            Some(idx)
        });
        let switch_lag = self.r.enum_::<SwitchLag>(t, "switch_lag");
        let networks = self.network_list(t, "networks");
        let mtu = self.mtu(t, None, &what);
        self.allow(t, owner.with_part(Part::Team(name.to_string())));
        Some(Team {
            name: name.to_string(),
            span,
            kind,
            members,
            members_span,
            mode,
            load_balancing,
            standby,
            switch_lag,
            networks,
            mtu,
        })
    }

    fn check_nic_in_two_teams(&mut self, nics: &[Nic], teams: &[Team]) {
        for (i, nic) in nics.iter().enumerate() {
            let holders: Vec<(&Team, Span)> = teams
                .iter()
                .filter_map(|t| {
                    t.members
                        .iter()
                        .find(|m| m.value == NicIdx(i))
                        .map(|m| (t, m.span))
                })
                .collect();
            if holders.len() > 1 {
                let (first, fs) = holders[0];
                for (other, os) in &holders[1..] {
                    self.r.diags.push(
                        Diagnostic::schema(
                            *os,
                            format!(
                                "NIC `{}` is a member of two teams, `{}` and `{}`",
                                nic.name, first.name, other.name
                            ),
                        )
                        .with_related(fs, format!("also in team `{}`", first.name))
                        .with_help("a NIC can belong to one team only"),
                    );
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn vswitch(
        &mut self,
        owner: &Element,
        name: &str,
        key: Span,
        v: &Value<'_>,
        nics: &[Nic],
        teams: &[Team],
        vswitches: &[VSwitch],
        os: Platform,
    ) -> Option<VSwitch> {
        let what = format!("virtual switch `{name}`");
        let (_, t) = self.r.as_table(name, v)?;
        let span = element_span(key, v);
        self.r.check_keys(t, VSWITCH_KEYS, &what);
        let kind = self.r.enum_::<VSwitchKind>(t, "kind");
        self.r.require(t, "uplinks", span, &what, "[\"Team1\"]");
        let (uplinks_span, names) = self.r.str_list(t, "uplinks").unwrap_or((span, Vec::new()));
        let mut uplinks = Vec::new();
        for s in &names {
            if let Some(i) = nics.iter().position(|n| n.name == s.value) {
                if let Some(team) = teams
                    .iter()
                    .find(|t| t.members.iter().any(|m| m.value == NicIdx(i)))
                {
                    self.r.error_help(s.span, format!("NIC `{}` is a member of team `{}` and cannot also be an uplink of its own", s.value, team.name), format!("use the team: `uplinks = [\"{}\"]`", team.name));
                    continue;
                }
                if let Some(other) = vswitches
                    .iter()
                    .find(|vs| vs.uplinks.iter().any(|u| u.value == Uplink::Nic(NicIdx(i))))
                {
                    self.r.error(
                        s.span,
                        format!(
                            "NIC `{}` is already an uplink of virtual switch `{}`",
                            s.value, other.name
                        ),
                    );
                    continue;
                }
                uplinks.push(Sp::new(Uplink::Nic(NicIdx(i)), s.span));
            } else if let Some(i) = teams.iter().position(|t| t.name == s.value) {
                uplinks.push(Sp::new(Uplink::Team(TeamIdx(i)), s.span));
            } else {
                let hint = did_you_mean(
                    &s.value,
                    nics.iter()
                        .map(|n| n.name.as_str())
                        .chain(teams.iter().map(|t| t.name.as_str())),
                );
                self.r.error_help(
                    s.span,
                    format!("unknown uplink `{}`{hint}", s.value),
                    "an uplink is a NIC or a team of this host",
                );
            }
        }
        if uplinks.len() > 1 && uplinks.iter().any(|u| matches!(u.value, Uplink::Team(_))) {
            self.r.error_help(
                uplinks_span,
                format!("{what} has a team among several uplinks"),
                "give a virtual switch one team, or two or more NICs (Switch Embedded Teaming)",
            );
        }
        let allowed_lb: Vec<&str> = LoadBalancing::SET
            .iter()
            .chain(LoadBalancing::VSPHERE.iter())
            .copied()
            .collect();
        let load_balancing = self
            .r
            .enum_in::<LoadBalancing>(t, "load_balancing", &allowed_lb)
            .and_then(|lb| self.platform_load_balancing(lb, os, kind.as_ref()));
        let networks = self.network_list(t, "networks");
        let switch_lag = self.r.enum_::<SwitchLag>(t, "switch_lag");
        self.vswitch_lag_on_team(switch_lag.as_ref(), &uplinks, teams, &what);
        let mtu = self.mtu(t, None, &what);
        let default_flow_weight = self
            .r
            .int(t, "default_flow_weight", 0..=100, "a weight from 0 to 100")
            .map(|w| w.map(|n| n as u32));
        self.allow(t, owner.with_part(Part::VSwitch(name.to_string())));
        let mut vnics = Vec::new();
        if let Some((_, vt)) = self.r.table(t, "vnics") {
            for (vn, vkey, vv) in entries(vt) {
                let vwhat = format!("vNIC `{vn}`");
                let Some((_, vnt)) = self.r.as_table(&vn, vv) else {
                    continue;
                };
                let vspan = element_span(vkey, vv);
                self.r.check_keys(vnt, VNIC_KEYS, &vwhat);
                self.r.require(vnt, "network", vspan, &vwhat, "\"lm\"");
                let network = self
                    .r
                    .str(vnt, "network")
                    .and_then(|s| self.network_ref(&s));
                let vmtu = self
                    .mtu(vnt, None, &vwhat)
                    .unwrap_or(Sp::new(Mtu::STANDARD, vspan));
                let rdma = self.r.bool(vnt, "rdma").unwrap_or(Sp::new(false, vspan));
                let weight = self
                    .r
                    .int(
                        vnt,
                        "min_bandwidth_weight",
                        0..=100,
                        "a weight from 0 to 100",
                    )
                    .map(|w| w.map(|n| n as u32));
                // The NICs under this virtual switch: its NIC uplinks and
                // the members of its team.
                let under: Vec<NicIdx> = uplinks
                    .iter()
                    .flat_map(|u| match u.value {
                        Uplink::Nic(n) => vec![n],
                        Uplink::Team(t) => teams[t.0].members.iter().map(|m| m.value).collect(),
                    })
                    .collect();
                let pinned = |key: &str, this: &mut Self| -> Vec<Sp<NicIdx>> {
                    let Some((_, list)) = this.r.str_list(vnt, key) else {
                        return Vec::new();
                    };
                    list.iter()
                        .filter_map(|s| {
                            let idx = this.nic_ref(nics, s, &owner.path())?;
                            if !under.contains(&idx.value) {
                                let names: Vec<&str> =
                                    under.iter().map(|n| nics[n.0].name.as_str()).collect();
                                this.r.diags.push(
                                    Diagnostic::schema(
                                        s.span,
                                        format!(
                                            "`{key}` of {vwhat} names NIC `{}`, which is not an uplink of {what}",
                                            s.value
                                        ),
                                    )
                                    .with_related(uplinks_span, "the virtual switch's uplinks")
                                    .with_help(if names.is_empty() {
                                        format!("{what} has no uplink NIC: add `{}` to its `uplinks`, or remove it here", s.value)
                                    } else {
                                        format!("pin to uplinks of {what}: {}", names.join(", "))
                                    }),
                                );
                                return None;
                            }
                            Some(idx)
                        })
                        .collect()
                };
                let active_uplinks = pinned("active_uplinks", self);
                let standby_uplinks = pinned("standby_uplinks", self);
                let iscsi = self
                    .r
                    .bool(vnt, "iscsi_port_binding")
                    .unwrap_or(Sp::new(false, vspan));
                self.allow(
                    vnt,
                    owner.with_part(Part::VNic {
                        vswitch: name.to_string(),
                        vnic: vn.to_string(),
                    }),
                );
                if let Some(network) = network {
                    vnics.push(VNic {
                        name: vn,
                        span: vspan,
                        network,
                        mtu: vmtu,
                        rdma,
                        min_bandwidth_weight: weight,
                        active_uplinks,
                        standby_uplinks,
                        iscsi_port_binding: iscsi,
                    });
                }
            }
        }
        Some(VSwitch {
            name: name.to_string(),
            span,
            kind,
            uplinks,
            uplinks_span,
            load_balancing,
            networks,
            mtu,
            default_flow_weight,
            vnics,
            switch_lag,
        })
    }

    fn resolve_peers(&mut self, hosts: &mut [Host], peers: Vec<PendingPeer>) {
        let host_ids: HashMap<&str, usize> = hosts
            .iter()
            .enumerate()
            .map(|(i, h)| (h.name.as_str(), i))
            .collect();
        let declared: Vec<(usize, usize, usize, usize, Span)> = peers
            .iter()
            .filter_map(|p| {
                let oh = *host_ids.get(p.other_host.as_str())?;
                match hosts[oh].nic_by_name(&p.other_nic) {
                    Some(on) => Some((p.host, p.nic, oh, on.0, p.span)),
                    None => {
                        let hint = did_you_mean(
                            &p.other_nic,
                            hosts[oh].nics.iter().map(|n| n.name.as_str()),
                        );
                        self.r.error(
                            p.span,
                            format!("host `{}` has no NIC `{}`{hint}", p.other_host, p.other_nic),
                        );
                        None
                    }
                }
            })
            .collect();
        for &(h, n, oh, on, span) in &declared {
            if (h, n) == (oh, on) {
                self.r.error(span, "a NIC cannot be cabled to itself");
                continue;
            }
            let this = || format!("{}:{}", hosts[h].name, hosts[h].nics[n].name);
            let that = format!("{}:{}", hosts[oh].name, hosts[oh].nics[on].name);
            if h == oh {
                self.r.error_help(
                    span,
                    format!(
                        "the `peer` cable from `{}` to `{that}` joins two NICs of one host",
                        this()
                    ),
                    "a direct cable runs to a NIC of another host (switchless storage); cable this NIC to a switch or to the other node",
                );
                continue;
            }
            let back = declared.iter().find(|d| (d.0, d.1) == (oh, on));
            if back.is_none() {
                // Another NIC already declared a cable to the same NIC.
                if let Some(first) = declared
                    .iter()
                    .take_while(|d| (d.0, d.1) != (h, n))
                    .find(|d| (d.2, d.3) == (oh, on) && d.0 != d.2)
                {
                    let said = format!(
                        "{}:{}",
                        hosts[first.0].name, hosts[first.0].nics[first.1].name
                    );
                    self.r.diags.push(
                        Diagnostic::schema(
                            span,
                            format!("`{}` and `{said}` both declare a `peer` cable to `{that}`", this()),
                        )
                        .with_related(first.4, format!("`{said}`'s `peer`"))
                        .with_help(format!("a NIC has one cable: `{that}` can be the other end of one of them only; set `peer` on `{that}` to say which")),
                    );
                    continue;
                }
            }
            let other_nic = &hosts[oh].nics[on];
            match (back, &other_nic.attach) {
                (Some(b), _) if (b.2, b.3) != (h, n) => {
                    let this = this();
                    let said = format!("{}:{}", hosts[b.2].name, hosts[b.2].nics[b.3].name);
                    self.r.diags.push(
                        Diagnostic::schema(span, format!("the `peer` cable from `{this}` to `{}:{}` is declared differently on the other end, which names `{said}`", hosts[oh].name, other_nic.name))
                            .with_related(b.4, "the other end's `peer`")
                            .with_help("a direct cable has two ends: make both `peer` values name each other"),
                    );
                }
                (None, Some(Attachment::Switch(s))) => {
                    self.r.diags.push(
                        Diagnostic::schema(span, format!("the `peer` cable to `{}:{}` is declared differently on the other end, which is cabled to a switch", hosts[oh].name, other_nic.name))
                            .with_related(s.span, "the other end's `switch`")
                            .with_help("a NIC has one cable: fix one of the two ends"),
                    );
                }
                _ => {
                    hosts[h].nics[n].attach = Some(Attachment::Peer {
                        host: HostId(oh),
                        nic: NicIdx(on),
                        span,
                    });
                    if back.is_none() {
                        hosts[oh].nics[on].attach = Some(Attachment::Peer {
                            host: HostId(h),
                            nic: NicIdx(n),
                            span,
                        });
                    }
                }
            }
        }
    }
}

struct PendingPeer {
    host: usize,
    nic: usize,
    other_host: String,
    other_nic: String,
    span: Span,
}

fn defined_list<'a>(what: &str, names: impl Iterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.collect();
    if names.is_empty() {
        format!("no {what} are defined")
    } else {
        format!("defined {what}: {}", names.join(", "))
    }
}

fn parse_instance(r: &mut Reader, k: &str, span: Span) -> Option<u16> {
    match k.parse::<u16>() {
        Ok(n) if n <= 4094 => Some(n),
        _ => {
            r.error(
                span,
                format!("`{k}` is not an MSTP instance number (0 to 4094)"),
            );
            None
        }
    }
}

fn parse_mac(s: &str) -> Result<[u8; 6], String> {
    let parts: Vec<&str> = s.split([':', '-']).collect();
    let err = || format!("`{s}` is not a MAC address: write \"00:1e:c9:00:00:0a\"");
    if parts.len() != 6 {
        return Err(err());
    }
    let mut mac = [0u8; 6];
    for (i, p) in parts.iter().enumerate() {
        if p.len() != 2 {
            return Err(err());
        }
        mac[i] = u8::from_str_radix(p, 16).map_err(|_| err())?;
    }
    Ok(mac)
}

fn lint_settings(r: &mut Reader, span: Span, t: &Table<'_>) -> LintSettings {
    r.check_keys(t, LINT_KEYS, "[netlint]");
    let fail_on = r.enum_::<FailOn>(t, "fail_on");
    let stack_as_unit = r.bool(t, "stack_as_unit");
    let mut rules = Vec::new();
    if let Some((_, rt)) = r.table(t, "rules") {
        for (id, ks, v) in entries(rt) {
            if let Some(s) = r.as_str(&id, v) {
                if let Some(level) = r.parse_enum::<Level>(&id, &s, Level::NAMES) {
                    rules.push((Sp::new(id, ks), level));
                }
            }
        }
    }
    LintSettings {
        span: Some(span),
        fail_on,
        stack_as_unit,
        rules,
    }
}

/// The spans of every key and value written in a host's own table (its
/// overrides of the profile), except its `profile` key.
fn own_spans(t: &Table<'_>, out: &mut Vec<Span>) {
    fn table(t: &Table<'_>, out: &mut Vec<Span>) {
        for (k, v) in t.iter() {
            out.push(span_of(k));
            value(v, out);
        }
    }
    fn value(v: &Value<'_>, out: &mut Vec<Span>) {
        out.push(span_of(v));
        match v.get_ref() {
            DeValue::Table(t) => table(t, out),
            DeValue::Array(items) => items.iter().for_each(|i| value(i, out)),
            _ => {}
        }
    }
    for (k, v) in t.iter().filter(|(k, _)| k.get_ref() != "profile") {
        out.push(span_of(k));
        value(v, out);
    }
    out.retain(|s| !s.is_empty());
}

/// Merges `over` onto `base` key by key. Values that are alternatives of each
/// other (`mtu` / `jumbo_packet` / `frame_size`, `switch` / `peer`) replace
/// each other, so an override in one form drops the profile's other form.
fn merge<'i>(base: &mut DeTable<'i>, over: &DeTable<'i>) {
    const ALTERNATIVES: &[&[&str]] = &[&["mtu", "jumbo_packet", "frame_size"], &["switch", "peer"]];
    for group in ALTERNATIVES {
        if group.iter().any(|k| over.contains_key(*k)) {
            for k in *group {
                if !over.contains_key(*k) {
                    base.remove(*k);
                }
            }
        }
    }
    for (k, v) in over.iter() {
        if k.get_ref() == "profile" {
            continue;
        }
        match (base.get_mut(k.get_ref().as_ref()), v.get_ref()) {
            (Some(bv), DeValue::Table(ot)) if matches!(bv.get_ref(), DeValue::Table(_)) => {
                if let DeValue::Table(bt) = bv.get_mut() {
                    merge(bt, ot);
                }
            }
            _ => {
                base.insert(k.clone(), v.clone());
            }
        }
    }
}
