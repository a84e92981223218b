//! Reading an inter-switch link (`[[links]]`), its `stp_cost`, and the
//! checks over all links: unique names, kinds that match the switches.
//! Part of the loader's `Builder` (load.rs).

use super::*;
use crate::ports::{End, EndMtu};
use crate::{LinkEnds, VlanSet};

impl Builder {
    pub(super) fn link(&mut self, index: usize, v: &Value<'_>) -> Option<Link> {
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
        let lag = self.r.enum_::<LagMode>(t, "lag");
        let kind = self
            .r
            .enum_::<LinkKind>(t, "kind")
            .unwrap_or(Sp::new(LinkKind::Ethernet, span));
        let vlans = self.r.vlan_list(t, "vlans");
        let stp_cost = self.stp_cost(t);
        let mtus = self.mtus(t, Some("frame_size"), &what);
        let link_name = match &name {
            Some(n) => n.value.clone(),
            None if a_names.is_empty() => format!("?--{}", b_names.join("+")),
            None => format!("{}--{}", a_names.join("+"), b_names.join("+")),
        };
        // Held to the limits of the ends that are known, whatever else is
        // wrong with the link.
        let ends_known: Vec<SwitchId> = a_list.iter().chain(&b).map(|s| s.value).collect();
        self.check_link_mtu_limits(&link_name, &ends_known, &mtus);
        let mtu = mtus.into_iter().next();
        self.allow(t, Element::Link(link_name.to_string()));
        let b_ids: Vec<SwitchId> = b.iter().map(|s| s.value).collect();
        let mut ends = self.link_ends(t, a_list.first().map(|a| a.value), &b_ids, &what);
        let a_ids: Vec<SwitchId> = a_list.iter().map(|s| s.value).collect();
        ends.mtus = self.end_mtus(t, End::A, (&a_ids, &a_names), &link_name, &what);
        ends.mtus
            .extend(self.end_mtus(t, End::B, (&b_ids, &b_names), &link_name, &what));
        let mtu = self.per_end_mtu(t, mtu, &ends, &what);
        let vlans = self.per_end_vlans(vlans, &ends, &what);
        let multi = b.len() > 1 || a_list.len() > 1;
        let (lag, lag_written) = self.per_end_lag(lag, &ends, members.value, multi, span, &what);
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
            lag_written,
            kind,
            vlans,
            stp_cost,
            mtu,
            ends,
            index,
        })
    }

    /// The VLANs a link carries: `vlans`, or the VLANs both `vlans_a` and
    /// `vlans_b` allow (at the span of the end that allows fewer, where a
    /// missing VLAN is most likely missing); one of the two alone is what
    /// the link carries (the other end allows every VLAN, as a link
    /// without `vlans` does). `vlans` with either is an input error.
    fn per_end_vlans(
        &mut self,
        vlans: Option<Sp<VlanSet>>,
        ends: &LinkEnds,
        what: &str,
    ) -> Option<Sp<VlanSet>> {
        match (&vlans, &ends.vlans_a, &ends.vlans_b) {
            (Some(both), a, b) => {
                for (key, one) in [("vlans_a", a), ("vlans_b", b)] {
                    if let Some(one) = one {
                        self.r.diags.push(
                            Diagnostic::schema(
                                one.span,
                                format!("{what} sets both `vlans` (both ends) and `{key}`"),
                            )
                            .with_related(both.span, "`vlans` set here")
                            .with_help("write `vlans` when both ends allow the same VLANs, or `vlans_a` and `vlans_b` for each end"),
                        );
                    }
                }
                vlans
            }
            (None, Some(a), Some(b)) => {
                let both: VlanSet = a.value.iter().filter(|v| b.value.contains(*v)).collect();
                let span = if b.value.len() < a.value.len() {
                    b.span
                } else {
                    a.span
                };
                Some(Sp::new(both, span))
            }
            // One end alone: the other allows every VLAN, as a link
            // without `vlans` does.
            (None, Some(one), None) | (None, None, Some(one)) => Some(one.clone()),
            (None, None, None) => None,
        }
    }

    /// `mtu_a` or `mtu_b` (by `end`): a number for every switch of the
    /// end, or a table by switch name for the peers of a multi-chassis end
    /// (a switch it does not name runs its own `mtu`). A name that is
    /// not a switch of the end is an input error at the name (one the end
    /// names but that is no switch is reported at the end already).
    fn end_mtus(
        &mut self,
        t: &Table<'_>,
        end: End,
        (switches, written): (&[SwitchId], &[String]),
        link: &str,
        what: &str,
    ) -> Vec<EndMtu> {
        let key = match end {
            End::A => "mtu_a",
            End::B => "mtu_b",
        };
        let Some((_, v)) = Reader::get(t, key) else {
            return Vec::new();
        };
        let range = MIN_MTU as i64..=MAX_MTU as i64;
        let words =
            format!("from {MIN_MTU} to {MAX_MTU} (the largest payload, 1500 standard, 9000 jumbo)");
        match v.get_ref() {
            DeValue::Table(mt) => {
                let mut out = Vec::new();
                for (k, ks, mv) in entries(mt) {
                    let Some(m) = self.r.as_int(key, mv, range.clone(), &words) else {
                        continue;
                    };
                    let at = switches.iter().find(|s| self.switches[s.0].name == k);
                    let Some(&switch) = at else {
                        if written.contains(&k) {
                            continue;
                        }
                        let names: Vec<&str> = switches
                            .iter()
                            .map(|s| self.switches[s.0].name.as_str())
                            .collect();
                        self.r.error_help(
                            ks,
                            format!(
                                "{what} sets `{key}` for `{k}`, which is not a switch of its `{}` end ({})",
                                if end == End::A { "a" } else { "b" },
                                names.join(", ")
                            ),
                            format!("name a switch of that end{}", did_you_mean(&k, names.iter().copied())),
                        );
                        continue;
                    };
                    let mtu = Sp::new(Mtu::mtu(m.value as u32), m.span);
                    self.check_link_mtu_limits(link, &[switch], std::slice::from_ref(&mtu));
                    out.push(EndMtu { end, switch, mtu });
                }
                out
            }
            DeValue::Integer(_) => {
                let Some(m) = self.r.as_int(key, v, range, &words) else {
                    return Vec::new();
                };
                let mtu = Sp::new(Mtu::mtu(m.value as u32), m.span);
                self.check_link_mtu_limits(link, switches, std::slice::from_ref(&mtu));
                switches
                    .iter()
                    .map(|&switch| EndMtu {
                        end,
                        switch,
                        mtu: mtu.clone(),
                    })
                    .collect()
            }
            _ => {
                self.r.error(
                    span_of(v),
                    format!(
                        "`{key}` must be an MTU or a table of MTUs by switch, found another type"
                    ),
                );
                Vec::new()
            }
        }
    }

    /// The MTU a link carries: `mtu` (or `frame_size`), else the smallest
    /// of `mtu_a` / `mtu_b` (at that value). `mtu` with either is an input
    /// error.
    fn per_end_mtu(
        &mut self,
        t: &Table<'_>,
        mtu: Option<Sp<Mtu>>,
        ends: &LinkEnds,
        what: &str,
    ) -> Option<Sp<Mtu>> {
        if let Some(both) = &mtu {
            let whole = if Reader::get(t, "mtu").is_some() {
                "mtu"
            } else {
                "frame_size"
            };
            for key in ["mtu_a", "mtu_b"] {
                if let Some((ks, _)) = Reader::get(t, key) {
                    self.r.diags.push(
                        Diagnostic::schema(ks, format!("{what} sets both `{whole}` (both ends) and `{key}`"))
                            .with_related(both.span, "the link's MTU set here")
                            .with_help("write `mtu` when every end runs the same MTU, or `mtu_a` and `mtu_b` for each end"),
                    );
                }
            }
            return mtu;
        }
        ends.mtus
            .iter()
            .min_by_key(|e| e.mtu.value.payload)
            .map(|e| e.mtu.clone())
    }

    /// How a link's cables are bundled: `lag`, or from `lag_a` and
    /// `lag_b`: their mode where they agree; where they differ no bundle
    /// forms (LACP against `mode on` or against a plain port: IEEE
    /// 802.1AX), so the cables are separate ports, `none`, at the span of
    /// the end that bundles least. A multi-chassis link, whose cables the
    /// format cannot write apart, stays bundled in the mode of its `a` end
    /// (its `b` end's where `a` is `none`); `lag-mode-mismatch` reports
    /// both. One of the two alone says the other end runs the format's
    /// default: `lacp` with several cables or switches, else `none`, as a
    /// link without any of them. `lag` with either is an input error. The
    /// flag: whether the mode was written.
    fn per_end_lag(
        &mut self,
        lag: Option<Sp<LagMode>>,
        ends: &LinkEnds,
        members: u32,
        multi: bool,
        span: Span,
        what: &str,
    ) -> (Sp<LagMode>, bool) {
        let default = Sp::new(
            if members > 1 || multi {
                LagMode::Lacp
            } else {
                LagMode::None
            },
            span,
        );
        // One of the two alone: the other end is the format's default.
        let (lag_a, lag_b) = match (&ends.lag_a, &ends.lag_b) {
            (Some(a), None) => (Some(a), Some(&default)),
            (None, Some(b)) => (Some(&default), Some(b)),
            (a, b) => (a.as_ref(), b.as_ref()),
        };
        match (lag, lag_a, lag_b) {
            (Some(both), _, _) => {
                for (key, one) in [("lag_a", &ends.lag_a), ("lag_b", &ends.lag_b)] {
                    if let Some(one) = one {
                        self.r.diags.push(
                            Diagnostic::schema(
                                one.span,
                                format!("{what} sets both `lag` (both ends) and `{key}`"),
                            )
                            .with_related(both.span, "`lag` set here")
                            .with_help("write `lag` when both ends bundle alike, or `lag_a` and `lag_b` for each end"),
                        );
                    }
                }
                (both, true)
            }
            (None, Some(a), Some(b)) if a.value == b.value => {
                let written = if ends.lag_b.is_some() { b } else { a };
                (written.clone(), true)
            }
            (None, Some(a), Some(b)) => {
                let rank = |m: LagMode| match m {
                    LagMode::Lacp => 2,
                    LagMode::Static => 1,
                    LagMode::None => 0,
                };
                if multi {
                    let m = if a.value == LagMode::None { b } else { a };
                    (m.clone(), true)
                } else {
                    let least = if rank(a.value) < rank(b.value) { a } else { b };
                    (Sp::new(LagMode::None, least.span), true)
                }
            }
            _ => (default, false),
        }
    }

    pub(super) fn stp_cost(&mut self, t: &Table<'_>) -> Option<Sp<StpCost>> {
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

    pub(super) fn check_link_names(&mut self, links: &[Link]) {
        let mut seen: HashMap<&str, Span> = HashMap::default();
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
    pub(super) fn check_link_kinds(&mut self, links: &[Link]) {
        // Peer-links between switches that name no MLAG domain: the
        // switch each one is already paired with, and by which link.
        let mut paired: HashMap<usize, (usize, Span)> = HashMap::default();
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
}
