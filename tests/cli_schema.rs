//! `netlint schema`: the committed schema is the generated one, it is a
//! valid draft-07 schema, every design that loads validates against it, and
//! a differential test against the loader keeps the schema's table and the
//! loader from drifting: for every table of the format the loader itself is
//! asked which keys it takes, which it requires, which values each
//! enumeration takes and which integers are in range, and the schema must
//! give the same answers.

use netlint::commands::schema::{self, Ty, COMMITTED_FILE};
use netlint_model::{load, Diagnostic, Level, SourceFile};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn generated() -> Value {
    serde_json::from_str(&schema::current()).expect("the schema is JSON")
}

fn validator() -> jsonschema::Validator {
    jsonschema::draft7::new(&generated()).expect("the schema compiles")
}

fn toml_to_json(text: &str) -> Value {
    toml::from_str::<Value>(text).expect("probe is TOML")
}

/// Schema errors at or below `pointer` (a JSON pointer).
fn schema_errors(v: &jsonschema::Validator, text: &str, pointer: &str) -> Vec<String> {
    let doc = toml_to_json(text);
    v.iter_errors(&doc)
        .filter(|e| {
            let at = e.instance_path().to_string();
            at == pointer || at.starts_with(&format!("{pointer}/"))
        })
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

fn diagnostics(text: &str) -> Vec<Diagnostic> {
    load(&SourceFile::new("probe.toml", text)).diagnostics
}

/// Loader diagnostics whose primary span starts on the last line.
fn loader_errors_on_last_line(text: &str) -> Vec<String> {
    let last = text.trim_end_matches('\n').rfind('\n').map_or(0, |i| i + 1);
    diagnostics(text)
        .into_iter()
        .filter(|d| d.primary.as_ref().is_some_and(|p| p.span.start >= last))
        .map(|d| d.message)
        .collect()
}

/// The JSON pointer of the table a probe opens: `[a.b]` -> `/a/b`,
/// `[[a.b]]` -> `/a/b/0`.
fn pointer(probe: &str) -> String {
    let line = probe.lines().last().unwrap_or("");
    let array = line.starts_with("[[");
    let path = line.trim_matches(|c| c == '[' || c == ']');
    if path.is_empty() {
        return String::new();
    }
    let mut p: String = path.split('.').map(|s| format!("/{s}")).collect();
    if array {
        p.push_str("/0");
    }
    p
}

fn set<'a>(items: impl IntoIterator<Item = &'a str>) -> BTreeSet<String> {
    items.into_iter().map(str::to_string).collect()
}

/// The comma-separated list after `marker` in a help text.
fn listed_after(help: &str, marker: &str) -> BTreeSet<String> {
    let list = help.split_once(marker).expect("marker in help").1;
    list.split(',').map(|s| s.trim().to_string()).collect()
}

#[test]
fn the_committed_schema_is_the_generated_one() {
    let path = root().join(COMMITTED_FILE);
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == schema::current(),
        "{} is out of date: regenerate it with `cargo run -- schema > {COMMITTED_FILE}` and commit it",
        path.display()
    );
}

#[test]
fn the_schema_is_a_valid_draft_07_schema() {
    let s = generated();
    assert!(jsonschema::draft7::meta::is_valid(&s));
    assert_eq!(s["$schema"], "http://json-schema.org/draft-07/schema#");
    // Every property carries a description for hover help.
    fn walk(v: &Value, at: &str) {
        if let Some(props) = v.get("properties").and_then(Value::as_object) {
            for (k, p) in props {
                assert!(
                    p.get("description").and_then(Value::as_str).is_some(),
                    "{at}/{k} has no description"
                );
                walk(p, &format!("{at}/{k}"));
            }
        }
        if let Some(defs) = v.get("definitions").and_then(Value::as_object) {
            for (k, d) in defs {
                walk(d, &format!("#/definitions/{k}"));
            }
        }
    }
    walk(&s, "#");
}

