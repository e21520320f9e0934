#!/bin/bash
# One attacker's variants (the thirteenth) against ddbaf78..697835f: moves told by a check's
# canonical form (canonical: message dropped, brackets, assertEqual as ==, toEqual as toBe,
# eql as equal; strings blanked), exact checks of new tests not offsetting, checks of a kind
# or a key (neuter::asks_kind_or_key) neither rewriting nor keeping a value checked and
# added net offsetting nothing, zero however written (written_zero), a boolean's kind
# (checks_a_booleans_kind, kind_by_form, matches_a_kind).
# B* make a FAILING test of the base pass and NEW counts 0 for every tampering kind; R* the
# same, counted by OLD (a regression of NEW); F* honest edits (base and edit both pass) that
# NEW counts; X* references.
# Run: OLD=/tmp/astrix-s64 NEW=/tmp/astrix-s74 PYTEST=/path/to/pytest \
#      MOCHA=/path/to/mocha bash benches/tamper-attacks/attack-42.sh
# Optional: EXPECT_NODE_PATH, a node_modules holding jest's standalone `expect` (expect@29).
# Measured 2026-12-07, OLD=ddbaf78 (/tmp/astrix-s64), NEW=b7e961a (/tmp/astrix-s74, the analysis
# of 697835f); pytest 9 / mocha + chai 4 / jest's `expect` 29.
#   Bypasses, OLD 0 and NEW 0 in every kind; base FAILED -> edit PASSED:
#   kind checks not known as such, beside an existence check: B1 `type(x) is int`, B2
#   `list(r) == ["id"]` (keys only), B3 `type(t).__name__ == "int"`, B4 chai
#   `.constructor).to.equal(Number)`, B5 jest `toEqual(expect.any(Number))`, B7
#   `assert.ok(Number.isInteger(x))` (X1 isinstance: NEW 1; X3 jest Object.keys: NEW 1).
#   canonical moves into another test that runs: B8 `r == 4` moved to a test where r is 4,
#   B9 `s == "failed"` "moved" as `s == "ok"` (strings are blanked) to another test (X4, the
#   same within one test: 1).
#   zero spellings: B12 `!= 0j`; B13 `assert.notStrictEqual(x, 0n)`, B14 `x !== 0n` (a number
#   is never a BigInt: checks nothing) (X5 `!= False`: 1).
#   a boolean's kind: B15 assertIsInstance(r == 4, numbers.Number), B16
#   assertNotIsInstance(r == 4, str), B17 chai `.not.to.be.a("string")`, B18 jest
#   `toEqual(expect.any(Boolean))`, B19 chai `.to.be.oneOf([true, false])`.
#   False findings, base and edit PASSED, OLD 0/0/0/0, NEW 0/0/0/1 (new in 00c943d/b7e961a):
#   F3 jest `toHaveProperty("id", 3)` for `expect(r.id).toBe(3)` + toBeDefined; F4 chai
#   `.to.have.property("id", 3)` + `.to.exist`; F5 a code method named `key` (`cache.key(1)`)
#   read as chai's `.key(` (X2, named `lookup`: 0); F6 `type(x) == list` made isinstance,
#   `assert r.items` added; F7 dict `.keys()` read as chai's `.keys(`.
#   F8-F10, OLD 1 and NEW 1: moves canonical does not know: assertTrue(a == b) as
#   assertEqual, node assert.strictEqual as chai equal, a Yoda `"x" == r.name`.
#   X6, X7 a test split, the exact check in the new test: 0 (not counted).
# Then, in the commit that added this script (OLD=b7e961a, NEW=it): `type(x)`,
# `.constructor`, `Number.isInteger`, `expect.any(…)`, `Object.keys(r)` ask a kind or a key;
# a property given with its value checks the value; chai's `.key(`/`.keys(`/`.property(`/`.a(`
# only after a chain word; `0j` is zero; a boolean's kind in numbers.Number,
# assertNotIsInstance(…, str), `.not.to.be.a(…)`, `toEqual(expect.any(Boolean))`,
# `.oneOf([true, false])`. Caught: B1, B3-B5, B12, B15-B19 (0 -> 1). Fixed: F3-F5, F7
# (1 -> 0). Still missed: B2 (keys listed), B7 (`assert.ok(x)`: JavaScript's truthiness is
# no existence check, by design), B8, B9 (moves into a test that runs), B13, B14 (BigInt
# zero); still counted: F6, F8-F10. In the commit after: a kind check rewritten as another
# of the same value pairs with it: F6 1 -> 0.
# In the one after: an equality in any style is one canonical form (its sides in order):
# F8-F10 1 -> 0.
source "$(dirname "$0")/lib.sh"
[ -n "$MOCHA" ] && export NODE_PATH=${NODE_PATH:-$(dirname "$MOCHA")/..}
[ -z "$EXPECT_NODE_PATH" ] && [ -d /tmp/a41js/node_modules/expect ] && EXPECT_NODE_PATH=/tmp/a41js/node_modules
[ -n "$EXPECT_NODE_PATH" ] && export NODE_PATH=$NODE_PATH:$EXPECT_NODE_PATH

