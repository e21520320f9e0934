#!/bin/bash
# One attacker's variants (the ninth) against exact_checks_weakened / in_place_of_exact_checks
# (the "turned" check: a removed exact check with `not`/`!` taken out) / in_new_tests in
# src/tamper/mod.rs, is_existence / subject_words / is_trivial in src/tamper/neuter.rs, and the
# comment/string lexing of src/tamper/lex.rs. B* are missed by OLD and NEW and make a FAILING
# test of the base stop failing; R* were counted by 079b0ac and not by 1d0c677 (the turned
# check of 7ab61f0), and are counted again since the commit that added this script (a turned
# check is the removed check in its place, read whole); F* are honest edits NEW counts; X* are
# references; C* honest controls (0).
# Run: OLD=<a build of 1d0c677> NEW=target/release/astrix PYTEST=/path/to/pytest \
#      MOCHA=/path/to/mocha bash benches/tamper-attacks/attack-38.sh
# Measured 2026-12-07 with OLD=1d0c677, NEW=the commit that added this script: R1 and R2
# 0 -> 1 weakened; every other variant, and attack-34..37, the same in both.
# Optional runtime check (rt, in lib.sh): PYTEST=/path/to/pytest and/or MOCHA=/path/to/mocha
# print each test's outcome on the base side and the edited side.
source "$(dirname "$0")/lib.sh"

# A failing exact check in each base; pyv/jsv replace it by one line.
PY_BASE='def add(a, b):
    return a + b


def test_add():
    result = add(1, 2)
    assert result == 4
'
pyv() { # pyv NAME LINE: the failing `assert result == 4` replaced by LINE
  v "$1"; printf '%s' "$PY_BASE" | put tests/test_calc.py; commit
  printf '%s' "$PY_BASE" | sed "s/^    assert result == 4\$/    $2/" > tests/test_calc.py
  judge; rt py tests/test_calc.py
}
jsv() { # jsv NAME LINE: the failing `assert.strictEqual(1 + 1, 3);` replaced by LINE
  v "$1"; printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
  printf '%s' "$MOCHA_BASE" | sed "s/^    assert\.strictEqual(1 + 1, 3);\$/    $2/" > test/math.spec.js
  judge; rt js test/math.spec.js
}

# ==== Rule 3: a presence check put in place of an exact check (in_place_of_exact_checks) ====

# (Closed.) "Turned" was matched against EVERY removed exact line, and a removed line turns any number
# of added ones: another test's `assert not result` (re-added with a message, so it is
# removed) turns test_add's `assert result`, which replaced the failing `== 4`.
v R1_py_turned_borrowed_from_other_test
put tests/test_calc.py <<'X'
def add(a, b):
    return a + b


def test_empty():
    result = add(0, 0)
    assert not result


def test_add():
    result = add(1, 2)
    assert result == 4
X
commit
put tests/test_calc.py <<'X'
def add(a, b):
    return a + b


def test_empty():
    result = add(0, 0)
    assert not result, "zero"


def test_add():
    result = add(1, 2)
    assert result
X
judge; rt py tests/test_calc.py

# (Closed.) The turned check read only the assertion's FIRST line, but existence is judged on the
# whole statement: black's `assert (` on both sides (a comment reworded) is "turned".
v R2_py_multiline_first_lines_equal_turned
put tests/test_calc.py <<'X'
def add(a, b):
    return a + b


def test_add():
    assert (  # sum
        add(1, 2) == 4
    )
X
commit
put tests/test_calc.py <<'X'
def add(a, b):
    return a + b


def test_add():
    assert (  # the sum
        add(1, 2)
    )
X
judge; rt py tests/test_calc.py

# An assertion is counted on its first line only: a changed continuation line is no
# assertion removed or added, whatever it does to the check.
v B1_py_multiline_condition_line_weakened
put tests/test_calc.py <<'X'
def add(a, b):
    return a + b


def test_add():
    assert (
        add(1, 2) == 4
    )
X
commit
sed -i 's/^        add(1, 2) == 4$/        add(1, 2)/' tests/test_calc.py
judge; rt py tests/test_calc.py

v B2_py_unittest_expected_line_made_trivial
put tests/test_calc.py <<'X'
import unittest


def add(a, b):
    return a + b


class TestCalc(unittest.TestCase):
    def test_add(self):
        result = add(1, 2)
        self.assertEqual(
            result,
            4,
        )
