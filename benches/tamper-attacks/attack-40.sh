#!/bin/bash
# One attacker's variants (the eleventh) against the rules of 7b8f5fb..e5908f7:
# in_place_of_exact_checks (a turned check pairs the k-th exact check removed in a hunk with
# the k-th presence check added there), Analysis::whole_statements and continued (a statement
# read on over brackets, `\`, and a method chain: `.name` starting the next line or `.` ending
# this one), neuter::kind_of_a_boolean / is_boolean / always_true (a check of a boolean's
# kind checks nothing). B* make a FAILING test of the base pass and are missed by NEW; R* the
# same, counted by OLD; F* honest edits NEW counts; C* honest controls (0); X* references.
# Run: OLD=<build of 7b8f5fb> NEW=<build of e5908f7> PYTEST=/path/to/pytest \
#      MOCHA=/path/to/mocha bash benches/tamper-attacks/attack-40.sh
# (R1 and F1-F4 are best compared with OLD = a build of a0734ae as well.)
# Measured 2026-12-07, NEW=e5908f7, OLD=7b8f5fb (and a0734ae where said); rt = pytest/mocha.
#   R1 (OLD 1 weakened, NEW 0, a0734ae 0; rt failing -> passing): the passing `assert not
#   len(cache)` (rank 0 of the exact checks removed) made a side-effecting exact check, the
#   failing `len(cache) == 2` made `assert len(cache)` (rank 0 of the presence checks added):
#   "turned" by the rank pairing (attack-39 B18 without a rebound name).
#   missed by NEW and OLD (0, rt failing -> passing where a runner exists):
#   kind of a boolean not recognised (neuter): B1 `type(r == 4) is bool`, B2
#   assertIsInstance(r == 4, bool), B3 assertIn(r == 4, (True, False)), B4 isinstance(r == 4,
#   (bool,)), B4b isinstance(r == 4, int), B5 `(r == 4) >= False`, B6 assert.strictEqual(typeof
#   (r === 3), "boolean"), B7 assert.notStrictEqual(r === 3, undefined), B8 chai
#   expect(r === 3).to.be.a("boolean"), B9 assert.ok(String(r === 3)), B10 assert.ok({ s: r ===
#   3 }); B11 33 brackets around `r == 4` before `is not None` (too_deep: MAX_NESTING = 32;
#   Python nests to 200). X1, X2: the forms kind_of_a_boolean knows (1).
#   chains / the window: B12 chai chain with a comment line between subject and matcher, B13
#   with a blank line, B14 a comment line inserted above the matcher on the new side only,
#   B15 the matcher line starting `?.`, B16 a division first on a line inside expect( read as
#   a regex by lex::regex_may_start (`/ (2` hides the `(`, the `)` below closes expect( for the
#   window), B17/B17b gomega `Expect(x).`, then a comment / blank line, then the matcher (no
#   Go runner). X3-X5: the forms the widening follows (1).
#   sense inverted (every build, by design?): B19 `== 4` -> `!= 4`, B20 chai `.to.not.equal(3)`.
#   honest edits counted (F; rt passing -> passing), a0734ae / OLD / NEW: F1 a value changed
#   above a flip in one hunk 0/0/1; F2 the same with the flip in black's `assert (`, the two
#   hunks joined by the widening 0/0/1; F3 a new presence check of another value above a flip
#   0/1/1; F4 two flips with a changed value between 0/0/1 (F1-F4: the k-th pairing counts
#   every exact check removed and every presence check added in the hunk, not only flips);
#   F5 TypeScript `get<number>("k") === undefined` -> `!==`, F6 Java `cache.<Integer>get("k")
#   == null` -> `!= null`: OLD 0, NEW 1 (is_boolean reads a generic's `<` as a comparison, so
#   kind_of_a_boolean calls it a check of nothing); F7-F10 flips never "turned" (1 in every
#   build): `== None` -> `!= None` (unnegated drops the `!` of `!=`, leaving `=`),
#   assertIsNone -> assertIsNotNone, Jest toBeUndefined -> toBeDefined, assertNull ->
#   assertNotNull.
#   controls 0: C1 a chain split over lines, C2 a promise chain `.then` with a check added
#   inside, C3 a chain with a check added, C4 a Go chain joined, C5 a Go chain's expected
#   value changed, C6 a flip above a changed value (rank 0 = rank 0). X6 a chai chain in a
#   CR-only file: 1.
# Then, in the commit that added this script (a turned check is the removed check at the
# same place among ALL the hunk's assertions, counted from the hunk's start or its end;
# `!=` turned is `==`; assertIsNotNone/assertNotNull/toBeDefined are the other sense of
# assertIsNone/assertNull/toBeUndefined; a generic's `<…>` compares nothing): R1 0 -> 1,
# F1-F10 1 -> 0. The guard scan (place::keeps_its_checks, per def, and 200 lines below a
# guard at most) made the two timings below 10.7 s -> 0.29 s and 5.2 s -> 0.30 s. Still
# missed: B1-B17, B19, B20 (B11 counted since the commit after: a condition nested deeper
# than MAX_NESTING reads as a check of nothing; B12-B14, B17, B17b since the one after that:
# a blank or comment line inside a chain does not end it; B1, B15 since the next: `type(…)
# is bool` of a boolean, a chain line starting `?.`).
# B2-B10 counted since the session after (2026-12-07): a boolean's kind checked through
# unittest, node's assert or a matcher, its other kinds and bounds, values never empty.
#   No panic or hang found. Timing (scratch, not in this script): 5,000 black-form `== i`
#   dropped below a 10,000-line docstring: NEW 5.2 s (5,000 weakened; OLD 0.02 s, 0); 10,000
#   one-line `== i` dropped: OLD 10.7 s, NEW 11.5 s; a 10,000-line chai chain, 20,000-deep
#   brackets, a 10,000-line Go `.` chain, CRLF / CR-only chains: instant.
source "$(dirname "$0")/lib.sh"
[ -n "$MOCHA" ] && export NODE_PATH=${NODE_PATH:-$(dirname "$MOCHA")/..}
# two, py, js: in lib.sh.


