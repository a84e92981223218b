//! Format v2 spanning-tree and switch-limit fields: PVST+ `vlan_priority`,
//! `path_cost`, `disabled_vlans`, `peer_switch`, and a switch's `max_mtu`
//! (or its `model`'s) with the MTUs that must stay under it.

use super::{entries, Builder};
use crate::design::*;
use crate::diag::Diagnostic;
use crate::reader::{Reader, Table};
use crate::span::Sp;
use crate::switch_models::{lookup, MtuLimit, MtuLimitSource};
use crate::units::{Mtu, MtuForm, MAX_MTU, MIN_MTU};
use crate::vlans::VlanSet;
use std::collections::BTreeMap;

impl Builder {
    /// The v2 keys of a switch's `stp` table, read into `stp` (whose mode
    /// and MSTP keys are already read): each is checked against the mode.
    pub(super) fn stp_v2(&mut self, st: &Table<'_>, stp: &mut Stp, what: &str) {
        let mode = stp.mode.value;
        let pvst = matches!(mode, StpMode::Pvst | StpMode::RapidPvst);
        if let Some((ks, v)) = Reader::get(st, "vlan_priority") {
            stp.vlan_priority = self.vlan_priority(v);
            if !pvst {
                self.r.error_help(
                    ks,
                    format!("`vlan_priority` is a PVST+ setting, but {what} runs `mode = \"{mode}\"`: it would be ignored"),
                    if mode == StpMode::Mstp {
                        "MSTP sets a priority per instance: map the VLANs to instances (`instances`) and write `instance_priority`, or run `mode = \"rapid-pvst\"`"
                    } else {
                        "per-VLAN priorities exist only under `mode = \"pvst\"` or `\"rapid-pvst\"`; otherwise write one `priority`"
                    },
                );
            }
        }
        if let Some((ks, _)) = Reader::get(st, "instance_priority") {
            if mode != StpMode::Mstp {
                self.r.error_help(
                    ks,
                    format!("`instance_priority` is an MSTP setting, but {what} runs `mode = \"{mode}\"`: it would be ignored"),
                    if pvst {
                        "PVST+ sets a priority per VLAN: write `vlan_priority = { \"10,30\" = 4096 }`, or run `mode = \"mstp\"`"
                    } else {
                        "per-instance priorities exist only under `mode = \"mstp\"`; otherwise write one `priority`"
                    },
                );
            }
        }
        stp.path_cost = self.r.enum_::<PathCost>(st, "path_cost");
        if let Some(set) = self.r.vlan_list(st, "disabled_vlans") {
            if !pvst {
                self.r.error_help(
                    set.span,
                    format!("`disabled_vlans` turns spanning tree off per VLAN, which only PVST+ can do, but {what} runs `mode = \"{mode}\"`"),
                    "run `mode = \"pvst\"` or `\"rapid-pvst\"`, or `mode = \"none\"` for a switch without spanning tree",
                );
            } else if set.value.contains(1) {
                self.r.error_help(
                    set.span,
                    "spanning tree off on VLAN 1 is not modelled: PVST+ runs the common spanning tree on VLAN 1",
                    "leave VLAN 1 out of `disabled_vlans`",
                );
            } else {
                stp.disabled_vlans = Some(set);
            }
        }
        stp.peer_switch = self.r.bool(st, "peer_switch");
    }

