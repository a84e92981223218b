"""`netlint server` driven by a real LSP client: pytest-lsp's LanguageClient
(pygls), over standard input and output, as an editor drives it.

Run by tests/server_client.rs (`cargo test --test server_client`), which
passes the netlint binary in NETLINT_BIN; by hand:
`NETLINT_BIN=target/debug/netlint python3 -m pytest -c tests/lsp/pytest.ini tests/lsp`.
"""

import json
import os
import pathlib
import subprocess

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

NETLINT = os.environ["NETLINT_BIN"]
FIXTURE = (pathlib.Path(__file__).parent / "fixtures" / "trunks.toml").resolve()
URI = FIXTURE.as_uri()


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[NETLINT, "server", "--stdio"])
)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=FIXTURE.parent.as_uri(),
        )
    )
    yield
    await lsp_client.shutdown_session()


def utf16(line_text: str, column: int) -> int:
    """A 1-based character column of `netlint check` as a UTF-16 offset."""
    return len(line_text[: column - 1].encode("utf-16-le")) // 2


def check_json(text: str) -> list:
    """What `netlint check` reports for the same text (standard input,
    shown as the fixture's path, so it finds the same netlint.toml)."""
    out = subprocess.run(
        [NETLINT, "check", "--format", "json", "--exit-zero",
         "--stdin-filename", str(FIXTURE), "-"],
        input=text.encode(), capture_output=True, check=True,
    )
    return json.loads(out.stdout)["diagnostics"]


def lsp_range(text: str, loc: dict) -> types.Range:
    lines = text.split("\n")
    return types.Range(
        start=types.Position(loc["line"] - 1, utf16(lines[loc["line"] - 1], loc["column"])),
        end=types.Position(loc["end_line"] - 1, utf16(lines[loc["end_line"] - 1], loc["end_column"])),
    )


def apply_edits(text: str, edits: list) -> str:
    """`text` with LSP text edits made (UTF-16 positions, each against the
    original text, as an editor applies one WorkspaceEdit)."""
    lines = text.split("\n")

    def offset(p: types.Position) -> int:
        before = sum(len(l) + 1 for l in lines[: p.line])
        line = lines[p.line] if p.line < len(lines) else ""
        units = line.encode("utf-16-le")[: 2 * p.character]
        return before + len(units.decode("utf-16-le"))

    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character),
                    reverse=True):
        text = text[: offset(e.range.start)] + e.new_text + text[offset(e.range.end):]
    return text


async def diagnostics_for(client: LanguageClient, version: int) -> list:
    while True:
        params = await client.wait_for_notification(
            types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS
        )
        if params.uri == URI and params.version == version:
            return params.diagnostics


async def test_breaking_a_trunk_shows_the_partition_where_check_puts_it(
    client: LanguageClient,
):
    text = FIXTURE.read_text(encoding="utf-8")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=URI, language_id="toml", version=1, text=text
            )
        )
    )
    before = await diagnostics_for(client, 1)
    assert [d.code for d in before] == [d["rule"] for d in check_json(text)]
    assert "stp-vlan-partition" not in [d.code for d in before]

    # tor-b's uplink loses the storage VLANs: the second `vlans` line.
    lines = text.split("\n")
    row = [i for i, l in enumerate(lines) if l == "vlans = [10, 711, 712]"][1]
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(row, len("vlans = [10")),
                        end=types.Position(row, len("vlans = [10, 711, 712")),
                    ),
                    text="",
                )
            ],
        )
    )
    edited = "\n".join(lines[:row] + ["vlans = [10]"] + lines[row + 1 :])
    after = await diagnostics_for(client, 2)
    expected = check_json(edited)
    assert [d.code for d in after] == [d["rule"] for d in expected]
    part = next(d for d in after if d.code == "stp-vlan-partition")
    want = next(d for d in expected if d["rule"] == "stp-vlan-partition")
    assert part.severity == types.DiagnosticSeverity.Error
    assert part.range == lsp_range(edited, want["location"])
    # The `[[links]]` header of tor-isl.
    assert edited.split("\n")[part.range.start.line] == "[[links]]"
    assert edited.split("\n")[part.range.start.line + 1] == 'name = "tor-isl"'
    assert part.code_description.href == want["url"]
    assert part.message.startswith(want["message"])
    related = {(r.message, r.location.range.start.line) for r in part.related_information}
    assert ("`tor-b-up` allows only VLAN 10", row) in related
    def key(r: types.Range):
        return (r.start.line, r.start.character, r.end.line, r.end.character)

    # Every related place `check` names (the primary one's label may come too).
    got = sorted(key(r.location.range) for r in part.related_information
                 if r.location.range != part.range)
    assert got == sorted(key(lsp_range(edited, r["location"])) for r in want["related"])

    # Hover on tor-b: its port on tor-isl blocks.
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            position=types.Position(edited.split("\n").index("[switches.tor-b]"), 3),
        )
    )
    assert "`tor-isl`: alternate, cost 1000, blocking" in hover.contents.value

    # Go to definition from `b = "tor-b"` of tor-isl.
    b_row = part.range.start.line + 3
    assert edited.split("\n")[b_row] == 'b = "tor-b"'
    loc = await client.text_document_definition_async(
        types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            position=types.Position(b_row, 6),
        )
    )
    assert loc.range.start.line == edited.split("\n").index("[switches.tor-b]")

    # The allow action on the finding.
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            range=part.range,
            context=types.CodeActionContext(diagnostics=[part]),
        )
    )
    titles = [a.title for a in actions]
    assert "Allow `stp-vlan-partition` on links.tor-isl (with a reason to write)" in titles

    # The rule's fix, as `netlint check` states it, first: it needs
    # judgement (which link to make cheaper), so it says so and is not
    # preferred; its edit, applied, takes the finding out and adds none.
    fix = want["fix"]
    assert fix is not None and fix["safety"] == "unsafe"
    desc = fix["description"]
    first = actions[0]
    assert first.title.startswith(desc[0].upper() + desc[1:]), titles
    assert "needs judgement" in first.title
    assert first.kind == types.CodeActionKind.QuickFix
    assert not first.is_preferred
    assert first.disabled is None
    fixed = apply_edits(edited, first.edit.changes[URI])
    assert fixed != edited
    rules_after = [d["rule"] for d in check_json(fixed)]
    assert "stp-vlan-partition" not in rules_after
    assert sorted(rules_after) == sorted(
        d["rule"] for d in expected if d["rule"] != "stp-vlan-partition"
    )
