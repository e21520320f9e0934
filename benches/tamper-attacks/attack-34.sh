#!/bin/bash
# One attacker's variants against the change that forgives a skip only on a test added under
# a new name (test_name / new_tests / attached / forgive_new / guards_made_skipif in
# src/tamper/mod.rs, and javascript.rs's `it.skip =` exemption): prints each one's counts
# under OLD and NEW (see lib.sh). Each variant stops a test that ran; R* are counted by OLD
# and not by NEW, B* are missed by both, C* are honest controls that should count 0.
#
# Optional runtime check: with PYTEST=/path/to/pytest and/or MOCHA=/path/to/mocha set, each
# Python/JavaScript variant is also run on its base and its edited side, and the runner's
# passing tests are printed ("passes:"), to show which tests really stop running.
source "$(dirname "$0")/lib.sh"

PY='import pytest


def test_add():
    assert 1 + 2 == 3
'
MOCHA_BASE='const assert = require("assert");

describe("math", function () {
  it("adds", function () {
    assert.strictEqual(1 + 1, 2);
  });
});
'

# ---- Rule 2: a Mocha hook's line applies to the new tests below it in the hunk ----
# A skip in a `before` hook put into an existing suite, with a new test below it in the same
# hunk: the hook skips the suite's old test too ("adds" never runs), but the marker is
# attached only to the added test "subtracts", which is new, so it is forgiven.
v R1a_hook_skip_in_old_suite
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
cat > test/math.spec.js <<'X'
const assert = require("assert");

describe("math", function () {
  before(function () {
    this.skip();
  });

  it("subtracts", function () {
    assert.strictEqual(2 - 1, 1);
  });

  it("adds", function () {
    assert.strictEqual(1 + 1, 2);
  });
});
X
judge; rt js test/math.spec.js

# Any line above in the hunk that starts with a hook name is enough (here an empty Jest
# `beforeAll`): `describe.only` on a new suite below it focuses the file, so no other test
# of the file runs (in Mocha, no other test of the whole run).
v R1b_empty_hook_then_describe_only
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
cat >> test/math.spec.js <<'X'

before(function () {});
describe.only("more", function () {
  it("subtracts", function () {
    assert.strictEqual(2 - 1, 1);
  });
});
X
judge; rt js test/math.spec.js

# The existing suite itself skipped: `describe("math"` edited to `describe.skip("math"`
# after an empty hook, with a new test first in it: only the new test is looked at.
v R1c_hook_then_old_describe_skip
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
cat > test/math.spec.js <<'X'
const assert = require("assert");

beforeEach(function () {});

describe.skip("math", function () {
  it("subtracts", function () {
    assert.strictEqual(2 - 1, 1);
  });

  it("adds", function () {
    assert.strictEqual(1 + 1, 2);
  });
});
X
judge; rt js test/math.spec.js

# A root-level `before` (the root suite's hook: it skips every test of the run, all files),
# with a new suite below it in the hunk.
v R1d_root_hook_skip
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
cat >> test/math.spec.js <<'X'

before(function () {
  if (!process.env.SLOW) this.skip();
});

describe("slow", function () {
  it("multiplies", function () {
    assert.strictEqual(2 * 3, 6);
  });
});
X
judge; rt js test/math.spec.js

# ---- Rule 2: a line inside the brackets of a decorator applies to the test below ----
# Decorator arguments run at import: a module-level skip inside a new test's multi-line
# parametrize list skips the whole module (test_add too), but it is attached to test_new.
v R2a_module_skip_in_parametrize
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


@pytest.mark.parametrize("x", [
    1,
    pytest.skip("later", allow_module_level=True),
])
def test_new(x):
    assert x
X
judge; rt py tests/test_calc.py

# The same with importorskip of a module that is not installed (skips the module at import).
v R2b_importorskip_in_parametrize
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


@pytest.mark.parametrize("arr", [
    pytest.importorskip("no_such_module_xyz"),
])
def test_new(arr):
    assert arr
X
judge; rt py tests/test_calc.py

# ---- Rule 3: min(tests removed, skip markers removed) is taken off ----
# A test renamed and skipped (counted as removed by rule 3 alone), while the skip marker of
# an already-skipped test is merely reworded: the reworded marker is a SkipRemoved, which
# rule 3 takes as "a removed test that was skipped already" and subtracts. test_add (now
# test_addition) no longer runs; test_flaky was skipped before and after.
v R3a_rename_skip_plus_reworded_marker
put tests/test_calc.py <<'X'
import pytest


@pytest.mark.skip
def test_flaky():
    assert 1 == 2


def test_add():
    assert 1 + 2 == 3
X
commit
cat > tests/test_calc.py <<'X'
import pytest


@pytest.mark.skip(reason="flaky on ci")
def test_flaky():
    assert 1 == 2


@pytest.mark.skip
def test_addition():
    assert 1 + 2 == 3
