//! The fabric's side of the comparison: switches (VLANs, MTU, spanning
//! tree, DCB), their ports configured one by one, and links.

use super::{opt, At, Cmp, Field, Two, Value};
use netlint_model::{Design, LinkId, Span, StpMode, SwitchId};
use std::collections::{BTreeMap, BTreeSet};

/// A switch's `pfc` and `ets` and the line of its `dcb` table.
type SwitchDcbValues<'s> = (
    Option<&'s netlint_model::Sp<Vec<u8>>>,
    Option<&'s netlint_model::Sp<BTreeMap<u8, u32>>>,
    Span,
);

/// The default VLAN of every platform netlint reads (VLAN 1).
const DEFAULT_VLAN: u16 = 1;

/// The spanning-tree mode switch `s` of `d` runs in effect: its mode, or
/// `none` when it is a per-VLAN mode (PVST+, rapid PVST+) with spanning
/// tree off (`disabled_vlans`) in every VLAN it carries: its `vlans`, else
/// every VLAN the design's networks use. VLAN 1 aside: the format cannot
/// state it off (it carries the common tree, docs/format.md), and the
/// importer notes a config's `no spanning-tree vlan 1` without reading it.
pub(crate) fn effective_stp_mode(d: &Design, s: &netlint_model::Switch) -> StpMode {
    let mode = s.stp.mode.value;
    if !matches!(mode, StpMode::Pvst | StpMode::RapidPvst) {
        return mode;
    }
    let Some(off) = &s.stp.disabled_vlans else {
        return mode;
    };
    let carried = s.vlans.as_ref().map_or_else(|| d.used_vlans(), |v| v.value);
    let mut carried = carried.iter().filter(|v| *v != DEFAULT_VLAN).peekable();
    let all_off = carried.peek().is_some() && carried.all(|v| off.value.contains(v));
    if all_off {
        StpMode::None
    } else {
        mode
    }
}

