//! `netlint check --fix` over every design in fixtures/ (each copied to a
//! temporary directory first): the findings it fixed are gone, no finding
//! appeared, and every comment line of the design is still there.

use netlint::run::fix::{fix_source, try_fix, worse_path, FixMode, NotApplied};
use netlint::run::{check_source, CheckSettings};
use netlint_analysis::l2::pair_paths::Worse;
use netlint_model::{Diagnostic, Fix, FixEdit, FixSafety, SourceFile, Span, Speed, TomlPath};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("netlint-fix-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The valid designs of fixtures/ (fixtures/invalid does not load: nothing
/// to fix), then the reference designs of tests/data/reference.
fn fixtures() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["fixtures", "tests/data/reference"] {
        let mut here: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        here.sort();
        out.extend(here);
    }
    out
}

type Key = (String, Vec<String>);

fn keys(diags: &[Diagnostic]) -> BTreeMap<Key, usize> {
    let mut out = BTreeMap::new();
    for d in diags {
        let mut s = d.subject_paths();
        s.sort();
        *out.entry((d.rule.clone(), s)).or_default() += 1;
    }
    out
}

fn comments(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim)
        .filter(|l| l.starts_with('#'))
        .collect()
}

/// Every fixture and reference design, every fix (`--unsafe-fixes`), run
/// through the fix check: what it applied is gone from the fixed design's
/// check, nothing new appeared, no host pair's path is slower, longer or
/// cut, every comment survived; and the design still loads (issue 35's
/// "done when").
#[test]
fn fix_on_every_fixture_removes_what_it_fixed_and_adds_nothing() {
    let tmp = TempDir::new("all");
    let settings = CheckSettings::default();
    let mut applied = BTreeMap::<String, usize>::new();
    let mut failures = Vec::new();
    for p in fixtures() {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let copy = tmp.0.join(&name);
        std::fs::copy(&p, &copy).unwrap();
        let text = std::fs::read_to_string(&copy).unwrap();
        let file = SourceFile::new(name.clone(), text.clone());
        let before = check_source(&file, None, &settings).0;
        let fixed = fix_source(&file, None, &settings, FixMode::Unsafe);
        for (f, why) in &fixed.not_applied {
            // A fix whose edit cannot be made, or that breaks the design,
            // is a rule that wrote a wrong path or value.
            if matches!(why, NotApplied::Edit(_) | NotApplied::Breaks(_)) {
                failures.push(format!("{name}: {} on {}: {why}", f.rule, f.element));
            }
            // A safe fix is definite: it must pass its check.
            if f.fix.safety == FixSafety::Safe {
                failures.push(format!(
                    "{name}: safe fix of {} on {} not applied: {why}",
                    f.rule, f.element
                ));
            }
        }
        if !fixed.changed() {
            assert_eq!(fixed.text, text);
            continue;
        }
        let after = check_source(
            &SourceFile::new(name.clone(), fixed.text.clone()),
            None,
            &settings,
        )
        .0;
        assert!(
            !after.iter().any(Diagnostic::is_input_error),
            "{name}: the fixed design does not load: {after:#?}"
        );
        let (b, a) = (keys(&before), keys(&after));
        for (k, n) in &a {
            assert!(
                b.get(k).is_some_and(|m| m >= n),
                "{name}: fixing added {k:?}\n{}",
                fixed.text
            );
        }
        // Each applied fix took one finding of its rule on its element away
        // (two findings may share both: two `allow` entries of a switch).
        let mut fixed_on = BTreeMap::<(String, String), usize>::new();
        for f in &fixed.applied {
            *fixed_on
                .entry((f.rule.clone(), f.element.clone()))
                .or_default() += 1;
            *applied.entry(f.rule.clone()).or_default() += 1;
        }
        let on = |list: &[Diagnostic], (rule, element): &(String, String)| {
            list.iter()
                .filter(|d| &d.rule == rule && &d.element() == element)
                .count()
        };
        for (k, n) in &fixed_on {
            assert!(
                on(&after, k) + n <= on(&before, k),
                "{name}: {k:?} is still there after its fix"
            );
        }
        // No pair slower or cut; one hop longer at the same speed only
        // through a root moved where the design intends it (try_fix
        // refuses it for every other rule).
        if let Some(w) = worse_path(&text, &fixed.text) {
            let root_moved = fixed.applied.iter().any(|f| f.rule == "stp-root-placement");
            if w.how != netlint_analysis::l2::pair_paths::Worse::Longer || !root_moved {
                failures.push(format!("{name}: {w}"));
            }
        }
        let kept = comments(&fixed.text);
        for c in comments(&text) {
            assert!(kept.contains(&c), "{name}: comment {c:?} lost");
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The fixtures of the rules that carry fixes get them applied.
    for rule in [
        "bpdu-filter-risk",
        "dcb-cluster-class",
        "dcbx-willing",
        "host-port-not-edge",
        "lm-compression-multichannel",
        "mlag-peer-link-vlan",
        "mtu-mismatch",
        "mtu-path-too-small",
        "native-vlan-mismatch",
        "vpc-peer-switch-priority",
        "power-profile",
        "qos-weight-sum",
        "smb-bandwidth-cap-degraded",
        "smb-bandwidth-cap-missing",
        "stp-cost-method-mismatch",
        "team-rx-single-member",
        "stp-root-placement",
        "stp-suboptimal-path",
        "stp-vlan-partition",
        "team-lag-mismatch",
        "unused-allow",
    ] {
        assert!(
            applied.contains_key(rule),
            "no `{rule}` fix applied: {applied:?}"
        );
    }
}

fn netlint() -> Command {
    Command::new(env!("CARGO_BIN_EXE_netlint"))
}

#[test]
fn check_fix_writes_the_file_and_diff_does_not() {
    let tmp = TempDir::new("cli");
    let design = tmp.0.join("d.toml");
    std::fs::copy(root().join("fixtures/dcbx-willing.toml"), &design).unwrap();
    let original = std::fs::read_to_string(&design).unwrap();

    let diff = netlint()
        .args(["check", "--isolated", "--diff"])
        .arg(&design)
        .output()
        .unwrap();
    assert_eq!(diff.status.code(), Some(1), "{diff:?}");
    let shown = String::from_utf8(diff.stdout).unwrap();
    assert!(shown.contains("-") && shown.contains("+"), "{shown}");
    assert!(shown.contains("willing = false"), "{shown}");
    assert_eq!(
        std::fs::read_to_string(&design).unwrap(),
        original,
        "--diff writes nothing"
    );

    let fix = netlint()
        .args(["check", "--isolated", "--fix", "--select", "dcbx-willing"])
        .arg(&design)
        .output()
        .unwrap();
    let err = String::from_utf8(fix.stderr).unwrap();
    assert!(err.contains("fixed dcbx-willing"), "{err}");
    assert_eq!(
        fix.status.code(),
        Some(0),
        "the fixed design is clean: {err}"
    );
    let now = std::fs::read_to_string(&design).unwrap();
    assert_ne!(now, original);
    assert!(now.contains("willing = false"), "{now}");

    // Nothing left: the diff is empty and exits 0.
    let again = netlint()
        .args(["check", "--isolated", "--diff", "--select", "dcbx-willing"])
        .arg(&design)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(0));
    assert!(again.stdout.is_empty());
}

#[cfg(unix)]
#[test]
fn fix_keeps_the_files_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = TempDir::new("perm");
    let design = tmp.0.join("d.toml");
    std::fs::copy(root().join("fixtures/dcbx-willing.toml"), &design).unwrap();
    std::fs::set_permissions(&design, std::fs::Permissions::from_mode(0o640)).unwrap();
    let out = netlint()
        .args(["check", "--isolated", "--fix"])
        .arg(&design)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("fixed dcbx-willing"));
    let mode = std::fs::metadata(&design).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    // No temporary file left beside it.
    let left: Vec<_> = std::fs::read_dir(&tmp.0).unwrap().flatten().collect();
    assert_eq!(left.len(), 1, "{left:?}");
}

