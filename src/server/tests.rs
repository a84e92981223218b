//! Each request of the server, on real fixtures: diagnostics as `netlint
//! check` gives them, hover, definition, references, completion and the
//! `allow` code action; then the loop itself over an in-memory connection.

use super::analysis::Analysis;
use super::*;
use crate::run::{check_source, CheckSettings};
use lsp_types::{
    CodeActionOrCommand, GotoDefinitionResponse, HoverContents, NumberOrString, Position,
};
use netlint_model::SourceFile;
use std::path::Path;

const PARTITION: &str = include_str!("../../fixtures/stp-vlan-partition.toml");
const EXAMPLE: &str = include_str!("../../fixtures/example.toml");

fn no_open(_: &Path) -> Option<String> {
    None
}

fn analyse(text: &str) -> Analysis {
    Analysis::new(None, text.to_string(), 1, &no_open)
}

fn uri() -> Uri {
    "file:///tmp/design.toml".parse().unwrap()
}

/// The position of the `n`-th occurrence of `needle`, `k` characters in.
fn pos(text: &str, needle: &str, n: usize, k: usize) -> Position {
    let at = text.match_indices(needle).nth(n).expect("needle").0 + k;
    text::LineIndex::new(text).position(text, at)
}

fn hover_text(a: &Analysis, p: Position) -> String {
    match protocol::hover(a, p).expect("a hover").contents {
        HoverContents::Markup(m) => m.value,
        other => panic!("{other:?}"),
    }
}

#[test]
fn diagnostics_are_the_findings_of_netlint_check() {
    let a = analyse(PARTITION);
    let file = SourceFile::new("untitled.toml", PARTITION);
    let (expected, _, _) = check_source(&file, None, &CheckSettings::default());
    let got = protocol::diagnostics(&uri(), &a);
    assert_eq!(got.len(), expected.len());
    for (g, e) in got.iter().zip(&expected) {
        assert_eq!(g.code, Some(NumberOrString::String(e.rule.clone())));
        let span = e.primary.as_ref().unwrap().span;
        let (start, end) = file.range(span);
        assert_eq!(
            g.range.start,
            Position::new(start.line as u32 - 1, start.column as u32 - 1)
        );
        assert_eq!(
            g.range.end,
            Position::new(end.line as u32 - 1, end.column as u32 - 1)
        );
        assert_eq!(
            g.code_description
                .as_ref()
                .map(|c| c.href.as_str().to_string()),
            crate::render::rule_url(&e.rule)
        );
        assert!(g.message.starts_with(&e.message));
    }
    let part = got
        .iter()
        .find(|d| d.code == Some(NumberOrString::String("stp-vlan-partition".into())))
        .expect("the partition");
    assert_eq!(part.severity, Some(lsp_types::DiagnosticSeverity::ERROR));
    // `[[links]]` of tor-isl, line 68.
    assert_eq!(part.range.start, Position::new(67, 0));
    let related = part.related_information.as_ref().unwrap();
    assert!(related
        .iter()
        .any(|r| r.message.contains("`tor-b-up` allows only VLAN 10")
            && r.location.range.start == Position::new(65, 8)));
}

