//! The hosts' written form, one for both sources: the Hyper-V writer
//! ([`super::fold`]) and the vSphere writer ([`super::vsphere_write`]) map
//! each host to a [`HostEntries`], its [`Entry`]s (table path under the
//! host, key, TOML value, comment); a profile fold then takes what hosts
//! share into a profile, and [`write_tables`] and [`line()`] write the
//! profiles and hosts. An entry carries its sources (the collection
//! lines it came from, [`Entry::sourced`]): both folds record the span
//! of each such `key = value` they write in a source map
//! ([`line_mapped`]), a value in a profile mapped to the first member
//! host with that value, so that `netlint check` on a collection reports
//! a finding about a host value at the collection's line. A table header
//! (`[hosts.X]`, a NIC's or vNIC's table) is mapped to the first source
//! of its entries, so a finding at an element (a NIC no cable ties,
//! `host-asymmetry`) points into the collection object it was read from.
//!
//! The two folds are two strategies, as the two sources group hosts:
//!
//! - [`by_shape`] (Hyper-V): hosts built of the same elements (NICs,
//!   teams, virtual switches, vNICs) are one build, `[profiles.build-N]`
//!   (`[profiles.hosts]` when all hosts are one build); the profile holds
//!   each value every member has, the most common one, and a host keeps
//!   as dotted overrides only what differs;
//! - [`per_cluster`] (vSphere): the hosts of one cluster collection are
//!   one profile; a value every host has and at least two share goes to
//!   the profile, the rest stays on the hosts as tables.
//!
//! Both take the most common value by [`majority`] (ties: the first
//! host's), and neither folds an entry that is [`Entry::host_only`].
//!
//! Every table header is written through the design's table registry
//! ([`Tables::header`]): a table's entries are gathered before it is
//! written, and a prefix's own table is opened either by the caller (who
//! wrote the lines above it, `open`) or by [`write_tables`], never both.
//! The names of the prefixes (`profiles.<name>`, `hosts.<name>`) are the
//! callers' to claim ([`Tables::claim`]) before they write: two vSphere
//! collections naming the same cluster get `esx-<cluster>` and
//! `esx-<cluster>-2`.

use std::cmp::Reverse;
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::hash::Hash;

use crate::design::toml::{comment_text, key, string, Prov};
use crate::design::{Mapped, Src, Tables};

/// One value of one host: the table path under the host (empty for the
/// host's own table), the key, the TOML value text and its comment.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub table: Vec<String>,
    pub key: &'static str,
    pub value: String,
    pub comment: String,
    /// Never folded into a profile (the switch port a host's NIC is on).
    pub host_only: bool,
    /// The collection lines the value came from, for the source map
    /// (empty: none recorded).
    pub srcs: Vec<Src>,
}

impl Entry {
    pub fn new(table: &[&str], key: &'static str, value: String, comment: String) -> Entry {
        Entry {
            table: table.iter().map(|s| s.to_string()).collect(),
            key,
            value,
            comment,
            host_only: false,
            srcs: Vec::new(),
        }
    }

    /// [`Entry::new`] with `from`'s text as the comment and its sources.
    pub(crate) fn sourced(table: &[&str], key: &'static str, value: String, from: Prov) -> Entry {
        Entry {
            srcs: from.srcs,
            ..Entry::new(table, key, value, from.text)
        }
    }

    /// Its (table, key): one host has one value for it.
    fn id(&self) -> Id<'_> {
        (self.table.as_slice(), self.key)
    }
}

/// What an entry is the value of: (table, key).
type Id<'a> = (&'a [String], &'a str);

/// One host as a source maps it: its design name and every value it
/// has, in the order written. Both writers make these, and a fold takes
/// them.
#[derive(Clone, Debug, PartialEq)]
pub struct HostEntries {
    pub name: String,
    pub entries: Vec<Entry>,
}

