#!/bin/bash
# One attacker's variants (the twentieth) against the settings rules (config.rs run_words,
# shipped, only_reporting_changed, leaves_out_tests, ini; context.rs hooks_ignored).
# Run: OLD=/tmp/astrix-s103 NEW=/tmp/astrix-s117 PYTEST=/path/to/pytest MOCHA=/path/to/mocha \
#      TOX=/path/to/tox bash benches/tamper-attacks/attack-49.sh   (TOX optional: tox 4.67 in a venv)
# Measured 2026-12-07, OLD=/tmp/astrix-s103, NEW=/tmp/astrix-s117; pytest 9, mocha 10, node 20,
# npm, GNU make, tox 4.67.17. "bypass" = every count 0 and rc 0 (no test file touched) while
# the real run goes red -> green.
#   NEW regressions (OLD counted config 1, rc 3; NEW 0, rc 0), run_words' quote dropping: a
#   quoted word holding a shell metacharacter (| & ; < > # ( ) and space-free) unquoted
#   runs other commands in sh (npm scripts, make recipes):
#   P8 package.json "mocha -g 'math||true' test" -> "mocha -g math||true test": npm test
#   rc 1 -> rc 0 (mocha still reports 1 failing; `|| true` eats the status).
#   P9 Makefile recipe `mocha -g "math|cat"` -> `mocha -g math|cat`: make test rc 2 -> rc 0
#   (the pipeline's status is cat's).
#   P12 (test files, rc 3 either way) tests/test_calc.py gains pytest_plugins =
#   ["tests.test_order"] and the new tests/test_order.py defines pytest_collection_modifyitems
#   dropping test_add: hooks_ignored assumes a test_*.py is never a plugin, but pytest
#   registers it when a module's pytest_plugins names it. NEW config 0, OLD config 1;
#   FAILED -> test_add never collected.
#   Bypasses of NEW that OLD shares (rc 0 in both, no test file touched):
#   P1 pytest.ini addopts -k "add or not sub" -> -v -k "sub or not add": FAILED test_add ->
#   only test_sub runs (PASSED). only_reporting_changed's second pass compares the words
#   as a multiset, so once any output option (-v) changes, a reordering that changes the -k
#   expression is read as "only reporting changed". X1 (the swap without -v) counts 1, rc 3.
#   P2 the same in pyproject ini_options, -q removed instead of -v added.
#   P3 tox commands: `- python -c …` / `pytest tests` -> `python -c …` / `- pytest tests
#   --tb=short`: tox's `-` (ignore exit) moved onto the pytest line, plus --tb: tox FAIL ->
#   OK with pytest still 1 failed.
#   P4 package.json "node node_modules/mocha/bin/mocha.js test" -> "node -v …": -v is in
#   REPORTING but is --version for node (also npm, make, jest, vitest): npm test rc 1 -> 0.
#   P5 "npm run unit" -> "npm -v run unit": rc 1 -> 0. P6 Makefile recipe `node -v …`: make
#   test rc 2 -> 0. P7 tox commands `make test` -> `make -v test`: tox FAIL -> OK.
#   P10 tox [testenv] keys never compared: changedir = tests/smoke (pytest collects only
#   there), commands_pre deleting the failing module, setenv PYTHONPATH = stubs (a stub
#   calc shadows the real one; only PYTEST_/JEST_/… variables are compared): tox FAIL -> OK.
#   Not a bypass: P11 pytest_generate_tests in the test module parametrizing test_add with
#   an empty list (SKIPPED "got empty parameter set"): skips_added 1 in OLD and NEW.
# Then (OLD=/tmp/astrix-s117, NEW=the commit that added this script): every P variant counts
# (test_config_changed 1, rc 3). -v is an output option only where pytest runs (bf0562a:
# P4-P7); the words that run are compared in order beside output options (P1-P3); quotes
# stay around shell operators (P8, P9); tox's changedir, commands_pre/post and PYTHONPATH are
# compared (P10); a hook at a test module's top level counts (P12).
[ -n "$WORK" ] || CLEAN_WORK=1
source "$(dirname "$0")/lib.sh"
[ -n "$CLEAN_WORK" ] && trap 'rm -rf "$WORK"' EXIT
[ -n "$MOCHA" ] && export NODE_PATH=${NODE_PATH:-$(dirname "$MOCHA")/..}
TOX=${TOX:-$(command -v tox)}

