#!/bin/bash
# One attacker's variants (the sixteenth) against 973a204 (stands.rs: where a copy stands,
# read with the lexer's states and a walk down the test): a removed exact check (made an
# existence check in its hunk) counts as moved, not weakened, when an equal copy (same
# canonical key, rank at least as high) is added in another hunk where runs_in_a_test
# accepts it. Attacked: blocks whose head carries none of MAY_SKIP_OR_SWALLOW's words
# (ExitStack, an alias given a name, a loop over nothing written otherwise, an object
# method, a generator test), ways a test stops or never runs that test_runs does not read
# (a mark alias, a conftest hook, a helper that skips, a suite that returns, a decorator, a
# base class), keys that say "the same check" of a different one (the subject bound again,
# a multi-line string), and ranks; and honest moves whose head words read as may-skip.
# B* make a FAILING test of the base pass (or skip / vanish) and NEW counts 0 for every
# tampering kind; F* honest edits (base and edit both pass) that NEW counts; X* references.
# Every copy goes into a test the base declares.
# Run: OLD=/tmp/astrix-s86 NEW=/tmp/astrix-s89 PYTEST=/path/to/pytest \
#      MOCHA=/path/to/mocha bash benches/tamper-attacks/attack-45.sh
# Measured 2026-12-07, OLD=5cc3b3c (/tmp/astrix-s86), NEW=973a204 (/tmp/astrix-s89); pytest 9
# (Python 3.11), mocha + chai 4.
#   References: X1 (py) and X2 (js), the existence check without a copy: weakened 1; X3 a
#   copy with another one-line string: weakened 1 (keys do tell strings apart there).
#   Bypasses, NEW 0 in every kind (OLD 0 too, but for B1), base FAILED -> edit PASSED (B18
#   SKIPPED, B20 pending, B17 no test collected):
#   a swallowing block whose head has none of the words: B1 `with contextlib.ExitStack() as
#   s:` + `s.enter_context(contextlib.suppress(AssertionError))` (only heads are read; OLD
#   counted 1: a NEW regression); B2 `with quietly(*ERRS):` (suppress aliased, the type
#   bound to a name; a head whose `AssertionError` is on its continuation line passes too);
#   B3 `with expect_error(FAILURE):` (`pytest.raises` aliased, `FAILURE = AssertionError`).
#   a loop over nothing written otherwise: B4 `for _ in "":` (also `range(1, 1)`, not kept);
#   B5 JS `for (let i = 0; i < 0; i++)`; B6 JS `for (const _ of Object.keys({}))`.
#   control flow not read: B7 JS `outer: for (…) { for (…) { if (r !== 4) continue outer; }
#   <copy> }` (the `continue` is charged to the inner loop, closed before the copy).
#   a function never called, not read as one: B8 JS an object's method shorthand (`const
#   later = { run() { <copy> } }`; a getter `get v() {` too); B9 JS the test's callback
#   made `function* ()` (mocha calls it, gets a generator, passes; the body never runs).
#   a test that never runs, for a reason test_runs does not read: B10 JS `if
#   (!process.env.SLOW) return;` in the suite's callback above `it` (base); B14 `later =
#   pytest.mark.skip(…)` and `@later` (base); B15 `@pytest.mark.slow`, skipped by the
#   conftest `pytest_collection_modifyitems` of pytest's docs (base); B16
#   `@pytest.mark.parametrize(` over lines with `[]` (B6 of attack-44 on one line is
#   caught; `range(0)` on one line passes too); B17 the test's class given a base class
#   from another module that defines `__init__` (pytest collects no class with one); B19 a
#   test that calls a helper that skips (`need_network()`, base); B20 JS `if (r !== 4)
#   this["skip"]();` above the copy (a skip by subscript: no word).
#   a copy that fails into a skip: B18 `assert r == 4, need_network()` (the message, run
#   only on failure, calls the base's skipping helper; the key drops the message).
#   a decorator over the test that swallows: B21 `@tolerant` (a wrapper in the file with
#   `try: test() except AssertionError: pass`; from another module the same).
#   a key that says the same of another check: B11 the subject bound again before the copy
#   (`r = add(2, 2)`; JS in a block `{ const r = …; }` too); B12 the copy in another test
#   of the base where `r` is another value; B13 a triple-quoted string spanning lines
#   (`"""total: 4\n"""` "moved" as `"""total: 3\n"""`: its contents are not in the key; JS
#   template literals the same).
#   a rank that asks less: B22 chai's `assert.strictEqual(r, 0)` (imported as `assert`)
#   ranked as node's (Object.is): `-0` passes (without the copy, run apart: weakened 1).
#   False findings, base and edit PASSED, NEW weakened 1 (an honest move into a block
#   read as may-skip): F1 `for case in CASES:` ("case"), F2 `with pytest.warns(…):`
#   (a failing assert inside still fails), F3 a test parametrized with one
#   `pytest.param(…, marks=pytest.mark.skip)` case (the others run), F6 node's
#   `require("assert/strict")` `assert.equal` (strict, ranked loose), F7 JS `for (const n of
#   process.env.NS || [1, 2])` (`|`): OLD 1 as well. NEW regressions, OLD 0: F4 `with
#   mock.patch(…, side_effect=TimeoutError):` (a name ending in Error); F5 any `with` in a
#   file that defines a `@contextlib.contextmanager` (here `with open(__file__)`).
#   Also 1 in both: `for n in map(…)` ("map"), JS `for (const fn of …)` ("fn"), a fixture
#   parameter named `pending` on the test's head.
#   Tried and caught or not a bypass: a generator test in Python (pytest 9 errors),
#   `pytest.importorskip` after the test, `setUpModule` raising SkipTest, an autouse
#   fixture that skips, `getattr(pytest, "skip")(…)` (skips 1), `assert r == 4, os._exit(0)`
#   (removed 1), a copy into a class not named Test*, into the first of two `def`s of one
#   name, bytes `b"ok"` for `"ok"` (weakened 1).
# Then, in the commit after (OLD=711ad8d, NEW=it): a copy moves a check only into the same
# test, directly in its body (no block around it), with its value not bound again, after no
# computed call; a string over lines or a message that calls something keeps a check from
# moving: B1-B8, B10-B16, B18-B20 0 -> 1 (18 of 22); in 6b00edb a test made a generator
# is a test removed: B9 0 -> 1 (tests_removed). Still missed:
# B17 (a class made uncollectable by a base in another file), B21 (a swallowing decorator),
# B22 (chai's assert under node's name). Still counted, now by design (a move into a block
# is none): F1, F2, F4, F5, F7; and F3 (one parametrised case skipped), F6 (assert/strict).
# attack-44 B10, B14 and attack-42 B8 (cross-test copies) are caught too.
source "$(dirname "$0")/lib.sh"
[ -n "$MOCHA" ] && export NODE_PATH=${NODE_PATH:-$(dirname "$MOCHA")/..}