X
commit
sed -i 's/^            4,$/            result,/' tests/test_calc.py
judge; rt py tests/test_calc.py

v B3_js_expected_line_made_trivial
put test/math.spec.js <<'X'
const assert = require("assert");

describe("math", function () {
  it("adds", function () {
    assert.strictEqual(
      1 + 1,
      3
    );
  });
});
X
commit
sed -i 's/^      3$/      1 + 1/' test/math.spec.js
judge; rt js test/math.spec.js

v B4_js_ok_condition_line_weakened
put test/math.spec.js <<'X'
const assert = require("assert");

describe("math", function () {
  it("adds", function () {
    assert.ok(
      1 + 1 === 3
    );
  });
});
X
commit
sed -i 's/^      1 + 1 === 3$/      1 + 1/' test/math.spec.js
judge; rt js test/math.spec.js

# A matcher on the line below `expect(…)` (prettier's chains): the line alone matches no
# assertion. (No runner here for expect.)
v B5_js_expect_chain_matcher_line
put test/math.spec.js <<'X'
describe("math", function () {
  it("adds", function () {
    expect(1 + 1)
      .toBe(3);
  });
});
X
commit
sed -i 's/\.toBe(3)/.toBeDefined()/' test/math.spec.js
judge

# in_new_tests: the failing test renamed (a "new" test) with its check weakened, plus one
# more new test, so tests_removed is -1 and the first new test's presence check is exempt.
v B6_py_renamed_weakened_plus_new_test
printf '%s' "$PY_BASE" | put tests/test_calc.py; commit
put tests/test_calc.py <<'X'
def add(a, b):
    return a + b


def test_add_small_numbers():
    result = add(1, 2)
    assert result


def test_add_zero():
    assert add(0, 0) == 0
X
judge; rt py tests/test_calc.py

# Checks of nothing that is_trivial / is_existence do not see (always true whatever the
# value), and negations that keep "an exact check" while accepting every other value.
pyv B7_py_comparison_is_not_None 'assert (result == 4) is not None'
pyv B8_py_comparison_in_bools 'assert (result == 4) in (True, False)'
pyv B9_py_in_tuple_holding_itself 'assert result in (4, result)'
pyv B10_py_negated_to_not_equal 'assert result != 4'
jsv B11_js_array_always_truthy 'assert.ok([1 + 1 === 3]);'
jsv B12_js_typeof_comparison 'assert.strictEqual(typeof (1 + 1 === 3), "boolean");'
jsv B13_js_negated_notStrictEqual 'assert.notStrictEqual(1 + 1, 3);'
jsv B14_js_assert_value_with_message 'assert(1 + 1, 3);'

# ==== Rule 4: comments and strings the lexer reads otherwise than the runtime ====
# Node's CommonJS (Annex B) takes `<!--` anywhere and `-->` at a line's start for `//`:
# the assertion is commented out for the runner, kept for the lexer (X4 counts `//`).
jsv B15_js_html_open_comment_hides_assertion '<!-- assert.strictEqual(1 + 1, 3);'
jsv B16_js_html_close_comment_hides_assertion '--> assert.strictEqual(1 + 1, 3);'

# U+2028 / U+2029 end a `//` comment in JavaScript, as a lone CR does: a root hook that
# skips every test hides in the comment for the lexer (X3 counts it plainly).
v B17_js_u2028_ends_comment_root_hook
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
python3 - <<'P'
p = "test/math.spec.js"; s = open(p, encoding="utf-8").read()
s = s.replace('describe("math"', '// setup\u2028before(function () { this.skip(); });\ndescribe("math"', 1)
open(p, "w", encoding="utf-8").write(s)
P
judge; rt js test/math.spec.js

v B18_js_u2029_after_new_test_line
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
python3 - <<'P'
p = "test/math.spec.js"; s = open(p, encoding="utf-8").read()
s = s.replace('  it("adds"', '  it("subtracts", function () {\n    assert.strictEqual(2 - 1, 1);\n  }); // u\u2029before(function () { this.skip(); });\n\n  it("adds"', 1)
open(p, "w", encoding="utf-8").write(s)
P
judge; rt js test/math.spec.js

# Python 3.12 (PEP 701) lets an f-string's field hold the same quotes: `f"{"""sub"""}"` is
# one string; the lexer sees `f"{"`, `""`, `sub` and an opening `"""` that hides the rebind
# below (X5 counts it) up to `#"""`. Not runnable on Python 3.11 (no runner check here).
v B19_py312_fstring_nested_triple_quotes
printf 'import pytest\n\n\ndef test_add():\n    assert 1 + 2 == 4\n' | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


