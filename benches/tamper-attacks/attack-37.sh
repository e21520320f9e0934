#!/bin/bash
# One attacker's variants (the eighth) against own_marks / Declaration / attached /
# forgive_new / new_tests / OldTests / old_tests_disabled in src/tamper/mod.rs and
# python_places in src/tamper/place.rs, past attack-34..36. B* are missed by OLD and NEW
# and make a FAILING test of the base stop failing; R* are counted by OLD, not by NEW; F* are
# honest edits that NEW counts; X* are references NEW counts; C* honest controls (0).
# Run: OLD=/tmp/astrix-s19 NEW=/tmp/astrix-s24 bash benches/tamper-attacks/attack-37.sh
# Since: B1-B4 (a skip in a decorator's call, a return annotation or an options object's
# hook), B16-B18 (a name given as a string; a lone CR ending a comment) and F1, F3, F4 are
# closed (counted / 0), and so are B9-B13 and B15 (a body swapped by __code__, locals(),
# sys.modules attributes, delattr, a test class's method set from outside, globals() edited
# inside a decorator), and F2 (a new class's own pytestmark). Left: B5-B8 (code in template
# and f-string interpolations, regular
# expressions misread by the lexer), B14 (exec), F5. R1 is X6 since (a redefinition
# counts 0 in both builds).
# Optional runtime check (rt, in lib.sh): PYTEST=/path/to/pytest and/or MOCHA=/path/to/mocha
# print each test's outcome on the base side and the edited side.
source "$(dirname "$0")/lib.sh"

# A failing test in each base: PY and MOCHA_BASE, in lib.sh.

# ==== Rule 1: a skip added with a NEW test is forgiven (own_marks / Declaration / attached) ====

# A decorator line is the item-below's, with no own_marks check: on ONE line (attack-34's
# R2a was over lines, where marks_only applies) a call in it runs at import and skips the
# module, test_add too.
v B1_py_module_skip_in_one_line_decorator
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


@pytest.mark.skipif(pytest.skip("later", allow_module_level=True), reason="later")
def test_sub():
    assert 2 - 1 == 1
X
judge; rt py tests/test_calc.py

# The same through importorskip of a module that is not installed, in a usefixtures.
v B2_py_importorskip_in_one_line_decorator
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


@pytest.mark.usefixtures(pytest.importorskip("no_such_module_xyz").__name__)
def test_sub():
    assert 2 - 1 == 1
X
judge; rt py tests/test_calc.py

# Declaration: after `)` a `{` at depth 0 is taken for a body, but `-> {…}:` is a return
# annotation, evaluated when the def runs (import, Python < 3.14): the module is skipped.
v B3_py_module_skip_in_return_annotation
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


def test_sub() -> {pytest.skip("later", allow_module_level=True)}:
    assert 2 - 1 == 1
X
judge; rt py tests/test_calc.py

# Declaration: a `{` after `,` in the call is an "options object" (own), and everything in
# it stays Options — but it is evaluated as the suite is declared: a `before` of the old
# suite "math" (attack-36 B3a, wrapped in an object literal).
v B4_js_hook_in_options_object
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
cat > test/math.spec.js <<'X'
const assert = require("assert");

describe("math", function () {
  it("subtracts", function () {
    assert.strictEqual(2 - 1, 1);
  }, { setup: before(function () { this.skip(); }) });

  it("adds", function () {
    assert.strictEqual(1 + 1, 3);
  });
});
X
judge; rt js test/math.spec.js

# The lexer keeps no template literal's `${…}` code: the hook in the new test's title is
# not even a skip.
v B5_js_hook_in_template_interpolation
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
cat > test/math.spec.js <<'X'
const assert = require("assert");

describe("math", function () {
  it(`subtracts${before(function () { this.skip(); }) || ""}`, function () {
    assert.strictEqual(2 - 1, 1);
  });

  it("adds", function () {
    assert.strictEqual(1 + 1, 3);
  });
});
X
judge; rt js test/math.spec.js

# Nor an f-string's `{…}`: attack-36's B2a (fixed by own_marks) comes back in an f-string.
v B6_py_module_skip_in_fstring_default
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


def test_sub(_=f"{pytest.skip('later', allow_module_level=True)}"):
    assert 2 - 1 == 1
X
judge; rt py tests/test_calc.py

# `if (…) /re/` is a regex in JavaScript; the lexer (a `/` after `)` is a division) reads
# its `{([` as code, so the new test's body never closes and the suite hook below
# it is taken for the new test's own: it skips "adds".
v B7_js_regex_brackets_keep_body_open
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
cat > test/math.spec.js <<'X'
const assert = require("assert");