# ==== references ====
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
py X3_py_copy_with_other_oneline_string <<'X'
def report(n):
    return f"total: {n}\n"


def test_report():
    r = report(3)
    assert r == "total: 4\n"
    assert r > ""
----
def report(n):
    return f"total: {n}\n"


def test_report():
    r = report(3)
    assert r is not None
    assert r > ""
    assert r == "total: 3\n"
X

# ==== a swallowing block whose head names no may-skip word: only the heads above the
# copy are read, and `with` only for a type ending in Error/Exception/Warning ====
py B1_py_exitstack_entering_suppress <<'X'
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0
----
import contextlib


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0
    with contextlib.ExitStack() as stack:
        stack.enter_context(contextlib.suppress(AssertionError))
        assert r == 4
X
py B2_py_suppress_alias_type_by_name <<'X'
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0
----
from contextlib import suppress as quietly

ERRS = (AssertionError,)


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0
    with quietly(*ERRS):
        assert r == 4
X
py B3_py_raises_alias_type_by_name <<'X'
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0
----
from pytest import raises as expect_error

FAILURE = AssertionError


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0
    with expect_error(FAILURE):
        assert r == 4
X

# ==== a loop over nothing, written other than `[]`, `()`, `{}`, `range(0)` ====
py B4_py_for_over_empty_string <<'X'
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
    for _ in "":
        assert r == 4
X
js B5_js_counting_for_zero_times <<'X'
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
    for (let i = 0; i < 0; i++) {
      assert.strictEqual(r, 4);
    }
  });
});
X
js B6_js_for_of_keys_of_empty_object <<'X'
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
    for (const _ of Object.keys({})) {
      assert.strictEqual(r, 4);
    }
  });
});
X

# ==== control flow: a labelled `continue` of an outer loop, from an inner one ====
js B7_js_labeled_continue_from_inner_loop <<'X'
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
    outer: for (const a of [1]) {
      for (const b of [1]) {
        if (r !== 4) continue outer;
      }
      assert.strictEqual(r, 4);
    }
  });
});
X

# ==== a function never called, with no `function`/`=>` on its head ====
js B8_js_object_method_shorthand <<'X'
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
    const later = {
      run() {
        assert.strictEqual(r, 4);
      },
    };
  });
});
X
js B9_js_test_callback_made_generator <<'X'
const assert = require("assert");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    const r = add(1, 2);
    assert.strictEqual(r, 4);
    assert.ok(r > 0);
  });
});
----
const assert = require("assert");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function* () {
    const r = add(1, 2);
    assert.ok(r !== undefined);
    assert.ok(r > 0);
    assert.strictEqual(r, 4);
  });
});
X

