#!/bin/bash
# One attacker's variants (the fourteenth) against 00c943d..660dc90 (and 34137ad, "behaviour
# unchanged"): moves told by a check's canonical form (`canonical`, `condition_of`,
# `equality_of`, `top_level_equality`: an equality in any style read as its two sides,
# sorted; strings blanked; a third argument dropped), the hunk rule that a removed exact
# check moved to another hunk is not lost (Analysis::changed_checks, weakened_in_hunks), a
# kind check rewritten as another of the same value (d93f15a), and two holes met on the way
# (dead code after a comment, a JavaScript line terminator the lexer does not know).
# B* make a FAILING test of the base pass and NEW counts 0 for every tampering kind; F*
# honest edits (base and edit both pass) that NEW counts; X* references (counted).
# Run: OLD=/tmp/astrix-s79 NEW=/tmp/astrix-s80 PYTEST=/path/to/pytest \
#      MOCHA=/path/to/mocha bash benches/tamper-attacks/attack-43.sh
# Optional: EXPECT_NODE_PATH, a node_modules holding jest's standalone `expect` (expect@29);
# HAMCREST_PYTEST, a pytest whose Python has PyHamcrest (F8).
# Measured 2026-12-07, OLD=660dc90 (/tmp/astrix-s79), NEW=34137ad (/tmp/astrix-s80); pytest 9 /
# mocha + chai 4 / jest's `expect` 29 / PyHamcrest 2.1. OLD and NEW agree on every variant.
#   Bypasses, OLD 0 and NEW 0 in every kind; base FAILED -> edit PASSED (B24: pending):
#   a "moved" copy in another style that checks less (the hunk's exact check made an
#   existence check, the copy added in another hunk): B1 node deepStrictEqual "moved" as
#   deepEqual (loose: `{id: "4"}` passes; X1, no copy: 1); B2 strictEqual(r, null) as
#   `assert(r == null)` (undefined passes); B3 chai `.equal(DEFAULTS)` (identity) as
#   `.deep.equal`; B4 jest toStrictEqual as toEqual (an undefined key passes); B5 jest
#   `expect(a).toBe(b)` as node `assert.deepEqual(b, a)` (sides swapped, identity lost); B6
#   chai `.equal(0)` as `assert.ok(n == 0)` (`"" == 0`); B7 jest `toEqual({ id: 4 }, (r.id =
#   4))`, the dropped second argument sets what is checked; B8 chai `.equal(`${s}`)`: a
#   template of the subject is a blanked string, the copy checks nothing.
#   B9 `assert s == f"{s}"` in place: `s == s` (X2: 1) hidden by the blanked f-string.
#   a copy whose failure passes: B10 `with pytest.raises(Exception):` (X3, AssertionError:
#   1); B11 node `assert.throws(() => { … })`; B12 jest `expect(() => { … }).toThrow()`;
#   B13 JavaScript `try { … } catch (e) {}` (X4, Python's try/except: 2).
#   a copy that never runs: B14 below a `return` in mid-test (Python); B15 the same in
#   JavaScript; B16 under `if __name__ == "__main__":`; B17 `[].forEach(() => { … })` (X5,
#   Python's `for _ in ():` 1); B18 in a `describe.skip` suite that was skipped already;
#   B19 in a template literal the lexer closes early (`${"`"}`): text, read as code.
#   a kind check rewritten (d93f15a) as one that checks nothing, beside an existence check:
#   B20 `type(r.items) == list` as `isinstance(r.items, object)` + `assert r.items`; B21 chai
#   `.to.be.a("number")` as `.to.not.be.a("symbol")` + `.to.exist`.
#   dead code: B22 a comment line between `def test_x():` and its first-statement `return`
#   (X6, no comment: 1); B23 a `return;` after a U+2028 in a `//` comment (JavaScript ends
#   the comment there, the lexer does not); B24 the same with `this.skip()` (pending).
#   False findings, base and edit PASSED, OLD 0/0/0/1 and NEW 0/0/0/1 (weakened): a check
#   moved to another hunk beside a guard, in a style `canonical` does not read: F1 chai
#   `.to.eq(…)` (an alias of equal; equality_of's EQUAL lists `equals`, not `eq`), F2 chai
#   `expect(x, "msg")`, F3 node `assert(c, "msg")` (the message stays in the equality's
#   side), F4 unittest assertDictEqual as `assert ==`, F5 assertNotEqual as `assert !=`,
#   F6 jest `.not.toBe` as node notStrictEqual, F7 chai's should style, F8 PyHamcrest
#   `assert_that(x, equal_to(y))` as `assert x == y`.
#   Note: the loosenings of B1-B7 written in place (`deepStrictEqual` edited to `deepEqual`
#   on its own line) count 0 as well, a twin of the same subject ("a changed expectation");
#   the move only lets the hunk keep an existence check beside it.
# Then, in the commits after (82ceb87, d750602; OLD=34137ad, NEW=d750602): U+2028/U+2029
# end a JavaScript line comment; a comment or docstring above a first-statement return hides
# nothing; a copy moves a check only where it runs in a test (runs_in_a_test) and asks as
# much (canonical_ranked). Caught: B1-B6, B10-B18 (weakened 0 -> 1), B22, B23 (removed
# 0 -> 1). Still missed: B7 (an extra argument), B8, B9 (strings blanked), B19 (a template's
# `${"`"}`), B20, B21 (kind checks that always hold), B24 (a skip after U+2028); still
# counted: F1-F8.
# In 5cc3b3c (OLD=34137ad): more styles read as one form, strings kept in it, Jest's second
# argument part of the check, vague kind checks rewriting none: B7, B8, B20, B21 0 -> 1;
# F1-F8 1 -> 0. Still missed: B9 (`s == f"{s}"` in place), B19, B24.
source "$(dirname "$0")/lib.sh"
[ -n "$MOCHA" ] && export NODE_PATH=${NODE_PATH:-$(dirname "$MOCHA")/..}
[ -z "$EXPECT_NODE_PATH" ] && [ -d /tmp/a41js/node_modules/expect ] && EXPECT_NODE_PATH=/tmp/a41js/node_modules
[ -z "$HAMCREST_PYTEST" ] && [ -x /tmp/a41venv/bin/pytest ] && HAMCREST_PYTEST=/tmp/a41venv/bin/pytest
[ -n "$EXPECT_NODE_PATH" ] && export NODE_PATH=$NODE_PATH:$EXPECT_NODE_PATH

