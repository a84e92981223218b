#!/usr/bin/env bash
# Draws every design under fixtures/ with `netlint graph`, as the pictures
# a reviewer would look at, and checks that each one really renders:
#   - the DOT through Graphviz (`dot -Tsvg`): every file must render;
#   - the Mermaid through Mermaid's own parser (tests/mermaid, npm).
# Graphviz is installed with apt-get and the parser with `npm ci` when
# missing. Each design is drawn as it is and with `--detail host`.
#
#   scripts/render-diagrams.sh [OUTDIR]   pictures into OUTDIR (default target/diagrams)
#   scripts/render-diagrams.sh --docs     also regenerate docs/img/rstp-blocks-isl.svg
#                                         and the Mermaid example in docs/diagrams.md
#
# NETLINT_BIN names a built netlint; otherwise the script builds one.
set -euo pipefail
cd "$(dirname "$0")/.."

out=target/diagrams
docs=0
for arg in "$@"; do
  case "$arg" in
    --docs) docs=1 ;;
    -h | --help) sed -n '2,14p' "$0"; exit 0 ;;
    *) out="$arg" ;;
  esac
done

if ! command -v dot >/dev/null; then
  echo "== installing Graphviz"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq graphviz >/dev/null
fi
if [ ! -d tests/mermaid/node_modules/mermaid ]; then
  echo "== npm ci in tests/mermaid"
  (cd tests/mermaid && npm ci --no-audit --no-fund --loglevel=error)
fi

bin="${NETLINT_BIN:-}"
if [ -z "$bin" ]; then
  cargo build --quiet --bin netlint
  bin="${CARGO_TARGET_DIR:-target}/debug/netlint"
fi

mkdir -p "$out"
rendered=0
failed=0
mermaid=()
for design in fixtures/*.toml; do
  name=$(basename "$design" .toml)
  for detail in fabric host; do
    base="$out/$name"
    [ "$detail" = fabric ] || base="$out/$name.host"
    if ! "$bin" graph "$design" --detail "$detail" --format dot -o "$base.dot"; then
      echo "FAIL $design: netlint graph --detail $detail"
      failed=$((failed + 1))
      continue
    fi
    "$bin" graph "$design" --detail "$detail" --format mermaid -o "$base.mmd"
    mermaid+=("$base.mmd")
    if dot -Tsvg "$base.dot" -o "$base.svg" 2>"$base.dot.log"; then
      rendered=$((rendered + 1))
      if [ -s "$base.dot.log" ]; then
        echo "note $base.dot: $(tr '\n' ' ' <"$base.dot.log")"
      fi
    else
      echo "FAIL $base.dot: $(cat "$base.dot.log")"
      failed=$((failed + 1))
    fi
  done
done

if [ "$docs" = 1 ]; then
  echo "== regenerating docs/img/rstp-blocks-isl.svg and the example in docs/diagrams.md"
  mkdir -p docs/img
  "$bin" graph fixtures/graph-rstp-blocks-isl.toml --format dot | dot -Tsvg >docs/img/rstp-blocks-isl.svg
  example=$("$bin" graph fixtures/graph-rstp-blocks-isl.toml --format mermaid)
  EXAMPLE="$example" python3 - <<'EOF'
import os, re
path = "docs/diagrams.md"
text = open(path, encoding="utf-8").read()
block = "<!-- mermaid-example:start -->\n```mermaid\n" + os.environ["EXAMPLE"].rstrip("\n") + "\n```\n<!-- mermaid-example:end -->"
text = re.sub(r"<!-- mermaid-example:start -->.*?<!-- mermaid-example:end -->", lambda _: block, text, flags=re.S)
open(path, "w", encoding="utf-8").write(text)
EOF
fi
mermaid+=(docs/diagrams.md)

echo "== Graphviz: $rendered DOT files rendered to SVG in $out, $failed failed"
echo "== Mermaid parser"
status=0
result=$(node tests/mermaid/check.mjs "${mermaid[@]}") || status=$?
# The failures and the count; the diagrams that parse only as a number.
grep -v '^ok ' <<<"$result" || true
[ "$status" = 0 ] || failed=$((failed + 1))
if [ "$failed" -gt 0 ]; then
  echo "render-diagrams: FAILED"
  exit 1
fi
echo "render-diagrams: every picture renders"
