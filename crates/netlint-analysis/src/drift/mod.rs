//! Drift: the design against the network as built (another `Design`, read
//! from a design file or imported from switch configs, LLDP and cabling).
//!
//! [`drift`] pairs the elements of the two designs ([`matching`]) and
//! compares every value that changes what the network does: VLANs allowed
//! on trunks and ports or defined on switches, MTUs, spanning-tree mode,
//! priority and MST region, cabling, LAGs, teams, vNICs, SMB bandwidth
//! limits, RDMA, DCB, live migration, and elements present on one side
//! only. Descriptions, comments, names and the order of tables are not
//! compared. The result is facts only: which element ([`At`]), which value
//! ([`Field`]), the value on each side ([`Value`]) and the line that sets
//! it on each side; `netlint_rules`' drift rules word them and judge their
//! consequence. `docs/drift.md` describes the matching and what counts.

pub mod matching;

pub use matching::{match_designs, HostParts, MatchedBy, Matching, Pairs};

use netlint_model::{
    Bandwidth, Design, Host, HostId, LagMode, LinkId, LoadBalancing, Mtu, NetworkId, NicIdx,
    PolicyMatch, Rdma, Span, StpMode, SwitchId, SwitchLag, TeamIdx, TeamMode, Transport, Uplink,
    VSwitchIdx, VlanSet,
};
use std::collections::{BTreeMap, BTreeSet};

/// The same thing on both sides: design, then as built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Two<T> {
    pub design: T,
    pub built: T,
}

/// The element a difference is about, by its id on each side (`None` on
/// the side it is missing from).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum At {
    Switch(Two<Option<SwitchId>>),
    Link(Two<Option<LinkId>>),
    /// A port configured one by one on a matched switch.
    Port {
        switch: Two<SwitchId>,
        port: Two<usize>,
    },
    Host(Two<Option<HostId>>),
    Nic {
        host: Two<HostId>,
        nic: Two<Option<NicIdx>>,
    },
    Team {
        host: Two<HostId>,
        team: Two<TeamIdx>,
    },
    VSwitch {
        host: Two<HostId>,
        vswitch: Two<VSwitchIdx>,
    },
    VNic {
        host: Two<HostId>,
        vswitch: Two<VSwitchIdx>,
        vnic: Two<Option<usize>>,
    },
    /// A host's `live_migration` table.
    LiveMigration(Two<HostId>),
    /// A host's `dcb` table.
    HostDcb(Two<HostId>),
    /// A switch's `dcb` table.
    SwitchDcb(Two<SwitchId>),
}

/// Which value differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Field {
    /// The element exists on one side only.
    Present,
    /// The VLAN is allowed (a trunk, a port) or defined (a switch) on one
    /// side only.
    Vlan(u16),
    /// A port's access VLAN.
    AccessVlan,
    Mtu,
    StpMode,
    StpPriority,
    StpRegion,
    StpRevision,
    StpInstances,
    /// The switch (and port) a NIC is cabled to.
    Cabling,
    LagMembers,
    LagMode,
    TeamMembers,
    TeamMode,
    LoadBalancing,
    /// The VLAN of a vNIC's network.
    VNicVlan,
    /// A vNIC's `min_bandwidth_weight`.
    VNicWeight,
    /// A virtual switch's `default_flow_weight`.
    DefaultFlowWeight,
    SmbLimit,
    Rdma,
    DcbWilling,
    DcbPfc,
    DcbEts,
    DcbPolicies,
    LmTransport,
    LmNetworks,
    LmSimultaneous,
}

/// A value on one side. Ids are of that side's design.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Not set (the element or the key is absent).
    Unset,
    Bool(bool),
    Num(u32),
    Mtu(Mtu),
    Stp(StpMode),
    Text(String),
    Instances(BTreeMap<u16, VlanSet>),
    Lag(LagMode),
    /// How a switch port is bundled.
    SwitchLag(SwitchLag),
    TeamMode(TeamMode),
    LoadBalancing(LoadBalancing),
    /// Team members or virtual-switch NIC uplinks.
    Nics(Vec<NicIdx>),
    /// A virtual switch's uplinks that are teams.
    Teams(Vec<TeamIdx>),
    /// A NIC's switch and port.
    Attach(Option<SwitchId>, Option<String>),
    /// A VLAN (None: untagged).
    Vlan(Option<u16>),
    Rdma(Rdma),
    Bandwidth(Bandwidth),
    Priorities(Vec<u8>),
    Ets(BTreeMap<u8, u32>),
    Policies(Vec<(PolicyMatch, u8)>),
    Transport(Transport),
    Networks(Vec<NetworkId>),
}

