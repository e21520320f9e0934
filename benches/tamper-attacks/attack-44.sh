#!/bin/bash
# One attacker's variants (the fifteenth) against d750602 and 5cc3b3c: a removed exact check
# (made an existence check in its hunk) counts as moved, not weakened, when an equal copy
# (canonical_ranked: sides sorted, strings kept) is added in another hunk where it runs in a
# test (runs_in_a_test: test body, no if/try/raises/callback/nested function around, no
# return/raise/throw/skip/assume above, no skipped test or suite) and asks as much (rank:
# identity > strict deep > toEqual > loose). Attacked: what runs_in_a_test lets through
# (control flow it does not read, context managers and hooks under other names, tests that
# never run for reasons above their head), its word tests on lines it reads as code
# (docstrings, strings, names), and ranks/keys that call a weaker check as strong.
# B* make a FAILING test of the base pass and NEW counts 0 for every tampering kind; F*
# honest edits (base and edit both pass) that NEW counts; X* references (counted).
# Run: OLD=/tmp/astrix-s80 NEW=/tmp/astrix-s86 PYTEST=/path/to/pytest \
#      MOCHA=/path/to/mocha bash benches/tamper-attacks/attack-44.sh
# Optional: EXPECT_NODE_PATH (jest's standalone `expect`; unused here). B21, B22, F8 are Java,
# counted only (no runner); their JUnit behaviour is documented, not run.
# Measured 2026-12-07, OLD=34137ad (/tmp/astrix-s80), NEW=5cc3b3c (/tmp/astrix-s86); pytest 9,
# mocha + chai 4.
#   Bypasses, NEW 0 in every kind (OLD 0 as well, but for B19), base FAILED -> edit PASSED
#   (X1/X2: the same edit without the copy counts weakened 1, OLD and NEW):
#   a copy behind control flow runs_in_a_test does not read: B1 `for _ in range(1): if r
#   != 4: continue` above it; B2 `for _ in range(0):` (X5 of attack-43, `for _ in ():`, is
#   caught); B5 JS `check: { if (r !== 4) break check; … }`.
#   a copy whose failure is swallowed by a block under another name: B3 `with quietly(
#   AssertionError):` (`from contextlib import suppress as quietly`); B4 `with Quiet():`,
#   a class whose `__exit__` returns True.
#   a copy in an existing test that never runs, for a reason above its head or beside it:
#   B6 `@pytest.mark.parametrize("n", [])`; B7 `pytestmark = pytest.mark.skip` in the class
#   body; B8 `setup_method` calling `pytest.skip`; B9 a `def test_…` nested in a helper
#   function; B10 `test_x.__test__ = False`; B11 tests under `if os.environ.get("SLOW"):`;
#   B12 mocha `before(function () { this.skip(); })` in the suite; B13 a suite under
#   `if (process.env.SLOW) {`; B14 `const test = process.env.SLOW ? it : it.skip` (the plain
#   alias `const later = it.skip` is caught: NEW 1); B15 a callback test that calls
#   `done()` before the copy (mocha ignores the throw after done).
#   a copy ranked as asking as much that asks less: B16 chai `.to.equal(0)` (===) for node
#   `strictEqual(r, 0)` (Object.is: -0 fails, === passes); B17 chai `.deep.equal` for
#   `deepStrictEqual` (chai ignores the prototype; both ranked strict deep); B18 a chain
#   whose string is on a continuation line (`expect(s)\n  .to.equal("error")` moves
#   `.to.equal("failed")`: statement_literals reads the first line only; X3, the copy on one
#   line: OLD 0, NEW 1); B19 unittest `assertSequenceEqual(r, [1, 2])` for `assert r == [1, 2]`
#   (passes for a tuple; OLD counted 1: a NEW regression); B20 JUnit `assertEquals(0.25,
#   r, 0.1)` for `assertEquals(0.25, r)` (the delta is dropped as a message; count only);
#   B21 JUnit 4 `assertEquals("sum", 4, r + 1)` for `assertEquals("sum", 4, r)` (message
#   first: the actual is the dropped third argument; X4, no copy: 1; count only).
#   False findings, base and edit PASSED, OLD 0 -> NEW weakened 1 (an honest move below a
#   guard, not read as running): F1 a test docstring line `Blank lines are skipped.` (read
#   as code: calls_a_skip_at_top); F2 a test named `test_parse_skips_blank_lines`
#   (names_a_skip on the head; also todo/ignore/pending/disabled); F3 `class TestTodoList`;
#   F4 a nested `def double(x): return 2 * x` above the copy; F5 a triple-quoted string
#   whose lines start at column 0 (`textwrap.dedent` style: read as a block head); F6
#   `kept, skipped = split(…)`; F7 JS `[1, 2].map((n) => {\n return …; })` above the copy;
#   F8 JUnit 5 `@Test` + `@DisplayName` (the nearest annotation is not a test's); F9
#   `describe(PendingQueue.name, …)`. F10 a black-exploded dict with its magic trailing comma
#   (`{\n "name": "a",\n "size": 1,\n}`): OLD and NEW 1 (the comma is part of the key).
# Then, in 973a204 (OLD=5cc3b3c, NEW=973a204): runs_in_a_test rewritten in
# tamper/stands.rs (lexer states; up to the test, then its marks and the blocks around it,
# then down the test for what ends it first) and the ranks split (Object.is above ===,
# chai's deep equality below strict deep equality, assertSequenceEqual, JUnit's delta and
# message): B1-B9, B11-B13, B15-B21 0 -> 1; F1-F10 1 -> 0. Still missed: B10 (a test made
# no test by `__test__ = False` in the base), B14 (`cond ? it : it.skip`).
source "$(dirname "$0")/lib.sh"
[ -n "$MOCHA" ] && export NODE_PATH=${NODE_PATH:-$(dirname "$MOCHA")/..}

