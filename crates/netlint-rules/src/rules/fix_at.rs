//! Where a fix's edit goes: the TOML path of the table that holds a value
//! of the design. A host's value is in the host's own table when the host
//! overrides it, else in its profile's (the one line every host built from
//! it shares, so one edit fixes them all).

use netlint_model::{Design, FixEdit, FixValue, Host, Link, Sp, Span, Switch, TomlPath, VlanSet};

/// The table (`hosts.hv1` or `profiles.p`) that holds `host`'s value
/// written at `span`.
pub(crate) fn host_table(host: &Host, span: Span) -> TomlPath {
    match &host.profile {
        Some(p) if !host.overrides(span) => TomlPath::new().then("profiles").then(p.value.as_str()),
        _ => TomlPath::new().then("hosts").then(host.name.as_str()),
    }
}

/// `switches.NAME`.
pub(crate) fn switch_table(sw: &Switch) -> TomlPath {
    TomlPath::new().then("switches").then(sw.name.as_str())
}

/// `links[i]`.
pub(crate) fn link_table(link: &Link) -> TomlPath {
    TomlPath::new().then("links").then(link.index)
}

/// The edit that adds `add` to the VLAN list `list` written at `path`:
/// its items as written (ranges stay ranges), then each VLAN it lacks.
/// `None` when the loader did not keep the list's text.
pub(crate) fn vlans_plus(
    design: &Design,
    path: TomlPath,
    list: &Sp<VlanSet>,
    add: impl IntoIterator<Item = u16>,
) -> Option<FixEdit> {
    let old = design.written_at(list.span)?.clone();
    let FixValue::Array(items) = &old else {
        return None;
    };
    let mut new = items.clone();
    for v in add {
        if !list.value.contains(v) && !new.contains(&FixValue::from(v)) {
            new.push(FixValue::from(v));
        }
    }
    (new.len() > items.len()).then(|| FixEdit::replace(path, old, FixValue::Array(new), list.span))
}

/// The edits that make `link` carry `add`: on its `vlans`, or, where the
/// ends state their lists apart (`vlans_a` / `vlans_b`), on each end's
/// list that lacks one of them. Empty when no list is written.
pub(crate) fn link_vlans_plus(design: &Design, link: &Link, add: &[u16]) -> Vec<FixEdit> {
    let table = link_table(link);
    let lists = [
        ("vlans_a", link.ends.vlans_a.as_ref()),
        ("vlans_b", link.ends.vlans_b.as_ref()),
    ];
    if lists.iter().all(|(_, l)| l.is_some()) {
        return lists
            .into_iter()
            .filter_map(|(key, l)| {
                vlans_plus(design, table.clone().then(key), l?, add.iter().copied())
            })
            .collect();
    }
    link.vlans
        .as_ref()
        .and_then(|l| vlans_plus(design, table.then("vlans"), l, add.iter().copied()))
        .into_iter()
        .collect()
}

/// Whether a value with span `value` was written, rather than defaulted to
/// the span of its table (`table`) or element (`element`).
pub(crate) fn written(value: Span, table: Option<Span>, element: Span) -> bool {
    !value.is_empty() && Some(value) != table && value != element
}

#[cfg(test)]
mod tests {
    use super::*;
    use netlint_model::{load, SourceFile};

    #[test]
    fn a_hosts_value_is_in_its_override_or_its_profile() {
        let src = r#"
[design]
name = "t"
[profiles.p]
power = "balanced"
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
power = "max-performance"
[hosts.hv3]
power = "balanced"
"#;
        let d = load(&SourceFile::new("t.toml", src)).design.unwrap();
        let at = |i: usize| host_table(&d.hosts[i], d.hosts[i].power.span).to_string();
        assert_eq!(at(0), "profiles.p");
        assert_eq!(at(1), "hosts.hv2");
        assert_eq!(at(2), "hosts.hv3");
    }
}
