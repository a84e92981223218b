//! `--stack-as-unit` on `netlint check`, and `stack_as_unit` in the
//! `[netlint]` table of a design or a netlint.toml: a stack is judged as one
//! failure unit by spof-switch.

use std::path::{Path, PathBuf};

fn run(args: &[&str]) -> (i32, String, String) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut argv = vec!["netlint"];
    argv.extend_from_slice(args);
    let code = netlint::cli::run(argv, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

const STACK: &str = "fixtures/spof-stack.toml";

#[test]
fn check_takes_stack_as_unit_and_spof_switch_judges_the_stack_whole() {
    std::env::set_current_dir(root()).unwrap();
    // Member by member: each member's failure is survived; only an info.
    let (code, out, err) = run(&["check", STACK, "--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains("\"spof-switch\""), "{out}");
    assert!(out.contains("\"spof-stack\""), "{out}");
    // The stack as one unit: the team over both members is a single point.
    let (code, out, err) = run(&["check", STACK, "--stack-as-unit", "--format", "json"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.is_empty(), "{err}");
    assert!(
        out.contains("if stack `stack-a` (`st-1`, `st-2`) fails, hosts `hv1`, `hv2` lose"),
        "{out}"
    );
    assert!(!out.contains("\"spof-stack\""), "{out}");
}

#[test]
fn a_netlint_toml_can_set_it_and_the_design_overrides_it() {
    let dir: PathBuf = Path::new(env!("CARGO_TARGET_TMPDIR")).join("stack_as_unit-config");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let design = std::fs::read_to_string(root().join(STACK)).unwrap();
    std::fs::write(dir.join("stack.toml"), &design).unwrap();
    std::fs::write(
        dir.join("netlint.toml"),
        "[netlint]\nstack_as_unit = true\n",
    )
    .unwrap();
    let path = dir.join("stack.toml");
    let path = path.to_str().unwrap();
    let (code, out, _) = run(&["check", path, "--format", "json"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("if stack `stack-a`"), "{out}");
    // The design's own table wins over netlint.toml.
    let own = design.replacen(
        "[networks.mgmt]",
        "[netlint]\nstack_as_unit = false\n\n[networks.mgmt]",
        1,
    );
    std::fs::write(dir.join("stack.toml"), own).unwrap();
    let (code, out, _) = run(&["check", path, "--format", "json"]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("if stack `stack-a`"), "{out}");
    // And the command line over both.
    let (code, _, _) = run(&["check", path, "--stack-as-unit"]);
    assert_eq!(code, 1);
}