fn designs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root().join("fixtures"), root().join("tests/data/reference")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "toml")
                && !p.to_string_lossy().ends_with(".expect.toml")
                && p.file_name().unwrap() != "netlint.toml"
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_design_that_loads_validates_and_the_invalid_ones_the_schema_can_see_do_not() {
    let v = validator();
    let files = designs();
    assert!(files.len() > 10, "{files:?}");
    let mut valid = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let input_errors = diagnostics(&text)
            .iter()
            .any(|d| d.severity == netlint_model::Severity::Error);
        let Ok(doc) = toml::from_str::<Value>(&text) else {
            assert!(input_errors, "{}", path.display());
            continue;
        };
        let errors: Vec<String> = v
            .iter_errors(&doc)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        if !input_errors {
            valid += 1;
            assert!(
                errors.is_empty(),
                "{} loads but the schema rejects it: {errors:#?}",
                path.display()
            );
        }
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        // Invalid inputs whose problem is one a schema can express.
        if [
            "unknown-keys",
            "five-bad-values",
            "out-of-range",
            "mtu-twice",
        ]
        .contains(&name.as_str())
        {
            assert!(
                !errors.is_empty(),
                "{} is invalid, and the schema should say so",
                path.display()
            );
        }
    }
    assert!(valid > 5);
}

#[test]
fn the_loader_takes_exactly_the_keys_of_the_schema() {
    for o in schema::objects() {
        let text = format!("{}zz_probe = 1\n", o.probe);
        let d = diagnostics(&text)
            .into_iter()
            .find(|d| d.message.contains("unknown field `zz_probe`"))
            .unwrap_or_else(|| panic!("{}: the loader accepts any key?", o.name));
        let loader = listed_after(d.help.as_deref().unwrap(), "takes: ");
        let ours = set(o.fields.iter().map(|f| f.key));
        assert_eq!(ours, loader, "keys of `{}` (schema vs loader)", o.name);
    }
}

fn required_by_loader(probe: &str) -> BTreeSet<String> {
    diagnostics(probe)
        .iter()
        .filter_map(|d| {
            let rest = d.message.split_once(" has no `")?.1;
            let (key, tail) = rest.split_once('`')?;
            tail.starts_with(", which is required")
                .then(|| key.to_string())
        })
        .collect()
}

#[test]
fn the_loader_requires_exactly_what_the_schema_requires() {
    let objects = schema::objects();
    for o in objects.iter().filter(|o| !o.probe.is_empty()) {
        let mut loader = required_by_loader(o.probe);
        // A probe also opens the tables around it: what those require is
        // theirs.
        let here = pointer(o.probe);
        for parent in objects.iter().filter(|p| {
            let pp = pointer(p.probe);
            !pp.is_empty() && here.starts_with(&format!("{pp}/"))
        }) {
            for k in required_by_loader(parent.probe) {
                loader.remove(&k);
            }
        }
        let ours = set(o.required.iter().chain(o.required_without_profile).copied());
        assert_eq!(ours, loader, "required keys of `{}`", o.name);
    }
    // The root: a design without `[design]`.
    assert!(diagnostics("")
        .iter()
        .any(|d| d.message == "the design has no `[design]` table"));
    let root = objects.iter().find(|o| o.name == "root").unwrap();
    assert_eq!(root.required, ["design"]);
}

/// A virtual switch's `load_balancing` depends on the host's platform
/// (which a JSON schema cannot see): the vSphere policies are probed on a
/// vSphere host, the others on the default Windows one.
fn platform_probe(probe: &str, value: &str) -> String {
    let vsphere_only = !netlint_model::LoadBalancing::SET.contains(&value);
    if probe == "[hosts.h.vswitches.v]\n" && vsphere_only {
        format!("[hosts.h]\nos = \"vsphere-8\"\n{probe}")
    } else {
        probe.to_string()
    }
}

#[test]
fn a_virtual_switch_takes_the_load_balancing_of_its_platform_only() {
    for (os, value, ok) in [
        ("windows-server-2022", "hyperv-port", true),
        ("windows-server-2022", "ip-hash", false),
        ("vsphere-8", "ip-hash", true),
        ("vsphere-8", "hyperv-port", false),
        ("vsphere-8", "dynamic", false),
    ] {
        let text = format!(
            "[hosts.h]\nos = \"{os}\"\n[hosts.h.vswitches.v]\nload_balancing = \"{value}\"\n"
        );
        assert_eq!(
            loader_errors_on_last_line(&text).is_empty(),
            ok,
            "{os} {value}"
        );
    }
}