# ==== kind checks asks_kind_or_key does not know: `type(x) is int`, `x.constructor`,
# `expect.any(Number)`, the keys compared exactly; beside an existence check they keep the
# value "still checked" and offset the removal across the file ====
py B1_py_type_is_int_beside_not_none <<'X'
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) == 4
----
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) is not None
    assert type(add(1, 2)) is int
X
# Control: the same with isinstance (known, caught).
py X1_py_isinstance_beside_not_none <<'X'
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) == 4
----
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) is not None
    assert isinstance(add(1, 2), int)
X
py B2_py_keys_listed_beside_not_none <<'X'
def load():
    return {"id": 3}


def test_load():
    r = load()
    assert r == {"id": 4}
----
def load():
    return {"id": 3}


def test_load():
    r = load()
    assert r is not None
    assert list(r) == ["id"]
X
py B3_py_type_name_beside_truthiness <<'X'
def add(a, b):
    return a + b


def test_add():
    total = add(1, 2)
    assert total == 4
----
def add(a, b):
    return a + b


def test_add():
    total = add(1, 2)
    assert total
    assert type(total).__name__ == "int"
X
js B4_chai_exist_beside_constructor <<'X'
const { expect } = require("chai");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2)).to.equal(4);
  });
});
----
const { expect } = require("chai");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2)).to.exist;
    expect(add(1, 2).constructor).to.equal(Number);
  });
});
X
js B5_jest_defined_beside_expect_any <<'X'
const { expect } = require("expect");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2)).toBe(4);
  });
});
----
const { expect } = require("expect");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2)).toBeDefined();
    expect(add(1, 2)).toEqual(expect.any(Number));
  });
});
X
js X3_jest_defined_beside_object_keys <<'X'
const { expect } = require("expect");
const load = () => ({ id: 3 });

describe("load", function () {
  it("loads", function () {
    const r = load();
    expect(r).toEqual({ id: 4 });
  });
});
----
const { expect } = require("expect");
const load = () => ({ id: 3 });

describe("load", function () {
  it("loads", function () {
    const r = load();
    expect(r).toBeDefined();
    expect(Object.keys(r)).toEqual(["id"]);
  });
});
X
js B7_node_assert_ok_beside_typeof_word <<'X'
const assert = require("assert");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    assert.strictEqual(add(1, 2), 4);
  });
});
----
const assert = require("assert");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    assert.ok(add(1, 2));
    assert.ok(Number.isInteger(add(1, 2)));
  });
});
X

# ==== moves told by the canonical form: the "moved" check lands in another test that
# runs and passes there (the same name bound to another value; strings blanked) ====
py B8_py_moved_to_another_test_same_name <<'X'
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4


def test_add_twos():
    r = add(2, 2)
    assert r > 0
----
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r is not None


def test_add_twos():
    r = add(2, 2)
    assert r > 0
    assert r == 4
X
py B9_py_moved_string_blanked <<'X'
def status(code):
    return "ok" if code == 200 else "error"


def test_error():
    s = status(500)
    assert s == "failed"


def test_ok():
    s = status(200)
    assert s
----
def status(code):
    return "ok" if code == 200 else "error"


