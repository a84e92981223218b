//! The hosts' side of the comparison: NICs (cabling, MTU, RDMA), teams,
//! virtual switches and vNICs, live migration and DCB.

use super::{opt, At, Cmp, Difference, Field, HostParts, Two, Value};
use netlint_model::ifname::port_key;
use netlint_model::{Host, HostId, NetworkId, NicIdx, PolicyMatch, Span, SwitchId, Uplink};
use std::collections::BTreeSet;

impl Cmp<'_> {
    pub(super) fn hosts(&mut self) {
        let (d, b, m) = (self.d, self.b, self.m);
        for (i, dh) in d.hosts.iter().enumerate() {
            let di = HostId(i);
            let Some(bi) = m.hosts.built(di) else {
                self.only_in_design(
                    At::Host(Two {
                        design: Some(di),
                        built: None,
                    }),
                    dh.span,
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
                self.only_as_built(
                    At::Host(Two {
                        design: None,
                        built: Some(HostId(i)),
                    }),
                    bh.span,
                );
            }
        }
    }

    /// The design's NICs that the as-built's cabling places, by host and
    /// NIC name (rows to hosts the as-built does not hold: a cabling sheet
    /// imported with switch configs alone): on another switch, or on
    /// another port of the same switch where the design names its port,
    /// is a cabling difference. A NIC whose host the as-built holds is
    /// compared with it instead ([`Cmp::hosts`]).
    pub(super) fn cabled_nics(&mut self) {
        let (d, b, m) = (self.d, self.b, self.m);
        for (pi, p) in self.peers.iter().enumerate() {
            let Some((hi, ni)) = p.nic_in(d) else {
                continue;
            };
            if m.hosts.built(hi).is_some() {
                continue;
            }
            let n = d.host(hi).nic(ni);
            let Some(netlint_model::Attachment::Switch(ds)) = &n.attach else {
                continue;
            };
            let Some(bs) = b
                .switches
                .iter()
                .position(|s| s.name.eq_ignore_ascii_case(&p.switch))
                .map(SwitchId)
            else {
                continue;
            };
            let other_switch = m.switches.design(bs) != Some(ds.value);
            let other_port = !other_switch
                && n.port
                    .as_ref()
                    .is_some_and(|dp| !netlint_model::ifname::same_port(&dp.value, &p.port));
            if !(other_switch || other_port) {
                continue;
            }
            self.out.push(Difference {
                at: At::CabledNic {
                    host: hi,
                    nic: ni,
                    peer: pi,
                },
                field: Field::Cabling,
                value: Two {
                    design: Value::Attach(Some(ds.value), n.port.as_ref().map(|x| x.value.clone())),
                    built: Value::Attach(Some(bs), Some(p.port.clone())),
                },
                span: Two {
                    design: Some(
                        n.port
                            .as_ref()
                            .filter(|_| !other_switch)
                            .map_or(ds.span, |x| x.span),
                    ),
                    built: None,
                },
            });
        }
    }

    fn nics(&mut self, host: Two<HostId>, dh: &Host, bh: &Host, parts: &HostParts) {
        for (i, dn) in dh.nics.iter().enumerate() {
            let Some(bn) = parts.nics.built(NicIdx(i)) else {
                self.only_in_design(
                    At::Nic {
                        host,
                        nic: Two {
                            design: Some(NicIdx(i)),
                            built: None,
                        },
                    },
                    dn.span,
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
                        // Compared as port names (`ethernet1/1/2` as OS10
                        // prints it is `Ethernet1/1/2`).
                        n.port.as_ref().map(|p| port_key(&p.value)),
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
                self.only_as_built(
                    At::Nic {
                        host,
                        nic: Two {
                            design: None,
                            built: Some(NicIdx(j)),
                        },
                    },
                    bn.span,
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
                    self.only_in_design(
                        At::VNic {
                            host,
                            vswitch: vs,
                            vnic: Two {
                                design: Some(i),
                                built: None,
                            },
                        },
                        dn.span,
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
                    self.only_as_built(
                        At::VNic {
                            host,
                            vswitch: vs,
                            vnic: Two {
                                design: None,
                                built: Some(j),
                            },
                        },
                        bn.span,
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
        // A willing bit either side does not know is not compared.
        let unknown =
            |l: Option<&netlint_model::HostDcb>| l.is_some_and(|l| l.willing_unknown.is_some());
        if !unknown(x) && !unknown(y) {
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
        }
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
