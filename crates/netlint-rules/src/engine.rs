//! Runs the rules over a design, then applies configured levels and the
//! design's `allow` tables.

use crate::phrases::words::name_hosts;
use crate::rules::all;
use crate::{Context, Rule};
use netlint_model::fast_hash::Map as HashMap;
use netlint_model::nearest;
use netlint_model::{
    AllowEntry, Category, Design, Diagnostic, Element, Fix, FixEdit, Level, Part, RuleId, RuleMeta,
    Severity, Sp, Span, TomlPath, SCHEMA, SYNTAX,
};
use std::collections::BTreeMap;

/// Every rule of the catalogue, in registry order.
pub fn registry() -> &'static [&'static Rule] {
    all()
}

/// Every rule netlint has: those `check` runs, then the drift rules
/// (`netlint diff` only).
fn every() -> impl Iterator<Item = &'static Rule> {
    all()
        .iter()
        .copied()
        .chain(crate::drift::drift_registry().iter().map(|d| &d.rule))
}

/// A rule by its id, drift rules included.
pub fn rule_by_id(id: &str) -> Option<&'static Rule> {
    every().find(|r| r.meta.id == id)
}

pub const UNUSED_ALLOW: &str = "unused-allow";

pub use netlint_model::UNREADABLE;

/// The id of the rule (of the catalogue, or of the loader's) named `name`,
/// if there is one: the only way to get a [`RuleId`] outside the places
/// that declare rules.
pub fn rule_id(name: &str) -> Option<RuleId> {
    every()
        .map(|r| r.meta)
        .chain(input_rules())
        .map(|m| m.id)
        .find(|id| *id == name)
}

/// The ids that are not rules of the catalogue but appear in output:
/// input errors and the check of `allow` tables themselves.
pub fn input_rules() -> Vec<RuleMeta> {
    vec![
        RuleMeta {
            id: RuleId::declared(SYNTAX),
            category: Category::Input,
            default_severity: Severity::Error,
            summary: "The file is not valid TOML.",
            doc: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/rules/syntax.md")),
        },
        RuleMeta {
            id: RuleId::declared(SCHEMA),
            category: Category::Input,
            default_severity: Severity::Error,
            summary: "The design does not follow the format: unknown key, bad value, or dangling reference.",
            doc: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/rules/schema.md")),
        },
        RuleMeta {
            id: RuleId::declared(UNREADABLE),
            category: Category::Input,
            default_severity: Severity::Error,
            summary: "A file or directory to check cannot be read: missing, permission denied, not a regular file, a loop of links, or over the size limit.",
            doc: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/rules/unreadable.md")),
        },
        RuleMeta {
            id: RuleId::declared(UNUSED_ALLOW),
            category: Category::Input,
            default_severity: Severity::Warning,
            summary: "An `allow` entry suppresses nothing: its rule never fires on that element, or the rule does not exist.",
            doc: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/rules/unused-allow.md")),
        },
    ]
}

fn known_id(id: &str) -> bool {
    rule_by_id(id).is_some() || input_rules().iter().any(|m| m.id == id)
}

/// Rule levels chosen by the user (netlint.toml < design < command line).
#[derive(Clone, Debug, Default)]
pub struct RuleConfig {
    pub levels: BTreeMap<String, Level>,
    /// Fail each stack as a whole: `Some` from the command line (or a
    /// netlint.toml the design does not override); `None` leaves it to the
    /// design's `[netlint] stack_as_unit` (default false).
    pub stack_as_unit: Option<bool>,
}

impl RuleConfig {
    /// Adds the levels of a `[netlint] rules` table, reporting unknown ids
    /// (with the nearest valid one) as `schema` errors at their key.
    pub fn apply(&mut self, rules: &[(Sp<String>, Sp<Level>)]) -> Vec<Diagnostic> {
        let mut diags = Vec::new();
        for (id, level) in rules {
            if known_id(&id.value) && id.value != SYNTAX && id.value != SCHEMA {
                self.levels.insert(id.value.clone(), level.value);
            } else {
                diags.push(unknown_rule_diagnostic(&id.value, id.span));
            }
        }
        diags
    }

    pub fn level(&self, id: &str) -> Option<Level> {
        self.levels.get(id).copied()
    }