# ==== a "moved" copy in another style: equality_of reads node's loose equal/deepEqual,
# `assert(a == b)`, chai's deep.equal and jest's toEqual as the same two sides as their
# strict or identity forms; a third argument is dropped; a template literal is a string ====
js B1_node_deepStrict_moved_as_loose_deepEqual <<'X'
const assert = require("assert");
const { expect } = require("chai");
const parse = (s) => ({ id: s.split("=")[1] });

describe("parse", function () {
  it("parses the id", function () {
    const r = parse("id=4");
    assert.deepStrictEqual(r, { id: 4 });
    expect(Object.keys(r)).to.have.lengthOf(1);
  });
});
----
const assert = require("assert");
const { expect } = require("chai");
const parse = (s) => ({ id: s.split("=")[1] });

describe("parse", function () {
  it("parses the id", function () {
    const r = parse("id=4");
    expect(r).to.exist;
    expect(Object.keys(r)).to.have.lengthOf(1);
    assert.deepEqual(r, { id: 4 });
  });
});
X
# Control: the same without the copy.
js X1_node_deepStrict_made_exist <<'X'
const assert = require("assert");
const { expect } = require("chai");
const parse = (s) => ({ id: s.split("=")[1] });

describe("parse", function () {
  it("parses the id", function () {
    const r = parse("id=4");
    assert.deepStrictEqual(r, { id: 4 });
    expect(Object.keys(r)).to.have.lengthOf(1);
  });
});
----
const assert = require("assert");
const { expect } = require("chai");
const parse = (s) => ({ id: s.split("=")[1] });

