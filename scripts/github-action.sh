#!/usr/bin/env bash
# The `netlint check` step of action.yml, kept in a file so that it can be
# run and tested without GitHub (tests/action.rs).
#
# Inputs come as environment variables, as action.yml passes them:
#   INPUT_PATHS              design files or directories (default `.`)
#   INPUT_ARGS               more arguments for `netlint check`
#   INPUT_FORMAT             format for the job log (default `github`)
#   INPUT_SARIF_FILE         also write SARIF to this file
#   INPUT_FAIL_ON            `--fail-on` level, if set
#   INPUT_WORKING_DIRECTORY  directory to run in (default `.`)
#   NETLINT_BIN              the netlint to run (default: `netlint` on PATH)
#
# PATHS and ARGS are split into words as a shell would split them, quotes
# included, but never evaluated: `xargs` does the splitting ('...', "..."
# and backslashes quote; spaces, tabs and newlines separate), so
# `--baseline "my baseline.json"` is two words, and `$HOME`, `*` or `$(...)`
# stay literal text. An unmatched quote is a usage error (exit 2).
#
# The exit code of `netlint check` is written to $GITHUB_OUTPUT as
# `exit-code` and is the script's own.
set -uo pipefail

# split TEXT: the global array WORDS gets the words of TEXT. Portable to
# the bash 3.2 of macOS runners (no mapfile) and BSD xargs (no -r).
split() {
  WORDS=()
  case "$1" in *[![:space:]]*) ;; *) return 0 ;; esac
  local tmp word
  tmp=$(mktemp) || return 1
  if ! printf '%s' "$1" | xargs printf '%s\0' > "$tmp"; then
    rm -f -- "$tmp"
    return 1
  fi
  while IFS= read -r -d '' word; do
    WORDS+=("$word")
  done < "$tmp"
  rm -f -- "$tmp"
}

report_code() {
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    echo "exit-code=$1" >> "$GITHUB_OUTPUT"
  fi
  exit "$1"
}

bad_input() {
  echo "netlint action: cannot split the input \`$1\`: $2" >&2
  echo "(an unmatched quote? quote with '...' or \"...\", as in a shell)" >&2
  report_code 2
}

split "${INPUT_PATHS:-.}" || bad_input paths "${INPUT_PATHS:-}"
paths=(${WORDS[@]+"${WORDS[@]}"})
split "${INPUT_ARGS:-}" || bad_input args "${INPUT_ARGS:-}"
extra=(${WORDS[@]+"${WORDS[@]}"})
if [ "${#paths[@]}" -eq 0 ]; then
  paths=(.)
fi

if [ -n "${INPUT_WORKING_DIRECTORY:-}" ]; then
  cd -- "$INPUT_WORKING_DIRECTORY" || {
    echo "netlint action: working-directory \`$INPUT_WORKING_DIRECTORY\` does not exist" >&2
    report_code 2
  }
fi

args=(check "${paths[@]}" --format "${INPUT_FORMAT:-github}")
if [ -n "${INPUT_SARIF_FILE:-}" ]; then
  args+=(--format sarif -o "$INPUT_SARIF_FILE")
fi
if [ -n "${INPUT_FAIL_ON:-}" ]; then
  args+=(--fail-on "$INPUT_FAIL_ON")
fi

"${NETLINT_BIN:-netlint}" "${args[@]}" ${extra[@]+"${extra[@]}"}
report_code "$?"
