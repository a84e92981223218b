//! Reading a host (its own keys and its profile's, merged before), and the
//! MTU of vSphere uplinks.
//! Part of the loader's `Builder` (load.rs).

use super::*;

impl Builder {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn host(
        &mut self,
        name: &str,
        span: Span,
        profile: Option<Sp<String>>,
        t: &Table<'_>,
        platform: &Sp<Platform>,
        host_names: &HostNames,
        peers: &mut Vec<PendingPeer>,
        host_index: usize,
        is_host: bool,
    ) -> Host {
        let (what, owner) = if is_host {
            (format!("host `{name}`"), Element::host(name))
        } else {
            (
                format!("profile `{name}`"),
                Element::Profile(name.to_string(), Part::Whole),
            )
        };
        if is_host {
            self.r.check_keys(t, HOST_KEYS, &what);
        }
        let os = self
            .r
            .enum_::<Platform>(t, "os")
            .unwrap_or_else(|| platform.clone());
        let memory_gb = self.r.number(t, "memory_gb", MAX_MEMORY_GB);
        let power = self
            .r
            .enum_::<Power>(t, "power")
            .unwrap_or(Sp::new(Power::Unknown, span));
        let cluster = self.r.str(t, "cluster");
        self.allow(t, owner.clone());

        let mut nics = Vec::new();
        if let Some((_, nt)) = self.r.table(t, "nics") {
            for (n, key, v) in entries(nt) {
                if let Some(nic) = self.nic(
                    &owner,
                    &n,
                    key,
                    v,
                    host_names,
                    peers,
                    host_index,
                    nics.len(),
                ) {
                    nics.push(nic);
                }
            }
        }
        let mut teams: Vec<Team> = Vec::new();
        if let Some((_, tt)) = self.r.table(t, "teams") {
            for (n, key, v) in entries(tt) {
                if let Some(team) = self.team(&owner, &n, key, v, &nics, &teams) {
                    teams.push(team);
                }
            }
        }
        let mut vswitches: Vec<VSwitch> = Vec::new();
        if let Some((_, vt)) = self.r.table(t, "vswitches") {
            for (n, key, v) in entries(vt) {
                if let Some(vs) =
                    self.vswitch(&owner, &n, key, v, &nics, &teams, &vswitches, os.value)
                {
                    vswitches.push(vs);
                }
            }
        }
        let live_migration = self.r.table(t, "live_migration").map(|(ls, lt)| {
            self.r.check_keys(lt, LM_KEYS, "`live_migration`");
            let transport = self
                .r
                .enum_::<Transport>(lt, "transport")
                .unwrap_or(Sp::new(Transport::Tcp, ls));
            let networks = self.network_list(lt, "networks");
            let simultaneous = self
                .r
                .int(lt, "simultaneous", 1..=64, "from 1 to 64")
                .map(|s| s.map(|n| n as u32));
            let smb_bandwidth_limit = self.r.parsed(lt, "smb_bandwidth_limit", Bandwidth::parse);
            LiveMigration {
                span: ls,
                transport,
                networks,
                simultaneous,
                smb_bandwidth_limit,
            }
        });
        let dcb = self.r.table(t, "dcb").map(|(ds, dt)| {
            self.r.check_keys(dt, HOST_DCB_KEYS, "host `dcb`");
            // `true`, `false`, or "unknown" (an import that could not
            // read it): the DCBX default is then not assumed.
            let willing_unknown = Reader::get(dt, "willing").and_then(|(_, v)| match v.get_ref() {
                DeValue::String(s) if s.as_ref() == "unknown" => Some(span_of(v)),
                _ => None,
            });
            let willing = if willing_unknown.is_some() {
                None
            } else {
                self.r.bool(dt, "willing")
            };
            let pfc = self.priorities(dt, "pfc");
            let ets = self.ets(dt);
            let mut policies = Vec::new();
            if let Some((_, items)) = self.r.array(dt, "policies") {
                for item in items {
                    let Some((ps, pt)) = self.r.as_table("policies", item) else {
                        continue;
                    };
                    self.r.check_keys(pt, POLICY_KEYS, "a DCB policy");
                    let name = self.r.str(pt, "name");
                    let m = self.r.enum_::<PolicyMatch>(pt, "match");
                    let prio = self
                        .r
                        .int(pt, "priority", 0..=7, "an 802.1p priority from 0 to 7");
                    for (k, ex) in [
                        ("name", "\"SMB\""),
                        ("match", "\"smb-direct\""),
                        ("priority", "3"),
                    ] {
                        self.r.require(pt, k, ps, "a DCB policy", ex);
                    }
                    if let (Some(name), Some(m), Some(p)) = (name, m, prio) {
                        policies.push(DcbPolicy {
                            span: ps,
                            name,
                            match_: m,
                            priority: p.map(|n| n as u8),
                        });
                    }
                }
            }
            HostDcb {
                span: ds,
                willing,
                willing_unknown,
                pfc,
                ets,
                policies,
            }
        });
        self.check_nic_in_two_teams(&nics, &teams);
        if os.value.is_vsphere() {
            self.vsphere_uplink_mtu(&mut nics, &teams, &vswitches);
        }
        Host {
            name: name.to_string(),
            span,
            profile,
            cluster,
            os,
            memory_gb,
            power,
            nics,
            teams,
            vswitches,
            live_migration,
            dcb,
            overrides: Vec::new(),
        }
    }

