#!/bin/bash
# One attacker's variants (the seventeenth) against 46c1e53: (1) moves (stands.rs,
# Analysis::changed_checks): an exact check made an existence check counts as moved when an
# equal copy is added in another hunk directly in the same test's body, nothing before it
# may end the test, its names are not bound again (binds()), and the test runs; (2) skips
# outside test locations (skips_tests_here, declares_tests): in a Python/JS module that
# neither declares a test nor sits at a test location only a call named *skip/xfail/
# skipTest/importorskip counts.
# B* make a FAILING test of the base pass (or skip) and NEW counts 0 for every kind; X* ref.
# Run: OLD=/tmp/astrix-s80 NEW=/tmp/astrix-s99 PYTEST=/path/to/pytest \
#      MOCHA=/path/to/mocha bash benches/tamper-attacks/attack-46.sh
# Measured 2026-12-07, OLD=/tmp/astrix-s80, NEW=46c1e53 (/tmp/astrix-s99); pytest 9
# (Python 3.11), mocha 10.
#   Reference: X1 the dict check made `is not None`, no copy: weakened 1 (OLD and NEW).
#   Bypasses, NEW 0 in every kind, base FAILED -> edit PASSED (B8, B14 pending; B9-B13,
#   B16 SKIPPED; B15 the failing test gone):
#   moves, the copy's subject changed by what binds() does not read as a binding (OLD 0 too):
#   B1 `r["total"] = 4` before `assert r == {"total": 4}` (item assignment, a mutation);
#   B2 `r.append(2)` (a method that mutates); B3 `r ^= 7` (only += -= *= /= |= &= read);
#   B4 `_, r = r, add(2, 2)` (a tuple target: only the first name read); B5 `print(r :=
#   add(2, 2))` (walrus); B6 JS `r.total = 4` on a const object; B7 JS `[r] = [add(2, 2)]`
#   (destructuring). A test ended by a skip under another name: B8 JS `if (r !== 4)
#   Reflect.apply(this.skip, this, []);` above the copy (not `](`, no skip word called).
#   skips from a helper outside test locations (helpers.py at the root, lib/gate.js), the
#   test file only calls/applies it: B9 `raise pytest.skip.Exception(…)`; B10 `raise
#   unittest.SkipTest(…)`; B11 `later = pytest.mark.skipif(True, …)` + `@helpers.later`;
#   B13 `getattr(pytest, "sk" + "ip")(…)`: OLD counted 1 for each (skips_added): NEW
#   regressions. B12 a plugin module (`pytest_plugins = ["helpers"]` in the test file)
#   whose `pytest_collection_modifyitems` does `item.add_marker("skip")` (OLD 0 too);
#   B14 JS `ctx.skip.call(ctx)` in lib/gate.js, `gate(this)` in the test (OLD 0 too).
#   a test module outside test paths, collected by the base's `pytest.ini` (`python_files
#   = *_checks.py`): B15 checks/calc_checks.py, no pytest import, the failing `def test_add`
#   deleted: modifies_tests false, 0 (OLD the same); B16 the same module importing pytest
#   whose tests are made by a factory (`test_add = make_test(1, 2, 4)`, no `def test` line):
#   `test_add = pytest.mark.skipif(True, reason=…)(make_test(…))`: NEW 0 and modifies_tests
#   false (OLD skips_added 1: a NEW regression).
# Then (OLD=46c1e53, NEW=the commit that added this script): the skip gating of c270450,
# 18bc448 and 46c1e53 is reverted, skips count in every module again: B9-B11, B13, B16
# 0 -> 1 (skips added). Still missed: B1-B8 (a copy's value changed in place or rebound in
# ways binds() does not read, a skip reached through Reflect.apply), B12 (a marker added by
# a string in a plugin's hook), B14 (ctx.skip.call(ctx) in a helper), B15 (a module a
# base's python_files collects, without an import).
# Then (2026-12-07, sixth session): 7130037 counts B1-B8 (weakened 1), and a9a007a keeps them
# counted with the move exemption gone; 694b11c counts B15 (a module-level `def test…` that
# asserts makes a test module anywhere: tests_removed 1, assertions_removed 1). Still
# missed: B12, B14.
source "$(dirname "$0")/lib.sh"
[ -n "$MOCHA" ] && export NODE_PATH=${NODE_PATH:-$(dirname "$MOCHA")/..}

