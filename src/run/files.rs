//! Which files a run checks, and reading them safely.
//!
//! Files named on the command line are read as given (a symbolic link the
//! user names is followed, and the file is checked even when an ignore file
//! lists it). Directories are searched for `*.toml` files holding a
//! `[design]` table, in name order, skipping hidden folders, `target`,
//! `node_modules` and what the ignore files list, read by the ignore crate
//! as ripgrep reads them: `.gitignore` and `.git/info/exclude` inside a git
//! repository only (`require_git`, ripgrep's default), `.ignore` anywhere,
//! those of the folders above the searched one too (`parents`); not the
//! user's global gitignore, so a run does not depend on the machine's git
//! configuration. The search:
//!
//! - enters each real directory once (by device and inode), so a link loop
//!   or `self -> .` costs nothing and a file is never listed twice;
//! - follows a symbolic link only when its target lies inside the directory
//!   searched; a link out of it is skipped with a note;
//! - reads only regular files (a FIFO, a socket or a device is skipped with
//!   a note, never opened), and at most `--max-file-size` bytes of each;
//! - lets the ignore crate read an ignore file only when it is a regular
//!   file within that size (a FIFO `.gitignore` would block for ever): any
//!   other is an input error and its folder is not searched; a rule that is
//!   not a valid glob is a note, the file's other rules apply.
//!
//! A path that cannot be used is an input error of its own ([`Unreadable`])
//! and the run goes on with the rest. A file named twice (or named and also
//! found in a directory) is checked once.

use ignore::WalkBuilder;
use netlint_model::{Diagnostic, Element, Severity, SourceFile, Span, SYNTAX};
use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The default of `--max-file-size`: 16 MiB, far above any design (the
/// 10,000-host benchmark design is about 3 MiB).
pub const DEFAULT_MAX_FILE_SIZE: u64 = 16 * 1024 * 1024;

/// How files are found and read.
#[derive(Clone, Debug)]
pub struct ReadOptions {
    /// `--designs-only`: skip named files without a `[design]` table.
    pub designs_only: bool,
    /// `--max-file-size`: the most bytes read of one file.
    pub max_file_size: u64,
    /// `--stdin-filename`: the name `-` (standard input) is shown as.
    pub stdin_name: Option<String>,
    /// Directories give every regular file that is not hidden (the inputs
    /// of `import` and `diff`: configs, tables, collections), not only
    /// `*.toml` designs.
    pub any_file: bool,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            designs_only: false,
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            stdin_name: None,
            any_file: false,
        }
    }
}

/// One file to check, read.
#[derive(Clone, Debug)]
pub struct Input {
    /// The path as shown in reports.
    pub shown: String,
    /// Where it was read from; `None` for standard input.
    pub path: Option<PathBuf>,
    pub bytes: Vec<u8>,
}

/// A path that could not be read, and why: an input error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable {
    pub shown: String,
    pub reason: String,
}

/// What the search found.
#[derive(Clone, Debug, Default)]
pub struct Collected {
    pub inputs: Vec<Input>,
    pub unreadable: Vec<Unreadable>,
    /// Things passed over on purpose, with the reason (`path: reason`): a
    /// note on standard error, not an error.
    pub skipped: Vec<String>,
}

