//! SARIF 2.1.0, shaped for GitHub code scanning.
//!
//! GitHub needs more than the schema demands: rule metadata with help text
//! (shown in the alert), a repository-relative `artifactLocation.uri` with
//! `uriBaseId` so it can link to the file, a full region, and a
//! `partialFingerprints` entry so an alert survives lines moving above it.
//! The log is built from `#[derive(Serialize)]` structs rather than
//! `serde_json::json!` so the field order, and so the bytes, do not depend on
//! whether some crate in the build turns on serde_json's `preserve_order`.
//!
//! The fingerprint and path helpers here are shared with the GitLab and
//! GitHub renderers: the same finding must carry the same identity in every
//! format (and in baselines).

use std::collections::HashMap;

use netlint_model::{Diagnostic, Label, RuleMeta, Severity, SourceFile};
use netlint_rules::Suppressed;
use serde::Serialize;

use crate::run::fix::replacements;
use crate::run::{normalize_path, Report};

const SCHEMA_URI: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
const INFORMATION_URI: &str = "https://github.com/netlint/netlint";
const RULE_DOC_BASE: &str =
    "https://github.com/netlint/netlint/blob/main/crates/netlint-rules/rules";
/// The uriBaseId GitHub resolves to the checkout root.
const SRCROOT: &str = "%SRCROOT%";

/// Renders the report as a pretty-printed SARIF log.
///
/// `repo_path` maps a path as the user gave it to the path relative to the
/// repository root (the CLI knows the working directory and the root; this
/// renderer stays pure). Its result is normalised here: backslashes become
/// slashes, `./` segments go, and the URI is percent-encoded.
///
/// `allowed` are findings an `allow` entry suppressed, by file path (what
/// `--show-allowed` lists): each becomes a result with an `inSource`
/// suppression giving the entry's reason and place, which SARIF viewers show
/// as dismissed rather than open. Pass none to leave them out, the default,
/// since not every consumer honours `suppressions`.
pub fn render(
    report: &Report,
    allowed: &[(String, Suppressed)],
    repo_path: &dyn Fn(&str) -> String,
) -> String {
    render_with_version(report, allowed, repo_path, env!("CARGO_PKG_VERSION"))
}

/// [`render`] with the tool version passed in, so snapshots do not change
/// with every release.
fn render_with_version(
    report: &Report,
    allowed: &[(String, Suppressed)],
    repo_path: &dyn Fn(&str) -> String,
    version: &str,
) -> String {
    let log = build_log(report, allowed, repo_path, version);
    let mut out = serde_json::to_string_pretty(&log).expect("a SARIF log always serialises");
    out.push('\n');
    out
}