/// The check that guards a fix is the whole check, not the rule's own: in
/// rstp-triangle, the spanning-tree rules accept the port cost that moves
/// the path (their own check on a copy passes), but live migration then
/// loses its fallback (`lm-no-fallback`), so the fix is not applied and the
/// report says why. Without `--unsafe-fixes` the fix is not tried at all.
#[test]
fn a_fix_that_adds_a_finding_is_refused_and_unsafe_ones_wait_for_the_flag() {
    let text = std::fs::read_to_string(root().join("fixtures/rstp-triangle.toml")).unwrap();
    let file = SourceFile::new("rstp-triangle.toml", text.clone());
    let settings = CheckSettings::default();
    let unsafe_run = fix_source(&file, None, &settings, FixMode::Unsafe);
    assert!(!unsafe_run.not_applied.is_empty());
    for (f, why) in &unsafe_run.not_applied {
        assert_eq!(f.fix.safety, FixSafety::Unsafe);
        match why {
            NotApplied::NewFindings(new) => {
                assert!(
                    new.iter().any(|(rule, _)| rule == "lm-no-fallback"),
                    "{new:?}"
                )
            }
            other => panic!("{}: {other}", f.rule),
        }
    }
    assert_eq!(unsafe_run.text, text, "nothing applied, nothing changed");

    let safe_run = fix_source(&file, None, &settings, FixMode::Safe);
    assert_eq!(safe_run.not_applied.len(), unsafe_run.not_applied.len());
    assert!(safe_run
        .not_applied
        .iter()
        .all(|(_, why)| *why == NotApplied::NeedsUnsafe));
    assert!(safe_run.applied.is_empty());
}

