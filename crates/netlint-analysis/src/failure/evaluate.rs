//! The evaluator: prepared once per design, decides per scenario which hosts
//! lose which requirements.

use super::*;

/// Where one carrier of a host lands in a scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum Token {
    /// Every working NIC ends in this VLAN component (its lowest bridge):
    /// (VLAN slot, component). The slot is the network's, or the native or
    /// access VLAN its untagged frames land in (`l2::ports`).
    Comp(usize, usize),
    /// A single NIC on a direct cable: (this end, the other end).
    Peer((HostId, NicIdx), (HostId, NicIdx)),
}

pub(super) fn meets(a: &Token, b: &Token) -> bool {
    match (a, b) {
        (Token::Comp(sx, x), Token::Comp(sy, y)) => (sx, x) == (sy, y),
        (Token::Peer(f1, t1), Token::Peer(f2, t2)) => f1 == t2 && t1 == f2,
        _ => false,
    }
}

/// One carrier of one host in one scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct CarrierState {
    pub(super) working: Vec<NicIdx>,
    pub(super) token: Option<Token>,
}

pub(super) type HostState = Vec<CarrierState>;

/// The fabric in one scenario, as the host evaluation needs it.
pub(super) struct FabricState<'f> {
    /// Per VLAN slot, the bridges whose component label is not the
    /// healthy one, as (bridge, label) sorted by bridge (None = the
    /// healthy labels everywhere).
    pub(super) comps: Option<crate::l2::Relabeled>,
    /// Bridges whose healthy component split (or that are down).
    pub(super) affected_bridges: BTreeSet<usize>,
    /// Where a VLAN splits an MLAG domain: per VLAN slot, per switch, its
    /// component in this scenario, from a full solve; every host is then
    /// evaluated again (see [`Analysis::peer_split`]).
    pub(super) switch_comps: Option<Vec<Vec<usize>>>,
    pub(super) failures: &'f Failures,
}

/// The failure analysis of one design, prepared once: the healthy state of
/// every host, indexes from switches and bridges to hosts, and the fabric
/// shortcut's applicability.
pub struct Analysis<'a> {
    pub(super) design: &'a Design,
    pub(super) topo: &'a Topology,
    pub(super) fabric: &'a Fabric,
    pub requirements: Vec<Requirement>,
    /// Distinct VLANs (None = untagged) of the networks.
    pub(super) vlans: Vec<Option<u16>>,
    pub(super) net_slot: Vec<usize>,
    pub(super) healthy_comp: Vec<Vec<usize>>,
    /// Per VLAN slot that splits an MLAG domain in the healthy state (its
    /// peer-links do not carry it): per switch, its healthy component.
    pub(super) healthy_switch_comp: Vec<Option<Vec<usize>>>,
    /// Some VLAN splits an MLAG domain: adapters on one bridge may not
    /// reach each other, so component labels per bridge do not decide
    /// reachability, and fabric failures are solved in full with labels
    /// per switch. Only designs whose peer-links leave VLANs out (already
    /// reported in the healthy state) pay for it.
    pub(super) peer_split: bool,
    /// Every bridge runs one spanning-tree configuration and every port
    /// carries every VLAN of the design: VLAN components are those of the
    /// up graph in any scenario.
    pub(super) shortcut: bool,
    /// Without the shortcut: VLAN components of fabric failures from the
    /// healthy spanning trees (`None` with the shortcut).
    pub(super) scenarios: Option<ScenarioComponents>,
    pub(super) healthy: Vec<HostState>,
    pub(super) cluster_of: Vec<usize>,
    pub(super) clusters: Vec<Vec<HostId>>,
    pub(super) hosts_by_switch: Vec<Vec<HostId>>,
    pub(super) hosts_by_bridge: Vec<Vec<HostId>>,
    pub(super) ports_by_switch: Vec<Vec<usize>>,
    pub(super) ports_by_link: Vec<Vec<usize>>,
    /// Per host: its live-migration networks.
    pub(super) lm: Vec<Vec<NetworkId>>,
    /// Per requirement: its networks as a mask over network ids.
    pub(super) req_nets: Vec<Vec<bool>>,
    /// The ports down or short of cables in the healthy state, in port
    /// order: a scenario changes only the ports of what it fails.
    pub(super) healthy_ports: Vec<usize>,
}