fn build_log<'a>(
    report: &'a Report,
    allowed: &'a [(String, Suppressed)],
    repo_path: &dyn Fn(&str) -> String,
    version: &'a str,
) -> Log<'a> {
    let rule_index: HashMap<&str, usize> = report
        .rules
        .iter()
        .enumerate()
        .map(|(i, r)| (r.id.as_str(), i))
        .collect();
    let mut fingerprints = Fingerprints::default();
    let mut results = Vec::new();
    // One fix object per edit set: findings that share one edit (a finding
    // per host of one profile line) carry it once, on the first of them;
    // the others point at that result, so that applying every fix of the
    // log never makes an edit twice.
    // A fix whose edits meet another carried fix's (two findings each
    // adding the same key with other values) cannot be applied with it:
    // it is left out too, and its result names the one it conflicts
    // with (`netlint check --fix` applies them one after the other).
    let mut fix_carriers: HashMap<String, usize> = HashMap::new();
    let mut carried: Vec<(String, usize, usize, usize)> = Vec::new();
    let mut once = |mut r: SarifResult<'a>, index: usize| -> SarifResult<'a> {
        let Some(fix) = r.fixes.first() else {
            return r;
        };
        let key = serde_json::to_string(&fix.artifact_changes)
            .expect("an artifact change always serialises");
        if let Some(&first) = fix_carriers.get(&key) {
            r.fixes.clear();
            r.properties = Some(ResultProperties {
                fix_on_result: Some(first),
                fix_conflicts_with_result: None,
            });
            return r;
        }
        let ranges: Vec<(String, usize, usize)> = fix
            .artifact_changes
            .iter()
            .flat_map(|c| {
                c.replacements.iter().map(|x| {
                    let d = &x.deleted_region;
                    (
                        c.artifact_location.uri.clone(),
                        d.byte_offset,
                        d.byte_length,
                    )
                })
            })
            .collect();
        let meets = |(f, a, al): &(String, usize, usize), (g, b, bl): (&String, usize, usize)| {
            f == g && (a == &b || (*a < b + bl && b < a + al))
        };
        if let Some(other) = carried
            .iter()
            .find(|(g, b, bl, _)| ranges.iter().any(|x| meets(x, (g, *b, *bl))))
        {
            r.properties = Some(ResultProperties {
                fix_on_result: None,
                fix_conflicts_with_result: Some(other.3),
            });
            r.fixes.clear();
            return r;
        }
        fix_carriers.insert(key, index);
        carried.extend(ranges.into_iter().map(|(f, a, l)| (f, a, l, index)));
        r
    };
    for file_report in &report.files {
        let file = &file_report.file;
        let path = normalize_path(&repo_path(&file.path));
        let artifact = ArtifactLocation::new(&path);
        let place = Places {
            report,
            own: file,
            artifact: &artifact,
            repo_path,
        };
        for diag in &file_report.diagnostics {
            // Keyed on the plain path, not the encoded URI, so GitLab's
            // report and baselines carry the same fingerprint.
            let fingerprint = fingerprints.next(diag, file, &path);
            let r = once(
                result(diag, &place, &rule_index, fingerprint),
                results.len(),
            );
            results.push(r);
        }
        for (_, sup) in allowed.iter().filter(|(p, _)| *p == file.path) {
            let diag = &sup.diagnostic;
            let fingerprint = fingerprints.next(diag, file, &path);
            let mut r = once(
                result(diag, &place, &rule_index, fingerprint),
                results.len(),
            );
            r.suppressions.push(Suppression {
                kind: "inSource",
                justification: sup.reason.clone(),
                location: Location {
                    id: None,
                    physical_location: physical(
                        &artifact,
                        file,
                        Some(&Label::new(sup.allow_span, "")),
                    ),
                    logical_locations: Vec::new(),
                    message: None,
                },
            });
            results.push(r);
        }
    }
    Log {
        schema: SCHEMA_URI,
        version: "2.1.0",
        runs: [Run {
            tool: Tool {
                driver: Driver {
                    name: "netlint",
                    version,
                    information_uri: INFORMATION_URI,
                    rules: report.rules.iter().map(rule_descriptor).collect(),
                },
            },
            // Our columns count characters (see SourceFile::line_col), not
            // the UTF-16 units a consumer would otherwise assume.
            column_kind: "unicodeCodePoints",
            results,
        }],
    }
}

fn rule_descriptor(rule: &RuleMeta) -> ReportingDescriptor<'_> {
    // A rule whose page is still missing is described by its summary rather
    // than by empty strings.
    let doc = if rule.doc.trim().is_empty() {
        rule.summary
    } else {
        rule.doc
    };
    let first_paragraph = first_paragraph(doc);
    ReportingDescriptor {
        id: rule.id.as_str(),
        name: upper_camel_case(rule.id.as_str()),
        short_description: Text {
            text: rule.summary.to_owned(),
        },
        full_description: Text {
            text: if first_paragraph.is_empty() {
                rule.summary.to_owned()
            } else {
                first_paragraph
            },
        },
        help: Help {
            text: markdown_to_text(doc),
            markdown: doc,
        },
        default_configuration: Configuration {
            level: level(rule.default_severity),
        },
        help_uri: format!("{RULE_DOC_BASE}/{}.md", rule.id),
        properties: Properties {
            tags: [rule.category.as_str()],
        },
    }
}