/// `--fix` leaves unsafe fixes alone; `--unsafe-fixes` applies them.
/// (fixtures/stp-root-placement.toml's fix is refused: the root on the core
/// takes hv1 to hv2 over two hops instead of one.)
#[test]
fn unsafe_fixes_need_the_flag() {
    let tmp = TempDir::new("unsafe");
    let design = tmp.0.join("d.toml");
    std::fs::copy(
        root().join("fixtures/stp-root-placement-pvst.toml"),
        &design,
    )
    .unwrap();
    let original = std::fs::read_to_string(&design).unwrap();
    let safe = netlint()
        .args([
            "check",
            "--isolated",
            "--fix",
            "--select",
            "stp-root-placement",
        ])
        .arg(&design)
        .output()
        .unwrap();
    let err = String::from_utf8(safe.stderr).unwrap();
    assert!(err.contains("not fixed stp-root-placement"), "{err}");
    assert!(err.contains("give --unsafe-fixes"), "{err}");
    assert_eq!(std::fs::read_to_string(&design).unwrap(), original);
    let both = netlint()
        .args([
            "check",
            "--isolated",
            "--fix",
            "--unsafe-fixes",
            "--select",
            "stp-root-placement",
        ])
        .arg(&design)
        .output()
        .unwrap();
    let err = String::from_utf8(both.stderr).unwrap();
    assert!(err.contains("fixed stp-root-placement"), "{err}");
    assert_eq!(both.status.code(), Some(0), "{err}");
    let now = std::fs::read_to_string(&design).unwrap();
    assert!(now.contains("priority = 8192"), "{now}");
    for c in comments(&original) {
        assert!(now.contains(c), "comment {c:?} lost");
    }
}

/// `--unsafe-fixes` without `--fix` or `--diff` writes nothing (as ruff's
/// flag, it only widens them): the file's bytes are unchanged, and standard
/// error says so.
#[test]
fn unsafe_fixes_alone_writes_nothing() {
    let tmp = TempDir::new("unsafe-alone");
    let design = tmp.0.join("d.toml");
    std::fs::copy(root().join("fixtures/stp-root-placement.toml"), &design).unwrap();
    let before = std::fs::read(&design).unwrap();
    let run = netlint()
        .args(["check", "--isolated", "--unsafe-fixes"])
        .arg(&design)
        .output()
        .unwrap();
    let err = String::from_utf8(run.stderr).unwrap();
    assert_eq!(std::fs::read(&design).unwrap(), before, "{err}");
    assert!(err.contains("nothing was changed"), "{err}");
    // The findings are reported as without the flag.
    let out = String::from_utf8(run.stdout).unwrap();
    assert!(out.contains("stp-root-placement"), "{out}");
    assert_eq!(run.status.code(), Some(1), "{err}");
}

