//! Completion: element names where a key names another element, enum
//! values where a key takes one, rule ids in `allow` and `[netlint] rules`.
//! Read from the line being typed (which need not parse yet) and the last
//! design of the document that loaded.

use netlint_model::{
    ClusterUse, Design, FailOn, LagMode, Level, LinkKind, LoadBalancing, PathCost, Platform,
    PolicyMatch, Power, Protocol, Rdma, Role, StpMode, SwitchLag, TeamKind, TeamMode, Tier,
    Transport, VSwitchKind,
};

/// What a completion item is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemKind {
    /// An element of the design.
    Name,
    /// A value of an enumeration.
    Value,
    Rule,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub label: String,
    pub kind: ItemKind,
    pub detail: String,
}

/// Where the cursor is, read from the text before it.
#[derive(Debug, PartialEq, Eq)]
struct Place<'t> {
    /// The key whose value is being written (`switch` in `switch = "to`).
    key: Option<&'t str>,
    /// The key of the inline table around it (`stp` in `stp = { mode = "`).
    parent: Option<&'t str>,
    /// The table header above (`profiles.node.nics.P1-1`).
    header: &'t str,
    /// Inside a string.
    in_string: bool,
    /// At a key of an inline table or a table (not a value).
    at_key: bool,
}

fn last_segment(key: &str) -> &str {
    let k = key.trim().trim_matches(['"', '\'']);
    k.rsplit('.').next().unwrap_or(k).trim_matches(['"', '\''])
}

fn place<'t>(text: &'t str, offset: usize) -> Place<'t> {
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = &before[line_start..];
    let header = before[..line_start]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('['))
        .map(|l| {
            let l = l.trim_start_matches('[').trim_start_matches('[');
            l.split(']').next().unwrap_or("").trim()
        })
        .unwrap_or("");
    let in_string = line.matches('"').count() % 2 == 1;
    // The last `=` outside strings, and the last unclosed `{`.
    let mut quote = false;
    let mut eq: Option<usize> = None;
    let mut braces: Vec<usize> = Vec::new();
    let mut last_sep: Option<usize> = None;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quote = !quote,
            '=' if !quote => eq = Some(i),
            '{' if !quote => {
                braces.push(i);
                last_sep = Some(i);
            }
            '}' if !quote => {
                braces.pop();
            }
            ',' if !quote => last_sep = Some(i),
            _ => {}
        }
    }
    let key_before = |end: usize| -> Option<&'t str> {
        let s = line[..end].trim_end();
        let start = s.rfind(['{', ',']).map_or(0, |i| i + 1);
        let k = last_segment(&s[start..]);
        (!k.is_empty()).then_some(k)
    };
    // At a key: no `=` since the last `{` or `,` (inline), or none on the line.
    let at_key = match (eq, last_sep) {
        (None, _) => true,
        (Some(e), Some(s)) => s > e && !braces.is_empty(),
        _ => false,
    };
    let key = eq.filter(|_| !at_key).and_then(key_before);
    let parent = braces.last().and_then(|&b| {
        let s = line[..b].trim_end().strip_suffix('=')?;
        Some(last_segment(s.rsplit([',', '{']).next().unwrap_or(s)))
    });
    Place {
        key,
        parent,
        header,
        in_string,
        at_key,
    }
}

fn values(names: &[&str], detail: &str) -> Vec<Item> {
    names
        .iter()
        .map(|n| Item {
            label: n.to_string(),
            kind: ItemKind::Value,
            detail: detail.to_string(),
        })
        .collect()
}

fn names<'a>(it: impl Iterator<Item = &'a str>, detail: &str) -> Vec<Item> {
    let mut out: Vec<Item> = Vec::new();
    for n in it {
        if !out.iter().any(|i| i.label == n) {
            out.push(Item {
                label: n.to_string(),
                kind: ItemKind::Name,
                detail: detail.to_string(),
            });
        }
    }
    out
}

fn rules() -> Vec<Item> {
    netlint_rules::all_ids()
        .into_iter()
        .map(|id| Item {
            label: id.to_string(),
            kind: ItemKind::Rule,
            detail: super::hover::rule_meta(id).map_or(String::new(), |m| m.summary.to_string()),
        })
        .collect()
}

/// The NIC and team names of the host or profile whose table the cursor is
/// in (a profile's: those of the first host built from it).
fn interfaces(design: &Design, header: &str) -> Vec<Item> {
    let mut parts = header.split('.');
    let (kind, name) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let host = match kind {
        "hosts" => design.hosts.iter().find(|h| h.name == name),
        "profiles" => design
            .hosts
            .iter()
            .find(|h| h.profile.as_ref().is_some_and(|p| p.value == name)),
        _ => None,
    };
    let Some(host) = host else {
        return Vec::new();
    };
    let mut out = names(host.nics.iter().map(|n| n.name.as_str()), "NIC");
    out.extend(names(host.teams.iter().map(|t| t.name.as_str()), "team"));
    out
}

