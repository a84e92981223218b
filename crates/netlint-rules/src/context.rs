//! What a rule sees: the design and the analyses, each computed on first
//! use and shared by every rule of the run.

use netlint_analysis::{all_pairs, Fabric, Failures, Forwarding, Reach, Topology};
use netlint_model::{Design, Diagnostic, Label, Severity, Span};
use std::cell::OnceCell;

pub struct Context<'d> {
    pub design: &'d Design,
    topology: OnceCell<Topology>,
    fabric: OnceCell<Fabric>,
    forwarding: OnceCell<Forwarding>,
    reachability: OnceCell<Vec<Reach>>,
}

impl<'d> Context<'d> {
    pub fn new(design: &'d Design) -> Self {
        Context {
            design,
            topology: OnceCell::new(),
            fabric: OnceCell::new(),
            forwarding: OnceCell::new(),
            reachability: OnceCell::new(),
        }
    }

    /// The topology graph (bridges, ports, host attachments, carriers).
    pub fn topology(&self) -> &Topology {
        self.topology.get_or_init(|| Topology::build(self.design))
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
    /// cluster attached to it, in the healthy state.
    pub fn reachability(&self) -> &[Reach] {
        self.reachability
            .get_or_init(|| all_pairs(self.design, self.topology(), self.forwarding()))
    }

    /// A finding of `rule` at its default severity about `element`.
    pub fn finding(
        &self,
        rule: &crate::Rule,
        element: impl Into<String>,
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
        element: impl Into<String>,
        span: Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        let mut d = self.finding(rule, element, span, message);
        d.severity = severity;
        d
    }
}