    /// On ESXi a vmnic has no MTU of its own: it runs the MTU of the
    /// standard or distributed switch it is an uplink of. Each uplink takes
    /// its virtual switch's `mtu` (span: that line); an uplink that writes a
    /// different MTU is an input error, as are uplinks of one virtual switch
    /// without `mtu` that write different MTUs.
    pub(super) fn vsphere_uplink_mtu(
        &mut self,
        nics: &mut [Nic],
        teams: &[Team],
        vswitches: &[VSwitch],
    ) {
        for vs in vswitches {
            let uplinks: Vec<NicIdx> = vs
                .uplinks
                .iter()
                .flat_map(|u| match u.value {
                    Uplink::Nic(n) => vec![n],
                    Uplink::Team(t) => teams[t.0].members.iter().map(|m| m.value).collect(),
                })
                .collect();
            let written = |n: &NicIdx| nics[n.0].mtu.form != MtuForm::Default;
            let switch_mtu = match &vs.mtu {
                Some(m) => m.clone(),
                None => {
                    let mut set = uplinks.iter().filter(|n| written(n));
                    let Some(first) = set.next().map(|n| &nics[n.0]) else {
                        continue;
                    };
                    if let Some(other) = set
                        .map(|n| &nics[n.0])
                        .find(|n| n.mtu.payload != first.mtu.payload)
                    {
                        self.r.diags.push(
                            Diagnostic::schema(
                                other.mtu.span,
                                format!(
                                    "vmnics `{}` ({}) and `{}` ({}) of virtual switch `{}` set different MTUs, but on vSphere a vmnic has no MTU of its own: it runs its virtual switch's",
                                    first.name,
                                    first.mtu.describe(),
                                    other.name,
                                    other.mtu.describe(),
                                    vs.name
                                ),
                            )
                            .with_related(first.mtu.span, format!("`{}`: {}", first.name, first.mtu.describe()))
                            .with_help(format!(
                                "set the MTU once, as `mtu = {}` on virtual switch `{}`, and remove `mtu` from its vmnics",
                                first.mtu.payload.max(other.mtu.payload),
                                vs.name
                            )),
                        );
                    }
                    continue;
                }
            };
            for n in uplinks {
                let nic = &mut nics[n.0];
                if nic.mtu.form != MtuForm::Default && nic.mtu.payload != switch_mtu.payload {
                    self.r.diags.push(
                        Diagnostic::schema(
                            nic.mtu.span,
                            format!(
                                "vmnic `{}` sets {}, but on vSphere a vmnic has no MTU of its own: it runs the MTU of its virtual switch `{}` ({})",
                                nic.name,
                                nic.mtu.describe(),
                                vs.name,
                                switch_mtu.describe()
                            ),
                        )
                        .with_related(switch_mtu.span, format!("virtual switch `{}`: {}", vs.name, switch_mtu.describe()))
                        .with_help(format!(
                            "remove `mtu` from vmnic `{}`; set the MTU on virtual switch `{}`",
                            nic.name, vs.name
                        )),
                    );
                } else {
                    nic.mtu = switch_mtu.clone();
                }
            }
        }
    }
}