impl Cmp<'_> {
    pub(super) fn switches(&mut self) {
        let (d, b, m) = (self.d, self.b, self.m);
        for (i, ds) in d.switches.iter().enumerate() {
            let di = SwitchId(i);
            let Some(bi) = m.switches.built(di) else {
                self.only_in_design(
                    At::Switch(Two {
                        design: Some(di),
                        built: None,
                    }),
                    ds.span,
                );
                continue;
            };
            let bs = b.switch(bi);
            let at = At::Switch(Two {
                design: Some(di),
                built: Some(bi),
            });
            if ds.is_managed() && bs.is_managed() {
                let sp = |s: &netlint_model::Switch| s.vlans.as_ref().map_or(s.span, |v| v.span);
                let from = self.out.len();
                self.vlan_diffs(
                    at,
                    (ds.vlans.as_ref().map(|v| &v.value), sp(ds), &|_| true),
                    (bs.vlans.as_ref().map(|v| &v.value), sp(bs), &|_| true),
                );
                // The default VLAN exists on every switch whether a list
                // names it or not (it cannot be deleted on NX-OS, EOS,
                // OS10 or IOS): its definition is never a difference by
                // itself. Whether a trunk carries it still is.
                let added = self.out.split_off(from);
                self.out.extend(
                    added
                        .into_iter()
                        .filter(|x| x.field != Field::Vlan(DEFAULT_VLAN)),
                );
            }
            self.push(
                at,
                Field::Mtu,
                (Value::Num(ds.mtu.payload), Some(ds.mtu.span)),
                (Value::Num(bs.mtu.payload), Some(bs.mtu.span)),
            );
            self.stp(at, ds, bs);
            fn dcb(s: &netlint_model::Switch) -> SwitchDcbValues<'_> {
                (
                    s.dcb.as_ref().and_then(|x| x.pfc.as_ref()),
                    s.dcb.as_ref().and_then(|x| x.ets.as_ref()),
                    s.dcb.as_ref().map_or(s.span, |x| x.span),
                )
            }
            let (dp, de, dsp) = dcb(ds);
            let (bp, be, bsp) = dcb(bs);
            let at_dcb = At::SwitchDcb(Two {
                design: di,
                built: bi,
            });
            self.push(
                at_dcb,
                Field::DcbPfc,
                (
                    opt(dp.map(|x| &x.value), Value::Priorities),
                    Some(dp.map_or(dsp, |x| x.span)),
                ),
                (
                    opt(bp.map(|x| &x.value), Value::Priorities),
                    Some(bp.map_or(bsp, |x| x.span)),
                ),
            );
            self.push(
                at_dcb,
                Field::DcbEts,
                (
                    opt(de.map(|x| &x.value), Value::Ets),
                    Some(de.map_or(dsp, |x| x.span)),
                ),
                (
                    opt(be.map(|x| &x.value), Value::Ets),
                    Some(be.map_or(bsp, |x| x.span)),
                ),
            );
            self.host_port_stp(at, ds, bs);
            self.ports(di, bi);
        }
        for (i, bs) in b.switches.iter().enumerate() {
            if m.switches.design(SwitchId(i)).is_none() {
                self.only_as_built(
                    At::Switch(Two {
                        design: None,
                        built: Some(SwitchId(i)),
                    }),
                    bs.span,
                );
            }
        }
    }

    /// A switch's host-facing edge and BPDU guard (`host_ports`), where
    /// both sides state them: an unstated value is no fact to compare.
    fn host_port_stp(&mut self, at: At, ds: &netlint_model::Switch, bs: &netlint_model::Switch) {
        let (x, y) = (&ds.host_ports, &bs.host_ports);
        for (field, dv, bv) in [
            (Field::Edge, &x.edge, &y.edge),
            (Field::BpduGuard, &x.bpdu_guard, &y.bpdu_guard),
        ] {
            if let (Some(dv), Some(bv)) = (dv, bv) {
                self.push(
                    at,
                    field,
                    (Value::Bool(dv.value), Some(dv.span)),
                    (Value::Bool(bv.value), Some(bv.span)),
                );
            }
        }
    }

    fn stp(&mut self, at: At, ds: &netlint_model::Switch, bs: &netlint_model::Switch) {
        let (x, y) = (&ds.stp, &bs.stp);
        let or = |s: Option<Span>, sw: &netlint_model::Switch| s.or(sw.stp.span).unwrap_or(sw.span);
        // A side that runs no spanning tree in any VLAN it carries runs
        // none, whatever its mode line says (NX-OS and IOS have no mode
        // `none`: `no spanning-tree vlan LIST` is how they turn it off).
        let (xm, ym) = (
            effective_stp_mode(self.d, ds),
            effective_stp_mode(self.b, bs),
        );
        self.push(
            at,
            Field::StpMode,
            (Value::Stp(xm), Some(x.mode.span)),
            (Value::Stp(ym), Some(y.mode.span)),
        );
        if xm == StpMode::None && ym == StpMode::None {
            // No tree on either side: no priority to compare.
            return;
        }
        let pvst = |m: StpMode| matches!(m, StpMode::Pvst | StpMode::RapidPvst);
        if pvst(xm) && pvst(ym) {
            // PVST+ on both sides: each VLAN's tree has its own priority
            // (`vlan_priority`, else `priority`): compared per VLAN a
            // network uses, and VLAN 1, whose tree is the common one, so
            // that a config whose per-VLAN lines leave the switch at the
            // vendor default is no difference where the VLANs agree. A
            // VLAN the switch defines on neither side has no tree there:
            // its priority in it is no value.
            let mut ids: BTreeSet<u16> = self.vlans.clone();
            ids.insert(1);
            ids.retain(|v| v == &1 || ds.defines_vlan(Some(*v)) || bs.defines_vlan(Some(*v)));
            let span_of = |sw: &netlint_model::Switch, v: u16| {
                let t = &sw.stp;
                or(
                    t.vlan_priority
                        .get(&v)
                        .map(|p| p.span)
                        .or(t.priority.as_ref().map(|p| p.span)),
                    sw,
                )
            };
            let compared = ids.len();
            let differ: Vec<(u16, u32, u32)> = ids
                .into_iter()
                .map(|v| (v, x.vlan_priority(v), y.vlan_priority(v)))
                .filter(|(_, a, b)| a != b)
                .collect();
            // Every VLAN compared differs, and the same way: one difference
            // of the switch's priority, at the lines that set it.
            let uniform = differ.len() == compared
                && differ
                    .first()
                    .is_some_and(|f| differ.iter().all(|d| (d.1, d.2) == (f.1, f.2)));
            match differ.first() {
                Some(&(v, a, b)) if uniform => self.push(
                    at,
                    Field::StpPriority,
                    (Value::Num(a), Some(span_of(ds, v))),
                    (Value::Num(b), Some(span_of(bs, v))),
                ),
                _ => {
                    for (v, a, b) in differ {
                        self.push(
                            at,
                            Field::VlanPriority(v),
                            (Value::Num(a), Some(span_of(ds, v))),
                            (Value::Num(b), Some(span_of(bs, v))),
                        );
                    }
                }
            }
        } else {
            self.push(
                at,
                Field::StpPriority,
                (
                    Value::Num(x.bridge_priority()),
                    Some(or(x.priority.as_ref().map(|p| p.span), ds)),
                ),
                (
                    Value::Num(y.bridge_priority()),
                    Some(or(y.priority.as_ref().map(|p| p.span), bs)),
                ),
            );
        }
        // The region is compared between two MSTP switches; a switch in
        // another mode is the mode's difference alone.
        if xm != StpMode::Mstp || ym != StpMode::Mstp {
            return;
        }
        self.push(
            at,
            Field::StpRegion,
            (
                opt(x.region.as_ref().map(|r| &r.value), Value::Text),
                Some(or(x.region.as_ref().map(|r| r.span), ds)),
            ),
            (
                opt(y.region.as_ref().map(|r| &r.value), Value::Text),
                Some(or(y.region.as_ref().map(|r| r.span), bs)),
            ),
        );
        self.push(
            at,
            Field::StpRevision,
            (
                Value::Num(x.revision.as_ref().map_or(0, |r| r.value)),
                Some(or(x.revision.as_ref().map(|r| r.span), ds)),
            ),
            (
                Value::Num(y.revision.as_ref().map_or(0, |r| r.value)),
                Some(or(y.revision.as_ref().map(|r| r.span), bs)),
            ),
        );
        self.push(
            at,
            Field::StpInstances,
            (
                Value::Instances(
                    x.instances
                        .as_ref()
                        .map(|i| i.value.clone())
                        .unwrap_or_default(),
                ),
                Some(or(x.instances.as_ref().map(|i| i.span), ds)),
            ),
            (
                Value::Instances(
                    y.instances
                        .as_ref()
                        .map(|i| i.value.clone())
                        .unwrap_or_default(),
                ),
                Some(or(y.instances.as_ref().map(|i| i.span), bs)),
            ),
        );
    }

    /// Whether a port pauses its switch's PFC priorities, on each side:
    /// its own `pfc`, else yes where its switch has PFC (at the switch's
    /// `pfc` line). Compared where a side's switch has PFC.
    fn port_pfc(
        &mut self,
        at: At,
        d: (&netlint_model::Switch, Option<&netlint_model::Sp<bool>>),
        b: (&netlint_model::Switch, Option<&netlint_model::Sp<bool>>),
    ) {
        let side = |(s, own): (&netlint_model::Switch, Option<&netlint_model::Sp<bool>>)| {
            let pfc = s
                .dcb
                .as_ref()
                .and_then(|x| x.pfc.as_ref())
                .filter(|p| !p.value.is_empty())?;
            Some(match own {
                Some(o) => (o.value, o.span),
                None => (true, pfc.span),
            })
        };
        if let (Some((dv, dsp)), Some((bv, bsp))) = (side(d), side(b)) {
            self.push(
                at,
                Field::PortPfc,
                (Value::Bool(dv), Some(dsp)),
                (Value::Bool(bv), Some(bsp)),
            );
        }
    }

    fn ports(&mut self, di: SwitchId, bi: SwitchId) {
        let (d, b) = (self.d, self.b);
        let Some(pairs) = self.m.ports.get(&di) else {
            return;
        };
        for (&dp, &(bp, _)) in &pairs.to_built {
            let (x, y) = (&d.switch(di).ports[dp], &b.switch(bi).ports[bp]);
            let at = At::Port {
                switch: Two {
                    design: di,
                    built: bi,
                },
                port: Two {
                    design: Some(dp),
                    built: Some(bp),
                },
            };
            self.push(
                at,
                Field::AccessVlan,
                (
                    opt(x.access_vlan.as_ref().map(|v| &v.value), |v| {
                        Value::Vlan(Some(v))
                    }),
                    Some(x.access_vlan.as_ref().map_or(x.span, |v| v.span)),
                ),
                (
                    opt(y.access_vlan.as_ref().map(|v| &v.value), |v| {
                        Value::Vlan(Some(v))
                    }),
                    Some(y.access_vlan.as_ref().map_or(y.span, |v| v.span)),
                ),
            );
            if x.access_vlan.is_none() && y.access_vlan.is_none() {
                let (ds, bs) = (d.switch(di), b.switch(bi));
                self.vlan_diffs(
                    at,
                    (
                        x.vlans.as_ref().map(|v| &v.value),
                        x.vlans.as_ref().map_or(x.span, |v| v.span),
                        &|v| ds.defines_vlan(Some(v)),
                    ),
                    (
                        y.vlans.as_ref().map(|v| &v.value),
                        y.vlans.as_ref().map_or(y.span, |v| v.span),
                        &|v| bs.defines_vlan(Some(v)),
                    ),
                );
            }
            let mtu = |p: &netlint_model::SwitchPort, s: &netlint_model::Switch| {
                p.mtu
                    .as_ref()
                    .map_or((s.mtu.payload, p.span), |m| (m.payload, m.span))
            };
            let (dm, dsp) = mtu(x, d.switch(di));
            let (bm, bsp) = mtu(y, b.switch(bi));
            // A port at its switch's MTU follows the switch, compared there.
            if x.mtu.is_some() || y.mtu.is_some() {
                self.push(
                    at,
                    Field::Mtu,
                    (Value::Num(dm), Some(dsp)),
                    (Value::Num(bm), Some(bsp)),
                );
            }
            // A port's own edge / BPDU guard against the other side's
            // value in force there (its own, else its switch's
            // `host_ports`); ports on both sides at their switches'
            // values are compared at the switches.
            let (ds, bs) = (d.switch(di), b.switch(bi));
            for (field, own, dflt) in [
                (
                    Field::Edge,
                    (x.edge.as_ref(), y.edge.as_ref()),
                    (ds.host_ports.edge.as_ref(), bs.host_ports.edge.as_ref()),
                ),
                (
                    Field::BpduGuard,
                    (x.bpdu_guard.as_ref(), y.bpdu_guard.as_ref()),
                    (
                        ds.host_ports.bpdu_guard.as_ref(),
                        bs.host_ports.bpdu_guard.as_ref(),
                    ),
                ),
            ] {
                if own.0.is_none() && own.1.is_none() {
                    continue;
                }
                if let (Some(dv), Some(bv)) = (own.0.or(dflt.0), own.1.or(dflt.1)) {
                    self.push(
                        at,
                        field,
                        (Value::Bool(dv.value), Some(dv.span)),
                        (Value::Bool(bv.value), Some(bv.span)),
                    );
                }
            }
            self.push(
                at,
                Field::LagMode,
                (
                    opt(x.lag.as_ref().map(|v| &v.value), Value::SwitchLag),
                    Some(x.lag.as_ref().map_or(x.span, |v| v.span)),
                ),
                (
                    opt(y.lag.as_ref().map(|v| &v.value), Value::SwitchLag),
                    Some(y.lag.as_ref().map_or(y.span, |v| v.span)),
                ),
            );
            if x.pfc.is_some() || y.pfc.is_some() {
                self.port_pfc(at, (ds, x.pfc.as_ref()), (bs, y.pfc.as_ref()));
            }
        }
        self.built_only_ports(di, bi);
    }

    /// Ports configured on the as-built side only (a design without port
    /// tables, such as one `import` wrote where every host trunk carried
    /// every VLAN): each is compared with what the design's switch gives
    /// a port without a table of its own. Its VLANs (every VLAN the switch
    /// defines, judged for the networks' VLANs only, so a VLAN no network
    /// uses, pruned on a host trunk, is no difference), its MTU (the
    /// switch's) and its edge / BPDU guard (the switch's `host_ports`),
    /// where the as-built port states them.
    fn built_only_ports(&mut self, di: SwitchId, bi: SwitchId) {
        let (d, b) = (self.d, self.b);
        let (ds, bs) = (d.switch(di), b.switch(bi));
        let paired = self.m.ports.get(&di);
        // A design that places no NIC on this switch (a fabric-only
        // design, such as one `netlint import` wrote from the configs
        // alone, and no cabling row puts a design NIC there) says of a
        // port without a table only what its switch gives every port:
        // each VLAN it defines. Those its networks use are needed there.
        let no_nics = !d.hosts.iter().any(|h| {
            h.nics.iter().any(
                |n| matches!(&n.attach, Some(netlint_model::Attachment::Switch(s)) if s.value == di),
            )
        }) && !self
            .peers
            .iter()
            .any(|p| p.switch.eq_ignore_ascii_case(&bs.name) && p.nic_in(d).is_some());
        for (bp, y) in bs.ports.iter().enumerate() {
            if paired.is_some_and(|p| p.design(bp).is_some()) {
                continue;
            }
            let at = At::Port {
                switch: Two {
                    design: di,
                    built: bi,
                },
                port: Two {
                    design: None,
                    built: Some(bp),
                },
            };
            // The VLANs the design's NICs cabled to this port need (their
            // networks, and those of the virtual switches over them): a
            // pruned host trunk that still carries them is faithful.
            let mut need = if no_nics {
                d.used_vlans().iter().collect()
            } else {
                needed_vlans(d, di, &y.name)
            };
            // A port no design NIC is on, whose NIC is a design NIC the
            // as-built cabling moved here: the move is the difference
            // (`drift-cabling`, judged with what this port does to the
            // NIC), not the port's settings against ports the design has
            // no NIC on. One cause, one finding.
            let moved_here = self.peers.iter().any(|p| {
                p.switch.eq_ignore_ascii_case(&bs.name)
                    && netlint_model::ifname::same_port(&p.port, &y.name)
                    && p.nic_in(d).is_some_and(|(h, n)| {
                        let nic = d.host(h).nic(n);
                        let on_switch = matches!(&nic.attach, Some(netlint_model::Attachment::Switch(s)) if s.value == di);
                        let elsewhere = nic
                            .port
                            .as_ref()
                            .is_some_and(|q| !netlint_model::ifname::same_port(&q.value, &y.name));
                        !on_switch || elsewhere
                    })
            });
            if moved_here && !no_nics && need.is_empty() {
                continue;
            }
            // And those of the design NICs the as-built cabling puts there.
            for p in self.peers.iter().filter(|p| {
                p.switch.eq_ignore_ascii_case(&bs.name)
                    && netlint_model::ifname::same_port(&p.port, &y.name)
            }) {
                need.extend(peer_vlans(d, p));
            }
            let vlans_span = ds.vlans.as_ref().map_or(ds.span, |v| v.span);
            let (carried, built_span): (Box<dyn Fn(u16) -> bool>, Span) =
                match (&y.access_vlan, &y.vlans) {
                    // An access port carries its one VLAN, untagged: a tagged
                    // network is dropped there.
                    (Some(a), _) => (Box::new(move |v| v == a.value), a.span),
                    (None, Some(set)) => (Box::new(move |v| set.value.contains(v)), set.span),
                    (None, None) => (Box::new(|_| true), y.span),
                };
            for v in need {
                if ds.defines_vlan(Some(v)) && !(carried(v) && bs.defines_vlan(Some(v))) {
                    self.push(
                        at,
                        Field::Vlan(v),
                        (Value::Bool(true), Some(vlans_span)),
                        (Value::Bool(false), Some(built_span)),
                    );
                }
            }
            if let Some(m) = &y.mtu {
                self.push(
                    at,
                    Field::Mtu,
                    (Value::Num(ds.mtu.payload), Some(ds.mtu.span)),
                    (Value::Num(m.payload), Some(m.span)),
                );
            }
            if y.pfc.is_some() {
                self.port_pfc(at, (ds, None), (bs, y.pfc.as_ref()));
            }
            for (field, own, dflt) in [
                (Field::Edge, y.edge.as_ref(), ds.host_ports.edge.as_ref()),
                (
                    Field::BpduGuard,
                    y.bpdu_guard.as_ref(),
                    ds.host_ports.bpdu_guard.as_ref(),
                ),
            ] {
                if let (Some(dv), Some(bv)) = (dflt, own) {
                    self.push(
                        at,
                        field,
                        (Value::Bool(dv.value), Some(dv.span)),
                        (Value::Bool(bv.value), Some(bv.span)),
                    );
                }
            }
        }
    }

    pub(super) fn links(&mut self) {
        let (d, b, m) = (self.d, self.b, self.m);
        for (i, dl) in d.links.iter().enumerate() {
            let di = LinkId(i);
            let Some(bi) = m.links.built(di) else {
                if stacking_cable_not_in_configs(b, m, dl) {
                    continue;
                }
                self.only_in_design(
                    At::Link(Two {
                        design: Some(di),
                        built: None,
                    }),
                    dl.span,
                );
                continue;
            };
            let bl = b.link(bi);
            let at = At::Link(Two {
                design: Some(di),
                built: Some(bi),
            });
            let defines = |x: &Design, l: &netlint_model::Link, v: u16| {
                l.allows_vlan(Some(v)) && l.ends().all(|s| x.switch(s).defines_vlan(Some(v)))
            };
            if d.bridges_link(dl) && b.bridges_link(bl) {
                self.vlan_diffs(
                    at,
                    (
                        dl.vlans.as_ref().map(|v| &v.value),
                        dl.vlans.as_ref().map_or(dl.span, |v| v.span),
                        &|v| defines(d, dl, v),
                    ),
                    (
                        bl.vlans.as_ref().map(|v| &v.value),
                        bl.vlans.as_ref().map_or(bl.span, |v| v.span),
                        &|v| defines(b, bl, v),
                    ),
                );
            }
            let mtu = |x: &Design, l: &netlint_model::Link| match &l.mtu {
                Some(m) => (m.payload, m.span),
                // A link without `mtu` runs at the smallest of its ends'.
                None => (
                    l.ends()
                        .map(|s| x.switch(s).mtu.payload)
                        .min()
                        .unwrap_or(1500),
                    l.span,
                ),
            };
            let (dm, dsp) = mtu(d, dl);
            let (bm, bsp) = mtu(b, bl);
            if dl.mtu.is_some() || bl.mtu.is_some() {
                self.push(
                    at,
                    Field::Mtu,
                    (Value::Num(dm), Some(dsp)),
                    (Value::Num(bm), Some(bsp)),
                );
            }
            // The port cost, where either side states one for every
            // tree (a cost per instance is not compared).
            let cost = |l: &netlint_model::Link| match &l.stp_cost {
                Some(c) => match &c.value {
                    netlint_model::StpCost::All(n) => Some((Value::Num(*n), c.span)),
                    netlint_model::StpCost::PerInstance(_) => None,
                },
                None => Some((Value::Unset, l.span)),
            };
            if dl.stp_cost.is_some() || bl.stp_cost.is_some() {
                if let (Some((dc, dsp)), Some((bc, bsp))) = (cost(dl), cost(bl)) {
                    self.push(at, Field::StpCost, (dc, Some(dsp)), (bc, Some(bsp)));
                }
            }
            self.push(
                at,
                Field::LagMembers,
                (Value::Num(dl.members.value), Some(dl.members.span)),
                (Value::Num(bl.members.value), Some(bl.members.span)),
            );
            // How the cables are bundled, where both sides have a bundle
            // (one cable is no bundle whatever `lag` says: the number of
            // members is the difference then).
            // A side that does not state the mode (an import from a
            // config that does not say it, such as OS10's VLTi) has the
            // format's default, which is no fact about the network: only
            // stated modes are compared.
            // An as-built side that states `none` where the design bundles
            // (its ends disagree: LACP against `mode on`, and no bundle
            // forms) is compared whether the design states its mode or has
            // the format's default: either way it bundles, as built nothing
            // does.
            let unbundled = bl.lag_written
                && bl.lag.value == netlint_model::LagMode::None
                && dl.lag.value != netlint_model::LagMode::None;
            if (dl.is_lag() || bl.is_lag()) && ((dl.lag_written && bl.lag_written) || unbundled) {
                let bundled = |l: &netlint_model::Link| l.members.value > 1 || l.is_multi_chassis();
                if bundled(dl) && bundled(bl) {
                    self.push(
                        at,
                        Field::LagMode,
                        (Value::Lag(dl.lag.value), Some(dl.lag.span)),
                        (Value::Lag(bl.lag.value), Some(bl.lag.span)),
                    );
                }
            }
        }
        for (i, bl) in b.links.iter().enumerate() {
            if m.links.design(LinkId(i)).is_none() {
                self.only_as_built(
                    At::Link(Two {
                        design: None,
                        built: Some(LinkId(i)),
                    }),
                    bl.span,
                );
            }
        }
    }
}