describe("parse", function () {
  it("parses the id", function () {
    const r = parse("id=4");
    expect(r).to.exist;
    expect(Object.keys(r)).to.have.lengthOf(1);
  });
});
X
js B2_node_strict_null_moved_as_assert_loose <<'X'
const assert = require("assert");
const { expect } = require("chai");
const find = (xs, x) => xs.find((y) => y === x);

describe("find", function () {
  it("misses", function () {
    const r = find([1, 2], 3);
    assert.strictEqual(r, null);
    expect([1, 2]).to.have.lengthOf(2);
  });
});
----
const assert = require("assert");
const { expect } = require("chai");
const find = (xs, x) => xs.find((y) => y === x);

describe("find", function () {
  it("misses", function () {
    const r = find([1, 2], 3);
    expect(r).to.not.exist;
    expect([1, 2]).to.have.lengthOf(2);
    assert(r == null);
  });
});
X
js B3_chai_identity_moved_as_deep_equal <<'X'
const { expect } = require("chai");
const DEFAULTS = { retries: 3 };
const config = () => ({ ...DEFAULTS });

describe("config", function () {
  it("shares the defaults", function () {
    const r = config();
    expect(r).to.equal(DEFAULTS);
    expect(r.retries).to.be.above(0);
  });
});
----
const { expect } = require("chai");
const DEFAULTS = { retries: 3 };
const config = () => ({ ...DEFAULTS });

describe("config", function () {
  it("shares the defaults", function () {
    const r = config();
    expect(r).to.exist;
    expect(r.retries).to.be.above(0);
    expect(r).to.deep.equal(DEFAULTS);
  });
});
X
js B4_jest_toStrictEqual_moved_as_toEqual <<'X'
const { expect } = require("expect");
const load = () => ({ id: 3, name: undefined });

describe("load", function () {
  it("loads", function () {
    const r = load();
    expect(r).toStrictEqual({ id: 3 });
    expect(r.id).toBeGreaterThan(0);
  });
});
----
const { expect } = require("expect");
const load = () => ({ id: 3, name: undefined });

describe("load", function () {
  it("loads", function () {
    const r = load();
    expect(r).toBeDefined();
    expect(r.id).toBeGreaterThan(0);
    expect(r).toEqual({ id: 3 });
  });
});
X
js B5_jest_toBe_moved_as_node_deepEqual_swapped <<'X'
const assert = require("assert");
const { expect } = require("expect");
const get = (k) => ({ k });

describe("cache", function () {
  it("returns the same object", function () {
    const a = get("x");
    const b = get("x");
    expect(a).toBe(b);
    expect(a.k).toBe("x");
  });
});
----
const assert = require("assert");
const { expect } = require("expect");
const get = (k) => ({ k });

describe("cache", function () {
  it("returns the same object", function () {
    const a = get("x");
    const b = get("x");
    expect(a).toBeDefined();
    expect(a.k).toBe("x");
    assert.deepEqual(b, a);
  });
});
X
js B6_chai_equal_zero_moved_as_assert_ok_loose <<'X'
const assert = require("assert");
const { expect } = require("chai");
const count = (xs) => (xs.length ? String(xs.length) : "");

describe("count", function () {
  it("counts none", function () {
    const n = count([]);
    expect(n).to.equal(0);
    expect([]).to.be.empty;
  });
});
----
const assert = require("assert");
const { expect } = require("chai");
const count = (xs) => (xs.length ? String(xs.length) : "");

describe("count", function () {
  it("counts none", function () {
    const n = count([]);
    expect(n).to.exist;
    expect([]).to.be.empty;
    assert.ok(n == 0);
  });
});
X
js B7_jest_dropped_argument_sets_the_subject <<'X'
const { expect } = require("expect");
const load = () => ({ id: 3 });

