#!/usr/bin/env bash
# The fuzz campaign of issue 37 over the import readers, `diff`, `--fix`
# and the server's framing (docs/reliability.md): RUNS runs (default
# 100,000) of the release binary on mutated inputs, one at a time, each
# with a 20 s deadline and its peak RSS measured by GNU time
# (/usr/bin/time). Fails on a panic, a hang, a signal, an exit code
# outside 0, 1, 2, RSS over 1 GiB, or a `--fix` whose design does not
# load; prints runs, exit codes, the longest run and the highest peak per
# surface. The runs are deterministic: SEED (default 37) and a run's
# number reproduce it.
#
#   scripts/fuzz-campaign.sh [RUNS [SEED]]
#
# NETLINT_FUZZ_HUGE_LENGTHS=1 adds server Content-Length values above
# 16 MiB (issue 37 item 2).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-100000}
seed=${2:-37}
target=${CARGO_TARGET_DIR:-target}
cargo build --release --bin netlint
# An absolute path: the runs start in their own folders, where a relative
# `target/release/netlint` names nothing (every run then fails with 127).
bin="$(cd "$target/release" && pwd)/netlint"
[ -x "$bin" ] || { echo "no netlint binary at $bin" >&2; exit 2; }
NETLINT_BIN="$bin" \
NETLINT_FUZZ_RUNS="$runs" \
NETLINT_FUZZ_SEED="$seed" \
  cargo test --test fuzz_surfaces -- --ignored --exact campaign --nocapture