/// Standard input has no file to rewrite: `--fix` on it is a usage error
/// (exit 2, nothing read), `--diff` shows its fixes.
#[test]
fn fix_refuses_standard_input_and_diff_shows_it() {
    use std::io::Write;
    use std::process::Stdio;
    let text = std::fs::read(root().join("fixtures/dcbx-willing.toml")).unwrap();
    let run = |flag: &str| {
        let mut child = netlint()
            .args([
                "check",
                "--isolated",
                flag,
                "-",
                "--stdin-filename",
                "d.toml",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // A refused run may close its end before reading: ignore that.
        let _ = child.stdin.take().unwrap().write_all(&text);
        child.wait_with_output().unwrap()
    };
    let fix = run("--fix");
    assert_eq!(fix.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&fix.stderr).contains("cannot rewrite standard input"));
    let diff = run("--diff");
    assert_eq!(diff.status.code(), Some(1));
    let out = String::from_utf8(diff.stdout).unwrap();
    assert!(out.starts_with("--- a/d.toml\n+++ b/d.toml\n"), "{out}");
    assert!(out.contains("+willing = false"), "{out}");
}

/// `fixtures/power-profile.toml` has two safe fixes: a value replaced
/// (`power = "balanced"` in the profile) and a key added (`power` of
/// `hv3`). A copy with its lines ended `eol`, and a byte order mark when
/// `bom`, in a temporary directory.
fn power_profile(tmp: &TempDir, eol: &str, bom: bool) -> (PathBuf, Vec<u8>) {
    let text = std::fs::read_to_string(root().join("fixtures/power-profile.toml")).unwrap();
    let mut bytes = Vec::new();
    if bom {
        bytes.extend_from_slice("\u{feff}".as_bytes());
    }
    bytes.extend_from_slice(text.replace('\n', eol).as_bytes());
    let design = tmp.0.join("d.toml");
    std::fs::write(&design, &bytes).unwrap();
    (design, bytes)
}

fn fix_file(design: &Path) -> String {
    let out = netlint()
        .args(["check", "--isolated", "--fix", "--select", "power-profile"])
        .arg(design)
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("fixed 2 findings, 0 not fixed"), "{err}");
    assert_eq!(out.status.code(), Some(0), "{err}");
    String::from_utf8(std::fs::read(design).unwrap()).unwrap()
}

/// Issue 37 item 8: `--fix` gave a CRLF design back with LF line breaks.
/// Every line still ends CRLF, the lines the fix writes too, and the file
/// is the LF fix with CRLF line breaks: only the fixed lines differ.
#[test]
fn fix_keeps_crlf_line_breaks_on_every_line() {
    let tmp = TempDir::new("crlf");
    let (design, before) = power_profile(&tmp, "\r\n", false);
    let before = String::from_utf8(before).unwrap();
    let fixed = fix_file(&design);
    assert_ne!(fixed, before);
    assert!(fixed.ends_with("\r\n"));
    for line in fixed.split_inclusive('\n') {
        assert!(line.ends_with("\r\n"), "a line without CR: {line:?}");
    }
    // The same fix of the LF original, CRLF-ended.
    let lf_tmp = TempDir::new("crlf-lf");
    let (lf, _) = power_profile(&lf_tmp, "\n", false);
    assert_eq!(fixed, fix_file(&lf).replace('\n', "\r\n"));
    // The lines that changed are the fix's lines only.
    let changed: Vec<_> = similar::TextDiff::from_lines(&before, &fixed)
        .iter_all_changes()
        .filter(|c| c.tag() != similar::ChangeTag::Equal)
        .map(|c| c.value().to_string())
        .collect();
    assert_eq!(
        changed,
        [
            "power = \"balanced\"\r\n",
            "power = \"max-performance\"\r\n",
            "power = \"max-performance\"\r\n"
        ],
        "{changed:?}"
    );
}