#[test]
fn the_loader_takes_exactly_the_enumerations_of_the_schema() {
    let v = validator();
    for o in schema::objects() {
        for f in &o.fields {
            let Ty::Enum(names) = &f.ty else { continue };
            let text = format!("{}{} = \"zz-probe\"\n", o.probe, f.key);
            let d = diagnostics(&text)
                .into_iter()
                .find(|d| d.message.contains("value `zz-probe`"))
                .unwrap_or_else(|| panic!("{}.{}: no enum error", o.name, f.key));
            let loader = listed_after(d.help.as_deref().unwrap(), "takes one of: ");
            assert_eq!(
                set(names.iter().copied()),
                loader,
                "values of `{}.{}`",
                o.name,
                f.key
            );
            let at = format!("{}/{}", pointer(o.probe), f.key);
            assert!(!schema_errors(&v, &text, &at).is_empty(), "{at}");
            for name in *names {
                let text = format!("{}{} = \"{name}\"\n", platform_probe(o.probe, name), f.key);
                assert!(
                    loader_errors_on_last_line(&text).is_empty(),
                    "{at} = {name}"
                );
                assert!(schema_errors(&v, &text, &at).is_empty(), "{at} = {name}");
            }
        }
    }
    // `[netlint] rules` levels.
    let text = "[netlint.rules]\nmtu-mismatch = \"zz-probe\"\n";
    let d = diagnostics(text)
        .into_iter()
        .find(|d| d.message.contains("value `zz-probe`"))
        .unwrap();
    assert_eq!(
        listed_after(d.help.as_deref().unwrap(), "takes one of: "),
        set(Level::NAMES.iter().copied())
    );
    assert!(!schema_errors(&v, text, "/netlint/rules").is_empty());
}

/// One value written for a field: is it valid, by the loader's verdict,
/// and does the schema have to reject it when it is not.
struct Sample {
    toml: String,
    valid: bool,
    schema_sees_it: bool,
}

fn sample(toml: impl Into<String>, valid: bool) -> Sample {
    Sample {
        toml: toml.into(),
        valid,
        schema_sees_it: true,
    }
}

/// A value the loader rejects for a reason no schema can state (a range
/// inside a string): the schema may accept it.
fn beyond_schema(toml: impl Into<String>) -> Sample {
    Sample {
        toml: toml.into(),
        valid: false,
        schema_sees_it: false,
    }
}

