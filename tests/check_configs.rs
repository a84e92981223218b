//! `netlint check` run directly on switch configs and cabling: the files
//! are imported into one design in memory, every rule runs, and each
//! finding is reported at the config line that causes it, in human and
//! JSON output. The inputs (tests/data/check_configs/) carry three seeded
//! faults, each named in its file's header:
//!
//! - tor1's vPC peer-link allows VLANs 10,20 (tor1.cfg:37) while vPC 20 to
//!   acc1 carries the storage VLAN 30: mlag-peer-link-vlan;
//! - acc1 has bridge priority 8192 (acc1.cfg:23), the same as the vPC pair
//!   (tor1.cfg:20): the root is chosen by MAC, stp-root-placement;
//! - acc1's uplink runs native VLAN 99 (acc1.cfg:36), the pair VLAN 1 by
//!   default: native-vlan-mismatch.

mod support;
use support::run;

const DIR: &str = "tests/data/check_configs";

fn inputs() -> Vec<String> {
    ["tor1.cfg", "tor2.cfg", "acc1.cfg", "cabling.csv"]
        .iter()
        .map(|f| format!("{DIR}/{f}"))
        .collect()
}

fn check(extra: &[&str]) -> (i32, String, String) {
    let files = inputs();
    let mut args: Vec<&str> = vec!["check", "--isolated", "--color", "never"];
    args.extend(files.iter().map(String::as_str));
    args.extend_from_slice(extra);
    run(&args)
}

/// The text of line `n` of an input, as the finding should show it.
fn line(file: &str, n: usize) -> String {
    let text = std::fs::read_to_string(format!("{DIR}/{file}")).unwrap();
    text.lines().nth(n - 1).unwrap().trim().to_string()
}

