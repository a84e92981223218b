use std::io::{self, Write};

/// Standard output that goes quiet once its reader has gone (`netlint check
/// ... | head`): the rest of the output is dropped instead of failing the
/// run with "Broken pipe", and the exit code still says what was found.
/// Locked per write, not for the whole run: `netlint server`'s writer
/// thread needs standard output too.
struct Stdout {
    inner: io::Stdout,
    closed: bool,
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        match self.inner.write(buf) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(buf.len())
            }
            other => other,
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        match self.inner.flush() {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            other => other,
        }
    }
}

/// glibc's malloc, told to keep what it got from the kernel: by default it
/// gives the top of the heap back whenever 128 KiB are free there and
/// serves large vectors with fresh mappings, so a check that builds and
/// drops large vectors over and over paid for page faults and zeroed
/// pages again and again (a quarter of its time in the kernel). Keeping
/// up to 1 GiB, growing the heap by 64 MiB at a time and mapping only
/// blocks over 32 MiB cut the CPU time of the 10,000-host check by about
/// a tenth (docs/performance.md). mimalloc was tried instead and cost more
/// (its pages are returned and faulted in again).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn tune_malloc() {
    extern "C" {
        fn mallopt(param: i32, value: i32) -> i32;
    }
    const M_TRIM_THRESHOLD: i32 = -1;
    const M_TOP_PAD: i32 = -2;
    const M_MMAP_THRESHOLD: i32 = -3;
    // SAFETY: mallopt only sets allocator parameters; it is called before
    // any other thread exists, and a value it rejects leaves the default.
    unsafe {
        mallopt(M_TRIM_THRESHOLD, 1 << 30);
        mallopt(M_TOP_PAD, 64 << 20);
        mallopt(M_MMAP_THRESHOLD, 32 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn tune_malloc() {}

fn main() {
    tune_malloc();
    let mut stdout = Stdout {
        inner: io::stdout(),
        closed: false,
    };
    let stderr = io::stderr();
    let code = netlint::cli::run_to_exit(std::env::args_os(), &mut stdout, &mut stderr.lock());
    let _ = stdout.flush();
    std::process::exit(code);
}