/// Samples by type: the wrong type always, and the edges of each range.
fn samples(key: &str, ty: &Ty) -> Vec<Sample> {
    let wrong_type = match ty {
        Ty::Str | Ty::Enum(_) | Ty::Pattern(_) | Ty::NameOrNames => "1",
        Ty::Ref(_) | Ty::MapOf(_) | Ty::ArrayOf(_) | Ty::Allow | Ty::RuleLevels => "1",
        Ty::Ets | Ty::Instances(_) => "1",
        _ => "\"zz\"",
    };
    let mut v = vec![sample(wrong_type, false)];
    // Spanning-tree keys that depend on the mode (the probe's is the
    // default, rstp) or on the switch's `mlag`, which no schema of one
    // table can see: right-typed values are errors under that probe.
    if ["disabled_vlans", "vlan_priority", "peer_switch"].contains(&key) {
        v.push(beyond_schema(match key {
            "disabled_vlans" => "[4094]",
            "vlan_priority" => "{ \"10,30\" = 4096 }",
            _ => "true",
        }));
        return v;
    }
    match ty {
        Ty::Bool => v.push(sample("true", true)),
        Ty::Int { min, max, step } => {
            v.extend([
                sample(min.to_string(), true),
                sample(max.to_string(), true),
                sample((min - 1).to_string(), false),
                sample((max + 1).to_string(), false),
            ]);
            if let Some(s) = step {
                v.push(sample((min + s).to_string(), true));
                v.push(sample((min + 1).to_string(), false));
            }
        }
        Ty::PositiveNumber { max } => v.extend([
            sample("2", true),
            sample("1.5", true),
            sample(max.to_string(), true),
            sample((max + 1).to_string(), false),
            sample("1e308", false),
            sample("0", false),
            sample("-1", false),
        ]),
        Ty::VlanList => v.extend([
            sample("[1, 4094, \"10-20\"]", true),
            sample("[0]", false),
            sample("[4095]", false),
            sample("[\"ten\"]", false),
        ]),
        Ty::Priorities => v.extend([
            sample("[3, 7]", true),
            sample("[8]", false),
            sample("[3, 3]", false),
        ]),
        Ty::Ets => v.extend([
            sample("{ 3 = 50, 0 = 1 }", true),
            sample("{ 8 = 1 }", false),
            sample("{ 3 = 101 }", false),
        ]),
        // The probe's link names no switch, so a table (keyed by switch)
        // is an error the schema cannot see.
        Ty::MtuPerSwitch => v.extend([
            sample("9000", true),
            sample("575", false),
            sample("9217", false),
            sample("{ s = 9217 }", false),
            beyond_schema("{ s = 9000 }"),
        ]),
        Ty::StpCost => v.extend([
            sample("2000", true),
            sample("{ 0 = 2000, 1 = 20000 }", true),
            sample("0", false),
            sample("{ 1 = 0 }", false),
        ]),
        Ty::Pattern(_) => {
            let (ok, bad): (&[&str], &[&str]) = match key {
                "speed" => (
                    &[
                        "10G", "2.5G", "100M", "1Gbps", "25 GbE", "10gb/s", "40Gbit", "10T",
                        "1.6Tbps",
                    ],
                    &["10", "fast", "10X", "G"],
                ),
                "drain_budget" => (&["90s", "5m", "1h30m"], &["90", "5 minutes", ""]),
                "smb_bandwidth_limit" => (
                    &["1250MB", "8Gbps", "2GB", "100kb/s", "1000"],
                    &["fast", "8Gb", "8 GiB"],
                ),
                "subnet" => (
                    &["10.0.20.0/24", "fd00::/64", "10.0.0.0 / 8"],
                    &["10.0.20.0", "x/24"],
                ),
                "mac" => (
                    &["00:1e:c9:00:00:0a", "00-1E-C9-00-00-0A"],
                    &["001ec900000a", "00:1e:c9:00:00"],
                ),
                k => panic!("no samples for the pattern of {k}"),
            };
            v.extend(ok.iter().map(|s| sample(format!("{s:?}"), true)));
            v.extend(bad.iter().map(|s| sample(format!("{s:?}"), false)));
            if key == "speed" {
                // 100 kb/s: a speed, but not one Ethernet has.
                v.push(beyond_schema("\"0.0001G\""));
            }
            if key == "subnet" {
                v.push(beyond_schema("\"10.0.0.0/33\""));
            }
        }
        _ => {}
    }
    v
}

