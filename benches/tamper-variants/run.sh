#!/usr/bin/env bash
# Usage: run.sh BINARY [FILTER]
# For every variant under variants/, builds a repo from before/ (committed on main, then a
# feature branch), stages after/, runs `CLAUDECODE=1 BINARY check --format json --explain`,
# and prints one line per variant. Set DETAIL=1 to also print the deciding rules.
set -u
BIN=$(readlink -f "${1:?usage: run.sh BINARY [FILTER]}")
FILTER=${2:-}
HERE=$(cd "$(dirname "$0")" && pwd)
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
# never let the caller's agent variables leak into setup
unset CLAUDECODE CLAUDE_CODE_ENTRYPOINT CODEX_SANDBOX CURSOR_AGENT AIDER_MODEL GEMINI_CLI 2>/dev/null
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
for d in "$HERE"/variants/*/; do
  name=$(basename "$d")
  [[ -n "$FILTER" && "$name" != *$FILTER* ]] && continue
  repo="$WORK/$name"; mkdir -p "$repo"
  (
    cd "$repo" || exit 1
    git init -q -b main
    cp -R "$d/before/." .
    git add -A && git -c user.name=a -c user.email=a@b commit -qm before
    git checkout -q -b feature
    find . -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
    # a fresh mtime: an edit of the same size written in the same second as the file it
    # replaces would otherwise look unchanged to git (`cp -a` kept the generator's times)
    cp -R "$d/after/." .
    git add -A
  ) >/dev/null 2>&1
  out=$(cd "$repo" && CLAUDECODE=1 "$BIN" check --format json --explain 2>/dev/null); rc=$?
  kind=$(sed -n 's/^kind=//p' "$d/META" 2>/dev/null)
  printf '%s' "$out" | python3 "$HERE/judge.py" "$name" "$rc" "$kind" "${DETAIL:-0}"
done
