//! `netlint check --format markdown`: a report to post as a pull-request
//! comment (GitHub, GitLab). A summary table of the findings (severity,
//! rule with a link to its page, element, line, message), the fixes in a
//! folded list, and, when a design has spanning-tree or redundancy
//! findings, a Mermaid diagram of the part of the network they are about.
//!
//! The diagram is drawn from the design the run loaded and kept in the
//! file's report (`CheckSettings::keep_designs`); the design is never
//! loaded a second time here.

use crate::render::mermaid;
use crate::run::{FileReport, Report};
use crate::views::graph::{self, GraphOptions};
use netlint_model::{Category, Design, Diagnostic, Element, Part, Severity};
use std::fmt::Write as _;

/// Where the rule pages are published.
pub const RULE_PAGES: &str =
    "https://github.com/netlint/netlint/blob/main/crates/netlint-rules/rules/";

/// Rows in the summary tables of one report, at most.
pub const MAX_ROWS: usize = 100;

/// What GitHub takes in one pull-request comment. Files go in in order
/// while they fit; one that does not fit whole loses its diagram, then its
/// last rows (worst first, so the least severe go), and the report says
/// how much it left out.
pub const MAX_CHARS: usize = 65_536;

/// Room kept for the note on what was left out and the footer.
const RESERVED: usize = 1_024;

/// Whether findings of the rule are about the shape of the network, which a
/// diagram explains: spanning tree and redundancy (a host port that is not
/// an edge port is about one port's setting).
fn wants_diagram(rule: &str) -> bool {
    netlint_rules::rule_by_id(rule).is_some_and(|r| {
        matches!(r.meta.category, Category::Redundancy | Category::Stp)
            && rule != "host-port-not-edge"
    })
}

fn is_stp(rule: &str) -> bool {
    rule == "l2-loop" || rule.starts_with("stp-") || rule.starts_with("mstp-")
}

fn icon(s: Severity) -> &'static str {
    match s {
        Severity::Error => "🔴 error",
        Severity::Warning => "🟠 warning",
        Severity::Info => "🔵 info",
    }
}

/// Markdown text on one line, in a table cell: see [`text`].
fn cell(s: &str, names: &[String]) -> String {
    text(s, true, names)
}

/// `s` as one inline code span that nothing in it can close: fenced with
/// one backtick more than its longest run of backticks, and padded with a
/// space each side when it starts or ends with a backtick or with spaces
/// on both sides (CommonMark strips one such space from each side). Line
/// breaks become spaces; in a table `|` is escaped (GFM ends a cell at it
/// even inside a code span, and reads `\|` there as `|`). Inside code
/// `<`, `&` and `@` are shown as they are: no HTML, no link, no mention.
fn code(s: &str, table: bool) -> String {
    let s: String = s
        .chars()
        .filter(|&c| c != '\r')
        .map(|c| if c == '\n' { ' ' } else { c })
        .collect();
    let mut longest = 0;
    let mut run = 0;
    for c in s.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = s.starts_with('`')
        || s.ends_with('`')
        || (s.starts_with(' ') && s.ends_with(' ') && !s.trim().is_empty())
        || s.is_empty();
    let pad = if pad { " " } else { "" };
    let body = if table { s.replace('|', "\\|") } else { s };
    format!("{fence}{pad}{body}{pad}{fence}")
}

