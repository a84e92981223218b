//! Property tests: whatever the input, loading and checking never panics,
//! and every diagnostic points inside the file.
//!
//! And the fuzz campaign, replayed by `cargo test`: every fixture, as it is
//! and mutated, through every command and output format of the binary (in
//! process), asserting no panic, an exit code in {0, 1, 2}, machine output
//! that parses (JSON, SARIF, GitLab, JUnit XML), DOT of a sound structure
//! (and, in an `#[ignore]`d test that `.ci/run` runs with Graphviz
//! installed, that Graphviz accepts), and text output without a raw
//! control character.
//!
//! The import readers, `diff`, `--fix` and the server's framing have their
//! own fuzz targets in `tests/fuzz_surfaces.rs` (and the long campaign of
//! issue 37, `scripts/fuzz-campaign.sh`).

mod support;

use netlint::run::{check_source, CheckSettings};
use netlint_model::SourceFile;
use proptest::prelude::*;

fn seeds() -> Vec<String> {
    support::fixture_files()
        .into_iter()
        .map(|(_, text)| text)
        .collect()
}

fn check_text(text: String) {
    let file = SourceFile::new("fuzz.toml", text);
    let (diags, _, _) = check_source(&file, None, &CheckSettings::default());
    for d in &diags {
        for label in d.primary.iter().chain(&d.related) {
            assert!(label.span.start <= label.span.end, "{d:?}");
            assert!(label.span.end <= file.text.len(), "{d:?}");
        }
    }
}

/// One edit of a valid design: the kinds of mistake people make.
#[derive(Debug, Clone)]
enum Edit {
    DeleteLine(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    ReplaceByte(usize, u8),
    Truncate(usize),
    ReplaceValue(usize, String),
}

fn apply(text: &str, edit: &Edit) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let n = lines.len().max(1);
    match edit {
        Edit::DeleteLine(i) => {
            if !lines.is_empty() {
                lines.remove(i % n);
            }
        }
        Edit::DuplicateLine(i) => {
            if !lines.is_empty() {
                let l = lines[i % n].clone();
                lines.insert(i % n, l);
            }
        }
        Edit::SwapLines(a, b) => {
            if !lines.is_empty() {
                lines.swap(a % n, b % n);
            }
        }
        Edit::ReplaceByte(i, b) => {
            let mut bytes = text.as_bytes().to_vec();
            if !bytes.is_empty() {
                let len = bytes.len();
                bytes[i % len] = *b;
            }
            return String::from_utf8_lossy(&bytes).into_owned();
        }
        Edit::Truncate(i) => {
            let mut cut = i % (text.len() + 1);
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            return text[..cut].to_string();
        }
        Edit::ReplaceValue(i, v) => {
            if !lines.is_empty() {
                let l = &mut lines[i % n];
                if let Some(eq) = l.find('=') {
                    *l = format!("{}= {v}", &l[..eq]);
                }
            }
        }
    }
    lines.join("\n")
}

