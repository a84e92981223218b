//! `netlint server`: a language server over standard input and output.
//!
//! Built on `lsp-server` and `lsp-types`, as rust-analyzer is: a
//! synchronous loop over channels, no async runtime. The main thread reads
//! the editor's messages and never checks a design itself: each open or
//! change records the text and hands a job to the check worker, so an edit
//! never waits for a check. The worker waits until edits stop for
//! [`Options::debounce`], checks the newest text of each document, and
//! drops a result that a newer edit has made stale (a check already running
//! is not interrupted; its result is thrown away and the newer text is
//! checked next). Requests that need the design (hover, definition,
//! references, code actions) wait for the check of the text they were
//! asked about; completion answers at once from the last design that
//! loaded.

mod actions;
mod analysis;
mod complete;
mod framing;
mod hover;
mod index;
mod protocol;
mod text;

pub use analysis::{doc_kind, Analysis, DocKind};
pub use protocol::path_of_uri;

use crate::run::files::{size_text, DEFAULT_MAX_FILE_SIZE};
use crossbeam_channel::{select, unbounded, Receiver, RecvTimeoutError, Sender};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    Cancel, DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _,
    PublishDiagnostics, ShowMessage,
};
use lsp_types::request::{
    CodeActionRequest, Completion, GotoDefinition, HoverRequest, References, Request as _,
};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CompletionOptions,
    HoverProviderCapability, MessageType, OneOf, PublishDiagnosticsParams, ServerCapabilities,
    ServerInfo, ShowMessageParams, TextDocumentSyncCapability, TextDocumentSyncKind, Uri,
};
use netlint_model::Design;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How the server behaves.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// How long edits must pause before a check starts.
    pub debounce: Duration,
    /// The most bytes of one message (`--max-message-size`): a longer
    /// `Content-Length` is a framing error, and the server exits with 2.
    pub max_message_size: u64,
    /// The most bytes of one document the server checks
    /// (`--max-file-size`): a larger one is not checked and gets one
    /// diagnostic and a message saying so.
    pub max_file_size: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            debounce: Duration::from_millis(DEFAULT_DEBOUNCE_MS),
            max_message_size: DEFAULT_MAX_FILE_SIZE,
            max_file_size: DEFAULT_MAX_FILE_SIZE,
        }
    }
}

/// The default pause before a check (`--debounce`).
pub const DEFAULT_DEBOUNCE_MS: u64 = 40;

/// Runs the server over standard input and output until the editor shuts
/// it down. A framing error (a malformed header, a `Content-Length` above
/// [`Options::max_message_size`], a body that is not a message) ends it
/// with that error.
pub fn run_stdio(options: Options) -> Result<(), String> {
    let (connection, io_threads) =
        framing::stdio(options.max_message_size).map_err(|e| e.to_string())?;
    let served = serve(&connection, options);
    drop(connection);
    // A framing error is why the connection closed: it is what to report.
    if let Some(e) = io_threads.framing_error() {
        return Err(e);
    }
    served?;
    io_threads.join()
}

pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(
            TextDocumentSyncKind::INCREMENTAL,
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["\"".into(), "{".into()]),
            ..CompletionOptions::default()
        }),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
            ..CodeActionOptions::default()
        })),
        ..ServerCapabilities::default()
    }
}

/// Serves one connection: the handshake, then messages until `shutdown`
/// and `exit` (or the connection closes).
pub fn serve(connection: &Connection, options: Options) -> Result<(), String> {
    let caps = serde_json::to_value(capabilities()).map_err(|e| e.to_string())?;
    let init = serde_json::json!({
        "capabilities": caps,
        "serverInfo": ServerInfo { name: "netlint".into(), version: Some(env!("CARGO_PKG_VERSION").into()) },
    });
    let (id, _params) = connection.initialize_start().map_err(|e| e.to_string())?;
    connection
        .sender
        .send(Message::Response(Response::new_ok(id, init)))
        .map_err(|e| e.to_string())?;
    // `initialized` is a notification the loop ignores.
    let shared = Arc::new(Shared::default());
    let (jobs_tx, jobs_rx) = unbounded::<Job>();
    let (done_tx, done_rx) = unbounded::<Done>();
    let worker = {
        let shared = shared.clone();
        std::thread::Builder::new()
            .name("netlint-check".into())
            .spawn(move || worker(jobs_rx, done_tx, shared, options))
            .map_err(|e| e.to_string())?
    };
    let mut server = Server {
        max_file_size: options.max_file_size,
        sender: connection.sender.clone(),
        docs: HashMap::new(),
        jobs: jobs_tx,
        shared,
        pending: Vec::new(),
    };
    let result = server.main_loop(connection, &done_rx);
    // The worker is not waited for: a check still running would hold up
    // `exit` for as long as it takes (a large design, seconds to minutes).
    // Dropping the jobs channel ends it after that check, or the process
    // ends first.
    drop(server);
    drop(worker);
    result
}

