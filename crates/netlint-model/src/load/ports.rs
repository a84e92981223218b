//! Reading switch ports (`[switches.X.ports."NAME"]`), the per-end settings
//! of links (`native_vlan`, `native_vlan_a` / `_b`, `port_a` / `_b`), a
//! NIC's `switch_port`, and the checks that join them: a port is cabled
//! once, to a host or to a link end.

use super::{element_span, entries, Builder};
use crate::design::{Attachment, Host, Link, SwitchId, SwitchLag, Team, Uplink};
use crate::diag::Diagnostic;
use crate::fast_hash::Map as HashMap;
use crate::ports::{LinkEnds, SwitchPort};
use crate::reader::{did_you_mean, Table};
use crate::span::{Sp, Span};

pub(super) const PORT_KEYS: &[&str] = &[
    "vlans",
    "native_vlan",
    "access_vlan",
    "mtu",
    "frame_size",
    "edge",
    "bpdu_guard",
    "root_guard",
    "bpdu_filter",
    "lag",
    "pfc",
];

impl Builder {
    /// A VLAN id from 1 to 4094 (no untagged 0: a native or access VLAN
    /// is a VLAN).
    pub(super) fn vlan_id(&mut self, t: &Table<'_>, key: &str) -> Option<Sp<u16>> {
        self.r
            .int(t, key, 1..=4094, "a VLAN id from 1 to 4094")
            .map(|v| v.map(|n| n as u16))
    }

    /// `ports` of switch `switch`.
    /// A port's MTU is held to the switch's largest (`limit`).
    pub(super) fn switch_ports(
        &mut self,
        t: &Table<'_>,
        switch: &str,
        limit: Option<&crate::switch_models::MtuLimit>,
    ) -> Vec<SwitchPort> {
        let mut out = Vec::new();
        let Some((_, pt)) = self.r.table(t, "ports") else {
            return out;
        };
        for (name, key, v) in entries(pt) {
            let what = format!("port `{name}` of switch `{switch}`");
            let Some((_, t)) = self
                .r
                .as_table(&format!("switches.{switch}.ports.{name}"), v)
            else {
                continue;
            };
            let span = element_span(key, v);
            self.r.check_keys(t, PORT_KEYS, &what);
            let vlans = self.r.vlan_list(t, "vlans");
            let native_vlan = self.vlan_id(t, "native_vlan");
            let access_vlan = self.vlan_id(t, "access_vlan");
            if let Some(a) = &access_vlan {
                for (key, span) in [
                    ("vlans", vlans.as_ref().map(|v| v.span)),
                    ("native_vlan", native_vlan.as_ref().map(|v| v.span)),
                ] {
                    if let Some(s) = span {
                        self.r.diags.push(
                            Diagnostic::schema(s, format!("{what} sets both `access_vlan` and `{key}`"))
                                .with_related(a.span, "`access_vlan` set here")
                                .with_help("an access port carries its one VLAN untagged: keep `access_vlan`, or make it a trunk with `vlans` and `native_vlan`"),
                        );
                    }
                }
            }
            if let (Some(n), Some(set)) = (&native_vlan, &vlans) {
                if !set.value.contains(n.value) {
                    self.r.diags.push(
                        Diagnostic::schema(
                            n.span,
                            format!(
                                "native VLAN {} of {what} is not among its allowed `vlans`",
                                n.value
                            ),
                        )
                        .with_related(set.span, "allowed VLANs")
                        .with_help(format!(
                            "add {} to `vlans` (a trunk drops untagged frames whose native VLAN it does not allow), or change `native_vlan`",
                            n.value
                        )),
                    );
                }
            }
            let mtus = self.mtus(t, Some("frame_size"), &what);
            if let Some(limit) = limit {
                for m in &mtus {
                    self.check_under_limit(m, limit, &what);
                }
            }
            let mtu = mtus.into_iter().next();
            out.push(SwitchPort {
                name,
                span,
                vlans,
                native_vlan,
                access_vlan,
                mtu,
                edge: self.r.bool(t, "edge"),
                bpdu_guard: self.r.bool(t, "bpdu_guard"),
                root_guard: self.r.bool(t, "root_guard"),
                bpdu_filter: self.r.bool(t, "bpdu_filter"),
                lag: self.r.enum_::<SwitchLag>(t, "lag"),
                pfc: self.r.bool(t, "pfc"),
            });
        }
        out
    }

