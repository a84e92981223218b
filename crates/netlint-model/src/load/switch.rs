//! Reading a switch: its keys, `stp`, priorities and `dcb`.
//! Part of the loader's `Builder` (load.rs).

use super::*;

impl Builder {
    pub(super) fn switch(&mut self, name: String, key: Span, v: &Value<'_>) -> Option<Switch> {
        let what = format!("switch `{name}`");
        let (_, t) = self.r.as_table(&format!("switches.{name}"), v)?;
        let span = element_span(key, v);
        self.r.check_keys(t, SWITCH_KEYS, &what);
        let model = self.r.str(t, "model");
        let tier = self
            .r
            .enum_::<Tier>(t, "tier")
            .unwrap_or(Sp::new(Tier::Access, span));
        let mtus = self.mtus(t, Some("frame_size"), &what);
        let mtu = mtus
            .first()
            .cloned()
            .unwrap_or(Sp::new(Mtu::STANDARD, span));
        let vlans = self.r.vlan_list(t, "vlans");
        let stack = self.r.str(t, "stack");
        let mlag = self.r.str(t, "mlag");
        let mut host_ports = HostPorts::default();
        if let Some((hs, ht)) = self.r.table(t, "host_ports") {
            self.r.check_keys(ht, HOST_PORTS_KEYS, "`host_ports`");
            host_ports = HostPorts {
                span: Some(hs),
                edge: self.r.bool(ht, "edge"),
                bpdu_guard: self.r.bool(ht, "bpdu_guard"),
                native_vlan: self.vlan_id(ht, "native_vlan"),
            };
        }
        let stp = self.stp(t, span, &what);
        self.check_peer_switch(&stp, mlag.as_ref(), &what);
        let mtu_limit = self.mtu_limit(t, model.as_ref(), &mtus, &what);
        let dcb = self.r.table(t, "dcb").map(|(ds, dt)| {
            self.r.check_keys(dt, SWITCH_DCB_KEYS, "switch `dcb`");
            SwitchDcb {
                span: ds,
                pfc: self.priorities(dt, "pfc"),
                ets: self.ets(dt),
            }
        });
        let managed = self.r.bool(t, "managed");
        self.check_unmanaged_keys(t, managed.as_ref(), &name);
        let stp = topo::unmanaged_stp(stp, managed.as_ref());
        let ports = self.switch_ports(t, &name, mtu_limit.as_ref());
        self.allow(t, Element::Switch(name.to_string()));
        Some(Switch {
            name,
            span,
            model,
            tier,
            mtu,
            vlans,
            stack,
            mlag,
            host_ports,
            stp,
            dcb,
            mtu_limit,
            managed,
            ports,
        })
    }

    pub(super) fn bridge_priority(&mut self, key: &str, v: &Value<'_>) -> Option<Sp<u32>> {
        let p = self
            .r
            .as_int(key, v, 0..=61440, "from 0 to 61440 in steps of 4096")?;
        if p.value % 4096 != 0 {
            let lower = p.value / 4096 * 4096;
            self.r.error_help(
                p.span,
                format!("bridge priority {} is not a multiple of 4096", p.value),
                format!("use {} or {}", lower, (lower + 4096).min(61440)),
            );
            return None;
        }
        Some(p.map(|n| n as u32))
    }