/// What places a label of one reported file: the run (for labels in other
/// files), the file itself and its artifact.
struct Places<'r> {
    report: &'r Report,
    own: &'r SourceFile,
    artifact: &'r ArtifactLocation,
    repo_path: &'r dyn Fn(&str) -> String,
}

impl Places<'_> {
    /// The physical location of `label`, in the reported file or in the
    /// other file it names (no region when the run kept no text of it).
    fn of(&self, label: Option<&Label>) -> Physical {
        match label {
            Some(l) if l.file.as_deref().is_some_and(|f| f != self.own.path) => {
                let path = Report::label_path(self.own, l);
                Physical {
                    artifact_location: ArtifactLocation::new(&normalize_path(&(self.repo_path)(
                        path,
                    ))),
                    region: self
                        .report
                        .label_file(self.own, l)
                        .map(|f| region(f.range(l.span))),
                }
            }
            _ => physical(self.artifact, self.own, label),
        }
    }
}

fn result<'a>(
    diag: &'a Diagnostic,
    place: &Places,
    rule_index: &HashMap<&str, usize>,
    fingerprint: String,
) -> SarifResult<'a> {
    let text = match &diag.help {
        Some(help) => format!("{}\n\nhelp: {help}", diag.message),
        None => diag.message.clone(),
    };
    let location = Location {
        id: None,
        physical_location: place.of(diag.primary.as_ref()),
        logical_locations: diag
            .subject_paths()
            .into_iter()
            .map(|fully_qualified_name| LogicalLocation {
                fully_qualified_name,
                kind: "object",
            })
            .collect(),
        message: diag
            .primary
            .as_ref()
            .filter(|l| !l.message.is_empty())
            .map(|l| Text {
                text: l.message.clone(),
            }),
    };
    let related_locations = diag
        .related
        .iter()
        .enumerate()
        .map(|(i, label)| Location {
            id: Some(i + 1),
            physical_location: place.of(Some(label)),
            logical_locations: Vec::new(),
            // SARIF requires a message on a related location to show it; an
            // unlabelled span still deserves a word.
            message: Some(Text {
                text: if label.message.is_empty() {
                    "related location".to_owned()
                } else {
                    label.message.clone()
                },
            }),
        })
        .collect();
    let fixes = diag
        .fix
        .as_ref()
        .and_then(|fix| sarif_fix(fix, place.own, place.artifact))
        .into_iter()
        .collect();
    SarifResult {
        rule_id: &diag.rule,
        rule_index: rule_index.get(diag.rule.as_str()).copied(),
        level: level(diag.severity),
        message: Text { text },
        locations: [location],
        related_locations,
        partial_fingerprints: PartialFingerprints {
            netlint: fingerprint,
        },
        suppressions: Vec::new(),
        fixes,
        properties: None,
    }
}

/// A finding's fix as SARIF states it: the lines it replaces in the design
/// and their new text (`None` when the edit cannot be made to this text).
fn sarif_fix(
    fix: &netlint_model::Fix,
    file: &SourceFile,
    artifact: &ArtifactLocation,
) -> Option<SarifFix> {
    let replacements = replacements(&file.text, fix).ok()?;
    if replacements.is_empty() {
        return None;
    }
    Some(SarifFix {
        description: Text {
            text: fix.description.clone(),
        },
        artifact_changes: [ArtifactChange {
            artifact_location: artifact.clone(),
            replacements: replacements
                .into_iter()
                .map(|r| {
                    let (start, end) = file.range(r.deleted);
                    SarifReplacement {
                        deleted_region: DeletedRegion {
                            start_line: start.line,
                            start_column: start.column,
                            end_line: end.line,
                            end_column: end.column,
                            byte_offset: r.deleted.start,
                            byte_length: r.deleted.len(),
                        },
                        inserted_content: Text { text: r.inserted },
                    }
                })
                .collect(),
        }],
        properties: FixProperties {
            safety: fix.safety.as_str(),
        },
    })
}

fn physical(artifact: &ArtifactLocation, file: &SourceFile, label: Option<&Label>) -> Physical {
    Physical {
        artifact_location: artifact.clone(),
        region: label.map(|l| region(file.range(l.span))),
    }
}

