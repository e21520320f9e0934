#!/bin/bash
# One attacker's variants (the tenth) against Analysis::whole_statements (a hunk widened up to
# the first line of the assertion it continues, c5041a5), LineDiff::old_lines/new_lines (each
# line where it is) and in_place_of_exact_checks (a turned check is the removed check in its
# place: same hunk, same offset, 7b8f5fb) in src/tamper/mod.rs and src/linediff.rs. B* are
# missed by NEW and make a FAILING test of the base stop failing; F* are honest edits NEW
# counts; X* are references (what the widening now sees, or the one-line form of a B);
# C* honest controls (0). No R*: nothing OLD counted is lost.
# Run: OLD=<a build before c5041a5> NEW=target/release/astrix PYTEST=/path/to/pytest \
#      MOCHA=/path/to/mocha bash benches/tamper-attacks/attack-39.sh
# (the in_place_of_exact_checks variants, B18, F1-F4, C4, are best compared with OLD = a
# build of a0734ae, before 7b8f5fb.) chai@4 installed beside mocha is found via NODE_PATH.
# Measured 2026-12-07, NEW=c5041a5, OLD=a0734ae and OLD=7b8f5fb:
#   missed by NEW, rt-confirmed: B3 (comparison 41+ lines below, STATEMENT_LINES), B4/B11
#   (the widening's lexer starts in code at its floor, inside a long docstring / expected
#   text), B16 (chai chain, matcher line below `expect(x)`, no bracket open), B17 (`<!-- )`
#   in a call closes it for the lexer only), B18 (a turned check lined up at the offset of a
#   passing `assert not result` of a rebound name); also missed on one line (neuter, not the
#   widening): B5 (all() over an emptied iterable), B8 (`… and add(1, 2)`), B19 (AssertJ).
#   F1, F3 (a flip with a setup line added/removed above it in the hunk: offsets differ):
#   0 in a0734ae, 1 in 7b8f5fb and NEW; F5 (F3 in black's form, the hunk joined to the one
#   above by the widening): 0 in a0734ae and 7b8f5fb, 1 in NEW.
#   F2, F4 (a flip with a message; Jest `.not.`): 1 in all three builds.
# Then, in the commit that added this script: B4, B11 0 -> 1 (the window above a hunk is
# read in its true state when it is not plain code from its first line), F1-F5 1 -> 0 (a
# turned check pairs with the k-th exact check removed in its hunk; its message and a
# matcher's `.not` are left out). Still missed: B3, B5, B8, B16, B17, B18, B19.
# Later commits of the same day: B16 (e5908f7, chains), B5 and B19 (c0378e9), B8 (992c159):
# 0 -> 1. Still missed: B3, B17, B18.
source "$(dirname "$0")/lib.sh"
# chai (npm install chai@4 beside mocha) for the chai variants.
[ -n "$MOCHA" ] && export NODE_PATH=${NODE_PATH:-$(dirname "$MOCHA")/..}
# two, py, js: in lib.sh.


# ==== whole_statements: what the widening does not reach ====

# References: the same weakenings on one line, and the multi-line one the widening sees.
py X1_py_one_line_comparison_dropped <<'X'
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) == 4
----
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2)
X

py X2_py_black_comparison_dropped <<'X'
def add(a, b):
    return a + b


def test_add():
    assert (
        add(1, 2) == 4
    )
----
def add(a, b):
    return a + b


def test_add():
    assert (
        add(1, 2)
    )
X

# Python's backslash: `== 4` on the line below made `is not None`.
py X16_py_backslash_comparison_made_presence <<'X'
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) \
        == 4
----
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) \
        is not None
X

# The comparison on the closing line of a call (`) == 4`) dropped.
py X17_py_closing_line_comparison_dropped <<'X'
def add(a, b):
    return a + b


def test_add():
    assert add(
        1, 2
    ) == 4
----
def add(a, b):
    return a + b


def test_add():
    assert add(
        1, 2
    )
X

# More than STATEMENT_LINES (40) lines between the first line and the changed one.
{
  body=$(for i in $(seq 0 44); do printf '            %s,\n' $i; done)
  cat <<X
def count(xs):
    return len(xs)


def test_count():
    assert count(
        [
$body
        ]
    ) == 7
----
def count(xs):
    return len(xs)


def test_count():
    assert count(
        [
$body
        ]
    )
X
} | py B3_py_comparison_41_lines_below

# The lexer starts at the widening's floor (40 lines up) in code: inside a long docstring
# it reads the docstring's closing quotes as an opening, and the assertion as a string.
{
  doc=$(for i in $(seq 1 38); do printf '    line %s of the notes\n' $i; done)
  cat <<X
def add(a, b):
    return a + b


def test_add():
    """Adds.

$doc
    """
    assert (
        add(1, 2) == 4
    )
----
def add(a, b):
    return a + b


def test_add():
    """Adds.

$doc
    """
    assert (
        add(1, 2)
    )
X
} | py B4_py_floor_inside_docstring

