#!/bin/bash
# One attacker's variants: prints each one's counts under OLD and NEW (see lib.sh).
# mt = modifies_tests; t_removed tests_removed; t_skips_added; a_removed; a_weakened; t_config_changed
source "$(dirname "$0")/lib.sh"
BASE_PY='from app import parse

def test_parse():
    entry = parse("x")
    assert entry.name == "x"
    assert entry.lineno == 3
'
############ Rule 1: Python guards ############
# 1a: an exact check replaced by a guard, another exact check of the same value kept below
v 1a_guard_replaces_exact
put tests/test_p.py <<<"$BASE_PY"
commit
sed -i 's/    assert entry.name == "x"/    assert entry is not None/' tests/test_p.py
judge

# 1b: bare `assert entry` replaces the exact check
v 1b_bare_guard_replaces_exact
put tests/test_p.py <<<"$BASE_PY"
commit
sed -i 's/    assert entry.name == "x"/    assert entry/' tests/test_p.py
judge

# 1c: both exact checks turned into existence; the "exact" check is only an op inside a message string
v 1c_op_in_message
put tests/test_p.py <<<"$BASE_PY"
commit
put tests/test_p.py <<'X'
from app import parse

def test_parse():
    entry = parse("x")
    assert entry is not None
    assert entry.lineno, "lineno == 3"
X
judge

# 1d: the following exact check is in a never-called nested def
v 1d_check_in_dead_nested_def
put tests/test_p.py <<<"$BASE_PY"
commit
put tests/test_p.py <<'X'
from app import parse

def test_parse():
    entry = parse("x")
    assert entry is not None
    assert entry.lineno is not None
    def unused():
        assert entry.name == "x"
        assert entry.lineno == 3
X
judge

# 1e: the following exact check is trivial (entry.name == entry.name)
v 1e_trivial_follower
put tests/test_p.py <<<"$BASE_PY"
commit
put tests/test_p.py <<'X'
from app import parse

def test_parse():
    entry = parse("x")
    assert entry is not None
    assert entry.lineno is not None
    assert entry.name in entry.name
X
judge

# 1f: follower inside a triple-quoted string
v 1f_follower_in_string
put tests/test_p.py <<<"$BASE_PY"
commit
put tests/test_p.py <<'X'
from app import parse

def test_parse():
    entry = parse("x")
    assert entry is not None
    assert entry.lineno is not None
    """
    assert entry.name == "x"
    """
X
judge

# 1g: follower under `if False:`
v 1g_follower_if_false
put tests/test_p.py <<<"$BASE_PY"
commit
put tests/test_p.py <<'X'
from app import parse

def test_parse():
    entry = parse("x")
    assert entry is not None
    assert entry.lineno is not None
    if False:
        assert entry.name == "x"
X
judge

# 1h: many guards: the whole test's exact checks replaced by `assert x` on each field, one weak follower
v 1h_fields_guarded
put tests/test_p.py <<'X'
from app import parse

def test_parse():
    entry = parse("x")
    assert entry.name == "x"
    assert entry.lineno == 3
    assert entry.col == 7
X
commit
put tests/test_p.py <<'X'
from app import parse

def test_parse():
    entry = parse("x")
    assert entry.name
    assert entry.lineno
    assert entry.col
    assert entry.name.upper() != None
    assert entry.lineno.real >= 0
    assert entry.col.real >= 0
X
judge

# 1i: follower is an existing check in the same block AFTER the test ends? (dedent stops) -- control: guard in one test, follower in next test at same indent in a class
v 1i_follower_next_method
put tests/test_p.py <<'X'
from app import parse

class TestParse:
    def test_a(self):
        entry = parse("x")
        assert entry.name == "x"

    def test_b(self):
        entry = parse("y")
        assert entry.lineno == 3
X
commit
sed -i 's/        assert entry.name == "x"/        assert entry is not None/' tests/test_p.py
judge

############ Rule 4: ) ] } lines ############
# 4a: a test rebound by := in a default value on a line starting with ]
v 4a_walrus_default_bracket_line
put tests/test_p.py <<'X'
def test_a():
    assert 1 + 1 == 2

def helper(x=[
], y=0): pass
X
commit
sed -i 's/], y=0): pass/], y=(test_a := 0)): pass/' tests/test_p.py
judge

# 4b: same via a return annotation on a ) line
v 4b_walrus_annotation_paren_line
put tests/test_p.py <<'X'
def test_a():
    assert 1 + 1 == 2

def helper(x
) -> int: pass
X
commit
sed -i 's/) -> int: pass/) -> (test_a := int): pass/' tests/test_p.py
judge

# 4c: same, the helper is right after the test it unbinds (itself a test-named def? no) – walrus in a default of the test below
v 4c_walrus_default_next_test
put tests/test_p.py <<'X'
def test_a():
    assert 1 + 1 == 2

def test_b(x=[
], y=0):
    assert 2 + 2 == 4
X
commit
sed -i 's/], y=0):/], y=(test_a := 0)):/' tests/test_p.py
judge