fn edit() -> impl Strategy<Value = Edit> {
    let value = prop_oneof![
        Just("\"\"".to_string()),
        Just("0".to_string()),
        Just("-1".to_string()),
        Just("99999999999999999999".to_string()),
        Just("[]".to_string()),
        Just("{}".to_string()),
        Just("[\"x\", 1]".to_string()),
        Just("\"10G\"".to_string()),
        Just("true".to_string()),
        Just("1.5".to_string()),
        Just("\"hv1:NIC1\"".to_string()),
        "[a-z0-9:\\-\\. ]{0,12}".prop_map(|s| format!("\"{s}\"")),
    ];
    prop_oneof![
        any::<usize>().prop_map(Edit::DeleteLine),
        any::<usize>().prop_map(Edit::DuplicateLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::SwapLines(a, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Edit::ReplaceByte(i, b)),
        any::<usize>().prop_map(Edit::Truncate),
        (any::<usize>(), value).prop_map(|(i, v)| Edit::ReplaceValue(i, v)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        check_text(String::from_utf8_lossy(&bytes).into_owned());
    }

    #[test]
    fn arbitrary_toml_shaped_text_never_panics(text in "(\\[[a-z._]{1,20}\\]\n|[a-z_]{1,10} = (\"[a-z0-9:-]{0,8}\"|[0-9]{1,5}|\\[[0-9, ]{0,10}\\]|\\{ [a-z]{1,5} = [0-9]{1,3} \\})\n){0,30}") {
        check_text(text);
    }

    #[test]
    fn mutated_designs_never_panic(seed in any::<prop::sample::Index>(), edits in proptest::collection::vec(edit(), 1..6)) {
        let seeds = seeds();
        let mut text = seeds[seed.index(seeds.len())].clone();
        for e in &edits {
            text = apply(&text, e);
        }
        check_text(text);
    }
}

// ---------------------------------------------------------------- the campaign

/// A small deterministic generator (xorshift64*): the campaign is the same
/// on every run, so a failure names a fixture and a mutant that reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Values a mutation writes: wrong types, out of range, empty, names that
/// exist elsewhere, and text with control characters.
const VALUES: &[&str] = &[
    "\"\"",
    "0",
    "-1",
    "99999999999999999999",
    "1e308",
    "[]",
    "{}",
    "[\"x\", 1]",
    "\"10G\"",
    "\"10T\"",
    "true",
    "1.5",
    "\"hv1:NIC1\"",
    "\"tor-a\"",
    "\"peer-link\"",
    "\"stack\"",
    "\"a\\u001b[31mb\"",
    "\"x\\ny\"",
    "[1, \"2-4094\"]",
];

fn mutant(text: &str, rng: &mut Rng) -> String {
    let mut out = text.to_string();
    for _ in 0..1 + rng.below(4) {
        let (i, j) = (rng.below(usize::MAX), rng.below(usize::MAX));
        let edit = match rng.below(7) {
            0 => Edit::DeleteLine(i),
            1 => Edit::DuplicateLine(i),
            2 => Edit::SwapLines(i, j),
            3 => Edit::ReplaceByte(i, [0x1b, 0x00, b'"', b'[', b'.', b'=', 0xff][j % 7]),
            4 => Edit::Truncate(i),
            // A control character in a key: `[switches.tor\x1b-a]`.
            5 => {
                let lines: Vec<&str> = out.lines().collect();
                let n = lines.len().max(1);
                let mut lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                if let Some(l) = lines.get_mut(i % n) {
                    if let Some(dot) = l.rfind('.').filter(|_| l.starts_with('[')) {
                        l.insert_str(dot + 1, "\"\\u001b]0;x\\u0007\"");
                        l.truncate(dot + 1 + "\"\\u001b]0;x\\u0007\"".len());
                        l.push(']');
                    }
                }
                out = lines.join("\n");
                continue;
            }
            _ => Edit::ReplaceValue(i, VALUES[j % VALUES.len()].to_string()),
        };
        out = apply(&out, &edit);
    }
    out
}

/// Runs netlint in process: (exit code, stdout, stderr).
fn netlint(args: &[&str]) -> (i32, String, String) {
    let mut argv = vec!["netlint"];
    argv.extend_from_slice(args);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = netlint::cli::run(argv, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).expect("stdout is UTF-8"),
        String::from_utf8(err).expect("stderr is UTF-8"),
    )
}

/// What each output must be.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Text,
    Json,
    Xml,
    Dot,
}

/// Every command and format, on one design file.
fn runs(path: &str, switch: Option<&str>) -> Vec<(Vec<String>, Kind)> {
    let mut v: Vec<(Vec<&str>, Kind)> = Vec::new();
    for (f, k) in [
        ("human", Kind::Text),
        ("json", Kind::Json),
        ("sarif", Kind::Json),
        ("github", Kind::Text),
        ("junit", Kind::Xml),
        ("gitlab", Kind::Json),
        ("markdown", Kind::Text),
        ("concise", Kind::Text),
    ] {
        v.push((vec!["check", path, "--format", f, "--color", "never"], k));
    }
    for (f, k) in [("human", Kind::Text), ("json", Kind::Json)] {
        v.push((vec!["topology", path, "--format", f], k));
        v.push((vec!["simulate", path, "--format", f], k));
        v.push((vec!["report", path, "--format", f], k));
    }
    v.push((vec!["report", path, "--format", "markdown"], Kind::Text));
    v.push((vec!["graph", path], Kind::Dot));
    v.push((vec!["graph", path, "--format", "mermaid"], Kind::Text));
    v.push((
        vec!["graph", path, "--detail", "host", "--hosts", "all"],
        Kind::Dot,
    ));
    v.push((vec!["baseline", path], Kind::Json));
    if let Some(s) = switch {
        v.push((
            vec!["simulate", path, "--fail", s, "--format", "json"],
            Kind::Json,
        ));
        v.push((vec!["graph", path, "--fail", s], Kind::Dot));
    }
    v.into_iter()
        .map(|(a, k)| (a.into_iter().map(str::to_string).collect(), k))
        .collect()
}