# Two tests: test_add fails, test_sub passes.
CALC='def test_add():
    assert 1 + 2 == 4


def test_sub():
    assert 2 - 1 == 1
'
# rtcmd CMD: run CMD (sh -c) in a copy of each side; print its exit status and last line.
rtcmd() {
  local side tmp out rc
  for side in base edit; do
    tmp=$(mktemp -d)
    if [ $side = base ]; then git archive HEAD | tar -x -C "$tmp"; else cp -a . "$tmp/"; rm -rf "$tmp/.git"; fi
    [ -n "$MOCHA" ] && ln -s "$(dirname "$MOCHA")/.." "$tmp/node_modules"
    out=$(cd "$tmp" && PATH="$(dirname "${PYTEST:-/x}"):$(dirname "${MOCHA:-/x}"):$PATH" timeout 300 sh -c "$1" 2>&1); rc=$?
    printf '%-34s outcomes (%s): rc=%s %s\n' "" "$side" "$rc" "$(printf '%s\n' "$out" | grep -E 'passing|failing|passed|failed|error|v[0-9]+\.|congratulations|FAIL|OK' | tail -3 | tr '\n' ';' | cut -c1-160)"
    rm -rf "$tmp"
  done
}

# ==== (1) only_reporting_changed: words compared as a multiset once one output option changes ====
# -k "add or not sub" -> -v -k "sub or not add": the same words in another order, plus -v.
v P1_pytest_ini_k_words_swapped_plus_v
printf '%s' "$CALC" | put tests/test_calc.py
put pytest.ini <<'X'
[pytest]
addopts = -k "add or not sub"
X
commit
put pytest.ini <<'X'
[pytest]
addopts = -v -k "sub or not add"
X
judge; rt py tests/test_calc.py
# Control: the same swap without -v (run_words differ, no output option changed).
v X1_pytest_ini_k_words_swapped_only
printf '%s' "$CALC" | put tests/test_calc.py
put pytest.ini <<'X'
[pytest]
addopts = -k "add or not sub"
X
commit
put pytest.ini <<'X'
[pytest]
addopts = -k "sub or not add"
X
judge; rt py tests/test_calc.py
# Same in pyproject, -q removed rather than -v added.
v P2_pyproject_k_swapped_minus_q
printf '%s' "$CALC" | put tests/test_calc.py
put pyproject.toml <<'X'
[tool.pytest.ini_options]
addopts = "-q -k 'add or not sub'"
X
commit
put pyproject.toml <<'X'
[tool.pytest.ini_options]
addopts = "-k 'sub or not add'"
X
judge; rt py tests/test_calc.py
# tox commands: the same swap, and `-` (ignore the exit status) moved from one command to
# the pytest line: the words are the same multiset, plus --tb=short.
v P3_tox_dash_moved_to_pytest_line
printf '%s' "$CALC" | put tests/test_calc.py
put tox.ini <<'X'
[tox]
env_list = py
skipsdist = true

[testenv]
skip_install = true
allowlist_externals = pytest, python
commands =
    - python -c "print(1)"
    pytest -p no:cacheprovider tests
X
commit
put tox.ini <<'X'
[tox]
env_list = py
skipsdist = true

[testenv]
skip_install = true
allowlist_externals = pytest, python
commands =
    python -c "print(1)"
    - pytest -p no:cacheprovider tests --tb=short
X
judge; [ -n "$TOX" ] && rtcmd "$TOX -q -e py"