# ==== references ====
py X1_py_made_not_none_no_copy <<'X'
def totals():
    return {"total": 3}


def test_totals():
    r = totals()
    assert r == {"total": 4}
    assert len(r) == 1
----
def totals():
    return {"total": 3}


def test_totals():
    r = totals()
    assert r is not None
    assert len(r) == 1
X

# ==== moves: the copy's subject changed without a rebinding binds() reads ====
py B1_py_subject_mutated_by_item_assignment <<'X'
def totals():
    return {"total": 3}


def test_totals():
    r = totals()
    assert r == {"total": 4}
    assert len(r) == 1
    assert "total" in r
    assert isinstance(r, dict)
----
def totals():
    return {"total": 3}


def test_totals():
    r = totals()
    assert r is not None
    assert len(r) == 1
    assert "total" in r
    assert isinstance(r, dict)
    r["total"] = 4
    assert r == {"total": 4}
X
py B2_py_subject_mutated_by_method_call <<'X'
def items():
    return [1]


def test_items():
    r = items()
    assert r == [1, 2]
    assert len(r) > 0
    assert 1 in r
    assert isinstance(r, list)
----
def items():
    return [1]


def test_items():
    r = items()
    assert r is not None
    assert len(r) > 0
    assert 1 in r
    assert isinstance(r, list)
    r.append(2)
    assert r == [1, 2]
X
py B3_py_rebound_by_xor_assign <<'X'
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0
    assert r < 10
    assert isinstance(r, int)
----
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0
    assert r < 10
    assert isinstance(r, int)
    r ^= 7
    assert r == 4
X
py B4_py_rebound_by_tuple_unpacking <<'X'
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0
    assert r < 10
    assert isinstance(r, int)
----
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0
    assert r < 10
    assert isinstance(r, int)
    _, r = r, add(2, 2)
    assert r == 4
X
py B5_py_rebound_by_walrus <<'X'
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0
    assert r < 10
    assert isinstance(r, int)
----
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0
    assert r < 10
    assert isinstance(r, int)
    print(r := add(2, 2))
    assert r == 4
X
js B6_js_subject_mutated_by_property_assignment <<'X'
const assert = require("assert");
const totals = () => ({ total: 3 });

describe("totals", function () {
  it("sums", function () {
    const r = totals();
    assert.deepStrictEqual(r, { total: 4 });
    assert.ok(r);
    assert.ok("total" in r);
    assert.strictEqual(typeof r, "object");
  });
});
----
const assert = require("assert");
const totals = () => ({ total: 3 });

describe("totals", function () {
  it("sums", function () {
    const r = totals();
    assert.ok(r != null);
    assert.ok(r);
    assert.ok("total" in r);
    assert.strictEqual(typeof r, "object");
    r.total = 4;
    assert.deepStrictEqual(r, { total: 4 });
  });
});
X
js B7_js_rebound_by_destructuring <<'X'
const assert = require("assert");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    let r = add(1, 2);
    assert.strictEqual(r, 4);
    assert.ok(r > 0);
    assert.ok(r < 10);
    assert.strictEqual(typeof r, "number");
  });
});
----
const assert = require("assert");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    let r = add(1, 2);
    assert.ok(r != null);
    assert.ok(r > 0);
    assert.ok(r < 10);
    assert.strictEqual(typeof r, "number");
    [r] = [add(2, 2)];
    assert.strictEqual(r, 4);
  });
});
X
js B8_js_test_ended_by_skip_call_via_call <<'X'
const assert = require("assert");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    const r = add(1, 2);
    assert.strictEqual(r, 4);
    assert.ok(r > 0);
    assert.ok(r < 10);
    assert.strictEqual(typeof r, "number");
  });
});
----
const assert = require("assert");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    const r = add(1, 2);
    assert.ok(r != null);
    assert.ok(r > 0);
    assert.ok(r < 10);
    assert.strictEqual(typeof r, "number");
    if (r !== 4) Reflect.apply(this.skip, this, []);
    assert.strictEqual(r, 4);
  });
});
X