/// Expands the paths into the designs to check (see the module docs).
pub fn collect_designs(paths: &[PathBuf], opts: &ReadOptions) -> Collected {
    let mut c = Collected::default();
    let mut seen_files: HashSet<FileId> = HashSet::new();
    let shared = Shared::default();
    let mut stdin_read = false;
    for p in paths {
        if p.as_os_str() == "-" {
            if stdin_read {
                continue;
            }
            stdin_read = true;
            let shown = opts
                .stdin_name
                .clone()
                .unwrap_or_else(|| "<stdin>".to_string());
            match read_capped(&mut io::stdin().lock(), opts.max_file_size) {
                Ok(bytes) => c.inputs.push(Input {
                    shown,
                    path: None,
                    bytes,
                }),
                Err(reason) => c.unreadable.push(Unreadable { shown, reason }),
            }
            continue;
        }
        let shown = display(p);
        match fs::metadata(p) {
            Ok(m) if m.is_dir() => {
                let Ok(root) = fs::canonicalize(p) else {
                    c.unreadable.push(Unreadable {
                        shown,
                        reason: "cannot resolve the directory".to_string(),
                    });
                    continue;
                };
                walk(p, &root, opts, &shared, &mut seen_files, &mut c);
            }
            Ok(m) => {
                if let Some(id) = file_id(&m) {
                    if !seen_files.insert(id) {
                        continue;
                    }
                }
                match read_file(p, opts.max_file_size) {
                    Ok(bytes) => {
                        if opts.designs_only && !is_design(&bytes) {
                            continue;
                        }
                        c.inputs.push(Input {
                            shown,
                            path: Some(p.clone()),
                            bytes,
                        });
                    }
                    Err(reason) => c.unreadable.push(Unreadable { shown, reason }),
                }
            }
            Err(e) => c.unreadable.push(Unreadable {
                shown,
                reason: io_reason(&e),
            }),
        }
    }
    c
}

/// What the walks of one run share: the directories entered and the ignore
/// files found safe to read. The ignore crate's entry filter must be
/// `'static + Send + Sync`, hence the `Arc<Mutex<_>>`.
#[derive(Clone, Default)]
struct Shared {
    seen_dirs: Arc<Mutex<HashSet<FileId>>>,
    /// Directories whose ignore files were checked, and the result.
    checked: Arc<Mutex<HashMap<PathBuf, bool>>>,
    /// Ignore files that cannot be read safely: input errors.
    unreadable: Arc<Mutex<Vec<Unreadable>>>,
}

/// The files the ignore crate reads in a directory: the ignore files, and
/// `.git` (a worktree's `.git` is a file it reads).
const IGNORE_FILES: [&str; 4] = [".gitignore", ".ignore", ".git", ".git/info/exclude"];

impl Shared {
    /// Whether the ignore files of `dir` (the ones the ignore crate would
    /// open) are regular files within the size limit, or absent. A FIFO
    /// named `.gitignore` would block the read forever, a link to
    /// `/dev/zero` would never end: such a file is an input error and the
    /// directory is not searched.
    fn ignore_files_safe(&self, dir: &Path, max: u64) -> bool {
        let key = fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        if let Some(&ok) = lock(&self.checked).get(&key) {
            return ok;
        }
        let mut ok = true;
        for name in IGNORE_FILES {
            let path = dir.join(name);
            let Ok(meta) = fs::metadata(&path) else {
                continue;
            };
            if name == ".git" && meta.is_dir() {
                continue;
            }
            let reason = if !meta.is_file() {
                not_regular(&meta).to_string()
            } else if meta.len() > max {
                too_large(max)
            } else {
                continue;
            };
            lock(&self.unreadable).push(Unreadable {
                shown: display(&path),
                reason: format!(
                    "{reason}; netlint reads this file for the ignore rules, so {} is not searched",
                    display(dir)
                ),
            });
            ok = false;
        }
        lock(&self.checked).insert(key, ok);
        ok
    }

    /// `ignore_files_safe` for `dir` and every directory above it (the
    /// ignore crate reads the parents' ignore files too).
    fn ignore_files_safe_up(&self, dir: &Path, max: u64) -> bool {
        let Ok(real) = fs::canonicalize(dir) else {
            return true;
        };
        // Every directory is looked at, so each bad file is reported.
        let mut ok = true;
        for d in real.ancestors() {
            ok &= self.ignore_files_safe(d, max);
        }
        ok
    }

