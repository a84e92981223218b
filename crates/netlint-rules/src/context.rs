//! What a rule sees: the design and the analyses, each computed on first
//! use and shared by every rule of the run.

use netlint_analysis::{l2::AdapterPath, Fabric, Failures, Forwarding, Reachability, Topology};
use netlint_model::fast_hash::Map as HashMap;
use netlint_model::{
    Design, Diagnostic, Element, HostId, Label, NetworkId, NicIdx, Severity, Span, SwitchId,
};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// A network and the attachment classes of two hosts on it.
type ClassPair = (NetworkId, u32, u32);

pub struct Context<'d> {
    pub design: &'d Design,
    topology: OnceLock<Topology>,
    fabric: OnceLock<Fabric>,
    forwarding: OnceLock<Forwarding>,
    reachability: OnceLock<Reachability>,
    target_reach: OnceLock<Vec<netlint_analysis::TargetReach>>,
    bandwidth: OnceLock<netlint_analysis::bandwidth::BandwidthModel>,
    failures: OnceLock<netlint_analysis::failure::FailureReport>,
    lm_paths: OnceLock<Vec<Option<netlint_analysis::failure::LmPath>>>,
    /// Per network and host: which attachment class the host is in (hosts
    /// whose working adapters carrying the network are the same NICs on the
    /// same switches share one).
    attachment: OnceLock<Vec<Vec<u32>>>,
    /// Adapter paths per network and pair of attachment classes.
    adapter_paths: Mutex<HashMap<ClassPair, Arc<[AdapterPath]>>>,
    /// How many times rules asked for adapter paths.
    adapter_path_lookups: AtomicUsize,
    /// A copy of a design with a suggested fix applied: rules do not look
    /// for fixes of their own on it.
    fix_check: bool,
    /// A stack fails as a whole (`--stack-as-unit`, `stack_as_unit = true`).
    stack_as_unit: bool,
    /// The spanning-tree findings of this design, to tell a fix's new
    /// findings from the ones the design already has.
    stp_baseline: OnceLock<std::collections::BTreeSet<crate::rules::stp::verify::FindingKey>>,
}

impl<'d> Context<'d> {
    pub fn new(design: &'d Design) -> Self {
        Context {
            design,
            topology: OnceLock::new(),
            fabric: OnceLock::new(),
            forwarding: OnceLock::new(),
            reachability: OnceLock::new(),
            target_reach: OnceLock::new(),
            bandwidth: OnceLock::new(),
            failures: OnceLock::new(),
            lm_paths: OnceLock::new(),
            attachment: OnceLock::new(),
            adapter_paths: Mutex::new(HashMap::default()),
            adapter_path_lookups: AtomicUsize::new(0),
            fix_check: false,
            stack_as_unit: false,
            stp_baseline: OnceLock::new(),
        }
    }

    /// With `true`, the failure analysis fails each stack as a whole
    /// instead of member by member.
    pub fn with_stack_as_unit(mut self, stack_as_unit: bool) -> Self {
        self.stack_as_unit = stack_as_unit;
        self
    }

    /// A context for checking a fix on a copy of a design.
    pub(crate) fn for_fix_check(design: &'d Design) -> Self {
        Context {
            fix_check: true,
            ..Context::new(design)
        }
    }

    /// Whether this is a copy of a design with a fix applied (rules then
    /// skip looking for fixes).
    pub(crate) fn is_fix_check(&self) -> bool {
        self.fix_check
    }

    /// The spanning-tree findings of this design (found without fixes).
    pub(crate) fn stp_baseline(
        &self,
    ) -> &std::collections::BTreeSet<crate::rules::stp::verify::FindingKey> {
        self.stp_baseline.get_or_init(|| {
            crate::rules::stp::verify::stp_findings(&Context::for_fix_check(self.design))
        })
    }

    /// The topology graph (bridges, ports, host attachments, carriers).
    pub fn topology(&self) -> &Topology {
        self.topology.get_or_init(|| Topology::build(self.design))
    }

    /// The host bandwidth model (per host and traffic class).
    pub fn bandwidth(&self) -> &netlint_analysis::bandwidth::BandwidthModel {
        self.bandwidth.get_or_init(|| {
            netlint_analysis::bandwidth::BandwidthModel::build(self.design, self.topology())
        })
    }

    /// The bridged network with its spanning-tree engine, prepared once.
    pub fn fabric(&self) -> &Fabric {
        self.fabric
            .get_or_init(|| Fabric::new(self.design, self.topology()))
    }