impl<'a> Analysis<'a> {
    /// Prepares the analysis; `healthy` is the healthy forwarding (computed
    /// once and shared with the other rules).
    pub fn new(
        design: &'a Design,
        topo: &'a Topology,
        fabric: &'a Fabric,
        healthy: &Forwarding,
        requirements: Vec<Requirement>,
    ) -> Analysis<'a> {
        let vlans = crate::l2::ports::view_vlans(design);
        let net_slot = design
            .networks
            .iter()
            .map(|n| vlans.binary_search(&n.vlan_id()).unwrap_or(0))
            .collect();
        let nb = topo.bridges.len();
        let healthy_comp: Vec<Vec<usize>> = vlans
            .iter()
            .map(|v| {
                healthy
                    .vlan(*v)
                    .map(|view| view.component.clone())
                    .unwrap_or_else(|| (0..nb).collect())
            })
            .collect();

        let healthy_switch_comp: Vec<Option<Vec<usize>>> = vlans
            .iter()
            .map(|v| {
                let view = healthy.vlan(*v)?;
                view.peers.as_ref()?;
                Some(view.switch_components(topo))
            })
            .collect();
        let peer_split = healthy_switch_comp.iter().any(Option::is_some);

        let mut hosts_by_switch = vec![Vec::new(); design.switches.len()];
        let mut hosts_by_bridge = vec![Vec::new(); nb];
        for (h, ends) in topo.nic_ends.iter().enumerate() {
            for end in ends.iter().flatten() {
                if let NicEnd::Switch(s) = end {
                    let b = topo.bridge_of[s.0].0;
                    if hosts_by_switch[s.0].last() != Some(&HostId(h)) {
                        hosts_by_switch[s.0].push(HostId(h));
                    }
                    if hosts_by_bridge[b].last() != Some(&HostId(h)) {
                        hosts_by_bridge[b].push(HostId(h));
                    }
                }
            }
        }
        let (ports_by_switch, ports_by_link) = topo.ports_by_switch_and_link(design);
        let mut clusters = Vec::new();
        let mut cluster_of = vec![0; design.hosts.len()];
        for hosts in design.clusters().into_values() {
            for h in &hosts {
                cluster_of[h.0] = clusters.len();
            }
            clusters.push(hosts);
        }
        let lm = design
            .hosts
            .iter()
            .map(|h| {
                h.live_migration
                    .iter()
                    .flat_map(|lm| lm.networks.iter().map(|n| n.value))
                    .collect()
            })
            .collect();
        let req_nets = requirements
            .iter()
            .map(|r| {
                let mut mask = vec![false; design.networks.len()];
                for n in r.networks(design) {
                    mask[n.0] = true;
                }
                mask
            })
            .collect();
        let mut a = Analysis {
            design,
            topo,
            fabric,
            requirements,
            vlans,
            net_slot,
            healthy_comp,
            healthy_switch_comp,
            peer_split,
            shortcut: false,
            scenarios: None,
            healthy: Vec::new(),
            cluster_of,
            clusters,
            hosts_by_switch,
            hosts_by_bridge,
            ports_by_switch,
            ports_by_link,
            lm,
            req_nets,
            healthy_ports: topo
                .ports
                .iter()
                .enumerate()
                .filter(|(i, p)| !healthy.ports[*i].up || healthy.ports[*i].members < p.members)
                .map(|(i, _)| i)
                .collect(),
        };
        a.shortcut = a.shortcut_applies();
        if !a.shortcut {
            a.scenarios = Some(ScenarioComponents::new(
                design, topo, fabric, healthy, &a.vlans,
            ));
        }
        let none = Failures::default();
        let st = FabricState {
            comps: None,
            affected_bridges: BTreeSet::new(),
            switch_comps: None,
            failures: &none,
        };
        a.healthy = (0..design.hosts.len())
            .map(|h| a.host_state(HostId(h), &st))
            .collect();
        a
    }

    /// One spanning-tree configuration everywhere (one mode; for MSTP one
    /// region) and every port carrying every VLAN: then every tree of any
    /// scenario spans the surviving graph and a VLAN's components are the
    /// graph's. Checked against the healthy spanning tree too.
    fn shortcut_applies(&self) -> bool {
        let d = self.design;
        let first = |b: &crate::topology::Bridge| d.switch(b.members[0]);
        let Some(b0) = self.topo.bridges.first() else {
            return true;
        };
        let s0 = first(b0);
        let same_stp = self.topo.bridges.iter().all(|b| {
            let s = first(b);
            s.stp.mode.value == s0.stp.mode.value
                && (s.stp.mode.value != netlint_model::StpMode::Mstp
                    || (s.stp.region.as_ref().map(|r| &r.value)
                        == s0.stp.region.as_ref().map(|r| &r.value)
                        && s.stp.revision.as_ref().map(|r| r.value)
                            == s0.stp.revision.as_ref().map(|r| r.value)
                        && s.stp.instances.as_ref().map(|i| &i.value)
                            == s0.stp.instances.as_ref().map(|i| &i.value)))
        });
        if !same_stp {
            return false;
        }
        let uniform = self.vlans.iter().all(|v| {
            self.topo.ports.iter().all(|p| {
                d.link(p.link).allows_vlan(*v) && p.switches().all(|s| d.switch(s).defines_vlan(*v))
            })
        });
        if !uniform {
            return false;
        }
        let up = components(
            self.topo.bridges.len(),
            self.topo.ports.iter().map(|p| (p.a.0, p.b.0)),
        );
        self.healthy_comp.iter().all(|c| *c == up)
    }

    /// The same analysis solving every fabric failure in full, without the
    /// shortcut or the spanning-tree updates: what they are checked against.
    #[cfg(test)]
    pub(crate) fn full_recompute(mut self) -> Self {
        self.shortcut = false;
        self.scenarios = self.scenarios.map(ScenarioComponents::full_recompute);
        if self.scenarios.is_none() {
            let healthy = self
                .fabric
                .forwarding(self.design, self.topo, &Failures::default());
            self.scenarios = Some(
                ScenarioComponents::new(self.design, self.topo, self.fabric, &healthy, &self.vlans)
                    .full_recompute(),
            );
        }
        self
    }

    pub fn design(&self) -> &'a Design {
        self.design
    }
    pub fn topology(&self) -> &'a Topology {
        self.topo
    }

    fn nic_cause(&self, host: HostId, nic: NicIdx, f: &Failures) -> Option<NicCause> {
        if f.nics.contains(&(host, nic)) {
            return Some(match self.topo.nic_ends[host.0][nic.0] {
                Some(NicEnd::Switch(s)) if f.suspended.contains(&s) => NicCause::Suspended(s),
                _ => NicCause::Failed,
            });
        }
        match self.topo.nic_ends[host.0][nic.0] {
            Some(NicEnd::Switch(s)) if f.switches.contains(&s) => Some(NicCause::SwitchDown(s)),
            Some(NicEnd::Peer(h, n)) if f.nics.contains(&(h, n)) => Some(NicCause::PeerDown(h, n)),
            _ => None,
        }
    }

    pub(super) fn host_state(&self, h: HostId, st: &FabricState) -> HostState {
        self.topo.carriers[h.0]
            .iter()
            .map(|c| {
                let up = |n: &NicIdx| self.nic_cause(h, *n, st.failures).is_none();
                let mut working: Vec<NicIdx> = c.active.iter().copied().filter(up).collect();
                let lost = c.active.len() - working.len();
                working.extend(c.standby.iter().copied().filter(up).take(lost));
                let token = self.token(h, c.network, &working, st);
                CarrierState { working, token }
            })
            .collect()
    }

    /// The rule of `Forwarding::reach`: every working NIC of a carrier must
    /// reach every working NIC of the other's, so all end in one VLAN
    /// component (on switches defining the VLAN), or one NIC on a direct
    /// cable meets its peer.
    fn token(
        &self,
        h: HostId,
        net: NetworkId,
        working: &[NicIdx],
        st: &FabricState,
    ) -> Option<Token> {
        let slot = self.net_slot[net.0];
        let vlan = self.vlans[slot];
        let mut token: Option<Token> = None;
        for &x in working {
            match self.topo.nic_ends[h.0][x.0] {
                None => return None,
                Some(NicEnd::Peer(ph, pn)) => {
                    if working.len() != 1 {
                        return None;
                    }
                    token = Some(Token::Peer((h, x), (ph, pn)));
                }
                Some(NicEnd::Switch(s)) => {
                    // The VLAN its frames land in through its port.
                    let (slot, vlan) = match crate::l2::ports::landing(self.design, h, x, vlan) {
                        Err(_) => return None,
                        Ok(l) if l == vlan => (slot, vlan),
                        Ok(l) => (self.vlans.binary_search(&l).ok()?, l),
                    };
                    if !self.design.switch(s).defines_vlan(vlan) {
                        return None;
                    }
                    let c = self.switch_label(slot, s, st);
                    match token {
                        None => token = Some(Token::Comp(slot, c)),
                        Some(Token::Comp(s0, c0)) if (s0, c0) == (slot, c) => {}
                        _ => return None,
                    }
                }
            }
        }
        token
    }

    /// Whether two hosts in these states reach each other on a requirement.
    fn connected(&self, r: usize, a: HostId, sa: &HostState, b: HostId, sb: &HostState) -> bool {
        let ca = &self.topo.carriers[a.0];
        let cb = &self.topo.carriers[b.0];
        let lm = self.requirements[r] == Requirement::LiveMigration;
        let allowed = |n: NetworkId| {
            if lm {
                self.lm[a.0].contains(&n) && self.lm[b.0].contains(&n)
            } else {
                self.req_nets[r][n.0]
            }
        };
        for (i, c1) in ca.iter().enumerate() {
            if !allowed(c1.network) {
                continue;
            }
            let Some(t1) = &sa[i].token else { continue };
            for (j, c2) in cb.iter().enumerate() {
                if c2.network != c1.network {
                    continue;
                }
                if let Some(t2) = &sb[j].token {
                    if meets(t1, t2) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The fabric after `failures`: VLAN components (with the shortcut,
    /// those of the surviving graph; otherwise from the healthy spanning
    /// trees updated by the failure, see [`ScenarioComponents`]) and the
    /// bridges whose healthy component split.
    fn fabric_state<'f>(&self, failures: &'f Failures) -> FabricState<'f> {
        let mut st = FabricState {
            comps: None,
            affected_bridges: BTreeSet::new(),
            switch_comps: None,
            failures,
        };
        if failures.is_host_local() {
            return st;
        }
        if self.peer_split || failures.inside_domains(self.topo) {
            // Labels per switch from a full solve, for every host (a VLAN
            // splits an MLAG domain, or the failure may split a domain).
            let fwd = self.fabric.forwarding(self.design, self.topo, failures);
            let nb = self.topo.bridges.len();
            st.switch_comps = Some(
                self.vlans
                    .iter()
                    .map(|v| match fwd.vlan(*v) {
                        Some(view) => view.switch_components(self.topo),
                        None => self.topo.bridge_of.iter().map(|b| b.0).collect(),
                    })
                    .collect(),
            );
            st.affected_bridges = (0..nb).collect();
            return st;
        }
        let mut removed: Vec<usize> = failures
            .switches
            .iter()
            .map(|s| self.topo.bridge_of[s.0].0)
            .filter(|b| {
                self.topo.bridges[*b]
                    .members
                    .iter()
                    .all(|s| failures.switches.contains(s))
            })
            .collect();
        removed.sort();
        removed.dedup();
        let nb = self.topo.bridges.len();
        for b in &removed {
            st.affected_bridges.insert(*b);
        }
        if let Some(scenarios) = &self.scenarios {
            // Changes to the healthy labels, from the healthy forests.
            if let Some(labels) =
                scenarios.relabeled(self.design, self.topo, self.fabric, failures, &removed)
            {
                for slot in &labels {
                    st.affected_bridges.extend(slot.iter().map(|x| x.0));
                }
                if !st.affected_bridges.is_empty() {
                    st.comps = Some(labels);
                }
                return st;
            }
        }
        let comps: Vec<Option<Vec<usize>>> = match &self.scenarios {
            // The trees could not be updated (`relabeled` said so above).
            Some(scenarios) => scenarios.solved(self.design, self.topo, self.fabric, failures),
            // The shortcut: every tree spans the surviving graph.
            None => {
                let mut touched: BTreeSet<usize> = BTreeSet::new();
                for s in &failures.switches {
                    touched.extend(self.ports_by_switch[s.0].iter().copied());
                }
                for (l, _) in &failures.cables {
                    touched.extend(self.ports_by_link[l.0].iter().copied());
                }
                let down: BTreeSet<usize> = touched
                    .into_iter()
                    .filter(|&p| {
                        !self
                            .fabric
                            .port_state(self.design, self.topo, p, failures)
                            .up
                    })
                    .collect();
                if down.is_empty() && removed.is_empty() {
                    // Only capacities changed: the same graph, the same
                    // components whatever the trees now look like.
                    return st;
                }
                let up = components(
                    self.topo.bridges.len(),
                    self.topo
                        .ports
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| !down.contains(i))
                        .map(|(_, p)| (p.a.0, p.b.0)),
                );
                vec![Some(up); self.vlans.len()]
            }
        };
        // Components that neither split nor merged keep their healthy
        // number, so the tokens of hosts the failure does not touch stay
        // what they were; every other bridge gets a number of its own
        // (offset past the bridge indices) and counts as affected. A slot
        // without new components is the healthy one: nothing to compare.
        let mut is_removed = vec![false; nb];
        for b in &removed {
            is_removed[*b] = true;
        }
        let labels: crate::l2::Relabeled = comps
            .iter()
            .enumerate()
            .map(|(slot, new)| {
                let Some(new) = new else {
                    return Vec::new();
                };
                let old = &self.healthy_comp[slot];
                crate::l2::split::relabel(old, new, &is_removed)
                    .into_iter()
                    .enumerate()
                    .filter(|&(b, l)| l != old[b])
                    .collect()
            })
            .collect();
        for slot in &labels {
            st.affected_bridges.extend(slot.iter().map(|x| x.0));
        }
        if st.affected_bridges.is_empty() {
            return st;
        }
        st.comps = Some(labels);
        st
    }

    /// Hosts whose carriers may differ from the healthy state.
    pub(super) fn affected_hosts(&self, st: &FabricState) -> BTreeSet<HostId> {
        let f = st.failures;
        let mut set = BTreeSet::new();
        for (h, n) in &f.nics {
            set.insert(*h);
            if let Some(NicEnd::Peer(ph, _)) = self.topo.nic_ends[h.0][n.0] {
                set.insert(ph);
            }
        }
        for s in &f.switches {
            set.extend(self.hosts_by_switch[s.0].iter().copied());
        }
        for b in &st.affected_bridges {
            set.extend(self.hosts_by_bridge[*b].iter().copied());
        }
        set
    }

    /// What a set of failures takes away: for every requirement, the host
    /// pairs of one cluster that reached each other and no longer do,
    /// attributed to the hosts whose own attachments broke.
    pub fn evaluate(&self, failures: &Failures) -> Outcome {
        let st = self.fabric_state(failures);
        let mut outcome = self.evaluate_pairs(&st);
        outcome.losses.extend(self.target_losses(&st));
        outcome
    }

    /// The host-pair requirements' losses in one scenario.
    fn evaluate_pairs(&self, st: &FabricState) -> Outcome {
        let affected = self.affected_hosts(st);
        if affected.is_empty() {
            return Outcome::default();
        }
        let mut states: HashMap<HostId, HostState> = HashMap::default();
        // A host whose carriers land where they did is unchanged: component
        // numbers of untouched parts of the fabric are the healthy ones.
        let mut changed: Vec<HostId> = Vec::new();
        // A split domain: the part that keeps the domain's component number
        // is as changed as the part split off from it.
        let split_bridges: BTreeSet<BridgeId> = st
            .failures
            .suspended
            .iter()
            .map(|s| self.topo.bridge_of[s.0])
            .collect();
        for &h in &affected {
            let s = self.host_state(h, st);
            let same_tokens = s
                .iter()
                .zip(&self.healthy[h.0])
                .all(|(a, b)| a.token == b.token || b.token.is_none());
            let on_split = !split_bridges.is_empty()
                && self.topo.nic_ends[h.0].iter().any(|e| {
                    matches!(e, Some(NicEnd::Switch(s)) if split_bridges.contains(&self.topo.bridge_of[s.0]))
                });
            if !same_tokens || on_split {
                changed.push(h);
            }
            states.insert(h, s);
        }
        if changed.is_empty() {
            return Outcome::default();
        }
        let state_of = |h: HostId| -> &HostState { states.get(&h).unwrap_or(&self.healthy[h.0]) };
        let changed_set: BTreeSet<HostId> = changed.iter().copied().collect();
        let mut outcome = Outcome::default();
        for r in 0..self.requirements.len() {
            if matches!(self.requirements[r], Requirement::Target(_)) {
                continue;
            }
            let mut lost: BTreeSet<(HostId, HostId)> = BTreeSet::new();
            for &h in &changed {
                let sh = state_of(h);
                for &x in &self.clusters[self.cluster_of[h.0]] {
                    if x == h || (changed_set.contains(&x) && x < h) {
                        continue;
                    }
                    if !self.connected(r, h, &self.healthy[h.0], x, &self.healthy[x.0]) {
                        continue;
                    }
                    if !self.connected(r, h, sh, x, state_of(x)) {
                        lost.insert((h.min(x), h.max(x)));
                    }
                }
            }
            if lost.is_empty() {
                continue;
            }
            outcome
                .losses
                .push(self.attribute(r, &lost, st, &changed_set, &state_of));
        }
        outcome
    }

    /// Names the hosts of a loss and says what broke on each.
    fn attribute<'s>(
        &self,
        r: usize,
        lost: &BTreeSet<(HostId, HostId)>,
        st: &FabricState,
        changed: &BTreeSet<HostId>,
        state_of: &dyn Fn(HostId) -> &'s HostState,
    ) -> Loss {
        let mut partners: BTreeMap<HostId, Vec<HostId>> = BTreeMap::new();
        for &(a, b) in lost {
            partners.entry(a).or_default().push(b);
            partners.entry(b).or_default().push(a);
        }
        let mut hosts = Vec::new();
        for (&h, lost_partners) in &partners {
            if !changed.contains(&h) {
                continue;
            }
            let carriers = self.carrier_changes(r, h, state_of(h), st);
            if carriers.is_empty() {
                continue;
            }
            let healthy_partners = self.clusters[self.cluster_of[h.0]]
                .iter()
                .filter(|&&x| {
                    x != h && self.connected(r, h, &self.healthy[h.0], x, &self.healthy[x.0])
                })
                .count();
            hosts.push(HostLoss {
                host: h,
                carriers,
                lost_partners: lost_partners.clone(),
                cut_off: lost_partners.len() == healthy_partners,
            });
        }
        // A host that lost its links only because the host at the other end
        // of its direct cables failed is not named when the failed host
        // already accounts for every lost pair.
        let own = |hl: &HostLoss| {
            hl.carriers.iter().any(|c| match &c.loss {
                CarrierLoss::Dead { nics } => nics
                    .iter()
                    .any(|(_, cause)| !matches!(cause, NicCause::PeerDown(..))),
                _ => true,
            })
        };
        let primary: BTreeSet<HostId> = hosts.iter().filter(|h| own(h)).map(|h| h.host).collect();
        if primary.len() < hosts.len()
            && lost
                .iter()
                .all(|(a, b)| primary.contains(a) || primary.contains(b))
        {
            hosts.retain(|h| primary.contains(&h.host));
        }
        if hosts.is_empty() {
            // Nothing of theirs broke on either side (should not happen):
            // name every host involved.
            for (&h, lost_partners) in &partners {
                hosts.push(HostLoss {
                    host: h,
                    carriers: Vec::new(),
                    lost_partners: lost_partners.clone(),
                    cut_off: false,
                });
            }
        }
        // A host that still lands in the fabric on the requirement, whose
        // lost partners all land nowhere (no working adapter, or adapters
        // scattered over parts that no longer meet), lost them through
        // them: name only the others when they account for every pair.
        let lands = |h: HostId| -> bool {
            let is_lm = self.requirements[r] == Requirement::LiveMigration;
            self.topo.carriers[h.0]
                .iter()
                .zip(state_of(h))
                .any(|(c, s)| {
                    let relevant = if is_lm {
                        self.lm[h.0].contains(&c.network)
                    } else {
                        self.req_nets[r][c.network.0]
                    };
                    relevant && s.token.is_some()
                })
        };
        let bystanders: BTreeSet<HostId> = hosts
            .iter()
            .filter(|h| lands(h.host) && h.lost_partners.iter().all(|x| !lands(*x)))
            .map(|h| h.host)
            .collect();
        if !bystanders.is_empty()
            && bystanders.len() < hosts.len()
            && lost
                .iter()
                .all(|(a, b)| !bystanders.contains(a) || !bystanders.contains(b))
        {
            hosts.retain(|h| !bystanders.contains(&h.host));
        }
        // A split domain (a failed peer-link, a severed stack): the hosts
        // with an adapter on a part that suspended its LAG ports explain
        // the loss when every lost pair has one of them; the hosts on the
        // part that kept the LAGs lost them through them.
        if !st.failures.suspended.is_empty() {
            // An adapter left up on a switch that suspended its LAG ports
            // (an orphan port there).
            let on_suspended = |h: HostId| {
                self.topo.nic_ends[h.0].iter().enumerate().any(|(n, e)| {
                    matches!(e, Some(NicEnd::Switch(s)) if st.failures.suspended.contains(s))
                        && !st.failures.nics.contains(&(h, NicIdx(n)))
                })
            };
            let kept: BTreeSet<HostId> = hosts
                .iter()
                .filter(|h| !on_suspended(h.host))
                .map(|h| h.host)
                .collect();
            if !kept.is_empty()
                && kept.len() < hosts.len()
                && lost
                    .iter()
                    .all(|(a, b)| !kept.contains(a) || !kept.contains(b))
            {
                hosts.retain(|h| !kept.contains(&h.host));
            }
        }
        // Hosts cut off from everyone they reached explain the loss when
        // every lost pair has one of them: name only those.
        let cut: BTreeSet<HostId> = hosts.iter().filter(|h| h.cut_off).map(|h| h.host).collect();
        if !cut.is_empty()
            && cut.len() < hosts.len()
            && lost.iter().all(|(a, b)| cut.contains(a) || cut.contains(b))
        {
            hosts.retain(|h| h.cut_off);
        }
        let mut split = Vec::new();
        if !hosts.iter().all(|h| h.cut_off) {
            // Groups that still reach each other, per cluster.
            let involved: Vec<HostId> = partners.keys().copied().collect();
            let idx: HashMap<HostId, usize> =
                involved.iter().enumerate().map(|(i, h)| (*h, i)).collect();
            let states: Vec<&HostState> = involved.iter().map(|h| state_of(*h)).collect();
            let mut edges = Vec::new();
            for (i, &a) in involved.iter().enumerate() {
                for &b in &involved[i + 1..] {
                    if self.cluster_of[a.0] == self.cluster_of[b.0]
                        && self.connected(r, a, states[idx[&a]], b, states[idx[&b]])
                    {
                        edges.push((idx[&a], idx[&b]));
                    }
                }
            }
            let comp = components(involved.len(), edges.into_iter());
            let mut groups: BTreeMap<usize, Vec<HostId>> = BTreeMap::new();
            for (i, c) in comp.iter().enumerate() {
                groups.entry(*c).or_default().push(involved[i]);
            }
            split = groups.into_values().collect();
        }
        Loss {
            requirement: self.requirements[r].clone(),
            hosts,
            split,
            pairs: lost.iter().copied().collect(),
        }
    }

    /// The carriers of `h` on the requirement's networks that the failure
    /// changed, and how.
    pub(super) fn carrier_changes(
        &self,
        r: usize,
        h: HostId,
        now: &HostState,
        st: &FabricState,
    ) -> Vec<CarrierChange> {
        let mut out = Vec::new();
        let is_lm = self.requirements[r] == Requirement::LiveMigration;
        for (i, c) in self.topo.carriers[h.0].iter().enumerate() {
            let relevant = if is_lm {
                self.lm[h.0].contains(&c.network)
            } else {
                self.req_nets[r][c.network.0]
            };
            let before = &self.healthy[h.0][i];
            if !relevant || before.token.is_none() {
                continue;
            }
            let after = &now[i];
            let bridges = |nics: &[NicIdx]| -> Vec<BridgeId> {
                let mut v: Vec<BridgeId> = nics
                    .iter()
                    .filter_map(|n| match self.topo.nic_ends[h.0][n.0] {
                        Some(NicEnd::Switch(s)) => Some(self.topo.bridge_of[s.0]),
                        _ => None,
                    })
                    .collect();
                v.sort();
                v.dedup();
                v
            };
            let loss = if after.working.is_empty() {
                let mut nics: Vec<(NicIdx, NicCause)> = c
                    .active
                    .iter()
                    .chain(&c.standby)
                    .filter_map(|n| self.nic_cause(h, *n, st.failures).map(|cause| (*n, cause)))
                    .collect();
                // In the host's order, so that carriers over the same NICs
                // (vNICs pinned to different members) read alike.
                nics.sort_by_key(|(n, _)| *n);
                nics.dedup_by_key(|(n, _)| *n);
                CarrierLoss::Dead { nics }
            } else if let Some(l) =
                self.port_loss(h, c.network, &after.working, &before.token, &after.token)
            {
                l
            } else if after.token.is_none() {
                let vlan = self.vlans[self.net_slot[c.network.0]];
                let undefined =
                    after
                        .working
                        .iter()
                        .find_map(|n| match (vlan, self.topo.nic_ends[h.0][n.0]) {
                            (Some(v), Some(NicEnd::Switch(s)))
                                if !self.design.switch(s).defines_vlan(vlan) =>
                            {
                                Some((*n, s, v))
                            }
                            _ => None,
                        });
                match undefined {
                    Some((nic, switch, vlan)) => CarrierLoss::NotDefined { nic, switch, vlan },
                    None => CarrierLoss::Scattered {
                        bridges: bridges(&after.working),
                    },
                }
            } else {
                // On a split domain the part that kept its number is
                // cut from the other all the same.
                let on_split = after.working.iter().any(|n| {
                        matches!(self.topo.nic_ends[h.0][n.0], Some(NicEnd::Switch(s))
                            if st.failures.suspended.iter().any(|x| self.topo.bridge_of[x.0] == self.topo.bridge_of[s.0]))
                    });
                if after.token == before.token && !on_split {
                    continue;
                }
                CarrierLoss::Cut {
                    from: bridges(&after.working),
                    to: Vec::new(),
                }
            };
            out.push(CarrierChange {
                network: c.network,
                via: c.via,
                loss,
            });
        }
        // Where a cut carrier no longer reaches: the switches of the
        // first host it lost.
        out
    }

    /// A carrier lost at a host-facing switch port (`l2::ports`): a
    /// working NIC whose port drops the network's frames, or one that took
    /// over on a port that puts them in another VLAN than before.
    fn port_loss(
        &self,
        h: HostId,
        net: NetworkId,
        working: &[NicIdx],
        before: &Option<Token>,
        after: &Option<Token>,
    ) -> Option<CarrierLoss> {
        let vlan = self.vlans[self.net_slot[net.0]];
        let moved_to = match (before, after) {
            (_, None) => None,
            (Some(Token::Comp(s0, _)), Some(Token::Comp(s1, _))) if s0 != s1 => {
                Some((self.vlans[*s0], self.vlans[*s1]))
            }
            _ => return None,
        };
        working.iter().find_map(|n| {
            let Some(NicEnd::Switch(switch)) = self.topo.nic_ends[h.0][n.0] else {
                return None;
            };
            let landing = crate::l2::ports::landing(self.design, h, *n, vlan);
            match (landing, moved_to) {
                (Err(why), None) => Some(CarrierLoss::PortDrops {
                    nic: *n,
                    switch,
                    why,
                }),
                (Ok(to), Some((from, moved))) if to == moved => Some(CarrierLoss::VlanMoved {
                    nic: *n,
                    switch,
                    from,
                    to,
                }),
                _ => None,
            }
        })
    }

    /// Fills in where cut carriers no longer reach (the switches of a lost
    /// partner), for messages.
    pub fn cut_targets(&self, loss: &mut Loss) {
        for hl in &mut loss.hosts {
            for cc in &mut hl.carriers {
                if let CarrierLoss::Cut { from, to } = &mut cc.loss {
                    // The switches of the first lost host that are not this
                    // carrier's own.
                    for &partner in &hl.lost_partners {
                        let mut v: Vec<BridgeId> = self
                            .topo
                            .carriers_of(partner, cc.network)
                            .flat_map(|c| c.active.iter())
                            .filter_map(|n| match self.topo.nic_ends[partner.0][n.0] {
                                Some(NicEnd::Switch(s)) => Some(self.topo.bridge_of[s.0]),
                                _ => None,
                            })
                            .filter(|b| !from.contains(b))
                            .collect();
                        v.sort();
                        v.dedup();
                        if !v.is_empty() {
                            *to = v;
                            break;
                        }
                    }
                }
            }
        }
    }

    /// Evaluates a unit and fills in the messages' details.
    pub fn evaluate_unit(&self, unit: &Unit) -> Outcome {
        let f = unit.failures(self.design, self.topo);
        let mut o = self.evaluate(&f);
        for l in &mut o.losses {
            self.cut_targets(l);
        }
        o
    }
}