    pub(super) fn stp(&mut self, t: &Table<'_>, span: Span, what: &str) -> Stp {
        let mut stp = Stp {
            span: None,
            mode: Sp::new(StpMode::Rstp, span),
            priority: None,
            mac: None,
            region: None,
            revision: None,
            instances: None,
            instance_priority: BTreeMap::new(),
            vlan_priority: BTreeMap::new(),
            path_cost: None,
            disabled_vlans: None,
            peer_switch: None,
        };
        let Some((ss, st)) = self.r.table(t, "stp") else {
            return stp;
        };
        stp.span = Some(ss);
        self.r.check_keys(st, STP_KEYS, &format!("`stp` of {what}"));
        if let Some(m) = self.r.enum_::<StpMode>(st, "mode") {
            stp.mode = m;
        }
        if let Some((_, v)) = Reader::get(st, "priority") {
            stp.priority = self.bridge_priority("priority", v);
        }
        stp.mac = self.r.parsed(st, "mac", parse_mac);
        stp.region = self.r.str(st, "region");
        stp.revision = self
            .r
            .int(st, "revision", 0..=65535, "from 0 to 65535")
            .map(|v| v.map(|n| n as u32));
        if let Some((is, it)) = self.r.table(st, "instances") {
            let mut map: BTreeMap<u16, crate::vlans::VlanSet> = BTreeMap::new();
            let mut owner: HashMap<u16, u16> = HashMap::default();
            for (k, ks, v) in entries(it) {
                let Some(inst) = parse_instance(&mut self.r, &k, ks) else {
                    continue;
                };
                if inst == 0 {
                    self.r.error_help(
                        ks,
                        "instance 0 is the IST: it holds every VLAN not mapped elsewhere",
                        "map VLANs to instances 1 to 4094 only",
                    );
                    continue;
                }
                if let Some(set) = self.r.as_vlan_list("instances", v) {
                    for vlan in set.value.iter() {
                        if let Some(prev) = owner.insert(vlan, inst) {
                            if prev != inst {
                                self.r.error(span_of(v), format!("VLAN {vlan} is mapped to both instance {prev} and instance {inst}"));
                            }
                        }
                    }
                    map.insert(inst, set.value);
                }
            }
            stp.instances = Some(Sp::new(map, is));
        }
        if let Some((_, it)) = self.r.table(st, "instance_priority") {
            for (k, ks, v) in entries(it) {
                if let Some(inst) = parse_instance(&mut self.r, &k, ks) {
                    if let Some(p) = self.bridge_priority("instance_priority", v) {
                        stp.instance_priority.insert(inst, p);
                    }
                }
            }
        }
        self.stp_v2(st, &mut stp, what);
        stp
    }

    pub(super) fn priorities(&mut self, t: &Table<'_>, key: &str) -> Option<Sp<Vec<u8>>> {
        let (span, items) = self.r.array(t, key)?;
        let mut out = Vec::new();
        for item in items {
            if let Some(p) = self
                .r
                .as_int(key, item, 0..=7, "an 802.1p priority from 0 to 7")
            {
                if out.contains(&(p.value as u8)) {
                    self.r.error(
                        p.span,
                        format!("priority {} is listed twice in `{key}`", p.value),
                    );
                } else {
                    out.push(p.value as u8);
                }
            }
        }
        Some(Sp::new(out, span))
    }

    pub(super) fn ets(&mut self, t: &Table<'_>) -> Option<Sp<BTreeMap<u8, u32>>> {
        let (span, et) = self.r.table(t, "ets")?;
        let mut out = BTreeMap::new();
        let mut written = Vec::new();
        for (k, ks, v) in entries(et) {
            let Ok(p) = k.parse::<u8>() else {
                self.r.error(
                    ks,
                    format!("`ets` key `{k}` is not an 802.1p priority (0 to 7)"),
                );
                continue;
            };
            if p > 7 {
                self.r.error(
                    ks,
                    format!("`ets` key `{k}` is not an 802.1p priority (0 to 7)"),
                );
                continue;
            }
            if let Some(pct) =
                self.r
                    .as_int("ets", v, 0..=100, "a bandwidth percentage from 0 to 100")
            {
                out.insert(p, pct.value as u32);
                written.push((k, crate::fix::FixValue::Integer(pct.value)));
            }
        }
        // As written, for a fix that replaces it (kept only when the table
        // is inline: see `Builder::design`).
        if written.len() == et.len() {
            self.r
                .written
                .insert(span, crate::fix::FixValue::Table(written));
        }
        Some(Sp::new(out, span))
    }
}