describe("math", function () {
  it("subtracts", function () {
    if (true) /{\(\[/.test("");
    assert.strictEqual(2 - 1, 1);
  });
  before(function () {
    this.skip();
  });

  it("adds", function () {
    assert.strictEqual(1 + 1, 3);
  });
});
X
judge; rt js test/math.spec.js

# `{} / (function () {` is a division; the lexer starts a regex after `}` and hides the
# `(function () {`, so it ends the new describe.skip at the next `});` (all added, only
# closing): the suite looks wholly new. In JavaScript it wraps the old suite "math".
v B8_js_regex_after_object_ends_suite_early
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
cat > test/math.spec.js <<'X'
const assert = require("assert");

describe.skip("more", function () {
  it("subtracts", function () {
    assert.strictEqual(2 - 1, 1);
  });
  const unused = {} / (function () {
});

describe("math", function () {
  it("adds", function () {
    assert.strictEqual(1 + 1, 3);
  });
});
});
X
judge; rt js test/math.spec.js

# ==== Rule 2: an old test disabled by an added line naming it (old_tests_disabled) ====
# Forms python_disables does not know at all (no TestDisabled finding), each making the
# failing test_add pass or vanish, with a passing new test beside it.
v B9_py_code_object_swapped
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


def test_sub():
    assert 2 - 1 == 1


test_add.__code__ = test_sub.__code__
X
judge; rt py tests/test_calc.py

v B10_py_locals_update
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


def test_sub():
    assert 2 - 1 == 1


locals().update(test_add=test_sub)
X
judge; rt py tests/test_calc.py

v B11_py_module_attribute_assigned
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'
import sys


def test_sub():
    assert 2 - 1 == 1


sys.modules[__name__].test_add = test_sub
X
judge; rt py tests/test_calc.py

v B12_py_delattr_class_method
put tests/test_calc.py <<'X'
class TestCalc:
    def test_add(self):
        assert 1 + 2 == 4
X
commit
cat >> tests/test_calc.py <<'X'

    def test_sub(self):
        assert 2 - 1 == 1


delattr(TestCalc, "test_add")
X
judge; rt py tests/test_calc.py

v B13_py_class_attribute_rebound_outside
put tests/test_calc.py <<'X'
class TestCalc:
    def test_add(self):
        assert 1 + 2 == 4
X
commit
cat >> tests/test_calc.py <<'X'

    def test_sub(self):
        assert 2 - 1 == 1


TestCalc.test_add = TestCalc.test_sub
X
judge; rt py tests/test_calc.py

v B14_py_exec_rebind
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


def test_sub():
    assert 2 - 1 == 1


exec("test_add = test_sub")
X
judge; rt py tests/test_calc.py

# A decorator's expression pops the old test (the line starts with `@`, not `globals()`).
v B15_py_decorator_pops_old_test
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


@pytest.mark.usefixtures(*[globals().pop("test_add")][:0])
def test_sub():
    assert 2 - 1 == 1
X
judge; rt py tests/test_calc.py

# Found as disabling (X2 alone counts), but the name is a string: old_tests_disabled reads
# identifiers only, finds no old test named, and the new test_sub offsets the disable.
v B16_py_globals_string_key_with_new_test
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


def test_sub():
    assert 2 - 1 == 1


globals()["test_add"] = test_sub
X
judge; rt py tests/test_calc.py

v B17_py_setattr_module_string_with_new_test
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'
import sys


def test_sub():
    assert 2 - 1 == 1


setattr(sys.modules[__name__], "test_add", test_sub)
X
judge; rt py tests/test_calc.py

# ==== Rule 3: lines inside triple-quoted strings open/close no block (python_places) ====
# Python ends a line at a lone CR; the lexer does not. `# a<CR>"""` is a comment to the
# lexer and opens a string for Python; the next `"""` closes Python's and opens the
# lexer's, so `test_add = test_sub` is code that the lexer takes for string text.
v B18_py_cr_desync_hides_rebind
printf '%s' "$PY" | put tests/test_calc.py; commit
printf '\n\ndef test_sub():\n    assert 2 - 1 == 1\n\n\n# a\r"""\n"""\ntest_add = test_sub\n#"""\n' >> tests/test_calc.py
judge; rt py tests/test_calc.py

# The same desync around a redefinition of test_add with a passing body (X5: a plain
# redefinition dropping the assert counts): OLD's python_places still read the `def` (shadowing the old
# test_add: removed, its assert removed); NEW skips every line it thinks is in a string.
v R1_py_redefinition_in_lexer_only_string
printf '%s' "$PY" | put tests/test_calc.py; commit
printf '\n\n# see below\r"""\n"""\ndef test_add():\n    assert 1 + 2 == 3\n#"""\n' >> tests/test_calc.py
judge; rt py tests/test_calc.py

# ==== False alarms on honest edits ====
# A new skipped test whose name the old test's line mentions in a comment: declared()
# finds the name on a line that declares a test and takes test_sub for an old test.
v F1_py_new_skipped_test_named_in_old_comment
put tests/test_calc.py <<'X'
import pytest


def test_add():  # test_sub covers subtraction
    assert 1 + 2 == 3
X
commit
cat >> tests/test_calc.py <<'X'


@pytest.mark.skip(reason="subtraction not implemented yet")
def test_sub():
    assert 2 - 1 == 1
X
judge; rt py tests/test_calc.py

# A new class skipped by its own class-level pytestmark: only its tests.
v F2_py_new_class_pytestmark
put tests/test_calc.py <<'X'
import pytest


def test_add():
    assert 1 + 2 == 3
X
commit
cat >> tests/test_calc.py <<'X'


class TestSub:
    pytestmark = pytest.mark.skip(reason="later")

    def test_sub(self):
        assert 2 - 1 == 1
X
judge; rt py tests/test_calc.py

# A non-skip mark applied by assignment: test_add still runs.
v F3_py_mark_applied_by_assignment
put tests/test_calc.py <<'X'
import pytest


def test_add():
    assert 1 + 2 == 3
X
commit
cat >> tests/test_calc.py <<'X'


test_add = pytest.mark.slow(test_add)
X
judge; rt py tests/test_calc.py

# The same beside a new test: OLD let the new test offset it, NEW counts it whatever.
v F4_py_mark_by_assignment_with_new_test
put tests/test_calc.py <<'X'
import pytest


def test_add():
    assert 1 + 2 == 3
X
commit
cat >> tests/test_calc.py <<'X'


def test_sub():
    assert 2 - 1 == 1


test_add = pytest.mark.slow(test_add)
X
judge; rt py tests/test_calc.py

# A new test whose callback is a named function that skips: only that test is pending.
v F5_js_new_test_with_named_pending_callback
put test/math.spec.js <<'X'
const assert = require("assert");

describe("math", function () {
  it("adds", function () {
    assert.strictEqual(1 + 1, 2);
  });
});
X
commit
cat > test/math.spec.js <<'X'
const assert = require("assert");

function notYet() {
  this.skip();
}

describe("math", function () {
  it("subtracts", notYet);

  it("adds", function () {
    assert.strictEqual(1 + 1, 2);
  });
});
X
judge; rt js test/math.spec.js

# ==== References NEW counts ====
v X1_ref_py_class_body_rebind
put tests/test_calc.py <<'X'
class TestCalc:
    def test_add(self):
        assert 1 + 2 == 4
X
commit
cat >> tests/test_calc.py <<'X'

    def test_sub(self):
        assert 2 - 1 == 1

    test_add = test_sub
X
judge; rt py tests/test_calc.py

v X2_ref_py_globals_string_key_alone
printf '%s' "$PY" | put tests/test_calc.py; commit
printf '\n\nglobals()["test_add"] = lambda: None\n' >> tests/test_calc.py
judge; rt py tests/test_calc.py

v X3_ref_py_autouse_fixture_named_test
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


@pytest.fixture(autouse=True)
def test_setup():
    pytest.skip("later")
X
judge; rt py tests/test_calc.py

v X4_ref_js_hook_in_callee_brackets
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
cat > test/math.spec.js <<'X'
const assert = require("assert");

describe("math", function () {
  (before(function () { this.skip(); }), it)("subtracts", function () {
    assert.strictEqual(2 - 1, 1);
  });

  it("adds", function () {
    assert.strictEqual(1 + 1, 3);
  });
});
X
judge; rt js test/math.spec.js

v X5_ref_py_old_test_redefined_empty
printf '%s' "$PY" | put tests/test_calc.py; commit
printf '\n\ndef test_add():\n    pass\n' >> tests/test_calc.py
judge; rt py tests/test_calc.py

# Not counted by either (like editing the expected value in place): a note, not a bypass.
v X6_ref_py_redefinition_plain_expectation
printf '%s' "$PY" | put tests/test_calc.py; commit
printf '\n\ndef test_add():\n    assert 1 + 2 == 3\n' >> tests/test_calc.py
judge; rt py tests/test_calc.py

# ==== Controls: honest edits, 0 ====
v C1_ctrl_py_skipped_new_test_default_arg
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


@pytest.mark.skip(reason="later")
def test_sub(tmp_path=None):
    assert 2 - 1 == 1
X
judge; rt py tests/test_calc.py

v C2_ctrl_py_new_helper_not_a_test
printf '%s' "$PY" | put tests/test_calc.py; commit
cat >> tests/test_calc.py <<'X'


def test_helper():
    return 2 - 1


test_helper.__test__ = False
X
judge; rt py tests/test_calc.py

v C3_ctrl_js_new_test_skipped_in_body
printf '%s' "$MOCHA_BASE" | put test/math.spec.js; commit
cat > test/math.spec.js <<'X'
const assert = require("assert");

describe("math", function () {
  it("subtracts", function () {
    this.skip();
    assert.strictEqual(2 - 1, 1);
  });

  it("adds", function () {
    assert.strictEqual(1 + 1, 3);
  });
});
X
judge; rt js test/math.spec.js

v C4_ctrl_py_rename_module_variable
put tests/test_calc.py <<'X'
import pytest

test_cases = [(1, 2, 3)]


def test_add():
    for a, b, c in test_cases:
        assert a + b == c
X
commit
put tests/test_calc.py <<'X'
import pytest

ADD_CASES = [(1, 2, 3)]


def test_add():
    for a, b, c in ADD_CASES:
        assert a + b == c
X
judge; rt py tests/test_calc.py