# ==== references: the existence check without a copy ====
py X1_py_made_not_none_no_copy <<'X'
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0
----
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0
X
js X2_js_made_exist_no_copy <<'X'
const assert = require("assert");
const { expect } = require("chai");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    const r = add(1, 2);
    assert.strictEqual(r, 4);
    expect(r).to.be.above(0);
  });
});
----
const assert = require("assert");
const { expect } = require("chai");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    const r = add(1, 2);
    expect(r).to.exist;
    expect(r).to.be.above(0);
  });
});
X

# ==== control flow runs_in_a_test does not read: only return/raise/throw/exit/skip/assume
# end a test, and only if/while/try/… heads may skip; continue, break, an empty range ====
py B1_py_copy_after_conditional_continue <<'X'
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0
----
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0
    for _ in range(1):
        if r != 4:
            continue
        assert r == 4
X
py B2_py_copy_in_for_over_range0 <<'X'
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0
----
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0
    for _ in range(0):
        assert r == 4
X
py B3_py_copy_under_suppress_alias <<'X'
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0
----
from contextlib import suppress as quietly


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0
    with quietly(AssertionError):
        assert r == 4
X
py B4_py_copy_under_swallowing_context_manager <<'X'
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0
----
def add(a, b):
    return a + b


class Quiet:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return True


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0
    with Quiet():
        assert r == 4
X
js B5_js_copy_after_labeled_break <<'X'
const assert = require("assert");
const { expect } = require("chai");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    const r = add(1, 2);
    assert.strictEqual(r, 4);
    expect(r).to.be.above(0);
  });
});
----
const assert = require("assert");
const { expect } = require("chai");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    const r = add(1, 2);
    expect(r).to.exist;
    expect(r).to.be.above(0);
    check: {
      if (r !== 4) break check;
      assert.strictEqual(r, 4);
    }
  });
});
X

# ==== a copy added to an existing test that never runs, for a reason runs_in_a_test does
# not look at: above a test's head it reads only heads' skip words ====
py B6_py_copy_in_test_with_empty_parametrize <<'X'
import pytest


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0


@pytest.mark.parametrize("n", [])
def test_add_more(n):
    r = add(1, 2)
    assert r + n > 0
