//! Per-VLAN components of failure scenarios, as
//! [`Fabric::forwarding`]`(..).vlan(v).component` gives them, without
//! solving every spanning tree again for each scenario.
//!
//! The spanning trees come from [`Updates`] (the healthy trees changed
//! where the failure reaches, see `stp/incremental.rs` for why that is
//! exact); whether a port carries a VLAN changes only on the ports of failed
//! switches and cables. So a VLAN's forwarding ports are the healthy ones
//! except on those ports and on the ports whose role flipped, which are
//! evaluated with the rules of [`VlanView`]. A VLAN whose forwarding ports
//! are all unchanged keeps its healthy components with no work on the rest
//! of the fabric; the others get their components from the same
//! union-find as a full solve, so the labels are the same too.

use super::split::SplitForest;
use super::{components, not_carried, Fabric, Failures, Forwarding, PortState};
use crate::stp::{StpResult, Updates};
use crate::topology::Topology;
use netlint_model::Design;
use std::collections::BTreeMap;
use std::collections::BTreeSet;

/// Prepared once per design from its healthy forwarding.
pub struct ScenarioComponents {
    /// `None`: every scenario is solved in full.
    updates: Option<Updates>,
    /// The healthy trees and port states the updates apply to.
    stp: std::sync::Arc<StpResult>,
    ports: Vec<PortState>,
    vlans: Vec<Option<u16>>,
    /// Per VLAN slot, per port: forwarding in the healthy state (`None`:
    /// the healthy forwarding has no view of the VLAN).
    healthy: Vec<Option<Vec<bool>>>,
    /// Per VLAN slot with a healthy view: its forwarding as a forest, for
    /// [`relabeled`](Self::relabeled).
    forests: Vec<Option<SplitForest>>,
    /// Per VLAN slot: whether a failure can split an MLAG domain on it
    /// ([`super::peers_may_split`]); where none can, its groups of peers
    /// are not looked for per scenario.
    may_split: Vec<bool>,
    ports_by_switch: Vec<Vec<usize>>,
    ports_by_link: Vec<Vec<usize>>,
}

/// What [`ScenarioComponents::relabeled`] answers per VLAN slot: the
/// bridges whose component label differs from the healthy one, as
/// (bridge, label) sorted by bridge. The labels are those of
/// [`split::relabel`](super::split::relabel).
pub type Relabeled = Vec<Vec<(usize, usize)>>;

/// Per VLAN slot, the ports whose forwarding changed, as (port, forwarding
/// now) in port order (`None`: none, or no healthy view of the VLAN).
type Flips = Vec<Option<Vec<(usize, bool)>>>;

impl ScenarioComponents {
    /// `healthy` must be the fabric's forwarding without failures; `vlans`
    /// are the VLAN slots [`components`](Self::components) answers for.
    pub fn new(
        design: &Design,
        topo: &Topology,
        fabric: &Fabric,
        healthy: &Forwarding,
        vlans: &[Option<u16>],
    ) -> ScenarioComponents {
        let updates = healthy
            .failures
            .is_healthy()
            .then(|| Updates::new(fabric.engine(), &healthy.stp));
        let (ports_by_switch, ports_by_link) = topo.ports_by_switch_and_link(design);
        let masks: Vec<Option<Vec<bool>>> = vlans
            .iter()
            .map(|v| healthy.vlan(*v).map(|view| view.forwarding.clone()))
            .collect();
        let ends: Vec<(usize, usize)> = topo.ports.iter().map(|p| (p.a.0, p.b.0)).collect();
        let forests = masks
            .iter()
            .map(|f| {
                let f = f.as_ref()?;
                updates
                    .is_some()
                    .then(|| SplitForest::new(topo.bridges.len(), &ends, f))
            })
            .collect();
        ScenarioComponents {
            updates,
            stp: healthy.stp.clone(),
            ports: healthy.ports.to_vec(),
            vlans: vlans.to_vec(),
            healthy: masks,
            forests,
            may_split: vlans
                .iter()
                .map(|v| super::peers_may_split(design, topo, *v))
                .collect(),
            ports_by_switch,
            ports_by_link,
        }
    }