#[test]
fn the_loader_and_the_schema_agree_on_types_and_ranges() {
    let v = validator();
    let mut checked = 0;
    for o in schema::objects() {
        for f in &o.fields {
            let at = format!("{}/{}", pointer(o.probe), f.key);
            for s in samples(f.key, &f.ty) {
                let text = format!("{}{} = {}\n", o.probe, f.key, s.toml);
                let loader = loader_errors_on_last_line(&text);
                let schema = schema_errors(&v, &text, &at);
                assert_eq!(
                    loader.is_empty(),
                    s.valid,
                    "loader on `{at} = {}`: {loader:?}",
                    s.toml
                );
                if s.valid {
                    assert!(
                        schema.is_empty(),
                        "schema rejects valid `{at} = {}`: {schema:?}",
                        s.toml
                    );
                } else if s.schema_sees_it {
                    assert!(
                        !schema.is_empty(),
                        "schema accepts invalid `{at} = {}`",
                        s.toml
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 150, "{checked} samples");
}

#[test]
fn a_host_without_a_profile_needs_what_a_profile_would_give() {
    let v = validator();
    let bare = "[design]\nname = \"x\"\n[hosts.h.nics.A]\n[hosts.h.teams.T]\nmode = \"lacp\"\n";
    assert!(!schema_errors(&v, bare, "/hosts/h/teams/T").is_empty());
    let with_profile = "[design]\nname = \"x\"\n[profiles.p.nics.A]\n\
                        [profiles.p.teams.T]\nmembers = [\"A\"]\n\
                        [hosts.h]\nprofile = \"p\"\nteams.T = { mode = \"lacp\" }\n";
    assert!(v.iter_errors(&toml_to_json(with_profile)).next().is_none());
    assert!(diagnostics(with_profile).is_empty());
    // `speed` may be absent (unknown), with or without a profile.
    let no_speed = "[design]\nname = \"x\"\n[hosts.h.nics.A]\nmtu = 9000\n";
    assert!(v.iter_errors(&toml_to_json(no_speed)).next().is_none());
    assert!(diagnostics(no_speed).is_empty());
}

#[test]
fn alternative_spellings_of_one_value_exclude_each_other() {
    let v = validator();
    let text = "[design]\nname = \"x\"\n[hosts.h.nics.A]\nspeed = \"10G\"\nmtu = 9000\njumbo_packet = 9014\n";
    assert!(!schema_errors(&v, text, "/hosts/h/nics/A").is_empty());
    assert!(diagnostics(text)
        .iter()
        .any(|d| d.message.contains("sets both `mtu` and `jumbo_packet`")));
}

#[test]
fn rule_ids_are_offered_with_their_summaries() {
    let s = generated();
    let levels = &s["definitions"]["netlint"]["properties"]["rules"]["properties"];
    let allow = &s["definitions"]["nic"]["properties"]["allow"]["properties"];
    for r in netlint_rules::registry() {
        assert_eq!(levels[r.meta.id.as_str()]["description"], r.meta.summary);
        assert_eq!(allow[r.meta.id.as_str()]["description"], r.meta.summary);
    }
    // The loader's own ids cannot be configured.
    assert!(levels.get("schema").is_none());
    assert!(levels.get("unused-allow").is_some());
}

#[test]
fn netlint_schema_prints_it() {
    let mut out = Vec::new();
    let mut err = Vec::new();
    assert_eq!(
        netlint::cli::run(["netlint", "schema"], &mut out, &mut err),
        0
    );
    assert_eq!(String::from_utf8(out).unwrap(), schema::current());
    assert!(err.is_empty());
}

/// The format v2 spanning-tree and switch-limit fixtures: each loads
/// without an input problem and validates against the committed schema
/// (none is skipped: a missing file fails), and the schema knows each new
/// key with its values.
#[test]
fn the_format_v2_stp_fixtures_validate_against_the_schema() {
    let committed: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join(COMMITTED_FILE)).unwrap())
            .unwrap();
    let v = jsonschema::draft7::new(&committed).expect("the committed schema compiles");
    for name in [
        "stp-pvst-split-roots",
        "stp-cost-method-mismatch",
        "l2-loop-stp-off-vlan",
        "mtu-switch-model-limit",
    ] {
        let path = root().join("fixtures").join(format!("{name}.toml"));
        let text = std::fs::read_to_string(&path).unwrap();
        let input: Vec<String> = diagnostics(&text)
            .iter()
            .map(|d| d.message.clone())
            .collect();
        assert!(input.is_empty(), "{name}: {input:#?}");
        let errors: Vec<String> = v
            .iter_errors(&toml_to_json(&text))
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:#?}");
    }
    // The new keys are the schema's, with their values checked.
    let bad = [
        "[design]\nname = \"x\"\n[switches.s.stp]\nmode = \"pvst\"\nvlan_priority = { \"10\" = 100 }\n",
        "[design]\nname = \"x\"\n[switches.s.stp]\nmode = \"pvst\"\nvlan_priority = { \"ten\" = 4096 }\n",
        "[design]\nname = \"x\"\n[switches.s.stp]\npath_cost = \"medium\"\n",
        "[design]\nname = \"x\"\n[switches.s]\nmax_mtu = 10000\n",
    ];
    for text in bad {
        assert!(
            v.iter_errors(&toml_to_json(text)).next().is_some(),
            "the schema accepts {text}"
        );
        assert!(!diagnostics(text).is_empty(), "the loader accepts {text}");
    }
}