----
import pytest


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0


@pytest.mark.parametrize("n", [])
def test_add_more(n):
    r = add(1, 2)
    assert r + n > 0
    assert r == 4
X
py B7_py_copy_in_class_with_pytestmark_skip <<'X'
import pytest


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0


class TestLater:
    pytestmark = pytest.mark.skip("later")

    def test_add_more(self):
        r = add(1, 2)
        assert r > 0
----
import pytest


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0


class TestLater:
    pytestmark = pytest.mark.skip("later")

    def test_add_more(self):
        r = add(1, 2)
        assert r > 0
        assert r == 4
X
py B8_py_copy_in_class_whose_setup_skips <<'X'
import pytest


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0


class TestLater:
    def setup_method(self):
        pytest.skip("later")

    def test_add_more(self):
        r = add(1, 2)
        assert r > 0
----
import pytest


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0


class TestLater:
    def setup_method(self):
        pytest.skip("later")

    def test_add_more(self):
        r = add(1, 2)
        assert r > 0
        assert r == 4
X
py B9_py_copy_in_test_nested_in_helper <<'X'
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0


def make():
    def test_add_more():
        r = add(1, 2)
        assert r > 0
    return test_add_more
----
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0


def make():
    def test_add_more():
        r = add(1, 2)
        assert r > 0
        assert r == 4
    return test_add_more
X
py B10_py_copy_in_test_marked_dunder_test_false <<'X'
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0


def test_add_more():
    r = add(1, 2)
    assert r > 0


test_add_more.__test__ = False
----
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0


def test_add_more():
    r = add(1, 2)
    assert r > 0
    assert r == 4


test_add_more.__test__ = False
X
py B11_py_copy_in_test_under_module_if <<'X'
import os


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0


if os.environ.get("SLOW"):
    def test_add_more():
        r = add(1, 2)
        assert r > 0
----
import os


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0


if os.environ.get("SLOW"):
    def test_add_more():
        r = add(1, 2)
        assert r > 0
        assert r == 4
X
js B12_js_copy_in_suite_whose_before_hook_skips <<'X'
const assert = require("assert");
const { expect } = require("chai");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    const r = add(1, 2);
    assert.strictEqual(r, 4);
    expect(r).to.be.above(0);
  });
});

describe("later", function () {
  before(function () {
    this.skip();
  });
  it("adds more", function () {
    const r = add(1, 2);
    expect(r).to.be.above(0);
  });
});
----
const assert = require("assert");
const { expect } = require("chai");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    const r = add(1, 2);
    expect(r).to.exist;
    expect(r).to.be.above(0);
  });
});

describe("later", function () {
  before(function () {
    this.skip();
  });
  it("adds more", function () {
    const r = add(1, 2);
    expect(r).to.be.above(0);
    assert.strictEqual(r, 4);
  });
});
X
js B13_js_copy_in_suite_under_if <<'X'
const assert = require("assert");
const { expect } = require("chai");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    const r = add(1, 2);
    assert.strictEqual(r, 4);
    expect(r).to.be.above(0);
  });
});

if (process.env.SLOW) {
  describe("slow", function () {
    it("adds more", function () {
      const r = add(1, 2);
      expect(r).to.be.above(0);
    });
  });
}
----
const assert = require("assert");
const { expect } = require("chai");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    const r = add(1, 2);
    expect(r).to.exist;
    expect(r).to.be.above(0);
  });
});

if (process.env.SLOW) {
  describe("slow", function () {
    it("adds more", function () {
      const r = add(1, 2);
      expect(r).to.be.above(0);
      assert.strictEqual(r, 4);
    });
  });
}
X
js B14_js_copy_in_test_of_conditional_skip_alias <<'X'
const assert = require("assert");
const { expect } = require("chai");
const add = (a, b) => a + b;
const test = process.env.SLOW ? it : it.skip;