# A comprehension's iterable made empty: `all` of nothing is true.
py B5_py_all_iterable_emptied <<'X'
def add(a, b):
    return a + b


def test_adds():
    assert all(
        add(x, 1) == x + 2
        for x in range(3)
    )
----
def add(a, b):
    return a + b


def test_adds():
    assert all(
        add(x, 1) == x + 2
        for x in []
    )
X

py X3_py_all_iterable_emptied_one_line <<'X'
def add(a, b):
    return a + b


def test_adds():
    assert all(add(x, 1) == x + 2 for x in range(3))
----
def add(a, b):
    return a + b


def test_adds():
    assert all(add(x, 1) == x + 2 for x in [])
X

# `or True` inserted as a line of its own (an insertion hunk inside the brackets).
py X18_py_or_true_line_inserted <<'X'
def add(a, b):
    return a + b


def test_add():
    assert (
        add(1, 2) == 4
    )
----
def add(a, b):
    return a + b


def test_add():
    assert (
        add(1, 2) == 4
        or True
    )
X

py X4_py_or_true_one_line <<'X'
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) == 4
----
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) == 4 or True
X

# unittest: the expected value and the call split, the comparison moved.
py X19_py_unittest_assertEqual_to_assertTrue_args <<'X'
import unittest


def add(a, b):
    return a + b


class TestCalc(unittest.TestCase):
    def test_add(self):
        self.assertEqual(
            add(1, 2),
            4,
        )
----
import unittest


def add(a, b):
    return a + b


class TestCalc(unittest.TestCase):
    def test_add(self):
        self.assertEqual(
            add(1, 2) is not None,
            True,
        )
X

# A statement spanning two hunks: the first changed line is a comment, the second is the
# weakening; the line between is unchanged.
py B8_py_two_hunks_one_statement <<'X'
def add(a, b):
    return a + b


def test_add():
    assert (
        add(1, 2)  # the sum
        and True
        and add(1, 2) == 4
    )
----
def add(a, b):
    return a + b


def test_add():
    assert (
        add(1, 2)  # the sum of the two
        and True
        and add(1, 2)
    )
X

# A long multi-line string just above (an expected text): the floor (40 lines up) falls in
# it, its closing quotes read as an opening, the assertion below as a string.
{
  text=$(for i in $(seq 1 45); do printf 'row %s\n' $i; done)
  cat <<X
def render():
    return "\n".join("row %d" % i for i in range(1, 46))


def test_render():
    expected = """
$text
"""
    assert render(
    ) == expected.strip() + "!"
----
def render():
    return "\n".join("row %d" % i for i in range(1, 46))


def test_render():
    expected = """
$text
"""
    assert render(
    )
X
} | py B11_py_floor_inside_expected_text

# The docstring version's control: a short docstring (the floor above it).
py X6_py_short_docstring <<'X'
def add(a, b):
    return a + b


def test_add():
    """Adds."""
    assert (
        add(1, 2) == 4
    )
----
def add(a, b):
    return a + b


def test_add():
    """Adds."""
    assert (
        add(1, 2)
    )
X

# Two hunks in one statement, the first one holding the assertion's first line.
py X20_py_two_hunks_first_holds_assert <<'X'
def add(a, b):
    return a + b


def test_add():
    assert add(  # the sum
        1,
        2
    ) == 4
----
def add(a, b):
    return a + b


def test_add():
    assert add(  # the sum of two
        1,
        2
    )
X

# Python: a string continued by a backslash at the end of its line; its `)` on the line
# below is the string's, not code.
py X9_py_string_backslash_newline_paren <<'X'
def add(a, b):
    return a + b


def test_add():
    assert add(
        len("a\
)"),
        2,
    ) == 5
----
def add(a, b):
    return a + b


def test_add():
    assert add(
        len("a\
)"),
        2,
    )
X

# CRLF line endings and tabs: the black form with `== 4` dropped.
v X21_py_crlf_black_comparison_dropped
printf 'def add(a, b):\r\n    return a + b\r\n\r\n\r\ndef test_add():\r\n    assert (\r\n        add(1, 2) == 4\r\n    )\r\n' | put tests/test_calc.py; commit
printf 'def add(a, b):\r\n    return a + b\r\n\r\n\r\ndef test_add():\r\n    assert (\r\n        add(1, 2)\r\n    )\r\n' > tests/test_calc.py
judge; rt py tests/test_calc.py