fn region((start, end): (netlint_model::LineCol, netlint_model::LineCol)) -> Region {
    Region {
        start_line: start.line,
        start_column: start.column,
        end_line: end.line,
        end_column: end.column,
    }
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

// ---------------------------------------------------------------------------
// Shared with the other machine formats.

/// FNV-1a, 64 bit. Hand-written because std's `DefaultHasher` may change
/// between Rust releases, and a fingerprint that changes with the compiler
/// would reopen every alert and invalidate every baseline.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes
        .iter()
        .fold(OFFSET, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(PRIME))
}

/// Hands out one fingerprint per diagnostic, in report order.
///
/// The key is rule + repository-relative path + element path: never a line
/// or a message, so a finding keeps its identity when lines move or the
/// wording improves. A diagnostic without an element (an input error) adds
/// the whitespace-normalised text under its primary span instead, which also
/// survives lines moving. When two diagnostics still share a key, the second
/// and later get `-2`, `-3`, ... so that no consumer merges them into one.
#[derive(Debug, Default)]
pub struct Fingerprints {
    seen: HashMap<u64, usize>,
}

impl Fingerprints {
    pub fn next(&mut self, diag: &Diagnostic, file: &SourceFile, repo_path: &str) -> String {
        let element = diag.element();
        let mut key = format!("{}\0{}\0{element}", diag.rule, repo_path);
        if element.is_empty() {
            if let Some(primary) = &diag.primary {
                key.push('\0');
                let text = file.slice(primary.span);
                key.push_str(&text.split_whitespace().collect::<Vec<_>>().join(" "));
            }
        }
        let hash = fnv1a64(key.as_bytes());
        let count = self.seen.entry(hash).or_insert(0);
        *count += 1;
        match *count {
            1 => format!("{hash:016x}"),
            n => format!("{hash:016x}-{n}"),
        }
    }
}

/// Percent-encodes everything in a path but the RFC 3986 unreserved
/// characters and `/`, so spaces, `#`, `%` and non-ASCII names stay valid in
/// a URI reference.
fn percent_encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for &b in path.as_bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `lacp-mode-mismatch` -> `LacpModeMismatch`, SARIF's readable rule name.
fn upper_camel_case(id: &str) -> String {
    id.split(['-', '_'])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            let first = chars.next().map(|c| c.to_ascii_uppercase());
            first.into_iter().chain(chars).collect::<String>()
        })
        .collect()
}

/// The rule page's first paragraph after its `# id` heading: the summary
/// the page opens with, on one line.
fn first_paragraph(doc: &str) -> String {
    doc.lines()
        .map(str::trim)
        .skip_while(|l| l.is_empty() || l.starts_with('#'))
        .take_while(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A light Markdown-to-text pass for `help.text`, the fallback of viewers
/// that do not render `help.markdown`: heading marks, code fences, inline
/// code ticks and bold marks go; links keep their text and target.
fn markdown_to_text(doc: &str) -> String {
    let mut out = String::new();
    for line in doc.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            continue;
        }
        let line = if trimmed.starts_with('#') {
            trimmed.trim_start_matches('#').trim_start()
        } else {
            line
        };
        out.push_str(&inline_markdown_to_text(line));
        out.push('\n');
    }
    out.trim_end().to_owned()
}