    /// The same, solving every scenario in full: what the updates are
    /// checked against.
    #[cfg(test)]
    pub(crate) fn full_recompute(mut self) -> Self {
        self.updates = None;
        self
    }

    /// Per VLAN slot, the components (per bridge, its component's least
    /// bridge index) of the ports forwarding the VLAN under `failures`;
    /// `None` for a slot whose forwarding ports are the healthy ones.
    pub fn components(
        &self,
        design: &Design,
        topo: &Topology,
        fabric: &Fabric,
        failures: &Failures,
    ) -> Vec<Option<Vec<usize>>> {
        self.updated(design, topo, fabric, failures)
            .unwrap_or_else(|| self.solved(design, topo, fabric, failures))
    }

    /// [`components`](Self::components) from a full solve of the scenario:
    /// what is left when the healthy trees cannot be updated
    /// ([`relabeled`](Self::relabeled) answered `None`).
    pub fn solved(
        &self,
        design: &Design,
        topo: &Topology,
        fabric: &Fabric,
        failures: &Failures,
    ) -> Vec<Option<Vec<usize>>> {
        let fwd = fabric.forwarding(design, topo, failures);
        self.vlans
            .iter()
            .map(|v| fwd.vlan(*v).map(|view| view.component.clone()))
            .collect()
    }

    /// [`components`](Self::components) from the healthy trees, or `None`
    /// when the scenario has to be solved in full.
    fn updated(
        &self,
        design: &Design,
        topo: &Topology,
        fabric: &Fabric,
        failures: &Failures,
    ) -> Option<Vec<Option<Vec<usize>>>> {
        let forwarding = self.updated_forwarding(design, topo, fabric, failures)?;
        Some(
            forwarding
                .into_iter()
                .map(|now| {
                    let now = now?;
                    let edges = topo
                        .ports
                        .iter()
                        .zip(&now)
                        .filter(|(_, f)| **f)
                        .map(|(p, _)| (p.a.0, p.b.0));
                    Some(components(topo.bridges.len(), edges))
                })
                .collect(),
        )
    }

    /// Per VLAN slot, the ports forwarding the VLAN under `failures`
    /// (`None`: the healthy ones), from the healthy trees; `None` when the
    /// scenario has to be solved in full.
    pub(crate) fn updated_forwarding(
        &self,
        design: &Design,
        topo: &Topology,
        fabric: &Fabric,
        failures: &Failures,
    ) -> Option<Vec<Option<Vec<bool>>>> {
        let flips = self.flips(design, topo, fabric, failures)?;
        Some(
            flips
                .into_iter()
                .zip(&self.healthy)
                .map(|(flips, before)| {
                    let (flips, before) = (flips?, before.as_ref()?);
                    let mut now = before.clone();
                    for (p, f) in flips {
                        now[p] = f;
                    }
                    Some(now)
                })
                .collect(),
        )
    }

    /// [`components`](Self::components) as changes to the healthy labels,
    /// derived from the healthy forwarding forests (`l2/split.rs`) instead
    /// of a union-find over every bridge: per VLAN slot, the bridges whose
    /// label is not the healthy one. `removed`: the bridges down in the
    /// scenario, sorted; every one is listed in every slot with changes.
    /// `None` when the scenario has to be solved in full.
    pub fn relabeled(
        &self,
        design: &Design,
        topo: &Topology,
        fabric: &Fabric,
        failures: &Failures,
        removed: &[usize],
    ) -> Option<Relabeled> {
        let flips = self.flips(design, topo, fabric, failures)?;
        Some(
            flips
                .into_iter()
                .zip(&self.forests)
                .map(|(flips, forest)| match (flips, forest) {
                    (Some(flips), Some(forest)) => forest.relabel(&flips, removed),
                    _ => Vec::new(),
                })
                .collect(),
        )
    }

