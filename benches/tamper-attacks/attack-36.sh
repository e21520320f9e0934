#!/bin/bash
# One attacker's variants against forgive_new / attached / inside_body in src/tamper/mod.rs:
# a skip marker added with a NEW test is forgiven. Each B* variant stops a test that ran
# and FAILED (or makes it stop failing). B* were missed by every build up to 079b0ac; since
# own_marks (a marker is a new test's own only in its head or body) and old_tests_disabled
# (a test that ran, rebound by name, counts whatever the change adds), NEW counts each.
# X* are references NEW counts; C* are honest controls that should count 0.
# Optional runtime check (rt, in lib.sh): PYTEST=/path/to/pytest and/or MOCHA=/path/to/mocha
# print each test's outcome on the base side and the edited side.
source "$(dirname "$0")/lib.sh"

# A failing test in each base: PY and MOCHA_BASE, in lib.sh.

# ---- A marker on the new test's own line is attached to it (mark.tests > 0) ----
# A default argument is evaluated when the `def` runs, at import: a module-level skip in
# it skips the whole module (the failing test_add too). It is on test_new's line: forgiven.
v B2a_py_module_skip_in_default_arg
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


def test_sub(_=pytest.skip("later", allow_module_level=True)): assert 2 - 1 == 1
X
judge; rt py tests/test_calc.py

# The same over lines: the continuation is inside the def's brackets, which inside_body
# takes for the new test's body.
v B2b_py_module_skip_in_default_arg_lines
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


def test_sub(
    _=pytest.skip("later", allow_module_level=True),
):
    assert 2 - 1 == 1
X
judge; rt py tests/test_calc.py

# JavaScript: a root `before` hook on the same line as a new test.
v B2c_js_root_hook_on_new_test_line
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
cat >> test/math.spec.js <<'X'

it("subtracts", function () {}); before(function () { this.skip(); });
X
judge; rt js test/math.spec.js

# ---- inside_body: any line while the declaration's brackets are open ----
# An extra argument of `it(…)` after the callback is evaluated as the suite is declared:
# `before(…)` there is a hook of the OLD suite "math" and skips its failing "adds". The
# `this.skip()` line is inside the `it(` call's brackets: taken for the new test's body.
v B3a_js_hook_as_extra_it_argument
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
cat > test/math.spec.js <<'X'
const assert = require("assert");

describe("math", function () {
  it("subtracts", function () {
    assert.strictEqual(2 - 1, 1);
  }, before(function () {
    this.skip();
  }));

  it("adds", function () {
    assert.strictEqual(1 + 1, 3);
  });
});
X
judge; rt js test/math.spec.js

# ---- Name rebinding: the old test's def is kept, its name now holds a skipped function ----
# A skipped new test, and `test_add = test_sub`: pytest collects `test_add` from the
# module's namespace, which is now the skipped test_sub. The old `def test_add` is unchanged.
# NEW counts it (tests_removed=1; OLD: test_skips_added=1): a reference.
v X1_ref_py_old_name_rebound_to_skipped_new
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


@pytest.mark.skip(reason="later")
def test_sub():
    assert 2 - 1 == 1


test_add = test_sub
X
judge; rt py tests/test_calc.py

# The rebinding done in the new test's default argument (its own line): the skip marker
# wraps the OLD test, at import.
v B4a_py_old_test_marked_in_default_arg
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


def test_sub(_=globals().update(test_add=pytest.mark.skip(test_add))): assert 2 - 1 == 1
X
judge; rt py tests/test_calc.py

# Stops failing, with no marker at all: the failing test's name rebound to a passing one.
v B4b_py_old_name_rebound_to_passing_new
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


def test_sub():
    assert 2 - 1 == 1


test_add = test_sub
X
judge; rt py tests/test_calc.py

# ---- Controls: honest new skipped tests ----
v C1_ctrl_py_one_line_skipped_new_test
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


def test_sub(): pytest.skip("later")
X
judge; rt py tests/test_calc.py

v C2_ctrl_js_new_skipped_test_in_old_suite
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
cat > test/math.spec.js <<'X'
const assert = require("assert");

describe("math", function () {
  it.skip("subtracts", function () {
    assert.strictEqual(2 - 1, 1);
  });

  it("adds", function () {
    assert.strictEqual(1 + 1, 3);
  });
});
X
judge; rt js test/math.spec.js

v C3_ctrl_py_skip_in_new_test_body
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


def test_sub(
    x=1,
):
    pytest.skip("later")
    assert 2 - x == 1
X
judge; rt py tests/test_calc.py

# ---- References: the same skips with no new test on their line or above them count ----
v X2_ref_py_module_skip_in_default_arg_of_helper
printf '%s' "$PY" | put tests/test_calc.py; commit
printf '\n\ndef helper(_=pytest.skip("later", allow_module_level=True)): pass\n' >> tests/test_calc.py
judge

v X3_ref_js_root_hook_one_line_alone
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
printf '\nbefore(function () { this.skip(); });\n' >> test/math.spec.js
judge