/// Whether `dl`, a stacking cable of the design, is one the as-built side
/// cannot show: its ends are matched to switches of one as-built stack
/// (the same `stack`), and that stack lists no stacking cable at all. A
/// Catalyst stack's running-config has no line for its stacking cables
/// (its members are told by `switch N provision` and their port numbers),
/// so the cable is neither confirmed nor missing: the stack it belongs to
/// is what the as-built side shows, and that is compared (its members
/// matched). A stack that lists some stacking cables as built but not
/// this one still reports it.
pub(crate) fn stacking_cable_not_in_configs(
    b: &Design,
    m: &super::matching::Matching,
    dl: &netlint_model::Link,
) -> bool {
    if dl.kind.value != netlint_model::LinkKind::Stack {
        return false;
    }
    let built: Option<Vec<SwitchId>> = dl.ends().map(|s| m.switches.built(s)).collect();
    let Some(built) = built else { return false };
    let stack_of = |s: SwitchId| b.switch(s).stack.as_ref().map(|x| x.value.clone());
    let Some(name) = built.first().and_then(|s| stack_of(*s)) else {
        return false;
    };
    built
        .iter()
        .all(|s| stack_of(*s).as_deref() == Some(name.as_str()))
        && !b.links.iter().any(|l| {
            l.kind.value == netlint_model::LinkKind::Stack
                && l.ends()
                    .any(|s| stack_of(s).as_deref() == Some(name.as_str()))
        })
}