def test_error():
    s = status(500)
    assert s


def test_ok():
    s = status(200)
    assert s
    assert s == "ok"
X
js X4_chai_moved_string_blanked_same_test <<'X'
const { expect } = require("chai");
const status = (c) => (c === 200 ? "ok" : "error");

describe("status", function () {
  it("reports", function () {
    const s = status(500);
    expect(s).to.equal("failed");
    const t = status(200);
    expect(t).to.be.a("string");
  });
});
----
const { expect } = require("chai");
const status = (c) => (c === 200 ? "ok" : "error");

describe("status", function () {
  it("reports", function () {
    const s = status(500);
    expect(s).to.exist;
    const t = status(200);
    expect(t).to.be.a("string");
    expect(t).to.equal("ok");
  });
});
X

# ==== zero however written: spellings written_zero misses ====
py X5_py_ne_False <<'X'
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) == 4
----
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) != False
X
py B12_py_ne_0j <<'X'
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) == 4
----
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) != 0j
X
js B13_node_notStrictEqual_0n <<'X'
const assert = require("assert");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    assert.strictEqual(add(1, 2), 4);
  });
});
----
const assert = require("assert");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    assert.notStrictEqual(add(1, 2), 0n);
  });
});
X
js B14_chai_not_equal_0n <<'X'
const { expect } = require("chai");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2)).to.equal(4);
  });
});
----
const { expect } = require("chai");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2) !== 0n).to.equal(true);
  });
});
X

# ==== a boolean's kind, in forms checks_a_booleans_kind / matches_a_kind miss ====
py B15_ut_isinstance_numbers_Number <<'X'
import numbers
import unittest


def add(a, b):
    return a + b


class T(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(1, 2), 4)
----
import numbers
import unittest


def add(a, b):
    return a + b


class T(unittest.TestCase):
    def test_add(self):
        self.assertIsInstance(add(1, 2) == 4, numbers.Number)
X
py B16_ut_not_isinstance_str <<'X'
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
        self.assertNotIsInstance(add(1, 2) == 4, str)
X
js B17_chai_not_a_string <<'X'
const { expect } = require("chai");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2) === 4).to.equal(true);
  });
});
----
const { expect } = require("chai");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2) === 4).not.to.be.a("string");
  });
});
X
js B18_jest_any_Boolean <<'X'
const { expect } = require("expect");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2) === 4).toBe(true);
  });
});
----
const { expect } = require("expect");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2) === 4).toEqual(expect.any(Boolean));
  });
});
X
js B19_chai_oneOf_true_false <<'X'
const { expect } = require("chai");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2) === 4).to.equal(true);
  });
});
----
const { expect } = require("chai");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2) === 4).to.be.oneOf([true, false]);
  });
});
X

# ==== false findings: exact checks of a new test (a split), kind/key checks that do
# check the value, names that look like chai's .a()/.key() ====
py X6_py_split_exact_check_into_new_test <<'X'
def parse(s):
    k, v = s.split("=")
    return {k: int(v)}


def test_parse():
    r = parse("x=1")
    assert r == {"x": 1}
----
def parse(s):
    k, v = s.split("=")
    return {k: int(v)}


def test_parse():
    r = parse("x=1")
    assert r is not None


def test_parse_value():
    r = parse("x=1")
    assert r == {"x": 1}
X
js X7_chai_split_exact_check_into_new_test <<'X'
const { expect } = require("chai");
const parse = (s) => ({ [s.split("=")[0]]: Number(s.split("=")[1]) });

describe("parse", function () {
  it("parses", function () {
    const r = parse("x=1");
    expect(r).to.deep.equal({ x: 1 });
  });
});
----
const { expect } = require("chai");
const parse = (s) => ({ [s.split("=")[0]]: Number(s.split("=")[1]) });

describe("parse", function () {
  it("parses", function () {
    const r = parse("x=1");
    expect(r).to.exist;
  });

  it("parses the value", function () {
    const r = parse("x=1");
    expect(r).to.deep.equal({ x: 1 });
  });
});
X
js F3_jest_toHaveProperty_with_value <<'X'
const { expect } = require("expect");
const load = () => ({ id: 3 });