    /// `vlan_priority = { "10,30,50" = 4096, "20-22" = 8192 }`: keys are
    /// VLAN lists (ids and `a-b` ranges joined by commas), each VLAN in one
    /// key only.
    fn vlan_priority(&mut self, v: &crate::reader::Value<'_>) -> BTreeMap<u16, Sp<u32>> {
        let mut out: BTreeMap<u16, Sp<u32>> = BTreeMap::new();
        let Some((_, t)) = self.r.as_table("vlan_priority", v) else {
            return out;
        };
        let mut key_of: BTreeMap<u16, String> = BTreeMap::new();
        for (k, ks, pv) in entries(t) {
            let vlans = match parse_vlan_key(&k) {
                Ok(set) => set,
                Err(e) => {
                    self.r.error_help(
                        ks,
                        e,
                        "a key is a VLAN list in quotes: \"10\", \"10,30,50\" or \"100-110\"",
                    );
                    continue;
                }
            };
            let Some(p) = self.bridge_priority("vlan_priority", pv) else {
                continue;
            };
            for vlan in vlans.iter() {
                if let Some(prev) = key_of.insert(vlan, k.clone()) {
                    self.r.error(
                        ks,
                        format!(
                            "VLAN {vlan} is in two `vlan_priority` keys: \"{prev}\" and \"{k}\""
                        ),
                    );
                    continue;
                }
                out.insert(vlan, p.clone());
            }
        }
        out
    }

    /// `peer_switch = false` on an MLAG peer: rejected, since netlint
    /// models an MLAG domain as one bridge.
    pub(super) fn check_peer_switch(&mut self, stp: &Stp, mlag: Option<&Sp<String>>, what: &str) {
        let Some(ps) = &stp.peer_switch else {
            return;
        };
        match (ps.value, mlag) {
            (_, None) => self.r.error_help(
                ps.span,
                format!("`peer_switch` is a setting of an MLAG / vPC peer, and {what} names no `mlag` domain"),
                "remove `peer_switch`, or name the switch's domain with `mlag`",
            ),
            (false, Some(m)) => self.r.diags.push(
                Diagnostic::schema(
                    ps.span,
                    format!(
                        "a vPC / MLAG domain without peer-switch is not modelled: netlint treats domain `{}` as one bridge with one bridge ID, but without peer-switch each peer keeps its own bridge ID and priority, only the vPC primary sends BPDUs on the vPC port-channels, and the secondary's own links (orphan ports, single links) run spanning tree under its own ID, so netlint cannot say which ports block",
                        m.value
                    ),
                )
                .with_related(m.span, "the MLAG domain")
                .with_help("configure `peer-switch` under the vPC domain (and give both peers the same spanning-tree priority), then write `peer_switch = true` or leave it out; Arista MLAG and Dell VLT always present one bridge"),
            ),
            (true, Some(_)) => {}
        }
    }

    /// A switch's largest MTU: `max_mtu` as written, else its `model`'s
    /// from the built-in table. The switch's own MTU must fit under it.
    pub(super) fn mtu_limit(
        &mut self,
        t: &Table<'_>,
        model: Option<&Sp<String>>,
        mtus: &[Sp<Mtu>],
        what: &str,
    ) -> Option<MtuLimit> {
        let stated = self
            .r
            .int(
                t,
                "max_mtu",
                MIN_MTU as i64..=MAX_MTU as i64,
                &format!("from {MIN_MTU} to {MAX_MTU} (the largest `mtu` the switch takes)"),
            )
            .map(|v| MtuLimit {
                payload: v.value as u32,
                source: MtuLimitSource::Stated(v.span),
            });
        let limit = stated.or_else(|| {
            let m = model?;
            lookup(&m.value).map(|row| MtuLimit {
                payload: row.max_mtu,
                source: MtuLimitSource::Model {
                    model: row,
                    span: m.span,
                },
            })
        })?;
        for mtu in mtus {
            self.check_under_limit(mtu, &limit, what);
        }
        Some(limit)
    }

