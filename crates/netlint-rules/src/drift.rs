//! Drift rules: the design against the network as built. They run only
//! under `netlint diff`, never in `check` (they need two designs), over a
//! [`DriftContext`]: both designs, the drift analysis
//! (`netlint_analysis::drift`), and the findings of the ordinary rules on
//! each side, so that a difference that makes the as-built fail a rule the
//! design passes is judged by that finding.

use crate::phrases::words::name_hosts;
use crate::{Rule, RuleConfig};
use netlint_analysis::drift::{drift_with, CabledPeer, Difference, Drift};
use netlint_model::{Design, Diagnostic, Element, Level, Part, Severity, Span};
use std::collections::BTreeSet;

/// A drift rule: its metadata (a [`Rule`] whose single-design check
/// finds nothing, so that `netlint rules`, `explain`, `--select` and
/// `allow` know it) and its check over two designs.
pub struct DriftRule {
    pub rule: Rule,
    pub check: fn(&DriftContext<'_>, &mut Vec<Diagnostic>),
}

/// The single-design check of a drift rule: a drift rule compares two
/// designs and has nothing to say about one.
pub fn no_single_design_check(_: &crate::Context<'_>, _: &mut Vec<Diagnostic>) {}

/// Declares a drift rule: as [`declare_rule!`](crate::declare_rule), with
/// a check over a [`DriftContext`].
#[macro_export]
macro_rules! declare_drift_rule {
    ($name:ident, id: $id:literal, severity: $sev:ident, summary: $summary:literal, check: $check:path $(,)?) => {
        pub static $name: $crate::drift::DriftRule = $crate::drift::DriftRule {
            rule: $crate::Rule {
                meta: $crate::RuleMeta {
                    id: netlint_model::RuleId::declared($id),
                    category: netlint_model::Category::Drift,
                    default_severity: netlint_model::Severity::$sev,
                    summary: $summary,
                    doc: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/rules/", $id, ".md")),
                },
                check: $crate::drift::no_single_design_check,
            },
            check: $check,
        };
    };
}

/// Which side of the comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Design,
    Built,
}

/// What a drift rule sees.
pub struct DriftContext<'d> {
    pub design: &'d Design,
    pub built: &'d Design,
    /// The path the as-built side is shown as: where its labels point.
    pub built_file: String,
    pub drift: Drift,
    /// The as-built's cables to hosts it does not hold, as given (a
    /// difference at [`At::CabledNic`](netlint_analysis::drift::At) names
    /// one by its index).
    pub peers: Vec<CabledPeer>,
    /// The ordinary rules' findings on each side.
    pub design_findings: Vec<Diagnostic>,
    pub built_findings: Vec<Diagnostic>,
    /// Indices into `built_findings` of the findings the design does not
    /// have (same rule, same subject, subjects in design names).
    new_in_built: Vec<usize>,
    /// The texts the two designs were loaded from, when known, and the
    /// levels the ordinary rules ran at: a difference undone in the
    /// as-built text shows which findings it causes.
    sources: Option<Sources<'d>>,
    /// The two sides' spanning trees compared, on first use.
    trees: std::cell::OnceCell<netlint_analysis::drift::trees::TreesCompared>,
    /// Each side's analyses (topology, forwarding), built on first use and
    /// shared by the drift rules that ask them.
    analyses: [std::cell::OnceCell<crate::Context<'d>>; 2],
}

/// The texts of both sides and the ordinary rules' levels, for
/// [`DriftContext::consequence`]'s counterfactual.
struct Sources<'d> {
    design: &'d str,
    built: &'d str,
    config: RuleConfig,
    /// Re-checks left: each undoes one difference and runs every rule on
    /// the as-built, so a run with many differences stops at
    /// [`MAX_UNDONE`] and judges the rest by place alone.
    left: std::cell::Cell<usize>,
}

/// The most differences a run undoes to check their consequences (each a
/// whole check of the as-built design).
pub const MAX_UNDONE: usize = 64;

impl<'d> DriftContext<'d> {
    /// Compares the two designs and runs the ordinary rules on each
    /// (`config`: their levels).
    pub fn new(
        design: &'d Design,
        built: &'d Design,
        built_file: &str,
        config: &RuleConfig,
    ) -> Self {
        Self::with_peers(design, built, built_file, &[], config)
    }