    /// Marks a directory entered; false when it was already.
    fn enter(&self, dir: &Path) -> bool {
        match fs::metadata(dir).ok().as_ref().and_then(file_id) {
            Some(id) => lock(&self.seen_dirs).insert(id),
            None => true,
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Searches `dir` for designs with the ignore crate's walker (what ripgrep
/// uses): `.gitignore` and `.git/info/exclude` inside a git repository,
/// `.ignore` everywhere, also those of the directories above `dir`; no
/// global gitignore (a run depends on the repository, not on the user's
/// git configuration). Symbolic links are not followed by the walker: each
/// is looked at here, and a link to a directory inside `root` is searched
/// by a walk of its own.
fn walk(
    dir: &Path,
    root: &Path,
    opts: &ReadOptions,
    shared: &Shared,
    seen_files: &mut HashSet<FileId>,
    c: &mut Collected,
) {
    if !shared.enter(dir) {
        return;
    }
    let max = opts.max_file_size;
    if !shared.ignore_files_safe_up(dir, max) {
        c.unreadable.append(&mut lock(&shared.unreadable));
        return;
    }
    let mut builder = WalkBuilder::new(dir);
    builder
        .standard_filters(false)
        .hidden(false)
        .parents(true)
        .ignore(true)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(false)
        .require_git(true)
        .follow_links(false)
        .sort_by_file_name(|a, b| a.cmp(b));
    let filter = shared.clone();
    builder.filter_entry(move |e| {
        if !e.file_type().is_some_and(|t| t.is_dir()) {
            return true;
        }
        let name = e.file_name().to_string_lossy();
        if name.starts_with('.') || name == "target" || name == "node_modules" {
            return false;
        }
        filter.enter(e.path()) && filter.ignore_files_safe(e.path(), max)
    });
    for entry in builder.build() {
        c.unreadable.append(&mut lock(&shared.unreadable));
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                walk_error(&e, c);
                continue;
            }
        };
        if let Some(e) = entry.error() {
            walk_error(e, c);
        }
        if entry.depth() == 0 {
            continue;
        }
        let path = entry.path();
        let name = entry.file_name().to_string_lossy();
        if opts.any_file && name.starts_with('.') {
            continue;
        }
        let is_toml = opts.any_file || name.ends_with(".toml");
        let Some(ft) = entry.file_type() else {
            continue;
        };
        let meta = if ft.is_symlink() {
            match fs::canonicalize(path) {
                Ok(real) if !real.starts_with(root) => {
                    if is_toml || real.is_dir() {
                        c.skipped.push(format!(
                            "{}: a link out of the searched directory, not followed",
                            display(path)
                        ));
                    }
                    continue;
                }
                Ok(real) if real.is_dir() => {
                    walk(path, root, opts, shared, seen_files, c);
                    continue;
                }
                Ok(real) => fs::metadata(real),
                Err(e) => Err(e),
            }
        } else if ft.is_dir() || !is_toml {
            continue;
        } else {
            fs::symlink_metadata(path)
        };
        if !is_toml {
            continue;
        }
        let meta = match meta {
            Ok(m) => m,
            Err(e) => {
                // A `*.toml` that cannot be looked at may be a design.
                c.unreadable.push(Unreadable {
                    shown: display(path),
                    reason: io_reason(&e),
                });
                continue;
            }
        };
        if !meta.is_file() {
            c.skipped.push(format!(
                "{}: {}, not read",
                display(path),
                not_regular(&meta)
            ));
            continue;
        }
        if let Some(id) = file_id(&meta) {
            if !seen_files.insert(id) {
                continue;
            }
        }
        match read_file(path, max) {
            Ok(bytes) if opts.any_file || is_design(&bytes) => c.inputs.push(Input {
                shown: display(path),
                path: Some(path.to_path_buf()),
                bytes,
            }),
            Ok(_) => {}
            Err(reason) => c.unreadable.push(Unreadable {
                shown: display(path),
                reason,
            }),
        }
    }
    c.unreadable.append(&mut lock(&shared.unreadable));
}

/// An error of the walk: a directory that cannot be listed or a `*.toml`
/// that cannot be looked at is an input error; a rule of an ignore file
/// that cannot be used is a note (the rest of the file applies).
fn walk_error(e: &ignore::Error, c: &mut Collected) {
    let mut path: Option<&Path> = None;
    let mut line: Option<u64> = None;
    let mut cur = e;
    loop {
        match cur {
            ignore::Error::Partial(errs) => {
                for e in errs {
                    walk_error(e, c);
                }
                return;
            }
            ignore::Error::WithPath { path: p, err } => {
                path = path.or(Some(p));
                cur = err;
            }
            ignore::Error::WithLineNumber { line: l, err } => {
                line = line.or(Some(*l));
                cur = err;
            }
            ignore::Error::WithDepth { err, .. } => cur = err,
            // A link loop: the walker does not follow links, so this is
            // not reached; a loop costs nothing either way.
            ignore::Error::Loop { .. } => return,
            _ => break,
        }
    }
    let shown = path.map(display).unwrap_or_default();
    if let Some(line) = line {
        c.skipped.push(format!(
            "{shown}:{line}: {}, so this rule of the ignore file is not applied",
            plain(cur)
        ));
        return;
    }
    let Some(p) = path else {
        c.skipped.push(plain(cur));
        return;
    };
    let reason = plain(cur);
    if fs::metadata(p).is_ok_and(|m| m.is_dir()) {
        c.unreadable.push(Unreadable {
            shown,
            reason: format!("cannot list the directory: {reason}"),
        });
    } else if p.to_string_lossy().ends_with(".toml") {
        c.unreadable.push(Unreadable { shown, reason });
    } else {
        c.skipped.push(format!(
            "{shown}: {reason}, so its ignore rules are not applied"
        ));
    }
}

/// An ignore crate error in words, without "(os error N)".
fn plain(e: &ignore::Error) -> String {
    match e {
        ignore::Error::Io(io) => io_reason(io),
        other => other.to_string(),
    }
}

/// A file's identity: device and inode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct FileId(u64, u64);

#[cfg(unix)]
fn file_id(m: &fs::Metadata) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    Some(FileId(m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn file_id(_: &fs::Metadata) -> Option<FileId> {
    None
}

/// What a file that is not a regular file is.
fn not_regular(m: &fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = m.file_type();
        if t.is_fifo() {
            return "a FIFO (named pipe), not a regular file";
        }
        if t.is_socket() {
            return "a socket, not a regular file";
        }
        if t.is_char_device() {
            return "a character device, not a regular file";
        }
        if t.is_block_device() {
            return "a block device, not a regular file";
        }
    }
    if m.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// Reads a file named by the user or found by the search: a regular file,
/// at most `max` bytes. The error is the reason, in words.
pub fn read_file(path: &Path, max: u64) -> Result<Vec<u8>, String> {
    let meta = fs::metadata(path).map_err(|e| io_reason(&e))?;
    if !meta.is_file() {
        return Err(not_regular(&meta).to_string());
    }
    if meta.len() > max {
        return Err(too_large(max));
    }
    let mut f = fs::File::open(path).map_err(|e| io_reason(&e))?;
    read_capped(&mut f, max)
}

/// Reads at most `max` bytes; more is an error, not a truncation.
pub fn read_capped(r: &mut dyn Read, max: u64) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    r.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| io_reason(&e))?;
    if bytes.len() as u64 > max {
        return Err(too_large(max));
    }
    Ok(bytes)
}

fn too_large(max: u64) -> String {
    format!(
        "larger than {}, the most netlint reads of one file (raise it with --max-file-size)",
        size_text(max)
    )
}

/// `16 MiB`, `512 KiB`, `100 bytes`.
pub fn size_text(n: u64) -> String {
    const KIB: u64 = 1024;
    if n >= KIB * KIB && n % (KIB * KIB) == 0 {
        format!("{} MiB", n / (KIB * KIB))
    } else if n >= KIB && n % KIB == 0 {
        format!("{} KiB", n / KIB)
    } else {
        format!("{n} bytes")
    }
}

/// `--max-file-size`: bytes, or with a unit `K`/`KiB`, `M`/`MiB`, `G`/`GiB`
/// (powers of 1024).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, unit) = t.split_at(split);
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("`{s}` is not a size: give bytes, or a number with K, M or G"))?;
    let factor: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kib" | "kb" => 1 << 10,
        "m" | "mib" | "mb" => 1 << 20,
        "g" | "gib" | "gb" => 1 << 30,
        _ => return Err(format!("`{s}` has an unknown unit: use K, M or G")),
    };
    n.checked_mul(factor)
        .filter(|&b| b > 0)
        .ok_or_else(|| format!("`{s}` is not a usable size"))
}

