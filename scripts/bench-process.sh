#!/usr/bin/env bash
# Whole-process figures for `netlint check` on synthetic designs: wall time
# and peak memory (GNU time's maximum resident set size), the release build.
# Usage: scripts/bench-process.sh [HOSTS...]   (default: 16 64 1000 10000)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin netlint --example synth
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf '| hosts | design size | wall time (best of 3) | peak memory |\n| ---: | ---: | ---: | ---: |\n'
for n in "${@:-16 64 1000 10000}"; do
  for h in $n; do
    f="$dir/synthetic-$h.toml"
    target/release/examples/synth "$h" > "$f"
    best=""
    mem=""
    for _ in 1 2 3; do
      out=$( { /usr/bin/time -f '%e %M' target/release/netlint check "$f" --format json > /dev/null; } 2>&1 | tail -n 1 ) || true
      t=${out% *}
      m=${out#* }
      if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; mem=$m; fi
    done
    printf '| %s | %s KiB | %s s | %s MiB |\n' "$h" "$(( $(stat -c %s "$f") / 1024 ))" "$best" "$(( mem / 1024 ))"
  done
done
