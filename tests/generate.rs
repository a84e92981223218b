//! `netlint generate` proven by reading back (issue 36): for every design
//! with switches (fixtures/*.toml, tests/data/reference/*.toml) and each
//! vendor, the generated configs and cabling are imported (every line
//! understood), diffed against the design (no difference but the known
//! ones, listed exactly in a snapshot) and checked (no rule the design
//! does not fire).

mod support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use support::run;

const VENDORS: [&str; 4] = ["nxos", "eos", "os10", "ios"];

/// Why the differences below remain (docs/generate.md, "What is not
/// generated").
const REASONS: &str = "\
Reasons:
  refused: what the vendor cannot build is not generated at all (exit 2, nothing written; the line
    is the first cause's message): a stack on nxos, eos, os10 (no switch stacking); on ios an MLAG
    domain (Catalyst has none) and PFC / ETS (no Catalyst QoS written yet); on os10 a peer link that
    keeps VLANs off (the VLT interconnect carries every VLAN); on eos a port cost under MST (set per
    instance, no EOS command found). A Catalyst stack is generated as one config and read back as
    its members (`HOSTNAME-N`), paired with the design's in order; its stacking cables are in no
    config, and `diff` matches them against the stack.
  drift-stp mode on nxos, ios: NX-OS and Catalyst have no plain RSTP mode; written as MST with one
    region, the same trees in every VLAN and state, so `diff` says it at info (counted below).
  drift-stp priority on nxos vPC peers: under vPC peer-switch Cisco requires one spanning-tree
    priority on both peers (documents 118858, 217274); a design that gives the peers two is
    generated with the domain's (the lower) on both: the same trees, said at info.
";

/// Every design with switches, sorted.
fn designs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["fixtures", "tests/data/reference"] {
        for e in std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "toml") {
                let text = std::fs::read_to_string(&p).unwrap();
                if text
                    .lines()
                    .any(|l| l.starts_with("[switches.") || l.starts_with("switches."))
                {
                    out.push(p);
                }
            }
        }
    }
    out.sort();
    out
}

fn rel(p: &Path) -> String {
    p.strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap()
        .display()
        .to_string()
}

/// Generates `design` for `vendor` into a fresh folder: the exit code,
/// the files written and standard error.
fn try_generate(design: &Path, vendor: &str, dir: &Path) -> (i32, Vec<String>, String) {
    let _ = std::fs::remove_dir_all(dir);
    let (code, _, err) = run(&[
        "generate",
        design.to_str().unwrap(),
        "--vendor",
        vendor,
        "-o",
        dir.to_str().unwrap(),
    ]);
    let mut files: Vec<String> = match std::fs::read_dir(dir) {
        Ok(rd) => rd
            .map(|e| e.unwrap().path().to_str().unwrap().to_string())
            .collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    (code, files, err)
}

/// Generates `design` for `vendor` into a fresh folder, which must
/// succeed; the files.
fn generate(design: &Path, vendor: &str, dir: &Path) -> (Vec<String>, String) {
    let (code, files, err) = try_generate(design, vendor, dir);
    assert_eq!(code, 0, "{}: {err}", design.display());
    (files, err)
}

/// A refusal's first diagnostic: its message (`  × ...` and the lines it
/// wraps onto), on one line.
fn first_refusal(err: &str) -> String {
    let mut lines = err
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("× "));
    let Some(first) = lines.next() else {
        return String::new();
    };
    let mut text = first.trim().to_string();
    for l in lines.take_while(|l| l.trim_start().starts_with("│ ")) {
        text.push(' ');
        text.push_str(l.trim_start().trim_start_matches("│ ").trim());
    }
    text
}

/// `netlint diff DESIGN FILES --format concise --exit-zero`.
fn diff_concise(design: &Path, files: &[String]) -> (i32, String, String) {
    let mut args = vec![
        "diff",
        design.to_str().unwrap(),
        "--format",
        "concise",
        "--exit-zero",
    ];
    args.extend(files.iter().map(String::as_str));
    run(&args)
}