    /// Applies the command line's `--select` and `--ignore` over the levels
    /// read from the files (the command line has the last word): only the
    /// rules `select` names run (every rule when it is empty), minus those
    /// `ignore` names. A rule selected by its id runs even where a file
    /// turned it off; one selected through its category keeps the file's
    /// level. `syntax` and `schema` always run: they are the loader's.
    /// Names are rule ids or categories; an unknown one is an error with the
    /// nearest valid name.
    pub fn select(&mut self, select: &[String], ignore: &[String]) -> Result<(), String> {
        if let Some(input) = ignore
            .iter()
            .find(|n| *n == SYNTAX || *n == SCHEMA || *n == UNREADABLE)
        {
            return Err(format!(
                "`{input}` cannot be ignored: a design that does not load cannot be checked"
            ));
        }
        let selected = resolve_selectors(select)?;
        let ignored = resolve_selectors(ignore)?;
        for id in all_ids() {
            if id == SYNTAX || id == SCHEMA || id == UNREADABLE {
                continue;
            }
            let runs = (select.is_empty() || selected.contains(&id)) && !ignored.contains(&id);
            if !runs {
                self.levels.insert(id.to_string(), Level::Off);
            } else if select.iter().any(|s| s == id) && self.level(id) == Some(Level::Off) {
                self.levels.remove(id);
            }
        }
        Ok(())
    }

    /// The categories of every rule (with `input` for the loader's own
    /// ids), sorted.
    pub fn categories() -> Vec<&'static str> {
        categories()
    }

    /// The rule ids a `--select` / `--ignore` name stands for (see
    /// [`RuleConfig::select`]).
    pub fn resolve_selector(name: &str) -> Result<Vec<&'static str>, String> {
        resolve_selector(name)
    }
}

fn categories() -> Vec<&'static str> {
    let mut cats: Vec<&'static str> = every()
        .map(|r| r.meta.category.as_str())
        .chain(input_rules().iter().map(|m| m.category.as_str()))
        .collect();
    cats.sort_unstable();
    cats.dedup();
    cats
}

/// The rule itself, or every rule of a category. An unknown name is an
/// error that suggests the nearest rule id or category.
fn resolve_selector(name: &str) -> Result<Vec<&'static str>, String> {
    let name = name.trim();
    if let Some(id) = all_ids().into_iter().find(|id| *id == name) {
        return Ok(vec![id]);
    }
    let in_category: Vec<&'static str> = every()
        .map(|r| r.meta)
        .chain(input_rules())
        .filter(|m| m.category.as_str() == name)
        .map(|m| m.id.as_str())
        .collect();
    if !in_category.is_empty() {
        return Ok(in_category);
    }
    let ids = all_ids();
    let cats = categories();
    let hint = match nearest(name, ids.iter().chain(cats.iter()).copied()) {
        Some(n) => format!(", did you mean `{n}`?"),
        None => String::new(),
    };
    Err(format!(
        "unknown rule or category `{name}`{hint} (`netlint rules` lists both)"
    ))
}

fn resolve_selectors(names: &[String]) -> Result<Vec<&'static str>, String> {
    let mut out = Vec::new();
    for n in names {
        out.extend(resolve_selector(n)?);
    }
    Ok(out)
}

/// "unknown rule `x`, did you mean `y`?" as a `schema` error.
pub fn unknown_rule_diagnostic(id: &str, span: Span) -> Diagnostic {
    let ids: Vec<&str> = all_ids();
    let hint = match nearest(id, ids.iter().copied()) {
        Some(n) => format!(", did you mean `{n}`?"),
        None => String::new(),
    };
    Diagnostic::schema(span, format!("unknown rule `{id}`{hint}"))
        .with_help("`netlint rules` lists every rule id")
}

pub fn all_ids() -> Vec<&'static str> {
    every()
        .map(|r| r.meta.id.as_str())
        .chain(input_rules().iter().map(|m| m.id.as_str()))
        .collect()
}

/// A finding an `allow` entry suppressed, with the reason given.
#[derive(Clone, Debug)]
pub struct Suppressed {
    pub diagnostic: Diagnostic,
    pub reason: String,
    pub allow_span: Span,
}

#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// Findings after levels and allows, sorted by position then rule.
    pub diagnostics: Vec<Diagnostic>,
    pub suppressed: Vec<Suppressed>,
}

/// The design's `allow` entries by rule and element, so finding the entry
/// that covers a subject costs a lookup per level of the subject, however
/// many hosts a profile copied its entries onto.
struct AllowIndex<'d> {
    first: HashMap<(&'d str, &'d Element), usize>,
}

