//! vPC, MLAG and VLT domains; network-qos policies (MTU and PFC).

use super::vendors::Qos;
use super::*;

impl Parser {
    /// A domain's opening line (`vpc domain 10`, `mlag configuration`,
    /// `vlt-domain 1`): the domain opened, or the one already open entered
    /// again when it is the same (a capture that repeats the block). A
    /// switch is in one domain: a second, other one is not understood (the
    /// first is kept, and the lines under the second are not understood
    /// with it), never a silent replacement of the first.
    pub(super) fn domain_line(
        &mut self,
        kind: MlagKind,
        no: u32,
        id: Option<&str>,
        body: &str,
        ctx: Ctx,
    ) -> Outcome {
        match &self.cfg.mlag {
            None => {
                self.open_domain(kind, no, id.map(str::to_string));
                understood(ctx)
            }
            Some(d) if d.kind == kind && d.domain_id.as_ref().map(|x| x.value.as_str()) == id => {
                understood(ctx)
            }
            Some(d) => {
                let first = d.line;
                self.bad(
                    no,
                    body,
                    format!("a second MLAG domain: a switch is in one, and the first (line {first}) is kept"),
                )
            }
        }
    }

    pub(super) fn open_domain(&mut self, kind: MlagKind, no: u32, id: Option<String>) {
        self.cfg.mlag = Some(MlagDomain {
            kind,
            line: no,
            domain_id: id.map(|id| Sourced::at(id, no)),
            peer_links: Vec::new(),
            peer_address: None,
            peer_switch: None,
            role_priority: None,
        });
    }

    fn domain(&mut self) -> &mut MlagDomain {
        self.cfg
            .mlag
            .as_mut()
            .expect("a domain child follows its domain line")
    }

    pub(super) fn vpc_child(&mut self, no: u32, words: &[&str]) -> Outcome {
        match words {
            ["peer-switch"] => self.domain().peer_switch = Some(Sourced::at(true, no)),
            ["no", "peer-switch"] => self.domain().peer_switch = Some(Sourced::at(false, no)),
            ["peer-keepalive", "destination", ip, ..] => {
                self.domain().peer_address = Some(Sourced::at(ip.to_string(), no))
            }
            ["role", "priority", n] => match number(Some(n), 1..=65535) {
                Some(p) => self.domain().role_priority = Some(Sourced::at(p, no)),
                None => return (LineClass::NotUnderstood, Ctx::Unknown),
            },
            [first, ..] if VPC_IRRELEVANT.contains(first) => return ignored("vpc option"),
            ["no", first, ..] if VPC_IRRELEVANT.contains(first) => return ignored("vpc option"),
            _ => return (LineClass::NotUnderstood, Ctx::Unknown),
        }
        understood(Ctx::Leaf)
    }

    pub(super) fn mlag_child(&mut self, no: u32, words: &[&str]) -> Outcome {
        match words {
            ["domain-id", id] => self.domain().domain_id = Some(Sourced::at(id.to_string(), no)),
            ["peer-address", ip] => {
                self.domain().peer_address = Some(Sourced::at(ip.to_string(), no))
            }
            ["peer-link", rest @ ..] => match IfName::parse(&rest.join(" ")) {
                Some(n) => self.domain().peer_links.push(Sourced::at(n, no)),
                None => return (LineClass::NotUnderstood, Ctx::Unknown),
            },
            ["local-interface" | "reload-delay" | "heartbeat-interval" | "dual-primary"
            | "shutdown" | "primary-priority" | "reload-delay-mode", ..]
            | ["peer-address", "heartbeat", ..]
            | ["no", ..] => return ignored("mlag option"),
            _ => return (LineClass::NotUnderstood, Ctx::Unknown),
        }
        understood(Ctx::Leaf)
    }

    pub(super) fn vlt_child(&mut self, no: u32, words: &[&str]) -> Outcome {
        match words {
            ["backup", "destination", ip, ..] => {
                self.domain().peer_address = Some(Sourced::at(ip.to_string(), no))
            }
            ["discovery-interface", rest @ ..] => match expand_ports(&rest.join("")) {
                Some(ports) => {
                    for p in ports {
                        self.domain().peer_links.push(Sourced::at(p, no));
                    }
                }
                None => return (LineClass::NotUnderstood, Ctx::Unknown),
            },
            ["primary-priority", n] => match number(Some(n), 1..=65535) {
                Some(p) => self.domain().role_priority = Some(Sourced::at(p, no)),
                None => return (LineClass::NotUnderstood, Ctx::Unknown),
            },
            ["peer-routing"
            | "vlt-mac"
            | "delay-restore"
            | "peer-routing-timeout"
            | "multicast"
            | "no", ..] => return ignored("vlt option"),
            _ => return (LineClass::NotUnderstood, Ctx::Unknown),
        }
        understood(Ctx::Leaf)
    }

    pub(super) fn nq_policy_child(&mut self, name: &str, words: &[&str]) -> Outcome {
        match words {
            ["class", "type", "network-qos", class] | ["class", class] => {
                understood(Ctx::NqClass(name.to_string(), class.to_string()))
            }
            _ => ignored("qos"),
        }
    }

