//! Snapshots of the human and JSON output of every design under fixtures/
//! (invalid inputs included). `INSTA_UPDATE=no` in CI: a changed output
//! fails until its snapshot is reviewed.

use netlint::render;
use netlint::run::{run_check, CheckSettings};
use std::path::{Path, PathBuf};

fn fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    let mut stack = vec![root.join("fixtures")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "toml")
                && p.file_name().unwrap() != "netlint.toml"
            {
                out.push(p.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

fn snapshot_name(p: &Path) -> String {
    p.with_extension("")
        .to_string_lossy()
        .replace(['/', '\\'], "__")
}

#[test]
fn fixture_outputs_match_snapshots() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    let files = fixtures();
    assert!(files.len() > 5, "fixtures/ holds {} designs", files.len());
    for path in files {
        let run = run_check(std::slice::from_ref(&path), &CheckSettings::default()).unwrap();
        let human = render::human::render(
            &run.report,
            &render::human::HumanOptions {
                color: false,
                width: 80,
                // The rule page link is the same for every finding (tests/ci_fit.rs).
                rule_links: false,
                summary: true,
            },
        );
        let json = render::json::render(&run.report, run.suppressed.len());
        let name = snapshot_name(&path);
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path("snapshots");
        settings.set_prepend_module_to_snapshot(false);
        settings.set_info(&format!("exit {}", run.exit));
        settings.bind(|| {
            insta::assert_snapshot!(
                format!("{name}.human"),
                format!("exit {}\n{human}", run.exit)
            );
            insta::assert_snapshot!(format!("{name}.json"), json);
        });
        // Whatever the input, the JSON parses and agrees with the exit code.
        let doc: serde_json::Value =
            serde_json::from_str(&render::json::render(&run.report, 0)).unwrap();
        let input_error =
            doc["diagnostics"].as_array().unwrap().iter().any(|d| {
                (d["rule"] == "schema" || d["rule"] == "syntax") && d["severity"] == "error"
            });
        assert_eq!(input_error, run.exit == 2, "{}", path.display());
        if path.starts_with("fixtures/invalid") {
            assert_eq!(
                run.exit,
                2,
                "{} is an invalid input and must exit 2",
                path.display()
            );
        }
    }
}
