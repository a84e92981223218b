//! Each rule's fix applied the way `netlint check --fix` applies it (to a
//! copy, checked again): a small design per rule, the fix carried by its
//! finding applied, the finding gone, no finding that was not there before,
//! and the edited text what the fix says.

use netlint::run::fix::{fix_source, FixMode};
use netlint::run::{check_source, CheckSettings};
use netlint_model::{Diagnostic, FixSafety, SourceFile};
use std::collections::BTreeMap;

type Key = (String, Vec<String>);

fn keys(diags: &[Diagnostic]) -> BTreeMap<Key, usize> {
    let mut out = BTreeMap::new();
    for d in diags {
        let mut s = d.subject_paths();
        s.sort();
        *out.entry((d.rule.clone(), s)).or_default() += 1;
    }
    out
}

/// `src` after `--fix --unsafe-fixes`: `rule` fired on it with a fix of
/// `safety`, every such fix was applied, none of its findings is left, and
/// no finding appeared. Returns the fixed text.
fn fixed(src: &str, rule: &str, safety: FixSafety) -> String {
    let settings = CheckSettings::default();
    let file = SourceFile::new("d.toml", src.to_string());
    let before = check_source(&file, None, &settings).0;
    assert!(
        !before.iter().any(Diagnostic::is_input_error),
        "the design loads: {before:#?}"
    );
    let mine: Vec<&Diagnostic> = before.iter().filter(|d| d.rule == rule).collect();
    assert!(!mine.is_empty(), "`{rule}` fires: {before:#?}");
    for d in &mine {
        let fix = d.fix.as_ref().unwrap_or_else(|| panic!("no fix: {d:#?}"));
        assert_eq!(fix.safety, safety, "{fix:#?}");
    }
    let out = fix_source(&file, None, &settings, FixMode::Unsafe);
    let refused: Vec<String> = out
        .not_applied
        .iter()
        .filter(|(f, _)| f.rule == rule)
        .map(|(f, why)| format!("{} on {}: {why}", f.rule, f.element))
        .collect();
    assert!(refused.is_empty(), "{}\n{}", refused.join("\n"), out.text);
    assert!(
        out.applied.iter().any(|f| f.rule == rule),
        "no `{rule}` fix applied"
    );
    let after = check_source(&SourceFile::new("d.toml", out.text.clone()), None, &settings).0;
    assert!(
        !after.iter().any(|d| d.rule == rule),
        "`{rule}` still fires:\n{}\n{after:#?}",
        out.text
    );
    let (b, a) = (keys(&before), keys(&after));
    for (k, n) in &a {
        assert!(
            b.get(k).is_some_and(|m| m >= n),
            "fixing added {k:?}\n{}",
            out.text
        );
    }
    out.text
}

/// The lines of `text` from `header` to the next table header.
fn section<'a>(text: &'a str, header: &str) -> &'a str {
    let start = text.find(header).unwrap_or_else(|| panic!("{header}:\n{text}"));
    let rest = &text[start + header.len()..];
    let end = rest.find("\n[").map_or(rest.len(), |e| e + 1);
    &rest[..end]
}

#[test]
fn mtu_path_too_small_raises_the_link_or_switch_in_its_own_form() {
    let src = r#"
[design]
name = "t"
[networks.smb]
role = "storage"
protocol = "smb"
vlan = 40
mtu = 9000
[switches.a]
SWITCH_A
[switches.b]
mtu = 9216
[[links]]
a = "a"
b = "b"
LINK
[hosts.hv1.nics.P1]
speed = "10G"
switch = "a"
mtu = 9000
networks = ["smb"]
[hosts.hv2.nics.P1]
speed = "10G"
switch = "b"
mtu = 9000
networks = ["smb"]
"#;
    // A link's `mtu = 1500` becomes 9216.
    let link = src
        .replace("SWITCH_A", "mtu = 9216")
        .replace("LINK", "mtu = 1500 # the ISL");
    let out = fixed(&link, "mtu-path-too-small", FixSafety::Safe);
    assert!(out.contains("mtu = 9216 # the ISL"), "{out}");
    // A switch's `frame_size` stays a frame size, large enough tagged.
    let frame = src
        .replace("SWITCH_A", "frame_size = 9018")
        .replace("LINK", "");
    let out = fixed(&frame, "mtu-path-too-small", FixSafety::Safe);
    assert!(out.contains("[switches.a]\nframe_size = 9022\n"), "{out}");
    // A switch with no MTU written gets one of its own.
    let default = src.replace("SWITCH_A", "").replace("LINK", "");
    let out = fixed(&default, "mtu-path-too-small", FixSafety::Safe);
    assert!(section(&out, "[switches.a]").contains("\nmtu = 9216\n"), "{out}");
}
