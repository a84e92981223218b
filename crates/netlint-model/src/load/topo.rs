//! The ends of a link (one switch, or a list for a multi-chassis LAG at
//! either end: a double-sided LAG between two MLAG domains), routed links
//! and devices with `managed = false`: the input rules of
//! `docs/format.md` ("Multi-chassis LAGs", "Routed links and unmanaged
//! devices").

use super::Builder;
use crate::design::{Attachment, Host, LagMode, Link, LinkKind, Stp, StpMode, SwitchId};
use crate::diag::Diagnostic;
use crate::reader::{span_of, Reader, Table};
use crate::span::{Sp, Span};
use toml::de::DeValue;

/// The switch names written at `key` (a string or a list of strings),
/// whatever else is wrong with them.
pub(super) fn written_names(t: &Table<'_>, key: &str) -> Vec<String> {
    match Reader::get(t, key).map(|(_, v)| v.get_ref()) {
        Some(DeValue::String(s)) => vec![s.to_string()],
        Some(DeValue::Array(list)) => list
            .iter()
            .filter_map(|v| match v.get_ref() {
                DeValue::String(s) => Some(s.to_string()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// An unmanaged device sends no BPDU: it runs no spanning tree (mode
/// `none`, set by its `managed = false`).
pub(super) fn unmanaged_stp(mut stp: Stp, managed: Option<&Sp<bool>>) -> Stp {
    if let Some(m) = managed.filter(|m| !m.value) {
        stp.mode = Sp::new(StpMode::None, m.span);
    }
    stp
}

/// The keys a device with `managed = false` cannot have: each configures
/// the switching netlint does not know on such a device.
const UNMANAGED_REFUSES: &[&str] = &[
    "mtu",
    "frame_size",
    "vlans",
    "stack",
    "mlag",
    "host_ports",
    "stp",
    "dcb",
];

impl Builder {
    /// One end of a link, `key` = "a" or "b": a switch name or a list of
    /// them. Returns the switches resolved, the names written, and whether
    /// every name resolved (a missing key resolves to nothing, reported by
    /// the caller's `require`).
    pub(super) fn link_end(
        &mut self,
        t: &Table<'_>,
        key: &str,
        except: &[String],
    ) -> (Vec<Sp<SwitchId>>, Vec<String>, bool) {
        let (mut ids, mut names, mut ok) = (Vec::new(), Vec::new(), true);
        let Some((_, v)) = Reader::get(t, key) else {
            return (ids, names, ok);
        };
        let list = match v.get_ref() {
            DeValue::String(_) => self.r.as_str(key, v).into_iter().collect(),
            DeValue::Array(_) => {
                let list = self.r.str_list(t, key).map(|(_, l)| l).unwrap_or_default();
                if list.is_empty() {
                    self.r.error(span_of(v), format!("`{key}` lists no switch"));
                    ok = false;
                }
                list
            }
            _ => {
                self.r.error(
                    span_of(v),
                    format!("`{key}` must be a switch name or a list of switch names"),
                );
                return (ids, names, false);
            }
        };
        for s in &list {
            names.push(s.value.clone());
            match self.switch_ref_except(s, except) {
                Some(id) => ids.push(id),
                None => ok = false,
            }
        }
        (ids, names, ok)
    }

    /// A multi-chassis LAG (several switches at either end): bundled, and
    /// each end one logical switch (a stack or an MLAG domain).
    pub(super) fn check_lag_ends(
        &mut self,
        link_name: &str,
        ends: [&[Sp<SwitchId>]; 2],
        lag: &Sp<LagMode>,
    ) {
        if ends.iter().any(|e| e.len() > 1) && lag.value == LagMode::None {
            self.r.error_help(lag.span, "a link to several switches is a multi-chassis LAG and cannot have `lag = \"none\"`", "use `lag = \"lacp\"` or `\"static\"`");
        }
        for end in ends {
            let Some(first) = end.first().map(|s| s.value) else {
                continue;
            };
            let switches = &self.switches;
            let share = |x: SwitchId, y: SwitchId| {
                let (sx, sy) = (&switches[x.0], &switches[y.0]);
                let same = |p: &Option<Sp<String>>, q: &Option<Sp<String>>| matches!((p, q), (Some(p), Some(q)) if p.value == q.value);
                x == y || same(&sx.stack, &sy.stack) || same(&sx.mlag, &sy.mlag)
            };
            if let Some(bad) = end.iter().find(|s| !share(first, s.value)) {
                let (n1, n2) = (
                    &self.switches[first.0].name,
                    &self.switches[bad.value.0].name,
                );
                let (s1, s2) = (self.switches[first.0].span, self.switches[bad.value.0].span);
                self.r.diags.push(
                    Diagnostic::schema(bad.span, format!("multi-chassis LAG `{link_name}` ends on `{n1}` and `{n2}`, which share no stack or MLAG domain"))
                        .with_related(s1, format!("switch `{n1}`"))
                        .with_related(s2, format!("switch `{n2}`"))
                        .with_help(format!("give `{n1}` and `{n2}` the same `mlag` (or `stack`), or split the LAG into one link per switch")),
                );
            }
        }
    }

    /// A device with `managed = false` sets none of the switching
    /// settings netlint cannot know on it.
    pub(super) fn check_unmanaged_keys(
        &mut self,
        t: &Table<'_>,
        managed: Option<&Sp<bool>>,
        name: &str,
    ) {
        let Some(m) = managed.filter(|m| !m.value) else {
            return;
        };
        for key in UNMANAGED_REFUSES {
            if let Some((span, _)) = Reader::get(t, key) {
                self.r.diags.push(
                    Diagnostic::schema(span, format!("switch `{name}` has `managed = false` but sets `{key}`"))
                        .with_related(m.span, "`managed = false` here")
                        .with_help(format!("netlint treats an unmanaged device as opaque (it neither bridges the fabric's VLANs nor runs spanning tree): remove `{key}`, or describe the device as a managed switch (remove `managed = false`)")),
                );
            }
        }
    }

    /// What routed links and unmanaged devices cannot be: a routed link
    /// carries no VLAN and has no spanning-tree cost and one device at each
    /// end; a device with `managed = false` has no switching settings, is
    /// in no stack or MLAG domain, and no stacking cable or peer-link
    /// reaches it. A list at `a` is a LAG end like one at `b`, so stacking
    /// cables and peer-links take one switch there too.
    pub(super) fn check_routed_and_unmanaged(&mut self, links: &[Link]) {
        for l in links {
            let kind = l.kind.value;
            if kind != LinkKind::Ethernet && !l.a_more.is_empty() {
                let what = kind_words(kind);
                self.r.error_help(
                    l.kind.span,
                    format!("{what} `{}` has several switches at its `a` end", l.name),
                    format!("a {what} joins two devices: write one link per pair"),
                );
            }
            if kind == LinkKind::Routed {
                if l.b.len() > 1 {
                    self.r.error_help(
                        l.kind.span,
                        format!("routed link `{}` has several switches at its `b` end", l.name),
                        "a routed link joins two devices: write one link per pair (an MLAG pair routes each of its links on its own)",
                    );
                }
                if let Some(v) = &l.vlans {
                    self.r.diags.push(
                        Diagnostic::schema(
                            v.span,
                            format!(
                                "routed link `{}` lists `vlans`, but a routed link carries no VLAN",
                                l.name
                            ),
                        )
                        .with_related(l.kind.span, "`kind = \"routed\"` here")
                        .with_help(
                            "remove `vlans`, or make the link a trunk (remove `kind = \"routed\"`)",
                        ),
                    );
                }
                if let Some(c) = &l.stp_cost {
                    self.r.diags.push(
                        Diagnostic::schema(c.span, format!("routed link `{}` sets `stp_cost`, but spanning tree does not run on a routed link", l.name))
                            .with_related(l.kind.span, "`kind = \"routed\"` here")
                            .with_help("remove `stp_cost`"),
                    );
                }
            }
            if matches!(kind, LinkKind::Stack | LinkKind::PeerLink) {
                for end in l.a_ends().chain(&l.b) {
                    let sw = &self.switches[end.value.0];
                    if let Some(m) = sw.managed.as_ref().filter(|m| !m.value) {
                        self.r.diags.push(
                            Diagnostic::schema(end.span, format!("{} `{}` reaches `{}`, which has `managed = false`", kind_words(kind), l.name, sw.name))
                                .with_related(m.span, "`managed = false` here")
                                .with_help("a stack or MLAG domain is made of managed switches: describe the device as a managed switch (remove `managed = false`), or make the link an ordinary one (remove `kind`)"),
                        );
                    }
                }
            }
        }
    }

    /// Host NICs cannot be cabled to an unmanaged device: what the device
    /// does with their traffic is unknown, so nothing netlint checks about
    /// them would hold. One diagnostic per line (a profile's cabling is
    /// shared by its hosts).
    pub(super) fn check_unmanaged_host_cables(&mut self, hosts: &[Host]) {
        let mut seen: Vec<Span> = Vec::new();
        for h in hosts {
            for nic in &h.nics {
                let Some(Attachment::Switch(s)) = &nic.attach else {
                    continue;
                };
                let sw = &self.switches[s.value.0];
                let Some(m) = sw.managed.as_ref().filter(|m| !m.value) else {
                    continue;
                };
                if seen.contains(&s.span) {
                    continue;
                }
                seen.push(s.span);
                self.r.diags.push(
                    Diagnostic::schema(s.span, format!("NIC `{}` of host `{}` is cabled to `{}`, which has `managed = false`", nic.name, h.name, sw.name))
                        .with_related(m.span, "`managed = false` here")
                        .with_help(format!("netlint cannot know how an unmanaged device forwards a host's networks: describe `{}` as a switch (its `vlans`, `mtu` and `stp`, without `managed = false`), or leave the NIC's `switch` out", sw.name)),
                );
            }
        }
    }
}

/// A link kind in a sentence.
fn kind_words(kind: LinkKind) -> &'static str {
    match kind {
        LinkKind::Ethernet => "link",
        LinkKind::Stack => "stacking cable",
        LinkKind::PeerLink => "peer-link",
        LinkKind::Routed => "routed link",
    }
}

#[cfg(test)]
mod tests {
    use crate::{load, SourceFile};

    const PAIRS: &str = r#"
[design]
name = "t"
[switches.d1]
mlag = "d"
[switches.d2]
mlag = "d"
[switches.t1]
mlag = "t"
[switches.t2]
mlag = "t"
"#;

    /// The schema errors of `PAIRS` with `links` added: (line, message).
    fn errors(links: &str) -> Vec<(usize, String)> {
        let src = format!("{PAIRS}{links}");
        let file = SourceFile::new("t.toml", src.as_str());
        load(&file)
            .diagnostics
            .into_iter()
            .map(|d| {
                (
                    file.line_col(d.primary.map_or(0, |p| p.span.start)).line,
                    d.message,
                )
            })
            .collect()
    }

    #[test]
    fn a_double_sided_lag_between_two_domains_loads() {
        let src = format!("{PAIRS}[[links]]\na = [\"d1\", \"d2\"]\nb = [\"t1\", \"t2\"]\nspeed = \"25G\"\nmembers = 4\n");
        let l = load(&SourceFile::new("t.toml", src.as_str()));
        assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
        let link = &l.design.unwrap().links[0];
        assert_eq!(link.name, "d1+d2--t1+t2");
        assert_eq!(link.a_more.len(), 1);
        assert_eq!(link.lag.value, crate::LagMode::Lacp);
        assert!(link.is_multi_chassis());
    }

    #[test]
    fn a_list_at_a_is_held_to_the_rules_of_a_lag_end() {
        let e = errors("[[links]]\na = [\"d1\", \"d2\"]\nb = [\"t1\", \"t2\"]\nspeed = \"25G\"\nlag = \"none\"\n");
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].1.contains("cannot have `lag = \"none\"`"), "{e:?}");
        let e = errors("[[links]]\na = [\"d1\", \"t1\"]\nb = \"t2\"\nspeed = \"25G\"\n");
        assert!(
            e.iter().any(|(l, m)| *l == 13
                && m.contains("ends on `d1` and `t1`, which share no stack or MLAG domain")),
            "{e:?}"
        );
        let e = errors("[[links]]\na = [\"d1\", \"d2\"]\nb = [\"t1\", \"d2\"]\nspeed = \"25G\"\n");
        assert!(
            e.iter()
                .any(|(_, m)| m.contains("connects switch `d2` to itself")),
            "{e:?}"
        );
        let e = errors(
            "[[links]]\na = [\"d1\", \"d2\"]\nb = \"t1\"\nkind = \"stack\"\nspeed = \"25G\"\n",
        );
        assert!(
            e.iter().any(|(l, m)| *l == 15
                && m == "stacking cable `d1+d2--t1` has several switches at its `a` end"),
            "{e:?}"
        );
        let e = errors("[[links]]\na = []\nb = \"t1\"\nspeed = \"25G\"\n");
        assert_eq!(e, [(13, "`a` lists no switch".to_string())]);
    }
}