#[test]
fn netlint_toml_and_allow_are_honoured() {
    let dir = std::env::temp_dir().join(format!("netlint-server-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let design = dir.join("d.toml");
    let config = dir.join("netlint.toml");
    std::fs::write(&design, PARTITION).unwrap();
    std::fs::write(
        &config,
        "[netlint]\nrules = { spof-nic-card = \"off\", stp-vlan-partition = \"warning\" }\n",
    )
    .unwrap();
    let a = Analysis::new(Some(&design), PARTITION.to_string(), 1, &no_open);
    let rules: Vec<(&str, netlint_model::Severity)> = a
        .diagnostics
        .iter()
        .map(|d| (d.rule.as_str(), d.severity))
        .collect();
    assert_eq!(
        rules,
        [("stp-vlan-partition", netlint_model::Severity::Warning)]
    );
    // The editor's unsaved netlint.toml wins over the file on disk.
    let unsaved = |p: &Path| {
        (p == config).then(|| "[netlint]\nrules = { stp-vlan-partition = \"off\" }\n".to_string())
    };
    let a = Analysis::new(Some(&design), PARTITION.to_string(), 2, &unsaved);
    let rules: Vec<&str> = a.diagnostics.iter().map(|d| d.rule.as_str()).collect();
    assert_eq!(rules, ["spof-nic-card"]);
    // And netlint.toml is checked as a document of its own.
    let c = Analysis::new(
        Some(&config),
        "[netlint]\nrules = { no-such-rule = \"off\" }\n".into(),
        1,
        &no_open,
    );
    assert_eq!(c.kind, DocKind::Config);
    assert_eq!(c.diagnostics.len(), 1, "{:?}", c.diagnostics);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn hover_on_a_switch_gives_its_role_per_tree_and_root_path_cost() {
    let a = analyse(PARTITION);
    let h = hover_text(&a, pos(PARTITION, "[switches.tor-b]", 0, 3));
    assert!(
        h.contains("root port `tor-b-up`, root path cost 1500"),
        "{h}"
    );
    assert!(
        h.contains("`tor-isl`: alternate, cost 1000, blocking"),
        "{h}"
    );
    let h = hover_text(&a, pos(PARTITION, "[switches.agg-1]", 0, 3));
    assert!(h.contains("**root bridge**, root path cost 0"), "{h}");
}

#[test]
fn hover_on_a_link_gives_each_end_and_what_it_carries() {
    let a = analyse(PARTITION);
    // On a value naming the link's switch: the switch. On the header: the link.
    let h = hover_text(&a, pos(PARTITION, "[[links]]\nname = \"tor-isl\"", 0, 2));
    assert!(
        h.contains("`tor-a` designated (cost 1000, forwarding)"),
        "{h}"
    );
    assert!(h.contains("`tor-b` alternate (cost 1000, blocking)"), "{h}");
    assert!(
        h.contains("Carries: `mgmt` (VLAN 10), `smb1` (VLAN 711), `smb2` (VLAN 712)"),
        "{h}"
    );
    let h = hover_text(&a, pos(PARTITION, "[[links]]\nname = \"tor-a-up\"", 0, 2));
    assert!(h.contains("Carries: `mgmt` (VLAN 10)\n"), "{h}");
}

#[test]
fn hover_on_interfaces_gives_networks_and_bandwidth() {
    let a = analyse(EXAMPLE);
    let h = hover_text(&a, pos(EXAMPLE, "[profiles.node.nics.P2-1]", 0, 3));
    assert!(h.contains("**NIC `P2-1`** of host `hv01`: 10G"), "{h}");
    assert!(h.contains("Carries: `csv`"), "{h}");
    assert!(
        h.contains("shown for the first of the 4 hosts built from it"),
        "{h}"
    );
    assert!(h.contains("Gb/s"), "{h}");
    let h = hover_text(&a, pos(EXAMPLE, "LM = {", 0, 0));
    assert!(
        h.contains("**vNIC `LM`** on `Converged` of host `hv01`: network `lm`"),
        "{h}"
    );
    assert!(
        h.contains("live migration over vNIC `LM` on `Converged`"),
        "{h}"
    );
}

#[test]
fn hover_on_a_host_gives_its_profile_and_overrides() {
    let a = analyse(EXAMPLE);
    let h = hover_text(&a, pos(EXAMPLE, "[hosts.hv04]", 0, 3));
    assert!(h.contains("Profile `node`, overridden here"), "{h}");
    assert!(
        h.contains("`nics.P1-2 = { speed = \"10G\", model = \"Intel X710\" }`"),
        "{h}"
    );
    let h = hover_text(&a, pos(EXAMPLE, "[hosts.hv01]", 0, 3));
    assert!(h.contains("Profile `node`, no overrides."), "{h}");
}

#[test]
fn hover_on_a_rule_id_gives_its_summary_and_fix() {
    let text = format!("{EXAMPLE}allow = {{ \"qos-weight-sum\" = \"accepted\" }}\n");
    let a = analyse(&text);
    let h = hover_text(&a, pos(&text, "qos-weight-sum", 0, 3));
    assert!(h.starts_with("**qos-weight-sum**"), "{h}");
    assert!(h.contains("**How to fix**"), "{h}");
    assert!(h.contains("qos-weight-sum.md"), "{h}");
}

#[test]
fn definition_and_references_of_a_switch() {
    let a = analyse(EXAMPLE);
    let u = uri();
    let Some(GotoDefinitionResponse::Scalar(def)) =
        protocol::definition(&u, &a, pos(EXAMPLE, "switch = \"tor-b\"", 0, 11))
    else {
        panic!("no definition")
    };
    assert_eq!(def.range.start, pos(EXAMPLE, "[switches.tor-b]", 0, 0));
    let refs = protocol::references(&u, &a, pos(EXAMPLE, "[switches.tor-b]", 0, 3), true);
    let starts: Vec<Position> = refs.iter().map(|l| l.range.start).collect();
    assert_eq!(
        starts,
        [
            pos(EXAMPLE, "[switches.tor-b]", 0, 0),
            pos(EXAMPLE, "\"tor-b\"", 0, 0),
            pos(EXAMPLE, "\"tor-b\"", 1, 0),
        ]
    );
}

#[test]
fn completion_offers_switch_names() {
    let a = analyse(EXAMPLE);
    let text = format!("{EXAMPLE}\n[hosts.hv05]\nprofile = \"no");
    let end = text::LineIndex::new(&text).position(&text, text.len());
    let lsp_types::CompletionResponse::Array(items) =
        protocol::completion(&text, end, a.design.as_deref())
    else {
        panic!()
    };
    let labels: Vec<&str> = items.iter().map(|i| i.label.as_str()).collect();
    assert_eq!(labels, ["node"]);
}

#[test]
fn the_allow_action_takes_the_finding_out() {
    let a = analyse(PARTITION);
    let u = uri();
    let at = pos(PARTITION, "[[links]]\nname = \"tor-isl\"", 0, 0);
    let actions = protocol::code_actions(&u, &a, lsp_types::Range::new(at, at));
    // The rule's fix first (stp-vlan-partition carries one), then the allow.
    let action = actions
        .iter()
        .find_map(|x| match x {
            CodeActionOrCommand::CodeAction(c) if c.title.starts_with("Allow") => Some(c),
            _ => None,
        })
        .expect("an allow action");
    assert_eq!(
        action.title,
        "Allow `stp-vlan-partition` on links.tor-isl (with a reason to write)"
    );
    let edits = &action.edit.as_ref().unwrap().changes.as_ref().unwrap()[&u];
    let mut text = PARTITION.to_string();
    let changes = edits
        .iter()
        .map(|e| lsp_types::TextDocumentContentChangeEvent {
            range: Some(e.range),
            range_length: None,
            text: e.new_text.clone(),
        })
        .collect();
    text::apply_changes(&mut text, changes);
    assert!(text.contains(&format!(
        "[[links]]\nallow = {{ \"stp-vlan-partition\" = \"{}\" }}\nname = \"tor-isl\"",
        actions::REASON_PLACEHOLDER
    )));
    let after = analyse(&text);
    let rules: Vec<&str> = after.diagnostics.iter().map(|d| d.rule.as_str()).collect();
    assert_eq!(rules, ["spof-nic-card"]);
    // A host-wide finding on a profile's line: allowed on each host.
    let b = analyse(EXAMPLE);
    let card = b
        .diagnostics
        .iter()
        .find(|d| d.rule == "spof-nic-card")
        .unwrap();
    let titles: Vec<String> = actions::allow_actions(&b, card)
        .into_iter()
        .map(|x| x.title)
        .collect();
    assert_eq!(titles.len(), 4, "{titles:?}");
    assert!(titles[0].contains("on hosts.hv01 "), "{titles:?}");
}

// ------------------------------------------------------------ the loop

use lsp_server::{Connection, Message, Notification, Request};

fn recv_diagnostics(client: &Connection) -> PublishDiagnosticsParams {
    loop {
        let msg = client
            .receiver
            .recv_timeout(Duration::from_secs(60))
            .expect("a message from the server");
        if let Message::Notification(n) = msg {
            if n.method == PublishDiagnostics::METHOD {
                return serde_json::from_value(n.params).unwrap();
            }
        }
    }
}

#[test]
fn the_loop_publishes_the_newest_text_and_answers_after_its_check() {
    let (server, client) = Connection::memory();
    let thread = std::thread::spawn(move || {
        serve(
            &server,
            Options {
                debounce: Duration::from_millis(200),
                ..Options::default()
            },
        )
    });
    let send_req = |id: i32, method: &str, params: serde_json::Value| {
        client
            .sender
            .send(Message::Request(Request::new(
                id.into(),
                method.into(),
                params,
            )))
            .unwrap()
    };
    let notify = |method: &str, params: serde_json::Value| {
        client
            .sender
            .send(Message::Notification(Notification::new(
                method.into(),
                params,
            )))
            .unwrap()
    };
    send_req(1, "initialize", serde_json::json!({ "capabilities": {} }));
    let Message::Response(init) = client.receiver.recv().unwrap() else {
        panic!()
    };
    assert!(init.response_result.unwrap()["capabilities"]["hoverProvider"] == true);
    notify("initialized", serde_json::json!({}));
    let u = "file:///nowhere/netlint-server-test/d.toml";
    notify(
        "textDocument/didOpen",
        serde_json::json!({ "textDocument": { "uri": u, "languageId": "toml", "version": 1, "text": PARTITION } }),
    );
    // Two edits within the pause: only the second is checked. The first
    // fixes the trunks, the second breaks tor-b's again.
    let line = pos(PARTITION, "vlans = [10]", 1, 0).line;
    let change = |version: i32, end: u32, text: &str| {
        serde_json::json!({
            "textDocument": { "uri": u, "version": version },
            "contentChanges": [{ "range": { "start": { "line": line, "character": 0 }, "end": { "line": line, "character": end } }, "text": text }]
        })
    };
    notify(
        "textDocument/didChange",
        change(2, 12, "vlans = [10, 711, 712]"),
    );
    notify("textDocument/didChange", change(3, 22, "vlans = [10]"));
    // A hover asked before the check: answered once the newest text is checked.
    send_req(
        2,
        "textDocument/hover",
        serde_json::json!({ "textDocument": { "uri": u }, "position": pos(PARTITION, "[switches.agg-1]", 0, 3) }),
    );
    let first = recv_diagnostics(&client);
    assert_eq!(first.version, Some(3), "a stale version was published");
    assert!(first
        .diagnostics
        .iter()
        .any(|d| d.code == Some(NumberOrString::String("stp-vlan-partition".into()))));
    let hover = loop {
        match client
            .receiver
            .recv_timeout(Duration::from_secs(60))
            .unwrap()
        {
            Message::Response(r) => break r,
            _ => continue,
        }
    };
    assert!(hover.response_result.unwrap()["contents"]["value"]
        .as_str()
        .unwrap()
        .contains("root bridge"));
    send_req(3, "shutdown", serde_json::Value::Null);
    notify("exit", serde_json::Value::Null);
    drop(client);
    thread.join().unwrap().unwrap();
}

/// Issue 37 item 2: a 50 MB `didChange` was checked (813 MB, no answer in
/// 120 s). A document over `max_file_size` is not checked: it gets one
/// diagnostic and one message saying why, requests about it get `null`,
/// and a change of the whole text that fits brings the checks back.
#[test]
fn a_document_over_the_size_limit_is_refused_with_a_message() {
    let (server, client) = Connection::memory();
    let thread = std::thread::spawn(move || {
        serve(
            &server,
            Options {
                debounce: Duration::from_millis(10),
                max_file_size: 3000,
                ..Options::default()
            },
        )
    });
    let send = |msg: Message| client.sender.send(msg).unwrap();
    let notify = |method: &str, params: serde_json::Value| {
        send(Message::Notification(Notification::new(
            method.into(),
            params,
        )))
    };
    let next = || {
        client
            .receiver
            .recv_timeout(Duration::from_secs(60))
            .expect("a message from the server")
    };
    send(Message::Request(Request::new(
        1.into(),
        "initialize".into(),
        serde_json::json!({ "capabilities": {} }),
    )));
    assert!(matches!(next(), Message::Response(_)));
    let u = "file:///nowhere/netlint-server-test/big.toml";
    notify(
        "textDocument/didOpen",
        serde_json::json!({ "textDocument": { "uri": u, "languageId": "toml", "version": 1, "text": PARTITION } }),
    );
    let checked = |d: &PublishDiagnosticsParams| {
        d.diagnostics
            .iter()
            .any(|d| d.code == Some(NumberOrString::String("stp-vlan-partition".into())))
    };
    let first = recv_diagnostics(&client);
    assert_eq!(first.version, Some(1));
    assert!(checked(&first));
    // 2,000 bytes of comment at the top: 3,922 bytes in all.
    let pad = format!("# {}\n", "x".repeat(1997));
    let insert = |version: i32| {
        serde_json::json!({
            "textDocument": { "uri": u, "version": version },
            "contentChanges": [{ "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 0 } }, "text": pad }]
        })
    };
    notify("textDocument/didChange", insert(2));
    let Message::Notification(shown) = next() else {
        panic!("a message first")
    };
    assert_eq!(shown.method, "window/showMessage");
    let shown: lsp_types::ShowMessageParams = serde_json::from_value(shown.params).unwrap();
    assert_eq!(shown.typ, lsp_types::MessageType::WARNING);
    let expected = "this document is 3922 bytes, larger than 3000 bytes, the most \
                    `netlint server` checks (raise it with `netlint server --max-file-size`): \
                    it is not checked";
    assert_eq!(shown.message, format!("netlint: {u}: {expected}"));
    let refused = recv_diagnostics(&client);
    assert_eq!(refused.version, Some(2));
    assert_eq!(refused.diagnostics.len(), 1, "{:?}", refused.diagnostics);
    assert_eq!(refused.diagnostics[0].message, expected);
    assert_eq!(
        refused.diagnostics[0].code,
        Some(NumberOrString::String("unreadable".into()))
    );
    // A request about it is answered at once, with nothing.
    send(Message::Request(Request::new(
        2.into(),
        "textDocument/hover".into(),
        serde_json::json!({ "textDocument": { "uri": u }, "position": { "line": 0, "character": 0 } }),
    )));
    let Message::Response(hover) = next() else {
        panic!("the hover's answer")
    };
    assert_eq!(hover.response_result.ok(), Some(serde_json::Value::Null));
    // An edit of the text not kept cannot be made: still refused, said
    // once.
    notify("textDocument/didChange", insert(3));
    let Message::Notification(again) = next() else {
        panic!("diagnostics")
    };
    assert_eq!(again.method, PublishDiagnostics::METHOD);
    let again: PublishDiagnosticsParams = serde_json::from_value(again.params).unwrap();
    assert_eq!(again.version, Some(3));
    assert_eq!(again.diagnostics[0].message, expected);
    // The whole text again, within the limit: checked.
    notify(
        "textDocument/didChange",
        serde_json::json!({
            "textDocument": { "uri": u, "version": 4 },
            "contentChanges": [{ "text": PARTITION }]
        }),
    );
    let back = recv_diagnostics(&client);
    assert_eq!(back.version, Some(4));
    assert!(checked(&back));
    send(Message::Request(Request::new(
        3.into(),
        "shutdown".into(),
        serde_json::Value::Null,
    )));
    notify("exit", serde_json::Value::Null);
    thread.join().unwrap().unwrap();
}

#[test]
fn file_uris_are_paths_with_escapes_decoded() {
    let u: Uri = "file:///tmp/a%20dir/%C3%A7%231/design.toml"
        .parse()
        .unwrap();
    assert_eq!(
        path_of_uri(&u).unwrap(),
        Path::new("/tmp/a dir/ç#1/design.toml")
    );
    let v: Uri = "file://host/srv/x%2Fy.toml".parse().unwrap();
    assert_eq!(path_of_uri(&v).unwrap(), Path::new("/srv/x/y.toml"));
    let w: Uri = "untitled:Untitled-1".parse().unwrap();
    assert_eq!(path_of_uri(&w), None);
}

#[test]
fn the_allow_action_adds_to_an_inline_allow_already_there() {
    let text = PARTITION.replace(
        "name = \"tor-isl\"\n",
        "name = \"tor-isl\"\nallow = { \"spof-link\" = \"two cables\" }\n",
    );
    let a = analyse(&text);
    let d = a
        .diagnostics
        .iter()
        .find(|d| d.rule == "stp-vlan-partition")
        .unwrap();
    let acts = actions::allow_actions(&a, d);
    assert_eq!(acts.len(), 1);
    let (span, insert) = &acts[0].edits[0];
    let mut edited = text.clone();
    edited.replace_range(span.start..span.end, insert);
    assert!(edited.contains(&format!(
        "allow = {{ \"stp-vlan-partition\" = \"{}\", \"spof-link\" = \"two cables\" }}",
        actions::REASON_PLACEHOLDER
    )));
    let after = analyse(&edited);
    assert!(!after
        .diagnostics
        .iter()
        .any(|d| d.rule == "stp-vlan-partition" || d.is_input_error()));
}

#[test]
fn a_peer_leads_to_the_other_hosts_nic() {
    const MESH: &str = include_str!("../../fixtures/switchless-mesh.toml");
    let a = analyse(MESH);
    let u = uri();
    let Some(GotoDefinitionResponse::Scalar(def)) =
        protocol::definition(&u, &a, pos(MESH, "\"hv2:S1\"", 0, 2))
    else {
        panic!("no definition")
    };
    let lines: Vec<&str> = MESH.lines().collect();
    let at = &lines[def.range.start.line as usize][def.range.start.character as usize..];
    assert!(at.starts_with("S1 = { peer = \"hv1:S1\""), "{at}");
    // Inside hv2's table.
    let header = lines[..def.range.start.line as usize]
        .iter()
        .rev()
        .find(|l| l.starts_with('['))
        .unwrap();
    assert_eq!(*header, "[hosts.hv2]");
}

// ------------------------------------------------------------ fix actions

const DCBX: &str = include_str!("../../fixtures/dcbx-willing.toml");
const ROOT: &str = include_str!("../../fixtures/stp-root-placement-pvst.toml");

/// The code actions at the primary line of the first finding of `rule`.
fn actions_at(text: &str, a: &Analysis, rule: &str) -> Vec<lsp_types::CodeAction> {
    let d = a.diagnostics.iter().find(|d| d.rule == rule).expect(rule);
    let span = d.primary.as_ref().unwrap().span;
    let at = text::LineIndex::new(text).position(text, span.start);
    protocol::code_actions(&uri(), a, lsp_types::Range::new(at, at))
        .into_iter()
        .map(|x| match x {
            CodeActionOrCommand::CodeAction(c) => c,
            other => panic!("{other:?}"),
        })
        .collect()
}

/// `text` with the action's edits made as an editor makes them.
fn applied(text: &str, action: &lsp_types::CodeAction) -> String {
    let edits = &action
        .edit
        .as_ref()
        .expect("an edit")
        .changes
        .as_ref()
        .unwrap()[&uri()];
    let mut out = text.to_string();
    // An editor applies the edits of one change against the original text:
    // last first, so earlier ranges stay where they were.
    let mut edits = edits.clone();
    edits.sort_by_key(|e| std::cmp::Reverse((e.range.start.line, e.range.start.character)));
    let changes = edits
        .into_iter()
        .map(|e| lsp_types::TextDocumentContentChangeEvent {
            range: Some(e.range),
            range_length: None,
            text: e.new_text,
        })
        .collect();
    text::apply_changes(&mut out, changes);
    out
}

#[test]
fn a_safe_fix_is_the_preferred_quick_fix_and_takes_the_finding_out() {
    let a = analyse(DCBX);
    let d = a
        .diagnostics
        .iter()
        .find(|d| d.rule == "dcbx-willing")
        .unwrap();
    let fix = d.fix.as_ref().expect("dcbx-willing carries a fix");
    let acts = actions_at(DCBX, &a, "dcbx-willing");
    let first = &acts[0];
    assert_eq!(
        first.title.to_lowercase(),
        fix.description.to_lowercase(),
        "{acts:#?}"
    );
    assert_eq!(first.kind, Some(lsp_types::CodeActionKind::QUICKFIX));
    assert_eq!(first.is_preferred, Some(true));
    assert!(first.disabled.is_none());
    // The allow actions follow, not preferred.
    assert!(acts[1..]
        .iter()
        .all(|x| x.title.starts_with("Allow `dcbx-willing`") && x.is_preferred == Some(false)));
    let fixed = applied(DCBX, first);
    assert_ne!(fixed, DCBX);
    // The same text `netlint check --fix` writes.
    let file = SourceFile::new("untitled.toml", DCBX);
    let by_cli = crate::run::fix::fix_source(
        &file,
        None,
        &CheckSettings::default(),
        crate::run::fix::FixMode::Safe,
    );
    assert_eq!(by_cli.applied.len(), 1, "{:?}", by_cli.not_applied);
    assert_eq!(fixed, by_cli.text);
    let after = analyse(&fixed);
    assert!(!after
        .diagnostics
        .iter()
        .any(|d| d.rule == "dcbx-willing" || d.is_input_error()));
    assert_eq!(after.diagnostics.len(), a.diagnostics.len() - 1);
}

#[test]
fn a_fix_that_needs_judgement_is_offered_but_not_preferred() {
    let a = analyse(ROOT);
    let d = a
        .diagnostics
        .iter()
        .find(|d| d.rule == "stp-root-placement")
        .unwrap();
    let fix = d.fix.as_ref().expect("stp-root-placement carries a fix");
    assert_eq!(fix.safety, netlint_model::FixSafety::Unsafe);
    let acts = actions_at(ROOT, &a, "stp-root-placement");
    let act = acts
        .iter()
        .find(|x| x.title.contains("needs judgement"))
        .unwrap_or_else(|| panic!("{acts:#?}"));
    assert_eq!(act.is_preferred, Some(false));
    assert!(act.disabled.is_none());
    assert!(acts.iter().all(|x| x.is_preferred == Some(false)));
    let fixed = applied(ROOT, act);
    assert!(fixed.contains("priority = 8192"), "{fixed}");
    let after = analyse(&fixed);
    assert!(!after
        .diagnostics
        .iter()
        .any(|d| d.rule == "stp-root-placement" || d.is_input_error()));
}

/// The root moved onto the core (fixtures/stp-root-placement.toml) takes
/// hv1 to hv2 over two hops instead of one at the same speed: the tree
/// through the intended root, offered (one hop longer is accepted for
/// `stp-root-placement` only).
#[test]
fn a_root_moved_where_the_design_intends_is_offered_though_one_hop_longer() {
    const LONGER: &str = include_str!("../../fixtures/stp-root-placement.toml");
    let a = analyse(LONGER);
    let acts = actions_at(LONGER, &a, "stp-root-placement");
    let act = acts
        .iter()
        .find(|x| x.title.contains("needs judgement"))
        .unwrap_or_else(|| panic!("{acts:#?}"));
    assert!(act.disabled.is_none(), "{act:#?}");
}

#[test]
fn a_finding_without_a_fix_gets_only_the_allow_actions() {
    // An interface asking for more than the adapter beneath it: raising
    // one or lowering the other are both right, so mtu-mismatch has no fix.
    const MTU: &str = include_str!("../../fixtures/host-override-mtu.toml");
    let a = analyse(MTU);
    assert!(a.diagnostics.iter().all(|d| d.fix.is_none()));
    let acts = actions_at(MTU, &a, "mtu-mismatch");
    assert!(!acts.is_empty());
    assert!(
        acts.iter().all(|x| x.title.starts_with("Allow `")),
        "{acts:#?}"
    );
}

#[test]
fn a_fix_that_fails_its_check_is_offered_disabled_with_the_reason() {
    // The fix is tried on the text the finding came from; a fix whose
    // edit no longer matches that text (here, a value changed under it)
    // is refused by the same check as `--fix`.
    let mut a = analyse(DCBX);
    let i = a
        .diagnostics
        .iter()
        .position(|d| d.rule == "dcbx-willing")
        .unwrap();
    let fix = a.diagnostics[i].fix.as_mut().unwrap();
    fix.edits[0].old = Some(netlint_model::FixValue::Integer(7));
    let act = actions::fix_action(&a, i).expect("an action");
    assert!(act.edits.is_empty());
    assert!(!act.preferred);
    let why = act.disabled.expect("disabled");
    assert!(why.contains("the edit cannot be made"), "{why}");
    let at = a.lines.position(
        &a.file.text,
        a.diagnostics[i].primary.as_ref().unwrap().span.start,
    );
    let lsp = protocol::code_actions(&uri(), &a, lsp_types::Range::new(at, at));
    let CodeActionOrCommand::CodeAction(first) = &lsp[0] else {
        panic!()
    };
    assert!(first.edit.is_none());
    assert!(first
        .disabled
        .as_ref()
        .unwrap()
        .reason
        .contains("cannot be made"));
}

#[test]
fn fix_edits_are_in_utf16_units() {
    // The fixed table last in the file, its last line with characters
    // outside the Basic Multilingual Plane (two UTF-16 units each) and no
    // newline: the replaced range ends after them.
    let block_start = DCBX.find("[profiles.node.dcb]").unwrap();
    let block_end = DCBX[block_start..].find("\n\n").unwrap() + block_start + 2;
    let text = format!(
        "{}{}[profiles.node.dcb]\npfc = [3]\nets = {{ 3 = 50, 7 = 2 }} # 🚀 RoCE ⚡🚀",
        &DCBX[..block_start],
        &DCBX[block_end..]
    );
    let a = analyse(&text);
    let acts = actions_at(&text, &a, "dcbx-willing");
    let edits = &acts[0].edit.as_ref().unwrap().changes.as_ref().unwrap()[&uri()];
    let last = text.lines().count() as u32 - 1;
    let end = edits.iter().map(|e| e.range.end).max().unwrap();
    let last_line = text.lines().last().unwrap();
    assert_eq!(
        end,
        Position::new(last, last_line.encode_utf16().count() as u32),
        "{edits:?}"
    );
    assert_ne!(end.character as usize, last_line.chars().count());
    let fixed = applied(&text, &acts[0]);
    let file = SourceFile::new("untitled.toml", text.as_str());
    let by_cli = crate::run::fix::fix_source(
        &file,
        None,
        &CheckSettings::default(),
        crate::run::fix::FixMode::Safe,
    );
    assert_eq!(fixed, by_cli.text);
    assert!(fixed.contains("# 🚀 RoCE ⚡🚀"), "{fixed}");
    assert!(!analyse(&fixed)
        .diagnostics
        .iter()
        .any(|d| d.rule == "dcbx-willing" || d.is_input_error()));
}