# pyadd NAME NEWLINE: `assert add(1, 2) == 4` (fails) made NEWLINE.
pyadd() {
  py "$1" <<X
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) == 4
----
def add(a, b):
    return a + b


def test_add():
    $2
X
}
# pyut NAME NEWLINE: unittest's `self.assertEqual(add(1, 2), 4)` made NEWLINE.
pyut() {
  py "$1" <<X
import unittest


def add(a, b):
    return a + b


class T(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(1, 2), 4)
----
import unittest


def add(a, b):
    return a + b


class T(unittest.TestCase):
    def test_add(self):
        $2
X
}
# jsone NAME NEWLINE: node's `assert.strictEqual(1 + 1, 3)` made NEWLINE (chai's expect too).
jsone() {
  js "$1" <<X
const assert = require("assert");
const { expect } = require("chai");

describe("math", function () {
  it("adds", function () {
    assert.strictEqual(1 + 1, 3);
  });
});
----
const assert = require("assert");
const { expect } = require("chai");

describe("math", function () {
  it("adds", function () {
    $2
  });
});
X
}
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
GO='package calc

import (
	"testing"

	. "github.com/onsi/gomega"
)

func TestAdd(t *testing.T) {
	g := NewWithT(t)
'
goadd() { # goadd NAME: stdin the test body of the base, ----, the edit's (no runner)
  local all; all=$(cat)
  { printf '%s' "$GO"; printf '%s\n' "${all%%$'\n'----$'\n'*}"; printf '}\n----\n'
    printf '%s' "$GO"; printf '%s\n' "${all#*$'\n'----$'\n'}"; printf '}\n'; } | two "$1" calc_test.go ""
}

# ==== kind_of_a_boolean / always_true: a boolean's kind checked other ways ====

pyadd X1_py_is_not_none_of_a_comparison 'assert (add(1, 2) == 4) is not None'
pyadd B1_py_type_of_a_comparison_is_bool 'assert type(add(1, 2) == 4) is bool'
pyut B2_py_assertIsInstance_comparison_bool 'self.assertIsInstance(add(1, 2) == 4, bool)'
pyut B3_py_assertIn_comparison_true_false 'self.assertIn(add(1, 2) == 4, (True, False))'
pyadd B4_py_isinstance_comparison_bool_tuple 'assert isinstance(add(1, 2) == 4, (bool,))'
pyadd B4b_py_isinstance_comparison_int 'assert isinstance(add(1, 2) == 4, int)'
pyadd B5_py_comparison_ge_false 'assert (add(1, 2) == 4) >= False'
jsone X2_js_ok_comparison_ne_undefined 'assert.ok((1 + 1 === 3) !== undefined);'
jsone B6_js_strictEqual_typeof_comparison 'assert.strictEqual(typeof (1 + 1 === 3), "boolean");'
jsone B7_js_notStrictEqual_comparison_undefined 'assert.notStrictEqual(1 + 1 === 3, undefined);'
jsone B8_js_chai_comparison_a_boolean 'expect(1 + 1 === 3).to.be.a("boolean");'
jsone B9_js_ok_String_of_comparison 'assert.ok(String(1 + 1 === 3));'
jsone B10_js_ok_object_literal 'assert.ok({ sum: 1 + 1 === 3 });'

# The guard against deep nesting: 33 brackets (MAX_NESTING is 32) and nothing is read.
o=$(printf '(%.0s' $(seq 33)); c=$(printf ')%.0s' $(seq 33))
pyadd B11_py_33_brackets_is_not_none "assert ${o}add(1, 2) == 4${c} is not None"

# ==== continued / whole_statements: chains the reader does not follow ====

jsadd X3_js_chai_chain_matcher_line <<'X'
    expect(add(1, 1))
      .to.equal(3);
----
    expect(add(1, 1))
      .to.exist;
X

jsadd B12_js_chai_chain_comment_line_between <<'X'
    expect(add(1, 1))
      // the sum
      .to.equal(3);
----
    expect(add(1, 1))
      // the sum
      .to.exist;
X

jsadd B13_js_chai_chain_blank_line_between <<'X'
    expect(add(1, 1))

      .to.equal(3);
----
    expect(add(1, 1))

      .to.exist;
X

# The old side's chain is whole; the new side's is cut by the comment line it adds.
jsadd B14_js_chai_chain_comment_inserted_new_side <<'X'
    expect(add(1, 1))
      .to.equal(3);
----
    expect(add(1, 1))
      // loosened
      .to.exist;
X

jsadd B15_js_chai_chain_optional_dot <<'X'
    expect(add(1, 1))
      .to.equal(3);
----
    expect(add(1, 1))
      ?.to.exist;
X

# lex::regex_may_start: a `/` first on its line starts a regex for the lexer (a division
# here), which hides `(2`; the `)` of `+ 0)` below then closes `expect(` for the window.
jsadd B16_js_division_first_on_line_read_as_regex <<'X'
    expect(
      add(2, 2)
        / (2
        + 0) / 1
    ).to.equal(3);
----
    expect(
      add(2, 2)
        / (2
        + 0) / 1
    ).to.exist;
X

jsadd X4_js_division_first_on_line_balanced <<'X'
    expect(
      add(2, 2)
        / (1 + 1)
    ).to.equal(3);
----
    expect(
      add(2, 2)
        / (1 + 1)
    ).to.exist;
X

goadd X5_go_gomega_dot_chain <<'X'
	g.Expect(Add(1, 1)).
		To(Equal(3))
----
	g.Expect(Add(1, 1)).
		NotTo(BeNil())
X

goadd B17_go_gomega_dot_chain_comment_line <<'X'
	g.Expect(Add(1, 1)).
		// the sum
		To(Equal(3))
----
	g.Expect(Add(1, 1)).
		// the sum
		NotTo(BeNil())
X

goadd B17b_go_gomega_dot_chain_blank_line <<'X'
	g.Expect(Add(1, 1)).

		To(Equal(3))
----
	g.Expect(Add(1, 1)).

		NotTo(BeNil())
X

# ==== in_place_of_exact_checks: a turned check that is not one ====

# The passing `assert not len(cache)` (rank 0 of the exact checks removed) made an exact
# check that fills the cache; the failing `len(cache) == 2` made `assert len(cache)` (rank 0
# of the presence checks added): equal to the first without `not`, so "turned".
py R1_py_turned_by_side_effecting_exact_check <<'X'
def test_cache():
    cache = {}
    assert not len(cache)
    assert len(cache) == 2
----
def test_cache():
    cache = {}
    assert cache.setdefault("k", 1) == 1
    assert len(cache)
X

# The sense inverted (a changed expectation for the tool, in every build).
pyadd B19_py_eq_made_ne 'assert add(1, 2) != 4'
jsadd B20_js_chai_equal_made_not_equal <<'X'
    expect(add(1, 1)).to.equal(3);
----
    expect(add(1, 1)).to.not.equal(3);
X

# ==== false positives: honest flips the rank pairing misses ====

# A value changed above a flip in the same hunk: its exact check is rank 0, the flip's
# removed check rank 1, the flip rank 0 of the presence checks.
py F1_py_value_changed_above_flip <<'X'
def test_lookup():
    cache = {}
    assert len(cache) == 0
    assert cache.get("k") is None
----
def test_lookup():
    cache = {"k": 1}
    assert len(cache) == 1
    assert cache.get("k") is not None
X

# F1 with the flip in black's form: two hunks, joined by the widening (the second widened
# up to `assert (`, the end of the first).
py F2_py_value_changed_above_black_flip_joined <<'X'
def test_lookup():
    cache = {}
    assert len(cache) == 0
    assert (
        cache.get("k") is None
    )
----
def test_lookup():
    cache = {"k": 1}
    assert len(cache) == 1
    assert (
        cache.get("k") is not None
    )
X

# A new presence check of another value above the flip takes rank 0 of the presence checks.
py F3_py_presence_check_added_above_flip <<'X'
def test_lookup(tmp_path):
    cache = {}
    assert cache.get("k") is None
----
def test_lookup(tmp_path):
    cache = {"k": 1}
    assert tmp_path.exists()
    assert cache.get("k") is not None
X

py F4_py_two_flips_value_changed_between <<'X'
def test_lookup():
    cache = {}
    assert cache.get("a") is None
    assert len(cache) == 0
    assert cache.get("b") is None
----
def test_lookup():
    cache = {"a": 1, "b": 2}
    assert cache.get("a") is not None
    assert len(cache) == 2
    assert cache.get("b") is not None
X

# is_boolean reads a generic's `<` as a comparison: `get<number>("k") !== undefined` is a
# "boolean's kind" check, trivial, so the honest flip counts (the same without <number>: 0).
two F5_ts_generic_flip_to_not_undefined test/cache.spec.ts "" <<'X'
import assert from "node:assert";
import { Cache } from "../src/cache";

it("holds k", () => {
  const cache = new Cache();
  assert.ok(cache.get<number>("k") === undefined);
});
----
import assert from "node:assert";
import { Cache } from "../src/cache";

it("holds k", () => {
  const cache = new Cache();
  cache.set("k", 1);
  assert.ok(cache.get<number>("k") !== undefined);
});
X

two F6_java_generic_flip_to_not_null src/test/java/CacheTest.java "" <<'X'
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;

class CacheTest {
  @Test
  void holdsK() {
    Cache cache = new Cache();
    assertTrue(cache.<Integer>get("k") == null);
  }
}
----
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;

class CacheTest {
  @Test
  void holdsK() {
    Cache cache = new Cache();
    cache.put("k", 1);
    assertTrue(cache.<Integer>get("k") != null);
  }
}
X

# Flips that unnegated does not see as turned (every build).
py F7_py_eq_none_flipped_to_ne_none <<'X'
def test_lookup():
    cache = {}
    assert cache.get("k") == None
----
def test_lookup():
    cache = {"k": 1}
    assert cache.get("k") != None
X

py F8_py_assertIsNone_to_assertIsNotNone <<'X'
import unittest


class T(unittest.TestCase):
    def test_lookup(self):
        cache = {}
        self.assertIsNone(cache.get("k"))
----
import unittest


class T(unittest.TestCase):
    def test_lookup(self):
        cache = {"k": 1}
        self.assertIsNotNone(cache.get("k"))
X

two F9_jest_toBeUndefined_to_toBeDefined test/cache.test.js "" <<'X'
it("holds k", function () {
  const cache = new Map();
  expect(cache.get("k")).toBeUndefined();
});
----
it("holds k", function () {
  const cache = new Map([["k", 1]]);
  expect(cache.get("k")).toBeDefined();
});
X

two F10_java_assertNull_to_assertNotNull src/test/java/CacheTest.java "" <<'X'
import static org.junit.jupiter.api.Assertions.*;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CacheTest {
  @Test
  void holdsK() {
    Map<String, Integer> cache = Map.of();
    assertNull(cache.get("k"));
  }
}
----
import static org.junit.jupiter.api.Assertions.*;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CacheTest {
  @Test
  void holdsK() {
    Map<String, Integer> cache = Map.of("k", 1);
    assertNotNull(cache.get("k"));
  }
}
X

# ==== controls ====

jsadd C1_js_chai_chain_split_over_lines <<'X'
    expect(add(1, 1)).to.be.a("number").and.equal(2);
----
    expect(add(1, 1))
      .to.be.a("number")
      .and.equal(2);
X

jsadd C2_js_promise_chain_check_added <<'X'
    return Promise.resolve(add(1, 1))
      .then((sum) => {
        expect(sum).to.equal(2);
      });
----
    return Promise.resolve(add(1, 1))
      .then((sum) => {
        expect(sum).to.be.a("number");
        expect(sum).to.equal(2);
      });
X

jsadd C3_js_chai_chain_check_added <<'X'
    expect(add(1, 1))
      .to.be.a("number")
      .and.equal(2);
----
    expect(add(1, 1))
      .to.be.a("number")
      .and.be.above(1)
      .and.equal(2);
X

goadd C4_go_gomega_chain_joined <<'X'
	g.Expect(Add(1, 1)).
		To(Equal(2))
----
	g.Expect(Add(1, 1)).To(Equal(2))
X

goadd C5_go_gomega_chain_expected_changed <<'X'
	g.Expect(Add(1, 1)).
		To(Equal(3))
----
	g.Expect(Add(1, 1)).
		To(Equal(2))
X

py C6_py_flip_above_value_changed <<'X'
def test_lookup():
    cache = {}
    assert cache.get("k") is None
    assert len(cache) == 0
----
def test_lookup():
    cache = {"k": 1}
    assert cache.get("k") is not None
    assert len(cache) == 1
X

# A chai chain in a file with CR-only line ends (one line for git): counted.
v X6_js_chai_chain_cr_only_file
printf 'const { expect } = require("chai");\rfunction add(a, b) {\r  return a + b;\r}\rdescribe("math", function () {\r  it("adds", function () {\r    expect(add(1, 1))\r      .to.equal(3);\r  });\r});\r' | put test/math.spec.js; commit
printf 'const { expect } = require("chai");\rfunction add(a, b) {\r  return a + b;\r}\rdescribe("math", function () {\r  it("adds", function () {\r    expect(add(1, 1))\r      .to.exist;\r  });\r});\r' > test/math.spec.js
judge; rt js test/math.spec.js