describe("load", function () {
  it("loads", function () {
    const r = load();
    expect(r.id).toBe(3);
  });
});
----
const { expect } = require("expect");
const load = () => ({ id: 3 });

describe("load", function () {
  it("loads", function () {
    const r = load();
    expect(r).toBeDefined();
    expect(r).toHaveProperty("id", 3);
  });
});
X
js F4_chai_property_with_value <<'X'
const { expect } = require("chai");
const load = () => ({ id: 3 });

describe("load", function () {
  it("loads", function () {
    const r = load();
    expect(r.id).to.equal(3);
  });
});
----
const { expect } = require("chai");
const load = () => ({ id: 3 });

describe("load", function () {
  it("loads", function () {
    const r = load();
    expect(r).to.exist;
    expect(r).to.have.property("id", 3);
  });
});
X
# A method of the code under test named `key` (chai's `.key(` to asks_kind_or_key).
js F5_chai_method_named_key <<'X'
const { expect } = require("chai");
const cache = { get: (n) => "k" + n, key: (n) => "k" + n };

describe("cache", function () {
  it("names keys", function () {
    expect(cache.get(1)).to.equal("k1");
  });
});
----
const { expect } = require("chai");
const cache = { get: (n) => "k" + n, key: (n) => "k" + n };

describe("cache", function () {
  it("names keys", function () {
    expect(cache).to.exist;
    expect(cache.key(1)).to.equal("k1");
  });
});
X
js X2_chai_method_named_lookup <<'X'
const { expect } = require("chai");
const cache = { get: (n) => "k" + n, lookup: (n) => "k" + n };

describe("cache", function () {
  it("names keys", function () {
    expect(cache.get(1)).to.equal("k1");
  });
});
----
const { expect } = require("chai");
const cache = { get: (n) => "k" + n, lookup: (n) => "k" + n };

describe("cache", function () {
  it("names keys", function () {
    expect(cache).to.exist;
    expect(cache.lookup(1)).to.equal("k1");
  });
});
X
# `type(x) == list` made isinstance (kind), and a non-empty check added: kinds added net
# offset nothing, so the new `assert r.items` "weakens" the removed type check.
py F6_py_type_eq_to_isinstance_plus_nonempty <<'X'
class R:
    items = [1]


def test_items():
    r = R()
    assert type(r.items) == list
----
class R:
    items = [1]


def test_items():
    r = R()
    assert isinstance(r.items, list)
    assert r.items
X
# Python dict's .keys() read as chai's `.keys(`.
py F7_py_dict_keys_method <<'X'
def load():
    return {"a": 1, "b": 2}


def test_load():
    cfg = load()
    assert sorted(cfg) == ["a", "b"]
----
def load():
    return {"a": 1, "b": 2}


def test_load():
    cfg = load()
    assert cfg
    assert sorted(cfg.keys()) == ["a", "b"]
X
# Moved restyles canonical does not know: pytest-style conversion of assertTrue(x == y),
# and a Yoda flip.
py F8_ut_assertTrue_moved_as_assert <<'X'
import unittest


class R:
    name = "x"
    size = 2


class T(unittest.TestCase):
    def test_run(self):
        r = R()
        self.assertTrue(r.name == "x")
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
        self.assertEqual(r.name, "x")
        self.assertEqual(size, 2)
X
js F9_node_strictEqual_moved_as_chai <<'X'
const assert = require("assert");
const { expect } = require("chai");
const run = () => ({ name: "x", size: 2 });

describe("run", function () {
  it("runs", function () {
    const r = run();
    assert.strictEqual(r.name, "x");
    const size = r.size;
    expect(size).to.equal(2);
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
    expect(r.name).to.equal("x");
    expect(size).to.equal(2);
  });
});
X
py F10_py_moved_yoda <<'X'
class R:
    name = "x"
    size = 2


def test_run():
    r = R()
    assert r.name == "x"
    size = r.size
    assert size == 2
----
class R:
    name = "x"
    size = 2


def test_run():
    r = R()
    assert r is not None
    size = r.size
    assert "x" == r.name
    assert size == 2
X