    /// [`DriftContext::new`] with the as-built's cables to hosts it does
    /// not hold ([`CabledPeer`]).
    pub fn with_peers(
        design: &'d Design,
        built: &'d Design,
        built_file: &str,
        peers: &[CabledPeer],
        config: &RuleConfig,
    ) -> Self {
        let drift = drift_with(design, built, peers);
        let design_findings = crate::check(design, config).diagnostics;
        let built_findings = crate::check(built, config).diagnostics;
        let mut cx = DriftContext {
            design,
            built,
            built_file: built_file.to_string(),
            drift,
            peers: peers.to_vec(),
            design_findings,
            built_findings,
            new_in_built: Vec::new(),
            sources: None,
            trees: std::cell::OnceCell::new(),
            analyses: Default::default(),
        };
        let known: BTreeSet<(&str, &Element)> = cx
            .design_findings
            .iter()
            .flat_map(|d| d.subjects.iter().map(move |s| (d.rule.as_str(), s)))
            .collect();
        let new: Vec<usize> = cx
            .built_findings
            .iter()
            .enumerate()
            .filter(|(_, f)| {
                f.subjects.iter().any(|s| match cx.to_design_element(s) {
                    Some(e) => !known.contains(&(f.rule.as_str(), &e)),
                    None => true,
                })
            })
            .map(|(i, _)| i)
            .collect();
        cx.new_in_built = new;
        cx
    }

    /// An as-built element in the design's names (None: it has no match).
    pub fn to_design_element(&self, e: &Element) -> Option<Element> {
        let m = &self.drift.matching;
        let (d, b) = (self.design, self.built);
        Some(match e {
            Element::Design => Element::Design,
            Element::Network(n) => {
                let id = m.networks.design(b.network_by_name(n)?)?;
                Element::Network(d.network(id).name.clone())
            }
            Element::Switch(n) => {
                let id = m.switches.design(b.switch_by_name(n)?)?;
                Element::Switch(d.switch(id).name.clone())
            }
            Element::Link(n) => {
                let id = m.links.design(b.link_by_name(n)?)?;
                Element::Link(d.link(id).name.clone())
            }
            Element::Host(n, part) => {
                let bh = b.host_by_name(n)?;
                let dh = m.hosts.design(bh)?;
                let parts = m.parts.get(&dh)?;
                let (bhost, dhost) = (b.host(bh), d.host(dh));
                let part = match part {
                    Part::Whole => Part::Whole,
                    Part::Nic(x) => {
                        let i = parts.nics.design(bhost.nic_by_name(x)?)?;
                        Part::Nic(dhost.nic(i).name.clone())
                    }
                    Part::Team(x) => {
                        let j = bhost.teams.iter().position(|t| &t.name == x)?;
                        let i = parts.teams.design(netlint_model::TeamIdx(j))?;
                        Part::Team(dhost.teams[i.0].name.clone())
                    }
                    Part::VSwitch(x) => {
                        let j = bhost.vswitches.iter().position(|t| &t.name == x)?;
                        let i = parts.vswitches.design(netlint_model::VSwitchIdx(j))?;
                        Part::VSwitch(dhost.vswitches[i.0].name.clone())
                    }
                    Part::VNic { vswitch, vnic } => {
                        let j = bhost.vswitches.iter().position(|t| &t.name == vswitch)?;
                        let i = parts.vswitches.design(netlint_model::VSwitchIdx(j))?;
                        let k = bhost.vswitches[j]
                            .vnics
                            .iter()
                            .position(|v| &v.name == vnic)?;
                        let l = parts.vnics.get(&i)?.design(k)?;
                        let dv = &dhost.vswitches[i.0];
                        Part::VNic {
                            vswitch: dv.name.clone(),
                            vnic: dv.vnics[l].name.clone(),
                        }
                    }
                };
                Element::Host(dhost.name.clone(), part)
            }
            Element::Profile(..) | Element::Storage(..) => e.clone(),
        })
    }

