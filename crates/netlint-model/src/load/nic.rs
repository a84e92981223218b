//! Reading a host's NICs, teams and virtual switches (with their vNICs).
//! Part of the loader's `Builder` (load.rs).

use super::*;

impl Builder {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn nic(
        &mut self,
        owner: &Element,
        name: &str,
        key: Span,
        v: &Value<'_>,
        host_names: &HostNames,
        peers: &mut Vec<PendingPeer>,
        host_index: usize,
        nic_index: usize,
    ) -> Option<Nic> {
        let what = format!("NIC `{name}`");
        let (_, t) = self.r.as_table(name, v)?;
        let span = element_span(key, v);
        self.r.check_keys(t, NIC_KEYS, &what);
        let card = self
            .r
            .str(t, "card")
            .unwrap_or(Sp::new(name.to_string(), span));
        let model = self.r.str(t, "model");
        let speed = self.r.speed(t, "speed");
        let switch = self.r.str(t, "switch");
        let peer = self.r.str(t, "peer");
        let port = self.r.str(t, "port");
        let mtu = self
            .mtu(t, Some("jumbo_packet"), &what)
            .unwrap_or(Sp::new(Mtu::STANDARD, span));
        let rdma = self
            .r
            .enum_::<Rdma>(t, "rdma")
            .unwrap_or(Sp::new(Rdma::None, span));
        let networks = self.network_list(t, "networks");
        self.allow(t, owner.with_part(Part::Nic(name.to_string())));
        let mut attach = None;
        let mut pending = None;
        match (&switch, &peer) {
            (Some(s), Some(p)) => {
                self.r.diags.push(
                    Diagnostic::schema(p.span, format!("{what} sets both `switch` and `peer`"))
                        .with_related(s.span, "`switch` set here")
                        .with_help("a NIC has one cable: keep `switch` for a switch port or `peer` for a direct cable to another host"),
                );
            }
            (Some(s), None) => attach = self.switch_ref(s).map(Attachment::Switch),
            (None, Some(p)) => match p.value.split_once(':') {
                Some((h, n)) if !h.is_empty() && !n.is_empty() => {
                    if !host_names.ids.contains_key(h) {
                        let hint = did_you_mean(h, host_names.strs());
                        self.r.error_help(
                            p.span,
                            format!("`peer` names unknown host `{h}`{hint}"),
                            defined_list("hosts", host_names.strs()),
                        );
                    } else if host_index != usize::MAX {
                        pending = Some(PendingPeer {
                            host: host_index,
                            nic: nic_index,
                            other_host: h.to_string(),
                            other_nic: n.to_string(),
                            span: p.span,
                        });
                    }
                }
                _ => self.r.error_help(
                    p.span,
                    format!("`peer = \"{}\"` is not `host:NIC`", p.value),
                    "write the other end as \"hv02:SLOT3-1\"",
                ),
            },
            (None, None) => {}
        }
        let switch_port = self.nic_switch_port(t, attach.as_ref(), port.as_ref(), &what);
        peers.extend(pending);
        Some(Nic {
            name: name.to_string(),
            span,
            card,
            model,
            speed,
            attach,
            port,
            switch_port,
            mtu,
            rdma,
            networks,
        })
    }

    pub(super) fn nic_ref(
        &mut self,
        nics: &[Nic],
        s: &Sp<String>,
        host_what: &str,
    ) -> Option<Sp<NicIdx>> {
        match nics.iter().position(|n| n.name == s.value) {
            Some(i) => Some(Sp::new(NicIdx(i), s.span)),
            None => {
                let hint = did_you_mean(&s.value, nics.iter().map(|n| n.name.as_str()));
                self.r.error_help(
                    s.span,
                    format!("unknown NIC `{}`{hint}", s.value),
                    defined_list(
                        &format!("NICs of {host_what}"),
                        nics.iter().map(|n| n.name.as_str()),
                    ),
                );
                None
            }
        }
    }