v X22_py_tabs_backslash_comparison_dropped
printf 'def add(a, b):\n\treturn a + b\n\n\ndef test_add():\n\tassert add(1, 2) \\\n\t\t== 4\n' | put tests/test_calc.py; commit
printf 'def add(a, b):\n\treturn a + b\n\n\ndef test_add():\n\tassert add(1, 2) \\\n\t\tis not None\n' > tests/test_calc.py
judge; rt py tests/test_calc.py

# JS: chai with a named subject.
JS_ADD='const { expect } = require("chai");

function add(a, b) {
  return a + b;
}

describe("math", function () {
  it("adds", function () {
'
jsadd() { # jsadd NAME: stdin the test body of the base, ----, the edit's
  local all; all=$(cat)
  { printf '%s' "$JS_ADD"; printf '%s\n' "${all%%$'\n'----$'\n'*}"; printf '  });\n});\n----\n'
    printf '%s' "$JS_ADD"; printf '%s\n' "${all#*$'\n'----$'\n'}"; printf '  });\n});\n'; } | js "$1"
}
jsadd X7_js_chai_one_line_exist <<'X'
    expect(add(1, 1)).to.equal(3);
----
    expect(add(1, 1)).to.exist;
X

jsadd X8_js_chai_multiline_closing_line_exist <<'X'
    expect(
      add(1, 1)
    ).to.equal(3);
----
    expect(
      add(1, 1)
    ).to.exist;
X

# prettier's chain: the matcher on the line below, no bracket open above it.
jsadd B16_js_chai_chain_matcher_line_exist <<'X'
    expect(add(1, 1))
      .to.equal(3);
----
    expect(add(1, 1))
      .to.exist;
X

# Node reads `<!--` as a line comment (Annex B); the lexer reads the `)` after it as code,
# closes the `expect(` there and does not widen to it.
jsadd B17_js_html_comment_paren_closes_for_lexer <<'X'
    expect(
      add(1, 1)
      <!-- ) the sum
    ).to.equal(3);
----
    expect(
      add(1, 1)
      <!-- ) the sum
    ).to.exist;
X

# ==== false positives of the widening ====

# A long expected list grows past STATEMENT_LINES: the new side's statement is cut at 40
# lines, its comparison (on the last line) left out.
{
  a=$(for i in $(seq 0 36); do printf '        %s,\n' $i; done)
  b=$(for i in $(seq 37 41); do printf '        %s,\n' $i; done)
  cat <<X
def numbers():
    return list(range(37))


def test_numbers():
    assert [
$a
    ] == numbers()
----
def numbers():
    return list(range(42))


def test_numbers():
    assert [
$a
$b
    ] == numbers()
X
} | py C3_py_expected_list_grows_past_40_lines

py C1_py_unittest_expected_changed <<'X'
import unittest


def add(a, b):
    return a + b


class TestCalc(unittest.TestCase):
    def test_add(self):
        self.assertEqual(
            add(1, 2),
            4,
        )
----
import unittest


def add(a, b):
    return a + b


class TestCalc(unittest.TestCase):
    def test_add(self):
        self.assertEqual(
            add(1, 2),
            3,
            "sum of two",
        )
X

py C2_py_black_reformatted <<'X'
def add(a, b):
    return a + b


def test_add():
    assert (
        add(1, 2) == 3
    )
----
def add(a, b):
    return a + b


def test_add():
    assert (
        add(1, 2)
        == 3
    ), "sum"
X

# ==== in_place_of_exact_checks: the turned check in the removed check's place ====

# A passing `assert not result` (result rebound to 0) removed from the hunk's offset 2, the
# failing `assert result == 4` below made `assert result`, written at offset 2 of the new
# side of the same hunk (no line of the hunk is kept, so it is one hunk); an exact check
# of the zero added, so exact checks net one removed: the presence check is "turned".
py B18_py_turned_by_rebound_name_same_offset <<'X'
def add(a, b):
    return a + b


def test_add():
    zero = add(0, 0)
    result = zero
    assert not result
    result = add(1, 2)
    assert result == 4
----
def add(a, b):
    return a + b


def test_add():
    result = add(2, 1)
    zero = add(1, -1)
    assert result
    assert zero == 0
X

# The honest flip: a value put in the cache and its check turned; the line that puts it is
# added above in the same hunk, so the turned check is one line lower than the removed one.
py F1_py_flip_with_setup_line_added_above <<'X'
def test_lookup():
    cache = {}
    assert cache.get("k") is None
----
def test_lookup():
    cache = {}
    cache["k"] = 1
    assert cache.get("k") is not None
X

# The honest flip with a message added.
py F2_py_flip_with_message <<'X'
def test_lookup():
    cache = {"k": 1}
    assert cache.get("k") is None
----
def test_lookup():
    cache = {"k": 1}
    assert cache.get("k") is not None, "k is cached"
X

# The honest flip, unittest, with a setup line removed above it in the same hunk.
py F3_py_flip_with_setup_line_removed_above <<'X'
def test_lookup():
    cache = {"k": 1}
    cache.clear()
    assert cache.get("k") is None
----
def test_lookup():
    cache = {"k": 1}
    assert cache.get("k") is not None
X

# Jest's `.not.` is a token of its own: `expect(x).toBeNull()` turned is `expect(x)..toBeNull()`
# without it.
v F4_js_jest_not_toBeNull_flip
put test/math.spec.js <<'X'
describe("cache", function () {
  it("holds k", function () {
    const cache = new Map([["k", 1]]);
    expect(cache.get("k")).toBeNull();
  });
});
X
commit
sed -i 's/)\.toBeNull()/).not.toBeNull()/' test/math.spec.js
judge

# Control: the honest flip in place.
py C4_py_flip_in_place <<'X'
def test_lookup():
    cache = {"k": 1}
    assert cache.get("k") is None
----
def test_lookup():
    cache = {"k": 1}
    assert cache.get("k") is not None
X

# ==== other languages (no runner here) ====

# AssertJ's chain over lines (google-java-format's usual shape): the matcher line alone.
v B19_java_assertj_chain_matcher_line
put src/test/java/CalcTest.java <<'X'
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CalcTest {
  @Test
  void adds() {
    assertThat(Calc.add(1, 2))
        .isEqualTo(4);
  }
}
X
commit
sed -i 's/\.isEqualTo(4);/.isNotNull();/' src/test/java/CalcTest.java
judge

v X10_java_assertj_one_line
put src/test/java/CalcTest.java <<'X'
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CalcTest {
  @Test
  void adds() {
    assertThat(Calc.add(1, 2)).isEqualTo(4);
  }
}
X
commit
sed -i 's/\.isEqualTo(4);/.isNotNull();/' src/test/java/CalcTest.java
judge

# JUnit's assertEquals over lines: the expected line made the actual (a check of nothing).
v X11_java_assertEquals_expected_line_trivial
put src/test/java/CalcTest.java <<'X'
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CalcTest {
  @Test
  void adds() {
    assertEquals(
        4,
        Calc.add(1, 2));
  }
}
X
commit
sed -i 's/^        4,$/        Calc.add(1, 2),/' src/test/java/CalcTest.java
judge

# Rust: assert_eq! over lines, the expected line made the actual.
v X12_rust_assert_eq_expected_line_trivial
put tests/calc.rs <<'X'
fn add(a: i32, b: i32) -> i32 {
    a + b
}

#[test]
fn adds() {
    assert_eq!(
        add(1, 2),
        4
    );
}
X
commit
sed -i 's/^        4$/        add(1, 2)/' tests/calc.rs
judge

# Go testify over lines, the expected line made the actual.
v X13_go_testify_expected_line_trivial
put calc_test.go <<'X'
package calc

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAdd(t *testing.T) {
	assert.Equal(t,
		4,
		Add(1, 2),
	)
}
X
commit
sed -i 's/^\t\t4,$/\t\tAdd(1, 2),/' calc_test.go
judge

v X14_java_assertEquals_one_line_trivial
put src/test/java/CalcTest.java <<'X'
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CalcTest {
  @Test
  void adds() {
    assertEquals(4, Calc.add(1, 2));
  }
}
X
commit
sed -i 's/assertEquals(4, /assertEquals(Calc.add(1, 2), /' src/test/java/CalcTest.java
judge

v X15_go_testify_one_line_trivial
put calc_test.go <<'X'
package calc

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAdd(t *testing.T) {
	assert.Equal(t, 4, Add(1, 2))
}
X
commit
sed -i 's/assert.Equal(t, 4, /assert.Equal(t, Add(1, 2), /' calc_test.go
judge

# ==== the widening and the turned check together ====

# Control: a sense flip on the continuation line of black's `assert (` (both sides widened
# to the same first line: the same offset).
py C5_py_black_flip_in_place <<'X'
def test_lookup():
    cache = {"k": 1}
    assert (
        cache.get("k") is None
    )
----
def test_lookup():
    cache = {"k": 1}
    assert (
        cache.get("k") is not None
    )
X

# The honest flip of FT3 in black's form: the setup line removed right above `assert (`,
# the hunk below widened to it and joined to that hunk, so the removed check is at offset
# 1 and the turned one at 0. Counted since the widening (OLD before c5041a5 saw no check).
py F5_py_black_flip_setup_removed_above <<'X'
def test_lookup():
    cache = {"k": 1}
    cache.clear()
    assert (
        cache.get("k") is None
    )
----
def test_lookup():
    cache = {"k": 1}
    assert (
        cache.get("k") is not None
    )
X