fn inline_markdown_to_text(line: &str) -> String {
    let line = line.replace("**", "").replace('`', "");
    // [text](url) -> text (url)
    let mut out = String::with_capacity(line.len());
    let mut rest = line.as_str();
    while let Some(open) = rest.find('[') {
        let link = rest[open..].find("](").and_then(|mid| {
            let close = rest[open + mid..].find(')')?;
            Some((open + mid, open + mid + close))
        });
        let Some((mid, close)) = link else { break };
        out.push_str(&rest[..open]);
        out.push_str(&rest[open + 1..mid]);
        out.push_str(" (");
        out.push_str(&rest[mid + 2..close]);
        out.push(')');
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

// ---------------------------------------------------------------------------
// The subset of the SARIF object model netlint writes.

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a>; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Tool<'a>,
    column_kind: &'static str,
    results: Vec<SarifResult<'a>>,
}

#[derive(Serialize)]
struct Tool<'a> {
    driver: Driver<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver<'a> {
    name: &'static str,
    version: &'a str,
    information_uri: &'static str,
    rules: Vec<ReportingDescriptor<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ReportingDescriptor<'a> {
    id: &'a str,
    name: String,
    short_description: Text,
    full_description: Text,
    help: Help<'a>,
    default_configuration: Configuration,
    help_uri: String,
    properties: Properties<'a>,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
struct Help<'a> {
    text: String,
    markdown: &'a str,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct Properties<'a> {
    tags: [&'a str; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule_index: Option<usize>,
    level: &'static str,
    message: Text,
    locations: [Location; 1],
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<Location>,
    partial_fingerprints: PartialFingerprints,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    suppressions: Vec<Suppression>,
    /// The finding's fix, when it carries one (and no earlier result of
    /// the log carries the same edits).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    fixes: Vec<SarifFix>,
    #[serde(skip_serializing_if = "Option::is_none")]
    properties: Option<ResultProperties>,
}

/// A result whose fix is the same edit as an earlier result's: the index
/// (in the run's `results`) of the one that carries it.
/// Or whose edits meet an earlier result's fix, so that the two cannot be
/// applied together: that result's index (`netlint check --fix` applies
/// them one after the other, each checked).
#[derive(Serialize)]
struct ResultProperties {
    #[serde(
        rename = "netlint/fixOnResult",
        skip_serializing_if = "Option::is_none"
    )]
    fix_on_result: Option<usize>,
    #[serde(
        rename = "netlint/fixConflictsWithResult",
        skip_serializing_if = "Option::is_none"
    )]
    fix_conflicts_with_result: Option<usize>,
}

/// SARIF `fix`: one change to the design file.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifFix {
    description: Text,
    artifact_changes: [ArtifactChange; 1],
    properties: FixProperties,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactChange {
    artifact_location: ArtifactLocation,
    replacements: Vec<SarifReplacement>,
}

/// Whole lines replaced: an empty region (start = end) is an insertion.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifReplacement {
    deleted_region: DeletedRegion,
    inserted_content: Text,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DeletedRegion {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
    byte_offset: usize,
    byte_length: usize,
}

/// `safe` (`netlint check --fix` applies it) or `unsafe` (it needs
/// judgement: `--unsafe-fixes`).
#[derive(Serialize)]
struct FixProperties {
    #[serde(rename = "netlint/safety")]
    safety: &'static str,
}

/// An `allow` entry that keeps a result out of the findings.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Suppression {
    /// `inSource`: the design file itself says so.
    kind: &'static str,
    /// The entry's reason.
    justification: String,
    /// The entry.
    location: Location,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<usize>,
    physical_location: Physical,
    /// The design elements the result is about, one per subject.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    logical_locations: Vec<LogicalLocation>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<Text>,
}

