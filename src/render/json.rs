//! The JSON report: the contract CI tools parse (documented in docs/json.md).

use crate::run::Report;
use netlint_model::{Fix, FixValue, Label, PathSegment, Severity, SourceFile, Span};
use serde::Serialize;

#[derive(Serialize)]
struct JsonReport<'a> {
    version: u32,
    tool: Tool,
    diagnostics: Vec<JsonDiagnostic<'a>>,
    summary: Summary,
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    rule: &'a str,
    /// The rule's page (docs/json.md).
    url: Option<String>,
    severity: &'static str,
    message: &'a str,
    help: Option<&'a str>,
    element: String,
    /// Every element the finding is about (docs/json.md).
    subjects: Vec<String>,
    location: Location<'a>,
    related: Vec<Related<'a>>,
    /// The finding's fix, when it carries one (docs/json.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<JsonFix<'a>>,
}

#[derive(Serialize)]
struct JsonFix<'a> {
    safety: &'static str,
    description: &'a str,
    edits: Vec<JsonEdit<'a>>,
}

#[derive(Serialize)]
struct JsonEdit<'a> {
    /// Keys (strings) and array indices (numbers) from the top of the file.
    path: Vec<serde_json::Value>,
    /// The value there now; null when the edit adds the key.
    old: Option<serde_json::Value>,
    /// The value it gets; null when the edit removes the key.
    new: Option<serde_json::Value>,
    /// The old value; for an added key, the table it goes into.
    location: Location<'a>,
}

fn fix_json<'a>(file: &'a SourceFile, fix: &'a Fix) -> JsonFix<'a> {
    JsonFix {
        safety: fix.safety.as_str(),
        description: &fix.description,
        edits: fix
            .edits
            .iter()
            .map(|e| JsonEdit {
                path: e
                    .path
                    .segments()
                    .iter()
                    .map(|s| match s {
                        PathSegment::Key(k) => serde_json::Value::from(k.as_str()),
                        PathSegment::Index(i) => serde_json::Value::from(*i),
                    })
                    .collect(),
                old: e.old.as_ref().map(value_json),
                new: e.new.as_ref().map(value_json),
                location: location(file, e.span),
            })
            .collect(),
    }
}

/// A TOML value of a fix as JSON: booleans, integers, strings, arrays and
/// objects alike.
fn value_json(v: &FixValue) -> serde_json::Value {
    match v {
        FixValue::Bool(b) => (*b).into(),
        FixValue::Integer(i) => (*i).into(),
        FixValue::String(s) => s.as_str().into(),
        FixValue::Array(items) => items.iter().map(value_json).collect(),
        FixValue::Table(entries) => serde_json::Value::Object(
            entries
                .iter()
                .map(|(k, v)| (k.clone(), value_json(v)))
                .collect(),
        ),
    }
}

#[derive(Serialize)]
struct Location<'a> {
    file: &'a str,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
}

#[derive(Serialize)]
struct Related<'a> {
    message: &'a str,
    location: Location<'a>,
}

#[derive(Serialize)]
struct Summary {
    files: usize,
    errors: usize,
    warnings: usize,
    infos: usize,
    suppressed: usize,
}

/// Where a label is: in the reported file, or in the other file it names
/// (line 1 of that file when the run kept no text of it).
fn label_location<'a>(report: &'a Report, own: &'a SourceFile, label: &'a Label) -> Location<'a> {
    match report.label_file(own, label) {
        Some(file) => location(file, label.span),
        None => Location {
            file: Report::label_path(own, label),
            line: 1,
            column: 1,
            end_line: 1,
            end_column: 1,
        },
    }
}

fn location<'a>(file: &'a SourceFile, span: Span) -> Location<'a> {
    let (s, e) = file.range(span);
    Location {
        file: &file.path,
        line: s.line,
        column: s.column,
        end_line: e.line,
        end_column: e.column,
    }
}

pub fn render(report: &Report, suppressed: usize) -> String {
    let mut diagnostics = Vec::new();
    let count = |s: Severity| report.count(s);
    let summary = Summary {
        files: report.files.len(),
        errors: count(Severity::Error),
        warnings: count(Severity::Warning),
        infos: count(Severity::Info),
        suppressed,
    };
    for f in &report.files {
        for d in &f.diagnostics {
            diagnostics.push(JsonDiagnostic {
                rule: &d.rule,
                url: super::rule_url(&d.rule),
                severity: d.severity.as_str(),
                message: &d.message,
                help: d.help.as_deref(),
                element: d.element(),
                subjects: d.subject_paths(),
                location: match &d.primary {
                    Some(p) => label_location(report, &f.file, p),
                    None => location(&f.file, Span::default()),
                },
                related: d
                    .related
                    .iter()
                    .map(|r| Related {
                        message: &r.message,
                        location: label_location(report, &f.file, r),
                    })
                    .collect(),
                fix: d.fix.as_ref().map(|fix| fix_json(&f.file, fix)),
            });
        }
    }
    let doc = JsonReport {
        version: 1,
        tool: Tool {
            name: "netlint",
            version: env!("CARGO_PKG_VERSION"),
        },
        diagnostics,
        summary,
    };
    let mut s = serde_json::to_string_pretty(&doc).expect("serialisable");
    s.push('\n');
    s
}
