//! Control characters in names and values are refused at load, at the name,
//! with the character named in the message (never printed raw).

mod common;

use common::diags;
use netlint_model::{load, parse_lint_settings, SourceFile};

#[test]
fn names_with_control_characters_are_schema_errors_at_the_name() {
    let text = "[design]\nname = \"d\"\n[switches.\"tor\\u001b[31m\"]\n[switches.b]\nstack = \"s\\u0007\"\n[hosts.\"h\\u202e1\"]\n";
    assert_eq!(
        diags(text),
        vec![
            (
                3,
                "the name `tor\\u{1b}[31m` contains the control character U+001B".to_string()
            ),
            (
                5,
                "`stack` = \"s\\u{7}\" contains the control character U+0007".to_string()
            ),
            (
                6,
                "the name `h\\u{202e}1` contains the control character U+202E".to_string()
            ),
        ]
    );
    let file = SourceFile::new("d.toml", text);
    assert!(load(&file).design.is_none());
}

#[test]
fn free_text_may_hold_line_breaks_but_no_escapes() {
    let ok = "[design]\nname = \"d\"\n[switches.a]\nmodel = \"Dell\\tS5248\"\nallow = { spof-switch = \"\"\"the only switch,\non purpose\"\"\" }\n";
    assert_eq!(diags(ok), vec![]);
    let bad = "[design]\nname = \"d\"\n[switches.a]\nmodel = \"Dell\\u001b]0;pwned\\u0007\"\n";
    assert_eq!(diags(bad).len(), 1);
    // A line break in a name is refused.
    assert_eq!(diags("[design]\nname = \"two\\nlines\"\n").len(), 1);
}

#[test]
fn netlint_toml_is_checked_too() {
    let (_, d) = parse_lint_settings(&SourceFile::new(
        "netlint.toml",
        "[netlint.rules]\n\"spof-switch\\u001b\" = \"off\"\n",
    ));
    assert!(d.iter().any(|d| d.message.contains("U+001B")), "{d:#?}");
}

/// Without a single escape in the file (the load then decides from the raw
/// text whether any value needs looking at): a raw bidirectional control,
/// a raw C1 control and a raw line break in a multi-line literal string
/// are found all the same.
#[test]
fn unsafe_characters_written_raw_are_found_without_escapes() {
    let bidi = "[design]\nname = \"d\"\n[hosts.\"h\u{202e}1\"]\n";
    assert_eq!(
        diags(bidi),
        vec![(
            3,
            "the name `h\\u{202e}1` contains the control character U+202E".to_string()
        )]
    );
    let c1 = "[design]\nname = \"d\"\n[switches.a]\nstack = \"s\u{85}\"\n";
    assert_eq!(diags(c1).len(), 1);
    let literal = "[design]\nname = '''two\nlines'''\n";
    assert_eq!(diags(literal).len(), 1);
    let crlf = "[design]\r\nname = \"d\"\r\n[switches.a]\r\n";
    assert_eq!(diags(crlf), vec![]);
}
