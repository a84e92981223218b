//! `netlint diff`: the design against the network as built. Loads both
//! sides, takes the design's `netlint.toml` and `[netlint]` settings, runs
//! the drift rules (`netlint_rules::drift`), applies the baseline and
//! decides the exit code as `check` does. Knows no command, no renderer.

use super::config::{config_for, load_config, shown as config_shown};
use super::configs::move_label;
use super::files::DEFAULT_MAX_FILE_SIZE;
use super::findings::{threshold, FileReport, Report};
use super::graft::{graft_hosts, Graft, Origin as GraftOrigin};
use super::lint::{BaselineOutcome, CheckRun, CheckSettings};
use super::repo::RepoPaths;
use netlint_analysis::drift::CabledPeer;
use netlint_import::design::SourceMap;
use netlint_model::{load, Diagnostic, FailOn, Label, SourceFile};
use netlint_rules::drift::{diff_sources, drift_registry};
use netlint_rules::{input_rules, registry, RuleConfig};
use std::path::Path;

/// Every rule a diff report describes: input, ordinary and drift rules.
fn all_rules() -> Vec<netlint_model::RuleMeta> {
    input_rules()
        .into_iter()
        .chain(registry().iter().map(|r| r.meta))
        .chain(drift_registry().iter().map(|r| r.rule.meta))
        .collect()
}

/// Compares the design (`design`, read from `design_path` when it is a
/// file, which decides its `netlint.toml`) with the as-built design
/// `built`. When `built` was written by the importer (`imported_from`: its
/// source map and the files it read), each as-built label points at the
/// config, LLDP or cabling line its value came from, and stays on the
/// imported design's line where the value has no such line (a vendor
/// default, which the label then names), and `peers` are its cables to
/// hosts the import noted (a design NIC they name sits at that port as
/// built). Input errors on either side are reported against their file
/// and exit 2; nothing is compared then.
pub fn run_diff(
    design: SourceFile,
    design_path: Option<&Path>,
    built: SourceFile,
    imported_from: Option<(SourceMap, Vec<SourceFile>)>,
    peers: &[CabledPeer],
    settings: &CheckSettings,
) -> Result<CheckRun, String> {
    RuleConfig::default().select(&settings.select, &settings.ignore)?;
    let fail_default = settings.fail_on.unwrap_or(FailOn::Warning);
    let mut report = Report {
        files: Vec::new(),
        rules: all_rules(),
        sources: Vec::new(),
    };
    let mut read = Vec::new();
    let loaded = load(&design);
    let built_loaded = load(&built);
    let mut input_error = false;
    for (file, diags) in [
        (&design, &loaded.diagnostics),
        (&built, &built_loaded.diagnostics),
    ] {
        if diags.iter().any(Diagnostic::is_input_error) {
            input_error = true;
            report.files.push(FileReport {
                file: file.clone(),
                diagnostics: diags.clone(),
                design: None,
                fail_on: fail_default,
            });
        }
    }
    let (Some(d), Some(b), false) = (&loaded.design, &built_loaded.design, input_error) else {
        return Ok(CheckRun {
            report,
            suppressed: Vec::new(),
            exit: 2,
            baselined: None,
            read,
            skipped: Vec::new(),
            import_summary: Vec::new(),
        });
    };
    // Levels as `check` takes them: netlint.toml, then the design's
    // `[netlint] rules`; the command line's selection on top for the
    // drift rules only.
    let mut ordinary = RuleConfig::default();
    let mut fail_on = FailOn::Warning;
    let mut diagnostics = Vec::new();
    let at = design_path
        .map(Path::to_path_buf)
        .unwrap_or_else(|| std::path::PathBuf::from(&design.path));
    if let Some(cp) = config_for(&settings.config, &at) {
        let c = load_config(
            &cp,
            config_shown(&cp),
            settings.max_file_size.unwrap_or(DEFAULT_MAX_FILE_SIZE),
        );
        read.push(cp.clone());
        if c.has_input_errors() {
            report.files.push(FileReport {
                file: c.file.clone(),
                diagnostics: c.diagnostics.clone(),
                design: None,
                fail_on: fail_default,
            });
            return Ok(CheckRun {
                report,
                suppressed: Vec::new(),
                exit: 2,
                baselined: None,
                read,
                skipped: Vec::new(),
                import_summary: Vec::new(),
            });
        }
        let _ = ordinary.apply(&c.settings.rules);
        if let Some(f) = &c.settings.fail_on {
            fail_on = f.value;
        }
        if let Some(s) = &c.settings.stack_as_unit {
            ordinary.stack_as_unit = Some(s.value);
        }
    }
    diagnostics.extend(ordinary.apply(&d.lint.rules));
    if let Some(f) = &d.lint.fail_on {
        fail_on = f.value;
    }
    if let Some(s) = &d.lint.stack_as_unit {
        ordinary.stack_as_unit = Some(s.value);
    }
    if settings.stack_as_unit {
        ordinary.stack_as_unit = Some(true);
    }
    if let Some(f) = settings.fail_on {
        fail_on = f;
    }
    let mut config = ordinary.clone();
    config.select(&settings.select, &settings.ignore)?;
    // An as-built side without hosts is judged with the design's hosts on
    // it, cabled as built where its cabling says so.
    let graft = graft_hosts(&design, d, &built, b, peers);
    let grafted = graft.as_ref().and_then(|g| {
        let file = SourceFile::new(built.path.clone(), g.text.clone());
        load(&file).design.map(|x| (file, x))
    });
    let (built_text, b) = match &grafted {
        Some((file, x)) => (file.text.as_str(), x),
        None => (built.text.as_str(), b),
    };
    let outcome = diff_sources(
        d,
        b,
        &built.path,
        Some((&design.text, built_text)),
        peers,
        &config,
        &ordinary,
    );
    let mut found = outcome.diagnostics;
    if let (Some(g), Some(_)) = (&graft, &grafted) {
        for f in &mut found {
            f.related = from_graft(std::mem::take(&mut f.related), &built, g);
        }
    }
    if let Some((map, from)) = imported_from {
        for f in &mut found {
            f.related = to_source_lines(std::mem::take(&mut f.related), &built, &map, &from);
        }
        report.sources.extend(from);
    }
    diagnostics.extend(found);
    diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    let repo = RepoPaths::discover();
    let mut matcher = settings.baseline.as_ref().map(|b| b.matcher());
    if let Some(m) = &mut matcher {
        m.filter(&repo.relative(&design.path), &mut diagnostics);
    }
    let exit = if diagnostics.iter().any(Diagnostic::is_input_error) {
        2
    } else if threshold(fail_on).is_some_and(|t| diagnostics.iter().any(|x| x.severity >= t)) {
        1
    } else {
        0
    };
    let suppressed = outcome
        .suppressed
        .into_iter()
        .map(|s| (design.path.clone(), s))
        .collect();
    report.sources.push(built);
    report.files.push(FileReport {
        file: design,
        diagnostics,
        design: settings
            .keep_designs
            .then(|| std::sync::Arc::new(d.clone())),
        fail_on,
    });
    Ok(CheckRun {
        report,
        suppressed,
        exit,
        baselined: matcher.map(|m| BaselineOutcome {
            hidden: m.hidden(),
            fixed: m.fixed(),
        }),
        read,
        skipped: Vec::new(),
        import_summary: Vec::new(),
    })
}

