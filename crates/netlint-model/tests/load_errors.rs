//! Input errors as the loader reports them: suggestions that do not lead to
//! another error, duplicates pointing at the first definition, and one
//! diagnostic per real syntax error.

use netlint_model::{load, Diagnostic, SourceFile};

fn diags(text: &str) -> (SourceFile, Vec<Diagnostic>) {
    let file = SourceFile::new("t.toml", text);
    let loaded = load(&file);
    assert!(loaded.design.is_none(), "the design must not load");
    (file.clone(), loaded.diagnostics)
}

fn line(file: &SourceFile, d: &Diagnostic) -> usize {
    file.line_col(d.primary.as_ref().unwrap().span.start).line
}

const SWITCHES: &str = r#"
[design]
name = "t"
[switches.tor-a]
[switches.tor-b]
"#;

#[test]
fn a_link_end_is_never_suggested_to_be_its_other_end() {
    // tor-c is as close to tor-a as to tor-b; tor-a would be a link from a
    // switch to itself.
    let text = format!("{SWITCHES}[[links]]\na = \"tor-a\"\nb = \"tor-c\"\nspeed = \"10G\"\n");
    let (_, d) = diags(&text);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(
        d[0].message,
        "unknown switch `tor-c`, did you mean `tor-b`?"
    );
    // The same from the other end, and in a multi-chassis list.
    let text = format!("{SWITCHES}[[links]]\na = \"tor-c\"\nb = \"tor-a\"\nspeed = \"10G\"\n");
    let (_, d) = diags(&text);
    assert_eq!(
        d[0].message,
        "unknown switch `tor-c`, did you mean `tor-b`?"
    );
    let text = format!(
        "{SWITCHES}[[links]]\na = \"tor-b\"\nb = [\"tor-a\", \"tor-c\"]\nspeed = \"10G\"\n"
    );
    let (_, d) = diags(&text);
    let unknown: Vec<_> = d
        .iter()
        .filter(|x| x.message.starts_with("unknown switch"))
        .collect();
    assert_eq!(unknown.len(), 1, "{d:#?}");
    assert_eq!(unknown[0].message, "unknown switch `tor-c`");
}

#[test]
fn a_host_table_defined_twice_is_one_error_pointing_at_the_first() {
    let text = r#"[design]
name = "t"

[profiles.p.nics.A]
speed = "10G"

[hosts.hv01]
profile = "p"

[hosts.hv02]
profile = "p"

[hosts.hv03]
profile = "p"

[hosts.hv02]
profile = "p"
memory_gb = 256
"#;
    let (file, d) = diags(text);
    assert_eq!(d.len(), 1, "no knock-on errors: {d:#?}");
    assert_eq!(line(&file, &d[0]), 16);
    assert!(
        d[0].message.contains("`[hosts.hv02]` is defined twice"),
        "{}",
        d[0].message
    );
    let first = d[0].related[0].span;
    assert_eq!(file.line_col(first.start).line, 10);
    assert_eq!(d[0].related[0].message, "first defined here");
}

#[test]
fn one_missing_bracket_is_one_syntax_error() {
    let mut text = String::from(
        "[design]\nname = \"t\"\n\n[networks.csv]\nrole = \"csv\"\nvlan = 20\n\n[switches.tor-a]\nvlans = [10, 20\nmtu = 9216\n",
    );
    for i in 0..30 {
        text.push_str(&format!(
            "\n[hosts.hv{i:02}.nics.A]\nspeed = \"10G\"\nswitch = \"tor-a\"\n"
        ));
    }
    let (file, d) = diags(&text);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].rule, "syntax");
    assert_eq!(line(&file, &d[0]), 9);
    assert!(d[0].message.contains("never closed"), "{}", d[0].message);
}