/// The first switch a design names, to fail it.
fn first_switch(text: &str) -> Option<String> {
    text.lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("[switches.")?
                .strip_suffix(']')
                .map(str::to_string)
        })
        .filter(|s| !s.contains(['.', '"']))
}

/// A DOT file's structure: braces balance outside strings and HTML labels,
/// strings close, and every HTML label `<...>` is well-formed XML.
fn check_dot_structure(dot: &str) -> Result<(), String> {
    let bytes = dot.as_bytes();
    let (mut i, mut depth) = (0usize, 0i64);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                if i >= bytes.len() {
                    return Err("a string does not close".into());
                }
            }
            b'<' => {
                let start = i;
                let mut level = 0i64;
                while i < bytes.len() {
                    match bytes[i] {
                        b'<' => level += 1,
                        b'>' => {
                            level -= 1;
                            if level == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
                if i >= bytes.len() {
                    return Err("an HTML label does not close".into());
                }
                let inner = &dot[start + 1..i];
                roxmltree::Document::parse(&format!("<l>{inner}</l>"))
                    .map_err(|e| format!("HTML label is not well-formed ({e}): <{inner}>"))?;
                // Well-formed XML Graphviz still rejects ("syntax error"): an
                // empty bold, underline or italic element (a design named "").
                if let Some(empty) = ["<b></b>", "<u></u>", "<i></i>"]
                    .iter()
                    .find(|e| inner.contains(**e))
                {
                    return Err(format!(
                        "HTML label holds {empty}, which Graphviz rejects: <{inner}>"
                    ));
                }
            }
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth < 0 {
                    return Err("a brace closes that never opened".into());
                }
            }
            _ => {}
        }
        i += 1;
    }
    if depth != 0 {
        return Err(format!("{depth} braces stay open"));
    }
    if dot
        .chars()
        .any(|c| c.is_control() && !matches!(c, '\n' | '\t'))
    {
        return Err("a raw control character".into());
    }
    Ok(())
}

fn check_output(
    args: &[String],
    kind: Kind,
    code: i32,
    out: &str,
    err: &str,
) -> Result<(), String> {
    if !matches!(code, 0..=2) {
        return Err(format!("exit {code}"));
    }
    for (name, text) in [("stdout", out), ("stderr", err)] {
        if let Some(c) = text
            .chars()
            .find(|c| c.is_control() && !matches!(c, '\n' | '\t'))
        {
            return Err(format!(
                "raw control character U+{:04X} on {name}",
                c as u32
            ));
        }
    }
    if out.is_empty() {
        // Nothing written: an input or usage error, or a format that
        // writes nothing for a clean run (GitHub annotations).
        return if code == 2 || args[0] == "baseline" || args.iter().any(|a| a == "github") {
            Ok(())
        } else {
            Err(format!("exit {code} and no output"))
        };
    }
    match kind {
        Kind::Text => Ok(()),
        Kind::Json => {
            let doc: serde_json::Value =
                serde_json::from_str(out).map_err(|e| format!("JSON does not parse: {e}"))?;
            if args.iter().any(|a| a == "sarif") && doc["version"] != "2.1.0" {
                return Err("SARIF without version 2.1.0".into());
            }
            Ok(())
        }
        Kind::Xml => roxmltree::Document::parse(out)
            .map(|_| ())
            .map_err(|e| format!("JUnit XML is not well-formed: {e}")),
        Kind::Dot => check_dot_structure(out),
    }
}