/// Markdown text on one line from a message or help text, where the rules
/// quote names between backticks. A name may hold backticks itself, so the
/// spans are found with the names the diagnostic is about (`names`): a
/// backtick followed by one of them and a backtick is that name, written as
/// a [`code`] span it cannot close; any other backtick opens a span to the
/// next one (written the same way) or, without one, is a literal backtick.
/// Outside code, nothing is markup: `<`, `>` and `&` are entities, the
/// characters that make links, emphasis and strikethrough (`[ ] * _ ~ \`)
/// are escaped, `:` before `//` and the `.` of `www.` are escaped (GFM's
/// bare links), and `@` is followed by a zero-width joiner so that it
/// mentions no one and makes no e-mail link. In a table `|` is escaped.
fn text(s: &str, table: bool, names: &[String]) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if c == '`' {
            let after = &rest[1..];
            let name = names
                .iter()
                .filter(|n| {
                    !n.is_empty()
                        && after.starts_with(n.as_str())
                        && after[n.len()..].starts_with('`')
                })
                .max_by_key(|n| n.len());
            if let Some(n) = name {
                out.push_str(&code(n, table));
                rest = &after[n.len() + 1..];
            } else if let Some(j) = after.find('`') {
                out.push_str(&code(&after[..j], table));
                rest = &after[j + 1..];
            } else {
                out.push_str("\\`");
                rest = after;
            }
            continue;
        }
        match c {
            '|' if table => out.push_str("\\|"),
            '\r' => {}
            '\n' => out.push(' '),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '[' | ']' | '*' | '_' | '~' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            ':' if rest[1..].starts_with("//") => out.push_str("\\:"),
            '.' if out
                .len()
                .checked_sub(3)
                .and_then(|i| out.get(i..))
                .is_some_and(|w| w.eq_ignore_ascii_case("www")) =>
            {
                out.push_str("\\.")
            }
            '@' => out.push_str("@\u{200d}"),
            _ => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The names of a design that hold a backtick (a message may quote any
/// name; only these can be mistaken for the end of their span).
fn backticked_names(design: &Design) -> Vec<String> {
    let mut out: Vec<&str> = Vec::new();
    out.extend(design.networks.iter().map(|x| x.name.as_str()));
    out.extend(design.switches.iter().map(|x| x.name.as_str()));
    out.extend(design.links.iter().map(|x| x.name.as_str()));
    out.extend(design.profiles.iter().map(|x| x.name.as_str()));
    for h in &design.hosts {
        out.push(&h.name);
        out.extend(h.nics.iter().map(|x| x.name.as_str()));
        out.extend(h.teams.iter().map(|x| x.name.as_str()));
        for v in &h.vswitches {
            out.push(&v.name);
            out.extend(v.vnics.iter().map(|x| x.name.as_str()));
        }
    }
    out.extend(design.storage.iter().map(|x| x.name.as_str()));
    out.into_iter()
        .filter(|n| n.contains('`'))
        .map(str::to_owned)
        .collect()
}

/// The names a diagnostic is about, as a message quotes them: each part of
/// each subject's path (`hv01`, `P1`, `tor-a`), and the design's names
/// with a backtick (`more`), longest first.
fn names(d: &Diagnostic, more: &[String]) -> Vec<String> {
    let mut out: Vec<String> = more.to_vec();
    for e in &d.subjects {
        let (a, part): (Option<&String>, Option<&Part>) = match e {
            Element::Design => (None, None),
            Element::Network(n) | Element::Switch(n) | Element::Link(n) => (Some(n), None),
            Element::Storage(n, p) => {
                out.extend(p.iter().cloned());
                (Some(n), None)
            }
            Element::Host(n, p) | Element::Profile(n, p) => (Some(n), Some(p)),
        };
        out.extend(a.cloned());
        match part {
            Some(Part::Nic(x) | Part::Team(x) | Part::VSwitch(x)) => out.push(x.clone()),
            Some(Part::VNic { vswitch, vnic }) => {
                out.push(vswitch.clone());
                out.push(vnic.clone());
            }
            _ => {}
        }
        out.push(e.path());
    }
    out.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    out.dedup();
    out
}

fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn counts(diags: &[&Diagnostic]) -> String {
    let n = |s| diags.iter().filter(|d| d.severity == s).count();
    let mut parts = Vec::new();
    for (s, one, many) in [
        (Severity::Error, "error", "errors"),
        (Severity::Warning, "warning", "warnings"),
        (Severity::Info, "info", "infos"),
    ] {
        if n(s) > 0 {
            parts.push(plural(n(s), one, many));
        }
    }
    parts.join(", ")
}

fn rule_link(report: &Report, rule: &str) -> String {
    let known =
        report.rules.iter().any(|m| m.id == rule) || netlint_rules::rule_by_id(rule).is_some();
    if known {
        format!("[{}]({RULE_PAGES}{rule}.md)", code(rule, true))
    } else {
        code(rule, true)
    }
}

/// Worst first, then in file order.
fn ordered(f: &FileReport) -> Vec<&Diagnostic> {
    let mut v: Vec<&Diagnostic> = f.diagnostics.iter().collect();
    v.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then(a.sort_key().cmp(&b.sort_key()))
    });
    v
}