#[test]
fn json_puts_each_seeded_fault_at_its_config_line() {
    let (code, out, err) = check(&["--format", "json"]);
    assert_eq!(code, 1, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let diags = v["diagnostics"].as_array().unwrap();
    let at = |rule: &str| {
        let d = diags
            .iter()
            .find(|d| d["rule"] == rule)
            .unwrap_or_else(|| panic!("no {rule}: {out}"));
        let l = &d["location"];
        (
            l["file"].as_str().unwrap().to_string(),
            l["line"].as_u64().unwrap() as usize,
            d,
        )
    };
    let (file, n, d) = at("mlag-peer-link-vlan");
    assert_eq!((file.as_str(), n), (format!("{DIR}/tor1.cfg").as_str(), 37));
    assert_eq!(line("tor1.cfg", 37), "switchport trunk allowed vlan 10,20");
    assert!(d["message"].as_str().unwrap().contains("VLAN 30"), "{d}");
    // Related: the multi-chassis LAG's allowed list on acc1, and tor2's
    // end of the peer-link.
    let related: Vec<(String, u64)> = d["related"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["location"]["file"].as_str().unwrap().to_string(),
                r["location"]["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert!(
        related.contains(&(format!("{DIR}/acc1.cfg"), 37)),
        "{related:?}"
    );
    assert!(
        related.contains(&(format!("{DIR}/tor2.cfg"), 31)),
        "{related:?}"
    );

    let (file, n, d) = at("stp-root-placement");
    assert_eq!((file.as_str(), n), (format!("{DIR}/acc1.cfg").as_str(), 23));
    assert_eq!(
        line("acc1.cfg", 23),
        "spanning-tree vlan 1,10,20,30 priority 8192"
    );
    assert_eq!(
        d["related"][0]["location"]["file"],
        format!("{DIR}/tor1.cfg")
    );
    assert_eq!(d["related"][0]["location"]["line"], 20);

    let (file, n, _) = at("native-vlan-mismatch");
    assert_eq!((file.as_str(), n), (format!("{DIR}/acc1.cfg").as_str(), 36));
    assert_eq!(line("acc1.cfg", 36), "switchport trunk native vlan 99");
    assert_eq!(diags.len(), 3, "{out}");
    // Per file what was read, on standard error.
    assert!(
        err.contains(&format!("{DIR}/acc1.cfg: ios (56 lines): 28 understood")),
        "{err}"
    );
}

#[test]
fn human_output_shows_the_config_lines() {
    let (code, out, _) = check(&[]);
    assert_eq!(code, 1);
    assert!(out.contains(&format!("╭─[{DIR}/tor1.cfg:37:3]")), "{out}");
    assert!(
        out.contains(" 37 │   switchport trunk allowed vlan 10,20\n"),
        "{out}"
    );
    assert!(
        !out.contains("<imported>"),
        "every label is on a config line: {out}"
    );
    insta::assert_snapshot!("check_configs_human", out);
}

/// A value the config leaves at the vendor default has no config line:
/// the label stays on the generated design (`<imported>`), whose line
/// names the default's source, and says so. Here no switch sets a
/// priority, so the root wins on the default 32768 and the MAC.
#[test]
fn a_vendor_default_stays_on_the_generated_design() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("check_configs_default");
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for f in ["tor1.cfg", "tor2.cfg", "acc1.cfg", "cabling.csv"] {
        let text = std::fs::read_to_string(format!("{DIR}/{f}"))
            .unwrap()
            .replace("spanning-tree vlan 1,10,20,30 priority 8192\n", "");
        let p = dir.join(f);
        std::fs::write(&p, text).unwrap();
        files.push(p.display().to_string());
    }
    let mut args = vec![
        "check",
        "--isolated",
        "--format",
        "json",
        "--select",
        "stp-root-placement",
    ];
    args.extend(files.iter().map(String::as_str));
    let (code, out, err) = run(&args);
    assert_eq!(code, 1, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let d = &v["diagnostics"][0];
    assert_eq!(d["rule"], "stp-root-placement", "{out}");
    // The root's priority and the tied switch's are both defaults: both
    // labels stay on the generated design's `priority = 32768` lines.
    assert_eq!(d["location"]["file"], "<imported>", "{out}");
    assert_eq!(d["related"][0]["location"]["file"], "<imported>", "{out}");
    let related = d["related"][0]["message"].as_str().unwrap();
    assert!(
        related.starts_with("`tor1` has the same priority (vendor default: ")
            && related.ends_with("tor1.cfg does not set it)"),
        "{related}"
    );
}

/// A file that is no config, LLDP table or cabling is an input error at
/// its line (exit 2); the other files are still read and summarised.
#[test]
fn an_unreadable_input_is_located_and_the_others_still_read() {
    let bad = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("check_configs_bad.cfg");
    std::fs::write(&bad, "! a note\nthis is not a switch config\n").unwrap();
    let files = inputs();
    let mut args: Vec<&str> = vec!["check", "--isolated", "--format", "json"];
    args.extend(files.iter().map(String::as_str));
    let bad_s = bad.display().to_string();
    args.push(&bad_s);
    let (code, out, err) = run(&args);
    assert_eq!(code, 2, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let d = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["location"]["file"] == bad_s.as_str())
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(d["location"]["line"], 2, "{d}");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("not a running-config"),
        "{d}"
    );
    assert!(err.contains(&format!("{DIR}/tor1.cfg: nxos")), "{err}");
}

/// Mutated configs (each line of tor1.cfg and acc1.cfg dropped in turn,
/// then doubled) never panic, exit 0, 1 or 2, and every location a
/// finding names lies inside the file it names: the source map never
/// points past a config's end.
#[test]
fn mutated_configs_give_locations_inside_their_files() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("check_configs_mutated");
    std::fs::create_dir_all(&dir).unwrap();
    let originals: Vec<(&str, String)> = ["tor1.cfg", "tor2.cfg", "acc1.cfg", "cabling.csv"]
        .iter()
        .map(|f| (*f, std::fs::read_to_string(format!("{DIR}/{f}")).unwrap()))
        .collect();
    let mut runs = 0;
    for target in ["tor1.cfg", "acc1.cfg"] {
        let lines = originals
            .iter()
            .find(|(f, _)| *f == target)
            .unwrap()
            .1
            .lines()
            .count();
        for i in 0..lines {
            for double in [false, true] {
                let mut paths = Vec::new();
                let mut texts = Vec::new();
                for (f, text) in &originals {
                    let text = if *f == target {
                        let mut l: Vec<&str> = text.lines().collect();
                        if double {
                            l.insert(i, l[i]);
                        } else {
                            l.remove(i);
                        }
                        l.join("\n")
                    } else {
                        text.clone()
                    };
                    let p = dir.join(f);
                    std::fs::write(&p, &text).unwrap();
                    paths.push(p.display().to_string());
                    texts.push((p.display().to_string(), text));
                }
                let mut args = vec!["check", "--isolated", "--format", "json"];
                args.extend(paths.iter().map(String::as_str));
                let (code, out, err) = run(&args);
                runs += 1;
                assert!(matches!(code, 0..=2), "{target} line {i}: {code} {err}");
                let v: serde_json::Value = serde_json::from_str(&out).unwrap();
                for d in v["diagnostics"].as_array().unwrap() {
                    let related = d["related"].as_array().cloned().unwrap_or_default();
                    for loc in std::iter::once(&d["location"])
                        .chain(related.iter().map(|r| &r["location"]))
                    {
                        let (Some(file), Some(line)) = (loc["file"].as_str(), loc["line"].as_u64())
                        else {
                            continue;
                        };
                        if let Some((_, text)) = texts.iter().find(|(p, _)| p == file) {
                            assert!(
                                line as usize <= text.lines().count().max(1),
                                "{target} line {i}: {file}:{line} is past the end"
                            );
                        }
                    }
                }
            }
        }
    }
    assert!(runs > 100, "{runs}");
}

/// Hyper-V host collections (`netlint collect hyperv` JSON) checked with
/// the switch configs: the hosts are imported with the switches, so the
/// host rules run (the converged fixture's SET team has both members on
/// card `slot3`: spof-nic-card).
#[test]
fn host_collections_are_checked_with_the_switches() {
    let base = "crates/netlint-import/tests";
    let mut files: Vec<String> = [
        "fixtures/nxos-tor1.cfg",
        "fixtures/nxos-tor2.cfg",
        "host-fixtures/converged/cabling.csv",
        "host-fixtures/converged/tor2.lldp.txt",
        "host-fixtures/converged/hv01.json",
        "host-fixtures/converged/hv02.json",
        "host-fixtures/converged/hv03.json",
        "host-fixtures/converged/hv04.json",
    ]
    .iter()
    .map(|f| format!("{base}/{f}"))
    .collect();
    files.sort();
    let mut args = vec!["check", "--isolated", "--format", "json"];
    args.extend(files.iter().map(String::as_str));
    let (code, out, err) = run(&args);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("hv01.json: hyperv collection of host HV01"),
        "{err}"
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["rule"] == "spof-nic-card"),
        "{out}"
    );
}