    /// A port name at one end of a link or on a NIC, checked against the
    /// ports configured on `switch`.
    fn port_ref(&mut self, switch: SwitchId, name: &Sp<String>, key: &str) -> Option<usize> {
        let sw = &self.switches[switch.0];
        if let Some(i) = sw.ports.iter().position(|p| p.name == name.value) {
            return Some(i);
        }
        let hint = did_you_mean(&name.value, sw.ports.iter().map(|p| p.name.as_str()));
        let help = if sw.ports.is_empty() {
            format!(
                "configure it under `[switches.{}.ports.\"{}\"]`",
                sw.name, name.value
            )
        } else {
            super::defined_list(
                &format!("ports of switch `{}`", sw.name),
                sw.ports.iter().map(|p| p.name.as_str()),
            )
        };
        self.r.error_help(
            name.span,
            format!(
                "`{key}` names port `{}`, which switch `{}` does not configure{hint}",
                name.value, sw.name
            ),
            help,
        );
        None
    }

    /// `native_vlan`, `native_vlan_a` / `_b`, `port_a` / `_b` of a link.
    pub(super) fn link_ends(
        &mut self,
        t: &Table<'_>,
        a: Option<SwitchId>,
        b: &[SwitchId],
        what: &str,
    ) -> LinkEnds {
        let ends = LinkEnds {
            native_vlan: self.vlan_id(t, "native_vlan"),
            native_vlan_a: self.vlan_id(t, "native_vlan_a"),
            native_vlan_b: self.vlan_id(t, "native_vlan_b"),
            port_a: self.r.str(t, "port_a"),
            port_b: self.r.str(t, "port_b"),
            vlans_a: self.r.vlan_list(t, "vlans_a"),
            vlans_b: self.r.vlan_list(t, "vlans_b"),
            lag_a: self.r.enum_(t, "lag_a"),
            lag_b: self.r.enum_(t, "lag_b"),
            mtus: Vec::new(),
        };
        if let Some(both) = &ends.native_vlan {
            for (key, one) in [
                ("native_vlan_a", &ends.native_vlan_a),
                ("native_vlan_b", &ends.native_vlan_b),
            ] {
                if let Some(one) = one {
                    self.r.diags.push(
                        Diagnostic::schema(one.span, format!("{what} sets both `native_vlan` (both ends) and `{key}`"))
                            .with_related(both.span, "`native_vlan` set here")
                            .with_help("write `native_vlan` when both ends agree, or `native_vlan_a` and `native_vlan_b` for each end"),
                    );
                }
            }
        }
        let check_end = |this: &mut Self,
                         name: &Option<Sp<String>>,
                         key: &str,
                         switches: &[SwitchId],
                         own: &Option<Sp<u16>>| {
            let Some(name) = name else { return };
            for s in switches {
                let Some(i) = this.port_ref(*s, name, key) else {
                    continue;
                };
                let port = &this.switches[s.0].ports[i];
                let stated = own.as_ref().or(ends.native_vlan.as_ref());
                if let (Some(n), Some(link_n)) = (&port.native_vlan, stated) {
                    let d = Diagnostic::schema(
                        link_n.span,
                        format!(
                            "{what} states the native VLAN of port `{}` of switch `{}` again",
                            name.value, this.switches[s.0].name
                        ),
                    )
                    .with_related(n.span, "the port's `native_vlan`")
                    .with_help("state an end's native VLAN once: on the port, or on the link");
                    this.r.diags.push(d);
                }
            }
        };
        check_end(
            self,
            &ends.port_a,
            "port_a",
            &a.into_iter().collect::<Vec<_>>(),
            &ends.native_vlan_a,
        );
        check_end(self, &ends.port_b, "port_b", b, &ends.native_vlan_b);
        ends
    }

