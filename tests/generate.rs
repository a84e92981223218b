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
  stack link: a stacking cable is no running-config line (every vendor).
  drift-stp mode on nxos, ios: NX-OS and Catalyst have no plain RSTP mode; written as MST with one
    region, the same trees in every VLAN and state, so `diff` says it at info (counted below); a
    warning where the trees cannot be compared (a stack link missing) or NX-OS cannot turn
    spanning tree off.
  drift-stp priority on nxos vPC peers: under vPC peer-switch Cisco requires one spanning-tree
    priority on both peers (documents 118858, 217274); a design that gives the peers two is
    generated with the domain's (the lower) on both: the same trees, said at info.
  drift-missing/extra multi-chassis trunk on ios: Catalyst has no multi-chassis LAG domain, so
    the two switches' port-channels read back as two trunks; and an MLAG pair's shared bridge
    priority, without the domain, is two switches tied for root (check fires stp-root-placement).
  drift-dcb on ios: PFC and ETS are not generated for Catalyst.
  drift-dcb on eos: ETS shares are not generated for EOS (the importer reads no EOS ETS).
  drift-mtu on eos: a switch with no layer-2 port in the design has no `l2 mtu` line to carry its MTU.
  drift-mtu on os10: OS10 states the MTU per port only, and a switch whose every switchport has a
    smaller MTU than its own (a VLT interconnect is no switchport) has no line to carry it.
  drift-vlan peer link on os10: the VLT interconnect carries every VLAN.
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

/// Generates `design` for `vendor` into a fresh folder; the files.
fn generate(design: &Path, vendor: &str, dir: &Path) -> (Vec<String>, String) {
    let _ = std::fs::remove_dir_all(dir);
    let (code, _, err) = run(&[
        "generate",
        design.to_str().unwrap(),
        "--vendor",
        vendor,
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{}: {err}", design.display());
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path().to_str().unwrap().to_string())
        .collect();
    files.sort();
    (files, err)
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
    for design in designs() {
        let d = design.to_str().unwrap();
        let (_, _, design_check) = (0, 0, run(&["check", d, "--format", "concise"]).1);
        let design_rules = rules(&design_check);
        for vendor in VENDORS {
            let name = format!("{}-{vendor}", design.file_stem().unwrap().to_str().unwrap());
            let dir = support::tmp("generate", &name);
            let (files, _) = generate(&design, vendor, &dir);
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
    known.insert_str(
        0,
        &format!(
            "{round_trips} round trips, {clean} with no warning or error; the known differences:\n{}",
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