/// How an entry's line is written when its comment is empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blank {
    /// `key = value`, no comment column.
    Omit,
    /// The comment column stays: `key = value` padded, then `# `.
    Keep,
}

/// `key = value` with its comment in a column: `k` as written (a key
/// already quoted where it must be, or a dotted path of such keys).
pub fn line(out: &mut String, k: &str, v: &str, comment: &str, blank: Blank) {
    line_mapped(out, &mut Vec::new(), k, v, comment, &[], blank);
}

/// [`line()`], the span of `key = value` recorded in `map` as coming from
/// `srcs` (nothing recorded when there are none).
pub fn line_mapped(
    out: &mut String,
    map: &mut Vec<Mapped>,
    k: &str,
    v: &str,
    comment: &str,
    srcs: &[Src],
    blank: Blank,
) {
    let l = format!("{k} = {v}");
    if !srcs.is_empty() {
        map.push(Mapped {
            span: out.len()..out.len() + l.len(),
            from: srcs.to_vec(),
        });
    }
    if comment.is_empty() && blank == Blank::Omit {
        let _ = writeln!(out, "{l}");
    } else {
        let _ = writeln!(out, "{l:<40} # {}", comment_text(comment));
    }
}

/// [`line()`] of a bare key (quoted if it must be), no comment column when
/// the comment is empty.
pub fn line_kv(out: &mut String, k: &str, v: &str, comment: &str) {
    line(out, &key(k), v, comment, Blank::Omit);
}

/// The sources of the first of `entries` that has any: where a table
/// header of those entries is mapped (a host's `[hosts.X]`, a NIC's
/// `[...nics.P1]`), so a finding at the header points at the collection
/// object the values came from.
fn first_srcs<'a>(mut entries: impl Iterator<Item = &'a Entry>) -> Option<&'a [Src]> {
    entries
        .find(|e| !e.srcs.is_empty())
        .map(|e| e.srcs.as_slice())
}

/// Writes a `[table]` header line, its span mapped to `srcs` when given.
fn header_mapped(out: &mut String, map: &mut Vec<Mapped>, header: String, srcs: Option<&[Src]>) {
    out.push('\n');
    if let Some(srcs) = srcs {
        map.push(Mapped {
            span: out.len()..out.len() + header.len(),
            from: srcs.to_vec(),
        });
    }
    out.push_str(&header);
    out.push('\n');
}

/// Entries as tables under `prefix`: the root keys first (under the
/// prefix's own table, whose header is written here unless `open`: the
/// caller wrote it), then one table per element in order of first
/// appearance, each entry in its order. The span of each entry with
/// sources goes into `map`.
pub fn write_tables(
    out: &mut String,
    map: &mut Vec<Mapped>,
    tables: &mut Tables,
    prefix: &str,
    entries: &[Entry],
    open: bool,
    blank: Blank,
) {
    let mut root = entries.iter().filter(|e| e.table.is_empty()).peekable();
    if root.peek().is_some() && !open {
        let srcs = first_srcs(entries.iter().filter(|e| e.table.is_empty()));
        header_mapped(out, map, tables.header(prefix), srcs);
    }
    for e in root {
        line_mapped(out, map, &key(e.key), &e.value, &e.comment, &e.srcs, blank);
    }
    // Each table's entries, gathered in one pass (a search of the tables
    // and of the entries per table was quadratic in the NICs).
    let mut elements: Vec<(&Vec<String>, Vec<&Entry>)> = Vec::new();
    let mut index: HashMap<&Vec<String>, usize> = HashMap::new();
    for e in entries.iter().filter(|e| !e.table.is_empty()) {
        let i = *index.entry(&e.table).or_insert_with(|| {
            elements.push((&e.table, Vec::new()));
            elements.len() - 1
        });
        elements[i].1.push(e);
    }
    for (t, of) in elements {
        let path: Vec<String> = t.iter().map(|s| key(s)).collect();
        let header = format!("{prefix}.{}", path.join("."));
        header_mapped(
            out,
            map,
            tables.header(&header),
            first_srcs(of.iter().copied()),
        );
        for e in of {
            line_mapped(out, map, &key(e.key), &e.value, &e.comment, &e.srcs, blank);
        }
    }
}

