//! Every rule's page (`rules/<id>.md` of this crate) is its single source
//! of docs, and its examples are executed: the failing example must make
//! the rule fire, the passing one must load cleanly and keep it silent.

use netlint_model::{load, SourceFile};
use netlint_rules::drift::{diff, drift_registry};
use netlint_rules::{check, input_rules, registry, RuleConfig};
use std::path::Path;

/// ```toml fails / ```toml passes blocks of a page.
fn examples(doc: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in doc.lines() {
        match &mut current {
            None => {
                if let Some(info) = line.trim_start().strip_prefix("```toml ") {
                    let kind = info.trim();
                    if [
                        "fails",
                        "passes",
                        "design",
                        "as-built fails",
                        "as-built passes",
                    ]
                    .contains(&kind)
                    {
                        current = Some((kind.to_string(), String::new()));
                    }
                }
            }
            Some((_, body)) => {
                if line.trim_start().starts_with("```") {
                    out.push(current.take().unwrap());
                } else {
                    body.push_str(line);
                    body.push('\n');
                }
            }
        }
    }
    out
}

#[test]
fn every_rule_has_a_page_with_executed_examples() {
    assert!(!registry().is_empty());
    for rule in registry() {
        let id = rule.meta.id;
        let doc = rule.meta.doc;
        let ex: Vec<(String, String)> = examples(doc)
            .into_iter()
            .filter(|(k, _)| k == "fails" || k == "passes")
            .collect();
        assert!(
            doc.starts_with(&format!("# {id}\n")),
            "rules/{id}.md must start with `# {id}`"
        );
        for section in ["## What it does", "## Why it matters", "## How to fix"] {
            assert!(doc.contains(section), "rules/{id}.md lacks `{section}`");
        }
        assert!(
            ex.iter().any(|(k, _)| k == "fails"),
            "rules/{id}.md has no ```toml fails example"
        );
        assert!(
            ex.iter().any(|(k, _)| k == "passes"),
            "rules/{id}.md has no ```toml passes example"
        );
        for (i, (kind, text)) in ex.iter().enumerate() {
            let loaded = load(&SourceFile::new(format!("{id}.md#{i}"), text.clone()));
            assert!(
                loaded.diagnostics.is_empty(),
                "rules/{id}.md example {i} ({kind}) does not load cleanly: {:#?}",
                loaded.diagnostics
            );
            let design = loaded.design.expect("loaded");
            let outcome = check(&design, &RuleConfig::default());
            let fired: Vec<_> = outcome
                .diagnostics
                .iter()
                .filter(|d| id == d.rule)
                .collect();
            if kind == "fails" {
                assert!(
                    !fired.is_empty(),
                    "rules/{id}.md example {i} should make `{id}` fire"
                );
            } else {
                assert!(
                    fired.is_empty(),
                    "rules/{id}.md example {i} should keep `{id}` silent: {fired:#?}"
                );
            }
        }
    }
}

fn load_example(name: String, text: &str) -> netlint_model::Design {
    let loaded = load(&SourceFile::new(name.clone(), text.to_string()));
    assert!(
        loaded.diagnostics.is_empty(),
        "{name} does not load cleanly: {:#?}",
        loaded.diagnostics
    );
    loaded.design.expect("loaded")
}

/// A drift rule's page has the design, an as-built that makes the rule
/// fire against it and one that keeps it silent; all three load cleanly.
#[test]
fn every_drift_rule_has_a_page_with_executed_examples() {
    assert!(!drift_registry().is_empty());
    for rule in drift_registry() {
        let id = rule.rule.meta.id;
        let doc = rule.rule.meta.doc;
        for section in ["## What it does", "## Why it matters", "## How to fix"] {
            assert!(doc.contains(section), "rules/{id}.md lacks `{section}`");
        }
        // Which side of a drift is right is the operator's call: no drift
        // rule carries a fix, and its page says so.
        assert_eq!(
            fix_section(id.as_str(), doc),
            FixSays::None,
            "rules/{id}.md"
        );
        let ex = examples(doc);
        let block = |kind: &str| -> Vec<&String> {
            ex.iter()
                .filter(|(k, _)| k == kind)
                .map(|(_, t)| t)
                .collect()
        };
        let designs = block("design");
        assert_eq!(
            designs.len(),
            1,
            "rules/{id}.md needs one ```toml design block"
        );
        let design = load_example(format!("{id}.md#design"), designs[0]);
        let fails = block("as-built fails");
        let passes = block("as-built passes");
        assert!(
            !fails.is_empty(),
            "rules/{id}.md has no ```toml as-built fails"
        );
        assert!(
            !passes.is_empty(),
            "rules/{id}.md has no ```toml as-built passes"
        );
        let config = RuleConfig::default();
        for (i, text) in fails.iter().enumerate() {
            let built = load_example(format!("{id}.md#fails{i}"), text);
            let out = diff(&design, &built, "as-built.toml", &config, &config);
            assert!(
                out.diagnostics.iter().any(|d| id == d.rule),
                "rules/{id}.md as-built example {i} should make `{id}` fire: {:#?}",
                out.diagnostics
            );
        }
        for (i, text) in passes.iter().enumerate() {
            let built = load_example(format!("{id}.md#passes{i}"), text);
            let out = diff(&design, &built, "as-built.toml", &config, &config);
            let fired: Vec<_> = out.diagnostics.iter().filter(|d| id == d.rule).collect();
            assert!(
                fired.is_empty(),
                "rules/{id}.md as-built example {i} should keep `{id}` silent: {fired:#?}"
            );
        }
    }
}

