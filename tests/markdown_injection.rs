//! The Markdown PR report cannot be injected by a name in the design: a
//! name is always one code span it cannot close, and outside code nothing
//! is markup (no link, no emphasis, no `@` mention). Checked on the HTML
//! of a GFM renderer (comrak, with GitHub's table, autolink and
//! strikethrough extensions), as a PR comment is shown.

const LINK: &str = "x` [login](https://evil.example) @octocat www.evil.example";
const FENCE: &str = "`tor ``b`";

/// `fixtures/l2-loop.toml` with its unmanaged switch named `LINK` and a
/// ToR named `FENCE` (both in findings' messages and help).
fn evil_design(dir: &std::path::Path) -> std::path::PathBuf {
    let root = env!("CARGO_MANIFEST_DIR");
    let text = std::fs::read_to_string(format!("{root}/fixtures/l2-loop.toml")).unwrap();
    let quoted = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
    let text = text
        .replace("[switches.lab]", &format!("[switches.{}]", quoted(LINK)))
        .replace("= \"lab\"", &format!("= {}", quoted(LINK)))
        .replace("[switches.tor-b]", &format!("[switches.{}]", quoted(FENCE)))
        .replace("= \"tor-b\"", &format!("= {}", quoted(FENCE)));
    let path = dir.join("evil.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn markdown(path: &std::path::Path) -> String {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code = netlint::cli::run(
        [
            "netlint",
            "check",
            path.to_str().unwrap(),
            "--format",
            "markdown",
        ],
        &mut out,
        &mut err,
    );
    assert_eq!(code, 1, "{}", String::from_utf8_lossy(&err));
    String::from_utf8(out).unwrap()
}

fn html(md: &str) -> String {
    let mut o = comrak::Options::default();
    o.extension.table = true;
    o.extension.autolink = true;
    o.extension.strikethrough = true;
    comrak::markdown_to_html(md, &o)
}

/// The HTML with every `<code>...</code>` and the Mermaid block taken out.
fn outside_code(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(i) = rest.find("<code") {
        out.push_str(&rest[..i]);
        let end = rest[i..].find("</code>").map_or(rest.len(), |j| i + j + 7);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// `s` as HTML text.
fn escaped(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[test]
fn names_with_backticks_links_and_mentions_stay_code() {
    let dir = std::env::temp_dir().join(format!("netlint-md-inject-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let md = markdown(&evil_design(&dir));
    let h = html(&md);
    // The only links are to rule pages.
    for (i, _) in h.match_indices("<a ") {
        assert!(
            h[i..].starts_with(&format!(
                "<a href=\"{}",
                netlint::render::markdown::RULE_PAGES
            )),
            "a link that is not a rule page: {}\n{md}",
            &h[i..(i + 120).min(h.len())]
        );
    }
    assert!(!h.contains("evil.example\""), "{h}");
    // The names are shown whole, in code.
    assert!(
        h.contains(&format!("<code>{}</code>", escaped(LINK))),
        "{LINK} is not one code span:\n{h}"
    );
    assert!(
        h.contains(&format!("<code>{}</code>", escaped(FENCE))),
        "{FENCE} is not one code span:\n{h}"
    );
    // No mention outside code; no emphasis or strikethrough from names.
    let outside = outside_code(&h);
    assert!(!outside.contains("@octocat"), "{outside}");
    assert!(
        !outside.contains("<em>") && !outside.contains("<del>"),
        "{outside}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
