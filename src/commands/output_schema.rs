//! `netlint schema --output`: the JSON Schema (draft-07) of netlint's own
//! JSON report (`netlint check --format json`, docs/json.md), so that a CI
//! script can validate what it parses. The repository keeps it as
//! [`COMMITTED_FILE`]; `tests/ci_fit.rs` checks that the committed copy is
//! the generated one and that the reports of every fixture validate.
//!
//! The schema is strict (`additionalProperties: false`): a field the
//! renderer adds without adding it here fails the test. It describes the
//! report of the netlint version that prints it; fields are only ever
//! added (docs/json.md), so a script validates with the schema of the
//! version it runs.

use super::schema::J;

/// Where the committed copy lives, relative to the repository root.
pub const COMMITTED_FILE: &str = "netlint-output.schema.json";

fn int_from(min: i64) -> J {
    J::obj()
        .with("type", J::s("integer"))
        .with("minimum", J::Int(min))
}

fn described(j: J, description: &str) -> J {
    j.with("description", J::s(description))
}

fn strict_object(required: &[&str], properties: Vec<(&str, J)>) -> J {
    J::obj()
        .with("type", J::s("object"))
        .with("required", J::strs(required))
        .with("additionalProperties", J::Bool(false))
        .with(
            "properties",
            J::Obj(
                properties
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), v))
                    .collect(),
            ),
        )
}

fn string() -> J {
    J::obj().with("type", J::s("string"))
}

fn string_or_null() -> J {
    J::obj().with("type", J::strs(&["string", "null"]))
}

fn reference(name: &str) -> J {
    J::obj().with("$ref", J::s(&format!("#/definitions/{name}")))
}

/// The schema, with the rule ids of this build.
pub fn schema(rule_ids: &[&str]) -> J {
    let location = strict_object(
        &["file", "line", "column", "end_line", "end_column"],
        vec![
            (
                "file",
                described(string(), "The file as it was named on the command line."),
            ),
            ("line", described(int_from(1), "Line of the start, from 1.")),
            (
                "column",
                described(int_from(1), "Column of the start, from 1, in characters."),
            ),
            (
                "end_line",
                described(int_from(1), "Line just past the end."),
            ),
            (
                "end_column",
                described(int_from(1), "Column just past the end."),
            ),
        ],
    );
    let related = strict_object(
        &["message", "location"],
        vec![("message", string()), ("location", reference("location"))],
    );
    let diagnostic = strict_object(
        &[
            "rule", "url", "severity", "message", "help", "element", "subjects", "location",
            "related",
        ],
        vec![
            (
                "rule",
                described(
                    J::obj().with("enum", J::strs(rule_ids)),
                    "The rule id (`netlint rules`); input errors are `syntax`, `schema` and `unreadable`.",
                ),
            ),
            (
                "url",
                described(
                    string_or_null().with("format", J::s("uri")),
                    "The rule's page, crates/netlint-rules/rules/<id>.md in netlint's repository.",
                ),
            ),
            (
                "severity",
                J::obj().with("enum", J::strs(&["error", "warning", "info"])),
            ),
            (
                "message",
                described(string(), "What is wrong, with the numbers and names of the design."),
            ),
            (
                "help",
                described(string_or_null(), "How to fix it, or null."),
            ),
            (
                "element",
                described(
                    string(),
                    "The design element as a dotted path of names; empty for the design as a whole.",
                ),
            ),
            (
                "subjects",
                described(
                    J::obj()
                        .with("type", J::s("array"))
                        .with("items", string().with("minLength", J::Int(1))),
                    "Every design element the finding is about, as dotted paths in the design's order (`element` is the least of them); empty for the design as a whole.",
                ),
            ),
            ("location", reference("location")),
            (
                "related",
                J::obj()
                    .with("type", J::s("array"))
                    .with("items", reference("related")),
            ),
            (
                "fix",
                described(
                    reference("fix"),
                    "Present when the finding's fix is a definite edit of the design (`netlint check --fix`).",
                ),
            ),
        ],
    );
    let edit = strict_object(
        &["path", "old", "new", "location"],
        vec![
            (
                "path",
                described(
                    J::obj()
                        .with("type", J::s("array"))
                        .with("minItems", J::Int(1))
                        .with(
                            "items",
                            J::obj().with("type", J::strs(&["string", "integer"])),
                        ),
                    "The TOML path from the top of the file: keys, and array indices for `[[links]]`.",
                ),
            ),
            (
                "old",
                described(
                    J::obj().with(
                        "type",
                        J::strs(&["boolean", "integer", "string", "array", "object", "null"]),
                    ),
                    "The value there now; null when the edit adds the key.",
                ),
            ),
            (
                "new",
                described(
                    J::obj().with(
                        "type",
                        J::strs(&["boolean", "integer", "string", "array", "object", "null"]),
                    ),
                    "The value it gets; null when the edit removes the key (and its value).",
                ),
            ),
            (
                "location",
                described(
                    reference("location"),
                    "The old value; for an added key, the table it goes into.",
                ),
            ),
        ],
    );
    let fix = strict_object(
        &["safety", "description", "edits"],
        vec![
            (
                "safety",
                described(
                    J::obj().with("enum", J::strs(&["safe", "unsafe"])),
                    "`safe`: `--fix` applies it; `unsafe`: it needs judgement, `--unsafe-fixes`.",
                ),
            ),
            ("description", string()),
            (
                "edits",
                J::obj()
                    .with("type", J::s("array"))
                    .with("minItems", J::Int(1))
                    .with("items", reference("edit")),
            ),
        ],
    );
    let count = || int_from(0);
    let summary = strict_object(
        &["files", "errors", "warnings", "infos", "suppressed"],
        vec![
            ("files", described(count(), "Files checked.")),
            ("errors", count()),
            ("warnings", count()),
            ("infos", count()),
            (
                "suppressed",
                described(count(), "Findings that `allow` entries suppressed."),
            ),
        ],
    );
    let tool = strict_object(
        &["name", "version"],
        vec![
            ("name", J::obj().with("const", J::s("netlint"))),
            ("version", string()),
        ],
    );
    let J::Obj(root) = strict_object(
        &["version", "tool", "diagnostics", "summary"],
        vec![
            (
                "version",
                described(
                    J::obj().with("const", J::Int(1)),
                    "Changes only if a field is ever renamed or removed.",
                ),
            ),
            ("tool", tool),
            (
                "diagnostics",
                described(
                    J::obj()
                        .with("type", J::s("array"))
                        .with("items", reference("diagnostic")),
                    "Every finding and input error, sorted by file, position and rule.",
                ),
            ),
            ("summary", summary),
        ],
    ) else {
        unreachable!("an object schema is an object")
    };
    let mut doc = J::obj()
        .with("$schema", J::s("http://json-schema.org/draft-07/schema#"))
        .with("title", J::s("netlint check --format json"))
        .with(
            "description",
            J::s("The JSON report of `netlint check` (docs/json.md)."),
        );
    for (k, v) in root {
        doc = doc.with(&k, v);
    }
    doc.with(
        "definitions",
        J::Obj(vec![
            ("diagnostic".to_string(), diagnostic),
            ("location".to_string(), location),
            ("related".to_string(), related),
            ("fix".to_string(), fix),
            ("edit".to_string(), edit),
        ]),
    )
}

/// The schema with the rules of this build of netlint.
pub fn current() -> String {
    let mut ids = netlint_rules::all_ids();
    ids.sort_unstable();
    schema(&ids).to_pretty()
}
