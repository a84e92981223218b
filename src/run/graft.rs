//! The design's hosts on an as-built side that has none (switch configs,
//! LLDP and a cabling sheet): `netlint diff` judges each difference by
//! the findings it adds on the network as built *with its hosts*, so a
//! storage VLAN pruned from the only port of a host's SMB NIC is the
//! partition it causes, not a trunk that merely differs.
//!
//! The hosts are the design's (its `networks`, `profiles` and `hosts`
//! tables, and the `platform` and `drain_budget` of `[design]`), cabled as
//! the as-built's cabling sheet says where it has a row for a NIC (its
//! switch and port) and as the design says elsewhere, each design switch
//! named as the switch it matches as built. The graft is text: the
//! as-built text with two keys inserted in its `[design]` table and the
//! hosts' tables after it, so that every span of the as-built text can be
//! moved back to its own file ([`Graft::to_built`]).

use netlint_analysis::drift::{match_designs, CabledPeer};
use netlint_model::{load, Design, SourceFile, Span};
use toml_edit::{DocumentMut, Item, Table, Value};

/// The as-built text with the design's hosts grafted on.
pub struct Graft {
    /// The combined text (load it as the as-built side).
    pub text: String,
    /// The edits of the as-built text before the tail, in text order: the
    /// `[design]` keys inserted, and the as-built's networks of unknown
    /// role that a design network replaces, removed.
    edits: Vec<Edit>,
    /// Where the hosts' tables start in `text`.
    tail_at: usize,
    /// The grafted `switch` / `port` values a cabling row set, with the
    /// row's file and line span.
    rows: Vec<(Span, (String, Span))>,
}

/// Where a span of the combined text is in the as-built's own files.
pub enum Origin {
    /// In the as-built text, at this span.
    Built(Span),
    /// A value set by a cabling row: the row's file and line span.
    Row(String, Span),
    /// Grafted from the design: no as-built line.
    Grafted,
}

impl Graft {
    /// Where `span` of the combined text comes from.
    pub fn to_built(&self, span: Span) -> Origin {
        if let Some((_, (file, row))) = self
            .rows
            .iter()
            .find(|(s, _)| s.start <= span.start && span.end <= s.end)
        {
            return Origin::Row(file.clone(), *row);
        }
        if span.start >= self.tail_at {
            return Origin::Grafted;
        }
        // How far the combined text runs ahead of (or behind) the as-built
        // text at `span`: the edits before it.
        let mut ahead: isize = 0;
        for e in &self.edits {
            let at = e.at.saturating_add_signed(ahead);
            if span.start < at {
                break;
            }
            if span.start < at + e.inserted {
                return Origin::Grafted;
            }
            ahead += e.inserted as isize - e.removed as isize;
        }
        let back = |x: usize| x.saturating_add_signed(-ahead);
        Origin::Built(Span::new(back(span.start), back(span.end)))
    }
}

/// One edit of the as-built text: at byte `at` of it, `removed` bytes of
/// it left out and `inserted` bytes put in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Edit {
    at: usize,
    removed: usize,
    inserted: usize,
}

/// The byte ranges of the as-built's `[networks.NAME]` tables (header to
/// the next header) that the design's networks replace: those of unknown
/// role (the VLANs `netlint import` read off switch configs) whose VLAN or
/// name a design network has. `None` when the as-built has a network of
/// known role (its own hosts' networks, which stay), or a table to
/// replace is not written as one `[networks.NAME]` section.
fn replaced_networks(built: &SourceFile, b: &Design, d: &Design) -> Option<Vec<(usize, usize)>> {
    if b.networks
        .iter()
        .any(|n| n.role.value != netlint_model::Role::Unknown)
    {
        return None;
    }
    let replaced: Vec<&str> = b
        .networks
        .iter()
        .filter(|n| {
            d.networks.iter().any(|x| {
                x.name.eq_ignore_ascii_case(&n.name)
                    || (x.vlan_id().is_some() && x.vlan_id() == n.vlan_id())
            })
        })
        .map(|n| n.name.as_str())
        .collect();
    // Each header line's table path, and where its section ends.
    let mut headers: Vec<(usize, Option<Vec<String>>)> = Vec::new();
    let mut at = 0;
    for line in built.text.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with('[') {
            let path = t
                .trim_end()
                .parse::<DocumentMut>()
                .ok()
                .and_then(|doc| table_path(doc.as_table()));
            headers.push((at, path));
        }
        at += line.len();
    }
    let mut out = Vec::new();
    for name in replaced {
        let i = headers.iter().position(|(_, p)| {
            p.as_ref()
                .is_some_and(|p| p.len() == 2 && p[0] == "networks" && p[1] == name)
        })?;
        let end = headers.get(i + 1).map_or(built.text.len(), |h| h.0);
        out.push((headers[i].0, end));
    }
    out.sort_unstable();
    Some(out)
}