/// The text of a document as the editor has it, and what we know of it.
struct Doc {
    uri: Uri,
    version: i32,
    text: String,
    path: Option<PathBuf>,
    /// The check of the newest version that finished.
    analysis: Option<Arc<Analysis>>,
    /// The last design that loaded (for completion while the text does not).
    last_design: Option<Arc<Design>>,
    /// The size of the text when it was over [`Options::max_file_size`]:
    /// then the text is not kept (`text` is empty) nor checked, and only a
    /// change of the whole text brings it back.
    too_large: Option<usize>,
}

/// What the main thread and the worker share.
#[derive(Default)]
struct Shared {
    /// The newest version of each open document: a check of an older one
    /// is stale.
    latest: Mutex<HashMap<String, i32>>,
    /// The editor's text of each open `netlint.toml` (unsaved edits count).
    configs: Mutex<HashMap<PathBuf, String>>,
}

impl Shared {
    fn is_latest(&self, uri: &Uri, version: i32) -> bool {
        self.latest
            .lock()
            .map(|l| l.get(uri.as_str()) == Some(&version))
            .unwrap_or(false)
    }
}

struct Job {
    uri: Uri,
    path: Option<PathBuf>,
    text: String,
    version: i32,
}

struct Done {
    uri: Uri,
    analysis: Arc<Analysis>,
}

/// Debounces and runs checks, newest text first-come per document.
fn worker(jobs: Receiver<Job>, done: Sender<Done>, shared: Arc<Shared>, options: Options) {
    while let Ok(first) = jobs.recv() {
        let mut batch: BTreeMap<String, Job> = BTreeMap::new();
        batch.insert(first.uri.to_string(), first);
        // Wait for a pause in the edits, but not forever while typing goes on.
        let started = Instant::now();
        loop {
            match jobs.recv_timeout(options.debounce) {
                Ok(j) => {
                    batch.insert(j.uri.to_string(), j);
                    if started.elapsed() > options.debounce * 8 {
                        break;
                    }
                }
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
        for (_, job) in batch {
            if !shared.is_latest(&job.uri, job.version) {
                continue;
            }
            let open = |p: &std::path::Path| -> Option<String> {
                shared.configs.lock().ok()?.get(p).cloned()
            };
            // A bug in a rule must not end the server: that text gets no
            // diagnostics, the next edit is checked again.
            let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                Analysis::new(job.path.as_deref(), job.text, job.version, &open)
            }));
            let Ok(analysis) = checked else {
                eprintln!("netlint server: the check of {} panicked", job.uri.as_str());
                continue;
            };
            // A newer edit arrived while this ran: its own check follows.
            if !shared.is_latest(&job.uri, job.version) {
                continue;
            }
            let sent = done.send(Done {
                uri: job.uri,
                analysis: Arc::new(analysis),
            });
            if sent.is_err() {
                return;
            }
        }
    }
}

struct Server {
    max_file_size: u64,
    sender: Sender<Message>,
    docs: HashMap<String, Doc>,
    jobs: Sender<Job>,
    shared: Arc<Shared>,
    /// Requests waiting for the check of their document's newest text.
    pending: Vec<(String, Request)>,
}

impl Server {
    fn main_loop(&mut self, connection: &Connection, done: &Receiver<Done>) -> Result<(), String> {
        loop {
            select! {
                recv(connection.receiver) -> msg => {
                    let Ok(msg) = msg else { return Ok(()) };
                    match msg {
                        Message::Request(req) => {
                            if connection.handle_shutdown(&req).map_err(|e| e.to_string())? {
                                return Ok(());
                            }
                            self.request(req);
                        }
                        Message::Notification(n) => self.notification(n),
                        Message::Response(_) => {}
                    }
                }
                recv(done) -> d => {
                    if let Ok(d) = d {
                        self.checked(d);
                    }
                }
            }
        }
    }

    fn send(&self, msg: Message) {
        let _ = self.sender.send(msg);
    }

    fn respond<R: serde::Serialize>(&self, id: RequestId, result: R) {
        self.send(Message::Response(Response::new_ok(id, result)));
    }

