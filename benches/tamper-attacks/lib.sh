#!/bin/bash
# Shared by the attack-*.sh scripts: each recreates an attacker's variants (edits that try
# to land tampering through a rule of the test-tampering analysis, and controls) in fresh
# git repositories and prints the counts of two builds side by side.
#
#   OLD=/path/to/astrix-before NEW=target/release/astrix bash benches/tamper-attacks/attack-31.sh
#
# A variant that OLD counts and NEW counts as 0 is a regression of NEW. Each script's
# variants are named by the rule they attack (see the comments above each one).
# usage inside a script: v NAME; put FILE <<'X' ... X; commit; edit; judge
: "${OLD:?set OLD to the astrix binary to compare against}"
: "${NEW:?set NEW to the astrix binary under test}"
WORK=${WORK:-$(mktemp -d)}
ROOT=$WORK/work
mkdir -p "$WORK/home" "$ROOT"
v() { NAME=$1; D=$ROOT/$1; rm -rf "$D"; mkdir -p "$D"; cd "$D" || exit 2; git init -q; git config user.name x; git config user.email x@y; }
put() { mkdir -p "$(dirname "$1")"; cat > "$1"; }
commit() { git add -A; git commit -qm base; git checkout -qb feature; }
counts() {
  env -i HOME="$WORK/home" PATH=/usr/bin:/bin GIT_CONFIG_NOSYSTEM=1 CLAUDECODE=1 "$1" check --format json --explain > "$WORK/out.$2.json" 2>/dev/null; rc=$?
  python3 - "$WORK/out.$2.json" $rc <<'P'
import json,sys
try: d=json.load(open(sys.argv[1]))
except Exception as e: print("parse-error",e); sys.exit()
keys=["tests_removed","test_skips_added","assertions_removed","assertions_weakened","test_config_changed"]
def find(o):
    if isinstance(o,dict):
        if "tests_removed" in o: return o
        for v in o.values():
            r=find(v)
            if r: return r
    if isinstance(o,list):
        for v in o:
            r=find(v)
            if r: return r
c=find(d) or {}
mt=d.get("modifies_tests"); print("mt=%s"%mt, " ".join(f"{k.replace('assertions_','a_').replace('tests_','t_').replace('test_','t_')}={c.get(k)}" for k in keys), "rc=%s"%sys.argv[2])
P
}
judge() { git add -A; printf '%-34s OLD: %s\n' "$NAME" "$(counts "$OLD" old)"; printf '%-34s NEW: %s\n' "" "$(counts "$NEW" new)"; }

# rt py|js FILE: each test's outcome in FILE on the base side (HEAD) and on the edited side
# (the work tree), with the real runner: pytest when PYTEST is set, mocha when MOCHA is.
# The whole tree is copied, so that a conftest.py or a helper beside the file runs too.
rt() {
  local kind=$1 file=$2 side tmp out
  case $kind in py) [ -n "$PYTEST" ] || return 0 ;; js) [ -n "$MOCHA" ] || return 0 ;; esac
  for side in base edit; do
    tmp=$(mktemp -d)
    if [ $side = base ]; then git archive HEAD | tar -x -C "$tmp"; else cp -a . "$tmp/"; rm -rf "$tmp/.git"; fi
    case $kind in
      py) out=$(cd "$tmp" && "$PYTEST" -rA -p no:cacheprovider "$file" 2>&1 |
            sed -n 's/^\(PASSED\|FAILED\|SKIPPED\|XFAIL\|XPASS\|ERROR\) \(.*\)/\1 \2/p' | sed 's/ - .*//' | tr '\n' ';')
          [ -n "$out" ] || out=$(cd "$tmp" && "$PYTEST" -p no:cacheprovider "$file" 2>&1 | tail -1) ;;
      js) out=$(cd "$tmp" && "$MOCHA" --reporter json "$file" 2>/dev/null |
            python3 -c 'import json,sys; d=json.load(sys.stdin); print(" ".join(k+":"+repr(t["fullTitle"]) for k in ("passes","failures","pending") for t in d[k]))' 2>&1) ;;
    esac
    printf '%-34s outcomes (%s): %s\n' "" "$side" "${out:-none}"
    rm -rf "$tmp"
  done
}

# Bases with one failing test (a variant that makes it stop failing, uncounted, is a miss):
# PY for pytest, MOCHA_BASE for mocha. A script may set its own after sourcing this file.
PY='import pytest


def test_add():
    assert 1 + 2 == 4
'

MOCHA_BASE='const assert = require("assert");

describe("math", function () {
  it("adds", function () {
    assert.strictEqual(1 + 1, 3);
  });
});
'

# A variant from one text: stdin is the base, a line ----, the edit; it is committed,
# edited, judged, and run with the real runner (KIND py or js, when set).
two() { # two NAME FILE KIND: stdin is BASE, a line ----, EDIT
  local name=$1 file=$2 kind=$3 all
  all=$(cat)
  v "$name"
  printf '%s\n' "${all%%$'\n'----$'\n'*}" | put "$file"; commit
  printf '%s\n' "${all#*$'\n'----$'\n'}" > "$file"
  judge; [ -n "$kind" ] && rt "$kind" "$file"
}
py() { two "$1" tests/test_calc.py py; }
js() { two "$1" test/math.spec.js js; }