    /// An MTU (a switch's, or a link's against an end switch) above the
    /// switch's largest is an input error at the value.
    pub(super) fn check_under_limit(&mut self, mtu: &Sp<Mtu>, limit: &MtuLimit, what: &str) {
        if mtu.value.form == MtuForm::Default {
            return;
        }
        let payload = mtu.value.payload_limit(true);
        if payload <= limit.payload {
            return;
        }
        let (written, fix) = match mtu.value.form {
            MtuForm::FrameSize(f) => (
                format!("`frame_size = {f}` (tagged packets of {payload} bytes)"),
                format!("`frame_size = {}`", Mtu::frame_for(limit.payload, true)),
            ),
            _ => (
                format!("`mtu = {payload}`"),
                format!("`mtu = {}`", limit.payload),
            ),
        };
        let whose = match limit.family() {
            Some(f) => format!("a {f} takes at most MTU {}", limit.payload),
            None => format!("its `max_mtu` is {}", limit.payload),
        };
        self.r.diags.push(
            Diagnostic::schema(
                mtu.span,
                format!("{what} sets {written}, more than the switch takes: {whose}"),
            )
            .with_related(
                limit.span(),
                match limit.family() {
                    Some(f) => format!("the model ({f})"),
                    None => "`max_mtu` set here".to_string(),
                },
            )
            .with_help(format!(
                "write {fix} (the largest it takes); if the switch really takes more, state it with `max_mtu`"
            )),
        );
    }

    /// A link's MTUs (`mtus`: every value written) held to the lowest
    /// limit among its end switches `ends`.
    pub(super) fn check_link_mtu_limits(
        &mut self,
        link: &str,
        ends: &[SwitchId],
        mtus: &[Sp<Mtu>],
    ) {
        if mtus.is_empty() {
            return;
        }
        let lowest = ends
            .iter()
            .filter_map(|s| {
                let sw = self.switches.get(s.0)?;
                Some((sw.name.clone(), sw.mtu_limit.clone()?))
            })
            .min_by_key(|(_, x)| x.payload);
        if let Some((name, limit)) = lowest {
            for m in mtus {
                self.check_under_limit(m, &limit, &format!("link `{link}` (to switch `{name}`)"));
            }
        }
    }
}

/// A `vlan_priority` key: "10", "10,30,50", "100-110", "10, 20-22".
fn parse_vlan_key(k: &str) -> Result<VlanSet, String> {
    let mut set = VlanSet::new();
    for item in k.split(',') {
        let item = item.trim();
        let (a, b) = if item.contains('-') {
            VlanSet::parse_range(item)?
        } else {
            let n: u16 = item
                .parse()
                .map_err(|_| format!("`{k}` is not a VLAN list"))?;
            (n, n)
        };
        if a < 1 || b > 4094 {
            return Err(format!("`{k}` names a VLAN outside 1-4094"));
        }
        set.insert_range(a, b);
    }
    Ok(set)
}

#[cfg(test)]
mod tests {
    use super::parse_vlan_key;
    use crate::{load, SourceFile};

    /// The input errors of a design with this switch table body and
    /// `extra` appended, as (line, message).
    fn errors(switch: &str, extra: &str) -> Vec<(usize, String)> {
        let src = format!(
            "[design]\nname = \"t\"\n[networks.a]\nrole = \"management\"\nvlan = 10\n[switches.s]\n{switch}\n[switches.t]\n{extra}"
        );
        let file = SourceFile::new("t.toml", &src);
        let l = load(&file);
        l.diagnostics
            .iter()
            .map(|d| {
                (
                    file.line_col(d.primary.as_ref().unwrap().span.start).line,
                    d.message.clone(),
                )
            })
            .collect()
    }