/// Issue 37 item 8: `--fix` dropped a UTF-8 byte order mark.
#[test]
fn fix_keeps_a_byte_order_mark() {
    for eol in ["\n", "\r\n"] {
        let tmp = TempDir::new(&format!("bom-{}", eol.len()));
        let (design, _) = power_profile(&tmp, eol, true);
        let fixed = fix_file(&design);
        assert!(fixed.starts_with("\u{feff}# Three"), "{eol:?}: {fixed:?}");
        assert_eq!(fixed.matches('\u{feff}').count(), 1);
        assert!(fixed.contains(&format!("power = \"max-performance\"{eol}")));
    }
}

/// Issue 37 item 8: `--diff` of a CRLF design showed every line changed.
/// It shows the fix's lines, and its context lines keep their CR.
#[test]
fn diff_of_a_crlf_design_shows_only_the_fixed_lines() {
    let tmp = TempDir::new("crlf-diff");
    let (design, _) = power_profile(&tmp, "\r\n", false);
    let out = netlint()
        .args(["check", "--isolated", "--diff", "--select", "power-profile"])
        .arg(&design)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let diff = String::from_utf8(out.stdout).unwrap();
    let changed: Vec<&str> = diff
        .split_inclusive('\n')
        .filter(|l| {
            (l.starts_with('-') || l.starts_with('+'))
                && !l.starts_with("---")
                && !l.starts_with("+++")
        })
        .collect();
    assert_eq!(
        changed,
        [
            "-power = \"balanced\"\r\n",
            "+power = \"max-performance\"\r\n",
            "+power = \"max-performance\"\r\n"
        ],
        "{diff}"
    );
}

/// Issue 37 item 8: run as root, `--fix` gave another user's design to
/// root. As root the design is first given to uid/gid 65534 (nobody) and
/// must stay theirs; as another user the owner must not change.
#[cfg(unix)]
#[test]
fn fix_keeps_the_files_owner() {
    use std::os::unix::fs::MetadataExt;
    let tmp = TempDir::new("owner");
    let (design, _) = power_profile(&tmp, "\n", false);
    let me = std::fs::metadata(&design).unwrap();
    let root_user = me.uid() == 0;
    if root_user {
        std::os::unix::fs::chown(&design, Some(65534), Some(65534)).unwrap();
    }
    let before = std::fs::metadata(&design).unwrap();
    if root_user {
        assert_eq!((before.uid(), before.gid()), (65534, 65534));
    }
    fix_file(&design);
    let after = std::fs::metadata(&design).unwrap();
    assert_ne!(after.ino(), before.ino(), "the file was replaced");
    assert_eq!(
        (after.uid(), after.gid()),
        (before.uid(), before.gid()),
        "owner and group kept"
    );
}

