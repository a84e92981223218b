//! The server's answers in LSP terms: positions in UTF-16 units, findings
//! as LSP diagnostics, locations, hovers, completion items, code actions.

use super::actions::actions_for;
use super::analysis::Analysis;
use super::complete::{complete, ItemKind};
use super::hover;
use super::text::LineIndex;
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeDescription, CompletionItem,
    CompletionItemKind, CompletionResponse, DiagnosticRelatedInformation, DiagnosticSeverity,
    GotoDefinitionResponse, Hover, HoverContents, Location, MarkupContent, MarkupKind,
    NumberOrString, Position, Range, TextEdit, Uri, WorkspaceEdit,
};
use netlint_model::{Design, Diagnostic, Severity, Span};
use std::collections::HashMap;
use std::path::PathBuf;
use std::str::FromStr;

/// The file a `file:` URI names (percent-escapes decoded).
pub fn path_of_uri(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file:///p` (no host) or `file://host/p` (host ignored).
    let path = &rest[rest.find('/')?..];
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(std::str::from_utf8(&bytes[i + 1..i + 3]).ok()?, 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    let s = String::from_utf8(out).ok()?;
    // `/C:/x` on Windows.
    let s = match s.as_bytes() {
        [b'/', d, b':', ..] if d.is_ascii_alphabetic() && cfg!(windows) => s[1..].to_string(),
        _ => s,
    };
    Some(PathBuf::from(s))
}

fn range(a: &Analysis, span: Span) -> Range {
    a.lines.range(&a.file.text, span)
}

fn severity(s: Severity) -> DiagnosticSeverity {
    match s {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
    }
}

/// One finding as an LSP diagnostic: its primary span, severity, rule id
/// as `code` with its page as `codeDescription`, the help after the
/// message, the related spans as related information.
pub fn diagnostic(uri: &Uri, a: &Analysis, d: &Diagnostic) -> lsp_types::Diagnostic {
    let at = d
        .primary
        .as_ref()
        .map_or(Range::default(), |l| range(a, l.span));
    let mut message = d.message.clone();
    if let Some(help) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    let related: Vec<DiagnosticRelatedInformation> = d
        .primary
        .iter()
        .filter(|l| !l.message.is_empty())
        .chain(&d.related)
        .map(|l| DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), range(a, l.span)),
            message: if l.message.is_empty() {
                "related".to_string()
            } else {
                l.message.clone()
            },
        })
        .collect();
    lsp_types::Diagnostic {
        range: at,
        severity: Some(severity(d.severity)),
        code: Some(NumberOrString::String(d.rule.clone())),
        code_description: crate::render::rule_url(&d.rule)
            .and_then(|u| Uri::from_str(&u).ok())
            .map(|href| CodeDescription { href }),
        source: Some("netlint".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}

pub fn diagnostics(uri: &Uri, a: &Analysis) -> Vec<lsp_types::Diagnostic> {
    a.diagnostics
        .iter()
        .map(|d| diagnostic(uri, a, d))
        .collect()
}

fn offset(a: &Analysis, pos: Position) -> usize {
    a.lines.offset(&a.file.text, pos)
}

pub fn hover(a: &Analysis, pos: Position) -> Option<Hover> {
    let (text, span) = hover::hover(a, offset(a, pos))?;
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: text,
        }),
        range: Some(range(a, span)),
    })
}

pub fn definition(uri: &Uri, a: &Analysis, pos: Position) -> Option<GotoDefinitionResponse> {
    let (_, def) = a.index.target_at(offset(a, pos))?;
    Some(GotoDefinitionResponse::Scalar(Location::new(
        uri.clone(),
        range(a, def),
    )))
}

pub fn references(uri: &Uri, a: &Analysis, pos: Position, declaration: bool) -> Vec<Location> {
    let Some((_, def)) = a.index.target_at(offset(a, pos)) else {
        return Vec::new();
    };
    let mut spans = Vec::new();
    if declaration {
        spans.push(def);
    }
    spans.extend(a.index.refs_to(def));
    spans
        .into_iter()
        .map(|s| Location::new(uri.clone(), range(a, s)))
        .collect()
}

pub fn completion(text: &str, pos: Position, design: Option<&Design>) -> CompletionResponse {
    let at = LineIndex::new(text).offset(text, pos);
    let items = complete(text, at, design)
        .into_iter()
        .map(|i| CompletionItem {
            label: i.label,
            kind: Some(match i.kind {
                ItemKind::Name => CompletionItemKind::REFERENCE,
                ItemKind::Value => CompletionItemKind::ENUM_MEMBER,
                ItemKind::Rule => CompletionItemKind::KEYWORD,
            }),
            detail: Some(i.detail),
            ..CompletionItem::default()
        })
        .collect();
    CompletionResponse::Array(items)
}

pub fn code_actions(uri: &Uri, a: &Analysis, at: Range) -> Vec<CodeActionOrCommand> {
    let span = Span::new(offset(a, at.start), offset(a, at.end));
    actions_for(a, span)
        .into_iter()
        .map(|(i, act)| {
            let edits = act
                .edits
                .iter()
                .map(|(s, t)| TextEdit::new(range(a, *s), t.clone()))
                .collect();
            CodeActionOrCommand::CodeAction(CodeAction {
                title: act.title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diagnostic(uri, a, &a.diagnostics[i])]),
                edit: act
                    .disabled
                    .is_none()
                    .then(|| WorkspaceEdit::new(HashMap::from([(uri.clone(), edits)]))),
                is_preferred: Some(act.preferred),
                disabled: act
                    .disabled
                    .map(|reason| lsp_types::CodeActionDisabled { reason }),
                ..CodeAction::default()
            })
        })
        .collect()
}
