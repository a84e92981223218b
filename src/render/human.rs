//! Human output through miette: the source snippet, the primary label, the
//! related labels, the help text and the rule id.

use crate::run::Report;
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteDiagnostic, NamedSource};
use netlint_model::{Diagnostic, Severity};
use std::fmt::Write;

pub struct HumanOptions {
    pub color: bool,
    pub width: usize,
}

pub fn render(report: &Report, opts: &HumanOptions) -> String {
    let theme = if opts.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(opts.width)
        .with_links(false);
    let mut out = String::new();
    let (mut errors, mut warnings, mut infos) = (0, 0, 0);
    for file in &report.files {
        for d in &file.diagnostics {
            match d.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
                Severity::Info => infos += 1,
            }
            let src = NamedSource::new(file.file.path.clone(), file.file.text.clone());
            let diag = to_miette(d, file.file.text.len());
            let report = miette::Report::new(diag).with_source_code(src);
            let mut s = String::new();
            if handler.render_report(&mut s, report.as_ref()).is_err() {
                let _ = writeln!(s, "{}: {}: {}", file.file.path, d.rule, d.message);
            }
            out.push_str(&s);
            out.push('\n');
        }
    }
    let files = report.files.len();
    let _ = writeln!(
        out,
        "{} file{} checked: {} error{}, {} warning{}, {} info",
        files,
        plural(files),
        errors,
        plural(errors),
        warnings,
        plural(warnings),
        infos
    );
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn to_miette(d: &Diagnostic, len: usize) -> MietteDiagnostic {
    let severity = match d.severity {
        Severity::Error => miette::Severity::Error,
        Severity::Warning => miette::Severity::Warning,
        Severity::Info => miette::Severity::Advice,
    };
    let clamp = |s: netlint_model::Span| {
        let start = s.start.min(len);
        (start, s.end.min(len).saturating_sub(start))
    };
    let text = |m: &str| (!m.is_empty()).then(|| m.to_string());
    let mut labels = Vec::new();
    if let Some(p) = &d.primary {
        labels.push(LabeledSpan::new_primary_with_span(
            text(&p.message),
            clamp(p.span),
        ));
    }
    for r in &d.related {
        labels.push(LabeledSpan::new_with_span(text(&r.message), clamp(r.span)));
    }
    let mut m = MietteDiagnostic::new(d.message.clone())
        .with_code(d.rule.clone())
        .with_severity(severity)
        .with_labels(labels);
    if let Some(h) = &d.help {
        m = m.with_help(h.clone());
    }
    m
}