impl<'d> AllowIndex<'d> {
    fn new(design: &'d Design) -> Self {
        let mut first = HashMap::default();
        for (i, (scope, a)) in design.allows.iter().enumerate() {
            first.entry((a.rule.value.as_str(), scope)).or_insert(i);
        }
        AllowIndex { first }
    }

    /// The first entry (in design order) for `rule` on an element that
    /// [covers](Element::covers) `subject`: the subject itself, its host,
    /// or the virtual switch of a vNIC.
    fn first_for(&self, rule: &str, subject: &Element) -> Option<usize> {
        let mut scopes = vec![subject.clone()];
        if let Element::Host(h, part) | Element::Profile(h, part) = subject {
            let whole = |p: Part| match subject {
                Element::Host(..) => Element::Host(h.clone(), p),
                _ => Element::Profile(h.clone(), p),
            };
            if let Part::VNic { vswitch, .. } = part {
                scopes.push(whole(Part::VSwitch(vswitch.clone())));
            }
            if *part != Part::Whole {
                scopes.push(whole(Part::Whole));
            }
        }
        scopes
            .iter()
            .filter_map(|scope| self.first.get(&(rule, scope)).copied())
            .min()
    }
}

/// Each rule's findings, in the order of `rules`. The rules about hosts
/// (teaming, traffic, vSphere: the bandwidth model) and those about the
/// fabric (spanning tree, MTU paths, failures: forwarding and reachability)
/// mostly need different analyses, so the two groups run on two threads
/// and the analyses of each are computed while the other's are; what both
/// need is computed once, by whichever asks first. The result does not
/// depend on the threads: each rule's findings land in its own slot.
fn run_rules(cx: &Context<'_>, rules: &[&Rule]) -> Vec<Vec<Diagnostic>> {
    type Numbered<'r> = (usize, &'r Rule);
    let run = |picked: &[Numbered<'_>]| -> Vec<(usize, Vec<Diagnostic>)> {
        picked
            .iter()
            .map(|(i, rule)| {
                let mut out = Vec::new();
                (rule.check)(cx, &mut out);
                (*i, out)
            })
            .collect()
    };
    let (hosts, fabric): (Vec<Numbered<'_>>, Vec<Numbered<'_>>) =
        rules.iter().copied().enumerate().partition(|(_, r)| {
            matches!(
                r.meta.category,
                Category::Teaming | Category::Traffic | Category::Vsphere
            )
        });
    let done: Vec<(usize, Vec<Diagnostic>)> = if hosts.is_empty() || fabric.is_empty() {
        run(&rules.iter().copied().enumerate().collect::<Vec<_>>())
    } else {
        std::thread::scope(|s| {
            // The main thread's stack size, not a spawned thread's default.
            let other = std::thread::Builder::new()
                .name("netlint-host-rules".into())
                .stack_size(8 << 20)
                .spawn_scoped(s, || run(&hosts));
            let mut done = run(&fabric);
            match other.map(|t| t.join()) {
                Ok(Ok(more)) => done.extend(more),
                Ok(Err(panic)) => std::panic::resume_unwind(panic),
                // No thread to be had: run them here.
                Err(_) => done.extend(run(&hosts)),
            }
            done
        })
    };
    let mut slots: Vec<Vec<Diagnostic>> = vec![Vec::new(); rules.len()];
    for (i, out) in done {
        slots[i] = out;
    }
    slots
}

/// Runs every rule on the design.
pub fn check(design: &Design, config: &RuleConfig) -> Outcome {
    check_with_context(design, config).0
}

