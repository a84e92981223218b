#!/usr/bin/env python3
"""Re-check latency of `netlint server` on a synthetic design: the time from
sending an edit (`textDocument/didChange`) to receiving the diagnostics of
that version (`textDocument/publishDiagnostics`), over stdio as an editor
sees it, the debounce pause included.

Usage: scripts/bench-server.py [HOSTS] [CYCLES]   (default: 1000 hosts, 5 cycles)
Builds the release binary and the synth example first. Each cycle makes two
edits: one that takes VLAN 20 (CSV) off the uplink pair7-core-1 (a trunk
breaks, findings appear) and one that puts it back. Python's standard
library only.
"""

import json
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
hosts = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
cycles = int(sys.argv[2]) if len(sys.argv) > 2 else 5

subprocess.run(
    ["cargo", "build", "--release", "--quiet", "--bin", "netlint", "--example", "synth"],
    cwd=ROOT, check=True,
)
text = subprocess.run(
    [str(ROOT / "target/release/examples/synth"), str(hosts)],
    check=True, capture_output=True, text=True,
).stdout
path = pathlib.Path(tempfile.mkdtemp()) / f"synthetic-{hosts}.toml"
path.write_text(text)
uri = path.as_uri()

server = subprocess.Popen(
    [str(ROOT / "target/release/netlint"), "server", "--stdio"],
    stdin=subprocess.PIPE, stdout=subprocess.PIPE,
)


def send(msg):
    body = json.dumps(msg).encode()
    server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    server.stdin.flush()


def recv():
    headers = {}
    while True:
        line = server.stdout.readline()
        if line in (b"\r\n", b""):
            break
        k, v = line.decode().split(":", 1)
        headers[k.strip().lower()] = v.strip()
    return json.loads(server.stdout.read(int(headers["content-length"])))


def diagnostics(version):
    while True:
        m = recv()
        if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["version"] == version:
            return m["params"]["diagnostics"]


send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}, "processId": None}})
recv()
send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
t0 = time.perf_counter()
send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
      "params": {"textDocument": {"uri": uri, "languageId": "toml", "version": 1, "text": text}}})
clean = diagnostics(1)
opened = time.perf_counter() - t0

lines = text.split("\n")
row = lines.index('name = "pair7-core-1"') + 4  # the `members = N` line
assert lines[row].startswith("members = "), lines[row]
at = {"line": row + 1, "character": 0}
version = 1
times = []
counts = []
for _ in range(cycles):
    for edit in ("break", "fix"):
        version += 1
        if edit == "break":
            change = {"range": {"start": at, "end": at}, "text": "vlans = [10, 30, 100]\n"}
        else:
            end = {"line": row + 2, "character": 0}
            change = {"range": {"start": at, "end": end}, "text": ""}
        t = time.perf_counter()
        send({"jsonrpc": "2.0", "method": "textDocument/didChange",
              "params": {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}})
        d = diagnostics(version)
        times.append(time.perf_counter() - t)
        counts.append(len(d))
send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
recv()
send({"jsonrpc": "2.0", "method": "exit"})
server.wait(10)

broken = {c for i, c in enumerate(counts) if i % 2 == 0}
fixed = {c for i, c in enumerate(counts) if i % 2 == 1}
assert fixed == {len(clean)} and all(b > len(clean) for b in broken), (len(clean), counts)
# The same machine at the same moment: a whole `netlint check` of the
# broken text, best of 3 (the server's figure is that check plus the pause).
broken_path = path.with_name("broken.toml")
broken_path.write_text("\n".join(lines[: row + 1] + ["vlans = [10, 30, 100]"] + lines[row + 1 :]))
cli = []
for _ in range(3):
    t = time.perf_counter()
    subprocess.run([str(ROOT / "target/release/netlint"), "check", "--format", "json",
                    "--exit-zero", str(broken_path)], check=True, capture_output=True)
    cli.append(time.perf_counter() - t)
ms = sorted(t * 1000 for t in times)
print(f"design: {hosts} hosts, {len(text) // 1024} KiB; open to first diagnostics {opened * 1000:.0f} ms")
print(f"findings: {len(clean)} clean, {sorted(broken)} with the trunk broken")
print(f"re-check after an edit ({len(ms)} edits): median {statistics.median(ms):.0f} ms, "
      f"min {ms[0]:.0f} ms, max {ms[-1]:.0f} ms")
print(f"netlint check of the broken text, whole process: best of 3 {min(cli) * 1000:.0f} ms")
print(f"load average: {' '.join(open('/proc/loadavg').read().split()[:3])}")