/// Labels on the grafted text ([`graft_hosts`]) moved back to the
/// as-built text, or to the cabling row that set a grafted NIC's switch
/// or port; a label on a grafted line (a design host's own value) has no
/// as-built line and is left out.
fn from_graft(labels: Vec<Label>, built: &SourceFile, g: &Graft) -> Vec<Label> {
    labels
        .into_iter()
        .filter_map(|mut l| {
            if l.file.as_deref() != Some(built.path.as_str()) {
                return Some(l);
            }
            match g.to_built(l.span) {
                GraftOrigin::Built(s) => {
                    l.span = s;
                    Some(l)
                }
                GraftOrigin::Row(file, span) => Some(Label::in_file(file, span, l.message)),
                GraftOrigin::Grafted => None,
            }
        })
        .collect()
}

/// Labels on the imported design's lines moved, by the import's source
/// map, to the lines of the files they were imported from (and the other
/// lines the value came from, the other end of a link); a value set by a
/// vendor default stays on the imported design's line, and says so; a
/// value inferred from lines goes to them and says it was inferred.
fn to_source_lines(
    labels: Vec<Label>,
    built: &SourceFile,
    map: &SourceMap,
    from: &[SourceFile],
) -> Vec<Label> {
    let mut out = Vec::new();
    for mut l in labels {
        if l.file.as_deref() != Some(built.path.as_str()) {
            out.push(l);
            continue;
        }
        let also = move_label(&mut l, map, from);
        let message = l.message.clone();
        out.push(l);
        out.extend(
            also.into_iter()
                .map(|(f, s)| Label::in_file(f, s, message.clone())),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use netlint_import::{parse, Document, Kind, Vendor};

    /// `netlint diff` against imported configs: a label on a value
    /// inferred from a line moves to that line and says it was inferred;
    /// one on a configured value moves and says nothing more.
    #[test]
    fn a_drift_label_on_an_inferred_value_says_so() {
        let text = "hostname leaf1\nvlan 10\ninterface Ethernet1\n   switchport access vlan 10\ninterface Ethernet2\n   switchport mode access\n   switchport access vlan 10\n";
        let cabling = "leaf1,Ethernet1,hv1,NIC1\nleaf1,Ethernet2,hv2,NIC1\n";
        let docs: Vec<Document> = vec![
            parse("leaf1.cfg", text, Some(Kind::Config(Vendor::Eos))).unwrap(),
            parse("cabling.csv", cabling, None).unwrap(),
        ];
        let imported = netlint_import::design::to_design(&docs, "imported");
        let built = SourceFile::new("<imported>", imported.toml.clone());
        let from = [
            SourceFile::new("leaf1.cfg", text.to_string()),
            SourceFile::new("cabling.csv", cabling.to_string()),
        ];
        let label = |port: &str| {
            let t = imported.toml.find(port).unwrap();
            let at = t + imported.toml[t..].find("access_vlan").unwrap();
            Label::in_file("<imported>", (at..at + 16).into(), "as built: VLAN 10")
        };
        let moved = to_source_lines(
            vec![label("\"Ethernet1\"]"), label("\"Ethernet2\"]")],
            &built,
            &imported.map,
            &from,
        );
        assert_eq!(moved.len(), 2, "{moved:?}");
        assert_eq!(moved[0].file.as_deref(), Some("leaf1.cfg"));
        assert_eq!(
            moved[0].message,
            format!(
                "as built: VLAN 10 (inferred, not configured: {})",
                netlint_import::defaults::ACCESS_INFERRED
            )
        );
        assert_eq!(moved[1].file.as_deref(), Some("leaf1.cfg"));
        assert_eq!(moved[1].message, "as built: VLAN 10");
    }
}