/// One difference between the design and the network as built.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    pub at: At,
    pub field: Field,
    pub value: Two<Value>,
    /// The line that sets the value on each side (the element's own line
    /// when the key is absent; `None` on the side the element is missing
    /// from).
    pub span: Two<Option<Span>>,
}

/// Every difference, in design order (switches, links, hosts; the
/// as-built side's extra elements after the design's).
#[derive(Clone, Debug)]
pub struct Drift {
    pub matching: Matching,
    pub differences: Vec<Difference>,
}

/// Compares `design` with `built`.
pub fn drift(design: &Design, built: &Design) -> Drift {
    let matching = match_designs(design, built);
    let mut c = Cmp {
        d: design,
        b: built,
        m: &matching,
        out: Vec::new(),
        vlans: design
            .used_vlans()
            .iter()
            .chain(built.used_vlans().iter())
            .collect(),
    };
    c.switches();
    c.links();
    c.hosts();
    let differences = c.out;
    Drift {
        matching,
        differences,
    }
}

struct Cmp<'a> {
    d: &'a Design,
    b: &'a Design,
    m: &'a Matching,
    out: Vec<Difference>,
    /// The VLANs either side's networks use: the ones whose presence on a
    /// trunk is compared even where a side allows "every VLAN".
    vlans: BTreeSet<u16>,
}

fn opt<T: Clone>(v: Option<&T>, f: impl Fn(T) -> Value) -> Value {
    v.cloned().map(f).unwrap_or(Value::Unset)
}