    /// The as-built finding, of a rule the design passes at that element,
    /// that this difference causes: one that points at the difference's
    /// as-built line, else one about the element the difference is on
    /// (`touched`, in design names, most specific first).
    ///
    /// Where both texts are known and the difference is a value on each
    /// side, a candidate must also go away when that difference alone is
    /// undone in the as-built text (the design's value written over the
    /// as-built one): a finding the as-built fails for another reason (a
    /// link of unknown speed, which an import leaves unstated) is not the
    /// consequence of an MTU or bundle difference on that link.
    pub fn consequence(&self, diff: &Difference, touched: &[Element]) -> Option<&Diagnostic> {
        let new = || self.new_in_built.iter().map(|&i| &self.built_findings[i]);
        let undone = std::cell::OnceCell::new();
        // The differences on the same element, undone with this one: a
        // cause made of two differences at once (one config line that
        // took edge and BPDU guard away together) is still found when
        // undoing either alone leaves the other failing the rule.
        let jointly = std::cell::OnceCell::new();
        let gone = |after: &[Diagnostic], f: &Diagnostic| {
            !after
                .iter()
                .any(|a: &Diagnostic| a.rule == f.rule && a.subjects == f.subjects)
        };
        let caused = |f: &Diagnostic| match undone.get_or_init(|| self.undone(&[diff])) {
            Some(after) if gone(after, f) => true,
            Some(_) => jointly
                .get_or_init(|| {
                    let same: Vec<&Difference> = self
                        .drift
                        .differences
                        .iter()
                        .filter(|o| o.at == diff.at)
                        .collect();
                    if same.len() < 2 {
                        return None;
                    }
                    self.undone(&same)
                })
                .as_ref()
                .is_some_and(|after| gone(after, f)),
            None => true,
        };
        if let Some(at) = diff.span.built {
            let inside = |s: Span| {
                s.start <= at.start && at.end <= s.end || at.start <= s.start && s.end <= at.end
            };
            if let Some(f) = new().find(|f| {
                (f.primary
                    .as_ref()
                    .is_some_and(|p| inside(p.span) && !p.span.is_empty())
                    || f.related
                        .iter()
                        .any(|r| inside(r.span) && !r.span.is_empty()))
                    && caused(f)
            }) {
                return Some(f);
            }
        }
        for t in touched {
            if let Some(f) = new().find(|f| {
                f.subjects
                    .iter()
                    .filter_map(|s| self.to_design_element(s))
                    .any(|s| t.covers(&s) || s.covers(t))
                    && caused(f)
            }) {
                return Some(f);
            }
        }
        None
    }

    /// The ordinary rules' findings on the as-built with `diffs` undone:
    /// the design's value text written over the as-built's. `None` when
    /// that cannot be done faithfully: a text unknown, a side whose span
    /// is no `key = value` value (a table's header, for a value one side
    /// does not state), two differences on one line of the as-built, or a
    /// result that does not load cleanly.
    fn undone(&self, diffs: &[&Difference]) -> Option<Vec<Diagnostic>> {
        let src = self.sources.as_ref()?;
        let left = src.left.get();
        if left == 0 {
            return None;
        }
        let value = |text: &'d str, s: Span| -> Option<&'d str> {
            let v = text.get(s.start..s.end)?;
            let line_start = text[..s.start].rfind('\n').map_or(0, |i| i + 1);
            let before = text[line_start..s.start].trim_end();
            (!v.is_empty() && before.ends_with('=')).then_some(v)
        };
        let mut edits: Vec<(Span, &str)> = Vec::new();
        for diff in diffs {
            let (ds, bs) = (diff.span.design?, diff.span.built?);
            let new = value(src.design, ds)?;
            value(src.built, bs)?;
            edits.push((bs, new));
        }
        // From the end of the text, so that each span still holds.
        edits.sort_by_key(|(s, _)| std::cmp::Reverse(s.start));
        if edits.windows(2).any(|w| w[1].0.end > w[0].0.start) {
            return None;
        }
        src.left.set(left - 1);
        let mut text = src.built.to_string();
        for (bs, new) in edits {
            text.replace_range(bs.start..bs.end, new);
        }
        let loaded = netlint_model::load(&netlint_model::SourceFile::new(
            self.built_file.clone(),
            text,
        ));
        if loaded.diagnostics.iter().any(Diagnostic::is_input_error) {
            return None;
        }
        Some(crate::check(loaded.design.as_ref()?, &src.config).diagnostics)
    }