/// An I/O error in words, without "(os error N)".
pub fn io_reason(e: &io::Error) -> String {
    #[cfg(unix)]
    if e.raw_os_error() == Some(40) || e.raw_os_error() == Some(62) {
        // ELOOP on Linux (40) and the BSDs / macOS (62).
        return "a loop of symbolic links".to_string();
    }
    match e.kind() {
        io::ErrorKind::NotFound => "no such file or directory".to_string(),
        io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        io::ErrorKind::IsADirectory => "a directory".to_string(),
        io::ErrorKind::NotADirectory => {
            "a path through something that is not a directory".to_string()
        }
        io::ErrorKind::InvalidData => "not valid data".to_string(),
        kind => {
            let s = kind.to_string();
            if s.is_empty() {
                "cannot be read".to_string()
            } else {
                s
            }
        }
    }
}

/// Whether the text has a `[design]` table header, as TOML reads one:
/// spaces inside the brackets and a quoted key (`[ "design" ]`) allowed,
/// a comment after it allowed. Undecodable bytes do not hide it.
pub fn is_design(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    text.lines().any(|l| {
        let l = l.trim_start_matches(['\u{feff}', ' ', '\t']);
        let Some(rest) = l.strip_prefix('[') else {
            return false;
        };
        if rest.starts_with('[') {
            return false;
        }
        let Some(end) = rest.find(']') else {
            return false;
        };
        let key = rest[..end].trim();
        let after = rest[end + 1..].trim_start();
        matches!(key, "design" | "\"design\"" | "'design'")
            && (after.is_empty() || after.starts_with('#'))
    })
}