/// The most common of `vals` (ties: the one seen first): the index of
/// its first occurrence and how many have it.
pub fn majority<T: Eq + Hash>(vals: impl IntoIterator<Item = T>) -> Option<(usize, usize)> {
    let mut counts: HashMap<T, (usize, usize)> = HashMap::new();
    for (i, v) in vals.into_iter().enumerate() {
        counts.entry(v).or_insert((0, i)).0 += 1;
    }
    counts
        .into_values()
        .max_by_key(|(n, i)| (*n, Reverse(*i)))
        .map(|(n, i)| (i, n))
}

/// The elements a host is built of: hosts with the same set share a
/// profile.
fn shape(entries: &[Entry]) -> BTreeSet<Vec<String>> {
    entries
        .iter()
        .filter(|e| !e.table.is_empty())
        .map(|e| e.table.clone())
        .collect()
}

/// The Hyper-V fold: writes `[profiles.*]` for every build two or more
/// hosts share (hosts grouped by their elements, in the order of their first
/// host), then every host, `hosts` being (name, entries) in the order
/// written; `file_of` names a host's collection. A host of a profile is
/// written as `profile = ...` and dotted overrides (all with the comment
/// column), one of no profile in full. Returns how many profiles and
/// overrides (entries not [`Entry::host_only`] that differ from the
/// profile) were written. The hosts' names are claimed by the caller,
/// the profiles' here.
pub fn by_shape(
    out: &mut String,
    map: &mut Vec<Mapped>,
    tables: &mut Tables,
    hosts: &[HostEntries],
    file_of: impl Fn(&str) -> String,
) -> (usize, usize) {
    // Group hosts by shape, in the order of their first host.
    let mut groups: Vec<(BTreeSet<Vec<String>>, Vec<usize>)> = Vec::new();
    for (i, h) in hosts.iter().enumerate() {
        let s = shape(&h.entries);
        match groups.iter_mut().find(|(g, _)| *g == s) {
            Some((_, members)) => members.push(i),
            None => groups.push((s, vec![i])),
        }
    }
    let mut profs: Vec<(String, Vec<Entry>)> = Vec::new();
    let mut profile_of: Vec<Option<usize>> = vec![None; hosts.len()];
    let many = groups.len() > 1;
    let mut profiles = 0;
    for (gi, (_, members)) in groups.iter().enumerate() {
        if members.len() < 2 {
            continue;
        }
        profiles += 1;
        let pname = if many {
            format!("build-{}", gi + 1)
        } else {
            "hosts".to_string()
        };
        let pname = tables.claim("profiles", &pname);
        // Every (table, key) all members have, with its most common value
        // (on a tie, the first host's). Indexed, so folding stays linear
        // in the hosts.
        let index: Vec<HashMap<Id<'_>, &Entry>> = members
            .iter()
            .map(|m| hosts[*m].entries.iter().map(|e| (e.id(), e)).collect())
            .collect();
        let first = &hosts[members[0]].entries;
        let mut prof: Vec<Entry> = Vec::new();
        for e in first.iter().filter(|e| !e.host_only) {
            let id = e.id();
            let vals: Vec<&Entry> = index.iter().filter_map(|ix| ix.get(&id).copied()).collect();
            if vals.len() != members.len() {
                continue;
            }
            let (at, n) =
                majority(vals.iter().map(|v| v.value.as_str())).expect("members is not empty");
            let b = vals[at];
            let mut pe = b.clone();
            pe.comment = if n == members.len() {
                format!("{} (all {n} hosts)", b.comment)
            } else {
                format!("{} ({n} of {} hosts)", b.comment, members.len())
            };
            prof.push(pe);
        }
        let prefix = format!("profiles.{}", key(&pname));
        let _ = writeln!(out, "\n{}", tables.header(&prefix));
        let _ = writeln!(
            out,
            "# the build shared by {}",
            comment_text(
                &members
                    .iter()
                    .map(|m| hosts[*m].name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        );
        write_tables(out, map, tables, &prefix, &prof, true, Blank::Keep);
        for m in members {
            profile_of[*m] = Some(profs.len());
        }
        profs.push((pname, prof));
    }
    let mut overrides = 0;
    for (i, HostEntries { name, entries }) in hosts.iter().enumerate() {
        let prefix = format!("hosts.{}", key(name));
        header_mapped(out, map, tables.header(&prefix), first_srcs(entries.iter()));
        let _ = writeln!(out, "# from {}", comment_text(&file_of(name)));
        match profile_of[i].map(|p| &profs[p]) {
            Some((pname, prof)) => {
                line_kv(out, "profile", &string(pname), "");
                let in_profile: HashMap<Id<'_>, &str> =
                    prof.iter().map(|p| (p.id(), p.value.as_str())).collect();
                for e in entries {
                    if in_profile.get(&e.id()) == Some(&e.value.as_str()) {
                        continue;
                    }
                    if !e.host_only {
                        overrides += 1;
                    }
                    let mut path: Vec<String> = e.table.iter().map(|t| key(t)).collect();
                    path.push(key(e.key));
                    line_mapped(
                        out,
                        map,
                        &path.join("."),
                        &e.value,
                        &e.comment,
                        &e.srcs,
                        Blank::Keep,
                    );
                }
            }
            None => write_tables(out, map, tables, &prefix, entries, true, Blank::Keep),
        }
    }
    (profiles, overrides)
}

/// The vSphere fold: the hosts of one cluster, (name, entries), written
/// as `[profiles.<profile>]` (what they share) and each
/// host with `profile = ...`, `cluster = ...` when `cluster` is given,
/// and its own entries as tables (no comment column where the comment is
/// empty). The span of each entry with sources goes into `map`, a value
/// in the profile mapped to the first host with that value. `profile`
/// and the hosts' names are claimed by the caller.
pub fn per_cluster(
    out: &mut String,
    map: &mut Vec<Mapped>,
    tables: &mut Tables,
    profile: &str,
    cluster: Option<&str>,
    hosts: &[HostEntries],
) {
    let (shared, own) = split(hosts);
    let prefix = format!("profiles.{}", key(profile));
    write_tables(out, map, tables, &prefix, &shared, false, Blank::Omit);
    for (h, entries) in hosts.iter().zip(own) {
        let name = &h.name;
        let prefix = format!("hosts.{}", key(name));
        header_mapped(
            out,
            map,
            tables.header(&prefix),
            first_srcs(h.entries.iter()),
        );
        line_kv(out, "profile", &string(profile), "");
        if let Some(c) = cluster {
            line_kv(out, "cluster", &string(c), "");
        }
        write_tables(out, map, tables, &prefix, &entries, true, Blank::Omit);
    }
}

/// Splits hosts' entries into the profile's (a key every host has, with
/// the value most have, when at least two have it or there is one host)
/// and each host's own (what differs from the profile, and keys only some
/// hosts have), each in the order keys are first seen across the hosts.
fn split(hosts: &[HostEntries]) -> (Vec<Entry>, Vec<Vec<Entry>>) {
    let n = hosts.len();
    let mut order: Vec<Id<'_>> = Vec::new();
    let mut by_key: HashMap<Id<'_>, Vec<(usize, &Entry)>> = HashMap::new();
    for (i, h) in hosts.iter().enumerate() {
        for e in &h.entries {
            let list = by_key.entry(e.id()).or_default();
            if list.is_empty() {
                order.push(e.id());
            }
            list.push((i, e));
        }
    }
    let mut shared = Vec::new();
    let mut own: Vec<Vec<Entry>> = vec![Vec::new(); n];
    for k in order {
        let list = &by_key[&k];
        let everyone = list.len() == n && n > 0 && list.iter().all(|(_, e)| !e.host_only);
        // A value no two hosts share (a switch port) stays on the hosts.
        let common = everyone
            .then(|| majority(list.iter().map(|(_, e)| e.value.as_str())))
            .flatten()
            .filter(|(_, count)| n == 1 || *count > 1)
            .map(|(at, _)| list[at].1);
        match common {
            Some(f) => {
                shared.push(f.clone());
                for (i, e) in list {
                    if e.value != f.value {
                        own[*i].push((*e).clone());
                    }
                }
            }
            None => {
                for (i, e) in list {
                    own[*i].push((*e).clone());
                }
            }
        }
    }
    (shared, own)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(name: &str, entries: Vec<Entry>) -> HostEntries {
        HostEntries {
            name: name.into(),
            entries,
        }
    }

    fn e(k: &'static str, v: &str) -> Entry {
        Entry::new(&["vnics", "vmk1"], k, v.into(), String::new())
    }

    #[test]
    fn per_cluster_keeps_the_majority_in_the_profile_and_the_rest_on_hosts() {
        let hosts = vec![
            host("a", vec![e("mtu", "9000"), e("port", "1")]),
            host("b", vec![e("mtu", "9000"), e("port", "2")]),
            host("c", vec![e("mtu", "1500"), e("port", "3")]),
        ];
        let (shared, own) = split(&hosts);
        assert_eq!(shared, vec![e("mtu", "9000")]);
        assert_eq!(own[0], vec![e("port", "1")]);
        assert_eq!(own[1], vec![e("port", "2")]);
        assert_eq!(own[2], vec![e("mtu", "1500"), e("port", "3")]);
    }

    #[test]
    fn by_shape_folds_a_build_and_writes_what_differs_as_overrides() {
        let port = |v: &str| Entry {
            host_only: true,
            ..e("port", v)
        };
        let hosts = vec![
            host("a", vec![e("mtu", "9000"), port("1")]),
            host("b", vec![e("mtu", "1500"), port("2")]),
            host("c", vec![e("mtu", "9000"), port("3")]),
        ];
        let mut out = String::new();
        let (profiles, overrides) = by_shape(
            &mut out,
            &mut Vec::new(),
            &mut Tables::default(),
            &hosts,
            |h| format!("{h}.json"),
        );
        assert_eq!((profiles, overrides), (1, 1));
        assert!(out.starts_with("\n[profiles.hosts]\n# the build shared by a, b, c\n\n[profiles.hosts.vnics.vmk1]\nmtu = 9000 "), "{out}");
        assert!(out.contains("#  (2 of 3 hosts)\n\n[hosts.a]"), "{out}");
        assert!(!out.contains("[profiles.hosts.vnics.vmk1]\nport"), "{out}");
        assert!(
            out.contains("[hosts.b]\n# from b.json\nprofile = \"hosts\"\nvnics.vmk1.mtu = 1500 "),
            "{out}"
        );
    }

    #[test]
    fn by_shape_maps_each_value_to_its_hosts_line() {
        let at = |file: &str, line| {
            Src::Line(crate::design::At {
                file: file.into(),
                line,
            })
        };
        let mtu = |v: &str, file: &str, line| Entry {
            srcs: vec![at(file, line)],
            ..e("mtu", v)
        };
        let hosts = vec![
            host("a", vec![mtu("9000", "a.json", 7)]),
            host("b", vec![mtu("1500", "b.json", 8)]),
            host("c", vec![mtu("9000", "c.json", 9)]),
        ];
        let mut out = String::new();
        let mut map = Vec::new();
        by_shape(&mut out, &mut map, &mut Tables::default(), &hosts, |h| {
            format!("{h}.json")
        });
        let map = crate::design::SourceMap::new(map);
        let find = |text: &str| {
            let start = out.find(text).expect(text);
            let m = map.lookup(start..start + text.len()).expect(text);
            assert_eq!(&out[m.span.clone()], text);
            m.from.clone()
        };
        // The profile's value: the line of the first host that has it.
        assert_eq!(find("mtu = 9000"), [at("a.json", 7)]);
        assert_eq!(find("vnics.vmk1.mtu = 1500"), [at("b.json", 8)]);
        // Each header: its entries' first source (a host's own line for
        // `[hosts.X]`, so a finding at a host's header names its file).
        assert_eq!(find("[profiles.hosts.vnics.vmk1]"), [at("a.json", 7)]);
        assert_eq!(find("[hosts.b]"), [at("b.json", 8)]);
        assert_eq!(find("[hosts.c]"), [at("c.json", 9)]);
        assert_eq!(map.entries().len(), 6, "{out}");
    }

    #[test]
    fn per_cluster_maps_each_value_to_its_hosts_line() {
        let at = |line| {
            Src::Line(crate::design::At {
                file: "c.vsphere.json".into(),
                line,
            })
        };
        let mtu = |v: &str, line| Entry {
            srcs: vec![at(line)],
            ..e("mtu", v)
        };
        let hosts = vec![
            host("a", vec![mtu("9000", 7)]),
            host("b", vec![mtu("9000", 8)]),
            host("c", vec![mtu("1500", 9)]),
        ];
        let mut out = String::new();
        let mut map = Vec::new();
        per_cluster(
            &mut out,
            &mut map,
            &mut Tables::default(),
            "esx-c",
            None,
            &hosts,
        );
        let map = crate::design::SourceMap::new(map);
        let find = |text: &str, from: usize| {
            let start = from + out[from..].find(text).expect(text);
            let m = map.lookup(start..start + text.len()).expect(text);
            assert_eq!(&out[m.span.clone()], text);
            m.from.clone()
        };
        // The profile's value: the line of the first host with it.
        assert_eq!(find("mtu = 9000", 0), [at(7)]);
        let c = out.find("[hosts.c.").expect(&out);
        assert_eq!(find("mtu = 1500", c), [at(9)]);
        // Headers: the profile's element table, each host, host c's own
        // element table.
        assert_eq!(find("[profiles.esx-c.vnics.vmk1]", 0), [at(7)]);
        assert_eq!(find("[hosts.b]", 0), [at(8)]);
        assert_eq!(find("[hosts.c.vnics.vmk1]", 0), [at(9)]);
        assert_eq!(map.entries().len(), 7, "{out}");
    }

    #[test]
    fn a_profile_table_opens_once_and_a_host_table_is_left_to_its_writer() {
        let mut entries = vec![Entry::new(&[], "os", "\"x\"".into(), String::new())];
        entries.push(e("mtu", "9000"));
        entries.push(Entry::new(&[], "power", "\"balanced\"".into(), "c".into()));
        entries.push(e("rdma", "true"));
        let mut out = String::new();
        let mut tables = Tables::default();
        write_tables(
            &mut out,
            &mut Vec::new(),
            &mut tables,
            "profiles.p",
            &entries,
            false,
            Blank::Omit,
        );
        assert_eq!(
            out,
            "\n[profiles.p]\nos = \"x\"\npower = \"balanced\"                       # c\n\n[profiles.p.vnics.vmk1]\nmtu = 9000\nrdma = true\n"
        );
        let mut out = String::new();
        write_tables(
            &mut out,
            &mut Vec::new(),
            &mut tables,
            "hosts.h",
            &entries[..1],
            true,
            Blank::Keep,
        );
        assert_eq!(out, format!("{:<40} # \n", "os = \"x\""));
    }

    #[test]
    fn majority_ties_go_to_the_first_seen() {
        assert_eq!(majority(["a", "b", "b", "a"]), Some((0, 2)));
        assert_eq!(majority(["a", "b", "b"]), Some((1, 2)));
        assert_eq!(majority(Vec::<&str>::new()), None);
    }
}
