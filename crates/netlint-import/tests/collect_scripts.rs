//! The collection scripts netlint ships (`netlint collect`) parse as
//! PowerShell: tree-sitter's PowerShell grammar finds no ERROR or MISSING
//! node in them, and does in a copy broken on purpose (so the test can
//! fail).

use tree_sitter::{Node, Parser};

fn problems(text: &str) -> Vec<String> {
    let mut p = Parser::new();
    p.set_language(&tree_sitter_powershell::LANGUAGE.into())
        .expect("the grammar loads");
    let tree = p.parse(text, None).expect("the parser returns a tree");
    let mut out = Vec::new();
    fn walk(n: Node<'_>, text: &str, out: &mut Vec<String>) {
        if n.is_error() || n.is_missing() {
            let line = n.start_position().row + 1;
            let src = text.lines().nth(line - 1).unwrap_or("");
            out.push(format!(
                "line {line}: {} `{}`",
                if n.is_missing() { "missing" } else { "error" },
                src.trim()
            ));
        }
        let mut c = n.walk();
        for child in n.children(&mut c) {
            walk(child, text, out);
        }
    }
    walk(tree.root_node(), text, &mut out);
    out
}

const HYPERV: &str = include_str!("../../../scripts/collect-hyperv.ps1");

#[test]
fn collect_hyperv_parses_as_powershell() {
    let p = problems(HYPERV);
    assert!(p.is_empty(), "{}", p.join("\n"));
}

#[test]
fn a_broken_copy_does_not() {
    // An unclosed script block and an unclosed hashtable.
    let broken = HYPERV.replacen(
        "Add-Output 'Get-NetAdapter' {",
        "Add-Output 'Get-NetAdapter' {{",
        1,
    );
    assert!(!problems(&broken).is_empty());
    let broken = HYPERV.replacen(
        "$collection = [ordered]@{",
        "$collection = [ordered]@{ (",
        1,
    );
    assert!(!problems(&broken).is_empty());
}

#[test]
fn the_script_is_read_only() {
    // Only Get-* cmdlets and CIM queries touch the host: no Set-, New-
    // (except the output folder), Remove-, Enable-, Disable-, Add-Vm...
    for (i, line) in HYPERV.lines().enumerate() {
        let l = line.trim();
        if l.starts_with('#') || l.starts_with("Set-StrictMode") {
            continue;
        }
        for verb in [
            "Set-",
            "Remove-",
            "Enable-",
            "Disable-",
            "Restart-",
            "Stop-",
            "Start-",
            "Rename-",
            "Invoke-CimMethod",
        ] {
            assert!(
                !l.contains(verb),
                "line {}: `{l}` changes something ({verb})",
                i + 1
            );
        }
        if l.contains("New-") {
            assert!(
                l.contains("New-Item -ItemType Directory"),
                "line {}: `{l}`",
                i + 1
            );
        }
    }
}

const VSPHERE: &str = include_str!("../../../scripts/collect-vsphere.ps1");

#[test]
fn collect_vsphere_parses_as_powershell() {
    let p = problems(VSPHERE);
    assert!(p.is_empty(), "{}", p.join("\n"));
    // And a copy broken on purpose does not.
    let broken = VSPHERE.replacen(
        "function Get-HostNetwork($vmhost) {",
        "function Get-HostNetwork($vmhost) {{",
        1,
    );
    assert_ne!(broken, VSPHERE);
    assert!(!problems(&broken).is_empty());
}