/// [`check`], and the context with every analysis it computed: a process
/// about to exit can leave it to the operating system
/// (`std::mem::forget`) instead of freeing hundreds of thousands of
/// allocations one by one (a twentieth of a large check's time).
pub fn check_with_context<'d>(design: &'d Design, config: &RuleConfig) -> (Outcome, Context<'d>) {
    let stack_as_unit = config
        .stack_as_unit
        .or(design.lint.stack_as_unit.as_ref().map(|s| s.value))
        .unwrap_or(false);
    let cx = Context::new(design).with_stack_as_unit(stack_as_unit);
    let enabled: Vec<&Rule> = all()
        .iter()
        .copied()
        .filter(|r| config.level(&r.meta.id) != Some(Level::Off))
        .collect();
    let at_override = crate::rules::located::AtOverride::new(design);
    let found: Vec<Diagnostic> = run_rules(&cx, &enabled)
        .into_iter()
        .flatten()
        .map(|d| at_override.apply(d))
        .collect();
    let allows = AllowIndex::new(design);
    let mut outcome = Outcome::default();
    let mut used = vec![false; design.allows.len()];
    for mut d in found {
        match config.level(&d.rule) {
            Some(Level::Off) => continue,
            Some(Level::Info) => d.severity = Severity::Info,
            Some(Level::Warning) => d.severity = Severity::Warning,
            Some(Level::Error) => d.severity = Severity::Error,
            None => {}
        }
        // Each subject is allowed or not on its own: a finding on hosts
        // hv1 and hv2 with hv2 allowed still reports hv1, and hv2 is
        // suppressed by the entry that covers it.
        let mut by_allow: BTreeMap<usize, Vec<Element>> = BTreeMap::new();
        let mut kept = Vec::with_capacity(d.subjects.len());
        for s in std::mem::take(&mut d.subjects) {
            match allows.first_for(&d.rule, &s) {
                Some(i) => by_allow.entry(i).or_default().push(s),
                None => kept.push(s),
            }
        }
        for (i, subjects) in by_allow {
            used[i] = true;
            let a = &design.allows[i].1;
            let mut sup = d.clone();
            sup.subjects = subjects;
            name_hosts(&mut sup);
            outcome.suppressed.push(Suppressed {
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
    if config.level(UNUSED_ALLOW) != Some(Level::Off) {
        outcome
            .diagnostics
            .extend(unused_allows(design, &used, config));
    }
    outcome
        .diagnostics
        .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    (outcome, cx)
}

/// Allow entries that suppressed nothing. A profile's allow is copied onto
/// every host using it, so an entry counts as used when any copy was.
fn unused_allows(design: &Design, used: &[bool], config: &RuleConfig) -> Vec<Diagnostic> {
    let mut by_span: BTreeMap<(Span, &str), (bool, &Element, &AllowEntry)> = BTreeMap::new();
    for (i, (scope, a)) in design.allows.iter().enumerate() {
        let e = by_span
            .entry((a.rule.span, a.rule.value.as_str()))
            .or_insert((false, scope, a));
        e.0 |= used[i];
    }
    let severity = match config.level(UNUSED_ALLOW) {
        Some(Level::Info) => Severity::Info,
        Some(Level::Error) => Severity::Error,
        _ => Severity::Warning,
    };
    let mut out = Vec::new();
    for ((span, rule), (was_used, scope, entry)) in by_span {
        if was_used {
            continue;
        }
        let mut d = if rule_by_id(rule).is_none() {
            let ids = all_ids();
            let hint = match nearest(rule, ids.iter().copied()) {
                Some(n) => format!(", did you mean `{n}`?"),
                None => String::new(),
            };
            Diagnostic::new(
                UNUSED_ALLOW,
                severity,
                scope.clone(),
                format!("`allow` names unknown rule `{rule}`{hint}"),
            )
            .with_help("`netlint rules` lists every rule id")
        } else if config.level(rule) == Some(Level::Off)
            || rule_by_id(rule).is_some_and(|r| r.meta.category == Category::Drift)
        {
            // A drift rule fires under `netlint diff` only: `check` cannot
            // tell whether its `allow` is used.
            continue;
        } else {
            Diagnostic::new(
                UNUSED_ALLOW,
                severity,
                scope.clone(),
                format!(
                    "`allow` for `{rule}` on `{}` suppresses nothing: the rule does not fire there",
                    scope.path()
                ),
            )
            .with_help("remove the entry, so that a later regression is not hidden")
            .with_fix(remove_allow(entry))
        };
        d.primary = Some(netlint_model::Label::new(span, "allowed here"));
        out.push(d);
    }
    out
}

/// The fix of an `allow` entry that suppresses nothing: the entry removed
/// (its line, or its part of an inline table). Safe: the rule does not fire
/// there, so no finding comes back; if it ever does, it is reported again.
fn remove_allow(entry: &AllowEntry) -> Option<Fix> {
    if entry.path.segments().is_empty() {
        return None;
    }
    let where_ = match entry.path.segments() {
        [parent @ .., _, _] if !parent.is_empty() => {
            format!(" of `{}`", TomlPath(parent.to_vec()))
        }
        _ => String::new(),
    };
    Some(Fix::safe(
        format!(
            "remove the `allow` entry for `{}`{where_}",
            entry.rule.value
        ),
        vec![FixEdit::remove(
            entry.path.clone(),
            entry.reason.as_str(),
            entry.reason_span,
        )],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allow_index_finds_what_a_scan_would() {
        let src = r#"
[design]
name = "t"
[switches.tor]
allow = { "host-port-not-edge" = "lab" }
[profiles.p]
allow = { "mtu-mismatch" = "rollout" }
[hosts.hv01]
profile = "p"
allow = { "power-profile" = "bios locked", "mtu-mismatch" = "own" }
[hosts.hv01.nics.A]
speed = "10G"
switch = "tor"
allow = { "mtu-mismatch" = "nic" }
[hosts.hv010]
profile = "p"
"#;
        let design =
            netlint_model::load(&netlint_model::SourceFile::new("t.toml", src.to_string()))
                .design
                .expect("loads");
        let index = AllowIndex::new(&design);
        let scan = |rule: &str, element: &Element| {
            design
                .allows
                .iter()
                .position(|(scope, a)| a.rule.value == rule && scope.covers(element))
        };
        let nic = |h: &str, n: &str| Element::Host(h.into(), Part::Nic(n.into()));
        for rule in [
            "mtu-mismatch",
            "power-profile",
            "host-port-not-edge",
            "l2-loop",
        ] {
            for element in [
                Element::host("hv01"),
                nic("hv01", "A"),
                nic("hv01", "B"),
                Element::host("hv010"),
                nic("hv010", "A"),
                Element::Profile("p".into(), Part::Whole),
                Element::Switch("tor".into()),
                Element::Switch("tor2".into()),
                Element::Network("x".into()),
            ] {
                assert_eq!(
                    index.first_for(rule, &element),
                    scan(rule, &element),
                    "{rule} {element:?}"
                );
            }
        }
        assert!(index.first_for("mtu-mismatch", &nic("hv01", "A")).is_some());
        assert!(index
            .first_for("host-port-not-edge", &Element::Switch("tor2".into()))
            .is_none());
    }

    /// Three hosts from one profile share a finding at the profile's line;
    /// hv2 allows it.
    const SHARED: &str = r#"
[design]
name = "t"
[networks.lm]
role = "live-migration"
vlan = 30
[switches.sw]
[profiles.p]
power = "balanced"
[profiles.p.nics.A]
speed = "25G"
switch = "sw"
networks = ["lm"]
[hosts.hv1]
profile = "p"
[hosts.hv2]
profile = "p"
ALLOW
[hosts.hv3]
profile = "p"
"#;

    fn power_findings(src: &str) -> Outcome {
        let loaded = netlint_model::load(&netlint_model::SourceFile::new("t.toml", src));
        assert!(loaded.diagnostics.is_empty(), "{:#?}", loaded.diagnostics);
        let mut c = RuleConfig::default();
        c.select(&sel(&["power-profile"]), &[]).unwrap();
        check(&loaded.design.unwrap(), &c)
    }

    #[test]
    fn a_finding_shared_by_hosts_is_one_diagnostic_with_a_subject_per_host() {
        let out = power_findings(&SHARED.replace("ALLOW", ""));
        assert_eq!(out.diagnostics.len(), 1, "{:#?}", out.diagnostics);
        let d = &out.diagnostics[0];
        assert_eq!(
            d.subjects,
            ["hv1", "hv2", "hv3"].map(Element::host).to_vec()
        );
        assert_eq!(d.element(), "hosts.hv1");
        assert!(
            d.message
                .starts_with("hosts `hv1`, `hv2`, `hv3`: power plan `balanced`"),
            "{}",
            d.message
        );
    }

    #[test]
    fn allow_on_one_host_takes_that_host_out_of_a_shared_finding() {
        let out = power_findings(&SHARED.replace(
            "ALLOW",
            "allow = { \"power-profile\" = \"lab box, plan set by the BIOS\" }",
        ));
        assert_eq!(out.diagnostics.len(), 1, "{:#?}", out.diagnostics);
        let d = &out.diagnostics[0];
        assert_eq!(d.subjects, [Element::host("hv1"), Element::host("hv3")]);
        assert!(
            d.message.starts_with("hosts `hv1`, `hv3`: power plan"),
            "{}",
            d.message
        );
        assert_eq!(out.suppressed.len(), 1);
        let s = &out.suppressed[0];
        assert_eq!(s.diagnostic.subjects, [Element::host("hv2")]);
        assert!(
            s.diagnostic.message.starts_with("host `hv2`: power plan"),
            "{}",
            s.diagnostic.message
        );
        assert_eq!(s.reason, "lab box, plan set by the BIOS");
    }

    fn sel(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn selectors_resolve_ids_and_categories() {
        assert_eq!(
            RuleConfig::resolve_selector("mtu-mismatch").unwrap(),
            ["mtu-mismatch"]
        );
        let teaming = RuleConfig::resolve_selector("teaming").unwrap();
        assert!(teaming.len() > 1);
        assert!(teaming
            .iter()
            .all(|id| rule_by_id(id).unwrap().meta.category == Category::Teaming));
        assert_eq!(
            RuleConfig::resolve_selector("input").unwrap(),
            [SYNTAX, SCHEMA, UNREADABLE, UNUSED_ALLOW]
        );
        assert!(RuleConfig::categories().contains(&"input"));
    }

    #[test]
    fn unknown_selectors_suggest_the_nearest_name() {
        let e = RuleConfig::resolve_selector("mtu-mismatc").unwrap_err();
        assert!(
            e.contains("unknown rule or category `mtu-mismatc`, did you mean `mtu-mismatch`?"),
            "{e}"
        );
        let e = RuleConfig::resolve_selector("teamin").unwrap_err();
        assert!(e.contains("did you mean `teaming`?"), "{e}");
        let e = RuleConfig::resolve_selector("zzzzzzzzzz").unwrap_err();
        assert!(!e.contains("did you mean"), "{e}");
    }

    #[test]
    fn select_turns_off_everything_else() {
        let mut c = RuleConfig::default();
        c.select(&sel(&["mtu-mismatch"]), &[]).unwrap();
        assert_eq!(c.level("mtu-mismatch"), None);
        assert_eq!(c.level(UNUSED_ALLOW), Some(Level::Off));
        for r in registry().iter().filter(|r| r.meta.id != "mtu-mismatch") {
            assert_eq!(c.level(&r.meta.id), Some(Level::Off), "{}", r.meta.id);
        }
        // The loader's ids are never turned off.
        assert_eq!(c.level(SYNTAX), None);
        assert_eq!(c.level(SCHEMA), None);
    }

    #[test]
    fn ignore_wins_over_select_and_keeps_the_rest() {
        let mut c = RuleConfig::default();
        c.select(&[], &sel(&["teaming"])).unwrap();
        for r in registry() {
            let off = c.level(&r.meta.id) == Some(Level::Off);
            assert_eq!(off, r.meta.category == Category::Teaming, "{}", r.meta.id);
        }
        let mut c = RuleConfig::default();
        c.select(&sel(&["mtu"]), &sel(&["mtu-mismatch"])).unwrap();
        assert_eq!(c.level("mtu-mismatch"), Some(Level::Off));
    }

    #[test]
    fn an_id_on_the_command_line_overrides_off_in_a_file_a_category_does_not() {
        let mut c = RuleConfig::default();
        c.levels.insert("mtu-mismatch".into(), Level::Off);
        c.select(&sel(&["mtu"]), &[]).unwrap();
        assert_eq!(c.level("mtu-mismatch"), Some(Level::Off));
        c.select(&sel(&["mtu-mismatch"]), &[]).unwrap();
        assert_eq!(c.level("mtu-mismatch"), None);
        // A level other than off is kept.
        let mut c = RuleConfig::default();
        c.levels.insert("mtu-mismatch".into(), Level::Info);
        c.select(&sel(&["mtu-mismatch"]), &[]).unwrap();
        assert_eq!(c.level("mtu-mismatch"), Some(Level::Info));
    }

    #[test]
    fn select_reports_unknown_names() {
        let mut c = RuleConfig::default();
        assert!(c.select(&sel(&["nope-nope-nope"]), &[]).is_err());
        assert!(c.select(&[], &sel(&["mtu-mismach"])).is_err());
        let e = c.select(&[], &sel(&["schema"])).unwrap_err();
        assert!(e.contains("`schema` cannot be ignored"), "{e}");
    }
}
