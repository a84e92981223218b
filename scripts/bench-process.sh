#!/usr/bin/env bash
# Whole-process figures for `netlint check` on synthetic designs: wall time
# and peak memory (GNU time's maximum resident set size), the release build.
# Usage: scripts/bench-process.sh [--flawed] [HOSTS...]   (default: 16 64 1000 10000)
# --flawed seeds the designs with mistakes that fire rules on most hosts
# (see netlint_synth::Params::flawed).
set -euo pipefail
cd "$(dirname "$0")/.."
flawed=""
if [ "${1:-}" = "--flawed" ]; then
  flawed="--flawed"
  shift
fi
cargo build --release --quiet --bin netlint --example synth
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf '| hosts | design size | wall time (best of 3) | CPU time (user + sys) | peak memory |\n| ---: | ---: | ---: | ---: | ---: |\n'
for n in "${@:-16 64 1000 10000}"; do
  for h in $n; do
    f="$dir/synthetic-$h.toml"
    target/release/examples/synth "$h" $flawed > "$f"
    best=""
    cpu=""
    mem=""
    for _ in 1 2 3; do
      out=$( { /usr/bin/time -f '%e %U %S %M' target/release/netlint check "$f" --format json > /dev/null; } 2>&1 | tail -n 1 ) || true
      read -r t u s m <<< "$out"
      if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then
        best=$t
        cpu=$(awk "BEGIN{printf \"%.2f\", $u + $s}")
        mem=$m
      fi
    done
    printf '| %s | %s KiB | %s s | %s s | %s MiB |\n' "$h" "$(( $(stat -c %s "$f") / 1024 ))" "$best" "$cpu" "$(( mem / 1024 ))"
  done
done
