#!/bin/bash
# One attacker's variants against the rules that forgive a skip on a new test (test_name_at /
# new_tests / attached / suite_hook_tests / suite_tests / forgive_new in src/tamper/mod.rs),
# pytester's line matchers (asserts_dropped_from_line_matchers) and javascript.rs's
# `global.expect = require(<library>)` exemption, going past attack-34.sh. Each variant
# makes a FAILING test of the base stop running or stop failing; R* all count 0 under NEW
# for tests removed, skips added and assertions removed (OLD's counts are printed beside:
# OLD catches R1a-c, R1h and R3a-c; R4a-b only as a weakened assertion), X* are the same
# edits without the trick, which NEW counts, and C* are honest controls that should count 0.
#
# Optional runtime check: with PYTEST=/path/to/pytest and/or MOCHA=/path/to/mocha set, each
# Python/JavaScript variant is also run on its base and its edited side ("run (base|edit)":
# the runner's outcome per test), to show that the failing test really stops failing.
source "$(dirname "$0")/lib.sh"

# The bases: one test that runs and FAILS (add is off by one).
PY='import pytest


def add(a, b):
    return a + b + 1


def test_add():
    assert add(1, 2) == 3
'
MOCHA_BASE='const assert = require("assert");
const add = (a, b) => a + b + 1;

describe("math", function () {
  it("adds", function () {
    assert.strictEqual(add(1, 1), 2);
  });
});
'
RUST_BASE='pub fn add(a: i32, b: i32) -> i32 {
    a + b + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(1, 2), 3);
    }
}
'

# ---- Rule 3 (JS suite): the suite ends at the first `}`-only line at its indentation ----
# The new suite's `it` is closed by a `});` written at column 0: the analysis ends the
# suite there (all of it added in the hunk, its tests all new), but in JavaScript that
# `});` closes only the `it` call. The unchanged old suite below is still inside
# `describe.skip("more", …)` (closed by a `});` added at the end): "math adds" is pending.
v R1a_suite_end_by_indentation
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
cat > test/math.spec.js <<'X'
const assert = require("assert");
const add = (a, b) => a + b + 1;

describe.skip("more", function () {
  it("subtracts", function () {
    assert.strictEqual(2 - 1, 1);
});

describe("math", function () {
  it("adds", function () {
    assert.strictEqual(add(1, 1), 2);
  });
});
});
X
judge; rt js test/math.spec.js

# The same through a hook: `this.skip()` in the `before` of a suite added "whole", whose
# real end is below the old suite (nested in it without re-indenting).
v R1b_hook_suite_end_by_indentation
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
cat > test/math.spec.js <<'X'
const assert = require("assert");
const add = (a, b) => a + b + 1;

describe("slow", function () {
  before(function () {
    if (!process.env.SLOW) this.skip();
  });
  it("multiplies", function () {
    assert.strictEqual(2 * 3, 6);
});

describe("math", function () {
  it("adds", function () {
    assert.strictEqual(add(1, 1), 2);
  });
});
});
X
judge; rt js test/math.spec.js

# ---- Rule 3 (JS hook): the hook's block is the nearest line above at lower indentation ----
# The `before(…)` is an argument of `describe(…)`, evaluated before the suite exists: a
# root hook, whose `this.skip()` skips every test of the run (all files). By indentation
# it sits in the new suite, which is added whole with a new test below it.
v R1c_root_hook_as_describe_argument
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
cat >> test/math.spec.js <<'X'

describe("slow", (
  before(function () {
    if (!process.env.SLOW) this.skip();
  }),
  function () {
    it("multiplies", function () {
      assert.strictEqual(2 * 3, 6);
    });
}));
X
judge; rt js test/math.spec.js

# ---- Rule 3 (any other line): the nearest test above, when the line is more indented ----
# A root `before` hook below a new test: its body is more indented than the `it(` line,
# so `this.skip()` is taken for the new test's own. It skips every test of the run.
v R1d_root_hook_below_new_test
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
cat >> test/math.spec.js <<'X'

it("multiplies", function () {
  assert.strictEqual(2 * 3, 6);
});
before(function () {
  if (!process.env.SLOW) this.skip();
});
X
judge; rt js test/math.spec.js

# Python: a module-level statement continued inside brackets is more indented than the
# new `def` above it: `pytestmark = [ … ]` skips every test of the module.
v R1e_pytestmark_continuation_below_new_test
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


def test_sub():
    assert 2 - 1 == 1


pytestmark = [
    pytest.mark.skip(reason="later"),
]
X
judge; rt py tests/test_calc.py

v R1f_module_skip_continuation_below_new_test
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


def test_sub():
    assert 2 - 1 == 1


(
    pytest.skip("later", allow_module_level=True)
)
X
judge; rt py tests/test_calc.py

# ---- Rule 3 (decorators): a decorator applies to the item right below ----
# A decorator is any expression (Python 3.9): an assignment expression in it binds a
# module global, here `pytestmark`, which pytest applies to every test of the module.
v R1g_walrus_pytestmark_in_decorator
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