/// The rule ids a `check --format concise` output names.
fn rules(concise: &str) -> BTreeSet<String> {
    concise
        .lines()
        .filter_map(|l| {
            let start = l.find('[')? + 1;
            let end = start + l[start..].find(']')?;
            Some(l[start..end].to_string())
        })
        .collect()
}

#[test]
fn every_design_reads_back_for_every_vendor() {
    let mut known = String::new();
    let mut round_trips = 0;
    let mut clean = 0;
    let mut infos: std::collections::BTreeMap<String, usize> = Default::default();
    let mut refused = 0;
    let mut refused_per: std::collections::BTreeMap<&str, usize> = Default::default();
    for design in designs() {
        let d = design.to_str().unwrap();
        let (_, _, design_check) = (0, 0, run(&["check", d, "--format", "concise"]).1);
        let design_rules = rules(&design_check);
        for vendor in VENDORS {
            let name = format!("{}-{vendor}", design.file_stem().unwrap().to_str().unwrap());
            let dir = support::tmp("generate", &name);
            let (code, files, err) = try_generate(&design, vendor, &dir);
            if code == 2 {
                // Refused: nothing written, and said why (a refusal
                // cannot hide a crash: the line is the diagnostic's).
                assert!(files.is_empty() && !dir.exists(), "{name}: {files:?}");
                assert!(err.contains("nothing generated"), "{name}: {err}");
                let first = first_refusal(&err);
                assert!(!first.is_empty(), "{name}: {err}");
                let causes = err.matches("generate-unsupported").count();
                refused += 1;
                *refused_per.entry(vendor).or_insert(0) += 1;
                known.push_str(&format!(
                    "{} {vendor}: refused ({causes} cause{}): {first}\n",
                    rel(&design),
                    if causes == 1 { "" } else { "s" }
                ));
                continue;
            }
            assert_eq!(code, 0, "{name}: {err}");
            let args: Vec<&str> = files.iter().map(String::as_str).collect();
            // (1) every line of every file understood.
            let mut import = vec!["import"];
            import.extend(&args);
            let (code, _, err) = run(&import);
            assert_eq!(code, 0, "{name}: import: {err}");
            for line in err.lines().filter(|l| l.contains(" not understood")) {
                assert!(
                    line.ends_with(" 0 not understood"),
                    "{name}: import: {line}"
                );
            }
            // (2) no difference but the known ones.
            let mut diff = vec!["diff", d, "--format", "concise", "--exit-zero"];
            diff.extend(&args);
            let (code, out, err) = run(&diff);
            assert_eq!(code, 0, "{name}: diff: {err}");
            let found: Vec<String> = out
                .lines()
                .filter(|l| l.contains("[drift"))
                .map(|l| {
                    // The rule and the element: what differs, not how the
                    // rules word its consequence.
                    let at = l.find(": ").map_or(l, |i| &l[i + 2..]);
                    // A switch paired under another name (a stack member
                    // read back as `HOSTNAME-N`) is named as the design's.
                    let at = &without_built_name(at);
                    if at.starts_with("info[") {
                        // Information, by what differs: up to the values.
                        let what = at.split(" as built").next().unwrap_or(at);
                        return what
                            .split(" in the design")
                            .next()
                            .unwrap_or(what)
                            .to_string();
                    }
                    let head = at.split(": ").next().unwrap_or(at);
                    let head = head.split(" as built").next().unwrap_or(head);
                    head.split(" in the design")
                        .next()
                        .unwrap_or(head)
                        .to_string()
                })
                .collect();
            round_trips += 1;
            // Information (a setting that changes no tree, a larger MTU)
            // is counted by kind; warnings and errors are listed.
            let (said, found): (Vec<String>, Vec<String>) =
                found.into_iter().partition(|f| f.starts_with("info["));
            for f in said {
                let mut kind = String::new();
                for (i, part) in f.split('`').enumerate() {
                    kind.push_str(if i % 2 == 1 { "`X`" } else { part });
                }
                *infos.entry(format!("{vendor}: {kind}")).or_insert(0) += 1;
            }
            // Every vendor builds every design it does not refuse with no
            // warning or error left.
            assert!(found.is_empty(), "{name}: {found:#?}");
            if found.is_empty() {
                clean += 1;
            } else {
                known.push_str(&format!("{} {vendor}:\n", rel(&design)));
                for f in found {
                    known.push_str(&format!("  {f}\n"));
                }
            }
            // (3) no rule the design does not fire.
            let mut check = vec!["check", "--format", "concise", "--exit-zero"];
            check.extend(&args);
            let (_, out, _) = run(&check);
            let extra: Vec<String> = rules(&out).difference(&design_rules).cloned().collect();
            if !extra.is_empty() {
                known.push_str(&format!(
                    "{} {vendor}: check fires {} (the design does not)\n",
                    rel(&design),
                    extra.join(", ")
                ));
            }
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
    assert!(round_trips >= 180, "{round_trips} round trips");
    known.push_str("Said at info (no warning or error), by kind:\n");
    for (kind, n) in &infos {
        known.push_str(&format!("  {n} x {kind}\n"));
    }
    let per: Vec<String> = refused_per
        .iter()
        .map(|(v, n)| format!("{v} {n}"))
        .collect();
    known.insert_str(
        0,
        &format!(
            "{round_trips} round trips, {clean} with no warning or error; {refused} refused ({}); the known differences:\n{}",
            per.join(", "),
            REASONS
        ),
    );
    insta::assert_snapshot!("known_differences", known);
}

#[test]
fn example_design_per_vendor() {
    let design = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/example.toml");
    for vendor in VENDORS {
        let dir = support::tmp("generate", &format!("example-snap-{vendor}"));
        if vendor == "ios" {
            // Its ToRs are an MLAG pair, which Catalyst cannot build: the
            // refusal, as the engineer reads it.
            let (code, files, err) = try_generate(&design, vendor, &dir);
            assert_eq!(code, 2, "{err}");
            assert!(files.is_empty(), "{files:?}");
            let err = err.replace(concat!(env!("CARGO_MANIFEST_DIR"), "/"), "");
            insta::assert_snapshot!("example_ios_refused", err);
            continue;
        }
        let (files, err) = generate(&design, vendor, &dir);
        assert!(err.contains("finding(s)"), "{err}");
        let mut all = String::new();
        for f in &files {
            let name = Path::new(f).file_name().unwrap().to_str().unwrap();
            all.push_str(&format!("==> {name} <==\n"));
            all.push_str(&std::fs::read_to_string(f).unwrap());
        }
        insta::assert_snapshot!(format!("example_{vendor}"), all);
        // Deterministic: a second run writes the same bytes.
        let again = support::tmp("generate", &format!("example-again-{vendor}"));
        let (files2, _) = generate(&design, vendor, &again);
        for (a, b) in files.iter().zip(&files2) {
            assert_eq!(std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
        }
    }
}

/// The generated configs of every reference design
/// (tests/data/reference), per vendor, committed as snapshots to be read
/// as an engineer reads a config; a design the vendor cannot build is its
/// refusal, as the engineer reads it.
#[test]
fn reference_designs_per_vendor() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/reference");
    let mut designs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    designs.sort();
    assert!(designs.len() >= 6, "{designs:?}");
    for design in designs {
        let stem = design.file_stem().unwrap().to_str().unwrap().to_string();
        for vendor in VENDORS {
            let dir = support::tmp("generate", &format!("reference-{stem}-{vendor}"));
            let (code, files, err) = try_generate(&design, vendor, &dir);
            let text = if code == 2 {
                assert!(files.is_empty(), "{files:?}");
                assert!(err.contains("nothing generated"), "{err}");
                err.replace(concat!(env!("CARGO_MANIFEST_DIR"), "/"), "")
            } else {
                assert_eq!(code, 0, "{stem} {vendor}: {err}");
                let mut all = String::new();
                for f in &files {
                    let name = Path::new(f).file_name().unwrap().to_str().unwrap();
                    all.push_str(&format!("==> {name} <==\n"));
                    all.push_str(&std::fs::read_to_string(f).unwrap());
                }
                all
            };
            insta::assert_snapshot!(format!("reference_{stem}_{vendor}"), text);
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

#[test]
fn a_design_that_does_not_load_exits_2() {
    let dir = support::tmp("generate", "bad");
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "[design\nname = 1\n").unwrap();
    let out = dir.join("out");
    let (code, _, err) = run(&[
        "generate",
        bad.to_str().unwrap(),
        "--vendor",
        "eos",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("does not load"), "{err}");
    assert!(!out.exists());
}

/// vPC `peer-switch` wants one spanning-tree priority on both peers
/// (Cisco documents 118858 and 217274): an NX-OS pair the design gives
/// 4096 and 8192 (fixtures/host-asymmetry.toml's tor-a / tor-b) is
/// generated with the domain's 4096 on both, said in a note, and the
/// configs read back raise no `vpc-peer-switch-priority`.
#[test]
fn vpc_peers_under_peer_switch_get_the_domains_priority() {
    let design = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/host-asymmetry.toml");
    let text = std::fs::read_to_string(&design).unwrap();
    assert!(text.contains("priority = 4096") && text.contains("priority = 8192"));
    let dir = support::tmp("generate", "peer-switch");
    let (files, err) = generate(&design, "nxos", &dir);
    let read = |name: &str| {
        let f = files.iter().find(|f| f.ends_with(name)).unwrap();
        std::fs::read_to_string(f).unwrap()
    };
    let (a, b) = (read("tor-a.cfg"), read("tor-b.cfg"));
    for cfg in [&a, &b] {
        assert!(cfg.contains("  peer-switch\n"), "{cfg}");
        assert!(cfg.contains("spanning-tree mst 0 priority 4096\n"), "{cfg}");
        assert!(!cfg.contains("priority 8192"), "{cfg}");
    }
    assert!(
        format!("{err}{b}").contains("vPC peer-switch: tor-b gets the spanning-tree priorities of its domain (the lowest of it and tor-a)"),
        "{err}\n{b}"
    );
    let cfgs: Vec<&str> = files
        .iter()
        .filter(|f| f.ends_with(".cfg"))
        .map(String::as_str)
        .collect();
    let mut args = vec!["check"];
    args.extend(cfgs);
    args.extend(["--format", "concise"]);
    let (_, out, _) = run(&args);
    assert!(!rules(&out).contains("vpc-peer-switch-priority"), "{out}");
}

/// A link whose ends the design bundles two ways (`lag_a = "lacp"`,
/// `lag_b = "static"`: fixtures/lag-mode-mismatch.toml) is generated as
/// written, each end's own channel-group mode, so the configs carry the
/// design's `lag-mode-mismatch` and the read-back pairs the link.
#[test]
fn each_end_of_a_link_gets_its_own_bundling() {
    let design = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lag-mode-mismatch.toml");
    for (vendor, active, on) in [
        (
            "nxos",
            "channel-group 1 mode active",
            "channel-group 1 mode on",
        ),
        (
            "eos",
            "channel-group 1 mode active",
            "channel-group 1 mode on",
        ),
    ] {
        let dir = support::tmp("generate", &format!("lag-ends-{vendor}"));
        let (files, _) = generate(&design, vendor, &dir);
        let read = |name: &str| {
            let f = files.iter().find(|f| f.ends_with(name)).unwrap();
            std::fs::read_to_string(f).unwrap()
        };
        let (acc, agg) = (read("acc1.cfg"), read("agg.cfg"));
        assert_eq!(acc.matches(active).count(), 2, "{acc}");
        assert_eq!(agg.matches(on).count(), 2, "{agg}");
        let mut args = vec!["check", "--format", "concise", "--exit-zero"];
        args.extend(files.iter().map(String::as_str));
        let (_, out, _) = run(&args);
        assert!(rules(&out).contains("lag-mode-mismatch"), "{out}");
    }
}

/// A link's `stp_cost` is written on its port-channel at both ends, in
/// each vendor's syntax, and read back (fixtures/lm-drain-fabric.toml's
/// 8 x 1G backup at 1500).
#[test]
fn a_links_port_cost_is_generated_and_read_back() {
    let design = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lm-drain-fabric.toml");
    for (vendor, line) in [
        ("nxos", "  spanning-tree cost 1500\n"),
        ("eos", "  spanning-tree cost 1500\n"),
        ("os10", " spanning-tree rstp cost 1500\n"),
    ] {
        let dir = support::tmp("generate", &format!("stp-cost-{vendor}"));
        let (files, _) = generate(&design, vendor, &dir);
        for sw in ["tor-a.cfg", "tor-b.cfg"] {
            let f = files.iter().find(|f| f.ends_with(sw)).unwrap();
            let cfg = std::fs::read_to_string(f).unwrap();
            assert_eq!(cfg.matches(line).count(), 1, "{vendor} {sw}: {cfg}");
        }
        let mut import = vec!["import"];
        import.extend(files.iter().map(String::as_str));
        let (code, out, err) = run(&import);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("stp_cost = 1500"), "{vendor}: {out}");
    }
}

/// A design with a stack, an MLAG domain and PFC on one switch: on
/// Catalyst, two causes at once (the MLAG domain and the PFC; Catalyst
/// stacks); elsewhere one (the stack).
const UNBUILDABLE: &str = r#"[design]
name = "unbuildable"

[networks.mgmt]
role = "management"
vlan = 10

[switches.st-a]
stack = "s1"

[switches.st-b]
stack = "s1"

[switches.tor-a]
mlag = "m1"
dcb = { pfc = [3] }

[switches.tor-b]
mlag = "m1"

[[links]]
a = "st-a"
b = "st-b"
kind = "stack"

[[links]]
a = "tor-a"
b = "tor-b"
kind = "peer-link"
members = 2
"#;

/// Writes `text` as a design in a fresh folder: its path and the output
/// folder (not made).
fn design_file(name: &str, text: &str) -> (PathBuf, PathBuf) {
    let dir = support::tmp("generate", name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let design = dir.join("design.toml");
    std::fs::write(&design, text).unwrap();
    (design, dir.join("out"))
}

/// What a vendor cannot build is refused: exit 2, nothing written (not
/// even the folder), each cause at its design line (the `mlag` line and
/// the `dcb` table on Catalyst, the `stack` key elsewhere), all at once.
#[test]
fn what_the_vendor_cannot_build_is_refused_at_its_line() {
    let (design, out) = design_file("refuse-lines", UNBUILDABLE);
    let shown = design.display().to_string();
    let at = |line: usize, col: usize| format!("╭─[{shown}:{line}:{col}]");
    // On Catalyst: the MLAG domain (line 15) and the PFC (line 16, the
    // `dcb` table); the stack (line 9) is built, as one config.
    let (code, files, err) = try_generate(&design, "ios", &out);
    assert_eq!(code, 2, "{err}");
    assert!(files.is_empty() && !out.exists(), "{files:?}");
    assert_eq!(err.matches("generate-unsupported").count(), 2, "{err}");
    assert!(!err.contains(&at(9, 9)), "{err}");
    for (line, col) in [(15, 8), (16, 7)] {
        assert!(err.contains(&at(line, col)), "{line}:{col}\n{err}");
    }
    assert!(
        err.contains("Catalyst has no multi-chassis LAG domain"),
        "{err}"
    );
    assert!(err.contains("is not generated yet"), "{err}");
    assert!(err.contains("StackWise Virtual"), "{err}");
    assert!(
        err.contains(
            "2 parts of the design Cisco IOS-XE (Catalyst) cannot build: nothing generated"
        ),
        "{err}"
    );
    // NX-OS, EOS and OS10 build the MLAG pair and the PFC, not the stack.
    for (vendor, lacks) in [
        ("nxos", "Cisco NX-OS has no switch stacking"),
        ("eos", "Arista EOS has no switch stacking"),
        ("os10", "Dell OS10 has no switch stacking"),
    ] {
        let (code, files, err) = try_generate(&design, vendor, &out);
        assert_eq!(code, 2, "{vendor}: {err}");
        assert!(files.is_empty() && !out.exists(), "{vendor}: {files:?}");
        assert_eq!(
            err.matches("generate-unsupported").count(),
            1,
            "{vendor}: {err}"
        );
        assert!(err.contains(lacks), "{vendor}: {err}");
        assert!(err.contains(&at(9, 9)), "{vendor}: {err}");
        // The other member's `stack` and the stacking link's `kind`.
        assert!(err.contains("12 │ stack = \"s1\""), "{vendor}: {err}");
        assert!(err.contains("st-b is in stack `s1`"), "{vendor}: {err}");
        assert!(
            err.contains("link st-a--st-b is a stacking cable"),
            "{vendor}: {err}"
        );
        assert!(err.contains("help: model the pair as"), "{vendor}: {err}");
    }
}

/// A folder that already exists keeps what it held: a refusal adds
/// nothing to it.
#[test]
fn a_refusal_writes_nothing_into_an_existing_folder() {
    let (design, out) = design_file("refuse-existing", UNBUILDABLE);
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("keep.txt"), "x").unwrap();
    let (code, _, err) = run(&[
        "generate",
        design.to_str().unwrap(),
        "--vendor",
        "eos",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_str().unwrap().to_string())
        .collect();
    assert_eq!(names, ["keep.txt"]);
}

/// `stp.mode = "none"` on NX-OS and IOS: rapid PVST+ with spanning tree
/// off in every VLAN the switch carries (VLAN 1 too), which reads back as
/// no spanning tree: `diff` finds no spanning-tree difference.
#[test]
fn stp_mode_none_round_trips_on_nxos_and_ios() {
    let text = r#"[design]
name = "no-stp"

[networks.mgmt]
role = "management"
vlan = 10

[networks.vm]
role = "vm"
vlan = 100

[switches.tor-a]
stp = { mode = "none" }

[switches.tor-b]
stp = { mode = "none" }

[[links]]
a = "tor-a"
b = "tor-b"
members = 2
"#;
    let (design, out) = design_file("stp-none", text);
    for vendor in ["nxos", "ios"] {
        let (files, err) = generate(&design, vendor, &out);
        let cfg = std::fs::read_to_string(files.iter().find(|f| f.ends_with("tor-a.cfg")).unwrap())
            .unwrap();
        assert!(
            cfg.contains("spanning-tree mode rapid-pvst\nno spanning-tree vlan 1,10,100\n"),
            "{vendor}: {cfg}"
        );
        assert!(
            cfg.contains("written as rapid-pvst with spanning tree off in every VLAN"),
            "{vendor}: {cfg}"
        );
        assert!(err.contains("spanning-tree mode none"), "{vendor}: {err}");
        let (code, diff, err) = diff_concise(&design, &files);
        assert_eq!(code, 0, "{vendor}: {err}");
        assert!(!diff.contains("[drift-stp"), "{vendor}: {diff}");
    }
}

/// Under MST the port cost is set per instance (Cisco `spanning-tree mst
/// K cost N`, OS10 `spanning-tree msti K cost N`): a cost for every tree
/// on instance 0 and each instance of the region, read back as one
/// number; a cost of instance 0 alone, in a region with instance 1, is
/// read back as the table it is. EOS, whose per-instance command netlint
/// has no source for, refuses it.
#[test]
fn an_mst_port_cost_is_generated_per_instance_and_read_back() {
    let base = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/mstp-two-regions.toml"),
    )
    .unwrap();
    let with_instance = |cost: &str| {
        base.replace(
            "region = \"room-a\", revision = 1 }",
            "region = \"room-a\", revision = 1, instances = { 1 = [100] } }",
        )
        .replace(
            "region = \"room-b\", revision = 1 }",
            "region = \"room-b\", revision = 1, instances = { 1 = [100] } }",
        )
        .replace("stp_cost = 20000", cost)
    };
    let dir = support::tmp("generate", "mst-cost");
    std::fs::create_dir_all(&dir).unwrap();
    for (case, text, read) in [
        (
            "all",
            with_instance("stp_cost = 20000"),
            "stp_cost = 20000 ",
        ),
        (
            "table",
            with_instance("stp_cost = { 0 = 20000 }"),
            "stp_cost = { 0 = 20000 } ",
        ),
    ] {
        let design = dir.join(format!("{case}.toml"));
        std::fs::write(&design, &text).unwrap();
        for (vendor, line) in [
            ("nxos", "  spanning-tree mst 0 cost 20000\n"),
            ("ios", " spanning-tree mst 0 cost 20000\n"),
            ("os10", " spanning-tree msti 0 cost 20000\n"),
        ] {
            let out = dir.join(format!("{case}-{vendor}"));
            let (files, _) = generate(&design, vendor, &out);
            let f = files.iter().find(|f| f.ends_with("core-1.cfg")).unwrap();
            let cfg = std::fs::read_to_string(f).unwrap();
            assert!(cfg.contains(line), "{case} {vendor}: {cfg}");
            assert_eq!(
                cfg.contains(&line.replace("0 cost", "1 cost")),
                case == "all",
                "{case} {vendor}: {cfg}"
            );
            let mut import = vec!["import"];
            import.extend(files.iter().map(String::as_str));
            let (code, toml, err) = run(&import);
            assert_eq!(code, 0, "{err}");
            assert!(toml.contains(read), "{case} {vendor}: {toml}");
        }
        let (code, files, err) = try_generate(&design, "eos", &dir.join(format!("{case}-eos")));
        assert_eq!(code, 2, "{err}");
        assert!(files.is_empty(), "{files:?}");
        assert!(
            err.contains("a port cost under MST on Arista EOS (link rooms, at core-1, core-2) is not generated yet"),
            "{err}"
        );
    }
}

/// A Catalyst stack is one config: `s1.cfg` with `switch N provision TYPE`
/// per member (their one-word `model`), member N's ports numbered
/// `<type>N/0/<port>`, the LAG from `dist` across both members one
/// `Port-channel`, the cabling rows on the stack's hostname; read back, the
/// members pair with the design's, the stacking cable is matched against
/// the stack, and `diff` finds nothing.
#[test]
fn a_catalyst_stack_is_one_config_and_reads_back() {
    let text = r#"[design]
name = "stack"

[networks.mgmt]
role = "management"
vlan = 10

[switches.st-a]
model = "c9300-48p"
stack = "s1"
stp = { mode = "rapid-pvst", priority = 4096 }

[switches.st-b]
model = "c9300-48p"
stack = "s1"
stp = { mode = "rapid-pvst", priority = 4096 }

[switches.dist]
stp = { mode = "rapid-pvst", priority = 8192 }

[[links]]
a = "st-a"
b = "st-b"
kind = "stack"

[[links]]
a = "dist"
b = ["st-a", "st-b"]
speed = "10G"
members = 2
"#;
    let (design, out) = design_file("ios-stack", text);
    let (code, files, err) = try_generate(&design, "ios", &out);
    assert_eq!(code, 0, "{err}");
    let names: Vec<&str> = files
        .iter()
        .map(|f| f.rsplit('/').next().unwrap())
        .collect();
    assert_eq!(names, ["cabling.csv", "dist.cfg", "s1.cfg"], "{files:?}");
    let cfg = std::fs::read_to_string(out.join("s1.cfg")).unwrap();
    for line in [
        "hostname s1\n",
        "switch 1 provision c9300-48p\n",
        "switch 2 provision c9300-48p\n",
        "interface TenGigabitEthernet1/0/1\n",
        "interface TenGigabitEthernet2/0/1\n",
    ] {
        assert_eq!(cfg.matches(line).count(), 1, "{line}{cfg}");
    }
    assert_eq!(cfg.matches("interface Port-channel").count(), 1, "{cfg}");
    assert_eq!(
        cfg.matches("spanning-tree mode rapid-pvst").count(),
        1,
        "{cfg}"
    );
    let csv = std::fs::read_to_string(out.join("cabling.csv")).unwrap();
    assert!(
        csv.contains("dist,TenGigabitEthernet1/0/1,s1,TenGigabitEthernet1/0/1"),
        "{csv}"
    );
    assert!(
        csv.contains("dist,TenGigabitEthernet1/0/2,s1,TenGigabitEthernet2/0/1"),
        "{csv}"
    );
    let (code, diff, err) = diff_concise(&design, &files);
    assert_eq!(code, 0, "{err}");
    assert!(!diff.contains("[drift"), "{diff}");
}

/// `switch `tor-a` (`s1-1` as built): ...` without its as-built name.
fn without_built_name(line: &str) -> String {
    if let Some(i) = line.find(" (`") {
        let end = "` as built)";
        if let Some(j) = line[i..].find(end) {
            return format!("{}{}", &line[..i], &line[i + j + end.len()..]);
        }
    }
    line.to_string()
}

/// An MSTP design that names no region: OS10 would name each switch's
/// region by its system MAC (a region per switch), so the region is named
/// after the design on every switch; read back, the name differs from the
/// design's none but every tree is the design's (`drift-stp` at info).
#[test]
fn an_unnamed_mst_region_is_named_on_os10() {
    let text = r#"[design]
name = "two cores"

[networks.mgmt]
role = "management"
vlan = 10

[switches.c1]
stp = { mode = "mstp", priority = 4096, instances = { 1 = [10] } }

[switches.c2]
stp = { mode = "mstp", priority = 8192, instances = { 1 = [10] } }

[switches.c3]
stp = { mode = "mstp", instances = { 1 = [10] } }

[[links]]
a = "c1"
b = "c2"
speed = "10G"

[[links]]
a = "c2"
b = "c3"
speed = "10G"

[[links]]
a = "c1"
b = "c3"
speed = "10G"
"#;
    let (design, out) = design_file("os10-mst-name", text);
    let (files, err) = generate(&design, "os10", &out);
    assert!(err.contains("named `two-cores` after the design"), "{err}");
    for sw in ["c1.cfg", "c2.cfg", "c3.cfg"] {
        let cfg = std::fs::read_to_string(out.join(sw)).unwrap();
        assert!(cfg.contains("\n name two-cores\n"), "{sw}: {cfg}");
    }
    let (code, diff, err) = diff_concise(&design, &files);
    assert_eq!(code, 0, "{err}");
    let drift: Vec<&str> = diff.lines().filter(|l| l.contains("[drift")).collect();
    assert!(!drift.is_empty(), "{diff}");
    assert!(
        drift
            .iter()
            .all(|l| l.contains("info[drift-stp]") && l.contains("MST region name")),
        "{diff}"
    );
}