    pub(super) fn team(
        &mut self,
        owner: &Element,
        name: &str,
        key: Span,
        v: &Value<'_>,
        nics: &[Nic],
        teams: &[Team],
    ) -> Option<Team> {
        let what = format!("team `{name}`");
        let (_, t) = self.r.as_table(name, v)?;
        let span = element_span(key, v);
        self.r.check_keys(t, TEAM_KEYS, &what);
        if nics.iter().any(|n| n.name == name) {
            self.r.error(key, format!("team `{name}` has the name of a NIC: names of NICs, teams and virtual switches must differ"));
        }
        let _ = teams;
        let kind = self
            .r
            .enum_::<TeamKind>(t, "kind")
            .unwrap_or(Sp::new(TeamKind::Lbfo, span));
        self.r
            .require(t, "members", span, &what, "[\"NIC1\", \"NIC2\"]");
        let (members_span, member_names) =
            self.r.str_list(t, "members").unwrap_or((span, Vec::new()));
        let empty_list = |v: &Value<'_>| matches!(v.get_ref(), DeValue::Array(a) if a.is_empty());
        if Reader::get(t, "members").is_some_and(|(_, v)| empty_list(v)) {
            self.r.error_help(
                members_span,
                format!("{what} has no members"),
                "list the NICs it teams: `members = [\"NIC1\", \"NIC2\"]`, or remove the team",
            );
        }
        let members: Vec<Sp<NicIdx>> = member_names
            .iter()
            .filter_map(|m| self.nic_ref(nics, m, &owner.path()))
            .collect();
        let mode = self
            .r
            .enum_::<TeamMode>(t, "mode")
            .unwrap_or(Sp::new(TeamMode::SwitchIndependent, span));
        let load_balancing = self
            .r
            .enum_in::<LoadBalancing>(t, "load_balancing", LoadBalancing::TEAM)
            .unwrap_or(Sp::new(LoadBalancing::Dynamic, span));
        let standby = self.r.str(t, "standby").and_then(|s| {
            let idx = self.nic_ref(nics, &s, &owner.path())?;
            if !members.iter().any(|m| m.value == idx.value) {
                self.r.error_help(
                    s.span,
                    format!("standby NIC `{}` is not a member of {what}", s.value),
                    format!("add `{}` to `members`", s.value),
                );
                return None;
            }
            Some(idx)
        });
        let switch_lag = self.r.enum_::<SwitchLag>(t, "switch_lag");
        let networks = self.network_list(t, "networks");
        let mtu = self.mtu(t, None, &what);
        self.allow(t, owner.with_part(Part::Team(name.to_string())));
        Some(Team {
            name: name.to_string(),
            span,
            kind,
            members,
            members_span,
            mode,
            load_balancing,
            standby,
            switch_lag,
            networks,
            mtu,
        })
    }

