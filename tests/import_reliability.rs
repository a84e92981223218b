//! Issue 37 through the CLI: `import` on inputs that panicked, printed
//! control characters or wrote designs its own loader refused.

mod support;
use support::run;

fn tmp(name: &str) -> std::path::PathBuf {
    support::tmp("import_reliability", name)
}

#[test]
fn lldp_json_closing_before_opening_is_exit_2_not_a_panic() {
    let f = tmp("backwards.json");
    std::fs::write(&f, "}\n\n{\n").unwrap();
    for from in ["lldp-nxos-json", "lldp-eos-json"] {
        let (code, out, err) = run(&["import", "--from", from, f.to_str().unwrap()]);
        assert_eq!(code, 2, "{from}: {out}{err}");
        assert!(err.contains("backwards.json:3"), "{from}: {err}");
    }
}