    /// NX-OS `mtu N`, `pause pfc-cos 3[,4]`, `pause no-drop`; OS10 `pause`
    /// with `pfc-cos 3`.
    pub(super) fn nq_class_child(
        &mut self,
        policy: &str,
        class: &str,
        no: u32,
        words: &[&str],
    ) -> Outcome {
        let pol = self.nq_policies.entry(policy.to_string()).or_default();
        match words {
            ["mtu", n] => match number(Some(n), 576..=10240) {
                Some(m) => {
                    pol.mtu.insert(class.to_string(), Sourced::at(m, no));
                }
                None => return (LineClass::NotUnderstood, Ctx::Unknown),
            },
            ["pause", "pfc-cos", list]
            | ["pfc-cos", list]
            | ["pause", "no-drop", "pfc-cos", list] => {
                let mut cos = Vec::new();
                for part in list.split(',') {
                    match number(Some(&part), 0..=7) {
                        Some(c) => cos.push(c as u8),
                        None => return (LineClass::NotUnderstood, Ctx::Unknown),
                    }
                }
                for c in cos {
                    pol.no_drop.insert(c, Sourced::at(true, no));
                }
            }
            ["pause"] | ["pause", "no-drop"] => {}
            _ => return ignored("qos"),
        }
        understood(Ctx::Leaf)
    }

    /// NX-OS `match cos 3[,4]` in a `class-map type qos`.
    pub(super) fn qos_class_map_child(&mut self, name: &str, words: &[&str]) -> Outcome {
        match words {
            ["match", "cos", list] => {
                let mut cos = Vec::new();
                for part in list.split(',') {
                    match number(Some(&part), 0..=7) {
                        Some(c) => cos.push(c as u8),
                        None => return (LineClass::NotUnderstood, Ctx::Unknown),
                    }
                }
                self.qos_class_cos
                    .entry(name.to_string())
                    .or_default()
                    .extend(cos);
                understood(Ctx::Leaf)
            }
            _ => ignored("qos"),
        }
    }

    pub(super) fn system_qos_child(&mut self, no: u32, words: &[&str]) -> Outcome {
        match words {
            ["service-policy", "type", "network-qos", name]
            | ["service-policy", "input", "type", "network-qos", name] => {
                self.cfg.dcb.network_qos_policy = Some(Sourced::at(name.to_string(), no));
                understood(Ctx::Leaf)
            }
            ["service-policy", "type", "queuing", "output", name] if self.spec.qos == Qos::NxOs => {
                self.queuing_policy = Some(Sourced::at(name.to_string(), no));
                understood(Ctx::Leaf)
            }
            ["service-policy", "type", "qos", "input", name] if self.spec.qos == Qos::NxOs => {
                self.qos_policy = Some(Sourced::at(name.to_string(), no));
                understood(Ctx::Leaf)
            }
            ["service-policy", "output", "type", "queuing", name] if self.spec.qos == Qos::Os10 => {
                self.queuing_policy = Some(Sourced::at(name.to_string(), no));
                understood(Ctx::Leaf)
            }
            ["trust-map", "dot1p", name] if self.spec.qos == Qos::Os10 => {
                self.dot1p_map = Some(Sourced::at(name.to_string(), no));
                // `buffer-statistics-tracking` and the like below it.
                (LineClass::Understood, Ctx::Ignored("qos"))
            }
            ["qos-map", "traffic-class", name] if self.spec.qos == Qos::Os10 => {
                self.tc_map = Some(Sourced::at(name.to_string(), no));
                understood(Ctx::Leaf)
            }
            _ => ignored("qos"),
        }
    }
}

const VPC_IRRELEVANT: &[&str] = &[
    "peer-gateway",
    "auto-recovery",
    "delay",
    "ip",
    "ipv6",
    "layer3",
    "system-priority",
    "system-mac",
    "graceful",
    "track",
    "dual-active",
    "fast-convergence",
    "shutdown",
    "peer-config-check-bypass",
    "role-priority",
];

/// OS10 `ethernet1/1/49-1/1/52` or `ethernet1/1/49,1/1/50`: the ports.
fn expand_ports(text: &str) -> Option<Vec<IfName>> {
    let split = text.find(|c: char| c.is_ascii_digit())?;
    let (prefix, list) = text.split_at(split);
    let mut out = Vec::new();
    for part in list.split(',') {
        match part.split_once('-') {
            Some((lo, hi)) => {
                let (lo_head, lo_last) = lo.rsplit_once('/')?;
                let (hi_head, hi_last) = hi.rsplit_once('/')?;
                let (a, b): (u32, u32) = (lo_last.parse().ok()?, hi_last.parse().ok()?);
                if lo_head != hi_head || a > b || b - a > 256 {
                    return None;
                }
                for n in a..=b {
                    out.push(IfName::parse(&format!("{prefix}{lo_head}/{n}"))?);
                }
            }
            None => out.push(IfName::parse(&format!("{prefix}{part}"))?),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn vlt_discovery_ranges() {
        let p = super::expand_ports("ethernet1/1/49-1/1/52").unwrap();
        assert_eq!(p.len(), 4);
        assert_eq!(p[3].as_str(), "Ethernet1/1/52");
        let p = super::expand_ports("ethernet1/1/29,1/1/31").unwrap();
        assert_eq!(p[1].as_str(), "Ethernet1/1/31");
        assert!(super::expand_ports("ethernet1/1/52-1/1/49").is_none());
    }
}