    fn notification(&mut self, n: Notification) {
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(p) =
                    serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(n.params)
                else {
                    return;
                };
                let d = p.text_document;
                let path = path_of_uri(&d.uri);
                self.docs.insert(
                    d.uri.to_string(),
                    Doc {
                        uri: d.uri.clone(),
                        version: d.version,
                        text: d.text,
                        path,
                        analysis: None,
                        last_design: None,
                        too_large: None,
                    },
                );
                self.changed(d.uri.as_str());
            }
            DidChangeTextDocument::METHOD => {
                let Ok(p) =
                    serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(n.params)
                else {
                    return;
                };
                let uri = p.text_document.uri;
                let Some(doc) = self.docs.get_mut(uri.as_str()) else {
                    return;
                };
                let mut changes = p.content_changes;
                if doc.too_large.is_some() {
                    // Its text was not kept: only from a change of the
                    // whole text on can the changes be made.
                    match changes.iter().rposition(|c| c.range.is_none()) {
                        Some(i) => {
                            changes.drain(..i);
                            doc.too_large = None;
                        }
                        None => changes.clear(),
                    }
                }
                text::apply_changes(&mut doc.text, changes);
                doc.version = p.text_document.version;
                self.changed(uri.as_str());
            }
            DidCloseTextDocument::METHOD => {
                let Ok(p) =
                    serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(n.params)
                else {
                    return;
                };
                let uri = p.text_document.uri;
                if let Some(doc) = self.docs.remove(uri.as_str()) {
                    if let (Some(path), Ok(mut c)) = (&doc.path, self.shared.configs.lock()) {
                        c.remove(path);
                    }
                }
                if let Ok(mut l) = self.shared.latest.lock() {
                    l.remove(uri.as_str());
                }
                // Requests that waited for a check of it get no answer but this.
                let (closed, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut self.pending)
                    .into_iter()
                    .partition(|(u, _)| u == uri.as_str());
                self.pending = waiting;
                for (_, r) in closed {
                    self.respond(r.id, serde_json::Value::Null);
                }
                self.publish(uri, Vec::new(), None);
            }
            Cancel::METHOD => {
                let Ok(p) = serde_json::from_value::<lsp_types::CancelParams>(n.params) else {
                    return;
                };
                let id: RequestId = match p.id {
                    lsp_types::NumberOrString::Number(n) => n.into(),
                    lsp_types::NumberOrString::String(s) => s.into(),
                };
                if let Some(i) = self.pending.iter().position(|(_, r)| r.id == id) {
                    let (_, r) = self.pending.remove(i);
                    self.send(Message::Response(Response::new_err(
                        r.id,
                        ErrorCode::RequestCanceled as i32,
                        "canceled".into(),
                    )));
                }
            }
            _ => {}
        }
    }

    /// A document's text changed: mark older checks stale and queue one
    /// (or refuse a text over the size limit).
    fn changed(&mut self, uri: &str) {
        let Some(doc) = self.docs.get(uri) else {
            return;
        };
        if let Ok(mut l) = self.shared.latest.lock() {
            l.insert(uri.to_string(), doc.version);
        }
        if doc.too_large.is_some() || doc.text.len() as u64 > self.max_file_size {
            return self.too_large(uri);
        }
        let is_config = doc_kind(doc.path.as_deref(), "") == DocKind::Config;
        if is_config {
            if let (Some(p), Ok(mut c)) = (&doc.path, self.shared.configs.lock()) {
                c.insert(p.clone(), doc.text.clone());
            }
        }
        self.queue(uri);
        if is_config {
            // Every open design may use it.
            let others: Vec<String> = self.docs.keys().filter(|u| *u != uri).cloned().collect();
            for u in others {
                self.queue(&u);
            }
        }
    }

    /// A document over [`Options::max_file_size`]: its text is dropped
    /// and not checked, requests about it get no answer but `null`, and
    /// the editor is told why, as a diagnostic at its start and a message.
    fn too_large(&mut self, uri: &str) {
        let max = self.max_file_size;
        let Some(doc) = self.docs.get_mut(uri) else {
            return;
        };
        let newly = doc.too_large.is_none();
        let size = doc.too_large.unwrap_or(doc.text.len());
        doc.too_large = Some(size);
        doc.text = String::new();
        doc.analysis = None;
        let (doc_uri, version) = (doc.uri.clone(), doc.version);
        if let (Some(path), Ok(mut c)) = (&doc.path, self.shared.configs.lock()) {
            c.remove(path);
        }
        let (mine, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut self.pending)
            .into_iter()
            .partition(|(u, _)| u == uri);
        self.pending = waiting;
        for (_, r) in mine {
            self.respond(r.id, serde_json::Value::Null);
        }
        let message = format!(
            "this document is {}, larger than {}, the most `netlint server` checks \
             (raise it with `netlint server --max-file-size`): it is not checked",
            size_text(size as u64),
            size_text(max)
        );
        if newly {
            self.send(Message::Notification(Notification::new(
                ShowMessage::METHOD.into(),
                ShowMessageParams {
                    typ: MessageType::WARNING,
                    message: format!("netlint: {}: {message}", doc_uri.as_str()),
                },
            )));
        }
        let diagnostic = lsp_types::Diagnostic {
            range: lsp_types::Range::default(),
            severity: Some(lsp_types::DiagnosticSeverity::ERROR),
            code: Some(lsp_types::NumberOrString::String("unreadable".into())),
            source: Some("netlint".into()),
            message,
            ..lsp_types::Diagnostic::default()
        };
        self.publish(doc_uri, vec![diagnostic], Some(version));
    }

    fn queue(&self, uri: &str) {
        let Some(doc) = self.docs.get(uri) else {
            return;
        };
        if doc.too_large.is_some() {
            return;
        }
        let _ = self.jobs.send(Job {
            uri: doc.uri.clone(),
            path: doc.path.clone(),
            text: doc.text.clone(),
            version: doc.version,
        });
    }

    fn checked(&mut self, d: Done) {
        let Some(doc) = self.docs.get_mut(d.uri.as_str()) else {
            return;
        };
        if doc.version != d.analysis.version {
            return;
        }
        if let Some(design) = &d.analysis.design {
            doc.last_design = Some(design.clone());
        }
        doc.analysis = Some(d.analysis.clone());
        let diags = protocol::diagnostics(&d.uri, &d.analysis);
        self.publish(d.uri.clone(), diags, Some(d.analysis.version));
        // Requests that waited for this text.
        let (ready, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut self.pending)
            .into_iter()
            .partition(|(u, _)| u == d.uri.as_str());
        self.pending = waiting;
        for (_, req) in ready {
            self.request(req);
        }
    }

    fn publish(&self, uri: Uri, diagnostics: Vec<lsp_types::Diagnostic>, version: Option<i32>) {
        let params = PublishDiagnosticsParams {
            uri,
            diagnostics,
            version,
        };
        self.send(Message::Notification(Notification::new(
            PublishDiagnostics::METHOD.into(),
            params,
        )));
    }

    fn request(&mut self, req: Request) {
        let uri = req
            .params
            .get("textDocument")
            .and_then(|t| t.get("uri"))
            .and_then(|u| serde_json::from_value::<Uri>(u.clone()).ok());
        let Some(uri) = uri else {
            return self.send(Message::Response(Response::new_err(
                req.id,
                ErrorCode::MethodNotFound as i32,
                format!("unhandled request {}", req.method),
            )));
        };
        let Some(doc) = self.docs.get(uri.as_str()) else {
            return self.respond(req.id, serde_json::Value::Null);
        };
        if doc.too_large.is_some() {
            return self.respond(req.id, serde_json::Value::Null);
        }
        if req.method == Completion::METHOD {
            let result = serde_json::from_value::<lsp_types::CompletionParams>(req.params)
                .ok()
                .map(|p| {
                    protocol::completion(
                        &doc.text,
                        p.text_document_position.position,
                        doc.last_design.as_deref(),
                    )
                });
            return self.respond(req.id, result);
        }
        let fresh = doc
            .analysis
            .as_ref()
            .filter(|a| a.version == doc.version)
            .cloned();
        let Some(a) = fresh else {
            self.pending.push((uri.to_string(), req));
            return;
        };
        let id = req.id.clone();
        let result = match req.method.as_str() {
            HoverRequest::METHOD => serde_json::from_value(req.params)
                .ok()
                .map(|p: lsp_types::HoverParams| {
                    protocol::hover(&a, p.text_document_position_params.position)
                })
                .map(|r| serde_json::to_value(r).unwrap_or_default()),
            GotoDefinition::METHOD => serde_json::from_value(req.params)
                .ok()
                .map(|p: lsp_types::GotoDefinitionParams| {
                    protocol::definition(&uri, &a, p.text_document_position_params.position)
                })
                .map(|r| serde_json::to_value(r).unwrap_or_default()),
            References::METHOD => serde_json::from_value(req.params)
                .ok()
                .map(|p: lsp_types::ReferenceParams| {
                    protocol::references(
                        &uri,
                        &a,
                        p.text_document_position.position,
                        p.context.include_declaration,
                    )
                })
                .map(|r| serde_json::to_value(r).unwrap_or_default()),
            CodeActionRequest::METHOD => serde_json::from_value(req.params)
                .ok()
                .map(|p: lsp_types::CodeActionParams| protocol::code_actions(&uri, &a, p.range))
                .map(|r| serde_json::to_value(r).unwrap_or_default()),
            _ => {
                return self.send(Message::Response(Response::new_err(
                    id,
                    ErrorCode::MethodNotFound as i32,
                    format!("unhandled request {}", req.method),
                )))
            }
        };
        match result {
            Some(v) => self.respond(id, v),
            None => self.send(Message::Response(Response::new_err(
                id,
                ErrorCode::InvalidParams as i32,
                "invalid parameters".into(),
            ))),
        }
    }
}

#[cfg(test)]
mod tests;