    /// Spanning tree and VLAN forwarding in the healthy state.
    pub fn forwarding(&self) -> &Forwarding {
        self.forwarding.get_or_init(|| {
            self.fabric()
                .forwarding(self.design, self.topology(), &Failures::default())
        })
    }

    /// Reachability of every network between every pair of hosts of one
    /// cluster attached to it, in the healthy state: decided per host class
    /// and forwarding component, a pair of classes walked only when a rule
    /// asks how it reaches or why it does not.
    pub fn reachability(&self) -> &Reachability {
        self.reachability
            .get_or_init(|| Reachability::new(self.design, self.topology(), self.forwarding()))
    }

    /// Reachability of each storage target from each host that uses it,
    /// per network, in the healthy state.
    pub fn target_reach(&self) -> &[netlint_analysis::TargetReach] {
        self.target_reach
            .get_or_init(|| self.forwarding().target_reach(self.design, self.topology()))
    }

    /// Per host: live migration across the fabric, healthy and after the
    /// worst single fabric failure (`None`: no live migration, or no peer).
    pub fn lm_path(&self, h: netlint_model::HostId) -> Option<&netlint_analysis::failure::LmPath> {
        self.lm_paths
            .get_or_init(|| {
                netlint_analysis::failure::lm_paths(
                    self.design,
                    self.topology(),
                    self.fabric(),
                    self.forwarding(),
                )
            })
            .get(h.0)?
            .as_ref()
    }

    /// Every single failure (switches, stacks, inter-switch cables, NIC
    /// cards) evaluated against what the role table says must survive.
    pub fn failures(&self) -> &netlint_analysis::failure::FailureReport {
        self.failures.get_or_init(|| {
            netlint_analysis::failure::FailureReport::build_with(
                self.design,
                self.topology(),
                self.fabric(),
                self.forwarding(),
                netlint_analysis::failure::UnitOptions {
                    stack_as_unit: self.stack_as_unit,
                    nic_ports: false,
                },
            )
        })
    }

    /// [`Forwarding::adapter_paths`] in the healthy state, computed once per
    /// network and pair of attachment classes: the paths depend only on which
    /// NICs of each host carry the network and where they are cabled, so the
    /// pairs of a large cluster built from one profile share a handful of
    /// answers instead of walking the fabric each.
    pub fn adapter_paths(&self, network: NetworkId, a: HostId, b: HostId) -> Arc<[AdapterPath]> {
        self.adapter_path_lookups.fetch_add(1, Ordering::Relaxed);
        let classes = self.attachment.get_or_init(|| self.attachment_classes());
        let key = (network, classes[network.0][a.0], classes[network.0][b.0]);
        let cache = || self.adapter_paths.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(p) = cache().get(&key) {
            return Arc::clone(p);
        }
        let paths: Arc<[AdapterPath]> = self
            .forwarding()
            .adapter_paths(self.design, self.topology(), network, a, b)
            .into();
        cache().insert(key, Arc::clone(&paths));
        paths
    }

    /// How many times the rules of this context asked for adapter paths
    /// ([`Context::adapter_paths`]): what a rule that works per pair of
    /// host classes keeps independent of the hosts in a class (a test's
    /// measure of scaling that no timing can make flaky).
    pub fn adapter_path_lookups(&self) -> usize {
        self.adapter_path_lookups.load(Ordering::Relaxed)
    }

    /// Interns, per network, each host's working adapters that carry it and
    /// the switch each is cabled to, in the order `adapter_paths` takes them.
    fn attachment_classes(&self) -> Vec<Vec<u32>> {
        let (topo, fwd) = (self.topology(), self.forwarding());
        (0..self.design.networks.len())
            .map(|ni| {
                let net = NetworkId(ni);
                let mut ids: HashMap<Vec<(NicIdx, SwitchId)>, u32> = HashMap::default();
                self.design
                    .host_ids()
                    .map(|h| {
                        let cabled = fwd.cabled_adapters(topo, h, net);
                        let next = ids.len() as u32;
                        *ids.entry(cabled).or_insert(next)
                    })
                    .collect()
            })
            .collect()
    }

    /// A finding of `rule` at its default severity about `element`.
    pub fn finding(
        &self,
        rule: &crate::Rule,
        element: Element,
        span: Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        let mut d = Diagnostic::new(rule.meta.id, rule.meta.default_severity, element, message);
        d.primary = Some(Label::new(span, ""));
        d
    }

    /// The same at a given severity (rules whose severity depends on a role).
    pub fn finding_at(
        &self,
        rule: &crate::Rule,
        severity: Severity,
        element: Element,
        span: Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        let mut d = self.finding(rule, element, span, message);
        d.severity = severity;
        d
    }
}