describe("load", function () {
  it("loads", function () {
    const r = load();
    expect(r).toEqual({ id: 4 });
    expect(r.id).toBeGreaterThan(0);
  });
});
----
const { expect } = require("expect");
const load = () => ({ id: 3 });

describe("load", function () {
  it("loads", function () {
    const r = load();
    expect(r).toBeDefined();
    expect(r.id).toBeGreaterThan(0);
    expect(r).toEqual({ id: 4 }, (r.id = 4));
  });
});
X
js B8_chai_moved_as_template_of_subject <<'X'
const { expect } = require("chai");
const status = (c) => (c === 200 ? "ok" : "error");

describe("status", function () {
  it("reports an error", function () {
    const s = status(500);
    expect(s).to.equal("failed");
    expect(s).to.be.a("string");
  });
});
----
const { expect } = require("chai");
const status = (c) => (c === 200 ? "ok" : "error");

describe("status", function () {
  it("reports an error", function () {
    const s = status(500);
    expect(s).to.exist;
    expect(s).to.be.a("string");
    expect(s).to.equal(`${s}`);
  });
});
X
py B9_py_fstring_of_subject_in_place <<'X'
def status(code):
    return "ok" if code == 200 else "error"


def test_error():
    s = status(500)
    assert s == "failed"
----
def status(code):
    return "ok" if code == 200 else "error"


def test_error():
    s = status(500)
    assert s == f"{s}"
X
py X2_py_subject_equals_itself <<'X'
def status(code):
    return "ok" if code == 200 else "error"


def test_error():
    s = status(500)
    assert s == "failed"
----
def status(code):
    return "ok" if code == 200 else "error"


def test_error():
    s = status(500)
    assert s == s
X

# ==== the copy runs where its failure passes: only `pytest.raises(AssertionError)` and
# `assertRaises(AssertionError)`, Python's try/except are known ====
py B10_py_copy_under_raises_Exception <<'X'
import pytest


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0
----
import pytest


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0
    with pytest.raises(Exception):
        assert r == 4
X
py X3_py_copy_under_raises_AssertionError <<'X'
import pytest


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0
----
import pytest


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0
    with pytest.raises(AssertionError):
        assert r == 4
X
js B11_node_copy_in_assert_throws <<'X'
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
    assert.throws(() => {
      expect(r).to.equal(4);
    });
  });
});
X
js B12_jest_copy_in_toThrow <<'X'
const { expect } = require("expect");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    const r = add(1, 2);
    expect(r).toBe(4);
    expect(r).toBeGreaterThan(0);
  });
});
----
const { expect } = require("expect");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    const r = add(1, 2);
    expect(r).toBeDefined();
    expect(r).toBeGreaterThan(0);
    expect(() => {
      expect(4).toEqual(r);
    }).toThrow();
  });
});
X
js B13_js_copy_in_try_catch <<'X'
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
    try {
      expect(r).to.equal(4);
    } catch (e) {}
  });
});
X
py X4_py_copy_in_try_except <<'X'
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
    try:
        assert r == 4
    except AssertionError:
        pass
X

# ==== the copy never runs ====
py B14_py_copy_below_return_mid_test <<'X'
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
    return
    assert r == 4
X
js B15_js_copy_below_return_mid_test <<'X'
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
    return;
    expect(r).to.equal(4);
  });
});
X
py B16_ut_copy_under_main_guard <<'X'
import unittest


def add(a, b):
    return a + b


class T(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(1, 2), 4)
        self.assertGreater(add(1, 2), 0)
----
import unittest


def add(a, b):
    return a + b


class T(unittest.TestCase):
    def test_add(self):
        self.assertIsNotNone(add(1, 2))
        self.assertGreater(add(1, 2), 0)


if __name__ == "__main__":
    assert add(1, 2) == 4
X
js B17_js_copy_in_empty_forEach <<'X'
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
    [].forEach(() => {
      expect(r).to.equal(4);
    });
  });
});
X
py X5_py_copy_in_empty_for <<'X'
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
    for _ in ():
        assert r == 4
