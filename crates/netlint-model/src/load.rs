//! Design text -> validated [`Design`], reporting every problem at once.
//!
//! The TOML is parsed into a span-carrying tree; profiles are merged onto
//! hosts on that tree (key by key, so each leaf keeps the span of the line
//! that set it), and every element is then read with [`Reader`], which
//! collects unknown keys, wrong types, bad values and dangling references.

use crate::design::*;
use crate::diag::{Diagnostic, Severity};
use crate::element::{Element, Part};
use crate::fast_hash::Map as HashMap;
use crate::reader::{did_you_mean, span_of, Reader, Table, Value};
use crate::span::{SourceFile, Sp, Span};
use crate::text::{escape, is_unsafe};
use crate::units::{Bandwidth, Duration, Mtu, MtuForm, MAX_FRAME, MAX_MTU, MIN_MTU};
use std::collections::BTreeMap;
use std::sync::LazyLock;
use toml::de::{DeTable, DeValue};

mod host;
mod link;
mod network;
mod nic;
mod peers;
mod stp;
mod switch;
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
    "vlans_a",
    "vlans_b",
    "lag_a",
    "lag_b",
    "stp_cost",
    "mtu",
    "mtu_a",
    "mtu_b",
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
    if !free_of_unsafe_text(&file.text) {
        check_text(root.get_ref(), None, &mut b.r);
    }
    let mut design = b.design(root.get_ref(), file);
    if let Some(d) = &mut design {
        allow_paths(root.get_ref(), d);
    }
    rename_fixes(root.get_ref(), &file.text, &mut b.r);
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

/// A misspelt value with exactly one near valid one gets a safe fix: the
/// value renamed, at the TOML path found by its span from the top of the
/// file (a profile's value is the profile's line).
fn rename_fixes(root: &Table<'_>, text: &str, r: &mut Reader) {
    use crate::fix::{Fix, FixEdit, FixValue, PathSegment, TomlPath};
    use std::collections::BTreeSet;
    /// Where a wanted value is: its own path, or (an item of an array of
    /// strings) the array's path, span and items.
    enum At {
        Value(TomlPath),
        Item(TomlPath, Span, Vec<String>, usize),
    }
    type Found = BTreeMap<Span, At>;
    fn walk(v: &Value<'_>, want: &BTreeSet<Span>, path: &mut Vec<PathSegment>, out: &mut Found) {
        let at = span_of(v);
        if want.contains(&at) {
            out.insert(at, At::Value(TomlPath(path.clone())));
        }
        match v.get_ref() {
            DeValue::Table(t) => {
                for (k, v) in t.iter() {
                    path.push(PathSegment::Key(k.get_ref().to_string()));
                    walk(v, want, path, out);
                    path.pop();
                }
            }
            DeValue::Array(items) => {
                let strings: Option<Vec<String>> = items
                    .iter()
                    .map(|i| match i.get_ref() {
                        DeValue::String(s) => Some(s.to_string()),
                        _ => None,
                    })
                    .collect();
                for (i, item) in items.iter().enumerate() {
                    let item_at = span_of(item);
                    match &strings {
                        Some(all) if want.contains(&item_at) => {
                            out.insert(
                                item_at,
                                At::Item(TomlPath(path.clone()), at, all.clone(), i),
                            );
                        }
                        _ => {
                            path.push(PathSegment::Index(i));
                            walk(item, want, path, out);
                            path.pop();
                        }
                    }
                }
            }
            _ => {}
        }
    }
    if r.renames.is_empty() && r.key_renames.is_empty() {
        return;
    }
    let want: BTreeSet<Span> = r
        .renames
        .iter()
        .map(|(_, s, _, _)| *s)
        .chain(r.key_renames.iter().map(|(_, s, _, _)| *s))
        .collect();
    let mut found = Found::new();
    for (k, v) in root.iter() {
        let mut path = vec![PathSegment::Key(k.get_ref().to_string())];
        walk(v, &want, &mut path, &mut found);
    }
    for (i, span, old, new) in std::mem::take(&mut r.renames) {
        let (Some(at), Some(d)) = (found.get(&span), r.diags.get_mut(i)) else {
            continue;
        };
        let edit = match at {
            At::Value(path) => FixEdit::replace(path.clone(), old.as_str(), new.as_str(), span),
            At::Item(path, array, items, n) => {
                let list = |items: &[String]| {
                    FixValue::Array(items.iter().map(|s| FixValue::from(s.as_str())).collect())
                };
                let mut renamed = items.clone();
                renamed[*n] = new.clone();
                FixEdit::replace(path.clone(), list(items), list(&renamed), *array)
            }
        };
        d.fix = Some(Fix::safe(
            format!("write `{new}` for `{old}` (`{edit}`)"),
            vec![edit],
        ));
    }
    // A misspelt key: removed, and the valid key added to its table with
    // the same value, together (one fix, two edits). Not where a comment
    // follows the value on its line: the removal would take the comment.
    let commented = |s: Span| {
        let rest = text.get(s.end..).unwrap_or("");
        rest[..rest.find('\n').unwrap_or(rest.len())].contains('#')
    };
    for (i, span, value, new) in std::mem::take(&mut r.key_renames) {
        if commented(span) {
            continue;
        }
        let (Some(At::Value(path)), Some(d)) = (found.get(&span), r.diags.get_mut(i)) else {
            continue;
        };
        let mut segs = path.0.clone();
        let Some(PathSegment::Key(old)) = segs.pop() else {
            continue;
        };
        let renamed = TomlPath(segs).then(new.as_str());
        let key_at = d.primary.as_ref().map_or(span, |p| p.span);
        d.fix = Some(Fix::safe(
            format!("write `{new}` for the key `{old}` (`{renamed}`)"),
            vec![
                FixEdit::remove(path.clone(), value.clone(), span),
                FixEdit::insert(renamed, value, key_at),
            ],
        ));
    }
}