/// The report as Markdown; `repo_path` names files relative to the
/// repository. A file's diagram is drawn from the design the run kept in
/// its [`FileReport`] (none without it). Control characters from the design
/// are escaped.
pub fn render(report: &Report, repo_path: &dyn Fn(&str) -> String) -> String {
    super::printable(render_raw(report, repo_path))
}

fn render_raw(report: &Report, repo_path: &dyn Fn(&str) -> String) -> String {
    let mut out = String::new();
    let all: Vec<&Diagnostic> = report.files.iter().flat_map(|f| &f.diagnostics).collect();
    let with: Vec<&FileReport> = report
        .files
        .iter()
        .filter(|f| !f.diagnostics.is_empty())
        .collect();
    let files = plural(report.files.len(), "file", "files");
    if all.is_empty() {
        let _ = writeln!(out, "### ✅ netlint: no findings in {files}");
        return out;
    }
    let single = report.files.len() == 1;
    if single {
        let _ = writeln!(
            out,
            "### netlint: {} in {}\n",
            counts(&all),
            code(&repo_path(&report.files[0].file.path), false)
        );
    } else {
        let _ = writeln!(
            out,
            "### netlint: {} in {} of {files}\n",
            counts(&all),
            with.len()
        );
    }
    // What the rest may take: the closing note and footer have room kept.
    let mut budget = MAX_CHARS.saturating_sub(chars(&out) + RESERVED);
    let mut rows_left = MAX_ROWS;
    let mut left_out = 0;
    let mut diagrams_left_out = 0;
    for f in report.files.iter() {
        if f.diagnostics.is_empty() {
            continue;
        }
        let path = repo_path(&f.file.path);
        let diags = ordered(f);
        let head = if single {
            String::new()
        } else {
            format!("#### {}: {}\n\n", code(&path, false), counts(&diags))
        };
        let cap = diags.len().min(rows_left);
        let drawing = f
            .design
            .as_ref()
            .map(|design| diagram(design, &f.diagnostics))
            .unwrap_or_default();
        // As many rows as fit, the diagram only with every row.
        let mut shown = cap;
        let mut section = file_section(report, f, &head, &diags[..shown]);
        if shown == cap && chars(&section) + chars(&drawing) <= budget {
            section.push_str(&drawing);
        } else {
            if !drawing.is_empty() {
                diagrams_left_out += 1;
            }
            while shown > 0 && chars(&section) > budget {
                shown -= 1;
                section = file_section(report, f, &head, &diags[..shown]);
            }
        }
        if chars(&section) > budget {
            // Not even the heading fits.
            section.clear();
        }
        budget -= chars(&section);
        out.push_str(&section);
        left_out += diags.len() - shown;
        rows_left -= shown;
    }
    if left_out > 0 || diagrams_left_out > 0 {
        let mut parts = Vec::new();
        if left_out > 0 {
            parts.push(plural(left_out, "more finding", "more findings"));
        }
        if diagrams_left_out > 0 {
            parts.push(plural(diagrams_left_out, "diagram", "diagrams"));
        }
        let _ = writeln!(
            out,
            "… and {} left out to keep this report within a pull-request comment \
             ({MAX_ROWS} rows, {MAX_CHARS} characters): the full report is the output of \
             `netlint check` on these files (in CI, the job log; `--format json` or \
             `--format sarif` for every finding).\n",
            parts.join(" and ")
        );
    }
    let _ = writeln!(
        out,
        "<sub>Each rule links to its page: what it detects, why it matters, how to fix it. \
         Suppress a finding with `allow = {{ rule-id = \"reason\" }}` on the element.</sub>"
    );
    out
}