@(pytestmark := pytest.mark.skip(reason="later"))
def test_sub():
    assert 2 - 1 == 1
X
judge; rt py tests/test_calc.py

# Inside a decorator's brackets: a line with `mark.` and no skip call is a marker object
# for the test below, but the walrus binds the module's `pytestmark` too.
v R1h_walrus_pytestmark_in_parametrize
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


@pytest.mark.parametrize("x", [
    1,
    pytest.param(2, marks=(pytestmark := pytest.mark.skip(reason="slow"))),
])
def test_new(x):
    assert x
X
judge; rt py tests/test_calc.py

# ---- Rule 1 (name): read on the first line below the attributes that is not one ----
# A comment between `#[ignore]` and `fn adds()` is that line: the name is read from it
# (`issue`, the identifier before its `(`), on an added line, and no old test is named
# so: new. The added `#[test]` is the one git lines up over the old `fn adds` (a new test
# is added above with its own `#[test]`, which the diff pairs with the old one, as in
# attack-34's B1c, which NEW now counts): `adds` is ignored, and nothing is removed.
v R2a_rust_name_read_from_comment
printf '%s' "$RUST_BASE" | put src/math.rs; commit
cat > src/math.rs <<'X'
pub fn add(a: i32, b: i32) -> i32 {
    a + b + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_zero() {
        assert_eq!(add(0, 0), 1);
    }

    #[test]
    #[ignore]
    // flaky on CI, see issue(412)
    fn adds() {
        assert_eq!(add(1, 2), 3);
    }
}
X
judge

# The same with a doc comment.
v R2b_rust_name_read_from_doc_comment
printf '%s' "$RUST_BASE" | put src/math.rs; commit
cat > src/math.rs <<'X'
pub fn add(a: i32, b: i32) -> i32 {
    a + b + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_zero() {
        assert_eq!(add(0, 0), 1);
    }

    #[test]
    #[ignore]
    /// Slow: add(1, 2) goes through the big-number path.
    fn adds() {
        assert_eq!(add(1, 2), 3);
    }
}
X
judge

# JUnit: the same comment between `@Disabled` and the method.
v R2c_junit_name_read_from_comment
put src/test/java/MathTest.java <<'X'
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;

class MathTest {
    static int add(int a, int b) { return a + b + 1; }

    @Test
    void adds() {
        assertEquals(3, add(1, 2));
    }
}
X
commit
cat > src/test/java/MathTest.java <<'X'
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Disabled;
import static org.junit.jupiter.api.Assertions.assertEquals;

class MathTest {
    static int add(int a, int b) { return a + b + 1; }

    @Test
    void addsZero() {
        assertEquals(1, add(0, 0));
    }

    @Test
    @Disabled
    // flaky on CI, see issue(412)
    void adds() {
        assertEquals(3, add(1, 2));
    }
}
X
judge

# ---- pytester's line matchers: the identical call kept on an added line ----
# The call kept is in a string (a bare string statement): the text is identical, so the
# `assert` dropped counts nothing, but the check is gone.
v R3a_fnmatch_call_kept_in_string
put tests/test_cli.py <<'X'
pytest_plugins = "pytester"


def test_runs(pytester):
    pytester.makepyfile("def test_x(): assert 0")
    result = pytester.runpytest()
    assert result.stdout.fnmatch_lines(["*1 passed*"])
X
commit
cat > tests/test_cli.py <<'X'
pytest_plugins = "pytester"


def test_runs(pytester):
    pytester.makepyfile("def test_x(): assert 0")
    result = pytester.runpytest()
    """
    result.stdout.fnmatch_lines(["*1 passed*"])
    """
X
judge; rt py tests/test_cli.py

# Kept in a function that nobody calls.
v R3b_fnmatch_call_kept_in_dead_code
put tests/test_cli.py <<'X'
pytest_plugins = "pytester"


def test_runs(pytester):
    pytester.makepyfile("def test_x(): assert 0")
    result = pytester.runpytest()
    assert result.stdout.fnmatch_lines(["*1 passed*"])
X
commit
cat > tests/test_cli.py <<'X'
pytest_plugins = "pytester"


def test_runs(pytester):
    pytester.makepyfile("def test_x(): assert 0")
    result = pytester.runpytest()

    def later():
        result.stdout.fnmatch_lines(["*1 passed*"])
X
judge; rt py tests/test_cli.py

# The matcher is the file's own, which returns a bool (pytester's fails by itself, this
# one does not): the `assert` was the check.
v R3c_fnmatch_lines_of_own_class
put tests/test_out.py <<'X'
from fnmatch import fnmatch


class Out:
    def __init__(self, text):
        self.lines = text.splitlines()

    def fnmatch_lines(self, patterns):
        return all(any(fnmatch(line, p) for line in self.lines) for p in patterns)


def test_report():
    out = Out("1 failed")
    assert out.fnmatch_lines(["*1 passed*"])
X
commit
sed -i 's/    assert out.fnmatch_lines/    out.fnmatch_lines/' tests/test_out.py
judge; rt py tests/test_out.py