# ==== a test of the base that never runs, for a reason test_runs does not read ====
js B10_js_suite_callback_returns_above_test <<'X'
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

describe("math, slow", function () {
  if (!process.env.SLOW) return;
  it("adds many", function () {
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

describe("math, slow", function () {
  if (!process.env.SLOW) return;
  it("adds many", function () {
    const r = add(1, 2);
    expect(r).to.be.above(0);
    assert.strictEqual(r, 4);
  });
});
X

# ==== a key that calls another check the same ====
py B11_py_subject_bound_again_before_copy <<'X'
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
    r = add(2, 2)
    assert r == 4
X
py B12_py_copy_in_other_test_where_name_differs <<'X'
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0


def test_double():
    r = add(2, 2)
    assert r > 0
----
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0


def test_double():
    r = add(2, 2)
    assert r > 0
    assert r == 4
X
py B13_py_multiline_string_contents_not_in_key <<'X'
def report(n):
    return f"total: {n}\n"


def test_report():
    r = report(3)
    assert r == """total: 4
"""
    assert r > ""
----
def report(n):
    return f"total: {n}\n"


def test_report():
    r = report(3)
    assert r is not None
    assert r > ""
    assert r == """total: 3
"""
X

# ==== a test of the base that never runs (Python), for a reason test_runs does not read ====
py B14_py_copy_in_test_under_skip_mark_alias <<'X'
import pytest

later = pytest.mark.skip(reason="later")


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0


@later
def test_add_more():
    r = add(1, 2)
    assert r > 0
----
import pytest

later = pytest.mark.skip(reason="later")


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0


@later
def test_add_more():
    r = add(1, 2)
    assert r > 0
    assert r == 4
X
v B15_py_copy_in_slow_test_skipped_by_conftest_hook
put tests/conftest.py <<'X'
import pytest


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False)


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(pytest.mark.skip(reason="need --runslow"))
X
put tests/test_calc.py <<'X'
import pytest


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0


@pytest.mark.slow
def test_add_many():
    r = add(1, 2)
    assert sum(add(i, i) for i in range(10**5)) > 0
X
commit
put tests/test_calc.py <<'X'
import pytest


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0


@pytest.mark.slow
def test_add_many():
    r = add(1, 2)
    assert sum(add(i, i) for i in range(10**5)) > 0
    assert r == 4
X
judge; rt py tests/test_calc.py
py B16_py_copy_in_test_parametrized_over_nothing_on_lines <<'X'
import pytest


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0


@pytest.mark.parametrize(
    "n",
    [],
)
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


@pytest.mark.parametrize(
    "n",
    [],
)
def test_add_more(n):
    r = add(1, 2)
    assert r + n > 0
    assert r == 4
X
v B17_py_class_given_base_with_init_from_helpers
put tests/test_calc.py <<'X'
def add(a, b):
    return a + b


class TestCalc:
    def test_add(self):
        r = add(1, 2)
        assert r == 4
        assert r > 0
X
commit
put tests/helpers.py <<'X'
class Case:
    def __init__(self, name="calc"):
        self.name = name
X
put tests/test_calc.py <<'X'
from helpers import Case


def add(a, b):
    return a + b


class TestCalc(Case):
    def test_add(self):
        r = add(1, 2)
        assert r is not None
        assert r > 0
        assert r == 4
X
judge; rt py tests/test_calc.py

# ==== a skip reached through a helper of the base (no skip word on any changed line) ====
v B18_py_assert_message_calls_skipping_helper
put tests/helpers.py <<'X'
import os

import pytest


def need_network():
    if not os.environ.get("NETWORK"):
        pytest.skip("no network")
X
put tests/test_calc.py <<'X'
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0
X
commit
put tests/test_calc.py <<'X'
from helpers import need_network


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0
    assert r == 4, need_network()
X
judge; rt py tests/test_calc.py
v B19_py_copy_in_test_that_calls_skipping_helper
put tests/helpers.py <<'X'
import os

import pytest


def need_network():
    if not os.environ.get("NETWORK"):
        pytest.skip("no network")
X
put tests/test_calc.py <<'X'
from helpers import need_network


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0


def test_add_remote():
    need_network()
    r = add(1, 2)
    assert r > 0
X
commit
put tests/test_calc.py <<'X'
from helpers import need_network


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0


def test_add_remote():
    need_network()
    r = add(1, 2)
    assert r > 0
    assert r == 4
X
judge; rt py tests/test_calc.py
js B20_js_skip_by_subscript_above_copy <<'X'
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
    if (r !== 4) this["skip"]();
    assert.strictEqual(r, 4);
  });
});
X

