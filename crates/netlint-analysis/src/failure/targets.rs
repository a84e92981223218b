//! Failures against storage targets: a host that reached a target it uses
//! (on any of the target's networks: MPIO and SMB multichannel use
//! whichever path is left) and no longer does. The rule is the one of
//! [`Forwarding::target_reach`](crate::l2::Forwarding::target_reach) on the
//! evaluator's tokens: a carrier's token is the VLAN component every
//! working NIC of it ends in, and a target port's is the component of the
//! switch it is cabled to (defining the VLAN, not failed).

use super::evaluate::{CarrierState, FabricState, HostState, Token};
use super::*;
use netlint_model::{TargetId, TargetPortIdx};

impl Analysis<'_> {
    /// The component label of switch `s` for VLAN slot `slot` in a
    /// scenario (the labels hosts' tokens use).
    pub(super) fn switch_label(&self, slot: usize, s: SwitchId, st: &FabricState) -> usize {
        let b = self.topo.bridge_of[s.0].0;
        match (&st.switch_comps, &self.healthy_switch_comp[slot]) {
            (Some(comps), _) => comps[slot][s.0],
            (None, Some(healthy)) => healthy[s.0],
            (None, None) => {
                let changed = st.comps.as_ref().map_or(&[][..], |c| &c[slot][..]);
                match changed.binary_search_by_key(&b, |x| x.0) {
                    Ok(i) => changed[i].1,
                    Err(_) => self.healthy_comp[slot][b],
                }
            }
        }
    }

    /// The labels of the target's usable ports on `net` in a scenario.
    fn port_labels(&self, t: TargetId, net: NetworkId, st: &FabricState) -> Vec<usize> {
        let slot = self.net_slot[net.0];
        let vlan = self.vlans[slot];
        let target = self.design.target(t);
        target
            .ports_on(net)
            .filter_map(|p| target.port(p).switch.as_ref().map(|s| s.value))
            .filter(|s| {
                !st.failures.switches.contains(s) && self.design.switch(*s).defines_vlan(vlan)
            })
            .map(|s| self.switch_label(slot, s, st))
            .collect()
    }

    /// Whether host `h` in state `hs` reaches target `t` on any of its
    /// networks; `labels` per network of the target.
    fn reaches_target(
        &self,
        h: HostId,
        hs: &[CarrierState],
        labels: &[(NetworkId, Vec<usize>)],
    ) -> bool {
        self.topo.carriers[h.0].iter().zip(hs).any(|(c, s)| {
            // The host's frames land in a VLAN slot (its network's, or the
            // native VLAN of its port); the target's ports are in the
            // network's.
            let Some(Token::Comp(slot, x)) = s.token else {
                return false;
            };
            labels
                .iter()
                .any(|(n, ls)| *n == c.network && slot == self.net_slot[n.0] && ls.contains(&x))
        })
    }

    /// The target requirements' losses in one scenario.
    pub(super) fn target_losses(&self, st: &FabricState) -> Vec<Loss> {
        let mut out = Vec::new();
        if self.design.storage.is_empty() {
            return out;
        }
        let affected = self.affected_hosts(st);
        let none = Failures::default();
        let healthy_st = FabricState {
            comps: None,
            affected_bridges: BTreeSet::new(),
            switch_comps: None,
            failures: &none,
        };
        let mut states: HashMap<HostId, HostState> = HashMap::default();
        for (r, req) in self.requirements.iter().enumerate() {
            let Requirement::Target(t) = req else {
                continue;
            };
            let t = *t;
            let target = self.design.target(t);
            let nets = target.networks();
            let labels_in = |s: &FabricState| -> Vec<(NetworkId, Vec<usize>)> {
                nets.iter()
                    .map(|n| (*n, self.port_labels(t, *n, s)))
                    .collect()
            };
            let before = labels_in(&healthy_st);
            let now = labels_in(st);
            // A target whose ports keep their labels loses only hosts the
            // failure touched.
            let touched = before != now;
            let mut hosts = Vec::new();
            for h in target.users(self.design) {
                if !touched && !affected.contains(&h) {
                    continue;
                }
                if !self.reaches_target(h, &self.healthy[h.0], &before) {
                    continue;
                }
                let hs = states.entry(h).or_insert_with(|| self.host_state(h, st));
                if self.reaches_target(h, hs, &now) {
                    continue;
                }
                let mut carriers = self.carrier_changes(r, h, hs, st);
                let port_bridges = |n: NetworkId| -> Vec<BridgeId> {
                    let mut v: Vec<BridgeId> = target
                        .ports_on(n)
                        .filter_map(|p| target.port(p).switch.as_ref())
                        .map(|s| self.topo.bridge_of[s.value.0])
                        .collect();
                    v.sort();
                    v.dedup();
                    v
                };
                for cc in &mut carriers {
                    if let CarrierLoss::Cut { to, .. } = &mut cc.loss {
                        *to = port_bridges(cc.network);
                    }
                }
                // The target's side: networks the host's carrier still
                // holds but whose target ports went down with a switch.
                for (i, c) in self.topo.carriers[h.0].iter().enumerate() {
                    if !nets.contains(&c.network)
                        || carriers.iter().any(|cc| cc.network == c.network)
                        || hs[i].token != self.healthy[h.0][i].token
                        || self.healthy[h.0][i].token.is_none()
                    {
                        continue;
                    }
                    let down: Vec<(TargetPortIdx, SwitchId)> = target
                        .ports_on(c.network)
                        .filter_map(|p| target.port(p).switch.as_ref().map(|s| (p, s.value)))
                        .filter(|(_, s)| st.failures.switches.contains(s))
                        .collect();
                    if down.is_empty() {
                        continue;
                    }
                    carriers.push(CarrierChange {
                        network: c.network,
                        via: c.via,
                        loss: CarrierLoss::TargetPortsDown {
                            target: t,
                            ports: down,
                        },
                    });
                }
                hosts.push(HostLoss {
                    host: h,
                    carriers,
                    lost_partners: Vec::new(),
                    cut_off: true,
                });
            }
            if !hosts.is_empty() {
                out.push(Loss {
                    requirement: req.clone(),
                    hosts,
                    split: Vec::new(),
                    pairs: Vec::new(),
                });
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::l2::Fabric;
    use netlint_model::{load, SourceFile};

    fn design(src: &str) -> Design {
        let l = load(&SourceFile::new("t.toml", src));
        assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
        l.design.unwrap()
    }

    /// Two hosts teamed over `tor-a` / `tor-b`; the array on PORTS.
    const SRC: &str = r#"
[design]
name = "t"
[networks.iscsi]
role = "storage"
protocol = "iscsi"
vlan = 60
[switches.tor-a]
[switches.tor-b]
[switches.san]
[[links]]
name = "isl"
a = "tor-a"
b = "tor-b"
speed = "25G"
members = 2
[[links]]
name = "tor-b--san"
a = "tor-b"
b = "san"
speed = "25G"
[profiles.p.nics.S1]
speed = "25G"
switch = "tor-a"
[profiles.p.nics.S2]
speed = "25G"
switch = "tor-b"
[profiles.p.teams.T]
members = ["S1", "S2"]
networks = ["iscsi"]
[hosts.h1]
profile = "p"
[hosts.h2]
profile = "p"
[storage.array]
kind = "iscsi"
PORTS
"#;

    fn port(name: &str, switch: &str) -> String {
        format!(
            "[storage.array.ports.{name}]\nspeed = \"25G\"\nswitch = \"{switch}\"\nnetworks = [\"iscsi\"]\n"
        )
    }

    /// The hosts that lose the target, per unit with a loss.
    fn losses(d: &Design) -> Vec<(Unit, Vec<HostId>, Vec<CarrierLoss>)> {
        let topo = Topology::build(d);
        let fabric = Fabric::new(d, &topo);
        let healthy = fabric.forwarding(d, &topo, &Failures::default());
        let report = FailureReport::build(d, &topo, &fabric, &healthy);
        let mut out = Vec::new();
        for r in &report.results {
            for l in &r.outcome.losses {
                if let Requirement::Target(_) = l.requirement {
                    out.push((
                        r.unit.clone(),
                        l.host_ids(),
                        l.hosts
                            .iter()
                            .flat_map(|h| h.carriers.iter().map(|c| c.loss.clone()))
                            .collect(),
                    ));
                }
            }
        }
        out
    }

    #[test]
    fn a_target_behind_one_switch_is_lost_with_it() {
        let d = design(&SRC.replace("PORTS", &(port("A0", "tor-a") + &port("B0", "tor-a"))));
        let l = losses(&d);
        let tor_a = d.switch_by_name("tor-a").unwrap();
        assert_eq!(l.len(), 1, "{l:#?}");
        assert_eq!(l[0].0, Unit::Switch(tor_a));
        assert_eq!(l[0].1, [HostId(0), HostId(1)]);
        // The hosts' teams stand: the target's side is the cause.
        assert!(matches!(
            &l[0].2[0],
            CarrierLoss::TargetPortsDown { ports, .. } if ports.len() == 2
        ));
        // A port on the other switch takes the loss away.
        let d = design(&SRC.replace("PORTS", &(port("A0", "tor-a") + &port("B0", "tor-b"))));
        assert!(losses(&d).is_empty(), "{:#?}", losses(&d));
    }

    #[test]
    fn the_only_link_to_the_targets_switch_cuts_every_host_from_it() {
        let d = design(&SRC.replace("PORTS", &port("A0", "san")));
        let l = losses(&d);
        let link = d.link_by_name("tor-b--san").unwrap();
        let san = d.switch_by_name("san").unwrap();
        let by_unit = |u: Unit| l.iter().find(|x| x.0 == u);
        let cut = by_unit(Unit::Cable(link, 0)).expect("the cable is a single point");
        assert_eq!(cut.1, [HostId(0), HostId(1)]);
        let topo = Topology::build(&d);
        assert!(
            cut.2.iter().all(|c| matches!(
                c,
                CarrierLoss::Cut { to, .. } if *to == [topo.bridge_of[san.0]]
            )),
            "{cut:#?}"
        );
        assert!(by_unit(Unit::Switch(san)).is_some());
        assert!(by_unit(Unit::Switch(d.switch_by_name("tor-b").unwrap())).is_some());
        assert!(by_unit(Unit::Switch(d.switch_by_name("tor-a").unwrap())).is_none());
    }

    /// The evaluator's tokens and the path walk of
    /// `Forwarding::target_reach` (spanning tree solved again) agree on
    /// which hosts lose a target, for every unit of these designs.
    #[test]
    fn tokens_and_the_path_walk_agree_on_every_single_failure() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
        let mut sources: Vec<String> = [
            "storage-targets.toml",
            "storage-unreachable.toml",
            "storage-spof.toml",
        ]
        .iter()
        .map(|f| std::fs::read_to_string(root.join(f)).expect("fixture"))
        .collect();
        sources.push(SRC.replace("PORTS", &port("A0", "san")));
        sources.push(SRC.replace("PORTS", &(port("A0", "tor-a") + &port("B0", "san"))));
        for src in &sources {
            let d = design(src);
            let topo = Topology::build(&d);
            let fabric = Fabric::new(&d, &topo);
            let healthy = fabric.forwarding(&d, &topo, &Failures::default());
            let reached = |f: &Forwarding| -> BTreeSet<(TargetId, HostId)> {
                f.target_reach(&d, &topo)
                    .into_iter()
                    .filter(|r| r.broken.is_none())
                    .map(|r| (r.target, r.host))
                    .collect()
            };
            let before = reached(&healthy);
            let analysis = Analysis::new(&d, &topo, &fabric, &healthy, requirements(&d, false));
            for unit in units(&d, &topo, UnitOptions::default()) {
                let f = unit.failures(&d, &topo);
                let after = reached(&fabric.forwarding(&d, &topo, &f));
                let exact: BTreeSet<(TargetId, HostId)> =
                    before.difference(&after).copied().collect();
                let tokens: BTreeSet<(TargetId, HostId)> = analysis
                    .evaluate(&f)
                    .losses
                    .iter()
                    .filter_map(|l| match l.requirement {
                        Requirement::Target(t) => {
                            Some(l.host_ids().into_iter().map(move |h| (t, h)))
                        }
                        _ => None,
                    })
                    .flatten()
                    .collect();
                assert_eq!(tokens, exact, "{} under {unit:?}", d.name.value);
            }
        }
    }
}