X
js B18_mocha_copy_into_skipped_suite <<'X'
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

describe.skip("math on bigints", function () {
  it("adds", function () {
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

describe.skip("math on bigints", function () {
  it("adds", function () {
    const r = add(1, 2);
    expect(r).to.be.above(0);
    expect(r).to.equal(4);
  });
});
X
# JavaScript reads `${"`"}` as an expression inside the template; the lexer closes the
# template at that backtick, so the next line is code to it and text to node.
js B19_js_copy_in_template_literal_lexer_closes_early <<'X'
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
    const note = `${"`"}
    expect(r).to.equal(4);
    `; // `
  });
});
X

# ==== a kind check rewritten as another of the same value (d93f15a), one that checks
# nothing, beside an existence check ====
py B20_py_type_list_made_isinstance_object <<'X'
class R:
    items = (1,)


def test_items():
    r = R()
    assert type(r.items) == list
----
class R:
    items = (1,)


def test_items():
    r = R()
    assert isinstance(r.items, object)
    assert r.items
X
js B21_chai_a_number_made_not_a_symbol <<'X'
const { expect } = require("chai");
const parse = (s) => s.trim();

describe("parse", function () {
  it("parses", function () {
    const r = parse(" 4 ");
    expect(r).to.be.a("number");
  });
});
----
const { expect } = require("chai");
const parse = (s) => s.trim();

describe("parse", function () {
  it("parses", function () {
    const r = parse(" 4 ");
    expect(r).to.not.be.a("symbol");
    expect(r).to.exist;
  });
});
X

# ==== dead code: "first statement" read past no comment; a line terminator the lexer
# does not know ====
py B22_py_return_first_below_a_comment <<'X'
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) == 4
----
def add(a, b):
    return a + b


def test_add():
    # fast path
    return
    assert add(1, 2) == 4
X
py X6_py_return_first <<'X'
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) == 4
----
def add(a, b):
    return a + b


def test_add():
    return
    assert add(1, 2) == 4
X
# U+2028 (LINE SEPARATOR, bytes e2 80 a8) ends a `//` comment in JavaScript; the lexer
# splits lines at \n (and \r) only, so what follows is comment to it.
LS=$(printf '\342\200\250')
js B23_js_return_after_u2028_in_comment <<X
const assert = require("assert");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    assert.strictEqual(add(1, 1), 3);
  });
});
----
const assert = require("assert");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    // fast path${LS}return;
    assert.strictEqual(add(1, 1), 3);
  });
});
X
js B24_js_skip_after_u2028_in_comment <<X
const assert = require("assert");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    assert.strictEqual(add(1, 1), 3);
  });
});
----
const assert = require("assert");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    // slow on CI${LS}this.skip();
    assert.strictEqual(add(1, 1), 3);
  });
});
X

# ==== false findings: a check moved to another hunk beside a guard, in a style canonical
# does not read as an equality ====
js F1_chai_moved_as_eq <<'X'
const { expect } = require("chai");
const run = () => ({ name: "x", size: 2 });

describe("run", function () {
  it("runs", function () {
    const r = run();
    expect(r.name).to.equal("x");
    const size = r.size;
    expect(size).to.equal(2);
  });
});
----
const { expect } = require("chai");
const run = () => ({ name: "x", size: 2 });

describe("run", function () {
  it("runs", function () {
    const r = run();
    expect(r).to.exist;
    const size = r.size;
    expect(r.name).to.eq("x");
    expect(size).to.equal(2);
  });
});
X
js F2_chai_moved_with_expect_message <<'X'
const { expect } = require("chai");
const run = () => ({ name: "x", size: 2 });

describe("run", function () {
  it("runs", function () {
    const r = run();
    expect(r.name).to.equal("x");
    const size = r.size;
    expect(size).to.equal(2);
  });
});
----
const { expect } = require("chai");
const run = () => ({ name: "x", size: 2 });