    /// Per VLAN slot, the ports whose forwarding of the VLAN differs from
    /// the healthy state under `failures`, as (port, forwarding now) in
    /// port order (`None`: none differ, or the healthy forwarding has no
    /// view of the VLAN), from the healthy trees; `None` when the scenario
    /// has to be solved in full.
    fn flips(
        &self,
        design: &Design,
        topo: &Topology,
        fabric: &Fabric,
        failures: &Failures,
    ) -> Option<Flips> {
        let updates = self.updates.as_ref()?;
        if failures.inside_domains(topo) {
            // A stack or MLAG domain may split: solved in full.
            return None;
        }
        let mut touched: BTreeSet<usize> = BTreeSet::new();
        let mut bridges: BTreeSet<usize> = BTreeSet::new();
        for s in &failures.switches {
            touched.extend(self.ports_by_switch.get(s.0)?.iter().copied());
            bridges.insert(topo.bridge_of.get(s.0)?.0);
        }
        for (l, _) in &failures.cables {
            touched.extend(self.ports_by_link.get(l.0)?.iter().copied());
        }
        let states: Vec<(usize, PortState)> = touched
            .iter()
            .map(|&p| (p, fabric.port_state(design, topo, p, failures)))
            .collect();
        let scenario = Fabric::scenario(topo, failures, bridges, states.iter().copied());
        let update = updates.update(fabric.engine(), &self.stp, &scenario)?;
        let mut changed: BTreeSet<usize> = touched;
        changed.extend(update.links());
        let state = |p: usize| match states.binary_search_by_key(&p, |x| x.0) {
            Ok(i) => states[i].1,
            Err(_) => self.ports[p],
        };
        let out = self
            .vlans
            .iter()
            .zip(&self.healthy)
            .zip(&self.may_split)
            .map(|((&vlan, before), &may_split)| {
                let before = before.as_ref()?;
                let peers = may_split
                    .then(|| super::peer_groups(design, topo, failures, vlan))
                    .flatten();
                let flips: Vec<(usize, bool)> = changed
                    .iter()
                    .map(|&p| {
                        let carried = not_carried(
                            design,
                            topo,
                            &topo.ports[p],
                            state(p),
                            failures,
                            vlan,
                            peers.as_deref(),
                        )
                        .is_none();
                        let tree = update.link_forwards(&self.stp, p, vlan).unwrap_or(true);
                        (p, carried && tree)
                    })
                    .filter(|&(p, now)| now != before[p])
                    .collect();
                (!flips.is_empty()).then_some(flips)
            })
            .collect();
        Some(out)
    }
}

/// Whole forwarding states of fabric failure scenarios, updated from the
/// healthy one: what `netlint simulate`'s table of every single failure
/// needs per unit (paths, components, port states), at a cost that grows
/// with what the failure changes instead of with the fabric.
///
/// The spanning trees come from [`Updates`], as for
/// [`ScenarioComponents`]; a VLAN whose ports all carry and forward as in
/// the healthy state keeps the healthy view (shared, with its forest of
/// paths and its memo of cuts: both depend on nothing else), the others
/// get a copy of it with the changed ports set and their components worked
/// out again with the same union-find as [`VlanView::new`].
///
/// The result's [`Forwarding::stp`] is the healthy one when the scenario
/// was updated: ask [`Fabric::forwarding`] for a scenario's trees. It falls
/// back to a full solve where the updates decline, and always where a VLAN
/// could split an MLAG domain (the groups of peers then depend on the
/// failure).
pub struct ScenarioForwarding {
    /// `None`: every scenario is solved in full.
    updates: Option<Updates>,
    ports_by_switch: Vec<Vec<usize>>,
    ports_by_link: Vec<Vec<usize>>,
}