/// Each `allow` entry's TOML path, found by its key's span from the top of
/// the file (a profile's entries are read on the merged host tables, whose
/// spans are the profile's lines).
fn allow_paths(root: &Table<'_>, design: &mut Design) {
    use crate::fix::{PathSegment, TomlPath};
    use std::collections::BTreeSet;
    type Found = BTreeMap<Span, TomlPath>;
    fn walk_table(
        t: &Table<'_>,
        want: &BTreeSet<Span>,
        path: &mut Vec<PathSegment>,
        out: &mut Found,
    ) {
        for (k, v) in t.iter() {
            path.push(PathSegment::Key(k.get_ref().to_string()));
            let at = span_of(k);
            if want.contains(&at) {
                out.insert(at, TomlPath(path.clone()));
            }
            walk_value(v, want, path, out);
            path.pop();
        }
    }
    fn walk_value(
        v: &Value<'_>,
        want: &BTreeSet<Span>,
        path: &mut Vec<PathSegment>,
        out: &mut Found,
    ) {
        match v.get_ref() {
            DeValue::Table(t) => walk_table(t, want, path, out),
            DeValue::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    path.push(PathSegment::Index(i));
                    walk_value(item, want, path, out);
                    path.pop();
                }
            }
            _ => {}
        }
    }
    if design.allows.is_empty() {
        return;
    }
    let want: BTreeSet<Span> = design.allows.iter().map(|(_, a)| a.rule.span).collect();
    let mut found = Found::new();
    walk_table(root, &want, &mut Vec::new(), &mut found);
    for (_, a) in &mut design.allows {
        if let Some(p) = found.get(&a.rule.span) {
            a.path = p.clone();
        }
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

/// Whether no key or string of the parsed `text` can hold an unsafe
/// character ([`check_text`]), told from the text alone: TOML keeps raw
/// control characters out of single-line strings and keys (a tab aside),
/// so a text with no escape (no backslash), no multi-line string, no tab
/// and no unsafe character but its line ends has none in any key or
/// string. A large design is then not walked value by value; any other
/// text is.
fn free_of_unsafe_text(text: &str) -> bool {
    let plain = |c: char| !is_unsafe(c) || c == '\n' || c == '\r';
    let chars_ok = if text.is_ascii() {
        text.bytes().all(|b| plain(char::from(b)))
    } else {
        text.chars().all(plain)
    };
    chars_ok && !text.contains('\\') && !text.contains("\"\"\"") && !text.contains("'''")
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
        let live_migration_networks = Design::find_live_migration_networks(&hosts);
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
            live_migration_networks,
            written: {
                // A table is replaced as one value only when it is written
                // inline (`{ 3 = 50, 7 = 1 }`), not under a header.
                let mut w = std::mem::take(&mut self.r.written);
                w.retain(|span, v| {
                    !matches!(v, crate::fix::FixValue::Table(_))
                        || file
                            .text
                            .get(span.start..)
                            .is_some_and(|t| t.starts_with('{'))
                });
                w
            },
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
                        reason_span: span_of(v),
                        // Found from the top of the file once every table
                        // is read (`allow_paths`).
                        path: crate::fix::TomlPath::new(),
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
                if let Some(n) = crate::reader::only_candidate(
                    &s.value,
                    self.networks.iter().map(|n| n.name.as_str()),
                ) {
                    let n = n.to_string();
                    self.r.suggest(s.span, &s.value, &n);
                }
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
                // One near defined switch: the reference is renamed (a
                // safe fix, checked on a copy).
                if let Some(n) = crate::reader::only_candidate(
                    &s.value,
                    self.switches
                        .iter()
                        .map(|n| n.name.as_str())
                        .filter(|n| !except.iter().any(|e| e == n)),
                ) {
                    let n = n.to_string();
                    self.r.suggest(s.span, &s.value, &n);
                }
                None
            }
        }
    }

    /// `mtu = N` or the vendor form (`jumbo_packet`, `frame_size`), never both:
    /// the value as written (`mtu`'s when both are, an input error).
    fn mtu(&mut self, t: &Table<'_>, vendor_key: Option<&str>, what: &str) -> Option<Sp<Mtu>> {
        self.mtus(t, vendor_key, what).into_iter().next()
    }

    /// Every MTU value written on an element, `mtu` first, then the vendor
    /// form, each read and range-checked on its own. Both written is an
    /// input error, and each value still goes through every other input
    /// rule (a switch's limit, a link's switches' limits), so that one run
    /// reports every error.
    fn mtus(&mut self, t: &Table<'_>, vendor_key: Option<&str>, what: &str) -> Vec<Sp<Mtu>> {
        // The ranges' words, written once (this runs for every NIC, vNIC,
        // switch and link; the words only for a value out of range).
        static MTU_RANGE: LazyLock<String> = LazyLock::new(|| {
            format!("from {MIN_MTU} to {MAX_MTU} (the largest payload, 1500 standard, 9000 jumbo)")
        });
        static JUMBO_RANGE: LazyLock<String> = LazyLock::new(|| {
            format!(
                "from {} to {} (the MTU plus the 14-byte header: 1514 standard, 9014 jumbo)",
                MIN_MTU + 14,
                MAX_MTU + 14
            )
        });
        static FRAME_RANGE: LazyLock<String> = LazyLock::new(|| {
            format!(
                "from {} to {MAX_FRAME} (the frame: MTU + 14 header + 4 FCS)",
                MIN_MTU + 18
            )
        });
        let range = MIN_MTU as i64..=MAX_MTU as i64;
        let plain = self
            .r
            .int(t, "mtu", range, &MTU_RANGE)
            .map(|v| v.map(|n| Mtu::mtu(n as u32)));
        let Some(vk) = vendor_key else {
            return plain.into_iter().collect();
        };
        let vendor = match vk {
            "jumbo_packet" => self
                .r
                .int(
                    t,
                    vk,
                    (MIN_MTU + 14) as i64..=(MAX_MTU + 14) as i64,
                    &JUMBO_RANGE,
                )
                .map(|v| v.map(|n| Mtu::from_jumbo_packet(n as u32))),
            _ => self
                .r
                .int(
                    t,
                    vk,
                    (MIN_MTU + 18) as i64..=MAX_FRAME as i64,
                    &FRAME_RANGE,
                )
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
        }
        plain.into_iter().chain(vendor).collect()
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
    let has = |t: &DeTable<'i>, k: &str| crate::reader::entry(t, k).is_some();
    for group in ALTERNATIVES {
        if group.iter().any(|k| has(over, k)) {
            for k in *group {
                if !has(over, k) && has(base, k) {
                    base.remove(*k);
                }
            }
        }
    }
    for (k, v) in over.iter() {
        if k.get_ref() == "profile" {
            continue;
        }
        match (
            crate::reader::entry_mut(base, k.get_ref().as_ref()),
            v.get_ref(),
        ) {
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