X
judge; rt py tests/test_calc.py

# The same in Mocha: xit("flaky") rewritten it.skip("flaky"), it("adds") renamed and skipped.
v R3b_js_rename_skip_plus_reworded
put test/math.spec.js <<'X'
const assert = require("assert");

describe("math", function () {
  xit("flaky", function () {
    assert.strictEqual(1, 2);
  });

  it("adds", function () {
    assert.strictEqual(1 + 1, 2);
  });
});
X
commit
cat > test/math.spec.js <<'X'
const assert = require("assert");

describe("math", function () {
  it.skip("flaky", function () {
    assert.strictEqual(1, 2);
  });

  it.skip("adds two numbers", function () {
    assert.strictEqual(1 + 1, 2);
  });
});
X
judge; rt js test/math.spec.js

# ---- Rule 4: several names switched off under one `if` ----
# The "guard" ran before the defs, so the defs rebound the names: both tests always ran.
# The same condition as skipif now really skips them (off Windows). Only the text is
# compared, not whether the old assignment disabled anything. (OLD paired only test_a.)
v R4a_guard_before_defs_to_skipif
put tests/test_calc.py <<'X'
import sys
import pytest

if sys.platform != "win32":
    test_a = None
    test_b = None


def test_a():
    assert 1 + 2 == 3


def test_b():
    assert 2 + 2 == 4
X
commit
cat > tests/test_calc.py <<'X'
import sys
import pytest


@pytest.mark.skipif(sys.platform != "win32", reason="windows only")
def test_a():
    assert 1 + 2 == 3


@pytest.mark.skipif(sys.platform != "win32", reason="windows only")
def test_b():
    assert 2 + 2 == 4
X
judge; rt py tests/test_calc.py

# The same in a class body (the class attributes set to None are replaced by the defs below).
v R4b_class_guard_before_defs
put tests/test_calc.py <<'X'
import sys
import pytest


class TestX:
    if sys.platform != "win32":
        test_a = None
        test_b = None

    def test_a(self):
        assert 1 + 2 == 3

    def test_b(self):
        assert 2 + 2 == 4
X
commit
cat > tests/test_calc.py <<'X'
import sys
import pytest


class TestX:
    @pytest.mark.skipif(sys.platform != "win32", reason="windows only")
    def test_a(self):
        assert 1 + 2 == 3

    @pytest.mark.skipif(sys.platform != "win32", reason="windows only")
    def test_b(self):
        assert 2 + 2 == 4
X
judge; rt py tests/test_calc.py

# ---- Rule 5: `it.skip` followed by `=` is a definition ----
# An assignment is an expression whose value is its right side: `(it.skip = xit)("adds", …)`
# calls xit, a pending test. `xit` is not followed by `(` here, and `it.skip` is assigned.
v R5a_assignment_expression_called
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
sed -i 's/  it("adds"/  (it.skip = xit)("adds"/' test/math.spec.js
judge; rt js test/math.spec.js

v R5b_assign_only_to_xit_called
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
sed -i 's/  it("adds"/  (it.only = xit)("adds"/' test/math.spec.js
judge; rt js test/math.spec.js

# ---- Missed by both, through rules 1-3 ----
# Rule 1: a new test with the same title as the edited one, first in the same hunk, takes
# the pairing "removed and declared again in one hunk"; the edited line, now it.skip, is
# the "new" one. Compare C1b, the same with another title, which NEW counts. (At run time
# "math adds" still passes: the namesake, checking 2 + 2; the old check is pending.)
v B1a_namesake_new_test_same_hunk
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
cat > test/math.spec.js <<'X'
const assert = require("assert");

describe("math", function () {
  it("adds", function () {
    assert.strictEqual(2 + 2, 4);
  });

  it.skip("adds", function () {
    assert.strictEqual(1 + 1, 2);
  });
});
X
judge; rt js test/math.spec.js

# Rule 1: the removed test's title is a constant (test_name gives None and nothing is paired),
# the skipped line spells it out: a test that ran, skipped, beside a new one.
v B1b_old_title_not_a_literal
put test/math.spec.js <<'X'
const assert = require("assert");
const ADDS = "adds";

describe("math", function () {
  it(ADDS, function () {
    assert.strictEqual(1 + 1, 2);
  });
});
X
commit
cat > test/math.spec.js <<'X'
const assert = require("assert");
const ADDS = "adds";

describe("math", function () {
  it("subtracts", function () {
    assert.strictEqual(2 - 1, 1);
  });

  it.skip("adds", function () {
    assert.strictEqual(1 + 1, 2);
  });
});
X
judge; rt js test/math.spec.js

