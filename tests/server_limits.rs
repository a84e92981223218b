//! `netlint server` as an editor runs it (this build's binary over
//! standard input and output) against what issue 37 item 2 found: a
//! `Content-Length` that panicked the reader, aborted on allocation or held
//! 1.9 GB, and an `exit` that waited for a running check. Every run has a
//! deadline: a server that hangs is killed and the test fails.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A running server, killed when the test ends (a failed test included).
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl std::ops::Deref for Server {
    type Target = Child;
    fn deref(&self) -> &Child {
        &self.0
    }
}

impl std::ops::DerefMut for Server {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}

fn server(args: &[&str]) -> Server {
    Server(
        Command::new(env!("CARGO_BIN_EXE_netlint"))
            .arg("server")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("netlint server starts"),
    )
}

/// The resident memory of a running process, in KiB (0 once it is gone).
fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Waits for the child until `deadline` (killing it then and failing),
/// the largest resident memory seen meanwhile, in KiB.
fn wait_within(child: &mut Child, deadline: Duration) -> (i32, u64) {
    let start = Instant::now();
    let mut peak = 0;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            // Killed by a signal (an abort on allocation): no code.
            return (status.code().unwrap_or(-1), peak);
        }
        peak = peak.max(rss_kib(child.id()));
        if start.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the server still ran after {deadline:?} (peak RSS {peak} KiB)");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn stderr_of(child: &mut Child) -> String {
    let mut s = String::new();
    let _ = child.stderr.take().unwrap().read_to_string(&mut s);
    s
}

/// A length refused from the header: exit 2 at once, a message naming the
/// limit, no panic, memory as at start. Standard input stays open (a
/// reader that waits for the body would wait for ever); the body is the 2
/// bytes `{}`.
fn refused_at_once(length: &str) {
    let mut child = server(&[]);
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(format!("Content-Length: {length}\r\n\r\n{{}}").as_bytes());
    let _ = stdin.flush();
    let (code, peak) = wait_within(&mut child, Duration::from_secs(10));
    drop(stdin);
    let err = stderr_of(&mut child);
    assert_eq!(code, 2, "Content-Length {length}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        err.contains(&format!("a message of {length} bytes")) && err.contains("larger than 16 MiB"),
        "{err}"
    );
    assert!(peak < 200 * 1024, "Content-Length {length}: {peak} KiB");
}

/// It panicked the reader thread ("capacity overflow").
#[test]
fn a_content_length_of_u64_max_is_refused() {
    refused_at_once("18446744073709551615");
}

/// It aborted the process on allocation.
#[test]
fn a_content_length_of_a_terabyte_is_refused() {
    refused_at_once("1000000000000");
}

/// With a 2-byte body it held 1.9 GB and waited for the rest.
#[test]
fn a_content_length_of_two_gigabytes_is_refused() {
    refused_at_once("2000000000");
}

/// `--max-message-size` moves the limit.
#[test]
fn the_message_limit_is_an_option() {
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#;
    let mut child = server(&["--max-message-size", "64"]);
    let mut stdin = child.stdin.take().unwrap();
    let _ = write!(stdin, "Content-Length: {}\r\n\r\n{init}", init.len());
    let (code, _) = wait_within(&mut child, Duration::from_secs(10));
    drop(stdin);
    let err = stderr_of(&mut child);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("larger than 64 bytes"), "{err}");
}

/// An LSP client over the child's pipes.
struct Client {
    stdin: ChildStdin,
    messages: mpsc::Receiver<serde_json::Value>,
}

impl Client {
    fn new(child: &mut Child) -> Client {
        let stdout = child.stdout.take().unwrap();
        let (tx, messages) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(v) = line.strip_prefix("Content-Length: ") {
                        length = v.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; length.expect("a length")];
                if r.read_exact(&mut body).is_err() {
                    return;
                }
                if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                    return;
                }
            }
        });
        Client {
            stdin: child.stdin.take().unwrap(),
            messages,
        }
    }

    fn send(&mut self, msg: serde_json::Value) {
        let text = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{text}", text.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next message the server sends with `key` equal to `value`, and
    /// whether a `publishDiagnostics` came before it.
    fn until(&self, key: &str, value: serde_json::Value) -> (serde_json::Value, bool) {
        let mut diagnostics = false;
        loop {
            let m = self
                .messages
                .recv_timeout(Duration::from_secs(60))
                .expect("an answer from the server");
            if m[key] == value {
                return (m, diagnostics);
            }
            diagnostics |= m["method"] == "textDocument/publishDiagnostics";
        }
    }
}

