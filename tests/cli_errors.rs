//! Errors about files in plain words: no "(os error N)", no serde jargon.

fn run(args: &[&str]) -> (i32, String) {
    let mut argv = vec!["netlint"];
    argv.extend_from_slice(args);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = netlint::cli::run(argv, &mut out, &mut err);
    (code, String::from_utf8(err).unwrap())
}

#[test]
fn unreadable_files_are_named_with_a_plain_reason() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    for (args, want) in [
        (
            vec!["topology", "/nonexistent/d.toml"],
            "netlint: cannot read /nonexistent/d.toml: no such file or directory\n",
        ),
        (
            vec!["report", "/nonexistent/d.toml"],
            "netlint: cannot read /nonexistent/d.toml: no such file or directory\n",
        ),
        (
            vec![
                "check",
                "fixtures/example.toml",
                "--baseline",
                "/nonexistent/b.json",
            ],
            "netlint: cannot read baseline /nonexistent/b.json: no such file or directory\n",
        ),
    ] {
        let (code, err) = run(&args);
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(err, want, "{args:?}");
    }
}

#[test]
fn a_malformed_baseline_is_explained_without_serde_words() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    let p = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("bad-baseline.json");
    std::fs::write(&p, "{\"version\": \"two\"}").unwrap();
    let (code, err) = run(&[
        "check",
        "fixtures/example.toml",
        "--baseline",
        p.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.ends_with("not a netlint baseline: found the text \"two\" where a whole number is expected, at line 1, column 17\n"),
        "{err}"
    );
    assert!(
        !err.contains("invalid type") && !err.contains("os error"),
        "{err}"
    );
}