/// The completions at `offset`. `design` is the last one the document
/// loaded (names change seldom; the text being typed rarely parses).
pub fn complete(text: &str, offset: usize, design: Option<&Design>) -> Vec<Item> {
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return Vec::new();
    }
    let p = place(text, offset);
    let in_allow = p.parent == Some("allow")
        || p.header.ends_with(".allow")
        || p.header == "allow"
        || p.parent == Some("rules")
        || p.header == "netlint.rules";
    if p.at_key {
        return if in_allow { rules() } else { Vec::new() };
    }
    if !p.in_string {
        return Vec::new();
    }
    let Some(key) = p.key else {
        return Vec::new();
    };
    if p.parent == Some("rules") || p.header == "netlint.rules" {
        return values(Level::NAMES, "level");
    }
    let section = p.header.split('.').next().unwrap_or("");
    let sub = |name: &str| p.header.split('.').any(|s| s == name);
    let enum_values = match key {
        "platform" | "os" => Some((Platform::NAMES, "platform")),
        "role" => Some((Role::NAMES, "network role")),
        "protocol" => Some((Protocol::NAMES, "storage protocol")),
        "cluster_use" => Some((ClusterUse::NAMES, "cluster use")),
        "tier" => Some((Tier::NAMES, "switch tier")),
        "mode" if p.parent == Some("stp") || sub("stp") => Some((StpMode::NAMES, "spanning tree")),
        "mode" => Some((TeamMode::NAMES, "team mode")),
        "path_cost" => Some((PathCost::NAMES, "path cost method")),
        "lag" => Some((LagMode::NAMES, "link aggregation")),
        "kind" if section == "links" => Some((LinkKind::NAMES, "link kind")),
        "kind" if sub("teams") => Some((TeamKind::NAMES, "team kind")),
        "kind" if sub("vswitches") => Some((VSwitchKind::NAMES, "virtual switch kind")),
        "power" => Some((Power::NAMES, "power plan")),
        "rdma" => Some((Rdma::NAMES, "RDMA")),
        "load_balancing" => Some((LoadBalancing::NAMES, "load balancing")),
        "switch_lag" => Some((SwitchLag::NAMES, "switch LAG")),
        "transport" => Some((Transport::NAMES, "live migration transport")),
        "match" => Some((PolicyMatch::NAMES, "DCB policy match")),
        "fail_on" => Some((FailOn::NAMES, "fail level")),
        _ => None,
    };
    if let Some((names, detail)) = enum_values {
        return values(names, detail);
    }
    let Some(d) = design else {
        return Vec::new();
    };
    match key {
        "profile" => names(d.profiles.iter().map(|x| x.name.as_str()), "profile"),
        "switch" | "a" | "b" => names(d.switches.iter().map(|x| x.name.as_str()), "switch"),
        "network" | "networks" => names(d.networks.iter().map(|x| x.name.as_str()), "network"),
        "host" | "used_by" => names(d.hosts.iter().map(|x| x.name.as_str()), "host"),
        "members" | "uplinks" | "active_uplinks" | "standby_uplinks" | "standby" => {
            interfaces(d, p.header)
        }
        "nic" if p.parent == Some("peer") => names(
            d.hosts
                .iter()
                .flat_map(|h| h.nics.iter().map(|n| n.name.as_str())),
            "NIC",
        ),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use netlint_model::{load, SourceFile};

    fn labels(text: &str, design: Option<&Design>) -> Vec<String> {
        let at = text.find('|').expect("cursor");
        let text = text.replace('|', "");
        complete(&text, at, design)
            .into_iter()
            .map(|i| i.label)
            .collect()
    }

    #[test]
    fn enum_values_by_key_and_table() {
        assert_eq!(labels("[networks.x]\nrole = \"|", None), Role::NAMES);
        assert_eq!(
            labels("[switches.s]\nstp = { mode = \"r|", None),
            StpMode::NAMES
        );
        assert_eq!(
            labels("[hosts.h.teams.T]\nmode = \"|", None),
            TeamMode::NAMES
        );
        assert_eq!(labels("[[links]]\nkind = \"|", None), LinkKind::NAMES);
        assert!(labels("[networks.x]\nrole = |", None).is_empty());
    }

    #[test]
    fn element_names_from_the_design() {
        let src = include_str!("../../fixtures/example.toml");
        let d = load(&SourceFile::new("e.toml", src)).design.unwrap();
        assert_eq!(labels("[hosts.hv9]\nprofile = \"|", Some(&d)), ["node"]);
        assert_eq!(labels("[[links]]\na = \"|", Some(&d)), ["tor-a", "tor-b"]);
        assert_eq!(
            labels(
                "[profiles.node.vswitches.V]\nuplinks = [\"P1-1\", \"|",
                Some(&d)
            ),
            ["P1-1", "P1-2", "P2-1"]
        );
        assert_eq!(
            labels("[profiles.node.nics.X]\nnetworks = [\"|", Some(&d)),
            ["mgmt", "vm", "lm", "csv"]
        );
    }

    #[test]
    fn rule_ids_in_allow_and_levels_in_rules() {
        let got = labels("[hosts.h]\nallow = { |", None);
        assert!(got.iter().any(|l| l == "mtu-mismatch"), "{got:?}");
        let got = labels("[netlint]\nrules = { spof-link = \"|", None);
        assert_eq!(got, Level::NAMES);
    }
}