#[test]
fn every_page_belongs_to_a_rule() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let mut ids: Vec<&str> = registry().iter().map(|r| r.meta.id.as_str()).collect();
    ids.extend(drift_registry().iter().map(|r| r.rule.meta.id.as_str()));
    ids.extend(input_rules().iter().map(|m| m.id.as_str()));
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        if let Some(id) = name.strip_suffix(".md") {
            if id == "README" {
                continue;
            }
            assert!(
                ids.contains(&id),
                "rules/{name} has no rule in the registry"
            );
        }
    }
}

#[test]
fn ids_are_unique_and_kebab_case() {
    let mut seen = std::collections::BTreeSet::new();
    for rule in registry() {
        let id = rule.meta.id;
        assert!(seen.insert(id), "duplicate rule id {id}");
        assert!(
            id.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "{id}"
        );
        assert!(!rule.meta.summary.is_empty());
    }
}

/// The page's header (the summary under the title, the category and the
/// default severity) says what `declare_rule!` says: the macro is the one
/// place they are stated, the page repeats them for readers.
#[test]
fn every_page_header_agrees_with_its_rule() {
    let metas = registry()
        .iter()
        .map(|r| r.meta)
        .chain(drift_registry().iter().map(|r| r.rule.meta))
        .chain(input_rules())
        .collect::<Vec<_>>();
    let mut wrong = Vec::new();
    for m in metas {
        let id = m.id;
        let mut paras = m.doc.split("\n\n").map(str::trim);
        let title = paras.next().unwrap_or_default();
        let summary = paras.next().unwrap_or_default();
        let facts = paras.next().unwrap_or_default();
        if title != format!("# {id}") {
            wrong.push(format!("rules/{id}.md: title `{title}`"));
        }
        if summary != m.summary {
            wrong.push(format!(
                "rules/{id}.md: summary\n  page: {summary}\n  rule: {}",
                m.summary
            ));
        }
        let expected = format!(
            "**Category:** {} · **Default severity:** {}",
            m.category, m.default_severity
        );
        // A rule whose severity depends on a role says so after it.
        if facts != expected && !facts.starts_with(&format!("{expected} (")) {
            wrong.push(format!(
                "rules/{id}.md: `{facts}`, the rule says `{expected}`"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// What a page's `## Fix` section says of the rule's fix.
#[derive(Debug, PartialEq)]
enum FixSays {
    Safe,
    Judgement,
    None,
}

/// The text of a page's `## Fix` section.
fn fix_text(doc: &str) -> &str {
    doc.split_once("\n## Fix\n").map_or("", |(_, rest)| rest)
}

fn fix_section(id: &str, doc: &str) -> FixSays {
    let Some((_, rest)) = doc.split_once("\n## Fix\n") else {
        panic!("rules/{id}.md lacks `## Fix`");
    };
    let first = rest.trim_start();
    if first.starts_with("**Safe**: ") {
        FixSays::Safe
    } else if first.starts_with("**Needs judgement**: ") {
        FixSays::Judgement
    } else if first.starts_with("**None**: ") {
        FixSays::None
    } else {
        panic!("rules/{id}.md: `## Fix` must open with **Safe**, **Needs judgement** or **None**, and why")
    }
}

/// Every page says whether its rule's findings carry a fix, and the failing
/// examples agree: a safe fix on every finding of a `Safe` rule, no safe
/// fix from a rule whose fixes need judgement, no fix at all from `None`.
#[test]
fn every_page_says_what_its_fix_is_and_the_examples_agree() {
    use netlint_model::FixSafety;
    for m in input_rules() {
        // An `allow` entry that suppresses nothing is removed (issue 35);
        // the other input findings need the user's words.
        // A misspelt value with one near valid one is renamed (`schema`).
        let says = if m.id == "unused-allow" || m.id == "schema" {
            FixSays::Safe
        } else {
            FixSays::None
        };
        assert_eq!(fix_section(m.id.as_str(), m.doc), says, "{}", m.id);
    }
    for rule in registry() {
        let id = rule.meta.id;
        let says = fix_section(id.as_str(), rule.meta.doc);
        for (i, (kind, text)) in examples(rule.meta.doc).iter().enumerate() {
            if kind != "fails" {
                continue;
            }
            let design = load(&SourceFile::new(format!("{id}.md#{i}"), text.clone()))
                .design
                .expect("loaded");
            let outcome = check(&design, &RuleConfig::default());
            for d in outcome.diagnostics.iter().filter(|d| id == d.rule) {
                let safety = d.fix.as_ref().map(|f| f.safety);
                match says {
                    // A page may name the cases without a fix after the
                    // safe ones (`**Safe**: when ... **None** when ...`).
                    FixSays::Safe if safety.is_none() => assert!(
                        fix_text(rule.meta.doc).contains("**None** when"),
                        "rules/{id}.md example {i}: a safe rule's finding without a fix, and the page names no case without one"
                    ),
                    FixSays::Safe => assert_eq!(
                        safety,
                        Some(FixSafety::Safe),
                        "rules/{id}.md example {i}: a safe rule's finding whose fix needs judgement"
                    ),
                    FixSays::Judgement => assert_ne!(
                        safety,
                        Some(FixSafety::Safe),
                        "rules/{id}.md example {i}: its fixes need judgement, yet one is safe"
                    ),
                    FixSays::None => assert_eq!(
                        safety, None,
                        "rules/{id}.md example {i}: the page says no fix, the finding has one"
                    ),
                }
            }
        }
    }
}
