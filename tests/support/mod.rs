//! Shared by the integration tests that drive the CLI in-process.

use std::path::{Path, PathBuf};

/// `netlint ARGS...` run in-process: its exit code, standard output and
/// standard error.
#[allow(dead_code)] // not every test file runs the CLI
pub fn run(args: &[&str]) -> (i32, String, String) {
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

/// A path `name` in the test's own folder `dir` of the build's temporary
/// directory (made if missing).
#[allow(dead_code)] // not every test file writes files
pub fn tmp(dir: &str, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Every `*.toml` under `fixtures/` (invalid designs included) with its
/// text, by path.
#[allow(dead_code)] // not every test file reads the fixtures
pub fn fixture_files() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "toml") {
                let text = std::fs::read_to_string(&p).unwrap();
                out.push((p.display().to_string(), text));
            }
        }
    }
    out.sort();
    out
}

/// How long [`netlint_in`] waits for the binary.
#[allow(dead_code)]
pub const DEADLINE: std::time::Duration = std::time::Duration::from_secs(30);

/// The netlint binary run in `cwd` with `stdin` (outside the test process,
/// `GITHUB_ACTIONS` unset): its exit code, standard output and standard
/// error. Killed, and the test failed, past [`DEADLINE`].
#[allow(dead_code)] // not every test file runs the binary
pub fn netlint_in(cwd: &Path, args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_netlint"))
        .args(args)
        .current_dir(cwd)
        .env_remove("GITHUB_ACTIONS")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let _ = input.write_all(stdin);
    drop(input);
    let out = child.stdout.take().unwrap();
    let err = child.stderr.take().unwrap();
    let read = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = Vec::new();
            let _ = r.read_to_end(&mut s);
            s
        })
    };
    let (out, err) = (read(Box::new(out)), read(Box::new(err)));
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("netlint {args:?} did not finish in {DEADLINE:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    (
        status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.join().unwrap()).into_owned(),
        String::from_utf8_lossy(&err.join().unwrap()).into_owned(),
    )
}

/// A fresh folder under the system temp dir (outside any repository),
/// removed when dropped.
#[allow(dead_code)] // not every test file writes a tree
pub struct TempDir(PathBuf);

#[allow(dead_code)]
impl TempDir {
    /// `netlint-<tag>-<pid>-<name>` under the system temp dir.
    pub fn new(tag: &str, name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("netlint-{tag}-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(std::fs::canonicalize(dir).unwrap())
    }
    /// Writes `bytes` at `rel`, folders made; its path.
    pub fn write(&self, rel: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let p = self.0.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, bytes).unwrap();
        p
    }
    pub fn path(&self) -> &Path {
        &self.0
    }
    /// netlint run in the folder, with nothing on standard input.
    pub fn run(&self, args: &[&str]) -> (i32, String, String) {
        netlint_in(&self.0, args, b"")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What bash offers for the last of `words`, through the function the
/// script registers for `netlint`.
#[allow(dead_code)] // not every test file completes
pub fn bash_completes(script: &str, words: &[&str]) -> Vec<String> {
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let program = format!(
        "eval \"$NETLINT_COMPLETION\"; f=$(complete -p netlint | sed 's/.*-F \\([^ ]*\\).*/\\1/'); \
         COMP_WORDS=({words}); COMP_CWORD={cword}; \"$f\" netlint \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"; \
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        words = quoted.join(" "),
        cword = words.len() - 1,
    );
    let out = std::process::Command::new("bash")
        .args(["-c", &program])
        .env("NETLINT_COMPLETION", script)
        .output()
        .expect("bash runs (the tests need a Unix shell)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

/// A file of the vSphere import fixture (crates/netlint-import/tests/vsphere).
#[allow(dead_code)] // not every test file imports vSphere
pub fn vsphere_fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("crates/netlint-import/tests/vsphere")
        .join(name)
        .display()
        .to_string()
}

/// `netlint import` of the vSphere fixture's switches and cabling with the
/// collection `collection` (a name in the fixture folder, or a path) to
/// `design` (removed first): exit 0 and nothing on standard output
/// asserted; its standard error.
#[allow(dead_code)] // not every test file imports vSphere
pub fn import_vsphere_site(collection: &str, design: &Path) -> String {
    let _ = std::fs::remove_file(design);
    let collection = if Path::new(collection).is_absolute() {
        collection.to_string()
    } else {
        vsphere_fixture(collection)
    };
    let (code, out, err) = run(&[
        "import",
        &vsphere_fixture("tor-a.cfg"),
        &vsphere_fixture("tor-b.cfg"),
        &vsphere_fixture("cabling.csv"),
        &collection,
        "-o",
        design.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.is_empty(), "{out}");
    err
}