# ==== (1) REPORTING: -v is --version for node, npm, jest, vitest, make ====
v P4_package_json_node_v
printf '%s' "$MOCHA_BASE" | put test/math.spec.js
put package.json <<'X'
{
  "name": "calc",
  "version": "1.0.0",
  "scripts": {
    "test": "node node_modules/mocha/bin/mocha.js test"
  }
}
X
commit
put package.json <<'X'
{
  "name": "calc",
  "version": "1.0.0",
  "scripts": {
    "test": "node -v node_modules/mocha/bin/mocha.js test"
  }
}
X
judge; rtcmd "npm test"
v P5_package_json_npm_v_run
printf '%s' "$MOCHA_BASE" | put test/math.spec.js
put package.json <<'X'
{
  "name": "calc",
  "version": "1.0.0",
  "scripts": {
    "test": "npm run unit",
    "unit": "mocha test"
  }
}
X
commit
put package.json <<'X'
{
  "name": "calc",
  "version": "1.0.0",
  "scripts": {
    "test": "npm -v run unit",
    "unit": "mocha test"
  }
}
X
judge; rtcmd "npm test"
v P6_makefile_node_v
printf '%s' "$MOCHA_BASE" | put test/math.spec.js
printf '.PHONY: test\ntest:\n\tnode node_modules/mocha/bin/mocha.js test\n' | put Makefile
commit
printf '.PHONY: test\ntest:\n\tnode -v node_modules/mocha/bin/mocha.js test\n' | put Makefile
judge; rtcmd "make test"
v P7_tox_make_v
printf '%s' "$CALC" | put tests/test_calc.py
printf 'test:\n\tpytest -p no:cacheprovider tests\n' | put Makefile
put tox.ini <<'X'
[tox]
env_list = py
skipsdist = true

[testenv]
skip_install = true
allowlist_externals = make, pytest
commands = make test
X
commit
sed -i 's/commands = make test/commands = make -v test/' tox.ini
judge; [ -n "$TOX" ] && rtcmd "$TOX -q -e py"

# ==== (1) quotes dropped around a word with a shell metacharacter ( | & ; < > ) ====
v P8_package_json_quoted_or_true
printf '%s' "$MOCHA_BASE" | put test/math.spec.js
put package.json <<'X'
{
  "name": "calc",
  "version": "1.0.0",
  "scripts": {
    "test": "mocha -g 'math||true' test"
  }
}
X
commit
put package.json <<'X'
{
  "name": "calc",
  "version": "1.0.0",
  "scripts": {
    "test": "mocha -g math||true test"
  }
}
X
judge; rtcmd "npm test"
v P9_makefile_quoted_pipe
printf '%s' "$MOCHA_BASE" | put test/math.spec.js
printf '.PHONY: test\ntest:\n\tmocha -g "math|cat"\n' | put Makefile
commit
printf '.PHONY: test\ntest:\n\tmocha -g math|cat\n' | put Makefile
judge; rtcmd "make test"

# ==== (2) tox [testenv] keys that are not compared ====
for variant in "changedir = tests/smoke" "commands_pre = python -c \"import os; os.remove('tests/test_calc.py')\"" "setenv = PYTHONPATH = stubs"; do
  v "P10_tox_${variant%% *}"
  printf 'from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n' | put tests/test_calc.py
  printf 'def add(a, b):\n    return a - b\n' | put calc.py
  printf 'def add(a, b):\n    return a + b\n' | put stubs/calc.py
  printf 'import os\nimport sys\n\nsys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))\n' | put tests/conftest.py
  printf 'def test_smoke():\n    assert True\n' | put tests/smoke/test_smoke.py
  put tox.ini <<'X'
[tox]
env_list = py
skipsdist = true

[testenv]
skip_install = true
allowlist_externals = pytest, python
commands = pytest -p no:cacheprovider
X
  commit
  printf '%s\n' "$variant" >> tox.ini
  judge; [ -n "$TOX" ] && rtcmd "$TOX -q -e py"
done

# ==== (4) hooks in test_*.py: pytest_generate_tests, and a test module registered as a plugin ====
v P11_test_module_generate_tests_empty_params
printf '%s' "$CALC" | put tests/test_calc.py
commit
printf '%s\n\n\ndef pytest_generate_tests(metafunc):\n    if metafunc.function.__name__ == "test_add":\n        metafunc.fixturenames.append("case")\n        metafunc.parametrize("case", [])\n' "$CALC" > tests/test_calc.py
judge; rt py tests/test_calc.py
v P12_test_module_as_plugin_via_pytest_plugins
printf '%s' "$CALC" | put tests/test_calc.py
: | put tests/__init__.py
commit
printf 'pytest_plugins = ["tests.test_order"]\n\n\n%s' "$CALC" > tests/test_calc.py
put tests/test_order.py <<'X'
def pytest_collection_modifyitems(items):
    items[:] = [item for item in items if item.name != "test_add"]
X
judge; rt py tests/test_calc.py