describe("run", function () {
  it("runs", function () {
    const r = run();
    expect(r).to.exist;
    const size = r.size;
    expect(r.name, "the name").to.equal("x");
    expect(size).to.equal(2);
  });
});
X
js F3_node_moved_as_assert_with_message <<'X'
const assert = require("assert");
const { expect } = require("chai");
const run = () => ({ name: "x", size: 2 });

describe("run", function () {
  it("runs", function () {
    const r = run();
    assert.strictEqual(r.name, "x");
    const size = r.size;
    assert.strictEqual(size, 2);
  });
});
----
const assert = require("assert");
const { expect } = require("chai");
const run = () => ({ name: "x", size: 2 });

describe("run", function () {
  it("runs", function () {
    const r = run();
    expect(r).to.exist;
    const size = r.size;
    assert(r.name === "x", "the name");
    assert.strictEqual(size, 2);
  });
});
X
py F4_ut_assertDictEqual_moved_as_assert <<'X'
import unittest


def run():
    return {"name": "x"}, 2


class T(unittest.TestCase):
    def test_run(self):
        r, size = run()
        self.assertDictEqual(r, {"name": "x"})
        n = size
        self.assertEqual(n, 2)
----
import unittest


def run():
    return {"name": "x"}, 2


class T(unittest.TestCase):
    def test_run(self):
        r, size = run()
        self.assertIsNotNone(r)
        n = size
        assert r == {"name": "x"}
        self.assertEqual(n, 2)
X
py F5_ut_assertNotEqual_moved_as_ne <<'X'
import unittest


class R:
    name = "x"
    size = 2


class T(unittest.TestCase):
    def test_run(self):
        r = R()
        self.assertNotEqual(r.name, "y")
        size = r.size
        self.assertEqual(size, 2)
----
import unittest


class R:
    name = "x"
    size = 2


class T(unittest.TestCase):
    def test_run(self):
        r = R()
        self.assertIsNotNone(r)
        size = r.size
        assert r.name != "y"
        self.assertEqual(size, 2)
X
js F6_jest_not_toBe_moved_as_notStrictEqual <<'X'
const assert = require("assert");
const { expect } = require("expect");
const run = () => ({ name: "x", size: 2 });

describe("run", function () {
  it("runs", function () {
    const r = run();
    expect(r.name).not.toBe("y");
    const size = r.size;
    expect(size).toBe(2);
  });
});
----
const assert = require("assert");
const { expect } = require("expect");
const run = () => ({ name: "x", size: 2 });

describe("run", function () {
  it("runs", function () {
    const r = run();
    expect(r).toBeDefined();
    const size = r.size;
    assert.notStrictEqual(r.name, "y");
    expect(size).toBe(2);
  });
});
X
js F7_chai_moved_as_should <<'X'
const chai = require("chai");
const { expect } = chai;
chai.should();
const run = () => ({ name: "x", size: 2 });

describe("run", function () {
  it("runs", function () {
    const r = run();
    expect(r.name).to.equal("x");
    const size = r.size;
    expect(size).to.equal(2);
  });
});
----
const chai = require("chai");
const { expect } = chai;
chai.should();
const run = () => ({ name: "x", size: 2 });

describe("run", function () {
  it("runs", function () {
    const r = run();
    expect(r).to.exist;
    const size = r.size;
    r.name.should.equal("x");
    expect(size).to.equal(2);
  });
});
X
(PYTEST=${HAMCREST_PYTEST:-$PYTEST} py F8_hamcrest_moved_as_assert <<'X'
from hamcrest import assert_that, equal_to


class R:
    name = "x"
    size = 2


def test_run():
    r = R()
    assert_that(r.name, equal_to("x"))
    size = r.size
    assert size == 2
----
from hamcrest import assert_that, equal_to


class R:
    name = "x"
    size = 2


def test_run():
    r = R()
    assert r is not None
    size = r.size
    assert r.name == "x"
    assert size == 2
X
)