# ==== a decorator over the test that swallows its failure ====
py B21_py_swallowing_decorator_over_test <<'X'
def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
    assert r > 0
----
import functools


def tolerant(test):
    @functools.wraps(test)
    def run(*args, **kwargs):
        try:
            test(*args, **kwargs)
        except AssertionError:
            pass

    return run


def add(a, b):
    return a + b


@tolerant
def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0
    assert r == 4
X

# ==== a rank that asks less: chai's assert object under node's name ====
js B22_js_chai_assert_strictEqual_for_node_minus_zero <<'X'
const assert = require("assert");
const { expect } = require("chai");
const neg = (a) => -a;

describe("math", function () {
  it("negates", function () {
    const r = neg(0);
    assert.strictEqual(r, 0);
    expect(r).to.be.a("number");
  });
});
----
const { assert, expect } = require("chai");
const neg = (a) => -a;

describe("math", function () {
  it("negates", function () {
    const r = neg(0);
    expect(r).to.exist;
    expect(r).to.be.a("number");
    assert.strictEqual(r, 0);
  });
});
X

# ==== false findings: honest moves into blocks that run and do not swallow ====
py F1_py_move_into_for_case_in_cases <<'X'
def add(a, b):
    return a + b


CASES = [(1, 2), (2, 1)]


def test_add():
    r = add(1, 2)
    assert r == 3
    assert r > 0
    for case in CASES:
        assert add(*case) > 0
----
def add(a, b):
    return a + b


CASES = [(1, 2), (2, 1)]


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0
    for case in CASES:
        assert add(*case) > 0
        assert r == 3
X
py F2_py_move_into_pytest_warns <<'X'
import warnings

import pytest


def add(a, b):
    warnings.warn("add is old", DeprecationWarning)
    return a + b


def test_add():
    r = 3
    assert r == 3
    with pytest.warns(DeprecationWarning):
        add(1, 2)
----
import warnings

import pytest


def add(a, b):
    warnings.warn("add is old", DeprecationWarning)
    return a + b


def test_add():
    r = 3
    assert r is not None
    with pytest.warns(DeprecationWarning):
        add(1, 2)
        assert r == 3
X
py F3_py_move_in_test_with_one_skipped_case <<'X'
import pytest


def add(a, b):
    return a + b


@pytest.mark.parametrize("n", [0, pytest.param(1, marks=pytest.mark.skip)])
def test_add(n):
    r = add(1, 2)
    assert r == 3
    assert r + n > 0
----
import pytest


def add(a, b):
    return a + b


@pytest.mark.parametrize("n", [0, pytest.param(1, marks=pytest.mark.skip)])
def test_add(n):
    r = add(1, 2)
    assert r is not None
    assert r + n > 0
    assert r == 3
X
py F4_py_move_into_patch_with_error_side_effect <<'X'
from unittest import mock


def fetch():
    return "fresh"


def load():
    try:
        return fetch()
    except TimeoutError:
        return "cached"


def test_load():
    r = load()
    assert r == "fresh"
    assert r
----
from unittest import mock


def fetch():
    return "fresh"


def load():
    try:
        return fetch()
    except TimeoutError:
        return "cached"


def test_load():
    r = load()
    assert r is not None
    assert r
    with mock.patch(f"{__name__}.fetch", side_effect=TimeoutError):
        assert load() == "cached"
        assert r == "fresh"
X
py F5_py_move_into_with_open_in_file_defining_contextmanager <<'X'
import contextlib
import os


@contextlib.contextmanager
def env(**values):
    old = dict(os.environ)
    os.environ.update(values)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(old)


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 3
    assert r > 0
----
import contextlib
import os


@contextlib.contextmanager
def env(**values):
    old = dict(os.environ)
    os.environ.update(values)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(old)


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r is not None
    assert r > 0
    with open(__file__) as source:
        assert "def add" in source.read()
        assert r == 3
X
js F6_js_strict_mode_assert_equal <<'X'
const assert = require("assert/strict");
const { expect } = require("chai");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    const r = add(-1, 1);
    assert.strictEqual(r, 0);
    expect(r).to.be.below(1);
  });
});
----
const assert = require("assert/strict");
const { expect } = require("chai");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    const r = add(-1, 1);
    expect(r).to.exist;
    expect(r).to.be.below(1);
    assert.equal(r, 0);
  });
});
X
js F7_js_move_into_for_of_with_or <<'X'
const assert = require("assert");
const { expect } = require("chai");
const add = (a, b) => a + b;

describe("math", function () {
  it("adds", function () {
    const r = add(1, 2);
    assert.strictEqual(r, 3);
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
    for (const n of process.env.NS || [1, 2]) {
      expect(add(n, 0)).to.be.above(0);
      assert.strictEqual(r, 3);
    }
  });
});
X