impl Cmp<'_> {
    fn push(&mut self, at: At, field: Field, d: (Value, Option<Span>), b: (Value, Option<Span>)) {
        if d.0 != b.0 {
            self.out.push(Difference {
                at,
                field,
                value: Two {
                    design: d.0,
                    built: b.0,
                },
                span: Two {
                    design: d.1,
                    built: b.1,
                },
            });
        }
    }

    /// VLANs to compare between two allowed sets (`None`: every VLAN the
    /// side's switches define, judged by `every`).
    fn vlan_diffs(
        &mut self,
        at: At,
        d: (Option<&VlanSet>, Span, &dyn Fn(u16) -> bool),
        b: (Option<&VlanSet>, Span, &dyn Fn(u16) -> bool),
    ) {
        let mut ids: BTreeSet<u16> = self.vlans.clone();
        if let (Some(x), Some(y)) = (d.0, b.0) {
            ids.extend(x.iter().filter(|v| !y.contains(*v)));
            ids.extend(y.iter().filter(|v| !x.contains(*v)));
        }
        for v in ids {
            let has_d = d.0.map_or_else(|| (d.2)(v), |s| s.contains(v));
            let has_b = b.0.map_or_else(|| (b.2)(v), |s| s.contains(v));
            self.push(
                at,
                Field::Vlan(v),
                (Value::Bool(has_d), Some(d.1)),
                (Value::Bool(has_b), Some(b.1)),
            );
        }
    }

    fn switches(&mut self) {
        let (d, b, m) = (self.d, self.b, self.m);
        for (i, ds) in d.switches.iter().enumerate() {
            let di = SwitchId(i);
            let Some(bi) = m.switches.built(di) else {
                self.push(
                    At::Switch(Two {
                        design: Some(di),
                        built: None,
                    }),
                    Field::Present,
                    (Value::Bool(true), Some(ds.span)),
                    (Value::Bool(false), None),
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
                self.vlan_diffs(
                    at,
                    (ds.vlans.as_ref().map(|v| &v.value), sp(ds), &|_| true),
                    (bs.vlans.as_ref().map(|v| &v.value), sp(bs), &|_| true),
                );
            }
            self.push(
                at,
                Field::Mtu,
                (Value::Num(ds.mtu.payload), Some(ds.mtu.span)),
                (Value::Num(bs.mtu.payload), Some(bs.mtu.span)),
            );
            self.stp(at, ds, bs);
            fn dcb(
                s: &netlint_model::Switch,
            ) -> (
                Option<&netlint_model::Sp<Vec<u8>>>,
                Option<&netlint_model::Sp<BTreeMap<u8, u32>>>,
                Span,
            ) {
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
            self.ports(di, bi);
        }
        for (i, bs) in b.switches.iter().enumerate() {
            if m.switches.design(SwitchId(i)).is_none() {
                self.push(
                    At::Switch(Two {
                        design: None,
                        built: Some(SwitchId(i)),
                    }),
                    Field::Present,
                    (Value::Bool(false), None),
                    (Value::Bool(true), Some(bs.span)),
                );
            }
        }
    }

    fn stp(&mut self, at: At, ds: &netlint_model::Switch, bs: &netlint_model::Switch) {
        let (x, y) = (&ds.stp, &bs.stp);
        let or = |s: Option<Span>, sw: &netlint_model::Switch| s.or(sw.stp.span).unwrap_or(sw.span);
        self.push(
            at,
            Field::StpMode,
            (Value::Stp(x.mode.value), Some(x.mode.span)),
            (Value::Stp(y.mode.value), Some(y.mode.span)),
        );
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
        // The region is compared between two MSTP switches; a switch in
        // another mode is the mode's difference alone.
        if x.mode.value != StpMode::Mstp || y.mode.value != StpMode::Mstp {
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
                    design: dp,
                    built: bp,
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
        }
    }

    fn links(&mut self) {
        let (d, b, m) = (self.d, self.b, self.m);
        for (i, dl) in d.links.iter().enumerate() {
            let di = LinkId(i);
            let Some(bi) = m.links.built(di) else {
                self.push(
                    At::Link(Two {
                        design: Some(di),
                        built: None,
                    }),
                    Field::Present,
                    (Value::Bool(true), Some(dl.span)),
                    (Value::Bool(false), None),
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
            self.push(
                at,
                Field::LagMembers,
                (Value::Num(dl.members.value), Some(dl.members.span)),
                (Value::Num(bl.members.value), Some(bl.members.span)),
            );
            // How the cables are bundled, where both sides have a bundle
            // (one cable is no bundle whatever `lag` says: the number of
            // members is the difference then).
            if dl.is_lag() || bl.is_lag() {
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
                self.push(
                    At::Link(Two {
                        design: None,
                        built: Some(LinkId(i)),
                    }),
                    Field::Present,
                    (Value::Bool(false), None),
                    (Value::Bool(true), Some(bl.span)),
                );
            }
        }
    }

    fn hosts(&mut self) {
        let (d, b, m) = (self.d, self.b, self.m);
        for (i, dh) in d.hosts.iter().enumerate() {
            let di = HostId(i);
            let Some(bi) = m.hosts.built(di) else {
                self.push(
                    At::Host(Two {
                        design: Some(di),
                        built: None,
                    }),
                    Field::Present,
                    (Value::Bool(true), Some(dh.span)),
                    (Value::Bool(false), None),
                );
                continue;
            };
            let bh = b.host(bi);
            let host = Two {
                design: di,
                built: bi,
            };
            let parts = m.parts.get(&di).cloned().unwrap_or_default();
            self.nics(host, dh, bh, &parts);
            self.teams(host, dh, bh, &parts);
            self.vswitches(host, dh, bh, &parts);
            self.live_migration(host, dh, bh);
            self.host_dcb(host, dh, bh);
        }
        for (i, bh) in b.hosts.iter().enumerate() {
            if m.hosts.design(HostId(i)).is_none() {
                self.push(
                    At::Host(Two {
                        design: None,
                        built: Some(HostId(i)),
                    }),
                    Field::Present,
                    (Value::Bool(false), None),
                    (Value::Bool(true), Some(bh.span)),
                );
            }
        }
    }

    fn nics(&mut self, host: Two<HostId>, dh: &Host, bh: &Host, parts: &HostParts) {
        for (i, dn) in dh.nics.iter().enumerate() {
            let Some(bn) = parts.nics.built(NicIdx(i)) else {
                self.push(
                    At::Nic {
                        host,
                        nic: Two {
                            design: Some(NicIdx(i)),
                            built: None,
                        },
                    },
                    Field::Present,
                    (Value::Bool(true), Some(dn.span)),
                    (Value::Bool(false), None),
                );
                continue;
            };
            let bnic = bh.nic(bn);
            let at = At::Nic {
                host,
                nic: Two {
                    design: Some(NicIdx(i)),
                    built: Some(bn),
                },
            };
            // Cabling, compared in design switch ids.
            let attach =
                |n: &netlint_model::Nic, to: &dyn Fn(SwitchId) -> Option<SwitchId>| match &n.attach
                {
                    Some(netlint_model::Attachment::Switch(s)) => (
                        Some(to(s.value)),
                        n.port.as_ref().map(|p| p.value.clone()),
                        s.span,
                    ),
                    Some(other) => (None, None, other.span()),
                    None => (None, None, n.span),
                };
            let (ds, dp, dsp) = attach(dn, &|s| Some(s));
            let (bs, bp, bsp) = attach(bnic, &|s| self.m.switches.design(s));
            // A port known on one side only is no difference.
            let (dp2, bp2) = if dp.is_some() && bp.is_some() {
                (dp.clone(), bp.clone())
            } else {
                (None, None)
            };
            if ds != bs || dp2 != bp2 {
                let raw = |n: &netlint_model::Nic| match &n.attach {
                    Some(netlint_model::Attachment::Switch(s)) => {
                        Value::Attach(Some(s.value), n.port.as_ref().map(|p| p.value.clone()))
                    }
                    _ => Value::Attach(None, None),
                };
                self.out.push(Difference {
                    at,
                    field: Field::Cabling,
                    value: Two {
                        design: raw(dn),
                        built: raw(bnic),
                    },
                    span: Two {
                        design: Some(
                            dn.port
                                .as_ref()
                                .filter(|_| ds == bs)
                                .map_or(dsp, |p| p.span),
                        ),
                        built: Some(
                            bnic.port
                                .as_ref()
                                .filter(|_| ds == bs)
                                .map_or(bsp, |p| p.span),
                        ),
                    },
                });
            }
            self.push(
                at,
                Field::Mtu,
                (Value::Num(dn.mtu.payload), Some(dn.mtu.span)),
                (Value::Num(bnic.mtu.payload), Some(bnic.mtu.span)),
            );
            self.push(
                at,
                Field::Rdma,
                (Value::Rdma(dn.rdma.value), Some(dn.rdma.span)),
                (Value::Rdma(bnic.rdma.value), Some(bnic.rdma.span)),
            );
        }
        for (j, bn) in bh.nics.iter().enumerate() {
            if parts.nics.design(NicIdx(j)).is_none() {
                self.push(
                    At::Nic {
                        host,
                        nic: Two {
                            design: None,
                            built: Some(NicIdx(j)),
                        },
                    },
                    Field::Present,
                    (Value::Bool(false), None),
                    (Value::Bool(true), Some(bn.span)),
                );
            }
        }
    }

    /// Members in design NIC ids (a member not matched stays its own id on
    /// its side, so it differs).
    fn members_differ(d: &[NicIdx], b: &[NicIdx], parts: &HostParts) -> bool {
        let ds: BTreeSet<Option<NicIdx>> = d.iter().map(|x| Some(*x)).collect();
        let bs: BTreeSet<Option<NicIdx>> = b.iter().map(|x| parts.nics.design(*x)).collect();
        ds != bs
    }

    fn teams(&mut self, host: Two<HostId>, dh: &Host, bh: &Host, parts: &HostParts) {
        for (&dt, &(bt, _)) in &parts.teams.to_built {
            let (x, y) = (&dh.teams[dt.0], &bh.teams[bt.0]);
            let at = At::Team {
                host,
                team: Two {
                    design: dt,
                    built: bt,
                },
            };
            let dm: Vec<NicIdx> = x.members.iter().map(|n| n.value).collect();
            let bm: Vec<NicIdx> = y.members.iter().map(|n| n.value).collect();
            if Self::members_differ(&dm, &bm, parts) {
                self.out.push(Difference {
                    at,
                    field: Field::TeamMembers,
                    value: Two {
                        design: Value::Nics(dm),
                        built: Value::Nics(bm),
                    },
                    span: Two {
                        design: Some(x.members_span),
                        built: Some(y.members_span),
                    },
                });
            }
            self.push(
                at,
                Field::TeamMode,
                (Value::TeamMode(x.mode.value), Some(x.mode.span)),
                (Value::TeamMode(y.mode.value), Some(y.mode.span)),
            );
            self.push(
                at,
                Field::LoadBalancing,
                (
                    Value::LoadBalancing(x.load_balancing.value),
                    Some(x.load_balancing.span),
                ),
                (
                    Value::LoadBalancing(y.load_balancing.value),
                    Some(y.load_balancing.span),
                ),
            );
        }
    }

    fn vswitches(&mut self, host: Two<HostId>, dh: &Host, bh: &Host, parts: &HostParts) {
        let m = self.m;
        for (&dv, &(bv, _)) in &parts.vswitches.to_built {
            let (x, y) = (&dh.vswitches[dv.0], &bh.vswitches[bv.0]);
            let vs = Two {
                design: dv,
                built: bv,
            };
            let at = At::VSwitch { host, vswitch: vs };
            let nics = |v: &netlint_model::VSwitch| -> Vec<NicIdx> {
                v.uplinks
                    .iter()
                    .filter_map(|u| match u.value {
                        Uplink::Nic(n) => Some(n),
                        Uplink::Team(_) => None,
                    })
                    .collect()
            };
            let (dn, bn) = (nics(x), nics(y));
            if Self::members_differ(&dn, &bn, parts) {
                self.out.push(Difference {
                    at,
                    field: Field::TeamMembers,
                    value: Two {
                        design: Value::Nics(dn),
                        built: Value::Nics(bn),
                    },
                    span: Two {
                        design: Some(x.uplinks_span),
                        built: Some(y.uplinks_span),
                    },
                });
            }
            self.push(
                at,
                Field::LoadBalancing,
                (
                    opt(
                        x.load_balancing.as_ref().map(|l| &l.value),
                        Value::LoadBalancing,
                    ),
                    Some(x.load_balancing.as_ref().map_or(x.span, |l| l.span)),
                ),
                (
                    opt(
                        y.load_balancing.as_ref().map(|l| &l.value),
                        Value::LoadBalancing,
                    ),
                    Some(y.load_balancing.as_ref().map_or(y.span, |l| l.span)),
                ),
            );
            self.push(
                at,
                Field::DefaultFlowWeight,
                (
                    opt(x.default_flow_weight.as_ref().map(|w| &w.value), Value::Num),
                    Some(x.default_flow_weight.as_ref().map_or(x.span, |w| w.span)),
                ),
                (
                    opt(y.default_flow_weight.as_ref().map(|w| &w.value), Value::Num),
                    Some(y.default_flow_weight.as_ref().map_or(y.span, |w| w.span)),
                ),
            );
            let pairs = parts.vnics.get(&dv).cloned().unwrap_or_default();
            for (i, dn) in x.vnics.iter().enumerate() {
                let Some(j) = pairs.built(i) else {
                    self.push(
                        At::VNic {
                            host,
                            vswitch: vs,
                            vnic: Two {
                                design: Some(i),
                                built: None,
                            },
                        },
                        Field::Present,
                        (Value::Bool(true), Some(dn.span)),
                        (Value::Bool(false), None),
                    );
                    continue;
                };
                let bn = &y.vnics[j];
                let at = At::VNic {
                    host,
                    vswitch: vs,
                    vnic: Two {
                        design: Some(i),
                        built: Some(j),
                    },
                };
                self.push(
                    at,
                    Field::VNicVlan,
                    (
                        Value::Vlan(self.d.network(dn.network.value).vlan_id()),
                        Some(dn.network.span),
                    ),
                    (
                        Value::Vlan(self.b.network(bn.network.value).vlan_id()),
                        Some(bn.network.span),
                    ),
                );
                self.push(
                    at,
                    Field::VNicWeight,
                    (
                        opt(
                            dn.min_bandwidth_weight.as_ref().map(|w| &w.value),
                            Value::Num,
                        ),
                        Some(dn.min_bandwidth_weight.as_ref().map_or(dn.span, |w| w.span)),
                    ),
                    (
                        opt(
                            bn.min_bandwidth_weight.as_ref().map(|w| &w.value),
                            Value::Num,
                        ),
                        Some(bn.min_bandwidth_weight.as_ref().map_or(bn.span, |w| w.span)),
                    ),
                );
                self.push(
                    at,
                    Field::Rdma,
                    (Value::Bool(dn.rdma.value), Some(dn.rdma.span)),
                    (Value::Bool(bn.rdma.value), Some(bn.rdma.span)),
                );
                self.push(
                    at,
                    Field::Mtu,
                    (Value::Num(dn.mtu.payload), Some(dn.mtu.span)),
                    (Value::Num(bn.mtu.payload), Some(bn.mtu.span)),
                );
            }
            for (j, bn) in y.vnics.iter().enumerate() {
                if pairs.design(j).is_none() {
                    self.push(
                        At::VNic {
                            host,
                            vswitch: vs,
                            vnic: Two {
                                design: None,
                                built: Some(j),
                            },
                        },
                        Field::Present,
                        (Value::Bool(false), None),
                        (Value::Bool(true), Some(bn.span)),
                    );
                }
            }
        }
        let _ = m;
    }

    fn live_migration(&mut self, host: Two<HostId>, dh: &Host, bh: &Host) {
        let (x, y) = (dh.live_migration.as_ref(), bh.live_migration.as_ref());
        if x.is_none() && y.is_none() {
            return;
        }
        let at = At::LiveMigration(host);
        let span = |l: Option<&netlint_model::LiveMigration>, h: &Host, f: Option<Span>| {
            Some(f.or(l.map(|l| l.span)).unwrap_or(h.span))
        };
        self.push(
            at,
            Field::LmTransport,
            (
                opt(x.map(|l| &l.transport.value), Value::Transport),
                span(x, dh, x.map(|l| l.transport.span)),
            ),
            (
                opt(y.map(|l| &l.transport.value), Value::Transport),
                span(y, bh, y.map(|l| l.transport.span)),
            ),
        );
        let nets_d: Option<Vec<NetworkId>> =
            x.map(|l| l.networks.iter().map(|n| n.value).collect());
        let nets_b: Option<Vec<NetworkId>> =
            y.map(|l| l.networks.iter().map(|n| n.value).collect());
        // Compared by design network ids, in order (the order is the
        // preference).
        let mapped_b: Option<Vec<Option<NetworkId>>> = nets_b
            .as_ref()
            .map(|v| v.iter().map(|n| self.m.networks.design(*n)).collect());
        let mapped_d: Option<Vec<Option<NetworkId>>> = nets_d
            .as_ref()
            .map(|v| v.iter().map(|n| Some(*n)).collect());
        if mapped_d != mapped_b {
            let nspan = |l: Option<&netlint_model::LiveMigration>, h: &Host| {
                span(
                    l,
                    h,
                    l.and_then(|l| {
                        let f = l.networks.first()?.span;
                        let e = l.networks.last()?.span;
                        Some(Span::new(f.start, e.end))
                    }),
                )
            };
            self.out.push(Difference {
                at,
                field: Field::LmNetworks,
                value: Two {
                    design: opt(nets_d.as_ref(), Value::Networks),
                    built: opt(nets_b.as_ref(), Value::Networks),
                },
                span: Two {
                    design: nspan(x, dh),
                    built: nspan(y, bh),
                },
            });
        }
        self.push(
            at,
            Field::LmSimultaneous,
            (
                opt(
                    x.and_then(|l| l.simultaneous.as_ref()).map(|s| &s.value),
                    Value::Num,
                ),
                span(
                    x,
                    dh,
                    x.and_then(|l| l.simultaneous.as_ref()).map(|s| s.span),
                ),
            ),
            (
                opt(
                    y.and_then(|l| l.simultaneous.as_ref()).map(|s| &s.value),
                    Value::Num,
                ),
                span(
                    y,
                    bh,
                    y.and_then(|l| l.simultaneous.as_ref()).map(|s| s.span),
                ),
            ),
        );
        self.push(
            at,
            Field::SmbLimit,
            (
                opt(
                    x.and_then(|l| l.smb_bandwidth_limit.as_ref())
                        .map(|s| &s.value),
                    Value::Bandwidth,
                ),
                span(
                    x,
                    dh,
                    x.and_then(|l| l.smb_bandwidth_limit.as_ref())
                        .map(|s| s.span),
                ),
            ),
            (
                opt(
                    y.and_then(|l| l.smb_bandwidth_limit.as_ref())
                        .map(|s| &s.value),
                    Value::Bandwidth,
                ),
                span(
                    y,
                    bh,
                    y.and_then(|l| l.smb_bandwidth_limit.as_ref())
                        .map(|s| s.span),
                ),
            ),
        );
    }

    fn host_dcb(&mut self, host: Two<HostId>, dh: &Host, bh: &Host) {
        let (x, y) = (dh.dcb.as_ref(), bh.dcb.as_ref());
        if x.is_none() && y.is_none() {
            return;
        }
        let at = At::HostDcb(host);
        let span = |l: Option<&netlint_model::HostDcb>, h: &Host, f: Option<Span>| {
            Some(f.or(l.map(|l| l.span)).unwrap_or(h.span))
        };
        self.push(
            at,
            Field::DcbWilling,
            (
                opt(
                    x.and_then(|l| l.willing.as_ref()).map(|s| &s.value),
                    Value::Bool,
                ),
                span(x, dh, x.and_then(|l| l.willing.as_ref()).map(|s| s.span)),
            ),
            (
                opt(
                    y.and_then(|l| l.willing.as_ref()).map(|s| &s.value),
                    Value::Bool,
                ),
                span(y, bh, y.and_then(|l| l.willing.as_ref()).map(|s| s.span)),
            ),
        );
        self.push(
            at,
            Field::DcbPfc,
            (
                opt(
                    x.and_then(|l| l.pfc.as_ref()).map(|s| &s.value),
                    Value::Priorities,
                ),
                span(x, dh, x.and_then(|l| l.pfc.as_ref()).map(|s| s.span)),
            ),
            (
                opt(
                    y.and_then(|l| l.pfc.as_ref()).map(|s| &s.value),
                    Value::Priorities,
                ),
                span(y, bh, y.and_then(|l| l.pfc.as_ref()).map(|s| s.span)),
            ),
        );
        self.push(
            at,
            Field::DcbEts,
            (
                opt(x.and_then(|l| l.ets.as_ref()).map(|s| &s.value), Value::Ets),
                span(x, dh, x.and_then(|l| l.ets.as_ref()).map(|s| s.span)),
            ),
            (
                opt(y.and_then(|l| l.ets.as_ref()).map(|s| &s.value), Value::Ets),
                span(y, bh, y.and_then(|l| l.ets.as_ref()).map(|s| s.span)),
            ),
        );
        let pol = |l: Option<&netlint_model::HostDcb>| -> Value {
            match l {
                Some(l) if !l.policies.is_empty() => {
                    let mut v: Vec<(PolicyMatch, u8)> = l
                        .policies
                        .iter()
                        .map(|p| (p.match_.value, p.priority.value))
                        .collect();
                    v.sort();
                    Value::Policies(v)
                }
                _ => Value::Unset,
            }
        };
        let pspan = |l: Option<&netlint_model::HostDcb>, h: &Host| {
            span(
                l,
                h,
                l.and_then(|l| {
                    let f = l.policies.first()?.span;
                    let e = l.policies.last()?.span;
                    Some(Span::new(f.start, e.end))
                }),
            )
        };
        self.push(
            at,
            Field::DcbPolicies,
            (pol(x), pspan(x, dh)),
            (pol(y), pspan(y, bh)),
        );
    }
}

#[cfg(test)]
mod tests;