describe("math", function () {
  it("adds", function () {
    const r = add(1, 2);
    assert.strictEqual(r, 4);
    expect(r).to.be.above(0);
  });
  test("adds more", function () {
    const r = add(1, 2);
    expect(r).to.be.above(0);
  });
});
----
const assert = require("assert");
const { expect } = require("chai");
const add = (a, b) => a + b;
const test = process.env.SLOW ? it : it.skip;

describe("math", function () {
  it("adds", function () {
    const r = add(1, 2);
    expect(r).to.exist;
    expect(r).to.be.above(0);
  });
  test("adds more", function () {
    const r = add(1, 2);
    expect(r).to.be.above(0);
    assert.strictEqual(r, 4);
  });
});
X
js B15_js_copy_after_done_in_callback_test <<'X'
const assert = require("assert");
const { expect } = require("chai");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    const r = add(1, 2);
    assert.strictEqual(r, 4);
    expect(r).to.be.above(0);
  });
  it("adds more", function (done) {
    const r = add(1, 2);
    done();
    expect(r).to.be.above(0);
  });
});
----
const assert = require("assert");
const { expect } = require("chai");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    const r = add(1, 2);
    expect(r).to.exist;
    expect(r).to.be.above(0);
  });
  it("adds more", function (done) {
    const r = add(1, 2);
    done();
    expect(r).to.be.above(0);
    assert.strictEqual(r, 4);
  });
});
X

# ==== a copy ranked (or keyed) as asking as much, that asks less ====
js B16_js_chai_equal_for_strictEqual_minus_zero <<'X'
const assert = require("assert");
const { expect } = require("chai");

describe("round", function () {
  it("rounds to zero", function () {
    const r = Math.round(-0.4);
    assert.strictEqual(r, 0);
    expect(r).to.be.below(1);
  });
});
----
const assert = require("assert");
const { expect } = require("chai");

describe("round", function () {
  it("rounds to zero", function () {
    const r = Math.round(-0.4);
    expect(r).to.exist;
    expect(r).to.be.below(1);
    expect(r).to.equal(0);
  });
});
X
js B17_js_chai_deep_equal_for_deepStrictEqual_prototype <<'X'
const assert = require("assert");
const { expect } = require("chai");
class Point { constructor(x) { this.x = x; } }
const parse = (s) => new Point(Number(s));

describe("parse", function () {
  it("parses a plain point", function () {
    const p = parse("1");
    assert.deepStrictEqual(p, { x: 1 });
    expect(p.x).to.be.above(0);
  });
});
----
const assert = require("assert");
const { expect } = require("chai");
class Point { constructor(x) { this.x = x; } }
const parse = (s) => new Point(Number(s));

describe("parse", function () {
  it("parses a plain point", function () {
    const p = parse("1");
    expect(p).to.exist;
    expect(p.x).to.be.above(0);
    expect(p).to.deep.equal({ x: 1 });
  });
});
X
js B18_js_string_on_chain_continuation_line <<'X'
const { expect } = require("chai");
const describeStatus = (code) => (code === 200 ? "ok" : "error");

describe("status", function () {
  it("reports a failure", function () {
    expect(describeStatus(500))
      .to.equal("failed");
    expect(describeStatus(500)).to.be.a("string");
  });
});
----
const { expect } = require("chai");
const describeStatus = (code) => (code === 200 ? "ok" : "error");

describe("status", function () {
  it("reports a failure", function () {
    expect(describeStatus(500)).to.exist;
    expect(describeStatus(500)).to.be.a("string");
    expect(describeStatus(500))
      .to.equal("error");
  });
});
X
js X3_js_string_copy_on_one_line <<'X'
const { expect } = require("chai");
const describeStatus = (code) => (code === 200 ? "ok" : "error");

describe("status", function () {
  it("reports a failure", function () {
    expect(describeStatus(500))
      .to.equal("failed");
    expect(describeStatus(500)).to.be.a("string");
  });
});
----
const { expect } = require("chai");
const describeStatus = (code) => (code === 200 ? "ok" : "error");

