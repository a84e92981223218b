//! Writing files: whole or not at all, and never onto an input.
//!
//! Every file netlint writes (reports, baselines, graphs, man pages) goes
//! through [`write_atomic`]: the bytes go to a temporary file in the same
//! directory, which is flushed to disk and then renamed over the target, so
//! an interrupted run leaves the old file whole and a reader never sees half
//! a report. A file that others append to (GitHub's step summary) is not
//! replaced but appended to, by [`append_whole`]: in one write, and cut
//! back to its old length when the write fails. [`same_file`] tells the commands when an output would land on a
//! file the run reads, which they refuse as a usage error.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// Writes `bytes` to `path` through a temporary file in the same directory
/// and a rename. A symbolic link at `path` is followed: its target is
/// replaced, the link stays. An existing file keeps its permissions, and
/// its owner and group where the process may set them. A
/// path that exists and is not a regular file (`/dev/null`, `/dev/stdout`,
/// a FIFO a reader waits on) is written in place: renaming over it would
/// replace the device or pipe with a file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    if fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        let mut f = fs::OpenOptions::new().write(true).open(path)?;
        return f.write_all(bytes);
    }
    let target = match fs::canonicalize(path) {
        Ok(real) => real,
        Err(_) => path.to_path_buf(),
    };
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?
        .to_string_lossy()
        .to_string();
    let temp = dir.join(format!(
        ".{name}.netlint-{}-{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| {
        let mut f = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        if let Ok(old) = fs::metadata(&target) {
            // The owner first: changing it clears set-user-ID bits, which
            // the permissions then put back.
            keep_owner(&f, &old);
            fs::set_permissions(&temp, old.permissions())?;
        }
        fs::rename(&temp, &target)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

/// Gives the new file `f` the owner and group of the file it replaces,
/// where the process may (issue 37, item 8: `--fix` run as root gave a
/// user's design to root). Root may set both; another user may set only
/// the group, to one of its own groups. What the process may not do is
/// left as it is, silently: the file is written either way, as a copy
/// made by that user would be.
#[cfg(unix)]
fn keep_owner(f: &fs::File, old: &fs::Metadata) {
    use std::os::unix::fs::{fchown, MetadataExt};
    let Ok(now) = f.metadata() else { return };
    if now.uid() == old.uid() && now.gid() == old.gid() {
        return;
    }
    if fchown(f, Some(old.uid()), Some(old.gid())).is_err() {
        let _ = fchown(f, None, Some(old.gid()));
    }
}

#[cfg(not(unix))]
fn keep_owner(_: &fs::File, _: &fs::Metadata) {}

/// Appends `bytes` to `path` (created when missing) in one write and
/// flushes it to disk. Not an atomic replacement: the file belongs to
/// others too (GitHub's step summary collects every step's text), so what
/// they wrote stays. When the write fails part way, the file is cut back to
/// the length it had, so a reader never sees half a report.
pub fn append_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut f = fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)?;
    let before = f.metadata()?.len();
    let result = f.write_all(bytes).and_then(|()| f.sync_all());
    if result.is_err() {
        let _ = f.set_len(before);
    }
    result
}

/// Refuses to write `output` when it is one of the files the run reads
/// (`-o design.toml` would destroy the design): a usage error.
pub fn refuse_inputs(output: &Path, inputs: &[PathBuf]) -> Result<(), String> {
    match inputs.iter().find(|i| same_file(output, i)) {
        Some(i) => Err(format!(
            "`-o {}` is {}, a file this run reads: write the output to another file",
            output.display(),
            i.display()
        )),
        None => Ok(()),
    }
}

/// Whether `a` and `b` name one file: the same device and inode when both
/// exist (hard links, symbolic links, `./x` and `x`), else the same path
/// once the existing part is resolved.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(ma), Ok(mb)) = (fs::metadata(a), fs::metadata(b)) {
            return ma.dev() == mb.dev() && ma.ino() == mb.ino();
        }
    }
    match (resolved(a), resolved(b)) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

/// `p` with its directory resolved (the file itself may not exist yet).
fn resolved(p: &Path) -> Option<PathBuf> {
    if let Ok(real) = fs::canonicalize(p) {
        return Some(real);
    }
    let name = p.file_name()?;
    let parent = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Some(fs::canonicalize(parent).ok()?.join(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("netlint-output-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    /// `-o /dev/null` once replaced the device with a regular file: a path
    /// that is not a regular file is written in place, never renamed over.
    #[cfg(unix)]
    #[test]
    fn a_pipe_or_device_is_written_in_place_not_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let d = temp_dir("fifo");
        let p = d.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&p).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo failed");
        let reader = {
            let p = p.clone();
            std::thread::spawn(move || fs::read(&p).unwrap())
        };
        write_atomic(&p, b"report").unwrap();
        assert_eq!(reader.join().unwrap(), b"report");
        assert!(fs::metadata(&p).unwrap().file_type().is_fifo());
        let names: Vec<_> = fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["pipe"]);
        let _ = fs::remove_dir_all(&d);
    }

    #[test]
    fn replaces_the_file_and_leaves_no_temporary() {
        let d = temp_dir("replace");
        let p = d.join("out.json");
        fs::write(&p, "old").unwrap();
        write_atomic(&p, b"new").unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "new");
        let names: Vec<_> = fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["out.json"]);
        let _ = fs::remove_dir_all(&d);
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let d = temp_dir("fail");
        // A directory where the file should be: the rename fails.
        let p = d.join("report");
        fs::create_dir(&p).unwrap();
        fs::write(p.join("keep"), "x").unwrap();
        assert!(write_atomic(&p, b"new").is_err());
        assert_eq!(fs::read_to_string(p.join("keep")).unwrap(), "x");
        let names: Vec<_> = fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["report"]);
        let _ = fs::remove_dir_all(&d);
    }

    #[test]
    fn append_keeps_what_is_there_and_creates_a_missing_file() {
        let d = temp_dir("append");
        let p = d.join("summary.md");
        append_whole(&p, b"one\n").unwrap();
        fs::write(d.join("other"), "x").unwrap();
        append_whole(&p, b"two\n").unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "one\ntwo\n");
        // A directory cannot be appended to: an error, nothing created.
        assert!(append_whole(&d, b"x").is_err());
        let _ = fs::remove_dir_all(&d);
    }

    #[test]
    fn same_file_sees_through_dots_and_links() {
        let d = temp_dir("same");
        let a = d.join("a.toml");
        fs::write(&a, "x").unwrap();
        assert!(same_file(&a, &d.join(".").join("a.toml")));
        assert!(!same_file(&a, &d.join("b.toml")));
        assert!(same_file(&d.join("new.txt"), &d.join("./new.txt")));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&a, d.join("link.toml")).unwrap();
            assert!(same_file(&a, &d.join("link.toml")));
            fs::hard_link(&a, d.join("hard.toml")).unwrap();
            assert!(same_file(&a, &d.join("hard.toml")));
        }
        let _ = fs::remove_dir_all(&d);
    }
}