/// The server did not exit within 10 s of `shutdown` and `exit` while it
/// checked a large design: it waited for the check. Now it exits at once;
/// the check is not waited for. The design (10,000 hosts full of mistakes,
/// about 4 MB) takes seconds to check even in a release build: the test
/// asserts that its check had not finished when `exit` was sent, so it
/// tests what it says.
#[test]
fn exit_after_shutdown_is_prompt_while_a_check_runs() {
    let mut params = netlint_synth::Params::hosts(10_000);
    params.flawed = true;
    let design = netlint_synth::generate(&params);
    let dir = std::env::temp_dir().join(format!("netlint-server-exit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let uri = format!("file://{}/big.toml", dir.display());
    let mut child = server(&[]);
    let mut client = Client::new(&mut child);
    client.send(serde_json::json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "capabilities": {} } }));
    client.until("id", 1.into());
    client.send(serde_json::json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }));
    client.send(
        serde_json::json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": { "uri": uri, "languageId": "toml", "version": 1, "text": design } } }),
    );
    // Past the 40 ms pause: the check runs.
    std::thread::sleep(Duration::from_millis(300));
    client.send(serde_json::json!({ "jsonrpc": "2.0", "id": 2, "method": "shutdown" }));
    let (_, checked) = client.until("id", 2.into());
    client.send(serde_json::json!({ "jsonrpc": "2.0", "method": "exit" }));
    let sent = Instant::now();
    let (code, _) = wait_within(&mut child, Duration::from_secs(120));
    let took = sent.elapsed();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        !checked,
        "the check finished before `exit`: the test needs a larger design"
    );
    assert_eq!(code, 0, "{}", stderr_of(&mut child));
    assert!(took < Duration::from_secs(2), "exit took {took:?}");
}

/// A document may grow past the limit by edits that each fit in a message:
/// at 16 MiB by default it is refused with a message and one diagnostic
/// instead of being checked (a 50 MB document took 813 MB and gave no
/// answer in 120 s).
#[test]
fn a_document_grown_past_16_mib_is_refused_with_a_message() {
    let design = include_str!("../fixtures/stp-vlan-partition.toml");
    // 9 MB of comment lines, inserted at the top twice.
    let pad = format!("# {}\n", "x".repeat(97)).repeat(90_000);
    let mut child = server(&[]);
    let mut client = Client::new(&mut child);
    client.send(serde_json::json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "capabilities": {} } }));
    client.until("id", 1.into());
    let uri = "file:///nowhere/netlint-server-limits/grown.toml";
    client.send(
        serde_json::json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": { "uri": uri, "languageId": "toml", "version": 1, "text": design } } }),
    );
    for version in [2, 3] {
        client.send(serde_json::json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": { "uri": uri, "version": version },
            "contentChanges": [{ "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 0 } }, "text": pad }] } }));
    }
    let (shown, _) = client.until("method", "window/showMessage".into());
    let message = shown["params"]["message"].as_str().unwrap().to_string();
    assert!(
        message.contains(uri)
            && message.contains("this document is 18001922 bytes, larger than 16 MiB")
            && message.contains("it is not checked"),
        "{message}"
    );
    let (refused, _) = client.until("method", "textDocument/publishDiagnostics".into());
    assert_eq!(refused["params"]["version"], 3, "{refused}");
    let diagnostics = refused["params"]["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 1, "{refused}");
    assert_eq!(diagnostics[0]["code"], "unreadable");
    client.send(serde_json::json!({ "jsonrpc": "2.0", "id": 2, "method": "shutdown" }));
    client.until("id", 2.into());
    client.send(serde_json::json!({ "jsonrpc": "2.0", "method": "exit" }));
    let (code, _) = wait_within(&mut child, Duration::from_secs(10));
    assert_eq!(code, 0, "{}", stderr_of(&mut child));
}