    /// A NIC's `switch_port` (or `port` naming a configured port) on the
    /// switch it is cabled to.
    pub(super) fn nic_switch_port(
        &mut self,
        t: &Table<'_>,
        attach: Option<&Attachment>,
        port: Option<&Sp<String>>,
        what: &str,
    ) -> Option<Sp<usize>> {
        let named = self.r.str(t, "switch_port");
        let Some(Attachment::Switch(s)) = attach else {
            if let Some(n) = &named {
                self.r.error_help(
                    n.span,
                    format!("{what} names `switch_port` but is not cabled to a switch"),
                    "set `switch` to the switch that configures the port",
                );
            }
            return None;
        };
        if let (Some(n), Some(p)) = (&named, port) {
            if n.value != p.value {
                self.r.diags.push(
                    Diagnostic::schema(n.span, format!("{what} names two switch ports: `switch_port = \"{}\"` and `port = \"{}\"`", n.value, p.value))
                        .with_related(p.span, "`port` set here")
                        .with_help("a NIC has one cable: keep one of them"),
                );
                return None;
            }
        }
        match &named {
            Some(n) => self
                .port_ref(s.value, n, "switch_port")
                .map(|i| Sp::new(i, n.span)),
            None => {
                let p = port?;
                self.switches[s.value.0]
                    .ports
                    .iter()
                    .position(|x| x.name == p.value)
                    .map(|i| Sp::new(i, p.span))
            }
        }
    }

    /// Each configured port takes one cable: one host NIC, or one link end.
    pub(super) fn check_port_use(&mut self, hosts: &[Host], links: &[Link]) {
        let mut used: HashMap<(usize, usize), (Span, String)> = HashMap::default();
        let mut claim = |this: &mut Self, s: SwitchId, p: usize, span: Span, who: String| {
            let sw = &this.switches[s.0];
            let name = &sw.ports[p].name;
            match used.get(&(s.0, p)) {
                Some((first, by)) => {
                    let d = Diagnostic::schema(
                        span,
                        format!("port `{name}` of switch `{}` is cabled to {who} and already to {by}", sw.name),
                    )
                    .with_related(*first, format!("{by} is cabled to it"))
                    .with_help(
                        "a port takes one cable: name each NIC's own port (a host's override of its profile: `nics.NIC = { switch_port = \"...\" }`)",
                    );
                    this.r.diags.push(d);
                }
                None => {
                    used.insert((s.0, p), (span, who));
                }
            }
        };
        for l in links {
            if let Some(n) = &l.ends.port_a {
                if let Some(i) = self.switches[l.a.value.0]
                    .ports
                    .iter()
                    .position(|p| p.name == n.value)
                {
                    claim(self, l.a.value, i, n.span, format!("link `{}`", l.name));
                }
            }
            if let Some(n) = &l.ends.port_b {
                for b in &l.b {
                    if let Some(i) = self.switches[b.value.0]
                        .ports
                        .iter()
                        .position(|p| p.name == n.value)
                    {
                        claim(self, b.value, i, n.span, format!("link `{}`", l.name));
                    }
                }
            }
        }
        for h in hosts {
            for nic in &h.nics {
                if let (Some(Attachment::Switch(s)), Some(p)) = (&nic.attach, &nic.switch_port) {
                    claim(
                        self,
                        s.value,
                        p.value,
                        p.span,
                        format!("NIC `{}` of host `{}`", nic.name, h.name),
                    );
                }
            }
        }
    }

    /// `switch_lag` belongs on a virtual switch's team, when it has one:
    /// the team's members are the switch ports.
    pub(super) fn vswitch_lag_on_team(
        &mut self,
        lag: Option<&Sp<SwitchLag>>,
        uplinks: &[Sp<Uplink>],
        teams: &[Team],
        what: &str,
    ) {
        let (Some(lag), Some(team)) = (
            lag,
            uplinks.iter().find_map(|u| match u.value {
                Uplink::Team(t) => teams.get(t.0),
                Uplink::Nic(_) => None,
            }),
        ) else {
            return;
        };
        self.r.diags.push(
            Diagnostic::schema(
                lag.span,
                format!("{what} sets `switch_lag`, but its uplink is team `{}`", team.name),
            )
            .with_related(team.span, format!("team `{}`", team.name))
            .with_help(format!(
                "write `switch_lag = \"{}\"` on team `{}`: its members' switch ports are the ones bundled",
                lag.value, team.name
            )),
        );
    }
}