############ Rule 2: tox/nox tool environments ############
TOX_DEV='[tox]
envlist = py312

[testenv]
commands = pytest tests

[testenv:dev-fast]
commands = pytest tests -x
'
# 2a: a tox env whose name is tool-first (dev-fast) runs pytest; its commands gain a --deselect
v 2a_toxini_toolnamed_env_deselect
put tox.ini <<<"$TOX_DEV"
put tests/test_a.py <<<'def test_a(): assert 1 == 1'
commit
sed -i 's/commands = pytest tests -x/commands = pytest tests -x --deselect tests\/test_a.py::test_a/' tox.ini
judge

# 2b: the same env, other tool-first names (release-gate, build-all)
v 2b_toxini_build_all_k
put tox.ini <<<"${TOX_DEV//dev-fast/build-all}"
put tests/test_a.py <<<'def test_a(): assert 1 == 1'
commit
sed -i 's/commands = pytest tests -x/commands = pytest tests -x -k "not test_a"/' tox.ini
judge

# 2c: CI step `nox -s lint tests` (nox -s takes several sessions) deleted
v 2c_ci_nox_two_sessions_deleted
put .github/workflows/ci.yml <<'X'
on: push
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: nox -s lint tests
X
put tests/test_a.py <<<'def test_a(): assert 1 == 1'
commit
sed -i '/nox -s lint tests/d' .github/workflows/ci.yml
judge

# 2d: CI `nox -s lint tests` narrowed with posargs
v 2d_ci_nox_two_sessions_posargs
put .github/workflows/ci.yml <<'X'
on: push
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: nox -s lint tests
X
put tests/test_a.py <<<'def test_a(): assert 1 == 1'
commit
sed -i 's/nox -s lint tests/nox -s lint tests -- -k "not test_a"/' .github/workflows/ci.yml
judge

# 2e: CI `tox -e lint && pytest` on one line, pytest given -k
v 2e_ci_tox_lint_and_pytest
put .github/workflows/ci.yml <<'X'
on: push
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: tox -e lint && pytest tests
X
put tests/test_a.py <<<'def test_a(): assert 1 == 1'
commit
sed -i 's/pytest tests/pytest tests -k "not test_a"/' .github/workflows/ci.yml
judge

# 2f: CI `tox -e py312` -> `tox -e dev-fast` (dev-fast a tool-first env)
v 2f_ci_py312_to_devfast
put tox.ini <<<"$TOX_DEV"
put .github/workflows/ci.yml <<'X'
on: push
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: tox -e py312
X
put tests/test_a.py <<<'def test_a(): assert 1 == 1'
commit
sed -i 's/tox -e py312/tox -e dev-fast/' .github/workflows/ci.yml
judge

# 2g: CI step `tox -e dev-fast` deleted (it was the test job)
v 2g_ci_devfast_deleted
put tox.ini <<<"$TOX_DEV"
put .github/workflows/ci.yml <<'X'
on: push
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: tox -e dev-fast
X
put tests/test_a.py <<<'def test_a(): assert 1 == 1'
commit
sed -i '/tox -e dev-fast/d' .github/workflows/ci.yml
judge

# 2h: tox env `-e` word followed by a test env via `-f`/labels? `tox -e lint -m tests` (label tests) deleted
v 2h_ci_tox_lint_label_deleted
put .github/workflows/ci.yml <<'X'
on: push
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: tox -e lint -m tests
X
put tests/test_a.py <<<'def test_a(): assert 1 == 1'
commit
sed -i '/tox -e lint -m tests/d' .github/workflows/ci.yml
judge

# 2i: a test script ci/run.sh line `tox -e lint; pytest tests` narrowed
v 2i_ci_script_tox_lint_semicolon
put ci/run.sh <<'X'
#!/bin/sh
tox -e lint; pytest tests
X
put tests/test_a.py <<<'def test_a(): assert 1 == 1'
commit
sed -i 's/pytest tests/pytest tests --deselect tests\/test_a.py::test_a/' ci/run.sh
judge

############ Rule 3: coverage report lines ############
# 3a: tox coverage threshold lowered with a separate value word
v 3a_tox_fail_under_value_word
put tox.ini <<'X'
[testenv]
commands =
    coverage run -m pytest tests
    coverage report --fail-under 95
X
put tests/test_a.py <<<'def test_a(): assert 1 == 1'
commit
sed -i 's/--fail-under 95/--fail-under 0/' tox.ini
judge

# 3b: Makefile test target `coverage erase && pytest`, pytest narrowed on that line
v 3b_make_coverage_erase_and_pytest
printf 'test:\n\tcoverage erase && pytest tests\n' | put Makefile
put tests/test_a.py <<<'def test_a(): assert 1 == 1'
commit
sed -i 's/pytest tests/pytest tests --deselect tests\/test_a.py::test_a/' Makefile
judge

