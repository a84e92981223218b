//! Resolving `peer` cables between hosts' NICs (switchless storage)
//! once every host is read.
//! Part of the loader's `Builder` (load.rs).

use super::*;

impl Builder {
    pub(super) fn resolve_peers(&mut self, hosts: &mut [Host], peers: Vec<PendingPeer>) {
        let host_ids: HashMap<&str, usize> = hosts
            .iter()
            .enumerate()
            .map(|(i, h)| (h.name.as_str(), i))
            .collect();
        let declared: Vec<(usize, usize, usize, usize, Span)> = peers
            .iter()
            .filter_map(|p| {
                let oh = *host_ids.get(p.other_host.as_str())?;
                match hosts[oh].nic_by_name(&p.other_nic) {
                    Some(on) => Some((p.host, p.nic, oh, on.0, p.span)),
                    None => {
                        let hint = did_you_mean(
                            &p.other_nic,
                            hosts[oh].nics.iter().map(|n| n.name.as_str()),
                        );
                        self.r.error(
                            p.span,
                            format!("host `{}` has no NIC `{}`{hint}", p.other_host, p.other_nic),
                        );
                        None
                    }
                }
            })
            .collect();
        for &(h, n, oh, on, span) in &declared {
            if (h, n) == (oh, on) {
                self.r.error(span, "a NIC cannot be cabled to itself");
                continue;
            }
            let this = || format!("{}:{}", hosts[h].name, hosts[h].nics[n].name);
            let that = format!("{}:{}", hosts[oh].name, hosts[oh].nics[on].name);
            if h == oh {
                self.r.error_help(
                    span,
                    format!(
                        "the `peer` cable from `{}` to `{that}` joins two NICs of one host",
                        this()
                    ),
                    "a direct cable runs to a NIC of another host (switchless storage); cable this NIC to a switch or to the other node",
                );
                continue;
            }
            let back = declared.iter().find(|d| (d.0, d.1) == (oh, on));
            if back.is_none() {
                // Another NIC already declared a cable to the same NIC.
                if let Some(first) = declared
                    .iter()
                    .take_while(|d| (d.0, d.1) != (h, n))
                    .find(|d| (d.2, d.3) == (oh, on) && d.0 != d.2)
                {
                    let said = format!(
                        "{}:{}",
                        hosts[first.0].name, hosts[first.0].nics[first.1].name
                    );
                    self.r.diags.push(
                        Diagnostic::schema(
                            span,
                            format!("`{}` and `{said}` both declare a `peer` cable to `{that}`", this()),
                        )
                        .with_related(first.4, format!("`{said}`'s `peer`"))
                        .with_help(format!("a NIC has one cable: `{that}` can be the other end of one of them only; set `peer` on `{that}` to say which")),
                    );
                    continue;
                }
            }
            let other_nic = &hosts[oh].nics[on];
            match (back, &other_nic.attach) {
                (Some(b), _) if (b.2, b.3) != (h, n) => {
                    let this = this();
                    let said = format!("{}:{}", hosts[b.2].name, hosts[b.2].nics[b.3].name);
                    self.r.diags.push(
                        Diagnostic::schema(span, format!("the `peer` cable from `{this}` to `{}:{}` is declared differently on the other end, which names `{said}`", hosts[oh].name, other_nic.name))
                            .with_related(b.4, "the other end's `peer`")
                            .with_help("a direct cable has two ends: make both `peer` values name each other"),
                    );
                }
                (None, Some(Attachment::Switch(s))) => {
                    self.r.diags.push(
                        Diagnostic::schema(span, format!("the `peer` cable to `{}:{}` is declared differently on the other end, which is cabled to a switch", hosts[oh].name, other_nic.name))
                            .with_related(s.span, "the other end's `switch`")
                            .with_help("a NIC has one cable: fix one of the two ends"),
                    );
                }
                _ => {
                    hosts[h].nics[n].attach = Some(Attachment::Peer {
                        host: HostId(oh),
                        nic: NicIdx(on),
                        span,
                    });
                    if back.is_none() {
                        hosts[oh].nics[on].attach = Some(Attachment::Peer {
                            host: HostId(h),
                            nic: NicIdx(n),
                            span,
                        });
                    }
                }
            }
        }
    }
}