#[test]
fn every_fixture_mutated_through_every_command_and_format() {
    campaign(false);
}

/// The campaign's DOT pictures, each rendered by Graphviz (which a plain
/// `cargo test` does not assume).
#[test]
#[ignore = "needs Graphviz `dot`; .ci/run installs it"]
fn every_fuzzed_dot_picture_renders_with_graphviz() {
    campaign(true);
}

/// The fuzz campaign; with `graphviz`, only the runs that draw DOT, each
/// picture then rendered by Graphviz.
fn campaign(graphviz: bool) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(if graphviz {
        "fuzz-campaign-dot"
    } else {
        "fuzz-campaign"
    });
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x6e65_746c_696e_7421);
    let mut failures = Vec::new();
    let (mut designs, mut runs_done) = (0, 0);
    let mut dots = Vec::new();
    for (fixture, text) in support::fixture_files() {
        // The fixture itself, then mutants of it.
        let mut variants = vec![text.clone()];
        for _ in 0..2 {
            variants.push(mutant(&text, &mut rng));
        }
        for (m, variant) in variants.iter().enumerate() {
            designs += 1;
            let path = dir.join(format!("d{designs}.toml"));
            std::fs::write(&path, variant).unwrap();
            let path_s = path.to_str().unwrap();
            let switch = first_switch(variant);
            for (args, kind) in runs(path_s, switch.as_deref()) {
                if graphviz && kind != Kind::Dot {
                    continue;
                }
                let argv: Vec<&str> = args.iter().map(String::as_str).collect();
                let (code, out, err) = netlint(&argv);
                runs_done += 1;
                if let Err(why) = check_output(&args, kind, code, &out, &err) {
                    failures.push(format!(
                        "{fixture} mutant {m} (kept as {}): netlint {}: {why}",
                        path.display(),
                        args.join(" ")
                    ));
                }
                if kind == Kind::Dot && !out.is_empty() {
                    let f = dir.join(format!("d{designs}-{}.dot", dots.len()));
                    std::fs::write(&f, &out).unwrap();
                    dots.push((
                        f,
                        format!("{fixture} mutant {m}: netlint {}", args.join(" ")),
                    ));
                }
            }
        }
    }
    if graphviz {
        // One Graphviz run per picture (several files in one run can crash
        // Graphviz itself, a bug of its own).
        for (f, what) in &dots {
            let out = std::process::Command::new("dot")
                .arg("-Tcanon")
                .arg(f)
                .output()
                .expect("Graphviz `dot` runs (apt-get install graphviz)");
            let stderr = String::from_utf8_lossy(&out.stderr);
            if !out.status.success() || stderr.contains("rror") {
                failures.push(format!(
                    "Graphviz rejects {} ({what}): {stderr}",
                    f.display()
                ));
            }
        }
    }
    let least = if graphviz { 200 } else { 2000 };
    assert!(
        designs > 100 && runs_done > least,
        "{designs} designs, {runs_done} runs"
    );
    assert!(dots.len() > 200, "{} DOT pictures", dots.len());
    assert!(
        failures.is_empty(),
        "{} of {runs_done} runs failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A design named `""` (a mutant of the fuzz campaign found it) drew
/// `label=<<b></b>...>` as its graph's title, which Graphviz rejects; every
/// view of it is a picture Graphviz reads.
#[test]
fn a_design_named_empty_draws_pictures_graphviz_reads() {
    let text = std::fs::read_to_string("fixtures/host-override-mtu.toml")
        .unwrap()
        .replacen("name = \"set-jumbo-override\"", "name = \"\"", 1);
    assert!(text.contains("name = \"\""));
    let path = support::tmp("no-panic", "empty-name.toml");
    std::fs::write(&path, text).unwrap();
    let p = path.to_str().unwrap();
    for args in [
        vec!["graph", p],
        vec!["graph", p, "--detail", "host", "--hosts", "all"],
    ] {
        let (code, out, err) = netlint(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        check_dot_structure(&out).unwrap_or_else(|e| panic!("{args:?}: {e}"));
    }
}