pub(crate) fn display(p: &Path) -> String {
    let s = p.to_string_lossy().replace('\\', "/");
    s.strip_prefix("./").map(str::to_string).unwrap_or(s)
}

/// The input error of a file that is not UTF-8, at its first bad byte (the
/// text shown with the undecodable bytes replaced).
pub(crate) fn not_utf8(shown: String, e: std::string::FromUtf8Error) -> (SourceFile, Diagnostic) {
    let at = e.utf8_error().valid_up_to();
    let bytes = e.into_bytes();
    let bad = bytes.get(at).copied().unwrap_or(0);
    let file = SourceFile::new(shown, String::from_utf8_lossy(&bytes).into_owned());
    let d = Diagnostic::new(
        SYNTAX,
        Severity::Error,
        Element::Design,
        "the file is not UTF-8 text",
    )
    .at(
        Span {
            start: at,
            end: at + 1,
        },
        format!("byte 0x{bad:02X} is not UTF-8 (Latin-1 or Windows-1252?)"),
    )
    .with_help("save the file as UTF-8 (TOML files are UTF-8)");
    (file, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn design_headers_as_toml_reads_them() {
        for yes in [
            "[design]",
            "[ design ]",
            "  [design] # the design",
            "[\"design\"]",
            "[ 'design' ]",
            "\u{feff}[design]",
        ] {
            assert!(is_design(yes.as_bytes()), "{yes}");
        }
        for no in [
            "[[design]]",
            "[designs]",
            "[design.x]",
            "# [design]",
            "x = \"[design]\"",
        ] {
            assert!(!is_design(no.as_bytes()), "{no}");
        }
        assert!(is_design(b"name = \"caf\xe9\"\n[design]\n"));
    }

    #[test]
    fn sizes_parse_and_print() {
        assert_eq!(parse_size("16M").unwrap(), DEFAULT_MAX_FILE_SIZE);
        assert_eq!(parse_size("512KiB").unwrap(), 512 * 1024);
        assert_eq!(parse_size("100").unwrap(), 100);
        assert!(parse_size("0").is_err());
        assert!(parse_size("ten").is_err());
        assert!(parse_size("5T").is_err());
        assert!(parse_size("99999999999G").is_err());
        assert_eq!(size_text(DEFAULT_MAX_FILE_SIZE), "16 MiB");
        assert_eq!(size_text(100), "100 bytes");
    }

    #[test]
    fn reading_stops_after_the_limit() {
        let mut endless = io::repeat(0);
        let e = read_capped(&mut endless, 1000).unwrap_err();
        assert!(e.contains("larger than 1000 bytes"), "{e}");
        assert_eq!(read_capped(&mut &b"abc"[..], 3).unwrap(), b"abc");
    }
}