/// The path of the one table a header line defines (`[a.b]` -> a, b).
fn table_path(t: &Table) -> Option<Vec<String>> {
    let mut path = Vec::new();
    let mut t = t;
    loop {
        let mut it = t.iter();
        let (k, v) = it.next()?;
        if it.next().is_some() {
            return None;
        }
        path.push(k.to_string());
        match v.as_table() {
            Some(sub) if !sub.is_empty() => t = sub,
            Some(_) => return Some(path),
            None => return None,
        }
    }
}

/// The design's hosts grafted onto `built` when `built` has no host and
/// the design has some, cabled by `peers` (the as-built's cabling rows to
/// hosts) where they name a design NIC. `None` when there is nothing to
/// graft, or the result would not load cleanly (a NIC cabled to a switch
/// with no match as built, a `switch_port` the as-built switch does not
/// configure): the as-built is then compared without hosts, as before.
pub fn graft_hosts(
    design: &SourceFile,
    d: &Design,
    built: &SourceFile,
    b: &Design,
    peers: &[CabledPeer],
) -> Option<Graft> {
    if !b.hosts.is_empty() || d.hosts.is_empty() {
        return None;
    }
    let m = match_designs(d, b);
    let rename = |name: &str| -> Option<String> {
        let i = d.switches.iter().position(|s| s.name == name)?;
        let j = m.switches.built(netlint_model::SwitchId(i))?;
        Some(b.switch(j).name.clone())
    };
    let doc: DocumentMut = design.text.parse().ok()?;
    let bdoc: DocumentMut = built.text.parse().ok()?;
    let mut tail = DocumentMut::new();
    // The as-built's networks of unknown role (its switches' VLANs) give
    // way to the design's, which say what each carries.
    let removed = if bdoc.contains_key("networks") {
        replaced_networks(built, b, d).unwrap_or_default()
    } else {
        Vec::new()
    };
    let replace = !removed.is_empty();
    for key in ["networks", "profiles", "hosts"] {
        // A table the as-built already has (its own networks) is its own:
        // the hosts then name its networks, or the graft does not load.
        if bdoc.contains_key(key) && !(key == "networks" && replace) {
            continue;
        }
        if let Some(item) = doc.get(key) {
            let mut item = item.clone();
            if let Some(t) = item.as_table_mut() {
                // Only `[networks.NAME]` headers: the as-built may still
                // define some of its own networks' tables.
                t.set_implicit(true);
            }
            tail.insert(key, item);
        }
    }
    // Each NIC's `switch`, named as built.
    let mut ok = true;
    for key in ["profiles", "hosts"] {
        let Some(t) = tail.get_mut(key).and_then(Item::as_table_like_mut) else {
            continue;
        };
        for (_, owner) in t.iter_mut() {
            let Some(nics) = owner
                .as_table_like_mut()
                .and_then(|o| o.get_mut("nics"))
                .and_then(|n| n.as_table_like_mut())
            else {
                continue;
            };
            for (_, nic) in nics.iter_mut() {
                let Some(nic) = nic.as_table_like_mut() else {
                    continue;
                };
                let Some(to) = nic
                    .get("switch")
                    .and_then(|s| s.as_str())
                    .map(str::to_string)
                else {
                    continue;
                };
                match rename(&to) {
                    Some(n) if n != to => {
                        nic.insert("switch", toml_edit::value(n));
                    }
                    Some(_) => {}
                    None => ok = false,
                }
            }
        }
    }
    if !ok {
        return None;
    }
    // The cabling rows: the NIC's switch and port as built.
    let mut from_rows: Vec<(String, String, &CabledPeer)> = Vec::new();
    for p in peers {
        let Some((hi, ni)) = p.nic_in(d) else {
            continue;
        };
        let (h, n) = (d.host(hi), d.host(hi).nic(ni));
        if !b.switches.iter().any(|s| s.name == p.switch) || n.switch_port.is_some() {
            continue;
        }
        let hosts = tail
            .entry("hosts")
            .or_insert(Item::Table(Table::new()))
            .as_table_like_mut()?;
        let host = hosts
            .entry(&h.name)
            .or_insert(Item::Table(Table::new()))
            .as_table_like_mut()?;
        let nics = host
            .entry("nics")
            .or_insert(Item::Table(dotted_table()))
            .as_table_like_mut()?;
        let nic = nics
            .entry(&n.name)
            .or_insert(Item::Value(Value::InlineTable(Default::default())));
        let nic = nic.as_table_like_mut()?;
        nic.insert("switch", toml_edit::value(p.switch.clone()));
        nic.insert("port", toml_edit::value(p.port.clone()));
        from_rows.push((h.name.clone(), n.name.clone(), p));
    }
    // `[design]`'s keys the hosts depend on, after its first line.
    let bdesign = bdoc.get("design").and_then(Item::as_table_like)?;
    let ddesign = doc.get("design").and_then(Item::as_table_like);
    let mut keys = String::new();
    for key in ["platform", "drain_budget"] {
        if bdesign.contains_key(key) {
            continue;
        }
        if let Some(v) = ddesign.and_then(|t| t.get(key)).and_then(Item::as_value) {
            keys.push_str(&format!("{key} = {}\n", v.to_string().trim()));
        }
    }
    let header = find_design_header(&built.text)?;
    let insert_at = built.text[header..]
        .find('\n')
        .map_or(built.text.len(), |i| header + i + 1);
    let mut edits = vec![Edit {
        at: insert_at,
        removed: 0,
        inserted: keys.len(),
    }];
    edits.extend(removed.iter().map(|&(from, to)| Edit {
        at: from,
        removed: to - from,
        inserted: 0,
    }));
    edits.sort_by_key(|e| (e.at, e.removed));
    if edits.windows(2).any(|w| w[0].at + w[0].removed > w[1].at) {
        return None;
    }
    let mut text = String::with_capacity(built.text.len() + keys.len() + 4096);
    let mut from = 0;
    for e in &edits {
        text.push_str(&built.text[from..e.at]);
        if e.inserted > 0 {
            text.push_str(&keys);
        }
        from = e.at + e.removed;
    }
    text.push_str(&built.text[from..]);
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str("\n# The design's hosts, cabled as built (netlint diff).\n");
    let tail_at = text.len();
    text.push_str(&tail.to_string());
    let combined = SourceFile::new(built.path.clone(), text.clone());
    let loaded = load(&combined);
    let g = loaded.design.as_ref()?;
    if loaded
        .diagnostics
        .iter()
        .any(netlint_model::Diagnostic::is_input_error)
    {
        return None;
    }
    let mut rows = Vec::new();
    for (host, nic, p) in from_rows {
        let Some(at) = p.at.clone() else { continue };
        let Some(h) = g.hosts.iter().find(|h| h.name == host) else {
            continue;
        };
        let Some(n) = h.nics.iter().find(|n| n.name == nic) else {
            continue;
        };
        if let Some(netlint_model::Attachment::Switch(s)) = &n.attach {
            rows.push((s.span, at.clone()));
        }
        if let Some(port) = &n.port {
            rows.push((port.span, at));
        }
    }
    Some(Graft {
        text,
        edits,
        tail_at,
        rows,
    })
}