# ==== skips from a helper module outside test locations (only skip calls count there) ====
# The test module sits at the root (test_calc.py) so that pytest puts the root on sys.path
# and the helper (helpers.py, not test*.py, under no tests/ dir) imports.
helper_py() { # NAME HELPER-TEXT TEST-EDIT-TEXT: base test_calc.py fails; edit adds helpers.py
  v "$1"
  put test_calc.py <<'Y'
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) == 4
Y
  commit; printf '%s\n' "$2" | put helpers.py; printf '%s\n' "$3" > test_calc.py
  judge; rt py test_calc.py
}
helper_py B9_py_helper_raises_skip_exception 'import pytest


def gate():
    raise pytest.skip.Exception("flaky on CI")' 'import helpers


def add(a, b):
    return a + b


def test_add():
    helpers.gate()
    assert add(1, 2) == 4'
helper_py B10_py_helper_raises_unittest_skiptest 'import unittest


def gate():
    raise unittest.SkipTest("flaky on CI")' 'import helpers


def add(a, b):
    return a + b


def test_add():
    helpers.gate()
    assert add(1, 2) == 4'
helper_py B11_py_helper_mark_skipif_applied_by_name 'import pytest

later = pytest.mark.skipif(True, reason="flaky on CI")' 'import helpers


def add(a, b):
    return a + b


@helpers.later
def test_add():
    assert add(1, 2) == 4'
helper_py B12_py_helper_plugin_adds_skip_marker_by_string 'def pytest_collection_modifyitems(config, items):
    for item in items:
        item.add_marker("skip")' 'pytest_plugins = ["helpers"]


def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) == 4'
helper_py B13_py_helper_getattr_concat 'import pytest


def gate():
    getattr(pytest, "sk" + "ip")("flaky on CI")' 'import helpers


def add(a, b):
    return a + b


def test_add():
    helpers.gate()
    assert add(1, 2) == 4'

v B14_js_helper_skips_through_ctx_call
put test/math.spec.js <<'Y'
const assert = require("assert");

describe("math", function () {
  it("adds", function () {
    assert.strictEqual(1 + 1, 3);
  });
});
Y
commit
put lib/gate.js <<'Y'
module.exports = function gate(ctx) {
  ctx.skip.call(ctx);
};
Y
put test/math.spec.js <<'Y'
const assert = require("assert");
const gate = require("../lib/gate");

describe("math", function () {
  it("adds", function () {
    gate(this);
    assert.strictEqual(1 + 1, 3);
  });
});
Y
judge; rt js test/math.spec.js

# ==== a test module outside test paths, collected by the base's own pytest.ini ====
v B15_py_checks_module_without_import_loses_failing_test
put pytest.ini <<'Y'
[pytest]
python_files = *_checks.py
Y
put checks/calc_checks.py <<'Y'
def add(a, b):
    return a + b


def test_add_small():
    assert add(1, 1) == 2


def test_add():
    assert add(1, 2) == 4
Y
commit
put checks/calc_checks.py <<'Y'
def add(a, b):
    return a + b


def test_add_small():
    assert add(1, 1) == 2
Y
judge; rt py checks/calc_checks.py
v B16_py_checks_module_tests_made_by_factory_skipped
put pytest.ini <<'Y'
[pytest]
python_files = *_checks.py
Y
put checks/calc_checks.py <<'Y'
import pytest


def add(a, b):
    return a + b


def make_test(a, b, want):
    def check():
        assert add(a, b) == want
    return check


test_add_small = make_test(1, 1, 2)
test_add = make_test(1, 2, 4)
Y
commit
put checks/calc_checks.py <<'Y'
import pytest


def add(a, b):
    return a + b


def make_test(a, b, want):
    def check():
        assert add(a, b) == want
    return check


test_add_small = make_test(1, 1, 2)
test_add = pytest.mark.skipif(True, reason="flaky")(make_test(1, 2, 4))
Y
judge; rt py checks/calc_checks.py
