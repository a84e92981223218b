//! Runs the rules over a design, then applies configured levels and the
//! design's `allow` tables.

use crate::rules::all;
use crate::{Context, Rule};
use netlint_model::nearest;
use netlint_model::{Design, Diagnostic, Level, RuleMeta, Severity, Sp, Span, SCHEMA, SYNTAX};
use std::collections::{BTreeMap, HashMap};

/// Every rule of the catalogue, in registry order.
pub fn registry() -> &'static [&'static Rule] {
    all()
}

pub fn rule_by_id(id: &str) -> Option<&'static Rule> {
    all().iter().copied().find(|r| r.meta.id == id)
}

pub const UNUSED_ALLOW: &str = "unused-allow";

/// A path that could not be read: missing, permission denied, not a
/// regular file, a loop of links, or over the size limit.
pub const UNREADABLE: &str = "unreadable";

/// The ids that are not rules of the catalogue but appear in output:
/// input errors and the check of `allow` tables themselves.
pub fn input_rules() -> Vec<RuleMeta> {
    vec![
        RuleMeta {
            id: SYNTAX,
            category: "input",
            default_severity: Severity::Error,
            summary: "The file is not valid TOML.",
            doc: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../rules/syntax.md")),
        },
        RuleMeta {
            id: SCHEMA,
            category: "input",
            default_severity: Severity::Error,
            summary: "The design does not follow the format: unknown key, bad value, or dangling reference.",
            doc: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../rules/schema.md")),
        },
        RuleMeta {
            id: UNREADABLE,
            category: "input",
            default_severity: Severity::Error,
            summary: "A file or directory to check cannot be read: missing, permission denied, not a regular file, a loop of links, or over the size limit.",
            doc: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../rules/unreadable.md")),
        },
        RuleMeta {
            id: UNUSED_ALLOW,
            category: "input",
            default_severity: Severity::Warning,
            summary: "An `allow` entry suppresses nothing: its rule never fires on that element, or the rule does not exist.",
            doc: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../rules/unused-allow.md")),
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
    let mut cats: Vec<&'static str> = all()
        .iter()
        .map(|r| r.meta.category)
        .chain(input_rules().iter().map(|m| m.category))
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
    let in_category: Vec<&'static str> = all()
        .iter()
        .map(|r| r.meta)
        .chain(input_rules())
        .filter(|m| m.category == name)
        .map(|m| m.id)
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
    all()
        .iter()
        .map(|r| r.meta.id)
        .chain(input_rules().iter().map(|m| m.id))
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

/// Whether an `allow` on `scope` covers `element`: the element itself or
/// anything inside it (`hosts.hv01` covers `hosts.hv01.nics.A`, not
/// `hosts.hv010`).
#[cfg(test)]
fn within(element: &str, scope: &str) -> bool {
    element == scope
        || (element.starts_with(scope) && element.as_bytes().get(scope.len()) == Some(&b'.'))
}

/// The design's `allow` entries by rule and scope, so finding the entry
/// that covers a finding costs a lookup per level of its element, however
/// many hosts a profile copied its entries onto.
struct AllowIndex<'d> {
    first: HashMap<(&'d str, &'d str), usize>,
}

impl<'d> AllowIndex<'d> {
    fn new(design: &'d Design) -> Self {
        let mut first = HashMap::new();
        for (i, (scope, a)) in design.allows.iter().enumerate() {
            first
                .entry((a.rule.value.as_str(), scope.as_str()))
                .or_insert(i);
        }
        AllowIndex { first }
    }

    /// The first entry (in design order) for `rule` whose scope is
    /// `element` or one of its ancestors, as [`within`] defines them.
    fn first_for(&self, rule: &str, element: &str) -> Option<usize> {
        let ancestors = element
            .match_indices('.')
            .map(|(i, _)| &element[..i])
            .chain(std::iter::once(element));
        ancestors
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
    let (hosts, fabric): (Vec<Numbered<'_>>, Vec<Numbered<'_>>) = rules
        .iter()
        .copied()
        .enumerate()
        .partition(|(_, r)| matches!(r.meta.category, "teaming" | "traffic" | "vsphere"));
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
    let cx = Context::new(design);
    let enabled: Vec<&Rule> = all()
        .iter()
        .copied()
        .filter(|r| config.level(r.meta.id) != Some(Level::Off))
        .collect();
    let found: Vec<Diagnostic> = run_rules(&cx, &enabled).into_iter().flatten().collect();
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
        let allow = allows.first_for(&d.rule, &d.element);
        match allow {
            Some(i) => {
                used[i] = true;
                let a = &design.allows[i].1;
                outcome.suppressed.push(Suppressed {
                    diagnostic: d,
                    reason: a.reason.clone(),
                    allow_span: a.rule.span,
                });
            }
            None => outcome.diagnostics.push(d),
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
    outcome
        .diagnostics
        .dedup_by(|a, b| a.primary == b.primary && a.message == b.message && a.rule == b.rule);
    outcome
}

/// Allow entries that suppressed nothing. A profile's allow is copied onto
/// every host using it, so an entry counts as used when any copy was.
fn unused_allows(design: &Design, used: &[bool], config: &RuleConfig) -> Vec<Diagnostic> {
    let mut by_span: BTreeMap<(Span, &str), (bool, &str)> = BTreeMap::new();
    for (i, (scope, a)) in design.allows.iter().enumerate() {
        let e = by_span
            .entry((a.rule.span, a.rule.value.as_str()))
            .or_insert((false, scope.as_str()));
        e.0 |= used[i];
    }
    let severity = match config.level(UNUSED_ALLOW) {
        Some(Level::Info) => Severity::Info,
        Some(Level::Error) => Severity::Error,
        _ => Severity::Warning,
    };
    let mut out = Vec::new();
    for ((span, rule), (was_used, scope)) in by_span {
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
                scope,
                format!("`allow` names unknown rule `{rule}`{hint}"),
            )
            .with_help("`netlint rules` lists every rule id")
        } else if config.level(rule) == Some(Level::Off) {
            continue;
        } else {
            Diagnostic::new(
                UNUSED_ALLOW,
                severity,
                scope,
                format!("`allow` for `{rule}` on `{scope}` suppresses nothing: the rule does not fire there"),
            )
            .with_help("remove the entry, so that a later regression is not hidden")
        };
        d.primary = Some(netlint_model::Label::new(span, "allowed here"));
        out.push(d);
    }
    out
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
        let scan = |rule: &str, element: &str| {
            design
                .allows
                .iter()
                .position(|(scope, a)| a.rule.value == rule && within(element, scope))
        };
        for rule in [
            "mtu-mismatch",
            "power-profile",
            "host-port-not-edge",
            "l2-loop",
        ] {
            for element in [
                "hosts.hv01",
                "hosts.hv01.nics.A",
                "hosts.hv01.nics.B",
                "hosts.hv010",
                "hosts.hv010.nics.A",
                "hosts",
                "switches.tor",
                "switches.tor2",
                "networks.x",
            ] {
                assert_eq!(
                    index.first_for(rule, element),
                    scan(rule, element),
                    "{rule} {element}"
                );
            }
        }
        assert!(index
            .first_for("mtu-mismatch", "hosts.hv01.nics.A")
            .is_some());
        assert!(index
            .first_for("host-port-not-edge", "switches.tor2")
            .is_none());
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
            .all(|id| rule_by_id(id).unwrap().meta.category == "teaming"));
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
            assert_eq!(c.level(r.meta.id), Some(Level::Off), "{}", r.meta.id);
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
            let off = c.level(r.meta.id) == Some(Level::Off);
            assert_eq!(off, r.meta.category == "teaming", "{}", r.meta.id);
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
