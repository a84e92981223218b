//! One check of one version of an open document: the same run as
//! `netlint check` (the design's `netlint.toml`, `[netlint]` levels, `allow`),
//! its findings, and the loaded design kept for navigation and hover.

use super::index::Index;
use super::text::LineIndex;
use crate::run::files::is_design;
use crate::run::fix::{try_fix, NotApplied};
use crate::run::{
    check_file, check_source, find_config, load_config, CheckSettings, ConfigFile, CONFIG_FILE,
    DEFAULT_MAX_FILE_SIZE,
};
use crate::views::topology::{stp_domains, Domain};
use netlint_analysis::bandwidth::BandwidthModel;
use netlint_analysis::Topology;
use netlint_model::{parse_lint_settings, Design, Diagnostic, SourceFile};
use netlint_rules::RuleConfig;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// What netlint makes of a document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocKind {
    /// A `*.toml` file with a `[design]` table.
    Design,
    /// `netlint.toml`.
    Config,
    /// Anything else: no diagnostics, no answers.
    Other,
}

pub fn doc_kind(path: Option<&Path>, text: &str) -> DocKind {
    let name = path.and_then(|p| p.file_name()).and_then(|n| n.to_str());
    if name == Some(CONFIG_FILE) {
        DocKind::Config
    } else if is_design(text.as_bytes()) {
        DocKind::Design
    } else {
        DocKind::Other
    }
}

/// The text of the `netlint.toml` at a path, when the editor has it open
/// (its unsaved text is what counts).
pub type OpenText<'a> = &'a dyn Fn(&Path) -> Option<String>;

/// A config from the editor's text, as `run::load_config` reads one from
/// disk.
fn config_from_text(path: &Path, text: String) -> ConfigFile {
    let file = SourceFile::new(path.to_string_lossy(), text);
    let (settings, diagnostics) = parse_lint_settings(&file);
    ConfigFile {
        file,
        settings,
        diagnostics,
    }
}

/// A fix tried on a copy of the document: the edited text, or why it was
/// not kept.
pub type FixOutcome = Result<String, NotApplied>;

/// The result of checking one version of a document.
pub struct Analysis {
    pub version: i32,
    pub kind: DocKind,
    pub file: SourceFile,
    pub lines: LineIndex,
    /// Findings and input errors, sorted as `netlint check` sorts them.
    pub diagnostics: Vec<Diagnostic>,
    /// The design, when it loaded without input errors.
    pub design: Option<Arc<Design>>,
    pub index: Index,
    /// The `netlint.toml` the design was checked with.
    pub config: Option<PathBuf>,
    /// Its text as read, for checking an edited copy the same way.
    pub config_file: Option<ConfigFile>,
    /// Per finding, its fix tried on a copy (computed on the first code
    /// action request that meets it).
    pub fixes: Vec<OnceLock<Option<FixOutcome>>>,
    stp: OnceLock<Vec<Domain>>,
    bandwidth: OnceLock<(Topology, BandwidthModel)>,
}

impl Analysis {
    /// Checks `text` (the document at `path`, if it has one).
    pub fn new(path: Option<&Path>, text: String, version: i32, open: OpenText<'_>) -> Analysis {
        let kind = doc_kind(path, &text);
        let shown = path.map_or_else(
            || "untitled.toml".to_string(),
            |p| p.to_string_lossy().into_owned(),
        );
        let file = SourceFile::new(shown, text);
        let lines = LineIndex::new(&file.text);
        let mut a = Analysis {
            version,
            kind,
            file,
            lines,
            diagnostics: Vec::new(),
            design: None,
            index: Index::default(),
            config: None,
            config_file: None,
            fixes: Vec::new(),
            stp: OnceLock::new(),
            bandwidth: OnceLock::new(),
        };
        match kind {
            DocKind::Design => {
                let config = path.and_then(find_config).map(|cp| {
                    let c = match open(&cp) {
                        Some(text) => config_from_text(&cp, text),
                        None => load_config(
                            &cp,
                            cp.to_string_lossy().into_owned(),
                            DEFAULT_MAX_FILE_SIZE,
                        ),
                    };
                    (cp, c)
                });
                let (diagnostics, _, _, design) = check_file(
                    &a.file,
                    config.as_ref().map(|(_, c)| c),
                    &CheckSettings::default(),
                );
                a.diagnostics = diagnostics;
                a.index = design
                    .as_ref()
                    .map(|d| Index::build(d, &a.file.text))
                    .unwrap_or_default();
                a.design = design.map(Arc::new);
                a.fixes = a.diagnostics.iter().map(|_| OnceLock::new()).collect();
                (a.config, a.config_file) = config.unzip();
            }
            DocKind::Config => {
                // As `netlint check` reports a netlint.toml: its own problems
                // and rule ids it does not know.
                let (settings, mut diagnostics) = parse_lint_settings(&a.file);
                diagnostics.extend(RuleConfig::default().apply(&settings.rules));
                diagnostics.sort_by(|x, y| x.sort_key().cmp(&y.sort_key()));
                a.diagnostics = diagnostics;
            }
            DocKind::Other => {}
        }
        a
    }

    /// The spanning trees of the design, computed on the first hover that
    /// needs them.
    pub fn stp(&self) -> Option<&[Domain]> {
        let d = self.design.as_deref()?;
        Some(self.stp.get_or_init(|| stp_domains(d)))
    }

    /// The fix of finding `i` tried as `netlint check --fix` tries it: made
    /// to a copy of the text, kept only when the check of the copy (same
    /// `netlint.toml`) no longer has the finding and has nothing new.
    /// `None` when the finding has no fix or the design did not load.
    pub fn fix(&self, i: usize) -> Option<&FixOutcome> {
        self.fixes
            .get(i)?
            .get_or_init(|| {
                let d = self.diagnostics.get(i)?;
                let fix = d.fix.as_ref()?;
                self.design.as_ref()?;
                let settings = CheckSettings::default();
                let check = |text: &str| {
                    let f = SourceFile::new(self.file.path.clone(), text.to_string());
                    check_source(&f, self.config_file.as_ref(), &settings).0
                };
                Some(try_fix(&self.file.text, &self.diagnostics, d, fix, &check).map(|(t, _)| t))
            })
            .as_ref()
    }

    /// The topology and the host bandwidth model, computed on first use.
    pub fn bandwidth(&self) -> Option<&(Topology, BandwidthModel)> {
        let d = self.design.as_deref()?;
        Some(self.bandwidth.get_or_init(|| {
            let topo = Topology::build(d);
            let model = BandwidthModel::build(d, &topo);
            (topo, model)
        }))
    }
}