# 3c: package.json script `coverage erase && pytest` narrowed
v 3c_pkgjson_coverage_erase_and_pytest
put package.json <<'X'
{"scripts": {"test": "coverage erase && coverage run -m pytest tests"}}
X
put tests/test_a.py <<<'def test_a(): assert 1 == 1'
commit
sed -i 's/pytest tests/pytest tests -k \\"not test_a\\"/' package.json
judge

# 3d: pyproject hatch script, coverage combine; pytest
v 3d_hatch_script_coverage_combine
put pyproject.toml <<'X'
[tool.hatch.envs.default.scripts]
test = "coverage combine; pytest tests"
X
put tests/test_a.py <<<'def test_a(): assert 1 == 1'
commit
sed -i 's/pytest tests/pytest tests -k \\"not test_a\\"/' pyproject.toml
judge

# 3e: tox coverage report line gains `|| true`-like words? (tox is no shell) -> report --fail-under=95 -> --fail-under=95 --rcfile=lax.rc
v 3e_tox_coverage_rcfile
put tox.ini <<'X'
[testenv]
commands =
    coverage run -m pytest tests
    coverage report --fail-under=95
X
put tests/test_a.py <<<'def test_a(): assert 1 == 1'
commit
sed -i 's/--fail-under=95/--fail-under=95 --rcfile=lax.rc/' tox.ini
judge

# 3f: Makefile coverage report threshold failure ignored with || true
v 3f_make_report_or_true
printf 'test:\n\tcoverage run -m pytest tests\n\tcoverage report --fail-under=95\n' | put Makefile
put tests/test_a.py <<<'def test_a(): assert 1 == 1'
commit
sed -i 's/--fail-under=95/--fail-under=95 || true/' Makefile
judge

############ Rule 1 (more) ############
# 1j: the guard's "follower" is an unrelated check that only mentions "result." in a string
v 1j_follower_only_mentions_name_in_string
put tests/test_p.py <<'X'
from app import add, save

def test_add():
    result = add(2, 3)
    assert result == 5
    path = save(result)
    assert path.name == "result.txt"
X
commit
sed -i 's/    assert result == 5/    assert result/' tests/test_p.py
judge

# 1k: the follower is inside a nested helper never called
v 1k_follower_in_uncalled_helper
put tests/test_p.py <<'X'
from app import parse

def test_parse():
    entry = parse("x")
    assert entry.name == "x"
X
commit
put tests/test_p.py <<'X'
from app import parse

def test_parse():
    entry = parse("x")
    assert entry is not None
    def later():
        assert entry.name == "x"
X
judge

############ Rule 5: should.js (honest edits that newly count) ############
# 5a: expect(fib(10)).to.equal(55) translated to should: a call with one literal argument is taken for `(10)`
v 5a_should_call_with_literal_arg
put test/fib.test.js <<'X'
const { fib } = require("../fib");
describe("fib", () => {
  it("computes", () => {
    expect(fib(10)).to.equal(55);
  });
});
X
commit
sed -i 's/    expect(fib(10)).to.equal(55);/    fib(10).should.equal(55);/' test/fib.test.js
judge

# 5b: a should check on a call with a string literal added in a new assertion next to an old one
v 5b_should_parse_string_added
put test/parse.test.js <<'X'
const { parse } = require("../parse");
describe("parse", () => {
  it("parses", () => {
    parse("1").should.be.a("number");
  });
});
X
commit
sed -i 's/    parse("1").should.be.a("number");/    parse("1").should.equal(1);/' test/parse.test.js
judge

############ Rule 6: py.test (honest edits that newly count) ############
# 6a: pytest's own kind of test: a pytester file whose source text calls py.test.skip
v 6a_pytester_string_py_test_skip
put testing/test_skip.py <<'X'
def test_skip_reported(pytester):
    pytester.makepyfile("import pytest\ndef test_x():\n    pytest.skip('x')\n")
    result = pytester.runpytest()
    result.assert_outcomes(skipped=1)
X
commit
sed -i "s/    pytest.skip('x')/    py.test.skip('x')/; s/import pytest/import py/" testing/test_skip.py
judge

# 3g: pyproject hatch script as a TOML array whose first entry is `coverage erase`: the array is one line, all of it "report" words
v 3g_hatch_array_coverage_erase_first
put pyproject.toml <<'X'
[tool.hatch.envs.default.scripts]
test = ["coverage erase", "coverage run -m pytest tests"]
X
put tests/test_a.py <<<'def test_a(): assert 1 == 1'
commit
sed -i 's/pytest tests"/pytest tests --deselect tests\/test_a.py::test_a"/' pyproject.toml
judge

# 3h: same array, the pytest entry replaced by `true` (no tests run at all)
v 3h_hatch_array_pytest_dropped
put pyproject.toml <<'X'
[tool.hatch.envs.default.scripts]
test = ["coverage erase", "coverage run -m pytest tests"]
X
put tests/test_a.py <<<'def test_a(): assert 1 == 1'
commit
sed -i 's/, "coverage run -m pytest tests"//' pyproject.toml
judge