describe("status", function () {
  it("reports a failure", function () {
    expect(describeStatus(500)).to.exist;
    expect(describeStatus(500)).to.be.a("string");
    expect(describeStatus(500)).to.equal("error");
  });
});
X
py B19_py_assertSequenceEqual_for_eq <<'X'
import unittest


def pair():
    return (1, 2)


class TestPair(unittest.TestCase):
    def test_pair(self):
        r = pair()
        assert r == [1, 2]
        assert len(r) == 2
----
import unittest


def pair():
    return (1, 2)


class TestPair(unittest.TestCase):
    def test_pair(self):
        r = pair()
        assert r is not None
        assert len(r) == 2
        self.assertSequenceEqual(r, [1, 2])
X
two B20_java_assertEquals_delta_dropped src/test/java/CalcTest.java "" <<'X'
import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void divides() {
        Double r = Calc.div(1, 3);
        assertEquals(0.25, r);
        assertTrue(r > 0);
    }
}
----
import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void divides() {
        Double r = Calc.div(1, 3);
        assertNotNull(r);
        assertTrue(r > 0);
        assertEquals(0.25, r, 0.1);
    }
}
X
two B21_junit4_message_first_actual_dropped src/test/java/CalcTest.java "" <<'X'
import static org.junit.Assert.*;

import org.junit.Test;

public class CalcTest {
    @Test
    public void adds() {
        Integer r = Calc.add(1, 2);
        assertEquals("sum", 4, (int) r);
        assertTrue(r > 0);
    }
}
----
import static org.junit.Assert.*;

import org.junit.Test;

public class CalcTest {
    @Test
    public void adds() {
        Integer r = Calc.add(1, 2);
        assertNotNull(r);
        assertTrue(r > 0);
        assertEquals("sum", 4, (int) r + 1);
    }
}
X
two X4_junit4_no_copy src/test/java/CalcTest.java "" <<'X'
import static org.junit.Assert.*;

import org.junit.Test;

public class CalcTest {
    @Test
    public void adds() {
        Integer r = Calc.add(1, 2);
        assertEquals("sum", 4, (int) r);
        assertTrue(r > 0);
    }
}
----
import static org.junit.Assert.*;

import org.junit.Test;

public class CalcTest {
    @Test
    public void adds() {
        Integer r = Calc.add(1, 2);
        assertNotNull(r);
        assertTrue(r > 0);
    }
}
X

# ==== false findings: an honest move below a guard, in a test that runs, that
# runs_in_a_test refuses: words read on lines that are not code, or not a test's end ====
py F1_py_docstring_says_skipped <<'X'
def parse(text):
    return [l for l in text.splitlines() if l]


def test_parse():
    """Parse the lines.

    Blank lines are skipped.
    """
    r = parse("a\n\nb")
    assert r == ["a", "b"]
    assert len(r) > 0
----
def parse(text):
    return [l for l in text.splitlines() if l]


def test_parse():
    """Parse the lines.

    Blank lines are skipped.
    """
    r = parse("a\n\nb")
    assert r is not None
    assert len(r) > 0
    assert r == ["a", "b"]
X
py F2_py_test_named_skips <<'X'
def parse(text):
    return [l for l in text.splitlines() if l]


def test_parse_skips_blank_lines():
    r = parse("a\n\nb")
    assert r == ["a", "b"]
    assert len(r) > 0
----
def parse(text):
    return [l for l in text.splitlines() if l]


def test_parse_skips_blank_lines():
    r = parse("a\n\nb")
    assert r is not None
    assert len(r) > 0
    assert r == ["a", "b"]
X
py F3_py_class_TestTodoList <<'X'
class TodoList:
    def __init__(self):
        self.items = []

    def add(self, x):
        self.items.append(x)
        return self.items


class TestTodoList:
    def test_add(self):
        r = TodoList().add("a")
        assert r == ["a"]
        assert len(r) > 0
----
class TodoList:
    def __init__(self):
        self.items = []

    def add(self, x):
        self.items.append(x)
        return self.items


class TestTodoList:
    def test_add(self):
        r = TodoList().add("a")
        assert r is not None
        assert len(r) > 0
        assert r == ["a"]