impl ScenarioForwarding {
    /// `healthy` must be the fabric's forwarding without failures.
    pub fn new(
        design: &Design,
        topo: &Topology,
        fabric: &Fabric,
        healthy: &Forwarding,
    ) -> ScenarioForwarding {
        let (ports_by_switch, ports_by_link) = topo.ports_by_switch_and_link(design);
        let updates = (healthy.failures.is_healthy() && !may_split_peers(design, topo))
            .then(|| Updates::new(fabric.engine(), &healthy.stp));
        ScenarioForwarding {
            updates,
            ports_by_switch,
            ports_by_link,
        }
    }

    /// The forwarding under `failures`, from `healthy` (the same as given to
    /// [`ScenarioForwarding::new`]).
    pub fn forwarding(
        &self,
        design: &Design,
        topo: &Topology,
        fabric: &Fabric,
        healthy: &Forwarding,
        failures: &Failures,
    ) -> Forwarding {
        if failures.is_host_local() {
            return healthy.with_nic_failures(failures.nics.iter().copied());
        }
        if failures.inside_domains(topo) {
            // A stack or MLAG domain may split: its groups of peers are
            // found by the full solve only.
            return fabric.forwarding(design, topo, failures);
        }
        self.updated(design, topo, fabric, healthy, failures)
            .unwrap_or_else(|| fabric.forwarding(design, topo, failures))
    }

    fn updated(
        &self,
        design: &Design,
        topo: &Topology,
        fabric: &Fabric,
        healthy: &Forwarding,
        failures: &Failures,
    ) -> Option<Forwarding> {
        let updates = self.updates.as_ref()?;
        let mut touched: BTreeSet<usize> = BTreeSet::new();
        let mut bridges: BTreeSet<usize> = BTreeSet::new();
        for s in &failures.switches {
            touched.extend(self.ports_by_switch.get(s.0)?.iter().copied());
            bridges.insert(topo.bridge_of.get(s.0)?.0);
        }
        for (l, _) in &failures.cables {
            touched.extend(self.ports_by_link.get(l.0)?.iter().copied());
        }
        let mut ports = healthy.ports.to_vec();
        for &p in &touched {
            ports[p] = fabric.port_state(design, topo, p, failures);
        }
        let scenario = Fabric::scenario(
            topo,
            failures,
            bridges,
            touched.iter().map(|&p| (p, ports[p])),
        );
        let update = updates.update(fabric.engine(), &healthy.stp, &scenario)?;
        let mut changed: BTreeSet<usize> = touched;
        changed.extend(update.links());
        let mut per_vlan = BTreeMap::new();
        for (&vlan, view) in &healthy.per_vlan {
            let mut reasons = Vec::new();
            let mut forwards = Vec::new();
            for &p in &changed {
                let why = not_carried(design, topo, &topo.ports[p], ports[p], failures, vlan, None);
                let tree = update.link_forwards(&healthy.stp, p, vlan).unwrap_or(true);
                let f = why.is_none() && tree;
                if f != view.forwarding[p] {
                    forwards.push((p, f));
                }
                if why != view.not_carried[p] {
                    reasons.push((p, why));
                }
            }
            let now = if reasons.is_empty() && forwards.is_empty() {
                view.clone()
            } else {
                std::sync::Arc::new(view.patched(topo, failures, reasons, forwards))
            };
            per_vlan.insert(vlan, now);
        }
        Some(Forwarding {
            stp: healthy.stp.clone(),
            ports: std::sync::Arc::new(ports),
            failures: failures.clone(),
            per_vlan,
            up_tree: Default::default(),
        })
    }
}

/// Whether some VLAN could split an MLAG domain in some scenario
/// ([`super::peer_groups`] not `None`): a link inside a domain leaves a
/// VLAN out, or a domain has three peers or more (a middle one may fail).
fn may_split_peers(design: &Design, topo: &Topology) -> bool {
    let vlans = super::ports::view_vlans(design);
    topo.splittable_domains.iter().any(|(b, links)| {
        topo.bridge(*b).members.len() > 2
            || links.iter().any(|l| {
                let link = design.link(*l);
                vlans.iter().any(|v| v.is_some() && !link.allows_vlan(*v))
            })
    })
}