/// Issue 34 item 5, issue 35 item 2: a fix makes no host pair slower. In
/// fixtures/stp-cost-method-long-everywhere.toml short costs on the Dell
/// ToRs (the fix netlint offered) move tor-b's root port from the 10G ISL
/// to its 1G uplink. Run with `--select stp-cost-method-mismatch`, no other
/// rule sees it, so only the comparison of every pair's path refuses it,
/// naming the pair, the network and both speeds. The fix the rule offers
/// now, long costs on the three cores, passes and is applied.
#[test]
fn a_fix_that_makes_a_host_pair_slower_is_refused() {
    let name = "stp-cost-method-long-everywhere.toml";
    let text = std::fs::read_to_string(root().join("fixtures").join(name)).unwrap();
    let settings = CheckSettings {
        select: vec!["stp-cost-method-mismatch".into()],
        ..CheckSettings::default()
    };
    let check = |t: &str| check_source(&SourceFile::new(name, t.to_string()), None, &settings).0;
    let findings = check(&text);
    let d = findings
        .iter()
        .find(|d| d.element() == "switches.tor-a")
        .expect("a finding on tor-a");
    let short: Vec<FixEdit> = ["tor-a", "tor-b"]
        .iter()
        .map(|sw| {
            let header = format!("[switches.{sw}]");
            let at = text.find(&header).unwrap();
            let stp = at + text[at..].find("{ mode").unwrap();
            FixEdit::insert(
                TomlPath::new()
                    .then("switches")
                    .then(*sw)
                    .then("stp")
                    .then("path_cost"),
                "short",
                Span::new(stp, stp + 1),
            )
        })
        .collect();
    let old_offer = Fix::unsafe_("short costs on the ToRs", short);
    match try_fix(&text, &findings, d, &old_offer, &check) {
        Err(NotApplied::WorsePath(w)) => {
            assert_eq!(w.network, "mgmt");
            assert_eq!(w.hosts, ("hv01".to_string(), "hv02".to_string()));
            assert_eq!(w.switches, ("tor-a".to_string(), "tor-b".to_string()));
            assert_eq!(w.how, Worse::Slower);
            assert_eq!(w.before.slowest, Some(Speed::from_gbps(10)));
            assert_eq!(w.before.hops, 1);
            let after = w.after.unwrap();
            assert_eq!(after.slowest, Some(Speed::from_gbps(1)));
            assert_eq!(after.hops, 2);
            assert_eq!(
                NotApplied::WorsePath(w).to_string(),
                "the edit slows the path of network `mgmt` from `hv01` to `hv02` (between `tor-a` and `tor-b`): 10G per cable at its slowest over 1 hop before, 1G per cable at its slowest over 2 hops after"
            );
        }
        other => panic!("the slower fix was not refused: {other:?}"),
    }
    // Without --select the same edit is refused too (stp-suboptimal-path
    // would be new), and the rule's own offer goes through.
    let file = SourceFile::new(name, text.clone());
    let fixed = fix_source(&file, None, &CheckSettings::default(), FixMode::Unsafe);
    let cost: Vec<_> = fixed
        .applied
        .iter()
        .filter(|f| f.rule == "stp-cost-method-mismatch")
        .collect();
    assert_eq!(cost.len(), 1, "{:?}", fixed.applied);
    assert_eq!(fixed.text.matches("path_cost = \"long\"").count(), 3);
    assert!(!fixed.text.contains("\"short\""));
    assert!(fixed.not_applied.is_empty(), "{:?}", fixed.not_applied);
}

/// Issue 35, "done when": `--fix` alone mends the safe findings of the
/// public broken-basics design (the two switches below the jumbo frames
/// through them), leaves every unsafe one for `--unsafe-fixes`, and no
/// finding with a safe fix is left.
#[test]
fn fix_alone_mends_the_safe_findings_of_broken_basics() {
    let name = "broken-basics.toml";
    let text = std::fs::read_to_string(root().join("tests/data/reference").join(name)).unwrap();
    let file = SourceFile::new(name, text.clone());
    let settings = CheckSettings::default();
    let fixed = fix_source(&file, None, &settings, FixMode::Safe);
    let applied: Vec<(&str, &str)> = fixed
        .applied
        .iter()
        .map(|f| (f.rule.as_str(), f.element.as_str()))
        .collect();
    assert_eq!(
        applied,
        [
            ("mtu-path-too-small", "switches.edge-a"),
            ("mtu-path-too-small", "switches.storage-sw")
        ]
    );
    for (f, why) in &fixed.not_applied {
        assert_eq!(*why, NotApplied::NeedsUnsafe, "{} on {}", f.rule, f.element);
    }
    let after = check_source(&SourceFile::new(name, fixed.text.clone()), None, &settings).0;
    let safe_left: Vec<String> = after
        .iter()
        .filter(|d| d.fix.as_ref().is_some_and(|f| f.safety == FixSafety::Safe))
        .map(|d| format!("{} on {}", d.rule, d.element()))
        .collect();
    assert!(safe_left.is_empty(), "{safe_left:?}");
    assert!(after.len() < check_source(&file, None, &settings).0.len());
}