X
py F4_py_nested_def_returns <<'X'
def apply(f, x):
    return f(x)


def test_apply():
    def double(x):
        return 2 * x

    r = apply(double, 2)
    assert r == 4
    assert r > 0
----
def apply(f, x):
    return f(x)


def test_apply():
    def double(x):
        return 2 * x

    r = apply(double, 2)
    assert r is not None
    assert r > 0
    assert r == 4
X
py F5_py_string_lines_at_column_0 <<'X'
def parse(text):
    return dict(l.split("=") for l in text.split())


def test_parse():
    text = """
a=1
b=2
"""
    r = parse(text)
    assert r == {"a": "1", "b": "2"}
    assert len(r) > 0
----
def parse(text):
    return dict(l.split("=") for l in text.split())


def test_parse():
    text = """
a=1
b=2
"""
    r = parse(text)
    assert r is not None
    assert len(r) > 0
    assert r == {"a": "1", "b": "2"}
X
py F6_py_variable_named_skipped <<'X'
def split(xs):
    return [x for x in xs if x], [x for x in xs if not x]


def test_split():
    kept, skipped = split([1, 0, 2])
    assert kept == [1, 2]
    assert len(skipped) == 1
----
def split(xs):
    return [x for x in xs if x], [x for x in xs if not x]


def test_split():
    kept, skipped = split([1, 0, 2])
    assert kept is not None
    assert len(skipped) == 1
    assert kept == [1, 2]
X
js F7_js_arrow_returns_above <<'X'
const assert = require("assert");
const { expect } = require("chai");
const ids = (rows) => rows.map((row) => row.id);

describe("ids", function () {
  it("lists the ids", function () {
    const rows = [1, 2].map((n) => {
      return { id: n };
    });
    const r = ids(rows);
    assert.deepStrictEqual(r, [1, 2]);
    expect(r).to.have.lengthOf(2);
  });
});
----
const assert = require("assert");
const { expect } = require("chai");
const ids = (rows) => rows.map((row) => row.id);

describe("ids", function () {
  it("lists the ids", function () {
    const rows = [1, 2].map((n) => {
      return { id: n };
    });
    const r = ids(rows);
    expect(r).to.exist;
    expect(r).to.have.lengthOf(2);
    assert.deepStrictEqual(r, [1, 2]);
  });
});
X
two F8_java_test_with_DisplayName src/test/java/CalcTest.java "" <<'X'
import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    @DisplayName("adds two numbers")
    void adds() {
        Integer r = Calc.add(1, 2);
        assertEquals(3, r);
        assertTrue(r > 0);
    }
}
----
import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    @DisplayName("adds two numbers")
    void adds() {
        Integer r = Calc.add(1, 2);
        assertNotNull(r);
        assertTrue(r > 0);
        assertEquals(3, r);
    }
}
X
js F9_js_suite_named_by_class_Pending <<'X'
const { expect } = require("chai");
class PendingQueue { constructor() { this.items = []; } push(x) { this.items.push(x); return this.items; } }

describe(PendingQueue.name, function () {
  it("pushes", function () {
    const r = new PendingQueue().push(1);
    expect(r).to.deep.equal([1]);
    expect(r).to.have.lengthOf(1);
  });
});
----
const { expect } = require("chai");
class PendingQueue { constructor() { this.items = []; } push(x) { this.items.push(x); return this.items; } }

describe(PendingQueue.name, function () {
  it("pushes", function () {
    const r = new PendingQueue().push(1);
    expect(r).to.exist;
    expect(r).to.have.lengthOf(1);
    expect(r).to.deep.equal([1]);
  });
});
X
py F10_py_black_exploded_with_trailing_comma <<'X'
def load():
    return {"name": "a", "size": 1}


def test_load():
    r = load()
    assert r == {"name": "a", "size": 1}
    assert len(r) > 0
----
def load():
    return {"name": "a", "size": 1}


def test_load():
    r = load()
    assert r is not None
    assert len(r) > 0
    assert r == {
        "name": "a",
        "size": 1,
    }
X
