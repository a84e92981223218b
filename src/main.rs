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

fn main() {
    let mut stdout = Stdout {
        inner: io::stdout(),
        closed: false,
    };
    let stderr = io::stderr();
    let code = netlint::cli::run(std::env::args_os(), &mut stdout, &mut stderr.lock());
    let _ = stdout.flush();
    std::process::exit(code);
}