/// Characters as GitHub counts them for a comment's limit (UTF-16 code
/// units, which are at least as many as Unicode characters).
pub fn chars(s: &str) -> usize {
    s.encode_utf16().count()
}

/// One file's part of the report: its heading (several files), the table of
/// `diags` and their fixes.
fn file_section(report: &Report, f: &FileReport, head: &str, diags: &[&Diagnostic]) -> String {
    let mut out = head.to_owned();
    if diags.is_empty() {
        return out;
    }
    let more = f
        .design
        .as_deref()
        .map(backticked_names)
        .unwrap_or_default();
    let _ = writeln!(out, "| Severity | Rule | Element | Line | Finding |");
    let _ = writeln!(out, "| :-- | :-- | :-- | --: | :-- |");
    for d in diags {
        let line = match super::primary_place(report, &f.file, d) {
            (path, Some((start, _))) if path == f.file.path => start.line.to_string(),
            (path, Some((start, _))) => format!("{}:{}", code(path, true), start.line),
            _ => String::new(),
        };
        let names = names(d, &more);
        let element = match d.element() {
            e if e.is_empty() => String::new(),
            e => code(&e, true),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {element} | {line} | {} |",
            icon(d.severity),
            rule_link(report, &d.rule),
            cell(&d.message, &names)
        );
    }
    let helps: Vec<&&Diagnostic> = diags.iter().filter(|d| d.help.is_some()).collect();
    if !helps.is_empty() {
        let _ = writeln!(
            out,
            "\n<details><summary>How to fix ({})</summary>\n",
            helps.len()
        );
        for d in helps {
            let on = match d.element() {
                e if e.is_empty() => String::new(),
                e => format!(" on {}", code(&e, false)),
            };
            let _ = writeln!(
                out,
                "- **{}**{on}: {}",
                code(&d.rule, false),
                text(d.help.as_deref().unwrap_or(""), false, &names(d, &more))
            );
        }
        let _ = writeln!(out, "\n</details>");
    }
    out.push('\n');
    out
}

/// The part of the network that the spanning-tree and redundancy findings
/// are about, as a Mermaid diagram (nothing when there are none).
fn diagram(design: &Design, diagnostics: &[Diagnostic]) -> String {
    let mut out = String::new();
    let about: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|d| wants_diagram(&d.rule))
        .collect();
    if about.is_empty() {
        return out;
    }
    let elements: Vec<String> = about
        .iter()
        .flat_map(|d| graph::finding_elements(d))
        .collect();
    let elements: Vec<&str> = elements.iter().map(String::as_str).collect();
    let stp = about.iter().any(|d| is_stp(&d.rule));
    let scope = graph::scope_of(design, &elements, stp);
    let whole = scope.switches.is_empty() && scope.hosts.is_empty();
    let opts = GraphOptions {
        scope: (!whole).then_some(scope),
        ..GraphOptions::default()
    };
    let Ok(scene) = graph::build(design, diagnostics, &opts) else {
        return out;
    };
    let mut rules: Vec<&str> = about.iter().map(|d| d.rule.as_str()).collect();
    rules.sort();
    rules.dedup();
    let rules: Vec<String> = rules.iter().map(|r| code(r, false)).collect();
    let _ = writeln!(
        out,
        "**{}** ({}). {}. Dashed links are blocked, red ones cut a network; hosts built alike are one node.\n",
        if whole {
            "The network"
        } else {
            "The affected part of the network"
        },
        rules.join(", "),
        cell(&upper_first(&scene.notes.join("; ")), &[])
    );
    let _ = writeln!(out, "```mermaid");
    out.push_str(&mermaid::render_body(&scene));
    let _ = writeln!(out, "```\n");
    out
}
