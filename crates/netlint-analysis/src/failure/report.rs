//! The failure report: every unit evaluated once, stacks as units.

use super::*;

/// The outcome of one unit.
#[derive(Clone, Debug)]
pub struct UnitResult {
    pub unit: Unit,
    pub outcome: Outcome,
}

/// What a whole stack failing takes away beyond what any one member does.
#[derive(Clone, Debug)]
pub struct StackResult {
    pub bridge: BridgeId,
    /// Losses of the whole stack, keeping only hosts that no member failure
    /// alone cuts from that requirement.
    pub extra: Vec<Loss>,
}

/// Every single failure of a design, as `netlint check` sees it: the units
/// whose failure loses something the role table requires (or live
/// migration), and the stacks whose redundancy is only inside the stack.
///
/// Of each loss it keeps what the rules read (the hosts, what broke on
/// each, the split), not the host pairs lost ([`Loss::pairs`] and
/// [`HostLoss::lost_partners`] are left empty): a unit that cuts one host
/// off a cluster of thousands loses a pair per host of the cluster, and
/// every host's card is a unit. [`Analysis::evaluate_unit`] gives them.
#[derive(Clone, Debug, Default)]
pub struct FailureReport {
    pub results: Vec<UnitResult>,
    pub stacks: Vec<StackResult>,
}

impl FailureReport {
    /// Runs every single failure unit (member switches, inter-switch cables,
    /// cards) and every stack as a whole.
    pub fn build(
        design: &Design,
        topo: &Topology,
        fabric: &Fabric,
        healthy: &Forwarding,
    ) -> FailureReport {
        Self::build_with(design, topo, fabric, healthy, UnitOptions::default())
    }

    /// The same with unit options. With `stack_as_unit` a stack is one
    /// unit among the results (its members are not), so there is nothing
    /// left to report about the stack beyond its members.
    pub fn build_with(
        design: &Design,
        topo: &Topology,
        fabric: &Fabric,
        healthy: &Forwarding,
        opts: UnitOptions,
    ) -> FailureReport {
        let analysis = Analysis::new(design, topo, fabric, healthy, requirements(design, false));
        let mut report = FailureReport::default();
        // Units come in order: the cables of one LAG one after the other.
        let mut previous: Option<(Unit, Outcome)> = None;
        for unit in units(design, topo, opts) {
            let outcome = match previous {
                Some((ref p, ref o)) if analysis.same_failure(p, &unit) => o.clone(),
                _ => {
                    let mut outcome = analysis.evaluate_unit(&unit);
                    prune_covered(&mut outcome);
                    outcome.losses.iter_mut().for_each(without_pairs);
                    outcome
                }
            };
            previous = matches!(unit, Unit::Cable(..)).then(|| (unit.clone(), outcome.clone()));
            if !outcome.losses.is_empty() {
                report.results.push(UnitResult { unit, outcome });
            }
        }
        let whole_stacks = if opts.stack_as_unit {
            Vec::new()
        } else {
            stacks(topo)
        };
        for b in whole_stacks {
            let whole = analysis.evaluate_unit(&Unit::Bridge(b));
            let members = &topo.bridge(b).members;
            let member_lost: BTreeSet<(Requirement, HostId)> = report
                .results
                .iter()
                .filter(|r| matches!(r.unit, Unit::Switch(s) if members.contains(&s)))
                .flat_map(|r| {
                    r.outcome
                        .losses
                        .iter()
                        .flat_map(|l| l.hosts.iter().map(|h| (l.requirement.clone(), h.host)))
                })
                .collect();
            let mut extra = Vec::new();
            for mut loss in whole.losses {
                if loss.requirement == Requirement::LiveMigration {
                    continue;
                }
                without_pairs(&mut loss);
                loss.hosts
                    .retain(|h| !member_lost.contains(&(loss.requirement.clone(), h.host)));
                if !loss.hosts.is_empty() {
                    extra.push(loss);
                }
            }
            if !extra.is_empty() {
                report.stacks.push(StackResult { bridge: b, extra });
            }
        }
        report
    }

    /// Results of units of one kind.
    pub fn of<'r>(
        &'r self,
        pred: impl Fn(&Unit) -> bool + 'r,
    ) -> impl Iterator<Item = &'r UnitResult> {
        self.results.iter().filter(move |r| pred(&r.unit))
    }
}

/// A loss without its host pairs (see [`FailureReport`]).
fn without_pairs(loss: &mut Loss) {
    loss.pairs = Vec::new();
    for h in &mut loss.hosts {
        h.lost_partners = Vec::new();
    }
}

/// Drops the loss of a single network when a group loss of the same
/// failure names the same hosts and, on each of them, only that network
/// (management as a host's only cluster network): one finding says both.
pub fn prune_covered(outcome: &mut Outcome) {
    let covered = |l: &Loss| -> bool {
        let Requirement::Network(n) = l.requirement else {
            return false;
        };
        outcome.losses.iter().any(|g| {
            matches!(
                g.requirement,
                Requirement::Cluster | Requirement::Storage(_)
            ) && g.host_ids() == l.host_ids()
                && g.split == l.split
                && g.hosts
                    .iter()
                    .all(|h| h.carriers.iter().all(|c| c.network == n))
        })
    };
    let keep: Vec<bool> = outcome.losses.iter().map(|l| !covered(l)).collect();
    let mut i = 0;
    outcome.losses.retain(|_| {
        i += 1;
        keep[i - 1]
    });
}