/// A table written as dotted keys of its parent (`nics.P1 = { ... }`).
fn dotted_table() -> Table {
    let mut t = Table::new();
    t.set_dotted(true);
    t
}

/// The byte offset of the `[design]` header line.
fn find_design_header(text: &str) -> Option<usize> {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if t == "[design]" || t.starts_with("[design]") && t[8..].trim_start().starts_with('#') {
            return Some(at);
        }
        at += line.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const DESIGN: &str = r#"[design]
name = "d"
platform = "windows-server-2022"

[networks.smb]
role = "storage"
vlan = 711

[switches.tor-a]
mtu = 9216

[hosts.hv1.nics.A]
speed = "25G"
switch = "tor-a"
networks = ["smb"]
"#;

    const BUILT: &str = r#"[design]
name = "imported"

[switches.tor-a]
mtu = 9216
vlans = [711]
"#;

    fn loaded(path: &str, text: &str) -> (SourceFile, Design) {
        let f = SourceFile::new(path, text);
        let d = load(&f).design.expect("loads");
        (f, d)
    }

    #[test]
    fn the_hosts_go_on_the_as_built_cabled_by_its_rows_and_spans_map_back() {
        let (df, d) = loaded("d.toml", DESIGN);
        let (bf, b) = loaded("b.toml", BUILT);
        let peers = [CabledPeer {
            switch: "tor-a".into(),
            port: "Ethernet1/1".into(),
            device: "HV1".into(),
            device_port: "a".into(),
            at: Some(("cabling.csv".into(), Span::new(10, 20))),
        }];
        let g = graft_hosts(&df, &d, &bf, &b, &peers).expect("grafted");
        let (_, combined) = loaded("b.toml", &g.text);
        assert_eq!(combined.hosts.len(), 1);
        assert_eq!(combined.platform.value.to_string(), "windows-server-2022");
        let nic = &combined.hosts[0].nics[0];
        assert_eq!(nic.port.as_ref().unwrap().value, "Ethernet1/1");
        // The as-built's own lines map back, shifted past the inserted key.
        let at = g.text.find("[switches.tor-a]").unwrap();
        let orig = BUILT.find("[switches.tor-a]").unwrap();
        match g.to_built(Span::new(at, at + 16)) {
            Origin::Built(s) => assert_eq!(s, Span::new(orig, orig + 16)),
            _ => panic!("not mapped back"),
        }
        // The row's value goes to the row, the rest of the hosts nowhere.
        let port = nic.port.as_ref().unwrap().span;
        assert!(matches!(g.to_built(port), Origin::Row(f, _) if f == "cabling.csv"));
        assert!(matches!(
            g.to_built(combined.hosts[0].span),
            Origin::Grafted
        ));
    }

    #[test]
    fn the_design_networks_replace_the_switches_vlans_of_unknown_role_and_spans_still_map_back() {
        let built = r#"[design]
name = "imported"

[networks.Storage_711]
# VLAN 711 is named Storage_711 (tor-a.cfg:20)
role = "unknown"
vlan = 711

[networks.PARKING]
role = "unknown"
vlan = 999

[networks.smb]
role = "unknown"
vlan = 712

[switches.tor-a]
mtu = 9216
vlans = [711, 712, 999]
"#;
        let (df, d) = loaded("d.toml", DESIGN);
        let (bf, b) = loaded("b.toml", built);
        let g = graft_hosts(&df, &d, &bf, &b, &[]).expect("grafted");
        let (_, combined) = loaded("b.toml", &g.text);
        // VLAN 711 is the design's `smb` (storage); the as-built's table of
        // the same name (VLAN 712) gives way too; PARKING stays.
        let mut nets: Vec<(String, String, Option<u16>)> = combined
            .networks
            .iter()
            .map(|n| (n.name.clone(), n.role.value.to_string(), n.vlan_id()))
            .collect();
        nets.sort();
        assert_eq!(
            nets,
            [
                ("PARKING".into(), "unknown".into(), Some(999)),
                ("smb".into(), "storage".into(), Some(711)),
            ]
        );
        assert_eq!(combined.hosts.len(), 1);
        // A line after the removed tables maps back to its as-built place,
        // and one between them too.
        for needle in ["[switches.tor-a]", "[networks.PARKING]", "vlan = 999"] {
            let at = g.text.find(needle).unwrap();
            let orig = built.find(needle).unwrap();
            match g.to_built(Span::new(at, at + needle.len())) {
                Origin::Built(s) => {
                    assert_eq!(s, Span::new(orig, orig + needle.len()), "{needle}")
                }
                _ => panic!("{needle} not mapped back"),
            }
        }
        // With an as-built network of known role, the as-built's networks
        // are its own: none is replaced (the hosts take its `smb`).
        let own = built.replacen(
            "role = \"unknown\"\nvlan = 999",
            "role = \"vm\"\nvlan = 999",
            1,
        );
        let (bf, b) = loaded("b.toml", &own);
        let g = graft_hosts(&df, &d, &bf, &b, &[]).expect("grafted");
        let (_, combined) = loaded("b.toml", &g.text);
        assert_eq!(combined.networks.len(), 3);
        let smb = combined.networks.iter().find(|n| n.name == "smb").unwrap();
        assert_eq!(smb.vlan_id(), Some(712));
    }

    #[test]
    fn nothing_is_grafted_where_a_nic_has_no_switch_as_built_or_hosts_exist() {
        let (df, d) = loaded("d.toml", DESIGN);
        let (bf, b) = loaded(
            "b.toml",
            "[design]\nname = \"imported\"\n\n[switches.other]\nmtu = 9216\n[switches.more]\nmtu = 9216\n",
        );
        assert!(graft_hosts(&df, &d, &bf, &b, &[]).is_none());
        // An as-built with hosts is compared as it is.
        assert!(graft_hosts(&df, &d, &df, &d, &[]).is_none());
    }
}