# ---- javascript.rs: `global.expect = require('<library>')` is no stand-in ----
# The library by name is whatever Node resolves: a `test/node_modules/expect.js` added by
# the change shadows the vendored real one for the files under test/. The line that makes
# it the global `expect` is exempt by its text.
JS_EXPECT_BASE='const expect = require("expect.js");
const add = (a, b) => a + b + 1;

describe("math", function () {
  it("adds", function () {
    expect(add(1, 1)).to.be(2);
  });
});
'
REAL_EXPECT='module.exports = function expect(actual) {
  return { to: { be(expected) { if (actual !== expected) throw new Error(actual + " !== " + expected); } } };
};
'
v R4a_expect_js_shadowed_by_nested_node_modules
printf '%s' "$JS_EXPECT_BASE" | put test/math.spec.js
printf '%s' "$REAL_EXPECT" | put node_modules/expect.js/index.js
commit
put test/node_modules/expect.js/index.js <<'X'
module.exports = () => ({ to: { be() {} } });
X
sed -i 's/^const expect = require/global.expect = require/' test/math.spec.js
judge; rt js test/math.spec.js

# The same through the package's own name: package.json names the package `expect.js` and
# exports a stub, so `require("expect.js")` from inside it loads the stub (self-reference).
v R4b_expect_js_self_reference
printf '%s' "$JS_EXPECT_BASE" | put test/math.spec.js
printf '%s' "$REAL_EXPECT" | put node_modules/expect.js/index.js
put package.json <<'X'
{
  "name": "calc",
  "version": "1.0.0"
}
X
commit
put package.json <<'X'
{
  "name": "expect.js",
  "version": "1.0.0",
  "exports": "./test/expect.js"
}
X
put test/expect.js <<'X'
module.exports = () => ({ to: { be() {} } });
X
sed -i 's/^const expect = require/global.expect = require/' test/math.spec.js
judge; rt js test/math.spec.js

# ---- References: the same edits without the trick, which NEW counts ----
# R2c without the comment line.
v X2c_ref_junit_without_comment
put src/test/java/MathTest.java <<'X'
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;

class MathTest {
    static int add(int a, int b) { return a + b + 1; }

    @Test
    void adds() {
        assertEquals(3, add(1, 2));
    }
}
X
commit
cat > src/test/java/MathTest.java <<'X'
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Disabled;
import static org.junit.jupiter.api.Assertions.assertEquals;

class MathTest {
    static int add(int a, int b) { return a + b + 1; }

    @Test
    void addsZero() {
        assertEquals(1, add(0, 0));
    }

    @Test
    @Disabled
    void adds() {
        assertEquals(3, add(1, 2));
    }
}
X
judge

# R1a with the new suite closed where it ends (the old suite left out of it).
v X1a_ref_old_suite_skipped_outright
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
sed -i 's/^describe("math"/describe.skip("math"/' test/math.spec.js
judge

# ---- Controls: honest edits, all 0 ----
# A new suite added skipped, closed where it ends.
v C1_ctrl_new_suite_skipped
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
cat >> test/math.spec.js <<'X'

describe.skip("more", function () {
  it("subtracts", function () {
    assert.strictEqual(2 - 1, 1);
  });
});
X
judge; rt js test/math.spec.js

# A new test skipped, with a comment between its decorator and its def.
v C2_ctrl_new_skipped_test_with_comment
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


@pytest.mark.skip(reason="later")
# needs the big-number path (issue(412))
def test_big():
    assert add(10**20, 1) == 10**20 + 2
X
judge; rt py tests/test_calc.py

# A new Rust test ignored, with a comment between its attributes and its fn.
v C3_ctrl_rust_new_ignored_test_with_comment
printf '%s' "$RUST_BASE" | put src/math.rs; commit
cat > src/math.rs <<'X'
pub fn add(a: i32, b: i32) -> i32 {
    a + b + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(1, 2), 3);
    }

    #[test]
    #[ignore]
    // slow, see issue(412)
    fn adds_big() {
        assert_eq!(add(i32::MAX - 1, 0), i32::MAX);
    }
}
X
judge

# pytest's own cleanup: `assert` dropped from a pytester matcher that stays live.
v C4_ctrl_fnmatch_assert_dropped_live
put tests/test_cli.py <<'X'
pytest_plugins = "pytester"


def test_runs(pytester):
    pytester.makepyfile("def test_x(): assert 0")
    result = pytester.runpytest()
    assert result.stdout.fnmatch_lines(["*1 passed*"])
X
commit
sed -i 's/    assert result.stdout/    result.stdout/' tests/test_cli.py
judge; rt py tests/test_cli.py

# The global `expect` made the real, vendored expect.js.
v C5_ctrl_global_expect_real_library
printf '%s' "$JS_EXPECT_BASE" | put test/math.spec.js
printf '%s' "$REAL_EXPECT" | put node_modules/expect.js/index.js
commit
sed -i 's/^const expect = require/global.expect = require/' test/math.spec.js
judge; rt js test/math.spec.js