    #[test]
    fn priorities_follow_the_mode() {
        let e = errors(
            "stp = { mode = \"rapid-pvst\", instance_priority = { 1 = 4096 } }",
            "",
        );
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].0, 7);
        assert!(e[0].1.starts_with(
            "`instance_priority` is an MSTP setting, but switch `s` runs `mode = \"rapid-pvst\"`"
        ));
        let e = errors(
            "stp = { mode = \"mstp\", vlan_priority = { \"10\" = 4096 } }",
            "",
        );
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].1.starts_with("`vlan_priority` is a PVST+ setting"));
        // The default mode (rstp) has neither.
        assert_eq!(
            errors("stp = { vlan_priority = { \"10\" = 4096 } }", "").len(),
            1
        );
        assert!(errors(
            "stp = { mode = \"pvst\", vlan_priority = { \"10,30\" = 4096, \"20-22\" = 8192 } }",
            ""
        )
        .is_empty());
        assert!(errors(
            "stp = { mode = \"mstp\", instances = { 1 = [10] }, instance_priority = { 1 = 4096 } }",
            ""
        )
        .is_empty());
    }

    #[test]
    fn vlan_priority_values() {
        let e = errors("stp = { mode = \"pvst\", vlan_priority = { \"10,30\" = 4096, \"30\" = 8192, \"x\" = 0, \"40\" = 100 } }", "");
        let msgs: Vec<&str> = e.iter().map(|x| x.1.as_str()).collect();
        assert_eq!(msgs.len(), 3, "{msgs:?}");
        assert!(msgs.contains(&"VLAN 30 is in two `vlan_priority` keys: \"10,30\" and \"30\""));
        assert!(msgs.contains(&"`x` is not a VLAN list"));
        assert!(msgs.contains(&"bridge priority 100 is not a multiple of 4096"));
    }

    #[test]
    fn path_cost_and_disabled_vlans() {
        assert!(errors("stp = { mode = \"rapid-pvst\", path_cost = \"long\", disabled_vlans = [4094, \"100-110\"] }", "").is_empty());
        let e = errors("stp = { path_cost = \"medium\" }", "");
        assert_eq!(e.len(), 1, "{e:?}");
        let e = errors("stp = { mode = \"mstp\", disabled_vlans = [4094] }", "");
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].1.starts_with(
            "`disabled_vlans` turns spanning tree off per VLAN, which only PVST+ can do"
        ));
        let e = errors("stp = { mode = \"pvst\", disabled_vlans = [1, 20] }", "");
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].1.contains("VLAN 1 is not modelled"));
    }

    #[test]
    fn peer_switch() {
        let e = errors("stp = { peer_switch = false }", "");
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].1.contains("names no `mlag` domain"));
        let e = errors(
            "mlag = \"m\"\nstp = { peer_switch = false }",
            "mlag = \"m\"",
        );
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].0, 8);
        assert!(e[0].1.starts_with("a vPC / MLAG domain without peer-switch is not modelled: netlint treats domain `m` as one bridge"));
        assert!(errors("mlag = \"m\"\nstp = { peer_switch = true }", "mlag = \"m\"").is_empty());
    }

    #[test]
    fn mtu_limits() {
        // The model's limit: a Catalyst 2960-X takes at most 9198.
        let e = errors("model = \"Cisco Catalyst 2960-X\"\nmtu = 9216", "");
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].0, 8, "at the value");
        assert_eq!(e[0].1, "switch `s` sets `mtu = 9216`, more than the switch takes: a Cisco Catalyst 2960-X takes at most MTU 9198");
        assert!(errors("model = \"WS-C2960X-48TS-L\"\nmtu = 9198", "").is_empty());
        // frame_size counts header, FCS and tag: 9198 + 22 fits, one more not.
        assert!(errors("model = \"Cisco Catalyst 2960-X\"\nframe_size = 9220", "").is_empty());
        assert_eq!(
            errors("model = \"Cisco Catalyst 2960-X\"\nframe_size = 9221", "").len(),
            1
        );
        // A stated `max_mtu` wins over the model.
        assert!(errors(
            "model = \"Cisco Catalyst 2960-X\"\nmax_mtu = 9216\nmtu = 9216",
            ""
        )
        .is_empty());
        let e = errors("max_mtu = 9000\nmtu = 9100", "");
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].1.ends_with("its `max_mtu` is 9000"));
        // A link's MTU is held to its switches' limits.
        let e = errors(
            "max_mtu = 9000\nmtu = 9000",
            "mtu = 9216\n[[links]]\na = \"s\"\nb = \"t\"\nspeed = \"10G\"\nmtu = 9216",
        );
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0]
            .1
            .starts_with("link `s--t` (to switch `s`) sets `mtu = 9216`"));
        // Unknown models set no limit.
        assert!(errors("model = \"Acme 9000\"\nmtu = 9216", "").is_empty());
    }

    /// Every input rule runs on every value: `mtu` written with its vendor
    /// form is one error, and each value above the switch's limit is one
    /// more, all in one run.
    #[test]
    fn every_mtu_value_meets_every_rule_at_once() {
        let e = errors("max_mtu = 9000\nmtu = 9216\nframe_size = 9238", "");
        let msgs: Vec<&str> = e.iter().map(|(_, m)| m.as_str()).collect();
        assert_eq!(e.len(), 3, "{e:#?}");
        assert!(
            msgs.contains(&"switch `s` sets both `mtu` and `frame_size`"),
            "{msgs:#?}"
        );
        assert!(
            msgs.contains(
                &"switch `s` sets `mtu = 9216`, more than the switch takes: its `max_mtu` is 9000"
            ),
            "{msgs:#?}"
        );
        assert!(msgs.contains(&"switch `s` sets `frame_size = 9238` (tagged packets of 9216 bytes), more than the switch takes: its `max_mtu` is 9000"), "{msgs:#?}");
        // Each at its own line: max_mtu is line 7, mtu 8, frame_size 9.
        let mut lines: Vec<usize> = e.iter().map(|(l, _)| *l).collect();
        lines.sort();
        assert_eq!(lines, vec![8, 9, 9]);
        // Only the value above the limit is reported beside "sets both".
        let e = errors("max_mtu = 9000\nmtu = 9216\nframe_size = 9000", "");
        assert_eq!(e.len(), 2, "{e:#?}");
        // A link's two values, each held to its switch's limit.
        let e = errors(
            "max_mtu = 9000\nmtu = 9000",
            "[[links]]\na = \"s\"\nb = \"t\"\nspeed = \"10G\"\nmtu = 9216\nframe_size = 9238",
        );
        assert_eq!(e.len(), 3, "{e:#?}");
        assert_eq!(
            e.iter()
                .filter(|(_, m)| m.starts_with("link `s--t` (to switch `s`) sets "))
                .count(),
            2,
            "{e:#?}"
        );
        // A link with an unknown switch at one end is still held to the
        // limit of the other.
        let e = errors(
            "max_mtu = 9000\nmtu = 9000",
            "[[links]]\na = \"s\"\nb = \"nowhere\"\nmtu = 9216",
        );
        assert_eq!(e.len(), 2, "{e:#?}");
        assert!(
            e.iter()
                .any(|(_, m)| m.starts_with("link `s--nowhere` (to switch `s`) sets `mtu = 9216`")),
            "{e:#?}"
        );
        // A port configured on the switch, too.
        let e = errors(
            "max_mtu = 9000\nmtu = 9000\n[switches.s.ports.\"Ethernet1/1\"]\nmtu = 9216",
            "",
        );
        assert_eq!(e.len(), 1, "{e:#?}");
        assert_eq!(e[0].1, "port `Ethernet1/1` of switch `s` sets `mtu = 9216`, more than the switch takes: its `max_mtu` is 9000");
        assert!(errors(
            "max_mtu = 9000\nmtu = 9000\n[switches.s.ports.\"Ethernet1/1\"]\nmtu = 9000",
            "",
        )
        .is_empty());
    }

    #[test]
    fn vlan_keys() {
        let s = parse_vlan_key("10,30, 50").unwrap();
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![10, 30, 50]);
        let s = parse_vlan_key("100-102").unwrap();
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![100, 101, 102]);
        assert!(parse_vlan_key("ten").is_err());
        assert!(parse_vlan_key("0").is_err());
        assert!(parse_vlan_key("4000-4095").is_err());
        assert!(parse_vlan_key("").is_err());
    }
}