/// A design element as SARIF names a thing inside an artifact: its dotted
/// path (`hosts.hv2.nics.P4-1`), the same as JSON `subjects`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LogicalLocation {
    fully_qualified_name: String,
    /// SARIF's kind for a member of a structured document.
    kind: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Physical {
    artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

#[derive(Clone, Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

impl ArtifactLocation {
    /// A repository-relative path becomes a relative URI against
    /// `%SRCROOT%`; an absolute one (a file outside the repository) can only
    /// be a `file://` URI of its own.
    fn new(repo_path: &str) -> Self {
        let path = normalize_path(repo_path);
        if path.starts_with('/') {
            ArtifactLocation {
                uri: format!("file://{}", percent_encode_path(&path)),
                uri_base_id: None,
            }
        } else {
            ArtifactLocation {
                uri: percent_encode_path(&path),
                uri_base_id: Some(SRCROOT),
            }
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
}

#[derive(Serialize)]
struct PartialFingerprints {
    #[serde(rename = "netlint/v1")]
    netlint: String,
}

/// A small report touching every shape the renderers handle: a finding with
/// help and related spans, one without help, one without a location, a clean
/// file, and names that need escaping in every format.
#[cfg(test)]
pub(super) mod test_support {
    use netlint_model::{
        Category, Diagnostic, Element, Fix, FixEdit, RuleId, RuleMeta, Severity, SourceFile, Span,
        TomlPath,
    };

    use crate::run::{FileReport, Report};

    pub const DESIGN: &str = "\
[profiles.compute]
mtu = 1500

[hosts.hv2]
profile = \"compute\"

[hosts.hv2.nics.\"P4-1\"]
mtu = 9014
switch_port = \"sw1:Eth1/1\"
";

    fn span_of(text: &str, needle: &str) -> Span {
        let start = text.find(needle).expect("needle in sample design");
        Span::new(start, start + needle.len())
    }

    pub fn rules() -> Vec<RuleMeta> {
        vec![
            RuleMeta {
                id: RuleId::declared("mtu-mismatch"),
                category: Category::Mtu,
                default_severity: Severity::Error,
                summary: "The two ends of a link disagree on MTU",
                doc: "# mtu-mismatch\n\nThe two ends of a link disagree on MTU,\nso jumbo frames are dropped.\n\n## Why it matters\n\nStorage traffic uses **jumbo frames**; see [the guide](https://example.com/mtu).\n\n```toml\n[hosts.hv2.nics.\"P4-1\"]\nmtu = 9014\n```\n",
            },
            RuleMeta {
                id: RuleId::declared("single-uplink"),
                category: Category::Redundancy,
                default_severity: Severity::Warning,
                summary: "A host reaches a network through one uplink only",
                doc: "# single-uplink\n\nA host reaches a network through one uplink only.\n",
            },
            RuleMeta {
                id: RuleId::declared("unused-profile"),
                category: Category::Input,
                default_severity: Severity::Info,
                summary: "A profile no host uses",
                doc: "",
            },
        ]
    }

    pub fn report() -> Report {
        let file = SourceFile::new("./designs/site a.toml", DESIGN);
        let diagnostics = vec![
            Diagnostic::new(
                "mtu-mismatch",
                Severity::Error,
                Element::nic("hv2", "P4-1"),
                "MTU 9014 on P4-1 ≠ 1500 on \"sw1:Eth1/1\" (100% of frames > 1500 B dropped, <jumbo> & more)",
            )
            .at(span_of(DESIGN, "mtu = 9014"), "9014 here")
            .with_related(span_of(DESIGN, "mtu = 1500"), "1500 set by profile `compute`")
            .with_related(span_of(DESIGN, "switch_port = \"sw1:Eth1/1\""), "")
            .with_help("set mtu = 9014 on both ends,\nor 1500 on both")
            .with_fix(Some(Fix::safe(
                "set `profiles.compute.mtu = 9014`",
                vec![FixEdit::replace(
                    TomlPath::new().then("profiles").then("compute").then("mtu"),
                    1500u32,
                    9014u32,
                    span_of(DESIGN, "1500"),
                )],
            ))),
            Diagnostic::new(
                "single-uplink",
                Severity::Warning,
                Element::host("hv2"),
                "host hv2 reaches storage through one uplink",
            )
            .at(span_of(DESIGN, "[hosts.hv2]"), "")
            .with_fix(Some(Fix::unsafe_(
                "add `hosts.hv2.uplinks = 2`",
                vec![FixEdit::insert(
                    TomlPath::new().then("hosts").then("hv2").then("uplinks"),
                    2u32,
                    span_of(DESIGN, "[hosts.hv2]"),
                )],
            ))),
            Diagnostic::new(
                "unused-profile",
                Severity::Info,
                Element::Design,
                "no host uses a profile\u{7}",
            ),
        ];
        Report {
            sources: Vec::new(),
            files: vec![
                FileReport {
                    file,
                    diagnostics,
                    design: None,
                    fail_on: netlint_model::FailOn::Warning,
                },
                FileReport {
                    file: SourceFile::new("designs/clean.toml", "[hosts]\n"),
                    diagnostics: vec![],
                    design: None,
                    fail_on: netlint_model::FailOn::Warning,
                },
            ],
            rules: rules(),
        }
    }

    /// The CLI's job, reduced to the lexical part for tests.
    pub fn repo_path(path: &str) -> String {
        path.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::{repo_path, report};
    use super::*;

    fn render_test(report: &Report) -> String {
        render_with_version(report, &[], &repo_path, "0.0.0-test")
    }

    #[test]
    fn snapshot() {
        insta::assert_snapshot!(render_test(&report()));
    }

    #[test]
    fn validates_against_the_sarif_2_1_0_schema() {
        let schema: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/data/sarif-schema-2.1.0.json"))
                .expect("vendored schema is JSON");
        let validator = jsonschema::validator_for(&schema).expect("schema compiles");
        for report in [report(), Report::default()] {
            let log: serde_json::Value =
                serde_json::from_str(&render_test(&report)).expect("output is JSON");
            let errors: Vec<String> = validator
                .iter_errors(&log)
                .map(|e| format!("{} at {}", e, e.instance_path()))
                .collect();
            assert!(errors.is_empty(), "{errors:#?}");
        }
    }

    /// The sample's two fixes: a replaced line and an added one, each with
    /// the region it replaces and the text that goes there.
    #[test]
    fn fixes_carry_their_replacements() {
        let log: serde_json::Value = serde_json::from_str(&render_test(&report())).unwrap();
        let results = &log["runs"][0]["results"];
        let fix = &results[0]["fixes"][0];
        assert_eq!(fix["properties"]["netlint/safety"], "safe");
        let change = &fix["artifactChanges"][0];
        assert_eq!(change["artifactLocation"]["uri"], "designs/site%20a.toml");
        let r = &change["replacements"][0];
        assert_eq!(r["insertedContent"]["text"], "mtu = 9014\n");
        let region = &r["deletedRegion"];
        assert_eq!(
            (region["startLine"].as_u64(), region["endLine"].as_u64()),
            (Some(2), Some(3))
        );
        assert_eq!(
            region["byteOffset"],
            test_support::DESIGN.find("mtu = 1500").unwrap()
        );
        assert_eq!(region["byteLength"], "mtu = 1500\n".len());
        let added = &results[1]["fixes"][0];
        assert_eq!(added["properties"]["netlint/safety"], "unsafe");
        let r = &added["artifactChanges"][0]["replacements"][0];
        assert_eq!(r["insertedContent"]["text"], "uplinks = 2\n");
        assert_eq!(r["deletedRegion"]["byteLength"], 0);
        assert!(results[2].get("fixes").is_none());
    }

    #[test]
    fn the_validator_does_reject_a_broken_log() {
        // Guards the test above against a validator that accepts anything.
        let schema: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/data/sarif-schema-2.1.0.json")).unwrap();
        let validator = jsonschema::validator_for(&schema).unwrap();
        let mut log: serde_json::Value = serde_json::from_str(&render_test(&report())).unwrap();
        log["runs"][0]["results"][0]["level"] = "fatal".into();
        log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
            0.into();
        assert_eq!(validator.iter_errors(&log).count(), 2);
    }

    #[test]
    fn github_essentials_are_present() {
        let log: serde_json::Value = serde_json::from_str(&render_test(&report())).unwrap();
        let run = &log["runs"][0];
        let rule = &run["tool"]["driver"]["rules"][0];
        assert_eq!(rule["name"], "MtuMismatch");
        assert_eq!(
            rule["fullDescription"]["text"],
            "The two ends of a link disagree on MTU, so jumbo frames are dropped."
        );
        assert_eq!(
            run["tool"]["driver"]["rules"][2]["defaultConfiguration"]["level"],
            "note"
        );
        // A missing page falls back to the summary.
        let undocumented = &run["tool"]["driver"]["rules"][2];
        assert_eq!(
            undocumented["fullDescription"]["text"],
            "A profile no host uses"
        );
        assert_eq!(undocumented["help"]["markdown"], "A profile no host uses");

        let result = &run["results"][0];
        assert_eq!(result["ruleIndex"], 0);
        let artifact = &result["locations"][0]["physicalLocation"]["artifactLocation"];
        assert_eq!(artifact["uri"], "designs/site%20a.toml");
        assert_eq!(artifact["uriBaseId"], "%SRCROOT%");
        let region = &result["locations"][0]["physicalLocation"]["region"];
        assert_eq!(
            (region["startLine"].as_u64(), region["startColumn"].as_u64()),
            (Some(8), Some(1))
        );
        assert_eq!(
            (region["endLine"].as_u64(), region["endColumn"].as_u64()),
            (Some(8), Some(11))
        );
        assert_eq!(result["relatedLocations"][0]["id"], 1);
        assert_eq!(
            result["relatedLocations"][1]["message"]["text"],
            "related location"
        );

        let no_location = &run["results"][2];
        assert!(no_location["locations"][0]["physicalLocation"]
            .get("region")
            .is_none());
    }

    #[test]
    fn fingerprints_ignore_lines_and_messages() {
        let original = report();
        let mut moved = report();
        let shifted = format!("# a comment\n\n{}", moved.files[0].file.text);
        moved.files[0].file = SourceFile::new("./designs/site a.toml", shifted);
        for d in &mut moved.files[0].diagnostics {
            d.message.push_str(" (reworded)");
            for l in d.primary.iter_mut().chain(d.related.iter_mut()) {
                l.span = netlint_model::Span::new(l.span.start + 13, l.span.end + 13);
            }
        }
        let fingerprints = |r: &Report| -> Vec<serde_json::Value> {
            let log: serde_json::Value = serde_json::from_str(&render_test(r)).unwrap();
            log["runs"][0]["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["partialFingerprints"]["netlint/v1"].clone())
                .collect()
        };
        assert_eq!(fingerprints(&original), fingerprints(&moved));
    }

    #[test]
    fn fingerprints_agree_with_gitlab() {
        let sarif: serde_json::Value = serde_json::from_str(&render_test(&report())).unwrap();
        let gitlab: serde_json::Value =
            serde_json::from_str(&super::super::gitlab::render(&report(), &repo_path)).unwrap();
        for i in 0..3 {
            assert_eq!(
                sarif["runs"][0]["results"][i]["partialFingerprints"]["netlint/v1"],
                gitlab[i]["fingerprint"]
            );
        }
    }

    #[test]
    fn colliding_fingerprints_get_an_index() {
        let file = SourceFile::new("a.toml", "x = 1\n");
        let diag = Diagnostic::new(
            "r",
            Severity::Warning,
            netlint_model::Element::host("a"),
            "m",
        );
        let mut fp = Fingerprints::default();
        let first = fp.next(&diag, &file, "a.toml");
        let second = fp.next(&diag, &file, "a.toml");
        assert_eq!(first.len(), 16);
        assert_eq!(second, format!("{first}-2"));
        assert_ne!(fp.next(&diag, &file, "b.toml"), first);
    }

    #[test]
    fn fnv1a64_matches_the_reference_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn paths_become_repository_relative_uris() {
        let uri = |p: &str| ArtifactLocation::new(p);
        assert_eq!(uri("./designs/a.toml").uri, "designs/a.toml");
        assert_eq!(uri(".\\designs\\b c.toml").uri, "designs/b%20c.toml");
        assert_eq!(uri("x/./y#1%.toml").uri, "x/y%231%25.toml");
        assert_eq!(uri("sité.toml").uri, "sit%C3%A9.toml");
        let outside = uri("/etc/netlint/a.toml");
        assert_eq!(outside.uri, "file:///etc/netlint/a.toml");
        assert!(outside.uri_base_id.is_none());
    }

    #[test]
    fn rule_text_helpers() {
        assert_eq!(upper_camel_case("lacp-mode_mismatch"), "LacpModeMismatch");
        assert_eq!(upper_camel_case("schema"), "Schema");
        assert_eq!(
            markdown_to_text(
                "# x\n\nUse `mtu` **now**, see [docs](https://d/x).\n```toml\na = 1\n```"
            ),
            "x\n\nUse mtu now, see docs (https://d/x).\na = 1"
        );
    }
}