/// The VLANs the NICs of `d` cabled to port `port` of switch `switch`
/// need: their own networks' and those of the virtual switches whose
/// uplinks they are (untagged networks have no VLAN here).
fn needed_vlans(
    d: &netlint_model::Design,
    switch: SwitchId,
    port: &str,
) -> std::collections::BTreeSet<u16> {
    let mut out = std::collections::BTreeSet::new();
    for h in &d.hosts {
        for (i, n) in h.nics.iter().enumerate() {
            let here = matches!(&n.attach, Some(netlint_model::Attachment::Switch(s)) if s.value == switch)
                && n.port
                    .as_ref()
                    .is_some_and(|p| netlint_model::ifname::same_port(&p.value, port));
            if !here {
                continue;
            }
            out.extend(nic_vlans(d, h, netlint_model::NicIdx(i)));
        }
    }
    out
}

/// The VLANs NIC `i` of `h` carries: its own networks' and those of the
/// virtual switches whose uplinks it is.
fn nic_vlans(
    d: &netlint_model::Design,
    h: &netlint_model::Host,
    i: netlint_model::NicIdx,
) -> std::collections::BTreeSet<u16> {
    let mut nets: Vec<netlint_model::NetworkId> =
        h.nic(i).networks.iter().map(|x| x.value).collect();
    for vs in &h.vswitches {
        if vs
            .uplinks
            .iter()
            .any(|u| h.uplink_nics(u.value).contains(&i))
        {
            nets.extend(vs.networks.iter().map(|x| x.value));
            nets.extend(vs.vnics.iter().map(|v| v.network.value));
        }
    }
    nets.into_iter()
        .filter_map(|x| d.network(x).vlan_id())
        .collect()
}

/// The VLANs the design NIC a cable names needs.
fn peer_vlans(d: &netlint_model::Design, p: &super::CabledPeer) -> std::collections::BTreeSet<u16> {
    match p.nic_in(d) {
        Some((h, n)) => nic_vlans(d, d.host(h), n),
        None => Default::default(),
    }
}