    /// Whether both sides make the same spanning trees in every VLAN,
    /// healthy and after each single failure
    /// ([`compare_trees`](netlint_analysis::drift::trees::compare_trees)):
    /// computed once, for the rules that judge a spanning-tree setting.
    pub fn trees(&self) -> &netlint_analysis::drift::trees::TreesCompared {
        self.trees.get_or_init(|| {
            netlint_analysis::drift::trees::compare_trees(
                self.design,
                self.built,
                &self.drift.matching,
            )
        })
    }

    /// The analyses of one side (its topology and forwarding), shared.
    pub fn analyses(&self, side: Side) -> &crate::Context<'d> {
        let (i, d) = match side {
            Side::Design => (0, self.design),
            Side::Built => (1, self.built),
        };
        self.analyses[i].get_or_init(|| crate::Context::new(d))
    }

    /// The design of one side.
    pub fn of(&self, side: Side) -> &'d Design {
        match side {
            Side::Design => self.design,
            Side::Built => self.built,
        }
    }
}

/// Every drift rule, in catalogue order.
pub fn drift_registry() -> &'static [&'static DriftRule] {
    crate::rules::drift::RULES
}

/// A drift finding and the as-built place it is about.
#[derive(Clone, Debug)]
pub struct DriftOutcome {
    /// Findings after levels and the design's `allow` tables, sorted.
    pub diagnostics: Vec<Diagnostic>,
    pub suppressed: Vec<crate::Suppressed>,
}

/// Runs every drift rule on the two designs (`built_file`: the path the
/// as-built side is shown as, which its labels name). `config` holds the levels of
/// the design's `[netlint] rules`, netlint.toml and the command line
/// (`--select`, `--ignore`); `ordinary` the levels the ordinary rules run
/// at on both sides to judge each difference's consequence (the files'
/// levels, without the command line's selection, so that `--select
/// drift-vlan` still judges by every rule); the
/// design's `allow` tables apply to drift findings as to any other (their
/// subjects are the design's elements).
pub fn diff(
    design: &Design,
    built: &Design,
    built_file: &str,
    config: &RuleConfig,
    ordinary: &RuleConfig,
) -> DriftOutcome {
    diff_sources(design, built, built_file, None, &[], config, ordinary)
}