/// Issue 34 item 5: a Cisco core pair on short costs and a Dell ToR pair on
/// long ones. The mix blocks the 10G ISL between the ToRs (tor-b's root
/// path through core-2 costs 2000 + 4, the ISL 2000 + 2000), so the ToRs
/// reach each other over the 1G core link.
const COST_MIX: &str = r#"[design]
name = "cost-mix-blocks-isl"
platform = "windows-server-2022"

[networks.mgmt]
role = "management"
vlan = 10

[networks.csv]
role = "csv"
vlan = 20

[[links]]
name = "core-12"
a = "core-1"
b = "core-2"
speed = "1G"

[[links]]
name = "tor-a-up"
a = "tor-a"
b = "core-1"
speed = "10G"

[[links]]
name = "tor-b-up"
a = "tor-b"
b = "core-2"
speed = "10G"

[[links]]
name = "tor-isl"
a = "tor-a"
b = "tor-b"
speed = "10G"

[switches.core-1]
model = "Cisco Nexus 93180YC-FX"
tier = "core"
stp = { mode = "rapid-pvst", priority = 4096 }

[switches.core-2]
model = "Cisco Nexus 93180YC-FX"
tier = "core"
stp = { mode = "rapid-pvst", priority = 8192 }

[switches.tor-a]
model = "Dell S4048-ON"
stp = { mode = "rapid-pvst", mac = "00:01:e8:00:00:0a" }
host_ports = { edge = true, bpdu_guard = true }

[switches.tor-b]
model = "Dell S4048-ON"
stp = { mode = "rapid-pvst", mac = "00:01:e8:00:00:0b" }
host_ports = { edge = true, bpdu_guard = true }

[hosts.hv01.nics.P1]
speed = "10G"
switch = "tor-a"
[hosts.hv01.vswitches.S]
uplinks = ["P1"]
[hosts.hv01.vswitches.S.vnics.Mgmt]
network = "mgmt"
[hosts.hv01.vswitches.S.vnics.CSV]
network = "csv"

[hosts.hv02.nics.P1]
speed = "10G"
switch = "tor-b"
[hosts.hv02.vswitches.S]
uplinks = ["P1"]
[hosts.hv02.vswitches.S.vnics.Mgmt]
network = "mgmt"
[hosts.hv02.vswitches.S.vnics.CSV]
network = "csv"
"#;

/// Issue 34 item 5, issue 35 item 2: the per-VLAN port costs
/// `stp-suboptimal-path` offers (`stp_cost = { 20 = 3 }` on the ISL, whose
/// `[[links]]` come before the switches here) are found first in the file,
/// but the change a network engineer makes is tried first: long costs on both cores, after which the ISL forwards
/// and no per-VLAN patch is left to apply.
#[test]
fn one_cost_method_everywhere_is_tried_before_per_vlan_cost_patches() {
    let file = SourceFile::new("mix.toml", COST_MIX.to_string());
    let settings = CheckSettings::default();
    let before = check_source(&file, None, &settings).0;
    let patches: Vec<&Diagnostic> = before
        .iter()
        .filter(|d| d.rule == "stp-suboptimal-path")
        .collect();
    assert_eq!(patches.len(), 2, "{before:#?}");
    assert!(patches.iter().all(|d| d.fix.is_some()));
    // In file order the patches come before the cost method.
    let first_fix = before
        .iter()
        .find(|d| d.fix.is_some() && d.rule.starts_with("stp-"))
        .unwrap();
    assert_eq!(first_fix.rule, "stp-suboptimal-path");
    let fixed = fix_source(&file, None, &settings, FixMode::Unsafe);
    let rules: Vec<&str> = fixed.applied.iter().map(|f| f.rule.as_str()).collect();
    assert!(rules.contains(&"stp-cost-method-mismatch"), "{rules:?}");
    assert!(!rules.contains(&"stp-suboptimal-path"), "{rules:?}");
    assert!(!fixed.text.contains("stp_cost"), "{}", fixed.text);
    assert_eq!(fixed.text.matches("path_cost = \"long\"").count(), 2);
    let after = check_source(
        &SourceFile::new("mix.toml", fixed.text.clone()),
        None,
        &settings,
    )
    .0;
    assert!(
        !after
            .iter()
            .any(|d| d.rule == "stp-suboptimal-path" || d.rule == "stp-cost-method-mismatch"),
        "{after:#?}"
    );
}