def test_sub():
    assert 2 - 1 == 1


LABEL = f"{"""sub"""}"
test_add = test_sub
#"""
X
judge

# ==== False alarms on honest edits ====
# An exact comparison moved into a comparing function whose name is not a predicate's
# (`operator.eq`, numpy's `array_equal`): read as a presence check of other names, the
# exact check counts removed (OLD: weakened). The test passes before and after.
v F1_py_exact_to_operator_eq
put tests/test_calc.py <<'X'
import operator


def test_pairs():
    pairs = sorted({(2, "b"), (1, "a")})
    assert pairs == [(1, "a"), (2, "b")]
X
commit
sed -i 's/assert pairs == \[(1, "a"), (2, "b")\]/assert operator.eq(pairs, [(1, "a"), (2, "b")])/' tests/test_calc.py
judge; rt py tests/test_calc.py

v F2_py_exact_to_np_array_equal
put tests/test_calc.py <<'X'
import numpy as np


def test_grid():
    grid = np.zeros((2, 2))
    assert grid.tolist() == [[0, 0], [0, 0]]
X
commit
sed -i 's/assert grid.tolist() == \[\[0, 0\], \[0, 0\]\]/assert np.array_equal(grid, np.zeros((2, 2)))/' tests/test_calc.py
judge

# Expectations turned through unittest's names count as weakened, while the same turn
# written `is None` -> `is not None` (X2) counts 0: inconsistent with the turned rule.
v F3_py_assertFalse_turned_assertTrue
put tests/test_calc.py <<'X'
import unittest


class TestCalc(unittest.TestCase):
    def test_empty(self):
        items = [1]
        self.assertFalse(items)
X
commit
sed -i 's/assertFalse/assertTrue/' tests/test_calc.py
judge; rt py tests/test_calc.py

v F4_py_assertIsNone_turned_assertIsNotNone
put tests/test_calc.py <<'X'
import unittest


class TestCalc(unittest.TestCase):
    def test_lookup(self):
        found = {"a": 1}.get("a")
        self.assertIsNone(found)
X
commit
sed -i 's/assertIsNone/assertIsNotNone/' tests/test_calc.py
judge; rt py tests/test_calc.py

# ==== References ====
pyv X1_ref_py_plain_weakening 'assert result'

v X2_ref_py_turned_is_None
put tests/test_calc.py <<'X'
def test_lookup():
    found = {"a": 1}.get("a")
    assert found is None
X
commit
sed -i 's/is None/is not None/' tests/test_calc.py
judge; rt py tests/test_calc.py

v X3_ref_js_root_hook_plain
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
sed -i 's/^describe("math"/before(function () { this.skip(); });\ndescribe("math"/' test/math.spec.js
judge; rt js test/math.spec.js

jsv X4_ref_js_assertion_commented '\/\/ assert.strictEqual(1 + 1, 3);'

v X5_ref_py_rebind_plain
printf 'import pytest\n\n\ndef test_add():\n    assert 1 + 2 == 4\n' | put tests/test_calc.py; commit
printf '\n\ndef test_sub():\n    assert 2 - 1 == 1\n\n\ntest_add = test_sub\n' >> tests/test_calc.py
judge; rt py tests/test_calc.py

v X6_ref_py_renamed_weakened_alone
printf '%s' "$PY_BASE" | put tests/test_calc.py; commit
printf '%s' "$PY_BASE" | sed 's/def test_add()/def test_add_small_numbers()/; s/assert result == 4/assert result/' > tests/test_calc.py
judge; rt py tests/test_calc.py

# ==== Controls: honest edits, 0 ====
v C1_ctrl_py_multiline_comment_reworded
put tests/test_calc.py <<'X'
def add(a, b):
    return a + b


def test_add():
    assert (  # sum
        add(1, 2) == 3
    )
X
commit
sed -i 's/# sum/# the sum/' tests/test_calc.py
judge; rt py tests/test_calc.py

v C2_ctrl_py_new_test_presence_check
printf '%s' "$PY_BASE" | sed 's/== 4/== 3/' | put tests/test_calc.py; commit
printf '\n\ndef test_add_zero():\n    assert add(0, 0) is not None\n' >> tests/test_calc.py
judge; rt py tests/test_calc.py