/// [`diff`] with the texts the two designs were loaded from (design,
/// as built), so that each difference's consequence is checked by undoing
/// it in the as-built text ([`DriftContext::consequence`]), and the
/// as-built's cables to hosts it does not hold (`peers`).
pub fn diff_sources(
    design: &Design,
    built: &Design,
    built_file: &str,
    texts: Option<(&str, &str)>,
    peers: &[CabledPeer],
    config: &RuleConfig,
    ordinary: &RuleConfig,
) -> DriftOutcome {
    let mut cx = DriftContext::with_peers(design, built, built_file, peers, ordinary);
    cx.sources = texts.map(|(design, built)| Sources {
        design,
        built,
        config: ordinary.clone(),
        left: std::cell::Cell::new(MAX_UNDONE),
    });
    let mut found = Vec::new();
    for rule in drift_registry() {
        if config.level(&rule.rule.meta.id) == Some(Level::Off) {
            continue;
        }
        let mut out = Vec::new();
        (rule.check)(&cx, &mut out);
        // Hosts built alike from one profile share the profile's line:
        // one finding with a subject per host.
        found.extend(crate::rules::merge_alike(out));
    }
    let mut outcome = DriftOutcome {
        diagnostics: Vec::new(),
        suppressed: Vec::new(),
    };
    for mut d in found {
        match config.level(&d.rule) {
            Some(Level::Info) => d.severity = Severity::Info,
            Some(Level::Warning) => d.severity = Severity::Warning,
            Some(Level::Error) => d.severity = Severity::Error,
            _ => {}
        }
        // Each subject is allowed or not on its own, as in `check`.
        let mut kept = Vec::new();
        let mut by_allow: std::collections::BTreeMap<usize, Vec<Element>> = Default::default();
        for s in std::mem::take(&mut d.subjects) {
            let allow = design
                .allows
                .iter()
                .position(|(scope, a)| a.rule.value == d.rule && scope.covers(&s));
            match allow {
                Some(i) => by_allow.entry(i).or_default().push(s),
                None => kept.push(s),
            }
        }
        for (i, subjects) in by_allow {
            let a = &design.allows[i].1;
            let mut sup = d.clone();
            sup.subjects = subjects;
            name_hosts(&mut sup);
            outcome.suppressed.push(crate::Suppressed {
                diagnostic: sup,
                reason: a.reason.clone(),
                allow_span: a.rule.span,
            });
        }
        if !kept.is_empty() {
            d.subjects = kept;
            name_hosts(&mut d);
            outcome.diagnostics.push(d);
        }
    }
    outcome
        .diagnostics
        .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use netlint_model::{load, SourceFile};

    const DESIGN: &str = r#"
[design]
name = "t"
platform = "windows-server-2019"

[networks.smb1]
role = "storage"
protocol = "smb"
vlan = 711

[switches.tor-a]
stp = { mode = "rstp", priority = 4096 }

[switches.tor-b]
stp = { mode = "rstp", priority = 8192 }

[[links]]
a = "tor-a"
b = "tor-b"
speed = "100G"
vlans = [1, 711]
ALLOW

[profiles.p.nics.A]
speed = "25G"
switch = "tor-a"
mtu = 9000
networks = ["smb1"]

[hosts.hv1]
profile = "p"

[hosts.hv2]
profile = "p"
nics.A.switch = "tor-b"
"#;

    fn design(src: &str) -> Design {
        let l = load(&SourceFile::new("t.toml", src));
        assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
        l.design.unwrap()
    }

    fn run(d: &str, b: &str) -> DriftOutcome {
        let c = RuleConfig::default();
        diff(&design(d), &design(b), "built.toml", &c, &c)
    }

    #[test]
    fn a_cut_that_fails_a_rule_is_an_error_naming_it_with_both_places() {
        let d = DESIGN.replace("ALLOW", "");
        let out = run(&d, &d.replace("vlans = [1, 711]", "vlans = [1]"));
        assert_eq!(out.diagnostics.len(), 1, "{:#?}", out.diagnostics);
        let f = &out.diagnostics[0];
        assert_eq!(f.rule, "drift-vlan");
        assert_eq!(f.severity, Severity::Error);
        assert!(
            f.message
                .contains("as built this fails `network-partitioned`, which the design passes"),
            "{}",
            f.message
        );
        assert_eq!(f.related.len(), 1);
        assert_eq!(f.related[0].file.as_deref(), Some("built.toml"));
        assert_eq!(f.subjects, [Element::Link("tor-a--tor-b".into())]);
    }

    #[test]
    fn hosts_built_alike_share_one_finding_at_the_profile_line() {
        let d = DESIGN.replace("ALLOW", "");
        let out = run(&d, &d.replace("mtu = 9000", "mtu = 1500"));
        assert_eq!(out.diagnostics.len(), 1, "{:#?}", out.diagnostics);
        let f = &out.diagnostics[0];
        assert_eq!(f.rule, "drift-mtu");
        assert!(
            f.message
                .starts_with("hosts `hv1`, `hv2`: NIC `A`: MTU 1500 as built, 9000 in the design"),
            "{}",
            f.message
        );
        assert_eq!(f.subjects.len(), 2);
    }

    #[test]
    fn allow_on_the_design_element_suppresses_a_drift_finding() {
        let d = DESIGN.replace(
            "ALLOW",
            "allow = { drift-vlan = \"VLAN 711 moves to the new spine\" }",
        );
        let out = run(&d, &d.replace("vlans = [1, 711]", "vlans = [1]"));
        assert!(out.diagnostics.is_empty(), "{:#?}", out.diagnostics);
        assert_eq!(out.suppressed.len(), 1);
        assert_eq!(out.suppressed[0].reason, "VLAN 711 moves to the new spine");
        // `check` does not call the entry unused: it cannot judge a drift rule.
        let c = crate::check(&design(&d), &RuleConfig::default());
        assert!(
            c.diagnostics.iter().all(|x| x.rule != crate::UNUSED_ALLOW),
            "{:#?}",
            c.diagnostics
        );
    }

    #[test]
    fn drift_rules_never_run_in_check_and_are_known_by_id() {
        let d = design(&DESIGN.replace("ALLOW", ""));
        assert!(crate::check(&d, &RuleConfig::default())
            .diagnostics
            .iter()
            .all(|x| !x.rule.starts_with("drift-")));
        assert!(crate::rule_by_id("drift-vlan").is_some());
        assert_eq!(
            RuleConfig::resolve_selector("drift").unwrap().len(),
            drift_registry().len()
        );
    }
}