/// Issue 35: a misspelt value with exactly one near valid name (`lag =
/// "lacpp"`, a network `cvs` among `csv`, ...) is renamed by `--fix` on a
/// design that does not load; each fix takes its error away and adds none.
#[test]
fn schema_fixes_rename_misspelt_values_in_designs_that_do_not_load() {
    let settings = CheckSettings::default();
    let mut renamed = 0;
    for name in [
        "unknown-keys.toml",
        "undefined-references.toml",
        "vmkernel-network-name.toml",
    ] {
        let text = std::fs::read_to_string(root().join("fixtures/invalid").join(name)).unwrap();
        let file = SourceFile::new(name, text.clone());
        let before = check_source(&file, None, &settings).0;
        let fixed = fix_source(&file, None, &settings, FixMode::Safe);
        assert!(fixed.changed(), "{name}: {:?}", fixed.not_applied);
        // A design whose every input error is mended loads, and the
        // ordinary rules' safe fixes follow (vmkernel-network-name: its
        // switch and networks renamed, then `host_ports` and `power`).
        let schema = fixed.applied.iter().filter(|f| f.rule == "schema").count();
        let after = check_source(&SourceFile::new(name, fixed.text.clone()), None, &settings).0;
        let errors = |l: &[Diagnostic]| l.iter().filter(|d| d.is_input_error()).count();
        assert_eq!(
            errors(&after) + schema,
            errors(&before),
            "{name}\n{}",
            fixed.text
        );
        if errors(&after) > 0 {
            assert_eq!(schema, fixed.applied.len(), "{name}: {:?}", fixed.applied);
        }
        for c in comments(&text) {
            assert!(fixed.text.contains(c), "{name}: comment {c:?} lost");
        }
        renamed += schema;
    }
    // Seven misspelt values, three misspelt keys (`platfrom`, `teir`,
    // `swtich`: each removed and its valid key added with the value) and
    // one switch reference (`dc1-tor-a` for `tor-a`). `tor-b` where only
    // `tor-a` is defined is a sibling, not a typo: no fix moves the NIC.
    assert_eq!(renamed, 11);
    let text = std::fs::read_to_string(root().join("fixtures/invalid/unknown-keys.toml")).unwrap();
    let fixed = fix_source(
        &SourceFile::new("u.toml", text),
        None,
        &settings,
        FixMode::Safe,
    );
    for fixed_value in [
        "lag = \"lacp\"",
        "mode = \"switch-independent\"",
        "load_balancing = \"hyperv-port\"",
        "platform = \"windows-server-2019\"",
        "tier = \"access\"",
        "switch = \"tor-a\"",
    ] {
        assert!(fixed.text.contains(fixed_value), "{}", fixed.text);
    }
    assert!(!fixed.text.contains("swtich"), "{}", fixed.text);
}

/// A misspelt key with a comment after its value on the same line is not
/// renamed: the removal would take the comment with it.
#[test]
fn a_misspelt_key_with_a_comment_on_its_line_is_left_to_the_user() {
    let settings = CheckSettings::default();
    let text = "[design]\nname = \"k\"\nplatfrom = \"windows-server-2019\"   # the hosts' OS\n";
    let fixed = fix_source(
        &SourceFile::new("k.toml", text.to_string()),
        None,
        &settings,
        FixMode::Safe,
    );
    assert!(!fixed.changed(), "{}", fixed.text);
    let plain = "[design]\nname = \"k\"\nplatfrom = \"windows-server-2019\"\n";
    let fixed = fix_source(
        &SourceFile::new("k.toml", plain.to_string()),
        None,
        &settings,
        FixMode::Safe,
    );
    assert_eq!(
        fixed.text,
        "[design]\nname = \"k\"\nplatform = \"windows-server-2019\"\n"
    );
}
