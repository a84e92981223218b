#!/usr/bin/env bash
# Exercises .pre-commit-hooks.yaml for real, with pre-commit itself: a
# throwaway git repository holding a passing design, a failing design and a
# TOML file that is no design, checked by both hooks through
# `pre-commit run` and through an installed git hook on `git commit`.
#
# The hook repository is a snapshot of this working tree (tracked and
# untracked, unignored files), committed in a scratch repository, so
# uncommitted changes are tested too.
#
# Needs: git, python3 with pre-commit (`python3 -m pip install pre-commit`),
# cargo. NETLINT_BIN may name a built netlint for the `netlint-system` hook
# (default: built here with `cargo build --release`).
# SKIP_RUST_HOOK=1 skips the `language: rust` hook, which builds netlint
# from the snapshot with `cargo install` (minutes on a small machine).
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
if command -v pre-commit >/dev/null 2>&1; then
  pre_commit=(pre-commit)
else
  pre_commit=(python3 -m pre_commit)
fi
"${pre_commit[@]}" --version

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export PRE_COMMIT_HOME="$work/pre-commit-home"
export GIT_CONFIG_GLOBAL="$work/gitconfig"
git config --global user.name "netlint test"
git config --global user.email "test@netlint.invalid"
git config --global init.defaultBranch main
# Reuse the registry crates built for the tests where possible.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$here/target}"

if [ -z "${NETLINT_BIN:-}" ]; then
  (cd "$here" && cargo build --release --quiet)
  NETLINT_BIN="$CARGO_TARGET_DIR/release/netlint"
fi
NETLINT_BIN="$(cd "$(dirname "$NETLINT_BIN")" && pwd)/$(basename "$NETLINT_BIN")"

echo "== snapshot of the hook repository"
hooks="$work/hooks"
mkdir -p "$hooks"
(cd "$here" && git ls-files -z --cached --others --exclude-standard) |
  while IFS= read -r -d '' f; do
    if [ -f "$here/$f" ]; then
      mkdir -p "$hooks/$(dirname "$f")"
      cp -p "$here/$f" "$hooks/$f"
    fi
  done
git -C "$hooks" init -q
git -C "$hooks" add -A
git -C "$hooks" commit -qm snapshot
rev="$(git -C "$hooks" rev-parse HEAD)"

echo "== the project using the hooks"
project="$work/project"
mkdir -p "$project/designs"
cd "$project"
git init -q
cat > designs/passing.toml <<'TOML'
# Two Hyper-V nodes, each with a SET switch over two 10G NICs, one per
# switch of a stacked pair.
[design]
name = "two-node"
platform = "windows-server-2022"

[networks.mgmt]
role = "management"
vlan = 10
subnet = "10.0.10.0/24"

[networks.vms]
role = "vm"
vlan = 100

[switches.tor-a]
stack = "s1"
stp = { mode = "rstp", priority = 4096 }
host_ports = { edge = true, bpdu_guard = true }

[switches.tor-b]
stack = "s1"
stp = { mode = "rstp", priority = 4096 }
host_ports = { edge = true, bpdu_guard = true }

# Two stacking cables: a two-member ring, which loses nothing to one
# cable (one cable would split the stack: spof-link).
[[links]]
a = "tor-a"
b = "tor-b"
kind = "stack"
speed = "40G"
members = 2

[profiles.node]
power = "max-performance"

[profiles.node.nics.NIC1]
card = "slot1"
speed = "10G"
switch = "tor-a"

[profiles.node.nics.NIC2]
card = "slot2"
speed = "10G"
switch = "tor-b"

[profiles.node.vswitches.SET]
uplinks = ["NIC1", "NIC2"]
networks = ["vms"]

[profiles.node.vswitches.SET.vnics.Mgmt]
network = "mgmt"

[hosts.hv1]
profile = "node"

[hosts.hv2]
profile = "node"
TOML
# Not a design: the hooks must skip it.
printf '[tool.something]\nkey = "value"\n' > settings.toml
cp "$here/fixtures/mtu-mismatch.toml" "$work/failing.toml"

hook_ids=(netlint-system)
if [ "${SKIP_RUST_HOOK:-0}" != 1 ]; then
  hook_ids+=(netlint)
fi
{
  echo "repos:"
  echo "  - repo: $hooks"
  echo "    rev: $rev"
  echo "    hooks:"
  for id in "${hook_ids[@]}"; do
    echo "      - id: $id"
    echo "        args: [--fail-on, error]"
  done
} > .pre-commit-config.yaml
cat .pre-commit-config.yaml
git add -A
git commit -qm "passing design" --no-verify

export PATH="$(dirname "$NETLINT_BIN"):$PATH"
failures=0
expect() { # expect CODE DESCRIPTION -- COMMAND...
  local want="$1" what="$2"
  shift 3
  local got=0
  "$@" > "$work/out.txt" 2>&1 || got=$?
  if [ "$got" = "$want" ]; then
    echo "ok: $what (exit $got)"
  else
    echo "FAILED: $what: exit $got, expected $want"
    cat "$work/out.txt"
    failures=$((failures + 1))
  fi
}

for id in "${hook_ids[@]}"; do
  echo "== hook $id"
  expect 0 "$id passes the passing design and skips settings.toml" -- \
    "${pre_commit[@]}" run "$id" --all-files
  grep -q "netlint" "$work/out.txt" || { echo "FAILED: $id did not run"; failures=$((failures + 1)); }
  cp "$work/failing.toml" designs/failing.toml
  git add designs/failing.toml
  expect 1 "$id fails the failing design" -- "${pre_commit[@]}" run "$id" --all-files
  if grep -q "mtu-mismatch" "$work/out.txt"; then
    echo "ok: $id names the rule that failed"
  else
    echo "FAILED: $id output does not name mtu-mismatch"
    cat "$work/out.txt"
    failures=$((failures + 1))
  fi
  git rm -q --cached designs/failing.toml
  rm designs/failing.toml
done

echo "== as a git hook on commit"
"${pre_commit[@]}" install
printf '\n[hosts.hv3]\nprofile = "node"\n' >> designs/passing.toml
git add designs/passing.toml
expect 0 "a commit of a passing design goes through" -- git commit -qm "third node"
cp "$work/failing.toml" designs/failing.toml
git add designs/failing.toml
expect 1 "a commit of a failing design is refused" -- git commit -qm "failing design"
if git log --oneline | grep -q "failing design"; then
  echo "FAILED: the failing design was committed"
  failures=$((failures + 1))
fi

if [ "$failures" -ne 0 ]; then
  echo "pre-commit hooks: $failures check(s) failed"
  exit 1
fi
echo "pre-commit hooks: all checks passed"