    pub(super) fn check_nic_in_two_teams(&mut self, nics: &[Nic], teams: &[Team]) {
        for (i, nic) in nics.iter().enumerate() {
            let holders: Vec<(&Team, Span)> = teams
                .iter()
                .filter_map(|t| {
                    t.members
                        .iter()
                        .find(|m| m.value == NicIdx(i))
                        .map(|m| (t, m.span))
                })
                .collect();
            if holders.len() > 1 {
                let (first, fs) = holders[0];
                for (other, os) in &holders[1..] {
                    self.r.diags.push(
                        Diagnostic::schema(
                            *os,
                            format!(
                                "NIC `{}` is a member of two teams, `{}` and `{}`",
                                nic.name, first.name, other.name
                            ),
                        )
                        .with_related(fs, format!("also in team `{}`", first.name))
                        .with_help("a NIC can belong to one team only"),
                    );
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn vswitch(
        &mut self,
        owner: &Element,
        name: &str,
        key: Span,
        v: &Value<'_>,
        nics: &[Nic],
        teams: &[Team],
        vswitches: &[VSwitch],
        os: Platform,
    ) -> Option<VSwitch> {
        let what = format!("virtual switch `{name}`");
        let (_, t) = self.r.as_table(name, v)?;
        let span = element_span(key, v);
        self.r.check_keys(t, VSWITCH_KEYS, &what);
        let kind = self.r.enum_::<VSwitchKind>(t, "kind");
        self.r.require(t, "uplinks", span, &what, "[\"Team1\"]");
        let (uplinks_span, names) = self.r.str_list(t, "uplinks").unwrap_or((span, Vec::new()));
        let mut uplinks = Vec::new();
        for s in &names {
            if let Some(i) = nics.iter().position(|n| n.name == s.value) {
                if let Some(team) = teams
                    .iter()
                    .find(|t| t.members.iter().any(|m| m.value == NicIdx(i)))
                {
                    self.r.error_help(s.span, format!("NIC `{}` is a member of team `{}` and cannot also be an uplink of its own", s.value, team.name), format!("use the team: `uplinks = [\"{}\"]`", team.name));
                    continue;
                }
                if let Some(other) = vswitches
                    .iter()
                    .find(|vs| vs.uplinks.iter().any(|u| u.value == Uplink::Nic(NicIdx(i))))
                {
                    self.r.error(
                        s.span,
                        format!(
                            "NIC `{}` is already an uplink of virtual switch `{}`",
                            s.value, other.name
                        ),
                    );
                    continue;
                }
                uplinks.push(Sp::new(Uplink::Nic(NicIdx(i)), s.span));
            } else if let Some(i) = teams.iter().position(|t| t.name == s.value) {
                uplinks.push(Sp::new(Uplink::Team(TeamIdx(i)), s.span));
            } else {
                let hint = did_you_mean(
                    &s.value,
                    nics.iter()
                        .map(|n| n.name.as_str())
                        .chain(teams.iter().map(|t| t.name.as_str())),
                );
                self.r.error_help(
                    s.span,
                    format!("unknown uplink `{}`{hint}", s.value),
                    "an uplink is a NIC or a team of this host",
                );
            }
        }
        if uplinks.len() > 1 && uplinks.iter().any(|u| matches!(u.value, Uplink::Team(_))) {
            self.r.error_help(
                uplinks_span,
                format!("{what} has a team among several uplinks"),
                "give a virtual switch one team, or two or more NICs (Switch Embedded Teaming)",
            );
        }
        let allowed_lb: Vec<&str> = LoadBalancing::SET
            .iter()
            .chain(LoadBalancing::VSPHERE.iter())
            .copied()
            .collect();
        let load_balancing = self
            .r
            .enum_in::<LoadBalancing>(t, "load_balancing", &allowed_lb)
            .and_then(|lb| self.platform_load_balancing(lb, os, kind.as_ref()));
        let networks = self.network_list(t, "networks");
        let switch_lag = self.r.enum_::<SwitchLag>(t, "switch_lag");
        self.vswitch_lag_on_team(switch_lag.as_ref(), &uplinks, teams, &what);
        let mtu = self.mtu(t, None, &what);
        let default_flow_weight = self
            .r
            .int(t, "default_flow_weight", 0..=100, "a weight from 0 to 100")
            .map(|w| w.map(|n| n as u32));
        self.allow(t, owner.with_part(Part::VSwitch(name.to_string())));
        let mut vnics = Vec::new();
        if let Some((_, vt)) = self.r.table(t, "vnics") {
            for (vn, vkey, vv) in entries(vt) {
                let vwhat = format!("vNIC `{vn}`");
                let Some((_, vnt)) = self.r.as_table(&vn, vv) else {
                    continue;
                };
                let vspan = element_span(vkey, vv);
                self.r.check_keys(vnt, VNIC_KEYS, &vwhat);
                self.r.require(vnt, "network", vspan, &vwhat, "\"lm\"");
                let network = self
                    .r
                    .str(vnt, "network")
                    .and_then(|s| self.network_ref(&s));
                let vmtu = self
                    .mtu(vnt, None, &vwhat)
                    .unwrap_or(Sp::new(Mtu::STANDARD, vspan));
                let rdma = self.r.bool(vnt, "rdma").unwrap_or(Sp::new(false, vspan));
                let weight = self
                    .r
                    .int(
                        vnt,
                        "min_bandwidth_weight",
                        0..=100,
                        "a weight from 0 to 100",
                    )
                    .map(|w| w.map(|n| n as u32));
                // The NICs under this virtual switch: its NIC uplinks and
                // the members of its team.
                let under: Vec<NicIdx> = uplinks
                    .iter()
                    .flat_map(|u| match u.value {
                        Uplink::Nic(n) => vec![n],
                        Uplink::Team(t) => teams[t.0].members.iter().map(|m| m.value).collect(),
                    })
                    .collect();
                let pinned = |key: &str, this: &mut Self| -> Vec<Sp<NicIdx>> {
                    let Some((_, list)) = this.r.str_list(vnt, key) else {
                        return Vec::new();
                    };
                    list.iter()
                        .filter_map(|s| {
                            let idx = this.nic_ref(nics, s, &owner.path())?;
                            if !under.contains(&idx.value) {
                                let names: Vec<&str> =
                                    under.iter().map(|n| nics[n.0].name.as_str()).collect();
                                this.r.diags.push(
                                    Diagnostic::schema(
                                        s.span,
                                        format!(
                                            "`{key}` of {vwhat} names NIC `{}`, which is not an uplink of {what}",
                                            s.value
                                        ),
                                    )
                                    .with_related(uplinks_span, "the virtual switch's uplinks")
                                    .with_help(if names.is_empty() {
                                        format!("{what} has no uplink NIC: add `{}` to its `uplinks`, or remove it here", s.value)
                                    } else {
                                        format!("pin to uplinks of {what}: {}", names.join(", "))
                                    }),
                                );
                                return None;
                            }
                            Some(idx)
                        })
                        .collect()
                };
                let active_uplinks = pinned("active_uplinks", self);
                let standby_uplinks = pinned("standby_uplinks", self);
                let iscsi = self
                    .r
                    .bool(vnt, "iscsi_port_binding")
                    .unwrap_or(Sp::new(false, vspan));
                self.allow(
                    vnt,
                    owner.with_part(Part::VNic {
                        vswitch: name.to_string(),
                        vnic: vn.to_string(),
                    }),
                );
                if let Some(network) = network {
                    vnics.push(VNic {
                        name: vn,
                        span: vspan,
                        network,
                        mtu: vmtu,
                        rdma,
                        min_bandwidth_weight: weight,
                        active_uplinks,
                        standby_uplinks,
                        iscsi_port_binding: iscsi,
                    });
                }
            }
        }
        Some(VSwitch {
            name: name.to_string(),
            span,
            kind,
            uplinks,
            uplinks_span,
            load_balancing,
            networks,
            mtu,
            default_flow_weight,
            vnics,
            switch_lag,
        })
    }
}
