//! The server's end of standard input and output: LSP base-protocol
//! framing (`Content-Length: N`, a blank line, N bytes of JSON), read with
//! bounds.
//!
//! `lsp-server`'s own reader sizes its buffer from `Content-Length` before
//! reading a byte of the body, so `Content-Length: 18446744073709551615`
//! panicked its thread, `1000000000000` aborted the process on allocation
//! and `2000000000` with a 2-byte body held 1.9 GB (issue 37, item 2).
//! Here the header is read line by line within [`MAX_HEADER`] bytes, a
//! length above the limit (`--max-message-size`, 16 MiB by default) is
//! refused before anything is read, and the body is read into a buffer
//! that grows only as bytes arrive. Any framing error ends the reader; the
//! server then exits with code 2 as for every other framing error.
//! Writing is `lsp-server`'s, as before.

use crate::run::files::size_text;
use crossbeam_channel::{bounded, Sender};
use lsp_server::{Connection, Message};
use std::io::{self, BufRead, Read, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// The most bytes of a message's header (every header line and the blank
/// line after them): editors send one or two short lines.
pub const MAX_HEADER: u64 = 8 * 1024;

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

/// Reads one message of at most `max` bytes of body. `Ok(None)` when the
/// input ends between messages.
pub fn read_message(r: &mut impl BufRead, max: u64) -> io::Result<Option<Message>> {
    let mut length: Option<u64> = None;
    let mut header_bytes = 0u64;
    let mut line = Vec::new();
    loop {
        line.clear();
        let room = MAX_HEADER - header_bytes;
        if room == 0 {
            return Err(invalid(format!(
                "a message header longer than {MAX_HEADER} bytes"
            )));
        }
        let n = r.by_ref().take(room).read_until(b'\n', &mut line)? as u64;
        if n == 0 {
            if header_bytes == 0 {
                return Ok(None);
            }
            return Err(invalid("the input ended inside a message header".into()));
        }
        header_bytes += n;
        if !line.ends_with(b"\n") {
            return Err(invalid(if n == room {
                format!("a message header longer than {MAX_HEADER} bytes")
            } else {
                "the input ended inside a message header".into()
            }));
        }
        let Some(text) = line.strip_suffix(b"\r\n") else {
            return Err(invalid(format!(
                "malformed message header {:?}: a header line ends with CR LF",
                String::from_utf8_lossy(&line)
            )));
        };
        if text.is_empty() {
            break;
        }
        let text = std::str::from_utf8(text)
            .map_err(|_| invalid("a message header that is not UTF-8".into()))?;
        let Some((name, value)) = text.split_once(':') else {
            return Err(invalid(format!("malformed message header {text:?}")));
        };
        if name.trim().eq_ignore_ascii_case("Content-Length") {
            let value = value.trim();
            let n = value
                .parse::<u64>()
                .map_err(|_| invalid(format!("Content-Length {value:?} is not a length")))?;
            length = Some(n);
        }
    }
    let length = length.ok_or_else(|| invalid("a message without Content-Length".into()))?;
    if length > max {
        return Err(invalid(format!(
            "a message of {length} bytes (Content-Length) is larger than {}, \
             the most the server reads (raise it with --max-message-size)",
            size_text(max)
        )));
    }
    // Grows as the bytes come: a length that lies costs what was sent.
    let mut body = Vec::new();
    r.by_ref().take(length).read_to_end(&mut body)?;
    if (body.len() as u64) < length {
        return Err(invalid(format!(
            "the input ended inside a message: {} of its {length} bytes came",
            body.len()
        )));
    }
    let msg = serde_json::from_slice::<Message>(&body)
        .map_err(|e| invalid(format!("malformed message: {e}")))?;
    Ok(Some(msg))
}

/// The threads behind a [`stdio`] connection.
pub struct IoThreads {
    reader: JoinHandle<()>,
    writer: JoinHandle<io::Result<()>>,
    /// The framing error that ended the reader, if one did.
    error: Arc<Mutex<Option<String>>>,
}

impl IoThreads {
    /// The framing error that ended the reader, if one did. Set before the
    /// reader closes its channel, so a server that saw the channel close
    /// finds it here.
    pub fn framing_error(&self) -> Option<String> {
        self.error.lock().ok()?.clone()
    }

    /// Waits for the reader (once the server has read `exit` or the input
    /// ended) and for the writer to send what is queued; the framing
    /// error, if there was one.
    pub fn join(self) -> Result<(), String> {
        let IoThreads {
            reader,
            writer,
            error,
        } = self;
        let _ = reader.join();
        if let Some(e) = error.lock().ok().and_then(|e| e.clone()) {
            return Err(e);
        }
        match writer.join() {
            Ok(r) => r.map_err(|e| e.to_string()),
            Err(_) => Err("the writer thread panicked".into()),
        }
    }
}

/// A connection over standard input and output, as
/// `lsp_server::Connection::stdio` makes one, but read with [`read_message`]
/// and at most `max_message` bytes per message.
pub fn stdio(max_message: u64) -> io::Result<(Connection, IoThreads)> {
    let (writer_tx, writer_rx) = bounded::<Message>(0);
    let writer = std::thread::Builder::new()
        .name("netlint-lsp-writer".into())
        .spawn(move || {
            let stdout = io::stdout();
            for msg in writer_rx {
                let mut out = stdout.lock();
                msg.write(&mut out)?;
                out.flush()?;
            }
            Ok(())
        })?;
    let (reader_tx, reader_rx) = bounded::<Message>(0);
    let error = Arc::new(Mutex::new(None));
    let reader = {
        let error = error.clone();
        std::thread::Builder::new()
            .name("netlint-lsp-reader".into())
            .spawn(move || {
                let stdin = io::stdin();
                let mut input = stdin.lock();
                read_loop(&mut input, max_message, &reader_tx, &error);
            })?
    };
    let connection = Connection {
        sender: writer_tx,
        receiver: reader_rx,
    };
    Ok((
        connection,
        IoThreads {
            reader,
            writer,
            error,
        },
    ))
}

/// Passes messages on until `exit`, the end of the input or a framing
/// error (kept in `error` before `to` is dropped).
fn read_loop(
    input: &mut impl BufRead,
    max: u64,
    to: &Sender<Message>,
    error: &Mutex<Option<String>>,
) {
    loop {
        match read_message(input, max) {
            Ok(Some(msg)) => {
                let exit = matches!(&msg, Message::Notification(n) if n.method == "exit");
                if to.send(msg).is_err() || exit {
                    return;
                }
            }
            Ok(None) => return,
            Err(e) => {
                if let Ok(mut slot) = error.lock() {
                    *slot = Some(format!("server input: {e}"));
                }
                return;
            }
        }
    }
}

/// The messages of `input` as the server would get them, and the framing
/// error that ended them (for tests).
#[cfg(test)]
pub fn read_all(input: &[u8], max: u64) -> (Vec<Message>, Option<String>) {
    let (tx, rx) = crossbeam_channel::unbounded();
    let error = Mutex::new(None);
    read_loop(&mut io::BufReader::new(input), max, &tx, &error);
    drop(tx);
    let got: Vec<Message> = rx.try_iter().collect();
    (got, error.into_inner().ok().flatten())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAX: u64 = 16 * 1024 * 1024;

    fn framed(body: &str) -> Vec<u8> {
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }

    const EXIT: &str = r#"{"jsonrpc":"2.0","method":"exit"}"#;

    #[test]
    fn messages_are_read_until_exit() {
        let mut input = framed(r#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#);
        // Another header besides the length, in another case.
        input.extend_from_slice(b"content-type: application/vscode-jsonrpc; charset=utf-8\r\n");
        input.extend(framed(EXIT));
        input.extend(framed(r#"{"jsonrpc":"2.0","method":"never-read"}"#));
        let (got, error) = read_all(&input, MAX);
        assert_eq!(error, None);
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(matches!(&got[1], Message::Notification(n) if n.method == "exit"));
    }

    /// Issue 37 item 2: these lengths panicked the reader, aborted on
    /// allocation, or held 1.9 GB for a 2-byte body. Each is refused from
    /// the header alone, whatever follows it.
    #[test]
    fn a_length_above_the_limit_is_refused_before_the_body_is_read() {
        for length in [
            "18446744073709551615",
            "1000000000000",
            "2000000000",
            "16777217",
        ] {
            let input = format!("Content-Length: {length}\r\n\r\n{{}}");
            let (got, error) = read_all(input.as_bytes(), MAX);
            assert!(got.is_empty());
            let error = error.expect("a framing error");
            assert!(
                error.contains(&format!("a message of {length} bytes"))
                    && error.contains("larger than 16 MiB")
                    && error.contains("--max-message-size"),
                "{error}"
            );
        }
        // At the limit it is read (and here the input ends inside it).
        let (_, error) = read_all(b"Content-Length: 16777216\r\n\r\n{}", MAX);
        assert!(error.unwrap().contains("2 of its 16777216 bytes came"));
        // The limit is the caller's.
        let (_, error) = read_all(&framed(EXIT), 10);
        assert!(error.unwrap().contains("larger than 10 bytes"));
    }

    #[test]
    fn malformed_framing_is_an_error_not_a_wait_or_a_panic() {
        let long = format!("X-Pad: {}\r\n\r\n", "a".repeat(MAX_HEADER as usize));
        let many = "X: y\r\n".repeat(2000) + "\r\n";
        let cases: [(&[u8], &str); 9] = [
            (b"Content-Length: 2\n\n{}", "ends with CR LF"),
            (b"Content-Length: -1\r\n\r\n", "is not a length"),
            (b"Content-Length: 1e3\r\n\r\n", "is not a length"),
            (b"Content-Type: x\r\n\r\n{}", "without Content-Length"),
            (b"Content-Length 2\r\n\r\n{}", "malformed message header"),
            (b"Content-Length: 2\r\n", "ended inside a message header"),
            (b"Content-Length: 4\r\n\r\n{\"a\"", "malformed message"),
            (long.as_bytes(), "longer than 8192 bytes"),
            (many.as_bytes(), "longer than 8192 bytes"),
        ];
        for (input, expected) in cases {
            let (got, error) = read_all(input, MAX);
            assert!(got.is_empty());
            let error = error.unwrap_or_default();
            assert!(error.contains(expected), "{expected:?}: {error}");
        }
        // Nothing at all is the end of the input, not an error.
        assert_eq!(read_all(b"", MAX).1, None);
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        /// Whatever arrives, the reader ends (a message, the end, or an
        /// error) without a panic and without taking more than the input.
        #[test]
        fn any_framing_reads_or_fails_without_panic(
            length in prop_oneof![any::<u64>().prop_map(|n| n.to_string()), "[0-9 +-]{0,24}", Just("18446744073709551616".to_string())],
            name in prop_oneof![Just("Content-Length".to_string()), "[A-Za-z-]{0,20}"],
            separator in prop_oneof![Just("\r\n".to_string()), Just("\n".to_string()), "[\r\n:]{0,3}"],
            body in proptest::collection::vec(any::<u8>(), 0..64),
            bytes in proptest::collection::vec(any::<u8>(), 0..256),
        ) {
            let mut input = format!("{name}: {length}{separator}\r\n").into_bytes();
            input.extend_from_slice(&body);
            let (got, error) = read_all(&input, MAX);
            prop_assert!(got.len() <= 1);
            prop_assert!(error.is_none_or(|e| !e.is_empty()));
            let (got, _) = read_all(&bytes, MAX);
            prop_assert!(got.len() <= 1 + bytes.len() / 20);
        }
    }
}