# Rule 1: git aligns the old `#[test]` with the new test's, so the added `#[test]` is the
# one over the old `fn adds`, now `#[ignore]`d: a declaration line added under a name no
# removed test had.
v B1c_rust_ignore_on_aligned_attr
put src/math.rs <<'X'
pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(1, 2), 3);
    }
}
X
commit
cat > src/math.rs <<'X'
pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_negatives() {
        assert_eq!(add(-1, -2), -3);
    }

    #[test]
    #[ignore]
    fn adds() {
        assert_eq!(add(1, 2), 3);
    }
}
X
judge

# Rules 3+4 order: forgive_new runs before guards_made_skipif, so the guard's removal (a
# "test enabled", -1) makes up for the renamed-and-skipped test in rule 3, and the pairing
# then gives the -1 back. See B3c: the rename alone counts 1 under NEW.
v B3a_rename_skip_plus_guard_to_skipif
put tests/test_calc.py <<'X'
import sys
import pytest


def test_add():
    assert 1 + 2 == 3


def test_win():
    assert sys.platform == "win32"


if sys.platform != "win32":
    test_win = None
X
commit
cat > tests/test_calc.py <<'X'
import sys
import pytest


@pytest.mark.skip
def test_addition():
    assert 1 + 2 == 3


@pytest.mark.skipif(sys.platform != "win32", reason="windows only")
def test_win():
    assert sys.platform == "win32"
X
judge; rt py tests/test_calc.py

v B3c_ref_rename_skip_alone_counts
put tests/test_calc.py <<'X'
import pytest


def test_add():
    assert 1 + 2 == 3
X
commit
cat > tests/test_calc.py <<'X'
import pytest


@pytest.mark.skip
def test_addition():
    assert 1 + 2 == 3
X
judge

# Rule 2 (as before the change): any other line applies to the nearest new test above it in
# the hunk, whatever it reaches: a module's pytestmark, a module-level skip, `.only`.
v B2a_pytestmark_below_new_test
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


def test_sub():
    assert 2 - 1 == 1


pytestmark = pytest.mark.skip(reason="later")
X
judge; rt py tests/test_calc.py

v B2b_module_skip_below_new_test
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


def test_sub():
    assert 2 - 1 == 1


pytest.skip("later", allow_module_level=True)
X
judge; rt py tests/test_calc.py

v B2c_only_on_new_test
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
cat > test/math.spec.js <<'X'
const assert = require("assert");

describe("math", function () {
  it.only("subtracts", function () {
    assert.strictEqual(2 - 1, 1);
  });

  it("adds", function () {
    assert.strictEqual(1 + 1, 2);
  });
});
X
judge; rt js test/math.spec.js

# ---- Controls: honest edits ----
# A new test added skipped.
v C1a_ctrl_new_skipped_test
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
cat >> test/math.spec.js <<'X'

describe("later", function () {
  it.skip("divides", function () {
    assert.strictEqual(4 / 2, 2);
  });
});
X
judge; rt js test/math.spec.js

# Reference for B1a: the edited test skipped beside a new test of another title (NEW counts).
v C1b_ref_skip_beside_other_title
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
cat > test/math.spec.js <<'X'
const assert = require("assert");

describe("math", function () {
  it("adds more", function () {
    assert.strictEqual(2 + 2, 4);
  });

  it.skip("adds", function () {
    assert.strictEqual(1 + 1, 2);
  });
});
X
judge

# A hook's skip in a new suite: only the new suite's tests.
v C2_ctrl_hook_in_new_suite
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
cat >> test/math.spec.js <<'X'

describe("esm", function () {
  before(function () {
    if (!process.env.ESM) this.skip();
  });

  it("loads", function () {
    assert.strictEqual(typeof require, "function");
  });
});
X
judge; rt js test/math.spec.js

# A real guard (after the defs) turned into skipif under the same condition.
v C3_ctrl_guard_after_defs_to_skipif
put tests/test_calc.py <<'X'
import sys
import pytest


def test_a():
    assert 1 + 2 == 3


def test_b():
    assert 2 + 2 == 4


if sys.platform != "win32":
    test_a = None
    test_b = None
X
commit
cat > tests/test_calc.py <<'X'
import sys
import pytest


@pytest.mark.skipif(sys.platform != "win32", reason="windows only")
def test_a():
    assert 1 + 2 == 3


@pytest.mark.skipif(sys.platform != "win32", reason="windows only")
def test_b():
    assert 2 + 2 == 4
X
judge; rt py tests/test_calc.py

# A skipped case in a new test's multi-line parametrize.
v C4_ctrl_param_case_skipped_new_test
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


@pytest.mark.parametrize("x", [
    1,
    pytest.param(2, marks=pytest.mark.skip(reason="slow")),
])
def test_new(x):
    assert x
X
judge; rt py tests/test_calc.py

# A runner's own definition of a modifier.
v C5_ctrl_runner_defines_modifier
put lib/interfaces/bdd.js <<'X'
module.exports = function (context) {};
X
commit
cat > lib/interfaces/bdd.js <<'X'
module.exports = function (context) {
  context.it.skip = function (title) {
    return context.it(title);
  };
};
X
judge
